"""Blind round thirty-nine (issue 34): 25 attacks in 11 classes aimed at
round thirty-eight's readings and at classes no note names, and 150 safe
templates in 20 new domains, written from the docs alone
(tests/check/blind34r39/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r39"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 25, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "013-fastq-read-stats.yaml": "H003: an array in command position holds a number",
    "047-munki-manifest.yaml": "H005 H012: python3 imports plistlib, in a writable folder",
    "071-rdap-domain.yaml": "H012: a URL variable set in three places (case)",
    "083-po-merge-preview.yaml": "H012: msgmerge has no grammar, given the caller's file",
    "097-rerun-single-test.yaml": "H012: the caller names the pytest file that runs",
    "130-harbor-project-quota.yaml": "unloadable: a secret named HARBOR_* (reserved)",
    "131-image-vuln-summary.yaml": "unloadable: a secret named HARBOR_* (reserved)",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
