"""Rule H009 (option-runs-code)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["OptionRunsCode"]


class OptionRunsCode(Rule):
    r"""A value that can start with `-` reaches a command whose options run code.

    ## What it does
    Flags a value that can start with `-` in an operand position of `git`, `ssh`,
    `scp`, `tar`, `rsync`, `find`, `zip`, `sort`, `wget`, `curl`, `man`, `make`…
    when no `--` precedes it.

    ## Why is this bad?
    `git clone --upload-pack='touch /tmp/x' …`, `ssh -oProxyCommand=…`,
    `tar --checkpoint-action=exec=…`, `find -delete`: an option is enough to run
    code (CWE-88).

    ## Example
    ```yaml
    run: git clone {{ args.url | shellquote }}
    ```

    ## Use instead
    ```yaml
    run: git clone -- {{ args.url | shellquote }}
    ```
    or `pattern: "^https://[A-Za-z0-9./_-]+$"`.

    ## Known problems
    Whether an option before the value takes an argument is read from a table;
    unknown options are assumed not to.

    ## References
    - CWE-88
    """

    id: ClassVar[str] = "H009"
    name: ClassVar[str] = "option-runs-code"
    summary: ClassVar[str] = (
        "A value that can start with `-` reaches a command whose options run code."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
