"""Blind round forty-five (issue 34): 15 attacks, 10 aimed at round
forty-four's run-directory rule, 3 at PS4, 2 at bash's quoting read by
another shell, written from the docs alone (tests/check/blind34r45/README.md),
committed before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, verdicts

HERE = Path(__file__).parent / "blind34r45"

#: Accepted alone: it only saves the caller's file in the working folder;
#: the export that copies it into its run directory and sources it
#: (attacks/then/) is refused, and beside a reader the writer is refused.
INERT = {"006-r45_upload_env.yaml"}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 15, inert=INERT, misses=())


def test_the_reader_of_the_saved_file_is_refused() -> None:
    assert set(verdicts(HERE / "attacks" / "then").values()) == {"refused"}
