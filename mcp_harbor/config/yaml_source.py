"""Reading a YAML file while keeping where every value came from.

PyYAML is the parser; this module keeps the line and column of every mapping
key and value so that errors can point at them, refuses duplicate keys (which
PyYAML would silently collapse) and translates YAML errors into `ConfigError`.

`documents` remembers, by the SHA-256 of a file's bytes, what reading an
export file gave (the data and the positions kept while reading), so that a
file read before (in this process, or on an earlier start through
`mcp_harbor.check.cachefile`) is not parsed again. Only files that were read
without error are remembered, and only when their data is plain JSON
(mappings with string keys, lists, strings, numbers, booleans, null, no
shared nodes): a file that fails to read is parsed on every read, so its
error always names the file and line as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from mcp_harbor.errors import ConfigError

__all__ = ["Documents", "Located", "SourceMap", "documents", "read_yaml"]

PathKey = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Located:
    """Where a value sits in its file: 1-based line and column, and for
    scalars how its text maps back onto the file."""

    line: int
    column: int
    style: str | None = None  # None (plain), "'", '"', "|", ">"
    indent: int = 0  # for block scalars: the content's indentation


#: Keys whose scalar values (and the scalar items of a list under them) get
#: their position recorded while the file is read: the commands (``run:``,
#: ``argv:``), whose first line every check of the programs a step runs
#: asks for. Any other position is worked out on first use.
EAGER_KEYS = frozenset({"run", "argv"})


class SourceMap:
    """Positions of the keys and values of one YAML document.

    Built on first use from the document's text (one more parse): most
    loads never need a position (only errors and findings do), and a map
    costs ~15 KB per export. The values under `EAGER_KEYS` are known
    without it (the same positions the full map gives).
    """

    __slots__ = ("_eager", "_keys", "_text", "_values", "path")

    def __init__(self, path: Path, text: str | None = None) -> None:
        self.path = path
        self._text = text
        self._keys: dict[PathKey, Located] | None = None if text is not None else {}
        self._values: dict[PathKey, Located] | None = None if text is not None else {}
        self._eager: dict[PathKey, Located] = {}

    def _build(self) -> None:
        keys: dict[PathKey, Located] = {}
        values: dict[PathKey, Located] = {}
        text = self._text or ""
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
        except yaml.YAMLError:  # it parsed when it was loaded; be safe regardless
            root = None
        finally:
            loader.dispose()
        if root is not None:
            smap = SourceMap(self.path)
            smap._keys, smap._values = keys, values
            _walk(root, (), smap, text.splitlines())
        self._keys, self._values, self._text = keys, values, None
        self._eager = {}

    @property
    def keys(self) -> dict[PathKey, Located]:
        if self._keys is None:
            self._build()
        assert self._keys is not None
        return self._keys

    @property
    def values(self) -> dict[PathKey, Located]:
        if self._values is None:
            self._build()
        assert self._values is not None
        return self._values

    def line_of(self, where: PathKey) -> int:
        """The line of the longest prefix of `where` that has a position."""
        for n in range(len(where), -1, -1):
            prefix = where[:n]
            if prefix in self.keys:
                return self.keys[prefix].line
            if prefix in self.values:
                return self.values[prefix].line
        return 1

    def position_in_scalar(self, where: PathKey, offset: int, text: str) -> tuple[int, int]:
        """Map a character offset inside the scalar at `where` to (line, column).

        Exact for plain, single-line quoted and literal (``|``) block scalars;
        approximate for folded scalars and escapes inside double quotes.
        """
        loc = self._eager.get(where)
        if loc is None:
            loc = self.values.get(where)
        if loc is None:
            return self.line_of(where), 1
        before = text[:offset]
        newlines = before.count("\n")
        col_in_line = offset - (before.rfind("\n") + 1)
        if loc.style in ("|", ">"):
            return loc.line + 1 + newlines, loc.indent + col_in_line + 1
        quote = 1 if loc.style in ("'", '"') else 0
        if newlines == 0:
            return loc.line, loc.column + quote + col_in_line
        return loc.line + newlines, col_in_line + 1


def _walk(node: yaml.Node, where: PathKey, smap: SourceMap, lines: list[str]) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise ConfigError(
                    f"{smap.path}:{line}: duplicate key {key!r} (first at line {seen[key]}); "
                    f"keep only one"
                )
            seen[key] = line
            sub = (*where, key)
            smap.keys[sub] = Located(line, key_node.start_mark.column + 1)
            _walk(value_node, sub, smap, lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*where, index), smap, lines)
    smap.values[where] = _located(node, lines)


def _located(node: yaml.Node, lines: list[str]) -> Located:
    mark = node.start_mark
    style = node.style if isinstance(node, yaml.ScalarNode) else None
    indent = 0
    if style in ("|", ">"):
        for raw in lines[mark.line + 1 :]:
            if raw.strip():
                indent = len(raw) - len(raw.lstrip(" "))
                break
    return Located(mark.line + 1, mark.column + 1, style or None, indent)


def _record_eager(node: yaml.Node, where: PathKey, smap: SourceMap, lines: list[str]) -> None:
    """Keep the position of the scalar `node` at `where`, or of the scalar
    items of the sequence `node` (see `EAGER_KEYS`)."""
    if isinstance(node, yaml.ScalarNode):
        smap._eager[where] = _located(node, lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            if isinstance(item, yaml.ScalarNode):
                smap._eager[(*where, index)] = _located(item, lines)


_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"


class _Unusual(Exception):
    """The document uses a YAML feature the fast path leaves to PyYAML
    (merge keys, non-scalar keys, tagged collections, recursion)."""


def _construct(
    node: yaml.Node,
    loader: Any,
    smap: SourceMap,
    memo: dict[int, Any],
    where: PathKey,
    lines: _Lines,
) -> Any:
    """PyYAML's safe construction of `node` (at `where`) for the common
    shapes, refusing duplicate keys on the way (like `_walk`) and recording
    the positions under `EAGER_KEYS`; `_Unusual` for anything else. Scalars
    other than strings go through PyYAML's own constructors."""
    if isinstance(node, yaml.ScalarNode):
        return node.value if node.tag == _STR else loader.construct_object(node, deep=True)
    done = memo.get(id(node), _PENDING)
    if done is _IN_PROGRESS:
        raise _Unusual
    if done is not _PENDING:
        return done  # an alias of a node built already: the same object, as PyYAML does
    memo[id(node)] = _IN_PROGRESS
    if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
        out: Any = {}
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE:
                raise _Unusual
            line = key_node.start_mark.line + 1
            if key_node.value in seen:
                raise ConfigError(
                    f"{smap.path}:{line}: duplicate key {key_node.value!r} (first at line "
                    f"{seen[key_node.value]}); keep only one"
                )
            seen[key_node.value] = line
            key = _construct(key_node, loader, smap, memo, where, lines)
            try:
                hash(key)
            except TypeError:
                raise _Unusual from None
            sub = (*where, key_node.value)  # keyed as `_walk` keys them
            if key_node.value in EAGER_KEYS:
                _record_eager(value_node, sub, smap, lines.get())
            out[key] = _construct(value_node, loader, smap, memo, sub, lines)
    elif isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
        out = [
            _construct(item, loader, smap, memo, (*where, index), lines)
            for index, item in enumerate(node.value)
        ]
    else:
        raise _Unusual
    memo[id(node)] = out
    return out


_PENDING = object()
_IN_PROGRESS = object()


class _Lines:
    """The document's lines, split on first use (block scalars only)."""

    __slots__ = ("_lines", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines: list[str] | None = None

    def get(self) -> list[str]:
        if self._lines is None:
            self._lines = self._text.splitlines()
        return self._lines


#: libyaml's safe loader when PyYAML was built with it (about 10x faster), else
#: the pure-Python one; both give nodes with line and column marks.
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: One remembered document: its data as JSON text, and its eager positions
#: as rows ``[key path, line, column, style, indent]``.
Document = tuple[str, list[list[Any]]]


class Documents:
    """What reading export files gave, by the SHA-256 (hex) of their bytes.

    Guarantees:

    - An entry is made only from a document `read_yaml` read without error,
      from exactly the bytes its key is the hash of; a hit gives the data and
      positions reading those bytes again would give (fresh objects each
      time: nothing a caller does to them reaches the next hit).
    - Documents whose data JSON cannot carry exactly (non-string keys,
      dates, binary, sets, anchors shared between places) are not
      remembered: they are parsed on every read.
    - Nothing is remembered until `recording` is set (the checker's cache
      file does, `mcp_harbor.check.cachefile.attach`); entries given to
      `preload` are used either way.

    `hits` counts the reads a remembered document answered (tests,
    benchmarks). No locking: one thread at a time reads files.
    """

    __slots__ = ("_entries", "_used", "hits", "recording")

    def __init__(self) -> None:
        self._entries: dict[str, Document] = {}
        self._used: set[str] = set()
        self.hits = 0
        self.recording = False

    def get(self, digest: str) -> tuple[Any, dict[PathKey, Located]] | None:
        """The data and eager positions of the document with `digest`, if remembered."""
        entry = self._entries.get(digest)
        if entry is None:
            return None
        text, rows = entry
        data = json.loads(text)
        eager = {
            tuple(where): Located(line, column, style, indent)
            for where, line, column, style, indent in rows
        }
        self._used.add(digest)
        self.hits += 1
        return data, eager

    def put(self, digest: str, data: Any, eager: Mapping[PathKey, Located]) -> None:
        """Remember a document just read (when `recording`, and when its data is plain)."""
        if not self.recording or not _plain(data, set()):
            return
        rows = [[list(where), o.line, o.column, o.style, o.indent] for where, o in eager.items()]
        self._entries[digest] = (json.dumps(data, separators=(",", ":")), rows)
        self._used.add(digest)

    def entries(self) -> dict[str, Document]:
        """A copy of every entry, by digest."""
        return dict(self._entries)

    def used(self) -> frozenset[str]:
        """The digests read or remembered since the last `clear`."""
        return frozenset(self._used)

    def preload(self, entries: Mapping[str, Document]) -> None:
        """Add entries kept by an earlier start; this process's win."""
        for digest, entry in entries.items():
            self._entries.setdefault(digest, entry)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Forget every entry and stop recording (tests, benchmarks)."""
        self._entries.clear()
        self._used.clear()
        self.hits = 0
        self.recording = False


def _plain(data: Any, seen: set[int]) -> bool:
    """Whether JSON gives `data` back exactly: dicts with string keys,
    lists, strings, ints, floats, booleans and None, no container twice."""
    kind = type(data)
    if kind is str or kind is int or kind is bool or kind is float or data is None:
        return True
    if kind is not dict and kind is not list:
        return False
    if id(data) in seen:
        return False  # a YAML alias: JSON would copy what PyYAML shares
    seen.add(id(data))
    if kind is dict:
        return all(type(k) is str and _plain(v, seen) for k, v in data.items())
    return all(_plain(item, seen) for item in data)


#: The documents of this process (see `Documents`).
documents = Documents()


def read_yaml(
    path: Path, *, kind: Literal["export", "programs", "models", "auth"] = "export"
) -> tuple[Mapping[str, Any], SourceMap, bytes]:
    """Read one YAML document that must be a mapping: an export file, or
    with `kind` ``"programs"`` a ``--programs`` file (for the messages).

    Returns:
        The data, its source map and the file's exact bytes.

    Raises:
        ConfigError: the file cannot be read, is not YAML, holds several
            documents, has duplicate keys, or is not a mapping.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the file: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: the file is not UTF-8 (byte {exc.start}); save it as UTF-8"
        ) from exc
    smap = SourceMap(path, text)
    digest = hashlib.sha256(raw).hexdigest() if kind == "export" else None
    if digest is not None:
        known = documents.get(digest)
        if known is not None:
            smap._eager = known[1]
            return known[0], smap, raw
    loader = _Loader(text)
    try:
        nodes = []
        while loader.check_node():
            nodes.append(loader.get_node())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        col = mark.column + 1 if mark is not None else 1
        raise ConfigError(
            f"{path}:{line}:{col}: invalid YAML: {exc.problem or exc}; fix the syntax at that place"
        ) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {exc}") from exc
    if len(nodes) != 1:
        raise ConfigError(
            f"{path}: expected exactly one YAML document, found {len(nodes)}; "
            + {
                "export": "put one export in each file",
                "programs": "keep one programs: mapping",
                "models": "keep one mapping of endpoints: and models:",
                "auth": "keep one mapping of audience: and issuers:",
            }[kind]
        )
    root = nodes[0]
    if not isinstance(root, yaml.MappingNode):
        raise ConfigError(
            f"{path}:{root.start_mark.line + 1}: "
            + {
                "export": "an export file must be a mapping (name:, description:, steps: …)",
                "programs": "a programs file must be a mapping: "
                "programs: {NAME: {options_with_value: …}}",
                "models": "a models file must be a mapping: endpoints: {NAME: {base_url: …}}, "
                "models: {NAME: {primary: {endpoint: …, model: …}}}",
                "auth": "an auth config file must be a mapping: audience: URL, "
                "issuers: [{issuer: URL, …}]",
            }[kind]
        )
    try:
        try:
            data = _construct(root, loader, smap, {}, (), _Lines(text))
        except _Unusual:
            smap._eager.clear()
            _walk(root, (), SourceMap(path), [])  # duplicate keys first, as the fast path
            data = loader.construct_document(root)
    except yaml.YAMLError as exc:  # composed fine but cannot be constructed (bad tag, …)
        _walk(root, (), SourceMap(path), [])  # a duplicate key is the better message
        raise ConfigError(f"{path}: invalid YAML value: {exc}") from exc
    finally:
        loader.dispose()
    if digest is not None:
        documents.put(digest, data, smap._eager)
    return data, smap, raw
