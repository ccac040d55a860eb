"""Rule H006 (arithmetic-injection)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ, arith_safe
from mcp_harbor.check.rules._base import Rule
from mcp_harbor.check.rules._forms import shown

__all__ = ["ArithmeticInjection"]


class ArithmeticInjection(Rule):
    r"""A non-numeric value evaluated as arithmetic.

    ## What it does
    Flags a caller value inside `$(( ))`, `(( ))`, `let`, array subscripts,
    `${x:offset}` and the operands of `[[ … -eq … ]]` unless the schema makes it
    a number; and a name with the integer attribute (`declare -i`, `local -i`,
    `declare -Ai`) that may carry caller data, however it is written (an
    assignment, an element, a `for` loop, `read`, `${n:=…}`, `printf -v`):
    the taint analysis says what each name may carry, with no list of writers.

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

    @classmethod
    def detect(cls, occ: Occ, in_arithmetic: bool, where: Located) -> Hazard | None:
        """This rule's finding when the caller data `occ` is evaluated as
        arithmetic (`in_arithmetic`: ``$(( ))``, ``(( ))``, a subscript,
        ``let``, a ``declare -i`` value) and its values are not only
        numbers and signs (`mcp_harbor.check._facts.arith_safe`)."""
        if not in_arithmetic or arith_safe(occ.model):
            return None
        if occ.arg:
            return cls.about(
                occ,
                where,
                "the value is evaluated as arithmetic, where bash runs `$(…)` inside an "
                "array subscript such as `a[$(cmd)]`, even when quoted",
                'give the arg `"type": "integer"` in its schema, or compare it as a string',
            )
        return cls.about(
            occ,
            where,
            f"{shown(occ)} is evaluated as arithmetic, where bash runs `$(…)` inside an "
            "array subscript such as `a[$(cmd)]`, even when quoted",
            "check that it is a number before the arithmetic uses it "
            "(`[[ $v =~ ^[0-9]+$ ]] || exit 1`), or compare it as a string",
        )

    @classmethod
    def integer_assignment(
        cls, variable: str, occs: Sequence[Occ], where: Located
    ) -> Hazard | None:
        """This rule's finding when the caller data `occs` (at least one) is
        assigned to `variable`, which has the integer attribute (``declare
        -i``), so bash evaluates the value as arithmetic; `where` points at
        the first."""
        if all(arith_safe(o.model) for o in occs):
            return None
        return cls.about(
            occs[0],
            where,
            f"`{variable}` has the integer attribute "
            "(`declare -i`), so bash evaluates the value assigned to it as "
            "arithmetic, where `a[$(…)]` runs a command",
            'give the arg `"type": "integer"`, or assign to a variable without '
            "the integer attribute",
        )
