"""Blind round twenty-seven (issue 34): 20 attacks in 8 classes aimed at
the readings of rounds twenty to twenty-six (programs shadowed by aliases,
hash, PATH and functions; counts; per-call words; guards; secrets' files),
written from the docs alone (tests/check/blind34r27/README.md), committed
before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r27"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 20, inert=(), misses=())
