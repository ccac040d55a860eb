"""The store interface: the audit trail (runs and session memory come later).

SQLite implements it today; a PostgreSQL store can implement the same
methods. Every record is append-only and chained: each carries the hash of the
one before it, so an edited, deleted or reordered record is detected by
`verify`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

__all__ = [
    "GENESIS",
    "AuditQuery",
    "AuditRecord",
    "CallSummary",
    "Lease",
    "LeaseStore",
    "MemoryEntry",
    "RecordKind",
    "Store",
    "VerifyReport",
    "approval_of",
    "canonical_json",
    "memory_of",
    "query_filters",
    "record_hash",
    "summary_of",
    "verify_chain",
]

RecordKind = Literal["start", "end", "call"]
#: The `prev_hash` of the first record.
GENESIS = "0" * 64


def canonical_json(value: Any) -> str:
    """The one serialization that is hashed: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_hash(
    seq: int,
    call_id: str,
    kind: str,
    at: str,
    principal: str,
    tool: str,
    status: str,
    body: str,
    prev_hash: str,
) -> str:
    """SHA-256 over every field of a record and the previous record's hash."""
    text = "\n".join((str(seq), call_id, kind, at, principal, tool, status, prev_hash, body))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One row of the trail. `body` is the record's content (canonical JSON
    when stored)."""

    seq: int
    call_id: str
    kind: RecordKind
    at: str
    principal: str
    tool: str
    status: str
    body: Mapping[str, Any]
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class CallSummary:
    """One call, from its start (or single) record and its end record."""

    call_id: str
    started_at: str
    ended_at: str | None
    principal: str
    tool: str
    status: str
    duration_ms: float | None
    start: Mapping[str, Any]
    end: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class AuditQuery:
    who: str | None = None
    tool: str | None = None
    status: str | None = None
    since: str | None = None  # ISO 8601, compared as text (UTC, same format)
    limit: int = 50


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One answered call in a session's memory (the conversation tier)."""

    tenant: str
    principal: str
    session: str
    tool: str
    run_id: str
    at: str
    arguments: Mapping[str, Any]
    answer: str
    answer_payload: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "run_id": self.run_id,
            "at": self.at,
            "arguments": dict(self.arguments),
            "answer": self.answer,
            "answer_payload": self.answer_payload,
        }


@dataclass(slots=True)
class VerifyReport:
    records: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_chain(rows: Sequence[Any], head: str | None) -> VerifyReport:
    """Check the chain: rows (every audit column, by ``seq``) and the head
    (``"SEQ:HASH"`` from the meta table, None when absent), read in one
    snapshot. Names each edited, deleted or reordered record."""
    report = VerifyReport(records=len(rows))
    prev, expected_seq = GENESIS, 1
    for r in rows:
        where = f"record {r['seq']} (call {r['call_id']}, {r['kind']})"
        if r["seq"] != expected_seq:
            report.problems.append(
                f"records {expected_seq}..{r['seq'] - 1} are missing (deleted) before {where}"
            )
        if r["prev_hash"] != prev:
            report.problems.append(
                f"{where}: does not follow the record before it (deleted or reordered)"
            )
        digest = record_hash(
            r["seq"],
            r["call_id"],
            r["kind"],
            r["at"],
            r["principal"],
            r["tool"],
            r["status"],
            r["body"],
            r["prev_hash"],
        )
        if digest != r["hash"]:
            report.problems.append(f"{where}: its content was changed after it was written")
        prev, expected_seq = r["hash"], r["seq"] + 1
    if head is not None:
        head_seq, _, head_hash = head.partition(":")
        if int(head_seq) != expected_seq - 1 or (rows and head_hash != prev):
            report.problems.append(
                f"the trail ends at record {expected_seq - 1} but its head says record "
                f"{head_seq}: records at the end were deleted or rewritten"
            )
    elif rows:
        report.problems.append("the chain's head is missing from the meta table")
    return report


def summary_of(row: Any) -> CallSummary:
    """A call from a start (or single) row joined with its end row
    (``end_at``, ``end_status``, ``end_body`` None when it has none)."""
    start = json.loads(row["body"])
    end = json.loads(row["end_body"]) if row["end_body"] is not None else None
    if row["kind"] == "call":
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


#: The columns `memory_row` fills, in its order.
MEMORY_COLUMNS = "tenant, principal, session, tool, run_id, at, arguments, answer, answer_payload"


def memory_row(entry: MemoryEntry) -> tuple[Any, ...]:
    """The values of `MEMORY_COLUMNS` for `entry` (the inverse of `memory_of`)."""
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
    """A pending approval from a row of the ``approvals`` table."""
    return {
        "run_id": row["run_id"],
        "tool": row["tool"],
        "principal": row["principal"],
        "message": row["message"],
        "arguments": json.loads(row["arguments"]),
        "requested_at": row["requested_at"],
    }


def query_filters(query: AuditQuery, mark: str) -> tuple[str, list[Any]]:
    """The WHERE clauses (joined, over ``s`` the start row and ``e`` the end
    row) and parameters of `query`, with `mark` the driver's placeholder."""
    clauses: list[str] = []
    params: list[Any] = []
    if query.who is not None:
        clauses.append(f"AND s.principal = {mark}")
        params.append(query.who)
    if query.tool is not None:
        clauses.append(f"AND s.tool = {mark}")
        params.append(query.tool)
    if query.since is not None:
        clauses.append(f"AND s.at >= {mark}")
        params.append(query.since)
    if query.status is not None:
        clauses.append(
            f"AND ((s.kind = 'call' AND s.status = {mark}) OR (s.kind = 'start' AND "
            f"COALESCE(e.status, 'running') = {mark}))"
        )
        params.extend([query.status, query.status])
    return " ".join(clauses), params


@dataclass(frozen=True, slots=True)
class Lease:
    """A worker's claim on a run (see docs/scale-out.md, *Workers*)."""

    run_id: str
    tool: str
    worker: str
    attempt: int


class LeaseStore(Protocol):
    """Run leases: a worker claims a run and renews the claim while it runs;
    a run whose lease expired is ``lost``. Times are Unix seconds."""

    def lease_acquire(self, run_id: str, tool: str, worker: str, expires_at: float) -> int | None:
        """Claim `run_id` for `worker`: a new run, or one re-queued after a
        loss. Returns the attempt number, or None when the run is (or was)
        someone else's: a duplicate delivery, which must not run."""
        ...

    def lease_renew(self, run_id: str, attempt: int, expires_at: float) -> bool:
        """Extend a running lease; False: the run is no longer this attempt's
        (declared lost): the worker must stop it."""
        ...

    def lease_release(self, run_id: str, attempt: int) -> bool:
        """The attempt ended (whatever its outcome). True when the lease was
        still this attempt's: only then may the worker report the outcome
        (fencing: a run declared lost, or re-dispatched, is no longer its own)."""
        ...

    def lease_expire(self, now: float) -> list[Lease]:
        """Mark every running lease that expired before `now` as lost, once
        (concurrent sweepers each get distinct runs); return them."""
        ...

    def lease_requeue(self, run_id: str) -> None:
        """Let a lost run be claimed again (re-dispatch)."""
        ...


class Store(LeaseStore, Protocol):
    """What mcp-harbor needs from a store, run leases included (every
    backend has them: callers never probe for a method). Implementations
    translate their own errors into `StoreError`."""

    def append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord:
        """Durably append one record to the chain (committed on return)."""
        ...

    def calls(self, query: AuditQuery) -> Sequence[CallSummary]: ...

    def call(self, call_id: str) -> CallSummary | None: ...

    def records(self) -> Sequence[AuditRecord]: ...

    def open_calls(self) -> Sequence[AuditRecord]:
        """Start records without an end record."""
        ...

    def verify(self) -> VerifyReport: ...

    def remember(self, entry: MemoryEntry) -> None:
        """Append one answered call to its session's memory."""
        ...

    def recall(self, tenant: str, principal: str, session: str, limit: int) -> list[MemoryEntry]:
        """The last `limit` entries of one session (of one principal in one
        tenant), oldest first."""
        ...

    def request_approval(
        self, run_id: str, tool: str, principal: str, message: str, arguments: Mapping[str, Any]
    ) -> None:
        """Record that run `run_id` waits for an operator's approval."""
        ...

    def decide(self, run_id: str, decision: str, decided_by: str) -> str:
        """Record an operator's answer (``approved``/``denied``) once."""
        ...

    def decision(self, run_id: str) -> tuple[str, str] | None:
        """(decision, decided_by) once answered, else None."""
        ...

    def pending_approvals(self) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...
