"""Rows of the stores' tables as values, and back: written once for both
backends (a `sqlite3.Row` and a psycopg ``dict_row`` are both read by column
name). JSON columns hold `canonical_json` text, the text that is hashed."""

from __future__ import annotations

import base64
import binascii
import json
import math
import struct
from typing import Any, cast

from mcp_harbor.errors import StoreError
from mcp_harbor.store.base import (
    AuditRecord,
    CallSummary,
    Lease,
    MemoryEntry,
    RecordKind,
    canonical_json,
)

__all__ = [
    "approval_of",
    "decode_vector",
    "encode_vector",
    "lease_of",
    "memory_of",
    "memory_row",
    "record_of",
    "summary_of",
]


def encode_vector(vector: tuple[float, ...]) -> str:
    """A vector as the ``memory.embedding`` column holds it: base64 of its
    little-endian float32 values (1,368 characters for 256 dimensions).
    `StoreError` for an empty vector or one that is not finite (or not
    representable as float32)."""
    if not vector or not all(math.isfinite(x) for x in vector):
        raise StoreError("session memory: an embedding must be a non-empty finite vector")
    try:
        packed = struct.pack(f"<{len(vector)}f", *vector)
    except (struct.error, OverflowError) as exc:
        raise StoreError(f"session memory: an embedding is not float32: {exc}") from exc
    return base64.b64encode(packed).decode("ascii")


def decode_vector(text: str | None) -> tuple[float, ...] | None:
    """The vector of a ``memory.embedding`` column (None for NULL, and for
    text that is not such a vector: a row edited behind the store's back is
    `verify`'s to name, never a reason for recall to fail)."""
    if text is None:
        return None
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    if not raw or len(raw) % 4:
        return None
    return struct.unpack(f"<{len(raw) // 4}f", raw)


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
    """A session-memory entry from a row of the ``memory`` table (one of a
    database not upgraded yet, read-only, has no embedding columns)."""
    payload = row["answer_payload"]
    keys = row.keys()
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
        embedder=row["embedder"] if "embedder" in keys else None,
        embedding=decode_vector(row["embedding"]) if "embedding" in keys else None,
    )


def memory_row(entry: MemoryEntry) -> tuple[Any, ...]:
    """The values `Statements.remember` inserts for `entry`, in its column
    order (the inverse of `memory_of`)."""
    payload = None if entry.answer_payload is None else canonical_json(entry.answer_payload)
    if (entry.embedder is None) != (entry.embedding is None):
        raise StoreError("session memory: an embedding and its embedder go together")
    vector = None if entry.embedding is None else encode_vector(entry.embedding)
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
        entry.embedder,
        vector,
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
