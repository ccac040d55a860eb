"""`Sandbox`: the server's confinement policy (its ``--sandbox`` mode, the
folders no step may reach, what this machine supports), and the one place
that turns an export's ``sandbox:`` into a step's `Confinement`."""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcp_harbor.config.model import SandboxLimits, SandboxSpec
from mcp_harbor.defaults import DEFAULT_SANDBOX, SANDBOX_MODES, SandboxMode
from mcp_harbor.locations import default_tokens_path, state_home
from mcp_harbor.runner.sandbox.confinement import Confinement
from mcp_harbor.runner.sandbox.landlock_rules import EVERYTHING, READ, READ_DIR, WRITE_FILE, Rules
from mcp_harbor.runner.sandbox.support import LAYERS, Support, loopback_prefix, support

__all__ = ["SANDBOX_MODES", "Sandbox", "SandboxMode"]


#: Where the system's programs and libraries are.
_PROGRAM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: What programs need to start, readable when ``readable:`` narrows the rest.
_SYSTEM_READABLE = (
    *_PROGRAM_FOLDERS,
    "/proc",
    "/sys",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/alternatives",
    "/etc/hosts",
    "/etc/host.conf",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/etc/protocols",
    "/etc/services",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/locale.alias",
    "/etc/locale.conf",
    "/etc/default/locale",
    "/etc/inputrc",
    "/etc/terminfo",
    "/etc/magic",
    "/etc/mime.types",
    "/etc/gitconfig",
    "/etc/os-release",
    "/usr/lib/os-release",
)
#: The devices a step may open (read and write); the rest of /dev can only
#: be listed: a root server's steps, uid 0 without capabilities, could
#: otherwise read a disk (``/dev/sda`` is root's, mode 0660) past every rule.
_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom")
#: Folders no step writes, even without ``sandbox:``: the system's files and
#: the kernel's knobs. Another user's server cannot write them anyway; a
#: root server's steps (uid 0, which owns them) could, without capabilities:
#: a sysctl (``/proc/sys/kernel/core_pattern``), a cron job, a library.
_SYSTEM_FOLDERS = (
    "/etc",
    *_PROGRAM_FOLDERS,
    "/boot",
    "/var/spool",
    "/proc",
    "/sys",
    "/dev",
)
#: Folders every step may write when writes are confined.
_SHARED_WRITABLE = ("/dev/shm",)
#: What a user's programs read at start (git dies on an unreadable ~/.gitconfig).
_HOME_READABLE = (".gitconfig", ".config/git")


class Sandbox:
    """The server's confinement of steps.

    Every step, with or without ``sandbox:``, when the mode is not ``off``:
    cannot read or write the `hidden` folders and files (the server's state
    and config folders, its database, tokens file and check cache, the runs
    root) except its own run directory, cannot signal processes outside its
    step, runs without capabilities (a root server's steps too), and cannot
    gain privileges (``no_new_privs``). An export's ``sandbox:`` adds its
    network, filesystem and limit rules.

    ``auto`` enforces what this machine supports and says what it does not
    (`describe`); ``required`` has `missing` refuse the exports whose
    confinement cannot be fully enforced; ``off`` confines nothing.
    """

    def __init__(
        self,
        mode: SandboxMode = DEFAULT_SANDBOX,
        hidden: Iterable[Path] = (),
        probed: Support | None = None,
    ) -> None:
        self.mode: SandboxMode = mode
        self.support: Support | None = None if mode == "off" else (probed or support())
        self._hidden = tuple(hidden)
        self._plans: OrderedDict[tuple[object, ...], tuple[SandboxSpec | None, _Plan]] = (
            OrderedDict()
        )

    def hide(self, path: Path) -> None:
        """Keep `path` from steps too (a file the application makes after
        it started: a worker's ledger of process groups)."""
        self._hidden = (*self._hidden, path)

    @property
    def hidden(self) -> tuple[str, ...]:
        """The hidden paths as they are now (resolved, existing, none inside
        another): looked up for each step, since the database's journal
        files, the tokens file and the runs root come and go."""
        return _resolved_hidden(self._hidden)

    @staticmethod
    def default_hidden() -> list[Path]:
        """The server's folders at their default places: the state folder
        (database, runs, check cache) and the config folder (tokens)."""
        return [state_home(), default_tokens_path().parent]

    def describe(self) -> list[str]:
        """What is in force: a first line with the layers that hold and what
        steps cannot reach, then one line per missing layer with why (for
        the start log, and ``check --preflight``)."""
        sup = self.support
        if sup is None:
            return ["sandbox off: steps run unconfined (--sandbox off)"]
        held = [
            f"landlock (ABI {sup.landlock_abi})" if layer == "landlock" else layer
            for layer in LAYERS
            if sup.lacks(layer) is None and (layer != "capabilities" or sup.root)
        ]
        first = f"sandbox {self.mode}: in force: {', '.join(held) or 'nothing'}"
        if self.hidden:
            first += "; steps cannot reach " + ", ".join(self.hidden)
        return [first] + [
            f"sandbox {self.mode}: not available: {layer}: {why}"
            for layer, why in sup.missing.items()
        ]

    def missing(self, spec: SandboxSpec | None) -> list[str]:
        """The layers an export with `spec` needs that this machine lacks,
        each as ``layer (what needs it): why``; empty when fully enforced
        (and always under ``off``, which enforces nothing on purpose)."""
        if self.support is None:
            return []
        wanted = {"landlock": "every step's confinement"}
        if self.support.root:
            wanted["capabilities"] = "every step's confinement (root server)"
        if spec is not None:
            if spec.network == "none":
                wanted["network"] = "network: none"
            elif spec.network == "loopback":
                wanted["loopback"] = "network: loopback"
            limits = spec.limits
            names = [
                n
                for n in ("cpu_seconds", "memory_mb", "file_size_mb", "open_files")
                if getattr(limits, n) is not None
            ]
            if names:
                wanted["rlimits"] = "limits: " + ", ".join(names)
            if limits.processes is not None:
                wanted["processes"] = "limits: processes"
        out = []
        for layer, needed_by in wanted.items():
            why = self.support.lacks(layer)
            if why is not None:
                out.append(f"{layer} ({needed_by}): {why}")
        return out

    def confinement(
        self,
        spec: SandboxSpec | None,
        *,
        run_dir: Path,
        cwd: Path,
        program: str,
        path: str,
        home: str,
        shell: bool = False,
    ) -> Confinement | None:
        """The confinement of one step (None under ``off``).

        `program` is what is exec'd, resolved on `path` (the step's PATH);
        `home` is the step's HOME; relative ``writable:``/``readable:``
        paths are relative to `cwd`. `shell`: the step is a ``run:`` script
        that bash reads from a file, so its rlimits are set by bash's own
        ``ulimit`` ahead of the script (`Confinement.script_prelude`) rather
        than by one more program to start. Layers this machine lacks are left out
        (``auto``: the start log said so; ``required`` refused the export
        before it could run).

        A plan is reused for the next step of the same export while what it
        was made from holds: the same hidden paths, program and PATH, the
        same resolved ``readable:``/``writable:`` paths and home dotfiles, and
        every folder listed to make its Landlock rules unchanged (same inode
        and mtime). Only the run directory is the step's own. A reused plan
        is the plan that would be made again (tests/test_sandbox_plans.py).
        """
        sup = self.support
        if sup is None:
            return None
        run = _existing(run_dir) or os.path.realpath(run_dir)
        hidden = self.hidden
        sockets = (
            sup.thread_mounts
            and spec is not None
            and spec.network == "none"
            and _runtime_sockets(run, cwd)
        )
        seen: _Seen | None = None
        if spec is not None and spec.readable is not None:
            dotfiles = tuple(_resolved(_HOME_READABLE, Path(home))) if home else ()
            seen = (tuple(_resolved(spec.readable, cwd)), dotfiles)
        writable = _resolved(spec.writable, cwd) if spec is not None else []
        key = (id(spec), program, path, hidden, shell, sockets, seen, tuple(writable))
        known = self._plans.get(key)
        if known is not None and known[0] is spec and known[1].rules_unchanged():
            plan = known[1]
            self._plans.move_to_end(key)
        else:
            plan = self._plan(
                sup, spec, hidden, sockets=sockets, seen=seen, writable=writable, program=program,
                path=path, shell=shell,
            )  # fmt: skip
            self._plans[key] = (spec, plan)
            if len(self._plans) > _PLANS_KEPT:
                self._plans.popitem(last=False)
        # A narrowed export's steps get a private TMPDIR (writes are confined).
        narrowed = spec is not None and plan.template.rules is not None
        return plan.for_run(run, tmpdir=Path(run) / "tmp" if narrowed else None)

    def _plan(
        self,
        sup: Support,
        spec: SandboxSpec | None,
        hidden: tuple[str, ...],
        *,
        sockets: bool,
        seen: _Seen | None,
        writable: list[str],
        program: str,
        path: str,
        shell: bool,
    ) -> _Plan:
        """A step's confinement but its run directory (`_Plan.for_run`)."""
        covered: tuple[str, ...] = ()
        covered_files: tuple[str, ...] = ()
        if sup.thread_mounts:
            # Covered by mounts; Landlock then needs no exclusions (which
            # would keep steps from making entries beside a hidden path).
            covered = tuple(h for h in hidden if os.path.isdir(h))
            covered_files = tuple(h for h in hidden if os.path.isfile(h))
            hidden = tuple(h for h in hidden if h not in covered and h not in covered_files)
            if sockets:
                # The local daemons' sockets (docker.sock, D-Bus) are a way
                # out that no network namespace closes: gone from view.
                covered = (*covered, "/run")
        landlock = sup.lacks("landlock") is None
        rules: Rules | None = None
        if landlock:
            rules = Rules()
            if spec is None:
                system = _system_folders()
                rules.grant_except("/", EVERYTHING, (*hidden, *system))
                for folder in system:
                    rules.grant_except(folder, READ_DIR if folder == "/dev" else READ, hidden)
                _grant_devices(rules)
            else:
                _narrowed(
                    rules, spec, hidden, seen=seen, writable=writable, program=program, path=path
                )
        network = spec.network if spec is not None else "host"
        limits = spec.limits if spec is not None else None
        prefix: list[str] = []
        thread_netns: str | None = None
        user_ns = False
        prelude = b""
        if limits is not None:
            if shell:
                prelude = _shell_limits(sup, limits)
            else:
                prefix += _rlimits(sup, limits)
            user_ns = limits.processes is not None and not sup.root and sup.unshare is not None
        if network != "host":
            if sup.thread_netns:
                thread_netns = network
            elif network == "loopback" and sup.loopback_tools is not None and sup.unshare:
                prefix += loopback_prefix(sup.unshare, sup.loopback_tools)
                user_ns = False  # the loopback's own user namespace counts processes
            elif network == "none" and sup.unshare is not None:
                user_ns = True
        if user_ns and sup.unshare is not None:
            uid, gid = os.getuid(), os.getgid()
            prefix += [sup.unshare, "--user", f"--map-user={uid}", f"--map-group={gid}"]
            if network == "none" and thread_netns is None:
                prefix.append("--net")
            prefix.append("--")
        if rules is not None and any(p == sup.unshare for p in prefix):
            # unshare writes the new namespace's uid_map and gid_map.
            rules.grant("/proc", READ | WRITE_FILE)
        pids = limits.processes if limits is not None and sup.root else None
        return _Plan(
            Confinement(
                rules=rules,
                deny_tcp=network == "none" and sup.landlock_abi >= 4,
                scope=sup.landlock_abi >= 6,
                drop_capabilities=sup.root and sup.lacks("capabilities") is None,
                thread_netns=thread_netns,
                covered=covered,
                covered_files=covered_files,
                run_dir="",
                script_prelude=prelude,
                prefix=tuple(prefix),
                pids_cgroup=sup.pids_cgroup if pids is not None else None,
                pids_max=pids,
                network=network,
                limits=limits,
                tmpdir=None,
            )
        )


#: What a narrowed plan read from the disk besides its rules' folders: the
#: resolved ``readable:`` paths and the home dotfiles that exist.
_Seen = tuple[tuple[str, ...], tuple[str, ...]]
#: Plans kept (by export and environment; the least recently used goes).
_PLANS_KEPT = 256


@dataclass(frozen=True, slots=True)
class _Plan:
    """A confinement made for no run directory yet."""

    template: Confinement

    def rules_unchanged(self) -> bool:
        rules = self.template.rules
        return rules is None or rules.unchanged()

    def for_run(self, run: str, *, tmpdir: Path | None) -> Confinement:
        """The confinement of a step whose run directory is `run` (resolved):
        the plan's, with the run directory writable (and bound back inside
        a covered folder)."""
        rules = self.template.rules
        if rules is not None:
            rules = rules.copy()
            rules.grant(run, EVERYTHING)
        return dataclasses.replace(self.template, rules=rules, run_dir=run, tmpdir=tmpdir)


def _narrowed(
    rules: Rules,
    spec: SandboxSpec,
    hidden: tuple[str, ...],
    *,
    seen: _Seen | None,
    writable: list[str],
    program: str,
    path: str,
) -> None:
    """Rules of an export that narrows what is read or written, none of
    them reaching into `hidden`."""
    if spec.readable is None or seen is None:
        rules.grant_except("/", READ, hidden)
    else:
        readable, dotfiles = seen
        for system in _system_readable():
            rules.grant_except(system, READ, hidden)
        for dotfile in dotfiles:
            rules.grant_except(dotfile, READ, hidden)
        for folder in _program_folders(program, path):
            rules.grant_except(folder, READ, hidden)
        for each in readable:
            rules.grant_except(each, READ, hidden)
        # Folders on the way to the run directory: its path can be walked.
        rules.grant("/", READ_DIR)
    _grant_devices(rules)
    for each in writable:
        rules.grant_except(each, EVERYTHING, hidden)


def _runtime_sockets(run_dir: str, cwd: Path) -> bool:
    """Whether ``/run`` (where local daemons keep their sockets) can be
    covered for a step: it is a folder, and neither the run directory nor the
    step's cwd is in it."""
    if os.path.islink("/run") or not os.path.isdir("/run"):
        return False
    inside = (run_dir, os.path.realpath(cwd))
    return not any(p == "/run" or p.startswith("/run/") for p in inside)


def _grant_devices(rules: Rules) -> None:
    """/dev listed; its harmless devices opened; /dev/shm a folder of its own."""
    rules.grant("/dev", READ_DIR)
    for device in _DEVICES:
        if os.path.exists(device):
            rules.grant(device, WRITE_FILE | READ)
    for shared in _SHARED_WRITABLE:
        if os.path.isdir(shared):
            rules.grant(shared, EVERYTHING)


def _shell_limits(sup: Support, limits: SandboxLimits) -> bytes:
    """The ``ulimit`` commands that set `limits` in the bash that runs a
    ``run:`` script, ahead of it on its first line (so that bash's line
    numbers stay the script's): the same limits as `_rlimits`, hard ones
    included (a step cannot raise them back); the step does not start when
    one cannot be set. Made of numbers the loader validated only."""
    kib = 1024
    words = []
    if limits.cpu_seconds is not None:
        words.append(f"ulimit -S -t {limits.cpu_seconds} && ulimit -H -t {limits.cpu_seconds + 1}")
    if limits.memory_mb is not None:
        words.append(f"ulimit -v {limits.memory_mb * kib}")
    if limits.file_size_mb is not None:
        words.append(f"ulimit -f {limits.file_size_mb * kib}")  # 1024-byte blocks
    if limits.open_files is not None:
        words.append(f"ulimit -n {limits.open_files}")
    if limits.processes is not None and not sup.root:
        # Counted per user namespace: the step gets one of its own (`unshare`).
        words.append(f"ulimit -u {limits.processes}")
    if not words:
        return b""
    return (" && ".join(words) + " || exit 126; ").encode("ascii")


def _rlimits(sup: Support, limits: SandboxLimits) -> list[str]:
    """``prlimit`` and its options for `limits` (empty: none to set, or no
    ``prlimit``). CPU time gets a soft limit (SIGXCPU, which says what
    happened) one second under the hard one (SIGKILL)."""
    mib = 1024 * 1024
    options = []
    if limits.cpu_seconds is not None:
        options.append(f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}")
    if limits.memory_mb is not None:
        options.append(f"--as={limits.memory_mb * mib}:{limits.memory_mb * mib}")
    if limits.file_size_mb is not None:
        options.append(f"--fsize={limits.file_size_mb * mib}:{limits.file_size_mb * mib}")
    if limits.open_files is not None:
        options.append(f"--nofile={limits.open_files}:{limits.open_files}")
    if limits.processes is not None and not sup.root:
        # Counted per user namespace: the step gets one of its own (`unshare`).
        options.append(f"--nproc={limits.processes}:{limits.processes}")
    if not options or sup.prlimit is None:
        return []
    return [sup.prlimit, *options, "--"]


def _resolved(paths: Sequence[str], cwd: Path) -> list[str]:
    """The `paths` that exist, resolved (relative ones from `cwd`)."""
    out = []
    for path in paths:
        full = _existing(os.path.join(cwd, os.path.expanduser(path)))
        if full is not None:
            out.append(full)
    return out


@functools.cache
def _system_folders() -> tuple[str, ...]:
    """`_SYSTEM_FOLDERS` as they are on this machine: existing, resolved,
    none inside another (looked up once, as `_system_readable`)."""
    return _resolved_hidden(Path(p) for p in _SYSTEM_FOLDERS)


@functools.cache
def _system_readable() -> tuple[str, ...]:
    """`_SYSTEM_READABLE` as it is on this machine: existing, resolved
    (looked up once: the system's layout does not change under a server)."""
    return tuple(os.path.realpath(p) for p in _SYSTEM_READABLE if os.path.lexists(p))


@functools.lru_cache(maxsize=256)
def _program_folders(program: str, path_env: str) -> tuple[str, ...]:
    """The folders a program needs to start: each folder on PATH, the
    program's own installation (the folder above its ``bin/``), resolved
    through symlinks (a venv's python is a link into its base install)."""
    folders: list[str] = []
    candidates = [d for d in path_env.split(":") if d]
    found = shutil.which(program, path=path_env) if "/" not in program else program
    if found:
        candidates.append(os.path.dirname(found))
        candidates.append(os.path.dirname(os.path.realpath(found)))
    for folder in candidates:
        for each in (folder, os.path.realpath(folder)):
            if not os.path.isdir(each):
                continue
            top = os.path.dirname(each) if os.path.basename(each) in ("bin", "sbin") else each
            if top not in ("/", "") and top not in folders:
                folders.append(top)
    return tuple(folders)


def _existing(path: str | Path) -> str | None:
    """`path` resolved through every symlink, if it exists (else None): the
    kernel's answer, from a descriptor of it (``O_PATH``), in three system
    calls where `os.path.realpath` makes one per component."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        found = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:  # no /proc: the slow way
        found = os.path.realpath(path)
    finally:
        os.close(fd)
    return found if found.startswith("/") else None


def _resolved_hidden(paths: Iterable[Path]) -> tuple[str, ...]:
    """The hidden paths, resolved, existing, none inside another."""
    out: list[str] = []
    for given in paths:
        full = _existing(given)
        if full is not None and full != "/":
            out.append(full)
    out.sort(key=len)
    kept: list[str] = []
    for each in out:
        if not any(each == k or each.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(each)
    return tuple(kept)
