"""``mcp-harbor check``: run the export checker and report its findings."""

from __future__ import annotations

from pathlib import Path

import click

from mcp_harbor.cli._app import DEFAULT_EXPORTS, abort, programs_option, use_programs_file

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
    help="Also probe each accepted export's needs (programs, env, files, TCP) and exit 1 "
    "when any is missing.",
)
@programs_option
def check(
    paths: tuple[Path, ...],
    fmt: str,
    strict: bool,
    explain: str | None,
    preflight: bool,
    programs: Path | None,
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
    try:
        result = load_and_check(list(paths) or [DEFAULT_EXPORTS], strict=strict)
    except ConfigError as exc:
        abort(str(exc), EXIT_LOAD_ERROR)
    if fmt == "sarif":  # SARIF carries no verdict, only the findings
        output = render_sarif(result.reports)
    else:
        output = {"text": render_text, "json": render_json}[fmt](result.reports, strict=strict)
    click.echo(output, nl=False)
    not_ready = []
    if preflight:
        from mcp_harbor.preflight import Preflight

        not_ready = [v for v in Preflight().verdicts(result.accepted) if not v.ready]
        for verdict in not_ready:
            for need in verdict.missing:
                click.echo(f"preflight: {verdict.export}: {need.describe()}", err=True)
        ready = len(result.accepted) - len(not_ready)
        click.echo(f"preflight: {ready} of {len(result.accepted)} accepted exports ready", err=True)
    if result.refused or not_ready:
        raise SystemExit(EXIT_REFUSED)
