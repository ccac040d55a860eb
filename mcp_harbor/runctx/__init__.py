"""The run-context composer, the answer envelope and the one call path."""

from mcp_harbor.runctx.context import (
    ABSENT,
    CALLER_MEMORY_KEY,
    CALLER_MEMORY_LIMIT,
    Attachment,
    Identity,
    RunContext,
    compose,
    parse_caller_memory,
    read_caller_memory,
)
from mcp_harbor.runctx.envelope import (
    ENVELOPE_META_KEY,
    ENVELOPE_SCHEMA,
    Envelope,
    FinishReason,
    finish,
    run_text,
)
from mcp_harbor.runctx.service import CallService, RunSettings

__all__ = [
    "ABSENT",
    "CALLER_MEMORY_KEY",
    "CALLER_MEMORY_LIMIT",
    "ENVELOPE_META_KEY",
    "ENVELOPE_SCHEMA",
    "Attachment",
    "CallService",
    "Envelope",
    "FinishReason",
    "Identity",
    "RunContext",
    "RunSettings",
    "compose",
    "finish",
    "parse_caller_memory",
    "read_caller_memory",
    "run_text",
]
