"""Rule W105 (xargs-without-null)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["XargsWithoutNull"]


class XargsWithoutNull(Rule):
    r"""Caller data is piped to xargs without `-0`.

    ## What it does
    Warns when caller data reaches the standard input of `xargs` and xargs does not
    use `-0` or `-d`.

    ## Why is this bad?
    xargs re-splits its input on blanks and interprets quotes and backslashes, so
    the command receives different arguments than intended.

    ## Example
    ```yaml
    run: echo "$ARG_files" | xargs rm
    ```

    ## Use instead
    ```yaml
    run: printf '%s\0' "$ARG_files" | xargs -0 rm --
    ```

    ## Known problems
    None.

    ## References
    - xargs(1)
    """

    id: ClassVar[str] = "W105"
    name: ClassVar[str] = "xargs-without-null"
    summary: ClassVar[str] = "Caller data is piped to xargs without `-0`."
    severity: ClassVar[Literal["error", "warning"]] = "warning"
