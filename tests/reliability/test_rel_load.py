"""Issue 8, load: concurrent HTTP clients (SDK clients with bearer tokens,
2026-07-28 era) each making a mix of quick, slow, failing and cancelled
calls against one real ``mcp-harbor serve``. Proves: no server error, every
call audited exactly once with the status its kind implies, ``audit verify``
passes, no step process left behind, and the server's memory afterwards is
near where it started. CI runs 10 clients x 8 calls;
``scripts/reliability/run_full.sh`` runs 50 x 20 (HARBOR_RELIABILITY_SCALE=5
with 2.5x calls per client).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import anyio
import pytest
from _raw import figure, vm_kb
from harbor_helpers import (
    audit_json,
    audit_verify,
    bearer_client,
    http_server,
    kill_leftovers,
    pid_alive,
    token_add,
    write_export,
)

pytestmark = pytest.mark.anyio

CLIENTS = int(os.environ.get("HARBOR_LOAD_CLIENTS", "10"))
CALLS = int(os.environ.get("HARBOR_LOAD_CALLS", "8"))

EXPORT = """
    name: work
    description: quick, slow, failing or hanging work.
    args:
      n: {type: integer}
      kind: {type: string, enum: [quick, slow, fail, hang]}
    required: [n, kind]
    steps:
      - name: a
        run: |
          case "$ARG_kind" in
            quick) echo ok ;;
            slow) echo $$ >> "MARKERS/pids"; sleep 0.3 ;;
            fail) echo boom >&2; exit 3 ;;
            hang) echo $$ >> "MARKERS/pids"; sleep 30 ;;
          esac
"""
KINDS = ["quick", "slow", "fail", "hang"]
EXPECTED = {"quick": "ok", "slow": "ok", "fail": "failed", "hang": "cancelled"}


async def test_concurrent_clients_mixed_calls(tmp_path: Path) -> None:
    exports, db, tokens, markers = (
        tmp_path / "exports", tmp_path / "a.db", tmp_path / "tokens.json", tmp_path / "m",
    )  # fmt: skip
    markers.mkdir()
    write_export(exports, "work.yaml", EXPORT.replace("MARKERS", str(markers)))
    tok = token_add(tokens, "loader")
    extra = ("--tokens", str(tokens), "--db", str(db), "--keep-runs", "50")
    outcomes: Counter[str] = Counter()
    latencies: list[float] = []
    pids: list[int] = []
    with http_server(exports, tmp_path / "state", *extra) as srv:
        async with bearer_client(srv.url, tok, "auto") as warm:
            for i in range(20):
                await warm.call_tool("work", {"n": -1 - i, "kind": "quick"})
        rss_start = vm_kb(srv.pid, "VmRSS")

        async def client(c: int) -> None:
            async with bearer_client(srv.url, tok, "auto") as session:
                for i in range(CALLS):
                    n = c * CALLS + i
                    kind = KINDS[n % 4]
                    began = time.monotonic()
                    if kind == "hang":
                        with anyio.move_on_after(0.5):
                            await session.call_tool("work", {"n": n, "kind": kind})
                            outcomes["hang-finished"] += 1
                        outcomes["cancelled-by-client"] += 1
                        continue
                    result = await session.call_tool("work", {"n": n, "kind": kind})
                    latencies.append(time.monotonic() - began)
                    outcomes[f"{kind}:{'error' if result.is_error else 'ok'}"] += 1

        began = time.monotonic()
        try:
            async with anyio.create_task_group() as tg:
                for c in range(CLIENTS):
                    tg.start_soon(client, c)
            wall = time.monotonic() - began
            total = CLIENTS * CALLS
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                calls = [c for c in audit_json(db) if c["arguments"]["n"] >= 0]
                if len(calls) >= total and all(c["ended_at"] for c in calls):
                    break
                await anyio.sleep(0.2)
            pids = [int(x) for x in (markers / "pids").read_text().split()]
            left_after_5s = 0
            until = time.monotonic() + 5
            while any(pid_alive(p) for p in pids) and time.monotonic() < until:
                await anyio.sleep(0.05)
            left_after_5s = sum(pid_alive(p) for p in pids)
            await anyio.sleep(1)
            rss_end = vm_kb(srv.pid, "VmRSS")
            log = srv.stderr()
        finally:
            kill_leftovers(pids)
    assert "Traceback" not in log and "ERROR" not in log, log[-2000:]
    assert outcomes["hang-finished"] == 0
    by_n = Counter(c["arguments"]["n"] for c in calls)
    assert sorted(by_n) == list(range(total)) and set(by_n.values()) == {1}  # exactly once
    for c in calls:
        assert c["status"] == EXPECTED[c["arguments"]["kind"]], c
    assert outcomes["quick:error"] == outcomes["slow:error"] == outcomes["fail:ok"] == 0
    proc = audit_verify(db)
    assert proc.returncode == 0, proc.stderr
    assert left_after_5s == 0
    latencies.sort()
    figure(
        "http_load",
        clients=CLIENTS,
        calls_per_client=CALLS,
        total=total,
        wall_s=round(wall, 2),
        p50_ms=round(latencies[len(latencies) // 2] * 1000),
        p95_ms=round(latencies[int(len(latencies) * 0.95)] * 1000),
        statuses=dict(Counter(c["status"] for c in calls)),
        step_processes=len(pids),
        rss_start_mb=round(rss_start / 1024, 1),
        rss_end_mb=round(rss_end / 1024, 1),
    )
    assert rss_end - rss_start < 60 * 1024, (rss_start, rss_end)
