"""The labelled corpus: every case's verdict must match its label."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor.check import check_exports
from mcp_harbor.config import load_export
from tests.check._harness import write
from tests.check.corpus import Case, corpus, refused_by_design

CASES = corpus()


def test_corpus_is_big_and_mixed() -> None:
    assert len(CASES) >= 300
    assert len({c.id for c in CASES}) == len(CASES)
    dangerous = sum(c.dangerous for c in CASES)
    assert 0.25 < dangerous / len(CASES) < 0.75


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Case, str, list[str]]]:
    folder: Path = tmp_path_factory.mktemp("corpus")
    exports = [load_export(write(case, folder, i)) for i, case in enumerate(CASES)]
    reports = check_exports(exports)
    return {
        case.id: (case, report.status, [f.rule for f in report.findings])
        for case, report in zip(CASES, reports, strict=True)
    }


def test_no_dangerous_template_is_accepted(
    verdicts: dict[str, tuple[Case, str, list[str]]],
) -> None:
    missed = [
        cid for cid, (case, status, _) in verdicts.items() if case.dangerous and status != "refused"
    ]
    assert missed == []


def test_no_safe_template_is_refused(verdicts: dict[str, tuple[Case, str, list[str]]]) -> None:
    refused = {
        cid: rules
        for cid, (case, status, rules) in verdicts.items()
        if not case.dangerous and status == "refused" and refused_by_design(cid) is None
    }
    assert refused == {}


def test_refusals_by_design_still_refuse(
    verdicts: dict[str, tuple[Case, str, list[str]]],
) -> None:
    """The safe cases the promise refuses on purpose (a program without a
    grammar, a maybe-negative number in code) are refused, and stay few."""
    by_design = [cid for cid, (case, _, _) in verdicts.items() if refused_by_design(cid)]
    assert by_design
    assert all(verdicts[cid][1] == "refused" for cid in by_design), [
        cid for cid in by_design if verdicts[cid][1] != "refused"
    ]


@pytest.mark.parametrize(
    ("case_id", "rule"),
    [
        ("sq-dq/plain/S", "H002"),
        ("raw/plain/S", "H001"),
        ("sq/command/S", "H003"),
        ("env-dq/sh-c-script/S", "H004"),
        ("sq/python-c/S", "H005"),
        ("sq/arith/S", "H006"),
        ("sq/printf-format/D", "H007"),
        ("sq/path-assign/S", "H012"),
        ("sq/git-clone/D", "H009"),
        ("sq/plain/D", "H012"),
        ("sq/echo/D", "W101"),
        ("env/plain-after-dashdash/S", "W102"),
        ("attack/unparseable", "H000"),
    ],
)
def test_refusals_name_the_specific_rule(
    verdicts: dict[str, tuple[Case, str, list[str]]], case_id: str, rule: str
) -> None:
    assert rule in verdicts[case_id][2]
