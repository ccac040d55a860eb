"""The export file format as pydantic models.

Every key is validated and an unknown key is an error; the loader turns
pydantic's errors into messages that name the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from mcp_harbor.policy import validate_entry

__all__ = [
    "ARG_NAME_PATTERN",
    "CUSTOM_TOOL_PATTERN",
    "FLAG_PATTERN",
    "HARBOR_ARG_KEYWORDS",
    "HARBOR_BOOL_KEYWORDS",
    "LEADING_DASH_PATTERN",
    "NEVER_PASSED_ENV",
    "OPTION_PATTERN",
    "PROGRAM_NAME_PATTERN",
    "RUNTIME_ENV_PREFIXES",
    "SHELL_SETTINGS_ENV",
    "STEP_NAME_PATTERN",
    "TOOL_NAME_PATTERN",
    "AgentSpec",
    "Annotations",
    "AttachmentPolicy",
    "CustomToolSpec",
    "ExportSpec",
    "FixSpec",
    "MemorySpec",
    "NeedsSpec",
    "ProgramGrammar",
    "ProgramsFileSpec",
    "RateLimitSpec",
    "RecallSpec",
    "RetrySpec",
    "SandboxLimits",
    "SandboxSpec",
    "SecretSource",
    "StepSpec",
    "env_name_problem",
    "leading_dash_not",
    "refuses_leading_dash",
    "refuses_leading_dash_items",
]

#: MCP tool names: 1 to 128 characters of ASCII letters, digits, ``_``, ``-`` and ``.``.
TOOL_NAME_PATTERN = r"^[A-Za-z0-9_.-]{1,128}$"
#: Arg names become ``ARG_<name>`` environment variables, so they are identifiers.
ARG_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
#: Step names are identifiers too (later steps read ``STEP_<name>_…`` variables).
STEP_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
#: Keywords of an arg's schema that belong to mcp-harbor, not to JSON Schema.
#: They are removed from the schema published to clients.
HARBOR_ARG_KEYWORDS = frozenset(
    {"multiline", "secret", "disposition", "max_bytes", "leading_dash", "within"}
)
#: The arg keywords above whose value is a boolean.
HARBOR_BOOL_KEYWORDS = frozenset({"multiline", "secret", "leading_dash"})
#: What the published schema of a string refused when it starts with ``-``
#: says about it: ``"not": {"pattern": "^-"}``.
LEADING_DASH_PATTERN = "^-"
#: A program's name under ``programs:``: the command word's basename
#: (``deploy-tool``) or the command word as written when it holds a ``/``
#: (``./scripts/deploy.sh``).
PROGRAM_NAME_PATTERN = r"^[A-Za-z0-9_.+/][A-Za-z0-9_.+/-]*$"
#: An option of a program grammar: ``-e``, ``--env``, ``-name``; not ``--`` itself,
#: and without a value (``--env``, not ``--env=prod``).
OPTION_PATTERN = r"^(?:--?[^\s=-]|\+[^\s=+])[^\s=]*$"
FLAG_PATTERN = r"^(?:--?[^\s=-]|\+[^\s=+])[^\s=]*(?:=\S*)?$"

_ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"

ToolName = Annotated[str, StringConstraints(pattern=TOOL_NAME_PATTERN)]
StepName = Annotated[str, StringConstraints(pattern=STEP_NAME_PATTERN)]
EnvName = Annotated[str, StringConstraints(pattern=_ENV_NAME)]
Seconds = Annotated[float, Field(gt=0, le=7 * 24 * 3600)]
#: A worker label (``runs_on:``): the Celery queue ``runs_on.<label>``.
RUNS_ON_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"
RunsOn = Annotated[str, StringConstraints(pattern=RUNS_ON_PATTERN)]


def refuses_leading_dash(schema: Mapping[str, Any]) -> bool:
    """Whether a call is refused when this arg's value is a string starting
    with ``-`` (the value could be read as an option: CWE-88).

    Every string arg refuses it unless it declares ``leading_dash: true``;
    an arg with ``enum`` or ``const`` is exempt, since each value it admits
    was written by the export's author. Only strings are concerned (``-1``
    as an integer is ``minimum:``'s business)."""
    return schema.get("leading_dash") is not True and "enum" not in schema and "const" not in schema


def refuses_leading_dash_items(schema: Mapping[str, Any]) -> bool:
    """Whether a call is refused when this arg's value is an array with a
    string item starting with ``-``: as `refuses_leading_dash` (an arg with
    ``enum`` or ``const`` lists whole values, arrays included), and exempt
    too when every schema that can govern an item (``items``, each of
    ``prefixItems``) has ``enum`` or ``const``."""
    if not refuses_leading_dash(schema):
        return False
    governing: list[Any] = []
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list):
        governing.extend(prefix)
    items = schema.get("items", True)
    if items is not False:
        governing.append(items)
    return any(not (isinstance(g, Mapping) and ("enum" in g or "const" in g)) for g in governing)


def leading_dash_not(only_strings: bool) -> dict[str, Any]:
    """The ``not`` subschema a published schema gets where a string starting
    with ``-`` is refused: ``{"pattern": "^-"}`` for a schema that admits
    strings only, else ``{"type": "string", "pattern": "^-"}`` (a bare
    ``pattern`` holds for every non-string, so its ``not`` would refuse them)."""
    if only_strings:
        return {"pattern": LEADING_DASH_PATTERN}
    return {"type": "string", "pattern": LEADING_DASH_PATTERN}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Annotations(_Strict):
    """MCP tool annotations (hints for clients, not guarantees)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)

    title: str | None = None
    readOnlyHint: bool | None = None
    destructiveHint: bool | None = None
    idempotentHint: bool | None = None
    openWorldHint: bool | None = None


class RecallSpec(_Strict):
    """``memory: {recall: {k, min_score, max_chars}}``: give an agent step
    the `k` past turns of the same principal and tenant most similar to this
    call (cosine similarity of embeddings at least `min_score`), at most
    `max_chars` characters in all."""

    k: Annotated[int, Field(ge=1, le=50)] = 3
    min_score: Annotated[float, Field(ge=-1, le=1)] = 0.3
    max_chars: Annotated[int, Field(ge=64, le=64 * 1024)] = 4096


class MemorySpec(_Strict):
    """``memory: {recent: N, recall: …}``: give each run the last N calls of
    its session, and agent steps similar past turns (`RecallSpec`, off
    unless given)."""

    recent: Annotated[int, Field(ge=1, le=100)] | None = None
    recall: RecallSpec | None = None

    @model_validator(mode="after")
    def _something(self) -> MemorySpec:
        if self.recent is None and self.recall is None:
            raise ValueError("memory: needs recent: N, recall: {k: …}, or both")
        return self


class RateLimitSpec(_Strict):
    """``rate_limit: {calls: N, per: SECONDS}``: each principal may make at
    most `calls` calls of the tool in any window of `per` seconds (a sliding
    window; see `mcp_harbor.runctx.ratelimit`). The bounds keep the window's
    bookkeeping small: at most 10,000 calls remembered per principal, a
    window of at most a week."""

    calls: Annotated[int, Field(ge=1, le=10_000)]
    per: Seconds

    def describe(self) -> str:
        """``N/SECONDS``, as ``--rate-limit`` takes it."""
        return f"{self.calls}/{self.per:g}"


class AttachmentPolicy(_Strict):
    """``attachments:``: how base64 args (``contentEncoding: base64``) are handed over.

    `disposition` ``ref`` gives steps the file's path only; ``inline`` also
    puts small text files into context.json. An arg's own ``disposition``
    beats this. `max_bytes` caps each decoded file (an arg's ``max_bytes``
    beats it).
    """

    disposition: Literal["inline", "ref"] = "ref"
    max_bytes: Annotated[int, Field(ge=1, le=1 << 30)] = 10 * 1024 * 1024


class RetrySpec(_Strict):
    """``retry: {attempts: 3, delay: 2}``: run a failing step again, up to
    `attempts` times in all, `delay` seconds apart."""

    attempts: Annotated[int, Field(ge=1, le=20)]
    delay: Annotated[float, Field(ge=0, le=3600)] = 0.0


class NeedsSpec(_Strict):
    """``needs:``: what must be there before the export is offered, besides
    the programs its steps visibly run."""

    env: list[EnvName] = Field(default_factory=list)
    files: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    programs: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.+/-]+$")]] = Field(
        default_factory=list
    )
    tcp: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:\[\]-]+:[0-9]{1,5}$")]] = (
        Field(default_factory=list)
    )


class SandboxLimits(_Strict):
    """``sandbox: {limits: …}``: what each step's processes may use. Each
    limit holds for each step separately; an unset one is not limited."""

    #: CPU time of each process, in seconds (RLIMIT_CPU): then it is killed.
    cpu_seconds: Annotated[int, Field(ge=1, le=7 * 24 * 3600)] | None = None
    #: Address space of each process, in MiB (RLIMIT_AS): an allocation
    #: beyond it fails.
    memory_mb: Annotated[int, Field(ge=16, le=1 << 22)] | None = None
    #: Processes (and threads) the step may have at once.
    processes: Annotated[int, Field(ge=1, le=1 << 16)] | None = None
    #: The largest file a process may write, in MiB (RLIMIT_FSIZE).
    file_size_mb: Annotated[int, Field(ge=1, le=1 << 22)] | None = None
    #: Open files of each process (RLIMIT_NOFILE).
    open_files: Annotated[int, Field(ge=8, le=1 << 20)] | None = None


SandboxPath = Annotated[str, StringConstraints(min_length=1, pattern=r"^[^\x00]+$")]


class SandboxSpec(_Strict):
    """``sandbox:``: what the steps of this export can reach.

    - `network`: ``none`` (no network at all), ``loopback`` (a loopback of
      the step's own, not the host's) or ``host`` (the default).
    - `writable`: folders writable besides the run directory (always
      writable). Relative paths are relative to the step's cwd.
    - `readable`: when given, only these (plus what programs need to start)
      can be read; else everything but the server's own folders.
    - `limits`: per-step resource limits.
    """

    network: Literal["none", "loopback", "host"] = "host"
    writable: list[SandboxPath] = Field(default_factory=list)
    readable: list[SandboxPath] | None = None
    limits: SandboxLimits = Field(default_factory=SandboxLimits)


#: Names that never pass into a step's environment (``pass_env:``,
#: ``--pass-env``) nor name a secret: non-interactive bash reads the file they
#: name before the script, even with ``--norc``.
NEVER_PASSED_ENV = frozenset({"BASH_ENV", "ENV"})
#: Names bash reads from its environment as its own settings when it starts
#: (bash(1) 5.2, "Shell Variables"): options (``SHELLOPTS=allexport``,
#: ``BASHOPTS=extglob``), where ``cd`` looks first, which names globs drop,
#: POSIX mode and compatibility levels, the trace prefix and descriptor, a
#: timeout for ``read``. A step's script must run as its text reads, so
#: none of them reaches a step from ``env:``, ``pass_env:`` or ``--pass-env``.
SHELL_SETTINGS_ENV = frozenset(
    {"SHELLOPTS", "BASHOPTS", "CDPATH", "GLOBIGNORE", "POSIXLY_CORRECT", "BASH_COMPAT",
     "PS4", "BASH_XTRACEFD", "EXECIGNORE", "FUNCNEST", "TMOUT", "TIMEFORMAT",
     "BASH_LOADABLES_PATH", "GLOBSORT"}
)  # fmt: skip
#: The runtime's own namespace of step variables (`mcp_harbor.step_env`).
RUNTIME_ENV_PREFIXES = ("ARG_", "HARBOR_", "STEP_")


def env_name_problem(name: str, what: str) -> str | None:
    """Why `name` may not be passed to steps as `what` (``pass_env``,
    ``--pass-env``, ``a secret's name``); None when it may."""
    if not re.fullmatch(_ENV_NAME, name):
        return (
            f"{what} {name!r} is not an environment variable name "
            f"(letters, digits and _, not starting with a digit)"
        )
    if name in NEVER_PASSED_ENV:
        return (
            f"{what} {name}: BASH_ENV and ENV never reach a step (bash would read the file "
            f"they name before the step's script); remove it"
        )
    if name in SHELL_SETTINGS_ENV:
        return (
            f"{what} {name}: bash reads {name} from its environment as a setting of its "
            f"own, so the script would not run as its text reads; set it in the script "
            f"(`shopt -s …`, `set -o …`, `{name}=…`) where the checker sees it, or remove it "
            f'(an `env:` value of "" that only clears it is fine)'
        )
    if name.startswith(RUNTIME_ENV_PREFIXES):
        return (
            f"{what} {name}: ARG_*, HARBOR_* and STEP_* are the runtime's variables; "
            f"choose another name"
        )
    return None


class SecretSource(_Strict):
    """One entry of ``secrets:``: where the executor reads the value, at run
    time: exactly one of `env` (an environment variable of the process that
    runs the steps) or `file` (a file's content, one trailing newline
    stripped; relative to the export file's folder)."""

    env: EnvName | None = None
    file: Annotated[str, Field(min_length=1)] | None = None
    #: programs that may get the value anywhere (an argument, stdin, their
    #: environment) besides the places a credential grammar names: the
    #: author's word that they never print it (`mcp_harbor.check.credentials`)
    programs: list[Annotated[str, StringConstraints(pattern=PROGRAM_NAME_PATTERN)]] = Field(
        default_factory=list
    )

    @model_validator(mode="after")
    def _one_source(self) -> SecretSource:
        if (self.env is None) == (self.file is None):
            raise ValueError(
                "a secret needs exactly one of `env:` (an environment variable) or "
                "`file:` (a path), e.g. {env: CI_DEPLOY_TOKEN}"
            )
        return self

    def describe(self) -> str:
        """Where the value comes from, for messages: ``environment variable
        X`` or ``file P``."""
        return f"environment variable {self.env}" if self.env is not None else f"file {self.file}"


#: A custom tool's key under ``tools:``: the name the model is offered
#: (OpenAI's function names allow letters, digits, ``_`` and ``-``).
CUSTOM_TOOL_PATTERN = r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$"
CustomToolName = Annotated[str, StringConstraints(pattern=CUSTOM_TOOL_PATTERN)]
ModelName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
Grant = Annotated[str, StringConstraints(pattern=TOOL_NAME_PATTERN)]


class AgentSpec(_Strict):
    """``agent:``: a step that is a model conversation with a tool grant.

    - `model`: a name of the models file (``--models``).
    - `system`: operator text, no placeholders at all.
    - `prompt`: operator text; caller values only as ``{{ args.x | data }}``.
    - `tools`: the grant: this export's custom tools, then other published
      exports by name; nothing else.
    - `max_turns`, `max_tool_calls`, `timeout`: the budgets.
    - `attempts`: whole conversations on the same model source.
    - `outputs`: JSON Schema of the final answer (an object); its top-level
      keys become the step's outputs.
    - `assert`: the ``if:`` language over ``answer``, judged on a valid answer.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)

    model: ModelName
    system: str | None = None
    prompt: Annotated[str, Field(min_length=1)]
    tools: list[Grant] = Field(default_factory=list)
    max_turns: Annotated[int, Field(ge=1, le=200)] = 8
    max_tool_calls: Annotated[int, Field(ge=0, le=1000)] = 16
    attempts: Annotated[int, Field(ge=1, le=10)] = 1
    timeout: Seconds | None = None
    outputs: dict[str, Any] | None = None
    assert_: Annotated[str, Field(min_length=1)] | None = Field(default=None, alias="assert")

    @field_validator("tools")
    @classmethod
    def _once(cls, tools: list[str]) -> list[str]:
        twice = sorted({t for t in tools if tools.count(t) > 1})
        if twice:
            raise ValueError(f"tools lists {', '.join(twice)} more than once; keep one")
        return tools


class FixSpec(_Strict):
    """``fix:`` on a ``run:``/``argv:`` step: when the step fails, an agent
    gets the failure as data and a zero-argument ``rerun`` tool; when it
    stops, the runner re-runs the step itself and that re-run decides."""

    model: ModelName
    prompt: Annotated[str, Field(min_length=1)]
    tools: list[Grant] = Field(default_factory=list)
    max_turns: Annotated[int, Field(ge=1, le=200)] = 8
    max_tool_calls: Annotated[int, Field(ge=0, le=1000)] = 16
    attempts: Annotated[int, Field(ge=1, le=10)] = 1


class CustomToolSpec(_Strict):
    """One entry of ``tools:``: a tool only this export's agents may call,
    export-shaped (`description`, `args`, `required`, ``run:`` or ``argv:``,
    `timeout`) and checked like an export, with the model's arguments
    treated exactly as a caller's."""

    description: Annotated[str, Field(min_length=1)]
    args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    required: list[str] = Field(default_factory=list)
    run: str | None = None
    argv: Annotated[list[str], Field(min_length=1)] | None = None
    timeout: Seconds | None = None

    @model_validator(mode="after")
    def _one_command(self) -> CustomToolSpec:
        if (self.run is None) == (self.argv is None):
            raise ValueError(
                "a custom tool needs exactly one of `run:` (a bash script) or `argv:` (a list)"
            )
        if self.run is not None and not self.run.strip():
            raise ValueError("`run:` is empty; write the command to run")
        return self


class StepSpec(_Strict):
    """One step of a pipeline: a ``run:`` script for bash, an ``argv:`` to
    exec, or an ``agent:`` conversation."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)

    name: StepName
    run: str | None = None
    argv: Annotated[list[str], Field(min_length=1)] | None = None
    timeout: Seconds | None = None
    env: dict[EnvName, str] = Field(default_factory=dict)
    cwd: str | None = None
    continue_on_error: bool = False
    if_: str | None = Field(default=None, alias="if")
    retry: RetrySpec | None = None
    agent: AgentSpec | None = None
    fix: FixSpec | None = None

    @model_validator(mode="after")
    def _one_command(self) -> StepSpec:
        given = [k for k in ("run", "argv", "agent") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "a step needs exactly one of `run:` (a bash script), `argv:` (a list) or "
                "`agent:` (a model conversation)"
                + (f"; it has {' and '.join(given)}" if given else "")
            )
        if self.run is not None and not self.run.strip():
            raise ValueError("`run:` is empty; write the command to run")
        if self.agent is not None:
            wrong = [
                key
                for key, value in (
                    ("env", self.env),
                    ("cwd", self.cwd),
                    ("retry", self.retry),
                    ("fix", self.fix),
                    ("timeout", self.timeout),
                )
                if value
            ]
            if wrong:
                raise ValueError(
                    f"an agent: step takes no {', '.join(wrong)} (its budgets are under agent:: "
                    f"timeout, max_turns, max_tool_calls, attempts); remove "
                    f"{'it' if len(wrong) == 1 else 'them'}"
                )
        return self


OptionWord = Annotated[str, StringConstraints(pattern=OPTION_PATTERN)]
#: A flag may be written with the value the script always gives it
#: (``--log-level=ERROR``): that whole word is a flag.
FlagWord = Annotated[str, StringConstraints(pattern=FLAG_PATTERN)]
ProgramName = Annotated[str, StringConstraints(pattern=PROGRAM_NAME_PATTERN)]

_OPTION_LISTS = ("options_with_value", "flags", "code_options")


class ProgramGrammar(_Strict):
    """``programs: {NAME: …}``: an operator's word on how one program reads
    its arguments, so that the checker can trust exactly that far.

    - `options_with_value`: options that take a value: the next word
      (``--env prod``), attached with ``=`` (``--env=prod``) or, for a
      one-letter option, attached (``-eprod``).
    - `flags`: options that take no value, or whole words the script
      writes with a value attached (``--log-level=ERROR``). Any other word
      starting with ``-`` is an option the grammar does not know. A
      program whose options start with ``+`` (dig's ``+short``,
      ``+time=2``) lists them so: then every word starting with ``+`` is
      one of its options too.
    - `end_of_options`: ``--`` ends the options (default true).
    - `runs_operands`: ``false`` declares that the program executes none of
      its operands as code or commands; ``true`` that it may. Not stated
      (None): the grammar says nothing about operands.
    - `code_options`: options whose value is code or a command (a hook);
      they take a value too, whether or not `options_with_value` lists them.
    - `stdin`: ``data`` declares that the program reads its standard input
      as data (never as commands); ``code`` or not stated: it may not.
    - `output_options`: stated, the program writes no file but those the
      values of these options name (``[]``: none); they take a value.
      Not stated (None): it may write any file, so caller data given to it
      may put files in the folder it works in.
    """

    options_with_value: tuple[OptionWord, ...] = ()
    flags: tuple[FlagWord, ...] = ()
    end_of_options: bool = True
    runs_operands: bool | None = None
    code_options: tuple[OptionWord, ...] = ()
    stdin: Literal["data", "code"] | None = None
    output_options: tuple[OptionWord, ...] | None = None

    @field_validator(*_OPTION_LISTS, "output_options", mode="before")
    @classmethod
    def _a_list(cls, value: Any) -> Any:
        if isinstance(value, list):
            # YAML reads -4 and -6 (ip, curl, ssh) as numbers: the option written
            return tuple(
                str(v) if isinstance(v, int) and not isinstance(v, bool) and v < 0 else v
                for v in value
            )
        if isinstance(value, tuple):
            return value
        raise ValueError("must be a list of options, e.g. [--env, -e]")

    @model_validator(mode="after")
    def _consistent(self) -> ProgramGrammar:
        if not self.model_fields_set:
            raise ValueError(
                "this grammar says nothing; declare options_with_value, flags, "
                "end_of_options, runs_operands, code_options, stdin or output_options"
            )
        for key in (*_OPTION_LISTS, "output_options"):
            words: tuple[str, ...] = getattr(self, key) or ()
            twice = sorted({w for w in words if words.count(w) > 1})
            if twice:
                raise ValueError(f"{key} lists {', '.join(twice)} more than once; keep one")
        both = sorted(set(self.flags) & (set(self.value_options) | set(self.output_options or ())))
        if both:
            raise ValueError(
                f"{', '.join(both)} cannot be both a flag and an option that takes a value; "
                f"list each option once"
            )
        return self

    @property
    def value_options(self) -> frozenset[str]:
        """Every option that takes a value (`options_with_value`,
        `code_options` and `output_options`)."""
        return (
            frozenset(self.options_with_value)
            | frozenset(self.code_options)
            | frozenset(self.output_options or ())
        )

    @property
    def plus_options(self) -> bool:
        """Some of its options start with ``+`` (dig's ``+short``): so may a
        word of the caller's that it reads as one."""
        return any(
            o.startswith("+") for o in (*self.options_with_value, *self.flags, *self.code_options)
        )

    @property
    def runs_no_operands(self) -> bool:
        """Declared (``runs_operands: false``) to execute none of its operands."""
        return self.runs_operands is False

    def kind_of(self, word: str) -> Literal["flag", "value", "code"] | None:
        """What `word` (one argument starting with ``-``) is by this grammar:
        ``"flag"``, ``"value"`` (an option taking a value, the value given in
        `word` or in the next word) or ``"code"`` (a `code_options` one), or
        None when the grammar does not know it. ``--env=prod`` and, for a
        one-letter option, ``-eprod`` are the option with its value."""
        if "=" in word and word in self.flags:
            return "flag"  # --log-level=ERROR, listed whole
        candidates = [word]
        if word.startswith("--") and "=" in word:
            candidates = [word.split("=", 1)[0]]
        elif not word.startswith("--") and len(word) > 2:
            candidates.append(word[:2])  # -eprod: -e with the value attached
        for candidate in candidates:
            if candidate in self.code_options:
                return "code"
            if candidate in self.options_with_value or candidate in (self.output_options or ()):
                return "value"
            if candidate == word and candidate in self.flags:
                return "flag"
        return None


class ProgramsFileSpec(_Strict):
    """The server-wide file of ``--programs FILE``: a top-level ``programs:``
    mapping, each entry a `ProgramGrammar`."""

    programs: dict[ProgramName, ProgramGrammar]


class ExportSpec(_Strict):
    """One export file: one MCP tool."""

    name: ToolName
    title: str | None = None
    description: Annotated[str, Field(min_length=1)]
    args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    required: list[str] = Field(default_factory=list)
    timeout: Seconds | None = None
    output_tail: Annotated[int, Field(ge=0, le=16 * 1024 * 1024)] | None = None
    annotations: Annotations | None = None
    allow: Annotated[list[str], Field(min_length=1)] = Field(default_factory=lambda: ["*"])
    confirm: Annotated[str, Field(min_length=1)] | None = None
    #: Who may answer the ``confirm:`` (entries as in ``allow:``); never the
    #: caller itself, and never the caller's own client. None: any operator
    #: of the store, or the caller's human through its client.
    approvers: Annotated[list[str], Field(min_length=1)] | None = None
    approval_timeout: Annotated[float, Field(gt=0, le=7 * 24 * 3600)] | None = None
    concurrency: Annotated[int, Field(ge=1, le=10_000)] | None = None
    queue_timeout: Annotated[float, Field(ge=0, le=24 * 3600)] | None = None
    #: Whether a call runs as a durable task of the MCP tasks extension
    #: (``mcp_harbor.server.tasks``): ``optional``, a task when the client
    #: declares the extension; ``required``, always a task (a client that does
    #: not declare it is refused, nothing runs); ``never``, a plain result.
    task: Literal["optional", "required", "never"] = "optional"
    #: The longest a task of this tool is kept, in seconds (beats a longer
    #: ``--task-ttl``).
    task_ttl: Annotated[float, Field(gt=0, le=30 * 24 * 3600)] | None = None
    #: Calls of this tool each principal may make per window (beats the
    #: server's ``--rate-limit``).
    rate_limit: RateLimitSpec | None = None
    output_schema: dict[str, Any] | None = None
    memory: MemorySpec | None = None
    attachments: AttachmentPolicy = Field(default_factory=AttachmentPolicy)
    needs: NeedsSpec = Field(default_factory=NeedsSpec)
    #: What the steps can reach when they run (see `SandboxSpec`); None:
    #: only the confinement every step gets.
    sandbox: SandboxSpec | None = None
    #: How in-house programs read their arguments (see `ProgramGrammar`);
    #: an entry here beats the server-wide one of the same name.
    programs: dict[ProgramName, ProgramGrammar] = Field(default_factory=dict)
    #: Variables of the server's environment (besides the minimal set) that
    #: steps receive: ``pass_env: [NAME, …]``.
    pass_env: list[str] = Field(default_factory=list)
    #: Values steps receive under a name, read where the steps run:
    #: ``secrets: {NAME: {env: VAR} | {file: PATH}}``.
    secrets: dict[str, SecretSource] = Field(default_factory=dict)
    #: Run on a worker serving this label (``mcp-harbor worker --queues``).
    runs_on: RunsOn | None = None
    #: With ``runs_on:``: run again on another worker when the first is lost
    #: (only for pipelines that are safe to run twice).
    redispatch: bool = False
    #: Custom tools this export's agents may be granted (the model writes
    #: their arguments; validated and checked like a caller's).
    tools: dict[CustomToolName, CustomToolSpec] = Field(default_factory=dict)
    steps: Annotated[list[StepSpec], Field(min_length=1)]
    on_failure: list[StepSpec] = Field(default_factory=list)
    finally_: list[StepSpec] = Field(default_factory=list, alias="finally")

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)

    @model_validator(mode="after")
    def _redispatch_needs_runs_on(self) -> ExportSpec:
        if self.redispatch and self.runs_on is None:
            raise ValueError("redispatch: true needs runs_on: (only worker runs are re-dispatched)")
        return self

    @model_validator(mode="after")
    def _valid_allow(self) -> ExportSpec:
        for entry in self.allow:
            problem = validate_entry(entry)
            if problem is not None:
                raise ValueError(f"allow entry {entry!r}: {problem}")
        return self

    @model_validator(mode="after")
    def _valid_approvers(self) -> ExportSpec:
        if self.approvers is None:
            return self
        if self.confirm is None:
            raise ValueError(
                "approvers: names who answers the confirm: question; add confirm: "
                "(the question shown to the approver) or remove approvers:"
            )
        for entry in self.approvers:
            problem = validate_entry(entry)
            if problem is not None:
                raise ValueError(
                    f"approvers entry {entry!r}: {problem.replace('allow', 'approvers')}"
                )
        return self
