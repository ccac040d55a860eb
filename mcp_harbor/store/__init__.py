"""Audit trail, runs and session memory: SQLite today, a `Store` interface for PostgreSQL."""

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
]
