"""The plan a human approves: what exactly would run, as one hash.

An approval is bound to the plan it was asked about: the export's content
(`Export.content_hash`), the validated arguments (defaults applied, a
``secret: true`` one as ``***``) and every step rendered with them, in
order (main steps, ``on_failure``, ``finally``): a command as it would run;
an ``agent:`` step as its model name, its rendered prompt, its ``system:``,
its grant, budgets and answer schema (a ``fix:`` the same, next to its
step's command); and the export's custom tools (``tools:``) as written,
since their arguments are the model's. The same export and the same values
always give the same hash, on every server and replica; a change of any of
them (a live reload that edits a step, an agent's prompt or grant, another
argument) gives another, and an approval given for the first does not apply
to the second.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from mcp_harbor.config import Export, Step
from mcp_harbor.store.base import canonical_json
from mcp_harbor.template import render, render_prompt

__all__ = ["plan_hash", "planned_commands", "planned_tools"]


def _agent(step: Step, shown: Mapping[str, Any]) -> dict[str, Any]:
    """What an ``agent:`` step (or a step's ``fix:``) would ask its model:
    the spec as written, with the prompt rendered from `shown`."""
    spec = step.spec.agent if step.spec.agent is not None else step.spec.fix
    assert spec is not None
    plan = spec.model_dump(mode="json", by_alias=True, exclude_none=True)
    if step.prompt is not None:
        plan["prompt"] = render_prompt(step.prompt, shown)
    return plan


def planned_commands(export: Export, shown: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every step of `export` rendered from `shown`: a script as one text
    (``command``), an ``argv:`` as its list of words, an ``agent:`` step as
    its conversation's spec (``agent``: model, rendered prompt, system,
    grant, budgets, outputs, assert); a ``fix:`` is under ``fix`` next to
    its step's command."""
    commands: list[dict[str, Any]] = []
    for step in export.all_steps:
        entry: dict[str, Any] = {"section": step.section, "step": step.name}
        if step.kind == "agent":
            entry["agent"] = _agent(step, shown)
        elif step.script is not None:
            entry["command"] = render(step.script, shown)
        else:
            assert step.argv is not None
            entry["command"] = [render(part, shown) for part in step.argv]
        if step.spec.fix is not None:
            entry["fix"] = _agent(step, shown)
        commands.append(entry)
    return commands


def planned_tools(export: Export) -> dict[str, Any]:
    """`export`'s custom tools as written (description, args, required,
    command, timeout): what its agents could run, with arguments only the
    model chooses, so nothing is rendered."""
    return {
        key: export.spec.tools[key].model_dump(mode="json", by_alias=True, exclude_none=True)
        for key in sorted(export.tools)
    }


def plan_hash(export: Export, shown: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of the plan: `export`'s content hash, the shown
    arguments, the rendered steps (`planned_commands`) and the custom tools
    (`planned_tools`, when it has any), in canonical JSON."""
    plan: dict[str, Any] = {
        "export": export.name,
        "export_hash": export.content_hash,
        "arguments": dict(shown),
        "commands": planned_commands(export, shown),
    }
    if export.tools:
        plan["tools"] = planned_tools(export)
    return hashlib.sha256(canonical_json(plan).encode("utf-8")).hexdigest()
