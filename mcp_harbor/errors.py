"""The one exception tree of mcp-harbor.

Every error that mcp-harbor raises on purpose is a `HarborError`; foreign errors
(YAML, OS, SQLite, jsonschema) are translated where they enter::

    HarborError
    ├── ConfigError        an export file cannot be loaded or is invalid
    │   └── TemplateError  a placeholder in a command is malformed
    ├── ExportsRefused     the checker refused exports an application needs
    ├── ArgumentError      a call's arguments do not satisfy the export's schema
    │   └── ContextError   caller memory or an attachment is refused
    ├── IdentityError      a run would start without a complete identity
    ├── PolicyDenied       the caller may not call this tool
    ├── ApprovalRefused    an answer to a waiting run was not taken
    ├── UnknownTool        a call names a tool that is not published (to this caller)
    ├── RunError           a pipeline could not be started
    │   ├── Busy           the call waited in the queue past its queue timeout
    │   ├── RateLimited    the caller used up its budget of calls of the tool
    │   ├── NeedsMissing   what the export needs is not there at the run's start
    │   ├── ShuttingDown   the server stopped while the call ran
    │   └── CancelUnconfirmed  a cancelled remote run's worker did not confirm the stop
    ├── StoreError         the store cannot be read or written
    └── ModelError         a model endpoint failed to answer a turn (connection,
                           HTTP status, timeout, an answer that is not one)
"""

from __future__ import annotations

__all__ = [
    "ApprovalRefused",
    "ArgumentError",
    "Busy",
    "CancelUnconfirmed",
    "ConfigError",
    "ContextError",
    "ExportsRefused",
    "HarborError",
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
]


class HarborError(Exception):
    """Root of every error mcp-harbor raises on purpose."""


class ConfigError(HarborError):
    """Raised when an export file cannot be read, parsed or validated.

    The message names the file and line, what is wrong and how to fix it.
    `problems` holds one message per problem found (there may be several).
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [message]


class TemplateError(ConfigError):
    """Raised when a `{{ … }}` placeholder is malformed, names an undeclared
    arg or uses an unknown filter.

    `offset` is the character offset of the placeholder in the template text,
    so that the config loader can name the file, line and column.
    """

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset


class ApprovalRefused(HarborError):
    """Raised when an answer to a run waiting for approval is not taken.

    `why` is ``unknown`` (no such waiting run), ``answered`` (answered
    before) or ``forbidden`` (this principal may not answer it: the caller
    itself, or one ``approvers:`` does not match)."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


class ExportsRefused(HarborError):
    """Raised when the checker refused exports (or, under ``--strict``, an
    export cannot run) and the application may not start without them. The
    message is the checker's report."""


class ArgumentError(HarborError):
    """Raised when a call's arguments are invalid; nothing has run.

    The message names the argument and the rule it broke.
    """


class ContextError(ArgumentError):
    """Raised when what a caller sent besides the arguments cannot go into the
    run's context: caller memory that is null, not JSON or too large; an
    attachment that is not base64 or too large. Nothing has run."""


class IdentityError(HarborError):
    """Raised when a run context would be composed without a complete
    identity (tenant, principal, session, run id). Never half-scoped."""


class PolicyDenied(HarborError):
    """Raised when the caller is not admitted by the export's ``allow:``.
    Over MCP it is answered exactly like an unknown tool."""


class UnknownTool(HarborError):
    """Raised when a call names a tool that is not published."""


class RunError(HarborError):
    """Raised when a pipeline cannot be started (e.g. the run directory
    cannot be created). A pipeline that starts and fails is not an error:
    it is a result with status `failed`."""


class Busy(RunError):
    """Raised when a call waited for a free slot (``concurrency:`` of the
    export, ``--max-concurrent`` of the server) longer than its queue timeout.
    Nothing has run."""

    def __init__(self, message: str, queued_ms: float) -> None:
        super().__init__(message)
        self.queued_ms = queued_ms


class RateLimited(RunError):
    """Raised when the caller already made as many calls of the tool as its
    rate limit allows (``rate_limit:`` of the export, ``--rate-limit`` of the
    server) within the window. `retry_after` is the number of seconds, rounded
    up, until the oldest of those calls leaves the window. Nothing has run."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NeedsMissing(RunError):
    """Raised when, at a run's start, something the export needs (a program,
    an environment variable, a file, a TCP endpoint, a secret) is missing.
    Nothing ran."""


class ShuttingDown(RunError):
    """Raised when the server is stopping (SIGTERM, SIGINT) and cancelled a
    running call: its processes were stopped and its audit record closed as
    ``cancelled``."""


class CancelUnconfirmed(RunError):
    """Raised by a remote executor instead of re-raising a cancellation when
    the worker did not confirm, within its wait, that the run's processes are
    gone. The call is recorded as ``cancel_unconfirmed``; the cancellation
    itself is still in effect (the next checkpoint raises it again)."""

    def __init__(self, message: str, worker: str | None = None) -> None:
        super().__init__(message)
        self.worker = worker


class StoreError(HarborError):
    """Raised when the store cannot be read or written."""


class ModelError(HarborError):
    """Raised when a model endpoint does not answer a turn: it cannot be
    reached, answers an HTTP error, takes longer than the turn's timeout, or
    sends something that is not a chat completion. `kind` is ``connection``,
    ``status``, ``timeout`` or ``invalid``; `status` is the HTTP status when
    there was one. The message never holds an API key."""

    def __init__(self, message: str, kind: str = "invalid", status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
