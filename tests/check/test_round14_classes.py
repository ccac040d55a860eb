"""The classes round fourteen (tests/check/blind34r14) showed, each with
the safe form accepted and the dangerous neighbour refused:

- what writes the working folder: a compressor writes beside its operand,
  awk's ``> "/dev/stderr"`` writes no file, ``--output="$out"`` and
  ``--file="$out"`` name the run directory through their variable, and a
  here-document's ``> "$HARBOR_OUTPUT"`` is a file written, not input;
- a loop over the author's files (``for f in scripts/*.sh``) runs them;
- ``find … -print0`` records read whole start with find's starting point;
- a database client's server (``psql -p``, ``PGPORT``) is where its
  password goes;
- an in-house program of ``programs:`` that says what it writes
  (``output_options``) is run from the working folder in a later step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.check._harness import check_steps


def _check(
    steps: list[str], tmp_path: Path, *, args: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, list[str]]:
    return check_steps(steps, tmp_path, args=args, **extra)


_MONTH = {"month": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"}}
_NAME = {"name": {"type": "string"}}
_PYTHON = 'python3 -c \'import json; print(json.load(open("package.json"))["name"])\''


@pytest.mark.parametrize(
    ("writer", "refused"),
    [
        (
            'out="$HARBOR_RUN_DIR/orders-$ARG_month.csv"\necho "$ARG_month" > "$out"\n'
            'gzip -9 -- "$out"',
            False,
        ),
        ('gzip -dc -- "$STEP_s0_file" | wc -l', False),
        # -S names another suffix: not shown beside it
        (
            'out="$HARBOR_RUN_DIR/o-$ARG_month"\necho "$ARG_month" > "$out"\n'
            'gzip -S /../x -- "$out"',
            True,
        ),
        ('echo "$ARG_month" > "data-$ARG_month.csv"\ngzip -- "data-$ARG_month.csv"', True),
        ('awk -v m="$ARG_month" \'BEGIN { print "bad: " m > "/dev/stderr" }\'', False),
        ('awk -v m="$ARG_month" \'BEGIN { print "bad: " m > "report.txt" }\'', True),
        (
            'out="$HARBOR_RUN_DIR/a-$ARG_month.tar.gz"\n'
            'git archive --format=tar.gz --prefix="a-$ARG_month/" --output="$out" HEAD',
            False,
        ),
        ('git archive --format=tar.gz --prefix="a-$ARG_month/" --output="a.tar.gz" HEAD', True),
    ],
)
def test_what_writes_the_working_folder_where_python_reads_modules(
    writer: str, refused: bool, tmp_path: Path
) -> None:
    """python3 -c imports from the folder it works in: a step that may put
    caller data there makes it refused, one shown to write elsewhere not."""
    status, findings = _check([_PYTHON, writer], tmp_path, args=_MONTH)
    assert (status == "refused") == refused, findings


def test_a_heredoc_program_writing_its_output_file_is_accepted(tmp_path: Path) -> None:
    status, findings = _check(
        ["python3 - <<'PY' > \"$HARBOR_OUTPUT\"\nprint('{}')\nPY\n"], tmp_path
    )
    assert status == "accepted", findings


def test_a_heredoc_with_a_file_on_stdin_runs_the_file(tmp_path: Path) -> None:
    """``<<'PY' < "$f"``: the last redirection is the program."""
    status, findings = _check(
        ["python3 - <<'PY' < \"$ARG_name\"\nprint(1)\nPY\n"], tmp_path, args=_NAME
    )
    assert status == "refused", findings
    assert any(f.startswith("H005") for f in findings), findings


@pytest.mark.parametrize(
    ("steps", "refused"),
    [
        (['for f in scripts/*.sh; do bash -n -- "$f"; done'], False),
        (['for f in scripts/*.sh; do bash -- "$f"; done'], False),
        # a step may write the folder the glob lists
        (['for f in scripts/*.sh; do bash -- "$f"; done', 'echo "$ARG_name" > scripts/x.sh'], True),
        (['for f in "$HARBOR_RUN_DIR"/*.sh; do bash -- "$f"; done'], True),
        # the loop itself fills the file it then runs
        (['for f in scripts/*.sh; do echo "$ARG_name" > "$f"; bash -- "$f"; done'], True),
        (['for f in scripts/*.sh; do bash -- "$f"; done\nf=$(cat "$HARBOR_RUN_DIR/n")'], True),
    ],
)
def test_a_loop_over_the_authors_files_runs_them(
    steps: list[str], refused: bool, tmp_path: Path
) -> None:
    status, findings = _check(steps, tmp_path, args=_NAME)
    assert (status == "refused") == refused, findings


_DIR = {"dir": {"type": "string", "within": "."}}


@pytest.mark.parametrize(
    ("loop", "refused"),
    [
        ("while IFS= read -r -d '' f; do jq empty \"$f\"; done < <(find . -type f -print0)", False),
        (
            "find . -name .git -prune -o -type f -print0 | while IFS= read -r -d '' f; do "
            'jq empty "$f"; done',
            False,
        ),
        # by lines: a name with a line break makes a record of its own
        ('while IFS= read -r f; do jq empty "$f"; done < <(find . -type f -print)', True),
        ("while IFS= read -r -d '' f; do jq empty \"$f\"; done < <(find . -printf '%f\\0')", True),
        ('while IFS= read -r -d \'\' f; do jq empty "$f"; done < <(find "$ARG_dir" -print0)', True),
        # two names: the record is split
        ("while IFS= read -r -d '' f g; do jq empty \"$f\"; done < <(find . -print0)", True),
    ],
)
def test_find_records_start_with_its_starting_point(
    loop: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _check([f'cd -- "$ARG_dir"\n{loop}'], tmp_path, args=_DIR)
    assert (status == "refused") == refused, findings
    if refused:
        assert any(f.startswith("H009") for f in findings), findings


_PORT = {"port": {"type": "integer", "minimum": 1, "maximum": 65535, "default": 5432}}
_SECRET = {"secrets": {"DB_PASSWORD": {"env": "CI_DB_PASSWORD"}}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 -p 5432 -U r -c "select 1" postgres', False),
        (
            'PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 -p "$ARG_port" -U r -c "select 1" '
            "postgres",
            True,
        ),
        (
            'PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 --port="$ARG_port" -U r -c "select 1" '
            "postgres",
            True,
        ),
        (
            'PGPASSWORD="$DB_PASSWORD" PGPORT="$ARG_port" psql -h 127.0.0.1 -U r -c "select 1" '
            "postgres",
            True,
        ),
        ('MYSQL_PWD="$DB_PASSWORD" mysql -h 127.0.0.1 -P "$ARG_port" -e "select 1"', True),
    ],
)
def test_a_database_clients_server_is_where_its_password_goes(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _check([run], tmp_path, args=_PORT, **_SECRET)
    assert (status == "refused") == refused, findings
    if refused:
        assert any(f.startswith("H010") and "caller chooses" in f for f in findings), findings


_TOOL = {
    "./tools/flagctl": {
        "options_with_value": ["--flag", "--output"],
        "runs_operands": False,
        "stdin": "data",
    }
}
_TWICE = [
    './tools/flagctl --flag "$ARG_name" --dry-run-free',
    './tools/flagctl --flag "$ARG_name"',
]


@pytest.mark.parametrize(
    ("output_options", "second", "refused"),
    [
        (None, _TWICE[1], True),  # not stated: it may write itself over
        ([], _TWICE[1], False),
        (["--output"], _TWICE[1], False),
        (["--output"], '_o="$HARBOR_RUN_DIR/o.json"\n' + _TWICE[1] + ' --output="$_o"', False),
        (["--output"], _TWICE[1] + ' --output "$ARG_name.json"', True),
        (["--output"], _TWICE[1] + " --output tools/flagctl", True),
    ],
)
def test_a_described_program_says_what_it_writes(
    output_options: list[str] | None, second: str, refused: bool, tmp_path: Path
) -> None:
    tool = {name: dict(entry) for name, entry in _TOOL.items()}
    tool["./tools/flagctl"]["flags"] = ["--dry-run-free"]
    if output_options is not None:
        tool["./tools/flagctl"]["output_options"] = output_options
    status, findings = _check([_TWICE[0], second], tmp_path, args=_NAME, programs=tool)
    assert (status == "refused") == refused, findings
    if refused:
        assert any(f.startswith("H004") for f in findings), findings


_VERSION = "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])"


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        (_VERSION, False),
        ("import json; print(json.load(open('package.json'))['version'])", False),
        # what else it reads: standard input, the environment, a name not literal
        ("import sys; print(sys.stdin.read().strip())", True),
        ("import os; print(os.environ.get('V', '0'))", True),
        ("import json, sys; print(json.load(open(sys.argv[1]))['v'])", True),
        # a file a step may write
        ("print(open('/tmp/version').read())", True),
    ],
)
def test_what_a_python_program_prints_of_the_authors_files(
    program: str, refused: bool, tmp_path: Path
) -> None:
    """The version python3 printed names an archive in the run directory:
    the author's text, or the caller's (which may hold ``/..``)."""
    steps = [
        f'v=$(python3 -c "{program}")\necho "version=$v" >> "$HARBOR_STEP_OUTPUT"',
        'out="$HARBOR_RUN_DIR/demo-$STEP_s0_version.tar.gz"\n'
        'git archive --format=tar.gz --output="$out" HEAD',
    ]
    status, findings = _check(steps, tmp_path)
    assert (status == "refused") == refused, findings
