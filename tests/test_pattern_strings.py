"""Issue 20, item 2: ``pattern`` applies to strings only (JSON Schema skips
it for any other type), so a ``pattern`` on an arg that admits other values
would let ``5`` or ``[1]`` reach the steps unchecked. It is a config error
naming the file, the line and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError

ARG_FIX = "args.p.pattern applies to strings only"
ITEMS_FIX = "args.p.items.pattern applies to strings only"


def export_with(tmp_path: Path, arg: str) -> Path:
    text = f"""
        name: pat
        description: A pattern.
        args:
          q: {{type: string}}
          p: {arg}
        steps:
          - name: a
            run: echo "$ARG_p"
    """
    return write_export(tmp_path, "pat.yaml", text)


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ('{pattern: "^[a-z]+$"}', f"{ARG_FIX} (a value of another type would reach the steps"),
        ('{type: integer, pattern: "^[0-9]$"}', ARG_FIX),
        ('{type: [string, integer], pattern: "^[a-z]+$"}', ARG_FIX),
        ('{type: array, pattern: "^[a-z]+$"}', ARG_FIX),
        ('{type: array, items: {pattern: "^[a-z]+$"}}', ITEMS_FIX),
        ('{type: array, items: {type: number, pattern: "^1$"}}', ITEMS_FIX),
    ],
)
def test_a_pattern_on_values_not_all_strings_is_a_config_error(
    tmp_path: Path, arg: str, words: str
) -> None:
    path = export_with(tmp_path, arg)
    with pytest.raises(ConfigError) as caught:
        load_export(path)
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}:5: "), problem  # the line of `p:`
    assert words in problem, problem
    assert "give the" in problem and "type: string, or remove pattern" in problem, problem


@pytest.mark.parametrize(
    "arg",
    [
        '{type: string, pattern: "^[a-z]+$"}',
        "{type: [string, 'null'], pattern: \"^[a-z]+$\"}",
        '{type: array, items: {type: string, pattern: "^[a-z]+$"}}',
    ],
)
def test_a_pattern_on_strings_loads(tmp_path: Path, arg: str) -> None:
    load_export(export_with(tmp_path, arg))


def test_the_line_is_that_of_pattern_in_block_style(tmp_path: Path) -> None:
    text = """
        name: pat
        description: A pattern.
        args:
          p:
            type: integer
            pattern: "^[0-9]$"
        steps:
          - name: a
            run: echo "$ARG_p"
    """
    path = write_export(tmp_path, "pat.yaml", text)
    with pytest.raises(ConfigError) as caught:
        load_export(path)
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}:6: {ARG_FIX}"), problem
