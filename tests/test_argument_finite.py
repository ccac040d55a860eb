"""Issue 20, item 1: numbers that cannot mislead. JSON has no NaN or
infinity, but Python's JSON parsers (the server's over stdio and HTTP among
them) read ``NaN``, ``Infinity`` and ``-Infinity``, and ``NaN`` passes every
``minimum``/``maximum``: such a value is refused (rule: finite) on every
path, before anything runs. An integer sent as ``5.0`` or ``1e1`` reaches
the steps as ``5`` and ``10`` (``ARG_x``, placeholders, context.json),
array items too."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx2
import pytest
from harbor_helpers import (
    PROTOCOL,
    harbor_cli,
    http_server,
    raw_handshake,
    raw_stdio_exchange,
    serve_argv,
    server_env,
    write_export,
)

NUMBERS = """
    name: numbers
    description: Prints its numbers as the steps see them.
    args:
      f: {type: number, minimum: 0, maximum: 10}
      n: {type: integer, minimum: 0}
      ns: {type: array, items: {type: integer}}
    steps:
      - name: show
        run: |
          echo ran >> "{marker}"
          printf 'f=[%s] n=[%s] t=[%s] ns=[%s]\\n' "$ARG_f" "$ARG_n" '{{ args.n }}' "$ARG_ns"
          python3 -c 'import json,os; print("ctx=" + json.dumps(json.load(open(os.environ["HARBOR_CONTEXT"]))["arguments"], sort_keys=True))'
"""  # noqa: E501

NON_FINITE = [
    ({"f": float("nan")}, "argument 'f': NaN is not a number"),
    ({"f": float("inf")}, "argument 'f': Infinity is not a number"),
    ({"n": float("-inf")}, "argument 'n': -Infinity is not a number"),
    ({"ns": [1, float("nan")]}, "argument 'ns'[1]: NaN is not a number"),
]


def exports_in(root: Path) -> Path:
    exports = root / "exports"
    write_export(exports, "numbers.yaml", NUMBERS.replace("{marker}", str(root / "ran")))
    return exports


def call(request_id: int, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "numbers", "arguments": arguments},
    }


def wire(message: dict[str, Any]) -> bytes:
    # json.dumps writes NaN/Infinity, as a Python client would.
    return json.dumps(message).encode()


def stdio_answers(tmp_path: Path, calls: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Send raw JSON-RPC lines to ``mcp-harbor serve`` over stdio, one
    request at a time; the answers by id."""
    return raw_stdio_exchange(
        serve_argv(exports_in(tmp_path)),
        server_env(tmp_path / "state"),
        [*raw_handshake(), *calls],
        subprocess.DEVNULL,
    )


def answer_text(answer: dict[str, Any]) -> str:
    return "".join(c.get("text", "") for c in answer["result"]["content"])


def test_non_finite_numbers_are_refused_over_stdio(tmp_path: Path) -> None:
    answers = stdio_answers(tmp_path, [call(i + 2, args) for i, (args, _) in enumerate(NON_FINITE)])
    for i, (_, expected) in enumerate(NON_FINITE):
        answer = answers[i + 2]
        assert answer["result"]["isError"] is True, answer
        text = answer_text(answer)
        assert expected in text and "send a finite number (rule: finite)" in text, text
    assert not (tmp_path / "ran").exists()  # nothing ran


def test_integral_floats_reach_steps_as_digits_over_stdio(tmp_path: Path) -> None:
    answers = stdio_answers(tmp_path, [call(2, {"f": 2.5, "n": 5.0, "ns": [1e1, 3.0, 4]})])
    text = answer_text(answers[2])
    assert answers[2]["result"]["isError"] is False, text
    assert "f=[2.5] n=[5] t=[5] ns=[[10,3,4]]" in text, text
    assert 'ctx={"f": 2.5, "n": 5, "ns": [10, 3, 4]}' in text, text


def test_non_finite_numbers_are_refused_over_http(tmp_path: Path) -> None:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": PROTOCOL["auto"],
        "Mcp-Method": "tools/call",
        "Mcp-Name": "numbers",
    }
    meta = {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL["auto"],
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    }
    with (
        http_server(exports_in(tmp_path), tmp_path / "state") as server,
        httpx2.Client(timeout=30) as http,
    ):
        for args, expected in NON_FINITE:
            message = call(2, args)
            message["params"]["_meta"] = meta
            reply = http.post(server.url, content=wire(message), headers=headers)
            assert reply.status_code == 200, reply.text
            answer = reply.json()
            assert answer["result"]["isError"] is True, answer
            assert expected in answer_text(answer), answer
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("word", ["f=nan", "f=inf", "f=-Infinity"])
def test_cli_refuses_non_finite_numbers(tmp_path: Path, word: str) -> None:
    proc = harbor_cli(
        "run", "--exports", str(exports_in(tmp_path)), "numbers", word,
        state=tmp_path / "state", check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    assert f"{word}: expected a finite number (not NaN or infinite)" in proc.stderr, proc.stderr


def test_cli_integral_floats_reach_steps_as_digits(tmp_path: Path) -> None:
    proc = harbor_cli(
        "run", "--exports", str(exports_in(tmp_path)), "numbers", "n=5.0", "ns=1e1", "ns=3",
        state=tmp_path / "state", check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "n=[5] t=[5] ns=[[10,3]]" in proc.stdout, proc.stdout
