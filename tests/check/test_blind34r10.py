"""Blind round ten (issue 34): 67 attacks in 16 classes and 125 safe
templates written from the docs alone (tests/check/blind34r10/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r10"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still run their payload or leak the secret: none.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "031-wget-artifact-checksum.yaml": "H010: wget follows redirects with the token (on "
    "purpose: --max-redirect=0)",
    "038-wget-mirror-docs.yaml": "H010: wget follows redirects with the token (on purpose: "
    "--max-redirect=0)",
    "051-docker-unhealthy.yaml": "H009: names read from a run-directory file docker wrote",
    "054-docker-build-target.yaml": "H009: a step output from a run-directory file (--iidfile)",
    "072-sqlite-integrity.yaml": "H004: sqlite3 opens a database in the run directory, where "
    "a step may have put the caller's (its views and triggers run; edit() runs a command)",
    "070-sqlite-orders-report.yaml": "H012: python's sqlite3.connect may create a file",
    "096-tar-logs-bundle.yaml": "H009: tar --files-from: its list is in a place a step may write",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 67, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
