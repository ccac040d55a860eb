"""Rule W101 (option-injection)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["OptionInjection"]


class OptionInjection(Rule):
    r"""A value that can start with `-` where a command reads options.

    ## What it does
    Warns when a caller value can start with `-` in an operand position of an
    ordinary command and no `--` precedes it.

    ## Why is this bad?
    The program may read the value as an option (`rm -rf`, `--output=…`).

    ## Example
    ```yaml
    run: cat {{ args.file | shellquote }}
    ```

    ## Use instead
    ```yaml
    run: cat -- {{ args.file | shellquote }}
    ```

    ## Known problems
    Commands that do not take `--` (echo) are not warned about.

    ## References
    - CWE-88
    """

    id: ClassVar[str] = "W101"
    name: ClassVar[str] = "option-injection"
    summary: ClassVar[str] = "A value that can start with `-` where a command reads options."
    severity: ClassVar[Literal["error", "warning"]] = "warning"
