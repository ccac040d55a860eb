"""The application object: one place that builds what serves calls.

`Harbor.open(settings)` loads and checks the exports, opens the store and
the audit trail, builds the executors (a worker broker when exports have
``runs_on:``), the preflight and the call service, once, the same way for
``mcp-harbor serve``, ``mcp-harbor run`` and ``mcp-harbor worker``. The
commands are thin: they turn options into `HarborSettings`, and errors into
exit codes.

`HarborSettings` takes its defaults from `mcp_harbor.defaults`, which the
command-line options show too; neither restates them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from mcp_harbor.config import Export
from mcp_harbor.config.model import RateLimitSpec
from mcp_harbor.config.models_file import load_models_file
from mcp_harbor.defaults import (
    DEFAULT_EXPORTS,
    DEFAULT_KEEP_RUNS,
    DEFAULT_LIST_TTL,
    DEFAULT_OUTPUT_TAIL,
    DEFAULT_PREFLIGHT_TTL,
    DEFAULT_QUEUE_TIMEOUT,
    DEFAULT_TASK_TTL,
)
from mcp_harbor.errors import ConfigError, ExportsRefused
from mcp_harbor.locations import default_check_cache_path, default_db_path, without_password
from mcp_harbor.preflight import Preflight
from mcp_harbor.runctx import CallService, ExportCatalog, RunSettings
from mcp_harbor.runctx.approval import load_seed
from mcp_harbor.runctx.request import Catalog
from mcp_harbor.runctx.skills import SkillsDirectory
from mcp_harbor.runner import LocalExecutor
from mcp_harbor.runner.sandbox import Sandbox, SandboxMode
from mcp_harbor.store import Store, names_postgres
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.seal import (
    DEFAULT_SEAL_EVERY,
    DEFAULT_SEAL_INTERVAL,
    Sealer,
    load_key,
    open_witness,
)

if TYPE_CHECKING:
    import mcp_types

    from mcp_harbor.check import ExportReport
    from mcp_harbor.identity import Caller
    from mcp_harbor.preflight import Verdict

__all__ = [
    "Harbor",
    "HarborSettings",
    "Listing",
    "Published",
    "listing",
    "load_published",
    "unavailable",
    "use_programs",
]

log = logging.getLogger("mcp_harbor.harbor")


Purpose = Literal["serve", "run", "worker"]
Job = Callable[[], Coroutine[Any, Any, None]]


#: The ``--programs`` file (path, mtime, size) whose grammars this process
#: made server-wide, and the mapping it set.
_programs_in_use: tuple[tuple[Path, int, int], Mapping[str, Any]] | None = None


def use_programs(path: Path | None) -> None:
    """Make the grammars of the ``--programs`` file the server-wide ones of
    every export this process loads (each `Export.programs`, and its content
    hash); call it before loading exports. A file already in use, unchanged,
    is not read again.

    Raises:
        ConfigError: the file is invalid.
    """
    global _programs_in_use
    if path is None:
        return
    from mcp_harbor.config import load_programs_file, server_programs, set_server_programs

    try:
        stat = path.stat()
        key = (path, stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None  # load_programs_file says what is wrong
    in_use = _programs_in_use
    unchanged = key is not None and in_use is not None and in_use[0] == key
    if unchanged and in_use is not None and in_use[1] is server_programs():
        return  # read already, unchanged, and nobody replaced the grammars since
    try:
        programs = load_programs_file(path)
    except ConfigError as exc:
        raise ConfigError(_listed("invalid programs file", exc.problems), exc.problems) from exc
    set_server_programs(programs)
    _programs_in_use = None if key is None else (key, server_programs())
    log.debug("server-wide program grammars from %s: %s", path, ", ".join(programs) or "none")


def _listed(what: str, problems: Sequence[str]) -> str:
    """`what` and its problems: one line for one problem, else one each."""
    if len(problems) == 1 and "\n" not in problems[0]:
        return f"{what}: {problems[0]}"
    return f"{what}:\n" + "\n".join(f"  {p}" for p in problems)


@dataclass(frozen=True, slots=True)
class Published:
    """The exports an application may publish, and the names the checker refused."""

    exports: list[Export]
    refused: frozenset[str]
    #: Why each of `refused` is not published: what the checker found, or
    #: what the sandbox cannot enforce (``--sandbox required``).
    reasons: Mapping[str, str] = field(default_factory=dict)
    #: Every export the files declare, published or refused, in load order.
    declared: tuple[Export, ...] = ()


def unavailable(published: Published, verdicts: Iterable[Verdict]) -> dict[str, str]:
    """Why each declared export is not offered, in load order: its
    `Published.reasons` when refused, its `Verdict.reason` when its needs
    are missing (`verdicts`: of the published exports). An export without
    an entry is offered. What ``mcp-harbor tools`` shows and a server logs."""
    missing = {v.export: v.reason() for v in verdicts if not v.ready}
    why = {**published.reasons, **missing}
    return {e.name: why[e.name] for e in published.declared if e.name in why}


@dataclass(frozen=True, slots=True)
class Listing:
    """What one caller (or every caller) is offered, and what not: what
    ``mcp-harbor tools`` shows."""

    #: Exactly what the caller's ``tools/list`` returns, in registry order.
    tools: list[mcp_types.Tool]
    #: Each export the caller's ``allow:`` admits that is not offered, with
    #: why (`unavailable`), in load order.
    unavailable: list[tuple[Export, str]]
    #: How many offered tools ``allow:`` hides from the caller.
    hidden: int


def listing(
    published: Published,
    preflight: Preflight,
    caller: Caller | None = None,
    *,
    with_refused: bool = True,
) -> Listing:
    """The tools a server built from `published` offers `caller` (None:
    every tool, whoever asks), through the registry the server answers
    ``tools/list`` from (`mcp_harbor.server.Registry.visible_tools`), after
    probing the exports' needs with `preflight`; and the exports it does
    not offer (the checker's refusals only `with_refused`)."""
    from mcp_harbor.policy import is_allowed
    from mcp_harbor.server import Registry

    why = unavailable(published, preflight.verdicts(published.exports))
    registry = Registry(e for e in published.exports if e.name not in why)
    tools = registry.tools() if caller is None else registry.visible_tools(caller)
    absent = [
        (e, why[e.name])
        for e in published.declared
        if e.name in why
        and (with_refused or e.name not in published.refused)
        and (caller is None or is_allowed(caller, e.spec.allow))
    ]
    return Listing(list(tools), absent, len(registry) - len(tools))


def _refusal(report: ExportReport, strict: bool) -> str:
    """Why the checker refused `report`'s export, on one line (each
    finding's message names the step, line, column and rule)."""
    said = "; ".join(f.message for f in report.findings if strict or f.severity == "error")
    return f"refused by the checker: {said} (mcp-harbor check {report.file} shows the fixes)"


def load_published(
    paths: Sequence[Path], *, strict: bool = False, skip_refused: bool = False
) -> Published:
    """Load and check the exports: every command that publishes or calls
    tools goes through here, so none registers an unchecked export.
    Warnings are logged; under `strict` they refuse too. Refused exports are
    logged and left out when `skip_refused`.

    Raises:
        ConfigError: a file cannot be loaded.
        ExportsRefused: the checker refused an export and not `skip_refused`.
    """
    from mcp_harbor.check import load_and_check
    from mcp_harbor.check.report import render_text

    try:
        checked = load_and_check(
            list(paths) or [DEFAULT_EXPORTS], strict=strict, cache_file=default_check_cache_path()
        )
    except ConfigError as exc:
        raise ConfigError(_listed("invalid exports", exc.problems), exc.problems) from exc
    refused = [r for r in checked.reports if r.refused_under(strict)]
    warned = [r for r in checked.reports if r.findings and not r.refused_under(strict)]
    if warned:
        log.warning("checker warnings:\n%s", render_text(warned, strict=strict))
    if refused and not skip_refused:
        raise ExportsRefused(
            f"refusing to start: the checker refused {len(refused)} export(s) "
            f"(fix them, or pass --skip-refused to publish the others):\n"
            + render_text(refused, strict=strict)
        )
    reasons = {r.name: _refusal(r, strict) for r in refused}
    for name, reason in reasons.items():  # said once here, at the start
        log.warning("not offering %s: %s", name, reason)
    return Published(
        checked.accepted, frozenset(reasons), reasons, tuple(checked.exports or checked.accepted)
    )


def _confinable(published: Published, sandbox: Sandbox, *, skip_refused: bool) -> Published:
    """`published` without the exports `sandbox` cannot confine as they ask
    (``--sandbox required``); under ``auto`` they stay, and what is not in
    force is logged once, at the start.

    Raises:
        ExportsRefused: ``required``, an export cannot be fully confined,
            and not `skip_refused`.
    """
    first, *absent = sandbox.describe()
    log.info("%s", first)
    for line in absent:
        log.warning("%s", line)
    kept: list[Export] = []
    refused: dict[str, list[str]] = {}
    for export in published.exports:
        missing = sandbox.missing(export.spec.sandbox)
        if not missing:
            kept.append(export)
        elif sandbox.mode == "required":
            refused[export.name] = missing
        else:
            kept.append(export)
            log.warning(
                "%s runs less confined than it asks (--sandbox auto): %s",
                export.name,
                "; ".join(missing),
            )
    if not refused:
        return published
    text = "\n".join(f"  {name}: {'; '.join(why)}" for name, why in refused.items())
    if not skip_refused:
        raise ExportsRefused(
            f"refusing to start (--sandbox required): {len(refused)} export(s) cannot be "
            f"confined as they ask on this machine (fix the layer, or pass --skip-refused "
            f"to publish the others):\n{text}"
        )
    reasons = dict(published.reasons)
    for name, why in refused.items():
        reasons[name] = f"cannot be confined as it asks (--sandbox required): {'; '.join(why)}"
        log.warning("not offering %s: %s", name, reasons[name])
    return Published(kept, published.refused | frozenset(refused), reasons, published.declared)


@dataclass(slots=True)
class HarborSettings:
    """What an application is built from; each default has its reason in the
    option's help or in `RunSettings`."""

    exports: Sequence[Path] = ()
    #: Server-wide program grammars (``--programs FILE``).
    programs: Path | None = None
    #: Where agent steps' models are answered (``--models FILE``; None:
    #: exports with agent steps are not offered).
    models: Path | None = None
    #: The skills directory agents see (``--skills DIR``).
    skills: Path | None = None
    strict: bool = False
    skip_refused: bool = False
    #: A SQLite file or a PostgreSQL URL (``--db``).
    db: str = field(default_factory=lambda: str(default_db_path()))
    #: Commit every record to stable storage (``--db-sync full``).
    durable: bool = False
    workdir: Path | None = None
    runs_dir: Path | None = None
    keep_runs: int = DEFAULT_KEEP_RUNS
    output_tail: int = DEFAULT_OUTPUT_TAIL
    max_concurrent: int | None = None
    queue_timeout: float = DEFAULT_QUEUE_TIMEOUT
    #: Seconds a task's result is kept (``--task-ttl``; an export's
    #: ``task_ttl:`` may only shorten it).
    task_ttl: float = DEFAULT_TASK_TTL
    #: Calls each principal may make of an export without ``rate_limit:``
    #: (``--rate-limit``; None: no limit).
    rate_limit: RateLimitSpec | None = None
    approve_seed: Path | None = None
    #: The workers' Redis broker; exports with ``runs_on:`` need one.
    broker: str | None = None
    #: Seconds between sweeps of expired worker leases (None: the sweeper's default).
    sweep_interval: float | None = None
    preflight_interval: float = DEFAULT_PREFLIGHT_TTL
    #: Seconds a client may reuse a ``tools/list`` answer (``--list-ttl``).
    list_ttl: float = DEFAULT_LIST_TTL
    #: How steps are confined (``--sandbox``): see `mcp_harbor.runner.sandbox.Sandbox`.
    sandbox: SandboxMode = "auto"
    #: The HTTP tokens file (``--tokens``), kept from steps like the other
    #: files of the server.
    tokens: Path | None = None
    #: Variables of this process's environment every step receives, besides
    #: the minimal set (``--pass-env``); a worker's own apply to its runs.
    pass_env: tuple[str, ...] = ()
    #: The key that signs the audit chain's checkpoints (``--audit-key``,
    #: created 0600 when missing) and the witness file they are appended to
    #: (``--audit-witness``); both set: a server and ``run`` sign checkpoints
    #: (`mcp_harbor.store.seal`). None: no checkpoints (an embedding
    #: application's choice; the commands always pass both).
    audit_key: Path | None = None
    audit_witness: Path | None = None
    #: Records between two checkpoints, and seconds between two while there
    #: are new records (lowered by tests only).
    seal_every: int = DEFAULT_SEAL_EVERY
    seal_interval: float = DEFAULT_SEAL_INTERVAL

    def hidden_paths(self) -> list[Path]:
        """What no step may read or write: the state and config folders at
        their default places, and wherever the database (with its journal
        files), the runs root, the check cache and the tokens file are."""
        paths = Sandbox.default_hidden()
        paths.append(default_check_cache_path())
        if not names_postgres(self.db):
            db = Path(self.db)
            paths += [db, *(db.with_name(db.name + s) for s in ("-wal", "-shm", "-journal"))]
            paths.append(db.parent / "worker-*.pgids")  # the ledgers there now (and see worker)
        if self.runs_dir is not None:
            paths.append(self.runs_dir)
        if self.tokens is not None:
            paths.append(self.tokens)
        paths += [p for p in (self.audit_key, self.audit_witness) if p is not None]
        return [p for p in paths if "*" not in p.name] + _globbed(p for p in paths if "*" in p.name)


def _globbed(patterns: Iterable[Path]) -> list[Path]:
    return [match for pattern in patterns for match in pattern.parent.glob(pattern.name)]


class Harbor:
    """An open application: its exports, store, audit trail and call service.
    Close it (or use it as a context manager) to release the store."""

    def __init__(
        self,
        settings: HarborSettings,
        published: Published,
        offered: list[Export],
        store: Store,
        service: CallService,
        preflight: Preflight,
        remote: Any,
        sandbox: Sandbox,
    ) -> None:
        self.settings = settings
        self.published = published
        #: The exports whose needs are there at the start (the ones served).
        self.offered = offered
        self.store = store
        self.service = service
        self.preflight = preflight
        #: The workers' executor (`mcp_harbor.remote.CeleryExecutor`), or None.
        self.remote = remote
        #: How this application's steps are confined.
        self.sandbox = sandbox
        #: Why each published export whose needs were missing at the start is
        #: not offered (`mcp_harbor.preflight.Verdict.reason`), as logged then.
        self.missing_needs: dict[str, str] = {}

    @staticmethod
    def start_loading(settings: HarborSettings) -> None:
        """Begin loading the export files now, for a later `open` with the
        same settings (a server imports its other modules meanwhile). Never
        raises: `open` finds and reports whatever is wrong."""
        from mcp_harbor.check import start

        with contextlib.suppress(ConfigError):  # open reports it, naming the file
            use_programs(settings.programs)
        start(list(settings.exports) or [DEFAULT_EXPORTS], cache_file=default_check_cache_path())

    @classmethod
    def open(cls, settings: HarborSettings, *, purpose: Purpose = "serve") -> Harbor:
        """Build the application for `purpose`.

        - ``serve``: the exports whose needs are missing are not offered
          (under `strict` the start is refused); runs an earlier server on
          this host left open are closed as ``interrupted``;
        - ``run``: every accepted export can be called;
        - ``worker``: refused exports are skipped (a worker serves what it can).

        With `HarborSettings.audit_key` and ``audit_witness`` (``serve`` and
        ``run``: the processes that append records), the chain's head is
        signed into the witness file as it grows and at `close`.

        The call path's catalog is the server's `Registry` for ``serve``
        (`serve` publishes it), else an `ExportCatalog`.

        Raises:
            ConfigError: an export file, the programs file, the approval
                seed or the audit key is invalid; exports need a broker that
                is not configured.
            ExportsRefused: the checker refused exports (see `load_published`).
            StoreError: the store cannot be opened.
        """
        from mcp_harbor import store as stores

        use_programs(settings.programs)  # before any export is loaded
        models = load_models_file(settings.models) if settings.models is not None else None
        skills = SkillsDirectory(settings.skills) if settings.skills is not None else None
        published = load_published(
            settings.exports,
            strict=settings.strict,
            skip_refused=settings.skip_refused or purpose == "worker",
        )
        key = None
        if purpose != "worker" and settings.audit_key is not None and settings.audit_witness:
            # Before the sandbox, and refused before the store opens: both
            # files exist from here on, so no step ever reads them.
            key = load_key(settings.audit_key, create=True)
            open_witness(settings.audit_witness)
        sandbox = Sandbox(settings.sandbox, settings.hidden_paths())
        published = _confinable(
            published, sandbox, skip_refused=settings.skip_refused or purpose == "worker"
        )
        remote_exports = [e.name for e in published.exports if e.spec.runs_on is not None]
        if remote_exports and settings.broker is None and purpose == "serve":
            raise ConfigError(
                f"{', '.join(remote_exports)} run on workers (runs_on:) but no broker is "
                f"configured: pass --broker redis://HOST:PORT/DB (or set MCP_HARBOR_BROKER)"
            )
        run_settings = RunSettings(
            keep_runs=settings.keep_runs,
            output_tail=settings.output_tail,
            max_concurrent=settings.max_concurrent,
            queue_timeout=settings.queue_timeout,
            rate_limit=settings.rate_limit,
            pass_env=tuple(settings.pass_env),
            models=models,
            skills=skills,
        )
        if settings.approve_seed is not None:
            run_settings.approve_seed = load_seed(settings.approve_seed)
        if settings.workdir is not None:
            run_settings.workdir = settings.workdir.resolve()
        if settings.runs_dir is not None:
            run_settings.runs_root = settings.runs_dir.resolve()
        preflight = Preflight(
            ttl=min(DEFAULT_PREFLIGHT_TTL, settings.preflight_interval),
            workdir=run_settings.workdir,  # where steps without cwd: run
            models=models,
        )
        run_settings.preflight = preflight
        offered = list(published.exports)
        missing: dict[str, str] = {}
        if purpose == "serve":
            offered = []
            for export, verdict in zip(
                published.exports, preflight.verdicts(published.exports), strict=True
            ):
                if verdict.ready:
                    offered.append(export)
                elif settings.strict:
                    raise ExportsRefused(
                        f"refusing to start (--strict): {export.name} cannot run: "
                        f"{verdict.describe()}"
                    )
                else:  # said once here; a reload says it again only when it changes
                    missing[export.name] = verdict.reason()
                    log.warning("not offering %s: %s", export.name, missing[export.name])
        store = stores.open(settings.db, durable=settings.durable)
        try:
            sealer = None
            if key is not None and settings.audit_witness is not None:
                sealer = Sealer(
                    store,
                    key,
                    settings.audit_witness,
                    every=settings.seal_every,
                    interval=settings.seal_interval,
                )
            audit = AuditTrail(store, sealer)
            if purpose == "serve":
                interrupted = audit.close_interrupted(keep_worker_tasks=settings.broker is not None)
                if interrupted:
                    log.warning(
                        "closed %d interrupted run(s): %s",
                        len(interrupted),
                        ", ".join(interrupted),
                    )
            remote = None
            if settings.broker is not None and purpose == "serve":
                from mcp_harbor.remote import CeleryExecutor

                remote = CeleryExecutor(settings.broker)
            catalog: Catalog
            if purpose == "serve":
                from mcp_harbor.server import Registry

                catalog = Registry(offered, published.refused)
            else:
                catalog = ExportCatalog(offered, published.refused)
            service = CallService(
                run_settings,
                audit,
                store,
                executor=LocalExecutor(sandbox, pass_env=settings.pass_env),
                remote=remote,
                catalog=catalog,
            )
        except BaseException:
            store.close()
            raise
        harbor = cls(settings, published, offered, store, service, preflight, remote, sandbox)
        harbor.missing_needs = missing
        return harbor

    def background(self, exports: Callable[[], dict[str, Export]]) -> list[Job]:
        """The jobs that run beside serving: the sweeper of expired worker
        leases when there is a broker (`exports`: the exports served now)."""
        if self.remote is None:
            return []
        from mcp_harbor.remote import DEFAULT_SWEEP_INTERVAL, Sweeper

        interval = self.settings.sweep_interval or DEFAULT_SWEEP_INTERVAL
        return [Sweeper(self.store, self.remote, exports, interval).run]

    def worker(
        self,
        labels: Sequence[str],
        *,
        hostname: str | None = None,
        lease: float | None = None,
        visibility_timeout: float | None = None,
        ledger: Path | None = None,
    ) -> Any:
        """The `mcp_harbor.remote.Worker` that runs the runs of the exports
        whose ``runs_on:`` is one of `labels`, on this application's store.

        - the broker's visibility timeout defaults to the longest export
          timeout plus `DEFAULT_VISIBILITY_MARGIN` (a run still going must
          never be redelivered);
        - the `ledger` of the worker's process groups defaults to a file next
          to a SQLite store; at start, the groups a previous worker left there
          are killed.

        Raises:
            ConfigError: no export has one of `labels`, or there is no broker.
        """
        import socket

        from mcp_harbor.remote import (
            DEFAULT_LEASE,
            DEFAULT_VISIBILITY_MARGIN,
            Worker,
            kill_recorded,
        )
        from mcp_harbor.runner import DEFAULT_TIMEOUT
        from mcp_harbor.runner.reaper import reaper

        if self.settings.broker is None:
            raise ConfigError("a worker needs --broker redis://HOST:PORT/DB")
        exports = self.published.exports
        served = [e for e in exports if e.spec.runs_on in labels]
        if not served:
            raise ConfigError(f"no export has runs_on: {' or '.join(labels)}; nothing to serve")
        name = hostname or socket.gethostname()
        if ledger is None and not names_postgres(self.settings.db):
            ledger = Path(self.settings.db).with_name(f"worker-{name}.pgids")
        if ledger is not None:
            killed = kill_recorded(ledger)
            if killed:
                log.warning(
                    "killed %d process group(s) a previous worker left: %s",
                    len(killed),
                    ", ".join(map(str, killed)),
                )
            reaper.ledger = ledger
            self.sandbox.hide(ledger)
        from mcp_harbor.preflight import missing_secrets

        for export in served:  # said once here; each run refused for it says why
            missing = missing_secrets(export)
            if missing:
                log.warning(
                    "%s cannot run on this worker until its secrets are there: %s",
                    export.name,
                    "; ".join(n.describe() for n in missing),
                )
        longest = max(e.spec.timeout or DEFAULT_TIMEOUT for e in exports)
        log.info(
            "worker %s: queues %s, exports %s, store %s",
            name,
            ", ".join(labels),
            ", ".join(e.name for e in served),
            self.store.location,
        )
        return Worker(
            self.settings.broker,
            {e.name: e for e in exports},
            self.store,
            hostname=name,
            lease=lease or DEFAULT_LEASE,
            visibility_timeout=visibility_timeout or longest + DEFAULT_VISIBILITY_MARGIN,
            sandbox=self.sandbox,
            pass_env=self.settings.pass_env,
        )

    def serve(
        self,
        transport: Literal["stdio", "http"] = "stdio",
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        verifier: Any = None,
        allowed_hosts: Sequence[str] = (),
        max_request_bytes: int | None = None,
        watch: bool = False,
        ready: Callable[[], None] | None = None,
    ) -> None:
        """Serve the offered exports over MCP until the client goes (stdio)
        or a signal comes; then the running calls are cancelled (their
        processes stopped, their records closed). Only an application
        opened with purpose ``serve``.

        - HTTP authenticates bearer tokens with `verifier` (from
          `mcp_harbor.server.oauth.http_auth` for ``--auth oauth``: an OAuth
          resource server; or `mcp_harbor.server.auth.http_verifier`, which refuses to serve a
          host that is not loopback without tokens: ask it before `open`, so
          that a refused start leaves nothing behind); None: no tokens;
        - `watch`: the export folders are watched and reloaded (checked first),
          and the exports' needs probed again every ``preflight_interval``;
        - with a broker, the lease sweeper runs beside serving;
        - `ready` is called once everything is built, just before serving.

        """
        import anyio

        from mcp_harbor.server import (
            CallerMiddleware,
            Handlers,
            Registry,
            build_server,
            serve_http,
            serve_stdio,
        )
        from mcp_harbor.server.reload import ListChangedNotifier, Reloader

        registry = self.service.catalog
        if not isinstance(registry, Registry):
            raise TypeError("serve an application opened with purpose='serve'")
        handlers = Handlers(registry, self.service)
        notifier = ListChangedNotifier()
        middleware = CallerMiddleware(transport, verifier is not None)
        server = build_server(handlers, middleware, notifier, self.settings.list_ttl)
        jobs = self.background(lambda: {n: t.export for n, t in handlers.registry.items()})
        from mcp_harbor.server.tasks import install_tasks

        jobs.append(install_tasks(server, self.service, self.settings.task_ttl).run)
        if watch:
            folders = list(self.settings.exports) or [DEFAULT_EXPORTS]
            refused = [e for e in self.published.declared if e.name in self.published.refused]
            reloader = Reloader(
                folders,
                handlers,
                notifier,
                self.published.exports,
                strict=self.settings.strict,
                preflight=self.preflight,
                preflight_interval=self.settings.preflight_interval,
                # What the start said already: said again only when it changes.
                refused={e.path.resolve(): e.file_hash for e in refused},
                unoffered=self.missing_needs,
            )
            jobs.append(reloader.watch)
            log.info("watching %s for changes", ", ".join(str(f) for f in folders))
        if self.settings.broker is not None:
            log.info("workers' broker: %s", without_password(self.settings.broker))
        log.info("publishing %d tools: %s", len(registry), ", ".join(registry))
        log.info("audit trail: %s", self.store.location)
        if ready is not None:
            ready()
        background = _together(jobs)
        if transport == "stdio":
            anyio.run(serve_stdio, server, self.service.shutdown, background, max_request_bytes)
        else:
            from mcp_harbor.server.approvals_http import approval_routes
            from mcp_harbor.store.rejections import RejectionCounter

            serve_http(
                server,
                host,
                port,
                verifier=verifier,
                stop_calls=self.service.shutdown,
                allowed_hosts=list(allowed_hosts),
                background=background,
                max_request_bytes=max_request_bytes,
                routes=approval_routes(self.store, verifier),
                rejections=RejectionCounter(self.service.audit, auth=verifier is not None),
            )

    def close(self) -> None:
        """Sign the last checkpoint (if any), release the store (and the
        process reaper's ledger). Idempotent."""
        from mcp_harbor.runner.reaper import reaper

        reaper.close()
        self.service.audit.close()
        self.store.close()

    def __enter__(self) -> Harbor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _together(jobs: list[Job]) -> Job | None:
    """One background job that runs all of `jobs` (None when there are none)."""
    if len(jobs) <= 1:
        return jobs[0] if jobs else None

    async def together() -> None:
        import anyio

        async with anyio.create_task_group() as tg:
            for job in jobs:
                tg.start_soon(job)

    return together
