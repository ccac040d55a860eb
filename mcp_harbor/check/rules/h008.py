"""Rule H008 (code-selecting-variable)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar, Literal

from mcp_harbor.check import sinks
from mcp_harbor.check._facts import Hazard, Located, Occ, Word, author_or_number
from mcp_harbor.check.rules._base import Rule

__all__ = ["CodeSelectingVariable"]


#: Builtins that assign what they read to the variables they name.
_READERS = frozenset({"read", "mapfile", "readarray"})


class CodeSelectingVariable(Rule):
    r"""The value sets a code-selecting variable or option (PATH, LD_PRELOAD, git -c).

    ## What it does
    Flags a caller value assigned to a variable that decides what code runs
    (`PATH`, `LD_PRELOAD`, `BASH_ENV`, `PS4`, `PAGER`, `EDITOR`, `GIT_*`,
    `PYTHON*`, `NODE_OPTIONS`…) or given to an option that does (`git -c`,
    `ssh -o`, `tar --to-command`, `rsync -e`).

    ## Why is this bad?
    Setting `GIT_SSH_COMMAND` or `core.sshCommand` runs a program of the caller's
    choice without any shell syntax in sight.

    ## Example
    ```yaml
    run: git -c {{ args.setting | shellquote }} fetch
    ```

    ## Use instead
    ```yaml
    run: git fetch    # set configuration in the export, not from the caller
    ```

    ## Known problems
    The variable table is a list; a program that reads another variable as a
    command is not known to the checker.

    ## References
    - CWE-427
    - git-config(1)
    """

    id: ClassVar[str] = "H008"
    name: ClassVar[str] = "code-selecting-variable"
    summary: ClassVar[str] = (
        "The value sets a code-selecting variable or option (PATH, LD_PRELOAD, git -c)."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"

    # -- variables that select code (`mcp_harbor.check.sinks.is_code_variable`)

    @classmethod
    def assignment(cls, variable: str, occs: Sequence[Occ], where: Located) -> Hazard | None:
        """This rule's finding when the caller data `occs` (at least one) is
        assigned to `variable` (``VAR=…``) and `variable` selects code,
        unless every value is the author's word or a number."""
        if not sinks.is_code_variable(variable) or author_or_number(occs):
            return None
        return cls.about(
            occs[0],
            where,
            f"the value is assigned to `{variable}`, which selects the code that runs",
            f"do not let the caller set `{variable}`; pass the value in a variable of its own "
            "and choose the program in the script",
        )

    @classmethod
    def env_assignment(cls, variable: str, word: Word, where: Located) -> Hazard | None:
        """This rule's finding when `env`'s operand `word` (``VAR=…``) gives
        caller data to `variable` and `variable` selects code, unless every
        value is the author's word or a number."""
        if not sinks.is_code_variable(variable) or author_or_number(word.occs):
            return None
        return cls.about(
            word,
            where,
            f"the value is assigned to `{variable}`, which selects the code that runs",
            f"do not let the caller set `{variable}`",
        )

    @classmethod
    def printf_target(cls, variable: str, word: Word, where: Located) -> Hazard | None:
        """This rule's finding when ``printf -v variable`` prints caller
        data (`word`, the first word carrying it) into a variable that
        selects code."""
        if not sinks.is_code_variable(variable):
            return None
        return cls.about(
            word,
            where,
            f"`printf -v {variable}` assigns the value to `{variable}`, which selects "
            "the code that runs",
            f"do not let the caller set `{variable}`",
        )

    @classmethod
    def read_target(
        cls, program: str, variable: str, subject: Occ, where: Located
    ) -> Hazard | None:
        """This rule's finding when `program` (``read``, ``mapfile``,
        ``readarray``) assigns what it reads to `variable`, which selects
        code, in a script that handles caller data (`subject`: its first
        occurrence)."""
        if not sinks.is_code_variable(variable) or program not in _READERS:
            return None
        return cls.about(
            subject,
            where,
            f"`{program}` assigns what it reads to `{variable}`, which selects the code that "
            "runs, in a script that handles caller data",
            "read into a variable of your own",
        )

    @classmethod
    def env_place(cls, name: str, entry: str, where: Located) -> Hazard:
        """This rule's finding when the literal ``env:`` value of `name`
        names, as the place a program reads from, `entry`: a place a step
        may write (the run directory, a temporary folder, home) or, in a
        list of folders (``PATH``), one relative to the folder a command
        works in."""
        return cls.hazard(
            None,
            where,
            f"the `env:` value of `{name}` names `{entry}`, a place a step may write or one "
            "relative to the folder a command works in, and programs read their config or "
            "code from the place such a variable names (a `.curlrc`, a module, a program "
            "found on PATH)",
            f"give `{name}` an absolute folder no step writes (the author's), or leave it unset",
        )

    @classmethod
    def env_literal(
        cls,
        name: str,
        variable: str,
        callers: Collection[str],
        args: Collection[str],
        where: Located,
    ) -> Hazard | None:
        """This rule's finding when the literal ``env:`` value of `name`
        reads `variable`, which carries caller data (`callers`, or any
        ``ARG_``/``STEP_`` variable): a program that expands the variable
        again gets the caller's value inside its command line. The finding
        names the arg when `variable` is ``ARG_<one of args>``."""
        if variable not in callers and not variable.startswith(("ARG_", "STEP_")):
            return None
        arg = variable[4:] if variable.startswith("ARG_") else None
        return cls.hazard(
            arg if arg in args else None,
            where,
            f"the `env:` value of `{name}` reads `${variable}`, and a program that "
            "expands the variable again (git's GIT_SSH_COMMAND, an editor or pager "
            "setting) gets the caller's value inside its command line",
            f"remove `${variable}` from `env: {name}`; let the program read "
            f"`{variable}` itself, or pass the value as an argument",
        )
