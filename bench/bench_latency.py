#!/usr/bin/env python
"""Latency of calling a ``run: "true"`` export through mcp-harbor, next to the
bare cost of spawning ``bash -c true`` from Python.

Target (issue): over stdio the server adds at most 1.5 ms to the bare spawn,
i.e. ``median(call) - median(subprocess.run(["bash", "-c", "true"])) <= 1.5 ms``.

What is timed, all in one run, sequentially (one call in flight at a time):

* floors: ``subprocess.run(["bash", "-c", "true"])``; ``anyio.run_process`` and
  ``asyncio.create_subprocess_exec`` of the same; and a "harbor-style" spawn
  (the same thing mcp-harbor's runner does for a ``run:`` step: write the
  script to a file, ``bash --noprofile --norc -eo pipefail FILE`` in a new
  session with stdout/stderr to two log files, via ``anyio.open_process``);
* the server: ``tools/call`` of the export with the SDK ``Client`` over stdio
  (``mode="auto"``, i.e. 2026-07-28, and ``mode="legacy"``, the 2025
  handshake), and over Streamable HTTP (auto) for information;
* interleaved, the rows the verdict uses: 25 spawns of the floor, then 25
  calls in each era with the SDK client and 25 with a raw JSON-RPC client
  (`RawClient`: one JSON line written, one read, no SDK), again and again
  (the eras' order flips every block), so that a change of load or of the
  disk's state during the run (see docs/benchmarks.md) hits the floor and
  the calls alike; plus 25 raw calls with the runs dir on tmpfs (the server
  without the disk). The raw rows are what the server adds on its own; the
  SDK rows add the SDK client's work per call (0.4-0.5 ms of latency:
  parsing the answer with pydantic, validating ``structuredContent``
  against the tool's output schema). Each interleaved row also shows this
  process's CPU per call, the client's share.

Before measuring it runs ``sync`` and waits ``SETTLE_S`` (330 s;
``--no-settle`` skips it): see `SETTLE_S` for the file-system effect it
waits out. Each series gets ``--warmup`` untimed calls first. The server runs with
``--keep-runs 0`` by default (see ``KEEP_RUNS``). The server is started from
the same interpreter (``python -m mcp_harbor serve``), with ``--runs-dir`` in a
temporary folder; anything in ``PYTHONPATH`` is forwarded to it.

Usage::

    python bench/bench_latency.py [--calls 300] [--warmup 20] [--no-http] [--no-settle]
                                  [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

TARGET_MS = 1.5
EXPORT = """\
name: nothing
description: Run true (latency benchmark).
steps:
  - name: t
    run: "true"
"""
BASH_FLAGS = ["--noprofile", "--norc", "-eo", "pipefail"]


@dataclass
class Row:
    name: str
    kind: str  # "floor" | "server"
    samples_ms: list[float]
    #: CPU of this (the client's) process per call, where measured.
    client_cpu_ms: float | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p90(self) -> float:
        s = sorted(self.samples_ms)
        return s[min(len(s) - 1, round(0.9 * (len(s) - 1)))]


# ------------------------------------------------------------------ floors


def floor_subprocess_run(n: int, warmup: int) -> list[float]:
    out = []
    for i in range(warmup + n):
        t0 = time.perf_counter()
        subprocess.run(["bash", "-c", "true"], check=True)
        if i >= warmup:
            out.append((time.perf_counter() - t0) * 1000)
    return out


async def _timed(n: int, warmup: int, one: Callable[[], Awaitable[object]]) -> list[float]:
    out = []
    for i in range(warmup + n):
        t0 = time.perf_counter()
        await one()
        if i >= warmup:
            out.append((time.perf_counter() - t0) * 1000)
    return out


async def floor_anyio(n: int, warmup: int) -> list[float]:
    return await _timed(n, warmup, lambda: anyio.run_process(["bash", "-c", "true"]))


async def floor_asyncio(n: int, warmup: int) -> list[float]:
    async def one() -> None:
        proc = await asyncio.create_subprocess_exec("bash", "-c", "true")
        await proc.wait()

    return await _timed(n, warmup, one)


async def floor_harbor_style(n: int, warmup: int, tmp: Path) -> list[float]:
    """The runner's file and process work for one ``run:`` step, without the
    MCP layer, the audit records, the result building and the group scan:
    a fresh run dir and ``steps/`` dir, the script file, two fresh log files,
    ``bash --noprofile --norc -eo pipefail FILE`` in a new session."""
    counter = iter(range(10**9))

    async def one() -> None:
        steps = tmp / f"run-{next(counter)}" / "steps"
        steps.mkdir(parents=True)
        script = steps / "1-t.sh"
        script.write_text("true", encoding="utf-8")
        with (
            open(steps / "1-t.stdout.log", "wb") as out,
            open(steps / "1-t.stderr.log", "wb") as err,
        ):
            proc = await anyio.open_process(
                ["bash", *BASH_FLAGS, str(script)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                cwd=tmp,
                env=dict(os.environ),
                start_new_session=True,
            )
        await proc.wait()

    return await _timed(n, warmup, one)


# ------------------------------------------------------------------ server


#: Set from --keep-runs. 0 (no pruning) by default: with pruning on, calls
#: faster than `keep` per second can delete their own fresh run directory
#: (run ids sort by the second, then a random suffix) and fail with
#: "Error executing tool"; see docs/benchmarks.md.
KEEP_RUNS = 0


def _server_env(tmp: Path) -> dict[str, str]:
    # The SDK's stdio client passes only a few "safe" variables by default, so
    # pass everything; XDG dirs point into the temp folder (audit DB, tokens).
    return {**os.environ, "XDG_STATE_HOME": str(tmp / "state"),
            "XDG_CONFIG_HOME": str(tmp / "config")}  # fmt: skip


def _serve_argv(exports: Path, runs: Path) -> list[str]:
    return ["-m", "mcp_harbor", "--log-level", "warning", "serve",
            "--exports", str(exports), "--runs-dir", str(runs),
            "--keep-runs", str(KEEP_RUNS)]  # fmt: skip


async def _call_series(client: Client, n: int, warmup: int) -> list[float]:
    async def one() -> None:
        result = await client.call_tool("nothing", {})
        if result.is_error:
            raise RuntimeError(f"tool call failed: {result.content}")

    return await _timed(n, warmup, one)


async def server_stdio(mode: str, n: int, warmup: int, exports: Path, runs: Path) -> list[float]:
    params = StdioServerParameters(
        command=sys.executable, args=_serve_argv(exports, runs), env=_server_env(runs.parent)
    )
    async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
        return await _call_series(client, n, warmup)


class RawClient:
    """The least a client can do over stdio: the opening of its era
    (``server/discover`` for 2026-07-28, the ``initialize`` handshake for
    2025-11-25), then each request is one JSON line written and one read,
    with blocking I/O and ``json`` (no SDK: no pydantic, no validation of the
    result against the tool's output schema, no task hand-offs). Its rows
    show what the server adds on its own; the SDK client's rows add the
    client's CPU per call. The harness times ``tools/list`` with it too."""

    def __init__(self, argv: list[str], env: dict[str, str], era: str) -> None:
        self._proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self._id = 0
        info = {"name": "bench-raw", "version": "1"}
        #: What every 2026-07-28 request carries in its params.
        self._meta: dict[str, object] = {}
        if era == "2026-07-28":
            self._meta = {"_meta": {
                "io.modelcontextprotocol/protocolVersion": era,
                "io.modelcontextprotocol/clientInfo": info,
                "io.modelcontextprotocol/clientCapabilities": {}}}  # fmt: skip
            self.request("server/discover", {})
        else:
            self.request("initialize", {
                "protocolVersion": era, "capabilities": {}, "clientInfo": info})  # fmt: skip
            self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    @classmethod
    def harbor(cls, exports: Path, runs: Path, era: str) -> RawClient:
        """mcp-harbor serving `exports`, as the other series start it."""
        return cls([sys.executable, *_serve_argv(exports, runs)], _server_env(runs.parent), era)

    def _send(self, message: dict[str, object]) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(message).encode() + b"\n")
        self._proc.stdin.flush()

    def answer_line(self, method: str, params: dict[str, object]) -> bytes:
        """Send a request and return its answer's line, unparsed (found by
        its id): with this the timing is the server's and the pipe's alone,
        however big the answer."""
        self._id += 1
        message = {"jsonrpc": "2.0", "id": self._id, "method": method,
                   "params": {**params, **self._meta}}  # fmt: skip
        self._send(message)
        assert self._proc.stdout is not None
        needle = f'"id":{self._id}'.encode()
        while True:
            line = self._proc.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its stdout")
            if line.startswith(b"{") and needle in line.replace(b" ", b""):
                return line

    def request(self, method: str, params: dict[str, object]) -> dict[str, object]:
        """Send a request and return its parsed result."""
        answer = json.loads(self.answer_line(method, params))
        if "error" in answer:
            raise RuntimeError(f"{method} failed: {answer['error']}")
        return answer["result"]  # type: ignore[no-any-return]

    def series(self, n: int, warmup: int) -> list[float]:
        out = []
        for i in range(warmup + n):
            t0 = time.perf_counter()
            result = self.request("tools/call", {"name": "nothing", "arguments": {}})
            if result.get("isError"):
                raise RuntimeError(f"tool call failed: {result.get('content')}")
            if i >= warmup:
                out.append((time.perf_counter() - t0) * 1000)
        return out

    def close(self) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


#: Calls in a row to one server (or spawns of the floor) in the interleaved rows.
BLOCK = 25


async def interleaved(
    n: int, warmup: int, exports: Path, runs_root: Path
) -> tuple[list[float], list[list[float]], list[float]]:
    """The floor, then each era with the SDK client and with the raw client,
    in blocks of `BLOCK` calls, alternating (the eras' order flips every
    block), so that a change of load or of the disk's state during the run
    hits every series alike, while each server still gets its calls back to
    back. Returns the floor's samples and those of the SDK client in
    2026-07-28 and 2025-11-25, then of the raw client in the same two eras,
    then (where /dev/shm is a tmpfs) of the raw client in 2026-07-28 with the
    runs dir and audit file in memory, in ms."""
    raws: list[RawClient] = []
    with contextlib.ExitStack() as stack:
        for era in ("2026-07-28", "2025-11-25"):
            runs = runs_root / f"interleaved-raw-{era}"
            runs.mkdir()
            raws.append(RawClient.harbor(exports, runs, era))
            stack.callback(raws[-1].close)
        if Path("/dev/shm").is_dir():
            shm = Path(stack.enter_context(tempfile.TemporaryDirectory(dir="/dev/shm")))
            (shm / "runs").mkdir()
            raws.append(RawClient.harbor(exports, shm / "runs", "2026-07-28"))
            stack.callback(raws[-1].close)
        return await _interleaved(n, warmup, exports, runs_root, raws)


async def _interleaved(
    n: int, warmup: int, exports: Path, runs_root: Path, raws: list[RawClient]
) -> tuple[list[float], list[list[float]], list[float]]:
    clients = []
    async with contextlib.AsyncExitStack() as stack:
        for mode in ("auto", "legacy"):
            runs = runs_root / f"interleaved-{mode}"
            runs.mkdir()
            params = StdioServerParameters(
                command=sys.executable,
                args=_serve_argv(exports, runs),
                env=_server_env(runs.parent / f"state-{mode}"),
            )
            clients.append(await stack.enter_async_context(Client(params, mode=mode)))  # type: ignore[arg-type]
        for client in clients:
            await _call_series(client, 0, warmup)
        for raw in raws:
            raw.series(0, warmup)
        floor = floor_subprocess_run(0, warmup)
        calls: list[list[float]] = [[] for _ in (*clients, *raws)]
        # This process's CPU seconds in each series: the floor's, then the calls'.
        cpu = [0.0] * (1 + len(calls))
        for b, start in enumerate(range(0, n, BLOCK)):
            size = min(BLOCK, n - start)
            c0 = time.process_time()
            floor += floor_subprocess_run(size, 0)
            cpu[0] += time.process_time() - c0
            for k in (0, 1) if b % 2 == 0 else (1, 0):
                c0 = time.process_time()
                calls[k] += await _call_series(clients[k], size, 0)
                c1 = time.process_time()
                calls[2 + k] += raws[k].series(size, 0)
                cpu[1 + k] += c1 - c0
                cpu[3 + k] += time.process_time() - c1
            for k in range(4, len(calls)):
                c0 = time.process_time()
                calls[k] += raws[k - 2].series(size, 0)
                cpu[1 + k] += time.process_time() - c0
    return floor, calls, [c * 1000 / n for c in cpu]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def server_http(n: int, warmup: int, exports: Path, runs: Path, log: Path) -> list[float]:
    port = _free_port()
    argv = [sys.executable, *_serve_argv(exports, runs), "--transport", "http", "--port", str(port)]
    with open(log, "wb") as sink:
        proc = subprocess.Popen(
            argv, stdout=sink, stderr=subprocess.STDOUT, env=_server_env(runs.parent)
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"HTTP server exited {proc.returncode}: {log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("HTTP server did not start") from None
                await anyio.sleep(0.05)
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="auto") as client:
            return await _call_series(client, n, warmup)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ------------------------------------------------------------------ report


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def render(rows: list[Row], reference: Row, machine: str, calls: int) -> str:
    head = (
        "| series | median ms | p90 ms | ratio to floor | Δ median vs floor (ms) "
        "| client's CPU per call ms |\n"
        "|---|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for r in rows:
        if r.kind == "floor" and r.name.startswith("interleaved"):
            reference = r  # the interleaved rows compare with their own floor
        ratio = r.median / reference.median
        delta = r.median - reference.median
        cpu = "" if r.client_cpu_ms is None else f"{r.client_cpu_ms:.2f}"
        lines.append(
            f"| {r.name} | {r.median:.2f} | {r.p90:.2f} | {ratio:.2f}× | {delta:+.2f} | {cpu} |"
        )
    return f"{machine}; {calls} sequential calls per series\n\n" + head + "\n".join(lines)


def verdict(rows: list[Row], reference: Row) -> list[str]:
    out = []
    for r in rows:
        if r.kind == "interleaved":
            delta = r.median - reference.median
            ok = delta <= TARGET_MS
            who = "the server adds" if "raw" in r.name else "the server and the SDK client add"
            out.append(
                f"{'PASS' if ok else 'MISS'}: {r.name}: {who} {delta:.2f} ms to the bare "
                f"spawn (target ≤ {TARGET_MS} ms)"
            )
    return out


def creation_cost_us(folder: Path, count: int = 200) -> tuple[float, float]:
    """Median µs of a ``mkdir`` and of creating an empty file in it, in
    `folder`: on this VM's ext4 it ranges from ~20 to ~600 µs depending on
    the block group the folder lives in (how full, how recently churned), and
    a run makes two directories and three files, so it is printed next to
    the results."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = Path(tempfile.mkdtemp(prefix="probe-", dir=folder))
    made, created = [], []
    for i in range(count):
        t0 = time.perf_counter()
        (probe / str(i)).mkdir()
        t1 = time.perf_counter()
        os.close(os.open(probe / str(i) / "f", os.O_WRONLY | os.O_CREAT, 0o600))
        made.append(t1 - t0)
        created.append(time.perf_counter() - t1)
    return statistics.median(made) * 1e6, statistics.median(created) * 1e6


#: On an ext4 without a journal (this VM's root file system) Linux does not
#: reuse an inode freed in the last minute, or the last five while its
#: inode-table block is dirty, and every allocation scans the group's free
#: inodes from the start: after a test suite or a previous benchmark deleted
#: thousands of files, each new file skips all of those still "recent", and
#: each allocation dirties one more block of them, so file creation gets
#: slower as a run goes on (perf: ``find_inode_bit``, ``recently_deleted``;
#: 0.7-1.8 ms of kernel CPU per file instead of ~20 µs). A probe before the
#: run cannot see it (its first files are cheap). `settle` therefore waits
#: `SETTLE_S` after a ``sync``: then nothing deleted before it is recent.
SETTLE_S = 330.0


def settle(say: Callable[[str], None]) -> str:
    """``sync``, then wait `SETTLE_S` for every inode freed before to stop
    being recent; return what was done, for the report."""
    say(f"  sync, then {SETTLE_S:.0f} s for inodes freed before this run to age ...")
    os.sync()
    time.sleep(SETTLE_S)
    return f"synced, then waited {SETTLE_S:.0f} s"


async def main_async(args: argparse.Namespace) -> int:
    n, warmup = args.calls, args.warmup
    rows: list[Row] = []
    settled = "not settled (--no-settle)"
    with tempfile.TemporaryDirectory(prefix="harbor-bench-") as tmp_s:
        tmp = Path(tmp_s)
        # The probe's files stay in the temp folder until the end (deleting
        # them would make the next files slow, see SETTLE_S).
        probes = tmp / "probes"
        probes.mkdir()
        if args.settle:
            settled = await anyio.to_thread.run_sync(settle, lambda m: print(m, file=sys.stderr))
        exports, runs = tmp / "exports", tmp / "runs"
        exports.mkdir()
        runs.mkdir()
        (exports / "nothing.yaml").write_text(EXPORT)
        spawn_tmp = tmp / "spawn"
        spawn_tmp.mkdir()

        def progress(name: str) -> None:
            print(f"  timing {name} ...", file=sys.stderr, flush=True)

        def add(name: str, kind: str, samples: list[float]) -> Row:
            rows.append(Row(name, kind, samples))
            return rows[-1]

        progress("subprocess.run floor")
        samples = await anyio.to_thread.run_sync(floor_subprocess_run, n, warmup)
        ref = add('floor: subprocess.run(["bash","-c","true"])', "floor", samples)
        progress("anyio floor")
        add("floor: anyio.run_process bash -c true", "floor", await floor_anyio(n, warmup))
        progress("asyncio floor")
        samples = await floor_asyncio(n, warmup)
        add("floor: asyncio.create_subprocess_exec bash -c true", "floor", samples)
        progress("harbor-style spawn floor")
        samples = await floor_harbor_style(n, warmup, spawn_tmp)
        add("floor: harbor-style (fresh run dir, script file, 2 logs, setsid, bash flags)",
            "floor", samples)  # fmt: skip
        for mode, label in (("auto", "2026-07-28"), ("legacy", "2025-11-25")):
            progress(f"stdio {mode}")
            samples = await server_stdio(mode, n, warmup, exports, runs)
            add(f"stdio, Client mode={mode} ({label}), a series alone", "server", samples)
        progress("interleaved: floor and both eras call by call")
        floor, series, cpu = await interleaved(n, warmup, exports, tmp)
        inter = add('interleaved floor: subprocess.run(["bash","-c","true"])', "floor", floor)
        inter.client_cpu_ms = cpu[0]
        names = [
            "interleaved stdio, Client mode=auto (2026-07-28)",
            "interleaved stdio, Client mode=legacy (2025-11-25)",
            "interleaved stdio, raw JSON-RPC client (2026-07-28)",
            "interleaved stdio, raw JSON-RPC client (2025-11-25)",
            "interleaved stdio, raw JSON-RPC client (2026-07-28), runs dir on tmpfs",
        ]
        # No tmpfs row where /dev/shm is missing: the last name may go unused.
        for name, samples, used in zip(names, series, cpu[1:], strict=False):
            add(name, "interleaved", samples).client_cpu_ms = used
        if args.http:
            progress("http auto")
            samples = await server_http(n, warmup, exports, runs, tmp / "http.log")
            add("http, Client mode=auto (2026-07-28), for information", "server", samples)
        made, created = creation_cost_us(probes)
    os.sync()  # write back the freed inodes of the temp folder (see SETTLE_S)

    machine = (
        f"{os.cpu_count()} CPUs ({cpu_model()}), Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )
    table = render(rows, ref, machine, n)
    print(f"before measuring: {settled}")
    print(
        f"file system under the runs dir ({tempfile.gettempdir()}), after measuring: mkdir "
        f"{made:.0f} µs, create {created:.0f} µs (median of 200; ~20 and ~10 when healthy)"
    )
    print(table)
    print()
    print(
        "The verdict uses the interleaved rows (each against the floor measured in "
        "the same loop); the series run alone are for information. The raw client's "
        "rows are what the server adds; the SDK client's rows also carry the "
        "client's own CPU per call (parsing and validating the result)."
    )
    for line in verdict(rows, inter):
        print(line)
    if args.json:
        payload = {
            "machine": machine,
            "calls": n,
            "warmup": warmup,
            "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
            "target_ms": TARGET_MS,
            "rows": [{**asdict(r), "median_ms": r.median, "p90_ms": r.p90} for r in rows],
        }
        Path(args.json).write_text(json.dumps(payload, indent=1))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300, help="timed calls per series")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls first")
    parser.add_argument("--no-http", dest="http", action="store_false", help="skip HTTP row")
    parser.add_argument("--json", help="also write raw samples and summary to this file")
    parser.add_argument(
        "--keep-runs",
        type=int,
        default=0,
        help="the server's --keep-runs (default 0: no pruning, see KEEP_RUNS)",
    )
    parser.add_argument(
        "--no-settle",
        dest="settle",
        action="store_false",
        help=f"skip the sync and the {SETTLE_S:.0f} s wait before measuring (see SETTLE_S)",
    )
    args = parser.parse_args()
    global KEEP_RUNS
    KEEP_RUNS = args.keep_runs
    return anyio.run(main_async, args)


if __name__ == "__main__":
    sys.exit(main())
