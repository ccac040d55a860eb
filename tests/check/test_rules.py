"""Per-rule fixtures, the false-positive menagerie, finding shape and the
meta-test that every rule is documented and has fixtures."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import ExportReport, Finding, check_export
from mcp_harbor.check.rules import DOC_HEADINGS, RULES
from mcp_harbor.config import load_export
from tests.check._harness import Case, check_documents, load

FIXTURES = Path(__file__).parent / "fixtures"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _cases(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def _fixture_params() -> list[Any]:
    params = []
    for rule_id in RULES:
        for index, case in enumerate(_cases(f"{rule_id.lower()}.yaml")):
            params.append(pytest.param(rule_id, case, id=f"{rule_id}-{index}-{case['expect']}"))
    return params


@pytest.mark.parametrize(("rule_id", "case"), _fixture_params())
def test_fixture(rule_id: str, case: dict[str, Any], tmp_path: Path) -> None:
    if "exports" in case:  # whole export files, checked as a set (agent rules)
        report = check_documents(case["exports"], tmp_path)
    else:
        report = check_export(
            load(Case(rule_id, False, run=case["run"], args=case["args"]), tmp_path)
        )
    rules = {f.rule for f in report.findings}
    if case["expect"] == "ok":
        assert rule_id not in rules
    else:
        assert rule_id in rules
        finding = next(f for f in report.findings if f.rule == rule_id)
        assert finding.severity == case["expect"]


@pytest.mark.parametrize(
    "case", _cases("false-positive-menagerie.yaml"), ids=lambda c: c["run"][:30]
)
def test_false_positive_menagerie_is_clean(case: dict[str, Any], tmp_path: Path) -> None:
    report = check_export(
        load(Case("menagerie", False, run=case["run"], args=case["args"]), tmp_path)
    )
    assert report.findings == ()
    assert report.status == "accepted"


@pytest.mark.parametrize("rule_id", list(RULES))
def test_every_rule_is_documented_and_has_fixtures(rule_id: str) -> None:
    rule = RULES[rule_id]
    assert re.fullmatch(r"[HW]\d{3}", rule.id)
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name)
    assert rule.severity == ("error" if rule.id.startswith("H") else "warning")
    for heading in DOC_HEADINGS:
        assert rule.section(heading), f"{rule_id} lacks '## {heading}'"
    cases = _cases(f"{rule_id.lower()}.yaml")
    assert any(c["expect"] == "ok" for c in cases)
    assert any(c["expect"] in ("error", "warning") for c in cases)
    docs = DOCS.read_text(encoding="utf-8")
    assert f"## {rule.id} {rule.name}" in docs
    section = docs.split(f"## {rule.id} {rule.name}", 1)[1].split("\n## ", 1)[0]
    for heading in DOC_HEADINGS:
        assert f"### {heading}" in section


def test_finding_names_export_step_line_column_arg_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "greet.yaml"
    path.write_text(
        "name: greet\n"
        "description: say hello\n"
        "args:\n"
        "  who: {type: string}\n"
        "steps:\n"
        "  - name: hello\n"
        "    run: |\n"
        "      echo ok\n"
        '      echo "Hello {{ args.who | shellquote }}"\n',
        encoding="utf-8",
    )
    report = check_export(load_export(path))
    assert report.status == "refused"
    [finding] = report.findings
    assert isinstance(finding, Finding)
    assert (finding.rule, finding.step, finding.line, finding.column, finding.arg) == (
        "H002",
        "hello",
        9,
        19,
        "who",
    )
    assert "greet: step 'hello', line 9, column 19: arg 'who'" in finding.message
    assert "remove the double quotes around the placeholder" in finding.fix
    assert finding.confidence == RULES["H002"].confidence
    keys = {"rule", "severity", "confidence", "step", "line", "column", "arg", "message", "fix"}
    assert set(finding.to_json()) == keys
    assert finding.to_json()["confidence"] == finding.confidence


def test_report_refusal_under_strict(tmp_path: Path) -> None:
    case = Case("w", False, run="echo {{ args.x | shellquote }}", args={"x": "D"})
    report = check_export(load(case, tmp_path))
    assert report.status == "accepted"
    assert not report.refused_under(strict=False)
    assert report.refused_under(strict=True)


def test_confidence_is_kept_in_the_cache_file_rows() -> None:
    from mcp_harbor.check import cachefile

    finding = Finding("W103", "caller-chosen-path", "warning", "s", 1, 2, "x", "m", "f", "low")
    report = ExportReport("t", "t.yaml", "accepted", (finding,))
    assert cachefile._report_of(cachefile._row_of(report)) == report
    old_row = [
        "t",
        "t.yaml",
        "accepted",
        [["W103", "caller-chosen-path", "warning", "s", 1, 2, "x", "m", "f"]],
    ]
    assert cachefile._report_of(old_row).findings[0].confidence == "high"
