"""Blind round thirty-seven (issue 34): 19 attacks in 9 classes aimed at
rounds thirty-five and thirty-six's readings, written from the docs alone
(tests/check/blind34r37/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r37"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 19, inert=(), misses=())
