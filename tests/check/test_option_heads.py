"""A long option with its value attached (``--token="$T"``) before a
subcommand is one word, an option: the subcommand after it is still known,
and the option itself is checked as a global option."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import Case, check

ACCEPTED = {
    "quoted-value": 't=20s\nkubectl --request-timeout="$t" get pods -n "$ARG_x"',
    "data-global": 'kubectl --user="$ARG_x" get pods',
}
REFUSED = {
    # the API server chooses where the credentials go and what runs
    "code-global": 'kubectl --server="$ARG_x" get pods',
    "unknown-global": 'kubectl --request-timeout="$ARG_x" get pods',
    # an unquoted value may split into words, one of them the subcommand
    "unquoted": "kubectl --request-timeout=$ARG_x get pods",
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_an_option_with_its_value(name: str, tmp_path: Path) -> None:
    report = check(Case(name, False, run=ACCEPTED[name], args={"x": "P"}), tmp_path)
    assert report.status == "accepted", [f.message for f in report.findings]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_caller_data_in_a_global_option(name: str, tmp_path: Path) -> None:
    report = check(Case(name, True, run=REFUSED[name], args={"x": "S"}), tmp_path)
    assert report.status == "refused"
