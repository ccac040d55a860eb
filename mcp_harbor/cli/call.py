"""``mcp-harbor call``: call a tool the way a client does, through a real
``mcp-harbor serve`` subprocess and the SDK client over stdio."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    abort,
    complete_tool_names,
    exports_option,
    load_published,
    programs_option,
    use_programs_file,
)

__all__ = ["call"]


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("tool", shell_complete=complete_tool_names)
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@exports_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--memory",
    "memory",
    default=None,
    help="Caller memory: a JSON value (<= 32 KiB), sent under the request's _meta key "
    "mcp-harbor/memory.",
)
@click.option("--legacy", is_flag=True, help="Use the 2025 handshake era instead of 2026-07-28.")
@programs_option
def call(
    tool: str,
    assignments: tuple[str, ...],
    exports: tuple[Path, ...],
    as_json: bool,
    memory: str | None,
    legacy: bool,
    programs: Path | None,
) -> None:
    """Call TOOL with name=value arguments and print the result.

    Exit 0 on success, 1 on a tool error, 2 on usage or configuration errors
    (an unknown tool too).
    """
    import anyio

    from mcp_harbor.cli._output import caller_inputs, print_envelope
    from mcp_harbor.identity import local_principal

    use_programs_file(programs)
    published = {e.name: e for e in load_published(exports).exports}
    arguments, meta = caller_inputs(tool, assignments, memory, published.get(tool))
    folders = [str(p.resolve()) for p in exports] or [str(Path("exports").resolve())]
    grammars = str(programs.resolve()) if programs is not None else None
    envelope = anyio.run(_call_over_stdio, tool, arguments, folders, legacy, meta, grammars)
    print_envelope(envelope, published, local_principal(), as_json)


async def _call_over_stdio(
    tool: str,
    arguments: dict[str, Any],
    folders: list[str],
    legacy: bool,
    meta: dict[str, Any] | None,
    programs: str | None,
) -> str:
    """The envelope text of the call's answer; exits on a server error."""
    from mcp import Client, StdioServerParameters, types
    from mcp.shared.exceptions import MCPError

    from mcp_harbor import __version__
    from mcp_harbor.cli._progress import ProgressView
    from mcp_harbor.runctx import ENVELOPE_META_KEY

    args = ["-m", "mcp_harbor", "--log-level", "error", "serve"]
    for folder in folders:
        args += ["--exports", folder]
    if programs is not None:  # the server checks with the same grammars
        args += ["--programs", programs]
    # The server gets this process's whole environment (the SDK passes only
    # a few variables by default): --db, --tokens and XDG defaults must agree.
    params = StdioServerParameters(
        command=sys.executable, args=args, cwd=str(Path.cwd()), env=dict(os.environ)
    )
    info = types.Implementation(name="mcp-harbor-call", version=__version__)
    mode = "legacy" if legacy else "auto"
    error: MCPError | None = None
    async with Client(params, mode=mode, client_info=info) as client:
        with ProgressView(tool) as view:
            try:
                result = await client.call_tool(
                    tool,
                    arguments,
                    progress_callback=view.update,
                    meta=meta,  # type: ignore[arg-type]
                )
            except MCPError as exc:  # caught here: the client's task group would wrap it
                error = exc
    if error is not None:
        # An unknown tool (or one this caller may not call) carries its envelope.
        data = error.data if isinstance(error.data, dict) else {}
        envelope = data.get(ENVELOPE_META_KEY)
        if isinstance(envelope, str):
            return envelope
        abort(f"{tool}: the server answered with an error: {error}", EXIT_USAGE)
    envelope = (result.meta or {}).get(ENVELOPE_META_KEY)
    if not isinstance(envelope, str):  # a crash: the server logged it
        text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
        abort(f"{tool}: {text}", EXIT_TOOL_ERROR)
    return envelope
