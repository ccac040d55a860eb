"""Blind round six (issue 34): 108 attacks and 170 safe templates written from
the docs alone (tests/check/blind34r6/README.md, safe-README.md), committed
before scoring and scored once: see SCORE.md. No longer held out. The lists
are the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r6"

#: Accepted attacks the real runtime stops: none is accepted any more (the
#: agent-custom-tool ones, which the scorer could not run without a model,
#: fall to the working-folder rule across an export and its custom tools).
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still run their payload or leak the secret: none
#: (the thirteen secret leaks of the first score fall to H010's credential
#: places; the perl script's `<>` to its magic open).
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {
    "057-http-probe.yaml": "H012",
    "093-psql-table-sizes.yaml": "H000",
    "097-sqlite-table-counts.yaml": "H005 H012",
    "164-sqlite-backup-verify.yaml": "H004: sqlite3 opens a database in the run directory",
    "098-sqlite-team-report.yaml": "H005 H012",
    "127-inhouse-featurectl.yaml": "H008",
}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 108, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
