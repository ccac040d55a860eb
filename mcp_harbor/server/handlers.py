"""The MCP request handlers: who is calling, list the registry, call a tool.

Identity is resolved once per request by `CallerMiddleware`; a call then goes
through the one call path, `CallService.call` (policy → arguments → run
context → runner → audit → envelope), and the envelope becomes the MCP result.

Three outcomes at the edge: an anticipated failure (invalid arguments, a
failing step, a timeout, the audit store being unavailable) is a tool result
with ``isError``; an unknown tool, or one the caller may not call, is the same
JSON-RPC error (-32602 ``Unknown tool: NAME``), so a denied caller cannot tell
that the tool exists; anything unexpected is logged with its traceback and
answered with ``Error executing tool <name>``, never with internal text.
"""

from __future__ import annotations

import logging
import time
import uuid
import warnings
from dataclasses import replace
from typing import Any, Literal

import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import LOG_LEVEL_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp_harbor.config import Step
from mcp_harbor.errors import (
    ArgumentError,
    Busy,
    NeedsMissing,
    PolicyDenied,
    RunError,
    ShuttingDown,
    StoreError,
    UnknownTool,
)
from mcp_harbor.identity import ANONYMOUS, Caller, current_caller, local_principal, use_caller
from mcp_harbor.policy import is_allowed
from mcp_harbor.runctx import CallService
from mcp_harbor.runctx.approval import DEFAULT_APPROVAL_TIMEOUT, Decision
from mcp_harbor.runner import StepResult
from mcp_harbor.server.elicit import ElicitingApprover, RoundTrip, answer_of
from mcp_harbor.server.registry import Registry
from mcp_harbor.server.results import error_result, tool_result

__all__ = ["CallerMiddleware", "Handlers"]

log = logging.getLogger("mcp_harbor.server")

INVALID_PARAMS = -32602


class CallerMiddleware:
    """Resolves the `Caller` of every request and holds it in
    `current_caller` while the request is handled.

    Over HTTP with tokens the SDK's bearer middleware has already refused
    requests without a valid token (401); the principal is the token's name.
    """

    def __init__(self, transport: Literal["stdio", "http"], auth: bool) -> None:
        self.transport = transport
        self.auth = auth
        self.connection = uuid.uuid4().hex[:12]
        self._local = local_principal()

    def resolve(self, ctx: ServerRequestContext[Any, Any]) -> Caller:
        params = getattr(ctx.session, "client_params", None)
        info = getattr(params, "client_info", None)
        claimed = Caller(
            transport=self.transport,
            principal=self._local,
            tenant="local",
            client_name=info.name if info is not None else None,
            client_version=info.version if info is not None else None,
            session=f"stdio:{self.connection}",
            request_id=None if ctx.request_id is None else str(ctx.request_id),
            protocol_version=ctx.protocol_version,
        )
        if self.transport == "stdio":
            return claimed
        request = ctx.request
        headers = getattr(request, "headers", None)
        session_id = headers.get("mcp-session-id") if headers is not None else None
        session = f"http:{session_id}" if session_id else f"request:{uuid.uuid4().hex[:12]}"
        remote = getattr(getattr(request, "client", None), "host", None)
        token = get_access_token()
        if token is None:  # loopback without tokens (or refused before this)
            return replace(
                claimed,
                principal=ANONYMOUS,
                tenant="default",
                session=session,
                remote_addr=remote,
                authenticated=not self.auth,
            )
        claims = token.claims or {}
        return replace(
            claimed,
            principal=token.client_id,
            tenant=str(claims.get("tenant", "default")),
            groups=tuple(str(g) for g in claims.get("groups", [])),
            session=session,
            remote_addr=remote,
        )

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        with use_caller(self.resolve(ctx)):
            return await call_next(ctx)


_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class _CallObserver:
    """Reports a call's progress and output to its client.

    - Progress: when each step starts (``progress`` = n - 0.5) and ends
      (``progress`` = n), ``total`` = steps, message ``build (2/5)``. A no-op when the
      client sent no progress token.
    - Output: each line a step prints, as a ``notifications/message`` at level
      ``info`` (data: ``{"step", "stream", "line"}``), only to clients that
      asked for log messages: the request's log-level opt-in (2026-07-28) or
      ``logging/setLevel`` on the session (handshake era). Rate-limited to
      `LINES_PER_S` lines per second (bursts of `BURST`) and capped at
      `MAX_LINES` lines per call; what is dropped is counted and said once.
    """

    LINES_PER_S = 50.0
    BURST = 100.0
    MAX_LINES = 1000

    def __init__(self, ctx: ServerRequestContext[Any, Any], wants_output: bool) -> None:
        self._ctx = ctx
        self._wants_output = wants_output
        self._tokens = self.BURST
        self._stamp = time.monotonic()
        self._sent = 0
        self._dropped = 0

    @property
    def wants_output(self) -> bool:
        return self._wants_output

    async def notice(self, message: str) -> None:
        """A message for the user while nothing runs yet (waiting for approval)."""
        await self._progress(0, None, message)
        await self._log("notice", {"message": message})

    async def step_started(self, step: Step, number: int, total: int) -> None:
        # n - 0.5 on start and n on finish: strictly increasing, as the spec wants.
        await self._progress(number - 0.5, total, f"{step.name} ({number}/{total})")

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        await self._progress(number, total, f"{result.name} ({number}/{total}) {result.status}")
        if self._dropped:
            await self._log(
                "notice",
                {
                    "step": result.name,
                    "dropped_lines": self._dropped,
                    "message": f"{self._dropped} output line(s) not streamed (rate limit); "
                    f"the full output is in {result.stdout_log} and {result.stderr_log}",
                },
            )
            self._dropped = 0

    async def output(self, step: Step, stream: str, line: str) -> bool:
        if self._sent >= self.MAX_LINES:
            self._dropped += 1
            return True  # keep counting; the summary says how many
        now = time.monotonic()
        self._tokens = min(self.BURST, self._tokens + (now - self._stamp) * self.LINES_PER_S)
        self._stamp = now
        if self._tokens < 1:
            self._dropped += 1
            return True
        self._tokens -= 1
        self._sent += 1
        await self._log("info", {"step": step.name, "stream": stream, "line": line})
        return True

    async def _log(self, level: str, data: dict[str, Any]) -> None:
        try:
            with warnings.catch_warnings():
                # Logging is deprecated in 2026-07-28 (SEP-2577) but is how
                # both eras stream output today.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                pending = self._ctx.session.send_log_message(
                    level,  # type: ignore[arg-type]
                    data,
                    logger="mcp-harbor",
                    related_request_id=self._ctx.request_id,
                )
            await pending
        except Exception:
            log.debug("log notification failed", exc_info=True)

    async def _progress(self, progress: float, total: float | None, message: str) -> None:
        try:
            await self._ctx.session.report_progress(progress, total, message)
        except Exception:
            log.debug("progress notification failed", exc_info=True)


class Handlers:
    """The handlers of one server, over a registry that can be swapped."""

    def __init__(
        self,
        registry: Registry,
        service: CallService,
        refused: frozenset[str] = frozenset(),
    ) -> None:
        self.registry = registry
        self.service = service
        self.refused = refused  # names of exports the checker refused
        # Handshake-era sessions that asked for log messages, and from which level.
        self._log_levels: dict[str, str] = {}
        self._round_trip = RoundTrip()

    async def set_logging_level(
        self, ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """``logging/setLevel`` (handshake era): this session wants log
        messages from `params.level` up."""
        caller = self._caller()
        if caller.session:
            self._log_levels[caller.session] = params.level
        return types.EmptyResult()

    def _ask_round_trip(
        self, entry: Any, params: types.CallToolRequestParams, caller: Caller
    ) -> types.InputRequiredResult | Decision | None:
        """2026-07-28 confirmation: the question on the first round, the
        answer (a `Decision`) on the retry. None when the call needs no
        question (invalid arguments, which the call path reports, or a
        pre-seeded answer)."""
        export = entry.export
        answer = self._round_trip.answered(
            export.name, params.arguments, params.request_state, params.input_responses
        )
        if answer is not None:
            return answer_of(answer, caller, 0.0)
        try:
            values = entry.validator.validate(params.arguments)
        except ArgumentError:
            return None
        if self.service.seeded(export, values) is not None:
            return None
        timeout = export.spec.approval_timeout or DEFAULT_APPROVAL_TIMEOUT
        message = self.service.confirm_message(export, values)
        return self._round_trip.ask(export.name, params.arguments, message, timeout)

    def _wants_output(self, ctx: ServerRequestContext[Any, Any], caller: Caller) -> bool:
        meta = ctx.meta or {}
        level = meta.get(LOG_LEVEL_META_KEY) if isinstance(meta, dict) else None
        if level is None and caller.session:
            level = self._log_levels.get(caller.session)
        return level in _LEVELS and _LEVELS.index(level) <= _LEVELS.index("info")

    def input_schema(self, name: str) -> Any:
        return self.registry.input_schema(name)

    @staticmethod
    def _caller() -> Caller:
        caller = current_caller.get()
        if caller is None:  # every request passes CallerMiddleware; fail closed regardless
            raise MCPError(INVALID_PARAMS, "no caller identity")
        return caller

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        caller = self._caller()
        return types.ListToolsResult(tools=self.registry.visible_tools(caller))

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        caller = self._caller()
        registry = self.registry  # the version this call runs on
        try:
            entry = registry.lookup(params.name)
        except UnknownTool:
            status = "refused" if params.name in self.refused else "unknown"
            await self.service.refuse(caller, params.name, status, "no such published tool")
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}") from None
        meta: Any = params.meta
        export = entry.export
        observer = _CallObserver(ctx, self._wants_output(ctx, caller))
        approver: ElicitingApprover | None = None
        decision: Decision | None = None
        if export.confirm is not None and is_allowed(caller, export.spec.allow):
            caps = ctx.session.client_capabilities
            can_elicit = bool(caps is not None and caps.elicitation is not None)
            if can_elicit and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                asked = self._ask_round_trip(entry, params, caller)
                if isinstance(asked, types.InputRequiredResult):
                    return asked
                decision = asked
            elif can_elicit and ctx.session.can_send_request:
                approver = ElicitingApprover(ctx, caller)

        async def notify(message: str) -> None:
            await observer.notice(message)

        try:
            envelope = await self.service.call(
                export,
                entry.validator,
                caller,
                params.arguments,
                meta,
                observer,
                approver=approver,
                decision=decision,
                notify=notify,
            )
        except PolicyDenied:
            log.warning("denied %s to %s", params.name, caller.describe())
            # The same answer as an unknown tool: a denied caller learns nothing.
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}") from None
        except ArgumentError as exc:
            return error_result(f"{params.name}: {exc}\nNothing was run.")
        except (Busy, ShuttingDown, NeedsMissing) as exc:
            return error_result(f"{params.name}: {exc}")
        except StoreError as exc:
            log.error("audit store unavailable, refusing to run %s: %s", params.name, exc)
            return error_result(
                f"{params.name}: the audit store is unavailable, so nothing was run "
                f"(every run is recorded before it starts); try again later"
            )
        except RunError as exc:
            log.error("%s: %s", params.name, exc)
            return error_result(f"{params.name}: cannot prepare the run; nothing was run")
        except Exception:
            log.exception("unexpected error in tool %s", params.name)
            return error_result(f"Error executing tool {params.name}")
        if envelope.finish_reason == "declined":
            log.info("%s: run %s declined; nothing ran", params.name, envelope.run_id)
            return tool_result(envelope, export)
        log.info(
            "%s: run %s %s in %.0f ms",
            params.name,
            envelope.run_id,
            envelope.finish_reason,
            envelope.duration_ms,
        )
        return tool_result(envelope, entry.export)
