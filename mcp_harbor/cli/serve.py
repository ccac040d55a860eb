"""``mcp-harbor serve``: publish the exports over stdio or Streamable HTTP."""

from __future__ import annotations

import gc
import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mcp_harbor.cli._app import (
    abort,
    audit_seal_options,
    db_option,
    exports_option,
    harbor_errors,
    models_option,
    oauth_options,
    open_harbor,
    pass_env_option,
    programs_option,
    sandbox_option,
    skills_option,
    tokens_option,
    workdir_options,
)
from mcp_harbor.defaults import (
    DEFAULT_KEEP_RUNS,
    DEFAULT_LIST_TTL,
    DEFAULT_OUTPUT_TAIL,
    DEFAULT_PREFLIGHT_TTL,
    DEFAULT_QUEUE_TIMEOUT,
    DEFAULT_TASK_TTL,
    SandboxMode,
)

if TYPE_CHECKING:
    from mcp_harbor.config.model import RateLimitSpec

__all__ = ["serve"]

log = logging.getLogger("mcp_harbor.cli")

_RATE_LIMIT_USAGE = (
    "expected N/SECONDS: at most N calls (an integer, 1-10000) per SECONDS "
    "(a number > 0, at most a week), e.g. 60/60 or 5/0.5"
)


def _rate_limit(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> RateLimitSpec | None:
    """``--rate-limit N/SECONDS`` as the limit it names (a usage error, exit
    2, when it names none)."""
    if value is None:
        return None
    from pydantic import ValidationError

    from mcp_harbor.config.model import RateLimitSpec

    calls, slash, per = value.partition("/")
    try:
        if not slash:
            raise ValueError
        seconds = float(per)
        if not math.isfinite(seconds):
            raise ValueError
        return RateLimitSpec(calls=int(calls), per=seconds)
    except (ValueError, ValidationError):  # a ValidationError is a ValueError too
        raise click.BadParameter(f"{value!r}: {_RATE_LIMIT_USAGE}", ctx=ctx, param=param) from None


def _verifier(
    tokens: Path, host: str, auth_mode: str, auth_config: Path | None, **options: Any
) -> Any:
    """The HTTP verifier ``--auth`` names (None: a loopback server without
    tokens).

    Raises:
        ConfigError: the options contradict each other or are invalid, the
            auth config file is (each problem with its file and line), or
            static tokens alone would serve a public host without any.
    """
    from mcp_harbor.errors import ConfigError
    from mcp_harbor.server.auth import http_verifier
    from mcp_harbor.server.oauth import http_auth, parse_mode
    from mcp_harbor.server.oauth.settings import config_of_options, load_auth_config

    mode = parse_mode(auth_mode)
    if mode is None:
        raise ConfigError(f"--auth {auth_mode!r}: expected tokens, oauth or tokens,oauth")
    given = [
        f"--{k.replace('_', '-')}"
        for k in (
            "issuer",
            "audience",
            "jwks_url",
            "groups_claim",
            "tenant_claim",
            "introspection_url",
        )
        if options[k] is not None
    ]
    given += ["--required-scope"] if options["required_scopes"] else []
    given += ["--principal-claim"] if options["principal_claim"] != "sub" else []
    if "oauth" not in mode:
        if auth_config is not None or given:
            named = ", ".join(["--auth-config"] if auth_config else given)
            raise ConfigError(
                f"{named} configure OAuth, which --auth {auth_mode} does not use; "
                f"pass --auth oauth (or tokens,oauth)"
            )
        return http_verifier(tokens, host)
    if auth_config is not None:
        if given:
            raise ConfigError(
                f"--auth-config holds the OAuth settings: drop {', '.join(given)} "
                f"(or drop --auth-config and keep them)"
            )
        config = load_auth_config(auth_config)
    elif options["issuer"] is None:
        raise ConfigError(
            f"--auth {auth_mode} needs --issuer URL and --audience URL (or --auth-config FILE): "
            "the identity provider trusted and this server's canonical MCP URL"
        )
    else:
        config = config_of_options(**options)
    verifier = http_auth(mode, config, tokens)
    log.info(
        "OAuth resource server for %s: issuers %s%s",
        config.resource,
        ", ".join(f"{i.issuer} (principals {i.short}:…)" for i in config.issuers),
        "; static tokens too" if "tokens" in mode else "",
    )
    return verifier


@click.command()
@exports_option
@click.option(
    "--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="HTTP port."
)
@click.option(
    "--allow-host",
    "allowed_hosts",
    multiple=True,
    help="Extra Host header value accepted over HTTP (DNS-rebinding protection), "
    "e.g. harbor.internal:8765 or harbor.internal:*; repeatable.",
)
@tokens_option
@oauth_options
@db_option
@audit_seal_options
@sandbox_option
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
    default=DEFAULT_PREFLIGHT_TTL,
    show_default=True,
    metavar="SECONDS",
    help="How stale the server's view of each export's needs (programs, env, files, TCP) "
    "may get: with --watch they are probed again every SECONDS (an export is offered once its "
    "needs are there, hidden when they vanish); a run's start reuses a probe at most this old.",
)
@click.option(
    "--list-ttl",
    type=click.FloatRange(min=0),
    default=DEFAULT_LIST_TTL,
    show_default=True,
    metavar="SECONDS",
    help="How long a client may reuse a tools/list answer (its ttlMs; for that caller only). "
    "A reload tells clients at once (notifications/tools/list_changed); a client that does not "
    "listen may list a stale copy for up to SECONDS. 0: always list again.",
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
@models_option
@skills_option
@pass_env_option
@workdir_options
@click.option(
    "--keep-runs",
    type=int,
    default=DEFAULT_KEEP_RUNS,
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
    default=DEFAULT_QUEUE_TIMEOUT,
    show_default=True,
    help="Seconds a call waits for a free slot before it fails as busy "
    "(an export's queue_timeout: beats it).",
)
@click.option(
    "--task-ttl",
    type=click.FloatRange(min=0.1),
    default=DEFAULT_TASK_TTL,
    show_default=True,
    metavar="SECONDS",
    help="Seconds a task (a call made by a client of the MCP tasks extension) and its "
    "run directory are kept; an export's task_ttl: may shorten it. The audit trail keeps the call.",
)
@click.option(
    "--rate-limit",
    callback=_rate_limit,
    default=None,
    metavar="N/SECONDS",
    help="Calls each principal may make of each tool per SECONDS (a sliding window, "
    "counted in this process's memory: each replica counts its own, a restart resets); "
    "more fail as rate_limited, saying when to retry. An export's rate_limit: beats it. "
    "Default: no limit.",
)
@click.option(
    "--output-tail",
    type=int,
    default=DEFAULT_OUTPUT_TAIL,
    show_default=True,
    help="Bytes of the end of each step's stdout and stderr in a result.",
)
@click.option(
    "--max-request-bytes",
    type=click.IntRange(min=1024),
    default=None,
    show_default="4194304 (4 MiB)",
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
    default=None,
    show_default="5 (the sweeper's)",
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
    auth_mode: str,
    issuer: str | None,
    audience: str | None,
    jwks_url: str | None,
    required_scopes: tuple[str, ...],
    principal_claim: str,
    groups_claim: str | None,
    tenant_claim: str | None,
    introspection_url: str | None,
    introspection_client_id_env: str | None,
    introspection_client_secret_env: str | None,
    auth_config: Path | None,
    db: str,
    db_sync: str,
    audit_key: Path,
    audit_witness: Path,
    audit_seal_every: int,
    audit_seal_interval: float,
    sandbox: SandboxMode,
    strict: bool,
    watch: bool,
    preflight_interval: float,
    list_ttl: float,
    approve_seed: Path | None,
    skip_refused: bool,
    programs: Path | None,
    models: Path | None,
    skills: Path | None,
    workdir: Path | None,
    runs_dir: Path | None,
    keep_runs: int,
    max_concurrent: int | None,
    queue_timeout: float,
    task_ttl: float,
    rate_limit: RateLimitSpec | None,
    output_tail: int,
    max_request_bytes: int | None,
    broker: str | None,
    sweep_interval: float | None,
    pass_env: tuple[str, ...],
) -> None:
    """Publish every export as an MCP tool (stdio by default; HTTP serves /mcp)."""
    # What is loaded from here to the start of serving (the server's modules
    # included) lives as long as the server: full collections meanwhile only
    # re-scan that growing heap (0.15-0.3 s of CPU for 1,000 exports); young
    # ones still run. It is frozen below instead.
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 1 << 30)  # no full collections
    click.get_current_context().call_on_close(lambda: gc.set_threshold(*thresholds))
    from mcp_harbor.harbor import Harbor, HarborSettings

    settings = HarborSettings(
        sandbox=sandbox,
        tokens=tokens,
        exports=exports,
        programs=programs,
        models=models,
        skills=skills,
        strict=strict,
        skip_refused=skip_refused,
        db=db,
        durable=db_sync == "full",
        workdir=workdir,
        runs_dir=runs_dir,
        keep_runs=keep_runs,
        output_tail=output_tail,
        max_concurrent=max_concurrent,
        queue_timeout=queue_timeout,
        task_ttl=task_ttl,
        rate_limit=rate_limit,
        approve_seed=approve_seed,
        broker=broker,
        sweep_interval=sweep_interval,
        preflight_interval=preflight_interval,
        list_ttl=list_ttl,
        pass_env=pass_env,
        audit_key=audit_key,
        audit_witness=audit_witness,
        seal_every=audit_seal_every,
        seal_interval=audit_seal_interval,
    )
    Harbor.start_loading(settings)  # the files load while the server's modules import
    from mcp_harbor.errors import ConfigError

    with harbor_errors():  # before anything is opened: a refused start leaves nothing
        verifier: Any = None
        if transport != "http" and (auth_mode != "tokens" or auth_config or issuer):
            raise ConfigError(
                "--auth, --issuer and --auth-config apply to --transport http: over stdio the "
                "caller is the local user who started the server (local:USER)"
            )
        if transport == "http":
            verifier = _verifier(
                tokens,
                host,
                auth_mode,
                auth_config,
                issuer=issuer,
                audience=audience,
                jwks_url=jwks_url,
                required_scopes=required_scopes,
                principal_claim=principal_claim,
                groups_claim=groups_claim,
                tenant_claim=tenant_claim,
                introspection_url=introspection_url,
                introspection_client_id_env=introspection_client_id_env,
                introspection_client_secret_env=introspection_client_secret_env,
            )
    harbor = open_harbor(settings, "serve")
    try:
        if not harbor.published.exports:
            abort("no exports found; put export files (*.yaml) in ./exports or pass --exports DIR")

        def ready() -> None:
            # Everything loaded so far (modules, exports, schemas, validators)
            # lives as long as the server: keep it out of the cyclic
            # collector's scans, which otherwise walk that whole heap again at
            # every full collection. (No gc.collect() first: it scans that
            # heap once more, ~0.1 s for 1,000 exports; the young collections
            # during start-up freed the short-lived garbage.)
            gc.freeze()
            gc.set_threshold(*thresholds)

        with harbor_errors():
            harbor.serve(
                "http" if transport == "http" else "stdio",
                host=host,
                port=port,
                verifier=verifier,
                allowed_hosts=allowed_hosts,
                max_request_bytes=max_request_bytes,
                watch=watch,
                ready=ready,
            )
    finally:
        harbor.close()
