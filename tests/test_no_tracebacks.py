"""Issue 21: no traceback on an ordinary mistake.

Each mistake a user can make is run through the real ``mcp-harbor`` command
(a subprocess): what it prints besides log lines is one clear line (what,
and how to fix it), never a traceback, and it exits 2 (a usage or
environment error). Celery's absence is real too: the worker runs with a
``celery`` package first on its path whose import fails, as an
uninstalled one does.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from harbor_helpers import harbor_cli, token_add, write_export

#: A line of the log (`mcp_harbor.cli._app.setup_logging`'s format).
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR) ")

HIDDEN = """
    name: hidden
    description: Only for carol.
    allow: [carol]
    steps:
      - name: a
        run: echo hi
"""


def the_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The one line the command printed besides its log, checked to be one."""
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.strip() and not LOG_LINE.match(line)]
    assert len(said) == 1, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    return said[0]


@pytest.fixture
def exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    write_export(folder, "hidden.yaml", HIDDEN)
    return folder


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield int(sock.getsockname()[1])


def test_call_of_a_tool_allow_hides(exports: Path, tmp_path: Path) -> None:
    proc = harbor_cli("call", "hidden", "--exports", str(exports), state=tmp_path, check=False)
    line = the_line(proc)
    assert line.startswith("hidden: local:"), line
    assert f"may not call this tool (allow: of {exports / 'hidden.yaml'})" in line, line


def test_serve_on_a_port_in_use(exports: Path, tmp_path: Path, taken_port: int) -> None:
    proc = harbor_cli(
        "serve", "--transport", "http", "--port", str(taken_port), "--exports", str(exports),
        "--db", str(tmp_path / "h.db"), "--tokens", str(tmp_path / "none.json"),
        state=tmp_path, check=False,
    )  # fmt: skip
    assert the_line(proc) == (
        f"cannot serve HTTP on 127.0.0.1:{taken_port}: Address already in use; another "
        f"process listens there: stop it, or pass another --port"
    )
    assert "serving MCP over HTTP" not in proc.stderr


def without_celery(tmp_path: Path) -> str:
    """A PYTHONPATH whose first entry is a ``celery`` package that cannot be
    imported, as when it is not installed (the rest: this process's)."""
    fake = tmp_path / "no-celery" / "celery"
    fake.mkdir(parents=True, exist_ok=True)
    (fake / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'celery'\", name='celery')\n"
    )
    return os.pathsep.join(p for p in (str(fake.parent), os.environ.get("PYTHONPATH")) if p)


def test_worker_without_celery(exports: Path, tmp_path: Path) -> None:
    proc = harbor_cli(
        "worker", "--queues", "build", "--broker", "redis://127.0.0.1:1/0",
        "--exports", str(exports), "--db", str(tmp_path / "h.db"),
        state=tmp_path, check=False, PYTHONPATH=without_celery(tmp_path),
    )  # fmt: skip
    line = the_line(proc)
    assert "No module named 'celery'" in line, line
    assert line.endswith("pip install 'mcp-harbor[scale]'"), line


def test_serve_on_an_address_not_this_hosts(exports: Path, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.json"
    token_add(tokens, "alice")
    proc = harbor_cli(
        "serve", "--transport", "http", "--host", "192.0.2.1", "--port", "8765",
        "--exports", str(exports), "--db", str(tmp_path / "h.db"), "--tokens", str(tokens),
        state=tmp_path, check=False,
    )  # fmt: skip
    assert the_line(proc) == (
        "cannot serve HTTP on 192.0.2.1:8765: Cannot assign requested address; pass a --host "
        "of this machine and a --port you may use"
    )


def test_serve_with_a_broker_without_celery(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(
        exports,
        "remote.yaml",
        """
        name: remote
        description: Runs on a worker.
        runs_on: build
        steps:
          - name: a
            run: echo hi
        """,
    )
    proc = harbor_cli(
        "serve", "--exports", str(exports), "--db", str(tmp_path / "h.db"),
        "--broker", "redis://127.0.0.1:1/0",
        state=tmp_path, check=False, PYTHONPATH=without_celery(tmp_path),
    )  # fmt: skip
    assert the_line(proc).endswith("pip install 'mcp-harbor[scale]'")


def test_exports_folder_missing(tmp_path: Path) -> None:
    proc = harbor_cli("tools", "--exports", str(tmp_path / "nope"), check=False)
    assert the_line(proc) == (
        f"invalid exports: {tmp_path / 'nope'}: no such file or folder; pass a folder of "
        f"export files"
    )


def test_tokens_file_in_a_folder_that_cannot_be(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    proc = harbor_cli("token", "add", "bob", "--tokens", str(blocker / "tokens.json"), check=False)
    assert the_line(proc) == (
        f"{blocker / 'tokens.json'}: cannot write the tokens file (File exists: {blocker}); "
        f"pass --tokens FILE in a folder you can write"
    )


def test_an_approval_seed_that_is_not_yaml(exports: Path, tmp_path: Path) -> None:
    seed = tmp_path / "seed.yaml"
    seed.write_text("- export: hidden\n  decision: [approve\n")
    proc = harbor_cli(
        "serve", "--exports", str(exports), "--db", str(tmp_path / "h.db"),
        "--approve-seed", str(seed), state=tmp_path, check=False,
    )  # fmt: skip
    assert the_line(proc) == (
        f"{seed}:3:1: the approval seed is not valid YAML: expected ',' or ']', but got "
        f"'<stream end>'"
    )


def test_a_port_out_of_range_is_a_usage_error(exports: Path, tmp_path: Path) -> None:
    proc = harbor_cli(
        "serve", "--transport", "http", "--port", "99999", "--exports", str(exports),
        state=tmp_path, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--port': 99999 is not in the range 0<=x<=65535."
    )


def test_a_db_where_a_file_is_in_the_way(exports: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    proc = harbor_cli(
        "run", "hidden", "--exports", str(exports), "--db", str(blocker / "h.db"),
        state=tmp_path, check=False,
    )  # fmt: skip
    assert the_line(proc) == (
        f"audit store {blocker / 'h.db'}: cannot open the database: File exists: {blocker}"
    )


def test_a_tokens_file_that_is_a_folder_is_a_usage_error(exports: Path, tmp_path: Path) -> None:
    proc = harbor_cli(
        "serve", "--transport", "http", "--exports", str(exports), "--db", str(tmp_path / "h.db"),
        state=tmp_path, check=False, MCP_HARBOR_TOKENS=str(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"Error: Invalid value for '--tokens': File '{tmp_path}' is a directory."
    )
