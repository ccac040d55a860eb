"""A step's own progress: the lines it appends to ``$HARBOR_PROGRESS``,
parsed (`parse_progress_line`) and followed while it runs (`follow_progress`).

A line is ``N/TOTAL message`` (``3/10 compiling``: N and TOTAL whole numbers,
0 <= N <= TOTAL, TOTAL >= 1) or ``PERCENT% message`` (``42% linking``,
``12.5%``: 0 to 100); the message is optional. Anything else is ignored, as
is a line whose numbers are out of range: a step cannot make the runner fail
through this file.

Bounded, whatever the step writes: each poll (every 0.1 s) reads at most
64 KiB; a file that has grown further since the last poll is skipped forward
to its last 64 KiB (only the latest line matters); a line is cut at 4 KiB
before it is parsed and its message at `MESSAGE_MAX` characters; and at most
one update is handed over per poll (the latest valid line of what was read),
so at most 10 per second. The message is the step's text: it is scrubbed of
the run's secrets and made `visible` (escapes for control and format
characters) before it is handed over.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio

from mcp_harbor._visible import visible

if TYPE_CHECKING:
    from mcp_harbor.runner.scrub import Scrubber

__all__ = [
    "FORWARD_INTERVAL",
    "MESSAGE_MAX",
    "ProgressLine",
    "follow_progress",
    "overall_progress",
    "parse_progress_line",
]

#: Seconds between two polls of the file: at most one update each.
FORWARD_INTERVAL: Final = 0.1
#: Characters of a message kept (before escaping).
MESSAGE_MAX: Final = 200
_READ_MAX: Final = 64 * 1024
_LINE_MAX: Final = 4096

_COUNT = re.compile(r"\s*(\d{1,9})\s*/\s*(\d{1,9})(?:\s+(.*?))?\s*")
_PERCENT = re.compile(r"\s*(\d{1,3}(?:\.\d{1,6})?)\s*%(?:\s+(.*?))?\s*")


@dataclass(frozen=True, slots=True)
class ProgressLine:
    """One valid line of a step's progress file."""

    #: How far the step is, from 0.0 to 1.0.
    fraction: float
    #: The line as shown: ``1/4 building``, ``50% linking`` (escaped, cut).
    text: str
    #: The message alone (escaped, cut); None when the line has none.
    message: str | None


def _shown(message: str | None, scrubber: Scrubber | None) -> str | None:
    if not message:
        return None
    if scrubber:  # before the cut: a secret cut in two would not be seen
        message = scrubber.scrub(message)
    return visible(message[:MESSAGE_MAX])


def parse_progress_line(line: str, scrubber: Scrubber | None = None) -> ProgressLine | None:
    """The `ProgressLine` of one line of ``$HARBOR_PROGRESS`` (without its
    newline), or None when the line is not one of the two formats or its
    numbers are out of range. Never raises."""
    line = line[:_LINE_MAX]
    count = _COUNT.fullmatch(line)
    if count is not None:
        done, total = int(count.group(1)), int(count.group(2))
        if total < 1 or done > total:
            return None
        message = _shown(count.group(3), scrubber)
        head = f"{done}/{total}"
        return ProgressLine(done / total, f"{head} {message}" if message else head, message)
    percent = _PERCENT.fullmatch(line)
    if percent is not None:
        value = float(percent.group(1))
        if value > 100:
            return None
        message = _shown(percent.group(2), scrubber)
        head = f"{percent.group(1)}%"
        return ProgressLine(value / 100, f"{head} {message}" if message else head, message)
    return None


def overall_progress(number: int, fraction: float) -> float:
    """Where step `number`'s own `fraction` puts the call's MCP progress.

    A call reports step *n*'s start as *n* - 0.5 and its end as *n*
    (``total``: the number of steps); the step's own progress lies strictly
    between: *n* - 0.5 + 0.49 x `fraction`, so ``100%`` stays below the
    step's end and the value the client sees keeps increasing."""
    return number - 0.5 + 0.49 * min(max(fraction, 0.0), 1.0)


#: Receives the latest valid line of a poll.
ProgressSink = Callable[[ProgressLine], Awaitable[None]]


class _Reader:
    """The part of the file not read yet, bounded per poll."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.partial = b""
        #: After a skip: drop what comes before the next newline.
        self.resync = False

    def lines(self, final: bool) -> list[bytes]:
        try:
            with open(self.path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size < self.offset:  # truncated or replaced: start over
                    self.offset, self.partial, self.resync = 0, b"", False
                if size - self.offset > _READ_MAX:
                    self.offset, self.partial, self.resync = size - _READ_MAX, b"", True
                fh.seek(self.offset)
                data = fh.read(_READ_MAX)
        except OSError:  # not written yet, or gone
            return []
        self.offset += len(data)
        if self.resync:
            start = data.find(b"\n")
            self.resync = start < 0
            data = b"" if start < 0 else data[start + 1 :]
        parts = (self.partial + data).split(b"\n")
        self.partial = parts.pop()[:_LINE_MAX]
        if final and self.partial:
            parts.append(self.partial)
            self.partial = b""
        return parts


def _latest(parts: list[bytes], scrubber: Scrubber | None) -> ProgressLine | None:
    for raw in reversed(parts):
        text = raw[:_LINE_MAX].decode("utf-8", errors="replace").rstrip("\r")
        parsed = parse_progress_line(text, scrubber)
        if parsed is not None:
            return parsed
    return None


async def follow_progress(
    path: Path,
    sink: ProgressSink,
    done: anyio.Event,
    scrubber: Scrubber | None = None,
) -> None:
    """Poll the progress file `path` every `FORWARD_INTERVAL` s until `done`
    is set, then read what is left; hand `sink` the latest valid line of
    each poll when it differs from the one handed over before. A file that
    never appears is no error.

    **Cancellation:** stops at once; a line not yet handed over is dropped.
    """
    reader = _Reader(path)
    last: ProgressLine | None = None
    while True:
        finished = done.is_set()
        latest = _latest(reader.lines(final=finished), scrubber)
        if latest is not None and latest != last:
            last = latest
            await sink(latest)
        if finished:
            return
        with anyio.move_on_after(FORWARD_INTERVAL):
            await done.wait()
