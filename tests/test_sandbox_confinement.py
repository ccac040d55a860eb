"""Issue 19: every step is confined, with real processes.

Each test runs the real ``mcp-harbor run`` (a subprocess) on an export of
its own and reads the answer envelope: what a step could reach, what the
sandbox stopped, and what the step's result says about it. The machine's
layers are probed by the product itself (`support`); a test of a layer this
machine lacks fails, it is never skipped: CI runs where every layer holds.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import harbor_cli, write_export

PY = os.path.realpath(sys.executable)


def run_tool(
    tmp: Path, export: str, *assignments: str, extra: tuple[str, ...] = (), **env: str
) -> dict[str, Any]:
    """Run the export (text of one file) with `assignments`; the envelope."""
    exports = tmp / "exports"
    name = export.split("name:", 1)[1].split()[0]
    write_export(exports, f"{name}.yaml", export)
    work = tmp / "work"
    work.mkdir(exist_ok=True)
    proc = harbor_cli(
        "run",
        "--exports",
        str(exports),
        "--workdir",
        str(work),
        *extra,
        name,
        *assignments,
        "--json",
        state=tmp / "state",
        check=False,
        **env,
    )
    assert proc.stdout, proc.stderr
    envelope: dict[str, Any] = json.loads(proc.stdout)
    return envelope


def step(envelope: dict[str, Any], number: int = 0) -> dict[str, Any]:
    steps: list[dict[str, Any]] = envelope["steps"]
    return steps[number]


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP listener on the host's 127.0.0.1 that answers ``hello``."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"hello\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


CONNECT = """
name: connect_{network}
description: Connect to the host's listener.
args:
  port: {{type: integer, minimum: 1, maximum: 65535}}
sandbox: {{network: {network}}}
steps:
  - name: connect
    argv:
      - {py}
      - -c
      - |
        import socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 3)
        print(s.recv(6).decode().strip())
      - "{{{{ args.port }}}}"
"""


def test_network_none_cannot_reach_a_host_listener_an_unconfined_step_reaches(
    tmp_path: Path, listener: int
) -> None:
    host = run_tool(tmp_path / "h", CONNECT.format(network="host", py=PY), f"port={listener}")
    assert host["status"] == "ok", host["answer"]
    assert step(host)["stdout_tail"].strip() == "hello"
    none = run_tool(tmp_path / "n", CONNECT.format(network="none", py=PY), f"port={listener}")
    assert none["status"] == "failed", none["answer"]
    assert "hello" not in step(none)["stdout_tail"]
    assert step(none)["error"] == "sandbox denied network access (network: none)"


def test_network_none_also_stops_udp_and_a_loopback_of_its_own(tmp_path: Path) -> None:
    # UDP is what Landlock's TCP rules do not cover: the namespace does.
    udp = f"""
    name: udp
    description: Send a datagram to the host's loopback.
    sandbox: {{network: none}}
    steps:
      - name: send
        argv:
          - {PY}
          - -c
          - |
            import socket
            udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            udp.sendto(b"x", ("127.0.0.1", 9))
    """
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(1.0)
    port = receiver.getsockname()[1]
    envelope = run_tool(tmp_path, udp.replace('1", 9)', f'1", {port})'))
    assert envelope["status"] == "failed", envelope["answer"]
    with pytest.raises(TimeoutError):
        receiver.recv(10)
    receiver.close()
    assert "Network is unreachable" in step(envelope)["stderr_tail"]


LOOPBACK = f"""
name: loopback
description: A server and a client on the step's own loopback, then the host's listener.
args:
  port: {{type: integer, minimum: 1, maximum: 65535}}
sandbox: {{network: loopback}}
steps:
  - name: own
    argv:
      - {PY}
      - -c
      - |
        import socket, threading
        srv = socket.create_server(("127.0.0.1", 0))
        threading.Thread(target=lambda: srv.accept()[0].sendall(b"mine"), daemon=True).start()
        print(socket.create_connection(srv.getsockname(), 3).recv(4).decode())
  - name: host
    argv:
      - {PY}
      - -c
      - "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 3)"
      - "{{{{ args.port }}}}"
"""


def test_network_loopback_is_the_steps_own(tmp_path: Path, listener: int) -> None:
    envelope = run_tool(tmp_path, LOOPBACK, f"port={listener}")
    own, host = step(envelope, 0), step(envelope, 1)
    assert own["status"] == "ok", envelope["answer"]
    assert own["stdout_tail"].strip() == "mine"
    assert host["status"] == "failed", envelope["answer"]
    assert "Connection refused" in host["stderr_tail"], host["stderr_tail"]


WRITES = """
name: writes
description: Write inside and outside the writable folders.
sandbox:
  writable: [out/]
steps:
  - name: inside
    run: |
      echo ok > out/made.txt
      echo ok > "$HARBOR_RUN_DIR/mine.txt"
      echo ok > "$TMPDIR/scratch.txt"
  - name: beside
    run: echo no > not-writable.txt
    continue_on_error: true
  - name: tmp
    run: echo no > /tmp/harbor-sandbox-test-{tag}
    continue_on_error: true
"""


def test_a_step_writes_only_its_run_directory_and_writable_folders(tmp_path: Path) -> None:
    (tmp_path / "work" / "out").mkdir(parents=True)
    tag = tmp_path.name
    envelope = run_tool(tmp_path, WRITES.format(tag=tag))
    inside, beside, tmp = (step(envelope, i) for i in range(3))
    assert inside["status"] == "ok", envelope["answer"]
    assert (tmp_path / "work" / "out" / "made.txt").read_text() == "ok\n"
    assert (Path(envelope["run_dir"]) / "mine.txt").read_text() == "ok\n"
    assert (Path(envelope["run_dir"]) / "tmp" / "scratch.txt").exists()
    assert beside["status"] == "failed"
    target = tmp_path / "work" / "not-writable.txt"
    assert not target.exists()
    assert beside["error"] == f"sandbox denied write to {target}"
    assert tmp["status"] == "failed"
    assert not Path(f"/tmp/harbor-sandbox-test-{tag}").exists()
    assert tmp["error"] == f"sandbox denied write to /tmp/harbor-sandbox-test-{tag}"


READS = """
name: reads
description: Read inside and outside the readable folders.
args:
  file: {type: string, maxLength: 4096}
sandbox:
  readable: [.]
steps:
  - name: read
    run: cat -- "$ARG_file"
"""


def test_readable_narrows_what_a_step_can_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not for steps\n")
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "inside.txt").write_text("for steps\n")
    (tmp_path / "work" / "link").symlink_to(outside)
    ok = run_tool(tmp_path / "a", READS, f"file={tmp_path / 'work' / 'inside.txt'}")
    # The export's workdir is tmp/a/work: that file is outside it.
    assert ok["status"] == "failed"
    inside = run_tool(tmp_path, READS, "file=inside.txt")
    assert inside["status"] == "ok", inside["answer"]
    assert step(inside)["stdout_tail"] == "for steps\n"
    for given in (str(outside), "../outside.txt", "link", "/etc/shadow"):
        denied = run_tool(tmp_path, READS, f"file={given}")
        assert denied["status"] == "failed", (given, denied["answer"])
        assert "not for steps" not in step(denied)["stdout_tail"]
        assert step(denied)["error"].startswith("sandbox denied read of "), step(denied)


SNOOP = """
name: snoop
description: Try the server's files.
args:
  path: {type: string, maxLength: 4096}
steps:
  - name: marker
    run: echo "mine" > "$HARBOR_RUN_DIR/marker.txt"
  - name: read
    run: cat -- "$ARG_path"
    continue_on_error: true
  - name: write
    run: echo x >> "$ARG_path"
    continue_on_error: true
"""


def test_no_step_reads_or_writes_the_servers_files_or_other_runs(tmp_path: Path) -> None:
    state = tmp_path / "state" / "mcp-harbor"
    first = run_tool(tmp_path, SNOOP, f"path={tmp_path}/nothing")
    earlier = Path(first["run_dir"]) / "marker.txt"
    assert earlier.read_text() == "mine\n"
    db = state / "harbor.db"
    assert db.exists()
    for target in (db, earlier, state / "check-cache"):
        envelope = run_tool(tmp_path, SNOOP, f"path={target}")
        read, write = step(envelope, 1), step(envelope, 2)
        assert read["status"] == "failed", (target, envelope["answer"])
        assert read["stdout_tail"] == "", target
        assert write["status"] == "failed", (target, envelope["answer"])
    assert earlier.read_text() == "mine\n"
    assert not db.read_bytes().endswith(b"x\n")
    # A database elsewhere (--db) is kept from steps too.
    other = tmp_path / "elsewhere" / "audit.db"
    other.parent.mkdir()
    envelope = run_tool(tmp_path, SNOOP, f"path={other}", extra=("--db", str(other)))
    assert other.stat().st_size > 0
    # Covered (a root server: an empty read-only file in its place) or
    # denied (Landlock alone): either way, nothing of it is read.
    assert step(envelope, 1)["stdout_tail"] == "", envelope["answer"]
    assert step(envelope, 2)["status"] == "failed", envelope["answer"]
    assert step(envelope, 2)["error"] == f"sandbox denied write to {other}"
    assert not other.read_bytes().endswith(b"x\n")


def test_sandbox_off_confines_nothing(tmp_path: Path) -> None:
    first = run_tool(tmp_path, SNOOP, f"path={tmp_path}/nothing")
    earlier = Path(first["run_dir"]) / "marker.txt"
    envelope = run_tool(tmp_path, SNOOP, f"path={earlier}", extra=("--sandbox", "off"))
    assert step(envelope, 1)["stdout_tail"] == "mine\n", envelope["answer"]


PARENT = """
name: parent
description: Read the server's environment and signal it.
steps:
  - name: environ
    run: tr '\\0' '\\n' < "/proc/$PPID/environ"
    continue_on_error: true
  - name: signal
    run: kill -0 "$PPID"
    continue_on_error: true
"""


def test_a_step_cannot_read_the_servers_environment_nor_signal_it(tmp_path: Path) -> None:
    envelope = run_tool(tmp_path, PARENT, HARBOR_TEST_SERVER_ONLY="s3cr3t-of-the-server")
    environ, signal_ = step(envelope, 0), step(envelope, 1)
    assert environ["status"] == "failed", envelope["answer"]
    assert "s3cr3t-of-the-server" not in json.dumps(envelope)
    assert signal_["status"] == "failed"
    assert "Operation not permitted" in signal_["stderr_tail"]


LIMITS = """
name: limits
description: Go past each limit.
sandbox:
  limits: {{processes: 16, memory_mb: 256, cpu_seconds: 1, file_size_mb: 1, open_files: 64}}
steps:
  - name: fork_bomb
    argv:
      - {py}
      - -c
      - |
        import subprocess
        started = []
        try:
            for _ in range(200):
                started.append(subprocess.Popen(["sleep", "30"]))
        except OSError as exc:
            print("stopped", exc)
        print("started", len(started))
        for p in started:
            p.kill()
        raise SystemExit(1 if len(started) < 200 else 0)
    continue_on_error: true
  - name: memory_hog
    argv: [{py}, -c, "b = bytearray(1024 * 1024 * 1024); print('allocated', len(b))"]
    continue_on_error: true
  - name: cpu_spin
    run: while :; do :; done
    continue_on_error: true
  - name: big_file
    run: head -c 5000000 /dev/zero > "$HARBOR_RUN_DIR/big"
    continue_on_error: true
  - name: many_files
    argv: [{py}, -c, "fs = [open('/dev/null') for _ in range(200)]"]
    continue_on_error: true
"""


def test_limits_stop_a_fork_bomb_a_memory_hog_and_the_rest(tmp_path: Path) -> None:
    envelope = run_tool(tmp_path, LIMITS.format(py=PY))
    bomb, hog, spin, big, many = (step(envelope, i) for i in range(5))
    assert bomb["status"] == "failed", envelope["answer"]
    started = int(bomb["stdout_tail"].split("started")[1].split()[0])
    assert started < 16, bomb["stdout_tail"]
    assert bomb["error"] == "sandbox limit reached: processes 16 (a fork failed)"
    assert hog["status"] == "failed" and "allocated" not in hog["stdout_tail"]
    assert hog["error"] == "sandbox limit reached: memory_mb 256 (an allocation failed)"
    assert spin["status"] == "failed" and spin["duration_ms"] < 10_000
    assert spin["error"].startswith("sandbox limit reached: cpu_seconds 1"), spin
    assert big["status"] == "failed"
    assert (Path(envelope["run_dir"]) / "big").stat().st_size == 1024 * 1024
    assert big["error"] == "sandbox limit reached: file_size_mb 1 (killed by SIGXFSZ)"
    assert many["status"] == "failed"
    assert many["error"] == "sandbox limit reached: open_files 64"


def test_preflight_and_required_say_what_is_in_force(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "limits.yaml", LIMITS.format(py=PY))
    proc = harbor_cli(
        "check", "--preflight", "--sandbox", "required", str(exports), state=tmp_path, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "preflight: sandbox required: in force: landlock (ABI" in proc.stderr
    for layer in ("network", "loopback", "rlimits", "processes"):
        assert layer in proc.stderr.split("in force:")[1].splitlines()[0]


SYSTEM = """
name: system
description: Reach past the server's folders, as uid 0 without capabilities could.
args:
  disk: {type: string, maxLength: 64}
steps:
  - name: disk
    run: head -c 512 -- "$ARG_disk" | od -c
    continue_on_error: true
  - name: sysctl
    # The value it has already: a sandbox that failed changes nothing.
    run: cat /proc/sys/vm/swappiness > /proc/sys/vm/swappiness
    continue_on_error: true
  - name: system_file
    run: echo x > /etc/mcp-harbor-sandbox-test
    continue_on_error: true
"""


def test_no_step_writes_system_files_kernel_knobs_or_reads_a_disk(tmp_path: Path) -> None:
    disks = [d for d in os.listdir("/sys/block") if not d.startswith(("loop", "ram", "zram"))]
    assert disks, "this test needs a block device (/sys/block)"
    disk = f"/dev/{sorted(disks)[0]}"
    envelope = run_tool(tmp_path, SYSTEM, f"disk={disk}")
    read, sysctl, system_file = (step(envelope, i) for i in range(3))
    assert read["status"] == "failed", envelope["answer"]
    assert read["stdout_tail"].strip() == "0000000", read  # od saw nothing
    assert sysctl["status"] == "failed", envelope["answer"]
    assert system_file["status"] == "failed", envelope["answer"]
    assert not Path("/etc/mcp-harbor-sandbox-test").exists()
    if os.geteuid() == 0:  # another user is stopped by file modes first
        assert read["error"] == f"sandbox denied read of {disk}"
        assert sysctl["error"] == "sandbox denied write to /proc/sys/vm/swappiness"
        assert system_file["error"] == "sandbox denied write to /etc/mcp-harbor-sandbox-test"


SOCKET = """
name: daemon_socket
description: Talk to a local daemon through its UNIX socket.
args:
  path: {type: string, maxLength: 4096}
sandbox: {network: none}
steps:
  - name: connect
    argv:
      - PYTHON
      - -c
      - "import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])"
      - "{{ args.path }}"
"""


def test_network_none_hides_the_local_daemons_sockets(tmp_path: Path) -> None:
    # A daemon's socket under /run (as docker.sock is): reachable unconfined.
    # A root server (as CI runs) covers /run; a server of another user could
    # not make this socket, nor reach a root daemon's.
    folder = Path("/run") / f"mcp-harbor-test-{tmp_path.name}"
    folder.mkdir()
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(folder / "daemon.sock"))
        server.listen()
        text = SOCKET.replace("PYTHON", PY)
        host = run_tool(tmp_path / "h", text.replace("network: none", "network: host"),
                        f"path={folder / 'daemon.sock'}")  # fmt: skip
        assert host["status"] == "ok", host["answer"]
        none = run_tool(tmp_path / "n", text, f"path={folder / 'daemon.sock'}")
        assert none["status"] == "failed", none["answer"]
    finally:
        server.close()
        (folder / "daemon.sock").unlink(missing_ok=True)
        folder.rmdir()
