"""Why a connection failed, in a few words, for a reason or an error."""

from __future__ import annotations

import os

__all__ = ["connection_reason"]


def connection_reason(exc: BaseException) -> str:
    """``connection refused`` for a failed connect, whatever wraps it.

    The first operating-system error of the exception's chain (its cause or
    context; anyio hides a refusal behind ``All connection attempts
    failed``) names it; else the exception's own text, cut at 120
    characters, starting in lower case."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if isinstance(link, OSError) and link.errno:
            return os.strerror(link.errno).lower()
        link = link.__cause__ or link.__context__
    text = str(exc).strip() or type(exc).__name__
    if text.startswith("[Errno") and "] " in text:
        text = text.split("] ", 1)[1]
    return text[:1].lower() + text[1:120]
