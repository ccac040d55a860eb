"""``mcp-harbor call``: call a tool the way a client does, through a real
``mcp-harbor serve`` subprocess and the SDK client over stdio."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    abort,
    exports_option,
    load_published,
)

__all__ = ["call"]


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("tool")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@exports_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--legacy", is_flag=True, help="Use the 2025 handshake era instead of 2026-07-28.")
def call(
    tool: str, assignments: tuple[str, ...], exports: tuple[Path, ...], as_json: bool, legacy: bool
) -> None:
    """Call TOOL with name=value arguments and print the result.

    Exit 0 on success, 1 on a tool error, 2 on usage or configuration errors.
    """
    import anyio

    from mcp_harbor.cli._values import ValueError_, parse_assignments

    published = {e.name: e for e in load_published(exports)}
    if tool not in published:
        known = ", ".join(sorted(published)) or "none"
        abort(f"unknown tool {tool!r}; the exports publish: {known}", EXIT_USAGE)
    try:
        arguments = parse_assignments(assignments, published[tool].input_schema)
    except ValueError_ as exc:
        abort(f"{tool}: {exc}", EXIT_USAGE)
    folders = [str(p.resolve()) for p in exports] or [str(Path("exports").resolve())]
    result = anyio.run(_call_over_stdio, tool, arguments, folders, legacy)
    text = "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")
    if as_json:
        click.echo(
            json.dumps(
                {
                    "tool": tool,
                    "is_error": bool(result.is_error),
                    "result": result.structured_content,
                    "text": text,
                },
                indent=2,
            )
        )
    else:
        click.echo(text)
    sys.exit(EXIT_TOOL_ERROR if result.is_error else EXIT_OK)


async def _call_over_stdio(
    tool: str, arguments: dict[str, Any], folders: list[str], legacy: bool
) -> Any:
    from mcp import Client, StdioServerParameters, types
    from mcp.shared.exceptions import MCPError

    from mcp_harbor import __version__

    args = ["-m", "mcp_harbor", "--log-level", "warning", "serve"]
    for folder in folders:
        args += ["--exports", folder]
    # The server gets this process's whole environment (the SDK passes only
    # a few variables by default): --db, --tokens and XDG defaults must agree.
    params = StdioServerParameters(
        command=sys.executable, args=args, cwd=str(Path.cwd()), env=dict(os.environ)
    )
    try:
        info = types.Implementation(name="mcp-harbor-call", version=__version__)
        mode = "legacy" if legacy else "auto"
        async with Client(params, mode=mode, client_info=info) as client:
            return await client.call_tool(tool, arguments)
    except MCPError as exc:
        abort(f"{tool}: the server answered with an error: {exc}", EXIT_USAGE)
