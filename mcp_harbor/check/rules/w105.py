"""Rule W105 (xargs-without-null)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check.rules._base import Rule

__all__ = ["XargsWithoutNull"]


#: xargs options that make it split its input at NULs or a delimiter.
DELIMITER_OPTIONS = frozenset({"-0", "--null", "-d", "--delimiter"})


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

    @classmethod
    def delimits(cls, option: str) -> bool:
        """xargs's `option` (the word before any ``=``) makes it split its
        input at NULs or at a delimiter, not at blanks and quotes."""
        return option in DELIMITER_OPTIONS

    @classmethod
    def detect(cls, delimited: bool, stdin: Occ, where: Located) -> Hazard | None:
        """This rule's finding when caller data (`stdin`) is piped to xargs
        and no option of it `delimits` its input (`delimited`)."""
        if delimited:
            return None
        return cls.about(
            stdin,
            where,
            "caller data is piped to xargs without -0, so "
            "quotes and spaces in it are re-split by xargs",
            "use `printf '%s\\0' \"$ARG\" | xargs -0 …`",
        )
