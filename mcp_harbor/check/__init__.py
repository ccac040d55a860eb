"""The export checker: before an export is registered, every command it would
run is parsed and checked, and an export where a caller's value could become
shell syntax, code or the choice of program is refused.

`load_and_check` is the gate: the server, ``tools`` and ``call`` register only
its ``accepted`` exports. `check_export` is the pure check of one loaded
export: its steps (an ``agent:`` step has no command; its prompt and
``system:`` are checked by H020) and each of its custom tools (``tools:``),
checked as an export of its own with the model's arguments treated as a
caller's; a refused custom tool refuses its export. `grant_findings` adds
what only the whole set shows (W106), and `load_and_check` reports it.
See ``docs/rules.md`` for the rules and ``docs/design.md`` for why the
checker parses the way it does.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, TypeVar

from mcp_harbor import step_env
from mcp_harbor.check import grammars, sinks
from mcp_harbor.check._analysis import (
    analyse_argv,
    analyse_reprint,
    analyse_script_deferred,
    bash_refusal,
    path_as_written,
)
from mcp_harbor.check._authority import disagreements
from mcp_harbor.check._facts import (
    Hazard,
    Located,
    Sentinels,
    any_model,
    arg_models,
    export_scripts,
    substitute,
)
from mcp_harbor.check._model import ExportReport, Finding
from mcp_harbor.check._references import references
from mcp_harbor.check._reprint import Reprint, reprint, reprints
from mcp_harbor.check._secrets import secret_hazards
from mcp_harbor.check._taint import (
    TEMP_VARIABLE,
    makes_links,
    names_nothing,
    names_place,
    puts_caller_files,
    writable_piece,
    writable_text,
    writes_repository,
    writing_redirects,
)
from mcp_harbor.check._tree import node_text, parsed, static_text
from mcp_harbor.check._values import ValueModel
from mcp_harbor.check.credentials import (
    reads_credential_file,
    reads_credential_file_env,
    takes_credential,
)
from mcp_harbor.check.grammars import is_language, writes_no_file
from mcp_harbor.check.rules import (
    RULES,
    CallerValueAsInstructions,
    CodeSelectingVariable,
    NoGrammarPosition,
    SecretPrinted,
    UnconfirmedDestructiveGrant,
    UndeclaredReference,
    UnparseableTemplate,
)
from mcp_harbor.check.sinks import Grammar
from mcp_harbor.config import Export, Step, discover_files, load_exports
from mcp_harbor.errors import ConfigError
from mcp_harbor.template import Template

__all__ = [
    "CheckedExports",
    "Checker",
    "ExportReport",
    "Finding",
    "check_export",
    "check_exports",
    "clear_cache",
    "default_checker",
    "grant_findings",
    "load_and_check",
    "start",
]


def _findings(export: Export, step_name: str, hazards: list[Hazard]) -> list[Finding]:
    """`hazards` of step `step_name` as findings, located in `export`'s file.

    A custom tool's findings (`Export.parent` set) are its export's: the
    message names that export and the tool (``custom tool 'KEY'``), and the
    finding's step is ``tools.KEY``, so that a report of the export shows
    where in the file (``tools.KEY.run``) the tool is refused."""
    out: list[Finding] = []
    seen: set[tuple[str, str | None, int, int]] = set()
    owner, step_label, step_value = export.name, f"step {step_name!r}", step_name
    if export.parent is not None:
        key = export.name[len(export.parent) + 1 :]
        owner, step_label, step_value = export.parent, f"custom tool {key!r}", f"tools.{key}"
    for hazard in hazards:
        line, column = (
            export.locate(*hazard.where) if hazard.where[0] else export.locate(("steps",))
        )
        key_seen = (hazard.rule, hazard.arg, line, column)
        if key_seen in seen:
            continue
        seen.add(key_seen)
        rule = RULES[hazard.rule]
        arg = f" arg {hazard.arg!r}:" if hazard.arg else ""
        detail = _SENTINEL.sub("{{ … }}", hazard.detail)
        fix = hazard.fix
        if hazard.arg and hazard.arg in export.arg_schemas:
            # fixes are written with a generic $ARG: name the step's variable
            fix = _GENERIC_ARG.sub(f"$ARG_{hazard.arg}", fix)
            fix = rule.amend_fix(fix, hazard.arg, export.arg_schemas[hazard.arg])
        message = (
            f"{owner}: {step_label}, line {line}, column {column}:{arg} "
            f"{detail} [{rule.id} {rule.name}]"
        )
        out.append(
            Finding(
                rule.id,
                rule.name,
                rule.severity,
                step_value,
                line,
                column,
                hazard.arg,
                message,
                fix,
                rule.confidence,
            )
        )
    return out


def _instruction_hazards(step: Step) -> list[Hazard]:
    """H020 on the prompt (and ``system:``) of a step with a model: an
    ``agent:`` step, or a ``run:``/``argv:`` step with ``fix:``."""
    if step.model is None:
        return []
    key = "agent" if step.spec.agent is not None else "fix"
    out: list[Hazard] = []
    parts: list[tuple[Literal["prompt", "system"], Template | None]] = [
        ("prompt", step.prompt),
        ("system", step.system),
    ]
    for part, template in parts:
        if template is None:
            continue
        for placeholder in template.placeholders:
            hazard = CallerValueAsInstructions.detect(
                placeholder, part, ((*step.where, key, part), placeholder.start)
            )
            if hazard is not None:
                out.append(hazard)
    return out


@dataclass(slots=True)
class _Script:
    """One ``run:`` script tree-sitter parsed, still to be judged by bash:
    whether bash can read it, and bash's own reading (`_authority`)."""

    text: str
    sentinels: Sentinels
    #: the variables carrying caller data, with their models
    tainted: dict[str, ValueModel]
    #: the names of the step's environment that are the author's or the
    #: server's (``secrets:``, ``pass_env:``, ``env:``)
    environment: frozenset[str] = frozenset()
    #: what the earlier steps' outputs can hold (`initial_taint`)
    outputs: dict[str, ValueModel | None] = field(default_factory=dict)
    #: no step may put caller data in the run directory (`_analyse_steps`)
    own_run_dir: bool = False
    #: a step may write text of the author's there (`_analyse_steps`)
    run_dir_texts: bool = True
    #: what bash's reading adds (filled in by `_judge`)
    hazards: list[Hazard] = field(default_factory=list)
    #: what bash said when it could not read the script (None: it could)
    syntax: str | None = None


@dataclass(slots=True)
class _Draft:
    """One export analysed before bash has read its scripts: per step, its
    hazards and, for a script tree-sitter parsed, what bash is still to
    judge."""

    export: Export
    key: str
    models: dict[str, ValueModel]
    programs: dict[str, Grammar]
    steps: list[tuple[Step, list[Hazard], _Script | None]]
    #: the first command that may put caller data in the working folder:
    #: its step's name and place (None: no command may)
    writes_at: tuple[str, Located] | None = None
    #: some command may put caller data in the working folder (not only
    #: surely: `writes_at` is for the server-wide pass)
    may_write: bool = False
    #: the first command that may put caller data in a file of the working
    #: folder, a name of the author's too (``> banner.txt``): its step's
    #: name and place, for the server-wide pass's readers of content
    fills_at: tuple[str, Located] | None = None


def _guarded_draft(
    export: Export,
    key: str,
    models: dict[str, ValueModel],
    scripts: list[tuple[str, Sentinels]],
) -> _Draft:
    """`_draft`, failing closed: an error of the checker's own while it
    analyses `export` refuses that export alone, with a finding that says
    so (never a traceback, never an acceptance), and the other exports are
    checked as usual."""
    try:
        return _draft(export, key, models, scripts)
    except Exception as error:  # noqa: BLE001 (the checker's own fault: refuse, say so)
        hazard = UnparseableTemplate.hazard(
            None,
            ((), 0),
            f"the checker failed while analysing this export ({type(error).__name__}: "
            f"{str(error)[:120]}), so it cannot show it safe",
            "report this to mcp-harbor's maintainers with the export file; until it is "
            "fixed, the export is refused",
        )
        step = export.all_steps[0]
        return _Draft(export, key, models, {}, [(step, [hazard], None)])


def _grammars(export: Export) -> dict[str, Grammar]:
    """The export's ``programs:`` (with the server-wide ones) as the
    checker's grammars, by the command word and by its basename."""
    out: dict[str, Grammar] = {}
    for word, declared in export.programs.items():
        grammar = Grammar(
            declared.value_options,
            declared.end_of_options,
            frozenset(declared.code_options),
            declared.runs_operands is True,
            declared.runs_operands is False,
            stdin_data=declared.stdin == "data",
            output_options=(
                frozenset(declared.output_options) if declared.output_options is not None else None
            ),
            plus_options=declared.plus_options,
        )
        out[word] = grammar
        out.setdefault(word.rsplit("/", 1)[-1], grammar)
    return out


def _may_print_environment(program: str, words: Sequence[str]) -> bool:
    """`program` with `words` may print a variable of its environment: it
    prints it by design (``env``, ``printenv``), it has no grammar, or its
    grammar is a language's (its program text may read the environment)."""
    if program in ("env", "printenv") or any("/proc/" in word for word in words):
        return True  # /proc/self/environ is the environment, as a file
    key, _ = grammars.grammar_key(grammars.normal_program(program), list(words))
    grammar = grammars.GRAMMARS.get(key)
    return (
        grammar is None
        or grammar.writes is not None
        or grammar.evaluates is not None
        or bool(grammar.program_options)
        or grammar.script_operand
    )


def _secret_programs(export: Export) -> dict[str, frozenset[str]]:
    """The programs each secret's ``programs:`` names."""
    return {name: frozenset(source.programs) for name, source in export.spec.secrets.items()}


def _argv_secret_hazards(
    elements: Sequence[tuple[str, Sentinels]],
    secrets: Collection[str],
    allowed: Mapping[str, Collection[str]] | None = None,
    models: Mapping[str, ValueModel] | None = None,
    environment: Collection[str] = (),
) -> list[Hazard]:
    """H010 for an ``argv:`` step. With no placeholder in its argv it gets
    the export's secrets in its environment: its program must take each
    there as a credential (`credentials.takes_credential`) or be named by
    the secret's ``programs:``, unless it is one with a grammar that runs
    no program text of its own (it reads only the variables it knows). A
    shell and its script (``[bash, -c, SCRIPT]``): the script is read like a
    ``run:`` one, and a trace flag before it (``-x``, ``-v``, ``-o xtrace``)
    prints every word it expands, secrets included."""
    if not secrets or not elements:
        return []
    words = [text for text, _ in elements]
    program = words[0].rsplit("/", 1)[-1]
    if not any(sentinels.by_word for _, sentinels in elements) and not (
        program in ("bash", "sh", "dash", "zsh", "ksh", "rbash") and "-c" in words
    ):
        names = [
            name
            for name in secrets
            if not takes_credential(program, words[1:], ("env", name))
            and program not in (allowed or {}).get(name, ())
            and words[0] not in (allowed or {}).get(name, ())
        ]
        if names and _may_print_environment(program, words[1:]):
            return [
                SecretPrinted.hazard(
                    None,
                    elements[0][1].locate(0),
                    f"`{program}` gets the export's secrets ({', '.join(sorted(names))}) in "
                    "its environment, as an argv: step without a placeholder does, and it may "
                    "print them (its program reads its environment, or no grammar says what "
                    "it reads)",
                    f"run the program from a run: step that gives it only what it needs, or "
                    f"name it in the secret's entry if it never prints it: programs: [{program}]",
                )
            ]
    if words[0].rsplit("/", 1)[-1] not in ("bash", "sh", "dash", "zsh", "ksh", "rbash"):
        return []
    found: list[Hazard] = []
    for k, word in enumerate(words[1:], start=1):
        if word == "-c" and k + 1 < len(words):
            text, sentinels = elements[k + 1]
            found += secret_hazards(text, sentinels, secrets, None, allowed, models, environment)
            break
        traced = (
            word.startswith(("-", "+"))
            and not word.startswith("--")
            and ("x" in word or "v" in word)
        ) or (word in ("xtrace", "verbose") and words[k - 1] == "-o")
        if traced:
            text, sentinels = elements[k]
            found.append(
                SecretPrinted.hazard(
                    None,
                    sentinels.locate(0),
                    f"`{words[0]} {word}` traces every word the script expands, and the "
                    "export's secrets are in its environment",
                    "drop the trace flag",
                )
            )
        if not word.startswith(("-", "+")) and words[k - 1] != "-o":
            break  # a script file: the program's, not the checker's to read
    return found


def _held_secrets(export: Export, scripts: Sequence[tuple[str, Sentinels]]) -> frozenset[str]:
    """The names whose values H010 keeps from being printed or sent where
    the caller chooses: the export's ``secrets:``, and each ``pass_env:``
    name a script gives a program where its grammar takes a credential
    (``curl -u "ci:$NEXUS_TOKEN"``, ``PGPASSWORD="$PW" psql``): the
    server's environment holds a credential there, as a secret would."""
    names = set(export.spec.secrets)
    passed = [n for n in export.spec.pass_env if n not in names]
    for text, _ in scripts if passed else ():
        src = text.encode("utf-8")
        for node, (name, *arguments) in (c for c in parsed(text).commands() if c[1]):
            program = (static_text(src, name) or "").rsplit("/", 1)[-1]
            words = [static_text(src, a) for a in arguments]
            for variable in passed if program else ():
                mention = re.compile(rf"\$\{{?{variable}\b")
                if any(
                    mention.search(node_text(src, a))
                    # an option's value (-u, --header=…), not an operand
                    # (curl's URL may carry user:password@, but a URL
                    # passed whole is where the request goes, not a secret)
                    and (_option_before(words, k) or "=" in (words[k] or ""))
                    and takes_credential(program, words, ("word", k))
                    for k, a in enumerate(arguments)
                ) or any(
                    child.type == "variable_assignment"
                    and (target := child.child_by_field_name("name")) is not None
                    and (value := child.child_by_field_name("value")) is not None
                    and mention.search(node_text(src, value))
                    and takes_credential(program, words, ("env", node_text(src, target)))
                    for child in node.children
                ):
                    names.add(variable)
        names |= _credential_files_of(text, [v for v in passed if v not in names])
    return frozenset(names)


def _credential_files_of(text: str, passed: Sequence[str]) -> set[str]:
    """The `passed` names the script `text` writes into a file (a
    redirection of a statement that mentions one) that a program then reads
    as a credential file (``PGPASSFILE=F psql``, ``curl -K F``, ``mysql
    --defaults-extra-file=F``): the file holds a credential, as a secret's
    would. Paths are compared as written (`path_as_written`)."""
    if not passed:
        return set()
    src = text.encode("utf-8")
    script = parsed(text)
    written: dict[str, set[str]] = {}
    for redirect, dest in writing_redirects(script):
        statement = redirect.parent if redirect.parent is not None else redirect
        held = {v for v in passed if re.search(rf"\$\{{?{v}\b", node_text(src, statement))}
        if held:
            written.setdefault(path_as_written(node_text(src, dest)), set()).update(held)
    found: set[str] = set()
    for node, (name, *arguments) in (c for c in script.commands() if c[1]):
        program = (static_text(src, name) or "").rsplit("/", 1)[-1]
        words = [static_text(src, a) for a in arguments]
        for k, argument in enumerate(arguments):
            path = path_as_written(node_text(src, argument).split("=", 1)[-1])
            if path in written and reads_credential_file(program, words, k):
                found |= written[path]
        for child in node.children:
            target = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            if child.type != "variable_assignment" or target is None or value is None:
                continue
            path = path_as_written(node_text(src, value))
            if path in written and reads_credential_file_env(
                program, words, node_text(src, target)
            ):
                found |= written[path]
    return found


def _option_before(words: Sequence[str | None], k: int) -> bool:
    """The word before the `k`-th of `words` is a literal option (not ``--``)."""
    before = words[k - 1] if k > 0 else None
    return before is not None and before.startswith("-") and before != "--"


def _environment(export: Export, step: Step) -> frozenset[str]:
    """The names a step's environment holds that are neither the caller's
    nor unknown: the export's ``secrets:`` and ``pass_env:`` and the step's
    literal ``env:`` (the author's text)."""
    env = getattr(step.spec, "env", None) or {}
    return frozenset(export.spec.secrets) | frozenset(export.spec.pass_env) | frozenset(env)


def _draft(
    export: Export,
    key: str,
    models: dict[str, ValueModel],
    scripts: list[tuple[str, Sentinels]],
    *,
    written: bool = False,
) -> _Draft:
    """Analyse every step of `export` but bash's reading of its scripts
    (`scripts`: `export_scripts`, in step order). `written`: another export
    may put caller data in the working folder (`Checker.ambient_findings`)."""
    programs = _grammars(export)
    # the files any step writes a secret to: a later (or earlier) step that
    # prints one back prints the secret (H010 sees the export, not one step)
    secret_files: set[str] = set(_secret_source_files(export))
    own_secret_files: list[tuple[list[Hazard], set[str], frozenset[int]]] = []
    run_steps = [step for step in export.all_steps if step.script is not None]
    held = _held_secrets(export, scripts)
    for (text, sentinels), step in zip(scripts if held else (), run_steps, strict=False):
        files: set[str] = set(_secret_source_files(export))
        commands: set[int] = set()
        own_secret_files.append(
            (
                secret_hazards(
                    text,
                    sentinels,
                    held,
                    files,
                    _secret_programs(export),
                    models,
                    _environment(export, step),
                    commands,
                ),
                files,
                frozenset(commands),
            )
        )
        secret_files |= files
    # a step that may put caller data in the working folder makes every
    # relative path of every step the caller's (H004, H012 read it): the
    # export is analysed again knowing it
    # a step that may put caller data in the run directory makes every path
    # there the caller's; when none may, a program given the author's path
    # there (``docker --config "$HARBOR_RUN_DIR/docker"``) reads the
    # author's files, and the export is analysed again knowing it
    run_dir: list[tuple[bool, bool, bool]] = []
    if written:
        # as if a command no step holds wrote it: every command is judged so
        forced = [[(0, 0)] for _ in export.all_steps]
        steps, _, _ = _analyse_steps(
            export, models, scripts, programs, own_secret_files, secret_files, forced, True,
            run_dir=run_dir,
        )  # fmt: skip
        if _own_run_dir(run_dir):
            steps, _, _ = _analyse_steps(
                export, models, scripts, programs, own_secret_files, secret_files, forced, True,
                own_run_dir=True, run_dir_texts=any(texts for _, _, texts in run_dir),
            )  # fmt: skip
        return _Draft(export, key, models, programs, steps)
    fills: list[tuple[str, Located]] = []
    steps, writers, surely = _analyse_steps(
        export, models, scripts, programs, own_secret_files, secret_files, None, False, fills,
        run_dir=run_dir,
    )  # fmt: skip
    if any(writers):
        run_dir.clear()
        steps, _, _ = _analyse_steps(
            export, models, scripts, programs, own_secret_files, secret_files, writers,
            run_dir=run_dir,
        )  # fmt: skip
    if _own_run_dir(run_dir):
        steps, _, _ = _analyse_steps(
            export, models, scripts, programs, own_secret_files, secret_files,
            writers if any(writers) else None, own_run_dir=True,
            run_dir_texts=any(texts for _, _, texts in run_dir),
        )  # fmt: skip
    if steps:
        first, hazards, script = steps[0]
        steps[0] = (first, _secret_file_hazards(export) + _secret_places(export) + hazards, script)
    return _Draft(
        export,
        key,
        models,
        programs,
        steps,
        _first_writer(export, scripts, surely),
        may_write=any(writers),
        fills_at=(fills[0] if fills else None) or _repository_writer(export, scripts),
    )


def _secret_source_files(export: Export) -> list[str]:
    """The files secrets are read from (``{file: …}``) that may stand in
    the folder the steps work in: a relative path, inside the export's
    folder, named by its path without the leading ``./`` and ``../`` (a
    script names ``.secrets/token`` for ``../.secrets/token``)."""
    found: list[str] = []
    for source in export.spec.secrets.values():
        file = getattr(source, "file", None)
        if file is None or file.startswith("/"):
            continue
        parts = [p for p in file.split("/") if p not in ("", ".")]
        while parts and parts[0] == "..":
            parts.pop(0)
        if parts:
            found.append("/".join(parts))
    return found


def _secret_file_hazards(export: Export) -> list[Hazard]:
    """H010 on a secret read from a relative file (inside the export's
    folder) when an arg is a path `within:` a folder: the caller may name
    the secret's own file, and a program that prints it transformed (``od``,
    ``base64``) gets past the scrubber, which only knows the secret as it
    is. (Another export's such arg is `secret_file_findings`'.)"""
    paths = [name for name, schema in export.arg_schemas.items() if "within" in schema]
    out: list[Hazard] = []
    for name, source in export.spec.secrets.items():
        file = getattr(source, "file", None)
        if file is None or file.startswith("/") or not paths:
            continue
        out.append(
            SecretPrinted.hazard(
                paths[0],
                (("secrets", name, "file"), 0),
                f"the secret {name} is read from `{file}`, inside the export's folder, and "
                f"arg {paths[0]!r} is a path the caller chooses inside a folder: it may name "
                "that file, which a program then prints in a form the scrubber does not know",
                "keep the secret's file outside every folder an arg's `within:` allows (an "
                "absolute path such as /run/secrets/NAME), or read it from `env:`",
            )
        )
    return out


def secret_file_findings(exports: Sequence[Export]) -> dict[str, list[Finding]]:
    """H010 on each export of `exports` that reads a secret from a relative
    file (next to the export, so maybe in the folder the server works in)
    while *another* export takes a path the caller chooses inside a folder
    (an arg's `within:`): that export's call may name the file and print it,
    and its run's scrubber does not know this secret. Only the whole set
    shows this."""
    readers = sorted(
        e.name
        for e in exports
        if e.parent is None and any("within" in s for s in e.arg_schemas.values())
    )
    out: dict[str, list[Finding]] = {}
    for export in exports:
        others = [name for name in readers if name != export.name]
        if export.parent is not None or not others:
            continue
        for name, source in export.spec.secrets.items():
            file = getattr(source, "file", None)
            if file is None or file.startswith("/"):
                continue
            hazard = SecretPrinted.hazard(
                None,
                (("secrets", name, "file"), 0),
                f"the secret {name} is read from `{file}`, a path relative to the export's "
                f"folder, while export(s) {', '.join(repr(o) for o in others[:5])} take a path "
                "the caller chooses inside a folder: their calls may name that file and print "
                "it, and their scrubber does not know this secret",
                "keep the secret's file outside every folder an arg's `within:` allows (an "
                "absolute path such as /run/secrets/NAME), or read it from `env:`",
            )
            out.setdefault(export.name, []).extend(
                _findings(export, export.all_steps[0].name if export.all_steps else "", [hazard])
            )
    return out


def _hazard_places(draft: _Draft) -> frozenset[tuple[str, Located]]:
    """The rule and place of every hazard of `draft`'s steps."""
    return frozenset((h.rule, h.where) for _step, hazards, _s in draft.steps for h in hazards)


def _first_writer(
    export: Export, scripts: list[tuple[str, Sentinels]], surely: list[tuple[int, int] | None]
) -> tuple[str, Located] | None:
    """The step name and place of the first command in `surely` (per step,
    the first command that surely puts a caller's file in the working
    folder)."""
    script_index = 0
    for step, found in zip(export.all_steps, surely, strict=True):
        if found is not None and step.script is not None:
            return step.name, scripts[script_index][1].locate(found[0])
        if found is not None:
            return step.name, ((*step.where, "argv", 0), 0)
        script_index += step.script is not None
    return None


def _repository_writer(
    export: Export, scripts: list[tuple[str, Sentinels]]
) -> tuple[str, Located] | None:
    """The first step of `export` that may put caller data in the
    repository (`writes_repository`: a commit message, a tag, a note), at
    its start; None when none may."""
    script_index = 0
    for step in export.all_steps:
        if step.script is None:
            continue
        text, sentinels = scripts[script_index]
        script_index += 1
        if writes_repository(text, list(sentinels.by_word)):
            return step.name, sentinels.locate(0)
    return None


def _argv_puts_caller_files(elements: Sequence[tuple[str, Sentinels]]) -> bool:
    """An ``argv:`` step whose program surely writes files the caller named
    or filled (a language whose program writes, `puts_caller_files`)."""
    words: list[str | None] = [None if s.by_word else text for text, s in elements[1:]]
    return _argv_language(elements) or puts_caller_files(elements[0][0], words)


def _analyse_steps(
    export: Export,
    models: dict[str, ValueModel],
    scripts: list[tuple[str, Sentinels]],
    programs: dict[str, Grammar],
    own_secret_files: list[tuple[list[Hazard], set[str], frozenset[int]]],
    secret_files: set[str],
    writers: list[list[tuple[int, int]]] | None,
    repository_written: bool = False,
    fills: list[tuple[str, Located]] | None = None,
    *,
    own_run_dir: bool = False,
    run_dir_texts: bool = True,
    run_dir: list[tuple[bool, bool, bool]] | None = None,
) -> tuple[
    list[tuple[Step, list[Hazard], _Script | None]],
    list[list[tuple[int, int]]],
    list[tuple[int, int] | None],
]:
    """Every step of `export` analysed (`_draft`); per step, the commands
    that may put caller data in the working folder (an ``argv:`` step's
    whole command: ``(0, 0)``), and the first that surely puts a file the
    caller named or filled there. `writers`: those a first analysis found
    (each command is then judged knowing the others'). `own_run_dir`: no
    step may put caller data in the run directory (a first analysis found
    none), so the author's paths there are no places; `run_dir_texts`: a
    step may write text of the author's there; `run_dir`, when given, gets
    per step whether it may put caller data there, whether a program of it
    was given an author's path there, and whether it may write the
    author's text there."""
    script_index = 0
    held = _held_secrets(export, scripts)
    found: list[list[tuple[int, int]]] = []
    surely: list[tuple[int, int] | None] = []
    steps: list[tuple[Step, list[Hazard], _Script | None]] = []
    pending = iter(scripts)
    names = [s.name for s in export.all_steps]
    # what each step's outputs can hold (None: the author's), for the later ones
    outputs: dict[str, ValueModel | None] = {}
    links = any(makes_links(text) for text, _ in scripts)
    named_run_dir = any("HARBOR_RUN_DIR" in text for text, _ in scripts)
    repository = repository_written or any(
        writes_repository(text, list(s.by_word)) for text, s in scripts
    )
    filled: set[str] = set()  # the files earlier steps wrote with caller data
    for index, step in enumerate(export.all_steps):
        environment = _environment(export, step)
        env_hazards = _env_literals(step, models) + _instruction_hazards(step)
        if step.kind == "agent":
            # no command: the model's calls are the granted tools' own
            # commands, each checked as its export (or custom tool)
            steps.append((step, env_hazards, None))
            found.append([])
            surely.append(None)
            outputs[step.name] = any_model()
            if run_dir is not None:
                run_dir.append((True, False, True))  # a fix: or a model's tool may write there
        elif step.script is not None:
            text, sentinels = next(pending)
            if own_secret_files and own_secret_files[script_index][1] == secret_files:
                # no other step's file to read
                printed, _, secret_commands = own_secret_files[script_index]
            else:
                given: set[int] = set()
                printed = secret_hazards(
                    text,
                    sentinels,
                    held,
                    set(secret_files),
                    _secret_programs(export),
                    models,
                    environment,
                    given,
                )
                secret_commands = frozenset(given)
            script_index += 1
            tainted: dict[str, ValueModel] = {}
            earlier = dict(outputs)
            try:
                elsewhere = _cwd_writable(step) or (
                    writers is not None and any(w for k, w in enumerate(writers) if k != index)
                )
                facts = analyse_script_deferred(
                    text,
                    sentinels,
                    models,
                    programs,
                    environment,
                    elsewhere,
                    writers[index] if writers is not None else (),
                    earlier,
                    links,
                    frozenset(filled),
                    repository,
                    secret_commands,
                    own_run_dir,
                    run_dir_texts,
                    named_run_dir,
                )
                hazards, gate, tainted = facts.hazards, facts.parsed, facts.tainted
                if run_dir is not None:
                    run_dir.append((facts.fills_run_dir, facts.run_paths, facts.run_dir_texts))
                found.append(facts.writers)
                surely.append(facts.caller_files)
                outputs[step.name] = facts.outputs
                filled |= facts.filled
                if fills is not None and any(
                    not f.startswith(("/", "$", "~")) for f in facts.filled
                ):
                    # a file of the working folder, its text the caller's
                    fills.append((step.name, sentinels.locate(0)))
            except Exception:
                # the analysis assumes a script bash parses: if bash refuses
                # this one, that is the finding; if not, this is a bug
                if reprint(text).error is None:
                    raise
                hazards, gate = [], True
                found.append([])
                surely.append(None)
                outputs[step.name] = any_model()
                if run_dir is not None:
                    run_dir.append((True, False, True))
            hazards = (
                env_hazards + _undeclared(text, sentinels, export, names, index) + hazards + printed
            )
            script = _Script(
                text,
                sentinels,
                tainted,
                environment,
                outputs=earlier,
                own_run_dir=own_run_dir,
                run_dir_texts=run_dir_texts,
            )
            steps.append((step, hazards, script if gate else None))
        else:
            assert step.argv is not None
            elements = [
                substitute(t, models, (*step.where, "argv", i)) for i, t in enumerate(step.argv)
            ]
            writes = _argv_writes(elements)
            # its own writes count only when its language's program writes
            # (a later call would load them), as in a script
            elsewhere = _cwd_writable(step) or (
                writers is not None
                and (
                    any(w for k, w in enumerate(writers) if k != index)
                    or (writes and _argv_language(elements))
                )
            )
            hazards = env_hazards + analyse_argv(elements, models, programs, environment, elsewhere)
            found.append([(0, 0)] if writes else [])
            surely.append((0, 0) if writes and _argv_puts_caller_files(elements) else None)
            hazards += _argv_secret_hazards(
                elements, held, _secret_programs(export), models, environment
            )
            steps.append((step, hazards, None))
            outputs[step.name] = any_model()
            if run_dir is not None:
                # its program may write where it is told: no author's path
                # of the run directory reaches it as a place's (argv has no $)
                wrote = writes or _argv_language(elements)
                run_dir.append((wrote, False, wrote))
    return steps, found, surely


def _own_run_dir(run_dir: Sequence[tuple[bool, bool, bool]]) -> bool:
    """No step may put caller data in the run directory, and a program of
    some step was given an author's path there: worth a pass that knows it."""
    return not any(fills for fills, _, _ in run_dir) and any(met for _, met, _ in run_dir)


def _argv_language(elements: Sequence[tuple[str, Sentinels]]) -> bool:
    """An ``argv:`` step whose program is a language (python3 -c …)."""
    return is_language(elements[0][0].rsplit("/", 1)[-1], [text for text, _ in elements[1:]])


def _argv_writes(elements: Sequence[tuple[str, Sentinels]]) -> bool:
    """An ``argv:`` step with caller data whose program may write a file
    (caller data that names nothing, an enum's word or a number, makes no
    file of the caller's: `names_nothing`)."""
    if not elements or not any(
        not names_nothing(info.model) for _, s in elements for info in s.by_word.values()
    ):
        return False
    words: list[str | None] = [None if s.by_word else text for text, s in elements]
    program = elements[0][0].rsplit("/", 1)[-1]
    return not writes_no_file(program, words[1:])


def _undeclared(
    text: str, sentinels: Sentinels, export: Export, names: Sequence[str], index: int
) -> list[Hazard]:
    """H011 on the ``ARG_*`` and ``STEP_*`` names the script `text` (of the
    step at `index` of `names`, every step's name in run order) reads but
    neither declares nor assigns itself."""
    out: list[Hazard] = []
    passed = set(export.spec.pass_env)
    for variable, byte in references(text):
        if variable in passed:
            continue  # STEP_CA_URL passed from the server's environment: no step's
        hazard = UndeclaredReference.detect(
            variable, export.arg_schemas, names[:index], names, sentinels.locate(byte)
        )
        if hazard is not None:
            out.append(hazard)
    return out


def _secret_places(export: Export) -> list[Hazard]:
    """A secret read from a file in a place a step may write (``secrets:
    {T: {file: /dev/shm/t}}``) holds whatever a step (of this export or
    another) put there: the caller's text, given where the author's secret
    may go (``git -c core.fsmonitor="$T"``)."""
    out: list[Hazard] = []
    for name, spec in export.spec.secrets.items():
        path = getattr(spec, "file", None)
        if isinstance(path, str) and names_place(path):
            out.append(
                NoGrammarPosition.hazard(
                    None,
                    (("secrets", name, "file"), 0),
                    f"the secret `{name}` is read from `{path}`, a place a step may write: "
                    "what it holds may be the caller's text, not a secret of the author's",
                    "keep secret files where no step writes (/run/secrets, a folder of the "
                    "server's own)",
                )
            )
    return out


def _cwd_writable(step: Step) -> bool:
    """The step's ``cwd:`` is a place steps may write (``/dev/shm/app``,
    ``/tmp/x``): whatever is in it is the caller's, as in a working folder
    another step writes."""
    return step.cwd is not None and writable_text(step.spec.cwd or str(step.cwd))


def _env_literals(step: Step, models: Mapping[str, ValueModel]) -> list[Hazard]:
    """A step's ``env:`` values are the author's literal text, but the
    program that reads such a variable may expand it again with a shell
    (git runs ``GIT_SSH_COMMAND`` with ``sh -c``, where ``$ARG_x`` becomes
    the caller's value inside a command line): a literal that reads caller
    data is refused."""
    out: list[Hazard] = []
    callers = {f"ARG_{name}" for name in models} | set(step_env.caller_variables())
    for name, value in step.spec.env.items():
        entry = _env_place(name, value)
        if entry is not None:
            out.append(
                CodeSelectingVariable.env_place(name, entry, ((*step.where, "env", name), 0))
            )
            continue
        for match in _ENV_REFERENCE.finditer(value):
            hazard = CodeSelectingVariable.env_literal(
                name, match.group(1), callers, models, ((*step.where, "env", name), match.start())
            )
            if hazard is not None:
                out.append(hazard)
                break
    return out


def _env_place(name: str, value: str) -> str | None:
    """The part of a step's literal ``env:`` value of `name` that names a
    place programs would read from and a step may write: in a list of
    folders (``PATH``, ``PYTHONPATH``, ``PERL5LIB``…) an entry that is not
    absolute (an ``env:`` value is never expanded: ``$HOME/bin`` is
    relative); for a variable known to name where programs find settings
    (``CURL_HOME``, ``GIT_CONFIG_GLOBAL``) a relative path; for every
    variable, whatever it is read as, a piece of the value that names a
    writable place (the run directory, a temporary folder, home), unless
    the variable names a temporary folder to write in (``TMPDIR``,
    ``ANSIBLE_LOCAL_TEMP``). None when it names none."""
    if name == "CDPATH":
        return None  # only "" passes the loader: bash's default
    if TEMP_VARIABLE.search(name):
        return None  # TMPDIR=/tmp/x: where programs make new files
    if name.endswith(("PATH", "LIB")):
        for entry in value.split(":"):
            if not entry.startswith("/") or writable_text(entry):
                return entry or "(an empty entry: the working folder)"
    elif (
        (_CONFIG_PLACE_VARIABLE.search(name) or sinks.is_code_variable(name))
        and value
        and not value.startswith("/")
        and "://" not in value
        and ("/" in value or value.startswith((".", "~")))
    ):
        return value  # .cache/curl: a folder of whichever folder a command works in
    return writable_piece(value)


#: Variables whose value is where programs find their settings or code:
#: homes, configs, rc files, XDG's folders (CURL_HOME, XDG_CONFIG_HOME,
#: GIT_CONFIG_GLOBAL, WGETRC, PSQLRC), beside `sinks.is_code_variable`.
_CONFIG_PLACE_VARIABLE = re.compile(r"(?:^|_)(?:HOME|CONFIG|CONF)(?:_|$)|RC$|^XDG_")
#: The checker's own placeholder words, never shown to people.
_SENTINEL = re.compile(r"q*hbQ?SENT[0-9]+x")
_GENERIC_ARG = re.compile(r"\$ARG(?![A-Za-z0-9_])")
_ENV_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


_T = TypeVar("_T")


class _Meanwhile(Generic[_T]):
    """`work` run in a thread of its own from now, for its result later
    (`result`): bash's processes run while this thread analyses. Only for
    work that is a pure function of its inputs and locks what it shares
    (`mcp_harbor.check._reprint`'s cache), so that when it runs changes
    nothing but the cost."""

    def __init__(self, work: Callable[[], _T]) -> None:
        self._work = work
        self._out: list[_T] = []
        self._thread = threading.Thread(target=self._run, name="harbor-check-bash", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # Whatever fails here fails again in `result`, in the caller's thread.
        with contextlib.suppress(Exception):
            self._out.append(self._work())

    def result(self) -> _T:
        """The work's result (the work done again here if it failed)."""
        self._thread.join()
        return self._out[0] if self._out else self._work()


def _judge(drafts: Sequence[_Draft], read: _Meanwhile[list[Reprint]] | None = None) -> None:
    """bash's own reading of every pending script of `drafts`, in batches:
    each place carrying caller data must be read alike by tree-sitter and
    bash (H000 otherwise), and the analysis of bash's canonical reprint adds
    its hazards (see `mcp_harbor.check._authority`). `read`: bash's reading
    of the scripts, begun before the analysis (`check_exports`).

    bash reads the probe renderings while this thread analyses the
    reprints; the hazards are added as if one had followed the other."""
    pending = [
        (draft, script)
        for draft in drafts
        for _step, _hazards, script in draft.steps
        if script is not None
    ]
    if not pending:
        return
    items = []
    for _owner, script in pending:
        words = [w for w, info in script.sentinels.by_word.items() if not info.model.inert]
        names = [name for name, model in script.tainted.items() if not model.inert]
        items.append((script.text, words, names))
    probes = _Meanwhile(lambda: disagreements(items))
    if read is not None:
        read.result()
    bash = reprints(script.text for _d, script in pending)
    again: list[list[Hazard]] = []
    for (draft, script), reading in zip(pending, bash, strict=True):
        script.syntax = reading.error
        again.append(
            []
            if reading.text is None
            else analyse_reprint(
                reading.text,
                script.text,
                script.sentinels,
                draft.models,
                draft.programs,
                only_new=True,  # `_finish` keeps only the rules and args it adds
                environment=script.environment,
                outputs=script.outputs,
                own_run_dir=script.own_run_dir,
                run_dir_texts=script.run_dir_texts,
            )
        )
    found = probes.result()
    for (_draft, script), places, reprinted in zip(pending, found, again, strict=True):
        for place in places:
            arg = _arg_at(script, place.offset)
            script.hazards.append(
                UnparseableTemplate.hazard(
                    arg,
                    script.sentinels.locate(place.offset),
                    f"the two parsers disagree about caller data here: {place.detail}",
                    "rewrite this part of the script so that it reads the same to both parsers: "
                    "no backslash before blanks or `#`, here-document delimiters alone on "
                    "their line (no blanks after them, tabs only before them under `<<-`)",
                )
            )
        script.hazards.extend(reprinted)


def _arg_at(script: _Script, offset: int) -> str | None:
    """The arg whose sentinel ends at `offset`, if any."""
    src = script.text.encode("utf-8")
    for word, info in script.sentinels.by_word.items():
        raw = word.encode()
        if offset >= len(raw) and src[offset - len(raw) : offset] == raw:
            return info.arg
    return None


def _finish(draft: _Draft) -> ExportReport:
    """Apply bash's verdict on each script (`_judge`) and make the report:
    a script bash cannot read has that H000 finding alone, since the
    analysis of a script bash does not parse means nothing."""
    export = draft.export
    findings: list[Finding] = []
    for step, hazards, script in draft.steps:
        if script is not None and script.syntax is not None:
            # a fix:'s prompt is not the script: its findings stay
            prompt = [h for h in hazards if h.rule == CallerValueAsInstructions.id]
            hazards = [bash_refusal(script.syntax, script.sentinels.locate(0)), *prompt]
        elif script is not None and not any(h.rule == UnparseableTemplate.id for h in hazards):
            seen = {(h.rule, h.arg) for h in hazards}
            hazards = hazards + [h for h in script.hazards if (h.rule, h.arg) not in seen]
        findings.extend(_findings(export, step.name, hazards))
    findings.sort(key=lambda f: (f.line, f.column, f.rule))
    status: Literal["accepted", "refused"] = (
        "refused" if any(f.severity == "error" for f in findings) else "accepted"
    )
    return ExportReport(export.name, str(export.path), status, tuple(findings))


def _with_findings(report: ExportReport, extra: Sequence[Finding]) -> ExportReport:
    """`report` with `extra` findings too (its custom tools', or those only
    the whole set shows), in file order; refused when any is an error."""
    if not extra:
        return report
    findings = sorted((*report.findings, *extra), key=lambda f: (f.line, f.column, f.rule))
    status: Literal["accepted", "refused"] = (
        "refused" if any(f.severity == "error" for f in findings) else "accepted"
    )
    return ExportReport(report.name, report.file, status, tuple(findings))


def grant_findings(exports: Sequence[Export]) -> dict[str, list[Finding]]:
    """The findings only the whole set of `exports` shows, by the name of the
    export they are about: W106, an agent (or ``fix:``) granted another
    export that is destructive (``annotations.destructiveHint: true``) and
    has no ``confirm:``, located at the grant's entry.

    A grant name is resolved as the runtime resolves it: the export's own
    custom tools first, then the exports of the set; a name that is
    neither is the loader's matter (`mcp_harbor.config.grant_problems`).
    Pure; never raises. `load_and_check` adds these to its reports; the
    check of one export (`check_export`) cannot see them."""
    by_name = {e.name: e for e in exports}
    out: dict[str, list[Finding]] = {}
    for export in exports:
        for step in export.all_steps:
            key = "agent" if step.spec.agent is not None else "fix"
            hazards: list[Hazard] = []
            for n, name in enumerate(step.grant):
                granted = by_name.get(name)
                if name in export.tools or granted is None:
                    continue
                annotations = granted.spec.annotations
                hazard = UnconfirmedDestructiveGrant.detect(
                    name,
                    annotations is not None and annotations.destructiveHint is True,
                    granted.spec.confirm is not None,
                    ((*step.where, key, "tools", n), 0),
                )
                if hazard is not None:
                    hazards.append(hazard)
            if hazards:
                out.setdefault(export.name, []).extend(_findings(export, step.name, hazards))
    return out


@dataclass(frozen=True, slots=True)
class CheckedExports:
    """The result of the gate: which exports may be registered."""

    accepted: list[Export] = field(default_factory=list)
    refused: list[ExportReport] = field(default_factory=list)
    reports: list[ExportReport] = field(default_factory=list)
    #: Every export loaded, accepted or refused, in load order (`reports`' order).
    exports: list[Export] = field(default_factory=list)


class Checker:
    """The export checker and what it remembers: the report of every export
    it checked, the report keys it looked up, and the exports `start` loaded
    ahead of `load_and_check`.

    Guarantees:

    - A report is reused only for an export with the same content hash at
      the same path (`report_key`); any other export is checked in full.
      The content hash covers the file's bytes and every program grammar
      that applies to the export (`mcp_harbor.config.Export.content_hash`),
      and the check is a pure function of those, so a cached report is the
      report checking again would give: caching changes only the cost.
    - `start` then `load_and_check` with the same paths: the exports `start`
      loaded are reused (once) only when the same files are found there and
      every file still has the bytes that were loaded; otherwise
      `load_and_check` loads again. Either way each export is checked
      exactly as without `start`.
    - `used_keys` holds every report key this checker looked up since it
      was made or cleared: what `mcp_harbor.check.cachefile` keeps when its
      file has grown past its bound.

    The module-level functions (`check_export`, `check_exports`,
    `load_and_check`, `start`, `clear_cache`) are this class's methods on
    `default_checker`, whose reports `mcp_harbor.check.cachefile` keeps
    across starts. As before, a checker does no locking: its caches are
    dicts and sets that one thread at a time grows. (`check_exports` waits
    for bash's processes in threads of its own, which touch only the
    locked cache of `mcp_harbor.check._reprint`.)
    """

    def __init__(self) -> None:
        self._reports: dict[str, ExportReport] = {}
        #: per report key, `_Draft.writes_at`
        self._writes: dict[str, tuple[str, Located] | None] = {}
        self._fills: dict[str, tuple[str, Located] | None] = {}
        #: per report key, the rule and place of each hazard its draft found
        #: (what `ambient_findings` compares a written-folder draft with)
        self._drafted: dict[str, frozenset[tuple[str, Located]]] = {}
        self._used: set[str] = set()
        self._started: tuple[tuple[Path, ...], list[Export]] | None = None

    @staticmethod
    def report_key(export: Export) -> str:
        """The key of `export`'s report: its content hash and path."""
        return f"{export.content_hash}:{export.path}"

    # -- the gate

    def check_export(self, export: Export) -> ExportReport:
        """Check every step of `export`. Pure; never raises for a bad template
        (an unparseable one is an H000 finding). Results are cached by the
        export's content hash and path."""
        return self.check_exports([export])[0]

    def check_exports(
        self, exports: Sequence[Export], *, programs: bool = False
    ) -> list[ExportReport]:
        """`check_export` on each. Every export is analysed first; then bash
        reads all their scripts at once, in batches (`_judge`). With
        `programs`, `programs_of` is worked out too for each export the
        analysis did not refuse."""
        from mcp_harbor.check.commands import programs_of

        drafts: list[_Draft] = []
        substituted: list[
            tuple[Export, str, dict[str, ValueModel], list[tuple[str, Sentinels]]]
        ] = []
        parents: list[Export] = []  # checked now: their reports take their tools' findings
        household: dict[str, str] = {}  # a unit's key -> its export's key
        for export in exports:
            key = self.report_key(export)
            self._used.add(key)
            if key in self._reports:
                continue
            parents.append(export)
            # a custom tool is export-shaped: the same analysis, unchanged
            for unit in (export, *export.tools.values()):
                unit_key = self.report_key(unit)
                if unit is not export and unit_key in self._reports:
                    continue
                models = arg_models(unit)
                if unit is not export:
                    # the runtime gives a custom tool the model's ARG_* in place
                    # of the caller's; were one of the caller's left, it would
                    # carry the caller's value: the export's args taint too
                    models = {**arg_models(export), **models}
                scripts = export_scripts(unit, models)
                substituted.append((unit, unit_key, models, scripts))
                household[unit_key] = key
        texts = [text for _u, _k, _m, scripts in substituted for text, _s in scripts]
        read = _Meanwhile(lambda: reprints(texts)) if texts else None
        for export, key, models, scripts in substituted:
            draft = _guarded_draft(export, key, models, scripts)
            drafts.append(draft)
            if (
                programs
                and export.parent is None
                and not any(
                    RULES[h.rule].severity == "error"
                    for _step, hazards, _s in draft.steps
                    for h in hazards
                )
            ):
                programs_of(export, [text for text, _ in scripts])
        _judge(drafts, read)
        may_write = {draft.key for draft in drafts if draft.may_write}
        for draft in drafts:
            self._reports[draft.key] = _finish(draft)
            self._writes[draft.key] = draft.writes_at
            self._fills[draft.key] = draft.fills_at
            self._drafted[draft.key] = _hazard_places(draft)
        # an agent step runs its custom tools in the export's folder: a tool
        # that may put the model's data there makes it written for the
        # export's steps and its other tools, and a step that may, for its
        # tools (the model is one more caller)
        family: dict[str, list[str]] = {}
        for unit_key, export_key in household.items():
            family.setdefault(export_key, []).append(unit_key)
        again = [
            (unit, key, models, scripts)
            for unit, key, models, scripts in substituted
            if any(other in may_write for other in family[household[key]] if other != key)
        ]
        if again:
            texts = [text for _u, _k, _m, scripts in again for text, _s in scripts]
            redone = [
                _draft(unit, key, models, scripts, written=True)
                for unit, key, models, scripts in again
            ]
            _judge(redone, _Meanwhile(lambda: reprints(texts)) if texts else None)
            for draft in redone:
                self._reports[draft.key] = _finish(draft)
        for export in parents:
            key = self.report_key(export)
            tools = [self._reports[self.report_key(tool)] for tool in export.tools.values()]
            self._reports[key] = _with_findings(
                self._reports[key], [f for tool in tools for f in tool.findings]
            )
        return [self._reports[self.report_key(e)] for e in exports]

    def ambient_findings(self, exports: Sequence[Export]) -> dict[str, list[Finding]]:
        """H012 on each export of `exports` (checked by `check_exports`) that
        may put caller data in the working folder while *another* export runs
        a program there that reads code or config from it (or a relative
        script): the exports share the server's folder, so one export's
        caller files would be ambient in the other's calls. The readers are
        found by analysing each other export as if its folder were written
        and keeping what that adds. Only the whole set shows this: the check
        of one export (`check_export`) cannot."""
        writes = {e.name: self._writes.get(self.report_key(e)) for e in exports}
        fills = {e.name: self._fills.get(self.report_key(e)) for e in exports}
        if not any(writes.values()) and not any(fills.values()):
            return {}
        readers: dict[str, list[str]] = {}
        #: those whose verdict rests on what the folder's files hold (rule
        #: 2: a file no step writes is the author's, its text too)
        content: dict[str, list[str]] = {}
        for export in exports:
            if export.parent is not None:
                continue
            models = arg_models(export)
            scripts = export_scripts(export, models)
            seen = self._drafted.get(self.report_key(export))
            if seen is None:  # a verdict from the cache file: no draft kept
                seen = _hazard_places(_draft(export, "", models, scripts))
            forced = _draft(export, "", models, scripts, written=True)
            for step, hazards, _s in forced.steps:
                added = [h for h in hazards if (h.rule, h.where) not in seen]
                if any(h.rule in ("H004", "H012") for h in added):
                    readers.setdefault(export.name, []).append(step.name)
                if any(
                    RULES[h.rule].severity == "error"
                    for h in added
                    if h.rule in RULES and h.rule not in ("H004", "H012")
                ):
                    # (what runs from the folder is the code readers')
                    content.setdefault(export.name, []).append(step.name)
        out: dict[str, list[Finding]] = {}
        for export in exports:
            # a file the caller names breaks both kinds of reader; a file
            # of the author's name filled with caller data, those of content
            at = writes.get(export.name)
            found = readers if at is not None else {}
            if at is None:
                at = fills.get(export.name)
            named_by = {**content, **found} if at is not None else {}
            others = sorted(name for name in named_by if name != export.name)
            if at is None or not others:
                continue
            step_name, where = at
            named = ", ".join(f"{name!r} (step {named_by[name][0]!r})" for name in others[:5])
            hazard = NoGrammarPosition.hazard(
                None,
                where,
                "this command may put caller data in the working folder the server's "
                f"exports share, where export(s) {named} run programs that read code, "
                "config or data from it as the author's: the caller's files would be ambient "
                "in their calls",
                "keep the files made from caller data in $HARBOR_RUN_DIR",
            )
            out[export.name] = _findings(export, step_name, [hazard])
        return out

    def load_and_check(
        self, paths: Sequence[Path], *, strict: bool = False, cache_file: Path | None = None
    ) -> CheckedExports:
        """Load the export files under `paths` and check each export.

        Under `strict`, warnings refuse an export too. With `cache_file`,
        verdicts kept there by an earlier start are reused (and new ones
        written back); see `mcp_harbor.check.cachefile` for why that never
        accepts an export the checker would refuse.

        Raises:
            ConfigError: a file cannot be loaded (as `mcp_harbor.config.load_exports`).
        """
        from mcp_harbor.check import cachefile

        if cache_file is not None and cachefile.attached() != cache_file:
            cachefile.attach(cache_file)  # first: the files it read before are not parsed again
        exports = self._started_exports(paths)
        if exports is None:
            exports = load_exports(paths)
        reports = self.check_exports(exports, programs=cache_file is not None)
        across = grant_findings(exports)
        for name, found in self.ambient_findings(exports).items():
            across.setdefault(name, []).extend(found)
        for name, found in secret_file_findings(exports).items():
            across.setdefault(name, []).extend(found)
        reports = [
            _with_findings(r, across.get(e.name, ())) for e, r in zip(exports, reports, strict=True)
        ]
        accepted = [e for e, r in zip(exports, reports, strict=True) if not r.refused_under(strict)]
        if cache_file is not None:
            from mcp_harbor.check.commands import programs_of

            for export in accepted:  # what preflight asks next: keep it with the verdicts
                programs_of(export)
            cachefile.save()
        refused = [r for r in reports if r.refused_under(strict)]
        return CheckedExports(accepted, refused, reports, list(exports))

    def start(self, paths: Sequence[Path], *, cache_file: Path | None = None) -> None:
        """Begin a later `load_and_check` of the same `paths` now: load the
        export files while the caller does something else (the server imports
        its other modules). Never raises: whatever goes wrong is left for
        `load_and_check` to find and report.

        `load_and_check` then reuses these exports only when `paths` are the
        same, the same files are found there and every file still has the bytes
        that were loaded; otherwise it loads again. Either way each export is
        checked exactly as without `start`.
        """
        from mcp_harbor.check import cachefile

        self._started = None
        if cache_file is not None and cachefile.attached() != cache_file:
            cachefile.attach(cache_file)

        try:
            exports = load_exports(paths)
        except Exception:  # noqa: BLE001  (load_and_check reports it)
            return
        self._started = (tuple(paths), exports)

    def _started_exports(self, paths: Sequence[Path]) -> list[Export] | None:
        """The exports `start` loaded from `paths`, if the files are unchanged
        (taken once)."""
        started, self._started = self._started, None
        if started is None or started[0] != tuple(paths):
            return None
        exports = started[1]
        try:
            if discover_files(paths) != [export.path for export in exports]:
                return None
            for export in exports:
                if hashlib.sha256(export.path.read_bytes()).hexdigest() != export.file_hash:
                    return None
        except (OSError, ConfigError):
            return None
        return exports

    # -- what it remembers

    def cached_reports(self) -> dict[str, ExportReport]:
        """A copy of the cached reports, by `report_key`."""
        return dict(self._reports)

    def cached_count(self) -> int:
        """How many reports are cached."""
        return len(self._reports)

    def used_keys(self) -> frozenset[str]:
        """The report keys looked up since the checker was made or cleared."""
        return frozenset(self._used)

    def preload(self, reports: Mapping[str, ExportReport]) -> None:
        """Add reports kept from an earlier start (by `report_key`); reports of
        this process win."""
        for key, report in reports.items():
            self._reports.setdefault(key, report)

    def forget_reports(self) -> None:
        """Forget the cached reports alone (benchmarks: the other caches stay
        warm)."""
        self._reports.clear()

    def clear_cache(self) -> None:
        """Forget cached reports, used keys and started exports, and the
        process-wide caches of pure results: bash's reprints, tree-sitter's
        parses, `programs_of` results and the documents read from export
        files (benchmarks, tests)."""
        from mcp_harbor.check._reprint import clear_cache as clear_reprints
        from mcp_harbor.check._tree import clear_cache as clear_parses
        from mcp_harbor.check.commands import clear_cache as clear_programs
        from mcp_harbor.config.yaml_source import documents

        self._started = None
        self._reports.clear()
        self._used.clear()
        clear_programs()
        clear_reprints()
        clear_parses()
        documents.clear()


#: The checker of this process: the module-level functions are its methods,
#: and `mcp_harbor.check.cachefile` keeps its reports across starts.
default_checker = Checker()


def check_export(export: Export) -> ExportReport:
    """`Checker.check_export` on `default_checker`."""
    return default_checker.check_export(export)


def check_exports(exports: Sequence[Export], *, programs: bool = False) -> list[ExportReport]:
    """`Checker.check_exports` on `default_checker`."""
    return default_checker.check_exports(exports, programs=programs)


def load_and_check(
    paths: Sequence[Path], *, strict: bool = False, cache_file: Path | None = None
) -> CheckedExports:
    """`Checker.load_and_check` on `default_checker`: the gate. The server,
    ``tools`` and ``call`` register only its ``accepted`` exports.

    Raises:
        ConfigError: a file cannot be loaded (as `mcp_harbor.config.load_exports`).
    """
    return default_checker.load_and_check(paths, strict=strict, cache_file=cache_file)


def start(paths: Sequence[Path], *, cache_file: Path | None = None) -> None:
    """`Checker.start` on `default_checker`: load the export files for a later
    `load_and_check` of the same `paths`. Never raises."""
    default_checker.start(paths, cache_file=cache_file)


def clear_cache() -> None:
    """`Checker.clear_cache` on `default_checker`: forget cached reports,
    bash's reprints and tree-sitter's parses (benchmarks, tests)."""
    default_checker.clear_cache()
