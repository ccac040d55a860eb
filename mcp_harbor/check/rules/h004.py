"""Rule H004 (reparsed-as-shell)."""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from mcp_harbor.check._facts import Hazard, Located, Occ
from mcp_harbor.check.rules._base import Rule

__all__ = ["ReparsedAsShell"]


#: ``${name@op}``: the transformation operator
_TRANSFORM = re.compile(r"^\$\{[!#]?[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?@(.?)\}$")
#: Transformations whose result is the value (or its quoting) as data:
#: quote, escapes, case, attributes, assignment and key-value forms. ``P``
#: (prompt expansion) runs command substitutions; anything unknown is refused.
_INERT_TRANSFORMS = frozenset("QEUuLaKkA")


class ReparsedAsShell(Rule):
    r"""The value is re-parsed as shell code (`sh -c`, `eval`, `ssh`, `trap`, `| sh`, `source`).

    ## What it does
    Flags a caller value that becomes part of a script parsed again by a shell:
    the `-c` script of `sh`/`bash`, operands of `eval`, `trap`, `source`, `watch`,
    `ssh host …` (ssh joins its words), `su -c`, `sudo -s`, `xargs -I … sh`, data
    piped or here-doc'ed into a shell. Literal nested scripts are checked
    recursively. Also a file or folder read as code (run, sourced, or named by
    an option a grammar reads as code: `jq -L DIR`, `jq -f FILE`, `curl -K
    FILE`) that the script or an earlier step wrote caller data into, or that
    stands in a working folder a step may have written (a link or a copy of
    a run-directory file there: `ln -s "$HARBOR_RUN_DIR/x" .x`), and caller
    data written (or linked, copied) where programs read their config or code
    unseen: the home folder (`~/.jq`, `~/.gitconfig`, a user site-packages,
    also named through a variable: `home=~`), a shell's startup files, a
    repository's hooks, cron.

    ## Why is this bad?
    Quoting protects a value from one parse. A second shell parses the text again,
    so `'$(id)'` becomes `$(id)`.

    ## Example
    ```yaml
    run: sh -c "grep {{ args.q | shellquote }} log.txt"
    ```

    ## Use instead
    ```yaml
    run: sh -c 'grep -- "$1" log.txt' _ {{ args.q | shellquote }}
    ```

    ## Known problems
    A script built at run time (`sh -c "$SCRIPT"`) is refused when caller data is
    around: the checker cannot see it.

    ## References
    - CWE-78
    - ShellCheck SC2091
    """

    id: ClassVar[str] = "H004"
    name: ClassVar[str] = "reparsed-as-shell"
    summary: ClassVar[str] = (
        "The value is re-parsed as shell code (`sh -c`, `eval`, `ssh`, `trap`, `| sh`, `source`)."
    )
    severity: ClassVar[Literal["error", "warning"]] = "error"

    @classmethod
    def transformation(cls, occ: Occ, expansion: str, where: Located) -> Hazard | None:
        """This rule's finding when `expansion`, the text of the ``${…}``
        expansion `occ` of caller data, applies a transformation other than
        those known to be inert (``${x@P}`` expands the value again as a
        prompt string, running its ``$(…)``)."""
        match = _TRANSFORM.search(expansion)
        if match is None or match.group(1) in _INERT_TRANSFORMS:
            return None
        return cls.about(
            occ,
            where,
            f"`{expansion}` applies the `@{match.group(1)}` transformation to caller data; "
            "bash expands the value again as a prompt string, running any `$(…)` in it",
            f'drop the `@{match.group(1)}`: write "${{{occ.var}}}"',
        )
