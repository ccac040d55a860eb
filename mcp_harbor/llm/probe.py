"""Is a model source ready? The preflight probe of one (endpoint, model).

``GET {base_url}/models`` must answer within the timeout and list the
model id. ``/models`` cannot tell whether tool calling is on (vLLM needs
``--enable-auto-tool-choice``, the llama.cpp server ``--jinja``), so with
``tool_call=True`` the probe also sends a small forced tool call and wants
one back.

Synchronous, on ``httpx2`` directly (what ``mcp`` and ``openai`` already
use): preflight runs it in its worker thread, and the ``openai`` import
would cost more than the probe.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import httpx2

from mcp_harbor.llm._reasons import connection_reason
from mcp_harbor.llm.turn import ModelSource

__all__ = ["PROBE_TOOL", "probe_source"]

#: Model ids a "does not list" reason quotes before "… and N more".
_LISTED = 5
#: The function the ``tool_call`` probe offers and forces (``tool_choice``
#: names it), with no parameters, under ``max_tokens`` 32.
PROBE_TOOL = "harbor_probe"


def probe_source(
    source: ModelSource,
    *,
    timeout: float = 2.0,
    tool_call: bool = False,
    environ: Mapping[str, str] = os.environ,
) -> str | None:
    """None when `source` is ready, else a short reason, such as
    ``unreachable (connection refused)``, ``HTTP 401 from GET /models``,
    ``does not list model X (lists: a, b)``, ``api key variable
    OPENROUTER_API_KEY is not set`` or ``tool calling is off (a forced tool
    call came back without one)``.

    Each request may take `timeout` seconds (connecting, and each read).
    The key, read from ``source.api_key_env`` of `environ`, is only sent as
    the ``Authorization`` header; no reason quotes it or anything the
    endpoint answered beyond model ids. Never raises for what the endpoint
    does (a reason says it); one request, or two with `tool_call`, no retries.
    """
    headers = {"Accept": "application/json"}
    if source.api_key_env is not None:
        key = environ.get(source.api_key_env)
        if not key:
            return f"api key variable {source.api_key_env} is not set"
        headers["Authorization"] = f"Bearer {key}"
    base = source.base_url.rstrip("/")
    with httpx2.Client(timeout=timeout, headers=headers) as client:
        answer = _send(client, "GET", f"{base}/models", timeout)
        if isinstance(answer, str):
            return answer
        if answer.status_code != 200:
            return f"HTTP {answer.status_code} from GET /models"
        ids = _model_ids(answer)
        if ids is None:
            return "GET /models answered something that is not a model list"
        if source.model not in ids:
            return f"does not list model {source.model} ({_lists(ids)})"
        if tool_call:
            return _probe_tool_call(client, base, source.model, timeout)
    return None


def _send(
    client: httpx2.Client, method: str, url: str, timeout: float, body: Any = None
) -> httpx2.Response | str:
    """The response, or an ``unreachable (…)`` reason."""
    try:
        return client.request(method, url, json=body)
    except httpx2.TimeoutException:
        return f"unreachable (no answer within {timeout:g} s)"
    except httpx2.HTTPError as exc:
        return f"unreachable ({connection_reason(exc)})"


def _model_ids(response: httpx2.Response) -> list[str] | None:
    try:
        data = response.json()
    except ValueError:
        return None
    entries = data.get("data") if isinstance(data, Mapping) else None
    if not isinstance(entries, list):
        return None
    return [e["id"] for e in entries if isinstance(e, Mapping) and isinstance(e.get("id"), str)]


def _lists(ids: list[str]) -> str:
    if not ids:
        return "it lists none"
    shown = ", ".join(ids[:_LISTED])
    more = f", … and {len(ids) - _LISTED} more" if len(ids) > _LISTED else ""
    return f"lists: {shown}{more}"


def _probe_tool_call(client: httpx2.Client, base: str, model: str, timeout: float) -> str | None:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": f"Call the function {PROBE_TOOL}."}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": PROBE_TOOL,
                    "description": "Answers nothing; mcp-harbor checks that tool calling works.",
                    "parameters": {"type": "object", "properties": {}},
                },
            }
        ],
        "tool_choice": {"type": "function", "function": {"name": PROBE_TOOL}},
        "max_tokens": 32,
        "temperature": 0,
    }
    answer = _send(client, "POST", f"{base}/chat/completions", timeout, body)
    if isinstance(answer, str):
        return answer
    if answer.status_code != 200:
        return f"HTTP {answer.status_code} from POST /chat/completions (a forced tool call)"
    try:
        calls = answer.json()["choices"][0]["message"].get("tool_calls")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "POST /chat/completions answered something that is not a chat completion"
    if not calls:
        return "tool calling is off (a forced tool call came back without one)"
    return None
