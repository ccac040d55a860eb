#!/usr/bin/env python
"""What a run on a worker (``runs_on:``) adds over a local run.

Target (issue 10): a remote ``true`` costs at most 5 ms more than a local one,
i.e. ``median(CeleryExecutor.run) - median(LocalExecutor.run) <= 5 ms``.

What is timed, in this process, through the executors the server uses (so the
MCP transport, identical for both, is left out):

* ``local``: `LocalExecutor.run` of an export whose one step is ``true``;
* ``remote``: `CeleryExecutor.run` of the same export with ``runs_on: bench``,
  run by a real ``mcp-harbor worker`` subprocess: dispatch through Redis,
  lease claim and release in the SQLite store, the worker's `LocalExecutor`,
  events through the run's Redis Stream back to here;
* ``50 concurrent``: 50 runs at once on 2 workers (``--slots 25`` each), for
  ``true`` and for ``sleep 1``: wall time from the first dispatch to the last
  result.

Redis: ``MCP_HARBOR_TEST_REDIS`` or a ``redis-server`` started here on a free
loopback port.

``--hops`` also times each hop of a remote ``true`` (the worker stamps its
events with ``at``, Unix time; one machine, so both clocks are the same):
dispatch (the replica's ``send_task``), broker (until the worker's task body
starts), claim (the lease, then the ``started`` entry), to step start, the
step, the ``result`` entry, and back to the replica's ``XREAD``.

Usage::

    python bench/bench_remote.py [--runs 200] [--warmup 20] [--hops] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from mcp_harbor.check import load_and_check
from mcp_harbor.remote import CeleryExecutor
from mcp_harbor.remote import executor as remote_module
from mcp_harbor.remote.wire import Entry, Result, Started
from mcp_harbor.runner import LocalExecutor, RunRequest

EXPORTS = {
    "true_local.yaml": "name: true_local\ndescription: t\nsteps:\n  - name: t\n    run: 'true'\n",
    "true_remote.yaml": (
        "name: true_remote\ndescription: t\nruns_on: bench\nsteps:\n  - name: t\n    run: 'true'\n"
    ),
    "sleep_remote.yaml": (
        "name: sleep_remote\ndescription: t\nruns_on: bench\n"
        "steps:\n  - name: t\n    run: sleep 1\n"
    ),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"redis on {port} did not start")


def start_worker(root: Path, broker: str, name: str) -> subprocess.Popen[bytes]:
    log = open(root / f"{name}.log", "wb")  # noqa: SIM115 - lives as long as the worker
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcp_harbor", "--log-level", "warning", "worker",
         "--queues", "bench", "--slots", "25", "--broker", broker, "--db",
         str(root / "harbor.db"), "--exports", str(root / "exports"), "--hostname", name],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        cwd=root,  # `-m` puts the cwd first on sys.path: never a checkout's code
    )  # fmt: skip
    return proc


async def timed(executor: Any, request: RunRequest) -> float:
    began = time.perf_counter()
    result = await executor.run(request)
    took = (time.perf_counter() - began) * 1000
    assert result.status == "ok", result
    return took


def request(export: Any, root: Path, n: int) -> RunRequest:
    run_id = f"bench-{time.time_ns()}-{n}"
    run_dir = root / "runs" / run_id
    run_dir.mkdir(parents=True)
    return RunRequest(
        export=export, arguments={}, run_id=run_id, run_dir=run_dir, workdir=root,
        started=time.monotonic(),
    )  # fmt: skip


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def redis_cpu(executor: CeleryExecutor) -> float:
    info = await executor.redis().info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def series(
    executors: tuple[Any, Any],
    exports: tuple[Any, Any],
    root: Path,
    runs: int,
    warmup: int,
    workers: list[int],
) -> dict[str, Any]:
    """Local and remote runs alternated (so that both see the same load),
    with the CPU time per remote run of this process, the workers and Redis."""
    local, remote = executors
    for i in range(warmup):
        await timed(local, request(exports[0], root, i))
        await timed(remote, request(exports[1], root, i))
    times: tuple[list[float], list[float]] = ([], [])
    cpu = {"local: this process": 0.0, "remote: this process (replica)": 0.0}
    worker_before = sum(cpu_seconds(pid) for pid in workers)
    redis_before = await redis_cpu(remote)
    for i in range(runs):
        for side in (0, 1):
            before = cpu_seconds(os.getpid())
            times[side].append(await timed(executors[side], request(exports[side], root, i)))
            key = "remote: this process (replica)" if side else "local: this process"
            cpu[key] += cpu_seconds(os.getpid()) - before
    cpu["remote: workers"] = sum(cpu_seconds(pid) for pid in workers) - worker_before
    cpu["remote: redis"] = await redis_cpu(remote) - redis_before
    return {
        "local": stats(times[0]),
        "remote": stats(times[1]),
        "cpu_ms_per_run": {k: round(v / runs * 1000, 3) for k, v in cpu.items()},
    }


async def burst(executor: CeleryExecutor, export: Any, root: Path, n: int) -> float:
    requests = [request(export, root, i) for i in range(n)]
    began = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for r in requests:
            tg.start_soon(timed, executor, r)
    return (time.perf_counter() - began) * 1000


HOPS = (
    ("dispatch (replica: run() to send_task returned)", "begin", "sent"),
    ("broker (to the worker's task body)", "sent", "received"),
    ("claim (lease + started entry)", "received", "started"),
    ("to step start", "started", "step_started"),
    ("the step (true)", "step_started", "step_finished"),
    ("to the result entry", "step_finished", "result"),
    ("back (result entry to the replica's XREAD)", "result", "got_result"),
    ("replica: result to run() returned", "got_result", "end"),
)


async def hops(executor: CeleryExecutor, export: Any, root: Path, runs: int) -> dict[str, Any]:
    """Per-hop medians (ms) of `runs` sequential remote runs."""
    marks: dict[str, float] = {}
    send, handle = executor.send, remote_module._Follower.handle

    def timed_send(*a: Any, **kw: Any) -> None:
        send(*a, **kw)
        marks["sent"] = time.time()

    async def timed_handle(self: Any, entry: Entry) -> None:
        event = entry.event
        if entry.at is None:  # not stamped by a worker: this run is not counted
            marks["unstamped"] = 1.0
            print("UNSTAMPED", entry, file=sys.stderr)
        else:
            if isinstance(event, Started):
                marks["received"] = event.received
            marks[event.kind] = entry.at
        if isinstance(event, Result):
            marks["got_result"] = time.time()
        await handle(self, entry)

    executor.send = timed_send  # type: ignore[method-assign]
    remote_module._Follower.handle = timed_handle  # type: ignore[method-assign]
    rows: dict[str, list[float]] = {name: [] for name, _, _ in HOPS}
    totals = []
    try:
        for i in range(runs + 10):
            marks.clear()
            req = request(export, root, i)
            marks["begin"] = time.time()
            await executor.run(req)
            marks["end"] = time.time()
            if i < 10:
                continue
            if "unstamped" in marks or not all(b in marks for _, _, b in HOPS):
                print("hops: run not counted, marks:", sorted(marks), file=sys.stderr)
                continue
            for name, a, b in HOPS:
                rows[name].append((marks[b] - marks[a]) * 1000)
            totals.append((marks["end"] - marks["begin"]) * 1000)
    finally:
        executor.send = send  # type: ignore[method-assign]
        remote_module._Follower.handle = handle  # type: ignore[method-assign]
    out = {name: round(statistics.median(v), 3) for name, v in rows.items()}
    out["total"] = round(statistics.median(totals), 3)
    return out


def stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": statistics.median(ordered),
        "p95": ordered[int(len(ordered) * 0.95) - 1],
        "min": ordered[0],
    }


async def main_async(
    args: argparse.Namespace, root: Path, broker: str, workers: list[int]
) -> dict[str, Any]:
    loaded = {e.name: e for e in load_and_check([root / "exports"]).accepted}
    local, remote = LocalExecutor(), CeleryExecutor(broker)
    out = await series(
        (local, remote),
        (loaded["true_local"], loaded["true_remote"]),
        root,
        args.runs,
        args.warmup,
        workers,
    )
    out["added_ms"] = out["remote"]["median"] - out["local"]["median"]
    if args.hops:
        out["hops_ms"] = await hops(remote, loaded["true_remote"], root, args.runs)
    for name in ("true_remote", "sleep_remote"):
        walls = [await burst(remote, loaded[name], root, 50) for _ in range(args.bursts)]
        out[f"50x {name}"] = {"median_wall_ms": statistics.median(walls), "walls": walls}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--hops", action="store_true", help="also time each hop")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="harbor-bench-remote-"))
    (root / "exports").mkdir()
    for name, text in EXPORTS.items():
        (root / "exports" / name).write_text(text)
    redis_proc = None
    broker = os.environ.get("MCP_HARBOR_TEST_REDIS")
    if not broker:
        port = free_port()
        redis_proc = subprocess.Popen(
            [shutil.which("redis-server") or "/usr/bin/redis-server", "--bind", "127.0.0.1",
             "--port", str(port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(port)
        broker = f"redis://127.0.0.1:{port}/0"
    workers = [start_worker(root, broker, f"w{i}") for i in (1, 2)]
    try:
        time.sleep(3)  # both workers connected and consuming
        out = anyio.run(main_async, args, root, broker, [w.pid for w in workers])
    finally:
        for w in workers:
            w.terminate()
            w.wait(10)
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(10)
        shutil.rmtree(root, ignore_errors=True)
    out["machine"] = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    print(json.dumps(out, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
