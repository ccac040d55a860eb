"""Issue 6: a call that is cancelled, that the client gives up on, or that is
in flight when the server gets SIGTERM leaves no process behind (checked by
pid through /proc) and the right audit record (``cancelled``, chain intact).

The step records the pid of its bash, of a background ``sleep 300`` and of
both sides of a ``sleep 300 | cat`` pipeline, and ``$PPID`` (the server).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    audit_records,
    audit_verify,
    http_server,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    stdio_client_of,
    text_of,
    wait_for_files,
    write_export,
)
from mcp import Client
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

NAMES = ("bash", "bg", "pipe-sleep", "pipe-cat")
KILL_LIMIT = 2.0


def hang_yaml(piddir: Path, marker: Path) -> str:
    return f"""
name: hang
description: Starts processes that would outlive the step, then waits.
args:
  tag: {{type: string, pattern: '^[a-z0-9-]+$'}}
required: [tag]
steps:
  - name: spawn
    run: |
      d={piddir}/$ARG_tag
      mkdir -p "$d"
      echo $PPID > "$d/server"
      echo $$ > "$d/bash"
      sleep 300 &
      echo $! > "$d/bg"
      sh -c 'echo $$ > "$0/pipe-sleep"; exec sleep 300' "$d" |
        sh -c 'echo $$ > "$0/pipe-cat"; exec cat' "$d"
  - name: after
    argv: [touch, '{marker}']
"""


class Setup:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.exports = root / "exports"
        self.piddir = root / "pids"
        self.marker = root / "after-ran"
        self.state = root / "state"
        self.db = root / "harbor.db"
        self.piddir.mkdir(parents=True)
        write_export(self.exports, "hang.yaml", hang_yaml(self.piddir, self.marker))
        write_export(
            self.exports,
            "quick.yaml",
            "name: quick\ndescription: Answers.\nsteps:\n  - name: hi\n    run: echo still here\n",
        )

    def files(self, tag: str) -> list[Path]:
        return [self.piddir / tag / n for n in NAMES]

    async def running(self, tag: str, seen: list[int]) -> list[int]:
        await wait_for_files([*self.files(tag), self.piddir / tag / "server"], timeout=20)
        pids = read_pids(self.files(tag))
        seen.extend(pids)
        assert len(set(pids)) == len(NAMES)
        assert all(pid_alive(p) for p in pids)
        return pids

    def server_pid(self, tag: str) -> int:
        pid = int((self.piddir / tag / "server").read_text())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"mcp_harbor" in cmdline and b"serve" in cmdline, cmdline
        return pid


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    pids: list[int] = []
    yield pids
    kill_leftovers(pids)


async def records_of(db: Path, tag: str, *, ended: bool = True) -> list[dict[str, Any]]:
    """The audit records of the `hang` call with `tag`, once its end record
    is written (the write races the client seeing the cancellation)."""
    with anyio.fail_after(10):
        while True:
            starts = [
                r
                for r in audit_records(db)
                if r["kind"] == "start" and r["body"]["arguments"] == {"tag": tag}
            ]
            if starts:
                (start,) = starts
                records = audit_records(db, start["call_id"])
                if not ended or any(r["kind"] == "end" for r in records):
                    return records
            await anyio.sleep(0.05)


def assert_cancelled(records: list[dict[str, Any]]) -> None:
    assert [r["kind"] for r in records] == ["start", "end"]
    start, end = records
    assert start["status"] == "running"
    assert end["status"] == "cancelled"
    assert end["body"]["status"] == "cancelled"
    assert end["body"]["error"] == "the call was cancelled"


def serve_args(setup: Setup) -> tuple[str, ...]:
    return ("--db", str(setup.db), "--runs-dir", str(setup.root / "runs"))


@pytest.mark.parametrize("mode", MODES)
async def test_cancelled_call_kills_and_records_cancelled(
    setup: Setup, leftovers: list[int], mode: str
) -> None:
    tag = f"cancel-{mode}"
    pids: list[int] = []
    async with stdio_client_of(setup.exports, setup.state, mode, *serve_args(setup)) as client:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:

                async def cancel_when_running() -> None:
                    pids.extend(await setup.running(tag, leftovers))
                    tg.cancel_scope.cancel()

                tg.start_soon(cancel_when_running)
                await client.call_tool("hang", {"tag": tag})
                raise AssertionError("the call should have been cancelled")
        elapsed = await seconds_until_dead(pids, KILL_LIMIT)
        assert_cancelled(await records_of(setup.db, tag))
        after = await client.call_tool("quick", {})
        assert "still here" in text_of(after)
    print(f"{mode}: processes gone {elapsed:.2f} s after the cancel")
    assert not setup.marker.exists()
    assert audit_verify(setup.db).returncode == 0


@pytest.mark.parametrize("mode", MODES)
async def test_client_timeout_kills_and_records_cancelled(
    setup: Setup, leftovers: list[int], mode: str
) -> None:
    tag = f"timeout-{mode}"
    async with stdio_client_of(setup.exports, setup.state, mode, *serve_args(setup)) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("hang", {"tag": tag}, read_timeout_seconds=1.5)
        assert "timed out" in str(caught.value)
        pids = read_pids(setup.files(tag))
        leftovers.extend(pids)
        elapsed = await seconds_until_dead(pids, KILL_LIMIT)
        assert_cancelled(await records_of(setup.db, tag))
    print(f"{mode}: processes gone {elapsed:.2f} s after the client timeout")
    assert not setup.marker.exists()
    assert audit_verify(setup.db).returncode == 0


@pytest.mark.parametrize("mode", MODES)
async def test_sigterm_over_stdio_answers_kills_and_records(
    setup: Setup, leftovers: list[int], mode: str
) -> None:
    tag = f"sigterm-stdio-{mode}"
    result: Any = None

    async def terminate_when_running() -> None:
        pids = await setup.running(tag, leftovers)
        server = setup.server_pid(tag)
        leftovers.append(server)
        os.kill(server, signal.SIGTERM)
        sent = time.monotonic()
        await seconds_until_dead(pids, KILL_LIMIT)
        print(f"{mode}: step processes gone {time.monotonic() - sent:.2f} s after SIGTERM")
        # The server itself exits, though the client keeps its stdin open.
        await seconds_until_dead([server], 10)

    async with (
        stdio_client_of(setup.exports, setup.state, mode, *serve_args(setup)) as client,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(terminate_when_running)
        with anyio.fail_after(30):
            result = await client.call_tool("hang", {"tag": tag})
    # A clean tool error, not a hang or a protocol error.
    assert result.is_error is True
    text = text_of(result)
    assert "shutting down" in text and "cancelled" in text, text
    assert_cancelled(await records_of(setup.db, tag))
    assert not setup.marker.exists()
    verify = audit_verify(setup.db)
    assert verify.returncode == 0, verify.stderr


async def test_sigterm_over_http_ends_connection_kills_and_records(
    setup: Setup, leftovers: list[int]
) -> None:
    tag = "sigterm-http"
    outcome: list[Any] = []
    with http_server(setup.exports, setup.state, *serve_args(setup)) as srv:
        leftovers.append(srv.pid)

        async def call() -> None:
            try:
                async with Client(srv.url) as client:
                    outcome.append(await client.call_tool("hang", {"tag": tag}))
            except Exception as exc:  # noqa: BLE001 - the connection ending is allowed
                outcome.append(exc)

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                pids = await setup.running(tag, leftovers)
                assert setup.server_pid(tag) == srv.pid
                srv.proc.send_signal(signal.SIGTERM)
                sent = time.monotonic()
                await seconds_until_dead(pids, KILL_LIMIT)
                print(f"http: step processes gone {time.monotonic() - sent:.2f} s after SIGTERM")
                await anyio.to_thread.run_sync(srv.proc.wait, 10)
        assert srv.proc.returncode is not None
        assert "SIGTERM: stopping" in srv.stderr()
    (got,) = outcome
    if not isinstance(got, Exception):
        assert got.is_error is True
        assert "shutting down" in text_of(got)
    assert_cancelled(await records_of(setup.db, tag))
    assert not setup.marker.exists()
    verify = audit_verify(setup.db)
    assert verify.returncode == 0, verify.stderr
