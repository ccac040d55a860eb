"""The HTTP side of ``--auth oauth``: who the request is, the challenges,
and the Protected Resource Metadata (RFC 9728).

`protect` wraps the SDK's Streamable HTTP app (built without the SDK's own
bearer middleware) in:

- `HarborBearerBackend` under Starlette's ``AuthenticationMiddleware``:
  checks the ``Authorization: Bearer`` token with a `CombinedVerifier` and
  puts the accepted token where the SDK reads it (``get_access_token()``,
  session ownership by client id, issuer and subject); a refused token's
  reason goes into the ASGI scope (`REFUSAL_KEY`), where
  `mcp_harbor.server.refusals.RefusalRecorder` reads it for the
  ``rejected`` record, and into the log (at most one line per reason every
  `LOG_EVERY` seconds, with how many more);
- `_Gate` on ``/mcp``: no accepted token → 401 ``WWW-Authenticate: Bearer
  resource_metadata="…", scope="…"`` (RFC 6750 §3.1: ``error="invalid_token"``
  and a fixed ``error_description`` only when a token was presented); an
  OAuth token lacking a required scope → 403 ``error="insufficient_scope",
  scope="<all required>"``. Static tokens need no scope.

The metadata is served at ``/.well-known/oauth-protected-resource`` and at
its path form for the audience's path (``…/oauth-protected-resource/mcp``),
without authentication: ``resource`` (the audience), ``authorization_servers``
(every issuer), ``scopes_supported``, ``bearer_methods_supported``.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Final

from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.authentication import AuthCredentials, AuthenticationBackend, BaseUser
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from mcp_harbor.server.oauth.accepted import CombinedVerifier, Refusal, scopes_missing
from mcp_harbor.server.oauth.settings import AuthConfig

__all__ = ["LOG_EVERY", "REFUSAL_KEY", "HarborBearerBackend", "metadata_routes", "protect"]

log = logging.getLogger("mcp_harbor.server")

#: The ASGI scope key holding a refused token's reason (one of `REASONS`).
REFUSAL_KEY: Final = "mcp_harbor.refusal"
#: Seconds between two log lines of the same refusal reason.
LOG_EVERY: Final = 10.0
_PRM: Final = "/.well-known/oauth-protected-resource"


def metadata_path(config: AuthConfig) -> str:
    """The path form of the metadata for the audience (RFC 9728 §3.1)."""
    _, _, rest = config.resource.partition("://")
    _, slash, path = rest.partition("/")
    return f"{_PRM}/{path}" if slash and path else _PRM


def metadata_url(config: AuthConfig) -> str:
    """The absolute URL the challenges name (``resource_metadata``)."""
    scheme, _, rest = config.resource.partition("://")
    host = rest.partition("/")[0]
    return f"{scheme}://{host}{metadata_path(config)}"


class _Throttled:
    """Logs each refusal reason at most once per `LOG_EVERY` seconds."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[float, int]] = {}

    def refused(self, refusal: Refusal, source: str) -> None:
        now = time.monotonic()
        last, untold = self._last.get(refusal.reason, (-LOG_EVERY, 0))
        if now - last < LOG_EVERY:
            self._last[refusal.reason] = (last, untold + 1)
            return
        more = f" ({untold} more since the last such line)" if untold else ""
        log.warning(
            "refused a bearer token from %s: %s: %s%s", source, refusal.reason, refusal.detail, more
        )
        self._last[refusal.reason] = (now, 0)


class HarborBearerBackend(AuthenticationBackend):
    """Authenticates ``Authorization: Bearer`` with `verifier` (see the module docstring)."""

    def __init__(self, verifier: CombinedVerifier, throttle: _Throttled | None = None) -> None:
        self.verifier = verifier
        self._log = throttle or _Throttled()

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        """The accepted token's credentials and user, or None (the reason in
        the scope and the log). **Cancellation:** as `CombinedVerifier.check`."""
        header = conn.headers.get("authorization")
        if header is None:
            return None
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            refusal = Refusal("401 malformed token", "the Authorization header is not Bearer TOKEN")
        else:
            found = await self.verifier.check(token)
            if not isinstance(found, Refusal):
                return AuthCredentials(found.scopes), AuthenticatedUser(found)
            refusal = found
        conn.scope[REFUSAL_KEY] = refusal.reason
        client = conn.client
        self._log.refused(refusal, client.host if client is not None else "unknown")
        return None


def _challenge(
    config: AuthConfig, error: str | None, description: str | None, scopes: list[str]
) -> str:
    parts = []
    if error is not None:
        parts.append(f'error="{error}"')
    if description is not None:
        parts.append(f'error_description="{description}"')
    parts.append(f'resource_metadata="{metadata_url(config)}"')
    if scopes:
        parts.append(f'scope="{" ".join(scopes)}"')
    return "Bearer " + ", ".join(parts)


class _Gate:
    """Requires an accepted token (and the required scopes) on the MCP path."""

    def __init__(
        self, app: ASGIApp, config: AuthConfig, mcp_path: str, throttle: _Throttled
    ) -> None:
        self.app = app
        self.config = config
        self.mcp_path = mcp_path
        self._log = throttle

    @staticmethod
    def _source(scope: Scope) -> str:
        client = scope.get("client")
        return str(client[0]) if client else "unknown"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path", "").rstrip("/") != self.mcp_path:
            await self.app(scope, receive, send)
            return
        user = scope.get("user")
        config = self.config
        if not isinstance(user, AuthenticatedUser):
            reason = scope.get(REFUSAL_KEY)
            if reason is None:
                scope[REFUSAL_KEY] = "401 missing token"
                self._log.refused(
                    Refusal("401 missing token", "no Authorization header"), self._source(scope)
                )
                header = _challenge(config, None, None, config.advertised_scopes())
                body = {"error": "invalid_token", "error_description": "Authentication required"}
            else:
                phrase = str(reason)[4:]
                header = _challenge(config, "invalid_token", phrase, config.advertised_scopes())
                body = {"error": "invalid_token", "error_description": phrase}
            await JSONResponse(body, 401, {"WWW-Authenticate": header})(scope, receive, send)
            return
        missing = scopes_missing(user.access_token, config.required_scopes)
        if missing:
            scope[REFUSAL_KEY] = "403 insufficient scope"
            who = getattr(user.access_token, "principal", "?")
            self._log.refused(
                Refusal("403 insufficient scope", f"{who} lacks {' '.join(missing)}"),
                self._source(scope),
            )
            header = _challenge(
                config,
                "insufficient_scope",
                f"required scope: {' '.join(config.required_scopes)}",
                list(config.required_scopes),
            )
            body = {"error": "insufficient_scope", "scope": " ".join(config.required_scopes)}
            await JSONResponse(body, 403, {"WWW-Authenticate": header})(scope, receive, send)
            return
        await self.app(scope, receive, send)


def metadata_routes(config: AuthConfig) -> list[Route]:
    """The RFC 9728 document at the root and the audience's path form."""
    document = {
        "resource": config.audience.rstrip("/"),
        "authorization_servers": [i.issuer for i in config.issuers],
        "scopes_supported": config.advertised_scopes(),
        "bearer_methods_supported": ["header"],
        "resource_name": "mcp-harbor",
    }

    async def metadata(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(
                status_code=204,
                headers={"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET"},
            )
        return JSONResponse(
            document,
            headers={"Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*"},
        )

    paths = dict.fromkeys([_PRM, metadata_path(config)])
    return [Route(p, metadata, methods=["GET", "OPTIONS"]) for p in paths]


def protect(
    app: ASGIApp, verifier: CombinedVerifier, config: AuthConfig, mcp_path: str = "/mcp"
) -> Any:
    """`app` behind the bearer backend, the SDK's auth context and the gate."""
    throttle = _Throttled()
    gated = _Gate(app, config, mcp_path, throttle)
    with_context = AuthContextMiddleware(gated)
    return AuthenticationMiddleware(with_context, backend=HarborBearerBackend(verifier, throttle))
