"""The answer envelope: how every call ends, whatever happened and wherever
it was hosted.

`finish` builds the envelope of a run that ran (validating the output
payload when the export declares an ``output_schema``); `nothing_ran` builds
the envelope of a call where no command ran (unknown tool, denied, invalid
arguments, busy, rate limited, shutting down, store unavailable, declined, needs input).
`Envelope.dumps` is the one serialization (keys in a fixed order, compact,
UTF-8), used verbatim by ``mcp-harbor run --json``, ``mcp-harbor call
--json`` and the MCP result's ``_meta``. The statuses and finish reasons are
those of `mcp_harbor.status`; `ENVELOPE_SCHEMA`'s enums are derived from it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Final

import jsonschema

from mcp_harbor.runctx.context import ABSENT, RunContext
from mcp_harbor.runner.result import RunResult
from mcp_harbor.status import (
    CALL_STATUSES,
    FINISH_REASONS,
    NOTHING_RAN,
    SHOWN_STATUS,
    STEP_STATUSES,
    CallStatus,
    FinishReason,
    finish_reason_of,
)

__all__ = [
    "ENVELOPE_META_KEY",
    "ENVELOPE_SCHEMA",
    "Envelope",
    "FinishReason",
    "Question",
    "deciding_agent",
    "ended",
    "finish",
    "nothing_ran",
    "run_text",
]

#: The MCP result ``_meta`` key that carries the serialized envelope.
ENVELOPE_META_KEY: Final = "mcp-harbor/envelope"


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
        if step.agent is not None:
            lines.extend(_agent_lines(step.agent))
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


def _agent_lines(agent: dict[str, Any]) -> list[str]:
    """An agent step's (or a fix's rounds') account: how it finished, and
    its answer as the model gave it."""
    if "fix" in agent:
        out = []
        for record in agent["fix"]:
            out.append(
                f"[fix round {record.get('round')}: {record.get('finish_reason')}, "
                f"{record.get('turns', 0)} turn(s), {record.get('tool_calls_seen', 0)} tool "
                f"call(s); the re-run decides]"
            )
        return out
    source = agent.get("source")
    where = f" ({source})" if source else ""
    out = [
        f"[agent {agent.get('model')}{where}: {agent.get('finish_reason')}, "
        f"{agent.get('turns', 0)} turn(s), {agent.get('tool_calls_seen', 0)} tool call(s)]"
    ]
    answer = agent.get("answer")
    if answer is not None:
        out.append(answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False))
    return out


def deciding_agent(result: RunResult) -> dict[str, Any] | None:
    """The ``agent`` record of the step that decided the run, when that step
    is an agent: the first main step that did not end ok (and may not fail
    quietly), else the last main step that ran."""
    main = [s for s in result.steps if s.phase == "steps" and s.status != "skipped"]
    failing = [s for s in main if s.status in ("failed", "timeout", "cancelled")]
    step = failing[0] if failing and result.status != "ok" else (main[-1] if main else None)
    if step is None or step.agent is None or "finish_reason" not in step.agent:
        return None
    return step.agent


@dataclass(frozen=True, slots=True)
class Question:
    """What a ``needs_input`` call asks: the ``confirm:`` message with the
    validated values, and how long the answer may take."""

    message: str
    timeout_s: float
    #: The plan asked about (`mcp_harbor.runctx.plan`).
    plan_hash: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "timeout_s": self.timeout_s}
        if self.plan_hash is not None:
            data["plan_hash"] = self.plan_hash
        return data


@dataclass(frozen=True, slots=True)
class Envelope:
    """How a call ended. `status` is the call's status as the caller is shown
    it (`mcp_harbor.status.SHOWN_STATUS`); `finish_reason` is derived from it.
    `answer_payload` is `ABSENT` unless the export has an ``output_schema``
    and the run reached its goal with a valid payload; `question` is set
    exactly when the status is ``needs_input``."""

    run_id: str
    tool: str
    finish_reason: FinishReason
    status: CallStatus
    exit_code: int | None
    answer: str
    steps_run: int
    started_at: str
    duration_ms: float
    queued_ms: float
    run_dir: str
    steps: tuple[dict[str, Any], ...]
    answer_payload: Any = ABSENT
    question: Question | None = None
    #: The deciding step's conversation, when it is an agent:
    #: ``{answer, finish_reason, tool_calls_seen}``.
    agent: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.finish_reason == "goal"

    @property
    def ran(self) -> bool:
        """Whether a pipeline started (its steps may all have been skipped)."""
        return self.status not in NOTHING_RAN

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
        if self.question is not None:
            data["question"] = self.question.to_json()
        if self.agent is not None:
            data["agent"] = dict(self.agent)
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
    status: CallStatus = result.status
    answer = run_text(result)
    payload: Any = ABSENT
    agent = deciding_agent(result)
    if agent is not None and agent["finish_reason"] == "output_invalid":
        status = "output_invalid"
    if status == "ok" and context.output_validator is not None:
        problem: str | None = None
        try:
            raw = context.output_path.read_bytes()
        except FileNotFoundError:
            # An agent's goal answer is the payload when the steps wrote none.
            raw = b""
            if agent is not None and agent["finish_reason"] == "goal":
                raw = json.dumps(agent.get("answer")).encode("utf-8")
            else:
                problem = "the steps wrote no output to $HARBOR_OUTPUT"
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
            status = "output_invalid"
            answer = f"{context.tool}: output_invalid: {problem}\n{answer}"
    return Envelope(
        run_id=result.run_id,
        tool=result.tool,
        finish_reason=finish_reason_of(status),
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
        agent=None
        if agent is None
        else {
            "answer": agent.get("answer"),
            "finish_reason": agent["finish_reason"],
            "tool_calls_seen": agent.get("tool_calls_seen", 0),
        },
    )


def ended(context: RunContext, status: CallStatus, answer: str, queued_ms: float = 0.0) -> Envelope:
    """The envelope of a run that started (its start record exists) but has
    no result to show: a worker refused it, or its cancellation was not
    confirmed."""
    return Envelope(
        run_id=context.identity.run_id,
        tool=context.tool,
        finish_reason=finish_reason_of(status),
        status=status,
        exit_code=None,
        answer=answer,
        steps_run=0,
        started_at=context.started_at,
        duration_ms=round((time.monotonic() - context.started_monotonic) * 1000, 3),
        queued_ms=queued_ms,
        run_dir=str(context.run_dir),
        steps=(),
    )


def nothing_ran(
    run_id: str,
    tool: str,
    status: CallStatus,
    answer: str,
    *,
    waited_ms: float = 0.0,
    queued_ms: float = 0.0,
    question: Question | None = None,
) -> Envelope:
    """The envelope of a call where no command ran: `status` is the recorded
    status (one of `mcp_harbor.status.NOTHING_RAN`); the envelope shows it as
    the caller may see it (a denied call looks exactly like an unknown tool).
    `waited_ms`: time spent waiting (for a human, or in the queue)."""
    shown = SHOWN_STATUS.get(status, status)
    return Envelope(
        run_id=run_id,
        tool=tool,
        finish_reason=finish_reason_of(shown),
        status=shown,
        exit_code=None,
        answer=answer,
        steps_run=0,
        started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        duration_ms=waited_ms,
        queued_ms=queued_ms,
        run_dir="",
        steps=(),
        question=question,
    )


# Kept small on purpose: it is repeated in every tool of tools/list (1,000
# tools made a 2.4 MB answer with the full step schema); the step records
# are described in docs/exports.md.
_STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "status": {"enum": list(STEP_STATUSES)},
        "exit_code": {"type": ["integer", "null"]},
    },
    "required": ["name", "status", "exit_code", "duration_ms", "command"],
}

#: The statuses an envelope can show (never the audit-only ones, nor those
#: shown as another: `SHOWN_STATUS`).
_SHOWN_STATUSES: list[str] = [
    s
    for s in CALL_STATUSES
    if s not in SHOWN_STATUS and s not in ("running", "interrupted", "rejected")
]

#: JSON Schema of `Envelope.to_json()`: the ``outputSchema`` of every tool
#: without an ``output_schema`` of its own.
ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "run_id": {"type": "string"},
        "tool": {"type": "string"},
        "finish_reason": {"enum": list(FINISH_REASONS)},
        "status": {"enum": _SHOWN_STATUSES},
        "exit_code": {"type": ["integer", "null"]},
        "answer": {"type": "string"},
        "steps_run": {"type": "integer", "minimum": 0},
        "started_at": {"type": "string"},
        "duration_ms": {"type": "number"},
        "queued_ms": {"type": "number", "minimum": 0},
        "run_dir": {"type": "string"},
        "steps": {"type": "array", "items": _STEP_SCHEMA},
        "answer_payload": {},
        "agent": {
            "type": "object",
            "properties": {
                "answer": {},
                "finish_reason": {"type": "string"},
                "tool_calls_seen": {"type": "integer", "minimum": 0},
            },
            "required": ["answer", "finish_reason", "tool_calls_seen"],
        },
        "question": {
            "type": "object",
            "properties": {
                "message": {"type": "string"},
                "timeout_s": {"type": "number"},
                "plan_hash": {"type": "string"},
            },
            "required": ["message", "timeout_s"],
        },
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
