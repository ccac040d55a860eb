"""The quoting contexts the analysis hands the rules: where a placeholder or
an expansion of caller data sits, by its ancestors in the tree
(`mcp_harbor.check._analysis`), and what the rules say about them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

__all__ = ["CONTEXT_NAMES", "SPLIT_GLOB", "Quoting"]

#: Where bash reads a piece of caller data.
Quoting = Literal[
    "unquoted",
    "double",
    "single",
    "ansi-c",
    "heredoc",
    "heredoc-quoted",
    "heredoc-delimiter",
    "comment",
    "backticks",
    "parameter-expansion",
]

#: Each context as findings name it.
CONTEXT_NAMES: Mapping[Quoting, str] = {
    "unquoted": "an unquoted word",
    "double": "double quotes",
    "single": "single quotes",
    "ansi-c": "`$'…'` quotes",
    "heredoc": "a here-document body",
    "heredoc-quoted": "a quoted here-document body",
    "heredoc-delimiter": "a here-document delimiter",
    "comment": "a comment",
    "backticks": "backticks",
    "parameter-expansion": "a `${…}` expansion",
}

#: Characters that make an unquoted word split or glob (W102, W104).
SPLIT_GLOB = frozenset(" \t*?[]")
