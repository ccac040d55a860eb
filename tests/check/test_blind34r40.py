"""Blind round forty (issue 34): 25 attacks in 13 classes, 17 aimed at
round thirty-nine's place rule, written from the docs alone
(tests/check/blind34r40/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r40"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 25, inert=(), misses=())
