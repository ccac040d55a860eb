"""One text per JSON value, to key memos of verdicts on schemas.

Configurations repeat the same arg schemas across exports; checking one
costs ~1 ms (meta-schema) or tens of µs (the checker's value model), so
verdicts are memoized by `canonical_json` of the schema.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["canonical_json"]


def _plain(value: Any) -> bool:
    if value is None or type(value) in (str, int, float, bool):
        return True
    if type(value) is list:
        return all(_plain(v) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    return False


def canonical_json(value: Any) -> str | None:
    """`value` as JSON text with sorted keys, or None when it is not plain
    JSON data (non-string keys, dates, bytes, sets, subclasses): such a value
    could share its text with another one, so it must not key a memo. Equal
    texts mean equal values, with ``1``, ``1.0`` and ``true`` kept apart."""
    return json.dumps(value, sort_keys=True) if _plain(value) else None
