"""Kombu's Redis transport, with one client object per channel.

Kombu's Redis channel builds a new ``redis.Redis`` object for every
operation that does not pass one (`Channel.conn_or_acquire`): each publish
on a replica, and each message's unacked bookkeeping and acknowledgement on
a worker. With redis-py 5 and later that constructor is expensive (it fills
a dictionary of ~200 response callbacks): measured ~0.25 ms of CPU each,
three times per run on the critical path or next to it
(docs/benchmarks.md, *Remote runs*). This channel builds it once and reuses
it; the client borrows a connection from the channel's pool per command, as
before, so it is as thread-safe as the one it replaces.

Selected by `mcp_harbor.remote.celery_app.create_app` through Celery's
``broker_transport`` setting; the broker URL stays ``redis://…``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from kombu.transport import redis as kombu_redis

__all__ = ["Channel", "Transport"]


class Channel(kombu_redis.Channel):
    """A kombu Redis channel that reuses one client for its operations."""

    _harbor_client: Any = None

    @contextlib.contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        cached = self._harbor_client
        # A new pool (after a disconnect or a fork) gets a new client.
        if cached is None or cached.connection_pool is not self.pool:
            cached = self._harbor_client = self._create_client()  # type: ignore[no-untyped-call]
        yield cached


class Transport(kombu_redis.Transport):
    """Kombu's Redis transport with `Channel`."""

    Channel = Channel
