"""Issue 24: a task made on one replica is polled, seen progressing and
finished through another, both real ``mcp-harbor serve`` processes on one
PostgreSQL database; a cancel sent to the replica that does not run it
stops the run's processes."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx2
import pytest
from harbor_helpers import (
    http_server,
    kill_leftovers,
    read_pids,
    seconds_until_dead,
    token_add,
    wait_for_files,
    write_export,
)
from test_tasks_http import GATED, SLEEPER, Client

pytestmark = pytest.mark.anyio


async def test_tasks_across_two_replicas_on_postgresql(pg_dsn: str, tmp_path: Path) -> None:
    exports, files, tokens = tmp_path / "exports", tmp_path / "files", tmp_path / "t.json"
    files.mkdir()
    write_export(exports, "gated.yaml", GATED.format(pid=files / "g.pid", gate=files / "g.gate"))
    write_export(
        exports, "sleeper.yaml", SLEEPER.format(pid=files / "s.pid", child=files / "s.child")
    )
    alice = token_add(tokens, "alice")
    extra = ("--tokens", str(tokens), "--db", pg_dsn, "--sandbox", "off")
    pids = [files / "s.pid", files / "s.child"]
    with (
        http_server(exports, tmp_path / "state", *extra) as one,
        http_server(exports, tmp_path / "state", *extra) as two,
        httpx2.Client(timeout=30) as http,
    ):
        a = Client(http, alice)
        task_id = a.call(one.url, "gated")["taskId"]
        assert a.get(two.url, task_id)["status"] == "working"
        with anyio.fail_after(20):
            while "halfway there" not in a.get(two.url, task_id).get("statusMessage", ""):
                await anyio.sleep(0.05)
        (files / "g.gate").touch()
        done = await a.until(two.url, task_id, "completed", "failed", "cancelled")
        assert (
            done["status"] == "completed" and "gated done" in done["result"]["content"][0]["text"]
        )

        long = a.call(one.url, "sleeper")["taskId"]
        try:
            await wait_for_files(pids, timeout=20)
            a.result(two.url, "tasks/cancel", {"taskId": long})
            task = await a.until(one.url, long, "cancelled", "completed", "failed")
            assert task["status"] == "cancelled", task
            await seconds_until_dead(read_pids(pids), limit=10)
        finally:
            kill_leftovers(read_pids(p for p in pids if p.exists()))
