"""Issue 19 on workers: a ``runs_on:`` export's secret is read from the
worker's own environment, never the server's, and never crosses the wire.

A real ``mcp-harbor serve --broker`` (which lacks the secret) dispatches
through a real Redis to a real ``mcp-harbor worker`` (which has it). The
step gets the value; the value appears nowhere: not in the MCP result, the
notifications, the run's Redis stream, nor any file under either state
directory (SQLite file and WAL included). The worker's ``--pass-env``
applies on the worker; the server's does not travel. A secret the worker
lacks is logged once at its start, and its runs are refused naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import PY, server_env, stdio_client_env, text_of, write_export
from mcp import types

from mcp_harbor.runctx import ENVELOPE_META_KEY
from tests.scale.conftest import WorkerProc

pytestmark = pytest.mark.anyio

SECRET = "worker-only 'secret' Vq3Nz8"


def exports_into(folder: Path) -> Path:
    # A program the checker does not read (it runs its argument as a
    # script): the scrubber is what stands behind it, under test here.
    printer = folder.parent / "printer.sh"
    printer.write_text('eval "$1"\n', encoding="utf-8")
    write_export(
        folder,
        "vault.yaml",
        """
        name: vault
        description: Uses a secret only the worker has.
        runs_on: vault
        # the printer's bash is named for the secret: the author's word (here,
        # on purpose, a false one) that it never prints it
        secrets:
          TOKEN: {env: WORKER_ONLY_TOKEN, programs: [bash]}
        steps:
          - name: use
            argv:
              - bash
              - PRINTER
              - |
                  echo "token=$TOKEN"
                  printf '%q\\n' "$TOKEN"
                  echo "worker=${WORKER_PASSED-unset} server=${SERVER_PASSED-unset}"
                  echo "v=$TOKEN" >> "$HARBOR_STEP_OUTPUT"
        """.replace("PRINTER", str(printer)),
    )
    write_export(
        folder,
        "lacking.yaml",
        """
        name: lacking
        description: Its secret is on no machine.
        runs_on: vault
        secrets:
          TOKEN: {env: NOWHERE_TOKEN}
        steps:
          - name: use
            run: test -n "$TOKEN"
        """,
    )
    return folder


def forms() -> list[bytes]:
    return [SECRET.encode(), b"Vq3Nz8", json.dumps(SECRET)[1:-1].encode()]


def leaks(data: bytes, where: str) -> list[str]:
    return [f"{where}: {f!r}" for f in forms() if f in data]


async def test_a_worker_reads_its_own_secret_and_sends_none(tmp_path: Path, redis_url: str) -> None:
    import redis

    from mcp_harbor.remote.wire import stream_key

    exports = exports_into(tmp_path / "exports")
    db, server_state, worker_state = tmp_path / "harbor.db", tmp_path / "s", tmp_path / "w"
    argv = [
        PY, "-m", "mcp_harbor", "--log-level", "info", "worker", "--queues", "vault",
        "--broker", redis_url, "--db", str(db), "--exports", str(exports),
        "--hostname", "wsec", "--slots", "1", "--pass-env", "WORKER_PASSED",
    ]  # fmt: skip
    env = server_env(
        worker_state,
        WORKER_ONLY_TOKEN=SECRET,
        WORKER_PASSED="on-the-worker",
        SERVER_PASSED="the worker has it, unpassed",
    )
    worker = WorkerProc(argv, env, tmp_path / "worker.log")
    notes: list[bytes] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        notes.append(params.model_dump_json().encode())

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        notes.append(json.dumps([progress, total, message]).encode())

    try:
        worker.wait_ready()
        serve = ("--db", str(db), "--broker", redis_url, "--pass-env", "SERVER_PASSED")
        client = stdio_client_env(
            exports, server_state, "auto", *serve, env={"SERVER_PASSED": "on-the-server"},
            logging_callback=on_log, log_level="info",
        )  # fmt: skip
        async with client:
            listed = {t.name for t in (await client.list_tools()).tools}
            assert listed == {"vault", "lacking"}  # the server does not probe a worker's secrets
            result = await client.call_tool("vault", {}, progress_callback=on_progress)
            lacking = await client.call_tool("lacking", {})
            lacking_again = await client.call_tool("lacking", {})
    finally:
        worker.stop()
    assert result.is_error is False, text_of(result)
    assert result.meta is not None
    envelope = json.loads(result.meta[ENVELOPE_META_KEY])
    (step,) = envelope["steps"]
    assert step["stdout_tail"] == "token=***\n***\nworker=on-the-worker server=unset\n"
    assert step["outputs"] == {"v": "***"}
    assert any(b"token=***" in n for n in notes), notes

    for refused in (lacking, lacking_again):
        assert refused.is_error is True
        assert "secret TOKEN: environment variable NOWHERE_TOKEN is not set or empty" in (
            text_of(refused)
        )
    log = (tmp_path / "worker.log").read_text()
    assert log.count("lacking cannot run on this worker until its secrets are there") == 1, log
    assert log.count("refused: lacking cannot run now") == 1, log  # once, not per run
    assert "Traceback" not in log

    found = leaks(result.model_dump_json().encode(), "the MCP result")
    for n, note in enumerate(notes):
        found += leaks(note, f"notification {n}")
    entries: Any = redis.Redis.from_url(redis_url).xrange(stream_key(envelope["run_id"]))
    assert entries, "the run's stream expired before it was read"
    found += leaks(repr(entries).encode(), "the run's Redis stream")
    decoded = [{a.decode(): b.decode() for a, b in fields.items()} for _, fields in entries]
    found += leaks(json.dumps(decoded, ensure_ascii=False).encode(), "the stream, decoded")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]  # the worker's log too
    assert any(p.name.endswith(".stdout.log") for p in files)
    for path in files:
        found += leaks(path.read_bytes(), str(path))
    assert not found, "\n".join(found)
