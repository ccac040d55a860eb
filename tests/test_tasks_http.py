"""Issue 24: durable tasks (the ``io.modelcontextprotocol/tasks`` extension,
2026-07-28) over raw JSON-RPC on HTTP, against real ``mcp-harbor serve``
processes sharing one SQLite store, with real bash steps.

Steps wait on gate files the test creates, so nothing here depends on how
fast anything runs; every wait is a poll bounded by `anyio.fail_after`.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from harbor_helpers import (
    HttpServer,
    approvals_json,
    audit_json,
    harbor_cli,
    http_server,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    token_add,
    wait_for_files,
    write_export,
)

pytestmark = pytest.mark.anyio

EXT = "io.modelcontextprotocol/tasks"
VERSION = "2026-07-28"

GATED = """
name: gated
description: Says it is halfway, waits for its gate, then finishes.
steps:
  - name: work
    run: |
      echo $$ > {pid}
      echo '50% halfway there' >> "$HARBOR_PROGRESS"
      while [ ! -e {gate} ]; do sleep 0.05; done
      echo "gated done"
"""

SLEEPER = """
name: sleeper
description: A pipeline that sleeps until it is stopped.
steps:
  - name: nap
    run: |
      sleep 300 &
      echo $! > {child}
      echo $$ > {pid}
      wait
"""

REQUIRED = """
name: quick
description: Always a task, even though it ends at once.
task: required
steps:
  - name: say
    run: |
      touch {ran}
      echo quick
"""

SHORT = """
name: short
description: A task kept for a second.
task_ttl: 1
steps:
  - name: say
    run: echo short
"""

CONFIRMED = """
name: confirmed
description: Asks first.
confirm: Really run it?
steps:
  - name: say
    run: echo confirmed ran
"""

GUARDED = """
name: guarded
description: Only carol may say yes.
confirm: Really run the guarded one?
approvers: [carol]
steps:
  - name: say
    run: echo guarded ran
"""

NEVER = """
name: plain
description: Never a task.
task: never
steps:
  - name: say
    run: echo plain
"""


@dataclass
class Client:
    """Raw JSON-RPC over HTTP, one POST per request (2026-07-28)."""

    http: httpx2.Client
    token: str
    declares: bool = True
    elicits: bool = False

    def post(self, url: str, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        caps: dict[str, Any] = {"extensions": {EXT: {}}} if self.declares else {}
        if self.elicits:
            caps["elicitation"] = {"form": {}}
        meta = {
            "io.modelcontextprotocol/protocolVersion": VERSION,
            "io.modelcontextprotocol/clientCapabilities": caps,
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        }
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
        name = params.get("name") or params.get("taskId")
        reply = self.http.post(
            url,
            content=json.dumps(body).encode(),
            headers={
                "Accept": "application/json, text/event-stream",
                "Content-Type": "application/json",
                "MCP-Protocol-Version": VERSION,
                "Mcp-Method": method,
                **({"Mcp-Name": str(name)} if name else {}),
                "Authorization": f"Bearer {self.token}",
            },
        )
        return reply.status_code, reply.json()

    def result(self, url: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        status, body = self.post(url, method, params)
        assert status == 200 and "result" in body, (status, body)
        return dict(body["result"])

    def call(self, url: str, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.result(url, "tools/call", {"name": tool, "arguments": arguments})

    def get(self, url: str, task_id: str) -> dict[str, Any]:
        return self.result(url, "tasks/get", {"taskId": task_id})

    async def until(self, url: str, task_id: str, *statuses: str) -> dict[str, Any]:
        with anyio.fail_after(20):
            while True:
                task = self.get(url, task_id)
                if task["status"] in statuses:
                    return task
                await anyio.sleep(0.05)


@dataclass
class Pair:
    """Two server processes (replicas) on one store, and their files."""

    one: HttpServer
    two: HttpServer
    alice: Client
    bob: Client
    carol: str
    db: Path
    files: Path


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    root = tmp_path_factory.mktemp("tasks")
    exports, files, db, tokens = root / "exports", root / "files", root / "h.db", root / "t.json"
    files.mkdir()
    write_export(exports, "gated.yaml", GATED.format(pid=files / "g.pid", gate=files / "g.gate"))
    write_export(
        exports, "sleeper.yaml", SLEEPER.format(pid=files / "s.pid", child=files / "s.child")
    )
    write_export(exports, "quick.yaml", REQUIRED.format(ran=files / "q.ran"))
    write_export(exports, "short.yaml", SHORT)
    write_export(exports, "plain.yaml", NEVER)
    write_export(exports, "confirmed.yaml", CONFIRMED)
    write_export(exports, "guarded.yaml", GUARDED)
    alice, bob = token_add(tokens, "alice"), token_add(tokens, "bob")
    carol = token_add(tokens, "carol")
    extra = ("--tokens", str(tokens), "--db", str(db), "--sandbox", "off")
    with (
        http_server(exports, root / "state", *extra) as one,
        http_server(exports, root / "state", *extra) as two,
        httpx2.Client(timeout=30) as http,
    ):
        yield Pair(one, two, Client(http, alice), Client(http, bob), carol, db, files)


async def test_a_task_is_created_polled_with_progress_and_completed_on_a_replica(
    pair: Pair,
) -> None:
    a, one, two = pair.alice, pair.one.url, pair.two.url
    created = a.call(one, "gated")
    assert created["resultType"] == "task" and created["status"] == "working", created
    assert created["ttlMs"] == 3_600_000 and created["pollIntervalMs"] > 0
    task_id = created["taskId"]
    assert len(task_id) >= 32
    # Durable before answered: the other process finds it at once.
    assert a.get(two, task_id)["status"] == "working"
    with anyio.fail_after(20):  # the step's own progress, as the status message
        while "halfway there" not in a.get(two, task_id).get("statusMessage", ""):
            await anyio.sleep(0.05)
    (pair.files / "g.gate").touch()
    done = await a.until(two, task_id, "completed", "failed", "cancelled")
    assert done["status"] == "completed", done
    assert done["resultType"] == "complete"
    result = done["result"]
    assert result["isError"] is False and "gated done" in result["content"][0]["text"]
    # Exactly the plain 2026-era result: the SDK's serverInfo stamp included.
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcp-harbor"
    run_id = result["structuredContent"]["run_id"]
    (call,) = [c for c in audit_json(pair.db) if c["call_id"] == run_id]
    assert call["tool"] == "gated" and call["status"] == "ok", call


async def test_another_principal_gets_the_unknown_task_answer_and_is_audited(pair: Pair) -> None:
    task_id = pair.alice.call(pair.one.url, "quick")["taskId"]
    await pair.alice.until(pair.one.url, task_id, "completed")
    for url in (pair.one.url, pair.two.url):
        theirs = pair.bob.post(url, "tasks/get", {"taskId": task_id})
        unknown = pair.bob.post(url, "tasks/get", {"taskId": "x" * 43})
        assert theirs == unknown, (theirs, unknown)
        assert theirs[0] == 400 and theirs[1]["error"]["code"] == -32602, theirs
        cancel = pair.bob.post(url, "tasks/cancel", {"taskId": task_id})
        assert cancel[1]["error"] == theirs[1]["error"]
    assert pair.alice.get(pair.one.url, task_id)["status"] == "completed"
    denied = [c for c in audit_json(pair.db, "--who", "bob") if c["status"] == "denied"]
    assert len(denied) == 4 and {c["tool"] for c in denied} == {"quick"}, denied


async def test_cancel_through_a_replica_stops_the_process_group(pair: Pair) -> None:
    a = pair.alice
    pids = [pair.files / "s.pid", pair.files / "s.child"]
    task_id = a.call(pair.one.url, "sleeper")["taskId"]
    try:
        await wait_for_files(pids, timeout=20)
        shell, child = read_pids(pids)
        assert pid_alive(shell) and pid_alive(child)
        # Asked of the replica that does not run it: the flag in the store.
        ack = a.result(pair.two.url, "tasks/cancel", {"taskId": task_id})
        assert ack["resultType"] == "complete" and set(ack) <= {"resultType", "_meta"}, ack
        task = await a.until(pair.two.url, task_id, "cancelled", "completed", "failed")
        assert task["status"] == "cancelled", task
        await seconds_until_dead([shell, child], limit=10)
    finally:
        kill_leftovers(read_pids(p for p in pids if p.exists()))
    (call,) = [c for c in audit_json(pair.db) if c["tool"] == "sleeper"]
    assert call["status"] == "cancelled", call


async def test_required_refuses_a_client_without_the_extension_and_runs_nothing(
    pair: Pair,
) -> None:
    plain = Client(pair.alice.http, pair.alice.token, declares=False)
    ran = pair.files / "q.ran"
    ran.unlink(missing_ok=True)
    status, body = plain.post(pair.one.url, "tools/call", {"name": "quick", "arguments": {}})
    assert status == 400 and body["error"]["code"] == -32021, body
    assert body["error"]["data"] == {"requiredCapabilities": {"extensions": {EXT: {}}}}
    assert not ran.exists()
    # Optional (the default) without the extension: the plain result.
    answer = plain.call(pair.one.url, "short")
    assert answer.get("resultType") == "complete" and "short" in answer["content"][0]["text"]
    # Never: the plain result even to a client that declares the extension.
    answer = pair.alice.call(pair.one.url, "plain")
    assert answer.get("resultType") == "complete" and "plain" in answer["content"][0]["text"]
    # tasks/* from a client without the extension.
    status, body = plain.post(pair.one.url, "tasks/get", {"taskId": "x"})
    assert body["error"]["code"] == -32021, body


async def test_a_task_past_its_ttl_is_purged_with_its_run_directory(pair: Pair) -> None:
    created = pair.alice.call(pair.one.url, "short")
    assert created["ttlMs"] == 1000, created
    done = await pair.alice.until(pair.two.url, created["taskId"], "completed")
    run = done["result"]["structuredContent"]
    run_dir = Path(run["run_dir"])
    assert run_dir.is_dir()
    with anyio.fail_after(20):  # purged by the server that ran it (every 0.5 s)
        while run_dir.exists():
            await anyio.sleep(0.05)
    status, body = pair.alice.post(pair.two.url, "tasks/get", {"taskId": created["taskId"]})
    assert status == 400 and body["error"]["code"] == -32602, body
    assert [c["status"] for c in audit_json(pair.db) if c["call_id"] == run["run_id"]] == ["ok"]


async def test_a_task_whose_server_died_is_failed_interrupted_after_a_restart(
    tmp_path: Path,
) -> None:
    exports, files, db, tokens = tmp_path / "e", tmp_path / "f", tmp_path / "h.db", tmp_path / "t"
    files.mkdir()
    write_export(exports, "sleeper.yaml", SLEEPER.format(pid=files / "p", child=files / "c"))
    extra = ("--tokens", str(tokens), "--db", str(db), "--sandbox", "off")
    alice = token_add(tokens, "alice")
    pids = [files / "p", files / "c"]
    with httpx2.Client(timeout=30) as http:
        a = Client(http, alice)
        try:
            with http_server(exports, tmp_path / "state", *extra) as first:
                task_id = a.call(first.url, "sleeper")["taskId"]
                await wait_for_files(pids, timeout=20)
                os.kill(first.pid, signal.SIGKILL)  # no chance to record anything
                first.proc.wait(10)
            with http_server(exports, tmp_path / "state", *extra) as second:
                task = a.get(second.url, task_id)
        finally:
            kill_leftovers(read_pids(p for p in pids if p.exists()))
    assert task["status"] == "failed", task
    assert "interrupted" in task["statusMessage"], task
    assert task["error"]["code"] == -32603 and task["error"]["data"] == {"reason": "interrupted"}


async def test_confirm_is_asked_through_input_required_and_answered_by_update(
    pair: Pair,
) -> None:
    a = Client(pair.alice.http, pair.alice.token, elicits=True)
    task_id = a.call(pair.one.url, "confirmed")["taskId"]
    asking = await a.until(pair.two.url, task_id, "input_required", "completed", "failed")
    assert asking["status"] == "input_required", asking
    ((key, request),) = asking["inputRequests"].items()
    assert request["method"] == "elicitation/create"
    assert request["params"]["mode"] == "form"
    assert request["params"]["message"].startswith("Really run it?")
    assert "approve" in request["params"]["requestedSchema"]["properties"]
    answer = {key: {"action": "accept", "content": {"approve": True}}}
    ack = a.result(pair.two.url, "tasks/update", {"taskId": task_id, "inputResponses": answer})
    assert ack["resultType"] == "complete"
    done = await a.until(pair.one.url, task_id, "completed", "failed", "cancelled")
    assert done["status"] == "completed" and done["result"]["isError"] is False, done
    assert "confirmed ran" in done["result"]["content"][0]["text"]
    # A no: the task completes with the declined call (a tool error), nothing ran.
    task_id = a.call(pair.one.url, "confirmed")["taskId"]
    asking = await a.until(pair.one.url, task_id, "input_required", "completed", "failed")
    (key,) = asking["inputRequests"]
    no = {key: {"action": "decline"}}
    a.result(pair.one.url, "tasks/update", {"taskId": task_id, "inputResponses": no})
    done = await a.until(pair.two.url, task_id, "completed", "failed", "cancelled")
    assert done["status"] == "completed" and done["result"]["isError"] is True, done
    assert "declined" in done["result"]["content"][0]["text"], done


async def test_approvers_still_decide_a_task(pair: Pair) -> None:
    a = Client(pair.alice.http, pair.alice.token, elicits=True)
    task_id = a.call(pair.one.url, "guarded")["taskId"]
    with anyio.fail_after(20):
        while not (pending := [p for p in approvals_json(pair.db) if p["tool"] == "guarded"]):
            await anyio.sleep(0.05)
    (item,) = pending
    # Not the caller's to answer: no question for its client.
    task = a.get(pair.one.url, task_id)
    assert task["status"] == "working" and "inputRequests" not in task, task
    own = harbor_cli(
        "approve", item["run_id"], "--url", pair.one.url, "--token", a.token, check=False
    )
    assert own.returncode == 1 and "alice made this call" in own.stderr, own
    harbor_cli("approve", item["run_id"], "--url", pair.two.url, "--token", pair.carol)
    done = await a.until(pair.two.url, task_id, "completed", "failed", "cancelled")
    assert done["status"] == "completed" and "guarded ran" in done["result"]["content"][0]["text"]


async def test_a_task_whose_server_is_stopped_is_failed_and_its_processes_gone(
    tmp_path: Path,
) -> None:
    exports, files, db, tokens = tmp_path / "e", tmp_path / "f", tmp_path / "h.db", tmp_path / "t"
    files.mkdir()
    write_export(exports, "sleeper.yaml", SLEEPER.format(pid=files / "p", child=files / "c"))
    extra = ("--tokens", str(tokens), "--db", str(db), "--sandbox", "off")
    alice = token_add(tokens, "alice")
    pids = [files / "p", files / "c"]
    with (
        httpx2.Client(timeout=30) as http,
        http_server(exports, tmp_path / "state", *extra) as other,
    ):
        a = Client(http, alice)
        try:
            with http_server(exports, tmp_path / "state", *extra) as first:
                task_id = a.call(first.url, "sleeper")["taskId"]
                await wait_for_files(pids, timeout=20)
                first.proc.terminate()  # SIGTERM: the running calls are cancelled, recorded
                assert first.proc.wait(20) == 0, first.stderr()
            await seconds_until_dead(read_pids(pids), limit=10)
            task = a.get(other.url, task_id)
        finally:
            kill_leftovers(read_pids(p for p in pids if p.exists()))
    assert task["status"] == "failed", task
    assert task["error"]["code"] == -32603 and "server stopped" in task["error"]["message"]
    (call,) = [c for c in audit_json(db) if c["tool"] == "sleeper"]
    assert call["status"] == "cancelled", call


class Legacy:
    """A raw handshake-era (2025-11-25) session over HTTP: ``initialize``,
    then each request with its ``Mcp-Session-Id``."""

    def __init__(self, http: httpx2.Client, url: str, token: str) -> None:
        self.http, self.url, self.token = http, url, token
        self.session: str | None = None
        self.initialized = self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw-legacy", "version": "1"},
            },
        )
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, body: dict[str, Any]) -> httpx2.Response:
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "Authorization": f"Bearer {self.token}",
        }
        if self.session is not None:
            headers |= {"Mcp-Session-Id": self.session, "MCP-Protocol-Version": "2025-11-25"}
        reply = self.http.post(self.url, content=json.dumps(body).encode(), headers=headers)
        self.session = reply.headers.get("mcp-session-id", self.session)
        return reply

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        reply = self.post({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        if reply.headers.get("content-type", "").startswith("text/event-stream"):
            data = [ln[5:] for ln in reply.text.splitlines() if ln.startswith("data:")]
            return dict(json.loads(data[-1]))
        return dict(reply.json())


async def test_the_2025_11_25_experimental_tasks_from_the_same_store(pair: Pair) -> None:
    old = Legacy(pair.alice.http, pair.one.url, pair.alice.token)
    caps = old.initialized["result"]["capabilities"]
    assert caps["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    tools = {t["name"]: t for t in old.request("tools/list", {})["result"]["tools"]}
    assert tools["quick"]["execution"] == {"taskSupport": "required"}
    assert tools["gated"]["execution"] == {"taskSupport": "optional"}
    assert "execution" not in tools["plain"]
    refused = old.request("tools/call", {"name": "quick", "arguments": {}})
    assert refused["error"]["code"] == -32601, refused
    created = old.request("tools/call", {"name": "quick", "arguments": {}, "task": {"ttl": 60000}})
    task = created["result"]["task"]
    assert task["status"] == "working" and task["ttl"] == 60000, created
    task_id = task["taskId"]
    result = old.request("tasks/result", {"taskId": task_id})["result"]  # waits for the end
    assert "quick" in result["content"][0]["text"] and result["isError"] is False, result
    assert result["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task_id}
    got = old.request("tasks/get", {"taskId": task_id})["result"]
    assert got["status"] == "completed" and "result" not in got, got
    listed = old.request("tasks/list", {})["result"]["tasks"]
    assert task_id in [t["taskId"] for t in listed]
    theirs = Legacy(pair.bob.http, pair.two.url, pair.bob.token)
    assert task_id not in [t["taskId"] for t in theirs.request("tasks/list", {})["result"]["tasks"]]
    assert theirs.request("tasks/get", {"taskId": task_id})["error"]["code"] == -32602
    final = old.request("tasks/cancel", {"taskId": task_id})
    assert final["error"]["code"] == -32602, final
    # The same task through the 2026-07-28 methods; tasks/result is not one of them.
    assert pair.alice.get(pair.two.url, task_id)["result"]["content"] == result["content"]
    http_status, body = pair.alice.post(pair.one.url, "tasks/result", {"taskId": task_id})
    assert http_status in (400, 404) and body["error"]["code"] == -32601, body
