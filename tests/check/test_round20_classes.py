"""The classes blind round twenty's attacks found (tests/check/blind34r20,
SCORE.md), each as a rule with fixtures on both sides.

- A guard leaves only where bash leaves: ``continue``/``break`` in a loop of
  the same function (in a function a loop calls, bash 5.2 says "only
  meaningful in a loop" and goes on), ``return`` only in a function.
- ``/proc/PID/cwd/…`` is the working folder (proc(5)): a write there is a
  write of the working folder, a read there reads what a step may write.
- An unquoted expansion that can split is several words: before ``--``, a
  word after the first may start with ``-`` wherever the first stands (an
  option's attached value, an operand).
- curl ``-L`` re-sends a body after a 307/308: a secret piped into curl is
  kept to the first host only as an ``Authorization:``/``Cookie:`` header
  read with ``-H @-``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {"x": {"type": "string"}, "lines": {"type": "string"}}
_GUARDED_SED = 'sed -n "${n}p" /etc/hostname'


def _status(steps: list[str], tmp_path: Path, **extra: object) -> str:
    status, _findings = check_steps(steps, tmp_path, args=_ARGS, **extra)
    return status


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # continue in a function a loop calls: bash goes on with the value
        (
            f"show() {{ local n=$1; [[ $n =~ ^[0-9]+$ ]] || continue; {_GUARDED_SED}; }}\n"
            'IFS=, read -r -a w <<< "$ARG_lines"\nfor n in "${w[@]}"; do show "$n"; done',
            True,
        ),
        # return leaves the function
        (
            f"show() {{ local n=$1; [[ $n =~ ^[0-9]+$ ]] || return 1; {_GUARDED_SED}; }}\n"
            'IFS=, read -r -a w <<< "$ARG_lines"\nfor n in "${w[@]}"; do show "$n"; done',
            False,
        ),
        # continue in the loop itself
        (
            'IFS=, read -r -a w <<< "$ARG_lines"\n'
            f'for n in "${{w[@]}}"; do [[ $n =~ ^[0-9]+$ ]] || continue; {_GUARDED_SED}; done',
            False,
        ),
        # return at the top of a script fails, and bash goes on
        (f"n=$ARG_lines\n[[ $n =~ ^[0-9]+$ ]] || return 1\n{_GUARDED_SED}", True),
        # a loop around the function's call is not the function's loop
        (
            f"show() {{ [[ $1 =~ ^[0-9]+$ ]] || break; n=$1; {_GUARDED_SED}; }}\n"
            'while read -r n; do show "$n"; done <<< "$ARG_lines"',
            True,
        ),
    ],
)
def test_a_guard_leaves_only_where_bash_leaves(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    "path",
    ["/proc/self/cwd/local.mk", "/proc/$$/cwd/local.mk", "/proc/thread-self/cwd//local.mk"],
)
def test_the_working_folder_through_proc(path: str, tmp_path: Path) -> None:
    steps = [f"printf 'TARGET = %s\\n' \"$ARG_x\" > {path}", "make -s report"]
    assert _status(steps, tmp_path) == "refused"


def test_the_root_through_proc_is_the_root(tmp_path: Path) -> None:
    steps = ["printf 'TARGET = %s\\n' \"$ARG_x\" > /proc/self/root/var/lib/t.mk", "make -s report"]
    assert _status(steps, tmp_path) == "accepted"


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('tar -czf "$HARBOR_RUN_DIR/l.tgz" --exclude=$ARG_x logs', True),
        (
            'opts=(-czf "$HARBOR_RUN_DIR/l.tgz")\nopts+=(--exclude=$ARG_x)\ntar "${opts[@]}" logs',
            True,
        ),
        ("ls -l $ARG_x", True),
        ('tar -czf "$HARBOR_RUN_DIR/l.tgz" "--exclude=$ARG_x" logs', False),
        ("ls -l -- $ARG_x", False),
    ],
)
def test_a_word_that_splits_is_several(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


_SECRET = {"secrets": {"TOKEN": {"env": "T"}}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "printf 'token=%s' \"$TOKEN\" | "
            'curl -fsS -L --data-binary @- "https://api.example.com/$ARG_x"',
            True,
        ),
        (
            "printf 'PRIVATE-TOKEN: %s\\n' \"$TOKEN\" | "
            'curl -fsS -L -H @- "https://api.example.com/$ARG_x"',
            True,
        ),
        (
            "printf 'Authorization: Bearer %s\\n' \"$TOKEN\" | "
            'curl -fsS -L -H @- "https://api.example.com/$ARG_x"',
            False,
        ),
        (
            "printf 'Authorization: Bearer %s\\n' \"$TOKEN\" | "
            'curl -fsS -H @- --data-binary @"$HARBOR_RUN_DIR/b" "https://api.example.com/$ARG_x"',
            False,
        ),
    ],
)
def test_a_body_on_stdin_follows_a_redirect(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path, **_SECRET) == "refused") == refused


# What round twenty's safe set showed (its refusals, mended as classes).


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a command line that prints the credential it takes
        ('GH_TOKEN="$TOKEN" gh auth token', True),
        ('GH_TOKEN="$TOKEN" gh auth status --show-token', True),
        ('VAULT_TOKEN="$TOKEN" vault token lookup', True),
        ('VAULT_TOKEN="$TOKEN" vault print token', True),
        ('AWS_SECRET_ACCESS_KEY="$TOKEN" aws configure get aws_secret_access_key', True),
        # an accessor's lookup prints no id
        ('VAULT_TOKEN="$TOKEN" vault token lookup -format=json -accessor "$ARG_x"', False),
        ('GH_TOKEN="$TOKEN" gh pr list --limit 5', False),
    ],
)
def test_a_command_that_prints_its_credential(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path, **_SECRET) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a function whose every call pipes it into curl -H @-
        (
            "hdr() { printf 'X-Token: %s\\n' \"$TOKEN\"; }\n"
            "hdr | curl -sS -H @- https://api.example.com/a\n"
            "hdr | curl -sS -H @- https://api.example.com/b",
            False,
        ),
        # one call prints it
        (
            "hdr() { printf 'X-Token: %s\\n' \"$TOKEN\"; }\n"
            "hdr | curl -sS -H @- https://api.example.com/a\nhdr",
            True,
        ),
        # one call is captured: what the function prints is then a value
        (
            "hdr() { printf 'X-Token: %s\\n' \"$TOKEN\"; }\n"
            'hdr | curl -sS -H @- https://api.example.com/a\nx=$(hdr | cat)\necho "$x"',
            True,
        ),
    ],
)
def test_what_a_function_prints_goes_where_its_calls_send_it(
    run: str, refused: bool, tmp_path: Path
) -> None:
    assert (_status([run], tmp_path, **_SECRET) == "refused") == refused


def test_a_duplicated_descriptor_is_no_file(tmp_path: Path) -> None:
    """``>&2`` writes no file a secret could be read back from: what
    ``read`` takes from the author's file stays the author's."""
    run = (
        "while read -r role accessor; do\n"
        '  ttl=$(VAULT_TOKEN="$TOKEN" vault token lookup -format=json -accessor "$accessor" '
        "| jq -r .data.ttl)\n"
        '  [[ $ttl =~ ^[0-9]+$ ]] || { echo "$role: no TTL" >&2; continue; }\n'
        '  printf "%s %s\\n" "$role" "$ttl"\n'
        "done < config/accessors.txt"
    )
    assert _status([run], tmp_path, **_SECRET) == "accepted"


def test_a_caller_path_that_climbs_to_a_secret_file(tmp_path: Path) -> None:
    steps = [
        'printf \'header = "Authorization: Bearer %s"\\n\' "$TOKEN" > "$HARBOR_RUN_DIR/c.cfg"',
        'base64 -w 0 -- "$HARBOR_RUN_DIR/reports/$ARG_x"',
    ]
    assert _status(steps, tmp_path, **_SECRET) == "refused"


@pytest.mark.parametrize(
    ("guard", "use", "refused"),
    [
        # a signed digits guard: a number to arithmetic, never an operand
        ("[[ $t =~ ^-?[0-9]+$ ]] || exit 1", "echo $(( t + 1 ))", False),
        ("if [[ ! $t =~ ^[-]?[0-9]{1,9}$ ]]; then exit 1; fi", "(( t < 0 )) && echo neg", False),
        ("[[ $t =~ ^-?[0-9]+$ ]] || exit 1", 'sort "$t" /dev/null', True),
        # any regex bash and Python read alike gives its texts: a sign then digits
        ("[[ $t =~ ^[+-]?[0-9]+$ ]] || exit 1", "echo $(( t + 1 ))", False),
        ("[[ $t =~ ^[a-z+-]?[0-9]+$ ]] || exit 1", "echo $(( t + 1 ))", True),
    ],
)
def test_a_signed_guard(guard: str, use: str, refused: bool, tmp_path: Path) -> None:
    run = f"t=$(curl -s https://api.example.com/n)\n{guard}\n{use}"
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # what a guard shows reaches a name assigned below it
        ("[[ $t =~ ^[0-9]+$ ]] || exit 1\nm=$t\necho $(( m + 1 ))", False),
        ("m=$t\n[[ $t =~ ^[0-9]+$ ]] || exit 1\necho $(( m + 1 ))", True),
        # a group of digits of what =~ matched
        (
            "if [[ ! $t =~ ^v([0-9]+)\\.([0-9]+)$ ]]; then exit 1; fi\n"
            "major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}\necho $(( major + minor ))",
            False,
        ),
        ("if [[ $t =~ ^v([0-9]+)\\.(.+)$ ]]; then echo $(( ${BASH_REMATCH[2]} + 1 )); fi", True),
        # another =~, or a function that may test, between
        (
            "if [[ $t =~ ^v([0-9]+)$ ]]; then [[ x =~ (.*) ]]; "
            "echo $(( ${BASH_REMATCH[1]} + 1 )); fi",
            True,
        ),
        (
            "f() { [[ z =~ (.*) ]]; }\nif [[ $t =~ ^v([0-9]+)$ ]]; then f; "
            "echo $(( ${BASH_REMATCH[1]} + 1 )); fi",
            True,
        ),
        # a literal parenthesis is no group
        ("if [[ $t =~ ^v(\\([0-9]+)$ ]]; then echo $(( ${BASH_REMATCH[1]} + 1 )); fi", True),
    ],
)
def test_digits_a_match_shows(run: str, refused: bool, tmp_path: Path) -> None:
    run = f"t=$(curl -s https://api.example.com/v)\n{run}"
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("pattern", "run", "refused"),
    [
        # a pattern's literal start is the author's scheme and host
        (r"^https://(www|docs)\.example\.com/[a-z/]*$", 'curl -sS -- "$ARG_u"', False),
        (r"^https://(www|docs)\.example\.com/[a-z/]*$", 'u="$ARG_u"\ncurl -sS -- "$u"', False),
        (r"^(https|file)://[a-z/.]*$", 'curl -sS -- "$ARG_u"', True),
        (r"(?i)^https://[a-z/.]*$", 'curl -sS -- "$ARG_u"', True),
        # bash cuts the start away: no longer the author's
        (r"^https://(www|docs)\.example\.com/[a-z/]*$", 'curl -sS -- "${ARG_u#https://}"', True),
    ],
)
def test_a_patterns_literal_start(pattern: str, run: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps(
        [run], tmp_path, args={"u": {"type": "string", "pattern": pattern}}
    )
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('GH_TOKEN="$TOKEN" gh api "repos/example/$ARG_x/branches/main/protection"', False),
        ('GH_TOKEN="$TOKEN" gh api repos/example/r/issues -f "body=$ARG_x"', False),
        # a whole endpoint of the caller's may be a URL whose host gets the token
        ('GH_TOKEN="$TOKEN" gh api "$ARG_x"', True),
        ('GH_TOKEN="$TOKEN" gh api "repos$ARG_x"', True),
        # -F reads @FILE, --input a file; --verbose prints the request
        ('GH_TOKEN="$TOKEN" gh api repos/example/r/issues -F "body=$ARG_x"', True),
        ('GH_TOKEN="$TOKEN" gh api --verbose repos/example/r', True),
    ],
)
def test_gh_api(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path, **_SECRET) == "refused") == refused


# Round twenty-one's classes (tests/check/blind34r21/SCORE.md).


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # an integer variable evaluates the loop's words as arithmetic
        ('first=$ARG_x\ndeclare -i n\nfor n in first; do sed -n "${n}p" /etc/hostname; done', True),
        ("declare -i start\nfor start in page; do echo $(( start * 10 )); done", False),
        # continue in a piped brace group or a subshell leaves no loop
        (
            'IFS=, read -r -a w <<< "$ARG_lines"\nfor n in "${w[@]}"; do\n'
            '  { [[ $n =~ ^[0-9]+$ ]] || continue; sed -n "${n}p" /etc/hostname; } | cat\ndone',
            True,
        ),
        (
            'IFS=, read -r -a w <<< "$ARG_lines"\nfor n in "${w[@]}"; do\n'
            '  ( [[ $n =~ ^[0-9]+$ ]] || continue; sed -n "${n}p" /etc/hostname )\ndone',
            True,
        ),
        # a function named exit returns
        (
            'exit() { echo "bye $1" >&2; }\nn=$ARG_lines\n'
            '[[ $n =~ ^[0-9]+$ ]] || exit 2\nsed -n "${n}p" /etc/hostname',
            True,
        ),
        ('n=$ARG_lines\n[[ $n =~ ^[0-9]+$ ]] || exit 2\nsed -n "${n}p" /etc/hostname', False),
        # a guard on a quoted name is a guard
        ('n=$ARG_lines\n[[ "$n" =~ ^[0-9]+$ ]] || exit 2\nsed -n "${n}p" /etc/hostname', False),
        # what read takes from a here-string of the author's text is the author's
        (
            'v=$(git describe --tags)\nIFS=. read -r major minor <<< "${v#v}"\n'
            "echo $(( major + 1 ))",
            False,
        ),
        (
            'v=$(curl -s https://api.example.com/v)\nIFS=. read -r major minor <<< "$v"\n'
            "echo $(( major + 1 ))",
            True,
        ),
        # unset of a map's element, quoted: the key expanded once, as a string
        ("declare -A m=([a]=1)\nk=$(curl -s https://x.example.com)\nunset 'm[$k]'", False),
        ('declare -A m=([a]=1)\nk=$(curl -s https://x.example.com)\nunset "m[$k]"', True),
        ("declare -a m=(1)\nk=$(curl -s https://x.example.com)\nunset 'm[$k]'", True),
    ],
)
def test_round_twenty_one(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("between", "refused"),
    [
        # what runs between a guard and the use may set the name again
        ("set_n", True),
        ("outer", True),
        ('eval "n=$(curl -s https://x.example.com)"', True),
        ("source ./lib.sh", True),
        # a function that does not touch it leaves the guard standing
        ("say hi", False),
    ],
)
def test_what_runs_between_a_guard_and_its_use(between: str, refused: bool, tmp_path: Path) -> None:
    run = (
        "set_n() { n=$(curl -s https://x.example.com); }\nouter() { set_n; }\n"
        'say() { printf "%s\\n" "$1"; }\n'
        "n=$(curl -s https://x.example.com/a)\n[[ $n =~ ^[0-9]+$ ]] || exit 1\n"
        f"{between}\necho $(( n + 1 ))"
    )
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # two dashes then no option name's first character: no option
        ('echo "--- values: revision $ARG_x"', False),
        ('grep -c "-- $ARG_x" /etc/hostname', False),
        # echo's options (-n, -e, -E) change only what it prints
        ('echo "-e $ARG_x"', False),
        ('echo "--time $ARG_x is over"', False),
        # a cluster of letters is read one by one: the caller's may be options
        ('sed "-e $ARG_x" /etc/hostname', True),
        ('sort "--$ARG_x" /dev/null', True),
    ],
)
def test_a_word_no_option_starts_so(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("du", "refused"),
    [
        ("du -sk logs | cut -f1", False),
        ("du -sm logs data | cut -f1", False),
        # a unit, another field, a name of the caller's or a glob's
        ("du -sh logs | cut -f1", True),
        ("du -sk logs | cut -f2", True),
        ('du -sk "$ARG_x" | cut -f1', True),
        ("du -sk * | cut -f1", True),
    ],
)
def test_the_size_du_prints(du: str, refused: bool, tmp_path: Path) -> None:
    run = f'cd "$HARBOR_RUN_DIR"\nn=$({du})\necho $(( n + 1 ))'
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("capture", "refused"),
    [
        # a capture of a file a secret was written to holds the secret
        ('x=$(cat "$HARBOR_RUN_DIR/t")', True),
        ('f="$HARBOR_RUN_DIR/t"\nx=$(rev < "$f")', True),
        ('x=$(cat "$HARBOR_RUN_DIR/t" | base64)', True),
        # read as a credential file, it is the answer
        ('x=$(curl -sS -K "$HARBOR_RUN_DIR/t" https://api.example.com/v)', False),
    ],
)
def test_a_capture_of_a_secrets_file(capture: str, refused: bool, tmp_path: Path) -> None:
    run = (
        'printf \'header = "Authorization: Bearer %s"\\n\' "$TOKEN" > "$HARBOR_RUN_DIR/t"\n'
        f'{capture}\nprintf "%s\\n" "$x"'
    )
    assert (_status([run], tmp_path, **_SECRET) == "refused") == refused


# Round twenty-two's class: a guarded name written again in a way that does
# not look like a write of it.


@pytest.mark.parametrize(
    ("between", "refused"),
    [
        ("printf -v 'n[0]' %s \"$ARG_x\"", True),
        ('n[0]="$ARG_x"', True),
        ('IFS= read -r n <<< "$ARG_x"', True),
        ("mapfile -t n < <(curl -s https://x.example.com)", True),
        ("(( n = x ))", True),
        ("x=$(( n += 1 ))", True),
        # in another function, which bash applies to the caller's local
        ("set_n", True),
        ("(( m = n + 1 ))", False),
    ],
)
def test_a_guarded_name_written_again(between: str, refused: bool, tmp_path: Path) -> None:
    run = (
        'set_n() { IFS= read -r n <<< "$ARG_x"; }\nx=$ARG_x\n'
        "n=$(curl -s https://x.example.com/a)\n"
        f'[[ "$n" =~ ^[0-9]+$ ]] || exit 1\n{between}\nsed -n "${{n}}p" /etc/hostname'
    )
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("then", "refused"),
    [
        # a file no step wrote a secret to: what read takes is not one
        ('read -r x < config/a.txt\nprintf "%s\\n" "$x"', False),
        (
            'read -r x < <(curl -sS -K "$HARBOR_RUN_DIR/t" https://a.example.com)\n'
            'printf "%s\\n" "$x"',
            False,
        ),
        # the secret's file, read back, or copied first into another
        ('read -r x < "$HARBOR_RUN_DIR/t"\nprintf "%s\\n" "$x"', True),
        ('read -r x < <(rev "$HARBOR_RUN_DIR/t")\nprintf "%s\\n" "$x"', True),
        (
            'cat "$HARBOR_RUN_DIR/t" | tr a b > "$HARBOR_RUN_DIR/u"\n'
            'read -r x < "$HARBOR_RUN_DIR/u"\nprintf "%s\\n" "$x"',
            True,
        ),
        (
            'cp "$HARBOR_RUN_DIR/t" "$HARBOR_RUN_DIR/u"\n'
            'read -r x < "$HARBOR_RUN_DIR/u"\nprintf "%s\\n" "$x"',
            True,
        ),
    ],
)
def test_reads_beside_a_secrets_file(then: str, refused: bool, tmp_path: Path) -> None:
    run = (
        f'printf \'header = "Authorization: Bearer %s"\\n\' "$TOKEN" > "$HARBOR_RUN_DIR/t"\n{then}'
    )
    assert (_status([run], tmp_path, **_SECRET) == "refused") == refused


# Round twenty-three's classes: text bash runs between any two commands, and
# a guard that leaves nothing.


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # an ERR trap rewrites the guarded name, or BASH_REMATCH
        (
            "set +e\ntrap 'n=$ARG_x' ERR\nn=$(curl -s https://x.example.com)\n"
            '[[ $n =~ ^[0-9]+$ ]] || exit 1\ngrep -q x /etc/hostname\nsed -n "${n}p" /etc/hostname',
            True,
        ),
        (
            "set +e\ntrap '[[ $ARG_x =~ ^(.*)$ ]]' ERR\nt=$(curl -s https://x.example.com)\n"
            "[[ $t =~ ^v([0-9]+)$ ]] || exit 1\ngrep -q x /etc/hostname\n"
            'sed -n "${BASH_REMATCH[1]}p" /etc/hostname',
            True,
        ),
        # exit turned off, or run in the background
        (
            'enable -n exit\nn=$ARG_lines\n[[ "$n" =~ ^[0-9]+$ ]] || exit 1\n'
            'sed -n "${n}p" /etc/hostname',
            True,
        ),
        (
            'n=$ARG_lines\n[[ "$n" =~ ^[0-9]+$ ]] || exit 1 &\nwait\nsed -n "${n}p" /etc/hostname',
            True,
        ),
    ],
)
def test_round_twenty_three(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    "then",
    [
        # a copy by dd, a path with .. in it, a read through a descriptor
        'dd if="$HARBOR_RUN_DIR/t" of="$HARBOR_RUN_DIR/u" status=none\nrev < "$HARBOR_RUN_DIR/u"',
        'mkdir -p "$HARBOR_RUN_DIR/r"\nrev "$HARBOR_RUN_DIR/r/../t"',
        'exec 7< "$HARBOR_RUN_DIR/t"\nIFS= read -r line < /dev/fd/7\nrev <<< "$line"',
        'exec 7< "$HARBOR_RUN_DIR/t"\nIFS= read -r -u 7 line\nrev <<< "$line"',
    ],
)
def test_a_secrets_file_under_another_name(then: str, tmp_path: Path) -> None:
    run = (
        f'printf \'header = "Authorization: Bearer %s"\\n\' "$TOKEN" > "$HARBOR_RUN_DIR/t"\n{then}'
    )
    assert _status([run], tmp_path, **_SECRET) == "refused"


def test_terraform_state_show_of_an_address(tmp_path: Path) -> None:
    """A grammar for terraform's readers: `-chdir=` of the author's folder
    (an enum in it), an address after ``--`` is data."""
    run = (
        'dir="infra/terraform/$ARG_env"\nterraform -chdir="$dir" state list\n'
        'terraform -chdir="$dir" state show -no-color -- "$ARG_x"'
    )
    status, _findings = check_steps(
        [run],
        tmp_path,
        args={
            "env": {"type": "string", "enum": ["staging", "production"]},
            "x": {"type": "string", "pattern": "^[a-z_]+\\.[a-z_]+$"},
        },
    )
    assert status == "accepted"


@pytest.mark.parametrize(
    ("pipeline", "refused"),
    [
        # the count uniq -c puts first, through sort and head -n
        ("uniq -c | sort -rn | head -n 5 | while read -r n w", False),
        ("sort | uniq -c | while read -r n w", False),
        # a lone name takes the whole line; -c cuts a line; other fields
        ("uniq -c | while read -r n", True),
        ("uniq -c | tail -c 20 | while read -r n w", True),
        ("uniq -c | while IFS=: read -r n w", True),
        ("uniq | while read -r n w", True),
        # the count is the first field only where IFS splits at its blank
        ("uniq -c | while IFS=$' \\t' read -r n w", False),
        ("IFS=,; uniq -c | while read -r n w", True),
        ("X=,; uniq -c | while read -r n w", False),
        ("local IFS=,; uniq -c | while read -r n w", True),
        ("local X=,; uniq -c | while read -r n w", False),
        ("printf -v IFS %s ,; uniq -c | while read -r n w", True),
        ("eval 'I''FS=,'; uniq -c | while read -r n w", True),
        ("eval 'X=,'; uniq -c | while read -r n w", False),
    ],
)
def test_lines_that_start_with_a_number(pipeline: str, refused: bool, tmp_path: Path) -> None:
    before, _, pipeline = pipeline.rpartition("; ")
    run = f"curl -s https://x.example.com | {pipeline}; do echo $(( n + 1 )); done"
    if before:
        run = f"f() {{ {before}; {run}; }}\nf"
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('read -r n _ < <(wc -l -- "$HARBOR_RUN_DIR/$ARG_x")', False),
        ('IFS=,\nread -r n _ < <(wc -l -- "$HARBOR_RUN_DIR/$ARG_x")', True),
        ('IFS=, read -r n _ < <(wc -l -- "$HARBOR_RUN_DIR/$ARG_x")', True),
        ('X=,\nread -r n _ < <(wc -l -- "$HARBOR_RUN_DIR/$ARG_x")', False),
    ],
)
def test_a_count_and_its_file_name_split_at_ifs(run: str, refused: bool, tmp_path: Path) -> None:
    """``wc -l FILE`` prints the count, a blank and the (caller's) name:
    the first name ``read`` takes is the count only where IFS splits at
    that blank (an ``IFS=,`` anywhere else makes it the whole line)."""
    assert (_status([run + "\necho $(( n + 1 ))"], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a positional parameter in a builtin's subscript, of a local array
        (
            "declare -A m=([a]=1)\ndrop() { local -a m=(a b); unset 'm[$1]'; }\ndrop \"$ARG_x\"",
            True,
        ),
        # set -- in a function that runs "$@": not the words a call passes
        (
            'run() { [[ $1 == awk ]] && set -- awk "$ARG_x"; "$@" /dev/null; }\nrun wc -l',
            True,
        ),
        ('run() { set -euo pipefail; "$@" /dev/null; }\nrun wc -l', False),
    ],
)
def test_round_twenty_five(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a function named as a program runs in its place
        ('cut() { printf "%s\\n" "$ARG_x"; }\nn=$(du -sk /etc | cut -f1)\necho $(( n + 1 ))', True),
        ('cat() { printf "%s\\n" "$ARG_x"; }\nx=$(cat /etc/hostname)\necho "$x"', True),
        ('curl() { echo "$@"; }\ncurl -sS https://a.example.com', True),
        ("read() { :; }\nread -r x <<< hi", True),
        # a name no program or builtin has
        ('log() { printf "%s\\n" "$*" >&2; }\nlog "$ARG_x"', False),
    ],
)
def test_a_function_named_as_a_program(run: str, refused: bool, tmp_path: Path) -> None:
    assert (_status([run], tmp_path) == "refused") == refused


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # IFS=, makes `a,--output=F` two words: the second an option of git log
        ("IFS=,\ngit log $ARG_x", True),
        ("git log $ARG_x", False),
        ('IFS=,\ngit log "$ARG_x"', False),
        ("IFS=, read -r a b <<< x\ngit log $ARG_x", False),
    ],
)
def test_an_ifs_the_script_sets_splits_at_any_character(
    run: str, refused: bool, tmp_path: Path
) -> None:
    """Where the script may set IFS (other than before one ``read``), an
    unquoted expansion may split at any character of its value, so a word
    after the first may start with ``-`` although the value may not."""
    status, _ = check_steps(
        [run], tmp_path, args={"x": {"type": "string", "pattern": "^[a-z][a-z,=-]*$"}}
    )
    assert (status == "refused") == refused
