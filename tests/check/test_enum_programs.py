"""A command word built from the author's text and enum values
(``{{ args.algo }}sum``) is one of the author's programs: each is judged
with the words it gets, as if written there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export

ACCEPTED = {
    "digest": ('{{ args.tool }}sum -- "$ARG_x"', ["sha256", "md5"]),
    "quoted-env": ('"${ARG_tool}" -- "$ARG_x"', ["wc", "cat"]),
    # head -c takes a value: "--" is it, and the caller's word an option
}
REFUSED = {
    # bash among the alternatives runs the caller's text
    "a-shell": ('{{ args.tool }} -c "$ARG_x"', ["bash", "dash"]),
    # head takes the caller's word where it reads options
    "options": ('{{ args.tool }}sum "$ARG_x"', ["sha256", "md5"]),
    "one-unknown": ('{{ args.tool }} "$ARG_x"', ["cat", "deployctl"]),
    # head -c takes a value: "--" is it, and the caller's word an option
    "value-option": ('"${ARG_tool}" -c -- "$ARG_x"', ["wc", "head"]),
    # null renders empty: unquoted, the next word (the caller's) is the command
    "null-alternative": ('{{ args.tool }} "$ARG_x"', ["nice", None]),
}


def _check(tmp_path: Path, name: str, run: str, tools: list[str | None]) -> Any:
    document = {
        "name": "t",
        "description": name,
        "args": {
            "x": {"type": "string", "leading_dash": True},
            "tool": {"type": "string", "enum": tools},
        },
        "steps": [{"name": "s", "run": run}],
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return check_export(load_export(path))


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_each_program_gets_data(name: str, tmp_path: Path) -> None:
    report = _check(tmp_path, name, *ACCEPTED[name])
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_one_program_runs_or_reads_options(name: str, tmp_path: Path) -> None:
    assert _check(tmp_path, name, *REFUSED[name]).status == "refused"
