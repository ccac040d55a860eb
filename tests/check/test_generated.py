"""Hypothesis keeps generating templates: every one the checker accepts is
rendered with the attack battery and run under real bash with stub programs
(tests/check/_sandbox.py). No payload may ever run.

Templates are built from pieces that attacks combine — a value written in
one of many forms, inside one of many contexts (quotes, here-documents,
``${…}`` operands, command substitutions, ``eval``, ``sh -c``, wrappers,
interpreters, assignments, arithmetic, loops, functions), with one of the
corpus's arg kinds. Most are refused; what matters is that nothing accepted
runs ``hbpwn``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from tests.check import _sandbox
from tests.check._harness import Case, write
from tests.check.test_oracle import _runs

FORMS = [
    "{{ args.x }}",
    "{{ args.x | shellquote }}",
    '"$ARG_x"',
    "$ARG_x",
    '"${ARG_x}"',
    "'{{ args.x }}'",
    '"{{ args.x }}"',
    '"{{ args.x | shellquote }}"',
    '"${ARG_x@Q}"',
    "${ARG_x@Q}",
    '"$v"',
    "$v",
]
# Each context has one VAL where the value goes.
CONTEXTS = [
    "echo VAL",
    "printf '%s\\n' VAL",
    "mytool -- VAL",
    "cat -- VAL",
    'echo "a VAL b"',
    "echo 'a VAL b'",
    'echo "${NAME:-VAL}"',
    "echo ${NAME:-VAL}",
    "echo \"${NAME:-'VAL'}\"",
    "cat <<EOF\nVAL\nEOF",
    "cat <<'EOF'\nVAL\nEOF",
    "cat <<EOF  \nEOF  \necho VAL\nEOF",
    "echo $(printf '%s' VAL)",
    "eval echo VAL",
    'eval "echo VAL"',
    "eval \"$(printf 'echo %q' VAL)\"",
    "sh -c 'echo \"$1\"' _ VAL",
    'sh -c "echo VAL"',
    "bash -c VAL",
    "timeout 5 VAL",
    "env VAL true",
    "xargs -0 VAL < /dev/null",
    "VAL --version",
    "python3 -c 'import sys; print(sys.argv[1])' VAL",
    'python3 -c "print(VAL)"',
    "awk -v v=VAL 'BEGIN{print v}'",
    "awk VAL /dev/null",
    "sed VAL /dev/null",
    "echo $(( VAL + 1 ))",
    "declare -i n; n=VAL; echo $n",
    "y=VAL; echo $(( y ))",
    "PATH=VAL ls",
    "trap VAL EXIT",
    "printf VAL",
    "printf -v out '%s' VAL; eval \"$out\"",
    "printf '%s\\n' VAL | sh",
    "printf '%s\\n' VAL > f.sh; . ./f.sh",
    'for i in VAL; do echo "$i"; done',
    'f() { eval "$1"; }; f VAL',
    'read -r line <<< VAL; eval "$line"',
    "echo a\\\t# VAL",
]
KINDS = ["S", "P", "I", "N", "E", "D", "U"]
PRELUDES = ["", 'v="$ARG_x"\n', "v={{ args.x | shellquote }}\n", "set -eu\n"]


@st.composite
def templates(draw: st.DrawFn) -> Case:
    context = draw(st.sampled_from(CONTEXTS))
    form = draw(st.sampled_from(FORMS))
    prelude = draw(st.sampled_from(PRELUDES))
    second = draw(st.none() | st.sampled_from(CONTEXTS))
    script = prelude + context.replace("VAL", form)
    if second is not None:
        script += "\n" + second.replace("VAL", draw(st.sampled_from(FORMS)))
    return Case("generated", False, run=script, args={"x": draw(st.sampled_from(KINDS))})


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=templates())
def test_no_accepted_generated_template_runs_a_payload(case: Case, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir(exist_ok=True)
    export = load_export(write(case, folder))
    if check_export(export).status != "accepted":
        return
    base = _sandbox.build(tmp_path / "sandbox")
    marker = Path(base["HB_MARKER"]) / "pwned"
    for values in _runs(export):
        workdir = tmp_path / "run"
        shutil.rmtree(workdir, ignore_errors=True)
        workdir.mkdir()
        marker.unlink(missing_ok=True)
        for step in export.steps:
            _sandbox.run_step(step, values, base, workdir)
        assert not marker.exists(), f"accepted {case.run!r} ran a payload with {values!r}"
