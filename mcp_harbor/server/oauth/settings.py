"""What an operator configures for ``serve --auth oauth``: the audience (this
server's canonical resource URL), the issuers it trusts, the scopes it
requires, and how claims become a `mcp_harbor.identity.Caller`.

Given on the command line (one issuer: ``--issuer``, ``--audience``,
``--jwks-url``, ``--required-scope``, ``--principal-claim``,
``--groups-claim``, ``--tenant-claim``, ``--introspection-url``) or in a
YAML file (``--auth-config FILE``, any number of issuers)::

    audience: https://harbor.example.com/mcp
    required_scopes: [harbor]
    leeway: 30
    issuers:
      - name: corp                     # the principal's prefix: corp:SUB
        issuer: https://keycloak.example.com/realms/corp
        groups_claim: groups
        introspection:                 # opaque tokens (RFC 7662), optional
          url: https://keycloak.example.com/realms/corp/protocol/openid-connect/token/introspect
          client_id_env: HARBOR_INTROSPECT_ID
          client_secret_env: HARBOR_INTROSPECT_SECRET

**Principals.** Every OAuth principal is ``NAME:VALUE``: the issuer's short
``name`` (``oauth`` when one issuer is given without one), a colon, the
principal claim's value. A static token's name never holds a ``:``, and
the names ``local``, ``group``, ``tenant``, ``scope``, ``unauthenticated``,
``other`` and ``anonymous`` are refused as issuer names, so an OAuth
principal can never be a token's name, ``local:USER``, ``anonymous``, nor
read as an ``allow:`` prefix.

Secrets are never in this file nor on the command line: the introspection
client's id and secret are read from the environment variables it names.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Annotated, Any, Final

import pydantic
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from mcp_harbor.config._problems import pydantic_problem
from mcp_harbor.config.yaml_source import read_yaml
from mcp_harbor.errors import ConfigError

__all__ = [
    "ALLOWED_ALGORITHMS",
    "DEFAULT_ISSUER_NAME",
    "RESERVED_NAMES",
    "AuthConfig",
    "IntrospectionSpec",
    "IssuerSpec",
    "canonical_url",
    "config_of_options",
    "load_auth_config",
]

#: The signature algorithms a token may use: asymmetric only. Never
#: ``none``; never HS*, whose key would be the issuer's *public* key.
ALLOWED_ALGORITHMS: Final[tuple[str, ...]] = (
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
)
#: The short name of the one issuer given without a name.
DEFAULT_ISSUER_NAME: Final = "oauth"
#: Issuer names that would make a principal look like another kind.
RESERVED_NAMES: Final = frozenset(
    {"local", "group", "tenant", "scope", "unauthenticated", "other", "anonymous", "http", "https"}
)

_URL = r"^https?://[^\s/?#]+(/[^\s?#]*)?$"
Url = Annotated[str, StringConstraints(pattern=_URL, max_length=2000)]
ShortName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]{0,31}$")]
ClaimName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:/-]{1,128}$")]
Scope = Annotated[str, StringConstraints(pattern=r"^[\x21\x23-\x5b\x5d-\x7e]{1,128}$")]
EnvName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]


def canonical_url(url: str) -> str:
    """`url` as RFC 8707/9728 compare it: lowercase scheme and host, no
    trailing slash (a bare host keeps none either)."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}".rstrip("/")


def _secure(url: str) -> bool:
    """Whether `url` is https, or http to a loopback host (tests, a local AS)."""
    scheme, _, rest = url.partition("://")
    if scheme.lower() == "https":
        return True
    host = rest.partition("/")[0].rpartition("@")[2].lower()
    host = host.partition("]")[0].lstrip("[") if host.startswith("[") else host.rsplit(":", 1)[0]
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class IntrospectionSpec(_Strict):
    """RFC 7662 token introspection for opaque tokens: the endpoint, and the
    NAMES of the environment variables holding this server's client id and
    secret there (HTTP Basic). Answers are cached `cache_seconds` (never
    past the token's ``exp``)."""

    url: Url
    client_id_env: EnvName = "MCP_HARBOR_INTROSPECTION_CLIENT_ID"
    client_secret_env: EnvName = "MCP_HARBOR_INTROSPECTION_CLIENT_SECRET"
    cache_seconds: Annotated[float, Field(ge=0, le=600)] = 30.0

    def credentials(self) -> tuple[str, str]:
        """The client id and secret, read from the environment now.

        Raises:
            ConfigError: either variable is unset or empty.
        """
        missing = [n for n in (self.client_id_env, self.client_secret_env) if not os.environ.get(n)]
        if missing:
            raise ConfigError(
                f"token introspection at {self.url} needs this server's client credentials: "
                f"set {' and '.join(missing)} in the environment of mcp-harbor serve"
            )
        return os.environ[self.client_id_env], os.environ[self.client_secret_env]


class IssuerSpec(_Strict):
    """One trusted authorization server (its ``iss``, exactly)."""

    issuer: Url
    name: ShortName | None = None
    jwks_url: Url | None = None
    #: What ``aud`` must contain for this issuer; None: the server's audience.
    audience: Annotated[str, StringConstraints(min_length=1, max_length=2000)] | None = None
    algorithms: Annotated[list[str], Field(min_length=1)] = list(ALLOWED_ALGORITHMS)
    principal_claim: ClaimName = "sub"
    groups_claim: ClaimName | None = None
    tenant_claim: ClaimName | None = None
    #: The JOSE ``typ`` a token must have (RFC 9068: ``at+jwt``); None: any
    #: of ``at+jwt``, ``application/at+jwt``, ``JWT`` or none.
    token_type: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    introspection: IntrospectionSpec | None = None

    @model_validator(mode="after")
    def _checked(self) -> IssuerSpec:
        urls = [self.issuer, self.jwks_url, self.introspection and self.introspection.url]
        plain = [u for u in urls if u and not _secure(u)]
        if plain:
            raise ValueError(
                f"{plain[0]} is plain http off loopback: keys and tokens would cross the "
                f"network unprotected; use https:// (http:// only for 127.0.0.1, ::1, localhost)"
            )
        if self.name is not None and self.name in RESERVED_NAMES:
            raise ValueError(
                f"name {self.name!r} is reserved (it would read as {self.name}:…, another kind "
                f"of principal or an allow: prefix); choose another, e.g. corp"
            )
        bad = [a for a in self.algorithms if a not in ALLOWED_ALGORITHMS]
        if bad:
            raise ValueError(
                f"algorithms {bad} are not allowed: only asymmetric ones "
                f"({', '.join(ALLOWED_ALGORITHMS)}); never none nor HS*"
            )
        return self

    @property
    def short(self) -> str:
        """The principal prefix (``oauth`` when unnamed)."""
        return self.name or DEFAULT_ISSUER_NAME


class AuthConfig(_Strict):
    """The whole OAuth configuration of one server."""

    #: This server's canonical resource URL (``https://host/mcp``): the PRM
    #: ``resource`` and what every token's ``aud`` must contain.
    audience: Url
    issuers: Annotated[list[IssuerSpec], Field(min_length=1)]
    #: Scopes every OAuth token needs (403 ``insufficient_scope`` otherwise).
    required_scopes: list[Scope] = []
    #: Scopes advertised in the PRM beyond the required ones (what exports'
    #: ``scope:`` entries use: the SDK's client asks only for those listed).
    scopes_supported: list[Scope] = []
    #: Seconds of clock skew allowed on ``exp``/``nbf``/``iat``.
    leeway: Annotated[float, Field(ge=0, le=300)] = 30.0
    #: Seconds the issuer's key set is trusted before it is fetched again.
    jwks_lifespan: Annotated[float, Field(ge=1, le=86400)] = 300.0
    #: Least seconds between two fetches forced by an unknown ``kid``.
    jwks_refresh_bound: Annotated[float, Field(ge=0, le=3600)] = 30.0

    @model_validator(mode="after")
    def _names(self) -> AuthConfig:
        if len(self.issuers) > 1:
            unnamed = [i.issuer for i in self.issuers if i.name is None]
            if unnamed:
                raise ValueError(
                    f"with several issuers each needs a name: (its principals' prefix); "
                    f"add name: to {', '.join(unnamed)}"
                )
        names = [i.short for i in self.issuers]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"issuer names must be unique: {', '.join(twice)} repeated")
        urls = [canonical_url(i.issuer) for i in self.issuers]
        if len(set(urls)) != len(urls):
            raise ValueError("an issuer is listed twice; list each once")
        return self

    @property
    def resource(self) -> str:
        """The canonical `audience`."""
        return canonical_url(self.audience)

    def advertised_scopes(self) -> list[str]:
        """The PRM ``scopes_supported``: required first, then the others."""
        seen = dict.fromkeys([*self.required_scopes, *self.scopes_supported])
        return list(seen)


def _model_for(loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    if len(loc) == 1:
        return AuthConfig
    if len(loc) == 3 and loc[0] == "issuers":
        return IssuerSpec
    if len(loc) == 4 and loc[0] == "issuers" and loc[2] == "introspection":
        return IntrospectionSpec
    return None


def load_auth_config(path: Path) -> AuthConfig:
    """Load an ``--auth-config`` file.

    Raises:
        ConfigError: one message per problem, each ``FILE:LINE: what; fix``.
    """
    data, smap, _raw = read_yaml(path, kind="auth")
    return _validated(data, path, smap)


def _validated(data: Any, path: Path, smap: Any) -> AuthConfig:
    try:
        return AuthConfig.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = [pydantic_problem(path, smap, e, _model_for) for e in exc.errors()]
        raise ConfigError("\n".join(problems), problems) from None


def config_of_options(
    *,
    issuer: str,
    audience: str | None,
    jwks_url: str | None,
    required_scopes: tuple[str, ...],
    principal_claim: str,
    groups_claim: str | None,
    tenant_claim: str | None,
    introspection_url: str | None,
    introspection_client_id_env: str | None,
    introspection_client_secret_env: str | None,
) -> AuthConfig:
    """The configuration the ``serve`` options name (one issuer).

    Raises:
        ConfigError: an option's value is invalid (which, and how to fix).
    """
    if audience is None:
        raise ConfigError(
            "--auth oauth needs --audience URL: this server's canonical MCP URL as clients "
            "reach it (e.g. https://harbor.example.com/mcp), which tokens must be issued for"
        )
    introspection: dict[str, Any] | None = None
    if introspection_url is not None:
        introspection = {"url": introspection_url}
        if introspection_client_id_env:
            introspection["client_id_env"] = introspection_client_id_env
        if introspection_client_secret_env:
            introspection["client_secret_env"] = introspection_client_secret_env
    issuer_data: dict[str, Any] = {"issuer": issuer, "principal_claim": principal_claim}
    for key, value in (
        ("jwks_url", jwks_url),
        ("groups_claim", groups_claim),
        ("tenant_claim", tenant_claim),
        ("introspection", introspection),
    ):
        if value is not None:
            issuer_data[key] = value
    data = {
        "audience": audience,
        "issuers": [issuer_data],
        "required_scopes": list(required_scopes),
    }
    try:
        return AuthConfig.model_validate(data)
    except pydantic.ValidationError as exc:
        options = {
            "audience": "--audience",
            "issuer": "--issuer",
            "jwks_url": "--jwks-url",
            "required_scopes": "--required-scope",
            "principal_claim": "--principal-claim",
            "groups_claim": "--groups-claim",
            "tenant_claim": "--tenant-claim",
            "url": "--introspection-url",
            "client_id_env": "--introspection-client-id-env",
            "client_secret_env": "--introspection-client-secret-env",
        }
        problems = []
        for err in exc.errors():
            names = [options[p] for p in err["loc"] if isinstance(p, str) and p in options]
            where = names[-1] if names else "the OAuth options"
            value = err.get("input")
            shown = f" {value!r}" if isinstance(value, str) else ""
            if err["type"] == "string_pattern_mismatch":
                what = _EXPECTED.get(where, "is invalid")
            else:
                what = str(err["msg"]).removeprefix("Value error, ")
            problems.append(f"{where}{shown}: {what}")
        raise ConfigError("\n".join(problems), problems) from None


_URL_HINT = "expected an http(s) URL without query or fragment, e.g. https://idp.example.com/realm"
_EXPECTED: Final = {
    "--audience": _URL_HINT,
    "--issuer": _URL_HINT,
    "--jwks-url": _URL_HINT,
    "--introspection-url": _URL_HINT,
    "--required-scope": "expected a scope: 1-128 printable characters without spaces, quotes "
    "or backslashes",
    "--principal-claim": "expected a claim name: 1-128 letters, digits and _ . : / -",
    "--groups-claim": "expected a claim name: 1-128 letters, digits and _ . : / -",
    "--tenant-claim": "expected a claim name: 1-128 letters, digits and _ . : / -",
    "--introspection-client-id-env": "expected an environment variable name (A-Z, 0-9, _)",
    "--introspection-client-secret-env": "expected an environment variable name (A-Z, 0-9, _)",
}
