"""What one step is confined by (`Confinement`), and how it is entered in
the thread that starts the step (`Confinement.enter`).

A step is started from a thread of its own, made for it and ended after:
Landlock, ``no_new_privs``, a dropped capability set, a pids cgroup (v1)
and network and mount namespaces all hold per thread, so the step inherits
them while the server's other threads keep none of them, and the spawn keeps
CPython's vfork path (a ``preexec_fn`` would lose it and cost more the
bigger the server's heap). What holds per process is set by a small program
the step is started through (`prefix`: util-linux's ``prlimit`` for an
``argv:`` step's rlimits, ``unshare`` for a user namespace) or, for a
``run:`` step's rlimits, by bash's ``ulimit`` ahead of the script
(`script_prelude`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from mcp_harbor.config.model import SandboxLimits
from mcp_harbor.runner.sandbox import _linux
from mcp_harbor.runner.sandbox.landlock_rules import Rules

__all__ = ["CannotConfine", "Confinement", "release", "started_confined"]

T = TypeVar("T")


class CannotConfine(OSError):
    """A layer of a step's confinement could not be entered: the step was
    not started (it never runs less confined than planned)."""


@dataclass(frozen=True, slots=True)
class Confinement:
    """One step's confinement, as planned by `Sandbox.confinement`.

    `rules` is None when Landlock is not used (off, or not available).
    """

    rules: Rules | None
    deny_tcp: bool
    scope: bool
    drop_capabilities: bool
    #: ``none``/``loopback``: a network namespace made in the spawning thread.
    thread_netns: str | None
    #: Folders covered by an empty tmpfs in a mount namespace of the step's
    #: own, and the run directory bound back inside them.
    covered: tuple[str, ...]
    covered_files: tuple[str, ...]
    run_dir: str
    #: Put ahead of a ``run:`` script (on its first line): its ``ulimit``s.
    script_prelude: bytes
    #: Programs the step is started through (rlimits, user/network namespace).
    prefix: tuple[str, ...]
    #: A cgroup-v1 pids folder to make a group in, and the group's limit.
    pids_cgroup: Path | None
    pids_max: int | None
    #: What the step was told: for messages (`mcp_harbor.runner.sandbox.denial`).
    network: str
    limits: SandboxLimits | None
    #: The run's private TMPDIR when writes are confined (None: unchanged).
    tmpdir: Path | None

    def enter(self) -> Path | None:
        """Confine the calling thread (which must be a thread of its own,
        ended after the spawn: none of this can be undone). Returns the
        cgroup made for the step, to be removed by `release` after it.

        Raises:
            OSError: a layer could not be entered (the step must not start).
        """
        group: Path | None = None
        if self.pids_cgroup is not None and self.pids_max is not None:
            group = self.pids_cgroup / f"mcp-harbor-{secrets.token_hex(6)}"
            group.mkdir()
            try:
                # The spawning thread counts while it forks the step's leader
                # (so at least 2), and leaves the group when it ends.
                (group / "pids.max").write_text(str(max(self.pids_max, 2)))
                (group / "tasks").write_text(str(threading.get_native_id()))
            except OSError:
                release(group)
                raise
        if self.covered or self.covered_files:
            _linux.unshare(_linux.CLONE_NEWNS)
            _linux.cover(self.covered, self.run_dir, self.covered_files)
        if self.thread_netns is not None:
            _linux.unshare(_linux.CLONE_NEWNET)
            if self.thread_netns == "loopback":
                _linux.loopback_up()
        if self.rules is not None:
            self.rules.restrict(deny_tcp=self.deny_tcp, scope=self.scope)
        if self.drop_capabilities:
            _linux.drop_capabilities()
        return group


def release(group: Path | None) -> None:
    """Kill what is left in a step's cgroup and remove it (never raises)."""
    if group is None:
        return
    for _ in range(50):
        try:
            tasks = (group / "tasks").read_text().split()
        except OSError:
            return
        # The spawning thread may not have left yet: a signal to one of this
        # process's threads would be a signal to the server itself.
        own = set(os.listdir("/proc/self/task"))
        theirs = [task for task in tasks if task not in own]
        if not theirs:
            if not tasks:
                break
            time.sleep(0.001)
            continue
        for task in theirs:
            with contextlib.suppress(OSError):
                os.kill(int(task), signal.SIGKILL)
    with contextlib.suppress(OSError):
        group.rmdir()


def started_confined(confinement: Confinement, start: Callable[[], T]) -> tuple[T, Path | None]:
    """Run `start` (the spawn) in a new thread confined by `confinement`,
    wait for it, and return what it returned with the step's cgroup.

    Raises:
        CannotConfine: the confinement could not be entered; nothing was started.
        OSError: `start` failed.
    """
    box: dict[str, object] = {}

    def confined() -> None:
        group = None
        try:
            try:
                group = confinement.enter()
            except OSError as exc:
                raise CannotConfine(exc.errno, exc.strerror or str(exc)) from exc
            box["value"] = start()
        except BaseException as exc:  # noqa: BLE001 (re-raised in the caller's thread)
            box["error"] = exc
        box["group"] = group

    thread = threading.Thread(target=confined, name="harbor-step-spawn")
    thread.start()
    thread.join()
    group = box.get("group")
    if "error" in box:
        release(group if isinstance(group, Path) else None)
        error = box["error"]
        assert isinstance(error, BaseException)
        raise error
    return box["value"], (group if isinstance(group, Path) else None)  # type: ignore[return-value]
