"""Rule H003 (caller-chooses-command)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["CallerChoosesCommand"]


class CallerChoosesCommand(Rule):
    r"""The value is in command position or a wrapper's command operand.

    ## What it does
    Flags a caller value that is the command name, the command after a wrapper
    (`sudo`, `env`, `timeout`, `xargs`, `exec`, `nohup`, `find -exec`, `docker run
    IMAGE`), the script file given to a shell, or a container image.

    ## Why is this bad?
    Quoting makes one word, but that word is still the program that runs. The
    caller can run any program on the host.

    ## Example
    ```yaml
    run: "{{ args.tool | shellquote }} --version"
    ```

    ## Use instead
    ```yaml
    args: {tool: {enum: [git, make]}}
    steps:
      - name: version
        run: |
          case "$ARG_tool" in
            git) git --version ;;
            make) make --version ;;
          esac
    ```

    ## Known problems
    An `enum` of inert words in command position is accepted: the author chose
    every program.

    ## References
    - CWE-78
    """

    id: ClassVar[str] = "H003"
    name: ClassVar[str] = "caller-chooses-command"
    summary: ClassVar[str] = "The value is in command position or a wrapper's command operand."
    severity: ClassVar[Literal["error", "warning"]] = "error"
