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


# --- YAML: one construction pass that refuses duplicate keys, a lazy source map ---

DOCUMENTS = [
    "a: 1\nb: [x, 'y', 2.5, true, null, 0x1F, 2024-01-02]\nc: {d: e}\n",
    "base: &b {x: 1, y: [1, 2]}\nuse: *b\nmerged:\n  <<: *b\n  z: 3\n",
    "s: !!str 12\nbin: !!binary aGk=\nset: !!set {a, b}\n",
    "t: |\n  line one\n  line two\nf: >\n  folded\n  text\n",
    "1: int key\n'2': str key\n~: null key\n",
]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_data_is_what_pyyaml_safe_load_gives(tmp_path: Path, text: str) -> None:
    import yaml

    from mcp_harbor.config.yaml_source import read_yaml

    path = tmp_path / "d.yaml"
    path.write_text(text)
    data, _smap, raw = read_yaml(path)
    assert data == yaml.safe_load(text)
    assert raw == text.encode()


def test_aliases_are_one_object_as_in_pyyaml(tmp_path: Path) -> None:
    from mcp_harbor.config.yaml_source import read_yaml

    path = tmp_path / "d.yaml"
    path.write_text("a: &x {k: [1]}\nb: *x\n")
    data, _, _ = read_yaml(path)
    assert data["a"] is data["b"]


def test_a_complex_key_is_left_to_pyyaml(tmp_path: Path) -> None:
    from mcp_harbor.config.yaml_source import read_yaml

    path = tmp_path / "d.yaml"
    path.write_text("? [complex]\n: value\n")
    with pytest.raises(ConfigError, match=r"(?s)invalid YAML value.*unhashable key"):
        read_yaml(path)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("name: a\nname: b\n", "d.yaml:2: duplicate key 'name' (first at line 1); keep only one"),
        ("x:\n  k: 1\n  j: 2\n  k: 3\n", "d.yaml:4: duplicate key 'k' (first at line 2)"),
        ("x: !!python/object:os.system {}\n", "d.yaml: invalid YAML value"),
        # a duplicate key is reported before a value that cannot be built
        ("x: !!python/object:os.system {}\nx: 2\n", "d.yaml:2: duplicate key 'x'"),
        ("m:\n  <<: {a: 1}\n  b: 1\n  b: 2\n", "d.yaml:4: duplicate key 'b'"),
    ],
)
def test_duplicate_keys_and_bad_values_are_refused(tmp_path: Path, text: str, needle: str) -> None:
    from mcp_harbor.config.yaml_source import read_yaml

    path = tmp_path / "d.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        read_yaml(path)
    assert needle in str(info.value)


def test_the_lazy_source_map_has_every_position(tmp_path: Path) -> None:
    import yaml

    from mcp_harbor.config.yaml_source import SourceMap, _walk, read_yaml

    text = DOCUMENTS[3] + "steps:\n  - name: s\n    run: |\n      echo a\n      echo b\n"
    path = tmp_path / "d.yaml"
    path.write_text(text)
    _, smap, _ = read_yaml(path)
    eager = SourceMap(path)
    _walk(yaml.compose(text), (), eager, text.splitlines())
    assert smap.keys == eager.keys and smap.values == eager.values
    assert smap.line_of(("steps", 0, "run")) == 9
    assert smap.position_in_scalar(("steps", 0, "run"), 7, "echo a\necho b\n") == (11, 7)
