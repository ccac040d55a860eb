"""Issue 6: ``mcp-harbor call`` and ``mcp-harbor run`` show progress: plain
lines on stderr when it is not a terminal (a live Rich bar when it is), and
stdout stays the answer alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harbor_helpers import harbor_cli, write_export

TWO_STEPS = """\
name: twostep
description: Two steps.
steps:
  - name: build
    run: echo built
  - name: check
    run: echo checked
"""


@pytest.mark.parametrize("command", ["call", "run"])
def test_plain_progress_lines_on_stderr(tmp_path: Path, command: str) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "twostep.yaml", TWO_STEPS)
    proc = harbor_cli(command, "twostep", "--json", "--exports", str(exports), state=tmp_path)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("twostep: ")]
    assert lines == [
        "twostep: build (1/2)",
        "twostep: build (1/2) ok",
        "twostep: check (2/2)",
        "twostep: check (2/2) ok",
    ], proc.stderr
    envelope = json.loads(proc.stdout)  # stdout: the envelope, nothing else
    assert envelope["finish_reason"] == "goal" and envelope["steps_run"] == 2


def test_live_progress_on_a_terminal(tmp_path: Path) -> None:
    """Under a pseudo-terminal (util-linux `script`) the Rich display runs and
    the call still succeeds; its bar is transient, the answer remains."""
    exports = tmp_path / "exports"
    write_export(exports, "twostep.yaml", TWO_STEPS)
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), COLUMNS="100")
    cmd = f"{sys.executable} -m mcp_harbor run twostep --exports {exports}"
    proc = subprocess.run(
        ["script", "-qec", cmd, "/dev/null"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "--- step 2 check: ok" in proc.stdout
    assert "Traceback" not in proc.stdout
