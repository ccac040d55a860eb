"""Blind round fifty (issue 34): 12 attacks in 7 classes and 60 safe
templates in 10 new domains, written from the docs alone
(tests/check/blind34r50/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r50"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 12, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "008-mro-hours.yaml": "H012: a program file of the export (mro/tools/hours.py) gets "
    "caller data, and no programs: entry describes it",
    "009-mro-logbook-search.yaml": "H005: a caller's number inside a sed program",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
