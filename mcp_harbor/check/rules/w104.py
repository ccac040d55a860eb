"""Rule W104 (raw-value-splits)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._contexts import SPLIT_GLOB, Quoting

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

    @classmethod
    def detect(
        cls, occ: Occ, quoting: Quoting, bad: frozenset[str], where: Located
    ) -> Hazard | None:
        """This rule's finding when the characters of the raw placeholder
        `occ` that are syntax in `quoting` (`bad`, from H001's table) only
        split or glob an unquoted word, and every value is one of the
        author's words (an `enum`); else None (H001 decides)."""
        if quoting == "unquoted" and bad <= SPLIT_GLOB and occ.model.words is not None:
            return cls.about(
                occ,
                where,
                "the raw placeholder is unquoted and one of its allowed values has spaces or "
                "glob characters, so it is split into several words or expanded as a pattern",
                "add `| shellquote` to the placeholder",
            )
        return None
