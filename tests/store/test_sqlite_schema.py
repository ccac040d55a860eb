"""Issue 18: SQLite has versioned migrations, as PostgreSQL does.

The version is ``PRAGMA user_version``. A file written before versions
existed (version 0, built here with the schema SQL of that code, copied
verbatim as the "v1" fixture) opens, is adopted as version 1 and loses no
record, memory entry, approval or lease; the chain goes on from its head. An
older file still (the chain only) gets the tables it lacks. A read-only open
never migrates. A failed upgrade leaves the file as it was. (Behaviour shared
with PostgreSQL, such as refusing a newer schema, is in test_store_suite.py.)
"""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from mcp_harbor.errors import StoreError
from mcp_harbor.store import _sql_sqlite
from mcp_harbor.store._sql import Statements
from mcp_harbor.store.base import GENESIS, AuditQuery, MemoryEntry, canonical_json, record_hash
from mcp_harbor.store.sqlite import SCHEMA_VERSION, SqliteStore

#: The schema of mcp-harbor before SQLite had versions (``_SCHEMA`` of
#: mcp_harbor/store/sqlite.py at 18a4bea), copied verbatim: it ran on every
#: open, and left ``meta.schema_version`` at '1' and ``user_version`` at 0.
V1_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY,
    call_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    principal TEXT NOT NULL,
    tool TEXT NOT NULL,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_call ON audit (call_id);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at);
CREATE TABLE IF NOT EXISTS memory (
    id INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL,
    principal TEXT NOT NULL,
    session TEXT NOT NULL,
    tool TEXT NOT NULL,
    run_id TEXT NOT NULL,
    at TEXT NOT NULL,
    arguments TEXT NOT NULL,
    answer TEXT NOT NULL,
    answer_payload TEXT
);
CREATE INDEX IF NOT EXISTS memory_session ON memory (tenant, principal, session, id);
CREATE TABLE IF NOT EXISTS approvals (
    run_id TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    principal TEXT NOT NULL,
    message TEXT NOT NULL,
    arguments TEXT NOT NULL,
    requested_at TEXT NOT NULL,
    decision TEXT,
    decided_by TEXT,
    decided_at TEXT
);
CREATE TABLE IF NOT EXISTS leases (
    run_id TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    worker TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    status TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_running ON leases (status, expires_at);
"""


def _chain(db: sqlite3.Connection, n: int) -> str:
    """`n` records written as the old code wrote them; returns the head hash."""
    prev = GENESIS
    for seq in range(1, n + 1):
        body = canonical_json({"n": seq, "é": "ü"})
        at = f"2026-01-01T00:00:{seq:02d}.000000Z"
        digest = record_hash(seq, f"old{seq}", "call", at, "alice", "t", "ok", body, prev)
        db.execute(
            "INSERT INTO audit VALUES (?, ?, 'call', ?, 'alice', 't', 'ok', ?, ?, ?)",
            (seq, f"old{seq}", at, body, prev, digest),
        )
        prev = digest
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('head', ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (f"{n}:{prev}",),
    )
    return prev


def _v1_file(path: Path, records: int = 3) -> str:
    """A file as the code before versions left it, with records, a memory
    entry, a pending approval and a lease in it; returns the head hash."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(V1_SCHEMA)
        db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '1')")
        db.execute("BEGIN")
        head = _chain(db, records)
        db.execute(
            "INSERT INTO memory (tenant, principal, session, tool, run_id, at, arguments, answer,"
            " answer_payload) VALUES ('t1', 'alice', 's1', 'build', 'r0', "
            "'2026-01-01T00:00:00.000000Z', '{\"x\":1}', 'old answer', NULL)"
        )
        db.execute(
            "INSERT INTO approvals (run_id, tool, principal, message, arguments, requested_at)"
            " VALUES ('r0', 'deploy', 'alice', 'Deploy?', '{}', '2026-01-01T00:00:00.000000Z')"
        )
        db.execute(
            "INSERT INTO leases VALUES ('r0', 'deploy', 'w1', 1, 'running', 100.0)"
        )  # fmt: skip
        db.execute("COMMIT")
    finally:
        db.close()
    return head


def _user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def _count(path: Path, table: str) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        db.close()


def _meta_version(path: Path) -> str | None:
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return None if row is None else str(row[0])
    finally:
        db.close()


def _tables(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()


def test_version_2_binds_approvals_to_a_plan_and_keeps_a_version_1_request(
    tmp_path: Path,
) -> None:
    """Issue 20: a version-1 file's waiting request survives the upgrade,
    with no approvers (any operator) and no plan."""
    path = tmp_path / "harbor.db"
    _v1_file(path)
    store = SqliteStore(path)
    try:
        columns = {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(approvals)")}
        assert {"approvers", "plan_hash", "export_hash", "reason", "decided_as"} <= columns
        pending = store.pending_approvals()
        assert [item["run_id"] for item in pending] == ["r0"]
        assert pending[0]["approvers"] is None and pending[0]["plan_hash"] is None
    finally:
        store.close()


def test_a_new_file_gets_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "harbor.db"
    SqliteStore(path).close()
    assert SCHEMA_VERSION == 5
    assert _user_version(path) == SCHEMA_VERSION
    assert _meta_version(path) == str(SCHEMA_VERSION)
    assert {"meta", "audit", "memory", "approvals", "leases", "tasks"} <= _tables(path)


def test_a_file_from_before_versions_is_adopted_without_losing_a_record(tmp_path: Path) -> None:
    path = tmp_path / "harbor.db"
    head = _v1_file(path)
    assert (_user_version(path), _meta_version(path)) == (0, "1")

    store = SqliteStore(path)
    try:
        assert _user_version(path) == SCHEMA_VERSION
        assert _meta_version(path) == str(SCHEMA_VERSION)
        old = store.records()
        assert [(r.seq, r.call_id, dict(r.body)) for r in old[:3]] == [
            (n, f"old{n}", {"n": n, "é": "ü"}) for n in (1, 2, 3)
        ]
        assert old[3].prev_hash == head  # version 2 adopted the rows already there:
        assert [(r.kind, r.status, r.body["key"]) for r in old[3:]] == [
            ("approval", "adopted", "r0"),
            ("memory", "adopted", "1"),
        ]
        report = store.verify()
        assert (report.records, report.problems) == (5, [])
        record = store.append("new", "call", "bob", "t", "ok", {})
        assert (record.seq, record.prev_hash) == (6, old[4].hash)
        assert store.verify().ok and store.verify().records == 6
        assert [e.answer for e in store.recall("t1", "alice", "s1", 10)] == ["old answer"]
        assert [p["run_id"] for p in store.pending_approvals()] == ["r0"]
        assert store.decide("r0", "approved", "ops") == "decided"
        assert [x.run_id for x in store.lease_expire(200.0)] == ["r0"]
    finally:
        store.close()
    reopened = SqliteStore(path)  # a second open finds nothing to do
    try:
        # 6 records, and the decision's (approval r0): nothing adopted again
        assert reopened.verify().records == 7 and _user_version(path) == SCHEMA_VERSION
        assert reopened.verify().ok
    finally:
        reopened.close()


def test_an_older_file_with_the_chain_only_gets_the_tables_it_lacks(tmp_path: Path) -> None:
    path = tmp_path / "harbor.db"
    db = sqlite3.connect(path, isolation_level=None)
    chain_only = V1_SCHEMA.split("CREATE TABLE IF NOT EXISTS memory")[0]
    db.executescript(chain_only)
    head = _chain(db, 2)
    db.close()
    assert "memory" not in _tables(path)

    store = SqliteStore(path)
    try:
        assert {"memory", "approvals", "leases"} <= _tables(path)
        assert store.append("new", "call", "bob", "t", "ok", {}).prev_hash == head
        assert store.verify().ok
        store.remember(
            MemoryEntry("t", "p", "s", "tool", "r1", "2026-01-01T00:00:00Z", {}, "answer")
        )
        assert len(store.recall("t", "p", "s", 5)) == 1
    finally:
        store.close()


def test_a_readonly_open_reads_a_file_from_before_versions_and_never_migrates(
    tmp_path: Path,
) -> None:
    path = tmp_path / "harbor.db"
    _v1_file(path)
    reader = SqliteStore(path, readonly=True)
    try:
        assert reader.verify().ok and len(reader.records()) == 3
        assert [c.call_id for c in reader.calls(AuditQuery())] == ["old3", "old2", "old1"]
    finally:
        reader.close()
    assert _user_version(path) == 0


def test_a_failed_upgrade_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "harbor.db"
    _v1_file(path)
    broken = dataclasses.replace(
        _sql_sqlite.DIALECT,
        migrations=(
            *_sql_sqlite.MIGRATIONS,
            ("CREATE TABLE added_by_v2 (x INTEGER)", "THIS IS NOT SQL"),
        ),
    )
    monkeypatch.setattr(SqliteStore, "_sql", Statements(broken))
    with pytest.raises(StoreError, match=f"audit store {path}: cannot open the database"):
        SqliteStore(path)
    assert _user_version(path) == 0  # not even version 1 was kept: one transaction
    assert "added_by_v2" not in _tables(path)
    assert _count(path, "audit") == 3  # nor a row adopted
    monkeypatch.undo()
    store = SqliteStore(path)
    try:
        assert store.verify().records == 5  # 3, and the 2 rows adopted by version 2
        assert store.verify().ok
    finally:
        store.close()


def test_a_later_version_is_applied_once_after_the_ones_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "harbor.db"
    _v1_file(path)
    SqliteStore(path).close()
    assert _user_version(path) == SCHEMA_VERSION
    later = SCHEMA_VERSION + 1
    v_next = dataclasses.replace(
        _sql_sqlite.DIALECT,
        migrations=(*_sql_sqlite.MIGRATIONS, ("CREATE TABLE added_by_v2 (x INTEGER)",)),
    )
    monkeypatch.setattr(SqliteStore, "_sql", Statements(v_next))
    for _ in range(2):  # the second open must not create the table again
        SqliteStore(path).close()
    assert (_user_version(path), _meta_version(path)) == (later, str(later))
    assert "added_by_v2" in _tables(path)
