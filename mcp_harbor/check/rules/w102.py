"""Rule W102 (unquoted-expansion)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._contexts import SPLIT_GLOB, Quoting
from mcp_harbor.check.rules._forms import arithmetic_name

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
    Assignments, `[[ ]]` and `case` do not split and are not warned about;
    nor is a name that arithmetic reads without `$` (`$(( ARG_n * 2 ))`,
    `(( ARG_n > 2 ))`, `a[ARG_n]`): bash evaluates it to a number and never
    splits its text (a non-numeric value there is H006's). A variable the
    checker cannot bound (the output of a command, say) is warned about
    when unquoted although its value may never hold a blank.

    ## References
    - ShellCheck SC2086
    """

    id: ClassVar[str] = "W102"
    name: ClassVar[str] = "unquoted-expansion"
    summary: ClassVar[str] = "`$ARG_x` or a variable carrying caller data is expanded unquoted."
    severity: ClassVar[Literal["error", "warning"]] = "warning"

    @classmethod
    def detect(
        cls,
        occ: Occ,
        quoting: Quoting,
        where: Located,
        *,
        no_split: Callable[[], bool],
        in_for_list: Callable[[], bool],
    ) -> Hazard | None:
        """This rule's finding about the expansion `occ` of caller data in
        `quoting`: unquoted where bash splits words (`no_split`: it stands
        where bash does not, an assignment, ``case``, ``[[ ]]``, a
        here-string) and its value can hold a blank or a glob character.
        In a ``for`` list (`in_for_list`) the split is meant, the globbing
        not. None otherwise. The facts are asked in that order, only as
        needed."""
        if arithmetic_name(occ):
            return None  # arithmetic reads the name: no text of it is split
        if quoting != "unquoted" or no_split() or not occ.model.chars & SPLIT_GLOB:
            return None
        shown = occ.var if occ.var == "$(…)" else f"${occ.var}"
        if in_for_list():
            return cls.about(
                occ,
                where,
                f"`{shown}` in a `for` list is split on purpose, but glob characters "
                "in it also match file names",
                f'split it without globbing: read -ra items <<< "{shown}", then '
                'for … in "${items[@]}"',
            )
        return cls.about(
            occ,
            where,
            f"`{shown}` is unquoted, so a value with blanks or glob characters is split "
            "into words and glob-expanded",
            f'write "{shown}" (in double quotes)',
        )
