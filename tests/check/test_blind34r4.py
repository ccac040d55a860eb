"""Round four of the blind set (tests/check/blind34r4/, written from README
and docs/ alone after round three's fixes, committed before it was scored),
no longer held out since its first score (blind34r4/SCORE.md).

The checker's verdicts: every attack is refused but those shown not to run
(run here through the real runtime) and the listed misses (issue 34 stays
open for them); the safe templates refused are exactly the listed ones.
"""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r4"

#: Accepted attacks the real runtime stops (its sandbox: home and the
#: folders outside the run directory are not the step's to write).
ACCEPTED_INERT = {
    "042-object-tar-list.yaml",
    "073-jq-filter-library.yaml",
    "091-debug-headers-od.yaml",
}
#: Accepted attacks that still succeed: the gaps left, and why.
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {
    "012-git-last-change.yaml": (
        "unloadable: tests/check/blind34r4/safe/012-git-last-change.yaml:9: "
        "steps[0].argv[2]: Input should be a valid string (got -1)"
    ),
    "076-bash-syntax-check.yaml": (
        "H003: arg 'script': the value is the script file the shell runs (or one of its"
        " options) [H003 caller-chooses-command]"
    ),
}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 60, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
