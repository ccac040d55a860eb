"""``mcp-harbor token``: manage the HTTP bearer tokens."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mcp_harbor.cli._app import EXIT_USAGE, abort, tokens_option

__all__ = ["token"]


@click.group()
def token() -> None:
    """Create, list and revoke HTTP bearer tokens (the principal is the token's name)."""


@token.command("add")
@click.argument("name")
@click.option("--tenant", default="default", show_default=True, help="The caller's tenant.")
@click.option("--group", "groups", multiple=True, help="A group the caller is in; repeatable.")
@tokens_option
def add(name: str, tenant: str, groups: tuple[str, ...], tokens: Path) -> None:
    """Create a token for NAME and print it once (only its hash is stored)."""
    from mcp_harbor.errors import ConfigError
    from mcp_harbor.server.auth import TokensFile

    try:
        secret = TokensFile(tokens).add(name, tenant, groups)
    except ConfigError as exc:
        abort(str(exc), EXIT_USAGE)
    click.echo(secret)
    click.echo(
        f"token for {name!r} (tenant {tenant!r}) stored as a hash in {tokens}; "
        f"it is shown only now",
        err=True,
    )


@token.command("list")
@tokens_option
@click.option("--json", "as_json", is_flag=True)
def list_(tokens: Path, as_json: bool) -> None:
    """List the tokens' names, tenants and groups (never the tokens)."""
    from mcp_harbor.errors import ConfigError
    from mcp_harbor.server.auth import TokensFile

    try:
        entries = TokensFile(tokens).load()
    except ConfigError as exc:
        abort(str(exc), EXIT_USAGE)
    if as_json:
        rows = [{k: v for k, v in e.to_json().items() if k != "sha256"} for e in entries]
        click.echo(json.dumps(rows, indent=2))
        return
    if not entries:
        click.echo(f"no tokens in {tokens}")
    for e in entries:
        click.echo(f"{e.name}\ttenant={e.tenant}\tgroups={','.join(e.groups) or '-'}\t{e.created}")


@token.command("revoke")
@click.argument("name")
@tokens_option
def revoke(name: str, tokens: Path) -> None:
    """Revoke NAME's token (a running server stops accepting it at once)."""
    from mcp_harbor.errors import ConfigError
    from mcp_harbor.server.auth import TokensFile

    try:
        removed = TokensFile(tokens).revoke(name)
    except ConfigError as exc:
        abort(str(exc), EXIT_USAGE)
    if not removed:
        abort(f"no token named {name!r} in {tokens}", EXIT_USAGE)
    click.echo(f"revoked {name!r}")
