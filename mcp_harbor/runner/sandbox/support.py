"""What this kernel and this user allow a step's confinement to use: each
layer probed once per process (`support`), with why one is missing."""

from __future__ import annotations

import errno
import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mcp_harbor.runner.sandbox import _linux

__all__ = ["LAYERS", "Support", "loopback_prefix", "support"]

#: The layers, by the names messages use.
LAYERS = (
    "landlock",  # filesystem rules (and TCP rules from ABI 4, signal scoping from ABI 6)
    "capabilities",  # steps of a root server run without capabilities
    "network",  # a network namespace of the step's own (network: none)
    "loopback",  # that namespace with its loopback up (network: loopback)
    "rlimits",  # cpu_seconds, memory_mb, file_size_mb, open_files
    "processes",  # limits.processes
)


@dataclass(frozen=True, slots=True)
class Support:
    """The layers this process can enforce, each with why not when it cannot.

    `landlock_abi` is the kernel's Landlock ABI (0: none). A network
    namespace is made in the spawning thread when the server may
    (`thread_netns`, a root server), else by `unshare` (`unshare`, the
    path of util-linux's ``unshare`` when it could make a user and a
    network namespace as this user), with its loopback brought up by
    `loopback_tools`. `prlimit` sets rlimits (the
    path of util-linux's ``prlimit``); `pids_cgroup` is a writable cgroup-v1
    ``pids`` folder (a root server's process limit: root is exempt from
    RLIMIT_NPROC).
    """

    landlock_abi: int
    root: bool
    thread_netns: bool
    #: The server's folders can be covered in a mount namespace made in the
    #: spawning thread (a root server): else Landlock alone keeps steps out.
    thread_mounts: bool
    unshare: str | None
    #: The programs a loopback of the step's own is brought up with, when
    #: the server cannot do it itself: ``sh``, iproute2's ``ip`` and
    #: util-linux's ``setpriv`` (None: not all there, or the probe failed).
    loopback_tools: tuple[str, str, str] | None
    prlimit: str | None
    pids_cgroup: Path | None
    #: Why a layer is missing, by layer name (absent: in force).
    missing: dict[str, str]

    def lacks(self, layer: str) -> str | None:
        """Why `layer` cannot be enforced here; None when it can."""
        return self.missing.get(layer)


def _landlock_abi() -> int:
    try:
        import landlockpy
    except ImportError:
        return 0
    try:
        return landlockpy.abi_version()
    except OSError:
        return 0


def _probe_thread(flag: int) -> str | None:
    """Why this process cannot make a network (`flag` CLONE_NEWNET) or mount
    namespace in one of its threads (None: it can). Probed in a throwaway
    thread, which keeps the namespace it made and then ends."""
    import threading

    answer: list[str | None] = ["not probed"]

    def probe() -> None:
        try:
            _linux.unshare(flag)
            if flag == _linux.CLONE_NEWNET:
                _linux.loopback_up()
            else:
                _linux.cover((), None)
            answer[0] = None
        except OSError as exc:
            answer[0] = f"unshare: {os.strerror(exc.errno or errno.EPERM)}"

    thread = threading.Thread(target=probe, name="harbor-sandbox-probe")
    thread.start()
    thread.join()
    return answer[0]


def _probe_command(argv: list[str]) -> str | None:
    """Why `argv` (a probe that should exit 0) failed; None when it worked."""
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return said[-1] if said else f"exit {done.returncode}"


def _userns_blocker() -> str | None:
    """A sysctl that turns unprivileged user namespaces off, said as the fix."""
    for path, bad, fix in (
        ("/proc/sys/user/max_user_namespaces", "0", "sysctl user.max_user_namespaces=15000"),
        (
            "/proc/sys/kernel/unprivileged_userns_clone",
            "0",
            "sysctl kernel.unprivileged_userns_clone=1",
        ),
    ):
        try:
            if Path(path).read_text().strip() == bad:
                return f"{path} is {bad} ({fix})"
        except OSError:
            continue
    try:
        if (
            Path("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").read_text().strip()
            == "1"
        ):
            return (
                "AppArmor restricts unprivileged user namespaces "
                "(kernel.apparmor_restrict_unprivileged_userns=1; Ubuntu 24.04 and later: "
                "allow unshare with an AppArmor profile, or set the sysctl to 0)"
            )
    except OSError:
        pass
    return None


def _pids_cgroup() -> Path | None:
    """A cgroup-v1 ``pids`` folder this process may make child groups in."""
    root = Path("/sys/fs/cgroup/pids")
    try:
        here = _linux.own_cgroup("pids")
    except OSError:
        return None
    if here is None:
        return None
    base = root / here.lstrip("/")
    probe = base / f"mcp-harbor-probe-{os.getpid()}"
    try:
        probe.mkdir()
        (probe / "pids.max").write_text("8")
        probe.rmdir()
    except OSError:
        return None
    return base


@functools.cache
def support() -> Support:
    """Probe every layer, once per process (the answer is kept).

    The probes run as this process's own user, since that is who the steps
    run as: a probe run as root says nothing of a deploy as another user.
    """
    missing: dict[str, str] = {}
    abi = _landlock_abi()
    if abi < 1:
        missing["landlock"] = (
            "the kernel has no Landlock (Linux 5.13 or later with landlock in its LSM list, "
            "e.g. lsm=landlock,... on the kernel command line)"
        )
    root = os.geteuid() == 0
    if root and not _linux.can_drop_capabilities():
        missing["capabilities"] = "prctl(PR_CAPBSET_DROP) is not permitted"
    thread_netns = root and _probe_thread(_linux.CLONE_NEWNET) is None
    thread_mounts = root and _probe_thread(_linux.CLONE_NEWNS) is None
    unshare = shutil.which("unshare")
    if not thread_netns:
        if unshare is None:
            missing["network"] = "util-linux's unshare is not installed"
        else:
            # The probe decides (an AppArmor profile may allow unshare despite
            # the sysctl); the sysctl, when set, explains a failed probe.
            uid, gid = os.getuid(), os.getgid()
            problem = _probe_command(
                [unshare, "--user", f"--map-user={uid}", f"--map-group={gid}", "--net", "true"]
            )
            if problem is not None:
                blocker = _userns_blocker()
                missing["network"] = f"unshare --user --net: {problem}" + (
                    f"; {blocker}" if blocker is not None else ""
                )
                unshare = None
    loopback_tools: tuple[str, str, str] | None = None
    if not thread_netns:
        tools = [shutil.which(name) for name in ("sh", "ip", "setpriv")]
        if unshare is None:
            missing["loopback"] = missing.get("network", "unshare is not available")
        elif None in tools:
            missing["loopback"] = (
                "the server is not root, and bringing up a loopback of the step's own needs "
                "sh, iproute2's ip and util-linux's setpriv"
            )
        else:
            sh, ip, setpriv = (t for t in tools if t is not None)
            loopback_tools = (sh, ip, setpriv)
            problem = _probe_command(
                [*loopback_prefix(unshare, loopback_tools), ip, "link", "show", "lo", "up"]
            )
            if problem is not None:
                missing["loopback"] = f"unshare --net with ip link set lo up: {problem}"
                loopback_tools = None
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        missing["rlimits"] = "util-linux's prlimit is not installed"
    pids = _pids_cgroup() if root else None
    if root and pids is None:
        missing["processes"] = (
            "root is exempt from RLIMIT_NPROC and no cgroup-v1 pids hierarchy is writable "
            "(/sys/fs/cgroup/pids)"
        )
    elif not root and (unshare is None or prlimit is None):
        missing["processes"] = "needs user namespaces (unshare) and prlimit: " + (
            missing.get("network") or missing.get("rlimits") or "unavailable"
        )
    return Support(
        landlock_abi=abi,
        root=root,
        thread_netns=thread_netns,
        thread_mounts=thread_mounts,
        unshare=unshare,
        loopback_tools=loopback_tools,
        prlimit=prlimit,
        pids_cgroup=pids,
        missing=missing,
    )


#: Run by ``sh`` in the step's new namespaces: bring ``lo`` up, then start
#: the step with no capability (they were kept only for ``ip``). A fixed
#: text: the step's command is only ever its positional parameters.
_LOOPBACK_SCRIPT = (
    'ip="$1"; setpriv="$2"; shift 2; "$ip" link set lo up && '
    'exec "$setpriv" --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"'
)


def loopback_prefix(unshare: str, tools: tuple[str, str, str]) -> list[str]:
    """The programs a step with ``network: loopback`` starts through when the
    server is not root: a user and a network namespace (the server's own
    uid and gid mapped), ``lo`` up, capabilities dropped."""
    sh, ip, setpriv = tools
    uid, gid = os.getuid(), os.getgid()
    return [
        unshare, "--user", f"--map-user={uid}", f"--map-group={gid}", "--net", "--keep-caps",
        "--", sh, "-c", _LOOPBACK_SCRIPT, "harbor-loopback", ip, setpriv,
    ]  # fmt: skip
