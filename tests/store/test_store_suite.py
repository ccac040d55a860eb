"""Issue 10: one `Store` suite, run against SQLite and PostgreSQL.

Every method of the protocol with the same expectations on both backends:
the chain (append, verify, and edited, deleted, reordered or tail-deleted
rows detected), calls and call with their filters, open_calls, session memory
scoped by tenant/principal/session, approvals answered once (also when two
operators answer at the same moment), read-only stores, errors translated
into `StoreError`, and concurrent appends from threads and from a second
store on the same database still forming one chain.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcp_harbor.errors import StoreError
from mcp_harbor.locations import without_password as safe_dsn
from mcp_harbor.store import SqliteStore
from mcp_harbor.store.base import (
    GENESIS,
    AuditQuery,
    MemoryEntry,
    Store,
    canonical_json,
    record_hash,
)
from mcp_harbor.store.postgres import PostgresStore

Tamper = Callable[..., None]


def chain(store: Store, n: int) -> None:
    """`n` calls: odd ones start and end, even ones are single records."""
    for i in range(1, n + 1):
        if i % 2:
            store.append(f"c{i}", "start", "alice", "build", "running", {"i": i, "arguments": {}})
            store.append(f"c{i}", "end", "alice", "build", "ok", {"status": "ok", "duration_ms": i})
        else:
            store.append(f"c{i}", "call", "bob", "deploy", "denied", {"reason": "policy", "i": i})


# --- the chain ---------------------------------------------------------------------


def test_append_links_records_and_hashes_every_field(store: Store) -> None:
    first = store.append("c1", "start", "alice", "build", "running", {"b": 2, "a": "é"})
    second = store.append("c1", "end", "alice", "build", "ok", {"status": "ok"})
    assert (first.seq, first.prev_hash) == (1, GENESIS)
    assert (second.seq, second.prev_hash) == (2, first.hash)
    text = canonical_json({"a": "é", "b": 2})
    assert first.hash == record_hash(
        1, "c1", "start", first.at, "alice", "build", "running", text, GENESIS
    )
    assert first.at.endswith("Z") and first.at <= second.at
    assert [(r.seq, r.kind, dict(r.body)) for r in store.records()] == [
        (1, "start", {"a": "é", "b": 2}),
        (2, "end", {"status": "ok"}),
    ]
    assert store.records()[0] == first


def test_empty_and_intact_trails_verify(store: Store) -> None:
    assert store.verify().ok and store.verify().records == 0
    chain(store, 6)
    report = store.verify()
    assert report.ok, report.problems
    assert report.records == 9


def test_edited_record_is_detected(store: Store, tamper: Tamper) -> None:
    chain(store, 5)
    tamper("UPDATE audit SET status = 'ok' WHERE seq = 6")
    problems = store.verify().problems
    assert problems == ["record 6 (call c4, call): its content was changed after it was written"]


def test_edited_body_is_detected(store: Store, tamper: Tamper) -> None:
    chain(store, 3)
    tamper("UPDATE audit SET body = replace(body, '\"ok\"', '\"failed\"') WHERE seq = 2")
    assert any("record 2 " in p and "changed" in p for p in store.verify().problems)


def test_deleted_record_is_detected(store: Store, tamper: Tamper) -> None:
    chain(store, 5)
    tamper("DELETE FROM audit WHERE seq = 4")
    problems = store.verify().problems
    assert any("records 4..4 are missing" in p for p in problems), problems
    assert any("record 5 " in p and "does not follow" in p for p in problems), problems


def test_reordered_records_are_detected(store: Store, tamper: Tamper) -> None:
    chain(store, 5)
    tamper(
        "UPDATE audit SET seq = -1 WHERE seq = 3",
        "UPDATE audit SET seq = 3 WHERE seq = 4",
        "UPDATE audit SET seq = 4 WHERE seq = -1",
    )
    problems = store.verify().problems
    assert any("record 3 " in p and "does not follow" in p for p in problems), problems
    assert any("record 4 " in p and "changed" in p for p in problems), problems


def test_deleted_tail_is_detected(store: Store, tamper: Tamper) -> None:
    chain(store, 5)
    tamper("DELETE FROM audit WHERE seq >= 7")
    problems = store.verify().problems
    assert problems == [
        "the trail ends at record 6 but its head says record 8: records at the end were "
        "deleted or rewritten"
    ]


def test_deleted_head_is_detected(store: Store, tamper: Tamper) -> None:
    chain(store, 2)
    tamper("DELETE FROM meta WHERE key = 'head'")
    assert store.verify().problems == ["the chain's head is missing from the meta table"]


def test_concurrent_appends_from_threads_and_two_stores_form_one_chain(
    open_db: Callable[..., Store],
) -> None:
    stores = [open_db(), open_db()]
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(25):
                stores[n % 2].append(f"t{n}-{i}", "call", f"p{n}", "tool", "ok", {"i": i})
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    report = stores[0].verify()
    assert report.ok, report.problems
    records = stores[1].records()
    assert [r.seq for r in records] == list(range(1, 301))
    assert len({r.call_id for r in records}) == 300


# --- calls, call, open_calls -----------------------------------------------------


def test_calls_filters_and_summaries(store: Store) -> None:
    chain(store, 4)
    store.append("c9", "start", "carol", "build", "running", {"arguments": {"x": 1}})
    calls = store.calls(AuditQuery())
    assert [c.call_id for c in calls] == ["c9", "c4", "c3", "c2", "c1"]
    running = calls[0]
    assert (running.status, running.ended_at, running.end, running.duration_ms) == (
        "running",
        None,
        None,
        None,
    )
    c3 = calls[2]
    assert (c3.status, c3.duration_ms, c3.principal, c3.tool) == ("ok", 3, "alice", "build")
    assert c3.ended_at is not None and c3.ended_at >= c3.started_at
    assert dict(c3.start) == {"i": 3, "arguments": {}}
    c2 = calls[3]
    assert (c2.status, c2.ended_at, dict(c2.end or {})) == (
        "denied",
        c2.started_at,
        {"reason": "policy", "i": 2},
    )

    def ids(**kw: object) -> list[str]:
        return [c.call_id for c in store.calls(AuditQuery(**kw))]  # type: ignore[arg-type]

    assert ids(who="bob") == ["c4", "c2"]
    assert ids(tool="build") == ["c9", "c3", "c1"]
    assert ids(status="ok") == ["c3", "c1"]
    assert ids(status="denied") == ["c4", "c2"]
    assert ids(status="running") == ["c9"]
    assert ids(who="alice", status="ok", limit=1) == ["c3"]
    # issue 18: the backends agree on limits below 1 (SQLite returned every
    # call for -1, PostgreSQL none)
    assert ids(limit=0) == [] and ids(limit=-1) == []
    assert ids(who="nobody") == []
    since = store.records()[3].at  # c3's start
    assert ids(since=since) == ["c9", "c4", "c3"]
    assert ids(since="2999-01-01T00:00") == []
    assert ids(since="2000-01-01T00:00") == ["c9", "c4", "c3", "c2", "c1"]

    one = store.call("c3")
    assert one is not None and one.status == "ok" and one.end == {"status": "ok", "duration_ms": 3}
    assert store.call("nope") is None


def test_open_calls_are_starts_without_end(store: Store) -> None:
    chain(store, 3)
    store.append("o1", "start", "alice", "build", "running", {"server": {"pid": 1}})
    store.append("o2", "start", "bob", "build", "running", {})
    store.append("o2", "end", "bob", "build", "interrupted", {"status": "interrupted"})
    opened = store.open_calls()
    assert [(r.call_id, r.kind, dict(r.body)) for r in opened] == [
        ("o1", "start", {"server": {"pid": 1}})
    ]


# --- session memory ---------------------------------------------------------------


def _entry(
    tenant: str, principal: str, session: str, n: int, payload: object = None
) -> MemoryEntry:
    return MemoryEntry(
        tenant=tenant,
        principal=principal,
        session=session,
        tool="build",
        run_id=f"r{n}",
        at=f"2026-11-29T10:00:{n:02d}.000000Z",
        arguments={"n": n, "nested": {"z": 1, "a": [1, 2]}},
        answer=f"answer {n}",
        answer_payload=payload,
    )


def test_memory_is_scoped_and_ordered(store: Store) -> None:
    for n in range(1, 6):
        store.remember(_entry("t1", "alice", "s1", n, payload={"n": n} if n % 2 else None))
    store.remember(_entry("t1", "alice", "s2", 10))
    store.remember(_entry("t1", "bob", "s1", 11))
    store.remember(_entry("t2", "alice", "s1", 12))
    last = store.recall("t1", "alice", "s1", 3)
    assert [e.run_id for e in last] == ["r3", "r4", "r5"]
    assert last[0] == _entry("t1", "alice", "s1", 3, payload={"n": 3})
    assert last[1].answer_payload is None
    assert [e.run_id for e in store.recall("t1", "alice", "s1", 100)] == [
        f"r{n}" for n in range(1, 6)
    ]
    assert [e.run_id for e in store.recall("t1", "alice", "s2", 10)] == ["r10"]
    assert [e.run_id for e in store.recall("t1", "bob", "s1", 10)] == ["r11"]
    assert [e.run_id for e in store.recall("t2", "alice", "s1", 10)] == ["r12"]
    assert store.recall("t1", "alice", "nope", 10) == []
    assert store.recall("t1", "alice", "s1", 0) == []


# --- approvals --------------------------------------------------------------------


def test_approvals_are_answered_once(store: Store) -> None:
    store.request_approval("r1", "deploy", "alice", "Deploy to prod?", {"env": "prod"})
    store.request_approval("r2", "deploy", "bob", "Again?", {})
    pending = store.pending_approvals()
    assert [(p["run_id"], p["principal"], p["message"], p["arguments"]) for p in pending] == [
        ("r1", "alice", "Deploy to prod?", {"env": "prod"}),
        ("r2", "bob", "Again?", {}),
    ]
    assert all(p["tool"] == "deploy" and p["requested_at"].endswith("Z") for p in pending)
    assert store.decision("r1") is None
    assert store.decide("r1", "approved", "ops") == "decided"
    assert store.decision("r1") == ("approved", "ops")
    assert store.decide("r1", "denied", "mallory") == "approved"
    assert store.decision("r1") == ("approved", "ops")
    assert store.decide("nope", "approved", "ops") == "unknown"
    assert [p["run_id"] for p in store.pending_approvals()] == ["r2"]
    assert store.decide("r2", "denied", "ops") == "decided"
    assert store.decision("r2") == ("denied", "ops")
    assert store.pending_approvals() == []
    with pytest.raises(StoreError):
        store.request_approval("r1", "deploy", "alice", "twice", {})


def test_two_operators_answering_at_once_decide_once(open_db: Callable[..., Store]) -> None:
    a, b = open_db(), open_db()
    for i in range(10):
        a.request_approval(f"r{i}", "deploy", "alice", "?", {})
    outcomes: list[str] = []
    lock = threading.Lock()

    def answer(store: Store, decision: str) -> None:
        for i in range(10):
            got = store.decide(f"r{i}", decision, decision)
            with lock:
                outcomes.append(got)

    threads = [
        threading.Thread(target=answer, args=(s, d))
        for s, d in ((a, "approved"), (b, "denied"), (a, "denied"), (b, "approved"))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("decided") == 10
    for i in range(10):
        decided = a.decision(f"r{i}")
        assert decided is not None and decided[0] == decided[1]


# --- read-only stores and errors ----------------------------------------------------


def test_readonly_store_reads_and_refuses_writes(
    store: Store, open_db: Callable[..., Store]
) -> None:
    chain(store, 2)
    reader = open_db(readonly=True)
    assert reader.verify().ok and len(reader.records()) == 3
    assert [c.call_id for c in reader.calls(AuditQuery())] == ["c2", "c1"]
    with pytest.raises(StoreError):
        reader.append("x", "call", "a", "t", "ok", {})
    with pytest.raises(StoreError):
        reader.request_approval("r", "t", "a", "m", {})


def test_readonly_store_on_nothing_is_a_store_error(backend: str, tmp_path: Path, db: str) -> None:
    with pytest.raises(StoreError) as err:
        if backend == "sqlite":
            SqliteStore(tmp_path / "missing.db", readonly=True)
        else:
            PostgresStore(db, readonly=True)
    assert "audit store" in str(err.value)


def test_unreachable_postgres_is_a_store_error_without_password() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dsn = f"postgresql://harbor:s3cret-pw@127.0.0.1:{port}/harbor"
    with pytest.raises(StoreError) as err:
        PostgresStore(dsn)
    assert "cannot connect" in str(err.value)
    assert "s3cret-pw" not in str(err.value)
    assert safe_dsn(dsn) == f"postgresql://harbor@127.0.0.1:{port}/harbor"


def test_closed_store_refuses_appends(store: Store) -> None:
    store.append("c1", "call", "a", "t", "ok", {})
    store.close()
    if isinstance(store, PostgresStore):
        with pytest.raises(StoreError):
            store.append("c2", "call", "a", "t", "ok", {})


def test_leases_claim_once_renew_expire_once_and_requeue(store: Store) -> None:
    """Remote workers' run leases (issue 10): a run is claimed once, a lost
    one is reported once, and only a re-queued one can be claimed again."""
    leases: Any = store
    assert leases.lease_acquire("r1", "deploy", "w1", 1000.0) == 1
    assert leases.lease_acquire("r1", "deploy", "w2", 1000.0) is None  # a duplicate delivery
    assert leases.lease_renew("r1", 1, 2000.0) is True
    assert leases.lease_renew("r1", 2, 2000.0) is False  # not this attempt's
    assert leases.lease_expire(1500.0) == []  # renewed past 1500
    lost = leases.lease_expire(2500.0)
    assert [(x.run_id, x.tool, x.worker, x.attempt) for x in lost] == [("r1", "deploy", "w1", 1)]
    assert leases.lease_expire(2500.0) == []  # reported once
    assert leases.lease_renew("r1", 1, 3000.0) is False  # the lost attempt must stop
    assert leases.lease_release("r1", 1) is False  # ... and must not report its outcome
    assert leases.lease_acquire("r1", "deploy", "w2", 3000.0) is None  # lost, not re-queued
    leases.lease_requeue("r1")
    assert leases.lease_acquire("r1", "deploy", "w2", 3000.0) == 2
    assert leases.lease_release("r1", 1) is False  # fenced: attempt 2 owns the run
    assert leases.lease_release("r1", 2) is True
    assert leases.lease_release("r1", 2) is False  # released once
    assert leases.lease_expire(9999.0) == []  # released: never lost


def test_pending_approvals_of_one_instant_are_ordered_by_run_id(
    store: Store, tamper: Callable[..., None]
) -> None:
    """Issue 18: the backends ordered approvals requested at the same
    instant differently (PostgreSQL by run id, SQLite by chance)."""
    for run_id in ("r9", "r1", "r5"):
        store.request_approval(run_id, "deploy", "alice", "ok?", {})
    tamper("UPDATE approvals SET requested_at = '2026-01-01T00:00:00Z'")
    assert [p["run_id"] for p in store.pending_approvals()] == ["r1", "r5", "r9"]
