"""A step's logs as the result reports them: the tail, the size, whether
the tail is cut, and the SHA-256 of the whole log file, for an empty log, a
log shorter than the tail and a log longer than it (real bash, through
``mcp-harbor run``)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from harbor_helpers import PY, server_env, write_export

EXPORT = """
    name: speak
    description: Prints N bytes on stdout, nothing on stderr.
    output_tail: 1000
    args:
      n: {type: integer, minimum: 0, maximum: 100000}
    required: [n]
    steps:
      - name: print
        run: printf '%*s' "$ARG_n" '' | tr ' ' x
"""


@pytest.mark.parametrize("n", [0, 10, 999, 1000, 1001, 100000])
def test_tail_size_and_digest_of_the_logs(tmp_path: Path, n: int) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "speak.yaml", EXPORT)
    done = subprocess.run(
        [PY, "-m", "mcp_harbor", "run", "--exports", str(exports), "--json",
         "--runs-dir", str(tmp_path / "runs"), "speak", f"n={n}"],
        env=server_env(tmp_path / "state"), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    step = json.loads(done.stdout)["steps"][0]
    written = Path(step["stdout_log"]).read_bytes()
    assert len(written) == n
    assert step["stdout_bytes"] == n
    assert step["stdout_truncated"] is (n > 1000)
    assert step["stdout_tail"] == written[-1000:].decode()
    assert step["stdout_sha256"] == hashlib.sha256(written).hexdigest()
    assert step["stderr_tail"] == ""
    assert step["stderr_bytes"] == 0
    assert step["stderr_sha256"] == hashlib.sha256(b"").hexdigest()
