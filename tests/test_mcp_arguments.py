"""Issue 2, item 3: invalid arguments of every kind are refused with a tool
error that names the argument and the rule, and nothing runs: no process
(the step would append to a marker file) and no run directory. Valid calls
get defaults applied and multiline args accepted."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import MODES, HttpServer, http_server, stdio_client_of, text_of, write_export
from mcp import Client

pytestmark = pytest.mark.anyio


def strict_export(marker: Path) -> str:
    return f"""
    name: strict
    description: Arguments with every kind of rule.
    args:
      name: {{type: string, pattern: "^[a-z]+$"}}
      loose: {{type: string, pattern: "[a-z]+"}}
      tag: {{type: string, pattern: "^[a-z]+$", multiline: true}}
      count: {{type: integer, minimum: 1, maximum: 5}}
      color: {{type: string, enum: [red, green]}}
      text: {{type: string}}
      body: {{type: string, multiline: true}}
      level: {{type: string, default: info}}
      tags: {{type: array, items: {{type: string}}, default: [a, b]}}
    required: [name]
    steps:
      - name: mark
        run: |
          echo "$HARBOR_RUN_ID" >> {marker}
          printf 'level=[%s] tags=[%s] body=[%s]' "$ARG_level" "$ARG_tags" "$ARG_body"
    """


# (arguments, fragments the error must contain: the argument and the rule)
INVALID: dict[str, tuple[dict[str, Any], list[str]]] = {
    "missing-required": ({"count": 2}, ["'name' is missing", "rule: required"]),
    "wrong-type": ({"name": "abc", "count": "3"}, ["'count'", "rule: type"]),
    "wrong-type-bool": ({"name": "abc", "count": True}, ["'count'", "rule: type"]),
    "unknown-arg": (
        {"name": "abc", "colour": "red"},
        ["unknown argument 'colour'", "did you mean 'color'", "rule: additionalProperties"],
    ),
    "above-maximum": ({"name": "abc", "count": 9}, ["'count'", "rule: maximum"]),
    "below-minimum": ({"name": "abc", "count": 0}, ["'count'", "rule: minimum"]),
    "enum-miss": ({"name": "abc", "color": "blue"}, ["'color'", "rule: enum"]),
    "anchored-pattern-trailing-newline": (
        {"name": "abc", "tag": "abc\n"},
        ["'tag'", "rule: pattern", "whole value"],
    ),
    "unanchored-pattern-is-full-match": (
        {"name": "abc", "loose": "abc;rm"},
        ["'loose'", "rule: pattern"],
    ),
    "pattern-miss": ({"name": "ABC"}, ["'name'", "rule: pattern"]),
    "nul": ({"name": "abc", "text": "a\x00b"}, ["'text'", "NUL", "rule: no-nul"]),
    "nul-in-multiline": ({"name": "abc", "body": "a\x00b"}, ["'body'", "NUL", "rule: no-nul"]),
    "nul-in-array": ({"name": "abc", "tags": ["ok", "b\x00"]}, ["'tags'", "rule: no-nul"]),
    "newline": ({"name": "abc", "text": "one\ntwo"}, ["'text'", "line break", "single-line"]),
    "carriage-return": ({"name": "abc", "text": "one\rtwo"}, ["'text'", "single-line"]),
    "newline-in-required-pattern": ({"name": "abc\n"}, ["'name'", "single-line"]),
}


@dataclass
class Setup:
    exports: Path
    state: Path
    marker: Path

    @property
    def runs(self) -> Path:
        return self.state / "mcp-harbor" / "runs"

    def ran(self) -> tuple[int, int]:
        """(marker lines, run directories): both must stay put on refusal."""
        lines = len(self.marker.read_text().splitlines()) if self.marker.exists() else 0
        dirs = len(list(self.runs.iterdir())) if self.runs.exists() else 0
        return lines, dirs


def make_setup(root: Path) -> Setup:
    marker = root / "ran.log"
    exports = root / "exports"
    write_export(exports, "strict.yaml", strict_export(marker))
    return Setup(exports, root / "state", marker)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    return make_setup(tmp_path_factory.mktemp("arguments"))


@pytest.fixture(scope="module")
def server(setup: Setup) -> Iterator[HttpServer]:
    with http_server(setup.exports, setup.state) as srv:
        yield srv


async def check_refused(client: Client, setup: Setup, case: str) -> None:
    arguments, fragments = INVALID[case]
    before = setup.ran()
    result = await client.call_tool("strict", arguments)
    text = text_of(result)
    assert result.is_error is True, text
    for fragment in fragments:
        assert fragment in text, f"{case}: {fragment!r} not in {text!r}"
    assert "Nothing was run." in text
    assert "Traceback" not in text
    assert setup.ran() == before, f"{case}: something ran"


async def check_accepted(client: Client, setup: Setup) -> None:
    before_lines, before_dirs = setup.ran()
    result = await client.call_tool("strict", {"name": "abc", "body": "line 1\nline 2\r\n"})
    assert result.is_error is False, text_of(result)
    data = result.structured_content
    assert data is not None
    # Defaults applied (`level`, `tags`); multiline accepted byte for byte.
    assert data["steps"][0]["stdout_tail"] == (
        'level=[info] tags=[["a","b"]] body=[line 1\nline 2\r\n]'
    )
    assert setup.ran() == (before_lines + 1, before_dirs + 1)  # the marker proves it can run


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(INVALID))
async def test_invalid_arguments_refused_over_http(
    server: HttpServer, setup: Setup, case: str, mode: str
) -> None:
    async with Client(server.url, mode=mode) as client:
        await check_refused(client, setup, case)


@pytest.mark.parametrize("mode", MODES)
async def test_valid_arguments_run_with_defaults_over_http(
    server: HttpServer, setup: Setup, mode: str
) -> None:
    async with Client(server.url, mode=mode) as client:
        await check_accepted(client, setup)


@pytest.mark.parametrize("mode", MODES)
async def test_arguments_over_stdio(tmp_path: Path, mode: str) -> None:
    setup = make_setup(tmp_path)
    async with stdio_client_of(setup.exports, setup.state, mode) as client:
        for case in sorted(INVALID):
            await check_refused(client, setup, case)
        await check_accepted(client, setup)
    assert setup.ran() == (1, 1)
