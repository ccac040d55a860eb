"""The few Linux calls the sandbox makes that the standard library lacks,
through ctypes. Each raises `OSError` with the call's errno."""

from __future__ import annotations

import ctypes
import fcntl
import functools
import os
import socket
import stat
import struct
from collections.abc import Iterable

__all__ = [
    "CLONE_NEWNET",
    "CLONE_NEWNS",
    "can_drop_capabilities",
    "cover",
    "drop_capabilities",
    "landlock_add_paths",
    "loopback_up",
    "own_cgroup",
    "unshare",
]

CLONE_NEWNET = 0x40000000
CLONE_NEWNS = 0x00020000
_MS_RDONLY = 1
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_PR_CAPBSET_READ = 23
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1
_SYS_CAPSET = {"x86_64": 126, "aarch64": 91}

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


def unshare(flags: int) -> None:
    """unshare(2) for the calling thread."""
    _check(_libc.unshare(flags))


def loopback_up() -> None:
    """Bring ``lo`` up in the calling thread's network namespace."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(sock, _SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | _IFF_UP))


@functools.cache
def _last_capability() -> int:
    """The kernel's highest capability number (read once: it is the kernel's)."""
    with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as fh:
        return int(fh.read())


def can_drop_capabilities() -> bool:
    """Whether `drop_capabilities` can work here (capset has a number on
    this machine and the bounding set can be read)."""
    return os.uname().machine in _SYS_CAPSET and _libc.prctl(_PR_CAPBSET_READ, 0, 0, 0, 0) >= 0


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_capabilities() -> None:
    """Empty the calling thread's bounding, ambient, effective, permitted
    and inheritable capability sets, so that what it starts runs with no
    capability, root included (its exec cannot regain them). Threads keep
    their own sets: the rest of the process is unchanged."""
    prctl = _libc.prctl
    for cap in range(_last_capability() + 1):
        _check(prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0))
    _check(_libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0))
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_libc.syscall(_SYS_CAPSET[os.uname().machine], ctypes.byref(header), data))


#: landlock_add_rule(2) on x86_64 and aarch64 (the same number on both).
_SYS_LANDLOCK_ADD_RULE = 445
_LANDLOCK_RULE_PATH_BENEATH = 1


class _PathBeneath(ctypes.Structure):
    """struct landlock_path_beneath_attr (packed: 12 bytes)."""

    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_add_paths(ruleset_fd: int, grants: Iterable[tuple[str, int]]) -> None:
    """Add a path-beneath rule for each (path, rights) to the Landlock
    ruleset `ruleset_fd` (rights already masked to what the ruleset
    handles; a path that is gone, or a rule the kernel refuses, is left
    out: nothing more is allowed). The ruleset itself is landlockpy's; this
    is its per-rule loop without the per-rule flag arithmetic, for the ~40
    rules of every step."""
    syscall = _libc.syscall
    attr = _PathBeneath()
    where = ctypes.byref(attr)
    for path, rights in grants:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            attr.allowed_access = rights
            attr.parent_fd = fd
            # A refused rule (the path changed kind since the rules were
            # made) is left out, as a gone path is: a rule only ever allows.
            syscall(_SYS_LANDLOCK_ADD_RULE, ruleset_fd, _LANDLOCK_RULE_PATH_BENEATH, where, 0)
        finally:
            os.close(fd)


def own_cgroup(controller: str) -> str | None:
    """This process's cgroup-v1 path for `controller` (None: not mounted)."""
    with open("/proc/self/cgroup", encoding="utf-8") as fh:
        for line in fh:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if controller in controllers.split(","):
                return path
    return None


def _mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None
) -> None:
    def c(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    _check(_libc.mount(c(source), c(target), c(fstype), flags, c(data)))


def cover(folders: tuple[str, ...], keep: str | None, files: tuple[str, ...] = ()) -> None:
    """In a mount namespace of the calling thread's own: put an empty,
    read-only tmpfs over each of `folders`, with `keep` (a folder inside
    one of them) bound back at its place, and an empty, read-only file
    (``/dev/null``) over each of `files`. The calling thread must have
    unshared ``CLONE_NEWNS`` (and hold CAP_SYS_ADMIN)."""
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE, None)
    kept = os.open(keep, os.O_PATH | os.O_CLOEXEC) if keep is not None else -1
    empty = "/dev/null"
    try:
        for number, folder in enumerate(folders):
            _mount("mcp-harbor-hidden", folder, "tmpfs", 0, "size=16k,mode=0755")
            inside = keep is not None and keep.startswith(folder.rstrip("/") + "/")
            if inside:
                assert keep is not None
                os.makedirs(keep, exist_ok=True)
                _mount(f"/proc/self/fd/{kept}", keep, None, _MS_BIND, None)
            if number == 0 and files:
                # An empty regular file to put over the hidden files (made
                # before the tmpfs turns read-only; its name is not a
                # hidden path's, and it holds nothing).
                # Made by mknod, never opened: a descriptor open for writing
                # (even one a fork in another thread copied for an instant)
                # would make the read-only remount fail with EBUSY.
                empty = os.path.join(folder, ".mcp-harbor-hidden")
                os.mknod(empty, stat.S_IFREG | 0o444)
            _mount(None, folder, None, _MS_REMOUNT | _MS_RDONLY, "size=16k,mode=0755")
    finally:
        if kept >= 0:
            os.close(kept)
    for file in files:
        _mount(empty, file, None, _MS_BIND, None)
        _mount(None, file, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY, None)
