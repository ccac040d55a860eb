"""The export file format as pydantic models.

Every key is validated and an unknown key is an error; the loader turns
pydantic's errors into messages that name the file and line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from mcp_harbor.policy import validate_entry

__all__ = [
    "ARG_NAME_PATTERN",
    "HARBOR_ARG_KEYWORDS",
    "HARBOR_BOOL_KEYWORDS",
    "STEP_NAME_PATTERN",
    "TOOL_NAME_PATTERN",
    "Annotations",
    "AttachmentPolicy",
    "ExportSpec",
    "MemorySpec",
    "NeedsSpec",
    "RetrySpec",
    "StepSpec",
]

#: MCP tool names: 1 to 128 characters of ASCII letters, digits, ``_``, ``-`` and ``.``.
TOOL_NAME_PATTERN = r"^[A-Za-z0-9_.-]{1,128}$"
#: Arg names become ``ARG_<name>`` environment variables, so they are identifiers.
ARG_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
#: Step names are identifiers too (later steps read ``STEP_<name>_…`` variables).
STEP_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
#: Keywords of an arg's schema that belong to mcp-harbor, not to JSON Schema.
#: They are removed from the schema published to clients.
HARBOR_ARG_KEYWORDS = frozenset({"multiline", "secret", "disposition", "max_bytes"})
#: The arg keywords above whose value is a boolean.
HARBOR_BOOL_KEYWORDS = frozenset({"multiline", "secret"})

_ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"

ToolName = Annotated[str, StringConstraints(pattern=TOOL_NAME_PATTERN)]
StepName = Annotated[str, StringConstraints(pattern=STEP_NAME_PATTERN)]
EnvName = Annotated[str, StringConstraints(pattern=_ENV_NAME)]
Seconds = Annotated[float, Field(gt=0, le=7 * 24 * 3600)]
#: A worker label (``runs_on:``): the Celery queue ``runs_on.<label>``.
RUNS_ON_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"
RunsOn = Annotated[str, StringConstraints(pattern=RUNS_ON_PATTERN)]


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


class MemorySpec(_Strict):
    """``memory: {recent: N}``: give each run the last N calls of its session."""

    recent: Annotated[int, Field(ge=1, le=100)]


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


class StepSpec(_Strict):
    """One step of a pipeline: a ``run:`` script for bash or an ``argv:`` to exec."""

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

    @model_validator(mode="after")
    def _one_command(self) -> StepSpec:
        if (self.run is None) == (self.argv is None):
            raise ValueError(
                "a step needs exactly one of `run:` (a bash script) or `argv:` (a list)"
            )
        if self.run is not None and not self.run.strip():
            raise ValueError("`run:` is empty; write the command to run")
        return self


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
    approval_timeout: Annotated[float, Field(gt=0, le=7 * 24 * 3600)] | None = None
    concurrency: Annotated[int, Field(ge=1, le=10_000)] | None = None
    queue_timeout: Annotated[float, Field(ge=0, le=24 * 3600)] | None = None
    output_schema: dict[str, Any] | None = None
    memory: MemorySpec | None = None
    attachments: AttachmentPolicy = Field(default_factory=AttachmentPolicy)
    needs: NeedsSpec = Field(default_factory=NeedsSpec)
    #: Run on a worker serving this label (``mcp-harbor worker --queues``).
    runs_on: RunsOn | None = None
    #: With ``runs_on:``: run again on another worker when the first is lost
    #: (only for pipelines that are safe to run twice).
    redispatch: bool = False
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
