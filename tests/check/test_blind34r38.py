"""Blind round thirty-eight (issue 34): 21 attacks in 11 classes aimed at
round thirty-seven's readings, written from the docs alone in 25 minutes
(tests/check/blind34r38/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r38"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 21, inert=(), misses=())
