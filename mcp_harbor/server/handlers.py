"""The MCP request handlers: list the registry, call a tool.

Three outcomes at the edge: an anticipated failure (invalid arguments, a
failing step, a timeout) is a tool result with ``isError``; an unknown tool
is a JSON-RPC error (-32602, as the spec prescribes); anything unexpected is
logged with its traceback and answered with ``Error executing tool <name>``,
never with internal text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.shared.exceptions import MCPError

from mcp_harbor.config import Step
from mcp_harbor.errors import ArgumentError, HarborError, UnknownTool
from mcp_harbor.runner import (
    DEFAULT_OUTPUT_TAIL,
    Executor,
    LocalExecutor,
    RunRequest,
    StepResult,
    default_runs_root,
    new_run_dir,
    new_run_id,
)
from mcp_harbor.server.registry import Registry
from mcp_harbor.server.results import error_result, tool_result

__all__ = ["Handlers", "ServeSettings"]

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


class _Progress:
    """Reports step starts and ends as MCP progress (a no-op when the
    client sent no progress token)."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self._ctx = ctx

    async def step_started(self, step: Step, number: int, total: int) -> None:
        await self._send(2 * number - 2, 2 * total, f"{step.name} ({number}/{total})")

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        await self._send(
            2 * number - 1 if number < total else 2 * total,
            2 * total,
            f"{result.name} ({number}/{total}) {result.status}",
        )

    async def _send(self, progress: float, total: float, message: str) -> None:
        try:
            await self._ctx.session.report_progress(progress, total, message)
        except Exception:
            log.debug("progress notification failed", exc_info=True)


class Handlers:
    """The handlers of one server, over a registry that can be swapped."""

    def __init__(
        self, registry: Registry, settings: ServeSettings, executor: Executor | None = None
    ) -> None:
        self.registry = registry
        self.settings = settings
        self.executor: Executor = executor or LocalExecutor()

    def input_schema(self, name: str) -> Any:
        return self.registry.input_schema(name)

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.registry.tools())

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        registry = self.registry  # the version this call runs on
        try:
            entry = registry.lookup(params.name)
        except UnknownTool as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        try:
            arguments = entry.validator.validate(params.arguments)
            run_id = new_run_id()
            run_dir = new_run_dir(self.settings.runs_root, run_id, self.settings.keep_runs)
            request = RunRequest(
                export=entry.export,
                arguments=arguments,
                run_id=run_id,
                run_dir=run_dir,
                workdir=self.settings.workdir,
                output_tail=entry.export.spec.output_tail or self.settings.output_tail,
            )
            result = await self.executor.run(request, _Progress(ctx))
        except ArgumentError as exc:
            return error_result(f"{params.name}: {exc}\nNothing was run.")
        except HarborError as exc:
            log.error("call of %s failed: %s", params.name, exc)
            return error_result(f"{params.name}: {exc}")
        except Exception:
            log.exception("unexpected error in tool %s", params.name)
            return error_result(f"Error executing tool {params.name}")
        log.info(
            "%s: run %s %s in %.0f ms",
            params.name,
            result.run_id,
            result.status,
            result.duration_ms,
        )
        return tool_result(result)
