"""Blind round forty-six (issue 34): 13 attacks in 11 classes away from the
rounds' places and expansions, written from the docs alone
(tests/check/blind34r46/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r46"

#: Open: a caller's path read by a program (`git diff A B` turns --no-index
#: on its own when one is outside the repository) prints another export's
#: secret file; only the sandbox keeps it from being read (issue 35, as
#: round thirty's sibling-secret misses). Inert in the real runtime here.
MISSES = {"001-diff_refs.yaml"}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 13, inert=(), misses=MISSES)
