"""The sink tables are data: check their shape and the facts they encode."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor.check import check_export, sinks
from mcp_harbor.check._values import model_for
from tests.check._harness import Case, load


def test_tables_are_disjoint_and_well_formed() -> None:
    assert not set(sinks.WRAPPERS) & sinks.SHELLS
    assert not set(sinks.INTERPRETERS) & sinks.SHELLS
    assert not set(sinks.WRAPPERS) & set(sinks.INTERPRETERS)
    for name, spec in sinks.INTERPRETERS.items():
        options = spec.code_options | spec.module_options | spec.value_options | spec.known_flags
        assert all(o.startswith("-") or name == "deno" for o in options), name
        assert not spec.code_options & spec.value_options, name
    for name, wrapper in sinks.WRAPPERS.items():
        assert not wrapper.code_options & wrapper.value_options, name


@pytest.mark.parametrize(
    "name",
    ["PATH", "LD_PRELOAD", "GIT_SSH_COMMAND", "BASH_ENV", "PS4", "PYTHONPATH", "NODE_OPTIONS"],
)
def test_code_variables(name: str) -> None:
    assert sinks.is_code_variable(name)


@pytest.mark.parametrize("name", ["NAME", "GREETING", "ARG_x", "LANG", "COUNT"])
def test_plain_variables(name: str) -> None:
    assert not sinks.is_code_variable(name)


@pytest.mark.parametrize(
    "wrapper", sorted(set(sinks.WRAPPERS) - {"ssh", "su", "watch", "parallel", "tmux", "screen"})
)
def test_every_wrapper_makes_its_command_operand_a_command(wrapper: str, tmp_path: Path) -> None:
    spec = sinks.WRAPPERS[wrapper]
    fillers = " ".join(["5"] * spec.positionals)
    report = check_export(load(Case(wrapper, True, run=f'{wrapper} {fillers} "$ARG_x"'), tmp_path))
    assert report.status == "refused", report.findings


@pytest.mark.parametrize("interpreter", sorted(sinks.INTERPRETERS))
def test_every_interpreter_code_option_refuses_caller_code(
    interpreter: str, tmp_path: Path
) -> None:
    spec = sinks.INTERPRETERS[interpreter]
    option = sorted(spec.code_options)[0] if spec.code_options else None
    run = f'{interpreter} {option} "$ARG_x"' if option else f'{interpreter} "$ARG_x"'
    report = check_export(load(Case(interpreter, True, run=run), tmp_path))
    assert report.status == "refused", (run, report.findings)


@pytest.mark.parametrize("interpreter", ["python3", "perl", "node", "awk", "sed", "jq"])
def test_unknown_interpreter_option_defaults_to_refusal(interpreter: str, tmp_path: Path) -> None:
    run = f"{interpreter} --frobnicate {{{{ args.x | shellquote }}}}"
    report = check_export(load(Case(interpreter, True, run=run), tmp_path))
    assert report.status == "refused"
    assert any("does not know" in f.message for f in report.findings), report.findings


@pytest.mark.parametrize("shell", sorted(sinks.SHELLS - {"busybox", "fish"}))
def test_every_shell_c_script_is_code(shell: str, tmp_path: Path) -> None:
    report = check_export(load(Case(shell, True, run=f'{shell} -c "echo $ARG_x"'), tmp_path))
    assert report.status == "refused"
    safe = check_export(
        load(Case(shell, False, run=f'{shell} -c \'echo "$1"\' _ "$ARG_x"'), tmp_path, 1)
    )
    assert safe.status == "accepted"


@pytest.mark.parametrize(
    ("schema", "inert", "dash"),
    [
        ({"type": "integer"}, True, True),
        ({"type": "string", "pattern": "^[a-z]+$"}, True, False),
        ({"type": "string", "pattern": "[a-z]+"}, True, False),  # the runtime full-matches
        ({"type": "string", "pattern": "^[a-z]+|.*$"}, False, False),  # leading_dash unset
        ({"type": "string", "pattern": "^[a-z]+|.*$", "leading_dash": True}, False, True),
        ({"type": "integer", "minimum": 0}, True, False),
        ({"type": "number", "exclusiveMinimum": 0}, True, False),
        ({"type": "string", "pattern": "^(?i:[a-f0-9]{8})$"}, True, False),
        ({"type": "string", "enum": ["a", "b c"]}, False, False),
        ({"type": "string"}, False, False),
        ({"type": "string", "leading_dash": True}, False, True),
        # the arg's own leading_dash governs every branch of it, as in the validator
        ({"anyOf": [{"type": "string"}], "leading_dash": True}, False, True),
        ({"anyOf": [{"type": "string", "leading_dash": True}]}, False, False),
        ({"type": "string", "pattern": "^[^-].*$"}, False, False),
        ({"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[a-z]+$"}]}, True, True),
        ({"type": ["string", "null"], "pattern": "^[0-9]+$"}, True, False),
    ],
)
def test_value_models(schema: dict[str, object], inert: bool, dash: bool) -> None:
    model = model_for(schema)
    assert model.inert is inert
    assert model.may_start_with_dash is dash
    assert "\x00" not in model.chars
    assert "\n" not in model.chars


def test_multiline_allows_newlines() -> None:
    assert "\n" in model_for({"type": "string", "multiline": True}).chars
