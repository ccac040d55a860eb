"""The two parser gates: tree-sitter-bash for structure, ``bash -n`` for syntax.

tree-sitter gives every quote, expansion and here-doc a node and a byte span,
but it accepts some scripts bash rejects (a stray ``fi``, ``done``, ``;;``).
``bash -n`` is the authority on syntax; any output from it (an unterminated
here-doc is only a warning) counts as a failure. A script must pass both.

``bash -n`` costs a process spawn (~1 ms of CPU), so verdicts are cached by
the SHA-256 of the script text for the life of the process (and across starts
through `mcp_harbor.check.cachefile`), and `prime` queues many scripts for a
worker process to check (`mcp_harbor.check._bash_n`) while the caller goes on
with its own work; `bash_syntax_error` waits only for what is still running.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from collections.abc import Iterable, Iterator, Mapping

import tree_sitter_bash
from tree_sitter import Language, Node, Parser, Tree

from mcp_harbor.check._bash_n import Pool

__all__ = [
    "bash_identity",
    "bash_syntax_error",
    "cached_count",
    "clear_cache",
    "parse_tree",
    "preload",
    "prime",
    "snapshot",
    "tree_error",
]

_LANGUAGE = Language(tree_sitter_bash.language())
_local = threading.local()
_BASH = shutil.which("bash") or "/bin/bash"
_CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
#: ``bash -n`` processes at a time once a caller waits for verdicts (every
#: core busy), and before (one core left to the caller's own work: loading,
#: imports, the analysis; measured on 2 cores, 1,000 exports).
_WORKERS = (_CPUS or 1) + 2
_BACKGROUND = max(1, (_CPUS or 1) - 1)
_cache: dict[str, str | None] = {}
_pending: dict[str, threading.Event] = {}
_used: set[str] = set()  # keys looked up by this process
_lock = threading.Lock()


def _parser() -> Parser:
    parser: Parser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = Parser(_LANGUAGE)
        _local.parser = parser
    return parser


def walk(node: Node) -> Iterator[Node]:
    """`node` and every node below it, in document order."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def parse_tree(text: str) -> Tree:
    """The tree-sitter parse of `text` (UTF-8)."""
    return _parser().parse(text.encode("utf-8"))


def tree_error(tree: Tree) -> Node | None:
    """The first ERROR or MISSING node of `tree`, if any."""
    root = tree.root_node
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return root


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _done(key: str, verdict: str | None) -> None:
    with _lock:
        _cache[key] = verdict
        event = _pending.pop(key, None)
    if event is not None:
        event.set()


_pool = Pool(_BASH, _done, workers=_WORKERS, background=_BACKGROUND)


def _queue(texts: Iterable[str], *, first: bool) -> dict[str, threading.Event]:
    """Queue the uncached `texts`; the events of every one still pending."""
    todo: list[tuple[str, str]] = []
    waits: dict[str, threading.Event] = {}
    with _lock:
        for text in texts:
            key = _key(text)
            if key in _cache:
                continue
            event = _pending.get(key)
            if event is None:
                event = _pending[key] = threading.Event()
                todo.append((key, text))
            waits[key] = event
    if todo:
        _pool.add(todo, first=first)
    return waits


def bash_syntax_error(text: str) -> str | None:
    """What ``bash -n`` says about `text`, or None when it says nothing and
    exits 0. Cached by content hash; waits for a verdict `prime` queued."""
    key = _key(text)
    with _lock:
        _used.add(key)
        if key in _cache:
            return _cache[key]
    waits = _queue([text], first=True)
    if waits:
        _pool.hurry()
    for event in waits.values():
        event.wait()
    with _lock:
        return _cache[key]


def prime(texts: Iterable[str]) -> None:
    """Start ``bash -n`` on every uncached text of `texts` in the background
    (`bash_syntax_error` then waits only for what is still running)."""
    _queue(texts, first=False)


def bash_identity() -> str:
    """Which ``bash`` gives the verdicts: its resolved path, size, mtime and
    inode (a verdict of another bash is not reused)."""
    path = os.path.realpath(_BASH)
    try:
        info = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{info.st_size}:{info.st_mtime_ns}:{info.st_dev}:{info.st_ino}"


def preload(verdicts: Mapping[str, str | None]) -> None:
    """Add verdicts kept from an earlier start (keys: SHA-256 of the script);
    verdicts of this process win."""
    with _lock:
        for key, verdict in verdicts.items():
            _cache.setdefault(key, verdict)


def cached_count() -> int:
    """How many verdicts are cached."""
    with _lock:
        return len(_cache)


def snapshot(limit: int) -> dict[str, str | None]:
    """The cached verdicts; past `limit`, only the ones this process used."""
    with _lock:
        if len(_cache) <= limit:
            return dict(_cache)
        return {k: v for k, v in _cache.items() if k in _used}


def clear_cache() -> None:
    """Forget every cached verdict (for benchmarks and tests), once the
    queued ones are in."""
    with _lock:
        waits = list(_pending.values())
    if waits:
        _pool.hurry()
    for event in waits:
        event.wait()
    with _lock:
        _cache.clear()
        _used.clear()
