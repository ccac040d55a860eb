"""Blind round thirty-four (issue 34): 25 attacks in 8 classes aimed at the
precision readings added after round thirty-two (JSON texts in arithmetic,
jq constructors, git's readers, extglob, curl's headers on a redirect),
written from the docs alone (tests/check/blind34r34/README.md), committed
before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r34"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 25, inert=(), misses=())
