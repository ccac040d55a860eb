"""Issue 4: what the audit trail records, and that tampering is detected.

Real ``mcp-harbor serve`` over stdio (both eras) writing a real SQLite file;
read back with the real ``mcp-harbor audit``/``audit show``/``audit verify``
subprocesses. Proves: every outcome (ok, failed, timeout, cancelled, invalid,
unknown) leaves a complete record; the filters of ``audit``; a ``secret:
true`` argument never appears in the database (main file and WAL), the
server's logs (at debug level) or the results, also inside rendered commands
and invalid-argument messages, while the command still receives the value;
editing, deleting or reordering rows of the SQLite file makes ``audit verify``
exit 1 and name the record.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import time
from functools import partial
from pathlib import Path

import anyio
import pytest
from harbor_helpers import (
    MODES,
    audit_json,
    audit_show,
    audit_verify,
    harbor_cli,
    parallel,
    stdio_client_of,
    text_of,
    write_export,
)
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

OUTCOMES = """
    name: outcome
    description: Ends the way it is asked to.
    timeout: 2
    args:
      how: {type: string, enum: [ok, fail, slow]}
    required: [how]
    steps:
      - name: go
        run: |
          case {{ args.how }} in
            ok) echo fine ;;
            fail) echo broken >&2; exit 3 ;;
            slow) sleep 30 ;;
          esac
"""


async def wait_status(db: Path, call_filter: str, status: str) -> dict:  # type: ignore[type-arg]
    with anyio.fail_after(15):
        while True:
            # Off the event loop: the client must go on sending (its cancel).
            calls = await anyio.to_thread.run_sync(audit_json, db, "--status", status)
            found = [c for c in calls if c["tool"] == call_filter]
            if found:
                return found[0]
            await anyio.sleep(0.1)


@pytest.mark.parametrize("mode", MODES)
async def test_every_outcome_leaves_a_record(tmp_path: Path, mode: str) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "outcome.yaml", OUTCOMES)
    async with stdio_client_of(exports, tmp_path / "state", mode, "--db", str(db)) as client:
        assert (await client.call_tool("outcome", {"how": "ok"})).is_error is False
        assert (await client.call_tool("outcome", {"how": "fail"})).is_error is True
        assert (await client.call_tool("outcome", {"how": "slow"})).is_error is True  # timeout
        assert (await client.call_tool("outcome", {"how": "nope"})).is_error is True  # invalid
        with pytest.raises(MCPError):
            await client.call_tool("missing", {})
        with pytest.raises(MCPError):
            await client.call_tool("outcome", {"how": "slow"}, read_timeout_seconds=0.3)
        await wait_status(db, "outcome", "cancelled")

    calls = audit_json(db)
    statuses = [c["status"] for c in reversed(calls)]
    assert statuses == ["ok", "failed", "timeout", "invalid", "unknown", "cancelled"]
    for c in calls:
        assert c["ended_at"] is not None and c["started_at"] <= c["ended_at"]
        assert c["caller"]["transport"] == "stdio"
    by = {c["status"]: c for c in calls}
    assert by["invalid"]["arguments"] == {"how": "nope"}
    assert by["unknown"]["tool"] == "missing"
    ran = ("ok", "failed", "timeout", "cancelled")
    shows = parallel(*(partial(audit_show, db, by[s]["call_id"]) for s in ran))
    shown = dict(zip(ran, shows, strict=True))
    for status in ran:
        assert shown[status]["end"]["status"] == status
        how = {"ok": "ok", "failed": "fail"}.get(status, "slow")
        assert shown[status]["arguments"] == {"how": how}
    (step,) = shown["failed"]["end"]["steps"]
    assert step["exit_code"] == 3 and step["stderr_bytes"] == len(b"broken\n")
    assert step["stderr_sha256"] == hashlib.sha256(b"broken\n").hexdigest()
    assert "case ok in" not in step["command"] and "case fail in" in step["command"]
    timeout = shown["timeout"]["end"]
    assert timeout["steps"][0]["status"] == "timeout" and timeout["exit_code"] is None
    if mode == "legacy":
        assert audit_verify(db).returncode == 0
        return

    # The filters of `mcp-harbor audit` (the CLI does not depend on the era).
    failed, outcome, missing, newest2, future, since, nobody, table, show_missing, verify = (
        parallel(
            partial(audit_json, db, "--status", "failed"),
            partial(audit_json, db, "--export", "outcome"),
            partial(audit_json, db, "--export", "missing"),
            partial(audit_json, db, "--limit", "2"),
            partial(audit_json, db, "--since", "2999-01-01T00:00"),
            partial(audit_json, db, "--since", calls[-1]["started_at"]),
            partial(audit_json, db, "--who", "local:nobody-else"),
            partial(harbor_cli, "audit", "--db", str(db)),
            partial(harbor_cli, "audit", "show", "no-such-call", "--db", str(db), check=False),
            partial(audit_verify, db),
        )
    )
    assert [c["status"] for c in failed] == ["failed"]
    assert len(outcome) == 5
    assert [c["tool"] for c in missing] == ["missing"]
    assert [c["status"] for c in newest2] == ["cancelled", "unknown"]
    assert future == []
    assert len(since) == 6
    assert nobody == []
    for word in ("ok", "failed", "timeout", "invalid", "unknown", "cancelled", "outcome"):
        assert word in table.stdout
    assert show_missing.returncode == 2 and "no call 'no-such-call'" in show_missing.stderr
    assert verify.returncode == 0


SECRET = "s3cr3tvalue42xyz"
BAD_SECRET = "BAD-Secret-Value-99"

DEPLOY = """
    name: deploy
    description: Uses a secret token.
    args:
      tok: {type: string, secret: true, pattern: "^[a-z0-9]+$", minLength: 8}
      target: {type: string}
    required: [tok, target]
    steps:
      - name: render
        run: |
          echo using {{ args.tok | shellquote }} for {{ args.target | shellquote }}
          echo "stderr sees $ARG_tok" >&2
          if [ "$ARG_tok" = {{ args.tok | shellquote }} ]; then
            echo "digest=$(printf %s "$ARG_tok" | sha256sum | cut -c1-64)"
          fi
      - name: argv
        argv: [printf, "%s\\n", "--token={{ args.tok }}"]
"""


async def test_a_secret_never_appears_in_db_logs_or_results(tmp_path: Path) -> None:
    exports, db, runs = tmp_path / "exports", tmp_path / "a.db", tmp_path / "runs"
    write_export(exports, "deploy.yaml", DEPLOY)
    errlog_path = tmp_path / "server.stderr"
    results = []
    with open(errlog_path, "w") as errlog:
        extra = ("--db", str(db), "--runs-dir", str(runs))
        async with stdio_client_of(
            exports, tmp_path / "state", "auto", *extra, errlog=errlog, log_level="debug"
        ) as client:
            ok = await client.call_tool("deploy", {"tok": SECRET, "target": "prod"})
            results.append(ok)
            # Invalid: the secret breaks its own pattern, and the message must not quote it.
            bad = await client.call_tool("deploy", {"tok": BAD_SECRET, "target": "prod"})
            results.append(bad)
            # Invalid because of another argument: the secret is still not echoed back.
            bad2 = await client.call_tool("deploy", {"tok": SECRET, "target": 5})
            results.append(bad2)
            # The server's database is still open: the records may be in the WAL.
            blobs = {p.name: p.read_bytes() for p in tmp_path.glob("a.db*")}
    assert ok.is_error is False, text_of(ok)
    assert bad.is_error is True and "tok" in text_of(bad)
    assert bad2.is_error is True and "target" in text_of(bad2)

    data = ok.structured_content
    assert data is not None
    render, argv = data["steps"]
    # The command received the value...
    assert f"digest={hashlib.sha256(SECRET.encode()).hexdigest()}" in render["stdout_tail"]
    # ...but every recorded form shows ***.
    assert "echo using '***' for " in render["command"]
    assert argv["command"] == ["printf", "%s\n", "--token=***"]
    assert "using *** for prod" in render["stdout_tail"]
    assert "stderr sees ***" in render["stderr_tail"]
    assert argv["stdout_tail"] == "--token=***\n"

    for r in results:
        wire = r.model_dump_json() + text_of(r)
        for s in (SECRET, BAD_SECRET):
            assert s not in wire, wire
    log = errlog_path.read_text()
    assert log and "deploy" in log
    blobs.update({f"after-{p.name}": p.read_bytes() for p in tmp_path.glob("a.db*")})
    assert any(b"deploy" in b for b in blobs.values())
    for name, blob in blobs.items():
        for s in (SECRET, BAD_SECRET):
            assert s.encode() not in blob, name
            assert s not in log
    calls = audit_json(db)
    assert [c["status"] for c in calls] == ["invalid", "invalid", "ok"]
    assert all(c["arguments"]["tok"] == "***" for c in calls)
    shown = audit_show(db, data["run_id"])
    assert "echo using '***' for " in shown["end"]["steps"][0]["command"]
    assert SECRET not in json.dumps(shown)


def make_trail(tmp_path: Path) -> Path:
    """A real trail: 3 ok calls and 1 invalid one = 7 records."""
    return tmp_path / "trail.db"


@pytest.fixture(scope="module")
def trail(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("trail")
    exports, db = root / "exports", root / "trail.db"
    write_export(exports, "outcome.yaml", OUTCOMES)

    async def fill() -> None:
        async with stdio_client_of(exports, root / "state", "auto", "--db", str(db)) as client:
            for how in ("ok", "fail", "ok", "bad"):
                await client.call_tool("outcome", {"how": how})

    anyio.run(fill)
    return db


def rows(db: Path) -> list[tuple]:  # type: ignore[type-arg]
    with sqlite3.connect(db) as con:
        return list(con.execute("SELECT seq, call_id, kind FROM audit ORDER BY seq"))


def tampered(trail: Path, tmp_path: Path, *sql: str) -> tuple[int, str]:
    copy = tmp_path / "copy.db"
    shutil.copy(trail, copy)
    con = sqlite3.connect(copy)
    with con:
        for statement in sql:
            con.execute(statement)
    con.close()
    proc = audit_verify(copy)
    return proc.returncode, proc.stderr


def test_intact_trail_verifies(trail: Path) -> None:
    proc = audit_verify(trail)
    assert proc.returncode == 0, proc.stderr
    assert "audit trail OK: 7 records, chain intact" in proc.stdout
    assert [k for _, _, k in rows(trail)] == ["start", "end"] * 3 + ["call"]


def test_edited_row_is_named(trail: Path, tmp_path: Path) -> None:
    seq, call_id, kind = rows(trail)[2]
    code, err = tampered(
        trail, tmp_path, f"UPDATE audit SET status = 'ok' WHERE seq = {seq}"
    )  # a failed call made to look fine? (here: the 2nd call's start record)
    assert code == 1
    assert f"TAMPERED: record {seq} (call {call_id}, {kind}): its content was changed" in err
    assert "1 problem(s)" in err
    # Editing the JSON body (e.g. who called) is caught too, and only that record is named.
    seq, call_id, kind = rows(trail)[3]
    code, err = tampered(
        trail,
        tmp_path,
        f'UPDATE audit SET body = replace(body, \'"status":"failed"\', \'"status":"ok"\'),'
        f" status = 'ok' WHERE seq = {seq}",
    )
    assert code == 1, err
    assert f"record {seq} (call {call_id}, {kind}): its content was changed" in err
    assert err.count("TAMPERED") == 1


def test_deleted_row_is_named(trail: Path, tmp_path: Path) -> None:
    code, err = tampered(trail, tmp_path, "DELETE FROM audit WHERE seq = 4")
    _, call_id, kind = rows(trail)[4]
    assert code == 1
    assert f"records 4..4 are missing (deleted) before record 5 (call {call_id}, {kind})" in err
    # Deleting the newest record leaves no gap in the chain: the head catches it.
    code, err = tampered(trail, tmp_path, "DELETE FROM audit WHERE seq = 7")
    assert code == 1
    assert "the trail ends at record 6 but its head says record 7" in err


def test_reordered_pair_is_named(trail: Path, tmp_path: Path) -> None:
    before = rows(trail)
    code, err = tampered(
        trail,
        tmp_path,
        "UPDATE audit SET seq = -1 WHERE seq = 3",
        "UPDATE audit SET seq = 3 WHERE seq = 4",
        "UPDATE audit SET seq = 4 WHERE seq = -1",
    )
    assert code == 1
    moved = before[3][1]  # the record that was 4 is now 3
    assert f"record 3 (call {moved}, {before[3][2]}): does not follow" in err
    assert f"record 4 (call {before[2][1]}, {before[2][2]})" in err


def test_swapped_contents_are_named(trail: Path, tmp_path: Path) -> None:
    # Subtler reordering: swap everything but seq between two records.
    cols = "call_id, kind, at, principal, tool, status, body, prev_hash, hash"
    code, err = tampered(
        trail,
        tmp_path,
        "CREATE TABLE t AS SELECT * FROM audit WHERE seq IN (5, 6)",
        f"UPDATE audit SET ({cols}) = (SELECT {cols} FROM t WHERE t.seq = 6) WHERE seq = 5",
        f"UPDATE audit SET ({cols}) = (SELECT {cols} FROM t WHERE t.seq = 5) WHERE seq = 6",
    )
    assert code == 1
    assert "record 5 (call" in err and "record 6 (call" in err


def test_time_is_recorded_in_utc(trail: Path) -> None:
    (newest, *_) = audit_json(trail)
    at = newest["started_at"]
    assert at.endswith("Z")
    assert (
        abs(time.mktime(time.strptime(at[:19], "%Y-%m-%dT%H:%M:%S")) - time.mktime(time.gmtime()))
        < 3600
    )


async def test_a_call_of_an_export_the_checker_refused_is_audited_as_refused(
    tmp_path: Path,
) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "outcome.yaml", OUTCOMES)
    write_export(
        exports,
        "raw.yaml",
        """
        name: raw
        description: A raw placeholder in double quotes (the checker refuses it).
        args:
          t: {type: string}
        steps:
          - name: a
            run: echo "{{ args.t }}"
        """,
    )
    extra = ("--db", str(db), "--skip-refused")
    async with stdio_client_of(exports, tmp_path / "state", "auto", *extra) as client:
        assert {t.name for t in (await client.list_tools()).tools} == {"outcome"}
        with pytest.raises(MCPError) as refused:
            await client.call_tool("raw", {"t": "x"})
    assert refused.value.message == "Unknown tool: raw"  # like any unknown tool
    (call,) = audit_json(db)
    assert (call["tool"], call["status"]) == ("raw", "refused")


def test_audit_limit_below_one_is_a_clear_error(trail: Path) -> None:
    """Issue 18: `audit --limit -1` returned every call on SQLite and none on
    PostgreSQL; it is now refused, with the range, before any store opens."""
    for limit in ("-1", "0"):
        proc = harbor_cli("audit", "--db", str(trail), "--limit", limit, check=False)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "--limit" in proc.stderr and "1" in proc.stderr
        assert "Traceback" not in proc.stderr
