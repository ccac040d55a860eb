"""Issue 20, item 5: ``Mcp-Param-*`` header validation (2026-07-28 HTTP)
happens before dispatch, from the called tool's ``inputSchema``. For a tool
the caller may not see (``allow:``) it must answer exactly like a tool that
does not exist: no 400 naming the header and the argument (which revealed
the tool and its argument names, unaudited), but the unknown-tool answer,
audited as ``denied``. A caller who may see the tool still gets the header
check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
from harbor_helpers import PROTOCOL, audit_records, http_server, token_add, write_export

HIDDEN = """
    name: {name}
    description: Deploys to a region.
    allow: [bob]
    args:
      region: {{type: string, x-mcp-header: Region}}
    steps:
      - name: a
        run: echo "$ARG_region"
"""

META = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL["auto"],
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}


def post(
    http: httpx2.Client, url: str, token: str, tool: str, **headers: str
) -> tuple[int, dict[str, Any]]:
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": tool, "arguments": {"region": "eu"}, "_meta": META},
    }
    reply = http.post(
        url,
        content=json.dumps(body).encode(),
        headers={
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": PROTOCOL["auto"],
            "Mcp-Method": "tools/call",
            "Mcp-Name": tool,
            "Authorization": f"Bearer {token}",
            **headers,
        },
    )
    return reply.status_code, reply.json()


def shape(body: dict[str, Any], tool: str) -> dict[str, Any]:
    """An answer without what differs between any two calls (the run id and
    times) and with the tool's name replaced."""
    error = dict(body["error"])
    envelope = json.loads(error.pop("data")["mcp-harbor/envelope"])
    for key in ("run_id", "started_at", "duration_ms", "queued_ms"):
        envelope.pop(key)
    text = json.dumps({**body, "error": error, "envelope": envelope}, sort_keys=True)
    return dict(json.loads(text.replace(tool, "TOOL")))


def test_header_check_of_a_hidden_tool_answers_like_an_unknown_tool(tmp_path: Path) -> None:
    exports, db, tokens = tmp_path / "exports", tmp_path / "a.db", tmp_path / "tokens.json"
    write_export(exports, "hidden.yaml", HIDDEN.format(name="deploy_eu"))
    alice, bob = token_add(tokens, "alice"), token_add(tokens, "bob")
    extra = ("--tokens", str(tokens), "--db", str(db))
    with http_server(exports, tmp_path / "state", *extra) as srv, httpx2.Client(timeout=30) as http:
        # No Mcp-Param-Region header although the body sends region.
        hidden = post(http, srv.url, alice, "deploy_eu")
        unknown = post(http, srv.url, alice, "deploy_us")
        # With a header that does not match, too.
        hidden_mismatch = post(http, srv.url, alice, "deploy_eu", **{"Mcp-Param-Region": "us"})
        unknown_mismatch = post(http, srv.url, alice, "deploy_us", **{"Mcp-Param-Region": "us"})
        allowed = post(http, srv.url, bob, "deploy_eu")
    for (h_status, h_body), (u_status, u_body) in [
        (hidden, unknown),
        (hidden_mismatch, unknown_mismatch),
    ]:
        assert h_body["error"]["message"] == "Unknown tool: deploy_eu", h_body
        assert "region" not in json.dumps(h_body).lower(), h_body
        assert h_status == u_status, (h_body, u_body)
        assert shape(h_body, "deploy_eu") == shape(u_body, "deploy_us"), (h_body, u_body)
    # The hidden tool's attempts are audited as denied, with alice as the caller.
    denied = [r for r in audit_records(db) if r["tool"] == "deploy_eu"]
    assert [(r["principal"], r["status"]) for r in denied][:2] == [
        ("alice", "denied"),
        ("alice", "denied"),
    ], denied
    # bob may see it: the header check still applies to him.
    status, body = allowed
    assert status == 400 and "Mcp-Param-Region" in body["error"]["message"], body
