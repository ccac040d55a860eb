"""Blind round eighteen (issue 34): 58 attacks in 12 classes and 150 safe
templates written from the docs alone (tests/check/blind34r18/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_harbor.check import load_and_check
from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r18"
SHIPPED = Path(__file__).parents[2] / "exports"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted one by one, refused by the gate of the exports served together:
#: each puts the caller's file in the folder the shipped repo_status's git
#: reads code from (`test_an_operand_writer_is_refused_beside_a_reader`).
REFUSED_ACROSS = {
    "007-file-secret-inside-project.yaml": "a relative {file:} secret, search_text's path",
    "044-uniq-second-operand.yaml": "uniq IN OUT writes .git/config",
    "046-dd-of-operand.yaml": 'dd of="$ARG_path" writes .git/config',
}
#: The shipped export each is served with in the gate's test.
_BESIDE = {
    "007-file-secret-inside-project.yaml": "search_text.yaml",
    "044-uniq-second-operand.yaml": "repo_status.yaml",
    "046-dd-of-operand.yaml": "repo_status.yaml",
}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "021-errors-by-hour.yaml": "H003 H004: an array run as the command",
    "027-log-lines-range.yaml": "H006: the line numbers sed's = prints, read back",
    "062-gitlab-release-notes.yaml": "H010: wget follows redirects with the token (on purpose: "
    "--max-redirect=0)",
    "103-pg-named-report.yaml": "H004 H012: an SQL file named by the caller, psql --output",
    "108-inspect-sqlite-upload.yaml": "H012: sqlite3 on the caller's database",
    "117-coverage-summary.yaml": "H006: a number arg (a fraction) in arithmetic",
    "140-semver-compare.yaml": "H005 H012: the author's node program, import() in it",
    "120-bundle-recent-logs.yaml": (
        "H009: tar --files-from: its list is in a place a step may write"
    ),
    "130-ssh-key-check.yaml": "H012: `ssh-keygen` (no grammar) gets a path a step may write",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 58, ACCEPTED_INERT, REFUSED_ACROSS, REFUSED_SAFE)


@pytest.mark.parametrize("name", sorted(REFUSED_ACROSS))
def test_refused_beside_a_shipped_export(name: str, tmp_path: Path) -> None:
    """Served with a shipped export, the gate refuses the attack: its
    caller file would be ambient in repo_status's calls, or search_text's
    caller may name its secret's file."""
    beside = _BESIDE[name]
    shutil.copy(HERE / "attacks" / name, tmp_path / name)
    shutil.copy(SHIPPED / beside, tmp_path / beside)
    checked = load_and_check([tmp_path])
    assert len(checked.refused) == 1, [r.name for r in checked.refused]
    assert [e.path.name for e in checked.accepted] == [beside]
