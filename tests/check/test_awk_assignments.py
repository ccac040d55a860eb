"""An awk operand of the shape NAME=VALUE assigns a variable of the
program: harmless to a literal program that runs nothing and writes no file
(round six's log reports read ``awk '…' "$ARG_file"``), refused where the
program may run or write what a variable holds."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
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


@pytest.mark.parametrize(
    ("within", "refused"),
    [("data", False), ("logs/app", False), (".", True), ("../up", True), (None, True)],
)
def test_a_path_within_a_subfolder_is_no_assignment(
    within: str | None, refused: bool, tmp_path: Path
) -> None:
    """A program that may run a variable (`system(cmd)`) refuses an operand
    that may be NAME=VALUE: a path `within:` a subfolder resolves there only
    with a `/` in it, so it is none."""
    schema: dict[str, object] = {"type": "string"}
    if within is not None:
        schema["within"] = within
    document = {
        "name": "t",
        "description": "awk operand",
        "args": {"f": schema},
        "steps": [{"name": "s", "run": "awk '{ system(cmd) }' \"$ARG_f\""}],
    }
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    report = check_export(load_export(path))
    # refused still for what the program does with its data (H005), but the
    # NAME=VALUE finding (H012) only when the value may have that shape
    assigning = any("NAME=VALUE" in f.message for f in report.findings)
    assert assigning is refused, [f.message for f in report.findings]
