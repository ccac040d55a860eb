"""Rule H002 (shellquote-in-quoted-context)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["ShellquoteInQuotedContext"]


class ShellquoteInQuotedContext(Rule):
    r"""A shellquoted placeholder inside quotes, a here-doc, backticks, or after `\\` or `$`.

    ## What it does
    Flags `{{ args.x | shellquote }}` anywhere but as an unquoted word or part of
    an unquoted word: inside `"…"`, `'…'`, `$'…'`, `${…}`, backticks, here-document
    bodies and comments, and right after `$` or `\\`.

    ## Why is this bad?
    `shlex.quote` produces single-quoted text. Inside double quotes the single
    quotes are literal, so `$(…)` and backticks in the value run, and a `'` in the
    value makes shlex emit `"'"'`, whose `"` ends the outer string. A here-doc body
    is expanded like double quotes; a comment ends at a newline; backticks re-scan
    backslashes.

    ## Example
    ```yaml
    run: echo "Hello {{ args.name | shellquote }}"
    ```

    ## Use instead
    ```yaml
    run: echo Hello {{ args.name | shellquote }}    # or: echo "Hello $ARG_name"
    ```

    ## Known problems
    None known: the fix is always to drop the surrounding quotes or use `"$ARG_x"`.

    ## References
    - Python `shlex.quote`
    - bash(1), QUOTING
    """

    id: ClassVar[str] = "H002"
    name: ClassVar[str] = "shellquote-in-quoted-context"
    summary: ClassVar[str] = (
        "A shellquoted placeholder inside quotes, a here-doc, backticks, or after `\\` or `$`."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
