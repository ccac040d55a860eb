"""Blind round ten (issue 34): 67 attacks in 16 classes written from the docs
alone (tests/check/blind34r10/README.md), committed before scoring and
scored once: see SCORE.md. No longer held out. The lists are the verdicts
now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r10"


def test_attacks_are_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 67, (), ())
