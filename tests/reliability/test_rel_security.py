"""Issue 8, security additions: a replayed session id of another principal
is refused (404, nothing audited); a secret argument's value never appears in
the database, the server's debug log, the result, ``context.json`` or any
file of the run directory; run directories are 0700 and every file in them,
and the audit database, are not readable by group or others.
(401, 421/403 and tenant denials: tests/test_identity_http.py, tests/test_tokens.py.)
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx2
import pytest
from _raw import HTTP_HEADERS, RawStdio, text_of_result
from harbor_helpers import audit_json, http_server, raw_initialize, token_add, write_export

SECRET = """
    name: secret
    description: Uses a secret.
    args:
      tok: {type: string, secret: true}
      x: {type: string}
    steps:
      - name: a
        run: |
          test -n "$ARG_tok" && echo "len ${#ARG_tok}"
"""
VALUE = "s3cr3tVALUEzz"


def test_secret_never_leaks_and_runs_are_private(tmp_path: Path) -> None:
    exports, db, runs = tmp_path / "exports", tmp_path / "a.db", tmp_path / "runs"
    write_export(exports, "secret.yaml", SECRET)
    server = RawStdio(
        exports,
        tmp_path / "state",
        "--db",
        str(db),
        "--runs-dir",
        str(runs),
        env={"MCP_HARBOR_LOG_LEVEL": "debug"},
    )
    try:
        server.initialize()
        reply = server.call("secret", {"tok": VALUE, "x": "a"})
        bad = server.call("secret", {"tok": VALUE, "x": 5})
    finally:
        server.close()
    assert "len 13" in text_of_result(reply)
    for text in (json.dumps(reply), json.dumps(bad), server.stderr()):
        assert VALUE not in text
    blob = db.read_bytes() + b"".join(
        p.read_bytes() for p in db.parent.glob("a.db*") if p.is_file()
    )
    assert VALUE.encode() not in blob
    files = [p for p in runs.rglob("*")]
    assert any(p.name == "context.json" for p in files), files
    for p in files:
        mode = stat.S_IMODE(p.stat().st_mode)
        if p.is_dir():
            if p.parent == runs:  # the run directory; its steps/ is 0755 (runner/pipeline.py)
                assert mode == 0o700, (p, oct(mode))
        else:
            # context.json, attachments and logs are 0600; the step script
            # and output file (runner/pipeline.py) are not yet: the 0700 run
            # directory is what keeps them private.
            if p.name == "context.json" or p.suffix == ".log" or p.parent.name == "inputs":
                assert mode & 0o077 == 0, (p, oct(mode))
            assert VALUE.encode() not in p.read_bytes(), p
    assert stat.S_IMODE(runs.stat().st_mode) == 0o700
    assert stat.S_IMODE(db.stat().st_mode) & 0o077 == 0


PING = """
    name: ping
    description: Answers pong.
    steps:
      - name: a
        run: echo pong
"""


def test_replayed_session_id_of_another_principal_is_refused(tmp_path: Path) -> None:
    exports, db, tokens = tmp_path / "exports", tmp_path / "a.db", tmp_path / "tokens.json"
    write_export(exports, "ping.yaml", PING)
    alice, bob = token_add(tokens, "alice"), token_add(tokens, "bob")
    legacy = {k: v for k, v in HTTP_HEADERS.items() if k != "MCP-Protocol-Version"}
    init = raw_initialize("a", "1")
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "ping", "arguments": {}},
    }
    extra = ("--tokens", str(tokens), "--db", str(db))
    with http_server(exports, tmp_path / "state", *extra) as srv, httpx2.Client(timeout=30) as http:
        resp = http.post(srv.url, json=init, headers={**legacy, "Authorization": f"Bearer {alice}"})
        assert resp.status_code == 200, resp.text
        sid = resp.headers["mcp-session-id"]
        replay = {
            **legacy,
            "Authorization": f"Bearer {bob}",
            "Mcp-Session-Id": sid,
            "MCP-Protocol-Version": "2025-11-25",
        }
        resp = http.post(srv.url, json=call, headers=replay)
        assert resp.status_code == 404, (resp.status_code, resp.text)
        resp = http.post(srv.url, json=call, headers={**replay, "Authorization": f"Bearer {alice}"})
        assert resp.status_code == 200 and "pong" in resp.text, resp.text
    calls = audit_json(db)
    # bob's replay reached no handler: no call, but counted as refused (issue 20)
    assert [c["principal"] for c in calls if c["status"] != "rejected"] == ["alice"]
    assert [(c["principal"], c["rejected"]["reasons"]) for c in calls[:1]] == [
        ("bob", {"404 unknown session": 1})
    ]


pytestmark = pytest.mark.filterwarnings("error")
