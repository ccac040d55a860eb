"""The Celery app both sides of a remote run use: the replica sends with it,
the worker consumes with it. Celery carries only the dispatch (docs/scale-out.md,
*Celery settings*); progress, cancel, timeouts and worker loss are mcp-harbor's own."""

from __future__ import annotations

from typing import Any, Final

from mcp_harbor.errors import ConfigError

__all__ = ["DEFAULT_VISIBILITY_MARGIN", "create_app", "require_celery"]

#: Added to the longest allowed run for the broker's visibility timeout: a
#: message must never be redelivered while its run may still be going.
DEFAULT_VISIBILITY_MARGIN: Final = 900.0
#: The visibility timeout when none is given: a week, plus the margin.
_LONGEST_RUN: Final = 7 * 24 * 3600.0


def require_celery() -> None:
    """Import what workers need (Celery and Redis's client, the ``scale``
    extra); ask it before anything else is opened.

    Raises:
        ConfigError: one of them cannot be imported; the message says
            which, and to ``pip install 'mcp-harbor[scale]'``.
    """
    try:
        import celery  # noqa: F401
        import redis  # noqa: F401
    except ImportError as exc:  # a missing extra: the environment's error, not a crash
        raise ConfigError(
            f"workers (runs_on:, --broker, mcp-harbor worker) need Celery and Redis, which "
            f"cannot be imported here ({exc}): pip install 'mcp-harbor[scale]'"
        ) from exc


def create_app(broker: str, *, visibility_timeout: float | None = None) -> Any:
    """A Celery app on the Redis `broker`: no result backend (results travel
    in the run's stream), late acknowledgement and a requeue when a worker's
    pool child is lost (the lease catches a dead worker; the store's claim
    drops a redelivery), prefetch 1, JSON only.

    `visibility_timeout`: seconds before the broker hands an unacknowledged
    message to another worker; None: a week plus `DEFAULT_VISIBILITY_MARGIN`.
    It must exceed the longest run, or a running message is delivered twice.
    Builds the app only: nothing connects before it is used.

    Raises:
        ConfigError: Celery is not installed (`require_celery`).
    """
    require_celery()
    from celery import Celery

    app = Celery("mcp_harbor", broker=broker, set_as_current=False)
    app.conf.update(
        # kombu's Redis transport, reusing its client object (kombu_redis.py).
        broker_transport="mcp_harbor.remote.kombu_redis:Transport",
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        worker_cancel_long_running_tasks_on_connection_loss=False,
        broker_transport_options={
            "visibility_timeout": visibility_timeout or (_LONGEST_RUN + DEFAULT_VISIBILITY_MARGIN),
        },
    )
    return app
