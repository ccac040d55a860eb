"""Blind round nineteen (issue 34): 51 attacks in 12 classes and 150 safe
templates written from the docs alone (tests/check/blind34r19/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_harbor.check import load_and_check
from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r19"
SHIPPED = Path(__file__).parents[2] / "exports"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted one by one, refused by the gate of the exports served together
#: with the export each prepares a call of (`test_refused_beside_its_reader`).
REFUSED_ACROSS = {
    "030-pwd-local-mk-then.yaml": "build_report",
    "031-xexp-jq-sed.yaml": "render_banner",
    "032-xexp-changelog-awk.yaml": "latest_change",
    "033-xexp-git-commit-sed.yaml": "deploy_banner",
    "034-xexp-compgen-envs.yaml": "pick_environment",
    "035-xexp-mapfile-awk.yaml": "region_table",
    "038-tar-symlink-git-config.yaml": "repo_status",
}
#: Accepted attacks that still send the secret where the caller says.
KNOWN_MISSES = {
    "016-inhouse-urllib-redirect.yaml": "an in-house program the secret's programs: names, "
    "described as taking data operands, follows a redirect: the author's word on it is "
    "what acceptance rests on (docs/security.md section 9)",
}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "015-restore-drill-sqlite.yaml": "H004 H006 H012: sqlite3 on a copy of the caller's snapshot",
    "028-cloudflare-dns-upsert.yaml": "H010 H012: a URL built from a step output",
    "068-redis-stream-backlog.yaml": "H010: a number among redis-cli's operands (the command "
    "it sends, code) beside its password",
    "077-cost-by-service.yaml": "H006: numbers jq computes, in arithmetic",
    "081-gcp-billing-bigquery.yaml": "H009: bq has no grammar for its SQL",
    "084-migrations-pending.yaml": "H009: jq --args names that may start with -",
    "093-log-growth-report.yaml": "H006: gzip -l's field in arithmetic",
    "098-aws-iam-key-age.yaml": "H012: a user name from aws output as an aws value "
    "(it may start with file://)",
    "101-export-orders-csv.yaml": "H012: sqlite3 reads SQL with caller dates",
    "102-export-events-parquet.yaml": "H012: duckdb reads SQL with caller dates",
    "116-terraform-plan-summary.yaml": "H012: terraform has no grammar",
    "118-terraform-drift-check.yaml": "H005 H012: terraform, sed's program from its output",
    "131-image-promote.yaml": "H012: DOCKER_CONFIG exported naming the run directory, a "
    "place a step may write, to every later program",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 51, ACCEPTED_INERT, {**REFUSED_ACROSS, **KNOWN_MISSES}, REFUSED_SAFE)


@pytest.mark.parametrize("name", sorted(REFUSED_ACROSS))
def test_refused_beside_its_reader(name: str, tmp_path: Path) -> None:
    """Served with the export it prepares (one of attacks/then/, or a
    shipped one), the gate refuses one of the two (the writer, or the
    reader that runs what the folder holds): the pair is never served."""
    reader = f"{REFUSED_ACROSS[name]}.yaml"
    shutil.copy(HERE / "attacks" / name, tmp_path / name)
    then = HERE / "attacks" / "then" / reader
    shutil.copy(then if then.exists() else SHIPPED / reader, tmp_path / reader)
    checked = load_and_check([tmp_path])
    assert len(checked.accepted) == 1, [e.path.name for e in checked.accepted]
