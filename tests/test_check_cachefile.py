"""Issue 7, scale: the checker's verdicts kept across starts
(`mcp_harbor.check.cachefile`) must never turn a refused export into an
accepted one.

Each test is two "starts" in one process: check with a cache file, forget
every in-memory verdict, then check again from the file. Which scripts the
second start hands to bash (the real one) shows what was reused: none
when the file's verdicts are used, every one when the file is ignored. A
damaged, foreign or stale file must be ignored, and the export checked for
real.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import harbor_cli, rewrite_check_cache, write_export

from mcp_harbor import check
from mcp_harbor.check import cachefile, clear_cache, load_and_check

HEAD = "description: d\nargs:\n  x: {type: string}\nsteps:\n  - name: s\n"
GOOD = f'name: good\n{HEAD}    run: echo "$ARG_x"\n'
BAD = f"name: bad\n{HEAD}    run: echo {{{{ args.x }}}}\n"


pytestmark = pytest.mark.usefixtures("fresh_checker")


def restart(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Forget every in-memory verdict, as a new process would. Returns the
    list of scripts handed to bash (the real one) from now on: the checker's
    reading of each script it analyses (`mcp_harbor.check._judge`)."""
    clear_cache()
    cachefile.detach()
    ran: list[str] = []
    real = check._judge

    def recorded(drafts: Sequence[Any], *rest: Any) -> None:
        ran.extend(
            script.text
            for draft in drafts
            for _step, _hazards, script in draft.steps
            if script is not None
        )
        real(drafts, *rest)

    monkeypatch.setattr(check, "_judge", recorded)
    return ran


def statuses(folder: Path, cache: Path) -> dict[str, str]:
    checked = load_and_check([folder], cache_file=cache)
    return {r.name: r.status for r in checked.reports}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    exports = tmp_path / "exports"
    write_export(exports, "good.yaml", GOOD)
    write_export(exports, "bad.yaml", BAD)
    return exports


def test_verdicts_are_reused_on_the_next_start(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert cache.stat().st_mode & 0o777 == 0o600
    assert (cache.parent / "check-cache.key").stat().st_mode & 0o777 == 0o600
    assert cache.parent.stat().st_mode & 0o777 == 0o700
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert ran == []


def test_without_the_file_every_export_is_checked(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    cache.unlink()
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert len(ran) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw.replace(b'"refused"', b'"accepted"'),
        lambda raw: raw[: len(raw) // 2],
        lambda raw: b"garbage",
        lambda raw: b"",
        lambda raw: raw[:-1] + bytes([raw[-1] ^ 1]),
    ],
    ids=["refused-edited-to-accepted", "truncated", "garbage", "empty", "one-bit"],
)
def test_a_damaged_file_is_ignored_and_every_export_checked(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: object
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    cache.write_bytes(damage(cache.read_bytes()))  # type: ignore[operator]
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert len(ran) == 2
    ran = restart(monkeypatch)  # and it was written again, whole
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert ran == []


def test_a_file_from_another_installation_is_ignored(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    (cache.parent / "check-cache.key").unlink()  # another key: the file is foreign now
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert len(ran) == 2


def test_a_refused_verdict_edited_with_the_key_still_needs_this_checker(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)

    def accept_all_as_another_checker(data: dict) -> None:  # type: ignore[type-arg]
        data["checker"] = "0" * 64
        for row in data["reports"].values():
            row[2], row[3] = "accepted", []

    rewrite_check_cache(cache, accept_all_as_another_checker)
    restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}


def test_verdicts_of_another_bash_are_not_reused(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    rewrite_check_cache(cache, lambda data: data.update(bash="/other/bash:1:2:3:4"))
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert len(ran) == 2


def test_a_changed_export_is_checked_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    write_export(folder, "good.yaml", GOOD.replace('"$ARG_x"', "{{ args.x }} changed"))
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "refused"}
    assert len(ran) == 1
    write_export(folder, "good.yaml", GOOD)  # back: its old verdict is still valid
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert ran == []


def test_the_same_file_at_another_path_is_checked_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    other = tmp_path / "other"
    write_export(other, "good.yaml", GOOD)
    restart(monkeypatch)
    # a new report (the path is part of it), though its bash -n verdict is reused
    report = load_and_check([other], cache_file=cache).reports[0]
    assert (report.status, report.file) == ("accepted", str(other / "good.yaml"))


def test_a_file_others_can_write_is_not_trusted(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "state" / "check-cache"
    statuses(folder, cache)
    os.chmod(cache, 0o622)
    ran = restart(monkeypatch)
    assert statuses(folder, cache) == {"bad": "refused", "good": "accepted"}
    assert len(ran) == 2


def test_serve_and_tools_keep_the_verdicts_in_the_state_folder(
    folder: Path, tmp_path: Path
) -> None:
    state = tmp_path / "home"
    write_export(folder, "bad.yaml", BAD.replace("{{ args.x }}", '"$ARG_x"'))
    first = harbor_cli("tools", "--exports", str(folder), "--json", state=state)
    cache = state / "mcp-harbor" / "check-cache"
    assert cache.is_file() and cache.stat().st_mode & 0o777 == 0o600
    data = json.loads(cache.read_bytes().split(b"\n", 2)[2])
    assert {row[0] for row in data["reports"].values()} == {"good", "bad"}
    second = harbor_cli("tools", "--exports", str(folder), "--json", state=state)
    assert first.stdout == second.stdout


def test_the_programs_each_export_runs_are_kept_too(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_harbor.check.commands import programs_of

    cache = tmp_path / "state" / "check-cache"
    write_export(folder, "count.yaml", f'name: count\n{HEAD}    run: wc -c <<< "$ARG_x"\n')
    first = [programs_of(e) for e in load_and_check([folder], cache_file=cache).accepted]
    assert [[u.program for u in uses] for uses in first] == [["wc"], []]  # echo: a builtin
    restart(monkeypatch)
    from mcp_harbor.check import commands

    monkeypatch.setattr(commands, "_programs_of", lambda export: [])  # only the file can answer
    again = [programs_of(e) for e in load_and_check([folder], cache_file=cache).accepted]
    assert again == first
