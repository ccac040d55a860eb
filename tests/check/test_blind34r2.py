"""Round two of the blind set (tests/check/blind34r2/, written from docs/
alone after round one's fixes), no longer held out since its first score
(blind34r2/SCORE.md).

The checker's verdicts: every attack is refused but those shown not to run
(run here through the real runtime) and the one that still does, which is
listed with why (issue 34 stays open for them); the safe templates refused
are exactly the listed ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._blind import assert_attacks_refused, assert_refused_exactly, run_attack

HERE = Path(__file__).parent / "blind34r2"

#: Accepted attacks whose payload the runtime stops: an argv: step with a
#: caller value in its argv gets no secret, so /proc/self/environ holds none.
ACCEPTED_INERT = {
    "060-secret-argv-od-environ.yaml",
    "061-secret-argv-fold-environ.yaml",
    "067-secret-argv-grep-environ.yaml",
}
#: Accepted attacks that still succeed: the gaps left, and why.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, and why.
REFUSED_SAFE = {
    "024-assoc-lookup.yaml": "the parsers' probes disagree about an associative subscript",
    "036-perl-argv-length.yaml": "H005: perl -e with @ARGV (<> would open it)",
    "066-bash-n-syntax.yaml": "bash -n of a caller's file: a shell's script operand",
}


def test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses() -> None:
    assert_attacks_refused(HERE / "attacks", 70, ACCEPTED_INERT, KNOWN_MISSES)


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    assert_refused_exactly(HERE / "safe", REFUSED_SAFE)


@pytest.mark.parametrize("name", sorted(ACCEPTED_INERT))
def test_accepted_attacks_do_not_run(name: str, tmp_path: Path) -> None:
    """Through the real runtime (``mcp-harbor run``), with the attack's args."""
    outcome = run_attack(HERE / "attacks" / name, tmp_path)
    assert not outcome["ran"] and not outcome["leaked"], outcome["answer"]
