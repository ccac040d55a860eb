"""How the runner hands a step to a model: the `StepAgents` protocol.

The runner runs commands; it knows no model and no call path. An ``agent:``
step, and the ``fix:`` of a failing ``run:``/``argv:`` step, are handed to
the `StepAgents` of the run (`RunRequest.agents`), which the call service
builds for each run (`mcp_harbor.runctx.agent`): it talks to the pinned
model and sends every tool call the model makes through the one call path,
for the original caller. The runner keeps what only it can decide: the
order of steps, the deadline, and, for ``fix:``, the re-run whose result is
the step's status.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mcp_harbor.config import Step
from mcp_harbor.runner.result import StepResult
from mcp_harbor.runner.scrub import Scrubber
from mcp_harbor.status import StepStatus

__all__ = ["AgentOutcome", "AgentTask", "FixTask", "StepAgents"]


@dataclass(frozen=True, slots=True)
class AgentTask:
    """What an agent step (or a ``fix:``) is given by the runner.

    `outcomes` are the earlier steps' outcomes as ``if:`` reads them;
    `deadline` is ``time.monotonic()`` by which it must have stopped;
    `transcript` is where the full conversation is written (in the run
    directory, secrets scrubbed); `scrubber` scrubs the run's secrets."""

    number: int
    total: int
    arguments: Mapping[str, Any]
    outcomes: Mapping[str, Mapping[str, Any]]
    deadline: float
    transcript: Path
    scrubber: Scrubber


@dataclass(frozen=True, slots=True)
class FixTask:
    """What a ``fix:`` agent is given besides `AgentTask`: the failure (the
    exact command, its exit code and output tails, scrubbed) and `rerun`,
    which runs the step again as it ran (same command, environment, cwd
    and timeout) and answers its result; the runner records each such
    re-run in the step's ``attempts`` with ``by: fix``."""

    task: AgentTask
    failure: StepResult
    round: int
    rerun: Callable[[], Awaitable[StepResult]]


@dataclass(slots=True)
class AgentOutcome:
    """How a conversation ended.

    `status` is the step's (``ok`` only on a goal finish); `finish_reason`
    the agent's (``goal``, ``max_turns``, ``max_tool_calls``, ``timeout``,
    ``output_invalid``, ``assert_failed``, ``model_error``, ``cancelled``);
    `answer` the final answer (parsed JSON when it parsed, else its text;
    None when there was none); `outputs` the answer's top-level keys as
    step outputs (a goal finish with ``outputs:`` only); `detail` what the
    end record keeps (model, source, turns, tokens, transcript hash)."""

    status: StepStatus
    finish_reason: str
    answer: Any = None
    outputs: dict[str, str] = field(default_factory=dict)
    tool_calls_seen: int = 0
    detail: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    duration_ms: float = 0.0


class StepAgents(Protocol):
    """Runs the model side of a run's steps."""

    async def run_agent(self, step: Step, task: AgentTask) -> AgentOutcome:
        """Hold `step`'s conversation (its ``attempts:`` included) and say
        how it ended; never raises for a model's failure (that is a
        ``model_error`` outcome).

        **Cancellation:** the model request in flight is abandoned, every
        running tool call's processes are stopped, and the cancellation
        propagates."""
        ...

    async def run_fix(self, step: Step, task: FixTask) -> AgentOutcome:
        """One round of `step`'s ``fix:`` conversation. Its answer decides
        nothing: the runner re-runs the step afterwards.

        **Cancellation:** as `run_agent`."""
        ...
