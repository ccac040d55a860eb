#!/usr/bin/env python
"""What an agent step's turn costs in mcp-harbor, beside the model itself.

    python bench/bench_agent.py [--turns 10] [--runs 15]

A scripted OpenAI-compatible server on loopback (tests/scripted_model.py:
its answers take ~1 ms, so what is measured is everything but a model)
answers a conversation of `--turns` tool-call turns and one final answer.
Three rows, interleaved run by run so that a change of load hits each alike:

- **raw client**: the same requests through the `openai` SDK alone (what any
  agent loop pays for the wire);
- **harbor, meta tool**: a whole call of an export whose agent step calls a
  custom tool each turn, through `CallService.call` (turn records in SQLite,
  the transcript, the tool call's own call path), the custom tool being
  `true` (one bash spawn per tool call);
- the difference per turn.

Prints one markdown table (medians over `--runs`). A script, not a test:
nothing here decides pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from scripted_model import ScriptedModel  # noqa: E402

EXPORT = """
name: bench_agent
description: An agent that calls a custom tool each turn.
tools:
  noop:
    description: Does nothing.
    run: "true"
steps:
  - name: think
    agent:
      model: bench
      prompt: Call noop until told otherwise.
      tools: [noop]
      max_turns: 100
      max_tool_calls: 100
"""


def script(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"respond": {"tool_calls": [{"id": f"c{i}", "name": "noop", "arguments": {}}]}}
        for i in range(turns)
    ]
    out.append({"respond": {"content": "done"}})
    return out


async def raw_run(base_url: str, turns: int) -> float:
    import openai

    client = openai.AsyncOpenAI(base_url=base_url, api_key="unused", max_retries=0)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    tools = [{"type": "function", "function": {"name": "noop", "parameters": {"type": "object"}}}]
    began = time.perf_counter()
    for _ in range(turns + 1):
        answer = await client.chat.completions.create(
            model="bench",
            messages=messages,  # type: ignore[arg-type]
            tools=tools,  # type: ignore[arg-type]
        )
        message = answer.choices[0].message
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [c.model_dump() for c in message.tool_calls or []],
            }
        )
        for call in message.tool_calls or []:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "ok"})
    took = time.perf_counter() - began
    await client.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()

    from mcp_harbor.harbor import Harbor, HarborSettings
    from mcp_harbor.identity import Caller
    from mcp_harbor.runctx.request import CallRequest

    folder = Path(tempfile.mkdtemp(prefix="bench-agent-"))
    (folder / "exports").mkdir()
    (folder / "exports" / "bench_agent.yaml").write_text(textwrap.dedent(EXPORT).lstrip())
    raw_s: list[float] = []
    harbor_s: list[float] = []
    caller = Caller(transport="stdio", principal="local:bench", session="bench")
    for run in range(options.runs + 1):  # the first of each is a warm-up
        with ScriptedModel(scripts={"bench": script(options.turns)}) as raw_model:
            took = asyncio.run(raw_run(raw_model.base_url, options.turns))
            if run:
                raw_s.append(took)
        with ScriptedModel(scripts={"bench": script(options.turns)}) as model:
            (folder / "models.yaml").write_text(
                f"endpoints: {{local: {{base_url: '{model.base_url}'}}}}\n"
                "models: {bench: {primary: {endpoint: local, model: bench}}}\n"
            )
            settings = HarborSettings(
                exports=[folder / "exports"],
                models=folder / "models.yaml",
                db=str(folder / f"harbor-{run}.db"),
                runs_dir=folder / "runs",
            )
            with Harbor.open(settings, purpose="run") as harbor:
                request = CallRequest(tool="bench_agent", arguments={}, caller=caller)
                began = time.perf_counter()
                envelope = asyncio.run(harbor.service.call(request))
                took = time.perf_counter() - began
            assert envelope.ok, envelope.answer
            assert not model.mismatches, model.mismatches
            if run:
                harbor_s.append(took)
    raw_ms = statistics.median(raw_s) * 1000
    harbor_ms = statistics.median(harbor_s) * 1000
    turns = options.turns + 1
    print(f"{options.turns} tool-call turns + 1 final answer, medians of {options.runs} runs\n")
    print("| row | whole conversation (ms) | per turn (ms) |")
    print("|---|---:|---:|")
    print(f"| raw openai client, no tools run | {raw_ms:.1f} | {raw_ms / turns:.2f} |")
    print(
        f"| harbor: agent step, a custom tool (`true`) per turn, SQLite audit | "
        f"{harbor_ms:.1f} | {harbor_ms / turns:.2f} |"
    )
    print(
        f"| harbor's part (difference) | {harbor_ms - raw_ms:.1f} | "
        f"{(harbor_ms - raw_ms) / turns:.2f} |"
    )


if __name__ == "__main__":
    main()
