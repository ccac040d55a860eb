"""What the sandbox did to a step that failed, told from what the step
printed and how it ended (`explain_denial`): ``sandbox denied write to
/etc/x`` rather than a bare ``Permission denied``.

Landlock and the namespaces answer with ordinary errors (EACCES,
ENETUNREACH), so the explanation is a judgement: a path the step said it
was denied is named only when the step's rules do not allow it, and a limit
only when the step had that limit.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

from mcp_harbor.runner.sandbox.confinement import Confinement

__all__ = ["explain_denial"]

# The path a message says was denied: the word before the error (``cat:
# /x: Permission denied``, ``touch: cannot touch '/x': …``, bash's ``x: …``)
# or the one after it (Python's ``Permission denied: '/x'``).
_DENIED_PATH = re.compile(
    r"""(?:'([^'\n]+)'|"([^"\n]+)"|([^\s:'"]+)): """
    r"""(?:Permission denied|Operation not permitted|Read-only file system)"""
    r"""|(?:Permission denied|Operation not permitted|Read-only file system): '([^'\n]+)'"""
)
_DENIAL = re.compile(r"Permission denied|Operation not permitted|Read-only file system")
_QUOTED = re.compile(r"['‘`]([^'’\n]+)['’]")
# bash names the script before its own messages: ``/dev/fd/11: line 3: x: …``.
_BASH_PREFIX = re.compile(r"^\S+: line \d+: ")
_WRITE_WORDS = re.compile(
    r"cannot (?:create|touch|remove|move|open .* for writing|overwrite)|"
    r"mkdir|Read-only|rm:|cp:|mv:|tee:|ln:|>|write|No space",
    re.IGNORECASE,
)
_NETWORK = re.compile(
    r"Network is unreachable|Cannot assign requested address|Temporary failure in name resolution|"
    r"Could not resolve host|Name or service not known|Connection refused|"
    # Landlock's TCP rule answers EACCES: a connect or bind said nearby.
    r"(?:connect|bind|socket)[\s\S]{0,300}Permission denied|"
    r"Permission denied[\s\S]{0,300}(?:connect|bind|socket)",
    re.IGNORECASE,
)
_MEMORY = re.compile(r"MemoryError|Cannot allocate memory|memory exhausted|out of memory", re.I)
_PROCESSES = re.compile(
    r"Resource temporarily unavailable|fork: retry|BlockingIOError|EAGAIN", re.I
)
_FILES = re.compile(r"Too many open files", re.I)


def explain_denial(
    confinement: Confinement | None, printed: str, exit_code: int | None, cwd: Path
) -> str | None:
    """Why the sandbox stopped the step, as one line, judged from what it
    `printed` (the tails of its stderr and stdout) and its exit code; None
    when nothing shows that it did (the step's own failure)."""
    if confinement is None:
        return None
    limits = confinement.limits
    if limits is not None and exit_code is not None and exit_code > 128:
        sig = exit_code - 128
        if sig == signal.SIGXCPU and limits.cpu_seconds is not None:
            return f"sandbox limit reached: cpu_seconds {limits.cpu_seconds} (killed by SIGXCPU)"
        if sig == signal.SIGXFSZ and limits.file_size_mb is not None:
            return f"sandbox limit reached: file_size_mb {limits.file_size_mb} (killed by SIGXFSZ)"
        if sig == signal.SIGKILL and limits.cpu_seconds is not None:
            return f"sandbox limit reached: cpu_seconds {limits.cpu_seconds} (killed)"
    if limits is not None:
        if limits.memory_mb is not None and _MEMORY.search(printed):
            return f"sandbox limit reached: memory_mb {limits.memory_mb} (an allocation failed)"
        if limits.processes is not None and _PROCESSES.search(printed):
            return f"sandbox limit reached: processes {limits.processes} (a fork failed)"
        if limits.open_files is not None and _FILES.search(printed):
            return f"sandbox limit reached: open_files {limits.open_files}"
    if confinement.network != "host" and _NETWORK.search(printed):
        return f"sandbox denied network access (network: {confinement.network})"
    rules = confinement.rules
    covered = (*confinement.covered, *confinement.covered_files)
    if rules is None and not covered:
        return None
    for line in printed.splitlines():
        line = _BASH_PREFIX.sub("", line)
        if not _DENIAL.search(line):
            continue
        named = [next(g for g in groups if g) for groups in _DENIED_PATH.findall(line)]
        # Else any quoted path of the line (``cannot open '/x' for reading: …``).
        named += [q for q in _QUOTED.findall(line) if "/" in q]
        for text in named:
            path = os.path.join(cwd, os.path.expanduser(text))
            said = line.replace(text, " ")
            write = bool(_WRITE_WORDS.search(said)) or not os.path.exists(path)
            real = os.path.realpath(path)
            if any(real == c or real.startswith(c.rstrip("/") + "/") for c in covered):
                how = "write to" if write or "Read-only" in said else "read of"
                return f"sandbox denied {how} {os.path.normpath(path)}"
            if rules is None:
                continue
            if write and not rules.allows(path, write=True):
                return f"sandbox denied write to {os.path.normpath(path)}"
            if not rules.allows(path, write=False):
                return f"sandbox denied read of {os.path.normpath(path)}"
            if not rules.allows(path, write=True):
                return f"sandbox denied write to {os.path.normpath(path)}"
    return None
