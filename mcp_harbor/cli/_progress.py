"""The progress display of ``mcp-harbor call`` and ``mcp-harbor run``.

On a terminal (stderr is a TTY) a live Rich progress bar shows the current
step and its latest message (the step's own ``$HARBOR_PROGRESS`` lines too),
with the step's live output printed above it; otherwise each step's start
and end, and each progress line of a step, is one plain line on stderr
(``git_log: log (1/2)``), so stdout stays the answer alone. Output the step
printed is shown `visible` (escaped): it is untrusted text on a terminal.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from mcp_harbor._visible import visible
from mcp_harbor.config import Step
from mcp_harbor.runner import ProgressLine, StepResult, overall_progress

__all__ = ["ProgressView", "StepProgress"]


class ProgressView:
    """Shows `(progress, total, message)` updates for one call."""

    def __init__(self, tool: str, *, live: bool | None = None) -> None:
        self.tool = tool
        self.live = sys.stderr.isatty() if live is None else live
        self._progress: Progress | None = None
        self._task: Any = None
        self._last: str | None = None

    def __enter__(self) -> ProgressView:
        if self.live:
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True, markup=False, highlight=False),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(f"{self.tool}: starting", total=None)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    async def update(self, progress: float, total: float | None, message: str | None) -> None:
        """An MCP progress callback: ``(progress, total, message)``."""
        text = f"{self.tool}: {message or ''}".rstrip(": ")
        if self._progress is not None:
            self._progress.update(self._task, completed=progress, total=total, description=text)
        elif text != self._last:
            print(text, file=sys.stderr, flush=True)
        self._last = text

    async def log_message(self, params: Any) -> None:
        """An MCP logging callback: a step's output line (data ``{"step",
        "stream", "line"}``) or a notice (data ``{"message"}``), printed
        above the bar. Only a live view asks the server for them."""
        data = getattr(params, "data", None)
        if not isinstance(data, dict):
            return
        if "line" in data:
            text = f"{data.get('step', '')}| {data['line']}"
        elif "message" in data:
            text = str(data["message"])
        else:
            return
        if self._progress is not None:
            self._progress.console.print(visible(str(text)))


class StepProgress:
    """A `RunObserver` for ``mcp-harbor run``: the same updates as the server
    sends as MCP progress (n - 0.5 when a step starts, n when it ends)."""

    def __init__(self, view: ProgressView) -> None:
        self._view = view

    @property
    def wants_output(self) -> bool:
        return False

    async def step_started(self, step: Step, number: int, total: int) -> None:
        await self._view.update(number - 0.5, total, f"{step.name} ({number}/{total})")

    async def step_finished(self, result: StepResult, number: int, total: int) -> None:
        await self._view.update(number, total, f"{result.name} ({number}/{total}) {result.status}")

    async def step_progress(self, step: Step, number: int, total: int, line: ProgressLine) -> None:
        progress = overall_progress(number, line.fraction)
        await self._view.update(progress, total, f"{step.name} ({number}/{total}): {line.text}")

    async def output(self, step: Step, stream: str, line: str) -> bool:
        return False

    async def notice(self, message: str) -> None:
        await self._view.update(0, None, message)
