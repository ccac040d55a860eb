"""Issue 10: the PostgreSQL schema is versioned and upgraded at start.

An older schema built by hand (version 1: only the chain, with records in
it) is upgraded when a store opens it, and the chain goes on from its head;
an empty database gets the whole schema; a read-only store never migrates;
a database not in UTF8 is refused. (Refusing a newer schema and stores
starting together on an empty database are in test_store_suite.py, for both
backends.)
"""

from __future__ import annotations

import psycopg
import pytest

from mcp_harbor.errors import StoreError
from mcp_harbor.store._sql_postgres import MIGRATIONS
from mcp_harbor.store.base import GENESIS, canonical_json, record_hash
from mcp_harbor.store.postgres import SCHEMA_VERSION, PostgresStore


def _version(dsn: str) -> int:
    with psycopg.connect(dsn) as con:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert row is not None
        return int(row[0])


def _tables(dsn: str) -> set[str]:
    with psycopg.connect(dsn) as con:
        rows = con.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchall()
    return {r[0] for r in rows}


def test_empty_database_gets_the_latest_schema(pg_dsn: str) -> None:
    store = PostgresStore(pg_dsn)
    store.close()
    assert SCHEMA_VERSION == 9
    assert _version(pg_dsn) == SCHEMA_VERSION
    assert {"meta", "audit", "memory", "approvals", "tasks"} <= _tables(pg_dsn)


def test_version_1_written_by_hand_is_upgraded_and_the_chain_goes_on(pg_dsn: str) -> None:
    # Version 1 as an older mcp-harbor left it: the chain only, three records.
    with psycopg.connect(pg_dsn) as con, con.transaction():
        for statement in MIGRATIONS[0]:
            con.execute(statement.encode())
        con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        prev = GENESIS
        for seq in (1, 2, 3):
            body = canonical_json({"n": seq})
            at = f"2026-01-01T00:00:0{seq}.000000Z"
            digest = record_hash(seq, f"old{seq}", "call", at, "alice", "t", "ok", body, prev)
            con.execute(
                "INSERT INTO audit VALUES (%s, %s, 'call', %s, 'alice', 't', 'ok', %s, %s, %s)",
                (seq, f"old{seq}", at, body, prev, digest),
            )
            prev = digest
        con.execute("INSERT INTO meta VALUES ('head', %s)", (f"3:{prev}",))
    assert "memory" not in _tables(pg_dsn)

    store = PostgresStore(pg_dsn)
    try:
        assert _version(pg_dsn) == SCHEMA_VERSION
        assert {"memory", "approvals"} <= _tables(pg_dsn)
        record = store.append("new", "call", "bob", "t", "ok", {})
        assert (record.seq, record.prev_hash) == (4, prev)
        assert store.verify().ok and store.verify().records == 4
        store.request_approval("r1", "t", "bob", "?", {})
        assert store.decide("r1", "approved", "ops") == "decided"
    finally:
        store.close()
    with psycopg.connect(pg_dsn) as con:
        unique = con.execute(
            "SELECT 1 FROM pg_constraint WHERE conname = 'audit_prev_hash' AND contype = 'u'"
        ).fetchone()
        function = con.execute(
            "SELECT 1 FROM pg_proc WHERE proname = 'harbor_audit_append'"
        ).fetchone()
    assert unique is not None, "version 3 makes a fork impossible"
    assert function is not None, "version 4 appends a batch in one round trip"


def test_readonly_store_does_not_migrate(pg_dsn: str) -> None:
    with pytest.raises(StoreError, match="no mcp-harbor schema"):
        PostgresStore(pg_dsn, readonly=True)
    assert "meta" not in _tables(pg_dsn)


def test_a_database_not_in_utf8_is_refused(pg_admin: str) -> None:
    """Records are hashed as UTF-8 on both sides (Python and the chain function)."""
    from urllib.parse import urlencode

    from psycopg.conninfo import conninfo_to_dict

    name = "harbor_test_latin1"
    with psycopg.connect(pg_admin, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}".encode())
        admin.execute(
            f"CREATE DATABASE {name} ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' "
            "TEMPLATE template0".encode()
        )
    try:
        params = conninfo_to_dict(pg_admin)
        params["dbname"] = name
        with pytest.raises(StoreError, match="UTF8 encoding"):
            PostgresStore("postgresql://?" + urlencode(params))
    finally:
        with psycopg.connect(pg_admin, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())
