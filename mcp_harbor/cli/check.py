"""``mcp-harbor check``: run the export checker and report its findings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from mcp_harbor.cli._app import (
    DEFAULT_EXPORTS,
    abort,
    load_models_option,
    load_skills_option,
    models_option,
    programs_option,
    sandbox_option,
    skills_option,
    use_programs_file,
)
from mcp_harbor.defaults import SandboxMode

if TYPE_CHECKING:
    from mcp_harbor.config import Export

__all__ = ["check"]

EXIT_ACCEPTED, EXIT_REFUSED, EXIT_LOAD_ERROR = 0, 1, 2


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
    help="Output format (json and sarif go to stdout).",
)
@click.option("--strict", is_flag=True, help="Refuse exports that have warnings too.")
@click.option("--explain", "explain", metavar="RULE", help="Print a rule's documentation and exit.")
@click.option(
    "--preflight",
    is_flag=True,
    help="Also probe each accepted export's needs (programs, env, files, TCP), the "
    "sources of the models its agent steps name (--models) and the sandbox layers it "
    "asks for, and exit 1 when any is missing (a layer only under --sandbox required).",
)
@programs_option
@models_option
@skills_option
@sandbox_option
def check(
    paths: tuple[Path, ...],
    fmt: str,
    strict: bool,
    explain: str | None,
    preflight: bool,
    programs: Path | None,
    models: Path | None,
    skills: Path | None,
    sandbox: SandboxMode,
) -> None:
    """Check export files (files or folders; default ./exports).

    Exit 0 when every export is accepted (warnings allowed unless --strict),
    1 when at least one is refused, 2 when a file cannot be loaded.
    """
    from mcp_harbor.check import load_and_check
    from mcp_harbor.check.report import render_json, render_sarif, render_text
    from mcp_harbor.check.rules import rule
    from mcp_harbor.errors import ConfigError

    if explain is not None:
        try:
            found = rule(explain)
        except KeyError:
            abort(f"unknown rule {explain!r}; rules are H000-H009 and W101-W105", EXIT_LOAD_ERROR)
        click.echo(f"{found.id} {found.name} ({found.severity})\n\n{found.doc()}")
        return
    use_programs_file(programs)
    models_file = load_models_option(models)  # a bad file is refused, --preflight or not
    load_skills_option(skills)
    try:
        result = load_and_check(list(paths) or [DEFAULT_EXPORTS], strict=strict)
    except ConfigError as exc:
        abort(str(exc), EXIT_LOAD_ERROR)
    if fmt == "sarif":  # SARIF carries no verdict, only the findings
        output = render_sarif(result.reports)
    else:
        output = {"text": render_text, "json": render_json}[fmt](result.reports, strict=strict)
    click.echo(output, nl=False)
    not_ready: list[str] = []
    if preflight:
        from mcp_harbor.preflight import Preflight

        for verdict in Preflight(models=models_file).verdicts(result.accepted):
            if not verdict.ready:
                not_ready.append(verdict.export)
            for need in verdict.missing:
                click.echo(f"preflight: {verdict.export}: {need.describe()}", err=True)
            for model in verdict.models:  # model coder: primary gpu-box unreachable (...)
                click.echo(f"preflight: {verdict.export}: {model}", err=True)
        not_ready += _unconfinable(result.accepted, sandbox, set(not_ready))
        ready = len(result.accepted) - len(not_ready)
        click.echo(f"preflight: {ready} of {len(result.accepted)} accepted exports ready", err=True)
    if result.refused or not_ready:
        raise SystemExit(EXIT_REFUSED)


def _unconfinable(exports: list[Export], mode: SandboxMode, counted: set[str]) -> list[str]:
    """Say what the sandbox enforces here and, for each export, which of the
    layers it asks for are missing; the exports that are therefore not
    ready (``required`` only, and not already counted)."""
    from mcp_harbor.harbor import HarborSettings
    from mcp_harbor.runner.sandbox import Sandbox

    sandbox = Sandbox(mode, HarborSettings().hidden_paths())
    for line in sandbox.describe():
        click.echo(f"preflight: {line}", err=True)
    out = []
    for export in exports:
        for missing in sandbox.missing(export.spec.sandbox):
            verdict = "cannot be confined" if mode == "required" else "runs less confined"
            click.echo(f"preflight: {export.name}: {verdict}: {missing}", err=True)
            if mode == "required" and export.name not in counted:
                out.append(export.name)
                counted.add(export.name)
    return out
