"""The ``oidc`` fixture's tokens are real: PyJWT verifies each against the
provider's published JWKS, and the claims are what the fixture promises
(audience = the resource asked for, subject, client, scopes, groups and
tenant); a tampered, expired or foreign-audience token is refused, key
rotation publishes a new signing key, opaque tokens only introspection
explains."""

from __future__ import annotations

from typing import Any

import jwt
import pytest

from .oidc import DIRECTORY, OTHER_RESOURCE, OIDCProvider, ProviderRefused

RESOURCE = OIDCProvider.resource_for(8765)
ALGORITHMS = ["RS256"]


def verify(oidc: OIDCProvider, token: str, audience: str = RESOURCE) -> dict[str, Any]:
    """The claims of `token` as a resource server at `audience` checks it."""
    key = jwt.PyJWKClient(oidc.jwks_url, cache_jwk_set=False).get_signing_key_from_jwt(token)
    claims: dict[str, Any] = jwt.decode(
        token, key, algorithms=ALGORITHMS, audience=audience, issuer=oidc.issuer,
        options={"require": ["exp", "iat", "iss", "aud", "sub", "jti"]},
    )  # fmt: skip
    return claims


def test_discovery_names_the_fixture_endpoints(oidc: OIDCProvider) -> None:
    meta = oidc.metadata()
    assert oidc.issuer.startswith("http://127.0.0.1:") and not oidc.issuer.endswith("/")
    assert meta["issuer"] == oidc.issuer
    assert meta["jwks_uri"] == oidc.jwks_url
    assert meta["token_endpoint"] == oidc.token_url
    assert meta["introspection_endpoint"] == oidc.introspection_url
    assert meta["authorization_endpoint"] == oidc.authorization_url
    assert "S256" in meta["code_challenge_methods_supported"]


def test_client_credentials_token_is_a_signed_jwt_for_the_resource(oidc: OIDCProvider) -> None:
    token = oidc.client_credentials_token(resource=RESOURCE)
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256" and header["typ"] == "at+jwt" and header["kid"] == oidc.kid
    claims = verify(oidc, token)
    assert claims["sub"] == claims["client_id"] == oidc.client_id == "ci-bot"
    assert claims["aud"] == RESOURCE
    assert claims["scope"] == "read deploy"
    assert "groups" not in claims and "tenant" not in claims


def test_unknown_scopes_are_dropped_and_claims_can_be_given(oidc: OIDCProvider) -> None:
    token = oidc.client_credentials_token(
        scope="read bogus admin", resource=RESOURCE, groups=["ci"], tenant="acme"
    )
    claims = verify(oidc, token)
    assert claims["scope"] == "read admin"
    assert (claims["groups"], claims["tenant"]) == (["ci"], "acme")
    assert "groups" not in verify(oidc, oidc.client_credentials_token(resource=RESOURCE))


def test_a_token_for_another_resource_fails_this_audience(oidc: OIDCProvider) -> None:
    token = oidc.client_credentials_token(resource=OTHER_RESOURCE)
    assert verify(oidc, token, audience=OTHER_RESOURCE)["aud"] == OTHER_RESOURCE
    with pytest.raises(jwt.InvalidAudienceError):
        verify(oidc, token)
    other_port = oidc.client_credentials_token(resource=oidc.resource_for(8766))
    with pytest.raises(jwt.InvalidAudienceError):
        verify(oidc, other_port)


def test_an_unregistered_resource_is_refused_by_the_provider(oidc: OIDCProvider) -> None:
    with pytest.raises(ProviderRefused) as refused:
        oidc.client_credentials_token(resource="https://unknown.example/mcp")
    assert refused.value.error == "invalid_target"
    with pytest.raises(ProviderRefused) as wrong_secret:
        oidc.client_credentials_token(client="nobody", resource=RESOURCE)
    assert wrong_secret.value.error == "invalid_client"


def test_a_tampered_signature_is_refused(oidc: OIDCProvider) -> None:
    head, body, signature = oidc.client_credentials_token(resource=RESOURCE).split(".")
    flipped = ("A" if signature[10] != "A" else "B").join((signature[:10], signature[11:]))
    with pytest.raises(jwt.InvalidSignatureError):
        verify(oidc, f"{head}.{body}.{flipped}")


def test_auth_code_token_carries_the_user_and_directory_claims(oidc: OIDCProvider) -> None:
    claims = verify(oidc, oidc.auth_code_token(user="alice", scope="read", resource=RESOURCE))
    assert (claims["sub"], claims["client_id"], claims["aud"]) == ("alice", "desktop", RESOURCE)
    assert claims["scope"] == "read"
    assert claims["groups"] == DIRECTORY["alice"]["groups"] == ["ops"]
    assert claims["tenant"] == DIRECTORY["alice"]["tenant"] == "acme"


def test_auth_code_claims_overridden_for_one_token(oidc: OIDCProvider) -> None:
    token = oidc.auth_code_token(
        user="bob",
        scope="read deploy",
        resource=RESOURCE,
        groups=["ops", "release"],
        tenant="globex",
    )
    claims = verify(oidc, token)
    assert (claims["sub"], claims["groups"], claims["tenant"]) == (
        "bob", ["ops", "release"], "globex",
    )  # fmt: skip
    again = verify(oidc, oidc.auth_code_token(user="bob", resource=RESOURCE))
    assert (again["groups"], again["tenant"]) == (["dev"], "acme")
    stranger = verify(oidc, oidc.auth_code_token(user="mallory", resource=RESOURCE))
    assert stranger["sub"] == "mallory" and "groups" not in stranger and "tenant" not in stranger


def test_claims_blocks_nest_and_restore(oidc: OIDCProvider) -> None:
    with oidc.claims("ci-bot", groups=["ci"]):
        with oidc.claims("alice", tenant="globex"), oidc.claims("ci-bot", tenant="acme"):
            bot = verify(oidc, oidc.client_credentials_token(resource=RESOURCE))
            alice = verify(oidc, oidc.auth_code_token(resource=RESOURCE))
        outer = verify(oidc, oidc.client_credentials_token(resource=RESOURCE))
    assert (bot["groups"], bot["tenant"]) == (["ci"], "acme")
    assert (alice["groups"], alice["tenant"]) == (["ops"], "globex")
    assert outer["groups"] == ["ci"] and "tenant" not in outer
    after = verify(oidc, oidc.client_credentials_token(resource=RESOURCE))
    assert "groups" not in after and "tenant" not in after


def test_private_oidc_is_another_issuer(oidc: OIDCProvider, private_oidc: OIDCProvider) -> None:
    assert private_oidc.issuer != oidc.issuer and private_oidc.kid != oidc.kid
    token = private_oidc.client_credentials_token(resource=RESOURCE)
    assert verify(private_oidc, token)["iss"] == private_oidc.issuer
    with pytest.raises(jwt.PyJWKClientError):
        verify(oidc, token)


def test_expired_token_is_signed_and_expired(oidc: OIDCProvider) -> None:
    token = oidc.expired_token(resource=RESOURCE)
    with pytest.raises(jwt.ExpiredSignatureError):
        verify(oidc, token)
    key = jwt.PyJWKClient(oidc.jwks_url, cache_jwk_set=False).get_signing_key_from_jwt(token)
    claims = jwt.decode(
        token, key, algorithms=ALGORITHMS, audience=RESOURCE, issuer=oidc.issuer,
        leeway=3000,  # an hour past exp: still expired with any sane leeway
        options={"verify_exp": False},
    )  # fmt: skip
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["client_id"] == "ci-expired"


def test_rotate_keys_signs_with_a_new_key_and_keeps_the_old(private_oidc: OIDCProvider) -> None:
    oidc = private_oidc
    before = oidc.client_credentials_token(resource=RESOURCE)
    old_kid = jwt.get_unverified_header(before)["kid"]
    new_kid = oidc.rotate_keys()
    assert new_kid != old_kid and oidc.kid == new_kid
    assert [key["kid"] for key in oidc.jwks()["keys"]] == [new_kid, old_kid]
    after = oidc.client_credentials_token(resource=RESOURCE)
    assert jwt.get_unverified_header(after)["kid"] == new_kid
    assert verify(oidc, before)["sub"] == verify(oidc, after)["sub"] == "ci-bot"
    newest = oidc.rotate_keys()
    assert [key["kid"] for key in oidc.jwks()["keys"]] == [newest, new_kid]
    with pytest.raises(jwt.PyJWKClientError):
        verify(oidc, before)


def test_opaque_tokens_are_explained_by_introspection(oidc: OIDCProvider) -> None:
    token = oidc.opaque_token(resource=RESOURCE)
    with pytest.raises(jwt.DecodeError):
        jwt.get_unverified_header(token)
    answer = oidc.introspect(token)
    assert answer["active"] is True
    assert (answer["sub"], answer["client_id"]) == ("ci-opaque", "ci-opaque")
    assert (answer["aud"], answer["scope"], answer["iss"]) == (RESOURCE, "read deploy", oidc.issuer)
    assert answer["exp"] > answer["iat"]
    oidc.revoke(token)
    assert oidc.introspect(token) == {"active": False}
    assert oidc.introspect("not-a-token") == {"active": False}


def test_opaque_user_tokens_carry_groups_in_introspection(oidc: OIDCProvider) -> None:
    answer = oidc.introspect(oidc.opaque_token(user="carol", scope="read", resource=RESOURCE))
    assert answer["active"] is True
    assert (answer["sub"], answer["client_id"]) == ("carol", "desktop-opaque")
    assert (answer["groups"], answer["tenant"], answer["aud"]) == (["ops"], "globex", RESOURCE)
