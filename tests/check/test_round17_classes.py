"""The class round seventeen (tests/check/blind34r17) showed: tree-sitter
reads ``! (( n > 0 ))`` as two subshells running a command ``n``, where bash
evaluates arithmetic (a name's value, ``a[$(cmd)]`` in it, runs). The two
parsers disagree: H000, with the fix."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.check._harness import check_steps


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('n="$ARG_x"\nif ! (( n > 0 )); then n=5; fi', True),
        ('n=$(wc -l < "$HARBOR_RUN_DIR/x")\nif (( n <= 0 )); then n=5; fi', False),
        # two subshells, written with a blank: bash reads them so too
        ('( (echo "$ARG_x") )', False),
    ],
)
def test_negated_arithmetic(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args={"x": {"type": "string"}})
    assert (status == "refused") == refused, findings
    if refused:
        assert any(f.startswith("H000") for f in findings), findings


def test_bash_evaluates_the_negated_arithmetic() -> None:
    """The disagreement is real: bash runs what the name holds."""
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", 'n="a[$(echo RAN >&2)]"; ! (( n > 0 ))'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "RAN" in done.stderr
