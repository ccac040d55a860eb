"""bash's own reading of a script: ``bash --pretty-print``, many scripts per process.

``bash --pretty-print`` parses its input exactly as ``bash`` would run it and
prints every top-level command back in bash's canonical form, executing
nothing (bash 5.1 and later). That reprint is what the checker holds
tree-sitter's parse against (`mcp_harbor.check._authority`): comments are
gone, line continuations joined, ``<<-`` tabs stripped, and every command
substitution bash parsed at parse time is printed in canonical spacing while
text bash reads as literal (quotes, here-document bodies, backticks) is
printed as written.

Scripts are batched: one process reads up to `BATCH` scripts, each followed
by a marker command ``:   hbMARK_<nonce>_<k>  $(  :  )`` that bash prints as
``: hbMARK_<nonce>_<k> $(:)`` only when it parsed the marker as a top-level
command of its own. A script that leaves anything open (a quote, a
here-document, a compound command, a trailing ``\\``) swallows or changes the
next marker; so the batch is taken only when every marker comes back in its
canonical form, on a line of its own, in order, with nothing on stderr and
exit status 0. Otherwise each script of the batch is read by a process of its
own, and its verdict is exactly what that process said.

Guarantees:

- Nothing of a script is executed.
- A reprint is returned only for a script that its own parse accepted with
  no output on stderr (a warning such as an unterminated here-document
  counts as a failure); every failure is a verdict that refuses.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import subprocess
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from mcp_harbor.check._gates import BASH

__all__ = ["BATCH", "Reprint", "clear_cache", "reprint", "reprints"]

#: Scripts per ``bash --pretty-print`` process.
BATCH = 256
_TIMEOUT = 10.0
_ENV = {"PATH": "/usr/bin:/bin", "LC_CTYPE": "C.UTF-8", "HOME": "/", "SHELL": BASH}
_cache: dict[str, Reprint] = {}
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class Reprint:
    """bash's reading of one script: `text` (its canonical reprint) when bash
    parsed it silently, else `error` (what bash said, or why it could not)."""

    text: str | None
    error: str | None


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _run(data: str) -> tuple[int, str, str]:
    try:
        proc = subprocess.run(
            [BASH, "--noprofile", "--norc", "--pretty-print"],
            input=data.encode("utf-8"),
            capture_output=True,
            env=_ENV,
            timeout=_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return -1, "", f"bash --pretty-print did not finish within {_TIMEOUT:g} s"
    except OSError as exc:
        return -1, "", f"bash --pretty-print could not run: {exc}"
    return (
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def _alone(text: str) -> Reprint:
    code, out, err = _run(text if text.endswith("\n") else text + "\n")
    if code != 0 or err.strip():
        return Reprint(None, err.strip() or f"bash --pretty-print exited with status {code}")
    return Reprint(out.strip("\n") + "\n", None)


def _batch(texts: Sequence[str]) -> list[Reprint]:
    nonce = secrets.token_hex(8)
    if len(texts) == 1 or any("hbMARK" in t for t in texts):
        return [_alone(t) for t in texts]
    parts: list[str] = [f":   hbMARK_{nonce}_0  $(  :  )\n"]
    for k, text in enumerate(texts, 1):
        parts.append(text if text.endswith("\n") else text + "\n")
        parts.append(f":   hbMARK_{nonce}_{k}  $(  :  )\n")
    code, out, err = _run("".join(parts))
    if code == 0 and not err.strip():
        lines = out.split("\n")
        found: list[int] = []
        expected = 0
        for index, line in enumerate(lines):
            if line == f": hbMARK_{nonce}_{expected} $(:)":
                found.append(index)
                expected += 1
        if expected == len(texts) + 1 and sum(1 for ln in lines if nonce in ln) == expected:
            return [
                Reprint("\n".join(lines[a + 1 : b]).strip("\n") + "\n", None)
                for a, b in itertools.pairwise(found)
            ]
    return [_alone(t) for t in texts]


def reprints(texts: Iterable[str]) -> list[Reprint]:
    """bash's reading of each of `texts`, in order (cached by content)."""
    texts = list(texts)
    keys = [_key(t) for t in texts]
    with _lock:
        todo = {k: t for k, t in zip(keys, texts, strict=True) if k not in _cache}
    if todo:
        items = list(todo.items())
        chunks = [items[i : i + BATCH] for i in range(0, len(items), BATCH)]
        if len(chunks) == 1:
            results = [_batch([t for _, t in chunks[0]])]
        else:
            with ThreadPoolExecutor(max_workers=2) as pool:
                results = list(pool.map(lambda c: _batch([t for _, t in c]), chunks))
        with _lock:
            for chunk, result in zip(chunks, results, strict=True):
                for (key, _text), verdict in zip(chunk, result, strict=True):
                    _cache[key] = verdict
    with _lock:
        return [_cache[k] for k in keys]


def reprint(text: str) -> Reprint:
    """bash's reading of `text`."""
    return reprints([text])[0]


def clear_cache() -> None:
    """Forget every reprint (benchmarks, tests)."""
    with _lock:
        _cache.clear()
