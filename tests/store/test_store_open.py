"""Issue 18: choosing a backend from a ``--db`` value is the store's job
(`mcp_harbor.store.open`), not the CLI's."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor import store
from mcp_harbor.errors import StoreError
from mcp_harbor.store import SqliteStore
from mcp_harbor.store.postgres import PostgresStore


def test_a_path_opens_sqlite(tmp_path: Path) -> None:
    opened = store.open(tmp_path / "harbor.db")
    try:
        assert isinstance(opened, SqliteStore)
        assert store.label(tmp_path / "harbor.db") == str(tmp_path / "harbor.db")
    finally:
        opened.close()


def test_a_dsn_opens_postgresql(pg_dsn: str) -> None:
    assert store.names_postgres(pg_dsn)
    opened = store.open(pg_dsn)
    try:
        assert isinstance(opened, PostgresStore)
    finally:
        opened.close()


def test_the_label_of_a_dsn_has_no_password() -> None:
    dsn = "postgresql://harbor:s3cret-pw@127.0.0.1:1/harbor"
    assert store.names_postgres(dsn) and store.names_postgres("postgres://h/db")
    assert "s3cret-pw" not in store.label(dsn)


def test_an_unreachable_database_is_a_store_error_without_its_password() -> None:
    with pytest.raises(StoreError) as raised:
        store.open("postgresql://harbor:s3cret-pw@127.0.0.1:1/harbor?connect_timeout=1")
    assert "s3cret-pw" not in str(raised.value)
