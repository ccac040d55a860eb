"""What each command word does with its arguments: the roles of words.

`Resolver` reads one command line (`mcp_harbor.check._facts.Word` list, a
shell command or an ``argv:`` step) from its command word on. A literal
program is the allowlist gate's alone (`mcp_harbor.check._positions`: its
grammar decides every position); the roles here are the shell's own
constructs: a command word that is not literal (H003), a shell and its
script (H004, nested scripts are analysed again), ``eval``-likes, functions,
builtins that take names (H007) or select code (H008), ``printf``'s format,
``find``, and wrappers (``env``, ``sudo``, ``xargs``…), followed to the
command they run, which is gated in turn.

Where a decision is a function of what the walk found (the program, the
word before, the grammar, the word's text and models), the rule makes it
(`mcp_harbor.check.rules`: `OptionRunsCode.detect` for H009 and W101,
`CallerChosenPath` for W103, `XargsWithoutNull` for W105,
`CodeSelectingVariable` for variables that select code); where the walk
itself is the decision (which word is the program, the shell's script, an
interpreter's program, a name), the walk records the finding of the rule
(H003, H004, H005, H007, H008's code options) through its class.

The tables are `mcp_harbor.check.sinks` (shells, wrappers, eval-likes…), the
export's own ``programs:`` and, for ``find`` and ``xargs``, the option
tables at the end of this module.

Guarantees: a command word the checker cannot read literally, a program
that runs caller data it cannot see into, or a value that may be an option
of a program whose options it does not know, is a hazard, never a pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from tree_sitter import Node

from mcp_harbor.check import _positions, grammars, sinks
from mcp_harbor.check._facts import (
    Hazard,
    Located,
    Occ,
    Taint,
    Word,
    any_model,
    author_or_number,
    merge_sentinels,
    names_only,
)
from mcp_harbor.check._positions import EnvPrefix
from mcp_harbor.check._taint import ONE_LITERAL_WORD, UNPROVEN
from mcp_harbor.check._tree import IDENT, node_text, walk
from mcp_harbor.check._values import ValueModel
from mcp_harbor.check.rules import (
    RULES,
    CallerChoosesCommand,
    CallerChosenPath,
    CodeSelectingVariable,
    OptionRunsCode,
    ReparsedAsShell,
    Rule,
    SecretPrinted,
    ValueAsName,
    XargsWithoutNull,
)

__all__ = [
    "Resolver",
    "Scope",
    "basename",
    "lookup_interpreter",
    "reads_stdin_file",
    "shell_name",
]


class Scope(Protocol):
    """What a `Resolver` reads from the analysis of the script around the
    command line, and how it reports and recurses."""

    @property
    def src(self) -> bytes: ...
    @property
    def taint(self) -> Taint: ...
    @property
    def occs(self) -> list[Occ]: ...
    @property
    def hazards(self) -> list[Hazard]: ...
    @property
    def functions(self) -> frozenset[str]: ...
    @property
    def function_bodies(self) -> Mapping[str, tuple[Node, ...]]: ...
    @property
    def programs(self) -> Mapping[str, sinks.Grammar]: ...
    @property
    def secret_commands(self) -> frozenset[int]: ...

    @property
    def locate(self) -> Callable[[int], Located]: ...

    def resolve_command_word(self, head: Word) -> list[Word] | None: ...

    def enum_texts(self, word: Word) -> list[str] | None: ...

    @property
    def runs_args(self) -> set[str]: ...

    def function_at(self, byte: int) -> str | None: ...

    def leading_shifts(self, function: str) -> int | None: ...

    def array_fragments(self, name: str) -> list[list[Word]] | None: ...

    def array_parts(self, name: str, at: int) -> tuple[list[Node], list[Node]] | None: ...

    def works_in_writable(self, at: int | None = None) -> bool: ...

    def writable_word(self, word: Word) -> bool: ...

    def written_clean(self, word: Word) -> bool: ...

    def author_texts(self, name: str, at: int) -> list[str] | None: ...

    def own_run_path(self, text: str) -> bool: ...

    def own_run_path_beside_secret(self, text: str) -> bool: ...

    def place_text(self, word: Word, depth: int = 2) -> str | None: ...

    def nested(
        self,
        word: Word,
        positional: tuple[str, ValueModel] | None,
        what: str,
        *,
        posix: bool = False,
    ) -> None: ...

    def check_spliced(
        self, function: str, passed: Sequence[Word], seen: frozenset[str]
    ) -> None: ...


# ------------------------------------------------------------ command words


#: Builtins that assign, read or test names, or describe commands: the
#: analysis models each (`Resolver.name_operands`, `Resolver.callback`).
_NAME_BUILTINS = frozenset(
    {"read", "mapfile", "readarray", "getopts", "unset", "local", "declare", "typeset",
     "export", "readonly", "let", "type", "hash", "which", "test",
     "[", "shopt", "exec"}
)  # fmt: skip


def basename(name: str) -> str:
    """The program name of a command word (``/usr/bin/env``: ``env``)."""
    return name.rsplit("/", 1)[-1]


def lookup_interpreter(name: str) -> sinks.Interpreter | None:
    """The interpreter `name` is (``python3.12``: ``python3``'s entry), if any."""
    if name in sinks.INTERPRETERS:
        return sinks.INTERPRETERS[name]
    stripped = re.sub(r"[0-9.]+$", "", name)
    if stripped and stripped != name and stripped in sinks.INTERPRETERS:
        return sinks.INTERPRETERS[stripped]
    return None


def shell_name(name: str) -> bool:
    """`name` is a shell (``bash``, ``sh5.2``…)."""
    return name in sinks.SHELLS or re.sub(r"[0-9.]+$", "", name) in sinks.SHELLS


def _is_bash(name: str | None) -> bool:
    """The shell word `name` runs bash (``bash``, ``/bin/bash``, ``bash5.2``)."""
    return name is not None and re.sub(r"[0-9.]+$", "", basename(name)) == "bash"


_STDIN_FILES = re.compile(r"/dev/stdin|/dev/fd/\d+|/proc/(?:self|\d+)/fd/\d+|-")


def reads_stdin_file(path: str | None) -> bool:
    """`path` names the standard input (or another inherited descriptor)."""
    return path is not None and _STDIN_FILES.fullmatch(path) is not None


# ------------------------------------------------------------ command lines


class Resolver:
    """Decides the role of each word of one command line, in the script
    `analysis` reads, with `stdin` the caller data piped or redirected into
    the command (if any)."""

    def __init__(self, analysis: Scope, stdin: Occ | None) -> None:
        self.a = analysis
        self.stdin = stdin
        self.safe_from = 0
        #: variables assigned for this one command that carry caller data
        self.env: list[EnvPrefix] = []
        #: the functions whose calls made this command line (`check_spliced`)
        self.seen: frozenset[str] = frozenset()
        #: the literal here-document the command reads, if any
        self.stdin_text: str | None = None

    def where(self, word: Word | Occ) -> Located:
        """Where a finding about the caller data in `word` points."""
        if isinstance(word, Word):
            if word.where is not None:
                return word.where
            start = word.occs[0].start if word.occs else word.start
        else:
            start = word.start
        return self.a.locate(start)

    def hazard(self, rule: type[Rule], word: Word | Occ, detail: str, fix: str) -> None:
        """Record a finding of `rule` about the caller data in `word`."""
        self.a.hazards.append(rule.about(word, self.where(word), detail, fix))

    def report(self, hazard: Hazard | None) -> bool:
        """Record what a rule found; whether it found something."""
        if hazard is None:
            return False
        self.a.hazards.append(hazard)
        return True

    def reads_program_from_stdin(self, function: str) -> bool:
        """The body of `function` runs a shell without ``-c`` or a script
        file, or an interpreter without a program: it would take its
        program from the function's standard input."""
        for node in self.a.function_bodies.get(function, ()):
            for inner in walk(node):
                if inner.type != "command":
                    continue
                name_node = inner.child_by_field_name("name")
                name = basename(node_text(self.a.src, name_node)) if name_node is not None else ""
                args = [node_text(self.a.src, a) for a in inner.children_by_field_name("argument")]
                operands = [a for a in args if not a.startswith("-")]
                if shell_name(name) and (
                    (not any(a.startswith("-") and "c" in a for a in args) and not operands)
                    or any(a.startswith("-") and "s" in a[1:] for a in args)
                ):
                    return True
                spec = lookup_interpreter(name)
                if (
                    spec is not None
                    and spec.reads_stdin_program
                    and not spec.program_operand
                    and not any(a in spec.code_options for a in args)
                    and (not operands or reads_stdin_file(operands[0]))
                ):
                    return True
                if (
                    name in self.a.functions
                    and name != function
                    and self.reads_program_from_stdin(name)
                ):
                    return True
        return False

    def _array_variants(self, words: list[Word], i: int) -> list[list[Word]] | None:
        """The command lines ``"${NAME[@]}"`` may make, one for each literal
        array fragment (``NAME=(…)``/``NAME+=(…)``) in its place, and one
        with none: each fragment must be safe wherever it lands. None: no
        such word, or an array written otherwise."""
        for k in range(i + 1, len(words)):
            word = words[k]
            if word.static is not None or word.start == words[i].start:
                continue  # a literal word, or one the head's resolution gave
            raw = self.a.src[word.start : word.end].decode("utf-8", "replace")
            match = _ARRAY_WORD.fullmatch(raw)
            if match is None:
                continue
            fragments = self.a.array_fragments(match.group(1))
            if fragments is None or any(
                (
                    found := _ARRAY_WORD.fullmatch(
                        self.a.src[w.start : w.end].decode("utf-8", "replace")
                    )
                )
                is not None
                and found.group(1) == match.group(1)
                for fragment in fragments
                for w in fragment
            ):
                # (logs=(old.log "${logs[@]}"): a fragment of its own holds it)
                return None
            if self.a.array_parts(match.group(1), word.start) is not None:
                # set once at the top level before, then added to: its first
                # fragment is always there, with any one of the others
                first = fragments[0]
                return [words[:k] + first + words[k + 1 :]] + [
                    words[:k] + first + fragment + words[k + 1 :] for fragment in fragments[1:]
                ]
            return [words[:k] + words[k + 1 :]] + [
                words[:k] + fragment + words[k + 1 :] for fragment in fragments
            ]
        return None

    def _xargs_items(self, words: list[Word], i: int) -> None:
        """``xargs`` makes the words of its input (standard input, or the
        file of ``-a``) arguments of the command it runs: when that input is
        not proven the author's, the command is checked with one more word of
        the caller's at its end (or in each word holding ``-I``'s string)."""
        j = i + 1
        replace_with: str | None = None
        from_file = False
        while j < len(words) and (words[j].static or "").startswith("-"):
            option = words[j].static or ""
            if option in ("-a", "--arg-file") or option.startswith("--arg-file="):
                from_file = True
            if option in ("-I", "-i") or option.startswith(("--replace", "-I")):
                replace_with = option[2:] or (words[j + 1].static if option == "-I" else "{}")
            if option in _XARGS_VALUE_OPTIONS:
                j += 1
            j += 1
        if (self.stdin is None and not from_file) or j >= len(words):
            return
        inner = words[j:]
        item = Occ(UNPROVEN, "env", any_model(), inner[-1].end, inner[-1].end, None, "xargs")
        if replace_with:
            spliced = [
                replace(w, static=None, occs=[replace(item, start=w.start, end=w.end)], prefix="",
                        script=None)
                if replace_with in (w.static or "") else w
                for w in inner
            ]  # fmt: skip
        else:
            spliced = [*inner, Word(inner[-1].end, inner[-1].end, None, [item], "", None,
                                    inner[-1].where, True)]  # fmt: skip
        saved = self.stdin
        self.stdin = None  # xargs' input is not the command's
        try:
            self.command(spliced, 0)
        finally:
            self.stdin = saved

    def runs_own_arguments(self, head: Word) -> bool:
        """`head` is ``"$@"`` in command position inside a function whose
        every call `command` checks as the command line it passes."""
        raw = self.a.src[head.start : head.end].decode("utf-8", "replace").strip('"')
        if raw not in ("$@", "${@}"):
            return False
        function = self.a.function_at(head.start)
        return function is not None and function in self.a.runs_args

    def shell_construct(self, name: str) -> bool:
        """`name` is one of the shell's own ways to run or bind text, which
        this analysis models itself: a shell, an ``eval``-like builtin, a
        wrapper that runs its operands as a command, a function of the
        script, ``find``/``xargs`` (their ``-exec``/items are a command line),
        ``printf`` (its format is a small language) and the builtins that
        assign or read names. Every other program is the gate's to decide."""
        return (
            name in sinks.WRAPPERS
            or name in self.a.functions
            or shell_name(name)
            or name in sinks.EVAL_LIKE
            or name in _NAME_BUILTINS
            or name in ("printf", "find", "xargs", "command", "builtin", "alias", "enable")
        )

    def admitted(self, name: str, words: list[Word], i: int, out: list[Hazard]) -> bool:
        """The allowlist gate (`mcp_harbor.check._positions`) for the program
        `name` at `words[i]`. For a shell construct (`shell_construct`) only
        the variables passed to it are the gate's: a wrapper passes those on
        to the command it runs, checked there."""
        if name in sinks.WRAPPERS:
            return True
        if self.shell_construct(name):
            if not self.env:
                return True
            return _positions.admit(name, [], None, self.env, {}, self.a.locate, out)
        ok = self._admit(name, words, i, out, beside_secret=False)
        if words[i].start in self.a.secret_commands:
            # it gets a secret: the caller's data may stand only where the
            # grammar says data, or it may say where the secret goes
            strict: list[Hazard] = []
            self._admit(name, words, i, strict, beside_secret=True)
            known = {h.where for h in out}
            out.extend(
                SecretPrinted.hazard(
                    h.arg,
                    h.where,
                    f"`{name}` gets a secret, and the caller chooses a value where no "
                    f"grammar says data, which may say where the secret goes: {h.detail}",
                    "write where the program connects yourself (an enum arg may choose "
                    "among the author's hosts, ports or databases), and pass the caller's "
                    "data only where its grammar reads data",
                )
                for h in strict
                if h.where not in known
            )
            ok = ok and not strict
        return ok

    def _admit(
        self, name: str, words: list[Word], i: int, out: list[Hazard], *, beside_secret: bool
    ) -> bool:
        return _positions.admit(
            name,
            words[i + 1 :],
            self.stdin,
            self.env,
            self.a.programs,
            self.a.locate,
            out,
            writable_cwd=self.a.works_in_writable(words[i].start),
            source=lambda word: (
                self.a.src[word.start : word.end].decode("utf-8", "replace")
                if word.end > word.start
                else word.script[0]  # an argv: element, with its sentinels
                if word.script is not None
                else word.static
            ),
            stdin_text=self.stdin_text,
            writable=self.a.writable_word,
            beside_secret=beside_secret,
            written_clean=self.a.written_clean,
            place_text=self.a.place_text,
            # beside a secret, the author's file there is still a config
            # the grammar cannot read (it may print or send the secret)
            own_run=self.a.own_run_path_beside_secret if beside_secret else self.a.own_run_path,
            author_texts=self.a.author_texts,
        )

    def grammar(self, name: str | None) -> sinks.Grammar | None:
        """The option grammar the checker knows for the program `name`: an
        export's ``programs:``, the role tables, else the allowlist's entry
        (`mcp_harbor.check.grammars`), whose options are read the same way."""
        if name is None:
            return None
        found = self.a.programs.get(name) or sinks.GRAMMARS.get(name)
        if found is not None:
            return found
        entry = grammars.GRAMMARS.get(_positions.normal_program(name))
        if entry is None:
            return None
        return sinks.Grammar(
            entry.value_options | entry.code_options | entry.program_options,
            entry.end_of_options,
            entry.code_options | entry.program_options,
            entry.operands != "data",
        )

    def command(self, words: list[Word], i: int) -> None:
        """The roles of the words of one command line from `words[i]`, then
        the allowlist gate (`admitted`) where the roles found no refusal:
        the refusal a specific rule explains stays the one reported."""
        if i >= len(words):
            return
        variants = self._array_variants(words, i)
        if variants is not None:
            for variant in variants:
                self.command(variant, i)
            return
        head = words[i]
        programs = self.a.enum_texts(head) if head.tainted else None
        if programs is not None:
            # {{ args.algo }}sum with an enum: one of the author's programs,
            # each judged with the words it gets; unquoted, an empty value
            # is no word (the next word is the command) and one with blanks
            # is several
            quoted = self.a.src[head.start : head.start + 1] in (b'"', b"'")
            for text in programs:
                parts = [text] if quoted else text.split()
                if not parts or not parts[0]:
                    if not quoted:
                        self.command([*words[:i], *words[i + 1 :]], i)
                    continue  # "" is no program: bash runs nothing
                program = [
                    Word(head.start, head.end, t, [], "", (t, None), head.where) for t in parts
                ]
                self.command([*words[:i], *program, *words[i + 1 :]], i)
            return
        if head.static is not None and not head.tainted:
            name = basename(head.static)
            if name == "xargs":
                self._xargs_items(words, i)
            if not self.shell_construct(name):
                # a program: its grammar alone decides (rule 3 of the promise)
                if not self.rebinding(name, words, i):
                    self.admitted(name, words, i, self.a.hazards)
                    for word in words[i + 1 :]:
                        if word.tainted:
                            self.traversal(word, name)
                return
        before = len(self.a.hazards)
        gate: list[Hazard] = []
        if head.static is not None and not head.tainted:
            self.admitted(basename(head.static), words, i, gate)
        self._roles(words, i)
        if gate and not any(RULES[h.rule].severity == "error" for h in self.a.hazards[before:]):
            self.a.hazards.extend(gate)

    def _roles(self, words: list[Word], i: int) -> None:
        head = words[i]
        if head.tainted and self.runs_own_arguments(head):
            return  # checked at each call of the function, as that command line
        if head.tainted:
            if all(
                (o.model.words is not None and o.model.inert) or o.model.numeric for o in head.occs
            ):
                self.plain(words, i + 1, None)
                return
            self.hazard(
                CallerChoosesCommand,
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
                    CallerChoosesCommand,
                    tainted[0],
                    "the command word is not a literal (an expansion, an array), so the "
                    "checker cannot tell which program gets the value, or what it does with it",
                    "write the program's name literally in the command (a `case` on an `enum` "
                    "arg can choose among literal commands)",
                )
                return
            self.plain(words, i + 1, None)
            return
        name = basename(head.static)
        if self.rebinding(name, words, i):
            return
        if name in self.a.functions:
            if name in self.a.runs_args:
                # retry git fetch -- origin "$x": the function runs its
                # arguments, so they are that command line (after the
                # literal ones it shifts away first: retry 3 git fetch …)
                shifts = self.a.leading_shifts(name) or 0
                shifted = words[i + 1 : i + 1 + shifts]
                if len(shifted) < shifts or not all(
                    w.static is not None and ONE_LITERAL_WORD.fullmatch(w.static) for w in shifted
                ):
                    shifts = 0
                self.command(words, i + 1 + shifts)
            # api get "/users/$id": each command of it that passes "$@" on,
            # as the command line this call makes
            self.a.check_spliced(name, words[i + 1 :], self.seen)
            if self.stdin is not None and self.reads_program_from_stdin(name):
                self.hazard(
                    ReparsedAsShell,
                    self.stdin,
                    f"caller data is piped into the function `{name}`, which runs a shell or "
                    "an interpreter on its standard input",
                    "pass the value to the function as an argument, and run no shell on it",
                )
                return
            # the function's body is analysed with these as its positional
            # parameters: they are nobody's options here
            self.plain(words, i + 1, None, options=False)
            return
        if shell_name(name):
            if name == "busybox" and i + 1 < len(words) and words[i + 1].static is not None:
                applet = words[i + 1].static or ""
                if shell_name(applet) or lookup_interpreter(applet):
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
        elif name in sinks.WRAPPERS:
            self.wrapper(name, words, i)
        elif name == "printf":
            self.printf(words, i)
        elif name in ("mapfile", "readarray", "compgen", "complete") and self.callback(
            name, words, i
        ):
            return
        elif name in ("read", "mapfile", "readarray", "getopts", "unset", "test", "["):
            self.name_operands(name, words, i)
        else:
            self.plain(words, i + 1, name)

    def literal_code_value(
        self, name: str | None, prev: str | None, word: Word, code: frozenset[str]
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
                    CodeSelectingVariable,
                    word,
                    f"the literal value of `{prev if value == text else text.split('=')[0]}` is "
                    f"a command `{name}` runs with a shell, and it reads `${match.group(1)}`, "
                    "which carries caller data",
                    "do not mention caller data in a command given to an option; pass the "
                    "value as an argument instead",
                )
                return

    def declared_runner(
        self, name: str | None, words: list[Word], j: int, grammar: sinks.Grammar
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
                    CallerChoosesCommand,
                    word,
                    f"`{name}` is declared with `runs_operands: true`, and the value is one of "
                    "its operands, which it may run",
                    "pass the value as the value of one of its options, or declare "
                    "`runs_operands: false` if the program runs none of its operands",
                )
                return
            prev = word.static

    def make_operands(self, words: list[Word], j: int) -> None:
        """make reads ``NAME=VALUE`` operands as variable assignments (even
        after ``--``) and expands ``$(shell …)`` in them."""
        for word in words[j:]:
            if not word.tainted:
                continue
            if any("$" in o.model.chars for o in word.occs) or (
                not word.prefix and any("=" in o.model.chars for o in word.occs)
            ):
                self.hazard(
                    ReparsedAsShell,
                    word,
                    "make reads an operand `NAME=VALUE` as a variable assignment, even after "
                    "`--`, and expands `$(shell …)` in its value",
                    "give the arg a `pattern` without `=` and `$` (a target name such as "
                    "^[A-Za-z0-9_.-]+$), or pass the value in the environment and read it "
                    "in the Makefile",
                )
                return

    def git_config(self, words: list[Word], j: int) -> bool:
        """`git config KEY VALUE`: settings such as ``core.fsmonitor``,
        ``core.pager`` and ``alias.*`` are commands git runs later."""
        rest = [w for w in words[j:] if not (w.static or "").startswith("-")]
        if not rest or rest[0].static != "config":
            return False
        tainted = [w for w in rest[1:] if w.tainted]
        if tainted and not author_or_number(tainted[0].occs):
            self.hazard(
                CodeSelectingVariable,
                tainted[0],
                "the value is a key or a value of `git config`, and many settings are "
                "commands git runs later (core.fsmonitor, core.pager, alias.*)",
                "do not let the caller write git configuration",
            )
        return True

    def rebinding(self, name: str, words: list[Word], i: int) -> bool:
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
            CallerChoosesCommand,
            words[i],
            f"{what}, so the command words of the script no longer say what runs",
            "remove it and write each command literally",
        )
        return True

    # plain arguments and option injection
    def plain(self, words: list[Word], j: int, name: str | None, options: bool = True) -> None:
        if name == "make":
            self.make_operands(words, j)
        if name == "git" and self.git_config(words, j):
            return
        ended = False
        grammar = self.grammar(name)
        if name in ("git", "kubectl"):
            sub = _subcommand(name, words[j:])
            grammar = sinks.GRAMMARS.get(f"{name} {sub}", grammar)
        code_options = sinks.OPTION_CODE_COMMANDS.get(name or "", frozenset())
        if grammar is not None:
            code_options = code_options | grammar.code_options
            if grammar.runs_operands:
                self.declared_runner(name, words, j, grammar)
        prev: str | None = None
        for word in words[j:]:
            if word.static is not None and not ended:
                self.literal_code_value(name, prev, word, code_options)
            if (
                grammar is not None
                and grammar.end_of_options
                and (word.static == "--" or (word.static == "--end-of-options" and name == "git"))
            ):
                ended = True  # git 2.24: --end-of-options, as -- without the pathspecs
            if word.tainted:
                self.option_value(name, prev, word, code_options)
                if not ended and options and word.may_be_option:
                    self.option_injection(name, prev, word, grammar)
                if word.prefix.startswith("-") and "=" in word.prefix:
                    opt = word.prefix.split("=", 1)[0]
                    if opt in code_options:
                        self.hazard(
                            CodeSelectingVariable,
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
                        CodeSelectingVariable,
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
        self, name: str, spec: sinks.Wrapper, words: list[Word], i: int
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
                        ReparsedAsShell,
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
                    ReparsedAsShell,
                    value,
                    f"the value is the argument of `{name} {text}`, which runs it as shell code",
                    "make the command a literal in single quotes and pass the value after it "
                    "as a positional parameter of `sh -c`",
                )
                return True
            if value is not None and value.tainted:
                self.a.nested(value, None, f"the `{name} {text}` command", posix=True)
                return True
        return False

    def option_value(
        self, name: str | None, prev: str | None, word: Word, code: frozenset[str]
    ) -> None:
        if (
            prev is not None
            and prev in code
            and not author_or_number(word.occs)
            and not (name == "git" and prev == "-c" and _inert_git_setting(word.prefix))
        ):
            self.hazard(
                CodeSelectingVariable,
                word,
                f"the value is the argument of `{prev}`, which tells `{name}` what to run "
                "(a config setting or a command)",
                f"do not let the caller set `{prev}`; set the option in the script",
            )

    def option_injection(
        self, name: str | None, prev: str | None, word: Word, grammar: sinks.Grammar | None
    ) -> None:
        """`word` may start with ``-`` and stands before any ``--``: H009
        (`OptionRunsCode.detect`) decides, from the program, the word before
        and the grammar the checker knows."""
        self.report(OptionRunsCode.detect(name, prev, word, grammar, self.where(word)))

    def traversal(self, word: Word, name: str | None) -> None:
        self.report(CallerChosenPath.traversal(name, word, self.where(word)))

    # shells
    def shell(self, words: list[Word], i: int) -> None:
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
                    ReparsedAsShell,
                    script,
                    "the value is part of the script given to `-c`, which the shell parses as code",
                    "make the -c script a literal in single quotes and pass the value after it: "
                    "sh -c '… \"$1\" …' _ {{ args.x | shellquote }}",
                )
                return
            self.a.nested(script, positional, "the -c script", posix=not _is_bash(words[i].static))
            return
        if operands and not stdin_script and reads_stdin_file(operands[0].static):
            stdin_script = True  # bash /dev/stdin, /dev/fd/0, /proc/self/fd/0
        if operands and not stdin_script:
            first = operands[0]
            if first.tainted:
                self.hazard(
                    CallerChoosesCommand,
                    first,
                    "the value is the script file the shell runs (or one of its options)",
                    "name the script file in the export and pass the value as an argument after it",
                )
            return
        if self.stdin is not None:
            self.hazard(
                ReparsedAsShell,
                self.stdin,
                "caller data is piped into a shell, which runs it as code",
                "run the commands directly and pass the value as an argument",
            )

    def positional(self, words: Sequence[Word]) -> tuple[str, ValueModel] | None:
        for word in words:
            for occ in word.occs:
                return occ.arg, occ.model
        return None

    def eval_like(self, name: str, words: list[Word], i: int) -> None:
        operands = words[i + 1 :]
        if name in ("source", ".") and operands and reads_stdin_file(operands[0].static):
            if self.stdin is not None:
                self.hazard(
                    ReparsedAsShell,
                    self.stdin,
                    f"`{name} {operands[0].static}` runs what is on its standard input, which "
                    "carries caller data",
                    "read the data with `read -r` instead of sourcing it",
                )
            return
        if name in ("at", "batch", "crontab"):
            if self.stdin is not None or (name == "crontab" and any(w.tainted for w in operands)):
                self.hazard(
                    ReparsedAsShell,
                    self.stdin or next(w for w in operands if w.tainted),
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
                ReparsedAsShell,
                code[0],
                f"the value is an operand of `{name}`, which runs it as shell code",
                f"remove `{name}` and name the command literally, with the value as its "
                f"argument: `printf '%s\\n' \"${_variable(code[0])}\"` instead of "
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
                Word(
                    first.start,
                    first.end,
                    joined,
                    [],
                    "",
                    (joined, merge_sentinels(tables)),
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

    def wrapper(self, name: str, words: list[Word], i: int) -> None:
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
                            ReparsedAsShell,
                            word,
                            f"the value is the argument of `{name} {opt}`, which runs it as code",
                            "do not pass caller data to that option",
                        )
                    j += 1
                    continue
                if name == "env" and "=" in word.prefix:
                    var = word.prefix.split("=", 1)[0]
                    self.report(CodeSelectingVariable.env_assignment(var, word, self.where(word)))
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
                    CallerChoosesCommand,
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
                if name == "xargs" and XargsWithoutNull.delimits(opt):
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
                                ReparsedAsShell,
                                value,
                                f"the value is the argument of `{name} "
                                f"{opt}`, which runs it as code",
                                "write that code literally and pass the value as an argument",
                            )
                        elif name not in ("ssh", "scp") and not value.tainted:
                            self.a.nested(value, None, f"the `{name} {opt}` command", posix=True)
                        elif value.tainted:
                            self.hazard(
                                CodeSelectingVariable,
                                value,
                                f"the value sets `{name} {opt}`, which chooses code",
                                f"do not let the caller set `{opt}`",
                            )
                    j += 2
                    continue
                if opt in spec.value_options and "=" not in text:
                    if j + 1 < len(words) and words[j + 1].splits:
                        self.hazard(
                            CallerChoosesCommand,
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
                        OptionRunsCode,
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
            self.report(XargsWithoutNull.detect(null, self.stdin, self.where(self.stdin)))
            rest = words[j:]
            if (
                replace
                and rest
                and rest[0].static is not None
                and (
                    shell_name(basename(rest[0].static))
                    or basename(rest[0].static) in sinks.EVAL_LIKE
                    or lookup_interpreter(basename(rest[0].static))
                )
            ):
                self.hazard(
                    ReparsedAsShell,
                    self.stdin,
                    "xargs -I substitutes caller data into the code of a shell or interpreter",
                    "pass the data as a separate argument: xargs -0 sh -c '… \"$1\"' _",
                )
                return
            stdin = self.stdin
            # the items xargs appends: without -0 (or -d) it splits the data
            # again, so an item can start with `-` though the value cannot
            fake = Word(stdin.start, stdin.end, None, [stdin], "", None, splits=not null)
            inner = Resolver(self.a, None)
            inner.command([*rest, fake], 0)
            return
        if joined_shell:
            rest = words[j:]
            if name == "ssh" and self.stdin is not None:
                head = basename(rest[0].static or "") if rest else ""
                if not rest or shell_name(head) or lookup_interpreter(head) is not None:
                    self.hazard(
                        ReparsedAsShell,
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
                    OptionRunsCode,
                    dashed[0],
                    f"the value can start with `-` and `{name}` joins it into a command line "
                    "that another shell parses, where the command may read it as an option",
                    "give the arg a `minimum` of 0 or a `pattern` that cannot start with `-`",
                )
                return
            if code:
                self.hazard(
                    ReparsedAsShell,
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
                    Word(
                        rest[0].start,
                        rest[0].end,
                        joined,
                        [],
                        "",
                        (joined, merge_sentinels(tables)),
                        rest[0].where,
                    ),
                    None,
                    f"the `{name}` command",
                    posix=True,  # the shell that parses it again is not shown to be bash
                )
            return
        self.command(words, j)

    def find(self, words: list[Word], i: int) -> None:
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
                inner = Resolver(self.a, None)
                inner.command([_found_names(w) for w in words[j + 1 : end]], 0)
                j = end + 1
                continue
            if text is not None and (text.startswith("-") or text in ("(", ")", "!", ",")):
                if text in _FIND_VALUE_OPTIONS:
                    value = words[j + 1] if j + 1 < len(words) else None
                    if value is not None and value.splits:
                        self.hazard(
                            OptionRunsCode,
                            value,
                            "an unquoted expansion can split into several words, which find "
                            "reads as expressions (`-exec …`, `-delete`)",
                            'quote the expansion: "$ARG"',
                        )
                    if value is not None:
                        self.report(CallerChosenPath.find_output(text, value, self.where(value)))
                    j += 2 if text != "-fprintf" else 3
                    continue
                j += 1
                continue
            # A single word `(` or `!` is an operator, but one word alone can
            # never make find run or delete anything: only `-…` can.
            if word.tainted and word.may_be_option:
                self.hazard(
                    OptionRunsCode,
                    word,
                    "the value can start with `-`, so find reads it as an expression "
                    "(`-delete`, `-exec …`)",
                    "prefix the path with ./ or constrain the arg with a `pattern` that cannot "
                    "start with `-`",
                )
            j += 1

    def callback(self, name: str, words: list[Word], i: int) -> bool:
        """``mapfile -C CMD`` runs CMD with each chunk it reads as an
        argument (``-C eval`` runs the lines); ``compgen -C``/``-F`` and
        ``complete -C``/``-F`` run a command or function. Refused when the
        callback is caller data, or when mapfile reads caller data. True
        when refused."""
        for k in range(i + 1, len(words)):
            if words[k].static not in ("-C", "-F"):
                continue
            callback = words[k + 1] if k + 1 < len(words) else None
            if callback is None:
                return False
            reads = name in ("mapfile", "readarray") and self.stdin is not None
            if callback.tainted or reads:
                self.hazard(
                    ReparsedAsShell,
                    callback if callback.tainted else (self.stdin or callback),
                    f"`{name} {words[k].static}` runs a command"
                    + (" on what it reads, which carries caller data" if reads else "")
                    + ("; the caller chooses it" if callback.tainted else ""),
                    f"read the data without a callback (`{name}` alone), then handle each "
                    "item as data",
                )
                return True
        return False

    def printf(self, words: list[Word], i: int) -> None:
        j = i + 1
        while j < len(words):
            text = words[j].static
            if text == "-v":
                target = words[j + 1].static if j + 1 < len(words) else None
                tainted = [w for w in words[j + 2 :] if w.tainted]
                if (
                    target is not None
                    and tainted
                    and self.report(
                        CodeSelectingVariable.printf_target(
                            target, tainted[0], self.where(tainted[0])
                        )
                    )
                ):
                    return
                if (
                    j + 1 < len(words)
                    and words[j + 1].tainted
                    and not all(names_only(o.model) for o in words[j + 1].occs)
                ):
                    self.hazard(
                        ValueAsName,
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
                ValueAsName,
                words[j],
                "the value is printf's format and can start with `-`, so it can be read as "
                "an option (`-v NAME` assigns a variable)",
                'put `--` before the format: printf -- "$ARG" …, or use a fixed format: '
                "printf '%s\\n' \"$ARG\"",
            )

    def name_operands(self, name: str, words: list[Word], i: int) -> None:
        if name in ("test", "["):
            for k in range(i + 1, len(words) - 1):
                if (
                    words[k].static == "-v"
                    and words[k + 1].tainted
                    and not all(names_only(o.model) for o in words[k + 1].occs)
                ):
                    self.hazard(
                        ValueAsName,
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
                        ValueAsName,
                        words[j + 1],
                        "the value is the array name `read -a` assigns",
                        "use a fixed name",
                    )
                j += 2 if text in value_opts else 1
                continue
            if word.tainted and not all(names_only(o.model) for o in word.occs):
                self.hazard(
                    ValueAsName,
                    word,
                    f"the value is an operand of `{name}`, which takes variable names",
                    "use a fixed variable name",
                )
            elif text is not None and self.a.occs:
                first = self.a.occs[0]
                self.report(CodeSelectingVariable.read_target(name, text, first, self.where(first)))
            j += 1


#: git settings whose value is only ever data (names, addresses, display).
_INERT_GIT_SETTINGS = frozenset(
    {
        "user.name",
        "user.email",
        "author.name",
        "author.email",
        "committer.name",
        "committer.email",
        "color.ui",
        "core.quotepath",
        "init.defaultbranch",
        "log.date",
    }
)


def _inert_git_setting(prefix: str) -> bool:
    """`prefix` (the word before the caller data) is ``KEY=`` for a git
    setting whose value is data."""
    key, eq, rest = prefix.partition("=")
    return bool(eq) and not rest and key.lower() in _INERT_GIT_SETTINGS


#: Global options that take the next word, before a program's subcommand.
_GLOBAL_VALUE_OPTIONS = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"}),
    "kubectl": frozenset(
        {"-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s"}
    ),
}


def _subcommand(program: str, words: Sequence[Word]) -> str:
    """The subcommand of `program` (git, kubectl): the first word that is
    not a global option (nor the value of one that takes the next word)."""
    skip = False
    takes_value = _GLOBAL_VALUE_OPTIONS[program]
    for word in words:
        text = word.static
        if text is None:
            return ""
        if skip:
            skip = False
            continue
        if text in takes_value:
            skip = True
            continue
        if text.startswith("-"):
            continue
        return text
    return ""


# ------------------------------------------------------------ option tables


#: find's options that take a value (or three: -fprintf FILE FORMAT).
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

#: xargs options that take the next word as their value.
_XARGS_VALUE_OPTIONS = frozenset({"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file"})
#: ``"${NAME[@]}"``: an array's elements, each one word.
_ARRAY_WORD = re.compile(r'"\$\{([A-Za-z_][A-Za-z0-9_]*)\[@\]\}"')


def _found_names(word: Word) -> Word:
    """A word of ``find -exec`` with find's ``{}`` in it: find puts each
    file's name there, and a file name is not the author's (a step may
    have made it): the word carries caller data."""
    text = word.static
    if text is None or "{}" not in text:
        return word
    occ = Occ(UNPROVEN, "env", any_model(), word.start, word.end, None, "{}")
    if text == "{}":
        # the name starts with the starting point (a path), never with `-`
        chars = any_model().chars
        occ = replace(occ, model=ValueModel(chars, chars - {"-"}, False))
    return replace(word, static=None, occs=[occ], prefix="", script=None)


def _variable(word: Word) -> str:
    """The variable a fix tells the author to read `word`'s caller data
    from: the one the script reads it from already (``STEP_…`` of a step's
    output, a variable assigned from caller data), else ``ARG_<arg>``."""
    occ = word.occs[0] if word.occs else None
    if occ is not None and occ.kind == "env" and occ.var and IDENT.fullmatch(occ.var):
        return occ.var
    return f"ARG_{word.arg}"
