"""Issue 19: the ways a server that is not root confines its steps.

CI runs as root, where the spawning thread makes the namespaces and mounts
itself. A server of an ordinary user cannot: its steps start through
util-linux's ``unshare`` (a user and a network namespace) and ``prlimit``,
and only Landlock keeps them out of the server's folders. These tests run
real pipelines through `LocalExecutor` with a `Sandbox` whose probe answer
is that of such a server (what this machine has, minus what only root can
do), so those code paths run here for real.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import sys
import time
from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.check import load_and_check
from mcp_harbor.runner import LocalExecutor, RunRequest
from mcp_harbor.runner.sandbox import Sandbox, Support, support

pytestmark = pytest.mark.anyio

PY = os.path.realpath(sys.executable)


def unprivileged() -> Support:
    """This machine's layers as a server that is not root would use them."""
    tools = tuple(shutil.which(name) for name in ("sh", "ip", "setpriv"))
    assert None not in tools, "sh, ip and setpriv are needed"
    probed = dataclasses.replace(
        support(),
        root=False,
        thread_netns=False,
        thread_mounts=False,
        pids_cgroup=None,
        loopback_tools=tools,
    )
    assert probed.unshare is not None and probed.prlimit is not None, "util-linux is needed"
    return probed


async def run(
    tmp: Path, text: str, sandbox: Sandbox, **arguments: object
) -> list[dict[str, object]]:
    exports = tmp / "exports"
    path = write_export(exports, "t.yaml", text)
    (export,) = load_and_check([path]).accepted
    run_dir = tmp / "state" / "mcp-harbor" / "runs" / f"r{time.time_ns()}"
    run_dir.mkdir(parents=True)
    request = RunRequest(
        export=export, arguments=arguments, run_id=run_dir.name, run_dir=run_dir, workdir=tmp
    )
    result = await LocalExecutor(sandbox).run(request)
    return [s.to_json() for s in result.steps]


async def test_network_none_through_unshare(tmp_path: Path) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    text = f"""
    name: t
    description: Connect out.
    sandbox: {{network: none}}
    steps:
      - name: connect
        argv: [{PY}, -c, "import socket; socket.create_connection(('127.0.0.1', {port}), 2)"]
    """
    sandbox = Sandbox(probed=unprivileged())
    plan = sandbox.confinement(
        load_and_check([write_export(tmp_path / "p", "t.yaml", text)]).accepted[0].spec.sandbox,
        run_dir=tmp_path, cwd=tmp_path, program=PY, path=os.environ["PATH"], home="",
    )  # fmt: skip
    assert plan is not None and plan.thread_netns is None
    assert plan.prefix[:2] == (shutil.which("unshare"), "--user") and "--net" in plan.prefix
    (step,) = await run(tmp_path, text, sandbox)
    server.close()
    assert step["status"] == "failed"
    assert step["error"] == "sandbox denied network access (network: none)"


async def test_network_loopback_through_unshare_and_ip(tmp_path: Path) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    text = f"""
    name: t
    description: Its own loopback, not the host's.
    sandbox: {{network: loopback}}
    steps:
      - name: own
        argv:
          - {PY}
          - -c
          - |
            import os, socket, threading
            srv = socket.create_server(("127.0.0.1", 0))
            threading.Thread(target=lambda: srv.accept()[0].sendall(b"mine"), daemon=True).start()
            print(socket.create_connection(srv.getsockname(), 3).recv(4).decode())
            print(open("/proc/self/status").read().split("CapEff:")[1].split()[0])
      - name: host
        argv: [{PY}, -c, "import socket; socket.create_connection(('127.0.0.1', {port}), 2)"]
    """
    own, host = await run(tmp_path, text, Sandbox(probed=unprivileged()))
    server.close()
    assert own["status"] == "ok", own
    assert own["stdout_tail"].split() == ["mine", "0000000000000000"]
    assert host["status"] == "failed"
    assert host["error"] == "sandbox denied network access (network: loopback)"


async def test_landlock_alone_keeps_steps_out_of_the_state_folder(tmp_path: Path) -> None:
    state = tmp_path / "state" / "mcp-harbor"
    (state / "runs" / "other").mkdir(parents=True)
    (state / "runs" / "other" / "log").write_text("another caller's log\n")
    (state / "harbor.db").write_text("the audit trail\n")
    text = f"""
    name: t
    description: Snoop.
    steps:
      - name: db
        run: cat {state}/harbor.db
        continue_on_error: true
      - name: other
        run: cat {state}/runs/other/log
        continue_on_error: true
      - name: own
        run: echo mine > "$HARBOR_RUN_DIR/own" && cat "$HARBOR_RUN_DIR/own"
      - name: elsewhere
        run: echo fine > {tmp_path}/work-file && cat {tmp_path}/work-file
        continue_on_error: true
    """
    sandbox = Sandbox(hidden=[state], probed=unprivileged())
    db, other, own, elsewhere = await run(tmp_path, text, sandbox)
    assert db["status"] == "failed" and db["stdout_tail"] == ""
    assert db["error"] == f"sandbox denied read of {state}/harbor.db"
    assert other["status"] == "failed" and other["stdout_tail"] == ""
    assert own["status"] == "ok" and own["stdout_tail"] == "mine\n"
    # Landlock cannot let a step make new entries in a folder that holds
    # a hidden one (tmp_path holds state/): the documented limit.
    assert elsewhere["status"] == "failed"
    assert elsewhere["error"] == f"sandbox denied write to {tmp_path}/work-file"
    (tmp_path / "sub").mkdir()
    text2 = text.replace(f"{tmp_path}/work-file", f"{tmp_path}/sub/work-file")
    *_, fine = await run(tmp_path, text2, sandbox)
    assert fine["status"] == "ok", fine


async def test_rlimits_through_prlimit(tmp_path: Path) -> None:
    text = f"""
    name: t
    description: Allocate.
    sandbox: {{limits: {{memory_mb: 128}}}}
    steps:
      - name: hog
        argv: [{PY}, -c, "bytearray(512 * 1024 * 1024)"]
    """
    (step,) = await run(tmp_path, text, Sandbox(probed=unprivileged()))
    assert step["status"] == "failed"
    assert step["error"] == "sandbox limit reached: memory_mb 128 (an allocation failed)"


def test_required_names_each_missing_layer() -> None:
    lacking = dataclasses.replace(
        support(), missing={"loopback": "bwrap is not installed", "processes": "no pids cgroup"}
    )
    from mcp_harbor.config.model import SandboxLimits, SandboxSpec

    sandbox = Sandbox("required", probed=lacking)
    spec = SandboxSpec(network="loopback", limits=SandboxLimits(processes=8, cpu_seconds=5))
    assert sandbox.missing(spec) == [
        "loopback (network: loopback): bwrap is not installed",
        "processes (limits: processes): no pids cgroup",
    ]
    assert sandbox.missing(SandboxSpec(network="none")) == []
    assert Sandbox("off", probed=lacking).missing(spec) == []
    assert "not available: loopback: bwrap is not installed" in "\n".join(sandbox.describe())
