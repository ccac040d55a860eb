"""Blind round twenty (issue 34): 60 attacks in 14 classes and 150 safe
templates written from the docs alone (tests/check/blind34r20/README.md,
safe-README.md), committed before scoring and scored once: see SCORE.md.
No longer held out. The lists are the verdicts now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcp_harbor.check import load_and_check
from tests.check._blind import round_tests

HERE = Path(__file__).parent / "blind34r20"

#: Accepted attacks the real runtime stops: none is accepted any more.
ACCEPTED_INERT: set[str] = set()
#: Accepted one by one (the writer of a pair), refused by the gate of the
#: exports served together with the export it prepares a call of, or with
#: that export refused alone (`test_refused_beside_its_reader`).
REFUSED_ACROSS = {
    "021-ref-branch-xexp-awk.yaml": "branch_table",
    "022-ref-checkout-xexp-sed.yaml": "branch_banner",
    "023-ref-remote-xexp-awk.yaml": "remote_table",
    "025-abs-state-jq-sed.yaml": "state_banner",
    "026-abs-state-cat-awk.yaml": "motd_banner",
    "027-abs-state-read-arith.yaml": "next_build",
    "028-abs-state-mapfile-node.yaml": "region_list",
    "032-mktemp-xexp-local-mk.yaml": "build_report",
    "036-rundir-link-xexp.yaml": "build_report",
    "049-abs-devshm-sed.yaml": "shm_banner",
}
#: Safe templates refused, with the rules that refuse them (and why).
REFUSED_SAFE = {
    "019-ip-interface.yaml": "unloadable: programs: lists ip's keyword 'dev' and -4 (a number)",
    "047-virsh-list.yaml": "H009: a domain name from virsh's output where its options stand",
    "051-libvirt-pool-capacity.yaml": "H009: a pool name from virsh's output where its "
    "options stand",
    "053-vm-image-inventory.yaml": "H009 H012: a domain from virsh's output; qemu-img in a "
    "folder a step wrote",
    "059-redis-cache-keys.yaml": "H006 H012: redis-cli --pattern, a signed guard",
    "087-fastlane-beta.yaml": "H012: a variable fastlane's programs: entry does not name",
    "095-parquet-schema.yaml": "H005 H012: python3 importing duckdb",
    "125-loki-errors.yaml": "H012: logcli has no grammar",
    "133-k8s-top.yaml": "H009: a pod name from kubectl's output where kubectl get reads options",
    "149-sqs-dlq.yaml": "H012: aws output as an aws value; receive-message has no grammar",
    "045-mount-options.yaml": "H012: `findmnt` (no grammar) gets a path a step may write",
}

(
    test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
    test_the_safe_templates_refused_are_the_listed_ones,
    test_accepted_attacks_do_not_run,
) = round_tests(HERE, 60, ACCEPTED_INERT, REFUSED_ACROSS, REFUSED_SAFE)


@pytest.mark.parametrize("name", sorted(REFUSED_ACROSS))
def test_refused_beside_its_reader(name: str, tmp_path: Path) -> None:
    """Served with the export it prepares (one of attacks/then/), the gate
    refuses one of the two (the writer, or the reader that runs what the
    folder holds): the pair is never served."""
    reader = f"{REFUSED_ACROSS[name]}.yaml"
    shutil.copy(HERE / "attacks" / name, tmp_path / name)
    shutil.copy(HERE / "attacks" / "then" / reader, tmp_path / reader)
    checked = load_and_check([tmp_path])
    assert len(checked.accepted) <= 1, [e.path.name for e in checked.accepted]
