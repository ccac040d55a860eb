"""Helpers for tests that drive a real ``mcp-harbor serve`` subprocess.

Nothing here imitates the server: the helpers start it (stdio or Streamable
HTTP), write export files, and look at real processes through /proc.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import anyio
import jsonschema
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

PY = sys.executable
MODES = ("auto", "legacy")
PROTOCOL = {"auto": "2026-07-28", "legacy": "2025-11-25"}


def write_export(folder: Path, filename: str, text: str) -> Path:
    """Write one export file (dedented) into `folder` and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / filename
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def server_env(state: Path, **extra: str) -> dict[str, str]:
    """The server's environment: ours, with run dirs under `state`."""
    env = {k: v for k, v in os.environ.items() if k != "MCP_HARBOR_LOG_LEVEL"}
    env["XDG_STATE_HOME"] = str(state)
    # a home and a config folder of its own: never the tokens, keys or
    # settings of whoever runs the tests
    env["HOME"] = str(state / "home")
    env["XDG_CONFIG_HOME"] = str(state / "config")
    # The audit checkpoints' key and witness (defaults: the config folder)
    # next to the test's state, never in the home of whoever runs the tests.
    env["MCP_HARBOR_AUDIT_KEY"] = str(state / "audit.key")
    env["MCP_HARBOR_AUDIT_WITNESS"] = str(state / "audit.witness")
    env.update(extra)
    return env


def serve_argv(exports: Path, *extra: str, log_level: str | None = None) -> list[str]:
    argv = [PY, "-m", "mcp_harbor"]
    if log_level is not None:
        argv += ["--log-level", log_level]
    return [*argv, "serve", "--exports", str(exports), *extra]


def stdio_params(
    exports: Path, state: Path, *extra: str, log_level: str | None = None, cwd: Path | None = None
) -> StdioServerParameters:
    argv = serve_argv(exports, *extra, log_level=log_level)
    return StdioServerParameters(
        command=argv[0], args=argv[1:], env=server_env(state), cwd=str(cwd) if cwd else None
    )


def stdio_client_of(
    exports: Path,
    state: Path,
    mode: str,
    *extra: str,
    errlog: IO[str] | None = None,
    log_level: str | None = None,
    **client_kw: Any,
) -> Client:
    """An SDK client over stdio to a fresh ``mcp-harbor serve`` subprocess.
    The server's stderr goes to `errlog` (a real file) when given."""
    params = stdio_params(exports, state, *extra, log_level=log_level)
    transport = stdio_client(params, errlog=errlog) if errlog is not None else stdio_client(params)
    return Client(transport, mode=mode, **client_kw)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class HttpServer:
    url: str
    proc: subprocess.Popen[bytes]
    stderr_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")


@contextlib.contextmanager
def http_server(
    exports: Path, state: Path, *extra: str, log_level: str | None = None
) -> Iterator[HttpServer]:
    """Start ``mcp-harbor serve --transport http`` on a free port; wait until
    it accepts connections; stop it after."""
    port = free_port()
    state.mkdir(parents=True, exist_ok=True)
    stderr_path = state / f"http-server-{port}.stderr"
    argv = serve_argv(
        exports, "--transport", "http", "--port", str(port), *extra, log_level=log_level
    )
    with open(stderr_path, "wb") as err:
        proc = subprocess.Popen(
            argv, env=server_env(state), stdin=subprocess.DEVNULL, stdout=err, stderr=err
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"server exited with {proc.returncode}: {stderr_path.read_text()}"
                )
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not listen: {stderr_path.read_text()}")
            time.sleep(0.05)
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", proc, stderr_path)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


async def output_schema_of(client: Client, tool_name: str) -> dict[str, Any] | None:
    """The tool's ``outputSchema`` as listed (None: it declares none)."""
    listing = await client.list_tools()
    (tool,) = [t for t in listing.tools if t.name == tool_name]
    return None if tool.output_schema is None else dict(tool.output_schema)


async def assert_valid_output(client: Client, tool_name: str, structured: Any) -> None:
    """`structured` matches the tool's ``outputSchema``, or the documented
    envelope schema when the tool declares none (no ``output_schema``)."""
    from mcp_harbor.runctx import ENVELOPE_SCHEMA

    schema = await output_schema_of(client, tool_name) or ENVELOPE_SCHEMA
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(structured, schema, cls=jsonschema.Draft202012Validator)


# --- processes -------------------------------------------------------------------


def pid_alive(pid: int) -> bool:
    """True while `pid` is a live (non-zombie) process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    state = stat[stat.rfind(b")") + 2 :].split()[0]
    return state not in (b"Z", b"X")


def read_pids(paths: Iterable[Path]) -> list[int]:
    return [int(p.read_text().strip()) for p in paths]


async def wait_for_files(paths: Iterable[Path], timeout: float) -> None:
    paths = list(paths)
    with anyio.fail_after(timeout):
        while not all(p.exists() and p.read_text().strip() for p in paths):
            await anyio.sleep(0.02)


async def seconds_until_dead(pids: Iterable[int], limit: float) -> float:
    """Seconds until every pid is gone; fails the test after `limit` s."""
    pids = list(pids)
    start = time.monotonic()
    while any(pid_alive(p) for p in pids):
        if time.monotonic() - start > limit:
            alive = [p for p in pids if pid_alive(p)]
            raise AssertionError(f"processes still alive after {limit} s: {alive}")
        await anyio.sleep(0.02)
    return time.monotonic() - start


def kill_leftovers(pids: Iterable[int]) -> None:
    """Clean up after a failed test so no `sleep 300` outlives the suite."""
    for pid in pids:
        if pid_alive(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def vm_hwm_kb(pid: int) -> int:
    """Peak resident set size of `pid` (VmHWM), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmHWM for {pid}")


# --- identity, tokens and the audit trail (issue 4) --------------------------------


def harbor_cli(
    *args: str,
    state: Path | None = None,
    check: bool = True,
    timeout: float = 60,
    **extra_env: str,
) -> subprocess.CompletedProcess[str]:
    """Run the real ``mcp-harbor`` command (``python -m mcp_harbor``) and
    return the CompletedProcess (text mode). `check` asserts exit code 0."""
    env = server_env(state) if state is not None else dict(os.environ)
    env.update(extra_env)
    proc = subprocess.run(
        [PY, "-m", "mcp_harbor", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    if check:
        assert proc.returncode == 0, (args, proc.returncode, proc.stdout, proc.stderr)
    return proc


def token_add(tokens: Path, name: str, *extra: str) -> str:
    """Create a token with the real ``mcp-harbor token add`` and return it
    (the first line of its stdout)."""
    proc = harbor_cli("token", "add", name, "--tokens", str(tokens), *extra)
    return proc.stdout.strip().splitlines()[0]


def audit_json(db: Path, *filters: str) -> list[dict[str, Any]]:
    """``mcp-harbor audit --json`` on `db`: one dict per call, newest first."""
    import json

    proc = harbor_cli("audit", "--db", str(db), "--json", "--limit", "100000", *filters)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def audit_show(db: Path, call_id: str) -> dict[str, Any]:
    import json

    return dict(json.loads(harbor_cli("audit", "show", call_id, "--db", str(db)).stdout))


def audit_verify(db: Path) -> subprocess.CompletedProcess[str]:
    """``mcp-harbor audit verify`` (not checked: the caller looks at the exit code)."""
    return harbor_cli("audit", "verify", "--db", str(db), check=False)


@contextlib.asynccontextmanager
async def bearer_client(
    url: str, token: str | None, mode: str, **client_kw: Any
) -> AsyncIterator[Client]:
    """An SDK client over Streamable HTTP that sends ``Authorization: Bearer
    TOKEN`` on every request (no header when `token` is None)."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode, **client_kw) as client:  # type: ignore[arg-type]
            yield client


# --- long calls (issue 6) ----------------------------------------------------------


def audit_records(
    db: Path, call_id: str | None = None, *, with_rows: bool = False
) -> list[dict[str, Any]]:
    """Every record of calls (``start``, ``end``, ``call``) of the real
    SQLite audit file (read-only), oldest first, each with its ``body``
    decoded; only `call_id`'s when given. With `with_rows`, also the records that
    cover rows of ``approvals`` and ``memory`` (kinds ``approval``,
    ``memory``, under the call id of their run)."""
    import json
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        con.row_factory = sqlite3.Row
        sql = "SELECT seq, call_id, kind, principal, tool, status, body FROM audit"
        found = (
            con.execute(sql + " WHERE call_id = ? ORDER BY seq", (call_id,))
            if call_id is not None
            else con.execute(sql + " ORDER BY seq")
        ).fetchall()
    finally:
        con.close()
    kinds = {"start", "end", "call"} | ({"approval", "memory"} if with_rows else set())
    return [{**dict(r), "body": json.loads(r["body"])} for r in found if r["kind"] in kinds]


def approvals_json(db: Path) -> list[dict[str, Any]]:
    """``mcp-harbor approvals --db DB --json``: the runs waiting for an operator."""
    import json

    proc = harbor_cli("approvals", "--db", str(db), "--json")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def stdio_client_opts(
    exports: Path,
    state: Path,
    mode: str,
    *extra: str,
    errlog: IO[str] | None = None,
    server_log_level: str | None = None,
    **client_kw: Any,
) -> Client:
    """Like `stdio_client_of`, but every keyword goes to the SDK `Client`
    (there `log_level` is the server's ``--log-level``; here it is the
    client's 2026-07-28 log opt-in)."""
    params = stdio_params(exports, state, *extra, log_level=server_log_level)
    transport = stdio_client(params, errlog=errlog) if errlog is not None else stdio_client(params)
    return Client(transport, mode=mode, **client_kw)  # type: ignore[arg-type]


# --- pipelines and preflight (issue 9) ---------------------------------------------


def stdio_client_env(
    exports: Path,
    state: Path,
    mode: str,
    *extra: str,
    env: dict[str, str],
    errlog: IO[str] | None = None,
    **client_kw: Any,
) -> Client:
    """Like `stdio_client_of`, with `env` added to the server's environment
    (e.g. a PATH that includes a test's own folder)."""
    argv = serve_argv(exports, *extra)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=server_env(state, **env))
    transport = stdio_client(params, errlog=errlog) if errlog is not None else stdio_client(params)
    return Client(transport, mode=mode, **client_kw)  # type: ignore[arg-type]


def parallel(*thunks: Callable[[], Any]) -> list[Any]:
    """Run blocking thunks (CLI subprocesses: ~1 s of interpreter start each)
    side by side; return their results in order."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda f: f(), thunks))


def raw_initialize(name: str = "raw", version: str = "0") -> dict[str, Any]:
    """A raw JSON-RPC client's handshake-era ``initialize`` request (id 1)."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": name, "version": version},
        },
    }


def raw_handshake(name: str = "raw") -> list[dict[str, Any]]:
    """The handshake-era opening of a raw JSON-RPC client: ``initialize``
    (id 1) and ``notifications/initialized``."""
    return [raw_initialize(name), {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def raw_stdio_exchange(
    argv: list[str], env: dict[str, str], messages: list[dict[str, Any]], stderr: IO[bytes] | int
) -> dict[Any, dict[str, Any]]:
    """Send raw JSON-RPC `messages` (``json.dumps``, so NaN goes as NaN, as a
    Python client sends it) to the server started by `argv` over stdio, one
    at a time, waiting for each request's answer; close stdin and check the
    server exits 0. The answers by id."""
    answers: dict[Any, dict[str, Any]] = {}
    with subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            for message in messages:
                proc.stdin.write(json.dumps(message).encode() + b"\n")
                proc.stdin.flush()
                while "id" in message and message["id"] not in answers:
                    line = proc.stdout.readline()
                    assert line, "the server closed stdout"
                    answer = json.loads(line)
                    if "id" in answer:
                        answers[answer["id"]] = answer
            proc.stdin.close()
            assert proc.wait(30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
    return answers


_PLAN_SUFFIX = re.compile(r"^(?P<question>.*) \(plan (?P<plan>[0-9a-f]{16})\)$", re.DOTALL)


def without_plan(message: str) -> str:
    """A ``confirm:`` question as asked, without the plan hash it ends with
    (`` (plan 0123456789abcdef)``), which must be there."""
    found = _PLAN_SUFFIX.match(message)
    assert found is not None, f"no plan hash at the end of {message!r}"
    return found.group("question")


def rewrite_check_cache(cache: Path, edit: Callable[[Any], object]) -> None:
    """Edit the checker cache file's payload and sign it again with the
    installation's key: what only someone holding the key could do (a stale
    or other-checker file)."""
    magic, _mac, payload = cache.read_bytes().split(b"\n", 2)
    data = json.loads(payload)
    edit(data)
    new = json.dumps(data).encode()
    key = (cache.parent / "check-cache.key").read_bytes()
    mac = hmac.new(key, new, hashlib.sha256).hexdigest().encode()
    cache.write_bytes(magic + b"\n" + mac + b"\n" + new)
