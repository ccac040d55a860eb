"""The values a bash arithmetic expression can take.

bash's arithmetic works on signed 64-bit integers and wraps silently, so a
result is bounded only when every operand is: ``$(( n + 1 ))`` of an ``n``
that may be any number may be negative. `expression_range` gives the least
and greatest value an expression of the tree can take, or the whole 64-bit
range when it cannot show better. It models only what it can read without
doubt: decimal literals, names whose range the caller supplies, and the
operators that do not assign (``+ - * / % < > <= >= == != && || & | ^ >>``,
unary ``- + ! ~``, ``?:``, parentheses). Anything else (an assignment, an
increment, an array element, a base prefix, a substitution, a ``#``
anywhere in the text, a tree-sitter reading that bash might not share)
gives the whole range.

One fact is relational: in ``a > b ? a - b : …`` (or ``>=``, or the same
with ``<``/``<=`` written the other way round) the difference is not
negative where it is taken.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from mcp_harbor.check._tree import IDENT, node_text
from mcp_harbor.check._tree import walk as walk_nodes

__all__ = ["INT_MAX", "INT_MIN", "Range", "expression_range"]

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
#: the least and the greatest value, both within the 64 bits
Range = tuple[int, int]
_ANY: Range = (INT_MIN, INT_MAX)
_TRUTH: Range = (0, 1)
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,18}")
_COMPARISONS = frozenset({"<", ">", "<=", ">=", "==", "!=", "&&", "||"})
#: the operators that assign nothing
_OPERATORS = _COMPARISONS | {"+", "-", "*", "/", "%", "&", "|", "^", ">>", "<<", "**", "!", "~"}
_GREATER = {">": 1, ">=": 0}
_LESS = {"<": 1, "<=": 0}
#: node types whose meaning `expression_range` knows
_KNOWN = frozenset(
    {
        "arithmetic_expansion",
        "binary_expression",
        "unary_expression",
        "parenthesized_expression",
        "ternary_expression",
        "number",
        "variable_name",
        "simple_expansion",
        "expansion",
    }
)


def _bounded(low: int, high: int) -> Range:
    """`low`..`high`, or the whole range when either is past 64 bits (the
    result may have wrapped)."""
    if low < INT_MIN or high > INT_MAX:
        return _ANY
    return (low, high)


def expression_range(
    src: bytes,
    node: Node,
    name_range: Callable[[str], Range],
    same_value: Callable[[str], str] = lambda name: name,
) -> Range:
    """The least and greatest value of the arithmetic `node` (an
    ``arithmetic_expansion`` or an expression inside one). `name_range`
    gives the range of a variable's value read by name (``NAME``) or put
    in as text (``$NAME``: the text must be a number, never empty);
    `same_value` maps
    names that surely hold the same value (two placeholders of one arg) to
    one key."""
    text = node_text(src, node)
    if "#" in text or "++" in text or "--" in text:
        return _ANY  # a base (2#101), a comment, an increment: not read here
    for inner in walk_nodes(node):
        if (
            inner.is_missing
            or inner.type == "ERROR"
            or (inner.is_named and inner.type not in _KNOWN)
        ):
            return _ANY
        if inner.type in ("binary_expression", "unary_expression"):
            op = inner.child_by_field_name("operator") or inner.children[0]
            if op.type not in _OPERATORS:
                return _ANY  # an assignment (=, +=, …): a name changes midway
    return _range(src, node, name_range, same_value)


def _range(
    src: bytes, node: Node, name_range: Callable[[str], Range], same_value: Callable[[str], str]
) -> Range:
    kind = node.type
    named = [c for c in node.children if c.is_named]
    if kind in ("arithmetic_expansion", "parenthesized_expression"):
        if len(named) != 1:
            return _ANY  # a comma list: an earlier part may assign
        return _range(src, named[0], name_range, same_value)
    if kind == "number":
        text = node_text(src, node)
        return (int(text), int(text)) if _DECIMAL.fullmatch(text) else _ANY
    if kind == "variable_name":
        text = node_text(src, node)
        return name_range(text) if IDENT.fullmatch(text) is not None else _ANY
    if kind in ("simple_expansion", "expansion"):
        # $n, ${n}: bash puts the text in, then reads it; a decimal number
        # reads as itself (the empty text does not read as 0: `name_range`
        # gives the whole range for a name that may be empty when asked
        # for its text)
        if len(named) != 1 or named[0].type != "variable_name":
            return _ANY
        if kind == "expansion" and node_text(src, node) != "${" + node_text(src, named[0]) + "}":
            return _ANY
        text = node_text(src, named[0])
        # a name, or a positional parameter ($1: `name_range` knows its calls)
        known = IDENT.fullmatch(text) is not None or (text.isdigit() and text != "0")
        return name_range("$" + text) if known else _ANY
    if kind == "unary_expression":
        operator = node.children[0].type if node.children else ""
        if len(named) != 1 or named[0].type in ("binary_expression", "ternary_expression"):
            # tree-sitter reads -(a) + b as -((a) + b); bash binds the
            # sign to (a) alone: a reading not shared is not read
            return _ANY
        low, high = _range(src, named[0], name_range, same_value)
        if operator == "-":
            return _bounded(-high, -low)
        if operator == "+":
            return (low, high)
        if operator == "!":
            return _TRUTH
        if operator == "~":
            return (-high - 1, -low - 1)
        return _ANY
    if kind == "binary_expression":
        return _binary(src, node, name_range, same_value)
    if kind == "ternary_expression":
        condition = node.child_by_field_name("condition")
        then = node.child_by_field_name("consequence")
        otherwise = node.child_by_field_name("alternative")
        if condition is None or then is None or otherwise is None:
            return _ANY
        low, high = _range(src, then, name_range, same_value)
        floor = _guarded_difference(src, condition, then, same_value)
        if floor is not None and high != INT_MAX:
            low = max(low, floor)  # high: the difference did not wrap
        other_low, other_high = _range(src, otherwise, name_range, same_value)
        return (min(low, other_low), max(high, other_high))
    return _ANY


def _binary(
    src: bytes, node: Node, name_range: Callable[[str], Range], same_value: Callable[[str], str]
) -> Range:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    op = node.child_by_field_name("operator")
    if left is None or right is None or op is None:
        return _ANY
    operator = op.type
    if operator in _COMPARISONS:
        return _TRUTH
    a_low, a_high = _range(src, left, name_range, same_value)
    b_low, b_high = _range(src, right, name_range, same_value)
    if operator == "+":
        return _bounded(a_low + b_low, a_high + b_high)
    if operator == "-":
        return _bounded(a_low - b_high, a_high - b_low)
    if operator == "*":
        corners = [a_low * b_low, a_low * b_high, a_high * b_low, a_high * b_high]
        return _bounded(min(corners), max(corners))
    if a_low < 0 or b_low < 0:
        return _ANY
    # both sides not negative from here (a division by zero is an error,
    # not a value)
    if operator == "/":
        return (0, a_high // max(b_low, 1))
    if operator == "%":
        return (0, min(a_high, max(b_high - 1, 0)))
    if operator == "&":
        return (0, min(a_high, b_high))
    if operator in ("|", "^"):
        return (0, (1 << max(a_high, b_high).bit_length()) - 1)
    if operator == ">>":
        return (0, a_high)
    return _ANY


def _guarded_difference(
    src: bytes, condition: Node, then: Node, same_value: Callable[[str], str]
) -> int | None:
    """The least value of `then` when it is ``a - b`` under the condition
    ``a > b`` (1) or ``a >= b`` (0), written either way round; None when
    it is not."""
    while condition.type == "parenthesized_expression":
        inner = [c for c in condition.children if c.is_named]
        if len(inner) != 1:
            return None
        condition = inner[0]
    if condition.type != "binary_expression" or then.type != "binary_expression":
        return None
    op = condition.child_by_field_name("operator")
    c_left = condition.child_by_field_name("left")
    c_right = condition.child_by_field_name("right")
    t_op = then.child_by_field_name("operator")
    t_left = then.child_by_field_name("left")
    t_right = then.child_by_field_name("right")
    if None in (op, c_left, c_right, t_op, t_left, t_right):
        return None
    assert op is not None and c_left is not None and c_right is not None
    assert t_op is not None and t_left is not None and t_right is not None
    if t_op.type != "-":
        return None

    def key(part: Node) -> str:
        text = IDENT.sub(lambda m: same_value(m.group(0)), node_text(src, part))
        return "".join(text.split())

    minuend, subtrahend = key(t_left), key(t_right)
    larger, smaller = key(c_left), key(c_right)
    if op.type in _GREATER and (larger, smaller) == (minuend, subtrahend):
        return _GREATER[op.type]
    if op.type in _LESS and (smaller, larger) == (minuend, subtrahend):
        return _LESS[op.type]
    return None
