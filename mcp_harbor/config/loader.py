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

__all__ = ["Export", "Step", "discover_files", "load_export", "load_exports"]

_EXTENSIONS = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Step:
    """A compiled step: its spec plus parsed templates and resolved cwd."""

    spec: StepSpec
    index: int
    kind: Literal["run", "argv"]
    script: Template | None
    argv: tuple[Template, ...] | None
    cwd: Path | None  # None: the server's working directory
    section: Literal["steps", "on_failure", "finally"] = "steps"
    condition: Expr | None = None

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

    def with_programs(self, server_wide: Mapping[str, ProgramGrammar]) -> Export:
        """This export with `server_wide` as the server-wide grammars (in
        place of those it was loaded with): `programs` and `content_hash`
        worked out again."""
        return replace(
            self,
            programs=effective_programs(self.spec.programs, server_wide),
            content_hash=programs_content_hash(self.file_hash, self.spec.programs, server_wide),
        )

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
    for index, name in enumerate(spec.pass_env):
        problem = env_name_problem(name, "pass_env entry")
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
            for key in step.env:
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

    def template(text: str, where: tuple[str | int, ...]) -> Template | None:
        try:
            return parse(text, declared)
        except TemplateError as exc:
            loc = smap.position_in_scalar(where, exc.offset, text)
            problems.append(f"{path}:{loc[0]}:{loc[1]}: {_dotted(where)}: {exc}")
            return None

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
            if step.run is not None:
                script = template(step.run, (section, index, "run"))
                if script is not None:
                    compiled[section].append(
                        Step(step, index, "run", script, None, cwd, section, condition)
                    )
            else:
                assert step.argv is not None
                parts = [template(a, (section, index, "argv", i)) for i, a in enumerate(step.argv)]
                if all(p is not None for p in parts):
                    argv = tuple(p for p in parts if p is not None)
                    compiled[section].append(
                        Step(step, index, "argv", None, argv, cwd, section, condition)
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
        problems = [_pydantic_problem(path, smap, e) for e in exc.errors()]
        raise ConfigError("\n".join(problems), problems) from None
    problems = _check_args(path, smap, spec)
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
            if any(p.shellquote for p in confirm.placeholders):
                problems.append(
                    f"{path}:{smap.line_of(('confirm',))}: confirm: the message shows values "
                    f"literally; write {{{{ args.NAME }}}} without | shellquote"
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
    server_wide = server_programs() if programs is None else programs
    file_hash = hashlib.sha256(raw).hexdigest()
    return Export(
        spec=spec,
        path=path,
        source=smap,
        content_hash=programs_content_hash(file_hash, spec.programs, server_wide),
        steps=tuple(steps["steps"]),
        on_failure=tuple(steps["on_failure"]),
        finally_steps=tuple(steps["finally"]),
        arg_schemas={name: dict(schema) for name, schema in spec.args.items()},
        input_schema=input_schema,
        confirm=confirm,
        programs=effective_programs(spec.programs, server_wide),
        file_hash=file_hash,
    )


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
    if problems:
        raise ConfigError("\n".join(problems), problems)
    return exports
