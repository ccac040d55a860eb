"""What an entry point hands the call path: one `CallRequest`.

Every entry point (MCP over stdio and HTTP, ``mcp-harbor run``, a worker, a
task poll, a model's tool call) builds one `CallRequest` and sends it to
`CallService.call`, which answers one `Envelope` for every outcome. What
the request carries is what differs between entry points; everything else
(policy, validation, the seed rules, the confirm message, timeouts, the
audit) is decided once, in the service.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.config import Export
from mcp_harbor.identity import Caller
from mcp_harbor.runctx.approval import Approver, Decision, Notify
from mcp_harbor.runner import RunObserver

__all__ = ["Approval", "CallRequest", "CallableExport", "Catalog", "ExportCatalog"]


@dataclass(frozen=True, slots=True)
class Approval:
    """How a ``confirm:`` of this call may be answered, tried in this order:

    1. `answer`: the entry point has the human's answer already (the retry
       of a 2026-07-28 round trip, whose signed state it verified);
    2. a pre-seeded rule of the server (``--approve-seed``) matching the call;
    3. `ask`: an `Approver` that asks the caller's human now and waits
       (handshake-era elicitation, a terminal);
    4. `question`: the call answers ``needs_input`` with the question, and
       the caller asks its human and calls again with the answer;
    5. `operator`: the run waits for ``mcp-harbor approve|deny`` through the
       store (`notify` tells the caller how).

    When none applies, the call answers ``needs_input``. An export without
    ``confirm:`` ignores all of this.
    """

    answer: Decision | None = None
    ask: Approver | None = None
    question: bool = False
    operator: bool = True
    notify: Notify | None = None


@dataclass(frozen=True, slots=True)
class CallRequest:
    """One call: which tool, with what, for whom, and how approval may happen.

    `arguments` and `meta` are as the caller sent them (unvalidated); the
    service validates them. `observer` hears of steps and output."""

    tool: str
    arguments: Mapping[str, Any] | None
    caller: Caller
    meta: Mapping[str, Any] | None = None
    approval: Approval = field(default_factory=Approval)
    observer: RunObserver | None = None
    #: A model's tool call: the turn that made it (``run_id``, ``step``,
    #: ``attempt``, ``turn``, ``tool_call_id``, ``author``), recorded with
    #: the call. Set only by an agent step (`mcp_harbor.runctx.agent`).
    via: Mapping[str, Any] | None = None
    #: A custom tool of the export whose agent calls it (never published,
    #: so not in the catalog); None: `tool` is looked up in the catalog.
    custom: CallableExport | None = None
    #: For a custom tool: the run directory of the run it belongs to (its
    #: steps see it as ``$HARBOR_RUN_DIR``; its own files go under
    #: ``tools/`` there).
    parent_run_dir: Path | None = None
    #: A model's tool call: the exports whose agents led to it, outermost
    #: first (the runtime refuses a loop or too deep a nesting).
    agent_chain: tuple[str, ...] = ()
    #: The run's id, chosen by the caller of the service (a task records it
    #: before the call runs, to follow a worker's run after a restart);
    #: None: a new one (`new_run_id`). Unique per call.
    run_id: str | None = None


class CallableExport(Protocol):
    """A published export as the call path needs it."""

    @property
    def export(self) -> Export: ...

    @property
    def validator(self) -> ArgumentValidator: ...


class Catalog(Protocol):
    """The tools a call may name. Immutable: a reload replaces it whole, and
    a call keeps the catalog it started with."""

    def find(self, name: str) -> CallableExport | None:
        """The published export of that name, or None."""
        ...

    def was_refused(self, name: str) -> bool:
        """Whether the checker refused an export of that name (not published)."""
        ...


@dataclass(frozen=True, slots=True)
class _Entry:
    export: Export
    validator: ArgumentValidator


class ExportCatalog:
    """A `Catalog` over checked exports (the server's `Registry` is another)."""

    def __init__(self, exports: Iterable[Export], refused: Iterable[str] = ()) -> None:
        self._entries = {e.name: _Entry(e, ArgumentValidator(e)) for e in exports}
        self._refused = frozenset(refused)

    def find(self, name: str) -> CallableExport | None:
        return self._entries.get(name)

    def was_refused(self, name: str) -> bool:
        return name in self._refused
