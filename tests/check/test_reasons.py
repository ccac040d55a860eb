"""Every finding's reason is true of the line it names (issue 34): a reason
names only ``$`` forms that the line has, and a warning's column points at
the value the reason is about. Over the labelled corpus and the fixtures.

Also: H009's fix, made true of the arg's schema (`Rule.amend_fix`), and
each rule's documented example, which must trigger the rule when it is a
``run:`` template, while its "Use instead" must not."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import ExportReport, Finding, check_export
from mcp_harbor.check.rules import RULES, OptionRunsCode
from tests.check._harness import Case, load
from tests.check.corpus import corpus

FIXTURES = Path(__file__).parent / "fixtures"
#: a `$NAME` or `${NAME` form a reason names in a code span
_DOLLAR_FORM = re.compile(r"`\$\{?([A-Za-z_][A-Za-z0-9_]*)")
#: the form a reason says the value has, first in its text
_SUBJECT = re.compile(
    r"the placeholder `\{\{|`\$\{?([A-Za-z_][A-Za-z0-9_]*)|the name `([A-Za-z_][A-Za-z0-9_]*)`"
)


def _line(report: ExportReport, finding: Finding, folder: Path) -> str:
    path = folder / "case0.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert report.name == "t"
    return lines[finding.line - 1]


def _assert_true_of_line(finding: Finding, line: str) -> None:
    reason = finding.message.split(":", 1)[1]
    for name in _DOLLAR_FORM.findall(reason):
        if name in ("ARG",):  # generic advice, not a claim about the line
            continue
        assert f"${name}" in line or f"${{{name}" in line, (
            f"{finding.rule}'s reason names `${name}`, which line {finding.line} does not "
            f"have: {line!r}: {finding.message}"
        )
    if not finding.rule.startswith("W"):
        return
    at = line[finding.column - 1 :]
    subject = _SUBJECT.search(reason)
    if subject is None:
        return
    if subject.group(0).startswith("the placeholder"):
        assert at.startswith("{{"), f"{finding.message} points at {at[:20]!r}, not a placeholder"
    elif subject.group(1):
        name = subject.group(1)
        assert at.startswith((f"${name}", f"${{{name}")), (
            f"{finding.message} points at {at[:20]!r}, not `${name}`"
        )
    else:
        assert at.startswith(subject.group(2)), f"{finding.message} points at {at[:20]!r}"


def _corpus_params() -> list[Any]:
    return [pytest.param(c, id=c.id) for c in corpus() if c.run is not None]


@pytest.mark.parametrize("case", _corpus_params())
def test_corpus_reasons_are_true_of_the_line(case: Case, tmp_path: Path) -> None:
    report = check_export(load(case, tmp_path))
    for finding in report.findings:
        _assert_true_of_line(finding, _line(report, finding, tmp_path))


def _fixture_params() -> list[Any]:
    params = []
    for rule_id in RULES:
        data = yaml.safe_load((FIXTURES / f"{rule_id.lower()}.yaml").read_text(encoding="utf-8"))
        for index, case in enumerate(data):
            if "run" in case:
                params.append(pytest.param(case, id=f"{rule_id}-{index}"))
    return params


@pytest.mark.parametrize("case", _fixture_params())
def test_fixture_reasons_are_true_of_the_line(case: dict[str, Any], tmp_path: Path) -> None:
    report = check_export(load(Case("t", False, run=case["run"], args=case["args"]), tmp_path))
    for finding in report.findings:
        _assert_true_of_line(finding, _line(report, finding, tmp_path))


# Issue 34: the noise cases, checked end to end under --strict's eyes.
@pytest.mark.parametrize(
    ("run", "args"),
    [
        ('for i in 1 2; do echo "$i/{{ args.seconds }} unit"; done', {"seconds": "POSINT"}),
        ('echo "$(( ARG_n * 2 ))" $(( ARG_n * 2 ))', {"n": "I"}),
        ('y=$(( ARG_n + 1 )); echo "total: $y"', {"n": "I"}),
    ],
)
def test_issue_34_noise_cases_have_no_finding(
    run: str, args: dict[str, str], tmp_path: Path
) -> None:
    report = check_export(load(Case("t", False, run=run, args=args), tmp_path))
    assert report.findings == ()
    assert not report.refused_under(strict=True)


def test_issue_34_typo_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    case = Case("t", False, run='git log -- "$ARG_brnach"', args={"branch": "S"})
    report = check_export(load(case, tmp_path))
    [finding] = report.findings
    assert (finding.rule, finding.severity) == ("H011", "error")
    assert "did you mean `ARG_branch`?" in finding.message
    assert report.status == "refused"


@pytest.mark.parametrize(
    ("schema", "says", "never"),
    [
        ({"type": "string", "leading_dash": True}, "remove `leading_dash: true`", "minimum"),
        ({"type": "integer"}, "a `minimum` of 0", "leading_dash"),
        ({"type": ["string", "integer"]}, "a `minimum` of 0 (or more) and a `pattern`", "leading"),
    ],
)
def test_h009_fix_is_true_of_the_args_schema(schema: dict[str, Any], says: str, never: str) -> None:
    fix = (
        "put `--` before the value, or remove `leading_dash: true` from arg 'x' (values "
        "starting with `-` are then refused at validation), or give it a `pattern` that "
        "cannot start with `-`"
    )
    amended = OptionRunsCode.amend_fix(fix, "x", schema)
    assert says in amended
    assert never not in amended
    assert amended.startswith("put `--` before the value")


# ------------------------------------------------------ documented examples

_BLOCK = re.compile(r"```yaml\n(.*?)```", re.S)


def _example_document(block: str, args: dict[str, Any] | None) -> dict[str, Any] | None:
    """An export from a rule doc's YAML block: a whole one (``steps:``) or a
    ``run:`` line, with the example's args (`args`: those of the example
    a "Use instead" block goes with); a block without any declares each
    name its script uses as a string that may start with `-`, the widest."""
    data = yaml.safe_load(block)
    if not isinstance(data, dict):
        return None
    declared = data.get("args", args) or {}
    if "steps" in data:
        steps = data["steps"]
    elif "run" in data:
        steps = [{"name": "s", "run": data["run"]}]
    else:
        return None
    if any("run" not in s for s in steps):
        return None  # an agent's step: the agent rules have their own cases
    steps = [{"name": f"s{i}", **s} for i, s in enumerate(steps)]
    if not declared:  # the example names its args only in the script
        text = yaml.safe_dump(steps)
        names = set(re.findall(r"args\.(\w+)", text)) | set(re.findall(r"ARG_(\w+)", text))
        declared = {name: {"type": "string", "leading_dash": True} for name in names}
    document = {"name": "t", "description": "example", "args": declared, "steps": steps}
    # what the example declares beside its steps (H010's secrets, H012's programs)
    document.update({k: data[k] for k in ("secrets", "programs", "pass_env") if k in data})
    return document


def _doc_params() -> list[Any]:
    params = []
    for rule in RULES.values():
        blocks = _BLOCK.findall(rule.section("Example"))
        after = _BLOCK.findall(rule.section("Use instead"))
        # the agent rules' examples are agent steps: they have their own cases
        if blocks and _example_document(blocks[0], None) is not None:
            params.append(pytest.param(rule.id, blocks[0], after[0] if after else None, id=rule.id))
    return params


def test_only_agent_rules_lack_a_run_example() -> None:
    covered = {p.values[0] for p in _doc_params()}
    assert set(RULES) - covered <= {"H020", "W106"}, set(RULES) - covered


def _check_document(document: dict[str, Any], folder: Path, name: str) -> ExportReport:
    from mcp_harbor.config import load_export

    path = folder / name
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return check_export(load_export(path))


@pytest.mark.parametrize(("rule_id", "example", "instead"), _doc_params())
def test_documented_example_triggers_and_use_instead_does_not(
    rule_id: str, example: str, instead: str | None, tmp_path: Path
) -> None:
    before = _example_document(example, None)
    assert before is not None
    report = _check_document(before, tmp_path, "example.yaml")
    assert rule_id in {f.rule for f in report.findings}, report.findings
    if instead is None:
        return
    after = _example_document(instead, before["args"])
    if after is None:
        return
    fixed = _check_document(after, tmp_path, "instead.yaml")
    assert rule_id not in {f.rule for f in fixed.findings}, fixed.findings
