"""Rule H000 (unparseable-template)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["UnparseableTemplate"]


class UnparseableTemplate(Rule):
    r"""bash cannot read the script, or bash and the checker read a caller-data place differently.

    ## What it does
    Refuses a step when bash cannot parse it (after the placeholders are
    replaced by inert sentinel words; `bash --pretty-print` is the gate, and
    any warning counts), when tree-sitter-bash cannot, when the two parsers
    disagree about how a place that carries caller data is quoted (bash is
    the authority: its canonical reprint of probes inserted at every such
    place must match what tree-sitter predicts), when a placeholder sits in a
    node the checker has no model for, or when nested scripts are deeper
    than four levels.

    ## Why is this bad?
    The checker's proof is about the script as bash runs it. Where its
    parser and bash disagree (a here-document delimiter followed by blanks,
    `\` before a tab and `#`), a value the checker thinks is an inert word
    can be code to bash: `cat <<EOF` followed by a line `EOF  ` keeps the
    here-document open, so a later `echo {{ args.x | shellquote }}` is part
    of an unquoted here-document body where `$(…)` in the value runs.

    ## Example
    (`␠` stands for a blank after the delimiter)
    ```yaml
    run: |
      cat <<EOF
      header
      EOF␠␠
      echo {{ args.x | shellquote }}
      EOF
    ```

    ## Use instead
    ```yaml
    run: |
      cat <<EOF
      header
      EOF
      echo {{ args.x | shellquote }}
    ```

    ## Known problems
    Refuses some scripts bash reads safely (a backslash before a tab and
    `#` in a word): any disagreement is a refusal. bash rejects scripts that
    depend on `shopt -s extglob` set earlier in the same script.

    ## References
    - bash(1), `--pretty-print`, `-n`
    - tree-sitter-bash
    - docs/security.md, "What the checker proves"
    """

    id: ClassVar[str] = "H000"
    name: ClassVar[str] = "unparseable-template"
    summary: ClassVar[str] = (
        "bash cannot read the script, or bash and the checker read a caller-data place differently."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
