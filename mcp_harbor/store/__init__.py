"""Audit trail, runs, session memory and approvals: SQLite or PostgreSQL behind
one `Store` interface. `open` chooses the backend from a ``--db`` value."""

from pathlib import Path

from mcp_harbor.store.base import (
    AuditQuery,
    AuditRecord,
    CallSummary,
    MemoryEntry,
    RecordKind,
    Store,
    VerifyReport,
)
from mcp_harbor.store.sqlite import SqliteStore, default_db_path

__all__ = [
    "AuditQuery",
    "AuditRecord",
    "CallSummary",
    "MemoryEntry",
    "RecordKind",
    "SqliteStore",
    "Store",
    "VerifyReport",
    "default_db_path",
    "label",
    "names_postgres",
    "open",
]


def names_postgres(db: str | Path) -> bool:
    """Whether `db` (a ``--db`` value) names a PostgreSQL database: a
    ``postgresql://`` or ``postgres://`` DSN. Anything else is a SQLite path."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def label(db: str | Path) -> str:
    """`db` for messages and logs: a DSN without its password."""
    if names_postgres(db):
        from mcp_harbor.store.postgres import safe_dsn

        return safe_dsn(str(db))
    return str(db)


def open(db: str | Path, *, durable: bool = False, readonly: bool = False) -> Store:
    """The store named by `db`: a PostgreSQL DSN (`names_postgres`) or a
    SQLite file path.

    Raises:
        StoreError: it cannot be opened (the message names it without its
            password, and says why).
    """
    if names_postgres(db):
        from mcp_harbor.store.postgres import PostgresStore

        return PostgresStore(str(db), durable=durable, readonly=readonly)
    return SqliteStore(Path(db), durable=durable, readonly=readonly)
