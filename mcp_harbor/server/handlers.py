"""The MCP request handlers: who is calling, list the registry, call a tool.

A call flows one way: identity (resolved by `CallerMiddleware`) → policy →
argument validation → run directory → audit start record → runner → audit
end record → MCP result.

Three outcomes at the edge: an anticipated failure (invalid arguments, a
failing step, a timeout, the audit store being unavailable) is a tool result
with ``isError``; an unknown tool, or one the caller may not call, is the same
JSON-RPC error (-32602 ``Unknown tool: NAME``), so a denied caller cannot tell
that the tool exists; anything unexpected is logged with its traceback and
answered with ``Error executing tool <name>``, never with internal text.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.shared.exceptions import MCPError

from mcp_harbor.config import Export, Step
from mcp_harbor.errors import ArgumentError, HarborError, StoreError, UnknownTool
from mcp_harbor.identity import ANONYMOUS, Caller, current_caller, local_principal, use_caller
from mcp_harbor.policy import is_allowed
from mcp_harbor.runner import (
    DEFAULT_OUTPUT_TAIL,
    REDACTED,
    Executor,
    LocalExecutor,
    RunRequest,
    RunResult,
    StepResult,
    default_runs_root,
    new_run_dir,
    new_run_id,
)
from mcp_harbor.server.registry import Registry
from mcp_harbor.server.results import error_result, tool_result
from mcp_harbor.store.audit import AuditTrail

__all__ = ["CallerMiddleware", "Handlers", "ServeSettings"]

log = logging.getLogger("mcp_harbor.server")

INVALID_PARAMS = -32602


@dataclass(slots=True)
class ServeSettings:
    """How calls are run. Every default has a reason:

    - `workdir`: where steps without ``cwd:`` run: the directory the server
      was started in, as for any command-line tool.
    - `runs_root`: run directories under the XDG state directory, so logs
      survive the call for inspection.
    - `keep_runs`: the newest 100 run directories are kept; older ones are
      removed when a run starts, so the disk does not fill up.
    - `output_tail`: bytes of the end of each stream in the result.
    """

    workdir: Path = field(default_factory=Path.cwd)
    runs_root: Path = field(default_factory=default_runs_root)
    keep_runs: int = 100
    output_tail: int = DEFAULT_OUTPUT_TAIL


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
        client_name = client_version = None
        params = getattr(ctx.session, "client_params", None)
        info = getattr(params, "client_info", None) if params is not None else None
        if info is not None:
            client_name, client_version = info.name, info.version
        request_id = None if ctx.request_id is None else str(ctx.request_id)
        if self.transport == "stdio":
            return Caller(
                transport="stdio",
                principal=self._local,
                tenant="local",
                client_name=client_name,
                client_version=client_version,
                session=f"stdio:{self.connection}",
                request_id=request_id,
                protocol_version=ctx.protocol_version,
            )
        request = ctx.request
        headers = getattr(request, "headers", None)
        session_id = headers.get("mcp-session-id") if headers is not None else None
        client = getattr(request, "client", None)
        remote = getattr(client, "host", None)
        session = f"http:{session_id}" if session_id else f"request:{uuid.uuid4().hex[:12]}"
        token = get_access_token()
        if token is not None:
            claims = token.claims or {}
            return Caller(
                transport="http",
                principal=token.client_id,
                tenant=str(claims.get("tenant", "default")),
                groups=tuple(str(g) for g in claims.get("groups", [])),
                client_name=client_name,
                client_version=client_version,
                session=session,
                request_id=request_id,
                remote_addr=remote,
                protocol_version=ctx.protocol_version,
            )
        return Caller(
            transport="http",
            principal=ANONYMOUS,
            tenant="default",
            client_name=client_name,
            client_version=client_version,
            session=session,
            request_id=request_id,
            remote_addr=remote,
            protocol_version=ctx.protocol_version,
            authenticated=not self.auth,
        )

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        with use_caller(self.resolve(ctx)):
            return await call_next(ctx)


class _Progress:
    """Reports step starts and ends as MCP progress (a no-op when the
    client sent no progress token)."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._ctx = ctx

    async def step_started(self, step: Step, number: int, total: int) -> None:
        await self._send(2 * number - 2, 2 * total, f"{step.name} ({number}/{total})")

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        await self._send(
            2 * number - 1, 2 * total, f"{result.name} ({number}/{total}) {result.status}"
        )

    async def _send(self, progress: float, total: float, message: str) -> None:
        try:
            await self._ctx.session.report_progress(progress, total, message)
        except Exception:
            log.debug("progress notification failed", exc_info=True)


class Handlers:
    """The handlers of one server, over a registry that can be swapped."""

    def __init__(
        self,
        registry: Registry,
        settings: ServeSettings,
        audit: AuditTrail,
        executor: Executor | None = None,
        refused: frozenset[str] = frozenset(),
    ) -> None:
        self.registry = registry
        self.settings = settings
        self.audit = audit
        self.executor: Executor = executor or LocalExecutor()
        self.refused = refused  # names of exports the checker refused

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
        visible = [
            entry.tool
            for entry in self.registry.values()
            if is_allowed(caller, entry.export.spec.allow)
        ]
        return types.ListToolsResult(tools=visible)

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        caller = self._caller()
        registry = self.registry  # the version this call runs on
        call_id = new_run_id()
        try:
            entry = registry.lookup(params.name)
        except UnknownTool:
            status = "refused" if params.name in self.refused else "unknown"
            await self._refuse(call_id, caller, params.name, status, "no such published tool")
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}") from None
        if not is_allowed(caller, entry.export.spec.allow):
            log.warning("denied %s to %s", params.name, caller.describe())
            await self._refuse(call_id, caller, params.name, "denied", "not in allow:")
            # The same answer as an unknown tool: a denied caller learns nothing.
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}")
        export = entry.export
        secret = export.secret_args
        try:
            arguments = entry.validator.validate(params.arguments)
        except ArgumentError as exc:
            shown = {
                k: (REDACTED if k in secret else v) for k, v in (params.arguments or {}).items()
            }
            message = str(exc)
            await self._refuse(
                call_id, caller, export.name, "invalid", message, shown, export.content_hash
            )
            return error_result(f"{params.name}: {message}\nNothing was run.")
        return await self._run(ctx, caller, export, arguments, call_id)

    async def _run(
        self,
        ctx: ServerRequestContext[Any, Any],
        caller: Caller,
        export: Export,
        arguments: dict[str, Any],
        call_id: str,
    ) -> types.CallToolResult:
        try:
            run_dir = new_run_dir(self.settings.runs_root, call_id, self.settings.keep_runs)
        except HarborError as exc:
            log.error("%s: %s", export.name, exc)
            return error_result(f"{export.name}: cannot prepare the run; nothing was run")
        request = RunRequest(
            export=export,
            arguments=arguments,
            run_id=call_id,
            run_dir=run_dir,
            workdir=self.settings.workdir,
            extra_env=caller.environment(),
            output_tail=export.spec.output_tail or self.settings.output_tail,
        )
        try:
            await self.audit.started(
                call_id,
                caller,
                export.name,
                export.content_hash,
                request.redacted_arguments(),
                str(run_dir),
            )
        except StoreError as exc:
            log.error("audit store unavailable, refusing to run %s: %s", export.name, exc)
            return error_result(
                f"{export.name}: the audit store is unavailable, so nothing was run "
                f"(every run is recorded before it starts); try again later"
            )
        result: RunResult | None = None
        try:
            result = await self.executor.run(request, _Progress(ctx))
        except anyio.get_cancelled_exc_class():
            await self._finish(
                caller, None, call_id, export.name, "cancelled", "the call was cancelled"
            )
            log.info("%s: run %s cancelled", export.name, call_id)
            raise
        except Exception:
            log.exception("unexpected error in tool %s", export.name)
            await self._finish(caller, None, call_id, export.name, "failed", "internal error")
            return error_result(f"Error executing tool {export.name}")
        await self._finish(caller, result, call_id, export.name, result.status, None)
        log.info(
            "%s: run %s %s in %.0f ms", export.name, call_id, result.status, result.duration_ms
        )
        return tool_result(result)

    async def _refuse(
        self,
        call_id: str,
        caller: Caller,
        tool: str,
        status: str,
        reason: str,
        arguments: dict[str, Any] | None = None,
        export_hash: str | None = None,
    ) -> None:
        """Record a call where nothing ran. If the store is down nothing runs
        anyway, so the answer stands and the failure is logged."""
        try:
            await self.audit.refused_call(
                call_id, caller, tool, status, reason, arguments, export_hash
            )
        except StoreError as exc:
            log.error("audit record of %s (%s) could not be written: %s", call_id, status, exc)

    async def _finish(
        self,
        caller: Caller,
        result: RunResult | None,
        call_id: str,
        tool: str,
        status: str,
        error: str | None,
    ) -> None:
        try:
            await self.audit.finished(
                caller, result, call_id=call_id, tool=tool, status=status, error=error
            )
        except StoreError as exc:
            # The run happened; its start record exists. Say so loudly; the
            # next start closes it as interrupted if it stays open.
            log.error("audit end record of %s could not be written: %s", call_id, exc)
