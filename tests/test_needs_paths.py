"""Issue 21: relative ``needs:`` paths resolve the way the step will.

A step runs in its ``cwd:`` (relative to the export file's folder), or in the
server's ``--workdir`` when it has none; preflight looks for a relative
``needs:`` file or program, and for a program a step runs by a path
(``./scripts/deploy.sh``), exactly there. When the steps run in different
folders, a ``needs:`` entry is met when it is in one of them. The real CLI
(``mcp-harbor tools``) and a real server (stdio, both eras) are asked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harbor_helpers import MODES, harbor_cli, stdio_client_of, text_of, write_export

from mcp_harbor.config import load_export
from mcp_harbor.preflight import Preflight

DEPLOY = """
    name: deploy
    description: Deploys from the repository's root.
    needs:
      files: [./scripts/deploy.sh]
      programs: [./scripts/deploy.sh]
    steps:
      - name: go
        cwd: ..
        run: ./scripts/deploy.sh
"""


def availability(exports: Path, state: Path, *extra: str) -> dict[str, dict[str, object]]:
    """``mcp-harbor tools --json``: each export's entry by name."""
    proc = harbor_cli("tools", "--exports", str(exports), "--json", *extra, state=state)
    return {t["name"]: t for t in json.loads(proc.stdout)["tools"]}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with its deploy script at the root and its exports below."""
    root = tmp_path / "repo"
    script = root / "scripts" / "deploy.sh"
    script.parent.mkdir(parents=True)
    script.write_text('#!/bin/sh\necho "deployed from $(pwd)"\n')
    script.chmod(0o755)
    write_export(root / "exports", "deploy.yaml", DEPLOY)
    return root


def test_needs_resolve_against_the_steps_cwd(repo: Path, tmp_path: Path) -> None:
    export = load_export(repo / "exports" / "deploy.yaml")
    verdict = Preflight(workdir=tmp_path).verdict(export)
    assert verdict.ready, verdict.describe()
    listed = availability(repo / "exports", tmp_path / "state")
    assert listed["deploy"]["available"] is True, listed
    # Gone from where the step runs: unavailable, naming the path looked for.
    (repo / "scripts" / "deploy.sh").unlink()
    listed = availability(repo / "exports", tmp_path / "state")
    assert listed["deploy"]["available"] is False
    reason = str(listed["deploy"]["reason"])
    assert reason.startswith("preflight failed: "), reason
    assert f"{repo / 'scripts' / 'deploy.sh'} does not exist" in reason, reason
    assert f"program {repo / 'scripts' / 'deploy.sh'} does not exist or is not executable" in (
        reason
    )


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_the_server_offers_and_runs_it(repo: Path, tmp_path: Path, mode: str) -> None:
    extra = ("--db", str(tmp_path / "h.db"))
    async with stdio_client_of(repo / "exports", tmp_path / "state", mode, *extra) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["deploy"]
        result = await client.call_tool("deploy", {})
        assert result.is_error is False, text_of(result)
        assert f"deployed from {repo}" in text_of(result)


def test_steps_without_cwd_look_in_the_workdir(tmp_path: Path) -> None:
    exports, work = tmp_path / "exports", tmp_path / "work"
    work.mkdir()
    (work / "settings.ini").write_text("x")
    write_export(
        exports,
        "reads.yaml",
        """
        name: reads
        description: Reads the project's settings.
        needs: {files: [settings.ini]}
        steps:
          - name: a
            run: cat settings.ini
        """,
    )
    state = tmp_path / "state"
    assert availability(exports, state, "--workdir", str(work))["reads"]["available"] is True
    # Not the export file's folder: a step without cwd: never runs there.
    (exports / "settings.ini").write_text("x")
    listed = availability(exports, state, "--workdir", str(tmp_path))
    assert listed["reads"]["available"] is False
    assert f"{tmp_path / 'settings.ini'} does not exist" in str(listed["reads"]["reason"])


def test_steps_in_different_folders_need_it_in_one(tmp_path: Path) -> None:
    exports, first, second = tmp_path / "exports", tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (second / "marker").write_text("x")
    path = write_export(
        exports,
        "two.yaml",
        """
        name: two
        description: Two steps, two folders.
        needs: {files: [marker], programs: [./run.sh]}
        steps:
          - name: one
            cwd: ../a
            run: ls
          - name: other
            cwd: ../b
            run: cat marker
        """,
    )
    (first / "run.sh").write_text("#!/bin/sh\n")
    (first / "run.sh").chmod(0o755)
    export = load_export(path)
    assert Preflight(workdir=tmp_path).verdict(export).ready
    (second / "marker").unlink()
    (first / "run.sh").chmod(0o644)
    verdict = Preflight(workdir=tmp_path).verdict(export)
    assert not verdict.ready
    folders = f"the folders the steps run in ({first}, {second}) (needed at {path}:3)"
    assert verdict.describe() == (
        f"program ./run.sh is executable in none of {folders}; marker is in none of {folders}"
    )
