"""Issue 17, `leading_dash`: a string argument (or a string item of an array
argument) that starts with ``-`` is refused before anything runs, unless its
arg declares ``leading_dash: true``; args with ``enum``/``const`` are exempt.
Clients see the rule as ``not: {pattern: "^-"}`` and never the keyword; the
checker's `arg_schemas` keep it. Through the real `ArgumentValidator`, the
real loader and a real ``mcp-harbor serve`` over stdio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
from harbor_helpers import stdio_client_of, text_of, write_export

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.config import Export, load_export
from mcp_harbor.errors import ArgumentError, ConfigError

pytestmark = pytest.mark.anyio

DASH = """
    name: dash
    description: Args with and without leading_dash.
    args:
      path: {type: string}
      flags: {type: string, leading_dash: true, pattern: "^-[a-z]+$"}
      mode: {type: string, enum: ["--oneline", "--stat"]}
      fixed: {const: "-x"}
      count: {type: integer, minimum: -10}
      either: {type: [string, integer]}
      anything: {}
      words: {type: array, items: {type: string}}
      options: {type: array, items: {type: string}, leading_dash: true}
      picks: {type: array, items: {enum: ["-a", "-b"]}}
      guarded: {type: string, not: {const: forbidden}}
      token: {type: string, secret: true}
    steps:
      - name: show
        argv: [printf, "%s|%s", "{{ args.flags }}", "{{ args.path }}"]
"""


@pytest.fixture
def export(tmp_path: Path) -> Export:
    return load_export(write_export(tmp_path, "dash.yaml", DASH))


REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "option": ({"path": "-rf"}, "argument 'path': the value starts with '-'"),
    "long-option": ({"path": "--output=/tmp/x"}, "argument 'path'"),
    "lone-dash": ({"path": "-"}, "argument 'path'"),
    "end-of-options": ({"path": "--"}, "argument 'path'"),
    "negative-as-string": ({"either": "-1"}, "argument 'either'"),
    "untyped-string": ({"anything": "-x"}, "argument 'anything'"),
    "untyped-array-item": ({"anything": ["ok", "-x"]}, "argument 'anything'[1]"),
    "array-item": ({"words": ["a", "b", "--c"]}, "argument 'words'[2]"),
    "with-own-not": ({"guarded": "-x"}, "argument 'guarded'"),
}

ACCEPTED: dict[str, dict[str, Any]] = {
    "dash-inside": {"path": "a-b"},
    "dash-last": {"path": "x-"},
    "declared": {"flags": "-la"},
    "enum-value": {"mode": "--oneline"},
    "const-value": {"fixed": "-x"},
    "negative-integer": {"count": -1},
    "negative-integer-of-union": {"either": -1},
    "untyped-number": {"anything": -3},
    "array-plain": {"words": ["a", "b-"]},
    "array-declared": {"options": ["-a", "--b"]},
    "array-enum-items": {"picks": ["-a", "-b"]},
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_by_the_validator(export: Export, case: str) -> None:
    arguments, fragment = REFUSED[case]
    with pytest.raises(ArgumentError) as info:
        ArgumentValidator(export).validate(arguments)
    message = str(info.value)
    assert fragment in message, message
    assert "which a program could read as an option" in message
    assert "leading_dash: true" in message  # the fix
    assert "(rule: no-leading-dash)" in message
    assert message.count("- argument") == 1, message  # one problem, not the schema's too


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_accepted_by_the_validator(export: Export, case: str) -> None:
    arguments = ACCEPTED[case]
    assert ArgumentValidator(export).validate(arguments) == arguments


def test_a_secret_is_not_echoed(export: Export) -> None:
    with pytest.raises(ArgumentError) as info:
        ArgumentValidator(export).validate({"token": "-hunter2"})
    assert "argument 'token'" in str(info.value) and "hunter2" not in str(info.value)


def test_other_rules_still_apply_to_declared_args(export: Export) -> None:
    with pytest.raises(ArgumentError) as info:
        ArgumentValidator(export).validate({"flags": "-la b"})
    assert "argument 'flags'" in str(info.value) and "rule: pattern" in str(info.value)


def test_what_clients_see(export: Export) -> None:
    properties = export.input_schema["properties"]
    assert properties["path"] == {"type": "string", "not": {"pattern": "^-"}}
    assert properties["flags"] == {"type": "string", "pattern": "^-[a-z]+$"}
    assert properties["mode"] == {"type": "string", "enum": ["--oneline", "--stat"]}
    assert properties["fixed"] == {"const": "-x"}
    assert properties["count"] == {"type": "integer", "minimum": -10}
    # a bare `pattern` holds for every non-string: the refusal names the type
    refusal = {"type": "string", "pattern": "^-"}
    assert properties["either"] == {"type": ["string", "integer"], "not": refusal}
    assert properties["anything"] == {"not": refusal, "items": {"not": refusal}}
    assert properties["words"] == {
        "type": "array",
        "items": {"type": "string", "not": {"pattern": "^-"}},
    }
    assert properties["options"] == {"type": "array", "items": {"type": "string"}}
    assert properties["picks"] == {"type": "array", "items": {"enum": ["-a", "-b"]}}
    assert properties["guarded"] == {  # its own `not` is kept; the rule goes into allOf
        "type": "string",
        "not": {"const": "forbidden"},
        "allOf": [{"not": {"pattern": "^-"}}],
    }
    assert properties["token"] == {"type": "string", "not": {"pattern": "^-"}}
    assert not any("leading_dash" in str(schema) for schema in properties.values())
    # A client's own validator (re.search semantics) agrees with the server.
    jsonschema.Draft202012Validator.check_schema(export.input_schema)
    client = jsonschema.Draft202012Validator(export.input_schema)
    for case, (arguments, _) in REFUSED.items():
        assert not client.is_valid(arguments), case
    for case, arguments in ACCEPTED.items():
        assert client.is_valid(arguments), case


def test_the_checker_sees_the_keyword(export: Export) -> None:
    """`export.arg_schemas` (what the checker's `model_for` gets) are the
    args as written: `leading_dash` kept, no published `not` added."""
    assert export.arg_schemas["flags"] == {
        "type": "string",
        "leading_dash": True,
        "pattern": "^-[a-z]+$",
    }
    assert export.arg_schemas["path"] == {"type": "string"}
    assert export.arg_schemas["options"]["leading_dash"] is True


@pytest.mark.parametrize(
    ("arg", "needle"),
    [
        ("{type: string, leading_dash: yes please}", "x.yaml:4: args.v.leading_dash must be true"),
        ("{type: string, default: -v}", "x.yaml:4: args.v.default starts with '-'"),
        (
            "{type: array, items: {type: string}, default: [a, --b]}",
            "x.yaml:4: args.v.default starts with '-'",
        ),
    ],
)
def test_invalid_config(tmp_path: Path, arg: str, needle: str) -> None:
    text = f"name: x\ndescription: d\nargs:\n  v: {arg}\nsteps:\n  - name: s\n    run: 'true'\n"
    with pytest.raises(ConfigError) as info:
        load_export(write_export(tmp_path, "x.yaml", text))
    assert needle in str(info.value), str(info.value)
    assert "leading_dash: true" in str(info.value) or "must be true or false" in str(info.value)


def test_a_dash_default_is_fine_where_allowed(tmp_path: Path) -> None:
    text = (
        "name: x\ndescription: d\nargs:\n  v: {type: string, leading_dash: true, default: -v}\n"
        "  m: {type: string, enum: [--a, --b], default: --a}\n"
        "steps:\n  - name: s\n    run: 'true'\n"
    )
    export = load_export(write_export(tmp_path, "x.yaml", text))
    assert ArgumentValidator(export).validate({}) == {"v": "-v", "m": "--a"}


async def test_over_mcp(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "dash.yaml", DASH)
    runs = tmp_path / "state" / "mcp-harbor" / "runs"
    async with stdio_client_of(exports, tmp_path / "state", "auto") as client:
        (tool,) = (await client.list_tools()).tools
        assert tool.input_schema["properties"]["path"]["not"] == {"pattern": "^-"}
        assert "leading_dash" not in str(tool.input_schema)

        refused = await client.call_tool("dash", {"flags": "-l", "path": "--help"})
        text = text_of(refused)
        assert refused.is_error is True, text
        assert "argument 'path': the value starts with '-'" in text
        assert "rule: no-leading-dash" in text and "Nothing was run." in text
        assert not runs.exists() or not any(runs.iterdir())  # nothing ran

        accepted = await client.call_tool("dash", {"flags": "-l", "path": "a-b"})
        assert accepted.is_error is False, text_of(accepted)
        assert accepted.structured_content is not None
        assert accepted.structured_content["steps"][0]["stdout_tail"] == "-l|a-b"
