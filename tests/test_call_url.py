"""Issue 21: ``mcp-harbor call --url URL`` calls a running HTTP server, and
``call --workdir DIR`` says where a local call's steps run.

Real parts only: ``mcp-harbor serve --transport http --tokens`` with tokens
made by ``mcp-harbor token add``, and the ``mcp-harbor call`` command as a
subprocess. The envelope ``call --url --json`` prints has the keys, in the
order, of a local call's; a refused token is one line and exit 2; the local
server's options are refused with ``--url``, never ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from harbor_helpers import (
    HttpServer,
    harbor_cli,
    http_server,
    parallel,
    token_add,
    write_export,
)

WHOAMI = """
    name: whoami
    description: Says who called, and reports progress.
    args:
      count: {type: integer}
    steps:
      - name: show
        run: |
          echo '50% asking' >> "$HARBOR_PROGRESS"
          sleep 0.3
          echo "principal=$HARBOR_CALLER_PRINCIPAL count=$ARG_count"
"""

WHERE = """
    name: where
    description: Prints where its step runs.
    steps:
      - name: here
        run: pwd
"""


@dataclass
class Env:
    exports: Path
    state: Path
    token: str
    server: HttpServer


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    root = tmp_path_factory.mktemp("call-url")
    exports, state, tokens = root / "exports", root / "state", root / "tokens.json"
    write_export(exports, "whoami.yaml", WHOAMI)
    write_export(exports, "where.yaml", WHERE)
    token = token_add(tokens, "alice")
    with http_server(exports, state, "--tokens", str(tokens), "--db", str(root / "a.db")) as srv:
        yield Env(exports, state, token, srv)


def test_call_url_with_a_token_prints_the_same_envelope_as_a_local_call(env: Env) -> None:
    remote, local = parallel(
        lambda: harbor_cli(
            "call", "--url", env.server.url, "--token", env.token, "--json", "whoami", "count=5"
        ),
        lambda: harbor_cli(
            "call", "--exports", str(env.exports), "--json", "whoami", "count=5", state=env.state
        ),
    )
    over_url, here = json.loads(remote.stdout), json.loads(local.stdout)
    assert remote.stdout.count("\n") == 1
    assert list(over_url) == list(here)
    assert over_url["status"] == here["status"] == "ok"
    # count=5 was typed by the schema the server listed: an integer, as locally.
    assert "principal=alice count=5" in over_url["steps"][0]["stdout_tail"]
    assert "principal=local:" in here["steps"][0]["stdout_tail"]
    # The progress the step wrote, shown as locally.
    assert "whoami: show (1/1): 50% asking" in remote.stderr.splitlines()


def test_call_url_takes_the_token_from_the_environment_in_either_era(env: Env) -> None:
    proc = harbor_cli(
        "call", "--url", env.server.url, "--legacy", "whoami", MCP_HARBOR_TOKEN=env.token
    )
    assert "principal=alice" in proc.stdout


def test_a_server_that_is_not_there_is_one_line_and_exit_2() -> None:
    proc = harbor_cli("call", "--url", "http://127.0.0.1:1/mcp", "whoami", check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "call: cannot call http://127.0.0.1:1/mcp: All connection attempts failed"
    ]


@pytest.mark.parametrize("token", ["wrong-token", None])
def test_a_refused_token_is_one_line_and_exit_2(env: Env, token: str | None) -> None:
    extra = ["--token", token] if token is not None else []
    proc = harbor_cli(
        "call", "--url", env.server.url, *extra, "whoami", check=False, MCP_HARBOR_TOKEN=""
    )
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "refused" in lines[0] and "HTTP 401" in lines[0] and "--token" in lines[0]


def test_an_unknown_tool_over_url_names_what_the_server_offers(env: Env) -> None:
    proc = harbor_cli("call", "--url", env.server.url, "--token", env.token, "nosuch", check=False)
    assert proc.returncode == 2
    assert (
        proc.stderr.strip() == "unknown tool 'nosuch'; the server offers this caller: where, whoami"
    )


@pytest.mark.parametrize(
    "flags",
    [("--exports", "exports"), ("--workdir", "."), ("--programs", "p.yaml")],
)
def test_local_options_with_url_are_refused(env: Env, flags: tuple[str, str]) -> None:
    proc = harbor_cli("call", "--url", env.server.url, *flags, "whoami", check=False)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and flags[0] in lines[0] and "--url" in lines[0], proc.stderr


def test_a_token_without_url_is_refused(env: Env) -> None:
    proc = harbor_cli("call", "--exports", str(env.exports), "--token", "t", "whoami", check=False)
    assert proc.returncode == 2
    assert "--token applies to --url only" in proc.stderr


def test_workdir_changes_where_a_local_call_runs(env: Env, tmp_path: Path) -> None:
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    moved = harbor_cli(
        "call",
        "--exports",
        str(env.exports),
        "--workdir",
        str(workdir),
        "--json",
        "where",
        state=env.state,
    )
    default = harbor_cli("call", "--exports", str(env.exports), "--json", "where", state=env.state)
    moved_step = json.loads(moved.stdout)["steps"][0]
    default_step = json.loads(default.stdout)["steps"][0]
    assert moved_step["cwd"] == str(workdir.resolve())
    assert moved_step["stdout_tail"].strip() == str(workdir.resolve())
    assert default_step["cwd"] == str(Path.cwd().resolve()) != moved_step["cwd"]
