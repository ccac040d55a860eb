"""Issue 10 (workers), the failure paths of docs/scale-out.md, *What happens
on each failure*, with real parts: ``mcp-harbor worker`` subprocesses, a
real Redis, the SQLite store shared by the replica and the workers (one
machine), and a real ``mcp-harbor serve --broker`` called over stdio.

Proven here:

- a worker that died with its reaper (its whole process group killed) left
  its pipeline running; a worker started again with the same ledger kills
  that process group before it takes work;
- an export with ``redispatch: true`` whose worker died is run again by
  another worker, and the call gets that attempt's result;
- a worker that lost its lease while paused (``SIGSTOP``) never reports its
  attempt's outcome once another attempt owns the run (fencing);
- a started run whose ``result`` entry never arrives (Redis shut down while
  the step ran, restarted empty or not at all) is given up as
  ``worker_lost`` after its deadline plus the result grace.

Only process groups these tests created are signalled: the workers' own
sessions (``start_new_session``) and, through the code under test, the
steps' groups; every pgid is checked to be > 1 and not the test's own.
"""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
import redis
from harbor_helpers import (
    free_port,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    stdio_client_opts,
    text_of,
    wait_for_files,
    write_export,
)
from suite_services import running_redis

from mcp_harbor.check import load_and_check
from mcp_harbor.remote import CeleryExecutor
from mcp_harbor.remote.wire import stream_key
from mcp_harbor.runner import RunRequest
from tests.scale.conftest import StepStarted, WorkerProc, start_worker
from tests.scale.test_workers import end_record

pytestmark = pytest.mark.anyio

LEASE = 2.0
SWEEP = 0.5


def _hang(piddir: Path) -> str:
    """Shell lines that record bash, sleep and cat pids under $ARG_tag and hang."""
    return f"""
        d={piddir}/$ARG_tag
        mkdir -p "$d"
        echo $$ > "$d/bash"
        sh -c 'echo $$ > "$0/sleep"; exec sleep 300' "$d" |
          sh -c 'echo $$ > "$0/cat"; exec cat' "$d"
    """


def _export(folder: Path, name: str, head: str, script: str) -> None:
    body = "\n".join("      " + line.strip() for line in script.strip().splitlines())
    write_export(
        folder,
        f"{name}.yaml",
        f"name: {name}\ndescription: A worker failure.\n{head}"
        "args:\n  tag: {type: string, pattern: '^[a-z0-9-]+$'}\nrequired: [tag]\n"
        f"steps:\n  - name: work\n    run: |\n{body}\n",
    )


@dataclass
class Setup:
    root: Path
    exports: Path
    state: Path
    db: Path
    broker: str
    piddir: Path

    def worker(self, name: str, queue: str, *extra: str) -> WorkerProc:
        return start_worker(
            self.exports, self.db, self.broker, self.state, self.root / f"{name}.log",
            "--hostname", name, "--lease-seconds", str(LEASE), *extra, queues=queue,
        )  # fmt: skip

    def client(self) -> Any:
        return stdio_client_opts(
            self.exports, self.state, "auto",
            "--db", str(self.db), "--broker", self.broker, "--sweep-interval", str(SWEEP),
        )  # fmt: skip


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Setup:
    root = tmp_path_factory.mktemp("loss")
    piddir, exports = root / "pids", root / "exports"
    _export(exports, "ledger", "runs_on: ledger\n", _hang(piddir))
    # The first attempt hangs; the second (another worker) ends at once.
    _export(
        exports,
        "again",
        "runs_on: again\nredispatch: true\n",
        f"""
        mkdir -p {piddir}/$ARG_tag
        echo ran >> {piddir}/$ARG_tag/runs
        if [ "$(wc -l < {piddir}/$ARG_tag/runs)" -gt 1 ]; then echo "attempt two"; exit 0; fi
        {_hang(piddir)}
        """,
    )
    # The first attempt ends by itself after 3 s (while its worker is paused).
    _export(
        exports,
        "fence",
        "runs_on: fence\nredispatch: true\n",
        f"""
        mkdir -p {piddir}/$ARG_tag
        echo ran >> {piddir}/$ARG_tag/runs
        if [ "$(wc -l < {piddir}/$ARG_tag/runs)" -gt 1 ]; then echo "attempt two"; exit 0; fi
        echo $$ > {piddir}/$ARG_tag/first
        sleep 3
        echo "attempt one"
        """,
    )
    return Setup(root, exports, root / "state", root / "harbor.db", redis_url, piddir)


def _own_group(worker: WorkerProc) -> int:
    """The worker's process group: its own session, never ours, never init's."""
    pgid = os.getpgid(worker.pid)
    assert pgid == worker.pid and pgid > 1 and pgid != os.getpgrp(), pgid
    return pgid


async def test_a_restarted_worker_kills_the_groups_a_dead_one_left(setup: Setup) -> None:
    files = [setup.piddir / "ledger" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    first = setup.worker("wl", "ledger")
    again: WorkerProc | None = None
    try:
        async with setup.client() as c:
            with anyio.fail_after(30):
                async with anyio.create_task_group() as tg:

                    async def kill_worker_and_reaper() -> None:
                        await wait_for_files(files, 20)
                        pids.extend(read_pids(files))
                        # The worker and its reaper, at once: nothing is left
                        # to kill the step's group (its own session).
                        os.killpg(_own_group(first), signal.SIGKILL)
                        first.proc.wait(10)

                    tg.start_soon(kill_worker_and_reaper)
                    result = await c.call_tool("ledger", {"tag": "ledger"})
        envelope = result.structured_content
        assert envelope is not None and envelope["status"] == "worker_lost", envelope
        # The pipeline outlived its worker and the reaper.
        assert all(pid_alive(p) for p in pids), pids
        ledger = setup.db.with_name("worker-wl.pgids")
        assert f"+{pids[0]}\n" in ledger.read_text()  # bash leads the step's group
        again = setup.worker("wl", "ledger")  # the same --hostname: the same ledger
        await seconds_until_dead(pids, 5.0)
        assert f"killed 1 process group(s) a previous worker left: {pids[0]}" in (
            again.log.read_text()
        )
        assert ledger.read_text() == ""
    finally:
        kill_leftovers(pids)
        first.stop()
        if again is not None:
            again.stop()


async def test_an_opted_in_run_is_redispatched_after_worker_loss(setup: Setup) -> None:
    files = [setup.piddir / "redo" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    first = setup.worker("ra", "again", "--slots", "1")
    second: WorkerProc | None = None
    try:
        async with setup.client() as c:
            with anyio.fail_after(40):
                async with anyio.create_task_group() as tg:

                    async def lose_the_first_worker() -> None:
                        nonlocal second
                        await wait_for_files(files, 20)
                        pids.extend(read_pids(files))
                        # Ready before the loss, so only the re-sent message is its.
                        second = await anyio.to_thread.run_sync(setup.worker, "rb", "again")
                        os.kill(first.pid, signal.SIGKILL)

                    tg.start_soon(lose_the_first_worker)
                    result = await c.call_tool("again", {"tag": "redo"})
        assert result.is_error is False, text_of(result)
        envelope = result.structured_content
        assert envelope is not None and envelope["status"] == "ok", envelope
        assert envelope["steps_run"] == 1
        assert "attempt two" in text_of(result)
        assert (setup.piddir / "redo" / "runs").read_text() == "ran\nran\n"
        status, body = end_record(setup.db, envelope["run_id"])
        assert status == "ok" and body["worker_host"] == "rb"
        await seconds_until_dead(pids, 2.0)  # the dead worker's reaper took the first attempt
    finally:
        kill_leftovers(pids)
        first.stop()
        if second is not None:
            second.stop()


def _entries(broker: str, run_id: str) -> list[dict[str, Any]]:
    r = redis.Redis.from_url(broker)
    try:
        return [json.loads(f[b"e"]) for _, f in r.xrange(stream_key(run_id))]
    finally:
        r.close()


async def test_a_worker_that_lost_its_lease_never_reports_its_outcome(setup: Setup) -> None:
    first_pid = setup.piddir / "fenced" / "first"
    paused = setup.worker("fa", "fence", "--slots", "1")
    second: WorkerProc | None = None
    stopped = False
    try:
        async with setup.client() as c:
            with anyio.fail_after(40):
                async with anyio.create_task_group() as tg:

                    async def pause_the_first_worker() -> None:
                        nonlocal stopped, second
                        await wait_for_files([first_pid], 20)
                        # Only the worker process: its step goes on and ends
                        # while the worker cannot renew its lease.
                        os.kill(paused.pid, signal.SIGSTOP)
                        stopped = True
                        second = await anyio.to_thread.run_sync(setup.worker, "fb", "fence")

                    tg.start_soon(pause_the_first_worker)
                    result = await c.call_tool("fence", {"tag": "fenced"})
        assert result.is_error is False, text_of(result)
        envelope = result.structured_content
        assert envelope is not None and envelope["status"] == "ok", envelope
        assert "attempt two" in text_of(result) and "attempt one" not in text_of(result)
        run_id = envelope["run_id"]
        assert end_record(setup.db, run_id)[1]["worker_host"] == "fb"
        # The paused worker wakes up: its step ended long ago, its lease is
        # attempt 2's. It must stop without reporting attempt 1's outcome.
        os.kill(paused.pid, signal.SIGCONT)
        stopped = False
        with anyio.fail_after(20):
            while "the lease was lost" not in paused.log.read_text():
                await anyio.sleep(0.1)
        await anyio.sleep(0.5)  # anything it would still write, it has written
        entries = _entries(setup.broker, run_id)
        terminal = [e for e in entries if e["t"] in ("result", "cancelled", "refused")]
        assert [(e["t"], e["host"], e["attempt"]) for e in terminal] == [("result", "fb", 2)]
        assert [e["attempt"] for e in entries if e["t"] == "redispatched"] == [2]
    finally:
        if stopped:
            os.kill(paused.pid, signal.SIGCONT)
        paused.stop()
        if second is not None:
            second.stop()


@pytest.mark.parametrize("restarted", [True, False], ids=["redis-restarted", "redis-gone"])
async def test_a_run_whose_result_is_lost_is_given_up(tmp_path: Path, restarted: bool) -> None:
    port = free_port()
    broker = f"redis://127.0.0.1:{port}/0"
    exports, db, state = tmp_path / "exports", tmp_path / "harbor.db", tmp_path / "state"
    go = tmp_path / "go"
    # The step waits until the test has shut Redis down: its end and the
    # result entry have nowhere to go.
    write_export(
        exports,
        "gone.yaml",
        "name: gone\ndescription: Loses its result.\nruns_on: gone\ntimeout: 3\n"
        "steps:\n  - name: work\n    run: |\n"
        f"      while [ ! -e {go} ]; do sleep 0.05; done\n",
    )
    export = {e.name: e for e in load_and_check([exports]).accepted}["gone"]
    run_id = f"lost-{time.time_ns()}"
    run_dir = tmp_path / "runs" / run_id
    run_dir.mkdir(parents=True)
    request = RunRequest(
        export=export, arguments={}, run_id=run_id, run_dir=run_dir, workdir=tmp_path,
        started=time.monotonic(),
    )  # fmt: skip
    executor = CeleryExecutor(broker, result_grace=1.0)
    observer = StepStarted()
    outcome: list[Any] = []
    with running_redis(tmp_path, port) as first:
        worker = start_worker(
            exports, db, broker, state, tmp_path / "w.log", "--hostname", "wg", queues="gone"
        )
        try:
            with anyio.fail_after(30):
                async with anyio.create_task_group() as tg:

                    async def call() -> None:
                        outcome.append(await executor.run(request, observer))

                    tg.start_soon(call)
                    await observer.event.wait()  # the replica heard of the start
                    first.terminate()  # no save, no AOF: every stream is gone
                    await anyio.to_thread.run_sync(first.wait, 10)
                    go.touch()
                    log = tmp_path / "w.log"
                    while "failed on the worker" not in log.read_text():  # nothing written
                        await anyio.sleep(0.1)
                    if restarted:  # the same port, empty
                        with running_redis(tmp_path, port):
                            while not outcome:
                                await anyio.sleep(0.1)
        finally:
            worker.stop()
            await executor.aclose()
    result = outcome[0]
    assert result.status == "worker_lost", result
    assert result.worker_host == "wg"  # the worker that started it
    assert result.steps == []  # its step's end never arrived
