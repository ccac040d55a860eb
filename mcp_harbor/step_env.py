"""Every variable the step runtime gives a step, and whether a caller can
influence its value: the one registry of them.

**The guarantee.** Every variable the runtime gives a step
(`mcp_harbor.runner.pipeline`, for local runs, ``mcp-harbor run`` and remote
workers alike) goes through `step_variables`, which raises
`UnregisteredStepVariable` for a name this registry does not hold. So a step
is given no runtime variable whose `Influence` is not declared here, and a
checker that trusts this registry knows, for each of them, whether caller
data can arrive through it. The check changes no name and no value.

**Where each one goes.** ``server`` and ``caller_file`` variables are
exported (the step's environment). ``caller`` variables are never exported:
a ``run:`` step's bash gets them as unexported shell variables, assigned by
a prologue on the script's first line, and an ``argv:`` step does not get
them (`mcp_harbor.runner.prologue`, issue 34: caller data is not ambient).

Each variable has one `Influence`:

``caller``
    The value's text is, or contains, something the caller chose: an arg, a
    claim of the MCP client (``clientInfo``, the JSON-RPC request id), an
    HTTP header, or a step output (which may have been made from caller
    data). Treat it as hostile.
``caller_file``
    The value is a path the server chose (so the path's text is not the
    caller's), but the contents of the file or folder it names carry caller
    data: context.json (args, caller memory, attachments, step outputs), the
    files steps write (outputs, logs), decoded attachments. Reading it reads
    caller data.
``server``
    Neither the value nor anything it names is influenced by a caller: what
    the server generated, what the export's author wrote, what the
    authenticated identity (the tokens file) says.

Where in doubt, a variable is ``caller``. Names are families where the
runtime makes one variable per arg or per step: ``ARG_<name>``,
``STEP_<step>_EXIT``, ``STEP_<step>_STATUS`` and ``STEP_<step>_<key>``.

Not in this registry, because the runtime does not make them: the part of
the server's environment that steps receive (the names in `INHERITED` and
``LC_*``, plus those an export's ``pass_env:`` or the server's ``--pass-env``
list, never ``BASH_ENV``, ``ENV`` nor any ``ARG_*``/``HARBOR_*``/``STEP_*``:
`is_inherited`), the export's ``secrets:`` (names its author chose, values
read where the steps run), and a step's literal ``env:`` from the export file
(it is applied over ``HARBOR_*``/``ARG_*``, values are literal: the author's,
never the caller's). None of these is the caller's: `is_caller_influenced`
answers False for such names, but True for an unregistered name in the
runtime's own ``HARBOR_`` namespace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

__all__ = [
    "CLAIMED",
    "INFLUENCES",
    "INHERITED",
    "INHERITED_PREFIXES",
    "REGISTRY",
    "RUN_DIR_ENTRIES",
    "Influence",
    "StepVariable",
    "UnregisteredStepVariable",
    "caller_file_variables",
    "caller_variables",
    "classify",
    "families",
    "is_caller_file",
    "is_caller_influenced",
    "is_inherited",
    "lookup",
    "server_variables",
    "step_variables",
]

Influence = Literal["caller", "caller_file", "server"]
#: Every `Influence`, most to least hostile.
INFLUENCES: Final[tuple[Influence, ...]] = ("caller", "caller_file", "server")


class UnregisteredStepVariable(RuntimeError):
    """The runtime was about to give a step a variable this registry does not
    classify: a bug in mcp-harbor (register it in `REGISTRY`), never
    something a caller did."""


@dataclass(frozen=True, slots=True)
class StepVariable:
    """One exported variable, or one family of them (`prefix` set: every name
    that starts with `prefix`, ends with `suffix` and has something between)."""

    #: The name as documented: ``HARBOR_RUN_ID``, ``ARG_<name>``.
    name: str
    influence: Influence
    #: One line: what the value is and why it has its influence.
    description: str
    prefix: str | None = None
    suffix: str = ""

    @property
    def is_family(self) -> bool:
        return self.prefix is not None

    def matches(self, name: str) -> bool:
        """Whether `name` is this variable (or a member of this family)."""
        if self.prefix is None:
            return name == self.name
        return (
            len(name) > len(self.prefix) + len(self.suffix)
            and name.startswith(self.prefix)
            and name.endswith(self.suffix)
        )


def _exact(name: str, influence: Influence, description: str) -> StepVariable:
    return StepVariable(name, influence, description)


#: Every variable the runtime exports, in the order of docs/security.md.
REGISTRY: Final[tuple[StepVariable, ...]] = (
    # Per call: the arguments (mcp_harbor/runner/pipeline.py).
    StepVariable(
        "ARG_<name>",
        "caller",
        "each declared arg that has a value, as text (an attachment: the path of its "
        "decoded file, which the caller chose the bytes of)",
        prefix="ARG_",
    ),
    # Per run and per step (mcp_harbor/runner/pipeline.py).
    _exact("HARBOR_RUN_ID", "server", "the run id: start time and random hex, made by the server"),
    _exact(
        "HARBOR_RUN_DIR",
        "caller_file",
        "the run directory (a server path); it holds context.json, inputs/ (attachments), "
        "steps/ (outputs and logs) and output.json",
    ),
    _exact("HARBOR_TOOL", "server", "the export's name, from its file"),
    _exact("HARBOR_STEP", "server", "the step's name, from the export file"),
    _exact(
        "HARBOR_STEP_OUTPUT",
        "caller_file",
        "the file (a server path) the step writes key=value outputs to; read back as the "
        "STEP_ outputs later steps see",
    ),
    _exact(
        "HARBOR_PROGRESS",
        "caller_file",
        "the file (a server path) the step appends progress lines to (N/TOTAL message or "
        "PERCENT% message); their messages reach the client, escaped",
    ),
    # Per run (mcp_harbor/runctx/context.py).
    _exact(
        "HARBOR_CONTEXT",
        "caller_file",
        "context.json (a server path): args, caller memory, conversation, attachments, "
        "claimed client info, step outcomes and outputs",
    ),
    _exact(
        "HARBOR_OUTPUT",
        "caller_file",
        "output.json (a server path) where steps write the structured answer; earlier steps "
        "may have written caller data into it",
    ),
    # The caller (mcp_harbor/identity.py).
    _exact(
        "HARBOR_CALLER_PRINCIPAL",
        "server",
        "authenticated: the bearer token's name, local:USER (the OS user; stdio, CLI), "
        "ISSUER:CLAIM (OAuth: the claim's text is the identity provider's, so the checker "
        "reads it as a caller's) or anonymous; a run: step's shell variable, not exported",
    ),
    _exact(
        "HARBOR_CALLER_TENANT",
        "server",
        "the token's tenant from the tokens file or, with OAuth, a claim (read as a "
        "caller's text by the checker); local (stdio, CLI) or default; a run: step's shell "
        "variable, not exported",
    ),
    _exact("HARBOR_CALLER_TRANSPORT", "server", "stdio, http or cli: the server's own value"),
    _exact(
        "HARBOR_CALLER_GROUPS",
        "server",
        "the token's groups from the tokens file or, with OAuth, a claim (read as a "
        "caller's text by the checker), comma-separated (empty without a token); a run: "
        "step's shell variable, not exported",
    ),
    _exact("HARBOR_CALLER_CLIENT", "caller", "the client's claimed clientInfo name"),
    _exact("HARBOR_CALLER_CLIENT_VERSION", "caller", "the client's claimed clientInfo version"),
    _exact(
        "HARBOR_CALLER_SESSION",
        "caller",
        "over HTTP, http: and the Mcp-Session-Id header, which nothing checks on a "
        "2026-07-28 request; the stdio:, cli: and request: values are the server's",
    ),
    _exact(
        "HARBOR_CALLER_REQUEST_ID",
        "caller",
        "the JSON-RPC request id, chosen by the client (any string)",
    ),
    _exact(
        "HARBOR_CALLER_REMOTE_ADDR",
        "caller",
        "the HTTP peer address, which a loopback peer can set through X-Forwarded-For "
        "(uvicorn trusts proxy headers from 127.0.0.1)",
    ),
    # The outcomes of earlier steps (mcp_harbor/runner/pipeline.py). The two
    # runtime families come first: they win over the outputs' family.
    StepVariable(
        "STEP_<step>_EXIT",
        "server",
        "an earlier step's exit code (empty when it had none); no output key may end in _EXIT",
        prefix="STEP_",
        suffix="_EXIT",
    ),
    StepVariable(
        "STEP_<step>_STATUS",
        "server",
        "an earlier step's status: ok, failed, timeout or skipped; no output key may end in "
        "_STATUS",
        prefix="STEP_",
        suffix="_STATUS",
    ),
    StepVariable(
        "STEP_<step>_<key>",
        "caller",
        "an output an earlier step wrote to $HARBOR_STEP_OUTPUT, possibly from caller data",
        prefix="STEP_",
    ),
)

_BY_NAME: Final[dict[str, StepVariable]] = {v.name: v for v in REGISTRY if not v.is_family}
_FAMILIES: Final[tuple[StepVariable, ...]] = tuple(v for v in REGISTRY if v.is_family)
_FAMILY_PREFIXES: Final[tuple[str, ...]] = tuple({v.prefix: None for v in _FAMILIES if v.prefix})
#: The namespace the runtime keeps for itself (the inherited environment is
#: stripped of ``ARG_*`` and ``HARBOR_*``).
_RUNTIME_PREFIXES: Final[tuple[str, ...]] = ("HARBOR_", "ARG_", "STEP_")


def _names(influence: Influence) -> frozenset[str]:
    return frozenset(name for name, v in _BY_NAME.items() if v.influence == influence)


_CALLER: Final = _names("caller")
_CALLER_FILE: Final = _names("caller_file")
_SERVER: Final = _names("server")


def lookup(name: str) -> StepVariable | None:
    """The registry entry that covers `name` (exactly or as a member of a
    family), or None when `name` is not a variable the runtime exports."""
    found = _BY_NAME.get(name)
    if found is not None:
        return found
    if name.startswith(_FAMILY_PREFIXES):
        for family in _FAMILIES:
            if family.matches(name):
                return family
    return None


def classify(name: str) -> Influence | None:
    """The `Influence` of the exported variable `name`; None when the
    runtime exports no such variable."""
    found = lookup(name)
    return None if found is None else found.influence


def is_caller_influenced(name: str) -> bool:
    """True when a caller can choose (part of) the value of `name`: its class
    is ``caller``, or it is an unregistered name in the runtime's own
    ``HARBOR_``/``ARG_``/``STEP_`` namespace (conservative: the runtime never
    sets it). False for ``caller_file`` and ``server`` variables and for
    names outside that namespace (the inherited environment, ``env:``)."""
    influence = classify(name)
    if influence is None:
        return name.startswith(_RUNTIME_PREFIXES)
    return influence == "caller"


def is_caller_file(name: str) -> bool:
    """True when `name` is a server-chosen path whose contents carry caller data."""
    return classify(name) == "caller_file"


def caller_variables() -> frozenset[str]:
    """The exact names classified ``caller`` (families: see `families`)."""
    return _CALLER


def caller_file_variables() -> frozenset[str]:
    """The exact names classified ``caller_file``."""
    return _CALLER_FILE


def server_variables() -> frozenset[str]:
    """The exact names classified ``server``."""
    return _SERVER


def families() -> tuple[StepVariable, ...]:
    """The families (``ARG_<name>``, ``STEP_<step>_…``), in matching order:
    the first that `~StepVariable.matches` a name is its entry."""
    return _FAMILIES


#: The server's variables every step receives (when the server has them):
#: what programs need to find themselves, their home, the user, the locale,
#: the time zone, the terminal type and the temporary folder. Nothing else of
#: the server's environment reaches a step unless ``pass_env:`` or
#: ``--pass-env`` names it.
INHERITED: Final[frozenset[str]] = frozenset(
    {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TERM", "TMPDIR"}
)
#: Families of the server's variables every step receives (``LC_ALL``, ``LC_CTYPE``, …).
INHERITED_PREFIXES: Final[tuple[str, ...]] = ("LC_",)


def is_inherited(name: str) -> bool:
    """Whether a step receives the server's variable `name` without any
    ``pass_env:``: it is in `INHERITED` or an ``LC_*`` one."""
    return name in INHERITED or name.startswith(INHERITED_PREFIXES)


#: ``server`` variables whose text an identity provider chooses: with OAuth
#: (security.md §13) the principal is ``ISSUER:CLAIM``, the tenant and the
#: groups come from the token's claims, escaped only for control and bidi
#: characters, and a user may pick a claim's text (a username, an email's
#: local part, a partner issuer's ``sub``). The runtime gives them to a
#: ``run:`` step as unexported shell variables, as the ``caller`` class's
#: (`mcp_harbor.runner.prologue.split`: a program such as ``make`` reads
#: every variable of its environment as code), and the checker reads their
#: text as a caller's (`mcp_harbor.check._taint`).
CLAIMED: Final[frozenset[str]] = frozenset(
    {"HARBOR_CALLER_PRINCIPAL", "HARBOR_CALLER_TENANT", "HARBOR_CALLER_GROUPS"}
)


#: What the server itself makes in a run directory (``$HARBOR_RUN_DIR``),
#: each a ``caller_file``: ``context.json`` (`HARBOR_CONTEXT`),
#: ``output.json`` (`HARBOR_OUTPUT`), ``inputs/`` (decoded attachments),
#: ``steps/`` (each step's logs, outputs and progress), ``tools/`` (the run
#: directories of an agent's tool calls) and ``tmp/`` (``TMPDIR`` under a
#: ``sandbox:``, where any program writes). Everything else in a run
#: directory was made by the run's own steps. The runtime makes nothing else
#: there (a test holds it to this list).
RUN_DIR_ENTRIES: Final[frozenset[str]] = frozenset(
    {"context.json", "output.json", "inputs", "steps", "tools", "tmp"}
)


_M = TypeVar("_M", bound=Mapping[str, str])


def step_variables(variables: _M) -> _M:
    """`variables`, unchanged, once every name in it is registered: the one
    check every variable the runtime gives a step (exported or, for the
    ``caller`` ones, a shell variable) goes through.

    Raises:
        UnregisteredStepVariable: a name the registry does not classify.
    """
    for name in variables:
        if name not in _BY_NAME and lookup(name) is None:
            raise UnregisteredStepVariable(
                f"the step runtime was about to give a step {name!r}, which "
                f"mcp_harbor.step_env.REGISTRY does not classify; register it with its "
                f"influence (caller, caller_file or server) before exporting it"
            )
    return variables
