"""Issue 20: an approval is bound to the exact plan, and with ``approvers:``
nothing of the caller's own counts as one.

The call service with real bash and a real SQLite store: the plan hash
changes with the export, the arguments and the rendered commands; an answer
given for another plan declines; with ``approvers:`` neither a seed rule, nor
the caller's answer, nor its client's approver is used, and the run waits
for an approver's answer through the store (`answer_request`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import audit_records, write_export

from mcp_harbor.config import load_export
from mcp_harbor.errors import ApprovalRefused
from mcp_harbor.identity import Caller
from mcp_harbor.preflight import Preflight
from mcp_harbor.runctx import Approval, CallRequest
from mcp_harbor.runctx.approval import Decision, SeedRule, answer_request
from mcp_harbor.runctx.plan import plan_hash
from mcp_harbor.runctx.request import ExportCatalog
from mcp_harbor.runctx.service import CallService, RunSettings
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

EXPORTS = {
    "deploy": """
        name: deploy
        description: Needs a human's yes.
        confirm: "Deploy {{ args.target }}?"
        approval_timeout: 10
        args:
          target: {type: string, enum: [dev, prod]}
          token: {type: string, secret: true, default: "s3cret"}
        steps:
          - name: go
            argv: [echo, "deploying {{ args.target }}"]
    """,
    "guarded": """
        name: guarded
        description: Needs an ops approver's yes.
        confirm: "Ship {{ args.target }}?"
        approvers: [group:ops]
        approval_timeout: 10
        args:
          target: {type: string, enum: [dev, prod]}
        steps:
          - name: go
            run: echo "shipping $ARG_target"
    """,
}

CALLER = Caller(transport="stdio", principal="local:tester", session="stdio:plans")
OPS = Caller(transport="cli", principal="bob", tenant="acme", groups=("ops",))


class _Yes:
    """An approver that says yes at once (the caller's own client)."""

    def __init__(self) -> None:
        self.asked = 0

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Decision:
        self.asked += 1
        return Decision(True, "the caller's client", "elicitation")


class Harness:
    def __init__(self, tmp_path: Path) -> None:
        folder = tmp_path / "exports"
        self.exports = {
            name: load_export(write_export(folder, f"{name}.yaml", text))
            for name, text in EXPORTS.items()
        }
        self.db = tmp_path / "audit.db"
        self.store = SqliteStore(self.db)
        settings = RunSettings(
            runs_root=tmp_path / "runs",
            workdir=tmp_path,
            preflight=Preflight(),
            approve_seed=[SeedRule("guarded", {}, True, "seed.yaml#1")],
        )
        self.service = CallService(
            settings,
            AuditTrail(self.store),
            self.store,
            catalog=ExportCatalog(self.exports.values()),
        )

    async def call(self, tool: str, arguments: dict[str, Any], approval: Approval) -> Any:
        return await self.service.call(CallRequest(tool, arguments, CALLER, approval=approval))


@asynccontextmanager
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path)
    try:
        yield h
    finally:
        h.store.close()


def test_the_plan_hash_follows_the_export_the_arguments_and_the_commands(
    tmp_path: Path,
) -> None:
    export = load_export(write_export(tmp_path / "a", "deploy.yaml", EXPORTS["deploy"]))
    shown = {"target": "dev", "token": "***"}
    first = plan_hash(export, shown)
    assert first == plan_hash(export, dict(shown))  # the same plan, the same hash
    assert first != plan_hash(export, {**shown, "target": "prod"})
    edited = EXPORTS["deploy"].replace(
        '"deploying {{ args.target }}"', '"deploy {{ args.target }}"'
    )
    other = load_export(write_export(tmp_path / "b", "deploy.yaml", edited))
    assert other.content_hash != export.content_hash
    assert plan_hash(other, shown) != first


async def test_an_answer_for_another_plan_declines(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        asked = await h.call("deploy", {"target": "dev"}, Approval(question=True))
        assert asked.status == "needs_input" and asked.question is not None
        plan = asked.question.plan_hash
        assert plan is not None
        stale = Decision(True, "user of client", "elicitation", plan_hash="0" * 64)
        declined = await h.call("deploy", {"target": "dev"}, Approval(answer=stale))
        assert declined.status == "declined" and not declined.ran
        assert "the answer was given for another plan" in declined.answer
        record = audit_records(h.db, declined.run_id)[-1]
        assert record["body"]["approval"]["plan_hash"] == plan
        right = Decision(True, "user of client", "elicitation", plan_hash=plan)
        ran = await h.call("deploy", {"target": "dev"}, Approval(answer=right))
        assert ran.status == "ok", ran.answer
        start = audit_records(h.db, ran.run_id)[0]
        assert start["body"]["approval"]["plan_hash"] == plan


async def test_with_approvers_nothing_of_the_caller_counts(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        client = _Yes()
        mine = Decision(True, "the caller's client", "elicitation")
        envelope: Any = None

        async def call() -> None:
            nonlocal envelope
            approval = Approval(answer=mine, ask=client, question=True)
            envelope = await h.call("guarded", {"target": "prod"}, approval)

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(10):
                while not (pending := h.store.pending_approvals()):
                    await anyio.sleep(0.05)
            (item,) = pending
            assert item["approvers"] == ["group:ops"]
            # The caller may not answer through the store either.
            with pytest.raises(ApprovalRefused, match="local:tester made this call") as refused:
                answer_request(h.store, item["run_id"], CALLER, True, None, "cli")
            assert refused.value.why == "forbidden"
            answered = answer_request(h.store, item["run_id"], OPS, True, "ok by ops", "cli")
            assert answered["decided_as"] == {
                "principal": "bob",
                "tenant": "acme",
                "groups": ["ops"],
                "via": "cli",
            }
        assert envelope.status == "ok", envelope.answer
        assert client.asked == 0  # neither the seed, nor the answer, nor the client's approver
        start = audit_records(h.db, envelope.run_id)[0]
        assert start["body"]["approval"]["by"] == "bob"
        assert start["body"]["approval"]["reason"] == "ok by ops"
        assert json.dumps(start["body"]["approval"]).count("seed") == 0
