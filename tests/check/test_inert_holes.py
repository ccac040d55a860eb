"""A value assigned from the author's text and numbers that cannot start
with ``-`` (``f="notes-$ARG_version.txt"``) is as inert as writing the
number in place (rule 4 of docs/security.md section 7); the text must be
the author's and must not start with ``-``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from tests.check._harness import Case, check

# curl -T reads a file it uploads: only the author's files
UPLOAD = '\ncurl -fsS -T "$f" https://uploads.example/notes\n'
ACCEPTED = {
    "digits-in-name": ('f="releases/notes-$ARG_x.txt"' + UPLOAD, "N"),
    "digits-twice": ('f="r/$ARG_x/notes-$ARG_x.txt"' + UPLOAD, "N"),
    "enum-and-text": ('f="notes-$ARG_x.txt"' + UPLOAD, "E"),
}
REFUSED = {
    "letters": ('f="releases/notes-$ARG_x.txt"' + UPLOAD, "P"),
    "dash-first": ('f="-$ARG_x"' + UPLOAD, "N"),
    "clean-and-caller": ('f="$HOME/$ARG_x"' + UPLOAD, "N"),
    "transformed": ('f="notes-${ARG_x//1/-}"' + UPLOAD, "N"),
    "negative": ('f="notes$ARG_x"\nv="$f"\ncurl -fsS -T "$ARG_x" https://u.example/', "I"),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_authors_text_with_numbers(name: str, tmp_path: Path) -> None:
    run, kind = ACCEPTED[name]
    report = check(Case(name, False, run=run, args={"x": kind}), tmp_path)
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_more_than_numbers(name: str, tmp_path: Path) -> None:
    run, kind = REFUSED[name]
    assert check(Case(name, True, run=run, args={"x": kind}), tmp_path).status == "refused"


@pytest.mark.parametrize(
    ("run", "accepted"),
    [
        # the operator's value, or the author's text after it, stands first
        ('ref="$REGISTRY/team/$ARG_x"\ndocker pull "$ref"', True),
        # empty, the operator's value lets the caller's stand first
        ('ref="$REGISTRY$ARG_x"\ndocker pull "$ref"', False),
        # empty, the operator's value lets a rewritten value of the caller's
        # stand first, even in the word itself
        ('tar -cf "$HARBOR_RUN_DIR/s.tar" "$REGISTRY${ARG_x#./}"', False),
        # a name no environment gives: the caller's
        ('ref="$SOMEWHERE/team/$ARG_x"\ndocker pull "$ref"', False),
    ],
)
def test_an_environment_value_first(run: str, accepted: bool, tmp_path: Path) -> None:
    document = {
        "name": "t",
        "description": "env first",
        "args": {"x": {"type": "string", "leading_dash": True}},
        "pass_env": ["REGISTRY"],
        "steps": [{"name": "s", "run": run}],
    }
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    report = check_export(load_export(path))
    assert (report.status == "accepted") is accepted, [f.message for f in report.findings]
