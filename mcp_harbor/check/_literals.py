"""Caller data inside a quoted literal of a program's text.

``sqlite3 -readonly db "select … where code = '$ARG_code'"``: the value
stands inside an SQL string, which only a quote (or, in some dialects, a
backslash) can end. A value whose characters hold none of the characters
that end or escape the language's literals (`Grammar.literal_ends`) stays
inside it, so it is data there, whatever it says.

The proof needs three facts, each checked here or by the caller:

- the program's text as the program receives it, with a mark where each
  caller value stands (`program_view`): the shell word's quoting is read
  here, and any expansion that is not a caller value (a variable of the
  author's, a command substitution, ``$'…'``) makes the text unknown;
- every mark is gone from the language's code view of that text, which
  blanks its literals (`inside_literals`; the view is the grammar's, such
  as `grammars.sql_code`), and the text holds no backslash (a dialect that
  escapes with one could end a literal the view reads as open);
- no value can hold a character of `Grammar.literal_ends` (the caller's).

A number that cannot start with ``-`` may stand outside the literals
(``… limit $ARG_n``): it is inert even in code (issue 34, rule 4), and the
view reads it as ``0``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from mcp_harbor.check import grammars
from mcp_harbor.check._facts import Occ

__all__ = ["MARK", "inside_literals", "program_view", "quoted_program"]

#: Where a caller value stands in a program view: a character no author's
#: text of a program holds.
MARK = "\x00"

_DOUBLE_QUOTED_ESCAPES = (b"$", b"`", b'"', b"\\", b"\n")
#: ``$NAME`` or ``${NAME}`` (no operator), an expansion of a name whole.
_AUTHORS_NAME = re.compile(rb"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
#: A number's characters (no sign): inert in any program's text.
_DIGITS = frozenset("0123456789")
#: What bash reads inside double quotes: a pasted text without them is text.
_DOUBLE_QUOTED_SPECIAL = frozenset('$`"\\!')


def program_view(
    raw: bytes,
    spans: Sequence[tuple[int, int]],
    pasted: Sequence[bool] = (),
    numbers: Sequence[bool] = (),
    authors: Callable[[str, int], bool] | None = None,
) -> str | None:
    """The text a program receives for one shell word whose script text is
    `raw`, with `MARK` where each caller value stands (`spans`: their
    offsets into `raw`, each a ``$NAME`` or ``${NAME}`` inside double
    quotes, or where `pasted` says so a placeholder whose text is pasted
    there), or ``0`` where `numbers` says it is a number that cannot start
    with ``-`` (inert anywhere in the program's text). None when the word's
    text is not read this simply: a value outside double quotes (it may
    split or glob), any other expansion, ``$'…'``, a glob, brace or tilde,
    or unbalanced quotes. `authors` (a name and its offset) says whether an
    expansion of the author's inside double quotes holds only texts that
    may stand in a literal (a ``for`` loop's literal words): it is marked
    as a caller value is."""
    ends = dict(spans)
    placeholders = {start for (start, _), paste in zip(spans, pasted, strict=False) if paste}
    counted = {start for (start, _), number in zip(spans, numbers, strict=False) if number}
    out: list[bytes] = []
    quoted = False
    k = 0
    while k < len(raw):
        if k in ends:
            if not quoted or (k not in placeholders and raw[k : k + 1] != b"$"):
                return None
            out.append(b"0" if k in counted else MARK.encode())
            k = ends[k]
            continue
        c = raw[k : k + 1]
        if quoted:
            if c == b'"':
                quoted = False
            elif c == b"\\" and raw[k + 1 : k + 2] in _DOUBLE_QUOTED_ESCAPES:
                if raw[k + 1 : k + 2] != b"\n":
                    out.append(raw[k + 1 : k + 2])
                k += 2
                continue
            elif c == b"$" and authors is not None:
                found = _AUTHORS_NAME.match(raw, k)
                named = (found.group(1) or found.group(2)).decode("ascii") if found else ""
                if found is None or not authors(named, k):
                    return None
                out.append(MARK.encode())
                k = found.end()
                continue
            elif c in (b"$", b"`"):
                return None
            else:
                out.append(c)
            k += 1
            continue
        if c == b"'":
            close = raw.find(b"'", k + 1)
            if close < 0:
                return None
            out.append(raw[k + 1 : close])
            k = close + 1
        elif c == b'"':
            quoted = True
            k += 1
        elif c == b"\\" and k + 1 < len(raw):
            if raw[k + 1 : k + 2] != b"\n":
                out.append(raw[k + 1 : k + 2])
            k += 2
        elif c in b"$`*?[{~ \t\n\\":
            return None
        else:
            out.append(c)
            k += 1
    if quoted:
        return None
    try:
        return b"".join(out).decode("utf-8")
    except UnicodeDecodeError:
        return None


def inside_literals(view: str, code_view: Callable[[str], str]) -> bool:
    """Every `MARK` of the program text `view` stands inside one of its
    language's literals: `code_view` (which blanks them) drops it. A text
    with a backslash is not read (a dialect's escape could end a literal
    the view reads as open)."""
    return MARK in view and "\\" not in view and MARK not in code_view(view)


def quoted_program(
    key: str,
    raw: bytes,
    start: int,
    occs: Sequence[Occ],
    author_texts: Callable[[str, int], Sequence[str] | None] | None = None,
) -> str | None:
    """The program text a shell word (its script text `raw`, from byte
    `start` of the script) gives the program `key`, when every caller value
    in it (`occs`, each a variable's expansion) stands inside a quoted
    literal of the program's language that none of its values can end
    (`grammars.Grammar.literal_ends`), with `MARK` where each stands; else
    None. `author_texts` gives the texts a name of the author's may hold at
    a byte of the script (a ``for`` loop's literal words): one whose every
    text holds none of those characters stands in a literal as a caller
    value must."""
    grammar = grammars.GRAMMARS.get(key)
    view = grammars.literal_view(key)
    if grammar is None or view is None or not occs:
        return None
    # limit $ARG_n beside '$ARG_day': a number, inert in the text itself
    numbers = [_number(o) for o in occs]
    if not all(
        (number or not o.model.chars & grammar.literal_ends)
        # a placeholder's text is pasted into the script: bash reads it
        # inside the double quotes too
        and (o.kind == "env" or (o.kind == "raw" and not o.model.chars & _DOUBLE_QUOTED_SPECIAL))
        for o, number in zip(occs, numbers, strict=True)
    ):
        return None
    ends = grammar.literal_ends | _DOUBLE_QUOTED_SPECIAL

    def authors(name: str, at: int) -> bool:
        texts = author_texts(name, start + at) if author_texts is not None else None
        return bool(texts) and all(not set(t) & ends for t in texts or ())

    text = program_view(
        raw,
        [(o.start - start, o.end - start) for o in occs],
        pasted=[o.kind == "raw" for o in occs],
        numbers=numbers,
        authors=authors,
    )
    return text if text is not None and inside_literals(text, view) else None


def _number(occ: Occ) -> bool:
    """`occ` is a number that cannot start with ``-`` (rule 4: inert even in
    code): a JSON number's text, or digits."""
    model = occ.model
    if model.words is not None:
        return False
    if model.numeric:
        return not model.may_start_with_dash
    return model.chars <= _DIGITS and not model.can_be_empty
