"""Issue 18: choosing a backend from a ``--db`` value is the store's job
(`mcp_harbor.store.open`), not the CLI's."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor import store
from mcp_harbor.errors import StoreError
from mcp_harbor.locations import without_password
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
    assert str(raised.value).startswith(
        "audit store postgresql://harbor@127.0.0.1:1/harbor?connect_timeout=1: cannot connect: "
    )


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        (
            "postgresql://harbor:s3cret@127.0.0.1:5432/harbor",
            "postgresql://harbor@127.0.0.1:5432/harbor",
        ),
        ("postgres://:s3cret@db/harbor", "postgres://db/harbor"),
        (
            "postgresql://u@h/db?sslmode=require&password=s3cret&application_name=a",
            "postgresql://u@h/db?sslmode=require&application_name=a",
        ),
        ("postgresql://?host=h&password=s3cret", "postgresql://?host=h"),
        ("postgresql://u:s3cret@h1:5432,h2:5433/db", "postgresql://u@h1:5432,h2:5433/db"),
        ("postgresql://u:p%40s3cret@h/db", "postgresql://u@h/db"),
        ("postgresql://u:pa/s3cret@h/db", "postgresql://u@h/db"),  # an unescaped "/"
        ("redis://:s3cret@broker:6379/0", "redis://broker:6379/0"),
        ("redis://broker:6379/0", "redis://broker:6379/0"),
        ("/var/lib/harbor/a:b@c.db", "/var/lib/harbor/a:b@c.db"),  # a path: as it is
    ],
)
def test_one_scrubber_drops_the_password_and_keeps_the_rest(given: str, shown: str) -> None:
    """Issue 18: one password scrubber (`without_password`) for --db values
    and broker URLs, instead of three."""
    assert without_password(given) == shown
    assert "s3cret" not in shown
    if store.names_postgres(given):
        assert store.label(given) == shown
