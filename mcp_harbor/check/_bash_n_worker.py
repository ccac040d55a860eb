"""The process that runs ``bash -n`` for `mcp_harbor.check._bash_n.Pool`.

Run as ``python -I -S _bash_n_worker.py BASH WORKERS BACKGROUND TIMEOUT``
(standard library only). It is a separate process so that starting and
reaping the ``bash -n`` processes never waits for the server's GIL: with the
server busy loading and importing, a thread of its own got one process
started every ~5 ms instead of every ~1 ms.

Protocol, on stdin and stdout (big-endian):

- in: ``>BII`` (kind, id, length) then `length` bytes: kind 1 queues the
  script, kind 2 queues it ahead of the others (a caller waits for it now),
  kind 3 (no bytes) means a caller waits: run up to WORKERS at a time from
  now on instead of BACKGROUND. End of input: finish the queue and exit.
- out: ``>IBI`` (id, kind, length) then `length` bytes: kind 0 when ``bash
  -n`` wrote nothing and exited 0 (no bytes), kind 1 with the verdict text
  (what it wrote, or its exit status, or why it could not run or finish).

Each script gets its own ``bash --noprofile --norc -n`` reading it on
stdin: nothing is batched, nothing is executed.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import struct
import sys
import time
from collections import deque

IN = struct.Struct(">BII")
OUT = struct.Struct(">IBI")
QUEUE, FIRST, HURRY = 1, 2, 3
_SIGDEF = tuple(s for s in (getattr(signal, n, None) for n in ("SIGPIPE", "SIGXFSZ")) if s)


def env(bash: str) -> dict[str, str]:
    """What ``bash -n`` runs with. Its parse depends on the character classes
    of LC_CTYPE (C.UTF-8: multibyte UTF-8); the other locale categories only
    touch run time (collation, numbers) or messages (none translated in C or
    C.UTF-8), so they stay "C" rather than each being loaded from a file
    (LC_ALL=C.UTF-8 cost ~0.1 ms more per process). HOME and SHELL spare bash
    a password-database lookup at start-up; nothing in a parse reads them.
    (tests/test_check_bash_n.py compares the verdicts with LC_ALL=C.UTF-8.)"""
    return {"PATH": "/usr/bin:/bin", "LC_CTYPE": "C.UTF-8", "HOME": "/", "SHELL": bash}


class Child:
    __slots__ = ("chunks", "data", "ident", "output", "pid", "started", "stdin")

    def __init__(self, ident: int, pid: int, stdin: int, output: int, data: bytes) -> None:
        self.ident = ident
        self.pid = pid
        self.stdin: int | None = stdin
        self.output = output
        self.data = memoryview(data)
        self.started = time.monotonic()
        self.chunks: list[bytes] = []


def spawn(bash: str, ident: int, data: bytes) -> Child:
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        pid = os.posix_spawn(
            bash,
            [bash, "--noprofile", "--norc", "-n"],
            env(bash),
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
    return Child(ident, pid, in_w, out_r, data)


class Worker:
    def __init__(self, bash: str, workers: int, background: int, timeout: float) -> None:
        self.bash = bash
        self.workers = workers
        self.background = background
        self.timeout = timeout
        self.hurry = False
        self.queue: deque[tuple[int, bytes]] = deque()
        self.children: dict[int, Child] = {}  # by output fd
        self.inbuf = bytearray()
        self.eof = False
        self.sel = selectors.DefaultSelector()

    def reply(self, ident: int, verdict: str | None) -> None:
        body = b"" if verdict is None else verdict.encode("utf-8", "replace")
        data = OUT.pack(ident, 0 if verdict is None else 1, len(body)) + body
        view = memoryview(data)
        while view:
            view = view[os.write(1, view) :]

    def take_input(self) -> None:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            self.eof = True
            self.sel.unregister(0)
            return
        self.inbuf += chunk
        while len(self.inbuf) >= IN.size:
            kind, ident, length = IN.unpack_from(self.inbuf)
            if len(self.inbuf) < IN.size + length:
                break
            data = bytes(self.inbuf[IN.size : IN.size + length])
            del self.inbuf[: IN.size + length]
            if kind == HURRY:
                self.hurry = True
            elif kind == FIRST:
                self.queue.appendleft((ident, data))
            else:
                self.queue.append((ident, data))

    def run(self) -> None:
        os.set_blocking(0, False)
        self.sel.register(0, selectors.EVENT_READ, None)
        while True:
            limit = self.workers if self.hurry else self.background
            while len(self.children) < limit and self.queue:
                self.start(*self.queue.popleft())
            if self.eof and not self.queue and not self.children:
                return
            timeout = None
            if self.children:
                oldest = min(c.started for c in self.children.values())
                timeout = max(0.0, oldest + self.timeout - time.monotonic())
            for key, _events in self.sel.select(timeout):
                if key.data is None:
                    self.take_input()
                else:
                    self.handle(key.fd, key.data)
            now = time.monotonic()
            for out, child in list(self.children.items()):
                if now - child.started >= self.timeout:
                    del self.children[out]
                    self.close(child)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(child.pid, signal.SIGKILL)
                    os.waitpid(child.pid, 0)
                    self.reply(child.ident, f"bash -n did not finish within {self.timeout:g} s")

    def handle(self, fd: int, child: Child) -> None:
        """`fd` of `child` is ready."""
        if self.children.get(child.output) is not child:
            return  # finished while handling an earlier event of this round
        if fd == child.stdin:
            self.write(child)
        elif self.read(child):
            del self.children[child.output]
            self.close(child)
            _, status = os.waitpid(child.pid, 0)
            self.reply(child.ident, verdict(status, b"".join(child.chunks)))

    def start(self, ident: int, data: bytes) -> None:
        try:
            child = spawn(self.bash, ident, data)
        except OSError as exc:
            self.reply(ident, f"bash -n could not run: {exc}")
            return
        self.children[child.output] = child
        self.sel.register(child.output, selectors.EVENT_READ, child)
        self.write(child, registered=False)

    def write(self, child: Child, registered: bool = True) -> None:
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
                self.sel.register(child.stdin, selectors.EVENT_WRITE, child)
            return
        if registered:
            self.sel.unregister(child.stdin)
        os.close(child.stdin)
        child.stdin = None

    @staticmethod
    def read(child: Child) -> bool:
        """Read what is there; True at the end of the child's output."""
        try:
            chunk = os.read(child.output, 65536)
        except BlockingIOError:
            return False
        if chunk:
            child.chunks.append(chunk)
            return False
        return True

    def close(self, child: Child) -> None:
        registered = self.sel.get_map()
        for fd in (child.stdin, child.output):
            if fd is not None:
                if fd in registered:
                    self.sel.unregister(fd)
                os.close(fd)
        child.stdin = None


def verdict(status: int, output: bytes) -> str | None:
    text = output.decode("utf-8", errors="replace").strip()
    code = os.waitstatus_to_exitcode(status)
    if code != 0 or text:
        return text or f"bash -n exited with status {code}"
    return None


def main(argv: list[str]) -> int:
    bash, workers, background, timeout = argv[1], int(argv[2]), int(argv[3]), float(argv[4])
    Worker(bash, workers, background, timeout).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
