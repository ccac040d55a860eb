"""Agents calling agents (issue 22): the loader refuses a cycle of grants and
more than two levels of exports with agents, but a reload loads one file at
a time, so the runtime refuses them too: a model's call that would loop back
to an export whose agent is above it, or nest a third export with agents,
gets ``Unknown tool`` and a ``call`` record saying why, and nothing runs.

The exports here are loaded one by one (as a reload does) and served by a
real call service with a real SQLite audit, a scripted model on loopback and
real bash."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_harbor.config import load_export, load_exports
from mcp_harbor.config.models_file import Models
from mcp_harbor.errors import ConfigError
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import CallService, ExportCatalog, RunSettings
from mcp_harbor.runctx.request import CallRequest
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore


def agent_export(folder: Path, name: str, grants: list[str], model: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        textwrap.dedent(
            f"""
            name: {name}
            description: The agent {name}.
            steps:
              - name: think
                agent: {{model: {model}, prompt: Think., tools: {grants}, max_turns: 3}}
            """
        ).lstrip(),
        encoding="utf-8",
    )
    return path


def call_then_answer(tool: str, refused: bool = False) -> list[dict[str, Any]]:
    """The model calls `tool`, then answers; `refused`: it must have been
    told ``Unknown tool``."""
    expect: dict[str, Any] = {"last_role": "tool"}
    if refused:
        expect["contains"] = ["Unknown tool"]
    return [
        {"respond": {"tool_calls": [{"id": "c1", "name": tool, "arguments": {}}]}},
        {"expect": expect, "respond": {"content": "x"}},
    ]


def serve(
    tmp_path: Path, exports: list[Path], base_url: str, max_concurrent: int | None = None
) -> CallService:
    models = Models.of(
        {
            "endpoints": {"local": {"base_url": base_url}},
            "models": {m: {"primary": {"endpoint": "local", "model": m}} for m in "abc"},
        }
    )
    store = SqliteStore(tmp_path / "harbor.db")
    settings = RunSettings(
        workdir=tmp_path,
        runs_root=tmp_path / "runs",
        models=models,
        max_concurrent=max_concurrent,
        queue_timeout=1.0,
    )
    catalog = ExportCatalog([load_export(p) for p in exports])
    return CallService(settings, AuditTrail(store), store, catalog=catalog)


def refusals(service: CallService) -> list[tuple[str, str, str]]:
    return [
        (r.tool, r.status, str(r.body.get("reason")))
        for r in service.store.records()
        if r.kind == "call" and r.body.get("via")
    ]


def test_a_loop_of_grants_is_refused_when_the_set_loads(tmp_path: Path) -> None:
    agent_export(tmp_path, "a", ["b"], "a")
    agent_export(tmp_path, "b", ["a"], "b")
    with pytest.raises(ConfigError, match="cycle"):
        load_exports([tmp_path])


@pytest.mark.anyio
async def test_a_loop_is_refused_at_run_time(tmp_path: Path, scripted_model: Any) -> None:
    exports = [agent_export(tmp_path, "a", ["b"], "a"), agent_export(tmp_path, "b", ["a"], "b")]
    model = scripted_model(
        scripts={"a": call_then_answer("b"), "b": call_then_answer("a", refused=True)}
    )
    service = serve(tmp_path, exports, model.base_url)
    caller = Caller(transport="stdio", principal="local:me", session="s")
    envelope = await service.call(CallRequest(tool="a", arguments={}, caller=caller))
    assert envelope.status == "ok", envelope.answer
    model.assert_done()
    # a's model called b (it ran, its agent ran); b's model called a: refused.
    assert refusals(service) == [("a", "unknown", "a loop of agents: a -> b -> a; nothing was run")]
    started = [r.tool for r in service.store.records() if r.kind == "start"]
    assert started == ["a", "b"]  # a's second run never started
    service.store.close()


@pytest.mark.anyio
async def test_a_third_level_of_agents_is_refused_at_run_time(
    tmp_path: Path, scripted_model: Any
) -> None:
    exports = [
        agent_export(tmp_path, "a", ["b"], "a"),
        agent_export(tmp_path, "b", ["c"], "b"),
        agent_export(tmp_path, "c", [], "c"),
    ]
    model = scripted_model(
        scripts={"a": call_then_answer("b"), "b": call_then_answer("c", refused=True)}
    )
    service = serve(tmp_path, exports, model.base_url)
    caller = Caller(transport="stdio", principal="local:me", session="s")
    with anyio.fail_after(60):
        envelope = await service.call(CallRequest(tool="a", arguments={}, caller=caller))
    assert envelope.status == "ok", envelope.answer
    model.assert_done()
    assert refusals(service) == [
        ("c", "unknown", "agents may nest at most 2 exports deep (a -> b -> c); nothing was run")
    ]
    started = [r.tool for r in service.store.records() if r.kind == "start"]
    assert started == ["a", "b"]  # c never started
    service.store.close()


@pytest.mark.anyio
async def test_a_tool_call_does_not_wait_for_the_slot_its_run_holds(
    tmp_path: Path, scripted_model: Any
) -> None:
    """With --max-concurrent 1 the run holds the server's one slot; its
    model's tool calls run inside it (an export's own concurrency: still
    applies to them)."""
    path = tmp_path / "solo.yaml"
    path.write_text(
        textwrap.dedent(
            """
            name: solo
            description: An agent with a custom tool.
            tools:
              hello:
                description: Says hello.
                run: echo hello-from-the-tool
            steps:
              - name: think
                agent: {model: a, prompt: Say hello., tools: [hello], max_turns: 3}
            """
        ).lstrip(),
        encoding="utf-8",
    )
    model = scripted_model(
        scripts={
            "a": [
                {"respond": {"tool_calls": [{"id": "c1", "name": "hello", "arguments": {}}]}},
                {
                    "expect": {"last_role": "tool", "contains": ["hello-from-the-tool"]},
                    "respond": {"content": "done"},
                },
            ]
        }
    )
    service = serve(tmp_path, [path], model.base_url, max_concurrent=1)
    caller = Caller(transport="stdio", principal="local:me", session="s")
    envelope = await service.call(CallRequest(tool="solo", arguments={}, caller=caller))
    assert envelope.status == "ok", envelope.answer
    model.assert_done()
    service.store.close()
