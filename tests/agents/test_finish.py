"""How agent steps finish, and what the envelope says of it (design note
§10), through a real ``mcp-harbor serve`` (Streamable HTTP) and the
scripted model: ``attempts:`` (a fresh conversation with the previous
finish as data), ``max_turns``, ``max_tool_calls``, ``output_invalid``
(after the retry message), ``assert_failed`` and ``timeout``.

| agent finish | envelope status / finish_reason |
|---|---|
| goal | ok / goal |
| timeout, output_invalid | the same |
| max_turns, max_tool_calls, assert_failed | failed / failed |
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import assert_valid_output, text_of
from mcp import Client

from ._harness import Bed, bed, done, envelope, requests_of, run_records, sent_text

pytestmark = pytest.mark.anyio

VERDICT = {
    "type": "object",
    "properties": {"verdict": {"type": "string", "enum": ["real", "flaky"]}},
    "required": ["verdict"],
    "additionalProperties": False,
}


def export(name: str, agent: Mapping[str, Any], root: Path, *, then: str | None = None) -> str:
    """An export whose first step is an agent (`agent` merged over the
    defaults: model NAME, the grant [ping]); a second step prints `then`
    (or touches a marker that must not appear when the agent fails)."""
    spec = {"model": name, "prompt": "Judge the failure.", "tools": ["ping"], **agent}
    second = (
        f"run: printf 'then=[%s]\\n' {then}"
        if then is not None
        else f'argv: [touch, "{root}/{name}-after-ran"]'
    )
    return f"""
    name: {name}
    description: Finishes its agent step one way ({name}).
    tools:
      ping:
        description: Answer pong.
        run: echo pong
    steps:
      - name: judge
        agent: {json.dumps(spec)}
      - name: after
        {second}
    """


def call(id_: str) -> dict[str, Any]:
    return {"id": id_, "name": "ping", "arguments": {}}


SCRIPTS: dict[str, list[dict[str, Any]]] = {
    # attempt 1 runs out of turns; attempt 2 starts fresh and answers.
    "retried": [
        {"expect": {"last_role": "user"}, "respond": {"tool_calls": [call("r1")]}},
        {
            "expect": {
                "last_role": "user",
                "contains": ['<data source="previous_attempt"', '"finish_reason": "max_turns"'],
            },
            "respond": {"content": '{"verdict": "real"}'},
        },
    ],
    "turns": [
        {"expect": {"last_role": "user"}, "respond": {"tool_calls": [call("t1")]}},
        {"expect": {"tool_call_id": "t1"}, "respond": {"tool_calls": [call("t2")]}},
    ],
    "calls": [
        {"expect": {"last_role": "user"}, "respond": {"tool_calls": [call("k1"), call("k2")]}},
    ],
    "invalid": [
        {"expect": {"last_role": "user"}, "respond": {"content": "I think it is flaky."}},
        {
            "expect": {"last_role": "user", "contains": ["Your answer is not valid"]},
            "respond": {"content": '{"verdict": "unsure"}'},
        },
    ],
    "asserted": [
        {"expect": {"last_role": "user"}, "respond": {"content": '{"verdict": "flaky"}'}},
    ],
    "slow": [
        {
            "expect": {"last_role": "user"},
            "respond": {"delay": 5, "content": '{"verdict": "real"}'},
        },
    ],
}


@pytest.fixture(scope="module")
def finishes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    root = tmp_path_factory.mktemp("finish")
    exports = {
        "retried": export(
            "retried",
            {"max_turns": 1, "attempts": 2, "outputs": VERDICT},
            root,
            then='"$STEP_judge_verdict"',
        ),
        "turns": export("turns", {"max_turns": 2}, root),
        "calls": export("calls", {"max_tool_calls": 1}, root),
        "invalid": export("invalid", {"max_turns": 2, "outputs": VERDICT}, root),
        "asserted": export(
            "asserted", {"outputs": VERDICT, "assert": 'answer.verdict == "real"'}, root
        ),
        "slow": export("slow", {"timeout": 1, "outputs": VERDICT}, root),
    }
    with bed(
        root, exports, {f"m-{k}": v for k, v in SCRIPTS.items()}, {k: f"m-{k}" for k in SCRIPTS}
    ) as b:
        yield b


async def run(bed_: Bed, name: str) -> tuple[dict[str, Any], Any]:
    async with Client(bed_.url, mode="auto") as client:
        result = await client.call_tool(name, {})
        await assert_valid_output(client, name, envelope(result))
    done(bed_.model, f"m-{name}")
    return envelope(result), result


async def test_a_second_attempt_starts_fresh_and_reaches_the_goal(finishes: Bed) -> None:
    data, result = await run(finishes, "retried")
    assert result.is_error is False, text_of(result)
    assert (data["status"], data["finish_reason"]) == ("ok", "goal")
    judge, after = data["steps"]
    assert judge["agent"]["attempts"] == 2
    assert judge["agent"]["finish_reason"] == "goal"
    assert judge["outputs"] == {"verdict": "real"}
    assert after["stdout_tail"] == "then=[real]\n"  # the answer's keys are step outputs
    assert judge["agent"]["answer"] == {"verdict": "real"}
    assert "agent" not in data  # the deciding step is the last one, not an agent
    first, second = requests_of(finishes.model, "m-retried")
    assert "previous_attempt" not in sent_text(first)
    # Fresh: nothing of attempt 1 (its tool call, its answer) in attempt 2.
    assert [m["role"] for m in second["messages"]] == ["system", "user"]
    assert "pong" not in sent_text(second)
    turns = run_records(finishes.db, data["run_id"])["turns"]
    assert [(t["body"]["attempt"], t["body"]["turn"]) for t in turns] == [(1, 1), (2, 1)]


@pytest.mark.parametrize(
    ("name", "reason", "tool_records"),
    [("turns", "max_turns", 4), ("calls", "max_tool_calls", 2), ("asserted", "assert_failed", 0)],
)
async def test_budgets_and_assert_fail_the_run(
    finishes: Bed, name: str, reason: str, tool_records: int
) -> None:
    data, result = await run(finishes, name)
    assert result.is_error is True
    assert (data["status"], data["finish_reason"]) == ("failed", "failed")
    judge, after = data["steps"]
    assert judge["status"] == "failed"
    assert judge["agent"]["finish_reason"] == reason
    assert data["agent"]["finish_reason"] == reason
    assert after["status"] == "skipped"
    assert not (finishes.root / f"{name}-after-ran").exists()
    # Each tool call that ran has its start and end; none past the budget.
    records = run_records(finishes.db, data["run_id"])
    assert len(records["tools"]) == tool_records
    starts = [r["body"]["via"]["tool_call_id"] for r in records["tools"] if r["kind"] == "start"]
    assert starts == {"turns": ["t1", "t2"], "calls": ["k1"], "asserted": []}[name]
    (end,) = [r for r in records["run"] if r["kind"] == "end"]
    assert end["body"]["steps"][0]["agent"]["finish_reason"] == reason
    assert "answer" not in end["body"]["steps"][0]["agent"]  # answers stay out of the audit


async def test_an_answer_that_stays_invalid_is_output_invalid(finishes: Bed) -> None:
    data, result = await run(finishes, "invalid")
    assert result.is_error is True
    assert (data["status"], data["finish_reason"]) == ("output_invalid", "output_invalid")
    judge = data["steps"][0]
    assert judge["agent"]["finish_reason"] == "output_invalid"
    assert judge["agent"]["turns"] == 2
    assert "verdict" in (judge["error"] or "") and "unsure" in (judge["error"] or "")
    assert data["agent"]["finish_reason"] == "output_invalid"
    retry = requests_of(finishes.model, "m-invalid")[1]["messages"][-1]
    assert retry["role"] == "user"
    assert retry["content"].startswith("Your answer is not valid: it is not a JSON object.")


async def test_a_model_slower_than_the_step_timeout_is_timeout(finishes: Bed) -> None:
    data, result = await run(finishes, "slow")
    assert result.is_error is True
    assert (data["status"], data["finish_reason"]) == ("timeout", "timeout")
    judge, after = data["steps"]
    assert judge["status"] == "timeout"
    assert judge["agent"]["finish_reason"] == "timeout"
    assert data["agent"]["finish_reason"] == "timeout"
    assert after["status"] == "skipped"
    (turn,) = run_records(finishes.db, data["run_id"])["turns"]
    assert turn["body"]["error"]
    (request,) = [r for r in finishes.model.requests if r.model == "m-slow"]
    assert request.answered is False  # the client gave up before the answer
