"""How a call's outcome is printed, by ``call`` and ``run`` alike."""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click

from mcp_harbor.cli._app import EXIT_OK, EXIT_TOOL_ERROR

__all__ = ["print_outcome"]


def print_outcome(
    tool: str, envelope_text: str | None, message: str, ok: bool, as_json: bool
) -> NoReturn:
    """Print a call's outcome and exit 0 (goal) or 1 (anything else).

    `envelope_text` is the envelope's one serialization (`Envelope.dumps`),
    printed verbatim with ``--json``; without an envelope (nothing ran) the
    JSON form is ``{"tool", "finish_reason": null, "error"}``.
    """
    if as_json:
        if envelope_text is not None:
            click.echo(envelope_text)
        else:
            click.echo(json.dumps({"tool": tool, "finish_reason": None, "error": message}))
    else:
        click.echo(message)
    sys.exit(EXIT_OK if ok else EXIT_TOOL_ERROR)
