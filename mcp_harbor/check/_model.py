"""Findings and reports: the checker's results as data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["ExportReport", "Finding"]

Severity = Literal["error", "warning"]
Confidence = Literal["high", "medium", "low"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one export.

    `line` and `column` are 1-based positions in the export's YAML file.
    `severity` "error" refuses the export; "warning" refuses it only under
    ``--strict``. `confidence` is the rule's (`Rule.confidence`): how sure
    the rule is that such a finding is a real problem.
    """

    rule: str
    name: str
    severity: Severity
    step: str | None
    line: int
    column: int
    arg: str | None
    message: str
    fix: str
    confidence: Confidence = "high"

    def to_json(self) -> dict[str, Any]:
        """The issue's finding object: exactly rule, severity, confidence,
        step, line, column, arg, message and fix."""
        return {
            "rule": self.rule,
            "severity": self.severity,
            "confidence": self.confidence,
            "step": self.step,
            "line": self.line,
            "column": self.column,
            "arg": self.arg,
            "message": self.message,
            "fix": self.fix,
        }


@dataclass(frozen=True, slots=True)
class ExportReport:
    """The verdict on one export. `status` is "refused" when any finding is
    an error (warnings do not refuse; see `refused_under`)."""

    name: str
    file: str
    status: Literal["accepted", "refused"]
    findings: Sequence[Finding] = field(default_factory=tuple)

    def refused_under(self, strict: bool) -> bool:
        """Whether the export is refused: any error, or under `strict` any
        finding at all."""
        if self.status == "refused":
            return True
        return strict and bool(self.findings)

    def status_under(self, strict: bool) -> Literal["accepted", "refused"]:
        """`status` as `strict` decides it (see `refused_under`)."""
        return "refused" if self.refused_under(strict) else "accepted"

    def to_json(self, *, strict: bool = False) -> dict[str, Any]:
        """``{"name", "file", "status", "findings"}``, with the status that
        `strict` decides."""
        return {
            "name": self.name,
            "file": self.file,
            "status": self.status_under(strict),
            "findings": [f.to_json() for f in self.findings],
        }
