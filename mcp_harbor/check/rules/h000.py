"""Rule H000 (unparseable-template)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["UnparseableTemplate"]


class UnparseableTemplate(Rule):
    r"""The script cannot be parsed, or a placeholder is where the checker cannot reason about it.

    ## What it does
    Refuses a step when tree-sitter-bash or `bash -n` cannot parse it (after the
    placeholders are replaced by inert sentinel words), when a placeholder sits in
    a node the checker has no model for, or when nested scripts are deeper than
    four levels.

    ## Why is this bad?
    The checker fails closed. A script it cannot parse is a script whose
    quoting it cannot know; bash might read it differently from any guess.

    ## Example
    ```yaml
    run: |
      if [ -n {{ args.x | shellquote }} ]; then echo yes
    ```

    ## Use instead
    ```yaml
    run: |
      if [ -n {{ args.x | shellquote }} ]; then echo yes; fi
    ```

    ## Known problems
    tree-sitter-bash accepts some invalid scripts and bash rejects some scripts
    that depend on `shopt -s extglob` set earlier in the same script.

    ## References
    - bash(1), `-n`
    - tree-sitter-bash
    """

    id: ClassVar[str] = "H000"
    name: ClassVar[str] = "unparseable-template"
    summary: ClassVar[str] = (
        "The script cannot be parsed, or a placeholder is where the checker cannot reason about it."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
