"""Issue 7, scale: what makes loading 1,000 exports cheap must not change a
verdict. Arg schemas are checked against the meta-schema once per distinct
schema (memoized by canonical JSON), so equal schemas share a verdict and
schemas that differ in any value (even ``1`` against ``true``) do not."""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError


def _export(name: str, arg: str) -> str:
    return (
        f"name: {name}\ndescription: d\nargs:\n  n: {arg}\n"
        'steps:\n  - name: s\n    run: echo "$ARG_n"\n'
    )


def test_the_same_invalid_schema_is_refused_in_every_file(tmp_path: Path) -> None:
    for name in ("a", "b"):
        path = write_export(tmp_path, f"{name}.yaml", _export(name, "{type: integr}"))
        with pytest.raises(ConfigError) as info:
            load_export(path)
        assert f"{name}.yaml:4: args.n: invalid JSON Schema" in str(info.value)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("{type: integer, default: 1}", "{type: integer, default: true}"),
        ("{type: integer, default: 1}", "{type: integer, default: 1.5}"),
        ("{type: string, default: '1'}", "{type: string, default: 1}"),
        ("{type: string, enum: [a], default: a}", "{type: string, enum: [a], default: b}"),
    ],
)
def test_schemas_that_differ_in_one_value_get_their_own_verdict(
    tmp_path: Path, good: str, bad: str
) -> None:
    # good first, so that a memo conflating the two would accept the bad one
    load_export(write_export(tmp_path, "good.yaml", _export("good", good)))
    with pytest.raises(ConfigError) as info:
        load_export(write_export(tmp_path, "bad.yaml", _export("bad", bad)))
    assert "args.n.default does not satisfy its own schema" in str(info.value)
    load_export(write_export(tmp_path, "good2.yaml", _export("good2", good)))


def test_a_date_default_is_checked_not_memoized_as_its_text(tmp_path: Path) -> None:
    # YAML reads 2024-01-01 as a date: not JSON data, so never a memo key
    load_export(
        write_export(tmp_path, "s.yaml", _export("s", "{type: string, default: '2024-01-01'}"))
    )
    with pytest.raises(ConfigError) as info:
        load_export(
            write_export(tmp_path, "d.yaml", _export("d", "{type: string, default: 2024-01-01}"))
        )
    assert "d.yaml" in str(info.value)
