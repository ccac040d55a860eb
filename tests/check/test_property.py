"""Hypothesis: for accepted templates, an arbitrary string arrives at the
program as exactly the intended argument (a probe prints its argv as JSON)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.check import check_export
from mcp_harbor.config import Export, load_export
from mcp_harbor.errors import ArgumentError
from tests.check import _sandbox
from tests.check._harness import Case, write

# (template, expected argv as a function of the value)
PROBES: list[tuple[Case, str]] = [
    (Case("p-sq", False, run="probe {{ args.x | shellquote }}"), "{v}"),
    (Case("p-env", False, run='probe "$ARG_x"'), "{v}"),
    (Case("p-equals", False, run="probe --name={{ args.x | shellquote }}"), "--name={v}"),
    (Case("p-affix", False, run="probe x{{ args.x | shellquote }}y"), "x{v}y"),
    (Case("p-sh-c", False, run="sh -c 'probe \"$1\"' _ {{ args.x | shellquote }}"), "{v}"),
    (Case("p-var", False, run='v="$ARG_x"\nprobe "$v"'), "{v}"),
    (Case("p-bash-at", False, run="bash -c 'probe \"$@\"' bash {{ args.x | shellquote }}"), "{v}"),
    (Case("p-argv", False, argv=["probe", "{{ args.x }}"]), "{v}"),
    (Case("p-multiline", False, run="probe {{ args.x | shellquote }}", args={"x": "M"}), "{v}"),
]
#: probe is an in-house program here: described, as a grammar needs it
_PROBE = {"probe": {"runs_operands": False, "options_with_value": ["--name"]}}
PROBES = [(replace(case, programs=_PROBE), expected) for case, expected in PROBES]

_single_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\n\r"),
    max_size=40,
)
_multi_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=40,
)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("probe")
    return root, _sandbox.build(root)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> list[Export]:
    folder = tmp_path_factory.mktemp("probe-exports")
    out = [load_export(write(case, folder, i)) for i, (case, _) in enumerate(PROBES)]
    for export in out:
        report = check_export(export)
        assert report.status == "accepted", report.findings
    return out


def _argv(export: Export, value: str, sandbox: tuple[Path, dict[str, str]]) -> list[str]:
    root, base = sandbox
    values = ArgumentValidator(export).validate({"x": value})
    out = root / "argv.jsonl"
    out.unlink(missing_ok=True)
    work = root / "work"
    work.mkdir(exist_ok=True)
    for step in export.steps:
        _sandbox.run_step(step, values, base, work, {"PROBE_OUT": str(out)})
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    argv: list[str] = json.loads(lines[0])
    return argv


@pytest.mark.parametrize("index", range(len(PROBES)), ids=[c.id for c, _ in PROBES])
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_value_arrives_as_one_exact_argument(
    index: int,
    data: st.DataObject,
    exports: list[Export],
    sandbox: tuple[Path, dict[str, str]],
) -> None:
    case, expected = PROBES[index]
    value = data.draw(_multi_line if case.args.get("x") == "M" else _single_line)
    if value.startswith("-"):  # no leading_dash: true, so the call is refused before it runs
        with pytest.raises(ArgumentError, match="rule: no-leading-dash"):
            ArgumentValidator(exports[index]).validate({"x": value})
        return
    argv = _argv(exports[index], value, sandbox)
    assert argv == [expected.format(v=value)]
