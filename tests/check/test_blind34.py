"""The blind set of issue 34 (tests/check/blind34/, written from docs/
alone), no longer held out since its first score (blind34/SCORE.md).

The checker's verdicts, fast: every attack is refused but those shown not
to run (their payload reads what the runtime no longer exports), and the
safe templates refused are exactly the ones listed here, each with why (so a
regression, or a new false refusal, fails). Every accepted attack is
also run through the real runtime (`test_accepted_attacks_do_not_run`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.check._blind import verdicts as blind_verdicts

HERE = Path(__file__).parent / "blind34"

#: Attacks the checker accepts: their payload needs a value in a child's
#: environment, which the runtime no longer puts there (rule 1 and 5).
ACCEPTED_INERT = {
    "111-awk-spell-out-token.yaml": "awk reads ENVIRON; a run: step's secret is not exported",
    "114-python-join-chars.yaml": "python reads os.environ; a run: step's secret is not exported",
}
#: Safe templates refused, and why.
REFUSED_SAFE = {
    "173-deploy-script.yaml": (
        "H004 H012: the principal (a claim under OAuth, round forty-six) is appended to "
        "deploys.log in the working folder, which git and ./scripts/deploy.sh read from"
    ),
    "028-zcat-grep.yaml": "a file name (a step may have made it) inside a sed program",
    "052-git-commit-note.yaml": (
        "a step may put caller data in the working folder (H012 cwd rule), and git "
        "reads .git/config there"
    ),
    "058-git-count-since.yaml": "H006: 10#$patch, patch from the caller's tag (BASH_REMATCH)",
    "115-cwd-step.yaml": "jest has no grammar",
    "144-step-status-chain.yaml": "tree-sitter-bash cannot parse a /dev/tcp redirection in ( )",
    "161-trap-echo-ref.yaml": (
        "manage.py is a program of its own (a programs: entry describes it)"
    ),
}


def test_every_attack_is_refused_but_the_inert_ones() -> None:
    verdicts = blind_verdicts(HERE / "attacks")
    assert len(verdicts) >= 100
    accepted = {name for name, status in verdicts.items() if status == "accepted"}
    assert accepted <= set(ACCEPTED_INERT), sorted(accepted - set(ACCEPTED_INERT))


def test_the_safe_templates_refused_are_the_listed_ones() -> None:
    verdicts = blind_verdicts(HERE / "safe")
    assert len(verdicts) >= 150
    refused = {name for name, status in verdicts.items() if status != "accepted"}
    assert refused == set(REFUSED_SAFE), (
        sorted(refused - set(REFUSED_SAFE)),
        sorted(set(REFUSED_SAFE) - refused),
    )


@pytest.mark.parametrize("name", sorted(ACCEPTED_INERT))
def test_accepted_attacks_do_not_run(name: str, tmp_path: Path) -> None:
    """Through the real runtime (``mcp-harbor run``, sandbox on, a HOME and
    XDG folders of its own), with the attack's arguments: no marker, no
    secret in anything the call left."""
    sys.path.insert(0, str(HERE))
    import score  # tests/check/blind34/score.py: the scorer the figures come from

    path = HERE / "attacks" / name
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    work = score._workdir(tmp_path)
    outcome = score._run_attack(path, meta["args"], tmp_path, work)
    assert not outcome["ran"] and not outcome["leaked"], outcome["answer"]
    assert "unavailable" not in outcome["answer"], outcome["answer"]
