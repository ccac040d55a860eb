"""Rule H009 (option-runs-code)."""

from __future__ import annotations

from typing import ClassVar, Literal

from mcp_harbor.check.rules._base import Rule

__all__ = ["OptionRunsCode"]


class OptionRunsCode(Rule):
    r"""A value that can start with `-` reaches a place where it can be an option.

    ## What it does
    Refuses a caller value that can start with `-` (a string arg with
    `leading_dash: true`, an integer or number without a non-negative
    `minimum`) anywhere on a program's command line except where the
    checker knows the program's option grammar and the place is inert:
    after `--` for a program known to end its options there
    (`sinks.GRAMMARS`, or declared under `programs:`), or as the value of an
    option that always takes one (`grep -e`). A program the checker does not
    know is refused outright: `--` is only that program's promise.

    ## Why is this bad?
    `git clone --upload-pack='touch /tmp/x' …`, `ssh -oProxyCommand=…`,
    `tar --checkpoint-action=exec=…`, `find -delete`, `kill -1`: an option is
    enough to run code or do harm (CWE-88), and which options do is a
    property of each program that no list of known-dangerous options covers.

    ## Example
    ```yaml
    args:
      url: {type: string, leading_dash: true}
    steps:
      - run: git clone {{ args.url | shellquote }}
    ```

    ## Use instead
    Drop `leading_dash: true` (the validator then refuses values starting
    with `-`), or put `--` before the value of a known program:
    ```yaml
    run: git clone -- {{ args.url | shellquote }}
    ```
    For an in-house program, declare its grammar under `programs:`.

    ## Known problems
    Attached values (`--name={{ args.x | shellquote }}`) are not options and
    are accepted; what the program then does with the value is its own.

    ## References
    - CWE-88
    """

    id: ClassVar[str] = "H009"
    name: ClassVar[str] = "option-runs-code"
    summary: ClassVar[str] = (
        "A value that can start with `-` reaches a place where it can be an option."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"
