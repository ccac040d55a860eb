"""The one call path: policy → arguments → run context → runner → audit →
envelope. MCP over stdio and HTTP, and ``mcp-harbor run``, all call
`CallService.call`; none re-creates a piece of it.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.config import Export
from mcp_harbor.errors import (
    ArgumentError,
    Busy,
    HarborError,
    NeedsMissing,
    PolicyDenied,
    RunError,
    ShuttingDown,
    StoreError,
)
from mcp_harbor.identity import Caller
from mcp_harbor.policy import is_allowed
from mcp_harbor.preflight import Preflight
from mcp_harbor.runctx.approval import (
    DEFAULT_APPROVAL_TIMEOUT,
    Approver,
    Decision,
    Notify,
    OperatorApprover,
    SeedRule,
    match_seed,
)
from mcp_harbor.runctx.context import ABSENT, RunContext, compose, read_caller_memory
from mcp_harbor.runctx.envelope import Envelope, declined, finish
from mcp_harbor.runner import (
    DEFAULT_OUTPUT_TAIL,
    DEFAULT_TIMEOUT,
    REDACTED,
    Executor,
    LocalExecutor,
    RunObserver,
    RunRequest,
    default_runs_root,
    new_run_dir,
    new_run_id,
)
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.base import MemoryEntry, Store
from mcp_harbor.template import render

__all__ = ["CallService", "RunSettings"]

log = logging.getLogger("mcp_harbor.calls")

#: The longest answer text kept in session memory.
_MEMORY_ANSWER_LIMIT = 4096


@dataclass(slots=True)
class RunSettings:
    """How calls are run. Every default has a reason:

    - `workdir`: where steps without ``cwd:`` run: the directory the server
      was started in, as for any command-line tool.
    - `runs_root`: run directories under the XDG state directory, so logs
      survive the call for inspection.
    - `keep_runs`: the newest 100 run directories are kept; older ones are
      removed when a run starts, so the disk does not fill up.
    - `output_tail`: bytes of the end of each stream in the result.
    """

    workdir: Path = field(default_factory=Path.cwd)
    runs_root: Path = field(default_factory=default_runs_root)
    keep_runs: int = 100
    output_tail: int = DEFAULT_OUTPUT_TAIL
    #: Calls running at once across all exports (None: no server-wide limit).
    max_concurrent: int | None = None
    #: Seconds a call may wait for a free slot when its export sets no
    #: ``queue_timeout``: long enough to ride out a burst, short enough that
    #: a stuck pipeline does not hold callers for minutes.
    queue_timeout: float = 60.0
    #: Pre-seeded answers to ``confirm:`` (``--approve-seed``).
    approve_seed: list[SeedRule] = field(default_factory=list)
    #: Probes exports' needs at each run's start (None: no preflight).
    preflight: Preflight | None = None


class CallService:
    """Runs calls of exports for callers, recording each in the audit trail."""

    def __init__(
        self,
        settings: RunSettings,
        audit: AuditTrail,
        store: Store,
        executor: Executor | None = None,
        remote: Executor | None = None,
    ) -> None:
        self.settings = settings
        self.audit = audit
        self.store = store
        self.executor: Executor = executor or LocalExecutor()
        #: Runs exports with ``runs_on:`` (a `CeleryExecutor`; None: refused).
        self.remote = remote
        self._global = (
            anyio.CapacityLimiter(settings.max_concurrent) if settings.max_concurrent else None
        )
        self._per_export: dict[tuple[str, int], anyio.CapacityLimiter] = {}
        self._active: set[anyio.CancelScope] = set()
        self._stopping = False

    @property
    def active_calls(self) -> int:
        return len(self._active)

    async def shutdown(self, timeout: float = 5.0) -> None:
        """Cancel every running call and wait (up to `timeout` seconds) until
        each has stopped its processes and closed its audit record. New calls
        are refused from now on.

        **Cancellation:** shielded; it always completes.
        """
        self._stopping = True
        with anyio.CancelScope(shield=True):
            for scope in list(self._active):
                scope.cancel()
            with anyio.move_on_after(timeout):
                while self._active:
                    await anyio.sleep(0.02)

    def executor_for(self, export: Export) -> Executor:
        """The executor of `export`'s runs: a worker of its ``runs_on:``
        label, else this process.

        Raises:
            RunError: the export has ``runs_on:`` and no broker is configured.
        """
        if export.spec.runs_on is None:
            return self.executor
        if self.remote is None:
            raise RunError(
                f"{export.name} has runs_on: {export.spec.runs_on} but this server has no "
                f"--broker; nothing was run"
            )
        return self.remote

    def _limiters(self, export: Export) -> list[anyio.CapacityLimiter]:
        limiters = []
        if export.spec.concurrency is not None:
            key = (export.name, export.spec.concurrency)
            if key not in self._per_export:
                self._per_export[key] = anyio.CapacityLimiter(export.spec.concurrency)
            limiters.append(self._per_export[key])
        if self._global is not None:
            limiters.append(self._global)
        return limiters

    def running(self, export: Export) -> int:
        """Calls of `export` holding a slot now (0 when it has no limit)."""
        if export.spec.concurrency is None:
            return 0
        limiter = self._per_export.get((export.name, export.spec.concurrency))
        return 0 if limiter is None else int(limiter.borrowed_tokens)

    async def refuse(
        self,
        caller: Caller,
        tool: str,
        status: str,
        reason: str,
        arguments: Mapping[str, Any] | None = None,
        export_hash: str | None = None,
        queued_ms: float | None = None,
    ) -> None:
        """Record a call where nothing ran (unknown tool, denied, invalid).
        If the store is down nothing runs anyway; the failure is logged."""
        try:
            await self.audit.refused_call(
                new_run_id(), caller, tool, status, reason, arguments, export_hash, queued_ms
            )
        except StoreError as exc:
            log.error("audit record of a %s call of %s failed: %s", status, tool, exc)

    async def call(
        self,
        export: Export,
        validator: ArgumentValidator,
        caller: Caller,
        arguments: Mapping[str, Any] | None,
        meta: Mapping[str, Any] | None = None,
        observer: RunObserver | None = None,
        *,
        approver: Approver | None = None,
        decision: Decision | None = None,
        notify: Notify | None = None,
    ) -> Envelope:
        """Run one call of `export` for `caller` and return its envelope.

        An export with ``confirm:`` first needs a human's yes: `decision` when
        the entry point already has one (2026-07-28 elicitation round trip),
        else a matching ``--approve-seed`` rule, else `approver` (handshake-era
        elicitation), else an operator through the store (`notify` shows how).
        A refusal returns a ``declined`` envelope; nothing ran.

        Raises:
            PolicyDenied: the caller is not admitted (audited as ``denied``).
            ArgumentError: invalid arguments, caller memory or attachment
                (audited as ``invalid``); nothing ran.
            StoreError: the start record could not be written; nothing ran.
            RunError: the run directory could not be made; nothing ran.

        **Cancellation:** the run's processes are stopped, the end record is
        written as ``cancelled``, then the cancellation propagates.
        """
        if self._stopping:
            raise ShuttingDown("the server is shutting down; nothing was run")
        if not is_allowed(caller, export.spec.allow):
            await self.refuse(caller, export.name, "denied", "not admitted by allow:")
            raise PolicyDenied(f"{caller.principal} may not call {export.name}")
        shown = {
            k: (REDACTED if k in export.secret_args else v) for k, v in (arguments or {}).items()
        }
        run_id = new_run_id()
        try:
            values = validator.validate(arguments)
            caller_memory = read_caller_memory(meta)
        except ArgumentError as exc:
            await self.refuse(caller, export.name, "invalid", str(exc), shown, export.content_hash)
            raise
        with anyio.CancelScope() as scope:
            self._active.add(scope)
            try:
                approval: Decision | None = None
                await self._check_needs(export, caller, shown)
                if export.confirm is not None:
                    approval = await self._confirm(
                        export, caller, run_id, values, shown, approver, decision, notify
                    )
                    if not approval.approved:
                        await self.audit.refused_call(
                            run_id,
                            caller,
                            export.name,
                            "declined",
                            f"not approved ({approval.how}: {approval.by})",
                            shown,
                            export.content_hash,
                            approval=approval.to_json(),
                        )
                        return declined(
                            run_id,
                            export.name,
                            f"{export.name}: declined ({approval.how}, by {approval.by}); "
                            f"nothing was run",
                            approval.waited_ms,
                        )
                async with contextlib.AsyncExitStack() as slots:
                    queued_ms = await self._take_slots(slots, export, caller, shown)
                    return await self._compose_and_run(
                        export,
                        caller,
                        run_id,
                        values,
                        caller_memory,
                        shown,
                        queued_ms,
                        observer,
                        approval,
                    )
            finally:
                self._active.discard(scope)
        # Only `shutdown` cancels this scope: the run was stopped and recorded.
        raise ShuttingDown(
            f"the server is shutting down: the call was cancelled (run {run_id}); "
            f"its processes were stopped"
        )

    async def _check_needs(self, export: Export, caller: Caller, shown: Mapping[str, Any]) -> None:
        """Judge the export's needs once, at the run's start.

        Raises:
            NeedsMissing: something is missing (audited as ``unavailable``).
        """
        preflight = self.settings.preflight
        if preflight is None:
            return
        # Fresh in the cache (the common case): no worker thread for it.
        verdict = preflight.cached_verdict(export)
        if verdict is None:  # probes (PATH lookups, TCP connects) block: not on the loop
            verdict = await anyio.to_thread.run_sync(preflight.verdict, export)
        if verdict.ready:
            return
        message = f"{export.name} cannot run now: {verdict.describe()}. Nothing was run"
        await self.refuse(caller, export.name, "unavailable", message, shown, export.content_hash)
        raise NeedsMissing(message)

    def confirm_message(self, export: Export, values: Mapping[str, Any]) -> str:
        """The ``confirm:`` message with the validated values shown literally."""
        assert export.confirm is not None
        return render(export.confirm, values)

    def seeded(self, export: Export, values: Mapping[str, Any]) -> Decision | None:
        """The pre-seeded answer for this call, if a rule matches."""
        return match_seed(self.settings.approve_seed, export.name, values)

    async def _confirm(
        self,
        export: Export,
        caller: Caller,
        run_id: str,
        values: Mapping[str, Any],
        shown: Mapping[str, Any],
        approver: Approver | None,
        decision: Decision | None,
        notify: Notify | None,
    ) -> Decision:
        if decision is not None:
            return decision
        seeded = self.seeded(export, values)
        if seeded is not None:
            return seeded
        message = self.confirm_message(export, values)
        timeout = export.spec.approval_timeout or DEFAULT_APPROVAL_TIMEOUT
        if approver is None:
            path = getattr(self.store, "path", None)
            hint = f" --db {path}" if path is not None else ""
            approver = OperatorApprover(self.store, caller.principal, shown, hint, notify)
        return await approver.decide(run_id, export.name, message, timeout)

    async def _take_slots(
        self,
        slots: contextlib.AsyncExitStack,
        export: Export,
        caller: Caller,
        shown: Mapping[str, Any],
    ) -> float:
        """Wait for a slot of every limit that applies; return the wait in ms.

        Raises:
            Busy: the queue timeout passed first (audited as ``busy``).
        """
        limiters = self._limiters(export)
        if not limiters:
            return 0.0
        waited = time.monotonic()
        timeout = export.spec.queue_timeout
        if timeout is None:
            timeout = self.settings.queue_timeout
        with anyio.move_on_after(timeout) as scope:
            for limiter in limiters:
                await slots.enter_async_context(limiter)
        queued_ms = round((time.monotonic() - waited) * 1000, 3)
        if scope.cancelled_caught:
            limit = export.spec.concurrency
            what = f"{limit} call(s) of {export.name}" if limit else "the server's calls"
            message = (
                f"busy: {what} already running; waited {queued_ms / 1000:.1f} s in the queue "
                f"(queue_timeout {timeout:g} s). Nothing was run; try again later"
            )
            await self.refuse(
                caller, export.name, "busy", message, shown, export.content_hash, queued_ms
            )
            raise Busy(message, queued_ms)
        return queued_ms

    async def _compose_and_run(
        self,
        export: Export,
        caller: Caller,
        run_id: str,
        values: dict[str, Any],
        caller_memory: Any,
        shown: Mapping[str, Any],
        queued_ms: float,
        observer: RunObserver | None,
        approval: Decision | None,
    ) -> Envelope:

        def prepare() -> RunContext:
            # File-system work (run directory, context.json, attachments) and
            # the memory read: in a worker thread when other calls are active,
            # so that many calls starting at once do not queue behind each
            # other on the event loop; on the loop when this call is alone
            # (nothing to overlap with: a thread hop would only add to it).
            run_dir = new_run_dir(self.settings.runs_root, run_id, self.settings.keep_runs)
            conversation: list[MemoryEntry] = []
            if export.spec.memory is not None and caller.session:
                conversation = self.store.recall(
                    caller.tenant, caller.principal, caller.session, export.spec.memory.recent
                )
            try:
                return compose(
                    export=export,
                    caller=caller,
                    run_id=run_id,
                    run_dir=run_dir,
                    arguments=values,
                    caller_memory=caller_memory,
                    conversation=conversation,
                    timeout=export.spec.timeout or DEFAULT_TIMEOUT,
                    redacted=REDACTED,
                )
            except ArgumentError:
                shutil.rmtree(run_dir, ignore_errors=True)  # nothing ran: leave nothing behind
                raise

        try:
            if len(self._active) > 1:
                context = await anyio.to_thread.run_sync(prepare)
            else:
                context = prepare()
        except ArgumentError as exc:
            await self.refuse(caller, export.name, "invalid", str(exc), shown, export.content_hash)
            raise
        except OSError as exc:
            raise RunError(f"cannot write the run context: {exc.strerror}") from exc
        run_dir = context.run_dir
        await self.audit.started(
            run_id,
            caller,
            export.name,
            export.content_hash,
            context.plain_arguments(shown=True),
            str(run_dir),
            caller_memory_bytes=context.caller_memory_size,
            queued_ms=queued_ms,
            approval=None if approval is None else approval.to_json(),
        )
        return await self._run(export, context, observer, queued_ms)

    async def _run(
        self,
        export: Export,
        context: RunContext,
        observer: RunObserver | None,
        queued_ms: float,
    ) -> Envelope:
        caller, run_id = context.caller, context.identity.run_id
        request = RunRequest(
            export=export,
            arguments=context.plain_arguments(),
            run_id=run_id,
            run_dir=context.run_dir,
            workdir=self.settings.workdir,
            extra_env=context.environment(),
            output_tail=export.spec.output_tail or self.settings.output_tail,
            started=context.started_monotonic,
            context_path=context.context_path,
        )
        began = time.monotonic()
        try:
            result = await self.executor_for(export).run(request, observer)
        except anyio.get_cancelled_exc_class():
            await self._finish(
                caller, None, run_id, export.name, "cancelled", "the call was cancelled"
            )
            raise
        except RunError as exc:  # a worker refused the run (its export differs); nothing ran
            await self._finish(caller, None, run_id, export.name, "failed", str(exc))
            raise
        except Exception as exc:
            await self._finish(caller, None, run_id, export.name, "failed", "internal error")
            raise HarborError(f"internal error after {time.monotonic() - began:.1f} s") from exc
        envelope = finish(context, result, queued_ms)
        status: str = "ok" if envelope.ok else envelope.finish_reason
        if envelope.status == "worker_lost":
            status = "worker_lost"
        await self._finish(caller, result, run_id, export.name, status, None)
        if envelope.ok and export.spec.memory is not None and caller.session:
            entry = MemoryEntry(
                tenant=caller.tenant,
                principal=caller.principal,
                session=caller.session,
                tool=export.name,
                run_id=run_id,
                at=context.started_at,
                arguments=context.plain_arguments(shown=True),
                answer=envelope.answer[:_MEMORY_ANSWER_LIMIT],
                answer_payload=None
                if envelope.answer_payload is ABSENT
                else envelope.answer_payload,
            )
            try:
                await anyio.to_thread.run_sync(self.store.remember, entry)
            except StoreError as exc:
                log.error("session memory of %s could not be written: %s", run_id, exc)
        return envelope

    async def _finish(
        self, caller: Caller, result: Any, run_id: str, tool: str, status: str, error: str | None
    ) -> None:
        try:
            await self.audit.finished(
                caller, result, call_id=run_id, tool=tool, status=status, error=error
            )
        except StoreError as exc:
            # The run happened and its start record exists: say so loudly;
            # the next start closes it as interrupted if it stays open.
            log.error("audit end record of %s could not be written: %s", run_id, exc)
