"""Per-caller rate limits: how many calls of a tool each principal may make
in a window of time (``rate_limit: {calls: N, per: SECONDS}`` of an export,
``--rate-limit N/SECONDS`` of the server for exports without one).

The limit is a **sliding window**: a call is admitted when fewer than
``calls`` calls of the same tool by the same principal (of the same tenant)
were admitted in the last ``per`` seconds. It is exact (never more than
``calls`` in any window of ``per`` seconds, no burst at a window's edge as
with fixed windows) and says exactly when the next call fits: when the
oldest admitted call leaves the window. It costs one timestamp per admitted
call, kept at most ``per`` seconds (``calls`` is at most 10,000).

The counts live **in this server process's memory**: each replica behind a
load balancer counts its own calls (N replicas admit up to N × ``calls``),
and a restart gives every principal its full budget back. Time is
`time.monotonic`: a change of the wall clock neither grants nor takes away
budget.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, final

from mcp_harbor.config.model import RateLimitSpec

__all__ = ["Admission", "RateLimiter", "retry_after"]

#: Admissions between sweeps of the windows of principals that went quiet.
_SWEEP_EVERY: Final = 1024

_Key = tuple[str, str, str]  # (tool, tenant, principal)


@final
@dataclass(frozen=True, slots=True)
class Admission:
    """One admitted call's place in its window, for `RateLimiter.give_back`."""

    key: _Key
    at: float


@final
class RateLimiter:
    """The windows of every (tool, tenant, principal) that called lately.

    Not thread-safe: it is used from the event loop only, where `admit` runs
    without an await, so that two calls can never both take the last place.
    Windows that time emptied are dropped every 1,024 admissions, so a
    server that sees many principals does not keep them all.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: Per key: the window's length last used, and the admitted calls' times.
        self._windows: dict[_Key, tuple[float, deque[float]]] = {}
        self._admitted = 0

    def admit(
        self, limit: RateLimitSpec, tool: str, tenant: str, principal: str
    ) -> Admission | float:
        """Admit one call of `tool` by `principal` under `limit`: its
        `Admission`, or, when the window is full, the seconds (> 0) until the
        next call would be admitted. A refused call takes no place, so a
        caller that keeps retrying too early does not push its budget back.

        A limit changed by a reload applies to the calls already counted.
        """
        now = self._clock()
        key = (tool, tenant, principal)
        entry = self._windows.get(key)
        times = deque[float]() if entry is None else entry[1]
        self._windows[key] = (limit.per, times)
        _expire(times, now - limit.per)
        if len(times) >= limit.calls:
            # The oldest calls leave first; the one that makes room is the
            # (len - calls + 1)-th (not the first when a reload lowered calls).
            return max(times[len(times) - limit.calls] + limit.per - now, 1e-3)
        times.append(now)
        self._admitted += 1
        if self._admitted % _SWEEP_EVERY == 0:
            self._sweep(now)
        return Admission(key, now)

    def give_back(self, admission: Admission) -> None:
        """Return an admitted call's place (the call is to be made again, as
        when it only asked its caller a question); a no-op when the window
        has moved on."""
        entry = self._windows.get(admission.key)
        if entry is not None and admission.at in entry[1]:
            entry[1].remove(admission.at)

    def _sweep(self, now: float) -> None:
        for key, (per, times) in list(self._windows.items()):
            _expire(times, now - per)
            if not times:
                del self._windows[key]


def retry_after(seconds: float) -> int:
    """`seconds` rounded up to a whole second (at least 1): the retry hint."""
    return max(1, math.ceil(seconds))


def _expire(times: deque[float], before: float) -> None:
    while times and times[0] <= before:
        times.popleft()
