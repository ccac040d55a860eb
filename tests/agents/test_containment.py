"""Containment of an agent step's model, through a real ``mcp-harbor serve``
(Streamable HTTP, both protocol eras) and the scripted model.

The model is an untrusted author: shell syntax in its arguments stays one
word or is refused by the pattern, an ungranted export is an unknown tool,
a granted export the caller may not call is answered like one (audited
``denied``), a ``confirm:`` export waits for an operator (the model cannot
approve it: it is declined at its timeout, or runs once ``mcp-harbor
approve`` answers), and arguments that are not JSON run nothing. Every tool call
record carries ``via`` and comes after its turn's record.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import MODES, approvals_json, harbor_cli, text_of
from mcp import Client

from ._harness import Bed, bed, done, envelope, requests_of, rows, run_records
from ._harness import turn_before_calls as assert_turn_before_calls

pytestmark = pytest.mark.anyio

CONTAIN = """
            name: NAME
            description: An agent step whose model tries what it should not.
            tools:
              echo_word:
                description: Print one word.
                args:
                  word: {type: string, maxLength: 200}
                required: [word]
                run: |
                  mkdir -p ~ && touch ~/canary
                  printf 'word=[%s]\\n' {{ args.word | shellquote }}
                  test -e ~/canary && echo canary-intact
              strict_word:
                description: Print one lower-case word.
                args:
                  word: {type: string, pattern: "^[a-z]+$"}
                required: [word]
                argv: [echo, "{{ args.word }}"]
            steps:
              - name: decide
                agent:
                  model: NAME
                  prompt: Print a word.
                  tools: [echo_word, strict_word, nobody_only, guarded]
                  max_turns: 3
        """


def exports(root: Path) -> dict[str, str]:
    return {
        **{f"contain_{mode}": CONTAIN.replace("NAME", f"contain_{mode}") for mode in MODES},
        "nobody_only": f"""
            name: nobody_only
            description: Only for the principal nobody.
            allow: ["nobody"]
            steps: [{{name: a, argv: [touch, "{root}/nobody-ran"]}}]
        """,
        "guarded": f"""
            name: guarded
            description: Needs an operator's yes.
            confirm: Touch the guarded file?
            approval_timeout: 0.5
            steps: [{{name: a, argv: [touch, "{root}/guarded-ran"]}}]
        """,
        "operated": """
            name: operated
            description: An agent step granted an export with confirm:.
            steps:
              - name: decide
                agent: {model: operated, prompt: Touch it., tools: [patient]}
        """,
        "patient": f"""
            name: patient
            description: Waits for an operator's yes.
            confirm: Touch the patient file?
            approval_timeout: 60
            steps: [{{name: a, argv: [touch, "{root}/patient-ran"]}}]
        """,
        "ungranted": f"""
            name: ungranted
            description: Granted to no agent.
            steps: [{{name: a, argv: [touch, "{root}/ungranted-ran"]}}]
        """,
    }


def script(marker: Path) -> list[dict[str, Any]]:
    """One conversation: six tool calls in one turn, then an answer."""
    nasty = f"; rm -rf ~ $(touch {marker}) `touch {marker}`"
    calls: list[dict[str, Any]] = [
        {"id": "c1", "name": "echo_word", "arguments": {"word": nasty}},
        {"id": "c2", "name": "strict_word", "arguments": {"word": f"$(touch {marker})"}},
        {"id": "c3", "name": "strict_word", "arguments": {"word": "; rm -rf ~"}},
        {"id": "c4", "name": "ungranted", "arguments": {}},
        {"id": "c5", "name": "nobody_only", "arguments": {}},
        {"id": "c6", "name": "guarded", "arguments": {}},
        {"id": "c7", "name": "echo_word", "arguments": '{"word": "unterminated'},
    ]
    return [
        {
            "expect": {"tools": ["echo_word", "strict_word", "guarded"], "last_role": "user"},
            "respond": {"tool_calls": calls},
        },
        {
            "expect": {
                "last_role": "tool",
                "tool_call_id": [c["id"] for c in calls],
                "contains": ["canary-intact", "Unknown tool: ungranted"],
            },
            "respond": {"content": "I printed it."},
        },
    ]


OPERATED: list[dict[str, Any]] = [
    {
        "expect": {"tools": ["patient"]},
        "respond": {"tool_calls": [{"id": "p1", "name": "patient", "arguments": {}}]},
    },
    {
        "expect": {"last_role": "tool", "tool_call_id": "p1", "contains": ['"status": "ok"']},
        "respond": {"content": "touched"},
    },
]


@pytest.fixture(scope="module")
def contain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    root = tmp_path_factory.mktemp("contain")
    turns = script(root / "PWNED")
    scripts = {f"m-contain-{mode}": turns for mode in MODES} | {"m-operated": OPERATED}
    models = {f"contain_{mode}": f"m-contain-{mode}" for mode in MODES} | {"operated": "m-operated"}
    with bed(root, exports(root), scripts, models) as b:
        yield b


def tool_messages(body: dict[str, Any]) -> dict[str, str]:
    return {m["tool_call_id"]: m["content"] for m in body["messages"] if m["role"] == "tool"}


def data_of(content: str, source: str) -> Any:
    """The JSON inside ``<data source="SOURCE">…</data>``."""
    head = f'<data source="{source}">'
    assert content.startswith(head) and content.endswith("</data>"), content
    return json.loads(content[len(head) : -len("</data>")])


@pytest.mark.parametrize("mode", MODES)
async def test_the_model_is_contained(contain: Bed, mode: str) -> None:
    root, name = contain.root, f"contain_{mode}"
    async with Client(contain.url, mode=mode) as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        result = await client.call_tool(name, {})
    data = envelope(result)
    assert result.is_error is False, text_of(result)
    assert data["status"] == "ok"
    assert data["agent"]["finish_reason"] == "goal"
    assert data["agent"]["tool_calls_seen"] == 7
    # Custom tools are the export's own: never published.
    done(contain.model, f"m-contain-{mode}")
    assert f"{name}.echo_word" not in listed and "echo_word" not in listed
    for never in ("PWNED", "nobody-ran", "guarded-ran", "ungranted-ran"):
        assert not (root / never).exists(), never

    # What the model was told, call by call.
    second = requests_of(contain.model, f"m-contain-{mode}")[1]
    told = tool_messages(second)
    echoed = data_of(told["c1"], "tool.echo_word")
    assert echoed["status"] == "ok"
    marker = root / "PWNED"
    # The whole value reached printf as one word, byte for byte.
    assert f"word=[; rm -rf ~ $(touch {marker}) `touch {marker}`]\n" in echoed["output"]
    assert "canary-intact" in echoed["output"]
    for call in ("c2", "c3"):
        refused = data_of(told[call], "tool.strict_word")
        assert refused["status"] == "invalid"
        assert "does not match '^[a-z]+$'" in refused["output"]
        assert "Nothing was run." in refused["output"]
    assert data_of(told["c4"], "tool.ungranted") == "Unknown tool: ungranted"
    # Denied by allow: answered exactly like an unknown tool.
    assert data_of(told["c5"], "tool.nobody_only") == "Unknown tool: nobody_only"
    guarded = data_of(told["c6"], "tool.guarded")
    assert guarded["status"] == "declined"
    assert "nothing was run" in guarded["output"]
    assert "not a JSON object" in data_of(told["c7"], "tool.echo_word")

    # The audit: one record per tool call, each with via, after its turn.
    records = run_records(contain.db, data["run_id"])
    tools = records["tools"]
    outcome = [(r["kind"], r["tool"], r["status"]) for r in tools]
    assert outcome == [
        ("start", f"{name}.echo_word", "running"),
        ("end", f"{name}.echo_word", "ok"),
        ("call", f"{name}.strict_word", "invalid"),
        ("call", f"{name}.strict_word", "invalid"),
        ("call", "ungranted", "unknown"),
        ("call", "nobody_only", "denied"),
        ("call", "guarded", "declined"),
        ("call", f"{name}.echo_word", "invalid"),
    ]
    ids = iter(["c1", "c2", "c3", "c4", "c5", "c6", "c7"])
    for record in tools:
        via = record["body"].get("via")
        if record["kind"] == "end":
            continue  # the end record shares its start's call id
        assert via == {
            "run_id": data["run_id"],
            "step": "decide",
            "attempt": 1,
            "turn": 1,
            "tool_call_id": next(ids),
            "author": "model",
        }
    # The model's calls are made as the original caller.
    run_principal = records["run"][0]["principal"]
    assert {r["principal"] for r in tools} == {run_principal}
    # The confirm: was answered by its timeout, never by the model.
    assert tools[6]["body"]["approval"]["by"] == "timeout"
    assert [t["body"]["turn"] for t in records["turns"]] == [1, 2]
    assert_turn_before_calls(records)
    # The turn record keeps the model's arguments (the non-JSON ones cut raw).
    recorded = records["turns"][0]["body"]["tool_calls"]
    assert recorded[6] == {
        "id": "c7",
        "name": "echo_word",
        "arguments": {"_raw": '{"word": "unterminated'},
    }


async def test_only_an_operator_answers_a_confirm(contain: Bed) -> None:
    """The model's call of a confirm: export waits for ``mcp-harbor
    approve`` (a separate process); nothing of it runs before."""
    result: Any = None
    async with Client(contain.url, mode="auto") as client:

        async def call() -> None:
            nonlocal result
            result = await client.call_tool("operated", {})

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(20):
                while not (pending := await anyio.to_thread.run_sync(approvals_json, contain.db)):
                    await anyio.sleep(0.1)
            (item,) = pending
            assert item["tool"] == "patient"
            assert not (contain.root / "patient-ran").exists()  # still waiting
            kinds = [r["kind"] for r in rows(contain.db) if r["tool"] == "patient"]
            assert kinds == ["approval"]  # asked; no start nor call record yet
            await anyio.to_thread.run_sync(
                lambda: harbor_cli("approve", item["run_id"], "--db", str(contain.db))
            )
    data = envelope(result)
    assert data["status"] == "ok", text_of(result)
    assert (contain.root / "patient-ran").exists()
    done(contain.model, "m-operated")
    records = run_records(contain.db, data["run_id"])
    start, end = records["tools"]
    assert (start["kind"], start["tool"], end["status"]) == ("start", "patient", "ok")
    assert start["call_id"] == item["run_id"]
    approval = start["body"]["approval"]
    assert (approval["decision"], approval["how"]) == ("approved", "operator")
    assert approval["by"] == f"local:{getpass.getuser()}"
    assert start["body"]["via"]["tool_call_id"] == "p1"
