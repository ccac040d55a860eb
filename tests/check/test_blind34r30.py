"""Blind round thirty (issue 34): 25 attacks in 9 classes and 150 safe
templates, written from the docs alone (tests/check/blind34r30/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out.

Four attacks (017–020) read another export's ``secrets: {file: …}`` through
a caller's path without ``within:``: the checker warns (W103) and leaves
which files a step may read to the sandbox, which issue 35 closes ("reads
no one's secrets"); they are listed as misses until it lands."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r30"

#: Accepted: another export's secret file read through a caller's path
#: (issue 35's sandbox; W103 here). Inert in the scorer (no such file).
MISSES = {
    "017-sibling-secret-file-tail.yaml",
    "018-sibling-secret-file-base64.yaml",
    "019-sibling-secret-file-jq-raw.yaml",
    "020-sibling-secret-file-grep.yaml",
}


def test_every_attack_is_refused_but_the_sandboxs() -> None:
    assert_attacks_refused(HERE / "attacks", 25, inert=(), misses=MISSES)


#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "017-gx-validation-results.yaml": "H009: a path ls printed (a name may start with -)",
    "021-trino-table-stats.yaml": "H012: trino has no grammar",
    "052-intune-noncompliant-summary.yaml": "H012: a URL from the API's answer (nextLink)",
    "103-jvm-system-property.yaml": "H012: jps and jcmd have no grammar",
    "132-xz-archive-info.yaml": "H005 H012: zstd has no grammar; a sed program from its output",
    "029-mvn-dependency-tree.yaml": "H012: `mvn` (no grammar) gets a path a step may write",
    "135-lighthouse-page-scores.yaml": (
        "H012: `lighthouse` (no grammar) gets a path a step may write"
    ),
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
