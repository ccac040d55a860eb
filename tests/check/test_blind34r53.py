"""Blind round fifty-three (issue 34): 17 attacks in 8 classes and 100 safe
templates in 10 new domains, written from the docs alone
(tests/check/blind34r53/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r53"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 17, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "005-winery-harvest-summary.yaml": "H006: a field of awk's printf output, read back and "
    "used in arithmetic (the checker does not read that awk prints a number there)",
    "009-winery-lab-export.yaml": "H012: jq -r's items in an SQL literal of sqlite3 (what "
    "jq prints is not shown to hold no quote)",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
