"""Blind round fifty-one (issue 34): 18 attacks in 10 classes and 100 safe
templates in 10 new domains, written from the docs alone
(tests/check/blind34r51/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r51"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 18, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "078-vfx-exr-header.yaml": "H012: a program file of the export (vfx/tools/exrhead.py) "
    "gets a caller's path, and no programs: entry describes it",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
