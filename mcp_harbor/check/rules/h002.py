"""Rule H002 (shellquote-in-quoted-context)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._contexts import CONTEXT_NAMES, Quoting
from mcp_harbor.check.rules.h007 import AFTER_DOLLAR, after_dollar_fix

__all__ = ["ShellquoteInQuotedContext"]


#: The fix of a shellquoted placeholder, by the context it is in.
CONTEXT_FIXES: Mapping[Quoting, str] = {
    "double": "remove the double quotes around the placeholder (shellquote already makes one "
    'word), or write "$ARG" instead of the placeholder',
    "single": 'close the single quotes before the placeholder, or write "$ARG" outside them',
    "ansi-c": "move the placeholder out of the `$'…'` string",
    "heredoc": "write $ARG in the here-document instead (an unquoted delimiter expands it "
    "once, without re-parsing)",
    "heredoc-quoted": "feed the value on stdin another way, e.g. printf '%s\\n' \"$ARG\" |",
    "comment": "remove the placeholder from the comment",
    "backticks": 'replace the backticks with $( … ) and write the placeholder there, or use "$ARG"',
    "parameter-expansion": 'write "$ARG" instead of a placeholder inside `${…}`',
    "heredoc-delimiter": "use a fixed here-document delimiter",
}


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

    @classmethod
    def detect(cls, occ: Occ, quoting: Quoting, before: str, where: Located) -> Hazard | None:
        """This rule's finding about the shellquoted placeholder `occ` in
        `quoting` (`before`: the character before it): right after `$` (it
        becomes `$'…'`) or `\\` (which escapes the opening quote), or in a
        context where shlex's single quotes are not quotes, unless every value
        is inert there; else None."""
        model = occ.model
        if before == "$":
            return cls.about(occ, where, AFTER_DOLLAR, after_dollar_fix(occ.arg))
        if before == "\\":
            return cls.about(
                occ,
                where,
                "the shellquoted placeholder follows a backslash, which escapes the opening quote",
                "remove the backslash before the placeholder",
            )
        if (
            quoting != "unquoted"
            and not (model.inert and quoting not in ("heredoc-delimiter", "parameter-expansion"))
            and not (quoting in ("comment", "heredoc-quoted") and not model.chars & {"\n", "\r"})
        ):
            return cls.about(
                occ,
                where,
                f"the shellquoted placeholder is inside {CONTEXT_NAMES[quoting]}, where "
                "shlex's single quotes are not quotes, so `$(…)`, backticks or a `'` in "
                "the value escape",
                CONTEXT_FIXES.get(
                    quoting, "write the placeholder as its own unquoted word"
                ).replace("ARG", "ARG_" + occ.arg),
            )
        return None
