"""``mcp-harbor audit``: read and verify the audit trail.

The group lists calls; its listing options (``--who``, ``--export``,
``--status``, ``--since``, ``--limit``, ``--json``) apply to that listing
only, so given with a subcommand they are a usage error (exit 2), never
ignored. ``--db`` given to the group applies to ``show`` and ``verify``
(given to both with different values: a usage error).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    abort,
    audit_key_option,
    db_label,
    exports_option,
    harbor_errors,
    load_published,
    open_store,
)

__all__ = ["audit"]


def _db_option(fn: Any) -> Any:
    from mcp_harbor.locations import default_db_path

    return click.option(
        "--db",
        type=str,
        default=lambda: str(default_db_path()),
        show_default="$XDG_STATE_HOME/mcp-harbor/harbor.db",
        envvar="MCP_HARBOR_DB",
        help="The store: a SQLite file, or postgresql://USER@HOST:PORT/DBNAME.",
    )(fn)


#: What a listing shows of a ``rejected`` record (requests refused before
#: any handler, counted per source and minute).
_REJECTED_FIELDS = ("source", "minute", "count", "reasons")


#: The group's listing options, by parameter name: their spelling.
_LISTING = {
    "who": "--who",
    "tool": "--export",
    "status": "--status",
    "since": "--since",
    "limit": "--limit",
    "as_json": "--json",
}
#: Where the group keeps a ``--db`` given on its command line (`ctx.meta` is
#: shared by a context and its subcommands').
_GROUP_DB = "mcp_harbor.audit.db"


def _given(ctx: click.Context, name: str) -> bool:
    """Whether option `name` was given on the command line."""
    return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE


def _db_of(db: str) -> str:
    """The store a subcommand reads: the group's ``--db`` when only it was
    given, else the subcommand's own (a usage error when both were given
    and differ)."""
    ctx = click.get_current_context()
    group_db: str | None = ctx.meta.get(_GROUP_DB)
    if group_db is None:
        return db
    if _given(ctx, "db") and db != group_db:
        abort(
            f"audit --db {db_label(group_db)} and audit {ctx.info_name} --db {db_label(db)} "
            "name two stores: give --db once",
            EXIT_USAGE,
        )
    return group_db


def _summary_json(c: Any) -> dict[str, Any]:
    data = {
        "call_id": c.call_id,
        "started_at": c.started_at,
        "ended_at": c.ended_at,
        "principal": c.principal,
        "tool": c.tool,
        "status": c.status,
        "duration_ms": c.duration_ms,
        "caller": c.start.get("caller"),
        "arguments": c.start.get("arguments"),
        "export_hash": c.start.get("export_hash"),
    }
    if c.status == "rejected":
        data["rejected"] = {k: c.start.get(k) for k in _REJECTED_FIELDS}
    return data


@click.group(invoke_without_command=True)
@click.option("--who", help="Only calls by this principal.")
@click.option("--export", "tool", help="Only calls of this tool.")
@click.option("--status", help="Only calls with this status (ok, failed, denied, rejected, …).")
@click.option("--since", help="Only calls started at or after this UTC time (2026-11-29T10:00).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=50,
    show_default=True,
    help="At most this many calls (1 or more).",
)
@click.option("--json", "as_json", is_flag=True, help="JSON lines, newest first.")
@_db_option
@click.pass_context
def audit(
    ctx: click.Context,
    who: str | None,
    tool: str | None,
    status: str | None,
    since: str | None,
    limit: int,
    as_json: bool,
    db: str,
) -> None:
    """List recorded calls, newest first: who called what, and how it ended.
    Requests refused before any handler (401, 403, 421, invalid JSON-RPC)
    are listed as ``rejected``, one line per source and minute.

    The listing options apply to the listing only; --db also to show and verify."""
    if ctx.invoked_subcommand is not None:
        sub = ctx.invoked_subcommand
        for name, spelling in _LISTING.items():
            if _given(ctx, name):
                abort(
                    f"audit {spelling} filters the listing of calls and does not apply to "
                    f"audit {sub}: give it without {sub} (mcp-harbor audit {spelling} …)",
                    EXIT_USAGE,
                )
        if _given(ctx, "db"):
            if sub not in ("show", "verify"):
                abort(f"audit --db does not apply to audit {sub}", EXIT_USAGE)
            ctx.meta[_GROUP_DB] = db
        return
    from rich.console import Console
    from rich.table import Table

    from mcp_harbor.errors import StoreError
    from mcp_harbor.store import AuditQuery

    store = open_store(db, readonly=True)
    try:
        calls = store.calls(AuditQuery(who=who, tool=tool, status=status, since=since, limit=limit))
    except StoreError as exc:
        abort(str(exc), EXIT_USAGE)
    if as_json:
        for c in calls:
            click.echo(json.dumps(_summary_json(c), sort_keys=True))
        return
    table = Table("started (UTC)", "call", "principal", "client (claimed)", "tool", "status", "ms")
    for c in calls:
        caller = c.start.get("caller") or {}
        client = " ".join(filter(None, [caller.get("client_name"), caller.get("client_version")]))
        ms = "" if c.duration_ms is None else f"{c.duration_ms:.0f}"
        status = c.status
        if status == "rejected":  # refused before any handler: how many, from where
            client = (c.start.get("sample") or {}).get("user_agent") or ""
            status = f"rejected ×{c.start.get('count')} from {c.start.get('source')}"
        table.add_row(c.started_at[:19], c.call_id, c.principal, client or "-", c.tool, status, ms)
    width = None if sys.stdout.isatty() else 200
    Console(markup=False, highlight=False, width=width).print(table)


@audit.command("show")
@click.argument("call_id")
@click.option(
    "--tree",
    "as_tree",
    is_flag=True,
    help="Print the run as a tree: its steps; under an agent step its turns (model, tokens, "
    "duration, tool calls with their arguments, secrets ***) and under each turn the "
    "records of the calls it made, with their status; then how it finished.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON (the default), with the tree under tree."
)
@_db_option
def show(call_id: str, as_tree: bool, as_json: bool, db: str) -> None:
    """One call with every command it ran, and its approval, as JSON; its
    tree (steps, turns, tool calls) under ``tree``, or as text with --tree."""
    from mcp_harbor.cli._run_tree import run_tree, tree_lines
    from mcp_harbor.errors import StoreError

    if as_tree and as_json:
        abort("audit show: --tree and --json are two outputs: give one", EXIT_USAGE)
    db = _db_of(db)
    store = open_store(db, readonly=True)
    try:
        found = store.call(call_id)
        if found is None:
            abort(f"no call {call_id!r} in {db_label(db)}", EXIT_USAGE)
        records = store.call_records(call_id)
        start = next((r for r in records if r.kind in ("start", "call")), None)
        end = next((r for r in records if r.kind == "end"), None)
        between = []
        if start is not None and start.kind == "start":
            between = store.records_between(start.seq, None if end is None else end.seq)
    except StoreError as exc:
        abort(str(exc), EXIT_USAGE)
    tree = run_tree(records, between) if start is not None else None
    if as_tree:
        if tree is None:
            abort(f"{call_id!r} in {db_label(db)} is not a call with a tree", EXIT_USAGE)
        for line in tree_lines(tree):
            click.echo(line)
        return
    data = _summary_json(found)
    data["end"] = found.end
    data["run_dir"] = found.start.get("run_dir")
    # A confirm:'s answer: decision, by whom, how, reason, waited_ms, plan_hash.
    data["approval"] = found.start.get("approval")
    data["tree"] = tree
    click.echo(json.dumps(data, indent=2, sort_keys=True))


@audit.command("verify")
@_db_option
@audit_key_option
def verify(db: str, audit_key: Path, audit_witness: Path) -> None:
    """Check the hash chain, the approvals and memory rows it covers, and
    every signed checkpoint of the witness file for this store: exit 1
    naming each edited, deleted, forged or reordered record or row, and any
    truncation or rewrite up to the latest checkpoint."""
    from mcp_harbor.store.seal import check_witness, read_key_if_any, store_name

    db = _db_of(db)
    store = open_store(db, readonly=True)
    with harbor_errors():
        key = read_key_if_any(audit_key)
        report = store.verify()
        seals = check_witness(
            store_name(store),
            lambda: {r.seq: r.hash for r in store.records()},
            audit_witness,
            key,
        )
    problems = [*report.problems, *seals.problems]
    where = db_label(db)
    if problems:
        for problem in problems:
            click.echo(f"TAMPERED: {problem}", err=True)
        click.echo(
            f"audit trail FAILED verification: {len(problems)} problem(s) in {where}", err=True
        )
        sys.exit(EXIT_TOOL_ERROR)
    text = f"audit trail OK: {report.records} records, chain intact"
    if seals.latest is not None:
        number, _, at = seals.latest
        if seals.records_after:
            text += (
                f", {report.records - seals.records_after} covered by checkpoint {number} "
                f"signed {at}; {seals.records_after} after it not yet covered"
            )
        else:
            text += f", all covered by checkpoint {number} signed {at}"
        if key is None:
            text += f" (signatures not checked: no key at {audit_key})"
    elif not audit_witness.exists():
        text += f"; not covered by any checkpoint: no witness file at {audit_witness}"
    else:
        text += f"; not covered by any checkpoint: none for this store in {audit_witness}"
    click.echo(f"{text} ({where})")


def _grants(export: Any, published: set[str]) -> list[dict[str, Any]]:
    """The grant edges of `export`: for each agent (or ``fix:``) step, each
    tool its model may call: a custom tool (``EXPORT.TOOL``, with where
    the model's values reach, from the checker's parse) or another export
    (``published``: whether it is among the exports loaded here)."""
    from mcp_harbor.check.flows import map_of

    edges: list[dict[str, Any]] = []
    for step in export.all_steps:
        how = "agent" if step.spec.agent is not None else "fix"
        for name in step.grant:
            edge: dict[str, Any] = {"step": step.name, "phase": step.section, "as": how}
            edge["model"] = step.model
            custom = export.tools.get(name)
            if custom is not None:
                edge.update(kind="custom", tool=custom.name, args=map_of(custom)["args"])
            else:
                edge.update(kind="export", tool=name, published=name in published)
            edges.append(edge)
    return edges


@audit.command("map")
@exports_option
@click.option("--json", "as_json", is_flag=True, help="Print the map as JSON.")
def map_(exports: tuple[Path, ...], as_json: bool) -> None:
    """The static caller-to-command map: for every export, who may call it,
    and for every arg each step, command and argument position its value
    reaches (from the checker's parse); for agent steps, the grant edges:
    each custom tool or export their model may call, and where the model's
    values reach in a custom tool."""
    from mcp_harbor.check.flows import map_of

    loaded = load_published(exports).exports
    names = {e.name for e in loaded}
    entries = [{**map_of(e), "grants": _grants(e, names)} for e in loaded]
    if as_json:
        click.echo(json.dumps({"exports": entries}, indent=2))
        return
    for entry in entries:
        click.echo(f"{entry['export']}  (allow: {', '.join(entry['allow'])})  {entry['file']}")
        if not entry["args"]:
            click.echo("  no args")
        for name, arg in entry["args"].items():
            secret = " [secret]" if arg["secret"] else ""
            click.echo(
                f"  {name}{secret}: in every run: step's bash as {arg['env']} (not exported)"
            )
            for r in arg["reaches"]:
                where = r["command"] or "(a caller-chosen command)"
                pos = "" if r["position"] is None else f" argument {r['position']}"
                click.echo(
                    f"    step {r['step']} ({r['phase']}), line {r['line']}: {where}{pos}, "
                    f"{r['quoted']} ({r['form']})"
                )
        for edge in entry["grants"]:
            head = f"  grant: step {edge['step']} ({edge['phase']}, {edge['as']} {edge['model']})"
            if edge["kind"] == "export":
                note = "" if edge["published"] else " (not among these exports)"
                click.echo(f"{head} -> export {edge['tool']}{note}")
                continue
            click.echo(f"{head} -> custom tool {edge['tool']}")
            for name, arg in edge["args"].items():
                for r in arg["reaches"]:
                    where = r["command"] or "(a caller-chosen command)"
                    pos = "" if r["position"] is None else f" argument {r['position']}"
                    click.echo(
                        f"    model value {name}: line {r['line']}: {where}{pos}, "
                        f"{r['quoted']} ({r['form']})"
                    )
