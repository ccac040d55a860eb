"""What an accepted or refused bearer token is, and the verifier of
``--auth tokens,oauth``: light (no PyJWT), so that the server's modules can
name them without importing the JWT machinery (`verifier`), which loads
only when ``--auth oauth`` is served.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from mcp.server.auth.provider import AccessToken, TokenVerifier

if TYPE_CHECKING:
    from mcp_harbor.server.oauth.settings import AuthConfig
    from mcp_harbor.server.oauth.verifier import OAuthVerifier

__all__ = [
    "REASONS",
    "CombinedVerifier",
    "OAuthAccessToken",
    "Refusal",
    "is_jwt",
    "scopes_missing",
]

#: Every reason a token is refused for (the ``rejected`` records' vocabulary).
REASONS: Final = (
    "401 missing token",
    "401 invalid token",
    "401 malformed token",
    "401 algorithm not allowed",
    "401 wrong token type",
    "401 wrong issuer",
    "401 unknown key",
    "401 issuer unreachable",
    "401 bad signature",
    "401 expired token",
    "401 token not yet valid",
    "401 wrong audience",
    "401 missing claim",
    "401 inactive token",
    "401 introspection unavailable",
    "403 insufficient scope",
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a token was refused: `reason` (one of `REASONS`) and a `detail`
    for the server's log (never the token; claimed values escaped)."""

    reason: str
    detail: str = ""

    @property
    def status(self) -> int:
        return int(self.reason[:3])


class OAuthAccessToken(AccessToken):
    """An accepted OAuth access token, with what harbor made of its claims.

    `principal` is ``NAME:VALUE`` (`mcp_harbor.server.oauth.settings`);
    `client_id` is the OAuth client (``client_id``, else ``azp``, else the
    principal), `subject` the ``sub``. `issuer` and `token_id` (``jti``)
    are for the audit; the token is never recorded."""

    principal: str
    tenant: str = "default"
    groups: tuple[str, ...] = ()
    issuer: str
    token_id: str | None = None


def is_jwt(token: str) -> bool:
    """Whether `token` has a JWT's shape: three dot-separated parts."""
    return token.count(".") == 2


class CombinedVerifier(TokenVerifier):
    """``--auth tokens,oauth`` (or either alone): a static token of the
    tokens file first (its principal is its NAME), then an OAuth token.

    `static` is a `mcp_harbor.server.auth.HarborTokenVerifier` or None."""

    def __init__(self, static: Any, oauth: OAuthVerifier | None) -> None:
        self.static = static
        self.oauth = oauth

    @property
    def config(self) -> AuthConfig | None:
        """The OAuth settings (None: static tokens only)."""
        return None if self.oauth is None else self.oauth.config

    def lookup(self, token: str) -> Any:
        """The tokens file's entry of a static `token`, or None."""
        return None if self.static is None else self.static.lookup(token)

    async def check(self, token: str) -> AccessToken | Refusal:
        """The accepted token (static or OAuth) or why not; never raises.
        **Cancellation:** as `OAuthVerifier.check`."""
        if self.static is not None:
            found: AccessToken | None = await self.static.verify_token(token)
            if found is not None:
                return found
        if self.oauth is None:
            return Refusal("401 invalid token", "not a token of the tokens file")
        if self.static is not None and token.startswith("mh_") and not is_jwt(token):
            return Refusal("401 invalid token", "not a token of the tokens file")
        return await self.oauth.check(token)

    async def verify_token(self, token: str) -> AccessToken | None:
        """The SDK's `TokenVerifier`: `check` without the reason."""
        found = await self.check(token)
        return None if isinstance(found, Refusal) else found


def scopes_missing(token: AccessToken, required: Sequence[str]) -> list[str]:
    """The `required` scopes an OAuth `token` lacks (a static token: none)."""
    if not isinstance(token, OAuthAccessToken):
        return []
    have = set(token.scopes)
    return [s for s in required if s not in have]
