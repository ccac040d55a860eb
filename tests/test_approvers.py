"""Issue 20: approvals with separation of duties.

An export with ``approvers:`` runs only once a principal they match said
yes: never the caller itself (not through the CLI, not over HTTP, not by its
own client's elicitation), answered through ``mcp-harbor approve|deny``
locally or with ``--url --token`` through the server's ``/approvals``
endpoint. The answer is bound to the plan (export, arguments, rendered
commands): if the export changes while the run waits, the approval does not
apply. Real parts throughout: ``mcp-harbor serve`` over HTTP with a tokens
file, the SDK client in both protocol eras, the real CLI, real SQLite.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import re
import sqlite3
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    PROTOCOL,
    HttpServer,
    approvals_json,
    audit_show,
    bearer_client,
    harbor_cli,
    http_server,
    text_of,
    token_add,
    without_plan,
    write_export,
)
from mcp import types
from mcp.client.context import ClientRequestContext

from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError

pytestmark = pytest.mark.anyio

DEPLOY = """
name: deploy
description: Deploys, once an ops approver said yes.
args:
  target: {{type: string, maxLength: 64}}
required: [target]
confirm: "Deploy {{{{ args.target }}}}?"
approvers: [group:ops]
approval_timeout: 30
steps:
  - name: mark
    run: printf '%s {version}\\n' "$ARG_target" >> {marker}
"""


class Human:
    """An elicitation callback that would say yes, and counts the questions."""

    def __init__(self) -> None:
        self.asked = 0

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        self.asked += 1
        return types.ElicitResult(action="accept", content={"approve": True})


@dataclass
class Site:
    root: Path
    server: HttpServer
    tokens: dict[str, str]

    @property
    def db(self) -> Path:
        return self.root / "harbor.db"

    @property
    def marker(self) -> Path:
        return self.root / "ran.txt"

    @property
    def base(self) -> str:
        return self.server.url.removesuffix("/mcp")

    def ran(self) -> list[str]:
        return self.marker.read_text().splitlines() if self.marker.exists() else []

    def cli(self, *args: str, token: str | None = None) -> Any:
        """``mcp-harbor ARGS`` through the server (with `token`'s name's
        token) or, without one, locally against the store."""
        if token is None:
            return harbor_cli(*args, "--db", str(self.db), check=False)
        return harbor_cli(
            *args, "--url", self.server.url, "--token", self.tokens[token], check=False
        )

    def post(self, run_id: str, body: Any, token: str | None, **headers: str) -> tuple[int, Any]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}/approvals/{run_id}", data=data)
        if token is not None:
            request.add_header("Authorization", f"Bearer {self.tokens[token]}")
        for name, value in headers.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("approvers")
    tokens_file = root / "tokens.json"
    tokens = {
        "alice": token_add(tokens_file, "alice"),  # the caller
        "bob": token_add(tokens_file, "bob", "--group", "ops"),  # an approver
        "carol": token_add(tokens_file, "carol", "--group", "dev"),  # not one
        "olga": token_add(tokens_file, "olga", "--group", "ops"),  # calls, and approves
    }
    exports = root / "exports"
    write_export(exports, "deploy.yaml", DEPLOY.format(version="v1", marker=root / "ran.txt"))
    extra = ("--tokens", str(tokens_file), "--db", str(root / "harbor.db"), "--watch")
    with http_server(exports, root / "state", *extra) as server:
        yield Site(root, server, tokens)


async def wait_for_pending(site: Site, target: str) -> dict[str, Any]:
    with anyio.fail_after(20):
        while True:
            pending = await anyio.to_thread.run_sync(approvals_json, site.db)
            mine = [p for p in pending if p["arguments"] == {"target": target}]
            if mine:
                return mine[0]
            await anyio.sleep(0.1)


@dataclass
class Waiting:
    """A call of ``deploy`` that waits for its approval: the pending request
    (`item`), and the call's result once the block is left."""

    item: dict[str, Any]
    results: list[Any]

    @property
    def result(self) -> Any:
        (result,) = self.results
        return result


@contextlib.asynccontextmanager
async def waiting_call(
    site: Site, caller: str, target: str, mode: str = "legacy", **call_kw: Any
) -> AsyncIterator[Waiting]:
    """`caller` calls ``deploy target=TARGET`` over HTTP; the block runs
    while the call waits for an answer; the call has ended after it."""
    client_kw = {k: call_kw.pop(k) for k in ("elicitation_callback",) if k in call_kw}
    results: list[Any] = []
    async with bearer_client(site.server.url, site.tokens[caller], mode, **client_kw) as client:
        assert client.protocol_version == PROTOCOL[mode]

        async def call() -> None:
            results.append(await client.call_tool("deploy", {"target": target}, **call_kw))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            yield Waiting(await wait_for_pending(site, target), results)


@pytest.mark.parametrize("mode", MODES)
async def test_only_an_approver_other_than_the_caller_answers(site: Site, mode: str) -> None:
    target = f"prod-{mode}"
    human = Human()
    notices: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        notices.append(message or "")

    async with waiting_call(
        site, "alice", target, mode, elicitation_callback=human, progress_callback=on_progress
    ) as waiting:
        item = waiting.item
        run_id = item["run_id"]
        # Who may answer and the plan are recorded and listed.
        assert item["approvers"] == ["group:ops"] and item["principal"] == "alice"
        assert re.fullmatch(r"[0-9a-f]{64}", item["plan_hash"])
        assert without_plan(item["message"]) == f'Deploy "{target}"?'
        assert item["message"].endswith(f"(plan {item['plan_hash'][:16]})")
        listed = site.cli("approvals").stdout
        assert item["plan_hash"] in listed and "approvers: one of group:ops" in listed

        # The caller itself, over HTTP: refused, and the run keeps waiting.
        own = site.cli("approve", run_id, token="alice")
        assert own.returncode == 1 and "alice made this call" in own.stderr, own
        assert site.cli("approvals", "--json", token="alice").stdout == ""
        # Someone who is not an approver: refused.
        other = site.cli("approve", run_id, token="carol")
        assert other.returncode == 1 and "approvers are one of group:ops" in other.stderr
        # The local operator (not in group:ops): refused too.
        local = site.cli("approve", run_id)
        assert local.returncode == 1, local
        assert f"local:{getpass.getuser()} may not answer it" in local.stderr
        assert not any(line.startswith(target) for line in site.ran())
        # bob sees it and answers, with a reason.
        mine = site.cli("approvals", "--json", token="bob").stdout.splitlines()
        assert [json.loads(line)["run_id"] for line in mine] == [run_id]
        answered = site.cli("approve", run_id, "--reason", "change 42", token="bob")
        assert answered.returncode == 0, answered
        assert f"approved run {run_id} (as bob" in answered.stdout
    assert waiting.result.is_error is False, text_of(waiting.result)
    assert f"{target} v1" in site.ran()
    assert human.asked == 0  # the caller's own client was never asked
    # The caller was told who must answer which run, never a command.
    told = [n for n in notices if f"waiting for approval of run {run_id}" in n]
    assert told and "by one of group:ops" in told[0], notices
    assert all("mcp-harbor approve" not in n for n in notices)
    shown = audit_show(site.db, run_id)
    approval = shown["approval"]
    assert approval["decision"] == "approved" and approval["by"] == "bob"
    assert (approval["how"], approval["via"], approval["reason"]) == (
        "operator",
        "http",
        "change 42",
    )
    assert approval["plan_hash"] == item["plan_hash"] and approval["waited_ms"] > 0
    # Answered once: a second answer is refused.
    again = site.cli("deny", run_id, token="bob")
    assert again.returncode == 1 and "already answered" in again.stderr


async def test_a_deny_with_a_reason_runs_nothing(site: Site) -> None:
    async with waiting_call(site, "alice", "denied-one") as waiting:
        denied = site.cli("deny", waiting.item["run_id"], "--reason", "freeze week", token="bob")
        assert denied.returncode == 0, denied
    assert waiting.result.is_error is True
    assert "declined (operator, by bob); freeze week" in text_of(waiting.result)
    assert not any(line.startswith("denied-one") for line in site.ran())
    approval = audit_show(site.db, waiting.item["run_id"])["approval"]
    assert (approval["decision"], approval["reason"]) == ("declined", "freeze week")


async def test_an_approver_cannot_approve_its_own_call(site: Site) -> None:
    """olga is in group:ops, but made the call: another approver must answer."""
    async with waiting_call(site, "olga", "olga-own") as waiting:
        run_id = waiting.item["run_id"]
        status, body = await anyio.to_thread.run_sync(
            lambda: site.post(run_id, {"decision": "approve"}, "olga")
        )
        assert status == 403 and "olga made this call" in body["error"]
        ok = site.cli("approve", run_id, token="bob")
        assert ok.returncode == 0, ok
    assert waiting.result.is_error is False, text_of(waiting.result)


@pytest.mark.parametrize(
    ("target", "decided_by", "as_whom"),
    [
        ("forged-self", "alice", {"principal": "alice", "groups": ["ops"]}),
        ("forged-mixed", "alice", {"principal": "bob", "groups": ["ops"]}),
    ],
)
async def test_an_answer_written_into_the_store_for_the_caller_does_not_count(
    site: Site, target: str, decided_by: str, as_whom: dict[str, Any]
) -> None:
    """A row forged straight into the approvals table (the caller approving
    itself, or claiming to be bob) is checked again by the waiting run."""
    async with waiting_call(site, "alice", target) as waiting:
        con = sqlite3.connect(site.db, timeout=10)
        with con:
            con.execute(
                "UPDATE approvals SET decision = 'approved', decided_by = ?, "
                "decided_at = '2026-12-02T00:00:00Z', decided_as = ? WHERE run_id = ?",
                (decided_by, json.dumps(as_whom), waiting.item["run_id"]),
            )
        con.close()
    assert waiting.result.is_error is True
    assert "the answer does not count" in text_of(waiting.result), text_of(waiting.result)
    assert not any(line.startswith(target) for line in site.ran())


async def test_the_endpoint_refuses_what_it_cannot_take(site: Site) -> None:
    async with waiting_call(site, "alice", "endpoint") as waiting:
        run_id = waiting.item["run_id"]

        async def post(body: Any, token: str | None, **headers: str) -> tuple[int, Any]:
            return await anyio.to_thread.run_sync(lambda: site.post(run_id, body, token, **headers))

        assert (await post({"decision": "approve"}, None))[0] == 401
        site.tokens["nobody"] = "not-a-token"
        assert (await post({"decision": "approve"}, "nobody"))[0] == 401
        status, body = await post({"decision": "approve"}, "bob", Origin="http://evil.example")
        assert status == 403 and "web page" in body["error"]
        for bad in (b"not json", {"decision": "yes"}, {"decision": "approve", "x": 1}):
            assert (await post(bad, "bob"))[0] == 400
        assert (await post({"decision": "approve", "reason": "x" * 2001}, "bob"))[0] == 400
        status, _ = await anyio.to_thread.run_sync(
            lambda: site.post("no-such-run", {"decision": "approve"}, "bob")
        )
        assert status == 404
        unknown = site.cli("approve", "no-such-run", token="bob")
        assert unknown.returncode == 2 and "no run 'no-such-run'" in unknown.stderr
        # The CLI refuses options that cannot apply together.
        both = harbor_cli(
            "approve", run_id, "--url", site.server.url, "--db", str(site.db), check=False
        )
        assert both.returncode == 2 and "--db and --url" in both.stderr
        status, body = await post({"decision": "deny", "reason": "not now"}, "bob")
        assert status == 200 and body["decision"] == "denied" and body["by"] == "bob"
        assert body["plan_hash"] == waiting.item["plan_hash"]
    assert waiting.result.is_error is True and "not now" in text_of(waiting.result)


async def test_an_approval_does_not_apply_once_the_export_changed(site: Site) -> None:
    exports = site.root / "exports"
    try:
        async with waiting_call(site, "alice", "changed") as waiting:
            reloads = site.server.stderr().count("reload: now publishing")
            write_export(exports, "deploy.yaml", DEPLOY.format(version="v2", marker=site.marker))
            with anyio.fail_after(20):
                while site.server.stderr().count("reload: now publishing") == reloads:
                    await anyio.sleep(0.05)
            ok = site.cli("approve", waiting.item["run_id"], token="bob")
            assert ok.returncode == 0, ok
    finally:  # v1 again for the other tests (one server for the module)
        write_export(exports, "deploy.yaml", DEPLOY.format(version="v1", marker=site.marker))
    assert waiting.result.is_error is True
    assert "changed while the run waited for approval" in text_of(waiting.result)
    assert not any(line.startswith("changed") for line in site.ran())
    approval = audit_show(site.db, waiting.item["run_id"])["approval"]
    assert approval["decision"] == "declined" and approval["by"] == "bob"
    assert "the approval does not apply to the new version" in approval["reason"]


def test_approvers_need_a_confirm_and_valid_entries(tmp_path: Path) -> None:
    base = "name: t\ndescription: d\nsteps: [{name: s, run: 'true'}]\n"
    for extra, message in (
        ("approvers: [group:ops]\n", "approvers: names who answers the confirm: question"),
        ("confirm: 'Go?'\napprovers: ['group:']\n", "approvers entry 'group:'"),
        ("confirm: 'Go?'\napprovers: []\n", "approvers"),
    ):
        path = write_export(tmp_path, "t.yaml", base + extra)
        with pytest.raises(ConfigError, match=re.escape(message)):
            load_export(path)
    path = write_export(
        tmp_path, "t.yaml", base + "confirm: 'Go?'\napprovers: [alice, group:ops]\n"
    )
    assert load_export(path).spec.approvers == ["alice", "group:ops"]
