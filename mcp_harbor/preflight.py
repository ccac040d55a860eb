"""Preflight: are an export's needs there before it is offered?

An export needs the programs its steps and its custom tools visibly run
(from the checker's parse; an ``agent:`` step runs none) and what it
declares under ``needs:``: environment variables, files or folders,
programs the parse cannot see, and TCP ``host:port`` endpoints that must
accept a connection. An export that runs here (no ``runs_on:``) also
needs each of its ``secrets:``: a set, non-empty environment variable or a
readable, non-empty file (a worker's exports' secrets are the worker's:
`secret_needs` there).

A relative path is resolved the way the runner resolves it when the step
runs: against the step's ``cwd:`` (itself relative to the export file's
folder), or the server's working directory (``--workdir``) for a step
without one. ``needs:`` belongs to the whole export: when its steps run in
different folders, a relative entry is met when it is there in at least one
of them (each folder is named when it is in none).

An export with agent steps also needs, for each model its steps name, a
ready source of the models file (``--models``): the primary or the
fallback. Each distinct (endpoint, model) pair is probed
(`mcp_harbor.llm.probe.probe_source`: its ``GET /models`` lists the id) once
per round, like any target. `Preflight.pin` decides, at a run's start,
which source answers each model for that run.

Each distinct target is probed once per round, however many exports share
it, and the results are cached for `ttl` seconds. A run asks for the verdict
once, at its start (the run boundary), so it never sees a need flip halfway.
"""

from __future__ import annotations

import os
import shutil
import socket
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from mcp_harbor import defaults
from mcp_harbor.check.commands import programs_of
from mcp_harbor.config import Export
from mcp_harbor.config.models_file import Models
from mcp_harbor.llm.pin import Pin
from mcp_harbor.llm.probe import probe_source
from mcp_harbor.llm.turn import ModelSource

__all__ = [
    "DEFAULT_TTL",
    "Need",
    "Preflight",
    "Verdict",
    "missing_secrets",
    "needs_of",
    "secret_needs",
]

#: Seconds a probe's result is reused: the cost of a stale answer is one
#: call refused (or let through to fail) for that long.
DEFAULT_TTL = defaults.DEFAULT_PREFLIGHT_TTL
_TCP_TIMEOUT = 1.0

Kind = Literal["program", "env", "file", "tcp", "secret_env", "secret_file"]


@dataclass(frozen=True, slots=True)
class Need:
    """One thing an export needs, and where it comes from (file:line)."""

    kind: Kind
    target: str
    where: str
    path_env: str | None = None  # PATH to search, for programs of steps that set one
    secret: str | None = None  # the secret's name, for secret_env and secret_file
    #: For a relative `target` of ``needs:`` in an export whose steps run in
    #: several folders: those folders (met when it is in one of them).
    among: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str, str | None, tuple[str, ...]]:
        return (self.kind, self.target, self.path_env, self.among)

    def describe(self) -> str:
        """What is missing, and where the export file asks for it."""
        where = f"the folders the steps run in ({', '.join(self.among)})"
        what = {
            "program": f"program {self.target!r} is not on PATH",
            "env": f"environment variable {self.target} is not set",
            "file": f"{self.target} does not exist",
            "tcp": f"nothing accepts connections on {self.target}",
            "secret_env": f"secret {self.secret}: environment variable {self.target} is not "
            f"set or empty",
            "secret_file": f"secret {self.secret}: file {self.target} is missing, unreadable "
            f"or empty",
        }[self.kind]
        if self.kind == "program" and "/" in self.target:
            what = f"program {self.target} does not exist or is not executable"
        if self.among:
            what = (
                f"program {self.target} is executable in none of {where}"
                if self.kind == "program"
                else f"{self.target} is in none of {where}"
            )
        return f"{what} (needed at {self.where})"


@dataclass(frozen=True, slots=True)
class Verdict:
    """An export's preflight: what is missing (empty: ready)."""

    export: str
    missing: tuple[Need, ...]
    #: Models its agent steps name that have no ready source, each said as
    #: ``model coder: primary gpu-box unreachable (…); fallback … ``.
    models: tuple[str, ...] = ()

    @property
    def ready(self) -> bool:
        return not self.missing and not self.models

    def describe(self) -> str:
        return "; ".join([*(n.describe() for n in self.missing), *self.models])

    def reason(self) -> str:
        """Why the export is not offered, as `mcp-harbor tools` and the
        server's log say it: ``preflight failed: …`` for its needs, then
        ``missing secret NAME: …`` for each secret that cannot be read."""
        needs = [n.describe() for n in self.missing if n.secret is None]
        parts = [f"preflight failed: {'; '.join(needs)}"] if needs else []
        parts += [f"missing {n.describe()}" for n in self.missing if n.secret is not None]
        parts += list(self.models)
        return "; ".join(parts)


def needs_of(export: Export, workdir: Path | None = None) -> list[Need]:
    """The export's needs: programs its steps run, plus ``needs:``.

    The programs are `programs_of`'s: those of its ``run:``/``argv:``
    steps and of its custom tools (its agents may call them in any run; a
    relative path in one resolves against `workdir`, since a custom tool
    has no ``cwd:``). An ``agent:`` step needs no program.

    Relative paths resolve where the steps run (see the module's
    docstring): a step's ``cwd:``, else `workdir`, the server's working
    directory (None: this process's current directory, as
    `mcp_harbor.runctx.RunSettings` defaults to)."""
    work = Path.cwd() if workdir is None else workdir
    out: list[Need] = []
    steps = {s.name: s for s in export.all_steps}
    for use in programs_of(export):
        step = steps.get(use.step)
        if "/" in use.program:
            base = step.cwd if step is not None and step.cwd is not None else work
            out.append(Need("file", str(base / use.program), f"{export.path}:{use.line}"))
            continue
        path_env = step.spec.env.get("PATH") if step is not None else None
        out.append(Need("program", use.program, f"{export.path}:{use.line}", path_env))
    if export.spec.runs_on is None:
        out.extend(secret_needs(export))
    declared = export.spec.needs
    if not (declared.env or declared.programs or declared.files or declared.tcp):
        return out
    where = f"{export.path}:{export.source.line_of(('needs',))}"
    # where commands run: the steps with one (an agent: step has none), and
    # the working directory for custom tools, which take no cwd:
    bases = tuple(
        dict.fromkeys(
            [str(s.cwd or work) for s in export.all_steps if s.kind != "agent"]
            + ([str(work)] if export.tools else [])
        )
    ) or (str(work),)
    for name in declared.env:
        out.append(Need("env", name, where))
    for name in declared.programs:
        out.append(
            _declared_path("program", name, where, bases)
            if "/" in name
            else Need("program", name, where)
        )
    for raw in declared.files:
        out.append(_declared_path("file", raw, where, bases))
    for endpoint in declared.tcp:
        out.append(Need("tcp", endpoint, where))
    return out


def _declared_path(kind: Kind, raw: str, where: str, bases: tuple[str, ...]) -> Need:
    """The need of a path written under ``needs:``: absolute as written,
    else in the one folder the steps run in, else in one of `bases`."""
    if raw.startswith("/"):
        return Need(kind, raw, where)
    if len(bases) == 1:
        return Need(kind, str(Path(bases[0]) / raw), where)
    return Need(kind, raw, where, among=bases)


def secret_needs(export: Export) -> list[Need]:
    """One need per ``secrets:`` entry: its variable set and non-empty, or
    its file readable and non-empty."""
    out: list[Need] = []
    for name, source in export.spec.secrets.items():
        where = f"{export.path}:{export.source.line_of(('secrets', name))}"
        if source.env is not None:
            out.append(Need("secret_env", source.env, where, secret=name))
        else:
            out.append(Need("secret_file", str(export.secret_file(name)), where, secret=name))
    return out


def missing_secrets(export: Export) -> list[Need]:
    """The export's secrets that cannot be read here, probed now (no cache:
    a worker asks once, at its start)."""
    return [need for need in secret_needs(export) if not _probe(need)]


def _probe(need: Need) -> bool:
    if need.among:
        return any(
            _probe(replace(need, target=str(Path(b) / need.target), among=())) for b in need.among
        )
    if need.kind == "program":
        return shutil.which(need.target, path=need.path_env) is not None
    if need.kind == "env":
        return need.target in os.environ
    if need.kind == "file":
        return Path(need.target).exists()
    if need.kind == "secret_env":
        return bool(os.environ.get(need.target))
    if need.kind == "secret_file":
        try:
            return os.stat(need.target).st_size > 0 and os.access(need.target, os.R_OK)
        except OSError:
            return False
    host, _, port = need.target.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=_TCP_TIMEOUT):
            return True
    except OSError:
        return False


class Preflight:
    """Probes needs, each distinct one once per round, with a cache.

    `workdir` is where steps without ``cwd:`` run (the server's
    ``--workdir``; None: this process's current directory, taken now), so
    relative paths are probed where the steps will look for them."""

    def __init__(
        self,
        ttl: float = DEFAULT_TTL,
        *,
        workdir: Path | None = None,
        models: Models | None = None,
    ) -> None:
        self.ttl = ttl
        self.workdir = Path.cwd() if workdir is None else workdir
        #: The models file agent steps' models come from (None: none).
        self.models = models
        # (base_url, model, probe kind) -> (why not ready or None, when, when in UTC)
        self._sources: dict[tuple[str, str, str], tuple[str | None, float, str]] = {}
        self._cache: dict[tuple[str, str, str | None, tuple[str, ...]], tuple[bool, float]] = {}
        # An export's needs come from a parse of its steps: worked out once
        # per export version (name and content hash), not on every run.
        self._needs: dict[tuple[str, str], list[Need]] = {}
        self.probes = 0  # how many real probes ran (for tests and benchmarks)

    def needs(self, export: Export) -> list[Need]:
        """`needs_of(export)`, remembered per export version."""
        key = (export.name, export.content_hash)
        found = self._needs.get(key)
        if found is None:
            found = self._needs[key] = needs_of(export, self.workdir)
        return found

    def _known(self, need: Need, now: float) -> bool | None:
        hit = self._cache.get(need.key)
        if hit is not None and now - hit[1] < self.ttl:
            return hit[0]
        return None

    def refresh(self, needs: Iterable[Need], *, force: bool = False) -> None:
        """Probe every distinct need not cached (all of them if `force`).
        TCP endpoints are probed concurrently (one thread each)."""
        now = time.monotonic()
        todo = {n.key: n for n in needs if force or self._known(n, now) is None}
        tcp = [n for n in todo.values() if n.kind == "tcp"]
        rest = [n for n in todo.values() if n.kind != "tcp"]
        for need in rest:
            self._cache[need.key] = (_probe(need), now)
            self.probes += 1
        if tcp:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=min(16, len(tcp))) as pool:
                for need, ok in zip(tcp, pool.map(_probe, tcp), strict=True):
                    self._cache[need.key] = (ok, now)
                    self.probes += 1

    def _judged(self, source: ModelSource, probe: str) -> tuple[str | None, str] | None:
        hit = self._sources.get((source.base_url, source.model, probe))
        if hit is not None and time.monotonic() - hit[1] < self.ttl:
            return hit[0], hit[2]
        return None

    def refresh_models(self, exports: Iterable[Export], *, force: bool = False) -> None:
        """Probe each distinct (endpoint, model) pair the exports' models
        use that is not cached (all if `force`), concurrently."""
        if self.models is None:
            return
        todo: dict[tuple[str, str, str], ModelSource] = {}
        for export in exports:
            for name in export.models:
                spec = self.models.model(name)
                if spec is None:
                    continue
                for _role, source in self.models.sources(name):
                    if force or self._judged(source, spec.probe) is None:
                        todo[(source.base_url, source.model, spec.probe)] = source
        if not todo:
            return
        from concurrent.futures import ThreadPoolExecutor

        def judge(item: tuple[tuple[str, str, str], ModelSource]) -> str | None:
            (_url, _model, probe), source = item
            return probe_source(source, tool_call=probe == "tool_call")

        items = list(todo.items())
        with ThreadPoolExecutor(max_workers=min(8, len(items))) as pool:
            for (key, _source), reason in zip(items, pool.map(judge, items), strict=True):
                at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                self._sources[key] = (reason, time.monotonic(), at)
                self.probes += 1

    def model_problems(self, export: Export) -> list[str]:
        """Why each model of `export` has no ready source (empty: all have
        one), from the cache (`refresh_models` first)."""
        return self._pins(export)[1]

    def pin(self, export: Export, models: Models | None = None) -> tuple[dict[str, Pin], list[str]]:
        """The source of each model of `export` for one run, judged now (from
        the cache when fresh): the primary when ready, else the fallback.
        Returns the pins and, for each model without a ready source, why."""
        if models is not None and self.models is None:
            self.models = models
        self.refresh_models([export])
        return self._pins(export)

    def _pins(self, export: Export) -> tuple[dict[str, Pin], list[str]]:
        pins: dict[str, Pin] = {}
        problems: list[str] = []
        for name in sorted(export.models):
            spec = None if self.models is None else self.models.model(name)
            if self.models is None:
                problems.append(f"model {name}: this server has no models file (--models FILE)")
                continue
            if spec is None:
                known = ", ".join(sorted(self.models.names())) or "none"
                problems.append(f"model {name} is not in the models file (models: {known})")
                continue
            said: list[str] = []
            for role, source in self.models.sources(name):
                judged = self._judged(source, spec.probe)
                if judged is None:
                    self.refresh_models([export])
                    judged = self._judged(source, spec.probe) or ("not probed", "")
                reason, at = judged
                if reason is None:
                    pins[name] = Pin(name, role, source, at, "; ".join(said) or None)
                    break
                said.append(f"{role} {source.endpoint} {reason}")
            else:
                problems.append(f"model {name}: {'; '.join(said)}")
        return pins, problems

    def verdicts(self, exports: Sequence[Export], *, force: bool = False) -> list[Verdict]:
        """The verdict of each export, probing what the cache lacks."""
        per_export = {e.name: self.needs(e) for e in exports}
        self.refresh((n for ns in per_export.values() for n in ns), force=force)
        self.refresh_models([e for e in exports if e.models], force=force)
        now = time.monotonic()
        out = []
        for export in exports:
            missing = []
            for need in per_export[export.name]:
                known = self._known(need, now)
                if known is None:  # expired between refresh and now: ask again
                    self.refresh([need])
                    known = self._cache[need.key][0]
                if not known:
                    missing.append(need)
            models = tuple(self._pins(export)[1]) if export.models else ()
            out.append(Verdict(export.name, tuple(dict.fromkeys(missing)), models))
        return out

    def verdict(self, export: Export) -> Verdict:
        """One export's verdict, from the cache where fresh (a run asks once,
        at its start)."""
        return self.verdicts([export])[0]

    def cached_verdict(self, export: Export) -> Verdict | None:
        """One export's verdict from the cache alone, probing nothing: None
        when one of its needs is not cached or is older than `ttl` (then ask
        `verdict`, which probes). Cheap enough for the event loop (its needs
        are parsed once per export version); an export without needs always
        has one."""
        now = time.monotonic()
        missing = []
        for need in self.needs(export):
            known = self._known(need, now)
            if known is None:
                return None
            if not known:
                missing.append(need)
        models: tuple[str, ...] = ()
        if export.models:
            if self.models is not None and any(
                self._judged(source, spec.probe) is None
                for name in export.models
                if (spec := self.models.model(name)) is not None
                for _role, source in self.models.sources(name)
            ):
                return None
            models = tuple(self._pins(export)[1])
        return Verdict(export.name, tuple(dict.fromkeys(missing)), models)
