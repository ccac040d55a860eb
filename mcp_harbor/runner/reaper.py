"""A watchdog that stops a server's process groups if the server dies.

Each step runs in its own session, so nothing the kernel does ties it to the
server: if the server is killed (SIGKILL, OOM killer), the pipelines it was
running would go on, orphaned. The reaper is a tiny child process that holds
the read end of a pipe from the server and a table of process groups in
memory shared with it; when the pipe closes without the server having said
goodbye, it sends SIGKILL to every group in the table and exits. It ignores
SIGINT, SIGTERM and SIGHUP so that a signal to the server's process group
does not take it out first.

Registering a group writes one slot of the shared table: no system call, and
the reaper is not woken (it sleeps in ``read`` until the server is gone), so a
step costs the watchdog nothing. Only when all `_SLOTS` slots are taken do
further groups go over the pipe as ``+PGID``/``-PGID`` lines.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import mmap
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

__all__ = ["Reaper", "reaper"]

log = logging.getLogger("mcp_harbor.runner")

#: Groups the shared table holds (4 bytes each): far more steps than one
#: server runs at once; beyond it the pipe carries the rest.
_SLOTS = 16384

# Run with `python -I -S -c`: no site, no project import, so it starts in a
# few milliseconds and has nothing to break.
_PROGRAM = r"""
import mmap, os, signal, struct, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
table = mmap.mmap(int(sys.argv[1]), 0)
groups = set()
bye = False
for line in sys.stdin.buffer:
    line = line.strip()
    if line == b"bye":
        bye = True
        break
    if line[:1] == b"+":
        groups.add(int(line[1:]))
    elif line[:1] == b"-":
        groups.discard(int(line[1:]))
if not bye:
    groups.update(struct.unpack("%di" % (len(table) // 4), table))
    for pgid in groups:
        if pgid > 1 and pgid != os.getpgrp():  # never init's group, never our own
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
"""


class Reaper:
    """The server's side of the watchdog. Thread-safe; never raises."""

    def __init__(self, slots: int = _SLOTS) -> None:
        self._lock = threading.Lock()
        self._size = slots
        self._process: subprocess.Popen[bytes] | None = None
        self._table: mmap.mmap | None = None
        self._slots: dict[int, int] = {}  # pgid -> its slot in the table
        self._free: list[int] = []
        self._broken = False
        #: A file that also records the groups (``+PGID``/``-PGID`` lines), so
        #: that a restarted worker can kill what a dead one left
        #: (`mcp_harbor.remote.ledger.kill_recorded`); None: no file.
        self.ledger: Path | None = None

    def _record(self, line: bytes) -> None:
        if self.ledger is None:
            return
        try:
            with open(self.ledger, "ab") as fh:
                fh.write(line)
        except OSError as exc:
            log.error("cannot record process group in %s: %s", self.ledger, exc)

    def _pipe(self) -> subprocess.Popen[bytes] | None:
        """The reaper process, started on first use (call with the lock held)."""
        if self._process is None and not self._broken:
            shared = -1
            try:
                shared = os.memfd_create("harbor-reaper")
                os.ftruncate(shared, self._size * 4)
                table = mmap.mmap(shared, self._size * 4)
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _PROGRAM, str(shared)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    close_fds=True,
                    pass_fds=(shared,),
                )
            except OSError as exc:
                self._broken = True
                log.error("cannot start the process reaper (%s): orphans possible", exc)
            else:
                self._table = table
                self._slots.clear()
                self._free = list(range(self._size - 1, -1, -1))
                # A process that ran steps (a server, `mcp-harbor run`, a test)
                # says goodbye when it exits normally, so the reaper ends too.
                atexit.register(self.close)
            finally:
                if shared >= 0:
                    os.close(shared)
        return self._process

    def _send(self, line: bytes) -> None:
        """Send one line to the reaper (call with the lock held)."""
        process = self._pipe()
        if process is None or process.stdin is None:
            return
        try:
            process.stdin.write(line)
            process.stdin.flush()
        except OSError as exc:
            self._broken = True
            self._process = None
            log.error("the process reaper is gone (%s): orphans possible", exc)

    def track(self, pgid: int) -> None:
        """Kill group `pgid` if this server dies before `untrack`. Only a
        step's own session may be tracked: never 1, never the server's group."""
        if pgid <= 1 or pgid == os.getpgrp():
            raise ValueError(f"refusing to track process group {pgid}")
        self._record(b"+%d\n" % pgid)
        with self._lock:
            if self._pipe() is None:
                return
            if self._table is not None and self._free and pgid not in self._slots:
                slot = self._free.pop()
                struct.pack_into("i", self._table, slot * 4, pgid)
                self._slots[pgid] = slot
            else:
                self._send(b"+%d\n" % pgid)

    def untrack(self, pgid: int) -> None:
        with self._lock:
            slot = self._slots.pop(pgid, None)
            if slot is not None and self._table is not None:
                struct.pack_into("i", self._table, slot * 4, 0)
                self._free.append(slot)
            elif self._process is not None:
                self._send(b"-%d\n" % pgid)
        self._record(b"-%d\n" % pgid)

    def close(self) -> None:
        """The server is stopping cleanly: the reaper exits without killing."""
        with self._lock:
            process, self._process = self._process, None
            table, self._table = self._table, None
            self._slots.clear()
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.write(b"bye\n")
                process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=2)
        if table is not None:
            table.close()


#: The reaper of this process (started at the first step).
reaper = Reaper()
