"""Issue 4: who is calling, and who may call what, over real HTTP with tokens.

One ``mcp-harbor serve --transport http`` subprocess with a tokens file made
by the real ``mcp-harbor token add``; SDK clients send ``Authorization:
Bearer`` in both protocol eras. Proves: the principal, tenant and groups come
from the token; the client's name is recorded as claimed; the session per era;
``allow:`` by principal, ``group:``, ``tenant:`` and ``*``; a denied tool is
absent from ``tools/list`` and answered exactly like an unknown tool; each
call (allowed or denied) leaves the right record, read back with the real
``mcp-harbor audit --json`` / ``audit show``; the steps see
``HARBOR_CALLER_*``; every log line of a call names its caller.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import mcp_types as types
import pytest
from harbor_helpers import (
    MODES,
    PROTOCOL,
    HttpServer,
    audit_json,
    audit_show,
    audit_verify,
    bearer_client,
    http_server,
    parallel,
    text_of,
    token_add,
    write_export,
)
from mcp.shared.exceptions import MCPError

from mcp_harbor.config import load_exports

pytestmark = pytest.mark.anyio

WHOAMI = """
    name: whoami
    description: Prints the caller variables the step sees.
    args:
      note: {type: string}
    steps:
      - name: show
        run: set | grep '^HARBOR_CALLER_' | sort
"""


def only(name: str, rule: str) -> str:
    return f"""
    name: {name}
    description: Only for {rule}.
    allow: ["{rule}"]
    steps:
      - name: a
        run: echo {name} ran
    """


CLIENT = types.Implementation(name="harbor-test-client", version="7.7")


@dataclass
class Env:
    root: Path
    exports: Path
    state: Path
    tokens: Path
    db: Path
    tok: dict[str, str]
    server: HttpServer


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    root = tmp_path_factory.mktemp("idhttp")
    exports, state, tokens, db = (
        root / "exports",
        root / "state",
        root / "tokens.json",
        root / "a.db",
    )
    write_export(exports, "whoami.yaml", WHOAMI)
    write_export(exports, "ops_only.yaml", only("ops_only", "group:ops"))
    write_export(exports, "acme_only.yaml", only("acme_only", "tenant:acme"))
    write_export(exports, "alice_only.yaml", only("alice_only", "alice"))
    tok = {
        "alice": token_add(tokens, "alice", "--tenant", "acme", "--group", "dev"),
        "bob": token_add(tokens, "bob", "--tenant", "other", "--group", "ops", "--group", "x"),
        "carol": token_add(tokens, "carol"),
    }
    extra = ("--tokens", str(tokens), "--db", str(db))
    with http_server(exports, state, *extra) as srv:
        yield Env(root, exports, state, tokens, db, tok, srv)


# Who sees what: principal, group: and tenant: rules, and `*` for everyone.
VISIBLE = {
    "alice": {"whoami", "acme_only", "alice_only"},  # tenant acme, principal alice
    "bob": {"whoami", "ops_only"},  # group ops
    "carol": {"whoami"},  # only `*`
}
ALL = {"whoami", "ops_only", "acme_only", "alice_only"}


async def unknown_tool_error(client, name: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(MCPError) as info:
        await client.call_tool(name, {})
    return info.value.code, info.value.message


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("who", sorted(VISIBLE))
async def test_allow_rules_hide_and_refuse(env: Env, mode: str, who: str) -> None:
    async with bearer_client(env.server.url, env.tok[who], mode, client_info=CLIENT) as client:
        assert client.protocol_version == PROTOCOL[mode]
        listed = {t.name for t in (await client.list_tools()).tools}
        assert listed == VISIBLE[who]
        for name in sorted(VISIBLE[who] - {"whoami"}):
            result = await client.call_tool(name, {})
            assert result.is_error is False, text_of(result)
            assert f"{name} ran" in text_of(result)
        # A denied tool gets the very answer an unknown one gets.
        unknown = await unknown_tool_error(client, "no_such_tool")
        assert unknown == (-32602, "Unknown tool: no_such_tool")
        for name in sorted(ALL - VISIBLE[who]):
            assert await unknown_tool_error(client, name) == (-32602, f"Unknown tool: {name}")

    calls, denied, verify = parallel(
        partial(audit_json, env.db, "--who", who),
        partial(audit_json, env.db, "--who", who, "--status", "denied"),
        partial(audit_verify, env.db),
    )
    mine = [c for c in calls if c["caller"]["protocol_version"] == PROTOCOL[mode]]
    by_status: dict[str, set[str]] = {}
    for c in mine:
        by_status.setdefault(c["status"], set()).add(c["tool"])
    assert by_status.get("denied", set()) == ALL - VISIBLE[who]
    assert by_status.get("unknown", set()) == {"no_such_tool"}
    assert by_status.get("ok", set()) >= VISIBLE[who] - {"whoami"}
    for c in mine:
        if c["status"] == "denied":
            assert c["arguments"] is None  # nothing about the call beyond who and what
            assert c["ended_at"] == c["started_at"]  # one record: nothing ran
    assert {c["tool"] for c in denied if c["caller"]["protocol_version"] == PROTOCOL[mode]} == (
        ALL - VISIBLE[who]
    )
    assert verify.returncode == 0, verify.stderr


@pytest.mark.parametrize("mode", MODES)
async def test_caller_reaches_audit_steps_and_logs(env: Env, mode: str) -> None:
    note = f"hello-{mode}"
    async with bearer_client(env.server.url, env.tok["alice"], mode, client_info=CLIENT) as client:
        first = await client.call_tool("whoami", {"note": note})
        second = await client.call_tool("whoami", {"note": note})
    assert first.is_error is False and second.is_error is False
    data = first.structured_content
    assert data is not None
    seen = dict(
        line.split("=", 1) for line in data["steps"][0]["stdout_tail"].splitlines() if "=" in line
    )
    # The steps see the caller.
    assert seen["HARBOR_CALLER_PRINCIPAL"] == "alice"
    assert seen["HARBOR_CALLER_TENANT"] == "acme"
    assert seen["HARBOR_CALLER_GROUPS"] == "dev"
    assert seen["HARBOR_CALLER_TRANSPORT"] == "http"
    assert seen["HARBOR_CALLER_CLIENT"] == "harbor-test-client"
    assert seen["HARBOR_CALLER_CLIENT_VERSION"] == "7.7"
    assert seen["HARBOR_CALLER_REMOTE_ADDR"] == "127.0.0.1"
    assert seen["HARBOR_CALLER_REQUEST_ID"]

    second_data = second.structured_content
    assert second_data is not None
    call_id = data["run_id"]
    (record,) = [c for c in audit_json(env.db, "--export", "whoami") if c["call_id"] == call_id]
    caller = record["caller"]
    assert record["principal"] == "alice" and record["status"] == "ok"
    assert record["arguments"] == {"note": note}
    assert caller["principal"] == "alice"
    assert caller["tenant"] == "acme"
    assert caller["groups"] == ["dev"]
    assert caller["transport"] == "http"
    assert caller["authenticated"] is True
    assert caller["client_name"] == "harbor-test-client"
    assert caller["client_version"] == "7.7"
    assert caller["client_claimed"] is True  # claimed, not proven
    assert caller["remote_addr"] == "127.0.0.1"
    assert caller["protocol_version"] == PROTOCOL[mode]
    assert caller["request_id"] == seen["HARBOR_CALLER_REQUEST_ID"]
    assert caller["session"] == seen["HARBOR_CALLER_SESSION"]
    (export,) = [e for e in load_exports([env.exports]) if e.name == "whoami"]
    assert record["export_hash"] == export.content_hash

    # Sessions: handshake era = the Mcp-Session-Id, shared by the calls of one
    # connection; 2026-07-28 has no sessions, so each request stands alone.
    other = next(c for c in audit_json(env.db) if c["call_id"] == second_data["run_id"])
    if mode == "legacy":
        assert caller["session"].startswith("http:")
        assert other["caller"]["session"] == caller["session"]
    else:
        assert caller["session"].startswith("request:")
        assert other["caller"]["session"] != caller["session"]

    # `audit show`: every command exactly as run, with sizes and digests.
    shown = audit_show(env.db, call_id)
    (step,) = shown["end"]["steps"]
    assert step["command"] == "set | grep '^HARBOR_CALLER_' | sort"
    assert step["exit_code"] == 0 and step["status"] == "ok"
    assert step["duration_ms"] > 0
    assert step["cwd"]
    assert "HARBOR_CALLER_PRINCIPAL" in step["shell_names"] and "ARG_note" in step["shell_names"]
    assert "HARBOR_CALLER_PRINCIPAL" not in step["env_names"]
    assert "HARBOR_CALLER_TRANSPORT" in step["env_names"]
    assert "HARBOR_CALLER_CLIENT" in step["shell_names"] and "ARG_note" not in step["env_names"]
    stdout_log = Path(data["steps"][0]["stdout_log"]).read_bytes()
    assert step["stdout_bytes"] == len(stdout_log)
    assert step["stdout_sha256"] == hashlib.sha256(stdout_log).hexdigest()
    assert step["stderr_sha256"] == hashlib.sha256(b"").hexdigest()
    assert shown["end"]["status"] == "ok" and shown["end"]["exit_code"] == 0

    # Every log line of the call names its caller.
    log = env.server.stderr()
    lines = [line for line in log.splitlines() if call_id in line]
    assert lines, log
    for line in lines:
        assert "[alice@acme via http client=harbor-test-client 7.7]" in line, line
    denied = [ln for ln in log.splitlines() if " denied " in ln]
    assert any("[alice@acme via http" in ln for ln in denied)
    for ln in denied:  # the stamp is the caller who was denied, not someone else
        who = ln.rsplit(" to ", 1)[1].split(" via ")[0]
        assert f"[{who} via http" in ln, ln


async def test_no_token_and_wrong_token_get_401(env: Env) -> None:
    import httpx2

    before = len(audit_json(env.db))
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "whoami", "arguments": {}},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
    }
    async with httpx2.AsyncClient() as http:
        for auth in (None, "Bearer mh_wrong", f"Bearer {env.tok['alice']}x", "Basic abc"):
            h = dict(headers) if auth is None else {**headers, "Authorization": auth}
            resp = await http.post(env.server.url, json=body, headers=h)
            assert resp.status_code == 401, (auth, resp.status_code, resp.text)
            assert resp.headers["www-authenticate"].startswith("Bearer")
            assert resp.json()["error"] == "invalid_token"
    # The SDK client cannot even connect: an ExceptionGroup holding MCPError.
    for mode in MODES:
        for tok in (None, "mh_not-a-token"):
            failed: list[BaseException] = []
            try:
                async with bearer_client(env.server.url, tok, mode) as client:
                    await client.list_tools()
            except* MCPError as group:
                failed.append(group)
            assert failed, (mode, tok)
    # Refused at the door: nothing reached the handlers, nothing ran.
    assert len(audit_json(env.db)) == before
