"""Issue 17, `programs:`: program grammars declared in an export file and
server-wide with ``--programs FILE``. Every key is validated (errors name the
file and line and the fix); each loaded `Export` carries the grammars that
hold for it (the export's own entry wins) and a content hash that changes
with the server-wide ones it inherits; ``--programs`` reaches the exports
the checker gets, on every command that loads exports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pydantic
import pytest
from harbor_helpers import harbor_cli, write_export

from mcp_harbor.config import (
    ProgramGrammar,
    effective_programs,
    grammar_for,
    load_export,
    load_exports,
    load_programs_file,
    server_programs,
    set_server_programs,
)
from mcp_harbor.errors import ConfigError

HEAD = "name: x\ndescription: d\nsteps:\n  - name: s\n    run: deploy-tool --env prod\n"

DEPLOY = """
programs:
  deploy-tool:
    options_with_value: [--env, -e, --tag]
    flags: [--dry-run, -v]
    end_of_options: true
    runs_operands: false
    code_options: [--hook]
  ./scripts/deploy.sh:
    flags: [--verbose]
"""

SERVER_WIDE = """
programs:
  deploy-tool:
    flags: [--quiet]
  backup:
    options_with_value: [--to]
    runs_operands: false
"""


@pytest.fixture(autouse=True)
def no_server_programs() -> Iterator[None]:
    """Each test starts and ends without server-wide grammars."""
    previous = set_server_programs({})
    yield
    set_server_programs(previous)


def problem_of(path: Path, *, programs_file: bool = False) -> str:
    with pytest.raises(ConfigError) as info:
        load_programs_file(path) if programs_file else load_export(path)
    return str(info.value)


def test_an_exports_own_grammars(tmp_path: Path) -> None:
    export = load_export(write_export(tmp_path, "x.yaml", HEAD + DEPLOY))
    deploy = export.programs["deploy-tool"]
    assert isinstance(deploy, ProgramGrammar)
    assert deploy.options_with_value == ("--env", "-e", "--tag")
    assert deploy.flags == ("--dry-run", "-v")
    assert deploy.end_of_options is True and deploy.runs_operands is False
    assert deploy.runs_no_operands and deploy.code_options == ("--hook",)
    assert deploy.value_options == {"--env", "-e", "--tag", "--hook"}
    assert [deploy.kind_of(w) for w in ["--env", "--env=prod", "-eprod", "--dry-run"]] == [
        "value",
        "value",
        "value",
        "flag",
    ]
    assert [deploy.kind_of(w) for w in ["--hook=x", "--unknown", "-vx", "--dry-run=1"]] == [
        "code",
        None,
        None,
        None,
    ]
    script = export.programs["./scripts/deploy.sh"]
    assert script.flags == ("--verbose",) and script.runs_operands is None  # not stated
    assert script.end_of_options is True and script.options_with_value == ()
    assert export.spec.programs == export.programs
    with pytest.raises(pydantic.ValidationError):
        deploy.flags = ()  # frozen
    hash(deploy)  # frozen, of tuples: hashable
    assert grammar_for(export.programs, "deploy-tool") is deploy
    assert grammar_for(export.programs, "/opt/bin/deploy-tool") is deploy
    assert grammar_for(export.programs, "./scripts/deploy.sh") is script
    assert grammar_for(export.programs, "scripts/deploy.sh") is None
    assert grammar_for(export.programs, "deploy") is None


@pytest.mark.parametrize(
    ("tail", "needle"),
    [
        (
            "programs:\n  deploy-tool:\n    flgs: [--x]\n",
            "x.yaml:8: unknown key 'flgs' at programs.deploy-tool.flgs (did you mean 'flags'?)",
        ),
        (
            "programs:\n  deploy-tool:\n    options_with_value: [--env=prod]\n",
            "x.yaml:8: programs.deploy-tool.options_with_value[0]: '--env=prod' is not an option",
        ),
        (
            "programs:\n  deploy-tool:\n    flags:\n      - -v\n      - verbose\n",
            "x.yaml:10: programs.deploy-tool.flags[1]: 'verbose' is not an option",
        ),
        ("programs:\n  deploy-tool:\n    flags: [--]\n", "'--' is not an option"),
        (
            "programs:\n  deploy-tool:\n    flags: --dry-run\n",
            "x.yaml:8: programs.deploy-tool.flags: must be a list of options, e.g. [--env, -e]",
        ),
        (
            "programs:\n  deploy-tool:\n    flags: [-v]\n    options_with_value: [-v]\n",
            "x.yaml:7: programs.deploy-tool: -v cannot be both a flag and an option that takes "
            "a value",
        ),
        (
            "programs:\n  deploy-tool:\n    flags: [-v]\n    code_options: [-v]\n",
            "-v cannot be both a flag",
        ),
        (
            "programs:\n  deploy-tool:\n    flags: [-v, -v]\n",
            "programs.deploy-tool: flags lists -v more than once",
        ),
        (
            "programs:\n  deploy-tool: {}\n",
            "x.yaml:7: programs.deploy-tool: this grammar says nothing; declare options_with_value",
        ),
        (
            "programs:\n  deploy-tool:\n    runs_operands: 'no'\n",
            "x.yaml:8: programs.deploy-tool.runs_operands: Input should be a valid boolean",
        ),
        (
            "programs:\n  deploy-tool:\n    end_of_options: 1\n",
            "x.yaml:8: programs.deploy-tool.end_of_options: Input should be a valid boolean",
        ),
        (
            "programs:\n  'deploy tool':\n    flags: [-v]\n",
            "x.yaml:7: programs.deploy tool: 'deploy tool' is not a program name",
        ),
        ("programs:\n  -x:\n    flags: [-v]\n", "'-x' is not a program name"),
        ("programs: [deploy-tool]\n", "x.yaml:6: programs: Input should be a valid dictionary"),
        (
            "programs:\n  deploy-tool:\n    flags: [-o]\n    output_options: [-o]\n",
            "-o cannot be both a flag",
        ),
        (
            "programs:\n  deploy-tool:\n    output_options: --out\n",
            "must be a list of options",
        ),
    ],
)
def test_invalid_grammars_in_an_export(tmp_path: Path, tail: str, needle: str) -> None:
    problem = problem_of(write_export(tmp_path, "x.yaml", HEAD + tail))
    assert needle in problem, problem
    assert str(tmp_path / "x.yaml") in problem


def test_a_numbers_option_is_the_option_written(tmp_path: Path) -> None:
    """YAML reads ``-4`` as a number: in a list of options it is ``"-4"``."""
    text = HEAD + "programs:\n  ping6:\n    flags: [-4, -6, -q]\n    runs_operands: false\n"
    export = load_export(write_export(tmp_path, "x.yaml", text))
    assert export.programs["ping6"].flags == ("-4", "-6", "-q")


def test_the_programs_file(tmp_path: Path) -> None:
    path = write_export(tmp_path, "programs.yaml", SERVER_WIDE)
    loaded = load_programs_file(path)
    assert sorted(loaded) == ["backup", "deploy-tool"]
    assert loaded["backup"].options_with_value == ("--to",) and loaded["backup"].runs_no_operands
    assert loaded["deploy-tool"].flags == ("--quiet",)
    empty = write_export(tmp_path, "empty.yaml", "programs: {}\n")
    assert load_programs_file(empty) == {}


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("backup:\n  flags: [-v]\n", "p.yaml:1: unknown key 'backup' at backup"),
        ("program:\n  backup: {flags: [-v]}\n", "(did you mean 'programs'?)"),
        ("{}\n", "p.yaml:1: missing required key 'programs'; add it"),
        ("- backup\n", "p.yaml:1: a programs file must be a mapping: programs:"),
        ("programs: {}\n---\nprograms: {}\n", "found 2; keep one programs: mapping"),
        (
            "programs:\n  backup:\n    flags: [-v]\n    runs_operand: false\n",
            "p.yaml:4: unknown key 'runs_operand' at programs.backup.runs_operand "
            "(did you mean 'runs_operands'?)",
        ),
        (
            "programs:\n  backup:\n    options_with_value: [-t]\n  backup:\n    flags: [-v]\n",
            "p.yaml:4: duplicate key 'backup' (first at line 2)",
        ),
        ("programs:\n  backup:\n    flags: [-v\n", "invalid YAML"),
    ],
)
def test_invalid_programs_files(tmp_path: Path, text: str, needle: str) -> None:
    problem = problem_of(write_export(tmp_path, "p.yaml", text), programs_file=True)
    assert needle in problem, problem


def test_a_missing_programs_file(tmp_path: Path) -> None:
    assert "cannot read the file" in problem_of(tmp_path / "nope.yaml", programs_file=True)


def test_server_wide_grammars_and_the_exports_own(tmp_path: Path) -> None:
    server_wide = load_programs_file(write_export(tmp_path, "programs.yaml", SERVER_WIDE))
    own = write_export(tmp_path / "exports", "own.yaml", HEAD + DEPLOY)
    plain = write_export(tmp_path / "exports", "plain.yaml", HEAD.replace("name: x", "name: y"))

    alone = {e.name: e for e in load_exports([tmp_path / "exports"])}
    assert alone["y"].programs == {}
    assert alone["y"].content_hash == alone["y"].file_hash  # the file's SHA-256, as before

    merged = {e.name: e for e in load_exports([tmp_path / "exports"], programs=server_wide)}
    # the export's own deploy-tool wins; backup comes from the server-wide file
    assert merged["x"].programs["deploy-tool"] == alone["x"].programs["deploy-tool"]
    assert merged["x"].programs["backup"] == server_wide["backup"]
    assert sorted(merged["x"].programs) == ["./scripts/deploy.sh", "backup", "deploy-tool"]
    assert merged["y"].programs == server_wide
    assert merged["x"].programs == effective_programs(merged["x"].spec.programs, server_wide)
    # what the checker's verdicts are keyed by changes with what is inherited ...
    for name in ("x", "y"):
        assert merged[name].file_hash == alone[name].file_hash
        assert merged[name].content_hash != alone[name].content_hash
    # ... and only with that: an overridden server-wide entry does not matter
    only_deploy = {"deploy-tool": server_wide["deploy-tool"]}
    assert load_export(own, programs=only_deploy).content_hash == alone["x"].content_hash
    assert load_export(plain, programs=only_deploy).content_hash not in (
        alone["y"].content_hash,
        merged["y"].content_hash,
    )
    # an equal grammar gives an equal hash; with_programs works it out again
    assert load_export(plain, programs=dict(server_wide)).content_hash == merged["y"].content_hash
    again = alone["y"].with_programs(server_wide)
    assert again.programs == server_wide and again.content_hash == merged["y"].content_hash
    assert again.with_programs({}).content_hash == alone["y"].content_hash

    # the process-wide setting (what --programs sets) is every load's default
    set_server_programs(server_wide)
    assert server_programs() == server_wide
    assert load_export(plain).programs == server_wide
    assert load_export(plain, programs={}).programs == {}  # an explicit argument wins


def test_use_programs_file_reaches_the_checked_exports(tmp_path: Path, fresh_checker: None) -> None:
    """What the commands do: `use_programs_file`, then the checker's own
    `load_and_check`, which loads the exports itself."""
    from mcp_harbor.check import load_and_check
    from mcp_harbor.cli._app import use_programs_file

    exports = tmp_path / "exports"
    write_export(exports, "plain.yaml", HEAD.replace("deploy-tool --env prod", "echo hi"))
    before = load_and_check([exports]).accepted[0]
    use_programs_file(write_export(tmp_path, "programs.yaml", SERVER_WIDE))
    (checked,) = load_and_check([exports]).accepted
    assert checked.programs == load_programs_file(tmp_path / "programs.yaml")
    assert checked.content_hash != before.content_hash == checked.file_hash


def test_use_programs_reads_a_file_once_until_it_changes(tmp_path: Path) -> None:
    """`serve` asks for the grammars twice (before loading, and in
    `Harbor.open`): the same unchanged file is read once; a changed file, or
    grammars someone replaced since, are read again."""
    from mcp_harbor.harbor import use_programs

    previous = server_programs()
    try:
        path = write_export(tmp_path, "programs.yaml", SERVER_WIDE)
        use_programs(path)
        first = server_programs()
        assert first == load_programs_file(path)
        use_programs(path)
        assert server_programs() is first  # not read again
        path.write_text(path.read_text() + "\n# changed\n")
        use_programs(path)
        assert server_programs() is not first and server_programs() == first
        set_server_programs({})
        use_programs(path)
        assert server_programs() == first  # replaced since: read again
    finally:
        set_server_programs(previous)


# --- the CLI: --programs FILE --------------------------------------------------------

PING = """
name: ping
description: Say pong.
steps:
  - name: pong
    run: echo pong
"""


@pytest.fixture
def cli_setup(tmp_path: Path) -> tuple[Path, Path]:
    exports = tmp_path / "exports"
    write_export(exports, "ping.yaml", PING)
    return exports, write_export(tmp_path, "programs.yaml", SERVER_WIDE)


def test_every_command_takes_programs(tmp_path: Path, cli_setup: tuple[Path, Path]) -> None:
    exports, programs = cli_setup
    state = tmp_path / "state"
    proc = harbor_cli("check", str(exports), "--programs", str(programs), state=state)
    assert "accepted" in proc.stdout, proc.stdout
    proc = harbor_cli(
        "tools", "--json", "--exports", str(exports), "--programs", str(programs), state=state
    )
    assert [t["name"] for t in json.loads(proc.stdout)["tools"]] == ["ping"]
    # `call` passes the file on to the `serve` it starts
    proc = harbor_cli(
        "call", "ping", "--exports", str(exports), "--programs", str(programs), state=state
    )
    assert proc.stdout.startswith("ping: ok"), proc.stdout
    db = str(tmp_path / "h.db")
    proc = harbor_cli(
        "run", "ping", "--exports", str(exports), "--programs", str(programs), "--db", db,
        state=state,
    )  # fmt: skip
    assert proc.stdout.startswith("ping: ok"), proc.stdout
    # the environment variable does the same
    proc = harbor_cli(
        "tools", "--exports", str(exports), state=state, MCP_HARBOR_PROGRAMS=str(programs)
    )
    assert "ping" in proc.stdout


@pytest.mark.parametrize("command", ["check", "tools", "serve", "call", "run"])
def test_a_bad_programs_file_stops_the_command(
    tmp_path: Path, cli_setup: tuple[Path, Path], command: str
) -> None:
    exports, _ = cli_setup
    bad = write_export(tmp_path, "bad.yaml", "programs:\n  backup:\n    flgs: [-v]\n")
    where = [str(exports)] if command == "check" else ["--exports", str(exports)]
    tool = ["ping"] if command in ("call", "run") else []
    proc = harbor_cli(
        command, *tool, *where, "--programs", str(bad), state=tmp_path / "state", check=False
    )
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "invalid programs file" in proc.stderr
    assert f"{bad}:3: unknown key 'flgs' at programs.backup.flgs (did you mean 'flags'?)" in (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr
