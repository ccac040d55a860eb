"""Blind round sixteen (issue 34): 50 attacks in 11 classes by a generalist
red team and 150 safe templates across new domains, written from the docs
alone (tests/check/blind34r16/README.md, safe-README.md), committed before
scoring and scored once: see SCORE.md. No longer held out. The lists are
the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r16"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still run their payload or leak the secret: none.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "002-payments-latency-percentiles.yaml": "H005 H006: a function's $1 from a loop over "
    "numbers is not followed into arithmetic",
    "048-sqlite-online-backup.yaml": "H012: python3 in the working folder, which its own "
    "sqlite3 backup may write",
    "130-mkdocs-build.yaml": "H009: a step output before find's expression",
    "136-frontend-test-filter.yaml": "H012: caller data to the author's node script, "
    "which no programs: entry describes",
    "144-java-build-run.yaml": "H012: javac/java with a step output (a class path)",
    "141-go-test.yaml": "H012: `go` (no grammar) gets a path a step may write",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 50, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
