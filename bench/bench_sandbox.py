#!/usr/bin/env python
"""What confining a step costs, side by side with the peers' sandboxes.

    python bench/bench_sandbox.py [--calls 600]

Each row runs a one-step pipeline (``argv: [/bin/true]``, or ``run: 'true'``
where the row says so, measured against its own floor) through
mcp-harbor's own `LocalExecutor`, the way a call does (plan, spawn, wait,
read the logs), in turns of 25 runs per row so that a change of load hits
every row alike:

- ``--sandbox off``: unconfined, the floor;
- ``auto`` without ``sandbox:``: what every step pays (Landlock, no
  capabilities on a root server, the server's folders covered);
- each ``sandbox:`` key alone, then all of them;
- the same for a server that is not root (the probe's answer of such a
  server: ``unshare``/``prlimit`` programs instead of the spawning thread);

and, for the peers, the same ``/bin/true`` spawned from Python plain, under
``unshare -rn`` and under bubblewrap as Claude Code and Codex start it
(``bwrap --ro-bind / / --dev /dev --proc /proc --unshare-net``; a row says
so when bwrap is not installed: ``apt install bubblewrap``).

Prints one markdown table: median and p90 per row, and each row's
difference to ``--sandbox off``. A script, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

from mcp_harbor.check import load_and_check
from mcp_harbor.runner import LocalExecutor, RunRequest
from mcp_harbor.runner.sandbox import Sandbox, support

SANDBOXES = {
    "auto, no sandbox:": None,
    "network: none": "{network: none}",
    "network: loopback": "{network: loopback}",
    "readable: [.], writable: [out]": "{readable: [.], writable: [out]}",
    "limits: (all five)": (
        "{limits: {cpu_seconds: 60, memory_mb: 1024, processes: 64, file_size_mb: 100, "
        "open_files: 256}}"
    ),
    "everything": (
        "{network: none, readable: [.], writable: [out], limits: {cpu_seconds: 60, "
        "memory_mb: 1024, processes: 64, file_size_mb: 100, open_files: 256}}"
    ),
}


def export_text(name: str, sandbox: str | None, shell: bool = False) -> str:
    lines = [f"name: bench_{name}", "description: bench", "steps:"]
    lines += ["  - name: s", "    run: 'true'" if shell else "    argv: [/bin/true]"]
    if sandbox is not None:
        lines.insert(2, f"sandbox: {sandbox}")
    return "\n".join(lines) + "\n"


def harbor_rows(tmp: Path) -> dict[str, Callable[[], Awaitable[None]]]:
    (tmp / "work" / "out").mkdir(parents=True)
    exports = tmp / "exports"
    exports.mkdir()
    # Where a server keeps its state by default (~/.local/state): what a
    # server that is not root pays for Landlock's rules depends on how many
    # entries the folders on the way to it hold.
    state = Path.home() / ".local" / "state" / f"mcp-harbor-bench-{os.getpid()}"
    (state / "runs").mkdir(parents=True)
    config = Path.home() / ".config" / f"mcp-harbor-bench-{os.getpid()}"
    config.mkdir(parents=True)
    hidden = [state, config]
    sup = support()
    plain = dataclasses.replace(
        sup, root=False, thread_netns=False, thread_mounts=False, pids_cgroup=None,
        loopback_tools=tuple(shutil.which(n) or n for n in ("sh", "ip", "setpriv")),  # type: ignore[arg-type]
    )  # fmt: skip
    executors = {
        "root": LocalExecutor(Sandbox("auto", hidden, probed=sup)),
        "user": LocalExecutor(Sandbox("auto", hidden, probed=plain)),
        "off": LocalExecutor(Sandbox("off")),
    }
    rows: dict[str, Callable[[], Awaitable[None]]] = {}
    counter = iter(range(10**9))

    def row(
        executor: LocalExecutor, name: str, sandbox: str | None, shell: bool = False
    ) -> Callable[[], Awaitable[None]]:
        path = exports / f"{name}.yaml"
        path.write_text(export_text(name, sandbox, shell))
        (export,) = load_and_check([path]).accepted

        async def once() -> None:
            run_dir = state / "runs" / f"{name}-{next(counter)}"
            run_dir.mkdir()
            request = RunRequest(
                export=export,
                arguments={},
                run_id=run_dir.name,
                run_dir=run_dir,
                workdir=tmp / "work",
            )
            result = await executor.run(request)
            assert result.status == "ok", result.steps[0].stderr_tail
            shutil.rmtree(run_dir)

        return once

    rows["--sandbox off"] = row(executors["off"], "off", None)
    who = "root server" if sup.root else "this user"
    for label, sandbox in SANDBOXES.items():
        slug = "r" + str(len(rows))
        rows[f"{label} ({who})"] = row(executors["root"], slug, sandbox)
    # A run: step's limits are set by bash's own ulimit, not by prlimit.
    rows["--sandbox off, run: 'true'"] = row(executors["off"], "off_sh", None, shell=True)
    limits = SANDBOXES["limits: (all five)"]
    rows[f"limits: (all five), run: 'true' ({who})"] = row(
        executors["root"], "lim_sh", limits, shell=True
    )
    if sup.root:
        for label, sandbox in SANDBOXES.items():
            slug = "u" + str(len(rows))
            rows[f"{label} (not root: unshare, prlimit)"] = row(executors["user"], slug, sandbox)
    return rows


def peer_rows() -> dict[str, Callable[[], None] | str]:
    def spawn(argv: list[str]) -> Callable[[], None]:
        def once() -> None:
            subprocess.run(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, close_fds=True,
                start_new_session=True, check=True,
            )  # fmt: skip

        return once

    rows: dict[str, Callable[[], None] | str] = {
        "peer floor: Popen /bin/true": spawn(["/bin/true"]),
        "peer: unshare -rn /bin/true": spawn(["unshare", "-rn", "/bin/true"]),
    }
    bwrap = shutil.which("bwrap")
    bwrap_argv = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net"]
    rows["peer: bwrap (Claude Code, Codex)"] = (
        spawn([bwrap, *bwrap_argv, "/bin/true"]) if bwrap else "bwrap not installed"
    )
    return rows


async def measure(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            harbor = harbor_rows(Path(tmp))
            await _measure(harbor, calls)
        finally:
            for folder in (".local/state", ".config"):
                shutil.rmtree(Path.home() / folder / f"mcp-harbor-bench-{os.getpid()}", True)


async def _measure(harbor: dict[str, Callable[[], Awaitable[None]]], calls: int) -> None:
    peers = peer_rows()
    times: dict[str, list[float]] = {name: [] for name in [*harbor, *peers]}
    for _ in range(3):  # warm up
        for run in harbor.values():
            await run()
    turns = max(calls // 25, 1)
    for _ in range(turns):
        for name, run in harbor.items():
            for _ in range(25):
                began = time.perf_counter()
                await run()
                times[name].append(time.perf_counter() - began)
        for name, peer in peers.items():
            if isinstance(peer, str):
                continue
            for _ in range(25):
                began = time.perf_counter()
                peer()
                times[name].append(time.perf_counter() - began)
    floor = statistics.median(times["--sandbox off"]) * 1000
    peer_floor = statistics.median(times["peer floor: Popen /bin/true"]) * 1000
    print(f"{turns * 25} runs per row; kernel {os.uname().release}, uid {os.getuid()}")
    print()
    print("| row | median ms | p90 ms | over its floor ms |")
    print("|---|---|---|---|")
    for name in [*harbor, *peers]:
        peer = peers.get(name)
        if isinstance(peer, str):
            print(f"| {name} | {peer} | | |")
            continue
        values = sorted(times[name])
        median = statistics.median(values) * 1000
        p90 = values[int(len(values) * 0.9)] * 1000
        base = peer_floor if name.startswith("peer") else floor
        if "run: 'true'" in name:
            base = statistics.median(times["--sandbox off, run: 'true'"]) * 1000
        print(f"| {name} | {median:.2f} | {p90:.2f} | {median - base:+.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=600)
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    anyio.run(measure, args.calls)


if __name__ == "__main__":
    main()
