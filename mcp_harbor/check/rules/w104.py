"""Rule W104 (raw-value-splits)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["RawValueSplits"]


class RawValueSplits(Rule):
    r"""A raw enum value with spaces or glob characters is unquoted.

    ## What it does
    Warns when a raw placeholder of an `enum` arg is unquoted and one of the
    values contains spaces or glob characters.

    ## Why is this bad?
    The value is split or glob-expanded. The author chose the words, so it is not
    injection, but it is rarely what was meant.

    ## Example
    ```yaml
    args: {mode: {enum: ["--oneline", "--stat --oneline"]}}
    steps: [{name: log, run: "git log {{ args.mode }}"}]
    ```

    ## Use instead
    Quote it (`"{{ args.mode }}"`) or use `| shellquote`.

    ## Known problems
    None.

    ## References
    - ShellCheck SC2086
    """

    id: ClassVar[str] = "W104"
    name: ClassVar[str] = "raw-value-splits"
    summary: ClassVar[str] = "A raw enum value with spaces or glob characters is unquoted."
    severity: ClassVar[Literal["error", "warning"]] = "warning"
