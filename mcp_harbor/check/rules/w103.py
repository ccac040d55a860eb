"""Rule W103 (caller-chosen-path)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from mcp_harbor.check import sinks
from mcp_harbor.check._facts import Hazard, Located, Occ, Word, bare_name
from mcp_harbor.check.rules._base import Rule

__all__ = ["CallerChosenPath"]


#: find's options whose value is a file it writes.
FIND_OUTPUT_OPTIONS = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})


class CallerChosenPath(Rule):
    r"""The caller chooses a redirect target or escapes a literal directory.

    ## What it does
    Warns when a caller value is a redirection target, a `find -fprint` file, or is
    appended to a literal directory (`./logs/{{ args.f | shellquote }}`) while it
    may contain `..` or `/`.

    ## Why is this bad?
    Path traversal (CWE-22): the caller reads or overwrites files outside the
    intended directory.

    ## Example
    ```yaml
    run: cat ./logs/{{ args.name | shellquote }}
    ```

    ## Use instead
    ```yaml
    args: {name: {type: string, pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"}}
    ```

    ## Known problems
    The check is by characters: a pattern that allows `.` is assumed to allow `..`.

    ## References
    - CWE-22
    """

    id: ClassVar[str] = "W103"
    name: ClassVar[str] = "caller-chosen-path"
    summary: ClassVar[str] = "The caller chooses a redirect target or escapes a literal directory."
    severity: ClassVar[Literal["error", "warning"]] = "warning"

    @classmethod
    def redirect(cls, occs: Sequence[Occ], where: Located) -> Hazard | None:
        """This rule's finding when the caller data `occs` (at least one) is
        in the target of a redirection, unless every value is the author's
        word or a name inside one directory (`bare_name`)."""
        if all(o.model.words is not None or bare_name(o.model) for o in occs):
            return None
        return cls.about(
            occs[0],
            where,
            "the caller chooses the file this redirection reads or writes",
            "redirect to a fixed file, or constrain the arg to a file name with a `pattern` "
            "that excludes `/` and `..`",
        )

    @classmethod
    def traversal(cls, program: str | None, word: Word, where: Located) -> Hazard | None:
        """This rule's finding when `word`, an argument of `program`, is a
        directory and the caller's value after it (not the author's word)
        may hold `/` or start with `.`. Programs that only print their
        arguments open nothing."""
        if program in sinks.INERT_COMMANDS or program == "printf":
            return None  # printed, not opened
        if (
            word.prefix.endswith("/")
            and word.occs
            and word.occs[0].model.words is None
            and not bare_name(word.occs[0].model)
        ):
            return cls.about(
                word,
                where,
                f"the value is appended to the directory `{word.prefix}` and may contain `..` "
                "or `/`, escaping it",
                "constrain the arg with a `pattern` such as ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ "
                "(no `/`, cannot start with `.`)",
            )
        return None

    @classmethod
    def find_output(cls, option: str, value: Word, where: Located) -> Hazard | None:
        """This rule's finding when `value`, the value of find's `option`,
        carries caller data and `option` names the file find writes."""
        if not value.tainted or option not in FIND_OUTPUT_OPTIONS:
            return None
        return cls.about(
            value,
            where,
            f"the caller chooses the file `find {option}` writes",
            "write to a fixed file",
        )
