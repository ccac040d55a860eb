"""What a step inherits of the server's environment, in-process through the
real call path (`CallService`, real bash, a real SQLite file): the server's
variables as they are at each call (the inherited part is cached between
calls, so a change must still be seen), minus ``BASH_ENV``/``ENV`` and any
inherited ``ARG_*``/``HARBOR_*``."""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.config.loader import load_export
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import CallRequest, ExportCatalog
from mcp_harbor.runctx.service import CallService, RunSettings
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

EXPORT = """
    name: show_env
    description: Prints a few variables of its environment.
    steps:
      - name: show
        run: |
          echo "probe=${SERVER_ENV_PROBE-unset}"
          echo "bash_env=${BASH_ENV-unset}"
          echo "arg=${ARG_smuggled-unset}"
          echo "harbor=${HARBOR_SMUGGLED-unset}"
"""


async def test_steps_see_the_server_environment_as_it_is_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_export(tmp_path / "exports", "show_env.yaml", EXPORT)
    export = load_export(path)
    store = SqliteStore(tmp_path / "audit.db")
    try:
        service = CallService(
            RunSettings(runs_root=tmp_path / "runs", workdir=tmp_path),
            AuditTrail(store),
            store,
            catalog=ExportCatalog([export]),
        )
        caller = Caller(transport="stdio", principal="local:test", session="stdio:test")

        async def output() -> str:
            envelope = await service.call(CallRequest(export.name, {}, caller))
            assert envelope.ok, envelope.answer
            return str(envelope.steps[0]["stdout_tail"])

        monkeypatch.setenv("SERVER_ENV_PROBE", "one")
        monkeypatch.setenv("BASH_ENV", str(tmp_path / "never-read"))
        monkeypatch.setenv("ARG_smuggled", "from the server")
        monkeypatch.setenv("HARBOR_SMUGGLED", "from the server")
        first = await output()
        assert "probe=one\n" in first
        assert "bash_env=unset\narg=unset\nharbor=unset\n" in first

        monkeypatch.setenv("SERVER_ENV_PROBE", "two")
        assert "probe=two\n" in await output()

        monkeypatch.delenv("SERVER_ENV_PROBE")
        assert "probe=unset\n" in await output()
    finally:
        store.close()
