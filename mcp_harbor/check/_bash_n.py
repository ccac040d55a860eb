"""Running ``bash -n`` on many scripts: one process per script, several at a
time, started by a worker process while the caller goes on with its work.

Each script gets its own ``bash --noprofile --norc -n`` reading the script
on stdin (nothing is batched: a script's unterminated quote or here-doc can
never hide another script's error). The processes are started with
`os.posix_spawn` by `mcp_harbor.check._bash_n_worker`, a small process of
its own (~10 ms to start) fed over a pipe: started from a thread of the
server, each process would wait for the server's GIL (one every ~5 ms while
the server loads and imports, instead of one per ~1 ms).

Guarantees:

- The verdict of a script is exactly what its own ``bash -n`` said: None
  when it wrote nothing and exited 0; otherwise its output (stdout and
  stderr, in the order written), or the exit status, or why it could not
  run or did not finish within its timeout (`TIMEOUT` seconds; the process
  is then killed). Every failure is a verdict that refuses, and so is a
  worker that cannot start or dies: there is no fallback.
- Nothing of a script is ever executed: ``bash -n`` only parses.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from mcp_harbor.check._bash_n_worker import FIRST, HURRY, IN, OUT, QUEUE

__all__ = ["TIMEOUT", "Pool"]

TIMEOUT = 5.0
_WORKER = Path(__file__).with_name("_bash_n_worker.py")


class Pool:
    """Runs ``bash -n`` for queued scripts and hands each verdict to
    `done(key, verdict)` (from a thread of the pool).

    At most `background` processes run at a time while nobody waits for a
    verdict (the caller keeps a core for its own work), and up to `workers`
    once someone does (`hurry`), until the queue is empty. The worker
    process lives while verdicts are pending and exits after the last."""

    def __init__(
        self,
        bash: str,
        done: Callable[[str, str | None], None],
        workers: int = 3,
        timeout: float = TIMEOUT,
        background: int | None = None,
    ) -> None:
        self.bash = bash
        self.done = done
        self.workers = max(1, workers)
        self.background = (
            self.workers if background is None else max(1, min(background, self.workers))
        )
        self.timeout = timeout
        self._lock = threading.Lock()  # the state below
        self._wlock = threading.Lock()  # writes to the worker
        self._proc: subprocess.Popen[bytes] | None = None
        self._keys: dict[int, str] = {}  # pending: id -> key
        self._next_id = 0
        self._hurried = False

    def add(self, items: list[tuple[str, str]], *, first: bool = False) -> None:
        """Queue (key, script) pairs; `first` puts them ahead of the queue
        (a caller is waiting for them now)."""
        if not items:
            return
        frames = bytearray()
        with self._lock:
            try:
                proc = self._worker()
            except OSError as exc:
                proc = None
                error = exc
            else:
                for key, text in items:
                    ident = self._next_id
                    self._next_id += 1
                    self._keys[ident] = key
                    body = text.encode("utf-8")
                    frames += IN.pack(FIRST if first else QUEUE, ident, len(body)) + body
        if proc is None:
            for key, _text in items:
                self.done(key, f"bash -n could not run: {error}")
            return
        # Not under _lock: the reader needs it to drain the worker's answers,
        # without which the worker stops reading what is written here.
        self._write(proc, bytes(frames))

    def hurry(self) -> None:
        """Someone waits for a verdict: run up to `workers` at a time until
        the queue is empty."""
        with self._lock:
            proc = self._proc
            if proc is None or self._hurried:
                return
            self._hurried = True
        self._write(proc, IN.pack(HURRY, 0, 0))

    def _close_input(self, proc: subprocess.Popen[bytes]) -> None:
        with self._wlock:
            if proc.stdin is not None and not proc.stdin.closed:
                with contextlib.suppress(OSError):
                    proc.stdin.close()

    def _write(self, proc: subprocess.Popen[bytes], data: bytes) -> None:
        # A worker that is gone takes the write with it: its reader thread
        # sees the end of its output and refuses every verdict still pending.
        with self._wlock, contextlib.suppress(OSError, ValueError):
            assert proc.stdin is not None
            proc.stdin.write(data)
            proc.stdin.flush()

    def _worker(self) -> subprocess.Popen[bytes]:
        """The running worker, started if need be (call with the lock held)."""
        if self._proc is not None:
            return self._proc
        proc = subprocess.Popen(
            [
                sys.executable,
                "-I",
                "-S",
                str(_WORKER),
                self.bash,
                str(self.workers),
                str(self.background),
                repr(self.timeout),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={},
        )
        self._proc = proc
        self._hurried = False
        threading.Thread(
            target=self._read, args=(proc,), name="mcp-harbor-bash-n", daemon=True
        ).start()
        return proc

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        """Hand over the worker's verdicts; close its input after the last
        pending one (it then exits); report what a dead worker left."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        buf = bytearray()
        try:
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                buf += chunk
                verdicts: list[tuple[str, str | None]] = []
                while len(buf) >= OUT.size:
                    ident, kind, length = OUT.unpack_from(buf)
                    if len(buf) < OUT.size + length:
                        break
                    text = bytes(buf[OUT.size : OUT.size + length]).decode("utf-8", "replace")
                    del buf[: OUT.size + length]
                    with self._lock:
                        key = self._keys.pop(ident, None)
                    if key is not None:
                        verdicts.append((key, None if kind == 0 else text))
                for key, verdict in verdicts:
                    self.done(key, verdict)
                with self._lock:
                    idle = not self._keys and self._proc is proc
                    if idle:
                        self._proc = None  # a later add starts a new worker
                if idle:
                    self._close_input(proc)  # the worker finishes and exits
        finally:
            with self._lock:
                lost = list(self._keys.values()) if self._proc is proc else []
                if self._proc is proc:
                    self._keys.clear()
                    self._proc = None
            self._close_input(proc)
            proc.wait()
            proc.stdout.close()
            for key in lost:
                self.done(key, f"bash -n worker ended early (status {proc.returncode})")
