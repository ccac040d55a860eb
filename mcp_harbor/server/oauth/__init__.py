"""mcp-harbor as an OAuth 2.1 resource server (``serve --auth oauth``).

`http_auth` turns the ``--auth`` mode and the OAuth settings into the
verifier `mcp_harbor.server.app.serve_http` serves with: static tokens,
OAuth access tokens, or both side by side. `settings` says what is
configured and how principals are named; `verifier` how tokens are
checked; `introspection` opaque tokens; `http` the challenges and the
Protected Resource Metadata. Only `accepted` loads with the package (the
server's modules name its classes); PyJWT and the settings load when OAuth
is configured.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mcp_harbor.server.oauth.accepted import CombinedVerifier, OAuthAccessToken, Refusal

if TYPE_CHECKING:
    from mcp_harbor.server.oauth.settings import AuthConfig

__all__ = [
    "AuthMode",
    "CombinedVerifier",
    "OAuthAccessToken",
    "Refusal",
    "http_auth",
    "parse_mode",
]

AuthMode = frozenset[Literal["tokens", "oauth"]]


def parse_mode(text: str) -> AuthMode | None:
    """``tokens``, ``oauth``, ``tokens,oauth`` (either order) as a set, or
    None when `text` is none of them."""
    parts = [p.strip() for p in text.split(",")]
    if not parts or len(set(parts)) != len(parts) or not set(parts) <= {"tokens", "oauth"}:
        return None
    return frozenset(parts)  # type: ignore[arg-type]


def http_auth(mode: AuthMode, config: AuthConfig, tokens: Path) -> CombinedVerifier:
    """The verifier of an ``--auth`` `mode` holding ``oauth``: OAuth tokens
    for `config`, and with ``tokens`` also the tokens file's (re-read when
    it changes; empty is fine, OAuth still guards the server).

    Raises:
        ConfigError: the tokens file is invalid.
    """
    from mcp_harbor.server.auth import HarborTokenVerifier, TokensFile
    from mcp_harbor.server.oauth.verifier import OAuthVerifier

    static = HarborTokenVerifier(TokensFile(tokens)) if "tokens" in mode else None
    return CombinedVerifier(static, OAuthVerifier(config))
