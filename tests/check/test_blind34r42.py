"""Blind round forty-two (issue 34): 18 attacks in 9 classes, 10 aimed at
rounds thirty-nine to forty-one's place rules, written from the docs alone
in 30 minutes (tests/check/blind34r42/README.md), committed before scoring
and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r42"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 18, inert=(), misses=())
