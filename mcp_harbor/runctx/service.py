"""The one call path: transport → identity → policy → validation → run
context → runner → store → envelope.

Every entry point (MCP over stdio and HTTP, ``mcp-harbor run``, ``mcp-harbor
call`` through the server) sends one `CallRequest` to `CallService.call` and
gets one `Envelope` back, for every outcome; none re-creates a piece of the
path, and none decides anything the service decides (policy, arguments, the
seed rules, the confirm message, timeouts, the audit records).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel

from mcp_harbor import defaults
from mcp_harbor._visible import visible
from mcp_harbor.config import Export, Step
from mcp_harbor.config.model import RateLimitSpec
from mcp_harbor.config.models_file import Models
from mcp_harbor.errors import (
    ArgumentError,
    Busy,
    CancelUnconfirmed,
    HarborError,
    NeedsMissing,
    PolicyDenied,
    RateLimited,
    RunError,
    ShuttingDown,
    StoreError,
    UnknownTool,
)
from mcp_harbor.identity import Caller
from mcp_harbor.llm.openai_chat import open_client as open_model_client
from mcp_harbor.llm.pin import Pin
from mcp_harbor.llm.turn import ModelClient, ModelSource
from mcp_harbor.policy import is_allowed
from mcp_harbor.preflight import Preflight
from mcp_harbor.runctx.agent.messages import Recalled
from mcp_harbor.runctx.agent.runtime import AgentRuntime, Skills
from mcp_harbor.runctx.approval import (
    DEFAULT_APPROVAL_TIMEOUT,
    Decision,
    OperatorApprover,
    SeedRule,
    match_seed,
)
from mcp_harbor.runctx.context import ABSENT, RunContext, compose, read_caller_memory
from mcp_harbor.runctx.envelope import Envelope, Question, ended, finish, nothing_ran
from mcp_harbor.runctx.plan import plan_hash
from mcp_harbor.runctx.ratelimit import Admission, RateLimiter, retry_after
from mcp_harbor.runctx.recall import (
    CANDIDATE_LIMIT,
    Embedder,
    HashingEmbedder,
    entry_text,
    open_embedder,
    query_text,
    select,
)
from mcp_harbor.runctx.request import (
    Approval,
    CallableExport,
    CallRequest,
    Catalog,
    ExportCatalog,
)
from mcp_harbor.runner import (
    DEFAULT_OUTPUT_TAIL,
    DEFAULT_TIMEOUT,
    Executor,
    LocalExecutor,
    RunRequest,
    RunResult,
    default_runs_root,
    new_run_dir,
    new_run_id,
    redact,
)
from mcp_harbor.status import CallStatus
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.base import MemoryEntry, Store
from mcp_harbor.template import render_prompt, render_question

__all__ = ["DEFAULT_KEEP_RUNS", "DEFAULT_QUEUE_TIMEOUT", "CallService", "RunSettings"]

log = logging.getLogger("mcp_harbor.calls")

#: Run directories kept (`RunSettings.keep_runs`).
DEFAULT_KEEP_RUNS = defaults.DEFAULT_KEEP_RUNS
#: Seconds a call waits for a free slot (`RunSettings.queue_timeout`).
DEFAULT_QUEUE_TIMEOUT = defaults.DEFAULT_QUEUE_TIMEOUT

#: The longest answer text kept in session memory.
_MEMORY_ANSWER_LIMIT = 4096
#: Recall's embedder when `RunSettings.embedder` is None (it keeps no state).
_LOCAL_EMBEDDER = HashingEmbedder()


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
    keep_runs: int = DEFAULT_KEEP_RUNS
    output_tail: int = DEFAULT_OUTPUT_TAIL
    #: Calls running at once across all exports (None: no server-wide limit).
    max_concurrent: int | None = None
    #: Seconds a call may wait for a free slot when its export sets no
    #: ``queue_timeout``: long enough to ride out a burst, short enough that
    #: a stuck pipeline does not hold callers for minutes.
    queue_timeout: float = DEFAULT_QUEUE_TIMEOUT
    #: Pre-seeded answers to ``confirm:`` (``--approve-seed``).
    approve_seed: list[SeedRule] = field(default_factory=list)
    #: Probes exports' needs at each run's start (None: no preflight).
    preflight: Preflight | None = None
    #: Variables of the server's environment every step receives, besides
    #: the minimal set (``--pass-env``; `LocalExecutor`).
    pass_env: tuple[str, ...] = ()
    #: Calls each principal may make of an export without ``rate_limit:``
    #: (``--rate-limit``; None: no limit, as before limits existed).
    rate_limit: RateLimitSpec | None = None
    #: Where agent steps' models are answered (``--models``; None: exports
    #: with agent steps are unavailable).
    models: Models | None = None
    #: Opens a client of one model source (the OpenAI-compatible one).
    open_client: Callable[[ModelSource], ModelClient] = field(default=open_model_client)
    #: The skills directory agents see (``--skills``; None: none).
    skills: Skills | None = None
    #: Embeds remembered calls and agent steps' queries for ``memory:
    #: {recall: …}`` (None: the models file's ``embeddings:`` endpoint if it
    #: has one, else the local `HashingEmbedder`, deterministic and offline).
    embedder: Embedder | None = None


class CallService:
    """Runs calls of the tools of `catalog` for callers, recording each in
    the audit trail. `catalog` may be replaced at any time (a reload); a call
    keeps the catalog it started with."""

    def __init__(
        self,
        settings: RunSettings,
        audit: AuditTrail,
        store: Store,
        executor: Executor | None = None,
        remote: Executor | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        self.catalog: Catalog = catalog if catalog is not None else ExportCatalog(())
        self.settings = settings
        self.audit = audit
        self.store = store
        self.executor: Executor = executor or LocalExecutor(pass_env=settings.pass_env)
        #: Runs exports with ``runs_on:`` (a `CeleryExecutor`; None: refused).
        self.remote = remote
        self._global = (
            anyio.CapacityLimiter(settings.max_concurrent) if settings.max_concurrent else None
        )
        self._per_export: dict[tuple[str, int], anyio.CapacityLimiter] = {}
        self._rates = RateLimiter()
        self._active: set[anyio.CancelScope] = set()
        #: The contexts of active calls whose start record is written, by run id.
        self._started: dict[str, RunContext] = {}
        self._stopping = False
        #: Judges model sources (shares the needs' preflight when there is one).
        self._models_preflight = settings.preflight or Preflight(
            workdir=settings.workdir, models=settings.models
        )
        if self._models_preflight.models is None:
            self._models_preflight.models = settings.models

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

    def _limiters(self, export: Export, nested: bool = False) -> list[anyio.CapacityLimiter]:
        """The limits a call of `export` waits for: its ``concurrency:``,
        and the server's ``--max-concurrent`` unless the call is `nested`
        (a model's tool call, made inside a run that holds a server slot
        already: waiting for a second one could wait for itself)."""
        limiters = []
        if export.spec.concurrency is not None:
            key = (export.name, export.spec.concurrency)
            if key not in self._per_export:
                self._per_export[key] = anyio.CapacityLimiter(export.spec.concurrency)
            limiters.append(self._per_export[key])
        if self._global is not None and not nested:
            limiters.append(self._global)
        return limiters

    def running(self, export: Export) -> int:
        """Calls of `export` holding a slot now (0 when it has no limit)."""
        if export.spec.concurrency is None:
            return 0
        limiter = self._per_export.get((export.name, export.spec.concurrency))
        return 0 if limiter is None else int(limiter.borrowed_tokens)

    async def call(self, request: CallRequest) -> Envelope:
        """Run one call and answer its envelope, whatever the outcome.

        The order is fixed: the server is not stopping → the tool is
        published → the caller is admitted (``allow:``) → the arguments and
        caller memory are valid → the caller's rate limit has room → the
        export's needs are there → a human approved (``confirm:``, as
        `request.approval` allows) → a slot is free → the start record is
        written → the pipeline runs → the end record.

        The rate limit comes after ``allow:``, so that a caller that may not
        call the tool learns nothing from it (not even that it exists), and
        after validation, so that an invalid call, which costs nothing and
        which a model corrects and sends again, does not use up the budget.
        It comes before everything that costs or bothers someone (the needs'
        probes, a human's approval, a slot). A call it admits counts,
        whatever happens next (unavailable, declined, busy, or a run),
        except a ``needs_input`` one: the caller is to send that call again
        with its answer, and the two count once.
        A call that stops at any step before the pipeline gets an envelope
        whose status says why (`mcp_harbor.status.NOTHING_RAN`) and one
        ``call`` record in the audit trail (none when the store itself is
        unavailable). Exceptions are left for crashes.

        **Cancellation:** the run's processes are stopped and its end record
        written as ``cancelled`` (``cancel_unconfirmed`` when a worker did not
        confirm the stop), then the cancellation propagates; a call cancelled
        by `shutdown` instead answers a ``cancelled`` envelope.
        """
        catalog = self.catalog  # the version this call runs on
        run_id = request.run_id or new_run_id()
        caller, tool = request.caller, request.tool
        entry = None if self._stopping else _entry_of(request, catalog)
        export = None if entry is None else entry.export
        shown: Mapping[str, Any] | None = None
        if export is not None:
            shown = redact(request.arguments, export.secret_args)
        admission: Admission | None = None
        try:
            if self._stopping:
                raise ShuttingDown("the server is shutting down; nothing was run")
            if entry is None or export is None:
                raise UnknownTool(f"Unknown tool: {tool}")
            if not is_allowed(caller, export.spec.allow):
                log.warning("denied %s to %s", visible(tool), caller.describe())
                raise PolicyDenied(f"{caller.principal} may not call {tool}")
            values = entry.validator.validate(request.arguments, workdir=self.settings.workdir)
            caller_memory = read_caller_memory(request.meta)
            assert shown is not None
            admission = self._check_rate(export, caller)
            context: RunContext | None = None
            with anyio.CancelScope() as scope:
                self._active.add(scope)
                try:
                    return await self._admitted(
                        export, request, run_id, values, caller_memory, shown
                    )
                finally:
                    self._active.discard(scope)
                    context = self._started.pop(run_id, None)
            # Only `shutdown` cancels this scope.
            if context is None:  # it was still waiting (for a human, for a slot)
                raise ShuttingDown(
                    "the server is shutting down: the call was cancelled before it ran; "
                    "nothing was run"
                )
            # It ran: its processes were stopped and its end record written.
            return ended(
                context,
                "cancelled",
                f"{tool}: the server is shutting down: the call was cancelled (run {run_id}); "
                f"its processes were stopped",
            )
        except _NothingRan as refusal:
            if refusal.status == "needs_input" and admission is not None:
                self._rates.give_back(admission)  # the call comes again with the answer
            return await self._refused(run_id, request, export, shown, refusal)
        except (UnknownTool, PolicyDenied, ArgumentError, RunError, StoreError) as exc:
            # Nothing ran; any other error is a crash and propagates.
            outcome = _refusal_of(tool, exc, catalog.was_refused(tool))
            return await self._refused(run_id, request, export, shown, outcome)

    def _check_rate(self, export: Export, caller: Caller) -> Admission | None:
        """Take a place in `caller`'s window of `export` (its ``rate_limit:``,
        else the server's ``--rate-limit``); None when no limit applies.

        Raises:
            RateLimited: the window is full; says in how many seconds
                (rounded up) the next call fits.
        """
        limit = export.spec.rate_limit or self.settings.rate_limit
        if limit is None:
            return None
        verdict = self._rates.admit(limit, export.name, caller.tenant, caller.principal)
        if isinstance(verdict, Admission):
            return verdict
        wait = retry_after(verdict)
        raise RateLimited(
            f"rate limited: {caller.principal} may make {limit.calls} call(s) of "
            f"{export.name} per {limit.per:g} s; try again in {wait} s. Nothing was run",
            wait,
        )

    async def _refused(
        self,
        run_id: str,
        request: CallRequest,
        export: Export | None,
        shown: Mapping[str, Any] | None,
        refusal: _NothingRan,
    ) -> Envelope:
        """Record a call where nothing ran and answer its envelope. If the
        store is down nothing runs anyway; the failure is logged."""
        tool = request.tool
        if refusal.status != "store_unavailable":
            # A call of a tool it may not see records no arguments, nor which export it hit.
            hidden = refusal.status in ("unknown", "refused", "denied")
            try:
                await self.audit.refused_call(
                    run_id,
                    request.caller,
                    tool,
                    refusal.status,
                    refusal.reason,
                    None if hidden else shown,
                    None if hidden or export is None else export.content_hash,
                    refusal.queued_ms,
                    approval=refusal.approval,
                    via=request.via,
                )
            except StoreError as exc:
                log.error(
                    "audit record of a %s call of %s failed: %s", refusal.status, visible(tool), exc
                )
        else:
            log.error(
                "audit store unavailable, refusing to run %s: %s", visible(tool), refusal.reason
            )
        return nothing_ran(
            run_id,
            tool,
            refusal.status,
            refusal.answer,
            waited_ms=refusal.waited_ms,
            queued_ms=refusal.queued_ms or 0.0,
            question=refusal.question,
        )

    async def _admitted(
        self,
        export: Export,
        request: CallRequest,
        run_id: str,
        values: dict[str, Any],
        caller_memory: Any,
        shown: Mapping[str, Any],
    ) -> Envelope:
        """The call of an admitted caller with valid arguments.

        Raises:
            _NothingRan, RunError, StoreError: nothing ran (`call` records it);
                a `RunError` is `Busy`, `NeedsMissing` or cannot prepare the run.
        """
        self.executor_for(export)  # no broker for runs_on: refuse before anything waits
        await self._check_needs(export)
        pins = await self._pin_models(export)
        approval: Decision | None = None
        if export.confirm is not None:
            approval = await self._approval(export, request, run_id, values, shown)
        async with contextlib.AsyncExitStack() as slots:
            queued_ms = await self._take_slots(slots, export, nested=request.via is not None)
            return await self._compose_and_run(
                export,
                request,
                run_id,
                values,
                caller_memory,
                shown,
                queued_ms,
                approval,
                pins,
            )

    async def _pin_models(self, export: Export) -> dict[str, Pin]:
        """Pin a source for each model the export's agent steps use, at the
        run's start: the primary when preflight judges it ready, else the
        fallback (`mcp_harbor.preflight.Preflight.pin`).

        Raises:
            NeedsMissing: a model has no ready source, is not in the models
                file, or the server has no models file.
        """
        if not export.models:
            return {}
        models = self.settings.models
        if models is None:
            raise NeedsMissing(
                f"{export.name} cannot run now: its agent steps need models and this server "
                f"has no models file (--models FILE). Nothing was run"
            )
        pins, problems = await anyio.to_thread.run_sync(self._models_preflight.pin, export, models)
        if problems:
            raise NeedsMissing(
                f"{export.name} cannot run now: {'; '.join(problems)}. Nothing was run"
            )
        return pins

    async def _check_needs(self, export: Export) -> None:
        """Judge the export's needs once, at the run's start.

        Raises:
            NeedsMissing: something is missing.
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
        raise NeedsMissing(f"{export.name} cannot run now: {verdict.describe()}. Nothing was run")

    async def _approval(
        self,
        export: Export,
        request: CallRequest,
        run_id: str,
        values: Mapping[str, Any],
        shown: Mapping[str, Any],
    ) -> Decision:
        """A human's yes to this call, found the way `request.approval` allows
        (with ``approvers:``: only an approver's, through the store).

        The yes holds for one plan (`plan_hash`): an answer given for
        another plan, or a run whose export was reloaded while it waited,
        is declined with the reason.

        Raises:
            _NothingRan: declined, or the caller must answer the question first.
            StoreError: the operator's request could not be written or read.
        """
        how = request.approval
        approvers = export.spec.approvers
        shown_values = redact(values, export.secret_args)
        plan = plan_hash(export, shown_values)
        decision: Decision | None = None
        if approvers is None:  # with approvers: neither the caller's client nor a seed answers
            decision = how.answer or match_seed(self.settings.approve_seed, export.name, values)
        if decision is None:
            assert export.confirm is not None
            # Shown to a human and recorded: the validated values (defaults
            # applied), each quoted and visibly escaped; a secret: true arg as ***.
            message = f"{render_question(export.confirm, shown_values)} (plan {plan[:16]})"
            timeout = export.spec.approval_timeout or DEFAULT_APPROVAL_TIMEOUT
            approver = None if approvers is not None else how.ask
            if approver is None and (approvers is not None or (how.operator and not how.question)):
                approver = OperatorApprover(
                    self.store,
                    request.caller.principal,
                    shown,
                    how.notify,
                    approvers=approvers,
                    plan_hash=plan,
                    export_hash=export.content_hash,
                )
            if approver is None:
                raise _NothingRan(
                    "needs_input",
                    "waiting for the caller's answer to confirm:",
                    f"{export.name}: {message}\n(needs a yes to run; nothing was run yet)",
                    question=Question(message, timeout, plan),
                )
            decision = await approver.decide(run_id, export.name, message, timeout)
        if decision.plan_hash is None:
            decision = dataclasses.replace(decision, plan_hash=plan)
        elif decision.plan_hash != plan:  # a retry answering the question about another plan
            decision = dataclasses.replace(
                decision,
                approved=False,
                reason="the answer was given for another plan (the export or the arguments "
                f"changed since the question was asked: plan {decision.plan_hash[:16]}, "
                f"now {plan[:16]})",
                plan_hash=plan,
            )
        if decision.approved:
            current = self.catalog.find(export.name)
            if current is None or current.export.content_hash != export.content_hash:
                decision = dataclasses.replace(
                    decision,
                    approved=False,
                    reason=f"the export {export.name} changed while the run waited for approval "
                    f"(plan {plan[:16]}); the approval does not apply to the new version",
                )
        if not decision.approved:
            detail = f"; {visible(decision.reason)}" if decision.reason else ""
            raise _NothingRan(
                "declined",
                f"not approved ({decision.how}: {decision.by}){detail}",
                f"{export.name}: declined ({decision.how}, by {decision.by}){detail}; "
                f"nothing was run",
                waited_ms=decision.waited_ms,
                approval=decision.to_json(),
            )
        return decision

    async def _take_slots(
        self, slots: contextlib.AsyncExitStack, export: Export, nested: bool = False
    ) -> float:
        """Wait for a slot of every limit that applies; return the wait in ms.

        Raises:
            Busy: the queue timeout passed first.
        """
        limiters = self._limiters(export, nested)
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
            raise Busy(message, queued_ms)
        return queued_ms

    async def _compose_and_run(
        self,
        export: Export,
        request: CallRequest,
        run_id: str,
        values: dict[str, Any],
        caller_memory: Any,
        shown: Mapping[str, Any],
        queued_ms: float,
        approval: Decision | None,
        pins: Mapping[str, Pin],
    ) -> Envelope:
        caller = request.caller

        def prepare() -> RunContext:
            # File-system work (run directory, context.json, attachments) and
            # the memory read: in a worker thread when other calls are active,
            # so that many calls starting at once do not queue behind each
            # other on the event loop; on the loop when this call is alone
            # (nothing to overlap with: a thread hop would only add to it).
            if request.parent_run_dir is not None:  # a custom tool: inside its run's directory
                run_dir = request.parent_run_dir / "tools" / run_id
                run_dir.mkdir(mode=0o700, parents=True)
            else:
                run_dir = new_run_dir(self.settings.runs_root, run_id, self.settings.keep_runs)
            conversation: list[MemoryEntry] = []
            memory = export.spec.memory
            if memory is not None and memory.recent is not None and caller.session:
                conversation = self.store.recall(
                    caller.tenant, caller.principal, caller.session, memory.recent
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
                    models={name: pin.to_json() for name, pin in pins.items()},
                )
            except ArgumentError:
                shutil.rmtree(run_dir, ignore_errors=True)  # nothing ran: leave nothing behind
                raise

        try:
            if len(self._active) > 1:
                context = await anyio.to_thread.run_sync(prepare)
            else:
                context = prepare()
        except OSError as exc:
            raise RunError(f"cannot write the run context: {exc.strerror}") from exc
        try:
            await self.audit.started(
                run_id,
                caller,
                export.name,
                export.content_hash,
                context.plain_arguments(shown=True),
                str(context.run_dir),
                caller_memory_bytes=context.caller_memory_size,
                queued_ms=queued_ms,
                approval=None if approval is None else approval.to_json(),
                via=request.via,
                models={name: pin.to_json() for name, pin in pins.items()},
            )
        except StoreError:
            shutil.rmtree(context.run_dir, ignore_errors=True)  # nothing ran: leave nothing
            raise
        self._started[run_id] = context
        return await self._run(export, context, request, queued_ms, pins)

    async def _run(
        self,
        export: Export,
        context: RunContext,
        call: CallRequest,
        queued_ms: float,
        pins: Mapping[str, Pin] | None = None,
    ) -> Envelope:
        """Run the composed call (its start record is written) and write its
        end record. **Cancellation:** see `call`."""
        caller, run_id = context.caller, context.identity.run_id
        observer = call.observer
        extra_env = context.environment()
        output_tail = export.spec.output_tail or self.settings.output_tail
        agents: AgentRuntime | None = None
        if export.models and self.settings.models is not None:
            agents = AgentRuntime(
                service=self,
                catalog=self.catalog,
                audit=self.audit,
                export=export,
                context=context,
                models=self.settings.models,
                pins=pins or {},
                open_client=self.settings.open_client,
                output_tail=output_tail,
                approval=Approval(
                    ask=call.approval.ask,
                    question=False,
                    operator=True,
                    notify=call.approval.notify,
                ),
                skills=self.settings.skills,
                recall=self._recall_for(export, context),
                observer=observer,
                chain=(*call.agent_chain, export.name),
            )
        request = RunRequest(
            export=export,
            arguments=context.plain_arguments(),
            run_id=run_id,
            run_dir=context.run_dir,
            workdir=self.settings.workdir,
            extra_env=extra_env,
            output_tail=output_tail,
            started=context.started_monotonic,
            context_path=context.context_path,
            deadline=context.deadline_monotonic,
            shown_arguments=context.shown_arguments,
            agents=agents,
            parent_run_dir=call.parent_run_dir,
        )
        began = time.monotonic()
        try:
            result = await self.executor_for(export).run(request, observer)
        except anyio.get_cancelled_exc_class():
            await self._finish(
                caller, None, run_id, export.name, "cancelled", "the call was cancelled"
            )
            raise
        except CancelUnconfirmed as exc:
            await self._finish(caller, None, run_id, export.name, "cancel_unconfirmed", str(exc))
            await anyio.lowlevel.checkpoint()  # the cancellation is still in effect: raise it
            return ended(context, "cancel_unconfirmed", f"{export.name}: {exc}", queued_ms)
        except RunError as exc:  # a worker refused the run (its export differs); nothing ran
            await self._finish(caller, None, run_id, export.name, "failed", str(exc))
            return ended(context, "failed", f"{export.name}: {exc}", queued_ms)
        except Exception as exc:
            await self._finish(caller, None, run_id, export.name, "failed", "internal error")
            raise HarborError(f"internal error after {time.monotonic() - began:.1f} s") from exc
        envelope = finish(context, result, queued_ms)
        await self._finish(caller, result, run_id, export.name, envelope.status, None)
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
            if export.spec.memory.recall is not None:
                agent = envelope.agent
                if entry.answer_payload is None and agent and agent.get("answer") is not None:
                    # An agent's goal answer, without the run's id and times,
                    # is what recall shows and recognises repeats by.
                    entry = dataclasses.replace(entry, answer_payload=agent.get("answer"))
                entry = await self._embedded(entry)
            try:
                await anyio.to_thread.run_sync(self.store.remember, entry)
            except StoreError as exc:
                log.error("session memory of %s could not be written: %s", run_id, exc)
        return envelope

    @contextlib.asynccontextmanager
    async def _embedder(self) -> AsyncIterator[Embedder]:
        """The embedder of recall while the block runs: `RunSettings.embedder`;
        else the models file's ``embeddings:`` endpoint (a client made for
        the block and closed after it, so that it never outlives its event
        loop); else the local one.

        Raises:
            ModelError: the endpoint's API key variable is unset.
        """
        models = self.settings.models
        source = None if models is None else models.embeddings()
        if self.settings.embedder is not None or source is None or models is None:
            yield self.settings.embedder or _LOCAL_EMBEDDER
            return
        assert models.spec.embeddings is not None
        embedder = open_embedder(source, models.spec.embeddings.timeout)
        try:
            yield embedder
        finally:
            with anyio.CancelScope(shield=True):
                await embedder.close()

    async def _embedded(self, entry: MemoryEntry) -> MemoryEntry:
        """`entry` with its vector for recall (`entry_text`); as it is, and
        logged, when the embedder fails: the session tier keeps it, recall
        will not find it."""
        try:
            async with self._embedder() as embedder:
                (vector,) = await embedder.embed([entry_text(entry)])
        except HarborError as exc:
            log.error("recall: %s could not be embedded: %s", entry.run_id, exc)
            return entry
        return dataclasses.replace(entry, embedder=embedder.name, embedding=vector)

    def _recall_for(
        self, export: Export, context: RunContext
    ) -> Callable[[Step], Awaitable[Sequence[Recalled]]] | None:
        """How an agent step of this run recalls similar past turns
        (``memory: {recall: …}``; None: recall is off): the step's query
        (`query_text`: this export, the shown arguments, the step's rendered
        prompt) is embedded, the newest `CANDIDATE_LIMIT` remembered calls
        of the caller's principal in its tenant with a vector of the same
        embedder are read, and `select` keeps the similar ones, leaving out
        the answers the session tier already shows. An embedder or store
        that fails is logged and recalls nothing: the step runs without.
        The read and the scoring run in a worker thread.
        **Cancellation:** an embedding request in flight is abandoned; a
        read in its worker thread is waited for (it is bounded by
        `CANDIDATE_LIMIT`), then the cancellation is raised."""
        memory = export.spec.memory
        spec = None if memory is None else memory.recall
        if spec is None:
            return None
        caller = context.caller
        tool, shown = export.name, context.plain_arguments(shown=True)

        async def recall(step: Step) -> Sequence[Recalled]:
            prompt = "" if step.prompt is None else render_prompt(step.prompt, shown)
            try:
                async with self._embedder() as embedder:
                    (query,) = await embedder.embed([query_text(tool, shown, prompt)])
            except HarborError as exc:
                log.error("recall for %s: %s", context.identity.run_id, exc)
                return ()

            def read_and_score() -> list[Recalled]:  # off the event loop: ~10-50 ms
                candidates = self.store.recall_candidates(
                    caller.tenant, caller.principal, embedder.name, CANDIDATE_LIMIT
                )
                return select(
                    query,
                    candidates,
                    spec,
                    tenant=caller.tenant,
                    principal=caller.principal,
                    embedder=embedder.name,
                    shown=context.conversation,
                )

            try:
                return await anyio.to_thread.run_sync(read_and_score)
            except StoreError as exc:
                log.error("recall for %s: %s", context.identity.run_id, exc)
                return ()

        return recall

    async def _finish(
        self,
        caller: Caller,
        result: RunResult | None,
        run_id: str,
        tool: str,
        status: CallStatus,
        error: str | None,
    ) -> None:
        try:
            await self.audit.finished(
                caller, result, call_id=run_id, tool=tool, status=status, error=error
            )
        except StoreError as exc:
            # The run happened and its start record exists: say so loudly;
            # the next start closes it as interrupted if it stays open.
            log.error("audit end record of %s could not be written: %s", run_id, exc)


@dataclass(slots=True)
class _NothingRan(Exception):
    """Why a call stops before its pipeline, for the outcomes that are not
    errors (``declined``, ``needs_input``), and what `_refusal_of` makes of
    an error: `CallService.call` turns it into a ``call`` record and an
    envelope."""

    status: CallStatus
    reason: str  # for the audit record
    answer: str  # for the caller
    waited_ms: float = 0.0
    queued_ms: float | None = None
    question: Question | None = None
    approval: Mapping[str, Any] | None = None


def _entry_of(request: CallRequest, catalog: Catalog) -> CallableExport | None:
    """The export a call names: a custom tool handed over by its agent
    (`CallRequest.custom`, never in the catalog), else the catalog's."""
    custom = request.custom
    if custom is not None and custom.export.name == request.tool:
        return custom
    return catalog.find(request.tool)


def _refusal_of(tool: str, exc: HarborError, refused: bool) -> _NothingRan:
    """The one ladder from an error of the call path to its outcome
    (`refused`: the checker refused an export of that name)."""
    if isinstance(exc, UnknownTool):
        status: CallStatus = "refused" if refused else "unknown"
        return _NothingRan(status, "no such published tool", f"Unknown tool: {tool}")
    if isinstance(exc, PolicyDenied):  # answered exactly like an unknown tool
        return _NothingRan("denied", "not admitted by allow:", f"Unknown tool: {tool}")
    if isinstance(exc, ArgumentError):
        return _NothingRan("invalid", str(exc), f"{tool}: {exc}\nNothing was run.")
    if isinstance(exc, Busy):
        return _NothingRan("busy", str(exc), f"{tool}: {exc}", queued_ms=exc.queued_ms)
    if isinstance(exc, RateLimited):
        return _NothingRan("rate_limited", str(exc), f"{tool}: {exc}")
    if isinstance(exc, ShuttingDown):
        return _NothingRan("shutting_down", str(exc), f"{tool}: {exc}")
    if isinstance(exc, NeedsMissing):
        return _NothingRan("unavailable", str(exc), f"{tool}: {exc}")
    if isinstance(exc, StoreError):
        return _NothingRan(
            "store_unavailable",
            str(exc),
            f"{tool}: the audit store is unavailable, so nothing was run "
            f"(every run is recorded before it starts); try again later",
        )
    # A RunError: the run directory could not be made, or runs_on: has no
    # broker. Nothing ran; the log says why, the caller is not shown it.
    log.error("%s: cannot prepare the run: %s", tool, exc)
    return _NothingRan("unavailable", str(exc), f"{tool}: cannot prepare the run; nothing was run")
