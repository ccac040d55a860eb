"""What ``$(( … ))`` gives is a number bash computed, not the arg in it:
its sign is known only where the bounds of every operand show it (rule 2:
arithmetic transforms a value; rule 4: a number inert in code cannot start
with ``-``). The ranges are checked against bash itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_harbor.check import check_export
from mcp_harbor.check._arithmetic import INT_MAX, INT_MIN, expression_range
from mcp_harbor.check._tree import parsed
from mcp_harbor.config import load_export

_ARGS = {
    "line": {"type": "integer", "minimum": 1, "maximum": 10_000_000},
    "context": {"type": "integer", "minimum": 0, "maximum": 20, "default": 5},
    "big": {"type": "integer", "minimum": 0, "maximum": 10**12, "default": 1},
    "loose": {"type": "integer", "minimum": 0},
    "maybe": {"type": "integer", "minimum": 1, "maximum": 9},
}


def _check(run: str, tmp_path: Path) -> tuple[str, list[str]]:
    document = {
        "name": "t",
        "description": "arithmetic results",
        "args": _ARGS,
        "required": ["line", "loose"],
        "steps": [{"name": "s", "run": run}],
    }
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    report = check_export(load_export(path))
    return report.status, [f"{f.rule}: {f.message}" for f in report.findings]


ACCEPTED = [
    # both bounds known: not negative
    'sed -n "$(( ARG_line + ARG_context ))p" logs/app.log',
    'sed -n "$(( {{ args.line }} * 2 ))p" logs/app.log',
    # the difference under its own guard (two placeholders of one arg are one value)
    "first=$(( {{ args.line }} > {{ args.context }} ? {{ args.line }} - {{ args.context }} : 1 ))\n"
    'sed -n "${first},$(( {{ args.line }} + {{ args.context }} ))p" logs/app.log',
    # a count of a file a step wrote, scaled by the loop's literal numbers
    'n=$(wc -l < "$HARBOR_RUN_DIR/took.txt")\n'
    "for p in 50 90 99; do\n"
    '  idx=$(( (n * p + 99) / 100 ))\n  sed -n "${idx}p" "$HARBOR_RUN_DIR/took.txt"\ndone',
    # a number after text no option has: the sign changes no option
    'b=$(wc -l < "$HARBOR_RUN_DIR/a")\na=$(wc -l < "$HARBOR_RUN_DIR/b")\n'
    'echo "--- $(( b - a )) removed"',
    # a length is not negative
    'awk "NR <= ${#ARG_loose}" logs/app.log',
]

REFUSED = [
    # the difference may be negative: -1 is every process to kill
    'kill -s TERM -- "$(( ARG_context - 21 ))"',
    'x=$(( ARG_context - 21 ))\nkill -s TERM -- "$x"',
    # a negative number in a program: 5--10 makes the rest an SQL comment
    "psql -c \"DELETE FROM jobs WHERE id = 5-$(( ARG_context - 10 )) AND tenant = 'a'\"",
    'awk "BEGIN { x = 3; print x-$(( ARG_context - 10 )) }"',
    'sed -n "$(( ARG_context - 30 ))p" logs/app.log',
    # no ceiling: the sum may wrap past 2**63 to a negative number
    'sed -n "$(( ARG_loose + 1 ))p" logs/app.log',
    'sed -n "$(( ARG_big * 10000000 ))p" logs/app.log',
    # a name arithmetic or read also sets
    'x=$(( ARG_context ))\n(( x -= 30 ))\nsed -n "${x}p" logs/app.log',
    'read -r x < "$HARBOR_RUN_DIR/n"\nsed -n "$(( x ))p" logs/app.log',
    # put in as text, an empty value is no 0: 3 * - 4
    'sed -n "$(( 3 * {{ args.maybe }} - 4 ))p" logs/app.log',
]


@pytest.mark.parametrize("run", ACCEPTED)
def test_a_result_shown_not_negative_is_accepted(run: str, tmp_path: Path) -> None:
    status, findings = _check(run, tmp_path)
    assert status == "accepted", findings


@pytest.mark.parametrize("run", REFUSED)
def test_a_result_that_may_be_negative_is_refused(run: str, tmp_path: Path) -> None:
    status, findings = _check(run, tmp_path)
    assert status == "refused", findings
    assert any(f.startswith(("H005", "H009")) for f in findings), findings


# -- the ranges against bash

_NAMES = {"a": (0, 20), "b": (1, 10_000_000), "c": (-5, 5)}
_OPERATORS = ["+", "-", "*", "/", "%", "<", ">=", "==", "&&", "||", "&", "|", "^", ">>"]


def _expressions() -> st.SearchStrategy[str]:
    leaves = st.one_of(
        st.sampled_from(list(_NAMES)),
        st.integers(min_value=0, max_value=2**40).map(str),
    )

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(_OPERATORS), inner).map(lambda t: f"({' '.join(t)})"),
            # no parentheses: bash's precedence and associativity decide
            st.tuples(inner, st.sampled_from(_OPERATORS), inner).map(" ".join),
            st.tuples(st.sampled_from(["-", "!", "~", "+"]), inner).map(
                lambda t: f"{t[0]}({t[1]})"
            ),
            st.tuples(inner, inner, inner, inner).map(
                lambda t: f"({t[0]} > {t[1]} ? {t[0]} - {t[1]} : {t[2]} + {t[3]})"
            ),
        )

    return st.recursive(leaves, extend, max_leaves=8)


def _range(text: str) -> tuple[int, int]:
    script = parsed(f"echo $(( {text} ))")
    node = next(n for n in script.nodes if n.type == "arithmetic_expansion")
    return expression_range(script.src, node, lambda name: _NAMES.get(name, (INT_MIN, INT_MAX)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=_expressions(),
    values=st.tuples(*(st.integers(low, high) for low, high in _NAMES.values())),
)
def test_bash_computes_a_value_within_the_range(text: str, values: tuple[int, ...]) -> None:
    """Every value bash gives is within the range the checker computes
    (a division by zero or another error gives none)."""
    low, high = _range(text)
    assignments = " ".join(f"{n}={v}" for n, v in zip(_NAMES, values, strict=True))
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", f"{assignments}; echo $(( {text} ))"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
        check=False,
    )
    if done.returncode != 0:
        return  # bash computed nothing (division by zero)
    assert low <= int(done.stdout) <= high, (text, values, done.stdout, (low, high))


def test_a_base_an_increment_or_an_assignment_is_not_read() -> None:
    for text in ("2#101", "0x10", "010", "a++", "a = 5", "a += 1", "b, 1", "a[1]"):
        assert _range(text) == (INT_MIN, INT_MAX), text
