"""Inside ``for NAME in WORDS``, NAME holds the loop's word where nothing
else can have set it (issue 34, rule 4: precision from the value's
language): a name the script also ``read``s elsewhere keeps, in the loop,
the model of the loop's words (the author's, or file names that start as
the pattern does). Every other write of it in the loop, in a function, or
through a name turns that off. And ``printf -v NAME %s WORD``: NAME holds
the word, not the command's text (``printf -v …`` is no prefix of it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {"flag": {"type": "boolean"}}
_FETCHED = "$(curl -s https://example.com/x)"


def _status(run: str, tmp_path: Path) -> str:
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    return status


def test_the_loops_word_where_the_name_is_also_read_elsewhere(tmp_path: Path) -> None:
    run = (
        "while IFS=$'\\t' read -r wf uses; do printf '%s %s\\n' \"$wf\" \"$uses\"; done < <(\n"
        '  for wf in .github/workflows/*.yml; do yq -r --arg wf "${wf##*/}" . "$wf"; done)'
    )
    assert _status(run, tmp_path) == "accepted"


@pytest.mark.parametrize(
    "write",
    [
        "read -r wf < <(curl -s https://example.com/x)",
        "read -r x wf < <(curl -s https://example.com/x)",
        f': "${{wf:={_FETCHED}}}"',
        f'printf -v wf %s "{_FETCHED}"',
        f"printf -v 'wf' %s \"{_FETCHED}\"",
        "mapfile -t wf < <(curl -s https://example.com/x)",
        f"declare -n r=wf; r={_FETCHED}",
        f"wf={_FETCHED}",
        f'eval "wf={_FETCHED}"',
        "set_it",
        # text the shell runs later may set any name
        "source ./lib.sh",
        'eval "echo hi"',
        "trap 'echo x' EXIT",
    ],
)
def test_another_write_of_the_name_in_the_loop_counts(write: str, tmp_path: Path) -> None:
    run = (
        f"set_it() {{ wf={_FETCHED}; }}\n"
        f'for wf in logs/*.log; do\n  {write}\n  sort "$wf" /dev/null\ndone'
    )
    assert _status(run, tmp_path) == "refused"


def test_a_glob_without_a_literal_lead_is_any_name(tmp_path: Path) -> None:
    run = 'cd "$HARBOR_RUN_DIR"\nfor f in *.log; do sort "$f" /dev/null; done'
    assert _status(run, tmp_path) == "refused"


def test_printf_v_holds_the_word_not_the_command(tmp_path: Path) -> None:
    # accepted before: the model began with the command's own text
    run = f'printf -v wf %s "{_FETCHED}"\nsort "$wf" /dev/null'
    assert _status(run, tmp_path) == "refused"
    run = f'printf -v wf %s "logs/{_FETCHED}"\nsort "$wf" /dev/null'
    assert _status(run, tmp_path) == "accepted"
