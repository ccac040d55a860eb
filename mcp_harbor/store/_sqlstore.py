"""What both stores do, written once over a backend's connection: the reads
of the trail, session memory, approvals, run leases, transactions, error
translation and schema versions.

A backend (`SqliteStore`, `PostgresStore`) subclasses `SqlStore` and brings
its connections (`SqlStore._connection`), the statements of its dialect
(`Statements`), its driver's errors, and how it appends a `Draft` to the
chain (`_append`, and `_try_append` or `_append_nowait` where it has a
faster way); everything else is here, so that the two cannot drift apart.
"""

from __future__ import annotations

import contextlib
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, final

from mcp_harbor.errors import StoreError
from mcp_harbor.store._rows import (
    approval_of,
    lease_of,
    memory_of,
    memory_row,
    record_of,
    summary_of,
)
from mcp_harbor.store._sql import TASK_CREATE_COLUMNS, Statements
from mcp_harbor.store.base import (
    ROW_KINDS,
    AuditQuery,
    AuditRecord,
    CallSummary,
    Lease,
    MemoryEntry,
    RecordKind,
    VerifyReport,
    canonical_json,
    record_hash,
    row_digest,
    verify_chain,
    verify_rows,
)

__all__ = [
    "Connection",
    "Cursor",
    "Draft",
    "SqlStore",
    "fetch",
    "migrate",
    "now",
    "refuse_newer",
    "transaction",
]


class Cursor(Protocol):
    """What the shared code reads from a statement's cursor (sqlite3's and
    psycopg's both fit)."""

    @property
    def description(self) -> Any: ...

    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> Sequence[Any]: ...


class Connection(Protocol):
    """A database connection of either driver, in autocommit mode (the
    shared code begins and ends its transactions itself)."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...


_second: tuple[int, str] = (-1, "")


def now() -> str:
    """The current UTC time as records hold it,
    ``2026-11-29T21:03:34.123456Z`` (sorts as text)."""
    global _second
    t = time.time()
    whole = int(t)
    if _second[0] != whole:  # strftime once per second, not per record
        _second = (whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    return f"{_second[1]}.{int((t - whole) * 1e6):06d}Z"


def fetch(cursor: Cursor) -> list[Any]:
    """The rows of a statement, none for one that returns no rows."""
    return list(cursor.fetchall()) if cursor.description is not None else []


@final
class transaction:
    """One transaction on `conn`, begun with `begin`: committed when the
    block ends, rolled back when it or the commit raises (an error of the
    rollback itself, one of `errors`, is dropped: the first error is the one
    to tell). A `begin` that fails raises with nothing begun.

    A class rather than a generator: it is on the path of every SQLite
    append, and costs less than half as much (0.4 µs against 0.9)."""

    __slots__ = ("_begin", "_conn", "_errors")

    def __init__(self, conn: Connection, begin: str, errors: tuple[type[Exception], ...]) -> None:
        self._conn, self._begin, self._errors = conn, begin, errors

    def __enter__(self) -> Connection:
        self._conn.execute(self._begin)
        return self._conn

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        try:
            if kind is None:
                self._conn.execute("COMMIT")
                return
        except BaseException:
            self._rollback()
            raise
        self._rollback()

    def _rollback(self) -> None:
        with contextlib.suppress(*self._errors):
            self._conn.execute("ROLLBACK")


def refuse_newer(version: int, sql: Statements, location: str) -> None:
    """Raise `StoreError` for a schema `version` newer than this code knows
    (also when only reading: its tables may mean something else)."""
    if version > sql.dialect.schema_version:
        raise StoreError(
            f"audit store {location}: schema version {version} is newer than this "
            f"mcp-harbor knows ({sql.dialect.schema_version}); upgrade mcp-harbor"
        )


def migrate(
    conn: Connection,
    sql: Statements,
    version_of: Callable[[Connection], int],
    location: str,
    errors: tuple[type[Exception], ...],
    adopt: Callable[[Connection], None] | None = None,
) -> None:
    """Bring the schema to ``sql.dialect.schema_version``: every missing
    version (`version_of` reads the current one), in order, in one write
    transaction that first runs the dialect's migration lock. A second
    process starting at once waits, then finds the work done; a failure
    leaves the database as it was. An upgrade from before
    ``dialect.rows_chained_from`` then calls `adopt` in that transaction.

    Raises:
        StoreError: the schema is newer than this code knows.
    """
    dialect = sql.dialect
    with transaction(conn, dialect.begin_write, errors):
        for statement in dialect.migration_lock:
            conn.execute(statement)
        version = version_of(conn)
        refuse_newer(version, sql, location)
        for number in range(version + 1, dialect.schema_version + 1):
            for statement in dialect.migrations[number - 1]:
                conn.execute(statement)
            conn.execute(sql.set_schema_version, (str(number),))
            for mark in dialect.version_marks:
                conn.execute(mark.format(version=number))
        if adopt is not None and version < dialect.rows_chained_from <= dialect.schema_version:
            adopt(conn)


@final
@dataclass(slots=True)
class Draft:
    """A record to append, before the chain gives it its place (``seq``,
    ``at``, ``prev_hash``, ``hash``); `text` is the body's canonical JSON, the
    text that is stored and hashed (`_drafted` computes it)."""

    call_id: str
    kind: RecordKind
    principal: str
    tool: str
    status: str
    body: Mapping[str, Any]
    text: str

    def digest(self, seq: int, at: str, prev_hash: str) -> str:
        """Its hash at `seq`, written `at`, after `prev_hash` (`record_hash`)."""
        return record_hash(
            seq, self.call_id, self.kind, at, self.principal, self.tool, self.status,
            self.text, prev_hash,
        )  # fmt: skip

    def sealed(self, seq: int, at: str, prev_hash: str, digest: str) -> AuditRecord:
        """The record, once the chain gave it its place."""
        return AuditRecord(
            seq, self.call_id, self.kind, at, self.principal, self.tool, self.status,
            self.body, prev_hash, digest,
        )  # fmt: skip


def _number(text: Any) -> int:
    """A schema version as stored in ``meta`` (-1 when it is not a number)."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return -1


def _drafted(
    call_id: str, kind: RecordKind, principal: str, tool: str, status: str, body: Mapping[str, Any]
) -> Draft:
    return Draft(call_id, kind, principal, tool, status, body, canonical_json(body))


class SqlStore(ABC):
    """The `Store` members both backends share (see the module docstring).
    Reads and writes go through `_connection`; those that must see or change
    several rows at once, through `_transaction`."""

    #: The backend's statements.
    _sql: ClassVar[Statements]
    #: The driver's errors, translated into `StoreError`.
    _errors: ClassVar[tuple[type[Exception], ...]]
    #: Set by the backend: a read-only store refuses every write.
    _readonly: bool
    #: Set by `close`: a closed store refuses every write.
    _closed: bool = False

    @property
    @abstractmethod
    def location(self) -> str:
        """See `Store.location`."""

    @abstractmethod
    def _connection(self, doing: str) -> contextlib.AbstractContextManager[Connection]:
        """A connection for this thread alone while the block runs, with the
        driver's errors translated (`_translated`) as failing to `doing`."""

    # --- plumbing -----------------------------------------------------------------

    @contextlib.contextmanager
    def _translated(self, doing: str) -> Iterator[None]:
        """The driver's errors as `StoreError`: ``audit store LOCATION:
        cannot DOING: REASON``."""
        try:
            yield
        except self._errors as exc:
            if isinstance(exc, OSError):
                reason = exc.strerror or str(exc)
                if exc.filename is not None and str(exc.filename) != self.location:
                    reason = f"{reason}: {exc.filename}"  # what is in the way (a file, a folder)
            else:
                reason = str(exc).strip() or type(exc).__name__
            raise StoreError(f"audit store {self.location}: cannot {doing}: {reason}") from exc

    def _refusal(self, doing: str) -> StoreError | None:
        """Why the store may not write now (closed, or opened read-only), as
        the error to raise; None when it may. Every write asks first, so
        both backends refuse alike, whatever the write would change."""
        if self._closed:
            why = "the store is closed"
        elif self._readonly:
            why = "the store was opened read-only"
        else:
            return None
        return StoreError(f"audit store {self.location}: cannot {doing}: {why}")

    def _writable(self, doing: str) -> None:
        """Raise `_refusal`, if any."""
        refusal = self._refusal(doing)
        if refusal is not None:
            raise refusal

    @contextlib.contextmanager
    def _transaction(self, doing: str, *, snapshot: bool = False) -> Iterator[Connection]:
        """A write transaction (other writers kept out of the rows it reads),
        or with `snapshot` a read-only one whose reads see one state."""
        dialect = self._sql.dialect
        if not snapshot:
            self._writable(doing)
        begin = dialect.begin_snapshot if snapshot else dialect.begin_write
        with self._connection(doing) as conn, transaction(conn, begin, self._errors):
            yield conn

    def _read(self, sql: str, params: Sequence[Any] = (), doing: str = "") -> list[Any]:
        with self._connection(doing or "read the audit trail") as conn:
            return fetch(conn.execute(sql, params))

    def _write(self, sql: str, params: Sequence[Any], doing: str) -> int:
        """Run one statement; how many rows it changed."""
        self._writable(doing)
        with self._connection(doing) as conn:
            return conn.execute(sql, params).rowcount

    # --- the chain, appended ---------------------------------------------------------

    def append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord:
        """See `Store.append`."""
        self._writable("write an audit record")
        return self._append(_drafted(call_id, kind, principal, tool, status, body))

    def try_append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord | None:
        """See `Store.try_append`."""
        self._writable("write an audit record")
        return self._try_append(_drafted(call_id, kind, principal, tool, status, body))

    def append_nowait(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> Future[AuditRecord] | None:
        """See `Store.append_nowait`."""
        self._writable("write an audit record")
        return self._append_nowait(_drafted(call_id, kind, principal, tool, status, body))

    @abstractmethod
    def _append(self, draft: Draft) -> AuditRecord:
        """`append` `draft` (see `Store.append`) in a store that may write
        (`_writable`: asked before each of these three)."""

    @abstractmethod
    def _append_in(self, conn: Connection, draft: Draft) -> AuditRecord:
        """Append `draft` to the chain inside the write transaction open on
        `conn` (`_transaction`): it is committed, or rolled back, with the
        rest of that transaction."""

    def _cover_row(
        self, conn: Connection, kind: RecordKind, key: Any, principal: str, status: str
    ) -> None:
        """Append, in the transaction open on `conn`, the chain record of the
        row of ``approvals`` (`kind` ``approval``, `key` its run id) or of
        ``memory`` (``memory``, its id) just written: its key and the
        `row_digest` of every column of it as it now stands, under the call
        id of its run and its tool (`principal`: who wrote it)."""
        select = self._sql.approval_row if kind == "approval" else self._sql.memory_row
        row = fetch(conn.execute(select, (key,)))[0]
        body = {"key": str(key), "digest": row_digest(row)}
        call_id, tool = str(row["run_id"]), str(row["tool"])
        self._append_in(conn, _drafted(call_id, kind, principal, tool, status, body))

    def _adopt_rows(self, conn: Connection) -> None:
        """Cover, in the upgrade's transaction (`migrate`), each row of
        ``approvals`` and ``memory`` written before the chain covered them:
        one record each, status ``adopted``. They are only as trustworthy as
        the database was before the upgrade."""
        for row in fetch(conn.execute(self._sql.approval_rows)):
            self._cover_row(conn, "approval", row["run_id"], row["principal"], "adopted")
        for row in fetch(conn.execute(self._sql.memory_rows)):
            self._cover_row(conn, "memory", row["id"], row["principal"], "adopted")

    def _try_append(self, draft: Draft) -> AuditRecord | None:
        """`try_append` `draft`: declined (None, nothing written) unless the
        backend can append at once (`SqliteStore`)."""
        return None

    def _append_nowait(self, draft: Draft) -> Future[AuditRecord] | None:
        """`append_nowait` `draft`: declined (None, nothing written) unless
        the backend has a writer of its own (`PostgresStore`)."""
        return None

    # --- the chain, read ----------------------------------------------------------

    def records(self) -> list[AuditRecord]:
        """See `Store.records`."""
        return [record_of(r) for r in self._read(self._sql.records)]

    def call_records(self, call_id: str) -> list[AuditRecord]:
        """See `Store.call_records`."""
        return [record_of(r) for r in self._read(self._sql.call_records, [call_id])]

    def records_between(self, after: int, before: int | None = None) -> list[AuditRecord]:
        """See `Store.records_between`."""
        bound = (1 << 62) if before is None else before
        return [record_of(r) for r in self._read(self._sql.records_between, [after, bound])]

    def open_calls(self) -> list[AuditRecord]:
        """See `Store.open_calls`."""
        return [record_of(r) for r in self._read(self._sql.open_calls)]

    def calls(self, query: AuditQuery) -> list[CallSummary]:
        """See `Store.calls`."""
        return [summary_of(r) for r in self._read(*self._sql.calls(query))]

    def call(self, call_id: str) -> CallSummary | None:
        """See `Store.call`."""
        found = self._read(*self._sql.call(call_id))
        return summary_of(found[0]) if found else None

    def verify(self) -> VerifyReport:
        """See `Store.verify`."""
        # One snapshot: the rows and the head must come from the same state,
        # or a record appended between two reads looks like a deleted one.
        with self._transaction("read the audit trail", snapshot=True) as conn:
            rows = fetch(conn.execute(self._sql.records))
            head = fetch(conn.execute(self._sql.head))
            version = fetch(conn.execute(self._sql.schema_version))
            # Rows are checked from the version on which they were covered,
            # or as soon as the chain covers one (a version set back to
            # before it does not hide a forged row then).
            covered = bool(version) and _number(version[0]["value"]) >= (
                self._sql.dialect.rows_chained_from
            )
            tables = {
                "approvals": fetch(conn.execute(self._sql.approval_rows)),
                "memory": fetch(conn.execute(self._sql.memory_rows)),
            }
        report = verify_chain(rows, head[0]["value"] if head else None)
        if covered or any(r["kind"] in ROW_KINDS for r in rows):
            verify_rows(report, rows, tables)
        # else: a database not upgraded yet (read-only) holds rows from before
        return report

    def head(self) -> tuple[int, str] | None:
        """See `Store.head`."""
        rows = self._read(self._sql.last_record)
        return (int(rows[0]["seq"]), str(rows[0]["hash"])) if rows else None

    # --- session memory -------------------------------------------------------------

    def remember(self, entry: MemoryEntry) -> None:
        """See `Store.remember`."""
        values = memory_row(entry)  # refused before anything begins
        with self._transaction("write session memory") as conn:
            inserted = fetch(conn.execute(self._sql.remember, values))
            self._cover_row(conn, "memory", inserted[0]["id"], entry.principal, "remembered")

    def recall(self, tenant: str, principal: str, session: str, limit: int) -> list[MemoryEntry]:
        """See `Store.recall`."""
        rows = self._read(self._sql.recall, (tenant, principal, session, max(limit, 0)))
        return [memory_of(r) for r in rows]

    def recall_candidates(
        self, tenant: str, principal: str, embedder: str, limit: int
    ) -> list[MemoryEntry]:
        """See `Store.recall_candidates`."""
        rows = self._read(
            self._sql.recall_candidates,
            (tenant, principal, embedder, max(limit, 0)),
            "read session memory",
        )
        return [memory_of(r) for r in rows]

    # --- approvals ------------------------------------------------------------------

    def request_approval(
        self,
        run_id: str,
        tool: str,
        principal: str,
        message: str,
        arguments: Mapping[str, Any],
        *,
        approvers: Sequence[str] | None = None,
        plan_hash: str | None = None,
        export_hash: str | None = None,
    ) -> None:
        """See `Store.request_approval`."""
        with self._transaction("record an approval request") as conn:
            conn.execute(
                self._sql.request_approval,
                (
                    run_id, tool, principal, message, canonical_json(arguments), now(),
                    None if approvers is None else canonical_json(list(approvers)),
                    plan_hash, export_hash,
                ),
            )  # fmt: skip
            self._cover_row(conn, "approval", run_id, principal, "requested")

    def decide(
        self,
        run_id: str,
        decision: str,
        decided_by: str,
        *,
        reason: str | None = None,
        decided_as: Mapping[str, Any] | None = None,
    ) -> str:
        """See `Store.decide`: the request's row is locked while it is read
        and answered, so of two answers at once the second sees the first."""
        as_text = None if decided_as is None else canonical_json(dict(decided_as))
        with self._transaction("record an approval") as conn:
            rows = fetch(conn.execute(self._sql.approval_to_decide, (run_id,)))
            if not rows:
                return "unknown"
            if rows[0]["decision"] is not None:
                return str(rows[0]["decision"])
            conn.execute(
                self._sql.record_decision, (decision, decided_by, now(), reason, as_text, run_id)
            )
            self._cover_row(conn, "approval", run_id, decided_by, decision)
            return "decided"

    def approval(self, run_id: str) -> dict[str, Any] | None:
        """See `Store.approval`."""
        rows = self._read(self._sql.approval, (run_id,))
        return approval_of(rows[0]) if rows else None

    def pending_approvals(self) -> list[dict[str, Any]]:
        """See `Store.pending_approvals`."""
        return [approval_of(r) for r in self._read(self._sql.pending_approvals)]

    # --- run leases -----------------------------------------------------------------

    def lease_acquire(self, run_id: str, tool: str, worker: str, expires_at: float) -> int | None:
        """See `LeaseStore.lease_acquire`. A new run is inserted unless it
        exists (so two workers that both got the message cannot both claim
        it); a re-queued one is locked, then given its next attempt."""
        with self._transaction("claim a run") as conn:
            inserted = conn.execute(self._sql.lease_claim_new, (run_id, tool, worker, expires_at))
            if inserted.rowcount == 1:
                return 1
            rows = fetch(conn.execute(self._sql.lease_to_reclaim, (run_id,)))
            if not rows or rows[0]["status"] != "queued":
                return None
            attempt = int(rows[0]["attempt"]) + 1
            conn.execute(self._sql.lease_reclaim, (worker, attempt, expires_at, run_id))
            return attempt

    def lease_renew(self, run_id: str, attempt: int, expires_at: float) -> bool:
        """See `LeaseStore.lease_renew`."""
        changed = self._write(self._sql.lease_renew, (expires_at, run_id, attempt), "renew a lease")
        return changed == 1

    def lease_release(self, run_id: str, attempt: int) -> bool:
        """See `LeaseStore.lease_release`."""
        return self._write(self._sql.lease_release, (run_id, attempt), "release a lease") == 1

    def lease_expire(self, now: float) -> list[Lease]:
        """See `LeaseStore.lease_expire`. The expired leases are locked
        (passing over those another sweeper holds) and marked lost in one
        transaction, so concurrent sweepers each get distinct runs."""
        with self._transaction("expire leases") as conn:
            rows = fetch(conn.execute(self._sql.leases_expired, (now,)))
            for row in rows:
                conn.execute(self._sql.lease_lose, (row["run_id"],))
        return [lease_of(r) for r in rows]

    def lease_requeue(self, run_id: str) -> None:
        """See `LeaseStore.lease_requeue`."""
        self._write(self._sql.lease_requeue, (run_id,), "re-queue a run")

    # --- durable tasks ----------------------------------------------------------------

    def task_create(self, row: Mapping[str, Any]) -> None:
        """See `Store.task_create`."""
        values = tuple(row[c] for c in TASK_CREATE_COLUMNS)
        self._write(self._sql.task_create, values, "record a task")

    def task(self, task_id: str) -> dict[str, Any] | None:
        """See `Store.task`."""
        rows = self._read(self._sql.task, (task_id,), "read a task")
        return dict(rows[0]) if rows else None

    def task_progress(self, task_id: str, status: str, message: str | None) -> bool:
        """See `Store.task_progress`."""
        changed = self._write(
            self._sql.task_progress, (status, message, now(), task_id), "record a task's progress"
        )
        return changed == 1

    def task_finish(
        self,
        task_id: str,
        status: str,
        message: str | None,
        *,
        run_id: str | None = None,
        run_dir: str | None = None,
        result: str | None = None,
        error: str | None = None,
    ) -> bool:
        """See `Store.task_finish`."""
        params = (status, message, now(), run_id, run_dir, result, error, task_id)
        return self._write(self._sql.task_finish, params, "record a task's end") == 1

    def task_ask(self, task_id: str, message: str, requests: str) -> bool:
        """See `Store.task_ask`."""
        params = (message, now(), requests, task_id)
        return self._write(self._sql.task_ask, params, "record a task's question") == 1

    def task_answer(self, task_id: str, responses: str) -> bool:
        """See `Store.task_answer`."""
        params = (responses, now(), task_id)
        return self._write(self._sql.task_answer, params, "record a task's answer") == 1

    def task_request_cancel(self, task_id: str) -> bool:
        """See `Store.task_request_cancel`."""
        return self._write(self._sql.task_request_cancel, (task_id,), "cancel a task") == 1

    def task_claim(self, task_id: str, was: str, server: str) -> bool:
        """See `Store.task_claim`."""
        params = (server, task_id, was)
        return self._write(self._sql.task_claim, params, "take over a task") == 1

    def tasks_open(self) -> list[dict[str, Any]]:
        """See `Store.tasks_open`."""
        return [dict(r) for r in self._read(self._sql.tasks_open, (), "read open tasks")]

    def tasks_expired(self, now_s: float) -> list[dict[str, Any]]:
        """See `Store.tasks_expired`."""
        rows = self._read(self._sql.tasks_expired, (now_s,), "read expired tasks")
        return [dict(r) for r in rows]

    def task_delete(self, task_id: str) -> bool:
        """See `Store.task_delete`."""
        return self._write(self._sql.task_delete, (task_id,), "delete a task") == 1

    def tasks_of(self, tenant: str, principal: str, limit: int) -> list[dict[str, Any]]:
        """See `Store.tasks_of`."""
        rows = self._read(self._sql.tasks_of, (tenant, principal, limit), "read tasks")
        return [dict(r) for r in rows]
