"""What a command prints from files no step can write is the author's
(rule 2): ``awk '…' /proc/meminfo``, ``jq -r .version package.json`` in a
folder no step writes, and what ``read`` takes from ``< <(…)`` of such a
command. Its words must all be literal, it must read at least one file
(else it reads its standard input, which may be the caller's), no file may
be a stream (``/dev/stdin``, ``/proc/self/fd/0``) or in a place a step may
write, and a language's program must read only its operands (awk's
``ENVIRON``, ``getline``). Every accepted case runs under real bash with the
oracle's payloads: none runs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from tests.check import _sandbox
from tests.check._harness import Case, write
from tests.check.test_oracle import ATTACKS

MEMINFO = "awk '/^MemTotal:/ { t = $2 } END { print t }' /proc/meminfo"
SAFE = {
    "read-from-awk": (
        f"read -r total < <({MEMINFO})\n"
        'if (( total > 0 )); then echo "$ARG_x: $(( total / 1024 )) MiB"; fi'
    ),
    "substitution": f'total=$({MEMINFO})\necho "$ARG_x $(( total + 1 ))"',
    "while-read": (
        'while read -r n _; do (( n > 0 )) && echo "$ARG_x"; done'
        " < <(awk '{ print int($1) }' /proc/loadavg)"
    ),
    # unquoted, caller data would split into options of ls
    "sed-program": 'v=$(sed -n 1p /etc/hostname)\nls -d $v 2>/dev/null || echo "$ARG_x"',
}
#: where clean data is accepted and the caller's is not: an unquoted word
#: split into ls's options
SINK = "ls -d $v 2>/dev/null || true"
DANGEROUS = {
    "stdin-path": 'printf "%s" "$ARG_x" | { v=$(cat /dev/stdin); ' + SINK + "; }",
    "no-file": 'printf "%s" "$ARG_x" | { v=$(cat); ' + SINK + "; }",
    "descriptor": 'printf "%s" "$ARG_x" | { read -r v < <(cat /proc/self/fd/0); ' + SINK + "; }",
    "run-dir": 'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/x"\nv=$(cat "$HARBOR_RUN_DIR/x")\n' + SINK,
    "placeholder-file": "v=$(cat {{ args.x | shellquote }})\n" + SINK,
    "caller-words": "read -r v < <(printf '%s' \"$ARG_x\")\n" + SINK,
    # not files: what a cluster or a server answers may be what a caller put there
    "cluster": "v=$(kubectl get configmap notes -o jsonpath='{.data.x}')\n" + SINK,
    "server": "v=$(curl -fsS https://api.example.com/motd)\n" + SINK,
    # a commit of the caller's message: what git log prints is the caller's
    "committed": 'git commit -q --allow-empty -m "$ARG_x"\nv=$(git log -1 --format=%s)\n' + SINK,
    "written-here": 'printf "%s" "$ARG_x" > notes.txt\nv=$(cat notes.txt)\n' + SINK,
    "awk-environ": 'v=$(X="$ARG_x" awk \'BEGIN { print ENVIRON["X"] }\' /etc/hostname)\n' + SINK,
    "awk-getline": (
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/x"\n'
        "v=$(awk '{ getline l < \"'\"$HARBOR_RUN_DIR/x\"'\"; print l }' /etc/hostname)\n" + SINK
    ),
}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _sandbox.build(tmp_path_factory.mktemp("authors-files"))


@pytest.mark.parametrize("name", sorted(SAFE))
def test_output_of_the_authors_files_is_clean(
    name: str, sandbox: dict[str, str], tmp_path: Path
) -> None:
    path = write(Case(name, False, run=SAFE[name]), tmp_path)
    report = check_export(load_export(path))
    assert report.status == "accepted", [f.message for f in report.findings]
    _sandbox.assert_no_payload_runs(load_export(path), ATTACKS, sandbox, tmp_path / "work", name)


@pytest.mark.parametrize("name", sorted(DANGEROUS))
def test_output_of_what_the_caller_may_reach_is_not(name: str, tmp_path: Path) -> None:
    path = write(Case(name, True, run=DANGEROUS[name]), tmp_path)
    report = check_export(load_export(path))
    assert report.status == "refused"
    assert any("$v" in f.message for f in report.findings), [f.message for f in report.findings]


GIT_CHOSEN = {
    # the caller picks among the author's texts: the repository's
    "describe-of-callers-rev": ('v=$(git describe --tags "$ARG_x^" 2>/dev/null)\n' + SINK, True),
    "log-of-callers-rev": ('v=$(git log -1 --format=%s --end-of-options "$ARG_x")\n' + SINK, True),
    # the revision printed as the caller wrote it: %S, rev-parse --symbolic
    "format-source": ("v=$(git show -s --format='%h %S' \"$ARG_x\")\n" + SINK, False),
    "symbolic": ('v=$(git rev-parse --symbolic "$ARG_x")\n' + SINK, False),
    # a global option of the caller's: its settings, another repository
    "callers-setting": ('v=$(git -c "$ARG_x" log -1 --format=%s)\n' + SINK, False),
    "callers-repository": ('v=$(git -C "$ARG_x" log -1 --format=%s)\n' + SINK, False),
    # the caller's word may be an option of git log
    "may-be-option": ("v=$(git log -1 --format=%s $ARG_x)\n" + SINK, False),
}


@pytest.mark.parametrize("name", sorted(GIT_CHOSEN))
def test_git_output_the_caller_chose(name: str, sandbox: dict[str, str], tmp_path: Path) -> None:
    run, accepted = GIT_CHOSEN[name]
    path = write(Case(name, not accepted, run=run), tmp_path)
    report = check_export(load_export(path))
    assert (report.status == "accepted") is accepted, [f.message for f in report.findings]
    if accepted:
        _sandbox.assert_no_payload_runs(load_export(path), ATTACKS, sandbox, tmp_path / "w", name)


def test_a_programs_word_is_no_variable_it_writes(tmp_path: Path) -> None:
    """``jq --arg current …`` does not write the shell variable current: only
    bash's builtins (and the script's functions) write variables by name."""
    run = (
        "t=$(git describe --tags --abbrev=0 2>/dev/null)\ncurrent=${t#v}\n"
        'jq -n --arg current "$current" \'$current\'\ngit log -1 "$current" -- || echo "$ARG_x"'
    )
    path = write(Case("jq-word", False, run=run), tmp_path)
    report = check_export(load_export(path))
    assert report.status == "accepted", [f.message for f in report.findings]
    # read writes it: then it is the caller's
    run = 'read -r current <<< "$ARG_x"\ngit log -1 "$current" --'
    path = write(Case("read-word", True, run=run, args={"x": "D"}), tmp_path, 1)
    assert check_export(load_export(path)).status == "refused"


@pytest.mark.parametrize(
    ("within", "accepted"), [(".", True), ("src", True), ("..", False), ("/tmp", False)]
)
def test_a_move_into_the_authors_tree(within: str, accepted: bool, tmp_path: Path) -> None:
    """``cd "$ARG_dir"`` with ``within:`` a folder of the working folder keeps
    the script in the author's tree: its file names are the author's."""
    document = {
        "name": "t",
        "description": "cd within",
        "args": {"dir": {"type": "string", "within": within}},
        "steps": [{"name": "s", "run": 'cd -- "$ARG_dir"\nfor d in */; do ls -d $d; done'}],
    }
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    report = check_export(load_export(path))
    assert (report.status == "accepted") is accepted, [f.message for f in report.findings]


def test_a_count_over_a_glob_holds_file_names(tmp_path: Path) -> None:
    """``grep -c`` over ``*.log`` prints NAME:COUNT for several files: the
    names (a step may have made them) are not a number."""
    run = 'cd "$HARBOR_RUN_DIR/logs"\nn=$(grep -c -- ERROR *.log || true)\n(( n > ARG_x ))'
    path = write(Case("glob-count", True, run=run, args={"x": "N"}), tmp_path)
    assert check_export(load_export(path)).status == "refused"
    one = "n=$(grep -c -- ERROR /etc/hostname || true)\n(( n > ARG_x )) && echo many"
    path = write(Case("one-count", False, run=one, args={"x": "N"}), tmp_path, 1)
    report = check_export(load_export(path))
    assert report.status == "accepted", [f.message for f in report.findings]
