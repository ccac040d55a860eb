"""`Worker`: the worker's side of a remote run, the one Celery task.

For each message it checks the export against the server's content hash,
claims the run's lease, and runs `LocalExecutor` on the `RunRequest` the
message rebuilds (`RunMessage.to_request`), writing step events and output
lines to the run's Redis Stream while it watches for a cancel and renews the
lease.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, final

import anyio
import anyio.from_thread
import anyio.lowlevel

from mcp_harbor.config import Export, Step
from mcp_harbor.errors import NeedsMissing, RunError
from mcp_harbor.remote.celery_app import create_app
from mcp_harbor.remote.wire import (
    LINE_LIMIT,
    STREAM_MAXLEN,
    STREAM_TTL,
    TASK_NAME,
    Cancelled,
    Entry,
    Event,
    OutputLine,
    Refused,
    Result,
    RunMessage,
    Started,
    StepFinished,
    StepProgressed,
    StepStarted,
    cancel_key,
    cancelled_run,
    read_output,
    stream_key,
    to_stream,
)
from mcp_harbor.runner import LocalExecutor, ProgressLine, StepResult
from mcp_harbor.runner.sandbox import Sandbox
from mcp_harbor.store.base import LeaseStore

__all__ = ["DEFAULT_LEASE", "Worker"]

log = logging.getLogger("mcp_harbor.remote")

#: Seconds a run's lease lasts without a heartbeat; renewed every third of it.
DEFAULT_LEASE: Final = 15.0


class _StreamObserver:
    """A `RunObserver` that appends to the run's stream."""

    def __init__(self, stream: _RunStream, wants_output: bool) -> None:
        self._stream = stream
        self._wants_output = wants_output

    @property
    def wants_output(self) -> bool:
        return self._wants_output

    async def step_started(self, step: Step, number: int, total: int) -> None:
        self._stream.emit(StepStarted(step.section, step.index, number, total))

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        self._stream.emit(StepFinished(number, total, result))

    async def step_progress(self, step: Step, number: int, total: int, line: ProgressLine) -> None:
        self._stream.emit(
            StepProgressed(
                step.section, step.index, number, total, line.fraction, line.text, line.message
            )
        )

    async def output(self, step: Step, stream: str, line: str) -> bool:
        self._stream.emit(OutputLine(step.section, step.index, stream, line[:LINE_LIMIT]))
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

    def _fields(self, event: Event) -> dict[str, str]:
        return to_stream(Entry(event, self.hostname, self.attempt, time.time()))

    def emit(self, event: Event) -> None:
        """Queue `event` for the sender (never blocks)."""
        self._queue.append(self._fields(event))
        self._wake.set()

    async def sender(self) -> None:
        """Write queued entries until cancelled (run it in a task group). A
        write that fails is logged; `final` raises it again."""
        while True:
            await self._wake.wait()
            self._wake = anyio.Event()
            try:
                await self._write()
            except Exception as exc:  # noqa: BLE001 - `final` raises it again
                log.error("%s: cannot write progress entries: %s", self.key, exc)

    async def _write(self, *extra: tuple[Any, ...], event: Event | None = None) -> Any:
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

    async def started(self, event: Started, cancel: str) -> bool:
        """Append the ``started`` entry and read the cancel key in one round
        trip; True when the run was cancelled before it started."""
        replies = await self._write(("exists", cancel), event=event)
        return bool(replies[-1])

    async def final(self, event: Event | None) -> None:
        """The run's last entry (if any) and the stream's expiry, after
        everything queued, in one round trip."""
        self.closed = True
        await self._write(("expire", self.key, STREAM_TTL), event=event)


@final
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
        sandbox: Sandbox | None = None,
        pass_env: Sequence[str] = (),
    ) -> None:
        """Build the worker's Celery app and start its cancel listener thread
        (a daemon: it dies with the process).

        Args:
            broker: the Redis URL of the broker and the streams.
            exports: the worker's own exports, by name.
            store: where leases are claimed and renewed.
            hostname: the name stamped on every entry; None: the machine's.
            lease: seconds a lease lasts without a renewal.
            visibility_timeout: see `create_app`.
            sandbox: how the worker confines steps (None: ``auto``, the
                default folders hidden).
            pass_env: the worker's ``--pass-env``: variables of its
                environment every step receives (`LocalExecutor`).
        """
        self.broker = broker
        self.exports = dict(exports)
        self.store = store
        self.hostname = hostname or socket.gethostname()
        self.lease = lease
        self.app = create_app(broker, visibility_timeout=visibility_timeout)
        self.app.task(name=TASK_NAME, acks_late=True, reject_on_worker_lost=True)(self.execute)
        self._redis: Any = None
        self._lock = threading.Lock()
        self._runs: dict[str, tuple[anyio.lowlevel.EventLoopToken, anyio.CancelScope]] = {}
        self._listening = threading.Event()
        self._loops = threading.local()
        self._executor = LocalExecutor(sandbox, pass_env=pass_env)
        #: Messages of runs refused for a missing need, logged once each.
        self._missing_logged: set[str] = set()
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
                    self._cancel(cancelled_run(message.get("channel", b"").decode()))
            except redis.RedisError as exc:
                log.error("cancel listener: %s; reconnecting", exc)
                time.sleep(1)

    def _cancel(self, run_id: str) -> None:
        with self._lock:
            running = self._runs.get(run_id)
        if running is None:
            return  # not this worker's run, or it already ended
        token, scope = running
        try:
            anyio.from_thread.run_sync(scope.cancel, token=token)
        except RuntimeError as exc:  # its loop is closing: the run just ended
            log.info("run %s: cancel arrived as it ended (%s)", run_id, exc)

    async def _execute(self, raw: dict[str, Any], received: float) -> None:
        run_id = raw.get("run_id") if isinstance(raw, dict) else None
        if not isinstance(run_id, str):
            log.error("a message without a run id was dropped: it names no stream to answer on")
            return
        stream = _RunStream(self._stream_client(), run_id, self.hostname)
        async with anyio.create_task_group() as tg:
            tg.start_soon(stream.sender)
            try:
                await self._claim_and_run(stream, raw, run_id, received)
            except Exception as exc:  # the replica must hear of it
                log.exception("run %s failed on the worker", run_id)
                if not stream.closed:
                    error = f"the worker {self.hostname} failed: {exc}"
                    await self._final(stream, run_id, Refused(error))
            finally:
                if not stream.closed:
                    await self._final(stream, run_id, None)
                tg.cancel_scope.cancel()

    async def _final(self, stream: _RunStream, run_id: str, event: Event | None) -> None:
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
        self, stream: _RunStream, raw: dict[str, Any], run_id: str, received: float
    ) -> None:
        try:
            message = RunMessage.decode(raw)
        except RunError as exc:
            log.error("run %s: refused: %s", run_id, exc)
            error = f"the worker {self.hostname} refused run {run_id}: {exc}; nothing was run"
            await stream.final(Refused(error))
            return
        tool = message.tool
        export = self.exports.get(tool)
        if export is None or export.content_hash != message.content_hash:
            have = "no such export" if export is None else f"content hash {export.content_hash}"
            await stream.final(
                Refused(
                    f"the worker {self.hostname} refused run {run_id}: its export "
                    f"{tool} differs from the server's ({have}, the server checked "
                    f"{message.content_hash}); nothing was run"
                )
            )
            return
        # Blocking, on this run's own loop: nothing else runs on it yet.
        expires = time.time() + self.lease
        attempt = self.store.lease_acquire(run_id, tool, self.hostname, expires)
        if attempt is None:
            # A redelivery of a run that is (or was) someone's: never run it twice.
            log.warning("run %s: delivered again; already claimed, not run", run_id)
            return
        stream.attempt = attempt
        lease = _Lease(run_id, attempt, expires)
        final: Event | None = None
        try:
            final = await self._run(stream, export, message, lease, received)
        except NeedsMissing as exc:  # a secret this worker cannot read: nothing ran
            if str(exc) not in self._missing_logged:
                self._missing_logged.add(str(exc))
                log.warning("run %s refused: %s", run_id, exc)
            final = Refused(f"the worker {self.hostname} refused run {run_id}: {exc}")
        except Exception as exc:  # the replica must hear of it
            log.exception("run %s failed on the worker", run_id)
            final = Refused(f"the worker {self.hostname} failed: {exc}")
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
                final.kind,
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
        message: RunMessage,
        lease: _Lease,
        received: float,
    ) -> Event | None:
        """Run the pipeline; returns the run's terminal event, None when the
        lease was lost (the run was stopped)."""
        run_id = lease.run_id
        run_dir, context_path = message.run_dir, message.context_path
        if not run_dir.exists():  # another machine: the same paths, the composer's context
            run_dir.mkdir(mode=0o700, parents=True)
            (run_dir / "inputs").mkdir(mode=0o700, exist_ok=True)
            if context_path is not None and message.context_json is not None:
                fd = os.open(context_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(message.context_json)
        request = message.to_request(export)
        observer = _StreamObserver(stream, message.wants_output)
        run_scope = anyio.CancelScope()
        result = None
        missing: NeedsMissing | None = None
        with self._lock:
            self._runs[run_id] = (anyio.lowlevel.current_token(), run_scope)
        try:
            self._listening.wait(5)
            # Registered above, so a cancel message from now on reaches the
            # scope; the key covers one sent before (or before we listened).
            if await stream.started(Started(received), cancel_key(run_id)):
                run_scope.cancel()
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._heartbeat, lease, run_scope)
                with run_scope:
                    try:
                        result = await self._executor.run(request, observer)
                    except NeedsMissing as exc:  # raised below, not as a task group's
                        missing = exc
                tg.cancel_scope.cancel()
        finally:
            with self._lock:
                self._runs.pop(run_id, None)
        if missing is not None:
            raise missing
        if result is None:
            if lease.lost:
                log.error("run %s: the lease was lost; the run was stopped", run_id)
                return None  # the sweeper told the replica
            return Cancelled()
        output = None
        path = message.extra_env.get("HARBOR_OUTPUT")
        if export.spec.output_schema is not None and path:
            try:
                output = read_output(Path(path))
            except OSError as exc:
                # the replica then reports the run as output_invalid ("the steps
                # wrote no output"), so the caller is told; the reason is here
                log.error("run %s: could not read its output file %s: %s", run_id, path, exc)
            else:
                if output is None:
                    log.error("run %s: its output file %s is too large to send", run_id, path)
        return Result(result, output)

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
