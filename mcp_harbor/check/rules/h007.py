"""Rule H007 (value-as-name)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check.rules._base import Rule

__all__ = ["ValueAsName"]


#: What a placeholder right after `$` becomes (raw: this rule; shellquoted: H002).
AFTER_DOLLAR = (
    "the placeholder follows `$`, so the value becomes a parameter name or `$'…'` quoting"
)


class ValueAsName(Rule):
    r"""The value is a variable or parameter name, or a printf format.

    ## What it does
    Flags a caller value used as a name: `printf -v NAME`, `read NAME`,
    `declare`/`export`/`unset` operands, `test -v`, `${!x}`, `declare -n`, a
    placeholder after `$`; and a caller value used as printf's format.

    ## Why is this bad?
    The caller chooses which variable is read or written (PATH, IFS…), and names
    with subscripts are evaluated as arithmetic. A format interprets `%` and
    backslashes.

    ## Example
    ```yaml
    run: printf {{ args.msg | shellquote }}
    ```

    ## Use instead
    ```yaml
    run: printf '%s\n' {{ args.msg | shellquote }}
    ```

    ## Known problems
    An `enum` of identifiers is accepted as a name.

    ## References
    - bash(1), `printf`, `declare`
    """

    id: ClassVar[str] = "H007"
    name: ClassVar[str] = "value-as-name"
    summary: ClassVar[str] = "The value is a variable or parameter name, or a printf format."
    severity: ClassVar[Literal["error", "warning"]] = "error"

    @classmethod
    def after_dollar(cls, occ: Occ, before: str, where: Located) -> Hazard | None:
        """This rule's finding when the raw placeholder `occ` follows `$`
        (`before`: the character before it): the value is a parameter name."""
        if before != "$":
            return None
        return cls.about(occ, where, AFTER_DOLLAR, after_dollar_fix(occ.arg))


def after_dollar_fix(arg: str) -> str:
    """The fix of a placeholder of `arg` written right after `$`."""
    return 'remove the `$` before the placeholder, or pass the value as "$ARG_' + arg + '"'
