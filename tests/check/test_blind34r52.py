"""Blind round fifty-two (issue 34): 16 attacks in 8 classes and 100 safe
templates in 10 new domains, written from the docs alone
(tests/check/blind34r52/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r52"

#: Accepted and safe now: an author's Makefile recipe that reads the claimed
#: identity gets nothing of it, since the runtime no longer exports the
#: claims (tests/test_caller_not_ambient.py holds that).
INERT = {"013-make_report_claim.yaml", "014-make_audit_tenant.yaml"}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 16, inert=INERT, misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "023-rental-service-due.yaml": "H006: a field of awk's printf output, read back and "
    "used in arithmetic (the checker does not read that awk prints a number there)",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
