"""Blind round eight (issue 34, section 5): 40 safe templates that use
`secrets:`, written from the docs alone (tests/check/blind34r8/README.md),
committed before scoring and scored once: see blind34r8/SCORE.md. No longer
held out. The list is the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_refused_exactly

HERE = Path(__file__).parent / "blind34r8"

#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {
    "012-gcloud-run-services.yaml": "H012",
    "029-publish-release-notes.yaml": "H010: beside a secret a number is the caller's, and "
    "curl -T's value is code (the file it sends)",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
