"""bash as the authority on structure: where tree-sitter and bash disagree
about a place that carries caller data, the script is refused (H000).

The analysis reasons over tree-sitter's parse. This module makes bash confirm
that parse at exactly the places that matter, without executing anything
(`mcp_harbor.check._reprint`):

1. **Probes.** A *probe rendering* of the script inserts, after every
   placeholder's sentinel word and before every ``$`` that reads a variable
   carrying caller data, the text ``$(  :  hbQk  )'$(  :  hbTk  )'``. bash
   reprints a command substitution in canonical spacing only where it parsed
   it as one, and prints everything it reads as literal text as written. The
   two pieces give every quoting context a signature: unquoted (only Q is
   parsed: T is in single quotes), double quotes (both: the ``'`` is
   literal), single quotes (only T: the ``'`` closes and reopens them),
   here-document bodies, backticks and ``$'…'`` (neither), comments (the
   probe is gone).
   tree-sitter's parse of the same probe rendering predicts the signature
   (a substitution node outside any here-document body or backticks); any
   difference at any probe is a refusal.
2. **Reprint.** The analysis is run a second time on bash's canonical
   reprint of the script (comments dropped, continuations joined, ``<<-``
   tabs stripped), and its hazards are added to the first analysis's. bash
   prints no comments, so a comment in tree-sitter's parse of the reprint is
   a disagreement too.

What this does not prove: that bash's parse-time reading equals its run-time
expansion everywhere (inside a double-quoted ``${V:-…}``, single quotes are
literal at run time though the reprint keeps them); the analysis refuses
caller data in such operands on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from mcp_harbor.check._gates import parse_tree, tree_error, walk
from mcp_harbor.check._reprint import Reprint, reprints
from mcp_harbor.check._tree import in_arithmetic

__all__ = ["Disagreement", "Probed", "disagreements", "probe_rendering"]

_PROBE = "$(  :  hbQ{k}  )'$(  :  hbT{k}  )'"
#: The probe of a place inside an array subscript (``${a[$x]}``), where
#: tree-sitter cannot read quotes: bash expands a subscript as one word, never
#: split, so only whether it is expanded (Q) matters there.
_SUBSCRIPT_PROBE = "$(  :  hbQ{k}  )"


@dataclass(frozen=True, slots=True)
class Probed:
    """A probe rendering: the text and, per probe, the byte offset in the
    original script it stands at."""

    text: str
    offsets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Disagreement:
    """tree-sitter and bash read the place at `offset` (a byte offset in the
    original script) differently; `detail` says how."""

    offset: int
    detail: str


def probe_rendering(text: str, sentinel_words: Iterable[str], variables: Iterable[str]) -> Probed:
    """`text` with a probe after each of `sentinel_words` and before each
    ``$`` that reads one of `variables`."""
    src = text.encode("utf-8")
    spots: set[int] = set()
    for word in sentinel_words:
        raw = word.encode()
        start = src.find(raw)
        while start >= 0:
            spots.add(start + len(raw))
            start = src.find(raw, start + len(raw))
    names = sorted(set(variables), key=len, reverse=True)
    if names:
        pattern = re.compile(
            rb"\$\{?[!#]?(?:"
            + b"|".join(re.escape(n.encode()) for n in names)
            + rb")(?![A-Za-z0-9_])"
        )
        for match in pattern.finditer(src):
            spot = match.start()
            while spot > 0 and src[spot - 1 : spot] == b"\\":
                spot -= 1  # before the escapes: the context they are read in
            spots.add(spot)
    offsets = tuple(sorted(spots))
    out = bytearray()
    last = 0
    for k, spot in enumerate(offsets):
        out += src[last:spot] + _PROBE.format(k=k).encode()
        last = spot
    out += src[last:]
    return Probed(out.decode("utf-8"), offsets)


def _predicted(tree_text: str) -> dict[str, bool | None] | None:
    """tree-sitter's prediction: for each probe piece (``Qk``, ``Tk``),
    whether bash parses it as a command substitution (None: in a comment,
    which bash drops). None when tree-sitter cannot parse the rendering."""
    tree = parse_tree(tree_text)
    if tree_error(tree) is not None:
        return None
    src = tree_text.encode("utf-8")
    out: dict[str, bool | None] = {}
    for node in walk(tree.root_node):
        if node.type == "comment":
            for found in re.finditer(rb"hb([QT]\d+)  \)", src[node.start_byte : node.end_byte]):
                out[found.group(1).decode()] = None
            continue
        if node.type != "command_substitution":
            continue
        # (tree-sitter starts a substitution after a blank inside double
        # quotes at the blank: ` $(…)`)
        body = src[node.start_byte : node.end_byte].lstrip(b" \t")
        match = re.fullmatch(rb"\$\(  :  hb([QT]\d+)  \)", body)
        if match is None:
            continue
        out[match.group(1).decode()] = not _literal_context(src, node)
    return out


def _literal_context(src: bytes, node: Node) -> bool:
    """bash keeps `node` as written at parse time: inside a here-document
    body or backticks."""
    parent = node.parent
    while parent is not None:
        if parent.type == "heredoc_body":
            return True
        if (
            parent.type == "command_substitution"
            and src[parent.start_byte : parent.start_byte + 1] == b"`"
        ):
            return True
        parent = parent.parent
    return False


def _observed(reprinted: str, count: int) -> dict[str, bool | None]:
    """bash's reading: per probe piece, True (parsed: canonical spacing),
    False (literal: as written) or None (gone, as in a comment)."""
    out: dict[str, bool | None] = {}
    for k in range(count):
        for piece in "QT":
            name = f"{piece}{k}"
            if f"$(: hb{name})" in reprinted:
                out[name] = True
            elif f"$(  :  hb{name}  )" in reprinted:
                out[name] = False
            else:
                out[name] = None
    return out


_READINGS = {
    (True, False): "an unquoted word",
    (True, True): "double quotes",
    (False, True): "single quotes",
    (False, False): "literal text (a here-document body, backticks or `$'…'`)",
}


def _reading(values: Sequence[bool | None]) -> str:
    if any(v is None for v in values):
        return "a comment (bash drops it)"
    return _READINGS[(bool(values[0]), bool(values[1]))]


def _compare(probed: Probed, bash: Reprint, pieces: str = "QT") -> list[Disagreement] | None:
    """The disagreements of one probe rendering (None: it could not be read
    by one of the parsers, so nothing can be concluded from it); `pieces`:
    the probe's pieces (``Q`` alone for a subscript's probe)."""
    if bash.text is None:
        return None
    predicted = _predicted(probed.text)
    if predicted is None:
        return None
    observed = _observed(bash.text, len(probed.offsets))
    out: list[Disagreement] = []
    for k, offset in enumerate(probed.offsets):
        names = tuple(f"{piece}{k}" for piece in pieces)
        want = [predicted.get(n, False) for n in names]
        got = [observed[n] for n in names]
        if pieces == "Q":
            want, got = [*want, False], [*got, False]  # read as an unquoted word
        if want != got:
            out.append(
                Disagreement(
                    offset,
                    f"tree-sitter reads this place as {_reading(want)} but bash reads it as "
                    f"{_reading(got)}",
                )
            )
    return out


def disagreements(
    items: Sequence[tuple[str, Iterable[str], Iterable[str]]],
) -> list[list[Disagreement]]:
    """For each (script, sentinel words, caller variables) of `items`, where
    tree-sitter and bash read a caller-data place differently.

    A probe rendering neither parser can read is split into one rendering per
    probe, so that one awkward place (a probe inside arithmetic, say) is
    refused alone; a place whose own rendering is still unreadable is a
    disagreement."""
    probed = [probe_rendering(text, words, names) for text, words, names in items]
    whole = reprints(p.text for p in probed if p.offsets)
    results: list[list[Disagreement] | None] = []
    it = iter(whole)
    for p in probed:
        results.append(_compare(p, next(it)) if p.offsets else [])
    retry = [i for i, r in enumerate(results) if r is None]
    if retry:
        singles: list[tuple[int, int, Probed]] = []
        for i in retry:
            text = items[i][0]
            for offset in probed[i].offsets:
                one = _single(text, offset)
                singles.append((i, offset, one))
        answers = reprints(one.text for _i, _o, one in singles)
        found_each = [
            _compare(one, answer) for (_i, _o, one), answer in zip(singles, answers, strict=True)
        ]
        # a place in a subscript tree-sitter cannot read with quotes: its own probe
        subscript = {
            k: _single(items[i][0], offset, _SUBSCRIPT_PROBE)
            for k, (i, offset, _one) in enumerate(singles)
            if found_each[k] is None and _in_subscript(items[i][0], offset)
        }
        for k, answer in zip(subscript, reprints(p.text for p in subscript.values()), strict=True):
            found_each[k] = _compare(subscript[k], answer, pieces="Q")
        # a place tree-sitter reads as an expansion in arithmetic, where it
        # cannot read a probe at all: bash must expand the place too
        arithmetic = {
            k: _single(items[i][0], offset, _SUBSCRIPT_PROBE)
            for k, (i, offset, _one) in enumerate(singles)
            if found_each[k] is None and _expanded_in_arithmetic(items[i][0], offset)
        }
        answers = reprints(p.text for p in arithmetic.values())
        for k, answer in zip(arithmetic, answers, strict=True):
            if answer.text is not None:
                expanded = _observed(answer.text, 1)["Q0"]
                found_each[k] = (
                    []
                    if expanded
                    else [
                        Disagreement(
                            arithmetic[k].offsets[0],
                            "tree-sitter reads this place as an expansion in arithmetic but "
                            "bash reads it as "
                            + ("a comment" if expanded is None else "literal text"),
                        )
                    ]
                )
        fixed: dict[int, list[Disagreement]] = {i: [] for i in retry}
        for (i, offset, _one), found in zip(singles, found_each, strict=True):
            if found is None:
                fixed[i].append(
                    Disagreement(
                        offset,
                        "bash or tree-sitter cannot read the script with a probe at this place, "
                        "so the checker cannot confirm how bash reads it",
                    )
                )
            else:
                fixed[i].extend(Disagreement(offset, d.detail) for d in found)
        for i, found_list in fixed.items():
            results[i] = found_list
    return [r if r is not None else [] for r in results]


def _single(text: str, offset: int, probe: str = _PROBE) -> Probed:
    src = text.encode("utf-8")
    rendered = src[:offset] + probe.format(k=0).encode() + src[offset:]
    return Probed(rendered.decode("utf-8"), (offset,))


def _expanded_in_arithmetic(text: str, offset: int) -> bool:
    """tree-sitter reads the place at byte `offset` of `text` as the start
    of an expansion (``$n``, ``${#s}``), or the end of a placeholder's
    sentinel name, that bash evaluates as arithmetic (``(( … ))``,
    ``$(( … ))``, a C-style ``for``)."""
    tree = parse_tree(text)
    if tree_error(tree) is not None:
        return False
    src = text.encode("utf-8")
    node: Node | None = tree.root_node.descendant_for_byte_range(offset, offset)
    while node is not None and node.type not in ("simple_expansion", "expansion"):
        if node.type == "variable_name" and node.end_byte == offset:
            break  # a sentinel: the probe follows the name
        node = node.parent
    if node is None:
        node = tree.root_node.descendant_for_byte_range(max(offset - 1, 0), offset)
        if node is None or node.type != "variable_name" or node.end_byte != offset:
            return False
    elif node.type != "variable_name" and node.start_byte != offset:
        return False
    return in_arithmetic(src, node)


def _in_subscript(text: str, offset: int) -> bool:
    """tree-sitter reads the place at byte `offset` of `text` as inside the
    subscript of a parameter expansion (``${a[…]}``)."""
    tree = parse_tree(text)
    node: Node | None = tree.root_node.descendant_for_byte_range(offset, offset)
    while node is not None:
        parent = node.parent
        if (
            parent is not None
            and parent.type == "subscript"
            and node == parent.child_by_field_name("index")
            and parent.parent is not None
            and parent.parent.type == "expansion"
        ):
            return True
        node = parent
    return False
