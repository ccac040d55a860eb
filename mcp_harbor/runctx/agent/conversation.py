"""One conversation with a model: turns, tool calls, budgets, the finish.

The loop owns every decision about the conversation; the model decides
only what it asks for. A turn is: one request to the pinned source (its
timeout the smaller of the model's ``turn_timeout`` and what is left of the
step's deadline), then its turn record (`Conversation.on_turn`, durable
before any of its tool calls runs), then each tool call in order through
`Conversation.dispatch`, whose answer goes back as a ``tool`` message.

Finish reasons:

- ``goal``: a final answer (no tool calls) that is valid: with
  ``outputs:``, a JSON object matching the schema; and ``assert:`` holds.
- ``output_invalid``: the answer is not valid and no turn is left to say so
  (an invalid answer is told why and asked again while turns remain).
- ``assert_failed``: a valid answer for which ``assert:`` does not hold.
- ``max_turns``, ``max_tool_calls``: a budget ran out (the tool calls past
  ``max_tool_calls`` do not run).
- ``timeout``: the step's deadline passed.
- ``model_error``: the source failed a turn (never switched mid-run).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from jsonschema.validators import Draft202012Validator

from mcp_harbor.config.models_file import ModelSpec
from mcp_harbor.errors import ModelError
from mcp_harbor.expr import Expr
from mcp_harbor.llm.turn import ModelClient, ToolCall, ToolOffer, Turn
from mcp_harbor.runner.scrub import Scrubber

__all__ = [
    "Conversation",
    "Finish",
    "TurnRecord",
    "append_private",
    "parse_answer",
    "redacted_arguments",
    "transcript_sha256",
]

#: The most characters of a tool call's arguments kept in a turn record
#: when they are not JSON.
_RAW_ARGUMENTS_LIMIT: Final = 4096


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """What the audit keeps of one turn (see docs/agents.md)."""

    attempt: int
    turn: int
    turn_result: Turn | None
    error: ModelError | None
    duration_ms: float

    def body(self, redact: Callable[[ToolCall], Any]) -> dict[str, Any]:
        turn = self.turn_result
        data: dict[str, Any] = {
            "attempt": self.attempt,
            "turn": self.turn,
            "duration_ms": self.duration_ms,
            "error": None if self.error is None else str(self.error),
        }
        if turn is not None:
            data.update(
                model=turn.model,
                request_sha256=turn.request_sha256,
                response_sha256=turn.response_sha256,
                finish_reason=turn.finish_reason,
                prompt_tokens=turn.prompt_tokens,
                completion_tokens=turn.completion_tokens,
                tool_calls=[
                    {"id": c.id, "name": c.name, "arguments": redact(c)} for c in turn.tool_calls
                ],
            )
        return data


@dataclass(slots=True)
class Finish:
    """How one conversation ended (see the module docstring)."""

    reason: str
    answer: Any = None
    turns: int = 0
    tool_calls_seen: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str | None = None


def parse_answer(content: str) -> Any:
    """A final answer's value: its JSON when it is JSON (a ``json`` code
    fence around it is tolerated), else None."""
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`")
        if text.startswith("json"):
            text = text[4:]
    try:
        return json.loads(text)
    except ValueError:
        return None


@dataclass(slots=True)
class Conversation:
    """One conversation's fixed parts. `dispatch` runs one tool call and
    answers the ``tool`` message's content; `on_turn` writes a turn record
    (durable before the turn's tool calls)."""

    client: ModelClient
    model: ModelSpec
    offers: Sequence[ToolOffer]
    max_turns: int
    max_tool_calls: int
    deadline: float
    scrubber: Scrubber
    transcript: Path
    dispatch: Callable[[ToolCall, int, int], Awaitable[str]]
    on_turn: Callable[[TurnRecord], Awaitable[None]]
    outputs: Mapping[str, Any] | None = None
    assertion: Expr | None = None
    arguments: Mapping[str, Any] = field(default_factory=dict)
    outcomes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    async def hold(self, messages: list[dict[str, Any]], attempt: int) -> Finish:
        """Hold the conversation from `messages` until it finishes.

        **Cancellation:** the request in flight is abandoned, a running tool
        call's processes are stopped (by the call path), and the
        cancellation propagates; the transcript keeps what was said."""
        finish = Finish("max_turns")
        validator = Draft202012Validator(self.outputs) if self.outputs is not None else None
        self._log({"attempt": attempt, "messages": messages})
        while True:
            if finish.turns >= self.max_turns:
                finish.reason = "max_turns"
                finish.error = f"no final answer within max_turns ({self.max_turns})"
                return finish
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                finish.reason = "timeout"
                finish.error = "the step's time ran out before the model answered"
                return finish
            limit = min(self.model.turn_timeout, remaining)
            finish.turns += 1
            began = time.monotonic()
            turn: Turn | None = None
            error: ModelError | None = None
            try:
                turn = await self.client.complete(
                    messages,
                    self.offers,
                    max_tokens=self.model.max_output_tokens,
                    temperature=self.model.temperature,
                    timeout=limit,
                )
            except ModelError as exc:
                error = exc
            duration = round((time.monotonic() - began) * 1000, 3)
            record = TurnRecord(attempt, finish.turns, turn, error, duration)
            await self.on_turn(record)
            if turn is None:
                assert error is not None
                self._log({"attempt": attempt, "turn": finish.turns, "error": str(error)})
                past_deadline = time.monotonic() >= self.deadline - 0.01
                finish.reason = (
                    "timeout" if error.kind == "timeout" and past_deadline else ("model_error")
                )
                finish.error = self.scrubber.scrub(str(error))
                return finish
            finish.prompt_tokens += turn.prompt_tokens or 0
            finish.completion_tokens += turn.completion_tokens or 0
            assistant = turn.assistant_message()
            messages.append(assistant)
            self._log({"attempt": attempt, "turn": finish.turns, "assistant": assistant})
            if turn.tool_calls:
                for call in turn.tool_calls:
                    if finish.tool_calls_seen >= self.max_tool_calls:
                        finish.reason = "max_tool_calls"
                        finish.error = (
                            f"the model asked for more than max_tool_calls "
                            f"({self.max_tool_calls}) tool calls; the rest did not run"
                        )
                        return finish
                    finish.tool_calls_seen += 1
                    content = self.scrubber.scrub(await self.dispatch(call, attempt, finish.turns))
                    message = {"role": "tool", "tool_call_id": call.id, "content": content}
                    messages.append(message)
                    self._log({"attempt": attempt, "turn": finish.turns, "tool": message})
                continue
            content = self.scrubber.scrub(turn.content or "")
            problem, answer = self._judge(content, validator)
            finish.answer = answer
            if problem is None:
                if self.assertion is not None and not self.assertion.evaluate(
                    self.arguments, self.outcomes, answer
                ):
                    finish.reason = "assert_failed"
                    finish.error = f"assert: {self.assertion.text} is false for the answer"
                    return finish
                finish.reason = "goal"
                return finish
            if finish.turns >= self.max_turns or self.deadline - time.monotonic() <= 0:
                finish.reason = "output_invalid"
                finish.error = problem
                return finish
            retry = {
                "role": "user",
                "content": f"Your answer is not valid: {problem}. Answer again with the JSON "
                "object only.",
            }
            messages.append(retry)
            self._log({"attempt": attempt, "turn": finish.turns, "user": retry})

    def _judge(
        self, content: str, validator: Draft202012Validator | None
    ) -> tuple[str | None, Any]:
        """(why the final answer is not valid, or None; the answer)."""
        if validator is None:
            if not content.strip():
                return "the answer is empty", content
            value = parse_answer(content)
            return None, content if value is None else value
        value = parse_answer(content)
        if not isinstance(value, dict):
            return "it is not a JSON object", content
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path) or "(the answer)"
            return f"at {where}: {errors[0].message}", value
        return None, value

    def _log(self, entry: Mapping[str, Any]) -> None:
        """Append `entry` to the transcript (secrets scrubbed)."""
        line = self.scrubber.scrub(json.dumps(entry, ensure_ascii=False, default=str)) + "\n"
        append_private(self.transcript, line.encode("utf-8"))


def append_private(path: Path, data: bytes) -> None:
    """Append `data` to `path`, created readable by this user only."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def transcript_sha256(path: Path) -> str | None:
    """The SHA-256 of a transcript file (None: there is none)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def redacted_arguments(call: ToolCall, secret: frozenset[str]) -> Any:
    """A tool call's arguments as a turn record keeps them: parsed, each
    `secret` arg ``***``; text that is not JSON, cut at 4 KiB."""
    parsed = call.arguments
    if parsed is None:
        return {"_raw": call.arguments_text[:_RAW_ARGUMENTS_LIMIT]}
    return {k: ("***" if k in secret else v) for k, v in parsed.items()}
