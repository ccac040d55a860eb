"""The classes round eighteen (tests/check/blind34r18) showed, each with
the safe form accepted and the dangerous neighbour refused:

- a ``[[ $n =~ ^[0-9]+$ ]]`` guard makes ``n`` digits to the arithmetic
  it guards, and no further;
- ``jq '… | length'`` and ``git rev-list --count`` print numbers;
- a word led by a variable assigned once is led by that assignment's text
  (``url="$API/v1/$ARG_id"`` … ``curl "$url"``), never when a loop, a
  ``read`` or ``${url:=…}`` may set it too;
- an arg's placeholder assigned to a name keeps its bounds in arithmetic;
- where a program keeps a credential (``docker --config``, ``kubectl
  config set-credentials --kubeconfig``) holds it, and outside the run
  directory is refused; ``wget --warc-file`` and a wgetrc's ``debug`` print
  the request; a relative ``{file:}`` secret is in the project;
- a program that follows redirects with a secret (``curl -L`` with a
  header curl does not keep home, wget) is refused when the caller chooses
  the path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import load_and_check
from mcp_harbor.check._taint import puts_caller_files
from tests.check._harness import check_steps

_ARGS: dict[str, Any] = {
    "x": {"type": "string", "pattern": "^[a-z0-9]{1,20}$"},
    "u": {"type": "string"},
    "d": {"type": "string", "leading_dash": True},
    "line": {"type": "integer", "minimum": 1, "maximum": 100000},
    "around": {"type": "integer", "minimum": 0, "maximum": 200, "default": 10},
    "shift": {"type": "integer", "minimum": -100, "maximum": 100, "default": 0},
    "file": {"type": "string", "within": "."},
}
_TOKEN: dict[str, Any] = {"secrets": {"TOKEN": {"env": "CI_TOKEN"}}, "pass_env": ["API"]}


def _status(run: str, tmp_path: Path, **extra: Any) -> tuple[str, list[str]]:
    return check_steps([run], tmp_path, args=_ARGS, **extra)


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ("v=$(cat VERSION)\n[[ $v =~ ^[0-9]+$ ]] && (( v > 3 )) && echo new", False),
        ("v=$(cat VERSION)\nif [[ $v =~ ^[0-9]{1,6}$ ]]; then echo $(( v + 1 )); fi", False),
        ("v=$(cat VERSION)\n[[ $v =~ ^[0-9]+ ]] && (( v > 3 ))", True),  # not anchored
        ("v=$(cat VERSION)\n[[ $v =~ [0-9]+$ ]] && (( v > 3 ))", True),
        ("v=$(cat VERSION)\n[[ $v =~ ^[0-9]+$ ]] || (( v > 3 ))", True),
        ("v=$(cat VERSION)\nif [[ $v =~ ^[0-9]+$ ]]; then :; else (( v > 3 )); fi", True),
        ("v=$(cat VERSION)\nif ! [[ $v =~ ^[0-9]+$ ]]; then (( v > 3 )); fi", True),
        ("v=$(cat VERSION)\nw=$(cat X)\n[[ $w =~ ^[0-9]+$ ]] && (( v > 3 ))", True),
        (
            "v=$(cat VERSION)\nif [[ $v =~ ^[0-9]+$ ]]; then read -r v < X; (( v > 3 )); fi",
            True,
        ),
    ],
)
def test_a_digits_guard_makes_a_number(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(f'cd "$HARBOR_RUN_DIR"\n{run}', tmp_path)
    assert (status == "refused") == refused, findings
    if refused:
        assert any(f.startswith("H006") for f in findings), findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ("n=$(jq '.items | length' \"$HARBOR_RUN_DIR/e.json\")\n(( n == 0 )) && echo none", False),
        ('n=$(jq -r ".[] | length" "$HARBOR_RUN_DIR/e.json")\necho $(( n + 1 ))', False),
        # no count, but JSON texts (jq without -r): a number, true/false/null,
        # or `"`, `{`, `[`, where bash's arithmetic stops with an error
        ("n=$(jq '.items[0]' \"$HARBOR_RUN_DIR/e.json\")\n(( n == 0 )) && echo none", False),
        ("n=$(jq '.items | length, .name' \"$HARBOR_RUN_DIR/e.json\")\n(( n == 0 ))", False),
        ("n=$(jq -r '.items[0]' \"$HARBOR_RUN_DIR/e.json\")\n(( n == 0 )) && echo none", True),
        ('n=$(git rev-list --count "refs/heads/$ARG_x..HEAD")\n(( n > 0 )) && echo ahead', False),
        ('n=$(git rev-list --count "$ARG_u")\n(( n > 0 ))', True),
        ('n=$(git rev-list "refs/heads/$ARG_x..HEAD" | head -n 1)\n(( n > 0 ))', True),
    ],
)
def test_counts_a_program_prints(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('url="$API/v1/items/$ARG_x"\ncurl -fsS "$url"', False),
        ('url="$API/v1/items/$ARG_x"\nfor url in "$ARG_u"; do curl -fsS "$url"; done', True),
        ('url="$API/v1/items/$ARG_x"\nread -r url <<< "$ARG_u"\ncurl -fsS "$url"', True),
        (': "${url:=$ARG_u}"\ncurl -fsS "$url"\nurl="$API/v1/items/$ARG_x"', True),
        ('url="$ARG_u"\ncurl -fsS "$url"', True),
        ('x=$(( ARG_shift - 21 ))\nkill -s TERM -- "$x"', True),
    ],
)
def test_a_word_led_by_a_variable_assigned_once(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, pass_env=["API"])
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "line={{ args.line }}\naround={{ args.around }}\n"
            'first=$(( line > around ? line - around : 1 ))\nsed -n "${first}p" -- "$ARG_file"',
            False,
        ),
        (
            "line={{ args.line }}\nshift={{ args.shift }}\n"
            'last=$(( line + shift ))\nsed -n "${last}p" -- "$ARG_file"',
            True,
        ),
    ],
)
def test_a_placeholder_assigned_keeps_its_bounds(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path)
    assert (status == "refused") == refused, findings


def test_an_operand_a_grammar_writes_puts_caller_files() -> None:
    assert puts_caller_files("uniq", ["--", None, None])
    assert not puts_caller_files("uniq", ["-c", None])
    assert puts_caller_files("dd", [None, "bs=64k"])
    assert not puts_caller_files("dd", ["if=/dev/zero", "count=1"])


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'cfg="$HARBOR_RUN_DIR/docker"\nprintf %s "$TOKEN" | docker --config "$cfg" login '
            '-u ci --password-stdin reg.example.com\ncat "$cfg/config.json"',
            True,
        ),
        (
            'printf %s "$TOKEN" | docker --config deploy/docker login -u ci --password-stdin '
            "reg.example.com",
            True,
        ),
        (
            'kubectl config set-credentials ci --token="$TOKEN" --kubeconfig=deploy/kubeconfig '
            ">/dev/null",
            True,
        ),
        (
            'kc="$HARBOR_RUN_DIR/kubeconfig"\nkubectl config set-credentials ci --token="$TOKEN" '
            '--kubeconfig="$kc" >/dev/null\nkubectl config view --raw --kubeconfig="$kc"',
            True,
        ),
        (
            'w="$HARBOR_RUN_DIR/x"\nwget -q --header "Authorization: Bearer $TOKEN" '
            '--warc-file="$w" -O /dev/null https://api.example.com/v1/usage',
            True,
        ),
        (
            'rc="$HARBOR_RUN_DIR/wgetrc"\nprintf \'http_password = %s\\ndebug = on\\n\' "$TOKEN" '
            '> "$rc"\nwget --config="$rc" -O "$HARBOR_RUN_DIR/r.json" https://api.example.com/r',
            True,
        ),
        (
            'rc="$HARBOR_RUN_DIR/wgetrc"\nprintf \'http_password = %s\\n\' "$TOKEN" > "$rc"\n'
            'wget -q --config="$rc" -O "$HARBOR_RUN_DIR/r.json" https://api.example.com/r',
            False,
        ),
    ],
)
def test_where_a_program_keeps_or_prints_a_credential(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings
    if refused:
        assert any(f.startswith("H010") for f in findings), findings


@pytest.mark.parametrize(
    "run",
    [
        # a config folder in the run directory, where a step puts caller
        # data: docker login reads the config.json a step may have put there
        # first (its plugin hooks, credential helpers)
        'printf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/tag.txt"\n'
        'cfg="$HARBOR_RUN_DIR/docker"\nprintf %s "$TOKEN" | docker --config "$cfg" login '
        '-u ci --password-stdin reg.example.com\ndocker --config "$cfg" pull '
        '"reg.example.com/app:$ARG_x"',
        # a folder of mktemp -d is in TMPDIR, and this step may fill it
        'cfg=$(mktemp -d)\nprintf %s "$TOKEN" | docker --config "$cfg" login '
        '-u ci --password-stdin reg.example.com\ndocker --config "$cfg" pull '
        '"reg.example.com/app:$ARG_x"',
        # set-credentials keeps what a kubeconfig a step put there holds (an
        # exec plugin, another cluster): kubectl get would use it
        'kc="$HARBOR_RUN_DIR/kubeconfig"\nkubectl config set-credentials ci --token="$TOKEN" '
        '--kubeconfig="$kc" >/dev/null\nkubectl get pods --kubeconfig="$kc"',
    ],
)
def test_a_config_folder_a_step_may_have_written(run: str, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert status == "refused", findings
    # a place (H012), or, where no step puts caller data in the run
    # directory, a folder beside the secret that the grammar cannot read (H010)
    assert any(f.startswith(("H012", "H010")) for f in findings), findings


def test_a_relative_secret_file_beside_an_export_that_reads_paths(tmp_path: Path) -> None:
    """The gate of the exports served together: another export's caller
    may name a relative secret file (`secret_file_findings`)."""
    hook = {
        "name": "hook",
        "description": "post",
        "secrets": {"T": {"file": "../config/hook.token"}},
        "steps": [
            {"name": "s", "run": 'printf "A: %s\\n" "$T" | curl -fsS -H @- https://x.example/'}
        ],
    }
    reader = {
        "name": "reader",
        "description": "read",
        "args": {"path": {"type": "string", "within": "."}},
        "steps": [{"name": "s", "run": 'cat -- "$ARG_path"'}],
    }
    for document in (hook, reader):
        (tmp_path / f"{document['name']}.yaml").write_text(yaml.safe_dump(document))
    checked = load_and_check([tmp_path])
    assert [r.name for r in checked.refused] == ["hook"]
    (report,) = checked.refused
    assert any("`../config/hook.token`" in f.message for f in report.findings)
    (tmp_path / "reader.yaml").unlink()
    assert [e.name for e in load_and_check([tmp_path]).accepted] == ["hook"]


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('curl -fsS -L -H "PRIVATE-TOKEN: $TOKEN" "https://git.example.com/$ARG_x"', True),
        ('curl -fsS -L -H "Authorization: Bearer $TOKEN" "https://git.example.com/$ARG_x"', False),
        ('curl -fsS -L -u "ci:$TOKEN" "https://git.example.com/$ARG_x"', False),
        (
            'curl -fsS --location-trusted -u "ci:$TOKEN" "https://git.example.com/$ARG_x"',
            True,
        ),
        ('curl -fsS -H "PRIVATE-TOKEN: $TOKEN" "https://git.example.com/$ARG_x"', False),
        (
            'wget -q -O - --header "Authorization: Bearer $TOKEN" "https://w.example.com/$ARG_x"',
            True,
        ),
        (
            'wget -q --max-redirect=0 -O - --header "Authorization: Bearer $TOKEN" '
            '"https://w.example.com/$ARG_x"',
            False,
        ),
        ('wget -q -O - --header "Authorization: Bearer $TOKEN" https://w.example.com/home', False),
    ],
)
def test_a_redirect_followed_with_a_secret(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


_READER = 'python3 -c \'import json; print(json.load(open("package.json"))["name"])\''


@pytest.mark.parametrize(
    ("first", "refused"),
    [
        (
            'opts=(-q -p no:cacheprovider --junitxml="$HARBOR_RUN_DIR/junit.xml")\n'
            'if [ -n "$ARG_x" ]; then opts+=(-k "$ARG_x"); fi\n'
            'python3 -m pytest "${opts[@]}" -- tests',
            False,
        ),
        (
            'opts=(-q)\nif [ -n "$ARG_x" ]; then opts+=(-p no:cacheprovider -k "$ARG_x"); fi\n'
            'python3 -m pytest "${opts[@]}" -- tests',
            True,  # the cache is off only sometimes
        ),
        (
            'if true; then opts=(-q -p no:cacheprovider); fi\nopts+=(-k "$ARG_x")\n'
            'python3 -m pytest "${opts[@]}" -- tests',
            True,  # not set at the top level
        ),
        (
            'opts=(-q -p no:cacheprovider)\nopts+=(--junitxml "$ARG_x")\n'
            'python3 -m pytest "${opts[@]}" -- tests',
            True,  # a report where the caller says
        ),
        (
            'n=$(find "$HARBOR_RUN_DIR" -name "j-*.xml" | wc -l)\n'
            "python3 -m pytest -q -p no:cacheprovider "
            '--junitxml="$HARBOR_RUN_DIR/j-$(( n + 1 )).xml" -k "$ARG_x" -- tests',
            False,
        ),
    ],
)
def test_what_pytest_writes_through_an_array(first: str, refused: bool, tmp_path: Path) -> None:
    """A step that may write the working folder makes the next step's
    python, which imports from there, refused."""
    status, findings = check_steps([first, _READER], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('GH_TOKEN="$TOKEN" gh pr comment "$ARG_line" --repo acme/web --body "$ARG_u"', False),
        ('GH_TOKEN="$TOKEN" gh pr comment "$ARG_line" --repo "$ARG_x" --body hi', True),
        ('systemctl list-dependencies --reverse -- "$ARG_x.service"', False),
    ],
)
def test_new_grammars(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("first", "refused"),
    [
        ('sed -n "{{ args.around }},$(( {{ args.around }} + 9 ))p" -- "$ARG_file"', False),
        ('sed -n "{{ args.around }},$(( {{ args.around }} + 9 ))w notes" -- "$ARG_file"', True),
    ],
)
def test_a_program_text_of_numbers_is_read_for_its_writes(
    first: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([first, _READER], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('p=$(ls migrations)\nwhile read -r v; do printf "%s\\n" "$v"; done <<< "$p"', False),
        ('while read -r v; do printf "%s\\n" "$v"; done <<< "$TOKEN"', True),
        ('x="a $TOKEN"\nread -r _ v <<< "$x"\necho "$v"', True),
        ('read -r v <<< "$(printenv TOKEN)"\necho "$v"', True),
        ('read -r v <<< "${!n}"\necho "$v"', True),
    ],
)
def test_what_read_takes_from_a_here_string(run: str, refused: bool, tmp_path: Path) -> None:
    """The secrets' follower: a here-string holds a secret when its text
    does, known at the fixpoint (a substitution in it runs a command)."""
    status, findings = _status(f"n=TOKEN\n{run}", tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('files=(data/r-"$ARG_x"-*.csv)\nzip -q "$HARBOR_RUN_DIR/o.zip" "${files[@]}"', False),
        ('files=("data/r-$ARG_x"-*.csv)\nzip -q "$HARBOR_RUN_DIR/o.zip" "${files[@]}"', False),
        ('files=(*-"$ARG_x".csv)\nzip -q "$HARBOR_RUN_DIR/o.zip" "${files[@]}"', True),
        ('files=("$ARG_x"*.csv)\nzip -q "$HARBOR_RUN_DIR/o.zip" "${files[@]}"', True),
        ('files=(data/$ARG_u*.csv)\nzip -q "$HARBOR_RUN_DIR/o.zip" "${files[@]}"', True),
    ],
)
def test_the_names_a_glob_matches_start_as_it_does(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path)
    assert (status == "refused") == refused, findings


_REPORT = 'report() { printf \'%s:\\n\' "$1"; shift; find . -name .git -prune -o "$@" -print; }\n'


@pytest.mark.parametrize(
    ("calls", "refused"),
    [
        (
            "report a -type f \\( -perm -4000 -o -perm -2000 \\)\nreport b -exec grep -q K {} \\;",
            False,
        ),
        ('report a -type f\nreport b "$ARG_d"', True),
        ("report a -name *.txt", True),
        # a brace list of the author's words is the author's words
        ("report a -type f\nreport b -name {x,y}", False),
    ],
)
def test_a_functions_arguments_when_every_call_passes_literals(
    calls: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _status(f'cd "$HARBOR_RUN_DIR"\n{_REPORT}{calls}', tmp_path)
    assert (status == "refused") == refused, findings


def test_a_set_in_the_function_replaces_its_arguments(tmp_path: Path) -> None:
    run = 'cd "$HARBOR_RUN_DIR"\nreport() { set -- "$ARG_d"; find . "$@" -print; }\nreport -type f'
    status, findings = _status(run, tmp_path)
    assert status == "refused", findings


_PCT = (
    'n=$(wc -l < "$HARBOR_RUN_DIR/d.txt")\n'
    'pct() { sed -n "$(( ($1 * n + 99) / 100 ))p" -- "$HARBOR_RUN_DIR/d.txt"; }\n'
)


@pytest.mark.parametrize(
    ("calls", "refused"),
    [
        ('echo "$(pct 50) $(pct 99)"', False),
        ('echo "$(pct 50) $(pct -300)"', True),  # a negative line: no sed program
        ('echo "$(pct 50) $(pct "$ARG_x")"', True),
    ],
)
def test_a_positional_in_arithmetic_holds_what_every_call_passes(
    calls: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _status(_PCT + calls, tmp_path)
    assert (status == "refused") == refused, findings


_PY = """python3 - "$ARG_u" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:data/app.db?mode=ro", uri=True)
{body}
for row in db.execute(sql, (sys.argv[1],)):
    print(row)
PY"""


@pytest.mark.parametrize(
    ("body", "refused"),
    [
        ('sql = """select id from orders where status = ?"""', False),
        ('sql = "select id from orders where status = " + sys.argv[1]', True),
        ('sql = "select id from orders where status = ?"\nsql += sys.argv[1]', True),
        ('sql = "select 1"\nfor sql in sys.argv[1:]:\n    pass', True),
    ],
)
def test_sql_in_a_name_bound_once_to_a_literal(body: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(_PY.format(body=body), tmp_path)
    assert (status == "refused") == refused, findings
