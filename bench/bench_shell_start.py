#!/usr/bin/env python
"""What starting the step's shell costs, by way of starting it, side by side.

    python bench/bench_shell_start.py [--calls 1000]

The same echo of ``$ARG_text`` is spawned from Python the way each server
starts its command, in turns of 25 spawns (so a change of load hits every
row alike), with the spawn options mcp-harbor uses (``close_fds``, a new
session, output to /dev/null):

- bash as mcp-harbor runs a ``run:`` step: the script in an anonymous
  in-memory file (memfd) read by bash from ``/dev/fd/N``, so that it never
  touches the disk nor the process list;
- the same with ``bash -c SCRIPT`` (the script in argv, visible in ``ps``) and
  from a regular file on tmpfs: what the memfd's ``/dev/fd`` open costs;
- ``bash -c`` with ``LC_ALL=C``: what bash's ``setlocale`` costs with this
  machine's locale (glibc opens one file per locale category when there is no
  locale archive);
- ``/bin/sh -c`` (what shellmcp runs: dash on Debian) and an exec of
  ``/bin/echo`` (what mcp-shell-server and an ``argv:`` step run).

Prints one markdown table: median and p90 per row, and each row's difference
to mcp-harbor's way. A script, not a test: nothing here decides pass/fail.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SCRIPT = b'echo "$ARG_text"\n'
BASH = ["/usr/bin/bash", "--noprofile", "--norc", "-eo", "pipefail"]


def spawn(argv: list[str], env: dict[str, str], keep: tuple[int, ...] = ()) -> None:
    subprocess.run(
        argv,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,
        pass_fds=keep,
    )


def ways(env: dict[str, str], script_file: Path) -> dict[str, Callable[[], None]]:
    def memfd() -> None:
        fd = os.memfd_create("harbor-step", 0)
        try:
            os.write(fd, SCRIPT)
            os.lseek(fd, 0, os.SEEK_SET)
            spawn([*BASH, f"/dev/fd/{fd}"], env, (fd,))
        finally:
            os.close(fd)

    c_locale = {**env, "LC_ALL": "C"}
    return {
        "bash, script from a memfd (`/dev/fd/N`): mcp-harbor's `run:`": memfd,
        "bash -c SCRIPT": lambda: spawn([*BASH, "-c", SCRIPT.decode()], env),
        "bash, script from a file on tmpfs": lambda: spawn([*BASH, str(script_file)], env),
        "bash -c SCRIPT, LC_ALL=C": lambda: spawn([*BASH, "-c", SCRIPT.decode()], c_locale),
        "/bin/sh -c SCRIPT (shellmcp)": lambda: spawn(["/bin/sh", "-c", SCRIPT.decode()], env),
        "exec /bin/echo (mcp-shell-server, an `argv:` step)": lambda: spawn(
            ["/bin/echo", env["ARG_text"]], env
        ),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--calls", type=int, default=1000, help="spawns per row (default 1000)")
    args = p.parse_args()
    # Keep the memfd off fd 3: CPython 3.11 then asks close_range() for an
    # empty range, gets EINVAL and falls back to listing /proc/self/fd in the
    # child. A server's memfd is never fd 3 (its loop, pipes and database
    # come first).
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(8)]
    env = {**os.environ, "ARG_text": "hello from the benchmark"}
    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        script_file = Path(tmp) / "step.sh"
        script_file.write_bytes(SCRIPT)
        rows = ways(env, script_file)
        times: dict[str, list[float]] = {name: [] for name in rows}
        for one in rows.values():  # warm-up
            for _ in range(20):
                one()
        for _ in range(max(1, args.calls // 25)):
            for name, one in rows.items():
                for _ in range(25):
                    t0 = time.perf_counter()
                    one()
                    times[name].append((time.perf_counter() - t0) * 1000)
    for fd in held:
        os.close(fd)
    base = statistics.median(next(iter(times.values())))
    print(
        f"Spawn to exit of the same echo, {len(next(iter(times.values())))} per row, "
        f"turns of 25; load {os.getloadavg()[0]:.2f}\n"
    )
    print("| way of starting it | median ms | p90 ms | vs mcp-harbor's `run:` |")
    print("|---|---:|---:|---:|")
    for name, samples in times.items():
        med = statistics.median(samples)
        p90 = sorted(samples)[int(0.9 * (len(samples) - 1))]
        print(f"| {name} | {med:.3f} | {p90:.3f} | {med - base:+.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
