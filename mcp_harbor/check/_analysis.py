"""Where each caller value lands in a step, and what it can do there.

A `run:` script is analysed with every placeholder replaced by a unique inert
sentinel word. Both parser gates must accept the result. Then every
*occurrence* of caller data is found: sentinels, expansions of ``ARG_<name>``
and of shell variables assigned from caller data (to a fixpoint), positional
parameters that carry caller data. For each occurrence the quoting context
is derived from its ancestors in the tree, and for each command the role of
each word is derived from the sink tables (`mcp_harbor.check.sinks`). Scripts
that are re-parsed by a shell (``sh -c``, ``eval``, ``trap``, ``su -c``…) are
analysed recursively.

Every decision fails closed: a sentinel in a node type the analysis does not
know, a nested script it cannot read, or a depth beyond `_MAX_DEPTH` is a
hazard, never a pass.
"""

from __future__ import annotations

import codecs
import re
import shlex
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tree_sitter import Node

from mcp_harbor.check import sinks
from mcp_harbor.check._gates import bash_syntax_error, parse_tree, tree_error
from mcp_harbor.check._values import SAFE_CHARS, ValueModel, model_for
from mcp_harbor.template import Placeholder, Template

if TYPE_CHECKING:
    from mcp_harbor.config import Export

__all__ = [
    "Hazard",
    "Located",
    "Sentinels",
    "analyse_argv",
    "analyse_script",
    "analyse_script_deferred",
    "bash_gate",
    "substitute",
]

_MAX_DEPTH = 4
Located = tuple[tuple[str | int, ...], int]  # (key path in the export, char offset)

_UNQUOTED_SPECIAL = frozenset(" \t\n\r|&;<>()$`\\\"'*?[]{}~#!")
_SPLIT_GLOB = frozenset(" \t*?[]")
_IFS = frozenset(" \t\n")
_NAME_OPERANDS = frozenset(
    {
        "word",
        "variable_name",
        "concatenation",
        "string",
        "raw_string",
        "simple_expansion",
        "expansion",
    }
)
_DQ_SPECIAL = frozenset('$`"\\')
_ARITH_SAFE = frozenset("0123456789+-")
#: First characters of an author's prefix the model can keep (never `-`).
_SAFE_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+=,")
_ARITH_TEST_OPS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: ``${name@op}``: the transformation operator
_TRANSFORM = re.compile(r"^\$\{[!#]?[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?@(.?)\}$")
#: Transformations whose result is the value (or its quoting) as data:
#: quote, escapes, case, attributes, assignment and key-value forms. ``P``
#: (prompt expansion) runs command substitutions; anything unknown is refused.
_INERT_TRANSFORMS = frozenset("QEUuLaKkA")
_SENTINEL_LEAVES = frozenset(
    {
        "word",
        "string_content",
        "raw_string",
        "ansi_c_string",
        "heredoc_content",
        "heredoc_body",
        "comment",
        "variable_name",
        "number",
        "regex",
        "extglob_pattern",
    }
)


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
class _Sentinel:
    arg: str
    shellquote: bool
    model: ValueModel


@dataclass(slots=True)
class Sentinels:
    """The sentinel words of one substituted text and how to map positions
    back to the template."""

    by_word: dict[str, _Sentinel]
    # (byte start, byte end, template char start, template char end) per sentinel
    spans: list[tuple[int, int, int, int]]
    where: tuple[str | int, ...]

    def locate(self, byte: int) -> Located:
        shift = 0
        last_end_b, last_end_c = 0, 0
        for b0, b1, c0, c1 in self.spans:
            if byte < b0:
                break
            if byte < b1:
                return self.where, c0
            last_end_b, last_end_c = b1, c1
        del shift
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
    by_word: dict[str, _Sentinel] = {}
    spans: list[tuple[int, int, int, int]] = []
    nbytes = 0
    for index, part in enumerate(template.parts):
        if isinstance(part, str):
            out.append(part)
            nbytes += len(part.encode("utf-8"))
            continue
        assert isinstance(part, Placeholder)
        word = _sentinel_word(index, template.text)
        by_word[word] = _Sentinel(part.arg, part.shellquote, models[part.arg])
        spans.append((nbytes, nbytes + len(word), part.start, part.end))
        out.append(word)
        nbytes += len(word)
    return "".join(out), Sentinels(by_word, spans, where)


def arg_models(export: Export) -> dict[str, ValueModel]:
    """The value model of each of `export`'s args."""
    return {name: model_for(schema) for name, schema in export.arg_schemas.items()}


def export_scripts(export: Export, models: Mapping[str, ValueModel]) -> list[tuple[str, Sentinels]]:
    """Every ``run:`` script of `export` (hooks included), in step order, as
    `substitute` makes it."""
    return [
        substitute(step.script, models, (*step.where, "run"))
        for step in export.all_steps
        if step.script is not None
    ]


# ---------------------------------------------------------------- occurrences


@dataclass(frozen=True, slots=True)
class _Occ:
    """One place where caller data enters the script text or its expansion."""

    arg: str
    kind: str  # "raw" | "sq" | "env" (an expansion of a variable carrying caller data)
    model: ValueModel
    start: int
    end: int
    node: Node | None
    var: str | None = None


@dataclass(slots=True)
class _Word:
    """A word of a command line (a shell word or an argv element)."""

    start: int
    end: int
    static: str | None  # the word after quote removal, when it has no expansion
    occs: list[_Occ]
    prefix: str  # static text before the first occurrence (quotes removed)
    script: tuple[str, Sentinels | None] | None = None  # text to analyse as a nested script
    where: Located | None = None
    splits: bool = False  # an unquoted expansion in it may become several words

    @property
    def tainted(self) -> bool:
        return bool(self.occs)

    @property
    def code_inert(self) -> bool:
        return all(o.model.inert_code for o in self.occs)

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


def _ancestors(node: Node) -> Iterator[Node]:
    current: Node | None = node
    while current is not None:
        yield current
        current = current.parent


def _text(src: bytes, node: Node) -> str:
    return src[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _heredoc_quoted(src: bytes, body: Node) -> bool:
    redirect = body.parent
    if redirect is None:
        return True
    for child in redirect.children:
        if child.type == "heredoc_start":
            raw = _text(src, child)
            return any(c in raw for c in "'\"\\")
    return True


_DQ_UNESCAPE = re.compile(r'\\([$`"\\\n])')
_WORD_UNESCAPE = re.compile(r"\\(.)", re.S)


def _static(src: bytes, node: Node) -> str | None:
    """The text of a word after quote removal, or None if it expands anything."""
    kind = node.type
    if kind in ("word", "number"):
        raw = _text(src, node)
        if any(c in raw for c in "$`"):
            return None
        return _WORD_UNESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)
    if kind == "raw_string":
        return _text(src, node)[1:-1]
    if kind == "string":
        parts: list[str] = []
        for child in node.children:
            if child.type == '"':
                continue
            if child.type != "string_content":
                return None
            parts.append(
                _DQ_UNESCAPE.sub(
                    lambda m: "" if m.group(1) == "\n" else m.group(1), _text(src, child)
                )
            )
        return "".join(parts)
    if kind == "ansi_c_string":
        body = _text(src, node)[2:-1]
        try:
            return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
        except (UnicodeDecodeError, ValueError):
            return None
    if kind in ("concatenation", "command_name"):
        out: list[str] = []
        for child in node.children:
            part = _static(src, child)
            if part is None:
                return None
            out.append(part)
        return "".join(out)
    return None


def _dequoted_prefix(raw: str) -> str:
    return raw.replace("'", "").replace('"', "").replace("\\", "").lstrip("$")


# ------------------------------------------------------------------- analysis


@dataclass(slots=True)
class _Taint:
    variables: dict[str, tuple[str, ValueModel]] = field(default_factory=dict)
    positional: tuple[str, ValueModel] | None = None


class _Analysis:
    """The analysis of one script text (a step or a nested script)."""

    def __init__(
        self,
        text: str,
        sentinels: Sentinels | None,
        taint: _Taint,
        locate: Callable[[int], Located],
        hazards: list[Hazard],
        depth: int,
        arg_models: Mapping[str, ValueModel],
    ) -> None:
        self.text = text
        self.src = text.encode("utf-8")
        self.sentinels = sentinels
        self.taint = taint
        self.locate = locate
        self.hazards = hazards
        self.depth = depth
        self.arg_models = arg_models
        #: grammars declared with ``programs:`` (they win over `sinks.GRAMMARS`)
        self.programs: Mapping[str, sinks.Grammar] = {}
        self.occs: list[_Occ] = []
        self._base_occs: list[_Occ] = []
        self.split_starts: set[int] = set()
        self.functions: set[str] = set()
        self.function_bodies: dict[str, list[Node]] = {}
        #: variables set by ``printf -v`` to text whose caller data is quoted
        self.rendered_vars: dict[str, tuple[str, dict[str, _Sentinel]]] = {}
        self.rendered_count = 0
        #: variables that only ever hold one literal (`_constants`)
        self.constants: dict[str, tuple[int, list[str]]] = {}
        #: ask ``bash -n`` here (False: the caller applies `bash_gate` itself)
        self.bash_gate = True
        #: tree-sitter parsed the script (so the ``bash -n`` gate applies)
        self.parsed = False

    def _render_variables(self, nodes: Sequence[Node]) -> None:
        """``printf -v NAME FORMAT ARGS`` with every caller value meeting a
        ``%q``: NAME holds that rendering (when nothing else assigns it)."""
        counts: dict[str, int] = {}
        found: dict[str, Node] = {}
        for node in nodes:
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None:
                    key = _text(self.src, target)
                    counts[key] = counts.get(key, 0) + 1
            if node.type != "command":
                continue
            name = node.child_by_field_name("name")
            args = node.children_by_field_name("argument")
            for arg in args:
                text = _text(self.src, arg)
                if _IDENT.fullmatch(text):
                    counts[text] = counts.get(text, 0) + 1
            if (
                name is not None
                and _text(self.src, name) == "printf"
                and len(args) >= 3
                and _static(self.src, args[0]) == "-v"
            ):
                target_name = _static(self.src, args[1])
                if target_name is not None:
                    found[target_name] = node
        for target_name, node in found.items():
            if counts.get(target_name, 0) != 1:
                continue
            table: dict[str, _Sentinel] = {}
            rendered = self._render_printf(node, table)
            if rendered is not None:
                self.rendered_vars[target_name] = (rendered, table)

    def resolve_command_word(self, head: _Word) -> list[_Word] | None:
        """The literal words a command word stands for when it only reads a
        constant: a variable (or array) assigned once in the whole script,
        at its top level, before this use, to literal text, and never
        carrying caller data (``PYTHON=python3`` … ``"$PYTHON" -c …``)."""
        raw = self.src[head.start : head.end].decode("utf-8", "replace")
        match = _CONSTANT_USE.fullmatch(raw)
        if match is None or head.occs:
            return None
        name = match.group("bare") or match.group("braced")
        constant = self.constants.get(name)
        if constant is None or constant[0] >= head.start:
            return None
        values = constant[1]
        quoted = raw.startswith('"')
        if not match.group("all") and (quoted or len(values) == 1):
            texts = [values[0]] if quoted else values[0].split()
        else:
            texts = [w for v in values for w in ([v] if quoted else v.split())]
        if not texts:
            return None
        return [_Word(head.start, head.end, t, [], "", (t, None), head.where) for t in texts]

    def _constants(self, nodes: Sequence[Node]) -> dict[str, tuple[int, list[str]]]:
        """Variables assigned exactly once, at the top level of the script,
        to literal text (or a literal array): name -> (where, values)."""
        counts: dict[str, int] = {}
        candidates: dict[str, tuple[int, list[str]]] = {}
        for node in nodes:
            names: list[str] = []
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None:
                    if target.type == "subscript":
                        target = target.child_by_field_name("name") or target
                    names.append(_text(self.src, target))
                    value = node.child_by_field_name("value")
                    parent = node.parent
                    if (
                        value is not None
                        and parent is not None
                        and parent.type in ("program", "list")
                        and (
                            parent.type == "program"
                            or (parent.parent is not None and parent.parent.type == "program")
                        )
                        and names[0] not in candidates
                    ):
                        literal = self._literal_values(value)
                        if literal is not None:
                            candidates[names[0]] = (node.end_byte, literal)
            elif node.type in ("for_statement", "c_style_for_statement"):
                var = node.child_by_field_name("variable")
                if var is not None:
                    names.append(_text(self.src, var))
            elif node.type in ("command", "declaration_command", "unset_command"):
                for arg in node.children:
                    text = _text(self.src, arg)
                    if _IDENT.fullmatch(text):
                        names.append(text)  # read NAME, printf -v NAME, local NAME…
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        return {
            name: found
            for name, found in candidates.items()
            if counts.get(name) == 1 and name not in self.taint.variables
        }

    def _literal_values(self, value: Node) -> list[str] | None:
        if value.type == "array":
            out = []
            for child in value.children:
                if child.type in ("(", ")"):
                    continue
                text = _static(self.src, child)
                if text is None:
                    return None
                out.append(text)
            return out
        text = _static(self.src, value)
        return None if text is None else [text]

    def reads_program_from_stdin(self, function: str) -> bool:
        """The body of `function` runs a shell without ``-c`` or a script
        file, or an interpreter without a program: it would take its
        program from the function's standard input."""
        for node in self.function_bodies.get(function, ()):
            for inner in _walk_nodes(node):
                if inner.type != "command":
                    continue
                name_node = inner.child_by_field_name("name")
                name = _base(_text(self.src, name_node)) if name_node is not None else ""
                args = [_text(self.src, a) for a in inner.children_by_field_name("argument")]
                operands = [a for a in args if not a.startswith("-")]
                if _shell_name(name) and (
                    (not any(a.startswith("-") and "c" in a for a in args) and not operands)
                    or any(a.startswith("-") and "s" in a[1:] for a in args)
                ):
                    return True
                spec = _lookup_interpreter(name)
                if (
                    spec is not None
                    and spec.reads_stdin_program
                    and not spec.program_operand
                    and not any(a in spec.code_options for a in args)
                    and (not operands or _reads_stdin_file(operands[0]))
                ):
                    return True
                if (
                    name in self.functions
                    and name != function
                    and self.reads_program_from_stdin(name)
                ):
                    return True
        return False

    def grammar(self, name: str | None) -> sinks.Grammar | None:
        """The option grammar the checker knows for the program `name`."""
        if name is None:
            return None
        return self.programs.get(name) or sinks.GRAMMARS.get(name)

    # -- reporting
    def hazard(self, rule: str, arg: str | None, byte: int, detail: str, fix: str) -> None:
        self.hazards.append(Hazard(rule, arg, self.locate(byte), detail, fix))

    # -- entry
    def run(self) -> None:
        if self.depth > _MAX_DEPTH:
            self.hazard(
                "H000",
                None,
                0,
                f"scripts nested more than {_MAX_DEPTH} levels deep",
                "flatten the nested shells into one script",
            )
            return
        tree = parse_tree(self.text)
        bad = tree_error(tree)
        if bad is not None:
            self.hazard(
                "H000",
                None,
                bad.start_byte,
                f"tree-sitter-bash cannot parse the script near {_text(self.src, bad)[:40]!r}",
                "fix the shell syntax so that the script parses",
            )
            return
        self.parsed = True
        if self.bash_gate:
            rejected = _bash_rejects(self.text, self.locate)
            if rejected is not None:
                self.hazards.append(rejected)
                return
        root = tree.root_node
        nodes = list(self._walk(root))
        self.functions = {
            _text(self.src, n.child_by_field_name("name") or n)
            for n in nodes
            if n.type == "function_definition"
        }
        for n in nodes:
            if n.type == "function_definition":
                body = n.child_by_field_name("body")
                key = _text(self.src, n.child_by_field_name("name") or n)
                if body is not None:
                    self.function_bodies.setdefault(key, []).append(body)
        sentinel_occs = self._sentinel_occs(root)
        if sentinel_occs is None:
            return
        self._base_occs = sentinel_occs
        self._fixpoint(nodes, sentinel_occs)
        self.constants = self._constants(nodes)
        self.occs = sentinel_occs + self._expansion_occs(nodes)
        self.occs.sort(key=lambda o: o.start)
        self._render_variables(nodes)
        for occ in self.occs:
            self._check_context(occ)
            self._check_operator(occ)
        for node in nodes:
            kind = node.type
            if kind == "command":
                self._command(node)
            elif kind == "variable_assignment":
                self._assignment(node)
            elif kind in ("declaration_command", "unset_command"):
                self._declaration(node)
            elif kind == "file_redirect":
                self._redirect(node)
            elif kind == "unary_expression":
                self._unary(node)
        if self.occs:
            self._script_level(nodes)

    # -- what the script does with caller data as a whole
    def _script_level(self, nodes: Sequence[Node]) -> None:
        """Ways a script hands caller data to a program that runs it, which
        no single command shows: ``exec`` redirections, coprocesses,
        ``>(shell)``, a file the script writes and later runs or sources,
        and ``declare -i`` names assigned later."""
        written: dict[str, tuple[_Occ, tuple[str, Sentinels | None] | None]] = {}
        integers: set[str] = set()
        for node in nodes:
            kind = node.type
            if kind == "command":
                name_node = node.child_by_field_name("name")
                name = _text(self.src, name_node) if name_node is not None else ""
                holder = node.parent if node.parent is not None else node
                if holder.type != "redirected_statement":
                    holder = node
                inside = self._occs_in(holder.start_byte, holder.end_byte)
                if name == "exec" and not node.children_by_field_name("argument") and inside:
                    self.hazard(
                        "H004",
                        inside[0].arg,
                        inside[0].start,
                        "`exec` redirects caller data into a descriptor of the shell itself, "
                        "which every later command (a shell reading its program too) inherits",
                        'redirect the one command that reads the value: cmd <<< "$ARG"',
                    )
                elif name == "coproc":
                    self.hazard(
                        "H004",
                        self.occs[0].arg,
                        node.start_byte,
                        "a coprocess reads what the script writes to it, and the checker "
                        "cannot follow what that is",
                        "run the command in a pipeline instead of a coprocess",
                    )
                for path in self._executed_paths(node, name):
                    entry = written.get(path)
                    if entry is None:
                        continue
                    occ, rendered = entry
                    if rendered is not None:
                        # printf %q wrote it: check the script it holds
                        word = _Word(node.start_byte, node.end_byte, None, [], "", rendered, None)
                        self.nested(word, None, f"the file `{path}`")
                    else:
                        self.hazard(
                            "H004",
                            occ.arg,
                            occ.start,
                            f"caller data is written to `{path}`, which the script then runs "
                            "or sources as code",
                            "do not run or source a file built from caller data; read the "
                            "value as data (`read -r`, an argument)",
                        )
            elif kind == "file_redirect":
                self._written_file(node, written)
            elif kind == "process_substitution":
                self._output_substitution(node)
            elif kind == "declaration_command":
                flags = [_text(self.src, c) for c in node.children if c.type == "word"]
                if any(f.startswith("-") and "i" in f for f in flags):
                    for child in node.children:
                        target = child
                        if child.type == "variable_assignment":
                            target = child.child_by_field_name("name") or child
                        if target.type == "variable_name":
                            integers.add(_text(self.src, target))
        if integers:
            for node in nodes:
                if node.type != "variable_assignment" or (
                    node.parent is not None and node.parent.type == "declaration_command"
                ):
                    continue
                name_node = node.child_by_field_name("name")
                value = node.child_by_field_name("value")
                if name_node is None or value is None:
                    continue
                if _text(self.src, name_node) not in integers:
                    continue
                inside = self._occs_in(value.start_byte, value.end_byte)
                if inside and not all(_arith_safe(o.model) for o in inside):
                    self.hazard(
                        "H006",
                        inside[0].arg,
                        inside[0].start,
                        f"`{_text(self.src, name_node)}` has the integer attribute "
                        "(`declare -i`), so bash evaluates the value assigned to it as "
                        "arithmetic, where `a[$(…)]` runs a command",
                        'give the arg `"type": "integer"`, or assign to a variable without '
                        "the integer attribute",
                    )

    def _written_file(
        self, node: Node, written: dict[str, tuple[_Occ, tuple[str, Sentinels | None] | None]]
    ) -> None:
        """Record `node`'s target when it writes a file with caller data in
        it (the redirected command carries caller data)."""
        op = _text(self.src, node).lstrip("0123456789&")
        if not op.startswith(">"):
            return
        dest = node.child_by_field_name("destination")
        if dest is None:
            return
        path = _static(self.src, dest) or _text(self.src, dest).replace('"', "")
        statement = node.parent
        if statement is None:
            return
        inside = self._occs_in(statement.start_byte, statement.end_byte)
        stdin = None
        command = next((c for c in statement.children if c.type == "command"), None)
        if command is not None:
            stdin = self._stdin(command)
        source = inside[0] if inside else stdin
        if source is None:
            return
        rendered = None
        if command is not None and stdin is None:
            table: dict[str, _Sentinel] = {}
            text = self._render_printf(command, table)
            if text is not None:
                where = self.sentinels.where if self.sentinels is not None else ()
                rendered = (text, Sentinels(table, [], where))
        key = _normal_path(path)
        if key in written and ">>" not in op:
            written[key] = (source, rendered)  # `>` starts the file again
        elif key in written:
            written[key] = (source, None)  # appended: not followed
        else:
            written[key] = (source, rendered)

    def _executed_paths(self, node: Node, name: str) -> list[str]:
        """The literal files `node` (a command) runs or sources."""
        args = [
            _static(self.src, a) or _text(self.src, a).replace('"', "")
            for a in node.children_by_field_name("argument")
        ]
        out: list[str] = []
        if "/" in name:
            out.append(_normal_path(name))
        if (
            name in ("source", ".")
            or _shell_name(_base(name))
            or (_lookup_interpreter(_base(name)) is not None)
        ):
            first = next((a for a in args if a is not None and not a.startswith("-")), None)
            if first is not None:
                out.append(_normal_path(first))
        return out

    def _output_substitution(self, node: Node) -> None:
        """``>(bash)``: a shell or interpreter reading its program from what
        the script writes into the substitution."""
        raw = _text(self.src, node)
        if not raw.startswith(">("):
            return
        command = next((c for c in _walk_nodes(node) if c.type == "command"), None)
        if command is None:
            return
        name_node = command.child_by_field_name("name")
        name = _base(_text(self.src, name_node)) if name_node is not None else ""
        args = [_text(self.src, a) for a in command.children_by_field_name("argument")]
        runs_stdin = (
            _shell_name(name) and not any(a.startswith("-") and "c" in a for a in args)
        ) or (
            (spec := _lookup_interpreter(name)) is not None
            and not any(a in spec.code_options for a in args)
            and not [a for a in args if not a.startswith("-")]
        )
        if runs_stdin:
            self.hazard(
                "H004",
                self.occs[0].arg,
                node.start_byte,
                f"`{raw[:40]}` runs `{name}` on what the script writes into it, which "
                "carries caller data",
                "do not write caller data to a shell or interpreter",
            )

    def _walk(self, root: Node) -> Iterator[Node]:
        stack = [root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    # -- occurrences
    def _sentinel_occs(self, root: Node) -> list[_Occ] | None:
        occs: list[_Occ] = []
        if self.sentinels is None:
            return occs
        for word, info in self.sentinels.by_word.items():
            start = self.src.find(word.encode())
            while start >= 0:
                end = start + len(word)
                node = root.descendant_for_byte_range(start, end)
                if node is None or node.type not in _SENTINEL_LEAVES:
                    self.hazard(
                        "H000",
                        info.arg,
                        start,
                        f"the placeholder for {info.arg!r} sits where the checker cannot "
                        f"tell how bash reads it ({node.type if node else 'nothing'})",
                        'pass the value as "$ARG_' + info.arg + '" in a plain argument',
                    )
                    return None
                kind = "sq" if info.shellquote else "raw"
                occs.append(_Occ(info.arg, kind, info.model, start, end, node))
                start = self.src.find(word.encode(), end)
        return occs

    def _expansion_target(self, node: Node) -> str | None:
        """The variable an expansion node reads (None if not a plain read)."""
        for child in node.children:
            if child.type in ("variable_name", "special_variable_name"):
                return _text(self.src, child)
            if child.type == "subscript":
                name = child.child_by_field_name("name")
                return _text(self.src, name) if name is not None else None
        return None

    def _var_source(self, name: str) -> tuple[str, ValueModel] | None:
        if name in self.taint.variables:
            return self.taint.variables[name]
        if (
            self.taint.positional is not None
            and (name.isdigit() or name in ("@", "*"))
            and name != "0"
        ):
            return self.taint.positional
        return None

    def _expansion_occs(self, nodes: Sequence[Node]) -> list[_Occ]:
        occs: list[_Occ] = self._plain_expansion_occs(nodes)
        base = list(self._base_occs) + occs
        for node in nodes:
            if node.type != "command_substitution":
                continue
            inner = [o for o in base if node.start_byte <= o.start and o.end <= node.end_byte]
            if not inner:
                continue
            model = _any_model()
            commands = [c for c in node.children if c.is_named]
            if len(commands) == 1 and commands[0].type == "command":
                name = commands[0].child_by_field_name("name")
                if name is not None and _text(self.src, name) in ("printf", "echo"):
                    model = inner[0].model
                    for other in inner[1:]:
                        model = model.union(other.model)
                elif (
                    name is not None
                    and _text(self.src, name) == "seq"
                    and all(o.model.numeric for o in inner)
                ):
                    # seq prints numbers, one a line (negative ones only when
                    # an end or step can be)
                    negative = any(o.model.may_start_with_dash for o in inner)
                    model = ValueModel(
                        frozenset(string.digits + "-.e+\n"),
                        frozenset(string.digits + ("-" if negative else "")),
                        True,
                        True,
                    )
            occs.append(
                _Occ(inner[0].arg, "env", model, node.start_byte, node.end_byte, node, "$(…)")
            )
        return occs

    def _plain_expansion_occs(self, nodes: Sequence[Node]) -> list[_Occ]:
        occs: list[_Occ] = []
        for node in nodes:
            if node.type in ("simple_expansion", "expansion"):
                name = self._expansion_target(node)
                source = self._var_source(name) if name else None
                if source is not None and name == "HARBOR_RUN_DIR" and self._own_file(node):
                    source = None  # a file of the step's own in the run directory
                if source is not None:
                    occs.append(
                        _Occ(
                            source[0], "env", source[1], node.start_byte, node.end_byte, node, name
                        )
                    )
            elif (
                node.type in ("variable_name", "word")
                and self._in_arithmetic(node)
                and (
                    node.parent is None or node.parent.type not in ("simple_expansion", "expansion")
                )
            ):
                name = _text(self.src, node)
                source = self._var_source(name)
                if source is not None:
                    occs.append(
                        _Occ(
                            source[0], "env", source[1], node.start_byte, node.end_byte, node, name
                        )
                    )
        return occs

    def _own_file(self, node: Node) -> bool:
        """`node` (``$HARBOR_RUN_DIR``) starts the path of a file in the run
        directory that the runtime never fills with caller data: not
        context.json, inputs/ (attachments), steps/ (outputs) or
        output.json, and not the directory itself (its listing)."""
        rest = self.src[node.end_byte : node.end_byte + 200].decode("utf-8", "replace")
        match = re.match(r'"?/([A-Za-z0-9_.-]+)', rest)
        if match is None:
            return False
        return match.group(1) not in ("context.json", "inputs", "steps", "output.json", "..", ".")

    def _occs_in(self, start: int, end: int, occs: Sequence[_Occ] | None = None) -> list[_Occ]:
        pool = self.occs if occs is None else occs
        return [o for o in pool if start <= o.start and o.end <= end]

    def _fixpoint(self, nodes: Sequence[Node], sentinel_occs: list[_Occ]) -> None:
        assignments: list[tuple[list[str], Node]] = []
        reads: list[Node] = []
        calls: list[Node] = []
        for node in nodes:
            if node.type == "variable_assignment":
                name = node.child_by_field_name("name")
                value = node.child_by_field_name("value")
                if name is not None and value is not None:
                    target = name
                    if name.type == "subscript":
                        target = name.child_by_field_name("name") or name
                    assignments.append(([_text(self.src, target)], value))
            elif node.type == "for_statement":
                var = node.child_by_field_name("variable")
                if var is not None:
                    for value in node.children_by_field_name("value"):
                        assignments.append(([_text(self.src, var)], value))
            elif node.type == "command":
                name_node = node.child_by_field_name("name")
                cname = _text(self.src, name_node) if name_node is not None else ""
                if cname in ("read", "mapfile", "readarray", "getopts"):
                    reads.append(node)
                elif cname in self.functions or cname == "set":
                    calls.append(node)
                elif cname == "printf":
                    args = node.children_by_field_name("argument")
                    texts = [_static(self.src, a) for a in args]
                    if len(texts) >= 3 and texts[0] == "-v" and texts[1] is not None:
                        # printf -v NAME FORMAT ARGS: NAME holds what printf prints
                        assignments.append(([texts[1]], node))
        has_data = bool(sentinel_occs) or bool(self.taint.variables) or self.taint.positional
        if has_data:
            for node in reads:
                names = [
                    _text(self.src, a)
                    for a in node.children_by_field_name("argument")
                    if _IDENT.fullmatch(_text(self.src, a))
                ] or ["REPLY", "MAPFILE"]
                for var_name in names:
                    self.taint.variables.setdefault(var_name, (self._any_arg(), _any_model()))
        changed = True
        while changed:
            changed = False
            occs = sentinel_occs + self._expansion_occs(nodes)
            for names, value in assignments:
                inside = self._occs_in(value.start_byte, value.end_byte, occs)
                if not inside:
                    named = self._names_tainted(value)
                    if named is not None:
                        # b=ARG_x: arithmetic evaluates b, then the value of ARG_x
                        for var_name in names:
                            if var_name not in self.taint.variables:
                                self.taint.variables[var_name] = (named, _any_model())
                                changed = True
                    continue
                model = (
                    inside[0].model
                    if len(inside) == 1 and self._is_whole(value, inside[0])
                    else self._prefixed_model(value, inside[0])
                )
                for var_name in names:
                    if var_name not in self.taint.variables:
                        self.taint.variables[var_name] = (inside[0].arg, model)
                        changed = True
            if self.taint.positional is None:
                for call in calls:
                    args = call.children_by_field_name("argument")
                    inside = [
                        o for a in args for o in self._occs_in(a.start_byte, a.end_byte, occs)
                    ]
                    if inside:
                        self.taint.positional = (inside[0].arg, _any_model())
                        changed = True
                        break

    def _names_tainted(self, value: Node) -> str | None:
        """The arg behind a tainted variable whose *name* the static text of
        `value` mentions (bash evaluates names in arithmetic recursively)."""
        text = _static(self.src, value)
        if text is None:
            return None
        for ident in _IDENT.findall(text):
            source = self.taint.variables.get(ident)
            if source is not None:
                return source[0]
        return None

    def _prefixed_model(self, value: Node, first: _Occ) -> ValueModel:
        """The model of an assigned value mixing text and caller data: any
        text, but one that starts with the author's literal prefix when the
        value has one before the first caller data (``d=/srv/$ARG_x``)."""
        raw = self.src[value.start_byte : first.start].decode("utf-8", "replace")
        prefix = _dequoted_prefix(raw)
        if prefix and not any(c in raw for c in "$`\\") and prefix[0] in _SAFE_FIRST:
            any_value = _any_model()
            return ValueModel(any_value.chars, frozenset(prefix[0]), False)
        return _any_model()

    def _any_arg(self) -> str:
        if self.sentinels is not None and self.sentinels.by_word:
            return next(iter(self.sentinels.by_word.values())).arg
        if self.taint.variables:
            return next(iter(self.taint.variables.values()))[0]
        return self.taint.positional[0] if self.taint.positional else ""

    def _is_whole(self, value: Node, occ: _Occ) -> bool:
        raw = _text(self.src, value)
        inner = self.src[occ.start : occ.end].decode("utf-8", errors="replace")
        return raw.strip('"') == inner

    # -- contexts
    def _in_arithmetic(self, node: Node) -> bool:
        child = node
        for parent in _ancestors(node.parent) if node.parent is not None else iter(()):
            kind = parent.type
            if kind in ("command_substitution", "process_substitution", "program"):
                return False
            if kind in ("arithmetic_expansion", "c_style_for_statement"):
                return True
            if (
                kind == "compound_statement"
                and self.src[parent.start_byte : parent.start_byte + 2] == b"(("
            ):
                return True
            if kind == "subscript" and parent.child_by_field_name("index") is not None:
                index = parent.child_by_field_name("index")
                if (
                    index is not None
                    and index.start_byte <= child.start_byte
                    and child.end_byte <= index.end_byte
                ):
                    return True
            if kind == "binary_expression":
                op = parent.child_by_field_name("operator")
                if op is not None and _text(self.src, op) in _ARITH_TEST_OPS:
                    in_test = any(
                        a.type == "test_command" and _text(self.src, a).startswith("[[")
                        for a in _ancestors(parent)
                    )
                    if in_test:
                        return True
            if kind == "expansion":
                ops = [c for c in parent.children if c.type == ":"]
                if ops and child.type != "variable_name" and child is not parent.children[1]:
                    return True
            child = parent
        return False

    def _quoting(self, occ: _Occ) -> str:
        assert occ.node is not None
        start = occ.node if occ.kind != "env" else occ.node.parent
        if start is None:
            return "unquoted"
        for node in _ancestors(start):
            kind = node.type
            if kind == "comment":
                return "comment"
            if kind == "heredoc_body":
                return "heredoc-quoted" if _heredoc_quoted(self.src, node) else "heredoc"
            if kind == "heredoc_start":
                return "heredoc-delimiter"
            if kind in ("raw_string", "ansi_c_string") and _in_quoted_operand(node):
                # in "${V:-'…'}" the quotes are literal and the text is expanded
                return "double"
            if kind == "raw_string":
                return "single"
            if kind == "ansi_c_string":
                return "ansi-c"
            if kind in ("string", "translated_string"):
                return "double"
            if kind == "expansion" and occ.kind != "env":
                return "parameter-expansion"
            if kind == "command_substitution":
                return (
                    "backticks"
                    if self.src[node.start_byte : node.start_byte + 1] == b"`"
                    else "unquoted"
                )
            if kind == "process_substitution":
                return "unquoted"
        return "unquoted"

    def _check_operator(self, occ: _Occ) -> None:
        """Only transformations known to be inert may apply to caller data:
        ``${x@P}`` expands the value as a prompt string, running its
        ``$(…)``."""
        if occ.kind != "env" or occ.node is None or occ.node.type != "expansion":
            return
        body = self.src[occ.node.start_byte : occ.node.end_byte].decode("utf-8", "replace")
        match = _TRANSFORM.search(body)
        if match is not None and match.group(1) not in _INERT_TRANSFORMS:
            self.hazard(
                "H004",
                occ.arg,
                occ.start,
                f"`{body}` applies the `@{match.group(1)}` transformation to caller data; "
                "bash expands the value again as a prompt string, running any `$(…)` in it",
                f'drop the `@{match.group(1)}`: write "${{{occ.var}}}"',
            )

    def _check_context(self, occ: _Occ) -> None:
        quoting = self._quoting(occ)
        before = self.src[occ.start - 1 : occ.start] if occ.start > 0 else b""
        model = occ.model
        if occ.kind in ("raw", "sq") and before == b"$":
            rule = "H007" if occ.kind == "raw" else "H002"
            self.hazard(
                rule,
                occ.arg,
                occ.start,
                "the placeholder follows `$`, so the value "
                "becomes a parameter name or `$'…'` quoting",
                'remove the `$` before the placeholder, or pass the value as "$ARG_'
                + occ.arg
                + '"',
            )
            return
        if occ.kind == "sq":
            if before == b"\\":
                self.hazard(
                    "H002",
                    occ.arg,
                    occ.start,
                    "the shellquoted placeholder follows a "
                    "backslash, which escapes the opening quote",
                    "remove the backslash before the placeholder",
                )
            elif (
                quoting != "unquoted"
                and not (
                    model.inert and quoting not in ("heredoc-delimiter", "parameter-expansion")
                )
                and not (
                    quoting in ("comment", "heredoc-quoted") and not model.chars & {"\n", "\r"}
                )
            ):
                self.hazard(
                    "H002",
                    occ.arg,
                    occ.start,
                    f"the shellquoted placeholder is inside {_CONTEXT_NAMES[quoting]}, where "
                    "shlex's single quotes are not quotes, so `$(…)`, backticks or a `'` in "
                    "the value escape",
                    _CONTEXT_FIXES.get(
                        quoting, "write the placeholder as its own unquoted word"
                    ).replace("ARG", "ARG_" + occ.arg),
                )
        elif occ.kind == "raw":
            self._check_raw(occ, quoting)
        elif (
            occ.kind == "env"
            and quoting == "unquoted"
            and not self._no_split(occ)
            and model.chars & _SPLIT_GLOB
        ):
            if model.chars & _IFS:
                self.split_starts.add(occ.start)
            if self._in_for_list(occ):
                self.hazard(
                    "W102",
                    occ.arg,
                    occ.start,
                    f"`{_shown(occ)}` in a `for` list is split on purpose, but glob characters "
                    "in it also match file names",
                    f'split it without globbing: read -ra items <<< "{_shown(occ)}", then '
                    'for … in "${items[@]}"',
                )
            else:
                self.hazard(
                    "W102",
                    occ.arg,
                    occ.start,
                    f"`{_shown(occ)}` is unquoted, so the value is split on spaces and "
                    "glob-expanded",
                    f'write "{_shown(occ)}" (in double quotes)',
                )
        in_arith = (occ.node is not None and self._in_arithmetic(occ.node)) or self._in_let(occ)
        if in_arith and not _arith_safe(model):
            self.hazard(
                "H006",
                occ.arg,
                occ.start,
                "the value is evaluated as arithmetic, where bash runs `$(…)` inside an array "
                "subscript such as `a[$(cmd)]`, even when quoted",
                'give the arg `"type": "integer"` in its schema, or compare it as a string',
            )
        if occ.node is not None:
            self._check_name_context(occ)

    def _in_let(self, occ: _Occ) -> bool:
        assert occ.node is not None
        first = occ.node.parent if occ.node.type == "command_substitution" else occ.node
        if first is None:
            return False
        for node in _ancestors(first):
            if node.type in ("command_substitution", "process_substitution"):
                return False
            if node.type == "command":
                name = node.child_by_field_name("name")
                return (
                    name is not None
                    and _text(self.src, name) == "let"
                    and not (name.start_byte <= occ.start < name.end_byte)
                )
            if node.type == "declaration_command":
                flags = [_text(self.src, c) for c in node.children if c.type == "word"]
                if any(f.startswith("-") and "i" in f for f in flags):
                    return any(
                        c.type == "variable_assignment"
                        and (v := c.child_by_field_name("value")) is not None
                        and v.start_byte <= occ.start < v.end_byte
                        for c in node.children
                    )
                return False
        return False

    def _in_for_list(self, occ: _Occ) -> bool:
        node = occ.node
        while node is not None:
            parent = node.parent
            if parent is not None and parent.type == "for_statement":
                return node in parent.children_by_field_name("value")
            if parent is not None and parent.type in ("command", "command_substitution"):
                return False
            node = parent
        return False

    def _no_split(self, occ: _Occ) -> bool:
        assert occ.node is not None
        for node in _ancestors(occ.node.parent) if occ.node.parent is not None else iter(()):
            if node.type in ("variable_assignment", "case_statement", "herestring_redirect"):
                return True
            if node.type == "test_command" and _text(self.src, node).startswith("[["):
                return True
            if node.type in ("command", "command_substitution", "declaration_command"):
                return False
        return False

    def _check_raw(self, occ: _Occ, quoting: str) -> None:
        model = occ.model
        danger = {
            "unquoted": _UNQUOTED_SPECIAL,
            "backticks": _UNQUOTED_SPECIAL,
            "parameter-expansion": _UNQUOTED_SPECIAL,
            "double": _DQ_SPECIAL,
            "single": frozenset("'"),
            "ansi-c": frozenset("'\\"),
            "heredoc": _DQ_SPECIAL | {"\n", "\r"},
            "heredoc-quoted": frozenset("\n\r"),
            "heredoc-delimiter": _UNQUOTED_SPECIAL,
            "comment": frozenset("\n\r"),
        }[quoting]
        bad = model.chars & danger
        if not bad:
            return
        if quoting == "unquoted" and bad <= _SPLIT_GLOB and model.words is not None:
            self.hazard(
                "W104",
                occ.arg,
                occ.start,
                "the raw placeholder is unquoted and one of its allowed values has spaces or "
                "glob characters, so it is split into several words or expanded as a pattern",
                "add `| shellquote` to the placeholder",
            )
            return
        shown = "".join(sorted(bad))[:12]
        self.hazard(
            "H001",
            occ.arg,
            occ.start,
            f"the raw placeholder is spliced into the script inside {_CONTEXT_NAMES[quoting]} and "
            f"its schema allows {shown!r}, which bash reads as syntax there",
            "use `{{ args."
            + occ.arg
            + ' | shellquote }}` as an unquoted word, or "$ARG_'
            + occ.arg
            + '", or constrain the arg with an anchored `pattern`, an `enum` or '
            '`"type": "integer"`',
        )

    def _check_name_context(self, occ: _Occ) -> None:
        assert occ.node is not None
        node = occ.node
        parent = node.parent
        name_like = False
        if (
            occ.kind in ("raw", "sq")
            and node.type == "variable_name"
            and not self._in_arithmetic(node)
        ):
            name_like = True
        if (
            occ.kind == "env"
            and node.type == "expansion"
            and any(c.type == "!" for c in node.children[:3])
        ):
            name_like = True
        if parent is not None and parent.type == "variable_assignment":
            name = parent.child_by_field_name("name")
            if (
                name is not None
                and name.start_byte <= occ.start < name.end_byte
                and name.type != "subscript"
            ):
                name_like = True
        if name_like and not _names_only(occ.model):
            self.hazard(
                "H007",
                occ.arg,
                occ.start,
                "the value is used as a variable name, so the caller chooses which variable "
                "is read or written (and bash evaluates subscripts in names)",
                "use a fixed variable name and pass the value as its content",
            )

    # -- words
    def _word(self, node: Node) -> _Word:
        occs = self._occs_in(node.start_byte, node.end_byte)
        static = _static(self.src, node) if not occs else None
        prefix = ""
        if occs:
            prefix = _dequoted_prefix(
                self.src[node.start_byte : occs[0].start].decode("utf-8", "replace")
            )
        script: tuple[str, Sentinels | None] | None = (static, None) if static is not None else None
        if occs and all(o.kind in ("raw", "sq") and o.model.inert for o in occs):
            text = _static(self.src, node)
            if text is not None:
                script = (text, self.sentinels)
        if script is None and not any(o.kind in ("raw", "sq") for o in occs):
            script = self._rendered(node)
        splits = any(o.start in self.split_starts for o in occs)
        return _Word(node.start_byte, node.end_byte, static, occs, prefix, script, None, splits)

    # -- text the shell builds from quoted caller data
    def _rendered(self, node: Node) -> tuple[str, Sentinels | None] | None:
        """The text `node` expands to, when every piece of caller data in it
        arrives shell-quoted by bash itself, as ``${x@Q}`` or printf's ``%q``
        (directly, through ``$(printf …)`` or a variable ``printf -v`` set),
        or is a server value of safe characters (``$HARBOR_RUN_ID``): each
        such value becomes a shellquote sentinel, so a nested analysis
        (``eval``, a sourced file) checks where it lands. None otherwise."""
        table: dict[str, _Sentinel] = {}
        text = self._render(node, table)
        if text is None:
            return None
        if self.sentinels is not None:
            table.update(self.sentinels.by_word)
        where = self.sentinels.where if self.sentinels is not None else ()
        return text, Sentinels(table, [], where)

    def _quoted_sentinel(self, source: tuple[str, ValueModel], table: dict[str, _Sentinel]) -> str:
        self.rendered_count += 1
        word = f"hbQSENT{self.rendered_count}x"
        table[word] = _Sentinel(source[0], True, source[1])
        return word

    def _render(self, node: Node, table: dict[str, _Sentinel]) -> str | None:
        kind = node.type
        if kind in ("word", "number", "raw_string", "ansi_c_string"):
            return _static(self.src, node)
        if kind == "string_content":
            raw = _text(self.src, node)
            return _DQ_UNESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)
        if kind in ("string", "concatenation"):
            parts: list[str] = []
            for child in node.children:
                if child.type == '"':
                    continue
                part = self._render(child, table)
                if part is None:
                    return None
                parts.append(part)
            return "".join(parts)
        if kind in ("expansion", "simple_expansion"):
            return self._render_expansion(node, table)
        if kind == "command_substitution":
            commands = [c for c in node.children if c.is_named]
            if len(commands) == 1 and commands[0].type == "command":
                return self._render_printf(commands[0], table)
        return None

    def _render_expansion(self, node: Node, table: dict[str, _Sentinel]) -> str | None:
        raw = _text(self.src, node)
        name = self._expansion_target(node)
        if name is None:
            return None
        if raw in (f"${name}", f"${{{name}}}"):
            if name in self.rendered_vars:
                text, inner = self.rendered_vars[name]
                table.update(inner)
                return text
            if name in _SERVER_WORDS and name not in self.taint.variables:
                return "hbserver"
            return None
        if raw == f"${{{name}@Q}}":
            source = self._var_source(name)
            if source is not None:
                return self._quoted_sentinel(source, table)
        return None

    def _render_printf(self, command: Node, table: dict[str, _Sentinel]) -> str | None:
        """What ``printf FORMAT ARGS`` prints, when FORMAT is a literal and
        every argument carrying caller data meets a ``%q``."""
        name = command.child_by_field_name("name")
        if name is None or _text(self.src, name) != "printf":
            return None
        args = list(command.children_by_field_name("argument"))
        if args and _static(self.src, args[0]) == "-v":
            args = args[2:]
        if args and _static(self.src, args[0]) == "--":
            args = args[1:]
        if not args:
            return None
        fmt = _static(self.src, args[0])
        if fmt is None:
            return None
        values = args[1:]
        out: list[str] = []
        index = 0
        pos = 0
        for match in _PRINTF_DIRECTIVE.finditer(fmt):
            out.append(_printf_escapes(fmt[pos : match.start()]))
            pos = match.end()
            directive = match.group(0)
            if directive == "%%":
                out.append("%")
                continue
            arg = values[index] if index < len(values) else None
            index += 1
            if arg is None:
                continue
            occs = self._occs_in(arg.start_byte, arg.end_byte)
            # a placeholder's sentinel reads as static text: it is caller data
            static = None if occs else _static(self.src, arg)
            if directive.endswith("q"):
                if static is not None:
                    out.append(shlex.quote(static))
                elif occs and len(occs) == 1:
                    source = (occs[0].arg, occs[0].model)
                    out.append(self._quoted_sentinel(source, table))
                else:
                    return None
            elif static is not None and directive.endswith(("s", "d", "i", "u")):
                out.append(static)
            else:
                return None
        if index < len(values):
            return None  # the format is used again: not worth following
        out.append(_printf_escapes(fmt[pos:]))
        return "".join(out)

    def _command(self, node: Node) -> None:
        words: list[_Word] = []
        for index, child in enumerate(node.children):
            fname = node.field_name_for_child(index)
            if fname in ("name", "argument"):
                words.append(self._word(child))
            elif child.type == "variable_assignment":
                continue
        if not words:
            return
        resolver = _Resolver(self, self._stdin(node))
        resolver.command(words, 0)

    def _stdin(self, node: Node) -> _Occ | None:
        """Caller data that reaches this command's standard input."""
        child = node
        for parent in _ancestors(node):
            if parent.type == "pipeline":
                for stage in parent.children:
                    if stage.start_byte >= child.start_byte:
                        break
                    occs = [
                        o
                        for o in self._occs_in(stage.start_byte, stage.end_byte)
                        if not o.model.inert_code
                    ]
                    if occs:
                        return occs[0]
            if parent.type in ("redirected_statement", "command"):
                for index, red in enumerate(parent.children):
                    if parent.field_name_for_child(index) != "redirect" and red.type not in (
                        "herestring_redirect",
                        "heredoc_redirect",
                    ):
                        continue
                    if red.type == "file_redirect":
                        dest = red.child_by_field_name("destination")
                        if (
                            dest is None
                            or dest.type != "process_substitution"
                            or not _text(self.src, red).startswith("<")
                        ):
                            continue
                    occs = [
                        o
                        for o in self._occs_in(red.start_byte, red.end_byte)
                        if not o.model.inert_code
                    ]
                    occs = [o for o in occs if not self._in_quoted_heredoc_env(o)]
                    if occs:
                        return occs[0]
            if parent.type in ("command_substitution", "process_substitution"):
                return None
            child = parent
        return None

    def _in_quoted_heredoc_env(self, occ: _Occ) -> bool:
        return False

    def _assignment(self, node: Node) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None:
            return
        target = (
            _text(self.src, name.child_by_field_name("name") or name)
            if name.type == "subscript"
            else _text(self.src, name)
        )
        occs = self._occs_in(value.start_byte, value.end_byte)
        if occs and sinks.is_code_variable(target) and not _author_or_number(occs):
            self.hazard(
                "H008",
                occs[0].arg,
                occs[0].start,
                f"the value is assigned to `{target}`, which selects the code that runs",
                f"do not let the caller set `{target}`; pass the value in a variable of its own "
                "and choose the program in the script",
            )
            return

    def _declaration(self, node: Node) -> None:
        words = [
            c
            for c in node.children
            if c.type in ("word", "variable_name", "concatenation", "string", "raw_string")
        ]
        flags = "".join(_text(self.src, w) for w in words if _text(self.src, w).startswith("-"))
        for child in node.children:
            occs = self._occs_in(child.start_byte, child.end_byte)
            if not occs:
                continue
            if child.type == "variable_assignment":
                if "n" in flags:
                    self.hazard(
                        "H007",
                        occs[0].arg,
                        occs[0].start,
                        "the value names the variable a nameref points to",
                        "do not build namerefs from caller values",
                    )
                continue
            if child.type in _NAME_OPERANDS and not all(_names_only(o.model) for o in occs):
                self.hazard(
                    "H007",
                    occs[0].arg,
                    occs[0].start,
                    f"the value is an operand of `{_text(self.src, node.children[0])}`, which "
                    "takes variable names",
                    "use a fixed variable name and assign the value to it",
                )

    def _redirect(self, node: Node) -> None:
        dest = node.child_by_field_name("destination")
        if dest is None or dest.type == "process_substitution":
            return
        occs = [
            o for o in self._occs_in(dest.start_byte, dest.end_byte) if o.arg != CALLER_FILE_SOURCE
        ]
        if occs and not all(o.model.words is not None or _bare_name(o.model) for o in occs):
            self.hazard(
                "W103",
                occs[0].arg,
                occs[0].start,
                "the caller chooses the file this redirection reads or writes",
                "redirect to a fixed file, or constrain the arg to a file name with a `pattern` "
                "that excludes `/` and `..`",
            )

    def _unary(self, node: Node) -> None:
        op = node.child_by_field_name("operator")
        if op is None or _text(self.src, op) != "-v":
            return
        occs = self._occs_in(node.start_byte, node.end_byte)
        if occs and not all(_names_only(o.model) for o in occs):
            self.hazard(
                "H007",
                occs[0].arg,
                occs[0].start,
                "`-v` takes a variable name (with a subscript that bash evaluates)",
                "test a fixed variable name",
            )

    # -- nested scripts
    def nested(self, word: _Word, positional: tuple[str, ValueModel] | None, what: str) -> None:
        """Analyse the text of `word` as a shell script of its own."""
        if word.script is None:
            self.hazard(
                "H004",
                word.arg or None,
                word.start,
                f"{what} is built at run time, so the checker cannot see the code it runs",
                "write the script as one literal string and pass caller values as "
                "positional parameters: sh -c '… \"$1\" …' _ {{ args.x | shellquote }}",
            )
            return
        text, sentinels = word.script
        taint = _Taint(dict(self.taint.variables), positional)
        anchor = word.where if word.where is not None else self.locate(word.start)
        locate: Callable[[int], Located]
        if sentinels is not None and word.where is not None and sentinels.spans:
            locate = sentinels.locate
        else:

            def locate(_byte: int) -> Located:
                return anchor

        inner = _Analysis(
            text, sentinels, taint, locate, self.hazards, self.depth + 1, self.arg_models
        )
        inner.programs = self.programs
        inner.run()


#: ``<>``, ``<ARGV>``, ``<STDIN>`` read file operands with the magic open
#: (``<<>>`` does not)
_PERL_DIAMOND = re.compile(r"(?<!<)<\s*(?:ARGV|STDIN)?\s*>(?!>)|\bopen\b|readline|\beof\b")


#: A printf conversion (flags, width, precision, then the letter), or %%.
_PRINTF_DIRECTIVE = re.compile(r"%%|%[-+ #0]*[0-9]*(?:\.[0-9]*)?[diouxXfFeEgGcsqb]")
#: Server values of safe characters only (run id, tool and step names).
_SERVER_WORDS = frozenset({"HARBOR_RUN_ID", "HARBOR_TOOL", "HARBOR_STEP"})


def _printf_escapes(text: str) -> str:
    """printf's backslash escapes in the literal parts of a format."""
    try:
        return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return text


#: A command word that only reads a variable: "$V", ${V}, "${V[@]}"…
_CONSTANT_USE = re.compile(
    r'"?\$(?:(?P<bare>[A-Za-z_][A-Za-z0-9_]*)|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)'
    r'(?P<all>\[[@*]\])?\})"?'
)
_SED_INERT = frozenset(string.ascii_letters + string.digits + "._")


def _sed_inert(word: _Word) -> bool:
    """The caller value is inside the replacement of one ``s`` command
    (``s/^v=.*/v=1.2.3/``) and is letters, digits, `.` and `_` only: it
    cannot end the replacement (no delimiter), add flags or commands, or
    reach `\\`, `&` or a newline. Anywhere else in a sed program letters
    are commands (``e`` runs one)."""
    if len(word.occs) != 1 or word.occs[0].kind == "env":
        return False
    match = _SED_REPLACEMENT.fullmatch(word.prefix)
    return (
        match is not None
        and match.group(1) not in _SED_INERT
        and word.occs[0].model.chars <= _SED_INERT
    )


#: The text of a sed program up to a place inside an s command's replacement.
_SED_REPLACEMENT = re.compile(r"s(.)(?:(?!\1).|\\.)*\1(?:(?!\1)[^\\])*", re.S)


def _bare_name(model: ValueModel) -> bool:
    """Every value is a name inside one directory: no `/`, and it cannot
    start with `.` (so it is never `..`)."""
    return "/" not in model.chars and "." not in model.first


def _takes_value(prev: str | None, grammar: sinks.Grammar) -> bool:
    """The word after `prev` is the value of an option of `grammar`: `prev`
    is such an option, or a cluster of one-letter options whose last one is
    (``tar -xzf FILE``) and none before it takes a value (it would take the
    rest of the cluster instead)."""
    if prev is None:
        return False
    if prev in grammar.value_options:
        return True
    if len(prev) > 2 and prev[0] == "-" and prev[1] != "-" and prev[1:].isalnum():
        before = [f"-{c}" for c in prev[1:-1]]
        return f"-{prev[-1]}" in grammar.value_options and not any(
            b in grammar.value_options for b in before
        )
    return False


def _git_subcommand(words: Sequence[_Word]) -> str:
    """git's subcommand: the first word that is not a global option (nor
    the value of ``-C`` or ``-c``)."""
    skip = False
    for word in words:
        text = word.static
        if text is None:
            return ""
        if skip:
            skip = False
            continue
        if text in ("-C", "-c", "--git-dir", "--work-tree", "--namespace"):
            skip = True
            continue
        if text.startswith("-"):
            continue
        return text
    return ""


def _in_quoted_operand(node: Node) -> bool:
    """`node` is inside the operand of a ``${…}`` expansion that is itself
    inside double quotes."""
    parent = node.parent
    while parent is not None:
        if parent.type == "expansion":
            outer = parent.parent
            while outer is not None:
                if outer.type in ("string", "translated_string"):
                    return True
                if outer.type in ("command", "command_substitution", "program"):
                    return False
                outer = outer.parent
            return False
        if parent.type in ("command", "command_substitution", "program"):
            return False
        parent = parent.parent
    return False


def _normal_path(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path


def _walk_nodes(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


_STDIN_FILES = re.compile(r"/dev/stdin|/dev/fd/\d+|/proc/(?:self|\d+)/fd/\d+|-")


def _reads_stdin_file(path: str | None) -> bool:
    """`path` names the standard input (or another inherited descriptor)."""
    return path is not None and _STDIN_FILES.fullmatch(path) is not None


def _names_only(model: ValueModel) -> bool:
    if model.numeric:
        return True
    return model.words is not None and all(_IDENT.fullmatch(w) for w in model.words)


def _arith_safe(model: ValueModel) -> bool:
    """Numbers, digits and signs, or author-written words that name no
    variable carrying caller data."""
    if model.numeric or model.chars <= _ARITH_SAFE:
        return True
    return model.words is not None and all(
        re.fullmatch(r"[A-Za-z0-9_]*", w) and not w.startswith("ARG_") for w in model.words
    )


def _any_model() -> ValueModel:
    from mcp_harbor.check._values import ANY_VALUE

    return ANY_VALUE


_CONTEXT_NAMES = {
    "unquoted": "an unquoted word",
    "double": "double quotes",
    "single": "single quotes",
    "ansi-c": "`$'…'` quotes",
    "heredoc": "a here-document body",
    "heredoc-quoted": "a quoted here-document body",
    "heredoc-delimiter": "a here-document delimiter",
    "comment": "a comment",
    "backticks": "backticks",
    "parameter-expansion": "a `${…}` expansion",
}
_CONTEXT_FIXES = {
    "double": "remove the double quotes around the placeholder (shellquote already makes one "
    'word), or write "$ARG" instead of the placeholder',
    "single": 'close the single quotes before the placeholder, or write "$ARG" outside them',
    "ansi-c": "move the placeholder out of the `$'…'` string",
    "heredoc": "write $ARG in the here-document instead (an unquoted delimiter expands it "
    "once, without re-parsing)",
    "heredoc-quoted": "feed the value on stdin another way, e.g. printf '%s\\n' \"$ARG\" |",
    "comment": "remove the placeholder from the comment",
    "backticks": 'replace the backticks with $( … ) and write the placeholder there, or use "$ARG"',
    "parameter-expansion": 'write "$ARG" instead of a placeholder inside `${…}`',
    "heredoc-delimiter": "use a fixed here-document delimiter",
}


# ------------------------------------------------------------------ commands


def _base(name: str) -> str:
    return name.rsplit("/", 1)[-1]


def _lookup_interpreter(name: str) -> sinks.Interpreter | None:
    if name in sinks.INTERPRETERS:
        return sinks.INTERPRETERS[name]
    stripped = re.sub(r"[0-9.]+$", "", name)
    if stripped and stripped != name and stripped in sinks.INTERPRETERS:
        return sinks.INTERPRETERS[stripped]
    return None


def _shell_name(name: str) -> bool:
    return name in sinks.SHELLS or re.sub(r"[0-9.]+$", "", name) in sinks.SHELLS


class _Resolver:
    """Decides the role of each word of one command line."""

    def __init__(self, analysis: _Analysis, stdin: _Occ | None) -> None:
        self.a = analysis
        self.stdin = stdin
        self.safe_from = 0

    def hazard(self, rule: str, word: _Word | _Occ, detail: str, fix: str) -> None:
        if isinstance(word, _Word):
            arg = word.arg or None
            if word.where is not None:
                self.a.hazards.append(Hazard(rule, arg, word.where, detail, fix))
                return
            start = word.occs[0].start if word.occs else word.start
        else:
            arg, start = word.arg, word.start
        self.a.hazard(rule, arg, start, detail, fix)

    def command(self, words: list[_Word], i: int) -> None:
        if i >= len(words):
            return
        head = words[i]
        if head.tainted:
            if all(
                (o.model.words is not None and o.model.inert) or o.model.numeric for o in head.occs
            ):
                self.plain(words, i + 1, None)
                return
            self.hazard(
                "H003",
                head,
                "the value is in command position, so the caller chooses the program to run",
                "choose the program in the script (a `case` on an `enum` arg), and pass the value "
                "as an argument",
            )
            return
        if head.static is None:
            resolved = self.a.resolve_command_word(head)
            if resolved is not None:
                self.command(resolved + words[i + 1 :], 0)
                return
            tainted = [w for w in words[i + 1 :] if w.tainted]
            if tainted:
                self.hazard(
                    "H003",
                    tainted[0],
                    "the command word is not a literal (an expansion, an array), so the "
                    "checker cannot tell which program gets the value, or what it does with it",
                    "write the program's name literally in the command (a `case` on an `enum` "
                    "arg can choose among literal commands)",
                )
                return
            self.plain(words, i + 1, None)
            return
        name = _base(head.static)
        if self.rebinding(name, words, i):
            return
        if name in self.a.functions:
            if self.stdin is not None and self.a.reads_program_from_stdin(name):
                self.hazard(
                    "H004",
                    self.stdin,
                    f"caller data is piped into the function `{name}`, which runs a shell or "
                    "an interpreter on its standard input",
                    "pass the value to the function as an argument, and run no shell on it",
                )
                return
            self.plain(words, i + 1, None)
            return
        if _shell_name(name):
            if name == "busybox" and i + 1 < len(words) and words[i + 1].static is not None:
                applet = words[i + 1].static or ""
                if _shell_name(applet) or _lookup_interpreter(applet):
                    self.command(words, i + 1)
                    return
            self.shell(words, i)
        elif name in sinks.EVAL_LIKE:
            self.eval_like(name, words, i)
        elif (
            name in ("command", "type", "hash", "which")
            and any(w.static in ("-v", "-V") for w in words[i + 1 : i + 2])
        ) or name in ("type", "which", "hash"):
            return
        elif name == "find":
            self.find(words, i)
        elif name in ("docker", "podman", "kubectl", "nerdctl"):
            self.container(name, words, i)
        elif name in sinks.WRAPPERS:
            self.wrapper(name, words, i)
        elif name == "gdb" and any(w.static == "--args" for w in words[i + 1 :]):
            # gdb --args PROGRAM ARGS…: the words after --args are a command
            at = next(k for k in range(i + 1, len(words)) if words[k].static == "--args")
            self.interpreter(name, sinks.INTERPRETERS["gdb"], words[:at], i)
            self.command(words, at + 1)
        elif (interp := _lookup_interpreter(name)) is not None:
            self.interpreter(name, interp, words, i)
            if name.startswith("perl"):
                self.perl_operands(words, i)
        elif name == "printf":
            self.printf(words, i)
        elif name in ("read", "mapfile", "readarray", "getopts", "unset", "test", "["):
            self.name_operands(name, words, i)
        else:
            self.plain(words, i + 1, name)

    def literal_code_value(
        self, name: str | None, prev: str | None, word: _Word, code: frozenset[str]
    ) -> None:
        """An author's literal given to an option whose value is a command
        (``git -c core.editor='sh -c "$ARG_x"'``): the program runs it with a
        shell later, where a ``$VAR`` carrying caller data in it expands."""
        text = word.static or ""
        value = None
        if prev is not None and prev in code:
            value = text
        elif text.startswith("-") and "=" in text and text.split("=", 1)[0] in code:
            value = text.split("=", 1)[1]
        if not value:
            return
        for match in re.finditer(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", value):
            source = self.a.taint.variables.get(match.group(1))
            if source is not None:
                self.hazard(
                    "H008",
                    word,
                    f"the literal value of `{prev if value == text else text.split('=')[0]}` is "
                    f"a command `{name}` runs with a shell, and it reads `${match.group(1)}`, "
                    "which carries caller data",
                    "do not mention caller data in a command given to an option; pass the "
                    "value as an argument instead",
                )
                return

    def declared_runner(
        self, name: str | None, words: list[_Word], j: int, grammar: sinks.Grammar
    ) -> None:
        """A program declared with ``runs_operands: true``: caller data may
        only be the value of one of its options."""
        prev: str | None = None
        for word in words[j:]:
            if (
                word.tainted
                and not word.prefix.startswith("-")
                and (prev is None or prev not in grammar.value_options)
            ):
                self.hazard(
                    "H003",
                    word,
                    f"`{name}` is declared with `runs_operands: true`, and the value is one of "
                    "its operands, which it may run",
                    "pass the value as the value of one of its options, or declare "
                    "`runs_operands: false` if the program runs none of its operands",
                )
                return
            prev = word.static

    def perl_operands(self, words: list[_Word], i: int) -> None:
        """perl opens file operands (``<>``, ``-n``, ``-p``) with its
        two-argument open, where ``cmd|`` runs cmd. A program given with
        ``-e`` that reads no ``<>`` and no ``-n``/``-p`` opens none."""
        opens = True
        for k in range(i + 1, len(words)):
            text = words[k].static or ""
            if text in ("-e", "-E") and k + 1 < len(words):
                program = words[k + 1].static
                opens = program is None or _PERL_DIAMOND.search(program) is not None
                break
        flags = [
            (w.static or "")[1:]
            for w in words[i + 1 :]
            if (w.static or "").startswith("-") and not (w.static or "").startswith("--")
        ]
        if any("n" in f.split("e")[0] or "p" in f.split("e")[0] for f in flags):
            opens = True
        if not opens:
            return
        for word in words[i + 1 :]:
            if word.tainted and any("|" in o.model.chars for o in word.occs):
                self.hazard(
                    "H005",
                    word,
                    "perl opens its file operands with the two-argument open, so a value "
                    "ending in `|` is a command it runs",
                    "give the arg a `pattern` without `|`, or read the file in the program "
                    "with a three-argument open of $ENV{ARG_…}",
                )
                return

    def make_operands(self, words: list[_Word], j: int) -> None:
        """make reads ``NAME=VALUE`` operands as variable assignments (even
        after ``--``) and expands ``$(shell …)`` in them."""
        for word in words[j:]:
            if not word.tainted:
                continue
            if any("$" in o.model.chars for o in word.occs) or (
                not word.prefix and any("=" in o.model.chars for o in word.occs)
            ):
                self.hazard(
                    "H004",
                    word,
                    "make reads an operand `NAME=VALUE` as a variable assignment, even after "
                    "`--`, and expands `$(shell …)` in its value",
                    "give the arg a `pattern` without `=` and `$` (a target name such as "
                    "^[A-Za-z0-9_.-]+$), or pass the value in the environment and read it "
                    "in the Makefile",
                )
                return

    def git_config(self, words: list[_Word], j: int) -> bool:
        """`git config KEY VALUE`: settings such as ``core.fsmonitor``,
        ``core.pager`` and ``alias.*`` are commands git runs later."""
        rest = [w for w in words[j:] if not (w.static or "").startswith("-")]
        if not rest or rest[0].static != "config":
            return False
        tainted = [w for w in rest[1:] if w.tainted]
        if tainted and not _author_or_number(tainted[0].occs):
            self.hazard(
                "H008",
                tainted[0],
                "the value is a key or a value of `git config`, and many settings are "
                "commands git runs later (core.fsmonitor, core.pager, alias.*)",
                "do not let the caller write git configuration",
            )
        return True

    def rebinding(self, name: str, words: list[_Word], i: int) -> bool:
        """Builtins that change what a command word means from then on:
        aliases (once expanded), ``hash -p``, ``enable -f``. The checker
        reads command words literally, so these are refused."""
        statics = [w.static or "" for w in words[i + 1 :]]
        what = None
        if name == "alias" and statics:
            what = "`alias` defines words that bash replaces by other text"
        elif name == "shopt" and "expand_aliases" in statics and "-u" not in statics:
            what = "`shopt -s expand_aliases` makes bash replace alias words by other text"
        elif name == "set" and (
            "posix" in statics or any(s.startswith("--posix") for s in statics)
        ):
            what = "`set -o posix` turns on alias expansion and other parsing changes"
        elif name == "hash" and any(s.startswith("-p") for s in statics):
            what = "`hash -p` binds a command name to another program"
        elif name == "enable" and any(s.startswith("-f") for s in statics):
            what = "`enable -f` loads a builtin from a shared object"
        if what is None:
            return False
        self.hazard(
            "H003",
            words[i],
            f"{what}, so the command words of the script no longer say what runs",
            "remove it and write each command literally",
        )
        return True

    # plain arguments and option injection
    def plain(self, words: list[_Word], j: int, name: str | None) -> None:
        if name == "make":
            self.make_operands(words, j)
        if name == "git" and self.git_config(words, j):
            return
        ended = False
        grammar = self.a.grammar(name)
        if name == "git":
            grammar = sinks.GRAMMARS.get(f"git {_git_subcommand(words[j:])}", grammar)
        code_options = sinks.OPTION_CODE_COMMANDS.get(name or "", frozenset())
        if grammar is not None:
            code_options = code_options | grammar.code_options
            if grammar.runs_operands:
                self.declared_runner(name, words, j, grammar)
        prev: str | None = None
        for word in words[j:]:
            if word.static is not None and not ended:
                self.literal_code_value(name, prev, word, code_options)
            if word.static == "--" and grammar is not None and grammar.end_of_options:
                ended = True
            if word.tainted:
                self.option_value(name, prev, word, code_options)
                if not ended and word.may_be_option:
                    self.option_injection(name, prev, word, grammar)
                if word.prefix.startswith("-") and "=" in word.prefix:
                    opt = word.prefix.split("=", 1)[0]
                    if opt in code_options:
                        self.hazard(
                            "H008",
                            word,
                            f"the value is the argument of `{opt}`, "
                            f"which tells `{name}` what to run",
                            f"do not let the caller set `{opt}`",
                        )
                if (
                    word.prefix.startswith("-")
                    and not word.prefix.startswith("--")
                    and word.prefix[:2] in code_options
                ):
                    self.hazard(
                        "H008",
                        word,
                        f"the value is attached to `{word.prefix}`, "
                        f"which tells `{name}` what to run",
                        f"do not let the caller set `{word.prefix}`",
                    )
                self.traversal(word, name)
            prev = word.static
        if name == "xargs":
            return

    def _code_option_anywhere(
        self, name: str, spec: sinks.Wrapper, words: list[_Word], i: int
    ) -> bool:
        """A wrapper whose options may follow its positionals (``su USER -c
        CMD``): the value of each of its code options, wherever it stands, is
        shell code. True when caller data was found there (and reported)."""
        for k in range(i + 1, len(words)):
            word = words[k]
            text = word.static
            if word.tainted and word.prefix.startswith("-"):
                opt = word.prefix.split("=", 1)[0]
                if opt in spec.code_options or (
                    not opt.startswith("--") and opt[:2] in spec.code_options
                ):
                    self.hazard(
                        "H004",
                        word,
                        f"the value is the argument of `{name} {opt}`, which runs it as code",
                        "write that command literally and pass the value as an argument",
                    )
                    return True
            if text is None or text not in spec.code_options:
                continue
            value = words[k + 1] if k + 1 < len(words) else None
            if value is not None and value.tainted and value.script is None:
                if value.code_inert:
                    continue
                self.hazard(
                    "H004",
                    value,
                    f"the value is the argument of `{name} {text}`, which runs it as shell code",
                    "make the command a literal in single quotes and pass the value after it "
                    "as a positional parameter of `sh -c`",
                )
                return True
            if value is not None and value.tainted:
                self.a.nested(value, None, f"the `{name} {text}` command")
                return True
        return False

    def option_value(
        self, name: str | None, prev: str | None, word: _Word, code: frozenset[str]
    ) -> None:
        if prev is not None and prev in code and not _author_or_number(word.occs):
            self.hazard(
                "H008",
                word,
                f"the value is the argument of `{prev}`, which tells `{name}` what to run "
                "(a config setting or a command)",
                f"do not let the caller set `{prev}`; set the option in the script",
            )

    def option_injection(
        self, name: str | None, prev: str | None, word: _Word, grammar: sinks.Grammar | None
    ) -> None:
        """`word` may start with ``-`` and stands before any ``--``: it is
        inert only as the value of an option that always takes one, in a
        grammar the checker knows (`sinks.GRAMMARS`, ``programs:``)."""
        if name in sinks.INERT_COMMANDS:
            if name == "echo":
                self.hazard(
                    "W101",
                    word,
                    "the value can start with `-`, so `echo` may read it as its own option "
                    "(`-n`, `-e`) and print something else",
                    "print the value with printf '%s\\n' \"$ARG\" instead of echo",
                )
            return
        if grammar is not None and not word.splits and _takes_value(prev, grammar):
            return
        program = f"`{name}`" if name else "the program"
        if all(o.model.numeric for o in word.occs):
            self.hazard(
                "H009",
                word,
                f"the value is a number that can be negative, and {program} reads `-1` as an "
                "option (or, as a PID, as every process)",
                f"give arg {word.arg!r} a `minimum` of 0 (or more)",
            )
            return
        if grammar is None:
            why = (
                f"the value can start with `-`, and the checker does not know {program}'s "
                "options, so it cannot show that the value is not read as one (some "
                "options run code: git --upload-pack, ssh -oProxyCommand, tar --to-command)"
            )
            fix = (
                f"remove `leading_dash: true` from arg {word.arg!r} (values starting with "
                "`-` are then refused at validation), or give it a `pattern` that cannot "
                f"start with `-`, or declare {program} under `programs:` (its options that "
                "take a value, and that `--` ends its options) and put `--` before the value"
            )
        else:
            why = f"the value can start with `-` and stands where {program} reads options"
            fix = (
                "put `--` before the value, or remove `leading_dash: true` from arg "
                f"{word.arg!r}, or give it a `pattern` that cannot start with `-`"
            )
        self.hazard("H009", word, why, fix)

    def traversal(self, word: _Word, name: str | None) -> None:
        if name in sinks.INERT_COMMANDS or name == "printf":
            return  # printed, not opened
        if (
            word.prefix.endswith("/")
            and word.occs
            and word.occs[0].model.words is None
            and not _bare_name(word.occs[0].model)
        ):
            self.hazard(
                "W103",
                word,
                f"the value is appended to the directory `{word.prefix}` and may contain `..` "
                "or `/`, escaping it",
                "constrain the arg with a `pattern` such as ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ "
                "(no `/`, cannot start with `.`)",
            )

    # shells
    def shell(self, words: list[_Word], i: int) -> None:
        j = i + 1
        has_c = False
        stdin_script = False
        while j < len(words):
            word = words[j]
            text = word.static
            if word.tainted or text is None:
                break
            if text in ("--", "-"):
                j += 1
                break
            if text in sinks.SHELL_VALUE_OPTIONS:
                j += 2
                continue
            if text.startswith("--"):
                j += 1
                continue
            if len(text) > 1 and text[0] in "-+":
                if text[0] == "-" and "c" in text[1:]:
                    has_c = True
                if text[0] == "-" and "s" in text[1:]:
                    stdin_script = True
                j += 1
                continue
            break
        operands = words[j:]
        positional = self.positional(operands[1:] if has_c else operands)
        if has_c:
            if not operands:
                return
            script = operands[0]
            if script.tainted and script.script is None:
                if script.code_inert:
                    return
                self.hazard(
                    "H004",
                    script,
                    "the value is part of the script given to `-c`, which the shell parses as code",
                    "make the -c script a literal in single quotes and pass the value after it: "
                    "sh -c '… \"$1\" …' _ {{ args.x | shellquote }}",
                )
                return
            self.a.nested(script, positional, "the -c script")
            return
        if operands and not stdin_script and _reads_stdin_file(operands[0].static):
            stdin_script = True  # bash /dev/stdin, /dev/fd/0, /proc/self/fd/0
        if operands and not stdin_script:
            first = operands[0]
            if first.tainted:
                self.hazard(
                    "H003",
                    first,
                    "the value is the script file the shell runs (or one of its options)",
                    "name the script file in the export and pass the value as an argument after it",
                )
            return
        if self.stdin is not None:
            self.hazard(
                "H004",
                self.stdin,
                "caller data is piped into a shell, which runs it as code",
                "run the commands directly and pass the value as an argument",
            )

    def positional(self, words: Sequence[_Word]) -> tuple[str, ValueModel] | None:
        for word in words:
            for occ in word.occs:
                return occ.arg, occ.model
        return None

    def eval_like(self, name: str, words: list[_Word], i: int) -> None:
        operands = words[i + 1 :]
        if name in ("at", "batch"):
            if self.stdin is not None:
                self.hazard(
                    "H004",
                    self.stdin,
                    f"caller data is piped into `{name}`, which runs it as shell code",
                    "do not schedule caller data as commands",
                )
            return
        if name == "trap":
            operands = [w for w in operands if not (w.static or "").startswith("-")][:1]
        elif name in ("source", "."):
            operands = operands[:1]
        code = [w for w in operands if w.tainted and not w.code_inert and w.script is None]
        if code:
            self.hazard(
                "H004",
                code[0],
                f"the value is an operand of `{name}`, which runs it as shell code",
                f"remove `{name}` and name the command literally, with the value as its "
                f"argument: `printf '%s\\n' \"$ARG_{code[0].arg}\"` instead of "
                f"`{name} …`",
            )
            return
        if name in ("source", "."):
            return
        if all(w.script is not None for w in operands) and operands:
            joined = " ".join(w.script[0] for w in operands if w.script is not None)
            tables = [w.script[1] for w in operands if w.script is not None and w.script[1]]
            first = operands[0]
            self.a.nested(
                _Word(
                    first.start,
                    first.end,
                    joined,
                    [],
                    "",
                    (joined, _merge(tables)),
                    first.where,
                ),
                self.a.taint.positional,
                f"the `{name}` script",
            )
        elif any(w.script is None for w in operands) and (self.a.taint.variables or self.a.occs):
            dynamic_words = [
                w for w in operands if w.script is None and not (w.tainted and w.code_inert)
            ]
            if not dynamic_words:
                return
            dynamic = dynamic_words[0]
            self.a.nested(dynamic, None, f"the `{name}` script")

    def wrapper(self, name: str, words: list[_Word], i: int) -> None:
        spec = sinks.WRAPPERS[name]
        if spec.options_anywhere and self._code_option_anywhere(name, spec, words, i):
            return
        j = i + 1
        joined_shell = spec.runs_with_shell
        replace = False
        null = False
        ended = False
        while j < len(words):
            word = words[j]
            text = word.static
            if word.tainted:
                if word.prefix.startswith("-"):
                    opt = word.prefix.split("=", 1)[0]
                    if not opt.startswith("--") and opt[:2] in spec.code_options:
                        opt = opt[:2]  # attached: -oProxyCommand=…
                    if opt in spec.code_options:
                        self.hazard(
                            "H004",
                            word,
                            f"the value is the argument of `{name} {opt}`, which runs it as code",
                            "do not pass caller data to that option",
                        )
                    j += 1
                    continue
                if name == "env" and "=" in word.prefix:
                    var = word.prefix.split("=", 1)[0]
                    if sinks.is_code_variable(var) and not _author_or_number(word.occs):
                        self.hazard(
                            "H008",
                            word,
                            f"the value is assigned to `{var}`, which selects the code that runs",
                            f"do not let the caller set `{var}`",
                        )
                    j += 1
                    continue
                if j > i + 1 and words[j - 1].static in spec.value_options and not word.splits:
                    j += 1
                    continue
                if (spec.positionals and not word.splits) or all(
                    (o.model.words is not None and o.model.inert) or o.model.numeric
                    for o in word.occs
                ):
                    break
                self.hazard(
                    "H003",
                    word,
                    f"the value is where `{name}` expects its options or the command to run",
                    f"name the command after `{name}` literally and pass the value after it",
                )
                return
            if text is None:
                break
            if text == "--":
                ended = True
                j += 1
                break
            if name == "env" and "=" in text and not text.startswith("-"):
                j += 1
                continue
            if text.startswith("-") and len(text) > 1:
                opt = text.split("=", 1)[0]
                if (name == "xargs" and opt in ("-I", "-i", "--replace")) or (
                    name == "xargs" and text.startswith("-I")
                ):
                    replace = True
                if name == "xargs" and opt in ("-0", "--null", "-d", "--delimiter"):
                    null = True
                if opt in spec.code_options or (
                    len(text) > 2 and text[:2] in spec.code_options and not text.startswith("--")
                ):
                    if opt in ("-s", "-i", "--shell", "--login") and name in (
                        "sudo",
                        "runuser",
                        "su",
                    ):
                        joined_shell = True
                        j += 1
                        continue
                    attached = "=" in text or (len(text) > 2 and not text.startswith("--"))
                    if attached:
                        j += 1
                        continue
                    value = words[j + 1] if j + 1 < len(words) else None
                    if value is not None:
                        if value.tainted and value.script is None and not value.code_inert:
                            self.hazard(
                                "H004",
                                value,
                                f"the value is the argument of `{name} "
                                f"{opt}`, which runs it as code",
                                "write that code literally and pass the value as an argument",
                            )
                        elif name not in ("ssh", "scp") and not value.tainted:
                            self.a.nested(value, None, f"the `{name} {opt}` command")
                        elif value.tainted:
                            self.hazard(
                                "H008",
                                value,
                                f"the value sets `{name} {opt}`, which chooses code",
                                f"do not let the caller set `{opt}`",
                            )
                    j += 2
                    continue
                if opt in spec.value_options and "=" not in text:
                    if j + 1 < len(words) and words[j + 1].splits:
                        self.hazard(
                            "H003",
                            words[j + 1],
                            f"an unquoted expansion after `{name} {opt}` can split into several "
                            f"words, and the extra ones become `{name}`'s options or command",
                            'quote the expansion: "$ARG"',
                        )
                        return
                    j += 2
                else:
                    j += 1
                continue
            break
        for _ in range(spec.positionals):
            if j < len(words):
                word = words[j]
                if word.tainted and word.may_be_option and not ended:
                    self.hazard(
                        "H009",
                        word,
                        f"the value can start with `-`, so `{name}` may read it as an option",
                        "constrain the arg with a `pattern` that cannot start with `-`",
                    )
                j += 1
        if spec.positionals and not ended:
            while j < len(words) and (words[j].static or "").startswith("-"):
                if words[j].static == "--":
                    j += 1
                    break
                j += 2 if words[j].static in spec.value_options else 1
        if name == "xargs" and self.stdin is not None:
            if not null:
                self.hazard(
                    "W105",
                    self.stdin,
                    "caller data is piped to xargs without -0, so "
                    "quotes and spaces in it are re-split by xargs",
                    "use `printf '%s\\0' \"$ARG\" | xargs -0 …`",
                )
            rest = words[j:]
            if (
                replace
                and rest
                and rest[0].static is not None
                and (
                    _shell_name(_base(rest[0].static))
                    or _base(rest[0].static) in sinks.EVAL_LIKE
                    or _lookup_interpreter(_base(rest[0].static))
                )
            ):
                self.hazard(
                    "H004",
                    self.stdin,
                    "xargs -I substitutes caller data into the code of a shell or interpreter",
                    "pass the data as a separate argument: xargs -0 sh -c '… \"$1\"' _",
                )
                return
            stdin = self.stdin
            fake = _Word(stdin.start, stdin.end, None, [stdin], "", None)
            inner = _Resolver(self.a, None)
            inner.command([*rest, fake], 0)
            return
        if joined_shell:
            rest = words[j:]
            if name == "ssh" and self.stdin is not None:
                head = _base(rest[0].static or "") if rest else ""
                if not rest or _shell_name(head) or _lookup_interpreter(head) is not None:
                    self.hazard(
                        "H004",
                        self.stdin,
                        "caller data is piped into ssh, and the remote side runs what it "
                        "reads as code (a login shell, or the shell or interpreter named)",
                        "run the remote command with the value as its argument instead, "
                        "and never pipe caller data to a remote shell",
                    )
                    return
            if name == "ssh" and not rest:
                return
            code = [
                w
                for w in rest
                if w.tainted
                and not w.code_inert
                and w.script is None
                and not (w is not rest[0] and all(o.model.inert for o in w.occs))
            ]
            dashed = [w for w in rest if w.tainted and w.may_be_option]
            if dashed and not code:
                self.hazard(
                    "H009",
                    dashed[0],
                    f"the value can start with `-` and `{name}` joins it into a command line "
                    "that another shell parses, where the command may read it as an option",
                    "give the arg a `minimum` of 0 or a `pattern` that cannot start with `-`",
                )
                return
            if code:
                self.hazard(
                    "H004",
                    code[0],
                    f"`{name}` joins its arguments into one string that a shell parses again, "
                    "so quoting does not survive",
                    f"do not pass caller data through `{name}`"
                    + (
                        "; on the remote side read it from a file or stdin" if name == "ssh" else ""
                    ),
                )
                return
            if rest and all(w.script is not None for w in rest):
                joined = " ".join(w.script[0] for w in rest if w.script is not None)
                tables = [w.script[1] for w in rest if w.script is not None and w.script[1]]
                self.a.nested(
                    _Word(
                        rest[0].start,
                        rest[0].end,
                        joined,
                        [],
                        "",
                        (joined, _merge(tables)),
                        rest[0].where,
                    ),
                    None,
                    f"the `{name}` command",
                )
            return
        self.command(words, j)

    def find(self, words: list[_Word], i: int) -> None:
        j = i + 1
        while j < len(words) and (words[j].static or "") in ("-H", "-L", "-P"):
            j += 1
        while j < len(words):
            word = words[j]
            text = word.static
            if text is not None and text in ("-exec", "-execdir", "-ok", "-okdir"):
                end = j + 1
                while end < len(words) and words[end].static not in (";", "+"):
                    end += 1
                inner = _Resolver(self.a, None)
                inner.command(words[j + 1 : end], 0)
                j = end + 1
                continue
            if text is not None and (text.startswith("-") or text in ("(", ")", "!", ",")):
                if text in _FIND_VALUE_OPTIONS:
                    value = words[j + 1] if j + 1 < len(words) else None
                    if value is not None and value.splits:
                        self.hazard(
                            "H009",
                            value,
                            "an unquoted expansion can split into several words, which find "
                            "reads as expressions (`-exec …`, `-delete`)",
                            'quote the expansion: "$ARG"',
                        )
                    if (
                        value is not None
                        and value.tainted
                        and text in ("-fprint", "-fprint0", "-fprintf", "-fls")
                    ):
                        self.hazard(
                            "W103",
                            value,
                            f"the caller chooses the file `find {text}` writes",
                            "write to a fixed file",
                        )
                    j += 2 if text != "-fprintf" else 3
                    continue
                j += 1
                continue
            # A single word `(` or `!` is an operator, but one word alone can
            # never make find run or delete anything: only `-…` can.
            if word.tainted and word.may_be_option:
                self.hazard(
                    "H009",
                    word,
                    "the value can start with `-`, so find reads it as an expression "
                    "(`-delete`, `-exec …`)",
                    "prefix the path with ./ or constrain the arg with a `pattern` that cannot "
                    "start with `-`",
                )
            j += 1

    def container(self, name: str, words: list[_Word], i: int) -> None:
        j = i + 1
        sub = words[j].static if j < len(words) else None
        if sub not in ("run", "exec", "create"):
            self.plain(words, i + 1, name)
            return
        j += 1
        while j < len(words):
            word = words[j]
            text = word.static
            if word.tainted:
                if j > 0 and (words[j - 1].static or "") in _DOCKER_VALUE_OPTIONS:
                    if words[j - 1].static in ("--entrypoint",):
                        self.hazard(
                            "H003",
                            word,
                            "the value chooses the container's entrypoint program",
                            "name the entrypoint literally",
                        )
                    j += 1
                    continue
                if word.prefix.startswith("-"):
                    j += 1
                    continue
                break
            if text is None or text == "--":
                j += 1 if text == "--" else 0
                break
            if text.startswith("-"):
                if (
                    text.split("=", 1)[0] == "--entrypoint"
                    and "=" not in text
                    and j + 1 < len(words)
                    and words[j + 1].tainted
                ):
                    self.hazard(
                        "H003",
                        words[j + 1],
                        "the value chooses the container's entrypoint program",
                        "name the entrypoint literally",
                    )
                j += 2 if text in _DOCKER_VALUE_OPTIONS else 1
                continue
            break
        if name == "kubectl":
            rest = words[j:]
            for k, w in enumerate(rest):
                if w.static == "--":
                    self.plain(rest[:k], 0, name)
                    self.command(rest, k + 1)
                    return
            self.plain(rest, 0, name)
            return
        if j < len(words):
            image = words[j]
            if image.tainted and not all(o.model.words is not None for o in image.occs):
                self.hazard(
                    "H003",
                    image,
                    f"the value chooses the image or container `{name}` runs",
                    "name the image literally or make the arg an `enum`",
                )
            self.command(words, j + 1)

    def interpreter(self, name: str, spec: sinks.Interpreter, words: list[_Word], i: int) -> None:
        self.safe_from = len(words)
        before = len(self.a.hazards)
        self._interpreter(name, spec, words, i)
        if len(self.a.hazards) != before:
            return
        for word in words[i + 1 : self.safe_from]:
            if word.splits:
                self.hazard(
                    "H005",
                    word,
                    f"an unquoted expansion can split into several words, which `{name}` may "
                    "read as options or as its program",
                    'quote the expansion: "$ARG"',
                )
                return

    def _interpreter(self, name: str, spec: sinks.Interpreter, words: list[_Word], i: int) -> None:
        j = i + 1
        program_given = False
        stdin_program = False
        unknown_before: str | None = None
        ended = False
        while j < len(words):
            word = words[j]
            text = word.static
            if word.tainted:
                if word.prefix.startswith("-"):
                    opt = word.prefix.split("=", 1)[0]
                    if (
                        opt in spec.code_options
                        or opt in spec.module_options
                        or (
                            not opt.startswith("--")
                            and opt[:2] in spec.code_options | spec.module_options
                        )
                    ):
                        self.hazard(
                            "H005",
                            word,
                            f"the value is the program given to `{name} "
                            f"{opt[:2] if not opt.startswith('--') else opt}`",
                            "write the program literally and pass the value as "
                            "data: an argument, an environment variable or stdin",
                        )
                    j += 1
                    continue
                break
            if text is None:
                break
            if text == "--":
                ended = True
                j += 1
                break
            if text == "-":
                stdin_program = True
                j += 1
                break
            if (text.startswith("-") and len(text) > 1) or (
                text in spec.code_options and not program_given
            ):  # a code "option" may be a subcommand: `deno eval CODE`
                opt, eq, _rest = text.partition("=")
                short_attached = (
                    text.startswith("-")
                    and not text.startswith("--")
                    and len(text) > 2
                    and text[:2] in (spec.code_options | spec.module_options)
                )
                if opt in spec.code_options or (short_attached and text[:2] in spec.code_options):
                    program_given = True
                    if not eq and not short_attached:
                        value = words[j + 1] if j + 1 < len(words) else None
                        if value is not None and value.tainted and not value.code_inert:
                            self.hazard(
                                "H005",
                                value,
                                f"the value is part of the program given to `{name} {opt}`, "
                                "which runs it as code",
                                "write the program literally in single "
                                "quotes and pass the value as data "
                                "(an argument after the program, an environment variable such as "
                                f"ARG_{value.arg}, or stdin)",
                            )
                        j += 2
                    else:
                        j += 1
                    if spec.stops_at_program:
                        self.safe_from = j
                        break
                    continue
                if opt in spec.module_options or short_attached:
                    if name in (
                        "awk",
                        "gawk",
                        "mawk",
                        "nawk",
                        "sed",
                        "gsed",
                        "jq",
                        "gojq",
                    ) and opt in ("-f", "--file", "--from-file"):
                        program_given = True
                    if not eq and not short_attached:
                        value = words[j + 1] if j + 1 < len(words) else None
                        if (
                            value is not None
                            and value.tainted
                            and not all(o.model.words is not None for o in value.occs)
                        ):
                            self.hazard(
                                "H005",
                                value,
                                f"the value chooses the code `{name} {opt}` loads",
                                "name the module or file literally",
                            )
                        if opt == "-m" and name.startswith(("python", "pypy")):
                            program_given = True
                            j += 2
                            self.safe_from = j
                            break
                        j += 2
                    else:
                        j += 1
                    continue
                if name in ("jq", "gojq") and opt in (
                    "--arg",
                    "--argjson",
                    "--slurpfile",
                    "--rawfile",
                ):
                    j += 3
                    continue
                if name in ("jq", "gojq") and opt in ("--args", "--jsonargs"):
                    j += 1
                    continue
                if name in ("sed", "gsed") and (opt.startswith("-i") or opt == "--in-place"):
                    j += 1
                    continue
                if opt in spec.value_options:
                    j += 1 if eq or (not text.startswith("--") and len(text) > 2) else 2
                    continue
                if opt in spec.known_flags or (
                    not text.startswith("--") and all(f"-{c}" in spec.known_flags for c in text[1:])
                ):
                    j += 1
                    continue
                unknown_before = text
                j += 1
                continue
            break
        operands = words[j:]
        if (
            not program_given
            and not spec.program_operand
            and operands
            and _reads_stdin_file(operands[0].static)
        ):
            stdin_program = True  # python3 /dev/stdin
        if stdin_program or (
            not program_given
            and not operands
            and spec.reads_stdin_program
            and not spec.program_operand
        ):
            if self.stdin is not None:
                self.hazard(
                    "H005",
                    self.stdin,
                    f"caller data is piped into `{name}` as its program",
                    "write the program literally and pass the data "
                    "another way (an argument or an environment variable)",
                )
            return
        start = 0
        if not program_given:
            index = spec.operand_program_index if spec.program_operand else 0
            if index < len(operands):
                program = operands[index]
                if (
                    program.tainted
                    and not program.code_inert
                    and not (name in ("sed", "gsed") and _sed_inert(program))
                ):
                    if unknown_before is not None and index == 0:
                        detail = (
                            f"the value follows `{unknown_before}`, an option of `{name}` "
                            "the checker does not know, which may take it as code"
                        )
                    elif spec.program_operand:
                        detail = f"the value is part of the program `{name}` runs"
                    else:
                        detail = f"the value chooses the script file `{name}` runs"
                    self.hazard(
                        "H005",
                        program,
                        detail,
                        "write the program literally in single quotes and pass the value as "
                        "data (an argument after it, -v/--arg, or an environment variable)",
                    )
                    return
                start = index + 1
                if spec.stops_at_program:
                    self.safe_from = j + index + 1
                for k, word in enumerate(operands[:index]):
                    if word.tainted and word.may_be_option and not ended:
                        self.hazard(
                            "H005",
                            word,
                            "the value can start with `-` and add "
                            f"an option to `{name}` that runs code",
                            "put `--` before the value or use a "
                            "`pattern` that cannot start with `-`",
                        )
                        return
                    del k
            elif spec.program_operand and spec.reads_stdin_program and self.stdin is not None:
                self.hazard(
                    "H005",
                    self.stdin,
                    f"caller data is piped into `{name}` as its program",
                    "pass the data as an argument and write the program literally",
                )
                return
            else:
                start = len(operands)
        elif (
            unknown_before is not None
            and operands
            and operands[0].tainted
            and not operands[0].code_inert
        ):
            self.hazard(
                "H005",
                operands[0],
                f"the value follows `{unknown_before}`, an option of `{name}` "
                "the checker does not know, which may take it as code",
                "put `--` before the value",
            )
            return
        for word in operands[start:]:
            if word.static == "--":
                ended = True
            if word.tainted and word.may_be_option and not ended and not spec.stops_at_program:
                self.hazard(
                    "H005",
                    word,
                    f"the value can start with `-`, and `{name}` reads options after its program, "
                    "so it can add one that runs code (e.g. -e)",
                    "put `--` before the value, or use a `pattern` that cannot start with `-`",
                )
                return

    def printf(self, words: list[_Word], i: int) -> None:
        j = i + 1
        while j < len(words):
            text = words[j].static
            if text == "-v":
                target = words[j + 1].static if j + 1 < len(words) else None
                tainted = [w for w in words[j + 2 :] if w.tainted]
                if target is not None and sinks.is_code_variable(target) and tainted:
                    self.hazard(
                        "H008",
                        tainted[0],
                        f"`printf -v {target}` assigns the value to `{target}`, which selects "
                        "the code that runs",
                        f"do not let the caller set `{target}`",
                    )
                    return
                if (
                    j + 1 < len(words)
                    and words[j + 1].tainted
                    and not all(_names_only(o.model) for o in words[j + 1].occs)
                ):
                    self.hazard(
                        "H007",
                        words[j + 1],
                        "the value is the variable name `printf -v` assigns",
                        "use a fixed variable name",
                    )
                j += 2
                continue
            if text == "--":
                return  # the format after `--` is only ever a format
            break
        # A format from the caller only chooses how printf prints its
        # arguments (bash's printf has no `%n` and evaluates no arithmetic);
        # before any `--`, a value starting with `-` would be an option.
        if j < len(words) and words[j].tainted and words[j].may_be_option:
            self.hazard(
                "H007",
                words[j],
                "the value is printf's format and can start with `-`, so it can be read as "
                "an option (`-v NAME` assigns a variable)",
                'put `--` before the format: printf -- "$ARG" …, or use a fixed format: '
                "printf '%s\\n' \"$ARG\"",
            )

    def name_operands(self, name: str, words: list[_Word], i: int) -> None:
        if name in ("test", "["):
            for k in range(i + 1, len(words) - 1):
                if (
                    words[k].static == "-v"
                    and words[k + 1].tainted
                    and not all(_names_only(o.model) for o in words[k + 1].occs)
                ):
                    self.hazard(
                        "H007",
                        words[k + 1],
                        "`-v` takes a variable name (with a subscript that bash evaluates)",
                        "test a fixed variable name",
                    )
            return
        value_opts = {
            "read": {"-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"},
            "mapfile": {"-d", "-n", "-O", "-s", "-u", "-C", "-c"},
        }.get(name, set())
        value_opts |= {"-O", "-d", "-n", "-s", "-u", "-C", "-c"} if name == "readarray" else set()
        j = i + 1
        while j < len(words):
            word = words[j]
            text = word.static
            if text is not None and text.startswith("-") and not word.tainted:
                if text == "-a" and name == "read" and j + 1 < len(words) and words[j + 1].tainted:
                    self.hazard(
                        "H007",
                        words[j + 1],
                        "the value is the array name `read -a` assigns",
                        "use a fixed name",
                    )
                j += 2 if text in value_opts else 1
                continue
            if word.tainted and not all(_names_only(o.model) for o in word.occs):
                self.hazard(
                    "H007",
                    word,
                    f"the value is an operand of `{name}`, which takes variable names",
                    "use a fixed variable name",
                )
            elif (
                text is not None
                and sinks.is_code_variable(text)
                and self.a.occs
                and name in ("read", "mapfile", "readarray")
            ):
                self.hazard(
                    "H008",
                    self.a.occs[0],
                    f"`{name}` assigns what it reads to `{text}`, which selects the code that "
                    "runs, in a script that handles caller data",
                    "read into a variable of your own",
                )
            j += 1


_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "git": frozenset(
        [
            "-C",
            "-m",
            "-b",
            "-B",
            "-F",
            "-n",
            "-o",
            "-t",
            "-s",
            "-S",
            "-G",
            "-U",
            "-X",
            "-j",
            "--message",
            "--branch",
            "--depth",
            "--format",
            "--author",
            "--since",
            "--until",
            "--grep",
            "--date",
            "--pretty",
            "--origin",
            "--reference",
            "--template",
            "--shallow-since",
            "--jobs",
            "--filter",
            "--file",
            "--max-count",
            "--committer",
            "-e",
            "--work-tree",
            "--git-dir",
            "--separate-git-dir",
        ]
    ),
    "ssh": frozenset(
        [
            "-b",
            "-c",
            "-D",
            "-E",
            "-e",
            "-I",
            "-i",
            "-J",
            "-L",
            "-l",
            "-m",
            "-O",
            "-p",
            "-Q",
            "-R",
            "-S",
            "-W",
            "-w",
        ]
    ),
    "scp": frozenset(["-c", "-i", "-l", "-P", "-J"]),
    "tar": frozenset(
        [
            "-f",
            "--file",
            "-C",
            "--directory",
            "-T",
            "--files-from",
            "-X",
            "--exclude-from",
            "--exclude",
            "-b",
            "-N",
            "--transform",
        ]
    ),
    "rsync": frozenset(
        [
            "--exclude",
            "--include",
            "--filter",
            "-f",
            "--log-file",
            "--password-file",
            "--chmod",
            "--chown",
            "--timeout",
            "--bwlimit",
        ]
    ),
    "curl": frozenset(
        [
            "-o",
            "--output",
            "-H",
            "--header",
            "-d",
            "--data",
            "--data-raw",
            "--data-binary",
            "-X",
            "--request",
            "-u",
            "--user",
            "-A",
            "--user-agent",
            "-m",
            "--max-time",
            "-w",
            "--write-out",
            "--retry",
            "-e",
            "--referer",
            "-b",
            "--cookie",
            "-c",
            "--cookie-jar",
            "--connect-timeout",
            "-T",
            "--upload-file",
            "-F",
            "--form",
        ]
    ),
    "wget": frozenset(
        [
            "-O",
            "--output-document",
            "-P",
            "--directory-prefix",
            "-U",
            "--user-agent",
            "-T",
            "--timeout",
            "-t",
            "--tries",
            "--header",
            "-o",
            "-a",
        ]
    ),
    "make": frozenset(["-C", "--directory", "-j", "--jobs", "-l", "-o", "-W"]),
    "sort": frozenset(
        ["-k", "--key", "-t", "--field-separator", "-o", "--output", "-S", "--buffer-size", "-T"]
    ),
    "zip": frozenset(["-P", "-x", "-i", "-b", "-n"]),
    "docker": frozenset(),
    "man": frozenset(["-M", "-S", "-L", "-s"]),
    "tcpdump": frozenset(["-i", "-c", "-w", "-r", "-s", "-C", "-W", "-G", "-F", "-E", "-y"]),
    "hg": frozenset(["-R", "--repository", "--cwd", "-r", "--rev", "-m", "--message"]),
}
_FIND_VALUE_OPTIONS = frozenset(
    [
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-maxdepth",
        "-mindepth",
        "-size",
        "-user",
        "-group",
        "-perm",
        "-newer",
        "-anewer",
        "-cnewer",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-uid",
        "-gid",
        "-links",
        "-inum",
        "-samefile",
        "-printf",
        "-fprint",
        "-fprint0",
        "-fprintf",
        "-fls",
        "-used",
        "-context",
        "-fstype",
        "-lname",
        "-ilname",
        "-regextype",
        "-newermt",
        "-newerct",
        "-newerat",
    ]
)
_DOCKER_VALUE_OPTIONS = frozenset(
    [
        "-e",
        "--env",
        "-v",
        "--volume",
        "-w",
        "--workdir",
        "-u",
        "--user",
        "--name",
        "-p",
        "--publish",
        "--network",
        "--net",
        "-m",
        "--memory",
        "--cpus",
        "--entrypoint",
        "-l",
        "--label",
        "--env-file",
        "--mount",
        "--platform",
        "--pull",
        "--restart",
        "--hostname",
        "-h",
        "--add-host",
        "--device",
        "--cap-add",
        "--cap-drop",
        "--security-opt",
        "--tmpfs",
        "--ulimit",
        "--log-driver",
        "--log-opt",
        "--shm-size",
        "-a",
        "--attach",
        "--cidfile",
        "--gpus",
        "--ipc",
        "--pid",
        "--dns",
        "--stop-signal",
        "--stop-timeout",
        "--runtime",
        "-n",
        "--namespace",
        "-c",
        "--container",
    ]
)


# ------------------------------------------------------------------ entry points


def _bash_rejects(text: str, locate: Callable[[int], Located]) -> Hazard | None:
    """The H000 finding when ``bash -n`` rejects `text` (waits for its verdict)."""
    verdict = bash_syntax_error(text)
    if verdict is None:
        return None
    return Hazard(
        "H000",
        None,
        locate(0),
        f"`bash -n` rejects the script: {verdict.splitlines()[0][:160]}",
        "fix the shell syntax so that `bash -n` accepts the script",
    )


def analyse_script(
    text: str,
    sentinels: Sentinels,
    arg_models: Mapping[str, ValueModel],
) -> list[Hazard]:
    """All hazards of one substituted ``run:`` script."""
    hazards, gate_pending, _tainted = analyse_script_deferred(text, sentinels, arg_models)
    if gate_pending:
        return bash_gate(text, sentinels, hazards)
    return hazards


def analyse_script_deferred(
    text: str,
    sentinels: Sentinels,
    arg_models: Mapping[str, ValueModel],
    programs: Mapping[str, sinks.Grammar] | None = None,
) -> tuple[list[Hazard], bool, dict[str, ValueModel]]:
    """`analyse_script` without asking ``bash -n`` about `text` itself (nested
    scripts are still asked), so the caller can analyse while ``bash -n``
    runs. Returns the hazards, whether the ``bash -n`` gate is still to be
    applied with `bash_gate` (False when tree-sitter already refused), and
    every variable the analysis found carrying caller data (with its model)."""
    hazards: list[Hazard] = []
    taint = _initial_taint(text, arg_models)
    analysis = _Analysis(text, sentinels, taint, sentinels.locate, hazards, 0, arg_models)
    analysis.programs = programs or {}
    analysis.bash_gate = False
    analysis.run()
    return hazards, analysis.parsed, {k: v[1] for k, v in taint.variables.items()}


def _initial_taint(text: str, arg_models: Mapping[str, ValueModel]) -> _Taint:
    """What carries caller data before the script runs: every ``ARG_<name>``,
    every step output the script mentions, and every variable the step
    environment registry classifies as the caller's."""
    taint = _Taint({f"ARG_{name}": (name, model) for name, model in arg_models.items()})
    taint.variables.update(_step_outputs(text))
    taint.variables.update(_registry_taint(text))
    return taint


def analyse_reprint(
    reprinted: str,
    text: str,
    sentinels: Sentinels,
    arg_models: Mapping[str, ValueModel],
    programs: Mapping[str, sinks.Grammar] | None = None,
) -> list[Hazard]:
    """The hazards of bash's canonical reprint of `text` (`_reprint`): the
    analysis again, over what bash read. bash prints no comments, so a
    comment tree-sitter finds in the reprint is a disagreement (H000).
    Findings point at the placeholder they concern, or at the script."""
    src = text.encode("utf-8")
    starts = {src[b0:b1].decode("utf-8", "replace"): c0 for b0, b1, c0, _c1 in sentinels.spans}
    out = reprinted.encode("utf-8")

    def locate(byte: int) -> Located:
        for word, c0 in starts.items():
            at = out.rfind(word.encode(), 0, byte + len(word))
            if at >= 0 and at <= byte < at + len(word):
                return sentinels.where, c0
        return sentinels.where, 0

    tree = parse_tree(reprinted)
    for node in _walk_tree(tree.root_node):
        if node.type == "comment":
            return [
                Hazard(
                    "H000",
                    None,
                    locate(node.start_byte),
                    "tree-sitter reads part of bash's own reprint of the script as a comment "
                    f"({_text(out, node)[:40]!r}), so the two parsers disagree about its "
                    "structure",
                    "write the line without a backslash before blanks or `#`, so that both "
                    "parsers read it alike",
                )
            ]
    hazards: list[Hazard] = []
    taint = _initial_taint(reprinted, arg_models)
    analysis = _Analysis(reprinted, sentinels, taint, locate, hazards, 0, arg_models)
    analysis.programs = programs or {}
    analysis.bash_gate = False
    analysis.run()
    return hazards


def _walk_tree(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def bash_gate(text: str, sentinels: Sentinels, hazards: list[Hazard]) -> list[Hazard]:
    """The hazards of `analyse_script`, given those of `analyse_script_deferred`:
    when ``bash -n`` rejects `text`, its H000 finding alone (the analysis of a
    script bash cannot parse means nothing), else `hazards`."""
    rejected = _bash_rejects(text, sentinels.locate)
    return [rejected] if rejected is not None else hazards


#: Outputs of earlier steps (``STEP_<name>_<key>``) may carry caller data; only
#: the runtime's own ``_EXIT`` and ``_STATUS`` variables are inert.
_STEP_VAR = re.compile(r"\bSTEP_[A-Za-z0-9_]+")
STEP_OUTPUT = "step-output"


def _registry_taint(text: str) -> dict[str, tuple[str, ValueModel]]:
    """The caller-influenced variables of the step environment registry
    (`mcp_harbor.step_env`) that `text` mentions."""
    from mcp_harbor import step_env

    found = {
        name: (CALLER_SOURCE, _any_model()) for name in step_env.caller_variables() if name in text
    }
    # A server-chosen absolute path whose file contents are the caller's:
    # what a command reads from it carries caller data (`$(cat "$HARBOR_CONTEXT")`).
    found.update(
        (name, (CALLER_FILE_SOURCE, _SERVER_PATH))
        for name in step_env.caller_file_variables()
        if name in text
    )
    return found


CALLER_SOURCE = "caller"
CALLER_FILE_SOURCE = "caller-file"
_SERVER_PATH = ValueModel(SAFE_CHARS, frozenset("/"), False)


def _step_outputs(*texts: str) -> dict[str, tuple[str, ValueModel]]:
    """Taint every ``STEP_…`` variable a script mentions, but the inert ones."""
    names = {m.group(0) for text in texts for m in _STEP_VAR.finditer(text)}
    return {
        name: (STEP_OUTPUT, _any_model())
        for name in names
        if not name.endswith(("_EXIT", "_STATUS"))
    }


def analyse_argv(
    elements: Sequence[tuple[str, Sentinels]],
    arg_models: Mapping[str, ValueModel],
    programs: Mapping[str, sinks.Grammar] | None = None,
) -> list[Hazard]:
    """All hazards of one ``argv:`` step: no shell, so only roles matter."""
    hazards: list[Hazard] = []
    taint = _initial_taint("\n".join(text for text, _ in elements), arg_models)
    holder = _Analysis("", None, taint, lambda b: ((), 0), hazards, 0, arg_models)
    holder.programs = programs or {}
    words: list[_Word] = []
    for text, sentinels in elements:
        occs = [
            _Occ(info.arg, "raw", info.model, b0, b1, None)
            for word, info in sentinels.by_word.items()
            for b0, b1, _c0, _c1 in sentinels.spans
            if text.encode("utf-8")[b0:b1] == word.encode()
        ]
        occs.sort(key=lambda o: o.start)
        prefix = text.encode("utf-8")[: occs[0].start].decode("utf-8", "replace") if occs else ""
        where = sentinels.locate(occs[0].start) if occs else (sentinels.where, 0)
        words.append(_Word(0, 0, None if occs else text, occs, prefix, (text, sentinels), where))
    _Resolver(holder, None).command(words, 0)
    return hazards


def _shown(occ: _Occ) -> str:
    return occ.var if occ.var == "$(…)" else f"${occ.var}"


def _author_or_number(occs: Sequence[_Occ]) -> bool:
    """Every value is one of the author's words or a number."""
    return all(o.model.words is not None or o.model.numeric for o in occs)


def _merge(tables: Sequence[Sentinels]) -> Sentinels | None:
    """One sentinel table for a script joined from several words (argv
    elements each have their own table)."""
    if not tables:
        return None
    if len(tables) == 1:
        return tables[0]
    by_word: dict[str, _Sentinel] = {}
    for table in tables:
        by_word.update(table.by_word)
    return Sentinels(by_word, [], tables[0].where)
