"""Scrub secret values out of everything a run records or returns.

One `Scrubber` is built per run (`LocalExecutor.run`) from the values of the
export's ``secrets:`` and of the caller's ``secret: true`` args, and every
place that records or returns run data goes through it: step output tails,
streamed log lines, step outputs, error texts, the step log files and every
other file of the run directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, final

__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "ScrubbedFile", "Scrubber"]

#: What a secret value is replaced with wherever it would be recorded.
REDACTED: Final = "***"
#: Values shorter than this are not scrubbed: replacing every ``a`` or ``42``
#: in every output would destroy the output and hide nothing.
MIN_SECRET_LENGTH: Final = 3

_CHUNK = 1 << 20
#: Characters bash's ``printf %q`` always puts a backslash before (``#`` and
#: ``~`` only at a word's start: the form without it is a substring then).
_BACKSLASHED = frozenset(" !\"$&'()*,;<>?[\\]^`{|}")
#: How bash's ANSI-C quoting (``$'…'``, used by ``%q`` and ``set -x`` for a
#: value with control characters) writes these characters.
_ANSI_C = {
    "\a": "\\a",
    "\b": "\\b",
    "\x1b": "\\E",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    "'": "\\'",
}


def _control(c: str) -> bool:
    return ord(c) < 0x20 or ord(c) == 0x7F


def _ansi_c(value: str, *, ascii_only: bool = False) -> str:
    """The body of bash's ``$'…'`` for `value`; `ascii_only`: as bash writes
    it in a locale that is not UTF-8 (each byte of a non-ASCII letter in
    octal)."""
    out = []
    for c in value:
        if c in _ANSI_C:
            out.append(_ANSI_C[c])
        elif _control(c):
            out.append(f"\\{ord(c):03o}")
        elif ascii_only and not c.isascii():
            out.extend(f"\\{b:03o}" for b in _encode(c))
        else:
            out.append(c)
    return "".join(out)


#: Characters bash puts a backslash before when it quotes a value for a
#: ``[[ … =~ "$V" ]]`` regular expression (and its ``set -x`` trace).
_REGEX_SPECIAL = frozenset("$()*+.?[\\^{|")
#: Characters bash writes bare in the ``set -x`` trace of a ``[[ … == "$V" ]]``
#: pattern, where every other character gets a backslash (its internal
#: quoting bytes, CTLESC and CTLNUL, print as they are).
_PATTERN_BARE = frozenset("\x01\x7f")
#: Characters bash escapes inside the double quotes of ``declare -p``.
_DOUBLE_QUOTED = frozenset('"$`\\')


def _backslashed(value: str, chars: frozenset[str]) -> str:
    return "".join("\\" + c if c in chars else c for c in value)


def _pattern(value: str, *, per_byte: bool = False) -> str:
    """How bash's ``set -x`` writes `value` quoted in a pattern
    (``[[ x == "$V" ]]``): a backslash before each character, or, in a
    locale that is not UTF-8 (`per_byte`), before each byte (surrogate
    escaped, as `_encode` writes it back)."""
    text = _encode(value).decode("ascii", "surrogateescape") if per_byte else value
    return "".join(c if c in _PATTERN_BARE else "\\" + c for c in text)


def _forms(value: str) -> set[str]:
    """`value` and the forms it takes when a step prints it transformed, as
    real bash 5 writes them (``tests/test_scrub.py`` derives each one by
    running bash):

    - ``printf %q``: backslashes (`_BACKSLASHED`), or ``$'…'`` when the
      value has a control character or, in a locale that is not UTF-8, a
      non-ASCII letter (its bytes in octal);
    - ``${V@Q}``, ``set``'s listing and ``set -x``'s quoting of a word:
      ``'…'`` with ``'`` as ``'\\''``, or ``$'…'`` as above;
    - ``declare -p`` (``export -p``, ``typeset -p``, ``local -p``,
      ``readonly -p``): double quotes with ``"``, ``$``, a backquote and
      ``\\`` backslashed, or ``$'…'`` as above;
    - ``set -x``'s trace of a quoted pattern (``[[ x == "$V" ]]``): a
      backslash before every character (every byte, not UTF-8), and of a
      quoted regular expression (``=~``): before its special characters;
    - a JSON string's body (ASCII-only and not);
    - each of those inside ``set -x``'s ``'…'`` once more (the trace of
      ``x=${V@Q}`` or of ``echo "$(declare -p V)"``);
    - the prologue's ``\\xHH`` form of each byte (`mcp_harbor.runner.prologue`),
      which bash prints back in a syntax error's message about line 1."""
    forms = {
        value,
        value.replace("'", "'\\''"),
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        _backslashed(value, _DOUBLE_QUOTED),
        _backslashed(value, _REGEX_SPECIAL),
        _pattern(value),
    }
    if any(_control(c) for c in value):
        forms.add(_ansi_c(value))
    else:
        forms.add(_backslashed(value, _BACKSLASHED))
    if not value.isascii():  # a locale that is not UTF-8 (LANG=C)
        forms.add(_ansi_c(value, ascii_only=True))
        forms.add(_pattern(value, per_byte=True))
    forms |= {form.replace("'", "'\\''") for form in forms if "'" in form}
    if value:  # the prologue's form (mcp_harbor.runner.prologue), which bash
        # prints back in a syntax error's message about the script's first line
        forms.add("\\x" + _encode(value).hex("\\").replace("\\", "\\x"))
    return forms


def _trie(forms: Iterable[str]) -> str:
    """One regular expression matching each of `forms`, the longest one
    where several match at a place: the forms as a trie, so that the
    matcher follows one branch per character instead of trying every form
    at every place (the forms of a secret share their first characters:
    ``\\``, ``'``, ``$'``, the value's own)."""
    root: dict[str, Any] = {}
    for form in forms:
        node = root
        for c in form:
            node = node.setdefault(c, {})
        node[""] = {}
    return _node_pattern(root)


def _node_pattern(node: dict[str, Any]) -> str:
    run: list[str] = []
    while len(node) == 1 and "" not in node:  # one way on: a literal
        ((c, node),) = node.items()
        run.append(re.escape(c))
    branches = [re.escape(c) + _node_pattern(child) for c, child in sorted(node.items()) if c]
    prefix = "".join(run)
    if not branches:
        return prefix
    group = "(?:" + "|".join(branches) + ")"
    # siblings differ in their first character: at most one can match, and
    # a form ending here is taken only when no longer one does
    return prefix + group + ("?" if "" in node else "")


def _trie_bytes(forms: Iterable[bytes]) -> bytes:
    """`_trie` over the bytes of `forms` (each byte as a latin-1 character)."""
    return _trie(f.decode("latin-1") for f in forms).encode("latin-1")


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@dataclass(frozen=True, slots=True)
class ScrubbedFile:
    """A file after `Scrubber.scrub_file`: its size and SHA-256 (of the
    scrubbed content) and whether it had to be rewritten."""

    size: int
    sha256: str
    changed: bool


@final
class Scrubber:
    """Replaces secret values by `REDACTED` (``***``).

    **The guarantee.** For every value of at least `MIN_SECRET_LENGTH`
    characters, the text a scrubber returns contains none of these forms of
    it (`_forms`): the value itself; every quoting bash itself prints it in
    (``printf %q``, ``${V@Q}``, ``declare -p`` and its kin, ``set``'s
    listing, ``set -x``'s quoting of words, of patterns and of regular
    expressions, in a UTF-8 locale and in one that is not), each of those
    once more inside ``set -x``'s ``'…'``; its JSON string body
    (``json.dumps(v)[1:-1]``, with and without ``ensure_ascii``); the body of
    the prologue's ``$'\\xHH…'`` (`mcp_harbor.runner.prologue`); and, for a
    multi-line value, each of its lines (of at least `MIN_SECRET_LENGTH`
    characters) in each of those forms. Where several forms match at one
    place the longest is replaced, so no part of a longer form survives a
    shorter one's replacement. ``tests/test_scrub.py`` runs real bash with
    each construct on secrets of every kind of character, and fuzzes.

    **Its cost.** The forms are matched as one trie-shaped regular
    expression: the matcher follows one branch per character, so scrubbing
    a log costs about what one search for a literal does (8 MiB of text
    with three secrets: about 0.1 s for bytes; the test bounds it).

    **Its limits.** Values shorter than `MIN_SECRET_LENGTH` are not scrubbed.
    Any other transformation (base64, hex, a reversed or sliced value, a
    value printed one character at a time) is not recognised: a step that
    means to leak a secret can. Scrubbing is textual: a secret that is, say,
    a number inside a JSON document makes that document invalid; a line of a
    multi-line secret is scrubbed wherever it appears, also where it is not
    part of the secret.
    """

    __slots__ = ("_bytes", "_text", "longest")

    def __init__(self, values: Iterable[str] = ()) -> None:
        forms: set[str] = set()
        for value in values:
            if len(value) < MIN_SECRET_LENGTH:
                continue
            forms |= _forms(value)
            lines = value.splitlines()
            if len(lines) > 1:
                for line in lines:
                    if len(line) >= MIN_SECRET_LENGTH:
                        forms |= _forms(line)
        kept = sorted((f for f in forms if len(f) >= MIN_SECRET_LENGTH), key=lambda f: (-len(f), f))
        encoded = sorted({_encode(f) for f in kept}, key=lambda b: (-len(b), b))
        self._text = re.compile(_trie(kept)) if kept else None
        self._bytes = re.compile(_trie_bytes(encoded)) if encoded else None
        #: Bytes (UTF-8) of the longest form: how much a stream must look
        #: ahead to see a whole one.
        self.longest = max((len(b) for b in encoded), default=0)

    def __bool__(self) -> bool:
        """Whether there is anything to scrub."""
        return self._text is not None

    def scrub(self, text: str) -> str:
        """`text` with every form of every secret replaced by ``***``."""
        if self._text is None:
            return text
        return self._text.sub(REDACTED, text)

    def scrub_bytes(self, data: bytes) -> bytes:
        """`scrub` for UTF-8 bytes."""
        if self._bytes is None:
            return data
        return self._bytes.sub(REDACTED.encode(), data)

    def scrub_value(self, value: Any) -> Any:
        """A JSON-like value (str, list, tuple, dict: keys too) scrubbed
        throughout; other values are returned as they are."""
        if self._text is None:
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, (list, tuple)):
            return [self.scrub_value(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub_value(k): self.scrub_value(v) for k, v in value.items()}
        return value

    def scrub_stream(self, data: bytes) -> tuple[bytes, bytes]:
        """The part of a stream's `data` that can be scrubbed now, scrubbed,
        and the rest (shorter than `longest`), which may hold the start of a
        form whose end has not come yet: prepend it to the next data. At the
        stream's end, `scrub_bytes` the rest."""
        if self._bytes is None:
            return data, b""
        safe = len(data) - self.longest + 1  # a form starting before it is whole
        if safe <= 0:
            return b"", data
        out: list[bytes] = []
        last = 0
        for match in self._bytes.finditer(data):
            if match.start() >= safe:
                break
            out.append(data[last : match.start()])
            out.append(REDACTED.encode())
            last = match.end()
        end = max(last, safe)
        out.append(data[last:end])
        return b"".join(out), data[end:]

    def contains(self, data: bytes) -> bool:
        """Whether `data` holds a form of a secret."""
        return self._bytes is not None and self._bytes.search(data) is not None

    def scrub_file(self, path: Path) -> ScrubbedFile:
        """Scrub the file `path` in place, streaming (never more than a few
        MiB in memory, whatever its size). A file without a secret is read
        once and left untouched; one with a secret is rewritten into a new
        file (mode 0600) that replaces it. The SHA-256 is of what the file
        holds afterwards.

        Raises:
            OSError: the file cannot be read, or not rewritten.
        """
        digest = hashlib.sha256()
        size = 0
        found = False
        tail = b""
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
                size += len(chunk)
                if not found and self._bytes is not None:
                    window = tail + chunk
                    found = self._bytes.search(window) is not None
                    tail = window[-(self.longest - 1) :] if self.longest > 1 else b""
        if not found:
            return ScrubbedFile(size, digest.hexdigest(), False)
        digest, size = hashlib.sha256(), 0
        tmp = path.with_name(f".{path.name}.scrub")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            with os.fdopen(fd, "wb") as out, open(path, "rb") as fh:
                rest = b""
                while chunk := fh.read(_CHUNK):
                    done, rest = self.scrub_stream(rest + chunk)
                    out.write(done)
                    digest.update(done)
                    size += len(done)
                done = self.scrub_bytes(rest)
                out.write(done)
                digest.update(done)
                size += len(done)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return ScrubbedFile(size, digest.hexdigest(), True)
