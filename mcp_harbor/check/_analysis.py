"""Where each caller value lands in a step, and what it can do there.

A ``run:`` script is analysed with every placeholder replaced by a unique
inert sentinel word (`mcp_harbor.check._facts.substitute`). Both parser
gates must accept the result. Then, in stages:

1. `mcp_harbor.check._tree`: tree-sitter's parse, walked once.
2. `mcp_harbor.check._taint`: every *occurrence* of caller data
   (sentinels, expansions of ``ARG_<name>`` and of shell variables assigned
   from caller data, to a fixpoint; positional parameters that carry it).
3. Here: for each occurrence, the facts around it (its quoting context,
   derived from its ancestors in the tree, the character before it, whether
   bash evaluates it as arithmetic), handed to the rules that decide
   (`mcp_harbor.check.rules`: H001 with W104, H002, H006, H007, W102), and
   what the script does with caller data as a whole (``exec``
   redirections, coprocesses, files it writes and then runs, ``declare
   -i``).
4. `mcp_harbor.check._roles`: for each command, the role of each word, from
   the sink tables (`mcp_harbor.check.sinks`). Scripts that are re-parsed
   by a shell (``sh -c``, ``eval``, ``trap``, ``su -c``…) are analysed
   recursively (`_Analysis.nested`).

Entry points: `analyse_script_deferred` (a ``run:`` script, with bash's
reading of it left to the caller, who judges it with `bash_refusal`),
`analyse_reprint` (bash's reprint of one, `mcp_harbor.check._authority`),
`analyse_argv` (an ``argv:`` step).

Guarantees: every decision fails closed: a sentinel in a node type the
analysis does not know, a nested script it cannot read, or a depth beyond
`_MAX_DEPTH` is a hazard, never a pass. The analysis of one text is a pure
function of the text, its sentinels, the arg models and ``programs:``
(besides bash's readings of nested scripts, cached by text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node

from mcp_harbor.check import _tree, grammars, sinks
from mcp_harbor.check._facts import (
    Hazard,
    Located,
    Occ,
    Sentinel,
    Sentinels,
    Taint,
    Word,
    any_model,
    arith_safe,
    names_only,
)
from mcp_harbor.check._positions import EnvPrefix
from mcp_harbor.check._reprint import reprint
from mcp_harbor.check._roles import (
    Resolver,
    basename,
    lookup_interpreter,
    shell_name,
)
from mcp_harbor.check._taint import (
    CALLER_FILE_SOURCE,
    NAME_WRITERS,
    PATH_HEAD,
    QUOTED_SENTINEL,
    TEMP_VARIABLE,
    UNPROVEN,
    TaintedScript,
    extracts,
    initial_taint,
    names_nothing,
    names_place,
    own_run_path,
    place_pieces,
    writable_text,
    writing_redirects,
)
from mcp_harbor.check._tree import (
    ancestors,
    command_words,
    heredoc_quoted,
    in_arithmetic,
    in_quoted_operand,
    node_text,
    normal_path,
    static_text,
    walk,
)
from mcp_harbor.check._values import ValueModel
from mcp_harbor.check.credentials import CREDENTIALS, reads_credential_file_env
from mcp_harbor.check.grammars import GRAMMARS, SUBCOMMANDS, grammar_key, normal_program
from mcp_harbor.check.rules import (
    ArithmeticInjection,
    CallerChosenPath,
    CodeSelectingVariable,
    InterpreterProgram,
    NoGrammarPosition,
    ReparsedAsShell,
    ShellquoteInQuotedContext,
    UnparseableTemplate,
    UnquotedExpansion,
    UnsafeRawPlaceholder,
    ValueAsName,
)
from mcp_harbor.check.rules._contexts import Quoting
from mcp_harbor.check.rules._forms import arithmetic_name
from mcp_harbor.check.rules.h001 import HeredocLine

#: Files something runs or reads as code later: shell start-up files, ssh's
#: and git's configuration and hooks, cron tables, profile.d, sudoers.
#: The code options of the grammars whose value names a file or folder read
#: as code (a program file, a config, a module path), not a program text.
_CODE_FILES = frozenset(
    {"-f", "--file", "--from-file", "-L", "-K", "--config", "--config-file", "--rcfile",
     "--init-file", "--kubeconfig", "--exclude-from", "--files0-from", "-X", "-F", "-init",
     "--env-file"}
)  # fmt: skip
#: Places programs read their config or code from, unseen: the home folder
#: (every program's dot files: ~/.jq, ~/.gitconfig, ~/.curlrc, a user
#: site-packages), /etc, cron, a repository's hooks and config, and the
#: shells' startup files wherever they stand.
_STARTUP_FILES = re.compile(
    r"^(?:\$\{?HOME\b|~)"
    r"|(^|/)(\.(bash_?rc|bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|"
    r"zprofile|zlogin|kshrc|mkshrc|inputrc|gitconfig|netrc|npmrc|pypirc|curlrc|wgetrc)|"
    r"authorized_keys|rc\.local|crontab)$"
    r"|(^|/)\.ssh/|(^|/)\.git/(hooks/|config$)|(^|/)\.config/|^/etc/"
    # cron's tables and folders (crontab, cron.d, cron.daily…; not cron.log)
    r"|(^|/)cron(?:tabs?|\.d|\.hourly|\.daily|\.weekly|\.monthly)?(?:/|$)"
)

__all__ = [
    "ScriptFacts",
    "analyse_argv",
    "analyse_reprint",
    "analyse_script_deferred",
    "bash_refusal",
    "path_as_written",
]

#: ``set -a``/``set -o allexport`` in a script.
_ALLEXPORT = re.compile(
    r"(?:^|[;&|\s])(?:set\s+(?:-[A-Za-z]*a[A-Za-z]*|-o\s+allexport)\b|shopt\b[^\n;&|]*\ballexport\b)"
)
#: Names of the step's environment that a plain assignment does not export
#: to other programs by being in it (bash's own).
_SHELL_ONLY = frozenset({"IFS", "OPTIND", "OPTERR"})
#: Programs that run a script file given as their first operand.
_SCRIPT_RUNNERS = frozenset({"python", "python3", "node", "perl", "ruby", "php", "Rscript"})
#: Variables that name a file bash runs before the script (any value is code).
_FILE_CODE_VARIABLES = frozenset({"BASH_ENV", "ENV"})
#: Nested scripts deeper than this are refused (H000).
_MAX_DEPTH = 4
#: Blanks bash splits an unquoted expansion at (a word may become several).
_IFS = frozenset(" \t\n")
#: Characters that make an unquoted expansion a pattern of file names.
_GLOB_CHARS = frozenset("*?[")


def _at_top_level(node: Node) -> bool:
    """`node` runs whenever the script gets past it, where ``bash -e`` ends
    the step if it fails: its ancestors are plain sequences, groups and
    subshells (whose failure fails them) up to the script itself."""
    parent = node.parent
    while parent is not None:
        if parent.type == "program":
            return True
        if parent.type not in ("redirected_statement", "subshell", "compound_statement"):
            return False
        if parent.type == "compound_statement" and (
            parent.parent is None or parent.parent.type != "program"
        ):
            return False  # a function's body, a loop's: not surely run
        parent = parent.parent
    return False


#: A word's text that starts (after quotes, an option's head or a KEY=) with
#: ``$NAME`` or ``${NAME}`` and goes on as a path (``"$d/x"``).
_UNFOLLOWED_START = re.compile(
    rf"^([\"']?(?:{PATH_HEAD})?[\"']?)"
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))(?=[\"']?/)"
)
#: ``$NAME`` and ``${NAME}`` in a word's text.
_NAMED_EXPANSION = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?\}|([A-Za-z_][A-Za-z0-9_]*))"
)
#: noclobber (``set -C``, ``set -o noclobber``, ``shopt -so noclobber``) or
#: errexit changed (``set +e``): a write that fails may leave what was there.
_KEEPS_OLD_FILE = re.compile(r"noclobber|errexit|\bset\b[^\n;&|]*\s(?:-[A-Za-z]*C|\+[A-Za-z]*e)")


def path_as_written(text: str) -> str:
    """A path's script text with its quotes removed (``"$HARBOR_RUN_DIR"/x``
    and ``"$HARBOR_RUN_DIR/x"`` are one path)."""
    return text.replace('"', "").replace("'", "").replace("${", "$").replace("}", "")


def _relative_search_entry(name: str, text: str) -> str | None:
    """The entry of a list of folders programs are searched in (``PATH``,
    ``PYTHONPATH``, ``PERL5LIB``…, not ``CDPATH``) assigned in the script
    as `text` that is relative (``node_modules/.bin``, an empty one), starts
    with a name other than the variable's own (``$PATH`` keeps what it was),
    or names a place a step may write (``$HARBOR_RUN_DIR/bin``, ``/tmp``,
    ``~``). None when every entry is absolute and the author's."""
    if name == "CDPATH" or not name.endswith(("PATH", "LIB")):
        return None
    for entry in text.strip("\"'").split(":"):
        bare = entry.strip("\"'")
        if bare in (f"${name}", f"${{{name}}}"):
            continue
        if not bare.startswith("/") or writable_text(bare):
            return bare or "(an empty entry: the working folder)"
    return None


#: Operands of ``declare``/``unset`` that are variable names.
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


#: Where tree-sitter reads bash's arithmetic as commands: the node type it
#: makes, the text that opens it, what it reads there, and the fix.
_ARITHMETIC_MISREADINGS = (
    # a here-document's $(( … ))
    (
        "command_substitution",
        "$((",
        "a command in a subshell",
        "compute the number before the here-document (n=$(( … ))) and write $n in it",
    ),
    # ! (( n > 0 )): a name's value (a[$(cmd)] in it) runs in bash
    (
        "subshell",
        "((",
        "two subshells running a command",
        "write `if (( … )); then` without `!` (`if (( n <= 0 ))`), or put a blank between "
        "the parentheses if you mean two subshells: `( (cmd) )`",
    ),
)
#: sqlite3's options that take the next word (sqlite3 3.40 CLI -help).
_SQLITE_VALUES = frozenset(
    {"-cmd", "-separator", "-newline", "-nullvalue", "-mmap", "-pagecache", "-lookaside", "-vfs"}
)


def _after_value_option(arguments: Sequence[Node], argument: Node, options: frozenset[str]) -> bool:
    """`argument` is the value of the option before it (one of `options`)."""
    k = arguments.index(argument)
    before = arguments[k - 1].text if k > 0 else None
    return before is not None and before.decode("utf-8", "replace") in options


#: sed's ways to write a file in its program (GNU sed 4.9, in `sed_code`'s
#: form): the ``w FILE`` and ``W FILE`` commands, the ``s`` command's ``w``
#: flag; the name runs to the end of its line.
_SED_WRITES = re.compile(r"(?m)(?:^[wW]|^s.*w)[ \t]*(/[^\n]*)$")
#: awk's output redirections to a literal file name (``print > "/x"``, ``>>``).
_AWK_WRITES = re.compile(r'>>?\s*"(/[^"]*)"')


class _Analysis(TaintedScript):
    """The analysis of one script text (a step or a nested script): the
    facts of `TaintedScript`, then the checks on them."""

    def __init__(
        self,
        text: str,
        sentinels: Sentinels | None,
        taint: Taint,
        locate: Callable[[int], Located],
        hazards: list[Hazard],
        depth: int,
        arg_models: Mapping[str, ValueModel],
    ) -> None:
        super().__init__(text, sentinels, taint, locate, hazards)
        self.depth = depth
        self.arg_models = arg_models
        #: have bash read the script here (False: the caller does, in batches)
        self.bash_gate = True
        #: tree-sitter parsed the script (so bash's verdict applies)
        self.parsed = False
        #: `_exported_names`, once asked
        self._memo_exported: frozenset[str] | None = None
        #: the script opens descriptor 1 or 2 for reading (``1< FILE``), once asked
        self._reads_std_out: bool | None = None
        #: no step of the export may put caller data in the run directory:
        #: the author's paths there (`own_run_path`) are no places
        self.own_run_dir = False
        #: such a path was asked about (then a second pass may accept it)
        self.run_paths_met = False
        #: a step may write the author's own text into the run directory
        #: (`writes_text_to_run_dir`): beside a secret, its paths stay places
        self.run_dir_texts = True

    # -- entry
    def run(self) -> None:
        if self.depth > _MAX_DEPTH:
            self.hazard(
                UnparseableTemplate,
                None,
                0,
                f"scripts nested more than {_MAX_DEPTH} levels deep",
                "flatten the nested shells into one script",
            )
            return
        script = _tree.parsed(self.text)
        bad = script.error
        if bad is not None:
            self.hazard(
                UnparseableTemplate,
                None,
                bad.start_byte,
                f"tree-sitter-bash cannot parse the script near {node_text(self.src, bad)[:40]!r}",
                "fix the shell syntax so that the script parses",
            )
            return
        self.parsed = True
        if self.bash_gate:
            rejected = _bash_rejects(self.text, self.locate)
            if rejected is not None:
                self.hazards.append(rejected)
                return
        nodes = script.nodes
        for node in script.of_type("simple_expansion"):
            text = node_text(self.src, node)[1:]
            if len(text) > 1 and text[0].isdigit():
                # tree-sitter reads $10 as the tenth parameter, bash as $1 then 0
                self.hazard(
                    UnparseableTemplate,
                    None,
                    node.start_byte,
                    f"bash reads `${text}` as `${{{text[0]}}}` followed by `{text[1:]}` "
                    "(one digit after `$`), where the checker's parser reads one name",
                    f"write `${{{text}}}` for that parameter, or `${{{text[0]}}}{text[1:]}`",
                )
                return
        for node in script.of_type("word"):
            raw = node_text(self.src, node)
            if re.search(r"(?<!\\)\n", raw):
                # exit 1 <newline> \trap …: tree-sitter reads the next line's
                # first word as this command's, bash as a command of its own
                self.hazard(
                    UnparseableTemplate,
                    None,
                    node.start_byte,
                    "tree-sitter reads a word across a line break here (a line that starts "
                    "with a backslash), where bash starts a new command, so the two parsers "
                    "disagree about what runs",
                    "write the command word without the backslash (`trap`, not `\\trap`), or "
                    "quote it",
                )
                return
        for node in script.of_type("string"):
            before = node.prev_sibling
            if before is not None and before.type == "$" and before.end_byte == node.start_byte:
                # $"…": gettext's translation, expanded again (noexpand_translation off)
                self.hazard(
                    ReparsedAsShell,
                    None,
                    before.start_byte,
                    '`$"…"` is looked up in a message catalog (TEXTDOMAIN, TEXTDOMAINDIR, '
                    "the locale), and bash expands the translation again as a double-quoted "
                    "string: a catalog a step wrote runs `$(…)`",
                    'write "…" without the `$`',
                )
                return
        for name, bodies in sorted(script.function_bodies.items()):
            if shadows_program(name):
                # cut() { …; } … du -sk d | cut -f1: what the checker knows of
                # the program (its grammar, its output) is not the function's
                self.hazard(
                    NoGrammarPosition,
                    None,
                    bodies[0].start_byte if bodies else 0,
                    f"the script's function `{name}` runs in place of the program or "
                    f"builtin `{name}`, whose grammar and output the checker would read "
                    "for it",
                    f"rename the function (`{name}_`), so that `{name}` is the program",
                )
        self._runs_stored_text(script)
        if not self.find_caller_data(script):
            return
        for kind, opening, reading, fix in _ARITHMETIC_MISREADINGS:
            for node in script.of_type(kind):
                if node_text(self.src, node).startswith(opening):
                    self.hazard(
                        UnparseableTemplate,
                        None,
                        node.start_byte,
                        f"tree-sitter reads `{opening}…))` here as {reading}, where bash "
                        "evaluates arithmetic, so the two parsers disagree about what runs",
                        fix,
                    )
                    return
        for occ in self.occs:
            self._check_context(occ)
            self._check_operator(occ)
        self._trace_prompt(script)
        self._shared_folder_writes(script)
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
        # what is read, a program's output, a file a step wrote: caller data
        # may reach the script without any occurrence of an arg in it
        self._script_level(nodes)

    def _json_literal_written(self) -> None:
        """A variable named ``true``, ``false`` or ``null`` that the script
        gives a value, any way (`json_literals_written`): bash
        arithmetic reads the text ``false`` (what jq prints of a JSON
        boolean, of the author's file too) as that variable, and evaluates
        its value in turn, the caller's among what it may hold."""
        if self.script is None:
            return
        names = self.json_literals_written()
        if not names:
            return
        at = next(
            (
                node.start_byte
                for node in self.script.nodes
                if node.type in ("variable_name", "word")
                and node_text(self.src, node) in names
                and (node.parent is None or node.parent.type != "command_name")
            ),
            None,
        )
        name = sorted(names)[0]
        self.hazard(
            ArithmeticInjection,
            None,
            at if at is not None else 0,
            f"the script gives the variable `{name}` a value, and bash arithmetic reads the "
            f"text `{name}` (a JSON literal, as jq prints it, of the author's files too) as "
            "that variable, evaluating what it holds",
            f"rename the variable (`{name}_flag`)",
        )

    # -- what the script does with caller data as a whole
    def _script_level(self, nodes: Sequence[Node]) -> None:
        """Ways a script hands caller data to a program that runs it, which
        no single command shows: ``exec`` redirections, coprocesses,
        ``>(shell)``, a file the script writes and later runs or sources,
        and ``declare -i`` names assigned later."""
        self._json_literal_written()
        written: dict[str, tuple[Occ, tuple[str, Sentinels | None] | None]] = {}
        integers: set[str] = set()
        declared: dict[str, Node] = {}
        computed: Node | None = None
        for node in nodes:
            kind = node.type
            if kind == "command":
                name_node = node.child_by_field_name("name")
                name = node_text(self.src, name_node) if name_node is not None else ""
                holder = node.parent if node.parent is not None else node
                if holder.type != "redirected_statement":
                    holder = node
                inside = self.occs_in(holder.start_byte, holder.end_byte)
                if (
                    name == "exec"
                    and not node.children_by_field_name("argument")
                    and inside
                    and not self._opens_named_descriptors(holder, inside)
                ):
                    self.hazard(
                        ReparsedAsShell,
                        inside[0].arg,
                        inside[0].start,
                        "`exec` redirects caller data into a descriptor of the shell itself, "
                        "which every later command (a shell reading its program too) inherits",
                        'redirect the one command that reads the value: cmd <<< "$ARG"',
                    )
                elif name == "coproc":
                    self.hazard(
                        ReparsedAsShell,
                        self.occs[0].arg,
                        node.start_byte,
                        "a coprocess reads what the script writes to it, and the checker "
                        "cannot follow what that is",
                        "run the command in a pipeline instead of a coprocess",
                    )
                self._deferred_arithmetic(node)
                self._copied_or_teed(node, name, written)
                for path in self._code_option_paths(self._words_of(node), name, files=True):
                    if not path.startswith(("/", "$", "~")) and self.works_in_writable(
                        node.start_byte
                    ):
                        self.hazard(
                            ReparsedAsShell,
                            None,
                            node.start_byte,
                            f"`{path}` is read as code, and a step may have put caller data in "
                            "the folder it is in (the working folder, through a link or a copy)",
                            "keep the code in a file no step writes, and the files made from "
                            "caller data in $HARBOR_RUN_DIR",
                        )
                for path in self._executed_paths(node, name):
                    entry = _filled_at(path, written)
                    if entry is None and any(
                        f == path or f.startswith(path.rstrip("/") + "/")
                        for f in self.filled_before
                    ):
                        self.hazard(
                            ReparsedAsShell,
                            None,
                            node.start_byte,
                            f"an earlier step wrote caller data to `{path}` (or a file in "
                            "it), which this command runs, sources or reads as code",
                            "do not run code from a file built from caller data; read the "
                            "value as data (`read -r`, an argument)",
                        )
                        continue
                    if entry is None:
                        continue
                    occ, rendered = entry
                    if rendered is not None:
                        # printf %q wrote it: check the script it holds
                        word = Word(node.start_byte, node.end_byte, None, [], "", rendered, None)
                        self.nested(word, None, f"the file `{path}`")
                    else:
                        self.hazard(
                            ReparsedAsShell,
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
            elif kind in ("test_command", "unset_command"):
                self._deferred_arithmetic(node)
            elif kind == "declaration_command":
                self._deferred_arithmetic(node)
                flags = [node_text(self.src, c) for c in node.children if c.type == "word"]
                keyword = node_text(self.src, node.children[0]) if node.children else ""
                # a name reference (declare -n) points where the checker does
                # not follow, maybe to an integer: writes through it are
                # judged as writes to one
                if any(f.startswith("-") and "i" in f for f in flags) or (
                    keyword in ("declare", "local", "typeset")
                    and any(f.startswith("-") and "n" in f for f in flags)
                ):
                    for child in node.children:
                        target = child
                        if child.type == "variable_assignment":
                            target = child.child_by_field_name("name") or child
                        if target.type == "variable_name":
                            integers.add(node_text(self.src, target))
                            if any(f.startswith("-") and "i" in f for f in flags):
                                declared.setdefault(node_text(self.src, target), child)
                        elif (
                            child.is_named
                            and child.type != "word"
                            and any(f.startswith("-") and "i" in f for f in flags)
                        ):
                            computed = computed or node  # declare -i "$n": any name
        self._integers_written(declared, computed)
        self.filled = frozenset(written)
        if integers:
            for node in nodes:
                if node.type == "command" and self._writes_integer(node, integers):
                    continue
                if node.type != "variable_assignment" or (
                    node.parent is not None and node.parent.type == "declaration_command"
                ):
                    continue
                name_node = node.child_by_field_name("name")
                value = node.child_by_field_name("value")
                if name_node is None or value is None:
                    continue
                if node_text(self.src, name_node) not in integers:
                    continue
                inside = self.occs_in(value.start_byte, value.end_byte)
                if inside:
                    self.report(
                        ArithmeticInjection.integer_assignment(
                            node_text(self.src, name_node), inside, self.locate(inside[0].start)
                        )
                    )

    def _deferred_arithmetic(self, node: Node) -> None:
        """Text bash evaluates as arithmetic when a builtin runs, not where
        the script is parsed: ``let``'s operands, and the subscript of a
        name a builtin takes (``unset 'a[$i]'``, ``test -v``, ``printf -v``,
        ``read``, ``declare``). Quoted, it is no expansion for the parser,
        but every name in it is read then, recursively: one that is not
        proven the author's is the caller's."""
        name_node = node.child_by_field_name("name")
        if node.type == "command":
            name = node_text(self.src, name_node) if name_node is not None else ""
            if name == "let":
                texts = [a for a in node.children_by_field_name("argument")]
            elif name in NAME_WRITERS or name in ("unset", "test", "[", "export", "readonly"):
                texts = [
                    a
                    for a in node.children_by_field_name("argument")
                    if _SUBSCRIPTED.fullmatch(self._unquoted(a))
                ]
            else:
                return
        else:  # declaration_command, unset_command, test_command (``[[ -v 'a[$i]' ]]``)
            name = node_text(self.src, node.children[0]) if node.children else ""
            texts = [
                c
                for c in walk(node)
                if c.type in ("word", "string", "raw_string", "concatenation")
                and c.parent is not None
                and c.parent.type in ("declaration_command", "unset_command", "unary_expression")
                and _SUBSCRIPTED.fullmatch(self._unquoted(c))
            ]
        for arg in texts:
            text = self._unquoted(arg)
            if (
                name == "unset"
                and arg.type == "raw_string"
                and self.is_assoc(text.split("[", 1)[0], arg)
            ):
                continue  # unset 'm[$k]' of a map: the key expanded once, as a string
            if name != "let":
                found_name = _SUBSCRIPTED.fullmatch(text)
                text = found_name.group(1) if found_name is not None else text
            # names, and the positional and special parameters ($1, $@)
            for found in re.finditer(
                r"[A-Za-z_][A-Za-z0-9_]*|(?<=\$)[0-9@*]|(?<=\$\{)[0-9@*]", text
            ):
                source = self._var_source(found.group(0))
                if source is None:
                    continue
                self.hazard(
                    ArithmeticInjection,
                    source[0] if source[0] != UNPROVEN else None,
                    arg.start_byte,
                    f"`{name}` evaluates `{found.group(0)}` in this text as arithmetic when it "
                    "runs, where `a[$(cmd)]` in the value runs a command, even quoted",
                    "check the value is a number first ([[ $v =~ ^[0-9]+$ ]]) and use a "
                    "variable set from that check",
                )
                break

    def _unquoted(self, node: Node) -> str:
        """`node`'s text with its outer quotes removed (a literal's)."""
        text = node_text(self.src, node)
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            return text[1:-1]
        return text

    def _integers_written(self, declared: Mapping[str, Node], computed: Node | None) -> None:
        """A name with the integer attribute (each of `declared`, with its
        declaration) evaluates as arithmetic whatever is written to it, by
        whichever means: an assignment, an array element, a ``for`` loop,
        ``read`` (``REPLY`` too), ``${x:=…}``, ``printf -v``… So such a name
        may carry nothing of the caller's but numbers: the taint analysis
        (`TaintedScript`) says what each name may carry, with no list of
        writers. `computed`: a declaration whose name is not literal
        (``declare -i "$n"``), which may give any name the attribute."""
        names = set(declared)
        if computed is not None:
            names |= set(self.taint.variables)
        for name in sorted(names):
            source = self._var_source(name)
            if source is None or arith_safe(source[1]):
                continue
            at = declared.get(name, computed)
            self.hazard(
                ArithmeticInjection,
                source[0] if source[0] != UNPROVEN else None,
                at.start_byte if at is not None else 0,
                f"`{name}` has the integer attribute (`declare -i`) and carries caller data, "
                "so bash evaluates what is written to it as arithmetic, where `a[$(…)]` runs "
                "a command",
                'give the arg `"type": "integer"`, or keep caller data out of names with the '
                "integer attribute (check it first: [[ $v =~ ^[0-9]+$ ]])",
            )

    def _writes_integer(self, node: Node, integers: set[str]) -> bool:
        """A builtin that writes a variable by name (``read n``, ``printf -v
        n``, ``mapfile``, ``getopts``, ``wait -p``) writing one with the
        integer attribute: bash evaluates what it reads as arithmetic."""
        name = node.child_by_field_name("name")
        if name is None or node_text(self.src, name) not in NAME_WRITERS:
            return False
        for arg in node.children_by_field_name("argument"):
            target = node_text(self.src, arg)
            if target in integers and self._name_position(node, arg):
                self.hazard(
                    ArithmeticInjection,
                    None,
                    arg.start_byte,
                    f"`{node_text(self.src, name)}` writes `{target}`, which has the integer "
                    "attribute (`declare -i`), so bash evaluates what it reads as arithmetic, "
                    "where `a[$(…)]` runs a command",
                    f"read into a variable without `declare -i` and check it: "
                    f"[[ $v =~ ^[0-9]+$ ]] && {target}=$v",
                )
                return True
        return False

    def _copied_or_teed(
        self,
        node: Node,
        name: str,
        written: dict[str, tuple[Occ, tuple[str, Sentinels | None] | None]],
    ) -> None:
        """``tee FILE`` with caller data on its stdin, and ``cp``/``mv``/
        ``install``/``ln`` of a file carrying caller data, write the files
        they name with caller data."""
        base = basename(name.replace('"', ""))
        args = node.children_by_field_name("argument")
        texts = [static_text(self.src, a) or node_text(self.src, a).replace('"', "") for a in args]
        operands = [t for t in texts if not t.startswith("-")]
        source: Occ | None = None
        targets: list[str] = []
        if base == "tee":
            source = self.stdin_of(node)
            targets = operands
        elif base in ("cp", "mv", "install", "ln") and len(operands) >= 2:
            inside = [
                o for o in self.occs_in(node.start_byte, node.end_byte) if not o.model.inert_code
            ]
            source = inside[0] if inside else self._linked_place(node)
            targets = operands[-1:]
        if source is None:
            return
        for target in targets:
            written[normal_path(target)] = (source, None)
            self._startup_file(target, source)

    def _linked_place(self, node: Node) -> Occ | None:
        """For ``ln``/``cp`` (`node`) with clean words: what it copies or
        links from a place a step may have written (``ln -s
        "$HARBOR_RUN_DIR/x" .x``), as caller data; None when every source
        is out of every step's reach."""
        operands = [
            a
            for a in node.children_by_field_name("argument")
            if not node_text(self.src, a).lstrip("\"'").startswith("-")
        ]
        for source in operands[:-1]:
            if self.step_writable(source, at=node.start_byte):
                return Occ(
                    UNPROVEN, "env", any_model(), source.start_byte, source.end_byte, source, "file"
                )
        return None

    def _opens_named_descriptors(self, holder: Node, inside: Sequence[Occ]) -> bool:
        """The caller data of an ``exec`` redirection (`holder`) is only in
        the names of files it opens on descriptors 3 and up (``exec
        3<>"/dev/tcp/$host/$port"``): no later command reads its program or
        its standard streams from them, and what is read from one is never
        clean (a path such as ``/dev/fd/3`` is a stream: `step_writable`)."""
        places: list[tuple[int, int]] = []
        for redirect in holder.children:
            if redirect.type != "file_redirect":
                continue
            descriptor = next((c for c in redirect.children if c.type == "file_descriptor"), None)
            dest = redirect.child_by_field_name("destination")
            if descriptor is None or dest is None:
                return False
            if int(node_text(self.src, descriptor) or "0") < 3:
                return False
            places.append((dest.start_byte, dest.end_byte))
        return all(any(a <= o.start and o.end <= b for a, b in places) for o in inside)

    def _startup_file(self, path: str, source: Occ) -> None:
        """Caller data written into a file a shell, ssh, cron or git runs or
        reads as code later (``~/.bashrc``, ``.git/hooks/…``); a leading
        variable assigned once is read as its value (``home=~`` …
        ``"$home/.jq"``)."""
        path = self._leading_value(path)
        computed = path.startswith(("$(", "`")) and not path.startswith("$(mktemp")
        relative = not path.startswith(("/", "$", "~", "`"))
        if _STARTUP_FILES.search(path) or computed or (relative and self._moves_home()):
            # "$(echo ~)/.kube/config", or a relative path after `cd` (home)
            self.hazard(
                ReparsedAsShell,
                source.arg,
                source.start,
                f"caller data is written to `{path}`, where programs read their config or "
                "code unseen (the home folder's dot files, a shell's startup files, git's "
                "hooks, cron)",
                "write caller data only to files of the run (under $HARBOR_RUN_DIR)",
            )

    def _moves_home(self) -> bool:
        """The script changes into the home folder: ``cd`` or ``pushd`` with
        no operand, or one led by ``~`` or ``$HOME``."""
        for node in self.script.of_type("command") if self.script is not None else ():
            name = node.child_by_field_name("name")
            if name is None or node_text(self.src, name) not in ("cd", "pushd"):
                continue
            operands = [
                node_text(self.src, a).strip("\"'")
                for a in node.children_by_field_name("argument")
                if not node_text(self.src, a).startswith("-")
            ]
            if not operands or operands[0].startswith(("~", "$HOME", "${HOME")):
                return True
        return False

    def _leading_value(self, path: str) -> str:
        """`path` with a leading ``$name``/``${name}`` replaced by the text
        the script assigns it, when it assigns it exactly once (twice at
        most through such names)."""
        for _ in range(2):
            match = re.match(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))", path)
            if match is None:
                return path
            value = self.assigned_once().get(match.group(1) or match.group(2))
            if value is None:
                return path
            path = node_text(self.src, value).strip("\"'") + path[match.end() :]
        return path

    def _runs_its_arguments(self, command: Node) -> bool:
        """`command` is ``"$@"`` run in a function whose calls are each
        checked as the command line they pass (`runs_args`)."""
        name = command.child_by_field_name("name")
        raw = node_text(self.src, name).strip('"') if name is not None else ""
        return raw in ("$@", "${@}") and self.function_at(command.start_byte) in self.runs_args

    def _written_file(
        self, node: Node, written: dict[str, tuple[Occ, tuple[str, Sentinels | None] | None]]
    ) -> None:
        """Record `node`'s target when it writes a file with caller data in
        it (the redirected command carries caller data)."""
        op = node_text(self.src, node).lstrip("0123456789&")
        if not op.startswith(">"):
            return
        dest = node.child_by_field_name("destination")
        if dest is None:
            return
        path = static_text(self.src, dest) or node_text(self.src, dest).replace('"', "")
        statement = node.parent
        if statement is None or (op.startswith(">&") and (path.isdigit() or path == "-")):
            return  # >&2, >&-: a descriptor duplicated or closed, no file
        # numbers and the author's words make no file of the caller's
        inside = [
            o
            for o in self.occs_in(statement.start_byte, statement.end_byte)
            if not o.model.inert_code
        ]
        stdin = None
        command = next((c for c in statement.children if c.type == "command"), None)
        if command is not None:
            stdin = self.stdin_of(command)
        source = inside[0] if inside else stdin
        if source is None:
            return
        rendered = None
        if command is not None and stdin is None:
            table: dict[str, Sentinel] = {}
            text = self.render_printf(command, table)
            if text is not None:
                where = self.sentinels.where if self.sentinels is not None else ()
                rendered = (text, Sentinels(table, [], where))
        self._startup_file(path, source)
        key = normal_path(path)
        if key in written and ">>" not in op:
            written[key] = (source, rendered)  # `>` starts the file again
        elif key in written:
            written[key] = (source, None)  # appended: not followed
        else:
            written[key] = (source, rendered)

    def _words_of(self, node: Node) -> list[str]:
        """The words after a command's name, literal or as written."""
        return [
            static_text(self.src, a) or node_text(self.src, a).replace('"', "")
            for a in node.children_by_field_name("argument")
        ]

    def _executed_paths(self, node: Node, name: str) -> list[str]:
        """The literal files `node` (a command) runs or sources, or reads as
        code through an option (`_code_option_paths`)."""
        args = self._words_of(node)
        out: list[str] = []
        name = name.replace('"', "")
        if "/" in name:
            out.append(normal_path(name))
        if (
            name in ("source", ".")
            or shell_name(basename(name))
            or (lookup_interpreter(basename(name)) is not None)
        ):
            # the first operand, unless `-` (the program is standard input)
            script = next((a for a in args if a == "-" or not a.startswith("-")), None)
            if script is not None and script != "-":
                out.append(normal_path(script))
        return out + self._code_option_paths(args, name)

    def _code_option_paths(self, args: Sequence[str], name: str, files: bool = False) -> list[str]:
        """The values of a command's options that are code: its grammar's
        (jq -L DIR, jq -f FILE, curl -K FILE, and program texts: sed -e)
        and the global options before a subcommand that name code
        (kubectl --kubeconfig, exec plugins; git -C; docker --config).
        `files`: only those that name a file or folder (`_CODE_FILES`)."""
        out: list[str] = []
        program = normal_program(basename(name))
        key, first = grammar_key(program, list(args))
        grammar = GRAMMARS.get(key)
        # the global options before a subcommand that name code: kubectl
        # --kubeconfig (exec plugins), git -C, docker --config
        kinds = SUBCOMMANDS.get(program, {})
        for k, arg in enumerate(args[:first]):
            option, _, value = arg.partition("=")
            if kinds.get(option) == "path-code":
                if value:
                    out.append(normal_path(value))
                elif k + 1 < len(args):
                    out.append(normal_path(args[k + 1]))
        code = (grammar.code_options if grammar is not None else frozenset()) | (
            sinks.OPTION_CODE_COMMANDS.get(program, frozenset())
        )
        for k, arg in enumerate(args):
            option, _, value = arg.partition("=")
            if files and option not in _CODE_FILES:
                continue
            if option in code and value:
                out.append(normal_path(value))
            elif arg in code and k + 1 < len(args):
                out.append(normal_path(args[k + 1]))
        return out

    def _output_substitution(self, node: Node) -> None:
        """``>(bash)``: a shell or interpreter reading its program from what
        the script writes into the substitution."""
        raw = node_text(self.src, node)
        if not raw.startswith(">("):
            return
        command = next((c for c in walk(node) if c.type == "command"), None)
        if command is None:
            return
        name_node = command.child_by_field_name("name")
        name = basename(node_text(self.src, name_node)) if name_node is not None else ""
        args = [node_text(self.src, a) for a in command.children_by_field_name("argument")]
        runs_stdin = (
            shell_name(name) and not any(a.startswith("-") and "c" in a for a in args)
        ) or (
            (spec := lookup_interpreter(name)) is not None
            and not any(a in spec.code_options for a in args)
            and not [a for a in args if not a.startswith("-")]
        )
        if runs_stdin:
            self.hazard(
                ReparsedAsShell,
                self.occs[0].arg,
                node.start_byte,
                f"`{raw[:40]}` runs `{name}` on what the script writes into it, which "
                "carries caller data",
                "do not write caller data to a shell or interpreter",
            )

    # -- contexts
    def _quoting(self, occ: Occ) -> Quoting:
        assert occ.node is not None
        start = occ.node if occ.kind != "env" else occ.node.parent
        if start is None:
            return "unquoted"
        for node in ancestors(start):
            kind = node.type
            if kind == "comment":
                return "comment"
            if kind == "heredoc_body":
                return "heredoc-quoted" if heredoc_quoted(self.src, node) else "heredoc"
            if kind == "heredoc_start":
                return "heredoc-delimiter"
            if kind in ("raw_string", "ansi_c_string") and in_quoted_operand(node):
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

    def _check_operator(self, occ: Occ) -> None:
        """Only transformations known to be inert may apply to caller data
        (H004 decides, from the expansion's text)."""
        if occ.kind != "env" or occ.node is None or occ.node.type != "expansion":
            return
        body = self.src[occ.node.start_byte : occ.node.end_byte].decode("utf-8", "replace")
        self.report(ReparsedAsShell.transformation(occ, body, self.locate(occ.start)))

    def _check_context(self, occ: Occ) -> None:
        """The rules that read where `occ` is spliced or expanded: its
        quoting context, the character before it, whether bash evaluates it
        as arithmetic or reads it as a name."""
        quoting = self._quoting(occ)
        before = chr(self.src[occ.start - 1]) if occ.start > 0 else ""
        where = self.locate(occ.start)
        if occ.kind == "sq":
            self.report(ShellquoteInQuotedContext.detect(occ, quoting, before, where))
        elif occ.kind == "raw":
            self.report(
                (ValueAsName.after_dollar(occ, before, where) if quoting != "single" else None)
                or UnsafeRawPlaceholder.detect(occ, quoting, where, lambda: self._heredoc_line(occ))
            )
        elif occ.kind == "env":
            unquoted = UnquotedExpansion.detect(
                occ,
                quoting,
                where,
                no_split=lambda: self._no_split(occ),
                in_for_list=lambda: self._in_for_list(occ),
            )
            if unquoted is not None:
                self.hazards.append(unquoted)
            split_here = unquoted is not None or (
                quoting == "unquoted" and not arithmetic_name(occ) and not self._no_split(occ)
            )
            if split_here and (occ.model.chars & _IFS or self.ifs_changed()):
                # the value's blanks make the word several words (any
                # character does, where the script may set IFS)
                self.split_starts.add(occ.start)
            if split_here and (
                occ.model.chars & _GLOB_CHARS
                or ("(" in occ.model.chars and self.extglob_may_be_on())
            ):
                # `*` expands to the folder's file names: any words,
                # `-` first too (a name a step or the caller made)
                self.split_starts.add(occ.start)
                self.glob_starts.add(occ.start)
        if occ.kind == "raw" and quoting == "unquoted" and self._in_brace_list(occ):
            # {a,VALUE}: bash splits the brace list at the value's commas, so
            # a part of it (a new word) may start with `-`
            self.split_starts.add(occ.start)
        if occ.kind in ("raw", "sq") and before == "$":
            return  # a parameter name or `$'…'` quoting (reported): nothing else is read
        in_arith = (
            (occ.node is not None and self._arithmetic(occ.node))
            or self._in_let(occ)
            or (occ.node is not None and self._indexed_literal_key(occ.node))
        )
        if in_arith and occ.node is not None and self._assoc_key(occ.node):
            in_arith = False
        self.report(ArithmeticInjection.detect(occ, in_arith, where))
        if occ.node is not None:
            self._check_name_context(occ)

    def _in_brace_list(self, occ: Occ) -> bool:
        """`occ` is spliced inside an unquoted brace expression (``{a,…}``,
        ``{1..…}``) and its value can hold what splits one (``,`` or ``..``)."""
        if not ({",", "."} & occ.model.chars):
            return False
        line_start = self.src.rfind(b"\n", 0, occ.start) + 1
        line_end = self.src.find(b"\n", occ.end)
        head = re.search(rb"[^\s;|&<>()'\"]*$", self.src[line_start : occ.start])
        tail = re.match(
            rb"[^\s;|&<>()'\"]*", self.src[occ.end : line_end if line_end >= 0 else None]
        )
        return bool(head and tail and b"{" in head.group(0) and b"}" in tail.group(0))

    def _indexed_literal_key(self, node: Node) -> bool:
        """`node` stands in the ``[KEY]`` of an element of an array literal
        (``slots=([$k]=x)``, ``declare -a slots=(…)``) of an array that is
        not surely associative: bash evaluates that key as arithmetic."""
        for element in ancestors(node):
            if element.type in ("command", "program", "function_definition"):
                return False
            parent = element.parent
            if parent is None or parent.type != "array":
                continue
            text = node_text(self.src, element)
            close = text.find("]=")
            if not text.startswith("[") or close < 0:
                return False
            if not element.start_byte < node.start_byte < element.start_byte + close:
                return False
            assignment = parent.parent
            target = assignment.child_by_field_name("name") if assignment is not None else None
            return target is None or not self.is_assoc(node_text(self.src, target), parent)
        return False

    def _assoc_key(self, node: Node) -> bool:
        """`node` is in the subscript of an associative array (``declare -A``)
        that an assignment (``m[$k]=v``) or an expansion (``${m[$k]}``)
        reads: bash expands it once as a string, never as arithmetic. Not
        under ``unset`` or a test, which expand it again."""
        child = node
        for parent in ancestors(node.parent) if node.parent is not None else iter(()):
            if parent.type == "subscript":
                name = parent.child_by_field_name("name")
                index = parent.child_by_field_name("index")
                holder = parent.parent
                if (
                    name is not None
                    and index is not None
                    and (index.start_byte, index.end_byte) == (child.start_byte, child.end_byte)
                    and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", node_text(self.src, index))
                    and self.is_assoc(node_text(self.src, name), parent)
                ):
                    # $(( at[start] )) of an associative array: the key is the
                    # word "start" itself (nothing in it to expand), no name read
                    return True
                if (
                    name is None
                    or index is None
                    or not (
                        index.start_byte <= child.start_byte and child.end_byte <= index.end_byte
                    )
                    or not self.is_assoc(node_text(self.src, name), parent)
                    or holder is None
                    or holder.type not in ("variable_assignment", "expansion")
                ):
                    return False
                if holder.type == "expansion":
                    return True  # ${m[$k]}: a parameter expansion, before any arithmetic
                for outer in ancestors(holder):
                    if outer.type in (
                        "arithmetic_expansion",
                        "c_style_for_statement",
                        "unset_command",
                        "test_command",
                    ) or (
                        outer.type == "compound_statement"
                        and self.src[outer.start_byte : outer.start_byte + 2] == b"(("
                    ):
                        return False
                    if outer.type == "command":
                        cname = outer.child_by_field_name("name")
                        if cname is not None and node_text(self.src, cname) in (
                            "unset",
                            "let",
                            "test",
                            "[",
                        ):
                            return False
                return True
            child = parent
        return False

    def _arithmetic(self, node: Node) -> bool:
        """`in_arithmetic` of `node`, a node of this script's tree."""
        if self.script is None:
            return in_arithmetic(self.src, node)
        return self.script.arithmetic(node)

    def _in_let(self, occ: Occ) -> bool:
        assert occ.node is not None
        first = occ.node.parent if occ.node.type == "command_substitution" else occ.node
        if first is None:
            return False
        for node in ancestors(first):
            if node.type in ("command_substitution", "process_substitution"):
                return False
            if node.type == "command":
                name = node.child_by_field_name("name")
                return (
                    name is not None
                    and node_text(self.src, name) == "let"
                    and not (name.start_byte <= occ.start < name.end_byte)
                )
            if node.type == "declaration_command":
                flags = [node_text(self.src, c) for c in node.children if c.type == "word"]
                if any(f.startswith("-") and "i" in f for f in flags):
                    return any(
                        c.type == "variable_assignment"
                        and (v := c.child_by_field_name("value")) is not None
                        and v.start_byte <= occ.start < v.end_byte
                        for c in node.children
                    )
                return False
        return False

    def _in_for_list(self, occ: Occ) -> bool:
        node = occ.node
        while node is not None:
            parent = node.parent
            if parent is not None and parent.type == "for_statement":
                return node in parent.children_by_field_name("value")
            if parent is not None and parent.type in ("command", "command_substitution"):
                return False
            node = parent
        return False

    def _no_split(self, occ: Occ) -> bool:
        assert occ.node is not None
        for node in ancestors(occ.node.parent) if occ.node.parent is not None else iter(()):
            if node.type in ("variable_assignment", "case_statement", "herestring_redirect"):
                return True
            if node.type == "test_command" and node_text(self.src, node).startswith("[["):
                return True
            if node.type in ("command", "command_substitution", "declaration_command"):
                return False
        return False

    def _heredoc_line(self, occ: Occ) -> HeredocLine | None:
        """The delimiter of the here-document whose body holds the raw
        placeholder `occ`, and the text of its line before and after it
        (``<<-`` strips leading tabs first); None when the checker cannot
        follow the line (no delimiter found, more caller data on it)."""
        if occ.node is None:
            return None
        body = next((a for a in ancestors(occ.node) if a.type == "heredoc_body"), None)
        redirect = body.parent if body is not None else None
        if body is None or redirect is None:
            return None
        start = next((c for c in redirect.children if c.type == "heredoc_start"), None)
        if start is None:
            return None
        delimiter = re.sub(r"[\\'\"]", "", node_text(self.src, start))
        dash = any(c.type == "<<-" for c in redirect.children)
        line_start = self.src.rfind(b"\n", 0, occ.start) + 1
        line_end = self.src.find(b"\n", occ.end)
        line_end = len(self.src) if line_end < 0 else line_end
        before = self.src[line_start : occ.start].decode("utf-8", "replace")
        after = self.src[occ.end : line_end].decode("utf-8", "replace")
        if dash:
            before = before.lstrip("\t")
        if self.occs_in(line_start, occ.start) or self.occs_in(occ.end, line_end):
            return None  # more caller data on the line: not followed
        return delimiter, before, after

    def _check_name_context(self, occ: Occ) -> None:
        assert occ.node is not None
        node = occ.node
        parent = node.parent
        name_like = False
        if (
            occ.kind in ("raw", "sq")
            and node.type == "variable_name"
            and not self._arithmetic(node)
        ):
            name_like = True
        if (
            occ.kind == "env"
            and node.type == "expansion"
            and any(c.type == "!" for c in node.children[:3])
            and node.children[-2].type not in ("*", "@")  # ${!prefix*} lists names
            and not _lists_keys(self.src, node.children[-2])  # ${!a[@]} lists a's keys
            and self._var_source(_tree.expansion_target(self.src, node) or "") is not None
        ):
            name_like = True
        if (
            parent is not None
            and parent.type == "variable_assignment"
            and occ.kind in ("raw", "sq")  # a variable's own name is the author's
        ):
            name = parent.child_by_field_name("name")
            if (
                name is not None
                and name.start_byte <= occ.start < name.end_byte
                and name.type != "subscript"
            ):
                name_like = True
        if name_like and not names_only(occ.model):
            self.hazard(
                ValueAsName,
                occ.arg,
                occ.start,
                "the value is used as a variable name, so the caller chooses which variable "
                "is read or written (and bash evaluates subscripts in names)",
                "use a fixed variable name and pass the value as its content",
            )

    # -- commands
    def _command(self, node: Node) -> None:
        words = [self.word(child) for child in command_words(node)]
        if not words:
            return
        self._wrapped_declaration(node)
        self._code_files(node, words)
        self._history_run(words)
        if self._spliced_at(node) is not None:
            return  # checked at each call of its function, with the words passed
        self._resolve(node, words)

    def _history_run(self, words: list[Word]) -> None:
        """``fc`` (but ``fc -l``) runs a line of the shell's history, which
        ``history -r FILE`` and ``history -s TEXT`` fill with any text: code
        the analysis does not see (bash(1), SHELL BUILTIN COMMANDS)."""
        if words[0].static != "fc" or any(
            w.static is not None and w.static.startswith("-") and "l" in w.static for w in words[1:]
        ):
            return
        self.hazard(
            ReparsedAsShell,
            None,
            words[0].start,
            "`fc` runs a line of the shell's history as a command, and the history may hold "
            "any text (`history -r FILE`, `history -s TEXT`)",
            "run the command itself; `fc -l` only lists",
        )

    def _resolve(self, node: Node, words: list[Word]) -> None:
        self._resolve_seen(node, words, frozenset())

    def _spliced_at(self, command: Node) -> tuple[int, int] | None:
        """Where ``"$@"`` stands among the words of `command`, an argument
        of it, and how many words the function it is in shifts away first,
        when every call of that function can be checked as the command
        line it makes (`check_spliced`): the function's calls are all the
        script shows (`function_calls`), no ``set`` replaces its
        parameters, and the ``shift``s before `command` are known
        (`TaintedScript.shifts_before`). None otherwise."""
        if self.depth > 0:
            return None
        children = command_words(command)
        found = [
            k
            for k, child in enumerate(children)
            if k > 0 and node_text(self.src, child) in ('"$@"', '"${@}"')
        ]
        if len(found) != 1 or any(
            "$@" in node_text(self.src, c) or "${@" in node_text(self.src, c)
            for k, c in enumerate(children)
            if k != found[0]
        ):
            return None
        function = self.function_at(command.start_byte)
        if function is None or self.function_calls(function) is None:
            return None
        shifts = self.shifts_before(function, command)
        return None if shifts is None else (found[0], shifts)

    def check_spliced(self, function: str, passed: Sequence[Word], seen: frozenset[str]) -> None:
        """Check each command of `function` that passes its arguments on
        (``"$@"``, `_spliced_at`) as the command line this call makes:
        the words `passed` (after the ones it shifts away) in its place."""
        if function in seen:
            return  # f calls itself: checked as the first call made it
        for body in self.function_bodies.get(function, ()):
            for command in walk(body):
                if command.type != "command" or self.function_at(command.start_byte) != function:
                    continue
                spliced = self._spliced_at(command)
                if spliced is None:
                    continue
                at, shifts = spliced
                words = [self.word(child) for child in command_words(command)]
                line = [*words[:at], *passed[shifts:], *words[at + 1 :]]
                self._resolve_seen(command, line, seen | {function})

    def _resolve_seen(self, node: Node, words: list[Word], seen: frozenset[str]) -> None:
        resolver = Resolver(self, self.stdin_of(node))
        resolver.env = self._env_prefixes(node)
        resolver.stdin_text = self.heredoc_text(node)
        resolver.seen = seen
        resolver.command(words, 0)

    def _code_files(self, node: Node, words: Sequence[Word]) -> None:
        """A file run as code (``source F``, ``. F``, ``bash F``, ``./F``,
        ``python3 F``) must be one no step can write: what a step wrote is
        the caller's (rule 2), whoever wrote the file's first version."""
        if not words or not self.unproven_is_data:
            return
        head = words[0].static or ""
        name = head.rsplit("/", 1)[-1]
        target: Node | None = None
        arguments = [a for a in node.children_by_field_name("argument")]
        if name in ("source", ".") and arguments:
            target = arguments[0]
        elif (shell_name(name) or name in _SCRIPT_RUNNERS) and arguments:
            operands = [
                a
                for a in arguments
                if node_text(self.src, a) == "-" or not node_text(self.src, a).startswith("-")
            ]
            if operands and node_text(self.src, operands[0]) == "-":
                operands = []  # python3 - ARGS: the program is standard input
            if operands and not any(
                _names_program_option(node_text(self.src, a))
                for a in arguments[: arguments.index(operands[0])]
            ):
                target = operands[0]
        elif name == "sqlite3" and "-safe" not in (w.static for w in words):
            # the database is code too: its views and triggers run SQL, and
            # the shell's edit() runs a command (sqlite3 3.40 CLI; -safe
            # turns edit() and the other such functions off)
            target = next(
                (
                    a
                    for a, w in zip(arguments, words[1:], strict=False)
                    if not (w.static is not None and w.static.startswith("-"))
                    and not _after_value_option(arguments, a, _SQLITE_VALUES)
                ),
                None,
            )
        elif (
            words[0].static is None
            and not words[0].tainted
            # "$@" in a function: each call's command line is checked there
            and not self._runs_its_arguments(node)
        ):
            resolved = self.resolve_command_word(words[0])
            if resolved is None or writable_text(resolved[0].static or ""):
                target = node.child_by_field_name("name")  # PYTHON=/tmp/x … "$PYTHON"
        elif "/" in head:
            target = node.child_by_field_name("name")
        if (
            target is not None
            and not self.occs_in(target.start_byte, target.end_byte)  # the roles refuse those
            and self.step_writable(target, at=node.start_byte)
        ):
            self.hazard(
                ReparsedAsShell,
                None,
                target.start_byte,
                f"`{node_text(self.src, target)[:60]}` is run as code, and a step may have "
                "written it (the run directory, a temporary folder, a caller-chosen path, or a "
                "folder the script moved into): what a step wrote is the caller's",
                "keep the code in a file no step writes (the export's folder), or in the "
                "script itself; a program of programs: that writes no file in the folder "
                "says so with output_options: [] (or the options that name what it writes)",
            )

    def _env_prefixes(self, node: Node) -> list[EnvPrefix]:
        """The variables assigned for this one command whose value carries
        caller data (``V="$ARG_x" tool``): an environment position of the
        program's grammar (`mcp_harbor.check._positions`)."""
        out: list[EnvPrefix] = []
        program = node.child_by_field_name("name")
        # beside a secret, a file the author wrote in the run directory is
        # still a config the grammar cannot read (WGETRC with debug = on)
        secret = program is not None and program.start_byte in self.secret_commands
        for child in node.children:
            if child.type != "variable_assignment":
                continue
            name = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            if name is None or value is None:
                continue
            variable = node_text(self.src, name)
            occs = self.occs_in(value.start_byte, value.end_byte)
            if occs:
                out.append(EnvPrefix(variable, occs[0]))
            elif self._credential_file_written(node, variable, value):
                continue  # PGPASSFILE="$HARBOR_RUN_DIR/pgpass", which the script just wrote
            elif variable in _FILE_CODE_VARIABLES or (
                not TEMP_VARIABLE.search(variable)
                and self._foreign_piece(self._resolved(node_text(self.src, value)), secret)
                is not None
            ):
                # a place a step may have written, given to a program that may
                # read code from it (HOME=… git reads ~/.gitconfig)
                place = Occ(UNPROVEN, "env", any_model(), value.start_byte, value.end_byte, value)
                out.append(EnvPrefix(variable, place))
        return out

    def _credential_file_written(self, node: Node, variable: str, value: Node) -> bool:
        """The command `node` reads the file its assignment of `variable`
        names as a credential it never prints (`credentials.file_env`:
        libpq's ``PGPASSFILE``), and the script wrote that file in full just
        before, with the author's text (`written_clean`): whatever a step put
        there before is gone, and a password file is no program's code."""
        program = node.child_by_field_name("name")
        name = static_text(self.src, program) if program is not None else None
        if name is None:
            return False
        words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
        return reads_credential_file_env(
            name.rsplit("/", 1)[-1], words, variable
        ) and self.written_clean(self.word(value))

    def _runs_stored_text(self, script: _tree.Parsed) -> None:
        """H005 where a program's literal text runs text it reads from a
        store (`Grammar.runs_stored`: psql's ``\\gexec`` of a query's rows,
        PL/pgSQL's ``EXECUTE``): the rows are the database's, which any
        export may have filled with a caller's value (``insert … values
        (:'t')``), so the text it runs is not shown to be the author's, with
        or without caller data in the command (round forty-nine's 005)."""
        for node, words in script.commands():
            program = static_text(self.src, words[0]) if words else None
            if program is None:
                continue
            literal = [static_text(self.src, w) for w in words[1:]]
            key, _ = grammar_key(normal_program(basename(program)), literal)
            grammar = GRAMMARS.get(key)
            if grammar is None or grammar.runs_stored is None:
                continue
            texts = [t for t in literal if t is not None]
            statement = node.parent
            if statement is not None and statement.type == "redirected_statement":
                texts += [
                    node_text(self.src, b) for b in walk(statement) if b.type == "heredoc_body"
                ]
            found = next((m for m in (re.search(grammar.runs_stored, t) for t in texts) if m), None)
            if found is not None:
                self.hazard(
                    InterpreterProgram,
                    None,
                    node.start_byte,
                    f"`{key}` runs text it reads from a store (`{found.group(0)}`): the rows "
                    "are the database's, which an export may have filled with a caller's "
                    "value, so the code it runs is not shown to be the author's",
                    "write the statements themselves, or run them from a list the export "
                    "holds (an enum arg), not from the database's rows",
                )
                return

    def _shared_folder_writes(self, script: _tree.Parsed) -> None:
        """H012 where the script writes caller data into an absolute folder
        that no run owns (not the run directory, a temporary folder, home or
        the working folder, whose readers the checker knows to be the
        caller's): every export's steps read what is there as the author's
        (``make -f /srv/app/drafts/d.mk``), so the caller's text would be
        ambient in their calls. A redirection, or the destination of ``cp``,
        ``install``, ``mv``, ``rsync``, ``scp``, ``ln``, ``tee``, ``dd``
        (``of=``), an operand a grammar says is written (``uniq IN OUT``),
        tar's ``-C`` when it extracts, sed's ``w FILE``, awk's ``print >
        "FILE"``, or the value of an
        option through which a program's grammar writes a file (``curl -o``,
        `grammars.output_options`)."""
        # (the statement, the word that names the file, its path when the
        # word is a program's text that names it: sed's `w FILE`)
        targets: list[tuple[Node, Node, str | None]] = [
            (redirect.parent or redirect, dest, None)
            for redirect, dest in writing_redirects(script)
        ]
        for node in script.of_type("command"):
            name = node.child_by_field_name("name")
            program = static_text(self.src, name) if name is not None else None
            arguments = node.children_by_field_name("argument")
            if program is None or not arguments:
                continue
            base = program.rsplit("/", 1)[-1]
            words = [static_text(self.src, a) for a in arguments]
            if base in ("cp", "install", "mv", "rsync", "scp", "ln"):
                # the last operand: where to; unless every source is one of
                # the author's files the caller only picks
                # (rsync -a "/srv/releases/$v/" /srv/app/current/)
                sources = [
                    a
                    for a, w in zip(arguments[:-1], words[:-1], strict=True)
                    if w is None or not w.startswith("-")
                ]
                if not sources or not all(self._authors_file(a) for a in sources):
                    targets.append((node, arguments[-1], None))
            elif base == "tee":
                targets += [
                    (node, a, None) for a in arguments if not node_text(self.src, a).startswith("-")
                ]
            elif base == "dd":
                targets += [
                    (node, a, None) for a in arguments if node_text(self.src, a).startswith("of=")
                ]
            elif base == "tar" and extracts(base, words) and not self._authors_archive(node):
                # tar -x … -C DIR: what the archive holds lands in DIR
                for k, word in enumerate(words):
                    if word in ("-C", "--directory") and k + 1 < len(arguments):
                        targets.append((node, arguments[k + 1], None))
                    elif word is not None and word.startswith("--directory="):
                        targets.append((node, arguments[k], word.split("=", 1)[1]))
                    elif word is not None and word.startswith("-C") and len(word) > 2:
                        targets.append((node, arguments[k], word[2:]))  # -C/srv/app
            elif base in ("sed", "awk", "gawk", "mawk"):
                # the files a literal program text writes: sed's `w FILE` (a
                # command or the s command's flag), awk's `print > "FILE"`
                for k, word in enumerate(words):
                    if word is None:
                        continue
                    shown = grammars.sed_code(word) if base == "sed" else word
                    pattern = _SED_WRITES if base == "sed" else _AWK_WRITES
                    targets += [(node, arguments[k], m.group(1)) for m in pattern.finditer(shown)]
            else:
                # the operands its grammar writes (uniq IN OUT), and the value
                # of an option through which it writes a file (curl -o, sort
                # -o, git archive --output=…)
                targets += [
                    (node, arguments[k], None)
                    for k in grammars.written_operand_indexes(base, words)
                ]
                options, takes = grammars.output_options(base, words)
                for k, word in enumerate(words):
                    if word in takes and k + 1 < len(arguments):
                        targets.append((node, arguments[k + 1], None))
                    elif word is not None and word.split("=", 1)[0] in options and "=" in word:
                        targets.append((node, arguments[k], None))
        for scope, dest, named in targets:
            while scope.parent is not None and scope.parent.type in (
                "pipeline",
                "redirected_statement",
            ):
                scope = scope.parent
            text = named or (self.place_text(self.word(dest)) or node_text(self.src, dest)).replace(
                '"', ""
            )
            text = text.replace("'", "").removeprefix("of=")
            if text.startswith("-") and "=" in text:
                text = text.split("=", 1)[1]  # --output=/srv/…
            if (
                not text.startswith("/")
                or text.startswith(("/dev/", "/proc/"))
                or names_place(text)
                or not any(
                    not names_nothing(o.model)
                    for o in self.occs_in(scope.start_byte, scope.end_byte)
                )
            ):
                continue
            self.hazard(
                NoGrammarPosition,
                None,
                dest.start_byte,
                f"caller data is written to `{text[:60]}`, a folder no run owns, where every "
                "export's steps read what they find as the author's (a makefile, a config, "
                "a script): the caller's text would be ambient in their calls",
                "keep files made from caller data in $HARBOR_RUN_DIR (or a temporary folder)",
            )
            return

    def _authors_archive(self, tar: Node) -> bool:
        """The archive the ``tar`` command `tar` extracts (its ``-f`` value,
        ``-xzf FILE``) is a file of a folder no run owns, which the caller
        only chooses among (``/srv/releases/$ARG_v.tgz``, the value holding
        no ``/`` and no leading ``.``): what it holds is the author's."""
        arguments = tar.children_by_field_name("argument")
        words = [static_text(self.src, a) for a in arguments]
        archive: Node | None = None
        for k, word in enumerate(words):
            if word is None or k + 1 >= len(arguments):
                continue
            if word in ("-f", "--file") or (
                word.startswith("-") and not word.startswith("--") and word.endswith("f")
            ):
                archive = arguments[k + 1]
        return archive is not None and self._authors_file(archive)

    def _authors_file(self, word: Node) -> bool:
        """The path `word` names a file of a folder no run owns, which the
        caller only chooses among (``/srv/releases/$ARG_v.tgz``: the author's
        folder first, the caller's part holding no ``/`` and no leading
        ``.``): what it holds is the author's."""
        text = (self.place_text(self.word(word)) or "").replace('"', "").replace("'", "")
        occs = self.occs_in(word.start_byte, word.end_byte)
        lead = self.src[word.start_byte : occs[0].start if occs else word.end_byte]
        folder = lead.decode("utf-8", "replace").replace('"', "").replace("'", "")
        return (
            text.startswith("/")
            and not text.startswith(("/dev/", "/proc/"))
            and not names_place(text)
            and folder.startswith("/")
            and (not occs or folder.endswith("/"))
            and all("/" not in o.model.chars and "." not in o.model.first for o in occs)
        )

    def _trace_prompt(self, script: _tree.Parsed) -> None:
        """``PS4``: before every command ``set -x`` traces, bash expands its
        value as it expands a here-document's body (parameters, ``$(…)``,
        arithmetic, where a subscript that names an arg, ``${a[ARG_x]}``,
        evaluates the caller's text). The author's literal value is analysed
        as such a body; a value that is not a literal, and a ``PS4`` set in
        any way but an assignment (``printf -v``, ``read``, a nameref), are
        refused: the text bash will expand is not shown."""
        assigned: set[int] = set()
        for node in script.of_type("variable_assignment"):
            name = node.child_by_field_name("name")
            if name is None or node_text(self.src, name) != "PS4":
                continue
            assigned.add(name.start_byte)
            value = node.child_by_field_name("value")
            text = static_text(self.src, value) if value is not None else ""
            if text is None:
                self.hazard(
                    ReparsedAsShell,
                    None,
                    node.start_byte,
                    "PS4's value is built when it is assigned, and bash expands it again "
                    "before every command the trace prints, so the checker cannot see the "
                    "text it runs",
                    "assign PS4 one literal in single quotes ('+ ${LINENO}: ')",
                )
                continue
            if "\\" in text:
                self.hazard(
                    ReparsedAsShell,
                    None,
                    node.start_byte,
                    "PS4's value holds a backslash, and bash decodes a prompt's escapes "
                    "(`\\044` is `$`) before it expands the value before every command the "
                    "trace prints, so the text it runs is not the text written",
                    "assign PS4 one literal in single quotes with no backslash ('+ ${LINENO}: ')",
                )
                continue
            if "$" in text or "`" in text:
                body = f"cat <<{_PS4_END}\n{text}\n{_PS4_END}\n"
                self.nested(
                    Word(node.start_byte, node.end_byte, None, [], "", (body, None)),
                    None,
                    "PS4's value",
                )
        for found in re.finditer(rb"(?<![\w${])PS4\b", self.src):
            if found.start() not in assigned:
                self.hazard(
                    ReparsedAsShell,
                    None,
                    found.start(),
                    "PS4 is set here in a way the analysis does not follow, and bash expands "
                    "its value before every command the trace prints",
                    "assign PS4 one literal in single quotes ('+ ${LINENO}: '), or leave it",
                )
                return

    def _assignment(self, node: Node) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None:
            return
        entry = _relative_search_entry(node_text(self.src, name), node_text(self.src, value))
        if entry is not None and (
            writable_text(entry) or entry.startswith("~") or self.works_in_writable()
        ):
            # (a relative entry is the author's folder while the script
            # works only in folders no step writes: PYTHONPATH=src)
            self.hazard(
                CodeSelectingVariable,
                None,
                value.start_byte,
                f"`{node_text(self.src, name)}` gets the entry `{entry}`, relative to the folder "
                "a command works in or a place a step may write, and programs are found (or "
                "modules loaded) there",
                "list absolute folders no step writes (the author's), and keep `$PATH` as it is",
            )
        target = (
            node_text(self.src, name.child_by_field_name("name") or name)
            if name.type == "subscript"
            else node_text(self.src, name)
        )
        if node.parent is not None and node.parent.type == "command":
            return  # for one command only: its grammar's environment (`_env_prefixes`)
        occs = self.occs_in(value.start_byte, value.end_byte)
        declared = node.parent is not None and node.parent.type == "declaration_command"
        exported = (
            (target in self.taint.clean and target not in _SHELL_ONLY)
            or target in self._exported_names()
            or self._all_export()
        )
        if occs:
            selecting = CodeSelectingVariable.assignment(target, occs, self.locate(occs[0].start))
            if selecting is not None:
                self.hazards.append(selecting)
                return
            if exported and not declared:
                self._exported(occs[0], target)
        elif exported and not declared:
            self._exported_place(target, value)

    def _wrapped_declaration(self, node: Node) -> None:
        """``builtin export V=…``, ``command declare -x V=…``: the builtin
        behind ``builtin``/``command`` exports as it would alone."""
        arguments = list(node.children_by_field_name("argument"))
        name = node.child_by_field_name("name")
        texts = [static_text(self.src, a) for a in arguments]
        k = 0
        if name is None or node_text(self.src, name) not in ("builtin", "command"):
            return
        while k < len(texts) and texts[k] in ("builtin", "command", "-p", "--"):
            k += 1
        if k >= len(texts) or texts[k] not in ("export", "declare", "typeset", "local", "readonly"):
            return
        keyword = texts[k]
        flags = "".join(t for t in texts[k + 1 :] if t is not None and t.startswith("-"))
        if keyword != "export" and "x" not in flags and not self._all_export():
            return
        for arg in arguments[k + 1 :]:
            occs = self.occs_in(arg.start_byte, arg.end_byte)
            match = re.match(r"[A-Za-z_][A-Za-z0-9_]*", node_text(self.src, arg))
            if occs and match is not None:
                self._exported(occs[0], match.group(0))
            elif match is not None and node_text(self.src, arg)[match.end() :].startswith("="):
                self._exported_place(match.group(0), arg)  # builtin export V=/dev/shm/x
            elif match is not None and match.end() == len(node_text(self.src, arg)):
                self._exported_declared(arg)  # command export V

    def _all_export(self) -> bool:
        """``set -a`` (``set -o allexport``): every assignment is exported."""
        return bool(_ALLEXPORT.search(self.text))

    def place_text(self, word: Word, depth: int = 2) -> str | None:
        """The text of `word` as written, with each ``$NAME`` that one
        assignment sets (`set_once`) replaced by that assignment's text, and
        each ``for`` variable by the words it loops over (joined by ``:``,
        a list): what names a place a step may write through a variable
        (``rc="$HARBOR_RUN_DIR/netrc"`` … ``"$rc"``) names it still."""
        raw = self.src[word.start : word.end].decode("utf-8", "replace")
        if not raw:  # an argv: element, with no script text around it
            raw = word.script[0] if word.script is not None else (word.static or "")
        text: str | None = self._substituted(raw, depth) if raw else word.static
        if text is not None:
            text = self._unfollowed(text)
        if self._reads_std_out is None:
            self._reads_std_out = re.search(r"(?<![0-9])[12]<", self.text) is not None
        if text is not None and not self._reads_std_out:
            # /dev/stdout, /dev/stderr: written to, unless the script opens
            # them for reading (1< FILE)
            text = re.sub(r"/dev/std(?:out|err)\b", "/dev/null", text)
        return text

    def _unfollowed(self, text: str) -> str:
        """`text` with the name it starts with (after quotes, an option's
        head or a KEY=) replaced by a temporary folder when the script sets
        that name in a way not followed here (``read``, ``mapfile``, ``printf
        -v``): where it points is not shown, so it may be a place."""
        return _UNFOLLOWED_START.sub(
            lambda m: (
                m.group(1) + "/tmp/unfollowed"
                if (m.group(2) or m.group(3)) in self.unmodeled
                and (m.group(2) or m.group(3)) not in self.taint.clean
                else m.group(0)
            ),
            text,
            count=1,
        )

    def _resolved(self, text: str) -> str:
        """`text` as `place_text` reads it: variables replaced where they
        can be (`_substituted`), an unfollowed start made a place."""
        return self._unfollowed(self._substituted(text, 2))

    def _substituted(self, text: str, depth: int) -> str:
        def value(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            assigned = self.set_once(name)
            if assigned is not None and assigned.type == "array":
                # cfgs=(/dev/s[h]m/x/*.c) … "${cfgs[0]}": any of its words
                return ":".join(
                    self._substituted(re.sub(r"^\[[^]]*\]=", "", node_text(self.src, c)), depth - 1)
                    for c in assigned.named_children
                )
            if assigned is not None:
                return self._substituted(node_text(self.src, assigned), depth - 1)
            loops = [
                node
                for node in (self.script.of_type("for_statement") if self.script else ())
                if (v := node.child_by_field_name("variable")) is not None
                and node_text(self.src, v) == name
            ]
            if loops:
                return ":".join(
                    self._substituted(node_text(self.src, w), depth - 1)
                    for loop in loops
                    for w in loop.children_by_field_name("value")
                )
            return match.group(0)

        if depth <= 0:
            return text
        return _NAMED_EXPANSION.sub(value, text)

    def own_run_path(self, text: str) -> bool:
        """`text` (a path, as `place_text` gives it) names a file or folder
        of the run directory the run's own steps make (`own_run_path`), and
        no step of the export may put caller data in the run directory
        (`own_run_dir`): what is there is the author's."""
        if not own_run_path(text):
            return False
        self.run_paths_met = True
        return self.own_run_dir

    def _foreign_piece(self, text: str, beside_secret: bool = False) -> str | None:
        """The first piece of a variable's value (`place_pieces`) that names
        a place a step may write and is not the author's own path of the run
        directory (`own_run_path`, `own_run_path_beside_secret` for a
        command that gets a secret); None when none is."""
        own = self.own_run_path_beside_secret if beside_secret else self.own_run_path
        return next((p for p in place_pieces(text) if not own(p)), None)

    def own_run_path_beside_secret(self, text: str) -> bool:
        """`own_run_path` for a command that gets a secret: only when no step
        writes text of the author's into the run directory either, where a
        config the grammar cannot read (``trace-ascii = "-"`` in a
        ``.curlrc``, ``debug = on`` in a ``wgetrc``) would print or send
        the secret; what the programs write there themselves (``docker
        login``'s ``config.json``) is theirs."""
        return self.own_run_path(text) and not self.run_dir_texts

    def writes_text_to_run_dir(self) -> bool:
        """A command of the script may write text of the author's into the
        run directory: a redirection to a file there (or to a file whose
        path the analysis does not show to be elsewhere), or a program that
        copies, links or tees into it (``cp``, ``ln``, ``install``, ``mv``,
        ``tee``, ``dd``, ``rsync``, ``tar``), or a language's program."""
        if self.script is None:
            return True
        for _redirect, dest in writing_redirects(self.script):
            text = self.place_text(self.word(dest)) or node_text(self.src, dest)
            bare = text.replace('"', "").replace("'", "")
            if bare.startswith("/") and not names_place(bare):
                continue  # /dev/null, /etc/…: not the run directory
            if "HARBOR_RUN_DIR" in bare or not bare.startswith(("/", "~")):
                return True
        for node in self.script.of_type("command"):
            name = node.child_by_field_name("name")
            program = static_text(self.src, name) if name is not None else None
            if program is None:
                return True
            words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
            base = program.rsplit("/", 1)[-1]
            if grammars.is_language(base, words) and self._writes_any(node):
                return True
            if base in _COPIES_IN and any(
                "HARBOR_RUN_DIR" in (self.place_text(self.word(a)) or node_text(self.src, a))
                for a in node.children_by_field_name("argument")
            ):
                return True
        return False

    def fills_run_dir(self) -> bool:
        """A command of the script may put caller data in the run directory:
        its pipeline (or the statement a redirection writes) holds caller
        data or names a place other than the author's own paths of the run
        directory (a temporary folder, home, the server's files such as
        ``$HARBOR_CONTEXT`` and ``inputs/``), and its program may write a
        file (`grammars.writes_no_file` says otherwise) or a redirection of
        it writes one. Proven otherwise by construction only: where a
        command writes is not followed (a program told to write
        ``$HARBOR_RUN_DIR/../x`` or to a caller's name is such a command
        too)."""
        if self.script is None:
            return True
        callers = any(not names_nothing(o.model) for o in self.occs)
        if callers and _EXEC_WORD.search(self.text):
            # exec >FILE (through `command`, `builtin`, eval's or trap's
            # text too): every later command's output goes there
            return True
        for node in self.script.of_type("command"):
            name = node.child_by_field_name("name")
            program = static_text(self.src, name) if name is not None else None
            if program is not None and grammars.is_language(
                program.rsplit("/", 1)[-1],
                [static_text(self.src, a) for a in node.children_by_field_name("argument")],
            ):
                # a language's program may read what no word shows (the
                # context file $HARBOR_CONTEXT names, its environment)
                if self._writes_any(node):
                    return True
                continue
            scope = node
            while scope.parent is not None and scope.parent.type in (
                "pipeline",
                "redirected_statement",
                "process_substitution",
                "command_substitution",
            ):
                scope = scope.parent
            if self._carries_other_data(scope) and self._writes_any(node):
                return True
        if callers and self.script.of_type("coproc_statement"):
            return True  # what is written to a coprocess is not followed
        for redirect, dest in writing_redirects(self.script):
            if static_text(self.src, dest) == "/dev/null":
                continue
            scope = redirect.parent if redirect.parent is not None else redirect
            if self._carries_other_data(scope):
                return True
        return False

    def _carries_other_data(self, scope: Node) -> bool:
        """`scope` holds caller data, or a word (a piece of one: ``include
        /tmp/o.mk`` in a printf format, a here-document's line) that names a
        place other than the author's own paths of the run directory: the
        author's text written there may name another file a program then
        reads (make's ``include``, git's ``[include]``), which is checked as
        the script's own words are."""
        if any(not names_nothing(o.model) for o in self.occs_in(scope.start_byte, scope.end_byte)):
            return True
        for node in walk(scope):
            if node.type in ("command", "declaration_command") and self._prints_variables(node):
                return True
            if node.type == "heredoc_body":
                if any(not own_run_path(p) for p in place_pieces(node_text(self.src, node))):
                    return True
                continue
            if node.type == "command":
                words = command_words(node) + [
                    value
                    for child in node.children
                    if child.type == "variable_assignment"
                    for value in child.children_by_field_name("value")
                ]
            elif node.type == "file_redirect":
                words = node.children_by_field_name("destination")
            else:
                continue
            for word in words:
                for text in (self.place_text(self.word(word)), node_text(self.src, word)):
                    bare = (text or "").replace('"', "").replace("'", "")
                    if any(not own_run_path(p) for p in place_pieces(bare)):
                        return True
                    if (
                        bare
                        and not bare.startswith(("/", "-", "$", "~"))
                        and self.works_in_writable(word.start_byte)
                    ):
                        return True  # a file of a working folder a step may write
        return False

    def _prints_variables(self, node: Node) -> bool:
        """`node` prints variables' values by their names, whatever the
        script expands: ``declare -p ARG_x`` (``typeset``, ``local``,
        ``readonly``, ``export`` with ``-p``), ``declare``, ``set`` or
        ``env`` alone, ``printenv``, ``compgen`` (its word lists and the
        names it completes are not followed). The runtime's caller
        variables (every ``ARG_*``, the claimed ``HARBOR_CALLER_*``) are
        among them."""
        if node.type == "declaration_command":
            words = [node_text(self.src, c) for c in node.children[1:]]
            return not words or "-p" in words or any(w.startswith("-") and "p" in w for w in words)
        name = node.child_by_field_name("name")
        program = static_text(self.src, name) if name is not None else None
        arguments = node.children_by_field_name("argument")
        if program in ("set", "env") and not arguments:
            return True
        return program in ("printenv", "compgen") or (
            program in ("declare", "typeset", "local", "readonly", "export")
            and any((static_text(self.src, a) or "").startswith("-p") for a in arguments)
        )

    def _writes_any(self, node: Node) -> bool:
        """The command `node` may write a file anywhere (`grammars.writes_no_file`)."""
        name = node.child_by_field_name("name")
        program = static_text(self.src, name) if name is not None else None
        if program is None:
            return True
        if program in self.functions:
            return False  # its body's commands are judged where they stand
        words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
        return not grammars.writes_no_file(program.rsplit("/", 1)[-1], words)

    def written_clean(self, word: Word) -> bool:
        """The file `word` names (its text as written) holds the author's
        text when the command it is given to runs: this script wrote it in
        full before, at its top level (where ``bash -e``, which every step
        runs under, ends the step if the write fails), with ``printf``,
        ``echo`` or ``cat`` of text with no caller data (secrets are the
        author's), and no other command of the script but that program's,
        ``rm`` and ``chmod`` names it. Whatever a step put there before is
        gone."""
        if self.script is None or word.end <= word.start or word.tainted:
            return False
        text = self._written_path(self.src[word.start : word.end].decode("utf-8", "replace"))
        root = self.script.root
        if _KEEPS_OLD_FILE.search(self.text):
            return False  # noclobber keeps a file that is there; +e goes on after a failed write
        reader = root.descendant_for_byte_range(word.start, word.end)
        command = reader
        while command is not None and command.type != "command":
            command = command.parent
        if command is None:
            return False
        program = command.child_by_field_name("name")
        reader_name = node_text(self.src, program) if program is not None else ""
        writer: Node | None = None
        for redirect in self.script.of_type("file_redirect"):
            destination = redirect.child_by_field_name("destination")
            if destination is None or self._written_path(node_text(self.src, destination)) != text:
                continue
            statement = redirect.parent
            if statement is None or self.occs_in(statement.start_byte, statement.end_byte):
                return False
            body = statement.child_by_field_name("body")
            name = body.child_by_field_name("name") if body is not None else None
            operator = node_text(self.src, redirect.children[0]) if redirect.children else ""
            if (
                writer is None
                and operator in (">", ">|")
                and name is not None
                and node_text(self.src, name) in ("printf", "echo", "cat")
                and _at_top_level(statement)
                and statement.end_byte <= command.start_byte
            ):
                writer = statement
        if writer is None:
            return False
        for other in self.script.of_type("command"):
            if other.start_byte >= writer.start_byte and other.end_byte <= writer.end_byte:
                continue
            name = other.child_by_field_name("name")
            mentions = any(
                self._written_path(node_text(self.src, a)) == text
                for a in other.children_by_field_name("argument")
            )
            named = node_text(self.src, name) if name is not None else ""
            if mentions and named not in (reader_name, "rm", "chmod"):
                return False
        return True

    def _written_path(self, text: str) -> str:
        """The path a word's `text` names, as written: its quotes removed,
        an option's head (``--config=``, never a ``KEY=``) dropped, the variables that one
        assignment sets replaced by their text (`place_text`)."""
        path = path_as_written(self._substituted(text, 2))
        # an option's head only: a KEY= setting's file (git -c
        # include.path=F) is not one the exception covers
        head = re.match(r"--?[A-Za-z0-9][A-Za-z0-9_.-]*=", path)
        return path[head.end() :] if head is not None else path

    def _exported_names(self) -> frozenset[str]:
        """The names some ``export``/``declare -x`` (``local -x``, ``builtin
        export``…) of the script gives the export attribute, anywhere in
        it: an assignment to one, before or after, reaches the environment
        of every program the step starts later."""
        if self._memo_exported is not None:
            return self._memo_exported
        names: set[str] = set()
        for node in self.script.of_type("declaration_command") if self.script else ():
            keyword = node_text(self.src, node.children[0]) if node.children else ""
            flags = "".join(
                node_text(self.src, c)
                for c in node.children[1:]
                if node_text(self.src, c).startswith("-")
            )
            if keyword != "export" and "x" not in flags:
                continue
            for child in node.children[1:]:
                target = (
                    child.child_by_field_name("name")
                    if child.type == "variable_assignment"
                    else child
                )
                text = node_text(self.src, target) if target is not None else ""
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
                    names.add(text)
        for node in self.script.of_type("command") if self.script else ():
            words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
            name = node.child_by_field_name("name")
            if name is None or node_text(self.src, name) not in ("builtin", "command"):
                continue
            rest = [w for w in words if w not in ("builtin", "command", "-p", "--")]
            if (
                rest
                and rest[0] in ("export", "declare", "typeset", "local", "readonly")
                and (rest[0] == "export" or any(w and w.startswith("-") and "x" in w for w in rest))
            ):
                for word in rest[1:]:
                    match = re.match(r"[A-Za-z_][A-Za-z0-9_]*", word or "")
                    if match is not None:
                        names.add(match.group(0))
        self._memo_exported = frozenset(names)
        return self._memo_exported

    def _exported_place(self, name: str, value: Node) -> None:
        """H012 when the value given to the exported variable `name` names a
        place a step may write (``export HOME=/dev/shm/h``, ``export
        GIT_DIR=$HARBOR_RUN_DIR/r``): every program the step starts later
        sees it, and what a program finds there (``~/.gitconfig``, a
        repository's config) is the caller's, whatever name it reads."""
        if TEMP_VARIABLE.search(name):
            return  # TMPDIR=…: where programs make new files
        piece = self._foreign_piece(self._resolved(node_text(self.src, value)))
        if piece is None:
            return
        self.hazard(
            NoGrammarPosition,
            None,
            value.start_byte,
            f"`{piece[:60]}`, a place a step may write, is exported in {name} to every "
            "program the step starts after it, and a program may read its settings or code "
            "from there (what a step wrote is the caller's)",
            "point the variable at a folder no step writes (the export's own), or give it "
            f"to the one command whose grammar reads it as data: {name}=… command …",
        )

    def _exported(self, occ: Occ, name: str) -> None:
        if occ.model.words is not None or occ.model.numeric:
            return  # the author's own words, or a number
        self.hazard(
            NoGrammarPosition,
            occ.arg or None,
            occ.start,
            f"caller data is exported in {name} to every program the step starts after it, "
            "whatever each one reads that variable as",
            f'pass it to the one command that needs it: {name}="$VALUE" command …',
        )

    def _declaration(self, node: Node) -> None:
        words = [
            c
            for c in node.children
            if c.type in ("word", "variable_name", "concatenation", "string", "raw_string")
        ]
        flags = "".join(
            node_text(self.src, w) for w in words if node_text(self.src, w).startswith("-")
        )
        keyword = node_text(self.src, node.children[0]) if node.children else ""
        exports = keyword == "export" or "x" in flags or self._all_export()
        for child in node.children:
            occs = self.occs_in(child.start_byte, child.end_byte)
            if not occs and exports:
                self._exported_declared(child)
            if not occs:
                continue
            if exports and child.type in ("variable_assignment", "variable_name", "word"):
                target = (
                    child.child_by_field_name("name")
                    if child.type == "variable_assignment"
                    else child
                )
                self._exported(occs[0], node_text(self.src, target) if target is not None else "")
                continue
            if child.type == "variable_assignment":
                value = child.child_by_field_name("value")
                target = child.child_by_field_name("name")
                array = (
                    "a" in flags
                    or "A" in flags
                    or (target is not None and node_text(self.src, target) in self.arrays)
                )
                if (
                    array
                    and value is not None
                    and value.type not in ("array",)
                    and _reparsed_as_array(self.src, value, occs)
                ):
                    self.hazard(
                        ReparsedAsShell,
                        occs[0].arg,
                        occs[0].start,
                        f"`{node_text(self.src, node.children[0])}` parses a value that starts "
                        "with `(` again, as a compound array assignment, where `$(…)` in it runs",
                        'assign the array literally (a=("$ARG")), or split the value with '
                        "`read -ra`",
                    )
                    continue
                if "n" in flags:
                    self.hazard(
                        ValueAsName,
                        occs[0].arg,
                        occs[0].start,
                        "the value names the variable a nameref points to",
                        "do not build namerefs from caller values",
                    )
                continue
            if child.type in _NAME_OPERANDS and not all(names_only(o.model) for o in occs):
                self.hazard(
                    ValueAsName,
                    occs[0].arg,
                    occs[0].start,
                    f"the value is an operand of `{node_text(self.src, node.children[0])}`, which "
                    "takes variable names",
                    "use a fixed variable name and assign the value to it",
                )

    def _exported_declared(self, child: Node) -> None:
        """A word of an exporting declaration that holds no caller data in
        its own text: ``export NAME`` exports whatever NAME holds anywhere
        in the script (the followed taint is the whole script's), and
        ``export NAME=/dev/shm/x`` a place a step may write."""
        if child.type == "variable_assignment":
            name = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            if name is not None and value is not None:
                self._exported_place(node_text(self.src, name), value)
            return
        if child.type not in ("variable_name", "word"):
            return
        name_text = node_text(self.src, child)
        held = self.taint.variables.get(name_text)
        if held is not None:
            self._exported(
                Occ(held[0], "env", held[1], child.start_byte, child.end_byte, child, name_text),
                name_text,
            )

    def _redirect(self, node: Node) -> None:
        dest = node.child_by_field_name("destination")
        if dest is None or dest.type == "process_substitution":
            return
        occs = [
            o for o in self.occs_in(dest.start_byte, dest.end_byte) if o.arg != CALLER_FILE_SOURCE
        ]
        if occs:
            self.report(CallerChosenPath.redirect(occs, self.locate(occs[0].start)))

    def _unary(self, node: Node) -> None:
        op = node.child_by_field_name("operator")
        if op is None or node_text(self.src, op) != "-v":
            return
        occs = self.occs_in(node.start_byte, node.end_byte)
        if occs and not all(names_only(o.model) for o in occs):
            self.hazard(
                ValueAsName,
                occs[0].arg,
                occs[0].start,
                "`-v` takes a variable name (with a subscript that bash evaluates)",
                "test a fixed variable name",
            )

    # -- nested scripts
    def nested(
        self,
        word: Word,
        positional: tuple[str, ValueModel] | None,
        what: str,
        *,
        posix: bool = False,
    ) -> None:
        """Analyse the text of `word` as a shell script of its own. `posix`:
        a shell other than bash reads it (``sh -c``, a command line a
        program hands to ``/bin/sh``, a remote shell), where bash's own
        quoting of caller data (``printf %q``, ``${x@Q}``) is no quoting
        once the value may hold a character it writes as ``$'…'`` (a tab, a
        newline, any byte not printable ASCII): dash reads ``$'\t\''`` as
        ``$`` and a string, and what follows runs."""
        if word.script is None:
            self.hazard(
                ReparsedAsShell,
                word.arg or None,
                word.start,
                f"{what} is built at run time, so the checker cannot see the code it runs",
                "write the script as one literal string and pass caller values as "
                "positional parameters: sh -c '… \"$1\" …' _ {{ args.x | shellquote }}",
            )
            return
        text, sentinels = word.script
        if posix and sentinels is not None:
            sentinels = _posix_reading(sentinels)
        taint = Taint(dict(self.taint.variables), positional, self.clean_names())
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
        inner.cwd_written = self.works_in_writable(word.start)
        inner.own_run_dir = self.own_run_dir
        inner.run_dir_texts = self.run_dir_texts
        inner.run()
        self.run_paths_met = self.run_paths_met or inner.run_paths_met


#: ``exec`` as a word anywhere in a script (``command exec >>F``, ``eval
#: 'exec >F'``): the shell's own output may go to a file from there on.
_EXEC_WORD = re.compile(r"(?<![\w-])exec(?![\w-])")

#: Programs that put a file's or their input's content at a path they are
#: given (`_Analysis.writes_text_to_run_dir`).
_COPIES_IN = frozenset({"cp", "ln", "install", "mv", "tee", "dd", "rsync", "tar", "unzip"})

#: What bash's ``%q`` and ``@Q`` write in a form every POSIX shell reads
#: alike (a backslash or single quotes): printable ASCII.
_POSIX_QUOTABLE = frozenset(chr(c) for c in range(0x20, 0x7F))


def _posix_reading(sentinels: Sentinels) -> Sentinels:
    """`sentinels` as a shell other than bash reads them: a value bash
    quoted itself (`TaintedScript._quoted_sentinel`) whose text may hold a
    character outside printable ASCII is the caller's raw text there."""
    table = {
        word: (
            replace(sentinel, shellquote=False)
            if word.startswith(QUOTED_SENTINEL)
            and sentinel.shellquote
            and not sentinel.model.chars <= _POSIX_QUOTABLE
            else sentinel
        )
        for word, sentinel in sentinels.by_word.items()
    }
    return replace(sentinels, by_word=table)


#: The delimiter of the here-document PS4's value is analysed as.
_PS4_END = "HARBOR_PS4_END"


#: A name with a subscript, as a builtin takes it (``a[$i]``, ``a[$i]=v``):
#: the subscript is group 1.
_SUBSCRIPTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[(.*)\](?:\+?=.*)?", re.S)


#: bash's builtins and keywords the analysis reads by name (bash(1), SHELL
#: BUILTIN COMMANDS), besides the programs with a grammar or a role.
_BUILTIN_NAMES = frozenset(
    {"read", "mapfile", "readarray", "printf", "echo", "test", "[", "declare", "typeset",
     "local", "export", "readonly", "unset", "set", "shift", "eval", "source", ".", "trap",
     "exec", "command", "builtin", "cd", "pushd", "popd", "wait", "kill", "let", "getopts",
     "exit", "return", "continue", "break", "enable", "alias", "hash", "type", "shopt",
     "true", "false", ":", "umask", "ulimit"}
)  # fmt: skip


#: Every name the checker reads a program's facts by: the programs with a
#: grammar (``git`` of ``git log`` too), a role, or credential places.
_READ_BY_NAME = (
    _BUILTIN_NAMES
    | {key.split(" ", 1)[0] for key in grammars.GRAMMARS}
    | set(grammars.SUBCOMMANDS)
    | set(sinks.WRAPPERS)
    | set(sinks.EVAL_LIKE)
    | set(sinks.INTERPRETERS)
    | set(sinks.SHELLS)
    | set(CREDENTIALS)
)


def shadows_program(name: str) -> bool:
    """A function named `name` stands in for a program or builtin whose
    grammar, role or output the checker reads by that name (a program
    called by its path, ``/usr/bin/cut``, is read by its basename, and
    bash lets a function have that path for a name)."""
    base = name.rsplit("/", 1)[-1]
    return base in _READ_BY_NAME or grammars.normal_program(base) in _READ_BY_NAME


def _lists_keys(src: bytes, node: Node) -> bool:
    """`node` is the subscript of ``${!a[@]}`` or ``${!a[*]}``: bash lists
    the keys of ``a`` (an indirection would read ``${!a[0]}``)."""
    if node.type != "subscript":
        return False
    index = node.child_by_field_name("index")
    return index is not None and node_text(src, index) in ("@", "*")


def _names_program_option(word: str) -> bool:
    """`word` gives the program inline (``-c``, ``-e``, ``-E``, ``-m``, or a
    cluster of short options holding one: ``perl -le``, ``bash -xc``): no
    operand is the script file."""
    if word.startswith("--") or not word.startswith("-"):
        return False
    return bool(set(word[1:]) & set("ceEm"))


def _reparsed_as_array(src: bytes, value: Node, occs: Sequence[Occ]) -> bool:
    """A declaration's value that may start with ``(`` once expanded:
    ``declare -a x="($ARG)"``, ``local -a x={{ args.x | shellquote }}``
    (bash parses the text again as ``(…)``)."""
    text = node_text(src, value)
    first = occs[0]
    before = src[value.start_byte : first.start].decode("utf-8", "replace")
    literal = before.lstrip("\"'$")
    if literal:
        return literal.startswith("(")
    return "(" in first.model.first or text.startswith("(")


# ------------------------------------------------------------------ entry points


def bash_refusal(error: str, where: Located) -> Hazard:
    """The H000 finding of a script bash cannot read: what it said (its first
    line, without bash's path), at `where`."""
    said = error.splitlines()[0] if error else ""
    said = _BASH_PREFIX.sub(r"line \1: ", said)[:160]
    return UnparseableTemplate.hazard(
        None,
        where,
        f"bash cannot read the script: {said}",
        "fix the shell syntax so that bash accepts the script (`bash -n` shows the same)",
    )


_BASH_PREFIX = re.compile(r"^\S*bash: line ([0-9]+): ")


def _bash_rejects(text: str, locate: Callable[[int], Located]) -> Hazard | None:
    """The H000 finding when bash cannot read `text` (`_reprint`), else None."""
    reading = reprint(text)
    return None if reading.error is None else bash_refusal(reading.error, locate(0))


@dataclass(frozen=True, slots=True)
class ScriptFacts:
    """What the analysis of one ``run:`` script found (`analyse_script_deferred`)."""

    hazards: list[Hazard]
    #: tree-sitter parsed the script (False: it already refused)
    parsed: bool
    #: every variable found carrying caller data, with its model
    tainted: dict[str, ValueModel]
    #: the commands that may put caller data in the folder the steps work in
    #: (`TaintedScript.working_tree_writers`)
    writers: list[tuple[int, int]]
    #: the first command that surely puts a file the caller named or filled
    #: there (`TaintedScript.caller_files`), if any
    caller_files: tuple[int, int] | None
    #: what the step's outputs can hold (`TaintedScript.output_model`;
    #: None: the author's text)
    outputs: ValueModel | None
    #: the files it writes with caller data (as written, normalized)
    filled: frozenset[str] = frozenset()
    #: a command may put caller data in the run directory (`fills_run_dir`)
    fills_run_dir: bool = True
    #: a program was given an author's path of the run directory (`own_run_path`)
    run_paths: bool = False
    #: a command may write the author's own text there (`writes_text_to_run_dir`)
    run_dir_texts: bool = True


def analyse_script_deferred(
    text: str,
    sentinels: Sentinels,
    arg_models: Mapping[str, ValueModel],
    programs: Mapping[str, sinks.Grammar] | None = None,
    environment: Collection[str] = (),
    cwd_written: bool = False,
    cwd_writers: Sequence[tuple[int, int]] = (),
    outputs: Mapping[str, ValueModel | None] | None = None,
    links: bool = False,
    filled: frozenset[str] = frozenset(),
    repository_written: bool = False,
    secret_commands: frozenset[int] = frozenset(),
    own_run_dir: bool = False,
    run_dir_texts: bool = True,
    run_dir_named: bool = True,
) -> ScriptFacts:
    """The hazards of one substituted ``run:`` script, without bash's own
    reading of `text` itself (nested scripts are read by bash here): the
    caller reads every script in batches (`mcp_harbor.check._reprint`) and
    judges them with `bash_refusal` and `analyse_reprint`. Returns what it
    found (`ScriptFacts`). `cwd_written`: another step of the export may (every relative path then
    names what the caller may have written); `cwd_writers`: these commands
    of this script may (found by a first analysis); `outputs`: what the
    earlier steps' outputs can hold (`initial_taint`); `links`: a step may
    put a link in the run directory or a temporary folder (`makes_links`);
    `filled`: the files earlier steps wrote with caller data;
    `repository_written`: a step may write caller data into the repository
    (`writes_repository`); `secret_commands`: where the commands that get a
    secret start (`mcp_harbor.check._secrets.secret_hazards`); `own_run_dir`:
    no step of the export may put caller data in the run directory
    (`_Analysis.fills_run_dir` of every step), so the author's paths there
    are no places; `run_dir_texts`: a step may write text of the author's
    there (then, beside a secret, they stay places); `run_dir_named`: some
    step of the export names the run directory (else what its commands may
    write there is not asked)."""
    hazards: list[Hazard] = []
    taint = initial_taint(text, arg_models, environment, outputs)
    analysis = _Analysis(text, sentinels, taint, sentinels.locate, hazards, 0, arg_models)
    analysis.programs = programs or {}
    analysis.bash_gate = False
    analysis.cwd_written = cwd_written
    analysis.cwd_writers = list(cwd_writers)
    analysis.links = links
    analysis.filled_before = filled
    analysis.repository_written = repository_written
    analysis.secret_commands = secret_commands
    analysis.own_run_dir = own_run_dir
    analysis.run_dir_texts = run_dir_texts
    analysis.run()
    writes = analysis.working_tree_writers() if analysis.parsed else []
    tainted = {k: v[1] for k, v in taint.variables.items()}
    held = analysis.output_model() if analysis.parsed else any_model()
    return ScriptFacts(
        hazards,
        analysis.parsed,
        tainted,
        writes,
        analysis.caller_files,
        held,
        analysis.filled,
        # (only asked when some step of the export names the run directory:
        # no author's path there to accept otherwise)
        fills_run_dir=not (run_dir_named and analysis.parsed) or analysis.fills_run_dir(),
        run_paths=analysis.run_paths_met,
        run_dir_texts=not (run_dir_named and analysis.parsed) or analysis.writes_text_to_run_dir(),
    )


#: A line of bash's reprint that ends with a here-document's operator and
#: the ``|`` of a pipeline: bash prints the next stage after the body.
_HEREDOC_PIPE = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*\|\s*$")


def _piped_heredocs_joined(reprinted: str) -> str:
    """bash's reprint with each pipeline stage that it prints after a
    here-document's body (``psql <<'SQL' |`` NL body NL ``SQL`` NL ``column``)
    put back after the ``|``, where the script had it: the same bash text,
    in the form tree-sitter reads (it cannot read bash's)."""
    lines = reprinted.split("\n")
    joined: list[str] = []
    k = 0
    while k < len(lines):
        found = _HEREDOC_PIPE.search(lines[k])
        end = (
            lines.index(found.group(2), k + 1) if found and found.group(2) in lines[k + 1 :] else -1
        )
        if found is None or end < 0 or end + 1 >= len(lines) or not lines[end + 1].strip():
            joined.append(lines[k])
            k += 1
            continue
        joined.append(f"{lines[k]} {lines[end + 1].strip()}")
        joined.extend(lines[k + 1 : end + 1])
        k = end + 2
    return "\n".join(joined)


def analyse_reprint(
    reprinted: str,
    text: str,
    sentinels: Sentinels,
    arg_models: Mapping[str, ValueModel],
    programs: Mapping[str, sinks.Grammar] | None = None,
    *,
    only_new: bool = False,
    environment: Collection[str] = (),
    outputs: Mapping[str, ValueModel | None] | None = None,
    own_run_dir: bool = False,
    run_dir_texts: bool = True,
) -> list[Hazard]:
    """The hazards of bash's canonical reprint of `text` (`_reprint`): the
    analysis again, over what bash read. bash prints no comments, so a
    comment tree-sitter finds in the reprint is a disagreement (H000).
    Findings point at the placeholder they concern, or at the script.

    With `only_new`, the caller keeps only hazards of a rule and arg that
    the analysis of `text` itself did not report (`mcp_harbor.check`'s
    `_finish`), so the analysis is not run when bash read exactly what was
    analysed (`_reads_alike`): it would repeat that analysis step for step,
    giving the same rules and args, only located differently. The comment
    check runs either way."""
    src = text.encode("utf-8")
    starts = {src[b0:b1].decode("utf-8", "replace"): c0 for b0, b1, c0, _c1 in sentinels.spans}
    reprinted = _piped_heredocs_joined(reprinted)
    out = reprinted.encode("utf-8")

    def locate(byte: int) -> Located:
        for word, c0 in starts.items():
            at = out.rfind(word.encode(), 0, byte + len(word))
            if at >= 0 and at <= byte < at + len(word):
                return sentinels.where, c0
        return sentinels.where, 0

    for node in _tree.parsed(reprinted).nodes:
        if node.type == "comment":
            return [
                UnparseableTemplate.hazard(
                    None,
                    locate(node.start_byte),
                    "tree-sitter reads part of bash's own reprint of the script as a comment "
                    f"({node_text(out, node)[:40]!r}), so the two parsers disagree about its "
                    "structure",
                    "write the line without a backslash before blanks or `#`, so that both "
                    "parsers read it alike",
                )
            ]
    if only_new and _reads_alike(text, reprinted):
        return []
    hazards: list[Hazard] = []
    taint = initial_taint(reprinted, arg_models, environment, outputs)
    analysis = _Analysis(reprinted, sentinels, taint, locate, hazards, 0, arg_models)
    analysis.programs = programs or {}
    analysis.bash_gate = False
    analysis.own_run_dir = own_run_dir
    analysis.run_dir_texts = run_dir_texts
    analysis.run()
    return hazards


def _reads_alike(text: str, reprinted: str) -> bool:
    """The analysis of `reprinted` is the analysis of `text` again, but for
    where its hazards point: the same text, or `text` and a final newline
    (bash's reprint always ends in one) that tree-sitter reads alike, every
    node but the root of the same type, span and number of children, and
    the same named nodes under the same fields.

    Why that suffices: the analysis reads the script only through its tree
    and the bytes inside node spans, besides lookups that a final newline
    cannot change (a sentinel word's offsets, the variable names the text
    mentions, the rest of a line, the path after ``$HARBOR_RUN_DIR``); no
    rule looks at the root's span; and where a hazard points (`locate`)
    never decides which hazards there are."""
    if reprinted == text:
        return True
    if reprinted != text + "\n":
        return False
    mine, bash = _tree.parsed(text), _tree.parsed(reprinted)
    if (
        mine.error is not None
        or bash.error is not None
        or len(mine.nodes) != len(bash.nodes)
        or mine.root.child_count != bash.root.child_count
        or str(mine.root) != str(bash.root)
    ):
        return False
    return all(
        a.type == b.type
        and a.start_byte == b.start_byte
        and a.end_byte == b.end_byte
        and a.child_count == b.child_count
        for a, b in zip(mine.nodes[1:], bash.nodes[1:], strict=True)
    )


def analyse_argv(
    elements: Sequence[tuple[str, Sentinels]],
    arg_models: Mapping[str, ValueModel],
    programs: Mapping[str, sinks.Grammar] | None = None,
    environment: Collection[str] = (),
    cwd_written: bool = False,
) -> list[Hazard]:
    """All hazards of one ``argv:`` step: no shell, so only roles matter.
    `cwd_written`: a step of the export may put caller data in the working
    folder (`TaintedScript.working_tree_writers`)."""
    hazards: list[Hazard] = []
    taint = initial_taint("\n".join(text for text, _ in elements), arg_models, environment)
    holder = _Analysis("", None, taint, lambda b: ((), 0), hazards, 0, arg_models)
    holder.programs = programs or {}
    holder.cwd_written = cwd_written
    words: list[Word] = []
    for text, sentinels in elements:
        occs = [
            Occ(info.arg, "raw", info.model, b0, b1, None)
            for word, info in sentinels.by_word.items()
            for b0, b1, _c0, _c1 in sentinels.spans
            if text.encode("utf-8")[b0:b1] == word.encode()
        ]
        occs.sort(key=lambda o: o.start)
        prefix = text.encode("utf-8")[: occs[0].start].decode("utf-8", "replace") if occs else ""
        where = sentinels.locate(occs[0].start) if occs else (sentinels.where, 0)
        words.append(Word(0, 0, None if occs else text, occs, prefix, (text, sentinels), where))
    Resolver(holder, None).command(words, 0)
    if cwd_written:
        hazards += _argv_code_file(elements)
    return hazards


def _filled_at(
    path: str, written: Mapping[str, tuple[Occ, tuple[str, Sentinels | None] | None]]
) -> tuple[Occ, tuple[str, Sentinels | None] | None] | None:
    """What the script wrote with caller data at `path`, or in the folder
    `path` names (a module path: ``jq -L DIR``)."""
    if path in written:
        return written[path]
    inside = path.rstrip("/") + "/"
    found = next((entry for key, entry in written.items() if key.startswith(inside)), None)
    return None if found is None else (found[0], None)


def _argv_code_file(elements: Sequence[tuple[str, Sentinels]]) -> list[Hazard]:
    """H004 on an ``argv:`` step that runs a relative file as code (``./x``,
    ``sh scripts/x.sh``, ``python3 tool.py``) in a working folder a step
    may have put caller data in: what a step wrote is the caller's."""
    texts = [text for text, _ in elements]
    head = texts[0].rsplit("/", 1)[-1]
    target: int | None = None
    if "/" in texts[0] and not texts[0].startswith("/"):
        target = 0
    elif shell_name(head) or head in _SCRIPT_RUNNERS:
        for k, text in enumerate(texts[1:], start=1):
            if _names_program_option(text):
                break
            if text == "-" or not text.startswith("-"):
                target = None if text == "-" or text.startswith("/") else k
                break
    if target is None:
        return []
    return [
        ReparsedAsShell.hazard(
            None,
            elements[target][1].locate(0),
            f"`{texts[target][:60]}` is run as code, and a step may have put caller data in "
            "the working folder: what a step wrote is the caller's",
            "keep the code in a file no step writes, or keep the files made from caller data "
            "in $HARBOR_RUN_DIR",
        )
    ]
