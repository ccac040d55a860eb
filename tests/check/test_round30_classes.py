"""The classes blind round thirty's attacks found (tests/check/blind34r30,
SCORE.md), each as a rule with fixtures on both sides.

- An unquoted expansion whose value may hold ``*``, ``?`` or ``[`` is a
  pattern bash replaces with the folder's file names: any words, ``-``
  first too (a name the caller's upload made), whatever the value's
  pattern allows.
- curl ``-L`` re-sends a body read from a file a secret was written to
  (``--data-binary @"$f"``), as it does one read from stdin: only an
  ``Authorization:``/``Cookie:`` header or ``-u`` stays with the first
  host."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {
    "files": {"type": "string", "pattern": "^[A-Za-z0-9_.*?]+$"},
    "names": {"type": "string", "pattern": "^[A-Za-z0-9_.]+$"},
    "path": {"type": "string", "pattern": "^[a-z0-9/]+$"},
}
_SECRET = {"secrets": {"API_TOKEN": {"env": "CI_API_TOKEN"}}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('cd "$HARBOR_RUN_DIR"\ntar -czf out.tgz $ARG_files', True),
        ("tar -czf out.tgz $ARG_files", True),
        # no glob character in the value, or quoted
        ("tar -czf out.tgz $ARG_names", False),
        ('tar -czf out.tgz -- "$ARG_files"', False),
    ],
)
def test_a_glob_in_a_value(run: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused


@pytest.mark.parametrize(
    ("send", "refused"),
    [
        ('--data-binary @"$body"', True),
        ("--data-binary @$body", True),
        ('-F "f=<$body"', True),
        ('-H "Authorization: Bearer $API_TOKEN"', False),
    ],
)
def test_a_body_from_a_secrets_file_follows(send: str, refused: bool, tmp_path: Path) -> None:
    run = (
        'body="$HARBOR_RUN_DIR/body.txt"\n'
        'printf \'token=%s\' "$API_TOKEN" > "$body"\n'
        f'curl -sS -L {send} "https://api.example.com/v1/$ARG_path"'
    )
    status, _findings = check_steps([run], tmp_path, args=_ARGS, **_SECRET)
    assert (status == "refused") == refused
