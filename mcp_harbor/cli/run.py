"""``mcp-harbor run``: run a tool in this process, without MCP.

The call takes the same path as one that arrives over MCP (one `CallRequest`
to `CallService.call`, of an application opened by `Harbor.open`), with the
local OS user as the principal, and is audited the same way; ``--json``
prints the same envelope ``mcp-harbor call --json`` prints for the same
outcome.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    audit_seal_options,
    complete_tool_names,
    db_option,
    exports_option,
    models_option,
    open_harbor,
    pass_env_option,
    programs_option,
    sandbox_option,
    skills_option,
    workdir_options,
)
from mcp_harbor.defaults import SandboxMode

__all__ = ["run"]


class _TerminalApprover:
    """``confirm:`` on a terminal: the person running ``mcp-harbor run`` answers."""

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
@click.argument("tool", shell_complete=complete_tool_names)
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@exports_option
@db_option
@audit_seal_options
@sandbox_option
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@click.option("--memory", "memory", default=None, help="Caller memory: a JSON value (≤ 32 KiB).")
@click.option(
    "--approve-seed",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Pre-seeded answers to confirm: (as serve --approve-seed).",
)
@workdir_options
@programs_option
@models_option
@skills_option
@pass_env_option
def run(
    tool: str,
    assignments: tuple[str, ...],
    exports: tuple[Path, ...],
    db: str,
    db_sync: str,
    audit_key: Path,
    audit_witness: Path,
    audit_seal_every: int,
    audit_seal_interval: float,
    sandbox: SandboxMode,
    as_json: bool,
    memory: str | None,
    approve_seed: Path | None,
    workdir: Path | None,
    runs_dir: Path | None,
    programs: Path | None,
    models: Path | None,
    skills: Path | None,
    pass_env: tuple[str, ...],
) -> None:
    """Run TOOL with name=value arguments in this process (no MCP) and print the result.

    A confirm: is answered on the terminal, else by a seed rule, else by an
    operator (mcp-harbor approve). Exit 0 on success, 1 on a tool error, 2 on
    usage or configuration errors (an unknown tool too).
    """
    import anyio

    from mcp_harbor.cli._output import caller_inputs, print_envelope
    from mcp_harbor.cli._progress import ProgressView, StepProgress
    from mcp_harbor.harbor import HarborSettings
    from mcp_harbor.identity import Caller, local_principal
    from mcp_harbor.runctx import Approval, CallRequest

    settings = HarborSettings(
        sandbox=sandbox,
        exports=exports,
        programs=programs,
        models=models,
        skills=skills,
        db=db,
        durable=db_sync == "full",
        workdir=workdir,
        runs_dir=runs_dir,
        approve_seed=approve_seed,
        pass_env=pass_env,
        audit_key=audit_key,
        audit_witness=audit_witness,
        seal_every=audit_seal_every,
        seal_interval=audit_seal_interval,
    )
    harbor = open_harbor(settings, "run")
    published = {e.name: e for e in harbor.published.exports}
    principal = local_principal()
    caller = Caller(
        transport="cli",
        principal=principal,
        tenant="local",
        client_name="mcp-harbor run",
        session=f"cli:{uuid.uuid4().hex[:12]}",
    )

    async def go(arguments: dict[str, Any], meta: dict[str, Any] | None) -> Any:
        with ProgressView(tool) as view:
            observer = StepProgress(view)
            ask = _TerminalApprover(principal) if sys.stdin.isatty() else None
            approval = Approval(ask=ask, notify=observer.notice)
            request = CallRequest(tool, arguments, caller, meta, approval, observer)
            return await harbor.service.call(request)

    try:  # the store is closed whatever happens, a usage error too
        arguments, meta = caller_inputs(tool, assignments, memory, published.get(tool))
        envelope = anyio.run(go, arguments, meta)
    finally:
        harbor.close()
    print_envelope(envelope.dumps(), published, principal, as_json)
