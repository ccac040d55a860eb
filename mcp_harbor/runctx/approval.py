"""Asking a human before a run: who approves, how, and what is recorded.

An export with ``confirm:`` runs only after a human said yes. The message
renders the validated values literally. The answer comes, in this order of
preference, from:

1. a pre-seeded rule (``serve --approve-seed FILE``) matching the export and
   arguments, for unattended use;
2. the client, through MCP elicitation (the server's `Approver`), when it
   can elicit: the client shows the human the message;
3. an operator, otherwise: the run waits until someone runs
   ``mcp-harbor approve RUN_ID`` or ``mcp-harbor deny RUN_ID`` against the same
   store, or until ``approval_timeout`` passes (declined).

The calling model can never approve its own call: nothing it sends over MCP
is an approval; elicitation answers come from the client's user interface,
operator answers from the store, seeds from the operator's file.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import anyio
import yaml

from mcp_harbor.errors import ConfigError
from mcp_harbor.store.base import Store

__all__ = [
    "DEFAULT_APPROVAL_TIMEOUT",
    "Approver",
    "Decision",
    "Notify",
    "OperatorApprover",
    "SeedRule",
    "load_seed",
    "match_seed",
]

log = logging.getLogger("mcp_harbor.approval")

#: Seconds a run waits for an answer when its export sets no approval_timeout.
DEFAULT_APPROVAL_TIMEOUT = 300.0


@dataclass(frozen=True, slots=True)
class Decision:
    """A human's answer. `by` names who answered, `how` through what."""

    approved: bool
    by: str
    how: Literal["elicitation", "operator", "seed", "terminal", "timeout"]
    waited_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": "approved" if self.approved else "declined",
            "by": self.by,
            "how": self.how,
            "waited_ms": self.waited_ms,
        }


class Approver(Protocol):
    """Asks for a decision on one run. Must not raise for a refusal."""

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision: ...


Notify = Callable[[str], Awaitable[None]]


class OperatorApprover:
    """Waits for ``mcp-harbor approve|deny RUN_ID`` through the store.

    **Cancellation:** stops waiting; the request stays unanswered in the store
    (an operator's later answer is then ignored).
    """

    POLL_S = 0.25

    def __init__(
        self,
        store: Store,
        principal: str,
        arguments: Mapping[str, Any],
        db_hint: str,
        notify: Notify | None = None,
    ) -> None:
        self._store = store
        self._principal = principal
        self._arguments = dict(arguments)
        self._db_hint = db_hint
        self._notify = notify

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision:
        began = time.monotonic()
        await anyio.to_thread.run_sync(
            self._store.request_approval, run_id, tool, self._principal, message, self._arguments
        )
        how_to = (
            f"waiting for an operator: mcp-harbor approve {run_id}{self._db_hint} "
            f"(or: mcp-harbor deny {run_id}{self._db_hint}); {timeout:g} s"
        )
        log.warning("%s: %s: %s", tool, message, how_to)
        if self._notify is not None:
            await self._notify(how_to)
        with anyio.move_on_after(timeout):
            while True:
                answer = await anyio.to_thread.run_sync(self._store.decision, run_id)
                if answer is not None:
                    decision, by = answer
                    waited = round((time.monotonic() - began) * 1000, 3)
                    return Decision(decision == "approved", by, "operator", waited)
                await anyio.sleep(self.POLL_S)
        waited = round((time.monotonic() - began) * 1000, 3)
        # Close the request so a late answer cannot count.
        await anyio.to_thread.run_sync(self._store.decide, run_id, "expired", "timeout")
        return Decision(False, "timeout", "timeout", waited)


@dataclass(frozen=True, slots=True)
class SeedRule:
    """``{export: NAME, arguments: {k: v, …}, decision: approve|deny}``: the
    first rule whose export matches and whose every listed argument equals
    the call's answers for it."""

    export: str
    arguments: Mapping[str, Any]
    approve: bool
    where: str


def load_seed(path: Path) -> list[SeedRule]:
    """Read an ``--approve-seed`` file: a YAML (or JSON) list of rules.

    Raises:
        ConfigError: the file cannot be read or a rule is malformed.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the approval seed: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: the approval seed is not valid YAML: {exc}") from exc
    if not isinstance(data, list):
        raise ConfigError(
            f"{path}: the approval seed is a list of "
            f"{{export: NAME, arguments: {{…}}, decision: approve|deny}}"
        )
    rules: list[SeedRule] = []
    for index, item in enumerate(data):
        where = f"{path}#{index + 1}"
        if not isinstance(item, dict) or set(item) - {"export", "arguments", "decision"}:
            raise ConfigError(f"{where}: a rule has export, arguments (optional) and decision")
        export, arguments = item.get("export"), item.get("arguments", {})
        decision = item.get("decision")
        if not isinstance(export, str) or not isinstance(arguments, dict):
            raise ConfigError(f"{where}: export must be a name and arguments a mapping")
        if decision not in ("approve", "deny"):
            raise ConfigError(f"{where}: decision must be approve or deny")
        rules.append(SeedRule(export, arguments, decision == "approve", where))
    return rules


def match_seed(
    rules: Sequence[SeedRule], tool: str, arguments: Mapping[str, Any]
) -> Decision | None:
    """The decision of the first rule that matches, or None."""
    for rule in rules:
        if rule.export != tool:
            continue
        if all(
            k in arguments and json.dumps(arguments[k]) == json.dumps(v)
            for k, v in rule.arguments.items()
        ):
            return Decision(rule.approve, f"seed:{rule.where}", "seed")
    return None
