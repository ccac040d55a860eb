"""Opaque access tokens: RFC 7662 token introspection, with a short cache.

The endpoint is asked with HTTP Basic client credentials read from the
environment (`IntrospectionSpec.credentials`). An answer counts only if it
is ``active: true``, names this issuer (when it names one), holds the
audience in ``aud`` and has not expired; it is cached under the token's
SHA-256 (never the token) for ``cache_seconds``, never past its ``exp``.
An inactive answer is cached a few seconds too, so one refused token
repeated is not one request to the endpoint each; a failing endpoint is
never cached (``401 introspection unavailable``).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any, Final

import httpx2

from mcp_harbor.errors import ConfigError
from mcp_harbor.server.oauth.accepted import OAuthAccessToken, Refusal
from mcp_harbor.server.oauth.settings import IssuerSpec
from mcp_harbor.server.oauth.verifier import audience_matches, identity_of

__all__ = ["Introspector"]

#: Tokens whose answer is cached at most (the oldest go first).
_MAX_CACHED: Final = 10_000
#: Seconds an inactive answer is cached.
_INACTIVE_SECONDS: Final = 5.0


class Introspector:
    """Asks one issuer's introspection endpoint about opaque tokens."""

    def __init__(self, spec: IssuerSpec, resource: str, leeway: float) -> None:
        assert spec.introspection is not None
        self.spec = spec
        self.endpoint = spec.introspection
        self.resource = resource
        self.leeway = leeway
        self._cache: dict[str, tuple[OAuthAccessToken | Refusal, float]] = {}
        self._client: httpx2.AsyncClient | None = None
        self.asked = 0  # requests sent to the endpoint (for tests and benchmarks)

    async def check(self, token: str) -> OAuthAccessToken | Refusal:
        """The accepted token or why not. **Cancellation:** the request to
        the endpoint is abandoned and nothing is cached."""
        digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
        cached = self._cache.get(digest)
        now = time.monotonic()
        if cached is not None and cached[1] > now:
            found = cached[0]
            if (
                isinstance(found, OAuthAccessToken)
                and found.expires_at is not None
                and found.expires_at + self.leeway < time.time()
            ):
                return Refusal("401 expired token", "exp passed (introspected, cached)")
            return (
                found if isinstance(found, Refusal) else found.model_copy(update={"token": token})
            )
        answer = await self._ask(token)
        if isinstance(answer, Refusal) and answer.reason == "401 introspection unavailable":
            return answer
        found = answer if isinstance(answer, Refusal) else self._accept(token, answer)
        ttl = _INACTIVE_SECONDS if isinstance(found, Refusal) else self.endpoint.cache_seconds
        if isinstance(found, OAuthAccessToken) and found.expires_at is not None:
            ttl = min(ttl, max(0.0, found.expires_at - time.time()))
        if ttl > 0:
            if len(self._cache) >= _MAX_CACHED:
                self._cache.pop(next(iter(self._cache)))
            stored = (
                found.model_copy(update={"token": ""})
                if isinstance(found, OAuthAccessToken)
                else found
            )
            self._cache[digest] = (stored, now + ttl)
        return found

    async def _ask(self, token: str) -> dict[str, Any] | Refusal:
        try:
            client_id, secret = self.endpoint.credentials()
        except ConfigError as exc:  # said in the log, the token refused
            return Refusal("401 introspection unavailable", str(exc))
        if self._client is None:
            self._client = httpx2.AsyncClient(timeout=httpx2.Timeout(10.0))
        self.asked += 1
        try:
            response = await self._client.post(
                self.endpoint.url,
                data={"token": token, "token_type_hint": "access_token"},
                auth=httpx2.BasicAuth(client_id, secret),
                headers={"Accept": "application/json"},
            )
        except httpx2.HTTPError as exc:
            return Refusal("401 introspection unavailable", f"{self.endpoint.url}: {exc}")
        if response.status_code != 200:
            return Refusal(
                "401 introspection unavailable",
                f"{self.endpoint.url} answered {response.status_code} (are "
                f"{self.endpoint.client_id_env}/{self.endpoint.client_secret_env} right?)",
            )
        try:
            data = response.json()
        except ValueError:
            return Refusal("401 introspection unavailable", f"{self.endpoint.url}: not JSON")
        if not isinstance(data, dict):
            return Refusal("401 introspection unavailable", f"{self.endpoint.url}: not an object")
        return data

    def _accept(self, token: str, data: dict[str, Any]) -> OAuthAccessToken | Refusal:
        if data.get("active") is not True:
            return Refusal("401 inactive token", f"{self.endpoint.url}: active is not true")
        iss = data.get("iss")
        if iss is not None and iss != self.spec.issuer:
            return Refusal("401 wrong issuer", "the introspection answer names another issuer")
        audience = self.spec.audience or self.resource
        if not audience_matches(data.get("aud"), audience):
            return Refusal("401 wrong audience", f"introspected aud does not hold {audience}")
        exp = data.get("exp")
        if isinstance(exp, int | float) and exp + self.leeway < time.time():
            return Refusal("401 expired token", "exp passed (introspected)")
        return identity_of(token, data, self.spec, self.resource)

    async def aclose(self) -> None:
        """Close the HTTP client (idempotent)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None
