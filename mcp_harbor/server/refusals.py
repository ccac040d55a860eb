"""The HTTP requests refused before any handler ran, seen from outside the
app: which refusal each 4xx answer is, and who sent it.

`RefusalRecorder` wraps the whole ASGI app (the SDK's Streamable HTTP app,
its bearer-token and transport-security checks included). It watches the
status of every answer; a 4xx answer to a request that no mcp-harbor
handler handled (`mark_handled`) is reported to a
`mcp_harbor.store.rejections.RejectionCounter` with its reason, read from
the status and the first `_BODY_CAP` bytes of the SDK's error body (these
were found by experiment against mcp 2.3.0; see docs/security.md):

=====  ==========================================================  ===========================
HTTP   SDK answer                                                  reason
=====  ==========================================================  ===========================
401    ``invalid_token`` without / with an Authorization header    ``401 missing token`` /
                                                                   ``401 invalid token``
401    ``--auth oauth``: the reason the bearer backend put in the  ``401 expired token``,
       scope (`mcp_harbor.server.oauth.verifier.REASONS`)          ``401 wrong audience``, …
403    ``Invalid Origin header`` / ``insufficient_scope``          ``403 origin not allowed`` /
                                                                   ``403 insufficient scope``
421    ``Invalid Host header``                                     ``421 host not allowed``
400    ``Invalid Content-Type header``                             ``400 invalid content type``
400    JSON-RPC -32700                                             ``400 invalid JSON``
400    -32600 (a batch, no request object), legacy -32602          ``400 invalid JSON-RPC``
       ``Validation error``
400    -32600 ``Missing session ID``                               ``400 missing session id``
400    -32602 (a request's params fail the SDK's validation)       ``400 invalid params``
400    -32020 naming ``mcp-method`` / ``mcp-name`` /               ``400 Mcp-Method mismatch``,
       ``mcp-protocol-version`` / ``Mcp-Param-*``, or a            ``400 Mcp-Name mismatch``, …
       duplicated header                                           ``400 duplicated header``
400    -32022 / -32021 (2026-07-28 ladder)                         ``400 unsupported protocol
                                                                   version``, ``400 missing
                                                                   client capability``
404    -32601 / ``Session not found`` / another path               ``404 method not found``,
                                                                   ``404 unknown session``,
                                                                   ``404 no such path``
405    406    409    413    415                                    ``405 method not allowed``, …
=====  ==========================================================  ===========================

A 4xx from a handler (``Unknown tool``, answered 400 in the 2026-07-28
era) is not reported: the call path audits those calls itself. Neither are
answers below 400 (a tool error is a 200), nor JSON-RPC errors the
handshake era sends inside a 200 answer.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Final, final

from mcp_types import (
    HEADER_MISMATCH,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp_harbor.store.rejections import Rejection, RejectionCounter

__all__ = ["RefusalRecorder", "mark_handled", "reason_of"]

log = logging.getLogger("mcp_harbor.server")

#: The ASGI scope key a handler sets: this request reached mcp-harbor.
_HANDLED: Final = "mcp_harbor.handled"
#: Bytes of a refusal's body read to tell its reason (the SDK's are < 300).
_BODY_CAP: Final = 1024

_CODE: Final = re.compile(r'"code"\s*:\s*(-?\d{1,9})')
_MESSAGE: Final = re.compile(r'"message"\s*:\s*"([^"\\]{0,200})')

_BY_STATUS: Final[dict[int, str]] = {
    403: "403 forbidden",
    404: "404 not found",
    405: "405 method not allowed",
    406: "406 not acceptable",
    409: "409 conflict",
    413: "413 body too large",
    415: "415 unsupported media type",
    421: "421 host not allowed",
}
_MISMATCHED: Final = (
    ("mcp-method ", "400 Mcp-Method mismatch"),
    ("mcp-name ", "400 Mcp-Name mismatch"),
    ("mcp-protocol-version ", "400 MCP-Protocol-Version mismatch"),
    ("mcp-param-", "400 Mcp-Param mismatch"),
)
_BY_CODE: Final[dict[int, str]] = {
    PARSE_ERROR: "400 invalid JSON",
    INVALID_REQUEST: "400 invalid JSON-RPC",
    INVALID_PARAMS: "400 invalid params",
    MISSING_REQUIRED_CLIENT_CAPABILITY: "400 missing client capability",
    UNSUPPORTED_PROTOCOL_VERSION: "400 unsupported protocol version",
    METHOD_NOT_FOUND: "404 method not found",
}


def mark_handled(request: Any) -> None:
    """Say that an mcp-harbor handler handles `request` (the Starlette
    request of ``ctx.request``; anything else, stdio's None, is ignored):
    its answer, whatever its status, is the call path's to audit."""
    scope = getattr(request, "scope", None)
    if isinstance(scope, dict):
        scope[_HANDLED] = True


def _error_of(body: bytes) -> tuple[int | None, str]:
    """The JSON-RPC error code and message of a refusal's body (None, the
    body's text when it is none)."""
    try:
        data = json.loads(body)
    except ValueError:
        # Not JSON, or cut at `_BODY_CAP` (the handshake era's validation
        # errors run long): the code and the message's start, if there.
        text = body.decode("utf-8", "replace")
        found = _CODE.search(text)
        if found is None:
            return None, text
        message = _MESSAGE.search(text)
        return int(found[1]), message[1] if message is not None else ""
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), int):
        return error["code"], str(error.get("message", ""))
    if isinstance(error, str):  # the bearer middleware: {"error": "invalid_token"}
        return None, error
    return None, ""


def reason_of(status: int, body: bytes, has_authorization: bool) -> str:
    """The reason of one refusal: its `status` and a short phrase from a
    fixed vocabulary (never text the client chose), from the first bytes
    of the answer's `body` and whether the request carried an
    ``Authorization`` header."""
    if status == 401:
        return "401 invalid token" if has_authorization else "401 missing token"
    code, message = _error_of(body)
    if status == 403:
        if "Origin" in message:
            return "403 origin not allowed"
        if "insufficient_scope" in message:
            return "403 insufficient scope"
    if status == 404:
        if code == METHOD_NOT_FOUND:
            return "404 method not found"
        if "Session not found" in message:
            return "404 unknown session"
        if code is None:
            return "404 no such path"
    if status == 400:
        lowered = message.lower()
        if code is None and "content-type" in lowered:
            return "400 invalid content type"
        if code == HEADER_MISMATCH:
            if "more than once" in lowered:
                return "400 duplicated header"
            for prefix, reason in _MISMATCHED:
                if lowered.startswith(prefix):
                    return reason
            return "400 header mismatch"
        if code == INVALID_REQUEST and "session id" in lowered:
            return "400 missing session id"
        if code == INVALID_PARAMS and message.startswith("Validation error"):
            return "400 invalid JSON-RPC"  # the handshake era's answer to a batch
        if code in _BY_CODE:
            return _BY_CODE[code]
    return _BY_STATUS.get(status, f"{status} refused")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _principal(scope: Scope) -> str | None:
    """The principal of the valid token the request presented (a static
    token's name, an OAuth token's ``NAME:VALUE``), or None."""
    token = getattr(scope.get("user"), "access_token", None)
    name = getattr(token, "principal", None) or getattr(token, "client_id", None)
    return name if isinstance(name, str) else None


#: The ASGI scope key where the OAuth bearer backend puts a refused token's
#: reason (`mcp_harbor.server.oauth.http.REFUSAL_KEY`): one of its fixed
#: vocabulary (``401 expired token``, ``403 insufficient scope`` …).
_REFUSAL: Final = "mcp_harbor.refusal"


@final
class RefusalRecorder:
    """ASGI middleware: reports every request answered 4xx before any
    handler ran to `counter` (see the module docstring); passes everything
    through unchanged. Costs one wrapped ``send`` per request; a refusal's
    body is read only up to `_BODY_CAP` bytes."""

    def __init__(self, app: ASGIApp, counter: RejectionCounter) -> None:
        self.app = app
        self.counter = counter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 0
        body = bytearray()

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif 400 <= status < 500 and message["type"] == "http.response.body":
                body.extend(message.get("body", b"")[: _BODY_CAP - len(body)])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if 400 <= status < 500 and not scope.get(_HANDLED):
                self._count(scope, status, bytes(body))

    @staticmethod
    def _reason(scope: Scope, status: int, body: bytes) -> str:
        told = scope.get(_REFUSAL)
        if isinstance(told, str) and told[:3] == str(status):
            return told
        return reason_of(status, body, _header(scope, b"authorization") is not None)

    def _count(self, scope: Scope, status: int, body: bytes) -> None:
        try:
            client = scope.get("client")
            self.counter.add(
                Rejection(
                    source=str(client[0]) if client else "unknown",
                    reason=self._reason(scope, status, body),
                    principal=_principal(scope),
                    tool=_header(scope, b"mcp-name"),
                    user_agent=_header(scope, b"user-agent"),
                    origin=_header(scope, b"origin"),
                    host=_header(scope, b"host"),
                )
            )
        except Exception:  # counting must never break an answer already sent
            log.exception("could not count a refused request")
