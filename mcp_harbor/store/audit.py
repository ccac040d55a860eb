"""The audit trail's vocabulary: what is recorded for a call, and when.

For every call, whatever its outcome, the trail holds either one ``call``
record (nothing ran: its status says why, one of
`mcp_harbor.status.NOTHING_RAN`) or a ``start`` record, written durably
before the first command starts, and an ``end`` record (the run's status:
``ok``, ``failed``, ``timeout``, ``cancelled``, ``output_invalid``,
``worker_lost``, ``cancel_unconfirmed``, or ``interrupted`` when the server
died and the next start closed it; a task's run on a worker is not closed
then: the next server with a broker follows it and writes its end). The
statuses are those of the call's envelope (`mcp_harbor.status`). Requests
refused before any handler ran (a missing token, a foreign Origin, invalid
JSON-RPC) are no calls: they are counted per source and minute and leave one
``rejected`` record each (`mcp_harbor.store.rejections`). Steps are recorded
with `StepResult.to_json(RECORDED_STEP_FIELDS)`: sizes and hashes, never
output. Secret arguments are ``***`` in every record.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import uuid
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio

from mcp_harbor.identity import Caller
from mcp_harbor.runner.result import RECORDED_STEP_FIELDS, RunResult
from mcp_harbor.store.base import RecordKind, Store

if TYPE_CHECKING:
    from mcp_harbor.store.seal import Sealer

__all__ = ["AuditTrail"]


def _on_asyncio() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class AuditTrail:
    """Writes a server's audit records off the event loop (one at a time,
    or `store.append_concurrency` at a time when the store batches them).

    Each record is written the cheapest way the store accepts: at once on
    the loop when nobody else is writing (`Store.try_append`), else handed
    to the store's writer and awaited on the loop (`Store.append_nowait`,
    asyncio only), else `Store.append` in a worker thread.

    With a `sealer`, every record written is counted towards the next signed
    checkpoint (`mcp_harbor.store.seal.Sealer.noted`, which never blocks);
    `close` writes the last one.

    **Cancellation:** every write is shielded: a record that was begun is
    always committed, also when the call that wrote it is being cancelled.
    """

    def __init__(self, store: Store, sealer: Sealer | None = None) -> None:
        self.store = store
        #: Signs the chain's head into the witness file (None: no checkpoints).
        self.sealer = sealer
        self.instance = uuid.uuid4().hex[:12]
        self._limiter = anyio.CapacityLimiter(store.append_concurrency)
        self._server = {"pid": os.getpid(), "host": socket.gethostname(), "instance": self.instance}

    async def _append(
        self,
        call_id: str,
        kind: RecordKind,
        caller: Caller,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> None:
        await self._write(call_id, kind, caller.principal, tool, status, body)

    async def _write(
        self,
        call_id: str,
        kind: RecordKind,
        principal: str,
        tool: str,
        status: str,
        body: Mapping[str, Any],
    ) -> None:
        store = self.store
        if (
            self._limiter.borrowed_tokens == 0
            and store.try_append(call_id, kind, principal, tool, status, body) is not None
        ):
            # written on the loop (no await: nothing to shield): nobody else was writing
            self._noted()
            return
        with anyio.CancelScope(shield=True):
            queued = (
                store.append_nowait(call_id, kind, principal, tool, status, body)
                if _on_asyncio()
                else None
            )
            if queued is not None:
                # A store with a writer of its own (PostgresStore): await its
                # future on the loop; no worker thread parked per record.
                await asyncio.wrap_future(queued)
            else:
                await anyio.to_thread.run_sync(
                    partial(store.append, call_id, kind, principal, tool, status, body),
                    limiter=self._limiter,
                )
        self._noted()

    def _noted(self) -> None:
        if self.sealer is not None:
            self.sealer.noted()

    def close(self) -> None:
        """Write the last checkpoint (with a sealer), before the store closes.
        Idempotent; never raises for a checkpoint that cannot be written
        (it is logged)."""
        if self.sealer is not None:
            self.sealer.close()

    async def refused_call(
        self,
        call_id: str,
        caller: Caller,
        tool: str,
        status: str,
        reason: str,
        arguments: Mapping[str, Any] | None = None,
        export_hash: str | None = None,
        queued_ms: float | None = None,
        approval: Mapping[str, Any] | None = None,
        via: Mapping[str, Any] | None = None,
    ) -> None:
        """A call where nothing ran (denied, unknown tool, invalid arguments,
        busy after `queued_ms` in the queue, rate limited). `via`: the model
        turn that made it (a tool call of an agent step)."""
        body: dict[str, Any] = {
            "caller": caller.to_json(),
            "tool": tool,
            "export_hash": export_hash,
            "arguments": dict(arguments) if arguments is not None else None,
            "reason": reason,
            "queued_ms": queued_ms,
            "approval": approval,
            "server": self._server,
        }
        if via is not None:
            body["via"] = dict(via)
        await self._append(call_id, "call", caller, tool, status, body)

    async def rejected(
        self, call_id: str, principal: str, tool: str, body: Mapping[str, Any]
    ) -> None:
        """One ``rejected`` record: the requests of one source and principal
        in one minute that were refused before any handler ran (written by
        `mcp_harbor.store.rejections.RejectionCounter`). Status ``rejected``.

        Raises:
            StoreError: the record cannot be written (then it does not exist).

        **Cancellation:** the write is shielded: once begun it is committed.
        """
        record = {**body, "server": self._server}
        await self._write(call_id, "rejected", principal, tool, "rejected", record)

    async def started(
        self,
        call_id: str,
        caller: Caller,
        tool: str,
        export_hash: str,
        arguments: Mapping[str, Any],
        run_dir: str,
        caller_memory_bytes: int | None = None,
        queued_ms: float = 0.0,
        approval: Mapping[str, Any] | None = None,
        via: Mapping[str, Any] | None = None,
        models: Mapping[str, Any] | None = None,
    ) -> None:
        """Raises StoreError when the record cannot be written: then nothing may run.
        Caller memory is recorded by its size only, never its content.
        `via`: the model turn that made this call; `models`: the model
        sources pinned for the run's agent steps."""
        body: dict[str, Any] = {
            "caller": caller.to_json(),
            "tool": tool,
            "export_hash": export_hash,
            "arguments": dict(arguments),
            "caller_memory_bytes": caller_memory_bytes,
            "queued_ms": queued_ms,
            "approval": approval,
            "run_dir": run_dir,
            "server": self._server,
        }
        if via is not None:
            body["via"] = dict(via)
        if models:
            body["models"] = dict(models)
        await self._append(call_id, "start", caller, tool, "running", body)

    async def turn(self, call_id: str, caller: Caller, tool: str, body: Mapping[str, Any]) -> None:
        """One model answer of an agent step of run `call_id` (see
        docs/agents.md for the body). Written before that turn's tool calls
        run: when this returns, the record is durable.

        Raises:
            StoreError: it could not be written (then the tool calls do not run).

        **Cancellation:** the write is shielded: once begun it is committed.
        """
        status = "error" if body.get("error") else str(body.get("finish_reason") or "answered")
        await self._append(call_id, "turn", caller, tool, status, body)

    async def finished(
        self,
        caller: Caller,
        result: RunResult | None,
        *,
        call_id: str,
        tool: str,
        status: str,
        error: str | None = None,
    ) -> None:
        body: dict[str, Any] = {"status": status, "error": error}
        if result is not None:
            body.update(
                exit_code=result.exit_code,
                duration_ms=result.duration_ms,
                steps=[s.to_json(RECORDED_STEP_FIELDS) for s in result.steps],
            )
            if result.worker_host is not None:  # a worker ran the commands (runs_on:)
                body["worker_host"] = result.worker_host
        await self._append(call_id, "end", caller, tool, status, body)

    def close_interrupted(self, *, keep_worker_tasks: bool = False) -> list[str]:
        """Close, as ``interrupted``, the calls whose server on this host is
        gone (it died mid-run). Returns their call ids. Synchronous: call at
        start, before serving.

        With `keep_worker_tasks` (a server with a broker), the run of an
        open task that was sent to a worker (its row's ``server`` names the
        ``run_id`` and ``runs_on``) is left open: the worker keeps going,
        and the server's tasks follow it and write its end record
        (`mcp_harbor.server.tasks.TaskCalls.close_interrupted`)."""
        closed: list[str] = []
        host = socket.gethostname()
        kept = self._worker_task_runs() if keep_worker_tasks else set()
        for record in self.store.open_calls():
            if record.call_id in kept:
                continue
            server = record.body.get("server", {})
            if server.get("host") != host:
                continue  # another machine's server: not ours to judge
            pid = server.get("pid")
            if isinstance(pid, int) and pid != os.getpid() and _pid_alive(pid):
                continue
            if server.get("instance") == self.instance:
                continue
            self.store.append(
                record.call_id,
                "end",
                record.principal,
                record.tool,
                "interrupted",
                {"status": "interrupted", "error": "the server stopped before the call ended"},
            )
            self._noted()
            closed.append(record.call_id)
        return closed

    def _worker_task_runs(self) -> set[str]:
        """The run ids of the open tasks whose run went to a worker."""
        runs: set[str] = set()
        for row in self.store.tasks_open():
            try:
                server = json.loads(row["server"])
            except (TypeError, ValueError):
                continue
            if isinstance(server, dict) and server.get("runs_on") and server.get("run_id"):
                runs.add(str(server["run_id"]))
        return runs
