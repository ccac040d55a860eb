"""What harbor asks a model and what it answers: one chat-completion turn.

The agent loop, the audit and the tests speak only these types; the client
that talks to an endpoint (`mcp_harbor.llm.openai_chat`) is behind the
`ModelClient` protocol, so nothing above this package imports ``openai``.

Messages are OpenAI chat-completion messages (``role`` ``system``, ``user``,
``assistant`` or ``tool``), the format every OpenAI-compatible server
(vLLM, Ollama, the llama.cpp server, OpenRouter, OpenAI) implements.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["ModelClient", "ModelSource", "ToolCall", "ToolOffer", "Turn"]


@dataclass(frozen=True, slots=True)
class ModelSource:
    """One place a model name of the models file can be answered from: an
    endpoint and the model id it serves. `api_key_env` is the NAME of the
    environment variable holding the key (None: the endpoint needs none)."""

    endpoint: str
    base_url: str
    model: str
    api_key_env: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        """(base_url, model): preflight probes each distinct pair once."""
        return (self.base_url, self.model)

    def to_json(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "base_url": self.base_url, "model": self.model}


@dataclass(frozen=True, slots=True)
class ToolOffer:
    """A tool as the model is offered it: `name` (letters, digits, ``_``,
    ``-``), `description`, and `parameters`, a JSON Schema of an object (as
    ``tools/list`` shows the export)."""

    name: str
    description: str
    parameters: Mapping[str, Any]

    def to_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": _plain(self.parameters),
            },
        }


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call of a model's answer. `arguments_text` is exactly what
    the model wrote; `arguments` is it parsed when it is a JSON object
    (None when it is not: such a call never reaches the call path)."""

    id: str
    name: str
    arguments_text: str

    @property
    def arguments(self) -> dict[str, Any] | None:
        try:
            value = json.loads(self.arguments_text) if self.arguments_text.strip() else {}
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def to_openai(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments_text},
        }


@dataclass(frozen=True, slots=True)
class Turn:
    """A model's answer to one request.

    `finish_reason` is the endpoint's own (``stop``, ``tool_calls``,
    ``length``, …). `request_sha256` and `response_sha256` are of the
    request body as sent and the response body as received, so that a turn
    record names exactly what was exchanged. `model` is the model id the
    endpoint says answered."""

    content: str | None
    tool_calls: tuple[ToolCall, ...]
    finish_reason: str
    model: str
    request_sha256: str
    response_sha256: str
    duration_ms: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def assistant_message(self) -> dict[str, Any]:
        """This answer as the next request's ``assistant`` message; always
        with ``content`` (``""`` next to tool calls: some servers' chat
        templates fail without it)."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content or ""}
        if self.tool_calls:
            message["tool_calls"] = [c.to_openai() for c in self.tool_calls]
        return message


class ModelClient(Protocol):
    """Answers chat-completion turns from one `ModelSource`."""

    async def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[ToolOffer],
        *,
        max_tokens: int | None,
        temperature: float | None,
        timeout: float,
        tool_choice: str = "auto",
    ) -> Turn:
        """One request, one answer; no retries (a retry is the caller's,
        and audited).

        Raises:
            ModelError: the endpoint could not be reached, answered an HTTP
                error, took longer than `timeout` seconds, or answered
                something that is not a chat completion.

        **Cancellation:** the request in flight is abandoned (its
        connection closed) and the cancellation propagates.
        """
        ...

    async def close(self) -> None:
        """Release the client's connections. Idempotent."""
        ...


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
