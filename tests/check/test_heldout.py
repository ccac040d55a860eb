"""Score on the held-out templates (written after the checker was frozen).

The contract: no dangerous template accepted, at most 5% of safe templates
refused.

Score at freeze (commit 56227a0), 85 templates (45 dangerous, 40 safe):
44/45 dangerous refused, 1 dangerous accepted, 0/40 safe refused. The miss was
``argv: [ssh, host, ls, "{{ args.x }}"]``: the words ssh joins came from
several argv elements, each with its own sentinel table, and only the first
(empty) table was used, so the placeholder was not seen in the remote script.
Fixed after scoring (tables are merged); since then 45/45 and 0/40.

Issue 34, on this set no longer held out: 0 dangerous accepted; 2/41 safe
refused (4.9 %): seq-int and int-sleep-timeout (an integer without a
`minimum` may be negative, an option of seq and timeout).
"""

from __future__ import annotations

from pathlib import Path

from mcp_harbor.check import check_exports
from mcp_harbor.config import load_export
from tests.check._harness import write
from tests.check.heldout import HELDOUT


def _verdicts(folder: Path) -> list[tuple[str, bool, str]]:
    exports = [load_export(write(case, folder, i)) for i, case in enumerate(HELDOUT)]
    reports = check_exports(exports)
    return [(c.id, c.dangerous, r.status) for c, r in zip(HELDOUT, reports, strict=True)]


def test_heldout_score(tmp_path: Path) -> None:
    verdicts = _verdicts(tmp_path)
    accepted_dangerous = [
        cid for cid, dangerous, status in verdicts if dangerous and status == "accepted"
    ]
    safe = [v for v in verdicts if not v[1]]
    refused_safe = [
        cid for cid, dangerous, status in verdicts if not dangerous and status == "refused"
    ]
    assert len(HELDOUT) >= 80
    assert accepted_dangerous == []
    assert len(refused_safe) <= 0.05 * len(safe), refused_safe
