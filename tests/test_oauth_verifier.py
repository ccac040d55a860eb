"""Issue 23: the OAuth token checks, one refusal reason each, with keys made
here and a real HTTP server publishing them (metadata and JWKS, counting
its fetches): nothing of the verifier is replaced.

Proves: a good token becomes ``oauth:SUB`` with its groups, tenant, scopes,
issuer, client id and token id; every refusal has its own reason (expired,
not yet valid, wrong audience, wrong issuer, bad signature, unknown key,
algorithm not allowed (``none``, HS256 keyed with the public key), wrong
token type, missing claim, malformed, issuer unreachable); ``aud`` arrays
and the leeway; an unknown ``kid`` refetches the key set at most once per
bound; the settings refuse what would let a principal pass for another
kind; ``scope:NAME`` in ``allow:``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from mcp.server.auth.provider import AccessToken

from mcp_harbor.errors import ConfigError
from mcp_harbor.identity import Caller
from mcp_harbor.policy import is_allowed, validate_entry
from mcp_harbor.server.auth import HarborTokenVerifier, TokensFile
from mcp_harbor.server.oauth import CombinedVerifier, OAuthAccessToken, Refusal
from mcp_harbor.server.oauth.settings import AuthConfig, load_auth_config
from mcp_harbor.server.oauth.verifier import REASONS, OAuthVerifier

pytestmark = pytest.mark.anyio

RESOURCE = "http://127.0.0.1:8765/mcp"


@dataclass
class KeyServer:
    """An issuer's metadata and JWKS over real HTTP; `keys` can change."""

    issuer: str = ""
    keys: list[dict[str, Any]] = field(default_factory=list)
    jwks_fetches: int = 0


def _rsa() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _public_jwk(key: Any, kid: str, alg: str) -> dict[str, Any]:
    data = json.loads(jwt.algorithms.get_default_algorithms()[alg].to_jwk(key.public_key()))
    return {**data, "kid": kid, "alg": alg, "use": "sig"}


@pytest.fixture
def server() -> Iterator[KeyServer]:
    state = KeyServer()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/.well-known/openid-configuration":
                body: dict[str, Any] = {"issuer": state.issuer, "jwks_uri": f"{state.issuer}/jwks"}
            elif self.path == "/jwks":
                state.jwks_fetches += 1
                body = {"keys": list(state.keys)}
            else:
                self.send_error(404)
                return
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.issuer = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


@dataclass
class Issuer:
    server: KeyServer
    key: rsa.RSAPrivateKey
    kid: str

    def token(
        self,
        *,
        key: Any = None,
        kid: str | None = None,
        alg: str = "RS256",
        typ: str | None = "at+jwt",
        **claims: Any,
    ) -> str:
        now = int(time.time())
        payload: dict[str, Any] = {
            "iss": self.server.issuer,
            "sub": "alice",
            "aud": RESOURCE,
            "iat": now,
            "exp": now + 600,
            "jti": "jti-1",
            "client_id": "desktop",
            "scope": "read deploy",
            "groups": ["ops"],
            "tenant": "acme",
        }
        payload.update(claims)
        payload = {k: v for k, v in payload.items() if v is not None}
        headers: dict[str, Any] = {"kid": kid or self.kid}
        if typ is not None:
            headers["typ"] = typ
        return jwt.encode(payload, key or self.key, algorithm=alg, headers=headers)


@pytest.fixture
def issuer(server: KeyServer) -> Issuer:
    key = _rsa()
    server.keys.append(_public_jwk(key, "k1", "RS256"))
    return Issuer(server, key, "k1")


def verifier_for(server: KeyServer, **extra: Any) -> OAuthVerifier:
    issuer_extra = extra.pop("issuer_extra", {})
    data = {
        "audience": RESOURCE,
        "issuers": [
            {
                "issuer": server.issuer,
                "groups_claim": "groups",
                "tenant_claim": "tenant",
                **issuer_extra,
            }
        ],
        **extra,
    }
    return OAuthVerifier(AuthConfig.model_validate(data))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _refused(found: AccessToken | Refusal, reason: str) -> None:
    assert isinstance(found, Refusal), found
    assert found.reason == reason, found
    assert found.reason in REASONS


async def test_a_good_token_names_the_caller(issuer: Issuer) -> None:
    found = await verifier_for(issuer.server).check(issuer.token())
    assert isinstance(found, OAuthAccessToken)
    assert found.principal == "oauth:alice"
    assert (found.tenant, found.groups, found.scopes) == ("acme", ("ops",), ["read", "deploy"])
    assert (found.issuer, found.subject, found.client_id, found.token_id) == (
        issuer.server.issuer,
        "alice",
        "desktop",
        "jti-1",
    )
    azp = await verifier_for(issuer.server).check(issuer.token(client_id=None, azp="cli-app"))
    assert isinstance(azp, OAuthAccessToken) and azp.client_id == "cli-app"


async def test_expired_and_the_leeway(issuer: Issuer) -> None:
    v = verifier_for(issuer.server, leeway=30)
    now = int(time.time())
    _refused(await v.check(issuer.token(exp=now - 120, iat=now - 700)), "401 expired token")
    assert isinstance(await v.check(issuer.token(exp=now - 5, iat=now - 700)), OAuthAccessToken)
    _refused(await v.check(issuer.token(nbf=now + 300)), "401 token not yet valid")
    assert isinstance(await v.check(issuer.token(nbf=now + 5)), OAuthAccessToken)
    _refused(await v.check(issuer.token(exp=None)), "401 missing claim")


async def test_audience_strings_and_arrays(issuer: Issuer) -> None:
    v = verifier_for(issuer.server)
    _refused(await v.check(issuer.token(aud="https://other.example/mcp")), "401 wrong audience")
    _refused(await v.check(issuer.token(aud=["https://other.example/mcp"])), "401 wrong audience")
    _refused(await v.check(issuer.token(aud=None)), "401 missing claim")
    both = issuer.token(aud=["https://other.example/mcp", RESOURCE])
    assert isinstance(await v.check(both), OAuthAccessToken)
    spelled = issuer.token(aud="HTTP://127.0.0.1:8765/mcp/")
    assert isinstance(await v.check(spelled), OAuthAccessToken)


async def test_wrong_issuer_fetches_nothing(issuer: Issuer) -> None:
    v = verifier_for(issuer.server)
    _refused(await v.check(issuer.token(iss="https://evil.example")), "401 wrong issuer")
    _refused(await v.check(issuer.token(iss=issuer.server.issuer + "/")), "401 wrong issuer")
    assert issuer.server.jwks_fetches == 0


async def test_bad_signatures(issuer: Issuer) -> None:
    v = verifier_for(issuer.server)
    _refused(await v.check(issuer.token(key=_rsa())), "401 bad signature")  # same kid, other key
    head, body, sig = issuer.token().split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["sub"] = "root"
    tampered = f"{head}.{_b64(json.dumps(claims).encode())}.{sig}"
    _refused(await v.check(tampered), "401 bad signature")


async def test_algorithm_confusion(issuer: Issuer) -> None:
    v = verifier_for(issuer.server)
    good = issuer.token()
    _, body, _ = good.split(".")
    none = f"{_b64(json.dumps({'alg': 'none', 'kid': 'k1'}).encode())}.{body}."
    _refused(await v.check(none), "401 algorithm not allowed")
    public_pem = issuer.key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    head = _b64(json.dumps({"alg": "HS256", "kid": "k1", "typ": "at+jwt"}).encode())
    mac = hmac.new(public_pem, f"{head}.{body}".encode(), hashlib.sha256).digest()
    _refused(await v.check(f"{head}.{body}.{_b64(mac)}"), "401 algorithm not allowed")
    # An RS256-only issuer refuses PS256 even when its key could verify it.
    rs_only = verifier_for(issuer.server, issuer_extra={"algorithms": ["RS256"]})
    _refused(await rs_only.check(issuer.token(alg="PS256")), "401 algorithm not allowed")
    with pytest.raises(ValueError, match="never none nor HS"):
        verifier_for(issuer.server, issuer_extra={"algorithms": ["HS256"]})


async def test_other_key_types_verify(server: KeyServer) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    server.keys.append(_public_jwk(key, "ec1", "ES256"))
    found = await verifier_for(server).check(
        Issuer(server, _rsa(), "ec1").token(key=key, alg="ES256")
    )
    assert isinstance(found, OAuthAccessToken)


async def test_token_type(issuer: Issuer) -> None:
    v = verifier_for(issuer.server)
    assert isinstance(await v.check(issuer.token(typ="JWT")), OAuthAccessToken)
    assert isinstance(await v.check(issuer.token(typ=None)), OAuthAccessToken)
    _refused(await v.check(issuer.token(typ="secevent+jwt")), "401 wrong token type")
    strict = verifier_for(issuer.server, issuer_extra={"token_type": "at+jwt"})
    _refused(await strict.check(issuer.token(typ="JWT")), "401 wrong token type")


async def test_malformed_and_missing_claims(issuer: Issuer) -> None:
    v = verifier_for(issuer.server)
    _refused(await v.check("not-a-jwt"), "401 malformed token")
    _refused(await v.check("a.b.c"), "401 malformed token")
    by_email = verifier_for(issuer.server, issuer_extra={"principal_claim": "email"})
    _refused(await by_email.check(issuer.token()), "401 missing claim")
    named = await by_email.check(issuer.token(email="a@example.com"))
    assert isinstance(named, OAuthAccessToken) and named.principal == "oauth:a@example.com"
    forged = await v.check(issuer.token(sub="x\nWARNING forged"))
    assert isinstance(forged, OAuthAccessToken) and "\n" not in forged.principal


async def test_unknown_kid_refetches_within_the_bound(issuer: Issuer) -> None:
    v = verifier_for(issuer.server, jwks_refresh_bound=3600)
    assert isinstance(await v.check(issuer.token()), OAuthAccessToken)
    assert issuer.server.jwks_fetches == 1
    for n in range(20):
        _refused(await v.check(issuer.token(kid=f"made-up-{n}")), "401 unknown key")
    assert issuer.server.jwks_fetches == 1  # the first fetch started the bound
    # A key published since: refused within the bound too (docs/security.md).
    new = _rsa()
    issuer.server.keys.insert(0, _public_jwk(new, "k2", "RS256"))
    _refused(await v.check(issuer.token(key=new, kid="k2")), "401 unknown key")
    # Without a bound, the new key is fetched at its first token: rotation.
    eager = verifier_for(issuer.server, jwks_refresh_bound=0)
    assert isinstance(await eager.check(issuer.token()), OAuthAccessToken)
    newer = _rsa()
    issuer.server.keys.insert(0, _public_jwk(newer, "k3", "RS256"))
    before = issuer.server.jwks_fetches
    assert isinstance(await eager.check(issuer.token(key=newer, kid="k3")), OAuthAccessToken)
    assert issuer.server.jwks_fetches == before + 1
    assert isinstance(await eager.check(issuer.token(key=newer, kid="k3")), OAuthAccessToken)
    assert issuer.server.jwks_fetches == before + 1  # known now: from memory


async def test_issuer_unreachable(issuer: Issuer) -> None:
    v = verifier_for(issuer.server, issuer_extra={"jwks_url": "http://127.0.0.1:9/jwks"})
    _refused(await v.check(issuer.token()), "401 issuer unreachable")


async def test_combined_static_then_oauth(issuer: Issuer, tmp_path: Path) -> None:
    tokens = TokensFile(tmp_path / "tokens.json")
    static = tokens.add("ci", groups=("ops",))
    both = CombinedVerifier(HarborTokenVerifier(tokens), verifier_for(issuer.server))
    found = await both.check(static)
    assert not isinstance(found, Refusal) and found.client_id == "ci"
    assert not isinstance(found, OAuthAccessToken)
    assert isinstance(await both.check(issuer.token()), OAuthAccessToken)
    _refused(await both.check("mh_" + "x" * 43), "401 invalid token")
    only = CombinedVerifier(None, verifier_for(issuer.server))
    _refused(await only.check(static), "401 malformed token")  # no static tokens there


def test_settings_keep_principals_apart(tmp_path: Path) -> None:
    def config(**issuer: Any) -> AuthConfig:
        return AuthConfig.model_validate(
            {"audience": RESOURCE, "issuers": [{"issuer": "https://idp.example", **issuer}]}
        )

    assert config().issuers[0].short == "oauth"
    with pytest.raises(ValueError, match="plain http off loopback"):
        AuthConfig.model_validate(
            {"audience": RESOURCE, "issuers": [{"issuer": "http://idp.example"}]}
        )
    with pytest.raises(ValueError, match="plain http off loopback"):
        config(jwks_url="http://127.0.0.1.evil.example/jwks")
    for reserved in ("local", "group", "tenant", "scope", "unauthenticated", "anonymous"):
        with pytest.raises(ValueError, match="reserved"):
            config(name=reserved)
    with pytest.raises(ValueError, match="each needs a name"):
        AuthConfig.model_validate(
            {
                "audience": RESOURCE,
                "issuers": [{"issuer": "https://a.example"}, {"issuer": "https://b.example"}],
            }
        )
    path = tmp_path / "auth.yaml"
    path.write_text(
        "audience: https://harbor.example/mcp\n"
        "issuers:\n"
        "  - name: corp\n"
        "    issuer: https://idp.example\n"
        "    principal_clam: email\n"
    )
    with pytest.raises(ConfigError) as err:
        load_auth_config(path)
    assert f"{path}:5:" in str(err.value) and "principal_claim" in str(err.value)


def test_scope_entries_in_allow() -> None:
    assert validate_entry("scope:") is not None
    assert validate_entry("scope:deploy") is None
    deployer = Caller("http", "oauth:alice", scopes=("read", "deploy"))
    assert is_allowed(deployer, ["scope:deploy"])
    assert not is_allowed(deployer, ["scope:admin"])
    assert not is_allowed(Caller("http", "ci"), ["scope:deploy"])  # a static token has none
    assert "token" not in json.dumps(deployer.to_json()).replace("token_id", "")
