"""The shape every rule shares: metadata as class attributes, documentation
in the class docstring under fixed headings, and `Rule.hazard`, which builds
a finding under the rule's own id.

Rules read the facts the analysis hands over (`mcp_harbor.check._facts`)
and the tables of `mcp_harbor.check.sinks`; they never import the analysis
(`_analysis`, `_roles`, `_taint`), which imports them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ, Word

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
    """Base of the rules. Subclasses set the class attributes, write the
    docstring and decide, in classmethods taking plain facts, whether those
    facts are a finding; the analysis (`mcp_harbor.check._analysis`,
    `mcp_harbor.check._roles`) gathers the facts and records what the rules
    return."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    severity: ClassVar[Literal["error", "warning"]]
    confidence: ClassVar[Literal["high", "medium", "low"]] = "high"
    since: ClassVar[str] = "0.1.0"

    @classmethod
    def hazard(cls, arg: str | None, where: Located, detail: str, fix: str) -> Hazard:
        """A finding of this rule (its id is the class's) about `arg` at `where`."""
        return Hazard(cls.id, arg, where, detail, fix)

    @classmethod
    def about(cls, subject: Word | Occ, where: Located, detail: str, fix: str) -> Hazard:
        """A finding of this rule about the caller data in `subject` (an
        occurrence's arg; a word's first occurrence's arg, or none)."""
        arg = (subject.arg or None) if isinstance(subject, Word) else subject.arg
        return cls.hazard(arg, where, detail, fix)

    @classmethod
    def amend_fix(cls, fix: str, arg: str, schema: Mapping[str, Any]) -> str:
        """`fix`, a finding's fix about arg `arg`, made true of that arg's
        declaration `schema` (the analysis sees value models, not schemas:
        a rule whose advice depends on what the author wrote says so here).
        By default, unchanged."""
        del arg, schema
        return fix

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
