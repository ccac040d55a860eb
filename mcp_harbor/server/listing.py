"""Answer ``tools/list`` from the wire form of an earlier, identical answer.

With 1,000 tools the answer is ~1.7 MB, and the SDK shapes every answer
three times (``model_dump``, then the per-version result check dumps it
again, then the JSON encoding): ~60–250 ms of server CPU per listing. The
answer only changes when the registry does (a reload) or with who asks
(``allow:``), so `ListingCache` keeps the SDK's finished wire form per
registry, per set of ``allow:`` rules that admit the caller and per protocol
version, and hands it back without running the handler or the SDK's
shaping again.

Guarantees:

- A caller never gets another caller's view: the key is the registry's
  `~mcp_harbor.server.registry.Registry.visibility` of the caller, i.e.
  which distinct ``allow:`` rules admit them, so two callers share an
  answer only when they see exactly the same tools.
- A reload swaps in a new registry with an empty cache, and an answer is
  stored only when the registry did not change while it was built.
- Only the plain request is served from the cache (no cursor, no params
  besides ``_meta``), and only on a connection past the handshake (a
  handshake-era session that sent ``initialize``, or any 2026-07-28
  request): anything else takes the SDK's path, with its checks and errors.
- Equal schemas in the cached answer are one shared object (exports
  generated from one template often declare the same arguments), so the
  cache costs little memory; at most `MAX_ANSWERS` answers are kept per
  registry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp.server import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp_harbor.identity import current_caller
from mcp_harbor.server.handlers import Handlers

__all__ = ["MAX_ANSWERS", "ListingCache"]

_SHARED_KEYS = ("inputSchema", "outputSchema")
#: Answers kept per registry. Callers with different views (per-principal
#: ``allow:`` rules) each need their own; past this, the oldest is dropped.
MAX_ANSWERS = 32


def _share_equal_schemas(answer: dict[str, Any]) -> None:
    """Make equal schemas of the answer's tools one object (in place)."""
    seen: dict[str, Any] = {}
    tools = answer.get("tools")
    if not isinstance(tools, list):
        return
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        for key in _SHARED_KEYS:
            schema = tool.get(key)
            if isinstance(schema, dict):
                text = json.dumps(schema, sort_keys=True)
                tool[key] = seen.setdefault(text, schema)


def _plain_request(ctx: ServerRequestContext[Any, Any]) -> bool:
    params = ctx.params
    if params is not None and (not isinstance(params, Mapping) or set(params) - {"_meta"}):
        return False
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return True
    return getattr(ctx.session, "client_params", None) is not None


class ListingCache:
    """Server middleware: ``tools/list`` answered from the registry's cache
    of wire forms (see the module's docstring). Put it after
    `~mcp_harbor.server.handlers.CallerMiddleware`: it needs the caller."""

    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        caller = current_caller.get()
        if ctx.method != "tools/list" or caller is None or not _plain_request(ctx):
            return await call_next(ctx)
        registry = self.handlers.registry
        key = (registry.visibility(caller), ctx.protocol_version)
        answer = registry.answers.get(key)
        if answer is not None:
            return answer  # the SDK copies the top level before it adds to it
        answer = await call_next(ctx)
        if isinstance(answer, dict) and self.handlers.registry is registry:
            _share_equal_schemas(answer)
            if len(registry.answers) >= MAX_ANSWERS:  # many distinct views: drop the oldest
                del registry.answers[next(iter(registry.answers))]
            registry.answers[key] = answer
        return answer
