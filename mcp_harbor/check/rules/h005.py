"""Rule H005 (interpreter-program)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["InterpreterProgram"]


class InterpreterProgram(Rule):
    r"""The value is another interpreter's program (python/node/perl -c/-e, awk, sed, jq, SQL).

    ## What it does
    Flags a caller value inside the program text of an interpreter: `python -c`,
    `node -e`, `perl -e`, `ruby -e`, awk and sed programs, jq filters, SQL given to
    `sqlite3`/`psql`/`mysql`, a module or file the interpreter loads, data piped in
    as the program, and a value that can start with `-` after the program of an
    interpreter that keeps reading options (perl, sed, node). An option of an
    interpreter the checker does not know is assumed to take code.

    ## Why is this bad?
    Shell quoting does nothing for the other language: `'); os.system('id` is
    valid Python.

    ## Example
    ```yaml
    run: python3 -c "print('{{ args.name | shellquote }}')"
    ```

    ## Use instead
    ```yaml
    run: python3 -c 'import sys; print(sys.argv[1])' {{ args.name | shellquote }}
    ```
    (awk: `awk -v name={{ args.name | shellquote }} '…'`; jq: `jq --arg name "$ARG_name" '…'`;
    SQL: `psql -v name="$ARG_name" -c "select :'name'"`).

    A literal program that gets caller data as data is read for its language's
    ways to run text (`eval`, `system`, pipes, `getline`; sed's `e`; perl's
    magic open of its operands; psql's bare `:name` and backslash commands):
    one that uses any is refused, since it may turn its data into code.

    ## Known problems
    The checker reads the other language only for those ways, by their names, not
    for what the program computes: a way it does not name is not seen.

    ## References
    - CWE-94
    - CWE-89
    """

    id: ClassVar[str] = "H005"
    name: ClassVar[str] = "interpreter-program"
    summary: ClassVar[str] = (
        "The value is another interpreter's program (python/node/perl -c/-e, awk, sed, jq, SQL)."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
