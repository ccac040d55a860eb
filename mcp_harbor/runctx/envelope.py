"""The answer envelope: how every run ends, wherever it was hosted.

`finish` builds it (validating the output payload when the export declares
an ``output_schema``); `Envelope.dumps` is the one serialization (keys in a
fixed order, compact, UTF-8), used verbatim by ``mcp-harbor run --json``,
``mcp-harbor call --json`` and the MCP result's ``_meta``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Final, Literal

import jsonschema

from mcp_harbor.runctx.context import ABSENT, RunContext
from mcp_harbor.runner.result import RunResult

__all__ = [
    "ENVELOPE_META_KEY",
    "ENVELOPE_SCHEMA",
    "Envelope",
    "FinishReason",
    "declined",
    "finish",
    "run_text",
]

FinishReason = Literal["goal", "failed", "timeout", "cancelled", "declined", "output_invalid"]
#: The MCP result ``_meta`` key that carries the serialized envelope.
ENVELOPE_META_KEY: Final = "mcp-harbor/envelope"

_REASON_OF_STATUS: dict[str, FinishReason] = {
    "ok": "goal",
    "failed": "failed",
    "timeout": "timeout",
    "cancelled": "cancelled",
    "worker_lost": "failed",
}


def _fmt_ms(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 10_000 else f"{ms / 1000:.1f} s"


def run_text(result: RunResult) -> str:
    """A readable account of a run: its status, and for each step its exit
    code, duration and the tail of its output."""
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
            cut = ""
            if step.stderr_truncated:
                cut = f": last {len(step.stderr_tail)} of {step.stderr_bytes} bytes"
            lines.append(f"[stderr{cut}]")
            lines.append(step.stderr_tail.rstrip("\n"))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Envelope:
    """How a run ended. `answer_payload` is `ABSENT` unless the export has an
    ``output_schema`` and the run reached its goal with a valid payload."""

    run_id: str
    tool: str
    finish_reason: FinishReason
    status: str
    exit_code: int | None
    answer: str
    steps_run: int
    started_at: str
    duration_ms: float
    queued_ms: float
    run_dir: str
    steps: tuple[dict[str, Any], ...]
    answer_payload: Any = ABSENT

    @property
    def ok(self) -> bool:
        return self.finish_reason == "goal"

    def to_json(self) -> dict[str, Any]:
        """The envelope as a dict, keys in the fixed order."""
        data: dict[str, Any] = {
            "run_id": self.run_id,
            "tool": self.tool,
            "finish_reason": self.finish_reason,
            "status": self.status,
            "exit_code": self.exit_code,
            "answer": self.answer,
            "steps_run": self.steps_run,
            "started_at": self.started_at,
            "duration_ms": self.duration_ms,
            "queued_ms": self.queued_ms,
            "run_dir": self.run_dir,
            "steps": [dict(s) for s in self.steps],
        }
        if self.answer_payload is not ABSENT:
            data["answer_payload"] = self.answer_payload
        return data

    def dumps(self, data: dict[str, Any] | None = None) -> str:
        """The one serialization: fixed key order, compact, UTF-8 text
        (`data`: this envelope's `to_json()`, when the caller has it already)."""
        return json.dumps(
            self.to_json() if data is None else data, ensure_ascii=False, separators=(",", ":")
        )


def _first_violation(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "(the payload)"
    return f"at {where}: {error.message}"


def finish(context: RunContext, result: RunResult, queued_ms: float = 0.0) -> Envelope:
    """The envelope of a run that ran. With an ``output_schema``, a run that
    reached its goal must have written a valid JSON payload to
    ``$HARBOR_OUTPUT``; otherwise the finish reason is ``output_invalid``. A
    run that did not reach its goal is never validated."""
    reason = _REASON_OF_STATUS[result.status]
    answer = run_text(result)
    payload: Any = ABSENT
    status = result.status
    if reason == "goal" and context.output_validator is not None:
        problem: str | None = None
        try:
            raw = context.output_path.read_bytes()
        except FileNotFoundError:
            problem = "the steps wrote no output to $HARBOR_OUTPUT"
            raw = b""
        if problem is None:
            try:
                candidate = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                problem = f"$HARBOR_OUTPUT is not valid JSON: {exc}"
            else:
                error = jsonschema.exceptions.best_match(
                    context.output_validator.iter_errors(candidate)
                )
                if error is not None:
                    problem = f"the output does not match output_schema {_first_violation(error)}"
                else:
                    payload = candidate
        if problem is not None:
            reason, status = "output_invalid", "failed"
            answer = f"{context.tool}: output_invalid: {problem}\n{answer}"
    return Envelope(
        run_id=result.run_id,
        tool=result.tool,
        finish_reason=reason,
        status=status,
        exit_code=result.exit_code,
        answer=answer,
        steps_run=sum(1 for s in result.steps if s.status != "skipped"),
        started_at=context.started_at,
        duration_ms=result.duration_ms,
        queued_ms=queued_ms,
        run_dir=str(context.run_dir),
        steps=tuple(s.to_json() for s in result.steps),
        answer_payload=payload,
    )


def declined(run_id: str, tool: str, answer: str, waited_ms: float = 0.0) -> Envelope:
    """The envelope of a call that a human did not approve: nothing ran."""
    return Envelope(
        run_id=run_id,
        tool=tool,
        finish_reason="declined",
        status="declined",
        exit_code=None,
        answer=answer,
        steps_run=0,
        started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        duration_ms=waited_ms,
        queued_ms=0.0,
        run_dir="",
        steps=(),
    )


# Kept small on purpose: it is repeated in every tool of tools/list (1,000
# tools made a 2.4 MB answer with the full step schema); the step records
# are described in docs/exports.md.
_STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "status": {"enum": ["ok", "failed", "timeout", "cancelled", "skipped"]},
        "exit_code": {"type": ["integer", "null"]},
    },
    "required": ["name", "status", "exit_code", "duration_ms", "command"],
}

#: JSON Schema of `Envelope.to_json()`: the ``outputSchema`` of every tool
#: without an ``output_schema`` of its own.
ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "run_id": {"type": "string"},
        "tool": {"type": "string"},
        "finish_reason": {
            "enum": ["goal", "failed", "timeout", "cancelled", "declined", "output_invalid"]
        },
        "status": {"enum": ["ok", "failed", "timeout", "cancelled", "declined", "worker_lost"]},
        "exit_code": {"type": ["integer", "null"]},
        "answer": {"type": "string"},
        "steps_run": {"type": "integer", "minimum": 0},
        "started_at": {"type": "string"},
        "duration_ms": {"type": "number"},
        "queued_ms": {"type": "number", "minimum": 0},
        "run_dir": {"type": "string"},
        "steps": {"type": "array", "items": _STEP_SCHEMA},
        "answer_payload": {},
    },
    "required": [
        "run_id",
        "tool",
        "finish_reason",
        "status",
        "exit_code",
        "answer",
        "steps_run",
        "started_at",
        "duration_ms",
        "queued_ms",
        "run_dir",
        "steps",
    ],
}
