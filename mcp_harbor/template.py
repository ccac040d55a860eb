"""The placeholder language of commands: ``{{ args.NAME }}`` and
``{{ args.NAME | shellquote }}``; and of agent prompts: ``{{ args.NAME | data }}``.

Parsing is strict: a ``{{`` followed by ``args`` must be a complete, well-formed
placeholder naming a declared arg with a known filter, or it is a
`TemplateError`. A ``{{`` not followed by ``args`` is literal text, so commands
such as ``docker inspect -f '{{.State.Status}}'`` keep working.

How a value becomes text (the same for placeholders and ``ARG_<name>``
environment variables): a string is itself; ``true``/``false`` for booleans;
integers and numbers in their JSON form; ``null`` is the empty string; arrays
and objects are compact JSON.

A ``confirm:`` question is rendered by `render_question`: each value's text
between double quotes, with control, bidi and zero-width characters escaped
(see `mcp_harbor._visible`), so a value cannot hide or fake words of the
question a human answers.

An agent's prompt is rendered by `render_prompt`: a ``| data`` placeholder
becomes a labelled data element, ``<data source="args.NAME">JSON</data>``,
the value as JSON with ``<``, ``>`` and ``&`` escaped (``\u003c`` …), so
that no value can close the element or open another. The loader keeps
``| data`` out of commands and ``| shellquote`` out of prompts; the checker
refuses a prompt's bare placeholder (H020).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from mcp_harbor._visible import quoted
from mcp_harbor.errors import TemplateError

__all__ = [
    "FILTERS",
    "Placeholder",
    "Template",
    "data_block",
    "parse",
    "render",
    "render_prompt",
    "render_question",
    "value_text",
]

#: The filters a placeholder may use: ``shellquote`` in commands, ``data``
#: in agent prompts.
FILTERS = frozenset({"shellquote", "data"})

_OPEN = re.compile(r"\{\{\s*args\b")
_PLACEHOLDER = re.compile(
    r"\{\{\s*args\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\|\s*(?P<filter>[A-Za-z_][A-Za-z0-9_]*)\s*)?\}\}"
)


@dataclass(frozen=True, slots=True)
class Placeholder:
    """One ``{{ args.NAME [| filter] }}`` occurrence.

    `start` and `end` are character offsets in the template text.
    """

    arg: str
    shellquote: bool
    start: int
    end: int
    #: ``| data``: rendered as a labelled data element (agent prompts only).
    data: bool = False


@dataclass(frozen=True, slots=True)
class Template:
    """A parsed command template: literal text and placeholders, in order."""

    text: str
    parts: tuple[str | Placeholder, ...]

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(p for p in self.parts if isinstance(p, Placeholder))

    @property
    def is_literal(self) -> bool:
        return not any(isinstance(p, Placeholder) for p in self.parts)


def parse(text: str, declared: Collection[str]) -> Template:
    """Parse `text` into literal parts and placeholders.

    Raises:
        TemplateError: a placeholder is malformed, names an arg not in
            `declared`, or uses an unknown filter. `offset` locates it.
    """
    parts: list[str | Placeholder] = []
    pos = 0
    for opening in _OPEN.finditer(text):
        start = opening.start()
        if start < pos:
            continue
        match = _PLACEHOLDER.match(text, start)
        if match is None:
            snippet = text[start : start + 40].split("\n", 1)[0]
            raise TemplateError(
                f"malformed placeholder {snippet!r}: write {{{{ args.NAME }}}} or "
                f"{{{{ args.NAME | shellquote }}}}",
                offset=start,
            )
        name, filter_name = match.group("name"), match.group("filter")
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            raise TemplateError(
                f"placeholder names undeclared arg {name!r} (declared args: {known}); "
                f"declare it under `args:` or fix the name",
                offset=start,
            )
        if filter_name is not None and filter_name not in FILTERS:
            raise TemplateError(
                f"unknown filter {filter_name!r} in placeholder for {name!r}; "
                f"the filters are `shellquote` (commands) and `data` (agent prompts)",
                offset=start,
            )
        if start > pos:
            parts.append(text[pos:start])
        parts.append(
            Placeholder(
                name, filter_name == "shellquote", start, match.end(), data=filter_name == "data"
            )
        )
        pos = match.end()
    if pos < len(text):
        parts.append(text[pos:])
    return Template(text, tuple(parts))


def value_text(value: object) -> str:
    """The text form of an argument value (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return json.dumps(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def render(template: Template, values: Mapping[str, object]) -> str:
    """Substitute every placeholder with its value's text, shlex-quoted when
    the placeholder says ``| shellquote``.

    An arg absent from `values` (optional, no default, not sent) renders as
    the empty string, quoted as ``''`` under ``shellquote``.
    """
    out: list[str] = []
    for part in template.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        text = value_text(values.get(part.arg))
        out.append(shlex.quote(text) if part.shellquote else text)
    return "".join(out)


def render_question(template: Template, values: Mapping[str, object]) -> str:
    """Render a question for a human: each placeholder becomes its value's
    text between double quotes, visibly escaped (`mcp_harbor._visible.quoted`:
    ``\\x1b``, ``\\u202e``, ``\\"``), whatever its filter. An absent arg is
    ``""``."""
    out: list[str] = []
    for part in template.parts:
        out.append(part if isinstance(part, str) else quoted(value_text(values.get(part.arg))))
    return "".join(out)


_DATA_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def _json_default(value: object) -> object:
    """A read-only mapping (the run context's frozen values) as the JSON
    object it holds; anything else not JSON as its text."""
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


def data_block(source: str, value: object, label: str | None = None) -> str:
    """`value` as a labelled data element: ``<data source="SOURCE">JSON</data>``
    (with ``label="…"`` when given). The JSON has ``<``, ``>`` and ``&``
    escaped, so no value can end the element; `source` and `label` are
    written by harbor, never by a caller."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=_json_default)
    for char, escape in _DATA_ESCAPES.items():
        text = text.replace(char, escape)
    extra = "" if label is None else f' label="{label}"'
    return f'<data source="{source}"{extra}>{text}</data>'


def render_prompt(template: Template, values: Mapping[str, object]) -> str:
    """Render an agent prompt: each ``| data`` placeholder as `data_block`
    of its value; a bare one as the value's text (the checker refuses
    those, H020, so a published prompt has none). An absent arg is null."""
    out: list[str] = []
    for part in template.parts:
        if isinstance(part, str):
            out.append(part)
        elif part.data:
            out.append(data_block(f"args.{part.arg}", values.get(part.arg)))
        else:
            out.append(value_text(values.get(part.arg)))
    return "".join(out)
