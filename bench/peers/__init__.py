"""The peers of the side-by-side benchmark, installed by the harness itself.

Each peer gets its own virtual environment under ``bench/.cache/peers/<name>``
(git-ignored), because the peers pin their own MCP SDK (mcp-shell-server pins
``mcp<2``); the harness drives every server with the *project's* SDK 2.3
client over stdio, so only the servers differ.

A peer that cannot be installed or started is returned with ``error`` set; the
harness prints that in the peer's row and carries on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

CACHE = Path(__file__).resolve().parent.parent / ".cache"
PEERS = CACHE / "peers"

#: Tool call = (tool name, arguments).
ToolCall = tuple[str, dict[str, Any]]


@dataclass
class Peer:
    name: str
    params: StdioServerParameters | None = None
    error: str | None = None
    version: str = "?"
    #: (text) -> the call that echoes `text`
    echo: Callable[[str], ToolCall] | None = None
    #: () -> the call that runs `sleep 0.5`
    sleep: Callable[[], ToolCall] | None = None
    #: (path) -> the call that prints the file at `path` (output volume)
    cat: Callable[[str], ToolCall] | None = None
    notes: list[str] = field(default_factory=list)


def _run(argv: list[str], log: Path, timeout: float = 900) -> None:
    with open(log, "ab") as sink:
        subprocess.run(argv, stdout=sink, stderr=subprocess.STDOUT, check=True, timeout=timeout)


def ensure_venv(name: str, requirement: str, progress: Callable[[str], None]) -> Path:
    """Create ``bench/.cache/peers/<name>`` and ``pip install`` `requirement`
    into it, once (a marker file remembers the requirement)."""
    venv = PEERS / name
    marker = venv / ".bench-installed"
    if marker.exists() and marker.read_text() == requirement:
        return venv
    PEERS.mkdir(parents=True, exist_ok=True)
    log = PEERS / f"{name}.install.log"
    log.write_text("")
    progress(f"installing {requirement} into {venv} (once; log: {log})")
    if not (venv / "bin" / "python").exists():
        _run([sys.executable, "-m", "venv", str(venv)], log)
    _run(
        [str(venv / "bin" / "pip"), "install", "--disable-pip-version-check", "-q", requirement],
        log,
    )
    marker.write_text(requirement)
    return venv


def _version(venv: Path, dist: str) -> str:
    out = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            f"import importlib.metadata as m; print(m.version('{dist}'), m.version('mcp'))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        return "?"
    pkg, sdk = out.stdout.split()
    return f"{dist} {pkg} (its SDK: mcp {sdk})"


def _server_env(extra: dict[str, str]) -> dict[str, str]:
    # The SDK's stdio client passes only a few variables by default: pass all.
    return {**os.environ, **extra}


def mcp_shell_server(progress: Callable[[str], None], output_limit: int) -> Peer:
    """``mcp-shell-server``: one generic ``shell_execute`` tool; the caller
    sends argv; ``ALLOW_COMMANDS`` is the allow-list."""
    peer = Peer("mcp-shell-server")
    try:
        venv = ensure_venv(peer.name, "mcp-shell-server", progress)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        peer.error = f"cannot install: {exc}"
        return peer
    peer.version = _version(venv, "mcp-shell-server")
    peer.params = StdioServerParameters(
        command=str(venv / "bin" / "mcp-shell-server"),
        args=[],
        env=_server_env(
            {
                "ALLOW_COMMANDS": "echo,sleep,cat",
                # default cap is 1 MiB of output; raise it for the output-volume row
                "MCP_SHELL_OUTPUT_LIMIT_BYTES": str(output_limit),
                "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": "120",
            }
        ),
    )
    peer.echo = lambda text: ("shell_execute", {"command": ["echo", text]})
    peer.sleep = lambda: ("shell_execute", {"command": ["sleep", "0.5"]})
    peer.cat = lambda path: ("shell_execute", {"command": ["cat", path], "timeout": 120})
    peer.notes.append("ALLOW_COMMANDS=echo,sleep,cat")
    return peer


SHELLMCP_YAML = """\
server:
  name: bench
  desc: mcp-harbor side-by-side benchmark
  version: "1.0.0"
tools:
  echo_text:
    cmd: "echo {{ text }}"
    desc: Echo a caller string
    args:
      - name: text
        help: the text
        type: string
  sleep_half:
    cmd: "sleep 0.5"
    desc: Sleep half a second
  cat_file:
    cmd: "cat {{ path }}"
    desc: Print a file
    args:
      - name: path
        help: the file
        type: string
"""


def shellmcp_generate(venv: Path, yaml_text: str, folder: Path) -> Path:
    """Write `yaml_text`, run ``shellmcp generate`` and return the server file."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "bench.yml"
    config.write_text(yaml_text)
    out = folder / "generated"
    subprocess.run(
        [str(venv / "bin" / "shellmcp"), "generate", str(config), "--output_dir", str(out)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    found = sorted(out.rglob("*server.py"))  # <server name>_server.py
    if not found:
        raise FileNotFoundError(f"shellmcp generate wrote no *server.py under {out}")
    return found[0]


def shellmcp(progress: Callable[[str], None], work: Path) -> Peer:
    """``shellmcp``: YAML-declared tools; the generated FastMCP server renders
    a Jinja2 command string and runs it with ``shell=True``. Started from the
    generated ``server.py`` (``shellmcp run`` prints banners to stdout, which
    is the stdio wire)."""
    peer = Peer("shellmcp")
    try:
        venv = ensure_venv(peer.name, "shellmcp", progress)
        server = shellmcp_generate(venv, SHELLMCP_YAML, work / "shellmcp")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        peer.error = f"cannot install or generate: {exc}"
        return peer
    peer.version = _version(venv, "shellmcp")
    peer.params = StdioServerParameters(
        command=str(venv / "bin" / "python"), args=[str(server)], env=_server_env({})
    )
    peer.echo = lambda text: ("echo_text", {"text": text})
    peer.sleep = lambda: ("sleep_half", {})
    peer.cat = lambda path: ("cat_file", {"path": path})
    peer.notes.append(
        "YAML tools echo_text/sleep_half/cat_file; `shellmcp generate`, then python server.py"
    )
    return peer


HARBOR_EXPORTS = {
    "echo_text.yaml": """\
        name: echo_text
        description: Echo a caller string.
        args:
          text: {type: string, maxLength: 1000}
        required: [text]
        steps:
          - name: echo
            run: echo "$ARG_text"
        """,
    "echo_argv.yaml": """\
        name: echo_argv
        description: Echo a caller string, exec'd with no shell.
        args:
          text: {type: string, maxLength: 1000}
        required: [text]
        steps:
          - name: echo
            argv: [echo, "{{ args.text }}"]
        """,
    "sleep_half.yaml": """\
        name: sleep_half
        description: Sleep half a second.
        steps:
          - name: sleep
            run: sleep 0.5
        """,
    "cat_file.yaml": """\
        name: cat_file
        description: Print a file.
        args:
          path: {type: string}
        required: [path]
        timeout: 600
        steps:
          - name: cat
            run: cat -- "$ARG_path"
        """,
    "nothing.yaml": """\
        name: nothing
        description: Run true.
        steps:
          - name: t
            run: "true"
        """,
    "nothing_argv.yaml": """\
        name: nothing_argv
        description: Run true, exec'd with no shell.
        steps:
          - name: t
            argv: ["true"]
        """,
}


def write_harbor_exports(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in HARBOR_EXPORTS.items():
        (folder / name).write_text(textwrap.dedent(text))
    return folder


def harbor_env(state: Path) -> dict[str, str]:
    return _server_env(
        {"XDG_STATE_HOME": str(state / "state"), "XDG_CONFIG_HOME": str(state / "config")}
    )


def harbor(work: Path, *extra: str, state: Path | None = None) -> Peer:
    """mcp-harbor itself, from this interpreter (the project's venv). Run
    directories and the audit DB go under `state` (default: `work`)."""
    peer = Peer("mcp-harbor")
    exports = write_harbor_exports(work / "harbor-exports")
    state = state or work
    peer.params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "mcp_harbor",
            "--log-level",
            "warning",
            "serve",
            "--exports",
            str(exports),
            "--runs-dir",
            str(state / "harbor-runs"),
            *extra,
        ],
        env=harbor_env(state),
    )
    try:
        import importlib.metadata as md

        peer.version = f"mcp-harbor {md.version('mcp-harbor')} (mcp {md.version('mcp')})"
    except Exception as exc:  # noqa: BLE001
        peer.notes.append(f"version unknown: {exc}")
    peer.echo = lambda text: ("echo_text", {"text": text})
    peer.sleep = lambda: ("sleep_half", {})
    peer.cat = lambda path: ("cat_file", {"path": path})
    return peer
