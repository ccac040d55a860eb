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
   store (or through the server's ``/approvals`` endpoint), or until
   ``approval_timeout`` passes (declined).

The calling model can never approve its own call: nothing it sends over MCP
is an approval; elicitation answers come from the client's user interface,
operator answers from the store, seeds from the operator's file.

**Separation of duties.** An export with ``approvers:`` is answered by an
operator only: by a principal its entries match (`may_answer`), never the
principal that made the call, and neither its client (elicitation, the
2026-07-28 round trip, a terminal) nor a seed rule counts. The waiting run
checks the recorded answer again before it counts (`OperatorApprover`), so
an answer written into the store by other means, for another principal or
by the caller itself, is not an approval.

**Bound to the plan.** Every request carries the plan's hash
(`mcp_harbor.runctx.plan`), shown with the question and stored with the
answer; the call service declines a run whose export changed while it
waited.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, Protocol

import anyio
import yaml

from mcp_harbor._visible import visible
from mcp_harbor.errors import ApprovalRefused, ConfigError
from mcp_harbor.identity import Caller
from mcp_harbor.policy import is_allowed
from mcp_harbor.store.base import Store

__all__ = [
    "DEFAULT_APPROVAL_TIMEOUT",
    "Approver",
    "Decision",
    "Notify",
    "OperatorApprover",
    "SeedRule",
    "answer_request",
    "approvers_text",
    "load_seed",
    "match_seed",
    "may_answer",
]

log = logging.getLogger("mcp_harbor.approval")

#: Seconds a run waits for an answer when its export sets no approval_timeout.
DEFAULT_APPROVAL_TIMEOUT = 300.0


@dataclass(frozen=True, slots=True)
class Decision:
    """A human's answer. `by` names who answered, `how` through what;
    `reason` is the answer's own (``approve --reason``), `plan_hash` the plan
    it answered (`mcp_harbor.runctx.plan`)."""

    approved: bool
    by: str
    how: Literal["elicitation", "operator", "seed", "terminal", "timeout"]
    waited_ms: float = 0.0
    reason: str | None = None
    plan_hash: str | None = None
    via: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "decision": "approved" if self.approved else "declined",
            "by": self.by,
            "how": self.how,
            "waited_ms": self.waited_ms,
            "reason": self.reason,
            "plan_hash": self.plan_hash,
        }
        if self.via is not None:
            data["via"] = self.via
        return data


class Approver(Protocol):
    """Asks for a decision on one run. Must not raise for a refusal."""

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision: ...


Notify = Callable[[str], Awaitable[None]]


def approvers_text(approvers: Sequence[str] | None) -> str:
    """Who may answer, for people: ``one of group:ops, alice`` or ``any
    operator of this server's store``."""
    if not approvers:
        return "any operator of this server's store"
    return "one of " + ", ".join(visible(entry) for entry in approvers)


def may_answer(approver: Caller, requester: str, approvers: Sequence[str] | None) -> str | None:
    """Why `approver` may not answer a request of `requester` under these
    ``approvers:`` entries (None: it may). Without entries anyone reaching
    the store may (the operator model before ``approvers:``)."""
    if approvers is None:
        return None
    if approver.principal == requester:
        return (
            f"{approver.principal} made this call and cannot answer it: "
            f"it must be approved by {approvers_text(approvers)}, not the caller"
        )
    if not is_allowed(approver, approvers):
        return f"{approver.principal} may not answer it: approvers are {approvers_text(approvers)}"
    return None


def answer_request(
    store: Store,
    run_id: str,
    approver: Caller,
    approve: bool,
    reason: str | None,
    via: str,
    *,
    require_approvers: bool = False,
) -> dict[str, Any]:
    """Answer the waiting request of `run_id` as `approver` (through `via`:
    ``cli`` or ``http``) after checking that it may; returns the request as
    answered. The one place every approval channel writes an answer.
    `require_approvers`: a run whose export names no ``approvers:`` is
    refused (answered only by operators of the store, not over a network).

    Raises:
        ApprovalRefused: no such waiting run (``unknown``), already answered
            (``answered``), or `approver` may not answer it (``forbidden``).
        StoreError: the store failed.
    """
    request = store.approval(run_id)
    if request is None:
        raise ApprovalRefused("unknown", f"no run {run_id!r} is waiting for approval")
    if request["decision"] is not None:
        raise ApprovalRefused(
            "answered", f"run {run_id} was already answered: {request['decision']}"
        )
    if require_approvers and request["approvers"] is None:
        raise ApprovalRefused(
            "forbidden",
            f"run {run_id}: its export names no approvers:, so only an operator of the "
            f"server's store answers it (mcp-harbor approve|deny {run_id} --db …)",
        )
    problem = may_answer(approver, request["principal"], request["approvers"])
    if problem is not None:
        raise ApprovalRefused("forbidden", f"run {run_id}: {problem}")
    decided_as: dict[str, Any] = {
        "principal": approver.principal,
        "tenant": approver.tenant,
        "groups": list(approver.groups),
        "via": via,
    }
    if approver.scopes:  # an OAuth approver: approvers: [scope:NAME] is checked again on them
        decided_as["scopes"] = list(approver.scopes)
    decision = "approved" if approve else "denied"
    outcome = store.decide(
        run_id, decision, approver.principal, reason=reason, decided_as=decided_as
    )
    if outcome == "unknown":
        raise ApprovalRefused("unknown", f"no run {run_id!r} is waiting for approval")
    if outcome != "decided":
        raise ApprovalRefused("answered", f"run {run_id} was already answered: {outcome}")
    return {**request, "decision": decision, "decided_by": approver.principal,
            "reason": reason, "decided_as": decided_as}  # fmt: skip


class OperatorApprover:
    """Waits for ``mcp-harbor approve|deny RUN_ID`` through the store.

    With `approvers`, an answer counts only when its recorded answerer
    (``decided_as``) is one they match and is not `principal`, the caller:
    anything else (a row written by other means) is logged and declines.

    **Cancellation:** stops waiting; the request stays unanswered in the store
    (an operator's later answer is then ignored).
    """

    POLL_S = 0.25

    def __init__(
        self,
        store: Store,
        principal: str,
        arguments: Mapping[str, Any],
        notify: Notify | None = None,
        *,
        approvers: Sequence[str] | None = None,
        plan_hash: str | None = None,
        export_hash: str | None = None,
    ) -> None:
        self._store = store
        self._principal = principal
        self._arguments = dict(arguments)
        self._notify = notify
        self._approvers = None if approvers is None else list(approvers)
        self._plan_hash = plan_hash
        self._export_hash = export_hash

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision:
        began = time.monotonic()
        await anyio.to_thread.run_sync(
            partial(
                self._store.request_approval,
                run_id,
                tool,
                self._principal,
                message,
                self._arguments,
                approvers=self._approvers,
                plan_hash=self._plan_hash,
                export_hash=self._export_hash,
            )
        )
        plan = f"; plan {self._plan_hash[:16]}" if self._plan_hash else ""
        # Told to the caller: who must answer and the run, never a command to run.
        waiting = (
            f"waiting for approval of run {run_id} by {approvers_text(self._approvers)}"
            f"{plan}; {timeout:g} s"
        )
        log.warning(
            "%s: %s: %s (answer with: mcp-harbor approve|deny %s --db %s)",
            tool, message, waiting, run_id, self._store.location,
        )  # fmt: skip
        if self._notify is not None:
            await self._notify(waiting)
        with anyio.move_on_after(timeout):
            while True:
                answer = await anyio.to_thread.run_sync(self._store.approval, run_id)
                if answer is not None and answer["decision"] is not None:
                    waited = round((time.monotonic() - began) * 1000, 3)
                    return self._counted(run_id, tool, answer, waited)
                await anyio.sleep(self.POLL_S)
        waited = round((time.monotonic() - began) * 1000, 3)
        # Close the request so a late answer cannot count.
        await anyio.to_thread.run_sync(self._store.decide, run_id, "expired", "timeout")
        return Decision(False, "timeout", "timeout", waited, plan_hash=self._plan_hash)

    def _counted(
        self, run_id: str, tool: str, answer: Mapping[str, Any], waited: float
    ) -> Decision:
        """The decision an answer in the store carries, checked again
        against ``approvers:``."""
        by, reason = str(answer["decided_by"]), answer.get("reason")
        decided_as = answer.get("decided_as") or {}
        via = decided_as.get("via")
        if self._approvers is not None:
            groups = decided_as.get("groups") or []
            scopes = decided_as.get("scopes") or []
            answerer = Caller(
                transport="cli",
                principal=str(decided_as.get("principal", by)),
                tenant=str(decided_as.get("tenant", "default")),
                groups=tuple(str(g) for g in groups if isinstance(g, str)),
                scopes=tuple(str(s) for s in scopes if isinstance(s, str)),
            )
            problem = None if answerer.principal == by else "its answerer and principal differ"
            problem = problem or may_answer(answerer, self._principal, self._approvers)
            if problem is not None:
                log.error("%s: run %s: an answer that does not count: %s", tool, run_id, problem)
                return Decision(
                    False, by, "operator", waited,
                    reason=f"the answer does not count: {problem}",
                    plan_hash=self._plan_hash, via=via,
                )  # fmt: skip
        approved = answer["decision"] == "approved"
        return Decision(
            approved, by, "operator", waited, reason=reason, plan_hash=self._plan_hash, via=via
        )


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
        mark = getattr(exc, "problem_mark", None)
        at = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{at}: the approval seed is not valid YAML: {problem}") from exc
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
