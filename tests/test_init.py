"""``mcp-harbor init`` (issue 21): a project's first exports pass the
checker, the registrations it prints start a real server on them that the
SDK client lists and calls, and it never overwrites a file."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import MODES, PY, harbor_cli, server_env, text_of
from mcp import Client, StdioServerParameters

STARTERS = ("list_files.yaml", "run_tests.yaml")


def _registrations(stdout: str) -> tuple[list[str], dict[str, Any]]:
    """The Claude Code command (split) and the Claude Desktop entry printed by init."""
    (code_line,) = [
        line.strip() for line in stdout.splitlines() if line.strip().startswith("claude mcp add")
    ]
    desktop = json.loads(stdout[stdout.index("\n{") :])
    return shlex.split(code_line), desktop


async def _list_and_call(
    command: str, args: list[str], state: Path, mode: str
) -> tuple[set[str], str]:
    params = StdioServerParameters(command=command, args=args, env=server_env(state))
    async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
        listing = await client.list_tools()
        result = await client.call_tool("list_files", {"depth": 1})
    assert not result.is_error, text_of(result)
    return {t.name for t in listing.tools}, text_of(result)


@pytest.mark.parametrize("mode", MODES)
def test_init_writes_checked_exports_and_the_registration_serves_them(
    tmp_path: Path, mode: str
) -> None:
    project = tmp_path / "new project"  # a space: the printed command must quote it
    proc = harbor_cli("init", str(project), state=tmp_path / "state")
    exports = project / "exports"
    for name in STARTERS:
        assert f"created {exports / name}" in proc.stderr
        assert (exports / name).read_text().startswith("# An example export")
    harbor_cli("check", str(exports))  # exit 0: both accepted

    code, desktop = _registrations(proc.stdout)
    entry = desktop["mcpServers"]["harbor"]
    serve = ["serve", "--exports", str(exports), "--workdir", str(project)]
    assert entry["command"] == PY
    assert entry["args"] == ["-m", "mcp_harbor", *serve]
    assert code == ["claude", "mcp", "add", "harbor", "--", PY, "-m", "mcp_harbor", *serve]

    (project / "src").mkdir()
    names, listed = anyio.run(
        _list_and_call, entry["command"], entry["args"], tmp_path / "state", mode
    )
    assert names == {"list_files", "run_tests"}
    assert "./exports/" in listed and "./src/" in listed


def test_the_example_run_tests_runs_a_projects_pytest_with_its_filter(tmp_path: Path) -> None:
    project = tmp_path / "project"
    harbor_cli("init", str(project))
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text(
        "def test_parser():\n    assert True\n\ndef test_other():\n    assert True\n"
    )
    # python3 of the step's PATH is this interpreter's, which has pytest.
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    argv = ["run", "run_tests", "filter=parser", "path=tests"]
    where = ["--exports", str(project / "exports"), "--workdir", str(project)]
    proc = harbor_cli(*argv, *where, state=tmp_path / "state", PATH=path)
    assert "1 passed, 1 deselected" in proc.stdout
    assert not (project / ".pytest_cache").exists()


def test_init_names_the_mcp_harbor_script_it_was_started_as(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "mcp-harbor"
    assert script.is_file(), "the README's install puts mcp-harbor beside python"
    proc = subprocess.run(
        [str(script), "init", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    code, desktop = _registrations(proc.stdout)
    assert desktop["mcpServers"]["harbor"]["command"] == str(script)
    assert code[5:7] == [str(script), "serve"]


def test_init_never_overwrites_a_file(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    mine = exports / "list_files.yaml"
    mine.write_text("name: mine\n")
    proc = harbor_cli("init", str(tmp_path))
    assert f"kept {mine} (it exists; not overwritten)" in proc.stderr
    assert f"created {exports / 'run_tests.yaml'}" in proc.stderr
    assert mine.read_text() == "name: mine\n"

    again = harbor_cli("init", str(tmp_path))  # everything there: kept, exit 0
    assert again.stderr.count("kept ") == 2 and "created" not in again.stderr
    assert mine.read_text() == "name: mine\n"


def test_init_into_a_dangling_symlink_writes_nothing_through_it(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    target = tmp_path / "elsewhere.yaml"
    (exports / "run_tests.yaml").symlink_to(target)
    proc = harbor_cli("init", str(tmp_path))
    assert "kept" in proc.stderr and not target.exists()


@pytest.mark.parametrize("where", ["directory", "exports"])
def test_init_on_a_file_says_so_in_one_line(tmp_path: Path, where: str) -> None:
    if where == "directory":
        project = tmp_path / "a-file"
        project.write_text("")
        culprit = project
    else:
        project = tmp_path
        culprit = tmp_path / "exports"
        culprit.write_text("")
    proc = harbor_cli("init", str(project), check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"{culprit}: not a folder; give mcp-harbor init a folder (or a new path)"
    )
    assert proc.stdout == ""
