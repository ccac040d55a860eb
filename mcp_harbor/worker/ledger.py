"""A worker's record of its process groups, read back by the next worker.

A worker killed with SIGKILL takes its reaper's pipe with it, and the reaper
kills the groups; when the reaper died too (the worker's whole process group
was killed, the machine's OOM killer took both), the groups would run on.
The ledger (`Reaper.ledger`) lists them; `kill_recorded` kills those that
still have live members when the next worker starts.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from mcp_harbor.runner.process import _group_members

__all__ = ["kill_recorded"]


def kill_recorded(ledger: Path) -> list[int]:
    """SIGKILL every group the ledger still lists as running, then empty
    the ledger. Returns the groups killed."""
    try:
        lines = ledger.read_bytes().split(b"\n")
    except FileNotFoundError:
        return []
    groups: set[int] = set()
    for line in lines:
        with contextlib.suppress(ValueError):
            if line[:1] == b"+":
                groups.add(int(line[1:]))
            elif line[:1] == b"-":
                groups.discard(int(line[1:]))
    killed = []
    for pgid in sorted(groups):
        if pgid <= 1 or pgid == os.getpgrp() or not _group_members(pgid):
            continue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
            killed.append(pgid)
    fd = os.open(ledger, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.close(fd)
    return killed
