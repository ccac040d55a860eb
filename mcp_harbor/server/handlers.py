"""The MCP request handlers: who is calling, list the registry, call a tool.

Identity is resolved once per request by `CallerMiddleware`; a call is then
one `CallRequest` to the one call path, `CallService.call`, and its envelope
becomes the MCP answer (`mcp_harbor.server.results`). The handler decides
nothing the service decides; it only says how this client can be asked to
confirm a run (elicitation in either era, else an operator).

Outcomes at the edge: a call that ran, or that stopped before running for a
reason the caller may know (invalid arguments, busy, the audit store being
unavailable, declined), is a tool result (``isError`` unless it reached its
goal); a tool that is unknown, refused by the checker or not allowed to the
caller is the same JSON-RPC error (-32602 ``Unknown tool: NAME``, with the
envelope in its ``data``), so a denied caller cannot tell that the tool
exists; a call that needs the user's yes (2026-07-28) is an
``InputRequiredResult``; anything unexpected is logged with its traceback and
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

from mcp_harbor._visible import visible
from mcp_harbor.config import Step
from mcp_harbor.identity import ANONYMOUS, Caller, current_caller, local_principal, use_caller
from mcp_harbor.policy import is_allowed
from mcp_harbor.runctx import ENVELOPE_META_KEY, Approval, CallRequest, CallService
from mcp_harbor.runner import ProgressLine, StepResult, overall_progress
from mcp_harbor.server.elicit import ElicitingApprover, RoundTrip, answer_of
from mcp_harbor.server.oauth.accepted import OAuthAccessToken
from mcp_harbor.server.refusals import mark_handled
from mcp_harbor.server.registry import Registry
from mcp_harbor.server.results import error_result, tool_result

__all__ = ["CallerMiddleware", "Handlers"]

log = logging.getLogger("mcp_harbor.server")

INVALID_PARAMS = -32602


def _with_token(claimed: Caller, auth: bool) -> Caller:
    """`claimed` with who the HTTP request's bearer token says it is: the
    token's name, tenant and groups (an OAuth token's principal, tenant,
    groups, scopes, issuer, subject, client id and token id); ``anonymous`` without one (a loopback
    server without tokens, or `auth` and refused before this)."""
    token = get_access_token()
    if token is None:
        return replace(claimed, principal=ANONYMOUS, tenant="default", authenticated=not auth)
    if isinstance(token, OAuthAccessToken):  # --auth oauth: what the verified claims say
        return replace(
            claimed,
            principal=token.principal,
            tenant=token.tenant,
            groups=token.groups,
            scopes=tuple(token.scopes),
            issuer=token.issuer,
            subject=token.subject,
            client_id=token.client_id,
            token_id=token.token_id,
        )
    claims = token.claims or {}
    return replace(
        claimed,
        principal=token.client_id,
        tenant=str(claims.get("tenant", "default")),
        groups=tuple(str(g) for g in claims.get("groups", [])),
    )


def _claimed(text: str | None) -> str | None:
    """A field the client chose, as it is kept: `visible`."""
    return None if text is None else visible(text)


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
            # Claimed: kept visibly escaped (a newline would forge log lines,
            # a NUL could not reach a step's environment).
            client_name=_claimed(info.name if info is not None else None),
            client_version=_claimed(info.version if info is not None else None),
            session=f"stdio:{self.connection}",
            request_id=_claimed(None if ctx.request_id is None else str(ctx.request_id)),
            protocol_version=ctx.protocol_version,
        )
        if self.transport == "stdio":
            return claimed
        request = ctx.request
        headers = getattr(request, "headers", None)
        session_id = headers.get("mcp-session-id") if headers is not None else None
        session = (
            f"http:{visible(session_id)}" if session_id else f"request:{uuid.uuid4().hex[:12]}"
        )
        remote = getattr(getattr(request, "client", None), "host", None)
        return replace(_with_token(claimed, self.auth), session=session, remote_addr=remote)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        with use_caller(self.resolve(ctx)):
            return await call_next(ctx)


_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class _CallObserver:
    """Reports a call's progress and output to its client.

    - Progress: when each step starts (``progress`` = n - 0.5) and ends
      (``progress`` = n), ``total`` = steps, message ``build (2/5)``. A no-op when the
      client sent no progress token.
    - The step's own progress (the lines it appends to ``$HARBOR_PROGRESS``,
      at most 10 per second): ``progress`` = `overall_progress` (between the
      step's start and end), message ``build (2/5): 3/10 compiling``; a
      line that would not increase the progress (a step going back) is not
      sent, since MCP wants progress to increase.
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
        #: The last progress sent: a step's own lines never go back below it.
        self._reached = 0.0

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

    async def step_progress(self, step: Step, number: int, total: int, line: ProgressLine) -> None:
        progress = overall_progress(number, line.fraction)
        if progress <= self._reached:
            return
        await self._progress(progress, total, f"{step.name} ({number}/{total}): {line.text}")

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
        self._reached = max(self._reached, progress)
        try:
            await self._ctx.session.report_progress(progress, total, message)
        except Exception:
            log.debug("progress notification failed", exc_info=True)


class Handlers:
    """The handlers of one server, over a registry that can be swapped."""

    def __init__(self, registry: Registry, service: CallService) -> None:
        self.service = service
        self.registry = registry
        # Handshake-era sessions that asked for log messages, and from which level.
        self._log_levels: dict[str, str] = {}
        self._round_trip = RoundTrip()

    async def set_logging_level(
        self, ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """``logging/setLevel`` (handshake era): this session wants log
        messages from `params.level` up."""
        mark_handled(ctx.request)  # answered by a handler: never counted as rejected
        caller = self._caller()
        if caller.session:
            self._log_levels[caller.session] = params.level
        return types.EmptyResult()

    def _wants_output(self, ctx: ServerRequestContext[Any, Any], caller: Caller) -> bool:
        meta = ctx.meta or {}
        level = meta.get(LOG_LEVEL_META_KEY) if isinstance(meta, dict) else None
        if level is None and caller.session:
            level = self._log_levels.get(caller.session)
        return level in _LEVELS and _LEVELS.index(level) <= _LEVELS.index("info")

    @property
    def registry(self) -> Registry:
        """The published tools: the call service's catalog (one reference,
        swapped whole by a reload; a running call keeps its version)."""
        catalog = self.service.catalog
        assert isinstance(catalog, Registry)
        return catalog

    @registry.setter
    def registry(self, registry: Registry) -> None:
        self.service.catalog = registry

    def input_schema(self, name: str) -> Any:
        """The ``inputSchema`` the SDK checks a 2026-07-28 HTTP call's
        ``Mcp-Param-*`` headers against, before dispatch (so before
        `CallerMiddleware`): None, which skips the check, for a tool the
        request's caller may not see, exactly as for a tool that does not
        exist. The call is then dispatched, answered ``Unknown tool`` and
        audited as ``denied``; a 400 naming the header and the argument
        would reveal the tool and its args, unaudited."""
        entry = self.registry.find(name)
        if entry is None:
            return None
        # Over HTTP a request without a valid token was refused (401) when
        # the server has tokens, so no token here means no tokens at all.
        caller = _with_token(Caller(transport="http", principal=ANONYMOUS), auth=False)
        if not is_allowed(caller, entry.export.spec.allow):
            return None
        return entry.export.input_schema

    @staticmethod
    def _caller() -> Caller:
        caller = current_caller.get()
        if caller is None:  # every request passes CallerMiddleware; fail closed regardless
            raise MCPError(INVALID_PARAMS, "no caller identity")
        return caller

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        mark_handled(ctx.request)  # answered by a handler: never counted as rejected
        caller = self._caller()
        return types.ListToolsResult(tools=self.registry.visible_tools(caller))

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        mark_handled(ctx.request)  # answered by a handler: never counted as rejected
        caller = self._caller()
        observer = _CallObserver(ctx, self._wants_output(ctx, caller))
        request = CallRequest(
            tool=params.name,
            arguments=params.arguments,
            caller=caller,
            meta=params.meta,
            approval=self._approval(ctx, params, caller, observer),
            observer=observer,
        )
        registry = self.registry  # the version the service runs this call on
        try:
            envelope = await self.service.call(request)
        except Exception:
            log.exception("unexpected error in tool %s", visible(params.name))
            return error_result(f"Error executing tool {params.name}")
        if envelope.ran:
            log.info(
                "%s: run %s %s in %.0f ms",
                visible(params.name),
                envelope.run_id,
                envelope.status,
                envelope.duration_ms,
            )
        else:
            name = visible(params.name)
            log.info("%s: call %s %s; nothing ran", name, envelope.run_id, envelope.status)
        if envelope.status == "unknown":
            # The same answer for a denied caller: it learns nothing.
            raise MCPError(
                INVALID_PARAMS,
                f"Unknown tool: {params.name}",
                data={ENVELOPE_META_KEY: envelope.dumps()},
            )
        if envelope.question is not None:
            question = envelope.question
            return self._round_trip.ask(
                params.name,
                params.arguments,
                question.message,
                question.timeout_s,
                question.plan_hash,
            )
        entry = registry.find(params.name)
        has_schema = entry is not None and entry.export.spec.output_schema is not None
        return tool_result(envelope, has_schema)

    def _approval(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        caller: Caller,
        observer: _CallObserver,
    ) -> Approval:
        """How this client's user can be asked to confirm a run: the answer
        of a 2026-07-28 retry (its signed state verified), a question for the
        client to ask (2026-07-28), an elicitation now (handshake era), else
        an operator (told through progress and log messages)."""
        caps = ctx.session.client_capabilities
        can_elicit = bool(caps is not None and caps.elicitation is not None)
        if can_elicit and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            answer = self._round_trip.answered(
                params.name, params.arguments, params.request_state, params.input_responses
            )
            if answer is not None:
                response, plan = answer
                return Approval(answer=answer_of(response, caller, 0.0, plan))
            return Approval(question=True, notify=observer.notice)
        if can_elicit and ctx.session.can_send_request:
            return Approval(ask=ElicitingApprover(ctx, caller), notify=observer.notice)
        return Approval(notify=observer.notice)
