"""Issue 20: requests refused before any handler ran (401, 403, 421, invalid
JSON and JSON-RPC, 2026-07-28 header mismatches, unknown sessions, …) leave
``rejected`` audit records, one per source, principal and minute, however
many there were.

A real ``mcp-harbor serve --transport http`` subprocess with a tokens file
made by the real ``mcp-harbor token add``; real HTTP requests (httpx2) and
the SDK client; the server stopped with SIGTERM (which writes what is still
counted); the records read back with the real ``mcp-harbor audit --json``,
``audit --status rejected``, ``audit show`` and ``audit verify``. In
process, over a real SQLite store: the serve loop's task writes a minute
once it is over, and a store that refuses is logged, never raised.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from harbor_helpers import (
    MODES,
    PROTOCOL,
    audit_json,
    audit_records,
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

from mcp_harbor.store import AuditQuery, SqliteStore
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.rejections import Rejection, RejectionCounter

ECHO = """
    name: echo
    description: Echoes a region.
    args:
      region: {type: string, x-mcp-header: Region}
    steps:
      - name: a
        run: echo "region $ARG_region"
"""

META = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL["auto"],
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}
BASE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
MODERN = {
    **BASE,
    "MCP-Protocol-Version": PROTOCOL["auto"],
    "Mcp-Method": "tools/call",
    "Mcp-Name": "echo",
    "Mcp-Param-Region": "eu",
}


def call(tool: str = "echo") -> bytes:
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": tool, "arguments": {"region": "eu"}, "_meta": META},
    }
    return json.dumps(body).encode()


def listing(method: str, **params: Any) -> bytes:
    body = {"jsonrpc": "2.0", "id": 8, "method": method, "params": {**params, "_meta": META}}
    return json.dumps(body).encode()


def fresh_minute(needed: float = 6) -> None:
    """Wait, if need be, so that the next `needed` s are in one UTC minute:
    the tests count one record per source and minute."""
    into = time.time() % 60
    if into > 60 - needed:
        time.sleep(60 - into + 0.05)


def rejected(db: Path) -> list[dict[str, Any]]:
    """The ``rejected`` records, through ``audit --status rejected --json``."""
    listed = audit_json(db, "--status", "rejected")
    assert all(r["status"] == "rejected" for r in listed), listed
    return listed


def setup(tmp_path: Path) -> tuple[Path, Path, Path, str]:
    exports, db, tokens = tmp_path / "exports", tmp_path / "a.db", tmp_path / "tokens.json"
    write_export(exports, "echo.yaml", ECHO)
    return exports, db, tokens, token_add(tokens, "alice")


def test_each_refusal_before_a_handler_is_counted_by_source_principal_and_reason(
    tmp_path: Path,
) -> None:
    exports, db, tokens, alice = setup(tmp_path)
    auth = {"Authorization": f"Bearer {alice}"}
    good = {**MODERN, **auth}
    sent: list[tuple[int, dict[str, str], bytes]] = [
        # no valid token: 401, whatever else is wrong (the token is checked first)
        *[(401, {**MODERN, "Authorization": "Bearer mh_wrong"}, call())] * 50,
        *[(401, MODERN, call())] * 3,
        (401, {**MODERN, "Host": "evil.example"}, call()),
        # alice's valid token, refused all the same
        (403, {**good, "Origin": "http://evil.example"}, call()),
        (421, {**good, "Host": "evil.example:80"}, call()),
        (400, good, b"{not json"),
        (400, {**BASE, **auth}, b"{not json"),  # the handshake era
        (400, good, json.dumps([json.loads(call())] * 2).encode()),  # a batch
        (400, {**BASE, **auth}, json.dumps([json.loads(call())] * 2).encode()),
        (400, good, b'{"id": 1, "garbage": true}'),
        (400, {**good, "Mcp-Method": "tools/list"}, call()),
        (400, {**good, "Mcp-Name": "other"}, call()),
        (400, {**good, "Mcp-Param-Region": "us"}, call()),
        (400, {**good, "MCP-Protocol-Version": "1999-01-01"}, call()),
        (400, {**good, "Content-Type": "text/plain"}, call()),
        (406, {**good, "Accept": "text/html"}, call()),
        (404, {**BASE, **auth, "Mcp-Session-Id": "nosuchsession"}, call()),
        (400, {**BASE, **auth}, call()),  # handshake era without a session
        (413, good, b" " * 5000 + call()),  # over --max-request-bytes
        (404, {**good, "Mcp-Method": "resources/list"}, listing("resources/list")),
        (400, {**good, "Mcp-Method": "tools/list"}, listing("tools/list", cursor=5)),
    ]
    fresh_minute()
    extra = ("--tokens", str(tokens), "--db", str(db), "--max-request-bytes", "4096")
    with http_server(exports, tmp_path / "state", *extra) as srv:
        with httpx2.Client(timeout=30) as http:
            for status, headers, body in sent:
                reply = http.post(srv.url, content=body, headers=headers)
                assert reply.status_code == status, (headers, body, reply.text)
            twice = [*good.items(), ("Mcp-Method", "tools/call")]
            assert http.post(srv.url, content=call(), headers=twice).status_code == 400
            assert http.get(srv.url, headers=good).status_code == 405
            assert http.post(srv.url[: -len("/mcp")] + "/other", content=call()).status_code == 404
            # Refusals by a handler are the call path's: an unknown tool is a
            # 400 in the 2026-07-28 era, audited as a call, not counted here.
            unknown = http.post(srv.url, content=call("nope"), headers={**good, "Mcp-Name": "nope"})
            assert unknown.status_code == 400 and "Unknown tool" in unknown.text
            ok = http.post(srv.url, content=call(), headers=good)
            assert ok.status_code == 200 and "region eu" in ok.text
        written = [r for r in audit_records(db) if r["kind"] == "rejected"]
        assert not written, "records are written when the minute is over, or at the stop"
    listed, calls, verified = parallel(
        lambda: rejected(db), lambda: audit_json(db), lambda: audit_verify(db)
    )
    records = {r["principal"]: r for r in listed}
    assert set(records) == {"unauthenticated:127.0.0.1", "alice"}, records
    anonymous = audit_show(db, records["unauthenticated:127.0.0.1"]["call_id"])
    assert anonymous["rejected"]["reasons"] == {
        "401 invalid token": 50,
        "401 missing token": 4,
        "404 no such path": 1,  # outside /mcp: no token is asked for
    }
    assert anonymous["rejected"]["count"] == 55
    end = anonymous["end"]
    assert end["source"] == "127.0.0.1"
    assert end["sample"]["user_agent"].startswith("python-httpx")
    assert end["sources_folded"] == 0 and end["first_at"] <= end["last_at"]
    assert "mh_wrong" not in json.dumps(anonymous) and alice not in json.dumps(records)
    assert records["alice"]["rejected"]["reasons"] == {
        "400 MCP-Protocol-Version mismatch": 1,
        "400 Mcp-Method mismatch": 1,
        "400 Mcp-Name mismatch": 1,
        "400 Mcp-Param mismatch": 1,
        "400 invalid JSON": 2,
        "400 invalid JSON-RPC": 3,
        "400 duplicated header": 1,
        "400 invalid content type": 1,
        "400 invalid params": 1,
        "400 missing session id": 1,
        "403 origin not allowed": 1,
        "404 method not found": 1,
        "404 unknown session": 1,
        "405 method not allowed": 1,
        "406 not acceptable": 1,
        "413 body too large": 1,
        "421 host not allowed": 1,
    }
    assert records["alice"]["tool"] == "-"  # most named echo, two named none
    # The calls a handler answered are calls, as before.
    statuses = Counter(c["status"] for c in calls)
    assert statuses == {"rejected": 2, "ok": 1, "unknown": 1}, statuses
    assert verified.returncode == 0, verified.stderr


def test_a_flood_from_one_source_is_one_record_a_minute(tmp_path: Path) -> None:
    exports, db, tokens, _ = setup(tmp_path)
    with http_server(exports, tmp_path / "state", "--tokens", str(tokens), "--db", str(db)) as srv:

        async def flood() -> None:
            headers = {**MODERN, "Authorization": "Bearer mh_guess"}
            async with httpx2.AsyncClient(timeout=30) as http:

                async def worker() -> None:
                    for _ in range(100):
                        reply = await http.post(srv.url, content=call(), headers=headers)
                        assert reply.status_code == 401

                async with anyio.create_task_group() as tg:
                    for _ in range(20):
                        tg.start_soon(worker)

        anyio.run(flood)
    records = rejected(db)
    # One record, or two when the flood straddled a minute: one per minute.
    minutes = [r["rejected"]["minute"] for r in records]
    assert len(records) == len(set(minutes)) and len(records) in (1, 2), records
    for record in records:
        assert record["principal"] == "unauthenticated:127.0.0.1"
        assert record["tool"] == "echo"  # every one of them claimed Mcp-Name: echo
        count = record["rejected"]["count"]
        assert record["rejected"]["reasons"] == {"401 invalid token": count}
    assert sum(r["rejected"]["count"] for r in records) == 2000


@pytest.mark.parametrize("mode", MODES)
def test_the_sdk_client_leaves_no_rejected_record(tmp_path: Path, mode: str) -> None:
    """Normal traffic in either era (the handshake era opens a session, its
    GET stream and DELETE at the end) is never counted as refused: after
    it, one refused request is a record of count 1."""
    exports, db, tokens, alice = setup(tmp_path)
    with http_server(exports, tmp_path / "state", "--tokens", str(tokens), "--db", str(db)) as srv:

        async def use() -> None:
            async with bearer_client(srv.url, alice, mode) as client:
                assert [t.name for t in (await client.list_tools()).tools] == ["echo"]
                result = await client.call_tool("echo", {"region": "eu"})
                assert not result.is_error and "region eu" in text_of(result)
                with pytest.raises(MCPError, match="Unknown tool"):
                    await client.call_tool("nope", {})

        anyio.run(use)
        assert httpx2.post(srv.url, content=call(), headers=MODERN).status_code == 401
    (record,) = rejected(db)
    assert record["rejected"]["count"] == 1, record
    assert record["rejected"]["reasons"] == {"401 missing token": 1}
    assert {c["status"] for c in audit_json(db)} == {"ok", "unknown", "rejected"}


def test_without_tokens_a_refused_caller_is_anonymous(tmp_path: Path) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "echo.yaml", ECHO)
    fresh_minute()
    with http_server(exports, tmp_path / "state", "--db", str(db)) as srv, httpx2.Client() as http:
        for _ in range(3):
            bad = http.post(srv.url, content=call(), headers={**MODERN, "Host": "a.example"})
            assert bad.status_code == 421
    (record,) = rejected(db)
    assert record["principal"] == "anonymous"
    shown = audit_show(db, record["call_id"])
    assert shown["rejected"] == {
        "count": 3,
        "minute": shown["end"]["minute"],
        "reasons": {"421 host not allowed": 3},
        "source": "127.0.0.1",
    }
    assert shown["end"]["sample"]["host"] == "a.example"


# --- the counter in process, over a real SQLite store ------------------------------


@pytest.mark.anyio
async def test_a_minute_is_written_once_it_is_over_while_serving(tmp_path: Path) -> None:
    """`RejectionCounter.run` (the serve loop's background task) writes a
    minute's record after the minute, not before; the current minute waits."""
    store = SqliteStore(tmp_path / "a.db")
    now = [1_800_000_030.0]  # 2027-01-15T08:00:30Z
    counter = RejectionCounter(AuditTrail(store), auth=True, clock=lambda: now[0])
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(counter.run, 0.01)
            counter.add(Rejection("10.0.0.9", "401 missing token"))
            await anyio.sleep(0.1)
            assert store.calls(AuditQuery(status="rejected")) == []  # its minute is not over
            now[0] += 30  # 08:01:00
            counter.add(Rejection("10.0.0.9", "401 missing token"))
            with anyio.fail_after(5):
                while not store.calls(AuditQuery(status="rejected")):
                    await anyio.sleep(0.01)
            tg.cancel_scope.cancel()
        (record,) = store.calls(AuditQuery(status="rejected"))
        assert (record.start["minute"], record.start["count"]) == ("2027-01-15T08:00Z", 1)
        assert counter.pending() == 1  # 08:01, written at the stop
        assert await counter.flush() == 1 and counter.written == 2
    finally:
        store.close()


@pytest.mark.anyio
async def test_a_store_that_refuses_is_logged_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SqliteStore(tmp_path / "a.db")
    counter = RejectionCounter(AuditTrail(store), auth=True)
    counter.add(Rejection("10.0.0.9", "421 host not allowed"))
    store.close()  # every write now raises StoreError
    with caplog.at_level(logging.ERROR, "mcp_harbor.store"):
        assert await counter.flush() == 0
    assert "could not record 1 refused request(s) from 10.0.0.9" in caplog.text
    assert counter.pending() == 0
