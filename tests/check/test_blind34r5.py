"""Round five of the blind set (tests/check/blind34r5/, written from README
and docs/ alone after round four's fixes, committed before it was scored),
no longer held out since its first score (blind34r5/SCORE.md).

The checker's verdicts: every attack is refused but those shown not to run
(run here through the real runtime) and the listed misses (issue 34 stays
open for them); the safe templates refused are exactly the listed ones.
"""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r5"

#: Accepted attacks the real runtime stops: none is accepted any more (the
#: secret attacks fall to H010's credential places since issue 34 section 5).
ACCEPTED_INERT: set[str] = set()
#: Accepted attacks that still succeed: none.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 51, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
