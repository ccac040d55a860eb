"""mcp-harbor: publish configured pipelines as MCP tools; never let a caller's
value become shell syntax.

Imports flow one way (a module imports only from modules earlier in this list):
``errors → step_env, locations → identity → policy → template → expr →
config → arguments → check → preflight → runner → store → runctx → server,
remote → cli``. The run-context composer sits above the runner and the store
because it composes from the store (session memory) and ends with the
runner's result (the envelope); the call path in ``runctx.service`` is the
one place that ties them together. The layers are import-linter contracts in
``pyproject.toml``, checked by ``lint-imports`` in ``.ci/run``.

The embeddable surface is this module's ``__all__``: the exception tree of
`mcp_harbor.errors`, every class of it.
"""

from mcp_harbor.errors import (
    ArgumentError,
    Busy,
    CancelUnconfirmed,
    ConfigError,
    ContextError,
    HarborError,
    IdentityError,
    NeedsMissing,
    PolicyDenied,
    RunError,
    ShuttingDown,
    StoreError,
    TemplateError,
    UnknownTool,
)

__all__ = [
    "ArgumentError",
    "Busy",
    "CancelUnconfirmed",
    "ConfigError",
    "ContextError",
    "HarborError",
    "IdentityError",
    "NeedsMissing",
    "PolicyDenied",
    "RunError",
    "ShuttingDown",
    "StoreError",
    "TemplateError",
    "UnknownTool",
    "__version__",
]

__version__ = "0.1.0"
