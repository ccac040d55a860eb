"""The facts the checker's stages hand each other: where caller data is,
what may be in it, and what was found.

- `substitute` replaces each placeholder of a template with a unique inert
  sentinel word (`Sentinels` maps offsets back to the template);
  `arg_models` and `export_scripts` do that for a whole export.
- `Occ` is one place where caller data enters a script, `Word` one word of a
  command line with the occurrences in it, `Taint` what carries caller data
  before a script runs (variables, positional parameters).
- `Hazard` is one finding before it becomes a `mcp_harbor.check.Finding`.
- `names_only`, `arith_safe`, `bare_name` and `author_or_number` say what a
  value model (`mcp_harbor.check._values.ValueModel`) allows.

Guarantees: a sentinel word never occurs in the template text it replaces a
placeholder of, so every occurrence of it in the substituted text is that
placeholder; every type here is plain data, with no reference to the stages
that make or read it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tree_sitter import Node

from mcp_harbor.check._tree import IDENT
from mcp_harbor.check._values import ValueModel, model_for
from mcp_harbor.template import Placeholder, Template

if TYPE_CHECKING:
    from mcp_harbor.config import Export

__all__ = [
    "Hazard",
    "Located",
    "Occ",
    "Sentinel",
    "Sentinels",
    "Taint",
    "Word",
    "any_model",
    "arg_models",
    "arith_safe",
    "author_or_number",
    "bare_name",
    "export_scripts",
    "is_attachment_path",
    "merge_sentinels",
    "names_only",
    "substitute",
]

Located = tuple[tuple[str | int, ...], int]  # (key path in the export, char offset)
_ARITH_SAFE = frozenset("0123456789+-")


@dataclass(frozen=True, slots=True)
class Hazard:
    """One dangerous (or doubtful) use of caller data, before it becomes a
    `Finding`: the rule, the arg, where, and rule-specific details."""

    rule: str
    arg: str | None
    where: Located
    detail: str
    fix: str


@dataclass(frozen=True, slots=True)
class Sentinel:
    """What one sentinel word stands for: an arg's placeholder, raw or
    shellquoted, and the model of the arg's values."""

    arg: str
    shellquote: bool
    model: ValueModel


@dataclass(slots=True)
class Sentinels:
    """The sentinel words of one substituted text and how to map positions
    back to the template."""

    by_word: dict[str, Sentinel]
    # (byte start, byte end, template char start, template char end) per sentinel
    spans: list[tuple[int, int, int, int]]
    where: tuple[str | int, ...]

    def locate(self, byte: int) -> Located:
        """Where in the template the byte at `byte` of the substituted text
        comes from (a sentinel: its placeholder)."""
        last_end_b, last_end_c = 0, 0
        for b0, b1, c0, c1 in self.spans:
            if byte < b0:
                break
            if byte < b1:
                return self.where, c0
            last_end_b, last_end_c = b1, c1
        return self.where, last_end_c + (byte - last_end_b)


def _sentinel_word(index: int, text: str) -> str:
    word = f"hbSENT{index}x"
    while word in text:
        word = "q" + word
    return word


def substitute(
    template: Template, models: Mapping[str, ValueModel], where: tuple[str | int, ...]
) -> tuple[str, Sentinels]:
    """Replace each placeholder with a sentinel word.

    Returns:
        The substituted text and its sentinel table. Non-ASCII text before a
        sentinel makes byte and char offsets differ, so the spans record both.
    """
    out: list[str] = []
    by_word: dict[str, Sentinel] = {}
    spans: list[tuple[int, int, int, int]] = []
    nbytes = 0
    for index, part in enumerate(template.parts):
        if isinstance(part, str):
            out.append(part)
            nbytes += len(part.encode("utf-8"))
            continue
        assert isinstance(part, Placeholder)
        word = _sentinel_word(index, template.text)
        by_word[word] = Sentinel(part.arg, part.shellquote, models[part.arg])
        spans.append((nbytes, nbytes + len(word), part.start, part.end))
        out.append(word)
        nbytes += len(word)
    return "".join(out), Sentinels(by_word, spans, where)


def arg_models(export: Export) -> dict[str, ValueModel]:
    """The value model of each of `export`'s args. An attachment's
    (``contentEncoding: base64``) is the absolute path the runtime decodes
    it to (``$HARBOR_RUN_DIR/inputs/<arg><ext>``): the server's folder, the
    arg's name and an extension of letters and digits; its content is read
    from there, caller data like every file of the run directory."""
    attachments = set(export.attachment_args)
    required = set(export.spec.required)
    found: dict[str, ValueModel] = {}
    for name, schema in export.arg_schemas.items():
        model = _ATTACHMENT_PATH if name in attachments else model_for(schema)
        if name not in required and "default" not in schema:
            # not sent, it renders as nothing: "" is one of its texts
            model = replace(
                model,
                can_be_empty=True,
                words=model.words | {""} if model.words is not None else None,
            )
        found[name] = model
    return found


#: The path of an attachment (`arg_models`).
_ATTACHMENT_PATH = ValueModel(
    frozenset(string.ascii_letters + string.digits + "_@%+=:,./-"), frozenset("/"), False
)


def is_attachment_path(model: ValueModel) -> bool:
    """`model` is an attachment's (`arg_models`): the path the runtime chose,
    not the caller (its very sets, kept by `dataclasses.replace`)."""
    return model.chars is _ATTACHMENT_PATH.chars and model.first is _ATTACHMENT_PATH.first


def export_scripts(export: Export, models: Mapping[str, ValueModel]) -> list[tuple[str, Sentinels]]:
    """Every ``run:`` script of `export` (hooks included), in step order, as
    `substitute` makes it."""
    return [
        substitute(step.script, models, (*step.where, "run"))
        for step in export.all_steps
        if step.script is not None
    ]


@dataclass(frozen=True, slots=True)
class Occ:
    """One place where caller data enters the script text or its expansion."""

    arg: str
    kind: str  # "raw" | "sq" | "env" (an expansion of a variable carrying caller data)
    model: ValueModel
    start: int
    end: int
    node: Node | None
    var: str | None = None


@dataclass(slots=True)
class Word:
    """A word of a command line (a shell word or an argv element)."""

    start: int
    end: int
    static: str | None  # the word after quote removal, when it has no expansion
    occs: list[Occ]
    prefix: str  # static text before the first occurrence (quotes removed)
    script: tuple[str, Sentinels | None] | None = None  # text to analyse as a nested script
    where: Located | None = None
    splits: bool = False  # an unquoted expansion in it may become several words
    #: ``--name=`` when the word is that literal option and quoted
    #: expansions only (one word whatever they hold: an option with its value)
    option_head: str | None = None

    @property
    def tainted(self) -> bool:
        return bool(self.occs)

    @property
    def code_inert(self) -> bool:
        """Inert in shell code: a number of either sign (bash makes no
        operator of ``-`` and digits outside arithmetic, where ``--`` before
        a number is an error), or the author's words. Another language's
        code needs `ValueModel.inert_code` of each value."""
        return all(o.model.numeric or o.model.inert_code for o in self.occs)

    @property
    def may_be_option(self) -> bool:
        if self.splits and any("-" in o.model.chars for o in self.occs):
            return True
        if not self.occs or self.prefix:
            return False
        model = self.occs[0].model
        if model.words is not None:
            return False  # the author's own words (an enum of options)
        # a negative number too: `kill -s TERM -1`, `head -n -5 --`
        return model.may_start_with_dash

    @property
    def arg(self) -> str:
        return self.occs[0].arg if self.occs else ""


@dataclass(slots=True)
class Taint:
    """What carries caller data as a script starts: variables (name -> the
    arg, or a source such as ``caller``, and the model of its values) and,
    in a nested script, its positional parameters."""

    variables: dict[str, tuple[str, ValueModel]] = field(default_factory=dict)
    positional: tuple[str, ValueModel] | None = None
    #: names proven to hold the author's or the server's text as the script
    #: starts (the environment the runtime gives every step, the export's
    #: ``secrets:``/``env:`` names, an enclosing script's clean variables):
    #: every other name the script does not itself assign is the caller's
    clean: frozenset[str] = frozenset()


def merge_sentinels(tables: Sequence[Sentinels]) -> Sentinels | None:
    """One sentinel table for a script joined from several words (argv
    elements each have their own table)."""
    if not tables:
        return None
    if len(tables) == 1:
        return tables[0]
    by_word: dict[str, Sentinel] = {}
    for table in tables:
        by_word.update(table.by_word)
    return Sentinels(by_word, [], tables[0].where)


# ------------------------------------------------------- what a model allows


def any_model() -> ValueModel:
    """The model of a value the checker knows nothing about."""
    from mcp_harbor.check._values import ANY_VALUE

    return ANY_VALUE


def names_only(model: ValueModel) -> bool:
    """Every value is a shell name (or a number)."""
    if model.numeric:
        return True
    # "" (an optional arg not sent) names nothing: an error, or no word
    return model.words is not None and all(w == "" or IDENT.fullmatch(w) for w in model.words)


def arith_safe(model: ValueModel) -> bool:
    """Numbers, digits and signs, JSON texts (`ValueModel.json`), or
    author-written words that name no variable carrying caller data."""
    if model.numeric or model.json or model.chars <= _ARITH_SAFE:
        return True
    return model.words is not None and all(
        re.fullmatch(r"[A-Za-z0-9_]*", w) and not w.startswith("ARG_") for w in model.words
    )


def bare_name(model: ValueModel) -> bool:
    """Every value is a name inside one directory: no `/`, and it cannot
    start with `.` (so it is never `..`)."""
    return "/" not in model.chars and "." not in model.first


def author_or_number(occs: Sequence[Occ]) -> bool:
    """Every value is one of the author's words or a number."""
    return all(o.model.words is not None or o.model.numeric for o in occs)
