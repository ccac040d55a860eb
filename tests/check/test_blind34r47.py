"""Blind round forty-seven (issue 34): 15 attacks, 11 aimed at rounds
forty-four to forty-six (tests/check/blind34r47/README.md), and 100 safe
templates (safe-README.md), written from the docs alone, each committed
before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, verdicts

HERE = Path(__file__).parent / "blind34r47"

#: Accepted alone, inert: each only saves the caller's text in the working
#: folder or /srv; the exports that would read it (attacks/then/) are
#: refused. 015 calls the application's own SQL function, which runs its
#: argument: the author's code on the database, not the checker's to read.
INERT = {
    "009-other-export-folder-tar-piped-into-run-dir.yaml",
    "010-other-export-folder-linked-into-run-dir.yaml",
    "011-shared-srv-folder-copied-into-run-dir.yaml",
    "015-psql-app-function-executes-literal.yaml",
}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 15, inert=INERT, misses=())


def test_the_readers_of_the_saved_files_are_refused() -> None:
    assert set(verdicts(HERE / "attacks" / "then").values()) == {"refused"}
