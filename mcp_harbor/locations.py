"""Where mcp-harbor keeps its files by default (XDG base directories), and
how a location is shown: a URL without its password (`without_password`).

Cheap to import on purpose: the CLI reads these defaults for ``--help``
before it knows which command will run.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

__all__ = [
    "config_home",
    "default_audit_key_path",
    "default_audit_witness_path",
    "default_check_cache_path",
    "default_db_path",
    "default_runs_root",
    "default_tokens_path",
    "state_home",
    "without_password",
]


def state_home() -> Path:
    """``$XDG_STATE_HOME/mcp-harbor`` (``~/.local/state/mcp-harbor``)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "mcp-harbor"


def default_runs_root() -> Path:
    """``$XDG_STATE_HOME/mcp-harbor/runs``: run directories (logs, scripts)."""
    return state_home() / "runs"


def default_db_path() -> Path:
    """``$XDG_STATE_HOME/mcp-harbor/harbor.db``: the audit trail."""
    return state_home() / "harbor.db"


def default_check_cache_path() -> Path:
    """``$XDG_STATE_HOME/mcp-harbor/check-cache``: the checker's verdicts,
    kept across starts (safe to delete)."""
    return state_home() / "check-cache"


def config_home() -> Path:
    """``$XDG_CONFIG_HOME/mcp-harbor`` (``~/.config/mcp-harbor``)."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "mcp-harbor"


def default_tokens_path() -> Path:
    """``$XDG_CONFIG_HOME/mcp-harbor/tokens.json`` (``~/.config/…``): HTTP tokens."""
    return config_home() / "tokens.json"


def default_audit_key_path() -> Path:
    """``$XDG_CONFIG_HOME/mcp-harbor/audit.key``: the key that signs the
    audit chain's checkpoints (outside the database, created 0600)."""
    return config_home() / "audit.key"


def default_audit_witness_path() -> Path:
    """``$XDG_CONFIG_HOME/mcp-harbor/audit.witness``: the signed checkpoints,
    one JSON line each (outside the database)."""
    return config_home() / "audit.witness"


def without_password(location: str) -> str:
    """`location` (a ``--db`` value, a broker URL) as messages, logs and
    hints may show it: a URL without its password.

    The password of the user info goes (``scheme://user:pw@host`` →
    ``scheme://user@host``; ``scheme://:pw@host`` → ``scheme://host``), and
    so does every ``password=`` query parameter (libpq's spelling).
    Everything else is kept as written (several hosts, ``sslmode=…``, the
    path, percent-escapes), so the result still names the same place: pass
    it back with the password from the environment (``PGPASSWORD``,
    ``~/.pgpass``, ``REDISCLI_AUTH``). Text that is not a URL (no ``://``:
    a file path) is returned unchanged. Never raises.
    """
    scheme, sep, rest = location.partition("://")
    if not sep:
        return location
    # The user info ends at the last "@" before the query: also past a "/"
    # that a password should have escaped, and did not (over-scrubbing a
    # path with an "@" in it is the lesser harm).
    at = rest.rfind("@", 0, _end(rest, "?#"))
    user = ""
    if at >= 0:
        user, rest = rest[:at].partition(":")[0], rest[at + 1 :]
    cut = _end(rest, "/?#")
    netloc, tail = (f"{user}@" if user else "") + rest[:cut], rest[cut:]
    tail, hash_, fragment = tail.partition("#")
    path, question, query = tail.partition("?")
    if question:
        kept = [p for p in query.split("&") if unquote(p.partition("=")[0]) != "password"]
        tail = f"{path}?{'&'.join(kept)}" if kept else path
    return f"{scheme}://{netloc}{tail}{hash_}{fragment}"


def _end(text: str, stops: str) -> int:
    """Where the first of `stops` is in `text`, else its length."""
    return min((i for i in map(text.find, stops) if i >= 0), default=len(text))
