"""Follow a running step's log files and hand complete lines to an observer.

Bounded: each poll reads at most 64 KiB per stream; a stream that has run
more than 1 MiB ahead is skipped forward (the skip is reported as a line), so
a step printing gigabytes costs a few reads, never the whole output; a line
longer than 4 KiB is cut.

With a `Scrubber`, every line is scrubbed before it is cut or handed over;
a line longer than 4 KiB is scrubbed with enough held back to see a whole
secret, and after a skip the stream resumes at the next line (so no part
of a secret cut by the skip is handed over).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from mcp_harbor.runner.scrub import Scrubber

__all__ = ["follow_logs"]

_POLL_S = 0.1
_READ_MAX = 64 * 1024
_BEHIND_MAX = 1024 * 1024
_LINE_MAX = 4096

#: Receives (stream, line); returns False when it wants no more lines.
LineSink = Callable[[str, str], Awaitable[bool]]


class _Tail:
    def __init__(self, path: Path, stream: str, scrubber: Scrubber | None) -> None:
        self.path = path
        self.stream = stream
        self.offset = 0
        self.partial = b""
        self.scrubber = scrubber
        #: After a skip: drop what comes before the next line.
        self.resync = False

    def read(self, final: bool) -> list[str]:
        try:
            size = self.path.stat().st_size
            lines: list[str] = []
            if size - self.offset > _BEHIND_MAX:
                skipped = size - _READ_MAX - self.offset
                lines.append(f"[… {skipped} bytes not streamed; the full output is in the log]")
                self.offset, self.partial = size - _READ_MAX, b""
                self.resync = self.scrubber is not None
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read(_READ_MAX)
        except OSError:
            return []
        self.offset += len(data)
        if self.resync:
            start = data.find(b"\n")
            self.resync = start < 0
            data = b"" if start < 0 else data[start + 1 :]
        parts = (self.partial + data).split(b"\n")
        self.partial = parts.pop()
        scrubber = self.scrubber
        if scrubber is not None:
            parts = [scrubber.scrub_bytes(p) for p in parts]
        if final and self.partial:
            parts.append(self.partial if scrubber is None else scrubber.scrub_bytes(self.partial))
            self.partial = b""
        elif len(self.partial) > _LINE_MAX:
            if scrubber is None:
                parts.append(self.partial)
                self.partial = b""
            else:  # hold back what may be the start of a secret
                done, self.partial = scrubber.scrub_stream(self.partial)
                if done:
                    parts.append(done)
        lines.extend(p[:_LINE_MAX].decode("utf-8", errors="replace") for p in parts)
        return lines


async def follow_logs(
    stdout: Path,
    stderr: Path,
    sink: LineSink,
    done: anyio.Event,
    scrubber: Scrubber | None = None,
) -> None:
    """Poll both logs every 0.1 s until `done` is set, then flush what is
    left; every line scrubbed by `scrubber` first (None: none).

    **Cancellation:** stops at once; lines not yet handed over are dropped.
    """
    tails = [_Tail(stdout, "stdout", scrubber), _Tail(stderr, "stderr", scrubber)]
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
