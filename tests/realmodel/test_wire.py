"""The wire to a real model: the ``openai`` SDK as harbor's model client uses
it (no retries, temperature 0, seed 1, a bounded ``max_tokens``, never
streamed with tools: agent-steps notes §1) against SmolLM2-135M on the
llama.cpp server. Invariants only (the shape of answers, the finish
reasons, the tools offered), never the model's judgement: a 135M model
calls tools with junk arguments or answers in prose, and either passes.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolParam

from mcp_harbor.config.models_file import load_models_file
from realmodel.conftest import RealModel

#: A tool's turn may legitimately end in any of these; nothing else.
FINISH_REASONS = {"stop", "length", "tool_calls"}
MAX_TOKENS = 64

TOOLS: list[ChatCompletionToolParam] = [
    {
        "type": "function",
        "function": {
            "name": "list_files",
            "description": "List the files of a folder.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string", "description": "The folder."}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read one file.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string", "description": "The file."}},
                "required": ["path"],
            },
        },
    },
]
OFFERED = {tool["function"]["name"] for tool in TOOLS}
ASK: list[ChatCompletionMessageParam] = [
    {"role": "system", "content": "You are a helpful assistant. Use the tools when they help."},
    {"role": "user", "content": "Which files are in the folder /srv/app?"},
]


@pytest.fixture
def client(real_model: RealModel) -> Iterator[OpenAI]:
    """The SDK as harbor configures it: no silent retries, a bounded wait."""
    with OpenAI(base_url=real_model.base_url, api_key="unused", max_retries=0, timeout=120) as sdk:
        yield sdk


def ask(
    client: OpenAI, real_model: RealModel, max_tokens: int = MAX_TOKENS, **kwargs: Any
) -> ChatCompletion:
    """One turn, as harbor asks it: deterministic, bounded, not streamed."""
    answer: ChatCompletion = client.chat.completions.create(
        model=real_model.alias,
        temperature=0,
        seed=1,
        max_tokens=max_tokens,
        stream=False,
        **kwargs,
    )
    return answer


def assert_tool_calls_well_formed(answer: ChatCompletion, names: set[str]) -> None:
    """Each tool call: a function of `names`, a distinct non-empty id, its
    arguments a string (JSON or not: harbor validates them, not the wire)."""
    calls = answer.choices[0].message.tool_calls or []
    ids = [call.id for call in calls]
    assert all(ids) and len(set(ids)) == len(ids), ids
    for call in calls:
        assert call.type == "function", call
        assert call.function.name in names, (call.function.name, names)
        assert isinstance(call.function.arguments, str), call


def test_a_tools_turn_answers_with_tool_calls_or_content(
    client: OpenAI, real_model: RealModel
) -> None:
    answer = ask(client, real_model, messages=ASK, tools=TOOLS, tool_choice="auto")
    assert len(answer.choices) == 1
    choice = answer.choices[0]
    assert choice.message.role == "assistant"
    assert choice.finish_reason in FINISH_REASONS, choice.finish_reason
    if choice.message.tool_calls:
        assert choice.finish_reason == "tool_calls"
        assert_tool_calls_well_formed(answer, OFFERED)
    else:
        assert isinstance(choice.message.content, str), choice.message
        assert choice.finish_reason in {"stop", "length"}


def test_a_forced_tool_choice_calls_that_tool(client: OpenAI, real_model: RealModel) -> None:
    answer = ask(
        client,
        real_model,
        messages=ASK,
        tools=TOOLS,
        tool_choice={"type": "function", "function": {"name": "read_file"}},
    )
    choice = answer.choices[0]
    assert choice.finish_reason == "tool_calls", choice.finish_reason
    assert choice.message.tool_calls, choice.message
    assert_tool_calls_well_formed(answer, {"read_file"})


def test_a_turn_after_a_tool_result_is_answered(client: OpenAI, real_model: RealModel) -> None:
    # The assistant's tool-call turn carries content "" (the server's
    # template fails on a missing one: agent-steps notes §1), then the result.
    messages: list[ChatCompletionMessageParam] = [
        *ASK,
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "list_files", "arguments": '{"path": "/srv/app"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "main.py\nREADME.md\n"},
    ]
    answer = ask(client, real_model, messages=messages, tools=TOOLS, tool_choice="auto")
    choice = answer.choices[0]
    assert choice.finish_reason in FINISH_REASONS, choice.finish_reason
    assert choice.message.tool_calls or isinstance(choice.message.content, str), choice.message
    assert_tool_calls_well_formed(answer, OFFERED)


def test_a_turn_without_tools_stops_within_max_tokens(
    client: OpenAI, real_model: RealModel
) -> None:
    answer = ask(client, real_model, messages=ASK, max_tokens=8)
    choice = answer.choices[0]
    assert choice.finish_reason in {"stop", "length"}, choice.finish_reason
    assert isinstance(choice.message.content, str)
    assert answer.usage is not None
    assert answer.usage.completion_tokens <= 8, answer.usage


def test_the_models_file_names_this_server(real_model: RealModel, tmp_path: Path) -> None:
    # What a harbor test writes for `--models`; harbor's own loader reads it,
    # and the server lists the model id it names (what preflight probes).
    path = real_model.models_file(tmp_path / "models.yaml", name="smol", max_output_tokens=256)
    models = load_models_file(path)
    [(role, source)] = models.sources("smol")
    assert (role, source.base_url, source.model) == ("primary", *real_model)
    spec = models.model("smol")
    assert spec is not None and spec.max_output_tokens == 256 and spec.temperature == 0
    with urllib.request.urlopen(f"{source.base_url}/models", timeout=10) as response:
        listed = [entry["id"] for entry in json.load(response)["data"]]
    assert source.model in listed
