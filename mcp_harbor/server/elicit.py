"""Asking the client's user to confirm a run, through MCP elicitation.

Two mechanisms, one per protocol era:

- handshake era (2025): the server sends ``elicitation/create`` to the client
  while the call waits (`ElicitingApprover`);
- 2026-07-28: the server may not send requests, so the call answers with an
  ``InputRequiredResult`` carrying the question and a signed ``request_state``;
  the client asks its user and retries the call with the answer
  (`RoundTrip`). The state is an HMAC over the tool, the exact arguments,
  the plan's hash and an expiry, so an answer can only approve the call it
  was asked about, and the call service declines it when the plan changed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Mapping
from typing import Any

import mcp_types as types
from mcp.server import ServerRequestContext

from mcp_harbor.identity import Caller
from mcp_harbor.runctx.approval import Decision
from mcp_harbor.store.base import canonical_json

__all__ = ["CONFIRM_KEY", "CONFIRM_SCHEMA", "ElicitingApprover", "RoundTrip", "answer_of"]

#: The key of the confirmation in ``inputRequests``/``inputResponses``.
CONFIRM_KEY = "mcp-harbor/confirm"
#: What the user is asked to fill in: one yes/no.
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {
            "type": "boolean",
            "title": "Run it?",
            "description": "Yes runs the pipeline; no runs nothing.",
            "default": False,
        }
    },
    "required": ["approve"],
}


def _who(caller: Caller) -> str:
    client = caller.client_name or "the client"
    return f"user of {client} (caller {caller.principal})"


def answer_of(
    result: types.ElicitResult | Any,
    caller: Caller,
    waited_ms: float,
    plan_hash: str | None = None,
) -> Decision:
    """The decision an elicitation answer carries: only ``accept`` with
    ``approve: true`` approves; decline, cancel or anything else declines.
    `plan_hash`: the plan the question was about (None: the one now)."""
    action = getattr(result, "action", None)
    content = getattr(result, "content", None) or {}
    if not isinstance(content, Mapping):
        content = {}
    approved = action == "accept" and content.get("approve") is True
    return Decision(approved, _who(caller), "elicitation", waited_ms, plan_hash=plan_hash)


class ElicitingApprover:
    """Handshake era: ask with ``elicitation/create`` and wait for the answer."""

    def __init__(self, ctx: ServerRequestContext[Any, Any], caller: Caller) -> None:
        self._ctx = ctx
        self._caller = caller

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision:
        import anyio

        began = time.monotonic()
        with anyio.move_on_after(timeout):
            result = await self._ctx.session.elicit_form(
                message,
                CONFIRM_SCHEMA,
                related_request_id=self._ctx.request_id,
            )
            return answer_of(result, self._caller, round((time.monotonic() - began) * 1000, 3))
        return Decision(False, "timeout", "timeout", round((time.monotonic() - began) * 1000, 3))


class RoundTrip:
    """2026-07-28: the question as an ``InputRequiredResult``, and the check
    that a retried call answers the question it was asked."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)

    def _sign(self, payload: bytes) -> str:
        return hmac.new(self._key, payload, hashlib.sha256).hexdigest()

    def ask(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None,
        message: str,
        timeout: float,
        plan_hash: str | None = None,
    ) -> types.InputRequiredResult:
        body = canonical_json(
            {
                "tool": tool,
                "arguments": dict(arguments or {}),
                "plan": plan_hash,
                "expires": time.time() + timeout,
            }
        ).encode("utf-8")
        state = base64.urlsafe_b64encode(body).decode("ascii") + "." + self._sign(body)
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=message,
                requested_schema=CONFIRM_SCHEMA,
            )
        )
        return types.InputRequiredResult(request_state=state, input_requests={CONFIRM_KEY: request})

    def answered(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None,
        state: str | None,
        responses: Mapping[str, Any] | None,
    ) -> tuple[Any, str | None] | None:
        """The user's answer if the retry carries one for exactly this call
        (same tool and arguments, signed by this server, not expired), with
        the hash of the plan it was asked about."""
        if not state or not responses or CONFIRM_KEY not in responses:
            return None
        encoded, _, signature = state.partition(".")
        try:
            body = base64.urlsafe_b64decode(encoded.encode("ascii"))
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return None
        if not hmac.compare_digest(self._sign(body), signature):
            return None
        if data.get("tool") != tool or data.get("expires", 0) < time.time():
            return None
        if canonical_json(data.get("arguments")) != canonical_json(dict(arguments or {})):
            return None
        plan = data.get("plan")
        return responses[CONFIRM_KEY], plan if isinstance(plan, str) else None
