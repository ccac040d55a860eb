"""Landlock rules as data: which rights on which paths (`Rules`), built so
that some paths stay out of reach (`Rules.grant_except`), checked without the kernel
(`Rules.allows`, for messages) and enforced on the calling thread
(`Rules.restrict`).

Landlock can only allow, never deny: to keep a folder out of a tree that is
otherwise reachable, every sibling along the path to it gets a rule of its
own (and the folders on the path only ``READ_DIR``: their names can be
listed, not their files read).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["EVERYTHING", "FILE_RIGHTS", "READ", "READ_DIR", "WRITE_FILE", "Rules"]

# Landlock's filesystem rights (linux/landlock.h), as plain ints so that
# this module imports nothing it does not need.
_EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
_READ_FILE = 1 << 2
READ_DIR = 1 << 3
_MAKE_REG = 1 << 8
_TRUNCATE = 1 << 14
_IOCTL_DEV = 1 << 15
#: Read a file, list a folder, execute a program.
READ = _EXECUTE | _READ_FILE | READ_DIR
#: Every filesystem right (the kernel's ABI masks it).
EVERYTHING = (1 << 17) - 1
#: The rights a rule on a file (not a folder) may carry.
FILE_RIGHTS = _EXECUTE | WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV


@dataclass(slots=True)
class Rules:
    """Rights by path (absolute, resolved); a folder's rule covers what is
    beneath it, and rights add up along a path."""

    grants: dict[str, int] = field(default_factory=dict)
    #: Each folder whose entries were listed to build the rules, with its
    #: (inode, mtime) then: the rules hold while every one is unchanged
    #: (`unchanged`).
    listed: dict[str, tuple[int, int]] = field(default_factory=dict)

    def copy(self) -> Rules:
        """The same rules, to add to without changing these."""
        return Rules(dict(self.grants), dict(self.listed))

    def unchanged(self) -> bool:
        """Whether every folder listed to build the rules still has the
        entries it had (the same inode and mtime: an entry added, removed
        or renamed changes its folder's mtime)."""
        for folder, stamp in self.listed.items():
            try:
                st = os.stat(folder)
            except OSError:
                return False
            if (st.st_ino, st.st_mtime_ns) != stamp:
                return False
        return True

    def grant(self, path: str, rights: int) -> None:
        """Give `rights` on `path` (which must exist; a file keeps only file rights)."""
        if not os.path.isdir(path):
            rights &= FILE_RIGHTS
        if rights:
            self.grants[path] = self.grants.get(path, 0) | rights

    def grant_except(self, path: str, rights: int, hidden: Iterable[str]) -> None:
        """Give `rights` on `path` and everything beneath it except the
        `hidden` paths (and what is beneath them)."""
        inside = [h for h in hidden if _within(h, path)]
        if not inside:
            if os.path.lexists(path):
                self.grant(path, rights)
            return
        if any(h == path for h in inside):
            return
        self.grant(path, READ_DIR & rights)
        stamp, children = _entries(path)
        if stamp is not None:
            self.listed[path] = stamp
        for child in children:
            self.grant_except(child, rights, inside)

    def rights_at(self, path: str) -> int:
        """The rights the rules give on `path` (resolved, absolute)."""
        rights = 0
        for granted, value in self.grants.items():
            if _within(path, granted):
                rights |= value
        return rights

    def allows(self, path: str, *, write: bool) -> bool:
        """Whether the rules let `path` be read (or written, if `write`)."""
        wanted = WRITE_FILE if write else _READ_FILE
        where = os.path.realpath(path)
        if write and not os.path.exists(where):
            # Creating a file needs a right on its folder.
            parent = os.path.dirname(where)
            return bool(self.rights_at(parent) & _MAKE_REG)
        return bool(self.rights_at(where) & wanted)

    def restrict(self, *, deny_tcp: bool, scope: bool) -> None:
        """Enforce the rules (and ``no_new_privs``) on the calling thread and
        what it starts from now on; irreversible for that thread.

        `deny_tcp`: no TCP connect or bind (Landlock ABI 4); `scope`: no
        signals to, and no abstract UNIX sockets of, processes outside the
        domain (ABI 6). Rights the kernel lacks are left out (best effort;
        `support` says which hold).
        """
        from landlockpy import AccessNet, Ruleset, Scope

        from mcp_harbor.runner.sandbox._linux import landlock_add_paths

        scoped = Scope.SIGNAL | Scope.ABSTRACT_UNIX_SOCKET if scope else Scope.NONE
        handled_net = AccessNet.CONNECT_TCP | AccessNet.BIND_TCP if deny_tcp else AccessNet.NONE
        handled = _handled_fs()
        with Ruleset(handled_net=handled_net, scoped=scoped) as ruleset:
            landlock_add_paths(
                ruleset.fileno(),
                (
                    (path, rights & handled)
                    for path, rights in self.grants.items()
                    if rights & handled
                ),
            )
            ruleset.restrict()


@functools.cache
def _handled_fs() -> int:
    """The filesystem rights this kernel's Landlock handles (what a
    landlockpy `Ruleset` handles by default, best effort: the latest ABI's
    rights masked by the running one's)."""
    from landlockpy import abi_version, fs_for_abi

    return int(fs_for_abi(abi_version()))


#: Each folder's entries that get rules, by path, with the folder's
#: (inode, mtime) when they were listed: a folder is listed again only once
#: an entry was added, removed or renamed (each changes its mtime).
_listed: dict[str, tuple[tuple[int, int], tuple[str, ...]]] = {}


def _entries(folder: str) -> tuple[tuple[int, int] | None, tuple[str, ...]]:
    """The entries of `folder` that get a rule of their own: not symlinks
    (what one points to is judged by its target's path) nor dangling; with
    the folder's (inode, mtime) when they were listed (None: it could not
    be listed)."""
    try:
        st = os.stat(folder)
    except OSError:
        return None, ()
    stamp = (st.st_ino, st.st_mtime_ns)
    known = _listed.get(folder)
    if known is not None and known[0] == stamp:
        return known
    try:
        names = os.listdir(folder)
    except OSError:
        return None, ()
    children = tuple(
        child
        for child in (os.path.join(folder, name) for name in names)
        if not os.path.islink(child) and os.path.exists(child)
    )
    _listed[folder] = (stamp, children)
    return stamp, children


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")
