"""Rule W103 (caller-chosen-path)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["CallerChosenPath"]


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
