"""The run context end to end: a real ``mcp-harbor serve`` (stdio and HTTP),
the SDK client, real bash and a real SQLite file.

Proves: session memory across calls of one session (stdio connection;
handshake-era HTTP session), none across connections, sessions, principals
or tenants, none across 2026-07-28 HTTP requests; ``$HARBOR_CONTEXT`` and
``$HARBOR_OUTPUT`` reach the step; context.json holds caller and identity and
redacts secrets; caller memory reaches the step, its size (never its
content) is audited; explicit null, one byte over 32 KiB and bad attachments
are refused with a tool error, in both eras, and nothing runs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import (
    MODES,
    PY,
    HttpServer,
    bearer_client,
    harbor_cli,
    http_server,
    raw_initialize,
    serve_argv,
    server_env,
    stdio_client_of,
    text_of,
    token_add,
    write_export,
)
from mcp import Client

from mcp_harbor.runctx import CALLER_MEMORY_KEY, CALLER_MEMORY_LIMIT, ENVELOPE_META_KEY
from mcp_harbor.store import SqliteStore
from mcp_harbor.store.base import MemoryEntry

pytestmark = pytest.mark.anyio

# The script is a constant: it reads the run's context file, never a caller value.
SHOW = (
    "import hashlib, json, os; c = json.load(open(os.environ['HARBOR_CONTEXT'])); "
    "print('seen=' + json.dumps([m['arguments']['note'] for m in c['memory']['conversation']])); "
    "print('external=' + hashlib.sha256(json.dumps(c['memory']['external'], "
    "sort_keys=True).encode()).hexdigest())"
)

CONVO = f"""
    name: NAME
    description: Prints the notes of the session conversation in its run context.
    args:
      note: {{type: string, description: A note to remember.}}
      token: {{type: string, secret: true, default: none-given}}
    required: [note]
    memory: {{recent: 2}}
    steps:
      - name: show
        run: |
          printf 'note=%s\\n' "$ARG_note"
          printf 'context=%s\\n' "$HARBOR_CONTEXT"
          printf 'output=%s\\n' "$HARBOR_OUTPUT"
          {PY} -c "{SHOW}"
"""

FORGETFUL = """
    name: forgetful
    description: No session memory; succeeds.
    args:
      note: {type: string}
    steps:
      - name: a
        run: printf 'forgetful %s\\n' "$ARG_note"
"""

TEXT_STATS = Path(__file__).resolve().parent.parent / "exports" / "text_stats.yaml"


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ctx-exports")
    write_export(folder, "convo.yaml", CONVO.replace("NAME", "convo"))
    write_export(folder, "journal.yaml", CONVO.replace("NAME", "journal"))
    write_export(folder, "forgetful.yaml", FORGETFUL)
    (folder / "text_stats.yaml").write_text(TEXT_STATS.read_text())
    proc = harbor_cli("check", str(folder))
    assert "4 accepted, 0 refused" in proc.stdout, proc.stdout
    return folder


def lines_of(result: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text_of(result).splitlines():
        key, sep, value = line.partition("=")
        if sep and key.isidentifier():
            out[key] = value
    return out


def seen(result: Any) -> list[str]:
    assert not result.is_error, text_of(result)
    return list(json.loads(lines_of(result)["seen"]))


def digest(external: Any) -> str:
    """What the step prints for the external memory tier it sees: a digest,
    so that the content never reaches an answer (or session memory)."""
    return hashlib.sha256(json.dumps(external, sort_keys=True).encode()).hexdigest()


def envelope_of(result: Any) -> dict[str, Any]:
    return dict(json.loads(result.meta[ENVELOPE_META_KEY]))


def context_of(result: Any) -> dict[str, Any]:
    run_dir = Path(envelope_of(result)["run_dir"])
    return dict(json.loads((run_dir / "context.json").read_text(encoding="utf-8")))


def start_body(db: Path, run_id: str) -> dict[str, Any]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT body FROM audit WHERE call_id = ? AND kind = 'start'", (run_id,)
        ).fetchall()
    finally:
        con.close()
    assert len(rows) == 1, rows
    return dict(json.loads(rows[0][0]))


def db_bytes(db: Path) -> bytes:
    """The SQLite file and its WAL/SHM, as they are on disk."""
    return b"".join(p.read_bytes() for p in sorted(db.parent.glob(db.name + "*")))


def run_dirs(state: Path) -> set[str]:
    root = state / "mcp-harbor" / "runs"
    return {p.name for p in root.iterdir()} if root.exists() else set()


# --- stdio: one connection is one session -----------------------------------------


async def test_stdio_session_memory_context_file_and_caller_memory(
    exports: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    db = state / "mcp-harbor" / "harbor.db"
    marker = f"MARKER-{uuid.uuid4().hex}"
    memory = {"ticket": "OPS-42", "marker": marker, "list": [1, "ü"]}
    async with stdio_client_of(exports, state, "auto") as client:
        first = await client.call_tool("convo", {"note": "one", "token": "tok-SECRET-1"})
        second = await client.call_tool("convo", {"note": "two"})
        # An export without memory: is not remembered.
        other = await client.call_tool("forgetful", {"note": "between"})
        assert not other.is_error, text_of(other)
        # Another export with memory shares the session's conversation.
        third = await client.call_tool(
            "journal", {"note": "three"}, meta={CALLER_MEMORY_KEY: memory}
        )
        fourth = await client.call_tool("convo", {"note": "four"})
    assert seen(first) == []
    assert seen(second) == ["one"]
    # recent: 2 — the last two answered calls of the session, oldest first.
    assert seen(third) == ["one", "two"]
    assert seen(fourth) == ["two", "three"]
    ctx4 = context_of(fourth)
    assert [m["tool"] for m in ctx4["memory"]["conversation"]] == ["convo", "journal"]

    # HARBOR_CONTEXT and HARBOR_OUTPUT reached the step, in the run directory.
    run_dir = Path(envelope_of(third)["run_dir"])
    got = lines_of(third)
    assert got["context"] == str(run_dir / "context.json")
    assert got["output"] == str(run_dir / "output.json")
    # Caller memory reached the step through context.json; only in that call.
    assert got["external"] == digest({"caller_supplied": memory})
    assert lines_of(fourth)["external"] == digest({})

    # context.json: caller and identity, secrets redacted (also in memory).
    ctx1 = context_of(first)
    session = ctx1["identity"]["session"]
    assert session.startswith("stdio:")
    assert ctx1["identity"] == {
        "tenant": "local",
        "principal": ctx1["caller"]["principal"],
        "session": session,
        "run_id": envelope_of(first)["run_id"],
    }
    assert ctx1["caller"]["transport"] == "stdio"
    assert ctx1["caller"]["principal"].startswith("local:")
    assert ctx1["caller"]["session"] == session and ctx1["caller"]["client_claimed"] is True
    assert ctx1["arguments"] == {"note": "one", "token": "***"}
    ctx2 = context_of(second)
    assert ctx2["memory"]["conversation"][0]["arguments"] == {"note": "one", "token": "***"}
    assert ctx2["memory"]["conversation"][0]["run_id"] == envelope_of(first)["run_id"]
    assert ctx2["memory"]["conversation"][0]["answer"].startswith("convo: ok")
    for result in (first, second, third, fourth):
        text = (Path(envelope_of(result)["run_dir"]) / "context.json").read_text()
        assert "tok-SECRET-1" not in text

    # The audit records the caller memory's size, never its content.
    size = len(
        json.dumps(memory, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    )
    assert start_body(db, envelope_of(third)["run_id"])["caller_memory_bytes"] == size
    assert start_body(db, envelope_of(fourth)["run_id"])["caller_memory_bytes"] is None
    assert marker.encode() in (run_dir / "context.json").read_bytes()  # the control
    stored = db_bytes(db)
    assert stored and marker.encode() not in stored
    assert b"OPS-42" not in stored

    # A new connection is a new session: it remembers nothing.
    async with stdio_client_of(exports, state, "auto") as client:
        fresh = await client.call_tool("convo", {"note": "fresh"})
    assert seen(fresh) == []
    assert context_of(fresh)["identity"]["session"] != session


@pytest.mark.parametrize("mode", MODES)
async def test_stdio_caller_memory_and_attachment_refusals(
    exports: Path, tmp_path: Path, mode: str
) -> None:
    state = tmp_path / "state"
    exact = "m" * (CALLER_MEMORY_LIMIT - 2)  # 32 KiB of canonical JSON, quotes included
    text = b"alpha beta\ngamma\n"
    async with stdio_client_of(exports, state, mode) as client:
        before = run_dirs(state)
        over = await client.call_tool("convo", {"note": "o"}, meta={CALLER_MEMORY_KEY: exact + "m"})
        bad64 = await client.call_tool("text_stats", {"file": "bm90IGJhc2U2NA=*"})
        big = await client.call_tool(
            "text_stats", {"file": base64.b64encode(b"x" * (1024 * 1024 + 1)).decode()}
        )
        # Nothing ran: no new run has a context or a step (a refused
        # attachment leaves at most an empty run directory).
        for name in run_dirs(state) - before:
            assert list((state / "mcp-harbor" / "runs" / name).iterdir()) == []
        ok = await client.call_tool("convo", {"note": "k"}, meta={CALLER_MEMORY_KEY: exact})
        stats = await client.call_tool("text_stats", {"file": base64.b64encode(text).decode()})
        # The refused calls left no trace in the session's memory.
        after = await client.call_tool("convo", {"note": "a"})
    for result, words in [
        (over, f"caller memory is {CALLER_MEMORY_LIMIT + 1} bytes; the limit is"),
        (bad64, "attachment 'file' is not valid base64"),
        (big, "attachment 'file' is 1048577 bytes; the limit is 1048576 bytes"),
    ]:
        assert result.is_error
        assert words in text_of(result)
        assert "Nothing was run." in text_of(result)
        # A refusal has its envelope too: status invalid, nothing ran.
        refusal = json.loads(result.meta[ENVELOPE_META_KEY])
        assert (refusal["status"], refusal["steps_run"], refusal["run_dir"]) == ("invalid", 0, "")
        assert refusal["answer"] == text_of(result)
    assert not ok.is_error, text_of(ok)
    assert lines_of(ok)["external"] == digest({"caller_supplied": exact})
    assert not stats.is_error, text_of(stats)
    assert stats.structured_content["bytes"] == len(text)
    assert seen(after) == ["k"]  # text_stats has no memory: not remembered
    # Each refusal is audited as invalid, with the reason.
    db = state / "mcp-harbor" / "harbor.db"
    store = SqliteStore(db, readonly=True)
    try:
        refused = [r for r in store.records() if r.kind == "call"]
    finally:
        store.close()
    assert [r.status for r in refused] == ["invalid"] * 3
    assert "the limit is" in refused[0].body["reason"]


# --- HTTP: handshake-era sessions, principals and tenants -------------------------


@dataclass
class Http:
    server: HttpServer
    tok: dict[str, str]


@pytest.fixture(scope="module")
def http(exports: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Http]:
    root = tmp_path_factory.mktemp("ctx-http")
    tokens = root / "tokens.json"
    tok = {
        "alice": token_add(tokens, "alice", "--tenant", "acme"),
        "bob": token_add(tokens, "bob", "--tenant", "acme"),
        "eve": token_add(tokens, "eve", "--tenant", "globex"),
    }
    with http_server(exports, root / "state", "--tokens", str(tokens)) as server:
        yield Http(server, tok)


async def calls(client: Client, *notes: str) -> list[Any]:
    return [await client.call_tool("convo", {"note": n}) for n in notes]


async def test_http_legacy_session_memory_is_per_session_principal_and_tenant(
    http: Http,
) -> None:
    url = http.server.url
    async with bearer_client(url, http.tok["alice"], "legacy") as client:
        a1, a2, a3 = await calls(client, "a1", "a2", "a3")
        # Meanwhile, in other sessions: nobody sees alice's conversation.
        async with bearer_client(url, http.tok["alice"], "legacy") as other:
            (alice_other,) = await calls(other, "a-other")
        async with bearer_client(url, http.tok["bob"], "legacy") as bob:
            (b1,) = await calls(bob, "b1")
        async with bearer_client(url, http.tok["eve"], "legacy") as eve:
            e1, e2 = await calls(eve, "e1", "e2")
        (a4,) = await calls(client, "a4")
    assert [seen(a1), seen(a2), seen(a3)] == [[], ["a1"], ["a1", "a2"]]
    assert seen(a4) == ["a2", "a3"]  # unaffected by the other sessions
    assert seen(alice_other) == [] and seen(b1) == [] and seen(e1) == []
    assert seen(e2) == ["e1"]  # eve's own session does remember
    ctx = context_of(a3)
    assert ctx["identity"]["tenant"] == "acme" and ctx["identity"]["principal"] == "alice"
    assert ctx["identity"]["session"].startswith("http:")
    assert ctx["identity"]["session"] != context_of(alice_other)["identity"]["session"]
    assert context_of(e2)["identity"]["tenant"] == "globex"


async def test_http_2026_requests_are_sessions_of_their_own(http: Http) -> None:
    async with bearer_client(http.server.url, http.tok["alice"], "auto") as client:
        r1, r2 = await calls(client, "m1", "m2")
    assert seen(r1) == [] and seen(r2) == []
    s1, s2 = (context_of(r)["identity"]["session"] for r in (r1, r2))
    assert s1.startswith("request:") and s2.startswith("request:") and s1 != s2


def test_store_recall_is_scoped_by_tenant_principal_and_session(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "m.db")
    try:
        for i, (tenant, principal, session) in enumerate(
            [("acme", "alice", "s1"), ("globex", "alice", "s1"), ("acme", "bob", "s1")]
        ):
            store.remember(
                MemoryEntry(tenant, principal, session, "t", f"r{i}", "at", {"i": i}, f"a{i}")
            )
        assert [m.run_id for m in store.recall("acme", "alice", "s1", 10)] == ["r0"]
        assert [m.run_id for m in store.recall("globex", "alice", "s1", 10)] == ["r1"]
        assert [m.run_id for m in store.recall("acme", "bob", "s1", 10)] == ["r2"]
        assert store.recall("acme", "alice", "s2", 10) == []
        assert store.recall("other", "alice", "s1", 10) == []
    finally:
        store.close()


# --- explicit null over the wire -----------------------------------------------------
# The SDK client leaves None values out of a request's _meta (exclude_none), so
# an explicit null is sent the way any other client could send it: as raw
# JSON-RPC lines to a real ``mcp-harbor serve`` over stdio.

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw-json-rpc", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


@pytest.mark.parametrize("mode", MODES)
def test_explicit_null_or_nan_caller_memory_is_refused_on_the_wire(
    exports: Path, tmp_path: Path, mode: str
) -> None:
    state = tmp_path / "state"
    argv = serve_argv(exports, log_level="error")
    proc = subprocess.Popen(
        argv,
        env=server_env(state),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(message: str) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(message.encode() + b"\n")
        proc.stdin.flush()
        return dict(json.loads(proc.stdout.readline()))

    def call(id_: int, memory_json: str) -> dict[str, Any]:
        meta = json.dumps(MODERN_META if mode == "auto" else {})[:-1]
        meta += (", " if mode == "auto" else "") + f'"{CALLER_MEMORY_KEY}": {memory_json}}}'
        reply = ask(
            f'{{"jsonrpc": "2.0", "id": {id_}, "method": "tools/call", "params": '
            f'{{"name": "convo", "arguments": {{"note": "raw"}}, "_meta": {meta}}}}}'
        )
        assert reply["id"] == id_ and "result" in reply, reply
        return dict(reply["result"])

    try:
        if mode == "legacy":
            init = ask(json.dumps(raw_initialize("raw-json-rpc", "1")))
            assert init["result"]["protocolVersion"] == "2025-11-25"
            proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
            proc.stdin.flush()
        null = call(2, "null")
        nan = call(3, "NaN")  # accepted by the JSON-RPC parser; not JSON
        assert run_dirs(state) == set()  # nothing ran
        ok = call(4, '{"ticket": "OPS-42"}')  # the control: the same call, valid memory
    finally:
        proc.stdin.close()
        proc.wait(10)
        proc.stdout.close()
    assert null["isError"] is True
    assert null["content"][0]["text"] == (
        "convo: caller memory (_meta 'mcp-harbor/memory') is null; send a JSON value, "
        "or leave the key out to send none\nNothing was run."
    )
    assert nan["isError"] is True
    assert "caller memory is not valid JSON" in nan["content"][0]["text"]
    assert json.loads(null["_meta"][ENVELOPE_META_KEY])["status"] == "invalid"
    assert not ok.get("isError"), ok
    assert len(run_dirs(state)) == 1
    store = SqliteStore(state / "mcp-harbor" / "harbor.db", readonly=True)
    try:
        statuses = [(r.kind, r.status) for r in store.records()]
    finally:
        store.close()
    assert statuses == [
        ("call", "invalid"),
        ("call", "invalid"),
        ("start", "running"),
        ("end", "ok"),
        ("memory", "remembered"),  # the answer kept in the session's memory, in the chain
    ]
