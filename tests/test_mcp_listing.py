"""Issue 2, item 1: tools/list over stdio and Streamable HTTP, in both protocol
eras, publishes every export with its title, description, an input schema
built from `args` + `required` (additionalProperties false, harbor-only keys
removed, a string refused when it starts with `-` advertised as
``not: {pattern: "^-"}``), an output schema and the annotations."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from harbor_helpers import MODES, PROTOCOL, HttpServer, http_server, stdio_client_of, write_export
from mcp import Client

pytestmark = pytest.mark.anyio

DEPLOY = """
    name: deploy
    title: Deploy a service
    description: Deploy one service to an environment.
    args:
      service: {type: string, pattern: "^[a-z][a-z0-9-]*$", description: Service name}
      env: {type: string, enum: [staging, prod]}
      replicas: {type: integer, minimum: 1, maximum: 10, default: 2}
      note: {type: string, multiline: true}
    required: [service, env]
    annotations:
      readOnlyHint: false
      destructiveHint: true
      idempotentHint: true
      openWorldHint: false
    steps:
      - name: go
        run: echo deploying {{ args.service | shellquote }}
"""

PING = """
    name: ping
    description: Say pong.
    steps:
      - name: pong
        argv: [echo, pong]
"""

EXPECTED_DEPLOY_INPUT = {
    "type": "object",
    "properties": {
        "service": {
            "type": "string",
            "pattern": "^[a-z][a-z0-9-]*$",
            "description": "Service name",
            "not": {"pattern": "^-"},
        },
        "env": {"type": "string", "enum": ["staging", "prod"]},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 2},
        "note": {"type": "string", "not": {"pattern": "^-"}},
    },
    "required": ["service", "env"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("listing") / "exports"
    write_export(folder, "deploy.yaml", DEPLOY)
    write_export(folder, "ping.yml", PING)
    return folder


@pytest.fixture(scope="module")
def server(exports: Path) -> Iterator[HttpServer]:
    with http_server(exports, exports.parent / "state") as srv:
        yield srv


async def check_listing(client: Client, mode: str) -> None:
    assert client.protocol_version == PROTOCOL[mode]
    listing = await client.list_tools()
    tools = {t.name: t for t in listing.tools}
    assert sorted(tools) == ["deploy", "ping"]

    deploy = tools["deploy"]
    assert deploy.title == "Deploy a service"
    assert deploy.description == "Deploy one service to an environment."
    assert deploy.input_schema == EXPECTED_DEPLOY_INPUT
    jsonschema.Draft202012Validator.check_schema(deploy.input_schema)
    # No output_schema of its own: no outputSchema (the envelope, the same
    # for every tool, is documented once, not declared on each).
    assert deploy.output_schema is None
    assert deploy.annotations is not None
    wire = deploy.annotations.model_dump(by_alias=True, exclude_none=True)
    assert wire == {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": True,
        "openWorldHint": False,
    }

    ping = tools["ping"]
    assert ping.title is None
    assert ping.description == "Say pong."
    assert ping.input_schema == {"type": "object", "properties": {}, "additionalProperties": False}
    assert ping.output_schema is None
    assert ping.annotations is None


@pytest.mark.parametrize("mode", MODES)
async def test_list_over_stdio(exports: Path, tmp_path: Path, mode: str) -> None:
    async with stdio_client_of(exports, tmp_path / "state", mode) as client:
        await check_listing(client, mode)


@pytest.mark.parametrize("mode", MODES)
async def test_list_over_http(server: HttpServer, mode: str) -> None:
    async with Client(server.url, mode=mode) as client:
        await check_listing(client, mode)
