"""``mcp-harbor worker``: run the runs of exports with ``runs_on:`` labels."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import click

from mcp_harbor.cli._app import (
    EXIT_USAGE,
    abort,
    db_label,
    db_option,
    exports_option,
    load_published,
    open_store,
    programs_option,
    use_programs_file,
)

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
@click.option("--strict", is_flag=True, help="Checker warnings refuse an export too.")
@click.option(
    "--lease-seconds",
    type=click.FloatRange(min=0.5),
    default=15.0,
    show_default=True,
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
def worker(
    queues: str,
    slots: int,
    broker: str,
    exports: tuple[Path, ...],
    db: str,
    db_sync: str,
    strict: bool,
    lease_seconds: float,
    visibility_timeout: float | None,
    hostname: str | None,
    ledger: Path | None,
    programs: Path | None,
) -> None:
    """Run the pipelines of exports whose runs_on: is one of QUEUES."""
    from mcp_harbor.remote import DEFAULT_VISIBILITY_MARGIN, Worker, kill_recorded, queue_name
    from mcp_harbor.runner import DEFAULT_TIMEOUT
    from mcp_harbor.runner.reaper import reaper

    labels = [q.strip() for q in queues.split(",") if q.strip()]
    if not labels:
        abort("--queues needs at least one label", EXIT_USAGE)
    use_programs_file(programs)  # the servers' own: a run's content hash must agree
    loaded = load_published(exports, strict=strict, skip_refused=True)
    served = [e for e in loaded.exports if e.spec.runs_on in labels]
    if not served:
        abort(f"no export has runs_on: {' or '.join(labels)}; nothing to serve", EXIT_USAGE)
    store = open_store(db, durable=db_sync == "full")
    name = hostname or socket.gethostname()
    if ledger is None and "://" not in db:
        ledger = Path(db).with_name(f"worker-{name}.pgids")
    if ledger is not None:
        killed = kill_recorded(ledger)
        if killed:
            groups = ", ".join(map(str, killed))
            log.warning(
                "killed %d process group(s) a previous worker left: %s", len(killed), groups
            )
        reaper.ledger = ledger
    longest = max(e.spec.timeout or DEFAULT_TIMEOUT for e in loaded.exports)
    app = Worker(
        broker,
        {e.name: e for e in loaded.exports},
        store,
        hostname=name,
        lease=lease_seconds,
        visibility_timeout=visibility_timeout or longest + DEFAULT_VISIBILITY_MARGIN,
    ).app
    log.info(
        "worker %s: queues %s, %d slot(s), exports %s, store %s",
        name,
        ", ".join(labels),
        slots,
        ", ".join(e.name for e in served),
        db_label(db),
    )
    try:
        app.worker_main(
            [
                "worker",
                "--pool=threads",
                f"--concurrency={slots}",
                f"--queues={','.join(queue_name(label) for label in labels)}",
                f"--hostname={name}@%h" if hostname is None else f"--hostname={name}",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--loglevel={logging.getLevelName(logging.getLogger().level)}",
            ]
        )
    finally:
        reaper.close()
        store.close()
