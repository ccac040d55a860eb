"""tree-sitter's reading of a script, once, and questions about its nodes.

Everything here is a pure function of the script text and its tree: the
parse (`parsed`, cached by text so that the analysis, ``audit map``
(`mcp_harbor.check.flows`) and preflight's programs
(`mcp_harbor.check.commands`) share one parse and one walk of each script),
the words of a command line (`command_words`), the text of a word after quote
removal (`static_text`), whether a here-document is quoted, whether a node is
evaluated as arithmetic. Nothing here knows about caller data.

Guarantees: `parsed` returns the same facts as parsing the text again (a tree
is never changed after it is made); `static_text` is None for any word that
expands something, never a guess.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from tree_sitter import Node, Tree

from mcp_harbor.check._gates import parse_tree, tree_error, walk

_W = TypeVar("_W")

__all__ = [
    "IDENT",
    "VARIABLE",
    "Parsed",
    "ancestors",
    "clear_cache",
    "command_words",
    "dequoted_prefix",
    "dq_unescape",
    "expansion_target",
    "heredoc_quoted",
    "in_arithmetic",
    "in_quoted_operand",
    "node_text",
    "normal_path",
    "parsed",
    "static_text",
    "walk",
    "without_pairs",
]

#: A shell name (of a variable or a function).
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: A read of one variable by its name, ``$v`` or ``${v}`` (the name in group
#: 1 or 2).
VARIABLE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
_ARITH_TEST_OPS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
#: The only types of ancestor at which `in_arithmetic` answers True.
_ARITHMETIC_ANCESTORS = frozenset(
    {
        "arithmetic_expansion",
        "c_style_for_statement",
        "compound_statement",
        "subscript",
        "binary_expression",
        "expansion",
    }
)
_DQ_UNESCAPE = re.compile(r'\\([$`"\\\n])')
_WORD_UNESCAPE = re.compile(r"\\(.)", re.S)


# ---------------------------------------------------------------- the parse


@dataclass(frozen=True, slots=True)
class Parsed:
    """One script text as tree-sitter reads it, walked once."""

    text: str
    src: bytes  # `text` in UTF-8: every node's offsets are offsets into it
    tree: Tree
    #: the first ERROR or MISSING node (None: tree-sitter read the whole script)
    error: Node | None
    #: every node, in document order
    nodes: tuple[Node, ...]
    #: the names of the functions the script defines
    functions: frozenset[str]
    #: their bodies, by name (a name defined twice has two)
    function_bodies: Mapping[str, tuple[Node, ...]]
    #: the types of its nodes
    kinds: frozenset[str] = frozenset()
    #: facts worked out from the tree on first use (`of_type`, `reads`,
    #: `arithmetic`): pure functions of it, so kept with it
    _memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def commands(self) -> Iterator[tuple[Node, list[Node]]]:
        """Every ``command`` node, in document order, with its words
        (`command_words`)."""
        for node in self.nodes:
            if node.type == "command":
                yield node, command_words(node)

    def of_type(self, kind: str) -> tuple[Node, ...]:
        """The nodes of type `kind`, in document order."""
        key = ("type", kind)
        found: tuple[Node, ...] | None = self._memo.get(key)
        if found is None:
            found = (
                tuple(node for node in self.nodes if node.type == kind)
                if kind in self.kinds
                else ()
            )
            self._memo[key] = found
        return found

    def reads(self) -> tuple[tuple[Node, str | None, bool], ...]:
        """Every place that reads a variable by its name, in document order:
        ``(node, name, expansion)`` for each ``$V`` and ``${…}`` (`expansion`
        True; the name is `expansion_target`'s, None when it reads no plain
        variable), and each name (a ``variable_name`` or ``word``) that bash
        evaluates as arithmetic (`in_arithmetic`) outside an expansion."""
        found: tuple[tuple[Node, str | None, bool], ...] | None = self._memo.get("reads")
        if found is None:
            out: list[tuple[Node, str | None, bool]] = []
            # no node of these types: no ancestor `in_arithmetic` answers True at
            arithmetic = not self.kinds.isdisjoint(_ARITHMETIC_ANCESTORS)
            for node in self.nodes:
                kind = node.type
                if kind in ("simple_expansion", "expansion"):
                    out.append((node, expansion_target(self.src, node), True))
                elif (
                    arithmetic
                    and kind in ("variable_name", "word")
                    and self.arithmetic(node)
                    and not _expansion_own_name(node)
                ):
                    out.append((node, node_text(self.src, node), False))
            found = tuple(out)
            self._memo["reads"] = found
        return found

    def arithmetic(self, node: Node) -> bool:
        """`in_arithmetic` of `node`, a node of this tree."""
        key = ("arith", node)
        found: bool | None = self._memo.get(key)
        if found is None:
            found = not self.kinds.isdisjoint(_ARITHMETIC_ANCESTORS) and in_arithmetic(
                self.src, node
            )
            self._memo[key] = found
        return found


#: Scripts kept parsed: enough for every script of a batch of exports to be
#: parsed once while the analysis and `programs_of` both read it.
_PARSED_KEPT = 512


@lru_cache(maxsize=_PARSED_KEPT)
def parsed(text: str) -> Parsed:
    """tree-sitter's parse of `text`, its first error and its nodes (cached
    by text: the same facts every time)."""
    tree = parse_tree(text)
    src = text.encode("utf-8")
    found: list[Node] = []
    stack = [tree.root_node]
    while stack:  # `walk`, without a generator's cost per node
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.children))
    nodes = tuple(found)
    kinds = [node.type for node in nodes]
    names: set[str] = set()
    bodies: dict[str, list[Node]] = {}
    for node, kind in zip(nodes, kinds, strict=True):
        if kind == "function_definition":
            name = node_text(src, node.child_by_field_name("name") or node)
            names.add(name)
            body = node.child_by_field_name("body")
            if body is not None:
                bodies.setdefault(name, []).append(body)
    return Parsed(
        text,
        src,
        tree,
        tree_error(tree),
        nodes,
        frozenset(names),
        {name: tuple(found) for name, found in bodies.items()},
        frozenset(kinds),
    )


def clear_cache() -> None:
    """Forget the kept parses (benchmarks, tests)."""
    parsed.cache_clear()


def command_words(node: Node) -> list[Node]:
    """The words of the command line `node`: its command word, then its
    arguments (not its assignments or redirections), in order."""
    return [
        child
        for index, child in enumerate(node.children)
        if node.field_name_for_child(index) in ("name", "argument")
    ]


def without_pairs(words: Sequence[_W], drops: Callable[[int], bool]) -> list[_W]:
    """`words` without each word `k` that `drops(k)` is true of, and the
    word after it (an option and its value: ``-K FILE``, ``-w FORMAT``)."""
    kept: list[_W] = []
    skip = False
    for k, word in enumerate(words):
        if skip:
            skip = False
        elif drops(k):
            skip = True
        else:
            kept.append(word)
    return kept


# ---------------------------------------------------------------- node text


def ancestors(node: Node) -> Iterator[Node]:
    """`node`, its parent, and so on up to the root."""
    current: Node | None = node
    while current is not None:
        yield current
        current = current.parent


def node_text(src: bytes, node: Node) -> str:
    """The source text of `node`."""
    return src[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _expansion_own_name(node: Node) -> bool:
    """`node` is the variable an expansion reads (``x`` of ``${x:1:n}``),
    not a name in its offset or length (``n``, which bash evaluates as
    arithmetic)."""
    parent = node.parent
    if (
        parent is not None
        and parent.type == "subscript"
        and parent.child_by_field_name("name") == node
    ):
        node, parent = parent, parent.parent  # ${#a[@]}: the array's name
    if parent is None or parent.type not in ("simple_expansion", "expansion"):
        return False
    for child in parent.children:
        if child.type in ("variable_name", "special_variable_name", "subscript"):
            return (child.start_byte, child.end_byte) == (node.start_byte, node.end_byte)
    return False


def expansion_target(src: bytes, node: Node) -> str | None:
    """The variable the expansion `node` reads (None if not a plain read)."""
    for child in node.children:
        if child.type in ("variable_name", "special_variable_name"):
            return node_text(src, child)
        if child.type == "subscript":
            name = child.child_by_field_name("name")
            return node_text(src, name) if name is not None else None
    return None


def dq_unescape(raw: str) -> str:
    """Text inside double quotes after bash's backslash removal there."""
    if "\\" not in raw:
        return raw
    return _DQ_UNESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


def static_text(src: bytes, node: Node) -> str | None:
    """The text of a word after quote removal, or None if it expands anything."""
    kind = node.type
    if kind in ("word", "number"):
        raw = node_text(src, node)
        if "$" in raw or "`" in raw:
            return None
        if "\\" not in raw:
            return raw  # nothing for quote removal to take away
        return _WORD_UNESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)
    if kind == "raw_string":
        return node_text(src, node)[1:-1]
    if kind == "string":
        parts: list[str] = []
        for child in node.children:
            if child.type == '"':
                continue
            if child.type != "string_content":
                return None
            parts.append(dq_unescape(node_text(src, child)))
        return "".join(parts)
    if kind == "ansi_c_string":
        body = node_text(src, node)[2:-1]
        try:
            return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
        except (UnicodeDecodeError, ValueError):
            return None
    if kind in ("concatenation", "command_name"):
        out: list[str] = []
        for child in node.children:
            part = static_text(src, child)
            if part is None:
                return None
            out.append(part)
        return "".join(out)
    return None


#: The runtime's absolute folders: never empty, always led by ``/``.
_RUNTIME_FOLDER = re.compile(r"\$\{?(?:HARBOR_RUN_DIR|TMPDIR|HOME|PWD)\}?")
#: An expansion that may be empty (a variable the server may not have, a
#: command's output): no text of the author's that surely stands first.
_MAYBE_EMPTY = re.compile(
    r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|\$\([^()]*\)|`[^`]*`"
)


def dequoted_prefix(raw: str) -> str:
    """The author's text that surely stands before a piece of caller data,
    quotes removed: the runtime's absolute folders stand as ``/``, and an
    expansion that may be empty (``$SNAPSHOT_ROOT`` from ``pass_env:``)
    stands as nothing."""
    raw = _MAYBE_EMPTY.sub("", _RUNTIME_FOLDER.sub("/", raw))
    return raw.replace("'", "").replace('"', "").replace("\\", "").lstrip("$")


#: A process's view of the working folder (``/proc/self/cwd/…``, any pid)
#: and of the root (``/proc/self/root/…``), proc(5): the same files.
_PROC_CWD = re.compile(r"^/proc/[^/]+/cwd(?:/+|$)")
_PROC_ROOT = re.compile(r"^/proc/[^/]+/root(?=/|$)")


def normal_path(path: str) -> str:
    """`path` without leading ``./``, and with ``/proc/PID/cwd/`` read as
    the working folder it is (a relative path) and ``/proc/PID/root`` as
    ``/``."""
    path = _PROC_ROOT.sub("", _PROC_CWD.sub("", path, count=1), count=1) or path
    while path.startswith("./"):
        path = path[2:]
    return path


# ---------------------------------------------------------------- contexts


def heredoc_quoted(src: bytes, body: Node) -> bool:
    """The here-document of `body` has a quoted delimiter (its body is
    literal text); True when that cannot be told."""
    redirect = body.parent
    if redirect is None:
        return True
    for child in redirect.children:
        if child.type == "heredoc_start":
            raw = node_text(src, child)
            return any(c in raw for c in "'\"\\")
    return True


def in_quoted_operand(node: Node) -> bool:
    """`node` is inside the operand of a ``${…}`` expansion that is itself
    inside double quotes."""
    parent = node.parent
    while parent is not None:
        if parent.type == "expansion":
            outer = parent.parent
            while outer is not None:
                if outer.type in ("string", "translated_string"):
                    return True
                if outer.type in ("command", "command_substitution", "program"):
                    return False
                outer = outer.parent
            return False
        if parent.type in ("command", "command_substitution", "program"):
            return False
        parent = parent.parent
    return False


def in_arithmetic(src: bytes, node: Node) -> bool:
    """bash evaluates `node` as arithmetic: inside ``$((…))``, ``((…))``, a
    C-style ``for``, an array subscript, an arithmetic comparison of
    ``[[ … ]]`` or the offset of ``${v:…}``."""
    child = node
    for parent in ancestors(node.parent) if node.parent is not None else iter(()):
        kind = parent.type
        if kind in ("command_substitution", "process_substitution", "program"):
            return False
        if kind == "arithmetic_expansion":
            return True
        if kind == "c_style_for_statement":
            # its (( init; test; step )) are arithmetic; its body is not
            return child.type not in ("do_group", "compound_statement")
        if kind == "compound_statement" and src[parent.start_byte : parent.start_byte + 2] == b"((":
            return True
        if kind == "subscript" and parent.child_by_field_name("index") is not None:
            index = parent.child_by_field_name("index")
            if (
                index is not None
                and index.start_byte <= child.start_byte
                and child.end_byte <= index.end_byte
            ):
                return True
        if kind == "binary_expression":
            op = parent.child_by_field_name("operator")
            if op is not None and node_text(src, op) in _ARITH_TEST_OPS:
                in_test = any(
                    a.type == "test_command" and node_text(src, a).startswith("[[")
                    for a in ancestors(parent)
                )
                if in_test:
                    return True
        if kind == "expansion":
            ops = [c for c in parent.children if c.type == ":"]
            target = next(
                (
                    c
                    for c in parent.children
                    if c.type in ("variable_name", "special_variable_name", "subscript")
                ),
                None,
            )
            own = target is not None and (child.start_byte, child.end_byte) == (
                target.start_byte,
                target.end_byte,
            )
            if ops and not own:
                return True
        child = parent
    return False
