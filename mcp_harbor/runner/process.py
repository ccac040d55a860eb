"""Run one command in its own process group, and make sure it is gone after.

Output goes straight from the child to two log files (the kernel writes
stdout and stderr concurrently, nothing is buffered in the server, so a step
printing gigabytes costs the server no memory and can never block on a full
pipe). The caller reads the tails from the files afterwards.

The child is waited for through a pidfd (``os.pidfd_open``) that the event
loop watches, rather than asyncio's child watcher, which on Python 3.11 starts
a thread per child (about 1.3 ms per step, measured in bench/).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import anyio

from mcp_harbor.runner.reaper import reaper
from mcp_harbor.runner.sandbox import CannotConfine, Confinement, release, started_confined

__all__ = ["DEFAULT_GRACE", "ProcessOutcome", "kill_group", "run_in_group"]

#: Seconds between SIGTERM and SIGKILL when a group is stopped: long enough
#: for a well-behaved program to clean up, short enough that a cancelled call
#: leaves nothing running within a second.
DEFAULT_GRACE = 0.5


@dataclass(frozen=True, slots=True)
class ProcessOutcome:
    how: Literal["exited", "timeout", "error"]
    exit_code: int | None
    error: str | None = None


def _group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes of process group `pgid`.

    The common case, an empty group, is answered by one ``killpg(pgid, 0)``;
    only a group that still has members is looked up in /proc (to tell live
    processes from zombies that nobody has reaped yet).
    """
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    except PermissionError:
        pass
    members: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # Fields after the command (which may contain spaces and parentheses).
        rest = stat[stat.rfind(b")") + 2 :].split()
        if len(rest) > 2 and rest[0] != b"Z" and int(rest[2]) == pgid:
            members.append(int(entry))
    return members


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _private(path: Path) -> int:
    """Open a log for writing, readable by the server's user only (a raw
    descriptor: the child writes to it, the server never does)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)


@functools.cache
def _devnull() -> int:
    """One descriptor of /dev/null for every step's stdin, opened once
    (close-on-exec: a child gets it only as its stdin)."""
    return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)


class _Child:
    """A started child and the pidfd the event loop waits on."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.pid = process.pid
        self.pidfd = os.pidfd_open(process.pid)

    async def wait(self) -> int:
        """Wait until the child exits; reap it and return its code."""
        while (code := self.process.poll()) is None:
            await anyio.wait_readable(self.pidfd)
        return code

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.pidfd)


async def kill_group(child: _Child, grace: float = DEFAULT_GRACE) -> None:
    """Stop every process of `child`'s group: SIGTERM, then SIGKILL after
    `grace` seconds for whatever is still alive, then reap the leader.

    **Cancellation:** runs shielded; it always completes.
    """
    pgid = child.pid
    with anyio.CancelScope(shield=True):
        _signal_group(pgid, signal.SIGTERM)
        deadline = anyio.current_time() + grace
        while anyio.current_time() < deadline:
            if child.process.poll() is None:
                with anyio.move_on_after(min(0.05, max(deadline - anyio.current_time(), 0))):
                    await child.wait()
            if child.process.poll() is not None and not _group_members(pgid):
                break
            await anyio.sleep(0.02)
        _signal_group(pgid, signal.SIGKILL)
        await child.wait()


def _script_hygiene(script: bytes, fd: int) -> bytes:
    """What goes ahead of `script` (read by bash from the memfd `fd`, whose
    offset is 0 and which bash reads through a descriptor of its own): one
    line-1 command list that writes spaces over the whole first line of the
    file (itself included) through `fd`, then closes `fd` in bash.

    bash parses a whole line (and any compound command it opens) before it
    runs any of it, so the first line is in bash's memory when it is
    blanked, and bash never reads it again (it reads on from there). The
    script's own commands then run with no descriptor on the memfd but
    bash's own (close-on-exec, so not inherited), and whoever opens the memfd
    through ``/proc/PID/fd`` of the step's bash reads spaces where the first
    line was. Made of numbers only; ends in ``"; "`` with no newline, so line
    numbers stay the script's."""
    newline = script.find(b"\n")
    first = len(script) if newline < 0 else newline
    size = first
    while True:  # the command's length counts, and holds its own digits
        head = b"printf '%%*s' %d '' >&%d; exec %d>&-; " % (size, fd, fd)
        if len(head) + first == size:
            return head
        size = len(head) + first


async def run_in_group(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[bytes, bytes],
    stdout: Path,
    stderr: Path,
    timeout: float,
    grace: float = DEFAULT_GRACE,
    prepare: Callable[[], None] | None = None,
    script: bytes | None = None,
    offload: bool = True,
    confinement: Confinement | None = None,
) -> ProcessOutcome:
    """Run `argv` in a new session (its own process group) with stdin empty.

    `prepare` runs first. It, the log files and the spawn happen in a worker
    thread when `offload` (on a slow disk they take milliseconds, and many
    calls starting at once must not queue behind each other on the event
    loop), else right here on the event loop (cheaper when nothing else is
    running: no thread hop).

    `script`, if given, is handed to the child as an anonymous in-memory file
    (``memfd``) whose ``/dev/fd/N`` path is appended to `argv` (bash then
    reads its script from it): the script never touches the disk (one file
    less per step, and a secret in it is never written anywhere). Ahead of
    it goes `_script_hygiene`: before any of the script's own commands runs,
    its first line (the caller's values, `mcp_harbor.runner.prologue`) is
    overwritten with spaces in the memfd and descriptor N is closed, so a
    program the script starts neither inherits N nor reads the values back
    through ``/proc/PID/fd`` of the step's bash.

    `confinement`, if given, is entered by a thread made for the spawn
    (see `mcp_harbor.runner.sandbox`), and `argv` is started through its
    prefix; a confinement that cannot be entered fails the step (it never
    starts unconfined).

    When the leader exits, or `timeout` seconds pass, every process left in
    the group is stopped (background jobs do not outlive their step), and
    so is whatever is left in the step's cgroup (one that left the group).

    **Cancellation:** the whole group is stopped (SIGTERM, `grace`, SIGKILL)
    and reaped before the cancellation propagates; a cancellation that
    arrives while the process is being started takes effect once it is
    started and tracked, so no process escapes.
    """

    group: list[Path | None] = [None]

    def spawn() -> subprocess.Popen[bytes] | ProcessOutcome:
        if prepare is not None:
            prepare()
        if not cwd.is_dir():
            return ProcessOutcome("error", 127, f"the working directory {cwd} does not exist")
        memfd = -1
        command = list(argv)
        if confinement is not None:
            command[:0] = confinement.prefix
        if script is not None:
            memfd = os.memfd_create("harbor-step", 0)
            os.write(memfd, _script_hygiene(script, memfd) + script)
            os.lseek(memfd, 0, os.SEEK_SET)
            command.append(f"/dev/fd/{memfd}")  # pass_fds keeps the number
        out = err = -1
        try:
            out = _private(stdout)
            err = _private(stderr)
            try:

                def popen() -> subprocess.Popen[bytes]:
                    return subprocess.Popen(
                        command,
                        stdin=_devnull(),
                        stdout=out,
                        stderr=err,
                        cwd=cwd,
                        env=env,
                        start_new_session=True,
                        close_fds=True,
                        pass_fds=(memfd,) if memfd >= 0 else (),
                    )

                if confinement is None:
                    return popen()
                try:
                    child, group[0] = started_confined(confinement, popen)
                except CannotConfine as exc:
                    reason = exc.strerror or str(exc)
                    return ProcessOutcome(
                        "error", 126, f"the sandbox could not be entered: {reason}"
                    )
                return child
            except OSError as exc:
                reason = exc.strerror or str(exc)
                return ProcessOutcome("error", 127, f"cannot start {argv[0]!r}: {reason}")
        finally:
            for fd in (memfd, out, err):
                if fd >= 0:
                    os.close(fd)

    with anyio.CancelScope(shield=True):
        started = await anyio.to_thread.run_sync(spawn) if offload else spawn()
        if isinstance(started, ProcessOutcome):
            return started
        child = _Child(started)
        reaper.track(child.pid)
    try:
        return await _wait(child, timeout, grace)
    finally:
        child.close()
        reaper.untrack(child.pid)
        if group[0] is not None:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(release, group[0])


async def _wait(child: _Child, timeout: float, grace: float) -> ProcessOutcome:
    """Wait for `child` up to `timeout`, then stop what is left of its group.

    **Cancellation:** the group is stopped and reaped before it propagates.
    """
    try:
        with anyio.move_on_after(timeout) as scope:
            code = await child.wait()
    except BaseException:
        await kill_group(child, grace)
        raise
    if scope.cancelled_caught:
        await kill_group(child, grace)
        return ProcessOutcome("timeout", None)
    if _group_members(child.pid):
        await kill_group(child, grace)
    return _exited(code)


def _exited(code: int) -> ProcessOutcome:
    # A shell reports death by signal N as 128+N; keep that convention.
    return ProcessOutcome("exited", code if code >= 0 else 128 - code)
