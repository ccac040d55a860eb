"""Issue 2, items 5 and 6: a timeout (step or export) and a cancelled call
leave no process behind. The step records the pids of its bash, of both
sides of a ``sleep 300 | cat`` pipeline, and of two background jobs; the
test checks they were alive during the call and are gone right after it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from harbor_helpers import (
    MODES,
    HttpServer,
    http_server,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    stdio_client_of,
    text_of,
    wait_for_files,
    write_export,
)
from mcp import Client
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

PID_NAMES = ("bash", "bg-sh", "bg-sleep", "pipe-sleep", "pipe-cat")
#: Seconds allowed between the end of a call (or its cancellation) and the
#: last recorded process being gone.
KILL_LIMIT = 2.0

SPAWN = """\
d={piddir}/$ARG_tag
mkdir -p "$d"
echo $$ > "$d/bash"
sh -c 'echo $$ > "$0/bg-sh"; exec sleep 300' "$d" &
sleep 300 &
echo $! > "$d/bg-sleep"
sh -c 'echo $$ > "$0/pipe-sleep"; exec sleep 300' "$d" |
  sh -c 'echo $$ > "$0/pipe-cat"; exec cat' "$d"
"""


def hang_export(
    name: str,
    piddir: Path,
    marker: Path,
    *,
    step_timeout: float | None = None,
    export_timeout: float | None = None,
) -> str:
    script = "\n".join("        " + line for line in SPAWN.format(piddir=piddir).splitlines())
    return (
        f"name: {name}\n"
        f"description: Starts processes that would outlive the step.\n"
        + (f"timeout: {export_timeout}\n" if export_timeout else "")
        + "args:\n  tag: {type: string, pattern: '^[a-z0-9-]+$'}\nrequired: [tag]\n"
        "steps:\n"
        "  - name: spawn\n"
        + (f"    timeout: {step_timeout}\n" if step_timeout else "")
        + "    run: |\n"
        + script
        + f"\n  - name: after\n    argv: [touch, '{marker}']\n"
    )


QUICK = """
    name: quick
    description: Answers at once.
    steps:
      - name: hi
        run: echo still here
"""


@dataclass
class Setup:
    exports: Path
    state: Path
    piddir: Path
    marker: Path

    def pid_files(self, tag: str) -> list[Path]:
        return [self.piddir / tag / n for n in PID_NAMES]


def make_setup(root: Path) -> Setup:
    exports, piddir, marker = root / "exports", root / "pids", root / "after-ran"
    piddir.mkdir(parents=True)
    (exports).mkdir(parents=True)
    (exports / "hang.yaml").write_text(hang_export("hang", piddir, marker))
    (exports / "step_timeout.yaml").write_text(
        hang_export("step_timeout", piddir, marker, step_timeout=1)
    )
    (exports / "export_timeout.yaml").write_text(
        hang_export("export_timeout", piddir, marker, export_timeout=1.5)
    )
    write_export(exports, "quick.yaml", QUICK)
    return Setup(exports, root / "state", piddir, marker)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    return make_setup(tmp_path_factory.mktemp("processes"))


@pytest.fixture(scope="module")
def server(setup: Setup) -> Iterator[HttpServer]:
    with http_server(setup.exports, setup.state) as srv:
        yield srv


@pytest.fixture
def leftovers(setup: Setup) -> Iterator[list[int]]:
    """Pids a test saw; killed at teardown if the test failed to see them die."""
    pids: list[int] = []
    yield pids
    kill_leftovers(pids)


async def recorded_and_alive(setup: Setup, tag: str, seen: list[int]) -> list[int]:
    """Wait until the step has recorded every pid; check each is alive."""
    files = setup.pid_files(tag)
    await wait_for_files(files, timeout=15)
    pids = read_pids(files)
    seen.extend(pids)
    assert len(set(pids)) == len(PID_NAMES)
    assert all(pid_alive(p) for p in pids), "the step's processes should be running"
    return pids


# --- item 5: timeouts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "limit"), [("step_timeout", 1.0), ("export_timeout", 1.5)], ids=["step", "export"]
)
@pytest.mark.parametrize("mode", MODES)
async def test_timeout_kills_every_process(
    server: HttpServer, setup: Setup, leftovers: list[int], tool: str, limit: float, mode: str
) -> None:
    tag = f"{tool.replace('_', '-')}-{mode}"
    alive_during: list[int] = []

    async def watch() -> None:
        alive_during.extend(await recorded_and_alive(setup, tag, leftovers))

    async with Client(server.url, mode=mode) as client, anyio.create_task_group() as tg:
        tg.start_soon(watch)
        started = time.monotonic()
        result = await client.call_tool(tool, {"tag": tag})
        took = time.monotonic() - started
    assert len(alive_during) == len(PID_NAMES)
    text = text_of(result)
    assert result.is_error is True
    data = result.structured_content
    assert data is not None
    assert data["status"] == "timeout"
    assert data["exit_code"] is None
    assert [s["status"] for s in data["steps"]] == ["timeout", "skipped"]
    assert text.startswith(f"{tool}: timeout")
    assert limit <= took < limit + 5
    await seconds_until_dead(alive_during, KILL_LIMIT)
    assert not setup.marker.exists()


# --- item 6: cancellation -----------------------------------------------------------


async def cancel_and_measure(client: Client, setup: Setup, tag: str, seen: list[int]) -> float:
    """Start `hang`, cancel the call once its processes run, and return the
    seconds until every one of them is gone."""
    pids: list[int] = []
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:

            async def cancel_when_running() -> None:
                pids.extend(await recorded_and_alive(setup, tag, seen))
                tg.cancel_scope.cancel()

            tg.start_soon(cancel_when_running)
            await client.call_tool("hang", {"tag": tag})
            raise AssertionError("the call should have been cancelled")  # pragma: no cover
    assert len(pids) == len(PID_NAMES)
    elapsed = await seconds_until_dead(pids, KILL_LIMIT)
    # The session is still usable after the cancellation.
    after = await client.call_tool("quick", {})
    assert after.is_error is False
    assert "still here" in text_of(after)
    return elapsed


@pytest.mark.parametrize("mode", MODES)
async def test_cancel_over_stdio_kills_every_process(
    setup: Setup, leftovers: list[int], tmp_path: Path, mode: str
) -> None:
    async with stdio_client_of(setup.exports, tmp_path / "state", mode) as client:
        elapsed = await cancel_and_measure(client, setup, f"stdio-{mode}", leftovers)
    print(f"stdio {mode}: processes gone {elapsed:.3f} s after the cancel")
    assert not setup.marker.exists()


@pytest.mark.parametrize("mode", MODES)
async def test_cancel_over_http_kills_every_process(
    server: HttpServer, setup: Setup, leftovers: list[int], mode: str
) -> None:
    async with Client(server.url, mode=mode) as client:
        elapsed = await cancel_and_measure(client, setup, f"http-{mode}", leftovers)
    print(f"http {mode}: processes gone {elapsed:.3f} s after the cancel")
    assert not setup.marker.exists()


@pytest.mark.parametrize("mode", MODES)
async def test_client_read_timeout_kills_every_process(
    setup: Setup, leftovers: list[int], tmp_path: Path, mode: str
) -> None:
    tag = f"read-timeout-{mode}"
    async with stdio_client_of(setup.exports, tmp_path / "state", mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("hang", {"tag": tag}, read_timeout_seconds=1.5)
        assert "timed out" in str(caught.value)
        files = setup.pid_files(tag)
        assert all(f.exists() for f in files), "the step should have started its processes"
        pids = read_pids(files)
        leftovers.extend(pids)
        elapsed = await seconds_until_dead(pids, KILL_LIMIT)
    print(f"read timeout {mode}: processes gone {elapsed:.3f} s after the client gave up")
