"""A worker's record of its process groups, read back by the next worker.

A worker killed with SIGKILL takes its reaper's pipe with it, and the reaper
kills the groups; when the reaper died too (the worker's whole process group
was killed, the machine's OOM killer took both), the groups would run on.
The ledger (`Reaper.ledger`) lists them, one line per change: ``+<pgid>``
when a group starts, ``-<pgid>`` when it is gone; `kill_recorded` kills those
that still have live members when the next worker starts.
"""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

from mcp_harbor.runner.process import _group_members

__all__ = ["kill_recorded"]

log = logging.getLogger("mcp_harbor.remote")


def kill_recorded(ledger: Path) -> list[int]:
    """SIGKILL every group the ledger still lists as running, then empty
    the ledger. Returns the groups killed. Never signals group 1 nor the
    caller's own group; a line that is not ``+<pgid>``/``-<pgid>`` (a write
    cut short by the crash) is logged and skipped; a group that cannot be
    signalled (gone meanwhile, or another user's) is logged and skipped.
    A missing ledger is an empty one."""
    try:
        lines = ledger.read_bytes().split(b"\n")
    except FileNotFoundError:
        return []
    groups: set[int] = set()
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        try:
            pgid = int(line[1:])
        except ValueError:
            pgid = 0
        if line[:1] == b"+" and pgid:
            groups.add(pgid)
        elif line[:1] == b"-" and pgid:
            groups.discard(pgid)
        else:
            log.warning("%s:%d: not a ledger line, skipped: %r", ledger, number, line[:80])
    killed = []
    for pgid in sorted(groups):
        if pgid <= 1 or pgid == os.getpgrp() or not _group_members(pgid):
            continue
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            log.info("process group %d ended before it could be killed", pgid)
        except PermissionError as exc:
            log.error("process group %d (in %s) cannot be killed: %s", pgid, ledger, exc)
        else:
            killed.append(pgid)
    fd = os.open(ledger, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.close(fd)
    return killed
