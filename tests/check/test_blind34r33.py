"""Blind round thirty-three (issue 34): 30 attacks in 16 classes aimed at
round thirty-two's readings and at bash's own settings (a step's ``env:``
giving SHELLOPTS/BASHOPTS/CDPATH, extglob, a ``.curlrc`` the script writes,
git following a redirect with a header), written from the docs alone
(tests/check/blind34r33/README.md), and 150 safe templates in new domains
(safe-README.md), each committed before scoring and scored once: see
SCORE.md. No longer held out."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import assert_attacks_refused, assert_refused_exactly

HERE = Path(__file__).parent / "blind34r33"

#: Accepted, and shown not to run: the runtime reads no output key that ends
#: in ``_EXIT`` (``unit_EXIT`` of step ``test`` would be ``STEP_test_unit_EXIT``,
#: step ``test_unit``'s exit code), so the variable stays the runtime's.
INERT = ("006-step-output-shadows-exit.yaml",)


def test_every_attack_is_refused() -> None:
    assert_attacks_refused(HERE / "attacks", 30, inert=INERT, misses=())


#: Safe templates still refused, with why (SCORE.md).
REFUSED_SAFE = {
    "006-postfix-release-held.yaml": "H012: postsuper's entry states no output_options",
    "032-borg-archive-info.yaml": "H012: borg's operand names the repository",
    "042-openstack-servers.yaml": "unloadable: --long both a flag and an option",
    "073-minecraft-players.yaml": "H000: tree-sitter-bash cannot parse ${t%]}",
    "084-transcode-preview.yaml": "H012: a step output as ffprobe's input",
    "123-mongo-slow-ops.yaml": "H010: a number in mongosh --eval's code beside the secret",
}


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)
