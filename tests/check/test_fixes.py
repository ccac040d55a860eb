"""Mechanical fixes are exact: the fix a finding gives says precisely which
edit to make, and making that edit literally removes the finding.

Each error/warning case of tests/check/fixtures/<rule>.yaml (a ``run:`` template, or
for the agent rules ``exports:``, a set of whole export files) carries either
``fixed:`` (the template after the edit; ``fixed_args:`` when the fix changes
the schema), ``fix_says:`` (the words of the fix that make the edit
unambiguous) and optionally ``remains:`` (errors of other rules that
legitimately stay), or ``not_mechanical:`` (why no literal edit follows from
the fix).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import ExportReport
from mcp_harbor.check.rules import RULES
from tests.check._harness import Case, check, check_documents

FIXTURES = Path(__file__).parent / "fixtures"

#: a variable a fix tells the author to write: ``$ARG_x``, ``${ARG_x}`` or a bare ``$ARG``
_ARG_VARIABLE = re.compile(r"\$\{?ARG(?:_(\w+))?\b")
_PLACEHOLDER = re.compile(r"\{\{\s*args\.(\w+)")


def _cases(rule_id: str) -> list[dict[str, Any]]:
    path = FIXTURES / f"{rule_id.lower()}.yaml"
    data: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def _params(*, only_fixed: bool = False, flagged: bool = True) -> list[Any]:
    params = []
    for rule_id in RULES:
        for index, case in enumerate(_cases(rule_id)):
            if flagged and case["expect"] not in ("error", "warning"):
                continue
            if only_fixed and "fixed" not in case:
                continue
            params.append(pytest.param(rule_id, case, id=f"{rule_id}-{index}-{case['expect']}"))
    return params


def _check(run: str, args: dict[str, str], folder: Path, index: int) -> ExportReport:
    return check(Case("fix", False, run=run, args=args), folder, index)


def _check_case(case: dict[str, Any], folder: Path, index: int, *, fixed: bool) -> ExportReport:
    """The case as written or, with `fixed`, after its fix: a template (the
    ``run:`` cases) or a set of whole export files (the ``exports:`` cases)."""
    if "exports" in case:
        return check_documents(case["fixed"] if fixed else case["exports"], folder, index)
    if fixed:
        return _check(case["fixed"], case.get("fixed_args", case["args"]), folder, index)
    return _check(case["run"], case["args"], folder, index)


def _arg_names(case: dict[str, Any]) -> set[str]:
    """The args of the case's export (the first file of an ``exports:`` case)."""
    if "exports" in case:
        return set(case["exports"][0].get("args", {}))
    return set(case["args"])


def _rules(report: ExportReport) -> set[str]:
    return {f.rule for f in report.findings}


@pytest.mark.parametrize(("rule_id", "case"), _params())
def test_every_flagged_case_is_fixed_or_says_why_not(rule_id: str, case: dict[str, Any]) -> None:
    if "not_mechanical" in case:
        assert isinstance(case["not_mechanical"], str) and case["not_mechanical"]
        assert not {"fixed", "fixed_args", "fix_says", "remains"} & set(case)
    else:
        fixed_type = list if "exports" in case else str
        assert isinstance(case.get("fixed"), fixed_type), "add `fixed:` or `not_mechanical:`"
        assert isinstance(case.get("fix_says"), str) and case["fix_says"]
        assert set(case.get("remains", [])) <= set(RULES)
        assert rule_id not in case.get("remains", [])


@pytest.mark.parametrize(("rule_id", "case"), _params(only_fixed=True))
def test_applying_the_fix_removes_the_finding(
    rule_id: str, case: dict[str, Any], tmp_path: Path
) -> None:
    before = _check_case(case, tmp_path, 0, fixed=False)
    finding = next(f for f in before.findings if f.rule == rule_id)
    assert case["fix_says"] in finding.fix, (
        f"{rule_id}'s fix does not say {case['fix_says']!r}: {finding.fix!r}"
    )
    after = _check_case(case, tmp_path, 1, fixed=True)
    assert rule_id not in _rules(after), (
        f"applying {finding.fix!r} gives {case['fixed']!r}, which still has "
        + "; ".join(f.message for f in after.findings if f.rule == rule_id)
    )
    introduced = _rules(after) - _rules(before)
    assert not introduced, f"the fixed template has new findings: {sorted(introduced)}"
    errors = {f.rule for f in after.findings if f.severity == "error"}
    assert errors == set(case.get("remains", []))
    if not errors:
        assert after.status == "accepted"


@pytest.mark.parametrize(("rule_id", "case"), _params(flagged=False))
def test_fixes_name_the_variables_and_args_that_exist(
    rule_id: str, case: dict[str, Any], tmp_path: Path
) -> None:
    """A fix that shows a command to write names the arg's own variable
    (``"$ARG_x"``), never a bare ``$ARG`` that the step does not have."""
    report = _check_case(case, tmp_path, 0, fixed=False)
    args = _arg_names(case)
    for finding in report.findings:
        for match in _ARG_VARIABLE.finditer(finding.fix):
            assert match.group(1) in args, (
                f"{finding.rule}'s fix names {match.group(0)!r}, not a variable of the step "
                f"(the args are {sorted(args)}): {finding.fix!r}"
            )
        for name in _PLACEHOLDER.findall(finding.fix):
            assert name in args, f"{finding.rule}'s fix names args.{name}: {finding.fix!r}"
