"""Validate a call's arguments against an export's schema, before anything runs.

On top of JSON Schema (draft 2020-12, through `jsonschema`):

- ``pattern`` must match the **whole** value (Python's ``re.search`` would let
  ``^[a-z]+$`` accept ``"abc\\n"``);
- a NUL character is refused anywhere;
- ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's JSON parsers, the
  server's among them, read though JSON has no such numbers) are refused
  anywhere: ``NaN`` passes every ``minimum`` and ``maximum``, and steps
  would get the text ``NaN`` or ``Infinity`` for a number;
- a line break (``\\n`` or ``\\r``) in a string is refused unless the arg's
  schema says ``multiline: true`` (an mcp-harbor keyword, not published);
- a string starting with ``-`` (the arg's value, or an item of an array
  value) is refused unless the arg says ``leading_dash: true``, since a
  program could read it as an option (CWE-88); args with ``enum``/``const``
  are exempt (see `mcp_harbor.config.model.refuses_leading_dash`). Clients
  see it as ``not: {pattern: "^-"}``;
- an integer sent as ``1.0``, ``-0.0``, ``1e1`` or ``1e300`` (integers to
  JSON Schema) reaches steps as its digits (``1``, ``0``, ``10``,
  ``1000…0``), and a number ``-0.0`` as ``0.0``, so that a non-negative
  ``minimum`` really rules out a leading ``-``; the same for each item of
  an array arg whose ``items`` are integers;
- a path arg declaring ``within: FOLDER`` (a string, or each string item
  of an array) must resolve, from where the steps run, to FOLDER or inside
  it (see `mcp_harbor.within`); the value itself is not changed. Defaults
  are held to it too;
- defaults of absent args are applied (deep copies).
"""

from __future__ import annotations

import copy
import difflib
import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import jsonschema
from jsonschema.validators import Draft202012Validator, extend

from mcp_harbor.config import Export
from mcp_harbor.config.model import (
    leading_dash_not,
    refuses_leading_dash,
    refuses_leading_dash_items,
)
from mcp_harbor.errors import ArgumentError
from mcp_harbor.within import Confinement

__all__ = ["ArgumentValidator"]


def _full_match_pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    if isinstance(instance, str) and re.fullmatch(pattern, instance) is None:
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r} (whole value)")


#: The ``not`` subschemas the published schema gets for the leading-dash
#: rule: `validate` reports that rule itself (the ``pattern`` inside would be
#: matched against the whole value here, not as clients match it).
_DASH_NOTS = (leading_dash_not(True), leading_dash_not(False))

_Validator = extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"pattern": _full_match_pattern}
)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _non_finite(value: Any, where: str = "") -> Iterator[tuple[str, float]]:
    """Where in `value` a NaN or an infinity is (``[0]``, ``['key']``), and it."""
    if isinstance(value, float) and not math.isfinite(value):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_finite(item, f"{where}[{key!r}]")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _non_finite(item, f"{where}[{i}]")


def _spelled(number: float) -> str:
    """A non-finite number as JSON-RPC clients write it."""
    if math.isnan(number):
        return "NaN"
    return "Infinity" if number > 0 else "-Infinity"


def _is_non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _integer_typed(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    declared = schema.get("type")
    return declared == "integer" or (isinstance(declared, list) and "integer" in declared)


def _canonical_number(value: Any, integer: bool) -> Any:
    """JSON Schema counts ``1.0``, ``-0.0`` and ``1e300`` as integers; steps
    get the integer's digits (``1``, ``0``, 1 and 300 zeros), never a ``.``,
    an ``e`` or a ``-0`` the checker's model of an integer with a
    non-negative ``minimum`` rules out. A number ``-0.0`` becomes ``0.0``."""
    if isinstance(value, float) and not isinstance(value, bool):
        if integer and value.is_integer():
            return int(value)
        if value == 0.0:
            return 0.0
    return value


class ArgumentValidator:
    """The compiled argument check of one export. Build once, use per call."""

    def __init__(self, export: Export) -> None:
        self._schema = export.input_schema
        self._names = list(export.arg_schemas)
        self._secret = {
            name for name, schema in export.arg_schemas.items() if schema.get("secret") is True
        }
        self._multiline = {
            name for name, schema in export.arg_schemas.items() if schema.get("multiline") is True
        }
        self._dash_value = {
            name for name, schema in export.arg_schemas.items() if refuses_leading_dash(schema)
        }
        self._dash_items = {
            name
            for name, schema in export.arg_schemas.items()
            if refuses_leading_dash_items(schema)
        }
        self._integers = {
            name for name, schema in export.arg_schemas.items() if _integer_typed(schema)
        }
        self._integer_items = {
            name
            for name, schema in export.arg_schemas.items()
            if _integer_typed(schema.get("items"))
        }
        self._defaults = {
            name: schema["default"]
            for name, schema in export.arg_schemas.items()
            if "default" in schema
        }
        self._validator = _Validator(
            dict(self._schema), format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        self._within = [
            Confinement(
                name,
                schema["within"],
                items=schema.get("type") == "array",
                secret=name in self._secret,
            )
            for name, schema in export.arg_schemas.items()
            if isinstance(schema.get("within"), str)
        ]
        #: Where the steps run: None for the server's working directory.
        self._step_dirs = list(dict.fromkeys(step.cwd for step in export.all_steps))

    def validate(
        self, arguments: Mapping[str, Any] | None, *, workdir: Path | None = None
    ) -> dict[str, Any]:
        """Return the validated arguments with defaults applied.

        `workdir` is the server's working directory (where steps without
        ``cwd:`` run; None: this process's current directory, as
        `mcp_harbor.runctx.RunSettings` defaults to): ``within:`` folders
        are relative to it, and paths are resolved from it (and from each
        step's ``cwd:``).

        Raises:
            ArgumentError: naming each invalid argument and the rule it broke.
        """
        given: dict[str, Any] = dict(arguments or {})
        problems: list[str] = []
        broken: set[str] = set()  # args with a problem: not judged as paths
        for name, value in given.items():
            for text in _strings(value):
                if "\x00" in text:
                    problems.append(f"argument {name!r}: contains a NUL character (rule: no-nul)")
                    broken.add(name)
                    break
                if name not in self._multiline and ("\n" in text or "\r" in text):
                    problems.append(
                        f"argument {name!r}: contains a line break, which this tool does not "
                        f"accept (rule: single-line)"
                    )
                    broken.add(name)
                    break
            for where, number in _non_finite(value):
                problems.append(
                    f"argument {name!r}{where}: {_spelled(number)} is not a number this tool "
                    f"accepts; send a finite number (rule: finite)"
                )
                broken.add(name)
            dash = self._leading_dash(name, value)
            if dash is not None:
                problems.append(dash)
                broken.add(name)
        for error in sorted(self._validator.iter_errors(given), key=lambda e: list(e.path)):
            if error.path:
                broken.add(str(error.path[0]))
            if self._is_dash_rule(error):
                continue  # reported above, with the whole-value reading
            if _is_non_finite(error.instance):
                continue  # reported above (rule: finite)
            problems.append(self._describe(error))
        if self._within:
            problems.extend(self._escapes(given, broken, workdir))
        if problems:
            raise ArgumentError("invalid arguments:\n- " + "\n- ".join(problems))
        for name, value in given.items():
            given[name] = _canonical_number(value, name in self._integers)
            if name in self._integer_items and isinstance(value, list):
                given[name] = [_canonical_number(item, True) for item in value]
        for name, default in self._defaults.items():
            if name not in given:
                given[name] = copy.deepcopy(default)
        return given

    def _escapes(
        self, given: Mapping[str, Any], broken: set[str], workdir: Path | None
    ) -> list[str]:
        """The ``within:`` problems of the values (a default standing in for
        an arg not sent), skipping args with another problem."""
        work = Path.cwd() if workdir is None else workdir
        bases = [work if cwd is None else cwd for cwd in self._step_dirs]
        out: list[str] = []
        for rule in self._within:
            if rule.arg in broken:
                continue
            if rule.arg in given:
                value = given[rule.arg]
            elif rule.arg in self._defaults:
                value = self._defaults[rule.arg]
            else:
                continue
            out.extend(rule.problems(value, work, bases))
        return out

    def _leading_dash(self, name: str, value: Any) -> str | None:
        """The problem of a value (or array item) starting with ``-`` where
        the arg refuses that, or None."""
        inner = ""
        if isinstance(value, str):
            if name not in self._dash_value or not value.startswith("-"):
                return None
        elif isinstance(value, list) and name in self._dash_items:
            bad = [i for i, item in enumerate(value) if isinstance(item, str) and item[:1] == "-"]
            if not bad:
                return None
            inner = f"[{bad[0]}]"
        else:
            return None
        return (
            f"argument {name!r}{inner}: the value starts with '-', which a program could read "
            f"as an option; this arg does not accept values starting with '-' (its export "
            f"allows them only with leading_dash: true) (rule: no-leading-dash)"
        )

    def _is_dash_rule(self, error: jsonschema.ValidationError) -> bool:
        """Whether `error` is the published form of the leading-dash rule."""
        return (
            error.validator == "not"
            and error.validator_value in _DASH_NOTS
            and bool(error.path)
            and (error.path[0] in self._dash_value or error.path[0] in self._dash_items)
        )

    def _describe(self, error: jsonschema.ValidationError) -> str:
        rule = str(error.validator)
        if rule == "additionalProperties" and not error.path:
            extra = sorted(set(cast(dict[str, Any], error.instance)) - set(self._names))
            parts = []
            for name in extra:
                close = difflib.get_close_matches(name, self._names, n=1)
                parts.append(
                    f"unknown argument {name!r}"
                    + (f" (did you mean {close[0]!r}?)" if close else "")
                    + f"; this tool takes: {', '.join(self._names) or 'no arguments'}"
                )
            return "; ".join(parts) + " (rule: additionalProperties)"
        if rule == "required" and not error.path:
            missing = sorted(
                set(cast(list[str], error.validator_value))
                - set(cast(dict[str, Any], error.instance))
            )
            return "; ".join(f"argument {m!r} is missing" for m in missing) + " (rule: required)"
        path = list(error.path)
        arg = path[0] if path else "(arguments)"
        inner = "".join(f"[{p!r}]" for p in path[1:])
        if arg in self._secret:
            # jsonschema's message quotes the value; a secret is never echoed.
            return f"argument {arg!r}{inner}: the value (secret, not shown) breaks the rule {rule}"
        return f"argument {arg!r}{inner}: {error.message} (rule: {rule})"
