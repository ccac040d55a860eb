"""Blind round thirty-six (issue 34): 30 attacks in 18 classes, half aimed at
the readings added after round thirty-two, half at classes no note names,
written from the docs alone (tests/check/blind34r36/README.md), committed
before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r36"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 30, inert=(), misses=())
