"""Blind round seventeen (issue 34): 40 attacks in 9 classes and 150 safe
templates written from the docs alone (tests/check/blind34r17/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r17"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still run their payload or leak the secret: none.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "051-wget-artifact-checksum.yaml": "H010: wget follows redirects with the token (on purpose: "
    "--max-redirect=0)",
    "089-disk-usage-report.yaml": "H006: df's output in arithmetic",
    "099-gpg-verify-release.yaml": "H012: gpg has no grammar",
    "142-featurectl-toggle.yaml": "H004: the in-house tool's programs: entry says not what "
    "it writes (output_options)",
    "116-build-docs-site.yaml": "H012: `build` (no grammar) gets a path a step may write",
    "126-cargo-test.yaml": "H012: `cargo` (no grammar) gets a path a step may write",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 40, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
