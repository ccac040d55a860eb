"""Rule H011 (undeclared-reference)."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located
from mcp_harbor.check.rules._base import Rule

__all__ = ["UndeclaredReference"]


class UndeclaredReference(Rule):
    r"""A script reads `ARG_x` or `STEP_<step>_…` that nothing declares.

    ## What it does
    Refuses a `run:` script that reads `$ARG_<name>` (or `${ARG_<name>…}`,
    or the name in arithmetic) when no arg is named `<name>`, and one that
    reads `$STEP_<step>_<key>` (`_EXIT` and `_STATUS` included) when no
    step before it is named `<step>`. The finding suggests the closest
    declared name. A placeholder naming an undeclared arg
    (`{{ args.nme }}`) is refused already when the export is loaded.

    A name the script assigns itself (`ARG_total=0`, `read ARG_x`,
    `for ARG_i in …`, `local ARG_x`) is the script's own variable and is
    not a reference, wherever the assignment is.

    ## Why is this bad?
    The runner exports each declared arg as `ARG_<name>` and each earlier
    step's outcome as `STEP_<step>_…`, and strips every other `ARG_*` from
    the environment. Any other such name is unset, and bash expands it to
    the empty string without a word: `git log "$ARG_brnach"` logs the
    current branch whatever the caller asked for (actionlint's
    undefined-input check finds the same typo in workflows).

    ## Example
    ```yaml
    args:
      branch: {type: string}
    steps:
      - name: log
        run: git log -- "$ARG_brnach"
    ```

    ## Use instead
    ```yaml
    args:
      branch: {type: string}
    steps:
      - name: log
        run: git log -- "$ARG_branch"
    ```

    ## Known problems
    The output keys of a step (`STEP_<step>_<key>`) are written at run time
    and cannot be known: only the step's name is checked. A name read only
    inside a nested script's text (`sh -c '… $ARG_x …'`) is not seen.

    ## References
    - actionlint: checks for `inputs` (undefined input names)
    - ShellCheck SC2154 (variable referenced but not assigned)
    """

    id: ClassVar[str] = "H011"
    name: ClassVar[str] = "undeclared-reference"
    summary: ClassVar[str] = "A script reads `ARG_x` or `STEP_<step>_…` that nothing declares."
    severity: ClassVar[Literal["error", "warning"]] = "error"

    @classmethod
    def detect(
        cls,
        variable: str,
        args: Collection[str],
        earlier: Sequence[str],
        steps: Collection[str],
        where: Located,
    ) -> Hazard | None:
        """The finding about the script's read of `variable` (a name it does
        not assign itself): an ``ARG_`` name that no arg of `args` declares,
        or a ``STEP_`` name whose step is not one of `earlier` (the steps
        that run before this one, in order; `steps`: every step of the
        export). None for any other name."""
        if variable.startswith("ARG_") and len(variable) > 4:
            name = variable[4:]
            if name in args:
                return None
            close = difflib.get_close_matches(name, sorted(args), n=1)
            hint = f"; did you mean `ARG_{close[0]}`?" if close else ""
            declared = ", ".join(sorted(args)) or "none"
            return cls.hazard(
                None,
                where,
                f"`{variable}` names no declared arg (declared: {declared}), so bash "
                f"expands it to the empty string{hint}",
                f"write `ARG_{close[0]}`" if close else f"declare arg {name!r} under `args:`",
            )
        if variable.startswith("STEP_") and len(variable) > 5:
            rest = variable[5:]
            if any(rest.startswith(f"{s}_") and len(rest) > len(s) + 1 for s in earlier):
                return None
            later = [s for s in steps if rest.startswith(f"{s}_") and len(rest) > len(s) + 1]
            if later:
                return cls.hazard(
                    None,
                    where,
                    f"`{variable}` reads step {later[0]!r}, which has not run when this "
                    "script runs (it is this step or a later one), so bash expands it to "
                    "the empty string",
                    f"read the outcome of step {later[0]!r} in a step that runs after it",
                )
            suggestion = _closest_step(rest, earlier)
            hint = f"; did you mean `{suggestion}`?" if suggestion else ""
            known = ", ".join(earlier) or "none"
            return cls.hazard(
                None,
                where,
                f"`{variable}` names no earlier step (earlier steps: {known}), so bash "
                f"expands it to the empty string{hint}",
                f"write `{suggestion}`" if suggestion else "name a step that runs before this one",
            )
        return None


def _closest_step(rest: str, earlier: Sequence[str]) -> str | None:
    """The ``STEP_`` name `rest` (after ``STEP_``) most likely meant: the
    longest leading part of it close to an earlier step's name, with the
    rest kept as the key."""
    parts = rest.split("_")
    for cut in range(len(parts) - 1, 0, -1):
        step, key = "_".join(parts[:cut]), "_".join(parts[cut:])
        close = difflib.get_close_matches(step, list(earlier), n=1)
        if close and key:
            return f"STEP_{close[0]}_{key}"
    return None
