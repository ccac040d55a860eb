"""Durable tasks: the MCP tasks extension (``io.modelcontextprotocol/tasks``,
2026-07-28) over the store's ``tasks`` table.

A ``tools/call`` whose request declares the extension (its ``_meta``
client capabilities), of an export whose ``task:`` is not ``never``, is
answered with a ``CreateTaskResult`` once the task's row is committed to the
store; the call then runs in the background of the server, on the one call
path (`CallService.call`), and its ``CallToolResult`` is stored as the
task's result. A client of an export with ``task: required`` that does not
declare the extension gets ``-32021`` (missing required client capability)
and nothing runs.

Guarantees:

- **Durable before answered**: a ``tasks/get`` from any process sharing the
  store (the same SQLite file, the same PostgreSQL database) finds a task
  once its ``CreateTaskResult`` is sent.
- **Owned**: a task answers only the principal (and tenant) that created it;
  another principal's ``tasks/*`` gets exactly the unknown-id answer
  (``-32602 Failed to retrieve task: Task not found``) and leaves a
  ``denied`` record in the audit trail. Ids are 32 random bytes
  (`secrets.token_urlsafe`).
- **Progress**: ``statusMessage`` is the run's latest progress (a step
  starting or ending, the step's own ``$HARBOR_PROGRESS`` lines, the wait for
  an approval), written at most every `FLUSH_INTERVAL` seconds.
- **Input**: a ``confirm:`` question (without ``approvers:``, to a client
  that declared ``elicitation``) makes the task ``input_required`` with an
  ``elicitation/create`` form in ``inputRequests``; ``tasks/update`` to any
  replica answers it through the row.
- **Cancel**: ``tasks/cancel`` flags the row; the server running the task
  (this one or a replica, which polls the flag every `FLUSH_INTERVAL`)
  cancels the call: its process group is killed, its end record written
  ``cancelled``, the task made ``cancelled``.
- **Shutdown**: a task whose call is cancelled because the server stops is
  made ``failed`` (a JSON-RPC error saying so); a server that died without
  saying is found by the next one on the host (`close_interrupted`): its
  open tasks become ``failed`` with the reason ``interrupted``, except those
  whose run went to a worker (``runs_on:``) when the new server has a
  broker: it follows the run's stream from its start (the worker keeps
  going), then stores the task's result and writes the call's end record
  as the dead server would have; ``tasks/cancel`` reaches the worker as
  before. A stream that expired, or a lost worker, ends the call as
  ``worker_lost``.
- **TTL**: a task is kept for its ``ttlMs`` from creation (``--task-ttl``,
  shortened by an export's ``task_ttl:``); a final task past it is answered
  as unknown and purged with its run directory (the audit trail keeps the
  call).
"""

from __future__ import annotations

import calendar
import dataclasses
import json
import logging
import math
import os
import secrets
import shutil
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import anyio
import anyio.abc
import anyio.lowlevel
import anyio.to_thread
import mcp_types as types
from jsonschema import Draft202012Validator
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import MISSING_REQUIRED_CLIENT_CAPABILITY, SERVER_INFO_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp_harbor._visible import visible
from mcp_harbor.config import Export, Step
from mcp_harbor.errors import CancelUnconfirmed, RunError, StoreError
from mcp_harbor.identity import Caller, current_caller
from mcp_harbor.policy import is_allowed
from mcp_harbor.runctx import Approval, CallRequest, CallService, Envelope
from mcp_harbor.runctx.approval import Decision
from mcp_harbor.runctx.context import Identity, RunContext
from mcp_harbor.runctx.envelope import ended, finish
from mcp_harbor.runner import (
    ProgressLine,
    RunObserver,
    RunRequest,
    RunResult,
    StepResult,
    new_run_id,
    overall_progress,
)
from mcp_harbor.server.elicit import CONFIRM_KEY, CONFIRM_SCHEMA, answer_of
from mcp_harbor.server.refusals import mark_handled
from mcp_harbor.server.registry import Registry
from mcp_harbor.server.results import tool_result
from mcp_harbor.store.base import AuditRecord, Store

__all__ = [
    "EXTENSION",
    "FLUSH_INTERVAL",
    "POLL_INTERVAL_MS",
    "TaskCalls",
    "declares_tasks",
    "install_tasks",
]

log = logging.getLogger("mcp_harbor.tasks")

#: The extension's identifier, in ``server/discover`` and in a request's
#: client capabilities.
EXTENSION = "io.modelcontextprotocol/tasks"
_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
#: How often clients are asked to poll (``pollIntervalMs``).
POLL_INTERVAL_MS = 500
#: Seconds between two writes of a task's progress, and between two reads of
#: its cancel flag, by the server running it.
FLUSH_INTERVAL = 0.25
#: The most seconds between two purges of expired tasks.
PURGE_INTERVAL = 60.0

#: The most tasks one ``tasks/list`` answers (2025-11-25; no second page).
LIST_LIMIT = 1000
#: Seconds a 2025-11-25 ``tasks/cancel`` waits for the task to be cancelled.
CANCEL_WAIT = 10.0
_RELATED = "io.modelcontextprotocol/related-task"
_METHOD_NOT_FOUND = -32601
_INVALID_PARAMS = -32602
_INTERNAL_ERROR = -32603
_NOT_FOUND = "Failed to retrieve task: Task not found"
_FINAL = ("completed", "failed", "cancelled")


def declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether this request (2026-07-28) declares the tasks extension in its
    own ``_meta`` client capabilities (the only opt-in the extension has)."""
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return False
    meta = ctx.meta if isinstance(ctx.meta, Mapping) else {}
    caps = meta.get(_CLIENT_CAPABILITIES)
    extensions = caps.get("extensions") if isinstance(caps, Mapping) else None
    return isinstance(extensions, Mapping) and EXTENSION in extensions


def _missing_capability() -> MCPError:
    return MCPError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing required client capability: this tool runs as a task; declare the "
        f"{EXTENSION} extension in the request's client capabilities",
        data={"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
    )


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@runtime_checkable
class _Follows(Protocol):
    """An executor that can follow a run another server dispatched
    (`mcp_harbor.remote.CeleryExecutor.follow`)."""

    async def follow(
        self, request: RunRequest, observer: RunObserver | None = None
    ) -> RunResult: ...


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _TaskObserver:
    """A call's `RunObserver` while it runs as a task: keeps the latest
    progress message for the task's row (no output streamed: nobody listens)."""

    def __init__(self) -> None:
        self.latest: str | None = None
        #: ``working``, or ``input_required`` while a question waits.
        self.status = "working"
        self._reached = 0.0

    @property
    def wants_output(self) -> bool:
        return False

    async def notice(self, message: str) -> None:
        self.latest = message

    async def step_started(self, step: Step, number: int, total: int) -> None:
        self._reached = number - 0.5
        self.latest = f"{step.name} ({number}/{total})"

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        self._reached = float(number)
        self.latest = f"{result.name} ({number}/{total}) {result.status}"

    async def step_progress(self, step: Step, number: int, total: int, line: ProgressLine) -> None:
        progress = overall_progress(number, line.fraction)
        if progress < self._reached:
            return
        self._reached = progress
        self.latest = f"{step.name} ({number}/{total}): {line.text}"

    async def output(self, step: Step, stream: str, line: str) -> bool:
        return False


class _TaskApprover:
    """Asks the task's client to confirm a run (``confirm:`` without
    ``approvers:``; with them the call service asks the approvers through the
    store instead): the task goes ``input_required`` with an
    ``elicitation/create`` form in ``inputRequests``, and the answer comes in
    a ``tasks/update`` to any replica, read from the row every
    `FLUSH_INTERVAL`. Each question has its own key, never reused."""

    def __init__(self, store: Store, task_id: str, caller: Caller, observer: _TaskObserver):
        self._store = store
        self._task_id = task_id
        self._caller = caller
        self._observer = observer
        self._asked = 0

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision:
        """The user's answer, a decline when the timeout passes first.

        Raises:
            StoreError: the question could not be recorded (nothing runs)."""
        self._asked += 1
        key = CONFIRM_KEY if self._asked == 1 else f"{CONFIRM_KEY}-{self._asked}"
        request = {
            "method": "elicitation/create",
            "params": {"mode": "form", "message": message, "requestedSchema": CONFIRM_SCHEMA},
        }
        began = time.monotonic()
        # Before the row says so: the progress writer never turns it back to working.
        self._observer.status, self._observer.latest = "input_required", message
        try:
            asked = await anyio.to_thread.run_sync(
                self._store.task_ask, self._task_id, message, json.dumps({key: request})
            )
        except BaseException:
            self._observer.status = "working"
            raise
        try:
            with anyio.move_on_after(timeout):
                while asked:
                    row = await anyio.to_thread.run_sync(self._store.task, self._task_id)
                    answers = json.loads(row["input_responses"] or "{}") if row else {}
                    if key in answers:
                        waited = round((time.monotonic() - began) * 1000, 3)
                        return answer_of(_elicit_result(answers[key]), self._caller, waited)
                    await anyio.sleep(FLUSH_INTERVAL)
        finally:
            self._observer.status = "working"
            self._observer.latest = "answered" if asked else self._observer.latest
        waited = round((time.monotonic() - began) * 1000, 3)
        return Decision(False, "timeout", "timeout", waited)


def _elicit_result(answer: Any) -> types.ElicitResult | None:
    try:
        return types.ElicitResult.model_validate(answer)
    except ValueError:
        return None  # declines (`answer_of`)


class TaskCalls:
    """The tasks of one server process: creates them for ``tools/call``,
    runs them in a task group it owns (`run`, a background job of the
    server), and answers ``tasks/get``, ``tasks/cancel`` and ``tasks/update``
    from the store.

    `ttl` is the server's ``--task-ttl`` in seconds; `server_info` gives the
    server's ``serverInfo`` stamp, which a completed task's result carries as
    the plain call's would."""

    def __init__(
        self,
        service: CallService,
        ttl: float,
        server_info: Callable[[], Mapping[str, Any]],
    ) -> None:
        self.service = service
        self.store: Store = service.store
        self.ttl = ttl
        self.instance = uuid.uuid4().hex[:12]
        self._server = json.dumps(
            {"host": socket.gethostname(), "pid": os.getpid(), "instance": self.instance}
        )
        self._group: anyio.abc.TaskGroup | None = None
        #: The cancel scopes of the tasks this process runs, by task id.
        self._running: dict[str, anyio.CancelScope] = {}
        #: Open tasks of a dead server whose run is on a worker: followed
        #: once `run` owns the task group.
        self._orphans: list[dict[str, Any]] = []
        #: The ``serverInfo`` stamp a plain 2026-era ``tools/call`` result
        #: carries (a fresh mapping per call).
        self.server_info = server_info

    @property
    def registry(self) -> Registry:
        catalog = self.service.catalog
        assert isinstance(catalog, Registry)
        return catalog

    # --- lifetime -----------------------------------------------------------------

    def close_interrupted(self) -> list[str]:
        """Make ``failed`` (reason ``interrupted``) the open tasks that a
        server on this host ran and that is gone (it died mid-run); returns
        their ids. Synchronous: call at start, before serving. Tasks of
        another host's server, or of a live one, are left alone. A task whose
        run went to a worker is kept open when this server has a broker: it
        is taken over (`Store.task_claim`: by one server only, which is then
        its server) and `run` follows it (`_resume`)."""
        closed: list[str] = []
        host = socket.gethostname()
        for row in self.store.tasks_open():
            try:
                server = json.loads(row["server"])
            except (TypeError, ValueError):
                continue
            if not isinstance(server, dict) or server.get("host") != host:
                continue
            pid = server.get("pid")
            if isinstance(pid, int) and pid != os.getpid() and _pid_alive(pid):
                continue
            if server.get("instance") == self.instance:
                continue
            if server.get("runs_on") and server.get("run_id") and self._can_follow():
                # Taken over (compare-and-set): no other server follows it too.
                ours = {**json.loads(self._server), "run_id": server["run_id"]}
                ours["runs_on"] = server["runs_on"]
                if self.store.task_claim(row["task_id"], row["server"], json.dumps(ours)):
                    self._orphans.append(row)
                continue
            if self._fail_interrupted(row["task_id"]):
                closed.append(row["task_id"])
        return closed

    def _fail_interrupted(self, task_id: str) -> bool:
        """Make a task ``failed`` with the reason ``interrupted`` (blocking)."""
        error = {
            "code": _INTERNAL_ERROR,
            "message": "Task interrupted: the server running it stopped before the "
            "call ended; call the tool again",
            "data": {"reason": "interrupted"},
        }
        return self.store.task_finish(
            task_id,
            "failed",
            "interrupted: the server stopped before the call ended",
            error=json.dumps(error),
        )

    def _can_follow(self) -> bool:
        """Whether this server can follow a worker's run (it has a broker)."""
        return isinstance(self.service.remote, _Follows)

    async def _resume(self, row: Mapping[str, Any]) -> None:
        """Follow the worker's run of a task whose server died (kept open by
        `close_interrupted`) as `_execute` runs a call: progress in the row,
        ``tasks/cancel`` sent on to the worker, the result stored, the end
        record written. A run that cannot be followed (it never started: no
        start record; its export is gone or has no ``runs_on:`` now; its
        context.json is unreadable) is made ``failed`` (``interrupted``) and
        its call, if it started, closed as ``interrupted``. A store error
        leaves the task as it is (logged)."""
        task_id = row["task_id"]
        run_id = str(json.loads(row["server"])["run_id"])
        try:
            records = await anyio.to_thread.run_sync(self.store.open_calls)
        except StoreError as exc:
            log.error("task %s…: its run %s cannot be followed: %s", task_id[:8], run_id, exc)
            return
        start = next((r for r in records if r.call_id == run_id), None)
        entry = self.registry.find(str(row["tool"]))
        export = None if entry is None else entry.export
        context: RunContext | None = None
        if start is not None and export is not None and export.spec.runs_on is not None:
            try:
                context = await anyio.to_thread.run_sync(_context_of, export, start)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.error("run %s: its context.json cannot be read: %s", run_id, exc)
        if start is None or export is None or context is None:
            await self._interrupted(task_id, start)
            return
        log.info("task %s…: following run %s on its worker", task_id[:8], run_id)
        observer = _TaskObserver()
        follow = partial(self._follow, export, context, start, observer)
        await self._execute(
            task_id, export.name, follow, observer, context.output_schema is not None
        )

    async def _interrupted(self, task_id: str, start: AuditRecord | None) -> None:
        """Close the call of `start` (if it started) and its task as interrupted."""
        try:
            if start is not None:
                await self.service.audit.finished(
                    _caller_of(start),
                    None,
                    call_id=start.call_id,
                    tool=start.tool,
                    status="interrupted",
                    error="the server stopped before the call ended",
                )
            await anyio.to_thread.run_sync(self._fail_interrupted, task_id)
        except StoreError as exc:
            log.error("task %s…: interrupted, not recorded: %s", task_id[:8], exc)

    async def _follow(
        self, export: Export, context: RunContext, start: AuditRecord, observer: _TaskObserver
    ) -> Envelope:
        """The envelope of a dispatched run followed to its end on the
        worker, its end record written (as `CallService` writes it, session
        memory aside).

        **Cancellation:** the cancel goes to the worker (`CeleryExecutor.follow`),
        the end record is written ``cancelled``, then it propagates."""
        remote = self.service.remote
        assert isinstance(remote, _Follows)
        caller, run_id = context.caller, context.identity.run_id
        request = RunRequest(
            export=export,
            arguments=context.plain_arguments(),
            run_id=run_id,
            run_dir=context.run_dir,
            workdir=self.service.settings.workdir,
            extra_env=context.environment(),
            started=context.started_monotonic,
            context_path=context.context_path,
            deadline=context.deadline_monotonic,
            shown_arguments=context.shown_arguments,
        )
        queued_ms = float(start.body.get("queued_ms") or 0.0)
        end = partial(self.service.audit.finished, caller, call_id=run_id, tool=export.name)
        try:
            result = await remote.follow(request, observer)
        except anyio.get_cancelled_exc_class():
            await end(None, status="cancelled", error="the call was cancelled")
            raise
        except CancelUnconfirmed as exc:
            await end(None, status="cancel_unconfirmed", error=str(exc))
            await anyio.lowlevel.checkpoint()  # the cancellation is still in effect
            return ended(context, "cancel_unconfirmed", f"{export.name}: {exc}", queued_ms)
        except RunError as exc:
            await end(None, status="failed", error=str(exc))
            return ended(context, "failed", f"{export.name}: {exc}", queued_ms)
        envelope = finish(context, result, queued_ms)
        await end(result, status=envelope.status, error=None)
        return envelope

    async def run(self) -> None:
        """Own the task group the tasks run in, and purge expired tasks,
        until cancelled (the server stops).

        **Cancellation:** the tasks still running are cancelled; each is
        recorded (see `_execute`) before this returns."""
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                orphans, self._orphans = self._orphans, []
                for row in orphans:
                    group.start_soon(self._resume, row)
                while True:
                    await self.purge()
                    await anyio.sleep(self._purge_interval())
        finally:
            self._group = None

    def _purge_interval(self) -> float:
        """Half the shortest TTL a task can have now (the server's, the
        exports' ``task_ttl:``), between 0.5 s and `PURGE_INTERVAL`."""
        ttls = [self.ttl]
        for name in self.registry:
            entry = self.registry.find(name)
            if entry is not None and entry.export.spec.task_ttl is not None:
                ttls.append(entry.export.spec.task_ttl)
        return max(0.5, min(PURGE_INTERVAL, min(ttls) / 2))

    async def purge(self) -> list[str]:
        """Delete the final tasks whose TTL is over, and their run
        directories; returns their ids. A store error is logged: the next
        purge tries again."""
        try:
            rows = await anyio.to_thread.run_sync(self.store.tasks_expired, time.time())
        except StoreError as exc:
            log.warning("cannot purge expired tasks: %s", exc)
            return []
        purged = []
        for row in rows:
            if row["status"] not in _FINAL:
                continue  # kept until its call ends
            await self._forget(row)
            purged.append(row["task_id"])
        return purged

    async def _forget(self, row: Mapping[str, Any]) -> None:
        """Delete an expired task's row and its run directory: only a
        directory under this server's runs root (a row names its path; the
        row alone never decides what is deleted)."""
        run_dir = row.get("run_dir")
        root = self.service.settings.runs_root.resolve()
        if run_dir and Path(run_dir).resolve().is_relative_to(root):
            await anyio.to_thread.run_sync(lambda: shutil.rmtree(run_dir, ignore_errors=True))
        try:
            await anyio.to_thread.run_sync(self.store.task_delete, row["task_id"])
        except StoreError as exc:
            log.warning("cannot delete expired task %s: %s", row["task_id"], exc)

    # --- tools/call ---------------------------------------------------------------

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        """Server middleware (after `CallerMiddleware`, which it needs): a
        ``tools/call`` that runs as a task is answered here, with its
        ``CreateTaskResult``; for handshake-era clients (2025-11-25
        experimental tasks) ``initialize`` gains ``capabilities.tasks`` and
        ``tools/list`` each tool's ``execution.taskSupport``; every other
        request goes on."""
        legacy = ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS
        if legacy and ctx.method == "initialize":
            return _with_legacy_capability(await call_next(ctx))
        if legacy and ctx.method == "tools/list":
            return self._with_task_support(await call_next(ctx))
        if ctx.method != "tools/call" or not isinstance(ctx.params, Mapping):
            return await call_next(ctx)
        try:
            params = types.CallToolRequestParams.model_validate(ctx.params)
        except ValueError:
            return await call_next(ctx)  # the SDK refuses it as usual
        task = await self.maybe_task(ctx, params)
        if task is None:
            return await call_next(ctx)
        mark_handled(ctx.request)  # answered: never counted as rejected
        return task

    async def maybe_task(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> dict[str, Any] | None:
        """The ``CreateTaskResult`` of this call when it runs as a task
        (committed to the store before it is returned; the call started in
        the background), else None: the call is answered the usual way (a
        tool this caller may not see included: it is refused there).

        Raises:
            MCPError: ``-32021`` for an export with ``task: required`` and a
                client that did not declare the extension (nothing ran);
                ``-32603`` when the task cannot be recorded (nothing ran).
        """
        caller = current_caller.get()
        entry = self.registry.find(params.name)
        if caller is None or entry is None or not is_allowed(caller, entry.export.spec.allow):
            return None
        spec = entry.export.spec
        legacy = ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS
        # 2026-07-28: the extension declared; 2025-11-25: the call's params.task.
        declared = params.task is not None if legacy else declares_tasks(ctx)
        if spec.task == "never" or (spec.task == "optional" and not declared):
            return None
        if not declared and legacy:
            raise MCPError(
                _METHOD_NOT_FOUND,
                f"{params.name} runs only as a task: send params.task (2025-11-25 tasks)",
            )
        if not declared:
            await self.service.audit.refused_call(
                new_run_id(),
                caller,
                params.name,
                "refused",
                f"the tool runs as a task and the client did not declare the {EXTENSION} extension",
            )
            raise _missing_capability()
        if self._group is None:
            raise MCPError(_INTERNAL_ERROR, "tasks are not available: the server is stopping")
        ttl_s = min(self.ttl, spec.task_ttl) if spec.task_ttl is not None else self.ttl
        if legacy and params.task is not None and params.task.ttl is not None:
            ttl_s = max(0.001, min(ttl_s, params.task.ttl / 1000))  # the client's, if shorter
        created = time.time()
        stamp = _iso(created)
        task_id = secrets.token_urlsafe(32)
        run_id = new_run_id()
        server = self._server
        if spec.runs_on is not None:  # what a restart needs to follow the worker's run
            server = json.dumps({**json.loads(server), "run_id": run_id, "runs_on": spec.runs_on})
        row = {
            "task_id": task_id,
            "tenant": caller.tenant,
            "principal": caller.principal,
            "tool": params.name,
            "status": "working",
            "status_message": None,
            "created_at": stamp,
            "updated_at": stamp,
            "ttl_ms": int(ttl_s * 1000),
            "expires_at": created + ttl_s,
            "server": server,
        }
        try:
            await anyio.to_thread.run_sync(self.store.task_create, row)
        except StoreError as exc:
            log.error("task of %s not recorded: %s", visible(params.name), exc)
            raise MCPError(
                _INTERNAL_ERROR, f"the task cannot be recorded ({exc}); nothing was run"
            ) from None
        observer = _TaskObserver()
        caps = ctx.session.client_capabilities
        # A client that can show a form is asked through the task
        # (input_required); else an operator answers through the store, the
        # wait shown in statusMessage. With approvers: only they answer.
        ask = (
            _TaskApprover(self.store, task_id, caller, observer)
            if caps is not None and caps.elicitation is not None and not legacy
            else None
        )
        request = CallRequest(
            tool=params.name,
            arguments=params.arguments,
            caller=caller,
            meta=params.meta,
            approval=Approval(ask=ask, notify=observer.notice),
            observer=observer,
            run_id=run_id,
        )
        has_schema = spec.output_schema is not None
        call = partial(self.service.call, request)
        self._group.start_soon(self._execute, task_id, params.name, call, observer, has_schema)
        log.info("%s: task %s… created", visible(params.name), task_id[:8])
        if legacy:
            return {"task": _legacy_wire(row)}
        return {"resultType": "task", **_wire(row)}

    async def _execute(
        self,
        task_id: str,
        tool: str,
        call: Callable[[], Awaitable[Envelope]],
        observer: _TaskObserver,
        has_schema: bool,
    ) -> None:
        """Run the task's call (`call`: the call service's, or `_follow`
        for a resumed one) and record its end in the task's row.

        **Cancellation:** by ``tasks/cancel``: the call is cancelled (its
        processes stopped, its end record written) and the task made
        ``cancelled``; by the server stopping: the task made ``failed``. The
        final write is shielded."""
        envelope: Envelope | None = None
        cancelled = crashed = False
        try:
            with anyio.CancelScope() as scope:
                self._running[task_id] = scope
                async with anyio.create_task_group() as group:
                    group.start_soon(self._watch, task_id, scope, observer)
                    envelope = await call()
                    group.cancel_scope.cancel()
            cancelled = scope.cancelled_caught
        except Exception:
            crashed = True
            log.exception("unexpected error in task %s… of %s", task_id[:8], tool)
            await self._end(task_id, "failed", "internal error", error=_error("internal error"))
            return
        finally:
            self._running.pop(task_id, None)
            if envelope is None and not cancelled and not crashed:  # the server stops
                with anyio.CancelScope(shield=True):
                    await self._end(
                        task_id,
                        "failed",
                        "the server stopped: the call was cancelled",
                        error=_error("the server stopped before the call ended"),
                    )
        if envelope is None:
            await self._end(task_id, "cancelled", "cancelled")
            return
        if envelope.status == "unknown":
            error = {"code": _INVALID_PARAMS, "message": f"Unknown tool: {tool}"}
            await self._end(task_id, "failed", "unknown tool", envelope, error=error)
            return
        result = tool_result(envelope, has_schema).model_dump(
            by_alias=True, mode="json", exclude_none=True
        )
        if envelope.status == "cancelled":  # by the server stopping (a user's: no envelope)
            error = _error(f"the server stopped: the call was cancelled (run {envelope.run_id})")
            await self._end(task_id, "failed", "the server stopped", envelope, error=error)
            return
        await self._end(task_id, "completed", envelope.status, envelope, result=result)

    async def _watch(self, task_id: str, scope: anyio.CancelScope, observer: _TaskObserver) -> None:
        """Every `FLUSH_INTERVAL`: write the latest progress, and cancel
        `scope` once the row's cancel flag is set (by any replica)."""
        written: tuple[str, str | None] = ("working", None)
        while True:
            await anyio.sleep(FLUSH_INTERVAL)
            try:
                row = await anyio.to_thread.run_sync(self.store.task, task_id)
                if row is None or row["cancel_requested"]:
                    scope.cancel()
                    return
                now = (observer.status, observer.latest)
                if now != written and observer.status == "working":
                    # input_required is written by the question itself.
                    written = now
                    await anyio.to_thread.run_sync(
                        self.store.task_progress, task_id, "working", observer.latest
                    )
                elif observer.status == "input_required":
                    written = now
            except StoreError as exc:
                log.warning("task %s…: progress not recorded: %s", task_id[:8], exc)

    async def _end(
        self,
        task_id: str,
        status: str,
        message: str,
        envelope: Envelope | None = None,
        *,
        result: Mapping[str, Any] | None = None,
        error: Mapping[str, Any] | None = None,
    ) -> None:
        def write() -> None:
            self.store.task_finish(
                task_id,
                status,
                message,
                run_id=None if envelope is None else envelope.run_id,
                run_dir=None if envelope is None else envelope.run_dir,
                result=None if result is None else json.dumps(result),
                error=None if error is None else json.dumps(error),
            )

        try:
            await anyio.to_thread.run_sync(write)
        except StoreError as exc:
            log.error("task %s… end not recorded: %s", task_id[:8], exc)

    def _with_task_support(self, answer: Any) -> Any:
        """A handshake-era ``tools/list`` answer with each tool's
        ``execution.taskSupport`` (its export's ``task:``)."""
        if not isinstance(answer, dict) or not isinstance(answer.get("tools"), list):
            return answer
        tools = []
        for tool in answer["tools"]:
            entry = self.registry.find(tool.get("name", "")) if isinstance(tool, dict) else None
            mode = None if entry is None else entry.export.spec.task
            if mode in ("optional", "required"):
                tool = {**tool, "execution": {"taskSupport": mode}}
            tools.append(tool)
        return {**answer, "tools": tools}

    # --- tasks/* ------------------------------------------------------------------

    async def _owned(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> dict[str, Any]:
        """The row of `task_id` if the caller may see it.

        Raises:
            MCPError: ``-32021`` when the request does not declare the
                extension; ``-32602 Task not found`` when there is no such
                task, it expired, or it is another principal's (then an
                audit record says who asked).
        """
        mark_handled(ctx.request)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS and not declares_tasks(ctx):
            raise _missing_capability()
        caller = current_caller.get()
        if caller is None:
            raise MCPError(_INVALID_PARAMS, _NOT_FOUND)
        try:
            row = await anyio.to_thread.run_sync(self.store.task, task_id)
        except StoreError as exc:
            raise MCPError(_INTERNAL_ERROR, f"the task store is unavailable: {exc}") from None
        if row is None:
            raise MCPError(_INVALID_PARAMS, _NOT_FOUND)
        if (row["tenant"], row["principal"]) != (caller.tenant, caller.principal):
            await self._refuse(caller, row)
            raise MCPError(_INVALID_PARAMS, _NOT_FOUND)
        expires = row["expires_at"]
        if expires is not None and expires < time.time() and row["status"] in _FINAL:
            await self._forget(row)
            raise MCPError(_INVALID_PARAMS, _NOT_FOUND)
        return row

    async def _refuse(self, caller: Caller, row: Mapping[str, Any]) -> None:
        log.warning(
            "task %s… of another principal asked by %s", row["task_id"][:8], caller.describe()
        )
        try:
            await self.service.audit.refused_call(
                new_run_id(),
                caller,
                str(row["tool"]),
                "denied",
                f"asked for task {row['task_id'][:8]}… of another principal",
            )
        except StoreError as exc:
            log.error("refused task request not recorded: %s", exc)

    async def get(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams
    ) -> dict[str, Any]:
        """``tasks/get``: the task, with its ``result`` when completed and its
        ``error`` when failed."""
        row = await self._owned(ctx, params.task_id)
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return _legacy_wire(row)
        answer = _wire(row)
        if row["status"] == "input_required":
            answer["inputRequests"] = _outstanding(row)
        elif row["status"] == "completed" and row["result"]:
            answer["result"] = self._as_plain_result(json.loads(row["result"]))
        elif row["status"] == "failed" and row["error"]:
            answer["error"] = json.loads(row["error"])
        return answer

    def _as_plain_result(self, result: dict[str, Any]) -> dict[str, Any]:
        """`result` exactly as the plain 2026-era ``tools/call`` would have
        answered it: with the ``serverInfo`` ``_meta`` stamp the SDK puts on
        every 2026-era result (the stored result is the handler's, before it)."""
        meta = result.get("_meta")
        meta = dict(meta) if isinstance(meta, Mapping) else {}
        meta.setdefault(SERVER_INFO_META_KEY, dict(self.server_info()))
        return {**result, "_meta": meta}

    async def cancel(
        self, ctx: ServerRequestContext[Any, Any], params: types.CancelTaskRequestParams
    ) -> dict[str, Any]:
        """``tasks/cancel``: flag the task (the server running it stops its
        call); an empty acknowledgement, also for a task already final."""
        row = await self._owned(ctx, params.task_id)
        legacy = ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS
        if row["status"] in _FINAL:
            if legacy:  # 2025-11-25: a final task cannot be cancelled
                raise MCPError(_INVALID_PARAMS, f"Task is already {row['status']}")
            return {}
        await anyio.to_thread.run_sync(self.store.task_request_cancel, params.task_id)
        scope = self._running.get(params.task_id)
        if scope is not None:
            scope.cancel()
        if not legacy:
            return {}
        # 2025-11-25 answers the cancelled task: wait (bounded) for its end.
        final = await self._final(params.task_id, CANCEL_WAIT)
        return _legacy_wire(final or row)

    async def _final(self, task_id: str, timeout: float | None) -> dict[str, Any] | None:
        """The row once final (None: still not final after `timeout` s, or gone)."""
        with anyio.move_on_after(math.inf if timeout is None else timeout):
            while True:
                row = await anyio.to_thread.run_sync(self.store.task, task_id)
                if row is None or row["status"] in _FINAL:
                    return row
                await anyio.sleep(FLUSH_INTERVAL)
        return None

    async def result(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskPayloadRequestParams
    ) -> dict[str, Any]:
        """``tasks/result`` (2025-11-25 only): waits until the task is final,
        then answers exactly what ``tools/call`` would have (the
        ``CallToolResult``, or the JSON-RPC error raised), tagged with
        ``_meta["io.modelcontextprotocol/related-task"]``.

        **Cancellation:** the wait ends; the task goes on."""
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise MCPError(_METHOD_NOT_FOUND, "Method not found", data="tasks/result")
        await self._owned(ctx, params.task_id)
        row = await self._final(params.task_id, None)
        if row is None:
            raise MCPError(_INVALID_PARAMS, _NOT_FOUND)
        related = {_RELATED: {"taskId": params.task_id}}
        if row["result"]:
            result = json.loads(row["result"])
            return {**result, "_meta": {**(result.get("_meta") or {}), **related}}
        error = json.loads(row["error"]) if row["error"] else _error(str(row["status"]))
        if row["status"] == "cancelled":
            error = {"code": _INVALID_PARAMS, "message": "Task was cancelled"}
        raise MCPError(error["code"], error["message"], data=error.get("data"))

    async def list_tasks(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> dict[str, Any]:
        """``tasks/list`` (2025-11-25 only): the caller's own tasks, newest
        first, at most `LIST_LIMIT` (one page)."""
        mark_handled(ctx.request)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise MCPError(_METHOD_NOT_FOUND, "Method not found", data="tasks/list")
        caller = current_caller.get()
        if caller is None:
            return {"tasks": []}
        rows = await anyio.to_thread.run_sync(
            self.store.tasks_of, caller.tenant, caller.principal, LIST_LIMIT
        )
        now = time.time()
        live = [r for r in rows if not (r["status"] in _FINAL and (r["expires_at"] or now) < now)]
        return {"tasks": [_legacy_wire(r) for r in live]}

    async def update(
        self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskParams
    ) -> dict[str, Any]:
        """``tasks/update``: the answers to the task's outstanding
        questions are stored (for whichever replica runs it); answers to
        unknown or answered keys are ignored, as the extension says. An
        empty acknowledgement."""
        row = await self._owned(ctx, params.task_id)
        if row["status"] != "input_required":
            return {}
        outstanding = _outstanding(row)
        answers = json.loads(row["input_responses"] or "{}")
        fresh = {k: v for k, v in (params.input_responses or {}).items() if k in outstanding}
        if fresh:
            await anyio.to_thread.run_sync(
                self.store.task_answer, params.task_id, json.dumps({**answers, **fresh})
            )
        return {}


class UpdateTaskParams(types.RequestParams):
    """``tasks/update`` params: the answers keyed like ``inputRequests``."""

    task_id: str
    input_responses: dict[str, Any] | None = None


def _outstanding(row: Mapping[str, Any]) -> dict[str, Any]:
    """The questions of an ``input_required`` row not answered yet."""
    requests = json.loads(row["input_requests"] or "{}")
    answers = json.loads(row["input_responses"] or "{}")
    return {k: v for k, v in requests.items() if k not in answers}


def _legacy_wire(row: Mapping[str, Any]) -> dict[str, Any]:
    """The 2025-11-25 ``Task`` of a row: ``ttl``/``pollInterval``, and a
    completed call whose result is an error shown as ``failed``."""
    status = row["status"]
    if status == "completed" and row["result"] and json.loads(row["result"]).get("isError"):
        status = "failed"
    task: dict[str, Any] = {
        "taskId": row["task_id"],
        "status": status,
        "createdAt": row["created_at"],
        "lastUpdatedAt": row["updated_at"],
        "ttl": row["ttl_ms"],
        "pollInterval": POLL_INTERVAL_MS,
    }
    if row.get("status_message"):
        task["statusMessage"] = row["status_message"]
    return task


def _with_legacy_capability(answer: Any) -> Any:
    """An ``initialize`` answer with the 2025-11-25 ``capabilities.tasks``."""
    if not isinstance(answer, dict) or not isinstance(answer.get("capabilities"), dict):
        return answer
    tasks: dict[str, Any] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    return {**answer, "capabilities": {**answer["capabilities"], "tasks": tasks}}


def _error(message: str) -> dict[str, Any]:
    return {"code": _INTERNAL_ERROR, "message": message}


def _wire(row: Mapping[str, Any]) -> dict[str, Any]:
    """The extension's ``Task`` of a row."""
    task: dict[str, Any] = {
        "taskId": row["task_id"],
        "status": row["status"],
        "createdAt": row["created_at"],
        "lastUpdatedAt": row["updated_at"],
        "ttlMs": row["ttl_ms"],
        "pollIntervalMs": POLL_INTERVAL_MS,
    }
    if row.get("status_message"):
        task["statusMessage"] = row["status_message"]
    return task


def install_tasks(server: Server, service: CallService, ttl: float) -> TaskCalls:
    """Advertise the tasks extension on `server`, answer the ``tools/call``s
    that run as tasks (a middleware after those `build_server` installs) and
    serve the ``tasks/*`` methods from `service`'s store; the returned
    `TaskCalls.run` must run as a background job of the server. Closes the
    tasks a dead server on this host left open (`TaskCalls.close_interrupted`)."""
    tasks = TaskCalls(service, ttl, lambda: server.server_info_stamp)
    closed = tasks.close_interrupted()
    if closed:
        log.warning("%d interrupted task(s) made failed", len(closed))
    server.extensions[EXTENSION] = {}
    server.add_request_handler("tasks/get", types.GetTaskRequestParams, tasks.get)
    server.add_request_handler("tasks/cancel", types.CancelTaskRequestParams, tasks.cancel)
    server.add_request_handler("tasks/update", UpdateTaskParams, tasks.update)
    server.add_request_handler("tasks/result", types.GetTaskPayloadRequestParams, tasks.result)
    server.add_request_handler("tasks/list", types.PaginatedRequestParams, tasks.list_tasks)
    server.middleware.append(tasks)
    return tasks


def _caller_of(start: AuditRecord) -> Caller:
    """The caller of a call, from its start record (``body.caller``)."""
    data = start.body.get("caller")
    names = {f.name for f in dataclasses.fields(Caller)}
    known = {k: v for k, v in data.items() if k in names} if isinstance(data, Mapping) else {}
    known["groups"] = tuple(known.get("groups") or ())
    known.setdefault("transport", "http")
    known.setdefault("principal", start.principal)
    return Caller(**known)


def _context_of(export: Export, start: AuditRecord) -> RunContext:
    """The `RunContext` of a started run, from its context.json (blocking):
    what `finish` needs of it. Its monotonic start is its wall-clock start
    seen from now, so that its deadline stays the one it had.

    Raises:
        OSError, ValueError, KeyError, TypeError: context.json is missing or
            not what `compose` writes."""
    run_dir = Path(str(start.body["run_dir"]))
    data = json.loads((run_dir / "context.json").read_text(encoding="utf-8"))
    started_at = str(data["started_at"])
    epoch = calendar.timegm(time.strptime(started_at, "%Y-%m-%dT%H:%M:%SZ"))
    started = time.monotonic() - max(0.0, time.time() - epoch)
    shown = dict(data.get("arguments") or {})
    schema = export.spec.output_schema
    return RunContext(
        identity=Identity(**data["identity"]),
        caller=_caller_of(start),
        started_at=started_at,
        started_monotonic=started,
        deadline_monotonic=started + float(data["timeout_s"]),
        tool=export.name,
        export_hash=str(start.body.get("export_hash") or export.content_hash),
        arguments=shown,
        shown_arguments=shown,
        conversation=(),
        external={},
        attachments=(),
        output_schema=schema,
        output_validator=None if schema is None else Draft202012Validator(schema),
        run_dir=run_dir,
        context_path=run_dir / "context.json",
        output_path=Path(str(data["output"]["path"])),
    )
