"""Turn a run into the MCP answer: readable text plus ``structuredContent``."""

from __future__ import annotations

import mcp_types as types

from mcp_harbor.runner.result import RunResult

__all__ = ["error_result", "run_text", "tool_result"]


def _fmt_ms(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 10_000 else f"{ms / 1000:.1f} s"


def run_text(result: RunResult) -> str:
    """A readable account of the run: its status, and for each step its
    exit code, duration and the tail of its output."""
    code = "" if result.exit_code is None else f", exit {result.exit_code}"
    lines = [
        f"{result.tool}: {result.status}{code}, {_fmt_ms(result.duration_ms)} (run {result.run_id})"
    ]
    for number, step in enumerate(result.steps, start=1):
        step_code = "" if step.exit_code is None else f", exit {step.exit_code}"
        head = f"--- step {number} {step.name}: {step.status}{step_code}"
        if step.status != "skipped":
            head += f", {_fmt_ms(step.duration_ms)}"
        lines.append(head)
        if step.error:
            lines.append(f"[{step.error}]")
        if step.stdout_tail:
            if step.stdout_truncated:
                lines.append(f"[stdout: last {len(step.stdout_tail)} of {step.stdout_bytes} bytes]")
            lines.append(step.stdout_tail.rstrip("\n"))
        if step.stderr_tail:
            cut = (
                f": last {len(step.stderr_tail)} of {step.stderr_bytes} bytes"
                if step.stderr_truncated
                else ""
            )
            lines.append(f"[stderr{cut}]")
            lines.append(step.stderr_tail.rstrip("\n"))
    return "\n".join(lines)


def tool_result(result: RunResult) -> types.CallToolResult:
    """The MCP result of a run; ``isError`` unless the run succeeded."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=run_text(result))],
        structured_content=result.to_json(),
        is_error=not result.ok,
    )


def error_result(message: str) -> types.CallToolResult:
    """A tool error written for the model (nothing ran, or it crashed)."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)], is_error=True
    )
