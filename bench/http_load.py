#!/usr/bin/env python
"""Load generator for the HTTP benchmark (bench/harness.py, section 5): one
process driving CLIENTS concurrent clients, each making CALLS calls of the
tool TOOL (default ``nothing``: ``run: "true"``; the harness also calls
``nothing_argv``: ``argv: ["true"]``) over Streamable HTTP with a bearer token.

    http_load.py sdk|legacy|raw URL TOKEN CLIENTS CALLS [TOOL]

``sdk``: the project's SDK 2.3 ``Client`` (``mode="auto"``, 2026-07-28 era),
one ``httpx2.AsyncClient`` each, as a real MCP client would. ``legacy``: the
same client in the 2025 handshake era (``mode="legacy"``: ``initialize``, an
``Mcp-Session-Id`` per client, the SDK's session manager on the server). ``raw``: the
same 2026-07-28 ``tools/call`` POST (headers and ``_meta`` envelope copied
from what the SDK client sends) with a plain ``httpx2.AsyncClient``, no MCP
client library: the cheapest client that is still a correct one, so that the
load generator takes less of the machine the server runs on.

Each client makes one warm-up call (audited too), then the process
collects and freezes its heap (``gc.freeze``: 32 clients in one process
otherwise made 40-100 ms full collections during the run, which stalled every
call in flight and showed up as server latency), prints ``ready`` and waits
for a line on stdin; it then runs the calls and prints one JSON line:
latencies (ms, ``lat``) with each call's start (ms after the go, ``start``),
the go as ``time.perf_counter()`` (``t0``, CLOCK_MONOTONIC: comparable with
other processes' timestamps), errors, wall seconds, and its own CPU seconds.
"""

from __future__ import annotations

import gc
import json
import resource
import sys
import time

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ERA = "2026-07-28"


def raw_body(call_id: int, tool: str) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": call_id,
            "method": "tools/call",
            "params": {
                "name": tool,
                "arguments": {},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": ERA,
                    "io.modelcontextprotocol/clientInfo": {"name": "raw-load", "version": "0"},
                    "io.modelcontextprotocol/clientCapabilities": {},
                },
            },
        }
    ).encode()


async def main(mode: str, url: str, token: str, clients: int, per: int, tool: str) -> None:
    lat: list[float] = []
    starts: list[float] = []
    errors: list[str] = []
    go = anyio.Event()
    started = [0.0]

    async def timed(call: object) -> None:
        t0 = time.perf_counter()
        try:
            await call()  # type: ignore[operator]
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{type(exc).__name__}: {exc}"[:200])
        lat.append((time.perf_counter() - t0) * 1000)
        starts.append((t0 - started[0]) * 1000)

    async def sdk_client(ready: anyio.Event) -> None:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
            Client(streamable_http_client(url, http_client=http), mode=era) as c,
        ):

            async def call() -> None:
                r = await c.call_tool(tool, {})
                if r.is_error:
                    raise RuntimeError(str(r.content)[:200])

            await call()  # warm-up, audited too
            ready.set()
            await go.wait()
            for _ in range(per):
                await timed(call)

    async def raw_client(ready: anyio.Event) -> None:
        headers = {
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": ERA,
            "Mcp-Method": "tools/call",
            "Mcp-Name": tool,
        }
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            ids = iter(range(1, 1 << 30))

            async def call() -> None:
                r = await http.post(url, content=raw_body(next(ids), tool))
                if r.status_code != 200:
                    raise RuntimeError(f"HTTP {r.status_code}: {r.text[:150]}")
                answer = r.json()
                if "error" in answer or answer["result"].get("isError"):
                    raise RuntimeError(str(answer)[:200])

            await call()
            ready.set()
            await go.wait()
            for _ in range(per):
                await timed(call)

    era = "legacy" if mode == "legacy" else "auto"
    client = raw_client if mode == "raw" else sdk_client
    readies = [anyio.Event() for _ in range(clients)]
    async with anyio.create_task_group() as tg:
        for ev in readies:
            tg.start_soon(client, ev)
        for ev in readies:
            await ev.wait()
        # 32 clients in one process make a heap 32 times a real client's: a
        # full collection of it took 40-100 ms, stalling every call in flight
        # (and landing in the measured latencies). Freeze what the warm-up
        # built, as the server does after start-up.
        gc.collect()
        gc.freeze()
        print("ready", flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        started[0] = t0
        go.set()
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    answer = {"lat": lat, "start": starts, "t0": t0, "errors": errors, "wall": wall, "cpu": cpu}
    print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    mode, url, token, clients, per = sys.argv[1:6]
    tool = sys.argv[6] if len(sys.argv) > 6 else "nothing"
    if mode not in ("sdk", "legacy", "raw"):
        sys.exit(f"unknown mode {mode!r}: sdk, legacy or raw")
    anyio.run(main, mode, url, token, int(clients), int(per), tool)
