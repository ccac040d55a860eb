"""``mcp-harbor approve|deny|approvals``: answer runs waiting for an approval.

Locally, against the store (``--db``), as ``local:<user>``; or, with
``--url URL --token TOKEN``, through a running HTTP server's ``/approvals``
endpoint, as the token's name. Either way the run's ``approvers:`` are
checked (`mcp_harbor.runctx.approval.answer_request`): never the caller
itself.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import click
from click.core import ParameterSource

from mcp_harbor.cli._app import EXIT_TOOL_ERROR, EXIT_USAGE, abort, db_label, db_option, open_store

__all__ = ["approvals", "approve", "deny"]

#: Exit code of an answer the approvals refused (not an approver, own call).
_EXIT_OF = {"unknown": EXIT_USAGE, "answered": EXIT_TOOL_ERROR, "forbidden": EXIT_TOOL_ERROR}
_WHY_OF_STATUS = {404: "unknown", 409: "answered", 403: "forbidden"}


def _remote_options(fn: Any) -> Any:
    fn = click.option(
        "--token",
        envvar="MCP_HARBOR_TOKEN",
        default=None,
        help="With --url: the bearer token (its name is the approver). Or set MCP_HARBOR_TOKEN.",
    )(fn)
    return click.option(
        "--url",
        default=None,
        help="A running HTTP server (http://HOST:PORT, with or without /mcp): answer "
        "through it instead of the local store.",
    )(fn)


def _check_remote(url: str | None, token: str | None) -> None:
    """Options that cannot apply together are refused, never ignored."""
    ctx = click.get_current_context()
    if url is None:
        if token is not None and ctx.get_parameter_source("token") == ParameterSource.COMMANDLINE:
            abort("--token is for --url (answering through a server); give --url too", EXIT_USAGE)
        return
    if ctx.get_parameter_source("db") == ParameterSource.COMMANDLINE:
        abort("--db and --url cannot be used together: the server answers from its own store")
    if not token:
        abort("--url needs --token TOKEN (or MCP_HARBOR_TOKEN): the approver's token")
    if not url.startswith(("http://", "https://")):
        abort(f"--url {url!r}: an http:// or https:// address of the server")


def _endpoint(url: str, path: str) -> str:
    base = url.rstrip("/")
    if base.endswith("/mcp"):
        base = base[: -len("/mcp")]
    return base + path


def _http(url: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """One request to the approvals endpoint; its JSON answer, or exit
    with the server's reason."""
    import urllib.error  # here: urllib.request is ~20 ms of every command's start
    import urllib.request

    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(
        _endpoint(url, path),
        data=data,
        method="GET" if body is None else "POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error") or exc.reason
        except (ValueError, AttributeError):
            message = exc.reason
        if exc.code == 401:
            abort(f"{url}: the token was refused: {message}", EXIT_USAGE)
        why = _WHY_OF_STATUS.get(exc.code)
        abort(f"{url}: {message}", _EXIT_OF.get(why or "", EXIT_TOOL_ERROR))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        abort(f"{url}: cannot reach the server's approvals endpoint: {reason}", EXIT_USAGE)


def _answer(
    run_id: str, db: str, approve: bool, reason: str | None, url: str | None, token: str | None
) -> None:
    _check_remote(url, token)
    if url is not None:
        assert token is not None
        body = {"decision": "approve" if approve else "deny", "reason": reason}
        done = _http(url, token, f"/approvals/{urllib.parse.quote(run_id, safe='')}", body)
        click.echo(f"{done['decision']} run {run_id} (as {done['by']}, through {url})")
        return

    from mcp_harbor.errors import ApprovalRefused
    from mcp_harbor.identity import Caller, local_principal
    from mcp_harbor.runctx.approval import answer_request

    me = Caller(transport="cli", principal=local_principal(), tenant="local")
    store = open_store(db)
    try:
        done = answer_request(store, run_id, me, approve, reason, "cli")
    except ApprovalRefused as exc:
        where = f" in {db_label(db)}" if exc.why == "unknown" else ""
        abort(f"{exc}{where}", _EXIT_OF[exc.why])
    finally:
        store.close()
    click.echo(f"{done['decision']} run {run_id} (as {me.principal})")


_reason_option = click.option(
    "--reason", default=None, help="Why: recorded with the answer and shown in audit show."
)


@click.command()
@click.argument("run_id")
@_reason_option
@db_option
@_remote_options
def approve(
    run_id: str, reason: str | None, db: str, db_sync: str, url: str | None, token: str | None
) -> None:
    """Approve RUN_ID, which waits for an approval (recorded as you).

    Where the export names approvers:, only a principal they match may
    answer, never the one that made the call."""
    _answer(run_id, db, True, reason, url, token)


@click.command()
@click.argument("run_id")
@_reason_option
@db_option
@_remote_options
def deny(
    run_id: str, reason: str | None, db: str, db_sync: str, url: str | None, token: str | None
) -> None:
    """Deny RUN_ID: nothing runs, the audit records it as declined."""
    _answer(run_id, db, False, reason, url, token)


@click.command()
@db_option
@_remote_options
@click.option("--json", "as_json", is_flag=True, help="One JSON line per waiting run.")
def approvals(db: str, db_sync: str, url: str | None, token: str | None, as_json: bool) -> None:
    """List the runs waiting for an approval: the plan hash, who may answer.

    With --url, those the token's principal may answer."""
    from mcp_harbor.runctx.approval import approvers_text

    _check_remote(url, token)
    if url is not None:
        assert token is not None
        pending = _http(url, token, "/approvals")["approvals"]
    else:
        store = open_store(db, readonly=True)
        try:
            pending = store.pending_approvals()
        finally:
            store.close()
    if as_json:
        for item in pending:
            click.echo(json.dumps(item, sort_keys=True))
        return
    if not pending:
        click.echo("no run is waiting for approval")
    for item in pending:
        click.echo(
            f"{item['run_id']}  {item['tool']}  by {item['principal']}  "
            f"since {item['requested_at'][:19]}  plan {item.get('plan_hash') or '-'}\n"
            f"    approvers: {approvers_text(item.get('approvers'))}\n"
            f"    {item['message']}"
        )
