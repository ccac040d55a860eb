"""Issue 23 end to end: real ``mcp-harbor serve --auth oauth`` subprocesses
and real tokens of the ``oidc`` fixture's OpenID Provider, called with the
SDK's client.

Proves: OAuth principals (``oauth:SUB``), groups, tenants and scopes reach
``allow:`` and the steps' ``HARBOR_CALLER_*`` (never the token); static
tokens work beside them (``--auth tokens,oauth``); opaque tokens by
introspection; the audit names issuer, subject, client id and token id and
never holds the token; the Protected Resource Metadata at the root and the
path form, found by the SDK's own ``ClientCredentialsOAuthProvider``; every
refusal (missing, another audience, expired, tampered, wrong issuer, alg
none, unknown key, insufficient scope) answered with its challenge, a
distinct reason in the ``rejected`` records, and the server still serving;
``--auth-config`` and a key rotation at the provider (a provider of that
test's own, `private_oidc`, so the shared one keeps its key).
"""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import subprocess
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from harbor_helpers import (
    MODES,
    approvals_json,
    audit_json,
    bearer_client,
    free_port,
    serve_argv,
    server_env,
    text_of,
    token_add,
    write_export,
)
from mcp import Client
from mcp.shared.exceptions import MCPError

from .oidc import OTHER_RESOURCE, OIDCProvider

pytestmark = pytest.mark.anyio

WHOAMI = """
    name: whoami
    description: Prints the caller the step sees, then its environment.
    steps:
      - name: show
        run: |
          printf 'HARBOR_CALLER_PRINCIPAL=%s\\n' "$HARBOR_CALLER_PRINCIPAL"
          printf 'HARBOR_CALLER_TENANT=%s\\n' "$HARBOR_CALLER_TENANT"
          printf 'HARBOR_CALLER_GROUPS=%s\\n' "$HARBOR_CALLER_GROUPS"
          env | sort | sed 's/^/env: /'
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


RULES = {
    "ops_only": "group:ops",
    "acme_only": "tenant:acme",
    "deployers": "scope:deploy",
    "alice_only": "oauth:alice",
    "ci_only": "ci",
}


@dataclass
class Served:
    url: str
    resource: str
    proc: subprocess.Popen[bytes]
    stderr_path: Path
    db: Path

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


@contextlib.contextmanager
def harbor(
    root: Path, args: Callable[[str], Sequence[str]], *more: tuple[str, str], **env: str
) -> Iterator[Served]:
    """``mcp-harbor serve --transport http`` on a free port with `args`
    (given the resource URL it serves, ``http://127.0.0.1:PORT/mcp``), the
    exports of `RULES`, ``whoami`` and `more` ((name, text) pairs)."""
    exports, state, db = root / "exports", root / "state", root / "a.db"
    write_export(exports, "whoami.yaml", WHOAMI)
    for name, text in more:
        write_export(exports, f"{name}.yaml", text)
    for name, rule in RULES.items():
        write_export(exports, f"{name}.yaml", only(name, rule))
    port = free_port()
    resource = OIDCProvider.resource_for(port)
    state.mkdir(parents=True, exist_ok=True)
    stderr_path = state / "server.stderr"
    argv = serve_argv(
        exports, "--transport", "http", "--port", str(port), "--db", str(db), *args(resource)
    )
    with open(stderr_path, "wb") as err:
        proc = subprocess.Popen(
            argv, env=server_env(state, **env), stdin=subprocess.DEVNULL, stdout=err, stderr=err
        )
    served = Served(resource, resource, proc, stderr_path, db)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited {proc.returncode}: {served.stderr()}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not listen: {served.stderr()}")
            time.sleep(0.05)
        yield served
    finally:
        served.stop()


@dataclass
class Side:
    """The ``--auth tokens,oauth`` server of this module and its static token."""

    server: Served
    static: str


@pytest.fixture(scope="module")
def side(oidc: OIDCProvider, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Side]:
    root = tmp_path_factory.mktemp("oauth-side")
    tokens = root / "tokens.json"
    static = token_add(tokens, "ci", "--group", "builders")

    def args(resource: str) -> list[str]:
        return [
            "--tokens", str(tokens), "--auth", "tokens,oauth", "--issuer", oidc.issuer,
            "--audience", resource, "--groups-claim", "groups", "--tenant-claim", "tenant",
            "--introspection-url", oidc.introspection_url,
        ]  # fmt: skip

    with harbor(
        root,
        args,
        MCP_HARBOR_INTROSPECTION_CLIENT_ID=oidc.introspection_client_id,
        MCP_HARBOR_INTROSPECTION_CLIENT_SECRET=oidc.introspection_client_secret,
    ) as server:
        yield Side(server, static)


VISIBLE = {
    "alice": {"whoami", "ops_only", "acme_only", "deployers", "alice_only"},
    "bob": {"whoami", "acme_only"},  # group dev, scope read only
    "ci-bot": {"whoami", "deployers"},  # client credentials: no groups, scope deploy
    "static ci": {"whoami", "ci_only"},
}


def token_of(oidc: OIDCProvider, who: str, resource: str) -> str:
    if who == "alice":
        return oidc.auth_code_token("alice", "read deploy", resource)
    if who == "bob":
        return oidc.auth_code_token("bob", "read", resource)
    return oidc.client_credentials_token("ci-bot", "read deploy", resource)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("who", sorted(VISIBLE))
async def test_principals_groups_and_scopes_reach_allow(
    oidc: OIDCProvider, side: Side, who: str, mode: str
) -> None:
    token = side.static if who == "static ci" else token_of(oidc, who, side.server.resource)
    async with bearer_client(side.server.url, token, mode) as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        assert listed == VISIBLE[who], side.server.stderr()[-2000:]
        for name in sorted(VISIBLE[who] - {"whoami"}):
            result = await client.call_tool(name, {})
            assert f"{name} ran" in text_of(result)
        for name in sorted(set(RULES) - VISIBLE[who]):
            with pytest.raises(MCPError, match=f"Unknown tool: {name}"):
                await client.call_tool(name, {})


async def test_the_caller_reaches_steps_and_audit_but_never_the_token(
    oidc: OIDCProvider, side: Side
) -> None:
    token = oidc.auth_code_token("alice", "read deploy", side.server.resource)
    async with bearer_client(side.server.url, token, "auto") as client:
        out = text_of(await client.call_tool("whoami", {}))
    assert "HARBOR_CALLER_PRINCIPAL=oauth:alice" in out
    assert "HARBOR_CALLER_GROUPS=ops" in out and "HARBOR_CALLER_TENANT=acme" in out
    # the claims are the step's shell variables, never its programs' environment
    assert "env: HARBOR_CALLER_TRANSPORT=http" in out
    assert "env: HARBOR_CALLER_PRINCIPAL" not in out and "env: HARBOR_CALLER_TENANT" not in out
    assert "env: HARBOR_CALLER_GROUPS" not in out
    assert token not in out and "Bearer" not in out
    assert token.split(".")[2] not in out  # not even its signature
    assert oidc.introspection_client_secret not in out  # the server's own secret neither
    calls = [c for c in audit_json(side.server.db, "--who", "oauth:alice") if c["tool"] == "whoami"]
    caller = calls[-1]["caller"]
    claims = jwt.decode(token, options={"verify_signature": False})
    assert caller["principal"] == "oauth:alice"
    assert caller["issuer"] == oidc.issuer and caller["subject"] == "alice"
    assert caller["client_id"] == "desktop" and caller["token_id"] == claims["jti"]
    assert caller["scopes"] == ["read", "deploy"]
    for path in side.server.db.parent.glob(side.server.db.name + "*"):
        assert token.encode() not in path.read_bytes(), path


async def test_opaque_tokens_by_introspection(oidc: OIDCProvider, side: Side) -> None:
    token = oidc.opaque_token("carol", "read", side.server.resource)
    assert token.count(".") != 2
    async with bearer_client(side.server.url, token, "auto") as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        out = text_of(await client.call_tool("whoami", {}))
    assert listed == {"whoami", "ops_only"}  # carol: ops, tenant globex, scope read
    assert "HARBOR_CALLER_PRINCIPAL=oauth:carol" in out and "HARBOR_CALLER_TENANT=globex" in out
    for tampered in (token[:-2] + "zz", "opaque-made-up"):
        with httpx2.Client(timeout=30) as http:
            answer = http.post(side.server.url, headers=_headers(tampered), content=_call())
        assert answer.status_code == 401 and "inactive token" in answer.text


META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}


def _headers(token: str | None) -> dict[str, str]:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "whoami",
    }
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def _call() -> bytes:
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "whoami", "arguments": {}, "_meta": META},
    }
    return json.dumps(body).encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _forged(issuer: str, resource: str, **header: Any) -> str:
    """A token signed with a key of ours, never the provider's."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    now = int(time.time())
    claims = {"iss": issuer, "sub": "mallory", "aud": resource, "exp": now + 600, "iat": now}
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": "forged", **header})


class _Memory:
    """The SDK client's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: Any = None
        self.client: Any = None

    async def get_tokens(self) -> Any:
        return self.tokens

    async def set_tokens(self, tokens: Any) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> Any:
        return self.client

    async def set_client_info(self, client_info: Any) -> None:
        self.client = client_info


@contextlib.asynccontextmanager
async def discovering_client(oidc: OIDCProvider, url: str) -> AsyncIterator[Client]:
    """The SDK client with its own OAuth support: it finds the provider
    through this server's 401 and metadata, and gets a token itself."""
    from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
    from mcp.client.streamable_http import streamable_http_client

    auth = ClientCredentialsOAuthProvider(
        server_url=url,
        storage=_Memory(),
        client_id=oidc.client_id,
        client_secret=oidc.client_secret,
        issuer=oidc.issuer,
    )
    async with (
        httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30, read=300)) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


async def test_refusals_challenges_metadata_and_rejected_records(
    oidc: OIDCProvider, tmp_path: Path
) -> None:
    tokens = tmp_path / "tokens.json"
    static = token_add(tokens, "ci")

    def args(resource: str) -> list[str]:
        return [
            "--tokens", str(tokens), "--auth", "oauth", "--issuer", oidc.issuer,
            "--audience", resource, "--required-scope", "read",
        ]  # fmt: skip

    with harbor(tmp_path, args) as server:
        resource = server.resource
        origin = resource.removesuffix("/mcp")
        prm = f"{origin}/.well-known/oauth-protected-resource"
        expected: Counter[str] = Counter()
        with httpx2.Client(timeout=30) as http:
            for url in (prm, f"{prm}/mcp"):
                meta = http.get(url).json()
                assert meta["resource"] == resource
                assert meta["authorization_servers"] == [oidc.issuer]
                assert meta["scopes_supported"] == ["read"]
            missing = http.post(server.url, headers=_headers(None), content=_call())
            assert missing.status_code == 401
            assert missing.headers["www-authenticate"] == (
                f'Bearer resource_metadata="{prm}/mcp", scope="read"'
            )
            expected["401 missing token"] += 1
            refused = {
                "wrong audience": oidc.client_credentials_token(resource=OTHER_RESOURCE),
                "expired token": oidc.expired_token(resource=resource),
                "bad signature": _tampered(oidc.client_credentials_token(resource=resource)),
                "wrong issuer": _forged("https://evil.example", resource),
                "unknown key": _forged(oidc.issuer, resource),
                "algorithm not allowed": _none(oidc.client_credentials_token(resource=resource)),
                "malformed token": static,  # --auth oauth alone: no static tokens
            }
            for reason, token in refused.items():
                answer = http.post(server.url, headers=_headers(token), content=_call())
                assert answer.status_code == 401, (reason, answer.text)
                challenge = answer.headers["www-authenticate"]
                assert challenge.startswith('Bearer error="invalid_token"'), challenge
                assert f'error_description="{reason}"' in challenge
                assert f'resource_metadata="{prm}/mcp"' in challenge
                expected[f"401 {reason}"] += 1
            scant = oidc.client_credentials_token(scope="deploy", resource=resource)
            answer = http.post(server.url, headers=_headers(scant), content=_call())
            assert answer.status_code == 403
            challenge = answer.headers["www-authenticate"]
            assert 'error="insufficient_scope"' in challenge and 'scope="read"' in challenge
            expected["403 insufficient scope"] += 1
            # Still serving, to the SDK's own OAuth client: discovery from the 401.
        async with discovering_client(oidc, server.url) as client:
            out = text_of(await client.call_tool("whoami", {}))
        assert "HARBOR_CALLER_PRINCIPAL=oauth:ci-bot" in out
        expected["401 missing token"] += 1  # the SDK client's first try
        log = server.stderr()
        for reason in expected:
            assert reason in log, reason
        server.stop()
    records = audit_json(server.db, "--status", "rejected")
    reasons: Counter[str] = Counter()
    for record in records:
        reasons.update(record["rejected"]["reasons"])
    assert reasons == expected, records
    assert all(t not in json.dumps(records) for t in refused.values())


def _tampered(token: str) -> str:
    head, body, sig = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["sub"] = "root"
    return f"{head}.{_b64(json.dumps(claims).encode())}.{sig}"


def _none(token: str) -> str:
    _, body, _ = token.split(".")
    return f"{_b64(json.dumps({'alg': 'none', 'typ': 'at+jwt'}).encode())}.{body}."


async def test_auth_config_file_and_key_rotation(
    private_oidc: OIDCProvider, tmp_path: Path
) -> None:
    oidc = private_oidc
    config = tmp_path / "auth.yaml"

    def args(resource: str) -> list[str]:
        config.write_text(
            f"audience: {resource}\n"
            "jwks_refresh_bound: 0\n"
            "issuers:\n"
            "  - name: idp\n"
            f"    issuer: {oidc.issuer}\n"
            "    groups_claim: groups\n"
        )
        return ["--auth", "oauth", "--auth-config", str(config)]

    with harbor(tmp_path, args) as server:
        before = oidc.auth_code_token("alice", "read", server.resource)
        async with bearer_client(server.url, before, "auto") as client:
            assert "HARBOR_CALLER_PRINCIPAL=idp:alice" in text_of(
                await client.call_tool("whoami", {})
            )
            assert "ops_only" in {t.name for t in (await client.list_tools()).tools}
        old_kid = jwt.get_unverified_header(before)["kid"]
        new_kid = oidc.rotate_keys()
        after = oidc.auth_code_token("alice", "read", server.resource)
        assert jwt.get_unverified_header(after)["kid"] == new_kid != old_kid
        for token in (after, before):  # the new key, and the old one still published
            async with bearer_client(server.url, token, "auto") as client:
                out = text_of(await client.call_tool("whoami", {}))
            assert "HARBOR_CALLER_PRINCIPAL=idp:alice" in out, server.stderr()[-2000:]


DEPLOY = """
    name: deploy
    description: Deploys once an admin said yes.
    confirm: "Deploy?"
    approvers: ["scope:admin"]
    approval_timeout: 30
    steps:
      - name: a
        run: echo deployed
"""


async def test_approvers_by_scope_answer_over_http(oidc: OIDCProvider, tmp_path: Path) -> None:
    def args(resource: str) -> list[str]:
        return ["--auth", "oauth", "--issuer", oidc.issuer, "--audience", resource]

    with harbor(tmp_path, args, ("deploy", DEPLOY)) as server:
        base = server.url.removesuffix("/mcp")
        caller = oidc.auth_code_token("alice", "read", server.resource)
        admin = oidc.auth_code_token("bob", "read admin", server.resource)
        plain = oidc.auth_code_token("carol", "read", server.resource)
        results: list[Any] = []
        async with bearer_client(server.url, caller, "legacy") as client:

            async def call() -> None:
                results.append(await client.call_tool("deploy", {}))

            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                with anyio.fail_after(20):
                    while not (
                        pending := await anyio.to_thread.run_sync(approvals_json, server.db)
                    ):
                        await anyio.sleep(0.1)
                (item,) = pending
                assert item["principal"] == "oauth:alice"
                async with httpx2.AsyncClient(timeout=30) as http:
                    url = f"{base}/approvals/{item['run_id']}"
                    body = {"decision": "approve"}
                    for token, status in ((plain, 403), (caller, 403), (admin, 200)):
                        answer = await http.post(
                            url, json=body, headers={"Authorization": f"Bearer {token}"}
                        )
                        assert answer.status_code == status, answer.text
                    assert answer.json()["by"] == "oauth:bob"
        (result,) = results
        assert "deployed" in text_of(result), text_of(result)
