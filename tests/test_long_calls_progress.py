"""Issue 6: progress and step output reach the SDK client, in both eras.

A real ``mcp-harbor serve`` over stdio runs a five-step pipeline under bash.
The client sees progress ``build (2/5)`` with total 5, strictly increasing,
and every line the steps print as a ``notifications/message`` with its step
and stream, in order, once it asked for log messages (2026-07-28: the
request's log level; handshake era: ``logging/setLevel``). A client that did
not ask gets none. A step printing 5,000 lines is rate-limited: the client
gets at most 1,000 line messages and one summary with the dropped count, and
the call still succeeds.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import MODES, http_server, stdio_client_opts, text_of, write_export
from mcp import Client, types
from mcp.shared.exceptions import MCPDeprecationWarning

pytestmark = pytest.mark.anyio

STEPS = ("fetch", "build", "test", "package", "publish")

PIPELINE = "name: pipeline\ndescription: Five steps that talk.\nsteps:\n" + "".join(
    f"  - name: {s}\n"
    f"    run: |\n"
    f"      echo '{s} out 1'\n"
    f"      echo '{s} err 1' >&2\n"
    f"      sleep 0.15\n"
    f"      echo '{s} out 2'\n"
    f"      echo '{s} err 2' >&2\n"
    for s in STEPS
)

FLOOD = """
    name: flood
    description: Prints 5,000 lines at once, then a last line after a pause.
    steps:
      - name: spew
        run: |
          seq 1 5000
          sleep 0.3
      - name: tail
        run: echo last words
"""


@pytest.fixture
def exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    write_export(folder, "pipeline.yaml", PIPELINE)
    write_export(folder, "flood.yaml", FLOOD)
    return folder


class Recorder:
    def __init__(self) -> None:
        self.progress: list[tuple[float, float | None, str | None]] = []
        self.logs: list[types.LoggingMessageNotificationParams] = []

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append((progress, total, message))

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    def lines(self) -> list[dict[str, Any]]:
        return [p.data for p in self.logs if isinstance(p.data, dict) and "line" in p.data]


def client_for(exports: Path, state: Path, mode: str, rec: Recorder, *, opt_in: bool) -> Client:
    kw: dict[str, Any] = {"logging_callback": rec.on_log}
    if opt_in and mode == "auto":
        kw["log_level"] = "info"  # 2026-07-28: the per-request opt-in
    return stdio_client_opts(exports, state, mode, **kw)


async def opt_in_handshake(client: Client, mode: str) -> None:
    if mode == "legacy":
        with warnings.catch_warnings():
            # logging/setLevel is deprecated as of 2026-07-28 (SEP-2577), yet
            # it is how a handshake-era client asks for log messages.
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.session.set_logging_level("info")


def check_progress(rec: Recorder) -> None:
    values = [p for p, _, _ in rec.progress]
    assert values == sorted(values) and len(set(values)) == len(values), values
    assert values == [n - 0.5 if i % 2 == 0 else n for n in range(1, 6) for i in (0, 1)]
    assert {t for _, t, _ in rec.progress} == {5}
    messages = [m for _, _, m in rec.progress]
    for n, step in enumerate(STEPS, start=1):
        assert messages[2 * (n - 1)] == f"{step} ({n}/5)"
        assert messages[2 * (n - 1) + 1] == f"{step} ({n}/5) ok"


def check_lines(rec: Recorder) -> None:
    lines = rec.lines()
    assert {p.level for p in rec.logs} == {"info"}
    assert {p.logger for p in rec.logs} == {"mcp-harbor"}
    for stream, tag in (("stdout", "out"), ("stderr", "err")):
        got = [(d["step"], d["line"]) for d in lines if d["stream"] == stream]
        assert got == [(s, f"{s} {tag} {i}") for s in STEPS for i in (1, 2)], got
    # Steps arrive in order: every line of a step before any of the next.
    order = [STEPS.index(d["step"]) for d in lines]
    assert order == sorted(order)
    assert len(lines) == 20


@pytest.mark.parametrize("mode", MODES)
async def test_progress_and_output_over_stdio(exports: Path, tmp_path: Path, mode: str) -> None:
    rec = Recorder()
    async with client_for(exports, tmp_path / "state", mode, rec, opt_in=True) as client:
        await opt_in_handshake(client, mode)
        result = await client.call_tool("pipeline", {}, progress_callback=rec.on_progress)
    assert result.is_error is False, text_of(result)
    check_progress(rec)
    check_lines(rec)


async def test_progress_and_output_over_http_modern(exports: Path, tmp_path: Path) -> None:
    rec = Recorder()
    with http_server(exports, tmp_path / "state") as srv:
        async with Client(srv.url, logging_callback=rec.on_log, log_level="info") as client:
            assert client.protocol_version == "2026-07-28"
            result = await client.call_tool("pipeline", {}, progress_callback=rec.on_progress)
    assert result.is_error is False, text_of(result)
    check_progress(rec)
    check_lines(rec)


@pytest.mark.parametrize("mode", MODES)
async def test_no_output_without_opt_in(exports: Path, tmp_path: Path, mode: str) -> None:
    """A logging callback alone is not an opt-in; progress still arrives."""
    rec = Recorder()
    async with client_for(exports, tmp_path / "state", mode, rec, opt_in=False) as client:
        result = await client.call_tool("pipeline", {}, progress_callback=rec.on_progress)
    assert result.is_error is False
    assert rec.logs == []
    check_progress(rec)


@pytest.mark.parametrize("mode", MODES)
async def test_flood_is_rate_limited_and_summarized(
    exports: Path, tmp_path: Path, mode: str
) -> None:
    rec = Recorder()
    async with client_for(exports, tmp_path / "state", mode, rec, opt_in=True) as client:
        await opt_in_handshake(client, mode)
        began = time.monotonic()
        result = await client.call_tool("flood", {}, progress_callback=rec.on_progress)
        took = time.monotonic() - began
    assert result.is_error is False, text_of(result)
    assert result.structured_content is not None
    assert result.structured_content["status"] == "ok"
    spew = [d for d in rec.lines() if d["step"] == "spew"]
    # At most the burst plus 50 lines/s of the call's duration, never over the cap.
    assert 0 < len(spew) <= min(1000, 100 + 50 * took + 1)
    # The burst is the start of the output; what the refilled rate lets
    # through later are later lines (dropped ones are not queued): in order.
    numbers = [int(d["line"]) for d in spew]
    head = min(len(numbers), 100)
    assert numbers[:head] == list(range(1, head + 1))
    assert numbers == sorted(set(numbers))
    summaries = [p for p in rec.logs if isinstance(p.data, dict) and "dropped_lines" in p.data]
    assert len(summaries) == 1
    (summary,) = summaries
    assert summary.level == "notice"
    assert summary.data["step"] == "spew"
    assert summary.data["dropped_lines"] == 5000 - len(spew)
    assert "not streamed" in summary.data["message"]
    assert "spew.stdout.log" in summary.data["message"]
    # The next step streams again (the budget refilled during the pause).
    assert [d["line"] for d in rec.lines() if d["step"] == "tail"] == ["last words"]
    # The full output is still in the log file.
    log = Path(result.structured_content["steps"][0]["stdout_log"])
    assert log.read_text().splitlines() == [str(i) for i in range(1, 5001)]
