"""Issue 7, scale: the positions of every command (``run:``, ``argv:``) are
recorded while an export file is read, so that finding a step's line does
not parse the file a second time. They must be exactly the positions the
full source map gives, in every YAML style a command can be written in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor.config.yaml_source import read_yaml

REPO = Path(__file__).resolve().parent.parent
FILES = sorted((REPO / "exports").glob("*.yaml"))

STYLES = """\
name: styles
description: d
args:
  x: {type: string}
steps:
  - name: plain
    run: echo plain
  - {name: flow, run: 'echo flow'}
  - name: double
    run: "echo \\"$ARG_x\\""
  - name: literal
    run: |
        set -eu
        echo literal
  - name: folded
    run: >-
      echo folded
      more
  - name: argv
    argv: [git, "status", '--short']
  - name: argv_block
    argv:
      - ls
      - |
        two
        lines
on_failure:
  - name: after
    run: echo after   # comment
finally:
  - name: last
    argv: [true]
"""


def eager_and_full(path: Path) -> tuple[dict[object, object], dict[object, object]]:
    _data, smap, _raw = read_yaml(path)
    eager = dict(smap._eager)
    full = smap.values  # builds the full map (a second parse)
    return eager, {k: full[k] for k in eager}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_recorded_positions_are_the_full_maps(path: Path) -> None:
    eager, full = eager_and_full(path)
    assert eager == full


def test_every_style_of_command(tmp_path: Path) -> None:
    path = tmp_path / "styles.yaml"
    path.write_text(STYLES)
    eager, full = eager_and_full(path)
    assert eager == full
    assert set(eager) == {
        ("steps", 0, "run"),
        ("steps", 1, "run"),
        ("steps", 2, "run"),
        ("steps", 3, "run"),
        ("steps", 4, "run"),
        ("steps", 5, "argv", 0),
        ("steps", 5, "argv", 1),
        ("steps", 5, "argv", 2),
        ("steps", 6, "argv", 0),
        ("steps", 6, "argv", 1),
        ("on_failure", 0, "run"),
        ("finally", 0, "argv", 0),
    }
    lines = STYLES.splitlines()
    # a literal block's position is its indicator line; its text starts below
    literal = eager[("steps", 3, "run")]
    assert lines[literal.line - 1].strip() == "run: |" and literal.indent == 8


def test_a_position_lookup_for_a_command_needs_no_second_parse(tmp_path: Path) -> None:
    path = tmp_path / "styles.yaml"
    path.write_text(STYLES)
    _data, smap, _raw = read_yaml(path)
    assert smap.position_in_scalar(("steps", 3, "run"), 0, "") == (13, 9)
    assert smap._values is None  # answered from the recorded positions
    assert smap.position_in_scalar(("steps", 0, "name"), 0, "plain") == (6, 11)
    assert smap._values is not None  # any other position builds the full map
