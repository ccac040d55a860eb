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

Everything but the connections, the chain's appends and the checkpoints is
`SqlStore`'s, shared with PostgreSQL; the SQL is `_sql_sqlite`'s (schema
versions in ``PRAGMA user_version``, applied when a file opens read-write).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar, final

from mcp_harbor.errors import StoreError
from mcp_harbor.locations import default_db_path
from mcp_harbor.store._sql_sqlite import (
    CHAIN_HEAD,
    CHECKPOINT,
    DIALECT,
    INSERT_RECORD,
    MOVE_HEAD,
    SQL,
    USER_VERSION,
    WAL,
    autocheckpoint,
    synchronous,
)
from mcp_harbor.store._sqlstore import (
    Connection,
    Draft,
    SqlStore,
    migrate,
    now,
    refuse_newer,
    transaction,
)
from mcp_harbor.store.base import GENESIS, AuditRecord

__all__ = ["SCHEMA_VERSION", "SqliteStore", "default_db_path"]

log = logging.getLogger("mcp_harbor.store")

#: The schema version this code brings a file to (``PRAGMA user_version``).
SCHEMA_VERSION = DIALECT.schema_version

#: How long a write waits for another process's lock on the file.
_BUSY_MS = 10000


def _into_wal(db: sqlite3.Connection) -> None:
    """Switch the file to WAL mode, waiting up to the busy timeout for the
    lock it needs: SQLite answers "database is locked" at once, without its
    busy handler, when another connection opening the same new file holds a
    lock the switch must wait for (the store suite's six stores opening one
    new file at once hit it once in a CI run under load)."""
    deadline = time.monotonic() + _BUSY_MS / 1000
    pause = 0.001
    while True:
        try:
            db.execute(WAL)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


#: Writes between two background checkpoints (an audit record touches about
#: four pages, so about SQLite's default of 1,000 WAL pages).
CHECKPOINT_EVERY = 250
#: The writing connections' own automatic checkpoint, a backstop only (WAL
#: pages, ~80 MB): it runs inside a commit, so only if the background
#: checkpoints cannot keep up or cannot run.
_BACKSTOP_PAGES = 20000


def _user_version(db: Connection) -> int:
    return int(db.execute(USER_VERSION).fetchall()[0][0])


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
            db.execute(synchronous(self._synchronous))
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
                    db.execute(CHECKPOINT).fetchall()
                    self.runs += 1
                except sqlite3.Error as exc:
                    log.warning("audit store %s: checkpoint failed: %s", self._path, exc)

    def close(self) -> None:
        """Stop the thread after the checkpoint it is running, if any."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


@final
class SqliteStore(SqlStore):
    """The `Store` on one SQLite file."""

    _sql: ClassVar = SQL
    _errors: ClassVar = (sqlite3.Error, OSError)
    #: Appends take turns on the store's lock (and the file's).
    append_concurrency = 1

    def __init__(self, path: Path, *, durable: bool = False, readonly: bool = False) -> None:
        #: The file (`location` is its text).
        self.path = path
        self._readonly = readonly
        self._lock = threading.Lock()
        self._synchronous = "FULL" if durable else "NORMAL"
        #: `try_append`'s connection, opened on its first use.
        self._quick: sqlite3.Connection | None = None
        self._checkpointer = _Checkpointer(path, self._synchronous, CHECKPOINT_EVERY)
        with self._translated("open the database"):
            if readonly and not path.exists():
                raise StoreError(f"audit store {path}: no such file; pass --db PATH")
            if not readonly:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not path.exists():  # the trail is the operator's: private from the start
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            self._db = self._connect(busy_ms=_BUSY_MS)
            try:
                if readonly:
                    refuse_newer(_user_version(self._db), self._sql, self.location)
                else:
                    _into_wal(self._db)
                    migrate(
                        self._db,
                        self._sql,
                        _user_version,
                        self.location,
                        self._errors,
                        self._adopt_rows,
                    )
            except BaseException:
                self._db.close()
                raise

    @property
    def location(self) -> str:
        """See `Store.location`: the file's path."""
        return str(self.path)

    def _connect(self, busy_ms: int) -> sqlite3.Connection:
        """A connection to the file (the main one, and `try_append`'s, which
        never waits: ``busy_ms=0``), read-only for a read-only store; in
        autocommit mode (transactions are explicit); ``connect``'s `timeout`
        is SQLite's busy timeout."""
        if self._readonly:
            target: str | Path = f"{self.path.absolute().as_uri()}?mode=ro"
        else:
            target = self.path
        db = sqlite3.connect(
            target,
            uri=self._readonly,
            check_same_thread=False,
            isolation_level=None,
            timeout=busy_ms / 1000,
        )
        db.row_factory = sqlite3.Row
        db.execute(synchronous(self._synchronous))
        db.execute(autocheckpoint(_BACKSTOP_PAGES))
        return db

    @contextlib.contextmanager
    def _connection(self, doing: str) -> Iterator[Connection]:
        with self._lock, self._translated(doing):
            yield self._db

    def close(self) -> None:
        """See `Store.close`."""
        self._checkpointer.close()
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._closed = True
            if self._quick is not None:
                self._quick.close()
            self._db.close()

    # --- the chain, appended ----------------------------------------------------------

    def _append(self, draft: Draft) -> AuditRecord:
        """See `Store.append`: one ``BEGIN IMMEDIATE`` transaction that reads
        the head and writes the next record, waiting up to the busy timeout
        for another process's."""
        with self._connection("write an audit record"):
            return self._append_on(self._db, draft)

    def _try_append(self, draft: Draft) -> AuditRecord | None:
        """See `Store.try_append`: None when another thread of this process
        or another process is writing. A commit in WAL mode takes tens of
        microseconds, less than handing the record to a thread."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            self._writable("write an audit record")  # closed since it was asked?
            with self._translated("write an audit record"):
                if self._quick is None:
                    # A second connection that never waits for the file's
                    # lock (busy_timeout 0), so that this path needs no
                    # PRAGMA before and after each record.
                    self._quick = self._connect(busy_ms=0)
                try:
                    return self._append_on(self._quick, draft)
                except sqlite3.OperationalError as exc:
                    if "locked" in str(exc) or "busy" in str(exc):
                        return None
                    raise
        finally:
            self._lock.release()

    def _append_on(self, db: sqlite3.Connection, draft: Draft) -> AuditRecord:
        """Append on `db` under `self._lock` (held by the caller), in one
        ``BEGIN IMMEDIATE`` transaction that reads the head and writes the
        next record, so that two processes on one file still write one
        chain."""
        with transaction(db, self._sql.dialect.begin_write, self._errors):
            record = self._append_in(db, draft)
        self._checkpointer.wrote()  # after the commit: a checkpoint copies it
        return record

    def _append_in(self, conn: Connection, draft: Draft) -> AuditRecord:
        """See `SqlStore._append_in`: in Python, under the ``BEGIN
        IMMEDIATE`` of the caller's transaction (the file's write lock), so
        nobody else appends between reading the head and writing after it."""
        at = now()
        head = conn.execute(CHAIN_HEAD).fetchall()
        seq = head[0]["seq"] + 1 if head else 1
        prev = head[0]["hash"] if head else GENESIS
        digest = draft.digest(seq, at, prev)
        d = draft
        conn.execute(
            INSERT_RECORD,
            (seq, d.call_id, d.kind, at, d.principal, d.tool, d.status, d.text, prev, digest),
        )
        conn.execute(MOVE_HEAD, (f"{seq}:{digest}",))
        return draft.sealed(seq, at, prev, digest)
