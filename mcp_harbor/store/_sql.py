"""Every statement the two stores share, written once, and the `Dialect`
that says how a backend spells what differs.

The statements are portable SQL (SQLite 3.24 or newer and PostgreSQL 13 or
newer read the same text), with three things a dialect fills in:

* the driver's placeholder, written ``?`` here (sqlite3's; psycopg's is
  ``%s``);
* ``{lock}``: the lock a transaction takes on a row it reads in order to
  update it (nothing in SQLite, whose ``BEGIN IMMEDIATE`` already holds the
  file's write lock; ``FOR UPDATE`` in PostgreSQL), and ``{lock_skipping}``,
  the same lock that passes over rows another transaction holds;
* how a transaction begins (`Dialect.begin_write`, `Dialect.begin_snapshot`).

What one backend alone runs, its schema versions and how it appends to the
chain, is in its dialect's module (`_sql_sqlite`, `_sql_postgres`); no SQL
is written anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, final

from mcp_harbor.store.base import AuditQuery

__all__ = [
    "APPROVAL_COLUMNS",
    "MEMORY_EMBEDDING",
    "TASKS_TABLE",
    "TASK_CREATE_COLUMNS",
    "Dialect",
    "Statements",
]

#: The schema version that binds approvals to a plan (both backends):
#: ``approvers`` (JSON list, NULL: any operator), ``plan_hash`` and
#: ``export_hash`` (what was asked about), ``reason`` (the answer's) and
#: ``decided_as`` (JSON: the answering principal, its tenant and groups, and
#: through what it answered).
APPROVAL_COLUMNS: tuple[str, ...] = tuple(
    f"ALTER TABLE approvals ADD COLUMN {column} TEXT"
    for column in ("approvers", "plan_hash", "export_hash", "reason", "decided_as")
)

#: The schema version that lets agent steps recall similar past turns (both
#: backends): each ``memory`` row may hold ``embedder`` (which embedder made
#: its vector: vectors of two embedders are never compared) and
#: ``embedding`` (the vector: base64 of little-endian float32, text so that
#: `row_digest` covers it like every other column), both NULL in rows written
#: before and in rows of exports without ``memory: {recall: …}``: nullable,
#: with no default, so the digests of the rows already there stay as they
#: were. The index serves `Statements.recall_candidates`.
MEMORY_EMBEDDING: tuple[str, ...] = (
    "ALTER TABLE memory ADD COLUMN embedder TEXT",
    "ALTER TABLE memory ADD COLUMN embedding TEXT",
    "CREATE INDEX memory_recall ON memory (tenant, principal, embedder, id)",
)

#: The schema version of durable tasks (both backends; the same text reads
#: in both): one row per task of the ``io.modelcontextprotocol/tasks``
#: extension. ``server`` is JSON (host, pid, instance) of the server that
#: runs it, so that a restart can tell a task its dead predecessor ran;
#: ``result``/``error`` are the JSON of the final ``CallToolResult`` or
#: JSON-RPC error; ``input_requests``/``input_responses`` the JSON of the
#: questions of an ``input_required`` task and the answers ``tasks/update``
#: brought (keyed alike); ``expires_at`` is epoch seconds (NULL: kept until
#: purged by hand). A task row is mutable state with a TTL, not a record:
#: the call it ran is in the chain (its ``start``/``end`` records, by
#: ``run_id``), so the rows are not covered by `ROW_KINDS`.
TASKS_TABLE: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS tasks (
        task_id TEXT PRIMARY KEY,
        tenant TEXT NOT NULL,
        principal TEXT NOT NULL,
        tool TEXT NOT NULL,
        status TEXT NOT NULL,
        status_message TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        ttl_ms BIGINT,
        expires_at DOUBLE PRECISION,
        server TEXT NOT NULL,
        run_id TEXT,
        run_dir TEXT,
        result TEXT,
        error TEXT,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        input_requests TEXT,
        input_responses TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS tasks_expiry ON tasks (expires_at)",
    "CREATE INDEX IF NOT EXISTS tasks_open ON tasks (status)",
)

#: The columns `Statements.task_create` fills, in its order.
TASK_CREATE_COLUMNS: tuple[str, ...] = (
    "task_id",
    "tenant",
    "principal",
    "tool",
    "status",
    "status_message",
    "created_at",
    "updated_at",
    "ttl_ms",
    "expires_at",
    "server",
)


@final
@dataclass(frozen=True, slots=True)
class Dialect:
    """How one backend spells what the shared statements leave open, and its
    schema versions."""

    #: For messages: ``SQLite``, ``PostgreSQL``.
    name: str
    #: The driver's placeholder.
    mark: str
    #: Appended to a SELECT of rows the transaction will update.
    lock: str
    #: `lock`, passing over rows that another transaction holds.
    lock_skipping: str
    #: Begins a transaction that will write (and keeps other writers out of
    #: what it reads).
    begin_write: str
    #: Begins a read-only transaction whose reads see one state.
    begin_snapshot: str
    #: Schema version N is ``migrations[N - 1]``: statements applied in
    #: order, in the transaction that applies every missing version.
    migrations: tuple[tuple[str, ...], ...]
    #: Run first in that transaction, so that two processes starting at
    #: once take turns (SQLite: none, ``begin_write`` locks the file).
    migration_lock: tuple[str, ...] = ()
    #: Templates run after each version's statements (``{version}``
    #: filled in), besides the ``meta.schema_version`` row.
    version_marks: tuple[str, ...] = ()
    #: The first schema version whose ``approvals`` and ``memory`` rows are
    #: covered by the chain: an upgrade from before it adopts the rows there
    #: (`SqlStore._adopt_rows`); `verify` checks the rows of a database at
    #: this version or later.
    rows_chained_from: int = 0

    @property
    def schema_version(self) -> int:
        """The version this code brings a database to."""
        return len(self.migrations)


@final
class Statements:
    """The shared statements, rendered in one dialect (see the module
    docstring); `calls` and `call` build the one query with filters."""

    def __init__(self, dialect: Dialect) -> None:
        def q(sql: str) -> str:
            return (
                sql.replace("?", dialect.mark)
                .replace("{lock}", dialect.lock)
                .replace("{lock_skipping}", dialect.lock_skipping)
            )

        self.dialect = dialect

        # --- the chain
        self.records = q("SELECT * FROM audit ORDER BY seq")
        #: One call's records (its start, turns and end), by the call_id index.
        self.call_records = q("SELECT * FROM audit WHERE call_id = ? ORDER BY seq")
        #: The records strictly between two seqs, by the primary key.
        self.records_between = q("SELECT * FROM audit WHERE seq > ? AND seq < ? ORDER BY seq")
        self.head = q("SELECT value FROM meta WHERE key = 'head'")
        #: The last record: its ``seq`` and ``hash`` (none in an empty trail).
        self.last_record = q("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1")
        self.open_calls = q(
            "SELECT * FROM audit s WHERE s.kind = 'start' AND NOT EXISTS "
            "(SELECT 1 FROM audit e WHERE e.call_id = s.call_id AND e.kind = 'end') ORDER BY seq"
        )
        self._summaries = q(
            "SELECT s.*, e.at AS end_at, e.status AS end_status, e.body AS end_body "
            "FROM audit s LEFT JOIN audit e ON e.call_id = s.call_id AND e.kind = 'end' "
            "WHERE s.kind IN ('start', 'call', 'rejected'){where} ORDER BY s.seq DESC LIMIT ?"
        )
        self._by_call = q(" AND s.call_id = ?")
        self._by_who = q(" AND s.principal = ?")
        self._by_tool = q(" AND s.tool = ?")
        self._by_since = q(" AND s.at >= ?")
        self._by_status = q(
            " AND ((s.kind IN ('call', 'rejected') AND s.status = ?) OR (s.kind = 'start' AND "
            "COALESCE(e.status, 'running') = ?))"
        )

        # --- session memory (the columns of `_rows.memory_row`, in its order)
        self.remember = q(
            "INSERT INTO memory (tenant, principal, session, tool, run_id, at, arguments, "
            "answer, answer_payload, embedder, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id"
        )
        #: One row, every column, as the chain's ``memory`` record digests it.
        self.memory_row = q("SELECT * FROM memory WHERE id = ?")
        self.memory_rows = q("SELECT * FROM memory ORDER BY id")
        self.recall = q(
            "SELECT * FROM (SELECT * FROM memory WHERE tenant = ? AND principal = ? AND "
            "session = ? ORDER BY id DESC LIMIT ?) AS last ORDER BY id"
        )
        #: The newest rows of one principal in one tenant, of every session,
        #: whose vector one embedder made; newest first.
        self.recall_candidates = q(
            "SELECT * FROM memory WHERE tenant = ? AND principal = ? AND embedder = ? "
            "AND embedding IS NOT NULL ORDER BY id DESC LIMIT ?"
        )

        # --- approvals
        self.request_approval = q(
            "INSERT INTO approvals (run_id, tool, principal, message, arguments, requested_at,"
            " approvers, plan_hash, export_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        #: One row, every column, as the chain's ``approval`` record digests it.
        self.approval_row = q("SELECT * FROM approvals WHERE run_id = ?")
        self.approval_rows = q("SELECT * FROM approvals ORDER BY run_id")
        self.approval_to_decide = q("SELECT decision FROM approvals WHERE run_id = ?{lock}")
        self.record_decision = q(
            "UPDATE approvals SET decision = ?, decided_by = ?, decided_at = ?, reason = ?,"
            " decided_as = ? WHERE run_id = ?"
        )
        self.approval = q("SELECT * FROM approvals WHERE run_id = ?")
        self.pending_approvals = q(
            "SELECT * FROM approvals WHERE decision IS NULL ORDER BY requested_at, run_id"
        )

        # --- run leases
        self.lease_claim_new = q(
            "INSERT INTO leases (run_id, tool, worker, attempt, status, expires_at)"
            " VALUES (?, ?, ?, 1, 'running', ?) ON CONFLICT (run_id) DO NOTHING"
        )
        self.lease_to_reclaim = q("SELECT status, attempt FROM leases WHERE run_id = ?{lock}")
        self.lease_reclaim = q(
            "UPDATE leases SET worker = ?, attempt = ?, status = 'running', expires_at = ?"
            " WHERE run_id = ?"
        )
        self.lease_renew = q(
            "UPDATE leases SET expires_at = ? WHERE run_id = ? AND attempt = ?"
            " AND status = 'running'"
        )
        self.lease_release = q(
            "UPDATE leases SET status = 'done' WHERE run_id = ? AND attempt = ?"
            " AND status = 'running'"
        )
        self.leases_expired = q(
            "SELECT run_id, tool, worker, attempt FROM leases"
            " WHERE status = 'running' AND expires_at < ? ORDER BY run_id{lock_skipping}"
        )
        self.lease_lose = q("UPDATE leases SET status = 'lost' WHERE run_id = ?")
        self.lease_requeue = q(
            "UPDATE leases SET status = 'queued' WHERE run_id = ? AND status = 'lost'"
        )

        # --- durable tasks (`TASKS_TABLE`; the columns of `task_create`, in order)
        self.task_create = q(
            "INSERT INTO tasks (task_id, tenant, principal, tool, status, status_message,"
            " created_at, updated_at, ttl_ms, expires_at, server)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        self.task = q("SELECT * FROM tasks WHERE task_id = ?")
        #: Only a task that is not final moves (a final status never changes).
        self.task_progress = q(
            "UPDATE tasks SET status = ?, status_message = ?, updated_at = ?"
            " WHERE task_id = ? AND status IN ('working', 'input_required')"
        )
        self.task_finish = q(
            "UPDATE tasks SET status = ?, status_message = ?, updated_at = ?, run_id = ?,"
            " run_dir = ?, result = ?, error = ?"
            " WHERE task_id = ? AND status IN ('working', 'input_required')"
        )
        self.task_ask = q(
            "UPDATE tasks SET status = 'input_required', status_message = ?, updated_at = ?,"
            " input_requests = ? WHERE task_id = ? AND status IN ('working', 'input_required')"
        )
        self.task_answer = q(
            "UPDATE tasks SET input_responses = ?, updated_at = ?"
            " WHERE task_id = ? AND status = 'input_required'"
        )
        self.task_request_cancel = q(
            "UPDATE tasks SET cancel_requested = 1 WHERE task_id = ?"
            " AND status IN ('working', 'input_required')"
        )
        #: Compare-and-set: one server takes over a dead one's task.
        self.task_claim = q(
            "UPDATE tasks SET server = ? WHERE task_id = ? AND server = ?"
            " AND status IN ('working', 'input_required')"
        )
        self.tasks_open = q(
            "SELECT * FROM tasks WHERE status IN ('working', 'input_required')"
            " ORDER BY created_at, task_id"
        )
        self.tasks_expired = q(
            "SELECT * FROM tasks WHERE expires_at IS NOT NULL AND expires_at < ? ORDER BY task_id"
        )
        self.task_delete = q("DELETE FROM tasks WHERE task_id = ?")
        #: One principal's tasks, newest first.
        self.tasks_of = q(
            "SELECT * FROM tasks WHERE tenant = ? AND principal = ?"
            " ORDER BY created_at DESC, task_id LIMIT ?"
        )

        # --- schema versions
        self.schema_version = q("SELECT value FROM meta WHERE key = 'schema_version'")
        self.set_schema_version = q(
            "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )

    def calls(self, query: AuditQuery) -> tuple[str, list[Any]]:
        """The query of `Store.calls` and its parameters: every filter of
        `query` that is set, newest first, at most ``query.limit`` (no rows
        for a limit below 1, on both backends)."""
        where: list[str] = []
        params: list[Any] = []
        for clause, value in (
            (self._by_who, query.who),
            (self._by_tool, query.tool),
            (self._by_since, query.since),
        ):
            if value is not None:
                where.append(clause)
                params.append(value)
        if query.status is not None:
            where.append(self._by_status)
            params.extend([query.status, query.status])
        return self._summaries.replace("{where}", "".join(where)), [
            *params,
            max(query.limit, 0),
        ]

    def call(self, call_id: str) -> tuple[str, list[Any]]:
        """The query of `Store.call` and its parameters."""
        return self._summaries.replace("{where}", self._by_call), [call_id, 1]
