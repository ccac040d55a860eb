"""Run an export's pipeline on a worker (``runs_on:``), through Celery and Redis.

Celery carries only the dispatch: one task per run, on the queue
``runs_on.<label>``, with the run id as the task id. Everything else is
mcp-harbor's own (docs/scale-out.md, *Workers*):

- **progress and output**: the worker appends events to the Redis Stream
  ``harbor:run:<id>:ev``; `CeleryExecutor` follows it (``XREAD`` from the last
  entry it delivered) and hands each event to the call's observer;
- **cancel**: the key ``harbor:run:<id>:cancel`` plus a message on the channel
  of the same name; the worker stops the run's process groups;
- **timeout**: judged by the worker from the run boundary (sent as a Unix
  time), exactly as a local run; Celery's ``time_limit`` is only a backstop;
- **worker loss**: a lease in the store, renewed by the worker; a sweeper on
  the replicas writes a ``lost`` event when it expires.

The worker runs `LocalExecutor` on the `RunRequest` rebuilt from the message
and on the context.json the composer wrote (its exact bytes travel along).
"""

from __future__ import annotations

import base64
import json
import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import anyio

from mcp_harbor.errors import RunError
from mcp_harbor.runner.pipeline import (
    DEFAULT_HOOK_TIMEOUT,
    DEFAULT_TIMEOUT,
    RunObserver,
    RunRequest,
)
from mcp_harbor.runner.result import RunResult, StepResult

__all__ = [
    "DEFAULT_VISIBILITY_MARGIN",
    "PROTOCOL_VERSION",
    "TASK_NAME",
    "CeleryExecutor",
    "cancel_key",
    "celery_app",
    "queue_name",
    "stream_key",
    "task_key",
]

log = logging.getLogger("mcp_harbor.runner")

#: The name of the one Celery task: run a pipeline.
TASK_NAME: Final = "mcp_harbor.run"
#: The message format; a worker refuses another one.
PROTOCOL_VERSION: Final = 1
#: Added to the longest allowed run for the broker's visibility timeout: a
#: message must never be redelivered while its run may still be going.
DEFAULT_VISIBILITY_MARGIN: Final = 900.0
#: Entries kept per run stream (approximate trim), and how long it stays.
STREAM_MAXLEN: Final = 10_000
STREAM_TTL: Final = 3600
#: The longest output line put into the stream (the log file has it all).
LINE_LIMIT: Final = 8192
#: How long a cancelled call waits for the worker to say its processes are gone.
CANCEL_WAIT: Final = 15.0
#: Seconds after the deadline (plus its hooks' time) that a started run whose
#: result never arrives is given up as ``worker_lost``.
RESULT_GRACE: Final = 60.0
#: Seconds after the deadline a run that no worker started is given up.
NO_WORKER_GRACE: Final = 1.0
#: Terminal events: the run is over.
TERMINAL: Final = frozenset({"result", "cancelled", "refused", "lost"})


def queue_name(label: str) -> str:
    return f"runs_on.{label}"


def stream_key(run_id: str) -> str:
    return f"harbor:run:{run_id}:ev"


def cancel_key(run_id: str) -> str:
    """Both the cancel flag's key and the channel the cancel message goes to."""
    return f"harbor:run:{run_id}:cancel"


def task_key(run_id: str) -> str:
    """Where a re-dispatchable run's message is kept for the sweeper."""
    return f"harbor:run:{run_id}:task"


def celery_app(broker: str, *, visibility_timeout: float | None = None) -> Any:
    """The Celery app both sides use: Redis broker, no result backend, late
    acknowledgement, requeue on a lost worker child, prefetch 1."""
    from celery import Celery

    app = Celery("mcp_harbor", broker=broker, set_as_current=False)
    app.conf.update(
        # kombu's Redis transport, reusing its client object (kombu_redis.py).
        broker_transport="mcp_harbor.runner.kombu_redis:Transport",
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        worker_cancel_long_running_tasks_on_connection_loss=False,
        broker_transport_options={
            "visibility_timeout": visibility_timeout or (7 * 24 * 3600 + DEFAULT_VISIBILITY_MARGIN),
        },
    )
    return app


def run_message(request: RunRequest) -> dict[str, Any]:
    """The task's one argument: everything the worker needs, as JSON."""
    export = request.export
    started = request.started if request.started is not None else time.monotonic()
    context_json = None
    if request.context_path is not None:
        try:
            context_json = request.context_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RunError(f"cannot read the run context: {exc.strerror}") from exc
    return {
        "v": PROTOCOL_VERSION,
        "run_id": request.run_id,
        "tool": export.name,
        "content_hash": export.content_hash,
        "arguments": dict(request.arguments),
        "run_dir": str(request.run_dir),
        "workdir": str(request.workdir),
        "extra_env": dict(request.extra_env),
        "output_tail": request.output_tail,
        "grace": request.grace,
        # The run boundary as a Unix time: the worker judges the deadline from it.
        "started_at": time.time() - (time.monotonic() - started),
        "context_path": None if request.context_path is None else str(request.context_path),
        "context_json": context_json,
        "wants_output": False,
    }


class _Follower:
    """Turns a run's stream events into observer calls, remembering what it saw."""

    def __init__(self, request: RunRequest, observer: RunObserver | None) -> None:
        self.request = request
        self.observer = observer
        self.steps = {step.where: step for step in request.export.all_steps}
        self.finished: list[StepResult] = []
        self.started_on: str | None = None
        self.quiet = False  # the observer asked for no more lines
        #: Events read from the stream and not handled yet (entry id, event).
        self.pending: list[tuple[str, dict[str, Any]]] = []
        #: Seconds past the deadline to wait for a started run's result.
        self.result_grace = 60.0
        #: The newest attempt heard of: entries of older (lost) attempts are
        #: ignored, so a fenced worker's late entries never become the outcome.
        self.attempt = 0

    def stale(self, event: Mapping[str, Any]) -> bool:
        """True for an entry of an attempt older than the newest one; an
        entry of a newer attempt starts that attempt (its steps from zero)."""
        attempt = event.get("attempt")
        if not isinstance(attempt, int):
            return False  # before any claim: refused, duplicate
        if attempt < self.attempt:
            return True
        if attempt > self.attempt:
            if self.attempt:  # the lost attempt's steps are not this run's outcome
                self.finished = []
            self.attempt = attempt
        return False

    async def handle(self, event: Mapping[str, Any]) -> None:
        kind = event.get("t")
        observer = self.observer
        if kind == "started":
            self.started_on = str(event.get("host"))
            return
        if kind == "redispatched":
            return
        if kind == "step_finished":
            self.finished.append(StepResult.from_json(event["result"]))
        if observer is None:
            return
        if kind in ("step_started", "output"):
            step = self.steps.get((event["section"], event["index"]))
            if step is None:
                return
            if kind == "step_started":
                await observer.step_started(step, event["n"], event["total"])
            elif not self.quiet:
                self.quiet = not await observer.output(step, event["stream"], event["line"])
        elif kind == "step_finished":
            await observer.step_finished(self.finished[-1], event["n"], event["total"])


class CeleryExecutor:
    """An `Executor` that runs each pipeline on a worker of its export's
    ``runs_on:`` label. One instance per server; safe for concurrent calls."""

    def __init__(
        self,
        broker: str,
        *,
        visibility_timeout: float | None = None,
        result_grace: float = RESULT_GRACE,
    ) -> None:
        """`result_grace`: seconds after a started run's deadline (plus its
        hooks' timeouts) that the call waits for a result entry that never
        comes (Redis lost it) before it answers ``worker_lost``."""
        self.broker = broker
        self.result_grace = result_grace
        self.app = celery_app(broker, visibility_timeout=visibility_timeout)
        self._redis: Any = None
        self._loop: object | None = None

    def redis(self) -> Any:
        """The asyncio Redis client of the running event loop."""
        import asyncio

        import redis.asyncio as aioredis

        loop = asyncio.get_running_loop()
        if self._redis is None or self._loop is not loop:
            self._redis = aioredis.Redis.from_url(self.broker)
            self._loop = loop
        return self._redis

    async def aclose(self) -> None:
        """Close the Redis client and the Celery app's broker connections."""
        if self._redis is not None:
            client, self._redis = self._redis, None
            await client.aclose()
        self.app.close()

    def send(self, message: Mapping[str, Any], label: str, timeout: float) -> None:
        """Queue the run's task (blocking; sub-millisecond on a near broker)."""
        self.app.send_task(
            TASK_NAME,
            args=[message],
            task_id=message["run_id"],
            queue=queue_name(label),
            # Celery would put a repr of the whole message (arguments, the
            # extra environment) in the task's headers and its logs: name the
            # run instead (and skip the cost of the repr).
            argsrepr=f"(run {message['run_id']},)",
            kwargsrepr="{}",
            # A worker that takes the message after the deadline drops it.
            expires=message["started_at"] + timeout - time.time(),
            # Backstop only: the worker enforces the timeout itself.
            time_limit=timeout + 60,
        )

    async def run(self, request: RunRequest, observer: RunObserver | None = None) -> RunResult:
        """See `Executor.run`.

        Raises:
            RunError: the worker refused the run (its export differs); nothing ran.
        """
        export = request.export
        label = export.spec.runs_on
        if label is None:
            raise RunError(f"{export.name} has no runs_on:; it runs locally")
        timeout = export.spec.timeout or DEFAULT_TIMEOUT
        started = request.started if request.started is not None else time.monotonic()
        message = run_message(request)
        message["wants_output"] = bool(observer is not None and observer.wants_output)
        r = self.redis()
        if export.spec.redispatch:
            await r.set(task_key(request.run_id), json.dumps(message), ex=int(timeout) + STREAM_TTL)
        await anyio.to_thread.run_sync(self.send, message, label, timeout)
        follower = _Follower(request, observer)
        hooks = export.on_failure + export.finally_steps
        follower.result_grace = self.result_grace + sum(
            s.spec.timeout or DEFAULT_HOOK_TIMEOUT for s in hooks
        )
        last = "0-0"
        try:
            while True:
                event, last = await self._next(r, request.run_id, last, started + timeout, follower)
                if event is None:  # nobody took the run before its deadline
                    await self._cancel(r, request.run_id)
                    return self._result(request, "timeout", follower, started)
                if follower.stale(event):
                    continue
                await follower.handle(event)
                kind = event.get("t")
                if kind == "result":
                    return await self._finished(request, event)
                if kind == "refused":
                    raise RunError(str(event.get("error")))
                if kind == "lost":
                    log.error(
                        "run %s: worker %s lost (its lease expired)",
                        request.run_id,
                        event.get("worker"),
                    )
                    return self._result(request, "worker_lost", follower, started, event)
                if kind == "cancelled":  # by another replica
                    return self._result(request, "cancelled", follower, started, event)
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                await self._cancel(r, request.run_id)
                with anyio.move_on_after(CANCEL_WAIT):
                    while True:
                        event, last = await self._next(r, request.run_id, last, None, follower)
                        if event is not None and event.get("t") in TERMINAL:
                            break
            raise

    async def _next(
        self,
        r: Any,
        run_id: str,
        last: str,
        deadline: float | None,
        follower: _Follower,
    ) -> tuple[dict[str, Any] | None, str]:
        """The run's next event (blocking), resuming after `last`; None when
        no worker started the run before `deadline` (monotonic)."""
        import redis

        key = stream_key(run_id)
        if follower.pending:
            entry_id, event = follower.pending.pop(0)
            return event, entry_id
        while True:
            reply = None
            try:
                reply = await r.xread({key: last}, block=1000, count=256)
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                # Redis is down or restarting: retry, but within the same bounds.
                log.warning("run %s: reading its events: %s; retrying", run_id, exc)
                await anyio.sleep(0.5)
            if reply:
                for entry_id, fields in reply[0][1]:
                    eid = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
                    follower.pending.append((eid, json.loads(fields[b"e"])))
                entry, event = follower.pending.pop(0)
                return event, entry
            if deadline is not None and follower.started_on is None:
                if time.monotonic() > deadline + NO_WORKER_GRACE:
                    return None, last
            elif deadline is not None and time.monotonic() > deadline + follower.result_grace:
                # Started, but its result never came (the stream lost it, or
                # the worker and the sweeper both died): stop waiting.
                grace = follower.result_grace
                log.error("run %s: no result %g s after its deadline", run_id, grace)
                return {"t": "lost", "worker": follower.started_on or "unknown"}, last

    async def _cancel(self, r: Any, run_id: str) -> None:
        key = cancel_key(run_id)
        try:
            await r.set(key, b"1", ex=86400)
            await r.publish(key, b"cancel")
        except Exception as exc:  # noqa: BLE001 - the run is being abandoned anyway
            log.error("run %s: could not send the cancel: %s", run_id, exc)

    async def _finished(self, request: RunRequest, event: Mapping[str, Any]) -> RunResult:
        result = RunResult.from_json(event["result"], worker_host=event.get("host"))
        output = event.get("output")
        path = request.extra_env.get("HARBOR_OUTPUT")
        if output is not None and path:
            target = Path(path)
            if not target.exists():  # a worker on another machine: bring its output here
                target.write_bytes(base64.b64decode(output))
        return result

    def _result(
        self,
        request: RunRequest,
        status: Any,
        follower: _Follower,
        started: float,
        event: Mapping[str, Any] | None = None,
    ) -> RunResult:
        host = None if event is None else event.get("worker") or event.get("host")
        return RunResult(
            run_id=request.run_id,
            tool=request.export.name,
            status=status,
            exit_code=None,
            duration_ms=round((time.monotonic() - started) * 1000, 3),
            run_dir=str(request.run_dir),
            steps=follower.finished,
            worker_host=host or follower.started_on,
        )
