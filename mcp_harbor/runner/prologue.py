"""Caller data as shell variables of a ``run:`` step's bash, never as its
environment: the prologue the runtime puts ahead of the script.

**The guarantee.** Of the variables the runtime makes for a step
(`mcp_harbor.step_env.REGISTRY`), those of class ``caller`` (``ARG_<name>``,
``STEP_<step>_<key>`` outputs, the claimed ``HARBOR_CALLER_CLIENT``,
``HARBOR_CALLER_CLIENT_VERSION``, ``HARBOR_CALLER_SESSION``,
``HARBOR_CALLER_REQUEST_ID`` and ``HARBOR_CALLER_REMOTE_ADDR``), and the
identity fields an identity provider's claims may fill
(`mcp_harbor.step_env.CLAIMED`: ``HARBOR_CALLER_PRINCIPAL``,
``HARBOR_CALLER_TENANT``, ``HARBOR_CALLER_GROUPS``), are never put in a
step's process environment (`split`). A ``run:`` step gets them as
plain, unexported variables of its bash, assigned by `prologue`; an
``argv:`` step does not get them at all (its caller values are its argv
elements). So no program the step starts can read a caller value from its
environment, ``/proc/self/environ`` or its parent's ``/proc/PID/environ``
unless the script passes it explicitly (``ARG_x="$ARG_x" tool``,
``env V="$ARG_x" tool``, ``export ARG_x``). Variables of class ``server``
and ``caller_file`` (paths the server chose) stay in the environment, as do
the export's ``secrets:`` and a step's literal ``env:``.

**The prologue is inert by construction.** Each assignment is
``NAME=$'\\xHH\\xHH…'``: between ``$'`` and ``'`` there is nothing but
``\\x`` and two hex digits per byte of the value's UTF-8 encoding, so bash
reads it as exactly those bytes, whatever they are (quotes, backslashes,
``$'``, newlines, non-ASCII letters), in any locale. Names are shell
identifiers (checked here) that `mcp_harbor.step_env.step_variables` has
classified. The whole prologue is one line ending in ``"; "`` with no
newline, put on the script's first line (as the sandbox's ``ulimit``
commands are), so bash's line numbers in messages stay the script's own.

**Not readonly.** The variables are ordinary shell variables, deliberately:
bash refuses ``NAME="$NAME" tool`` (the documented way to hand one value to
one program) for a readonly ``NAME``, and also ``${ARG_x:=default}``,
``local ARG_x`` and ``unset``. What the script does with a variable after
the prologue is the script's own text, which the checker reads; the
runtime's promise is only that each variable starts as the caller's exact
value and is not exported.

**What this does not hide.** The values live in the memory of the step's
bash, which a process of the same user may read through ``/proc/PID/mem``
where the kernel lets it (no Yama ``ptrace_scope``, or root). The script
file's first line is blanked and its descriptor closed before the script's
own commands run (`mcp_harbor.runner.process`), so a child cannot read the
prologue back from the script. A value the script passes to a program (as
an argument, in an exported variable, on stdin) is that program's to see.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Final

from mcp_harbor.step_env import CLAIMED, classify, step_variables

__all__ = ["assignment", "prologue", "secret_prologue", "split"]

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def assignment(name: str, value: str) -> bytes:
    """The assignment ``NAME=$'\\xHH…'`` of `value` to the shell variable
    `name`: every byte of `value`'s UTF-8 encoding (surrogate escapes as
    the bytes they stand for, as `os.fsencode` does) written ``\\xHH``, and
    nothing else inside the quotes. bash reads it back as exactly those bytes.

    Raises:
        ValueError: `name` is not a shell identifier, or `value` contains a
            NUL character (bash cannot hold one in a variable; the argument
            validation refuses it, so this is a bug, never a caller's doing).
    """
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a shell variable name")
    if "\x00" in value:
        raise ValueError(f"the value of {name} contains a NUL character")
    data = value.encode("utf-8", "surrogateescape")
    body = "\\x" + data.hex("\\").replace("\\", "\\x") if data else ""
    return f"{name}=$'{body}'".encode("ascii")


def prologue(variables: Mapping[str, str]) -> bytes:
    """The assignments of `variables` as one line ahead of a script:
    ``A=$'…'; B=$'…'; `` (no newline, so the script's first line follows on
    the same line); empty when there are none. The variables are not
    exported and not readonly (see the module's docstring).

    Raises:
        ValueError: as `assignment`.
        mcp_harbor.step_env.UnregisteredStepVariable: a name the registry
            does not classify.
    """
    step_variables(variables)
    return b"".join(assignment(name, value) + b"; " for name, value in variables.items())


def secret_prologue(secrets: Mapping[str, str]) -> bytes:
    """The export's ``secrets:`` as unexported shell variables of a ``run:``
    step's bash, after `prologue` on the same first line: a secret reaches
    a program only when the script passes it to that one (issue 34, rule 5;
    the scrubber knows this ``\\xHH`` form). Their names are the author's
    (checked as identifiers by `assignment`), not the registry's.

    Raises:
        ValueError: as `assignment`.
    """
    return b"".join(assignment(name, value) + b"; " for name, value in secrets.items())


def split(
    variables: Mapping[str, str], *, environment: Collection[str] = ()
) -> tuple[dict[str, str], dict[str, str]]:
    """`variables` (the runtime's own, all registered) split into what may be
    exported and what may not: ``(exported, shell)``. `shell` holds every
    variable of class ``caller`` and the claimed identity (`CLAIMED`: with
    OAuth, a claim's text; a program such as ``make`` reads every variable
    of its environment as code); `exported` the other ``server`` and
    ``caller_file`` ones. A name in `environment` (the names of a step's
    literal ``env:``,
    which wins over the runtime's variable of the same name, as it always
    has) is left out of `shell`: assigning it in the prologue would give the
    exported variable the caller's value.

    Raises:
        mcp_harbor.step_env.UnregisteredStepVariable: a name the registry
            does not classify.
    """
    step_variables(variables)
    exported: dict[str, str] = {}
    shell: dict[str, str] = {}
    for name, value in variables.items():
        if classify(name) == "caller" or name in CLAIMED:
            if name not in environment:
                shell[name] = value
        else:
            exported[name] = value
    return exported, shell
