"""Event-loop stall and GC probe for a benchmarked ``mcp-harbor serve``.

Put this folder first on the server's ``PYTHONPATH`` and set
``HARBOR_LOOP_PROBE=FILE`` (``bench/http_ab.py --probe`` does both). In a
process started as ``... serve ...`` it records, until the process exits:

- every event-loop callback that ran longer than ``HARBOR_LOOP_PROBE_MS``
  (default 8) ms of wall-clock time, with the CPU time its thread spent in
  it (wall far above CPU: the loop was waiting for the GIL or for a core, and
  every request in flight waited with it);
- every garbage collection (generation, duration).

At exit it writes one JSON object to FILE: ``{"stalls": [[start, wall_ms,
cpu_ms], ...], "gc": [[end, generation, ms], ...]}``, times as
``time.perf_counter()`` (CLOCK_MONOTONIC, comparable with other processes).
Cost: two clock reads of each kind per callback (about 1 us).
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import time

_OUT = os.environ.get("HARBOR_LOOP_PROBE")

if _OUT and "serve" in sys.argv:
    import asyncio.events

    _threshold = float(os.environ.get("HARBOR_LOOP_PROBE_MS", "8")) / 1000
    _stalls: list[tuple[float, float, float]] = []
    _gcs: list[tuple[float, int, float]] = []
    _gc_start = [0.0]
    _clock, _cpu = time.perf_counter, time.thread_time
    _run = asyncio.events.Handle._run

    def _timed_run(self: asyncio.events.Handle) -> None:
        t, c = _clock(), _cpu()
        _run(self)
        wall = _clock() - t
        if wall > _threshold:
            _stalls.append((t, wall * 1000, (_cpu() - c) * 1000))

    def _on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            _gc_start[0] = _clock()
        else:
            now = _clock()
            _gcs.append((now, info["generation"], (now - _gc_start[0]) * 1000))

    def _dump() -> None:
        with open(_OUT, "w", encoding="utf-8") as fh:
            json.dump({"stalls": _stalls, "gc": _gcs}, fh)

    asyncio.events.Handle._run = _timed_run  # type: ignore[method-assign]
    gc.callbacks.append(_on_gc)
    atexit.register(_dump)
