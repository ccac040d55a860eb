"""The template sweep: every combination of a prelude, a context, a form of
the value and an arg kind (`tests/check/test_generated.py`'s pieces, 13,776
templates) is checked, and every accepted one is run with the attack battery
under real bash with stub programs. Exits 1 (naming the template and the
value) when a payload runs.

    python -m tests.check.sweep

Too slow for the main test suite (about 3 minutes on 2 cores): `.ci/run` runs
it after the suite. test_generated.py draws from the same pieces at random
in every run.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mcp_harbor.check import check_exports
from mcp_harbor.config import Export, load_export
from tests.check import _sandbox
from tests.check._harness import Case, write
from tests.check.test_generated import CONTEXTS, FORMS, KINDS, PRELUDES
from tests.check.test_oracle import _runs

_WORKERS = 4


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cases = [
            Case("sweep", False, run=p + c.replace("VAL", f), args={"x": k})
            for p in PRELUDES
            for c in CONTEXTS
            for f in FORMS
            for k in KINDS
        ]
        exports = [load_export(write(c, root, i)) for i, c in enumerate(cases)]
        reports = check_exports(exports)
        accepted = [
            (c, e)
            for c, e, r in zip(cases, exports, reports, strict=True)
            if r.status == "accepted"
        ]
        jobs: list[tuple[Case, Export, dict[str, object]]] = [
            (c, e, v) for c, e in accepted for v in _runs(e)
        ]
        print(f"{len(cases)} templates, {len(accepted)} accepted, {len(jobs)} runs", flush=True)
        boxes = [_sandbox.build(root / f"w{k}") for k in range(_WORKERS)]

        def attempt(index: int) -> str | None:
            case, export, values = jobs[index]
            base = dict(boxes[index % _WORKERS])
            marker = root / f"w{index % _WORKERS}" / "markers" / f"m{index}"
            marker.mkdir(parents=True)
            base["HB_MARKER"] = str(marker)
            workdir = root / f"w{index % _WORKERS}" / f"r{index}"
            workdir.mkdir()
            for step in export.steps:
                _sandbox.run_step(step, values, base, workdir)
            hit = (marker / "pwned").exists()
            shutil.rmtree(workdir, ignore_errors=True)
            return f"{case.run!r} {case.args} {values!r}" if hit else None

        with ThreadPoolExecutor(_WORKERS) as pool:
            hits = [h for h in pool.map(attempt, range(len(jobs))) if h]
    for hit in hits:
        print(f"accepted, and a payload ran: {hit}")
    print(f"sweep: {len(jobs) - len(hits)} passed, {len(hits)} failed")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
