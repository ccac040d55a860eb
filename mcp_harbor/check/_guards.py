"""Guards: the tests a script makes of a value before it uses it.

``[[ $n =~ ^[0-9]+$ ]] && (( n > 3 ))``, ``if [[ $n =~ ^[0-9]+$ ]]; then
…; fi``, ``[[ $n =~ ^[0-9]+$ ]] || exit 1``: bash itself shows the name to
hold digits where the use runs (bash(1), Conditional Expressions: ``=~``
matches an extended regular expression; an anchored digits-only one
matches digits alone). `matched_digits` answers for one use; the analysis
gives such a use the model of a number (`mcp_harbor.check._taint`).

Guarantees: pure (a function of the script's tree); a use is said to hold
digits only on a path where the test held and nothing assigned the name
since (any assignment, ``read``, loop, function or ``printf -v`` of it in
between says no).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tree_sitter import Node

from mcp_harbor.check._tree import ancestors, node_text, walk

__all__ = ["matched_digits"]


#: A ``[[ =~ ]]`` regular expression that only digits match whole (an
#: optional leading ``-``): what it matched is a number to arithmetic.
_DIGITS_REGEX = re.compile(
    r"\^(?:-\??|\[-\]\?)?"
    r"(?:\[0-9\]|\[\[:digit:\]\])(?:\+|\*|\{[0-9]+(?:,[0-9]*)?\})\$"
)
#: The same without a sign: what it matched cannot start with ``-``.
_UNSIGNED_REGEX = re.compile(r"\^(?:\[0-9\]|\[\[:digit:\]\])(?:\+|\*|\{[0-9]+(?:,[0-9]*)?\})\$")
#: Builtins that assign the names they are given.
_ASSIGNING = frozenset(
    {"read", "mapfile", "readarray", "let", "declare", "typeset", "local", "export",
     "readonly", "unset", "printf", "getopts"}
)  # fmt: skip


#: One ``$NAME =~ REGEX`` of a ``[[ ]]`` read from its text (tree-sitter
#: misreads ``[[ $a =~ r && $b =~ r ]]`` and ``[[ ! $a =~ r ]]``).
_MATCH_PART = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\s*=~\s*(\S+)")


def _digits_names(src: bytes, node: Node, unsigned: bool = False) -> tuple[frozenset[str], bool]:
    """The names ``[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]]`` (the test
    command `node`, or a ``&&`` list of them, or one negated with ``!``)
    shows to hold digits when it is true, and whether it is negated (then
    they hold digits when it is false). Empty when it is no such test."""
    if node.type == "negated_command":
        tested = [c for c in node.children if c.is_named]
        held, negated = (
            _digits_names(src, tested[0], unsigned) if len(tested) == 1 else (frozenset(), False)
        )
        return (held, not negated) if held else (frozenset(), False)
    if node.type == "list":
        operators = {node_text(src, c) for c in node.children if c.type in ("&&", "||")}
        if operators != {"&&"}:
            return frozenset(), False
        found: set[str] = set()
        for part in (c for c in node.children if c.type not in ("&&", "||")):
            held, negated = _digits_names(src, part, unsigned)
            if not negated:
                found |= held
        return frozenset(found), False
    if node.type != "test_command":
        return frozenset(), False
    text = node_text(src, node)
    if not (text.startswith("[[") and text.endswith("]]")):
        return frozenset(), False
    inner = text[2:-2].strip()
    negated = inner.startswith("!")
    if negated:
        inner = inner[1:].strip()
    if "||" in inner or "(" in inner.split("=~", 1)[0]:
        return frozenset(), False
    names: set[str] = set()
    for piece in inner.split("&&"):
        match = _MATCH_PART.fullmatch(piece.strip())
        pattern = _UNSIGNED_REGEX if unsigned else _DIGITS_REGEX
        if match is None or not pattern.fullmatch(match.group(2)):
            return frozenset(), False
        names.add(match.group(1))
    if negated and len(names) > 1:
        return frozenset(), False  # ! (a && b): one of them may not hold
    return frozenset(names), negated


def _digits_test(src: bytes, node: Node, name: str, unsigned: bool = False) -> bool:
    """`node` (a test, or a ``&&`` list of them) shows `name` to hold
    digits when it is true."""
    names, negated = _digits_names(src, node, unsigned)
    return name in names and not negated


def _leaves(src: bytes, node: Node) -> bool:
    """`node` always leaves what runs after it: ``exit``, ``return`` in a
    function, ``continue`` or ``break`` in a loop of the same function, or
    a ``{ …; }`` that ends with one."""
    if node.type == "compound_statement":
        named = [c for c in node.children if c.is_named]
        return bool(named) and _leaves(src, named[-1])
    if node.type != "command":
        return False
    name = node.child_by_field_name("name")
    word = node_text(src, name) if name is not None else ""
    if word == "exit":
        return True
    if word not in ("return", "continue", "break"):
        return False
    # continue and break leave only a loop of the same function (bash 5.2
    # says "only meaningful in a loop" in a function a loop calls, and goes
    # on); return only a function (at the top it fails, and bash goes on)
    for parent in ancestors(node):
        if parent.type == "function_definition":
            return word == "return"
        if word != "return" and parent.type in (
            "for_statement",
            "c_style_for_statement",
            "while_statement",
            "until_statement",
        ):
            return True
    return False


def _guards(src: bytes, node: Node, name: str, unsigned: bool = False) -> bool:
    """The statement `node` leaves unless `name` holds digits: ``[[ $n =~
    ^[0-9]+$ ]] || exit``, ``[[ ! $n =~ … ]] && continue``, ``if ! [[ $n
    =~ … ]]; then …; exit 1; fi``."""
    if node.type == "list":
        kids = [c for c in node.children if c.type not in ("&&", "||")]
        operators = [node_text(src, c) for c in node.children if c.type in ("&&", "||")]
        if len(kids) != 2 or not _leaves(src, kids[1]):
            return False
        held, negated = _digits_names(src, kids[0], unsigned)
        return name in held and negated == (operators == ["&&"])
    if node.type == "if_statement":
        if any(c.type in ("elif_clause", "else_clause") for c in node.children):
            return False
        conditions = node.children_by_field_name("condition")
        body = [
            c
            for c in node.children
            if c.is_named and c not in conditions and c.type not in ("elif_clause", "else_clause")
        ]
        tests = [_digits_names(src, c, unsigned) for c in conditions]
        return (
            bool(body)
            and _leaves(src, body[-1])
            and any(name in found and negated for found, negated in tests)
        )
    return False


def _assigns(src: bytes, nodes: Sequence[Node], name: str) -> bool:
    """A statement among `nodes` may assign `name`."""
    for top in nodes:
        for node in walk(top):
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None and node_text(src, target).split("[", 1)[0] == name:
                    return True
            elif node.type in ("command", "declaration_command", "unset_command"):
                if node_text(src, node).split(None, 1)[0] in _ASSIGNING and name in {
                    node_text(src, c).strip("'\"") for c in node.children
                } | {
                    node_text(src, a).strip("'\"") for a in node.children_by_field_name("argument")
                }:
                    return True
            elif node.type in ("for_statement", "c_style_for_statement", "function_definition"):
                return True  # a loop or a function may assign it again
    return False


def matched_digits(src: bytes, node: Node, name: str, unsigned: bool = False) -> bool:
    """`node` (a use of `name`) runs only after ``[[ $name =~ ^[0-9]+$ ]]``
    held: on the right of ``&&`` after it, in the ``then`` body of an
    ``if`` whose condition is it, or below a guard that leaves otherwise
    (``|| exit``), with no assignment of `name` between. `unsigned`: the
    regular expression admits no ``-`` either."""
    child = node
    for parent in ancestors(node):
        if parent.type == "list":
            kids = [c for c in parent.children if c.type not in ("&&", "||")]
            operators = [node_text(src, c) for c in parent.children if c.type in ("&&", "||")]
            if (
                len(kids) == 2
                and operators == ["&&"]
                and kids[1] == child
                and _digits_test(src, kids[0], name, unsigned)
                and not _assigns(src, [child], name)
            ):
                return True
        elif parent.type == "if_statement":
            conditions = parent.children_by_field_name("condition")
            body: list[Node] = []
            after_then = False
            for c in parent.children:
                if c.type == "then":
                    after_then = True
                elif c.type in ("elif_clause", "else_clause", "fi"):
                    break
                elif after_then:
                    body.append(c)
            if (
                child in body
                and any(_digits_test(src, c, name, unsigned) for c in conditions)
                and not _assigns(src, body[: body.index(child) + 1], name)
            ):
                return True
        if parent.type in ("program", "compound_statement", "do_group", "if_statement"):
            # a guard that leaves earlier in the same block
            siblings = [c for c in parent.children if c.is_named]
            if child in siblings:
                before = siblings[: siblings.index(child)]
                for k, statement in enumerate(before):
                    if _guards(src, statement, name, unsigned) and not _assigns(
                        src, [*before[k + 1 :], child], name
                    ):
                        return True
        if parent.type in ("function_definition", "program"):
            return False
        child = parent
    return False
