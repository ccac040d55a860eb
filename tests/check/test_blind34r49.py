"""Blind round forty-nine (issue 34): 11 attacks, 9 aimed at rounds
forty-four to forty-eight, written from the docs alone
(tests/check/blind34r49/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

import shutil
from pathlib import Path

from mcp_harbor.check import load_and_check
from tests.check._blind import assert_attacks_refused, verdicts

HERE = Path(__file__).parent / "blind34r49"

#: Accepted alone, inert: each only stores the caller's text (a database
#: row, a file of the working folder); the exports that would run it
#: (attacks/then/) are refused, or, served beside it, make it refused.
INERT = {
    "005-queue-reindex.yaml",
    "008-upload-team-git-settings.yaml",
    "009-upload-hook-settings.yaml",
}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 11, inert=INERT, misses=())


def test_the_readers_are_refused() -> None:
    found = verdicts(HERE / "attacks" / "then")
    assert found["run_maintenance.yaml"] == "refused"  # \gexec of the rows 005 fills
    assert found["repo_status.yaml"] == "refused"


def test_a_writer_beside_its_reader_is_refused(tmp_path: Path) -> None:
    """009 puts the caller's file in the working folder, which
    then/hooks_status.yaml copies into its run directory as git's config:
    served together, the writer is refused (`Checker.ambient_findings`)."""
    for source in (
        next((HERE / "attacks").glob("009-*.yaml")),
        HERE / "attacks" / "then" / "hooks_status.yaml",
    ):
        shutil.copy(source, tmp_path / source.name)
    reports = {r.name: r.status for r in load_and_check([tmp_path]).reports}
    assert reports["upload_hook_settings"] == "refused"
