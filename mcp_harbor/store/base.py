"""The store's vocabulary and interface: the audit trail, session memory,
approvals and run leases, behind the `Store` protocol.

`SqliteStore` and `PostgresStore` implement every member of it (callers
never probe for one). Every record is append-only and chained: each carries
the hash of the one before it (`record_hash`), so an edited, deleted or
reordered record is detected by `verify` (`verify_chain`). The rows of
``approvals`` and ``memory`` are covered too: each write of one appends, in
its transaction, a record holding the row's key and digest (`verify_rows`).
What the chain cannot see alone, records cut from its end with the head
rewritten to match, is caught by signed checkpoints (`mcp_harbor.store.seal`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

__all__ = [
    "GENESIS",
    "ROW_KINDS",
    "AuditQuery",
    "AuditRecord",
    "CallSummary",
    "Lease",
    "LeaseStore",
    "MemoryEntry",
    "RecordKind",
    "Store",
    "VerifyReport",
    "canonical_json",
    "parse_head",
    "record_hash",
    "row_digest",
    "verify_chain",
    "verify_rows",
]

#: ``start``/``end``/``call``: a call's records (see `mcp_harbor.store.audit`);
#: ``rejected``: the requests of one source in one minute refused before any
#: handler; ``approval``/``memory``: a row of the ``approvals`` or ``memory``
#: table was written (its key and `row_digest`, see `ROW_KINDS`), in the
#: transaction that wrote it; call listings never show these two.
#: ``turn``: one model answer of an agent step of the call (`AuditTrail.turn`).
RecordKind = Literal["start", "end", "call", "rejected", "approval", "memory", "turn"]
#: The record kinds that cover a table's rows, and the table each covers.
ROW_KINDS: Mapping[str, str] = {"approval": "approvals", "memory": "memory"}
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


def row_digest(row: Mapping[str, Any]) -> str:
    """SHA-256 over the canonical JSON of a table row as a dict of every
    column that is not NULL: a column added later is covered without a
    change here, and adding a nullable one (``ALTER TABLE … ADD COLUMN``
    without a default) leaves the digests of the rows already there as they
    were. (A migration that fills a new column in old rows must cover them
    again, as `SqlStore._adopt_rows` does.)"""
    present = {name: value for name, value in dict(row).items() if value is not None}
    return hashlib.sha256(canonical_json(present).encode("utf-8")).hexdigest()


def parse_head(head: str) -> tuple[int, str] | None:
    """``meta.head`` (``"SEQ:HASH"``) as (seq, hash); None when it is not of
    that form (a seq of digits, a hash of 64 hex digits)."""
    seq, sep, digest = head.partition(":")
    if not sep or not seq.isascii() or not seq.isdigit() or len(digest) != 64:
        return None
    if any(c not in "0123456789abcdef" for c in digest):
        return None
    return int(seq), digest


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
    """Which calls `Store.calls` returns: every filter that is set must
    match (the caller's principal, the tool, the call's status, started at
    or after `since`); at most `limit`, newest first."""

    who: str | None = None
    tool: str | None = None
    status: str | None = None
    since: str | None = None  # ISO 8601, compared as text (UTC, same format)
    limit: int = 50


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One answered call in a session's memory (the conversation tier).

    `embedding` is the call's vector for recall by similarity (the tool,
    its shown arguments and its answer, embedded by `embedder`, whose name
    is stored with it: vectors of two embedders are never compared); both
    None for an export without ``memory: {recall: …}``. It is stored as
    float32, so what `Store.recall_candidates` gives back equals it to
    float32 precision."""

    tenant: str
    principal: str
    session: str
    tool: str
    run_id: str
    at: str
    arguments: Mapping[str, Any]
    answer: str
    answer_payload: Any = None
    embedder: str | None = None
    embedding: tuple[float, ...] | None = None

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
    """What `verify` found: how many records it read, and each problem."""

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
        parsed = parse_head(head)
        if parsed is None:
            report.problems.append(
                f"the chain's head in the meta table is malformed ({head[:80]!r}, expected "
                "SEQ:HASH): it was rewritten"
            )
        elif parsed[0] != expected_seq - 1 or (rows and parsed[1] != prev):
            report.problems.append(
                f"the trail ends at record {expected_seq - 1} but its head says record "
                f"{parsed[0]}: records at the end were deleted or rewritten"
            )
    elif rows:
        report.problems.append("the chain's head is missing from the meta table")
    return report


def verify_rows(
    report: VerifyReport, records: Sequence[Any], tables: Mapping[str, Sequence[Any]]
) -> None:
    """Cross-check the rows of the tables the chain covers (`ROW_KINDS`:
    every column of every row of ``approvals`` and ``memory``, read in the
    snapshot of `records`) against the latest chain record for each row's
    key; add to `report` each row the chain does not know, each row whose
    content differs from what the chain holds, and each row the chain holds
    that is gone."""
    latest: dict[tuple[str, str], tuple[int, str]] = {}
    for r in records:
        table = ROW_KINDS.get(r["kind"])
        if table is None:
            continue
        try:
            body = json.loads(r["body"])
            key, digest = str(body["key"]), str(body["digest"])
        except (ValueError, TypeError, KeyError):
            report.problems.append(f"record {r['seq']} ({r['kind']}): its body names no row")
            continue
        latest[(table, key)] = (r["seq"], digest)
    keys = {"approvals": "run_id", "memory": "id"}
    for table, rows in tables.items():
        present: set[str] = set()
        for row in rows:
            key = str(row[keys[table]])
            present.add(key)
            known = latest.get((table, key))
            if known is None:
                report.problems.append(
                    f"{table} row {key}: no chain record covers it "
                    "(written behind the store's back)"
                )
            elif row_digest(row) != known[1]:
                report.problems.append(
                    f"{table} row {key}: its content differs from what record {known[0]} "
                    "holds (changed after it was written)"
                )
        for (t, key), (seq, _) in latest.items():
            if t == table and key not in present:
                report.problems.append(
                    f"{table} row {key}: record {seq} holds it but the row is gone (deleted)"
                )


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
    """What mcp-harbor needs from a store, run leases included. Every
    backend implements every member: callers never probe for one.
    Implementations translate their own errors into `StoreError`, whose
    message names the store by its `location`. A read-only or closed store
    refuses every write with `StoreError`, and changes nothing.

    **Appending.** `append` is the one that always works; `try_append` and
    `append_nowait` are faster ways the caller tries first, and each may
    decline (None) where the backend has no such way: then nothing was
    written, and the caller falls back to `append` (in a worker thread, so
    that an event loop never waits for the database). A record is in the
    chain once, whichever way wrote it.
    """

    @property
    def location(self) -> str:
        """The ``--db`` value that reaches this store from other mcp-harbor
        commands (``mcp-harbor approve RUN_ID --db …``): a SQLite file's
        path, a PostgreSQL DSN without its password
        (`mcp_harbor.locations.without_password`). Safe to show: it never
        holds a password."""
        ...

    @property
    def append_concurrency(self) -> int:
        """How many `append` calls may usefully wait at once (at least 1):
        1 where appends take turns on one lock (SQLite), more where a
        writer of the store batches concurrent ones (PostgreSQL)."""
        ...

    def append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord:
        """Durably append one record to the chain: committed on return,
        linked to the record before it, even when other threads, processes
        or replicas append at the same time. Blocks while it waits. On
        `StoreError` (also at once, from a closed or read-only store) the
        record does not exist."""
        ...

    def try_append(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> AuditRecord | None:
        """`append`, but only if it can be done at once, without waiting for
        another writer (cheap enough to call on an event loop): the record,
        committed; or None, declined, and nothing was written (another
        writer holds the lock, or the backend never appends this way:
        PostgreSQL). Raises `StoreError` like `append` for any other
        failure, and on every backend for a closed or read-only store."""
        ...

    def append_nowait(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> Future[AuditRecord] | None:
        """Hand the record to a writer thread of the store and return at
        once: a future resolved with the record once it is committed, or
        with `StoreError` (then it does not exist). None where the store has
        no writer of its own (SQLite): nothing was written. Raises
        `StoreError` at once, on every backend, for a closed or read-only
        store."""
        ...

    def calls(self, query: AuditQuery) -> Sequence[CallSummary]:
        """The calls that match every filter of `query`, newest first, at
        most ``query.limit`` (none for a limit below 1). A call's status is
        its end record's (``running`` without one)."""
        ...

    def call(self, call_id: str) -> CallSummary | None:
        """One call by its id, None when there is no such call."""
        ...

    def records(self) -> Sequence[AuditRecord]:
        """Every record of the chain, in order (by ``seq``)."""
        ...

    def call_records(self, call_id: str) -> Sequence[AuditRecord]:
        """Every record of call `call_id` (its start, its agent steps'
        ``turn`` records, its end), in chain order; empty for no such call."""
        ...

    def records_between(self, after: int, before: int | None = None) -> Sequence[AuditRecord]:
        """The records with ``after`` < seq < `before` (None: to the end of
        the chain), in chain order: what was written while a run was open
        (its agent steps' tool calls are found there by ``via.run_id``)."""
        ...

    def open_calls(self) -> Sequence[AuditRecord]:
        """Start records without an end record, in chain order."""
        ...

    def head(self) -> tuple[int, str] | None:
        """The last record of the chain: its ``seq`` and ``hash`` (what a
        signed checkpoint covers, `mcp_harbor.store.seal`); None when the
        trail is empty."""
        ...

    def verify(self) -> VerifyReport:
        """Check the whole chain and its head, and every row of the
        ``approvals`` and ``memory`` tables against the chain records that
        cover them (`verify_rows`), read in one snapshot (so it may run
        while others append); names each edited, deleted or reordered
        record and each forged, changed or deleted row."""
        ...

    def remember(self, entry: MemoryEntry) -> None:
        """Append one answered call to its session's memory and, in the same
        transaction, a ``memory`` record to the chain that covers the row
        (its id and `row_digest`, over its embedding too when it has one).
        `StoreError` for an entry with an `embedding` and no `embedder`, or
        the reverse, or a vector that is not finite (nothing is written)."""
        ...

    def recall(self, tenant: str, principal: str, session: str, limit: int) -> list[MemoryEntry]:
        """The last `limit` entries of one session (of one principal in one
        tenant), oldest first; none for a limit below 1."""
        ...

    def recall_candidates(
        self, tenant: str, principal: str, embedder: str, limit: int
    ) -> list[MemoryEntry]:
        """The newest `limit` entries of one principal in one tenant, of
        every session, that hold a vector made by `embedder`, newest first
        (none for a limit below 1): what recall by similarity scores. Never
        an entry of another principal or another tenant."""
        ...

    def request_approval(
        self,
        run_id: str,
        tool: str,
        principal: str,
        message: str,
        arguments: Mapping[str, Any],
        *,
        approvers: Sequence[str] | None = None,
        plan_hash: str | None = None,
        export_hash: str | None = None,
    ) -> None:
        """Record that run `run_id` of `principal` waits for an approval:
        the question, the shown arguments, who may answer (`approvers`,
        ``allow:``-style entries; None: any operator) and the plan asked
        about; and, in the same transaction, an ``approval`` record that
        covers the row. `StoreError` when the run already asked."""
        ...

    def decide(
        self,
        run_id: str,
        decision: str,
        decided_by: str,
        *,
        reason: str | None = None,
        decided_as: Mapping[str, Any] | None = None,
    ) -> str:
        """Record an answer (``approved``, ``denied``, or ``expired`` when
        the run stopped waiting) once, also when several answer at the same
        moment, with the answer's `reason` and `decided_as` (the answering
        principal, tenant, groups and channel, as checked); the answer is
        covered by a new ``approval`` record of the row, written in the same
        transaction. Returns ``decided``, ``unknown`` (no such request) or
        the decision recorded before."""
        ...

    def approval(self, run_id: str) -> dict[str, Any] | None:
        """The request of `run_id`, pending or answered (`pending_approvals`'
        fields and ``decision``, ``decided_by``, ``decided_at``, ``reason``,
        ``decided_as``), None when it never asked."""
        ...

    def pending_approvals(self) -> list[dict[str, Any]]:
        """The requests not answered yet, by ``requested_at`` then ``run_id``."""
        ...

    # --- durable tasks (`mcp_harbor.server.tasks`); rows as dicts of their columns

    def task_create(self, row: Mapping[str, Any]) -> None:
        """Insert a task row (the columns of ``TASK_CREATE_COLUMNS``),
        committed when this returns: a `task` from any process sharing the
        store sees it from then on. Raises `StoreError` otherwise."""
        ...

    def task(self, task_id: str) -> dict[str, Any] | None:
        """The row of `task_id` (every column), None when there is none."""
        ...

    def task_progress(self, task_id: str, status: str, message: str | None) -> bool:
        """Set a task's status (``working``/``input_required``) and
        message; False (nothing changed) when the task is final or gone."""
        ...

    def task_finish(
        self,
        task_id: str,
        status: str,
        message: str | None,
        *,
        run_id: str | None = None,
        run_dir: str | None = None,
        result: str | None = None,
        error: str | None = None,
    ) -> bool:
        """Make a task final (``completed``, ``failed``, ``cancelled``) with
        its run and its result or error (JSON text); False when it was final
        already (the first final status stays) or is gone."""
        ...

    def task_ask(self, task_id: str, message: str, requests: str) -> bool:
        """Make a task ``input_required`` with its questions (JSON of
        ``inputRequests``); False when it is final or gone."""
        ...

    def task_answer(self, task_id: str, responses: str) -> bool:
        """Store the answers ``tasks/update`` brought (JSON, keyed like the
        questions; the whole set so far); False unless ``input_required``."""
        ...

    def task_request_cancel(self, task_id: str) -> bool:
        """Ask the server running a task to cancel it (the server polls the
        flag); False when the task is final or gone."""
        ...

    def task_claim(self, task_id: str, was: str, server: str) -> bool:
        """Make `server` (JSON) the server of an open task whose server is
        still `was` (a dead one's); False when another claimed it first, or
        the task is final or gone: one server takes a task over."""
        ...

    def tasks_open(self) -> list[dict[str, Any]]:
        """The tasks that are not final, oldest first."""
        ...

    def tasks_expired(self, now_s: float) -> list[dict[str, Any]]:
        """The tasks whose TTL ended before `now_s` (epoch seconds)."""
        ...

    def task_delete(self, task_id: str) -> bool:
        """Delete a task's row; False when there was none."""
        ...

    def tasks_of(self, tenant: str, principal: str, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` tasks of one principal of one tenant."""
        ...

    def close(self) -> None:
        """Release the store's connections and threads; every later write
        raises `StoreError`."""
        ...
