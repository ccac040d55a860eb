"""Blind round forty-one (issue 34): 25 attacks in 13 classes, 16 aimed at
rounds thirty-nine and forty's place rules, and 100 safe templates in 15
new domains, written from the docs alone (tests/check/blind34r41/README.md,
safe-README.md), each committed before scoring and scored once: see
SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly, verdicts

HERE = Path(__file__).parent / "blind34r41"

#: Accepted alone: it only copies the caller's file to /dev/shm; the export
#: that would read it as a secret (attacks/then/) is refused.
INERT = {"014-secret-file-in-place.yaml"}


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 25, inert=INERT, misses=())


def test_the_reader_of_a_secret_file_in_a_place_is_refused() -> None:
    assert set(verdicts(HERE / "attacks" / "then").values()) == {"refused"}


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "055-release-tag-create.yaml": "H012 H010: git in a folder a step may write; gh release",
    "065-lambda-concurrency-report.yaml": "H009: a function name that may start with -",
    "083-gcp-sa-keys.yaml": "H005 H012: gcloud in a folder a step may write; a sed program",
    "095-evidence-upload-drata.yaml": "H009: curl -F name=$VALUE reads a file when the value "
    "starts with @ or < (--form-string is the data form): a right refusal",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
