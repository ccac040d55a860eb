"""Issues 10 and 18: the one `Store` suite, run against SQLite and PostgreSQL.

Every member of the protocol with the same assertions on both backends:
the chain (append, verify, and edited, deleted, reordered or tail-deleted
rows detected; concurrent appends from threads and from a second store still
forming one chain), the faster ways to append (`try_append`, `append_nowait`:
each writes the record once or declines, and never waits for another
writer) and `append_concurrency`, `AuditTrail` over them, calls and call with
their filters, limits and order, open_calls, session memory scoped by
tenant/principal/session with its limits, approvals answered once (also when
two operators answer at the same moment, and when the run stopped waiting),
pending approvals in order, run leases (claimed once, renewed, released,
expired once, re-queued, fenced; also under concurrent workers and
sweepers), `location` (the ``--db`` value without its password), read-only
and closed stores refusing every write, schema versions (a newer one is
refused; stores opening a new database at once do not race), and errors
translated into `StoreError`. What only one backend has lives beside this
file: SQLite's checkpoints and schema history, PostgreSQL's schema history
and replicas.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from psycopg.conninfo import conninfo_to_dict

from mcp_harbor import store as stores
from mcp_harbor.errors import StoreError
from mcp_harbor.identity import Caller
from mcp_harbor.store import SqliteStore
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.base import (
    GENESIS,
    AuditQuery,
    AuditRecord,
    MemoryEntry,
    Store,
    canonical_json,
    record_hash,
)
from mcp_harbor.store.postgres import PostgresStore

Tamper = Callable[..., None]
Hold = Callable[[], contextlib.AbstractContextManager[None]]


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


def test_head_is_the_last_record_of_the_chain(store: Store) -> None:
    assert store.head() is None
    chain(store, 3)
    last = store.records()[-1]
    assert store.head() == (last.seq, last.hash) == (5, last.hash)


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


def test_call_records_and_records_between_read_a_run_and_what_was_written_meanwhile(
    store: Store,
) -> None:
    chain(store, 2)  # seq 1-3
    start = store.append("r1", "start", "alice", "agent", "running", {})
    store.append("t1", "call", "alice", "deploy", "unknown", {"via": {"run_id": "r1"}})
    store.append("r1", "turn", "alice", "agent", "tool_calls", {"turn": 1})
    end = store.append("r1", "end", "alice", "agent", "ok", {"status": "ok"})
    store.append("c9", "call", "bob", "deploy", "denied", {})
    assert [(r.seq, r.kind) for r in store.call_records("r1")] == [
        (start.seq, "start"),
        (start.seq + 2, "turn"),
        (end.seq, "end"),
    ]
    assert store.call_records("nope") == []
    between = store.records_between(start.seq, end.seq)
    assert [(r.call_id, r.kind) for r in between] == [("t1", "call"), ("r1", "turn")]
    assert [r.call_id for r in store.records_between(end.seq)] == ["c9"]


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


def _decision(store: Store, run_id: str) -> tuple[str, str] | None:
    """(decision, decided_by) of an answered request (`Store.approval`)."""
    request = store.approval(run_id)
    if request is None or request["decision"] is None:
        return None
    return request["decision"], request["decided_by"]


def test_approvals_are_answered_once(store: Store) -> None:
    store.request_approval("r1", "deploy", "alice", "Deploy to prod?", {"env": "prod"})
    store.request_approval("r2", "deploy", "bob", "Again?", {})
    pending = store.pending_approvals()
    assert [(p["run_id"], p["principal"], p["message"], p["arguments"]) for p in pending] == [
        ("r1", "alice", "Deploy to prod?", {"env": "prod"}),
        ("r2", "bob", "Again?", {}),
    ]
    assert all(p["tool"] == "deploy" and p["requested_at"].endswith("Z") for p in pending)
    assert _decision(store, "r1") is None
    assert store.decide("r1", "approved", "ops") == "decided"
    assert _decision(store, "r1") == ("approved", "ops")
    assert store.decide("r1", "denied", "mallory") == "approved"
    assert _decision(store, "r1") == ("approved", "ops")
    assert store.decide("nope", "approved", "ops") == "unknown"
    assert [p["run_id"] for p in store.pending_approvals()] == ["r2"]
    assert store.decide("r2", "denied", "ops") == "decided"
    assert _decision(store, "r2") == ("denied", "ops")
    assert store.pending_approvals() == []
    with pytest.raises(StoreError):
        store.request_approval("r1", "deploy", "alice", "twice", {})


def test_an_approval_carries_its_plan_approvers_reason_and_answerer(store: Store) -> None:
    """Issue 20: a request holds who may answer and the plan it is about;
    the answer, its reason and who answered as what (`Store.approval`)."""
    store.request_approval(
        "r1", "deploy", "alice", "Deploy?", {"env": "prod"},
        approvers=["group:ops", "carol"], plan_hash="p" * 64, export_hash="e" * 64,
    )  # fmt: skip
    asked = store.approval("r1")
    assert asked is not None
    assert (asked["approvers"], asked["plan_hash"], asked["export_hash"]) == (
        ["group:ops", "carol"],
        "p" * 64,
        "e" * 64,
    )
    assert (asked["decision"], asked["reason"], asked["decided_as"]) == (None, None, None)
    assert [p["approvers"] for p in store.pending_approvals()] == [["group:ops", "carol"]]
    who = {"principal": "bob", "tenant": "acme", "groups": ["ops"], "via": "http"}
    assert store.decide("r1", "approved", "bob", reason="change 42", decided_as=who) == "decided"
    answered = store.approval("r1")
    assert answered is not None
    assert (answered["decision"], answered["decided_by"], answered["reason"]) == (
        "approved",
        "bob",
        "change 42",
    )
    assert answered["decided_as"] == who and answered["decided_at"].endswith("Z")
    assert store.approval("nope") is None
    store.request_approval("r2", "deploy", "alice", "?", {})  # any operator: no approvers
    plain = store.approval("r2")
    assert plain is not None and plain["approvers"] is None and plain["plan_hash"] is None


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
        decided = _decision(a, f"r{i}")
        assert decided is not None and decided[0] == decided[1]


# --- the faster ways to append, and how many may wait ----------------------------


def test_append_concurrency_is_how_many_appends_may_wait_at_once(store: Store) -> None:
    assert isinstance(store.append_concurrency, int)
    assert store.append_concurrency >= 1


def test_try_append_and_append_nowait_write_once_or_decline(store: Store) -> None:
    """Each writes its record exactly once, linked to the one before, or
    declines (None) having written nothing."""
    first = store.append("c1", "call", "alice", "t", "ok", {"n": 1})
    quick = store.try_append("c2", "call", "alice", "t", "ok", {"n": 2})
    if quick is not None:
        assert (quick.seq, quick.prev_hash, dict(quick.body)) == (2, first.hash, {"n": 2})
    queued = store.append_nowait("c3", "call", "alice", "t", "ok", {"n": 3})
    later = queued.result(timeout=30) if queued is not None else None
    if later is not None:
        assert dict(later.body) == {"n": 3}
    written = [r for r in (first, quick, later) if r is not None]
    assert store.records() == written
    assert [r.seq for r in written] == list(range(1, len(written) + 1))
    assert store.verify().ok


def test_try_append_never_waits_for_another_writer(store: Store, hold_chain: Hold) -> None:
    """While another writer holds the chain, `try_append` declines at once
    (nothing written) and a queued `append_nowait` waits for the writer,
    then is written once."""
    store.append("c0", "call", "alice", "t", "ok", {})
    with hold_chain():
        started = time.monotonic()
        assert store.try_append("c1", "call", "alice", "t", "ok", {}) is None
        assert time.monotonic() - started < 1.0
        queued = store.append_nowait("c2", "call", "alice", "t", "ok", {})
        if queued is not None:
            time.sleep(0.3)
            assert not queued.done()
    if queued is not None:
        assert queued.result(timeout=30).call_id == "c2"
    expected = ["c0", "c2"] if queued is not None else ["c0"]
    assert [r.call_id for r in store.records()] == expected
    assert store.verify().ok


def test_many_appends_through_append_nowait_or_append_form_one_chain(store: Store) -> None:
    """As `AuditTrail` does: `append_nowait` where it is not declined, else
    `append`, from many threads at once."""
    results: dict[str, AuditRecord] = {}
    lock = threading.Lock()

    def work(n: int) -> None:
        for i in range(20):
            call_id = f"w{n}-{i}"
            queued = store.append_nowait(call_id, "call", f"p{n}", "t", "ok", {"i": i})
            record = (
                queued.result(timeout=30)
                if queued is not None
                else store.append(call_id, "call", f"p{n}", "t", "ok", {"i": i})
            )
            with lock:
                results[call_id] = record

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    records = store.records()
    assert [r.seq for r in records] == list(range(1, 161))
    assert {r.call_id: r for r in records} == results
    assert store.verify().ok


@pytest.mark.anyio
async def test_the_audit_trail_writes_every_record_once(store: Store) -> None:
    """`AuditTrail` over the protocol alone (no probing): concurrent calls on
    the event loop each leave one start and one end record."""
    trail = AuditTrail(store)
    caller = Caller(transport="stdio", principal="alice")

    async def one(n: int) -> None:
        call_id = f"call-{n}"
        await trail.started(call_id, caller, "build", "ab" * 32, {"n": n}, f"/runs/{n}")
        await anyio.sleep(0)
        await trail.finished(caller, None, call_id=call_id, tool="build", status="ok")

    async with anyio.create_task_group() as tg:
        for n in range(40):
            tg.start_soon(one, n)
    await trail.refused_call("denied-1", caller, "deploy", "denied", "policy")
    calls = store.calls(AuditQuery(limit=100))
    assert len(calls) == 41
    assert sorted(c.status for c in calls) == ["denied"] + ["ok"] * 40
    assert store.open_calls() == []
    report = store.verify()
    assert (report.records, report.problems) == (81, [])


@pytest.mark.anyio
async def test_rejected_requests_are_one_record_per_source_and_minute(store: Store) -> None:
    """Issue 20: requests refused before any handler, counted by
    `RejectionCounter` over `AuditTrail`: one ``rejected`` record per
    (source, principal, minute), the overflow beyond `max_sources` folded
    into one ``other`` record, a minute written once it is over; listed by
    `calls` with the call records, filtered by status and principal."""
    from mcp_harbor.store.rejections import OTHER_PRINCIPAL, Rejection, RejectionCounter

    now = [1_800_000_000.0]  # 2027-01-15T08:00:00Z
    counter = RejectionCounter(AuditTrail(store), auth=True, max_sources=3, clock=lambda: now[0])
    for _ in range(10_000):  # a flood from one source in one minute
        counter.add(Rejection("10.0.0.1", "401 invalid token", user_agent="curl/8\x1b[31m"))
    counter.add(Rejection("10.0.0.1", "403 origin not allowed", principal="alice", tool="build"))
    # A source is claimed too (X-Forwarded-For of a loopback peer): escaped.
    counter.add(Rejection("10.0.0.2\x1b[2J", "421 host not allowed", tool="deploy"))
    for n in range(5):  # sources 4..8 of this minute are folded
        counter.add(Rejection(f"10.0.1.{n}", "401 missing token"))
    now[0] += 61  # the next minute
    counter.add(Rejection("10.0.0.1", "401 invalid token"))
    assert await counter.flush(every=False) == 4  # the first minute only
    assert await counter.flush() == 1
    rejected = store.calls(AuditQuery(status="rejected"))
    assert [c.status for c in rejected] == ["rejected"] * 5
    first = {(c.principal, c.start["minute"]): c for c in rejected}
    flood = first[("unauthenticated:10.0.0.1", "2027-01-15T08:00Z")]
    assert (flood.tool, flood.start["count"], flood.start["reasons"]) == (
        "-",
        10_000,
        {"401 invalid token": 10_000},
    )
    assert flood.start["sample"]["user_agent"] == "curl/8\\x1b[31m"  # escaped
    assert flood.start["first_at"] <= flood.start["last_at"]
    alice = first[("alice", "2027-01-15T08:00Z")]
    assert (alice.tool, alice.start["source"], alice.start["count"]) == ("build", "10.0.0.1", 1)
    other = first[(OTHER_PRINCIPAL, "2027-01-15T08:00Z")]
    assert (other.start["source"], other.start["count"], other.start["sources_folded"]) == (
        "other",
        5,
        5,
    )
    assert first[("unauthenticated:10.0.0.1", "2027-01-15T08:01Z")].start["count"] == 1
    claimed = first[("unauthenticated:10.0.0.2\\x1b[2J", "2027-01-15T08:00Z")]
    assert (claimed.tool, claimed.start["source"]) == ("deploy", "10.0.0.2\\x1b[2J")
    assert [c.call_id for c in store.calls(AuditQuery(who="alice"))] == [alice.call_id]
    shown = store.call(alice.call_id)
    assert shown is not None and shown.status == "rejected" and shown.end == shown.start
    assert counter.pending() == 0 and store.verify().ok


# --- location ------------------------------------------------------------------------


def test_location_is_the_db_value_without_its_password(
    backend: str, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`location` is what `mcp-harbor approve --db …` takes to reach this
    store: the file's path, or the DSN without its password (which then
    comes from the environment)."""
    given = f"{db}&password=s3cret-pw" if backend == "postgres" else db
    opened = stores.open(given)
    try:
        assert "s3cret-pw" not in opened.location
        assert opened.location == stores.label(given)
        if backend == "sqlite":
            assert opened.location == db
        opened.append("c1", "call", "alice", "t", "ok", {})
        password = conninfo_to_dict(given).get("password") if backend == "postgres" else None
        if password is not None:
            monkeypatch.setenv("PGPASSWORD", str(password))
        again = stores.open(opened.location, readonly=True)
        try:
            assert again.location == opened.location
            assert again.records() == opened.records()
        finally:
            again.close()
    finally:
        opened.close()


# --- read-only and closed stores, errors -----------------------------------------------


def _writes(store: Store) -> dict[str, Callable[[], object]]:
    """Every write of the protocol, once each."""
    entry = MemoryEntry("t", "p", "s", "build", "r9", "2026-01-01T00:00:00.000000Z", {}, "a")
    return {
        "append": lambda: store.append("x", "call", "a", "t", "ok", {}),
        "try_append": lambda: store.try_append("x", "call", "a", "t", "ok", {}),
        "append_nowait": lambda: store.append_nowait("x", "call", "a", "t", "ok", {}),
        "remember": lambda: store.remember(entry),
        "request_approval": lambda: store.request_approval("r9", "t", "a", "m", {}),
        "decide": lambda: store.decide("r1", "approved", "ops"),
        "lease_acquire": lambda: store.lease_acquire("l9", "t", "w", 1e12),
        "lease_renew": lambda: store.lease_renew("l1", 1, 1e12),
        "lease_release": lambda: store.lease_release("l1", 1),
        "lease_expire": lambda: store.lease_expire(1e12),
        "lease_requeue": lambda: store.lease_requeue("l1"),
    }


def _everything(store: Store) -> tuple[object, ...]:
    return (
        store.records(),
        store.pending_approvals(),
        _decision(store, "r1"),
        store.recall("t", "p", "s", 10),
    )


def test_readonly_store_reads_and_refuses_every_write(
    store: Store, open_db: Callable[..., Store]
) -> None:
    chain(store, 2)
    store.request_approval("r1", "deploy", "alice", "?", {})
    assert store.lease_acquire("l1", "t", "w", 1.0) == 1
    reader = open_db(readonly=True)
    # chain(store, 2) writes 3 records; the approval row is covered by a
    # fourth, of its own kind.
    assert reader.verify().ok and [r.kind for r in reader.records()][-1] == "approval"
    assert len(reader.records()) == 4
    assert [c.call_id for c in reader.calls(AuditQuery())] == ["c2", "c1"]
    assert [p["run_id"] for p in reader.pending_approvals()] == ["r1"]
    before = _everything(store)
    for name, write in _writes(reader).items():
        with pytest.raises(StoreError, match="read-only"):
            write()
        assert _everything(store) == before, name


def test_closed_store_refuses_every_write(store: Store, open_db: Callable[..., Store]) -> None:
    store.append("c1", "call", "a", "t", "ok", {})
    store.close()
    for write in _writes(store).values():
        with pytest.raises(StoreError, match="closed"):
            write()
    assert [r.call_id for r in open_db().records()] == ["c1"]


def test_readonly_store_on_nothing_is_a_store_error(backend: str, tmp_path: Path, db: str) -> None:
    with pytest.raises(StoreError) as err:
        if backend == "sqlite":
            SqliteStore(tmp_path / "missing.db", readonly=True)
        else:
            PostgresStore(db, readonly=True)
    assert "audit store" in str(err.value)


# --- schema versions -----------------------------------------------------------------


def test_a_newer_schema_is_refused(
    open_db: Callable[..., Store], schema_version: Callable[..., int]
) -> None:
    open_db().close()
    assert schema_version(to=99) == 99
    for readonly in (False, True):
        with pytest.raises(StoreError, match="schema version 99 is newer"):
            open_db(readonly=readonly)


def test_stores_opening_a_new_database_at_once_do_not_race(
    open_db: Callable[..., Store], schema_version: Callable[..., int], backend: str
) -> None:
    opened: list[Store] = []
    errors: list[Exception] = []
    lock = threading.Lock()

    def start() -> None:
        try:
            s = open_db()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            return
        with lock:
            opened.append(s)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(opened) == 6
    latest = SqliteStore._sql if backend == "sqlite" else PostgresStore._sql
    assert schema_version() == latest.dialect.schema_version
    opened[0].append("c1", "call", "a", "t", "ok", {})
    assert opened[5].records() == opened[0].records()


# --- run leases --------------------------------------------------------------------------


def test_leases_claim_once_renew_expire_once_and_requeue(store: Store) -> None:
    """Remote workers' run leases (issue 10): a run is claimed once, a lost
    one is reported once, and only a re-queued one can be claimed again."""
    assert store.lease_acquire("r1", "deploy", "w1", 1000.0) == 1
    assert store.lease_acquire("r1", "deploy", "w2", 1000.0) is None  # a duplicate delivery
    assert store.lease_renew("r1", 1, 2000.0) is True
    assert store.lease_renew("r1", 2, 2000.0) is False  # not this attempt's
    assert store.lease_expire(1500.0) == []  # renewed past 1500
    lost = store.lease_expire(2500.0)
    assert [(x.run_id, x.tool, x.worker, x.attempt) for x in lost] == [("r1", "deploy", "w1", 1)]
    assert store.lease_expire(2500.0) == []  # reported once
    assert store.lease_renew("r1", 1, 3000.0) is False  # the lost attempt must stop
    assert store.lease_release("r1", 1) is False  # ... and must not report its outcome
    assert store.lease_acquire("r1", "deploy", "w2", 3000.0) is None  # lost, not re-queued
    store.lease_requeue("r1")
    assert store.lease_acquire("r1", "deploy", "w2", 3000.0) == 2
    assert store.lease_release("r1", 1) is False  # fenced: attempt 2 owns the run
    assert store.lease_release("r1", 2) is True
    assert store.lease_release("r1", 2) is False  # released once
    assert store.lease_expire(9999.0) == []  # released: never lost


def test_leases_of_unknown_runs_and_requeues_of_live_ones_change_nothing(store: Store) -> None:
    assert store.lease_renew("nope", 1, 10.0) is False
    assert store.lease_release("nope", 1) is False
    store.lease_requeue("nope")
    assert store.lease_acquire("r1", "t", "w1", 100.0) == 1
    store.lease_requeue("r1")  # running, not lost: stays the worker's
    assert store.lease_acquire("r1", "t", "w2", 100.0) is None
    assert store.lease_release("r1", 1) is True
    store.lease_requeue("r1")  # done, not lost
    assert store.lease_acquire("r1", "t", "w2", 100.0) is None


def test_leases_expire_in_order_of_run_id_and_only_the_expired(store: Store) -> None:
    for run_id, expires in (("r3", 10.0), ("r1", 20.0), ("r2", 30.0), ("r4", 50.0)):
        assert store.lease_acquire(run_id, "t", "w", expires) == 1
    assert [x.run_id for x in store.lease_expire(30.0)] == ["r1", "r3"]  # r2: not before 30
    assert [x.run_id for x in store.lease_expire(40.0)] == ["r2"]


def test_workers_claiming_one_run_at_once_claim_it_once(open_db: Callable[..., Store]) -> None:
    stores_ = [open_db(), open_db()]
    claims: list[int | None] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def claim(n: int) -> None:
        barrier.wait()
        got = stores_[n % 2].lease_acquire("r1", "t", f"w{n}", 1000.0)
        with lock:
            claims.append(got)

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(claims, key=str) == [1] + [None] * 7


def test_sweepers_at_once_each_get_distinct_runs(open_db: Callable[..., Store]) -> None:
    first = open_db()
    for i in range(30):
        assert first.lease_acquire(f"r{i:02d}", "t", "w", 10.0) == 1
    sweepers = [first, open_db()]
    lost: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(4)

    def sweep(n: int) -> None:
        barrier.wait()
        got = sweepers[n % 2].lease_expire(100.0)
        with lock:
            lost.extend(x.run_id for x in got)

    threads = [threading.Thread(target=sweep, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lost.extend(x.run_id for x in first.lease_expire(100.0))  # any passed over: now
    assert sorted(lost) == [f"r{i:02d}" for i in range(30)]  # each reported exactly once


# --- approvals, in order and when the run stopped waiting -----------------------------


def test_pending_approvals_of_one_instant_are_ordered_by_run_id(
    store: Store, tamper: Callable[..., None]
) -> None:
    """Issue 18: the backends ordered approvals requested at the same
    instant differently (PostgreSQL by run id, SQLite by chance)."""
    for run_id in ("r9", "r1", "r5"):
        store.request_approval(run_id, "deploy", "alice", "ok?", {})
    tamper("UPDATE approvals SET requested_at = '2026-01-01T00:00:00Z'")
    assert [p["run_id"] for p in store.pending_approvals()] == ["r1", "r5", "r9"]


def test_pending_approvals_are_ordered_by_when_they_were_requested(store: Store) -> None:
    for run_id in ("r9", "r1", "r5"):
        store.request_approval(run_id, "deploy", "alice", "ok?", {})
        time.sleep(0.002)
    pending = store.pending_approvals()
    assert [p["run_id"] for p in pending] == ["r9", "r1", "r5"]
    assert [p["requested_at"] for p in pending] == sorted(p["requested_at"] for p in pending)


def test_an_expired_request_is_answered_and_a_late_answer_changes_nothing(store: Store) -> None:
    """A run that stopped waiting records ``expired`` (the operator
    approver's timeout); an operator answering later is told so."""
    store.request_approval("r1", "deploy", "alice", "Deploy?", {"env": "prod"})
    assert store.decide("r1", "expired", "timeout") == "decided"
    assert _decision(store, "r1") == ("expired", "timeout")
    assert store.pending_approvals() == []
    assert store.decide("r1", "approved", "ops") == "expired"
    assert _decision(store, "r1") == ("expired", "timeout")


# --- calls and memory: limits and the edges ------------------------------------------


def test_call_of_a_single_record_and_of_a_running_call(store: Store) -> None:
    store.append("d1", "call", "bob", "deploy", "denied", {"reason": "policy"})
    store.append("s1", "start", "alice", "build", "running", {"arguments": {"x": 1}})
    denied = store.call("d1")
    assert denied is not None
    assert (denied.status, denied.ended_at, dict(denied.end or {})) == (
        "denied",
        denied.started_at,
        {"reason": "policy"},
    )
    running = store.call("s1")
    assert running is not None
    assert (running.status, running.ended_at, running.end) == ("running", None, None)
    store.append("s1", "end", "alice", "build", "failed", {"status": "failed", "duration_ms": 7})
    ended = store.call("s1")
    assert ended is not None and (ended.status, ended.duration_ms) == ("failed", 7)
    assert [c.call_id for c in store.calls(AuditQuery(status="failed"))] == ["s1"]


def test_calls_limit_keeps_the_newest(store: Store) -> None:
    chain(store, 7)
    assert [c.call_id for c in store.calls(AuditQuery(limit=3))] == ["c7", "c6", "c5"]
    assert len(store.calls(AuditQuery(limit=1000))) == 7
    assert [c.call_id for c in store.calls(AuditQuery(tool="deploy", limit=2))] == ["c6", "c4"]


def test_open_calls_are_in_chain_order_and_close_when_any_store_ends_them(
    store: Store, open_db: Callable[..., Store]
) -> None:
    for call_id in ("o3", "o1", "o2"):
        store.append(call_id, "start", "alice", "build", "running", {})
    assert [r.call_id for r in store.open_calls()] == ["o3", "o1", "o2"]
    open_db().append("o1", "end", "alice", "build", "interrupted", {"status": "interrupted"})
    assert [r.call_id for r in store.open_calls()] == ["o3", "o2"]


def test_memory_limits_below_one_and_every_kind_of_payload(store: Store) -> None:
    payloads: list[object] = [None, "text", 3, 2.5, True, [1, "a"], {"é": {"ü": [None]}}]
    for n, payload in enumerate(payloads):
        store.remember(_entry("t1", "alice", "s1", n, payload=payload))
    assert store.recall("t1", "alice", "s1", 0) == []
    assert store.recall("t1", "alice", "s1", -1) == []
    got = store.recall("t1", "alice", "s1", 100)
    assert [e.answer_payload for e in got] == payloads
    assert got == [_entry("t1", "alice", "s1", n, payload=p) for n, p in enumerate(payloads)]
    assert [e.run_id for e in store.recall("t1", "alice", "s1", 2)] == ["r5", "r6"]


def test_memory_of_one_session_is_kept_apart_from_every_other(store: Store) -> None:
    scopes = [(t, p, s) for t in ("t1", "t2") for p in ("alice", "bob") for s in ("s1", "s2")]
    for n, (tenant, principal, session) in enumerate(scopes):
        store.remember(_entry(tenant, principal, session, n))
    for n, scope in enumerate(scopes):
        assert [e.run_id for e in store.recall(*scope, 10)] == [f"r{n}"]


def _vector(n: int) -> tuple[float, ...]:
    """256 values exactly representable as float32 (what the store keeps)."""
    return tuple(((n * 31 + i) % 17 - 8) / 16 for i in range(256))


def test_recall_candidates_are_one_principal_of_one_tenant_of_one_embedder(
    store: Store,
) -> None:
    """Recall by similarity reads every session of one principal in one
    tenant, the rows of one embedder only, newest first; never a row of
    another principal or tenant, nor one without a vector."""
    import dataclasses

    def embedded(tenant: str, principal: str, session: str, n: int, embedder: str) -> MemoryEntry:
        entry = _entry(tenant, principal, session, n)
        return dataclasses.replace(entry, embedder=embedder, embedding=_vector(n))

    store.remember(embedded("t1", "alice", "s1", 1, "hashing-v1-256"))
    store.remember(embedded("t1", "alice", "s2", 2, "hashing-v1-256"))
    store.remember(_entry("t1", "alice", "s1", 3))  # no vector (an export without recall:)
    store.remember(embedded("t1", "alice", "s3", 4, "endpoint:other"))
    store.remember(embedded("t1", "bob", "s1", 5, "hashing-v1-256"))
    store.remember(embedded("t2", "alice", "s1", 6, "hashing-v1-256"))
    store.remember(embedded("t1", "alice", "s1", 7, "hashing-v1-256"))
    got = store.recall_candidates("t1", "alice", "hashing-v1-256", 100)
    assert [e.run_id for e in got] == ["r7", "r2", "r1"]
    assert got[0] == embedded("t1", "alice", "s1", 7, "hashing-v1-256")  # exact round trip
    assert [e.run_id for e in store.recall_candidates("t1", "alice", "hashing-v1-256", 2)] == [
        "r7",
        "r2",
    ]
    assert store.recall_candidates("t1", "alice", "hashing-v1-256", 0) == []
    assert [e.run_id for e in store.recall_candidates("t1", "alice", "endpoint:other", 9)] == ["r4"]
    assert [e.run_id for e in store.recall_candidates("t2", "alice", "hashing-v1-256", 9)] == ["r6"]
    assert store.recall_candidates("t2", "bob", "hashing-v1-256", 9) == []
    # the session tier shows the rows with a vector like any other
    assert [e.run_id for e in store.recall("t1", "alice", "s1", 10)] == ["r1", "r3", "r7"]
    assert store.verify().ok


def test_the_upgrade_to_recall_keeps_every_memory_row_covered(
    db: str,
    open_db: Callable[..., Store],
    schema_version: Callable[..., int],
    tamper: Callable[..., None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The version that adds ``memory.embedder`` and ``memory.embedding``
    (SQLite 4, PostgreSQL 8) adds nullable columns: a memory row covered
    before it keeps its digest, nothing is adopted again, and rows written
    after it carry their vectors."""
    import dataclasses

    from mcp_harbor.store._sql import Statements
    from mcp_harbor.store.base import row_digest

    cls: type[SqliteStore] | type[PostgresStore] = (
        PostgresStore if db.startswith("postgresql://") else SqliteStore
    )
    latest = cls._sql.dialect
    before = dataclasses.replace(latest, migrations=latest.migrations[:-1])
    monkeypatch.setattr(cls, "_sql", Statements(before))
    old = open_db()
    assert schema_version() == latest.schema_version - 1
    columns = {
        "id": 1, "tenant": "t1", "principal": "alice", "session": "s1", "tool": "build",
        "run_id": "r1", "at": "2026-11-29T10:00:01.000000Z", "arguments": "{}",
        "answer": "old answer",
    }  # fmt: skip
    written = {k: v for k, v in columns.items() if k != "id"}  # the first row: id 1
    names, values = ", ".join(written), ", ".join(f"'{v}'" for v in written.values())
    tamper(f"INSERT INTO memory ({names}) VALUES ({values})")  # as the older code wrote it
    old.append("r1", "memory", "alice", "build", "remembered", {
        "key": "1", "digest": row_digest(columns),
    })  # fmt: skip
    assert old.verify().problems == []
    old.close()
    monkeypatch.undo()

    store = open_db()
    assert schema_version() == latest.schema_version
    assert store.verify().problems == [] and store.verify().records == 1
    (kept,) = store.recall("t1", "alice", "s1", 10)
    assert (kept.answer, kept.embedder, kept.embedding) == ("old answer", None, None)
    assert store.recall_candidates("t1", "alice", "hashing-v1-256", 10) == []
    entry = dataclasses.replace(
        _entry("t1", "alice", "s2", 2), embedder="hashing-v1-256", embedding=_vector(2)
    )
    store.remember(entry)
    assert store.recall_candidates("t1", "alice", "hashing-v1-256", 10) == [entry]
    assert store.verify().problems == [] and store.verify().records == 2


# --- this suite covers the whole protocol ------------------------------------------------


def _protocol_members() -> set[str]:
    """The public members `Store` declares (its methods and properties)."""
    from mcp_harbor.store.base import LeaseStore

    return {
        name
        for cls in (Store, LeaseStore)
        for name, value in vars(cls).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }


def test_every_member_of_the_protocol_is_implemented_by_both_backends_and_tested_here() -> None:
    """Every member, on both backends, tested in this suite (this file and
    test_store_tasks.py, whose `store` fixture is the same, both backends)."""
    members = _protocol_members()
    assert {"location", "append_concurrency", "try_append", "append_nowait"} <= members
    for backend in (SqliteStore, PostgresStore):
        missing = {m for m in members if m not in dir(backend)}
        assert not missing, (backend.__name__, missing)
    # This file, and the task rows' own file (same both-backend fixtures).
    here = Path(__file__)
    text = here.read_text() + (here.parent / "test_store_tasks.py").read_text()
    untested = {m for m in members if f".{m}" not in text}
    assert not untested, untested
