"""The audit trail, session memory and approvals in PostgreSQL: the shared store.

Selected with ``--db postgresql://…`` (or ``postgres://…``). Every replica of
the server can write to one database; the audit records still form one hash
chain that `verify` checks exactly as the SQLite store does (same fields, same
`record_hash`).

**Why synchronous psycopg 3 and a pool.** The `Store` protocol is synchronous
and is called from worker threads (``anyio.to_thread``), so a sync
`psycopg_pool.ConnectionPool` fits it without a private event loop (whose
every call would still cross threads) and without a second, async copy of
every method. Reads take a pooled connection for one
statement (or one snapshot); writes to the chain go through one writer thread.

**The chain under many writers.** `append` puts its record on a queue and
waits (`append_nowait` returns the future instead; `AuditTrail` awaits it on
the event loop). One writer thread per store drains the queue: up to
`_BATCH` records in one statement, ``harbor_audit_append`` (schema version
4), which takes the chain's ``pg_advisory_xact_lock``, reads the chain's
head, links and hashes the records exactly as `record_hash` does, inserts
them, moves the ``meta.head`` row, and commits: one round trip, and the lock
is never held across the network or while Python waits for the GIL. The lock
serialises replicas (it is released at commit); the batch makes one lock
hold and one WAL flush serve many records. An `append` returns only after
the commit of the statement holding its record, so a start record is durable
before the first command runs. If the statement fails, every `append` of
that batch raises `StoreError` and none of its records exists.
``UNIQUE (prev_hash)`` makes a fork impossible even for a buggy writer.

**Schema versions** (``meta.schema_version``, listed in `_sql_postgres`)
are applied at start in one transaction under
``pg_advisory_xact_lock(…)``, so replicas that start together do not race
(`migrate`, shared with SQLite); a read-only store never migrates and
refuses a database without a schema. See docs/scale-out.md.

Everything but the connections and the chain's writer is `SqlStore`'s,
shared with SQLite; the SQL is `_sql_postgres`'s.

**Durability** is PostgreSQL's: with its default ``synchronous_commit = on`` a
committed record survives a crash of the server or of the database host.
``durable`` (``--db-sync full``) is accepted for symmetry with SQLite and
changes nothing.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast, final

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from mcp_harbor.errors import StoreError
from mcp_harbor.locations import without_password
from mcp_harbor.store._sql_postgres import (
    APPEND_BATCH,
    DIALECT,
    ENCODING,
    HAS_META,
    PROBE,
    READ_ONLY,
    SCHEMA_VERSION_ROW,
    SQL,
)
from mcp_harbor.store._sqlstore import (
    Connection,
    Draft,
    SqlStore,
    fetch,
    migrate,
    now,
    refuse_newer,
)
from mcp_harbor.store.base import AuditRecord

__all__ = ["SCHEMA_VERSION", "PostgresStore"]

#: The schema version this code brings a database to (``meta.schema_version``).
SCHEMA_VERSION = DIALECT.schema_version
#: Most records written in one transaction.
_BATCH = 256
#: Seconds after which the writer's idle connection is probed before a batch.
_IDLE = 5.0


@dataclass(slots=True)
class _Pending:
    """One `append` waiting for the writer thread."""

    draft: Draft
    future: Future[AuditRecord] = field(default_factory=Future)


_STOP = object()


@final
class PostgresStore(SqlStore):
    """The `Store` on one PostgreSQL database (see the module docstring)."""

    _sql: ClassVar = SQL
    _errors: ClassVar = (psycopg.Error,)  # also PoolTimeout, a psycopg.OperationalError
    #: `AuditTrail` may run this many appends at once: the writer batches them.
    append_concurrency = 64

    def __init__(
        self, dsn: str, *, durable: bool = False, readonly: bool = False, pool_size: int = 8
    ) -> None:
        self._dsn = dsn
        self._location = without_password(dsn)
        self._readonly = readonly
        self._queue: queue.SimpleQueue[_Pending | object] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        self._wconn: psycopg.Connection[dict[str, Any]] | None = None  # the writer's own
        self._wconn_used = 0.0

        def configure(conn: psycopg.Connection[Any]) -> None:
            if readonly:
                conn.execute(READ_ONLY)

        with self._translated("connect"):
            # One direct connection first: a wrong DSN or a database that is
            # down fails at once with libpq's reason (the pool would retry).
            with psycopg.connect(
                dsn, autocommit=True, row_factory=dict_row, connect_timeout=10
            ) as conn:
                if readonly:
                    version = self._version(conn)
                    if version == 0:
                        raise StoreError(
                            f"audit store {self.location}: no mcp-harbor schema in this database"
                        )
                    refuse_newer(version, self._sql, self.location)
                else:
                    migrate(
                        conn,
                        self._sql,
                        self._version,
                        self.location,
                        self._errors,
                        self._adopt_rows,
                    )
            self._pool: ConnectionPool[psycopg.Connection[dict[str, Any]]] = ConnectionPool(
                dsn,
                min_size=1,
                max_size=pool_size,
                kwargs={"autocommit": True, "row_factory": dict_row, "connect_timeout": 10},
                configure=configure,
                check=ConnectionPool.check_connection,
                open=False,
                name="mcp-harbor-store",
            )
            self._pool.open(wait=True, timeout=15)

    @property
    def location(self) -> str:
        """See `Store.location`: the DSN without its password."""
        return self._location

    # --- plumbing -----------------------------------------------------------------

    @contextlib.contextmanager
    def _connection(self, doing: str) -> Iterator[Connection]:
        with self._translated(doing), self._pool.connection() as conn:
            yield conn

    def _version(self, conn: Connection) -> int:
        """The schema version of the database (0: none), after checking that
        it is in UTF8."""
        encoding = fetch(conn.execute(ENCODING))
        if not encoding or encoding[0]["server_encoding"] != "UTF8":
            # Records are hashed as UTF-8, in Python and in harbor_audit_append.
            raise StoreError(
                f"audit store {self.location}: the database must use the UTF8 encoding "
                "(CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)"
            )
        if not fetch(conn.execute(HAS_META))[0]["ok"]:
            return 0
        row = fetch(conn.execute(SCHEMA_VERSION_ROW))
        return int(row[0]["value"]) if row else 0

    def close(self) -> None:
        """See `Store.close`: after the writer wrote what it was given."""
        with self._writer_lock:
            self._closed = True
            writer, self._writer = self._writer, None
        if writer is not None:
            self._queue.put(_STOP)
            writer.join()
        self._drop_writer_connection()
        self._pool.close()

    # --- the chain, appended ----------------------------------------------------------

    def _append(self, draft: Draft) -> AuditRecord:
        """See `Store.append`: queued for the writer (`append_nowait`), and
        waited for."""
        return self._append_nowait(draft).result()

    def _append_in(self, conn: Connection, draft: Draft) -> AuditRecord:
        """See `SqlStore._append_in`: ``harbor_audit_append`` inside the
        caller's transaction; the chain's lock it takes is held until that
        transaction ends."""
        at = now()
        d = draft
        rows = fetch(
            conn.execute(
                APPEND_BATCH,
                ([d.call_id], [d.kind], at, [d.principal], [d.tool], [d.status], [d.text]),
            )
        )
        return d.sealed(rows[0]["o_seq"], at, rows[0]["o_prev"], rows[0]["o_hash"])

    def _append_nowait(self, draft: Draft) -> Future[AuditRecord]:
        """See `Store.append_nowait`: queue one record for the writer; the
        future is resolved once its batch committed (or failed: `StoreError`).
        Never None: `AuditTrail` awaits it on the event loop instead of
        parking a worker thread per append."""
        pending = _Pending(draft)
        with self._writer_lock:
            refusal = self._refusal("write an audit record")  # closed since it was asked?
            if refusal is not None:
                raise refusal
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_loop, name="mcp-harbor-audit-writer", daemon=True
                )
                self._writer.start()
            self._queue.put(pending)
        return pending.future

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch = [cast(_Pending, first)]
            stop = False
            while len(batch) < _BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stop = True
                    break
                batch.append(cast(_Pending, more))
            try:
                records = self._write_batch(batch)
            except StoreError as exc:
                for p in batch:
                    p.future.set_exception(exc)
            except BaseException as exc:  # noqa: BLE001 - never leave an append waiting
                error = StoreError(
                    f"audit store {self.location}: cannot write an audit record: {exc}"
                )
                for p in batch:
                    p.future.set_exception(error)
            else:
                for p, record in zip(batch, records, strict=True):
                    p.future.set_result(record)
            if stop:
                return

    def _writer_connection(self) -> psycopg.Connection[dict[str, Any]]:
        """The writer's own connection (no pool round trip per batch). After
        `_IDLE` seconds unused it is probed first, so that a database restart
        is noticed before a batch is sent, never by a batch in flight."""
        conn = self._wconn
        if conn is not None and not conn.closed and time.monotonic() - self._wconn_used > _IDLE:
            try:
                conn.execute(PROBE)
            except psycopg.OperationalError:
                self._drop_writer_connection()
        if self._wconn is None or self._wconn.closed:
            self._wconn = psycopg.connect(
                self._dsn, autocommit=True, row_factory=dict_row, connect_timeout=10
            )
        return self._wconn

    def _drop_writer_connection(self) -> None:
        if self._wconn is not None:
            with contextlib.suppress(psycopg.Error):
                self._wconn.close()
            self._wconn = None

    def _write_batch(self, batch: Sequence[_Pending]) -> list[AuditRecord]:
        """Append `batch` to the chain: one call of ``harbor_audit_append``,
        one statement and so one transaction and one round trip. Under the
        chain lock it reads the head, links and hashes the records exactly as
        `record_hash` does, inserts them and moves ``meta.head``; the lock is
        held for the server-side work and the commit only, never for a
        network round trip. A failure is reported to every `append` of the
        batch and never retried (the commit may have happened)."""
        at = now()
        with self._translated("write an audit record"):
            try:
                conn = self._writer_connection()
                rows = conn.execute(
                    APPEND_BATCH,
                    (
                        [p.draft.call_id for p in batch],
                        [p.draft.kind for p in batch],
                        at,
                        [p.draft.principal for p in batch],
                        [p.draft.tool for p in batch],
                        [p.draft.status for p in batch],
                        [p.draft.text for p in batch],
                    ),
                ).fetchall()
            except psycopg.Error:
                if self._wconn is not None and (self._wconn.broken or self._wconn.closed):
                    self._drop_writer_connection()
                raise
            finally:
                self._wconn_used = time.monotonic()
        if len(rows) != len(batch):  # pragma: no cover - the function returns one row each
            raise StoreError(
                f"audit store {self.location}: the chain function returned {len(rows)}"
            )
        return [
            p.draft.sealed(r["o_seq"], at, r["o_prev"], r["o_hash"])
            for p, r in zip(batch, rows, strict=True)
        ]
