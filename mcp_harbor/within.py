"""Paths that stay inside a folder: the ``within:`` arg keyword at call time.

An arg declaring ``within: FOLDER`` (a string arg, or an array of strings:
each item) takes a path, and a call is refused unless that path, resolved
the way the kernel would resolve it from where the steps run, is FOLDER or
lies inside it. FOLDER is relative to the server's working directory
(``.`` is the working directory itself) or absolute.

Resolution (`resolve`) follows ``..`` and symbolic links component by
component, as `os.path.realpath` does: a symlink anywhere in the path, the
last component and a dangling one included, is replaced by its target. A
component that does not exist (yet) is kept as written, and so is the rest
of the path after it (``..`` then removes the component before it), so a
path to be created is judged by its longest existing prefix. More than 40
symlinks (the kernel's limit, and every symlink loop) cannot be resolved:
the call is refused. The folder is resolved the same way, so a working
directory reached through a symlink holds the paths inside its target.

The value the steps receive is the value the caller sent, never the
resolved path: the check only admits or refuses.

Known limits, each held by another layer:

- **Time of check to time of use.** The check runs before the pipeline
  starts; a symlink inside the folder that is swapped afterwards (by a
  step, or anyone else who can write there) can still lead out. The
  sandbox of the run (what it may read and write) is the layer that holds
  then.
- **What the program does below the path.** The check is about the path
  given, not about what the program reaches from there: ``grep -R`` or
  ``find -L`` follow symlinks inside the folder that point out of it.
- **Where the check runs.** It runs in the server's process, on the
  server's file system: a run on a worker (``runs_on:``) is judged by the
  server's view of the working directory's path, not the worker's.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MAX_SYMLINKS", "Confinement", "is_inside", "resolve"]

#: Symlinks followed in one resolution before it is refused as a loop (the
#: Linux kernel's own limit, ``MAXSYMLINKS``).
MAX_SYMLINKS = 40


def resolve(path: str, base: str | os.PathLike[str]) -> str:
    """The absolute, symlink-free path that `path` (relative to `base`, or
    absolute) names, as `os.path.realpath` would give it.

    Guarantees: every existing component is looked at with ``lstat`` and a
    symlink is replaced by its target (``readlink``); ``.``, empty
    components and trailing slashes are dropped; ``..`` goes to the parent
    of what has been resolved so far (never above ``/``). A component that
    cannot be looked at (it does not exist, a file stands where a folder
    should, it cannot be encoded) is kept as written. Nothing is created or
    changed.

    Raises:
        OSError: ``ELOOP``, when more than `MAX_SYMLINKS` symlinks would be
            followed (a symlink loop).
    """
    start = os.fspath(base)
    if not start.startswith("/"):
        start = os.path.join(os.getcwd(), start)
    whole = path if path.startswith("/") else f"{start}/{path}"
    pending = whole.split("/")
    pending.reverse()  # a stack: the next component is pending[-1]
    resolved = "/"
    followed = 0
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            resolved = os.path.dirname(resolved)
            continue
        candidate = os.path.join(resolved, part)
        try:
            mode = os.lstat(candidate).st_mode
        except (OSError, ValueError):  # missing, not a folder, not encodable
            resolved = candidate
            continue
        if not stat.S_ISLNK(mode):
            resolved = candidate
            continue
        followed += 1
        if followed > MAX_SYMLINKS:
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)
        try:
            target = os.readlink(candidate)
        except OSError:  # gone since the lstat: judged as it is now, missing
            resolved = candidate
            continue
        if target.startswith("/"):
            resolved = "/"
        pending.extend(reversed(target.split("/")))
    return resolved


def is_inside(resolved: str, folder: str) -> bool:
    """Whether the resolved path `resolved` is the resolved `folder` or lies
    inside it (both as `resolve` returns them: absolute, normalised)."""
    if folder == "/":
        return True
    return resolved == folder or resolved.startswith(folder + "/")


@dataclass(frozen=True, slots=True)
class Confinement:
    """The ``within:`` of one arg: `folder` as written in the export,
    whether the arg is an array (`items`: each string item is a path) and
    whether it is secret (a refusal then shows neither value nor its
    resolution)."""

    arg: str
    folder: str
    items: bool = False
    secret: bool = False

    def problems(self, value: object, workdir: Path, bases: Sequence[Path] = ()) -> list[str]:
        """What is wrong with `value` (the arg's value, or array of values),
        as messages for the caller; empty when every path stays inside.

        Args:
            value: the validated value; anything but a string (an array's
                non-string items too) is not looked at.
            workdir: the server's working directory, which `folder` is
                relative to.
            bases: the folders the steps run in (a relative value is judged
                from each of them); empty: `workdir` alone.
        """
        try:
            folder = resolve(self.folder, workdir)
        except OSError:
            return [
                f"argument {self.arg!r}: the folder it must stay within ({self.folder!r} in "
                f"{workdir}) cannot be resolved: more than {MAX_SYMLINKS} symbolic links (a "
                f"symlink loop?); no path can be admitted (rule: within)"
            ]
        if self.items:
            if not isinstance(value, list):
                return []
            texts = [(f"[{i}]", v) for i, v in enumerate(value) if isinstance(v, str)]
        elif isinstance(value, str):
            texts = [("", value)]
        else:
            return []
        out: list[str] = []
        for inner, text in texts:
            problem = self._problem(inner, text, folder, workdir, list(bases) or [workdir])
            if problem is not None:
                out.append(problem)
        return out

    def _problem(
        self, inner: str, text: str, folder: str, workdir: Path, bases: list[Path]
    ) -> str | None:
        where = f"argument {self.arg!r}{inner}"
        shown = "the value (secret, not shown)" if self.secret else repr(text)
        for base in dict.fromkeys(bases):  # each folder once, in order
            try:
                resolved = resolve(text, base)
            except OSError:
                return (
                    f"{where}: {shown} cannot be resolved: more than {MAX_SYMLINKS} symbolic "
                    f"links (a symlink loop?); give a path inside {folder} (rule: within)"
                )
            if is_inside(resolved, folder):
                continue
            onto = "" if base == workdir else f" from {base}, where a step runs,"
            to = " to a path" if self.secret else f" to {resolved},"
            return (
                f"{where}: {shown} resolves{onto}{to} outside {folder} (the folder this "
                f"argument must stay within); give a path inside it (rule: within)"
            )
        return None
