"""Blind round twenty-nine (issue 34): 25 attacks in 7 classes aimed at
round twenty-eight's readings (curl configs, BASH_REMATCH groups, an
array's indexes, where a cd moves, echo's options, what read takes at the
end of a pipeline, a URL's head), written from the docs alone
(tests/check/blind34r29/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r29"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 25, inert=(), misses=())
