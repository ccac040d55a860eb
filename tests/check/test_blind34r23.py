"""Blind round twenty-three (issue 34): 31 attacks in 10 classes aimed at
the readings of rounds twenty to twenty-two, written from the docs alone
(tests/check/blind34r23/README.md), committed before scoring and scored
once: see SCORE.md. No safe set this round. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r23"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 31, inert=(), misses=())
