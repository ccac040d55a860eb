"""Run rendered steps the way the runner does, with harmless stubs on PATH.

`hbpwn` is the payload program: attack values try to run it, and it only
leaves a marker file. Every other external command the corpus names is a
stub, except a few real programs (interpreters, coreutils that only read)
so that injections into them would really execute. ``ssh``, ``watch`` and
``su`` stubs re-parse their command with ``sh -c`` as the real ones do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.config import Export, Step
from mcp_harbor.errors import ArgumentError
from mcp_harbor.runner.pipeline import BASH_FLAGS
from mcp_harbor.runner.prologue import prologue
from mcp_harbor.template import render, value_text

_REAL = (
    "bash",
    "sh",
    "perl",
    "awk",
    "sed",
    "jq",
    "sqlite3",
    "cat",
    "grep",
    "printf",
    "xargs",
    "env",
    "find",
    "timeout",
    "nohup",
    "head",
    "wc",
    "sleep",
    "ls",
    "true",
    "false",
    "tr",
    "basename",
    "dirname",
    "test",
    "[",
    "echo",
    "node",
    "mkdir",
)
_STUBS = (
    "mytool",
    "git",
    "docker",
    "kubectl",
    "psql",
    "mysql",
    "rsync",
    "tar",
    "curl",
    "scp",
    "man",
    "id",
    "df",
    "cp",
    "uptime",
    "make",
    "alpha",
    "beta",
    "wget",
    "zip",
    "rm",
)
_SHELL_STUBS = {
    "ssh": 'while [ "$#" -gt 0 ]; do case "$1" in\n'
    "  -o|-p|-i|-l) shift 2;; -*) shift;; *) break;; esac\ndone\n"
    'shift\n[ "$#" -gt 0 ] && exec sh -c "$*"\nexit 0\n',
    "watch": 'while [ "$#" -gt 0 ]; do case "$1" in\n'
    "  -n) shift 2;; -*) shift;; *) break;; esac\ndone\n"
    'exec sh -c "$*"\n',
    "su": 'while [ "$#" -gt 0 ]; do case "$1" in -c) exec sh -c "$2";; *) shift;; esac; done\n',
    "sudo": 'while [ "$#" -gt 0 ]; do case "$1" in\n'
    "  -u|-g) shift 2;; -*) shift;; *) break;; esac\ndone\n"
    'exec "$@"\n',
}


def build(root: Path) -> dict[str, str]:
    """Create the stub and real-program folders under `root`; return the
    base environment."""
    stubs, real = root / "stubs", root / "real"
    stubs.mkdir(parents=True, exist_ok=True)
    real.mkdir(exist_ok=True)
    marker = root / "markers"
    marker.mkdir(exist_ok=True)
    (stubs / "hbpwn").write_text('#!/bin/sh\n: > "$HB_MARKER/pwned"\n')
    for name in _STUBS:
        (stubs / name).write_text("#!/bin/sh\nexit 0\n")
    for name, body in _SHELL_STUBS.items():
        (stubs / name).write_text("#!/bin/sh\n" + body)
    (stubs / "python3").write_text(f'#!/bin/sh\nexec {sys.executable} -S -E "$@"\n')
    (stubs / "probe").write_text(
        f"#!{sys.executable} -I\n"
        "import json, os, sys\n"
        "with open(os.environ['PROBE_OUT'], 'a') as fh:\n"
        "    fh.write(json.dumps(sys.argv[1:]) + '\\n')\n"
    )
    for path in stubs.iterdir():
        path.chmod(0o755)
    for name in _REAL:
        found = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin")
        if found and not (real / name).exists():
            (real / name).symlink_to(found)
    return {
        "PATH": f"{stubs}:{real}",
        "HB_MARKER": str(marker),
        "HOME": str(root),
        "LC_ALL": "C.UTF-8",
    }


def run_step(
    step: Step,
    values: Mapping[str, object],
    base_env: Mapping[str, str],
    workdir: Path,
    extra_env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Render `step` as the runner does and run it (bash for ``run:``, exec
    for ``argv:``): ``ARG_<name>`` for each value is a shell variable of the
    script, assigned by the runner's own prologue and never exported (an
    ``argv:`` step gets values only as its elements)."""
    env = dict(base_env)
    env.update(extra_env or {})
    if step.script is not None:
        script = workdir / "step.sh"
        variables = {
            f"ARG_{name}": value_text(value) for name, value in values.items() if value is not None
        }
        script.write_bytes(prologue(variables) + render(step.script, values).encode("utf-8"))
        argv = [shutil.which("bash") or "/bin/bash", *BASH_FLAGS, str(script)]
    else:
        assert step.argv is not None
        argv = [render(part, values) for part in step.argv]
        found = shutil.which(argv[0], path=env["PATH"]) if argv[0] else None
        if found is None:
            return subprocess.CompletedProcess(argv, 127, b"", b"")
        argv[0] = found
    try:
        return subprocess.run(
            argv,
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=10,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        return subprocess.CompletedProcess(argv, -9, exc.stdout or b"", exc.stderr or b"")
    except OSError as exc:
        return subprocess.CompletedProcess(argv, 126, b"", str(exc).encode())


def marker_set(base_env: Mapping[str, str]) -> bool:
    return os.path.exists(os.path.join(base_env["HB_MARKER"], "pwned"))


def assert_no_payload_runs(
    export: Export,
    attacks: Iterable[str],
    base_env: Mapping[str, str],
    workdir: Path,
    label: object,
) -> None:
    """Run the export's first step under real bash with each of `attacks` the
    validator admits as its arg ``x``: none may set the marker (`label` says
    which case failed)."""
    validator = ArgumentValidator(export)
    workdir.mkdir(exist_ok=True)
    for attack in attacks:
        try:
            values = validator.validate({"x": attack})
        except ArgumentError:
            continue
        run_step(export.steps[0], values, base_env, workdir)
        assert not marker_set(base_env), (label, attack)
