"""Requests refused before any handler ran, counted per source and minute and
written as ``rejected`` audit records.

A transport (the HTTP server's `mcp_harbor.server.refusals.RefusalRecorder`)
reports each refused request with `RejectionCounter.add`; nothing is written
per request. Each (source address, principal, UTC minute) keeps one count,
its reasons (``401 invalid token``: a fixed vocabulary, never claimed text),
its first and last time and a sample of the first request's claimed headers;
when the minute is over (`RejectionCounter.run`) and when serving stops
(`RejectionCounter.flush`), each becomes ONE record:

- kind ``rejected``, status ``rejected``;
- principal: the token's name when a valid token was presented and the
  request was still refused (a foreign Origin, a bad Host, a header
  mismatch); else ``unauthenticated:ADDR`` (a token name never holds a
  ``:``, so it cannot be a token's name) or, on a server without tokens,
  ``anonymous`` (every caller of it is);
- tool: the ``Mcp-Name`` header every one of them claimed (escaped), else ``-``;
- body: ``source``, ``minute``, ``count``, ``reasons``, ``first_at``,
  ``last_at``, ``sample`` (``user_agent``, ``origin``, ``host``: claimed,
  escaped, truncated), ``tools`` (the claimed names, at most
  `MAX_TOOLS`), ``sources_folded``.

Bounds: at most `max_sources` (source, principal) pairs per minute; the
requests of any further one are folded into one ``other`` record of that
minute (principal ``other:sources``, ``sources_folded`` says how many, up
to `MAX_FOLDED_COUNTED`). So a flood of any size from one source is one
record a minute, and from any number of sources at most ``max_sources + 1``.
Bodies and tokens are never kept, and a presented token never appears.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, final

import anyio

from mcp_harbor._visible import visible
from mcp_harbor.errors import StoreError
from mcp_harbor.identity import ANONYMOUS
from mcp_harbor.store.audit import AuditTrail

__all__ = [
    "DEFAULT_MAX_SOURCES",
    "MAX_FOLDED_COUNTED",
    "MAX_TOOLS",
    "OTHER_PRINCIPAL",
    "OTHER_SOURCE",
    "Rejection",
    "RejectionCounter",
    "unauthenticated",
]

log = logging.getLogger("mcp_harbor.store")

#: Distinct (source, principal) pairs kept per minute: enough for every
#: real client of a server, and at most ~1 MB of counts however many send.
DEFAULT_MAX_SOURCES: Final = 1000
#: Distinct claimed tool names kept per record (the rest are counted as ``…``).
MAX_TOOLS: Final = 10
#: Distinct sources counted in an ``other`` record (beyond: "at least").
MAX_FOLDED_COUNTED: Final = 10_000
#: The ``source`` and principal of the record that folds the overflow.
OTHER_SOURCE: Final = "other"
OTHER_PRINCIPAL: Final = "other:sources"
#: Longest claimed header value kept in a sample (after escaping).
_SAMPLE_CHARS: Final = 200
_OTHER_TOOLS: Final = "…"


def unauthenticated(source: str) -> str:
    """The principal of a request refused without a valid token from
    `source`: ``unauthenticated:ADDR``. Token names cannot contain ``:``."""
    return f"unauthenticated:{source}"


def _claimed(value: str | None) -> str | None:
    if value is None:
        return None
    return visible(value[: _SAMPLE_CHARS * 2])[:_SAMPLE_CHARS]


@dataclass(frozen=True, slots=True)
class Rejection:
    """One request refused before any handler ran.

    `reason` is a short phrase from the transport's fixed vocabulary,
    beginning with the HTTP status (``421 host not allowed``). `principal`
    is the name of the valid token it presented, or None. `tool`,
    `user_agent`, `origin` and `host` are as claimed (raw: they are
    escaped here)."""

    source: str
    reason: str
    principal: str | None = None
    tool: str | None = None
    user_agent: str | None = None
    origin: str | None = None
    host: str | None = None


@dataclass(slots=True)
class _Bucket:
    source: str
    principal: str
    minute: str
    first_at: str
    sample: dict[str, str | None]
    last_at: str = ""
    count: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    tools: dict[str, int] = field(default_factory=dict)
    untold: int = 0  # requests that named no tool
    folded: set[str] = field(default_factory=set)
    folded_more: bool = False

    def count_in(self, rejection: Rejection, at: str) -> None:
        self.count += 1
        self.last_at = at
        self.reasons[rejection.reason] = self.reasons.get(rejection.reason, 0) + 1
        if rejection.tool is None:
            self.untold += 1
        else:
            tool = _claimed(rejection.tool) or ""
            if tool not in self.tools and len(self.tools) >= MAX_TOOLS:
                tool = _OTHER_TOOLS
            self.tools[tool] = self.tools.get(tool, 0) + 1

    def tool(self) -> str:
        if self.untold == 0 and len(self.tools) == 1:
            (name,) = self.tools
            if name != _OTHER_TOOLS:
                return name
        return "-"

    def body(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "minute": self.minute,
            "count": self.count,
            "reasons": dict(sorted(self.reasons.items())),
            "first_at": self.first_at,
            "last_at": self.last_at,
            "sample": self.sample,
            "tools": dict(sorted(self.tools.items())),
            "sources_folded": len(self.folded),
            "sources_folded_at_least": self.folded_more,
        }


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _minute_of(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%MZ")


@final
class RejectionCounter:
    """Counts refused requests per (source, principal, UTC minute) and writes
    one ``rejected`` record for each when its minute is over (see the
    module docstring for the record and the bounds).

    `add` is synchronous and O(1): a transport calls it on the event loop
    for every refused request. `auth`: the server checks tokens (else the
    principal of a refused request is ``anonymous``, as of every caller).
    `clock` (seconds since the epoch) is for tests.
    """

    def __init__(
        self,
        audit: AuditTrail,
        *,
        auth: bool,
        max_sources: int = DEFAULT_MAX_SOURCES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_sources < 1:
            raise ValueError("max_sources must be at least 1")
        self._audit = audit
        self._auth = auth
        self._max = max_sources
        self._clock = clock
        # minute -> (source, principal) -> bucket; plus the minute's `other`
        self._minutes: dict[str, dict[tuple[str, str], _Bucket]] = {}
        self._other: dict[str, _Bucket] = {}
        #: Records written so far (for logs and tests).
        self.written = 0

    def _principal(self, rejection: Rejection, source: str) -> str:
        if rejection.principal is not None:
            return rejection.principal
        return unauthenticated(source) if self._auth else ANONYMOUS

    def add(self, rejection: Rejection) -> None:
        """Count one refused request, now. Never writes, never raises for a
        full minute: beyond `max_sources` pairs it counts in ``other``."""
        now = self._clock()
        minute, at = _minute_of(now), _iso(now)
        buckets = self._minutes.setdefault(minute, {})
        # Claimed, too: uvicorn takes a loopback peer's X-Forwarded-For.
        source = _claimed(rejection.source) or ""
        key = (source, self._principal(rejection, source))
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= self._max:
                bucket = self._other.get(minute)
                if bucket is None:
                    bucket = self._other[minute] = _Bucket(
                        OTHER_SOURCE, OTHER_PRINCIPAL, minute, at, self._sample(rejection)
                    )
                if len(bucket.folded) < MAX_FOLDED_COUNTED:
                    bucket.folded.add(source)
                elif source not in bucket.folded:
                    bucket.folded_more = True
            else:
                bucket = buckets[key] = _Bucket(key[0], key[1], minute, at, self._sample(rejection))
        bucket.count_in(rejection, at)

    @staticmethod
    def _sample(rejection: Rejection) -> dict[str, str | None]:
        return {
            "user_agent": _claimed(rejection.user_agent),
            "origin": _claimed(rejection.origin),
            "host": _claimed(rejection.host),
        }

    def pending(self) -> int:
        """Records not written yet (one per bucket)."""
        return sum(len(b) for b in self._minutes.values()) + len(self._other)

    def _take(self, every: bool) -> list[_Bucket]:
        current = _minute_of(self._clock())
        taken: list[_Bucket] = []
        for minute in sorted(self._minutes):
            if every or minute < current:
                taken.extend(self._minutes.pop(minute).values())
                other = self._other.pop(minute, None)
                if other is not None:
                    taken.append(other)
        return taken

    async def flush(self, *, every: bool = True) -> int:
        """Write the records of the minutes that are over (`every`: of every
        minute, the current one too, as when serving stops). Returns how
        many were written. A record the store refuses is logged and
        dropped: counting refused requests never stops the server.

        **Cancellation:** the buckets are taken before the first write and
        each write is shielded (`AuditTrail`): a cancelled flush writes the
        record it was writing; the buckets after it are lost.
        """
        written = 0
        for bucket in self._take(every):
            try:
                await self._audit.rejected(
                    f"{bucket.minute.replace('-', '').replace(':', '')}-rejected-"
                    f"{uuid.uuid4().hex[:10]}",
                    bucket.principal,
                    bucket.tool(),
                    bucket.body(),
                )
            except StoreError as exc:
                log.error(
                    "could not record %d refused request(s) from %s in %s: %s",
                    bucket.count,
                    bucket.source,
                    bucket.minute,
                    exc,
                )
                continue
            except Exception:
                log.exception(
                    "could not record %d refused request(s) from %s in %s",
                    bucket.count,
                    bucket.source,
                    bucket.minute,
                )
                continue
            written += 1
        self.written += written
        return written

    async def run(self, interval: float = 1.0) -> None:
        """Write each minute's records once it is over (checked every
        `interval` s) until cancelled; what is still counted then is for
        `flush` (which `serve_http` calls when serving stops).

        **Cancellation:** stops at the next check; a write in progress is
        completed (shielded).
        """
        while True:
            await anyio.sleep(interval)
            await self.flush(every=False)
