"""The audit trail in SQLite (WAL mode): the embedded default store.

One connection per `SqliteStore`, used under a lock, so a server's threads
never contend; other processes (``mcp-harbor audit`` while a server writes)
are readers of the WAL. Appends run in ``BEGIN IMMEDIATE`` transactions that
read the chain's head and write the next record, so two writers (two servers
on one file) still produce one valid chain.

Durability: ``synchronous=NORMAL`` in WAL mode, so a committed record survives
the server process being killed; ``durable=True`` (``--db-sync full``) also
survives power loss, at the price of an fsync per record.

Checkpoints (copying the WAL back into the database file) run in a thread of
their own (`_Checkpointer`), never inside a write.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from mcp_harbor.errors import StoreError
from mcp_harbor.locations import default_db_path
from mcp_harbor.store.base import (
    GENESIS,
    MEMORY_COLUMNS,
    AuditQuery,
    AuditRecord,
    CallSummary,
    Lease,
    MemoryEntry,
    RecordKind,
    VerifyReport,
    approval_of,
    canonical_json,
    memory_of,
    memory_row,
    query_filters,
    record_hash,
    summary_of,
    verify_chain,
)

__all__ = ["SCHEMA_VERSION", "SqliteStore", "default_db_path"]

log = logging.getLogger("mcp_harbor.store")

SCHEMA_VERSION = 1

_SCHEMA = """
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


#: How long a write waits for another process's lock on the file.
_BUSY_MS = 10000

#: Writes between two background checkpoints (an audit record touches about
#: four pages, so about SQLite's default of 1,000 WAL pages).
CHECKPOINT_EVERY = 250
#: The writing connections' own automatic checkpoint, a backstop only (WAL
#: pages, ~80 MB): it runs inside a commit, so only if the background
#: checkpoints cannot keep up or cannot run.
_BACKSTOP_PAGES = 20000

_second: tuple[int, str] = (-1, "")


def _now() -> str:
    """The current UTC time, ``2026-11-29T21:03:34.123456Z``."""
    global _second
    t = time.time()
    whole = int(t)
    if _second[0] != whole:  # strftime once per second, not per record
        _second = (whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    return f"{_second[1]}.{int((t - whole) * 1e6):06d}Z"


@contextlib.contextmanager
def _translated(path: Path, doing: str) -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"audit store {path}: cannot {doing}: {exc}") from exc
    except OSError as exc:
        raise StoreError(f"audit store {path}: cannot {doing}: {exc.strerror or exc}") from exc


def _row(row: sqlite3.Row) -> AuditRecord:
    return AuditRecord(
        seq=row["seq"],
        call_id=row["call_id"],
        kind=cast(RecordKind, row["kind"]),
        at=row["at"],
        principal=row["principal"],
        tool=row["tool"],
        status=row["status"],
        body=json.loads(row["body"]),
        prev_hash=row["prev_hash"],
        hash=row["hash"],
    )


class _Checkpointer:
    """Copies the WAL back into the database file from a thread of its own.

    SQLite's automatic checkpoint runs inside the commit that takes the WAL
    past 1,000 pages: that one commit then takes 3-4 ms (copying the pages,
    an fsync) instead of ~30 µs, on whichever thread wrote it, which for
    most audit records is the server's event loop, so every call in flight
    stalls. Here a ``PASSIVE`` checkpoint, which never waits for and never
    blocks a writer or a reader, runs on a connection of this thread every
    `every` writes; the writing connections keep an automatic checkpoint far
    higher, as a backstop.

    A failed checkpoint is logged and tried again at the next turn; nothing
    written is at risk (the WAL keeps it until a checkpoint succeeds).
    """

    def __init__(self, path: Path, synchronous: str, every: int) -> None:
        self._path = path
        self._synchronous = synchronous
        self._every = every
        self._writes = 0
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        #: Checkpoints run so far (for tests and benchmarks).
        self.runs = 0

    def wrote(self) -> None:
        """Count one write; every `every` writes, ask for a checkpoint. Call
        with the store's lock held."""
        self._writes += 1
        if self._writes % self._every or self._stopping:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
            self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            db.execute(f"PRAGMA synchronous = {self._synchronous}")
        except sqlite3.Error as exc:
            log.warning("audit store %s: no background checkpoints: %s", self._path, exc)
            if db is not None:
                db.close()
            return
        with contextlib.closing(db):
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except sqlite3.Error as exc:
                    log.warning("audit store %s: checkpoint failed: %s", self._path, exc)

    def close(self) -> None:
        """Stop the thread after the checkpoint it is running, if any."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


class SqliteStore:
    """The `Store` on one SQLite file."""

    def __init__(self, path: Path, *, durable: bool = False, readonly: bool = False) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._synchronous = "FULL" if durable else "NORMAL"
        #: `try_append`'s connection, opened on its first use.
        self._quick: sqlite3.Connection | None = None
        self._checkpointer = _Checkpointer(path, self._synchronous, CHECKPOINT_EVERY)
        with _translated(path, "open the database"):
            if readonly:
                if not path.exists():
                    raise StoreError(f"audit store {path}: no such file; pass --db PATH")
                uri = f"file:{path}?mode=ro"
                self._db = sqlite3.connect(
                    uri, uri=True, check_same_thread=False, timeout=_BUSY_MS / 1000
                )
                self._db.row_factory = sqlite3.Row
            else:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not path.exists():  # the trail is the operator's: private from the start
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
                self._db = self._connect(busy_ms=_BUSY_MS)
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.executescript(_SCHEMA)
                self._db.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),),
                )

    def _connect(self, busy_ms: int) -> sqlite3.Connection:
        """A read-write connection to the file (the main one, and
        `try_append`'s, which never waits: ``busy_ms=0``); ``connect``'s
        `timeout` is SQLite's busy timeout."""
        db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=busy_ms / 1000
        )
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA synchronous = {self._synchronous}")
        db.execute(f"PRAGMA wal_autocheckpoint = {_BACKSTOP_PAGES}")
        return db

    def close(self) -> None:
        self._checkpointer.close()
        with self._lock, contextlib.suppress(sqlite3.Error):
            if self._quick is not None:
                self._quick.close()
            self._db.close()

    def try_append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord | None:
        """`append`, but only if it can be done at once: None when another
        thread of this process or another process is writing (the caller
        then waits in a worker thread instead). A commit in WAL mode takes
        tens of microseconds, less than handing the record to a thread.
        Raises StoreError like `append` for any other failure."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            with _translated(self.path, "write an audit record"):
                if self._quick is None:
                    # A second connection that never waits for the file's
                    # lock (busy_timeout 0), so that this path needs no
                    # PRAGMA before and after each record.
                    self._quick = self._connect(busy_ms=0)
                try:
                    return self._append_locked(
                        call_id, kind, principal, tool, status, body, self._quick
                    )
                except sqlite3.OperationalError as exc:
                    if "locked" in str(exc) or "busy" in str(exc):
                        return None
                    raise
        finally:
            self._lock.release()

    def append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord:
        with self._lock, _translated(self.path, "write an audit record"):
            return self._append_locked(call_id, kind, principal, tool, status, body)

    def _append_locked(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
        db: sqlite3.Connection | None = None,
    ) -> AuditRecord:
        """Append under `self._lock` (held by the caller), in one
        ``BEGIN IMMEDIATE`` transaction that reads the head and writes the next
        (on `db`, else the store's main connection)."""
        text = canonical_json(body)
        at = _now()
        if db is None:
            db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            head = db.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
            seq = head["seq"] + 1 if head else 1
            prev = head["hash"] if head else GENESIS
            digest = record_hash(seq, call_id, kind, at, principal, tool, status, text, prev)
            db.execute(
                "INSERT INTO audit (seq, call_id, kind, at, principal, tool, status, body,"
                " prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (seq, call_id, kind, at, principal, tool, status, text, prev, digest),
            )
            db.execute(
                "INSERT INTO meta (key, value) VALUES ('head', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"{seq}:{digest}",),
            )
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
        self._checkpointer.wrote()
        return AuditRecord(seq, call_id, kind, at, principal, tool, status, body, prev, digest)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock, _translated(self.path, "read the audit trail"):
            return list(self._db.execute(sql, params))

    def _snapshot(self, *queries: str) -> list[list[sqlite3.Row]]:
        """Run read-only `queries` in one read transaction, so they see one
        state of the file even while another process appends."""
        with self._lock, _translated(self.path, "read the audit trail"):
            self._db.execute("BEGIN")
            try:
                return [list(self._db.execute(q)) for q in queries]
            finally:
                self._db.execute("COMMIT")

    def records(self) -> list[AuditRecord]:
        return [_row(r) for r in self._query("SELECT * FROM audit ORDER BY seq")]

    def open_calls(self) -> list[AuditRecord]:
        rows = self._query(
            "SELECT * FROM audit s WHERE s.kind = 'start' AND NOT EXISTS "
            "(SELECT 1 FROM audit e WHERE e.call_id = s.call_id AND e.kind = 'end') ORDER BY seq"
        )
        return [_row(r) for r in rows]

    def _summaries(self, where: str, params: Sequence[Any], limit: int) -> list[CallSummary]:
        rows = self._query(
            "SELECT s.*, e.at AS end_at, e.status AS end_status, e.body AS end_body "
            "FROM audit s LEFT JOIN audit e ON e.call_id = s.call_id AND e.kind = 'end' "
            f"WHERE s.kind IN ('start', 'call') {where} ORDER BY s.seq DESC LIMIT ?",
            (*params, max(limit, 0)),  # as PostgreSQL: a negative limit is no rows
        )
        return [summary_of(r) for r in rows]

    def calls(self, query: AuditQuery) -> list[CallSummary]:
        where, params = query_filters(query, "?")
        return self._summaries(where, params, query.limit)

    def call(self, call_id: str) -> CallSummary | None:
        found = self._summaries("AND s.call_id = ?", (call_id,), 1)
        return found[0] if found else None

    def remember(self, entry: MemoryEntry) -> None:
        with self._lock, _translated(self.path, "write session memory"):
            self._db.execute(
                f"INSERT INTO memory ({MEMORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                memory_row(entry),
            )

    def recall(self, tenant: str, principal: str, session: str, limit: int) -> list[MemoryEntry]:
        rows = self._query(
            "SELECT * FROM (SELECT * FROM memory WHERE tenant = ? AND principal = ? AND "
            "session = ? ORDER BY id DESC LIMIT ?) ORDER BY id",
            (tenant, principal, session, max(limit, 0)),
        )
        return [memory_of(r) for r in rows]

    def request_approval(
        self, run_id: str, tool: str, principal: str, message: str, arguments: Mapping[str, Any]
    ) -> None:
        with self._lock, _translated(self.path, "record an approval request"):
            self._db.execute(
                "INSERT INTO approvals (run_id, tool, principal, message, arguments, requested_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (run_id, tool, principal, message, canonical_json(arguments), _now()),
            )

    def decide(self, run_id: str, decision: str, decided_by: str) -> str:
        """Record an operator's answer. Returns ``decided``, ``unknown`` (no
        such request) or the decision already recorded (``approved``/``denied``)."""
        with self._lock, _translated(self.path, "record an approval"):
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute(
                    "SELECT decision FROM approvals WHERE run_id = ?", (run_id,)
                ).fetchone()
                if row is None:
                    outcome = "unknown"
                elif row["decision"] is not None:
                    outcome = str(row["decision"])
                else:
                    db.execute(
                        "UPDATE approvals SET decision = ?, decided_by = ?, decided_at = ? "
                        "WHERE run_id = ?",
                        (decision, decided_by, _now(), run_id),
                    )
                    outcome = "decided"
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
        return outcome

    @contextlib.contextmanager
    def _immediate(self, doing: str) -> Iterator[sqlite3.Connection]:
        with self._lock, _translated(self.path, doing):
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise

    def lease_acquire(self, run_id: str, tool: str, worker: str, expires_at: float) -> int | None:
        with self._immediate("claim a run") as db:
            row = db.execute(
                "SELECT status, attempt FROM leases WHERE run_id = ?", (run_id,)
            ).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO leases (run_id, tool, worker, attempt, status, expires_at)"
                    " VALUES (?, ?, ?, 1, 'running', ?)",
                    (run_id, tool, worker, expires_at),
                )
                return 1
            if row["status"] != "queued":
                return None
            attempt = int(row["attempt"]) + 1
            db.execute(
                "UPDATE leases SET worker = ?, attempt = ?, status = 'running', expires_at = ?"
                " WHERE run_id = ?",
                (worker, attempt, expires_at, run_id),
            )
            return attempt

    def lease_renew(self, run_id: str, attempt: int, expires_at: float) -> bool:
        with self._lock, _translated(self.path, "renew a lease"):
            cur = self._db.execute(
                "UPDATE leases SET expires_at = ? WHERE run_id = ? AND attempt = ?"
                " AND status = 'running'",
                (expires_at, run_id, attempt),
            )
            return cur.rowcount == 1

    def lease_release(self, run_id: str, attempt: int) -> bool:
        with self._lock, _translated(self.path, "release a lease"):
            cur = self._db.execute(
                "UPDATE leases SET status = 'done' WHERE run_id = ? AND attempt = ?"
                " AND status = 'running'",
                (run_id, attempt),
            )
            return cur.rowcount == 1

    def lease_expire(self, now: float) -> list[Lease]:
        with self._immediate("expire leases") as db:
            rows = db.execute(
                "SELECT run_id, tool, worker, attempt FROM leases"
                " WHERE status = 'running' AND expires_at < ?",
                (now,),
            ).fetchall()
            db.executemany(
                "UPDATE leases SET status = 'lost' WHERE run_id = ?",
                [(r["run_id"],) for r in rows],
            )
        return [Lease(r["run_id"], r["tool"], r["worker"], int(r["attempt"])) for r in rows]

    def lease_requeue(self, run_id: str) -> None:
        with self._lock, _translated(self.path, "re-queue a run"):
            self._db.execute(
                "UPDATE leases SET status = 'queued' WHERE run_id = ? AND status = 'lost'",
                (run_id,),
            )

    def decision(self, run_id: str) -> tuple[str, str] | None:
        """(decision, decided_by) once an operator answered, else None."""
        rows = self._query(
            "SELECT decision, decided_by FROM approvals WHERE run_id = ? AND decision IS NOT NULL",
            (run_id,),
        )
        return (rows[0]["decision"], rows[0]["decided_by"]) if rows else None

    def pending_approvals(self) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT * FROM approvals WHERE decision IS NULL ORDER BY requested_at, run_id"
        )
        return [approval_of(r) for r in rows]

    def verify(self) -> VerifyReport:
        # One snapshot: the rows and the head must come from the same state,
        # or a record appended between two reads looks like a deleted one.
        rows, head_rows = self._snapshot(
            "SELECT * FROM audit ORDER BY seq", "SELECT value FROM meta WHERE key = 'head'"
        )
        return verify_chain(rows, head_rows[0]["value"] if head_rows else None)
