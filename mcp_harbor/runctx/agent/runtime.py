"""The model side of one run: `AgentRuntime`, the run's `StepAgents`.

Built by the call service for each run of an export with ``agent:`` or
``fix:`` steps, after the run's start record (the pins are in it). What it
guarantees:

- **The grant only.** The model is offered its step's grant: the export's
  custom tools, then the published exports it names that the caller may
  call, each as ``tools/list`` shows it (plus the read-only meta-tools
  ``skill_get`` and, for a fix, ``rerun``). Any other name gets
  ``Unknown tool: NAME`` and a ``call`` record (``unknown``), and nothing
  runs.
- **One call path, for the original caller.** Every tool call is a
  `CallRequest` to the call service with the run's caller, so ``allow:``,
  argument validation, needs, concurrency, ``confirm:`` (never answered by
  the model) and the audit apply exactly as to the caller's own calls; its
  records carry ``via`` (run, step, attempt, turn, tool call id, ``author:
  model``).
- **Turn records first.** Each model answer is recorded (``turn``) before
  any of its tool calls runs; if the record cannot be written, none runs.
- **Data only back.** A tool's answer returns to the model as a ``tool``
  message holding a data element, capped (``output_tail``) and scrubbed.
- **The pin.** Every turn uses the source pinned at the run's start.
- **Progress.** With an `observer` (the run's), each turn, once recorded,
  is told as the step's progress (``turn 2: read_ci_log, read_ci_log``;
  ``turn 3: answer``), then each tool call's outcome (``read_ci_log:
  invalid``), through `RunObserver.step_progress`, with a fraction that
  increases with each line (MCP progress must increase). Tool names are
  the model's text: shown `visible` and cut.
"""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from mcp_harbor._visible import visible
from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.config import Export, Step
from mcp_harbor.config.loader import MAX_AGENT_NESTING
from mcp_harbor.config.models_file import Models, ModelSpec
from mcp_harbor.errors import ModelError, StoreError
from mcp_harbor.identity import Caller
from mcp_harbor.llm.pin import Pin
from mcp_harbor.llm.turn import ModelClient, ModelSource, ToolCall, ToolOffer
from mcp_harbor.policy import is_allowed
from mcp_harbor.runctx.agent.conversation import (
    Conversation,
    Finish,
    TurnRecord,
    redacted_arguments,
    transcript_sha256,
)
from mcp_harbor.runctx.agent.messages import Recalled, StepMessages, first_messages
from mcp_harbor.runctx.context import RunContext
from mcp_harbor.runctx.envelope import Envelope
from mcp_harbor.runctx.request import Approval, CallableExport, CallRequest, Catalog
from mcp_harbor.runner.agents import AgentOutcome, AgentTask, FixTask
from mcp_harbor.runner.result import StepResult
from mcp_harbor.runner.step_progress import MESSAGE_MAX, ProgressLine
from mcp_harbor.status import StepStatus
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.template import data_block, value_text

if TYPE_CHECKING:
    from mcp_harbor.runner.pipeline import RunObserver

__all__ = ["AgentRuntime", "Skills", "Target", "ToolCaller"]

_OFFER_NAME = re.compile(r"[^A-Za-z0-9_-]")
_OUTPUT_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED_OUTPUTS = ("EXIT", "STATUS")

_STEP_STATUS: Final[Mapping[str, StepStatus]] = {
    "goal": "ok",
    "timeout": "timeout",
    "cancelled": "cancelled",
}


class ToolCaller(Protocol):
    """The call path (`mcp_harbor.runctx.service.CallService`)."""

    async def call(self, request: CallRequest) -> Envelope: ...


class Skills(Protocol):
    """The skills directory as an agent sees it (`mcp_harbor.runctx.skills`)."""

    def index(self, caller: Caller) -> str | None:
        """The index shown in the system message (None: no skills)."""
        ...

    def get(self, name: str, caller: Caller) -> str | None:
        """A skill's full text (None: no such skill)."""
        ...


@dataclass(frozen=True, slots=True)
class Target:
    """A tool a model may call: under `offer.name`, the export `tool` (a
    custom tool's `entry` given, else found in the catalog), or a meta-tool
    (`meta`: ``rerun``, ``skill_get``)."""

    offer: ToolOffer
    tool: str
    entry: CallableExport | None = None
    meta: Literal["rerun", "skill_get"] | None = None
    #: Granted but not offered: answered as the call path answers it.
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class _Custom:
    export: Export
    validator: ArgumentValidator


_RERUN: Final = ToolOffer(
    "rerun",
    "Run the failing step again exactly as it ran (same command, environment, folder and "
    "timeout); answers its exit code and output tails.",
    {"type": "object", "properties": {}, "additionalProperties": False},
)
_SKILL_GET: Final = ToolOffer(
    "skill_get",
    "The full text of one skill of the index, by name (read-only).",
    {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 128}},
        "required": ["name"],
        "additionalProperties": False,
    },
)


@dataclass(slots=True)
class AgentRuntime:
    """The run's `StepAgents` (see the module docstring)."""

    service: ToolCaller
    catalog: Catalog
    audit: AuditTrail
    export: Export
    context: RunContext
    models: Models
    pins: Mapping[str, Pin]
    open_client: Callable[[ModelSource], ModelClient]
    output_tail: int
    approval: Approval = field(default_factory=lambda: Approval(question=False, operator=True))
    skills: Skills | None = None
    recall: Callable[[Step], Awaitable[Sequence[Recalled]]] | None = None
    #: The exports whose agents' tool calls led to this run, this one last
    #: (``(export,)`` for a caller's own call).
    chain: tuple[str, ...] = ()
    #: The run's observer: told each turn and tool call as step progress.
    observer: RunObserver | None = None
    _custom: dict[str, _Custom] = field(default_factory=dict)
    #: Progress lines told so far, per step (section, name).
    _told: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def caller(self) -> Caller:
        return self.context.caller

    @property
    def run_id(self) -> str:
        return self.context.identity.run_id

    # -- the grant -----------------------------------------------------------

    def targets(self, step: Step, *, fix: bool = False) -> dict[str, Target]:
        """What `step`'s model is offered, by offered name: its custom tools,
        the granted exports published now that the caller may call, then
        the meta-tools."""
        out: dict[str, Target] = {}
        for name in step.grant:
            tool = self.export.tools.get(name)
            if tool is not None:
                custom = self._custom.get(name)
                if custom is None:
                    custom = self._custom[name] = _Custom(tool, ArgumentValidator(tool))
                offer = ToolOffer(name, tool.spec.description, tool.input_schema)
                out[name] = Target(offer, tool.name, entry=custom)
                continue
            entry = self.catalog.find(name)
            if entry is None or not is_allowed(self.caller, entry.export.spec.allow):
                continue  # not offered; a call of it is answered as the call path answers
            base = offered = _OFFER_NAME.sub("_", name)[:60]
            suffix = 1
            while offered in out or offered in self.export.tools:  # the same each run
                suffix += 1
                offered = f"{base}_{suffix}"
            description = entry.export.spec.description
            out[offered] = Target(ToolOffer(offered, description, entry.export.input_schema), name)
        if self.skills is not None and self.skills.index(self.caller):
            out.setdefault("skill_get", Target(_SKILL_GET, "skill_get", meta="skill_get"))
        if fix:
            out["rerun"] = Target(_RERUN, "rerun", meta="rerun")
        return out

    # -- StepAgents ------------------------------------------------------------

    async def run_agent(self, step: Step, task: AgentTask) -> AgentOutcome:
        """See `mcp_harbor.runner.agents.StepAgents.run_agent`."""
        agent = step.spec.agent
        assert agent is not None
        targets = self.targets(step)
        recalled = await self.recall(step) if self.recall is not None else ()
        previous: str | None = None
        finish = Finish("timeout", error="the step's time ran out before the model was asked")
        total = Finish("")
        attempts = 0
        for attempt in range(1, agent.attempts + 1):
            if time.monotonic() >= task.deadline:
                break
            attempts = attempt
            spec = StepMessages(
                step=step,
                outcomes=task.outcomes,
                skills_index=None if self.skills is None else self.skills.index(self.caller),
                recalled=recalled,
                previous_finish=previous,
                outputs_schema=agent.outputs,
            )
            finish = await self._converse(
                step,
                task,
                attempt,
                spec,
                targets,
                max_turns=agent.max_turns,
                max_tool_calls=agent.max_tool_calls,
                outputs=agent.outputs,
            )
            total.turns += finish.turns
            total.tool_calls_seen += finish.tool_calls_seen
            total.prompt_tokens += finish.prompt_tokens
            total.completion_tokens += finish.completion_tokens
            if finish.reason in ("goal", "timeout"):
                break
            previous = finish.reason
        # The last conversation's end, with every attempt's counts.
        finish.turns, finish.tool_calls_seen = total.turns, total.tool_calls_seen
        finish.prompt_tokens, finish.completion_tokens = (
            total.prompt_tokens,
            total.completion_tokens,
        )
        return self._outcome(step, task, finish, attempts, outputs=agent.outputs is not None)

    async def run_fix(self, step: Step, task: FixTask) -> AgentOutcome:
        """See `mcp_harbor.runner.agents.StepAgents.run_fix`."""
        fix = step.spec.fix
        assert fix is not None
        targets = self.targets(step, fix=True)
        spec = StepMessages(step=step, outcomes=task.task.outcomes, failure=task.failure)
        finish = await self._converse(
            step,
            task.task,
            task.round,
            spec,
            targets,
            max_turns=fix.max_turns,
            max_tool_calls=fix.max_tool_calls,
            outputs=None,
            rerun=task.rerun,
        )
        return self._outcome(step, task.task, finish, 1, outputs=False)

    # -- one conversation ------------------------------------------------------

    async def _converse(
        self,
        step: Step,
        task: AgentTask,
        attempt: int,
        spec: StepMessages,
        targets: dict[str, Target],
        *,
        max_turns: int,
        max_tool_calls: int,
        outputs: Mapping[str, Any] | None,
        rerun: Callable[[], Awaitable[StepResult]] | None = None,
    ) -> Finish:
        name = step.model
        assert name is not None
        pin = self.pins.get(name)
        model = self.models.model(name)
        if pin is None or model is None:
            return Finish(
                "model_error",
                error=f"model {name} has no pinned source for this run (is it in --models?)",
            )
        try:
            client = self.open_client(pin.source)
        except ModelError as exc:  # its key's variable is gone since preflight
            with contextlib.suppress(StoreError):  # nothing runs either way
                await self._turn_record(
                    step, pin, model, TurnRecord(attempt, 1, None, exc, 0.0), {}
                )
            return Finish("model_error", turns=1, error=str(exc))
        messages = first_messages(self.context, spec, task.scrubber)

        async def on_turn(record: TurnRecord) -> None:
            await self._turn_record(step, pin, model, record, targets)
            await self._progress(step, task, _turn_text(record))

        async def dispatch(call: ToolCall, attempt_no: int, turn_no: int) -> str:
            status, content = await self._dispatch(step, call, attempt_no, turn_no, targets, rerun)
            await self._progress(step, task, f"{_shown(call.name)}: {status}")
            return content

        conversation = Conversation(
            client=client,
            model=model,
            offers=[t.offer for t in targets.values()],
            max_turns=max_turns,
            max_tool_calls=max_tool_calls,
            deadline=task.deadline,
            scrubber=task.scrubber,
            transcript=task.transcript,
            dispatch=dispatch,
            on_turn=on_turn,
            outputs=outputs,
            assertion=step.assertion,
            arguments=self.context.arguments,
            outcomes=task.outcomes,
        )
        try:
            return await conversation.hold(messages, attempt)
        except StoreError as exc:
            return Finish(
                "model_error", error=f"the turn could not be recorded ({exc}); no tool call ran"
            )
        finally:
            await client.close()

    async def _progress(self, step: Step, task: AgentTask, text: str) -> None:
        """Tell the observer (if any) `text` as step `task.number`'s
        progress: the n-th line of a step has fraction n / (n + 1), so each
        is further than the one before. **Cancellation:** propagates (the
        observer's send is abandoned)."""
        if self.observer is None:
            return
        key = (step.section, step.name)
        told = self._told[key] = self._told.get(key, 0) + 1
        line = ProgressLine(told / (told + 1), text, text)
        await self.observer.step_progress(step, task.number, task.total, line)

    async def _turn_record(
        self,
        step: Step,
        pin: Pin,
        model: ModelSpec,
        record: TurnRecord,
        targets: Mapping[str, Target],
    ) -> None:
        def redact(call: ToolCall) -> Any:
            target = targets.get(call.name)
            export = self._export_of(target) if target is not None else None
            secret = frozenset() if export is None else export.secret_args
            return redacted_arguments(call, secret)

        body = {
            "step": step.name,
            "phase": step.section,
            "model_name": step.model,
            "endpoint": pin.source.endpoint,
            "source": pin.role,
            "requested_model": pin.source.model,
            **record.body(redact),
        }
        await self.audit.turn(self.run_id, self.caller, self.export.name, body)

    def _export_of(self, target: Target) -> Export | None:
        if target.entry is not None:
            return target.entry.export
        if target.meta is not None:
            return None
        entry = self.catalog.find(target.tool)
        return None if entry is None else entry.export

    async def _dispatch(
        self,
        step: Step,
        call: ToolCall,
        attempt: int,
        turn: int,
        targets: Mapping[str, Target],
        rerun: Callable[[], Awaitable[StepResult]] | None,
    ) -> tuple[str, str]:
        """Run one tool call (see the module docstring); answer its status
        (as its audit record has it) and the tool message's content."""
        via = {
            "run_id": self.run_id,
            "step": step.name,
            "attempt": attempt,
            "turn": turn,
            "tool_call_id": call.id,
            "author": "model",
        }
        target = targets.get(call.name)
        if target is None and call.name in step.grant and call.name not in self.export.tools:
            # Granted but not offered (``allow:`` does not admit the caller,
            # or it is not published now): the call path answers it for the
            # caller, so that its record says why (``denied``, ``unknown``).
            target = Target(ToolOffer(_safe(call.name), "", {}), call.name, hidden=True)
        if target is None:
            await self._refused(call.name, "unknown", "not granted to this agent step", via)
            return "unknown", data_block(f"tool.{_safe(call.name)}", f"Unknown tool: {call.name}")
        arguments = call.arguments
        if arguments is None:
            await self._refused(
                target.tool, "invalid", "the model's arguments are not a JSON object", via
            )
            return "invalid", data_block(
                f"tool.{target.offer.name}",
                "invalid arguments: they are not a JSON object; nothing was run",
            )
        if target.meta is not None:
            return await self._meta(target, arguments, via, rerun)
        loop = self._nesting(target)
        if loop is not None:
            await self._refused(target.tool, "unknown", loop, via)
            return "unknown", data_block(f"tool.{target.offer.name}", f"Unknown tool: {call.name}")
        envelope = await self.service.call(
            CallRequest(
                tool=target.tool,
                arguments=arguments,
                caller=self.caller,
                approval=self.approval,
                via=via,
                custom=target.entry,
                parent_run_dir=self.context.run_dir if target.entry is not None else None,
                agent_chain=self.chain or (self.export.name,),
            )
        )
        if target.hidden and envelope.status in ("denied", "unknown", "refused"):
            return envelope.status, data_block(
                f"tool.{target.offer.name}", f"Unknown tool: {call.name}"
            )
        text = envelope.answer
        if len(text) > self.output_tail:
            text = f"[the last {self.output_tail} characters]\n" + text[-self.output_tail :]
        return envelope.status, data_block(
            f"tool.{target.offer.name}",
            {"status": envelope.status, "exit_code": envelope.exit_code, "output": text},
        )

    def _nesting(self, target: Target) -> str | None:
        """Why a call of granted export `target` may not run from here: it
        would call an export whose agent is already above this run (a loop),
        or nest more exports with agents than `MAX_AGENT_NESTING`. The
        loader refuses such grants; this holds also when a reload changed
        one export of a set. None: it may run."""
        if target.entry is not None:
            return None
        chain = self.chain or (self.export.name,)
        if target.tool in chain:
            return f"a loop of agents: {' -> '.join((*chain, target.tool))}; nothing was run"
        entry = self.catalog.find(target.tool)
        if entry is not None and entry.export.agent_steps and len(chain) >= MAX_AGENT_NESTING:
            return (
                f"agents may nest at most {MAX_AGENT_NESTING} exports deep "
                f"({' -> '.join((*chain, target.tool))}); nothing was run"
            )
        return None

    async def _meta(
        self,
        target: Target,
        arguments: Mapping[str, Any],
        via: Mapping[str, Any],
        rerun: Callable[[], Awaitable[StepResult]] | None,
    ) -> tuple[str, str]:
        call_id = uuid.uuid4().hex
        body_via = {**via, "meta": True}
        if target.meta == "rerun":
            if arguments:
                await self._refused("rerun", "invalid", "rerun takes no arguments", via)
                return "invalid", data_block(
                    "tool.rerun", "rerun takes no arguments; nothing was run"
                )
            assert rerun is not None
            result = await rerun()
            await self._meta_record(call_id, "rerun", "ok", {}, body_via)
            return result.status, data_block(
                "tool.rerun",
                {
                    "status": result.status,
                    "exit_code": result.exit_code,
                    "stdout_tail": result.stdout_tail[-self.output_tail :],
                    "stderr_tail": result.stderr_tail[-self.output_tail :],
                },
            )
        name = arguments.get("name")
        text = None
        if isinstance(name, str) and self.skills is not None:
            text = self.skills.get(name, self.caller)
        status = "ok" if text is not None else "invalid"
        await self._meta_record(call_id, "skill_get", status, dict(arguments), body_via)
        if text is None:
            return status, data_block("tool.skill_get", f"no skill named {visible(str(name))}")
        return status, data_block("tool.skill_get", {"name": name, "text": text})

    async def _meta_record(
        self,
        call_id: str,
        tool: str,
        status: str,
        arguments: Mapping[str, Any],
        via: Mapping[str, Any],
    ) -> None:
        await self.audit.refused_call(
            call_id,
            self.caller,
            tool,
            status,
            "a meta-tool of an agent step",
            arguments,
            None,
            via=via,
        )

    async def _refused(self, tool: str, status: str, reason: str, via: Mapping[str, Any]) -> None:
        await self.audit.refused_call(
            uuid.uuid4().hex, self.caller, tool, status, reason, None, None, via=via
        )

    # -- the outcome -----------------------------------------------------------

    def _outcome(
        self, step: Step, task: AgentTask, finish: Finish, attempts: int, *, outputs: bool
    ) -> AgentOutcome:
        name = step.model
        pin = None if name is None else self.pins.get(name)
        step_outputs: dict[str, str] = {}
        if finish.reason == "goal" and outputs and isinstance(finish.answer, dict):
            for key, value in finish.answer.items():
                if _OUTPUT_KEY.fullmatch(key) and not key.endswith(_RESERVED_OUTPUTS):
                    step_outputs[key] = task.scrubber.scrub(value_text(value))
        detail: dict[str, Any] = {
            "model": name,
            "source": None if pin is None else pin.role,
            "endpoint": None if pin is None else pin.source.endpoint,
            "model_id": None if pin is None else pin.source.model,
            "attempts": attempts,
            "turns": finish.turns,
            "prompt_tokens": finish.prompt_tokens,
            "completion_tokens": finish.completion_tokens,
            "transcript_log": str(task.transcript),
            "transcript_sha256": transcript_sha256(task.transcript),
        }
        return AgentOutcome(
            status=_STEP_STATUS.get(finish.reason, "failed"),
            finish_reason=finish.reason,
            answer=task.scrubber.scrub_value(finish.answer),
            outputs=step_outputs,
            tool_calls_seen=finish.tool_calls_seen,
            detail=detail,
            error=None if finish.reason == "goal" else (finish.error or finish.reason),
        )


def _shown(name: str) -> str:
    """A tool name the model wrote, as progress shows it (escaped, cut)."""
    return visible(name[:64])


def _turn_text(record: TurnRecord) -> str:
    """A turn as progress shows it: ``turn 2: read_ci_log, read_ci_log``,
    ``turn 3: answer``, ``turn 1: model error`` (``attempt 2, turn 1: …``
    past the first attempt)."""
    head = (
        f"turn {record.turn}"
        if record.attempt == 1
        else (f"attempt {record.attempt}, turn {record.turn}")
    )
    turn = record.turn_result
    if record.error is not None or turn is None:
        said = "model error"
    elif turn.tool_calls:
        said = ", ".join(_shown(c.name) for c in turn.tool_calls)
    else:
        ending = turn.finish_reason
        said = "answer" if ending == "stop" else f"answer ({visible(ending[:32])})"
    return f"{head}: {said}"[:MESSAGE_MAX]


def _safe(name: str) -> str:
    return _OFFER_NAME.sub("_", name)[:64] or "_"
