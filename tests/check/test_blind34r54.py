"""Blind round fifty-four (issue 34): 18 attacks in 8 classes and 80 safe
templates in 8 new domains, written from the docs alone
(tests/check/blind34r54/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r54"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 18, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "006-registrar-grade-change.yaml": "H006: a caller's value read in arithmetic",
    "010-registrar-advising-assistant.yaml": "H004: sqlite3's database in a working folder a "
    "custom tool's sqlite3 may write",
    "021-golf-tee-sheet.yaml": "H005: an awk program that pipes to a command gets caller data",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
