"""The worker's task: one run, its steps in order, reported through Redis."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Mapping
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

    def __init__(self, emit: Any, wants_output: bool) -> None:
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
        threading.Thread(target=self._listen, name="harbor-cancel", daemon=True).start()

    def execute(self, message: dict[str, Any]) -> None:
        """The Celery task body (a thread of the threads pool; its own event
        loop, so the short blocking Redis calls below hold up only this run)."""
        anyio.run(self._execute, message)

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

    async def _execute(self, message: dict[str, Any]) -> None:
        r = self.redis()
        run_id = str(message["run_id"])
        key = stream_key(run_id)

        async def emit(event: dict[str, Any]) -> None:
            event.setdefault("host", self.hostname)
            r.xadd(key, {"e": json.dumps(event)}, maxlen=STREAM_MAXLEN, approximate=True)

        try:
            await self._claim_and_run(r, message, run_id, emit)
        except Exception as exc:  # the replica must hear of it
            log.exception("run %s failed on the worker", run_id)
            await emit({"t": "refused", "error": f"the worker {self.hostname} failed: {exc}"})
        finally:
            r.expire(key, STREAM_TTL)

    async def _claim_and_run(self, r: Any, message: dict[str, Any], run_id: str, emit: Any) -> None:
        tool = str(message.get("tool"))
        export = self.exports.get(tool)
        if message.get("v") != PROTOCOL_VERSION:
            await emit({"t": "refused", "error": f"message version {message.get('v')} unknown"})
            return
        if export is None or export.content_hash != message.get("content_hash"):
            have = "no such export" if export is None else f"content hash {export.content_hash}"
            await emit(
                {
                    "t": "refused",
                    "error": f"the worker {self.hostname} refused run {run_id}: its export "
                    f"{tool} differs from the server's ({have}, the server checked "
                    f"{message.get('content_hash')}); nothing was run",
                }
            )
            return
        attempt = await anyio.to_thread.run_sync(
            self.store.lease_acquire, run_id, tool, self.hostname, time.time() + self.lease
        )
        if attempt is None:
            # A redelivery of a run that is (or was) someone's: never run it twice.
            log.warning("run %s: delivered again; already claimed, not run", run_id)
            await emit({"t": "duplicate"})
            return
        try:
            await self._run(r, export, message, run_id, attempt, emit)
        finally:
            await anyio.to_thread.run_sync(self.store.lease_release, run_id, attempt)

    async def _run(
        self,
        r: Any,
        export: Export,
        message: dict[str, Any],
        run_id: str,
        attempt: int,
        emit: Any,
    ) -> None:
        await emit({"t": "started", "attempt": attempt, "pid": os.getpid()})
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
        observer = _StreamObserver(emit, bool(message.get("wants_output")))
        why: list[str] = []
        run_scope = anyio.CancelScope()
        result = None
        with self._lock:
            self._runs[run_id] = (anyio.lowlevel.current_token(), run_scope)
        try:
            self._listening.wait(5)
            if r.exists(cancel_key(run_id)):  # cancelled before it started (or before we listened)
                run_scope.cancel()
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._heartbeat, run_id, attempt, run_scope, why)
                with run_scope:
                    result = await LocalExecutor().run(request, observer)
                tg.cancel_scope.cancel()
        finally:
            with self._lock:
                self._runs.pop(run_id, None)
        if result is None:
            if why and why[0] == "lost":
                log.error("run %s: the lease was lost; the run was stopped", run_id)
                return  # the sweeper told the replica
            await emit({"t": "cancelled"})
            return
        output = None
        path = message["extra_env"].get("HARBOR_OUTPUT")
        if export.spec.output_schema is not None and path:
            try:
                with open(path, "rb") as fh:
                    data = fh.read(OUTPUT_LIMIT + 1)
                if len(data) <= OUTPUT_LIMIT:
                    output = base64.b64encode(data).decode("ascii")
            except OSError:
                pass
        await emit({"t": "result", "result": result.to_json(), "output": output})

    async def _heartbeat(
        self, run_id: str, attempt: int, scope: anyio.CancelScope, why: list[str]
    ) -> None:
        while True:
            await anyio.sleep(self.lease / 3)
            try:
                held = await anyio.to_thread.run_sync(
                    self.store.lease_renew, run_id, attempt, time.time() + self.lease
                )
            except Exception as exc:  # noqa: BLE001 - keep trying until the lease is gone
                log.error("run %s: cannot renew the lease: %s", run_id, exc)
                continue
            if not held:
                why.append("lost")
                scope.cancel()
                return
