"""``mcp-harbor bundle`` (issue 21): an MCP Bundle of the shipped exports
whose manifest passes the MCPB validator's schema (vendored from
``@anthropic-ai/mcpb``, see tests/fixtures/README.md), whose server, started
as the manifest says, publishes exactly the tools it lists, and which is
never built from exports the checker refuses."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from harbor_helpers import MODES, PY, harbor_cli, server_env, write_export
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((Path(__file__).parent / "fixtures" / "mcpb-manifest.schema.json").read_text())
SCRIPT = Path(sys.executable).parent / "mcp-harbor"


def _build(tmp_path: Path, *extra: str, name: str = "harbor-tools.mcpb") -> Path:
    output = tmp_path / name
    proc = harbor_cli(
        "bundle", "--exports", str(ROOT / "exports"), "-o", str(output), *extra, state=tmp_path
    )
    assert f"wrote {output}" in proc.stderr
    return output


def _unpack(bundle: Path, into: Path) -> dict[str, Any]:
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(into)
    return dict(json.loads((into / "manifest.json").read_text()))


def test_the_manifest_passes_the_validator_schema_and_lists_the_tools(tmp_path: Path) -> None:
    bundle = _build(tmp_path)
    with zipfile.ZipFile(bundle) as archive:
        members = set(archive.namelist())
    # Every shipped export but triage_failure, whose agent step needs a
    # models file, which a bundle never carries.
    shipped = sorted(p.name for p in (ROOT / "exports").glob("*.yaml"))
    assert "triage_failure.yaml" in shipped
    shipped.remove("triage_failure.yaml")
    assert members == {"manifest.json", "server/main.py"} | {f"exports/{n}" for n in shipped}
    manifest = _unpack(bundle, tmp_path / "unpacked")

    jsonschema.Draft7Validator(SCHEMA).validate(manifest)
    assert manifest["manifest_version"] == "0.3"  # the validator's one rule beyond the schema
    assert manifest["name"] == "harbor-tools"
    assert (tmp_path / "unpacked" / manifest["server"]["entry_point"]).is_file()
    listed = json.loads(harbor_cli("tools", "--json", "--exports", str(ROOT / "exports")).stdout)
    offered = [t["name"] for t in listed["tools"] if t.get("available", True)]
    assert [t["name"] for t in manifest["tools"]] == offered
    config = manifest["server"]["mcp_config"]
    assert config["command"] == "uvx"
    assert config["args"] == [
        "--from",
        "mcp-harbor==0.1.0",
        "mcp-harbor",
        "serve",
        "--exports",
        "${__dirname}/exports",
        "--workdir",
        "${user_config.workdir}",
    ]
    assert manifest["user_config"]["workdir"]["type"] == "directory"
    for name in shipped:  # the export files as they are
        assert (tmp_path / "unpacked" / "exports" / name).read_bytes() == (
            ROOT / "exports" / name
        ).read_bytes()


def test_the_same_exports_make_the_same_bundle(tmp_path: Path) -> None:
    first = _build(tmp_path, name="a.mcpb").read_bytes()
    second = _build(tmp_path, name="a.mcpb").read_bytes()
    assert first == second


def _host_argv(manifest: dict[str, Any], bundle_dir: Path, workdir: Path) -> list[str]:
    """The command line a host runs: mcp_config with its variables filled."""
    config = manifest["server"]["mcp_config"]
    return [
        part.replace("${__dirname}", str(bundle_dir)).replace(
            "${user_config.workdir}", str(workdir)
        )
        for part in [config["command"], *config["args"]]
    ]


async def _tool_names(argv: list[str], state: Path, mode: str) -> list[str]:
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=server_env(state))
    async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
        return [t.name for t in (await client.list_tools()).tools]


@pytest.mark.parametrize("mode", MODES)
def test_the_bundled_server_publishes_what_the_manifest_lists(tmp_path: Path, mode: str) -> None:
    assert SCRIPT.is_file(), "the README's install puts mcp-harbor beside python"
    bundle = _build(tmp_path, "--executable", str(SCRIPT))
    unpacked = tmp_path / "installed"
    manifest = _unpack(bundle, unpacked)
    jsonschema.Draft7Validator(SCHEMA).validate(manifest)
    assert manifest["server"]["mcp_config"]["command"] == str(SCRIPT)
    listed = [t["name"] for t in manifest["tools"]]
    workdir = tmp_path / "project"
    workdir.mkdir()
    argv = _host_argv(manifest, unpacked, workdir)
    assert sorted(anyio.run(_tool_names, argv, tmp_path / "state", mode)) == sorted(listed)
    # The entry point serves the same exports with a Python that has mcp-harbor.
    entry = [PY, str(unpacked / manifest["server"]["entry_point"]), "--workdir", str(workdir)]
    assert sorted(anyio.run(_tool_names, entry, tmp_path / "state", mode)) == sorted(listed)


def test_exports_the_checker_refuses_are_never_bundled(tmp_path: Path) -> None:
    write_export(
        tmp_path / "exports",
        "unsafe.yaml",
        """
        name: unsafe
        description: splices a caller value into the script
        args: {who: {type: string}}
        steps:
          - name: greet
            run: echo hello {{ args.who }}
        """,
    )
    output = tmp_path / "unsafe.mcpb"
    proc = harbor_cli(
        "bundle", "--exports", str(tmp_path / "exports"), "-o", str(output), check=False
    )
    assert proc.returncode == 1
    assert "refusing to start: the checker refused 1 export(s)" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not output.exists()


def test_two_export_files_of_one_name_are_one_clear_line(tmp_path: Path) -> None:
    text = "name: {n}\ndescription: x\nsteps: [{{name: s, run: 'true'}}]\n"
    write_export(tmp_path / "a", "tool.yaml", text.format(n="one"))
    write_export(tmp_path / "b", "tool.yaml", text.format(n="two"))
    output = tmp_path / "x.mcpb"
    proc = harbor_cli(
        "bundle",
        "--exports",
        str(tmp_path / "a"),
        "--exports",
        str(tmp_path / "b"),
        "-o",
        str(output),
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"{tmp_path / 'b' / 'tool.yaml'}: another export file is also named tool.yaml, "
        "and a bundle holds one folder of exports; rename one of them"
    ]
    assert not output.exists()
