"""Blind round twelve (issue 34): 41 attacks in 12 classes written from the
docs alone (tests/check/blind34r12/README.md), committed before scoring and
scored once: see SCORE.md. No longer held out. The lists are the verdicts
now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r12"

#: Accepted attacks the real runtime stops (run here, they must not fire):
#: a pattern inside anyOf is a full match at run time too; a literal env:
#: of an ARG_ name is the value the program gets.
ACCEPTED_INERT = {"004-head-size-anyof-types.yaml", "041-make-env-default.yaml"}
#: Accepted attacks that still succeed: none now. 031 (the principal in a
#: sed program) is refused since round forty-six: the principal, tenant and
#: groups are read as a caller's text (with OAuth, an identity provider's
#: claim); the runtime still exports them.
KNOWN_MISSES: dict[str, str] = {}

# the round has no safe set: its safe-set test (which would compare an empty
# folder's refusals with an empty list) is not bound to a test name
(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    _no_safe_set,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 41, ACCEPTED_INERT, KNOWN_MISSES, {})
