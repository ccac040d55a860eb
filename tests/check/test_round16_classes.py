"""The classes round sixteen (tests/check/blind34r16) showed, each with the
safe form accepted and the dangerous neighbour refused:

- a destination built in a variable first (``url="http://127.0.0.1:$ARG_port/m"``
  … ``curl "$url"``) is read where it is written; an operand of curl or
  wget with no scheme written is the caller's unless the author's text
  before the caller's ends with ``/``; an enum's values are the author's
  hosts;
- a database client's connection string (``-d``, its operand) is where its
  password goes, also for a program the secret's ``programs:`` names;
- a secret's own file (``{file: ../.secrets/t}``) is followed where a
  script names it (``.secrets/t``);
- sqlite3 runs a database's views and triggers (and the shell's
  ``edit()``): a database a step may have written is code, unless
  ``-safe``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from tests.check._harness import check_steps


def _check(
    steps: list[str], tmp_path: Path, *, args: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, list[str]]:
    return check_steps(steps, tmp_path, args=args, **extra)


_ARGS = {
    "port": {"type": "integer", "minimum": 1, "maximum": 65535},
    "id": {"type": "string", "pattern": "^[a-z0-9]+$"},
    "env": {"type": "string", "enum": ["staging", "production"]},
}
_TOKEN = {"secrets": {"API_TOKEN": {"env": "CI_API_TOKEN"}}, "pass_env": ["API_URL"]}
_AUTH = '-H "Authorization: Bearer $API_TOKEN"'


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (f'url="http://127.0.0.1:$ARG_port/metrics"\ncurl -fsS {_AUTH} "$url"', True),
        (f'base="http://127.0.0.1:$ARG_port"\ncurl -fsS {_AUTH} "$base/health"', True),
        (
            'base="http://127.0.0.1:$ARG_port"\nwget -q --header "Authorization: Bearer '
            '$API_TOKEN" "$base/health"',
            True,
        ),
        (f'curl -fsS {_AUTH} "$API_URL$ARG_id"', True),
        (f'base="https://api.example.com"\ncurl -fsS {_AUTH} "$base/v1/items/$ARG_id"', False),
        (f'curl -fsS {_AUTH} "$API_URL/v1/items/$ARG_id"', False),
        (f'url="$API_URL/items/$ARG_id"\ncurl -fsS {_AUTH} "$url"', False),
        (f'curl -fsS {_AUTH} "https://api.$ARG_env.example.com/v1/x"', False),
        (f'base="https://api.$ARG_env.example.com"\ncurl -fsS {_AUTH} "$base/v1/x"', False),
    ],
)
def test_a_destination_built_in_a_variable(run: str, refused: bool, tmp_path: Path) -> None:
    _status, findings = _check([run], tmp_path, args=_ARGS, **_TOKEN)
    sent = [f for f in findings if f.startswith("H010") and "caller chooses" in f]
    # H012 when the grammar refuses the caller's URL whatever the secret
    chosen = [f for f in findings if f.startswith("H012") and "caller chooses" in f]
    assert bool(sent or chosen) if refused else not sent, findings


_DB = {"database": {"type": "string", "minLength": 1, "maxLength": 200}}
_PG = {"secrets": {"DB_PASSWORD": {"env": "CI_DB_PASSWORD", "programs": ["pg_dump"]}}}
_PG_DUMP = {
    "pg_dump": {
        "options_with_value": ["-h", "-U", "-d", "-f"],
        "flags": ["--schema-only"],
        "runs_operands": False,
        "output_options": ["-f"],
    }
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'PGPASSWORD="$DB_PASSWORD" pg_dump --schema-only -h db.internal -U r -d reports '
            '-f "$HARBOR_RUN_DIR/s.sql"',
            False,
        ),
        (
            'PGPASSWORD="$DB_PASSWORD" pg_dump --schema-only -h db.internal -U r '
            '-d "$ARG_database" -f "$HARBOR_RUN_DIR/s.sql"',
            True,
        ),
        (
            'PGPASSWORD="$DB_PASSWORD" pg_dump --schema-only -h db.internal -U r '
            '-f "$HARBOR_RUN_DIR/s.sql" -- "$ARG_database"',
            True,
        ),
    ],
)
def test_a_connection_string_is_where_the_password_goes(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _check([run], tmp_path, args=_DB, programs=_PG_DUMP, **_PG)
    assert (status == "refused") == refused, findings


def test_a_secrets_own_file_is_followed_where_a_script_names_it(tmp_path: Path) -> None:
    secrets = {"secrets": {"API_TOKEN": {"file": "../.secrets/api_token"}}}
    status, findings = _check(
        ["cmp -l -- .secrets/api_token ./.secrets/api_token.bak | head -n 64"],
        tmp_path,
        **secrets,
    )
    assert status == "refused", findings
    assert any(f.startswith("H010") for f in findings), findings
    status, findings = _check(["sha256sum -- .secrets/api_token"], tmp_path, **secrets)
    assert status == "accepted", findings


_BACKUP = "sqlite3 -readonly data/app.db \".backup '$HARBOR_RUN_DIR/copy.db'\""


@pytest.mark.parametrize(
    ("steps", "refused"),
    [
        (['sqlite3 -readonly -csv data/app.db "select count(*) from orders"'], False),
        (
            [
                'cp -- "$ARG_db" "$HARBOR_RUN_DIR/shop.db"',
                'sqlite3 -readonly -csv "$HARBOR_RUN_DIR/shop.db" "select id from orders"',
            ],
            True,
        ),
        # a copy an author's command made there: its views run, unless -safe
        ([_BACKUP, 'sqlite3 -readonly -csv "$HARBOR_RUN_DIR/copy.db" "select 1"'], True),
        ([_BACKUP, 'sqlite3 -safe -readonly -csv "$HARBOR_RUN_DIR/copy.db" "select 1"'], False),
    ],
)
def test_a_database_a_step_may_have_written_is_code(
    steps: list[str], refused: bool, tmp_path: Path
) -> None:
    db = {"db": {"type": "string", "contentEncoding": "base64", "max_bytes": 100000}}
    status, findings = _check(steps, tmp_path, args=db)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a name set twice holds either value: the second is no enum's word
        ('x="$ARG_e"\nx="$ARG_s"\neval "echo $x"', True),
        ('x="$ARG_e"\nx="$ARG_e-b"\neval "echo $x"', False),
        # built in two steps from the author's text and numbers: inert in SQL
        (
            'w="created_at >= now() - interval {{ args.n }} day"\n'
            "w=\"$w and status = '$ARG_e'\"\n"
            'psql -X -At -c "select count(*) from orders where $w"',
            False,
        ),
    ],
)
def test_a_name_set_in_two_places_holds_either_value(
    run: str, refused: bool, tmp_path: Path
) -> None:
    args = {
        "e": {"type": "string", "enum": ["a", "b"]},
        "s": {"type": "string"},
        "n": {"type": "integer", "minimum": 1, "maximum": 90, "default": 7},
    }
    status, findings = _check([run], tmp_path, args=args)
    assert (status == "refused") == refused, findings


def test_an_argv_step_given_only_numbers_writes_no_file_of_the_callers(tmp_path: Path) -> None:
    """vmstat 1 N: a number names nothing, so the working folder stays the
    author's for the programs without a grammar run there."""
    document = {
        "name": "t",
        "description": "argv numbers",
        "args": {"n": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3}},
        "steps": [
            {"name": "a", "argv": ["uptime"]},
            {"name": "b", "argv": ["vmstat", "1", "{{ args.n }}"]},
        ],
    }
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    report = check_export(load_export(path))
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize(
    ("opts", "refused"),
    [
        # the author's words, an enum's, a number of a few values: no file
        # of the caller's, so go may run in the working folder
        (
            'opts=(-count=1 "-timeout={{ args.minutes }}m")\n'
            "[[ $ARG_mode == short ]] && opts+=(-short)",
            False,
        ),
        # a path in the run directory, to a program without a grammar: no
        # step puts caller data there (an enum and a number name nothing),
        # so what go reads there is the author's commands' own
        (
            'opts=(-count=1 "-timeout={{ args.minutes }}m" "-coverprofile=$HARBOR_RUN_DIR/c.out")\n'
            "[[ $ARG_mode == short ]] && opts+=(-short)",
            False,
        ),
        # ... but with a free string among them, go may write what it names
        (
            'opts=(-count=1 "-run=$ARG_free" "-coverprofile=$HARBOR_RUN_DIR/c.out")',
            True,
        ),
        ('opts=(-count=1 "-run=$ARG_mode")', False),
        # a free string among them: go may write what it names
        ('opts=(-count=1 "-run=$ARG_free")', True),
    ],
)
def test_an_array_of_the_authors_words(opts: str, refused: bool, tmp_path: Path) -> None:
    args = {
        "mode": {"type": "string", "enum": ["short", "full"]},
        "minutes": {"type": "integer", "minimum": 1, "maximum": 60, "default": 10},
        "free": {"type": "string", "pattern": "^[A-Za-z]+$", "default": "x"},
    }
    steps = [f'{opts}\ngo test "${{opts[@]}}" ./...', "go vet ./..."]
    status, findings = _check(steps, tmp_path, args=args)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # shopt -s nullglob turns on no alias: jq --arg NAME is a name jq reads
        (
            "shopt -s nullglob\ndumps=(backups/*.gz)\ncount=${#dumps[@]}\n"
            "jq -n --argjson count \"$count\" '{count: $count}'\n(( count > 0 )) && echo some",
            False,
        ),
        # stat's sizes and times are numbers
        ('t=$(stat --format=%Y -- "$ARG_f")\n(( t > 0 )) && echo set', False),
        ('t=$(stat --format=%n -- "$ARG_f")\n(( t > 0 )) && echo set', True),
        ('t=$(stat --format=%Y "$ARG_f")\n(( t > 0 )) && echo set', True),
    ],
)
def test_numbers_of_the_files(run: str, refused: bool, tmp_path: Path) -> None:
    args = {"f": {"type": "string", "within": "."}}
    status, findings = _check([run], tmp_path, args=args)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "last=$(git tag --list 'v*' --sort=-v:refname | head -n 1)\n"
            'git log --oneline "$last..HEAD"',
            False,
        ),
        (
            "last=$(git branch --list 'release/*' --sort=-committerdate | head -n 1)\n"
            'git log --oneline "$last..HEAD"',
            False,
        ),
        # a tag the caller names: git tag creates it, and may print anything
        ('last=$(git tag "$ARG_f" | head -n 1)\ngit log --oneline "$last..HEAD"', True),
        # what the script reads on its standard input is no stage of the author's
        ('last=$(head -n 1)\ngit log --oneline "$last..HEAD"', True),
    ],
)
def test_what_git_lists_of_the_repository(run: str, refused: bool, tmp_path: Path) -> None:
    args = {"f": {"type": "string", "pattern": "^[a-z0-9.]+$"}}
    status, findings = _check([run], tmp_path, args=args)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("out", "refused"),
    [
        # a folder of the server's, then the author's text and enum words
        ('out="$HARBOR_RUN_DIR/ledger-$ARG_os"', False),
        ('out="${HARBOR_RUN_DIR}/ledger-$ARG_os-x"', False),
        # a free string there may name another folder
        ('out="$HARBOR_RUN_DIR/ledger-$ARG_free"', True),
    ],
)
def test_a_run_directory_path_of_enum_words(out: str, refused: bool, tmp_path: Path) -> None:
    """go build -o "$out": go has no grammar; given only the author's names
    it puts no file of the caller's in the folder go vet reads."""
    args = {
        "os": {"type": "string", "enum": ["linux", "darwin"]},
        "free": {"type": "string", "pattern": "^[a-z./]+$", "default": "x"},
    }
    steps = ["go vet ./...", f'{out}\nGOOS="$ARG_os" go build -o "$out" .']
    status, findings = _check(steps, tmp_path, args=args)
    assert (status == "refused") == refused, findings
