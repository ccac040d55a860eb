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
    Question,
    finish,
    nothing_ran,
    run_text,
)
from mcp_harbor.runctx.request import (
    Approval,
    CallableExport,
    CallRequest,
    Catalog,
    ExportCatalog,
)
from mcp_harbor.runctx.service import CallService, RunSettings

__all__ = [
    "ABSENT",
    "CALLER_MEMORY_KEY",
    "CALLER_MEMORY_LIMIT",
    "ENVELOPE_META_KEY",
    "ENVELOPE_SCHEMA",
    "Approval",
    "Attachment",
    "CallRequest",
    "CallService",
    "CallableExport",
    "Catalog",
    "Envelope",
    "ExportCatalog",
    "FinishReason",
    "Identity",
    "Question",
    "RunContext",
    "RunSettings",
    "compose",
    "finish",
    "nothing_ran",
    "parse_caller_memory",
    "read_caller_memory",
    "run_text",
]
