"""The tree of one run, as ``mcp-harbor audit show RUN --tree`` prints it.

From the audit trail only: the run's steps (its end record), under an agent
step its turns (the run's ``turn`` records: model, tokens, duration, tool
calls with their arguments as recorded, secrets ``***``), under each turn
the records of the tool calls it made (found by ``via.run_id``/``via.turn``
among the records written while the run was open), then how the
conversation finished and its outputs. The answer itself is not in the
audit (it may hold caller data): it is read from the transcript file the
step names (in the run directory), and shown only when the file's SHA-256 is
the one the end record holds; otherwise the tree says why it is not shown.

Every text here came from a caller, a step or a model: it is printed
`visible` (escaped), never as markup.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from mcp_harbor._visible import visible

__all__ = ["run_tree", "transcript_answer", "tree_lines"]

#: Bytes of a transcript read to find the answer (larger: not read).
_TRANSCRIPT_MAX: Final = 32 * 1024 * 1024
#: Characters of the answer printed by `tree_lines` (the JSON has it all).
_ANSWER_SHOWN: Final = 2000


def transcript_answer(agent: Mapping[str, Any]) -> dict[str, Any]:
    """The final answer of an agent step, from its transcript:
    ``{"text": ANSWER, "source": "transcript"}`` when the file is there
    and its SHA-256 is `agent`'s ``transcript_sha256``, else ``{"text":
    None, "why": …}`` (no transcript recorded, file gone or too large,
    file changed since the run, no answer in it). Never raises."""
    path, digest = agent.get("transcript_log"), agent.get("transcript_sha256")
    if not isinstance(path, str) or not isinstance(digest, str):
        return {"text": None, "why": "no transcript was recorded"}
    try:
        file = Path(path)
        if file.stat().st_size > _TRANSCRIPT_MAX:
            return {"text": None, "why": f"the transcript is over {_TRANSCRIPT_MAX} bytes"}
        data = file.read_bytes()
    except OSError as exc:
        return {"text": None, "why": f"the transcript cannot be read ({exc.strerror or exc})"}
    if hashlib.sha256(data).hexdigest() != digest:
        return {"text": None, "why": "the transcript changed since the run (its SHA-256 differs)"}
    answer: str | None = None
    for raw in data.decode("utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(raw)
        except ValueError:
            continue
        said = entry.get("assistant") if isinstance(entry, dict) else None
        if isinstance(said, dict):  # the last message without tool calls is the answer
            content = said.get("content")
            answer = None if said.get("tool_calls") or not isinstance(content, str) else content
    if answer is None:
        return {"text": None, "why": "the conversation ended without an answer"}
    return {"text": answer, "source": "transcript"}


def _via(record: Any) -> Mapping[str, Any]:
    via = record.body.get("via") if isinstance(record.body, Mapping) else None
    return via if isinstance(via, Mapping) else {}


def _tool_calls(run_id: str, between: Iterable[Any]) -> list[dict[str, Any]]:
    """The calls made through the run's agent steps (``via.run_id`` =
    `run_id`), each with its status (its end record's, else ``running``)."""
    calls: dict[str, dict[str, Any]] = {}
    for record in between:
        if record.kind in ("start", "call") and _via(record).get("run_id") == run_id:
            via = _via(record)
            body = record.body
            calls[record.call_id] = {
                "call_id": record.call_id,
                "tool": record.tool,
                "status": record.status if record.kind == "call" else "running",
                "step": via.get("step"),
                "attempt": via.get("attempt"),
                "turn": via.get("turn"),
                "tool_call_id": via.get("tool_call_id"),
                "meta": bool(via.get("meta")),
                "arguments": body.get("arguments"),
                "reason": body.get("reason"),
                "duration_ms": None,
            }
        elif record.kind == "end" and record.call_id in calls:
            calls[record.call_id]["status"] = record.status
            calls[record.call_id]["duration_ms"] = record.body.get("duration_ms")
            calls[record.call_id]["reason"] = record.body.get("error")
    return list(calls.values())


def run_tree(records: Sequence[Any], between: Iterable[Any]) -> dict[str, Any]:
    """The tree of the run whose records (`Store.call_records`) are
    `records`, with `between` the records written while it was open
    (`Store.records_between` its start and end).

    ``{"run_id", "tool", "status", "models", "steps": [{"name", "phase",
    "status", "exit_code", "duration_ms", "outputs", "agent", "turns":
    [{"attempt", "turn", "model", "prompt_tokens", "completion_tokens",
    "duration_ms", "finish_reason", "error", "tool_calls": [{"id", "name",
    "arguments", "calls": [{"call_id", "tool", "status", …}]}]}]}],
    "unplaced": [calls whose turn is not among the turn records]}``."""
    start = next(r for r in records if r.kind in ("start", "call"))
    end = next((r for r in records if r.kind == "end"), None)
    run_id = start.call_id
    turns: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in records:
        if record.kind != "turn":
            continue
        body = record.body
        turn = {
            "attempt": body.get("attempt"),
            "turn": body.get("turn"),
            "model": body.get("model"),
            "prompt_tokens": body.get("prompt_tokens"),
            "completion_tokens": body.get("completion_tokens"),
            "duration_ms": body.get("duration_ms"),
            "finish_reason": body.get("finish_reason"),
            "error": body.get("error"),
            "tool_calls": [dict(c, calls=[]) for c in body.get("tool_calls") or ()],
        }
        turns.setdefault((str(body.get("phase")), str(body.get("step"))), []).append(turn)
    unplaced: list[dict[str, Any]] = []
    for call in _tool_calls(run_id, between):
        placed = False
        for key, said in turns.items():
            if key[1] != call["step"]:
                continue
            for turn in said:
                if (turn["attempt"], turn["turn"]) != (call["attempt"], call["turn"]):
                    continue
                for tool_call in turn["tool_calls"]:
                    if tool_call.get("id") == call["tool_call_id"] and not placed:
                        tool_call["calls"].append(call)
                        placed = True
        if not placed:
            unplaced.append(call)
    steps = []
    for step in (end.body.get("steps") if end is not None else None) or ():
        key = (str(step.get("phase")), str(step.get("name")))
        steps.append(
            {
                "name": step.get("name"),
                "phase": step.get("phase"),
                "status": step.get("status"),
                "exit_code": step.get("exit_code"),
                "duration_ms": step.get("duration_ms"),
                "outputs": step.get("outputs") or {},
                "agent": step.get("agent"),
                "answer": (
                    transcript_answer(step["agent"])
                    if isinstance(step.get("agent"), Mapping)
                    else None
                ),
                "turns": turns.pop(key, []),
            }
        )
    for (phase, name), said in turns.items():  # a run still open, or cut short
        steps.append(
            {
                "name": name,
                "phase": phase,
                "status": "running" if end is None else None,
                "exit_code": None,
                "duration_ms": None,
                "outputs": {},
                "agent": None,
                "answer": None,
                "turns": said,
            }
        )
    return {
        "run_id": run_id,
        "tool": start.tool,
        "principal": start.principal,
        "started_at": start.at,
        "status": end.status
        if end is not None
        else ("running" if start.kind == "start" else start.status),
        "duration_ms": None if end is None else end.body.get("duration_ms"),
        "models": start.body.get("models") or {},
        "steps": steps,
        "unplaced": unplaced,
    }


def _ms(value: Any) -> str:
    return f", {value:.0f} ms" if isinstance(value, int | float) else ""


def _json(value: Any) -> str:
    return visible(json.dumps(value, sort_keys=True, ensure_ascii=False))


def _call_line(call: Mapping[str, Any]) -> str:
    what = f"{visible(str(call['tool']))}: {visible(str(call['status']))}{_ms(call['duration_ms'])}"
    if call.get("meta"):
        what += " (meta-tool)"
    line = f"{what} [call {visible(str(call['call_id']))}]"
    reason = call.get("reason")
    if reason and call["status"] != "ok":
        line += f": {visible(str(reason).splitlines()[0] if str(reason).strip() else '')}"
        rest = str(reason).splitlines()[1:]
        if rest:
            line += " " + visible(" ".join(s.strip() for s in rest))
    return line


def tree_lines(tree: Mapping[str, Any]) -> list[str]:
    """`run_tree` as text lines, indented two spaces a level."""
    head = f"{tree['run_id']} {visible(str(tree['tool']))}: {tree['status']}"
    out = [f"{head}{_ms(tree['duration_ms'])} (by {visible(str(tree['principal']))})"]
    for name, pin in sorted((tree.get("models") or {}).items()):
        out.append(
            f"  model {visible(name)}: {pin.get('source')} {visible(str(pin.get('endpoint')))} "
            f"{visible(str(pin.get('model')))} (judged {pin.get('judged_at')})"
        )
    for number, step in enumerate(tree["steps"], start=1):
        exit_code = "" if step["exit_code"] is None else f", exit {step['exit_code']}"
        where = "" if step["phase"] in (None, "steps") else f" [{step['phase']}]"
        line = f"  step {number} {visible(str(step['name']))}{where}: {step['status']}"
        line += f"{exit_code}{_ms(step['duration_ms'])}"
        agent = step.get("agent")
        if isinstance(agent, Mapping):
            line += (
                f", agent {visible(str(agent.get('model')))} ({agent.get('source')} "
                f"{visible(str(agent.get('endpoint')))} {visible(str(agent.get('model_id')))})"
            )
        out.append(line)
        for turn in step["turns"]:
            label = f"turn {turn['turn']}"
            if turn.get("attempt") not in (None, 1):
                label = f"attempt {turn['attempt']}, {label}"
            tokens = f"{turn.get('prompt_tokens')}+{turn.get('completion_tokens')} tokens"
            said = f"{visible(str(turn.get('model')))}, {tokens}{_ms(turn.get('duration_ms'))}"
            if turn.get("error"):
                out.append(f"    {label} ({said}): model error: {visible(str(turn['error']))}")
                continue
            if not turn["tool_calls"]:
                out.append(f"    {label} ({said}): answer ({turn.get('finish_reason')})")
                continue
            out.append(f"    {label} ({said}): {len(turn['tool_calls'])} tool call(s)")
            for tool_call in turn["tool_calls"]:
                args = _json(tool_call.get("arguments"))
                out.append(
                    f"      {visible(str(tool_call.get('id')))} "
                    f"{visible(str(tool_call.get('name')))} {args}"
                )
                calls = tool_call["calls"] or [None]
                for call in calls:
                    out.append(
                        "        -> no record of this call"
                        if call is None
                        else f"        -> {_call_line(call)}"
                    )
        if isinstance(agent, Mapping):
            finish = f"    finish: {agent.get('finish_reason')}, {agent.get('turns')} turn(s), "
            finish += f"{agent.get('tool_calls_seen')} tool call(s)"
            if step["outputs"]:
                finish += f"; outputs {_json(step['outputs'])}"
            out.append(finish)
            answer = step.get("answer") or {}
            if answer.get("text") is not None:
                text = str(answer["text"])
                cut = "" if len(text) <= _ANSWER_SHOWN else f" [first {_ANSWER_SHOWN} characters]"
                out.append(f"    answer{cut}: {visible(text[:_ANSWER_SHOWN])}")
            else:
                out.append(f"    answer: not shown: {answer.get('why')}")
            if agent.get("transcript_log"):
                out.append(f"    transcript: {visible(str(agent['transcript_log']))}")
    for call in tree.get("unplaced") or ():
        out.append(f"  call of no recorded turn: {_call_line(call)}")
    return out
