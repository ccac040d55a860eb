"""``fix:`` through a real ``mcp-harbor serve`` (Streamable HTTP) and the
scripted model: the runner's own re-run decides the step's status, never
the agent's claim; every run of the step is in its ``attempts``, each
with ``by`` (``fix``: the agent's ``rerun``; ``runner``: the deciding
re-run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import text_of
from mcp import Client

from ._harness import Bed, bed, done, envelope, requests_of, run_records, sent_text
from ._harness import turn_before_calls as assert_turn_before_calls

pytestmark = pytest.mark.anyio

FIXABLE = """
    name: fixable
    description: A check that fails until its fix creates the file it tests.
    tools:
      make_fixed:
        description: Create the file the check looks for.
        run: touch "$HARBOR_RUN_DIR/fixed" && echo created
    steps:
      - name: check
        run: |
          echo checking
          test -f "$HARBOR_RUN_DIR/fixed" || { echo "no fixed file" >&2; exit 4; }
        fix: {model: fixer, prompt: Make the check pass., tools: [make_fixed], max_turns: 4}
"""

UNFIXABLE = """
    name: unfixable
    description: A check no agent can fix.
    steps:
      - name: check
        run: echo "still broken" >&2; exit 5
        fix: {model: boaster, prompt: Make the check pass., attempts: 2}
"""

FIXER: list[dict[str, Any]] = [
    {
        "expect": {
            "tools": ["make_fixed", "rerun"],
            "last_role": "user",
            "contains": ['"exit_code": 4', "no fixed file", 'test -f \\"$HARBOR_RUN_DIR/fixed\\"'],
        },
        "respond": {"tool_calls": [{"id": "f1", "name": "make_fixed", "arguments": {}}]},
    },
    {
        "expect": {"last_role": "tool", "tool_call_id": "f1", "contains": ["created"]},
        "respond": {"tool_calls": [{"id": "f2", "name": "rerun", "arguments": {}}]},
    },
    {
        "expect": {"last_role": "tool", "tool_call_id": "f2", "contains": ['"exit_code": 0']},
        "respond": {"content": "fixed"},
    },
]

# Claims it fixed it, twice; each round starts from the runner's new failure.
BOASTER: list[dict[str, Any]] = [
    {
        "expect": {"tools": ["rerun"], "contains": ['"exit_code": 5', "still broken"]},
        "respond": {"content": "fixed, trust me"},
    },
    {
        "expect": {"tools": ["rerun"], "contains": ['"exit_code": 5']},
        "respond": {"content": "fixed now, really"},
    },
]


@pytest.fixture(scope="module")
def fixes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    root = tmp_path_factory.mktemp("fix")
    with bed(
        root,
        {"fixable": FIXABLE, "unfixable": UNFIXABLE},
        {"m-fixer": FIXER, "m-boaster": BOASTER},
        {"fixer": "m-fixer", "boaster": "m-boaster"},
    ) as b:
        yield b


async def test_a_fix_that_works_is_decided_by_the_runner_rerun(fixes: Bed) -> None:
    async with Client(fixes.url, mode="auto") as client:
        result = await client.call_tool("fixable", {})
    data = envelope(result)
    assert result.is_error is False, text_of(result)
    done(fixes.model, "m-fixer")
    assert data["status"] == "ok"
    (step,) = data["steps"]
    assert step["status"] == "ok" and step["exit_code"] == 0
    # The first run, the agent's rerun, then the runner's re-run that decided.
    assert [(a["status"], a["exit_code"], a.get("by")) for a in step["attempts"]] == [
        ("failed", 4, None),
        ("ok", 0, "fix"),
        ("ok", 0, "runner"),
    ]
    (round_,) = step["agent"]["fix"]
    assert round_["round"] == 1
    assert round_["finish_reason"] == "goal"
    assert round_["answer"] == "fixed"
    assert round_["tool_calls_seen"] == 2
    run_dir = Path(data["run_dir"])
    assert (run_dir / "fixed").is_file()  # the custom tool ran in this run's directory
    assert Path(round_["transcript_log"]).parent == run_dir / "steps"

    records = run_records(fixes.db, data["run_id"])
    tools = [(r["kind"], r["tool"], r["status"]) for r in records["tools"]]
    assert tools == [
        ("start", "fixable.make_fixed", "running"),
        ("end", "fixable.make_fixed", "ok"),
        ("call", "rerun", "ok"),
    ]
    assert records["tools"][2]["body"]["via"]["meta"] is True
    assert {r["body"]["phase"] for r in records["turns"]} == {"steps"}
    assert len(records["turns"]) == 3
    assert_turn_before_calls(records)


async def test_a_claimed_fix_whose_rerun_fails_leaves_the_step_failed(fixes: Bed) -> None:
    async with Client(fixes.url, mode="legacy") as client:
        result = await client.call_tool("unfixable", {})
    data = envelope(result)
    done(fixes.model, "m-boaster")
    assert result.is_error is True
    assert data["status"] == "failed"
    (step,) = data["steps"]
    assert step["status"] == "failed" and step["exit_code"] == 5
    assert [(a["status"], a["exit_code"], a.get("by")) for a in step["attempts"]] == [
        ("failed", 5, None),
        ("failed", 5, "runner"),
        ("failed", 5, "runner"),
    ]
    # The agent's claims are kept as answers and decided nothing.
    assert [(r["round"], r["finish_reason"], r["answer"]) for r in step["agent"]["fix"]] == [
        (1, "goal", "fixed, trust me"),
        (2, "goal", "fixed now, really"),
    ]
    second = requests_of(fixes.model, "m-boaster")[1]
    assert "fixed, trust me" not in sent_text(second)  # each round starts fresh
