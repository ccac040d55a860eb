#!/usr/bin/env python
"""Audit rows/s on PostgreSQL under 50 concurrent callers, next to SQLite
(issue 10 target: >= 5,000 rows/s on PostgreSQL).

Series, each on a fresh database, all in one run:

- ``AuditTrail`` (the server's path): 50 asyncio tasks, each doing calls of
  ``started`` + ``finished`` (2 records per call) through one `AuditTrail`,
  which hops to worker threads (``append_concurrency`` of them for the
  PostgreSQL store, 1 for SQLite, as in the server);
- ``store.append``, 50 threads calling the store directly;
- for PostgreSQL also the same with batching off (``_BATCH = 1``: one
  transaction and one lock hold per record), to show what batching buys.

Each series ends with ``verify()`` of the whole chain (asserted intact).
PostgreSQL: ``--dsn`` (or ``$MCP_HARBOR_TEST_PG``, a database where the bench
may ``CREATE DATABASE``), otherwise a private cluster started from the Debian
binaries in a temp dir with PostgreSQL's default durability (``fsync=on``,
``synchronous_commit=on``), stopped by pid at the end.

Usage::

    python bench/bench_pg_audit.py [--rows 10000] [--rounds 3] [--dsn DSN] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import platform
import pwd
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio
import psycopg
from psycopg.conninfo import conninfo_to_dict

from mcp_harbor.identity import Caller
from mcp_harbor.store import SqliteStore
from mcp_harbor.store import postgres as pg
from mcp_harbor.store.audit import AuditTrail

CALLERS = 50
TARGET = 5000.0
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


@contextlib.contextmanager
def private_cluster() -> Iterator[str]:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        sys.exit("no PostgreSQL binaries: apt-get install postgresql, or pass --dsn")
    bindir = Path(found[-1]).parent
    folder = Path(tempfile.mkdtemp(prefix="harbor-bench-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(folder, pw.pw_uid, pw.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = folder / "data"
    subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    opts = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    subprocess.run(
        [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l",
         str(folder / "log"), "-w", "start"],
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    pid = int((data / "postmaster.pid").read_text().split()[0])
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        os.kill(pid, signal.SIGINT)
        for _ in range(300):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def fresh_pg(admin: str) -> Iterator[str]:
    name = f"harbor_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f'CREATE DATABASE "{name}"'.encode())
    params = conninfo_to_dict(admin)
    params["dbname"] = name
    try:
        yield "postgresql://?" + urlencode(params)
    finally:
        with psycopg.connect(admin, autocommit=True) as con:
            con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def via_trail(store: Any, rows: int) -> tuple[float, list[float]]:
    """50 tasks, each `started` + `finished` through one AuditTrail."""
    trail = AuditTrail(store)
    calls_each = max(1, rows // (2 * CALLERS))
    latencies: list[float] = []

    async def caller(n: int) -> None:
        for i in range(calls_each):
            call_id = f"{n}-{i}"
            t0 = time.perf_counter()
            await trail.started(call_id, CALLER, "nothing", "h" * 16, {"n": i}, "/tmp/run")
            t1 = time.perf_counter()
            await trail.finished(CALLER, None, call_id=call_id, tool="nothing", status="ok")
            t2 = time.perf_counter()
            latencies.extend([(t1 - t0) * 1e3, (t2 - t1) * 1e3])

    async def main() -> float:
        t0 = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for n in range(CALLERS):
                tg.start_soon(caller, n)
        return time.perf_counter() - t0

    return anyio.run(main), latencies


def via_threads(store: Any, rows: int) -> tuple[float, list[float]]:
    """50 threads calling `store.append` directly."""
    each = max(1, rows // CALLERS)
    latencies: list[list[float]] = [[] for _ in range(CALLERS)]
    barrier = threading.Barrier(CALLERS + 1)

    def worker(n: int) -> None:
        barrier.wait()
        for i in range(each):
            t0 = time.perf_counter()
            store.append(f"{n}-{i}", "call", "alice", "nothing", "ok", {"n": n, "i": i})
            latencies[n].append((time.perf_counter() - t0) * 1e3)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(CALLERS)]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, [x for lat in latencies for x in lat]


def measure(
    label: str,
    opener: Callable[[], contextlib.AbstractContextManager[Any]],
    load: Callable[[Any, int], tuple[float, list[float]]],
    rows: int,
    rounds: int,
) -> dict[str, Any]:
    rates: list[float] = []
    lat_all: list[float] = []
    for _ in range(rounds):
        with opener() as store:
            seconds, latencies = load(store, rows)
            report = store.verify()
            assert report.ok, report.problems
            rates.append(report.records / seconds)
            lat_all.extend(latencies)
    row = {
        "series": label,
        "rows_per_s": statistics.median(rates),
        "rates": rates,
        "p50_ms": pct(lat_all, 0.50),
        "p95_ms": pct(lat_all, 0.95),
        "p99_ms": pct(lat_all, 0.99),
    }
    print(
        f"{label:<52} {row['rows_per_s']:>9,.0f} rows/s  p50 {row['p50_ms']:6.2f}  "
        f"p95 {row['p95_ms']:6.2f}  p99 {row['p99_ms']:7.2f} ms  (rounds: "
        + ", ".join(f"{r:,.0f}" for r in rates)
        + ")",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000, help="records per series and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dsn", default=os.environ.get("MCP_HARBOR_TEST_PG"))
    ap.add_argument("--dir", type=Path, default=None, help="folder for the SQLite files")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    print(
        f"{platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} cpu, "
        f"python {platform.python_version()}, psycopg {psycopg.__version__}, "
        f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        admin = args.dsn or stack.enter_context(private_cluster())
        with psycopg.connect(admin) as con:
            version = con.execute("SHOW server_version").fetchone()
            settings = con.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN "
                "('fsync', 'synchronous_commit')"
            ).fetchall()
        print(f"PostgreSQL {version[0] if version else '?'}: {dict(settings)}", flush=True)
        folder = Path(tempfile.mkdtemp(prefix="harbor-bench-sqlite-", dir=args.dir))
        stack.callback(shutil.rmtree, folder, True)

        @contextlib.contextmanager
        def sqlite_store() -> Iterator[Any]:
            path = folder / f"{uuid.uuid4().hex}.db"
            store = SqliteStore(path)
            try:
                yield store
            finally:
                store.close()

        @contextlib.contextmanager
        def pg_store() -> Iterator[Any]:
            with fresh_pg(admin) as dsn:
                store = pg.PostgresStore(dsn)
                try:
                    yield store
                finally:
                    store.close()

        results = [
            measure("postgres, AuditTrail, 50 tasks (server path)", pg_store, via_trail,
                    args.rows, args.rounds),
            measure("postgres, store.append, 50 threads", pg_store, via_threads,
                    args.rows, args.rounds),
            measure("sqlite, AuditTrail, 50 tasks (server path)", sqlite_store, via_trail,
                    args.rows, args.rounds),
            measure("sqlite, store.append, 50 threads", sqlite_store, via_threads,
                    args.rows, args.rounds),
        ]  # fmt: skip
        batch = pg._BATCH
        pg._BATCH = 1
        try:
            results.append(
                measure("postgres, store.append, 50 threads, batching off", pg_store,
                        via_threads, max(1000, args.rows // 5), args.rounds)
            )  # fmt: skip
        finally:
            pg._BATCH = batch
    best = results[0]["rows_per_s"]
    verdict = "met" if best >= TARGET else "NOT met"
    print(f"target >= {TARGET:,.0f} rows/s on PostgreSQL (server path): {verdict}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
