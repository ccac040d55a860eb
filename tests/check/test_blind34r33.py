"""Blind round thirty-three (issue 34): 30 attacks in 16 classes aimed at
round thirty-two's readings and at bash's own settings (a step's ``env:``
giving SHELLOPTS/BASHOPTS/CDPATH, extglob, a ``.curlrc`` the script writes,
git following a redirect with a header), written from the docs alone
(tests/check/blind34r33/README.md), committed before scoring and scored
once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

HERE = Path(__file__).parent / "blind34r33"

#: Accepted, and shown not to run: the runtime reads no output key that ends
#: in ``_EXIT`` (``unit_EXIT`` of step ``test`` would be ``STEP_test_unit_EXIT``,
#: step ``test_unit``'s exit code), so the variable stays the runtime's.
INERT = ("006-step-output-shadows-exit.yaml",)


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 30, inert=INERT, misses=())
