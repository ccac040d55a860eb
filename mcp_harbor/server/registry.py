"""The registry of published tools: checked exports, compiled for calling.

A registry is immutable once built; a reload builds a new one and swaps it
whole, so a running call keeps the version it started with.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import mcp_types as types

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.config import Export
from mcp_harbor.identity import Caller
from mcp_harbor.policy import is_allowed

__all__ = ["PublishedTool", "Registry"]


@dataclass(frozen=True, slots=True)
class PublishedTool:
    """One export as a client sees it, plus what a call needs."""

    export: Export
    validator: ArgumentValidator
    tool: types.Tool


def _tool_of(export: Export) -> types.Tool:
    annotations = None
    if export.spec.annotations is not None:
        annotations = types.ToolAnnotations.model_validate(
            export.spec.annotations.model_dump(exclude_none=True)
        )
    return types.Tool(
        name=export.name,
        title=export.spec.title,
        description=export.spec.description,
        input_schema=dict(export.input_schema),
        # Only an export's own output_schema is declared: the envelope is the
        # same for every tool, and declaring it on each cost every client
        # (and every model's context) ~1.6 KB a tool (docs/exports.md, "What
        # a tool declares as outputSchema").
        output_schema=(
            dict(export.spec.output_schema) if export.spec.output_schema is not None else None
        ),
        annotations=annotations,
    )


class Registry(Mapping[str, PublishedTool]):
    """Name → published tool, in the order the exports were loaded.

    Build it only from exports that passed the checker
    (`mcp_harbor.check.load_and_check(...).accepted`); `refused` names the
    exports the checker refused. It is the call path's `Catalog`.
    """

    def __init__(self, exports: Iterable[Export], refused: Iterable[str] = ()) -> None:
        self.refused = frozenset(refused)
        self._tools: dict[str, PublishedTool] = {}
        for export in exports:
            self._tools[export.name] = PublishedTool(
                export, ArgumentValidator(export), _tool_of(export)
            )
        self._listing = [entry.tool for entry in self._tools.values()]
        # Exports grouped by their allow: rules, so that what a caller may
        # see is decided once per distinct rule, not once per tool.
        rules: dict[tuple[str, ...], int] = {}
        self._rule_of: list[int] = []
        for entry in self._tools.values():
            self._rule_of.append(rules.setdefault(tuple(entry.export.spec.allow), len(rules)))
        self._rules = list(rules)
        #: Wire forms of earlier ``tools/list`` answers of this registry, by
        #: `visibility` and protocol version (`mcp_harbor.server.listing`).
        #: A reload builds a new registry, so it starts empty.
        self.answers: dict[Hashable, dict[str, Any]] = {}

    def __getitem__(self, name: str) -> PublishedTool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def find(self, name: str) -> PublishedTool | None:
        """The published tool of that name, or None (`Catalog.find`)."""
        return self._tools.get(name)

    def was_refused(self, name: str) -> bool:
        return name in self.refused

    def tools(self) -> list[types.Tool]:
        """Every tool, whoever asks (built once)."""
        return self._listing

    def visibility(self, caller: Caller) -> tuple[bool, ...]:
        """Which of the distinct ``allow:`` rules admit `caller`: two callers
        with the same value see the same tools."""
        return tuple(is_allowed(caller, rule) for rule in self._rules)

    def visible_tools(self, caller: Caller) -> list[types.Tool]:
        """The tools `caller` may see and call, in registry order."""
        admitted = self.visibility(caller)
        return [
            tool for tool, rule in zip(self._listing, self._rule_of, strict=True) if admitted[rule]
        ]

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        entry = self._tools.get(name)
        return entry.export.input_schema if entry is not None else None
