"""64 concurrent calls of ``sleep 0.5`` over one stdio session.

Target (issue 6): the 64 calls finish in under 0.8 s (ideal: 0.5 s, every
call running at once). Series:

- ``stdio auto``: SDK ``Client`` (2026-07-28) to ``mcp-harbor serve`` over stdio;
- ``stdio legacy``: the same in the handshake era (2025-11-25);
- ``direct``: the same 64 ``bash -c 'sleep 0.5'`` spawned by anyio from Python,
  no server (the floor on this machine).

Each series: one warm-up round, then ``--rounds`` timed rounds; the table
shows the median and the worst. The load average is printed with the table:
the box is shared.

    .venv/bin/python bench/bench_concurrency.py [--calls 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

EXPORT = """name: nap
description: Sleeps half a second.
steps:
  - name: nap
    run: sleep 0.5
"""
IDEAL = 0.5


async def one_round_server(client: Client, calls: int) -> float:
    failures: list[str] = []

    async def call() -> None:
        result = await client.call_tool("nap", {})
        if result.is_error:
            failures.append(str(result.content))

    began = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for _ in range(calls):
            tg.start_soon(call)
    took = time.perf_counter() - began
    if failures:
        raise SystemExit(f"{len(failures)} calls failed: {failures[0]}")
    return took


async def series_server(mode: str, calls: int, rounds: int, root: Path) -> list[float]:
    exports = root / "exports"
    exports.mkdir(exist_ok=True)
    (exports / "nap.yaml").write_text(EXPORT)
    env = dict(os.environ, XDG_STATE_HOME=str(root / "state"))
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "mcp_harbor",
            "serve",
            "--exports",
            str(exports),
            "--db",
            str(root / f"{mode}.db"),
            "--runs-dir",
            str(root / "runs"),
            "--keep-runs",
            "0",
        ],
        env=env,
    )
    with open(root / f"{mode}.stderr", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:  # type: ignore[arg-type]
            await one_round_server(client, calls)  # warm-up
            return [await one_round_server(client, calls) for _ in range(rounds)]


async def series_direct(calls: int, rounds: int) -> list[float]:
    async def spawn() -> None:
        await anyio.run_process(["bash", "-c", "sleep 0.5"])

    async def one_round() -> float:
        began = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for _ in range(calls):
                tg.start_soon(spawn)
        return time.perf_counter() - began

    await one_round()
    return [await one_round() for _ in range(rounds)]


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    a = parser.parse_args()
    rows: list[tuple[str, list[float], str]] = []
    with tempfile.TemporaryDirectory(prefix="harbor-bench-") as tmp:
        root = Path(tmp)
        for mode, label in (
            ("auto", "stdio, Client auto (2026-07-28)"),
            ("legacy", "stdio, Client legacy (2025-11-25)"),
        ):
            before = loadavg()
            rows.append((label, await series_server(mode, a.calls, a.rounds, root), before))
        before = loadavg()
        rows.append(
            (
                "direct: anyio.run_process bash -c 'sleep 0.5'",
                await series_direct(a.calls, a.rounds),
                before,
            )
        )
    print(
        f"{a.calls} concurrent calls of `sleep 0.5`, {a.rounds} rounds after 1 warm-up; "
        f"nproc={os.cpu_count()}"
    )
    print()
    print(
        "| series | rounds (s) | median s | worst s | median / 0.5 s ideal | < 0.8 s "
        "| load avg (1/5/15 min) |"
    )
    print("|---|---|---:|---:|---:|---|---|")
    for label, times, load in rows:
        med, worst = statistics.median(times), max(times)
        verdict = "yes" if worst < 0.8 else ("median only" if med < 0.8 else "no")
        print(
            f"| {label} | {', '.join(f'{t:.3f}' for t in times)} | {med:.3f} | {worst:.3f} "
            f"| {med / IDEAL:.2f}× | {verdict} | {load} |"
        )
    print(f"\nload average at the end: {loadavg()}")


if __name__ == "__main__":
    anyio.run(main)
