"""Caller data beside a secret stands only where a grammar says data.

A command that gets a secret (a credential place, or a program the
secret's ``programs:`` names) may still say where it sends it: a server,
a port, a registry, a proxy, a connection string. No list of such places
is kept: the grammar of the program (`mcp_harbor.check.grammars`) is the
allowlist, as for any caller data, but beside a secret a number is no
longer inert (a port is a number) and a program with no grammar gets no
caller data at all. A number in a program's text (the SQL of ``psql -c``)
stays inert: no number makes a program connect elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.check._harness import check_steps

_ARGS = {
    "n": {"type": "integer", "minimum": 1, "maximum": 4294967295},
    "ref": {"type": "string", "pattern": "^[a-z0-9:/._-]{1,80}$"},
    "db": {"type": "string", "enum": ["db1.internal", "db2.internal"]},
}
_SECRET = {"secrets": {"TOKEN": {"env": "CI_TOKEN"}}}


def _findings(run: str, tmp_path: Path, **extra: Any) -> tuple[str, list[str]]:
    return check_steps([run], tmp_path, args=_ARGS, **{**_SECRET, **extra})


@pytest.mark.parametrize(
    "run",
    [
        # the server's port, as an option, a variable, a connection string
        'PGPASSWORD="$TOKEN" psql -h db.internal -p "$ARG_n" -c "select 1"',
        'PGPASSWORD="$TOKEN" PGPORT="$ARG_n" psql -h db.internal -c "select 1"',
        'PGPASSWORD="$TOKEN" pg_dump -h db.internal -p "$ARG_n" app > "$HARBOR_RUN_DIR/a.sql"',
        'MYSQL_PWD="$TOKEN" mysql -h db.internal -P "$ARG_n" -e "select 1"',
        'REDISCLI_AUTH="$TOKEN" redis-cli -h cache.internal -p "$ARG_n" PING',
        # a variable no grammar lists as data (the server of vault)
        'VAULT_ADDR="https://vault.internal:$ARG_n" VAULT_TOKEN="$TOKEN" vault status',
        # a registry, a URL whose host is a number (a decimal address)
        'printf %s "$TOKEN" | docker login --password-stdin -u ci "$ARG_n"',
        'curl -fsS -H "Authorization: Bearer $TOKEN" "$ARG_n"',
        'u="$ARG_n"\ncurl -fsS -H "Authorization: Bearer $TOKEN" "$u"',
        # gh sends the token to the host of a URL operand
        'GH_TOKEN="$TOKEN" gh pr view "$ARG_ref" --repo acme/app',
        'GH_TOKEN="$TOKEN" gh pr list --repo "$ARG_ref"',
        # an in-house program the secret is for, with no grammar
        'DEPLOY_TOKEN="$TOKEN" deploy-tool --port "$ARG_n"',
    ],
)
def test_a_number_beside_a_secret_is_where_it_may_go(run: str, tmp_path: Path) -> None:
    secret = {"TOKEN": {"env": "CI_TOKEN", "programs": ["deploy-tool"]}}
    status, findings = _findings(run, tmp_path, secrets=secret)
    assert status == "refused", findings
    assert any(f.startswith(("H009", "H010", "H012")) for f in findings), findings


@pytest.mark.parametrize(
    "run",
    [
        # numbers in the program's text, or at positions the grammar reads as data
        'PGPASSWORD="$TOKEN" psql -h db.internal -X -c "select 1 limit $ARG_n"',
        'PGPASSWORD="$TOKEN" psql -h "$ARG_db" -c "select 1"',
        'MYSQL_PWD="$TOKEN" mysql -h db.internal --batch -e "select 1 limit $ARG_n"',
        'REDISCLI_AUTH="$TOKEN" redis-cli -h cache.internal -n "$ARG_n" DBSIZE',
        'GH_TOKEN="$TOKEN" gh pr checks "$ARG_n" --repo acme/app',
        'GH_TOKEN="$TOKEN" gh pr list --repo acme/app --limit "$ARG_n"',
        'GITLAB_TOKEN="$TOKEN" glab mr list --repo acme/app --per-page "$ARG_n"',
        'curl -fsS -m "$ARG_n" -H "Authorization: Bearer $TOKEN" '
        '"https://api.example.com/v1/items/$ARG_n"',
        'base="https://api.example.com/v1"\n'
        'curl -fsS -H "Authorization: Bearer $TOKEN" "$base/items/$ARG_n"',
        'GH_TOKEN="$TOKEN" gh pr view "https://github.com/acme/app/pull/$ARG_ref"',
    ],
)
def test_data_beside_a_secret_where_the_grammar_says_data(run: str, tmp_path: Path) -> None:
    status, findings = _findings(run, tmp_path)
    assert status == "accepted", findings


def test_an_in_house_program_described_by_the_author_gets_its_data(tmp_path: Path) -> None:
    """The ``programs:`` entry is the author's grammar of the program: the
    positions it says data are data beside the secret too."""
    run = 'DEPLOY_TOKEN="$TOKEN" deploy-tool --replicas "$ARG_n"'
    secret = {"TOKEN": {"env": "CI_TOKEN", "programs": ["deploy-tool"]}}
    refused, findings = _findings(run, tmp_path, secrets=secret)
    assert refused == "refused", findings
    described = {"deploy-tool": {"options_with_value": ["--replicas"], "runs_operands": False}}
    status, findings = _findings(run, tmp_path, secrets=secret, programs=described)
    assert status == "accepted", findings


def test_the_same_number_without_a_secret_is_inert(tmp_path: Path) -> None:
    run = 'psql -h db.internal -p "$ARG_n" -c "select 1"'
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert status == "accepted", findings
