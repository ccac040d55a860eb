"""``mcp-harbor tools``: what a client will see, and every export it will not.

Every export the files declare is listed: the ones a server offers, and the
others marked unavailable with the reason (refused by the checker, preflight
failed, missing secret), so none vanishes without a trace. ``--as
PRINCIPAL`` narrows the listing to what that caller's ``tools/list`` returns,
through the registry and the ``allow:`` rules the server itself applies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    exports_option,
    harbor_errors,
    load_models_option,
    load_published,
    load_skills_option,
    models_option,
    programs_option,
    skills_option,
    stderr,
    tokens_option,
    use_programs_file,
)

__all__ = ["tools"]

_AS_HELP = (
    "List exactly what this caller's tools/list returns (allow: applied): a static "
    "token's NAME (its tenant and groups from --tokens), local:USER (stdio) or anonymous "
    "(HTTP without tokens)."
)


def _principal(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--as``: a principal a server can resolve (a usage error, exit 2, else)."""
    if value is None:
        return None
    from mcp_harbor.identity import ANONYMOUS, LOCAL_PREFIX
    from mcp_harbor.server.auth import token_name_problem

    if value == ANONYMOUS:
        return value
    if value.startswith(LOCAL_PREFIX):
        if value == LOCAL_PREFIX:
            raise click.BadParameter("local: needs the user after it, e.g. local:alice")
        return value
    problem = token_name_problem(value)
    if problem is not None:
        raise click.BadParameter(
            f"{problem}; or local:USER (stdio), or anonymous (HTTP without tokens)"
        )
    return value


def _token_claims(
    name: str, tokens: Path, groups: tuple[str, ...], tenant: str | None
) -> tuple[tuple[str, ...], str | None]:
    """The groups and tenant of token `name`: its entry's in the tokens
    file when it has one (`groups` and `tenant`, when given, must agree:
    a usage error else), else `groups` and `tenant` as given."""
    from mcp_harbor.server.auth import TokensFile

    with harbor_errors():
        entry = next((e for e in TokensFile(tokens).load() if e.name == name), None)
    if entry is None:
        stderr.print(f"no token {name!r} in {tokens}: its tenant and groups are as given")
        return groups, tenant
    if (groups and sorted(groups) != sorted(entry.groups)) or tenant not in (None, entry.tenant):
        raise click.UsageError(
            f"token {name!r} in {tokens} has tenant {entry.tenant!r} and groups "
            f"{', '.join(entry.groups) or 'none'}: leave out --tenant and --group, or make "
            f"them agree"
        )
    return entry.groups, entry.tenant


@click.command()
@exports_option
@click.option("--json", "as_json", is_flag=True, help="Print the tools/list entries as JSON.")
@click.option("--strict", is_flag=True, help="Checker warnings refuse an export too.")
@click.option("--skip-refused", is_flag=True, help="Leave out the exports the checker refused.")
@programs_option
@models_option
@skills_option
@click.option(
    "--workdir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=None,
    help="Where steps without cwd: run, as serve --workdir (relative needs: are looked for "
    "there). Default: the current directory.",
)
@click.option("--as", "principal", metavar="PRINCIPAL", callback=_principal, help=_AS_HELP)
@click.option(
    "--group",
    "groups",
    multiple=True,
    metavar="NAME",
    help="With --as NAME of a token not in --tokens: a group of it (as token add --group); "
    "repeatable.",
)
@click.option(
    "--tenant",
    default=None,
    metavar="NAME",
    help="With --as NAME of a token not in --tokens: its tenant (as token add --tenant). "
    "Default: default.",
)
@tokens_option
def tools(
    exports: tuple[Path, ...],
    as_json: bool,
    strict: bool,
    skip_refused: bool,
    programs: Path | None,
    models: Path | None,
    skills: Path | None,
    workdir: Path | None,
    principal: str | None,
    groups: tuple[str, ...],
    tenant: str | None,
    tokens: Path,
) -> None:
    """List the tools the exports publish, as a client will see them, and
    each export a client will not see, with the reason."""
    from rich.console import Console
    from rich.table import Table

    from mcp_harbor.harbor import listing
    from mcp_harbor.identity import ANONYMOUS, LOCAL_PREFIX, caller_as
    from mcp_harbor.preflight import Preflight

    token = principal is not None and principal != ANONYMOUS
    token = token and not str(principal).startswith(LOCAL_PREFIX)
    if (groups or tenant is not None) and not token:
        raise click.UsageError(
            "--group and --tenant describe a static token: use them with --as NAME "
            "(local:USER and anonymous callers have no groups and a fixed tenant)"
        )
    if token and principal is not None:
        groups, tenant = _token_claims(principal, tokens, groups, tenant)
    use_programs_file(programs)
    models_file = load_models_option(models)
    load_skills_option(skills)
    published = load_published(exports, strict=strict, skip_refused=True)
    caller = None if principal is None else caller_as(principal, groups=groups, tenant=tenant)
    preflight = Preflight(
        workdir=None if workdir is None else workdir.resolve(), models=models_file
    )
    shown = listing(published, preflight, caller, with_refused=not skip_refused)
    if published.refused and not skip_refused:
        stderr.print(
            "serve refuses to start while the checker refuses an export: fix it "
            "(mcp-harbor check shows how), or pass --skip-refused to publish the others"
        )
    if shown.hidden:
        total = len(shown.tools) + shown.hidden
        stderr.print(f"{shown.hidden} of {total} tools are hidden from {principal} by allow:")
    if as_json:
        entries: list[dict[str, Any]] = [
            {**t.model_dump(mode="json", by_alias=True, exclude_none=True), "available": True}
            for t in shown.tools
        ]
        for export, why in shown.unavailable:
            entry: dict[str, Any] = {"name": export.name}
            if export.spec.title is not None:
                entry["title"] = export.spec.title
            entry.update(description=export.spec.description, available=False, reason=why)
            entries.append(entry)
        click.echo(json.dumps({"tools": entries}, indent=2))
        return
    console = Console(markup=False, highlight=False)
    who = "" if principal is None else f" for {principal}"
    table = Table("tool", "arguments", "description", title=f"{len(shown.tools)} tools{who}")
    for tool in shown.tools:
        schema = tool.input_schema
        required = set(schema.get("required", []))
        args = ", ".join(
            f"{name}{'' if name in required else '?'}: {sub.get('type', 'any')}"
            for name, sub in schema["properties"].items()
        )
        table.add_row(tool.name, args or "-", (tool.description or "").strip())
    console.print(table)
    if shown.unavailable:
        gone = Table("export", "why", title=f"{len(shown.unavailable)} unavailable{who}")
        for export, why in shown.unavailable:
            gone.add_row(export.name, why)
        console.print(gone)
