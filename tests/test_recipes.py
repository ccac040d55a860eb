"""Issue 21: the recipes of docs/recipes.md are real exports that work.

Every ``docs/recipes/*.yaml`` is loaded by the real loader and accepted by
the real checker (warnings refuse too); docs/recipes.md and the folder name
the same recipes; and each recipe is run through a real ``mcp-harbor serve``
over HTTP (bearer tokens, the SDK client) on a tiny project made here: a
pyproject, tests, a virtual environment of its own, a log, a git repository
with a tag. The webhook the secrets recipe posts to is a real HTTP listener
of this test. ``kubectl`` and ``docker`` are replaced, first on the server's
PATH, by scripts that print the argv they were given: that tests what the
export builds, not kubectl or docker. The CI recipe's command is run as
written (``mcp-harbor check --format sarif``) and its output read as SARIF.
"""

from __future__ import annotations

import http.server
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest
import yaml
from harbor_helpers import (
    PY,
    HttpServer,
    bearer_client,
    harbor_cli,
    http_server,
    without_plan,
    write_export,
)
from mcp.shared.exceptions import MCPError

from mcp_harbor.check import load_and_check
from mcp_harbor.runctx import ENVELOPE_META_KEY
from mcp_harbor.server.auth import TokensFile

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parent.parent
RECIPES = REPO / "docs" / "recipes"
DOC = REPO / "docs" / "recipes.md"
WORKFLOW = RECIPES / "ci" / "harbor-check.yml"
TAIL_LOG = RECIPES / "tail_log.yaml"

SECRET = "hb-secret-7f3a9c1e52"  # the webhook token: must never be recorded
#: Prints its argv, one "argv[N]=..." line each, as the stand-in for kubectl.
ARGV_STUB = """\
#!/bin/bash
i=0
for a in "$@"; do printf 'argv[%d]=%s\\n' "$i" "$a"; i=$((i+1)); done
"""
#: docker's stand-in: the same, and the image id into --iidfile, as docker does.
DOCKER_STUB = ARGV_STUB + (
    'while [ "$#" -gt 0 ]; do\n'
    '  if [ "$1" = --iidfile ]; then printf sha256:0123abcd > "$2"; fi\n'
    "  shift\n"
    "done\n"
)


def recipe_files() -> list[Path]:
    return sorted(RECIPES.glob("*.yaml"))


# --- every recipe loads, is accepted, and is documented ------------------------------


def test_every_recipe_is_accepted_by_the_checker(fresh_checker: None) -> None:
    files = recipe_files()
    assert len(files) >= 11, files
    checked = load_and_check([RECIPES], strict=True)
    assert checked.refused == [], [(r.name, r.findings) for r in checked.reports if r.findings]
    assert sorted(e.name for e in checked.accepted) == sorted(f.stem for f in files)
    assert all(not r.findings for r in checked.reports), "no warnings either"


def test_the_doc_and_the_folder_name_the_same_recipes() -> None:
    doc = DOC.read_text(encoding="utf-8")
    linked = set(re.findall(r"\(recipes/([a-z_]+)\.yaml\)", doc))
    assert linked == {f.stem for f in recipe_files()}
    # Each recipe has its section, with the export included and a command to try it.
    for name in sorted(linked):
        section = doc.split(f"\n## `{name}`", 1)
        assert len(section) == 2, f"no section for {name}"
        body = section[1].split("\n## ", 1)[0]
        text = (RECIPES / f"{name}.yaml").read_text(encoding="utf-8")
        assert text.strip() in body, f"the section of {name} does not include its file as is"
        assert f"mcp-harbor call {name}" in body or f"mcp-harbor run {name}" in body, name
    # The CI recipe's workflow is shown as it is in its file.
    assert "(recipes/ci/harbor-check.yml)" in doc
    assert WORKFLOW.read_text(encoding="utf-8").strip() in doc
    assert "docs/recipes.md" in (REPO / "README.md").read_text(encoding="utf-8")


# --- CI: check --format sarif, uploaded to code scanning ----------------------------


def test_the_ci_recipe_uploads_the_checkers_sarif(tmp_path: Path) -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    assert job["permissions"]["security-events"] == "write"
    runs = [s.get("run", "") for s in job["steps"]]
    assert any("mcp-harbor check --format sarif" in r and "> harbor.sarif" in r for r in runs)
    (upload,) = [s for s in job["steps"] if "upload-sarif" in s.get("uses", "")]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "harbor.sarif"
    assert "failure()" in upload["if"]  # a refused export is uploaded too

    # The command as the workflow runs it, on the recipes: SARIF 2.1.0, no results.
    done = harbor_cli("check", "--format", "sarif", str(RECIPES), state=tmp_path)
    log = json.loads(done.stdout)
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    (run,) = log["runs"]
    assert run["tool"]["driver"]["name"] == "mcp-harbor"
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"H001", "H009"}
    assert run["results"] == []
    # A refused export: exit 1, and a result on its file, line and column,
    # with a path relative to where the command ran (the repository's root).
    write_export(
        tmp_path / "exports",
        "bad.yaml",
        """
        name: bad
        description: Splices a value into the script.
        args:
          who: {type: string}
        steps:
          - name: greet
            run: echo hello {{ args.who }}
        """,
    )
    refused = subprocess.run(
        [sys.executable, "-m", "mcp_harbor", "check", "--format", "sarif", "exports"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 1, refused.stderr
    (result, *_) = json.loads(refused.stdout)["runs"][0]["results"]
    assert result["ruleId"] == "H001" and result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "exports/bad.yaml"
    assert location["region"] == {"startLine": 7, "startColumn": 21}


# --- running the recipes on a tiny project --------------------------------------------


PYPROJECT = """\
[build-system]
requires = []
build-backend = "tinybackend"
backend-path = ["."]

[project]
name = "tinyproj"
version = "1.2.3"
"""

#: The tiny project's own PEP 517 build backend (in-tree, ``backend-path``):
#: this suite's environment has no backend that builds wheels offline
#: (its setuptools 65 needs the ``wheel`` package), and pip is what the
#: recipe runs, not the backend.
BACKEND = """\
import base64
import hashlib
import pathlib
import zipfile

DIST = "tinyproj-1.2.3"


def _digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = {p.as_posix(): p.read_bytes() for p in sorted(pathlib.Path("tinyproj").glob("*.py"))}
    info = DIST + ".dist-info/"
    files[info + "METADATA"] = b"Metadata-Version: 2.1\\nName: tinyproj\\nVersion: 1.2.3\\n"
    files[info + "WHEEL"] = b"Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
    record = info + "RECORD"
    lines = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[record] = ("\\n".join([*lines, record + ",,"]) + "\\n").encode()
    name = DIST + "-py3-none-any.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / name, "w") as wheel:
        for arcname, data in files.items():
            wheel.writestr(arcname, data)
    return name
"""

TESTS = """\
def test_add():
    assert 1 + 1 == 2


def test_sub():
    assert 3 - 1 == 2


def test_broken():
    assert "on purpose" == "failing"
"""

LOG = """\
2026-12-01T10:00:00Z INFO started
2026-12-01T10:00:01Z ERROR database unreachable
2026-12-01T10:00:02Z INFO retrying with --verbose
2026-12-01T10:00:03Z ERROR database unreachable again
2026-12-01T10:00:04Z INFO ready
"""


class Webhook(http.server.BaseHTTPRequestHandler):
    """The chat webhook of the secrets recipe: keeps what it was sent."""

    received: ClassVar[list[tuple[dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Webhook.received.append((dict(self.headers.items()), body))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: Any) -> None:
        return


def git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=project,
        check=True,
        capture_output=True,
    )


def installed_entries(*names: str) -> set[Path]:
    """The top-level files and folders (packages, modules, .dist-info) of the
    distributions `names` and of what they require, as this suite has them
    installed: what a project's venv holds once they are installed in it."""
    from packaging.requirements import Requirement

    entries: set[Path] = set()
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        dist = importlib.metadata.distribution(name)
        root = Path(str(dist.locate_file("")))
        for file in dist.files or ():
            top = file.parts[0]
            if top != ".." and not top.endswith(".pth") and top != "__pycache__":
                entries.add(root / top)
        for requirement in map(Requirement, dist.requires or ()):
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return entries


def make_project(project: Path) -> None:
    """A tiny Python project with a virtual environment of its own (pytest
    and pip linked in from this suite's, ruff copied: there offline), its
    own build backend, a log, a cache and a tagged git history."""
    (project / "tinyproj").mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT)
    (project / "tinybackend.py").write_text(BACKEND)
    (project / "tinyproj" / "__init__.py").write_text('"""tiny."""\n\nVERSION = "1.2.3"\n')
    (project / "tests").mkdir()
    (project / "tests" / "test_tiny.py").write_text(TESTS)
    (project / "lint_me.py").write_text("import os\n\nprint('hi')\n")
    (project / "logs").mkdir()
    (project / "logs" / "app.log").write_text(LOG)
    (project / "Dockerfile").write_text("FROM scratch\n")
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")],
        check=True,
        capture_output=True,
    )
    venv_lib = next((project / ".venv" / "lib").glob("python3*")) / "site-packages"
    for entry in installed_entries("pytest", "pip"):
        (venv_lib / entry.name).symlink_to(entry)
    # ruff is a program of its own: a copy, as pip installs it into a venv.
    shutil.copy2(Path(sys.executable).parent / "ruff", project / ".venv" / "bin" / "ruff")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "pyproject.toml", "tinybackend.py", "tinyproj")
    git(project, "commit", "-q", "-m", "first")
    git(project, "tag", "v1.2.3")
    (project / "README").write_text("tiny\n")
    git(project, "add", "README")
    git(project, "commit", "-q", "-m", "second")
    (project / ".cache").mkdir()
    for name in ("a", "b", "c"):
        (project / ".cache" / name).write_text(name)


@dataclass
class Site:
    root: Path
    project: Path
    server: HttpServer
    tokens: dict[str, str]
    #: What the webhook was sent: (headers, body) of each request.
    webhook: list[tuple[dict[str, str], bytes]]

    def cli(self, *args: str, token: str) -> subprocess.CompletedProcess[str]:
        return harbor_cli(
            *args, "--url", self.server.url, "--token", self.tokens[token], check=False
        )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("recipes")
    project = root / "project"
    make_project(project)
    stubs = root / "bin"
    stubs.mkdir()
    for name, text in (("kubectl", ARGV_STUB), ("docker", DOCKER_STUB)):
        (stubs / name).write_text(text)
        (stubs / name).chmod(0o755)
    (root / "kubeconfig").write_text("apiVersion: v1\nkind: Config\n")
    listener = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    # The tokens file `mcp-harbor token add` writes (the same code, in this process).
    tokens_file = TokensFile(root / "tokens.json")
    tokens = {
        "ci-bot": tokens_file.add("ci-bot"),
        "alice": tokens_file.add("alice"),
        "bob": tokens_file.add("bob", groups=("release",)),
    }
    env = {
        "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}",
        "KUBECONFIG": str(root / "kubeconfig"),
        "RELEASE_WEBHOOK_TOKEN": SECRET,
        "RELEASE_WEBHOOK_URL": f"http://127.0.0.1:{listener.server_address[1]}/hook",
        "PIP_NO_CACHE_DIR": "1",
    }
    # The recipes, byte for byte, in the project's own folder: the steps'
    # relative programs (.venv/bin/python) then name the same file whether a
    # relative path is taken from the export file's folder (as preflight
    # takes `needs:` today) or from the working directory (as the step runs).
    for path in recipe_files():
        shutil.copyfile(path, project / path.name)
    extra = ["--tokens", str(tokens_file.path), "--db", str(root / "harbor.db")]
    extra += ["--workdir", str(project)]
    try:
        with pytest.MonkeyPatch.context() as patch:
            for name, value in env.items():
                patch.setenv(name, value)
            with http_server(project, root / "state", *extra) as server:
                yield Site(root, project, server, tokens, Webhook.received)
    finally:
        listener.shutdown()
        listener.server_close()


async def call(site: Site, token: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call `tool` as `token`'s principal over HTTP; its envelope."""
    async with bearer_client(site.server.url, site.tokens[token], "auto") as client:
        result = await client.call_tool(tool, arguments)
    envelope: dict[str, Any] = json.loads((result.meta or {})[ENVELOPE_META_KEY])
    return envelope


def argv_of(stdout: str) -> list[str]:
    """The argv a stand-in printed (its ``argv[N]=...`` lines, in order)."""
    return [line.split("=", 1)[1] for line in stdout.splitlines() if line.startswith("argv[")]


def stdout_of(envelope: dict[str, Any], step: str) -> str:
    (record,) = [s for s in envelope["steps"] if s["name"] == step]
    return str(record["stdout_tail"])


async def test_run_tests_with_a_k_filter(site: Site) -> None:
    chosen = await call(site, "alice", "run_tests", {"select": "add or sub"})
    assert chosen["status"] == "ok", chosen["answer"]
    assert "2 passed, 1 deselected" in stdout_of(chosen, "pytest")
    everything = await call(site, "alice", "run_tests", {})
    assert everything["status"] == "failed" and everything["exit_code"] == 1
    assert "FAILED tests/test_tiny.py::test_broken" in stdout_of(everything, "pytest")
    only = await call(site, "alice", "run_tests", {"path": "tests/test_tiny.py::test_add"})
    assert only["status"] == "ok" and "1 passed" in stdout_of(only, "pytest"), only["answer"]
    # A value that could be read as an option, or is not a test of tests/: refused.
    refusals = [{"select": "-p evil"}, {"select": "x; id"}, {"path": "tinybackend.py"}]
    for arguments in [*refusals, {"path": "../"}]:
        refused = await call(site, "alice", "run_tests", arguments)
        assert refused["status"] == "invalid" and refused["steps_run"] == 0, arguments


async def test_lint_with_ruff_on_a_path(site: Site) -> None:
    found = await call(site, "alice", "lint", {"path": "lint_me.py"})
    assert found["status"] == "failed" and found["exit_code"] == 1, found["answer"]
    assert "lint_me.py:1:8: F401" in stdout_of(found, "ruff")
    clean = await call(site, "alice", "lint", {"path": "tinyproj"})
    assert clean["status"] == "ok", clean["answer"]
    assert not (site.project / ".ruff_cache").exists()


async def test_build_a_wheel_offline(site: Site) -> None:
    built = await call(site, "alice", "build_wheel", {})
    assert built["status"] == "ok", built["answer"]
    payload = built["answer_payload"]
    assert payload["wheel"] == "tinyproj-1.2.3-py3-none-any.whl"
    wheel = Path(payload["path"])
    assert wheel.parent.parent == Path(built["run_dir"])
    assert wheel.stat().st_size == payload["bytes"]


async def test_tail_a_log_with_a_filter(site: Site) -> None:
    errors = await call(site, "alice", "tail_log", {"contains": "ERROR", "lines": 4})
    assert errors["status"] == "ok", errors["answer"]
    assert stdout_of(errors, "tail").splitlines() == [
        "2026-12-01T10:00:01Z ERROR database unreachable",
        "2026-12-01T10:00:03Z ERROR database unreachable again",
    ]
    # A filter starting with "-" is text to look for, not an option of grep.
    dashed = await call(site, "alice", "tail_log", {"contains": "--verbose"})
    assert stdout_of(dashed, "tail") == "2026-12-01T10:00:02Z INFO retrying with --verbose\n"
    none = await call(site, "alice", "tail_log", {"contains": "WARN"})
    assert none["status"] == "ok" and stdout_of(none, "tail") == ""
    outside = await call(site, "alice", "tail_log", {"file": "pyproject.toml"})
    assert outside["status"] == "invalid" and "outside" in outside["answer"]


def test_tail_log_as_the_doc_says_to_try_it(site: Site) -> None:
    """The doc's one command, ``mcp-harbor call`` with ``--exports FILE``, run
    in the project."""
    done = subprocess.run(
        [PY, "-m", "mcp_harbor", "call", "tail_log", "contains=ready", "--exports", str(TAIL_LOG)],
        cwd=site.project,
        env={**os.environ, "XDG_STATE_HOME": str(site.root / "cli-state")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "INFO ready" in done.stdout


async def test_pod_logs_builds_the_kubectl_command(site: Site) -> None:
    arguments = {"namespace": "production", "pod": "web-1", "container": "app", "since": "10m"}
    logs = await call(site, "alice", "pod_logs", {**arguments, "lines": 50})
    assert logs["status"] == "ok", logs["answer"]
    assert argv_of(stdout_of(logs, "logs")) == [
        "logs", "--namespace=production", "--tail=50", "--timestamps",
        "--container=app", "--since=10m", "--", "web-1",
    ]  # fmt: skip
    plain = await call(site, "alice", "pod_logs", {"pod": "web-1"})
    assert argv_of(stdout_of(plain, "logs")) == [
        "logs", "--namespace=staging", "--tail=200", "--timestamps",
        "--container=", "--since=0s", "--", "web-1",
    ]  # fmt: skip
    for bad in ({"pod": "--all-containers"}, {"pod": "web-1", "namespace": "kube-system"}):
        assert (await call(site, "alice", "pod_logs", bad))["status"] == "invalid", bad


async def test_docker_build_builds_the_docker_command(site: Site) -> None:
    built = await call(site, "alice", "docker_build", {"tag": "1.4.2", "no_cache": True})
    assert built["status"] == "ok", built["answer"]
    argv = argv_of(stdout_of(built, "build"))
    iidfile = f"{built['run_dir']}/image.id"
    assert argv == [
        "build", "--file", "Dockerfile", "--tag", "app:1.4.2", "--iidfile", iidfile,
        "--no-cache", ".",
    ]  # fmt: skip
    (step,) = built["steps"]
    assert step["outputs"] == {"image": "sha256:0123abcd"}
    assert (await call(site, "alice", "docker_build", {"tag": "-q"}))["status"] == "invalid"


async def test_two_steps_the_second_using_the_firsts_output(site: Site) -> None:
    tagged = await call(site, "alice", "release_status", {})
    assert tagged["status"] == "ok", tagged["answer"]
    assert tagged["steps"][0]["outputs"] == {"version": "1.2.3"}
    assert tagged["answer_payload"] == {
        "version": "1.2.3",
        "tag": "v1.2.3",
        "tagged": True,
        "commits_since": 1,
    }


async def test_a_secret_reaches_the_step_and_no_record(site: Site) -> None:
    note = 'Faster startup.\nFixed "$(id)" and `uname` in names.'
    sent = await call(site, "alice", "notify_release", {"version": "1.4.2", "note": note})
    assert sent["status"] == "ok", sent["answer"]
    (headers, body) = site.webhook[-1]
    assert headers["Authorization"] == f"Bearer {SECRET}"
    from urllib.parse import parse_qs

    assert parse_qs(body.decode()) == {"version": ["1.4.2"], "note": [note]}
    # Nowhere the run left anything: the envelope, the run directory, the audit.
    assert SECRET not in json.dumps(sent)
    left = [p for p in Path(sent["run_dir"]).rglob("*") if p.is_file()]
    left += list(site.root.glob("harbor.db*"))  # the database, its -wal and -shm
    assert {"context.json", "harbor.db"} <= {p.name for p in left}
    for path in left:
        assert SECRET.encode() not in path.read_bytes(), path


async def wait_for_pending(site: Site, version: str) -> dict[str, Any]:
    """The waiting run of `version`, as ``GET /approvals`` lists it to bob."""
    url = site.server.url.removesuffix("/mcp") + "/approvals"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {site.tokens['bob']}"})
    with anyio.fail_after(20):
        while True:
            with urllib.request.urlopen(request, timeout=10) as response:
                for item in json.loads(response.read())["approvals"]:
                    if item["arguments"].get("version") == version:
                        return dict(item)
            await anyio.sleep(0.1)


async def test_the_deploy_waits_for_an_approver_other_than_the_caller(site: Site) -> None:
    envelope: dict[str, Any] = {}

    async def deploy() -> None:
        envelope.update(await call(site, "alice", "deploy", {"env": "staging", "version": "1.4.2"}))

    log = site.project / "deploys.log"
    async with anyio.create_task_group() as tg:
        tg.start_soon(deploy)
        pending = await wait_for_pending(site, "1.4.2")
        assert without_plan(pending["message"]) == 'Deploy "1.4.2" to "staging"?'
        assert pending["principal"] == "alice" and pending["approvers"] == ["group:release"]
        assert not log.exists()  # nothing ran yet
        own = await anyio.to_thread.run_sync(
            lambda: site.cli("approve", pending["run_id"], token="alice")
        )
        assert own.returncode == 1 and "alice made this call" in own.stderr, own.stderr
        answered = await anyio.to_thread.run_sync(
            lambda: site.cli("approve", pending["run_id"], "--reason", "change 42", token="bob")
        )
        assert answered.returncode == 0, answered.stderr
    assert envelope["status"] == "ok", envelope["answer"]
    assert log.read_text().endswith(" deployed 1.4.2 to staging for alice\n")


async def test_only_one_principal_sees_and_calls_purge_cache(site: Site) -> None:
    async def listed(token: str) -> set[str]:
        async with bearer_client(site.server.url, site.tokens[token], "auto") as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert "purge_cache" in await listed("ci-bot")
    assert "purge_cache" not in await listed("alice")
    assert "run_tests" in await listed("alice")
    async with bearer_client(site.server.url, site.tokens["alice"], "auto") as client:
        with pytest.raises(MCPError) as denied:
            await client.call_tool("purge_cache", {})
    assert (denied.value.code, denied.value.message) == (-32602, "Unknown tool: purge_cache")
    assert sorted(p.name for p in (site.project / ".cache").iterdir()) == ["a", "b", "c"]
    purged = await call(site, "ci-bot", "purge_cache", {})
    assert purged["status"] == "ok", purged["answer"]
    assert "removed 3 entries from .cache/ (for ci-bot)" in stdout_of(purged, "purge")
    assert list((site.project / ".cache").iterdir()) == []


async def test_the_projects_own_virtual_environment(site: Site) -> None:
    ran = await call(site, "alice", "venv_python", {"package": "pytest"})
    assert ran["status"] == "ok", ran["answer"]
    prefix, version = stdout_of(ran, "python").split()
    assert Path(prefix).resolve() == (site.project / ".venv").resolve()  # not the server's
    assert version == ".".join(map(str, sys.version_info[:3]))
    assert stdout_of(ran, "package").startswith("pytest ")
    skipped = await call(site, "alice", "venv_python", {})
    assert [s["status"] for s in skipped["steps"]] == ["ok", "skipped"]


def test_no_recipe_was_left_out_of_the_runs() -> None:
    """Every recipe has a test above that runs it."""
    source = Path(__file__).read_text(encoding="utf-8")
    for path in recipe_files():
        assert f'"{path.stem}"' in source, f"{path.stem} is not run by any test"
