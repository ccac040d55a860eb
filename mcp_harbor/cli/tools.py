"""``mcp-harbor tools``: what a client will see."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mcp_harbor.cli._app import exports_option, load_published, programs_option, use_programs_file

__all__ = ["tools"]


@click.command()
@exports_option
@click.option("--json", "as_json", is_flag=True, help="Print the tools/list entries as JSON.")
@click.option("--strict", is_flag=True, help="Checker warnings refuse an export too.")
@click.option("--skip-refused", is_flag=True, help="List the accepted exports only.")
@programs_option
def tools(
    exports: tuple[Path, ...],
    as_json: bool,
    strict: bool,
    skip_refused: bool,
    programs: Path | None,
) -> None:
    """List the tools the exports publish, as a client will see them."""
    from rich.console import Console
    from rich.table import Table

    from mcp_harbor.server import Registry

    use_programs_file(programs)
    registry = Registry(load_published(exports, strict=strict, skip_refused=skip_refused).exports)
    if as_json:
        listing = [
            t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in registry.tools()
        ]
        click.echo(json.dumps({"tools": listing}, indent=2))
        return
    table = Table("tool", "arguments", "description", title=f"{len(registry)} tools")
    for entry in registry.values():
        schema = entry.export.input_schema
        required = set(schema.get("required", []))
        args = ", ".join(
            f"{name}{'' if name in required else '?'}: {sub.get('type', 'any')}"
            for name, sub in schema["properties"].items()
        )
        table.add_row(entry.export.name, args or "-", entry.export.spec.description.strip())
    Console(markup=False, highlight=False).print(table)
