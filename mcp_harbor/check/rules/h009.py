"""Rule H009 (option-runs-code)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from mcp_harbor.check import sinks
from mcp_harbor.check._facts import Hazard, Located, Word
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._forms import derived, shown
from mcp_harbor.check.rules.w101 import OptionInjection

__all__ = ["OptionRunsCode"]


class OptionRunsCode(Rule):
    r"""A value that can start with `-` reaches a place where it can be an option.

    ## What it does
    Refuses a caller value that can start with `-` (a string arg with
    `leading_dash: true`, an integer or number without a non-negative
    `minimum`) anywhere on a program's command line except where the
    checker knows the program's option grammar and the place is inert:
    after `--` for a program known to end its options there
    (`sinks.GRAMMARS`, or declared under `programs:`), or as the value of an
    option that always takes one (`grep -e`). A program the checker does not
    know is refused outright: `--` is only that program's promise.

    ## Why is this bad?
    `git clone --upload-pack='touch /tmp/x' …`, `ssh -oProxyCommand=…`,
    `tar --checkpoint-action=exec=…`, `find -delete`, `kill -1`: an option is
    enough to run code or do harm (CWE-88), and which options do is a
    property of each program that no list of known-dangerous options covers.

    ## Example
    ```yaml
    args:
      url: {type: string, leading_dash: true}
    steps:
      - run: git clone {{ args.url | shellquote }}
    ```

    ## Use instead
    Drop `leading_dash: true` (the validator then refuses values starting
    with `-`), or put `--` before the value of a known program:
    ```yaml
    run: git clone -- {{ args.url | shellquote }}
    ```
    For an in-house program, declare its grammar under `programs:`.

    ## Known problems
    Attached values (`--name={{ args.x | shellquote }}`) are not options and
    are accepted; what the program then does with the value is its own.

    ## References
    - CWE-88
    """

    id: ClassVar[str] = "H009"
    name: ClassVar[str] = "option-runs-code"
    summary: ClassVar[str] = (
        "A value that can start with `-` reaches a place where it can be an option."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"

    @classmethod
    def detect(
        cls,
        program: str | None,
        prev: str | None,
        word: Word,
        grammar: sinks.Grammar | None,
        where: Located,
    ) -> Hazard | None:
        """The finding about `word`, an argument of `program` (None: not
        known) whose value may start with `-` and that stands before any
        ``--``, after the word `prev`, with `grammar` the option grammar the
        checker knows for `program` (`mcp_harbor.check.sinks.GRAMMARS`,
        ``programs:``).

        A program that only prints or ignores its operands reads no option
        that acts: only ``echo``'s own options are a warning (W101,
        `OptionInjection`). The value is inert as the value of an option
        that always takes one in a known grammar (`takes_value`), unless
        the word may split. Anywhere else this rule refuses it, with advice
        by what is known: a number gets a `minimum`, an unknown program its
        grammar under ``programs:``, a known one ``--``."""
        if program in sinks.INERT_COMMANDS:
            return OptionInjection.detect(program, word, where)
        if grammar is not None and not word.splits and takes_value(prev, grammar):
            return None
        prog = f"`{program}`" if program else "the program"
        occ = word.occs[0]
        if derived(occ):
            # the value is computed from the arg (a variable, a command's
            # output): the arg's schema is not what to change
            var = "the value" if occ.var == "$(…)" else f"`${occ.var}`"
            why = (
                f"the checker cannot show that {shown(occ)} does not start with `-`, and "
                f"it stands where {prog} reads options"
            )
            if grammar is None:
                fix = (
                    f"make sure {var} cannot start with `-` (prefix a path with ./), or "
                    f"declare {prog} under `programs:` (its options that take a value, and "
                    "that `--` ends its options) and put `--` before the value"
                )
            else:
                fix = f"put `--` before the value, or make sure {var} cannot start with `-`"
            return cls.about(word, where, why, fix)
        if all(o.model.numeric for o in word.occs):
            return cls.about(
                word,
                where,
                f"the value is a number that can be negative, and {prog} reads `-1` as an "
                "option (or, as a PID, as every process)",
                f"give arg {word.arg!r} a `minimum` of 0 (or more)",
            )
        drop = leading_dash_clause(word.arg)
        if grammar is None:
            why = (
                f"{shown(occ)} can start with `-`, and the checker does not know {prog}'s "
                "options, so it cannot show that the value is not read as one (some "
                "options run code: git --upload-pack, ssh -oProxyCommand, tar --to-command)"
            )
            fix = (
                f"{drop}, or give it a `pattern` that cannot start with `-`, or declare "
                f"{prog} under `programs:` (its options that take a value, and that `--` "
                "ends its options) and put `--` before the value"
            )
        else:
            why = f"{shown(occ)} can start with `-` and stands where {prog} reads options"
            fix = (
                f"put `--` before the value, or {drop}, or give it a `pattern` that cannot "
                "start with `-`"
            )
        return cls.about(word, where, why, fix)

    @classmethod
    def amend_fix(cls, fix: str, arg: str, schema: Mapping[str, Any]) -> str:
        """`fix` made true of arg `arg`, whose schema is `schema`: the advice
        to remove ``leading_dash: true`` only for an arg that has it (one
        that admits numbers gets a `minimum` instead), and no `pattern` for
        an arg that admits only numbers."""
        kinds = _types(schema)
        numbers = bool(kinds & {"integer", "number"})
        if schema.get("leading_dash") is not True:
            drop = leading_dash_clause(arg)
            if numbers and kinds <= {"integer", "number"}:
                fix = fix.replace(drop, f"give arg {arg!r} a `minimum` of 0 (or more)")
            elif numbers:  # strings too: a `pattern` for those, a `minimum` for numbers
                fix = fix.replace(_PATTERN_ADVICE[0][0], "").replace(
                    drop,
                    f"give arg {arg!r} a `minimum` of 0 (or more) and a `pattern` that cannot "
                    "start with `-`",
                )
            else:
                fix = fix.replace(f", or {drop}", "").replace(f"{drop}, or ", "")
        if numbers and kinds <= {"integer", "number"}:
            for pattern, instead in _PATTERN_ADVICE:
                fix = fix.replace(pattern, instead.format(arg=arg))
        return fix


#: The `pattern` advice of H009's fixes (here and in `_roles`), and what an
#: arg that admits only numbers gets instead.
_PATTERN_ADVICE = (
    (", or give it a `pattern` that cannot start with `-`", ""),
    (
        "constrain the arg with a `pattern` that cannot start with `-`",
        "give arg {arg!r} a `minimum` of 0",
    ),
    ("a `minimum` of 0 or a `pattern` that cannot start with `-`", "a `minimum` of 0"),
)


def leading_dash_clause(arg: str) -> str:
    """H009's advice to drop ``leading_dash: true`` from `arg`."""
    return (
        f"remove `leading_dash: true` from arg {arg!r} (values starting with `-` are then "
        "refused at validation)"
    )


def _types(schema: Mapping[str, Any]) -> frozenset[str]:
    """The JSON types `schema`'s ``type`` names (none: it names none)."""
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
    return frozenset(k for k in kinds if isinstance(k, str))


def takes_value(prev: str | None, grammar: sinks.Grammar) -> bool:
    """The word after `prev` is the value of an option of `grammar`: `prev`
    is such an option, or a cluster of one-letter options whose last one is
    (``tar -xzf FILE``) and none before it takes a value (it would take the
    rest of the cluster instead)."""
    if prev is None:
        return False
    if prev in grammar.value_options:
        return True
    if len(prev) > 2 and prev[0] == "-" and prev[1] != "-" and prev[1:].isalnum():
        before = [f"-{c}" for c in prev[1:-1]]
        return f"-{prev[-1]}" in grammar.value_options and not any(
            b in grammar.value_options for b in before
        )
    return False
