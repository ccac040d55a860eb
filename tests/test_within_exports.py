"""Issue 19: every shipped export that takes a path confines it to the
server's working directory (``within: "."``).

The shipped export files, loaded as the server loads them, called through
the one call path (`CallService.call`) with real bash, real du/df/git/grep/
find and a real SQLite audit trail, in a working directory that holds a git
repository, a symlink pointing out of it and a file outside it with a marker
the output must never show. Per export: an inside path runs, ``../``, an
absolute path outside (``/etc``) and the symlink (and paths through it) are
refused as ``invalid`` with nothing run and a message naming the arg and the
folder; the folder itself given as an absolute path runs. Then the same
through a real ``mcp-harbor serve --workdir`` over stdio, a working directory
reached through a symlink, and the two program quirks the exports close:
``cd`` reading ``$CDPATH`` (list_tree) and git's pathspec magic (git_log).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import MODES, audit_records, stdio_client_of, text_of

from mcp_harbor.config import Export, load_exports
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import CallRequest, CallService, Envelope, ExportCatalog, RunSettings
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

SHIPPED = Path(__file__).resolve().parent.parent / "exports"
MARKER = "OUTSIDE-MARKER-7f3a"  # only in the file outside the working directory
INSIDE = "INSIDE-LINE-19"  # in a file inside it
CALLER = Caller(transport="stdio", principal="local:tester", session="stdio:within")

#: Each shipped export with a path arg: the other args a call needs.
PATH_EXPORTS: dict[str, dict[str, Any]] = {
    "disk_usage": {},
    "git_log": {},
    "list_tree": {},
    "search_text": {"pattern": "LINE"},
}


@dataclass
class Tree:
    root: Path  # the git repository; holds top.txt, committed
    work: Path  # the server's working directory: root/work
    outside: Path  # beside the repository, with MARKER in secret.txt


def _git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    base = tmp_path_factory.mktemp("within")
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"{MARKER} LINE\n")
    root = base / "repo"
    work = root / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "a.txt").write_text(f"{INSIDE}\n")
    (root / "top.txt").write_text("top\n")
    (work / "escape").symlink_to(outside)  # inside the working directory, pointing out
    (work / "escape_rel").symlink_to("../../outside")
    (work / "inner").symlink_to("src")  # pointing in: fine
    _git(root, "init", "-q")
    _git(root, "add", "top.txt")
    _git(root, "commit", "-q", "-m", "commit-of-top-outside-work")
    _git(root, "add", "work/src/a.txt")
    _git(root, "commit", "-q", "-m", "commit-of-src-inside-work")
    return Tree(root, work, outside)


@pytest.fixture(scope="module")
def shipped() -> list[Export]:
    return load_exports([SHIPPED])


class Harness:
    def __init__(self, tmp_path: Path, exports: list[Export], workdir: Path) -> None:
        self.db = tmp_path / "audit.db"
        self.runs = tmp_path / "runs"
        self.store = SqliteStore(self.db)
        self.service = CallService(
            RunSettings(runs_root=self.runs, workdir=workdir),
            AuditTrail(self.store),
            self.store,
            catalog=ExportCatalog(exports),
        )

    async def call(self, tool: str, arguments: dict[str, Any]) -> Envelope:
        return await self.service.call(CallRequest(tool, arguments, CALLER))

    def recorded(self, envelope: Envelope) -> str:
        return str(audit_records(self.db, envelope.run_id)[-1]["status"])


@asynccontextmanager
async def harness(tmp_path: Path, exports: list[Export], workdir: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path, exports, workdir)
    try:
        yield h
    finally:
        h.store.close()


def output(envelope: Envelope) -> str:
    return "\n".join(str(s.get("stdout_tail", "")) for s in envelope.steps)


def test_every_shipped_path_arg_declares_within(shipped: list[Export]) -> None:
    """Each arg of a shipped export that names a file or folder is confined;
    text_stats' ``file`` is an attachment (content, not a path)."""
    confined = {
        (e.name, name): schema.get("within")
        for e in shipped
        for name, schema in e.arg_schemas.items()
        if name in ("path", "paths", "file", "folder", "dir")
    }
    assert confined == {
        ("disk_usage", "path"): ".",
        ("git_log", "path"): ".",
        ("list_tree", "path"): ".",
        ("search_text", "path"): ".",
        ("text_stats", "file"): None,
    }
    assert set(PATH_EXPORTS) == {n for n, _ in confined if n != "text_stats"}
    for e in shipped:
        assert "within" not in str(e.input_schema), e.name  # not published as a keyword


OUTSIDE_VALUES = {
    "dotdot": ("..", "{repo}"),
    "dotdot-chain": ("src/../../../outside", "{outside}"),
    "absolute": ("/etc", "/etc"),
    "symlink": ("escape", "{outside}"),
    "symlink-slash": ("escape/", "{outside}"),
    "through-symlink": ("escape/secret.txt", "{outside}/secret.txt"),
    "relative-symlink": ("escape_rel", "{outside}"),
}


@pytest.mark.parametrize("case", sorted(OUTSIDE_VALUES))
@pytest.mark.parametrize("tool", sorted(PATH_EXPORTS))
async def test_a_path_leading_out_is_refused(
    tmp_path: Path, tree: Tree, shipped: list[Export], tool: str, case: str
) -> None:
    value, target = OUTSIDE_VALUES[case]
    resolved = target.format(repo=tree.root, outside=tree.outside)
    async with harness(tmp_path, shipped, tree.work) as h:
        envelope = await h.call(tool, {**PATH_EXPORTS[tool], "path": value})
        assert envelope.status == "invalid", envelope.answer
        assert not envelope.ran and envelope.steps == ()
        assert h.recorded(envelope) == "invalid"
    assert envelope.answer == (
        f"{tool}: invalid arguments:\n- argument 'path': {value!r} resolves to {resolved}, "
        f"outside {tree.work} (the folder this argument must stay within); give a path "
        f"inside it (rule: within)\nNothing was run."
    )
    assert MARKER not in envelope.answer
    assert not tmp_path.joinpath("runs").exists() or not any(tmp_path.joinpath("runs").iterdir())


INSIDE_VALUES = ["src", "src/", "./src/../src", "inner", "{work}", "{work}/src"]


@pytest.mark.parametrize("value", INSIDE_VALUES)
@pytest.mark.parametrize("tool", sorted(PATH_EXPORTS))
async def test_a_path_inside_runs(
    tmp_path: Path, tree: Tree, shipped: list[Export], tool: str, value: str
) -> None:
    path = value.format(work=tree.work)
    async with harness(tmp_path, shipped, tree.work) as h:
        envelope = await h.call(tool, {**PATH_EXPORTS[tool], "path": path})
        assert envelope.status == "ok", envelope.answer
        assert h.recorded(envelope) == "ok"
    text = output(envelope)
    expected = {
        "disk_usage": path,  # du names the folder as it was given
        "git_log": "commit-of-src-inside-work",
        "list_tree": "a.txt",
        "search_text": INSIDE,
    }[tool]
    if tool == "git_log" and value == "inner":
        expected = ""  # git matches the path in its index: the symlink has no commits
    assert expected in text, text
    assert MARKER not in text
    if tool == "git_log":
        assert "commit-of-top-outside-work" not in text
    # The step received the value as sent, not the resolved path.
    if tool == "disk_usage":
        assert envelope.steps[1]["command"][-1] == path


@pytest.mark.parametrize("tool", sorted(PATH_EXPORTS))
async def test_the_default_is_the_working_directory_and_runs(
    tmp_path: Path, tree: Tree, shipped: list[Export], tool: str
) -> None:
    async with harness(tmp_path, shipped, tree.work) as h:
        envelope = await h.call(tool, PATH_EXPORTS[tool])
        assert envelope.status == "ok", envelope.answer
    # A symlink inside the tree is not followed by the shipped programs.
    assert MARKER not in output(envelope)


async def test_a_working_directory_reached_through_a_symlink(
    tmp_path: Path, tree: Tree, shipped: list[Export]
) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(tree.work)
    async with harness(tmp_path, shipped, alias) as h:
        inside = await h.call("search_text", {"pattern": "LINE", "path": f"{alias}/src"})
        assert inside.status == "ok", inside.answer
        assert INSIDE in output(inside)
        real = await h.call("list_tree", {"path": str(tree.work / "src")})
        assert real.status == "ok", real.answer
        out = await h.call("search_text", {"pattern": "LINE", "path": "escape"})
        assert out.status == "invalid"
        assert f"outside {tree.work} (the folder" in out.answer


async def test_list_tree_ignores_cdpath(
    tmp_path: Path, tree: Tree, shipped: list[Export], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With CDPATH set in the server's environment, bash's cd would look for
    # "src" there first and list the outside folder instead.
    (tree.outside / "src").mkdir(exist_ok=True)
    (tree.outside / "src" / f"{MARKER}.txt").write_text("x")
    monkeypatch.setenv("CDPATH", str(tree.outside))
    async with harness(tmp_path, shipped, tree.work) as h:
        envelope = await h.call("list_tree", {"path": "src"})
    assert envelope.status == "ok", envelope.answer
    text = output(envelope)
    assert "a.txt" in text and MARKER not in text


async def test_git_log_reads_the_path_literally(
    tmp_path: Path, tree: Tree, shipped: list[Export]
) -> None:
    # ":/top.txt" is inside the working directory as a path; as a pathspec it
    # would name top.txt at the repository's top, outside it.
    async with harness(tmp_path, shipped, tree.work) as h:
        envelope = await h.call("git_log", {"path": ":/top.txt"})
    assert envelope.status == "ok", envelope.answer
    assert "commit-of-top-outside-work" not in output(envelope)


@pytest.mark.parametrize("mode", MODES)
async def test_through_a_real_server(tmp_path: Path, tree: Tree, mode: str) -> None:
    client = stdio_client_of(SHIPPED, tmp_path / "state", mode, "--workdir", str(tree.work))
    async with client:
        listing = await client.list_tools()
        for tool in listing.tools:
            assert "within" not in str(tool.input_schema), tool.name
        refused = await client.call_tool("list_tree", {"path": "escape"})
        assert refused.is_error is True
        assert (
            f"argument 'path': 'escape' resolves to {tree.outside}, outside {tree.work} "
            f"(the folder this argument must stay within)"
        ) in text_of(refused)
        assert MARKER not in text_of(refused)
        absolute = await client.call_tool("disk_usage", {"path": "/etc"})
        assert absolute.is_error is True
        assert "resolves to /etc, outside" in text_of(absolute)
        ok = await client.call_tool("search_text", {"pattern": "LINE", "path": "src"})
        assert ok.is_error is False, text_of(ok)
        assert INSIDE in text_of(ok)
