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

#: Accepted attacks the real runtime stops: a run: step's secrets are shell
#: variables, not exported, so envsubst, jq, awk and python find none in
#: their environment, and an argv: step with caller data gets no secret.
ACCEPTED_INERT = {
    "040-envsubst-grep-o.yaml",
    "041-jq-request-fold.yaml",
    "044-awk-chunks.yaml",
}
#: Accepted attacks that still succeed (the secret leaks were scored as inert until
#: the scorer planted the secret in the variables their `secrets:` read): the gaps left, and why.
KNOWN_MISSES: dict[str, str] = {
    "042-format-map-notify.yaml": (
        "python's str.format_map over os.environ, which holds the secret, with "
        "the caller's template (issue 34 section 5 is not done)"
    ),
    "043-hex-view-config.yaml": (
        "a file holding the secret printed as hex (xxd -p) in the view the "
        "caller picks (issue 34 section 5 is not done)"
    ),
    "051-argv-context-template.yaml": (
        "an argv: step gets the secrets in its environment and reads the "
        "caller's template from $HARBOR_CONTEXT (issue 34 section 5 is not done)"
    ),
}
#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 51, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
