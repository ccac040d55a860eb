"""What the stdio transport costs a call, without mcp-harbor's call path.

A server with one tool that returns at once (no process, no files, no
audit) is served by the SDK's own ``stdio_server`` and by mcp-harbor's
``bounded_stdio``, and driven by the SDK client in both protocol eras;
median of sequential calls after warm-up. Run:

    python bench/bench_stdio_transport.py [--calls 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import anyio


def serve(transport: str) -> None:
    from mcp import types
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    tool = types.Tool(
        name="nothing", description="Returns at once.", input_schema={"type": "object"}
    )

    async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: object, params: object) -> types.CallToolResult:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="ok")], structured_content={"ok": True}
        )

    server = Server("null", version="0", on_list_tools=list_tools, on_call_tool=call_tool)

    async def main() -> None:
        if transport == "harbor":
            from mcp_harbor.server.stdio import bounded_stdio

            streams = bounded_stdio()
        else:
            streams = stdio_server()
        async with streams as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


async def series(transport: str, mode: str, calls: int) -> float:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=[os.path.abspath(__file__), "--serve", transport],
        env=dict(os.environ),
        cwd=tempfile.gettempdir(),
    )
    async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
        for _ in range(50):
            await client.call_tool("nothing", {})
        times = []
        for _ in range(calls):
            t = time.perf_counter()
            await client.call_tool("nothing", {})
            times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--serve", choices=["sdk", "harbor"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    print(f"load average {os.getloadavg()[0]:.2f}; {args.calls} sequential calls per row")
    print()
    print("| client mode | SDK stdio_server ms | mcp-harbor bounded_stdio ms | ratio |")
    print("|---|---:|---:|---:|")
    for mode in ("auto", "legacy"):
        sdk = anyio.run(series, "sdk", mode, args.calls)
        ours = anyio.run(series, "harbor", mode, args.calls)
        print(f"| {mode} | {sdk:.3f} | {ours:.3f} | {ours / sdk:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
