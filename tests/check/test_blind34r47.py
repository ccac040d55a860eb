"""Blind round forty-seven (issue 34): 15 attacks, 11 aimed at rounds
forty-four to forty-six (tests/check/blind34r47/README.md), and 100 safe
templates (safe-README.md), written from the docs alone, each committed
before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly, verdicts

HERE = Path(__file__).parent / "blind34r47"

#: Accepted alone, inert: each only saves the caller's text in the working
#: folder; the exports that would read it (attacks/then/) are refused. 015
#: calls the application's own SQL function, which runs its argument: the
#: author's code on the database, not the checker's to read. (011, which
#: saved it in /srv, is refused now: a folder no run owns.)
INERT = {
    "009-other-export-folder-tar-piped-into-run-dir.yaml",
    "010-other-export-folder-linked-into-run-dir.yaml",
    "015-psql-app-function-executes-literal.yaml",
}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 15, inert=INERT, misses=())


def test_the_readers_of_the_saved_files_are_refused() -> None:
    assert set(verdicts(HERE / "attacks" / "then").values()) == {"refused"}


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "052-listing-photo-check.yaml": "H006: a field `read` takes from a program's output, "
    "in arithmetic (no per-field model of the output)",
    "070-isf-upload.yaml": "H012: AZURE_CONFIG_DIR of the run directory, exported, while "
    "az (no grammar for what it writes) gets caller data in the same export",
    "092-lot-genealogy.yaml": "H005: python's execute() with SQL that is not a literal "
    "string (one of two literals chosen by a condition)",
    "095-line-oee.yaml": "H006: a field `read` takes from a program's output, in arithmetic",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
