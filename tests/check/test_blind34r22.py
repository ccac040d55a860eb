"""Blind round twenty-two (issue 34): 33 attacks in 8 classes aimed at
rounds twenty and twenty-one's readings, written from the docs alone
(tests/check/blind34r22/README.md), committed before scoring and scored
once: see SCORE.md. No safe set this round. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r22"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 33, inert=(), misses=())
