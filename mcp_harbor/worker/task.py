"""The worker's task: one run, its steps in order, reported through Redis."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel

from mcp_harbor.config import Export, Step
from mcp_harbor.runner import LocalExecutor, RunRequest, StepResult
from mcp_harbor.runner.remote import (
    LINE_LIMIT,
    PROTOCOL_VERSION,
    STREAM_MAXLEN,
    STREAM_TTL,
    TASK_NAME,
    cancel_key,
    celery_app,
    stream_key,
)
from mcp_harbor.store.base import LeaseStore

__all__ = ["DEFAULT_LEASE", "Worker"]

log = logging.getLogger("mcp_harbor.worker")

#: Seconds a run's lease lasts without a heartbeat; renewed every third of it.
DEFAULT_LEASE = 15.0
#: The largest $HARBOR_OUTPUT file sent back to the replica.
OUTPUT_LIMIT = 16 * 1024 * 1024


class _StreamObserver:
    """A `RunObserver` that appends to the run's stream."""

    def __init__(self, emit: Any, wants_output: bool) -> None:  # emit: _RunStream.emit
        self._emit = emit
        self._wants_output = wants_output

    @property
    def wants_output(self) -> bool:
        return self._wants_output

    async def step_started(self, step: Step, number: int, total: int) -> None:
        await self._emit(
            {
                "t": "step_started",
                "section": step.section,
                "index": step.index,
                "n": number,
                "total": total,
            }
        )

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        event = {"t": "step_finished", "n": number, "total": total}
        await self._emit({**event, "result": result.to_json()})

    async def output(self, step: Step, stream: str, line: str) -> bool:
        await self._emit(
            {
                "t": "output",
                "section": step.section,
                "index": step.index,
                "stream": stream,
                "line": line[:LINE_LIMIT],
            }
        )
        return True


class _RunStream:
    """The worker's side of one run's stream (an asyncio Redis client of the
    run's loop). Every entry carries the host, the attempt (once the lease
    is claimed) and the time it was written (``at``, Unix seconds: the
    per-hop timings of ``bench/bench_remote.py``).

    Progress entries (`emit`) are queued and written by a sender task, in
    order, several per round trip: the run does not wait for Redis before it
    starts a step, and a step's end goes out with the result that follows it.
    `started` and `final` write everything queued before them first."""

    def __init__(self, r: Any, run_id: str, hostname: str) -> None:
        self.r = r
        self.key = stream_key(run_id)
        self.hostname = hostname
        self.attempt: int | None = None
        self.closed = False  # the stream's expiry is set
        self._queue: list[dict[str, str]] = []
        self._wake = anyio.Event()
        self._lock = anyio.Lock()  # one pipeline at a time: entries stay in order

    def _fields(self, event: dict[str, Any]) -> dict[str, str]:
        event.setdefault("host", self.hostname)
        if self.attempt is not None:
            event.setdefault("attempt", self.attempt)
        event["at"] = time.time()
        return {"e": json.dumps(event)}

    async def emit(self, event: dict[str, Any]) -> None:
        self._queue.append(self._fields(event))
        self._wake.set()

    async def sender(self) -> None:
        """Write queued entries until cancelled (run it in a task group)."""
        while True:
            await self._wake.wait()
            self._wake = anyio.Event()
            try:
                await self._write()
            except Exception as exc:  # noqa: BLE001 - `final` raises it again
                log.error("%s: cannot write progress entries: %s", self.key, exc)

    async def _write(self, *extra: tuple[Any, ...], event: dict[str, Any] | None = None) -> Any:
        async with self._lock:
            queued, self._queue = self._queue, []
            if event is not None:
                queued.append(self._fields(event))
            if not queued and not extra:
                return []
            pipe = self.r.pipeline(transaction=False)
            for fields in queued:
                pipe.xadd(self.key, fields, maxlen=STREAM_MAXLEN, approximate=True)
            for command, *args in extra:
                getattr(pipe, command)(*args)
            return await pipe.execute()

    async def started(self, event: dict[str, Any], cancel: str) -> bool:
        """Append the ``started`` entry and read the cancel key in one round
        trip; True when the run was cancelled before it started."""
        replies = await self._write(("exists", cancel), event=event)
        return bool(replies[-1])

    async def final(self, event: dict[str, Any] | None) -> None:
        """The run's last entry (if any) and the stream's expiry, after
        everything queued, in one round trip."""
        self.closed = True
        await self._write(("expire", self.key, STREAM_TTL), event=event)


class Worker:
    """Runs the runs of its queues. `exports` are the worker's own loaded
    exports; a message whose export differs (content hash) is refused."""

    def __init__(
        self,
        broker: str,
        exports: Mapping[str, Export],
        store: LeaseStore,
        *,
        hostname: str | None = None,
        lease: float = DEFAULT_LEASE,
        visibility_timeout: float | None = None,
    ) -> None:
        self.broker = broker
        self.exports = dict(exports)
        self.store = store
        self.hostname = hostname or socket.gethostname()
        self.lease = lease
        self.app = celery_app(broker, visibility_timeout=visibility_timeout)
        self.app.task(name=TASK_NAME, acks_late=True, reject_on_worker_lost=True)(self.execute)
        self._redis: Any = None
        self._lock = threading.Lock()
        self._runs: dict[str, tuple[anyio.lowlevel.EventLoopToken, anyio.CancelScope]] = {}
        self._listening = threading.Event()
        self._loops = threading.local()
        self._executor = LocalExecutor()
        threading.Thread(target=self._listen, name="harbor-cancel", daemon=True).start()

    def execute(self, message: dict[str, Any]) -> None:
        """The Celery task body, in a thread of the threads pool. Each pool
        thread keeps one event loop for all its runs (one run at a time), so
        a run pays neither a new loop nor new helper threads, and the short
        blocking Redis and store calls below hold up only this run."""
        received = time.time()
        runner = getattr(self._loops, "runner", None)
        if runner is None:
            runner = self._loops.runner = asyncio.Runner()
        runner.run(self._execute(message, received))

    def _stream_client(self) -> Any:
        """The asyncio Redis client of this pool thread's loop."""
        client = getattr(self._loops, "redis", None)
        if client is None:
            import redis.asyncio as aioredis

            client = self._loops.redis = aioredis.Redis.from_url(self.broker)
        return client

    def redis(self) -> Any:
        """The worker's Redis client (thread-safe, one connection pool)."""
        if self._redis is None:
            import redis

            with self._lock:
                if self._redis is None:
                    self._redis = redis.Redis.from_url(self.broker)
        return self._redis

    def _listen(self) -> None:
        """One thread per worker: the cancel messages of every run."""
        import redis

        while True:
            try:
                pubsub = self.redis().pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(cancel_key("*"))
                self._listening.set()
                for message in pubsub.listen():
                    channel = message.get("channel", b"").decode()
                    run_id = channel.removeprefix("harbor:run:").removesuffix(":cancel")
                    self._cancel(run_id)
            except redis.RedisError as exc:
                log.error("cancel listener: %s; reconnecting", exc)
                time.sleep(1)

    def _cancel(self, run_id: str) -> None:
        with self._lock:
            running = self._runs.get(run_id)
        if running is not None:
            token, scope = running
            with contextlib.suppress(RuntimeError):  # the run just ended
                anyio.from_thread.run_sync(scope.cancel, token=token)

    async def _execute(self, message: dict[str, Any], received: float) -> None:
        run_id = str(message["run_id"])
        stream = _RunStream(self._stream_client(), run_id, self.hostname)
        async with anyio.create_task_group() as tg:
            tg.start_soon(stream.sender)
            try:
                await self._claim_and_run(stream, message, run_id, received)
            except Exception as exc:  # the replica must hear of it
                log.exception("run %s failed on the worker", run_id)
                if not stream.closed:
                    error = f"the worker {self.hostname} failed: {exc}"
                    await self._final(stream, run_id, {"t": "refused", "error": error})
            finally:
                if not stream.closed:
                    await self._final(stream, run_id, None)
                tg.cancel_scope.cancel()

    async def _final(self, stream: _RunStream, run_id: str, event: dict[str, Any] | None) -> None:
        """Send the run's last event. Redis itself may be what failed: then
        the replica cannot hear it, and the sweeper settles the run when its
        lease runs out; that is logged, never raised."""
        try:
            await stream.final(event)
        except Exception as exc:  # noqa: BLE001 - logged; the lease decides instead
            log.error(
                "run %s: could not send its last event (%s); the sweeper settles it when "
                "its lease runs out",
                run_id,
                exc,
            )

    async def _claim_and_run(
        self, stream: _RunStream, message: dict[str, Any], run_id: str, received: float
    ) -> None:
        tool = str(message.get("tool"))
        export = self.exports.get(tool)
        if message.get("v") != PROTOCOL_VERSION:
            await stream.final(
                {"t": "refused", "error": f"message version {message.get('v')} unknown"}
            )
            return
        if export is None or export.content_hash != message.get("content_hash"):
            have = "no such export" if export is None else f"content hash {export.content_hash}"
            await stream.final(
                {
                    "t": "refused",
                    "error": f"the worker {self.hostname} refused run {run_id}: its export "
                    f"{tool} differs from the server's ({have}, the server checked "
                    f"{message.get('content_hash')}); nothing was run",
                }
            )
            return
        # Blocking, on this run's own loop: nothing else runs on it yet.
        expires = time.time() + self.lease
        attempt = self.store.lease_acquire(run_id, tool, self.hostname, expires)
        if attempt is None:
            # A redelivery of a run that is (or was) someone's: never run it twice.
            log.warning("run %s: delivered again; already claimed, not run", run_id)
            await stream.emit({"t": "duplicate"})
            return
        stream.attempt = attempt
        lease = _Lease(run_id, attempt, expires)
        final: dict[str, Any] | None = None
        try:
            final = await self._run(stream, export, message, lease, received)
        except Exception as exc:  # the replica must hear of it
            log.exception("run %s failed on the worker", run_id)
            final = {"t": "refused", "error": f"the worker {self.hostname} failed: {exc}"}
        finally:
            held = self._release(lease)
        if final is None:
            return
        if not held:
            # Fencing: the sweeper declared this attempt lost (and may have
            # re-dispatched the run); its outcome is no longer this worker's to report.
            log.error(
                "run %s attempt %d: the lease was lost; its %s is not reported",
                run_id,
                attempt,
                final["t"],
            )
            return
        await stream.final(final)

    def _release(self, lease: _Lease) -> bool:
        """End the attempt's lease; True when it was still this attempt's, so
        its outcome may be reported. A store that cannot be reached answers
        True only while the last renewal still runs (the sweeper cannot have
        declared the run lost before then)."""
        try:
            return self.store.lease_release(lease.run_id, lease.attempt)
        except Exception as exc:  # noqa: BLE001 - decided by the lease's expiry instead
            log.error("run %s: cannot release the lease: %s", lease.run_id, exc)
            return time.time() < lease.expires - 1.0

    async def _run(
        self,
        stream: _RunStream,
        export: Export,
        message: dict[str, Any],
        lease: _Lease,
        received: float,
    ) -> dict[str, Any] | None:
        """Run the pipeline; returns the run's terminal event, None when the
        lease was lost (the run was stopped)."""
        run_id = lease.run_id
        run_dir = Path(message["run_dir"])
        context_path = None if message["context_path"] is None else Path(message["context_path"])
        if not run_dir.exists():  # another machine: the same paths, the composer's context
            run_dir.mkdir(mode=0o700, parents=True)
            (run_dir / "inputs").mkdir(mode=0o700, exist_ok=True)
            if context_path is not None and message["context_json"] is not None:
                fd = os.open(context_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(message["context_json"])
        started = time.monotonic() - (time.time() - float(message["started_at"]))
        request = RunRequest(
            export=export,
            arguments=message["arguments"],
            run_id=run_id,
            run_dir=run_dir,
            workdir=Path(message["workdir"]),
            extra_env=message["extra_env"],
            output_tail=int(message["output_tail"]),
            grace=float(message["grace"]),
            started=started,
            context_path=context_path,
        )
        observer = _StreamObserver(stream.emit, bool(message.get("wants_output")))
        run_scope = anyio.CancelScope()
        result = None
        with self._lock:
            self._runs[run_id] = (anyio.lowlevel.current_token(), run_scope)
        try:
            self._listening.wait(5)
            # Registered above, so a cancel message from now on reaches the
            # scope; the key covers one sent before (or before we listened).
            event = {"t": "started", "pid": os.getpid(), "received": received}
            if await stream.started(event, cancel_key(run_id)):
                run_scope.cancel()
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._heartbeat, lease, run_scope)
                with run_scope:
                    result = await self._executor.run(request, observer)
                tg.cancel_scope.cancel()
        finally:
            with self._lock:
                self._runs.pop(run_id, None)
        if result is None:
            if lease.lost:
                log.error("run %s: the lease was lost; the run was stopped", run_id)
                return None  # the sweeper told the replica
            return {"t": "cancelled"}
        output = None
        path = message["extra_env"].get("HARBOR_OUTPUT")
        if export.spec.output_schema is not None and path:
            try:
                with open(path, "rb") as fh:
                    data = fh.read(OUTPUT_LIMIT + 1)
                if len(data) <= OUTPUT_LIMIT:
                    output = base64.b64encode(data).decode("ascii")
            except OSError as exc:
                # the replica then reports the run as output_invalid ("the steps
                # wrote no output"), so the caller is told; the reason is here
                log.error("run %s: could not read its output file %s: %s", run_id, path, exc)
        return {"t": "result", "result": result.to_json(), "output": output}

    async def _heartbeat(self, lease: _Lease, scope: anyio.CancelScope) -> None:
        """Renew the lease every third of it. The run is stopped when the
        store says the lease is no longer this attempt's, or when no renewal
        succeeded before the lease ran out (the store cannot be reached: the
        sweeper may declare the run lost at any moment)."""
        while True:
            await anyio.sleep(self.lease / 3)
            expires = time.time() + self.lease
            try:
                held = await anyio.to_thread.run_sync(
                    self.store.lease_renew, lease.run_id, lease.attempt, expires
                )
            except Exception as exc:  # noqa: BLE001 - keep trying until the lease runs out
                log.error("run %s: cannot renew the lease: %s", lease.run_id, exc)
                if time.time() < lease.expires:
                    continue
                log.error("run %s: the lease ran out without a renewal", lease.run_id)
                held = False
            if not held:
                lease.lost = True
                scope.cancel()
                return
            lease.expires = expires


@dataclass
class _Lease:
    """The attempt's lease as this worker knows it."""

    run_id: str
    attempt: int
    expires: float  # Unix time of the last successful claim or renewal
    lost: bool = False
