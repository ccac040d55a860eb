"""Rule H006 (arithmetic-injection)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["ArithmeticInjection"]


class ArithmeticInjection(Rule):
    r"""A non-numeric value evaluated as arithmetic.

    ## What it does
    Flags a caller value inside `$(( ))`, `(( ))`, `let`, `declare -i`
    assignments, array subscripts, `${x:offset}` and the operands of `[[ … -eq … ]]`
    unless the schema makes it a number.

    ## Why is this bad?
    bash evaluates names recursively in arithmetic, and `a[$(cmd)]` runs `cmd`
    even when the value was quoted.

    ## Example
    ```yaml
    run: echo $(( {{ args.n | shellquote }} + 1 ))
    ```

    ## Use instead
    ```yaml
    args: {n: {type: integer}}
    steps:
      - name: add
        run: echo $(( {{ args.n }} + 1 ))
    ```

    ## Known problems
    A `pattern` of only digits and `+`/`-` is accepted as numeric.

    ## References
    - bash(1), ARITHMETIC EVALUATION
    """

    id: ClassVar[str] = "H006"
    name: ClassVar[str] = "arithmetic-injection"
    summary: ClassVar[str] = "A non-numeric value evaluated as arithmetic."
    severity: ClassVar[Literal["error", "warning"]] = "error"
