"""What ``call`` and ``run`` share: reading a call from the command line and
printing its envelope."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

import click

from mcp_harbor.cli._app import EXIT_USAGE, abort, exit_code_of, stderr
from mcp_harbor.config import Export

__all__ = ["InputProblem", "caller_inputs", "parse_caller_inputs", "print_envelope"]


class InputProblem(Exception):
    """A ``name=value`` word or ``--memory`` that cannot be sent: the text
    says which, as the user should read it."""


def parse_caller_inputs(
    tool: str, assignments: Sequence[str], memory: str | None, schema: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The arguments (``name=value`` words, typed by the tool's input
    `schema`: ``count=5`` is the integer 5 when the schema says integer) and
    the request's ``_meta`` (caller memory).

    Raises:
        InputProblem: a word or the memory is invalid.
    """
    from mcp_harbor.cli._values import ValueError_, parse_assignments
    from mcp_harbor.errors import ContextError
    from mcp_harbor.runctx import CALLER_MEMORY_KEY, parse_caller_memory

    try:
        arguments = parse_assignments(assignments, schema)
    except ValueError_ as exc:
        raise InputProblem(f"{tool}: {exc}") from None
    if memory is None:
        return arguments, None
    try:
        return arguments, {CALLER_MEMORY_KEY: parse_caller_memory(memory)}
    except ContextError as exc:
        raise InputProblem(f"{tool}: {exc}") from None


def caller_inputs(
    tool: str, assignments: Sequence[str], memory: str | None, export: Export | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """`parse_caller_inputs` with `export`'s schema (none when the tool is
    not known here), or exit 2 with the reason."""
    schema = export.input_schema if export is not None else {}
    try:
        return parse_caller_inputs(tool, assignments, memory, schema)
    except InputProblem as exc:
        abort(str(exc), EXIT_USAGE)


def print_envelope(
    envelope_text: str,
    published: Mapping[str, Export],
    principal: str,
    as_json: bool,
    *,
    offered: Sequence[str] | None = None,
    why_not: Callable[[Export], str | None] | None = None,
) -> NoReturn:
    """Print a call's outcome and exit (`exit_code_of` its status).

    `envelope_text` is the envelope's one serialization (`Envelope.dumps`),
    printed verbatim with ``--json``; without it, the answer. A tool the
    server answered as unknown is explained on stderr: which tools the
    exports publish, or, when they publish it, that `principal` may not call
    it, or (`why_not` says why) that the server does not offer it now, as
    its needs or models are missing; over ``--url`` (`offered` given: what
    the server lists for this caller), which tools the server offers.
    """
    envelope = json.loads(envelope_text)
    status, tool = envelope["status"], envelope["tool"]
    if as_json:
        click.echo(envelope_text)
    elif status == "unknown":
        if offered is not None:
            shown = ", ".join(offered) or "none"
            stderr.print(f"unknown tool {tool!r}; the server offers this caller: {shown}")
        elif tool in published:
            export = published[tool]
            reason = why_not(export) if why_not is not None else None
            if reason:
                stderr.print(f"{tool}: not offered now: {reason}")
            else:
                where = export.path
                stderr.print(f"{tool}: {principal} may not call this tool (allow: of {where})")
        else:
            known = ", ".join(sorted(published)) or "none"
            stderr.print(f"unknown tool {tool!r}; the exports publish: {known}")
    else:
        click.echo(envelope["answer"])
    sys.exit(exit_code_of(status))
