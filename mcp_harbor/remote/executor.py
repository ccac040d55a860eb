"""`CeleryExecutor`: the replica's side of a remote run (``runs_on:``).

It sends the run's `RunMessage` to the label's queue, follows the run's
stream (``XREAD`` from the last entry it handled) and turns its entries into
observer calls and, at the end, the run's `RunResult`. `CeleryExecutor.follow`
does the same for a run another (dead) server sent, without sending it again.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from pathlib import Path
from typing import Any, Final, final

import anyio

from mcp_harbor.errors import CancelUnconfirmed, RunError
from mcp_harbor.remote.celery_app import create_app
from mcp_harbor.remote.wire import (
    STREAM_TTL,
    TASK_NAME,
    TERMINAL,
    Cancelled,
    Entry,
    Lost,
    OutputLine,
    Refused,
    Result,
    RunMessage,
    Started,
    StepFinished,
    StepProgressed,
    StepStarted,
    cancel_key,
    from_stream,
    queue_name,
    stream_key,
    task_key,
)
from mcp_harbor.runner.pipeline import DEFAULT_HOOK_TIMEOUT, RunObserver, RunRequest
from mcp_harbor.runner.result import RunResult, StepResult
from mcp_harbor.runner.step_progress import ProgressLine
from mcp_harbor.status import RunStatus

__all__ = ["CANCEL_WAIT", "NO_WORKER_GRACE", "RESULT_GRACE", "CeleryExecutor"]

log = logging.getLogger("mcp_harbor.remote")

#: Seconds a cancelled call waits for the worker to confirm that the run's
#: processes are gone (a terminal entry) before it gives up on hearing it.
CANCEL_WAIT: Final = 15.0
#: Seconds after the deadline (plus its hooks' time) that a started run whose
#: result never arrives is given up as ``worker_lost``.
RESULT_GRACE: Final = 60.0
#: Seconds after the deadline a run that no worker started is given up.
NO_WORKER_GRACE: Final = 1.0
#: Seconds between two tries to read a stream Redis could not serve.
_RETRY: Final = 0.5


class _Follower:
    """Turns a run's stream entries into observer calls, remembering what it saw."""

    def __init__(self, request: RunRequest, observer: RunObserver | None) -> None:
        self.request = request
        self.observer = observer
        self.steps = {step.where: step for step in request.export.all_steps}
        self.finished: list[StepResult] = []
        self.started_on: str | None = None
        self.quiet = False  # the observer asked for no more lines
        #: Entries read from the stream and not handled yet (entry id, entry).
        self.pending: list[tuple[str, Entry]] = []
        #: Seconds past the deadline to wait for a started run's result.
        self.result_grace = RESULT_GRACE
        #: The newest attempt heard of: entries of older (lost) attempts are
        #: ignored, so a fenced worker's late entries never become the outcome.
        self.attempt = 0

    def stale(self, entry: Entry) -> bool:
        """True for an entry of an attempt older than the newest one; an
        entry of a newer attempt starts that attempt (its steps from zero)."""
        attempt = entry.attempt
        if attempt is None:
            return False  # before any claim: a refusal
        if attempt < self.attempt:
            return True
        if attempt > self.attempt:
            if self.attempt:  # the lost attempt's steps are not this run's outcome
                self.finished = []
            self.attempt = attempt
        return False

    async def handle(self, entry: Entry) -> None:
        event = entry.event
        if isinstance(event, Started):
            self.started_on = entry.host
            return
        if isinstance(event, StepFinished):
            self.finished.append(event.result)
        observer = self.observer
        if observer is None:
            return
        if isinstance(event, StepStarted | OutputLine | StepProgressed):
            step = self.steps.get((event.section, event.index))
            if step is None:
                return
            if isinstance(event, StepStarted):
                await observer.step_started(step, event.n, event.total)
            elif isinstance(event, StepProgressed):
                line = ProgressLine(event.fraction, event.text, event.message)
                await observer.step_progress(step, event.n, event.total, line)
            elif not self.quiet:
                self.quiet = not await observer.output(step, event.stream, event.line)
        elif isinstance(event, StepFinished):
            await observer.step_finished(event.result, event.n, event.total)


@final
class CeleryExecutor:
    """An `Executor` that runs each pipeline on a worker of its export's
    ``runs_on:`` label. One instance per server; safe for concurrent calls."""

    def __init__(
        self,
        broker: str,
        *,
        visibility_timeout: float | None = None,
        result_grace: float = RESULT_GRACE,
        cancel_wait: float = CANCEL_WAIT,
    ) -> None:
        """Build the executor; nothing connects before the first run.

        Args:
            broker: the Redis URL of the broker and the streams.
            visibility_timeout: see `create_app`.
            result_grace: seconds after a started run's deadline (plus its
                hooks' timeouts) that the call waits for a result entry that
                never comes (Redis lost it) before it answers ``worker_lost``.
            cancel_wait: seconds a cancelled call waits for the worker to
                confirm the stop before it raises `CancelUnconfirmed`.
        """
        self.broker = broker
        self.result_grace = result_grace
        self.cancel_wait = cancel_wait
        self.app = create_app(broker, visibility_timeout=visibility_timeout)
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
        """Close the Redis client and the Celery app's broker connections.

        **Cancellation:** what is not closed yet stays open until the process
        ends; the executor must not be used afterwards either way."""
        if self._redis is not None:
            client, self._redis = self._redis, None
            await client.aclose()
        self.app.close()

    def send(self, message: RunMessage, label: str) -> None:
        """Queue the run's task on the queue of `label` (blocking;
        sub-millisecond on a near broker). The message expires at the run's
        deadline: a worker that takes it later drops it."""
        timeout = message.timeout
        self.app.send_task(
            TASK_NAME,
            args=[message.encode()],
            task_id=message.run_id,
            queue=queue_name(label),
            # Celery would put a repr of the whole message (arguments, the
            # extra environment) in the task's headers and its logs: name the
            # run instead (and skip the cost of the repr).
            argsrepr=f"(run {message.run_id},)",
            kwargsrepr="{}",
            expires=message.deadline_at - time.time(),
            # Backstop only: the worker enforces the timeout itself.
            time_limit=timeout + 60,
        )

    async def run(self, request: RunRequest, observer: RunObserver | None = None) -> RunResult:
        """See `Executor.run`. The deadline is `request.boundary()`'s, judged
        by the worker; a run no worker started by then ends as ``timeout``.

        Raises:
            RunError: the worker refused the run (its export differs, it
                cannot read the message) and nothing ran; the run's
                context.json cannot be read and nothing was sent; or the
                worker wrote an entry this server cannot read (the run's
                cancel is sent).
            CancelUnconfirmed: instead of the cancellation, see below.

        **Cancellation:** the run's cancel key is set and its cancel message
        published, then the call waits (shielded) up to `cancel_wait` seconds
        for a terminal entry of the current attempt (``cancelled``,
        ``result``, ``lost`` or ``refused``): the worker's word that the
        run's processes are stopped and reaped. With it, the cancellation is
        re-raised. Without it (the worker is paused, partitioned or busy; no
        worker took the run yet: one that takes it later finds the cancel
        key and does not run its steps), `CancelUnconfirmed` is raised in its
        place, naming the worker that started the run (None: none did). The
        cancellation is still in effect: an anyio cancel scope re-raises it
        at the caller's next checkpoint. Cancelled before the message was
        handed to the broker, the cancellation is re-raised at once: nothing
        was sent, so nothing runs.
        """
        export = request.export
        label = export.spec.runs_on
        if label is None:
            raise RunError(f"{export.name} has no runs_on:; it runs locally")
        wants_output = observer is not None and observer.wants_output
        message = RunMessage.from_request(request, wants_output=wants_output)
        return await self._drive(request, observer, message, label)

    async def follow(self, request: RunRequest, observer: RunObserver | None = None) -> RunResult:
        """Follow a run that was dispatched already (by a server that is
        gone) from its stream's first entry, without sending it again, to
        its `RunResult`, as `run` would have. `request` is the run as it was
        dispatched (its id, export, run directory, ``HARBOR_OUTPUT``, and
        its original start and deadline).

        A stream that no longer exists (expired after `STREAM_TTL`, or never
        written and the run's deadline is over) ends as ``worker_lost``; a
        run that no worker started before its deadline as ``timeout``.

        Raises:
            RunError: as `run`, for a refusal or an unreadable entry.
            CancelUnconfirmed: as `run`.

        **Cancellation:** as `run` (the run is at the broker already): the
        cancel is sent to the worker and its confirmation awaited."""
        import redis

        r = self.redis()
        started, deadline = request.boundary()
        try:
            gone = time.monotonic() > deadline and not await r.exists(stream_key(request.run_id))
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            log.warning("run %s: looking for its events: %s; following", request.run_id, exc)
            gone = False  # `_drive` retries the reads within the run's bounds
        if gone:
            log.error("run %s: its stream is gone; it cannot be followed", request.run_id)
            return self._result(request, "worker_lost", _Follower(request, observer), started)
        return await self._drive(request, observer, None, None)

    async def _drive(
        self,
        request: RunRequest,
        observer: RunObserver | None,
        message: RunMessage | None,
        label: str | None,
    ) -> RunResult:
        """Send `message` to `label`'s queue (None: it was sent already) and
        follow the run's stream from its start; see `run`."""
        export = request.export
        started, deadline = request.boundary()
        follower = _Follower(request, observer)
        hooks = export.on_failure + export.finally_steps
        follower.result_grace = self.result_grace + sum(
            s.spec.timeout or DEFAULT_HOOK_TIMEOUT for s in hooks
        )
        dispatched = message is None

        def dispatch() -> None:
            nonlocal dispatched
            assert message is not None and label is not None
            dispatched = True  # from here on the message may be at the broker
            self.send(message, label)

        r = self.redis()
        last = "0-0"
        try:
            if message is not None:
                if export.spec.redispatch:
                    kept = json.dumps(message.encode())
                    ex = int(message.timeout) + STREAM_TTL
                    await r.set(task_key(request.run_id), kept, ex=ex)
                await anyio.to_thread.run_sync(dispatch)
            while True:
                entry, last = await self._next(r, request.run_id, last, deadline, follower)
                if entry is None:  # nobody took the run before its deadline
                    await self._cancel(r, request.run_id)
                    return self._result(request, "timeout", follower, started)
                if follower.stale(entry):
                    continue
                await follower.handle(entry)
                event = entry.event
                if isinstance(event, Result):
                    return self._finished(request, entry, event)
                if isinstance(event, Refused):
                    raise RunError(event.error)
                if isinstance(event, Lost):
                    log.error(
                        "run %s: worker %s lost (its lease expired)", request.run_id, event.worker
                    )
                    return self._result(request, "worker_lost", follower, started, entry)
                if isinstance(event, Cancelled):  # by another replica
                    return self._result(request, "cancelled", follower, started, entry)
        except anyio.get_cancelled_exc_class():
            if not dispatched:
                raise
            with anyio.CancelScope(shield=True):
                confirmed = await self._stop(r, request.run_id, last, follower)
            if not confirmed:
                worker = follower.started_on
                where = "no worker had started it" if worker is None else f"its worker {worker}"
                raise CancelUnconfirmed(
                    f"run {request.run_id} was cancelled, but {where} did not confirm within "
                    f"{self.cancel_wait:g} s that its processes are gone",
                    worker=worker,
                ) from None
            raise

    async def _stop(self, r: Any, run_id: str, last: str, follower: _Follower) -> bool:
        """Send the cancel and wait up to `cancel_wait` for the worker's
        terminal entry; True when it came."""
        await self._cancel(r, run_id)
        with anyio.move_on_after(self.cancel_wait):
            while True:
                try:
                    entry, last = await self._next(r, run_id, last, None, follower)
                except RunError as exc:  # an entry it cannot read: no confirmation
                    log.error("run %s: cancelled; %s", run_id, exc)
                    return False
                if entry is None or follower.stale(entry):
                    continue
                if isinstance(entry.event, TERMINAL):
                    return True
                if isinstance(entry.event, Started):
                    await follower.handle(entry)  # the worker's name, for the error
        log.error(
            "run %s: cancelled; no confirmation from its worker within %g s",
            run_id,
            self.cancel_wait,
        )
        return False

    async def _next(
        self,
        r: Any,
        run_id: str,
        last: str,
        deadline: float | None,
        follower: _Follower,
    ) -> tuple[Entry | None, str]:
        """The run's next entry (blocking), resuming after `last`, with its
        id; None when no worker started the run before `deadline` (monotonic).

        Raises:
            RunError: an entry cannot be read (a worker of another version
                wrote it); the run is abandoned (its cancel is sent).
        """
        import redis

        key = stream_key(run_id)
        if follower.pending:
            entry_id, entry = follower.pending.pop(0)
            return entry, entry_id
        while True:
            reply = None
            try:
                reply = await r.xread({key: last}, block=1000, count=256)
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                # Redis is down or restarting: retry, but within the same bounds.
                log.warning("run %s: reading its events: %s; retrying", run_id, exc)
                await anyio.sleep(_RETRY)
            if reply:
                for raw_id, fields in reply[0][1]:
                    entry_id = raw_id.decode() if isinstance(raw_id, bytes) else str(raw_id)
                    try:
                        entry = from_stream(fields)
                    except RunError as exc:
                        log.error("run %s: entry %s: %s; abandoning the run", run_id, entry_id, exc)
                        await self._cancel(r, run_id)
                        raise RunError(
                            f"run {run_id}: its worker wrote an entry this server cannot read "
                            f"({exc}); its cancel was sent"
                        ) from exc
                    follower.pending.append((entry_id, entry))
                entry_id, entry = follower.pending.pop(0)
                return entry, entry_id
            if deadline is not None and follower.started_on is None:
                if time.monotonic() > deadline + NO_WORKER_GRACE:
                    return None, last
            elif deadline is not None and time.monotonic() > deadline + follower.result_grace:
                # Started, but its result never came (the stream lost it, or
                # the worker and the sweeper both died): stop waiting.
                grace = follower.result_grace
                log.error("run %s: no result %g s after its deadline", run_id, grace)
                return Entry(Lost(follower.started_on or "unknown")), last

    async def _cancel(self, r: Any, run_id: str) -> None:
        """Set the run's cancel key and publish its cancel message; a failure
        is logged (the run is being abandoned, and its confirmation then
        does not come)."""
        key = cancel_key(run_id)
        try:
            await r.set(key, b"1", ex=86400)
            await r.publish(key, b"cancel")
        except Exception as exc:  # noqa: BLE001 - logged; the confirmation wait decides
            log.error("run %s: could not send the cancel: %s", run_id, exc)

    def _finished(self, request: RunRequest, entry: Entry, event: Result) -> RunResult:
        """The run's result, with its worker; the ``$HARBOR_OUTPUT`` payload is
        written where the replica's call expects it when it is not there (a
        worker on another machine wrote it on its own disk)."""
        result = dataclasses.replace(event.result, worker_host=entry.host)
        path = request.extra_env.get("HARBOR_OUTPUT")
        if event.output is not None and path:
            target = Path(path)
            if not target.exists():
                target.write_bytes(event.output)
        return result

    def _result(
        self,
        request: RunRequest,
        status: RunStatus,
        follower: _Follower,
        started: float,
        entry: Entry | None = None,
    ) -> RunResult:
        """A result made here, for a run whose worker sent none."""
        host = None
        if entry is not None:
            host = entry.event.worker if isinstance(entry.event, Lost) else entry.host
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
