"""Turn an envelope into the MCP answer."""

from __future__ import annotations

import mcp_types as types

from mcp_harbor.runctx import ABSENT, ENVELOPE_META_KEY, Envelope

__all__ = ["error_result", "tool_result"]


def tool_result(envelope: Envelope, has_output_schema: bool) -> types.CallToolResult:
    """The MCP result of a call, built from its envelope alone (whatever the
    outcome: a call where nothing ran has an envelope too).

    - text content: the envelope's readable `answer`;
    - ``structuredContent``: the validated payload when the export declares an
      ``output_schema`` (absent when the run did not reach its goal; that
      schema is the tool's ``outputSchema``), else the envelope itself (which
      matches `ENVELOPE_SCHEMA`; such a tool declares no ``outputSchema``);
    - ``isError`` unless the run reached its goal;
    - ``_meta["mcp-harbor/envelope"]``: the envelope's one serialization, so
      that ``mcp-harbor call --json`` prints exactly what ``mcp-harbor run --json``
      prints for the same run.
    """
    whole = envelope.to_json()
    if has_output_schema:
        payload = envelope.answer_payload
        structured = payload if envelope.ok and payload is not ABSENT else None
    else:
        structured = whole
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=envelope.answer)],
        structured_content=structured,
        is_error=not envelope.ok,
        _meta={ENVELOPE_META_KEY: envelope.dumps(whole)},
    )


def error_result(message: str) -> types.CallToolResult:
    """A tool error written for the model (nothing ran, or it crashed)."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)], is_error=True
    )
