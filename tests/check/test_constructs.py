"""Hypothesis builds scripts from bash constructs x grammar positions (issue
34): a caller value reaches a variable through one construct (copied,
rewritten by bash, split, read back, passed to a function, printed by a
program), and that variable lands at one position of a command line (an
operand, an option's value, the program, an interpreter's program, a
variable passed to the command, stdin). Every script the checker accepts is
run under real bash with the attack battery of the oracle, each value as
the caller could send it: no payload may run. And the positions that are
code whatever the value are refused whatever the construct.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from tests.check import _sandbox
from tests.check._harness import Case, write
from tests.check.test_oracle import ATTACKS

#: How the caller's value reaches `$v` (the script before the command).
CONSTRUCTS: dict[str, str] = {
    "copy": 'v="$ARG_x"',
    "placeholder": "v={{ args.x | shellquote }}",
    "strip-prefix": 'v="${ARG_x#a}"',
    "strip-suffix": 'v="${ARG_x%%.*}"',
    "replace": 'v="${ARG_x// /-}"',
    "prefix": 'v="${ARG_x/#/./}"',
    "escapes": 'v="${ARG_x@E}"',
    "printf-b": 'printf -v v %b "$ARG_x"',
    "upper": 'v="${ARG_x^^}"',
    "read": 'read -r v <<< "$ARG_x"',
    "read-split": 'read -r _ v <<< "$ARG_x"',
    "for-split": "for v in $ARG_x; do :; done",
    "tr": 'v=$(printf %s "$ARG_x" | tr "_" "-")',
    "program-output": 'v=$(printf "%s\\n" "$ARG_x" | head -n 1)',
    "function-arg": 'pick() { v="$1"; }; pick "$ARG_x"',
    "underscore": ': "$ARG_x"; v="$_"',
    "rematch": '[[ $ARG_x =~ (.*) ]]; v="${BASH_REMATCH[1]}"',
    "indirect": 'n=ARG_x; v="${!n}"',
    "eval-literal": "eval 'v=$ARG_x'",
    "mapfile": 'mapfile -t lines <<< "$ARG_x"; v="${lines[0]}"',
    # names with the integer attribute: every write evaluates arithmetic
    "int-for": 'declare -i n; for n in "$ARG_x"; do :; done; v="$n"',
    "int-reply": 'declare -i REPLY; read -r <<< "$ARG_x"; v="$REPLY"',
    "int-default": 'declare -i n; : "${n:=$ARG_x}"; v="$n"',
    "int-element": 'declare -Ai h=([a]=1); h[b]=$ARG_x; v="${h[b]}"',
    "heredoc-arith": "v=$(cat <<EOF\n$(( ARG_x + 1 ))\nEOF\n)",
}

#: Where `$v` lands. `code`: a position that is code (or the program)
#: whatever the value, refused for every construct that carries caller data.
POSITIONS: dict[str, tuple[str, bool]] = {
    "cat-dashdash": ('cat -- "$v" 2>/dev/null || true', False),
    "grep-operand": ('grep -c "$v" /dev/null || true', False),
    "grep-e": ('grep -c -e "$v" /dev/null || true', False),
    "git-log-author": ('git log --author="$v" -n 1', False),
    "git-fetch": ('git fetch origin "$v"', False),
    "echo": ('echo "$v"', False),
    "printf-arg": ("printf '%s\\n' \"$v\"", False),
    "program": ('"$v" --version', True),
    "eval": ('eval "$v"', True),
    "sh-c": ('sh -c "$v"', True),
    "python-c": ('python3 -c "$v"', True),
    "python-argv": ("python3 -c 'import sys; print(sys.argv[1])' \"$v\"", False),
    "sed-program": ('sed "$v" /dev/null', True),
    "awk-program": ('awk "$v" /dev/null', True),
    "awk-v": ("awk -v w=\"$v\" 'BEGIN{print w}'", False),
    "jq-arg": ("jq -n --arg w \"$v\" '$w'", False),
    "unknown-program": ('mytool "$v"', False),
    "env-to-unknown": ('LD_PRELOAD="$v" ls / >/dev/null', False),
    "env-git-author": ('GIT_AUTHOR_NAME="$v" git log -n 1', False),
    "stdin-sh": ('printf "%s\\n" "$v" | sh', True),
    "arithmetic": ("echo $(( v + 1 ))", True),
    # an associative array's subscript is a string; an indexed array's (or
    # one not proven associative where it is read) is arithmetic
    "assoc-read": ('declare -A m=([a]=1); echo "${m[$v]:-none}"', False),
    "assoc-count": (
        'declare -A m=(); m["$v"]=$(( ${m["$v"]:-0} + 1 )); for k in "${!m[@]}"; do '
        'echo "${m[$k]}"; done',
        False,
    ),
    "indexed-read": ('m=(1 2); echo "${m[$v]:-none}"', True),
    "assoc-other-function": ('f() { local -A m=(); }; f; echo "${m[$v]:-none}"', True),
    "assoc-shadowed": (
        'declare -A m=([a]=1); g() { local m=(1); echo "${m[$v]:-none}"; }; g',
        True,
    ),
    "assoc-unset": ('declare -A m=([a]=1); unset m; m=(1); echo "${m[$v]:-none}"', True),
    "assoc-maybe": ('if [ -t 9 ]; then declare -A m=(); fi; echo "${m[$v]:-none}"', True),
}

#: Argument schemas the caller's value is validated against.
KINDS = ("S", "P", "M")


def _case(construct: str, position: str, kind: str) -> Case:
    script = f"{CONSTRUCTS[construct]}\n{POSITIONS[position][0]}"
    return Case(f"{construct}/{position}/{kind}", False, run=script, args={"x": kind})


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _sandbox.build(tmp_path_factory.mktemp("constructs"))


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    construct=st.sampled_from(sorted(CONSTRUCTS)),
    position=st.sampled_from(sorted(POSITIONS)),
    kind=st.sampled_from(KINDS),
)
def test_accepted_scripts_run_no_payload(
    construct: str,
    position: str,
    kind: str,
    sandbox: dict[str, str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("case")
    export = load_export(write(_case(construct, position, kind), folder))
    report = check_export(export)
    if POSITIONS[position][1]:
        assert report.status == "refused", (construct, position, kind)
    if report.status != "accepted":
        return
    _sandbox.assert_no_payload_runs(
        export, ATTACKS, sandbox, folder / "work", (construct, position, kind)
    )


def test_every_construct_and_position_is_exercised(tmp_path: Path) -> None:
    """The grid the property samples, checked whole once: each code position
    is refused with every construct (none of them launders a value)."""
    refused_code = []
    for construct in CONSTRUCTS:
        for position, (_, code) in POSITIONS.items():
            if not code:
                continue
            export = load_export(write(_case(construct, position, "S"), tmp_path))
            refused_code.append(check_export(export).status == "refused")
    assert all(refused_code)


@pytest.mark.parametrize("position", ["assoc-read", "assoc-count"])
@pytest.mark.parametrize("construct", sorted(CONSTRUCTS))
def test_associative_subscripts_are_accepted_and_inert(
    construct: str, position: str, sandbox: dict[str, str], tmp_path: Path
) -> None:
    """A caller value as the key of an array proven associative is a string:
    accepted with every construct accepted before ``echo "$v"``, and no
    payload runs under real bash."""
    baseline = load_export(write(_case(construct, "echo", "S"), tmp_path, 1))
    export = load_export(write(_case(construct, position, "S"), tmp_path))
    status = check_export(export).status
    assert status == check_export(baseline).status, (construct, position)
    if status != "accepted":
        return
    _sandbox.assert_no_payload_runs(
        export, ATTACKS, sandbox, tmp_path / "work", (construct, position)
    )
