"""Blind round twenty-five (issue 34): 27 attacks in 12 classes aimed at
the readings of rounds twenty to twenty-four, written from the docs alone
(tests/check/blind34r25/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r25"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 27, inert=(), misses=())
