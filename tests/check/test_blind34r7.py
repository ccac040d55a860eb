"""Blind round seven (issue 34): 61 attacks on this session's new rules,
written from the docs alone (tests/check/blind34r7/README.md), committed
before scoring and scored once: see blind34r7/SCORE.md. No longer held out.
Every attack is refused now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r7"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 61, inert=(), misses=())
