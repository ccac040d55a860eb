"""Audit trail, session memory, approvals and run leases: SQLite or
PostgreSQL behind one `Store` interface. `open` chooses the backend from a
``--db`` value; `label` shows one.

The package, module by module: `base` (the vocabulary, the chain's hash and
the `Store` protocol), `audit` (`AuditTrail`: what a call records, and when),
`seal` (signed checkpoints of the chain's head in a witness file, and their
check), `sqlite` and `postgres` (the two backends), and private to them
`_sqlstore` (what both backends do, written once), `_sql` (every shared
statement, rendered by a `Dialect`), `_sql_sqlite` and `_sql_postgres` (each
dialect and the SQL it alone runs, its schema versions among it) and `_rows`
(rows as values, and back).
"""

from pathlib import Path

from mcp_harbor.locations import without_password
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
    """`db` for messages and logs: a DSN without its password
    (`mcp_harbor.locations.without_password`, as `Store.location`), a path
    as given."""
    return without_password(str(db)) if names_postgres(db) else str(db)


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
