"""Issue 4: who is calling over stdio.

A real ``mcp-harbor serve`` over stdio in both protocol eras: the principal
is the local OS user who started the server (``local:<user>``), the client's
name and version are recorded as claimed, the session is the stdio
connection (the same for every call of one connection, different for the
next), and the steps see ``HARBOR_CALLER_*``. Read back with the real
``mcp-harbor audit`` table and ``--json``.
"""

from __future__ import annotations

import getpass
from pathlib import Path

import mcp_types as types
import pytest
from harbor_helpers import MODES, PROTOCOL, audit_json, harbor_cli, stdio_client_of, write_export

pytestmark = pytest.mark.anyio

WHOAMI = """
    name: whoami
    description: Prints the caller variables the step sees.
    steps:
      - name: show
        run: set | grep '^HARBOR_CALLER_' | sort  # shell variables too (claimed fields)
"""


def caller_env(result: types.CallToolResult) -> dict[str, str]:
    data = result.structured_content
    assert data is not None and data["status"] == "ok", data
    tail = data["steps"][0]["stdout_tail"]
    return dict(line.split("=", 1) for line in tail.splitlines() if "=" in line)


@pytest.mark.parametrize("mode", MODES)
async def test_local_principal_and_claimed_client(tmp_path: Path, mode: str) -> None:
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    write_export(exports, "whoami.yaml", WHOAMI)
    claimed = types.Implementation(name=f"claims-to-be-{mode}", version="0.0.1")
    principal = f"local:{getpass.getuser()}"
    state = tmp_path / "state"
    async with stdio_client_of(exports, state, mode, "--db", str(db), client_info=claimed) as c:
        assert c.protocol_version == PROTOCOL[mode]
        first = caller_env(await c.call_tool("whoami", {}))
        second = caller_env(await c.call_tool("whoami", {}))
    async with stdio_client_of(exports, state, mode, "--db", str(db), client_info=claimed) as c:
        third = caller_env(await c.call_tool("whoami", {}))

    assert first["HARBOR_CALLER_PRINCIPAL"] == principal
    assert first["HARBOR_CALLER_TENANT"] == "local"
    assert first["HARBOR_CALLER_TRANSPORT"] == "stdio"
    assert first["HARBOR_CALLER_CLIENT"] == f"claims-to-be-{mode}"
    assert first["HARBOR_CALLER_CLIENT_VERSION"] == "0.0.1"
    assert "HARBOR_CALLER_REMOTE_ADDR" not in first  # no network peer over stdio
    # One stdio connection is one session; the next server is another.
    assert first["HARBOR_CALLER_SESSION"].startswith("stdio:")
    assert second["HARBOR_CALLER_SESSION"] == first["HARBOR_CALLER_SESSION"]
    assert third["HARBOR_CALLER_SESSION"] != first["HARBOR_CALLER_SESSION"]
    assert first["HARBOR_CALLER_REQUEST_ID"] != second["HARBOR_CALLER_REQUEST_ID"]

    calls = audit_json(db)
    assert len(calls) == 3 and {c["status"] for c in calls} == {"ok"}
    for call in calls:
        caller = call["caller"]
        assert call["principal"] == principal
        assert caller["transport"] == "stdio"
        assert caller["client_name"] == f"claims-to-be-{mode}"
        assert caller["client_version"] == "0.0.1"
        assert caller["client_claimed"] is True
        assert caller["remote_addr"] is None
        assert caller["protocol_version"] == PROTOCOL[mode]
    newest = calls[-1]  # newest first: the last is the first call
    assert newest["caller"]["session"] == first["HARBOR_CALLER_SESSION"]
    assert newest["caller"]["request_id"] == first["HARBOR_CALLER_REQUEST_ID"]

    table = harbor_cli("audit", "--db", str(db)).stdout
    assert "client (claimed)" in table
    assert f"claims-to-be-{mode} 0.0.1" in table and principal in table
    assert harbor_cli("audit", "verify", "--db", str(db)).returncode == 0
