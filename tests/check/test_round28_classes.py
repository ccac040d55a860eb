"""The classes blind round twenty-eight's attacks found (tests/check/blind34r28,
SCORE.md), each as a rule with fixtures on both sides.

- A guard on ``$n`` tests ``${n[0]}`` alone: another element of the array
  (``${n[1]}``, ``${n[-1]}``) is not guarded, nor the variable ``${!n}``
  names (a positional parameter, when ``n`` holds digits).
- A function may be named by a program's path (``/usr/bin/cut() {…}``):
  a call by that path runs the function, so it is refused as a function
  named as the program is.
- curl reads options from a config file (``-K``): one may say ``location``
  (or ``location-trusted``), so a config follows redirects unless every
  line the script writes to it is known and none of them does.
- ``$10`` is ``${1}`` and ``0`` to bash (one digit after ``$``), the tenth
  parameter to tree-sitter: refused (H000), ``${10}`` read as bash does.
- ``$"…"`` is a message catalog's translation, which bash expands again as
  a double-quoted string: refused (H004), whoever may write the catalog.
- Precision: ``for i in "${!a[@]}"`` of an array no declaration makes
  associative binds ``i`` to its indexes, whole numbers from 0, in the
  loop's body (arithmetic reads it by name there too).
- Precision: a digits group of ``BASH_REMATCH`` read in arithmetic by
  name (``BASH_REMATCH[2]``) or with a number for default
  (``${BASH_REMATCH[2]:-0}``), after a test that held in an ``elif`` or in
  an ``if``'s ``&&`` chain.
- Precision: ``t=$(date -d "$x" +%s || echo "$now")`` is a number when
  ``now`` is set once to one (``echo`` of it prints that count again);
  podman's readers (``image inspect``, ``container ls``, ``healthcheck
  run``…) have docker's grammars.
- Precision: a function's ``$1`` given ``"$base/…"`` starts as ``base``'s
  one assignment does (``base="https://api.example.com/v2/$ARG_x"``), and
  a constant it starts with stands for its literal value.
- Precision (secrets): what ``read`` takes at the end of a pipeline holds
  a secret only when a stage before it does (or reads a file one was
  written to): ``jq … "$f" | while read -r id`` after ``get … > "$f"``,
  where ``get`` sends the token as a header.
- The working folder: a ``cd`` moves the commands after it in the same
  shell (not those before it, nor those outside the subshell it runs in),
  every command when it is in a loop around them or a function; ``cd -``
  (OLDPWD), ``cd`` alone, ``popd`` and ``pushd +N`` move to a folder held
  elsewhere; a ``cd`` in text run later (``eval``, ``trap``, ``command
  cd``) moves every command.
- Precision: ``mapfile -t a < <(jq -r '.[]' <<< "$ARG_xs")`` (or a
  ``read -r`` loop) of an array arg: each element is one item, as the
  ``items`` schema says (no line break: the runtime refuses one).
- IFS set anywhere but before one ``read``: fixtures in
  test_round20_classes.py (found before this round was scored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {"x": {"type": "string"}, "item": {"type": "string", "pattern": "^[a-z0-9/]+$"}}
_SECRET = {"secrets": {"API_TOKEN": {"env": "CI_API_TOKEN"}}}


def _status(run: str, tmp_path: Path, **extra: object) -> str:
    status, _findings = check_steps([run], tmp_path, args=_ARGS, **extra)
    return status


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('read -r -a n <<< "$ARG_x"\n[[ $n =~ ^[0-9]+$ ]] || exit 1\necho $(( ${n[1]:-0} ))', True),
        ('mapfile -t n <<< "$ARG_x"\n[[ $n =~ ^[0-9]+$ ]] || exit 1\necho $(( ${n[-1]} ))', True),
        ('read -r -a n <<< "$ARG_x"\n[[ $n =~ ^[0-9]+$ ]] || exit 1\necho $(( n[1] + 1 ))', True),
        ('f() { n=$2; [[ $n =~ ^[0-9]+$ ]] || exit 1; echo $(( ${!n} )); }\nf "$ARG_x" 1', True),
        # the element the guard tested
        ('read -r -a n <<< "$ARG_x"\n[[ $n =~ ^[0-9]+$ ]] || exit 1\necho $(( n + 1 ))', False),
        ('read -r -a n <<< "$ARG_x"\n[[ $n =~ ^[0-9]+$ ]] || exit 1\necho $(( ${n[0]} ))', False),
    ],
)
def test_a_guard_holds_for_the_element_it_tests(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(run, tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('/usr/bin/cut() { printf "%s\\n" "$ARG_x"; }\nn=$(du -sk /etc | /usr/bin/cut -f1)', True),
        ('/usr/bin/wc() { printf "%s\\n" "$ARG_x"; }\nn=$(/usr/bin/wc -l < /etc/hostname)', True),
        ('/opt/acme/report() { printf "%s\\n" "$1"; }\n/opt/acme/report x', False),
    ],
)
def test_a_function_named_by_a_programs_path(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(run + "\necho $(( n + 1 ))", tmp_path) == "refused") == refused


_GET = 'curl -sS {options} -o "$HARBOR_RUN_DIR/o.json" "https://api.example.com/$ARG_item"'


@pytest.mark.parametrize(
    ("config", "options", "refused"),
    [
        # the config says location: the header goes where a redirect says
        ("printf '%s\\n' location silent", '-K "$cfg" -H "X-Api-Key: $API_TOKEN"', True),
        ("printf -- '--location\\n'", '--config "$cfg" -H "X-Api-Key: $API_TOKEN"', True),
        ("printf '%s\\n%s%s\\n' silent lo cation", '-K "$cfg" -H "X-Api-Key: $API_TOKEN"', True),
        # location-trusted sends an Authorization header on too
        (
            "printf 'location-trusted\\n'",
            '-K "$cfg" -H "Authorization: Bearer $API_TOKEN"',
            True,
        ),
        # a config the script writes otherwise too, or names another way
        (
            "printf 'silent\\n'\ncp /etc/acme/curl.cfg \"$cfg\"",
            '-K "$cfg" -H "X-Api-Key: $API_TOKEN"',
            True,
        ),
        # every line known, none follows
        ("printf 'silent\\nshow-error\\n'", '-K "$cfg" -H "X-Api-Key: $API_TOKEN"', False),
        (
            'printf \'header = "X-Api-Key: %s"\\n\' "$API_TOKEN"',
            '-K "$cfg"',
            False,
        ),
    ],
)
def test_a_curl_config_may_follow_redirects(
    config: str, options: str, refused: bool, tmp_path: Path
) -> None:
    head, _, last = config.rpartition("\n")
    run = (
        'cfg="$HARBOR_RUN_DIR/curl.cfg"\n'
        + (head + "\n" if head else "")
        + f'{last} > "$cfg"\n'
        + _GET.format(options=options)
    )
    assert (_status(run, tmp_path, **_SECRET) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('f() { echo $(( $10 + 1 )); }\nf "$ARG_x" 2 3 4 5 6 7 8 9 10', True),
        ('f() { sed -n "$10p" /etc/hostname; }\nf "$ARG_x" 2 3 4 5 6 7 8 9 10', True),
        ('f() { echo $(( ${10} + 1 )); }\nf "$ARG_x" 2 3 4 5 6 7 8 9 10', False),
    ],
)
def test_a_parameter_of_two_digits_unbraced(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(run, tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'printf \'msgid "hi"\\nmsgstr "%s"\\n\' "$ARG_x" > "$HARBOR_RUN_DIR/t.po"\n'
            'msgfmt -o "$HARBOR_RUN_DIR/l/C/LC_MESSAGES/t.mo" "$HARBOR_RUN_DIR/t.po"\n'
            'export TEXTDOMAINDIR="$HARBOR_RUN_DIR/l" TEXTDOMAIN=t\necho $"hi"',
            True,
        ),
        ('echo $"hello"', True),
        ('echo "hello $ARG_x"', False),
    ],
)
def test_a_translated_string(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(run, tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'mapfile -t a <<< "$ARG_x"\nfor i in "${!a[@]}"; do echo $(( i + 1 )) "${a[i]}"; done',
            False,
        ),
        # keys of a map are the caller's; i set again in the loop
        ('declare -A a\na[$ARG_x]=1\nfor i in "${!a[@]}"; do echo $(( i + 1 )); done', True),
        (
            'f() { local -A a; a[$1]=1; for i in "${!a[@]}"; do echo $(( i )); done; }\nf "$ARG_x"',
            True,
        ),
        (
            'mapfile -t a <<< "$ARG_x"\nfor i in "${!a[@]}"; do i=${a[i]}; echo $(( i + 1 )); done',
            True,
        ),
        (
            'mapfile -t a <<< "$ARG_x"\nfor i in "${!a[@]}"; do (( i += x )); echo $(( i )); done',
            True,
        ),
    ],
)
def test_the_indexes_of_an_indexed_array(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(run, tmp_path) == "refused") == refused


_RATE = "rate=$(curl -s https://x.example.com)\n"


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "if [[ $rate =~ ^([0-9]+)/([0-9]+)$ ]] && (( BASH_REMATCH[2] > 0 )); then\n"
            "  echo $(( BASH_REMATCH[1] / BASH_REMATCH[2] ))\nfi",
            False,
        ),
        (
            "if [[ -z $rate ]]; then echo none\n"
            "elif [[ $rate =~ ^(([0-9]+)-)?([0-9]+)$ ]]; then\n"
            "  echo $(( 10#${BASH_REMATCH[2]:-0} + 10#${BASH_REMATCH[3]} ))\nfi",
            False,
        ),
        # the group that is not digits; a chain with ||; a test that did not decide
        (
            "if [[ $rate =~ ^(([0-9]+)-)?([0-9]+)$ ]]; then echo $(( BASH_REMATCH[1] )); fi",
            True,
        ),
        (
            "if [[ $rate =~ ^([0-9]+)$ ]] || true; then echo $(( BASH_REMATCH[1] )); fi",
            True,
        ),
        (
            "if [[ $rate =~ ^([0-9]+)$ ]]; true; then echo $(( BASH_REMATCH[1] )); fi",
            True,
        ),
        # BASH_REMATCH written between: by a builtin, arithmetic, a name reference
        (
            'if [[ $rate =~ ^([0-9]+)$ ]]; then read -r -a BASH_REMATCH <<< "0 $ARG_x"\n'
            "  echo $(( BASH_REMATCH[1] )); fi",
            True,
        ),
        (
            "declare -n r=BASH_REMATCH\n"
            "if [[ $rate =~ ^([0-9]+)$ ]]; then r[1]=$ARG_x; echo $(( ${BASH_REMATCH[1]} )); fi",
            True,
        ),
        (
            "if [[ $rate =~ ^([0-9]+)$ ]]; then (( BASH_REMATCH[1] = x ))\n"
            "  echo $(( BASH_REMATCH[1] )); fi",
            True,
        ),
    ],
)
def test_digits_groups_read_by_name(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(_RATE + run, tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('now=$(date +%s)\nt=$(date -d "$ARG_x" +%s || echo "$now")\necho $(( t + 1 ))', False),
        ('now=$(cat /tmp/x)\nt=$(date -d "$ARG_x" +%s || echo "$now")\necho $(( t + 1 ))', True),
        ('now=$(echo "$now")\nt=$(date -d "$ARG_x" +%s || echo "$now")\necho $(( t + 1 ))', True),
        ('podman image inspect -- "$ARG_x" > "$HARBOR_RUN_DIR/i.json"\npodman ps --all', False),
        ('podman healthcheck run -- "$ARG_x"', False),
        ('podman image build "$ARG_x"', True),
    ],
)
def test_counts_echoed_and_podman_readers(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(run, tmp_path) == "refused") == refused


_API = 'api() { curl -sS -H "X-Key: $API_TOKEN" -- "$1"; }\n'


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('base="https://api.example.com/v2/$ARG_item"\napi "$base"\napi "$base/x"', False),
        ('kc=https://api.example.com\nbase="$kc/v2/$ARG_item"\napi "$base/x"', False),
        # the host is the caller's, or one call's word is the caller's whole
        ('base="https://$ARG_item/v2"\napi "$base/x"', True),
        ('base="https://api.example.com$ARG_item"\napi "$base"', True),
        ('base="https://api.example.com/v2/$ARG_item"\napi "$base"\napi "$ARG_item"', True),
        ('base="$kc/v2/$ARG_item"\nkc=https://api.example.com\napi "$base/x"', True),
    ],
)
def test_a_url_through_a_functions_word(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(_API + run, tmp_path, **_SECRET) == "refused") == refused


_GET_GROUPS = (
    'get() { printf "Authorization: Bearer %s\\n" "$API_TOKEN" '
    '| curl -sS --header @- "$1"; }\n'
    'get "https://sso.example.com/groups" > "$HARBOR_RUN_DIR/g.json"\n'
)


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "jq -r '.[].id' \"$HARBOR_RUN_DIR/g.json\" | while read -r gid; do\n"
            '  get "https://sso.example.com/groups/$gid"; done',
            False,
        ),
        # a stage that holds the secret, or reads a file it was written to
        (
            'printf "%s\\n" "$API_TOKEN" | while read -r t; do echo "$t"; done',
            True,
        ),
        (
            'printf "%s" "$API_TOKEN" > "$HARBOR_RUN_DIR/t"\n'
            'cat "$HARBOR_RUN_DIR/t" | while read -r t; do echo "$t"; done',
            True,
        ),
        # the last stage's own input (tree-sitter hangs it on the pipeline)
        (
            'printf "%s" "$API_TOKEN" > "$HARBOR_RUN_DIR/t"\n'
            'git tag | while read -r t; do echo "${t^^}"; done < "$HARBOR_RUN_DIR/t"',
            True,
        ),
        (
            'printf "%s" "$API_TOKEN" > "$HARBOR_RUN_DIR/t"\n'
            'git log | { read -r t; echo "$t" | rev; } < "$HARBOR_RUN_DIR/t"',
            True,
        ),
    ],
)
def test_what_a_pipeline_reads_holds(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(_GET_GROUPS + run, tmp_path, **_SECRET) == "refused") == refused


_CALLERS_MAKEFILE = 'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/Makefile"\n'


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('cd "$HARBOR_RUN_DIR"\nmake all', True),
        ('f() { make all; }\ncd "$HARBOR_RUN_DIR"\nf', True),
        ('for i in 1 2; do make all; cd "$HARBOR_RUN_DIR"; done', True),
        ('OLDPWD="$HARBOR_RUN_DIR"\ncd -\nmake all', True),
        ('eval "cd \\"\\$HARBOR_RUN_DIR\\""\nmake all', True),
        ('trap "cd \\"\\$HARBOR_RUN_DIR\\"" DEBUG\nmake all', True),
        ('command cd "$HARBOR_RUN_DIR"\nmake all', True),
        # the cd ran in a subshell, or after
        ('(cd "$HARBOR_RUN_DIR" && ls)\nmake -C /srv/app all', False),
        ('make -C /srv/app all\ncd "$HARBOR_RUN_DIR"\nls', False),
        ('trap "rm -f x" EXIT\nmake -C /srv/app all', False),
    ],
)
def test_where_a_cd_moves(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status(_CALLERS_MAKEFILE + run, tmp_path) == "refused") == refused


_ARRAYS = {
    "xs": {"type": "array", "items": {"type": "string", "pattern": "^[a-z][a-z0-9 -]*$"}},
    "ys": {"type": "array", "items": {"type": "string", "pattern": "^[a-z ][a-z0-9-]*$"}},
    "ms": {"type": "array", "multiline": True, "items": {"type": "string", "pattern": "^[a-z].*$"}},
    # prefixItems' items are not `items'` (round thirty-two)
    "ps": {
        "type": "array",
        "prefixItems": [{"type": "string"}],
        "items": {"type": "string", "pattern": "^[a-z][a-z0-9 -]*$"},
    },
}
_EACH = '\nfor p in "${a[@]}"; do git log "$p"; done'


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ("mapfile -t a < <(jq -r '.[]' <<< \"$ARG_xs\")" + _EACH, False),
        ('jq -r \'.[]\' <<< "$ARG_xs" | while read -r p; do git log "$p"; done', False),
        # read strips a leading blank; a line break makes two lines; another program
        ('while read -r p; do git log "$p"; done < <(jq -r \'.[]\' <<< "$ARG_ys")', True),
        ("mapfile -t a < <(jq -r '.[]' <<< \"$ARG_ms\")" + _EACH, True),
        ("mapfile -t a < <(jq -r '.[]' <<< \"$ARG_ps\")" + _EACH, True),
        ('mapfile -t a < <(jq -r \'.[] | ltrimstr("a")\' <<< "$ARG_xs")' + _EACH, True),
        ("ARG_xs=$(cat /tmp/x)\nmapfile -t a < <(jq -r '.[]' <<< \"$ARG_xs\")" + _EACH, True),
    ],
)
def test_the_items_of_an_array_arg(run: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps([run], tmp_path, args=_ARRAYS)
    assert (status == "refused") == refused
