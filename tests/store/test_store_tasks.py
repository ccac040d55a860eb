"""The task rows of durable tasks, on both backends: written before the
answer, moved only while not final, cancel asked through the row, expired
rows found and deleted."""

from __future__ import annotations

import json
import time

from mcp_harbor.store.base import Store


def _row(task_id: str, expires_at: float | None = None) -> dict[str, object]:
    return {
        "task_id": task_id,
        "tenant": "default",
        "principal": "alice",
        "tool": "slow",
        "status": "working",
        "status_message": None,
        "created_at": "2026-12-02T07:00:00.000000Z",
        "updated_at": "2026-12-02T07:00:00.000000Z",
        "ttl_ms": 60_000,
        "expires_at": expires_at,
        "server": json.dumps({"host": "h", "pid": 1, "instance": "i"}),
    }


def test_a_task_moves_until_final_and_then_never(store: Store) -> None:
    store.task_create(_row("t1"))
    row = store.task("t1")
    assert row is not None and row["status"] == "working" and row["principal"] == "alice"
    assert row["cancel_requested"] == 0
    assert store.task_progress("t1", "working", "build (1/2)")
    assert store.task_request_cancel("t1")
    row = store.task("t1")
    assert row is not None
    assert (row["status_message"], row["cancel_requested"]) == ("build (1/2)", 1)
    result = json.dumps({"content": [], "isError": False})
    assert store.task_finish("t1", "completed", "done", run_id="r1", run_dir="/d", result=result)
    # The first final status stays.
    assert not store.task_finish("t1", "failed", "late")
    assert not store.task_progress("t1", "working", "late")
    assert not store.task_request_cancel("t1")
    row = store.task("t1")
    assert row is not None
    assert (row["status"], row["run_id"], row["result"]) == ("completed", "r1", result)
    assert store.tasks_open() == []
    assert store.task("nope") is None


def test_expired_tasks_are_found_and_deleted(store: Store) -> None:
    now = time.time()
    store.task_create(_row("old", expires_at=now - 1))
    store.task_create(_row("new", expires_at=now + 3600))
    store.task_create(_row("kept"))
    assert [r["task_id"] for r in store.tasks_expired(now)] == ["old"]
    assert sorted(r["task_id"] for r in store.tasks_open()) == ["kept", "new", "old"]
    assert store.task_delete("old") and not store.task_delete("old")
    assert store.task("old") is None and store.task("new") is not None


def test_a_question_and_its_answer_go_through_the_row(store: Store) -> None:
    store.task_create(_row("q"))
    assert not store.task_answer("q", "{}")  # nothing asked yet
    assert store.task_ask("q", "Run it?", json.dumps({"k": {"method": "elicitation/create"}}))
    assert store.task_answer("q", json.dumps({"k": {"action": "accept"}}))
    row = store.task("q")
    assert row is not None and row["status"] == "input_required"
    assert json.loads(row["input_responses"]) == {"k": {"action": "accept"}}
    assert store.task_progress("q", "working", "answered")
    assert not store.task_answer("q", "{}")


def test_a_principal_lists_its_own_tasks_only(store: Store) -> None:
    store.task_create(_row("a1"))
    store.task_create({**_row("b1"), "principal": "bob"})
    store.task_create({**_row("a2"), "created_at": "2026-12-02T08:00:00.000000Z"})
    assert [r["task_id"] for r in store.tasks_of("default", "alice", 10)] == ["a2", "a1"]
    assert [r["task_id"] for r in store.tasks_of("default", "alice", 1)] == ["a2"]
    assert store.tasks_of("other", "alice", 10) == []


def test_one_server_takes_over_a_dead_servers_task(store: Store) -> None:
    store.task_create(_row("t"))
    row = store.task("t")
    assert row is not None
    dead, mine, theirs = row["server"], json.dumps({"pid": 2}), json.dumps({"pid": 3})
    assert store.task_claim("t", dead, mine)
    assert not store.task_claim("t", dead, theirs)  # too late: it has a server again
    taken = store.task("t")
    assert taken is not None and taken["server"] == mine
    assert store.task_finish("t", "completed", "done")
    assert not store.task_claim("t", mine, theirs)  # final: nobody takes it over
