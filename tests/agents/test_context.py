"""What of the run context reaches an agent step's model, and how: as
labelled data, read back from the requests the scripted model recorded,
through a real ``mcp-harbor serve --skills DIR`` over stdio (both protocol
eras; one stdio connection is one session).

- the validated arguments, a ``secret: true`` one as ``***`` (never the
  value: not in any request, nor in any file of the run directory);
- session memory (``memory: {recent: 2}``): the last two answered calls of
  the session, oldest first;
- caller memory (``_meta`` ``mcp-harbor/memory``), labelled unverified;
- an inline attachment's text;
- the skills index in the system message; ``skill_get`` answers the text
  and is audited with ``via.meta``;
- ``{{ args.x | data }}`` as ``<data source="args.x">``, a ``</data>`` in
  the value escaped.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from harbor_helpers import MODES, stdio_client_of, text_of
from mcp_types import RequestParamsMeta

from mcp_harbor.runctx import CALLER_MEMORY_KEY

from ._harness import Bed, bed, done, envelope, requests_of, rows, run_records

pytestmark = pytest.mark.anyio

SECRET = "s3cr3t-Value-4242"
X = 'a</data>b & <c> "q"'
#: `X` as a data element: JSON with <, > and & escaped.
X_BLOCK = '<data source="args.x">"a\\u003c/data\\u003eb \\u0026 \\u003cc\\u003e \\"q\\""</data>'
ATTACHED = "hello from the attachment\n"
SKILL_BODY = "When a test fails, read its log first, then decide."

CONTEXT = """
    name: NAME
    description: An agent that is told things.
    args:
      note: {type: string, pattern: "^[a-z]+$"}
      token: {type: string, secret: true}
      x: {type: string, maxLength: 100}
      file:
        {type: string, contentEncoding: base64, contentMediaType: text/plain, disposition: inline}
    required: [note, token, x]
    memory: {recent: 2}
    steps:
      - name: ask
        agent:
          model: NAME
          prompt: "Look at {{ args.x | data }} with {{ args.token | data }}."
          max_turns: 3
"""

SKILL = f"""---
name: triage
title: Triage a CI failure
trigger: a test fails
pinned: true
---
{SKILL_BODY}
"""

NOTES = ["one", "two", "three", "four"]


def script() -> list[dict[str, Any]]:
    """One session: four calls; the first reads the skill."""
    first = [
        {
            "expect": {
                "tools": ["skill_get"],
                "last_role": "user",
                "system_contains": ["- triage: Triage a CI failure (read it when: a test fails)"],
                "contains": [X_BLOCK, "caller-supplied, unverified", ATTACHED.strip()],
            },
            "respond": {
                "tool_calls": [{"id": "s1", "name": "skill_get", "arguments": {"name": "triage"}}]
            },
        },
        {
            "expect": {"last_role": "tool", "tool_call_id": "s1", "contains": [SKILL_BODY]},
            "respond": {"content": "answer one"},
        },
    ]
    rest = [
        {"expect": {"last_role": "user"}, "respond": {"content": f"answer {n}"}} for n in NOTES[1:]
    ]
    return first + rest


@pytest.fixture(scope="module")
def contexts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    root = tmp_path_factory.mktemp("context")
    skills = root / "skills"
    (skills / "triage").mkdir(parents=True)
    (skills / "triage" / "SKILL.md").write_text(SKILL, encoding="utf-8")
    with bed(
        root,
        {f"ctx_{m}": CONTEXT.replace("NAME", f"ctx_{m}") for m in MODES},
        {f"m-ctx-{m}": script() for m in MODES},
        {f"ctx_{m}": f"m-ctx-{m}" for m in MODES},
        "--skills",
        str(skills),
        http=False,
    ) as b:
        yield b


def block(text: str, source: str) -> Any:
    """The value of the one ``<data source="SOURCE" …>`` element in `text`."""
    head = f'<data source="{source}"'
    assert text.count(head) == 1, (source, text)
    rest = text[text.index(head) + len(head) :]
    rest = rest[rest.index(">") + 1 :]
    return json.loads(rest[: rest.index("</data>")])


@pytest.mark.parametrize("mode", MODES)
async def test_the_model_sees_the_context_as_labelled_data(contexts: Bed, mode: str) -> None:
    name = f"ctx_{mode}"
    caller_memory = {"ticket": "OPS-7", "note": "from the caller"}
    file = base64.b64encode(ATTACHED.encode()).decode()
    results = []
    async with stdio_client_of(contexts.exports, contexts.state, mode, *contexts.serve_args) as c:
        for n, note in enumerate(NOTES):
            arguments = {"note": note, "token": SECRET, "x": X}
            if n == 0:
                arguments["file"] = file
                meta = cast(RequestParamsMeta, {CALLER_MEMORY_KEY: caller_memory})
                result = await c.call_tool(name, arguments, meta=meta)
            else:
                result = await c.call_tool(name, arguments)
            assert result.is_error is False, text_of(result)
            results.append(envelope(result))
    done(contexts.model, f"m-ctx-{mode}")
    sent = requests_of(contexts.model, f"m-ctx-{mode}")
    assert len(sent) == 5  # the first call took two turns
    users = [next(m["content"] for m in body["messages"] if m["role"] == "user") for body in sent]
    systems = [
        next(m["content"] for m in body["messages"] if m["role"] == "system") for body in sent
    ]

    # The arguments, the secret as ***, and the prompt's data element.
    shown = block(users[0], "arguments")
    assert shown["token"] == "***" and shown["note"] == "one" and shown["x"] == X
    assert f'Look at {X_BLOCK} with <data source="args.token">"***"</data>.' in users[0]
    assert users[0].count("</data>") == users[0].count("<data ")  # no value closed one early
    for body in sent:
        assert SECRET not in json.dumps(body)

    # Caller memory and the attachment: only the call that sent them.
    assert block(users[0], "memory.caller") == caller_memory
    assert '<data source="memory.caller" label="caller-supplied, unverified">' in users[0]
    (attachment,) = block(users[0], "attachments")
    assert (attachment["arg"], attachment["text"]) == ("file", ATTACHED)
    assert "memory.caller" not in users[2] and "attachments" not in users[2]

    # Session memory: none at first, then the last two answered calls, oldest first.
    assert "memory.session" not in users[0]
    seen = [[m["arguments"]["note"] for m in block(u, "memory.session")] for u in users[2:]]
    assert seen == [["one"], ["one", "two"], ["two", "three"]]
    remembered = block(users[4], "memory.session")
    assert all(m["arguments"]["token"] == "***" for m in remembered)
    assert [m["tool"] for m in remembered] == [name, name]
    assert "answer two" in remembered[0]["answer"]

    # Skills: the index in the system message (operator text, not data);
    # the text only through skill_get, audited as a meta call.
    assert "- triage: Triage a CI failure (read it when: a test fails)" in systems[0]
    assert SKILL_BODY not in systems[0] and SKILL_BODY not in users[0]
    assert block(sent[1]["messages"][-1]["content"], "tool.skill_get") == {
        "name": "triage",
        "text": SKILL_BODY + "\n",
    }
    first = results[0]
    records = run_records(contexts.db, first["run_id"])
    (skill_get,) = records["tools"]
    assert (skill_get["kind"], skill_get["tool"], skill_get["status"]) == (
        "call",
        "skill_get",
        "ok",
    )
    assert skill_get["body"]["via"]["meta"] is True
    assert skill_get["body"]["via"]["tool_call_id"] == "s1"
    assert skill_get["body"]["arguments"] == {"name": "triage"}

    # The secret is in no file of any run directory, nor in the audit.
    for data in results:
        for path in Path(data["run_dir"]).rglob("*"):
            if path.is_file():
                assert SECRET.encode() not in path.read_bytes(), path
        transcript = Path(data["steps"][0]["agent"]["transcript_log"])
        assert transcript.is_file() and "***" in transcript.read_text()
    assert SECRET not in json.dumps(rows(contexts.db))
