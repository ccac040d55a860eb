"""Round three of the blind set (tests/check/blind34r3/, written from docs/
alone after round two's fixes, committed before it was scored), no longer
held out since its first score (blind34r3/SCORE.md).

The checker's verdicts: every attack is refused but those shown not to run
(run here through the real runtime) and the listed misses (issue 34 stays
open for them); the safe templates refused are exactly the listed ones.
"""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r3"

#: Accepted attacks whose payload the runtime stops (the secrets of a run:
#: step are not exported; a step output named EXIT is data).
ACCEPTED_INERT = {
    "096-labels-exit-arith.yaml",
    "097-title-newline-exit-dbl-bracket.yaml",
}
#: Accepted attacks that still succeed: none (the secret leaks that were scored
#: inert until the scorer planted the secret fall to H010's credential places).
KNOWN_MISSES: dict[str, str] = {}
#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {
    "166-programs-ticket-comment.yaml": (
        "H010: the in-house ticketctl gets the token in its environment, and no "
        "grammar and no programs: of the secret names it"
    ),
    "019-git-diff-file-between.yaml": "unloadable [ConfigError]",
    "090-tar-compare-sizes.yaml": "refused [H003, H004, H006]",
    "101-python-sqlite-query.yaml": (
        "H012: `python3` reads code from the folder it works in (its config, hooks or "
        "modules), and that folder may have been written by a step [H012 no-grammar-"
        "position"
    ),
    "112-du-by-extension.yaml": "refused [H000, H006, H007]",
    "133-multistep-build-then-test.yaml": "refused [H012]",
    "155-loop-multiline-hosts.yaml": "refused [H009]",
}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 124, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
