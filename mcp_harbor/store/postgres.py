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
4), which takes ``pg_advisory_xact_lock(_CHAIN_LOCK)``, reads the chain's
head, links and hashes the records exactly as `record_hash` does, inserts
them, moves the ``meta.head`` row, and commits: one round trip, and the lock
is never held across the network or while Python waits for the GIL. The lock
serialises replicas (it is released at commit); the batch makes one lock
hold and one WAL flush serve many records. An `append` returns only after
the commit of the statement holding its record, so a start record is durable
before the first command runs. If the statement fails, every `append` of
that batch raises `StoreError` and none of its records exists.
``UNIQUE (prev_hash)`` makes a fork impossible even for a buggy writer.

**Schema versions** (``meta.schema_version``), applied at start in one
transaction under ``pg_advisory_xact_lock(_MIGRATE_LOCK)``, so replicas that
start together do not race; see docs/scale-out.md:

1. ``meta`` and ``audit`` (the chain).
2. ``memory`` (session memory) and ``approvals``.
3. ``UNIQUE (prev_hash)`` on ``audit``.
4. ``harbor_audit_append``: a batch appended in one statement.

**Durability** is PostgreSQL's: with its default ``synchronous_commit = on`` a
committed record survives a crash of the server or of the database host.
``durable`` (``--db-sync full``) is accepted for symmetry with SQLite and
changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, cast

import psycopg
import psycopg.conninfo
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from mcp_harbor.errors import StoreError
from mcp_harbor.store.base import (
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
    summary_of,
    verify_chain,
)

__all__ = ["SCHEMA_VERSION", "PostgresStore", "safe_dsn"]

#: ``pg_advisory_xact_lock`` keys ("harbor" + a number): the chain, migrations.
_CHAIN_LOCK = 0x6861_7262_6F72_0001
_MIGRATE_LOCK = 0x6861_7262_6F72_0002
#: Most records written in one transaction.
_BATCH = 256
#: Seconds after which the writer's idle connection is probed before a batch.
_IDLE = 5.0

_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: the chain
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE audit (
            seq BIGINT PRIMARY KEY,
            call_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            at TEXT COLLATE "C" NOT NULL,
            principal TEXT NOT NULL,
            tool TEXT NOT NULL,
            status TEXT NOT NULL,
            body TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL
        )""",
        "CREATE INDEX audit_call ON audit (call_id)",
        "CREATE INDEX audit_at ON audit (at)",
    ),
    (  # 2: session memory and approvals
        """CREATE TABLE memory (
            id BIGSERIAL PRIMARY KEY,
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
        "CREATE INDEX memory_session ON memory (tenant, principal, session, id)",
        """CREATE TABLE approvals (
            run_id TEXT PRIMARY KEY,
            tool TEXT NOT NULL,
            principal TEXT NOT NULL,
            message TEXT NOT NULL,
            arguments TEXT NOT NULL,
            requested_at TEXT COLLATE "C" NOT NULL,
            decision TEXT,
            decided_by TEXT,
            decided_at TEXT
        )""",
    ),
    (  # 3: the chain cannot fork
        "ALTER TABLE audit ADD CONSTRAINT audit_prev_hash UNIQUE (prev_hash)",
    ),
    (  # 4: append a batch in one round trip; the hash is `record_hash`, server-side
        """CREATE FUNCTION harbor_audit_append(
            p_call_id TEXT[], p_kind TEXT[], p_at TEXT, p_principal TEXT[], p_tool TEXT[],
            p_status TEXT[], p_body TEXT[]
        ) RETURNS TABLE (o_seq BIGINT, o_prev TEXT, o_hash TEXT)
        LANGUAGE plpgsql VOLATILE AS $fn$
        DECLARE
            v_seq BIGINT;
            v_prev TEXT;
            v_hash TEXT;
        BEGIN
            PERFORM pg_advisory_xact_lock(7521418619787542529);
            -- A new snapshot per statement: this sees every committed record.
            SELECT a.seq, a.hash INTO v_seq, v_prev FROM audit a ORDER BY a.seq DESC LIMIT 1;
            IF NOT FOUND THEN
                v_seq := 0;
                v_prev := repeat('0', 64);
            END IF;
            FOR i IN 1 .. coalesce(array_length(p_call_id, 1), 0) LOOP
                v_seq := v_seq + 1;
                v_hash := encode(sha256(convert_to(concat_ws(E'\\n', v_seq::text,
                    p_call_id[i], p_kind[i], p_at, p_principal[i], p_tool[i], p_status[i],
                    v_prev, p_body[i]), 'UTF8')), 'hex');
                INSERT INTO audit (seq, call_id, kind, at, principal, tool, status, body,
                    prev_hash, hash)
                VALUES (v_seq, p_call_id[i], p_kind[i], p_at, p_principal[i], p_tool[i],
                    p_status[i], p_body[i], v_prev, v_hash);
                o_seq := v_seq;
                o_prev := v_prev;
                o_hash := v_hash;
                RETURN NEXT;
                v_prev := v_hash;
            END LOOP;
            INSERT INTO meta (key, value) VALUES ('head', v_seq::text || ':' || v_prev)
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
        END
        $fn$""",
    ),
    # 5: run leases of remote workers (see docs/scale-out.md, Workers).
    (
        """CREATE TABLE IF NOT EXISTS leases (
            run_id TEXT PRIMARY KEY,
            tool TEXT NOT NULL,
            worker TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            status TEXT NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS leases_running ON leases (status, expires_at)",
    ),
)
SCHEMA_VERSION = len(_MIGRATIONS)


def safe_dsn(dsn: str) -> str:
    """`dsn` without its password, for messages and logs."""
    try:
        params = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.Error:
        return "postgresql://(unparsable DSN)"
    params.pop("password", None)
    user = params.pop("user", None)
    host = params.pop("host", "")
    port = params.pop("port", None)
    dbname = params.pop("dbname", "")
    where = f"{user}@" if user else ""
    where += f"{host}:{port}" if port else str(host)
    return f"postgresql://{where}/{dbname}"


def _now() -> str:
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1e6):06d}Z"


def _row(row: Mapping[str, Any]) -> AuditRecord:
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


@dataclass(slots=True)
class _Pending:
    """One `append` waiting for the writer thread."""

    call_id: str
    kind: RecordKind
    principal: str
    tool: str
    status: str
    body: Mapping[str, Any]
    text: str
    future: Future[AuditRecord] = field(default_factory=Future)


_STOP = object()


class PostgresStore:
    """The `Store` on one PostgreSQL database (see the module docstring)."""

    #: `AuditTrail` may run this many appends at once: the writer batches them.
    append_concurrency = 64

    def __init__(
        self, dsn: str, *, durable: bool = False, readonly: bool = False, pool_size: int = 8
    ) -> None:
        self.dsn = dsn
        self.label = safe_dsn(dsn)
        self.readonly = readonly
        self._queue: queue.SimpleQueue[_Pending | object] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        self._closed = False
        self._wconn: psycopg.Connection[dict[str, Any]] | None = None  # the writer's own
        self._wconn_used = 0.0

        def configure(conn: psycopg.Connection[Any]) -> None:
            if readonly:
                conn.execute("SET default_transaction_read_only = on")

        with self._translated("connect"):
            # One direct connection first: a wrong DSN or a database that is
            # down fails at once with libpq's reason (the pool would retry).
            with psycopg.connect(
                dsn, autocommit=True, row_factory=dict_row, connect_timeout=10
            ) as conn:
                if readonly:
                    self._check_version(conn)
                else:
                    self._migrate(conn)
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

    # --- plumbing -----------------------------------------------------------------

    @contextlib.contextmanager
    def _translated(self, doing: str) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as exc:  # also PoolTimeout, a psycopg.OperationalError
            text = str(exc).strip() or type(exc).__name__
            raise StoreError(f"audit store {self.label}: cannot {doing}: {text}") from exc

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self._translated("read the audit trail"), self._pool.connection() as conn:
            return conn.execute(sql, params).fetchall()

    def _version(self, conn: psycopg.Connection[dict[str, Any]]) -> int:
        encoding = conn.execute("SHOW server_encoding").fetchone()
        if not encoding or encoding["server_encoding"] != "UTF8":
            # Records are hashed as UTF-8, in Python and in harbor_audit_append.
            raise StoreError(
                f"audit store {self.label}: the database must use the UTF8 encoding "
                "(CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)"
            )
        has_meta = conn.execute("SELECT to_regclass('meta') IS NOT NULL AS ok").fetchone()
        if not has_meta or not has_meta["ok"]:
            return 0
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row["value"]) if row else 0

    def _check_version(self, conn: psycopg.Connection[dict[str, Any]]) -> None:
        version = self._version(conn)
        if version == 0:
            raise StoreError(f"audit store {self.label}: no mcp-harbor schema in this database")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"audit store {self.label}: schema version {version} is newer than this "
                f"mcp-harbor knows ({SCHEMA_VERSION}); upgrade mcp-harbor"
            )

    def _migrate(self, conn: psycopg.Connection[dict[str, Any]]) -> None:
        """Bring the schema to `SCHEMA_VERSION`, in one transaction that holds
        the migration lock (a replica starting at the same time waits, then
        finds the work done)."""
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATE_LOCK,))
            version = self._version(conn)
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"audit store {self.label}: schema version {version} is newer than this "
                    f"mcp-harbor knows ({SCHEMA_VERSION}); upgrade mcp-harbor"
                )
            for number in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[number - 1]:
                    conn.execute(statement.encode())
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema_version', %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    (str(number),),
                )

    def close(self) -> None:
        with self._writer_lock:
            self._closed = True
            writer, self._writer = self._writer, None
        if writer is not None:
            self._queue.put(_STOP)
            writer.join()
        self._drop_writer_connection()
        self._pool.close()

    # --- the chain ------------------------------------------------------------------

    def append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord:
        return self.append_nowait(call_id, kind, principal, tool, status, body).result()

    def append_nowait(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> Future[AuditRecord]:
        """Queue one record for the writer; the future is resolved once its
        batch committed (or failed: `StoreError`). `AuditTrail` awaits it on
        the event loop instead of parking a worker thread per append."""
        pending = _Pending(call_id, kind, principal, tool, status, body, canonical_json(body))
        with self._writer_lock:
            if self._closed:
                raise StoreError(f"audit store {self.label}: the store is closed")
            if self.readonly:
                raise StoreError(f"audit store {self.label}: opened read-only")
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
                error = StoreError(f"audit store {self.label}: cannot write an audit record: {exc}")
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
                conn.execute("SELECT 1")
            except psycopg.OperationalError:
                self._drop_writer_connection()
        if self._wconn is None or self._wconn.closed:
            self._wconn = psycopg.connect(
                self.dsn, autocommit=True, row_factory=dict_row, connect_timeout=10
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
        at = _now()
        with self._translated("write an audit record"):
            try:
                conn = self._writer_connection()
                rows = conn.execute(
                    "SELECT o_seq, o_prev, o_hash FROM harbor_audit_append("
                    "%s, %s, %s, %s, %s, %s, %s) ORDER BY o_seq",
                    (
                        [p.call_id for p in batch],
                        [p.kind for p in batch],
                        at,
                        [p.principal for p in batch],
                        [p.tool for p in batch],
                        [p.status for p in batch],
                        [p.text for p in batch],
                    ),
                ).fetchall()
            except psycopg.Error:
                if self._wconn is not None and (self._wconn.broken or self._wconn.closed):
                    self._drop_writer_connection()
                raise
            finally:
                self._wconn_used = time.monotonic()
        if len(rows) != len(batch):  # pragma: no cover - the function returns one row each
            raise StoreError(f"audit store {self.label}: the chain function returned {len(rows)}")
        return [
            AuditRecord(
                r["o_seq"], p.call_id, p.kind, at, p.principal, p.tool, p.status, p.body,
                r["o_prev"], r["o_hash"],
            )
            for p, r in zip(batch, rows, strict=True)
        ]  # fmt: skip

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
            f"WHERE s.kind IN ('start', 'call') {where} ORDER BY s.seq DESC LIMIT %s",
            (*params, max(limit, 0)),
        )
        return [summary_of(r) for r in rows]

    def calls(self, query: AuditQuery) -> list[CallSummary]:
        where, params = query_filters(query, "%s")
        return self._summaries(where, params, query.limit)

    def call(self, call_id: str) -> CallSummary | None:
        found = self._summaries("AND s.call_id = %s", (call_id,), 1)
        return found[0] if found else None

    def verify(self) -> VerifyReport:
        # One snapshot (REPEATABLE READ): the rows and the head must come from
        # the same state, or a record appended between two reads looks deleted.
        with (
            self._translated("read the audit trail"),
            self._pool.connection() as conn,
            conn.transaction(),
        ):
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            rows = conn.execute("SELECT * FROM audit ORDER BY seq").fetchall()
            head_rows = conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchall()
        return verify_chain(rows, head_rows[0]["value"] if head_rows else None)

    # --- session memory -------------------------------------------------------------

    def remember(self, entry: MemoryEntry) -> None:
        with self._translated("write session memory"), self._pool.connection() as conn:
            conn.execute(
                f"INSERT INTO memory ({MEMORY_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                memory_row(entry),
            )

    def recall(self, tenant: str, principal: str, session: str, limit: int) -> list[MemoryEntry]:
        rows = self._query(
            "SELECT * FROM (SELECT * FROM memory WHERE tenant = %s AND principal = %s AND "
            "session = %s ORDER BY id DESC LIMIT %s) AS last ORDER BY id",
            (tenant, principal, session, max(limit, 0)),
        )
        return [memory_of(r) for r in rows]

    # --- approvals ------------------------------------------------------------------

    def request_approval(
        self, run_id: str, tool: str, principal: str, message: str, arguments: Mapping[str, Any]
    ) -> None:
        with self._translated("record an approval request"), self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO approvals (run_id, tool, principal, message, arguments, requested_at)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (run_id, tool, principal, message, canonical_json(arguments), _now()),
            )

    def decide(self, run_id: str, decision: str, decided_by: str) -> str:
        """Record an operator's answer. Returns ``decided``, ``unknown`` (no
        such request) or the decision already recorded (``approved``/``denied``)."""
        with (
            self._translated("record an approval"),
            self._pool.connection() as conn,
            conn.transaction(),
        ):
            row = conn.execute(
                "SELECT decision FROM approvals WHERE run_id = %s FOR UPDATE", (run_id,)
            ).fetchone()
            if row is None:
                return "unknown"
            if row["decision"] is not None:
                return str(row["decision"])
            conn.execute(
                "UPDATE approvals SET decision = %s, decided_by = %s, decided_at = %s "
                "WHERE run_id = %s",
                (decision, decided_by, _now(), run_id),
            )
            return "decided"

    # -- leases (remote workers) --------------------------------------------

    def lease_acquire(self, run_id: str, tool: str, worker: str, expires_at: float) -> int | None:
        """See `LeaseStore.lease_acquire`. Row-locked, so two workers that
        both got the message cannot both claim it."""
        with (
            self._translated("claim a run"),
            self._pool.connection() as conn,
            conn.transaction(),
        ):
            inserted = conn.execute(
                "INSERT INTO leases (run_id, tool, worker, attempt, status, expires_at) "
                "VALUES (%s, %s, %s, 1, 'running', %s) ON CONFLICT (run_id) DO NOTHING "
                "RETURNING attempt",
                (run_id, tool, worker, expires_at),
            ).fetchone()
            if inserted is not None:
                return 1
            row = conn.execute(
                "SELECT status, attempt FROM leases WHERE run_id = %s FOR UPDATE", (run_id,)
            ).fetchone()
            if row is None or row["status"] != "queued":
                return None
            attempt = int(row["attempt"]) + 1
            conn.execute(
                "UPDATE leases SET worker = %s, attempt = %s, status = 'running', "
                "expires_at = %s WHERE run_id = %s",
                (worker, attempt, expires_at, run_id),
            )
            return attempt

    def lease_renew(self, run_id: str, attempt: int, expires_at: float) -> bool:
        with self._translated("renew a lease"), self._pool.connection() as conn:
            cur = conn.execute(
                "UPDATE leases SET expires_at = %s WHERE run_id = %s AND attempt = %s "
                "AND status = 'running'",
                (expires_at, run_id, attempt),
            )
            return cur.rowcount == 1

    def lease_release(self, run_id: str, attempt: int) -> bool:
        with self._translated("release a lease"), self._pool.connection() as conn:
            cur = conn.execute(
                "UPDATE leases SET status = 'done' WHERE run_id = %s AND attempt = %s "
                "AND status = 'running'",
                (run_id, attempt),
            )
            return cur.rowcount == 1

    def lease_expire(self, now: float) -> list[Lease]:
        """Concurrent sweepers on several replicas each get distinct runs:
        the UPDATE … RETURNING marks and returns a run exactly once."""
        with self._translated("expire leases"), self._pool.connection() as conn:
            rows = conn.execute(
                "UPDATE leases SET status = 'lost' WHERE status = 'running' AND expires_at < %s "
                "RETURNING run_id, tool, worker, attempt",
                (now,),
            ).fetchall()
        return [Lease(r["run_id"], r["tool"], r["worker"], int(r["attempt"])) for r in rows]

    def lease_requeue(self, run_id: str) -> None:
        with self._translated("re-queue a run"), self._pool.connection() as conn:
            conn.execute(
                "UPDATE leases SET status = 'queued' WHERE run_id = %s AND status = 'lost'",
                (run_id,),
            )

    def decision(self, run_id: str) -> tuple[str, str] | None:
        """(decision, decided_by) once an operator answered, else None."""
        rows = self._query(
            "SELECT decision, decided_by FROM approvals WHERE run_id = %s AND decision IS NOT NULL",
            (run_id,),
        )
        return (rows[0]["decision"], rows[0]["decided_by"]) if rows else None

    def pending_approvals(self) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT * FROM approvals WHERE decision IS NULL ORDER BY requested_at, run_id"
        )
        return [approval_of(r) for r in rows]
