"""Blind round twenty-four (issue 34): 24 attacks in 7 classes on secrets
(files read back, copied, aliased or read through descriptors; dumps by
expanded name; a function's output through a hidden call; curl -L headers),
written from the docs alone (tests/check/blind34r24/README.md), committed
before scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r24"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 24, inert=(), misses=())
