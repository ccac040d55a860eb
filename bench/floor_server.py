#!/usr/bin/env python
"""The floor under any MCP server built on this SDK: the SDK's low-level
`Server` with one tool, ``nothing``, and nothing else (no identity, policy,
validation, sandbox, run directory, audit or envelope), for
`bench/floors.py`.

    floor_server.py stdio|http [PORT] [--no-spawn]

``nothing`` starts ``bash -c true`` (``subprocess.Popen`` on the event
loop, waited for through a pidfd: the cheapest way known here, cheaper than
asyncio's subprocess and its child-watcher thread; what a server that runs
a command must do at the least) and answers its exit code as text; with
``--no-spawn`` it answers at once, so the figure is the SDK's alone. Over
HTTP it serves ``/mcp`` with the SDK's defaults (session manager, SSE
deferral) under uvicorn with httptools, as mcp-harbor does, without auth.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server

SPAWN = "--no-spawn" not in sys.argv
TOOL = types.Tool(name="nothing", description="Run true.", input_schema={"type": "object"})


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[TOOL])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    code: int | None = 0
    if SPAWN:
        proc = subprocess.Popen(
            ["bash", "-c", "true"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        pidfd = os.pidfd_open(proc.pid)
        try:
            while (code := proc.poll()) is None:
                await anyio.wait_readable(pidfd)
        finally:
            os.close(pidfd)
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"exit {code}")])


server = Server("floor", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options(NotificationOptions()))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if args[0] == "stdio":
        anyio.run(serve_stdio)
        return
    import uvicorn

    app = server.streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=int(args[1]), log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
