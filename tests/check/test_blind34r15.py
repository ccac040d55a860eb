"""Blind round fifteen (issue 34): 50 attacks in 10 classes and 150 safe
templates written from the docs alone (tests/check/blind34r15/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r15"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still run their payload or leak the secret: none.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "118-modelctl-promote.yaml": (
        "H004: the principal (a claim under OAuth, round forty-six) reaches modelctl, "
        "whose programs: entry names no output_options, so it may write the working "
        "folder its ./tools/modelctl is in"
    ),
    "084-wiki-page-search.yaml": "H010: wget follows redirects with the token (on purpose: "
    "--max-redirect=0)",
    "076-grafana-annotation.yaml": "H000: tree-sitter reads ${x:-$(( … ))} as a subshell",
    "030-archive-old-logs.yaml": (
        "H009: tar --files-from: its list is in a place a step may write"
    ),
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 50, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
