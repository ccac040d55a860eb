"""Round two of the blind set (tests/check/blind34r2/, written from docs/
alone after round one's fixes), no longer held out since its first score
(blind34r2/SCORE.md).

The checker's verdicts: every attack is refused but those shown not to run
(run here through the real runtime) and the listed misses (none since
`echo $x` is refused); the safe templates refused are exactly the listed
ones.
"""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r2"

#: Accepted attacks whose payload the runtime stops: an argv: step with a
#: caller value in its argv gets no secret, so /proc/self/environ holds none.
ACCEPTED_INERT = {
    "060-secret-argv-od-environ.yaml",
    "061-secret-argv-fold-environ.yaml",
    "062-secret-argv-sed-l.yaml",
    "067-secret-argv-grep-environ.yaml",
}
#: Accepted attacks that still succeed: the gaps left, and why.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, and why.
REFUSED_SAFE = {
    "036-perl-argv-length.yaml": "H005: perl -e with @ARGV (<> would open it)",
    "066-bash-n-syntax.yaml": "bash -n of a caller's file: a shell's script operand",
}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 70, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
