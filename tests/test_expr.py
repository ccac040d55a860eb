"""Issue 9: the ``if:`` language (mcp_harbor/expr.py).

Parse errors carry the column of the problem (and, through the loader, the
file, line and column in the export file); evaluation walks the tree: a
comparison of mismatched types is false, a missing output or unsent arg is
null, ``and``/``or``/``not`` and their symbols agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import write_export

from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError
from mcp_harbor.expr import ExprError, Ref, parse_expr

ARGS = ("deploy", "count", "name")
STEPS = ("build", "test")


def column_of(text: str) -> tuple[str, int]:
    with pytest.raises(ExprError) as info:
        parse_expr(text, ARGS, STEPS)
    return str(info.value), info.value.column


@pytest.mark.parametrize(
    ("text", "needle", "column"),
    [
        ("", "empty", 1),
        ("   ", "empty", 1),
        ("deploy == true", "unknown name 'deploy'", 1),
        ("args.nope", "args.nope: no such arg (declared: count, deploy, name)", 6),
        (
            "steps.later.ok",
            "steps.later: no earlier step of that name (earlier steps: build, test)",
            7,
        ),
        ("args.deploy and steps.zzz.failed", "steps.zzz", 23),
        ("steps.build.colour", "steps.build.colour: use one of exit_code, failed, ok, skipped", 13),
        ("args.deploy true", "unexpected 'true' after a complete expression", 13),
        ("args.deploy == true )", "unexpected ')' after a complete expression", 21),
        ("(args.deploy", "expected ')', found 'the end'", 13),
        ("args.count == ", "unexpected 'end of expression'", 15),
        ("args.name == 'x' $", "unexpected '$'", 18),
        ("args.", "expected a name after '.'", 6),
        ("steps.build.outputs", "expected '.'", 20),
    ],
)
def test_parse_errors_name_the_column(text: str, needle: str, column: int) -> None:
    message, got = column_of(text)
    assert needle in message
    assert got == column, (text, message)


def test_refs_and_reads_outcomes() -> None:
    only_args = parse_expr("args.deploy == true && !(args.count > 3)", ARGS, STEPS)
    assert only_args.refs == (Ref("arg", "deploy"), Ref("arg", "count"))
    assert not only_args.reads_outcomes
    outcome = parse_expr("steps.build.failed or steps.test.outputs.url != null", ARGS, STEPS)
    assert outcome.refs == (Ref("step", "build", "failed"), Ref("output", "test", "url"))
    assert outcome.reads_outcomes
    # A step name that is itself a keyword-like word still parses as a ref.
    assert parse_expr("steps.test.ok", ARGS, STEPS).refs == (Ref("step", "test", "ok"),)


def outcome(status: str, exit_code: int | None, **outputs: str) -> dict[str, Any]:
    return {
        "status": status,
        "ok": status == "ok",
        "failed": status in ("failed", "timeout"),
        "skipped": status == "skipped",
        "timeout": status == "timeout",
        "exit_code": exit_code,
        "outputs": outputs,
    }


STATE = {
    "build": outcome("failed", 2, version="1.4", count="3"),
    "test": outcome("skipped", None),
}


@pytest.mark.parametrize(
    ("text", "args", "expected"),
    [
        ("steps.build.failed", {}, True),
        ("steps.build.ok", {}, False),
        ("steps.build.exit_code == 2", {}, True),
        ("steps.build.exit_code != 2", {}, False),
        ("steps.build.status == 'failed'", {}, True),
        ('steps.build.status == "failed"', {}, True),
        ("steps.test.skipped", {}, True),
        ("steps.test.exit_code == null", {}, True),
        ("args.deploy == true", {"deploy": True}, True),
        ("args.deploy == true", {"deploy": False}, False),
        ("args.deploy == true", {}, False),  # not sent: null
        ("args.deploy == null", {}, True),
        ("args.deploy", {"deploy": True}, True),
        ("not args.deploy", {}, True),
        ("steps.build.outputs.version == '1.4'", {}, True),
        ("steps.build.outputs.version >= '1.3'", {}, True),  # string ordering
        ("steps.build.outputs.missing == null", {}, True),
        ("steps.build.outputs.missing", {}, False),
        # Outputs are strings: a number never equals one, ordering across types is false.
        ("steps.build.outputs.count == 3", {}, False),
        ("steps.build.outputs.count > 1", {}, False),
        ("steps.build.outputs.count < 1", {}, False),
        ("args.count > 2", {"count": 3}, True),
        ("args.count > 2.5", {"count": 3}, True),
        ("args.count == 3.0", {"count": 3}, True),
        ("args.count == true", {"count": 1}, False),  # 1 is not true
        ("args.deploy == 1", {"deploy": True}, False),
        ("args.count > 'a'", {"count": 3}, False),
        ("args.name < 3", {"name": "x"}, False),
        ("args.name > null", {"name": "x"}, False),
        ("args.deploy and steps.build.failed", {"deploy": True}, True),
        ("args.deploy && steps.build.ok", {"deploy": True}, False),
        ("args.deploy or steps.build.ok", {}, False),
        ("args.deploy || steps.build.failed", {}, True),
        ("!steps.build.ok && (args.count >= 3 or false)", {"count": 3}, True),
        ("not not steps.build.failed", {}, True),
        ("args.name == ''", {"name": ""}, True),
        ("args.name", {"name": ""}, False),
        ("args.count", {"count": 0}, False),
    ],
)
def test_evaluation(text: str, args: dict[str, Any], expected: bool) -> None:
    assert parse_expr(text, ARGS, STEPS).evaluate(args, STATE) is expected


def test_evaluation_never_uses_python_eval() -> None:
    # A value that would be code to Python is only ever data.
    expr = parse_expr("args.name == '__import__'", ARGS, STEPS)
    assert expr.evaluate({"name": "__import__"}, {}) is True
    with pytest.raises(ExprError):
        parse_expr("__import__('os')", ARGS, STEPS)


# --- through the loader: file, line and column ---------------------------------------


def load_problem(tmp_path: Path, text: str) -> str:
    path = write_export(tmp_path, "x.yaml", text)
    with pytest.raises(ConfigError) as info:
        load_export(path)
    return str(info.value)


HEAD = """
name: x
description: d
args:
  deploy: {type: boolean}
steps:
  - name: build
    run: "true"
"""


@pytest.mark.parametrize(
    ("condition", "needle", "column"),
    [
        ("steps.later.ok", "steps.later: no earlier step of that name (earlier steps: build)", 15),
        ("steps.gone.ok", "steps.gone: no earlier step of that name", 15),
        ("deploy == true", "unknown name 'deploy'", 9),
        ("args.deploy true", "unexpected 'true' after a complete expression", 21),
        ("steps.build.colour", "steps.build.colour: use one of", 21),
        ("args.nope", "args.nope: no such arg (declared: deploy)", 14),
    ],
)
def test_load_errors_name_file_line_column(
    tmp_path: Path, condition: str, needle: str, column: int
) -> None:
    text = HEAD + f'  - name: check\n    if: {condition}\n    run: "true"\n'
    text += '  - name: later\n    run: "true"\n'
    problem = load_problem(tmp_path, text)
    assert f"x.yaml:9:{column}: steps[1].if: {needle}" in problem, problem


def test_an_empty_expression_is_refused_at_its_place(tmp_path: Path) -> None:
    problem = load_problem(tmp_path, HEAD + '  - name: c\n    if: "  "\n    run: "true"\n')
    assert "x.yaml:9:" in problem and "steps[1].if: the expression is empty" in problem


def test_if_must_be_a_string(tmp_path: Path) -> None:
    problem = load_problem(tmp_path, HEAD + '  - name: c\n    if: true\n    run: "true"\n')
    assert "x.yaml:9: steps[1].if: Input should be a valid string" in problem, problem


def test_hooks_may_read_every_main_step_and_earlier_hooks(tmp_path: Path) -> None:
    text = HEAD + (
        "on_failure:\n"
        '  - name: notify\n    if: steps.build.failed\n    run: "true"\n'
        "finally:\n"
        '  - name: clean\n    if: steps.notify.skipped or steps.build.ok\n    run: "true"\n'
        '  - name: last\n    if: steps.clean.ok\n    run: "true"\n'
    )
    export = load_export(write_export(tmp_path, "x.yaml", text))
    assert [s.name for s in export.all_steps] == ["build", "notify", "clean", "last"]
    assert [s.section for s in export.all_steps] == ["steps", "on_failure", "finally", "finally"]
    # A finally step cannot read a later finally step.
    bad = text.replace("steps.clean.ok", "steps.after.ok") + '  - name: after\n    run: "true"\n'
    assert "steps.after: no earlier step of that name" in load_problem(tmp_path, bad)
