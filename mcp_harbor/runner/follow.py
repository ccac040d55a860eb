"""Follow a running step's log files and hand complete lines to an observer.

Bounded: each poll reads at most 64 KiB per stream; a stream that has run
more than 1 MiB ahead is skipped forward (the skip is reported as a line), so
a step printing gigabytes costs a few reads, never the whole output; a line
longer than 4 KiB is cut.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

__all__ = ["follow_logs"]

_POLL_S = 0.1
_READ_MAX = 64 * 1024
_BEHIND_MAX = 1024 * 1024
_LINE_MAX = 4096

#: Receives (stream, line); returns False when it wants no more lines.
LineSink = Callable[[str, str], Awaitable[bool]]


class _Tail:
    def __init__(self, path: Path, stream: str) -> None:
        self.path = path
        self.stream = stream
        self.offset = 0
        self.partial = b""

    def read(self, final: bool) -> list[str]:
        try:
            size = self.path.stat().st_size
            lines: list[str] = []
            if size - self.offset > _BEHIND_MAX:
                skipped = size - _READ_MAX - self.offset
                lines.append(f"[… {skipped} bytes not streamed; the full output is in the log]")
                self.offset, self.partial = size - _READ_MAX, b""
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read(_READ_MAX)
        except OSError:
            return []
        self.offset += len(data)
        parts = (self.partial + data).split(b"\n")
        self.partial = parts.pop()
        if len(self.partial) > _LINE_MAX or (final and self.partial):
            parts.append(self.partial)
            self.partial = b""
        lines.extend(p[:_LINE_MAX].decode("utf-8", errors="replace") for p in parts)
        return lines


async def follow_logs(stdout: Path, stderr: Path, sink: LineSink, done: anyio.Event) -> None:
    """Poll both logs every 0.1 s until `done` is set, then flush what is left.

    **Cancellation:** stops at once; lines not yet handed over are dropped.
    """
    tails = [_Tail(stdout, "stdout"), _Tail(stderr, "stderr")]
    wanted = True
    while wanted:
        finished = done.is_set()
        for tail in tails:
            for line in tail.read(final=finished):
                if not await sink(tail.stream, line):
                    wanted = False
                    break
            if not wanted:
                break
        if finished:
            return
        with anyio.move_on_after(_POLL_S):
            await done.wait()
