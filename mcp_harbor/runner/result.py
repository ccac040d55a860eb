"""What a run produced: per-step records and the run's outcome."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = ["RunResult", "RunStatus", "StepResult", "StepStatus"]

RunStatus = Literal["ok", "failed", "timeout", "cancelled"]
StepStatus = Literal["ok", "failed", "timeout", "cancelled", "skipped"]


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
    error: str | None = None  # why the step could not start, if it could not

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


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
