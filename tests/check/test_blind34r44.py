"""Blind round forty-four (issue 34): 20 attacks in 17 classes and 100 safe
templates in 16 new domains, written from the docs alone
(tests/check/blind34r44/README.md, safe-README.md), each committed before
scoring and scored once: see SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r44"


def test_every_attack_is_refused() -> None:
    # attacks/then/ holds two follow-up exports that only print a file
    # (accepted: benign alone); the attacks that would fill it are refused
    assert_attacks_refused(HERE / "attacks", 20, inert=(), misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "001-firmware-size-budget.yaml": "H006: fields `read` takes from size's output, in "
    "arithmetic (no per-field model of a program's output)",
    "008-game-texture-budget.yaml": "H006: find -printf '%s\\t%p' read into size and path, "
    "size in arithmetic (no per-field model)",
    "024-shop-discount-usage.yaml": "H010: curl -D's headers file of a command that got the "
    "secret is taken to hold it",
    "075-notebook-search.yaml": "H009 H005: find's paths (file names) may start with - for jq, "
    "and stand in a sed program",
    "076-notebook-run-report.yaml": "H012: papermill's operands (the author's programs: entry "
    "names no operand as data)",
    "089-signing-key-expiry.yaml": "H012: gpg (no grammar) gets a globbed file name and may "
    "write, so the run directory is the caller's; --homedir there",
    "097-firmware-crash-triage.yaml": "H006 H012: a hex address in arithmetic; nm in a folder "
    "an agent's tool may write",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
