"""Issue 2, item 9: logs never reach the stdio wire. The server logs at
debug level during calls whose steps write to stdout and stderr; every line
on its stdout is still a JSON-RPC message, and the logs are on stderr."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import (
    MODES,
    raw_handshake,
    serve_argv,
    server_env,
    stdio_client_of,
    text_of,
    write_export,
)

pytestmark = pytest.mark.anyio

NOISY = """
    name: noisy
    description: Writes to both streams.
    args:
      n: {type: integer, minimum: 1, maximum: 3}
    required: [n]
    steps:
      - name: talk
        run: |
          echo "plain text on the step's stdout"
          echo '{"jsonrpc": "2.0", "method": "not/from/the/server"}'
          echo "step stderr" >&2
"""


def exports_in(root: Path) -> Path:
    exports = root / "exports"
    write_export(exports, "noisy.yaml", NOISY)
    return exports


@pytest.mark.parametrize("mode", MODES)
async def test_logging_server_keeps_the_stdio_wire_clean(tmp_path: Path, mode: str) -> None:
    faults: list[Exception] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            faults.append(message)

    errlog_path = tmp_path / "server.stderr"
    with open(errlog_path, "w") as errlog:
        async with stdio_client_of(
            exports_in(tmp_path),
            tmp_path / "state",
            mode,
            errlog=errlog,
            log_level="debug",
            message_handler=on_message,
        ) as client:
            ok = await client.call_tool("noisy", {"n": 1})
            refused = await client.call_tool("noisy", {"n": 7})
            again = await client.call_tool("noisy", {"n": 2})
    assert faults == []
    assert ok.is_error is False and again.is_error is False
    assert refused.is_error is True
    assert "plain text on the step's stdout" in text_of(ok)
    logs = errlog_path.read_text()
    assert re.search(r"INFO mcp_harbor\.harbor\b.*: publishing 1 tools: noisy", logs)
    assert len(re.findall(r"INFO mcp_harbor\.server\b.*: noisy: run \S+ ", logs)) == 2


def test_raw_stdout_is_only_json_rpc(tmp_path: Path) -> None:
    """Read the server's stdout byte for byte (handshake era)."""
    requests = [
        *raw_handshake(),
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "noisy", "arguments": {"n": 1}},
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "noisy", "arguments": {}},
        },
    ]
    stderr_path = tmp_path / "server.stderr"
    responses: dict[int, dict[str, Any]] = {}
    with (
        open(stderr_path, "wb") as err,
        subprocess.Popen(
            serve_argv(exports_in(tmp_path), log_level="debug"),
            env=server_env(tmp_path / "state"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        ) as proc,
    ):
        assert proc.stdin is not None and proc.stdout is not None
        try:
            for request in requests:
                proc.stdin.write(json.dumps(request).encode() + b"\n")
                proc.stdin.flush()
                if "id" not in request:
                    continue
                while request["id"] not in responses:
                    line = proc.stdout.readline()
                    assert line, "the server closed stdout"
                    message = json.loads(line)  # a log line here would not parse
                    assert message["jsonrpc"] == "2.0"
                    if "id" in message:
                        responses[message["id"]] = message
            proc.stdin.close()
            rest = proc.stdout.read()
            assert proc.wait(30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    stderr = stderr_path.read_bytes()
    assert rest == b""
    assert responses[2]["result"]["tools"][0]["name"] == "noisy"
    assert responses[3]["result"]["isError"] is False
    assert responses[3]["result"]["structuredContent"]["status"] == "ok"
    assert responses[4]["result"]["isError"] is True
    assert re.search(rb"INFO mcp_harbor\.server\b.*: noisy: run \S+ ", stderr)


BIG = """
    name: big
    description: Prints 200 kB on stdout, all of it kept in the answer.
    output_tail: 300000
    args:
      n: {type: integer, minimum: 1, maximum: 9}
    required: [n]
    steps:
      - name: print
        run: head -c 200000 /dev/zero | tr '\\0' "$ARG_n"
"""


def _handshake(*more: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in [*raw_handshake(), *more])


def _big_call(request_id: int, n: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "big", "arguments": {"n": n}},
    }


@contextlib.contextmanager
def _big_server(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`mcp-harbor serve` with the BIG export, its stdin and stdout ours
    (raw pipes); killed on the way out if still running."""
    exports = tmp_path / "exports"
    write_export(exports, "big.yaml", BIG)
    with subprocess.Popen(
        serve_argv(exports),
        env=server_env(tmp_path / "state"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as proc:
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_answers_larger_than_the_pipe_arrive_whole_and_in_order(tmp_path: Path) -> None:
    """Three 200 kB answers (each more than a pipe holds) while the client
    does not read for a second: none is lost, torn or interleaved, and the
    server answers a fourth request after them."""
    with _big_server(tmp_path) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(_handshake(_big_call(2, 7), _big_call(3, 8), _big_call(4, 9)))
        proc.stdin.flush()
        time.sleep(1.0)  # the answers pile up against the full pipe
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"}).encode())
        proc.stdin.write(b"\n")
        proc.stdin.flush()
        lines: list[bytes] = []
        seen: set[Any] = set()
        while seen != {1, 2, 3, 4, 5}:
            line = proc.stdout.readline()
            assert line, f"the server closed stdout; answered: {sorted(seen)}"
            lines.append(line)
            seen.add(json.loads(line).get("id"))
        proc.stdin.close()
        lines += proc.stdout.read().splitlines()
        assert proc.wait(30) == 0
    messages = [json.loads(line) for line in lines]
    answers = {m["id"]: m for m in messages if "id" in m}
    assert sorted(answers) == [1, 2, 3, 4, 5]
    for request_id, digit in ((2, "7"), (3, "8"), (4, "9")):
        step = answers[request_id]["result"]["structuredContent"]["steps"][0]
        assert step["stdout_tail"] == digit * 200000
        assert step["stdout_truncated"] is False
    assert answers[5]["result"] == {}


def test_regular_files_as_the_wire(tmp_path: Path) -> None:
    """stdin and stdout redirected to regular files (which the event loop
    cannot watch): the request is read and its answer written. (Requests
    still running when stdin ends are cancelled, as when a client closes
    stdin, so the file holds a line answered without running anything.)"""
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(b"this is not json\n")
    answers_path = tmp_path / "answers.jsonl"
    with open(requests, "rb") as stdin, open(answers_path, "wb") as stdout:
        done = subprocess.run(
            serve_argv(exports_in(tmp_path)),
            env=server_env(tmp_path / "state"),
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = [json.loads(line) for line in answers_path.read_bytes().splitlines()]
    assert answers == [
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    ]


def test_sigterm_stops_a_server_whose_client_does_not_read(tmp_path: Path) -> None:
    """An answer stuck against a full pipe (the client stopped reading)
    does not keep the server alive after SIGTERM."""
    with _big_server(tmp_path) as proc:
        assert proc.stdin is not None
        proc.stdin.write(_handshake(_big_call(2, 7), _big_call(3, 8)))
        proc.stdin.flush()
        time.sleep(1.0)  # both answers are ready; the pipe is full
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) is not None
