"""Running ``bash -n`` on many scripts: one process per script, several at
a time, driven from one background thread.

Each script gets its own ``bash --noprofile --norc -n`` reading the script
on stdin (the same invocation as before; nothing is batched: a script's
unterminated quote or here-doc can never hide another script's error). The
processes are started with `os.posix_spawn` (no fork of the server's
memory, no Python-side setup between fork and exec: about half the parent's
CPU per script of `subprocess.run`) and are fed and read by one thread with
a selector, so the caller's thread keeps analysing while they run.

Guarantees:

- The verdict of a script is exactly what its own ``bash -n`` said: None
  when it wrote nothing and exited 0; otherwise its output (stdout and
  stderr, in the order written), or the exit status, or why it could not
  run or did not finish within its timeout (`TIMEOUT` seconds; the process
  is then killed). Every failure is a verdict that refuses; there is no fallback.
- Nothing of a script is ever executed: ``bash -n`` only parses.
- Children get only fds 0, 1 and 2 (the pipes): the server's own fds are
  close-on-exec (PEP 446).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["TIMEOUT", "Pool"]

TIMEOUT = 5.0
#: What ``bash -n`` runs with. Its parse depends on the character classes of
#: LC_CTYPE (C.UTF-8: multibyte UTF-8); the other locale categories only
#: touch run time (collation, numbers) or messages (none translated in C or
#: C.UTF-8), so they stay "C" rather than each being loaded from a file
#: (LC_ALL=C.UTF-8 cost ~0.1 ms more per process). HOME and SHELL set spare
#: bash a password-database lookup at start-up; nothing in a parse reads them.
#: (tests/test_check_bash_n.py compares the verdicts with LC_ALL=C.UTF-8.)


def _env(bash: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "LC_CTYPE": "C.UTF-8", "HOME": "/", "SHELL": bash}


_SIGDEF = tuple(
    s for s in (getattr(signal, n, None) for n in ("SIGPIPE", "SIGXFZ", "SIGXFSZ")) if s
)


@dataclass(slots=True)
class _Child:
    key: str
    pid: int
    stdin: int | None  # our end, non-blocking; None once all was written
    output: int  # our end of the child's stdout + stderr, non-blocking
    data: memoryview
    started: float
    chunks: list[bytes] = field(default_factory=list)


def _spawn(bash: str, key: str, text: str) -> _Child:
    """Start ``bash -n`` on `text` (raises OSError when it cannot start)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        pid = os.posix_spawn(
            bash,
            [bash, "--noprofile", "--norc", "-n"],
            _env(bash),
            file_actions=[
                (os.POSIX_SPAWN_DUP2, in_r, 0),
                (os.POSIX_SPAWN_DUP2, out_w, 1),
                (os.POSIX_SPAWN_DUP2, out_w, 2),
            ],
            setsigdef=_SIGDEF,
        )
    except BaseException:
        for fd in (in_r, in_w, out_r, out_w):
            os.close(fd)
        raise
    os.close(in_r)
    os.close(out_w)
    os.set_blocking(in_w, False)
    os.set_blocking(out_r, False)
    data = memoryview(text.encode("utf-8"))
    return _Child(key, pid, in_w, out_r, data, time.monotonic())


def _verdict(status: int, output: bytes) -> str | None:
    text = output.decode("utf-8", errors="replace").strip()
    code = os.waitstatus_to_exitcode(status)
    if code != 0 or text:
        return text or f"bash -n exited with status {code}"
    return None


class Pool:
    """Runs ``bash -n`` for queued scripts on a background thread, at most
    `workers` at a time, and hands each verdict to `done(key, verdict)`."""

    def __init__(
        self,
        bash: str,
        done: Callable[[str, str | None], None],
        workers: int = 3,
        timeout: float = TIMEOUT,
    ) -> None:
        self.bash = bash
        self.done = done
        self.workers = workers
        self.timeout = timeout
        self._lock = threading.Lock()
        self._queue: deque[tuple[str, str]] = deque()
        self._thread: threading.Thread | None = None
        #: how to start one child (tests wrap it to see which scripts ran)
        self.spawn: Callable[[str, str, str], _Child] = _spawn

    def add(self, items: list[tuple[str, str]], *, first: bool = False) -> None:
        """Queue (key, script) pairs; `first` puts them ahead of the queue
        (a caller is waiting for them now)."""
        with self._lock:
            if first:
                self._queue.extendleft(reversed(items))
            else:
                self._queue.extend(items)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="mcp-harbor-bash-n", daemon=True
                )
                self._thread.start()

    def _next(self) -> tuple[str, str] | None:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            return None

    def _run(self) -> None:
        children: dict[int, _Child] = {}  # by output fd
        try:
            self._loop(children)
        except BaseException as exc:  # a bug here must not leave a caller waiting
            with self._lock:
                items = [(c.key, "") for c in children.values()] + list(self._queue)
                self._queue.clear()
                self._thread = None
            for key, _text in items:
                self.done(key, f"bash -n runner failed: {exc!r}")
            raise

    def _loop(self, children: dict[int, _Child]) -> None:
        sel = selectors.DefaultSelector()
        try:
            while True:
                while len(children) < self.workers:
                    item = self._next()
                    if item is None:
                        break
                    self._start(sel, children, *item)
                if not children:
                    with self._lock:
                        if not self._queue:
                            self._thread = None
                            return
                    continue
                now = time.monotonic()
                deadline = min(c.started for c in children.values()) + self.timeout
                for key, _events in sel.select(max(0.0, deadline - now)):
                    child: _Child = key.data
                    if children.get(child.output) is not child:
                        continue  # finished while handling an earlier event of this round
                    if key.fd == child.stdin:
                        self._write(sel, child)
                    elif self._read(child):
                        del children[child.output]
                        self._finish(sel, child)
                now = time.monotonic()
                for out, child in list(children.items()):
                    if now - child.started >= self.timeout:
                        del children[out]
                        self._kill(sel, child)
        finally:
            sel.close()

    def _start(
        self, sel: selectors.BaseSelector, children: dict[int, _Child], key: str, text: str
    ) -> None:
        try:
            child = self.spawn(self.bash, key, text)
        except OSError as exc:
            self.done(key, f"bash -n could not run: {exc}")
            return
        children[child.output] = child
        sel.register(child.output, selectors.EVENT_READ, child)
        self._write(sel, child, registered=False)

    @staticmethod
    def _write(sel: selectors.BaseSelector, child: _Child, registered: bool = True) -> None:
        """Write what the pipe takes; close our end once all is written."""
        assert child.stdin is not None
        try:
            sent = os.write(child.stdin, child.data) if child.data else 0
        except BlockingIOError:
            sent = 0
        except OSError:  # bash exited before reading it all: its output says why
            sent = len(child.data)
        child.data = child.data[sent:]
        if child.data:
            if not registered:
                sel.register(child.stdin, selectors.EVENT_WRITE, child)
            return
        if registered:
            sel.unregister(child.stdin)
        os.close(child.stdin)
        child.stdin = None

    @staticmethod
    def _read(child: _Child) -> bool:
        """Read what is there; True at the end of the child's output."""
        try:
            chunk = os.read(child.output, 65536)
        except BlockingIOError:
            return False
        if chunk:
            child.chunks.append(chunk)
            return False
        return True

    @staticmethod
    def _close(sel: selectors.BaseSelector, child: _Child) -> None:
        registered = sel.get_map()
        for fd in (child.stdin, child.output):
            if fd is not None:
                if fd in registered:
                    sel.unregister(fd)
                os.close(fd)
        child.stdin = None

    def _finish(self, sel: selectors.BaseSelector, child: _Child) -> None:
        """The child closed its output: it has exited or is about to."""
        self._close(sel, child)
        _, status = os.waitpid(child.pid, 0)
        self.done(child.key, _verdict(status, b"".join(child.chunks)))

    def _kill(self, sel: selectors.BaseSelector, child: _Child) -> None:
        self._close(sel, child)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        os.waitpid(child.pid, 0)
        self.done(child.key, f"bash -n did not finish within {self.timeout:g} s")
