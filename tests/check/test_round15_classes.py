"""The classes round fifteen (tests/check/blind34r15) showed, each with the
safe form accepted and the dangerous neighbour refused:

- bash as the authority: a probe after a blank in double quotes (tree-sitter
  starts the substitution at the blank), and a place in arithmetic, where
  tree-sitter cannot read a probe: bash must expand it too;
- ``${#a[@]}`` in arithmetic is a count, not the elements;
- ``(( t = start ))`` stores the number computed;
- ``printf 'a=%s\\nb=%s\\n' "$a" "$b"`` writes two step outputs, each what
  its value holds; ``git rev-list -n 1`` prints object names;
- ``read -r total _ < <(wc -l -- "$f")``: the first field is a count;
- ``date -d DATE +%s`` may be negative (before 1970);
- ``wget -e SETTING`` may turn on printing of the request.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.check._harness import check_steps


def _check(
    steps: list[str], tmp_path: Path, *, args: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, list[str]]:
    return check_steps(steps, tmp_path, args=args, **extra)


_PATH = {"path": {"type": "string", "within": "."}}
_EXT = {"ext": {"type": "string", "pattern": "^[a-z0-9]+$"}}


@pytest.mark.parametrize(
    "run",
    [
        'echo "OK  $ARG_path  done"',
        'key="kind ${ARG_path:-none}"\necho "$key"',
        'n=$(wc -l < "$ARG_path")\nif (( ${#ARG_path} > 72 )); then echo long; fi',
        "for (( i = 0; i < ${#ARG_path}; i++ )); do :; done",
    ],
)
def test_bash_and_tree_sitter_agree_on_these_places(run: str, tmp_path: Path) -> None:
    status, findings = _check([run], tmp_path, args=_PATH)
    assert status == "accepted", findings
    # and bash reads them the same: the script runs
    done = subprocess.run(
        ["bash", "-n", "-c", run.replace("$ARG_path", "$p")],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_place_in_arithmetic_is_still_refused_as_code(tmp_path: Path) -> None:
    """The arithmetic probe confirms where bash reads; what the value does
    there is still judged (a string in arithmetic is code)."""
    status, findings = _check(["(( ARG_path > 1 )) && echo big"], tmp_path, args=_PATH)
    assert status == "refused", findings
    assert any(f.startswith("H006") for f in findings), findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            'mapfile -t files < <(git ls-files -- "*.$ARG_ext")\n'
            "(( ${#files[@]} > 0 )) && echo some",
            False,
        ),
        (
            'mapfile -t files < <(git ls-files -- "*.$ARG_ext")\n(( files[0] > 0 )) && echo some',
            True,
        ),
        # (( t = start )): t holds the number bash computed
        (
            'start=$(git log -1 --format=%ct -- "*.$ARG_ext")\n'
            "for (( t = start; t > 0; t -= 86400 )); do :; done",
            False,
        ),
        # t=start: t holds the text "start", evaluated again later
        ('read -r start < "$HARBOR_RUN_DIR/x"\nt=start\n(( t > 0 )) && echo y', True),
        ('read -r total _ < <(wc -l -- "*.$ARG_ext")\n(( total > 1 )) && echo big', False),
        ('read -r total _ < <(wc -l "*.$ARG_ext")\n(( total > 1 )) && echo big', True),
        ('read -r total < <(wc -l -- "*.$ARG_ext")\n(( total > 1 )) && echo big', True),
        ('read -r total _ < <(cat -- "*.$ARG_ext")\n(( total > 1 )) && echo big', True),
    ],
)
def test_numbers_bash_computes_or_counts(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _check([run], tmp_path, args=_EXT)
    assert (status == "refused") == refused, findings


_REV = {"rev": {"type": "string", "pattern": "^[A-Za-z0-9._/-]+$"}}
_RESOLVE = (
    'a=$(git rev-parse --verify --quiet --end-of-options "$ARG_rev^{commit}")\n'
    'b=$(git rev-list -n 1 "refs/tags/$ARG_rev")\n'
)


@pytest.mark.parametrize(
    ("write", "refused"),
    [
        ('printf \'from=%s\\nto=%s\\n\' "$a" "$b" >> "$HARBOR_STEP_OUTPUT"', False),
        ('printf \'from=%s\\n\' "$a" >> "$HARBOR_STEP_OUTPUT"', False),
        # the caller's text itself, which may start with -
        ('printf \'from=%s\\nto=%s\\n\' "$a" "$ARG_rev" >> "$HARBOR_STEP_OUTPUT"', True),
        # %b: escapes decoded, a line break and a second key may come out
        ('printf \'from=%b\\n\' "$a" >> "$HARBOR_STEP_OUTPUT"', True),
    ],
)
def test_step_outputs_of_object_names(write: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _check(
        [_RESOLVE + write, 'git log --format=%s "$STEP_s0_from..HEAD"'],
        tmp_path,
        args={"rev": {"type": "string", "pattern": "^[A-Za-z0-9._/-]+$", "leading_dash": True}},
    )
    assert (status == "refused") == refused, findings


def test_a_date_given_may_be_before_1970(tmp_path: Path) -> None:
    day = {"day": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}
    before = subprocess.run(
        ["date", "-u", "-d", "1900-01-01", "+%s"], capture_output=True, text=True, check=True
    )
    assert before.stdout.startswith("-")
    status, findings = _check(
        ['s=$(date -u -d "$ARG_day" +%s)\nkill -s TERM "$s"'], tmp_path, args=day
    )
    assert status == "refused", findings
    status, findings = _check(['s=$(date -u +%s)\nkill -s TERM "$s"'], tmp_path, args=day)
    assert status == "accepted", findings


_TOKEN = {"secrets": {"API_TOKEN": {"env": "CI_API_TOKEN"}}}


@pytest.mark.parametrize(
    ("setting", "refused"),
    [
        ("", False),
        ("-e robots=off", False),
        ("-e debug=on", True),
        ("--execute=save_headers=on", True),
        ("-edebug=on", True),
    ],
)
def test_a_wget_setting_may_print_the_request(setting: str, refused: bool, tmp_path: Path) -> None:
    run = (
        f'wget -nv {setting} -O "$HARBOR_RUN_DIR/x.json" '
        '--header "Authorization: Bearer $API_TOKEN" https://api.example.com/v1/x'
    )
    status, findings = _check([run], tmp_path, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a file no step can write is the author's, and so is what awk's
        # BEGIN alone computes from the author's values
        (
            "read -r l1 l5 _ < /proc/loadavg\n"
            'pct=$(awk -v l="$l5" -v c="$(nproc)" \'BEGIN { printf "%d", 100 * l / c }\')\n'
            "(( pct > 90 )) && echo busy",
            False,
        ),
        # a file a step may have written
        ('read -r l1 l5 _ < "$HARBOR_RUN_DIR/load"\n(( l5 > 90 )) && echo busy', True),
        # awk that also reads its input (the caller's, on a pipe)
        (
            "read -r l1 l5 _ < /proc/loadavg\n"
            "pct=$(awk -v l=\"$l5\" 'BEGIN { x = l } { print $1 }')\n"
            "(( pct > 90 )) && echo busy",
            True,
        ),
        # a value of the caller's given to awk
        (
            'pct=$(awk -v l="$ARG_path" \'BEGIN { printf "%d", l }\')\n(( pct > 90 )) && echo busy',
            True,
        ),
    ],
)
def test_what_the_authors_files_and_values_compute(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = _check([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings
