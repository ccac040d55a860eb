"""tree-sitter-bash for structure, and which bash is the authority.

tree-sitter gives every quote, expansion and here-doc a node and a byte span,
but it accepts some scripts bash rejects (a stray ``fi``, ``done``, ``;;``)
and reads some valid ones differently from bash. bash itself reads every
script too (`mcp_harbor.check._reprint`, `mcp_harbor.check._authority`): a
script must pass both, and the two readings must agree where caller data
is. `bash_identity` names the bash whose readings the checker's kept
verdicts depend on (`mcp_harbor.check.cachefile`).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator

import tree_sitter_bash
from tree_sitter import Language, Node, Parser, Tree

__all__ = ["BASH", "bash_identity", "parse_tree", "tree_error", "walk"]

_LANGUAGE = Language(tree_sitter_bash.language())
_local = threading.local()
#: The bash that reads every script (and that steps run under).
BASH = shutil.which("bash") or "/bin/bash"


def _parser() -> Parser:
    parser: Parser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = Parser(_LANGUAGE)
        _local.parser = parser
    return parser


def walk(node: Node) -> Iterator[Node]:
    """`node` and every node below it, in document order."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def parse_tree(text: str) -> Tree:
    """The tree-sitter parse of `text` (UTF-8)."""
    return _parser().parse(text.encode("utf-8"))


def tree_error(tree: Tree) -> Node | None:
    """The first ERROR or MISSING node of `tree`, if any."""
    root = tree.root_node
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return root


def bash_identity() -> str:
    """Which ``bash`` gives the verdicts: its resolved path, size, mtime and
    inode (a verdict of another bash is not reused)."""
    path = os.path.realpath(BASH)
    try:
        info = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{info.st_size}:{info.st_mtime_ns}:{info.st_dev}:{info.st_ino}"
