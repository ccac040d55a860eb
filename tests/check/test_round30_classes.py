r"""The classes blind round thirty's attacks found (tests/check/blind34r30,
SCORE.md), each as a rule with fixtures on both sides.

- An unquoted expansion whose value may hold ``*``, ``?`` or ``[`` is a
  pattern bash replaces with the folder's file names: any words, ``-``
  first too (a name the caller's upload made), whatever the value's
  pattern allows.
- curl ``-L`` re-sends a body read from a file a secret was written to
  (``--data-binary @"$f"``), as it does one read from stdin: only an
  ``Authorization:``/``Cookie:`` header or ``-u`` stays with the first
  host.
- Guards: only the last of an ``if``'s conditions decides (``if ! [[ … ]];
  false; then exit 1; fi`` leaves never, and was taken for a guard); a test
  whose fallback gives the same name a literal number (``[[ $n =~ ^[0-9]+$
  ]] || n=0``) leaves it digits either way; a regex with an escaped blank
  (``newest=([0-9]+)\ installed``) is read whole.
- Precision: a guard with any regex bash's ERE and Python's re read alike
  (``^…$`` whole, no ``|``, ``.`` or POSIX class) gives the name the
  regex's texts (``[[ $rev =~ ^[0-9a-f]{7,40}$ ]] && git log "$rev"``),
  also after ``&& cmd 2>/dev/null`` in an ``if``'s condition."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {
    "files": {"type": "string", "pattern": "^[A-Za-z0-9_.*?]+$"},
    "names": {"type": "string", "pattern": "^[A-Za-z0-9_.]+$"},
    "path": {"type": "string", "pattern": "^[a-z0-9/]+$"},
}
_SECRET = {"secrets": {"API_TOKEN": {"env": "CI_API_TOKEN"}}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('cd "$HARBOR_RUN_DIR"\ntar -czf out.tgz $ARG_files', True),
        ("tar -czf out.tgz $ARG_files", True),
        # no glob character in the value, or quoted
        ("tar -czf out.tgz $ARG_names", False),
        ('tar -czf out.tgz -- "$ARG_files"', False),
    ],
)
def test_a_glob_in_a_value(run: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("send", "refused"),
    [
        ('--data-binary @"$body"', True),
        ("--data-binary @$body", True),
        ('-F "f=<$body"', True),
        ('-H "Authorization: Bearer $API_TOKEN"', False),
    ],
)
def test_a_body_from_a_secrets_file_follows(send: str, refused: bool, tmp_path: Path) -> None:
    run = (
        'body="$HARBOR_RUN_DIR/body.txt"\n'
        'printf \'token=%s\' "$API_TOKEN" > "$body"\n'
        f'curl -sS -L {send} "https://api.example.com/v1/$ARG_path"'
    )
    status, _findings = check_steps([run], tmp_path, args=_ARGS, **_SECRET)
    assert (status == "refused") == refused


_FETCHED = "n=$(curl -s https://x.example.com)\n"


@pytest.mark.parametrize(
    ("guard", "refused"),
    [
        ("[[ $n =~ ^[0-9]+$ ]] || n=0", False),
        ("if ! [[ $n =~ ^[0-9]+$ ]]; then exit 1; fi", False),
        ("[[ $n =~ ^[0-9]+$ ]] || m=0", True),
        # n+=0 appends to the caller's text
        ("[[ $n =~ ^[0-9]+$ ]] || n+=0", True),
        ('[[ $n =~ ^[0-9]+$ ]] || n="$ARG_names"', True),
        ("if ! [[ $n =~ ^[0-9]+$ ]]; false; then exit 1; fi", True),
    ],
)
def test_guards_that_hold(guard: str, refused: bool, tmp_path: Path) -> None:
    run = f"{_FETCHED}{guard}\necho $(( n + 1 ))"
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("test", "refused"),
    [
        ("[[ $n =~ ^([0-9]+)\\ items$ ]]", False),
        # quoted text in a regex is literal to bash: "(" is no group
        ('[[ $n =~ ^"("(.*)")"([0-9]+)$ ]]', True),
        # \d is a literal d to bash
        ("[[ $n =~ ^(\\d+)$ ]]", True),
    ],
)
def test_a_regex_read_as_bash_reads_it(test: str, refused: bool, tmp_path: Path) -> None:
    run = f"{_FETCHED}{test} || exit 1\necho $(( ${{BASH_REMATCH[1]}} + 1 ))"
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("script", "refused"),
    [
        ('[[ $n =~ ^[0-9a-f]{7,40}$ ]] || exit 1\ngit log -1 "$n"', False),
        (
            'if [[ $n =~ ^[0-9a-f]{7,40}$ ]] && git cat-file -e "$n" 2>/dev/null; then\n'
            '  git log -1 "$n"\nfi',
            False,
        ),
        # the regex admits a dash, is not anchored, or reads alike only in Python
        ('[[ $n =~ ^[0-9a-f-]{7,40}$ ]] || exit 1\ngit log -1 "$n"', True),
        ('[[ $n =~ [0-9a-f]{7,40} ]] || exit 1\ngit log -1 "$n"', True),
        ('[[ $n =~ ^[[:xdigit:]]+$ ]] || exit 1\ngit log -1 "$n"', True),
        ('[[ $n =~ ^a|b$ ]] || exit 1\ngit log -1 "$n"', True),
    ],
)
def test_a_regex_guard_gives_its_texts(script: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps([_FETCHED + script], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("words", "refused"),
    [
        ("reports/*.json", False),
        # -r as a file: jq prints the raw text
        ("reports/*.json -r", True),
    ],
)
def test_a_count_of_each_file_a_loop_names(words: str, refused: bool, tmp_path: Path) -> None:
    """``jq -r '… | length' "$f"`` of ``for f in reports/*.json``: each file
    starts as the pattern does, so it is no option of jq's; a count."""
    run = f"for f in {words}; do\n  c=$(jq -r '.v | length' \"$f\")\n  echo $(( c + 1 ))\ndone"
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    "sets",
    ["IFS+=,", "for IFS in ,; do :; done", "declare -n sep=IFS\nsep=,", ': "${IFS:=,}"'],
)
def test_ifs_set_without_writing_ifs_equals(sets: str, tmp_path: Path) -> None:
    """IFS set another way (appended, a loop's variable, a name reference,
    ``${IFS:=…}``) splits a value at any character, even one whose pattern
    has blanks or brackets out."""
    args = {"files": {"type": "string", "pattern": "^[^\\s*?\\[]+$"}}
    status, _findings = check_steps([f"{sets}\ntar -czf out.tgz $ARG_files"], tmp_path, args=args)
    assert status == "refused"


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        (".items | length", False),
        ("def length: .[0]; .items | length", True),
        ('include "m"; .items | length', True),
    ],
)
def test_a_jq_count_of_the_callers_file(program: str, refused: bool, tmp_path: Path) -> None:
    """``jq '… | length'`` prints numbers unless the program defines
    ``length`` itself (or takes it from a module): round thirty-two."""
    run = (
        'printf \'%s\' "$ARG_names" > "$HARBOR_RUN_DIR/a.json"\n'
        f"n=$(jq -r '{program}' \"$HARBOR_RUN_DIR/a.json\")\necho $(( n + 1 ))"
    )
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused
