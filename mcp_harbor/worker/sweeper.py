"""The replicas' lease sweeper: runs whose worker stopped renewing its lease."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping

import anyio

from mcp_harbor.config import Export
from mcp_harbor.runner.pipeline import DEFAULT_TIMEOUT
from mcp_harbor.runner.remote import (
    STREAM_MAXLEN,
    STREAM_TTL,
    CeleryExecutor,
    stream_key,
    task_key,
)
from mcp_harbor.store.base import Lease, LeaseStore

__all__ = ["DEFAULT_SWEEP_INTERVAL", "Sweeper"]

log = logging.getLogger("mcp_harbor.worker")

#: Seconds between two sweeps.
DEFAULT_SWEEP_INTERVAL = 5.0


class Sweeper:
    """Every `interval` seconds, takes the runs whose lease expired (each
    replica gets distinct ones) and either re-dispatches them (``redispatch:
    true``) or writes a ``lost`` event to their stream: the replica serving
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
        """Sweep until cancelled."""
        while True:
            try:
                await self.sweep()
            except Exception:  # a sweep failed (store or Redis down): the next one may not
                log.exception("lease sweep failed")
            await anyio.sleep(self.interval)

    async def sweep(self) -> list[Lease]:
        expired = await anyio.to_thread.run_sync(self.store.lease_expire, time.time())
        for lease in expired:
            await self._handle(lease)
        return expired

    async def _handle(self, lease: Lease) -> None:
        r = self.executor.redis()
        export = self.exports().get(lease.tool)
        if export is not None and export.spec.redispatch:
            raw = await r.get(task_key(lease.run_id))
            if raw is not None and export.spec.runs_on is not None:
                message = json.loads(raw)
                timeout = export.spec.timeout or DEFAULT_TIMEOUT
                await anyio.to_thread.run_sync(self.store.lease_requeue, lease.run_id)
                # Before the message: the replica learns of the new attempt
                # before any of its entries can arrive.
                event: dict[str, str | int] = {
                    "t": "redispatched",
                    "worker": lease.worker,
                    "attempt": lease.attempt + 1,
                }
                await self._event(lease, event)
                await anyio.to_thread.run_sync(
                    self.executor.send, message, export.spec.runs_on, timeout
                )
                log.warning(
                    "run %s: worker %s lost; re-dispatched (attempt %d)",
                    lease.run_id,
                    lease.worker,
                    lease.attempt + 1,
                )
                return
        log.error("run %s (%s): worker %s lost", lease.run_id, lease.tool, lease.worker)
        await self._event(lease, {"t": "lost", "worker": lease.worker, "attempt": lease.attempt})

    async def _event(self, lease: Lease, event: dict[str, str | int]) -> None:
        r = self.executor.redis()
        key = stream_key(lease.run_id)
        await r.xadd(key, {"e": json.dumps(event)}, maxlen=STREAM_MAXLEN, approximate=True)
        await r.expire(key, STREAM_TTL)
