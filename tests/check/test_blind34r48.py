"""Blind round forty-eight (issue 34): 14 attacks in 10 classes, written
from the docs alone (tests/check/blind34r48/README.md), committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, verdicts

HERE = Path(__file__).parent / "blind34r48"

#: Open, each inert in the real runtime here:
#: - a caller's path (os.path.join of an absolute name) or an archive's link
#:   read by the export, printing another export's secret file: only the
#:   sandbox keeps it out of reach (issue 35, round thirty's class);
MISSES = {
    "006-report-by-name.yaml",
    "007-bundle-manifest.yaml",
    "008-package-readme.yaml",
}
#: Accepted alone, inert: the branch name it makes is read back as a sed
#: program by attacks/then/r48_pr_description.yaml, which is refused.
INERT = {"012-feature-branch.yaml"}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 14, inert=INERT, misses=MISSES)


def test_the_reader_of_the_branch_name_is_refused() -> None:
    assert verdicts(HERE / "attacks" / "then")["r48_pr_description.yaml"] == "refused"
