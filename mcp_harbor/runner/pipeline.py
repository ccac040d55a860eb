"""Run an export's pipeline on this machine.

``run:`` steps run the way GitHub Actions runs them: the script is written to
``$HARBOR_RUN_DIR/steps/<n>-<name>.sh`` and started as
``bash --noprofile --norc -eo pipefail FILE``, with the caller's values
assigned as unexported shell variables on the script's first line
(`mcp_harbor.runner.prologue`). ``argv:`` steps are exec'd with no shell,
and get no caller value but their argv elements. Steps run in order; the
first failing step ends the run unless it has ``continue_on_error: true``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import shutil
import stat
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import anyio

from mcp_harbor import defaults
from mcp_harbor.config import Export, Step
from mcp_harbor.config.model import NEVER_PASSED_ENV, RUNTIME_ENV_PREFIXES, SHELL_SETTINGS_ENV
from mcp_harbor.errors import RunError
from mcp_harbor.runner.agents import AgentTask, FixTask, StepAgents
from mcp_harbor.runner.follow import follow_logs
from mcp_harbor.runner.process import DEFAULT_GRACE, run_in_group
from mcp_harbor.runner.prologue import prologue, secret_prologue, split
from mcp_harbor.runner.result import RunResult, RunStatus, StepResult
from mcp_harbor.runner.rundir import write_private
from mcp_harbor.runner.sandbox import Sandbox, explain_denial
from mcp_harbor.runner.scrub import REDACTED, Scrubber
from mcp_harbor.runner.secrets import read_secrets
from mcp_harbor.runner.step_progress import ProgressLine, follow_progress
from mcp_harbor.step_env import is_inherited
from mcp_harbor.template import render, value_text

log = logging.getLogger("mcp_harbor.runner")

__all__ = [
    "BASH_FLAGS",
    "DEFAULT_HOOK_TIMEOUT",
    "DEFAULT_OUTPUT_TAIL",
    "DEFAULT_TIMEOUT",
    "REDACTED",
    "Executor",
    "LocalExecutor",
    "RunObserver",
    "RunRequest",
    "read_outputs",
    "redact",
]


def redact(arguments: Mapping[str, Any] | None, secret: Collection[str]) -> dict[str, Any]:
    """`arguments` as records show them: each arg named in `secret` is
    `REDACTED`. The one redaction of arguments: the call path applies it once
    and carries the result (`RunRequest.shown_arguments`)."""
    return {k: (REDACTED if k in secret else v) for k, v in (arguments or {}).items()}


#: bash as GitHub Actions runs a ``run:`` step.
BASH_FLAGS = ("--noprofile", "--norc", "-eo", "pipefail")
#: Seconds a pipeline may take when its export sets no ``timeout``.
DEFAULT_TIMEOUT = 600.0
#: Bytes of each stream's end kept in the result (the full output is in the log).
DEFAULT_OUTPUT_TAIL = defaults.DEFAULT_OUTPUT_TAIL
#: Seconds an on_failure/finally step may take when it sets no timeout: hooks
#: are not bounded by the pipeline's deadline (cleanup must get its chance).
DEFAULT_HOOK_TIMEOUT = 60.0
#: When the call is cancelled, finally steps still run, for at most this long each.
_CANCEL_HOOK_CAP = 10.0
#: The most a step may write to $HARBOR_STEP_OUTPUT that is read back.
OUTPUT_FILE_LIMIT = 64 * 1024
_OUTPUT_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED_KEYS = frozenset({"EXIT", "STATUS"})
#: Logs up to this size are hashed on the event loop (microseconds); larger
#: ones in a worker thread.
_INLINE_HASH_LIMIT = 256 * 1024


@dataclass(frozen=True, slots=True)
class RunRequest:
    """Everything needed to run one call of an export. `arguments` are
    already validated, with defaults applied."""

    export: Export
    arguments: Mapping[str, Any]
    run_id: str
    run_dir: Path
    workdir: Path
    extra_env: Mapping[str, str] = field(default_factory=dict)
    output_tail: int = DEFAULT_OUTPUT_TAIL
    grace: float = DEFAULT_GRACE
    #: The run boundary (``time.monotonic()``) the deadline is judged from;
    #: None: when the runner starts.
    started: float | None = None
    #: context.json, whose ``steps`` the runner keeps current before each step.
    context_path: Path | None = None
    #: The run's deadline (``time.monotonic()``), computed once by the call
    #: path; None: `started` plus the export's timeout.
    deadline: float | None = None
    #: The arguments as records show them (every ``secret: true`` arg
    #: ``***``), computed once by the call path; None: derived from `arguments`.
    shown_arguments: Mapping[str, Any] | None = None
    #: Runs the model side of ``agent:`` steps and ``fix:`` (None: the run
    #: has no models; such a step fails, asking nothing).
    agents: StepAgents | None = None
    #: A custom tool's run: the run directory of the run whose agent called
    #: it. Its steps see that directory as ``$HARBOR_RUN_DIR`` and may read
    #: and write it (their own files, under its ``tools/``, are `run_dir`).
    parent_run_dir: Path | None = None

    def boundary(self) -> tuple[float, float]:
        """The run's start and deadline (``time.monotonic()``): the given
        ones, else now and now plus the export's timeout. Every executor
        judges time from these, so a run's deadline is computed once."""
        started = self.started if self.started is not None else time.monotonic()
        if self.deadline is not None:
            return started, self.deadline
        return started, started + (self.export.spec.timeout or DEFAULT_TIMEOUT)

    def redacted_arguments(self) -> Mapping[str, Any]:
        """The arguments with every ``secret: true`` arg replaced by ``***``."""
        if self.shown_arguments is not None:
            return self.shown_arguments
        return redact(self.arguments, self.export.secret_args)

    def secret_texts(self) -> list[str]:
        """The text of each ``secret: true`` arg's value (`Scrubber` scrubs
        them with the export's ``secrets:``)."""
        out = []
        for name in self.export.secret_args:
            value = self.arguments.get(name)
            if value is not None and len(value_text(value)) >= 3:
                out.append(value_text(value))
        return out


class RunObserver(Protocol):
    """Told when steps start and finish (progress reporting), given the
    step's own progress (the lines it appends to ``$HARBOR_PROGRESS``: at
    most 10 per second, see `mcp_harbor.runner.step_progress`) and, when
    `wants_output` is true, each line the step prints. Must not raise."""

    @property
    def wants_output(self) -> bool: ...

    async def step_started(self, step: Step, number: int, total: int) -> None: ...

    async def step_finished(self, result: StepResult, number: int, total: int) -> None: ...

    async def step_progress(self, step: Step, number: int, total: int, line: ProgressLine) -> None:
        """Step `number` of `total` said how far it is (`line`: escaped,
        scrubbed, cut)."""
        ...

    async def output(self, step: Step, stream: str, line: str) -> bool:
        """One line of `stream` (``stdout``/``stderr``); False: send no more."""
        ...


class Executor(Protocol):
    """Runs pipelines: locally (`LocalExecutor`) or on remote workers
    (`mcp_harbor.remote.CeleryExecutor`)."""

    async def run(self, request: RunRequest, observer: RunObserver | None = None) -> RunResult:
        """Run the pipeline and return its result; never raises for a
        failing step. Time is judged from `request.boundary()`.

        **Cancellation:** every process is stopped and reaped before the
        cancellation propagates. An executor that cannot know this (a remote
        one whose worker did not confirm the stop within its wait) raises
        `mcp_harbor.errors.CancelUnconfirmed` in place of the cancellation,
        which stays in effect: an anyio cancel scope raises it again at the
        caller's next checkpoint. The caller records the run as
        ``cancel_unconfirmed`` and lets the cancellation propagate."""
        ...


def _step_variables(
    request: RunRequest,
    step: Step,
    outcomes: Mapping[str, str],
    output_file: Path,
    progress_file: Path,
    secrets: Mapping[str, str],
) -> tuple[dict[str, str], dict[str, str]]:
    """A step's variables, as ``(environment, shell)``.

    `environment` is what is added to the step's environment, over what it
    receives of the server's (`LocalExecutor._spawn_environment`): the run's
    ``server``/``caller_file`` ``HARBOR_*`` variables (with those of the
    request's `~RunRequest.extra_env`), the export's `secrets` and the
    step's literal ``env:`` over those (the loader refuses an ``env:`` name
    that is a secret's), then the earlier steps' ``STEP_*_EXIT`` and
    ``STEP_*_STATUS``, ``HARBOR_STEP_OUTPUT`` and ``HARBOR_PROGRESS``.

    `shell` holds every variable of class ``caller`` (``ARG_<name>`` for
    every arg that has a value, the earlier steps' ``STEP_<step>_<key>``
    outputs, the claimed ``HARBOR_CALLER_*`` fields of `extra_env`): never
    exported, a ``run:`` step gets them from its prologue
    (`mcp_harbor.runner.prologue`) and an ``argv:`` step not at all. A
    literal ``env:`` name wins over an ``ARG_*``/``HARBOR_*`` variable of the
    same name (which is then in neither), and the ``STEP_*`` variables win
    over a literal ``env:`` of the same name (which is then dropped from the
    environment): so no name is both exported and assigned by the prologue.

    Everything but the secrets and the literal ``env:`` (the export
    author's) is the runtime's, and goes through `step_variables` (in
    `split`): only variables that `mcp_harbor.step_env` classifies are made.
    """
    first: dict[str, str] = {}
    first["HARBOR_RUN_ID"] = request.run_id
    first["HARBOR_RUN_DIR"] = str(request.parent_run_dir or request.run_dir)
    first["HARBOR_TOOL"] = request.export.name
    first["HARBOR_STEP"] = step.name
    first.update(request.extra_env)
    for name in request.export.arg_schemas:
        if name in request.arguments and request.arguments[name] is not None:
            first[f"ARG_{name}"] = value_text(request.arguments[name])
    env, shell = split(first, environment=step.spec.env)
    env.update(secrets)
    env.update(step.spec.env)
    runtime = {
        **outcomes,
        "HARBOR_STEP_OUTPUT": str(output_file),
        "HARBOR_PROGRESS": str(progress_file),
    }
    exported, outputs = split(runtime)
    for name in outputs:
        env.pop(name, None)
    env.update(exported)
    shell.update(outputs)
    return env, shell


_EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()


def _read_log(path: Path, limit: int) -> tuple[str, int, bool, str | None]:
    """A step log's last `limit` bytes (as text), its size, whether the tail
    is cut, and its SHA-256 when the whole file was read for the tail (None:
    the file is bigger than `limit` and must be hashed separately, or it is
    missing). An empty log is one ``stat``; else one open, no buffered file
    object."""
    try:
        if os.stat(path).st_size == 0:  # the common case: nothing printed
            return "", 0, False, _EMPTY_SHA256
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return "", 0, False, None
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return "", 0, False, _EMPTY_SHA256
        cut = size > limit
        if cut:
            os.lseek(fd, size - limit, os.SEEK_SET)
        chunks: list[bytes] = []
        wanted = min(size, limit)
        while wanted > 0 and (chunk := os.read(fd, wanted)):
            chunks.append(chunk)
            wanted -= len(chunk)
        if not cut and (more := os.read(fd, 1 << 16)):  # grew since fstat
            chunks.append(more)
            cut, size = True, size + len(more)
        data = b"".join(chunks)
    except OSError:
        return "", 0, False, None
    finally:
        os.close(fd)
    digest = None if cut else hashlib.sha256(data).hexdigest()
    if cut:
        data = data[-limit:]
    return data.decode("utf-8", errors="replace"), size, cut, digest


class LocalExecutor:
    """Runs pipelines as local processes, each step in its own process group.

    A step receives a clean environment: of this process's environment only
    the variables `mcp_harbor.step_env.is_inherited` names (``PATH``,
    ``HOME``, ``LANG``, ``LC_*``, …), those in `pass_env` (the server's
    ``--pass-env``) and those in the export's ``pass_env:``; never
    ``BASH_ENV``, ``ENV`` nor any ``ARG_*``/``HARBOR_*``/``STEP_*``, whoever
    lists them. Over that, what the runtime adds (`_step_variables`). The
    caller's values are never in it: a ``run:`` step's bash gets them as
    shell variables (`mcp_harbor.runner.prologue`), an ``argv:`` step as its
    argv elements only.

    Each step is confined by `sandbox` (default: ``auto``, the default
    state and config folders hidden; see `mcp_harbor.runner.sandbox`).
    """

    def __init__(self, sandbox: Sandbox | None = None, pass_env: Iterable[str] = ()) -> None:
        self._bash = shutil.which("bash") or "/bin/bash"
        self.sandbox = sandbox if sandbox is not None else Sandbox(hidden=Sandbox.default_hidden())
        #: Steps of this executor running now (all runs together).
        self._steps_running = 0
        #: The server's ``--pass-env`` names (those that may never pass dropped).
        self.pass_env = tuple(
            n
            for n in pass_env
            if n not in NEVER_PASSED_ENV | SHELL_SETTINGS_ENV
            and not n.startswith(RUNTIME_ENV_PREFIXES)
        )
        self._passed = frozenset(self.pass_env)
        #: The environment (the raw ``os.environ`` mapping as it was) and what
        #: steps receive of it, encoded: recomputed only when it changed.
        self._inherited: tuple[dict[bytes, bytes], dict[bytes, bytes]] | None = None

    def _inheritance(self) -> dict[bytes, bytes]:
        """What every step receives of this process's environment, encoded
        (not to be changed by the caller)."""
        raw: dict[bytes, bytes] | None = getattr(os.environ, "_data", None)  # CPython's store
        inherited = self._inherited
        if raw is None or inherited is None or inherited[0] != raw:
            encoded = {
                os.fsencode(k): os.fsencode(v)
                for k, v in os.environ.items()
                if is_inherited(k) or k in self._passed
            }
            if raw is None:
                return encoded
            self._inherited = inherited = (dict(raw), encoded)
        return inherited[1]

    def _spawn_environment(self, export: Export, added: Mapping[str, str]) -> dict[bytes, bytes]:
        """A step's environment, encoded as the process gets it: what it
        receives of this process's environment as it is now (`_inheritance`,
        then the export's ``pass_env:`` names that are set), with `added` over
        it (only those two are encoded here; the inherited part is kept
        encoded)."""
        env = dict(self._inheritance())
        for name in export.spec.pass_env:  # the loader refused the names that never pass
            value = os.environ.get(name)
            if value is not None:
                env[os.fsencode(name)] = os.fsencode(value)
        for k, v in added.items():
            env[os.fsencode(k)] = os.fsencode(v)
        return env

    async def run(self, request: RunRequest, observer: RunObserver | None = None) -> RunResult:
        """See `Executor.run`.

        Main steps run in order while the pipeline is ok; a step with ``if:``
        runs when its condition holds (a condition that reads earlier steps'
        outcomes is judged even after a failure; one that reads only args
        also needs the pipeline to be ok). A failing step with ``retry:``
        runs again, up to its attempts. When the pipeline failed, the
        ``on_failure:`` steps run; the ``finally:`` steps always run, also
        when the call is cancelled. Hooks have their own timeouts, are
        recorded, and never change the run's result.

        The export's ``secrets:`` are read first (`read_secrets`: a missing
        one raises `NeedsMissing` and nothing runs). Their values and those
        of ``secret: true`` args are scrubbed (`Scrubber`) from everything the
        run returns (tails, outputs, errors, streamed lines, an exception's
        text) and from every file of the run directory, before this returns
        or the cancellation propagates.
        """
        export = request.export
        secrets = read_secrets(export) if export.spec.secrets else {}
        scrubber = Scrubber([*secrets.values(), *request.secret_texts()])
        state = _State(request, total=len(export.all_steps), scrubber=scrubber, secrets=secrets)
        try:
            return await self._pipeline(request, state, observer)
        except Exception as exc:
            text = str(exc)
            if scrubber and scrubber.scrub(text) != text:
                # Not chained: the original's text (and traceback) holds the secret.
                raise RunError(f"the run failed: {scrubber.scrub(text)}") from None
            raise
        finally:
            if scrubber:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(_sweep, request.run_dir, state)

    async def _pipeline(
        self, request: RunRequest, state: _State, observer: RunObserver | None
    ) -> RunResult:
        export = request.export
        started, deadline = request.boundary()
        # Created by the first step that runs, in its spawn thread.
        steps_dir = request.run_dir / "steps"
        status: RunStatus = "ok"
        exit_code: int | None = 0
        try:
            for step in export.steps:
                reason = state.skip_reason(step, pipeline_ok=status == "ok")
                if reason is None and time.monotonic() >= deadline:
                    reason = "the pipeline's timeout expired"
                if reason is not None:
                    state.skipped(step, reason)
                    continue
                result = await self._attempts(
                    request, state, step, steps_dir, deadline - time.monotonic(), observer
                )
                if result.status == "ok":
                    continue
                if result.status == "timeout" and time.monotonic() >= deadline - 0.01:
                    status, exit_code = "timeout", None
                    result.error = f"the pipeline's timeout of {deadline - started:g} s expired"
                elif not step.spec.continue_on_error and status == "ok":
                    status = "timeout" if result.status == "timeout" else "failed"
                    exit_code = result.exit_code
            if status != "ok":
                await self._hooks(request, state, export.on_failure, steps_dir, observer)
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                await self._hooks(
                    request, state, export.finally_steps, steps_dir, observer, cap=_CANCEL_HOOK_CAP
                )
            raise
        await self._hooks(request, state, export.finally_steps, steps_dir, observer)
        return RunResult(
            run_id=request.run_id,
            tool=export.name,
            status=status,
            exit_code=exit_code,
            duration_ms=round((time.monotonic() - started) * 1000, 3),
            run_dir=str(request.run_dir),
            steps=state.results,
        )

    async def _hooks(
        self,
        request: RunRequest,
        state: _State,
        steps: tuple[Step, ...],
        steps_dir: Path,
        observer: RunObserver | None,
        cap: float | None = None,
    ) -> None:
        for step in steps:
            reason = state.skip_reason(step, pipeline_ok=True)
            if reason is not None:
                state.skipped(step, reason)
                continue
            limit = step.spec.timeout or DEFAULT_HOOK_TIMEOUT
            if cap is not None:
                limit = min(limit, cap)
            await self._attempts(request, state, step, steps_dir, limit, observer)

    async def _attempts(
        self,
        request: RunRequest,
        state: _State,
        step: Step,
        steps_dir: Path,
        remaining: float,
        observer: RunObserver | None,
    ) -> StepResult:
        """Run a step, again while it fails and its ``retry:`` allows; only
        the latest attempt is the step's outcome, every attempt is recorded."""
        number = state.next_number()
        if observer is not None:
            await observer.step_started(step, number, state.total)
        retry = step.spec.retry
        attempts = retry.attempts if retry is not None else 1
        ends = time.monotonic() + remaining
        history: list[dict[str, Any]] = []
        if step.is_agent:
            result = await self._agent_step(request, state, step, number, steps_dir, ends)
            state.record(step, result)
            if observer is not None:
                await observer.step_finished(result, number, state.total)
            return result
        while True:
            result = await self._run_step(
                request, state, step, number, steps_dir, ends - time.monotonic(), observer
            )
            history.append(
                {
                    "attempt": len(history) + 1,
                    "status": result.status,
                    "exit_code": result.exit_code,
                    "duration_ms": result.duration_ms,
                }
            )
            if result.status == "ok" or len(history) >= attempts:
                break
            assert retry is not None
            if time.monotonic() + retry.delay >= ends:
                break
            await anyio.sleep(retry.delay)
        if result.status != "ok" and step.spec.fix is not None:
            result = await self._fix(
                request, state, step, number, steps_dir, ends, observer, result, history
            )
        result.attempts = history
        state.record(step, result)
        if observer is not None:
            await observer.step_finished(result, number, state.total)
        return result

    def _task(
        self,
        request: RunRequest,
        state: _State,
        step: Step,
        number: int,
        steps_dir: Path,
        ends: float,
    ) -> AgentTask:
        state.made_steps_dir(steps_dir)
        state.write_context()
        return AgentTask(
            number=number,
            total=state.total,
            arguments=request.arguments,
            outcomes={k: dict(v) for k, v in state.outcomes.items()},
            deadline=ends,
            transcript=steps_dir / f"{number}-{step.name}.transcript.jsonl",
            scrubber=state.scrubber,
        )

    async def _agent_step(
        self,
        request: RunRequest,
        state: _State,
        step: Step,
        number: int,
        steps_dir: Path,
        ends: float,
    ) -> StepResult:
        """An ``agent:`` step: its conversation, held by `request.agents`."""
        agent = step.spec.agent
        assert agent is not None
        command = f"agent: {agent.model}"
        if request.agents is None:
            return StepResult(
                step.name,
                "failed",
                None,
                0.0,
                command,
                phase=step.section,
                error="agent: steps need models (--models FILE); no model was asked",
            )
        if agent.timeout is not None:
            ends = min(ends, time.monotonic() + agent.timeout)
        task = self._task(request, state, step, number, steps_dir, ends)
        began = time.monotonic()
        outcome = await request.agents.run_agent(step, task)
        return StepResult(
            name=step.name,
            status=outcome.status,
            exit_code=None,
            duration_ms=round((time.monotonic() - began) * 1000, 3),
            command=command,
            phase=step.section,
            outputs=outcome.outputs,
            error=outcome.error,
            agent={
                **outcome.detail,
                "finish_reason": outcome.finish_reason,
                "tool_calls_seen": outcome.tool_calls_seen,
                "answer": outcome.answer,
            },
        )

    async def _fix(
        self,
        request: RunRequest,
        state: _State,
        step: Step,
        number: int,
        steps_dir: Path,
        ends: float,
        observer: RunObserver | None,
        failed: StepResult,
        history: list[dict[str, Any]],
    ) -> StepResult:
        """The ``fix:`` rounds of a step that failed: in each, the agent gets
        the failure and a ``rerun`` tool; then this runner re-runs the step,
        and that re-run's result is the step's, whatever the agent said."""
        fix = step.spec.fix
        assert fix is not None
        if request.agents is None:
            failed.error = (failed.error + "; " if failed.error else "") + (
                "fix: needs models (--models FILE); no model was asked"
            )
            return failed
        result = failed
        rounds: list[dict[str, Any]] = []

        def attempt(run: StepResult, by: str) -> None:
            history.append(
                {
                    "attempt": len(history) + 1,
                    "status": run.status,
                    "exit_code": run.exit_code,
                    "duration_ms": run.duration_ms,
                    "by": by,
                }
            )

        async def rerun() -> StepResult:
            again = await self._run_step(
                request, state, step, number, steps_dir, ends - time.monotonic(), observer
            )
            attempt(again, "fix")
            return again

        for round_number in range(1, fix.attempts + 1):
            if time.monotonic() >= ends:
                break
            task = self._task(request, state, step, number, steps_dir, ends)
            task = AgentTask(
                number=task.number,
                total=task.total,
                arguments=task.arguments,
                outcomes=task.outcomes,
                deadline=task.deadline,
                transcript=steps_dir / f"{number}-{step.name}.fix{round_number}.transcript.jsonl",
                scrubber=task.scrubber,
            )
            outcome = await request.agents.run_fix(step, FixTask(task, result, round_number, rerun))
            rounds.append(
                {
                    "round": round_number,
                    **outcome.detail,
                    "finish_reason": outcome.finish_reason,
                    "tool_calls_seen": outcome.tool_calls_seen,
                    "answer": outcome.answer,
                }
            )
            if time.monotonic() >= ends:
                break
            result = await self._run_step(
                request, state, step, number, steps_dir, ends - time.monotonic(), observer
            )
            attempt(result, "runner")
            if result.status == "ok":
                break
        result.agent = {"fix": rounds}
        return result

    async def _run_step(
        self,
        request: RunRequest,
        state: _State,
        step: Step,
        number: int,
        steps_dir: Path,
        remaining: float,
        observer: RunObserver | None,
    ) -> StepResult:
        base = steps_dir / f"{number}-{step.name}"
        out_log, err_log = base.with_suffix(".stdout.log"), base.with_suffix(".stderr.log")
        output_file = base.with_suffix(".output")
        progress_file = base.with_suffix(".progress")

        added, shell = _step_variables(
            request, step, state.environment(), output_file, progress_file, state.secrets
        )
        command = _command(step, request.arguments)
        secrets: dict[str, str] = {}
        if isinstance(command, str):
            # A run: step's secrets are shell variables of its bash too: a
            # program gets one only when the script passes it (T="$T" tool,
            # an argument, stdin). An argv: step's program is the one they
            # are for: it gets them in its environment.
            secrets = {k: v for k, v in state.secrets.items() if added.get(k) == v}
            added = {k: v for k, v in added.items() if k not in secrets}
        elif step.argv is not None and any(part.placeholders for part in step.argv):
            # An argv: step the caller steers (a value of theirs in its argv)
            # could be made to print its own environment (/proc/self/environ):
            # it gets no secret. Pass one explicitly from a run: step.
            added = {k: v for k, v in added.items() if state.secrets.get(k) != v}
        env = self._spawn_environment(request.export, added)
        shown = _command(step, request.redacted_arguments())
        script: bytes | None = None
        if isinstance(command, str):
            # The caller's values: shell variables of the script's bash, on
            # its first line; never its environment.
            script = prologue(shell) + secret_prologue(secrets) + command.encode("utf-8")
            shell = {**shell, **secrets}
            argv = [self._bash, *BASH_FLAGS]  # + the script's /dev/fd path
        else:
            argv = command  # caller values are argv elements only
            shell = {}
        cwd = step.cwd or request.workdir
        confinement = self.sandbox.confinement(
            request.export.spec.sandbox,
            run_dir=request.parent_run_dir or request.run_dir,
            cwd=cwd,
            program=argv[0],
            path=os.fsdecode(env.get(b"PATH", b"")),
            home=os.fsdecode(env.get(b"HOME", b"")),
            shell=script is not None,
        )
        if confinement is not None and script is not None:
            script = confinement.script_prelude + script
        tmpdir = confinement.tmpdir if confinement is not None else None
        if tmpdir is not None:
            env[b"TMPDIR"] = os.fsencode(tmpdir)

        def prepare() -> None:
            if tmpdir is not None:
                tmpdir.mkdir(mode=0o700, parents=True, exist_ok=True)
            # File-system work, done where the spawn is (see run_in_group).
            # Not created in advance (one file-system write less per step): the
            # step's `>> "$HARBOR_STEP_OUTPUT"` creates it; a retry (or a run
            # directory used before, by a worker that was lost) starts clean.
            # A `steps/` this call has just made holds nothing to remove.
            if not state.made_steps_dir(steps_dir):
                output_file.unlink(missing_ok=True)
                progress_file.unlink(missing_ok=True)
            state.write_context()

        limit = min(step.spec.timeout or remaining, remaining)
        began = time.monotonic()
        scrubber = state.scrubber
        run = functools.partial(
            run_in_group,
            argv,
            cwd=cwd,
            env=env,
            stdout=out_log,
            stderr=err_log,
            timeout=max(limit, 0.0),
            grace=request.grace,
            prepare=prepare,
            script=script,
            confinement=confinement,
        )
        # A step started while no other runs spawns on the event loop: there
        # is nothing to overlap with, and a thread hop costs more than the
        # spawn's blocking. With others running, it is spawned from a worker
        # thread so that they do not wait for it.
        run = functools.partial(run, offload=self._steps_running > 0)
        self._steps_running += 1
        try:
            if observer is not None:
                done = anyio.Event()

                async def sink(stream: str, line: str) -> bool:
                    return await observer.output(step, stream, line)

                async def report(line: ProgressLine) -> None:
                    await observer.step_progress(step, number, state.total, line)

                async with anyio.create_task_group() as tg:
                    if observer.wants_output:
                        tg.start_soon(follow_logs, out_log, err_log, sink, done, scrubber or None)
                    tg.start_soon(follow_progress, progress_file, report, done, scrubber or None)
                    try:
                        outcome = await run()
                    finally:
                        done.set()
            else:
                outcome = await run()
        finally:
            self._steps_running -= 1
        duration = round((time.monotonic() - began) * 1000, 3)
        if scrubber:
            # Each log scrubbed in place first; its tail read with enough
            # extra to see a whole secret, scrubbed again, then cut.
            out_tail, out_size, out_cut, out_sha = await _scrubbed_log(
                out_log, request.output_tail, state
            )
            err_tail, err_size, err_cut, err_sha = await _scrubbed_log(
                err_log, request.output_tail, state
            )
        else:
            out_tail, out_size, out_cut, out_sha = _read_log(out_log, request.output_tail)
            err_tail, err_size, err_cut, err_sha = _read_log(err_log, request.output_tail)
            # A log bigger than its tail is hashed whole, separately (only that one).
            if out_cut:
                out_sha = await _file_sha256(out_log, out_size)
            if err_cut:
                err_sha = await _file_sha256(err_log, err_size)
        if outcome.how == "error":
            status, error = "failed", scrubber.scrub(outcome.error or "") or None
            err_tail = (err_tail + (error or "")).strip()
        elif outcome.how == "timeout":
            status, error = "timeout", f"step timed out after {round(limit, 3):g} s"
        else:
            status, error = ("ok" if outcome.exit_code == 0 else "failed"), None
            if status == "failed":
                printed = f"{err_tail}\n{out_tail}"
                error = explain_denial(confinement, printed, outcome.exit_code, cwd)
        outputs = read_outputs(output_file)
        if scrubber:
            outputs = {k: scrubber.scrub(v) for k, v in outputs.items() if scrubber.scrub(k) == k}
            _scrub_in_place(output_file, state)
            shown = scrubber.scrub_value(shown)
        return StepResult(
            name=step.name,
            status=status,  # type: ignore[arg-type]
            exit_code=outcome.exit_code if outcome.how != "timeout" else None,
            duration_ms=duration,
            command=shown,
            stdout_tail=out_tail,
            stderr_tail=err_tail,
            stdout_bytes=out_size,
            stderr_bytes=err_size,
            stdout_truncated=out_cut,
            stderr_truncated=err_cut,
            stdout_log=str(out_log),
            stderr_log=str(err_log),
            stdout_sha256=out_sha,
            stderr_sha256=err_sha,
            cwd=str(cwd),
            phase=step.section,
            outputs=outputs,
            env_names=sorted(added),
            shell_names=sorted(shell),
            error=error,
        )


def read_outputs(path: Path) -> dict[str, str]:
    """The ``key=value`` lines (and ``key<<DELIM`` … ``DELIM`` blocks, as in
    GitHub Actions) a step wrote to ``$HARBOR_STEP_OUTPUT``. Keys are
    identifiers; ``EXIT`` and ``STATUS`` (also as a ``_EXIT``/``_STATUS``
    suffix) are the runtime's; at most 64 KiB is
    read; malformed lines are ignored."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(OUTPUT_FILE_LIMIT)
    except OSError:
        return {}
    lines = data.decode("utf-8", errors="replace").split("\n")
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        i += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, _, delimiter = line.partition("<<")
            body: list[str] = []
            while i < len(lines) and lines[i].rstrip("\r") != delimiter:
                body.append(lines[i].rstrip("\r"))
                i += 1
            i += 1
            value = "\n".join(body)
        elif "=" in line:
            key, _, value = line.partition("=")
        else:
            continue
        if _OUTPUT_KEY.fullmatch(key) and not _reserved(key):
            out[key] = value
    return out


def _reserved(key: str) -> bool:
    """``EXIT``, ``STATUS`` and any key ending in ``_EXIT``/``_STATUS``: the
    checker trusts every ``STEP_…_EXIT``/``STEP_…_STATUS`` variable as the
    runtime's own, so no output may be read under such a name."""
    return key in _RESERVED_KEYS or key.endswith(tuple(f"_{k}" for k in _RESERVED_KEYS))


class _State:
    """What the steps of one run have produced so far: their results, their
    latest outcomes (for ``if:``, the ``STEP_*`` variables and context.json)."""

    def __init__(
        self,
        request: RunRequest,
        total: int,
        scrubber: Scrubber | None = None,
        secrets: Mapping[str, str] | None = None,
    ) -> None:
        self.request = request
        self.total = total
        self.scrubber = scrubber if scrubber is not None else Scrubber()
        #: The export's secrets, read at the run's start (name -> value).
        self.secrets: Mapping[str, str] = secrets or {}
        #: Files of the run directory scrubbed already, as they were then
        #: (size, mtime, inode): the final sweep does not read them again.
        self.scrubbed: dict[str, tuple[int, int, int]] = {}
        self.results: list[StepResult] = []
        self.outcomes: dict[str, dict[str, Any]] = {}
        self._number = 0
        self._context: dict[str, Any] | None = None
        self._steps_dir_made = False

    def made_steps_dir(self, steps_dir: Path) -> bool:
        """Make `steps_dir` on the run's first step; True only then, and only
        when it did not exist before (so it is empty)."""
        if self._steps_dir_made:
            return False
        self._steps_dir_made = True
        try:
            steps_dir.mkdir(mode=0o700)
        except FileExistsError:
            return False
        return True

    def next_number(self) -> int:
        self._number += 1
        return self._number

    def skip_reason(self, step: Step, *, pipeline_ok: bool) -> str | None:
        condition = step.condition
        if condition is None:  # hooks run unconditionally once reached
            return None if pipeline_ok or step.section != "steps" else "an earlier step failed"
        if not condition.reads_outcomes and not pipeline_ok and step.section == "steps":
            return "an earlier step failed"
        if condition.evaluate(self.request.arguments, self.outcomes):
            return None
        return f"if: {condition.text} is false"

    def skipped(self, step: Step, reason: str) -> None:
        shown = _command(step, self.request.redacted_arguments())
        result = StepResult(
            step.name, "skipped", None, 0.0, shown, error=reason, phase=step.section
        )
        self.record(step, result)

    def record(self, step: Step, result: StepResult) -> None:
        self.results.append(result)
        self.outcomes[step.name] = {
            "status": result.status,
            "ok": result.status == "ok",
            "failed": result.status in ("failed", "timeout"),
            "skipped": result.status == "skipped",
            "timeout": result.status == "timeout",
            "exit_code": result.exit_code,
            "outputs": dict(result.outputs),
            "stdout_log": result.stdout_log,
            "stderr_log": result.stderr_log,
        }

    def environment(self) -> dict[str, str]:
        """``STEP_<name>_EXIT``, ``STEP_<name>_STATUS`` and ``STEP_<name>_<key>``
        of every step so far (a retried step: its latest attempt)."""
        env: dict[str, str] = {}
        for name, outcome in self.outcomes.items():
            code = outcome["exit_code"]
            env[f"STEP_{name}_EXIT"] = "" if code is None else str(code)
            env[f"STEP_{name}_STATUS"] = outcome["status"]
            for key, value in outcome["outputs"].items():
                env[f"STEP_{name}_{key}"] = value
        return env

    def write_context(self) -> None:
        """Keep context.json's ``steps`` current (written atomically)."""
        path = self.request.context_path
        if path is None:
            return
        if not self.outcomes and self._context is None:
            return  # compose() wrote it; nothing new before the first step
        if self._context is None:
            try:
                self._context = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return
        assert self._context is not None
        self._context["steps"] = self.outcomes
        tmp = path.with_suffix(".tmp")
        try:
            text = json.dumps(self._context, ensure_ascii=False) + "\n"
            write_private(tmp, text.encode("utf-8"))
            os.replace(tmp, path)
        except OSError:
            log.warning("could not update %s", path)


def _identity(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _scrub_in_place(path: Path, state: _State) -> None:
    """Scrub the file `path` (`Scrubber.scrub_file`) and remember it as
    scrubbed. A file that is gone is fine; one that cannot be read or
    rewritten is logged (its path, never its content)."""
    try:
        state.scrubber.scrub_file(path)
        state.scrubbed[str(path)] = _identity(os.stat(path))
    except FileNotFoundError:
        return
    except OSError as exc:
        log.warning("could not scrub the secrets out of %s: %s", path, exc.strerror)


def _scrubbed_tail(path: Path, limit: int, state: _State) -> tuple[str, int, bool, str | None]:
    """`_read_log` of a log that may hold a secret: the file is scrubbed in
    place (so its SHA-256 is of the scrubbed content), then its last `limit`
    bytes are read with `Scrubber.longest` bytes more, scrubbed, and cut."""
    scrubber = state.scrubber
    try:
        done = scrubber.scrub_file(path)
        st = os.stat(path)
    except FileNotFoundError:
        return "", 0, False, None
    except OSError as exc:
        log.warning("could not scrub the secrets out of %s: %s", path, exc.strerror)
        return "", 0, False, None
    state.scrubbed[str(path)] = _identity(st)
    if done.size == 0:
        return "", 0, False, done.sha256
    want = limit + scrubber.longest
    try:
        with open(path, "rb") as fh:
            fh.seek(max(done.size - want, 0))
            data = fh.read(want)
    except OSError:
        return "", done.size, done.size > limit, done.sha256
    data = scrubber.scrub_bytes(data)
    cut = done.size > limit
    if len(data) > limit:
        data = data[-limit:] if limit else b""
    return data.decode("utf-8", errors="replace"), done.size, cut, done.sha256


async def _scrubbed_log(path: Path, limit: int, state: _State) -> tuple[str, int, bool, str | None]:
    """`_scrubbed_tail`; a big log in a worker thread."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return "", 0, False, None
    if size <= _INLINE_HASH_LIMIT:
        return _scrubbed_tail(path, limit, state)
    return await anyio.to_thread.run_sync(_scrubbed_tail, path, limit, state)


def _sweep(run_dir: Path, state: _State) -> None:
    """Scrub every regular file under `run_dir` not scrubbed already (or
    changed since): what steps wrote there besides their logs and outputs
    (``$HARBOR_OUTPUT``, files of their own), context.json, attachments.
    Symbolic links are not followed."""
    for folder, _dirs, files in os.walk(run_dir):
        for name in files:
            path = os.path.join(folder, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or state.scrubbed.get(path) == _identity(st):
                continue
            _scrub_in_place(Path(path), state)


def _sha256_of(path: Path) -> str | None:
    try:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


async def _file_sha256(path: Path, size: int) -> str | None:
    """The SHA-256 of the file `path` of about `size` bytes (None: unreadable);
    a big one is hashed in a worker thread, a small one here (cheaper than
    the thread hop)."""
    if size <= _INLINE_HASH_LIMIT:
        return _sha256_of(path)
    return await anyio.to_thread.run_sync(_sha256_of, path)


def _command(step: Step, arguments: Mapping[str, Any]) -> str | list[str]:
    if step.spec.agent is not None:
        return f"agent: {step.spec.agent.model}"
    if step.script is not None:
        return render(step.script, arguments)
    assert step.argv is not None
    return [render(part, arguments) for part in step.argv]
