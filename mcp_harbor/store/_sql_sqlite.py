"""SQLite's SQL: its dialect, its schema versions, the statements of its
chain (appended in Python, under the file's write lock) and its pragmas.

**Schema versions** live in ``PRAGMA user_version`` (0 in a new file, and in
every file written before versions existed); ``meta.schema_version`` is kept
equal to it, as in PostgreSQL. `SqliteStore` applies the missing versions
when it opens a file read-write, in one ``BEGIN IMMEDIATE`` transaction, so
two processes opening one file take turns and a failed upgrade leaves the
file as it was:

1. ``meta``, ``audit`` (the chain), ``memory``, ``approvals`` and ``leases``
   with their indexes: the schema of every file written before versions
   existed, created ``IF NOT EXISTS``, so that such a file (whichever of
   these tables it lacks) is adopted as version 1 with every record kept.
2. No statement: from this version on every row of ``approvals`` and
   ``memory`` is covered by a chain record (kinds ``approval`` and
   ``memory``); the upgrade appends one for each row already there, marked
   ``adopted`` (`SqlStore._adopt_rows`).
3. ``approvals`` gains ``approvers``, ``plan_hash``, ``export_hash``,
   ``reason`` and ``decided_as`` (`APPROVAL_COLUMNS`).
4. ``memory`` gains ``embedder`` and ``embedding`` (nullable: the rows
   already there keep their digests) and the index ``memory_recall``
   (`MEMORY_EMBEDDING`): agent steps recall similar past turns.
5. ``tasks`` (`TASKS_TABLE`): durable tasks of the MCP tasks extension.

To add a version, append a tuple of statements to `MIGRATIONS`, describe it
above and in docs/scale-out.md (*Schema versions*), and extend
tests/store/test_sqlite_schema.py.
"""

from __future__ import annotations

from typing import Final

from mcp_harbor.store._sql import (
    APPROVAL_COLUMNS,
    MEMORY_EMBEDDING,
    TASKS_TABLE,
    Dialect,
    Statements,
)

__all__ = [
    "CHAIN_HEAD",
    "CHECKPOINT",
    "DIALECT",
    "INSERT_RECORD",
    "MIGRATIONS",
    "MOVE_HEAD",
    "SQL",
    "USER_VERSION",
    "WAL",
    "autocheckpoint",
    "synchronous",
]

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (  # 1: the schema of every file written before versions existed
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE IF NOT EXISTS audit (
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
        )""",
        "CREATE INDEX IF NOT EXISTS audit_call ON audit (call_id)",
        "CREATE INDEX IF NOT EXISTS audit_at ON audit (at)",
        """CREATE TABLE IF NOT EXISTS memory (
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
        )""",
        "CREATE INDEX IF NOT EXISTS memory_session ON memory (tenant, principal, session, id)",
        """CREATE TABLE IF NOT EXISTS approvals (
            run_id TEXT PRIMARY KEY,
            tool TEXT NOT NULL,
            principal TEXT NOT NULL,
            message TEXT NOT NULL,
            arguments TEXT NOT NULL,
            requested_at TEXT NOT NULL,
            decision TEXT,
            decided_by TEXT,
            decided_at TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS leases (
            run_id TEXT PRIMARY KEY,
            tool TEXT NOT NULL,
            worker TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            status TEXT NOT NULL,
            expires_at REAL NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS leases_running ON leases (status, expires_at)",
    ),
    (),  # 2: approvals and memory rows covered by the chain (adopted in Python)
    (  # 3: approvals bound to a plan, with who may answer and why it was answered
        *APPROVAL_COLUMNS,
    ),
    MEMORY_EMBEDDING,  # 4: memory rows with an embedding, for recall
    TASKS_TABLE,  # 5: durable tasks (docs/long-calls.md)
)

DIALECT: Final = Dialect(
    name="SQLite",
    mark="?",
    lock="",
    lock_skipping="",
    begin_write="BEGIN IMMEDIATE",
    begin_snapshot="BEGIN",
    migrations=MIGRATIONS,
    version_marks=("PRAGMA user_version = {version}",),
    rows_chained_from=2,
)
SQL: Final = Statements(DIALECT)

#: The schema version of the open file.
USER_VERSION: Final = "PRAGMA user_version"

# --- the chain, in one BEGIN IMMEDIATE transaction (`SqliteStore`) ----------------

#: The last record: its ``seq`` and ``hash`` (none in an empty trail).
CHAIN_HEAD: Final = "SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1"
INSERT_RECORD: Final = (
    "INSERT INTO audit (seq, call_id, kind, at, principal, tool, status, body,"
    " prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: ``meta.head`` := ``"SEQ:HASH"`` of the record just written.
MOVE_HEAD: Final = (
    "INSERT INTO meta (key, value) VALUES ('head', ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)

# --- pragmas -----------------------------------------------------------------------

WAL: Final = "PRAGMA journal_mode = WAL"
#: A checkpoint that never waits for, nor blocks, a writer or a reader.
CHECKPOINT: Final = "PRAGMA wal_checkpoint(PASSIVE)"


def synchronous(level: str) -> str:
    """``PRAGMA synchronous`` at `level` (``NORMAL`` or ``FULL``)."""
    if level not in ("NORMAL", "FULL"):
        raise ValueError(f"synchronous level {level!r}")
    return f"PRAGMA synchronous = {level}"


def autocheckpoint(pages: int) -> str:
    """``PRAGMA wal_autocheckpoint``: the connection's own checkpoint after
    `pages` WAL pages."""
    return f"PRAGMA wal_autocheckpoint = {int(pages)}"
