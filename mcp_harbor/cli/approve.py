"""``mcp-harbor approve|deny|approvals``: answer runs waiting for an operator."""

from __future__ import annotations

import json

import click

from mcp_harbor.cli._app import EXIT_TOOL_ERROR, EXIT_USAGE, abort, db_label, db_option, open_store

__all__ = ["approvals", "approve", "deny"]


def _answer(run_id: str, db: str, decision: str) -> None:
    from mcp_harbor.identity import local_principal

    store = open_store(db)
    try:
        outcome = store.decide(run_id, decision, local_principal())
    finally:
        store.close()
    if outcome == "decided":
        click.echo(f"{decision} run {run_id} (as {local_principal()})")
    elif outcome == "unknown":
        abort(f"no run {run_id!r} is waiting for approval in {db_label(db)}", EXIT_USAGE)
    else:
        abort(f"run {run_id} was already answered: {outcome}", EXIT_TOOL_ERROR)


@click.command()
@click.argument("run_id")
@db_option
def approve(run_id: str, db: str, db_sync: str) -> None:
    """Approve RUN_ID, which waits for an operator (recorded as you)."""
    _answer(run_id, db, "approved")


@click.command()
@click.argument("run_id")
@db_option
def deny(run_id: str, db: str, db_sync: str) -> None:
    """Deny RUN_ID: nothing runs, the audit records it as declined."""
    _answer(run_id, db, "denied")


@click.command()
@db_option
@click.option("--json", "as_json", is_flag=True)
def approvals(db: str, db_sync: str, as_json: bool) -> None:
    """List the runs waiting for an operator's approval."""
    store = open_store(db, readonly=True)
    pending = store.pending_approvals()
    if as_json:
        for item in pending:
            click.echo(json.dumps(item, sort_keys=True))
        return
    if not pending:
        click.echo("no run is waiting for approval")
    for item in pending:
        click.echo(
            f"{item['run_id']}  {item['tool']}  by {item['principal']}  "
            f"since {item['requested_at'][:19]}: {item['message']}"
        )
