"""The shipped agent export against a REAL small model (issue 22): a real
``mcp-harbor serve`` subprocess, the MCP SDK client over stdio, the llama.cpp
server with SmolLM2-135M, the real audit store.

Whatever the model does (its tool calls' arguments are often junk), these
must hold, and only these are asserted, never its judgement: only granted
tools ran; every argument that reached a command was valid by its tool's
schema; every model answer has a turn record written before its tool calls'
records; the finish reason is one of the known ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from harbor_helpers import stdio_client_of, text_of

from mcp_harbor.config import load_export
from mcp_harbor.store.sqlite import SqliteStore
from realmodel.conftest import RealModel

REPO = Path(__file__).resolve().parents[2]
FINISH_REASONS = {
    "goal",
    "max_turns",
    "max_tool_calls",
    "timeout",
    "output_invalid",
    "assert_failed",
    "model_error",
}
LOG = (
    "collecting ... collected 12 items\n"
    "tests/test_api.py::test_login PASSED\n"
    "tests/test_api.py::test_logout FAILED\n"
    "E       AssertionError: expected 200, got 500\n"
    "=========================== 1 failed, 11 passed in 2.31s ===\n"
)


def _envelope(result: Any) -> dict[str, Any]:
    meta = result.meta or {}
    raw = meta["mcp-harbor/envelope"]
    return dict(json.loads(raw) if isinstance(raw, str) else raw)


@pytest.mark.anyio
async def test_triage_failure_against_a_real_model(real_model: RealModel, tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    shutil.copy(REPO / "exports" / "triage_failure.yaml", exports)
    export = load_export(exports / "triage_failure.yaml")
    # Small bounds: the 135M model ignores max_tokens on tool turns (the
    # llama.cpp server's chatml-function-calling handler), so turn_timeout
    # is what bounds each turn.
    models = real_model.models_file(
        tmp_path / "models.yaml", name="triage", turn_timeout=20, max_output_tokens=256
    )
    db = tmp_path / "harbor.db"
    state = tmp_path / "state"
    async with stdio_client_of(
        exports, state, "auto", "--models", str(models), "--db", str(db)
    ) as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        assert "triage_failure" in listed
        result = await client.call_tool("triage_failure", {"log": LOG, "command": "pytest -q"})
    envelope = _envelope(result)
    assert envelope["status"] in ("ok", "failed", "output_invalid", "timeout"), text_of(result)
    classify = next(s for s in envelope["steps"] if s["name"] == "classify")
    agent = classify["agent"]
    assert agent["finish_reason"] in FINISH_REASONS
    assert agent["source"] == "primary" and agent["model_id"] == real_model.alias

    run_id = envelope["run_id"]
    store = SqliteStore(db)
    try:
        records = list(store.records())
    finally:
        store.close()
    turns = [r for r in records if r.kind == "turn" and r.call_id == run_id]
    assert len(turns) == agent["turns"]  # one record per model request, every attempt
    assert all(t.body["step"] == "classify" and t.body["source"] == "primary" for t in turns)
    asked = {
        (t.body["attempt"], t.body["turn"], c["id"]): c["name"]
        for t in turns
        for c in t.body.get("tool_calls") or []
    }
    by_model = [
        r
        for r in records
        if r.kind in ("start", "call") and (r.body.get("via") or {}).get("run_id") == run_id
    ]
    granted = {f"triage_failure.{name}" for name in export.tools}
    for record in by_model:
        via = record.body["via"]
        assert via["author"] == "model" and via["step"] == "classify"
        key = (via["attempt"], via["turn"], via["tool_call_id"])
        assert key in asked, key
        turn_record = next(t for t in turns if (t.body["attempt"], t.body["turn"]) == key[:2])
        assert turn_record.seq < record.seq  # the turn was durable before its tool calls
        if record.kind == "start":  # it ran: granted, and its arguments were valid
            assert record.tool in granted, record.tool
            tool = export.tools[record.tool.split(".", 1)[1]]
            jsonschema.validate(record.body["arguments"], tool.input_schema)
        else:
            assert record.status in ("unknown", "invalid", "denied"), record.status
    seen = agent["tool_calls_seen"]
    assert len(by_model) == seen
    # The transcript is in the run directory, hashed in the record.
    transcript = Path(agent["transcript_log"])
    assert transcript.is_file() and agent["transcript_sha256"]
