"""Issue 4: the audit trail under load, when the server dies, and when the
store cannot be written.

Real ``mcp-harbor serve`` subprocesses (HTTP with tokens and stdio) writing
one real SQLite file; read with the real ``mcp-harbor audit``/``audit
verify``. Proves: 200 concurrent calls from two servers on one database leave
200 complete records and a valid chain with no "database is locked" (while
``audit verify`` reads alongside); a server killed mid-call leaves a
``running`` record that the next start closes as ``interrupted`` (a live
server's running call is left alone); a store that cannot be written stops
the server from starting, or fails the call with a clear error before
anything runs.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import anyio
import pytest
from harbor_helpers import (
    audit_json,
    audit_show,
    audit_verify,
    bearer_client,
    http_server,
    kill_leftovers,
    serve_argv,
    server_env,
    stdio_client_of,
    text_of,
    token_add,
    wait_for_files,
    write_export,
)

pytestmark = pytest.mark.anyio

PING = """
    name: ping
    description: Answers pong.
    args:
      n: {type: integer}
    steps:
      - name: a
        run: echo pong
"""

HTTP_CALLS, STDIO_CALLS = 150, 50


async def test_200_concurrent_calls_leave_200_records_and_a_valid_chain(tmp_path: Path) -> None:
    exports, db, tokens = tmp_path / "exports", tmp_path / "a.db", tmp_path / "tokens.json"
    write_export(exports, "ping.yaml", PING)
    tok = token_add(tokens, "alice")
    errlog_path = tmp_path / "stdio.stderr"
    http_extra = ("--tokens", str(tokens), "--db", str(db), "--runs-dir", str(tmp_path / "rh"))
    stdio_extra = ("--db", str(db), "--runs-dir", str(tmp_path / "rs"), "--keep-runs", "1000")
    answers: list[str] = []
    verify_runs: list[tuple[int, str]] = []
    loading = threading.Event()

    def verify_while_loading() -> None:  # a reader of the WAL, in another process
        while loading.is_set():
            proc = audit_verify(db)
            verify_runs.append((proc.returncode, proc.stderr))

    with (
        http_server(exports, tmp_path / "state", *http_extra, "--keep-runs", "1000") as srv,
        open(errlog_path, "w") as errlog,
    ):
        async with (
            bearer_client(srv.url, tok, "auto") as http_client,
            stdio_client_of(exports, tmp_path / "s", "legacy", *stdio_extra, errlog=errlog) as sc,
        ):
            await http_client.list_tools()

            async def one(client, n: int) -> None:  # type: ignore[no-untyped-def]
                result = await client.call_tool("ping", {"n": n})
                answers.append("ok" if not result.is_error else text_of(result))

            loading.set()
            reader = threading.Thread(target=verify_while_loading)
            reader.start()
            try:
                async with anyio.create_task_group() as tg:
                    for n in range(HTTP_CALLS):
                        tg.start_soon(one, http_client, n)
                    for n in range(STDIO_CALLS):
                        tg.start_soon(one, sc, HTTP_CALLS + n)
            finally:
                loading.clear()
                reader.join()
        http_log = srv.stderr()
    assert answers == ["ok"] * (HTTP_CALLS + STDIO_CALLS), [a for a in answers if a != "ok"][:3]
    calls = audit_json(db)
    assert len(calls) == HTTP_CALLS + STDIO_CALLS
    assert {c["status"] for c in calls} == {"ok"}
    assert all(c["ended_at"] for c in calls)
    assert sorted(c["arguments"]["n"] for c in calls) == list(range(HTTP_CALLS + STDIO_CALLS))
    assert sum(c["caller"]["transport"] == "http" for c in calls) == HTTP_CALLS
    assert len({c["call_id"] for c in calls}) == len(calls)
    proc = audit_verify(db)
    assert proc.returncode == 0, proc.stderr
    assert f"{2 * len(calls)} records, chain intact" in proc.stdout
    # verify reads one consistent snapshot, also while two servers append.
    assert verify_runs and [r for r in verify_runs if r[0] != 0] == [], verify_runs
    for log in (http_log, errlog_path.read_text()):
        assert "database is locked" not in log
        assert "could not be written" not in log
        assert "Traceback" not in log


HANG = """
    name: hang
    description: Writes its pid, then sleeps.
    pass_env: [MARKERS]
    steps:
      - name: a
        run: |
          echo $$ > "$MARKERS/$HARBOR_RUN_ID.pid"
          exec sleep 300
"""


async def start_hanging_call(url: str, tok: str, markers: Path) -> tuple[str, int]:
    """Start `hang` in the background of the test's event loop; return its call
    id (from the pid file name) and the step's pid once it runs."""
    with anyio.fail_after(20):
        while not list(markers.glob("*.pid")):
            await anyio.sleep(0.05)
    (pid_file,) = markers.glob("*.pid")
    await wait_for_files([pid_file], 5)
    return pid_file.name.removesuffix(".pid"), int(pid_file.read_text())


async def test_a_killed_server_leaves_a_run_closed_as_interrupted(tmp_path: Path) -> None:
    exports, db, tokens, markers = (
        tmp_path / "exports", tmp_path / "a.db", tmp_path / "tokens.json", tmp_path / "m",
    )  # fmt: skip
    markers.mkdir()
    write_export(exports, "hang.yaml", HANG)
    write_export(exports, "ping.yaml", PING)
    tok = token_add(tokens, "alice")
    # The servers' environment (server_env copies ours); hang's pass_env: passes it on.
    os.environ["MARKERS"] = str(markers)
    step_pids: list[int] = []
    try:
        with http_server(
            exports, tmp_path / "state", "--tokens", str(tokens), "--db", str(db)
        ) as srv:
            async with anyio.create_task_group() as tg:

                async def call_and_lose_the_server() -> None:
                    with anyio.move_on_after(30):
                        try:
                            async with bearer_client(srv.url, tok, "legacy") as client:
                                await client.call_tool("hang", {})
                        except* Exception as lost:  # noqa: BLE001 - the server is killed
                            assert lost.exceptions

                tg.start_soon(call_and_lose_the_server)
                call_id, step_pid = await start_hanging_call(srv.url, tok, markers)
                step_pids.append(step_pid)
                (running,) = audit_json(db)
                assert running["call_id"] == call_id and running["status"] == "running"

                # A second server starting on the same database while the first
                # lives must not close the first one's running call.
                errlog = tmp_path / "live.stderr"
                with open(errlog, "w") as err:
                    async with stdio_client_of(
                        exports, tmp_path / "s1", "auto", "--db", str(db), errlog=err
                    ) as client:
                        pinged = await client.call_tool("ping", {"n": 1})
                        assert pinged.is_error is False, text_of(pinged)
                assert audit_json(db, "--export", "hang")[0]["status"] == "running"
                assert "interrupted" not in errlog.read_text()

                os.kill(srv.pid, signal.SIGKILL)
                srv.proc.wait(10)
                tg.cancel_scope.cancel()
        # (The orphaned `sleep` is killed in `finally`; whether it is still
        # alive here is not the point: SIGKILL gave the server no say.)
        assert audit_json(db, "--export", "hang")[0]["status"] == "running"

        errlog = tmp_path / "restart.stderr"
        with open(errlog, "w") as err:
            async with stdio_client_of(
                exports, tmp_path / "s2", "auto", "--db", str(db), errlog=err
            ) as client:
                await client.list_tools()
        assert f"closed 1 interrupted run(s): {call_id}" in errlog.read_text()
    finally:
        os.environ.pop("MARKERS", None)
        kill_leftovers(step_pids)

    (closed,) = audit_json(db, "--status", "interrupted")
    assert closed["call_id"] == call_id and closed["ended_at"] is not None
    assert closed["principal"] == "alice"
    shown = audit_show(db, call_id)
    assert shown["end"]["status"] == "interrupted"
    assert "stopped before the call ended" in shown["end"]["error"]
    proc = audit_verify(db)
    assert proc.returncode == 0, proc.stderr
    # Restarting again closes nothing more.
    with open(errlog, "w") as err:
        async with stdio_client_of(exports, tmp_path / "s3", "auto", "--db", str(db), errlog=err):
            pass
    assert "interrupted" not in errlog.read_text()


def test_a_store_that_cannot_be_opened_stops_the_server(tmp_path: Path) -> None:
    exports, blocker = tmp_path / "exports", tmp_path / "a-file"
    write_export(exports, "ping.yaml", PING)
    blocker.write_text("not a directory")
    for transport in ("stdio", "http"):
        argv = serve_argv(exports, "--transport", transport, "--db", str(blocker / "harbor.db"))
        proc = subprocess.run(
            [*argv, "--tokens", str(tmp_path / "none.json")],
            env=server_env(tmp_path / "state"),
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
        assert proc.returncode == 2, proc.stderr
        assert f"audit store {blocker / 'harbor.db'}: cannot open the database" in proc.stderr
        assert "Traceback" not in proc.stderr


TOUCH = """
    name: touch
    description: Creates a marker file.
    args:
      name: {type: string, pattern: "^[a-z]+$"}
    required: [name]
    steps:
      - name: a
        argv: [touch, "MARKERS/{{ args.name }}"]
"""


async def test_an_unwritable_store_fails_the_call_before_anything_runs(tmp_path: Path) -> None:
    exports, db, markers = tmp_path / "exports", tmp_path / "a.db", tmp_path / "m"
    markers.mkdir()
    write_export(exports, "touch.yaml", TOUCH.replace("MARKERS", str(markers)))
    errlog_path = tmp_path / "server.stderr"
    with open(errlog_path, "w") as errlog:
        async with stdio_client_of(
            exports, tmp_path / "state", "auto", "--db", str(db), errlog=errlog
        ) as client:
            first = await client.call_tool("touch", {"name": "first"})
            assert first.is_error is False, text_of(first)
            assert (markers / "first").exists()
            # Another process holds SQLite's write lock longer than the
            # store's busy timeout (10 s): the start record cannot be written.
            lock = sqlite3.connect(db, isolation_level=None)
            lock.execute("BEGIN IMMEDIATE")
            try:
                began = time.monotonic()
                result = await client.call_tool("touch", {"name": "second"})
                waited = time.monotonic() - began
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            assert result.is_error is True
            text = text_of(result)
            assert "the audit store is unavailable, so nothing was run" in text, text
            assert "Traceback" not in text and "database is locked" not in text
            assert not (markers / "second").exists()  # nothing ran
            assert 9 < waited < 30, waited
            # The store is back: calls run again.
            third = await client.call_tool("touch", {"name": "third"})
            assert third.is_error is False, text_of(third)
            assert (markers / "third").exists()
    log = errlog_path.read_text()
    assert "audit store unavailable, refusing to run touch" in log
    assert "database is locked" in log  # the operator sees why
    assert "Traceback" not in log
    calls = audit_json(db)
    assert [c["arguments"]["name"] for c in calls] == ["third", "first"]
    assert audit_verify(db).returncode == 0
