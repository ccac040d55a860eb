"""`Sweeper`: the replicas' lease sweeper, for runs whose worker stopped renewing its lease."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Final, final

import anyio

from mcp_harbor.config import Export
from mcp_harbor.errors import RunError
from mcp_harbor.remote.executor import CeleryExecutor
from mcp_harbor.remote.wire import (
    STREAM_MAXLEN,
    STREAM_TTL,
    Entry,
    Event,
    Lost,
    Redispatched,
    RunMessage,
    stream_key,
    task_key,
    to_stream,
)
from mcp_harbor.store.base import Lease, LeaseStore

__all__ = ["DEFAULT_SWEEP_INTERVAL", "Sweeper"]

log = logging.getLogger("mcp_harbor.remote")

#: Seconds between two sweeps.
DEFAULT_SWEEP_INTERVAL: Final = 5.0


@final
class Sweeper:
    """Every `interval` seconds, takes the runs whose lease expired (each
    replica gets distinct ones) and either re-dispatches them (``redispatch:
    true``) or writes a ``lost`` entry to their stream: the replica serving
    the call answers ``worker_lost`` and records it."""

    def __init__(
        self,
        store: LeaseStore,
        executor: CeleryExecutor,
        exports: Callable[[], Mapping[str, Export]],
        interval: float = DEFAULT_SWEEP_INTERVAL,
    ) -> None:
        self.store = store
        self.executor = executor
        self.exports = exports
        self.interval = interval

    async def run(self) -> None:
        """Sweep until cancelled; a sweep that fails (the store or Redis is
        down) is logged with its traceback, and the next one tries again.

        **Cancellation:** propagates at once; a sweep cut short is as in
        `sweep`.
        """
        while True:
            try:
                await self.sweep()
            except Exception:  # a sweep failed (store or Redis down): the next one may not
                log.exception("lease sweep failed")
            await anyio.sleep(self.interval)

    async def sweep(self) -> list[Lease]:
        """One sweep: settle every lease that expired by now; returns them.

        **Cancellation:** the expired leases are already marked lost in the
        store; those not handled yet get no entry (the replica's call gives
        such a run up as ``worker_lost`` after its deadline plus the result
        grace)."""
        expired = await anyio.to_thread.run_sync(self.store.lease_expire, time.time())
        for lease in expired:
            await self._handle(lease)
        return expired

    async def _handle(self, lease: Lease) -> None:
        export = self.exports().get(lease.tool)
        if export is not None and export.spec.redispatch and export.spec.runs_on is not None:
            message = await self._kept(lease)
            if message is not None:
                await anyio.to_thread.run_sync(self.store.lease_requeue, lease.run_id)
                # Before the message: the replica learns of the new attempt
                # before any of its entries can arrive.
                await self._write(lease, Redispatched(), lease.attempt + 1)
                await anyio.to_thread.run_sync(self.executor.send, message, export.spec.runs_on)
                log.warning(
                    "run %s: worker %s lost; re-dispatched (attempt %d)",
                    lease.run_id,
                    lease.worker,
                    lease.attempt + 1,
                )
                return
        log.error("run %s (%s): worker %s lost", lease.run_id, lease.tool, lease.worker)
        await self._write(lease, Lost(lease.worker), lease.attempt)

    async def _kept(self, lease: Lease) -> RunMessage | None:
        """The run's kept message; None when it is gone (expired, Redis lost
        it) or cannot be read (kept by a replica of another version): the
        run is then reported lost."""
        raw = await self.executor.redis().get(task_key(lease.run_id))
        if raw is None:
            log.error("run %s: its kept message is gone; it cannot be re-dispatched", lease.run_id)
            return None
        try:
            return RunMessage.decode(json.loads(raw))
        except (ValueError, RunError) as exc:
            log.error(
                "run %s: its kept message cannot be read (%s); not re-dispatched", lease.run_id, exc
            )
            return None

    async def _write(self, lease: Lease, event: Event, attempt: int) -> None:
        r = self.executor.redis()
        key = stream_key(lease.run_id)
        entry = to_stream(Entry(event, attempt=attempt))
        await r.xadd(key, entry, maxlen=STREAM_MAXLEN, approximate=True)
        await r.expire(key, STREAM_TTL)
