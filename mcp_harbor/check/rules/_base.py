"""The shape every rule shares: metadata as class attributes, documentation
in the class docstring under fixed headings."""

from __future__ import annotations

from typing import ClassVar, Literal

__all__ = ["DOC_HEADINGS", "Rule"]

#: The headings every rule docstring has, in this order.
DOC_HEADINGS = (
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Known problems",
    "References",
)


class Rule:
    """Base of the rules. Subclasses set the class attributes and write the
    docstring; the analysis (`mcp_harbor.check._analysis`) reports hazards
    under their ids."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    severity: ClassVar[Literal["error", "warning"]]
    confidence: ClassVar[Literal["high", "medium", "low"]] = "high"
    since: ClassVar[str] = "0.1.0"

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation (its docstring, dedented)."""
        import inspect

        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def section(cls, heading: str) -> str:
        """The text under one of `DOC_HEADINGS`."""
        lines = cls.doc().splitlines()
        out: list[str] = []
        inside = False
        for line in lines:
            if line.startswith("## "):
                inside = line[3:].strip() == heading
                continue
            if inside:
                out.append(line)
        return "\n".join(out).strip()
