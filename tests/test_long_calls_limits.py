"""Issue 6: concurrency limits, seen from the steps themselves.

Six concurrent calls over one stdio session of an export limited to 2 (the
export's ``concurrency: 2``, or the server's ``--max-concurrent 2``): each
step appends its start and end time to a file, and the largest overlap of
those intervals is exactly 2. The calls that waited report ``queued_ms`` in
their result and in their audit start record. A queue timeout fails cleanly:
a tool error saying ``busy``, nothing ran, and an audit record ``busy``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import MODES, audit_records, stdio_client_of, text_of, write_export

pytestmark = pytest.mark.anyio

STEP_S = 0.6


def slot_yaml(name: str, log: Path, limit: str) -> str:
    return f"""
name: {name}
description: Holds a slot for {STEP_S} s and logs when it ran.
{limit}
args:
  i: {{type: integer}}
required: [i]
steps:
  - name: hold
    run: |
      echo "start $(date +%s.%N) $ARG_i" >> {log}
      sleep {STEP_S}
      echo "end $(date +%s.%N) $ARG_i" >> {log}
"""


def max_overlap(log: Path) -> tuple[int, int]:
    """(largest number of steps running at once, number of steps seen)."""
    events: list[tuple[float, int]] = []
    for line in log.read_text().splitlines():
        kind, at, _ = line.split()
        events.append((float(at), 1 if kind == "start" else -1))
    running = peak = 0
    for _, delta in sorted(events, key=lambda e: (e[0], e[1])):  # an end before a start at a tie
        running += delta
        peak = max(peak, running)
    return peak, sum(1 for _, d in events if d == 1)


@pytest.mark.parametrize(
    ("limit", "extra"),
    [("concurrency: 2", ()), ("", ("--max-concurrent", "2"))],
    ids=["export-concurrency", "max-concurrent"],
)
@pytest.mark.parametrize("mode", MODES)
async def test_limit_of_two_with_six_calls(
    tmp_path: Path, mode: str, limit: str, extra: tuple[str, ...]
) -> None:
    exports, log, db = tmp_path / "exports", tmp_path / "intervals.log", tmp_path / "harbor.db"
    write_export(exports, "slot.yaml", slot_yaml("slot", log, limit))
    results: dict[int, Any] = {}
    async with stdio_client_of(exports, tmp_path / "state", mode, "--db", str(db), *extra) as c:

        async def call(i: int) -> None:
            results[i] = await c.call_tool("slot", {"i": i})

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                for i in range(6):
                    tg.start_soon(call, i)
    assert all(r.is_error is False for r in results.values()), [
        text_of(r) for r in results.values()
    ]
    peak, steps = max_overlap(log)
    assert steps == 6
    assert peak == 2, log.read_text()
    queued = sorted(r.structured_content["queued_ms"] for r in results.values())
    # Two start at once; the others wait about one or two step durations.
    assert queued[0] < 0.5 * STEP_S * 1000 and queued[1] < 0.5 * STEP_S * 1000, queued
    assert all(q > 0.5 * STEP_S * 1000 for q in queued[2:]), queued
    assert queued[-1] > 1.5 * STEP_S * 1000, queued
    starts = {
        r["call_id"]: r["body"]["queued_ms"] for r in audit_records(db) if r["kind"] == "start"
    }
    assert sorted(starts.values()) == queued
    for r in results.values():
        assert starts[r.structured_content["run_id"]] == r.structured_content["queued_ms"]


@pytest.mark.parametrize("mode", MODES)
async def test_queue_timeout_fails_cleanly_as_busy(tmp_path: Path, mode: str) -> None:
    exports, log, db = tmp_path / "exports", tmp_path / "intervals.log", tmp_path / "harbor.db"
    write_export(exports, "slot.yaml", slot_yaml("slot", log, "concurrency: 1\nqueue_timeout: 0.2"))
    results: dict[int, Any] = {}
    async with stdio_client_of(exports, tmp_path / "state", mode, "--db", str(db)) as c:

        async def call(i: int) -> None:
            results[i] = await c.call_tool("slot", {"i": i})

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                for i in range(3):
                    tg.start_soon(call, i)
        # The slot is free again: the next call runs.
        after = await c.call_tool("slot", {"i": 9})
    assert after.is_error is False
    ok = [r for r in results.values() if not r.is_error]
    busy = [r for r in results.values() if r.is_error]
    assert len(ok) == 1 and len(busy) == 2
    for r in busy:
        text = text_of(r)
        assert text.startswith("slot: busy: 1 call(s) of slot already running"), text
        assert "queue_timeout 0.2 s" in text and "Nothing was run" in text
    # Only the admitted calls ran (the busy ones left no interval).
    assert max_overlap(log) == (1, 2)
    records = audit_records(db)
    busy_records = [r for r in records if r["status"] == "busy"]
    assert len(busy_records) == 2
    for r in busy_records:
        assert r["kind"] == "call"  # one record: nothing ran
        assert r["body"]["queued_ms"] >= 200
        assert "busy" in r["body"]["reason"]
    assert [r["status"] for r in records if r["kind"] == "end"] == ["ok", "ok"]
