"""Issue 18: what `CeleryExecutor.run` raises when its call is cancelled,
with real parts: a real Redis, a real ``mcp-harbor worker`` subprocess, the
executor called in this process.

- the worker confirms the stop (a ``cancelled`` entry): the cancellation
  itself propagates, and the step's processes are gone;
- the worker cannot answer (``SIGSTOP``, after it started the step):
  `CancelUnconfirmed` naming the worker is raised after ``cancel_wait``
  instead, the cancellation is still in effect at the next checkpoint, and
  the worker, continued, still stops the run;
- no worker took the run: `CancelUnconfirmed` without a worker.

Only the worker's own session (``start_new_session``) is signalled, by pid.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    audit_records,
    kill_leftovers,
    pid_alive,
    read_pids,
    seconds_until_dead,
    wait_for_files,
    write_export,
)

from mcp_harbor.check import load_and_check
from mcp_harbor.config import Export
from mcp_harbor.errors import CancelUnconfirmed
from mcp_harbor.identity import Caller
from mcp_harbor.remote import CeleryExecutor
from mcp_harbor.runctx import CallRequest, CallService, ExportCatalog, RunSettings
from mcp_harbor.runner import RunRequest
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore
from tests.scale.conftest import StepStarted, WorkerProc, start_worker

pytestmark = pytest.mark.anyio

#: The executor's wait for the worker's word, kept short for the test.
WAIT = 1.0


@dataclass
class Setup:
    root: Path
    exports: dict[str, Export]
    folder: Path
    piddir: Path
    broker: str

    def worker(self, name: str) -> WorkerProc:
        return start_worker(
            self.folder, self.root / "harbor.db", self.broker, self.root / "state",
            self.root / f"{name}.log", "--hostname", name, queues="halt",
        )  # fmt: skip

    def request(self, name: str, tag: str) -> RunRequest:
        run_id = f"{tag}-{time.time_ns()}"
        run_dir = self.root / "runs" / run_id
        run_dir.mkdir(parents=True)
        return RunRequest(
            export=self.exports[name], arguments={"tag": tag}, run_id=run_id, run_dir=run_dir,
            workdir=self.root, started=time.monotonic(),
        )  # fmt: skip


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Setup:
    root = tmp_path_factory.mktemp("cancel")
    piddir, folder = root / "pids", root / "exports"
    hang = f"""
        d={piddir}/$ARG_tag
        mkdir -p "$d"
        echo $$ > "$d/bash"
        sh -c 'echo $$ > "$0/sleep"; exec sleep 300' "$d" |
          sh -c 'echo $$ > "$0/cat"; exec cat' "$d"
    """
    body = "\n".join("      " + line.strip() for line in hang.strip().splitlines())
    head = "args:\n  tag: {type: string, pattern: '^[a-z0-9-]+$'}\nrequired: [tag]\n"
    for name, label in (("halt", "halt"), ("unserved", "nobody")):
        write_export(
            folder,
            f"{name}.yaml",
            f"name: {name}\ndescription: Hangs on a worker.\nruns_on: {label}\ntimeout: 60\n"
            f"{head}steps:\n  - name: hang\n    run: |\n{body}\n",
        )
    exports = {e.name: e for e in load_and_check([folder]).accepted}
    return Setup(root, exports, folder, piddir, redis_url)


async def _cancelled_run(
    executor: CeleryExecutor, request: RunRequest, ready: Any
) -> tuple[list[object], float]:
    """Run `request`, cancel it once `ready()` returns, and say what
    `executor.run` raised: the `CancelUnconfirmed`, or "cancelled" for the
    cancellation itself; then how long the cancel took."""
    outcome: list[object] = []
    observer = StepStarted()
    scope = anyio.CancelScope()

    async def call() -> None:
        with scope:
            try:
                await executor.run(request, observer)
            except CancelUnconfirmed as exc:
                outcome.append(exc)
            except anyio.get_cancelled_exc_class():
                outcome.append("cancelled")
                raise
            else:
                outcome.append("returned")
            # Level-triggered: the cancellation is still in effect here.
            await anyio.sleep(30)
            outcome.append("not cancelled")

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            await ready(observer)
            cancelled = time.monotonic()
            scope.cancel()
    return outcome, time.monotonic() - cancelled


async def test_a_confirmed_cancel_reraises_the_cancellation(setup: Setup) -> None:
    files = [setup.piddir / "confirmed" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    worker = setup.worker("wc")
    executor = CeleryExecutor(setup.broker, cancel_wait=10.0)

    async def when_running(observer: StepStarted) -> None:
        await observer.event.wait()
        await wait_for_files(files, 20)
        pids.extend(read_pids(files))

    try:
        outcome, took = await _cancelled_run(
            executor, setup.request("halt", "confirmed"), when_running
        )
        assert outcome == ["cancelled"], outcome
        assert took < 5, took  # confirmed long before the wait ran out
        # Confirmed: the worker's processes were gone when it propagated.
        assert not any(pid_alive(p) for p in pids), pids
    finally:
        kill_leftovers(pids)
        worker.stop()
        await executor.aclose()


async def test_an_unconfirmed_cancel_raises_cancel_unconfirmed(setup: Setup) -> None:
    files = [setup.piddir / "paused" / n for n in ("bash", "sleep", "cat")]
    pids: list[int] = []
    worker = setup.worker("wp")
    executor = CeleryExecutor(setup.broker, cancel_wait=WAIT)
    stopped = False

    async def when_running_pause_the_worker(observer: StepStarted) -> None:
        nonlocal stopped
        await observer.event.wait()
        await wait_for_files(files, 20)
        pids.extend(read_pids(files))
        # Only the worker process: it cannot hear the cancel nor answer it.
        os.kill(worker.pid, signal.SIGSTOP)
        stopped = True

    try:
        outcome, took = await _cancelled_run(
            executor, setup.request("halt", "paused"), when_running_pause_the_worker
        )
        assert len(outcome) == 1 and isinstance(outcome[0], CancelUnconfirmed), outcome
        error = outcome[0]
        assert error.worker == "wp"
        assert "did not confirm within 1 s" in str(error), str(error)
        assert WAIT <= took < WAIT + 3, took
        # Nothing confirmed it: the step's processes are still there.
        assert all(pid_alive(p) for p in pids), pids
        # Continued, the worker hears the cancel it missed and stops the run.
        os.kill(worker.pid, signal.SIGCONT)
        stopped = False
        await seconds_until_dead(pids, 10.0)
    finally:
        if stopped:
            os.kill(worker.pid, signal.SIGCONT)
        kill_leftovers(pids)
        worker.stop()
        await executor.aclose()


async def test_a_cancel_no_worker_took_is_unconfirmed_without_a_worker(setup: Setup) -> None:
    executor = CeleryExecutor(setup.broker, cancel_wait=0.5)

    async def after_dispatch(observer: StepStarted) -> None:
        await anyio.sleep(0.5)  # the message is at the broker; nobody serves its queue

    try:
        outcome, took = await _cancelled_run(
            executor, setup.request("unserved", "unserved"), after_dispatch
        )
    finally:
        await executor.aclose()
    assert len(outcome) == 1 and isinstance(outcome[0], CancelUnconfirmed), outcome
    assert outcome[0].worker is None
    assert "no worker had started it" in str(outcome[0])
    assert took < 3, took


async def test_the_call_path_records_an_unconfirmed_cancel(setup: Setup) -> None:
    """Through `CallService.call`: the start record is written, the
    cancellation propagates to the caller, and the end record says
    ``cancel_unconfirmed`` (not ``cancelled``: nobody confirmed the stop)."""
    db = setup.root / "calls.db"
    store = SqliteStore(db)
    executor = CeleryExecutor(setup.broker, cancel_wait=0.5)
    service = CallService(
        RunSettings(runs_root=setup.root / "call-runs", workdir=setup.root),
        AuditTrail(store),
        store,
        remote=executor,
        catalog=ExportCatalog(setup.exports.values()),
    )
    caller = Caller(transport="stdio", principal="local:tester", session="stdio:cancel")
    try:
        with anyio.fail_after(20):
            with anyio.move_on_after(1.0) as scope:  # dispatched; nobody serves its queue
                await service.call(CallRequest("unserved", {"tag": "svc"}, caller))
        assert scope.cancelled_caught  # the cancellation reached the caller
    finally:
        store.close()
        await executor.aclose()
    records = [r for r in audit_records(db) if r["tool"] == "unserved"]
    assert [(r["kind"], r["status"]) for r in records] == [
        ("start", "running"),
        ("end", "cancel_unconfirmed"),
    ], records
    assert "no worker had started it" in records[-1]["body"]["error"]
