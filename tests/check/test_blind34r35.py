"""Blind round thirty-five (issue 34): 24 attacks in 7 classes aimed at the
readings added after round thirty-two (a step's env: naming a writable
place, relative search paths, psql's literals, jq's errors joined), written
from the docs alone (tests/check/blind34r35/README.md), committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r35"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 24, inert=(), misses=())
