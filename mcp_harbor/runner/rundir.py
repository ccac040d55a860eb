"""Run ids and run directories."""

from __future__ import annotations

import os
import secrets
import shutil
import time
from pathlib import Path

from mcp_harbor.errors import RunError

__all__ = ["default_runs_root", "new_run_dir", "new_run_id"]


def default_runs_root() -> Path:
    """``$XDG_STATE_HOME/mcp-harbor/runs`` (``~/.local/state/mcp-harbor/runs``)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "mcp-harbor" / "runs"


def new_run_id() -> str:
    """A run id that sorts by start time: ``20261129T205312Z-1a2b3c4d5e``."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + secrets.token_hex(5)


def new_run_dir(root: Path, run_id: str, keep: int) -> Path:
    """Create the fresh directory of run `run_id` under `root` and remove the
    oldest run directories beyond the newest `keep`.

    Raises:
        RunError: the directory cannot be created.
    """
    try:
        root.mkdir(parents=True, exist_ok=True)
        run_dir = root / run_id
        run_dir.mkdir(mode=0o700)
    except OSError as exc:
        raise RunError(f"cannot create the run directory under {root}: {exc.strerror}") from exc
    if keep > 0:
        try:
            existing = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            existing = []
        for old in existing[: max(0, len(existing) - keep)]:
            shutil.rmtree(old, ignore_errors=True)
    return run_dir
