"""mcp-harbor: publish configured pipelines as MCP tools; never let a caller's
value become shell syntax.

Imports flow one way (a module imports only from modules earlier in this list):
``errors → identity → policy → template → expr → config → arguments → check →
preflight → runner → store → runctx → server → cli``. The run-context
composer sits above the runner and the store because it composes from the
store (session memory) and ends with the runner's result (the envelope); the
call path in ``runctx.service`` is the one place that ties them together.
"""

from mcp_harbor.errors import (
    ArgumentError,
    ConfigError,
    HarborError,
    RunError,
    StoreError,
    TemplateError,
    UnknownTool,
)

__all__ = [
    "ArgumentError",
    "ConfigError",
    "HarborError",
    "RunError",
    "StoreError",
    "TemplateError",
    "UnknownTool",
    "__version__",
]

__version__ = "0.1.0"
