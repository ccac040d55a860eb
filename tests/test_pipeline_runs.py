"""Issue 9: pipelines in real runs over MCP.

A real ``mcp-harbor serve`` over stdio, the SDK client in both eras, real
bash, the real SQLite audit trail (read back with ``mcp-harbor audit show``):
``if:`` conditions after failures, ``retry:`` counting attempts,
``on_failure:``/``finally:`` hooks with their phases and own timeouts (and
``finally`` when the call is cancelled), step outputs read by later steps
through ``$STEP_<name>_<key>`` and context.json, and hostile values in those
outputs never executing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import MODES, audit_show, audit_verify, stdio_client_of, text_of, write_export
from mcp import Client

pytestmark = pytest.mark.anyio

CONDS = """
name: conds
description: if conditions after a tolerated failure.
args:
  deploy: {type: boolean}
steps:
  - name: first
    run: |
      echo "k=v1" >> "$HARBOR_STEP_OUTPUT"
      echo "n=3" >> "$HARBOR_STEP_OUTPUT"
      exit 3
    continue_on_error: true
  - name: on_fail
    if: steps.first.failed
    run: echo "on_fail ran"
  - name: deploy
    if: args.deploy == true
    run: echo "deploying"
  - name: compare
    if: steps.first.outputs.k == 'v1' and not steps.first.ok and steps.first.exit_code == 3
    run: echo "compared"
  - name: mismatch
    if: steps.first.outputs.n > 1 || steps.first.outputs.n == 3
    run: echo "must not run"
  - name: either
    if: steps.mismatch.skipped && (steps.deploy.ok || steps.deploy.skipped)
    run: echo "either ran"
"""

AFTER_FAIL = """
name: after_fail
description: A failure ends the ordinary steps; only conditions on outcomes are judged.
args:
  deploy: {type: boolean}
steps:
  - name: a
    run: exit 4
  - name: args_only
    if: args.deploy == true
    run: echo "must not run"
  - name: plain
    run: echo "must not run"
  - name: outcome
    if: steps.a.failed
    run: echo "outcome ran"
"""

RETRY = """
name: flaky
description: Fails twice, then succeeds.
steps:
  - name: flaky
    run: |
      echo attempt >> "$HARBOR_RUN_DIR/count"
      n=$(wc -l < "$HARBOR_RUN_DIR/count")
      echo "attempt $n"
      echo "attempt_$n=written" >> "$HARBOR_STEP_OUTPUT"
      [ "$n" -ge 3 ]
    retry: {attempts: 3, delay: 0.4}
"""

EXHAUST = """
name: exhaust
description: Never succeeds.
steps:
  - name: never
    run: exit 6
    retry: {attempts: 2}
  - name: after
    run: echo "must not run"
"""

HOOKS = """
name: hooks
description: A failing pipeline with failing and slow hooks.
args:
  fail: {type: boolean, default: true}
timeout: 60
steps:
  - name: main
    run: |
      echo main
      if [ "$ARG_fail" = true ]; then exit 5; fi
on_failure:
  - name: broken_hook
    run: exit 9
  - name: notify
    run: echo "notified after $STEP_main_STATUS $STEP_main_EXIT"
finally:
  - name: slow
    timeout: 1
    run: sleep 30
  - name: cleanup
    run: echo cleanup
"""

CANCEL = """
name: cancel_me
description: Runs long; its finally step leaves a marker.
steps:
  - name: long
    run: |
      touch "{marks}/started"
      sleep 30
finally:
  - name: mark
    run: echo "finally ran" > "{marks}/finally"
"""

OUTPUTS = """
name: outputs
description: Step outputs from caller args, read by later steps.
args:
  line: {type: string, maxLength: 500}
  block: {type: string, maxLength: 500, multiline: true}
steps:
  - name: first
    run: |
      printf 'key=%s\\n' "$ARG_line" >> "$HARBOR_STEP_OUTPUT"
      printf 'block<<HARBOR_EOF\\n%s\\nHARBOR_EOF\\n' "$ARG_block" >> "$HARBOR_STEP_OUTPUT"
      printf 'EXIT=0\\nSTATUS=ok\\n1bad=x\\nbad-key=x\\n' >> "$HARBOR_STEP_OUTPUT"
      printf 'x_EXIT=spoof\\ngood=yes\\n' >> "$HARBOR_STEP_OUTPUT"
      head -c 100000 /dev/zero | tr '\\0' z | sed 's/^/big=/' >> "$HARBOR_STEP_OUTPUT"
      exit 7
    continue_on_error: true
  - name: second
    if: steps.first.outputs.good == 'yes' and steps.first.outputs.key != null
    run: |
      printf '%s' "$STEP_first_key" > "$HARBOR_RUN_DIR/got-key"
      printf '%s' "$STEP_first_block" > "$HARBOR_RUN_DIR/got-block"
      echo "line: $STEP_first_key"
      echo "block: $STEP_first_block"
      test "$STEP_first_key" = "$ARG_line"
      echo "exit=$STEP_first_EXIT status=$STEP_first_STATUS spoof=${STEP_first_x_EXIT-unset}"
      cp "$HARBOR_CONTEXT" "$HARBOR_RUN_DIR/context-second.json"
      echo "seen=$STEP_first_good" >> "$HARBOR_STEP_OUTPUT"
  - name: third
    argv: [printf, "%s|%s", "$STEP_first_key", "{{ args.line }}"]
"""


def exports_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    marks = tmp_path / "marks"
    marks.mkdir()
    for name, text in {
        "conds": CONDS,
        "after_fail": AFTER_FAIL,
        "flaky": RETRY,
        "exhaust": EXHAUST,
        "hooks": HOOKS,
        "cancel_me": CANCEL.format(marks=marks),
        "outputs": OUTPUTS,
    }.items():
        write_export(folder, f"{name}.yaml", text)
    return folder


def steps_of(result: Any) -> dict[str, dict[str, Any]]:
    data = result.structured_content
    assert data is not None, text_of(result)
    return {s["name"]: s for s in data["steps"]}


def statuses(result: Any) -> dict[str, str]:
    return {name: s["status"] for name, s in steps_of(result).items()}


async def check_conditions(client: Client) -> None:
    for deploy in (True, False):
        result = await client.call_tool("conds", {"deploy": deploy})
        assert result.is_error is False, text_of(result)
        assert result.structured_content["status"] == "ok"
        got = statuses(result)
        assert got == {
            "first": "failed",
            "on_fail": "ok",
            "deploy": "ok" if deploy else "skipped",
            "compare": "ok",
            "mismatch": "skipped",
            "either": "ok",
        }
        steps = steps_of(result)
        # A string output never orders against or equals a number.
        assert steps["mismatch"]["error"] == (
            "if: steps.first.outputs.n > 1 || steps.first.outputs.n == 3 is false"
        )
        assert "compared" in steps["compare"]["stdout_tail"]
    # Not sent: null, so `args.deploy == true` is false.
    assert statuses(await client.call_tool("conds", {}))["deploy"] == "skipped"

    result = await client.call_tool("after_fail", {"deploy": True})
    assert result.is_error is True
    data = result.structured_content
    assert data["status"] == "failed" and data["exit_code"] == 4
    steps = steps_of(result)
    assert statuses(result) == {
        "a": "failed",
        "args_only": "skipped",
        "plain": "skipped",
        "outcome": "ok",
    }
    assert steps["args_only"]["error"] == "an earlier step failed"
    assert steps["plain"]["error"] == "an earlier step failed"
    assert "outcome ran" in steps["outcome"]["stdout_tail"]
    assert all("must not run" not in s["stdout_tail"] for s in data["steps"])


async def check_retries(client: Client, db: Path) -> None:
    began = time.monotonic()
    result = await client.call_tool("flaky", {})
    elapsed = time.monotonic() - began
    assert result.is_error is False, text_of(result)
    flaky = steps_of(result)["flaky"]
    assert flaky["status"] == "ok" and "attempt 3" in flaky["stdout_tail"]
    assert flaky["outputs"] == {"attempt_3": "written"}  # each attempt starts clean
    assert [(a["attempt"], a["status"], a["exit_code"]) for a in flaky["attempts"]] == [
        (1, "failed", 1),
        (2, "failed", 1),
        (3, "ok", 0),
    ]
    assert 0.8 <= elapsed < 10, elapsed  # two delays of 0.4 s
    end = audit_show(db, result.structured_content["run_id"])["end"]
    assert end["status"] == "ok"
    (audited,) = end["steps"]
    assert [a["status"] for a in audited["attempts"]] == ["failed", "failed", "ok"]
    assert audited["phase"] == "steps"

    result = await client.call_tool("exhaust", {})
    assert result.is_error is True
    data = result.structured_content
    assert data["status"] == "failed" and data["exit_code"] == 6
    never = steps_of(result)["never"]
    assert [(a["attempt"], a["exit_code"]) for a in never["attempts"]] == [(1, 6), (2, 6)]
    assert steps_of(result)["after"]["status"] == "skipped"
    end = audit_show(db, data["run_id"])["end"]
    assert end["status"] == "failed" and len(end["steps"][0]["attempts"]) == 2


async def check_hooks(client: Client, db: Path) -> None:
    began = time.monotonic()
    result = await client.call_tool("hooks", {})
    elapsed = time.monotonic() - began
    assert result.is_error is True
    data = result.structured_content
    # The run's outcome is the main step's, whatever the hooks did.
    assert data["status"] == "failed" and data["exit_code"] == 5
    order = [(s["name"], s["phase"], s["status"]) for s in data["steps"]]
    assert order == [
        ("main", "steps", "failed"),
        ("broken_hook", "on_failure", "failed"),
        ("notify", "on_failure", "ok"),
        ("slow", "finally", "timeout"),
        ("cleanup", "finally", "ok"),
    ]
    steps = steps_of(result)
    assert "notified after failed 5" in steps["notify"]["stdout_tail"]
    assert steps["slow"]["error"] == "step timed out after 1 s"
    assert elapsed < 10, elapsed  # the slow hook was stopped after 1 s, not 30
    end = audit_show(db, data["run_id"])["end"]
    assert end["status"] == "failed" and end["exit_code"] == 5
    assert [(s["name"], s["phase"], s["status"]) for s in end["steps"]] == order

    # On success: no on_failure step runs; finally still does.
    result = await client.call_tool("hooks", {"fail": False})
    assert result.is_error is False, text_of(result)
    assert [(s["name"], s["phase"]) for s in result.structured_content["steps"]] == [
        ("main", "steps"),
        ("slow", "finally"),
        ("cleanup", "finally"),
    ]
    end = audit_show(db, result.structured_content["run_id"])["end"]
    assert end["status"] == "ok" and [s["phase"] for s in end["steps"]] == [
        "steps",
        "finally",
        "finally",
    ]


async def check_cancel_runs_finally(client: Client, marks: Path) -> None:
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:

            async def cancel_when_started() -> None:
                while not (marks / "started").exists():
                    await anyio.sleep(0.02)
                tg.cancel_scope.cancel()

            tg.start_soon(cancel_when_started)
            await client.call_tool("cancel_me", {})
            raise AssertionError("the call should have been cancelled")
        while not (marks / "finally").exists():
            await anyio.sleep(0.02)
    assert (marks / "finally").read_text() == "finally ran\n"


HOSTILE_LINE = "$(touch {p}/pwned1) `touch {p}/pwned2` ' \" ; touch {p}/pwned3 | x & \\ $HOME"
HOSTILE_BLOCK = "line1 $(touch {p}/pwned4)\n`touch {p}/pwned5`\nHARBOR_EOF\nEXIT=1\n'\"\n"


async def check_outputs(client: Client, db: Path, marks: Path) -> None:
    line = HOSTILE_LINE.format(p=marks)
    block = HOSTILE_BLOCK.format(p=marks)
    result = await client.call_tool("outputs", {"line": line, "block": block})
    assert result.is_error is False, text_of(result)
    data = result.structured_content
    steps = steps_of(result)
    first, second, third = steps["first"], steps["second"], steps["third"]
    assert first["status"] == "failed" and first["exit_code"] == 7
    outputs = first["outputs"]
    # The block ends at the first delimiter line: what the caller put after
    # it is read as ordinary lines (key=value only; "EXIT" stays reserved).
    assert outputs["key"] == line
    assert outputs["block"] == f"line1 $(touch {marks}/pwned4)\n`touch {marks}/pwned5`"
    assert outputs["good"] == "yes"
    # Only the first 64 KiB of the output file is read: "big" is cut there.
    written = (Path(data["run_dir"]) / "steps" / "1-first.output").read_bytes()
    assert len(written) > 100_000
    assert len(outputs["big"]) == 64 * 1024 - written.index(b"big=") - len("big=")
    assert set(outputs) == {"key", "block", "good", "big"}
    assert second["status"] == "ok", second
    assert second["outputs"] == {"seen": "yes"}
    run_dir = Path(data["run_dir"])
    assert (run_dir / "got-key").read_text() == line
    assert (run_dir / "got-block").read_text() == outputs["block"]
    assert "exit=7 status=failed spoof=unset" in second["stdout_tail"]
    assert third["stdout_tail"] == f"$STEP_first_key|{line}"  # argv: no shell, no expansion
    # context.json was current before the second step: it holds the first's outcome.
    context = json.loads((run_dir / "context-second.json").read_text())
    assert context["steps"]["first"]["status"] == "failed"
    assert context["steps"]["first"]["exit_code"] == 7
    assert context["steps"]["first"]["outputs"]["key"] == line
    assert "second" not in context["steps"]
    # Nothing the caller sent ever ran.
    assert not list(marks.glob("pwned*")), list(marks.glob("pwned*"))
    end = audit_show(db, data["run_id"])["end"]
    assert [s["output_keys"] for s in end["steps"]] == [
        ["big", "block", "good", "key"],
        ["seen"],
        [],
    ]
    # The audit keeps output keys, not their values.
    assert all("outputs" not in s for s in end["steps"])
    assert "zzzz" not in json.dumps(end)


@pytest.mark.parametrize("mode", MODES)
async def test_pipelines_over_mcp(tmp_path: Path, mode: str) -> None:
    exports, db, marks = exports_folder(tmp_path), tmp_path / "harbor.db", tmp_path / "marks"
    extra = ("--db", str(db), "--runs-dir", str(tmp_path / "runs"), "--workdir", str(marks))
    with open(tmp_path / "server.stderr", "w") as errlog:
        async with stdio_client_of(exports, tmp_path / "state", mode, *extra, errlog=errlog) as c:
            if mode == "auto":
                assert c.protocol_version == "2026-07-28"
            await check_conditions(c)
            await check_retries(c, db)
            await check_hooks(c, db)
            await check_outputs(c, db, marks)
            await check_cancel_runs_finally(c, marks)
            # The server still answers after the cancel.
            assert (await c.call_tool("flaky", {})).is_error is False
    assert audit_verify(db).returncode == 0
