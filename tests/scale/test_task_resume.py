"""Issue 24 (durable tasks) with workers: a task whose run is on a real
``mcp-harbor worker`` outlives its server. The server (a real ``mcp-harbor
serve --broker`` over HTTP, raw JSON-RPC in the 2026-07-28 era) is killed
with SIGKILL mid-run; a new server on the same store follows the run's
Redis stream from its start, finishes the task with the worker's result and
writes the call's end record; ``tasks/cancel`` to the new server still
reaches the worker.

Steps wait on gate files the test creates (the kill always lands mid-run);
every wait is a poll bounded by `anyio.fail_after`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.to_thread
import httpx2
import pytest
import redis
from harbor_helpers import (
    HttpServer,
    http_server,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    token_add,
    wait_for_files,
    write_export,
)

from mcp_harbor.remote.wire import Result, from_stream, stream_key
from tests.scale.conftest import WorkerProc, start_worker
from tests.test_tasks_http import Client

pytestmark = pytest.mark.anyio

GATED = """
name: gated
description: Waits on a worker for the test's gate, then says done.
runs_on: lab
steps:
  - name: wait
    run: |
      echo $$ > {pid}
      while [ ! -f {gate} ]; do sleep 0.05; done
      echo done
"""

#: Ends on its gate well within its timeout; the test then waits out the
#: deadline (its run is over on the worker by then).
BRIEF = """
name: brief
description: Waits on a worker for the test's gate; a short timeout.
runs_on: lab
timeout: 2
steps:
  - name: wait
    run: |
      echo $$ > {pid}
      while [ ! -f {gate} ]; do sleep 0.05; done
      echo brief done
"""

#: Never a task: a plain call on a worker.
PLAIN = """
name: plain
description: Waits on a worker for the test's gate; never a task.
runs_on: lab
task: never
steps:
  - name: wait
    run: |
      echo $$ > {pid}
      while [ ! -f {gate} ]; do sleep 0.05; done
"""

SLEEPER = """
name: sleeper
description: Sleeps on a worker until it is stopped.
runs_on: lab
steps:
  - name: nap
    run: |
      sleep 300 &
      echo $! > {child}
      echo $$ > {pid}
      wait
"""


@dataclass
class Setup:
    root: Path
    exports: Path
    files: Path
    db: Path
    args: tuple[str, ...]
    alice: str
    broker: str

    def server(self) -> AbstractContextManager[HttpServer]:
        return http_server(self.exports, self.root / "state", *self.args)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("resume")
    exports, files, db, tokens = root / "exports", root / "files", root / "h.db", root / "t.json"
    files.mkdir()
    write_export(exports, "gated.yaml", GATED.format(pid=files / "g.pid", gate=files / "g.gate"))
    write_export(
        exports, "sleeper.yaml", SLEEPER.format(pid=files / "s.pid", child=files / "s.child")
    )
    write_export(exports, "brief.yaml", BRIEF.format(pid=files / "b.pid", gate=files / "b.gate"))
    write_export(exports, "plain.yaml", PLAIN.format(pid=files / "p.pid", gate=files / "p.gate"))
    alice = token_add(tokens, "alice")
    args = ("--tokens", str(tokens), "--db", str(db), "--sandbox", "off", "--broker", redis_url)
    worker: WorkerProc = start_worker(
        exports, db, redis_url, root / "worker-state", root / "worker.log"
    )
    try:
        yield Setup(root, exports, files, db, args, alice, redis_url)
    finally:
        worker.stop()


def records(db: Path, call_id: str) -> list[tuple[str, str]]:
    """The (kind, status) of every audit record of one call, in chain order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT kind, status FROM audit WHERE call_id = ? ORDER BY seq", (call_id,)
        ).fetchall()
    return [(str(k), str(s)) for k, s in rows]


def task_row(db: Path, task_id: str) -> tuple[str, str | None]:
    """The task's status and run id in the store."""
    with sqlite3.connect(db) as conn:
        (status, run_id) = conn.execute(
            "SELECT status, json_extract(server, '$.run_id') FROM tasks WHERE task_id = ?",
            (task_id,),
        ).fetchone()
    return str(status), run_id


def run_ids(db: Path, tool: str) -> list[str]:
    """The call ids of the started calls of one tool."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT call_id FROM audit WHERE kind = 'start' AND tool = ? ORDER BY seq", (tool,)
        ).fetchall()
    return [str(r[0]) for r in rows]


def kill(server: HttpServer) -> None:
    os.kill(server.pid, signal.SIGKILL)  # no chance to record anything
    server.proc.wait(10)


async def test_a_worker_task_outlives_a_killed_server_and_completes_on_the_next(
    setup: Setup,
) -> None:
    pid, gate = setup.files / "g.pid", setup.files / "g.gate"
    with httpx2.Client(timeout=30) as http:
        a = Client(http, setup.alice)
        try:
            with setup.server() as first:
                task_id = a.call(first.url, "gated")["taskId"]
                await wait_for_files([pid], timeout=30)  # the step runs on the worker
                kill(first)
            (shell,) = read_pids([pid])
            assert pid_alive(shell)  # the worker keeps going
            with setup.server() as second:
                # Not interrupted: the new server follows the run.
                assert a.get(second.url, task_id)["status"] == "working"
                gate.touch()
                done = await a.until(second.url, task_id, "completed", "failed", "cancelled")
        finally:
            kill_leftovers(read_pids(p for p in [pid] if p.exists()))
    assert done["status"] == "completed", done
    result = done["result"]
    assert result["isError"] is False, result
    assert "done" in result["content"][0]["text"], result
    run = result["structuredContent"]
    assert run["status"] == "ok" and run["tool"] == "gated", run
    assert task_row(setup.db, task_id) == ("completed", run["run_id"])
    # One start, one end (ok, with the worker's name): never interrupted.
    assert records(setup.db, run["run_id"]) == [("start", "running"), ("end", "ok")]


async def test_cancel_reaches_the_worker_of_a_resumed_task(setup: Setup) -> None:
    pids = [setup.files / "s.pid", setup.files / "s.child"]
    with httpx2.Client(timeout=30) as http:
        a = Client(http, setup.alice)
        try:
            with setup.server() as first:
                task_id = a.call(first.url, "sleeper")["taskId"]
                await wait_for_files(pids, timeout=30)
                kill(first)
            shell, child = read_pids(pids)
            with setup.server() as second:
                assert a.get(second.url, task_id)["status"] == "working"
                ack = a.result(second.url, "tasks/cancel", {"taskId": task_id})
                assert ack["resultType"] == "complete", ack
                task = await a.until(second.url, task_id, "cancelled", "completed", "failed")
                await seconds_until_dead([shell, child], limit=20)
        finally:
            kill_leftovers(read_pids(p for p in pids if p.exists()))
    assert task["status"] == "cancelled", task
    status, run_id = task_row(setup.db, task_id)
    assert status == "cancelled" and run_id is not None
    assert records(setup.db, run_id) == [("start", "running"), ("end", "cancelled")]


async def test_a_resumed_task_whose_stream_expired_ends_worker_lost(setup: Setup) -> None:
    pid, gate = setup.files / "b.pid", setup.files / "b.gate"
    r = redis.Redis.from_url(setup.broker)
    with httpx2.Client(timeout=30) as http:
        a = Client(http, setup.alice)
        try:
            with setup.server() as first:
                task_id = a.call(first.url, "brief")["taskId"]
                called = time.time()
                await wait_for_files([pid], timeout=30)
                kill(first)
            gate.touch()
            _, run_id = task_row(setup.db, task_id)
            assert run_id is not None
            key = stream_key(run_id)
            with anyio.fail_after(30):  # the run ends on the worker, unheard
                while not any(isinstance(from_stream(f).event, Result) for _, f in r.xrange(key)):
                    await anyio.sleep(0.05)
            r.delete(key)  # as STREAM_TTL would, an hour later
            with anyio.fail_after(30):  # past the run's deadline (timeout: 2)
                while time.time() < called + 3:
                    await anyio.sleep(0.1)
            with setup.server() as second:
                done = await a.until(second.url, task_id, "completed", "failed", "cancelled")
        finally:
            kill_leftovers(read_pids(p for p in [pid] if p.exists()))
            r.close()
    assert done["status"] == "completed", done
    result = done["result"]
    assert result["isError"] is True, result
    assert result["structuredContent"]["status"] == "worker_lost", result
    assert records(setup.db, run_id) == [("start", "running"), ("end", "worker_lost")]


async def test_a_plain_call_on_a_worker_of_a_killed_server_is_still_interrupted(
    setup: Setup,
) -> None:
    pid, gate = setup.files / "p.pid", setup.files / "p.gate"
    with httpx2.Client(timeout=30) as http:
        a = Client(http, setup.alice)

        def call(url: str) -> None:
            with contextlib.suppress(httpx2.HTTPError):  # its server is killed
                a.call(url, "plain")

        try:
            with setup.server() as first:
                async with anyio.create_task_group() as group:
                    group.start_soon(anyio.to_thread.run_sync, call, first.url)
                    await wait_for_files([pid], timeout=30)
                    kill(first)
            gate.touch()  # the worker's run ends, unheard
            with setup.server():
                pass  # its start closes the dead server's open records
        finally:
            gate.touch()
            kill_leftovers(read_pids(p for p in [pid] if p.exists()))
    (run_id,) = run_ids(setup.db, "plain")
    assert records(setup.db, run_id) == [("start", "running"), ("end", "interrupted")]
