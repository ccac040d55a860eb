"""The plan a human approves: what exactly would run, as one hash.

An approval is bound to the plan it was asked about: the export's content
(`Export.content_hash`), the validated arguments (defaults applied, a
``secret: true`` one as ``***``) and every command rendered with them, in
order (main steps, ``on_failure``, ``finally``). The same export and the same
values always give the same hash, on every server and replica; a change of
any of them (a live reload that edits a step, another argument) gives
another, and an approval given for the first does not apply to the second.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from mcp_harbor.config import Export
from mcp_harbor.store.base import canonical_json
from mcp_harbor.template import render

__all__ = ["plan_hash", "planned_commands"]


def planned_commands(export: Export, shown: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every step of `export` with its command rendered from `shown`: a
    script as one text, an ``argv:`` as its list of words."""
    commands: list[dict[str, Any]] = []
    for step in export.all_steps:
        if step.script is not None:
            command: str | list[str] = render(step.script, shown)
        else:
            assert step.argv is not None
            command = [render(part, shown) for part in step.argv]
        commands.append({"section": step.section, "step": step.name, "command": command})
    return commands


def plan_hash(export: Export, shown: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of the plan: `export`'s content hash, the shown
    arguments and the rendered commands, in canonical JSON."""
    plan = {
        "export": export.name,
        "export_hash": export.content_hash,
        "arguments": dict(shown),
        "commands": planned_commands(export, shown),
    }
    return hashlib.sha256(canonical_json(plan).encode("utf-8")).hexdigest()
