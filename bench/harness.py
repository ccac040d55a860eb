#!/usr/bin/env python
# ruff: noqa: E501  (long markdown rows)
"""mcp-harbor side by side with its peers: one command, six tables.

    .venv/bin/python bench/harness.py            # everything, 3 rounds where it matters (~20 min)
    .venv/bin/python bench/harness.py --quick    # shorter (~5 min)
    .venv/bin/python bench/harness.py --only latency,concurrency

Peers (installed by this script, each in its own venv under bench/.cache/peers,
git-ignored; started over stdio and driven by the project's SDK 2.3 client):
mcp-shell-server (``shell_execute`` + ``ALLOW_COMMANDS``), shellmcp (YAML
tools), and the floor: the same command spawned with ``bash -c`` from Python.
A peer that cannot be installed or started gets a row saying so.

Tables (ratios are mcp-harbor / other, measured in the same run):
1 latency, 2 concurrency, 3 scale of the configuration, 4 output volume,
5 HTTP with a token, 6 cost of each layer of a call (in-process, plus a
py-spy profile of the server during a latency run).

This is a script, not a test: it never fails CI. It prints markdown tables
and writes them (and the raw figures as JSON) to bench/.cache/results/.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import psutil
from mcp import Client, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent))
import loopprobe
import peers
from bench_latency import SETTLE_S, RawClient, creation_cost_us, settle
from peers import layers
from peers.generate import harbor_exports, shellmcp_yaml

ECHO_TEXT = "hello from the side-by-side benchmark"
MIB = 1024 * 1024
OUT: list[str] = []  # the report, markdown
RAW: dict[str, Any] = {}


def say(text: str = "") -> None:
    print(text, flush=True)
    OUT.append(text)


def progress(text: str) -> None:
    print(f"  .. {text}", file=sys.stderr, flush=True)


def load() -> str:
    a, b, c = os.getloadavg()
    return f"{a:.2f}/{b:.2f}/{c:.2f}"


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def table(head: list[str], rows: list[list[str]]) -> None:
    say("| " + " | ".join(head) + " |")
    say("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
    for r in rows:
        say("| " + " | ".join(r) + " |")
    say()


def ratio(ours: float | None, other: float | None) -> str:
    if ours is None or other is None or other == 0:
        return "–"
    return f"{ours / other:.2f}×"


def proc_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def proc_cpu_s(pid: int | None) -> float:
    """utime + stime of `pid` in seconds (NaN when unknown)."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset_peak(pid: int) -> bool:
    """Reset VmHWM to the current RSS (``echo 5 > /proc/PID/clear_refs``)."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


# ------------------------------------------------------------------ sessions


class Session:
    """A connected client plus the server process it started."""

    def __init__(self, client: Client, pid: int | None, era: str) -> None:
        self.client, self.pid, self.era = client, pid, era


@asynccontextmanager
async def connect(peer: peers.Peer, errlog: Path, mode: str = "auto"):  # type: ignore[no-untyped-def]
    """Start `peer` over stdio with the SDK client; yield a `Session`."""
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    with open(errlog, "a") as err:
        async with Client(stdio_client(peer.params, errlog=err), mode=mode) as client:  # type: ignore[arg-type]
            new = [p for p in me.children(recursive=True) if p.pid not in before]
            # the server: the newest child that is a Python interpreter
            pid = None
            for p in sorted(new, key=lambda p: p.create_time()):
                try:
                    if "python" in " ".join(p.cmdline()[:1]) or p.name().startswith(
                        ("python", "mcp")
                    ):
                        pid = p.pid
                except psutil.Error:
                    continue
            yield Session(client, pid, client.protocol_version)


async def checked_call(client: Client, call: peers.ToolCall) -> Any:
    result = await client.call_tool(*call)
    if result.is_error:
        raise RuntimeError(f"{call[0]} failed: {str(result.content)[:300]}")
    return result


async def timed(n: int, warmup: int, one: Callable[[], Awaitable[object]]) -> list[float]:
    out = []
    for i in range(warmup + n):
        t0 = time.perf_counter()
        await one()
        if i >= warmup:
            out.append((time.perf_counter() - t0) * 1000)
    return out


# ------------------------------------------------------------------ 1 latency


#: How each server runs the echo, without MCP: mcp-harbor's ``run:`` steps run
#: under bash (the issue's floor); shellmcp renders a string for
#: ``shell=True`` (/bin/sh, dash on Debian); mcp-shell-server, and mcp-harbor's
#: ``argv:`` steps, exec the argv.
FLOORS = {
    "floor": ["bash", "-c", 'echo "$1"', "_", ECHO_TEXT],
    "floor: /bin/sh (shellmcp's shell=True)": ["/bin/sh", "-c", 'echo "$1"', "_", ECHO_TEXT],
    "floor: exec echo (mcp-shell-server's argv, mcp-harbor's argv: step)": ["echo", ECHO_TEXT],
}
#: The row of mcp-harbor with the echo as an ``argv:`` step (latency only).
HARBOR_ARGV = "mcp-harbor, `argv:` step (no shell)"
#: The floor each server's own overhead is measured from.
OWN_FLOOR = {
    HARBOR_ARGV: "floor: exec echo (mcp-shell-server's argv, mcp-harbor's argv: step)",
    "mcp-shell-server": "floor: exec echo (mcp-shell-server's argv, mcp-harbor's argv: step)",
    "shellmcp": "floor: /bin/sh (shellmcp's shell=True)",
}


def floor_echo(n: int, warmup: int, argv: list[str] = FLOORS["floor"]) -> list[float]:
    out = []
    for i in range(warmup + n):
        t0 = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        if i >= warmup:
            out.append((time.perf_counter() - t0) * 1000)
    return out


def fresh(base: Path, prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


def busy_state(work: Path, count: int) -> Path:
    """A state folder whose runs dir already holds `count` run directories
    younger than ten minutes, as after ~count/600 calls per second."""
    state = fresh(work, "busy-")
    runs = state / "harbor-runs"
    runs.mkdir()
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    for i in range(count):
        (runs / f"{stamp}-{i:010x}").mkdir()
    return state


def subjects(
    args: argparse.Namespace, work: Path, latency: bool = False
) -> list[tuple[str, peers.Peer, str]]:
    """(row label, peer, client mode) in table order; the first is ours. Each
    call gives mcp-harbor fresh state (audit DB, runs dir), like the peers,
    which keep none. `latency`: also mcp-harbor running the echo as an
    ``argv:`` step (the other sections' work needs a shell or is the same)."""
    rows = [
        ("mcp-harbor", peers.harbor(work, state=fresh(work, "state-")), "auto"),
        ("mcp-harbor (handshake era)", peers.harbor(work, state=fresh(work, "state-")), "legacy"),
    ]
    if latency:
        exec_echo = peers.harbor(work, state=fresh(work, "state-"))
        exec_echo.echo = lambda text: ("echo_argv", {"text": text})
        rows.append((HARBOR_ARGV, exec_echo, "auto"))
    if args.tmpfs is not None:
        # the same server with its run directories and audit DB on tmpfs: how much is the disk
        rows.append(
            (
                "mcp-harbor (runs dir + audit DB on tmpfs)",
                peers.harbor(work, state=fresh(args.tmpfs, "state-")),
                "auto",
            )
        )
    if args.busy_runs:
        rows.append(
            (
                f"mcp-harbor (runs dir holding {args.busy_runs:,} runs of the last 10 min)",
                peers.harbor(work, state=busy_state(work, args.busy_runs)),
                "auto",
            )
        )
    rows.append(("mcp-shell-server", args.peer_objs["mcp-shell-server"], "auto"))
    rows.append(("shellmcp", args.peer_objs["shellmcp"], "auto"))
    return rows


#: Calls in a row to one server (and spawns of the floor) before the next
#: server's turn in the latency section.
LATENCY_BLOCK = 25


async def bench_latency(args: argparse.Namespace, work: Path) -> None:
    n, warmup = args.calls, 20
    say(
        f"## 1. Per-call latency: echo of a caller string, {n} sequential calls after {warmup} warm-up"
    )
    say()
    runs: dict[str, list[dict[str, float]]] = {}
    eras: dict[str, str] = {}
    errors: dict[str, str] = {}
    settled = settle(progress) if args.settle else "not settled (--no-settle)"

    def keep(label: str, samples: list[float]) -> None:
        runs.setdefault(label, []).append(
            {
                "median": statistics.median(samples),
                "p90": pct(samples, 0.9),
                "load": os.getloadavg()[0],
            }
        )

    for rnd in range(args.rounds):
        # Every server of the round is started first; then blocks of
        # LATENCY_BLOCK calls: the floor's, then each server's in turn (the
        # order rotating from block to block), so that a change of load, or
        # of the disk's state, during the round hits every row alike (side by
        # side, not one series after another), while each server still sees
        # calls back to back, as from its one client (one call each in turn
        # among seven processes would measure everyone with cold caches).
        progress(f"latency round {rnd + 1}/{args.rounds} (load {load()}): starting the servers")
        async with contextlib.AsyncExitStack() as stack:
            live: list[tuple[str, peers.Peer, Any]] = []
            for label, peer, mode in subjects(args, work, latency=True):
                if peer.error:
                    errors[label] = peer.error
                    continue
                try:
                    sess = await stack.enter_async_context(
                        connect(peer, work / f"{peer.name}.stderr", mode)
                    )
                    eras[label] = sess.era
                    first = await checked_call(sess.client, peer.echo(ECHO_TEXT))
                    if ECHO_TEXT not in json.dumps(first.model_dump(mode="json")):
                        raise RuntimeError(f"echo not in the result: {first}")
                    live.append((label, peer, sess.client))
                except Exception as exc:  # noqa: BLE001
                    errors[label] = f"failed: {type(exc).__name__}: {exc}"[:200]
            progress(
                f"latency round {rnd + 1}: {n} calls to each of {len(live)} servers, "
                f"in blocks of {LATENCY_BLOCK}"
            )
            samples: dict[str, list[float]] = {label: [] for label, _, _ in live}
            floor_samples: dict[str, list[float]] = {
                name: floor_echo(0, warmup, argv) for name, argv in FLOORS.items()
            }
            for _label, peer, client in live:
                await timed(0, warmup, lambda p=peer, c=client: checked_call(c, p.echo(ECHO_TEXT)))
            failed: set[str] = set()
            for b, start in enumerate(range(0, n, LATENCY_BLOCK)):
                size = min(LATENCY_BLOCK, n - start)
                for name, argv in FLOORS.items():
                    floor_samples[name] += floor_echo(size, 0, argv)
                k = b % max(1, len(live))
                for label, peer, client in live[k:] + live[:k]:
                    if label in failed:
                        continue
                    try:
                        samples[label] += await timed(
                            size, 0, lambda p=peer, c=client: checked_call(c, p.echo(ECHO_TEXT))
                        )
                    except Exception as exc:  # noqa: BLE001
                        errors[label] = f"failed: {type(exc).__name__}: {exc}"[:200]
                        failed.add(label)
            for name, got in floor_samples.items():
                keep(name, got)
            for label, got in samples.items():
                if label not in failed and got:
                    keep(label, got)
    RAW["latency"] = {"runs": runs, "eras": eras, "errors": errors}

    def med(label: str, key: str) -> float | None:
        r = runs.get(label)
        return statistics.median(x[key] for x in r) if r else None

    def rng(label: str, key: str) -> str:
        r = runs.get(label)
        if not r or len(r) < 2:
            return ""
        vals = [x[key] for x in r]
        return f" ({min(vals):.2f}–{max(vals):.2f})"

    ours = med("mcp-harbor", "median")
    floor = med("floor", "median")
    rows = []
    labels = [label for label, _, _ in subjects(args, work, latency=True)] + list(FLOORS)
    for label in labels:
        if label in errors and label not in runs:
            rows.append([label, eras.get(label, "–"), errors[label], "", "", "", ""])
            continue
        m, p = med(label, "median"), med(label, "p90")
        era = (
            f"no MCP: subprocess.run({FLOORS[label]!r})"
            if label in FLOORS
            else eras.get(label, "?")
        )
        delta = f"{m - floor:+.2f}" if m is not None and floor is not None else "–"
        own = med(OWN_FLOOR.get(label, "floor"), "median")
        own_delta = (
            f"{m - own:+.2f}" if m is not None and own is not None and label not in FLOORS else ""
        )
        rows.append(
            [
                label,
                era,
                f"{m:.2f}{rng(label, 'median')}",
                f"{p:.2f}{rng(label, 'p90')}",
                ratio(ours, m),
                delta,
                own_delta,
            ]
        )
    loads = [x["load"] for r in runs.values() for x in r]
    say(
        f"{args.rounds} round(s); figures are the median over rounds (range in brackets); "
        f"load average (1 min) during the rounds {min(loads):.2f}–{max(loads):.2f}"
    )
    say()
    table(
        [
            "server",
            "protocol era",
            "median ms",
            "p90 ms",
            "mcp-harbor / this",
            "Δ vs floor (bash) ms",
            "Δ vs its own way of running the echo ms",
        ],
        rows,
    )
    made, created = creation_cost_us(work / "probes")
    say(f"Before the rounds: {settled}.")
    say(
        f"File system under mcp-harbor's runs dirs ({work}) after the round: mkdir {made:.0f} µs, "
        f"create {created:.0f} µs (median of 200; ~20 and ~10 when healthy; a run makes two "
        f"directories and three files)."
    )
    say()
    say(
        "The last column compares each server with the same command run its own way without "
        "MCP (mcp-harbor: bash, as its `run:` steps must, or an exec for its `argv:` step; "
        "shellmcp: `/bin/sh` through `shell=True`; mcp-shell-server: an exec of the argv): "
        "what the MCP server itself adds."
    )
    say()
    peer_meds = [med(x, "median") for x in ("mcp-shell-server", "shellmcp") if x in runs]
    if ours is not None and floor is not None:
        ok1 = all(ours <= m for m in peer_meds if m is not None)
        ok2 = ours - floor <= 1.5
        added = {
            x: med(x, "median") - med(OWN_FLOOR[x], "median")  # type: ignore[operator]
            for x in ("mcp-shell-server", "shellmcp")
            if x in runs and OWN_FLOOR[x] in runs
        }
        ok3 = all(ours - floor <= a for a in added.values())
        say(
            f"Target: median at or below every peer's: **{'met' if ok1 else 'MISSED'}**; "
            f"within 1.5 ms of the floor: **{'met' if ok2 else 'MISSED'}** (Δ {ours - floor:+.2f} ms). "
            f"What the server adds over its own way of running the echo, at or below every "
            f"peer's: **{'yes' if ok3 else 'no'}** (mcp-harbor {ours - floor:+.2f} ms; "
            + ", ".join(f"{x} {a:+.2f} ms" for x, a in added.items())
            + ")."
        )
        exec_row = med(HARBOR_ARGV, "median")
        if exec_row is not None:
            ok4 = all(exec_row <= m for m in peer_meds if m is not None)
            exec_floor = med(OWN_FLOOR[HARBOR_ARGV], "median")
            adds = f", {exec_row - exec_floor:+.2f} ms over an exec of echo" if exec_floor else ""
            say(
                f"With the echo as an `argv:` step (exec'd, no shell: how mcp-harbor runs one "
                f"command with a caller's value), its median is {exec_row:.2f} ms{adds}: at or "
                f"below every peer's: **{'met' if ok4 else 'MISSED'}**."
            )
        say()


# ------------------------------------------------------------------ 2 concurrency


async def floor_concurrency(count: int) -> float:
    t0 = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for _ in range(count):
            tg.start_soon(anyio.run_process, ["bash", "-c", "sleep 0.5"])
    return time.perf_counter() - t0


async def bench_concurrency(args: argparse.Namespace, work: Path) -> None:
    count = 64
    say(f"## 2. Concurrency: {count} concurrent `sleep 0.5` calls on one session")
    say()
    rows = []
    res: dict[str, Any] = {}
    for label, peer, mode in [("floor", None, ""), *subjects(args, work)]:
        if peer is not None and peer.error:
            rows.append([label, "–", peer.error, "", "", load()])
            continue
        walls, failed = [], 0
        era = "no MCP: 64 × anyio.run_process(['bash','-c','sleep 0.5'])"
        try:
            for rnd in range(args.rounds):
                progress(f"concurrency {label} round {rnd + 1}")
                if peer is None:
                    walls.append(await floor_concurrency(count))
                    continue
                async with connect(peer, work / f"{peer.name}.stderr", mode) as sess:
                    era = sess.era
                    await checked_call(sess.client, peer.sleep())  # warm-up
                    outcomes: list[bool] = []

                    async def one(
                        c: Client = sess.client, p: peers.Peer = peer, o: list[bool] = outcomes
                    ) -> None:
                        try:
                            await checked_call(c, p.sleep())
                            o.append(True)
                        except Exception:  # noqa: BLE001
                            o.append(False)

                    t0 = time.perf_counter()
                    with anyio.fail_after(args.concurrency_timeout):
                        async with anyio.create_task_group() as tg:
                            for _ in range(count):
                                tg.start_soon(one)
                    walls.append(time.perf_counter() - t0)
                    failed += outcomes.count(False)
        except TimeoutError:
            rows.append(
                [label, era, f"> {args.concurrency_timeout:.0f} s (gave up)", "", "", load()]
            )
            res[label] = {"timeout": args.concurrency_timeout}
            continue
        except Exception as exc:  # noqa: BLE001
            rows.append([label, era, f"failed: {type(exc).__name__}: {exc}"[:200], "", "", load()])
            continue
        res[label] = {"walls": walls, "failed": failed, "era": era}
        rows.append(
            [
                label,
                era,
                f"{statistics.median(walls):.3f}"
                + (f" ({min(walls):.3f}–{max(walls):.3f})" if len(walls) > 1 else ""),
                str(failed),
                "",
                load(),
            ]
        )
    ours = (
        statistics.median(res["mcp-harbor"]["walls"])
        if "walls" in res.get("mcp-harbor", {})
        else None
    )
    for r in rows:
        w = res.get(r[0], {})
        if "walls" in w:
            r[4] = ratio(ours, statistics.median(w["walls"]))
        elif "timeout" in w:
            r[4] = f"< {ratio(ours, w['timeout'])}"
    RAW["concurrency"] = res
    table(
        [
            "server",
            "protocol era",
            "wall s for all 64",
            "failed calls",
            "mcp-harbor / this",
            "load",
        ],
        rows,
    )
    if ours is not None:
        say(
            f"Target: all 64 done in under 0.8 s: **{'met' if ours < 0.8 else 'MISSED'}** ({ours:.3f} s)."
        )
        say()


# ------------------------------------------------------------------ 3 scale


def raw_list(params: Any, lists: int, keep: Path | None = None) -> list[float]:
    """``tools/list`` timed with a bare JSON-RPC client over the same stdio
    pipe (handshake era, no parsing of the answer): what the server and the
    pipe cost, without the SDK client's validation of the result. The last
    answer line is written to `keep`, if given."""
    client = RawClient([params.command, *params.args], params.env, "2025-11-25")
    try:
        out = []
        for i in range(lists + 1):
            t0 = time.perf_counter()
            line = client.answer_line("tools/list", {})
            if i:  # the first one is a warm-up
                out.append((time.perf_counter() - t0) * 1000)
        RAW.setdefault("list_bytes", []).append(len(line))
        if keep is not None:
            keep.write_bytes(line)
        return out
    finally:
        client.close()


def sdk_client_work(answer: Path) -> dict[str, Any]:
    """`bench/sdk_parse.py` on a recorded ``tools/list`` answer: the SDK
    client's own parsing of it in a fresh process, as is and without the
    tools' schemas."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve().parent / "sdk_parse.py"), str(answer)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:] or ["failed"]}
    return dict(json.loads(done.stdout))


def proc_children_cpu_s(pid: int | None) -> float:
    """cutime + cstime of `pid` in seconds: its children that it has reaped
    (for mcp-harbor: the bash processes that read the scripts)."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


async def harbor_ready(folder: Path, work: Path, lists: int) -> dict[str, Any]:
    """Two starts of mcp-harbor over `folder` on one fresh state folder: the
    first with no checker cache (cold, as on a first start or after an
    upgrade), the second with the verdicts the first one kept (warm, as on
    every later start). `tools/list` and RSS are measured on the second."""
    state = fresh(work, "scale-state-")
    peer = peers.harbor(work, state=state)
    assert peer.params is not None
    peer.params.args = [
        a if a != str(work / "harbor-exports") else str(folder) for a in peer.params.args
    ]
    out: dict[str, float] = {}
    for start in ("cold", "warm"):
        t0 = time.perf_counter()
        async with connect(peer, work / "harbor-scale.stderr") as sess:
            tools = await sess.client.list_tools()
            ready = time.perf_counter() - t0
            out["ready_s" if start == "cold" else "ready_warm_s"] = ready
            # the server's own CPU up to ready, steadier than wall time on a
            # shared machine; its children's (bash reading the scripts) separately
            out["cpu_s" if start == "cold" else "cpu_warm_s"] = proc_cpu_s(sess.pid)
            if start == "cold":
                out["children_cpu_s"] = proc_children_cpu_s(sess.pid)
            if start == "cold":
                continue
            count = len(tools.tools)
            samples, fetched, rss, hwm = await listing_and_memory(sess, lists)
    answer = work / f"harbor-list-{count}.json"
    raw = await anyio.to_thread.run_sync(raw_list, peer.params, lists, answer)
    client_work = await anyio.to_thread.run_sync(sdk_client_work, answer)
    answer.unlink()
    return {
        **out,
        "client_work": client_work,
        "tools": count,
        "list_ms": statistics.median(samples),
        "fetch_list_ms": statistics.median(fetched),
        "raw_list_ms": statistics.median(raw),
        "rss_mib": rss,
        "hwm_mib": hwm,
    }


async def listing_and_memory(
    sess: Any, lists: int
) -> tuple[list[float], list[float], float, float]:
    """`lists` timed ``tools/list`` calls (ms) as a client makes them (the
    SDK serves its own copy while the answer's ``ttlMs`` lasts), `lists`
    more that fetch from the server (``cache_mode="refresh"``), then the
    server's RSS and peak RSS (MiB)."""
    samples, fetched = [], []
    for _ in range(lists):
        t1 = time.perf_counter()
        await sess.client.list_tools()
        samples.append((time.perf_counter() - t1) * 1000)
    for _ in range(lists):
        t1 = time.perf_counter()
        await sess.client.list_tools(cache_mode="refresh")
        fetched.append((time.perf_counter() - t1) * 1000)
    rss = proc_kib(sess.pid, "VmRSS") / 1024 if sess.pid else float("nan")
    hwm = proc_kib(sess.pid, "VmHWM") / 1024 if sess.pid else float("nan")
    return samples, fetched, rss, hwm


async def shellmcp_ready(count: int, work: Path, lists: int) -> dict[str, Any]:
    venv = peers.PEERS / "shellmcp"
    t0 = time.perf_counter()
    server = await anyio.to_thread.run_sync(
        peers.shellmcp_generate, venv, shellmcp_yaml(count), work / f"shellmcp-scale-{count}"
    )
    generate = time.perf_counter() - t0
    peer = peers.Peer(
        "shellmcp",
        params=peers.StdioServerParameters(
            command=str(venv / "bin" / "python"), args=[str(server)], env=dict(os.environ)
        ),
    )
    t0 = time.perf_counter()
    async with connect(peer, work / "shellmcp-scale.stderr") as sess:
        tools = await sess.client.list_tools()
        ready = time.perf_counter() - t0
        samples, fetched, rss, hwm = await listing_and_memory(sess, lists)
    answer = work / f"shellmcp-list-{count}.json"
    raw = await anyio.to_thread.run_sync(raw_list, peer.params, lists, answer)
    client_work = await anyio.to_thread.run_sync(sdk_client_work, answer)
    answer.unlink()
    return {
        "client_work": client_work,
        "ready_s": ready,
        "generate_s": generate,
        "tools": len(tools.tools),
        "list_ms": statistics.median(samples),
        "fetch_list_ms": statistics.median(fetched),
        "raw_list_ms": statistics.median(raw),
        "rss_mib": rss,
        "hwm_mib": hwm,
    }


async def bench_scale(args: argparse.Namespace, work: Path) -> None:
    say("## 3. Scale of the configuration: generated realistic exports")
    say()
    say(
        "Start to ready = spawn of the server to the first successful `tools/list` "
        "(load, check, register), on a first start (no checker cache) and on the next "
        "start (the verdicts the first one kept). CPU = the server's own, and on a first "
        "start the bash processes that read the scripts. `tools/list` = median of later "
        "calls, each the whole list in one answer: as a client makes them (the SDK client "
        "serves its own copy while the answer's `ttlMs` lasts), then fetching from the server "
        '(`cache_mode="refresh"`), then a raw JSON-RPC client\'s. RSS after listing.'
    )
    say()
    rows, res = [], {}
    for count in args.scale:
        folder = work / f"scale-{count}"
        if not folder.exists():
            progress(f"generating {count} exports")
            harbor_exports(folder, count)
        lists = 20 if count <= 1000 else 5
        for rnd in range(args.scale_rounds):
            progress(f"scale {count} round {rnd + 1}: mcp-harbor serve (load {load()})")
            try:
                h = await harbor_ready(folder, work, lists)
            except Exception as exc:  # noqa: BLE001
                rows.append(
                    [f"mcp-harbor, {count}", f"failed: {exc}"[:200], "", "", "", "", "", load()]
                )
                continue
            t0 = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "mcp_harbor",
                    "--log-level",
                    "warning",
                    "tools",
                    "--exports",
                    str(folder),
                    "--json",
                ],
                capture_output=True,
                env=peers.harbor_env(work),
            )
            h["tools_cli_s"] = time.perf_counter() - t0
            h["load"] = os.getloadavg()[0]
            res.setdefault(f"mcp-harbor/{count}", []).append(h)
            s = None
            if args.peer_objs["shellmcp"].error is None and rnd == 0:
                progress(f"scale {count}: shellmcp")
                try:
                    s = await shellmcp_ready(count, work, lists)
                    s["load"] = os.getloadavg()[0]
                    res.setdefault(f"shellmcp/{count}", []).append(s)
                except Exception as exc:  # noqa: BLE001
                    res.setdefault(f"shellmcp/{count}", []).append({"error": str(exc)[:200]})
            rows.append(
                [
                    f"mcp-harbor, {count} (round {rnd + 1})",
                    f"{h['tools']:.0f}",
                    f"{h['ready_s']:.2f} / {h['ready_warm_s']:.2f} "
                    f"(CPU {h['cpu_s']:.2f} + bash {h['children_cpu_s']:.2f} / {h['cpu_warm_s']:.2f})",
                    f"{h['list_ms']:.1f} / {h['fetch_list_ms']:.1f} / {h['raw_list_ms']:.1f}",
                    f"{h['rss_mib']:.0f} (peak {h['hwm_mib']:.0f})",
                    f"{h['tools_cli_s']:.2f}",
                    "",
                    f"{h['load']:.2f}",
                ]
            )
            if s is not None:
                rows.append(
                    [
                        f"shellmcp, {count}",
                        f"{s['tools']:.0f}",
                        f"{s['ready_s']:.2f} (+ generate {s['generate_s']:.2f})",
                        f"{s['list_ms']:.1f} / {s['fetch_list_ms']:.1f} / {s['raw_list_ms']:.1f}",
                        f"{s['rss_mib']:.0f} (peak {s['hwm_mib']:.0f})",
                        "–",
                        f"ready {ratio(h['ready_s'], s['ready_s'])}, list {ratio(h['list_ms'], s['list_ms'])} / {ratio(h['raw_list_ms'], s['raw_list_ms'])}, "
                        f"RSS {ratio(h['rss_mib'], s['rss_mib'])}",
                        f"{s['load']:.2f}",
                    ]
                )
    if args.peer_objs["shellmcp"].error:
        rows.append(["shellmcp", args.peer_objs["shellmcp"].error, "", "", "", "", "", ""])
    rows.append(
        ["mcp-shell-server", "n/a: one generic tool, nothing to configure", "", "", "", "", "", ""]
    )
    RAW["scale"] = res
    work_rows = []
    for key, runs in res.items():
        cw = next((r.get("client_work") for r in runs if r.get("client_work")), None)
        if not cw:
            continue
        if "error" in cw:
            work_rows.append([key, f"failed: {cw['error']}", "", "", ""])
            continue
        work_rows.append(
            [
                key.replace("/", ", "),
                f"{cw['as_is']['bytes'] / 1e6:.2f}",
                f"{cw['as_is']['ms']:.1f}",
                f"{cw['no_output_schema']['ms']:.1f} ({cw['no_output_schema']['bytes'] / 1e6:.2f} MB)",
                f"{cw['no_schemas']['ms']:.1f} ({cw['no_schemas']['bytes'] / 1e6:.2f} MB)",
            ]
        )
    table(
        [
            "server, exports",
            "tools listed",
            "start to ready s (mcp-harbor: first / next start)",
            "tools/list ms: SDK client / SDK client fetching / raw JSON-RPC",
            "RSS MiB",
            "`mcp-harbor tools --json` s",
            "mcp-harbor / this",
            "load",
        ],
        rows,
    )
    at = res.get("mcp-harbor/1000")
    if at:
        ready = statistics.median(x["ready_s"] for x in at)
        warm = statistics.median(x["ready_warm_s"] for x in at)
        lst = statistics.median(x["list_ms"] for x in at)
        fetch_lst = statistics.median(x["fetch_list_ms"] for x in at)
        raw_lst = statistics.median(x["raw_list_ms"] for x in at)
        rss = statistics.median(x["rss_mib"] for x in at)
        say(
            f"Targets at 1,000: ready < 2 s on a start after the first **{'met' if warm < 2 else 'MISSED'}** "
            f"({warm:.2f} s; first start {ready:.2f} s: {'met' if ready < 2 else 'MISSED'}); "
            f"`tools/list` < 50 ms **{'met' if lst < 50 else 'MISSED'}** ({lst:.1f} ms through the SDK client, "
            f"which serves its copy while `ttlMs` lasts; fetching {fetch_lst:.1f} ms: "
            f"{'met' if fetch_lst < 50 else 'MISSED'}; "
            f"{raw_lst:.1f} ms server + pipe, raw JSON-RPC: {'met' if raw_lst < 50 else 'MISSED'}); "
            f"RSS < 150 MB **{'met' if rss * 1.048576 < 150 else 'MISSED'}** ({rss * 1.048576:.0f} MB)."
        )
        say()
    if work_rows:
        say(
            "The SDK client's own work on one `tools/list` answer (the last one the raw client got), "
            "in a fresh process and without a server (`bench/sdk_parse.py`: the SDK's stdio line parse, "
            "then its per-version check and result model): as the server sent it, and the same answer "
            "with every tool's `outputSchema` removed, or with every schema removed. This is the part of "
            "the SDK column above that no server can take off the client, short of sending less."
        )
        say()
        table(
            [
                "answer of",
                "MB",
                "SDK client's parse, ms",
                "without outputSchema, ms",
                "without any schema, ms",
            ],
            work_rows,
        )


# ------------------------------------------------------------------ 4 output volume


def make_file(path: Path, size: int) -> Path:
    if path.exists() and path.stat().st_size == size:
        return path
    chunk = (b"x" * 127 + b"\n") * (MIB // 128)
    with open(path, "wb") as f:
        for _ in range(size // MIB):
            f.write(chunk)
    return path


def floor_output(path: Path, sink: Path) -> float:
    t0 = time.perf_counter()
    with open(sink, "wb") as out:
        subprocess.run(["bash", "-c", 'cat -- "$1"', "_", str(path)], stdout=out, check=True)
    wall = time.perf_counter() - t0
    sink.unlink()
    return wall


async def bench_output(args: argparse.Namespace, work: Path) -> None:
    big = args.output_mib * MIB
    small = args.peer_output_mib * MIB
    say(
        f"## 4. Output volume: a step printing {args.output_mib} MiB (peers: {args.peer_output_mib} MiB)"
    )
    say()
    say(
        "Throughput = bytes printed / wall time of the call. Peak growth = the server's VmHWM "
        "after the call minus its VmRSS before (VmHWM reset through /proc/PID/clear_refs first)."
    )
    say()
    files = {
        big: make_file(work / f"out-{args.output_mib}m.txt", big),
        small: make_file(work / f"out-{args.peer_output_mib}m.txt", small),
    }
    rows, res = [], {}
    for size in sorted({big, small}, reverse=True):
        walls = [
            await anyio.to_thread.run_sync(floor_output, files[size], work / "sink")
            for _ in range(2)
        ]
        w = min(walls)
        res[f"floor/{size // MIB}"] = {"wall_s": w}
        rows.append(
            [
                f"floor (bash -c cat > file), {size // MIB} MiB",
                f"{w:.2f}",
                f"{size / w / 1e6:.0f}",
                "–",
                "–",
                "",
                load(),
            ]
        )
    harbor = peers.harbor(work, state=fresh(work, "state-"))
    plan = [("mcp-harbor", harbor, big), ("mcp-harbor", harbor, small)]
    plan += [(n, args.peer_objs[n], small) for n in ("mcp-shell-server", "shellmcp")]
    ours: dict[int, float] = {}
    for label, peer, size in plan:
        if peer.error:
            rows.append([label, peer.error, "", "", "", "", ""])
            continue
        progress(f"output {label} {size // MIB} MiB (load {load()})")
        try:
            async with connect(peer, work / f"{peer.name}.stderr") as sess:
                await checked_call(sess.client, peer.echo("warm"))
                rss0 = proc_kib(sess.pid, "VmRSS") / 1024
                reset = reset_peak(sess.pid)
                t0 = time.perf_counter()
                with anyio.fail_after(args.output_timeout):
                    result = await sess.client.call_tool(*peer.cat(str(files[size])))
                wall = time.perf_counter() - t0
                hwm = proc_kib(sess.pid, "VmHWM") / 1024
                returned = len(json.dumps(result.model_dump(mode="json")))
        except Exception as exc:  # noqa: BLE001
            rows.append(
                [
                    f"{label}, {size // MIB} MiB",
                    f"failed: {type(exc).__name__}: {exc}"[:200],
                    "",
                    "",
                    "",
                    "",
                    load(),
                ]
            )
            continue
        mbps = size / wall / 1e6
        if label == "mcp-harbor":
            ours[size] = mbps
        res[f"{label}/{size // MIB}"] = {
            "wall_s": wall,
            "rss0_mib": rss0,
            "hwm_mib": hwm,
            "reset": reset,
            "is_error": result.is_error,
            "result_bytes": returned,
        }
        note = "" if not result.is_error else " (tool error)"
        rows.append(
            [
                f"{label}, {size // MIB} MiB{note}",
                f"{wall:.2f}",
                f"{mbps:.0f}",
                f"{rss0:.0f} → {hwm:.0f}",
                f"{hwm - rss0:+.0f}",
                f"{returned / MIB:.2f} MiB",
                load(),
            ]
        )
    for r in rows:  # last column: mcp-harbor's MB/s at the same size / this row's
        for size, mbps in ours.items():
            same = (
                r[0].startswith(("floor", "mcp-shell-server", "shellmcp"))
                and f" {size // MIB} MiB" in r[0]
            )
            try:
                theirs = float(r[2])
            except ValueError:
                continue
            if same and theirs > 0:
                r[5] = (r[5] + "; " if r[5] else "") + f"harbor MB/s / this {mbps / theirs:.2f}×"
    RAW["output"] = res
    table(
        [
            "server, size",
            "wall s",
            "MB/s",
            "server RSS → peak MiB",
            "peak growth MiB",
            "result size / ratio",
            "load",
        ],
        rows,
    )
    h = res.get(f"mcp-harbor/{args.output_mib}")
    if h:
        mbps = big / h["wall_s"] / 1e6
        growth = h["hwm_mib"] - h["rss0_mib"]
        say(
            f"Target ({args.output_mib} MiB): ≥ 300 MB/s **{'met' if mbps >= 300 else 'MISSED'}** ({mbps:.0f} MB/s); "
            f"peak growth < 50 MB **{'met' if growth * 1.048576 < 50 else 'MISSED'}** ({growth * 1.048576:+.0f} MB)."
        )
        say()


# ------------------------------------------------------------------ 5 HTTP


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _http_loads(spec: str) -> list[tuple[str, str, int, bool, str]]:
    """``sdk:1,sdk:2,raw:1,raw:1@tmpfs,sdk:1/argv`` -> (label, mode, processes,
    tmpfs, tool): ``/argv`` calls ``nothing_argv`` (``argv: ["true"]``, exec'd)
    instead of ``nothing`` (``run: "true"``, a bash step)."""
    out = []
    for item in spec.split(","):
        item, _, step = item.partition("/")
        if step not in ("", "argv"):
            raise SystemExit(f"--http-loads: unknown step {step!r} in {item!r}: only /argv")
        item, _, where = item.partition("@")
        mode, _, procs = item.partition(":")
        n = int(procs or 1)
        what = {
            "sdk": "SDK clients",
            "legacy": "SDK clients, 2025 handshake era",
            "raw": "raw JSON-RPC clients (httpx2)",
        }[mode]
        label = f"{what}, {n} process{'es' if n > 1 else ''}"
        if where == "tmpfs":
            label += "; runs dir + audit DB on tmpfs"
        if step == "argv":
            label += '; step `argv: ["true"]`'
        out.append((label, mode, n, where == "tmpfs", "nothing_argv" if step else "nothing"))
    return out


async def bench_http(args: argparse.Namespace, work: Path) -> None:
    clients, per = args.http_clients, args.http_calls
    loads = _http_loads(args.http_loads)
    say(
        f'## 5. HTTP: {clients} concurrent clients × {per} calls of a trivial export (`run: "true"`; rows marked `argv` call the same as `argv: ["true"]`), bearer token'
    )
    say()
    say(
        "Load generators (each in its own process(es), `bench/http_load.py`, on the same machine as the "
        "server): "
        + "; ".join(label for label, *_ in loads)
        + ". The SDK client is what a real MCP client costs; the raw client sends the same 2026-07-28 "
        "`tools/call` POST with a plain httpx2 client, so that less of the 2 cores goes to the load "
        "generator. CPU per call: the server process (user+system), its finished children (the "
        "steps: bash running `true`, or `/usr/bin/true` exec'd), and the load generator process(es)."
    )
    say()
    env = peers.harbor_env(work)
    exports = peers.write_harbor_exports(work / "harbor-exports")
    rows, res = [], []
    n_rounds = args.rounds if not args.quick else 1
    pyspy = Path(sys.executable).parent / "py-spy"
    loader = Path(__file__).resolve().parent / "http_load.py"
    plan = [(rnd, load_) for rnd in range(n_rounds) for load_ in loads]
    if pyspy.exists():
        plan.append((n_rounds, loads[0]))  # one extra round under py-spy, not counted
    for run_no, (rnd, (label, mode, procs, on_tmpfs, tool)) in enumerate(plan):
        profiled = rnd == n_rounds
        state = args.tmpfs if on_tmpfs and args.tmpfs is not None else work
        tokens, db = work / f"tokens-{run_no}.json", state / f"http-{run_no}.db"
        tok = subprocess.run(
            [sys.executable, "-m", "mcp_harbor", "token", "add", "bench", "--tokens", str(tokens)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        token = tok.stdout.strip().split()[-1]
        port = free_port()
        log = work / f"http-{run_no}.stderr"
        argv = [
            sys.executable,
            "-m",
            "mcp_harbor",
            "--log-level",
            "warning",
            "serve",
            "--exports",
            str(exports),
            "--runs-dir",
            str(state / f"http-runs-{run_no}"),
            "--transport",
            "http",
            "--port",
            str(port),
            "--tokens",
            str(tokens),
            "--db",
            str(db),
        ]
        probe_out = work / f"http-{run_no}.probe.json"
        server_env = env if profiled else loopprobe.server_env(env, probe_out)
        with open(log, "wb") as sink:
            proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT, env=server_env)
        gens: list[subprocess.Popen[str]] = []
        try:
            deadline = time.monotonic() + 30
            while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"HTTP server did not start: {log.read_text()[-500:]}")
                await anyio.sleep(0.05)
            url = f"http://127.0.0.1:{port}/mcp"
            share = [clients // procs + (1 if i < clients % procs else 0) for i in range(procs)]
            gens = [
                subprocess.Popen(
                    [sys.executable, str(loader), mode, url, token, str(n), str(per), tool],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    env=env,
                )
                for n in share
            ]
            for g in gens:
                assert g.stdout is not None
                line = await anyio.to_thread.run_sync(g.stdout.readline)
                if line.strip() != "ready":
                    raise RuntimeError(f"load generator did not start: {line!r}")
            progress(
                f"http round {rnd + 1}{' (profiled)' if profiled else ''}, {label}: "
                f"{clients} clients × {per} calls (load {load()})"
            )
            spy = None
            if profiled:
                spy = subprocess.Popen(
                    [
                        str(pyspy),
                        "record",
                        "--format",
                        "raw",
                        "--rate",
                        "1000",
                        "--nonblocking",
                        "--threads",
                        "-o",
                        str(work / "http.pyspy.txt"),
                        "-p",
                        str(proc.pid),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                await anyio.sleep(1.0)
            sproc = psutil.Process(proc.pid)
            c0 = sproc.cpu_times()
            t0 = time.perf_counter()
            for g in gens:
                assert g.stdin is not None
                g.stdin.write("\n")
                g.stdin.flush()
            outs = []
            for g in gens:
                assert g.stdout is not None
                outs.append(json.loads(await anyio.to_thread.run_sync(g.stdout.readline)))
            wall = time.perf_counter() - t0
            c1 = sproc.cpu_times()
            if spy is not None:
                spy.send_signal(2)
                spy.wait(timeout=60)
            server_cpu = (c1.user + c1.system) - (c0.user + c0.system)
            steps_cpu = (c1.children_user + c1.children_system) - (
                c0.children_user + c0.children_system
            )
        finally:
            for g in gens:
                g.wait(timeout=60)
            proc.terminate()
            proc.wait(timeout=20)
        lat = [x for o in outs for x in o["lat"]]
        errors = [e for o in outs for e in o["errors"]]
        client_cpu = sum(o["cpu"] for o in outs)
        n = max(1, len(lat))
        probed = loopprobe.figures(
            probe_out, min(o["t0"] for o in outs), max(o["t0"] + o["wall"] for o in outs)
        )
        audit = subprocess.run(
            [
                sys.executable,
                "-m",
                "mcp_harbor",
                "audit",
                "--db",
                str(db),
                "--json",
                "--limit",
                "100000",
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        lines = [json.loads(x) for x in audit.stdout.splitlines() if x.strip()]
        if profiled:
            raw = work / "http.pyspy.txt"
            if raw.exists():
                shutil.copy(raw, RESULTS / "http-server.pyspy.txt")
                RAW["http_profile"] = {
                    "load": label,
                    "wall_s": wall,
                    "calls": len(lat),
                    "server_cpu_s": server_cpu,
                    "rows": layers.top_inclusive(raw, len(lat) + clients),
                }
            continue
        audited = sum(1 for x in lines if x.get("tool") == tool)
        expected = clients * (per + 1)
        r = {
            "load_generator": label,
            "mode": mode,
            "processes": procs,
            "wall_s": wall,
            "calls": len(lat),
            "throughput": len(lat) / wall,
            "p50": pct(lat, 0.5),
            "p99": pct(lat, 0.99),
            "mean": statistics.fmean(lat),
            "errors": len(errors),
            "first_errors": errors[:3],
            "audited": audited,
            "expected_audited": expected,
            "server_cpu_s": server_cpu,
            "steps_cpu_s": steps_cpu,
            "client_cpu_s": client_cpu,
            "load": os.getloadavg()[0],
            "audit_rc": audit.returncode,
            "probe": probed,
        }
        res.append(r)
        rows.append(
            [
                label,
                f"{rnd + 1}",
                f"{r['calls']}",
                f"{wall:.2f}",
                f"{r['throughput']:.0f}",
                f"{r['p50']:.1f}",
                f"{r['p99']:.1f}",
                f"{r['errors']}",
                f"{audited} / {expected}",
                f"{server_cpu / n * 1000:.2f} / {steps_cpu / n * 1000:.2f} / {client_cpu / n * 1000:.2f}",
                "-"
                if probed is None
                else f"{probed['stalls']} / {probed['stall_ms']:.0f} ({probed['stall_cpu_ms']:.0f})",
                "-"
                if probed is None
                else f"{probed['gc_ms'] / n:.3f} / {probed['gc_longest_ms']:.1f}",
                f"{r['load']:.2f}",
            ]
        )
    RAW["http"] = res
    table(
        [
            "load generator",
            "round",
            "calls",
            "wall s",
            "calls/s",
            "p50 ms",
            "p99 ms",
            "errors",
            "audited calls / made (incl. 1 warm-up per client)",
            "CPU ms per call: server / steps / load generator",
            "server loop stalls > 8 ms: count / ms (of which CPU)",
            "server GC: ms per call / longest ms",
            "load",
        ],
        rows,
    )
    say("No peer serves Streamable HTTP with a bearer token: this table has no peer rows.")
    say(
        "Server loop stalls: event-loop callbacks of the server that took over 8 ms during the "
        "measured calls (`bench/loopprobe`); wall time far above their CPU time means the loop "
        "waited for the GIL or for a core, and every call in flight waited with it."
    )
    say()
    if res:
        say(
            f"Little's law: {clients} clients each with one call in flight means mean latency = "
            f"{clients} / throughput, whatever the server does; p99 < 100 ms therefore needs well over "
            f"{clients / 0.1:.0f} calls/s."
        )
        say()
        for label, *_ in loads:
            mine = [x for x in res if x["load_generator"] == label]
            if not mine:
                continue
            tp = statistics.median(x["throughput"] for x in mine)
            p99 = statistics.median(x["p99"] for x in mine)
            mean = statistics.median(x["mean"] for x in mine)
            errs = sum(x["errors"] for x in mine)
            aud = all(x["audited"] == x["expected_audited"] for x in mine)
            cpu = statistics.median(
                (x["server_cpu_s"] + x["steps_cpu_s"] + x["client_cpu_s"]) / max(1, x["calls"])
                for x in mine
            )
            say(
                f"- **{label}** (median of {len(mine)}): ≥ 400 calls/s (issue 25) **{'met' if tp >= 400 else 'MISSED'}** "
                f"({tp:.0f}); p99 < 100 ms **{'met' if p99 < 100 else 'MISSED'}** ({p99:.1f} ms); "
                f"no errors **{'met' if errs == 0 else 'MISSED'}** ({errs}); every call audited "
                f"**{'met' if aud else 'MISSED'}**. Mean latency {mean:.1f} ms vs {clients} / {tp:.0f} = "
                f"{clients / tp * 1000:.1f} ms; CPU of server + steps + load generator "
                f"{cpu * 1000:.2f} ms per call, i.e. at most {2 / cpu:.0f} calls/s on 2 idle cores."
            )
        say()
    prof = RAW.get("http_profile")
    if prof:
        say(
            f"Where the server's time goes (py-spy, 1 kHz, all threads, one extra round with "
            f"{prof['load']}, not counted above: "
            f"{prof['calls']} calls in {prof['wall_s']:.1f} s, server CPU {prof['server_cpu_s']:.1f} s = "
            f"{prof['server_cpu_s'] / max(1, prof['calls']) * 1000:.1f} ms per call; load {load()}); inclusive:"
        )
        say()
        table(
            ["function (inclusive)", "ms per call", "share of busy samples"],
            [
                [r["name"], f"{r['ms_per_call']:.2f}", f"{r['share'] * 100:.0f} %"]
                for r in prof["rows"]
            ],
        )


# ------------------------------------------------------------------ 6 layers


async def profile_server(args: argparse.Namespace, work: Path) -> dict[str, Any] | None:
    pyspy = Path(sys.executable).parent / "py-spy"
    if not pyspy.exists():
        say("py-spy is not installed (`pip install py-spy`): no server profile.")
        return None
    peer = peers.harbor(work, state=fresh(work, "state-"))
    n = args.calls
    raw = work / "server.pyspy.txt"
    async with connect(peer, work / "profile.stderr") as sess:
        for _ in range(20):
            await checked_call(sess.client, peer.echo(ECHO_TEXT))
        spy = subprocess.Popen(
            [
                str(pyspy),
                "record",
                "--format",
                "raw",
                "--rate",
                "1000",
                "--nonblocking",
                "--threads",
                "-o",
                str(raw),
                "-p",
                str(sess.pid),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        await anyio.sleep(1.0)
        t0 = time.perf_counter()
        s = await timed(n, 0, lambda: checked_call(sess.client, peer.echo(ECHO_TEXT)))
        wall = time.perf_counter() - t0
        spy.send_signal(2)
        try:
            spy.wait(timeout=30)
        except subprocess.TimeoutExpired:
            spy.kill()
    if not raw.exists():
        say(
            f"py-spy produced no profile: {spy.stderr.read().decode()[-300:] if spy.stderr else ''}"
        )
        return None
    shutil.copy(raw, RESULTS / "server.pyspy.txt")
    return layers.summarize_pyspy(raw, n, wall, statistics.median(s))


async def bench_layers(args: argparse.Namespace, work: Path) -> None:
    say("## 6. What each layer costs a call")
    say()
    progress(f"layers in-process (load {load()})")
    rows = await layers.measure(work / "layers", args.layer_iterations)
    RAW["layers"] = rows
    say(
        f"In-process, the library functions called directly, {args.layer_iterations} iterations each "
        f"(load {load()}); the echo export (1 string arg, 1 `run:` step)."
    )
    say()
    table(
        ["layer", "what is timed", "µs per call (median of 5 batches)"],
        [[r["layer"], r["what"], f"{r['us']:.1f}"] for r in rows],
    )
    biggest = max(rows, key=lambda r: r["us"])
    say(f"Biggest of these in-process layers: **{biggest['layer']}** ({biggest['us']:.0f} µs).")
    say()
    progress("py-spy profile of the server during a latency run")
    prof = await profile_server(args, work)
    if prof:
        RAW["profile"] = prof
        say(
            f"py-spy, 1 kHz, all threads, while the client made {args.calls} sequential echo calls "
            f"(client median {prof['client_median_ms']:.2f} ms, wall {prof['wall_s']:.1f} s, "
            f"load {load()}). Inclusive samples of each function, in ms per call and as a share of the "
            f"server's busy (non-idle) samples, all threads together:"
        )
        say()
        table(
            ["function (inclusive)", "ms per call", "share of busy samples"],
            [
                [r["name"], f"{r['ms_per_call']:.2f}", f"{r['share'] * 100:.0f} %"]
                for r in prof["rows"]
            ],
        )
        say(
            f"Busy samples: {prof['busy_ms_per_call']:.2f} ms of server CPU-side time per call "
            f"({prof['busy_samples']} samples, {prof['threads']} threads)."
        )
        say()


# ------------------------------------------------------------------ main

RESULTS = peers.CACHE / "results"
SECTIONS = {
    "latency": bench_latency,
    "concurrency": bench_concurrency,
    "scale": bench_scale,
    "output": bench_output,
    "http": bench_http,
    "layers": bench_layers,
}


def machine() -> str:
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    mem = psutil.virtual_memory().total / 2**30
    return (
        f"{os.cpu_count()} CPUs ({model}), {mem:.0f} GiB RAM, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


async def main_async(args: argparse.Namespace) -> int:
    RESULTS.mkdir(parents=True, exist_ok=True)
    # The peers' own stdout chatter (shellmcp prints a banner on the wire) is logged by the
    # SDK client as parse errors: keep that out of the tables.
    logging.getLogger("mcp.client.stdio").setLevel(logging.CRITICAL)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
    ).stdout.strip()
    say("# mcp-harbor side by side with the peers")
    say()
    say(f"- date: {time.strftime('%Y-%m-%d %H:%M %Z')}; commit {commit}")
    say(f"- machine: {machine()}; load average at start {load()} (1/5/15 min)")
    say(f"- command: `{' '.join([Path(sys.executable).name, *sys.argv])}`")
    shm = Path("/dev/shm")
    with (
        tempfile.TemporaryDirectory(prefix="harbor-side-") as tmp,
        tempfile.TemporaryDirectory(
            prefix="harbor-side-", dir=shm if shm.is_dir() else None
        ) as tmpfs,
    ):
        work = Path(tmp)
        args.tmpfs = Path(tmpfs) if shm.is_dir() else None
        args.peer_objs = {
            "mcp-shell-server": peers.mcp_shell_server(progress, 4 * args.peer_output_mib * MIB),
            "shellmcp": peers.shellmcp(progress, work),
        }
        for p in [peers.harbor(work), *args.peer_objs.values()]:
            say(
                f"- {p.name}: {p.error or p.version}"
                + (f"; {'; '.join(p.notes)}" if p.notes else "")
            )
        say()
        for name in args.only:
            t0 = time.perf_counter()
            try:
                await SECTIONS[name](args, work)
            except Exception as exc:  # noqa: BLE001
                say(f"**{name} failed**: {type(exc).__name__}: {exc}")
                say()
            progress(f"{name} took {time.perf_counter() - t0:.0f} s")
    # The temp folders are gone: write their freed inodes back now, so that
    # whatever runs next (another run, a test suite) does not pay for them
    # for minutes (see bench_latency.SETTLE_S).
    os.sync()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (RESULTS / f"{stamp}.md").write_text("\n".join(OUT) + "\n")
    (RESULTS / f"{stamp}.json").write_text(json.dumps(RAW, indent=1, default=str))
    print(f"\n(written to {RESULTS / stamp}.md and .json)", file=sys.stderr)
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--quick", action="store_true", help="fewer calls, 1 round, scale up to 1,000 (~5 min)"
    )
    p.add_argument("--only", help=f"comma-separated sections: {','.join(SECTIONS)}")
    p.add_argument(
        "--rounds", type=int, help="rounds of latency/concurrency/http (default 3; quick 1)"
    )
    p.add_argument(
        "--calls", type=int, help="sequential calls per latency series (default 500; quick 150)"
    )
    p.add_argument("--scale", help="export counts (default 100,1000,5000; quick 100,1000)")
    p.add_argument(
        "--output-mib", type=int, default=1024, help="mcp-harbor output size (default 1024)"
    )
    p.add_argument(
        "--peer-output-mib", type=int, default=16, help="peers' output size (default 16)"
    )
    p.add_argument("--http-clients", type=int, default=32)
    p.add_argument("--http-calls", type=int, default=50)
    p.add_argument(
        "--http-loads",
        default="sdk:1,sdk:2,raw:1,sdk:1/argv",
        help="HTTP load generators, MODE:PROCESSES[@tmpfs][/argv] (sdk, legacy or raw; @tmpfs: runs dir "
        'and audit DB on /dev/shm; /argv: the trivial export as `argv: ["true"]` instead of `run: "true"`), '
        "comma-separated (default sdk:1,sdk:2,raw:1,sdk:1/argv)",
    )
    p.add_argument("--concurrency-timeout", type=float, default=90.0)
    p.add_argument(
        "--busy-runs",
        type=int,
        default=3000,
        help="an extra mcp-harbor row whose runs dir already holds this many recent runs (0: none)",
    )
    p.add_argument(
        "--output-timeout", type=float, default=120.0, help="seconds for one output-volume call"
    )
    p.add_argument(
        "--no-settle",
        dest="settle",
        action="store_false",
        help=f"skip the sync and the {SETTLE_S:.0f} s wait before the latency section "
        "(see bench_latency.SETTLE_S)",
    )
    args = p.parse_args()
    args.rounds = args.rounds or (1 if args.quick else 3)
    args.calls = args.calls or (150 if args.quick else 500)
    args.scale = [
        int(x) for x in (args.scale or ("100,1000" if args.quick else "100,1000,5000")).split(",")
    ]
    args.scale_rounds = 1 if args.quick else 2
    args.layer_iterations = 2000 if args.quick else 10000
    args.only = args.only.split(",") if args.only else list(SECTIONS)
    for name in args.only:
        if name not in SECTIONS:
            p.error(f"unknown section {name!r}")
    return anyio.run(main_async, args)


if __name__ == "__main__":
    sys.exit(main())
