"""A newline ends a simple command for bash; tree-sitter-bash sometimes
reads past it (after two assignments, after a pipeline of three: its issues
228, 342 and 347). `parse_tree` reads it as bash does, and the commands
it finds are the ones bash runs, in order (bash's own trace says which)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mcp_harbor.check._gates import BASH, parse_tree, walk
from mcp_harbor.check._tree import node_text
from tests.check._harness import Case, check

SCRIPTS = [
    "a=1 b=2\nprintf x\n",
    "a=1 b=2\nif true; then printf x; fi\n",
    "n=0 p=0 # a comment\nif true; then printf y; fi\n",
    "true | cat | head -n 1\nprintf B && printf C\n",
    "true | cat | head -n 1 # c\nprintf B\n",
    "a=1 b=2 \\\nprintf joined\n",
    "a=1 b=2 \\\n# x\nprintf after\n",
    "printf one \\\n  two\nprintf three\n",
]


def _tree_commands(text: str) -> list[str]:
    tree = parse_tree(text)
    src = text.encode("utf-8")
    names = []
    for node in walk(tree.root_node):
        if node.type == "command":
            name = node.child_by_field_name("name")
            if name is not None:
                names.append(node_text(src, name))
    return names


def _bash_commands(text: str) -> list[str]:
    trace = subprocess.run(
        [BASH, "--noprofile", "--norc", "-xc", text],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PS4": "+ "},
        check=False,
    ).stderr
    names = []
    for line in trace.splitlines():
        if not line.startswith("+ "):
            continue
        words = [w for w in line[2:].split() if "=" not in w or w.startswith("-")]
        if words:
            names.append(words[0])
    return names


@pytest.mark.parametrize("text", SCRIPTS)
def test_commands_are_the_ones_bash_runs(text: str) -> None:
    # the parts of a pipeline run side by side: their trace lines come in any order
    assert sorted(_tree_commands(text)) == sorted(_bash_commands(text))


def test_a_command_after_a_misread_newline_is_analysed(tmp_path: Path) -> None:
    safe = Case(
        "two-assignments-then-loop",
        False,
        run='n=0 p=0\nwhile IFS= read -r l; do\n  printf "%s\\n" "$l"\ndone <<< "$ARG_x"\n',
    )
    assert check(safe, tmp_path).status == "accepted"
    unsafe = Case(
        "pipeline-then-shell",
        True,
        run='ls | grep x | head -n 3\nbash -c "$ARG_x"\n',
    )
    assert check(unsafe, tmp_path, 1).status == "refused"


def test_an_arithmetic_base_prefix_parses() -> None:
    """``$((10#$n + 1))`` (a number with leading zeros read in base 10):
    tree-sitter-bash reads it once its ``#`` is taken as ``+``."""
    for text in ('echo "$((10#$n + 1))"\n', "(( x = 16#ff ))\n", "echo a1#b # c\n"):
        assert not parse_tree(text).root_node.has_error, text
    assert _tree_commands("echo a1#b # c\necho d\n") == ["echo", "echo"]
