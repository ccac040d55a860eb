"""Code read from a place a step filled with caller data: a module folder
or a program file named by an option its grammar reads as code (``jq -L``,
``jq -f``, ``curl -K``) that an earlier step (or the script itself) wrote
caller data into, and the home folder, where programs read their dot files
unseen (``~/.jq``, ``~/.gitconfig``). Round nine's classes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export

SAVE = 'mkdir -p "$HARBOR_RUN_DIR/jq"\nprintf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/jq/h.jq"'
#: (first step, second step): the second reads code
REFUSED = {
    "module-folder": (SAVE, 'jq -L "$HARBOR_RUN_DIR/jq" \'include "h"; f\' /etc/hostname'),
    "filter-file": (SAVE, 'jq -n -f "$HARBOR_RUN_DIR/jq/h.jq"'),
    "same-step": (SAVE + '\njq -n -f "$HARBOR_RUN_DIR/jq/h.jq"', "true"),
    # a kubeconfig's exec plugin runs a command
    "kubeconfig": (
        'printf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/kc"',
        'kubectl --kubeconfig="$HARBOR_RUN_DIR/kc" get pods',
    ),
    # round ten: a link or a copy takes what a step wrote into the working
    # folder or home with no caller data in its words
    "link-into-working-folder": (
        SAVE + '\nln -sf "$HARBOR_RUN_DIR/jq/h.jq" .h.jq',
        "jq -n -f .h.jq",
    ),
    "link-folder-then-code": (
        'ln -sfn "$HARBOR_RUN_DIR/inputs" .uploads',
        "jq -n -f .uploads/f.jq",
    ),
    "link-into-home": (SAVE, 'ln -sfn "$HARBOR_RUN_DIR/jq/h.jq" "$HOME/.jq"'),
    "home-by-another-name": ('home=~\nprintf "%s\\n" "$ARG_x" > "$home/.jq"', "jq -n 1"),
    # round eleven: ssh -F reads its config as code; home by other names
    "ssh-config": (
        'printf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/ssh_config"',
        'ssh -F "$HARBOR_RUN_DIR/ssh_config" -o BatchMode=yes host true',
    ),
    "home-computed": ('h=$(echo ~)\nprintf "%s\\n" "$ARG_x" > "$h/.curlrc"', "true"),
    "home-after-cd": ('cd\nprintf "%s\\n" "$ARG_x" > .wgetrc', "true"),
    "home-dot-file": ('printf "%s\\n" "$ARG_x" > "$HOME/.jq"', "jq -n 1"),
    "home-config": ('printf "%s\\n" "$ARG_x" > ~/.config/tool.ini', "true"),
    # written by another step, while a step puts caller data in the run
    # directory: what is there when jq reads it is not shown to be the
    # author's (that step may write it)
    "authors-filter-other-step": (
        "printf '%s\\n' '.name' > \"$HARBOR_RUN_DIR/f.jq\"\n"
        'printf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/note.txt"',
        'jq -n --arg x "$ARG_x" -f "$HARBOR_RUN_DIR/f.jq"',
    ),
    # a folder of modules in the run directory, whatever the program imports
    "modules-in-run-dir": (
        'printf "%s\\n" "$ARG_x" > "$HARBOR_RUN_DIR/data.txt"',
        'jq -L "$HARBOR_RUN_DIR/jq" -n 1',
    ),
    "perl-readpipe": (
        'perl -e \'my $r = shift; print readpipe("git log -1 $r")\' -- "$ARG_x"',
        "true",
    ),
}
ACCEPTED = {
    # the author's filter, written by the step that reads it, at its top
    # level (bash -e ends the step if the write fails), caller data beside
    # it as data
    "authors-filter": (
        "true",
        "printf '%s\\n' '.name' > \"$HARBOR_RUN_DIR/f.jq\"\n"
        'jq -n --arg x "$ARG_x" -f "$HARBOR_RUN_DIR/f.jq"',
    ),
    # written by another step, and no step of the export puts caller data
    # in the run directory: only the author's text is there
    "authors-filter-other-step": (
        "printf '%s\\n' '.name' > \"$HARBOR_RUN_DIR/f.jq\"",
        'jq -n --arg x "$ARG_x" -f "$HARBOR_RUN_DIR/f.jq"',
    ),
}


def _check(tmp_path: Path, name: str, first: str, second: str) -> Any:
    document = {
        "name": "t",
        "description": name,
        "args": {"x": {"type": "string"}},
        "steps": [{"name": "a", "run": first}, {"name": "b", "run": second}],
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return check_export(load_export(path))


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_code_from_a_filled_place_is_refused(name: str, tmp_path: Path) -> None:
    report = _check(tmp_path, name, *REFUSED[name])
    assert report.status == "refused"


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_code_the_author_wrote_is_accepted(name: str, tmp_path: Path) -> None:
    report = _check(tmp_path, name, *ACCEPTED[name])
    assert report.status == "accepted", [f.message for f in report.findings]
