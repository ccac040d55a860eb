"""Blind round six (issue 34): 108 attacks and 170 safe templates written from
the docs alone (tests/check/blind34r6/README.md, safe-README.md), committed
before scoring and scored once: see SCORE.md. No longer held out. The lists
are the verdicts now."""

from __future__ import annotations

from pathlib import Path

from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r6"

#: Accepted attacks the real runtime stops (the four agent-custom-tool ones
#: need a model, which `mcp-harbor run` here does not have: not a proof).
ACCEPTED_INERT = {
    "073-progress-hex.yaml",
    "082-proc-self-environ.yaml",
    "101-tool-writes-json-py.yaml",
    "102-step-writes-tool-makes.yaml",
    "103-tool-writes-env-finally.yaml",
    "104-tool-secret-argv.yaml",
}
#: Accepted attacks that still run their payload or leak the secret.
KNOWN_MISSES = {
    "059-k8s-secret-python.yaml": (
        "a secret given to a language's program (python, perl, node, jq, awk) that "
        "prints it transformed: issue 34 section 5 (a secret reaches only the "
        "programs named for it) is not done"
    ),
    "060-perl-hex.yaml": (
        "a secret given to a language's program (python, perl, node, jq, awk) that "
        "prints it transformed: issue 34 section 5 (a secret reaches only the "
        "programs named for it) is not done"
    ),
    "061-node-base64.yaml": (
        "a secret given to a language's program (python, perl, node, jq, awk) that "
        "prints it transformed: issue 34 section 5 (a secret reaches only the "
        "programs named for it) is not done"
    ),
    "062-jq-base64-output.yaml": (
        "a secret given to a language's program (python, perl, node, jq, awk) that "
        "prints it transformed: issue 34 section 5 (a secret reaches only the "
        "programs named for it) is not done"
    ),
    "063-awk-upper.yaml": (
        "a secret given to a language's program (python, perl, node, jq, awk) that "
        "prints it transformed: issue 34 section 5 (a secret reaches only the "
        "programs named for it) is not done"
    ),
    "064-python-hex-json.yaml": (
        "a secret given to a language's program (python, perl, node, jq, awk) that "
        "prints it transformed: issue 34 section 5 (a secret reaches only the "
        "programs named for it) is not done"
    ),
    "072-inline-rev-echo.yaml": (
        "the secret follower misses this channel (a substitution's output, $_, an "
        "indirect name): issue 34 section 5 is not done"
    ),
    "076-last-arg-underscore.yaml": (
        "the secret follower misses this channel (a substitution's output, $_, an "
        "indirect name): issue 34 section 5 is not done"
    ),
    "077-indirect-name-loop.yaml": (
        "the secret follower misses this channel (a substitution's output, $_, an "
        "indirect name): issue 34 section 5 is not done"
    ),
    "079-argv-python-environ.yaml": (
        "a program reads the secret from its environment (an argv: step's, or one "
        "command's) and prints it: issue 34 section 5 is not done"
    ),
    "081-argv-awk-environ.yaml": (
        "a program reads the secret from its environment (an argv: step's, or one "
        "command's) and prints it: issue 34 section 5 is not done"
    ),
    "083-argv-jq-env.yaml": (
        "a program reads the secret from its environment (an argv: step's, or one "
        "command's) and prints it: issue 34 section 5 is not done"
    ),
    "084-env-one-command-perl.yaml": (
        "a program reads the secret from its environment (an argv: step's, or one "
        "command's) and prints it: issue 34 section 5 is not done"
    ),
    "097-perl-script-operand.yaml": (
        "the export's programs: entry says ./scripts/count.pl runs none of its "
        "operands, and the checker trusts it; the script's while(<>) opens them as "
        "perl's magic open does"
    ),
}
#: Safe templates refused, with the rules that refuse them.
REFUSED_SAFE = {
    "015-git-changed-since-tag.yaml": "H009 H012",
    "019-git-commits-per-day.yaml": "H006 H007",
    "021-git-merge-base.yaml": "H009",
    "029-du-top.yaml": "H009",
    "034-log-levels.yaml": "H012",
    "035-top-paths.yaml": "H012",
    "037-csv-column.yaml": "H012",
    "046-checksum.yaml": "H009",
    "057-http-probe.yaml": "H012",
    "058-github-pr-status.yaml": "H010",
    "093-psql-table-sizes.yaml": "H000",
    "097-sqlite-table-counts.yaml": "H005 H012",
    "098-sqlite-team-report.yaml": "H005 H012",
    "102-zip-report.yaml": "H009",
    "110-helm-status-history.yaml": "H012",
    "119-node-package-info.yaml": "H005 H012",
    "122-pip-package-version.yaml": "H005 H012",
    "127-inhouse-featurectl.yaml": "H008",
    "129-inhouse-deploy-dry-run.yaml": "H012",
    "130-deploy-confirmed.yaml": "H012",
    "136-error-window.yaml": "H005",
    "137-incident-summary-heredoc.yaml": "H000",
    "139-env-endpoints-assoc.yaml": "H012",
    "141-multiline-output-steps.yaml": "H009",
    "150-host-health-thresholds.yaml": "H006",
    "153-http-headers.yaml": "H012",
    "154-tz-convert.yaml": "H012",
    "167-cron-schedule-next.yaml": "H006",
    "168-access-log-status-report.yaml": "H012",
}


(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 108, ACCEPTED_INERT, KNOWN_MISSES, REFUSED_SAFE)
