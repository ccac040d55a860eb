"""Raw clients and probes for the reliability suite (issue 8).

Nothing here imitates the server: `RawStdio` writes bytes to a real
``mcp-harbor serve`` subprocess and reads its stdout lines; `raw_post` sends
one HTTP request over a plain socket; stubs are real programs on PATH that
record each call.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import stat
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from harbor_helpers import serve_argv, server_env

#: Sizes of the suite; scripts/reliability/run_full.sh raises them.
SCALE = float(os.environ.get("HARBOR_RELIABILITY_SCALE", "1"))


def scaled(n: int) -> int:
    return max(1, int(n * SCALE))


def figure(name: str, **values: Any) -> None:
    """Print one measured figure (and append it to $HARBOR_RELIABILITY_FIGURES)."""
    line = json.dumps({"figure": name, **values}, sort_keys=True)
    print(line)
    path = os.environ.get("HARBOR_RELIABILITY_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")


def vm_kb(pid: int, field: str) -> int:
    """`field` (VmRSS, VmHWM) of /proc/PID/status, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is `pgid`."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            data = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        rest = data[data.rfind(b")") + 2 :].split()
        if rest[0] not in (b"Z", b"X") and int(rest[2]) == pgid:
            out.append(int(entry))
    return out


class RawStdio:
    """A real ``mcp-harbor serve`` over stdio, driven with raw bytes."""

    def __init__(
        self, exports: Path, state: Path, *extra: str, env: dict[str, str] | None = None
    ) -> None:
        state.mkdir(parents=True, exist_ok=True)
        self.stderr_path = state / f"raw-stdio-{time.monotonic_ns()}.stderr"
        self._err = open(self.stderr_path, "wb")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            serve_argv(exports, *extra),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            env=server_env(state, **(env or {})),
        )
        self.replies: queue.Queue[dict[str, Any] | bytes] = queue.Queue()
        self._next_id = 10_000
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.replies.put(json.loads(line))
            except ValueError:
                self.replies.put(line)  # not JSON: the test fails on it

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        reply = self.replies.get(timeout=timeout)
        assert isinstance(reply, dict), f"not JSON on stdout: {reply!r}"
        return reply

    def until(self, request_id: Any, timeout: float = 30) -> list[dict[str, Any]]:
        """Every message up to and including the reply to `request_id`."""
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(deadline - time.monotonic(), 0.01))
            seen.append(msg)
            if "method" not in msg and msg.get("id") == request_id:
                return seen

    def request(self, method: str, params: Any = None, timeout: float = 30) -> dict[str, Any]:
        rid = self.new_id()
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(json.dumps(msg).encode())
        return self.until(rid, timeout)[-1]

    def initialize(self) -> dict[str, Any]:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw-fuzzer", "version": "1"},
            },
        )
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        return reply

    def call(self, name: str, arguments: Any, timeout: float = 60) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments}, timeout)

    def alive(self) -> bool:
        """The server answers a ping."""
        return "result" in self.request("ping", timeout=30)

    def close(self) -> int:
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        try:
            code = self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait(10)
        self._reader.join(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self._err.close()
        return code


def text_of_result(reply: dict[str, Any]) -> str:
    result = reply.get("result") or {}
    return "\n".join(c.get("text", "") for c in result.get("content", []))


MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
}

HTTP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2026-07-28",
}


CALL_HEADERS = {**HTTP_HEADERS, "Mcp-Method": "tools/call", "Mcp-Name": "ping"}


def modern_call(name: str, arguments: Any, request_id: int = 1) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": MODERN_META},
        }
    ).encode()


def raw_request(url: str, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    """The bytes of one HTTP/1.1 POST to `url` (loopback), ready to send."""
    hostport = url.split("/")[2]
    path = "/" + url.split("/", 3)[3]
    head = {"Host": hostport, **HTTP_HEADERS, **(headers or {})}
    head["Content-Length"] = str(len(body))
    head["Connection"] = "close"
    lines = [f"POST {path} HTTP/1.1", *(f"{k}: {v}" for k, v in head.items()), "", ""]
    return "\r\n".join(lines).encode("latin-1") + body


def open_socket(url: str) -> socket.socket:
    host, port = url.split("/")[2].split(":")
    assert host == "127.0.0.1"
    return socket.create_connection((host, int(port)), timeout=30)


def make_stubs(folder: Path, names: list[str]) -> None:
    """Programs on PATH that record each call: one file per call in
    $STUB_LOG holding the program's name and argv, NUL-separated."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        path = folder / name
        path.write_text(
            "#!/bin/bash\n"
            'f="$STUB_LOG/${0##*/}.$$.$RANDOM"\n'
            'printf \'%s\\0\' "${0##*/}" "$@" > "$f.tmp" && mv "$f.tmp" "$f"\n'
        )
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def stub_calls(log: Path) -> list[list[str]]:
    """Every recorded call: [program, arg1, ...] (surrogateescape for odd bytes)."""
    calls = []
    for f in sorted(log.glob("*")):
        if f.suffix == ".tmp":
            continue
        parts = f.read_bytes().split(b"\0")[:-1]
        calls.append([p.decode("utf-8", "surrogateescape") for p in parts])
    return calls
