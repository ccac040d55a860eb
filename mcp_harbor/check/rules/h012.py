"""Rule H012 (no-grammar-position)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["NoGrammarPosition"]


class NoGrammarPosition(Rule):
    r"""Caller data reaches a program at a position no grammar classes as data.

    ## What it does
    Refuses caller data given to a program (as a word, on its standard
    input or in a variable passed to it) unless the program's grammar
    classes that position as inert data: an operand the program prints,
    compares or opens as a file, the value of an option the grammar lists
    as taking data, standard input read as data, or an environment variable
    the program reads as data. Grammars are an allowlist
    (`mcp_harbor/check/grammars.py`, one entry per program or subcommand,
    each saying where its facts come from), extended by an export's
    `programs:` entries. A program with no grammar gets only clean data:
    literals, `enum`/`const` args, and what the script computes from them.

    ## Why is this bad?
    Whether a word is data or code is a property of each program, and no
    list of dangerous programs is ever complete: `ed` and `sqlite3` read
    commands from stdin, `python3 -m timeit` and `node -pe` run their
    operand, `git submodule foreach` hands it to `sh`, `make` expands
    `CFLAGS` from its environment in a recipe, `strings @FILE` reads options
    from a file. Asking "is this place known to be inert" instead of "is
    this place known to be dangerous" makes a program no one described safe
    by default.

    ## Example
    ```yaml
    steps:
      - run: deploy-tool --target="$ARG_env"
    ```

    ## Use instead
    Describe the in-house program, saying that it runs none of its operands
    and reads its standard input as data:
    ```yaml
    programs:
      deploy-tool:
        options_with_value: [--target]
        runs_operands: false
        stdin: data
    steps:
      - run: deploy-tool --target="$ARG_env"
    ```

    ## Known problems
    The grammars are facts read in each program's manual; a program that
    does more with an operand than its manual says is trusted as far as the
    manual. Subcommands are separate entries (`git log`, `kubectl get`): a
    subcommand without one gets only clean data.

    ## References
    - CWE-78
    - CWE-88
    """

    id: ClassVar[str] = "H012"
    name: ClassVar[str] = "no-grammar-position"
    summary: ClassVar[str] = (
        "Caller data reaches a program at a position no grammar classes as data."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
