"""Issue 6: ``confirm:`` asks a human before anything runs.

- Elicitation in both eras (handshake: ``elicitation/create``; 2026-07-28:
  an ``InputRequiredResult`` round trip the SDK client drives): accept runs,
  decline and cancel are ``declined`` and nothing ran (the step's marker
  file stays absent). The message shows the value as typed, between double
  quotes (its own ``"`` escaped), ``$(...)`` included.
- A client without elicitation waits for an operator: another process runs
  ``mcp-harbor approvals --json`` to find the run id, then ``mcp-harbor
  approve`` or ``deny``; the audit start record says ``approval.by`` =
  ``local:<user>``, ``approval.how`` = ``operator``. ``approval_timeout``
  expiry declines. ``--approve-seed`` answers without asking.
- 2026-07-28: a retried call whose arguments differ from the ones the answer
  was given for is asked again (the low-level ``client.session``).
"""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    approvals_json,
    audit_records,
    harbor_cli,
    stdio_client_of,
    text_of,
    without_plan,
    write_export,
)
from mcp import types
from mcp.client.context import ClientRequestContext

pytestmark = pytest.mark.anyio

#: What a user might type; shown literally, run as data.
NASTY = """it's "$(touch /tmp/pwned-harbor)" `id` $HOME ; rm -rf /"""
#: How the question shows it: between double quotes, its own quotes escaped.
QUOTED_NASTY = r'''"it's \"$(touch /tmp/pwned-harbor)\" `id` $HOME ; rm -rf /"'''
CONFIRM_KEY = "mcp-harbor/confirm"


class Setup:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.exports = root / "exports"
        self.marker = root / "ran.txt"
        self.db = root / "harbor.db"
        self.state = root / "state"
        for name, timeout in (("deploy", 20), ("quick_expiry", 1)):
            write_export(
                self.exports,
                f"{name}.yaml",
                f"""
                name: {name}
                description: Deploys, after a human said yes.
                args:
                  target: {{type: string, maxLength: 200}}
                required: [target]
                confirm: "Deploy {{{{ args.target }}}} now?"
                approval_timeout: {timeout}
                steps:
                  - name: mark
                    run: printf '%s\\n' "$ARG_target" >> {self.marker}
                """,
            )

    def client(self, mode: str, *extra: str, **kw: Any) -> Any:
        return stdio_client_of(self.exports, self.state, mode, "--db", str(self.db), *extra, **kw)

    def ran(self) -> list[str]:
        return self.marker.read_text().splitlines() if self.marker.exists() else []


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


class Human:
    """An elicitation callback that answers with `action` and records the questions."""

    def __init__(self, action: str, approve: bool = True) -> None:
        self.action = action
        self.approve = approve
        self.asked: list[types.ElicitRequestParams] = []

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        self.asked.append(params)
        content = {"approve": self.approve} if self.action == "accept" else None
        return types.ElicitResult(action=self.action, content=content)  # type: ignore[arg-type]


def call_records(db: Path, tool: str = "deploy") -> list[dict[str, Any]]:
    return [r for r in audit_records(db) if r["tool"] == tool]


@pytest.mark.parametrize("mode", MODES)
async def test_elicitation_accept_runs_and_shows_values_literally(setup: Setup, mode: str) -> None:
    human = Human("accept")
    async with setup.client(mode, elicitation_callback=human) as client:
        result = await client.call_tool("deploy", {"target": NASTY})
    assert result.is_error is False, text_of(result)
    (asked,) = human.asked
    assert without_plan(asked.message) == f"Deploy {QUOTED_NASTY} now?"
    assert setup.ran() == [NASTY]  # data, not shell syntax
    assert not Path("/tmp/pwned-harbor").exists()
    records = call_records(setup.db)
    # 2026-07-28: the question was a call of its own, answered needs_input.
    asked = [r for r in records if r["status"] == "needs_input"]
    assert len(asked) == (0 if mode == "legacy" else 1), records
    start, end = [r for r in records if r["status"] != "needs_input"]
    assert start["kind"] == "start" and end["status"] == "ok"
    approval = start["body"]["approval"]
    assert approval["decision"] == "approved"
    assert approval["how"] == "elicitation"
    assert approval["by"].startswith("user of ")


@pytest.mark.parametrize("answer", [("decline", True), ("cancel", True), ("accept", False)])
@pytest.mark.parametrize("mode", MODES)
async def test_elicitation_refusal_declines_and_runs_nothing(
    setup: Setup, mode: str, answer: tuple[str, bool]
) -> None:
    human = Human(*answer)
    async with setup.client(mode, elicitation_callback=human) as client:
        result = await client.call_tool("deploy", {"target": "prod"})
    assert len(human.asked) == 1
    assert result.is_error is True
    assert result.structured_content is not None
    assert result.structured_content["status"] == "declined"
    assert "declined (elicitation" in text_of(result) and "nothing was run" in text_of(result)
    assert setup.ran() == []
    records = call_records(setup.db)
    # 2026-07-28: the question is a call of its own (answered needs_input).
    asked = [r for r in records if r["status"] == "needs_input"]
    assert len(asked) == (0 if mode == "legacy" else 1), records
    (record,) = [r for r in records if r["status"] != "needs_input"]
    assert record["kind"] == "call" and record["status"] == "declined"
    assert record["body"]["approval"]["decision"] == "declined"


async def wait_for_pending(db: Path, tool: str) -> dict[str, Any]:
    """Poll ``mcp-harbor approvals --json`` (a separate process) until the run waits."""
    with anyio.fail_after(20):
        while True:
            pending = await anyio.to_thread.run_sync(approvals_json, db)
            mine = [p for p in pending if p["tool"] == tool]
            if mine:
                (item,) = mine
                return item
            await anyio.sleep(0.1)


@pytest.mark.parametrize("verb", ["approve", "deny"])
@pytest.mark.parametrize("mode", MODES)
async def test_operator_answers_from_the_cli(setup: Setup, mode: str, verb: str) -> None:
    notices: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        notices.append(message or "")

    result: Any = None
    async with setup.client(mode) as client:  # no elicitation_callback

        async def call() -> None:
            nonlocal result
            result = await client.call_tool(
                "deploy", {"target": "prod"}, progress_callback=on_progress
            )

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            item = await wait_for_pending(setup.db, "deploy")
            assert without_plan(item["message"]) == 'Deploy "prod" now?'
            assert item["arguments"] == {"target": "prod"}
            assert setup.ran() == []  # still waiting
            answered = await anyio.to_thread.run_sync(
                lambda: harbor_cli(verb, item["run_id"], "--db", str(setup.db))
            )
            assert item["run_id"] in answered.stdout
    run_id = item["run_id"]
    # The client was told who must answer which run, never a command to run.
    told = [n for n in notices if f"waiting for approval of run {run_id}" in n]
    assert told and all("mcp-harbor approve" not in n for n in notices), notices
    assert "by any operator of this server's store" in told[0]
    user = f"local:{getpass.getuser()}"
    records = call_records(setup.db)
    assert {r["call_id"] for r in records} == {run_id}
    if verb == "approve":
        assert result.is_error is False, text_of(result)
        assert setup.ran() == ["prod"]
        start, end = records
        assert start["kind"] == "start" and end["status"] == "ok"
        approval = start["body"]["approval"]
        assert approval["decision"] == "approved"
    else:
        assert result.is_error is True
        assert result.structured_content["status"] == "declined"
        assert setup.ran() == []
        (record,) = records
        assert record["status"] == "declined"
        approval = record["body"]["approval"]
        assert approval["decision"] == "declined"
    assert approval["by"] == user
    assert approval["how"] == "operator"
    # Answered: no longer pending, and a second answer is refused.
    assert approvals_json(setup.db) == []
    again = harbor_cli("approve", run_id, "--db", str(setup.db), check=False)
    assert again.returncode != 0 and "already answered" in again.stderr


async def test_approval_timeout_declines(setup: Setup) -> None:
    async with setup.client("auto") as client:
        result = await client.call_tool("quick_expiry", {"target": "prod"})
    assert result.is_error is True
    assert result.structured_content["status"] == "declined"
    assert "declined (timeout" in text_of(result)
    assert setup.ran() == []
    (record,) = call_records(setup.db, "quick_expiry")
    assert record["status"] == "declined"
    assert record["body"]["approval"]["how"] == "timeout"
    assert record["body"]["approval"]["waited_ms"] >= 1000
    # The request is closed: a late operator cannot approve it.
    assert approvals_json(setup.db) == []
    late = harbor_cli("approve", record["call_id"], "--db", str(setup.db), check=False)
    assert late.returncode != 0 and "already answered: expired" in late.stderr


@pytest.mark.parametrize("mode", MODES)
async def test_approve_seed_answers_without_asking(setup: Setup, mode: str) -> None:
    seed = setup.root / "seed.yaml"
    seed.write_text(
        "- {export: deploy, arguments: {target: prod}, decision: approve}\n"
        "- {export: deploy, arguments: {target: staging}, decision: deny}\n"
    )
    human = Human("decline")  # would refuse, if it were asked
    async with setup.client(mode, "--approve-seed", str(seed), elicitation_callback=human) as c:
        with anyio.fail_after(10):  # nothing waits for an operator
            approved = await c.call_tool("deploy", {"target": "prod"})
            denied = await c.call_tool("deploy", {"target": "staging"})
    assert human.asked == []
    assert approved.is_error is False, text_of(approved)
    assert denied.structured_content["status"] == "declined"
    assert setup.ran() == ["prod"]
    records = call_records(setup.db)
    start = next(r for r in records if r["kind"] == "start")
    assert start["body"]["approval"]["how"] == "seed"
    assert start["body"]["approval"]["by"] == f"seed:{seed}#1"
    refused = next(r for r in records if r["status"] == "declined")
    assert refused["body"]["approval"]["by"] == f"seed:{seed}#2"


async def test_modern_retry_with_other_arguments_is_asked_again(setup: Setup) -> None:
    human = Human("accept")
    async with setup.client("auto", elicitation_callback=human) as client:
        assert client.protocol_version == "2026-07-28"
        session = client.session
        first = await session.call_tool("deploy", {"target": "dev"}, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult)
        assert first.request_state
        (question,) = first.input_requests.values()
        assert without_plan(question.params.message) == 'Deploy "dev" now?'
        yes = {CONFIRM_KEY: types.ElicitResult(action="accept", content={"approve": True})}
        # The answer was given for target=dev; replayed for prod it is not an approval.
        swapped = await session.call_tool(
            "deploy",
            {"target": "prod"},
            input_responses=yes,
            request_state=first.request_state,
            allow_input_required=True,
        )
        assert isinstance(swapped, types.InputRequiredResult)
        (asked_again,) = swapped.input_requests.values()
        assert without_plan(asked_again.params.message) == 'Deploy "prod" now?'
        assert setup.ran() == []
        # A tampered state is not an answer either.
        forged = await session.call_tool(
            "deploy",
            {"target": "dev"},
            input_responses=yes,
            request_state=first.request_state[:-4] + "0000",
            allow_input_required=True,
        )
        assert isinstance(forged, types.InputRequiredResult)
        assert setup.ran() == []
        # The same arguments with the signed state run.
        same = await session.call_tool(
            "deploy",
            {"target": "dev"},
            input_responses=yes,
            request_state=first.request_state,
            allow_input_required=True,
        )
        assert isinstance(same, types.CallToolResult)
        assert same.is_error is False, text_of(same)
    assert setup.ran() == ["dev"]
