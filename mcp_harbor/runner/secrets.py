"""Read an export's ``secrets:`` where its steps run.

A secret is read by the executor that runs the steps, at the run's start: a
worker reads its own environment and files, so the value never crosses the
wire, and it is never recorded (`mcp_harbor.runner.scrub` removes it from
everything the run records or returns).
"""

from __future__ import annotations

import os

from mcp_harbor.config import Export
from mcp_harbor.config.model import SecretSource
from mcp_harbor.errors import NeedsMissing

__all__ = ["missing_secret", "read_secrets"]


def missing_secret(name: str, source: SecretSource, export: Export) -> str:
    """Why the secret `name` cannot be read (for messages): names the secret
    and its source, never a value."""
    where = f"{export.path}:{export.source.line_of(('secrets', name))}"
    if source.env is not None:
        return (
            f"secret {name}: environment variable {source.env} is not set or empty "
            f"(needed at {where})"
        )
    return (
        f"secret {name}: file {export.secret_file(name)} is missing, unreadable or empty "
        f"(needed at {where})"
    )


def _read(export: Export, name: str, source: SecretSource) -> str | None:
    if source.env is not None:
        return os.environ.get(source.env) or None
    path = export.secret_file(name)
    assert path is not None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if data.endswith(b"\n"):
        data = data[:-1]
    return os.fsdecode(data) or None


def read_secrets(export: Export) -> dict[str, str]:
    """The value of each of the export's secrets, by the name steps see: an
    environment variable's value, or a file's content with one trailing
    newline stripped.

    Raises:
        NeedsMissing: a secret's variable is unset or empty, or its file is
            missing, unreadable or empty (the message names every such
            secret and its source).
    """
    values: dict[str, str] = {}
    missing: list[str] = []
    for name, source in export.spec.secrets.items():
        value = _read(export, name, source)
        if value is None:
            missing.append(missing_secret(name, source, export))
        else:
            values[name] = value
    if missing:
        raise NeedsMissing(f"{export.name} cannot run now: {'; '.join(missing)}. Nothing was run")
    return values
