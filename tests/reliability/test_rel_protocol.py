"""Issue 8, hostile protocol input: a real ``mcp-harbor serve`` over stdio
(raw bytes on stdin) and over Streamable HTTP (raw bodies) gets invalid
JSON, invalid UTF-8, wrong JSON-RPC shapes, unknown methods, wrong types in
every field of ``tools/call``, over-large and deeply nested messages, and
thousands of requests without its replies being read. Every request gets
the JSON-RPC error the spec prescribes (or is dropped where the spec says a
message is never answered), the server goes on serving, and its memory stays
bounded by the request limit (``--max-request-bytes``, 4 MiB by default).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from _raw import (
    CALL_HEADERS,
    HTTP_HEADERS,
    RawStdio,
    figure,
    modern_call,
    open_socket,
    raw_request,
    scaled,
    vm_kb,
)
from harbor_helpers import bearer_client, http_server, text_of, write_export
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PING = """
    name: ping
    description: Answers pong.
    args:
      n: {type: integer}
    steps:
      - name: a
        run: echo pong
"""

PARSE, INVALID, NO_METHOD, BAD_PARAMS = -32700, -32600, -32601, -32602
SPEC_CODES = {PARSE, INVALID, NO_METHOD, BAD_PARAMS}
# 2026-07-28 over HTTP: header mismatch, missing capability, unsupported version.
HTTP_CODES = SPEC_CODES | {-32020, -32021, -32022}
FUZZ = settings(
    max_examples=scaled(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_ARG = (
    b'{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"ping","arguments":{"n":1,"x":%s}}}'
    % (b"[" * 5000 + b"]" * 5000)
)

# (line, the reply it must get: (id, code), or None when the spec says no reply)
STDIO_CASES: list[tuple[bytes, tuple[Any, int] | None]] = [
    (b"{not json", (None, PARSE)),
    (b'\xff\xfe{"jsonrpc":"2.0","id":5,"method":"ping"}', (None, PARSE)),
    (b'{"jsonrpc":"2.0","id":6,"method":"ping","x":"\xff"}', (None, PARSE)),
    (b"[]", (None, INVALID)),
    (b'[{"jsonrpc":"2.0","id":4,"method":"ping"}]', (None, INVALID)),
    (b"42", (None, INVALID)),
    (b'"ping"', (None, INVALID)),
    (b"null", (None, INVALID)),
    (b'{"jsonrpc":"1.0","id":7,"method":"ping"}', (7, INVALID)),
    (b'{"id":8,"method":"ping"}', (8, INVALID)),
    (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', (None, INVALID)),
    (b'{"jsonrpc":"2.0","id":true,"method":"ping"}', (None, INVALID)),
    (b'{"jsonrpc":"2.0","id":3,"method":5}', (3, INVALID)),
    (b'{"jsonrpc":"2.0","id":9,"method":"no/such"}', (9, NO_METHOD)),
    (b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":"x"}', (12, INVALID)),
    (b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":5}}', (10, BAD_PARAMS)),
    (
        b'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"ping","arguments":[1]}}',
        (11, BAD_PARAMS),
    ),
    (
        b'{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"ping","_meta":5}}',
        (14, BAD_PARAMS),
    ),
    (b'{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"nope"}}', (16, BAD_PARAMS)),
    (DEEP, (None, PARSE)),
    (DEEP_ARG, (None, PARSE)),
    # A malformed notification and a stray response: never answered.
    (b'{"jsonrpc":"2.0","method":"notifications/x","params":7}', None),
    (b'{"jsonrpc":"2.0","id":99,"result":5,"error":{}}', None),
    (b"   ", None),
]


@pytest.fixture(scope="module")
def stdio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawStdio]:
    tmp = tmp_path_factory.mktemp("proto-stdio")
    write_export(tmp / "exports", "ping.yaml", PING)
    server = RawStdio(tmp / "exports", tmp / "state", "--db", str(tmp / "a.db"))
    server.initialize()
    yield server
    assert server.close() == 0, server.stderr()
    assert "Traceback" not in server.stderr()


def exchange(server: RawStdio, line: bytes) -> list[dict[str, Any]]:
    """Send `line` and then a ping; return every reply before the ping's."""
    server.send(line)
    rid = server.new_id()
    server.send(json.dumps({"jsonrpc": "2.0", "id": rid, "method": "ping"}).encode())
    seen = server.until(rid)
    assert "result" in seen[-1], seen[-1]
    return [m for m in seen[:-1] if "method" not in m]


@pytest.mark.parametrize("line, expected", STDIO_CASES, ids=lambda v: repr(v)[:40])
def test_stdio_malformed_lines_get_the_prescribed_error(
    stdio: RawStdio, line: bytes, expected: tuple[Any, int] | None
) -> None:
    replies = exchange(stdio, line)
    if expected is None:
        assert replies == []
        return
    rid, code = expected
    if not replies:  # a reply to a request the server handles in a task may trail the ping
        replies = [stdio.recv(10)]
    (reply,) = replies
    assert reply["id"] == rid and reply["error"]["code"] == code, reply


def test_stdio_wrong_types_reach_no_handler_and_the_right_ones_run(stdio: RawStdio) -> None:
    bad = stdio.call("ping", {"n": "x"})
    assert bad["result"]["isError"] is True and "Nothing was run" in json.dumps(bad)
    good = stdio.call("ping", {"n": 1})
    assert good["result"].get("isError") is not True


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@FUZZ
@given(line=st.binary(max_size=300).filter(lambda b: b"\n" not in b and b"\r" not in b))
def test_stdio_arbitrary_bytes(stdio: RawStdio, line: bytes) -> None:
    for reply in exchange(stdio, line):
        assert reply["error"]["code"] in SPEC_CODES, reply


@FUZZ
@given(
    rid=st.integers(min_value=1, max_value=2**31) | st.text(min_size=1, max_size=10),
    name=json_values,
    arguments=json_values,
    meta=json_values,
    extra=st.dictionaries(
        st.sampled_from(["jsonrpc", "method", "params"]), json_values, max_size=1
    ),
)
def test_stdio_tools_call_with_wrong_types_in_every_field(
    stdio: RawStdio, rid: Any, name: Any, arguments: Any, meta: Any, extra: dict[str, Any]
) -> None:
    params: dict[str, Any] = {"name": name, "arguments": arguments, "_meta": meta}
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}
    msg.update(extra)
    replies = exchange(stdio, json.dumps(msg).encode())
    deadline = time.monotonic() + 10
    while not any(r.get("id") == rid for r in replies) and time.monotonic() < deadline:
        replies.append(stdio.recv(10))
    (reply,) = [r for r in replies if r.get("id") == rid]
    if "error" in reply:
        assert reply["error"]["code"] in SPEC_CODES, reply
    else:  # accepted: only a valid call of ping gets a non-error result
        result = reply["result"]
        assert result.get("isError") is True or (name == "ping" and isinstance(arguments, dict))


def test_stdio_huge_lines_are_refused_and_memory_stays_bounded(stdio: RawStdio) -> None:
    base = vm_kb(stdio.pid, "VmHWM")
    sizes = {"10MB": 10 * 2**20, "100MB": 100 * 2**20}
    for label, size in sizes.items():
        arguments = b'{"n": 1, "x": "' + b"a" * size + b'"}'
        line = (
            b'{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"ping","arguments":'
            + arguments
            + b"}}"
        )
        began = time.monotonic()
        (reply,) = exchange(stdio, line)
        assert reply["id"] is None and reply["error"]["code"] == INVALID
        assert "Request too large" in reply["error"]["message"]
        peak = vm_kb(stdio.pid, "VmHWM")
        figure(
            "stdio_huge_line",
            size=label,
            seconds=round(time.monotonic() - began, 2),
            peak_rss_growth_mb=round((peak - base) / 1024, 1),
        )
        assert peak - base < 32 * 1024, (label, base, peak)  # bounded by the 4 MiB limit
    assert stdio.alive()
    assert "dropped a 104857" in stdio.stderr()


def test_stdio_thousands_of_requests_without_reading_replies(stdio: RawStdio) -> None:
    n = scaled(5000)
    base = vm_kb(stdio.pid, "VmRSS")
    ids = [stdio.new_id() for _ in range(n)]
    data = b"".join(
        json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/list"}).encode() + b"\n"
        for i in ids
    )
    began = time.monotonic()
    # The test's reader thread keeps draining stdout; to not read, stop
    # consuming the queue until everything has been written.
    writer = threading.Thread(
        target=lambda: (stdio.proc.stdin.write(data), stdio.proc.stdin.flush())
    )  # type: ignore[union-attr]
    writer.start()
    writer.join(120)
    assert not writer.is_alive()
    got = {stdio.recv(60)["id"] for _ in range(n)}
    assert got == set(ids)
    figure(
        "stdio_flood",
        requests=n,
        seconds=round(time.monotonic() - began, 2),
        rss_growth_mb=round((vm_kb(stdio.pid, "VmRSS") - base) / 1024, 1),
    )
    assert stdio.alive()


# --- HTTP ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    tmp = tmp_path_factory.mktemp("proto-http")
    write_export(tmp / "exports", "ping.yaml", PING)
    extra = ("--db", str(tmp / "a.db"), "--tokens", str(tmp / "none.json"))
    with http_server(tmp / "exports", tmp / "state", *extra) as srv:
        yield srv
        log = srv.stderr()
    assert "Traceback" not in log


HTTP_CASES: list[tuple[bytes, int, int | None]] = [
    (b"{not json", 400, PARSE),
    (b'\xff\xfe{"jsonrpc":"2.0"}', 400, PARSE),
    (b"[]", 400, INVALID),
    (b"42", 400, INVALID),
    (b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":"x"}', 400, INVALID),
    (DEEP, 400, PARSE),
    (
        b'{"jsonrpc":"2.0","id":9,"method":"no/such","params":{"_meta":%s}}'
        % json.dumps(
            {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        ).encode(),
        404,
        NO_METHOD,
    ),
    (b"x" * (10 * 2**20), 413, None),
]


async def _still_serves(url: str) -> None:
    async with bearer_client(url, None, "auto") as client:
        result = await client.call_tool("ping", {"n": 1})
        assert "pong" in text_of(result)


@pytest.mark.anyio
async def test_http_malformed_bodies_get_the_prescribed_status_and_error(http: Any) -> None:
    async with httpx2.AsyncClient(timeout=60) as client:
        for body, status, code in HTTP_CASES:
            headers = (
                {**HTTP_HEADERS, "Mcp-Method": "no/such"} if b"no/such" in body else HTTP_HEADERS
            )
            resp = await client.post(http.url, content=body, headers=headers)
            assert resp.status_code == status, (body[:60], resp.status_code, resp.text[:200])
            if code is not None:
                text = resp.text
                payload = json.loads(text[text.index("{") :].split("\n")[0]) if text else {}
                assert payload["error"]["code"] == code, (body[:60], text[:200])
        # A wrong type in the arguments of a well-formed modern call: a tool error.
        resp = await client.post(
            http.url, content=modern_call("ping", {"n": "x"}), headers=CALL_HEADERS
        )
        assert resp.status_code == 200 and "Nothing was run" in resp.text
    await _still_serves(http.url)


@FUZZ
@given(body=st.binary(max_size=400) | json_values.map(lambda v: json.dumps(v).encode()))
def test_http_arbitrary_bodies_never_get_a_server_error(http: Any, body: bytes) -> None:
    resp = httpx2.post(http.url, content=body, headers=HTTP_HEADERS, timeout=30)
    assert resp.status_code in (200, 202, 400, 404, 406, 413, 415), (body, resp.status_code)
    if resp.status_code == 400 and resp.headers.get("content-type", "").startswith(
        "application/json"
    ):
        assert resp.json()["error"]["code"] in HTTP_CODES


@FUZZ
@given(name=json_values, arguments=json_values, meta=json_values)
def test_http_tools_call_with_wrong_types_in_every_field(
    http: Any, name: Any, arguments: Any, meta: Any
) -> None:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": meta},
        }
    ).encode()
    resp = httpx2.post(http.url, content=body, headers=CALL_HEADERS, timeout=30)
    assert resp.status_code in (200, 400), (body, resp.status_code, resp.text[:200])
    if resp.status_code == 400:
        assert resp.json()["error"]["code"] in HTTP_CODES
    assert '"code":-32603' not in resp.text.replace(" ", "")  # no internal error


@pytest.mark.anyio
async def test_http_flood_without_reading_replies_does_not_stop_other_clients(http: Any) -> None:
    n = scaled(1000)
    base = vm_kb(http.pid, "VmRSS")
    request = raw_request(
        http.url, modern_call("ping", {"n": 1}).replace(b'"tools/call"', b'"tools/call"')
    )
    socks: list[socket.socket] = []
    began = time.monotonic()
    try:
        for _ in range(n):
            s = open_socket(http.url)
            s.sendall(request)  # and never read the reply
            socks.append(s)
        sent = time.monotonic() - began
        t0 = time.monotonic()
        await _still_serves(http.url)
        other = time.monotonic() - t0
        peak = vm_kb(http.pid, "VmRSS")
    finally:
        for s in socks:
            s.close()
    figure(
        "http_flood",
        unread_requests=n,
        send_seconds=round(sent, 2),
        other_client_call_seconds=round(other, 2),
        rss_growth_mb=round((peak - base) / 1024, 1),
    )
    assert other < 30
    await _still_serves(http.url)


def test_stdio_server_limit_is_configurable(tmp_path: Path) -> None:
    write_export(tmp_path / "exports", "ping.yaml", PING)
    server = RawStdio(
        tmp_path / "exports",
        tmp_path / "state",
        "--db",
        str(tmp_path / "a.db"),
        "--max-request-bytes",
        "2048",
    )
    try:
        server.initialize()
        assert "result" in server.call("ping", {"n": 1, "pad": "a" * 1500})
        (reply,) = exchange(
            server, b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"' + b"a" * 3000 + b'"}'
        )
        assert reply["error"]["code"] == INVALID and "2048 bytes" in reply["error"]["message"]
    finally:
        assert server.close() == 0
