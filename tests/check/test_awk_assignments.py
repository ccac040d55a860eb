"""An awk operand of the shape NAME=VALUE assigns a variable of the
program: harmless to a literal program that runs nothing and writes no file
(round six's log reports read ``awk '…' "$ARG_file"``), refused where the
program may run or write what a variable holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import Case, check

SAFE = [
    "awk '/ERROR/ {n++} END {print n+0}' \"$ARG_x\"",
    "awk -F, '{print $2}' \"$ARG_x\" | sort | uniq -c",
]
DANGEROUS = [
    "awk '{ system(cmd) }' \"$ARG_x\"",
    "awk '{ print | cmd }' \"$ARG_x\"",
    "awk '{ print > out }' \"$ARG_x\"",
    "awk '{ cmd | getline line }' \"$ARG_x\"",
]


@pytest.mark.parametrize("run", SAFE)
def test_a_program_that_runs_no_variable_is_accepted(run: str, tmp_path: Path) -> None:
    report = check(Case("safe", False, run=run), tmp_path)
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("run", DANGEROUS)
def test_a_program_that_may_run_or_write_a_variable_is_refused(run: str, tmp_path: Path) -> None:
    assert check(Case("dangerous", True, run=run), tmp_path).status == "refused"
