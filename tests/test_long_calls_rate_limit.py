"""Issue 20: per-caller rate limits, through the real server and the SDK
client (stdio in both eras, Streamable HTTP with two bearer tokens) and the
real SQLite audit trail.

A call over its principal's budget (``rate_limit: {calls: N, per: S}`` of
the export, else ``--rate-limit N/S`` of the server) gets a tool error
saying in how many seconds to retry, nothing runs, and the audit trail holds
one ``call`` record with status ``rate_limited`` (read back with
``mcp-harbor audit``). The budget comes back ``per`` seconds later; each
principal has its own; an export's own limit beats the server's; a bad
``--rate-limit`` or ``rate_limit:`` is refused before anything starts.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from harbor_helpers import (
    MODES,
    audit_json,
    audit_records,
    bearer_client,
    harbor_cli,
    http_server,
    stdio_client_of,
    text_of,
    token_add,
    write_export,
)

from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError

pytestmark = pytest.mark.anyio


def counted_yaml(name: str, log: Path, limit: str = "") -> str:
    """An export whose step appends a line to `log`: the lines are the runs."""
    return f"""
name: {name}
description: Counts its runs.
{limit}
steps:
  - name: count
    run: echo ran >> {log}
"""


def runs_in(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.mark.parametrize("mode", MODES)
async def test_over_the_limit_is_refused_recorded_and_comes_back(tmp_path: Path, mode: str) -> None:
    exports, log, db = tmp_path / "exports", tmp_path / "runs.log", tmp_path / "harbor.db"
    write_export(exports, "tick.yaml", counted_yaml("tick", log, "rate_limit: {calls: 2, per: 1}"))
    async with stdio_client_of(exports, tmp_path / "state", mode, "--db", str(db)) as c:
        first = await c.call_tool("tick", {})
        admitted = time.monotonic()
        second = await c.call_tool("tick", {})
        over = await c.call_tool("tick", {})
        assert first.is_error is False and second.is_error is False, text_of(first)
        assert over.is_error is True
        text = text_of(over)
        assert (
            text.startswith("tick: rate limited: ") and "may make 2 call(s) of tick per 1 s" in text
        )
        assert text.endswith("try again in 1 s. Nothing was run"), text
        assert over.structured_content["status"] == "rate_limited"
        assert over.structured_content["finish_reason"] == "refused"
        assert runs_in(log) == 2  # nothing ran
        # The window slides: a second after the first call there is room again.
        time.sleep(max(0.0, admitted + 1.1 - time.monotonic()))
        back = await c.call_tool("tick", {})
        assert back.is_error is False, text_of(back)
    assert runs_in(log) == 3
    limited = audit_json(db, "--status", "rate_limited")
    assert [(r["tool"], r["status"], r["call_id"]) for r in limited] == [
        ("tick", "rate_limited", over.structured_content["run_id"])
    ]
    (record,) = audit_records(db, over.structured_content["run_id"])
    assert record["kind"] == "call" and record["status"] == "rate_limited"
    assert "try again in 1 s" in record["body"]["reason"]
    assert [r["status"] for r in audit_records(db) if r["kind"] == "end"] == ["ok"] * 3


async def test_each_principal_has_its_own_budget(tmp_path: Path) -> None:
    exports, log, db = tmp_path / "exports", tmp_path / "runs.log", tmp_path / "harbor.db"
    tokens, state = tmp_path / "tokens.json", tmp_path / "state"
    write_export(exports, "tick.yaml", counted_yaml("tick", log, "rate_limit: {calls: 1, per: 30}"))
    tok = {who: token_add(tokens, who) for who in ("alice", "bob")}
    with http_server(exports, state, "--tokens", str(tokens), "--db", str(db)) as srv:
        async with bearer_client(srv.url, tok["alice"], "auto") as alice:
            assert (await alice.call_tool("tick", {})).is_error is False
            over = await alice.call_tool("tick", {})
            assert over.is_error is True
            assert "alice may make 1 call(s) of tick per 30 s; try again in 30 s" in text_of(over)
        async with bearer_client(srv.url, tok["bob"], "legacy") as bob:
            assert (await bob.call_tool("tick", {})).is_error is False  # bob's own budget
            assert (await bob.call_tool("tick", {})).is_error is True
    assert runs_in(log) == 2
    limited = audit_records(db)
    assert sorted((r["principal"], r["status"]) for r in limited if r["kind"] != "start") == [
        ("alice", "ok"),
        ("alice", "rate_limited"),
        ("bob", "ok"),
        ("bob", "rate_limited"),
    ]


@pytest.mark.parametrize("mode", MODES)
async def test_the_server_default_and_an_exports_own_limit(tmp_path: Path, mode: str) -> None:
    exports, db = tmp_path / "exports", tmp_path / "harbor.db"
    plain, own = tmp_path / "plain.log", tmp_path / "own.log"
    write_export(exports, "plain.yaml", counted_yaml("plain", plain))
    write_export(exports, "own.yaml", counted_yaml("own", own, "rate_limit: {calls: 3, per: 30}"))
    extra = ("--db", str(db), "--rate-limit", "1/30")
    async with stdio_client_of(exports, tmp_path / "state", mode, *extra) as c:
        plain_results = [await c.call_tool("plain", {}) for _ in range(2)]
        own_results = [await c.call_tool("own", {}) for _ in range(4)]
    assert [r.is_error for r in plain_results] == [False, True]
    assert "1 call(s) of plain per 30 s; try again in 30 s" in text_of(plain_results[1])
    assert [r.is_error for r in own_results] == [False, False, False, True]  # its own beats 1/30
    assert "3 call(s) of own per 30 s" in text_of(own_results[3])
    assert (runs_in(plain), runs_in(own)) == (1, 3)
    assert len(audit_json(db, "--status", "rate_limited")) == 2


@pytest.mark.parametrize("value", ["0/1", "5", "x/1", "5/0", "5/-1", "5/nan", "1.5/1", "10001/1"])
def test_a_bad_rate_limit_option_is_a_usage_error(tmp_path: Path, value: str) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "tick.yaml", counted_yaml("tick", tmp_path / "runs.log"))
    proc = harbor_cli(
        "serve", "--exports", str(exports), "--rate-limit", value, state=tmp_path, check=False
    )
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"Invalid value for '--rate-limit': '{value}': expected N/SECONDS" in proc.stderr


@pytest.mark.parametrize(
    ("limit", "needle"),
    [
        ("{calls: 0, per: 1}", "rate_limit.calls: Input should be greater than or equal to 1"),
        ("{calls: 1.5, per: 1}", "rate_limit.calls: Input should be a valid integer"),
        ("{calls: 1, per: 0}", "rate_limit.per: Input should be greater than 0"),
        ("{calls: 1, per: '1'}", "rate_limit.per: Input should be a valid number"),
        ("{calls: 1}", "missing required key 'rate_limit.per'"),
        ("{calls: 1, per: 1, burst: 2}", "unknown key 'burst' at rate_limit.burst"),
    ],
)
def test_a_bad_rate_limit_key_is_refused(tmp_path: Path, limit: str, needle: str) -> None:
    path = write_export(
        tmp_path, "x.yaml", counted_yaml("x", tmp_path / "l", f"rate_limit: {limit}")
    )
    with pytest.raises(ConfigError) as info:
        load_export(path)
    assert needle in str(info.value), str(info.value)
