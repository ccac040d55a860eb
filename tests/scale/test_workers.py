"""Issue 10 (workers): exports with ``runs_on:`` run on a real ``mcp-harbor
worker`` subprocess, dispatched through a real Redis by a real ``mcp-harbor
serve --broker`` subprocess, called over stdio with the SDK client.

Proven here: output and progress streamed to the client, cancel kills the
step's process group on the worker, the export's timeout is enforced by the
worker, a changed export is refused by the worker, the worker host is in the
audit, and ``kill -9`` of the worker answers ``worker_lost`` within the lease
while a redelivery of the run's message does not run it a second time."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    stdio_client_opts,
    text_of,
    wait_for_files,
    write_export,
)
from mcp import types

from tests.scale.conftest import WorkerProc, start_worker

pytestmark = pytest.mark.anyio

LEASE = 2.0
SWEEP = 0.5


def exports_into(folder: Path, piddir: Path, marker: Path) -> Path:
    write_export(
        folder,
        "progressing.yaml",
        r"""
        name: progressing
        description: Reports its own progress on a worker.
        runs_on: lab
        steps:
          - name: build
            run: |
              echo '1/4 building' >> "$HARBOR_PROGRESS"
              sleep 0.3
              printf '50%% \033[1mlinking\n' >> "$HARBOR_PROGRESS"
              sleep 0.3
        """,
    )
    write_export(
        folder,
        "stream.yaml",
        """
        name: stream
        description: Prints lines on a worker.
        runs_on: lab
        steps:
          - name: first
            run: |
              echo "first out 1"
              echo "first err 1" >&2
              echo "first out 2"
          - name: second
            run: |
              echo "second out 1"
        """,
    )
    write_export(
        folder,
        "local.yaml",
        """
        name: local
        description: Runs in the server.
        steps:
          - name: only
            run: echo here
        """,
    )
    hang = f"""
        d={piddir}/$ARG_tag
        mkdir -p "$d"
        echo $$ > "$d/bash"
        sh -c 'echo $$ > "$0/sleep"; exec sleep 300' "$d" |
          sh -c 'echo $$ > "$0/cat"; exec cat' "$d"
    """
    body = "\n".join("      " + line.strip() for line in hang.strip().splitlines())
    write_export(
        folder,
        "hang.yaml",
        "name: hang\ndescription: Hangs on a worker.\nruns_on: lab\n"
        "args:\n  tag: {type: string, pattern: '^[a-z0-9-]+$'}\nrequired: [tag]\n"
        f"steps:\n  - name: hang\n    run: |\n{body}\n",
    )
    write_export(
        folder,
        "slow.yaml",
        "name: slow\ndescription: Times out on a worker.\nruns_on: lab\ntimeout: 1.5\n"
        "args:\n  tag: {type: string, pattern: '^[a-z0-9-]+$'}\nrequired: [tag]\n"
        f"steps:\n  - name: hang\n    run: |\n{body}\n",
    )
    write_export(
        folder,
        "once.yaml",
        "name: once\ndescription: Runs on a worker that dies.\nruns_on: fragile\n"
        "args:\n  tag: {type: string, pattern: '^[a-z0-9-]+$'}\nrequired: [tag]\n"
        f"steps:\n  - name: mark\n    run: |\n      echo ran >> {marker}\n{body}\n",
    )
    write_export(
        folder,
        "boxed.yaml",
        "name: boxed\ndescription: Confined on a worker.\nruns_on: lab\n"
        "sandbox: {network: none}\n"
        "args:\n  db: {type: string, maxLength: 4096}\nrequired: [db]\n"
        "steps:\n"
        "  - name: connect\n    run: echo hi > /dev/tcp/127.0.0.1/9\n    continue_on_error: true\n"
        '  - name: db\n    run: head -c 16 -- "$ARG_db"\n    continue_on_error: true\n',
    )
    return folder


@dataclass
class Setup:
    exports: Path
    state: Path
    db: Path
    broker: str
    piddir: Path
    marker: Path
    worker: WorkerProc

    def serve_args(self) -> list[str]:
        return ["--db", str(self.db), "--broker", self.broker, "--sweep-interval", str(SWEEP)]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("workers")
    piddir, marker = root / "pids", root / "marker"
    exports = exports_into(root / "exports", piddir, marker)
    state, db = root / "state", root / "harbor.db"
    worker = start_worker(
        exports, db, redis_url, state, root / "worker.log", "--hostname", "w1",
        "--slots", "4", "--lease-seconds", str(LEASE),
    )  # fmt: skip
    try:
        yield Setup(exports, state, db, redis_url, piddir, marker, worker)
    finally:
        worker.stop()


class Recorder:
    def __init__(self) -> None:
        self.progress: list[tuple[float, float | None, str | None]] = []
        self.logs: list[types.LoggingMessageNotificationParams] = []

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append((progress, total, message))

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    def lines(self) -> list[tuple[str, str, str]]:
        return [
            (p.data["step"], p.data["stream"], p.data["line"])
            for p in self.logs
            if isinstance(p.data, dict) and "line" in p.data
        ]


def end_record(db: Path, run_id: str) -> tuple[str, dict[str, Any]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        row = con.execute(
            "SELECT status, body FROM audit WHERE call_id = ? AND kind = 'end'", (run_id,)
        ).fetchone()
        count = con.execute("SELECT count(*) FROM audit WHERE call_id = ?", (run_id,)).fetchone()
    finally:
        con.close()
    assert row is not None, f"no end record for {run_id}"
    assert count[0] == 2  # one call: its start and its end record
    return row[0], json.loads(row[1])


def client(setup: Setup, rec: Recorder | None = None, *extra: str) -> Any:
    kw: dict[str, Any] = {}
    if rec is not None:
        kw = {"logging_callback": rec.on_log, "log_level": "info"}
    return stdio_client_opts(
        extra[0] if extra else setup.exports, setup.state, "auto", *setup.serve_args(), **kw
    )


async def test_output_and_progress_stream_from_the_worker(setup: Setup) -> None:
    rec = Recorder()
    async with client(setup, rec) as c:
        result = await c.call_tool("stream", {}, progress_callback=rec.on_progress)
        assert result.is_error is False, text_of(result)
        envelope = result.structured_content
        assert envelope is not None and envelope["finish_reason"] == "goal"
        assert envelope["steps_run"] == 2
        local = await c.call_tool("local", {})
        assert local.is_error is False
    lines = rec.lines()
    assert [(s, line) for s, stream, line in lines if stream == "stdout" and s != "only"] == [
        ("first", "first out 1"),
        ("first", "first out 2"),
        ("second", "second out 1"),
    ]
    assert ("first", "stderr", "first err 1") in lines
    assert [p for p, _, _ in rec.progress] == [0.5, 1, 1.5, 2]
    assert rec.progress[-1][2] == "second (2/2) ok"
    status, body = end_record(setup.db, envelope["run_id"])
    assert status == "ok" and body["worker_host"] == "w1"
    assert [s["status"] for s in body["steps"]] == ["ok", "ok"]
    local_envelope = local.structured_content
    assert local_envelope is not None
    assert "worker_host" not in end_record(setup.db, local_envelope["run_id"])[1]


async def test_a_steps_own_progress_streams_from_the_worker(setup: Setup) -> None:
    rec = Recorder()
    async with client(setup) as c:
        result = await c.call_tool("progressing", {}, progress_callback=rec.on_progress)
        assert result.is_error is False, text_of(result)
    assert [(p, m) for p, _, m in rec.progress] == [
        (0.5, "build (1/1)"),
        (pytest.approx(0.5 + 0.49 * 0.25), "build (1/1): 1/4 building"),
        (pytest.approx(0.5 + 0.49 * 0.5), "build (1/1): 50% \\x1b[1mlinking"),
        (1, "build (1/1) ok"),
    ]


async def test_cancel_kills_the_group_on_the_worker(setup: Setup) -> None:
    files = [setup.piddir / "cancel" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    try:
        async with client(setup) as c:
            with anyio.fail_after(30):
                async with anyio.create_task_group() as tg:

                    async def cancel_when_running() -> None:
                        await wait_for_files(files, 20)
                        pids.extend(read_pids(files))
                        assert all(pid_alive(p) for p in pids)
                        tg.cancel_scope.cancel()

                    tg.start_soon(cancel_when_running)
                    await c.call_tool("hang", {"tag": "cancel"})
                    raise AssertionError("the call should have been cancelled")
            elapsed = await seconds_until_dead(pids, 2.0)
            print(f"worker's processes gone {elapsed:.3f} s after the cancel")
            after = await c.call_tool("stream", {})  # the session goes on
            assert after.is_error is False
    finally:
        kill_leftovers(pids)


async def test_timeout_is_enforced_by_the_worker(setup: Setup) -> None:
    files = [setup.piddir / "timeout" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    try:
        async with client(setup) as c:
            began = time.monotonic()
            result = await c.call_tool("slow", {"tag": "timeout"})
            took = time.monotonic() - began
            pids = read_pids(files)
            assert result.is_error is True
            envelope = result.structured_content
            assert envelope is not None and envelope["finish_reason"] == "timeout", envelope
            assert took < 5, took
            assert not any(pid_alive(p) for p in pids)
            status, body = end_record(setup.db, envelope["run_id"])
            assert status == "timeout" and body["worker_host"] == "w1"
    finally:
        kill_leftovers(pids)


async def test_the_worker_confines_its_steps(setup: Setup) -> None:
    async with client(setup) as c:
        result = await c.call_tool("boxed", {"db": str(setup.db)})
    envelope = result.structured_content
    assert envelope is not None, text_of(result)
    connect, db = envelope["steps"]
    assert connect["status"] == "failed", text_of(result)
    assert connect["error"] == "sandbox denied network access (network: none)"
    # The worker's store is kept from its steps as the server's is.
    assert "SQLite" not in db["stdout_tail"], text_of(result)
    status, body = end_record(setup.db, envelope["run_id"])
    assert status == "ok" and body["worker_host"] == "w1"


async def test_a_changed_export_is_refused_by_the_worker(setup: Setup, tmp_path: Path) -> None:
    changed = tmp_path / "exports"
    shutil.copytree(setup.exports, changed)
    text = (changed / "stream.yaml").read_text()
    (changed / "stream.yaml").write_text(text.replace("Prints lines", "Prints other lines"))
    async with client(setup, None, str(changed)) as c:
        result = await c.call_tool("stream", {})
    assert result.is_error is True
    assert "nothing was run" in text_of(result)
    con = sqlite3.connect(f"file:{setup.db}?mode=ro", uri=True)
    try:
        body = con.execute(
            "SELECT body FROM audit WHERE kind = 'end' ORDER BY seq DESC LIMIT 1"
        ).fetchone()[0]
    finally:
        con.close()
    assert "differs from the server's" in json.loads(body)["error"]


async def test_kill_9_of_the_worker_is_worker_lost_and_never_runs_twice(
    setup: Setup, tmp_path: Path
) -> None:
    files = [setup.piddir / "lost" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    fragile = start_worker(
        setup.exports, setup.db, setup.broker, setup.state, tmp_path / "fragile.log",
        "--hostname", "w2", "--lease-seconds", str(LEASE), queues="fragile",
    )  # fmt: skip
    again: WorkerProc | None = None
    try:
        async with client(setup) as c:
            with anyio.fail_after(30):
                async with anyio.create_task_group() as tg:
                    killed: list[float] = []

                    async def kill_when_running() -> None:
                        await wait_for_files(files, 20)
                        pids.extend(read_pids(files))
                        os.kill(fragile.pid, signal.SIGKILL)
                        killed.append(time.monotonic())

                    tg.start_soon(kill_when_running)
                    result = await c.call_tool("once", {"tag": "lost"})
            lost_after = time.monotonic() - killed[0]
            print(f"worker_lost {lost_after:.2f} s after kill -9 (lease {LEASE} s)")
            assert lost_after <= LEASE + 2 * SWEEP + 1.5, lost_after
            envelope = result.structured_content
            assert result.is_error is True and envelope is not None
            assert envelope["status"] == "worker_lost", envelope
            assert envelope["finish_reason"] == "failed"
            status, body = end_record(setup.db, envelope["run_id"])
            assert status == "worker_lost" and body["worker_host"] == "w2"
            # The dead worker's reaper took its process group with it (a
            # grace bound for a loaded machine, not a speed target: a group
            # left behind lives on past it)
            await seconds_until_dead(pids, 10.0)
            # A new worker on the queue gets the unacknowledged message again
            # (visibility timeout 1 s) and must not run it a second time.
            again = start_worker(
                setup.exports, setup.db, setup.broker, setup.state, tmp_path / "again.log",
                "--hostname", "w3", "--visibility-timeout", "1", queues="fragile",
            )  # fmt: skip
            with anyio.fail_after(15):
                while "delivered again" not in again.log.read_text():
                    await anyio.sleep(0.1)
            assert setup.marker.read_text() == "ran\n"
    finally:
        kill_leftovers(pids)
        fragile.stop()
        if again is not None:
            again.stop()
