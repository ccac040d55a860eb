"""The repository's ``server.json`` for the MCP Registry (issue 21): valid
under the registry's schema (tests/fixtures/mcp-server.schema.json, see
tests/fixtures/README.md), the PyPI package and version this repository
builds, stdio, and the ownership line the registry looks for in the README."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((Path(__file__).parent / "fixtures" / "mcp-server.schema.json").read_text())


def _server() -> dict[str, object]:
    return dict(json.loads((ROOT / "server.json").read_text()))


def test_server_json_is_valid_under_the_registry_schema() -> None:
    server = _server()
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    validator.validate(server)
    assert server["$schema"] == SCHEMA["$id"]


def test_the_schema_copy_refuses_what_the_registry_refuses() -> None:
    validator = jsonschema.Draft7Validator(SCHEMA)
    server = _server()
    too_long = dict(server, description="x" * 101)
    no_slash = dict(server, name="mcp-harbor")
    latest = json.loads(json.dumps(server))
    latest["packages"][0]["version"] = "latest"
    no_transport = json.loads(json.dumps(server))
    del no_transport["packages"][0]["transport"]
    for bad in (too_long, no_slash, latest, no_transport):
        assert list(validator.iter_errors(bad)), bad


def test_server_json_names_this_package_version_and_stdio() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    server = _server()
    assert server["version"] == project["version"]
    (package,) = server["packages"]  # type: ignore[misc]
    assert package["registryType"] == "pypi"
    assert package["identifier"] == project["name"] == "mcp-harbor"
    assert package["version"] == project["version"]
    assert package["transport"] == {"type": "stdio"}
    # The registry proves the PyPI package is ours by this line of its README.
    assert f"mcp-name: {server['name']}" in (ROOT / "README.md").read_text()
