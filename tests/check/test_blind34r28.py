"""Blind round twenty-eight (issue 34): 40 attacks in 16 classes aimed at
the readings of rounds nineteen to twenty-seven, and 150 safe templates in
domains the earlier sets barely touched, written from the docs alone
(tests/check/blind34r28/README.md, safe-README.md), committed before
scoring and scored once: see SCORE.md. No longer held out. The lists are
the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r28"

#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "038-dpkg-file-owner.yaml": "H000: tree-sitter cannot parse ${real:+ (text)}",
    "041-apt-reverse-deps.yaml": "H006 H009: apt-cache's output in arithmetic and as an operand",
    "063-nats-consumer-lag.yaml": "H009 H006: nats's options, a count from its output",
    "102-bigquery-param-query.yaml": "H000 H009: tree-sitter cannot parse the SQL here-string; "
    "bq has no grammar",
    "119-msgfmt-locale-stats.yaml": "H012 H006: msgfmt has no grammar; names read again in a "
    "pipeline's loop",
    "123-locale-coverage-table.yaml": "H006: names read again in a pipeline's loop (its "
    "subshell's, not followed)",
    "134-budget-vs-actual.yaml": "H006: what a function's awk prints (%d), in arithmetic",
    "120-untranslated-strings.yaml": (
        "H012: `msgattrib` (no grammar) gets a path a step may write"
    ),
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 40, (), (), REFUSED_SAFE)
