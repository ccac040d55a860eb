#!/usr/bin/env python
"""What the SDK client does with one recorded ``tools/list`` answer, without
a server: the time of the work its stdio client and session do on the line
(``mcp.client.stdio._parse_line``: the JSON-RPC message;
``mcp_types.methods.parse_server_result``: the per-version check, its dump
and the result model), in a fresh process like a real client's.

    sdk_parse.py ANSWER_FILE [ERA]

ANSWER_FILE holds the answer line as the server wrote it. Prints one JSON
line: the median ms of 5 passes (after one warm-up) of the answer as it is
(``as_is``), of the same answer with every tool's ``outputSchema`` removed
(``no_output_schema``), and with every ``inputSchema`` reduced to
``{"type": "object"}`` as well (``no_schemas``), with the sizes in bytes.
It uses two private functions of the SDK (named above), the ones its own
client calls; the harness uses it to split a ``tools/list`` measured through
the SDK client into the server's part and the client's.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from mcp.client.stdio import _parse_line
from mcp_types import methods


def client_ms(line: str, era: str, passes: int = 5) -> float:
    times = []
    for i in range(passes + 1):
        t0 = time.perf_counter()
        parsed = _parse_line(line)
        if isinstance(parsed, Exception):
            raise parsed
        result = parsed.message.result  # type: ignore[union-attr]
        methods.parse_server_result("tools/list", era, result)
        if i:
            times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def without(answer: dict[str, Any], *, output: bool, inputs: bool) -> str:
    tools = []
    for tool in answer["result"]["tools"]:
        tool = dict(tool)
        if output:
            tool.pop("outputSchema", None)
        if inputs:
            tool["inputSchema"] = {"type": "object"}
        tools.append(tool)
    slim = {**answer, "result": {**answer["result"], "tools": tools}}
    return json.dumps(slim, separators=(",", ":"))


def main() -> int:
    line = Path(sys.argv[1]).read_text().strip()
    era = sys.argv[2] if len(sys.argv) > 2 else "2025-11-25"
    answer = json.loads(line)
    variants = {
        "as_is": line,
        "no_output_schema": without(answer, output=True, inputs=False),
        "no_schemas": without(answer, output=True, inputs=True),
    }
    out: dict[str, Any] = {"tools": len(answer["result"]["tools"])}
    for name, text in variants.items():
        out[name] = {"bytes": len(text.encode()), "ms": client_ms(text, era)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
