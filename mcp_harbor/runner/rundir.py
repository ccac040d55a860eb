"""Run ids and run directories."""

from __future__ import annotations

import os
import secrets
import shutil
import threading
import time
from pathlib import Path

from mcp_harbor.errors import RunError
from mcp_harbor.locations import default_runs_root

__all__ = ["default_runs_root", "new_run_dir", "new_run_id", "write_private"]


_second: tuple[int, str] = (-1, "")


def new_run_id() -> str:
    """A run id that sorts by start time: ``20261129T205312Z-1a2b3c4d5e``."""
    global _second
    now = int(time.time())
    if _second[0] != now:  # strftime once per second, not per run
        _second = (now, time.strftime("%Y%m%dT%H%M%SZ-", time.gmtime(now)))
    return _second[1] + secrets.token_hex(5)


#: Pruning lists the whole runs folder, so it happens at most this often per
#: folder (not on every call): between two prunes the folder may briefly hold
#: more than ``keep`` runs.
_PRUNE_EVERY_S = 10.0
_last_prune: dict[Path, float] = {}

#: Runs younger than this are never pruned, so a burst of calls (or a small
#: ``keep``) cannot remove the directory of a run that is still going.
_PRUNE_MIN_AGE_S = 600.0


def new_run_dir(root: Path, run_id: str, keep: int) -> Path:
    """Create the fresh directory of run `run_id` under `root`, then remove
    the oldest run directories (by modification time) beyond the newest
    `keep`; a directory younger than ten minutes is never removed, nor the one
    just created. ``keep <= 0`` removes nothing. Pruning runs at most every
    10 s per folder.

    Raises:
        RunError: the directory cannot be created.
    """
    run_dir = root / run_id
    try:
        try:
            run_dir.mkdir(mode=0o700)
        except FileNotFoundError:  # the first run under `root` (or it was removed)
            root.mkdir(mode=0o700, parents=True, exist_ok=True)
            run_dir.mkdir(mode=0o700)
    except OSError as exc:
        raise RunError(f"cannot create the run directory under {root}: {exc.strerror}") from exc
    if keep > 0:
        now = time.monotonic()
        last = _last_prune.get(root)
        if last is None or now - last >= _PRUNE_EVERY_S:
            _last_prune[root] = now
            # Listing a big runs folder takes a while: never on the caller's
            # (the event loop's) time.
            threading.Thread(
                target=_prune, args=(root, run_dir, keep), name="prune-runs", daemon=True
            ).start()
    return run_dir


def _prune(root: Path, fresh: Path, keep: int) -> None:
    aged: list[tuple[int, Path]] = []
    try:
        with os.scandir(root) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.path != str(fresh):
                    aged.append((entry.stat(follow_symlinks=False).st_mtime_ns, Path(entry.path)))
    except OSError:
        return
    excess = len(aged) + 1 - keep
    if excess <= 0:
        return
    cutoff = time.time_ns() - int(_PRUNE_MIN_AGE_S * 1e9)
    for mtime, path in sorted(aged)[:excess]:
        if mtime < cutoff:
            shutil.rmtree(path, ignore_errors=True)


def write_private(path: Path, data: bytes) -> None:
    """Write the run file `path` (created or truncated), readable by the
    server's user only (0600).

    Raises:
        OSError: it cannot be written.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
