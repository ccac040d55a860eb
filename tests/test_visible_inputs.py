"""Issue 20, item 3: what a caller chose cannot mislead the human who reads
it. A ``confirm:`` question shows each value between double quotes with
control, bidi and zero-width characters (and ANSI escapes) escaped, so an
escape sequence cannot hide ``prod`` behind ``staging``; the claimed client
name and version and the request id are kept visibly escaped, so a newline
in ``clientInfo.name`` cannot forge a log line and a NUL does not crash the
run (it could not reach a step's environment)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import (
    MODES,
    raw_initialize,
    raw_stdio_exchange,
    serve_argv,
    server_env,
    stdio_client_of,
    stdio_client_opts,
    text_of,
    without_plan,
    write_export,
)
from mcp import types
from mcp.client.context import ClientRequestContext
from mcp.shared.exceptions import MCPError

from mcp_harbor._visible import quoted, visible

pytestmark = pytest.mark.anyio

HIDDEN = {
    "\x00": "\\x00",
    "\x1b": "\\x1b",
    "\x07": "\\x07",
    "\x7f": "\\x7f",
    "\x9b": "\\x9b",  # C1 CSI
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\\": "\\\\",
    "\u061c": "\\u061c",
    "\u200b": "\\u200b",
    "\u200c": "\\u200c",
    "\u200d": "\\u200d",
    "\u200e": "\\u200e",
    "\u200f": "\\u200f",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
    "\u2060": "\\u2060",
    "\ufeff": "\\ufeff",
    **{chr(c): f"\\u{c:04x}" for c in range(0x202A, 0x202F)},
    **{chr(c): f"\\u{c:04x}" for c in range(0x2066, 0x206A)},
}


@pytest.mark.parametrize(("char", "escaped"), sorted(HIDDEN.items()))
def test_every_misleading_character_is_escaped(char: str, escaped: str) -> None:
    assert visible(f"a{char}b") == f"a{escaped}b"


def test_plain_text_and_other_scripts_stay_themselves() -> None:
    for text in ("staging", "déploiement ✓ 部署 🚀", "$(id) `x` 'q' \"d\"", ""):
        assert visible(text) == text
    assert quoted('say "hi"') == '"say \\"hi\\""'


# --- confirm: over a real server -----------------------------------------------------

#: Shows as "staging" on a terminal that honours ANSI and bidi controls;
#: the value is really prod.
TRICK = "\x1b[8mprod\x1b[0m\u202egnigats\u202c\u200b"
TRICK_SHOWN = '"\\x1b[8mprod\\x1b[0m\\u202egnigats\\u202c\\u200b"'

DEPLOY = """
    name: deploy
    description: Deploys, after a human said yes.
    args:
      env: {type: string}
      version: {type: string}
    confirm: "Deploy {{ args.version }} to {{ args.env }}?"
    steps:
      - name: mark
        run: printf '%s' "$ARG_env" > "{marker}"
"""


class Human:
    def __init__(self) -> None:
        self.asked: list[str] = []

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        self.asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True})


@pytest.mark.parametrize("mode", MODES)
async def test_confirm_shows_values_quoted_and_escaped(tmp_path: Path, mode: str) -> None:
    marker = tmp_path / "ran"
    exports = tmp_path / "exports"
    write_export(exports, "deploy.yaml", DEPLOY.replace("{marker}", str(marker)))
    human = Human()
    async with stdio_client_of(exports, tmp_path / "state", mode, elicitation_callback=human) as c:
        result = await c.call_tool("deploy", {"env": TRICK, "version": '1.2" to "staging'})
    assert result.is_error is False, text_of(result)
    assert [without_plan(message) for message in human.asked] == [
        f'Deploy "1.2\\" to \\"staging" to {TRICK_SHOWN}?'
    ]
    assert marker.read_text() == TRICK  # the step still gets the value itself


# --- claimed fields in the log -------------------------------------------------------

ECHO = """
    name: echo
    description: Says who claims to call.
    steps:
      - name: who
        run: printf 'client=[%s] version=[%s] id=[%s]' "$HARBOR_CALLER_CLIENT" "$HARBOR_CALLER_CLIENT_VERSION" "$HARBOR_CALLER_REQUEST_ID"
"""  # noqa: E501

FORGED = "2026-01-01 00:00:00,000 WARNING mcp_harbor.server [root@local]: forged"


def echo_exports(root: Path) -> Path:
    exports = root / "exports"
    write_export(exports, "echo.yaml", ECHO)
    return exports


@pytest.mark.parametrize("mode", MODES)
async def test_a_newline_in_the_client_name_forges_no_log_line(tmp_path: Path, mode: str) -> None:
    errlog_path = tmp_path / "server.stderr"
    info = types.Implementation(name=f"evil\n{FORGED}", version="1\x00\x1b[2J")
    with open(errlog_path, "w") as errlog:
        async with stdio_client_opts(
            echo_exports(tmp_path),
            tmp_path / "state",
            mode,
            errlog=errlog,
            server_log_level="info",
            client_info=info,
        ) as client:
            result = await client.call_tool("echo", {})
            with pytest.raises(MCPError, match="Unknown tool"):
                await client.call_tool(f"nope\n{FORGED}", {})
    assert result.is_error is False, text_of(result)  # the NUL did not crash the run
    assert f"client=[evil\\n{FORGED}] version=[1\\x00\\x1b[2J]" in text_of(result)
    lines = errlog_path.read_text().splitlines()
    assert not [line for line in lines if line.startswith(FORGED[:10])], lines
    assert any(f"client=evil\\n{FORGED} 1\\x00\\x1b[2J]" in line for line in lines), lines
    assert any(f"nope\\n{FORGED}: call " in line for line in lines), lines
    assert "\x00" not in "".join(lines) and "\x1b" not in "".join(lines)


def test_a_request_id_with_a_newline_and_a_nul_is_kept_visibly(tmp_path: Path) -> None:
    request_id = f"r\n{FORGED}\x00"
    messages: list[dict[str, Any]] = [
        raw_initialize(),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {}},
        },
    ]
    stderr_path = tmp_path / "server.stderr"
    with open(stderr_path, "wb") as err:
        argv = serve_argv(echo_exports(tmp_path), log_level="info")
        answers = raw_stdio_exchange(argv, server_env(tmp_path / "state"), messages, err)
    result = answers[request_id]["result"]
    text = "".join(c.get("text", "") for c in result["content"])
    assert result["isError"] is False, text
    assert f"id=[r\\n{FORGED}\\x00]" in text, text
    lines = stderr_path.read_text().splitlines()
    assert not [line for line in lines if re.match(r"2026-01-01", line)], lines
