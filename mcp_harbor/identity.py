"""Who is calling: the `Caller` of every call, held in a context variable for
the whole call.

What is proven and what is only claimed:

- `principal` is authenticated: the name of the HTTP bearer token that the
  request carried, or ``local:<user>`` over stdio (the OS user who started
  the server, who also chose to start it).
  With ``--auth oauth`` it is ``NAME:VALUE``: the issuer's short name and
  the principal claim of a verified access token
  (`mcp_harbor.server.oauth.settings`).
- `tenant` and `groups` come from the token's entry in the tokens file
  (OAuth: from the configured claims), `scopes` from an OAuth token's
  ``scope`` (a static token has none).
- `issuer`, `subject`, `client_id` and `token_id` (``iss``, ``sub``, the
  ``client_id``/``azp`` of the OAuth client, ``jti``) say which access
  token authenticated the call, for the audit; None without OAuth. The
  token itself is never held here.
- `client_name`/`client_version` are what the client *claims* in its
  ``clientInfo``; anyone can claim anything. They are recorded as claimed.
- `session` is the transport's notion of a connection: ``stdio:<id>`` for
  the stdio connection, ``http:<Mcp-Session-Id>`` for a handshake-era
  stateful HTTP session, and ``request:<request id>`` for a 2026-07-28 HTTP
  request (that era has no sessions: each request stands alone).
"""

from __future__ import annotations

import contextvars
import getpass
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from typing import Any, Literal

__all__ = [
    "ANONYMOUS",
    "LOCAL_PREFIX",
    "Caller",
    "caller_as",
    "current_caller",
    "local_principal",
    "use_caller",
]

#: The principal of an HTTP request on a loopback server started without tokens.
ANONYMOUS = "anonymous"
#: How the principal of a stdio connection (and of the CLI) starts: ``local:<user>``.
LOCAL_PREFIX = "local:"

Transport = Literal["stdio", "http", "cli"]


def local_principal() -> str:
    """``local:<user>``: the OS user running this process."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (containers)
        user = str(os.getuid())
    return f"{LOCAL_PREFIX}{user}"


@dataclass(frozen=True, slots=True)
class Caller:
    """Who made one call, and through what."""

    transport: Transport
    principal: str
    tenant: str = "default"
    groups: tuple[str, ...] = field(default_factory=tuple)
    client_name: str | None = None
    client_version: str | None = None
    session: str | None = None
    request_id: str | None = None
    remote_addr: str | None = None
    protocol_version: str | None = None
    authenticated: bool = True
    scopes: tuple[str, ...] = field(default_factory=tuple)
    issuer: str | None = None
    subject: str | None = None
    client_id: str | None = None
    token_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Every field by name (``groups``, ``scopes`` as lists), plus ``client_claimed``."""
        # Not `dataclasses.asdict`: it deep-copies field by field, and this
        # runs for every audit record.
        data: dict[str, Any] = {f: getattr(self, f) for f in _FIELDS}
        data["groups"] = list(self.groups)
        data["scopes"] = list(self.scopes)
        data["client_claimed"] = True  # clientInfo is never proven
        return data

    def environment(self) -> dict[str, str]:
        """The ``HARBOR_CALLER_*`` variables a step sees (each classified in
        `mcp_harbor.step_env`, which says which of them the caller chooses)."""
        env = {
            "HARBOR_CALLER_PRINCIPAL": self.principal,
            "HARBOR_CALLER_TENANT": self.tenant,
            "HARBOR_CALLER_TRANSPORT": self.transport,
            "HARBOR_CALLER_GROUPS": ",".join(self.groups),
        }
        optional = {
            "HARBOR_CALLER_CLIENT": self.client_name,
            "HARBOR_CALLER_CLIENT_VERSION": self.client_version,
            "HARBOR_CALLER_SESSION": self.session,
            "HARBOR_CALLER_REQUEST_ID": self.request_id,
            "HARBOR_CALLER_REMOTE_ADDR": self.remote_addr,
        }
        env.update({k: v for k, v in optional.items() if v is not None})
        return env

    def describe(self) -> str:
        """A short form for log lines: ``alice@acme via http (client=claude 1.0)``."""
        client = f" client={self.client_name} {self.client_version or ''}".rstrip()
        return f"{self.principal}@{self.tenant} via {self.transport}{client}"


_FIELDS = tuple(f.name for f in fields(Caller))


def caller_as(principal: str, *, groups: Sequence[str] = (), tenant: str | None = None) -> Caller:
    """The `Caller` a server resolves for `principal`, as far as ``allow:``
    looks at it (`mcp_harbor.policy.is_allowed`), so what that caller may
    see can be asked without connecting as it:

    - ``local:<user>``: a stdio connection, tenant ``local``, no groups;
    - ``anonymous``: an HTTP request to a loopback server without tokens,
      tenant ``default``, no groups;
    - any other name: a static token's (HTTP), with the `tenant` (None:
      ``default``) and `groups` its entry in the tokens file holds.

    The caller only sketches who asks: what the client claims, its session
    and request are left out (``allow:`` never looks at them)."""
    if principal.startswith(LOCAL_PREFIX):
        return Caller("stdio", principal, tenant="local")
    if principal == ANONYMOUS:
        return Caller("http", principal, tenant="default")
    return Caller("http", principal, tenant=tenant or "default", groups=tuple(groups))


current_caller: contextvars.ContextVar[Caller | None] = contextvars.ContextVar(
    "mcp_harbor_caller", default=None
)


@contextmanager
def use_caller(caller: Caller) -> Iterator[Caller]:
    """Make `caller` the current caller for the duration of the block."""
    token = current_caller.set(caller)
    try:
        yield caller
    finally:
        current_caller.reset(token)
