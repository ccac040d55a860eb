"""Text a caller chose, made safe to show a human: every character that
could hide, reorder or forge what is around it is written as an escape.

Escaped (`visible`): control characters (C0, DEL, C1: ANSI escapes begin
with ``\\x1b``, a newline would start a forged log line, a NUL would end a
C string), format characters (bidi embeddings, overrides and isolates
U+202A–U+202E and U+2066–U+2069, the marks U+200E/U+200F and U+061C, the
zero-width U+200B–U+200D, U+2060 and U+FEFF, and the rest of Unicode's
``Cf``), line and paragraph separators (U+2028, U+2029), surrogates and
the backslash itself, so an escape in the result is never the caller's text
pretending to be one. Everything else, other scripts and emoji included, is
itself.

`quoted` also escapes ``"`` and puts the text between double quotes, so a
value cannot pretend to end its quotes and go on as the question's text.
"""

from __future__ import annotations

import unicodedata

__all__ = ["quoted", "visible"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}

#: Unicode categories escaped: control, format, line/paragraph separator,
#: surrogate, unassigned.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"})


def _escape(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str) -> str:
    """`text` with every character that could mislead a reader escaped
    (``\\x1b``, ``\\u202e``, ``\\n``, ``\\\\``); text without one is returned
    as it is."""
    if text.isascii() and text.isprintable() and "\\" not in text:
        return text  # the common case
    return "".join(
        _escape(c) if c in _NAMED or unicodedata.category(c) in _HIDDEN else c for c in text
    )


def quoted(text: str) -> str:
    """`visible` text between double quotes, ``"`` inside escaped: ``"a\\"b"``."""
    return '"' + visible(text).replace('"', '\\"') + '"'
