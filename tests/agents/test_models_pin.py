"""Preflight, the pin and the fallback, through a real ``mcp-harbor serve``
(Streamable HTTP) whose models file points at the scripted model and at a
closed port.

- The primary unreachable and the fallback ready: the run pins the
  fallback (the start record's ``models``) and every turn goes there.
- No ready source when the server starts: the export is not offered (the
  server's log says why); none when a run starts: the call answers
  ``unavailable`` with the reason. Nothing runs.
- The pinned source failing mid-run (503): that turn fails, the step
  finishes ``model_error``, and no turn goes to the fallback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import MODES, text_of
from mcp import Client
from mcp.shared.exceptions import MCPError

from ._harness import Bed, bed, done, envelope, requests_of, rows, run_records

pytestmark = pytest.mark.anyio


def agent_export(name: str, model: str, marker: Path | None = None) -> str:
    after = f'\n      - name: after\n        argv: [touch, "{marker}"]' if marker else ""
    return f"""
    name: {name}
    description: One agent step on model {model}.
    tools:
      ping:
        description: Answer pong.
        run: echo pong
    steps:
      - name: ask
        agent: {{model: {model}, prompt: Say hello., tools: [ping], max_turns: 3}}{after}
    """


def answer(text: str) -> dict[str, Any]:
    return {"expect": {"tools": ["ping"]}, "respond": {"content": text}}


FLAKY: list[dict[str, Any]] = [
    {
        "expect": {"tools": ["ping"], "last_role": "user"},
        "respond": {"tool_calls": [{"id": "p1", "name": "ping", "arguments": {}}]},
    },
    {
        "expect": {"last_role": "tool", "tool_call_id": "p1", "contains": ["pong"]},
        "respond": {"status": 503, "error": "the GPU box is overloaded"},
    },
]


def scripted(model_id: str) -> dict[str, str]:
    return {"endpoint": "scripted", "model": model_id}


FALLBACK_ONLY = {"primary": {"endpoint": "closed", "model": "m-gone"}}


@pytest.fixture(scope="module")
def pins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    root = tmp_path_factory.mktemp("pin")
    with bed(
        root,
        {
            **{f"pinned_{m}": agent_export(f"pinned_{m}", f"fb_{m}") for m in MODES},
            "dark": agent_export("dark", "down", root / "dark-after-ran"),
            "flaky": agent_export("flaky", "flaky", root / "flaky-after-ran"),
            "fading": agent_export("fading", "fading", root / "fading-after-ran"),
        },
        {
            **{f"m-fb-{m}": [answer('"hello from the fallback"')] for m in MODES},
            "m-flaky": FLAKY,
            "m-flaky-fb": [],
            "m-fading": [],
        },
        {
            **{f"fb_{m}": {**FALLBACK_ONLY, "fallback": scripted(f"m-fb-{m}")} for m in MODES},
            "down": {**FALLBACK_ONLY, "fallback": {"endpoint": "closed", "model": "m-gone-too"}},
            "flaky": {
                "primary": {"endpoint": "scripted", "model": "m-flaky"},
                "fallback": {"endpoint": "scripted", "model": "m-flaky-fb"},
            },
            "fading": "m-fading",
        },
        "--preflight-interval",
        "0.2",
    ) as b:
        yield b


@pytest.mark.parametrize("mode", MODES)
async def test_an_unreachable_primary_pins_the_fallback(pins: Bed, mode: str) -> None:
    async with Client(pins.url, mode=mode) as client:
        result = await client.call_tool(f"pinned_{mode}", {})
    data = envelope(result)
    done(pins.model, f"m-fb-{mode}")
    assert result.is_error is False, text_of(result)
    assert data["agent"]["answer"] == "hello from the fallback"
    agent = data["steps"][0]["agent"]
    assert (agent["source"], agent["endpoint"], agent["model_id"]) == (
        "fallback",
        "scripted",
        f"m-fb-{mode}",
    )
    (start,) = [r for r in run_records(pins.db, data["run_id"])["run"] if r["kind"] == "start"]
    pin = start["body"]["models"][f"fb_{mode}"]
    assert (pin["source"], pin["endpoint"]) == ("fallback", "scripted")
    assert pin["model"] == f"m-fb-{mode}"
    assert "primary closed" in pin["reason"] and pin["judged_at"]
    # The run's context.json says the same.
    context = json.loads((Path(data["run_dir"]) / "context.json").read_text(encoding="utf-8"))
    assert context["models"][f"fb_{mode}"] == pin
    # Every turn of the run went to the pinned fallback, and says so.
    turns = run_records(pins.db, data["run_id"])["turns"]
    assert [(t["body"]["source"], t["body"]["requested_model"]) for t in turns] == [
        ("fallback", f"m-fb-{mode}")
    ]


async def test_no_ready_source_at_start_hides_the_export(pins: Bed) -> None:
    async with Client(pins.url, mode="auto") as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        with pytest.raises(MCPError) as refused:
            await client.call_tool("dark", {})
    assert "dark" not in listed and {"pinned_auto", "flaky", "fading"} <= listed
    assert refused.value.message == "Unknown tool: dark"
    assert not (pins.root / "dark-after-ran").exists()
    assert pins.server is not None
    said = [line for line in pins.server.stderr().splitlines() if "not offering dark" in line]
    assert len(said) == 1, pins.server.stderr()
    assert "model down: primary closed" in said[0] and "fallback closed" in said[0], said


@pytest.mark.parametrize("mode", MODES)
async def test_no_ready_source_at_the_call_answers_unavailable(pins: Bed, mode: str) -> None:
    """The model vanished from its endpoint after the server started: the
    run's start judges again (--preflight-interval 0.2) and runs nothing."""
    pins.model.models = [m for m in pins.model.models if m != "m-fading"]
    await anyio.sleep(0.4)  # older than --preflight-interval: probed again at the run's start
    async with Client(pins.url, mode=mode) as client:
        result = await client.call_tool("fading", {})
    data = envelope(result)
    text = text_of(result)
    assert result.is_error is True
    assert data["status"] == "unavailable", text
    assert "fading cannot run now: model fading: primary scripted" in text, text
    assert "m-fading" in text and "Nothing was run" in text, text
    assert not (pins.root / "fading-after-ran").exists()
    (record,) = [r for r in rows(pins.db) if r["call_id"] == data["run_id"]]
    assert (record["kind"], record["status"]) == ("call", "unavailable")
    assert "model fading" in record["body"]["reason"]
    assert requests_of(pins.model, "m-fading") == []


async def test_a_source_failing_mid_run_fails_the_turn_without_switching(pins: Bed) -> None:
    async with Client(pins.url, mode="auto") as client:
        result = await client.call_tool("flaky", {})
    data = envelope(result)
    done(pins.model, "m-flaky")
    assert requests_of(pins.model, "m-flaky-fb") == []  # never switched mid-run
    assert result.is_error is True
    assert data["status"] == "failed"
    assert data["finish_reason"] == "failed"
    assert data["agent"]["finish_reason"] == "model_error"
    ask, after = data["steps"]
    assert ask["status"] == "failed"
    assert ask["agent"]["finish_reason"] == "model_error"
    assert ask["agent"]["source"] == "primary"
    assert "503" in (ask["error"] or "") or "overloaded" in (ask["error"] or ""), ask["error"]
    assert after["status"] == "skipped"
    assert not (pins.root / "flaky-after-ran").exists()
    records = run_records(pins.db, data["run_id"])
    first, failed = records["turns"]
    assert first["body"]["error"] is None
    assert failed["body"]["error"] and failed["body"]["turn"] == 2
    (end,) = [r for r in records["run"] if r["kind"] == "end"]
    assert end["status"] == "failed"
    assert end["body"]["steps"][0]["agent"]["finish_reason"] == "model_error"
