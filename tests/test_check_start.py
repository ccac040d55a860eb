"""Issue 7, scale: `mcp_harbor.check.start` loads the exports and starts
their ``bash -n`` checks early (the server does it before importing the rest
of itself). What `load_and_check` then decides must be exactly what it
decides without `start`, including when the files change in between.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor import check
from mcp_harbor.check import clear_cache, load_and_check, start
from mcp_harbor.errors import ConfigError

HEAD = "description: d\nargs:\n  x: {type: string}\nsteps:\n  - name: s\n"
GOOD = f'name: good\n{HEAD}    run: echo "$ARG_x"\n'
BAD = f"name: bad\n{HEAD}    run: echo {{{{ args.x }}}}\n"
STRAY_FI = f"name: stray\n{HEAD}    run: |\n      echo a\n      fi\n"


pytestmark = pytest.mark.usefixtures("fresh_checker")


def statuses(result: check.CheckedExports) -> dict[str, str]:
    return {r.name: r.status for r in result.reports}


def test_start_then_check_decides_as_a_plain_check(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    write_export(folder, "good.yaml", GOOD)
    write_export(folder, "bad.yaml", BAD)
    write_export(folder, "stray.yaml", STRAY_FI)
    plain = load_and_check([folder])
    clear_cache()
    start([folder], cache_file=tmp_path / "state" / "check-cache")
    early = load_and_check([folder], cache_file=tmp_path / "state" / "check-cache")
    assert early.reports == plain.reports
    assert statuses(early) == {"bad": "refused", "good": "accepted", "stray": "refused"}


def test_the_started_exports_are_reused_when_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "exports"
    write_export(folder, "good.yaml", GOOD)
    start([folder])
    loads: list[object] = []
    monkeypatch.setattr(check, "load_exports", lambda paths: loads.append(paths) or [])
    assert statuses(load_and_check([folder])) == {"good": "accepted"}
    assert loads == []


@pytest.mark.parametrize("change", ["edit", "add", "remove"])
def test_a_change_after_start_is_what_gets_checked(tmp_path: Path, change: str) -> None:
    folder = tmp_path / "exports"
    write_export(folder, "a.yaml", GOOD)
    write_export(folder, "b.yaml", GOOD.replace("name: good", "name: other"))
    start([folder])
    if change == "edit":  # now refused
        (folder / "a.yaml").write_text(BAD.replace("name: bad", "name: god"))
        expected = {"god": "refused", "other": "accepted"}
    elif change == "add":
        write_export(folder, "c.yaml", BAD)
        expected = {"good": "accepted", "other": "accepted", "bad": "refused"}
    else:
        (folder / "b.yaml").unlink()
        expected = {"good": "accepted"}
    assert statuses(load_and_check([folder])) == expected


def test_other_paths_are_loaded_afresh(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    write_export(first, "good.yaml", GOOD)
    write_export(second, "bad.yaml", BAD)
    start([first])
    assert statuses(load_and_check([second])) == {"bad": "refused"}


def test_a_folder_that_does_not_load_is_reported_by_the_check(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    write_export(folder, "broken.yaml", "name: [unclosed\n")
    start([folder])  # never raises
    start([tmp_path / "missing"])
    with pytest.raises(ConfigError):
        load_and_check([folder])
    with pytest.raises(ConfigError):
        load_and_check([tmp_path / "missing"])
