"""Every outcome of a call through the one call path, `CallService.call`,
with real exports, real bash and a real SQLite audit trail.

Proves: each outcome (ran: ok, failed, timeout, output_invalid, cancelled;
nothing ran: unknown, refused, denied, invalid, unavailable, busy,
rate_limited, shutting_down, store_unavailable, declined, needs_input) answers an
envelope, never an exception; the envelope's status is the audit record's
status (one vocabulary), except that a refused or denied call is shown
exactly as an unknown tool; the finish reason is derived from the status;
every envelope validates against `ENVELOPE_SCHEMA`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from harbor_helpers import audit_records, without_plan, write_export

from mcp_harbor.config.loader import load_export
from mcp_harbor.identity import Caller
from mcp_harbor.preflight import Preflight
from mcp_harbor.runctx import (
    ENVELOPE_SCHEMA,
    Approval,
    CallRequest,
    CallService,
    Envelope,
    ExportCatalog,
    RunSettings,
)
from mcp_harbor.runctx.approval import Decision, SeedRule
from mcp_harbor.status import FINISH_REASONS, finish_reason_of
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

EXPORTS = {
    "plain": """
        name: plain
        description: Says hello.
        args:
          who: {type: string, pattern: "[a-z]+"}
        steps:
          - name: hello
            argv: [echo, "hello {{ args.who }}"]
    """,
    "fails": """
        name: fails
        description: Exits 3.
        steps:
          - name: fail
            run: exit 3
    """,
    "slow": """
        name: slow
        description: Outlives its timeout.
        timeout: 1
        steps:
          - name: nap
            run: sleep 5
    """,
    "bad_payload": """
        name: bad_payload
        description: Writes a payload its schema refuses.
        output_schema:
          type: object
          properties: {n: {type: integer}}
          required: [n]
        steps:
          - name: write
            run: |
              printf '{"n": "x"}' > "$HARBOR_OUTPUT"
    """,
    "theirs": """
        name: theirs
        description: Only for someone else.
        allow: [principal:someone-else]
        steps:
          - name: a
            run: echo never
    """,
    "missing_program": """
        name: missing_program
        description: Needs a program that is not installed.
        needs:
          programs: [no-such-program-harbor-test]
        steps:
          - name: a
            run: echo never
    """,
    "one_at_a_time": """
        name: one_at_a_time
        description: One call at a time, a short queue.
        concurrency: 1
        queue_timeout: 0.3
        steps:
          - name: nap
            run: sleep 2
    """,
    "deploy": """
        name: deploy
        description: Needs a human's yes.
        confirm: "Deploy {{ args.target }}?"
        approval_timeout: 5
        args:
          target: {type: string, enum: [dev, prod]}
        steps:
          - name: go
            argv: [echo, "deploying {{ args.target }}"]
    """,
    "limited": """
        name: limited
        description: Once a minute per principal.
        rate_limit: {calls: 1, per: 60}
        args:
          who: {type: string, pattern: "[a-z]+"}
        steps:
          - name: hello
            argv: [echo, "hello {{ args.who }}"]
    """,
    "theirs_limited": """
        name: theirs_limited
        description: Rate limited, and only for someone else.
        allow: [principal:someone-else]
        rate_limit: {calls: 1, per: 60}
        steps:
          - name: a
            run: echo never
    """,
    "deploy_limited": """
        name: deploy_limited
        description: Needs a human's yes, once a minute.
        confirm: "Deploy?"
        rate_limit: {calls: 1, per: 60}
        steps:
          - name: go
            run: echo deploying
    """,
}

CALLER = Caller(transport="stdio", principal="local:tester", session="stdio:outcomes")


class Harness:
    def __init__(self, tmp_path: Path) -> None:
        folder = tmp_path / "exports"
        exports = [
            load_export(write_export(folder, f"{name}.yaml", text))
            for name, text in EXPORTS.items()
        ]
        self.db = tmp_path / "audit.db"
        self.store = SqliteStore(self.db)
        settings = RunSettings(
            runs_root=tmp_path / "runs",
            workdir=tmp_path,
            preflight=Preflight(),
            approve_seed=[SeedRule("deploy", {"target": "prod"}, False, "seed.yaml#1")],
        )
        self.service = CallService(
            settings,
            AuditTrail(self.store),
            self.store,
            catalog=ExportCatalog(exports, refused=["was_refused"]),
        )

    async def call(self, tool: str, arguments: dict[str, Any] | None = None, **kw: Any) -> Envelope:
        envelope = await self.service.call(CallRequest(tool, arguments or {}, CALLER, **kw))
        data = json.loads(envelope.dumps())
        jsonschema.validate(data, ENVELOPE_SCHEMA)
        assert data["finish_reason"] == finish_reason_of(data["status"])
        assert data["finish_reason"] in FINISH_REASONS
        return envelope

    def recorded(self, envelope: Envelope) -> str:
        """The status of the call's last audit record."""
        records = audit_records(self.db, envelope.run_id)
        assert records, f"no audit record of {envelope.run_id}"
        return str(records[-1]["status"])


@asynccontextmanager
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path)
    try:
        yield h
    finally:
        h.store.close()


RAN: list[tuple[str, dict[str, Any], str, str]] = [
    ("plain", {"who": "world"}, "ok", "goal"),
    ("fails", {}, "failed", "failed"),
    ("slow", {}, "timeout", "timeout"),
    ("bad_payload", {}, "output_invalid", "output_invalid"),
]


@pytest.mark.parametrize(("tool", "arguments", "status", "reason"), RAN)
async def test_runs_that_ran(
    tmp_path: Path, tool: str, arguments: dict[str, Any], status: str, reason: str
) -> None:
    async with harness(tmp_path) as h:
        envelope = await h.call(tool, arguments)
        assert (envelope.status, envelope.finish_reason) == (status, reason), envelope.answer
        assert envelope.ran and envelope.steps_run == 1
        assert h.recorded(envelope) == status  # one vocabulary: the audit says the same


NOTHING: list[tuple[str, dict[str, Any], str, str, str]] = [
    # tool, arguments, shown status, recorded status, words of the answer
    ("no_such_tool", {}, "unknown", "unknown", "Unknown tool: no_such_tool"),
    ("was_refused", {}, "unknown", "refused", "Unknown tool: was_refused"),
    ("theirs", {}, "unknown", "denied", "Unknown tool: theirs"),
    ("plain", {"who": "NOT lower"}, "invalid", "invalid", "Nothing was run."),
    ("plain", {"bogus": 1, "who": "x"}, "invalid", "invalid", "unknown argument 'bogus'"),
    ("missing_program", {}, "unavailable", "unavailable", "no-such-program-harbor-test"),
    ("deploy", {"target": "prod"}, "declined", "declined", "declined (seed"),
]


@pytest.mark.parametrize(("tool", "arguments", "shown", "recorded", "words"), NOTHING)
async def test_calls_where_nothing_ran(
    tmp_path: Path, tool: str, arguments: dict[str, Any], shown: str, recorded: str, words: str
) -> None:
    async with harness(tmp_path) as h:
        envelope = await h.call(tool, arguments)
        assert envelope.status == shown, envelope.answer
        assert not envelope.ran and envelope.steps == () and envelope.run_dir == ""
        assert words in envelope.answer, envelope.answer
        assert h.recorded(envelope) == recorded
        assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


async def test_a_denied_call_looks_exactly_like_an_unknown_tool(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        denied = await h.call("theirs")
        unknown = await h.call("no_such_tool")

    def shape(e: Envelope, name: str) -> dict[str, Any]:
        data = e.to_json()
        data.update(run_id="R", started_at="T", duration_ms=0)
        return json.loads(json.dumps(data).replace(name, "TOOL"))

    assert shape(denied, "theirs") == shape(unknown, "no_such_tool")


async def test_needs_input_carries_the_question(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        envelope = await h.call("deploy", {"target": "dev"}, approval=Approval(question=True))
        assert envelope.status == "needs_input" and envelope.finish_reason == "needs_input"
        assert envelope.question is not None
        assert without_plan(envelope.question.message) == 'Deploy "dev"?'
        assert envelope.question.timeout_s == 5
        plan = envelope.question.plan_hash
        assert plan is not None and envelope.question.message.endswith(f"(plan {plan[:16]})")
        assert envelope.to_json()["question"] == {
            "message": envelope.question.message,
            "timeout_s": 5,
            "plan_hash": plan,
        }
        assert h.recorded(envelope) == "needs_input"
        # Nobody can answer at all: the same.
        nobody = await h.call("deploy", {"target": "dev"}, approval=Approval(operator=False))
        assert nobody.status == "needs_input"
        # A seed rule answers before any question is asked.
        seeded = await h.call("deploy", {"target": "prod"}, approval=Approval(question=True))
        assert seeded.status == "declined"


async def test_busy_when_the_queue_timeout_passes(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        results: dict[str, Envelope] = {}

        async def call(key: str) -> None:
            results[key] = await h.call("one_at_a_time")

        async with anyio.create_task_group() as tg:
            tg.start_soon(call, "first")
            await anyio.sleep(0.3)
            tg.start_soon(call, "second")
        assert results["first"].status == "ok"
        busy = results["second"]
        assert busy.status == "busy" and busy.queued_ms >= 250, busy
        assert "busy:" in busy.answer
        assert h.recorded(busy) == "busy"


async def test_rate_limited_after_allow_and_validation(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        # Invalid calls cost nothing: the model corrects them and calls again.
        for _ in range(3):
            assert (await h.call("limited", {"who": "NOT lower"})).status == "invalid"
        first = await h.call("limited", {"who": "world"})
        assert first.status == "ok", first.answer
        limited = await h.call("limited", {"who": "world"})
        assert (limited.status, limited.finish_reason) == ("rate_limited", "refused")
        assert not limited.ran and limited.steps == () and limited.run_dir == ""
        assert limited.answer == (
            "limited: rate limited: local:tester may make 1 call(s) of limited per 60 s; "
            "try again in 60 s. Nothing was run"
        )
        assert h.recorded(limited) == "rate_limited"
        (record,) = audit_records(h.db, limited.run_id)
        assert record["kind"] == "call" and "try again in 60 s" in record["body"]["reason"]
        assert record["body"]["arguments"] == {"who": "world"}
        # A caller that may not call the tool learns nothing from its limit.
        for _ in range(3):
            denied = await h.call("theirs_limited")
            assert denied.status == "unknown" and h.recorded(denied) == "denied"


async def test_a_question_does_not_use_up_the_budget(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        for _ in range(2):
            asked = await h.call("deploy_limited", approval=Approval(question=True))
            assert asked.status == "needs_input", asked.answer
        yes = Approval(answer=Decision(True, "tester", "elicitation"))
        ran = await h.call("deploy_limited", approval=yes)
        assert ran.status == "ok", ran.answer
        again = await h.call("deploy_limited", approval=yes)
        assert again.status == "rate_limited", again.answer


async def test_shutting_down_and_cancelled_by_shutdown(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        results: list[Envelope] = []

        async def call() -> None:
            results.append(await h.call("slow"))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            await anyio.sleep(0.5)
            await h.service.shutdown()
        (cancelled,) = results
        assert cancelled.status == "cancelled" and cancelled.finish_reason == "cancelled"
        assert "shutting down" in cancelled.answer
        assert cancelled.ran and Path(cancelled.run_dir).is_dir()  # it had started
        assert h.recorded(cancelled) == "cancelled"
        after = await h.call("plain", {"who": "late"})
        assert after.status == "shutting_down" and not after.ran
        assert h.recorded(after) == "shutting_down"


async def test_a_cancelled_call_is_recorded_and_the_cancellation_propagates(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        with anyio.move_on_after(0.5) as scope:
            await h.call("slow")
        assert scope.cancelled_caught
        (start, end) = [r for r in audit_records(h.db) if r["tool"] == "slow"]
        assert (start["status"], end["status"]) == ("running", "cancelled")


async def test_store_unavailable(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        # A store that cannot be written: nothing may run, since nothing
        # could be recorded.
        readonly = SqliteStore(h.db, readonly=True)
        try:
            h.service.audit = AuditTrail(readonly)
            h.service.store = readonly
            envelope = await h.call("plain", {"who": "world"})
        finally:
            readonly.close()
        assert envelope.status == "store_unavailable" and not envelope.ran, envelope.answer
        assert "the audit store is unavailable" in envelope.answer
        assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


async def test_shutdown_while_a_call_waits_for_a_human(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        results: list[Envelope] = []

        async def call() -> None:  # no seed for dev: it waits for an operator
            results.append(await h.call("deploy", {"target": "dev"}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            await anyio.sleep(0.5)
            await h.service.shutdown()
        (envelope,) = results
        assert envelope.status == "shutting_down" and not envelope.ran, envelope.answer
        assert "cancelled before it ran" in envelope.answer
        assert h.recorded(envelope) == "shutting_down"  # recorded, though nothing ran


def test_the_published_envelope_schema_is_the_envelope_schema() -> None:
    """docs/envelope.schema.json is what clients are pointed to (tools
    without an ``output_schema`` declare no ``outputSchema``): it must be
    exactly the schema every envelope is validated against."""
    published = Path(__file__).resolve().parents[1] / "docs" / "envelope.schema.json"
    assert json.loads(published.read_text()) == ENVELOPE_SCHEMA, (
        "docs/envelope.schema.json is stale: write it again from "
        "mcp_harbor.runctx.ENVELOPE_SCHEMA (json.dumps(..., indent=2))"
    )
