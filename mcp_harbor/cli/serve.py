"""``mcp-harbor serve``: publish the exports over stdio or Streamable HTTP."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import click

from mcp_harbor.cli._app import (
    DEFAULT_EXPORTS,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    abort,
    db_label,
    db_option,
    exports_option,
    load_published,
    open_store,
    programs_option,
    tokens_option,
    use_programs_file,
    workdir_options,
)

__all__ = ["serve"]

log = logging.getLogger("mcp_harbor.cli")


def _without_password(url: str | None) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url or "")
    if parts.password is None:
        return url or ""
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _both(
    first: Callable[[], Coroutine[Any, Any, None]] | None,
    second: Callable[[], Coroutine[Any, Any, None]],
) -> Callable[[], Coroutine[Any, Any, None]]:
    """One background job that runs both."""
    if first is None:
        return second

    async def both() -> None:
        import anyio

        async with anyio.create_task_group() as tg:
            tg.start_soon(first)
            tg.start_soon(second)

    return both


@click.command()
@exports_option
@click.option(
    "--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address.")
@click.option("--port", type=int, default=8765, show_default=True, help="HTTP port.")
@click.option(
    "--allow-host",
    "allowed_hosts",
    multiple=True,
    help="Extra Host header value accepted over HTTP (DNS-rebinding protection), "
    "e.g. harbor.internal:8765 or harbor.internal:*; repeatable.",
)
@tokens_option
@db_option
@click.option("--strict", is_flag=True, help="Checker warnings refuse an export too.")
@click.option(
    "--watch",
    is_flag=True,
    help="Reload exports when their files change (checked first; a bad file keeps its "
    "last good version) and tell clients the tool list changed.",
)
@click.option(
    "--preflight-interval",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help="How stale the server's view of each export's needs (programs, env, files, TCP) "
    "may get: with --watch they are probed again every SECONDS (an export is offered once its "
    "needs are there, hidden when they vanish); a run's start reuses a probe at most this old.",
)
@click.option(
    "--approve-seed",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Pre-seeded answers to confirm: for unattended use: a YAML list of "
    "{export, arguments, decision: approve|deny}.",
)
@click.option(
    "--skip-refused",
    is_flag=True,
    help="Publish the accepted exports and log each refused one, instead of refusing to start.",
)
@programs_option
@workdir_options
@click.option(
    "--keep-runs",
    type=int,
    default=100,
    show_default=True,
    help="Run directories kept; older ones are removed.",
)
@click.option(
    "--max-concurrent",
    type=click.IntRange(min=1),
    default=None,
    help="Calls running at once across all tools; more wait in a queue. Default: no limit.",
)
@click.option(
    "--queue-timeout",
    type=click.FloatRange(min=0),
    default=60.0,
    show_default=True,
    help="Seconds a call waits for a free slot before it fails as busy "
    "(an export's queue_timeout: beats it).",
)
@click.option(
    "--output-tail",
    type=int,
    default=8192,
    show_default=True,
    help="Bytes of the end of each step's stdout and stderr in a result.",
)
@click.option(
    "--max-request-bytes",
    type=click.IntRange(min=1024),
    default=4 * 1024 * 1024,
    show_default=True,
    help="The largest request accepted: an HTTP body (413 beyond) or a stdio line "
    "(answered with an Invalid Request error, discarded as it streams in).",
)
@click.option(
    "--broker",
    default=None,
    envvar="MCP_HARBOR_BROKER",
    metavar="redis://HOST:PORT/DB",
    help="The Redis broker of the workers: exports with runs_on: run there. "
    "Without it, an export with runs_on: refuses to start the server.",
)
@click.option(
    "--sweep-interval",
    type=click.FloatRange(min=0.1),
    default=5.0,
    show_default=True,
    metavar="SECONDS",
    help="With --broker: how often runs whose worker's lease expired are marked worker_lost.",
)
def serve(
    exports: tuple[Path, ...],
    transport: str,
    host: str,
    port: int,
    allowed_hosts: tuple[str, ...],
    tokens: Path,
    db: str,
    db_sync: str,
    strict: bool,
    watch: bool,
    preflight_interval: float,
    approve_seed: Path | None,
    skip_refused: bool,
    programs: Path | None,
    workdir: Path | None,
    runs_dir: Path | None,
    keep_runs: int,
    max_concurrent: int | None,
    queue_timeout: float,
    output_tail: int,
    max_request_bytes: int,
    broker: str | None,
    sweep_interval: float,
) -> None:
    """Publish every export as an MCP tool (stdio by default; HTTP serves /mcp)."""
    # What is loaded from here to the start of serving lives as long as the
    # server: full collections meanwhile only re-scan that growing heap
    # (0.15-0.3 s of CPU for 1,000 exports); young ones still run. It is
    # frozen below instead.
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 1 << 30)  # no full collections
    click.get_current_context().call_on_close(lambda: gc.set_threshold(*thresholds))
    # Load the exports before importing the rest of the server;
    # load_published reuses them if the files did not change.
    from mcp_harbor.check import start as start_checking
    from mcp_harbor.locations import default_check_cache_path

    use_programs_file(programs)  # before any export is loaded (start, reloads)
    start_checking(list(exports) or [DEFAULT_EXPORTS], cache_file=default_check_cache_path())
    import anyio

    from mcp_harbor.errors import ConfigError
    from mcp_harbor.preflight import DEFAULT_TTL, Preflight
    from mcp_harbor.runctx import CallService, RunSettings
    from mcp_harbor.server import (
        CallerMiddleware,
        Handlers,
        Registry,
        build_server,
        is_loopback,
        serve_http,
        serve_stdio,
    )
    from mcp_harbor.server.auth import HarborTokenVerifier, TokensFile
    from mcp_harbor.server.reload import ListChangedNotifier, Reloader
    from mcp_harbor.store.audit import AuditTrail

    loaded = load_published(exports, strict=strict, skip_refused=skip_refused)
    published = loaded.exports
    if not published:
        abort("no exports found; put export files (*.yaml) in ./exports or pass --exports DIR")

    verifier = None
    if transport == "http":
        try:
            verifier = HarborTokenVerifier(TokensFile(tokens))
            has_tokens = bool(TokensFile(tokens).load())
        except ConfigError as exc:
            abort(str(exc), EXIT_USAGE)
        if not has_tokens:
            verifier = None
            if not is_loopback(host):
                abort(
                    f"refusing to serve HTTP on {host} without authentication: create a token "
                    f"(`mcp-harbor token add NAME`, tokens file {tokens}) or bind 127.0.0.1",
                    EXIT_USAGE,
                )
            log.warning(
                "serving HTTP on loopback without tokens: every local caller is 'anonymous'; "
                "create tokens with `mcp-harbor token add NAME` (file %s)",
                tokens,
            )

    remote_exports = [e.name for e in published if e.spec.runs_on is not None]
    if remote_exports and broker is None:
        abort(
            f"{', '.join(remote_exports)} run on workers (runs_on:) but no broker is configured: "
            f"pass --broker redis://HOST:PORT/DB (or set MCP_HARBOR_BROKER)",
            EXIT_USAGE,
        )
    store = open_store(db, durable=db_sync == "full")
    audit = AuditTrail(store)
    interrupted = audit.close_interrupted()
    if interrupted:
        log.warning("closed %d interrupted run(s): %s", len(interrupted), ", ".join(interrupted))

    settings = RunSettings(
        keep_runs=keep_runs,
        output_tail=output_tail,
        max_concurrent=max_concurrent,
        queue_timeout=queue_timeout,
    )
    if approve_seed is not None:
        from mcp_harbor.runctx.approval import load_seed

        try:
            settings.approve_seed = load_seed(approve_seed)
        except ConfigError as exc:
            abort(str(exc), EXIT_USAGE)
    if workdir is not None:
        settings.workdir = workdir.resolve()
    if runs_dir is not None:
        settings.runs_root = runs_dir.resolve()
    remote = None
    if broker is not None:
        from mcp_harbor.remote import CeleryExecutor

        remote = CeleryExecutor(broker)
    service = CallService(settings, audit, store, remote=remote)
    preflight = Preflight(ttl=min(DEFAULT_TTL, preflight_interval))
    settings.preflight = preflight
    offered = []
    for export, verdict in zip(published, preflight.verdicts(published), strict=True):
        if verdict.ready:
            offered.append(export)
            continue
        if strict:
            abort(
                f"refusing to start (--strict): {export.name} cannot run: {verdict.describe()}",
                EXIT_TOOL_ERROR,
            )
        log.error("not offering %s: %s", export.name, verdict.describe())
    handlers = Handlers(Registry(offered), service, refused=loaded.refused)
    caller = CallerMiddleware(
        "stdio" if transport == "stdio" else "http", auth=verifier is not None
    )
    notifier = ListChangedNotifier()
    server = build_server(handlers, caller, notifier)
    background = None
    if watch:
        folders = list(exports) or [Path("exports")]
        reloader = Reloader(
            folders,
            handlers,
            notifier,
            published,
            strict=strict,
            preflight=preflight,
            preflight_interval=preflight_interval,
        )
        background = reloader.watch
        log.info("watching %s for changes", ", ".join(str(f) for f in folders))
    if remote is not None:
        from mcp_harbor.remote import Sweeper

        sweeper = Sweeper(
            store,
            remote,
            lambda: {name: tool.export for name, tool in handlers.registry.items()},
            sweep_interval,
        )
        background = _both(background, sweeper.run)
        log.info("workers' broker: %s", _without_password(broker))
    log.info("publishing %d tools: %s", len(offered), ", ".join(e.name for e in offered))
    log.info("audit trail: %s", db_label(db))
    # Everything loaded so far (modules, exports, schemas, validators) lives
    # as long as the server: keep it out of the cyclic collector's scans,
    # which otherwise walk that whole heap again at every full collection.
    # (No gc.collect() first: it scans that heap once more, ~0.1 s for 1,000
    # exports; the young collections during start-up freed the short-lived
    # garbage, and RSS is the same within ~1 MiB.)
    gc.freeze()
    gc.set_threshold(*thresholds)
    try:
        if transport == "stdio":
            anyio.run(serve_stdio, server, service.shutdown, background, max_request_bytes)
        else:
            serve_http(
                server,
                host,
                port,
                verifier=verifier,
                stop_calls=service.shutdown,
                allowed_hosts=list(allowed_hosts),
                background=background,
                max_request_bytes=max_request_bytes,
            )
    finally:
        from mcp_harbor.runner.reaper import reaper

        reaper.close()
        store.close()
