"""Rule W101 (option-injection)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Word
from mcp_harbor.check.rules._base import Rule

__all__ = ["OptionInjection"]


class OptionInjection(Rule):
    r"""A value that can start with `-` is printed with `echo`.

    ## What it does
    Warns when a caller value that can start with `-` (an arg with
    `leading_dash: true`, or an integer without a `minimum`) is an operand of
    `echo`. Every other program refuses such a value outside a position its
    known grammar makes inert (H009); `echo` runs nothing and writes no file,
    so this is only a warning.

    ## Why is this bad?
    `echo` reads `-n`, `-e` and `-E` as its own options, and does not take
    `--`: the value `-e` prints nothing, `-e \x41` prints `A`.

    ## Example
    ```yaml
    run: echo {{ args.text | shellquote }}
    ```

    ## Use instead
    ```yaml
    run: printf '%s\n' {{ args.text | shellquote }}
    ```

    ## Known problems
    None known.

    ## References
    - CWE-88
    """

    id: ClassVar[str] = "W101"
    name: ClassVar[str] = "option-injection"
    summary: ClassVar[str] = "A value that can start with `-` is printed with `echo`."
    severity: ClassVar[Literal["error", "warning"]] = "warning"

    @classmethod
    def detect(cls, program: str | None, word: Word, where: Located) -> Hazard | None:
        """This rule's finding when `word`, whose value can start with `-`
        and stands where `program` reads options, is an operand of
        ``echo`` (which takes no ``--``); None for any other program."""
        if program != "echo":
            return None
        return cls.about(
            word,
            where,
            "the value can start with `-`, so `echo` may read it as its own option "
            "(`-n`, `-e`) and print something else",
            "print the value with printf '%s\\n' \"$ARG\" instead of echo",
        )
