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

import itertools
import os
import re
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
    """The tree-sitter parse of `text` (UTF-8), with the command boundaries
    bash sees.

    tree-sitter-bash sometimes carries a simple command over a newline that
    ends it for bash (after two assignments, ``a=1 b=2⏎while …``, or after
    a pipeline of three, ``a | b | head⏎next``: tree-sitter-bash issues
    228, 342 and 347). No simple command of bash holds an unescaped newline
    between two of its words, so where one does, that newline is read as
    the ``;`` bash reads there, and the text is parsed again. The byte
    offsets stay those of `text`."""
    src = _BASE_PREFIX.sub(rb"\1+", text.encode("utf-8"))
    parser = _parser()
    tree = parser.parse(src)
    if tree.root_node.has_error and b"<>" in src:
        # tree-sitter-bash does not know the read-write redirection
        # (``exec 3<>/dev/tcp/host/port``); read as ``>|``, two bytes for two,
        # it opens the same file for writing, which every rule judges as the
        # stricter of the two (what is read through it is never clean)
        src = _READ_WRITE.sub(b">|", src)
        tree = parser.parse(src)
    zeros = _zero_descriptors(tree.root_node, src)
    if zeros:
        # ``cmd 0<file``: tree-sitter-bash reads the 0 as a word of the
        # command; bash reads the descriptor of the redirection, which is 0
        # for ``<`` anyway, so a blank in its place reads the same to bash
        for at in zeros:
            src = src[:at] + b" " + src[at + 1 :]
        tree = parser.parse(src)
    for _ in range(64):
        cut = _newline_inside_command(tree.root_node, src)
        if cut is None:
            return tree
        at, replacement = cut
        src = src[:at] + replacement + src[at + len(replacement) :]
        tree = parser.parse(src)
    return tree


#: The ``#`` of an arithmetic base prefix (``10#$n``, ``16#ff``), which
#: tree-sitter-bash cannot parse; read as ``+``, one byte for one, it is the
#: same word (or the same arithmetic operands) to tree-sitter. A ``#`` after a
#: digit never starts a comment.
_BASE_PREFIX = re.compile(rb"(?<![A-Za-z0-9_])([0-9]{1,2})#(?=[$A-Za-z0-9_{])")

#: The read-write redirection operator (bash(1), REDIRECTION: ``[n]<>word``).
_READ_WRITE = re.compile(rb"(?<![<>])<>(?![>&])")

#: What may stand between two words of one simple command and hold the
#: newline that ends it for bash: blanks, escaped newlines, a comment.
_BLANK_GAP = re.compile(rb"(?:[ \t]|\\\n|#[^\n]*)*\n(?:[ \t\n]|\\\n|#[^\n]*)*")


def _newline_inside_command(root: Node, src: bytes) -> tuple[int, bytes] | None:
    """Where tree-sitter reads a newline that ends a simple command for bash
    as a gap between two of its words: the offset, and the bytes of the same
    length that make it a ``;`` there (before a comment on that line)."""
    for node in walk(root):
        if node.type != "command":
            continue
        words = [c for c in node.children if c.type != "comment"]
        for left, right in itertools.pairwise(words):
            gap = src[left.end_byte : right.start_byte]
            if b"\n" not in gap or _BLANK_GAP.fullmatch(gap) is None:
                continue
            at = 0
            while (at := gap.index(b"\n", at)) > 0 and gap[at - 1 : at] == b"\\":
                at += 1  # an escaped newline joins the lines
            comment = gap.find(b"#", 0, at)
            if comment < 0:
                return left.end_byte + at, b";"
            if gap[comment - 1 : comment] in (b" ", b"\t"):
                return left.end_byte + comment - 1, b";"
            return left.end_byte + comment - 2, b" ;"  # ``\⏎# …``: the continuation
    return None


def _zero_descriptors(root: Node, src: bytes) -> list[int]:
    """The offsets of each ``0`` tree-sitter reads as a word of a command
    where bash reads the descriptor of the ``<`` redirection right after it
    (no blank between them)."""
    found = []
    for node in walk(root):
        if node.type not in ("number", "word") or src[node.start_byte : node.end_byte] != b"0":
            continue
        command = node.parent
        if (
            command is not None
            and command.type == "command"
            and command.children[-1] == node
            and src[node.end_byte : node.end_byte + 1] == b"<"
            and src[node.start_byte - 1 : node.start_byte] in (b" ", b"\t")
        ):
            found.append(node.start_byte)
    return found


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
