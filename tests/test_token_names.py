"""Issue 20, item 4: a token's name is its principal, so it cannot collide
with another kind of principal. ``mcp-harbor token add`` refuses
``anonymous`` (every caller of a loopback server without tokens) and names
with ``:`` (``local:USER``, ``group:``, ``tenant:``) with exit code 2 and a
clear message; a hand-edited tokens file is validated when it is loaded,
and a bad entry is a clear startup error naming the file and the entry,
never a traceback."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import free_port, harbor_cli, serve_argv, server_env, write_export

from mcp_harbor.errors import ConfigError
from mcp_harbor.server.auth import TokensFile

PING = """
    name: ping
    description: Does nothing.
    steps:
      - name: a
        run: echo pong
"""

SHA = "0" * 64


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("anonymous", "token name 'anonymous' is reserved"),
        ("Anonymous", "token name 'Anonymous' is reserved"),
        ("local:root", "a ':' marks other kinds of principal (local:USER, group:NAME"),
        ("group:ops", "a ':' marks other kinds of principal"),
        ("tenant:acme", "a ':' marks other kinds of principal"),
    ],
)
def test_token_add_refuses_names_of_other_principals(tmp_path: Path, name: str, words: str) -> None:
    tokens = tmp_path / "tokens.json"
    proc = harbor_cli("token", "add", name, "--tokens", str(tokens), check=False)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not tokens.exists()


def serve_with(tmp_path: Path, tokens: Path) -> subprocess.CompletedProcess[str]:
    exports = tmp_path / "exports"
    write_export(exports, "ping.yaml", PING)
    argv = serve_argv(
        exports, "--transport", "http", "--port", str(free_port()),
        "--tokens", str(tokens), "--db", str(tmp_path / "a.db"),
    )  # fmt: skip
    return subprocess.run(
        argv, env=server_env(tmp_path / "state"), capture_output=True, text=True, timeout=30
    )


def entry(**fields: Any) -> dict[str, Any]:
    return {"name": "alice", "tenant": "default", "groups": [], "sha256": SHA, **fields}


BAD: dict[str, tuple[Any, str]] = {
    "anonymous": (entry(name="anonymous"), "tokens[1] ('anonymous'): token name 'anonymous' is reserved"),  # noqa: E501
    "colon": (entry(name="local:root"), "tokens[1] ('local:root'): token name 'local:root' is invalid: a ':'"),  # noqa: E501
    "not-an-object": ("alice", "tokens[1]: must be an object with name, sha256"),
    "no-name": ({"sha256": SHA}, "tokens[1]: name must be a string"),
    "no-sha256": ({"name": "carol"}, "tokens[1] ('carol'): sha256 must be the token's SHA-256"),
    "groups-a-string": (entry(name="carol", groups="ops"), "tokens[1] ('carol'): groups must be a list"),  # noqa: E501
    "bad-tenant": (entry(name="carol", tenant="a b"), "tokens[1] ('carol'): tenant must be"),
    "duplicate": (entry(name="bob"), "tokens[1] ('bob'): the name 'bob' is also tokens[0]"),
    "newline-name": (entry(name="x\nFORGED"), "tokens[1] ('x\\\\nFORGED'): token name"),
}  # fmt: skip


def bad_file(tmp_path: Path, case: str) -> Path:
    """A tokens file with bob's entry, edited by hand: `case`'s entry added."""
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"version": 1, "tokens": [entry(name="bob"), BAD[case][0]]}))
    return tokens


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_entry_of_a_hand_edited_file_is_refused_by_name(tmp_path: Path, case: str) -> None:
    tokens = bad_file(tmp_path, case)
    with pytest.raises(ConfigError) as refused:
        TokensFile(tokens).load()
    assert f"{tokens}: {BAD[case][1]}" in str(refused.value)
    assert "fix or remove the entry" in str(refused.value)


def test_a_bad_entry_is_a_clear_startup_error_and_token_list_says_so(tmp_path: Path) -> None:
    tokens = bad_file(tmp_path, "anonymous")
    words = BAD["anonymous"][1]
    proc = serve_with(tmp_path, tokens)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"{tokens}: {words}" in proc.stderr, proc.stderr
    assert "fix or remove the entry" in proc.stderr
    assert "serving MCP over HTTP" not in proc.stderr
    # `token list` says the same, and exits 2.
    listed = harbor_cli("token", "list", "--tokens", str(tokens), check=False)
    assert listed.returncode == 2 and words in listed.stderr, listed.stderr


@pytest.mark.parametrize("text", ['{"tokens": 5}', "[]", '{"tokens": ["a", 1]}'])
def test_a_malformed_file_names_the_file(tmp_path: Path, text: str) -> None:
    tokens = tmp_path / "tokens.json"
    tokens.write_text(text)
    proc = serve_with(tmp_path, tokens)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"{tokens}: " in proc.stderr
