"""Issue 21: a step reports its own progress through ``$HARBOR_PROGRESS``.

A real ``mcp-harbor serve`` (stdio and Streamable HTTP, both protocol eras)
runs a bash step that appends ``1/4 building``, ``50% linking``… to the file
named by ``$HARBOR_PROGRESS``; the SDK client's ``progress_callback`` gets
each as a progress notification between the step's start (n - 0.5) and end
(n), strictly increasing, its message escaped. Malformed lines are ignored;
a step flooding the file gets at most ~10 notifications a second, the
latest line always among them, lines cut. ``mcp-harbor call`` (a real
subprocess) shows the messages on stderr, and on a terminal the step's
live output above its bar.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest
from harbor_helpers import MODES, PY, harbor_cli, http_server, stdio_client_of, write_export
from mcp import Client

from mcp_harbor.runner.step_progress import MESSAGE_MAX, parse_progress_line

pytestmark = pytest.mark.anyio

PROGRESS = r"""
    name: progress
    description: Reports its own progress while it builds.
    steps:
      - name: build
        run: |
          echo '1/4 building' >> "$HARBOR_PROGRESS"
          echo 'build output line'
          sleep 0.3
          echo 'not a progress line' >> "$HARBOR_PROGRESS"
          echo '7/4 too far' >> "$HARBOR_PROGRESS"
          echo '250% too much' >> "$HARBOR_PROGRESS"
          echo '1/0 nothing' >> "$HARBOR_PROGRESS"
          sleep 0.3
          echo '50% linking' >> "$HARBOR_PROGRESS"
          sleep 0.3
          printf '3/4 \033[31mred\033[0m\n' >> "$HARBOR_PROGRESS"
          sleep 0.3
          echo '100%' >> "$HARBOR_PROGRESS"
          sleep 0.3
      - name: check
        run: echo checked
"""

# 200,000 lines as fast as seq can write them (up to 50%), a 10,000-character line,
# then the last word: bounded forwarding must still deliver the latest.
FLOOD = r"""
    name: flood
    description: Floods its progress file.
    steps:
      - name: spew
        run: |
          seq -f '%g/400000 spewing' 1 200000 >> "$HARBOR_PROGRESS"
          printf '60%% %s\n' "$(head -c 10000 /dev/zero | tr '\0' x)" >> "$HARBOR_PROGRESS"
          sleep 0.3
          echo '99% last word' >> "$HARBOR_PROGRESS"
          sleep 0.3
"""

# The narrowest confinement: no network, only the run directory writable.
CONFINED = """
    name: confined
    description: Reports progress from inside a narrowed sandbox.
    sandbox: {network: none, writable: []}
    steps:
      - name: inside
        run: |
          echo '2/3 confined' >> "$HARBOR_PROGRESS"
          sleep 0.3
"""

# A secret arg's value in a progress line, also where the message is cut.
SECRETIVE = """
    name: secretive
    description: Puts a secret into its progress lines.
    args:
      token: {type: string, secret: true}
    steps:
      - name: use
        run: |
          pad=$(head -c 195 /dev/zero | tr '\\0' a)
          echo "40% $pad$ARG_token" >> "$HARBOR_PROGRESS"
          sleep 0.3
          echo "50% using $ARG_token" >> "$HARBOR_PROGRESS"
          sleep 0.3
"""

EXPECTED = [
    "build (1/2): 1/4 building",
    "build (1/2): 50% linking",
    "build (1/2): 3/4 \\x1b[31mred\\x1b[0m",
    "build (1/2): 100%",
]


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("progress-exports")
    write_export(folder, "progress.yaml", PROGRESS)
    write_export(folder, "flood.yaml", FLOOD)
    write_export(folder, "confined.yaml", CONFINED)
    write_export(folder, "secretive.yaml", SECRETIVE)
    return folder


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[float, float | None, str | None]] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.seen.append((progress, total, message))

    def step_lines(self) -> list[tuple[float, str]]:
        """The step's own progress (messages with ``): ``)."""
        return [(p, m) for p, _t, m in self.seen if m is not None and "): " in m]


def assert_step_progress(rec: Recorder) -> None:
    values = [p for p, _t, _m in rec.seen]
    assert values == sorted(values) and len(set(values)) == len(values), rec.seen
    lines = rec.step_lines()
    assert [m for _p, m in lines] == EXPECTED, rec.seen
    # Between the step's start (0.5) and its end (1), in the order written.
    assert all(0.5 <= p < 1 for p, _m in lines), lines
    assert lines[0][0] == pytest.approx(0.5 + 0.49 * 0.25)
    assert lines[1][0] == pytest.approx(0.5 + 0.49 * 0.5)
    assert all(total == 2 for _p, total, _m in rec.seen)
    text = " ".join(m or "" for _p, _t, m in rec.seen)
    for ignored in ("not a progress", "too far", "too much", "nothing"):
        assert ignored not in text


@pytest.mark.parametrize("mode", MODES)
async def test_progress_lines_reach_a_stdio_client(
    exports: Path, tmp_path: Path, mode: str
) -> None:
    rec = Recorder()
    async with stdio_client_of(exports, tmp_path, mode) as client:
        result = await client.call_tool("progress", {}, progress_callback=rec)
    assert not result.is_error
    assert_step_progress(rec)


@pytest.mark.parametrize("mode", MODES)
async def test_progress_lines_reach_an_http_client(
    exports: Path, tmp_path: Path, mode: str
) -> None:
    rec = Recorder()
    with http_server(exports, tmp_path) as server:
        async with Client(server.url, mode=mode) as client:
            result = await client.call_tool("progress", {}, progress_callback=rec)
    assert not result.is_error
    assert_step_progress(rec)


async def test_a_flood_is_bounded_and_the_latest_line_arrives(
    exports: Path, tmp_path: Path
) -> None:
    rec = Recorder()
    began = time.monotonic()
    async with stdio_client_of(exports, tmp_path, "auto") as client:
        result = await client.call_tool("flood", {}, progress_callback=rec)
        seconds = time.monotonic() - began
    assert not result.is_error
    lines = rec.step_lines()
    # At most one per 0.1 s poll (plus the final read), whatever was written.
    assert 1 <= len(lines) <= seconds * 10 + 2, (len(lines), seconds)
    assert lines[-1][1] == "spew (1/1): 99% last word"
    # The long line arrives cut to its first MESSAGE_MAX characters.
    assert ("spew (1/1): 60% " + "x" * MESSAGE_MAX) in [m for _p, m in lines]
    assert all(len(m) <= len("spew (1/1): 400000/400000 ") + MESSAGE_MAX for _p, m in lines)


async def test_a_confined_step_can_report_progress(exports: Path, tmp_path: Path) -> None:
    rec = Recorder()
    async with stdio_client_of(exports, tmp_path, "auto", "--sandbox", "required") as client:
        result = await client.call_tool("confined", {}, progress_callback=rec)
    assert not result.is_error
    assert [m for _p, m in rec.step_lines()] == ["inside (1/1): 2/3 confined"]


async def test_a_secret_never_reaches_the_client_through_progress(
    exports: Path, tmp_path: Path
) -> None:
    rec = Recorder()
    async with stdio_client_of(exports, tmp_path, "auto") as client:
        result = await client.call_tool(
            "secretive", {"token": "hunter2-s3cret"}, progress_callback=rec
        )
    assert not result.is_error
    assert [m for _p, m in rec.step_lines()] == [
        "use (1/1): 40% " + "a" * 195 + "***",
        "use (1/1): 50% using ***",
    ]
    assert "hunte" not in repr(rec.seen)


def test_the_two_formats_and_what_is_ignored() -> None:
    one = parse_progress_line("3/10 compiling  foo")
    assert one is not None and one.fraction == 0.3 and one.text == "3/10 compiling  foo"
    half = parse_progress_line("12.5%")
    assert half is not None and half.fraction == 0.125 and half.message is None
    assert half.text == "12.5%"
    cut = parse_progress_line("5% " + "é" * 1000)
    assert cut is not None and cut.message == "é" * MESSAGE_MAX
    for bad in (
        "",
        "x",
        "3/0",
        "4/3 over",
        "-1/3",
        "101%",
        "50 %x",
        "1/2/3",
        "%50",
        "9" * 20 + "%",
    ):
        assert parse_progress_line(bad) is None, bad


# --- mcp-harbor call ---------------------------------------------------------------


def test_call_shows_the_latest_message_on_stderr(exports: Path, tmp_path: Path) -> None:
    proc = harbor_cli("call", "--exports", str(exports), "progress", state=tmp_path)
    shown = proc.stderr.splitlines()
    for message in EXPECTED:
        assert f"progress: {message}" in shown, proc.stderr
    assert "checked" in proc.stdout


def test_run_shows_the_same_messages(exports: Path, tmp_path: Path) -> None:
    proc = harbor_cli("run", "--exports", str(exports), "progress", state=tmp_path)
    shown = proc.stderr.splitlines()
    for message in EXPECTED:
        assert f"progress: {message}" in shown, proc.stderr


def test_call_on_a_terminal_shows_a_bar_and_the_live_output(exports: Path, tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "COLUMNS": "120", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [PY, "-m", "mcp_harbor", "call", "--exports", str(exports), "progress"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the follower side is closed: the call ended
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    os.close(leader)
    assert proc.stdout is not None
    with proc.stdout:
        printed = proc.stdout.read()
    assert proc.wait(30) == 0
    assert b"checked" in printed
    text = shown.decode("utf-8", errors="replace")
    assert "build| build output line" in text, text
    assert "50% linking" in text, text
