"""The export checker: before an export is registered, every command it would
run is parsed and checked, and an export where a caller's value could become
shell syntax, code or the choice of program is refused.

`load_and_check` is the gate: the server, ``tools`` and ``call`` register only
its ``accepted`` exports. `check_export` is the pure check of one loaded
export. See ``docs/rules.md`` for the rules and ``docs/design.md`` for why
the checker parses the way it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mcp_harbor.check._analysis import Hazard, analyse_argv, analyse_script, substitute
from mcp_harbor.check._gates import prime
from mcp_harbor.check._model import ExportReport, Finding
from mcp_harbor.check._values import ValueModel, model_for
from mcp_harbor.check.rules import RULES
from mcp_harbor.config import Export, load_exports

__all__ = [
    "CheckedExports",
    "ExportReport",
    "Finding",
    "check_export",
    "check_exports",
    "clear_cache",
    "load_and_check",
]

_cache: dict[str, ExportReport] = {}
_used: set[str] = set()  # report keys looked up by this process


def _findings(export: Export, step_name: str, hazards: list[Hazard]) -> list[Finding]:
    out: list[Finding] = []
    seen: set[tuple[str, str | None, int, int]] = set()
    for hazard in hazards:
        line, column = (
            export.locate(*hazard.where) if hazard.where[0] else export.locate(("steps",))
        )
        key = (hazard.rule, hazard.arg, line, column)
        if key in seen:
            continue
        seen.add(key)
        rule = RULES[hazard.rule]
        arg = f" arg {hazard.arg!r}" if hazard.arg else ""
        message = (
            f"{export.name}: step {step_name!r}, line {line}, column {column}:{arg}: "
            f"{hazard.detail} [{rule.id} {rule.name}]"
        )
        out.append(
            Finding(
                rule.id,
                rule.name,
                rule.severity,
                step_name,
                line,
                column,
                hazard.arg,
                message,
                hazard.fix,
            )
        )
    return out


def _scripts(export: Export, models: dict[str, ValueModel]) -> list[str]:
    texts: list[str] = []
    for step in export.all_steps:
        if step.script is not None:
            texts.append(substitute(step.script, models, (*step.where, "run"))[0])
    return texts


def check_export(export: Export) -> ExportReport:
    """Check every step of `export`. Pure; never raises for a bad template
    (an unparseable one is an H000 finding). Results are cached by the
    export's content hash and path."""
    key = f"{export.content_hash}:{export.path}"
    _used.add(key)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    models = {name: model_for(schema) for name, schema in export.arg_schemas.items()}
    findings: list[Finding] = []
    for step in export.all_steps:
        if step.script is not None:
            text, sentinels = substitute(step.script, models, (*step.where, "run"))
            hazards = analyse_script(text, sentinels, models)
        else:
            assert step.argv is not None
            elements = [
                substitute(t, models, (*step.where, "argv", i)) for i, t in enumerate(step.argv)
            ]
            hazards = analyse_argv(elements, models)
        findings.extend(_findings(export, step.name, hazards))
    findings.sort(key=lambda f: (f.line, f.column, f.rule))
    status: Literal["accepted", "refused"] = (
        "refused" if any(f.severity == "error" for f in findings) else "accepted"
    )
    report = ExportReport(export.name, str(export.path), status, tuple(findings))
    _cache[key] = report
    return report


def check_exports(exports: Sequence[Export]) -> list[ExportReport]:
    """`check_export` on each, with the ``bash -n`` gate primed in parallel."""
    texts: list[str] = []
    for export in exports:
        if f"{export.content_hash}:{export.path}" in _cache:
            continue
        models = {name: model_for(schema) for name, schema in export.arg_schemas.items()}
        texts.extend(_scripts(export, models))
    prime(texts)
    return [check_export(e) for e in exports]


@dataclass(frozen=True, slots=True)
class CheckedExports:
    """The result of the gate: which exports may be registered."""

    accepted: list[Export] = field(default_factory=list)
    refused: list[ExportReport] = field(default_factory=list)
    reports: list[ExportReport] = field(default_factory=list)


def load_and_check(
    paths: Sequence[Path], *, strict: bool = False, cache_file: Path | None = None
) -> CheckedExports:
    """Load the export files under `paths` and check each export.

    Under `strict`, warnings refuse an export too. With `cache_file`, verdicts
    kept there by an earlier start are reused (and new ones written back);
    see `mcp_harbor.check.cachefile` for why that never accepts an export
    the checker would refuse.

    Raises:
        ConfigError: a file cannot be loaded (as `mcp_harbor.config.load_exports`).
    """
    from mcp_harbor.check import cachefile

    exports = load_exports(paths)
    if cache_file is not None and cachefile.attached() != cache_file:
        cachefile.attach(cache_file)
    reports = check_exports(exports)
    accepted = [e for e, r in zip(exports, reports, strict=True) if not r.refused_under(strict)]
    if cache_file is not None:
        from mcp_harbor.check.commands import programs_of

        for export in accepted:  # what preflight asks next: keep it with the verdicts
            programs_of(export)
        cachefile.save()
    refused = [r for r in reports if r.refused_under(strict)]
    return CheckedExports(accepted, refused, reports)


def clear_cache() -> None:
    """Forget cached reports and ``bash -n`` verdicts (benchmarks, tests)."""
    from mcp_harbor.check._gates import clear_cache as clear_gates
    from mcp_harbor.check.commands import _cache as programs

    _cache.clear()
    _used.clear()
    programs.clear()
    clear_gates()
