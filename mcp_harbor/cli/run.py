"""``mcp-harbor run``: run a tool in this process, without MCP.

The call takes the same path as one that arrives over MCP (`CallService`),
with the local OS user as the principal, and is audited the same way.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    EXIT_USAGE,
    abort,
    db_option,
    exports_option,
    load_published,
    open_store,
    programs_option,
    use_programs_file,
    workdir_options,
)

__all__ = ["run"]


class _TerminalApprover:
    """``confirm:`` on a terminal: the person running ``mcp-harbor run`` answers.
    Without a terminal the run waits for ``mcp-harbor approve`` instead."""

    def __init__(self, principal: str) -> None:
        self._principal = principal

    async def decide(self, run_id: str, tool: str, message: str, timeout: float) -> Any:
        import time

        import anyio

        from mcp_harbor.runctx.approval import Decision

        began = time.monotonic()
        answer = await anyio.to_thread.run_sync(
            lambda: click.confirm(f"{message} [run {run_id}]", default=False, err=True)
        )
        waited = round((time.monotonic() - began) * 1000, 3)
        return Decision(bool(answer), self._principal, "terminal", waited)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("tool")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@exports_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@click.option("--memory", "memory", default=None, help="Caller memory: a JSON value (≤ 32 KiB).")
@workdir_options
@programs_option
def run(
    tool: str,
    assignments: tuple[str, ...],
    exports: tuple[Path, ...],
    db: str,
    db_sync: str,
    as_json: bool,
    memory: str | None,
    workdir: Path | None,
    runs_dir: Path | None,
    programs: Path | None,
) -> None:
    """Run TOOL with name=value arguments in this process (no MCP) and print the result.

    Exit 0 on success, 1 on a tool error, 2 on usage or configuration errors.
    """
    import anyio

    from mcp_harbor.arguments import ArgumentValidator
    from mcp_harbor.cli._output import print_outcome
    from mcp_harbor.cli._progress import ProgressView, StepProgress
    from mcp_harbor.cli._values import ValueError_, parse_assignments
    from mcp_harbor.errors import (
        ArgumentError,
        Busy,
        ContextError,
        NeedsMissing,
        PolicyDenied,
        RunError,
        ShuttingDown,
        StoreError,
    )
    from mcp_harbor.identity import Caller, local_principal
    from mcp_harbor.runctx import CALLER_MEMORY_KEY, CallService, RunSettings, parse_caller_memory
    from mcp_harbor.store.audit import AuditTrail

    use_programs_file(programs)
    published = {e.name: e for e in load_published(exports).exports}
    if tool not in published:
        known = ", ".join(sorted(published)) or "none"
        abort(f"unknown tool {tool!r}; the exports publish: {known}", EXIT_USAGE)
    export = published[tool]
    try:
        arguments = parse_assignments(assignments, export.input_schema)
    except ValueError_ as exc:
        abort(f"{tool}: {exc}", EXIT_USAGE)
    meta: dict[str, Any] = {}
    if memory is not None:
        try:
            meta[CALLER_MEMORY_KEY] = parse_caller_memory(memory)
        except ContextError as exc:
            abort(f"{tool}: {exc}", EXIT_USAGE)
    from mcp_harbor.preflight import Preflight

    settings = RunSettings(preflight=Preflight())
    if workdir is not None:
        settings.workdir = workdir.resolve()
    if runs_dir is not None:
        settings.runs_root = runs_dir.resolve()
    store = open_store(db, durable=db_sync == "full")
    service = CallService(settings, AuditTrail(store), store)
    caller = Caller(
        transport="cli",
        principal=local_principal(),
        tenant="local",
        client_name="mcp-harbor run",
        session=f"cli:{uuid.uuid4().hex[:12]}",
    )

    approver = _TerminalApprover(caller.principal) if sys.stdin.isatty() else None

    async def go() -> Any:
        with ProgressView(tool) as view:
            observer = StepProgress(view)
            return await service.call(
                export,
                ArgumentValidator(export),
                caller,
                arguments,
                meta,
                observer,
                approver=approver,
                notify=observer.notice,
            )

    try:
        envelope = anyio.run(go)
    except PolicyDenied:
        abort(f"{tool}: {caller.principal} may not call this tool (allow: of {export.path})")
    except ArgumentError as exc:
        print_outcome(tool, None, f"{tool}: {exc}\nNothing was run.", False, as_json)
    except (Busy, ShuttingDown, NeedsMissing) as exc:
        print_outcome(tool, None, f"{tool}: {exc}", False, as_json)
    except (StoreError, RunError) as exc:
        print_outcome(tool, None, f"{tool}: {exc}; nothing was run", False, as_json)
    finally:
        store.close()
    print_outcome(tool, envelope.dumps(), envelope.answer, envelope.ok, as_json)
