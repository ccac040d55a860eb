"""Issue 4: bearer tokens and the HTTP door.

The real ``mcp-harbor token add/list/revoke`` commands and real ``serve
--transport http`` subprocesses: a token is printed once and stored only as
its SHA-256 (file mode 0600, documented default path); ``token revoke`` and
``token add`` take effect on a running server; HTTP without tokens is refused
on a non-loopback bind (exit 2, before the store is even opened) and allowed
on loopback with a warning (the caller is ``anonymous``); the SDK's Host/Origin
(DNS-rebinding) protection answers 421/403, and ``--allow-host`` admits a name.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
from functools import partial
from pathlib import Path

import httpx2
import pytest
from harbor_helpers import (
    audit_json,
    bearer_client,
    free_port,
    harbor_cli,
    http_server,
    parallel,
    raw_initialize,
    serve_argv,
    server_env,
    text_of,
    token_add,
    write_export,
)

from mcp_harbor.server.auth import HarborTokenVerifier, TokensFile

pytestmark = pytest.mark.anyio

PING = """
    name: ping
    description: Does nothing.
    steps:
      - name: a
        run: echo pong
"""

INIT = raw_initialize()
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def post_status(url: str, token: str | None, **headers: str) -> int:
    h = {**HEADERS, **headers}
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    async with httpx2.AsyncClient() as http:
        return (await http.post(url, json=INIT, headers=h)).status_code


def test_token_add_list_revoke(tmp_path: Path) -> None:
    tokens = tmp_path / "conf" / "tokens.json"
    add = harbor_cli(
        "token", "add", "alice", "--tenant", "acme", "--group", "ops", "--group", "dev",
        "--tokens", str(tokens),
    )  # fmt: skip
    (secret,) = add.stdout.split()  # stdout holds the token and nothing else
    assert secret.startswith("mh_") and len(secret) > 40
    assert "shown only now" in add.stderr and secret not in add.stderr
    text = tokens.read_text()
    assert secret not in text  # only the hash is stored
    data = json.loads(text)
    assert data["version"] == 1
    (entry,) = data["tokens"]
    assert entry["name"] == "alice" and entry["tenant"] == "acme"
    assert entry["groups"] == ["ops", "dev"]
    assert entry["sha256"] == hashlib.sha256(secret.encode()).hexdigest()
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    # Each token is random.
    other = token_add(tokens, "bob")
    assert other != secret and other not in tokens.read_text()

    t = str(tokens)
    dup, bad, listed_proc, json_proc = parallel(  # none of these writes the file
        partial(harbor_cli, "token", "add", "alice", "--tokens", t, check=False),
        partial(harbor_cli, "token", "add", "no spaces", "--tokens", t, check=False),
        partial(harbor_cli, "token", "list", "--tokens", t),
        partial(harbor_cli, "token", "list", "--json", "--tokens", t),
    )
    assert dup.returncode == 2 and "exists" in dup.stderr
    assert bad.returncode == 2 and "invalid" in bad.stderr

    listed = listed_proc.stdout
    assert "alice\ttenant=acme\tgroups=ops,dev" in listed
    assert "bob\ttenant=default\tgroups=-" in listed
    assert secret not in listed and entry["sha256"] not in listed
    as_json = json.loads(json_proc.stdout)
    assert [e["name"] for e in as_json] == ["alice", "bob"]
    assert all("sha256" not in e for e in as_json)

    assert harbor_cli("token", "revoke", "alice", "--tokens", str(tokens)).returncode == 0
    assert [e["name"] for e in json.loads(tokens.read_text())["tokens"]] == ["bob"]
    again = harbor_cli("token", "revoke", "alice", "--tokens", str(tokens), check=False)
    assert again.returncode == 2 and "no token named 'alice'" in again.stderr


def test_default_tokens_path_is_under_xdg_config_home(tmp_path: Path) -> None:
    conf = tmp_path / "xdg-config"
    secret = harbor_cli("token", "add", "zed", XDG_CONFIG_HOME=str(conf)).stdout.strip()
    path = conf / "mcp-harbor" / "tokens.json"
    entry = json.loads(path.read_text())["tokens"][0]
    assert entry["sha256"] == hashlib.sha256(secret.encode()).hexdigest()
    env_path = tmp_path / "via-env.json"
    harbor_cli("token", "add", "zed", MCP_HARBOR_TOKENS=str(env_path))
    assert env_path.exists()


async def test_revoke_and_add_take_effect_on_a_running_server(tmp_path: Path) -> None:
    exports, tokens, db = tmp_path / "exports", tmp_path / "tokens.json", tmp_path / "a.db"
    write_export(exports, "ping.yaml", PING)
    alice = token_add(tokens, "alice")
    dave = token_add(tokens, "dave")
    extra = ("--tokens", str(tokens), "--db", str(db))
    with http_server(exports, tmp_path / "state", *extra) as srv:
        assert await post_status(srv.url, dave) == 200
        async with bearer_client(srv.url, dave, "auto") as client:
            assert "pong" in text_of(await client.call_tool("ping", {}))
        harbor_cli("token", "revoke", "dave", "--tokens", str(tokens))
        assert await post_status(srv.url, dave) == 401  # no restart needed
        assert await post_status(srv.url, alice) == 200
        erin = token_add(tokens, "erin")
        assert await post_status(srv.url, erin) == 200
        async with bearer_client(srv.url, erin, "legacy") as client:
            assert "pong" in text_of(await client.call_tool("ping", {}))
    calls = audit_json(db)
    assert [c["principal"] for c in calls if c["status"] != "rejected"] == ["erin", "dave"]
    # The revoked token was refused before any handler: counted (issue 20).
    assert [(c["principal"], c["rejected"]["reasons"]) for c in calls[:1]] == [
        ("unauthenticated:127.0.0.1", {"401 invalid token": 1})
    ]


async def test_verifier_rereads_a_replaced_file_of_the_same_size_and_mtime(
    tmp_path: Path,
) -> None:
    # The verifier re-reads the file only when its stat changes. A revocation
    # that leaves size and mtime alike (a digest swapped for another of the
    # same length, mtime restored) must still count at the next request.
    path = tmp_path / "tokens.json"
    tokens = TokensFile(path)
    dave = tokens.add("dave")
    verifier = HarborTokenVerifier(tokens)
    assert (await verifier.verify_token(dave)) is not None
    assert (await verifier.verify_token(dave)) is not None  # served from memory
    before = path.stat()
    digest = hashlib.sha256(dave.encode()).hexdigest()
    other = hashlib.sha256(b"somebody else").hexdigest()
    fresh = tmp_path / "tokens.new"
    fresh.write_text(path.read_text().replace(digest, other))
    os.utime(fresh, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(fresh, path)
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert (await verifier.verify_token(dave)) is None


def test_non_loopback_bind_without_tokens_refuses_to_start(tmp_path: Path) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "ping.yaml", PING)
    port = free_port()
    for tokens in (tmp_path / "missing.json", tmp_path / "empty.json"):
        if tokens.name == "empty.json":
            tokens.write_text('{"version": 1, "tokens": []}')
        argv = serve_argv(
            exports, "--transport", "http", "--host", "0.0.0.0", "--port", str(port),
            "--tokens", str(tokens), "--db", str(db),
        )  # fmt: skip
        proc = subprocess.run(
            argv, env=server_env(tmp_path / "state"), capture_output=True, text=True, timeout=30
        )
        assert proc.returncode == 2, proc.stderr
        assert "refusing to serve HTTP on 0.0.0.0 without authentication" in proc.stderr
        assert "serving MCP over HTTP" not in proc.stderr
        assert not db.exists()  # refused before the store was opened, let alone the port


async def test_non_loopback_bind_with_tokens_serves_and_demands_them(tmp_path: Path) -> None:
    exports, tokens = tmp_path / "exports", tmp_path / "tokens.json"
    write_export(exports, "ping.yaml", PING)
    tok = token_add(tokens, "alice")
    extra = ("--host", "0.0.0.0", "--tokens", str(tokens), "--db", str(tmp_path / "a.db"))
    with http_server(exports, tmp_path / "state", *extra) as srv:
        assert await post_status(srv.url, None) == 401
        assert await post_status(srv.url, tok) == 200


async def test_loopback_without_tokens_warns_and_calls_are_anonymous(tmp_path: Path) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "ping.yaml", PING)
    extra = ("--tokens", str(tmp_path / "none.json"), "--db", str(db))
    with http_server(exports, tmp_path / "state", *extra) as srv:
        async with bearer_client(srv.url, None, "auto") as client:
            assert "pong" in text_of(await client.call_tool("ping", {}))
        log = srv.stderr()
    assert "WARNING" in log and "without tokens" in log
    (call,) = audit_json(db)
    assert call["principal"] == "anonymous" and call["caller"]["transport"] == "http"


async def test_dns_rebinding_protection_and_allow_host(tmp_path: Path) -> None:
    exports, tokens = tmp_path / "exports", tmp_path / "tokens.json"
    write_export(exports, "ping.yaml", PING)
    tok = token_add(tokens, "alice")
    base = ("--tokens", str(tokens), "--db", str(tmp_path / "a.db"))
    with http_server(exports, tmp_path / "state", *base) as srv:
        port = srv.url.split(":")[2].split("/")[0]
        assert await post_status(srv.url, tok) == 200
        assert await post_status(srv.url, tok, Host=f"harbor.internal:{port}") == 421
        assert await post_status(srv.url, tok, Origin="http://evil.example") == 403
        assert await post_status(srv.url, tok, Host=f"localhost:{port}") == 200
    allowed = (*base, "--allow-host", "harbor.internal:*")
    with http_server(exports, tmp_path / "state2", *allowed) as srv:
        port = srv.url.split(":")[2].split("/")[0]
        assert await post_status(srv.url, tok, Host=f"harbor.internal:{port}") == 200
        assert await post_status(srv.url, tok, Host=f"other.internal:{port}") == 421
        assert (
            await post_status(
                srv.url,
                tok,
                Host=f"harbor.internal:{port}",
                Origin=f"http://harbor.internal:{port}",
            )
            == 200
        )
        assert await post_status(srv.url, tok, Origin="http://evil.example") == 403
        # The token is still required for an allowed host.
        assert await post_status(srv.url, None, Host=f"harbor.internal:{port}") == 401
