"""Rule H008 (code-selecting-variable)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["CodeSelectingVariable"]


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
