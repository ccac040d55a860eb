"""The classes round nineteen (tests/check/blind34r19) showed, each with
the safe form accepted and the dangerous neighbour refused:

- exports share the server's folder: one that writes caller data into a
  file there (``> banner.txt``) or into the repository (a commit message,
  an annotated tag) is refused when another export's verdict rests on what
  the folder holds being the author's (rule 2), by the gate of the exports
  served together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import load_and_check
from tests.check._harness import check_steps

_READS = {
    "banner": 'last=$(cat banner.txt)\nsed "s/^/[$last] /" CHANGELOG.md',
    "subject": 'last=$(git log -1 --format=%s)\nsed "s/^/[$last] /" CHANGELOG.md',
    "tag": 'last=$(git tag -n1 --list "v*" | tail -n 1)\nsed "s/^/[$last] /" CHANGELOG.md',
}


def _serve(tmp_path: Path, writer: str, reader: str | None) -> list[str]:
    """The names the gate refuses of a writer export and a reader one."""
    documents: list[dict[str, Any]] = [
        {
            "name": "writer",
            "description": "w",
            "args": {"x": {"type": "string", "pattern": "^[a-z ]{1,40}$"}},
            "steps": [{"name": "s", "run": writer}],
        }
    ]
    if reader is not None:
        documents.append(
            {"name": "reader", "description": "r", "steps": [{"name": "s", "run": reader}]}
        )
    for document in documents:
        (tmp_path / f"{document['name']}.yaml").write_text(yaml.safe_dump(document))
    return [report.name for report in load_and_check([tmp_path]).refused]


@pytest.mark.parametrize(
    ("writer", "reader", "refused"),
    [
        ('printf "%s\\n" "$ARG_x" > banner.txt', "banner", ["writer"]),
        ('printf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/banner.txt"', "banner", []),
        ('git commit -q --allow-empty -m "deploy: $ARG_x"', "subject", ["writer"]),
        ('git tag -a "v1.0.$RANDOM" -m "$ARG_x"', "tag", ["writer"]),
        ('git tag --list "v*" --contains "$ARG_x"', "tag", []),
    ],
)
def test_a_writer_beside_a_reader_of_what_the_folder_holds(
    writer: str, reader: str, refused: list[str], tmp_path: Path
) -> None:
    assert _serve(tmp_path, writer, _READS[reader]) == refused


def test_a_writer_alone_is_accepted(tmp_path: Path) -> None:
    assert _serve(tmp_path, 'printf "%s\\n" "$ARG_x" > banner.txt', None) == []


def _status(run: str, tmp_path: Path, **extra: Any) -> tuple[str, list[str]]:
    args = {"x": {"type": "string", "pattern": "^[a-z0-9]{1,20}$"}, "u": {"type": "string"}}
    return check_steps([run], tmp_path, args=args, **extra)


_TOKEN: dict[str, Any] = {"secrets": {"T": {"env": "CI_T"}}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('GH_TOKEN="$T" gh pr list --repo acme/app --json title --jq "$ARG_u"', True),
        ("GH_TOKEN=\"$T\" gh pr list --repo acme/app --json title --jq '.[].title'", False),
        ('kubectl config set-credentials ci --token="$T" >/dev/null', True),
        # (a kubeconfig in the run directory is one a step may have written)
        (
            'kubectl config set-credentials ci --token="$T" '
            '--kubeconfig="$HARBOR_RUN_DIR/kc" >/dev/null',
            True,
        ),
        (
            'rc="$HARBOR_RUN_DIR/netrc"\nprintf "default login ci password %s\\n" "$T" > "$rc"\n'
            'curl -fsS -L --netrc-file "$rc" "https://d.example.com/data/$ARG_x"',
            True,
        ),
        (
            'rc="$HARBOR_RUN_DIR/netrc"\nprintf "default login ci password %s\\n" "$T" > "$rc"\n'
            'curl -fsS --netrc-file "$rc" "https://d.example.com/data/$ARG_x"',
            False,
        ),
    ],
)
def test_secrets_at_places_round_nineteen_found(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("guard", "refused"),
    [
        ("[[ $n =~ ^[0-9]+$ ]] || exit 1", False),
        ("[[ ! $n =~ ^[0-9]+$ ]] && exit 1", False),
        ('if ! [[ $n =~ ^[0-9]+$ ]]; then echo "bad" >&2; exit 1; fi', False),
        ("[[ $n =~ ^[0-9]+$ && $m =~ ^[0-9]+$ ]] || { echo bad; exit 1; }", False),
        ("[[ $n =~ ^[0-9]+$ ]] || echo bad", True),  # it does not leave
        ("[[ $n =~ ^[0-9]+$ ]] && echo ok", True),  # a statement, not a guard
        ("[[ $n =~ ^[0-9]+$ ]] || exit 1\nn=$(cat X)", True),
        ("[[ ! $n =~ ^[0-9]+$ && $m =~ ^[0-9]+$ ]] && exit 1", True),
        ("if ! [[ $n =~ ^[0-9]+$ ]]; then exit 1; else :; fi", True),
        ('[[ $n =~ "^[0-9]+$" ]] || exit 1', True),  # quoted: a literal, no regex
    ],
)
def test_a_guard_that_leaves_makes_digits(guard: str, refused: bool, tmp_path: Path) -> None:
    run = f'cd "$HARBOR_RUN_DIR"\nn=$(cat N)\nm=$(cat M)\n{guard}\necho $(( n + 1 ))'
    status, findings = _status(run, tmp_path)
    assert (status == "refused") == refused, findings


def test_a_guard_in_a_loop_for_that_iteration(tmp_path: Path) -> None:
    run = (
        'cd "$HARBOR_RUN_DIR"\nwhile read -r a b; do\n'
        "  [[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] || continue\n"
        "  echo $(( a * 100 / (b + 1) ))\ndone < pairs.txt"
    )
    status, findings = _status(run, tmp_path)
    assert status == "accepted", findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "v=$(printf 'A: %s\\n' \"$T\" | curl -fsS -H @- https://api.example.com/s | jq -r .s)"
            '\necho "$v"',
            False,
        ),
        ('v=$(printf \'%s\\n\' "$T" | tr a-z A-Z)\necho "$v"', True),
        (
            'curl -fsS -H "Authorization: Bearer $T" -o "$HARBOR_RUN_DIR/r.json" '
            "https://api.example.com/r\n"
            'read -r s c < <(jq -r \'"\\(.s) \\(.c)"\' "$HARBOR_RUN_DIR/r.json")\necho "$s $c"',
            False,
        ),
        ('read -r s < <(printf "%s\\n" "$T")\necho "$s"', True),
    ],
)
def test_what_a_secret_leaves_behind(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


_SECTION = (
    'work=$(mktemp -d)\nstamp=$(date -u +%s)\ndir="$work/snap-$stamp"\nmkdir -p -- "$dir"\n'
    "# section FILE CMD...: run a fixed command into FILE\n"
    'section() {\n  local file="$1"; shift\n  { "$@" 2>&1 || true; } > "$dir/$file"\n}\n'
)
_IMPORTS = 'python3 -c \'import json; print(json.load(open("package.json"))["name"])\''


@pytest.mark.parametrize(
    ("calls", "refused"),
    [
        ("section load.txt cat /proc/loadavg\nsection ps.txt ps -eo pid,comm", False),
        ('section load.txt cat /proc/loadavg\nsection x.txt "$ARG_u"', True),
        ('section "$ARG_u" cat /proc/loadavg', True),
    ],
)
def test_a_function_running_its_literal_arguments_into_a_temporary_folder(
    calls: str, refused: bool, tmp_path: Path
) -> None:
    """A comment naming the function is no call; the file it writes is in
    the temporary folder through the variable's one value."""
    status, findings = check_steps(
        [_SECTION + calls, _IMPORTS],
        tmp_path,
        args={"u": {"type": "string", "pattern": "^[a-z./]{1,20}$"}},
    )
    assert (status == "refused") == refused, findings


_GET = 'get() { curl -fsS -u "monitor:$T" "$1"; }\n'


@pytest.mark.parametrize(
    ("calls", "refused"),
    [
        ('get "https://mq.example.com/api/queues/$ARG_x"\nget https://mq.example.com/api/x', False),
        ('api="https://mq.example.com/api"\nget "$api/queues/$ARG_x"\nget "$api/nodes"', False),
        ('get "https://mq.example.com/api/queues/$ARG_x"\nget "$ARG_u"', True),
        ('get "https://$ARG_x.example.com/api/queues"', True),
        ('get "https://mq.example.com:$ARG_x/api"', True),
    ],
)
def test_a_url_a_function_is_given(calls: str, refused: bool, tmp_path: Path) -> None:
    """Each call's word is judged where ``$1`` stands: the host the
    secret goes to, and the URL's scheme."""
    status, findings = _status(_GET + calls, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("loop", "refused"),
    [
        ("for f in .github/workflows/*.yml; do", False),
        ('for f in deploy/"$ARG_x"/*.yaml; do', False),
        ('for f in "$ARG_x"*.yml; do', True),
        ("for f in *.yml; do", True),
        ("for f in deploy/$ARG_u*.yaml; do", True),  # unquoted: it splits
    ],
)
def test_a_loop_over_a_glob_led_by_the_authors_character(
    loop: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = _status(f'cd "$HARBOR_RUN_DIR"\n{loop}\n  sort "$f"\ndone', tmp_path)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("guard", "refused"),
    [
        ("[[ $n =~ ^[0-9]+$ ]] || exit 0", False),
        ("[[ $n =~ ^-?[0-9]+$ ]] || exit 0", True),  # -5 is an option
        ("[[ $n =~ ^[0-9]+$ ]] || echo bad", True),
    ],
)
def test_a_guard_makes_no_option(guard: str, refused: bool, tmp_path: Path) -> None:
    run = f'cd "$HARBOR_RUN_DIR"\nn=$(cat N)\n{guard}\nsort "$n"'
    status, findings = _status(run, tmp_path)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("strip", "refused"),
    [
        ("${ARG_u##*/}", False),  # what is left holds no /
        ("${ARG_u%%/*}", False),
        ("${ARG_u#*/}", True),  # a/../../x leaves ../x
    ],
)
def test_a_name_stripped_of_its_folders_stays_in_the_run_directory(
    strip: str, refused: bool, tmp_path: Path
) -> None:
    first = f'base="{strip}"\nout="$HARBOR_RUN_DIR/${{base%.json}}.csv"\nprintf x > "$out"'
    status, findings = check_steps([first, _IMPORTS], tmp_path, args={"u": {"type": "string"}})
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        ("import sys\nseen = set()\nseen.add(sys.argv[1])\nprint(sorted(seen))", False),
        ("import sys, copy\nprint(copy.copy(sys.argv[1:]))", False),
        (
            "import sys\nfrom pathlib import Path\nPath('notes.txt').write_text(sys.argv[1])",
            True,
        ),
        ("import sys, shutil\nshutil.copy(sys.argv[1], 'x.py')", True),
    ],
)
def test_a_python_method_writes_only_on_its_modules_objects(
    program: str, refused: bool, tmp_path: Path
) -> None:
    first = f"python3 - \"$ARG_u\" <<'PY'\n{program}\nPY"
    status, findings = check_steps([first, _IMPORTS], tmp_path, args={"u": {"type": "string"}})
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'GH_TOKEN="$T" gh api orgs/acme/teams --jq ".[].slug" > "$HARBOR_RUN_DIR/t.txt"\n'
            'while read -r t; do printf "%s\\n" "$t"; done < "$HARBOR_RUN_DIR/t.txt"',
            False,
        ),
        (
            'read -r x < <(GH_TOKEN="$T" gh api orgs/acme --jq .login)\necho "$x"',
            False,
        ),
        (
            'gh auth login --with-token <<< "$T"\ncat ~/.config/gh/hosts.yml',
            True,
        ),
    ],
)
def test_what_gh_answers_is_not_its_token(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("folder", "refused"),
    [
        ('"$HARBOR_RUN_DIR/docker"', False),
        ("deploy/docker", True),
        ('"$HARBOR_RUN_DIR/docker"\ncat "$cfg/config.json"', True),
    ],
)
def test_a_secret_written_into_a_private_folder_of_the_run(
    folder: str, refused: bool, tmp_path: Path
) -> None:
    first, _, rest = folder.partition("\n")
    run = (
        f'cfg={first}\nmkdir -p -- "$cfg"\n'
        "auth=$(printf 'ci:%s' \"$T\" | base64 -w0)\n"
        'printf \'{"auths": {"r.example.com": {"auth": "%s"}}}\\n\' "$auth" > "$cfg/config.json"'
        f"\n{rest}"
    )
    status, findings = _status(run, tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


_HELM_ARGS = {
    "env": {"type": "string", "enum": ["staging", "production"]},
    "tag": {"type": "string", "pattern": "^[a-z0-9.]{1,20}$"},
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'base=(template web charts/web --namespace "$ARG_env")\n'
            'extra=(--set-string "image.tag=$ARG_tag")\nhelm "${base[@]}" "${extra[@]}"',
            False,
        ),
        (
            'extra=(--set-string "image.tag=$ARG_tag")\nhelm "${base[@]}" "${extra[@]}"\n'
            'base=(template web charts/web --namespace "$ARG_env")',
            True,  # used before it is set: it may be empty
        ),
        (
            "if true; then base=(template web charts/web); fi\n"
            'extra=(--set-string "image.tag=$ARG_tag")\nhelm "${base[@]}" "${extra[@]}"',
            True,  # set in a branch: it may be empty
        ),
    ],
)
def test_a_command_line_from_an_array_always_set(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_HELM_ARGS)
    assert (status == "refused") == refused, findings


def test_an_array_as_the_command_is_read_once(tmp_path: Path) -> None:
    """The words the head's array resolves to stand where it stood: none of
    them is read as that array a second time (``cmd=(bash -c)``)."""
    status, findings = check_steps(
        ['cmd=(bash -c)\n"${cmd[@]}" "$ARG_u"'], tmp_path, args={"u": {"type": "string"}}
    )
    assert status == "refused", findings
