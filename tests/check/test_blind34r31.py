"""Blind round thirty-one (issue 34): 23 attacks in 8 classes aimed at round
thirty's readings (regex guards and their fallbacks, if conditions, IFS set
without `IFS=`, names in arithmetic, name references), written from the docs
alone (tests/check/blind34r31/README.md), committed before scoring and
scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r31"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 23, inert=(), misses=())
