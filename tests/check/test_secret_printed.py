"""H010 (secret-printed): every refusal is a real leak.

Each ``error`` case of ``fixtures/h010.yaml`` is run by real bash with a
planted secret in ``API_TOKEN``, as a step would run it (``HARBOR_RUN_DIR``,
``HARBOR_STEP_OUTPUT``, ``HARBOR_OUTPUT`` and ``HOME`` in a folder of the
test's own): the secret, in some form bash or the script makes of it
(`mcp_harbor.runner.scrub`'s forms, or base64), must appear in what the
script prints or writes. The ``ok`` cases must be accepted (test_rules.py
checks both against the checker)."""

from __future__ import annotations

import base64
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check.rules import RULES
from mcp_harbor.runner.scrub import Scrubber

FIXTURES = Path(__file__).parent / "fixtures"
SECRET = "s3cr3t-'q' \"d\" $x\\y é-Zq7Kx9"


def _refused() -> list[Any]:
    cases = yaml.safe_load((FIXTURES / "h010.yaml").read_text(encoding="utf-8"))
    return [
        pytest.param(case["exports"][0]["steps"][0]["run"], id=case["why"])
        for case in cases
        if case["expect"] == "error"
    ]


def leaked(folder: Path, printed: bytes) -> bool:
    data = printed + b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
    encoded = base64.b64encode(SECRET.encode()).rstrip(b"=")
    return Scrubber([SECRET]).contains(data) or encoded[:16] in data


@pytest.mark.parametrize("run", _refused())
def test_every_refused_script_really_prints_the_secret(run: str, tmp_path: Path) -> None:
    assert RULES["H010"].severity == "error"
    run_dir, home = tmp_path / "run", tmp_path / "home"
    (run_dir / "steps").mkdir(parents=True)
    home.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "LC_ALL": "C.UTF-8",
        "HOME": str(home),
        "API_TOKEN": SECRET,
        "HARBOR_RUN_DIR": str(run_dir),
        "HARBOR_STEP_OUTPUT": str(run_dir / "steps" / "output"),
        "HARBOR_OUTPUT": str(run_dir / "output.json"),
    }
    proc = subprocess.run(
        ["bash", "-c", run], env=env, cwd=tmp_path, capture_output=True, timeout=30, check=False
    )
    printed = proc.stdout + proc.stderr
    assert leaked(tmp_path, printed), (run, printed)


def test_the_leak_test_is_not_vacuous(tmp_path: Path) -> None:
    # what an accepted script prints holds no form of the secret
    assert not leaked(tmp_path, b"hello\nBearer ***\n")
    traced = "".join("\\" + c for c in SECRET).encode()  # set -x's pattern form
    assert leaked(tmp_path, b"+ [[ ok == " + traced + b" ]]")
