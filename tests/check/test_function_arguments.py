"""A function's positional parameters (issue 34: "a retry function wrapping
a command with data operands" is a safe idiom). ``$k`` is the author's only
where every way the script can run the function passes a literal there and
no ``shift``/``set`` can have moved it; a function that runs ``"$@"`` after
shifting literal words away runs the command line after them. Every
accepted case runs under real bash with the oracle's payloads: none runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from tests.check import _sandbox
from tests.check._harness import Case, write
from tests.check.test_oracle import ATTACKS

RETRY = (
    "retry() {\n"
    "  local tries=$1; shift\n"
    "  local i\n"
    "  for ((i = 1; i <= tries; i++)); do\n"
    '    if "$@"; then return 0; fi\n'
    "  done\n"
    "  return 1\n"
    "}\n"
)

SAFE = {
    "retry-data-operand": RETRY + 'retry 3 grep -c -- "$ARG_x" /dev/null',
    "retry-shift-2": (
        'twice() { local n=$1 pause=$2; shift 2; for ((i = 0; i < n; i++)); do "$@" || '
        'sleep "$pause"; done; }\n'
        'twice 2 0 printf "%s\\n" "$ARG_x"'
    ),
    "literal-arithmetic": 'add() { echo $(( $1 + 1 )); }\nadd 3\nadd 41\necho "$ARG_x"',
    "braced-literal": 'add() { echo $(( ${1} + 1 )); }\nadd 3\nprintf "%s\\n" "$ARG_x"',
    # $k is each call's k-th word (each word before it one word): $2 is
    # the author's path whatever $1 holds
    "kth-word": (
        'show() { printf \'%s\\n\' "$1"; head -n 1 "$2"; }\n'
        'show "$(cat /etc/hostname)" /etc/hostname\nshow "$ARG_x" /etc/passwd'
    ),
    # "$@" passed on: each call is checked as the command line it makes,
    # where the caller's words are option values
    "passed-on": (
        'count() { grep -c "$@" /etc/hostname || true; }\n'
        'count -e "$ARG_x"\ncount -e "$(cat /etc/hostname)"'
    ),
    # an element of a map of the author's, whichever key: the author's
    "map-element": (
        "declare -A files=([a]=/etc/hostname [b]=/etc/passwd)\n"
        'show() { head -n 1 "$1"; }\nk=$(cat /etc/hostname)\nshow "${files[$k]}"\n'
        'printf "%s\\n" "$ARG_x"'
    ),
    # a program's operand that only spells the name runs no function
    "spelled-name": (
        'tag() { head -n 1 "$1"; }\ntag /etc/hostname\nprintf "%s %s\\n" tag "$ARG_x"'
    ),
}

DANGEROUS = {
    "retry-caller-count": RETRY + 'retry "$ARG_x" true',
    "retry-caller-program": RETRY + 'retry 3 "$ARG_x" --version',
    "retry-shell": RETRY + 'retry 3 sh -c "$ARG_x"',
    "no-shift-program": 'run() { local n=$1; "$@"; }\nrun 3 sh -c "$ARG_x"',
    "one-caller-call": 'add() { echo $(( $1 + 1 )); }\nadd 3\nadd "$ARG_x"',
    "after-shift": 'add() { shift; echo $(( $1 + 1 )); }\nadd 3 "$ARG_x"',
    "shift-in-loop": (
        'add() { while [ $# -gt 0 ]; do echo $(( $1 + 1 )); shift; done; }\nadd 3 "$ARG_x"'
    ),
    "set-in-function": 'add() { set -- "$ARG_x"; echo $(( $1 + 1 )); }\nadd 3',
    "trap-call": "trap 'add \"$ARG_x\"' EXIT\nadd() { echo $(( $1 + 1 )); }\nadd 3",
    # every call counts, not the first that passes caller data
    "later-call": 'f() { sort $1 /dev/null; }\nf "$ARG_e"\nf "$(cat "$HARBOR_RUN_DIR/x")"',
    # the whole word passed: the author's dash before the caller's text
    "dash-before": 'f() { sort "$1" /dev/null; }\nf "$ARG_e"\nf "--compress-program=$ARG_x"',
    "passed-on-later": (
        'api() { sort "$@" /dev/null; }\napi "$ARG_e"\napi "$(cat "$HARBOR_RUN_DIR/x")"'
    ),
    "passed-on-through-variable": (
        'g() { sort "$@" /dev/null; }\nh=g\ng -r\n"$h" "$(cat "$HARBOR_RUN_DIR/x")"'
    ),
    "exported-function": (
        'f() { sort "$1" /dev/null; }\nf -r\nexport -f f\n'
        'bash -c \'f "$1"\' _ "$(cat "$HARBOR_RUN_DIR/x")"'
    ),
    "map-written-by-read": (
        "declare -A files=([a]=/etc/hostname)\n"
        'IFS= read -r "files[a]" < "$HARBOR_RUN_DIR/x"\n'
        'k=$(cat /etc/hostname)\nsort "${files[$k]}" /dev/null'
    ),
    "alias-call": (
        "shopt -s expand_aliases\nalias plus=add\nadd() { echo $(( $1 + 1 )); }\nadd 3\n"
        'plus "$ARG_x"'
    ),
    "command-call": 'add() { echo $(( $1 + 1 )); }\nadd 3\ncommand add "$ARG_x"',
    "forwarded": 'add() { echo $(( $1 + 1 )); }\nmain() { add "$@"; }\nmain "$ARG_x"',
    "wrapper-call": RETRY + 'add() { echo $(( $1 + 1 )); }\nadd 3\nretry 1 add "$ARG_x"',
    "split-before": "add() { echo $(( $2 + 1 )); }\nadd $ARG_x 3",
    "glob-before": 'add() { echo $(( $2 + 1 )); }\nadd * 3\necho "$ARG_x" > "$ARG_x.txt"',
    "defined-twice": (
        'add() { echo $(( $1 + 1 )); }\nadd 3\nadd() { echo $(( $1 + 2 )); }\nadd "$ARG_x"'
    ),
}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _sandbox.build(tmp_path_factory.mktemp("functions"))


@pytest.mark.parametrize("name", sorted(SAFE))
def test_literal_arguments_are_the_authors(
    name: str, sandbox: dict[str, str], tmp_path: Path
) -> None:
    path = write(Case(name, False, run=SAFE[name]), tmp_path)
    report = check_export(load_export(path))
    assert report.status == "accepted", [f.message for f in report.findings]
    _sandbox.assert_no_payload_runs(load_export(path), ATTACKS, sandbox, tmp_path / "work", name)


@pytest.mark.parametrize("name", sorted(DANGEROUS))
def test_what_the_caller_can_reach_is_refused(
    name: str, sandbox: dict[str, str], tmp_path: Path
) -> None:
    # (an enum arg where a case passes the author's word first)
    args = {"x": "S", "e": "E"} if "$ARG_e" in DANGEROUS[name] else {"x": "S"}
    path = write(Case(name, True, run=DANGEROUS[name], args=args), tmp_path)
    assert check_export(load_export(path)).status == "refused"
