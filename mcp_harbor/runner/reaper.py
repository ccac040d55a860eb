"""A watchdog that stops a server's process groups if the server dies.

Each step runs in its own session, so nothing the kernel does ties it to the
server: if the server is killed (SIGKILL, OOM killer), the pipelines it was
running would go on, orphaned. The reaper is a tiny child process that reads
``+PGID`` and ``-PGID`` lines from a pipe the server holds; when the pipe
closes without the server having said goodbye, it sends SIGKILL to every
group still registered and exits. It ignores SIGINT, SIGTERM and SIGHUP so
that a signal to the server's process group does not take it out first.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

__all__ = ["Reaper", "reaper"]

log = logging.getLogger("mcp_harbor.runner")

# Run with `python -I -S -c`: no site, no project import, so it starts in a
# few milliseconds and has nothing to break.
_PROGRAM = r"""
import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
groups = set()
for line in sys.stdin.buffer:
    line = line.strip()
    if line == b"bye":
        groups.clear()
        break
    if line[:1] == b"+":
        pgid = int(line[1:])
        if pgid > 1 and pgid != os.getpgrp():  # never init's group, never our own
            groups.add(pgid)
    elif line[:1] == b"-":
        groups.discard(int(line[1:]))
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
"""


class Reaper:
    """The server's side of the watchdog. Thread-safe; never raises."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._broken = False
        #: A file that also records the groups (``+PGID``/``-PGID`` lines), so
        #: that a restarted worker can kill what a dead one left
        #: (`mcp_harbor.worker.ledger.kill_recorded`); None: no file.
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
        if self._process is None and not self._broken:
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _PROGRAM],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    close_fds=True,
                )
            except OSError as exc:
                self._broken = True
                log.error("cannot start the process reaper (%s): orphans possible", exc)
            else:
                # A process that ran steps (a server, `mcp-harbor run`, a test)
                # says goodbye when it exits normally, so the reaper ends too.
                atexit.register(self.close)
        return self._process

    def _send(self, line: bytes) -> None:
        with self._lock:
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
        self._send(b"+%d\n" % pgid)

    def untrack(self, pgid: int) -> None:
        self._send(b"-%d\n" % pgid)
        self._record(b"-%d\n" % pgid)

    def close(self) -> None:
        """The server is stopping cleanly: the reaper exits without killing."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.write(b"bye\n")
                process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=2)


#: The reaper of this process (started at the first step).
reaper = Reaper()
