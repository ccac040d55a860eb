"""What a caller's value can look like, derived from its arg's JSON Schema.

The model is an over-approximation: every value the runtime validator
(`mcp_harbor.arguments`) can accept has its text form (`template.value_text`)
described by the model. Only ASCII characters matter to bash's grammar, so the
model tracks which ASCII characters may occur, which may come first, whether
the text may be empty, and whether it is a finite set of author-written words
(``enum``/``const``) or a number/boolean.

Patterns are analysed with Python's own regex parser. The runtime validator
matches them against the **whole** value (`re.fullmatch`), so the characters a
pattern can consume bound the value even without ``^``/``$`` anchors.
"""

from __future__ import annotations

import importlib
import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from mcp_harbor.config.canonical import canonical_json
from mcp_harbor.config.model import refuses_leading_dash
from mcp_harbor.template import value_text

# The regex parser's own modules (Python 3.11+); typeshed does not describe them.
_sre_c: Any = importlib.import_module("re._constants")
_sre_p: Any = importlib.import_module("re._parser")

__all__ = ["SAFE_CHARS", "ValueModel", "intersect", "model_for", "pattern_model", "words_model"]

_ASCII = frozenset(chr(i) for i in range(128))
#: Characters that are never special to bash, in any quoting context
#: (the set `shlex.quote` leaves bare).
SAFE_CHARS = frozenset(string.ascii_letters + string.digits + "_@%+=:,./-")
_DIGITS = frozenset(string.digits)
_NUMBER_CHARS = frozenset(string.digits + "-+.eE") | frozenset("NaInfity")
_ANY = _ASCII - {"\x00"}


@dataclass(frozen=True, slots=True)
class ValueModel:
    """The possible text of a value.

    Attributes:
        chars: the ASCII characters that may occur.
        first: the ASCII characters that may come first.
        can_be_empty: the text may be the empty string.
        numeric: every value is a JSON number or a boolean.
        words: the finite set of possible texts, or None.
    """

    chars: frozenset[str]
    first: frozenset[str]
    can_be_empty: bool
    numeric: bool = False
    words: frozenset[str] | None = None
    #: the folder validation keeps the value inside (``within:``), a path
    #: of the server's that the value cannot lead out of
    within: str | None = None
    #: the ASCII characters that may come last (None: not known, any)
    last: frozenset[str] | None = None
    #: the least and the greatest value of a whole number, when every text
    #: is one written in decimal (None: not known)
    least: int | None = None
    most: int | None = None
    #: the author's texts one of which every value starts with (a
    #: ``pattern``'s literal start: ``^https://(www|docs)\\.example\\.com/``),
    #: or None
    heads: frozenset[str] | None = None
    #: the model of each item of an array (its ``items`` schema), or None
    items: ValueModel | None = None
    #: every value is JSON texts, one after another on their own lines
    #: (what jq prints without a raw output option): in bash arithmetic the
    #: first token is a number, ``true``/``false``/``null`` (never followed
    #: by ``[``), or ``"``, ``{``, ``[``, which end it with an error
    json: bool = False

    @property
    def inert(self) -> bool:
        """No character of the value is special to bash anywhere."""
        return self.chars <= SAFE_CHARS

    @property
    def inert_code(self) -> bool:
        """Safe even inside another language's program: a number that
        cannot start with ``-``, a boolean or one of the author's own
        words. (A number that may be negative is not: after a ``-`` it
        makes ``--``, a comment in SQL and Lua, a decrement in awk.)"""
        if self.numeric and self.words is None:
            return not self.may_start_with_dash
        return self.words is not None and all(set(w) <= SAFE_CHARS for w in self.words)

    @property
    def may_start_with_dash(self) -> bool:
        return "-" in self.first

    def union(self, other: ValueModel) -> ValueModel:
        words = None
        if self.words is not None and other.words is not None:
            words = self.words | other.words
        last = self.last | other.last if self.last is not None and other.last is not None else None
        least = most = None
        if None not in (self.least, self.most, other.least, other.most):
            least = min(x for x in (self.least, other.least) if x is not None)
            most = max(x for x in (self.most, other.most) if x is not None)
        heads = None
        if self.heads is not None and other.heads is not None:
            heads = self.heads | other.heads
        return ValueModel(
            self.chars | other.chars,
            self.first | other.first,
            self.can_be_empty or other.can_be_empty,
            self.numeric and other.numeric,
            words,
            last=last,
            least=least,
            most=most,
            heads=heads,
            json=self.json and other.json,
        )


#: The model of a value about which nothing is known.
ANY_VALUE = ValueModel(_ANY, _ANY, True)


def words_model(texts: list[str]) -> ValueModel:
    """The model of a value that is one of `texts` (an ``enum``, or text the
    author built from enums)."""
    return _words_model(texts)


def _words_model(texts: list[str]) -> ValueModel:
    chars: set[str] = set()
    first: set[str] = set()
    for text in texts:
        chars.update(c for c in text if c in _ASCII)
        if text and text[0] in _ASCII:
            first.add(text[0])
    numeric = all(re.fullmatch(r"-?[0-9][0-9.eE+-]*|true|false", t) is not None for t in texts)
    return ValueModel(
        frozenset(chars), frozenset(first), any(t == "" for t in texts), numeric, frozenset(texts)
    )


# ---------------------------------------------------------------- patterns


def _category_chars(cat: Any) -> set[str]:
    name = str(cat).upper()
    if "DIGIT" in name:
        base = set(string.digits)
    elif "SPACE" in name:
        base = set(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")
    elif "WORD" in name:
        base = set(string.ascii_letters + string.digits + "_")
    elif "LINEBREAK" in name:
        base = {"\n"}
    else:
        return set(_ANY)
    return set(_ANY) - base if "NOT" in name else base


def _in_chars(items: Any, ignorecase: bool) -> set[str]:
    chars: set[str] = set()
    negate = False
    for op, arg in items:
        if op is _sre_c.NEGATE:
            negate = True
        elif op is _sre_c.LITERAL:
            if arg < 128:
                chars.add(chr(arg))
        elif op is _sre_c.RANGE:
            lo, hi = arg
            chars.update(chr(i) for i in range(lo, min(hi, 127) + 1))
        elif op is _sre_c.CATEGORY:
            chars |= _category_chars(arg)
        else:
            chars |= set(_ANY)
    if ignorecase:
        chars |= {c.swapcase() for c in chars}
    return set(_ANY) - chars if negate else chars


class _Pattern:
    """(chars, first chars, nullable) of a parsed regex, conservatively."""

    def __init__(self, flags: int) -> None:
        self.ignorecase = bool(flags & re.IGNORECASE)
        self.dotall = bool(flags & re.DOTALL)

    def seq(self, items: Any) -> tuple[set[str], set[str], bool]:
        chars: set[str] = set()
        first: set[str] = set()
        nullable = True
        for item in items:
            c, f, n = self.item(*item)
            chars |= c
            if nullable:
                first |= f
            nullable = nullable and n
        return chars, first, nullable

    def last_of(self, items: Any) -> tuple[set[str], bool]:
        """The characters that may end a match of the sequence `items`, and
        whether it may match the empty string."""
        last: set[str] = set()
        nullable = True
        for op, arg in reversed(list(items)):
            if op in (
                _sre_c.MAX_REPEAT,
                _sre_c.MIN_REPEAT,
                getattr(_sre_c, "POSSESSIVE_REPEAT", None),
            ):
                lo, _hi, sub = arg
                found, empty = self.last_of(sub)
                empty = empty or lo == 0
            elif op is _sre_c.SUBPATTERN:
                found, empty = self.last_of(arg[-1])
                if len(arg) >= 4 and arg[1] & re.IGNORECASE:
                    found |= {x.swapcase() for x in found}
            elif op is getattr(_sre_c, "ATOMIC_GROUP", None):
                found, empty = self.last_of(arg)
            elif op is _sre_c.BRANCH:
                found, empty = set(), False
                for alt in arg[1]:
                    f, e = self.last_of(alt)
                    found |= f
                    empty = empty or e
            else:
                _chars, found, empty = self.item(op, arg)  # one character: first is last
            if nullable:
                last |= found
            nullable = nullable and empty
            if not nullable:
                break
        return last, nullable

    def item(self, op: Any, arg: Any) -> tuple[set[str], set[str], bool]:
        if op is _sre_c.LITERAL:
            c = {chr(arg)} if arg < 128 else set()
            if self.ignorecase:
                c |= {x.swapcase() for x in c}
            return c, set(c), False
        if op is _sre_c.NOT_LITERAL:
            c = set(_ANY) - {chr(arg)}
            return c, set(c), False
        if op is _sre_c.ANY:
            c = set(_ANY) if self.dotall else set(_ANY) - {"\n"}
            return c, set(c), False
        if op is _sre_c.IN:
            c = _in_chars(arg, self.ignorecase)
            return c, set(c), False
        if op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT, getattr(_sre_c, "POSSESSIVE_REPEAT", None)):
            lo, _hi, sub = arg
            c, f, n = self.seq(sub)
            return c, f, n or lo == 0
        if op is _sre_c.SUBPATTERN:
            sub = arg[-1]
            add_flags = arg[1] if len(arg) >= 4 else 0
            saved = (self.ignorecase, self.dotall)
            self.ignorecase = self.ignorecase or bool(add_flags & re.IGNORECASE)
            self.dotall = self.dotall or bool(add_flags & re.DOTALL)
            try:
                return self.seq(sub)
            finally:
                self.ignorecase, self.dotall = saved
        if op is getattr(_sre_c, "ATOMIC_GROUP", None):
            return self.seq(arg)
        if op is _sre_c.BRANCH:
            chars: set[str] = set()
            first: set[str] = set()
            nullable = False
            for alt in arg[1]:
                c, f, n = self.seq(alt)
                chars |= c
                first |= f
                nullable = nullable or n
            return chars, first, nullable
        if op in (_sre_c.AT, _sre_c.ASSERT, _sre_c.ASSERT_NOT):
            return set(), set(), True  # zero-width
        # GROUPREF, GROUPREF_EXISTS, anything unknown: any character.
        return set(_ANY), set(_ANY), True


def pattern_model(pattern: str) -> ValueModel:
    """The model of the texts the regular expression `pattern` matches
    whole (Python's re syntax)."""
    try:
        parsed = _sre_p.parse(pattern)
    except re.error:
        return ANY_VALUE
    walker = _Pattern(parsed.state.flags)
    chars, first, nullable = walker.seq(parsed)
    last, _ = walker.last_of(parsed)
    heads = None if walker.ignorecase else _heads(parsed)
    return ValueModel(
        frozenset(chars), frozenset(first), nullable, last=frozenset(last), heads=heads
    )


def _literals(items: Any) -> str | None:
    """The text a parsed sequence of literal characters matches, or None."""
    text = ""
    for op, arg in items:
        if op is not _sre_c.LITERAL:
            return None
        text += chr(arg)
    return text


def _heads(items: Any, limit: int = 32) -> frozenset[str] | None:
    """The literal texts one of which every match of the parsed pattern
    `items` starts with: its literal characters and groups of literal
    alternatives from the start (after ``^``), up to the first other
    element. None when that start is empty or has more than `limit`."""
    heads = [""]
    for op, arg in items:
        if op is _sre_c.AT and arg is _sre_c.AT_BEGINNING:
            continue
        if op is _sre_c.LITERAL:
            heads = [h + chr(arg) for h in heads]
            continue
        if op is _sre_c.SUBPATTERN:
            inner = list(arg[-1])
            choices: list[str] | None = None
            if len(inner) == 1 and inner[0][0] is _sre_c.BRANCH:
                texts = [_literals(branch) for branch in inner[0][1][1]]
                choices = None if None in texts else [t for t in texts if t is not None]
            else:
                text = _literals(inner)
                choices = None if text is None else [text]
            if choices and len(heads) * len(choices) <= limit:
                heads = [h + c for h in heads for c in choices]
                continue
        break
    if not heads or not all(heads):
        return None
    return frozenset(heads)


# ----------------------------------------------------------------- schemas


def intersect(a: ValueModel, b: ValueModel) -> ValueModel:
    """The model of texts both `a` and `b` admit (an over-approximation)."""
    words = a.words if a.words is not None else b.words
    if a.words is not None and b.words is not None:
        words = a.words & b.words
    last = a.last if b.last is None else b.last if a.last is None else a.last & b.last
    least = [x for x in (a.least, b.least) if x is not None]
    most = [x for x in (a.most, b.most) if x is not None]
    return ValueModel(
        a.chars & b.chars,
        a.first & b.first,
        a.can_be_empty and b.can_be_empty,
        a.numeric or b.numeric,
        words,
        last=last,
        least=max(least) if least else None,
        most=min(most) if most else None,
        heads=a.heads if a.heads is not None else b.heads,
        json=a.json or b.json,
    )


def _schema_model(schema: Any, dash: bool, depth: int = 0) -> ValueModel:
    if not isinstance(schema, Mapping) or depth > 8:
        return ANY_VALUE if schema is not False else ValueModel(frozenset(), frozenset(), False)
    model = ANY_VALUE
    if "const" in schema:
        model = _words_model([value_text(schema["const"])])
    elif isinstance(schema.get("enum"), list):
        model = _words_model([value_text(v) for v in schema["enum"]])
    else:
        types = schema.get("type")
        type_list = (
            [types] if isinstance(types, str) else types if isinstance(types, list) else None
        )
        if type_list:
            parts: list[ValueModel] = []
            for kind in type_list:
                if kind == "integer":
                    first = _DIGITS if _non_negative(schema) else _DIGITS | {"-"}
                    least, most = _integer_bounds(schema)
                    parts.append(
                        ValueModel(
                            _DIGITS | {"-", ".", "e", "+"},
                            first,
                            False,
                            True,
                            least=least,
                            most=most,
                        )
                    )
                elif kind == "number":
                    first = _NUMBER_CHARS - {"-"} if _non_negative(schema) else _NUMBER_CHARS
                    parts.append(ValueModel(_NUMBER_CHARS, first, False, True))
                elif kind == "boolean":
                    parts.append(_words_model(["true", "false"]))
                elif kind == "null":
                    parts.append(_words_model([""]))
                elif kind == "string":
                    parts.append(_string_model(schema, dash))
                elif (
                    kind == "array"
                    and isinstance(schema.get("items"), Mapping)
                    and "prefixItems" not in schema  # (its items are not `items`')
                ):
                    # compact JSON of anything, each item as its schema says
                    item = _schema_model(schema["items"], dash, depth + 1)
                    parts.append(replace(ANY_VALUE, items=item))
                else:  # array, object: compact JSON of anything
                    parts.append(ANY_VALUE)
            model = parts[0]
            for part in parts[1:]:
                model = model.union(part)
        elif isinstance(schema.get("pattern"), str):
            # No type: non-strings are possible, and their text is JSON.
            model = ANY_VALUE
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            union = _schema_model(branches[0], dash, depth + 1)
            for branch in branches[1:]:
                union = union.union(_schema_model(branch, dash, depth + 1))
            model = intersect(model, union)
    branches = schema.get("allOf")
    if isinstance(branches, list):
        for branch in branches:
            model = intersect(model, _schema_model(branch, dash, depth + 1))
    return model


def _integer_bounds(schema: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """The least and greatest integer the schema admits (``minimum``,
    ``exclusiveMinimum``, ``maximum``, ``exclusiveMaximum``); None where it
    sets no bound. Both are needed for either to be used: bash's arithmetic
    wraps at 64 bits, so a number without a ceiling may be any."""
    least: int | None = None
    most: int | None = None
    for key, exclusive in (("minimum", False), ("exclusiveMinimum", True)):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool) and math.isfinite(bound):
            low = math.floor(bound) + 1 if exclusive else math.ceil(bound)
            least = low if least is None else max(least, low)
    for key, exclusive in (("maximum", False), ("exclusiveMaximum", True)):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool) and math.isfinite(bound):
            high = math.ceil(bound) - 1 if exclusive else math.floor(bound)
            most = high if most is None else min(most, high)
    return least, most


def _non_negative(schema: Mapping[str, Any]) -> bool:
    """The schema's ``minimum`` (or ``exclusiveMinimum``) rules out negative
    numbers, so the text never starts with ``-``."""
    for key in ("minimum", "exclusiveMinimum"):
        bound = schema.get(key)
        if isinstance(bound, int | float) and not isinstance(bound, bool) and bound >= 0:
            return True
    return False


def _string_model(schema: Mapping[str, Any], dash: bool) -> ValueModel:
    model = ANY_VALUE
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        model = pattern_model(pattern)
    first = model.first
    if not dash:
        # the validator refuses a string that starts with "-" (leading_dash)
        first = first - {"-"}
    can_be_empty = model.can_be_empty
    min_length = schema.get("minLength")
    if isinstance(min_length, int) and not isinstance(min_length, bool) and min_length > 0:
        can_be_empty = False
    return ValueModel(
        model.chars,
        first,
        can_be_empty,
        model.numeric,
        model.words,
        last=model.last,
        heads=model.heads,
    )


_MEMO_LIMIT = 10_000
_memo: dict[str, ValueModel] = {}


def model_for(schema: Mapping[str, Any]) -> ValueModel:
    """The model of the text of every value `schema` admits (see the module
    docstring), with the runtime's own refusals applied: no NUL ever, and no
    line break unless the schema says ``multiline: true``. Memoized by the
    schema's canonical JSON (models are immutable)."""
    key = canonical_json(schema)
    if key is not None:
        hit = _memo.get(key)
        if hit is None:
            if len(_memo) >= _MEMO_LIMIT:
                _memo.clear()
            hit = _memo[key] = _model_for(schema)
        return hit
    return _model_for(schema)


def _model_for(schema: Mapping[str, Any]) -> ValueModel:
    # what the validator decides for the whole arg, in every branch of it
    model = _schema_model(schema, not refuses_leading_dash(schema))
    banned = {"\x00"}
    if schema.get("multiline") is not True and model.words is None:
        banned |= {"\n", "\r"}
    within = schema.get("within")
    items = model.items
    if items is not None:
        # every string of the value is held to the arg's refusals (arguments.py)
        item_banned = {"\x00"} | (set() if schema.get("multiline") is True else {"\n", "\r"})
        items = replace(
            items,
            chars=items.chars - item_banned,
            first=items.first - item_banned,
            last=items.last - item_banned if items.last is not None else None,
        )
    return ValueModel(
        model.chars - banned,
        model.first - banned,
        model.can_be_empty,
        model.numeric,
        model.words,
        within if isinstance(within, str) else None,
        model.last - banned if model.last is not None else None,
        model.least,
        model.most,
        model.heads,
        items,
    )
