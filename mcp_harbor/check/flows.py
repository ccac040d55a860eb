"""Where each caller value goes: the static caller-to-command map.

For every step, each occurrence of an arg — a ``{{ args.x }}`` placeholder
(raw or shellquoted), a ``$ARG_x`` expansion in a script, an ``argv:``
element — is reported with the command it reaches and the argument position
there (a placeholder of an agent's or fix's prompt as form ``prompt``, with no
command), read off the same tree-sitter parse the checker uses
(`mcp_harbor.check._tree.parsed`, with the checker's split of a command line
into words, `mcp_harbor.check._tree.command_words`). Every step with a
command also receives every arg as the environment variable ``ARG_<name>``
(an ``agent:`` step runs no process).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from mcp_harbor.check._facts import arg_models, substitute
from mcp_harbor.check._tree import command_words, parsed
from mcp_harbor.config import Export

__all__ = ["Flow", "flows_of", "map_of"]

_ARG_VAR = re.compile(r"\$\{?ARG_([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True, slots=True)
class Flow:
    """One place an arg's value reaches."""

    arg: str
    step: str
    phase: str
    form: str  # "placeholder" | "placeholder|shellquote" | "$ARG" | "argv" | "env" | "prompt"
    command: str | None  # the program (command word) it is an argument of
    position: int | None  # 0: the command word itself; n: its n-th argument
    # "shellquote", "double-quoted", "single-quoted", "raw", "argv element", "env";
    # for "prompt": "data" (| data) or "raw"
    quoted: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {
            "arg": self.arg,
            "step": self.step,
            "phase": self.phase,
            "form": self.form,
            "command": self.command,
            "position": self.position,
            "quoted": self.quoted,
            "line": self.line,
        }


def _quoting(node: Node) -> str:
    parent = node.parent
    while parent is not None and parent.type != "command":
        if parent.type == "string":
            return "double-quoted"
        if parent.type == "raw_string":
            return "single-quoted"
        parent = parent.parent
    return "raw"


def _script_flows(export: Export, step: Any, models: dict[str, Any]) -> Iterator[Flow]:
    text, sentinels = substitute(step.script, models, (*step.where, "run"))
    script = parsed(text)
    src = script.src
    base_line = export.locate((*step.where, "run"))[0]
    first = base_line  # locate() already points at the script's first line
    for node in script.nodes:
        if node.type in ("test_command", "arithmetic_expansion", "variable_assignment"):
            chunk = src[node.start_byte : node.end_byte].decode("utf-8", "replace")
            label = {"test_command": "[ test ]", "arithmetic_expansion": "$(( ))"}.get(
                node.type, "assignment"
            )
            for match in _ARG_VAR.finditer(chunk):
                if match.group(1) in export.arg_schemas:
                    yield Flow(
                        match.group(1),
                        step.name,
                        step.section,
                        "$ARG",
                        label,
                        None,
                        "double-quoted" if f'"${match.group(0)[1:]}' in chunk else "raw",
                        first + node.start_point[0],
                    )
            continue
        if node.type != "command":
            continue
        name_node = node.child_by_field_name("name")
        words = command_words(node)
        command = (
            src[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
            if name_node is not None
            else None
        )
        for position, word in enumerate(words):
            chunk = src[word.start_byte : word.end_byte].decode("utf-8", "replace")
            for sentinel, info in sentinels.by_word.items():
                if sentinel in chunk:
                    yield Flow(
                        info.arg,
                        step.name,
                        step.section,
                        "placeholder|shellquote" if info.shellquote else "placeholder",
                        None if command is None or sentinel in command else command,
                        position,
                        "shellquote" if info.shellquote else _quoting(word) if position else "raw",
                        first + word.start_point[0],
                    )
            for match in _ARG_VAR.finditer(chunk):
                if match.group(1) in export.arg_schemas:
                    inner = word
                    yield Flow(
                        match.group(1),
                        step.name,
                        step.section,
                        "$ARG",
                        command,
                        position,
                        "double-quoted" if chunk.startswith('"') else _quoting(inner),
                        first + word.start_point[0],
                    )


def flows_of(export: Export) -> list[Flow]:
    """Every place each arg's value reaches, step by step."""
    models = arg_models(export)
    out: list[Flow] = []
    for step in export.all_steps:
        if step.script is not None:
            out.extend(_script_flows(export, step, models))
        elif step.argv is not None:
            program = step.argv[0].text if step.argv[0].is_literal else None
            for position, element in enumerate(step.argv):
                line = export.locate((*step.where, "argv", position))[0]
                for placeholder in element.placeholders:
                    out.append(
                        Flow(
                            placeholder.arg,
                            step.name,
                            step.section,
                            "argv",
                            program,
                            position,
                            "argv element",
                            line,
                        )
                    )
        if step.prompt is not None:  # an agent's prompt (or a fix's): to the model
            key = "agent" if step.spec.agent is not None else "fix"
            for placeholder in step.prompt.placeholders:
                line = export.locate((*step.where, key, "prompt"), placeholder.start)[0]
                quoted = "data" if placeholder.data else "raw"
                out.append(
                    Flow(
                        placeholder.arg, step.name, step.section, "prompt", None, None, quoted, line
                    )
                )
        if step.kind == "agent":
            continue  # no process: no ARG_* environment
        for name in export.arg_schemas:
            out.append(Flow(name, step.name, step.section, "env", None, None, "env", 0))
    return out


def map_of(export: Export) -> dict[str, Any]:
    """The export's entry of ``mcp-harbor audit map``: who may call it, and
    for each arg where its value goes."""
    flows = flows_of(export)
    return {
        "export": export.name,
        "file": str(export.path),
        "content_hash": export.content_hash,
        "allow": list(export.spec.allow),
        "args": {
            name: {
                "secret": export.arg_schemas[name].get("secret") is True,
                "reaches": [f.to_json() for f in flows if f.arg == name and f.form != "env"],
                "env": f"ARG_{name}",
            }
            for name in export.arg_schemas
        },
    }
