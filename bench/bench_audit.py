#!/usr/bin/env python
"""What the audit trail adds to a call's latency (issue 4 target: < 0.5 ms
at the median).

Two measurements, side by side in one run (the in-process table also shows
the slowest call and how many took over 1 ms: SQLite's checkpoints, which
once ran inside a commit every ~250 records for 3-4 ms, now run in the
store's own thread):

(a) **In process.** The audit work of one call as the server does it:
    ``AuditTrail.started`` (before the first command) + ``AuditTrail.finished``
    (with a one-step result), each a thread hop and one SQLite ``BEGIN
    IMMEDIATE`` … ``COMMIT`` in WAL mode. Series:

    - ``no audit``: the same loop with nothing in it (the timer's floor);
    - ``null store``: `AuditTrail` over a store whose ``append`` does nothing
      (the thread hops, JSON body building, no SQLite);
    - ``sqlite, disk``: a real SQLite file under ``--dir`` (default: a temp dir
      on the root filesystem), ``--db-sync normal`` (the default);
    - ``sqlite, tmpfs``: the same on ``/dev/shm`` (no storage I/O at all);
    - ``sqlite, disk, sync=full``: ``--db-sync full`` (an fsync per record).

(b) **End to end over stdio.** ``tools/call`` of a ``run: "true"`` export
    through a real ``mcp-harbor serve`` subprocess and the SDK ``Client``
    (2026-07-28 and the 2025 handshake), with ``--db`` on disk and with
    ``--db`` on ``/dev/shm``. The two servers are timed in alternating blocks
    so that load drift hits both alike.

Usage::

    python bench/bench_audit.py [--iterations 2000] [--calls 300] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcp_harbor.identity import Caller
from mcp_harbor.runner.result import RunResult, StepResult
from mcp_harbor.store import SqliteStore
from mcp_harbor.store.audit import AuditTrail

TARGET_MS = 0.5
EXPORT = """\
name: nothing
description: Run true (audit benchmark).
steps:
  - name: t
    run: "true"
"""

CALLER = Caller(
    transport="http",
    principal="alice",
    tenant="acme",
    groups=("ops",),
    client_name="bench",
    client_version="1.0",
    session="request:0123456789ab",
    request_id="7",
    remote_addr="127.0.0.1",
    protocol_version="2026-07-28",
)


def one_step_result(call_id: str) -> RunResult:
    step = StepResult(
        name="t",
        status="ok",
        exit_code=0,
        duration_ms=1.2,
        command="true",
        stdout_bytes=0,
        stderr_bytes=0,
        stdout_sha256="e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        stderr_sha256="e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        cwd="/srv",
        env_names=["HARBOR_CALLER_PRINCIPAL", "HARBOR_RUN_ID", "HARBOR_TOOL"],
    )
    return RunResult(call_id, "nothing", "ok", 0, 2.0, f"/runs/{call_id}", [step])


class NullStore:
    """A `Store` whose writes do nothing (to separate SQLite from the rest)."""

    append_concurrency = 1
    location = "null"

    def append(self, *args: Any, **kwargs: Any) -> None:
        return None

    def try_append(self, *args: Any, **kwargs: Any) -> None:
        return None  # declines: the trail then calls append in a thread

    def append_nowait(self, *args: Any, **kwargs: Any) -> None:
        return None  # no writer thread

    def open_calls(self) -> list[Any]:
        return []


def stats(samples: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(samples, n=10)
    return statistics.median(samples), q[8]


async def audit_series(trail: AuditTrail | None, n: int, warmup: int) -> list[float]:
    out: list[float] = []
    for i in range(n + warmup):
        call_id = f"c{i:06d}"
        result = one_step_result(call_id)
        t0 = time.perf_counter()
        if trail is not None:
            await trail.started(
                call_id, CALLER, "nothing", "ab" * 32, {"word": "x"}, f"/runs/{call_id}"
            )
            await trail.finished(CALLER, result, call_id=call_id, tool="nothing", status="ok")
        dt = (time.perf_counter() - t0) * 1000
        if i >= warmup:
            out.append(dt)
    return out


async def in_process(n: int, warmup: int, disk: Path, shm: Path) -> dict[str, list[float]]:
    series: dict[str, list[float]] = {}
    series["no audit"] = await audit_series(None, n, warmup)
    series["null store (thread hops + body)"] = await audit_series(
        AuditTrail(NullStore()),  # type: ignore[arg-type]
        n,
        warmup,
    )
    for label, path, durable in (
        ("sqlite, disk, sync=normal (default)", disk / "inproc.db", False),
        ("sqlite, tmpfs /dev/shm, sync=normal", shm / "inproc.db", False),
        ("sqlite, disk, sync=full", disk / "inproc-full.db", True),
    ):
        store = SqliteStore(path, durable=durable)
        try:
            series[label] = await audit_series(AuditTrail(store), n, warmup)
            assert store.verify().ok
        finally:
            store.close()
    return series


def _params(exports: Path, db: Path, runs: Path, state: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k != "MCP_HARBOR_LOG_LEVEL"}
    env["XDG_STATE_HOME"] = str(state)
    argv = [
        "-m", "mcp_harbor", "--log-level", "warning", "serve", "--exports", str(exports),
        "--db", str(db), "--runs-dir", str(runs), "--keep-runs", "0",
    ]  # fmt: skip
    return StdioServerParameters(command=sys.executable, args=argv, env=env)


async def _calls(client: Client, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        result = await client.call_tool("nothing", {})
        out.append((time.perf_counter() - t0) * 1000)
        assert not result.is_error
    return out


async def end_to_end(
    mode: str, n: int, warmup: int, blocks: int, disk: Path, shm: Path
) -> dict[str, list[float]]:
    exports = disk / "exports"
    exports.mkdir(exist_ok=True)
    (exports / "nothing.yaml").write_text(EXPORT)
    where = {"disk": disk / f"e2e-{mode}.db", "tmpfs": shm / f"e2e-{mode}.db"}
    out: dict[str, list[float]] = {"disk": [], "tmpfs": []}
    with open(disk / f"server-{mode}.stderr", "w") as errlog:
        p_disk = _params(exports, where["disk"], disk / "runs-d", disk / "sd")
        p_shm = _params(exports, where["tmpfs"], disk / "runs-t", disk / "st")
        async with (
            Client(stdio_client(p_disk, errlog=errlog), mode=mode) as c_disk,  # type: ignore[arg-type]
            Client(stdio_client(p_shm, errlog=errlog), mode=mode) as c_shm,  # type: ignore[arg-type]
        ):
            clients: Mapping[str, Client] = {"disk": c_disk, "tmpfs": c_shm}
            for c in clients.values():
                await _calls(c, warmup)
            per_block = max(1, n // blocks)
            for b in range(blocks):
                order = ("disk", "tmpfs") if b % 2 == 0 else ("tmpfs", "disk")
                for key in order:
                    out[key].extend(await _calls(clients[key], per_block))
    for path in where.values():
        store = SqliteStore(path, readonly=True)
        try:
            assert store.verify().ok
        finally:
            store.close()
    return out


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0]
    return (
        f"{os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, load {load:.1f}"
    )


def table(title: str, rows: dict[str, list[float]], reference: str) -> list[str]:
    ref_med, _ = stats(rows[reference])
    lines = [
        f"### {title}",
        "",
        "| series | median ms | p90 ms | max ms | calls over 1 ms | ratio to ref "
        "| Δ median vs ref (ms) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, samples in rows.items():
        med, p90 = stats(samples)
        ratio = f"{med / ref_med:.2f}×" if ref_med >= 0.001 else "—"
        slow = sum(1 for s in samples if s > 1.0)
        lines.append(
            f"| {label} | {med:.3f} | {p90:.3f} | {max(samples):.3f} | {slow} | {ratio} "
            f"| {med - ref_med:+.3f} |"
        )
    return lines


async def main_async(args: argparse.Namespace) -> int:
    base = Path(args.dir) if args.dir else None
    with (
        tempfile.TemporaryDirectory(dir=base, prefix="bench-audit-") as d,
        tempfile.TemporaryDirectory(dir="/dev/shm", prefix="bench-audit-") as s,
    ):
        disk, shm = Path(d), Path(s)
        inproc = await in_process(args.iterations, 50, disk, shm)
        e2e: dict[str, dict[str, list[float]]] = {}
        for mode in ("auto", "legacy"):
            e2e[mode] = await end_to_end(mode, args.calls, 20, args.blocks, disk, shm)
    out: list[str] = [
        f"Machine: {machine()}",
        f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"Command: python bench/bench_audit.py --iterations {args.iterations} --calls {args.calls}",
        "",
    ]
    out += table(
        f"(a) in process: AuditTrail.started + finished per call ({args.iterations} iterations)",
        inproc,
        "no audit",
    )
    out.append("")
    out += [
        f'### (b) end to end: tools/call of run: "true" over stdio ({args.calls} calls each)',
        "",
        "| era | --db on /dev/shm: median / p90 ms | --db on disk: median / p90 ms "
        "| ratio disk/shm (median) | Δ median (ms) |",
        "|---|---:|---:|---:|---:|",
    ]
    for mode, rows in e2e.items():
        era = "2026-07-28 (auto)" if mode == "auto" else "2025-11-25 (legacy)"
        (sm, sp), (dm, dp) = stats(rows["tmpfs"]), stats(rows["disk"])
        out.append(
            f"| {era} | {sm:.3f} / {sp:.3f} | {dm:.3f} / {dp:.3f} | {dm / sm:.3f}× "
            f"| {dm - sm:+.3f} |"
        )
    default = inproc["sqlite, disk, sync=normal (default)"]
    added = statistics.median(default) - statistics.median(inproc["no audit"])
    out += [
        "",
        f"Audit added per call (in process, default store, median): {added:.3f} ms "
        f"(target < {TARGET_MS} ms): {'MET' if added < TARGET_MS else 'MISSED'}",
    ]
    print("\n".join(out))
    if args.json:
        Path(args.json).write_text(json.dumps({"in_process": inproc, "end_to_end": e2e}, indent=1))
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--blocks", type=int, default=20)
    p.add_argument("--dir", help="Where the on-disk databases go (default: the temp dir).")
    p.add_argument("--json", help="Also write the raw samples to this file.")
    return anyio.run(main_async, p.parse_args())


if __name__ == "__main__":
    sys.exit(main())
