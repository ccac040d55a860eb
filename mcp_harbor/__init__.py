"""mcp-harbor: publish configured pipelines as MCP tools; never let a caller's
value become shell syntax.

Imports flow one way (a module imports only from modules earlier in this list):
``errors, status, defaults → step_env, locations → identity → policy →
template → expr → config → within → arguments → check → preflight → runner →
store → runctx → server, remote, mcpb → harbor → cli``. The run-context composer
sits above the runner and the store because it composes from the store
(session memory) and ends with the runner's result (the envelope); the call
path in ``runctx.service`` is the one place that ties them together. The
layers are import-linter contracts in ``pyproject.toml``, checked by
``lint-imports`` in ``.ci/run``.

The embeddable surface is this module's ``__all__``: the application
(`Harbor`, `HarborSettings`), the call path's request and answer
(`CallRequest`, `Approval`, `Envelope`), and the exception tree of
`mcp_harbor.errors`, every class of it. The application's names are
imported when first used (`__getattr__`), so that ``import mcp_harbor``
stays light and the package's root, which every layer imports for its
version, depends on nothing above the errors.
"""

from typing import Any

from mcp_harbor.errors import (
    ApprovalRefused,
    ArgumentError,
    Busy,
    CancelUnconfirmed,
    ConfigError,
    ContextError,
    ExportsRefused,
    HarborError,
    IdentityError,
    ModelError,
    NeedsMissing,
    PolicyDenied,
    RateLimited,
    RunError,
    ShuttingDown,
    StoreError,
    TemplateError,
    UnknownTool,
)

__all__ = [
    "Approval",
    "ApprovalRefused",
    "ArgumentError",
    "Busy",
    "CallRequest",
    "CancelUnconfirmed",
    "ConfigError",
    "ContextError",
    "Envelope",
    "ExportsRefused",
    "Harbor",
    "HarborError",
    "HarborSettings",
    "IdentityError",
    "ModelError",
    "NeedsMissing",
    "PolicyDenied",
    "RateLimited",
    "RunError",
    "ShuttingDown",
    "StoreError",
    "TemplateError",
    "UnknownTool",
    "__version__",
]

__version__ = "0.1.0"

_LAZY = {
    "Approval": "mcp_harbor.runctx",
    "CallRequest": "mcp_harbor.runctx",
    "Envelope": "mcp_harbor.runctx",
    "Harbor": "mcp_harbor.harbor",
    "HarborSettings": "mcp_harbor.harbor",
}


def __getattr__(name: str) -> Any:
    """The application's names, imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mcp_harbor' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
