"""Blind round forty-three (issue 34): 10 attacks in 5 classes, written
from the docs alone in 20 minutes (tests/check/blind34r43/README.md),
committed before scoring and scored once: see SCORE.md. No longer held
out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r43"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 10, inert=(), misses=())
