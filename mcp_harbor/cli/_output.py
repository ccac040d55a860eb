"""What ``call`` and ``run`` share: reading a call from the command line and
printing its envelope."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import click

from mcp_harbor.cli._app import EXIT_USAGE, abort, exit_code_of, stderr
from mcp_harbor.config import Export

__all__ = ["caller_inputs", "print_envelope"]


def caller_inputs(
    tool: str, assignments: Sequence[str], memory: str | None, export: Export | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The arguments (``name=value`` words, typed by `export`'s schema when
    the tool is known here) and the request's ``_meta`` (caller memory), or
    exit 2 with the reason."""
    from mcp_harbor.cli._values import ValueError_, parse_assignments
    from mcp_harbor.errors import ContextError
    from mcp_harbor.runctx import CALLER_MEMORY_KEY, parse_caller_memory

    schema = export.input_schema if export is not None else {}
    try:
        arguments = parse_assignments(assignments, schema)
    except ValueError_ as exc:
        abort(f"{tool}: {exc}", EXIT_USAGE)
    if memory is None:
        return arguments, None
    try:
        return arguments, {CALLER_MEMORY_KEY: parse_caller_memory(memory)}
    except ContextError as exc:
        abort(f"{tool}: {exc}", EXIT_USAGE)


def print_envelope(
    envelope_text: str, published: Mapping[str, Export], principal: str, as_json: bool
) -> NoReturn:
    """Print a call's outcome and exit (`exit_code_of` its status).

    `envelope_text` is the envelope's one serialization (`Envelope.dumps`),
    printed verbatim with ``--json``; without it, the answer. A tool the
    server answered as unknown is explained on stderr: which tools the
    exports publish, or, when they publish it, that `principal` may not call it.
    """
    envelope = json.loads(envelope_text)
    status, tool = envelope["status"], envelope["tool"]
    if as_json:
        click.echo(envelope_text)
    elif status == "unknown":
        if tool in published:
            where = published[tool].path
            stderr.print(f"{tool}: {principal} may not call this tool (allow: of {where})")
        else:
            known = ", ".join(sorted(published)) or "none"
            stderr.print(f"unknown tool {tool!r}; the exports publish: {known}")
    else:
        click.echo(envelope["answer"])
    sys.exit(exit_code_of(status))
