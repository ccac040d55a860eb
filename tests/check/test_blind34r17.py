"""Blind round seventeen (issue 34): 40 attacks in 9 classes written from the
docs alone (tests/check/blind34r17/README.md), committed before scoring and
scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r17"


def test_attacks_are_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 40, (), ())
