"""The server's approvals endpoint: approvers answer waiting runs over HTTP.

``GET /approvals`` lists the runs waiting for an answer that the token's
principal may give; ``POST /approvals/RUN_ID`` with
``{"decision": "approve" | "deny", "reason": TEXT}`` answers one (what
``mcp-harbor approve|deny RUN_ID --url URL --token TOKEN`` sends). Each
request needs a bearer token of the tokens file (the principal is the
token's name, with its tenant and groups) or, with ``--auth oauth``, an
OAuth access token the server accepts (``NAME:SUB``, its groups, tenant
and scopes: ``approvers: [scope:approve]`` works) and is checked against the run's
``approvers:`` exactly as a local answer is (`answer_request`: never the
caller itself); a run whose export names no ``approvers:`` is answered only
locally, by an operator of the store. A request carrying an ``Origin`` header is refused: no web
page may answer on a browser's behalf.

Answers (JSON): 200 with the run answered (or the list); 400 a malformed
body; 401 no or an unknown token; 403 this principal may not answer, a
browser's request, or a server without tokens; 404 no such waiting run; 409
already answered; 503 the store failed. Nothing here raises into the server.
A 401 and a browser's 403 are refusals before any handler, recorded as
``rejected`` (`mcp_harbor.server.refusals`); the other answers are this
endpoint's own, and logged.
"""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from mcp_harbor._visible import visible
from mcp_harbor.errors import ApprovalRefused, StoreError
from mcp_harbor.identity import Caller
from mcp_harbor.runctx.approval import answer_request, may_answer
from mcp_harbor.server.auth import HarborTokenVerifier
from mcp_harbor.server.oauth.accepted import CombinedVerifier, OAuthAccessToken
from mcp_harbor.server.refusals import mark_handled
from mcp_harbor.store.base import Store

__all__ = ["MAX_REASON_CHARS", "approval_routes"]

log = logging.getLogger("mcp_harbor.approval")

#: The longest ``reason`` an answer may carry.
MAX_REASON_CHARS = 2000

_STATUS_OF = {"unknown": 404, "answered": 409, "forbidden": 403}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _oauth_approver(request: Request, verifier: Any) -> Caller | JSONResponse | None:
    """With ``--auth oauth``: the caller of the OAuth token the bearer
    backend accepted for `request` (its principal, groups, tenant, scopes),
    a 403 when it lacks a required scope, or None (no OAuth token)."""
    token = getattr(request.scope.get("user"), "access_token", None)
    if not isinstance(token, OAuthAccessToken):
        return None
    config = getattr(verifier, "config", None)
    required = list(config.required_scopes) if config is not None else []
    if missing := [s for s in required if s not in token.scopes]:
        return _error(403, f"this token lacks the required scope {' '.join(missing)}")
    mark_handled(request)
    client = request.client
    return Caller(
        transport="http",
        principal=token.principal,
        tenant=token.tenant,
        groups=token.groups,
        scopes=tuple(token.scopes),
        issuer=token.issuer,
        subject=token.subject,
        client_id=token.client_id,
        token_id=token.token_id,
        remote_addr=None if client is None else client.host,
    )


def _approver(
    request: Request, verifier: HarborTokenVerifier | CombinedVerifier | None
) -> Caller | JSONResponse:
    """The authenticated principal of `request`, or the answer refusing it."""
    if "origin" in request.headers:
        return _error(403, "approvals are not answered from a web page (Origin header present)")
    oauth = _oauth_approver(request, verifier)
    if oauth is not None:
        return oauth
    if verifier is None:
        mark_handled(request)
        return _error(
            403,
            "this server has no tokens: answer locally with mcp-harbor approve|deny RUN_ID --db …",
        )
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    entry = verifier.lookup(token.strip()) if scheme.lower() == "bearer" and token else None
    if entry is None:
        return JSONResponse(
            {"error": "a valid bearer token is needed (Authorization: Bearer TOKEN)"},
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    # Authenticated: what follows is this endpoint's answer, not a refusal
    # before any handler (a missing or unknown token, an Origin, are those).
    mark_handled(request)
    client = request.client
    return Caller(
        transport="http",
        principal=entry.name,
        tenant=entry.tenant,
        groups=entry.groups,
        remote_addr=None if client is None else client.host,
    )


def approval_routes(
    store: Store, verifier: HarborTokenVerifier | CombinedVerifier | None
) -> list[Route]:
    """The two routes, answering through `store` (the server's own)."""

    async def pending(request: Request) -> JSONResponse:
        approver = _approver(request, verifier)
        if isinstance(approver, JSONResponse):
            return approver
        try:
            waiting = await anyio.to_thread.run_sync(store.pending_approvals)
        except StoreError as exc:
            log.error("approvals: %s", exc)
            return _error(503, "the store cannot be read now; try again")
        mine = [
            item
            for item in waiting
            if item.get("approvers") is not None
            and may_answer(approver, item["principal"], item["approvers"]) is None
        ]
        return JSONResponse({"approvals": mine})

    async def answer(request: Request) -> JSONResponse:
        approver = _approver(request, verifier)
        if isinstance(approver, JSONResponse):
            return approver
        run_id = request.path_params["run_id"]
        try:
            body: Any = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError):
            return _error(400, 'the body is JSON: {"decision": "approve" | "deny", "reason": …}')
        if not isinstance(body, dict) or set(body) - {"decision", "reason"}:
            return _error(400, 'the body is {"decision": "approve" | "deny", "reason": TEXT}')
        decision, reason = body.get("decision"), body.get("reason")
        if decision not in ("approve", "deny"):
            return _error(400, 'decision must be "approve" or "deny"')
        if reason is not None and (not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS):
            return _error(400, f"reason must be a text of at most {MAX_REASON_CHARS} characters")
        try:
            answered = await anyio.to_thread.run_sync(
                partial(
                    answer_request,
                    store,
                    run_id,
                    approver,
                    decision == "approve",
                    reason,
                    "http",
                    require_approvers=True,
                )
            )
        except ApprovalRefused as exc:
            log.warning("approvals: %s (by %s over HTTP)", visible(str(exc)), approver.describe())
            return _error(_STATUS_OF.get(exc.why, 403), str(exc))
        except StoreError as exc:
            log.error("approvals: %s", exc)
            return _error(503, "the store cannot be written now; try again")
        log.warning(
            "run %s %s by %s over HTTP", visible(run_id), answered["decision"], approver.principal
        )
        return JSONResponse(
            {
                "run_id": run_id,
                "tool": answered["tool"],
                "decision": answered["decision"],
                "by": approver.principal,
                "reason": reason,
                "plan_hash": answered["plan_hash"],
            }
        )

    return [
        Route("/approvals", pending, methods=["GET"]),
        Route("/approvals/{run_id}", answer, methods=["POST"]),
    ]
