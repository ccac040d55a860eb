"""What a parse keeps about its tree (`mcp_harbor.check._tree.Parsed`:
`arithmetic`, `reads`, `of_type`) is what asking the tree again gives, on
every corpus and fixture script: the memo changes only the cost."""

from __future__ import annotations

from pathlib import Path

import yaml

from mcp_harbor.check._tree import (
    expansion_target,
    in_arithmetic,
    node_text,
    parsed,
    static_text,
)
from tests.check.corpus import corpus

FIXTURES = Path(__file__).parent / "fixtures"


def _scripts() -> list[str]:
    out = [case.run for case in corpus() if case.run is not None]
    for path in sorted(FIXTURES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            out += [case[key] for key in ("run", "fixed") if isinstance(case.get(key), str)]
    return out


def test_kept_facts_are_the_tree_asked_again() -> None:
    arithmetic = 0
    for text in _scripts():
        script = parsed(text)
        reads = []
        for node in script.nodes:
            assert script.arithmetic(node) == in_arithmetic(script.src, node), text
            arithmetic += in_arithmetic(script.src, node)
            if node.type in ("simple_expansion", "expansion"):
                reads.append((node, expansion_target(script.src, node), True))
            elif (
                node.type in ("variable_name", "word")
                and in_arithmetic(script.src, node)
                and (
                    node.parent is None or node.parent.type not in ("simple_expansion", "expansion")
                )
            ):
                reads.append((node, node_text(script.src, node), False))
        assert list(script.reads()) == reads, text
        assert script.of_type("command_substitution") == tuple(
            n for n in script.nodes if n.type == "command_substitution"
        )
    assert arithmetic > 100


def test_static_text_removes_quotes_as_bash_does() -> None:
    script = parsed("echo a\\ b \"c\\$d\" 'e\\f' $'g\\n' h\\i $x \"$y\"")
    words = [
        node for node in script.nodes if node.parent is not None and node.parent.type == "command"
    ]
    texts = [static_text(script.src, node) for node in words]
    assert texts == ["echo", "a b", "c$d", "e\\f", "g\n", "hi", None, None]
