"""The `ModelClient` of OpenAI-compatible endpoints: chat completions over
the ``openai`` SDK.

Chat completions, not the Responses API: it is what vLLM, Ollama, the
llama.cpp server, LM Studio, OpenRouter and OpenAI all implement. The SDK
is imported when the first client is made (it costs about 0.4 s), and it
never retries (``max_retries=0``): a retry is the agent's ``attempts:``,
so every try is audited.

Wire rules learnt against real servers (the agent-steps design note, §1):
tool turns are never streamed (streamed, some servers drop the tool calls);
an ``assistant`` message always carries ``content`` (``""`` next to tool
calls; some chat templates fail without it); the answer is parsed here,
from the body received, so that what is not a chat completion is a
`ModelError` and a tool call whose arguments are not JSON still comes back
(`ToolCall.arguments` is None for it).

The API key is read from the variable the models file names
(`open_client`), sent only as the ``Authorization`` header, and never
written into a message, an error or a record. The SDK's own environment
variables (``OPENAI_ORG_ID``, ``OPENAI_PROJECT_ID``, an ``Authorization``
in ``OPENAI_CUSTOM_HEADERS``) are not sent to the endpoint.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import anyio
import httpx2

from mcp_harbor.errors import ModelError
from mcp_harbor.llm._reasons import connection_reason
from mcp_harbor.llm.turn import ModelClient, ModelSource, ToolCall, ToolOffer, Turn

if TYPE_CHECKING:
    import openai

__all__ = ["OpenAIChatClient", "api_key_of", "open_client"]

#: `tool_choice` values passed as they are; any other names a function.
_CHOICES = frozenset({"auto", "none", "required"})
#: How much of an endpoint's error message a `ModelError` quotes.
_QUOTE = 300


def open_client(source: ModelSource, environ: Mapping[str, str] = os.environ) -> ModelClient:
    """The client of `source`, with its API key read from the variable
    ``source.api_key_env`` of `environ` (none when that is None).

    Raises:
        ModelError: (kind ``config``) the key's variable is unset or empty;
            the message names the variable, never a value.
    """
    return OpenAIChatClient(source, api_key_of(source, environ))


def api_key_of(
    source: ModelSource, environ: Mapping[str, str] = os.environ, what: str = "model endpoint"
) -> str | None:
    """The API key of `source` from the variable ``source.api_key_env`` of
    `environ` (None: the endpoint needs none).

    Raises:
        ModelError: (kind ``config``) the variable is unset or empty; the
            message names `what`, the endpoint and the variable, never a value.
    """
    if source.api_key_env is None:
        return None
    key = environ.get(source.api_key_env) or None
    if key is None:
        raise ModelError(
            f"{what} {source.endpoint} ({source.base_url}): the API key variable "
            f"{source.api_key_env} is not set; set it in mcp-harbor's environment, or "
            "remove api_key_env from the endpoint in the models file if it needs no key",
            kind="config",
        )
    return key


class OpenAIChatClient:
    """Answers chat-completion turns of one `ModelSource` (see `ModelClient`).

    One request per `complete`, no retries. `api_key` None sends the
    placeholder ``unused`` (servers without keys ignore it). Make and use a
    client on one event loop; `close` it when done.
    """

    def __init__(self, source: ModelSource, api_key: str | None) -> None:
        import openai

        self.source = source
        self._openai = openai
        self._secret = api_key
        key = api_key or "unused"
        self._client = openai.AsyncOpenAI(
            base_url=source.base_url,
            api_key=key,
            max_retries=0,
            timeout=120.0,  # each request passes its own
            # Explicit, so that an Authorization of OPENAI_CUSTOM_HEADERS is
            # never sent to this endpoint; identity, so that the response
            # hash is of the bytes on the wire.
            default_headers={"Authorization": f"Bearer {key}", "Accept-Encoding": "identity"},
        )
        # The SDK reads these from OPENAI_ORG_ID and OPENAI_PROJECT_ID:
        # OpenAI's accounts, not this endpoint's business.
        self._client.organization = None
        self._client.project = None
        self._closed = False

    def _where(self) -> str:
        s = self.source
        return f"model endpoint {s.endpoint} ({s.base_url}, model {s.model})"

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
        """One non-streamed chat completion; see `ModelClient.complete`.

        `tool_choice` is ``auto``, ``none``, ``required`` or the name of an
        offered function (a forced call); with no `tools`, neither tools nor
        `tool_choice` is sent. `max_tokens` and `temperature` None are not
        sent (the endpoint's defaults). `timeout` bounds the whole request,
        connecting included. `Turn.request_sha256` is of the JSON body sent,
        `Turn.response_sha256` of the body received; `Turn.duration_ms` is
        the request's wall time.

        Raises:
            ModelError: kind ``connection`` (unreachable, or the connection
                broke), ``status`` (an HTTP error; `ModelError.status`
                holds it), ``timeout`` (no whole answer within `timeout`
                seconds) or ``invalid`` (the body is not a chat completion,
                or has no choices). The message names the endpoint and its
                base URL, never the key.

        **Cancellation:** the request in flight is abandoned (its
        connection closed) and the cancellation propagates; nothing is
        retried.
        """
        body: dict[str, Any] = {
            "model": self.source.model,
            "messages": [_wire_message(m) for m in messages],
        }
        extra: dict[str, Any] = {}
        if tools:
            extra["tools"] = [t.to_openai() for t in tools]
            extra["tool_choice"] = (
                tool_choice
                if tool_choice in _CHOICES
                else {"type": "function", "function": {"name": tool_choice}}
            )
        if max_tokens is not None:
            extra["max_tokens"] = max_tokens
        if temperature is not None:
            extra["temperature"] = temperature
        create = self._client.chat.completions.with_raw_response.create
        started = time.monotonic()
        raw = None
        with anyio.move_on_after(timeout) as scope:
            try:
                raw = await create(**body, **extra, timeout=timeout)
                response = raw.content
            except self._openai.OpenAIError as exc:
                self._translate(exc, timeout)
            except httpx2.TimeoutException:  # what the SDK did not wrap
                self._timed_out(timeout)
            except httpx2.HTTPError as exc:
                self._unreachable(exc)
        if raw is None or scope.cancelled_caught:
            self._timed_out(timeout)
        duration_ms = (time.monotonic() - started) * 1000
        return _turn_of(
            response,
            request=raw.http_request.content,
            duration_ms=duration_ms,
            default_model=self.source.model,
            invalid=self._invalid,
        )

    async def close(self) -> None:
        """Close the client's connections. Idempotent.

        **Cancellation:** the connections are closed even so."""
        if not self._closed:
            self._closed = True
            with anyio.CancelScope(shield=True):
                await self._client.close()

    # -- errors ---------------------------------------------------------

    def _scrub(self, text: str) -> str:
        if self._secret:
            text = text.replace(self._secret, "***")
        return text

    def _timed_out(self, timeout: float) -> NoReturn:
        raise ModelError(
            f"{self._where()} did not answer within {timeout:g} s (the turn's timeout); "
            "check the server's load, or raise turn_timeout in the models file",
            kind="timeout",
        )

    def _unreachable(self, exc: BaseException) -> NoReturn:
        raise ModelError(
            self._scrub(
                f"{self._where()} is unreachable ({connection_reason(exc)}); check that the "
                "server runs and that base_url in the models file is right"
            ),
            kind="connection",
        ) from None

    def _invalid(self, what: str) -> NoReturn:
        raise ModelError(
            f"{self._where()} answered something that is not a chat completion: {what}",
            kind="invalid",
        )

    def _translate(self, exc: openai.OpenAIError, timeout: float) -> NoReturn:
        o = self._openai
        if isinstance(exc, o.APITimeoutError):
            self._timed_out(timeout)
        if isinstance(exc, o.APIConnectionError):
            self._unreachable(exc)
        if isinstance(exc, o.APIStatusError):
            detail = _error_message(exc.body) or exc.response.reason_phrase
            raise ModelError(
                self._scrub(f"{self._where()} answered HTTP {exc.status_code}: {detail}"),
                kind="status",
                status=exc.status_code,
            ) from None
        raise ModelError(
            self._scrub(f"{self._where()} failed: {type(exc).__name__}: {exc}"), kind="invalid"
        ) from None


def _wire_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """`message` as sent: an assistant message always has ``content``."""
    out = dict(message)
    if out.get("role") == "assistant" and out.get("content") is None:
        out["content"] = ""
    return out


def _error_message(body: object) -> str:
    """The message of an OpenAI-style error body (the SDK hands over
    ``body["error"]`` or the whole body), cut short."""
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, Mapping) else inner
        if isinstance(message, str) and message.strip():
            return message.strip()[:_QUOTE]
    if isinstance(body, str) and body.strip():
        return body.strip()[:_QUOTE]
    return ""


def _text(content: object, invalid: Callable[[str], NoReturn]) -> str | None:
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: [{type: text, text: ...}]
        parts = [p.get("text") for p in content if isinstance(p, Mapping)]
        if all(isinstance(p, str) for p in parts):
            return "".join(p for p in parts if isinstance(p, str))
    invalid(f"message content is {type(content).__name__}, not text")


def _count(usage: Mapping[str, Any], name: str) -> int | None:
    value = usage.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _turn_of(
    response: bytes,
    *,
    request: bytes,
    duration_ms: float,
    default_model: str,
    invalid: Callable[[str], NoReturn],
) -> Turn:
    """The `Turn` of a chat-completion body; `invalid(what)` raises."""
    try:
        data = json.loads(response)
    except ValueError:
        invalid(f"the body is not JSON ({response[:60]!r})")
    if not isinstance(data, Mapping):
        invalid(f"the body is a JSON {type(data).__name__}, not an object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        invalid("it has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, Mapping) else None
    if not isinstance(message, Mapping):
        invalid("its first choice has no message")
    calls: list[ToolCall] = []
    for index, call in enumerate(message.get("tool_calls") or ()):
        function = call.get("function") if isinstance(call, Mapping) else None
        name = function.get("name") if isinstance(function, Mapping) else None
        if not isinstance(function, Mapping) or not isinstance(name, str) or not name:
            invalid(f"tool call {index + 1} has no function name")
        arguments = function.get("arguments")
        if arguments is None:
            arguments = ""
        elif not isinstance(arguments, str):  # a server that sends an object
            arguments = json.dumps(arguments)
        call_id = call.get("id")
        # Some servers send no id; the next request must still pair the
        # tool message with its call.
        calls.append(
            ToolCall(
                call_id if isinstance(call_id, str) and call_id else f"call_{index}",
                name,
                arguments,
            )
        )
    finish = choice.get("finish_reason")
    usage = data.get("usage")
    usage = usage if isinstance(usage, Mapping) else {}
    model = data.get("model")
    return Turn(
        content=_text(message.get("content"), invalid),
        tool_calls=tuple(calls),
        finish_reason=finish if isinstance(finish, str) and finish else "unknown",
        model=model if isinstance(model, str) and model else default_model,
        request_sha256=hashlib.sha256(request).hexdigest(),
        response_sha256=hashlib.sha256(response).hexdigest(),
        duration_ms=duration_ms,
        prompt_tokens=_count(usage, "prompt_tokens"),
        completion_tokens=_count(usage, "completion_tokens"),
    )
