"""Checking an OAuth access token: a JWT locally, an opaque one by
introspection; and the verifier of ``--auth tokens,oauth``.

`OAuthVerifier.check` answers an `OAuthAccessToken` or a `Refusal` whose
``reason`` is one phrase of a fixed vocabulary (`REASONS`), never text the
token chose. For a JWT, in this order:

1. the header parses (else ``401 malformed token``), its ``alg`` is in the
   issuer's allow-list of asymmetric algorithms (``401 algorithm not
   allowed``: ``none`` and HS* never are) and its ``typ`` fits
   (``401 wrong token type``);
2. the unverified ``iss`` is a configured issuer, compared exactly
   (``401 wrong issuer``): nothing is fetched for an issuer not configured;
3. the key of its ``kid`` is in the issuer's key set, fetched from its
   metadata's ``jwks_uri`` (or ``jwks_url``) and cached ``jwks_lifespan``
   seconds; an unknown ``kid`` refetches it at most once per
   ``jwks_refresh_bound`` seconds, however many tokens ask
   (``401 unknown key``; ``401 issuer unreachable`` when it cannot be read);
4. the signature (``401 bad signature``), ``exp`` (``401 expired token``)
   and ``nbf``/``iat`` (``401 token not yet valid``) with ``leeway``;
   ``aud`` (a string or a list) must contain the audience, compared as URLs
   (``401 wrong audience``, RFC 8707); the principal claim must be there
   (``401 missing claim``).

An opaque token (not three dot-separated parts) goes to the introspection
endpoint of each issuer that has one (`Introspector`); without one it is
``401 malformed token``.

The token itself is kept only where the SDK needs it (`AccessToken.token`,
for this request); it is never logged, never recorded and never reaches a
step (`mcp_harbor.identity.Caller` has no field for it).
"""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any, Final

import jwt
from mcp.server.auth.provider import AccessToken, TokenVerifier

from mcp_harbor._visible import visible
from mcp_harbor.server.oauth.accepted import (
    REASONS,
    CombinedVerifier,
    OAuthAccessToken,
    Refusal,
    is_jwt,
    scopes_missing,
)
from mcp_harbor.server.oauth.settings import AuthConfig, IssuerSpec, canonical_url

__all__ = [
    "REASONS",
    "CombinedVerifier",
    "IssuerKeys",
    "OAuthAccessToken",
    "OAuthVerifier",
    "Refusal",
    "audience_matches",
    "identity_of",
    "scopes_missing",
]


_TYPES: Final = frozenset({"at+jwt", "application/at+jwt", "jwt"})
#: Longest claim value kept as a principal, group or tenant (after escaping).
_MAX_CLAIM: Final = 256
_MAX_GROUPS: Final = 256
_FETCH_TIMEOUT: Final = 10.0


def _claim_text(value: Any) -> str | None:
    """A claim value as harbor keeps it: escaped, capped, or None."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    text = visible(str(value))[:_MAX_CLAIM]
    return text or None


def _claim_list(value: Any) -> tuple[str, ...]:
    """A list claim (or a space-separated string) as names, at most `_MAX_GROUPS`."""
    items = value.split() if isinstance(value, str) else value
    if not isinstance(items, list):
        return ()
    names = (_claim_text(v) for v in items[:_MAX_GROUPS])
    return tuple(dict.fromkeys(n for n in names if n is not None))


def _lookup(claims: Mapping[str, Any], name: str) -> Any:
    """Claim `name`; a dotted name walks into objects (Keycloak's
    ``realm_access.roles``) when no claim has that exact name."""
    if name in claims:
        return claims[name]
    value: Any = claims
    for part in name.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def identity_of(
    token: str, claims: Mapping[str, Any], spec: IssuerSpec, resource: str
) -> OAuthAccessToken | Refusal:
    """The accepted token for these already verified `claims`, or the
    refusal when the principal claim is missing."""
    principal = _claim_text(_lookup(claims, spec.principal_claim))
    if principal is None:
        return Refusal(
            "401 missing claim", f"no usable {spec.principal_claim!r} claim (--principal-claim)"
        )
    scope = claims.get("scope", claims.get("scp", ""))
    scopes = _claim_list(scope)
    tenant = _claim_text(_lookup(claims, spec.tenant_claim)) if spec.tenant_claim else None
    groups = _claim_list(_lookup(claims, spec.groups_claim)) if spec.groups_claim else ()
    client = _claim_text(claims.get("client_id")) or _claim_text(claims.get("azp"))
    exp = claims.get("exp")
    return OAuthAccessToken(
        token=token,
        client_id=client or f"{spec.short}:{principal}",
        scopes=list(scopes),
        expires_at=int(exp) if isinstance(exp, int | float) else None,
        resource=resource,
        subject=_claim_text(claims.get("sub")),
        claims={"iss": spec.issuer},
        principal=f"{spec.short}:{principal}",
        tenant=tenant or "default",
        groups=groups,
        issuer=spec.issuer,
        token_id=_claim_text(claims.get("jti")),
    )


def audience_matches(aud: Any, expected: str) -> bool:
    """Whether ``aud`` (a string or a list of them) holds `expected`, compared
    as canonical URLs."""
    values = [aud] if isinstance(aud, str) else aud if isinstance(aud, list) else []
    want = canonical_url(expected)
    return any(isinstance(a, str) and canonical_url(a) == want for a in values)


def _metadata(issuer: str) -> dict[str, Any]:
    """The issuer's metadata: OpenID Connect discovery, else RFC 8414.

    Raises:
        OSError: neither answers with a JSON object whose ``issuer`` is
            `issuer` (RFC 8414 §3.3).
    """
    scheme, _, rest = issuer.partition("://")
    host, _, path = rest.rstrip("/").partition("/")
    path = f"/{path}" if path else ""
    urls = [
        f"{issuer.rstrip('/')}/.well-known/openid-configuration",
        f"{scheme}://{host}/.well-known/oauth-authorization-server{path}",
    ]
    problems = []
    for url in urls:
        try:
            with urllib.request.urlopen(url, timeout=_FETCH_TIMEOUT) as answer:
                data = json.loads(answer.read(1 << 20))
        except (OSError, ValueError) as exc:
            problems.append(f"{url}: {exc}")
            continue
        if not isinstance(data, dict) or data.get("issuer") != issuer:
            problems.append(f"{url}: its issuer is not {issuer!r}")
            continue
        return data
    raise OSError("; ".join(problems))


class IssuerKeys:
    """One issuer's signing keys, by ``kid``.

    Fetched lazily (the metadata once, then ``jwks_uri``) with PyJWT's
    `jwt.PyJWKClient`, which caches the set `lifespan` seconds and refetches
    it for an unknown ``kid`` at most once per `refresh_bound` seconds (so a
    flood of made-up kids costs one fetch per bound). A key already seen is
    answered from memory, without a thread, for `lifespan` seconds.
    """

    def __init__(self, spec: IssuerSpec, lifespan: float, refresh_bound: float) -> None:
        self.spec = spec
        self.lifespan = lifespan
        self.refresh_bound = refresh_bound
        self._client: jwt.PyJWKClient | None = None
        self._lock = threading.Lock()
        self._known: dict[str | None, tuple[jwt.PyJWK, float]] = {}
        self._failed_at = -float("inf")  # the last failed discovery (monotonic)

    def _jwks(self) -> jwt.PyJWKClient:
        with self._lock:
            if self._client is None:
                url = self.spec.jwks_url
                if url is None:
                    if time.monotonic() - self._failed_at < self.refresh_bound:
                        raise OSError(f"{self.spec.issuer}: its metadata could not be read lately")
                    try:
                        found = _metadata(self.spec.issuer).get("jwks_uri")
                    except OSError:
                        self._failed_at = time.monotonic()
                        raise
                    if not isinstance(found, str) or not found.startswith(("https://", "http://")):
                        raise OSError(f"{self.spec.issuer}: its metadata names no jwks_uri")
                    url = found
                self._client = jwt.PyJWKClient(
                    url,
                    cache_keys=False,
                    lifespan=self.lifespan,
                    cooldown_duration=self.refresh_bound,
                    timeout=int(_FETCH_TIMEOUT),
                )
            return self._client

    def _fetch(self, kid: str | None) -> jwt.PyJWK | Refusal:
        """Blocking: the key of `kid` (the only key, for a token without one)."""
        try:
            client = self._jwks()
            if kid is None:
                keys = client.get_signing_keys()
                if len(keys) != 1:
                    return Refusal(
                        "401 unknown key", "the token names no kid and the set has several"
                    )
                return keys[0]
            return client.get_signing_key(kid)
        except jwt.PyJWKClientConnectionError as exc:
            return Refusal("401 issuer unreachable", f"{self.spec.issuer}: {exc}")
        except jwt.PyJWKClientError as exc:
            if "Unable to find" in str(exc):
                return Refusal(
                    "401 unknown key",
                    f"kid {visible(str(kid))!r} is not in {self.spec.issuer}'s key set "
                    f"(refetched at most every {self.refresh_bound:g} s)",
                )
            return Refusal("401 issuer unreachable", f"{self.spec.issuer}: {exc}")
        except (OSError, jwt.PyJWKError, jwt.PyJWKSetError) as exc:
            return Refusal("401 issuer unreachable", f"{self.spec.issuer}: {exc}")

    async def key(self, kid: str | None) -> jwt.PyJWK | Refusal:
        """The key of `kid`. **Cancellation:** the fetch, in a thread, runs to
        its end (at most the fetch timeout); its result is still cached."""
        known = self._known.get(kid)
        now = time.monotonic()
        if known is not None and known[1] > now:
            return known[0]
        found = await asyncio.to_thread(self._fetch, kid)
        if isinstance(found, jwt.PyJWK):
            self._known[kid] = (found, time.monotonic() + self.lifespan)
        return found


def _segment(token: str, index: int) -> Any:
    part = token.split(".")[index]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class OAuthVerifier(TokenVerifier):
    """Checks OAuth access tokens for `config` (see the module docstring)."""

    def __init__(self, config: AuthConfig) -> None:
        from mcp_harbor.server.oauth.introspection import Introspector

        self.config = config
        self.resource = config.resource
        self.keys = {
            i.issuer: IssuerKeys(i, config.jwks_lifespan, config.jwks_refresh_bound)
            for i in config.issuers
        }
        self.introspectors = [
            Introspector(i, self.resource, config.leeway)
            for i in config.issuers
            if i.introspection is not None
        ]

    async def check(self, token: str) -> OAuthAccessToken | Refusal:
        """The accepted token, or why not. Never raises for any token.

        **Cancellation:** nothing is left half done: a key fetch under way
        finishes in its thread (and is cached), an introspection request
        is abandoned uncached."""
        if not is_jwt(token):
            for introspector in self.introspectors:
                found = await introspector.check(token)
                if isinstance(found, OAuthAccessToken) or found.reason != "401 inactive token":
                    return found
            if self.introspectors:
                return Refusal("401 inactive token", "no introspection endpoint knows it")
            return Refusal("401 malformed token", "not a JWT, and no --introspection-url")
        try:
            header = _segment(token, 0)
            payload = _segment(token, 1)
        except (ValueError, UnicodeDecodeError):
            return Refusal("401 malformed token", "its header or claims are not base64url JSON")
        if not isinstance(header, dict) or not isinstance(payload, dict):
            return Refusal("401 malformed token", "its header or claims are not JSON objects")
        issuer = payload.get("iss")
        keys = self.keys.get(issuer) if isinstance(issuer, str) else None
        if keys is None:
            return Refusal("401 wrong issuer", f"iss {visible(str(issuer))!r} is not configured")
        spec = keys.spec
        alg = header.get("alg")
        if not isinstance(alg, str) or alg not in spec.algorithms:
            return Refusal(
                "401 algorithm not allowed",
                f"alg {visible(str(alg))!r}; allowed: {', '.join(spec.algorithms)}",
            )
        typ = header.get("typ")
        if spec.token_type is not None:
            if typ != spec.token_type:
                return Refusal("401 wrong token type", f"typ {visible(str(typ))!r}")
        elif typ is not None and (not isinstance(typ, str) or typ.lower() not in _TYPES):
            return Refusal("401 wrong token type", f"typ {visible(str(typ))!r} is not at+jwt")
        kid = header.get("kid")
        key = await keys.key(kid if isinstance(kid, str) else None)
        if isinstance(key, Refusal):
            return key
        return self._decode(token, key, spec)

    def _decode(self, token: str, key: jwt.PyJWK, spec: IssuerSpec) -> OAuthAccessToken | Refusal:
        audience = spec.audience or self.resource
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=spec.algorithms,
                issuer=spec.issuer,
                leeway=self.config.leeway,
                options={"require": ["exp", "iss", "aud"], "verify_aud": False},
            )
        except jwt.ExpiredSignatureError:
            return Refusal("401 expired token", f"exp passed (leeway {self.config.leeway:g} s)")
        except (jwt.ImmatureSignatureError, jwt.InvalidIssuedAtError):
            return Refusal("401 token not yet valid", "nbf or iat is in the future")
        except jwt.InvalidSignatureError:
            return Refusal("401 bad signature", f"signed by none of {spec.issuer}'s keys")
        except jwt.MissingRequiredClaimError as exc:
            return Refusal("401 missing claim", f"no {exc.claim!r} claim")
        except jwt.InvalidIssuerError:
            return Refusal("401 wrong issuer", "iss does not match")
        except (jwt.InvalidAlgorithmError, jwt.PyJWKError) as exc:
            return Refusal("401 algorithm not allowed", str(exc))
        except jwt.PyJWTError as exc:
            return Refusal("401 malformed token", type(exc).__name__)
        if not audience_matches(claims.get("aud"), audience):
            return Refusal(
                "401 wrong audience",
                f"aud {visible(str(claims.get('aud')))[:200]!r} does not hold {audience}",
            )
        return identity_of(token, claims, spec, self.resource)

    async def verify_token(self, token: str) -> AccessToken | None:
        """The SDK's `TokenVerifier`: `check` without the reason."""
        found = await self.check(token)
        return None if isinstance(found, Refusal) else found

    async def aclose(self) -> None:
        """Close the introspection clients (idempotent)."""
        for introspector in self.introspectors:
            await introspector.aclose()
