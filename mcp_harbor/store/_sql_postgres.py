"""PostgreSQL's SQL: its dialect, its schema versions (the chain's
``harbor_audit_append`` among them) and the statements only it runs.

**Schema versions** (``meta.schema_version``), applied at start in one
transaction under ``pg_advisory_xact_lock`` (`MIGRATION_LOCK`'s key), so
replicas that start together do not race; see docs/scale-out.md:

1. ``meta`` and ``audit`` (the chain).
2. ``memory`` (session memory) and ``approvals``.
3. ``UNIQUE (prev_hash)`` on ``audit``.
4. ``harbor_audit_append``: a batch appended in one statement, under the
   chain's lock (key 7521418619787542529, "harbor" + 1).
5. ``leases``: run leases of remote workers.
6. No statement: from this version on every row of ``approvals`` and
   ``memory`` is covered by a chain record (kinds ``approval`` and
   ``memory``); the upgrade appends one for each row already there, marked
   ``adopted`` (`SqlStore._adopt_rows`).
7. ``approvals`` gains ``approvers``, ``plan_hash``, ``export_hash``,
   ``reason`` and ``decided_as`` (`APPROVAL_COLUMNS`).
8. ``memory`` gains ``embedder`` and ``embedding`` (nullable: the rows
   already there keep their digests) and the index ``memory_recall``
   (`MEMORY_EMBEDDING`): agent steps recall similar past turns.
9. ``tasks`` (`TASKS_TABLE`): durable tasks of the MCP tasks extension.

To add a version, append a tuple of statements to `MIGRATIONS`, describe it
here and in docs/scale-out.md, and extend tests/store/test_store_pg_schema.py.
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
    "APPEND_BATCH",
    "DIALECT",
    "ENCODING",
    "HAS_META",
    "MIGRATIONS",
    "MIGRATION_LOCK",
    "PROBE",
    "READ_ONLY",
    "SCHEMA_VERSION_ROW",
    "SQL",
]

#: ``pg_advisory_xact_lock`` key of migrations ("harbor" + 2; the chain's,
#: "harbor" + 1, is written in `harbor_audit_append`).
_MIGRATE_KEY = 0x6861_7262_6F72_0002

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
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
    (),  # 6: approvals and memory rows covered by the chain (adopted in Python)
    # 7: approvals bound to a plan, with who may answer and why it was answered.
    APPROVAL_COLUMNS,
    # 8: memory rows with an embedding, for recall.
    MEMORY_EMBEDDING,
    # 9: durable tasks (docs/long-calls.md).
    TASKS_TABLE,
)
MIGRATION_LOCK: Final = f"SELECT pg_advisory_xact_lock({_MIGRATE_KEY})"

DIALECT: Final = Dialect(
    name="PostgreSQL",
    mark="%s",
    lock=" FOR UPDATE",
    lock_skipping=" FOR UPDATE SKIP LOCKED",
    begin_write="BEGIN",
    begin_snapshot="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
    migrations=MIGRATIONS,
    migration_lock=(MIGRATION_LOCK,),
    rows_chained_from=6,
)
SQL: Final = Statements(DIALECT)

#: Records are hashed as UTF-8, in Python and in ``harbor_audit_append``.
ENCODING: Final = "SHOW server_encoding"
#: Whether there is a schema at all (version 0: no ``meta`` table).
HAS_META: Final = "SELECT to_regclass('meta') IS NOT NULL AS ok"
SCHEMA_VERSION_ROW: Final = "SELECT value FROM meta WHERE key = 'schema_version'"
#: Every connection of a read-only store.
READ_ONLY: Final = "SET default_transaction_read_only = on"
#: Is the writer's idle connection still alive?
PROBE: Final = "SELECT 1"
#: Append a batch (arrays of call ids, kinds, principals, tools, statuses
#: and bodies, one time): one statement, one transaction, one round trip.
APPEND_BATCH: Final = (
    "SELECT o_seq, o_prev, o_hash FROM harbor_audit_append(%s, %s, %s, %s, %s, %s, %s)"
    " ORDER BY o_seq"
)
