"""Executes a pipeline: local processes today, an `Executor` for remote workers later."""

from mcp_harbor.runner.pipeline import (
    BASH_FLAGS,
    DEFAULT_OUTPUT_TAIL,
    DEFAULT_TIMEOUT,
    REDACTED,
    Executor,
    LocalExecutor,
    RunObserver,
    RunRequest,
    redact,
)
from mcp_harbor.runner.result import RunResult, RunStatus, StepResult, StepStatus
from mcp_harbor.runner.rundir import default_runs_root, new_run_dir, new_run_id
from mcp_harbor.runner.step_progress import ProgressLine, overall_progress

__all__ = [
    "BASH_FLAGS",
    "DEFAULT_OUTPUT_TAIL",
    "DEFAULT_TIMEOUT",
    "REDACTED",
    "Executor",
    "LocalExecutor",
    "ProgressLine",
    "RunObserver",
    "RunRequest",
    "RunResult",
    "RunStatus",
    "StepResult",
    "StepStatus",
    "default_runs_root",
    "new_run_dir",
    "new_run_id",
    "overall_progress",
    "redact",
]
