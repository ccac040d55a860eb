"""Blind round fourteen (issue 34): 60 attacks in 13 classes and 160 safe
templates written from the docs alone (tests/check/blind34r14/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r14"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still run their payload or leak the secret: none.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "011-next-version.yaml": "H000: tree-sitter-bash cannot parse the case pattern [a-z]*'!:'*",
    "146-feature-toggle.yaml": "H004: a described program with caller data may write the "
    "working folder, where it is run from",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 60, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
