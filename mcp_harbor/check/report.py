"""Render checker reports for people (text), programs (JSON) and GitHub code
scanning (SARIF 2.1.0)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcp_harbor import __version__
from mcp_harbor.check._model import ExportReport
from mcp_harbor.check.rules import RULES

__all__ = ["render_json", "render_sarif", "render_text"]

_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render_text(reports: Sequence[ExportReport], *, strict: bool = False) -> str:
    """One line per finding (``file:line:col: RULE severity: message``), its
    fix indented below, and a summary line counting the exports accepted and
    refused as `strict` decides (under it, warnings refuse too)."""
    lines: list[str] = []
    refused = 0
    for report in reports:
        if report.refused_under(strict):
            refused += 1
        for finding in report.findings:
            lines.append(
                f"{report.file}:{finding.line}:{finding.column}: {finding.rule} "
                f"[{finding.severity}] {finding.message}"
            )
            lines.append(f"    fix: {finding.fix}")
    warnings = sum(1 for r in reports for f in r.findings if f.severity == "warning")
    lines.append(
        f"{len(reports)} exports checked: {len(reports) - refused} accepted, {refused} refused"
        f" ({warnings} warnings{', --strict' if strict else ''})"
    )
    return "\n".join(lines) + "\n"


def render_json(reports: Sequence[ExportReport], *, strict: bool = False) -> str:
    """``{"exports": [{"name", "file", "status", "findings": [...]}]}``; each
    `status` is the one `strict` decides (under it, warnings refuse too)."""
    exports = [r.to_json(strict=strict) for r in reports]
    return json.dumps({"exports": exports}, indent=2) + "\n"


def _uri(file: str) -> str:
    path = Path(file)
    try:
        return Path(os.path.relpath(path.resolve(), Path.cwd())).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def render_sarif(reports: Sequence[ExportReport]) -> str:
    """A SARIF 2.1.0 log with one run, the rules' metadata and one result per
    finding located on its YAML line and column."""
    rule_ids = list(RULES)
    rules: list[dict[str, Any]] = []
    for rule_id in rule_ids:
        rule = RULES[rule_id]
        rules.append(
            {
                "id": rule.id,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.section("What it does")},
                "help": {"text": rule.doc(), "markdown": rule.doc()},
                "helpUri": f"https://github.com/mcp-harbor/mcp-harbor/blob/main/docs/rules.md#{rule.id.lower()}-{rule.name}",
                "defaultConfiguration": {"level": rule.severity},
                "properties": {"confidence": rule.confidence, "tags": ["security"]},
            }
        )
    results: list[dict[str, Any]] = []
    for report in reports:
        for finding in report.findings:
            results.append(
                {
                    "ruleId": finding.rule,
                    "ruleIndex": rule_ids.index(finding.rule),
                    "level": finding.severity,
                    "message": {"text": f"{finding.message}\nFix: {finding.fix}"},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": _uri(report.file)},
                                "region": {
                                    "startLine": finding.line,
                                    "startColumn": finding.column,
                                },
                            },
                            "logicalLocations": [
                                {
                                    "name": finding.step or report.name,
                                    "fullyQualifiedName": f"{report.name}/{finding.step}",
                                }
                            ],
                        }
                    ],
                    "properties": {
                        "export": report.name,
                        "arg": finding.arg,
                        "fix": finding.fix,
                        "confidence": finding.confidence,
                    },
                }
            )
    log = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mcp-harbor",
                        "version": __version__,
                        "informationUri": "https://github.com/mcp-harbor/mcp-harbor",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"
