"""Issue 20: an audit nobody can shorten, end to end.

The real ``mcp-harbor serve`` over stdio (SDK client) and ``mcp-harbor run``
sign the chain's head into the witness file: at shutdown, after every 100
records (the default; lowered here through the test-only
``MCP_HARBOR_AUDIT_SEAL_EVERY``), and every interval while there are new
records (``MCP_HARBOR_AUDIT_SEAL_INTERVAL``). The key is created 0600 in
the config folder; a key readable by others, or too short, refuses the
start. ``mcp-harbor audit`` (subprocess) applies a group-level ``--db`` to
its subcommands and refuses the listing options with one; a malformed head,
a forged approvals row and a forged memory row are TAMPERED, exit 1, never
a traceback. The store-level cases, on both backends, are in
tests/store/test_store_seal.py and tests/store/test_store_covered_rows.py.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from harbor_helpers import harbor_cli, stdio_client_env, stdio_client_of, write_export

from mcp_harbor.store import SqliteStore
from mcp_harbor.store.base import MemoryEntry

QUICK = """
    name: quick
    description: Answers at once.
    steps:
      - name: go
        run: echo hi
"""


def _checkpoints(witness: Path) -> list[dict[str, object]]:
    if not witness.exists():
        return []
    return [json.loads(line) for line in witness.read_text().splitlines() if line.strip()]


async def _wait_for_seq(witness: Path, seq: int, seconds: float = 20) -> list[dict[str, object]]:
    with anyio.fail_after(seconds):
        while True:
            found = _checkpoints(witness)
            if any(int(str(c["seq"])) >= seq for c in found):
                return found
            await anyio.sleep(0.05)


def _verify(state: Path, *args: str) -> tuple[int, str, str]:
    proc = harbor_cli("audit", *args, state=state, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.anyio
async def test_a_server_signs_a_checkpoint_after_100_records_and_at_shutdown(
    tmp_path: Path,
) -> None:
    exports, state, db = tmp_path / "exports", tmp_path / "state", tmp_path / "a.db"
    write_export(exports, "quick.yaml", QUICK)
    witness = state / "audit.witness"
    async with stdio_client_of(exports, state, "auto", "--db", str(db)) as client:
        for _ in range(50):  # 100 records: a start and an end each
            assert (await client.call_tool("quick", {})).is_error is False
        found = await _wait_for_seq(witness, 100)
        assert [c["seq"] for c in found] == [100]  # while the server still runs
        assert (await client.call_tool("quick", {})).is_error is False
    found = await _wait_for_seq(witness, 102)  # written as the server stopped
    assert [c["seq"] for c in found] == [100, 102]
    assert {c["store"] for c in found} == {str(db)}
    assert stat.S_IMODE(os.stat(state / "audit.key").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(witness).st_mode) == 0o600
    code, out, err = _verify(state, "verify", "--db", str(db))
    assert (code, err) == (0, "")
    assert out == (
        f"audit trail OK: 102 records, chain intact, all covered by checkpoint 2 signed "
        f"{found[1]['at']} ({db})\n"
    )


@pytest.mark.anyio
async def test_a_server_signs_new_records_every_interval(tmp_path: Path) -> None:
    exports, state, db = tmp_path / "exports", tmp_path / "state", tmp_path / "a.db"
    write_export(exports, "quick.yaml", QUICK)
    env = {"MCP_HARBOR_AUDIT_SEAL_INTERVAL": "0.2", "MCP_HARBOR_AUDIT_SEAL_EVERY": "1000"}
    witness = state / "audit.witness"
    async with stdio_client_env(exports, state, "auto", "--db", str(db), env=env) as client:
        assert (await client.call_tool("quick", {})).is_error is False
        assert [c["seq"] for c in await _wait_for_seq(witness, 2)] == [2]
        await anyio.sleep(0.5)
        assert len(_checkpoints(witness)) == 1  # nothing new: nothing signed again


@pytest.mark.anyio
async def test_the_tail_cut_after_a_checkpoint_is_detected(tmp_path: Path) -> None:
    exports, state, db = tmp_path / "exports", tmp_path / "state", tmp_path / "a.db"
    write_export(exports, "quick.yaml", QUICK)
    async with stdio_client_of(exports, state, "auto", "--db", str(db)) as client:
        for _ in range(3):
            assert (await client.call_tool("quick", {})).is_error is False
    await _wait_for_seq(state / "audit.witness", 6)
    con = sqlite3.connect(db)
    with con:  # the whole last call cut, the head copied from the last row left
        con.execute("DELETE FROM audit WHERE seq > 4")
        seq, digest = con.execute("SELECT seq, hash FROM audit ORDER BY seq DESC").fetchone()
        con.execute("UPDATE meta SET value = ? WHERE key = 'head'", (f"{seq}:{digest}",))
    con.close()
    code, out, err = _verify(state, "verify", "--db", str(db))
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"TAMPERED: witness {state / 'audit.witness'} line 1 (checkpoint of record 6): the "
        "chain has no record 6: records up to 6 were deleted (truncation)",
        f"audit trail FAILED verification: 1 problem(s) in {db}",
    ]


def test_run_creates_the_key_0600_in_the_config_folder_and_signs_at_its_end(
    tmp_path: Path,
) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "quick.yaml", QUICK)
    config = tmp_path / "config"
    env = {"XDG_CONFIG_HOME": str(config), "XDG_STATE_HOME": str(tmp_path / "state")}
    env |= {"MCP_HARBOR_AUDIT_KEY": "", "MCP_HARBOR_AUDIT_WITNESS": ""}  # the defaults
    harbor_cli("run", "quick", "--exports", str(exports), "--db", str(db), **env)
    key = config / "mcp-harbor" / "audit.key"
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(key.parent).st_mode) == 0o700
    assert len(key.read_bytes()) == 32
    (checkpoint,) = _checkpoints(config / "mcp-harbor" / "audit.witness")
    assert checkpoint["seq"] == 2
    proc = harbor_cli("audit", "verify", "--db", str(db), **env)
    assert "all covered by checkpoint 1" in proc.stdout


@pytest.mark.parametrize(
    ("content", "mode", "why"),
    [
        (b"k" * 32, 0o640, "readable by others (mode 0640); chmod 600"),
        (b"k" * 32, 0o604, "readable by others (mode 0604); chmod 600"),
        (b"short", 0o600, "too short (5 bytes, at least 32)"),
    ],
)
def test_a_key_readable_by_others_or_too_short_refuses_the_start(
    tmp_path: Path, content: bytes, mode: int, why: str
) -> None:
    exports, state, db = tmp_path / "exports", tmp_path / "state", tmp_path / "a.db"
    write_export(exports, "quick.yaml", QUICK)
    key = tmp_path / "audit.key"
    key.write_bytes(content)
    key.chmod(mode)
    proc = harbor_cli(
        "serve", "--exports", str(exports), "--db", str(db), "--audit-key", str(key),
        state=state, check=False,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert f"audit key {key}: {why}" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not db.exists()  # refused before the store was opened


def _store_with_rows(db: Path) -> None:
    store = SqliteStore(db)
    try:
        store.append("c1", "call", "alice", "t", "ok", {})
        store.request_approval("r1", "deploy", "alice", "deploy?", {})
        store.decide("r1", "approved", "ops")
        store.remember(MemoryEntry("t", "alice", "s", "t", "c1", "2026-12-02T00:00:00Z", {}, "a"))
    finally:
        store.close()


def test_audit_db_at_the_group_level_verifies_that_file(tmp_path: Path) -> None:
    state, db = tmp_path / "state", tmp_path / "given.db"
    _store_with_rows(db)
    code, out, _ = _verify(state, "--db", str(db), "verify")
    assert code == 0 and out.startswith("audit trail OK: 4 records, chain intact")
    assert out.endswith(f"({db})\n")
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE audit SET status = 'failed' WHERE seq = 1")
    con.close()
    code, out, err = _verify(state, "--db", str(db), "verify")
    assert (code, out) == (1, "")
    assert "TAMPERED: record 1 (call c1, call): its content was changed" in err
    code, out, _ = _verify(state, "--db", str(db), "show", "c1")
    assert code == 0 and json.loads(out)["call_id"] == "c1"
    code, _, err = _verify(state, "--db", str(db), "verify", "--db", str(tmp_path / "b.db"))
    assert code == 2 and "name two stores: give --db once" in err
    code, _, err = _verify(state, "--db", str(db), "map")
    assert code == 2 and "audit --db does not apply to audit map" in err


@pytest.mark.parametrize(
    "option",
    [
        ["--who", "x"],
        ["--export", "x"],
        ["--status", "ok"],
        ["--since", "2026-01-01"],
        ["--limit", "3"],
        ["--json"],
    ],
)
@pytest.mark.parametrize("sub", [["verify"], ["show", "c1"]])
def test_listing_options_with_a_subcommand_are_refused(
    tmp_path: Path, option: list[str], sub: list[str]
) -> None:
    db = tmp_path / "a.db"
    _store_with_rows(db)
    code, out, err = _verify(tmp_path / "state", *option, "--db", str(db), *sub)
    assert (code, out) == (2, "")
    assert f"audit {option[0]} filters the listing of calls and does not apply to audit " in err


@pytest.mark.parametrize("head", ["garbage", "12", "x:y"])
def test_a_malformed_head_is_tampered_exit_1_without_a_traceback(tmp_path: Path, head: str) -> None:
    db = tmp_path / "a.db"
    _store_with_rows(db)
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'head'", (head,))
    con.close()
    code, out, err = _verify(tmp_path / "state", "verify", "--db", str(db))
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"TAMPERED: the chain's head in the meta table is malformed ({head!r}, expected "
        "SEQ:HASH): it was rewritten"
    )


@pytest.mark.parametrize(
    ("forgery", "problem"),
    [
        (
            "INSERT INTO approvals (run_id, tool, principal, message, arguments, requested_at,"
            " decision, decided_by, decided_at) VALUES ('r2', 'deploy', 'mallory', '?', '{}',"
            " '2026-12-02T00:00:00Z', 'approved', 'ops', '2026-12-02T00:00:01Z')",
            "approvals row r2: no chain record covers it (written behind the store's back)",
        ),
        (
            "UPDATE approvals SET decided_by = 'mallory' WHERE run_id = 'r1'",
            "approvals row r1: its content differs from what record 3 holds",
        ),
        (
            "INSERT INTO memory (tenant, principal, session, tool, run_id, at, arguments,"
            " answer) VALUES ('t', 'alice', 's', 't', 'c9', '2026-12-02T00:00:00Z', '{}', 'x')",
            "memory row 2: no chain record covers it (written behind the store's back)",
        ),
    ],
)
def test_forged_approvals_and_memory_rows_are_tampered(
    tmp_path: Path, forgery: str, problem: str
) -> None:
    db = tmp_path / "a.db"
    _store_with_rows(db)
    assert _verify(tmp_path / "state", "verify", "--db", str(db))[0] == 0
    con = sqlite3.connect(db)
    with con:
        con.execute(forgery)
    con.close()
    code, out, err = _verify(tmp_path / "state", "verify", "--db", str(db))
    assert (code, out) == (1, "")
    assert err.startswith(f"TAMPERED: {problem}")


def test_processes_creating_the_key_at_once_all_read_the_whole_same_key(tmp_path: Path) -> None:
    key = tmp_path / "config" / "audit.key"
    code = (
        "import sys; from pathlib import Path; from mcp_harbor.store.seal import load_key; "
        "print(load_key(Path(sys.argv[1]), create=True).hex())"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(key)], stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    keys = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert keys == {key.read_bytes().hex()} and len(key.read_bytes()) == 32
    assert sorted(p.name for p in key.parent.iterdir()) == ["audit.key"]  # no draft left


@pytest.mark.anyio
async def test_no_step_can_read_the_key_or_the_witness(tmp_path: Path) -> None:
    exports, state, db = tmp_path / "exports", tmp_path / "state", tmp_path / "a.db"
    keys = tmp_path / "keys"  # neither in the state nor in the config folder
    keys.mkdir()
    key, witness = keys / "audit.key", keys / "audit.witness"
    write_export(
        exports,
        "snoop.yaml",
        f"""
        name: snoop
        description: Tries to read the audit key and witness.
        steps:
          - name: key
            run: od -An -tx1 {key}
            continue_on_error: true
          - name: witness
            run: cat {witness}
            continue_on_error: true
        """,
    )
    extra = ("--db", str(db), "--audit-key", str(key), "--audit-witness", str(witness))
    async with stdio_client_of(exports, state, "auto", *extra) as client:
        await client.call_tool("snoop", {})  # the first call: a checkpoint follows
        result = await client.call_tool("snoop", {})
    # Hidden: denied (Landlock), or an empty file put over it (as root).
    steps = result.structured_content["steps"]  # type: ignore[index]
    assert [s["name"] for s in steps] == ["key", "witness"]
    for step in steps:
        assert step["stdout_tail"] == "", step
        assert step["status"] == "ok" or "sandbox denied read" in str(step.get("error")), step
    assert len(key.read_bytes()) == 32
    assert _checkpoints(witness)[-1]["seq"] == 4  # the server itself writes it
