"""Issue 8, faults: a real ``mcp-harbor serve`` is SIGKILLed mid-run, loses
its client mid-call (stdio EOF, HTTP connection closed), loses its audit
store (a full filesystem, a read-only remount), and runs steps that fork a
thousand processes or leave a child holding stdout.

Proves: the SIGKILLed server's step processes die with it (the reaper), and
the next start closes the run as ``interrupted`` with ``audit verify``
passing; a client that goes away gets its process groups killed and the call
recorded as ``cancelled``; an unwritable store fails calls closed (nothing
runs, a clear error) and the server recovers when the store does; a
thousand forked sleeps and a stdout held open are all gone by the timeout.
Already covered elsewhere: ``tests/test_audit_durability.py`` (killed
server closed as interrupted, store locked past the busy timeout),
``tests/test_mcp_processes.py`` (timeout and cancel kill every process).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from _raw import (
    CALL_HEADERS,
    RawStdio,
    figure,
    group_members,
    modern_call,
    open_socket,
    raw_request,
    text_of_result,
)
from harbor_helpers import (
    audit_json,
    audit_verify,
    http_server,
    kill_leftovers,
    pid_alive,
    write_export,
)

TREE = """
    name: tree
    description: Starts background sleeps and a pipeline, writes their pids, waits.
    steps:
      - name: a
        run: |
          sleep 300 & echo $! >> "MARKERS/pids"
          sleep 301 & echo $! >> "MARKERS/pids"
          (sleep 302 | cat) & echo $! >> "MARKERS/pids"
          echo $$ >> "MARKERS/pids"
          wait
"""

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


def wait_pids(markers: Path, count: int, timeout: float = 20) -> list[int]:
    path = markers / "pids"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            pids = [int(x) for x in path.read_text().split()]
            if len(pids) >= count:
                return pids
        time.sleep(0.05)
    raise AssertionError(f"the step did not start: {path}")


def seconds_until_dead(pids: list[int], limit: float) -> float:
    began = time.monotonic()
    while any(pid_alive(p) for p in pids):
        assert time.monotonic() - began < limit, [p for p in pids if pid_alive(p)]
        time.sleep(0.02)
    return time.monotonic() - began


def setup_tree(tmp: Path) -> tuple[Path, Path, Path]:
    exports, markers, db = tmp / "exports", tmp / "m", tmp / "a.db"
    markers.mkdir()
    write_export(exports, "tree.yaml", TREE.replace("MARKERS", str(markers)))
    write_export(exports, "touch.yaml", TOUCH.replace("MARKERS", str(markers)))
    return exports, markers, db


def test_sigkilled_server_takes_its_children_and_the_next_start_closes_the_run(
    tmp_path: Path,
) -> None:
    exports, markers, db = setup_tree(tmp_path)
    server = RawStdio(exports, tmp_path / "s1", "--db", str(db))
    pids: list[int] = []
    try:
        server.initialize()
        rid = server.new_id()
        server.send(
            b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tree","arguments":{}}}'
            % rid
        )
        pids = wait_pids(markers, 4)
        (running,) = audit_json(db)
        assert running["status"] == "running"
        os.kill(server.pid, signal.SIGKILL)
        server.proc.wait(10)
        took = seconds_until_dead(pids, 5)
        figure("sigkill_children_dead", processes=len(pids), seconds=round(took, 3))
    finally:
        server.close()
        kill_leftovers(pids)
    again = RawStdio(exports, tmp_path / "s2", "--db", str(db))
    try:
        again.initialize()
        assert again.alive()
    finally:
        assert again.close() == 0
    assert f"closed 1 interrupted run(s): {running['call_id']}" in again.stderr()
    (closed,) = audit_json(db)
    assert closed["status"] == "interrupted"
    proc = audit_verify(db)
    assert proc.returncode == 0, proc.stderr


def test_stdio_client_gone_mid_call_kills_the_groups_and_records_cancelled(
    tmp_path: Path,
) -> None:
    exports, markers, db = setup_tree(tmp_path)
    server = RawStdio(exports, tmp_path / "s", "--db", str(db))
    pids: list[int] = []
    try:
        server.initialize()
        server.send(
            b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"tree","arguments":{}}}'
        )
        pids = wait_pids(markers, 4)
        began = time.monotonic()
        assert server.proc.stdin is not None
        server.proc.stdin.close()  # the client is gone: EOF
        code = server.proc.wait(20)
        took = seconds_until_dead(pids, 5)
        figure("stdio_disconnect", server_exit_s=round(time.monotonic() - began, 3), exit_code=code)
    finally:
        server.close()
        kill_leftovers(pids)
    (call,) = audit_json(db)
    assert call["status"] == "cancelled" and call["ended_at"], call
    assert audit_verify(db).returncode == 0
    assert took < 5


def test_http_client_gone_mid_call_kills_the_groups_and_records_cancelled(tmp_path: Path) -> None:
    exports, markers, db = setup_tree(tmp_path)
    extra = ("--db", str(db), "--tokens", str(tmp_path / "none.json"))
    pids: list[int] = []
    with http_server(exports, tmp_path / "state", *extra) as srv:
        try:
            sock = open_socket(srv.url)
            headers = {**CALL_HEADERS, "Mcp-Name": "tree"}
            sock.sendall(raw_request(srv.url, modern_call("tree", {}), headers))
            pids = wait_pids(markers, 4)
            sock.close()  # mid-call, without reading anything
            took = seconds_until_dead(pids, 10)
            deadline = time.monotonic() + 10
            while audit_json(db)[0]["status"] == "running" and time.monotonic() < deadline:
                time.sleep(0.1)
            figure("http_disconnect", processes_dead_s=round(took, 3))
        finally:
            kill_leftovers(pids)
        assert "Traceback" not in srv.stderr()
    (call,) = audit_json(db)
    assert call["status"] == "cancelled", call
    assert audit_verify(db).returncode == 0


@contextlib.contextmanager
def tiny_fs(where: Path, size: str = "300k"):  # type: ignore[no-untyped-def]
    where.mkdir()
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)], check=True
    )
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    """Fill the filesystem of `folder` to the last byte."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


def test_a_full_store_fails_calls_closed_and_recovers(tmp_path: Path) -> None:
    exports, markers, _ = setup_tree(tmp_path)
    with tiny_fs(tmp_path / "dbfs") as fs:
        db = fs / "a.db"
        server = RawStdio(exports, tmp_path / "state", "--db", str(db))
        try:
            server.initialize()
            assert server.call("touch", {"name": "first"})["result"].get("isError") is not True
            outcomes = {}
            for label in ("full",):  # a ro remount is refused (EBUSY) while the db is open
                if label == "full":
                    filler = fill(fs)
                else:
                    subprocess.run(["mount", "-o", "remount,ro", str(fs)], check=True)
                # A few calls: one may still fit in the WAL's free pages.
                refused = 0
                for i in range(5):
                    name = f"{label}x{'abcde'[i]}"
                    reply = server.call("touch", {"name": name})
                    text = text_of_result(reply)
                    if reply["result"].get("isError"):
                        assert "the audit store is unavailable, so nothing was run" in text, text
                        assert not (markers / name).exists()
                        refused += 1
                outcomes[label] = refused
                assert refused >= 4, (label, refused)
                if label == "full":
                    filler.unlink()
                else:
                    subprocess.run(["mount", "-o", "remount,rw", str(fs)], check=True)
                back = server.call("touch", {"name": f"back{label}"})
                assert back["result"].get("isError") is not True, text_of_result(back)
                assert (markers / f"back{label}").exists()
            figure("store_unwritable", refused_of_5=outcomes)
            assert server.alive()
        finally:
            code = server.close()
        log = server.stderr()
        assert code == 0, log
        assert "audit store unavailable, refusing to run touch" in log
        assert "Traceback" not in log
        ran = {p.name for p in markers.iterdir()} - {"pids"}
        audited = {c["arguments"]["name"] for c in audit_json(db) if c["status"] == "ok"}
        assert ran == audited  # nothing ran unaudited
        proc = audit_verify(db)
        assert proc.returncode == 0, proc.stdout + proc.stderr


FORK = """
    name: fork
    description: Forks a thousand sleeps and never finishes.
    timeout: 6
    steps:
      - name: a
        run: |
          echo $$ > "MARKERS/leader"
          for i in $(seq 1000); do sleep 300 & done
          echo forked > "MARKERS/forked"
          wait
"""

HOLD = """
    name: hold
    description: Leaves a child holding stdout open, and exits.
    steps:
      - name: a
        run: |
          echo $$ > "MARKERS/holder"
          (exec sleep 300) &
          echo started
"""


def test_a_thousand_forks_and_a_held_stdout_are_bounded(tmp_path: Path) -> None:
    exports, markers = tmp_path / "exports", tmp_path / "m"
    markers.mkdir()
    write_export(exports, "fork.yaml", FORK.replace("MARKERS", str(markers)))
    write_export(exports, "hold.yaml", HOLD.replace("MARKERS", str(markers)))
    server = RawStdio(exports, tmp_path / "state", "--db", str(tmp_path / "a.db"))
    leftovers: list[int] = []
    try:
        server.initialize()
        began = time.monotonic()
        reply = server.call("fork", {}, timeout=60)
        took = time.monotonic() - began
        leader = int((markers / "leader").read_text())
        leftovers = group_members(leader)
        assert (markers / "forked").exists()  # all thousand were started
        assert "timeout" in text_of_result(reply).lower(), text_of_result(reply)
        assert leftovers == []
        began = time.monotonic()
        held = server.call("hold", {}, timeout=30)
        hold_s = time.monotonic() - began
        assert held["result"].get("isError") is not True, text_of_result(held)
        holder = int((markers / "holder").read_text())
        assert group_members(holder) == []
        figure("fork_1000", call_seconds=round(took, 2), timeout_s=6, left=len(leftovers))
        figure("held_stdout", call_seconds=round(hold_s, 2))
        assert hold_s < 5
    finally:
        server.close()
        kill_leftovers(leftovers)
