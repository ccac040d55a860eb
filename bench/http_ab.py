#!/usr/bin/env python
"""Two source trees of mcp-harbor side by side over HTTP, interleaved.

    TMPDIR=/root/benchtmp python bench/http_ab.py --tree /path/before --tree /path/after \\
        [--pairs 4] [--where /dev/shm --where /root/benchtmp] [--mode raw]

For each pair and each runs-dir location, one fresh server per tree
(``serve --transport http`` with a bearer token, the tree first on
PYTHONPATH) gets 32 clients × 50 calls of ``nothing`` from
``bench/http_load.py``, the trees alternating, so that both see the same
neighbours. Prints one line per run: throughput, p50/p99, errors, audit
records, and CPU ms per call of the server (user/system from /proc), of its
finished children (the steps) and of the load generator. A tree is a folder
holding the ``mcp_harbor`` package (e.g. ``git archive COMMIT mcp_harbor | tar
-x -C DIR``).

With ``--probe``, each server also runs ``bench/loopprobe`` and the line ends
with what happened on its event loop during the measured calls: callbacks
longer than 8 ms (count, wall ms, of which CPU ms: the rest is waiting for the
GIL or a core, with every call in flight waiting too) and garbage collection
(ms per call, longest pause).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import loopprobe  # noqa: E402
import peers  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu(pid: int) -> tuple[float, ...]:
    """utime, stime, cutime, cstime of `pid`, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return tuple(int(x) / tick for x in fields[11:15])


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def one(tree: str, where: Path, mode: str, clients: int, per: int, probe: bool = False) -> str:
    work = Path(tempfile.mkdtemp(prefix="http-ab-", dir=where))
    env = peers.harbor_env(work) | {"PYTHONPATH": tree}
    if probe:
        env = loopprobe.server_env(env, work / "probe.json")
    exports = peers.write_harbor_exports(work / "exports")
    tokens, db = work / "tokens.json", work / "audit.db"
    harbor = [sys.executable, "-m", "mcp_harbor"]
    token = subprocess.run(
        [*harbor, "token", "add", "bench", "--tokens", str(tokens)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()[-1]
    port = free_port()
    server = subprocess.Popen(
        [
            *harbor,
            *("--log-level", "warning", "serve", "--exports", str(exports)),
            *("--runs-dir", str(work / "runs"), "--transport", "http", "--port", str(port)),
            *("--tokens", str(tokens), "--db", str(db)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server of {tree} did not start")
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/mcp"
        load = subprocess.Popen(
            [sys.executable, str(HERE / "http_load.py"), mode, url, token, str(clients), str(per)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert load.stdin is not None and load.stdout is not None
        if load.stdout.readline().strip() != "ready":
            raise RuntimeError("the load generator did not start")
        c0 = cpu(server.pid)
        load.stdin.write("\n")
        load.stdin.flush()
        out = json.loads(load.stdout.readline())
        c1 = cpu(server.pid)
        load.wait()
    finally:
        server.terminate()
        server.wait(timeout=20)
    audit = subprocess.run(
        [*harbor, "audit", "--db", str(db), "--json", "--limit", "100000"],
        capture_output=True,
        text=True,
        env=env,
    )
    audited = sum(1 for x in audit.stdout.splitlines() if json.loads(x).get("tool") == "nothing")
    lat = out["lat"]
    n = len(lat)
    probed = ""
    if probe:
        end = out["t0"] + out["wall"]
        probed = "; " + loopprobe.summary(work / "probe.json", out["t0"], end, n)
    d = [(b - a) / n * 1000 for a, b in zip(c0, c1, strict=True)]
    return (
        f"{n / out['wall']:.0f} calls/s, p50 {pct(lat, 0.5):.1f} ms, p99 {pct(lat, 0.99):.1f} ms, "
        f"errors {len(out['errors'])}, audited {audited}/{clients * (per + 1)}; CPU ms per call: "
        f"server {d[0] + d[1]:.2f} (user {d[0]:.2f} / system {d[1]:.2f}), steps {d[2] + d[3]:.2f}, "
        f"load generator {out['cpu'] / n * 1000:.2f}; load {os.getloadavg()[0]:.2f}" + probed
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--tree", action="append", required=True, help="PYTHONPATH of one side (may hold several)"
    )
    p.add_argument("--where", action="append", type=Path, help="runs dir parents (default TMPDIR)")
    p.add_argument("--pairs", type=int, default=4)
    p.add_argument("--mode", choices=["raw", "sdk", "legacy"], default="raw")
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--calls", type=int, default=50)
    p.add_argument("--probe", action="store_true", help="event-loop stalls and GC of each server")
    args = p.parse_args()
    wheres = args.where or [Path(tempfile.gettempdir())]
    for i in range(args.pairs):
        for where in wheres:
            for tree in args.tree:
                line = one(tree, where, args.mode, args.clients, args.calls, args.probe)
                print(f"pair {i + 1} {where} {tree}: {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
