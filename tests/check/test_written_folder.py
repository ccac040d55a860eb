"""Which commands may put caller data in the folder the steps work in.

A program without a grammar (here the in-house ``deployctl``) may read its
config from the working folder, so it is refused once a command with caller
data may write there. A language's literal program writes nothing unless its
text has a way to write (an option's value is not the program: ``awk -v``);
an option through which a program writes a file (``-out``, ``-o``) names a
file outside the folder when its value is in the run directory; docker's
commands that only print write nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import Case, check

THEN = "\ndeployctl status\n"
ACCEPTED = {
    "awk-value-option": "awk -v p=\"$ARG_x\" 'index($0, p) == 1' /etc/hostname" + THEN,
    "openssl-out-in-run-dir": (
        'openssl dgst -sha256 -out "$HARBOR_RUN_DIR/digest" -- "$ARG_x"' + THEN
    ),
    "sort-out-in-run-dir": 'sort -o "$HARBOR_RUN_DIR/sorted" -- "$ARG_x"' + THEN,
    "docker-manifest": 'docker manifest inspect "registry.example/app:$ARG_x"' + THEN,
    "mypy-no-cache": 'mypy --cache-dir=/dev/null -- "$ARG_x"' + THEN,
    "ruff-no-cache": 'ruff check --no-cache -- "$ARG_x"' + THEN,
    "tar-archive-named-once": (
        'out="$HARBOR_RUN_DIR/b-$ARG_x.tgz"\ntar -czf "$out" -C "$HARBOR_RUN_DIR" inputs' + THEN
    ),
    "git-diff-tree": 'git diff-tree --no-commit-id --name-status -r "$ARG_x" --' + THEN,
    # a link between two files of the run directory leads nowhere else
    "link-inside-run-dir": (
        'ln -s "$HARBOR_RUN_DIR/a" "$HARBOR_RUN_DIR/b"\n'
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/f"' + THEN
    ),
}
REFUSED = {
    "awk-prints-to-file": "awk -v p=\"$ARG_x\" '{ print > p }' /etc/hostname" + THEN,
    "openssl-out-callers": 'openssl dgst -sha256 -out "$ARG_x" /etc/hostname' + THEN,
    "openssl-out-relative": 'openssl dgst -sha256 -out "d-$ARG_x" /etc/hostname' + THEN,
    "sort-out-relative": 'sort -o sorted -- "$ARG_x"' + THEN,
    "mypy-cache": 'mypy -- "$ARG_x"' + THEN,
    "ruff-fix": 'ruff check --no-cache --fix -- "$ARG_x"' + THEN,
    # read writes the name too: its value is the caller's, not the one assigned
    "tar-archive-read": (
        'out="$HARBOR_RUN_DIR/b.tgz"\nread -r out <<< "$ARG_x"\n'
        'tar -czf "$out" -- /etc/hostname' + THEN
    ),
    # round eleven: copies of a file the script filled, with clean words
    "install-filled": (
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/o.mk"\n'
        'install -m 0644 "$HARBOR_RUN_DIR/o.mk" ./local.mk' + THEN
    ),
    "sort-o-filled": (
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/o.mk"\n'
        'sort -o ./local.mk "$HARBOR_RUN_DIR/o.mk"' + THEN
    ),
    "dd-filled": (
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/o.mk"\n'
        'dd if="$HARBOR_RUN_DIR/o.mk" of=./local.mk 2>/dev/null' + THEN
    ),
    # --output="$f": the write option as written, its value the caller's
    "sort-output-attached": 'sort --output="$ARG_x.txt" /etc/hostname' + THEN,
    # a path of the run directory that a link makes the working folder's
    "link-to-working-folder": (
        'ln -sfn "$PWD" "$HARBOR_RUN_DIR/project"\n'
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/project/f"' + THEN
    ),
    # the caller's ".." leads out of the run directory
    "link-to-callers-place": (
        'ln -s "$HARBOR_RUN_DIR/$ARG_x" "$HARBOR_RUN_DIR/p"\n'
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/p/f"' + THEN
    ),
    # an archive's members may be links anywhere
    "extracted-archive": (
        'tar -xzf "$ARG_x" -C "$HARBOR_RUN_DIR/x"\n'
        'printf "%s" "$ARG_x" > "$HARBOR_RUN_DIR/x/f"' + THEN
    ),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_writes_nothing_in_the_working_folder(name: str, tmp_path: Path) -> None:
    case = Case(name, False, run=ACCEPTED[name], args={"x": "P"})
    report = check(case, tmp_path)
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_may_write_in_the_working_folder(name: str, tmp_path: Path) -> None:
    report = check(Case(name, True, run=REFUSED[name], args={"x": "P"}), tmp_path)
    assert report.status == "refused"
    assert any("deployctl" in f.message for f in report.findings), [
        f.message for f in report.findings
    ]
