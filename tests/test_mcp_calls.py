"""Issue 2, items 2, 4 and 10: what a call runs and what it answers.

A successful call (text + structuredContent valid against the outputSchema),
placeholders (plain, ``| shellquote``, inside one argv element), ``ARG_<name>``,
``HARBOR_RUN_ID``/``HARBOR_RUN_DIR`` (a fresh directory per run), step
``env:``/``cwd:``; a failing step (later steps skipped) and
``continue_on_error``; and errors that must reach the client without a
traceback. Over stdio and Streamable HTTP, in both protocol eras.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from harbor_helpers import (
    MODES,
    HttpServer,
    assert_valid_output,
    http_server,
    stdio_client_of,
    text_of,
    write_export,
)
from mcp import Client

pytestmark = pytest.mark.anyio

NASTY = 'it\'s $HOME; echo pwned `id` "q" *'

SHOW = """
    name: show
    title: Show what a step sees
    description: Prints its arguments and environment.
    args:
      word: {type: string, pattern: "^[a-z]+$"}
      msg: {type: string}
      count: {type: integer, default: 3}
    required: [word, msg]
    steps:
      - name: plain
        run: |
          echo "plain=[{{ args.word }}]"
          printf 'quoted=[%s]\\n' {{ args.msg | shellquote }}
          printf 'env=[%s][%s][%s]\\n' "$ARG_word" "$ARG_msg" "$ARG_count"
          echo "run_id=[$HARBOR_RUN_ID]"
          echo "run_dir=[$HARBOR_RUN_DIR]"
          echo "fresh=[$(ls -A "$HARBOR_RUN_DIR" | tr '\\n' ' ')]"
          echo "pwd=[$(pwd)]"
          touch "$HARBOR_RUN_DIR/leftover"
      - name: args_argv
        argv: [printf, "<%s>", "--msg={{ args.msg }}", "{{ args.count }}"]
      - name: envcwd
        cwd: sub/dir
        env: {GREETING: "hello  world", ARG_count: "overridden"}
        run: |
          echo "cwd=[$(pwd)] greeting=[$GREETING] count=[$ARG_count]"
"""


def fails_export(marker: Path) -> str:
    return f"""
    name: fails
    description: The second step fails.
    steps:
      - name: first
        run: echo one
      - name: boom
        run: |
          echo about to fail
          echo bad news >&2
          exit 7
      - name: never
        argv: [touch, "{marker}"]
    """


def flaky_export(marker: Path) -> str:
    return f"""
    name: flaky
    description: A failing step that may fail.
    steps:
      - name: flaky
        continue_on_error: true
        run: exit 3
      - name: after
        argv: [touch, "{marker}"]
    """


PING = """
    name: ping
    description: Does nothing.
    steps:
      - name: a
        run: "true"
"""

NOCWD = """
    name: nocwd
    description: A step whose cwd does not exist.
    steps:
      - name: lost
        cwd: does/not/exist
        run: echo never
"""


@dataclass
class Setup:
    exports: Path
    state: Path
    workdir: Path
    markers: Path


def make_setup(root: Path) -> Setup:
    exports = root / "exports"
    markers = root / "markers"
    markers.mkdir(parents=True)
    workdir = root / "work"
    workdir.mkdir()
    (exports / "sub" / "dir").mkdir(parents=True)
    write_export(exports, "show.yaml", SHOW)
    write_export(exports, "nocwd.yaml", NOCWD)
    return Setup(exports, root / "state", workdir, markers)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    return make_setup(tmp_path_factory.mktemp("calls"))


@pytest.fixture(scope="module")
def server(setup: Setup) -> Iterator[HttpServer]:
    with http_server(setup.exports, setup.state, "--workdir", str(setup.workdir)) as srv:
        yield srv


async def check_show(client: Client, setup: Setup, runs_root: Path) -> None:
    result = await client.call_tool("show", {"word": "abc", "msg": NASTY})
    text = text_of(result)
    assert result.is_error is False, text
    data = result.structured_content
    assert data is not None
    await assert_valid_output(client, "show", data)

    # Text content: status, each step with its exit code, the output tail.
    assert text.startswith("show: ok, exit 0")
    assert "--- step 1 plain: ok, exit 0" in text
    assert "--- step 2 args_argv: ok, exit 0" in text
    assert "--- step 3 envcwd: ok, exit 0" in text
    assert f"quoted=[{NASTY}]" in text

    assert data["status"] == "ok"
    assert data["exit_code"] == 0
    assert data["tool"] == "show"
    assert isinstance(data["duration_ms"], int | float) and data["duration_ms"] > 0
    assert [s["status"] for s in data["steps"]] == ["ok", "ok", "ok"]
    assert [s["exit_code"] for s in data["steps"]] == [0, 0, 0]
    plain, argv_step, envcwd = (s["stdout_tail"] for s in data["steps"])

    run_id, run_dir = data["run_id"], Path(data["run_dir"])
    assert "plain=[abc]" in plain
    # shellquote: the value arrives as one word, byte for byte, nothing expanded.
    assert f"quoted=[{NASTY}]" in plain
    assert f"env=[abc][{NASTY}][3]" in plain  # default of `count` applied
    assert f"run_id=[{run_id}]" in plain
    assert f"run_dir=[{run_dir}]" in plain
    assert "fresh=[context.json steps ]" in plain  # nothing from another run
    assert f"pwd=[{setup.workdir}]" in plain  # steps without cwd: run in --workdir
    assert run_dir.name == run_id
    assert run_dir.parent == runs_root
    assert (run_dir / "leftover").exists()
    # A placeholder inside one argv element stays inside that element.
    assert argv_step == f"<--msg={NASTY}><3>"
    assert data["steps"][1]["command"] == ["printf", "<%s>", f"--msg={NASTY}", "3"]
    # cwd: relative to the export file's folder; env: literal, set last.
    assert envcwd == (
        f"cwd=[{setup.exports / 'sub' / 'dir'}] greeting=[hello  world] count=[overridden]\n"
    )
    # The logs hold the full output.
    assert Path(data["steps"][0]["stdout_log"]).read_text() == plain

    # A second run gets a fresh directory and run id.
    again = await client.call_tool("show", {"word": "xyz", "msg": "m", "count": 5})
    assert again.is_error is False
    second = again.structured_content
    assert second is not None
    assert second["run_id"] != run_id
    assert second["run_dir"] != data["run_dir"]
    assert "fresh=[context.json steps ]" in second["steps"][0]["stdout_tail"]
    assert "env=[xyz][m][5]" in second["steps"][0]["stdout_tail"]
    assert second["steps"][1]["stdout_tail"] == "<--msg=m><5>"


@pytest.mark.parametrize("mode", MODES)
async def test_successful_call_over_http(server: HttpServer, setup: Setup, mode: str) -> None:
    async with Client(server.url, mode=mode) as client:
        await check_show(client, setup, setup.state / "mcp-harbor" / "runs")


@pytest.mark.parametrize("mode", MODES)
async def test_successful_call_over_stdio(tmp_path: Path, mode: str) -> None:
    setup = make_setup(tmp_path)
    runs = tmp_path / "runs"
    extra = ("--workdir", str(setup.workdir), "--runs-dir", str(runs))
    async with stdio_client_of(setup.exports, setup.state, mode, *extra) as client:
        await check_show(client, setup, runs)
    assert not (setup.state / "mcp-harbor" / "runs").exists()  # --runs-dir wins over XDG


@pytest.mark.parametrize("mode", MODES)
async def test_failing_step_skips_the_rest(tmp_path: Path, mode: str) -> None:
    exports, marker = tmp_path / "exports", tmp_path / "never-ran"
    write_export(exports, "fails.yaml", fails_export(marker))
    async with stdio_client_of(exports, tmp_path / "state", mode) as client:
        result = await client.call_tool("fails", {})
        text = text_of(result)
        assert result.is_error is True
        data = result.structured_content
        assert data is not None
        await assert_valid_output(client, "fails", data)
    assert data["status"] == "failed"
    assert data["exit_code"] == 7
    assert [(s["name"], s["status"], s["exit_code"]) for s in data["steps"]] == [
        ("first", "ok", 0),
        ("boom", "failed", 7),
        ("never", "skipped", None),
    ]
    assert data["steps"][1]["stderr_tail"] == "bad news\n"
    assert text.startswith("fails: failed, exit 7")
    assert "--- step 2 boom: failed, exit 7" in text
    assert "about to fail" in text and "bad news" in text
    assert "--- step 3 never: skipped" in text
    assert not marker.exists()


@pytest.mark.parametrize("mode", MODES)
async def test_continue_on_error_goes_on(tmp_path: Path, mode: str) -> None:
    exports, marker = tmp_path / "exports", tmp_path / "did-run"
    write_export(exports, "flaky.yaml", flaky_export(marker))
    with http_server(exports, tmp_path / "state") as srv:
        async with Client(srv.url, mode=mode) as client:
            result = await client.call_tool("flaky", {})
    assert result.is_error is False, text_of(result)
    data = result.structured_content
    assert data is not None
    assert data["status"] == "ok"
    assert data["exit_code"] == 0
    assert [(s["status"], s["exit_code"]) for s in data["steps"]] == [("failed", 3), ("ok", 0)]
    assert marker.exists()


@pytest.mark.parametrize("mode", MODES)
async def test_missing_cwd_is_a_clean_tool_error(server: HttpServer, mode: str) -> None:
    async with Client(server.url, mode=mode) as client:
        result = await client.call_tool("nocwd", {})
    text = text_of(result)
    assert result.is_error is True
    assert "Traceback" not in text
    assert "working directory" in text and "does/not/exist" in text, text
    assert "cannot start '/" not in text  # not blamed on bash
    data = result.structured_content
    assert data is not None
    assert data["status"] == "failed"
    assert "Traceback" not in repr(data)
    assert "Traceback" not in server.stderr()


@pytest.mark.parametrize("mode", MODES)
async def test_unwritable_runs_dir_is_a_clean_tool_error(tmp_path: Path, mode: str) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "ping.yaml", PING)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the runs folder should be")
    errlog_path = tmp_path / "server.stderr"
    with open(errlog_path, "w") as errlog:
        async with stdio_client_of(
            exports, tmp_path / "state", mode, "--runs-dir", str(blocker / "runs"), errlog=errlog
        ) as client:
            result = await client.call_tool("ping", {})
    text = text_of(result)
    assert result.is_error is True
    assert "cannot prepare the run" in text and "nothing was run" in text.lower()
    assert "Traceback" not in text
    logs = errlog_path.read_text()
    assert "cannot create the run directory" in logs  # the detail is for the operator
    assert "Traceback" not in logs
    assert os.path.isfile(blocker)
