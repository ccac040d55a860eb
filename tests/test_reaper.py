"""The reaper: when the process that tracked process groups dies without
saying goodbye, every group it still tracked is killed, whether it was
registered in the shared table or (the table full) over the pipe; groups it
untracked, and everything after a clean exit, are left alone."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harbor_helpers import kill_leftovers, pid_alive

# A process that starts three sleeping process groups, tracks them with a
# Reaper of one table slot (so the second and third go over the pipe),
# untracks the third, prints the pids and then dies (SIGKILL-like os._exit)
# or exits cleanly.
OWNER = r"""
import json, os, subprocess, sys
from mcp_harbor.runner.reaper import Reaper
reaper = Reaper(slots=1)
pids = []
for _ in range(3):
    p = subprocess.Popen(["sleep", "300"], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    reaper.track(p.pid)
    pids.append(p.pid)
reaper.untrack(pids[2])
print(json.dumps(pids), flush=True)
if sys.argv[1] == "die":
    os._exit(9)
reaper.close()
"""


def _owner(how: str) -> list[int]:
    done = subprocess.run(
        [sys.executable, "-c", OWNER, how], capture_output=True, text=True, timeout=60
    )
    assert done.stderr == ""
    pids: list[int] = json.loads(done.stdout)
    return pids


def _gone_within(pid: int, seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if not pid_alive(pid):
            return True
        time.sleep(0.02)
    return False


def test_a_dead_owner_takes_its_tracked_groups_along() -> None:
    pids = _owner("die")
    try:
        assert _gone_within(pids[0], 5), "the group in the shared table survived"
        assert _gone_within(pids[1], 5), "the group sent over the pipe survived"
        assert pid_alive(pids[2]), "an untracked group was killed"
    finally:
        kill_leftovers(pids)


def test_a_clean_exit_kills_nothing() -> None:
    pids = _owner("exit")
    try:
        time.sleep(0.5)
        assert all(pid_alive(pid) for pid in pids)
    finally:
        kill_leftovers(pids)


@pytest.mark.parametrize("pgid", [0, 1])
def test_never_tracks_init_or_nothing(pgid: int) -> None:
    from mcp_harbor.runner.reaper import Reaper

    with pytest.raises(ValueError):
        Reaper(slots=1).track(pgid)


def test_table_slots_are_reused(tmp_path: Path) -> None:
    """A long-running server tracks far more groups than the table holds,
    one after another: freed slots are taken again, nothing overflows."""
    script = tmp_path / "many.py"
    script.write_text(
        "import subprocess\n"
        "from mcp_harbor.runner.reaper import Reaper\n"
        "r = Reaper(slots=2)\n"
        "for _ in range(50):\n"
        "    p = subprocess.Popen(['true'], start_new_session=True)\n"
        "    r.track(p.pid); p.wait(); r.untrack(p.pid)\n"
        "assert len(r._free) == 2 and not r._slots, (r._free, r._slots)\n"
        "r.close()\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
