"""Issue 4: the ``allow:`` rules of an export.

`is_allowed` on real `Caller` values (principal, ``group:``, ``tenant:``,
``*``), invalid entries refused when the export is loaded (naming the file),
and over a real stdio server: the local principal is matched like any other,
a denied tool is absent and answered like an unknown one, and the denial is
audited.
"""

from __future__ import annotations

import getpass
from pathlib import Path

import pytest
from harbor_helpers import MODES, audit_json, harbor_cli, stdio_client_of, write_export
from mcp.shared.exceptions import MCPError

from mcp_harbor.identity import Caller
from mcp_harbor.policy import DEFAULT_ALLOW, is_allowed

ALICE = Caller(transport="http", principal="alice", tenant="acme", groups=("ops", "dev"))
BOB = Caller(transport="http", principal="bob", tenant="other")
NOBODY = Caller(transport="http", principal="anonymous", authenticated=False)


@pytest.mark.parametrize(
    ("allow", "alice", "bob"),
    [
        (["*"], True, True),
        (["alice"], True, False),
        (["bob", "alice"], True, True),
        (["group:ops"], True, False),
        (["group:dev"], True, False),
        (["group:admins"], False, False),
        (["tenant:acme"], True, False),
        (["tenant:other"], False, True),
        (["tenant:acme", "bob"], True, True),
        (["Alice"], False, False),  # exact, case-sensitive
        (["ops"], False, False),  # a group is only matched as group:NAME
        (["acme"], False, False),  # a tenant is only matched as tenant:NAME
        (["group:acme", "tenant:ops"], False, False),  # prefixes are not interchangeable
    ],
)
def test_allow_entries(allow: list[str], alice: bool, bob: bool) -> None:
    assert is_allowed(ALICE, allow) is alice
    assert is_allowed(BOB, allow) is bob


def test_star_is_the_default_and_needs_an_authenticated_caller() -> None:
    assert DEFAULT_ALLOW == ("*",)
    assert is_allowed(ALICE, DEFAULT_ALLOW)
    assert not is_allowed(NOBODY, DEFAULT_ALLOW)
    assert is_allowed(NOBODY, ["anonymous"])  # named explicitly, it matches


@pytest.mark.parametrize("entry", ["", " alice", "group:", "tenant:"])
def test_invalid_allow_entries_are_refused_at_load(tmp_path: Path, entry: str) -> None:
    exports = tmp_path / "exports"
    write_export(
        exports,
        "bad.yaml",
        f"""
        name: bad
        description: Bad allow entry.
        allow: ["ok", "{entry}"]
        steps:
          - name: a
            run: "true"
        """,
    )
    proc = harbor_cli("tools", "--exports", str(exports), check=False)
    assert proc.returncode == 2
    assert "bad.yaml" in proc.stderr and "allow" in proc.stderr


def test_an_empty_allow_list_is_refused(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(
        exports,
        "bad.yaml",
        """
        name: bad
        description: Nobody at all.
        allow: []
        steps:
          - name: a
            run: "true"
        """,
    )
    proc = harbor_cli("tools", "--exports", str(exports), check=False)
    assert proc.returncode == 2 and "allow" in proc.stderr


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_stdio_principal_is_matched_like_any_other(tmp_path: Path, mode: str) -> None:
    me = f"local:{getpass.getuser()}"
    exports, db = tmp_path / "exports", tmp_path / "a.db"
    for name, rule in (("mine", me), ("theirs", "alice"), ("local", "tenant:local")):
        write_export(
            exports,
            f"{name}.yaml",
            f"""
            name: {name}
            description: Allowed to {rule}.
            allow: ["{rule}"]
            steps:
              - name: a
                run: echo {name}
            """,
        )
    async with stdio_client_of(exports, tmp_path / "state", mode, "--db", str(db)) as client:
        assert {t.name for t in (await client.list_tools()).tools} == {"mine", "local"}
        assert (await client.call_tool("mine", {})).is_error is False
        with pytest.raises(MCPError) as denied:
            await client.call_tool("theirs", {})
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("ghost", {})
    assert (denied.value.code, denied.value.message) == (-32602, "Unknown tool: theirs")
    assert (unknown.value.code, unknown.value.message) == (-32602, "Unknown tool: ghost")
    calls = {c["tool"]: c for c in audit_json(db)}
    assert calls["theirs"]["status"] == "denied" and calls["theirs"]["principal"] == me
    assert calls["ghost"]["status"] == "unknown"
    assert calls["mine"]["status"] == "ok"
