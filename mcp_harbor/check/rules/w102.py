"""Rule W102 (unquoted-expansion)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["UnquotedExpansion"]


class UnquotedExpansion(Rule):
    r"""`$ARG_x` or a variable carrying caller data is expanded unquoted.

    ## What it does
    Warns when `$ARG_x` (or a shell variable assigned from caller data) is
    expanded outside double quotes and its value may contain spaces or glob
    characters.

    ## Why is this bad?
    The value is split into several words and each is glob-expanded: not code,
    but the command receives arguments the author did not intend.

    ## Example
    ```yaml
    run: ls $ARG_dir
    ```

    ## Use instead
    ```yaml
    run: ls -- "$ARG_dir"
    ```

    ## Known problems
    Assignments, `[[ ]]` and `case` do not split and are not warned about.

    ## References
    - ShellCheck SC2086
    """

    id: ClassVar[str] = "W102"
    name: ClassVar[str] = "unquoted-expansion"
    summary: ClassVar[str] = "`$ARG_x` or a variable carrying caller data is expanded unquoted."
    severity: ClassVar[Literal["error", "warning"]] = "warning"
