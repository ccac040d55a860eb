"""HTTP bearer tokens: the tokens file and the verifier the SDK calls.

A token is shown once, when it is created; the file keeps only its SHA-256.
A presented token is hashed and compared with every entry in constant time
(`hmac.compare_digest`, no early exit), so timing does not reveal which
entry came close. The principal of a token is its NAME exactly. The file is
re-read when it changes, so ``token revoke`` takes effect without a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server.auth.provider import AccessToken, TokenVerifier

from mcp_harbor._visible import visible
from mcp_harbor.errors import ConfigError
from mcp_harbor.identity import ANONYMOUS
from mcp_harbor.locations import default_tokens_path

__all__ = [
    "HarborTokenVerifier",
    "TokenEntry",
    "TokensFile",
    "default_tokens_path",
    "http_verifier",
    "token_name_problem",
]

log = logging.getLogger("mcp_harbor.server")

_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,128}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def token_name_problem(name: str) -> str | None:
    """Why `name` cannot be a token's name (its principal), or None. Other
    kinds of principal must stay apart: ``anonymous`` is every caller of a
    loopback server without tokens, and a ``:`` marks ``local:USER``,
    ``group:`` and ``tenant:``, which ``allow:`` entries name."""
    if name.lower() == ANONYMOUS:
        return (
            f"token name {name!r} is reserved: it is the principal of every caller of a "
            f"loopback server without tokens; choose another name"
        )
    if ":" in name:
        return (
            f"token name {name!r} is invalid: a ':' marks other kinds of principal "
            f"(local:USER, group:NAME, tenant:NAME); use 1-128 letters, digits, _ . @ -"
        )
    if not _NAME.match(name):
        return (
            f"token name {name!r} is invalid: use 1-128 letters, digits, _ . @ - "
            f"(it becomes the principal)"
        )
    return None


def _entry_problem(raw: Any) -> str | None:
    """What is wrong with one entry of a tokens file, or None."""
    if not isinstance(raw, dict):
        return "must be an object with name, sha256 and optionally tenant, groups, created"
    name = raw.get("name")
    if not isinstance(name, str):
        return "name must be a string"
    problem = token_name_problem(name)
    if problem is not None:
        return problem
    if not isinstance(raw.get("sha256"), str) or not _SHA256.match(raw["sha256"]):
        return "sha256 must be the token's SHA-256: 64 lowercase hex digits"
    tenant = raw.get("tenant", "default")
    if not isinstance(tenant, str) or not _NAME.match(tenant):
        return "tenant must be 1-128 letters, digits, _ . @ -"
    groups = raw.get("groups", [])
    if not isinstance(groups, list) or not all(
        isinstance(g, str) and _NAME.match(g) for g in groups
    ):
        return "groups must be a list of names of 1-128 letters, digits, _ . @ -"
    if not isinstance(raw.get("created", ""), str):
        return "created must be a string (a time)"
    return None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class TokenEntry:
    name: str
    tenant: str
    groups: tuple[str, ...]
    sha256: str
    created: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tenant": self.tenant,
            "groups": list(self.groups),
            "sha256": self.sha256,
            "created": self.created,
        }


class TokensFile:
    """The tokens file: ``{"version": 1, "tokens": [{name, tenant, groups, sha256, created}]}``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> list[TokenEntry]:
        """Raises:
        ConfigError: the file exists but cannot be read or is malformed."""
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{self.path}: cannot read the tokens file: {exc.strerror}") from exc
        except ValueError as exc:
            raise ConfigError(
                f"{self.path}: the tokens file is malformed ({exc}); fix or remove it "
                f"and create tokens again with `mcp-harbor token add`"
            ) from exc
        raw = data.get("tokens") if isinstance(data, dict) else None
        if not isinstance(raw, list):
            raise ConfigError(
                f"{self.path}: the tokens file is malformed (it must be an object whose "
                f'"tokens" is a list); fix or remove it and create tokens again with '
                f"`mcp-harbor token add`"
            )
        problems: list[str] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(raw):
            problem = _entry_problem(item)
            name = item.get("name") if isinstance(item, dict) else None
            if problem is None and name in seen:
                problem = f"the name {name!r} is also tokens[{seen[name]}]; names are unique"
            if problem is not None:
                label = f" ({visible(name)!r})" if isinstance(name, str) else ""
                problems.append(
                    f"{self.path}: tokens[{index}]{label}: {problem}; fix or remove the entry "
                    f"(`mcp-harbor token add` makes valid ones)"
                )
            elif isinstance(name, str):
                seen[name] = index
        if problems:
            raise ConfigError("\n".join(problems), problems)
        return [
            TokenEntry(
                name=t["name"],
                tenant=t.get("tenant", "default"),
                groups=tuple(t.get("groups", [])),
                sha256=t["sha256"],
                created=t.get("created", ""),
            )
            for t in raw
        ]

    def _save(self, entries: list[TokenEntry]) -> None:
        """Write `entries` (mode 0600), replacing the file whole.

        Raises:
            ConfigError: the file or its folder cannot be written.
        """
        tmp = self.path.with_suffix(".tmp")
        payload = {"version": 1, "tokens": [e.to_json() for e in entries]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, indent=2)
                fh.write("\n")
            os.replace(tmp, self.path)
        except OSError as exc:
            raise ConfigError(
                f"{self.path}: cannot write the tokens file ({exc.strerror or exc}"
                f"{f': {exc.filename}' if exc.filename else ''}); pass --tokens FILE in a "
                f"folder you can write"
            ) from None

    def add(self, name: str, tenant: str = "default", groups: tuple[str, ...] = ()) -> str:
        """Create a token for `name` and return it (the only time it is shown).

        Raises:
            ConfigError: the name is invalid or already has a token.
        """
        problem = token_name_problem(name)
        if problem is not None:
            raise ConfigError(problem)
        for value, what in [(tenant, "tenant"), *((g, "group") for g in groups)]:
            if not _NAME.match(value):
                raise ConfigError(f"{what} {value!r} is invalid: use letters, digits, _ . @ -")
        entries = self.load()
        if any(e.name == name for e in entries):
            raise ConfigError(
                f"a token named {name!r} exists; revoke it first (`mcp-harbor token revoke {name}`)"
            )
        token = "mh_" + secrets.token_urlsafe(32)
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        entries.append(TokenEntry(name, tenant, tuple(groups), _digest(token), created))
        self._save(entries)
        return token

    def revoke(self, name: str) -> bool:
        """Remove `name`'s token; False if there was none."""
        entries = self.load()
        kept = [e for e in entries if e.name != name]
        if len(kept) == len(entries):
            return False
        self._save(kept)
        return True


class HarborTokenVerifier(TokenVerifier):
    """Checks bearer tokens against the tokens file (re-read when it changes)."""

    def __init__(self, tokens: TokensFile) -> None:
        self._tokens = tokens
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int, int] | None = None
        self._entries: list[TokenEntry] = tokens.load()

    def _current(self) -> list[TokenEntry]:
        """The entries, re-read only when the file changed since the last read.

        One ``stat`` per request decides: a change of inode (``token add`` and
        ``revoke`` replace the file), size, modification or change time
        (which no ``touch`` can set back) means the file is read again, so a
        revocation counts from the very next request.
        """
        try:
            st = self._tokens.path.stat()
            stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except OSError:
            stamp = (0, 0, 0, 0)
        with self._lock:
            if stamp != self._stamp:
                try:
                    self._entries = self._tokens.load()
                    self._stamp = stamp
                except ConfigError as exc:
                    self._entries = []  # fail closed: a broken file admits nobody
                    self._stamp = stamp  # said once, read again when it changes
                    log.error("no token is accepted until the tokens file is fixed: %s", exc)
            return self._entries

    def lookup(self, token: str) -> TokenEntry | None:
        digest = _digest(token)
        found: TokenEntry | None = None
        for entry in self._current():
            if hmac.compare_digest(entry.sha256, digest):
                found = entry
        return found

    async def verify_token(self, token: str) -> AccessToken | None:
        entry = self.lookup(token)
        if entry is None:
            return None
        return AccessToken(
            token=token,
            client_id=entry.name,
            subject=entry.name,
            scopes=[],
            claims={"tenant": entry.tenant, "groups": list(entry.groups)},
        )


def http_verifier(tokens: Path, host: str) -> HarborTokenVerifier | None:
    """The HTTP authentication policy: bearer tokens from the `tokens` file
    when it has any; none only on a loopback `host` (every local caller is
    then ``anonymous``, which is logged as a warning).

    Raises:
        ConfigError: the tokens file is invalid, or it has no tokens and
            `host` is not loopback (serving unauthenticated is refused).
    """
    from mcp_harbor.server.app import is_loopback

    tokens_file = TokensFile(tokens)
    if tokens_file.load():
        return HarborTokenVerifier(tokens_file)
    if not is_loopback(host):
        raise ConfigError(
            f"refusing to serve HTTP on {host} without authentication: create a token "
            f"(`mcp-harbor token add NAME`, tokens file {tokens}) or bind 127.0.0.1"
        )
    log.warning(
        "serving HTTP on loopback without tokens: every local caller is 'anonymous'; "
        "create tokens with `mcp-harbor token add NAME` (file %s)",
        tokens,
    )
    return None
