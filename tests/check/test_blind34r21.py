"""Blind round twenty-one (issue 34): 51 attacks in 13 classes aimed at
round twenty's readings, and 100 safe templates, written from the docs
alone (tests/check/blind34r21/README.md, safe-README.md), committed before
scoring and scored once: see SCORE.md. No longer held out. The lists are
the verdicts now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_harbor.check import load_and_check
from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r21"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted one by one (the writer of a pair), whose reader is refused.
REFUSED_ACROSS = {"037-read-shared-abs-path.yaml": "build_lines"}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "037-bq-team-spend.yaml": "H012: bq has no grammar",
    "041-iam-stale-keys.yaml": "H012: aws output as aws values (it may start with file://)",
    "079-blame-range.yaml": "H009: a commit from git blame where git log reads options",
    "088-events-rollup.yaml": "H006: sum[$s] in arithmetic, a key of the data's",
    "092-statuspage-update.yaml": "H010: a URL built in a function, not followed",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 51, ACCEPTED_INERT, REFUSED_ACROSS, REFUSED_SAFE)


@pytest.mark.parametrize("name", sorted(REFUSED_ACROSS))
def test_refused_beside_its_reader(name: str, tmp_path: Path) -> None:
    """Served with the export it prepares (attacks/then/), the gate refuses
    one of the two: the pair is never served."""
    reader = f"{REFUSED_ACROSS[name]}.yaml"
    shutil.copy(HERE / "attacks" / name, tmp_path / name)
    shutil.copy(HERE / "attacks" / "then" / reader, tmp_path / reader)
    checked = load_and_check([tmp_path])
    assert len(checked.accepted) <= 1, [e.path.name for e in checked.accepted]
