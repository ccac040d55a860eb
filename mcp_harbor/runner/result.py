"""What a run produced: per-step records and the run's outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_harbor.status import RunStatus, StepStatus

__all__ = ["RECORDED_STEP_FIELDS", "RunResult", "RunStatus", "StepResult", "StepStatus"]

#: The fields of a step the audit trail keeps (`StepResult.to_json(RECORDED_STEP_FIELDS)`):
#: what ran and how it ended, the output's sizes and hashes, never its text.
RECORDED_STEP_FIELDS: tuple[str, ...] = (
    "name",
    "status",
    "command",
    "cwd",
    "env_names",
    "shell_names",
    "exit_code",
    "duration_ms",
    "stdout_bytes",
    "stderr_bytes",
    "stdout_sha256",
    "stderr_sha256",
    "error",
    "phase",
    "attempts",
    "output_keys",
    "agent",
)


@dataclass(slots=True)
class StepResult:
    """One step's outcome. `command` is the exact script or argv that ran."""

    name: str
    status: StepStatus
    exit_code: int | None
    duration_ms: float
    command: str | list[str]
    stdout_tail: str = ""
    stderr_tail: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    stdout_log: str | None = None
    stderr_log: str | None = None
    stdout_sha256: str | None = None
    stderr_sha256: str | None = None
    cwd: str | None = None
    #: The names the runtime added to the step's environment (exported:
    #: every program the step starts sees them).
    env_names: list[str] = field(default_factory=list)
    #: The names a ``run:`` step's bash got as unexported shell variables
    #: (the caller's values: ``ARG_*``, ``STEP_*`` outputs, claimed
    #: ``HARBOR_CALLER_*``), in no process's environment.
    shell_names: list[str] = field(default_factory=list)
    error: str | None = None  # why the step could not start, or was skipped
    phase: str = "steps"  # steps, on_failure or finally
    outputs: dict[str, str] = field(default_factory=dict)  # key=value from $HARBOR_STEP_OUTPUT
    attempts: list[dict[str, Any]] = field(default_factory=list)  # one per try (retry:)
    #: An agent step's conversation (model, source, finish_reason, turns,
    #: tokens, transcript, answer), or a ``fix:``'s rounds (``{"fix": […]}``).
    agent: dict[str, Any] | None = None

    def to_json(self, fields: Sequence[str] | None = None) -> dict[str, Any]:
        """The one serialization of a step (the envelope's ``steps``, the
        worker's wire, the audit record): every field, or only `fields` in
        that order (``output_keys``: the sorted names of `outputs`)."""
        data = {f: getattr(self, f) for f in self.__dataclass_fields__}
        data["env_names"] = list(self.env_names)
        data["shell_names"] = list(self.shell_names)
        data["outputs"] = dict(self.outputs)
        data["attempts"] = [dict(a) for a in self.attempts]
        if isinstance(self.command, list):
            data["command"] = list(self.command)
        if fields is None:
            return data
        data["output_keys"] = sorted(self.outputs)
        if self.agent is not None:  # records keep no answer (it may hold personal data)
            data["agent"] = _without_answers(self.agent)
        return {f: data[f] for f in fields}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StepResult:
        """The inverse of `to_json` (a result sent back by a remote worker)."""
        return cls(**{f: data[f] for f in cls.__dataclass_fields__ if f in data})


def _without_answers(agent: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in agent.items() if k != "answer"}
    if isinstance(out.get("fix"), list):
        out["fix"] = [_without_answers(r) for r in out["fix"] if isinstance(r, Mapping)]
    return out


@dataclass(slots=True)
class RunResult:
    """A pipeline's outcome. `exit_code` is that of the step that decided the
    outcome (0 on success, None when no exit code exists: timeout, cancel)."""

    run_id: str
    tool: str
    status: RunStatus
    exit_code: int | None
    duration_ms: float
    run_dir: str
    steps: list[StepResult] = field(default_factory=list)
    #: The worker host that ran the steps (None: this process ran them).
    worker_host: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "tool": self.tool,
            "status": self.status,
            "exit_code": self.exit_code,
            "duration_ms": self.duration_ms,
            "run_dir": self.run_dir,
            "steps": [s.to_json() for s in self.steps],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], worker_host: str | None = None) -> RunResult:
        """The inverse of `to_json`."""
        return cls(
            run_id=data["run_id"],
            tool=data["tool"],
            status=data["status"],
            exit_code=data["exit_code"],
            duration_ms=data["duration_ms"],
            run_dir=data["run_dir"],
            steps=[StepResult.from_json(s) for s in data["steps"]],
            worker_host=worker_host,
        )
