"""mcp-harbor: publish configured pipelines as MCP tools; never let a caller's
value become shell syntax.

Imports flow one way (a module imports only from modules earlier in this list):
``errors → config → template → arguments → check → identity/policy → runctx →
runner → store → server → cli``.
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
