"""aws's grammar: every service's read-only operations (``describe-``,
``list-``, ``get-``) and ``s3 ls`` take data in every parameter, but a
value that starts with ``file://`` or ``fileb://`` is read from the file it
names (AWS CLI 2, paramfile); every other operation has no grammar."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {
    "name": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"},
    "path": {"type": "string", "pattern": "^[a-z][a-z0-9:/.-]*$"},
    "region": {"type": "string", "enum": ["eu-west-1", "us-east-1"]},
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a read-only operation: the caller's values are data
        ('aws sqs get-queue-url --queue-name "$ARG_name"', False),
        (
            'aws ec2 --region "$ARG_region" describe-instances '
            '--filters "Name=tag:team,Values=$ARG_name"',
            False,
        ),
        ('aws s3 ls "s3://acme-data/$ARG_path/"', False),
        (
            'ec2() { aws ec2 --region "$ARG_region" --output json "$@"; }\nec2 describe-volumes',
            False,
        ),
        # a value that may start with file:// is a file aws reads
        ('aws iam get-user --user-name "$ARG_path"', True),
        ('aws iam get-user --user-name "file://$ARG_name"', True),
        (
            'u=$(aws iam list-users --query "Users[0].UserName" --output text)\n'
            'aws iam get-user --user-name "$u"',
            True,
        ),
        # where the credentials go, the whole request: the author's only
        (
            'aws sqs get-queue-url --endpoint-url "https://$ARG_name.example.com" --queue-name q',
            True,
        ),
        ('aws --profile "$ARG_name" sts get-caller-identity', True),
        # operations that change things, and the settings, have no grammar
        (
            "aws ssm send-command --document-name AWS-RunShellScript "
            '--parameters "commands=$ARG_name"',
            True,
        ),
        ('aws configure set region "$ARG_name"', True),
        ('aws s3 cp "s3://acme-data/$ARG_name" .', True),
        ('aws s3api get-object --bucket acme --key k "$ARG_name"', True),
    ],
)
def test_aws_read_only_operations(run: str, refused: bool, tmp_path: Path) -> None:
    status, _findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused
