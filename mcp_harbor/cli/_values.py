"""Turn ``name=value`` words from the command line into typed arguments,
following each arg's JSON Schema (``count=5`` is the integer 5)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["ValueError_", "parse_assignments"]


class ValueError_(Exception):
    """A ``name=value`` word that cannot be turned into an argument."""


def _types(schema: Mapping[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    values = schema.get("enum", [schema["const"]] if "const" in schema else None)
    if isinstance(values, list) and values:
        kinds = {type(v) for v in values}
        if kinds == {str}:
            return ["string"]
    return []


def _convert_one(name: str, raw: str, kind: str) -> Any:
    if kind == "string":
        return raw
    if kind == "integer":
        try:
            return int(raw)
        except ValueError:
            pass
        try:  # 5.0 and 1e1 are integers to JSON Schema (and reach steps as 5 and 10)
            number = float(raw)
        except ValueError:
            raise ValueError_(f"{name}={raw}: expected an integer") from None
        if not number.is_integer():
            raise ValueError_(f"{name}={raw}: expected an integer")
        return int(number)
    if kind == "number":
        try:
            number = float(raw)
        except ValueError:
            raise ValueError_(f"{name}={raw}: expected a number") from None
        if not math.isfinite(number):  # float() reads nan, inf and infinity
            raise ValueError_(f"{name}={raw}: expected a finite number (not NaN or infinite)")
        return int(number) if number.is_integer() and "." not in raw else number
    if kind == "boolean":
        lowered = raw.lower()
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        raise ValueError_(f"{name}={raw}: expected true or false")
    if kind == "null":
        if raw in ("", "null"):
            return None
        raise ValueError_(f"{name}={raw}: expected null")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        raise ValueError_(f"{name}={raw}: expected JSON ({kind})") from None
    expected = {"array": list, "object": dict}.get(kind)
    if expected is not None and not isinstance(value, expected):
        raise ValueError_(f"{name}={raw}: expected a JSON {kind}")
    return value


def _convert(name: str, raw: str, schema: Mapping[str, Any]) -> Any:
    kinds = _types(schema)
    if not kinds:
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    last: ValueError_ | None = None
    for kind in sorted(kinds, key=lambda k: k == "string"):  # string is the fallback
        try:
            return _convert_one(name, raw, kind)
        except ValueError_ as exc:
            last = exc
    assert last is not None
    raise last


def parse_assignments(words: Sequence[str], input_schema: Mapping[str, Any]) -> dict[str, Any]:
    """Parse ``name=value`` words. A repeated name of an array arg collects
    its values (``tag=a tag=b``); a value of an array arg that is not JSON is
    one item.

    Raises:
        ValueError_: a word has no ``=``, or a value does not fit its type.
    """
    properties: Mapping[str, Any] = input_schema.get("properties", {})
    out: dict[str, Any] = {}
    for word in words:
        name, sep, raw = word.partition("=")
        if not sep or not name:
            raise ValueError_(f"{word!r}: arguments are written name=value")
        schema = properties.get(name, {})
        if "array" in _types(schema):
            items = schema.get("items", {})
            try:
                value = _convert_one(name, raw, "array")
            except ValueError_:
                value = [_convert(name, raw, items if isinstance(items, Mapping) else {})]
            out.setdefault(name, [])
            if not isinstance(out[name], list):
                out[name] = [out[name]]
            out[name].extend(value)
            continue
        if name in out:
            raise ValueError_(f"{name} is given twice")
        out[name] = _convert(name, raw, schema)
    return out
