#!/usr/bin/env python
"""How far below issue 25's targets the parts under mcp-harbor already are,
measured in one run beside mcp-harbor itself:

- **stdio echo**: sequential SDK-client calls of a ``run: "true"`` export
  against `floor_server.py` (the SDK's low-level server starting
  ``bash -c true``: the least any server that runs a command does) and
  against ``mcp-harbor serve`` as shipped; the server's own CPU per call.
- **HTTP**: 32 SDK clients × N calls (`http_load.py`) against the floor
  server, without and with its spawn, and against mcp-harbor; calls/s,
  p99, and where the 2 cores' CPU went per call (server, its children,
  the load generator).
- **start**: ``python -c "import mcp"`` against ``python -c pass``.

    python bench/floors.py [--calls 300] [--http-calls 50] [--no-settle]

Like `bench_latency.py` it first runs ``sync`` and waits 330 s
(``bench_latency.SETTLE_S``), since mcp-harbor creates files for each run
and the floor server none: on this machine's journal-less ext4, file
creation is slow for minutes after deletions (bench/README.md).

Prints markdown tables (for docs/benchmarks.md, section "Floors").
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import psutil
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_latency import settle
from peers import harbor_env

HERE = Path(__file__).resolve().parent
EXPORT = 'name: nothing\ndescription: Run true.\nsteps:\n  - name: t\n    run: "true"\n'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def harbor_argv(work: Path, *transport: str) -> list[str]:
    exports = work / "exports"
    exports.mkdir(exist_ok=True)
    (exports / "nothing.yaml").write_text(EXPORT)
    return [
        sys.executable,
        "-m",
        "mcp_harbor",
        "--log-level",
        "warning",
        "serve",
        "--exports",
        str(exports),
        "--runs-dir",
        str(work / "runs"),
        "--keep-runs",
        "20",
        "--db",
        str(work / "harbor.db"),
        *transport,
    ]


def cpu_of(pid: int) -> tuple[float, float]:
    """Seconds of CPU of `pid` itself and of its reaped children."""
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system, t.children_user + t.children_system


async def stdio_echo(argv: list[str], env: dict[str, str], calls: int) -> dict[str, float]:
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            for _ in range(20):
                await client.call_tool("nothing", {})
            (server,) = psutil.Process().children()  # the one server this client started
            pid = server.pid
            own0, kids0 = cpu_of(pid)
            samples = []
            for _ in range(calls):
                t0 = time.perf_counter()
                await client.call_tool("nothing", {})
                samples.append((time.perf_counter() - t0) * 1000)
            own1, kids1 = cpu_of(pid)
    return {
        "median_ms": statistics.median(samples),
        "server_cpu_ms": (own1 - own0) * 1000 / calls,
        "children_cpu_ms": (kids1 - kids0) * 1000 / calls,
    }


def http_round(
    argv: list[str], env: dict[str, str], port: int, token: str, per: int
) -> dict[str, Any]:
    server = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {argv}")
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/mcp"
        gen = subprocess.Popen(
            [sys.executable, str(HERE / "http_load.py"), "sdk", url, token, "32", str(per)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert gen.stdin is not None and gen.stdout is not None
        if gen.stdout.readline().strip() != "ready":
            raise RuntimeError("load generator did not start")
        own0, kids0 = cpu_of(server.pid)
        gen.stdin.write("\n")
        gen.stdin.flush()
        out = json.loads(gen.stdout.readline())
        own1, kids1 = cpu_of(server.pid)
        gen.wait(timeout=60)
    finally:
        server.terminate()
        server.wait(timeout=20)
    lat = sorted(out["lat"])
    n = len(lat)
    return {
        "calls_s": n / out["wall"],
        "p50_ms": statistics.median(lat),
        "p99_ms": lat[min(n - 1, int(n * 0.99))],
        "errors": len(out["errors"]),
        "server_cpu_ms": (own1 - own0) * 1000 / n,
        "children_cpu_ms": (kids1 - kids0) * 1000 / n,
        "load_cpu_ms": out["cpu"] * 1000 / n,
    }


def import_s(code: str, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--http-calls", type=int, default=50)
    p.add_argument("--no-settle", action="store_true", help="skip the sync and the 330 s wait")
    args = p.parse_args()
    if not args.no_settle:
        settle(lambda line: print(line, file=sys.stderr, flush=True))
    work = Path(tempfile.mkdtemp(prefix="floors-"))
    env = harbor_env(work)
    floor = [sys.executable, str(HERE / "floor_server.py")]

    print(f"load {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs\n")
    print("| stdio, SDK client, sequential | median ms | server CPU ms/call | its children |")
    print("|---|---:|---:|---:|")
    for label, argv in (
        ("floor: SDK low-level server, no spawn", [*floor, "stdio", "--no-spawn"]),
        ("floor: SDK low-level server, `bash -c true`", [*floor, "stdio"]),
        ('mcp-harbor, `run: "true"`', harbor_argv(work)),
    ):
        r = anyio.run(stdio_echo, argv, env, args.calls)
        print(
            f"| {label} | {r['median_ms']:.2f} | {r['server_cpu_ms']:.2f} "
            f"| {r['children_cpu_ms']:.2f} |"
        )

    token_file = work / "tokens.json"
    tok = subprocess.run(
        [sys.executable, "-m", "mcp_harbor", "token", "add", "bench", "--tokens", str(token_file)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    token = tok.stdout.strip().split()[-1]
    print()
    print(
        "| HTTP, 32 SDK clients | calls/s | p50 ms | p99 ms | server CPU ms/call "
        "| its children | load generator | sum |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, make in (
        (
            "floor: SDK low-level server, no spawn",
            lambda port: [*floor, "http", str(port), "--no-spawn"],
        ),
        ("floor: SDK low-level server, `bash -c true`", lambda port: [*floor, "http", str(port)]),
        (
            'mcp-harbor, `run: "true"`',
            lambda port: harbor_argv(
                work, "--transport", "http", "--port", str(port), "--tokens", str(token_file)
            ),
        ),
    ):
        port = free_port()
        r = http_round(make(port), env, port, token, args.http_calls)
        total = r["server_cpu_ms"] + r["children_cpu_ms"] + r["load_cpu_ms"]
        print(
            f"| {label} | {r['calls_s']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} "
            f"| {r['server_cpu_ms']:.2f} | {r['children_cpu_ms']:.2f} | {r['load_cpu_ms']:.2f} "
            f"| {total:.2f} |" + (f" errors {r['errors']}" if r["errors"] else "")
        )

    print()
    print("| start | median s |")
    print("|---|---:|")
    print(f"| `python -c pass` | {import_s('pass'):.3f} |")
    print(f'| `python -c "import mcp"` | {import_s("import mcp"):.3f} |')


if __name__ == "__main__":
    main()
