"""Who chooses the scheme of a URL curl fetches (``file://`` reads local
files): the caller only when nothing of the author's stands before the
caller's text up to a ``/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import Case, check

ACCEPTED = {
    "literal-scheme": 'curl -fsS -- "https://api.example.com/v1/$ARG_x"',
    "authors-base": 'base=https://api.example.com\ncurl -fsS -- "$base/v1/$ARG_x"',
    "braced-base": 'base=https://api.example.com\ncurl -fsS -- "${base}/v1/$ARG_x"',
}
REFUSED = {
    "whole-url": 'curl -fsS -- "$ARG_x"',
    "one-letter": 'curl -fsS -- "f$ARG_x"',
    "base-then-caller": 'base=https://api.example.com\ncurl -fsS -- "${base}$ARG_x"',
    "unknown-base": 'curl -fsS -- "$SOME_URL/v1/$ARG_x"',
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_authors_scheme(name: str, tmp_path: Path) -> None:
    report = check(Case(name, False, run=ACCEPTED[name]), tmp_path)
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_callers_scheme(name: str, tmp_path: Path) -> None:
    assert check(Case(name, True, run=REFUSED[name]), tmp_path).status == "refused"
