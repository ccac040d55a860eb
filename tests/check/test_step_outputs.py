"""What a step's outputs can hold, for the steps after it.

A step's ``STEP_<step>_<key>`` variables hold what the step printed to
``$HARBOR_STEP_OUTPUT``: the author's text when no caller data is in the
statements that append there, exactly a value ``echo "key=$v"`` prints
(object names of ``git merge-base``, a count), and any text otherwise, or
when some command could find the file through its environment (a
language's program that writes, a program without a grammar), or the file
is named some other way (``exec >>``, a variable holding its name). Each
accepted case is then run through the real runtime with payloads."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export

OUT = '>> "$HARBOR_STEP_OUTPUT"'
#: the later step reads the output where git reads options
LATER = 'git log --oneline -1 "$STEP_a_v" --'

ACCEPTED = {
    "object-names": ('mb=$(git merge-base "$ARG_x" HEAD)\necho "v=$mb" ' + OUT, "S"),
    "authors-tag": ('t=$(git describe --tags --always)\necho "v=$t" ' + OUT, "S"),
    "literal": ("echo v=HEAD " + OUT, "S"),
    # validation refuses a leading - in a string without leading_dash
    "string-value": ('echo "v=$ARG_x" ' + OUT, "S"),
    "printf-number": ("printf 'v=%s\\n' \"$ARG_x\" " + OUT, "N"),
    "pattern-value": ('echo "v=$ARG_x" ' + OUT, "P"),
}
REFUSED = {
    # a value validated to start with anything, - included
    "leading-dash": ('echo "v=$ARG_x" ' + OUT, "D"),
    "group": ('{ echo "v=$ARG_x"; } ' + OUT, "S"),
    "python-writes-it": (
        'python3 -c \'import os, sys; open(os.environ["HARBOR_STEP_OUTPUT"], "a")'
        '.write("v=" + sys.argv[1])\' "$ARG_x"',
        "S",
    ),
    "exec": ('exec >> "$HARBOR_STEP_OUTPUT"\necho "v=$ARG_x"', "S"),
    "name-in-variable": ('o=$HARBOR_STEP_OUTPUT\necho "v=$ARG_x" >> "$o"', "S"),
    # echo turns \055 into - under xpg_echo
    "xpg-echo": ('shopt -s xpg_echo\necho "v=$ARG_x" ' + OUT, "NOQUOTE"),
    # a line break in the value writes another key, which may start with -
    "multiline": ('echo "u=$ARG_x" ' + OUT, "M"),
    "unknown-program": ("deployctl report " + OUT, "P"),
    "two-step-names": ('echo "w=$ARG_x" ' + OUT, "D"),
}
SCHEMAS: dict[str, dict[str, Any]] = {
    "S": {"type": "string"},
    "D": {"type": "string", "leading_dash": True},
    "N": {"type": "integer", "minimum": 0},
    "P": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.]*$"},
    "NOQUOTE": {"type": "string", "pattern": "^[^']*$"},
    "M": {"type": "string", "multiline": True},
}


def _write(tmp_path: Path, name: str, first: str, kind: str) -> Path:
    steps = [{"name": "a", "run": first}, {"name": "later", "run": LATER}]
    if name == "two-step-names":
        # steps a and a_v both make STEP_a_v_w
        steps = [{"name": "a_v", "run": first}, {"name": "a", "run": "true"}]
        steps.append({"name": "later", "run": 'git log --oneline -1 "$STEP_a_v_w" --'})
    if name == "multiline":
        steps[1] = {"name": "later", "run": 'git log --oneline -1 "$STEP_a_v" --'}
    document = {
        "name": "t",
        "description": name,
        "args": {"x": SCHEMAS[kind]},
        "steps": steps,
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_outputs_of_known_text(name: str, tmp_path: Path) -> None:
    path = _write(tmp_path, name, *ACCEPTED[name])
    report = check_export(load_export(path))
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_outputs_of_any_text(name: str, tmp_path: Path) -> None:
    path = _write(tmp_path, name, *REFUSED[name])
    report = check_export(load_export(path))
    assert report.status == "refused"
    assert any("STEP_a_v" in f.message for f in report.findings), [
        f.message for f in report.findings
    ]


PAYLOADS = {
    "S": "HEAD --output=x $(echo HARBOR-PWNED-$((6*7)))",
    "N": 42,
    "P": "HEAD.x",
}


@pytest.mark.parametrize("name", [n for n in sorted(ACCEPTED) if ACCEPTED[n][1] in PAYLOADS])
def test_accepted_outputs_do_not_run_payloads(name: str, tmp_path: Path) -> None:
    """Through the real runtime (``mcp-harbor run``), in a git repository."""
    scorer = Path(__file__).parent / "blind34"
    if str(scorer) not in sys.path:
        sys.path.insert(0, str(scorer))
    import score  # tests/check/blind34/score.py

    path = _write(tmp_path, name, *ACCEPTED[name])
    work = score._workdir(tmp_path)
    outcome = score._run_attack(path, {"x": PAYLOADS[ACCEPTED[name][1]]}, tmp_path, work)
    assert not outcome["ran"], json.dumps(outcome)[:2000]
