"""Grammars of storage and virtualization queries (OpenZFS 2.2 zpool and
zfs, libvirt virsh): read-only subcommands whose names and properties are
data; zpool status -c runs scripts (code); virsh's options stand anywhere
(no ``--`` assumed), and its connection URI and log file are the
author's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {"pool": {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('zpool status -v -- "$ARG_pool"', False),
        ('zpool list -H -o name,health "$ARG_pool"', False),
        ('zfs list -H -o name,used -r "$ARG_pool"', False),
        ('virsh dominfo "$ARG_pool"', False),
        # a script zpool runs; a name from a program's output where options may stand
        ('zpool status -c "$ARG_pool"', True),
        ('for d in $(virsh list --name); do virsh dominfo "$d"; done', True),
        ('virsh -c "qemu+ssh://$ARG_pool/system" list', True),
        # a subcommand that changes something has no grammar
        ('zpool scrub "$ARG_pool"', True),
        ('virsh destroy "$ARG_pool"', True),
    ],
)
def test_storage_queries(run: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('docker compose --file deploy/compose.yaml logs --since "$ARG_pool" -- web', False),
        ('docker compose -p shop ps --all --format json -- "$ARG_pool"', False),
        # the compose file is configuration that runs commands: the author's
        ('docker compose --file "$HARBOR_RUN_DIR/$ARG_pool.yaml" logs web', True),
        ('docker compose --file deploy/compose.yaml run --rm web "$ARG_pool"', True),
    ],
)
def test_compose_options_before_its_subcommand(run: str, refused: bool, tmp_path: Path) -> None:
    """docker compose's own options (--file, -p…) stand before its
    subcommand (docker-compose(1) v2); the subcommand's grammar follows."""
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('systemd-analyze calendar --iterations=3 -- "$ARG_pool"', False),
        ("systemd-analyze verify --man=no -- deploy/systemd/*.service", False),
        ('systemd-analyze verify --root="$HARBOR_RUN_DIR/$ARG_pool" -- a.service', True),
        ('systemd-analyze -H "$ARG_pool" calendar daily', True),
        ('systemd-analyze security "$ARG_pool"', True),
    ],
)
def test_systemd_analyze_parses(run: str, refused: bool, tmp_path: Path) -> None:
    """systemd-analyze's verify, calendar, timespan and timestamp parse and
    print (systemd 252): their operands are data."""
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused
