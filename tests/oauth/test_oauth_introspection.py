"""Issue 23: opaque tokens checked by RFC 7662 introspection at the real
provider, in this process (`OAuthVerifier` with an ``introspection:``
entry), and its short cache.

Proves: an opaque token becomes its principal with groups, tenant, scopes
and client; a second check within ``cache_seconds`` asks the endpoint
nothing (so a token revoked meanwhile still passes until the cache drops
it: the documented trade-off); ``cache_seconds: 0`` asks every time and
sees the revocation; an unknown token is ``inactive``, an answer for
another audience ``wrong audience``; wrong client credentials are
``introspection unavailable`` and never cached.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_harbor.server.oauth import OAuthAccessToken, Refusal
from mcp_harbor.server.oauth.introspection import Introspector
from mcp_harbor.server.oauth.settings import AuthConfig
from mcp_harbor.server.oauth.verifier import OAuthVerifier

from .oidc import OIDCProvider

pytestmark = pytest.mark.anyio

RESOURCE = OIDCProvider.resource_for(8765)


def verifier(
    oidc: OIDCProvider, monkeypatch: pytest.MonkeyPatch, **introspection: Any
) -> OAuthVerifier:
    monkeypatch.setenv("T_INTROSPECT_ID", oidc.introspection_client_id)
    monkeypatch.setenv("T_INTROSPECT_SECRET", oidc.introspection_client_secret)
    config = AuthConfig.model_validate(
        {
            "audience": RESOURCE,
            "issuers": [
                {
                    "issuer": oidc.issuer,
                    "groups_claim": "groups",
                    "tenant_claim": "tenant",
                    "introspection": {
                        "url": oidc.introspection_url,
                        "client_id_env": "T_INTROSPECT_ID",
                        "client_secret_env": "T_INTROSPECT_SECRET",
                        **introspection,
                    },
                }
            ],
        }
    )
    return OAuthVerifier(config)


def asked(v: OAuthVerifier) -> int:
    (introspector,) = v.introspectors
    assert isinstance(introspector, Introspector)
    return introspector.asked


async def test_opaque_tokens_and_the_cache(
    oidc: OIDCProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = verifier(oidc, monkeypatch, cache_seconds=600)
    token = oidc.opaque_token(None, "read deploy", RESOURCE, groups=["ops"], tenant="acme")
    found = await v.check(token)
    assert isinstance(found, OAuthAccessToken), found
    assert (found.principal, found.client_id) == ("oauth:ci-opaque", "ci-opaque")
    assert (found.groups, found.tenant, found.scopes) == (("ops",), "acme", ["read", "deploy"])
    assert found.token == token
    oidc.revoke(token)
    again = await v.check(token)
    assert isinstance(again, OAuthAccessToken) and again.token == token
    assert asked(v) == 1  # cached: the revocation is not seen within cache_seconds

    fresh = verifier(oidc, monkeypatch, cache_seconds=0)
    refused = await fresh.check(token)
    assert isinstance(refused, Refusal) and refused.reason == "401 inactive token"
    unknown = await fresh.check("no-such-opaque-token")
    assert isinstance(unknown, Refusal) and unknown.reason == "401 inactive token"
    await v.aclose()
    await fresh.aclose()


async def test_another_audience_and_bad_credentials(
    oidc: OIDCProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = verifier(oidc, monkeypatch)
    other = oidc.opaque_token(None, "read", OIDCProvider.resource_for(8766))
    refused = await v.check(other)
    assert isinstance(refused, Refusal) and refused.reason == "401 wrong audience"

    broken = verifier(oidc, monkeypatch)
    monkeypatch.setenv("T_INTROSPECT_SECRET", "wrong-secret")
    token = oidc.opaque_token(None, "read", RESOURCE)
    for _ in range(2):
        found = await broken.check(token)
        assert isinstance(found, Refusal) and found.reason == "401 introspection unavailable"
    assert asked(broken) == 2  # a failure is never cached
    monkeypatch.delenv("T_INTROSPECT_SECRET")
    found = await broken.check(token)
    assert isinstance(found, Refusal) and "T_INTROSPECT_SECRET" in found.detail
    await v.aclose()
    await broken.aclose()
