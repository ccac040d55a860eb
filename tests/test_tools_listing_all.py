"""Issue 21: no export vanishes without a trace.

``mcp-harbor tools`` (the real CLI) lists every export: the available ones
as ``tools/list`` entries with ``"available": true``, the others with
``"available": false`` and the reason (refused by the checker, preflight
failed, missing secret), in the text table too. A real ``serve`` logs each
unavailable export at WARNING once per start, and on reload once per change
(not again at every re-probe). ``--as PRINCIPAL`` (with ``--group`` and
``--tenant``) lists exactly what that caller's ``tools/list`` returns, for a
static token over HTTP (both eras), ``local:<user>`` over stdio and
``anonymous`` over HTTP without tokens.
"""

from __future__ import annotations

import getpass
import json
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    bearer_client,
    harbor_cli,
    http_server,
    stdio_client_env,
    stdio_client_of,
    token_add,
    write_export,
)

OK = """
    name: ok
    description: Always there.
    steps:
      - name: a
        run: echo ok
"""
REFUSED = """
    name: refused
    description: Splices its argument into the script.
    args:
      x: {type: string}
    steps:
      - name: a
        run: echo {{ args.x }}
"""
NEEDY = """
    name: needy
    description: Needs a program nobody has.
    steps:
      - name: a
        run: harbor-missing-xyz --go
"""
SECRETIVE = """
    name: secretive
    description: Needs a secret nobody set.
    secrets:
      TOKEN: {env: HARBOR_TEST_UNSET_SECRET}
    steps:
      - name: a
        run: echo "$TOKEN" > /dev/null
"""


@pytest.fixture
def exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    for name, text in (
        ("ok", OK),
        ("refused", REFUSED),
        ("needy", NEEDY),
        ("secretive", SECRETIVE),
    ):
        write_export(folder, f"{name}.yaml", text)
    return folder


def test_every_export_is_listed_with_its_reason(exports: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    proc = harbor_cli("tools", "--exports", str(exports), "--json", state=state)
    listing = json.loads(proc.stdout)["tools"]
    by_name = {t["name"]: t for t in listing}
    assert [t["name"] for t in listing] == ["ok", "needy", "refused", "secretive"]
    assert by_name["ok"]["available"] is True and "reason" not in by_name["ok"]
    assert "inputSchema" in by_name["ok"]  # a tools/list entry
    refused = by_name["refused"]
    assert refused["available"] is False
    assert refused["description"] == "Splices its argument into the script."
    assert refused["reason"].startswith(
        "refused by the checker: refused: step 'a', line 7, column "
    ), refused
    assert "[H001 unsafe-raw-placeholder]" in refused["reason"]
    assert refused["reason"].endswith(
        f"(mcp-harbor check {exports / 'refused.yaml'} shows the fixes)"
    )
    assert by_name["needy"] == {
        "name": "needy",
        "description": "Needs a program nobody has.",
        "available": False,
        "reason": "preflight failed: program 'harbor-missing-xyz' is not on PATH "
        f"(needed at {exports / 'needy.yaml'}:5)",
    }
    assert by_name["secretive"]["reason"] == (
        "missing secret TOKEN: environment variable HARBOR_TEST_UNSET_SECRET is not set or "
        f"empty (needed at {exports / 'secretive.yaml'}:4)"
    )
    assert "serve refuses to start while the checker refuses an export" in proc.stderr
    # The table says the same; --skip-refused leaves the refused one out.
    text = harbor_cli("tools", "--exports", str(exports), state=state, COLUMNS="400").stdout
    assert "1 tools" in text and "3 unavailable" in text
    assert "preflight failed: program 'harbor-missing-xyz' is not on PATH" in text
    assert "missing secret TOKEN" in text and "refused by the checker" in text
    proc = harbor_cli("tools", "--exports", str(exports), "--json", "--skip-refused", state=state)
    names = [t["name"] for t in json.loads(proc.stdout)["tools"]]
    assert names == ["ok", "needy", "secretive"]


@pytest.mark.anyio
async def test_serve_says_each_unavailable_export_once(exports: Path, tmp_path: Path) -> None:
    errlog_path = tmp_path / "server.stderr"
    extra = ("--skip-refused", "--watch", "--preflight-interval", "0.2")
    extra += ("--db", str(tmp_path / "h.db"))
    with open(errlog_path, "w") as errlog:
        client = stdio_client_env(
            exports, tmp_path / "state", "auto", *extra, env={}, errlog=errlog
        )
        async with client:
            assert [t.name for t in (await client.list_tools()).tools] == ["ok"]
            await anyio.sleep(1.2)  # rounds of re-probing: nothing changed, nothing said
            (exports / "needy.yaml").write_text(
                (exports / "needy.yaml").read_text().replace("harbor-missing-xyz", "harbor-gone-q")
            )
            deadline = time.monotonic() + 10
            while "harbor-gone-q" not in errlog_path.read_text() and time.monotonic() < deadline:
                await anyio.sleep(0.1)
            await anyio.sleep(0.8)  # more rounds: the change is said once
    lines = errlog_path.read_text().splitlines()

    def said(text: str) -> list[str]:
        return [line for line in lines if text in line]

    for name in ("needy", "refused", "secretive"):
        first = said(f"not offering {name}: ")
        assert len(first) == (2 if name == "needy" else 1), (name, lines)
        assert all(" WARNING " in line for line in first), first
    assert said("not offering needy: preflight failed: program 'harbor-missing-xyz'")
    assert len(said("not offering needy: preflight failed: program 'harbor-gone-q'")) == 1
    assert said("reload: the checker refused") == []  # unchanged since the start said it


# --- --as PRINCIPAL --------------------------------------------------------------------

ALLOWED = {
    "everyone": '["*"]',
    "alice_only": "[alice]",
    "ops": '["group:ops"]',
    "acme": '["tenant:acme"]',
    "mine": f'["local:{getpass.getuser()}"]',
    "nobody_here": "[carol]",
}


@pytest.fixture
def ruled(tmp_path: Path) -> Path:
    folder = tmp_path / "ruled"
    for name, allow in ALLOWED.items():
        text = f"name: {name}\ndescription: d {name}\nallow: {allow}\n"
        write_export(folder, f"{name}.yaml", text + "steps:\n  - name: a\n    run: echo hi\n")
    lacking = "name: lacking\ndescription: d\nallow: [alice]\nsteps:\n  - name: a\n"
    write_export(folder, "lacking.yaml", lacking + "    run: harbor-missing-xyz --go\n")
    return folder


def as_listing(folder: Path, state: Path, *who: str) -> list[dict[str, Any]]:
    """``tools --as … --json``: the available entries (``available`` dropped),
    after checking that each unavailable one is one this caller may see."""
    proc = harbor_cli("tools", "--exports", str(folder), "--json", "--as", *who, state=state)
    entries = json.loads(proc.stdout)["tools"]
    return [{k: v for k, v in e.items() if k != "available"} for e in entries if e["available"]]


def dumped(tools: list[Any], mode: str = "auto") -> list[dict[str, Any]]:
    """The tools as `mcp-harbor tools --json` lists them: in the handshake
    era without ``execution`` (2025-11-25 tasks), which each tool has."""
    out = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    if mode == "legacy":
        assert all(t.pop("execution") == {"taskSupport": "optional"} for t in out), out
    return out


@pytest.mark.anyio
async def test_as_a_token_is_its_tools_list(ruled: Path, tmp_path: Path) -> None:
    tokens, state = tmp_path / "tokens.json", tmp_path / "state"
    tok = {
        "alice": token_add(tokens, "alice", "--tenant", "acme", "--group", "ops"),
        "bob": token_add(tokens, "bob"),
    }
    # The token's tenant and groups come from the tokens file...
    expected = {who: as_listing(ruled, state, who, "--tokens", str(tokens)) for who in tok}
    assert [t["name"] for t in expected["alice"]] == ["acme", "alice_only", "everyone", "ops"]
    assert [t["name"] for t in expected["bob"]] == ["everyone"]
    # ... or, for a token not there (yet), from --group and --tenant.
    elsewhere = ("--tokens", str(tmp_path / "other.json"), "--group", "ops", "--tenant", "acme")
    assert as_listing(ruled, state, "alice", *elsewhere) == expected["alice"]
    proc = harbor_cli(
        "tools", "--exports", str(ruled), "--json", "--as", "alice",
        "--tokens", str(tmp_path / "other.json"), state=state,
    )  # fmt: skip
    lacking = [t for t in json.loads(proc.stdout)["tools"] if not t["available"]]
    assert [t["name"] for t in lacking] == ["lacking"]  # alice would see it: marked
    assert f"no token 'alice' in {tmp_path / 'other.json'}" in proc.stderr
    assert "4 of 6 tools are hidden from alice by allow:" in proc.stderr
    extra = ("--tokens", str(tokens), "--db", str(tmp_path / "h.db"))
    with http_server(ruled, state, *extra) as server:
        for mode in MODES:
            for who, token in tok.items():
                async with bearer_client(server.url, token, mode) as client:
                    seen = dumped((await client.list_tools()).tools, mode)
                assert seen == expected[who], (mode, who)
    # What contradicts the tokens file is refused.
    proc = harbor_cli(
        "tools", "--exports", str(ruled), "--as", "alice", "--tenant", "other",
        "--tokens", str(tokens), check=False,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "token 'alice' in" in proc.stderr and "has tenant 'acme' and groups ops" in proc.stderr


@pytest.mark.anyio
async def test_as_local_is_the_stdio_tools_list(ruled: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    expected = as_listing(ruled, state, f"local:{getpass.getuser()}")
    assert [t["name"] for t in expected] == ["everyone", "mine"]
    for mode in MODES:
        async with stdio_client_of(ruled, state, mode, "--db", str(tmp_path / "h.db")) as client:
            assert dumped((await client.list_tools()).tools, mode) == expected, mode


@pytest.mark.anyio
async def test_as_anonymous_is_the_tokenless_http_tools_list(ruled: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    expected = as_listing(ruled, state, "anonymous")
    assert [t["name"] for t in expected] == ["everyone"]
    extra = ("--tokens", str(tmp_path / "no-tokens.json"), "--db", str(tmp_path / "h.db"))
    with http_server(ruled, state, *extra) as server:
        async with bearer_client(server.url, None, "auto") as client:
            assert dumped((await client.list_tools()).tools) == expected


@pytest.mark.parametrize(
    ("who", "said"),
    [
        (["local:"], "local: needs the user after it"),
        (["has space"], "token name 'has space' is invalid"),
        (["local:me", "--group", "ops"], "--group and --tenant describe a static token"),
        (["anonymous", "--tenant", "acme"], "--group and --tenant describe a static token"),
    ],
)
def test_as_refuses_what_no_server_resolves(
    ruled: Path, tmp_path: Path, who: list[str], said: str
) -> None:
    proc = harbor_cli("tools", "--exports", str(ruled), "--as", *who, check=False)
    assert proc.returncode == 2, proc.stderr
    assert said in proc.stderr and "Traceback" not in proc.stderr
