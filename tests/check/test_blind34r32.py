"""Blind round thirty-two (issue 34): 15 attacks in 10 classes aimed at
round thirty-one's readings (regex guards, where a cd moves, IFS, jq counts
and an array's items), written from the docs alone
(tests/check/blind34r32/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r32"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 15, inert=(), misses=())
