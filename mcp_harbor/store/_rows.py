"""Rows of the stores' tables as values, and back: written once for both
backends (a `sqlite3.Row` and a psycopg ``dict_row`` are both read by column
name). JSON columns hold `canonical_json` text, the text that is hashed."""

from __future__ import annotations

import json
from typing import Any, cast

from mcp_harbor.store.base import (
    AuditRecord,
    CallSummary,
    Lease,
    MemoryEntry,
    RecordKind,
    canonical_json,
)

__all__ = ["approval_of", "lease_of", "memory_of", "memory_row", "record_of", "summary_of"]


def record_of(row: Any) -> AuditRecord:
    """An audit record from a row of the ``audit`` table (every column)."""
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


def summary_of(row: Any) -> CallSummary:
    """A call from a start (or single) row joined with its end row
    (``end_at``, ``end_status``, ``end_body`` None when it has none)."""
    start = json.loads(row["body"])
    end = json.loads(row["end_body"]) if row["end_body"] is not None else None
    if row["kind"] in ("call", "rejected"):
        status, ended, end = row["status"], row["at"], start
    else:
        status = row["end_status"] if row["end_status"] is not None else "running"
        ended = row["end_at"]
    return CallSummary(
        call_id=row["call_id"],
        started_at=row["at"],
        ended_at=ended,
        principal=row["principal"],
        tool=row["tool"],
        status=status,
        duration_ms=(end or {}).get("duration_ms"),
        start=start,
        end=end,
    )


def memory_of(row: Any) -> MemoryEntry:
    """A session-memory entry from a row of the ``memory`` table."""
    payload = row["answer_payload"]
    return MemoryEntry(
        tenant=row["tenant"],
        principal=row["principal"],
        session=row["session"],
        tool=row["tool"],
        run_id=row["run_id"],
        at=row["at"],
        arguments=json.loads(row["arguments"]),
        answer=row["answer"],
        answer_payload=None if payload is None else json.loads(payload),
    )


def memory_row(entry: MemoryEntry) -> tuple[Any, ...]:
    """The values `Statements.remember` inserts for `entry`, in its column
    order (the inverse of `memory_of`)."""
    payload = None if entry.answer_payload is None else canonical_json(entry.answer_payload)
    return (
        entry.tenant,
        entry.principal,
        entry.session,
        entry.tool,
        entry.run_id,
        entry.at,
        canonical_json(entry.arguments),
        entry.answer,
        payload,
    )


def approval_of(row: Any) -> dict[str, Any]:
    """An approval request (pending or answered) from a row of the
    ``approvals`` table."""
    keys = row.keys()

    def column(name: str) -> Any:
        return row[name] if name in keys else None

    approvers, decided_as = column("approvers"), column("decided_as")
    return {
        "run_id": row["run_id"],
        "tool": row["tool"],
        "principal": row["principal"],
        "message": row["message"],
        "arguments": json.loads(row["arguments"]),
        "requested_at": row["requested_at"],
        "approvers": None if approvers is None else json.loads(approvers),
        "plan_hash": column("plan_hash"),
        "export_hash": column("export_hash"),
        "decision": column("decision"),
        "decided_by": column("decided_by"),
        "decided_at": column("decided_at"),
        "reason": column("reason"),
        "decided_as": None if decided_as is None else json.loads(decided_as),
    }


def lease_of(row: Any) -> Lease:
    """A lease from a row of the ``leases`` table."""
    return Lease(row["run_id"], row["tool"], row["worker"], int(row["attempt"]))
