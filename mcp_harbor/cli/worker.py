"""``mcp-harbor worker``: run the runs of exports with ``runs_on:`` labels."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import click

from mcp_harbor.cli._app import (
    EXIT_USAGE,
    abort,
    db_option,
    exports_option,
    harbor_errors,
    open_harbor,
    pass_env_option,
    programs_option,
    sandbox_option,
)
from mcp_harbor.defaults import SandboxMode

__all__ = ["worker"]

log = logging.getLogger("mcp_harbor.cli")


@click.command()
@click.option(
    "--queues",
    required=True,
    metavar="LABEL[,LABEL]",
    help="The runs_on: labels this worker serves.",
)
@click.option(
    "--slots",
    type=click.IntRange(min=1, max=1000),
    default=4,
    show_default=True,
    help="Runs at once (threads of the pool).",
)
@click.option(
    "--broker",
    required=True,
    envvar="MCP_HARBOR_BROKER",
    metavar="redis://HOST:PORT/DB",
    help="The Redis broker the servers dispatch to.",
)
@exports_option
@db_option
@sandbox_option
@click.option("--strict", is_flag=True, help="Checker warnings refuse an export too.")
@click.option(
    "--lease-seconds",
    type=click.FloatRange(min=0.5),
    default=None,
    show_default="15 (the worker's DEFAULT_LEASE)",
    help="A run is declared worker_lost when this worker has not renewed its lease for this "
    "long (renewed every third of it).",
)
@click.option(
    "--visibility-timeout",
    type=click.FloatRange(min=1),
    default=None,
    help="Seconds before the broker hands an unacknowledged run to another worker. "
    "Default: the longest export timeout plus 15 minutes (a run still going must never be "
    "redelivered; a redelivered run whose lease was taken is not run again anyway).",
)
@click.option("--hostname", default=None, help="This worker's name in leases and the audit.")
@click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File recording this worker's process groups; at start, groups a previous "
    "worker left are killed. Default: next to a SQLite --db, else none.",
)
@programs_option
@pass_env_option
def worker(
    queues: str,
    slots: int,
    broker: str,
    exports: tuple[Path, ...],
    db: str,
    db_sync: str,
    sandbox: SandboxMode,
    strict: bool,
    lease_seconds: float | None,
    visibility_timeout: float | None,
    hostname: str | None,
    ledger: Path | None,
    programs: Path | None,
    pass_env: tuple[str, ...],
) -> None:
    """Run the pipelines of exports whose runs_on: is one of QUEUES."""
    from mcp_harbor.harbor import HarborSettings
    from mcp_harbor.remote import queue_name
    from mcp_harbor.remote.celery_app import require_celery

    with harbor_errors():  # before the exports load and the store opens
        require_celery()

    labels = [q.strip() for q in queues.split(",") if q.strip()]
    if not labels:
        abort("--queues needs at least one label", EXIT_USAGE)
    # The servers' own grammars: a run's content hash must agree.
    settings = HarborSettings(
        sandbox=sandbox,
        exports=exports,
        programs=programs,
        strict=strict,
        db=db,
        durable=db_sync == "full",
        broker=broker,
        pass_env=pass_env,
    )
    harbor = open_harbor(settings, "worker")
    try:
        with harbor_errors():
            app = harbor.worker(
                labels,
                hostname=hostname,
                lease=lease_seconds,
                visibility_timeout=visibility_timeout,
                ledger=ledger,
            ).app
        app.worker_main(
            [
                "worker",
                "--pool=threads",
                f"--concurrency={slots}",
                f"--queues={','.join(queue_name(label) for label in labels)}",
                "--hostname=" + (hostname or f"{socket.gethostname()}@%h"),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--loglevel={logging.getLevelName(logging.getLogger().level)}",
            ]
        )
    finally:
        harbor.close()
