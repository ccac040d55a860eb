"""Text a builtin evaluates when it runs, not where bash parses the script
(round six of the blind attacks): the subscript of a name ``unset``, ``test
-v``, ``[[ -v ]]``, ``printf -v`` and ``read`` take, ``let``'s quoted
expression, a write through a name reference (``declare -n``), and the ways
to export behind ``builtin``/``command`` or in a bundle of ``set`` flags.
Quoted, none of it is an expansion for the parser; every name in it is read
as arithmetic (or exported) when the builtin runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import Case, check

DANGEROUS = {
    "unset": "q=(a b c)\ni=\"$ARG_x\"\nunset 'q[$i]'",
    "test-v": "q=(a b c)\ni=\"$ARG_x\"\ntest -v 'q[$i]' && echo yes",
    "bracket-v": "q=(a b c)\ni=\"$ARG_x\"\n[ -v 'q[$i]' ] && echo yes",
    "dbl-bracket-v": "q=(a b c)\ni=\"$ARG_x\"\n[[ -v 'q[$i]' ]] && echo yes",
    "printf-v": "q=(a b c)\ni=\"$ARG_x\"\nprintf -v 'q[$i]' '%s' x",
    "read": "q=()\ni=\"$ARG_x\"\nread -r 'q[$i]' <<< x",
    "let-name": "total=1\nlet 'total += ARG_x'",
    "let-dollar": 'total=1\nlet "total += $ARG_x"',
    "declare-subscript": "i=\"$ARG_x\"\ndeclare 'q[$i]=1'",
    "nameref": (
        "declare -i max=10\nset_to() { declare -n target=$1; target=$2; }\n"
        'set_to max "$ARG_x"\necho "$max"'
    ),
    "nameref-read": 'declare -i max=10\ndeclare -n ref=max\nread -r ref <<< "$ARG_x"',
    "builtin-export": 'builtin export TARGET="$ARG_x"\nmake -s report',
    "command-export": 'command export TARGET="$ARG_x"\nmake -s report',
    "set-bundle": 'set -euao pipefail\nTARGET="$ARG_x"\nmake -s report',
}

SAFE = {
    "unset-literal": "q=(a b c)\nunset 'q[1]'\nprintf '%s\\n' \"$ARG_x\"",
    "let-own": 'total=1\nlet "total += 2"\nprintf "%s\\n" "$total" "$ARG_x"',
    "test-v-own": "q=(a b)\nk=1\ntest -v 'q[$k]' && printf '%s\\n' \"$ARG_x\"",
    "export-own": "builtin export TARGET=app\nprintf '%s\\n' \"$ARG_x\"",
}


@pytest.mark.parametrize("name", sorted(DANGEROUS))
def test_caller_data_evaluated_by_a_builtin_is_refused(name: str, tmp_path: Path) -> None:
    assert check(Case(name, True, run=DANGEROUS[name]), tmp_path).status == "refused"


@pytest.mark.parametrize("name", sorted(SAFE))
def test_the_authors_own_text_is_accepted(name: str, tmp_path: Path) -> None:
    report = check(Case(name, False, run=SAFE[name]), tmp_path)
    assert report.status == "accepted", [f.message for f in report.findings]
