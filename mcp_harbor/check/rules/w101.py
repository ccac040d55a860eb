"""Rule W101 (option-injection)."""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ, Word
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._forms import arithmetic_name, derived, shown, word_text

__all__ = ["OptionInjection", "may_be_echo_option"]


class OptionInjection(Rule):
    r"""A value that can start with `-` is printed with `echo`.

    ## What it does
    Warns when a caller value that can start with `-` (an arg with
    `leading_dash: true`, or a variable whose value the checker cannot
    bound) starts an operand of `echo` that can be exactly one of echo's
    options. Every other program refuses such a value outside a position its
    known grammar makes inert (H009); `echo` runs nothing and writes no file,
    so this is only a warning.

    bash's `echo` reads an operand as options only when the whole word is
    `-` followed by letters among `n`, `e` and `E`. So a value inside a word
    (`"$i/{{ args.seconds }} unit"`), a word with any other text of the
    author's, a number (`{type: integer}`: digits, whatever its sign), and
    an arithmetic result (`$(( ARG_n * 2 ))`) are never warned about.

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
    `/bin/echo` (coreutils) also reads a lone `--help` or `--version`; the
    rule follows bash's builtin, which the script's `echo` is.

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
        ``echo`` (which takes no ``--``) that can be exactly one of echo's
        options (`may_be_echo_option`); None for any other program or word."""
        if program != "echo" or not may_be_echo_option(word):
            return None
        occ = word.occs[0]
        if derived(occ):
            why = (
                f"the checker cannot show that {shown(occ)} does not start with `-`, "
                "and as the whole word it can be one of `echo`'s own options "
                "(`-n`, `-e`), so echo may print something else"
            )
        else:
            why = (
                f"{shown(occ)} can start with `-`, and as the whole word it can be one of "
                "`echo`'s own options (`-n`, `-e`), so echo may print something else"
            )
        shown_var = f"${occ.var}" if derived(occ) and occ.var != "$(…)" else "$ARG"
        return cls.about(
            word,
            where,
            why,
            f"print the value with printf '%s\\n' \"{shown_var}\" instead of echo",
        )


#: What bash's builtin echo reads as options: `-` then these, the whole word.
_OPTION_CHARS = frozenset("-neE")
#: quote characters, removed before the word is read
_QUOTES = frozenset("\"'")


def _can_fit(occ: Occ) -> bool:
    """`occ` can expand to text made only of ``-``, ``n``, ``e``, ``E``
    (the empty text included)."""
    if arithmetic_name(occ):
        return False  # its arithmetic yields a number, digits at least
    model = occ.model
    if model.words is not None:
        return any(re.fullmatch(r"[-neE]*", w) for w in model.words)
    if model.numeric:
        return False  # a number has a digit; a boolean is true or false
    return model.can_be_empty or bool(model.chars & _OPTION_CHARS)


def may_be_echo_option(word: Word) -> bool:
    """`word` can expand to exactly ``-`` followed by ``n``, ``e`` or ``E``
    (what bash's ``echo`` reads as options): it starts with the value of
    its first occurrence (or with the author's ``-``), every occurrence
    can expand to such letters, and every character of the author's text
    in it is one of them (or a quote). Unknown text (a word the analysis
    built without a node): as its first occurrence's model allows."""
    if word.splits:
        return any("-" in o.model.chars for o in word.occs if not arithmetic_name(o))
    if not word.occs:
        return False
    if word.prefix:
        if not word.prefix.startswith("-"):
            return False
    elif not word.occs[0].model.may_start_with_dash:
        return False
    if not all(_can_fit(o) for o in word.occs):
        return False
    text = word_text(word)
    if text is None:
        return True
    static = bytearray()
    last = word.start
    for occ in sorted(word.occs, key=lambda o: o.start):
        static += text[last - word.start : occ.start - word.start]
        last = max(last, occ.end)
    static += text[last - word.start :]
    return set(static.decode("utf-8", "replace")) <= _OPTION_CHARS | _QUOTES
