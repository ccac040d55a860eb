"""Issue 2, item 7: a step printing 200 MB. The call succeeds, the result
keeps only the tail (the rest is in the log file), and the server's peak
RSS (VmHWM of the server process) grows by less than 50 MB."""

from __future__ import annotations

import shutil
from pathlib import Path

import psutil
import pytest
from harbor_helpers import (
    MODES,
    assert_valid_output,
    http_server,
    stdio_client_of,
    text_of,
    vm_hwm_kb,
    write_export,
)
from mcp import Client

pytestmark = pytest.mark.anyio

SIZE = 200_000_000
TAIL = 8192  # the server's default --output-tail
MAX_GROWTH_KB = 50 * 1024

BIG = f"""
    name: big
    description: Prints 200 MB.
    steps:
      - name: flood
        run: head -c {SIZE} /dev/zero | tr '\\0' x
"""

SMALL = """
    name: small
    description: Prints a little.
    steps:
      - name: hi
        run: echo warm
"""


def exports_in(root: Path) -> Path:
    exports = root / "exports"
    write_export(exports, "big.yaml", BIG)
    write_export(exports, "small.yaml", SMALL)
    return exports


async def flood_and_measure(client: Client, server_pid: int, label: str) -> None:
    warm = await client.call_tool("small", {})  # imports and first-call costs are paid
    assert warm.is_error is False
    before = vm_hwm_kb(server_pid)
    result = await client.call_tool("big", {})
    after = vm_hwm_kb(server_pid)
    growth = after - before
    print(f"{label}: server VmHWM {before} kB -> {after} kB (+{growth} kB) for 200 MB of output")

    text = text_of(result)
    assert result.is_error is False, text[:2000]
    data = result.structured_content
    assert data is not None
    await assert_valid_output(client, "big", data)
    step = data["steps"][0]
    assert step["status"] == "ok"
    assert step["stdout_bytes"] == SIZE
    assert step["stdout_truncated"] is True
    assert step["stdout_tail"] == "x" * TAIL
    assert f"[stdout: last {TAIL} of {SIZE} bytes]" in text
    assert len(text) < 2 * TAIL
    log = Path(step["stdout_log"])
    try:
        assert log.stat().st_size == SIZE
        with open(log, "rb") as fh:
            assert fh.read(1 << 20) == b"x" * (1 << 20)
            fh.seek(SIZE // 2)
            assert fh.read(1 << 20) == b"x" * (1 << 20)
    finally:
        shutil.rmtree(data["run_dir"], ignore_errors=True)  # 200 MB of disk
    assert growth < MAX_GROWTH_KB, f"peak RSS grew by {growth} kB"


async def test_200mb_over_http(tmp_path: Path) -> None:
    with http_server(exports_in(tmp_path), tmp_path / "state") as srv:
        async with Client(srv.url, mode="auto") as client:
            await flood_and_measure(client, srv.pid, "http auto")


@pytest.mark.parametrize("mode", MODES)
async def test_200mb_over_stdio(tmp_path: Path, mode: str) -> None:
    exports = exports_in(tmp_path)
    async with stdio_client_of(exports, tmp_path / "state", mode) as client:
        (server,) = [
            p
            for p in psutil.Process().children()
            if str(exports) in p.cmdline() and "serve" in p.cmdline()
        ]
        await flood_and_measure(client, server.pid, f"stdio {mode}")
