"""Blind round thirty (issue 34): 25 attacks in 9 classes, written from the
docs alone (tests/check/blind34r30/README.md), committed before scoring and
scored once: see SCORE.md. No longer held out.

Four attacks (017–020) read another export's ``secrets: {file: …}`` through
a caller's path without ``within:``: the checker warns (W103) and leaves
which files a step may read to the sandbox, which issue 35 closes ("reads
no one's secrets"); they are listed as misses until it lands."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused

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
