"""Cancelling an agent step's call, through a real ``mcp-harbor serve``
over stdio (both protocol eras) and the scripted model: while the model's
answer is delayed, the request in flight is abandoned and the run ends
``cancelled``; while a custom tool's ``sleep 30`` runs, its processes are
gone. The session stays usable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    stdio_client_of,
    text_of,
    wait_for_files,
)
from mcp import Client

from ._harness import Bed, bed, done, requests_of, rows

pytestmark = pytest.mark.anyio

#: Seconds the processes may take to die once the call is cancelled (a
#: bound on a wait, never a timing assertion: on a loaded machine it is
#: SIGTERM, a grace period, SIGKILL).
KILL_LIMIT = 15


def exports(piddir: Path, mode: str) -> dict[str, str]:
    return {
        f"waits_{mode}": f"""
            name: waits_{mode}
            description: An agent whose model takes its time.
            steps:
              - name: ask
                agent: {{model: slow_{mode}, prompt: Take your time.}}
        """,
        f"hangs_{mode}": f"""
            name: hangs_{mode}
            description: An agent whose tool hangs.
            tools:
              hang:
                description: Sleep for a long time.
                args:
                  tag: {{type: string, pattern: "^[a-z]+$"}}
                required: [tag]
                run: |
                  sleep 30 &
                  echo $! > "{piddir}/{{{{ args.tag }}}}.sleep.tmp"
                  echo $$ > "{piddir}/{{{{ args.tag }}}}.shell.tmp"
                  mv "{piddir}/{{{{ args.tag }}}}.sleep.tmp" "{piddir}/{{{{ args.tag }}}}.sleep"
                  mv "{piddir}/{{{{ args.tag }}}}.shell.tmp" "{piddir}/{{{{ args.tag }}}}.shell"
                  wait
            steps:
              - name: ask
                agent: {{model: hanger_{mode}, prompt: Hang., tools: [hang]}}
        """,
    }


QUICK = {
    "quick": """
            name: quick
            description: Answers at once.
            steps: [{name: a, run: echo still here}]
        """,
}


def hang_turn(tag: str) -> dict[str, Any]:
    call = {"id": f"h-{tag}", "name": "hang", "arguments": {"tag": tag}}
    return {"expect": {"tools": ["hang"]}, "respond": {"tool_calls": [call]}}


SLOW_TURN = {"expect": {"last_role": "user"}, "respond": {"delay": 5, "content": "finally"}}


@pytest.fixture(scope="module")
def cancels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bed]:
    root = tmp_path_factory.mktemp("cancel")
    piddir = root / "pids"
    piddir.mkdir()
    with bed(
        root,
        QUICK | {k: v for m in MODES for k, v in exports(piddir, m).items()},
        {f"m-slow-{m}": [SLOW_TURN] for m in MODES}
        | {f"m-hanger-{m}": [hang_turn(m)] for m in MODES},
        {f"{kind}_{m}": f"m-{kind}-{m}" for kind in ("slow", "hanger") for m in MODES},
        http=False,
    ) as b:
        yield b


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    pids: list[int] = []
    yield pids
    kill_leftovers(pids)


async def cancelled(client: Client, tool: str, arguments: dict[str, Any], ready: Any) -> None:
    """Call `tool` and cancel the call once `ready()` returns."""
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:

            async def cancel_when_ready() -> None:
                await ready()
                tg.cancel_scope.cancel()

            tg.start_soon(cancel_when_ready)
            await client.call_tool(tool, arguments)
            raise AssertionError("the call should have been cancelled")  # pragma: no cover


async def end_of_last_run(db: Path, tool: str) -> dict[str, Any]:
    """The end record of `tool`'s latest run, once written."""
    with anyio.fail_after(KILL_LIMIT):
        while True:
            found = rows(db)
            starts = [r for r in found if r["kind"] == "start" and r["tool"] == tool]
            if starts:
                run_id = starts[-1]["call_id"]
                ends = [r for r in found if r["kind"] == "end" and r["call_id"] == run_id]
                if ends:
                    return ends[0]
            await anyio.sleep(0.05)


@pytest.mark.parametrize("mode", MODES)
async def test_cancel_stops_the_model_request_and_the_tools(
    cancels: Bed, leftovers: list[int], mode: str
) -> None:
    model = cancels.model
    piddir = cancels.root / "pids"
    errlog = (cancels.root / f"server-{mode}.stderr").open("w")
    with errlog:
        async with stdio_client_of(
            cancels.exports, cancels.state, mode, *cancels.serve_args, errlog=errlog
        ) as client:
            # 1. While the model's answer is delayed.
            async def model_asked() -> None:
                while not requests_of(model, f"m-slow-{mode}"):
                    await anyio.sleep(0.02)

            await cancelled(client, f"waits_{mode}", {}, model_asked)
            end = await end_of_last_run(cancels.db, f"waits_{mode}")
            assert end["status"] == "cancelled"
            (asked,) = [r for r in model.requests if r.model == f"m-slow-{mode}"]
            assert asked.answered is False  # abandoned: the answer was never read

            # 2. While a custom tool's sleep runs.
            files = [piddir / f"{mode}.sleep", piddir / f"{mode}.shell"]

            async def tool_running() -> None:
                await wait_for_files(files, timeout=KILL_LIMIT)

            await cancelled(client, f"hangs_{mode}", {}, tool_running)
            pids = read_pids(files)
            leftovers.extend(pids)
            await seconds_until_dead(pids, KILL_LIMIT)
            assert not any(pid_alive(p) for p in pids)
            end = await end_of_last_run(cancels.db, f"hangs_{mode}")
            assert end["status"] == "cancelled"
            tool_end = await end_of_last_run(cancels.db, f"hangs_{mode}.hang")
            assert tool_end["status"] == "cancelled"

            # The session is still usable.
            after = await client.call_tool("quick", {})
            assert after.is_error is False and "still here" in text_of(after)
    done(model, f"m-slow-{mode}")
    done(model, f"m-hanger-{mode}")
