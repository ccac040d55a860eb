"""Where mcp-harbor keeps its files by default (XDG base directories).

Cheap to import on purpose: the CLI reads these defaults for ``--help``
before it knows which command will run.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "default_check_cache_path",
    "default_db_path",
    "default_runs_root",
    "default_tokens_path",
    "state_home",
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


def default_tokens_path() -> Path:
    """``$XDG_CONFIG_HOME/mcp-harbor/tokens.json`` (``~/.config/…``): HTTP tokens."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "mcp-harbor" / "tokens.json"
