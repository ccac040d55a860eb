"""Blind round thirty-five (issue 34): 24 attacks in 7 classes aimed at the
readings added after round thirty-two (a step's env: naming a writable
place, relative search paths, psql's literals, jq's errors joined), written
from the docs alone (tests/check/blind34r35/README.md), and 150 safe
templates in new domains (safe-README.md), each committed before scoring
and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r35"


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 24, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "048-sysctl_values.yaml": "H006: [[ -v want[$k] ]] evaluates the subscript again",
    "072-export_layer.yaml": "H012: ogr2ogr has no grammar",
    "091-canvas_course_roster.yaml": "H010: a paging URL from the answer beside the secret",
    "103-statuspage_post_update.yaml": "H010: a paging URL from the answer beside the secret",
    "113-sphinx_build.yaml": "H012: sphinx-build in a folder a step may write",
    "114-docs_link_check.yaml": "H012: python3 in a folder a step may write",
    "123-grype_sbom.yaml": "unloadable: --only-fixed both a flag and an option",
    "063-soda_scan.yaml": "H012: `soda` (no grammar) gets a path a step may write",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
