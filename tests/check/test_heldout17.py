"""Score on the issue-17 held-out templates (tests/check/heldout17.py).

The set was written without looking at how the checker treats its cases and
committed alone before it was scored. The contract: no dangerous template
accepted, at most 5% of safe templates refused.

Score at freeze (heldout17.py committed alone as 61e276b; checker at 673ce8a,
clean tree), 303 templates (211 safe, 92 dangerous): 89/92 dangerous refused,
3 dangerous accepted; 8/211 safe refused (3.8%, within the 5% budget).

Accepted dangerous (each run under bash 5.2 with an attack value; it ran):
- ``h17/d/xargs-split-options`` ``echo "$ARG_x" | xargs git log -n 1``: xargs
  re-splits the value, so "HEAD --output=FILE" gives git an option that
  overwrites FILE; only W105 (a warning) was reported.
- ``h17/d/written-script-executed``: printf writes the value into a file that
  is then chmod +x'd and run by path; "$(cmd)" runs. No finding.
- ``h17/d/heredoc-terminator-pattern``: a P value alone on a line of a quoted
  here-doc; "EOF" (P admits it) ends the here-doc and the next line's value
  becomes a command. No finding.

Refused safe (rule): git-c-enum-key (H008), git-commit-identity (H008: the -c
key is the author's, the caller only sets user.name/user.email),
docker-exec-fixed-program (H003: the caller picks the container, not the
program), perl-e-argv (H005: the program never reads <>, so no magic open),
journalctl-grep-dash (H009: -g takes its next word), case-guarded-script-dispatch
(H003: the case exits on anything but lint|test|build), eval-printf-q (H004: %q
makes the value one word), function-local-args (H009: the value reaches grep
as -e's value through the author's function). No label was changed after
scoring.

After scoring (the three misses and five of the refusals were fixed in the
checker, so from here on this set is no longer held out): 0/92 dangerous
accepted, 3/211 safe refused (1.4%): git-c-enum-key (a whole `-c` word whose
key is an enum of inert keys is not followed), docker-exec-fixed-program and
case-guarded-script-dispatch (the checker does not reason about a `case`
guard before the use).

Issue 34 (a program without a grammar gets only clean data; names and
outputs not proven clean are the caller's), on a set that is no longer held
out: 0/92 dangerous accepted; 19/211 safe refused (9.0 %), 10 of them by
design (`NO_GRAMMAR`), 9 others (4.3 %) then (10, 4.7 %, at round
fifty-three: docker-exec-fixed-program accepted since, and heredoc-int-raw,
where tree-sitter reads `$((…))` in a here-document as a subshell, and
retry-healthz, a number that may be negative given to sleep, refused):
git-c-enum-key, docker-exec-fixed-program and case-guarded-script-dispatch
as before;
sed-template-pattern (a pattern value in a sed program is not a number or
an enum); let-int (an arithmetic result may be negative);
printf-q-then-source (a file in the run directory is sourced); and three
runs of git in a folder a step may write (git-clone-shallow,
trap-cleanup-clone, argv-git-C-pattern: git reads that folder's config).
"""

from __future__ import annotations

from pathlib import Path

from mcp_harbor.check import check_exports
from mcp_harbor.config import load_export
from tests.check._harness import write
from tests.check.heldout17 import HELDOUT17


def _verdicts(folder: Path) -> list[tuple[str, bool, str]]:
    exports = [load_export(write(case, folder, i)) for i, case in enumerate(HELDOUT17)]
    reports = check_exports(exports)
    return [(c.id, c.dangerous, r.status) for c, r in zip(HELDOUT17, reports, strict=True)]


def test_heldout17_shape() -> None:
    ids = [case.id for case in HELDOUT17]
    assert len(ids) == len(set(ids))
    assert sum(not case.dangerous for case in HELDOUT17) >= 130
    assert sum(case.dangerous for case in HELDOUT17) >= 40


#: Safe templates of this set that issue 34's promise refuses on purpose:
#: a program without a grammar gets only clean data (rule 3). They count as
#: false refusals in every figure reported (docs/security.md section 7); the
#: 5 % bar below is held by the others, which no rule of the promise asks for.
NO_GRAMMAR: dict[str, str] = {
    "h17/safe/docker-run-lint-operand": "docker run: the words after the image are a command",
    "h17/safe/helm-upgrade-tag": "helm upgrade: --set splits on commas into other keys",
    "h17/safe/kubectl-apply-heredoc-configmap": "kubectl apply: a manifest on stdin is code",
    "h17/safe/make-var-pattern": "make: no grammar (NAME=VALUE operands reach recipes)",
    "h17/safe/redis-get-key": "redis-cli: no grammar (the first operand is a command)",
    "h17/safe/terraform-workspace-plan": "terraform: no grammar",
    # round forty-four: bash's own quoting holds only for bash, and the
    # remote login shell is not shown to be bash (dash reads %q's $'\t'
    # as `$` and a string); a free string holds a tab
    "h17/safe/ssh-printf-q-remote-word": "ssh: %q of a free string, read by an unknown shell",
}


def test_heldout17_score(tmp_path: Path) -> None:
    verdicts = _verdicts(tmp_path)
    accepted_dangerous = [
        cid for cid, dangerous, status in verdicts if dangerous and status == "accepted"
    ]
    safe = [v for v in verdicts if not v[1]]
    refused_safe = [
        cid for cid, dangerous, status in verdicts if not dangerous and status == "refused"
    ]
    assert accepted_dangerous == []
    assert set(NO_GRAMMAR) <= set(refused_safe)  # by design, and still refused
    others = [cid for cid in refused_safe if cid not in NO_GRAMMAR]
    assert len(others) <= 0.05 * len(safe), others
