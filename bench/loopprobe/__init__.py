"""Reading what `bench/loopprobe/sitecustomize.py` recorded in a server.

The folder goes first on the server's ``PYTHONPATH`` (see `server_env`);
the benchmark then sums the stalls and collections of the measured window.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def server_env(env: dict[str, str], out: Path) -> dict[str, str]:
    """`env` with the probe on ``PYTHONPATH`` (first) and writing to `out`."""
    rest = env.get("PYTHONPATH")
    path = f"{HERE}:{rest}" if rest else str(HERE)
    return env | {"PYTHONPATH": path, "HARBOR_LOOP_PROBE": str(out)}


def figures(out: Path, start: float, end: float) -> dict[str, Any] | None:
    """Stalls (callbacks over the threshold) and GC pauses between `start`
    and `end` (``time.perf_counter()`` values); None if nothing was written."""
    if not out.exists():
        return None
    data = json.loads(out.read_text())
    stalls = [s for s in data["stalls"] if start <= s[0] <= end]
    gcs = [g for g in data["gc"] if start <= g[0] <= end]
    return {
        "stalls": len(stalls),
        "stall_ms": sum(s[1] for s in stalls),
        "stall_cpu_ms": sum(s[2] for s in stalls),
        "gc_ms": sum(g[2] for g in gcs),
        "gc_longest_ms": max((g[2] for g in gcs), default=0.0),
        "gc_full": sum(1 for g in gcs if g[1] == 2),
    }


def summary(out: Path, start: float, end: float, calls: int) -> str:
    """One line of `figures`, GC per call."""
    f = figures(out, start, end)
    if f is None:
        return "probe: no output"
    return (
        f"loop stalls >8 ms: {f['stalls']} ({f['stall_ms']:.0f} ms, "
        f"CPU {f['stall_cpu_ms']:.0f} ms); "
        f"GC {f['gc_ms'] / max(1, calls):.3f} ms per call, longest {f['gc_longest_ms']:.1f} ms"
    )
