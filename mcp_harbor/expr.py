"""The ``if:`` language: a tiny expression language over earlier steps'
outcomes and the caller's typed arguments. Parsed and validated at load;
evaluated by walking the tree, never by ``eval``.

Grammar::

    expr    := or
    or      := and (("or" | "||") and)*
    and     := not (("and" | "&&") not)*
    not     := ("not" | "!") not | compare
    compare := value (("==" | "!=" | "<" | "<=" | ">" | ">=") value)?
    value   := "true" | "false" | "null" | NUMBER | STRING | ref | "(" expr ")"
    ref     := "args" "." NAME
             | "steps" "." NAME "." ("ok" | "failed" | "skipped" | "timeout"
                                     | "status" | "exit_code")
             | "steps" "." NAME "." "outputs" "." KEY
             | "answer" ("." KEY)*          (an agent step's assert: only)

Strings are single- or double-quoted, without escapes. ``==``/``!=`` compare
values of any type (``1 == true`` is false); ordering needs two numbers or two
strings. A missing output or an arg that was not sent is ``null``. Anything
else is an error at load (with its column) or, for a type mismatch only
values reveal, false at run time.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["STEP_FIELDS", "Expr", "ExprError", "Ref", "parse_expr"]

#: What ``steps.NAME.<field>`` may read.
STEP_FIELDS = frozenset({"ok", "failed", "skipped", "timeout", "status", "exit_code"})

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>-?\d+(?:\.\d+)?)
      | (?P<str>'[^']*'|"[^"]*")
      | (?P<op>==|!=|<=|>=|&&|\|\||[<>!().])
      | (?P<name>[A-Za-z_][A-Za-z0-9_-]*)
    )""",
    re.VERBOSE,
)


class ExprError(ValueError):
    """An ``if:`` expression that does not parse or names what does not exist."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True, slots=True)
class Ref:
    kind: Literal["arg", "step", "output", "answer"]
    name: str
    field: str = ""


@dataclass(frozen=True, slots=True)
class Expr:
    """A parsed expression: a small tree of tuples, plus what it reads."""

    text: str
    tree: Any
    refs: tuple[Ref, ...]

    @property
    def reads_outcomes(self) -> bool:
        """Whether it looks at steps (then it is evaluated even after a failure)."""
        return any(r.kind in ("step", "output") for r in self.refs)

    def evaluate(
        self,
        args: Mapping[str, Any],
        steps: Mapping[str, Mapping[str, Any]],
        answer: Any = None,
    ) -> bool:
        """True or false; a comparison of mismatched types is false.
        `answer` is what ``answer`` reads (an agent step's validated answer)."""
        return _truthy(_eval(self.tree, args, steps, answer))


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            rest = text[pos:]
            column = pos + len(rest) - len(rest.lstrip()) + 1
            raise ExprError(f"unexpected {rest.strip()[:12]!r}", column)
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind), match.start(kind) + 1))
        pos = match.end()
    out.append(("end", "", len(text) + 1))
    return out


class _Parser:
    def __init__(
        self, text: str, args: Collection[str], steps: Collection[str], answer: bool = False
    ) -> None:
        self.tokens = _tokens(text)
        self.i = 0
        self.args = args
        self.steps = steps
        self.answer = answer
        self.refs: list[Ref] = []

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        token = self.tokens[self.i]
        if value is not None and token[1] != value:
            raise ExprError(f"expected {value!r}, found {token[1] or 'the end'!r}", token[2])
        self.i += 1
        return token

    def expr(self) -> Any:
        left = self.and_()
        while self.peek()[1] in ("or", "||"):
            self.take()
            left = ("or", left, self.and_())
        return left

    def and_(self) -> Any:
        left = self.not_()
        while self.peek()[1] in ("and", "&&"):
            self.take()
            left = ("and", left, self.not_())
        return left

    def not_(self) -> Any:
        if self.peek()[1] in ("not", "!"):
            self.take()
            return ("not", self.not_())
        return self.compare()

    def compare(self) -> Any:
        left = self.value()
        if self.peek()[1] in ("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            return ("cmp", op, left, self.value())
        return left

    def value(self) -> Any:
        kind, text, column = self.take()
        if kind == "num":
            return ("lit", float(text) if "." in text else int(text))
        if kind == "str":
            return ("lit", text[1:-1])
        if text == "(":
            inner = self.expr()
            self.take(")")
            return inner
        if kind == "name":
            if text in ("true", "false"):
                return ("lit", text == "true")
            if text == "null":
                return ("lit", None)
            if text == "args":
                return self.arg_ref()
            if text == "steps":
                return self.step_ref(column)
            if text == "answer" and self.answer:
                return self.answer_ref()
            also = ", answer.KEY" if self.answer else ""
            raise ExprError(
                f"unknown name {text!r}: use args.NAME, steps.NAME.FIELD{also} or a literal",
                column,
            )
        raise ExprError(f"unexpected {text or 'end of expression'!r}", column)

    def name_after_dot(self) -> tuple[str, int]:
        self.take(".")
        kind, text, column = self.take()
        if kind != "name":
            raise ExprError(f"expected a name after '.', found {text!r}", column)
        return text, column

    def arg_ref(self) -> Any:
        name, column = self.name_after_dot()
        if name not in self.args:
            known = ", ".join(sorted(self.args)) or "none"
            raise ExprError(f"args.{name}: no such arg (declared: {known})", column)
        self.refs.append(Ref("arg", name))
        return ("arg", name)

    def answer_ref(self) -> Any:
        keys: list[str] = []
        while self.peek()[1] == ".":
            key, _ = self.name_after_dot()
            keys.append(key)
        self.refs.append(Ref("answer", ".".join(keys)))
        return ("answer", tuple(keys))

    def step_ref(self, column: int) -> Any:
        name, name_column = self.name_after_dot()
        if name not in self.steps:
            known = ", ".join(self.steps) or "none"
            raise ExprError(
                f"steps.{name}: no earlier step of that name (earlier steps: {known})",
                name_column,
            )
        field, field_column = self.name_after_dot()
        if field == "outputs":
            key, _ = self.name_after_dot()
            self.refs.append(Ref("output", name, key))
            return ("output", name, key)
        if field not in STEP_FIELDS:
            raise ExprError(
                f"steps.{name}.{field}: use one of {', '.join(sorted(STEP_FIELDS))} or outputs.KEY",
                field_column,
            )
        self.refs.append(Ref("step", name, field))
        return ("step", name, field)


def parse_expr(
    text: str, args: Collection[str], steps: Collection[str], *, answer: bool = False
) -> Expr:
    """Parse an ``if:`` expression that may read `args` and the earlier
    `steps` (and, with `answer`, ``answer``: an agent step's ``assert:``).

    Raises:
        ExprError: with the 1-based column of the problem.
    """
    if not text.strip():
        raise ExprError("the expression is empty", 1)
    parser = _Parser(text, args, steps, answer)
    tree = parser.expr()
    kind, token, column = parser.peek()
    if kind != "end":
        raise ExprError(f"unexpected {token!r} after a complete expression", column)
    return Expr(text, tree, tuple(parser.refs))


def _truthy(value: Any) -> bool:
    return value is True or (value not in (None, False, 0, "", 0.0) and not isinstance(value, bool))


def _eval(
    node: Any, args: Mapping[str, Any], steps: Mapping[str, Mapping[str, Any]], answer: Any = None
) -> Any:
    tag = node[0]
    if tag == "lit":
        return node[1]
    if tag == "answer":
        value = answer
        for key in node[1]:
            value = value.get(key) if isinstance(value, Mapping) else None
        return value
    if tag == "arg":
        return args.get(node[1])
    if tag == "step":
        return steps.get(node[1], {}).get(node[2])
    if tag == "output":
        return steps.get(node[1], {}).get("outputs", {}).get(node[2])
    if tag == "not":
        return not _truthy(_eval(node[1], args, steps, answer))
    if tag == "and":
        return _truthy(_eval(node[1], args, steps, answer)) and _truthy(
            _eval(node[2], args, steps, answer)
        )
    if tag == "or":
        return _truthy(_eval(node[1], args, steps, answer)) or _truthy(
            _eval(node[2], args, steps, answer)
        )
    _, op, left_node, right_node = node
    left, right = _eval(left_node, args, steps, answer), _eval(right_node, args, steps, answer)
    if op in ("==", "!="):
        same = type(left) is type(right) and left == right
        if isinstance(left, int | float) and isinstance(right, int | float):
            same = not isinstance(left, bool) and not isinstance(right, bool) and left == right
            same = same or (isinstance(left, bool) and isinstance(right, bool) and left == right)
        return same if op == "==" else not same
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right))
    strings = isinstance(left, str) and isinstance(right, str)
    if not (numbers or strings):
        return False
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]
