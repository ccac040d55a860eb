"""The preflight probe of a model source against the scripted server over
loopback: ready, unreachable, an HTTP error, a model not listed, a missing
key, and tool calling off or on."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest
from scripted_model import ScriptedModel

from mcp_harbor.llm.probe import PROBE_TOOL, probe_source
from mcp_harbor.llm.turn import ModelSource

Factory = Callable[..., ScriptedModel]


def source_of(
    server: ScriptedModel, model: str = "coder", key_env: str | None = None
) -> ModelSource:
    return ModelSource("gpu-box", server.base_url, model, key_env)


def test_a_listed_model_is_ready(scripted_model: Factory) -> None:
    server = scripted_model([], models=["other", "coder"])
    assert probe_source(source_of(server)) is None
    assert [(r.method, r.path) for r in server.requests] == [("GET", "/v1/models")]
    assert "authorization" not in server.requests[0].headers


def test_a_model_not_listed_is_not_ready(scripted_model: Factory) -> None:
    server = scripted_model([], models=["a", "b"])
    assert probe_source(source_of(server)) == "does not list model coder (lists: a, b)"
    server.models = [f"m{i}" for i in range(8)]
    assert probe_source(source_of(server)) == (
        "does not list model coder (lists: m0, m1, m2, m3, m4, … and 3 more)"
    )
    server.models = []
    assert probe_source(source_of(server)) == "does not list model coder (it lists none)"


@pytest.mark.parametrize("status", [401, 404, 503])
def test_an_http_error_is_not_ready(scripted_model: Factory, status: int) -> None:
    server = scripted_model([], models=["coder"], models_status=status)
    assert probe_source(source_of(server)) == f"HTTP {status} from GET /models"


def test_a_base_url_without_v1(scripted_model: Factory) -> None:
    server = scripted_model([], models=["coder"])
    source = ModelSource("gpu-box", f"http://127.0.0.1:{server.port}", "coder")
    assert probe_source(source) == "HTTP 404 from GET /models"
    assert server.requests[0].path == "/models"


@pytest.fixture
def refusing_port() -> Iterator[int]:
    """A port bound but not listening: connecting to it is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def test_an_unreachable_endpoint(refusing_port: int) -> None:
    source = ModelSource("gpu-box", f"http://127.0.0.1:{refusing_port}/v1", "coder")
    assert probe_source(source) == "unreachable (connection refused)"


def test_a_silent_endpoint(scripted_model: Factory) -> None:
    server = scripted_model([], models=["coder"], models_delay=3)
    assert probe_source(source_of(server), timeout=0.2) == "unreachable (no answer within 0.2 s)"


def test_the_key_comes_from_its_variable(scripted_model: Factory) -> None:
    server = scripted_model([], models=["coder"])
    source = source_of(server, key_env="OPENROUTER_API_KEY")
    assert probe_source(source, environ={}) == "api key variable OPENROUTER_API_KEY is not set"
    assert probe_source(source, environ={"OPENROUTER_API_KEY": ""}) == (
        "api key variable OPENROUTER_API_KEY is not set"
    )
    assert server.requests == []
    assert probe_source(source, environ={"OPENROUTER_API_KEY": "sk-or-1"}) is None
    assert server.requests[0].headers["authorization"] == "Bearer sk-or-1"


FORCED = {
    "tools": [PROBE_TOOL],
    "tool_choice": {"type": "function", "function": {"name": PROBE_TOOL}},
    "model": "coder",
}


def test_tool_calling_on(scripted_model: Factory) -> None:
    server = scripted_model(
        [
            {
                "expect": FORCED,
                "respond": {"tool_calls": [{"id": "c", "name": PROBE_TOOL, "arguments": {}}]},
            }
        ],
        models=["coder"],
    )
    assert probe_source(source_of(server), tool_call=True) is None
    server.assert_done()
    assert server.requests[1].body["max_tokens"] == 32


def test_tool_calling_off(scripted_model: Factory) -> None:
    server = scripted_model(
        [
            {"expect": FORCED, "respond": {"content": "I would call harbor_probe."}},
            {"expect": FORCED, "respond": {"status": 400, "error": "tool_choice needs --jinja"}},
            {"expect": FORCED, "respond": {"raw": "{}"}},
        ],
        models=["coder"],
    )
    source = source_of(server)
    assert probe_source(source, tool_call=True) == (
        "tool calling is off (a forced tool call came back without one)"
    )
    assert probe_source(source, tool_call=True) == (
        "HTTP 400 from POST /chat/completions (a forced tool call)"
    )
    assert probe_source(source, tool_call=True) == (
        "POST /chat/completions answered something that is not a chat completion"
    )
    server.assert_done()


def test_no_tool_call_when_the_model_is_not_listed(scripted_model: Factory) -> None:
    server = scripted_model([], models=["a"])
    assert probe_source(source_of(server), tool_call=True) == "does not list model coder (lists: a)"
    assert len(server.requests) == 1
