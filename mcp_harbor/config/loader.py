"""Load export files into validated, compiled `Export` objects.

Loading is all-or-nothing per file: an `Export` exists only when its file is
valid YAML, every key is known and well-typed, every arg schema is a valid
JSON Schema whose default satisfies it, and every placeholder parses. The
injection checker runs on loaded exports before anything is registered.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import jsonschema
import pydantic
from jsonschema.validators import Draft202012Validator

from mcp_harbor.config._problems import dotted as _dotted
from mcp_harbor.config._problems import pydantic_problem
from mcp_harbor.config.canonical import canonical_json
from mcp_harbor.config.model import (
    ARG_NAME_PATTERN,
    HARBOR_ARG_KEYWORDS,
    HARBOR_BOOL_KEYWORDS,
    NEVER_PASSED_ENV,
    SHELL_SETTINGS_ENV,
    Annotations,
    ExportSpec,
    ProgramGrammar,
    SecretSource,
    StepSpec,
    env_name_problem,
    leading_dash_not,
    refuses_leading_dash,
    refuses_leading_dash_items,
)
from mcp_harbor.config.programs import effective_programs, programs_content_hash, server_programs
from mcp_harbor.config.yaml_source import SourceMap, read_yaml
from mcp_harbor.errors import ConfigError, TemplateError
from mcp_harbor.expr import Expr, ExprError, parse_expr
from mcp_harbor.template import Template, parse

__all__ = [
    "MAX_AGENT_NESTING",
    "Export",
    "RebasedSourceMap",
    "Step",
    "discover_files",
    "grant_problems",
    "load_export",
    "load_exports",
]

_EXTENSIONS = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Step:
    """A compiled step: its spec plus parsed templates and resolved cwd.

    An ``agent:`` step has no `script` nor `argv`: its `prompt` (and
    `system`, kept parsed so the checker can see a placeholder in it) and
    `assertion`. A ``run:``/``argv:`` step with ``fix:`` has the fix's
    prompt in `prompt`."""

    spec: StepSpec
    index: int
    kind: Literal["run", "argv", "agent"]
    script: Template | None
    argv: tuple[Template, ...] | None
    cwd: Path | None  # None: the server's working directory
    section: Literal["steps", "on_failure", "finally"] = "steps"
    condition: Expr | None = None
    prompt: Template | None = None
    system: Template | None = None
    assertion: Expr | None = None

    @property
    def is_agent(self) -> bool:
        return self.kind == "agent"

    @property
    def grant(self) -> tuple[str, ...]:
        """The tools its model may call (an agent's, or its ``fix:``'s)."""
        if self.spec.agent is not None:
            return tuple(self.spec.agent.tools)
        if self.spec.fix is not None:
            return tuple(self.spec.fix.tools)
        return ()

    @property
    def model(self) -> str | None:
        """The models-file name its model is (None: no model)."""
        if self.spec.agent is not None:
            return self.spec.agent.model
        if self.spec.fix is not None:
            return self.spec.fix.model
        return None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def where(self) -> tuple[str, int]:
        """Its place in the file: (section, index)."""
        return (self.section, self.index)


@dataclass(frozen=True, slots=True)
class Export:
    """A loaded, validated export: what the registry publishes and the runner runs.

    `content_hash` identifies what the export means: its file's SHA-256
    (`file_hash`) when no server-wide program grammar applies to it, else a
    hash over that and the inherited grammars (`programs_content_hash`), so
    checker verdicts cached under it change with ``--programs`` too.
    `arg_schemas` are the args exactly as written (mcp-harbor keywords such
    as ``multiline``, ``secret``, ``leading_dash`` and ``within`` included);
    `input_schema` is what clients see. `programs` are the program grammars
    that hold for this export: the server-wide ones with its own
    ``programs:`` on top.
    """

    spec: ExportSpec
    path: Path
    source: SourceMap
    content_hash: str
    steps: tuple[Step, ...]
    arg_schemas: Mapping[str, Mapping[str, Any]]
    input_schema: Mapping[str, Any]
    confirm: Template | None = None
    on_failure: tuple[Step, ...] = ()
    finally_steps: tuple[Step, ...] = ()
    programs: Mapping[str, ProgramGrammar] = field(default_factory=dict)
    file_hash: str = ""
    #: Its custom tools (``tools:``), each an export named ``EXPORT.TOOL``
    #: that is never published: only this export's agents may call it.
    tools: Mapping[str, Export] = field(default_factory=dict)
    #: For a custom tool: the export it belongs to (None: a published export).
    parent: str | None = None

    def with_programs(self, server_wide: Mapping[str, ProgramGrammar]) -> Export:
        """This export with `server_wide` as the server-wide grammars (in
        place of those it was loaded with): `programs` and `content_hash`
        worked out again (its custom tools' too)."""
        content_hash = programs_content_hash(self.file_hash, self.spec.programs, server_wide)
        return replace(
            self,
            programs=effective_programs(self.spec.programs, server_wide),
            content_hash=content_hash,
            tools={
                key: replace(
                    tool,
                    programs=effective_programs(self.spec.programs, server_wide),
                    content_hash=_tool_hash(content_hash, key),
                )
                for key, tool in self.tools.items()
            },
        )

    @property
    def agent_steps(self) -> tuple[Step, ...]:
        """Its steps that talk to a model (``agent:``, or with ``fix:``)."""
        return tuple(s for s in self.all_steps if s.model is not None)

    @property
    def models(self) -> frozenset[str]:
        """The models-file names its steps use."""
        return frozenset(s.model for s in self.all_steps if s.model is not None)

    @property
    def granted_exports(self) -> frozenset[str]:
        """Other exports its agents may call (grant names that are not its
        custom tools)."""
        return frozenset(name for s in self.all_steps for name in s.grant if name not in self.tools)

    @property
    def all_steps(self) -> tuple[Step, ...]:
        """Every step, main ones first, then on_failure, then finally."""
        return self.steps + self.on_failure + self.finally_steps

    @property
    def attachment_args(self) -> frozenset[str]:
        """Args that carry a file (``contentEncoding: base64``)."""
        return frozenset(
            n for n, s in self.arg_schemas.items() if s.get("contentEncoding") == "base64"
        )

    @property
    def secret_args(self) -> frozenset[str]:
        """Args marked ``secret: true``: redacted wherever they would be recorded."""
        return frozenset(n for n, s in self.arg_schemas.items() if s.get("secret") is True)

    @property
    def name(self) -> str:
        return self.spec.name

    def secret_file(self, name: str) -> Path | None:
        """The file the ``file:`` secret `name` is read from (a relative
        path is relative to the export file's folder); None: it is an
        ``env:`` one."""
        raw = self.spec.secrets[name].file
        if raw is None:
            return None
        path = Path(raw)
        return path if path.is_absolute() else self.path.parent / path

    def locate(self, where: tuple[str | int, ...], offset: int = 0) -> tuple[int, int]:
        """(line, column) in the export file of a key path, and of a character
        offset inside the string at that path."""
        value = _get(self.spec.model_dump(), where)
        if isinstance(value, str):
            return self.source.position_in_scalar(where, offset, value)
        return self.source.line_of(where), 1

    def locate_text(self, where: tuple[str | int, ...]) -> tuple[int, int]:
        """(line, column) of the first character of the string at `where`
        (a step's ``run`` or an ``argv`` element): `locate` with offset 0,
        without looking the value up."""
        return self.source.position_in_scalar(where, 0, "")


def _get(data: Any, where: tuple[str | int, ...]) -> Any:
    for key in where:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def discover_files(paths: Iterable[Path]) -> list[Path]:
    """The export files named by `paths`: files as given, folders by their
    ``*.yaml``/``*.yml`` files (not recursive), sorted by name.

    Raises:
        ConfigError: a path does not exist.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(p for p in path.iterdir() if p.suffix in _EXTENSIONS and p.is_file())
            )
        elif path.is_file():
            files.append(path)
        else:
            raise ConfigError(f"{path}: no such file or folder; pass a folder of export files")
    return files


def _model_for(loc: tuple[str | int, ...]) -> type[pydantic.BaseModel] | None:
    if len(loc) == 1:
        return ExportSpec
    if len(loc) == 3 and loc[0] in ("steps", "on_failure", "finally"):
        return StepSpec
    if len(loc) == 2 and loc[0] == "annotations":
        return Annotations
    if len(loc) == 3 and loc[0] == "programs":
        return ProgramGrammar
    if len(loc) == 3 and loc[0] == "secrets":
        return SecretSource
    return None


def _pydantic_problem(path: Path, smap: SourceMap, err: Any) -> str:
    return pydantic_problem(path, smap, err, _model_for)


_MEMO_LIMIT = 10_000
#: Canonical JSON of an arg schema -> (its problem as a JSON Schema, its
#: default's problem); both None when fine. Checking a schema against the
#: meta-schema costs ~1 ms, and configurations repeat the same arg schemas.
_schema_memo: dict[str, tuple[tuple[str, str] | None, str | None]] = {}


def _schema_verdict(schema: Mapping[str, Any]) -> tuple[tuple[str, str] | None, str | None]:
    """(meta-schema error as (message, where), default error message) of one
    arg schema, memoized by its canonical JSON text."""
    key = canonical_json(schema)
    if key is not None and key in _schema_memo:
        return _schema_memo[key]
    verdict: tuple[tuple[str, str] | None, str | None]
    try:
        Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(map(str, exc.absolute_path)) or "the schema root"
        verdict = ((exc.message, where), None)
    else:
        default_error = None
        if "default" in schema:
            validator = Draft202012Validator(_published(schema))
            error = jsonschema.exceptions.best_match(validator.iter_errors(schema["default"]))
            default_error = None if error is None else error.message
        verdict = (None, default_error)
    if key is not None:
        if len(_schema_memo) >= _MEMO_LIMIT:
            _schema_memo.clear()
        _schema_memo[key] = verdict
    return verdict


def _check_args(path: Path, smap: SourceMap, spec: ExportSpec) -> list[str]:
    import re

    problems: list[str] = []
    for name, schema in spec.args.items():
        if not re.match(ARG_NAME_PATTERN, name):
            problems.append(
                f"{path}:{smap.line_of(('args', name))}: arg name {name!r} is not an identifier; "
                f"it reaches steps as ARG_<name>, so use letters, digits and _ (not starting "
                f"with a digit)"
            )
            continue
        schema_error, default_error = _schema_verdict(schema)
        if schema_error is not None:
            problems.append(
                f"{path}:{smap.line_of(('args', name))}: args.{name}: invalid JSON Schema: "
                f"{schema_error[0]} (at {schema_error[1]})"
            )
            continue
        bad: list[str] = []
        for keyword in HARBOR_BOOL_KEYWORDS:
            if not isinstance(schema.get(keyword, False), bool):
                bad.append(f"args.{name}.{keyword} must be true or false")
        if schema.get("disposition", "ref") not in ("inline", "ref"):
            bad.append(f"args.{name}.disposition must be inline or ref")
        max_bytes = schema.get("max_bytes", 1)
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 1:
            bad.append(f"args.{name}.max_bytes must be a positive integer")
        if ("disposition" in schema or "max_bytes" in schema) and schema.get(
            "contentEncoding"
        ) != "base64":
            bad.append(
                f"args.{name}: disposition and max_bytes apply to attachments; "
                f"add contentEncoding: base64 (and type: string)"
            )
        if schema.get("contentEncoding") == "base64" and schema.get("type") != "string":
            bad.append(f"args.{name}: an attachment (contentEncoding: base64) must be type: string")
        if bad:
            line = smap.line_of(("args", name))
            problems.extend(f"{path}:{line}: {message}" for message in bad)
        for where, message in _pattern_problems(name, schema):
            problems.append(f"{path}:{smap.line_of(('args', name, *where))}: {message}")
        if "within" in schema:
            problem = _within_problem(name, schema)
            if problem is not None:
                problems.append(f"{path}:{smap.line_of(('args', name, 'within'))}: {problem}")
        if _dash_default(schema):
            problems.append(
                f"{path}:{smap.line_of(('args', name, 'default'))}: args.{name}.default "
                f"starts with '-', which calls of this arg may not send (a program could read "
                f"it as an option); add leading_dash: true to the arg if its values are meant "
                f"to start with '-', or change the default"
            )
        elif default_error is not None:
            problems.append(
                f"{path}:{smap.line_of(('args', name, 'default'))}: args.{name}.default "
                f"does not satisfy its own schema: {default_error}"
            )
    if spec.output_schema is not None:
        try:
            Draft202012Validator.check_schema(spec.output_schema)
        except jsonschema.SchemaError as exc:
            problems.append(
                f"{path}:{smap.line_of(('output_schema',))}: output_schema is not a valid "
                f"JSON Schema: {exc.message}"
            )
        else:
            if spec.output_schema.get("type") != "object":
                problems.append(
                    f"{path}:{smap.line_of(('output_schema',))}: output_schema must describe "
                    f"an object (type: object): it becomes the tool's outputSchema"
                )
    for name in spec.required:
        if name not in spec.args:
            problems.append(
                f"{path}:{smap.line_of(('required',))}: `required` names {name!r}, "
                f"which is not declared under `args:`"
            )
    return problems


def _only_strings(schema: Mapping[str, Any]) -> bool:
    """Whether every value `schema` admits is a string (or null, which
    reaches steps as the empty string)."""
    declared = schema.get("type")
    if declared == "string":
        return True
    return (
        isinstance(declared, list)
        and "string" in declared
        and all(kind in ("string", "null") for kind in declared)
    )


def _pattern_problems(
    name: str, schema: Mapping[str, Any]
) -> Iterator[tuple[tuple[str, ...], str]]:
    """A ``pattern`` where values other than strings are admitted: JSON
    Schema applies it to strings only, so ``5`` or ``[1]`` would reach the
    steps unchecked. Each problem with where it is under the arg."""
    if "pattern" in schema and not _only_strings(schema):
        yield (
            ("pattern",),
            f"args.{name}.pattern applies to strings only (a value of another type would "
            f"reach the steps unchecked): give the arg type: string, or remove pattern",
        )
    items = schema.get("items")
    if isinstance(items, Mapping) and "pattern" in items and not _only_strings(items):
        yield (
            ("items", "pattern"),
            f"args.{name}.items.pattern applies to strings only (an item of another type "
            f"would reach the steps unchecked): give the items type: string, or remove pattern",
        )


def _within_problem(name: str, schema: Mapping[str, Any]) -> str | None:
    """What is wrong with the arg's ``within:`` (a folder its paths must stay
    in; see `mcp_harbor.within`), or None."""
    folder = schema["within"]
    if not isinstance(folder, str) or not folder or "\x00" in folder:
        return (
            f'args.{name}.within must be a folder, as a non-empty string: within: "." '
            f"(the server's working directory), a folder relative to it, or an absolute one"
        )
    if schema.get("contentEncoding") == "base64":
        return (
            f"args.{name}.within: an attachment (contentEncoding: base64) is file content, "
            f"not a path; remove within"
        )
    items = schema.get("items")
    item_type = items.get("type") if isinstance(items, Mapping) else None
    if schema.get("type") == "string" or (schema.get("type") == "array" and item_type == "string"):
        return None
    return (
        f"args.{name}.within applies to paths: give the arg type: string, or type: array "
        f"with items: {{type: string}} (each item is a path)"
    )


def _check_environment(path: Path, smap: SourceMap, spec: ExportSpec) -> list[str]:
    """The problems of ``pass_env:`` and ``secrets:``: names that are not
    environment variable names, that never pass (``BASH_ENV``, ``ENV``) or
    are the runtime's (``ARG_*``, ``HARBOR_*``, ``STEP_*``); a secret that
    a step's literal ``env:`` would hide."""
    problems: list[str] = []
    step_names = [
        step.name for steps in (spec.steps, spec.on_failure, spec.finally_) for step in steps
    ]
    for index, name in enumerate(spec.pass_env):
        problem = env_name_problem(name, "pass_env entry")
        if (
            problem is not None
            and name.startswith("STEP_")
            and not any(name.startswith(f"STEP_{step}_") for step in step_names)
        ):
            # STEP_CA_URL (smallstep's own) where no step is named CA: no
            # variable of the runtime's can have that name in this export
            problem = None
        if problem is not None:
            problems.append(f"{path}:{smap.line_of(('pass_env', index))}: {problem}")
    for name in spec.secrets:
        problem = env_name_problem(name, "secret name")
        if problem is not None:
            problems.append(f"{path}:{smap.line_of(('secrets', name))}: {problem}")
    for section, steps in (
        ("steps", spec.steps),
        ("on_failure", spec.on_failure),
        ("finally", spec.finally_),
    ):
        for index, step in enumerate(steps):
            for key, value in step.env.items():
                problem = env_name_problem(key, f"{section}[{index}].env key")
                emptied = value == "" and key in SHELL_SETTINGS_ENV - {"POSIXLY_CORRECT"}
                if (
                    problem is not None
                    and key in NEVER_PASSED_ENV | SHELL_SETTINGS_ENV
                    and not emptied  # CDPATH: "" is bash's default (cd looks here only)
                ):
                    problems.append(
                        f"{path}:{smap.line_of((section, index, 'env', key))}: {problem}"
                    )
                if key in spec.secrets:
                    problems.append(
                        f"{path}:{smap.line_of((section, index, 'env', key))}: "
                        f"{section}[{index}].env.{key}: {key} is a secret (secrets:), which "
                        f"this literal value would hide; rename one of them"
                    )
    return problems


def _published(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The arg's schema as clients see it: without mcp-harbor keywords, and
    with ``not: {pattern: "^-"}`` wherever a string starting with ``-`` is
    refused (the value itself, array items; see `refuses_leading_dash`)."""
    out = {k: v for k, v in schema.items() if k not in HARBOR_ARG_KEYWORDS}
    if refuses_leading_dash(schema):
        out = _refusing_dash(out)
    if _may_be(schema, "array") and refuses_leading_dash_items(schema):
        prefix = out.get("prefixItems")
        if isinstance(prefix, list):
            out["prefixItems"] = [_refusing_dash_item(item) for item in prefix]
        items = out.get("items", True)
        if items is not False:
            out["items"] = _refusing_dash_item(items)
    return out


def _may_be(schema: Mapping[str, Any], kind: str) -> bool:
    declared = schema.get("type")
    return declared is None or declared == kind or (isinstance(declared, list) and kind in declared)


def _refusing_dash(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` refusing strings that start with ``-`` (unchanged when it
    admits no string). An existing ``not`` is kept: the refusal then goes
    into ``allOf``."""
    if not _may_be(schema, "string"):
        return schema
    declared = schema.get("type")
    refusal = leading_dash_not(declared == "string" or declared == ["string"])
    out = dict(schema)
    if "not" not in out:
        out["not"] = refusal
    else:
        all_of = out.get("allOf")
        out["allOf"] = [*(all_of if isinstance(all_of, list) else []), {"not": refusal}]
    return out


def _refusing_dash_item(schema: Any) -> Any:
    """An ``items`` (or ``prefixItems`` entry) schema refusing string items
    that start with ``-``, unless it lists the values (``enum``, ``const``)."""
    if schema is True:
        schema = {}
    if not isinstance(schema, Mapping) or "enum" in schema or "const" in schema:
        return schema
    return _refusing_dash(dict(schema))


def _dash_default(schema: Mapping[str, Any]) -> bool:
    """Whether the arg's default starts with ``-`` where calls refuse that
    (defaults are applied after validation, so the loader refuses them)."""
    if "default" not in schema:
        return False
    default = schema["default"]
    if isinstance(default, str):
        return default.startswith("-") and refuses_leading_dash(schema)
    if isinstance(default, list):
        return refuses_leading_dash_items(schema) and any(
            isinstance(item, str) and item.startswith("-") for item in default
        )
    return False


def _compile_steps(
    path: Path, smap: SourceMap, spec: ExportSpec
) -> tuple[dict[str, list[Step]], list[str]]:
    compiled: dict[str, list[Step]] = {"steps": [], "on_failure": [], "finally": []}
    problems: list[str] = []
    seen: dict[str, tuple[str, int]] = {}  # step name -> where it was first declared
    declared = set(spec.args)
    main_names = [s.name for s in spec.steps]

    def template(
        text: str, where: tuple[str | int, ...], *, prompt: bool = False
    ) -> Template | None:
        try:
            parsed = parse(text, declared)
        except TemplateError as exc:
            loc = smap.position_in_scalar(where, exc.offset, text)
            problems.append(f"{path}:{loc[0]}:{loc[1]}: {_dotted(where)}: {exc}")
            return None
        for placeholder in parsed.placeholders:
            wrong = placeholder.shellquote if prompt else placeholder.data
            if wrong:
                loc = smap.position_in_scalar(where, placeholder.start, text)
                fix = (
                    "a prompt is not a command: write {{ args.NAME | data }}"
                    if prompt
                    else "| data is for agent prompts: in a command write "
                    "{{ args.NAME | shellquote }}"
                )
                problems.append(f"{path}:{loc[0]}:{loc[1]}: {_dotted(where)}: {fix}")
                return None
        return parsed

    def agent_parts(
        step: StepSpec, section: str, index: int, earlier: list[str]
    ) -> tuple[Template | None, Template | None, Expr | None, bool]:
        """The prompt, system and assert of an agent: or fix: step, and
        whether they compiled."""
        ok = True
        spec_of = step.agent if step.agent is not None else step.fix
        assert spec_of is not None
        key = "agent" if step.agent is not None else "fix"
        prompt = template(spec_of.prompt, (section, index, key, "prompt"), prompt=True)
        ok = ok and prompt is not None
        system: Template | None = None
        assertion: Expr | None = None
        if step.agent is not None:
            if step.agent.system is not None:
                system = template(step.agent.system, (section, index, key, "system"), prompt=True)
                ok = ok and system is not None
            if step.agent.outputs is not None:
                outputs = step.agent.outputs
                where = (section, index, key, "outputs")
                try:
                    Draft202012Validator.check_schema(outputs)
                except jsonschema.SchemaError as exc:
                    problems.append(
                        f"{path}:{smap.line_of(where)}: {_dotted(where)} is not a valid JSON "
                        f"Schema: {exc.message}"
                    )
                    ok = False
                else:
                    if outputs.get("type") != "object":
                        problems.append(
                            f"{path}:{smap.line_of(where)}: {_dotted(where)}: the answer's schema "
                            f"must have type: object (its top-level keys become step outputs)"
                        )
                        ok = False
            if step.agent.assert_ is not None:
                text = step.agent.assert_
                try:
                    assertion = parse_expr(text, declared, earlier, answer=True)
                except ExprError as exc:
                    at = smap.position_in_scalar(
                        (section, index, key, "assert"), exc.column - 1, text
                    )
                    problems.append(
                        f"{path}:{at[0]}:{at[1]}: {section}[{index}].agent.assert: {exc}"
                    )
                    ok = False
        return prompt, system, assertion, ok

    sections: list[tuple[Literal["steps", "on_failure", "finally"], list[StepSpec]]] = [
        ("steps", spec.steps),
        ("on_failure", spec.on_failure),
        ("finally", spec.finally_),
    ]
    for section, specs in sections:
        for index, step in enumerate(specs):
            if step.name in seen:
                line = smap.line_of((section, index, "name"))
                first = smap.line_of((*seen[step.name], "name"))
                problems.append(
                    f"{path}:{line}: step name {step.name!r} is used twice (first at line "
                    f"{first}); step names are unique within an export"
                )
            seen[step.name] = (section, index)
            for key, value in step.env.items():
                if "{{" in value:
                    env_line = smap.line_of((section, index, "env", key))
                    problems.append(
                        f"{path}:{env_line}: {section}[{index}].env.{key}: "
                        f"env values are literal; the step already receives every arg as ARG_<name>"
                    )
            cwd: Path | None = None
            if step.cwd is not None:
                if "{{" in step.cwd:
                    problems.append(
                        f"{path}:{smap.line_of((section, index, 'cwd'))}: {section}[{index}].cwd "
                        f"is literal: it cannot contain a placeholder"
                    )
                cwd = (path.parent / step.cwd).resolve()
            condition: Expr | None = None
            if step.if_ is not None:
                earlier = (
                    main_names[:index]
                    if section == "steps"
                    else main_names
                    + [s.name for s in compiled["on_failure"]]
                    + [s.name for s in compiled["finally"]]
                )
                try:
                    condition = parse_expr(step.if_, declared, earlier)
                except ExprError as exc:
                    at = smap.position_in_scalar((section, index, "if"), exc.column - 1, step.if_)
                    problems.append(f"{path}:{at[0]}:{at[1]}: {section}[{index}].if: {exc}")
            earlier_steps = (
                main_names[:index]
                if section == "steps"
                else main_names
                + [s.name for s in compiled["on_failure"]]
                + [s.name for s in compiled["finally"]]
            )
            prompt: Template | None = None
            system: Template | None = None
            assertion: Expr | None = None
            if step.agent is not None or step.fix is not None:
                prompt, system, assertion, fine = agent_parts(step, section, index, earlier_steps)
                if not fine:
                    continue
            if step.agent is not None:
                compiled[section].append(
                    Step(
                        step,
                        index,
                        "agent",
                        None,
                        None,
                        None,
                        section,
                        condition,
                        prompt=prompt,
                        system=system,
                        assertion=assertion,
                    )
                )
            elif step.run is not None:
                script = template(step.run, (section, index, "run"))
                if script is not None:
                    compiled[section].append(
                        Step(step, index, "run", script, None, cwd, section, condition, prompt)
                    )
            else:
                assert step.argv is not None
                parts = [template(a, (section, index, "argv", i)) for i, a in enumerate(step.argv)]
                if all(p is not None for p in parts):
                    argv = tuple(p for p in parts if p is not None)
                    compiled[section].append(
                        Step(step, index, "argv", None, argv, cwd, section, condition, prompt)
                    )
    return compiled, problems


def load_export(path: Path, *, programs: Mapping[str, ProgramGrammar] | None = None) -> Export:
    """Load and validate one export file. `programs` are the server-wide
    program grammars its `Export.programs` starts from (None: the process's,
    `mcp_harbor.config.programs.set_server_programs`).

    Raises:
        ConfigError: with one message per problem, each naming file and line.
    """
    data, smap, raw = read_yaml(path)
    try:
        spec = ExportSpec.model_validate(data)
    except pydantic.ValidationError as exc:
        found = [_pydantic_problem(path, smap, e) for e in exc.errors()]
        raise ConfigError("\n".join(found), found) from None
    server_wide = server_programs() if programs is None else programs
    file_hash = hashlib.sha256(raw).hexdigest()
    content_hash = programs_content_hash(file_hash, spec.programs, server_wide)
    problems: list[str] = []
    tools: dict[str, Export] = {}
    for key in spec.tools:
        tool_spec, tool_problems = _custom_tool_spec(path, smap, spec, key)
        problems.extend(tool_problems)
        if tool_spec is None:
            continue
        rebased = RebasedSourceMap(smap, key)
        try:
            tools[key] = _compiled(
                path,
                rebased,
                tool_spec,
                content_hash=_tool_hash(content_hash, key),
                file_hash=file_hash,
                server_wide=server_wide,
                parent=spec.name,
            )
        except ConfigError as exc:
            problems.extend(exc.problems)
    problems.extend(_grant_problems(path, smap, spec))
    try:
        export = _compiled(
            path,
            smap,
            spec,
            content_hash=content_hash,
            file_hash=file_hash,
            server_wide=server_wide,
            earlier_problems=problems,
        )
    except ConfigError as exc:
        raise ConfigError("\n".join(exc.problems), exc.problems) from None
    return replace(export, tools=tools)


def _tool_hash(content_hash: str, key: str) -> str:
    """A custom tool's content hash: its export's, and its key."""
    return hashlib.sha256(f"{content_hash}:tools:{key}".encode()).hexdigest()


def _custom_tool_spec(
    path: Path, smap: SourceMap, spec: ExportSpec, key: str
) -> tuple[ExportSpec | None, list[str]]:
    """The export-shaped spec of custom tool `key`: its own description,
    args, command and timeout; its export's ``allow:``, sandbox, programs,
    environment and secrets (it runs inside that export's runs)."""
    tool = spec.tools[key]
    inherited = spec.model_dump(
        by_alias=True,
        include={"allow", "sandbox", "programs", "pass_env", "secrets", "output_tail"},
        exclude_none=True,
    )
    step: dict[str, Any] = {"name": key.replace("-", "_")}
    if tool.run is not None:
        step["run"] = tool.run
    else:
        step["argv"] = list(tool.argv or ())
    data: dict[str, Any] = {
        **inherited,
        "name": f"{spec.name}.{key}",
        "description": tool.description,
        "args": tool.args,
        "required": list(tool.required),
        "steps": [step],
    }
    if tool.timeout is not None:
        data["timeout"] = tool.timeout
    try:
        return ExportSpec.model_validate(data, strict=False), []
    except pydantic.ValidationError as exc:
        rebased = RebasedSourceMap(smap, key)
        return None, [_pydantic_problem(path, rebased, e) for e in exc.errors()]


def _grant_problems(path: Path, smap: SourceMap, spec: ExportSpec) -> list[str]:
    """A grant may not name this export itself (a model calling its own
    export is a loop). Names of other exports are checked against the whole
    set (`load_exports`)."""
    problems = []
    for section, steps in (
        ("steps", spec.steps),
        ("on_failure", spec.on_failure),
        ("finally", spec.finally_),
    ):
        for index, step in enumerate(steps):
            agent = step.agent if step.agent is not None else step.fix
            if agent is None:
                continue
            key = "agent" if step.agent is not None else "fix"
            for n, name in enumerate(agent.tools):
                if name == spec.name:
                    problems.append(
                        f"{path}:{smap.line_of((section, index, key, 'tools', n))}: "
                        f"{section}[{index}].{key}.tools: {name} is this export itself; an agent "
                        f"may not call its own export (a loop); remove it"
                    )
    return problems


def _compiled(
    path: Path,
    smap: SourceMap,
    spec: ExportSpec,
    *,
    content_hash: str,
    file_hash: str,
    server_wide: Mapping[str, ProgramGrammar],
    parent: str | None = None,
    earlier_problems: list[str] | None = None,
) -> Export:
    problems = list(earlier_problems or [])
    problems.extend(_check_args(path, smap, spec))
    problems.extend(_check_environment(path, smap, spec))
    steps, step_problems = _compile_steps(path, smap, spec)
    problems.extend(step_problems)
    confirm: Template | None = None
    if spec.confirm is not None:
        try:
            confirm = parse(spec.confirm, set(spec.args))
        except TemplateError as exc:
            line, col = smap.position_in_scalar(("confirm",), exc.offset, spec.confirm)
            problems.append(f"{path}:{line}:{col}: confirm: {exc}")
        else:
            if any(p.shellquote or p.data for p in confirm.placeholders):
                problems.append(
                    f"{path}:{smap.line_of(('confirm',))}: confirm: the message shows values "
                    f"literally; write {{{{ args.NAME }}}} without a filter"
                )
    if spec.runs_on is not None and any(
        s.model is not None for section in steps.values() for s in section
    ):
        problems.append(
            f"{path}:{smap.line_of(('runs_on',))}: runs_on: an export with agent: or fix: steps "
            f"runs on the server (its models' tool calls go through the server's call path); "
            f"remove runs_on: or move the agent into an export of its own"
        )
    if problems:
        raise ConfigError("\n".join(problems), problems)
    properties = {name: _published(schema) for name, schema in spec.args.items()}
    input_schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if spec.required:
        input_schema["required"] = list(spec.required)
    return Export(
        spec=spec,
        path=path,
        source=smap,
        content_hash=content_hash,
        steps=tuple(steps["steps"]),
        on_failure=tuple(steps["on_failure"]),
        finally_steps=tuple(steps["finally"]),
        arg_schemas={name: dict(schema) for name, schema in spec.args.items()},
        input_schema=input_schema,
        confirm=confirm,
        programs=effective_programs(spec.programs, server_wide),
        file_hash=file_hash,
        parent=parent,
    )


class RebasedSourceMap(SourceMap):
    """The source map of a custom tool: its export-shaped key paths
    (``steps[0].run``, ``args.x``, ``description``) mapped to where they are
    in the export file (``tools.KEY.run``, ``tools.KEY.args.x``); the keys
    it inherits (``allow:``, ``sandbox:``) stay the export's."""

    __slots__ = ("_base", "_key")

    _OWN = frozenset({"args", "required", "description", "timeout", "name"})

    def __init__(self, base: SourceMap, key: str) -> None:
        super().__init__(base.path)
        self._base = base
        self._key = key

    def rebase(self, where: tuple[str | int, ...]) -> tuple[str | int, ...]:
        if where[:2] == ("steps", 0):
            return ("tools", self._key, *where[2:])
        if where and where[0] in self._OWN:
            return ("tools", self._key, *where)
        return where

    def line_of(self, where: tuple[str | int, ...]) -> int:
        return self._base.line_of(self.rebase(where))

    def position_in_scalar(
        self, where: tuple[str | int, ...], offset: int, text: str
    ) -> tuple[int, int]:
        return self._base.position_in_scalar(self.rebase(where), offset, text)


def load_exports(
    paths: Iterable[Path],
    *,
    each: Callable[[Export], None] | None = None,
    programs: Mapping[str, ProgramGrammar] | None = None,
) -> list[Export]:
    """Load every export file under `paths`. `each` is called with every
    export that loads, as soon as it has (before the whole set is known to
    be valid). `programs`: the server-wide program grammars, as for
    `load_export`.

    Raises:
        ConfigError: listing every problem of every file (nothing is returned
            when any file is invalid), including two files declaring one name.
    """
    exports: list[Export] = []
    problems: list[str] = []
    for file in discover_files(paths):
        try:
            exports.append(load_export(file, programs=programs))
        except ConfigError as exc:
            problems.extend(exc.problems)
            continue
        if each is not None:
            each(exports[-1])
    by_name: dict[str, Export] = {}
    for export in exports:
        other = by_name.get(export.name)
        if other is not None:
            problems.append(
                f"{export.path}:{export.source.line_of(('name',))}: tool name {export.name!r} is "
                f"already used by {other.path}; tool names are unique"
            )
        by_name[export.name] = export
    problems.extend(grant_problems(exports))
    if problems:
        raise ConfigError("\n".join(problems), problems)
    return exports


#: The deepest chain of exports with agents, one calling the next, that a
#: grant may make (an agent calling an export whose agent calls a third).
MAX_AGENT_NESTING = 2


def grant_problems(exports: Iterable[Export]) -> list[str]:
    """The problems of the grants of a whole set of exports: a name that is
    neither a custom tool of its export nor an export of the set; a cycle
    (an agent's export reachable from its own grant); a chain of exports
    with agents deeper than `MAX_AGENT_NESTING`."""
    by_name = {e.name: e for e in exports}
    problems: list[str] = []
    for export in by_name.values():
        for step in export.all_steps:
            key = "agent" if step.spec.agent is not None else "fix"
            for n, name in enumerate(step.grant):
                if name in export.tools or name in by_name:
                    continue
                line = export.source.line_of((step.section, step.index, key, "tools", n))
                known = ", ".join(sorted(export.tools)) or "none"
                problems.append(
                    f"{export.path}:{line}: {step.section}[{step.index}].{key}.tools: {name!r} "
                    f"is neither a custom tool of this export (tools: {known}) nor an export; "
                    f"declare it under tools: or fix the name"
                )

    depth: dict[str, int] = {}

    def nesting(name: str, path: tuple[str, ...]) -> int:
        """How many exports with agents a call of `name` can nest, at most."""
        if name in depth:
            return depth[name]
        export = by_name[name]
        if not export.agent_steps:
            depth[name] = 0
            return 0
        below = 0
        for other in sorted(export.granted_exports):
            if other not in by_name:
                continue
            if other in path:
                cycle = " -> ".join((*path[path.index(other) :], other))
                raise _Cycle(cycle)
            below = max(below, nesting(other, (*path, other)))
        depth[name] = 1 + below
        return depth[name]

    for export in by_name.values():
        try:
            levels = nesting(export.name, (export.name,))
        except _Cycle as cycle:
            problems.append(
                f"{export.path}:{export.source.line_of(('steps',))}: {export.name}: its agents' "
                f"grants make a cycle ({cycle}); an agent may not reach its own export again"
            )
            continue
        if levels > MAX_AGENT_NESTING:
            problems.append(
                f"{export.path}:{export.source.line_of(('steps',))}: {export.name}: its agents "
                f"reach {levels} levels of exports with agents; at most {MAX_AGENT_NESTING} "
                f"may nest (grant plain exports, or flatten the chain)"
            )
    return problems


class _Cycle(Exception):
    pass
