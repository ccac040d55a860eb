"""Where caller data is in one script: occurrences, taint and renderings.

`TaintedScript` holds one script text (a ``run:`` step, a nested script or
bash's reprint of one) and finds, over its tree (`mcp_harbor.check._tree`):

- every *occurrence* of caller data (`mcp_harbor.check._facts.Occ`): the
  placeholders' sentinel words, expansions of variables carrying caller data
  and ``$(…)`` around them;
- which variables carry caller data, to a fixpoint: ``ARG_<name>``, step
  outputs and the step environment registry's caller variables
  (`initial_taint`), then whatever is assigned from them, read into by
  ``read`` or set by ``printf -v``, and the positional parameters of
  functions called with caller data;
- variables that only ever hold one literal (``PYTHON=python3``), so that a
  command word reading one is that literal;
- the text bash builds from caller data it quotes itself (``${x@Q}``,
  printf's ``%q``), where each value becomes a shellquote sentinel so that a
  nested analysis (``eval``, a sourced file) sees where it lands;
- the words of a command line with their occurrences, and the caller data
  that reaches a command's standard input.

Guarantees: taint only grows (an assignment never clears it), so a variable
is tainted when any path could give it caller data; a sentinel in a node
type the checker does not know is an H000 hazard and stops the analysis of
that script (`TaintedScript.find_caller_data` returns False). The checks on
these facts are `mcp_harbor.check._analysis` and `mcp_harbor.check._roles`.
"""

from __future__ import annotations

import codecs
import posixpath
import re
import shlex
import string
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from tree_sitter import Node

from mcp_harbor.check import _literals, _python, grammars, sinks
from mcp_harbor.check._arithmetic import INT_MAX, INT_MIN, Range, expression_range
from mcp_harbor.check._facts import (
    Hazard,
    Located,
    Occ,
    Sentinel,
    Sentinels,
    Taint,
    Word,
    any_model,
)
from mcp_harbor.check._guards import (
    RUNS_BETWEEN,
    assigned_arithmetic,
    matched_digit_group,
    matched_digits,
    matched_pattern,
)
from mcp_harbor.check._tree import (
    IDENT,
    VARIABLE,
    Parsed,
    ancestors,
    dequoted_prefix,
    dq_unescape,
    expansion_target,
    node_text,
    normal_path,
    static_text,
)
from mcp_harbor.check._tree import (
    parsed as _tree_parsed,
)
from mcp_harbor.check._tree import (
    walk as walk_nodes,
)
from mcp_harbor.check._values import SAFE_CHARS, ValueModel, intersect, words_model
from mcp_harbor.check.credentials import reads_credential_file, takes_credential
from mcp_harbor.check.rules import Rule, UnparseableTemplate
from mcp_harbor.step_env import RUN_DIR_ENTRIES

__all__ = [
    "CALLER_FILE_SOURCE",
    "CALLER_SOURCE",
    "LINK_MAKERS",
    "MADE_TEMP",
    "NAME_WRITERS",
    "ONE_LITERAL_WORD",
    "PATH_HEAD",
    "QUOTED_SENTINEL",
    "STEP_OUTPUT",
    "TEMP_VARIABLE",
    "TaintedScript",
    "extracts",
    "initial_taint",
    "makes_links",
    "names_nothing",
    "names_place",
    "own_run_path",
    "place_pieces",
    "printf_escapes",
    "puts_caller_files",
    "writable_piece",
    "writable_text",
    "writes_repository",
    "writing_redirects",
]

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
#: First characters of an author's prefix the model can keep (never `-`).
#: A value that starts with a variable's expansion and the author's text
#: after it (``"$REGISTRY_HOST/team/``): the name, and that text.
_CLEAN_LEAD = re.compile(r'^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?([^$`\\"]+)')
_SAFE_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+=,(")

#: A printf conversion (flags, width, precision, then the letter), or %%.
_PRINTF_DIRECTIVE = re.compile(r"%%|%[-+ #0]*[0-9]*(?:\.[0-9]*)?[diouxXfFeEgGcsqb]")
#: Server values of safe characters only (run id, tool and step names).
_SERVER_WORDS = frozenset({"HARBOR_RUN_ID", "HARBOR_TOOL", "HARBOR_STEP"})


def printf_escapes(text: str) -> str:
    """printf's backslash escapes in the literal parts of a format."""
    try:
        return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return text


#: A command word that only reads a variable: "$V", ${V}, "${V[@]}"…
#: Nothing after ``${m[$k]``, or a default of the author's literal text
#: (``:-0``, ``-none``): the expansion is one of m's values or that text.
_LITERAL_DEFAULT = re.compile(r"(?::?-[A-Za-z0-9_.,/+ -]*)?")
_CONSTANT_USE = re.compile(
    r'"?\$(?:(?P<bare>[A-Za-z_][A-Za-z0-9_]*)|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)'
    r'(?P<all>\[[@*]\])?\})"?'
)


# ------------------------------------------------------------ taint sources

#: What the step environment registry's caller variables carry (the arg of a
#: hazard they cause is this source).
CALLER_SOURCE = "caller"
#: Server-chosen paths of files whose contents are the caller's
#: (``$HARBOR_CONTEXT``): what is read from them carries caller data.
CALLER_FILE_SOURCE = "caller-file"
_SERVER_PATH = ValueModel(SAFE_CHARS, frozenset("/"), False)
#: Outputs of earlier steps (``STEP_<name>_<key>``) may carry caller data; only
#: the runtime's own ``_EXIT`` and ``_STATUS`` variables are inert.
_STEP_VAR = re.compile(r"\bSTEP_[A-Za-z0-9_]+")
#: The "arg" of caller data that is no arg's own: a value the checker cannot
#: show to be the author's (an unknown or special variable, a program's
#: output, an indirect expansion). Findings about it name no arg.
UNPROVEN = ""
#: The source of an earlier step's output.
STEP_OUTPUT = "step-output"


#: The text of a claimed identity (`step_env.CLAIMED`): printable ASCII.
_CLAIMED_TEXT = ValueModel(
    frozenset(chr(c) for c in range(0x20, 0x7F)),
    frozenset(chr(c) for c in range(0x20, 0x7F)),
    True,
)


def _registry_taint(text: str) -> dict[str, tuple[str, ValueModel]]:
    """The caller-influenced variables of the step environment registry
    (`mcp_harbor.step_env`) that `text` mentions."""
    from mcp_harbor import step_env

    found = {
        name: (CALLER_SOURCE, any_model()) for name in step_env.caller_variables() if name in text
    }
    # an identity provider's claim: one line of printable text (control
    # characters are escaped), chosen by whoever controls the claim
    found.update(
        (name, (CALLER_SOURCE, _CLAIMED_TEXT)) for name in step_env.CLAIMED if name in text
    )
    # A server-chosen absolute path whose file contents are the caller's:
    # what a command reads from it carries caller data (`$(cat "$HARBOR_CONTEXT")`).
    found.update(
        (name, (CALLER_FILE_SOURCE, _SERVER_PATH))
        for name in step_env.caller_file_variables()
        if name in text
    )
    return found


def _step_outputs(
    text: str,
    outputs: Mapping[str, ValueModel | None] | None = None,
    passed: Collection[str] = (),
) -> tuple[dict[str, tuple[str, ValueModel]], set[str]]:
    """Taint every ``STEP_…`` variable a script mentions, but the inert ones
    and those `outputs` shows to be the author's. `outputs`: for each
    earlier step, by name, what its outputs can hold (None: the author's
    text; `TaintedScript.output_model`); a variable whose step it does not
    know may hold anything, and one two step names could read (steps ``a``
    and ``a_b`` both make ``STEP_a_b_c``) holds what either can. A name
    in `passed` (the export's ``pass_env:``) that no earlier step makes is
    the server's: the loader lets ``pass_env:`` name a ``STEP_…`` variable
    only when no step of the export could make it (``STEP_CA_URL``)."""
    found: dict[str, tuple[str, ValueModel]] = {}
    clean: set[str] = set()
    for name in {m.group(0) for m in _STEP_VAR.finditer(text)}:
        if name.endswith(("_EXIT", "_STATUS")):
            continue
        steps = [s for s in outputs or {} if name.startswith(f"STEP_{s}_")]
        if not steps and name in passed:
            clean.add(name)
            continue
        if not steps:
            found[name] = (STEP_OUTPUT, any_model())
            continue
        model: ValueModel | None = None
        for step in steps:
            held = (outputs or {})[step]
            if held is not None:
                model = held if model is None else model.union(held)
        if model is not None:
            found[name] = (STEP_OUTPUT, model)
        else:
            clean.add(name)
    return found, clean


#: What bash itself sets to a number or to its own fixed text: never the
#: caller's (unless the script writes one in a way the analysis does not
#: model, which makes it the caller's like any other name: `_proven_clean`).
_BASH_OWN = frozenset(
    {
        *("?", "$", "!", "#", "-", "0", "LINENO", "RANDOM", "SRANDOM", "SECONDS", "BASHPID"),
        *("PPID", "UID", "EUID", "EPOCHSECONDS", "EPOCHREALTIME", "OPTIND", "OPTERR"),
        *("HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "BASH", "BASH_VERSION", "SHLVL"),
        *("BASH_VERSINFO", "PIPESTATUS", "IFS", "GROUPS", "BASH_SUBSHELL", "BASH_LINENO"),
    }
)
#: Absolute paths bash keeps up to date: a ``cd`` may have taken the caller's
#: path, so they are the caller's text, but they always start with ``/``.
_BASH_PATHS = frozenset({"PWD", "OLDPWD"})
_ABSOLUTE_PATH = ValueModel(any_model().chars, frozenset("/"), False)
#: A whole number of the script's own arithmetic (``((n++))``, ``let``).
_NUMBER = ValueModel(frozenset(string.digits + "-"), frozenset(string.digits + "-"), False, True)
#: A count of lines, words or bytes (``wc``, ``grep -c``): digits, below
#: 2**53 (no file holds more).
_COUNT = ValueModel(
    frozenset(string.digits), frozenset(string.digits), False, True, least=0, most=2**53
)
#: Programs whose grammars are their subcommands' (``aws * list-*``), none
#: of which runs a command its words name.
_SUBCOMMANDS_RUN_NOTHING = frozenset(
    program
    for program in grammars.SUBCOMMANDS
    if program not in grammars.GRAMMARS
    and all(
        g.command_from is None and not g.command_after_dashdash
        for key, g in grammars.GRAMMARS.items()
        if key.startswith(f"{program} ")
    )
)
#: The blank a count is followed by on the lines ``uniq -c`` prints.
_BLANK = frozenset(" ")
#: What ``jq '… | length'`` prints: numbers (an absolute value may be a
#: fraction or an exponent), one line per input; never a sign first.
_JQ_NUMBERS = ValueModel(frozenset(string.digits + ".e+\n"), frozenset(string.digits), False, True)
#: A jq program whose last stage is ``length``.
_JQ_LENGTH = re.compile(r"(?s)(?:.*\|)?\s*length\s*")
#: jq options that change how it prints, or read its input (jq 1.6).
_JQ_FORMATS = frozenset(
    {"-r", "-c", "-j", "-M", "-e", "-s", "-n", "--raw-output", "--compact-output", "--slurp",
     "--exit-status", "--monochrome-output"}
)  # fmt: skip
#: A value that starts with a variable of the server's (``"$HARBOR_RUN_DIR``).
_SERVER_HEAD = re.compile(r'"?\$(?:(HARBOR_[A-Z_]+)|\{(HARBOR_[A-Z_]+)\})')
#: What a name holds where a guard showed it digits (`_guards.matched_digits`).
_GUARDED = ValueModel(frozenset(string.digits), frozenset(string.digits), True, True)
_GUARDED_SIGNED = ValueModel(
    frozenset(string.digits + "-"), frozenset(string.digits + "-"), True, True
)
#: Parts of a word that bash splits when they are not quoted.
_SPLITTING = frozenset({"simple_expansion", "expansion", "command_substitution"})
#: ``"${NAME[@]}"``: every element of an array, each a word.
_WHOLE_ARRAY = re.compile(r'"\$\{([A-Za-z_][A-Za-z0-9_]*)\[@\]\}"')
#: A path that starts with the run directory (absolute: never an option).
_RUN_DIR_HEAD = re.compile(r'"?\$(?:HARBOR_RUN_DIR|\{HARBOR_RUN_DIR\})(?![A-Za-z0-9_])')
#: A whole number bash reads as itself in arithmetic (no base, no octal).
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
#: builtins and programs that may run a function or command their words
#: name (besides `sinks.WRAPPERS` and `sinks.EVAL_LIKE`)
_RUNNERS = frozenset(
    {"trap", "command", "builtin", "export", "declare", "typeset", "local", "readonly",
     "unset", "alias", "complete", "compgen", "bind", "enable", "type", "hash", "xargs",
     "find", "bash", "sh", "dash", "zsh", "ksh", "mapfile", "readarray", "git"}
)  # fmt: skip
#: builtins that may set a variable their words name
_SETS_NAMES = frozenset(
    {"read", "mapfile", "readarray", "getopts", "printf", "wait", "let", "local", "declare",
     "typeset", "export", "readonly", "unset", "eval", "source", ".", "compgen", "complete"}
)  # fmt: skip
#: The indexes (or keys) of an array: ``"${!a[@]}"``.
_INDEXES = re.compile(r'"?\$\{!(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}"?')
#: One group of what the last ``=~`` matched: ``${BASH_REMATCH[2]}``.
_REMATCH_GROUP = re.compile(r"\$\{BASH_REMATCH\[([1-9])\](?::?-[0-9]+)?\}|BASH_REMATCH\[([1-9])\]")
#: One element of a named array: ``m[$k]`` (``unset 'm[$k]'``).
_ELEMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[[^\]]*\]")
#: the names of the positional parameters (``$1``…, ``$@``, ``$*``)
_POSITIONAL = re.compile(r"[1-9][0-9]*|[@*]")
#: `TaintedScript._positional` keys: the script's own (a top-level ``set``)
#: and every place's together
_TOP, _ALL = "", "*"


def _model_range(model: ValueModel, *, textual: bool) -> Range:
    """What arithmetic reads from a value of `model`: the author's numbers,
    or a number with both bounds known; anything else may be any (bash
    wraps a long run of digits). The empty text is 0 read by name, and no
    number put in as text (`textual`)."""
    empty = model.can_be_empty or (model.words is not None and "" in model.words)
    if empty and textual:
        return (INT_MIN, INT_MAX)
    if model.words is not None:
        if not all(w == "" or _DECIMAL.fullmatch(w) for w in model.words):
            return (INT_MIN, INT_MAX)
        numbers = [int(w) if w else 0 for w in model.words]
        return (min(numbers), max(numbers))
    if model.least is not None and model.most is not None and model.least <= model.most:
        if empty:
            return (min(model.least, 0), max(model.most, 0))
        return (model.least, model.most)
    return (INT_MIN, INT_MAX)


#: An input redirection's text (``< FILE``, ``0< FILE``, ``<&3``, ``<>``).
_INPUT = re.compile(rb"[0-9]*<(?!<)")


def _element_zero(text: str, name: str) -> bool:
    """The expansion or arithmetic name `text` reads `name` itself (``$n``,
    ``${n:-0}``, ``n``, ``${n[0]}``): what ``[[ $n =~ … ]]`` tests, element
    0 of an array, not another element (``${n[1]}``, ``${n[-1]}``,
    ``n[k]``, ``${n[@]}``), nor the one it names (``${!n}``)."""
    at = text.find(name)
    if at < 0 or text.startswith("${!"):
        return False  # ${!n}: the variable n names (a positional parameter)
    rest = text[at + len(name) :]
    return not rest.startswith("[") or rest.startswith("[0]")


#: Builtins that run other text or a builtin they name (where a ``cd`` in
#: it is not a command node of the script's own).
_RUNS_TEXT_LATER = frozenset(sinks.EVAL_LIKE) | {
    "alias",
    "command",
    "builtin",
    "bind",
    "complete",
}
#: A word that changes the working folder.
_MOVES = re.compile(r"(?<![A-Za-z0-9_-])(?:cd|pushd|popd)(?![A-Za-z0-9_-])")


def _moved_before(move: Node, at: int) -> bool:
    """The ``cd`` `move` may have run, in the same shell, before the command
    at byte `at`: not inside a subshell (``( … )``, a substitution, a
    pipeline's stage before its last) that `at` is outside of, and before
    `at` in the text, or in a loop around both, or in a function (called
    from anywhere)."""
    child = move
    for parent in ancestors(move):
        inside = parent.start_byte <= at < parent.end_byte
        if parent.type in ("subshell", "command_substitution", "process_substitution"):
            if not inside:
                return False
        elif parent.type == "pipeline":
            stages = [c for c in parent.children if c.is_named]
            if stages and stages[-1] != child and not inside:
                return False
        elif parent.type == "function_definition" or (
            parent.type in ("for_statement", "c_style_for_statement", "while_statement") and inside
        ):
            return True
        child = parent
    return move.start_byte < at


def _read_holder(command: Node) -> tuple[Node, Node | None]:
    """The statement a ``read`` `command` stands for (itself, or the
    ``while`` loop it is the condition of), and what holds that. A
    pipeline's last stage whose pipeline tree-sitter hangs an input
    redirection on (``cmd | while read …; done < FILE``) is held by that
    redirection: bash gives it to the last command, which reads FILE, not
    the pipe."""
    statement, holder = command, command.parent
    if (
        holder is not None
        and holder.type == "while_statement"
        and holder.children[1:2] == [command]
    ):
        statement, holder = holder, holder.parent
    if (
        holder is not None
        and holder.type == "pipeline"
        and [c for c in holder.children if c.is_named][-1:] == [statement]
        and holder.parent is not None
        and holder.parent.type == "redirected_statement"
        and any(
            r.type in ("herestring_redirect", "heredoc_redirect")
            or (r.type == "file_redirect" and _INPUT.match(r.text or b""))
            for r in holder.parent.children_by_field_name("redirect")
        )
    ):
        return statement, holder.parent
    return statement, holder


def _lone_redirect(command: Node) -> Node | None:
    """The one redirection the ``read`` `command` (or its ``while`` loop)
    has, when it has only one."""
    own = [c for c in command.children if c.type.endswith("redirect")]
    _loop, holder = _read_holder(command)
    if holder is None or holder.type != "redirected_statement":
        # read v <<< "$x": tree-sitter-bash hangs a here-string on the command
        return own[0] if len(own) == 1 else None
    sources = [c for c in holder.children if c.type.endswith("redirect")] + own
    return sources[0] if len(sources) == 1 else None


def _read_redirect(src: bytes, command: Node) -> Node | None:
    """The destination of the one ``<`` redirection the ``read`` `command`
    (or its ``while`` loop) reads from: a path, or ``<(…)``."""
    source = _lone_redirect(command)
    if source is None or source.type != "file_redirect":
        return None
    dest = source.child_by_field_name("destination")
    operator = next((c.type for c in source.children if not c.is_named), "")
    if operator != "<" or dest is None:
        return None
    return dest


def _here_string(src: bytes, command: Node) -> Node | None:
    """The text of the one ``<<<`` here-string the ``read`` `command` (or
    its ``while`` loop) reads from, if that is its only redirection."""
    source = _lone_redirect(command)
    if source is None or source.type != "herestring_redirect":
        return None
    return next((c for c in source.children if c.is_named), None)


def _path_written(src: bytes, node: Node) -> str:
    """The path the word `node` names as written, its double quotes gone
    (``"$HARBOR_RUN_DIR/t"`` → ``$HARBOR_RUN_DIR/t``)."""
    return node_text(src, node).replace('"', "")


def _literal_lead(raw: str) -> str | None:
    """The first character of the word written `raw` when it is the
    author's and no ``-``, expansion, quote or glob (``data/x-$m-*.csv``,
    ``"data/$m"``): every word it makes, every file name it matches, starts
    with it. None otherwise."""
    lead = raw[:1]
    if lead == '"' and raw[1:2] not in ("", '"'):
        lead = raw[1:2]  # "data/x-$m": the first character inside the quotes
    return lead if lead and (lead.isalnum() or lead in "_./") else None


def _plain_text(src: bytes, node: Node) -> bool:
    """`node` is text and expansions of names alone: no substitution runs
    a command in it, and no ``${!name}`` reads a name it chooses."""
    for part in walk_nodes(node):
        if part.type in ("command_substitution", "process_substitution"):
            return False
        if part.type == "expansion" and node_text(src, part).startswith("${!"):
            return False
    return True


def _as_words(occ: Occ) -> Occ:
    """`occ`, an integer with at most 64 values (both bounds known, never
    empty), as the words of those numbers; any other occurrence as it is."""
    model = occ.model
    if (
        model.words is None
        and model.numeric
        and not model.can_be_empty
        and model.least is not None
        and model.most is not None
        and 0 <= model.most - model.least < 64
    ):
        numbers = [str(n) for n in range(model.least, model.most + 1)]
        return replace(occ, model=words_model(numbers))
    return occ


def _range_model(least: int, most: int) -> ValueModel:
    """The model of a number bash computed, between `least` and `most`."""
    if (least, most) == (INT_MIN, INT_MAX):
        return _NUMBER
    digits = frozenset(string.digits if least >= 0 else string.digits + "-")
    return ValueModel(digits, digits, False, True, least=least, most=most)


def _lone_arithmetic(value: Node) -> Node | None:
    """The ``$(( … ))`` that is all of `value` (bare or in double quotes)."""
    if value.type == "arithmetic_expansion":
        return value
    if value.type == "string":
        inner = [c for c in value.children if c.type != '"']
        if len(inner) == 1 and inner[0].type == "arithmetic_expansion":
            return inner[0]
    return None


#: Commands whose output depends on nothing but their words (no file, no
#: standard input, no repository): with clean words, their output is clean.
#: Each was read in its GNU coreutils/bash manual page: none of them reads a
#: file or its standard input given only these words. (``pwd`` is not one:
#: it prints the folder a ``cd`` may have taken from the caller.)
PURE_COMMANDS = frozenset(
    {
        *("date", "mktemp", "nproc", "basename", "dirname", "whoami", "id", "hostname"),
        *("uname", "printf", "echo", "seq", "getconf", "arch", "true", "false", ":"),
    }
)


def _awk_reads_only_operands(text: str) -> bool:
    """An awk program that runs nothing, writes nothing, and reads nothing
    but its operands (no ``getline``, ``ENVIRON``, ``ARGV``, ``PROCINFO``)."""
    grammar = grammars.GRAMMARS["awk"]
    code = grammars.awk_code(text)
    return not any(
        pattern is not None and re.search(pattern, code, re.M)
        for pattern in (grammar.evaluates, grammar.writes, r"\b(?:ENVIRON|ARGV|PROCINFO)\b")
    )


def _sed_reads_only_operands(text: str) -> bool:
    """A sed program that runs nothing and writes nothing (no ``e``, ``w``,
    ``r``/``R`` reading a file it names)."""
    grammar = grammars.GRAMMARS["sed"]
    text = grammars.sed_code(text)
    return not any(
        pattern is not None and re.search(pattern, text, re.M)
        for pattern in (
            grammar.evaluates,
            grammar.writes,
            rf"(?:^|[;{{}}\n])\s*{grammars.SED_ADDRESS}[rR](?:\s|[^/\s;}}])",
        )
    )


def _awk_begin_only(text: str) -> bool:
    """The awk program `text` is one ``BEGIN { … }`` and nothing else: awk
    runs it and exits without reading any input (POSIX awk). Its braces
    are counted with strings, regular expressions and comments blanked
    (`grammars.awk_code`)."""
    code = grammars.awk_code(text)
    match = re.match(r"\s*BEGIN\s*\{", code)
    if match is None:
        return False
    depth, k = 1, match.end()
    while k < len(code) and depth:
        depth += {"{": 1, "}": -1}.get(code[k], 0)
        k += 1
    return depth == 0 and not code[k:].strip()


#: Programs whose every operand is a file (or folder) they read, and whose
#: output depends on nothing else but their words (GNU coreutils 9.1,
#: grep 3.8, gzip 1.12: each one's manual): what they print of files no
#: step can write is the author's. A program that fetches, queries a
#: server or a cluster, or reads logs is not one.
_FILE_READERS = frozenset(
    {"cat", "head", "tail", "wc", "sort", "uniq", "cut", "grep", "egrep", "fgrep", "column",
     "nl", "od", "base64", "base32", "md5sum", "sha1sum", "sha224sum", "sha256sum",
     "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "tac", "rev", "fold", "paste", "join",
     "comm", "expand", "unexpand", "fmt", "pr", "diff", "cmp", "stat", "du", "ls", "zcat",
     "bzcat", "xzcat"}
)  # fmt: skip
#: Languages whose literal program may leave a command's output the
#: author's (`TaintedScript._reads_authors_files`), each with the test
#: that its program reads only its operands; jq reads only its operands
#: and its literal arguments whatever its filter.
_PURE_LANGUAGES: dict[str, Callable[[str], bool]] = {
    "awk": _awk_reads_only_operands,
    "sed": _sed_reads_only_operands,
    "jq": lambda text: True,
}


def _words_taken(grammar: grammars.Grammar, option: str) -> int | None:
    """How many words after `option` are its value (jq --arg takes two);
    None when the option gives code or the program (``-f``, ``-e``)."""
    if option in grammar.code_options or option in grammar.program_options:
        return None
    return 2 if option in grammar.pair_options else int(option in grammar.value_options)


def _program_word(grammar: grammars.Grammar, words: Sequence[str]) -> int | None:
    """The index in `words` (literal, after the program's name) of a
    language's literal program text: its first operand after the options
    and their values; None when an option gives it (``-f``, ``-e``)."""
    skip = 0
    for k, word in enumerate(words):
        if skip:
            skip -= 1
            continue
        if word.startswith("-") and word != "-":
            taken = _words_taken(grammar, word)
            if taken is None:
                return None
            skip = taken
            continue
        return k
    return None


#: The parts of a here-document redirection that are its own (tree-sitter
#: puts the commands after ``<<'EOF' ||`` inside it too).
_HEREDOC_OWN = frozenset({"heredoc_start", "heredoc_body", "heredoc_end", "heredoc_content"})
#: Standard input duplicated from another descriptor (``<&3``, ``0<&"$fd"``).
_STDIN_DUP = re.compile(r"0?<&\s*(?!0\b|-)")
#: Paths that are a stream or a process's own view (standard input, a
#: descriptor, a terminal, another folder: /proc/self/cwd), not a file.
_STREAMS = re.compile(
    r"/dev/(?!(?:null|zero|urandom|random)$)|/proc/(?:self|thread-self|[0-9]+)(?:/|$)"
)
#: git's subcommands that only read the repository and print (git 2.39,
#: each one's manual): with clean words, in a folder no step can write,
#: what they print is the author's.
GIT_READERS = frozenset(
    f"git {sub}"
    for sub in (
        "describe", "rev-parse", "rev-list", "log", "show", "merge-base", "for-each-ref",
        "show-ref", "ls-files", "ls-tree", "cat-file", "name-rev", "shortlog", "status",
        "blame", "grep", "diff", "diff-tree", "diff-index", "diff-files", "whatchanged",
        "show-branch", "cherry", "count-objects",
    )
)  # fmt: skip
#: Their options that read something other than the repository and its
#: folder: files anywhere (``git diff --no-index A B``) or standard input
#: (``git blame --contents -``) (git 2.39, git-diff(1), git-blame(1)).
_GIT_READS_ELSEWHERE = frozenset({"--no-index", "--contents"})
#: Standard error joined to standard output (bash(1), REDIRECTION).
_MERGED_STDERR = re.compile(r"2>&1|&>|>&\s*1\b|\|&")
_MERGED_STDERR_EXEC = re.compile(r"\bexec\b[^\n;]*(?:2>&1|&>)")


def _git_lists(key: str, words: Sequence[str | None]) -> bool:
    """``git tag --list 'v*' --sort=-v:refname`` (``git branch --list``):
    the listing mode, every word literal (a word of the caller's may be an
    option: ``-d`` deletes), and only options that choose and order what
    is listed (git 2.39, git-tag(1), git-branch(1)); it writes nothing."""
    if key not in ("git tag", "git branch") or not {"-l", "--list"} & set(words):
        return False
    for word in words:
        if word is None:
            return False
        if word.startswith("-") and not (
            word in _GIT_LIST_OPTIONS
            or word.split("=", 1)[0] in _GIT_LIST_OPTIONS
            or re.fullmatch(r"-n\d*", word) is not None
        ):
            return False
    return True


_GIT_LIST_OPTIONS = frozenset(
    {"-l", "--list", "--sort", "--format", "--contains", "--no-contains", "--merged",
     "--no-merged", "--points-at", "-i", "--ignore-case", "--no-column", "--omit-empty", "-a",
     "--all", "-r", "--remotes", "--"}
)  # fmt: skip
#: git's subcommands that print object names (hexadecimal digits, one a
#: line) or counts, with the options that keep them doing so (git 2.39,
#: each one's manual); ``git rev-parse`` only with ``--verify``.
GIT_OBJECT_NAMES: dict[str, frozenset[str]] = {
    "git merge-base": frozenset({"--all", "--octopus", "--fork-point", "--independent"}),
    "git rev-parse": frozenset({"--verify", "-q", "--quiet", "--short"}),
    "git rev-list": frozenset(
        {"--count", "--first-parent", "--no-merges", "--merges", "--reverse", "--topo-order",
         "--date-order", "--ancestry-path", "-n", "--max-count"}
    ),
}  # fmt: skip
#: git's subcommands whose output, for a revision the caller names, is the
#: repository's text (tag names, commit fields), never that revision as
#: written (git 2.39: not rev-parse --symbolic, name-rev, cat-file --batch).
_GIT_CHOICES = frozenset({"git describe", "git log", "git show"})
#: Their options that print the revision as the caller wrote it: the ref
#: a commit was reached by (--source, %S) and reflog selectors (-g, %gd).
_GIT_ECHOES = frozenset({"--source", "-g", "--walk-reflogs", "--symbolic", "--symbolic-full-name"})
_ECHOED_FORMAT = re.compile(r"%[Sg]")
#: git's options that name another repository, folder or file to read.
_GIT_ELSEWHERE = frozenset({"-C", "--git-dir", "--work-tree", "--namespace", "--exec-path"})
#: Options of those commands that read a file or run something: with one, the
#: command is no longer pure (``date -f FILE``, ``date -r FILE``).
_IMPURE_OPTIONS = re.compile(r"^-(?:-file|-reference|[a-zA-Z]*[fr])")
#: A word that starts with an absolute folder: a literal ``/``, or the
#: runtime's absolute folders (``"$HARBOR_RUN_DIR"/x-*.json``).
_ABSOLUTE_WORD = re.compile(r"""^["']?/|^"?\$\{?(?:HARBOR_RUN_DIR|TMPDIR|HOME|PWD)\}?"?/""")
#: A long option with its value attached (``--token=``).
_OPTION_HEAD = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9_-]*=")
_GLOB_OR_BRACE = re.compile(r"[*?\[{]")
#: What makes one unquoted word several (bash(1), Pathname Expansion and
#: Brace Expansion: ``{a,b}``, ``{1..3}``; ``{}`` alone is itself).
_EXPANDS = re.compile(r"[*?\[]|\{[^{}]*(?:,|\.\.)[^{}]*\}")
#: ``${…}`` and ``$NAME`` in a word's text (their own ``*``/``@`` glob nothing).
_EXPANSIONS = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[@*#?$!0-9-]")
#: Where steps may write: the run directory and the runtime's files in it,
#: the temporary folders (TMPDIR is private to the run, but every step of it
#: shares it).
_WRITABLE_PLACE = re.compile(
    r"\$\{?(?:HARBOR_RUN_DIR|HARBOR_OUTPUT|HARBOR_CONTEXT|HARBOR_STEP_OUTPUT|HARBOR_PROGRESS"
    r"|TMPDIR|PWD|OLDPWD|HOME)\b|^/tmp\b|^/var/tmp\b|^/dev/shm\b|^~"
    # the same places by other names (/run/shm links to /dev/shm on Debian)
    r"|^(?:/var)?/run/(?:shm|lock|user)\b|^/var/lock\b"
    # a process's view of a working folder or of the root (proc(5))
    r"|^/proc/[^/]+/(?:cwd|root)\b"
)
#: The run directory, the runtime's files in it, and the temporary folders:
#: no program reads code or config there unasked.
_RUN_PLACE = re.compile(
    r"\$\{?(?:HARBOR_RUN_DIR|HARBOR_OUTPUT|HARBOR_CONTEXT|HARBOR_STEP_OUTPUT|HARBOR_PROGRESS"
    r"|TMPDIR)\b|/tmp/|/var/tmp/|/dev/shm/"
)
#: A path built only from the server's own folders (``$HOME/bin/x`` is not
#: one: HOME is the server's but may be written to).
_CLEAN_PATH_EXPANSION = re.compile(r"[A-Za-z0-9_./-]+")
_ATTACHED_VARIABLE = re.compile(r'--?[A-Za-z0-9][A-Za-z0-9-]*="?' + VARIABLE.pattern + '"?')
#: wc's options that choose counts (GNU coreutils 9.1 wc(1)), and ``--``.
_WC_COUNTS = frozenset(
    {"-l", "-c", "-w", "-m", "-L", "--lines", "--bytes", "--words", "--chars",
     "--max-line-length", "--"}
)  # fmt: skip
#: find's actions that print (or run) other than -print0, and the option
#: that takes the starting points from a file (GNU findutils 4.9 find(1)).
_FIND_OTHER_OUTPUT = frozenset(
    {"-print", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls", "-exec",
     "-execdir", "-ok", "-okdir", "-files0-from"}
)  # fmt: skip
#: Programs that write only the files their operands name (coreutils): a
#: command of one writes nothing in the working folder when every operand
#: is outside it.
_WRITES_ITS_OPERANDS = frozenset({"tee", "cp", "mv", "install", "ln", "touch", "mkdir", "truncate"})
#: Compressors that write each operand's result beside it, under its name
#: and their suffix (gzip(1) 1.12, bzip2(1) 1.0.8, xz(1) 5.4): with only
#: these options (no -N, which restores a name from the input; no -S, which
#: changes the suffix; no --files, which reads the names from a file).
_COMPRESSORS = frozenset({"gzip", "pigz", "bzip2", "xz", "lzma"})
_COMPRESSOR_LETTERS = frozenset("0123456789cdfkqrtvz")
_COMPRESSOR_OPTIONS = frozenset(
    {"--best", "--fast", "--keep", "--force", "--quiet", "--verbose", "--no-name",
     "--decompress", "--uncompress", "--compress", "--stdout", "--to-stdout", "--test",
     "--recursive", "--"}
)  # fmt: skip
#: Programs whose whole job is to put files from their input in a folder.
_EXTRACTORS = frozenset(
    {"unzip", "cpio", "7z", "7za", "patch", "rsync", "scp", "gunzip", "unxz", "bunzip2", "split",
     "csplit", "ar", "unrar"}
)  # fmt: skip
#: curl's options whose value is a file it writes, and those that name the
#: file after the URL (in the working folder).
_CURL_FILE_OPTIONS = frozenset(
    {"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii",
     "--libcurl", "--etag-save", "--hsts", "--alt-svc", "--stderr"}
)  # fmt: skip
_CURL_NAMES_FILES = frozenset({"--remote-name", "--remote-name-all", "--remote-header-name"})
#: grep's long options that change what matches, not what it prints.
_GREP_QUIET_OPTIONS = frozenset(
    {"--fixed-strings", "--extended-regexp", "--ignore-case", "--invert-match", "--word-regexp",
     "--line-regexp", "--basic-regexp", "--perl-regexp", "--text", "--no-messages"}
)  # fmt: skip
#: Programs that print a digest of what they read (coreutils).
_DIGESTS = frozenset(
    {"sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum", "cksum"}
)
#: A date format of digits only (date(1): %s seconds, %Y year, …).
_DIGIT_DATE = re.compile(r"\+(?:%[sYmdHMSjuwVGCgy]|[0-9])+")
#: A date format of zero-padded numbers and the separators between them
#: (date(1): %F is %Y-%m-%d, %T %H:%M:%S, %D %m/%d/%y, %R %H:%M).
_SEPARATED_DATE = re.compile(r"\+(?:%[sYmdHMSjuwVGCgyFTDR]|[0-9/:. TZ_,-])+")
#: date's options that say which date to print, not what.
_DATE_GIVEN = frozenset({"-d", "--date", "-u", "--utc", "--universal"})
#: Options of mapfile/readarray that take a value (not a name).
_MAPFILE_VALUES = frozenset({"-d", "-n", "-O", "-s", "-u", "-C", "-c"})
#: Builtins that write the variable a word names.
_TEMP_WORD = re.compile(r"-[dtuq]+|--tmpdir|--directory|--dry-run|-p|[A-Za-z0-9._/-]+")
#: A mktemp template under the run's or the server's folders.
_TEMP_TEMPLATE = re.compile(
    r'"?\$\{?(?:TMPDIR|HARBOR_RUN_DIR|HOME)(?::-/tmp)?\}?/[A-Za-z0-9._/-]*"?'
)
#: Builtins that write into the variable a word names what they read or print.
NAME_WRITERS = frozenset({"read", "mapfile", "readarray", "printf", "getopts", "wait"})
#: bash's builtins that may write a variable named by one of their words
#: (bash(1), SHELL BUILTIN COMMANDS), and the wrappers that run them.
_NAME_WRITING = frozenset(
    {"read", "mapfile", "readarray", "printf", "getopts", "wait", "declare", "typeset",
     "local", "export", "readonly", "unset", "let", "eval", "source", ".", "trap", "compgen",
     "command", "builtin", "exec", "coproc", "select", "for"}
)  # fmt: skip
#: Builtins that take a variable's name as a word.
_NAME_TAKERS = NAME_WRITERS | {"unset", "let", "export"}


def initial_taint(
    text: str,
    arg_models: Mapping[str, ValueModel],
    environment: Collection[str] = (),
    outputs: Mapping[str, ValueModel | None] | None = None,
) -> Taint:
    """What a script starts with: every ``ARG_<name>``, every step output the
    script mentions and every variable the step environment registry
    classifies as the caller's carry caller data (with what is known of
    their text); the names of the environment every step receives (the
    server's, the registry's ``server`` ones) and `environment` (the
    export's ``secrets:``, ``env:`` and ``pass_env:`` names) are clean.
    Every other name is the caller's unless the script assigns it clean
    text (`TaintedScript`). `outputs`: what earlier steps' outputs can hold
    (`_step_outputs`)."""
    from mcp_harbor import step_env

    taint = Taint({f"ARG_{name}": (name, model) for name, model in arg_models.items()})
    outputs_held, outputs_clean = _step_outputs(text, outputs, environment)
    taint.variables.update(outputs_held)
    taint.variables.update(_registry_taint(text))
    inherited = {m.group(0) for m in re.finditer(r"\bLC_[A-Z_]+", text)}
    runtime = {m.group(0) for m in _STEP_VAR.finditer(text) if m.group(0) not in taint.variables}
    taint.clean = frozenset(
        {
            *step_env.INHERITED,
            *inherited,
            *step_env.server_variables(),
            *runtime,
            *environment,
            *outputs_clean,
        }
        - taint.variables.keys()
    )
    return taint


def _transformed(
    src: bytes, node: Node, source: tuple[str, ValueModel] | None
) -> tuple[str, ValueModel] | None:
    """What ``${…}`` gives when it is not a plain read of its variable: a
    value bash rewrites keeps no more of its validated language than the
    rewrite allows (a part of it may start with ``-``), and an indirect
    expansion (``${!x}``, ``${!p*}``) is the caller's whatever ``x`` holds."""
    kinds = [c.type for c in node.children]
    inner = kinds[1:-1]  # between ${ and }
    if inner[:1] == ["!"] and inner[-1:] in (["*"], ["@"]) and len(inner) == 3:
        return None  # ${!prefix*}: the names of variables, which are identifiers
    if inner and inner[0] == "!":
        return (source[0] if source else UNPROVEN, any_model())
    if source is None:
        return None
    arg, model = source
    if inner and inner[0] == "#":
        return (arg, _COUNT)  # ${#x}: a length
    ops = [k for k in inner[1:] if not k[0].isalpha() or k in ("@",)]
    if not ops:
        return source  # ${x}, ${x[@]}
    op = ops[0]
    if op == "@" and kinds.index("@") + 1 < len(kinds) and kinds[kinds.index("@") + 1] == "Q":
        return source  # bash quotes it: followed as a rendering (`_render_variables`)
    if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
        word = node.children[kinds.index(op) + 1] if kinds.index(op) + 1 < len(kinds) - 1 else None
        text = static_text(src, word) if word is not None else ""
        if text is None:
            return (arg, any_model())  # the other value is found as its own occurrence
        if op in (":+", "+"):
            return (arg, ValueModel(*_text_model(text)))
        other = ValueModel(*_text_model(text))
        return (arg, model.union(other))
    if op in ("#", "##", "%", "%%", ":"):
        # a part of the value: any of its characters may come first
        at = kinds.index(op)
        pattern = node.children[at + 1] if at + 1 < len(kinds) - 1 else None
        chars = model.chars
        if (op, node_text(src, pattern) if pattern is not None else None) in (
            ("##", "*/"),
            ("%%", "/*"),
        ):
            # ${x##*/}, ${x%%/*}: what is left holds no / (bash(1), Parameter Expansion)
            chars = chars - {"/"}
        return (arg, ValueModel(chars, chars, True))
    if op in ("^^", "^", ",,", ","):
        cased = frozenset(c.swapcase() for c in model.chars) | model.chars
        return (arg, ValueModel(cased, cased, True))
    at = kinds.index(op)
    if op == "/#" and kinds[at + 1 : at + 2] == ["/"] and at + 2 < len(kinds) - 1:
        # ${x/#/./}: the author's text put before the value (each element's)
        prefix = static_text(src, node.children[at + 2])
        if prefix:
            added = ValueModel(*_text_model(prefix))
            return (arg, ValueModel(model.chars | added.chars, frozenset(prefix[0]), False))
    return (arg, any_model())  # //, /, @E, @P, @U… : anything


def _last_command(node: Node | None) -> Node | None:
    """The command whose output `node` (a command, a pipeline, a redirected
    command) prints: the last stage of a pipeline, the body of a redirected
    command; None for anything else (a list, a compound command)."""
    if node is not None and node.type == "pipeline":
        stages = [c for c in node.children if c.is_named]
        node = stages[-1] if stages else None
    if node is not None and node.type == "redirected_statement":
        node = node.child_by_field_name("body")
    return node if node is not None and node.type == "command" else None


def puts_caller_files(program: str, words: Sequence[str | None]) -> bool:
    """`program` with `words` (None: not literal) surely writes files whose
    name is not the author's literal one: it copies, moves or tees to
    operands that are not all literal, extracts or downloads, clones or
    fetches, or edits in place (what any other program writes is its own:
    a cache, an image, a build)."""
    program = grammars.normal_program(program.rsplit("/", 1)[-1])
    if program in _WRITES_ITS_OPERANDS:
        # the author's literal names (tee -a deploys.log) are the author's
        return any(w is None for w in words)
    if program in _EXTRACTORS:
        return True
    literal = [w or "" for w in words]
    options = {w for w in literal if w.startswith("-")}
    letters = {c for w in options if not w.startswith("--") for c in w[1:]}
    if program in ("tar", "bsdtar"):
        return (
            "x" in letters
            or bool(options & {"--extract", "--get"})
            or (bool(literal) and not literal[0].startswith("-") and "x" in literal[0])
        )
    if program in ("curl", "wget"):
        return program == "wget" or bool(
            {"o", "O"} & letters or options & {"--output", "--remote-name", "--remote-name-all"}
        )
    if program in ("sed", "perl"):
        return any(w.startswith(("-i", "--in-place")) for w in literal)
    if program == "dd":
        # of=FILE, or a word that is not literal and may be one
        return any(w is None or w.startswith("of=") for w in words)
    if program == "git":
        return bool(literal) and literal[0] in (
            "clone",
            "fetch",
            "pull",
            "submodule",
            "apply",
            "am",
        )
    # an operand its grammar says is written (uniq IN OUT): not literal
    return grammars.written_operands(program, list(words)) is not None


#: The names a JSON text may be in bash arithmetic, and the writes of them
#: bash's tree shows only as text: ``${null=…}``, ``${false:=…}``, ``declare
#: -n ref=null``, ``exec {null}>file``.
_JSON_NAMES = frozenset({"true", "false", "null"})
_JSON_DEFAULT = re.compile(r"\$\{(true|false|null):?=")
_JSON_NAMEREF = re.compile(
    r"\b(?:declare|local|typeset)\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*n[a-zA-Z]*\s+"
    r"[A-Za-z_][A-Za-z0-9_]*=[\"']?(true|false|null)\b"
)
_JSON_DESCRIPTOR = re.compile(r"\{(true|false|null)\}\s*[<>]")
#: Text bash runs that the script does not show here.
_RUNS_UNREAD = re.compile(r"(?:^|[;&|(\s])(?:eval|source|\.)\s", re.M)
#: ``$name``, ``${name}``: the value as it is (no operator, no index).
_PLAIN_EXPANSION = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
#: A redirection that sends standard error where standard output goes (or
#: may: ``2>/dev/fd/1``, ``2>/proc/self/fd/1``, ``2>/dev/stdout``).
_JOINS_ERRORS = re.compile(
    r"2>&|&>|\|&|>&\s*1\b|2>>?\s*[\"']?/(?:dev|proc)/(?!null\b)|\bexec\b[^\n;|&]*2>"
    r"|2>>?\s*>\("  # 2> >(tee …): a process that inherits the capture as its output
)
#: What a JSON text starts with (RFC 8259): its
#: literal words whole, so no text starts ``file://`` (`_json_text`).
_JSON_HEADS = frozenset({"{", "[", '"', "-", "true", "false", "null", *string.digits})


def _constructor(program: str) -> str | None:
    """``{`` when the jq `program` is one object constructor (``{Key:
    "team", Values: [$t]}``), ``[`` when one array constructor: the opening
    bracket's match is the program's last character, strings skipped (jq
    1.6 manual, "Object Construction", "Array Construction"). Every text it
    prints then starts with that bracket."""
    text = program.strip()
    if text[:1] not in ("{", "["):
        return None
    depth = 0
    quoted = False
    escaped = False
    for k, char in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
            continue
        if char == '"':
            quoted = True
        elif char == "#":
            return None  # a comment: not read here
        elif char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0:
                return text[0] if k == len(text) - 1 else None
    return None


def _inert_anywhere(model: ValueModel) -> bool:
    """One of the author's words, or a number (digits and dots) that
    cannot start with ``-`` (`mcp_harbor.check._positions`' inert data)."""
    if model.words is not None:
        return True
    digits = model.numeric or model.chars <= frozenset(string.digits + ".")
    return digits and not model.may_start_with_dash


#: git's subcommands that write nothing into the repository (git 2.39): the
#: readers of `GIT_READERS` and those that ask a remote or print settings.
_GIT_READ_ONLY = GIT_READERS | frozenset({"git ls-remote", "git version", "git var"})


def writes_repository(text: str, placeholders: Collection[str] = ()) -> bool:
    """The script `text` may write caller data into the repository of the
    folder it works in: a git command that is not read-only (`git commit
    -m "$ARG_msg"`, `git tag`, `git notes`, `git fetch "$remote"`) with an
    expansion or a placeholder (`placeholders`: their words) among its
    words. What git then prints of that repository (`GIT_READERS`) is no
    longer the author's."""
    src = text.encode("utf-8")
    for node in _tree_parsed(text).of_type("command"):
        name = node.child_by_field_name("name")
        program = static_text(src, name) if name is not None else None
        if program is None or program.rsplit("/", 1)[-1] != "git":
            continue
        arguments = list(node.children_by_field_name("argument"))
        words = [static_text(src, a) for a in arguments]
        key, _ = grammars.grammar_key("git", words)
        if key in _GIT_READ_ONLY or (
            # git branch --list, git tag --contains: they list, writing nothing
            key in ("git branch", "git tag") and grammars.writes_no_file("git", words)
        ):
            continue
        spoken = node_text(src, node)
        if "$" in spoken or "`" in spoken or any(w in spoken for w in placeholders):
            return True
    return False


def _option_written(raw: str, run_outside: bool = True) -> str | None:
    """``--name=…`` for a word that is a long option with a value that is
    not literal (``--output="$f"``): the option, with a value standing for
    any (``/`` for a file of the run directory or a temporary folder, when
    `run_outside`: no link makes those paths lead elsewhere); None for any
    other word."""
    match = re.match(r"(--?[A-Za-z0-9][A-Za-z0-9_-]*=)(.*)", raw.lstrip("\"'"), re.S)
    if match is None:
        return None
    value = match.group(2).strip("\"'")
    place = _RUN_PLACE.match(value)
    # $(( n + 1 )) of names alone: a number, no / and no ..
    rest = re.sub(r"\$\(\([^()$`]*\)\)", "0", value[place.end() :]) if place else ""
    if run_outside and place is not None and not re.search(r"[$`]|\.\.", rest):
        return match.group(1) + "/"  # --output="$HARBOR_RUN_DIR/x": a file of the run
    return match.group(1) + "\0"


def makes_links(text: str) -> bool:
    """The script `text` may put a link in the run directory or a temporary
    folder that leads elsewhere (``ln -s "$PWD" "$HARBOR_RUN_DIR/p"``): then
    a path there may name a file of the working folder, and no path in them
    is outside it. ``ln`` and ``cp`` making links (coreutils 9.1) whose
    target is not itself in those folders, and an archive extracted from a
    file that is not a literal path (``tar -x``, ``unzip``: its members may
    be links anywhere) may."""
    src = text.encode("utf-8")
    script = _tree_parsed(text)
    for node in script.of_type("command"):
        name = node.child_by_field_name("name")
        program = static_text(src, name) if name is not None else None
        if program is None:
            continue
        program = program.rsplit("/", 1)[-1]
        arguments = list(node.children_by_field_name("argument"))
        words = [static_text(src, a) for a in arguments]
        operands = [
            a for a, w in zip(arguments, words, strict=True) if w is None or not w.startswith("-")
        ]
        linking = program == "ln" or (
            program == "cp"
            and any(
                w is not None
                and (
                    w in ("--link", "--symbolic-link", "--archive", "--no-dereference")
                    or w.startswith("--preserve")
                    or (w[:1] == "-" and w[:2] != "--" and bool(set(w[1:]) & set("sldaPRr")))
                )
                for w in words
            )
        )
        if linking:
            sources = operands[:-1] or operands
            for source in sources:
                target = node_text(src, source).lstrip("\"'")
                place = _RUN_PLACE.match(target)
                rest = target[place.end() :] if place is not None else ""
                if place is None or ".." in rest or "$" in rest or "`" in rest:
                    return True  # it may lead out (a caller's "..", the working folder)
        elif extracts(program, words) and any(w is None for w in words):
            return True  # an archive not the author's literal one: members may be links
    return False


#: The programs that may put a link in a folder (`makes_links`): ``ln``,
#: ``cp`` making links, and the archivers and copiers that extract what an
#: archive or another tree holds.
LINK_MAKERS = frozenset({"ln", "cp", "tar", "bsdtar", "unzip", "cpio", "pax", "rsync"})


def extracts(program: str, words: Sequence[str | None]) -> bool:
    """`program` (a basename) with `words` extracts an archive's members
    into a folder: unzip, cpio, pax and rsync always; tar and bsdtar with
    ``-x``, ``--extract``, ``--get``, an ``x`` in a cluster of short options
    or in an old-style first word (GNU tar 1.34, libarchive bsdtar 3.6)."""
    if program in ("unzip", "cpio", "pax", "rsync"):
        return True
    if program not in ("tar", "bsdtar"):
        return False
    return any(
        w is not None
        and (
            w in ("-x", "--extract", "--get")
            or (not w.startswith("--") and "x" in w.lstrip("-") and k == 0)
            or (w.startswith("-") and not w.startswith("--") and "x" in w[1:])
        )
        for k, w in enumerate(words)
    )


def names_nothing(model: ValueModel) -> bool:
    """Caller data that is one of the author's texts (an ``enum``/``const``
    value), a number, or one word that starts and ends with a digit (a
    version ``1.2.3-rc.1``, a date, a build number): it chooses among names
    the author wrote or counts, and cannot make a file of its own. A
    program reads no file as code or config whose name starts with a digit
    (a module, ``Makefile``, ``.git/config``, ``conftest.py`` start
    otherwise) and ends with one (``1_test.py``, ``1.go``, ``1.mk`` end in
    their language's extension); the word holds no ``/`` to reach another
    folder, and no character special to a shell or a config format."""
    if model.words is not None or (model.numeric and not model.may_start_with_dash):
        return True
    return (
        not model.can_be_empty
        and model.first <= _DIGITS
        and model.last is not None
        and model.last <= _DIGITS
        and "/" not in model.chars
        and model.chars <= SAFE_CHARS
    )


_DIGITS = frozenset("0123456789")
#: How the sentinel of a value bash quoted itself (``%q``, ``@Q``) starts.
QUOTED_SENTINEL = "hbQSENT"


def writable_text(text: str) -> bool:
    """A path as written that names a place steps may write: the run
    directory and the runtime's files in it, a temporary folder, home."""
    path = re.sub(r"/(?:\./)*/+|/(?:\./)+", "/", text.strip("\"'"))  # /dev//shm, /tmp/./x
    if path.startswith("/") and "/../" in path + "/":
        # /etc/../dev/shm is /dev/shm, but the kernel follows a link before
        # its `..` (/dev/fd/../root is /proc/self/root): where it lands is
        # not shown unless every folder before it is a plain one of the system
        real = posixpath.normpath(path)
        head = path[: path.index("/..")]
        if not _PLAIN_FOLDERS.fullmatch(head):
            return True
        path = real
    return bool(_WRITABLE_PLACE.search(path))


#: Variables that name a temporary folder a program writes in (``TMPDIR``,
#: ``ANSIBLE_LOCAL_TEMP``): a program makes new files there, it reads none.
TEMP_VARIABLE = re.compile(r"(?:^|_)(?:TMPDIR|TMP|TEMP|TEMPDIR)$")
#: Where a variable's value may hold several paths: lists (``a:b``, ``a;b``,
#: ``a,b``), options (``-javaagent:/p``, ``--rcfile=/p``) and blanks.
_VALUE_PIECES = re.compile(r"[:;,=\s]+")


#: Folders of the system that are no links (before a ``..``).
_PLAIN_FOLDERS = re.compile(r"/(?:etc|usr|opt|srv)(?:/[A-Za-z0-9_.-]+)*")
#: An absolute path with glob characters and nothing else (no program text).
_GLOBBED_PATH = re.compile(r"/[A-Za-z0-9_.@%+=,/*?!\[\]-]*")
#: Paths of what a descriptor holds open (proc(5), /dev/fd on Linux).
_DESCRIPTOR_PATH = re.compile(r"/dev/(?:stdin|stdout|stderr|fd/)|/proc/[^/]+/(?:task/[^/]+/)?fd/")
#: A path that starts with an expansion bash rewrites (``${d,,}``, ``${d^^}``,
#: ``${d/x/y}``, ``${d@L}``, ``${!d}``): not the text any assignment shows.
_TRANSFORMED_START = re.compile(
    r"\$\{(?:![A-Za-z_]|[A-Za-z_]\w*(?:\[[^]]*\])?(?:,|\^|/|@[A-Za-z]))"
)
#: What ``mktemp`` prints, the whole substitution (``$(mktemp -d)``): a file
#: or folder in TMPDIR, which this step may fill with caller data.
MADE_TEMP = re.compile(r"\$\(\s*mktemp\b[^)]*\)|`\s*mktemp\b[^`]*`")
#: What comes before a path in one word: an option's head with its ``=``
#: (``--file=``) or a ``KEY=`` setting (``include.path=``).
PATH_HEAD = r"--?[A-Za-z0-9][A-Za-z0-9_.-]*=|[A-Za-z_][A-Za-z0-9_.-]*="


def names_place(text: str) -> bool:
    """`text` (a path as written) names a place steps may write
    (`writable_text`), a file or folder ``mktemp`` made, whatever a
    descriptor holds open (``/dev/stdin``, ``/dev/fd/3``,
    ``/proc/self/fd/4``: a redirection may give it any file), or a path
    whose start a command prints (``$(date +/dev/shm/x)/c``: not shown to
    be the author's folder)."""
    bare = text.strip("\"'")
    return (
        writable_text(text)
        or MADE_TEMP.search(text) is not None
        or _DESCRIPTOR_PATH.match(bare) is not None
        or bare.startswith(("$(", "`"))
        or _TRANSFORMED_START.match(bare) is not None
        or _globbed_place(bare)
    )


#: A file or folder of the run directory named by the author's literal path
#: (``$HARBOR_RUN_DIR/docker``, ``${HARBOR_RUN_DIR}/azure/config``): no
#: ``.`` or ``..`` step, no glob, and not one of the server's own entries.
_OWN_RUN_PATH = re.compile(r"\$(?:HARBOR_RUN_DIR|\{HARBOR_RUN_DIR\})/([A-Za-z0-9_.+@%/-]+)")


def writing_redirects(script: Parsed) -> Iterator[tuple[Node, Node]]:
    """Every redirection of `script` that opens a file for writing (``>``,
    ``>>``, ``>|``, ``&>``, ``<>``; not a descriptor's copy or close), with
    its destination word."""
    for redirect in script.of_type("file_redirect"):
        operator = next((c.type for c in redirect.children if ">" in c.type), None)
        dest = redirect.child_by_field_name("destination")
        if operator is None or operator in (">&", "<&", ">&-", "<&-") or dest is None:
            continue
        yield redirect, dest


def own_run_path(text: str) -> bool:
    """`text` (a path as written, quotes removed) names a file or folder the
    run's own steps make in the run directory (`RUN_DIR_ENTRIES` are the
    server's, which hold caller data): a place only when a step of the
    export may put caller data in the run directory."""
    found = _OWN_RUN_PATH.fullmatch(text.replace('"', "").replace("'", ""))
    if found is None:
        return False
    parts = found.group(1).rstrip("/").split("/")
    return parts[0] not in RUN_DIR_ENTRIES and all(p not in ("", ".", "..") for p in parts)


def _globbed_place(path: str) -> bool:
    """An absolute `path` with a glob in a folder that is not a plain one of
    the system's (``/dev/s[h]m/x/*.c``): bash replaces it with whatever
    names match, a place among them."""
    found = re.search(r"[*?\[]", path)
    if found is None or not _GLOBBED_PATH.fullmatch(path):
        return False
    parent = path[: found.start()].rsplit("/", 1)[0]
    return not _PLAIN_FOLDERS.fullmatch(parent)


def writable_piece(text: str) -> str | None:
    """The first part of a variable's value as written (`text`, the whole or
    a piece of a list or option in it) that names a place steps may write
    (`writable_text`); None when none does. Whatever a program reads the
    variable as, a file it finds there may be the caller's."""
    return next(iter(place_pieces(text)), None)


def place_pieces(text: str) -> list[str]:
    """Every part of a variable's value as written (`text`, the whole, then
    each piece of a list or option in it) that names a place steps may
    write, in order (`writable_piece` is the first)."""
    return [
        piece
        for piece in (text, *_VALUE_PIECES.split(text.strip("\"'")))
        if piece and names_place(piece)
    ]


def _reads_indirectly(src: bytes, node: Node) -> bool:
    """`node` is ``${!v}`` (``${!v:-x}``…): it reads the variable `v` names,
    not a list of names (``${!API_@}``, ``${!a[@]}``)."""
    children = node.children
    if node.type != "expansion" or len(children) < 3 or children[1].type != "!":
        return False
    return not re.match(r"\$\{![A-Za-z_][A-Za-z0-9_]*(?:[@*]|\[[@*]\])\}$", node_text(src, node))


#: A literal that stays one word unquoted: no glob, brace or blank.
ONE_LITERAL_WORD = re.compile(r"[A-Za-z0-9_.,:/=+%@^-]*")


def _unconditional_scope(node: Node) -> Node | None:
    """The function body (or whole script) in which `node` surely runs once
    control passes it: its ancestors up to there are plain sequences (``{ …
    }``, a redirection of it). None when it sits in a loop, a condition, a
    list, a pipeline or a subshell."""
    parent = node.parent
    while parent is not None:
        if parent.type == "program":
            return parent
        if parent.type == "compound_statement" and parent.parent is not None:
            if parent.parent.type == "function_definition":
                return parent
        elif parent.type != "redirected_statement":
            return None
        parent = parent.parent
    return None


def _declared_names(src: bytes, node: Node) -> set[str]:
    """The names a declaration (``declare -a x y=(…)``) declares."""
    names: set[str] = set()
    for child in node.children:
        target = child.child_by_field_name("name") if child.type == "variable_assignment" else child
        if target is not None and target.type == "variable_name":
            names.add(node_text(src, target))
    return names


def _name_of(src: bytes, command: Node) -> str | None:
    """The command word of a ``command`` node, after bash's quote removal
    (``\\trap`` and ``'trap'`` are ``trap``), else as written."""
    if command.type != "command":
        return None
    name = command.child_by_field_name("name")
    if name is None:
        return None
    # (tree-sitter may hang the line break before \\trap on the word)
    return (static_text(src, name) or node_text(src, name)).strip()


def _outermost(occs: list[Occ]) -> list[Occ]:
    """`occs` without those inside another one (``$ARG_x`` in ``$(wc -l <
    "$ARG_x")``: the substitution's output is what is assigned), by start."""
    return sorted(
        (
            o
            for o in occs
            if not any(
                p is not o
                and p.start <= o.start
                and o.end <= p.end
                and (p.start, p.end) != (o.start, o.end)
                for p in occs
            )
        ),
        key=lambda o: o.start,
    )


def _assigned_in(text: str) -> set[str]:
    """The names a piece of shell text may assign: ``NAME=``, ``NAME+=``,
    ``NAME[…]=``, and every name in it when it mentions a builtin that
    writes the variable a word names (``read x``, ``printf -v x``)."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    if words & (_NAME_TAKERS | {"declare", "typeset", "local", "readonly", "source", "eval"}):
        return words
    return set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=", text))


def _text_model(text: str) -> tuple[frozenset[str], frozenset[str], bool]:
    return frozenset(text), frozenset(text[:1]), not text


# ------------------------------------------------------------------ scripts


class TaintedScript:
    """One script text and where caller data is in it (see the module).

    `find_caller_data` fills `occs`, `taint`, `constants` and
    `rendered_vars`; a subclass checks what the script does with them
    (`mcp_harbor.check._analysis`)."""

    def __init__(
        self,
        text: str,
        sentinels: Sentinels | None,
        taint: Taint,
        locate: Callable[[int], Located],
        hazards: list[Hazard],
    ) -> None:
        self.text = text
        self.src = text.encode("utf-8")
        self.sentinels = sentinels
        self.taint = taint
        #: the variables as the script starts (`taint` grows as it is followed)
        self._starting = dict(taint.variables)
        self.locate = locate
        self.hazards = hazards
        #: every occurrence of caller data, by offset (`find_caller_data`)
        self.occs: list[Occ] = []
        self._base_occs: list[Occ] = []
        #: the substitutions whose output is the author's text the caller
        #: only chose (`_authors_choice`)
        self._chosen: list[tuple[int, int]] = []
        #: offsets of unquoted expansions that bash splits into words (filled
        #: by the subclass's context checks, read by `word`)
        self.split_starts: set[int] = set()
        #: those whose value may hold a glob character: bash replaces the
        #: word with file names, any text (filled alike, read by `word`)
        self.glob_starts: set[int] = set()
        #: tree-sitter's parse of `text` (`find_caller_data`)
        self.script: Parsed | None = None
        #: the functions the script defines, and their bodies
        self.functions: frozenset[str] = frozenset()
        self.function_bodies: Mapping[str, tuple[Node, ...]] = {}
        #: variables set by ``printf -v`` to text whose caller data is quoted
        self.rendered_vars: dict[str, tuple[str, dict[str, Sentinel]]] = {}
        self.rendered_count = 0
        #: grammars declared with ``programs:`` (they win over `sinks.GRAMMARS`)
        self.programs: Mapping[str, sinks.Grammar] = {}
        #: where the commands that get a secret start (their program word),
        #: found by `mcp_harbor.check._secrets`: caller data beside a secret
        #: may stand only where a grammar says data
        self.secret_commands: frozenset[int] = frozenset()
        #: what ``read`` takes from a file is clean (the secrets' follower,
        #: when no file holds a secret)
        self.file_reads_clean = False
        #: variables that only ever hold one literal (`_constants`)
        self.constants: dict[str, tuple[int, list[str]]] = {}
        #: how many places may assign each name (`_assignment_counts`)
        self._counts: dict[str, int] | None = None
        #: what the positional parameters may hold, by the function that
        #: holds them (`_TOP`, `_ALL`: see `_passes`)
        self._positional: dict[str, tuple[str, ValueModel]] = (
            {_ALL: taint.positional, _TOP: taint.positional} if taint.positional is not None else {}
        )
        #: the secrets' follower: the files (as written) a secret was
        #: written to; a substitution that prints one holds the secret
        self.secret_file_paths: frozenset[str] = frozenset()
        #: the here-strings whose names are being judged (`_names_clean`)
        self._judging: set[int] = set()
        #: the functions (`_positional` keys) a call passes words to whose
        #: number is not known (``f $v``, ``f "$@"``): no k-th word there
        self._uncounted: set[str] = set()
        #: names the script assigns in ways the analysis follows (an
        #: assignment, a ``for`` variable, ``local``/``declare NAME=…``)
        self.assigned: set[str] = set()
        #: the calls' words `_calls_prefix` is following through a variable
        self._prefixing: set[tuple[int, int]] = set()
        #: the assignments `_counted_stage` is following through ``echo``
        self._echoing: set[int] = set()
        #: the script may set IFS other than for one ``read`` (`_sets_ifs`;
        #: None: not yet asked)
        self._ifs_changed: bool | None = None
        #: the script may turn on extglob (`extglob_may_be_on`; None: not yet asked)
        self._extglob: bool | None = None
        #: `json_literals_written`, once asked
        self._json_literals: frozenset[str] | None = None
        #: names the script's own arithmetic sets (``((n++))``, ``let n=…``)
        self.arithmetic_names: set[str] = set()
        #: names that are a command's operand somewhere (``read NAME``,
        #: ``wait -p NAME``, ``declare -n NAME``…): whatever that command does
        #: with them, the analysis does not follow it, so they are never clean
        self.unmodeled: set[str] = set()
        #: names the text of ``eval``, ``source`` or ``trap`` assigns: set at
        #: a time and to a value the analysis does not follow (a DEBUG trap
        #: before every command), so never more than any text
        self.later_assigned: set[str] = set()
        #: the commands that take each name as a word (``read -r a b``)
        self.named_by: dict[str, list[Node]] = {}
        #: name references (``declare -n``/``local -n``): whatever they name
        self.namerefs: set[str] = set()
        #: names some declaration makes associative (``declare -A``); only
        #: `is_assoc` says where one surely is
        self.assoc: set[str] = set()
        #: the ``declare -A``/``local -A`` commands of each name
        self.assoc_declarations: dict[str, list[Node]] = {}
        #: names declared without ``-A`` somewhere, or unset: where such a
        #: name is an associative array is not proven
        self.maybe_indexed: set[str] = set()
        #: names a ``declare -i`` (``local -i``…) gives the integer attribute:
        #: what is written to them is evaluated as arithmetic
        self.integer_names: set[str] = set()
        #: arrays (``x=(…)``, ``declare -a``/``-A``): a declaration of one
        #: parses a value that starts with ``(`` again
        self.arrays: set[str] = set()
        #: functions whose body runs its arguments as a command (``"$@"``):
        #: each call is checked as that command line (`mcp_harbor.check._roles`)
        self.runs_args: set[str] = set()
        #: variables whose every assignment is ``$(mktemp …)`` with literal
        #: words: a path of the server's temporary folder, safe characters
        self.temp_paths: set[str] = set()
        self._memo_moves: list[Node] | None = None
        #: the script may change its folder through text run later (`works_in_writable`)
        self._moves_anywhere = False
        #: a step of the export may have put caller data in the folder the
        #: steps work in (`writes_working_tree` of any of its scripts): every
        #: relative path then names what the caller may have written
        self.cwd_written = False
        #: the commands of this script that may (`working_tree_writers`)
        self.cwd_writers: list[tuple[int, int]] = []
        #: a step may put a link in the run directory or a temporary folder
        #: (`makes_links`): a path there may lead anywhere
        self.links = False
        #: a step may write caller data into the repository (`writes_repository`)
        self.repository_written = False
        #: the files earlier steps wrote with caller data, and those this
        #: script writes (as written, normalized: `_script_level`)
        self.filled_before: frozenset[str] = frozenset()
        self.filled: frozenset[str] = frozenset()
        #: the first of them that surely puts a file the caller named or
        #: filled there (`working_tree_writers` finds it)
        self.caller_files: tuple[int, int] | None = None
        #: the script writes a name it computes (``read "$n"``, ``declare
        #: "$n=…"``): any name may hold anything, so none is clean
        self.dynamic_writes = False
        #: names not proven clean are the caller's (False: only what `taint`
        #: seeds is followed, as the secrets' follower wants)
        self.unproven_is_data = True
        #: the secrets' ``programs:`` (the secrets' follower only): each a
        #: program the author says never prints that secret
        self.secret_programs: Mapping[str, Collection[str]] = {}

    # -- reporting
    def hazard(self, rule: type[Rule], arg: str | None, byte: int, detail: str, fix: str) -> None:
        """Record a finding of `rule` about `arg` at `byte` of the text."""
        self.hazards.append(rule.hazard(arg, self.locate(byte), detail, fix))

    def report(self, hazard: Hazard | None) -> None:
        """Record what a rule found (None: nothing)."""
        if hazard is not None:
            self.hazards.append(hazard)

    def find_caller_data(self, script: Parsed) -> bool:
        """Find every occurrence of caller data in the script (`script`, the
        parse of `text`), the variables carrying it and the script's
        constants and renderings. False (with an H000 hazard) when a
        placeholder sits where the checker cannot tell how bash reads it."""
        root, nodes = script.root, script.nodes
        self.script = script
        self.functions = script.functions
        self.function_bodies = script.function_bodies
        sentinel_occs = self._sentinel_occs(root)
        if sentinel_occs is None:
            return False
        self._base_occs = sentinel_occs
        self._writes(script)
        self._temp_paths(script)
        self._fixpoint(script, sentinel_occs)
        self.constants = self._constants(nodes)
        self.occs = [self._guarded(o) for o in sentinel_occs + self._expansion_occs(script)]
        self.occs.sort(key=lambda o: o.start)
        self._render_variables(nodes)
        return True

    # -- occurrences
    def _sentinel_occs(self, root: Node) -> list[Occ] | None:
        occs: list[Occ] = []
        if self.sentinels is None:
            return occs
        for word, info in self.sentinels.by_word.items():
            start = self.src.find(word.encode())
            while start >= 0:
                end = start + len(word)
                node = root.descendant_for_byte_range(start, end)
                if node is None or node.type not in _SENTINEL_LEAVES:
                    self.hazard(
                        UnparseableTemplate,
                        info.arg,
                        start,
                        f"the placeholder for {info.arg!r} sits where the checker cannot "
                        f"tell how bash reads it ({node.type if node else 'nothing'})",
                        'pass the value as "$ARG_' + info.arg + '" in a plain argument',
                    )
                    return None
                kind = "sq" if info.shellquote else "raw"
                occs.append(Occ(info.arg, kind, info.model, start, end, node))
                start = self.src.find(word.encode(), end)
        return occs

    def _writes(self, script: Parsed) -> None:
        """Fill `assigned`, `arithmetic_names` and `unmodeled`."""
        src = self.src
        # an alias may make any command word a builtin that writes names
        # (aliases expand in a script only after shopt -s expand_aliases, or
        # a shopt whose words are not all literal)
        aliases = any(
            static_text(src, n.child_by_field_name("name") or n) == "alias"
            or (
                static_text(src, n.child_by_field_name("name") or n) == "shopt"
                and any(
                    static_text(src, a) in (None, "expand_aliases")
                    for a in n.children_by_field_name("argument")
                )
            )
            for n in script.of_type("command")
        )
        for node in script.nodes:
            kind = node.type
            if kind == "variable_assignment":
                name = node.child_by_field_name("name")
                if name is not None:
                    if name.type == "subscript":
                        name = name.child_by_field_name("name") or name
                    self.assigned.add(node_text(src, name))
                    value = node.child_by_field_name("value")
                    if value is not None and value.type == "array":
                        self.arrays.add(node_text(src, name))
            elif kind in ("for_statement", "c_style_for_statement"):
                var = node.child_by_field_name("variable")
                if var is not None:
                    self.assigned.add(node_text(src, var))
            elif kind in ("postfix_expression", "unary_expression", "binary_expression"):
                first = node.children[0] if node.children else None
                if first is not None and first.type in ("variable_name", "word"):
                    self.arithmetic_names.add(node_text(src, first))
            elif kind == "declaration_command":
                flags = "".join(
                    node_text(src, c)
                    for c in node.children
                    if c.type == "word" and node_text(src, c).startswith("-")
                )
                first = node.children[0] if node.children else None
                if first is not None and node_text(src, first) in ("declare", "local", "typeset"):
                    for child in node.children:
                        if child.type == "variable_name":
                            self.assigned.add(node_text(src, child))  # empty: clean
                declared = _declared_names(src, node)
                if "i" in flags:
                    self.integer_names.update(declared)
                if "a" in flags or "A" in flags:
                    self.arrays.update(declared)
                if "A" in flags:
                    self.assoc.update(declared)
                    for declared_name in declared:
                        self.assoc_declarations.setdefault(declared_name, []).append(node)
                elif first is not None and node_text(src, first) in ("declare", "local", "typeset"):
                    self.maybe_indexed.update(declared)
                for child in node.children:
                    text = node_text(src, child)
                    if child.type == "variable_assignment":
                        target = child.child_by_field_name("name")
                        text = node_text(src, target) if target is not None else ""
                    if "n" in flags and IDENT.fullmatch(text):
                        self.unmodeled.add(text)  # a name reference: another name's value
                        self.namerefs.add(text)
            elif kind == "expansion":
                # ${V:=word} and ${V=word} assign V
                if any(c.type in (":=", "=") for c in node.children):
                    assigned = expansion_target(src, node)
                    if assigned is not None:
                        self.unmodeled.add(assigned)
            elif kind == "command":
                name_node = node.child_by_field_name("name")
                literal_name = static_text(src, name_node) if name_node is not None else None
                literal_name = literal_name.strip() if literal_name is not None else None
                # the word bash runs: \trap, 'trap' and "trap" are trap
                cname = literal_name or (node_text(src, name_node) if name_node is not None else "")
                for arg in node.children_by_field_name("argument"):
                    text = node_text(src, arg)
                    if cname in ("mapfile", "readarray") and text.startswith("-C"):
                        # mapfile -C TEXT: text the shell runs for each chunk
                        callback = text[2:] or next(
                            (
                                node_text(src, a)
                                for a in node.children_by_field_name("argument")
                                if a.start_byte > arg.start_byte
                            ),
                            "",
                        )
                        self.unmodeled.update(_assigned_in(callback))
                        self.later_assigned.update(_assigned_in(callback))
                    if cname in ("eval", "source", ".", "trap"):
                        # the same shell runs this text later: the names it
                        # assigns there are not followed (all of its names
                        # when it runs a builtin that writes one)
                        self.unmodeled.update(_assigned_in(text))
                        self.later_assigned.update(_assigned_in(text))
                    elif cname == "let":
                        match = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text.lstrip("'\" "))
                        if match is not None:
                            self.arithmetic_names.add(match.group(0))
                    elif IDENT.fullmatch(text.strip("'\"")) and (
                        literal_name is None
                        or literal_name in _NAME_WRITING
                        or literal_name in self.functions
                        or aliases
                    ):
                        # only the shell writes its variables: a builtin that
                        # takes names, a function, a command word not known
                        self.unmodeled.add(text.strip("'\""))
                        self.named_by.setdefault(text.strip("'\""), []).append(node)
                    elif cname in _NAME_TAKERS and "$" in text and self._name_position(node, arg):
                        self.dynamic_writes = True  # read "$n", printf -v "$n"…
        for node in script.of_type("unset_command"):
            for child in node.named_children:
                text = node_text(src, child).strip("'\"")
                if IDENT.fullmatch(text):
                    self.maybe_indexed.add(text)
                elif not text.startswith("-") and not _ELEMENT.fullmatch(text):
                    # unset "$n": any name (unset 'm[$k]': an element of m)
                    self.dynamic_writes = True
        for node in script.of_type("declaration_command"):
            for child in node.children:
                if (
                    child.is_named
                    and child.type not in ("word", "variable_name")
                    and (
                        child.type != "variable_assignment"
                        or (child.child_by_field_name("name") or child).type
                        not in ("variable_name", "subscript")
                    )
                ):
                    self.dynamic_writes = True  # declare "$n=…": any name

    def _temp_paths(self, script: Parsed) -> None:
        """Fill `temp_paths` and `runs_args`."""
        src = self.src
        good: set[str] = set()
        bad: set[str] = set()
        for node in script.of_type("variable_assignment"):
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if name is None or name.type != "variable_name":
                continue
            variable = node_text(src, name)
            inner = value
            if inner is not None and inner.type == "string":
                parts = [c for c in inner.children if c.type != '"']
                inner = parts[0] if len(parts) == 1 else None
            ok = False
            if inner is not None and inner.type == "command_substitution":
                commands = [c for c in inner.children if c.is_named]
                if len(commands) == 1 and commands[0].type == "command":
                    cname = commands[0].child_by_field_name("name")
                    arguments = list(commands[0].children_by_field_name("argument"))
                    ok = (
                        cname is not None
                        and node_text(src, cname) == "mktemp"
                        and all(
                            (static_text(src, a) is not None
                             and _TEMP_WORD.fullmatch(static_text(src, a) or ""))
                            or _TEMP_TEMPLATE.fullmatch(node_text(src, a))
                            for a in arguments
                        )
                    )  # fmt: skip
            (good if ok else bad).add(variable)
        self.temp_paths = good - bad
        for function, body in script.function_bodies.items():
            for top in body:
                if self._sets_positionals(top):
                    continue  # set -- awk "$x" … "$@": not the words a call passes
                for inner in walk_nodes(top):
                    if inner.type == "command_name" and node_text(src, inner).strip('"') in (
                        "$@",
                        "${@}",
                    ):
                        self.runs_args.add(function)

    def _sets_positionals(self, body: Node) -> bool:
        """A ``set`` in `body` may replace the positional parameters: one
        with ``--``, ``-``, a word that is no option, or a word not literal
        (``set -e`` and ``set -o pipefail`` only set options)."""
        for node in walk_nodes(body):
            if node.type != "command" or _name_of(self.src, node) != "set":
                continue
            words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
            named = False  # the word after -o/+o is an option's name
            for word in words:
                if word is None or word in ("--", "-") or (word[:1] not in "-+" and not named):
                    return True
                named = word in ("-o", "+o") or (word[:1] in "-+" and word.endswith("o"))
        return False

    def _name_position(self, command: Node, arg: Node) -> bool:
        """`arg` of the builtin `command` is a place it takes a variable's
        name (``read NAME``, ``printf -v NAME``, ``wait -p NAME``)."""
        src = self.src
        name = command.child_by_field_name("name")
        cname = node_text(src, name) if name is not None else ""
        args = list(command.children_by_field_name("argument"))
        index = next(i for i, a in enumerate(args) if a.id == arg.id)
        before = node_text(src, args[index - 1]) if index > 0 else ""
        if cname in ("printf", "wait"):
            return before in ("-v", "-p")
        if cname == "let":
            return "$" in node_text(src, arg).split("=", 1)[0]
        if node_text(src, arg).startswith("-"):
            return False
        if cname == "read" and before in ("-d", "-n", "-N", "-p", "-t", "-u", "-i"):
            return False
        return not (cname in ("mapfile", "readarray") and before in _MAPFILE_VALUES)

    def _proven_clean(self, name: str) -> ValueModel | None:
        """The model of a name shown to hold no caller data, or None. Clean:
        the environment the runtime gives every step, what bash sets itself,
        and the script's own variables whose every write the analysis
        follows (the tainted ones are in `taint` first). Everything else,
        special parameters and unknown names included, is the caller's."""
        if self.dynamic_writes:
            return None
        if name in self.unmodeled and not self._read_from_authors(name):
            return None
        if name in _BASH_OWN or name in self.taint.clean:
            return any_model()
        if IDENT.fullmatch(name) and (name in self.assigned or self._read_from_authors(name)):
            return any_model()
        return None

    def _read_from_authors(self, name: str) -> bool:
        """Every command that takes `name` as a word is a ``read`` from a
        ``< <(…)`` that prints the author's text (`_reads_pure_substitution`),
        and nothing else writes it unseen (a name reference, ``${n:=…}``,
        ``eval``): it holds the author's text."""
        commands = self.named_by.get(name, [])
        if not commands or name in self.namerefs or self.script is None:
            return False
        if re.search(rf"\$\{{{re.escape(name)}:?=", self.text) or any(
            name in _assigned_in(node_text(self.src, c)) for c in self._evaluated()
        ):
            return False
        return all(
            _name_of(self.src, c) in ("read", "mapfile", "readarray") and self._reads_authors(c)
            for c in commands
        )

    def _reads_authors(self, command: Node) -> bool:
        """The ``read``/``mapfile`` `command` reads the author's text: from
        ``< <(…)`` that prints it (`_reads_pure_substitution`), or from a
        file no step can write (``< /proc/loadavg``; rule 2)."""
        if self._reads_pure_substitution(command):
            return True
        here = _here_string(self.src, command)
        if here is not None:
            # read -r a b <<< "$x": the author's when every name in it is
            return _plain_text(self.src, here) and self._names_clean(here)
        source = self._reads_a_file(command)
        return source is not None and not self.step_writable(source, at=command.start_byte)

    def _names_clean(self, text: Node) -> bool:
        """Every name `text` expands is proven clean (`_var_source`), none
        of them read on the way there (a ``read`` of itself is not)."""
        if text.start_byte in self._judging:
            return False
        self._judging.add(text.start_byte)
        try:
            return all(
                name is not None and self._var_source(name) is None
                for node, name, expansion in (self.script.reads() if self.script else ())
                if expansion and text.start_byte <= node.start_byte < text.end_byte
            )
        finally:
            self._judging.discard(text.start_byte)

    def _evaluated(self) -> list[Node]:
        """The words of ``eval``, ``source``, ``.`` and ``trap``: text the
        shell runs later."""
        found: list[Node] = []
        for node in self.script.of_type("command") if self.script is not None else ():
            if _name_of(self.src, node) in ("eval", "source", ".", "trap"):
                found.extend(node.children_by_field_name("argument"))
        return found

    def _var_source(self, name: str) -> tuple[str, ValueModel] | None:
        if name in self.later_assigned and self.unproven_is_data:
            return (UNPROVEN, any_model())  # trap 'n=$ARG_x' DEBUG
        if name in self.taint.variables:
            return self.taint.variables[name]
        if (
            self.taint.positional is not None
            and (name.isdigit() or name in ("@", "*"))
            and name != "0"
        ):
            return self.taint.positional
        if not self.unproven_is_data or self._proven_clean(name) is not None:
            return None
        if self.sentinels is not None and name in self.sentinels.by_word:
            return None  # a placeholder's sentinel: an occurrence of its own
        if not IDENT.fullmatch(name) and not (name.isdigit() or name in ("@", "*", "_")):
            return None  # not a name (``@`` in ``a[@]``)
        if name in _BASH_PATHS:
            return (UNPROVEN, _ABSOLUTE_PATH)
        if name in self.arithmetic_names and name not in self.unmodeled and not self.dynamic_writes:
            return (UNPROVEN, _NUMBER)  # set only by arithmetic: a number, maybe negative
        return (UNPROVEN, any_model())

    def is_assoc(self, name: str, use: Node) -> bool:
        """`name` is surely an associative array where `use` reads or writes
        it: a ``declare -A``/``local -A`` of it runs, unconditionally, before
        `use` in the same function (or at the top of the script), and the
        script neither declares it otherwise nor unsets it. Anything less
        and its subscripts may be arithmetic (an indexed array's)."""
        if name in self.maybe_indexed or self.dynamic_writes:
            return False
        for declaration in self.assoc_declarations.get(name, ()):
            if declaration.end_byte > use.start_byte:
                continue
            scope = _unconditional_scope(declaration)
            if scope is not None and scope.start_byte <= use.start_byte < scope.end_byte:
                return True
        return False

    def _loop_bound(self, node: Node, name: str) -> tuple[str, ValueModel] | Literal[False] | None:
        """What `name` holds at `node`, inside the body of the innermost
        ``for name in WORDS`` around it, when nothing else can have set it
        there: no other write of `name` in that loop, in any function or
        through a name (``eval``, a name reference, ``declare "$n=…"``).
        The loop's words are the author's: literal words (None: the
        author's text) or globs with a literal lead (a file's name,
        starting as the pattern does). False when it is not so (the
        script-wide model stands)."""
        if (
            self.dynamic_writes
            or self.namerefs
            or name in self._arithmetic_writes()
            or name in self.integer_names  # for n in first: the value of $first
            or self.script is None
            # text the shell runs later (eval, source, a trap, an alias)
            # may set any name
            or self._evaluated()
            or RUNS_BETWEEN.search(re.sub(r"[\"'\\]", "", self.text)) is not None
        ):
            return False
        loop = self._for_loop_of(node, name)
        body = loop.child_by_field_name("body") if loop is not None else None
        if loop is None or body is None or not body.start_byte <= node.start_byte:
            return False
        if self.sentinels is not None and any(
            w in node_text(self.src, loop) for w in self.sentinels.by_word
        ):
            return False
        places = [b for bodies in self.function_bodies.values() for b in bodies] + [body]
        if any(
            self._writes_name(place, name)
            or re.search(rf"\$\{{{name}:?=", node_text(self.src, place))
            for place in places
        ):
            return False  # set again in the loop, or in a function it may call
        values = list(loop.children_by_field_name("value"))
        if len(values) == 1:
            keys = _INDEXES.fullmatch(node_text(self.src, values[0]))
            if keys is not None and keys["name"] not in self.assoc:
                # for i in "${!a[@]}" of an array no declaration makes
                # associative: its indexes, whole numbers from 0
                return (UNPROVEN, _COUNT)
            literal = self._literal_keys(keys["name"]) if keys is not None else None
            if literal:
                # declare -A flags=([2]=A [16]=B), written no other way: its keys
                return (UNPROVEN, words_model(literal))
        firsts: set[str] = set()
        for value in values:
            raw = node_text(self.src, value)
            if value.type not in ("word", "concatenation") or any(c in raw for c in "$`'\"\\"):
                return False
            if not _GLOB_OR_BRACE.search(raw):
                continue  # a literal word of the author's
            if "{" in raw or raw.startswith("/") or not self.unproven_is_data:
                return False
            lead = _literal_lead(raw)
            if lead is None:
                return False
            firsts.add(lead)
        if not firsts:
            return None
        return (UNPROVEN, replace(any_model(), first=frozenset(firsts)))

    def _for_loop_of(self, node: Node, name: str) -> Node | None:
        """The innermost ``for name in …`` statement around `node`."""
        return next(
            (
                a
                for a in ancestors(node)
                if a.type == "for_statement"
                and (v := a.child_by_field_name("variable")) is not None
                and node_text(self.src, v) == name
            ),
            None,
        )

    def _literal_keys(self, name: str) -> list[str] | None:
        """The keys of the associative array `name` when every write of it
        is a list of ``[KEY]=VALUE`` pairs with literal keys (``declare -A
        flags=([2]=A [16]=B)``): nothing else sets an element."""
        if (
            self.script is None
            or self.dynamic_writes
            or name in self.unmodeled | self.namerefs
            or name in self.named_by
        ):
            return None
        keys: list[str] = []
        for node in self.script.of_type("variable_assignment"):
            target = node.child_by_field_name("name")
            if target is None:
                continue
            if target.type == "subscript":
                inner = target.child_by_field_name("name")
                if inner is not None and node_text(self.src, inner) == name:
                    return None  # flags[$k]=…: an element set another way
                continue
            if node_text(self.src, target) != name:
                continue
            value = node.child_by_field_name("value")
            if value is None or value.type != "array":
                return None
            for element in value.children:
                if element.type in ("(", ")"):
                    continue
                pair = re.fullmatch(
                    r"\[([A-Za-z0-9_.:-]+)\]=.*", node_text(self.src, element), re.S
                )
                if pair is None:
                    return None
                keys.append(pair.group(1))
        return keys or None

    def _writes_name(self, place: Node, name: str) -> bool:
        """Something in `place` may set `name`: an assignment, a loop, or a
        builtin given the bare name as a word (``read NAME``, ``printf -v
        NAME``, ``declare NAME``); a program's words set no variable of
        the script (``yq --arg NAME``)."""
        for node in walk_nodes(place):
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None and target.type == "subscript":
                    target = target.child_by_field_name("name")
                if target is not None and node_text(self.src, target) == name:
                    return True
            elif node.type in ("for_statement", "c_style_for_statement"):
                var = node.child_by_field_name("variable")
                if var is not None and node_text(self.src, var) == name:
                    return True
                if node.type == "c_style_for_statement" and name in node_text(self.src, node):
                    return True
            elif (
                node.type in ("declaration_command", "unset_command")
                and any(
                    name in re.split(r"[^A-Za-z0-9_]", node_text(self.src, a))
                    for a in node.children
                )
            ) or (
                node.type == "command"
                and _name_of(self.src, node) in _SETS_NAMES
                and any(
                    # the name as a word of its own, or first in one (k=1, k[0],
                    # k+=1): not a name inside an expansion ("${labels[k]}")
                    re.match(rf"['\"]?{re.escape(name)}(?![A-Za-z0-9_])", node_text(self.src, a))
                    # an option cluster with it attached (printf -vk, read -ak)
                    or re.fullmatch(
                        rf"-[A-Za-z]*['\"]?{re.escape(name)}['\"]?", node_text(self.src, a)
                    )
                    for a in node.children_by_field_name("argument")
                )
            ):
                return True
        return False

    def _keys_clean_map(self, node: Node) -> bool:
        """`node` stands in the key of ``${NAME[…]}`` (nothing else in that
        expansion) where NAME is surely an associative array (`is_assoc`)
        whose every element write the analysis follows: bash expands the
        key once, as a string, and the expansion is one of NAME's values or
        empty, whatever the key; what NAME holds is an occurrence of its
        own (its model, none when it holds only the author's text)."""
        for parent in ancestors(node.parent) if node.parent is not None else iter(()):
            if parent.type != "subscript":
                continue
            name, index, holder = (
                parent.child_by_field_name("name"),
                parent.child_by_field_name("index"),
                parent.parent,
            )
            if (
                name is None
                or index is None
                or holder is None
                or holder.type != "expansion"
                or not index.start_byte <= node.start_byte < index.end_byte
            ):
                return False
            text = node_text(self.src, holder)
            array = node_text(self.src, name)
            plain = f"${{{array}[{node_text(self.src, index)}]"
            default = text[len(plain) : -1] if text.startswith(plain) else None
            if default is None or not _LITERAL_DEFAULT.fullmatch(default):
                # ${!m[$k]}, ${m[$k]:-$x}, ${m[$k]/…}: more than the value
                return False
            return (
                self.is_assoc(array, parent)
                and not self.namerefs
                and self._elements_only_assigned(array)
            )
        return False

    def _elements_only_assigned(self, array: str) -> bool:
        """Every ``ARRAY[`` of the script is an expansion's or an
        assignment's subscript: no ``read``, ``printf -v`` or ``declare``
        writes an element of it through a word."""
        if self.script is None:
            return False
        places = {
            n.start_byte
            for n in self.script.of_type("subscript")
            if n.parent is not None and n.parent.type in ("expansion", "variable_assignment")
        }
        return all(
            m.start() in places
            for m in re.finditer(
                rb"(?<![A-Za-z0-9_])" + re.escape(array.encode()) + rb"\[", self.src
            )
        )

    def array_fragments(self, name: str) -> list[list[Word]] | None:
        """The element words of each ``NAME=(…)`` and ``NAME+=(…)`` of an
        indexed array the script writes only that way: ``"${NAME[@]}"`` is
        some of them, in order. None: the array is written otherwise."""
        if (
            name in self.unmodeled
            or name in self.assoc
            or self.dynamic_writes
            or self.script is None
        ):
            return None
        fragments: list[list[Word]] = []
        for node in self.script.of_type("variable_assignment"):
            target = node.child_by_field_name("name")
            if target is None or node_text(self.src, target) != name:
                continue
            value = node.child_by_field_name("value")
            if value is None or value.type != "array":
                return None
            fragments.append(
                [
                    self._element(child, value)
                    for child in value.children
                    if child.type not in ("(", ")")
                ]
            )
        return fragments or None

    def _element(self, child: Node, array: Node) -> Word:
        """The word of one element of an array literal: an unquoted
        expansion in it splits into several elements (`_splits`)."""
        word = self.word(child)
        # (the names a glob matches are words of their own: they split no more)
        if not word.splits and any(self._splits(o, array) for o in word.occs if o.var != "*"):
            word = replace(word, splits=True)
        return word

    def function_calls(self, function: str) -> list[Node] | None:
        """Every command that calls `function`, when those are the only ways
        the script can run it: its name appears nowhere else (not as a
        wrapper's operand, in ``trap``/``eval`` text or a variable), and it
        is defined once. None otherwise."""
        if len(self.function_bodies.get(function, ())) != 1 or self.script is None:
            return None
        calls = [
            node
            for node in self.script.of_type("command")
            if (name := node.child_by_field_name("name")) is not None
            and node_text(self.src, name) == function
        ]
        text = bytearray(self.src)
        for comment in self.script.of_type("comment"):  # (a comment runs nothing)
            text[comment.start_byte : comment.end_byte] = b" " * (
                comment.end_byte - comment.start_byte
            )
        mentions = len(
            re.findall(
                rb"(?<![A-Za-z0-9_.:/-])" + re.escape(function.encode()) + rb"(?![A-Za-z0-9_.:/-])",
                bytes(text),
            )
        )
        # aws iam list-users: a program's operand that only spells the
        # name (a program cannot run a function of the script)
        spelled = sum(
            1
            for node in self.script.of_type("command")
            if self._runs_nothing_named(node)
            for argument in node.children_by_field_name("argument")
            if argument.type == "word" and node_text(self.src, argument) == function
        )
        return calls if calls and mentions - spelled == len(calls) + 1 else None

    def _runs_nothing_named(self, command: Node) -> bool:
        """`command` is a program named literally that runs no command or
        function its words name: no function of the script, no shell, no
        wrapper or ``eval``-like builtin, no builtin that binds names."""
        name = command.child_by_field_name("name")
        text = static_text(self.src, name) if name is not None else None
        if text is None or "/" in text or text in self.functions:
            return False
        program = grammars.normal_program(text)
        return (
            program in _SUBCOMMANDS_RUN_NOTHING
            or (
                program in grammars.GRAMMARS
                and program not in sinks.WRAPPERS
                and program not in sinks.EVAL_LIKE
                and grammars.GRAMMARS[program].command_from is None
                and not grammars.GRAMMARS[program].command_after_dashdash
                and program not in _RUNNERS
            )
            or (program in self.programs and self.programs[program].data_operands)
        )

    def _literal_calls(self, use: Node) -> tuple[Node, list[Node]] | None:
        """The body of the function `use` is in and every call of it
        (`function_calls`), when it has those; None otherwise."""
        function = self.function_at(use.start_byte)
        if function is None or self.script is None:
            return None
        calls = self.function_calls(function)
        if calls is None:
            return None
        (body,) = self.function_bodies[function]  # defined once (`function_calls`)
        return body, calls

    def _literal_loop_word(self, word: Node) -> bool:
        """`word` is ``"$d"`` (``$d``, ``"${d}"``) of a name set only as the
        variable of ``for`` loops over literal words with no line break and
        no ``-`` first (``for d in /var/lib/a /var/lib/b``): each value one
        such word."""
        match = _PLAIN_EXPANSION.fullmatch(node_text(self.src, word).strip('"'))
        return match is not None and bool(
            self._literal_loop_values(match.group(1) or match.group(2))
        )

    def _literal_loop_values(self, name: str) -> list[str] | None:
        """Every value of `name` when it is set only as the variable of
        ``for`` loops over literal words with no line break and no ``-``
        first; None otherwise."""
        if self.script is None or self.dynamic_writes:
            return None
        if name in self.unmodeled | self.arithmetic_names | self.namerefs or name in self.named_by:
            return None
        found: list[str] = []
        for node in self.script.nodes:
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None and node_text(self.src, target).split("[")[0] == name:
                    return None
            elif node.type == "for_statement":
                variable = node.child_by_field_name("variable")
                if variable is None or node_text(self.src, variable) != name:
                    continue
                values = node.children_by_field_name("value")
                texts = [static_text(self.src, v) for v in values]
                if not values or not all(
                    self._one_literal(v)
                    and t is not None
                    and not t.startswith("-")
                    and "\n" not in t
                    for v, t in zip(values, texts, strict=True)
                ):
                    return None
                found += [t for t in texts if t is not None]
        return found or None

    def _finite_choices(self, argument: Node) -> list[str | None]:
        """`_finite_texts` of `argument`, or the one unknown word."""
        texts = self._finite_texts(argument)
        return [None] if texts is None else list(texts)

    def _finite_texts(self, argument: Node, limit: int = 16) -> list[str] | None:
        """Every text the double-quoted word `argument` may be when each of
        its expansions is a plain ``$name`` of a literal loop's variable
        (`_literal_loop_values`) or of an `enum`/`const` arg
        (``"s/^/  $env: /"``); None otherwise, or past `limit`."""
        if argument.type != "string":
            return None
        texts = [""]
        for child in argument.children:
            raw = node_text(self.src, child)
            if child.type == '"':
                continue
            if child.type == "string_content":
                if "`" in raw or "$" in raw:
                    return None
                texts = [t + dq_unescape(raw) for t in texts]
                continue
            if child.type not in ("simple_expansion", "expansion"):
                return None
            plain = _PLAIN_EXPANSION.fullmatch(raw)
            if plain is None:
                return None
            name = plain.group(1) or plain.group(2)
            held = self.taint.variables.get(name)
            values = (
                sorted(held[1].words)
                if held is not None and held[1].words is not None
                else self._literal_loop_values(name)
                if held is None
                else None
            )
            if values is None:
                return None
            texts = [t + v for t in texts for v in values]
            if len(texts) > limit:
                return None
        return texts

    def _one_literal(self, word: Node) -> bool:
        """`word` is one literal word: no expansion, and no glob or brace
        list (``\\(``, ``!`` and ``{}`` are each themselves)."""
        unescaped = re.sub(r"\\.", "", node_text(self.src, word))
        return (
            static_text(self.src, word) is not None
            and word.type in ("word", "string", "raw_string", "number", "concatenation")
            and not (word.type in ("word", "concatenation") and _EXPANDS.search(unescaped))
        )

    def literal_positional(self, use: Node, k: int) -> bool:
        """``$k`` at `use` is a literal word of the author's: `use` is in a
        function every call of which (`function_calls`) passes a literal as
        its k-th argument, after k-1 literal ones, and no ``shift`` or
        ``set`` can have run in the function before `use` does (none before
        it; none at all when `use` is in a loop)."""
        found = self._literal_calls(use)
        if found is None:
            return False
        body, calls = found
        in_loop = any(
            a.type in ("for_statement", "c_style_for_statement", "while_statement")
            and body.start_byte <= a.start_byte
            for a in ancestors(use)
        )
        for node in walk_nodes(body):
            if node.type != "command" or (name := node.child_by_field_name("name")) is None:
                continue
            if node_text(self.src, name) == "set" or (
                node_text(self.src, name) == "shift"
                and (in_loop or node.start_byte < use.start_byte)
            ):
                return False
        for call in calls:
            words = list(call.children_by_field_name("argument"))
            if len(words) < k or not all(self._one_literal(word) for word in words[:k]):
                return False  # an expansion, or a glob or brace list: how many words?
        return True

    def _runs_in(self, body: Node, names: Sequence[str]) -> bool:
        """A command of `body` is one of the builtins `names`."""
        return any(
            (name := node.child_by_field_name("name")) is not None
            and node_text(self.src, name) in names
            for node in walk_nodes(body)
            if node.type == "command"
        )

    def literal_arguments(self, use: Node) -> bool:
        """``"$@"`` at `use` is words of the author's: `use` is in a function
        every call of which (`function_calls`) passes only literal words (a
        ``shift`` drops some; no ``set`` in the function replaces them)."""
        found = self._literal_calls(use)
        if found is None:
            return False
        body, calls = found
        if self._runs_in(body, ("set",)):
            return False
        return all(
            self._one_literal(word)
            for call in calls
            for word in call.children_by_field_name("argument")
        )

    def leading_shifts(self, function: str) -> int | None:
        """How many of its arguments `function` (one that runs ``"$@"``)
        shifts away before it runs them: the ``shift``/``shift N`` commands
        that run unconditionally in its body before the command ``"$@"``.
        None when a ``shift`` or ``set`` stands anywhere else."""
        bodies = self.function_bodies.get(function, ())
        if len(bodies) != 1:
            return None
        (body,) = bodies
        runs = [
            n
            for n in walk_nodes(body)
            if n.type == "command_name" and node_text(self.src, n).strip('"') in ("$@", "${@}")
        ]
        if not runs:
            return None
        return self._shifts(body, min(n.start_byte for n in runs))

    def shifts_before(self, function: str, use: Node) -> int | None:
        """How many of its arguments `function` has shifted away where
        `use` runs: the ``shift``/``shift N`` commands of its body that run
        unconditionally before `use`, when no ``set`` stands in it, no
        ``shift`` stands anywhere else, and `use` is in no loop of it. None
        otherwise."""
        bodies = self.function_bodies.get(function, ())
        if len(bodies) != 1:
            return None
        (body,) = bodies
        if any(
            a.type in ("for_statement", "c_style_for_statement", "while_statement")
            and body.start_byte <= a.start_byte
            for a in ancestors(use)
        ):
            return None
        return self._shifts(body, use.start_byte)

    def _shifts(self, body: Node, before: int) -> int | None:
        """How many words the ``shift``/``shift N`` commands of the function
        `body` drop, each running unconditionally before byte `before`;
        None when a ``set`` stands in it or a ``shift`` anywhere else."""
        count = 0
        for node in walk_nodes(body):
            if node.type != "command" or (name := node.child_by_field_name("name")) is None:
                continue
            cname = node_text(self.src, name)
            if cname == "set":
                return None
            if cname != "shift":
                continue
            arguments = [node_text(self.src, a) for a in node.children_by_field_name("argument")]
            if (
                node.start_byte > before
                or _unconditional_scope(node) != body
                or len(arguments) > 1
                or (arguments and not arguments[0].isdigit())
            ):
                return None
            count += int(arguments[0]) if arguments else 1
        return count

    def function_at(self, byte: int) -> str | None:
        """The function whose body holds `byte` (the innermost), or None."""
        found: tuple[int, str] | None = None
        for name, body in self.function_bodies.items():
            for node in body:
                if node.start_byte <= byte < node.end_byte:
                    size = node.end_byte - node.start_byte
                    if found is None or size < found[0]:
                        found = (size, name)
        return found[1] if found else None

    def clean_names(self) -> frozenset[str]:
        """The names this script leaves clean, for a script it hands over
        (``eval``, ``sh -c``): the enclosing names and its own clean ones."""
        own = {n for n in self.assigned | self.arithmetic_names if self._var_source(n) is None}
        return frozenset(self.taint.clean | own)

    def _expansion_occs(self, script: Parsed) -> list[Occ]:
        occs: list[Occ] = self._plain_expansion_occs(script)
        base = list(self._base_occs) + occs
        for node in script.of_type("command_substitution"):
            inner = [o for o in base if node.start_byte <= o.start and o.end <= node.end_byte]
            counted = (
                self._counted(node)
                or self._json_text(node)
                or self._object_names(node, inner)
                or self._date_text(node)
            )
            if not self.unproven_is_data and (self._digest(node) or self._sent_only(node, inner)):
                # the secrets' follower: a digest of a secret is not the
                # secret, nor the answer of a program it was a credential of
                continue
            if not inner and not self.unproven_is_data and self._prints_secret_file(node):
                # the secrets' follower: x=$(cat "$HARBOR_RUN_DIR/token"), a
                # file a secret was written to, printed into a capture
                label = next(iter(self._starting), UNPROVEN)
                occs.append(
                    Occ(label, "env", any_model(), node.start_byte, node.end_byte, node, "$(…)")
                )
                continue
            if inner and self.unproven_is_data and self._authors_choice(node, inner):
                # one of the author's texts, whichever the caller chose
                if (node.start_byte, node.end_byte) not in self._chosen:
                    self._chosen.append((node.start_byte, node.end_byte))
                continue
            if (
                inner
                and self.unproven_is_data
                and self._authors_words_only(node, inner)
                and not self._verbatim_printer(node)
                and self._pure(node)
            ):
                # awk -v lvl="$ARG_level" '…' logs/app.log: enum values, the author's
                if (node.start_byte, node.end_byte) not in self._chosen:
                    self._chosen.append((node.start_byte, node.end_byte))
                continue
            if not inner:
                if not self.unproven_is_data or self._pure(node):
                    continue
                # what an unknown program prints is not the author's
                occs.append(
                    Occ(
                        UNPROVEN,
                        "env",
                        counted or any_model(),
                        node.start_byte,
                        node.end_byte,
                        node,
                        "$(…)",
                    )
                )
                continue
            model = counted or any_model()
            commands = [c for c in node.children if c.is_named]
            if len(commands) == 1 and commands[0].type == "command":
                name = commands[0].child_by_field_name("name")
                if (
                    name is not None
                    and node_text(self.src, name) in ("printf", "echo")
                    and self._verbatim_print(commands[0])
                ):
                    model = inner[0].model
                    for other in inner[1:]:
                        model = model.union(other.model)
                elif (
                    name is not None
                    and node_text(self.src, name) == "seq"
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
                Occ(inner[0].arg, "env", model, node.start_byte, node.end_byte, node, "$(…)")
            )
        return occs

    def step_writable(self, path: Node, at: int | None = None) -> bool:
        """The file `path` names may have been written by a step of the
        export (or carries caller data in its name): it is in the run
        directory, a temporary folder, a caller-chosen place, or a relative
        path while the script changes into a folder it cannot show to be
        out of every step's reach (`works_in_writable`; `at`: the offset of
        the command that reads it). Files no step can write are clean."""
        if self.occs_in(path.start_byte, path.end_byte):
            return True
        text = node_text(self.src, path).strip("\"'")
        if _WRITABLE_PLACE.search(text):
            return True
        static = static_text(self.src, path)
        if static is None:
            loop = VARIABLE.fullmatch(text)
            if (
                loop is not None
                and self._names_authors_files(loop.group(1) or loop.group(2))
                and not self.works_in_writable(at)  # (nothing wrote one since)
            ):
                return False  # for f in scripts/*.sh; do bash -n "$f"; done
            if loop is not None and path.type in ("string", "simple_expansion", "expansion"):
                value = self.set_once(loop.group(1) or loop.group(2))
                if value is not None and static_text(self.src, value) is not None:
                    # f=/proc/sys/…/nf_conntrack_count … < "$f": that path
                    return self.step_writable(value, at)
            return not _CLEAN_PATH_EXPANSION.fullmatch(text)
        if static in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"):
            return False
        if _STREAMS.match(static):
            return True  # /dev/stdin, /dev/fd/3, /proc/self/fd/0: whatever was opened
        return not static.startswith("/") and self.works_in_writable(at)

    def writable_word(self, word: Word) -> bool:
        """`step_writable` of a command-line word (its node in the tree)."""
        if word.tainted:
            texts = (
                self._product(word.start, word.end, word.occs, 64)
                if word.occs and all(o.model.words is not None for o in word.occs)
                else None
            )
            # "infra/$ARG_env" with an enum: each of the author's paths
            return texts is None or any(self._path_writable(t, word.start) for t in texts)
        if self.script is None or word.end <= word.start:
            return False
        node = self.script.root.descendant_for_byte_range(word.start, word.end)
        return node is not None and self.step_writable(node)

    def _path_writable(self, path: str, at: int) -> bool:
        """`step_writable` of a literal path: in the run directory, a
        temporary folder or one of the server's, or relative while the
        script works in a folder a step may write; ``..`` climbs anywhere."""
        if not path or ".." in path.split("/") or _WRITABLE_PLACE.search(path):
            return True
        return not path.startswith("/") and self.works_in_writable(at)

    def _moves_within(self, target: Node) -> bool:
        """The ``cd`` operand `target` is one arg validated to stay inside a
        folder of the working folder (``within:``, no ``..`` in it): the
        script works in the author's tree, as writable as the working
        folder (`works_in_writable` asks that too)."""
        text = node_text(self.src, target)
        match = re.fullmatch(r'"?\$\{?(ARG_[A-Za-z0-9_]+)\}?"?', text)
        model: ValueModel | None = None
        if match is not None:
            held = self.taint.variables.get(match.group(1))
            model = held[1] if held is not None else None
        elif self.sentinels is not None and text.strip("\"'") in self.sentinels.by_word:
            model = self.sentinels.by_word[text.strip("\"'")].model
        within = model.within if model is not None else None
        return (
            within is not None
            and not within.startswith(("/", "~"))
            and ".." not in within.split("/")
        )

    def works_in_writable(self, at: int | None = None) -> bool:
        """The script works in a folder a step may have written: another
        step of the export may put caller data in the working folder
        (`cwd_written`), or a command of this script may (`cwd_writers`;
        `at`: the offset of the command asking, whose own writes come
        after it starts), or the script changes its folder (``cd``,
        ``pushd``) to one that is not a literal absolute path outside the
        temporary folders."""
        if self.cwd_written or any(
            at is None or not start <= at < end for start, end in self.cwd_writers
        ):
            return True
        moves = self._memo_moves
        if moves is None:
            moves = []
            for node in self.script.of_type("command") if self.script is not None else ():
                name = node.child_by_field_name("name")
                if (
                    name is not None
                    and node_text(self.src, name) in _RUNS_TEXT_LATER
                    and _MOVES.search(node_text(self.src, node))
                ):
                    # eval 'cd …', trap 'cd …' DEBUG, command cd …: a move
                    # the checker does not read, anywhere
                    self._moves_anywhere = True
                    continue
                if name is None or node_text(self.src, name) not in ("cd", "pushd", "popd"):
                    continue
                words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
                if node_text(self.src, name) == "popd" or any(
                    w is not None and (w == "-" or re.fullmatch(r"[+-][0-9]+", w)) for w in words
                ):
                    moves.append(node)  # cd - (OLDPWD), popd, pushd +1: a folder held
                    continue
                targets = [
                    a
                    for a in node.children_by_field_name("argument")
                    if not node_text(self.src, a).startswith("-")
                ]
                if not targets:
                    moves.append(node)  # cd alone: $HOME
                    continue
                for target in targets:
                    static = static_text(self.src, target)
                    if static is None:
                        writable = not self._moves_within(target)
                    elif static.startswith("/"):
                        writable = bool(_WRITABLE_PLACE.search(static))
                    else:
                        # cd sub: a folder of the working folder, as writable as it
                        writable = ".." in static.split("/") or static.startswith("~")
                    if writable:
                        moves.append(node)
            self._memo_moves = moves
        if self._moves_anywhere:
            return True
        if at is not None and any(
            f.start_byte <= at < f.end_byte
            for f in (self.script.of_type("function_definition") if self.script else ())
        ):
            at = None  # a function runs where it is called: after any cd
        return any(at is None or _moved_before(move, at) for move in moves)

    def working_tree_writers(self) -> list[tuple[int, int]]:
        """A command of the script may put caller data in the folder the
        steps work in, where programs read code and config unseen (python's
        modules, a Makefile, ``.git/config``, ``.env``): the caller's file
        would be ambient. Proven otherwise by construction only: a command
        with no caller data in its pipeline writes the author's files; one
        with caller data writes none there when its program writes no file
        (`grammars.writes_no_file`) and every file its redirections write is
        an absolute literal path or in the run directory or a temporary
        folder, under a name the caller cannot lead out of it. Returns the
        byte range of each such command (of a redirection: the redirection
        alone, which bash opens before the command starts; of a language's
        program, an empty range: no command is exempt from it)."""
        found: list[tuple[int, int]] = []
        if self.script is None:
            return found
        for node in self.script.of_type("command"):
            # install "$HARBOR_RUN_DIR/x" ./x, sort -o x "$HARBOR_RUN_DIR/y":
            # what a step wrote, now a file of the working folder, without
            # any caller data in the command's words
            if not self._occs_in_command(node) and self._copies_in(node):
                found.append((node.start_byte, node.end_byte))
        if not self.occs:
            return found
        for node in self.script.of_type("command"):
            scope = node
            while scope.parent is not None and scope.parent.type in (
                "pipeline",
                "redirected_statement",
            ):
                scope = scope.parent
            if not any(
                not names_nothing(o.model) and not self._server_path_written(o)
                for o in self.occs_in(scope.start_byte, scope.end_byte)
            ):
                continue
            if self._may_write(node, scope):
                # its own writes come after it starts, unless it is a
                # language whose own program writes: a later call of the
                # same command would load what an earlier one wrote
                end = node.start_byte if self._language(node) else node.end_byte
                found.append((node.start_byte, end))
                if self.caller_files is None and (
                    end == node.start_byte or self._puts_caller_files(node)
                ):
                    self.caller_files = (node.start_byte, node.end_byte)
        for redirect, dest in writing_redirects(self.script):
            scope = redirect.parent if redirect.parent is not None else redirect
            callers = self.occs_in(scope.start_byte, scope.end_byte)
            if any(not names_nothing(o.model) for o in callers) and not (
                self._outside_working_tree(self._assigned_value(dest))
            ):
                found.append((redirect.start_byte, redirect.end_byte))
                if self.caller_files is None and static_text(self.src, dest) is None:
                    # a name the author did not write (the caller's, or computed)
                    self.caller_files = (redirect.start_byte, redirect.end_byte)
        return found

    def _server_path_written(self, occ: Occ) -> bool:
        """`occ` is a server's path whose file holds caller data
        (``$HARBOR_OUTPUT``) standing where a redirection writes: the
        command gets the file to fill, not what is in it."""
        if occ.arg != CALLER_FILE_SOURCE or occ.node is None:
            return False
        for parent in ancestors(occ.node):
            if parent.type == "file_redirect":
                destination = parent.child_by_field_name("destination")
                operator = next((c.type for c in parent.children if not c.is_named), "")
                return (
                    destination is not None
                    and destination.start_byte <= occ.start < destination.end_byte
                    and operator in (">", ">>", ">|", "&>", "&>>")
                )
            if parent.type in ("command", "redirected_statement", "program"):
                return False
        return False

    def _occs_in_command(self, node: Node) -> bool:
        """Caller data stands in the command `node`'s pipeline or redirection."""
        scope = node
        while scope.parent is not None and scope.parent.type in (
            "pipeline",
            "redirected_statement",
        ):
            scope = scope.parent
        return bool(self.occs_in(scope.start_byte, scope.end_byte))

    def _copies_in(self, node: Node) -> bool:
        """`node`, with clean words, names a file this script or an earlier
        step wrote caller data into (``install``, ``cp -t``, ``sort -o``,
        ``dd if=``, ``ln``; `filled`) and may write a file in the working
        folder (`_may_write`): it may put the caller's file there."""
        filled = self.filled_before | self.filled
        if not filled:
            return False
        for argument in node.children_by_field_name("argument"):
            text = normal_path(node_text(self.src, argument).replace('"', "").split("=", 1)[-1])
            if any(text == f or f.startswith(text.rstrip("/") + "/") for f in filled):
                scope = node.parent if node.parent is not None else node
                return self._may_write(node, scope)
        return False

    def _may_write(self, node: Node, scope: Node) -> bool:
        """The command `node` (in the pipeline or redirection `scope`), which
        carries caller data, may write a file in the working folder."""
        name = node.child_by_field_name("name")
        program = static_text(self.src, name) if name is not None else None
        arguments = list(node.children_by_field_name("argument"))
        # --output="$f": the option as written, its value not the author's
        words = [
            static_text(self.src, a)
            or _option_written(node_text(self.src, a), not self.links)
            or self._numbers_text(a)
            or self._quoted_text(program, a)
            or self._constant_text(a)
            for a in arguments
        ]
        if program is not None and None in words:
            # sed "s/^/  $env: /" over a literal loop: each text it may be
            choices: list[list[str | None]] = [
                [w] if w is not None else self._finite_choices(a)
                for a, w in zip(arguments, words, strict=True)
            ]
            lines: list[list[str | None]] = [[]]
            for choice in choices:
                lines = [[*line, c] for line in lines for c in choice]
                if len(lines) > 16:
                    break
            if (
                len(lines) <= 16
                and any(
                    len(c) > 1 or c != [None]
                    for c, w in zip(choices, words, strict=True)
                    if w is None
                )
                and all(grammars.writes_no_file(program.rsplit("/", 1)[-1], line) for line in lines)
            ):
                return False
        if program is None and name is not None:
            # PYTHON=python3 … "$PYTHON" -c …: the constant it stands for
            resolved = self.resolve_command_word(self.word(name))
            if resolved and resolved[0].static is not None:
                program = resolved[0].static
                words = [w.static for w in resolved[1:]] + words
        if program is None:
            # "$@" in a function that runs its arguments: judged at each call
            text = node_text(self.src, name) if name is not None else ""
            inside = self.function_at(node.start_byte)
            return not (text in ('"$@"', "$@") and inside in self.runs_args)
        if program in self.functions:
            if program not in self.runs_args:
                return False  # its body's commands are judged where they stand
            # retry 3 git fetch …: the command line after its own leading
            # numbers and options
            k = 0
            while k < len(words) and (words[k] or "x")[:1] in "-0123456789":
                k += 1
            rest = words[k:]
            head = rest[0] if rest else None
            return head is None or not grammars.writes_no_file(head.rsplit("/", 1)[-1], rest[1:])
        declared = self.programs.get(program) or self.programs.get(program.rsplit("/", 1)[-1])
        if declared is not None and declared.output_options is not None:
            # programs: {tool: {output_options: [--out]}}: only what those name
            return self._writes_through(arguments, words, declared.output_options)
        program = program.rsplit("/", 1)[-1]
        if program == "curl":
            return self._curl_writes(arguments, words)
        if program in ("tar", "bsdtar") and not self._puts_caller_files(node):
            # creating or listing: it writes only its archive (-f FILE)
            return not self._archive_outside(arguments, words)
        if program in _COMPRESSORS and all(
            w is None
            or not w.startswith("-")
            or w in _COMPRESSOR_OPTIONS
            or (not w.startswith("--") and set(w[1:]) <= _COMPRESSOR_LETTERS)
            for w in words
        ):
            # gzip -9 -- "$out": "$out.gz" beside it; -c and -t: no file
            if any(
                w is not None
                and (
                    w in ("--stdout", "--to-stdout", "--test")
                    or (w.startswith("-") and not w.startswith("--") and set(w[1:]) & set("ct"))
                )
                for w in words
            ):
                return False
            return not all(
                self._outside_working_tree(self._assigned_value(a))
                for a, w in zip(arguments, words, strict=True)
                if w is None or not w.startswith("-")
            )
        if program in _WRITES_ITS_OPERANDS:
            operands = [
                a
                for a, w in zip(arguments, words, strict=True)
                if w is None or not w.startswith("-")
            ]
            if (
                program in ("cp", "mv", "install", "ln")
                and "-t" not in words
                and all(not (w or "").startswith("--target-directory") for w in words)
            ):
                operands = operands[-1:]  # SOURCE… DEST: only DEST is written
            return not all(self._outside_working_tree(a) for a in operands)
        for given, written in self._array_variants(arguments, words):
            kept = self._without_outside_outputs(program, given, written)
            if not grammars.writes_no_file(program, kept, False, self.heredoc_text(node)):
                return True
        return False

    def _numbers_text(self, argument: Node) -> str | None:
        """The text of `argument` when its caller data is numbers alone
        (``"{{ args.n }},$(( {{ args.n }} + 9 ))p"``), each as ``1``: what
        its program does (writes a file or not) is what it does with any
        number there. None for any other word."""
        occs = self.word(argument).occs
        if not occs or not all(
            o.model.numeric or (o.model.chars <= _DIGITS and o.model.chars) for o in occs
        ):
            return None
        raw = self.src[argument.start_byte : argument.end_byte]
        out = bytearray()
        at = argument.start_byte
        for occ in sorted(occs, key=lambda o: o.start):
            out += self.src[at : occ.start] + b"1"
            at = max(at, occ.end)
        out += self.src[at : argument.end_byte]
        text = out.decode("utf-8", "replace")
        if raw[:1] == b'"' and text.endswith('"') and len(text) >= 2:
            text = text[1:-1]
        if any(c in text for c in "$`\\'\""):
            return None
        return text

    def _array_variants(
        self, arguments: list[Node], words: list[str | None]
    ) -> list[tuple[list[Node], list[str | None]]]:
        """The command line `arguments` (`words` as written) with each
        ``"${NAME[@]}"`` of an array the script sets once at its top level
        (``NAME=(…)``) and then only adds to (``NAME+=(…)``) spliced in: its
        least elements (the first assignment's, always there) and its most
        (every one). What a program writes with both is what it may write
        with any; an array set otherwise stays one word it cannot read."""
        variants: list[tuple[list[Node], list[str | None]]] = [(arguments, words)]
        for k, argument in enumerate(arguments):
            match = _WHOLE_ARRAY.fullmatch(node_text(self.src, argument))
            parts = (
                self.array_parts(match.group(1), argument.start_byte) if match is not None else None
            )
            if parts is None:
                continue
            least, most = parts
            variants = [
                (
                    [*given[:k], *elements, *given[k + 1 :]],
                    [
                        *written[:k],
                        *(
                            static_text(self.src, e)
                            or _option_written(node_text(self.src, e), not self.links)
                            for e in elements
                        ),
                        *written[k + 1 :],
                    ],
                )
                for given, written in variants
                for elements in (least, most)
            ]
            break  # one array spliced; a second one stays a word
        return variants

    def array_parts(self, name: str, at: int) -> tuple[list[Node], list[Node]] | None:
        """The elements of the array `name` that every ``"${name[@]}"`` at
        byte `at` holds, and all its elements (`_array_variants`); None when
        it is not set once at the top level, before `at`, and then only
        added to."""
        if name in self.unmodeled or name in self.assoc or self.dynamic_writes or not self.script:
            return None
        assignments = [
            n
            for n in self.script.of_type("variable_assignment")
            if (t := n.child_by_field_name("name")) is not None and node_text(self.src, t) == name
        ]
        if not assignments:
            return None
        first, rest = assignments[0], assignments[1:]
        values = [a.child_by_field_name("value") for a in assignments]
        if (
            any(v is None or v.type != "array" for v in values)
            or first.parent is None
            or first.parent.type != "program"
            or first.end_byte > at
            or "+=" in node_text(self.src, first).split("(", 1)[0]
            or not all("+=" in node_text(self.src, a).split("(", 1)[0] for a in rest)
        ):
            return None
        elements = [
            [c for c in v.children if c.type not in ("(", ")")] for v in values if v is not None
        ]
        return elements[0], [e for part in elements for e in part]

    def _attached_assignment(self, argument: Node) -> Node | None:
        """For ``--opt="$v"`` whose variable the script assigns exactly once,
        the value assigned (``out="$HARBOR_RUN_DIR/a.tgz"``); else None."""
        attached = _ATTACHED_VARIABLE.fullmatch(node_text(self.src, argument))
        if attached is None:
            return None
        return self.assigned_once().get(attached.group(1) or attached.group(2))

    def _writes_through(
        self, arguments: Sequence[Node], words: list[str | None], options: frozenset[str]
    ) -> bool:
        """A program that writes no file but those its `options` name writes
        one in the working folder: one of them is given, and its value is
        not shown to be outside it (`_outside_working_tree`)."""
        for k, word in enumerate(words):
            if word is None:
                continue
            option = word.split("=", 1)[0]
            if option not in options:
                continue
            if "=" in word:
                held = self._attached_assignment(arguments[k])
                value = word.split("=", 1)[1]
                if held is not None and self._outside_working_tree(held):
                    continue
                if (
                    value.startswith("/")
                    and "/.." not in value
                    and word == static_text(self.src, arguments[k])
                ):
                    continue
                return True
            if k + 1 >= len(arguments) or not self._outside_working_tree(
                self._assigned_value(arguments[k + 1])
            ):
                return True
        return False

    def _without_outside_outputs(
        self, program: str, arguments: Sequence[Node], words: list[str | None]
    ) -> list[str | None]:
        """`words` without the options through which `program` writes a
        file (`grammars.output_options`) whose value names a file outside
        the working folder (``openssl dgst -out "$HARBOR_RUN_DIR/sig"``,
        ``sort -o /tmp/x``): what is left decides whether it writes there."""
        options, takes_value = grammars.output_options(program, words)
        kept: list[str | None] = []
        skip = False
        for k, word in enumerate(words):
            if skip:
                skip = False
                continue
            if word is not None and word in options and word in takes_value:
                if k + 1 < len(arguments) and self._outside_working_tree(
                    self._assigned_value(arguments[k + 1])
                ):
                    skip = True
                    continue
            elif word is not None and word.split("=", 1)[0] in options and "=" in word:
                value = word.split("=", 1)[1]
                if value.startswith("/") and "/.." not in value:
                    continue
                held = self._attached_assignment(arguments[k])
                if held is not None and self._outside_working_tree(held):
                    continue  # --output="$out", out="$HARBOR_RUN_DIR/…"
            kept.append(word)
        return kept

    def _curl_writes(self, arguments: Sequence[Node], words: Sequence[str | None]) -> bool:
        """curl writes a file in the working folder: it names its output
        after the URL (``-O``), or a file option's value (``-o``, ``-D``,
        ``-c``, ``--trace``…) is not outside it."""
        for k, word in enumerate(words):
            if word is None:
                continue
            option = word.split("=", 1)[0]
            if option in _CURL_NAMES_FILES or (
                word.startswith("-") and not word.startswith("--") and "O" in word[1:]
            ):
                return True
            if option in _CURL_FILE_OPTIONS:
                if "=" in word:
                    return not word.split("=", 1)[1].startswith("/")
                if k + 1 >= len(arguments) or not self._outside_working_tree(
                    self._assigned_value(arguments[k + 1])
                ):
                    return True
        return False

    def _assigned_value(self, node: Node) -> Node:
        """For ``"$v"`` whose variable the script assigns exactly once, the
        value assigned (``out="$HARBOR_RUN_DIR/$ARG_name"``); else `node`."""
        text = node_text(self.src, node).strip('"')
        name = text[1:].strip("{}") if text.startswith("$") else ""
        return self.assigned_once().get(name, node)

    def assigned_once(self) -> dict[str, Node]:
        """Each variable the script assigns exactly once, with the value
        assigned (a name assigned more often, or with no value, is not
        here)."""
        found: dict[str, list[Node | None]] = {}
        for node in self.script.of_type("variable_assignment") if self.script else ():
            target = node.child_by_field_name("name")
            if target is not None:
                found.setdefault(node_text(self.src, target), []).append(
                    node.child_by_field_name("value")
                )
        return {
            name: values[0]
            for name, values in found.items()
            # a name a command may write too (read out, printf -v out) is not
            if len(values) == 1 and values[0] is not None and name not in self.unmodeled
        }

    def _archive_outside(self, arguments: Sequence[Node], words: Sequence[str | None]) -> bool:
        """tar's archive (the value of ``-f``, ``--file``, or of ``f`` in a
        first cluster such as ``-czf``) is outside the working folder (or
        standard output)."""
        for k, word in enumerate(words):
            if word is None:
                continue
            if word.startswith("--file="):
                held = self._attached_assignment(arguments[k])
                if held is not None:
                    return self._outside_working_tree(held)  # --file="$out"
                return word[7:] == "-" or (word[7:].startswith("/") and "/.." not in word)
            takes = word == "--file" or (
                not word.startswith("--")
                and (k == 0 or word.startswith("-"))
                and word.endswith("f")
            )
            if takes and k + 1 < len(arguments):
                value = words[k + 1]
                return value == "-" or self._outside_working_tree(
                    self._assigned_value(arguments[k + 1])
                )
        return False

    def _puts_caller_files(self, node: Node) -> bool:
        """`puts_caller_files` of the command `node`."""
        name = node.child_by_field_name("name")
        program = static_text(self.src, name) if name is not None else None
        words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
        return program is not None and puts_caller_files(program, words)

    def author_texts(self, name: str, at: int) -> list[str] | None:
        """The texts the author's name `name` may hold at byte `at`: the
        literal words of the ``for name in WORDS`` loop around it
        (`_loop_bound`: nothing else sets it there), or the literal text of
        its one assignment (`set_once`); None when not known."""
        if self.script is None:
            return None
        node = self.script.root.descendant_for_byte_range(at, at + 1)
        if node is None:
            return None
        if self._loop_bound(node, name) is None:
            loop = self._for_loop_of(node, name)
            values = (
                [static_text(self.src, v) for v in loop.children_by_field_name("value")]
                if loop is not None
                else []
            )
            if values and None not in values:
                return [v for v in values if v is not None]
        held = self.set_once(name)
        text = static_text(self.src, held) if held is not None else None
        return [text] if text is not None else None

    def _constant_text(self, node: Node) -> str | None:
        """The literal text of the word `node` when it is ``"$NAME"`` of a
        name one assignment sets to literal text (`set_once`:
        ``db=data/app.db`` … ``"$db"``), and no caller data is in it."""
        use = _CONSTANT_USE.fullmatch(node_text(self.src, node))
        if use is None or use["all"] or self.occs_in(node.start_byte, node.end_byte):
            return None
        held = self.set_once(use["bare"] or use["braced"])
        return static_text(self.src, held) if held is not None else None

    def _quoted_text(self, program: str | None, node: Node) -> str | None:
        """The text the word `node` gives `program` when every caller value
        in it stands inside a quoted literal of its language that the value
        cannot end (`_literals.quoted_program`: ``"… where code =
        '$ARG_code'"`` to sqlite3), each value written as ``x``: inside
        the literal, what it says changes nothing the program does."""
        if program is None:
            return None
        occs = self.occs_in(node.start_byte, node.end_byte)
        text = _literals.quoted_program(
            grammars.normal_program(program.rsplit("/", 1)[-1]),
            self.src[node.start_byte : node.end_byte],
            node.start_byte,
            occs,
            self.author_texts,
        )
        return text.replace(_literals.MARK, "x") if text is not None else None

    def _language(self, node: Node) -> bool:
        """The command `node` runs a language's program (python3, node,
        perl, awk, sed…), whose own text may write files."""
        name = node.child_by_field_name("name")
        program = static_text(self.src, name) if name is not None else None
        if program is None:
            return True
        words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
        return grammars.is_language(program.rsplit("/", 1)[-1], words)

    def output_model(self) -> ValueModel | None:
        """What the step outputs this script writes can hold (its
        ``STEP_<step>_<key>`` variables in later steps): None when they are
        the author's. Known only when every reference to
        ``$HARBOR_STEP_OUTPUT`` is where a statement appends its output
        (not ``exec``), and no command could find the file through its
        environment (each writes no file, or only files its words name:
        `grammars.writes_only_named_files`; a function of the script is
        judged by its body). Then the outputs hold what those statements
        print: nothing of the caller's when no caller data is in them,
        exactly a value ``echo "key=$v"`` (``printf 'key=%s\\n' "$v"``)
        prints, else any text. A value that may hold a line break and a
        ``=`` may write other keys, with any character first."""
        if self.script is None:
            return any_model()
        for node in self.script.of_type("command"):
            name = node.child_by_field_name("name")
            program = static_text(self.src, name) if name is not None else None
            if program is None:
                return any_model()
            if program in self.functions:
                continue
            words = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
            base = program.rsplit("/", 1)[-1]
            if not (
                grammars.writes_no_file(base, words, False, self.heredoc_text(node))
                or grammars.writes_only_named_files(base, words)
            ):
                return any_model()
        model: ValueModel | None = None
        references = [
            node
            for node, name, expansion in self.script.reads()
            if expansion and name == "HARBOR_STEP_OUTPUT"
        ]
        if len(references) != self.text.count("HARBOR_STEP_OUTPUT"):
            return any_model()  # named some other way (${!v}, declare -n, printenv)
        for node in references:
            statement = self._appending_statement(node)
            if statement is None:
                return any_model()
            found = self._printed_model(statement)
            if found is not None:
                model = found if model is None else model.union(found)
        if model is not None and "\n" in model.chars and model.chars & set("=<"):
            return any_model()
        return model

    def _appending_statement(self, node: Node) -> Node | None:
        """The statement whose output the redirection `node` (the expansion
        ``$HARBOR_STEP_OUTPUT``) stands in sends to the step's output file,
        None when `node` stands anywhere else or the statement is ``exec``
        (every later command's output)."""
        parent = node.parent
        if parent is not None and parent.type == "string":
            if node_text(self.src, parent) != f'"{node_text(self.src, node)}"':
                return None
            node, parent = parent, parent.parent
        if parent is None or parent.type != "file_redirect":
            return None
        if parent.child_by_field_name("destination") != node:
            return None
        operator = next((c.type for c in parent.children if not c.is_named), "")
        if operator not in (">", ">>"):
            return None
        statement = parent.parent
        if statement is None or statement.type != "redirected_statement":
            return None
        body = statement.child_by_field_name("body")
        if body is None:
            return None
        if body.type == "command":
            head = body.child_by_field_name("name")
            if head is None or node_text(self.src, head) == "exec":
                return None
        return statement

    def _printed_model(self, statement: Node) -> ValueModel | None:
        """What `statement` (sending its output to the step's output file)
        may print of the caller's: None when nothing."""
        targets = [
            c.child_by_field_name("destination")
            for c in statement.children
            if c.type == "file_redirect"
        ]
        occs = [
            o
            for o in self.occs_in(statement.start_byte, statement.end_byte)
            if not any(t is not None and t.start_byte <= o.start < t.end_byte for t in targets)
        ]
        if not occs:
            return None
        body = statement.child_by_field_name("body")
        if len(occs) == 1 and body is not None and body.type == "command":
            value = self._key_value(body, occs[0])
            if value is not None:
                return value
        if body is not None and body.type == "command":
            values = self._key_values(body, occs)
            if values is not None:
                return values
        return any_model()

    def _key_values(self, command: Node, occs: Sequence[Occ]) -> ValueModel | None:
        """The model of the values ``printf 'a=%s\\nb=%s\\n' "$a" "$b"``
        (`command`) writes: one ``key=%s\n`` a value, each value one
        argument, the caller's ones `occs`, each whole."""
        name = command.child_by_field_name("name")
        arguments = list(command.children_by_field_name("argument"))
        if name is None or node_text(self.src, name) != "printf" or len(arguments) < 2:
            return None
        form = static_text(self.src, arguments[0])
        if form is None or not re.fullmatch(r"(?:[A-Za-z_][A-Za-z0-9_]*=%s\\n)+", form):
            return None
        if form.count("%s") != len(arguments) - 1:
            return None
        model: ValueModel | None = None
        for argument in arguments[1:]:
            inside = [o for o in occs if argument.start_byte <= o.start < argument.end_byte]
            if not inside:
                continue  # the author's value
            inner = self.src[inside[0].start : inside[0].end].decode("utf-8", "replace")
            if len(inside) != 1 or node_text(self.src, argument).strip('"') != inner:
                return None
            model = inside[0].model if model is None else model.union(inside[0].model)
        return model

    def _key_value(self, command: Node, occ: Occ) -> ValueModel | None:
        """The model of the one value ``echo "key=$v"`` or ``printf
        'key=%s\\n' "$v"`` (`command`) writes, `occ` being ``$v`` whole."""
        name = command.child_by_field_name("name")
        program = node_text(self.src, name) if name is not None else ""
        arguments = list(command.children_by_field_name("argument"))
        inner = self.src[occ.start : occ.end].decode("utf-8", "replace")
        if program == "echo" and len(arguments) == 1 and "xpg_echo" not in self.text:
            text = node_text(self.src, arguments[0])
            if re.fullmatch(r'"?[A-Za-z_][A-Za-z0-9_]*=' + re.escape(inner) + '"?', text):
                return occ.model
        if program == "printf" and len(arguments) == 2:
            form = static_text(self.src, arguments[0])
            whole = node_text(self.src, arguments[1]).strip('"') == inner
            if form is not None and whole and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=%s\\n", form):
                return occ.model
        return None

    def _stdin_occs(self, red: Node) -> list[Occ]:
        """The caller data in what the redirection `red` gives a command's
        standard input: a here-document's own, not that of the redirections
        tree-sitter puts inside it (``<<'PY' > "$out"``: `$out` names a
        file written), nor that of the commands it puts there after the
        here-document's start (``<<'PY' || printf '%s' "$h"``, ``<<'EOF' |
        sort``: another command's words)."""
        nested = [
            (c.start_byte, c.end_byte)
            for i, c in enumerate(red.children)
            if red.type == "heredoc_redirect"
            and (
                (
                    red.field_name_for_child(i) == "redirect"
                    and c.type == "file_redirect"
                    # (one that reads, `< "$f"`, is standard input itself)
                    and ">" in next((t.type for t in c.children if not t.is_named), "<")
                )
                or (c.is_named and c.type not in _HEREDOC_OWN and not c.type.endswith("redirect"))
            )
        ]
        return [
            o
            for o in self.occs_in(red.start_byte, red.end_byte)
            if not any(a <= o.start < b for a, b in nested)
        ]

    def heredoc_text(self, node: Node) -> str | None:
        """The body of the here-document on this command's standard input,
        when no caller data is in it but the author's words and numbers
        (``limit {{ args.limit }};``: inert even in a program)."""
        holder = (
            node.parent
            if node.parent is not None and node.parent.type == "redirected_statement"
            else node
        )
        for red in holder.children:
            if red.type != "heredoc_redirect":
                continue
            if any(not o.model.inert_code for o in self._stdin_occs(red)):
                return None
            body = next((c for c in red.children if c.type == "heredoc_body"), None)
            return node_text(self.src, body) if body is not None else None
        return None

    def _outside_working_tree(self, dest: Node, depth: int = 0) -> bool:
        """The file `dest` names is not in a folder programs read code or
        config from: an absolute literal path, or a path in the run
        directory or a temporary folder whose caller data cannot hold ``/``
        (it cannot climb out). Home is not one (``~/.gitconfig``)."""
        static = static_text(self.src, dest)
        if static is not None:
            return normal_path(static).startswith("/")  # /proc/self/cwd/x is ./x
        raw = node_text(self.src, dest)
        text = raw.lstrip("\"'")
        place = _RUN_PLACE.match(text)
        lead = VARIABLE.match(text)
        if place is None and lead is not None and depth < 4 and not self.links:
            # dir="$work/snap-$stamp" (work=$(mktemp -d)) … > "$dir/$f": the
            # folder its one value names, then no caller `/`
            name = lead.group(1) or lead.group(2)
            value = self.set_once(name)
            after = dest.start_byte + len(raw) - len(text) + lead.end()
            return (
                name in self.temp_paths
                or (value is not None and self._outside_working_tree(value, depth + 1))
            ) and all("/" not in o.model.chars for o in self.occs_in(after, dest.end_byte))
        if place is None or self.links:
            return False
        after = dest.start_byte + len(raw) - len(text) + place.end()
        return all("/" not in occ.model.chars for occ in self.occs_in(after, dest.end_byte))

    def _clean_stage(self, stage: Node) -> bool:
        """A pipeline stage whose output is the author's: pure commands with
        clean words, or ``cat`` of a literal here-document."""
        for inner in walk_nodes(stage):
            if inner.type == "command":
                name = inner.child_by_field_name("name")
                text = node_text(self.src, name) if name is not None else ""
                args = list(inner.children_by_field_name("argument"))
                if text == "cat" and not args:
                    continue
                if text not in PURE_COMMANDS:
                    return False
            elif inner.type == "file_redirect" and node_text(self.src, inner).startswith("<"):
                return False
        return True

    def _verbatim_printer(self, node: Node) -> bool:
        """The substitution `node` is one ``printf``/``echo``: what it prints
        is its words, whose models `_expansion_occs` keeps (an enum's words)."""
        commands = [c for c in node.children if c.is_named]
        return (
            len(commands) == 1
            and commands[0].type == "command"
            and _name_of(self.src, commands[0]) in ("printf", "echo")
        )

    def _verbatim_print(self, command: Node) -> bool:
        """``echo`` without options, or ``printf '%s'`` (``'%s\\n'``): what
        is printed is the values as they are (``echo -e``, ``printf %b`` and
        ``shopt -s xpg_echo`` decode escapes: any text, a ``-`` first)."""
        if "xpg_echo" in self.text:
            return False
        name = command.child_by_field_name("name")
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        if name is None:
            return False
        if node_text(self.src, name) == "echo":
            return not any(w is not None and w.startswith("-") for w in words[:1])
        return bool(words) and words[0] in ("%s", "%s\\n")

    def _pure(self, node: Node) -> bool:
        """Every command in the substitution `node` is a pure one
        (`PURE_COMMANDS`) with literal or clean words, and nothing is read
        from a file: its output is the author's."""
        for inner in walk_nodes(node):
            if inner == node:
                continue  # <(…) itself: what is inside it decides
            kind = inner.type
            if kind == "file_redirect":
                if any(c.type in ("<", "<&", "<>") for c in inner.children):
                    return False
            elif kind == "command":
                name = inner.child_by_field_name("name")
                text = (
                    static_text(self.src, name.children[0])
                    if name is not None and name.children
                    else None
                )
                if text == "git" and self._reads_authors_repository(inner):
                    continue
                piped = (
                    inner.parent is not None
                    and inner.parent.type == "pipeline"
                    and inner.parent.named_children[0] != inner
                )
                if text is not None and self._reads_authors_files(inner, piped=piped):
                    continue  # (piped: it reads what the stage before prints)
                if text is None or text not in PURE_COMMANDS:
                    return False
                for arg in inner.children_by_field_name("argument"):
                    word = static_text(self.src, arg)
                    if word is not None and _IMPURE_OPTIONS.match(word) and text == "date":
                        return False
            elif kind in ("herestring_redirect", "heredoc_redirect", "process_substitution"):
                return False
        return True

    def _names_authors_files(self, name: str) -> bool:
        """`name` is set only as the variable of ``for`` loops over the
        author's files' names (`_authors_names`): each value it holds
        names a file no step can write."""
        if (
            self.script is None
            or self.dynamic_writes
            or name in self.unmodeled
            or name in self.named_by
            or name in self._starting
            or name in self.taint.clean
            or name in self._arithmetic_writes()
        ):
            return False
        loops = 0
        for node in self.script.nodes:
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None and (
                    node_text(self.src, target.child_by_field_name("name") or target) == name
                ):
                    return False
            elif node.type in ("for_statement", "c_style_for_statement"):
                variable = node.child_by_field_name("variable")
                if variable is None or node_text(self.src, variable) != name:
                    continue
                values = node.children_by_field_name("value")
                if node.type != "for_statement" or not values:
                    return False  # for f; do …: the positional parameters
                if not all(self._authors_names(v) for v in values):
                    return False
                loops += 1
            elif node.type == "declaration_command" and any(
                node_text(self.src, c) == name for c in node.children
            ):
                return False
        return loops > 0

    def _authors_names(self, value: Node) -> bool:
        """The loop word `value` is the author's literal text (a glob, a brace
        list, words) naming files no step can write: a relative pattern in a
        working folder no step writes, or an absolute one outside the run
        directory and the temporary folders. What it gives are the author's
        files' names (rule 2)."""
        raw = node_text(self.src, value)
        if value.type not in ("word", "concatenation") or any(c in raw for c in "$`'\"\\"):
            return False
        if self.sentinels is not None and any(w in raw for w in self.sentinels.by_word):
            return False
        if _WRITABLE_PLACE.search(raw) or _STREAMS.match(raw):
            return False
        return raw.startswith("/") or not self.works_in_writable(value.start_byte)

    def _find_records(self, command: Node) -> ValueModel | None:
        """``while IFS= read -r -d '' f; do …; done < <(find . … -print0)``
        (or ``find … -print0 | while …``): `command` reads one whole record
        into one name, and each record is a path ``find`` printed, which
        starts with the literal starting point it was found under (GNU
        findutils 4.9 find(1)): whatever the rest holds, its first
        character is known. None when that is not shown: another action
        prints (``-print``, ``-printf``, ``-ls``, ``-exec``…), the names
        come from a file (``-files0-from``), or a record may be a part of
        a line (a name with a line break, read by lines)."""
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        names = [w for w in words if w is not None and IDENT.fullmatch(w)]
        options = [w for w in words if w is None or not IDENT.fullmatch(w)]
        if len(names) != 1 or sorted(o or "" for o in options) not in (
            ["", "-d", "-r"],
            ["", "-d"],
        ):
            return None
        source = self._read_source(command)
        if source is None or source.type != "command" or not self._literal_only(source):
            return None
        if static_text(self.src, source.child_by_field_name("name") or source) != "find":
            return None
        arguments = [
            static_text(self.src, a) or "" for a in source.children_by_field_name("argument")
        ]
        k = 0
        while k < len(arguments) and arguments[k] in ("-H", "-L", "-P"):
            k += 1
        starts: list[str] = []
        while k < len(arguments) and arguments[k] and arguments[k][0] not in "-(!,":
            starts.append(arguments[k])
            k += 1
        expression = set(arguments[k:])
        if (
            "-print0" not in expression
            or expression & _FIND_OTHER_OUTPUT
            or any(not start or start[0] in " \t\n\\" for start in starts)
        ):
            return None
        starts = starts or ["."]
        # each record starts with the starting point it was found under, whole
        return ValueModel(
            any_model().chars, frozenset(s[0] for s in starts), False, heads=frozenset(starts)
        )

    def _array_items(self, command: Node) -> ValueModel | None:
        """``mapfile -t a < <(jq -r '.[]' <<< "$ARG_x")`` (or ``while read
        -r v``, or ``jq … | while …``) of an array arg whose ``items`` the
        schema describes: each element (each line) is one item, as its
        schema says (jq 1.6: ``-r`` prints a string raw and a number as
        JSON, one per line; the runtime refuses a line break in any string
        of a single-line arg). ``read`` strips blanks around the line, so
        only items that cannot start with one. None when not so."""
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        names = [w for w in words if w is not None and IDENT.fullmatch(w)]
        options = sorted(w or "" for w in words if w is None or not IDENT.fullmatch(w))
        program = _name_of(self.src, command)
        if len(names) != 1 or (program == "read" and options != ["-r"]):
            return None
        if program in ("mapfile", "readarray") and options != ["-t"]:
            return None
        source = self._read_source(command)
        if source is None or source.type != "command" or _name_of(self.src, source) != "jq":
            return None
        given = [static_text(self.src, a) for a in source.children_by_field_name("argument")]
        if sorted(w or "" for w in given) not in (["-r", ".[]"], ["--raw-output", ".[]"]):
            return None
        here = _here_string(self.src, source)
        match = _CONSTANT_USE.fullmatch(node_text(self.src, here)) if here is not None else None
        name = (match["bare"] or match["braced"]) if match and not match["all"] else None
        held = self.taint.variables.get(name) if name and name.startswith("ARG_") else None
        if held is None or held[1].items is None or name in self.assigned | self.unmodeled:
            return None
        items = held[1].items
        if "\n" in items.chars or "\r" in items.chars:
            return None  # (multiline: an item may be several lines)
        if program == "read" and items.first & {" ", "\t"}:
            return None
        return replace(items, can_be_empty=True)

    def _reads_a_file(self, command: Node) -> Node | None:
        """The path of the file the ``read``/``mapfile`` `command` reads
        from, when it reads only from one named by ``< PATH`` (on itself,
        or on the ``while`` loop it is the condition of)."""
        dest = _read_redirect(self.src, command)
        return dest if dest is not None and dest.type != "process_substitution" else None

    def _count_field(self, command: Node) -> ValueModel | None:
        """``read -r total _ < <(wc -l -- "$f")``: the first name `command`
        reads takes the first field of ``wc``'s first line, a count (GNU
        coreutils 9.1 wc(1): the counts, then the file's name), when it is
        not the only name (a lone name takes the whole line) or wc reads
        its standard input (no name printed)."""
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        names = [w for w in words if w is not None and IDENT.fullmatch(w)]
        if any(w is None or (w.startswith("-") and w not in ("-r",)) for w in words) or not names:
            return None  # read -d, -n, -a…: not one line split into fields
        splits = self._splits_at(command)
        if len(names) >= 2 and splits is not None:
            producer = self._line_producer(command)
            after = None if producer is None else self._number_then(producer)
            if after is not None and after <= splits:
                return _COUNT
        source = self._read_source(command)
        if source is None or source.type != "command":
            return None
        if static_text(self.src, source.child_by_field_name("name") or source) != "wc":
            return None
        arguments = [static_text(self.src, a) for a in source.children_by_field_name("argument")]
        options = [a for a in arguments if a is not None and a.startswith("-")]
        if any(o not in _WC_COUNTS for o in options):
            return None
        end = arguments.index("--") if "--" in arguments else len(arguments)
        if any(a is None for a in arguments[:end]):
            return None  # a word that may be an option (--help prints no count)
        operands = len(arguments) - len(options)
        if len(names) < 2 and operands > 0:
            return None
        if operands > 0 and (splits is None or not {" ", "\t"} & splits):
            return None  # wc's count and its file's name, read as one field
        return _COUNT

    def _line_producer(self, command: Node) -> Node | None:
        """The command whose lines the ``read`` `command` reads, through the
        stages after it that keep each line whole (``sort`` without ``-o``
        or ``-z``, ``head -n N``, ``tail -n N``): ``sort | uniq -c | sort -rn
        | while read -r n w``. None when it is not so plain."""
        loop, holder = _read_holder(command)
        stages: list[Node] = []
        if holder is not None and holder.type == "pipeline":
            stages = [c for c in holder.children if c.is_named]
            if not stages or stages[-1] != loop:
                return None
            stages = stages[:-1]
        else:
            dest = _read_redirect(self.src, command)
            if dest is None or dest.type != "process_substitution":
                return None
            inner = [c for c in dest.children if c.is_named]
            if len(inner) != 1:
                return None
            stages = (
                [c for c in inner[0].children if c.is_named]
                if inner[0].type == "pipeline"
                else [inner[0]]
            )
        while stages and stages[-1].type == "command" and self._keeps_lines(stages[-1]):
            stages = stages[:-1]
        return stages[-1] if stages and stages[-1].type == "command" else None

    def _keeps_lines(self, command: Node) -> bool:
        """`command` prints some of its input lines whole, in some order."""
        name = _name_of(self.src, command)
        arguments = command.children_by_field_name("argument")
        words = [static_text(self.src, a) for a in arguments]
        if (
            name in ("head", "tail")
            and len(arguments) == 2
            and words[0] == "-n"
            and self._count_word(arguments[1])
        ):
            return True  # head -n {{ args.top }}, head -n "$ARG_top": whole lines
        if None in words:
            return False
        if name == "sort":
            return not any(w.startswith(("-o", "--output", "-z", "--zero")) for w in words if w)
        if name in ("head", "tail"):
            # head -n 20, tail -5: whole lines (-c would cut one); the count
            # may be a number of the caller's (head -n {{ args.top }})
            text = " ".join(w for w in words if w is not None)
            return re.fullmatch(r"(?:-n ?[0-9]+|-[0-9]+)?", text) is not None
        return False

    def _count_word(self, node: Node) -> bool:
        """The word `node` is a whole number that cannot start with ``-``:
        digits, a placeholder of such an arg (``{{ args.top }}``), or the
        plain expansion of one (``"$ARG_top"``)."""
        text = node_text(self.src, node).strip('"')
        if text.isdigit():
            return True
        held: ValueModel | None = None
        if self.sentinels is not None and text in self.sentinels.by_word:
            held = self.sentinels.by_word[text].model
        use = _CONSTANT_USE.fullmatch(text)
        if use is not None and not use["all"]:
            name = use["bare"] or use["braced"]
            if name.startswith("ARG_") and name in self.taint.variables:
                held = self.taint.variables[name][1]
        return held is not None and held.numeric and not held.may_start_with_dash

    def _splits_at(self, command: Node) -> frozenset[str] | None:
        """The characters the ``read`` `command` splits its line at (IFS): a
        literal ``IFS=…`` written before it, or else bash's default (space,
        tab, line break: bash takes no IFS from its environment) where the
        script sets IFS nowhere but before ``read`` commands. None when
        that is not shown (``IFS=,`` at the top, ``local IFS``, ``IFS=x f``
        for a function that reads, ``printf -v IFS``, ``eval``'d text)."""
        own = [
            c
            for c in command.children
            if c.type == "variable_assignment"
            and node_text(self.src, c.child_by_field_name("name") or c) == "IFS"
        ]
        if own:
            value = own[-1].child_by_field_name("value")
            text = "" if value is None else static_text(self.src, value)
            return None if text is None else frozenset(text)
        return None if self.ifs_changed() else frozenset(" \t\n")

    def ifs_changed(self) -> bool:
        """The script may set IFS other than for one ``read`` (`_sets_ifs`):
        an unquoted expansion may then split at any character."""
        if self._ifs_changed is None:
            self._ifs_changed = self._sets_ifs()
        return self._ifs_changed

    def extglob_may_be_on(self) -> bool:
        """The script may turn on bash's extended patterns (``shopt -s
        extglob``; a ``shopt`` whose option is not literal; text it runs
        unread, ``eval``, ``source``): ``!(x)``, ``@(x)``, ``+(x)`` are then
        globs too (bash(1) 5.2, Pattern Matching)."""
        if self._extglob is None:
            spelled = re.sub(r"[\"'\\]", "", self.text)
            self._extglob = (
                self.script is None
                or "extglob" in spelled
                or re.search(r"\bshopt\b[^\n;|&]*\$", self.text) is not None
                or _RUNS_UNREAD.search(self.text) is not None
            )
        return self._extglob

    def _sets_ifs(self) -> bool:
        """The script may change IFS other than for one ``read``: every
        ``IFS`` its text spells (quotes and backslashes dropped) that is not
        read (``$IFS``, ``${IFS…}``) or written before a ``read`` counts."""
        if self.script is None:
            return True
        spelled = re.sub(r"[\"'\\]", "", self.text)
        mentions = len(re.findall(r"(?<![A-Za-z0-9_])IFS(?![A-Za-z0-9_])", spelled))
        # ($IFS, ${IFS}, ${#IFS} read it; ${IFS:=,} and ${IFS=,} set it)
        reads = len(re.findall(r"\$\{?[#!]?IFS(?![A-Za-z0-9_]|:?=)", spelled))
        before_read = sum(
            1
            for node in walk_nodes(self.script.root)
            if node.type == "variable_assignment"
            and node.parent is not None
            and node.parent.type == "command"
            and node_text(self.src, node.child_by_field_name("name") or node) == "IFS"
            and _name_of(self.src, node.parent) == "read"
        )
        return mentions > reads + before_read

    def _number_then(self, producer: Node) -> frozenset[str] | None:
        """When every line `producer` prints starts with a number (after
        blanks), the characters that may follow it; None when not shown.
        ``uniq -c`` (coreutils 9.1: the count, a blank, the line) and
        ``ssh-keygen -l`` (OpenSSH: the key's bits, a blank, its
        fingerprint)."""
        name = _name_of(self.src, producer)
        words = [static_text(self.src, a) for a in producer.children_by_field_name("argument")]
        options = [w for w in words if w is not None and w.startswith("-")]
        if name == "uniq" and any(
            o == "--count" or (not o.startswith("--") and "c" in o) for o in options
        ):
            return None if any(o in ("-z", "--zero-terminated") for o in options) else _BLANK
        if name == "ssh-keygen":
            letters = "".join(o[1:] for o in options if not o.startswith("--"))
            if "l" in letters and "v" not in letters and set(letters) <= set("lfE"):
                return _BLANK
        return None

    def _read_source(self, command: Node) -> Node | None:
        """The one command whose output the ``read`` `command` reads: the
        only command of ``< <(…)`` on it (or on the ``while`` loop it is the
        condition of), or the stage before it in a pipeline."""
        loop, holder = _read_holder(command)
        if holder is not None and holder.type == "pipeline":
            stages = [c for c in holder.children if c.is_named]
            if len(stages) >= 2 and stages[-1] == loop:
                return stages[-2]
            return None
        dest = _read_redirect(self.src, command)
        if dest is None or dest.type != "process_substitution":
            return None
        inner = [c for c in dest.children if c.is_named]
        return inner[0] if len(inner) == 1 else None

    def _reads_pure_substitution(self, command: Node) -> bool:
        """The ``read``/``mapfile`` `command` reads only from ``< <(…)`` whose
        commands print the author's text (`_pure`), itself or as the
        condition of a ``while`` loop so redirected."""
        holder = command.parent
        if (
            holder is not None
            and holder.type == "while_statement"
            and holder.child_by_field_name("condition") in (command, None)
            and holder.children[1:2] == [command]
        ):
            holder = holder.parent  # while read -r a b; do …; done < <(…)
        if holder is None or holder.type != "redirected_statement":
            return False
        sources = [
            c
            for c in holder.children
            if c.type in ("file_redirect", "herestring_redirect", "heredoc_redirect")
        ]
        if len(sources) != 1 or sources[0].type != "file_redirect":
            return False
        dest = sources[0].child_by_field_name("destination")
        operator = next((c.type for c in sources[0].children if not c.is_named), "")
        return (
            operator == "<"
            and dest is not None
            and dest.type == "process_substitution"
            and node_text(self.src, dest).startswith("<(")
            and self._literal_only(dest)
            and self._pure(dest)
        )

    def _literal_only(self, node: Node) -> bool:
        """`node` holds only the author's words (what `_pure` judges assumes
        it): literals, plain expansions of names the script leaves clean or
        of `enum`/`const` args (each value one of the author's texts), no
        substitution or arithmetic, no other placeholder."""
        for inner in walk_nodes(node):
            if inner.type in ("command_substitution", "arithmetic_expansion"):
                return False
            if inner.type in ("simple_expansion", "expansion"):
                plain = _PLAIN_EXPANSION.fullmatch(node_text(self.src, inner))
                if plain is None:
                    return False
                held = self._var_source(plain.group(1) or plain.group(2))
                if held is not None and not self._authors_models([held[1]]):
                    return False  # not proven the author's, nor one of an enum's values
        return self._authors_words_only(node)

    def _authors_words_only(self, node: Node, occs: Sequence[Occ] | None = None) -> bool:
        """The caller data in `node` (expansions, placeholders; `occs`: its
        occurrences, when known) is only `enum`/`const` args': each value
        one of the author's own texts, and none holds a name the script's
        variables go by (a value ``ARG_x`` printed into arithmetic would
        read that variable)."""
        found = self.occs_in(node.start_byte, node.end_byte) if occs is None else occs
        models = [o.model for o in found]
        if self.sentinels is not None:
            text = node_text(self.src, node)
            models += [s.model for w, s in self.sentinels.by_word.items() if w in text]
        return self._authors_models(models)

    def _authors_models(self, models: Sequence[ValueModel]) -> bool:
        """Each of `models` is an `enum`/`const` arg's: the author's texts,
        none holding a name the script's variables go by."""
        if any(m.words is None for m in models):
            return False
        names = (
            self.assigned
            | self.unmodeled
            | self.arithmetic_names
            | self.namerefs
            | set(self.taint.variables)
        )
        return not any(
            "ARG_" in word or "STEP_" in word or "HARBOR_" in word or any(n in word for n in names)
            for m in models
            for word in m.words or ()
        )

    def _reads_authors_files(self, command: Node, *, piped: bool = False) -> bool:
        """`command` prints what it computes from its literal words and from
        files no step can write (``awk '…' /proc/meminfo``, ``jq -r .name
        package.json`` in a folder no step writes): it has a grammar, runs
        no other command, and is no language, or one whose literal program
        has none of its ways to run code, write, or read anything but its
        operands (awk's ``ENVIRON``, ``getline``; rule 2: files no step can
        write are the author's). Every word is literal, and every one that
        is not an option names a file no step can write."""
        if any(c.type == "variable_assignment" for c in command.children):
            return False
        name = command.child_by_field_name("name")
        program = static_text(self.src, name) if name is not None else None
        if program is None:
            return False
        arguments = list(command.children_by_field_name("argument"))
        words = [static_text(self.src, a) for a in arguments]
        if not self._authors_words_only(command):
            return False  # caller data in it (an expansion of the author's is clean)
        # a word with an expansion stands for the author's text: an option's
        # value (awk -v n="$count"), never the program or a file (checked below)
        literal = [w if w is not None else "\0" for w in words]
        base = grammars.normal_program(program.rsplit("/", 1)[-1])
        if base == "python3" and None not in words:
            return self._python_reads_authors_files(command, [w for w in words if w is not None])
        if base not in _FILE_READERS and base not in _PURE_LANGUAGES:
            return False  # its output may come from a server, a cluster, a log
        key, first = grammars.grammar_key(base, list(words))
        grammar = grammars.GRAMMARS.get(key)
        if grammar is None or (grammar.reads_cwd_code and self.works_in_writable()):
            return False
        program_at: int | None = None
        if base in _PURE_LANGUAGES:
            program_at = _program_word(grammar, literal[first:])
            if program_at is None:
                return False
            program_at += first
            if words[program_at] is None or not _PURE_LANGUAGES[base](literal[program_at]):
                return False
        skip = 0
        files = 0
        for k, (argument, word) in enumerate(zip(arguments, literal, strict=True)):
            if k < first or k == program_at:
                continue
            if skip:
                skip -= 1
                continue
            if words[k] is None:
                return False  # an expansion where a file or an option stands
            if word.startswith("-") and word != "-":
                taken = _words_taken(grammar, word)
                if taken is None or (taken == 2 and word not in ("--arg", "--argjson")):
                    return False  # code, or jq --slurpfile NAME FILE: a file, judged as one
                skip = taken
                continue
            if (
                word == "-"
                or _STREAMS.match(word)
                or self.step_writable(argument, at=command.start_byte)
            ):
                return False  # standard input, a descriptor, a process's own files
            files += 1
        # with no file it reads its standard input, which may be the caller's
        # (not jq -n, nor awk whose program is BEGIN alone)
        return (
            files > 0
            or piped  # its standard input: a stage shown to print the author's
            or (base == "jq" and bool({"-n", "--null-input"} & set(literal)))
            or (base == "awk" and program_at is not None and _awk_begin_only(literal[program_at]))
        )

    def _python_reads_authors_files(self, command: Node, words: Sequence[str]) -> bool:
        """``python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml",
        "rb"))…)'`` (or ``python3 - <<'PY'``): a literal program that reads
        nothing but literal files (`_python.files_read`), each one no step
        can write, in a folder no step writes (python imports modules from
        it): what it prints is the author's."""
        if self.works_in_writable(command.start_byte):
            return False
        program: str | None = None
        for k, word in enumerate(words):
            if word == "-c" and k + 1 < len(words):
                program = words[k + 1]
                break
            if word == "-":
                program = self.heredoc_text(command)
                break
            if word not in ("-I", "-E", "-s", "-S", "-B", "-u", "-q"):
                return False  # another option, or a script file
        files = _python.files_read(program) if program is not None else None
        if files is None:
            return False
        return not any(
            _WRITABLE_PLACE.search(path)
            or _STREAMS.match(path)
            or (not path.startswith("/") and self.works_in_writable(command.start_byte))
            for path in files
        )

    def _merges_stderr(self, command: Node) -> bool:
        """What `command` writes to its standard error joins what it prints
        (``2>&1``, ``&>``, ``|&``, or ``exec 2>&1`` anywhere in the script):
        a program's error message quotes the caller's words as given
        (``git describe "$ref" 2>&1``: "fatal: Not a valid object name
        …")."""
        if _MERGED_STDERR_EXEC.search(self.text):
            return True
        statement = command.parent
        while statement is not None and statement.type in ("redirected_statement", "pipeline"):
            rest = node_text(self.src, statement).replace(node_text(self.src, command), "", 1)
            if _MERGED_STDERR.search(rest):
                return True
            statement = statement.parent
        return False

    def _reads_authors_repository(self, command: Node) -> bool:
        """`command` (``git …``, its words clean or the caller's revisions and
        paths: `_authors_choice`) only reads the repository of the folder it
        works in (`GIT_READERS`), and no step can have
        written that folder: what it prints comes from files no step can
        write, so it is the author's (rule 2), whatever the repository holds
        (``last=$(git describe --tags --abbrev=0)``)."""
        if any(c.type == "variable_assignment" for c in command.children):
            return False  # GIT_DIR=… git …: another repository
        if self._merges_stderr(command):
            return False  # git's error messages quote the words it was given
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        key, first = grammars.grammar_key("git", words)
        if (
            self.repository_written
            or (key not in GIT_READERS and not _git_lists(key, words[first:]))
            or any(
                w is not None and w.split("=", 1)[0] in _GIT_ELSEWHERE | _GIT_READS_ELSEWHERE
                for w in words
            )
            # git diff A B with a word not the author's and no `--` after:
            # two paths, one outside the repository, make it --no-index on
            # its own (git-diff(1)), reading files anywhere
            or (key == "git diff" and "--" not in words and None in words[first:])
        ):
            return False
        return not self.works_in_writable(command.start_byte)

    def _in_digest(self, occ: Occ) -> bool:
        """`occ` is inside a ``$(… | sha256sum)`` (see `_digest`), or stands
        where a command in a ``$(…)`` takes it as a credential (`_sent_only`):
        what is captured is not the value."""
        if occ.node is None:
            return False
        return any(
            parent.type == "command_substitution"
            and (self._digest(parent) or self._sent_only(parent, [occ]))
            for parent in ancestors(occ.node)
        )

    def _sent_only(self, node: Node, inner: Sequence[Occ]) -> bool:
        """Every occurrence `inner` of ``$(…)`` (`node`) stands where its
        command takes a credential (`credentials.takes_credential`): what is
        captured is that program's answer (``curl -H "…$T" URL``), not the
        value. Not when one is piped or given to any other command."""
        if not inner:
            return False
        for occ in inner:
            if occ.node is None:
                return False
            command = next(
                (a for a in ancestors(occ.node) if a.type in ("command", "command_substitution")),
                None,
            )
            if command is None or command.type != "command" or command == node:
                return False
            name = command.child_by_field_name("name")
            program = static_text(self.src, name) if name is not None else None
            arguments = list(command.children_by_field_name("argument"))
            words = [static_text(self.src, a) for a in arguments]
            index = next(
                (k for k, a in enumerate(arguments) if a.start_byte <= occ.start < a.end_byte),
                None,
            )
            # NAME="$S" prog: the environment of the one command
            prefix = next(
                (
                    c
                    for c in command.children
                    if c.type == "variable_assignment" and c.start_byte <= occ.start < c.end_byte
                ),
                None,
            )
            target = prefix.child_by_field_name("name") if prefix is not None else None
            place: tuple[str, int | str] | None = (
                ("word", index)
                if index is not None
                else ("env", node_text(self.src, target))
                if target is not None
                else None
            )
            if program is None or place is None:
                return False
            if program in ("printf", "echo") and self._piped_to_credential(command):
                continue  # printf 'H: %s\n' "$T" | curl --header @-: curl's stdin
            named = self.secret_programs.get(occ.arg or "", ())
            if program in named or program.rsplit("/", 1)[-1] in named:
                continue  # the secret's programs: entry, the author's word it never prints it
            if not takes_credential(program.rsplit("/", 1)[-1], words, place):
                return False
        return True

    def _piped_to_credential(self, command: Node) -> bool:
        """`command` is a pipeline's stage whose output the next stage takes
        on its standard input as a credential (``printf … | curl --header
        @-``, ``… | docker login --password-stdin``)."""
        pipeline = command.parent
        if pipeline is None or pipeline.type != "pipeline":
            return False
        stages = [c for c in pipeline.children if c.is_named]
        at = next((k for k, c in enumerate(stages) if c == command), None)
        if at is None or at + 1 >= len(stages):
            return False
        following = stages[at + 1]
        if following.type == "redirected_statement":
            following = following.child_by_field_name("body") or following
        if following.type != "command":
            return False
        name = _name_of(self.src, following) or ""
        words = [static_text(self.src, a) for a in following.children_by_field_name("argument")]
        return takes_credential(name.rsplit("/", 1)[-1], words, ("stdin", 0))

    def _digest(self, node: Node) -> bool:
        """``$(… | sha256sum …)``: what is printed is a digest of the input."""
        named = [c for c in node.children if c.is_named]
        last = named[-1] if len(named) == 1 else None
        if last is not None and last.type == "pipeline":
            stages = [c for c in last.children if c.is_named]
            last = stages[-1] if stages else None
            # a digest then a cut of it (| sha256sum | cut -c1-12) is still one
            if last is not None and len(stages) > 1 and _name_of(self.src, last) in ("cut", "head"):
                last = stages[-2]
        return last is not None and _name_of(self.src, last) in _DIGESTS

    def _json_text(self, node: Node) -> ValueModel | None:
        """The model of ``$(… | jq …)`` without a raw output option: JSON
        texts (jq 1.6 manual), so the first character is one of
        ``{["-0-9tfn`` (never ``@``), or nothing. Not when its error
        messages join the output (``2>&1``, ``&>``, ``|&``)."""
        named = [c for c in node.children if c.is_named]
        last = _last_command(named[-1] if len(named) == 1 else None)
        if last is None or _name_of(self.src, last) != "jq":
            return None
        if _JOINS_ERRORS.search(node_text(self.src, node)):
            return None
        json = not self._json_names_written()
        arguments = list(last.children_by_field_name("argument"))
        words = [static_text(self.src, a) for a in arguments]
        if self._may_be_jq_option(arguments, words):
            return None  # a word of the caller's may be -r
        for word in words:
            if word is None:
                continue
            if word in (
                "--raw-output",
                "--join-output",
                "--raw-output0",
                "--seq",
                "--color-output",
            ) or (
                word.startswith("-") and not word.startswith("--") and set(word[1:]) & set("rjC")
            ):
                return None  # raw text, or colours' escape sequences first
        at = _program_word(grammars.GRAMMARS["jq"], [w if w is not None else "\0" for w in words])
        program = words[at] if at is not None else None
        built = _constructor(program) if program is not None else None
        if built is not None:
            # '{team: $t}': every text it prints is an object (or nothing)
            return ValueModel(
                any_model().chars, frozenset(built), True, heads=frozenset(built), json=json
            )
        return ValueModel(
            any_model().chars, frozenset('{["-0123456789tfn'), True, heads=_JSON_HEADS, json=json
        )

    def _may_be_jq_option(self, arguments: Sequence[Node], words: Sequence[str | None]) -> bool:
        """A word of jq's holding caller data may be one of its options
        (``-r``): not after ``--``, not a value ``--arg NAME VALUE`` takes,
        and not one led by the author's text or a value that cannot start
        with ``-``."""
        skip = 0
        for argument, word in zip(arguments, words, strict=True):
            if skip:
                skip -= 1
                continue
            if word == "--":
                return False
            if word in ("--arg", "--argjson", "--slurpfile", "--rawfile"):
                skip = 2
                continue
            if word is not None:
                continue
            occs = self.occs_in(argument.start_byte, argument.end_byte)
            if not occs:
                continue  # the author's value
            raw = self.src[argument.start_byte : occs[0].start].decode("utf-8", "replace")
            if not dequoted_prefix(raw) and (
                occs[0].model.may_start_with_dash or occs[0].start in self.split_starts
            ):
                return True
        return False

    def json_literals_written(self) -> frozenset[str]:
        """The names among ``true``, ``false`` and ``null`` the script gives
        a value, any way: an assignment, ``for``, ``read``, ``mapfile``,
        ``printf -v``, ``local``, ``let``, ``${null=…}``, a name reference
        to one, a descriptor it allocates (``exec {null}>f``). Worked out
        once a script (what it reads is fixed once the script is read)."""
        if self._json_literals is not None:
            return self._json_literals
        names = set(
            (self.assigned | self.unmodeled | self.arithmetic_names | set(self.named_by))
            & _JSON_NAMES
        )
        text = self.src.decode("utf-8", "replace")
        for pattern in (_JSON_DEFAULT, _JSON_NAMEREF, _JSON_DESCRIPTOR):
            names.update(m.group(1) for m in pattern.finditer(text))
        self._json_literals = frozenset(names)
        return self._json_literals

    def _json_names_written(self) -> bool:
        """The script may give ``true``, ``false`` or ``null`` a value
        (`json_literals_written`, the step's environment, any name
        reference), or runs text it does not read (``eval``, ``source``):
        in arithmetic a JSON text ``true`` would be that variable's value,
        evaluated in turn."""
        if self.json_literals_written() or self.namerefs or _JSON_NAMES & set(self.taint.variables):
            return True  # (a name reference may name any of them)
        return _RUNS_UNREAD.search(self.src.decode("utf-8", "replace")) is not None

    def _object_names(self, node: Node, inner: Sequence[Occ]) -> ValueModel | None:
        """The model of ``$(git merge-base A B)`` (``git rev-parse --verify
        X``, ``git rev-list A..B``): object names, hexadecimal digits one a
        line, or nothing, whichever revisions the words name, as long as no
        word of the caller's (`inner`) can be an option (`GIT_OBJECT_NAMES`
        lists the options that keep the output so; git 2.39, each one's
        manual)."""
        command = self._git_command(node)
        if command is None:
            return None
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        key, _ = grammars.grammar_key("git", words)
        allowed = GIT_OBJECT_NAMES.get(key)
        if allowed is None or (key == "git rev-parse" and "--verify" not in words):
            return None
        if not self._git_data_words(command, inner, allowed):
            return None
        hexadecimal = frozenset(string.hexdigits.lower())
        return ValueModel(hexadecimal | {"\n"}, hexadecimal, True)

    def _names_secret_file(self, word: Node) -> bool:
        """The word `word` names a file a secret was written to
        (`secret_file_paths`): as written, an option's ``=value`` or an
        ``@FILE``, or through a variable set once to it."""
        path = _path_written(self.src, word).split("=", 1)[-1].lstrip("@")
        if "/" in path:
            path = posixpath.normpath(path)  # reports/../t is t
        lone = VARIABLE.fullmatch(path)
        value = self.set_once(lone.group(1) or lone.group(2)) if lone else None
        return path in self.secret_file_paths or (
            value is not None and _path_written(self.src, value) in self.secret_file_paths
        )

    def _prints_secret_file(self, node: Node) -> bool:
        """A command in the substitution `node` reads a file a secret was
        written to (`secret_file_paths`, as written) other than as a
        credential file (``curl -K``, ``ldapsearch -y``): what it prints
        may be the secret."""
        if not self.secret_file_paths:
            return False
        secret = self._names_secret_file

        for command in walk_nodes(node):
            if command.type == "file_redirect" and node_text(self.src, command).startswith("<"):
                dest = command.child_by_field_name("destination")
                if dest is not None and secret(dest):
                    return True
            if command.type != "command":
                continue
            program = _name_of(self.src, command) or ""
            arguments = list(command.children_by_field_name("argument"))
            words = [static_text(self.src, a) for a in arguments]
            for k, argument in enumerate(arguments):
                if secret(argument) and not reads_credential_file(
                    program.rsplit("/", 1)[-1], words, k
                ):
                    return True
        return False

    def _authors_choice(self, node: Node, inner: Sequence[Occ]) -> bool:
        """``$(git describe --tags "$STEP_x^")``, ``$(git log -1 --format=%s
        "$ARG_rev")``: a git command that only reads the repository
        (`_reads_authors_repository`), the caller's words revisions or paths
        that cannot be options: what it prints is the repository's, the
        author's text, whichever the caller chose."""
        command = self._git_command(node)
        if command is None or not self._reads_authors_repository(command):
            return False
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        key, _ = grammars.grammar_key("git", words)
        if key not in _GIT_CHOICES or any(
            w is not None and (w.split("=", 1)[0] in _GIT_ECHOES or _ECHOED_FORMAT.search(w))
            for w in words
        ):
            return False  # it may print the revision as the caller wrote it
        return self._git_data_words(command, inner, None)

    def _git_command(self, node: Node) -> Node | None:
        """The one ``git`` command of the substitution `node`, with no
        variable assigned for it."""
        named = [c for c in node.children if c.is_named]
        command = named[0] if len(named) == 1 else None
        if command is not None and command.type == "redirected_statement":
            # git describe … 2>/dev/null: what it prints on stdout is the same
            redirects = [c for c in command.children if c.type.endswith("redirect")]
            if any(
                c.type != "file_redirect" or node_text(self.src, c).lstrip("0123456789&")[:1] != ">"
                for c in redirects
            ):
                return None
            command = command.child_by_field_name("body")
        if command is None or command.type != "command":
            return None
        if any(c.type == "variable_assignment" for c in command.children):
            return None
        name = command.child_by_field_name("name")
        if name is None or static_text(self.src, name) != "git":
            return None
        return command

    def _git_data_words(
        self, command: Node, inner: Sequence[Occ], allowed: frozenset[str] | None
    ) -> bool:
        """Every word of the git `command` holding caller data (`inner`) is
        one word that cannot be an option (after ``--``, or led by the
        author's text or a value that cannot start with ``-``); with
        `allowed`, every literal option is one of those."""
        arguments = list(command.children_by_field_name("argument"))
        words = [static_text(self.src, a) for a in arguments]
        _, first = grammars.grammar_key("git", words)
        if any(
            argument.start_byte <= o.start < argument.end_byte
            for argument in arguments[:first]
            for o in inner
        ):
            return False  # git -c "$x" …, git -C "$dir" …: the caller's settings or repository
        ended = False
        for argument, word in zip(arguments[first:], words[first:], strict=True):
            if word is not None:
                if ended or not word.startswith("-"):
                    continue
                if word in ("--", "--end-of-options"):
                    ended = True
                elif (
                    allowed is not None
                    and word not in allowed
                    and not re.fullmatch(r"--(?:max-count|short)=\d+|-n?\d+", word)
                ):
                    return False
                continue
            occs = [o for o in inner if argument.start_byte <= o.start < argument.end_byte]
            if any(o.start in self.split_starts for o in occs):
                return False  # one word may become several, an option among them
            raw = self.src[argument.start_byte : occs[0].start].decode() if occs else "x"
            if not ended and not dequoted_prefix(raw) and occs[0].model.may_start_with_dash:
                return False
        return True

    def _counted(self, node: Node) -> ValueModel | None:
        """The model of ``$(… | wc -l)`` (``-c``, ``-w``, ``-m``, ``-L``):
        a count, digits only, whatever was counted."""
        named = [c for c in node.children if c.is_named]
        last = named[-1] if len(named) == 1 else None
        if last is not None and last.type == "list":
            # N=$(grep -c … || true): the count, or nothing
            parts = [c for c in last.children if c.is_named]
            ops = {node_text(self.src, c) for c in last.children if not c.is_named}
            counts = [self._counted_stage(c) for c in parts]
            if (
                ops <= {"||", "&&"}
                and counts[0] is not None
                and all(
                    m is not None or self._silent(c) for m, c in zip(counts, parts, strict=True)
                )
            ):
                return counts[0]
            return None
        return self._counted_stage(last)

    # -- arithmetic
    def _arithmetic_results(self, node: Node, occs: list[Occ]) -> list[Occ]:
        """`occs` with the caller data inside each ``$(( … ))`` of the word
        `node` replaced by the number bash computes from it: what stands in
        the word is that number (rule 2: its arg's language is gone), not
        negative only where `arithmetic_range` shows it."""
        if not occs:
            return occs
        found: list[Node] = []
        stack = [node]
        while stack:
            inner = stack.pop()
            if inner.type == "arithmetic_expansion":
                found.append(inner)
            elif inner.type not in ("command_substitution", "process_substitution"):
                stack.extend(inner.children)
        for expansion in found:
            start, end = expansion.start_byte, expansion.end_byte
            inside = [o for o in occs if start <= o.start and o.end <= end]
            if not inside:
                continue
            result = Occ(
                inside[0].arg, "env", self._arithmetic_model(expansion), start, end, expansion
            )
            occs = sorted([o for o in occs if o not in inside] + [result], key=lambda o: o.start)
        return occs

    def _variable_model(self, names: Sequence[str]) -> ValueModel:
        """The model of names one of whose assignments is ``$(( … ))``:
        the number of every place that sets them (`_variable_range`), and
        maybe nothing (``local NAME`` first)."""
        ranges = [self._variable_range(name, frozenset(), textual=False) for name in names]
        return replace(
            _range_model(min(r[0] for r in ranges), max(r[1] for r in ranges)),
            can_be_empty=True,
        )

    def _arithmetic_model(self, node: Node) -> ValueModel:
        """The model of what the arithmetic `node` (``$(( … ))``, alone or
        in double quotes) expands to: a number, not negative where
        `arithmetic_range` shows it."""
        return _range_model(*self.arithmetic_range(_lone_arithmetic(node) or node))

    def arithmetic_range(self, node: Node) -> Range:
        """The least and greatest value of the arithmetic `node`
        (`expression_range`), the names in it read as `_name_range`."""
        return self._expression_range(node, frozenset())

    def _expression_range(self, node: Node, seen: frozenset[str]) -> Range:
        by_word = self.sentinels.by_word if self.sentinels is not None else {}
        return expression_range(
            self.src,
            node,
            lambda name: self._positional_range(node, name) or self._name_range(name, seen),
            # two placeholders of one arg are one value
            lambda name: f"{{{{args.{by_word[name].arg}}}}}" if name in by_word else name,
        )

    def _positional_range(self, node: Node, name: str) -> Range | None:
        """The least and greatest value of ``$k`` in the arithmetic `node`
        when every call of its function passes a literal number there
        (`literal_positional`); None otherwise."""
        k = name.lstrip("$")
        if not k.isdigit() or k == "0" or not self.literal_positional(node, int(k)):
            return None
        function = self.function_at(node.start_byte)
        calls = self.function_calls(function) if function is not None else None
        if not calls:
            return None
        numbers: list[int] = []
        for call in calls:
            text = static_text(self.src, list(call.children_by_field_name("argument"))[int(k) - 1])
            if text is None or not _DECIMAL.fullmatch(text):
                return None
            numbers.append(int(text))
        return (min(numbers), max(numbers))

    def _name_range(self, name: str, seen: frozenset[str]) -> Range:
        if name.startswith("$"):
            return self._variable_range(name[1:], seen, textual=True)
        if self.sentinels is not None and name in self.sentinels.by_word:
            return _model_range(self.sentinels.by_word[name].model, textual=True)
        return self._variable_range(name, seen, textual=False)

    def _variable_range(self, name: str, seen: frozenset[str], *, textual: bool) -> Range:
        """The least and greatest value arithmetic reads from `name`: a
        placeholder's arg, or the union over every place the script sets
        it and what it held as the script started. Only assignments of a
        literal number, of ``$(( … ))``, of another such name, of a count
        (``$(wc -l < f)``) and ``for NAME in`` literal numbers are read;
        any other way of setting it (``read``, ``((NAME++))``, ``declare
        -i``, an indirect write) gives the whole range. `textual`: the value
        is put into the expression as text (``$NAME``, a placeholder), where
        the empty text is no number: a value that may be empty gives the
        whole range."""
        everything = (INT_MIN, INT_MAX)
        if (
            name in seen
            or len(seen) > 16
            or self.script is None
            or self.dynamic_writes
            or name in self.unmodeled
            or name in self.named_by
            or name in self.taint.clean
            or name in self._arithmetic_writes()
        ):
            return everything
        seen = seen | {name}
        ranges: list[Range] = []
        if name in self._starting:
            ranges.append(_model_range(self._starting[name][1], textual=textual))
        elif name not in self.assigned:
            return everything  # never set here: the environment's, or the caller's
        for node in self.script.nodes:
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is None:
                    continue
                if target.type == "subscript":
                    if node_text(self.src, target.child_by_field_name("name") or target) == name:
                        return everything
                    continue
                if node_text(self.src, target) != name:
                    continue
                parent = node.parent
                if (
                    parent is not None
                    and parent.type == "declaration_command"
                    and any(
                        node_text(self.src, c).startswith(("-", "+"))
                        for c in parent.children
                        if c.type == "word"
                    )
                ):
                    return everything  # declare -i NAME=…: arithmetic of the text
                ranges.append(
                    self._assigned_range(node.child_by_field_name("value"), seen, textual)
                )
            elif node.type == "for_statement":
                variable = node.child_by_field_name("variable")
                if variable is None or node_text(self.src, variable) != name:
                    continue
                values = [static_text(self.src, v) for v in node.children_by_field_name("value")]
                if not values or not all(v is not None and _DECIMAL.fullmatch(v) for v in values):
                    return everything
                numbers = [int(v) for v in values if v is not None]
                ranges.append((min(numbers), max(numbers)))
            elif node.type == "declaration_command":
                for child in node.children:
                    if child.type == "variable_name" and node_text(self.src, child) == name:
                        # local NAME: empty, 0 when read by name
                        ranges.append(everything if textual else (0, 0))
        if not ranges:
            return everything
        return (min(r[0] for r in ranges), max(r[1] for r in ranges))

    def _arithmetic_writes(self) -> frozenset[str]:
        """The names arithmetic may set: the target of ``=``, ``+=``… or
        ``++``/``--``, and every name in a ``let``."""
        if self.script is None:
            return frozenset()
        key = "arithmetic writes"
        memo = self.script._memo
        if key not in memo:
            found: set[str] = set()
            for node in self.script.nodes:
                if node.type == "binary_expression":
                    op = node.child_by_field_name("operator")
                    left = node.child_by_field_name("left")
                    if (
                        op is not None
                        and left is not None
                        and op.type.endswith("=")
                        and (op.type not in ("==", "!=", "<=", ">="))
                    ):
                        found.update(IDENT.findall(node_text(self.src, left)))
                elif node.type in ("postfix_expression", "unary_expression"):
                    if any(c.type in ("++", "--") for c in node.children):
                        found.update(IDENT.findall(node_text(self.src, node)))
                elif (
                    node.type == "command"
                    and static_text(self.src, node.child_by_field_name("name") or node) == "let"
                ):
                    found.update(IDENT.findall(node_text(self.src, node)))
            memo[key] = frozenset(found)
        writes: frozenset[str] = memo[key]
        return writes

    def _assigned_range(self, value: Node | None, seen: frozenset[str], textual: bool) -> Range:
        everything = (INT_MIN, INT_MAX)
        if value is None:
            return everything if textual else (0, 0)  # NAME=: empty
        expansion = _lone_arithmetic(value)
        if expansion is not None:
            return self._expression_range(expansion, seen)
        text = static_text(self.src, value)
        by_word = self.sentinels.by_word if self.sentinels is not None else {}
        if text is not None and text in by_word:
            # line={{ args.line }}: the placeholder's arg
            return _model_range(by_word[text].model, textual=textual)
        if text is not None:
            if text == "":
                return everything if textual else (0, 0)
            return (int(text), int(text)) if _DECIMAL.fullmatch(text) else everything
        if value.type == "command_substitution" and not textual:
            # a count, or nothing (`|| true`): 0 when read by name
            counted = self._counted(value)
            if counted is not None and counted.least is not None and counted.most is not None:
                return (counted.least, counted.most)
            return everything
        raw = node_text(self.src, value)
        copied = raw[1:].strip("{}") if raw.startswith("$") else ""
        if raw in (f"${copied}", f"${{{copied}}}") and IDENT.fullmatch(copied) is not None:
            return self._variable_range(copied, seen, textual=textual)  # NAME=$other
        return everything

    def _silent(self, node: Node) -> bool:
        """``true`` or ``:``: a command that prints nothing."""
        name = node.child_by_field_name("name") if node.type == "command" else None
        return (
            name is not None
            and node_text(self.src, name) in ("true", ":")
            and not node.children_by_field_name("argument")
        )

    def _date_text(self, node: Node) -> ValueModel | None:
        """The model of ``$(date -d … '+%m/%d/%Y %H:%M:%S')``: a literal
        format of zero-padded numbers and separators makes the text digits
        and those separators, whatever date it was given (date(1), FORMAT:
        the conversions here never print a blank, a sign or a letter);
        empty when the date it was given is not one."""
        named = [c for c in node.children if c.is_named]
        if len(named) != 1 or named[0].type != "command":
            return None
        command = named[0]
        name = command.child_by_field_name("name")
        if name is None or node_text(self.src, name) != "date":
            return None
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        formats: list[str] = []
        given = False
        for word in words:
            if given:
                given = False  # -d VALUE: the date, any text
            elif word in ("-d", "--date"):
                given = True
            elif word is not None and word.startswith("+"):
                formats.append(word)
            elif word is None or word.split("=", 1)[0] not in _DATE_GIVEN:
                return None  # -f FILE, -r FILE (a line per line or file), an operand
        if len(formats) != 1 or not _SEPARATED_DATE.fullmatch(formats[0]):
            return None
        fmt = formats[0][1:]
        literal = set(re.sub(r"%[A-Za-z]", "", fmt))
        chars = frozenset(string.digits) | frozenset(literal)
        first = chars if not fmt.startswith("%") else frozenset(string.digits)
        return ValueModel(chars, first, True)

    def _counted_stage(self, last: Node | None) -> ValueModel | None:
        """`_counted` of one command, pipeline or redirected command. A
        pipeline whose last stages keep lines whole (``sort``, ``head -n
        N``, `_keeps_lines`) and end with ``head -n 1`` or ``tail -n 1``
        gives one of the lines of the stage before them: a number when
        every line that stage prints is one (``stat -c %Y -- "${files[@]}"
        | sort -n | head -n 1``)."""
        if last is not None and last.type == "pipeline":
            stages = [c for c in last.children if c.is_named]
            kept = len(stages)
            while (
                kept > 1
                and stages[kept - 1].type == "command"
                and self._keeps_lines(stages[kept - 1])
            ):
                kept -= 1
            if kept < len(stages) and any(self._one_line(c) for c in stages[kept:]):
                producer = stages[kept - 1]
                if producer.type == "command" and self._stat_numbers(producer):
                    return _COUNT
                return self._counted_stage(producer)
        last = _last_command(last)
        if last is None:
            return None
        name = last.child_by_field_name("name")
        if name is not None and node_text(self.src, name) == "date":
            # date +%s (+%Y%m%d…): digits only, whatever date it was given
            formats = [
                static_text(self.src, a)
                for a in last.children_by_field_name("argument")
                if (static_text(self.src, a) or "").startswith("+")
            ]
            if formats and all(f is not None and _DIGIT_DATE.fullmatch(f) for f in formats):
                given = [
                    static_text(self.src, a) or node_text(self.src, a)
                    for a in last.children_by_field_name("argument")
                ]
                if any(
                    w.split("=", 1)[0] in ("-d", "--date", "-f", "--file", "-r", "--reference")
                    or (w.startswith("-") and not w.startswith("--") and set(w[1:]) & set("dfr"))
                    for w in given
                ):
                    # of a date given, the time before 1970 too: -2208988800
                    number = frozenset(string.digits + "-")
                    return ValueModel(number, number, False, True)
                return ValueModel(frozenset(string.digits), frozenset(string.digits), False, True)
            return None
        arguments = list(last.children_by_field_name("argument"))
        if (
            name is not None
            and node_text(self.src, name) in ("echo", "printf")
            and len(arguments) == 1
            and re.fullmatch(r"-?[0-9]+", static_text(self.src, arguments[0]) or "")
        ):
            # || echo 0: the author's number
            return ValueModel(
                frozenset(string.digits + "-"), frozenset(string.digits + "-"), False, True
            )
        if name is not None and node_text(self.src, name) == "echo" and len(arguments) == 1:
            # echo "$now" of a name set once, to a count: that count again
            copied = _CONSTANT_USE.fullmatch(node_text(self.src, arguments[0]))
            held = self.set_once(copied["bare"] or copied["braced"]) if copied else None
            if copied is None or copied["all"] or held is None or held.id in self._echoing:
                return None
            inner = held
            if inner.type == "string" and len([c for c in inner.children if c.is_named]) == 1:
                inner = next(c for c in inner.children if c.is_named)
            if inner.type != "command_substitution":
                return None
            self._echoing.add(held.id)  # (now=$(echo "$now"): no loop)
            try:
                return self._counted(inner)
            finally:
                self._echoing.discard(held.id)
        if name is not None and node_text(self.src, name) == "jq":
            return _JQ_NUMBERS if self._jq_length(arguments) else None
        if name is not None and node_text(self.src, name) == "git":
            return _COUNT if self._git_count(arguments) else None
        if name is not None and node_text(self.src, name) == "grep":
            return _COUNT if self._grep_count(arguments) else None
        if name is not None and node_text(self.src, name) == "stat":
            return _COUNT if self._stat_number(arguments) else None
        if name is not None and node_text(self.src, name) == "cut" and self._du_sizes(last):
            return _COUNT
        if name is None or node_text(self.src, name) != "wc":
            return None
        words = [static_text(self.src, a) for a in arguments]
        if not words or any(w not in ("-l", "-c", "-w", "-m", "-L") for w in words):
            return None
        return _COUNT

    def _du_sizes(self, cut: Node) -> bool:
        """``du -sk DIR | cut -f1``: `cut` takes the first field of what
        ``du`` prints just before it in the pipeline, a size in blocks
        (GNU coreutils 9.1 du: SIZE, a tab, the name; with ``-s`` one line
        a name, ``-k``/``-m``/``-b`` whole numbers; ``-h`` and
        ``--block-size`` may add a unit, ``-0`` ends a line with NUL), of
        the author's literal names only (a name is printed as it is)."""
        words = [static_text(self.src, a) for a in cut.children_by_field_name("argument")]
        if words not in (["-f1"], ["-f", "1"], ["-f", "1", "-d", "\t"]):
            return False
        pipeline = cut.parent
        if pipeline is None or pipeline.type != "pipeline":
            return False
        stages = [c for c in pipeline.children if c.is_named]
        at = stages.index(cut)
        du = _last_command(stages[at - 1]) if at > 0 else None
        if du is None or _name_of(self.src, du) != "du":
            return False
        arguments = list(du.children_by_field_name("argument"))
        looped = [a for a in arguments if self._literal_loop_word(a)]
        operands = [
            a
            for a in arguments
            if a in looped or not (static_text(self.src, a) or "-").startswith("-")
        ]
        if not all(a in looped or self._one_literal(a) for a in operands):
            return False  # a name with a line break in it prints a line of its own
        options = [static_text(self.src, a) for a in arguments if a not in operands]
        return all(
            o is not None and o != "--" and not o.startswith("--") and set(o[1:]) <= set("skmbcxL")
            for o in options
        ) and any(o is not None and "s" in o for o in options)

    def _leads_literally(self, argument: Node) -> bool:
        """`argument` starts with the author's text, no ``-``
        (``"refs/heads/$X"``), or with a folder of the server's
        (``"$HARBOR_RUN_DIR/page.json"``)."""
        text = node_text(self.src, argument)
        raw = text.lstrip("'\"")
        if (bool(raw) and raw[0] not in "-$`\\") or bool(_RUN_DIR_HEAD.match(text)):
            return True
        # "$f" of for f in reports/*.json: each of the loop's words
        copied = _CONSTANT_USE.fullmatch(text)
        name = (copied["bare"] or copied["braced"]) if copied and not copied["all"] else None
        bound = self._loop_bound(argument, name) if name else False
        if not bound or not bound[1].first or "-" in bound[1].first:
            return False
        loop = next(
            (
                a
                for a in ancestors(argument)
                if a.type == "for_statement"
                and node_text(self.src, a.child_by_field_name("variable") or a) == name
            ),
            None,
        )
        return loop is not None and all(
            node_text(self.src, v).lstrip("'\"")[:1] not in ("-", "")
            for v in loop.children_by_field_name("value")
        )

    def _jq_length(self, arguments: Sequence[Node]) -> bool:
        """``jq -r '.items | length' FILE``: a literal program whose last
        stage is ``length`` (jq 1.6 manual: the length of an array, object,
        string or null, the absolute value of a number), so numbers only,
        one per input; only options that format the output or take
        ``--arg``'s pair; files after the program that start with the
        author's text or are literal."""
        program: str | None = None
        k = 0
        while k < len(arguments):
            text = static_text(self.src, arguments[k])
            if program is None and text in ("--arg", "--argjson"):
                k += 3
                continue
            if program is None and text is not None and text.startswith("-"):
                if text not in _JQ_FORMATS:
                    return False
            elif program is None:
                if text is None:
                    return False
                program = text
            elif (text is None and not self._leads_literally(arguments[k])) or (
                text is not None and text.startswith("-")
            ):
                return False
            k += 1
        return (
            program is not None
            and bool(_JQ_LENGTH.fullmatch(program))
            and not re.search(r"\bdef\b|\binclude\b|\bimport\b", program)
        )  # (def length: …; redefines it; a module may too)

    def _git_count(self, arguments: Sequence[Node]) -> bool:
        """``git rev-list --count A..B`` (git 2.39 git-rev-list(1)): one
        count; no other option, and no word that may be one."""
        words = [static_text(self.src, a) for a in arguments]
        if words[:1] != ["rev-list"] or "--count" not in words:
            return False
        for word, argument in zip(words[1:], arguments[1:], strict=True):
            if word is None:
                if not self._leads_literally(argument):
                    return False
            elif word.startswith("-") and word not in ("--count", "--no-merges", "--first-parent"):
                return False
        return True

    def _one_line(self, command: Node) -> bool:
        """`command` is ``head -n 1`` or ``tail -n 1`` (``-1``, ``-n1``): one
        whole line of what it reads, at most."""
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        return _name_of(self.src, command) in ("head", "tail") and words in (
            ["-n", "1"],
            ["-n1"],
            ["-1"],
        )

    def _stat_numbers(self, command: Node) -> bool:
        """``stat -c %Y -- "${files[@]}"``: a literal format of one size or
        time (`_stat_number`) for any files named after ``--``: a line each,
        a number alone (a name is never printed)."""
        if _name_of(self.src, command) != "stat":
            return False
        words = [static_text(self.src, a) for a in command.children_by_field_name("argument")]
        if "--" not in words:
            return False
        options = words[: words.index("--")]
        first = options[0] if options else None
        form = (
            options[1]
            if len(options) == 2 and first in ("-c", "--format")
            else first.split("=", 1)[1]
            if len(options) == 1 and first is not None and first.startswith("--format=")
            else None
        )
        return form is not None and re.fullmatch(r"%[sbhXYZW]", form) is not None

    def _stat_number(self, arguments: Sequence[Node]) -> bool:
        """``stat --format=%Y -- "$f"``: one file, and a literal format of
        sizes and times alone (GNU coreutils 9.1 stat(1): %s bytes, %b
        blocks, %h links, %X %Y %Z %W seconds since the epoch), so one
        number, below 2**53; no other option."""
        words = [static_text(self.src, a) for a in arguments]
        form: str | None = None
        operands = 0
        expect = ended = False
        for word in words:
            if expect:
                form, expect = word, False
            elif ended:
                operands += 1
            elif word in ("-c", "--format"):
                expect = True
            elif word is not None and word.startswith("--format="):
                form = word.split("=", 1)[1]
            elif word == "--":
                ended = True
            elif word is None or word.startswith("-"):
                return False  # an option, or a word that may be one (--help)
            else:
                operands += 1
        return operands == 1 and form is not None and re.fullmatch(r"%[sbhXYZW]", form) is not None

    def _grep_count(self, arguments: Sequence[Node]) -> bool:
        """``grep -c`` that prints one count and nothing else: one file (or
        its standard input), or ``-h``; every word literal or quoted (one
        word each); no option that prints anything else (grep(1) 3.8)."""
        count = hide = explicit = ended = expect = False
        operands = 0
        for node in arguments:
            text = static_text(self.src, node)
            if text is None and node.type not in ("string", "raw_string"):
                return False  # may split into several words
            if expect:
                expect = False
            elif ended or text is None or not text.startswith("-") or text == "-":
                # an unquoted glob (*.log) may be many files: NAME:COUNT lines
                globbed = node.type in ("word", "concatenation") and bool(
                    _GLOB_OR_BRACE.search(
                        "".join(
                            node_text(self.src, part)
                            for part in ([node] if node.type == "word" else node.children)
                            if part.type == "word"
                        )
                    )
                )
                operands += 2 if globbed else 1
            elif text == "--":
                ended = True
            elif text.startswith("--"):
                option = text.split("=", 1)[0]
                if option in ("--regexp", "--file"):
                    explicit, expect = True, "=" not in text
                elif option == "--count":
                    count = True
                elif option == "--no-filename":
                    hide = True
                elif option not in _GREP_QUIET_OPTIONS:
                    return False
            else:
                for k, letter in enumerate(text[1:]):
                    if letter in "ef":
                        explicit, expect = True, k == len(text) - 2
                        break
                    count = count or letter == "c"
                    hide = hide or letter == "h"
                    if letter not in "chFEGPivwxsaI":
                        return False
        files = operands - (0 if explicit else 1)
        return count and (hide or files <= 1)

    def _plain_expansion_occs(self, script: Parsed) -> list[Occ]:
        occs: list[Occ] = []
        for node, name, expansion in script.reads():
            if not expansion:
                assert name is not None  # an arithmetic name: its text
                if not IDENT.fullmatch(name) or (
                    node.parent is not None
                    and node.parent.type in ("command_name", "command", "string", "concatenation")
                ):
                    continue  # ``@`` of ``a[@]``, or a command's word: no name read
                source = self._var_source(name)
            else:
                source = self._var_source(name) if name else None
                if source is not None and name == "HARBOR_RUN_DIR" and self._own_file(node):
                    source = None  # a file of the step's own in the run directory
            if source is not None and name is not None and _POSITIONAL.fullmatch(name):
                source = self._positional_source(node, source)
            if source is not None and expansion and name is not None and IDENT.fullmatch(name):
                bound = self._loop_bound(node, name)
                if bound is not False:
                    source = bound  # for f in logs/*.gz; do … "$f": this loop's word
            elif source is not None and not expansion and name is not None:
                # an arithmetic name evaluates its value's text again: only a
                # loop over numbers (an array's indexes) binds it to one
                bound = self._loop_bound(node, name)
                if bound and bound[1].numeric:
                    source = bound
            if source is not None and self.unproven_is_data and self._keys_clean_map(node):
                source = None  # ${m[$k]}: one of the author's values, whichever key
            if (
                source is not None
                and name is not None
                and name.isdigit()
                and name != "0"
                and self.literal_positional(node, int(name))
            ):
                source = None  # every call passes the author's word there
            if source is not None and name in ("@", "*") and self.literal_arguments(node):
                source = None  # every call passes the author's words alone
            if (
                source is None
                and expansion
                and not self.unproven_is_data
                and self.taint.variables
                and (name in ("_", "BASH_REMATCH") or name in self.namerefs
                     or _reads_indirectly(self.src, node))
            ):  # fmt: skip
                # ${!v} and a name reference: whichever variable they name,
                # a followed one among them; $_: the last word of the
                # command before; BASH_REMATCH: the parts of what a
                # [[ =~ ]] matched, which may have been one
                source = next(iter(self.taint.variables.values()))
            if expansion and node.type == "expansion":
                source = (
                    _transformed(self.src, node, source)
                    if (source is not None or self.unproven_is_data)
                    else None
                )
            if source is not None:
                occs.append(
                    Occ(source[0], "env", source[1], node.start_byte, node.end_byte, node, name)
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

    def occs_in(self, start: int, end: int, occs: Sequence[Occ] | None = None) -> list[Occ]:
        """The occurrences between `start` and `end`, but those inside a
        substitution of the author's text the caller only chose
        (`_authors_choice`) that lies itself between them: what the
        substitution gives is the author's, its own words keep theirs."""
        pool = self.occs if occs is None else occs
        found = [o for o in pool if start <= o.start and o.end <= end]
        if self._chosen and found:
            hidden = [(a, b) for a, b in self._chosen if start <= a and b <= end]
            found = [o for o in found if not any(a <= o.start < b for a, b in hidden)]
        return found

    def _fixpoint(self, script: Parsed, sentinel_occs: list[Occ]) -> None:
        assignments: list[tuple[list[str], Node]] = []
        split: list[str] = []
        absolute: set[str] = set()  # loop variables over absolute globs only
        relative: set[str] = set()
        #: the first characters of the names each relative glob loop gives
        leads: dict[str, set[str]] = {}
        reads: list[Node] = []
        calls: list[Node] = []
        for node in script.nodes:
            if node.type == "variable_assignment":
                name = node.child_by_field_name("name")
                value = node.child_by_field_name("value")
                if name is not None and value is not None:
                    target = name
                    if name.type == "subscript":
                        target = name.child_by_field_name("name") or name
                    assignments.append(([node_text(self.src, target)], value))
            elif node.type == "for_statement":
                var = node.child_by_field_name("variable")
                if var is not None:
                    for value in node.children_by_field_name("value"):
                        raw = node_text(self.src, value)
                        if self._authors_names(value) and (
                            node_text(self.src, var) not in self.integer_names
                        ):
                            # for f in logs/*.gz: the author's files' names
                            # (declare -i n; for n in first: $first's value)
                            continue
                        if value.type not in ("string", "raw_string") and (
                            _GLOB_OR_BRACE.search(_EXPANSIONS.sub("", raw))
                            or ("$" in raw and self._carries_data(value, sentinel_occs))
                        ):
                            # split, brace-expanded or globbed: any words,
                            # any file names (a step may have made them)
                            split.append(node_text(self.src, var))
                            if _ABSOLUTE_WORD.match(raw) and not self.occs_in(
                                value.start_byte, value.end_byte, sentinel_occs
                            ):
                                absolute.add(node_text(self.src, var))
                            else:
                                relative.add(node_text(self.src, var))
                                # for f in .github/workflows/*.yml: each name
                                # starts as the pattern does (no expansion in it)
                                unquoted = value.type in _SPLITTING or any(
                                    c.type in _SPLITTING for c in value.children
                                )
                                lead = None if unquoted else _literal_lead(raw)
                                leads.setdefault(node_text(self.src, var), set()).add(lead or "")
                        else:
                            assignments.append(([node_text(self.src, var)], value))
            elif node.type == "command":
                name_node = node.child_by_field_name("name")
                cname = node_text(self.src, name_node) if name_node is not None else ""
                if cname in ("read", "mapfile", "readarray", "getopts"):
                    reads.append(node)
                elif cname in self.functions or cname == "set":
                    calls.append(node)
                elif cname == "printf":
                    args = node.children_by_field_name("argument")
                    texts = [static_text(self.src, a) for a in args]
                    if len(texts) >= 3 and texts[0] == "-v" and texts[1] is not None:
                        # printf -v NAME %s WORD: NAME holds the word itself
                        # (the model of that word, not of the command's text)
                        if len(args) == 4 and texts[2] == "%s":
                            assignments.append(([texts[1]], args[3]))
                        elif not self.unproven_is_data and texts[2] in ("%s", "%s\\n"):
                            assignments.append(([texts[1]], node))
                        else:
                            split.append(texts[1])  # %b, %q, …: any text
                            if not self.unproven_is_data:
                                # the secrets' follower: NAME holds what is
                                # printed, the secret's text among it
                                assignments.append(([texts[1]], node))
        has_data = bool(sentinel_occs) or bool(self.taint.variables) or self.taint.positional
        here_reads: list[tuple[Node, Node]] = []
        if self.unproven_is_data:
            for var_name in split:
                # for f in "$HARBOR_RUN_DIR"/*.json: each name starts as the
                # folder's absolute path does, with /
                firsts = leads.get(var_name, set())
                model = (
                    _ABSOLUTE_PATH
                    if var_name in absolute - relative
                    else replace(any_model(), first=frozenset(firsts))
                    if var_name not in absolute and firsts and "" not in firsts
                    else any_model()
                )
                self.taint.variables.setdefault(var_name, (UNPROVEN, model))
        if self.unproven_is_data or has_data:
            # what is read is never proven clean (a file, a pipe, a step's
            # output), but the output of a command that reads only the
            # author's files: read -r a b < <(awk '…' /proc/meminfo)
            for node in reads:
                if self._reads_pure_substitution(node):
                    continue
                here = _here_string(self.src, node)
                if here is not None and _plain_text(self.src, here):
                    # read -r v <<< "$x": what it takes holds what the text
                    # holds, known once the names in it are (below)
                    here_reads.append((node, here))
                    continue
                source = _read_redirect(self.src, node)
                if (
                    self.file_reads_clean
                    and source is not None
                    and source.type == "process_substitution"
                    and not self._prints_secret_file(source)
                ):
                    # read … < <(jq … "$f") when no file it reads holds a
                    # secret: a secret only if one is passed in (known below)
                    here_reads.append((node, source))
                    continue
                loop, holder = _read_holder(node)
                stages = (
                    [c for c in holder.children if c.is_named]
                    if holder is not None and holder.type == "pipeline"
                    else []
                )
                before = stages[: stages.index(loop)] if loop in stages else []
                if (
                    self.file_reads_clean
                    and source is None
                    and before
                    and not any(self._prints_secret_file(stage) for stage in before)
                ):
                    # jq … "$f" | while read …; done | column: the same, for
                    # each stage before the loop (what it prints goes after)
                    here_reads.extend((node, stage) for stage in before)
                    continue
                read_file = self._reads_a_file(node) if self.file_reads_clean else None
                if read_file is not None and not self._names_secret_file(read_file):
                    continue
                if self.unproven_is_data and self._reads_authors(node):
                    continue  # read -r a b _ < /proc/loadavg: a file no step can write
                names = [
                    node_text(self.src, a)
                    for a in node.children_by_field_name("argument")
                    if IDENT.fullmatch(node_text(self.src, a))
                ] or ["REPLY", "MAPFILE"]
                model = self._find_records(node) or self._array_items(node) or any_model()
                count = self._count_field(node)
                for k, var_name in enumerate(names):
                    held = count if k == 0 and count is not None else model
                    self.taint.variables.setdefault(var_name, (UNPROVEN, held))
        changed = True
        while changed:
            changed = False
            occs = [self._guarded(o) for o in sentinel_occs + self._expansion_occs(script)]
            for node, here in here_reads:
                inner = self.occs_in(here.start_byte, here.end_byte, occs)
                if here.type == "process_substitution":
                    # < <(GH_TOKEN="$T" gh api …): gh's answer, not the value
                    inner = [o for o in inner if not self._sent_only(here, [o])]
                if inner:
                    for var_name in [
                        node_text(self.src, a)
                        for a in node.children_by_field_name("argument")
                        if IDENT.fullmatch(node_text(self.src, a))
                    ] or ["REPLY", "MAPFILE"]:
                        changed |= self._holds(var_name, inner[0].arg, any_model())
            for names, value in assignments:
                inside = _outermost(self.occs_in(value.start_byte, value.end_byte, occs))
                if not self.unproven_is_data:
                    inside = [o for o in inside if not self._in_digest(o)]
                if not inside:
                    named = self._names_tainted(value)
                    if named is not None:
                        # b=ARG_x: arithmetic evaluates b, then the value of
                        # ARG_x; (( t = start )): t holds the number computed
                        computed = self.script is not None and self.script.arithmetic(value)
                        for var_name in names:
                            changed |= self._holds(
                                var_name, named, _NUMBER if computed else any_model()
                            )
                    continue
                model = (
                    # $(( … )), or an assignment inside arithmetic (the
                    # header of for (( i = n - 1; … )), (( x = … ))): an
                    # integer, whatever it was computed from, not negative
                    # where every place that sets the name shows it
                    self._variable_model(names)
                    if _lone_arithmetic(value) is not None
                    else _NUMBER
                    if self.script is not None and self.script.arithmetic(value)
                    # x=($v): bash splits $v into elements, any of which may
                    # start with "-" whatever the whole value could
                    else any_model()
                    if value.type == "array" and any(self._splits(o, value) for o in inside)
                    else self._array_words(value, inside) or self._led_elements(value)
                    if value.type == "array"
                    else inside[0].model
                    if len(inside) == 1 and self._is_whole(value, inside[0])
                    else self._enum_product(value, inside)
                    or self._inert_holes(value, inside)
                    or self._prefixed_model(value, inside)
                )
                grew = False
                for var_name in names:
                    grew |= self._holds(var_name, inside[0].arg, model)
                if grew:
                    changed = True
                    # later places read it as it is now (where="$where and …")
                    occs = [self._guarded(o) for o in sentinel_occs + self._expansion_occs(script)]
            for call in calls:
                # $1… hold the words passed, each with the model of the whole
                # word (the author's text around the caller's counts: f
                # "-$v" passes a word that starts with -); every call counts
                key = self._positional_key(call)
                # each word before is one word: $k is the k-th (set's own
                # options stand before its words: no count there)
                counted = _name_of(self.src, call) != "set"
                for k, word in enumerate(call.children_by_field_name("argument"), 1):
                    inside = _outermost(self.occs_in(word.start_byte, word.end_byte, occs))
                    if not inside and self.unproven_is_data and self._globs_writable(word):
                        # f *.txt: the names a step may have made, any words
                        changed |= self._passes(key, UNPROVEN, any_model())
                    if inside:
                        model = self._passed_model(word, inside, call)
                        changed |= self._passes(key, inside[0].arg, model)
                        if counted:
                            changed |= self._passes(f"{key}#{k}", inside[0].arg, model)
                    counted = counted and self._one_word(word)
                if not counted:
                    self._uncounted.add(key)

    def _positional_key(self, call: Node) -> str:
        """Whose positional parameters `call` sets: the function it calls,
        or, for ``set``, the function it stands in (`_TOP`: the script's)."""
        name = call.child_by_field_name("name")
        cname = node_text(self.src, name) if name is not None else ""
        if cname != "set" and cname in self.functions:
            return cname
        return self.function_at(call.start_byte) or _TOP

    def _passed_model(self, word: Node, inside: Sequence[Occ], call: Node) -> ValueModel:
        """The model of a word `call` passes (`inside`: its caller data),
        read as an assignment's value is: split, it is any words."""
        if any(o.start in self.split_starts or self._splits(o, call) for o in inside):
            return any_model()  # f $v, set -- $v: split words
        if len(inside) == 1 and self._is_whole(word, inside[0]):
            return inside[0].model
        return (
            self._enum_product(word, inside)
            or self._inert_holes(word, inside)
            or self._prefixed_model(word, inside)
        )

    def _passes(self, key: str, arg: str, model: ValueModel) -> bool:
        """The positional parameters of `key` (and so those of the whole
        script, `Taint.positional`) may hold a word of `model`. Returns
        whether either grew."""
        grew = False
        for where in {key, _ALL}:
            current = self._positional.get(where)
            merged = model if current is None else current[1].union(model)
            if current is None or merged != current[1]:
                self._positional[where] = (arg if current is None else current[0], merged)
                grew = True
        self.taint.positional = self._positional[_ALL]
        return grew

    def _positional_source(
        self, node: Node, otherwise: tuple[str, ValueModel]
    ) -> tuple[str, ValueModel] | None:
        """What ``$1``… ``$@`` at `node` may hold: in a function the script
        runs only by calls it shows (`function_calls`), the words those
        calls pass (and a ``set`` in it); elsewhere `otherwise`, what the
        name holds for all the analysis knows."""
        function = self.function_at(node.start_byte)
        if function is None:
            # the script's own: what it started with and its sets
            return self._positional.get(_TOP)
        if self.function_calls(function) is None:
            return otherwise
        name = node_text(self.src, node).strip('"${}')
        if (
            name.isdigit()
            and function not in self._uncounted
            and not self._runs_in(self.function_bodies[function][0], ("shift", "set"))
        ):
            # every call's k-th word, each word before it one word
            return self._positional.get(f"{function}#{name}")
        return self._positional.get(function)

    def _one_word(self, word: Node) -> bool:
        """`word` is one word as a command's argument, whatever its values:
        quoted, or literal without glob or brace characters; not ``"$@"``
        or ``"${a[@]}"``, which are as many words as they hold."""
        text = node_text(self.src, word)
        if re.search(r"\$\{?[@]|\[[@]\]\}|\$\{!", text):
            return False
        if word.type in ("string", "raw_string", "number"):
            return True
        if word.type == "word":
            return not _GLOB_OR_BRACE.search(text)
        return word.type == "concatenation" and all(
            c.type in ("string", "raw_string")
            or (c.type == "word" and not _GLOB_OR_BRACE.search(node_text(self.src, c)))
            for c in word.children
        )

    def _holds(self, name: str, arg: str, model: ValueModel) -> bool:
        """`name` may hold a value of `model` (one more place that sets it):
        what it may hold grows to take it in, whichever place set it first.
        Returns whether it grew."""
        current = self.taint.variables.get(name)
        if current is None:
            self.taint.variables[name] = (arg, model)
            return True
        merged = current[1].union(model)
        if merged == current[1]:
            return False
        # a finding names the arg whose values are not the author's words
        named = arg if current[1].words is not None and model.words is None else current[0]
        self.taint.variables[name] = (named, merged)
        return True

    def _splits(self, occ: Occ, within: Node) -> bool:
        """The expansion `occ` stands unquoted in `within` (a command, an
        array): bash splits it into words and globs each."""
        node = occ.node
        if node is None:
            node = within.descendant_for_byte_range(occ.start, occ.end)
        while node is not None and node != within:
            if node.type in ("string", "raw_string", "ansi_c_string", "heredoc_body"):
                return False
            node = node.parent
        return node is not None

    def _carries_data(self, value: Node, sentinel_occs: list[Occ]) -> bool:
        """An unquoted ``for`` list word whose expansion is not proven clean
        (what it splits into is then any words)."""
        if self.occs_in(value.start_byte, value.end_byte, sentinel_occs):
            return True
        for node, name, expansion in self.script.reads() if self.script is not None else ():
            if not expansion or not value.start_byte <= node.start_byte < value.end_byte:
                continue
            source = self._var_source(name) if name else None
            if node.type == "expansion":
                source = _transformed(self.src, node, source)
            if source is not None:
                return True
        return any(
            value.start_byte <= n.start_byte < value.end_byte
            for n in (self.script.of_type("command_substitution") if self.script else ())
        )

    def _names_tainted(self, value: Node) -> str | None:
        """The arg behind a tainted variable whose *name* the static text of
        `value` mentions (bash evaluates names in arithmetic recursively)."""
        text = static_text(self.src, value)
        if text is None:
            return None
        for ident in IDENT.findall(text):
            source = self.taint.variables.get(ident)
            if source is not None:
                return source[0]
        return None

    def enum_texts(self, word: Word) -> list[str] | None:
        """The texts a word built from the author's literal text and enum
        values can be (``{{ args.algo }}sum``, ``"${ARG_tool}"``): at most
        64, each the author's; None for any other word."""
        if not word.occs or any(o.model.words is None for o in word.occs) or word.splits:
            return None
        texts = self._product(word.start, word.end, word.occs, 64)
        return sorted(texts) if texts is not None else None

    def _pieces(self, start: int, end: int, occs: Sequence[Occ]) -> list[str]:
        """The text between `start` and `end` around the occurrences `occs`:
        one piece before each, and the rest (one more than `occs`)."""
        pieces: list[str] = []
        at = start
        for occ in sorted(occs, key=lambda o: o.start):
            pieces.append(self.src[at : occ.start].decode("utf-8", "replace"))
            at = max(at, occ.end)
        pieces.append(self.src[at:end].decode("utf-8", "replace"))
        return pieces

    def _product(self, start: int, end: int, occs: Sequence[Occ], limit: int) -> list[str] | None:
        """Every text the author's literal text between `start` and `end` and
        the words of the enum values `occs` in it make (quotes removed), at
        most `limit`; None when the text holds another expansion or an
        escape outside one double-quoted string, or there are more. Inside
        one (``"\\b$ARG_marker\\b"``) a backslash is bash's there
        (`dq_unescape`)."""
        pieces = self._pieces(start, end, occs)
        if any(c in piece for piece in pieces for c in "$`"):
            return None
        if any("\\" in piece for piece in pieces):
            whole = self.src[start:end].decode("utf-8", "replace")
            quoted = (
                len(whole) >= 2
                and whole[0] == whole[-1] == '"'
                and not any(c in piece for piece in pieces for c in "'")
                and '"' not in "".join(pieces)[1:-1]  # (an escaped one: not read here)
            )
            if not quoted:
                return None
            pieces = [dq_unescape(piece) for piece in pieces]
        texts = [""]
        for piece, occ in zip(pieces, sorted(occs, key=lambda o: o.start), strict=False):
            assert occ.model.words is not None
            literal = piece.replace('"', "").replace("'", "")
            texts = [t + literal + w for t in texts for w in occ.model.words]
            if len(texts) > limit:
                return None
        rest = pieces[-1].replace('"', "").replace("'", "")
        return [t + rest for t in texts]

    def _array_words(self, value: Node, inside: Sequence[Occ]) -> ValueModel | None:
        """The model of each element of the array `value` (``opts=(-q
        "-var-file=envs/$ARG_env.tfvars")``), when every one is the
        author's literal word or one of the finite texts the author's words
        make (`_enum_product`): one of those words. None otherwise."""
        texts: list[str] = []
        for element in value.children:
            if element.type in ("(", ")"):
                continue
            held = [o for o in inside if element.start_byte <= o.start < element.end_byte]
            if not held:
                # the author's word ("-out=$HARBOR_RUN_DIR/plan.bin": a value
                # of the server's in it, the author's text as written)
                text = static_text(self.src, element)
                texts.append(text if text is not None else node_text(self.src, element))
                continue
            # an integer of a few values is one of those numbers' texts
            held = [_as_words(o) for o in held]
            product = self._enum_product(element, held)
            if product is None or product.words is None:
                return None
            texts.extend(product.words)
        return words_model(texts) if texts else None

    def _led_elements(self, value: Node) -> ValueModel:
        """The model of each element of the array `value` when every one
        starts with a character of the author's that is no ``-``, no
        expansion and no glob (``files=(data/report-"$ARG_m"-*.csv)``): a
        word, or a file name its glob matches, starts with it. Any text
        otherwise."""
        leads: set[str] = set()
        for element in value.children:
            if element.type in ("(", ")"):
                continue
            lead = _literal_lead(node_text(self.src, element))
            if lead is None:
                return any_model()
            leads.add(lead)
        return replace(any_model(), first=frozenset(leads)) if leads else any_model()

    def _enum_product(self, value: Node, inside: Sequence[Occ]) -> ValueModel | None:
        """The model of an assigned value built only from the author's
        literal text and values that are each one of the author's words
        (``url="https://{{ args.svc }}.example/$ARG_env"`` with enums): one
        of the finite set of texts they can make (at most 512), so the
        author's too. None: other text or too many."""
        if not inside or any(o.model.words is None for o in inside):
            return None
        texts = self._product(value.start_byte, value.end_byte, inside, 512)
        if texts is None:
            # out="$HARBOR_RUN_DIR/ledger-$ARG_os": a folder of the server's,
            # then the author's text and words (that folder's names, as written)
            head = _SERVER_HEAD.match(self.src[value.start_byte : inside[0].start].decode())
            held = self._var_source(head.group(1) or head.group(2)) if head else None
            # (a path of the server's: what its files hold may be the caller's, not the path)
            if head is not None and (held is None or held[0] == CALLER_FILE_SOURCE):
                rest = self._product(
                    value.start_byte + len(head.group(0)), value.end_byte, inside, 512
                )
                texts = [head.group(0).strip('"') + t for t in rest] if rest is not None else None
        return words_model(texts) if texts is not None else None

    def _inert_holes(self, value: Node, inside: Sequence[Occ]) -> ValueModel | None:
        """The model of an assigned value built from the author's literal
        text and values that are each inert anywhere (an ``enum`` word, a
        number that cannot start with ``-``: ``f="notes-$ARG_version.txt"``
        with a digits-and-dots pattern): the author's text with numbers in
        it, as inert as writing them there (rule 4), so a number that starts
        as the text does. None: other text, or other caller data."""
        if not inside or not all(_inert_anywhere(o.model) for o in inside):
            return None
        pieces = self._pieces(value.start_byte, value.end_byte, inside)
        if any(c in piece for piece in pieces for c in "$`\\"):
            return None
        literal = [piece.replace('"', "").replace("'", "") for piece in pieces]
        chars = set("".join(literal)).union(*(o.model.chars for o in inside))
        first = frozenset(literal[0][0]) if literal[0] else inside[0].model.first
        return ValueModel(frozenset(chars), first, False, True)

    def _prefixed_model(self, value: Node, inside: Sequence[Occ]) -> ValueModel:
        """The model of an assigned value mixing text and caller data (the
        occurrences `inside` it): one that starts with the author's literal
        prefix when the value has one before the first caller data
        (``d=/srv/$ARG_x``), with ``/`` after an absolute folder of the
        runtime's (``"$HARBOR_RUN_DIR/report-$ARG_week.csv"``), or as the
        first data does (``"$ARG_from..$ARG_to"``); and, when it has no
        other expansion, made only of the author's text, the server's path
        and the characters of the values in it. Else any text."""
        first = inside[0]
        raw = self.src[value.start_byte : first.start].decode("utf-8", "replace")
        prefix = dequoted_prefix(raw)
        absolute = _ABSOLUTE_WORD.match(raw) is not None and not any(c in raw for c in "`\\")
        chars = self._mixed_chars(value, inside, absolute)
        if absolute:
            return ValueModel(chars, frozenset("/"), False)
        if prefix and not any(c in raw for c in "$`\\") and prefix[0] in _SAFE_FIRST:
            return ValueModel(chars, frozenset(prefix[0]), False)
        lead = _CLEAN_LEAD.match(raw)
        if (
            lead is not None
            and lead.group(1) in self.taint.clean
            and lead.group(1) not in self.assigned
            and lead.group(2)[:1] in _SAFE_FIRST
        ):
            # "$REGISTRY_HOST/team/$ARG_image": the environment's value (the
            # operator's, the author's), or the author's text after it when
            # it is empty, stands first: never the caller's
            return ValueModel(chars, _SAFE_FIRST, False)
        if (
            not raw.strip('"')
            and not first.model.can_be_empty
            and first.start not in self.split_starts
        ):
            # "$ARG_from..$ARG_to": the first data decides the first character
            return ValueModel(chars, first.model.first, False)
        return any_model()

    def _mixed_chars(self, value: Node, inside: Sequence[Occ], absolute: bool) -> frozenset[str]:
        """The characters the value `value` may hold: its literal text and
        the values `inside` it (with the server's path after an absolute
        folder that starts it), or any when it has another expansion."""
        chars = set(_SERVER_PATH.chars) if absolute else set()
        chars = chars.union(*(o.model.chars for o in inside))
        pieces = self._pieces(value.start_byte, value.end_byte, inside)
        if absolute:
            pieces[0] = _ABSOLUTE_WORD.sub("", pieces[0], count=1)
        if any(c in piece for piece in pieces for c in "$`\\"):
            return any_model().chars  # another expansion, an escape: any text
        return frozenset(chars | set("".join(pieces)))  # quotes too: a superset

    def _is_whole(self, value: Node, occ: Occ) -> bool:
        raw = node_text(self.src, value)
        inner = self.src[occ.start : occ.end].decode("utf-8", errors="replace")
        if raw == f"'{inner}'" and "'" not in occ.model.chars:
            return True  # '{{ args.n }}': the value, verbatim
        return raw.strip('"') == inner

    # -- constants
    def resolve_command_word(self, head: Word) -> list[Word] | None:
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
        return [Word(head.start, head.end, t, [], "", (t, None), head.where) for t in texts]

    def _assignment_counts(self, nodes: Sequence[Node]) -> dict[str, int]:
        """How many places of `nodes` may assign each name: an assignment,
        a ``for`` variable, a command given the bare name (``read NAME``,
        ``printf -v NAME``, ``local NAME``): an over-count, never under."""
        counts: dict[str, int] = {}
        for node in nodes:
            names: list[str] = []
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None:
                    if target.type == "subscript":
                        target = target.child_by_field_name("name") or target
                    names.append(node_text(self.src, target))
            elif node.type in ("for_statement", "c_style_for_statement"):
                var = node.child_by_field_name("variable")
                if var is not None:
                    names.append(node_text(self.src, var))
            elif node.type in ("command", "declaration_command", "unset_command"):
                for arg in node.children:
                    text = node_text(self.src, arg)
                    if IDENT.fullmatch(text):
                        names.append(text)  # read NAME, printf -v NAME, local NAME…
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        return counts

    def _constants(self, nodes: Sequence[Node]) -> dict[str, tuple[int, list[str]]]:
        """Variables assigned exactly once, at the top level of the script,
        to literal text (or a literal array): name -> (where, values)."""
        candidates: dict[str, tuple[int, list[str]]] = {}
        for node in nodes:
            if node.type != "variable_assignment":
                continue
            target = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            parent = node.parent
            if target is None or target.type == "subscript" or value is None or parent is None:
                continue
            name = node_text(self.src, target)
            if (
                parent.type in ("program", "list")
                and (
                    parent.type == "program"
                    or (parent.parent is not None and parent.parent.type == "program")
                )
                and name not in candidates
            ):
                literal = self._literal_values(value)
                if literal is not None:
                    candidates[name] = (node.end_byte, literal)
        counts = self._assignment_counts(nodes)
        return {
            name: found
            for name, found in candidates.items()
            if counts.get(name) == 1 and name not in self.taint.variables
        }

    def literal_positional_count(self, use: Node, k: int) -> bool:
        """Every call of the function `use` is in passes at least `k` words,
        the first k-1 of them literal, and no ``shift`` or ``set`` runs in
        it: ``$k`` is each call's k-th word."""
        found = self._literal_calls(use)
        if found is None:
            return False
        body, calls = found
        if self._runs_in(body, ("shift", "set")):
            return False
        return all(
            len(words := list(call.children_by_field_name("argument"))) >= k
            and all(self._one_literal(w) for w in words[: k - 1])
            for call in calls
        )

    def _calls_prefix(self, use: Node, k: int) -> str:
        """The author's text every call's k-th word starts with before its
        caller data (`literal_positional_count` holds)."""
        found = self._literal_calls(use)
        if found is None:
            return ""
        prefixes: list[str] = []
        for call in found[1]:
            word = list(call.children_by_field_name("argument"))[k - 1]
            inner = self._arithmetic_results(word, self.occs_in(word.start_byte, word.end_byte))
            end = inner[0].start if inner else word.end_byte
            lead = self.src[word.start_byte : end].decode("utf-8", "replace")
            if "$(" in lead or "`" in lead:
                return ""
            prefix = dequoted_prefix(self._constant_lead(lead, word.start_byte))
            if not prefix and inner and inner[0].var and (call.id, k) not in self._prefixing:
                # api "$base/x": what $base's one assignment starts with
                self._prefixing.add((call.id, k))
                try:
                    prefix = self._held_prefix(word, inner[0])
                finally:
                    self._prefixing.discard((call.id, k))
            prefixes.append(prefix)
        common = prefixes[0] if prefixes else ""
        for prefix in prefixes[1:]:
            while not prefix.startswith(common):
                common = common[:-1]  # the text they all start with, character by character
        return common

    def _guarded(self, occ: Occ) -> Occ:
        """`occ` with the model of a number where a guard showed its name to
        hold digits (``[[ $n =~ ^[0-9]+$ ]] || exit`` … ``"$n"``,
        `_guards.matched_digits`): no sign there when the guard admits none."""
        if not occ.var or occ.node is None or occ.model.numeric:
            return occ
        read = occ.node
        if read.parent is not None and read.parent.type == "subscript":
            read = read.parent  # BASH_REMATCH[2], n[1] in arithmetic
        group = _REMATCH_GROUP.fullmatch(node_text(self.src, read))
        if group is not None:
            # ${BASH_REMATCH[1]} after [[ $v =~ ^v([0-9]+)\.… ]] held: digits
            held = matched_digit_group(
                self.src, occ.node, int(group[1] or group[2]), self.functions
            )
            return replace(occ, model=_GUARDED) if held else occ
        if not _element_zero(node_text(self.src, read), occ.var):
            return occ  # ${n[1]}: a guard on $n tests ${n[0]} alone
        if matched_digits(self.src, occ.node, occ.var, unsigned=True):
            return replace(occ, model=_GUARDED)
        if matched_digits(self.src, occ.node, occ.var) or assigned_arithmetic(
            self.src, occ.node, occ.var
        ):
            return replace(occ, model=_GUARDED_SIGNED)
        shown = matched_pattern(self.src, occ.node, occ.var)
        if shown is not None:
            # [[ $rev =~ ^[0-9a-f]{7,40}$ ]] && git log "$rev": the regex's texts
            return replace(occ, model=intersect(occ.model, shown))
        return occ

    def set_once(self, name: str) -> Node | None:
        """The value `name` is assigned in the one place that may set it
        (`_assignment_counts`: no loop, ``read``, ``${name:=…}`` or other
        assignment sets it too); None otherwise."""
        if self.script is None or name in self.unmodeled:
            return None
        if self._counts is None:
            self._counts = self._assignment_counts(self.script.nodes)
        if self._counts.get(name) != 1 or re.search(rf"\$\{{{name}:?=", self.text):
            return None  # (${name:=…} assigns too)
        return next(
            (
                n.child_by_field_name("value")
                for n in self.script.of_type("variable_assignment")
                if (t := n.child_by_field_name("name")) is not None
                and t.type != "subscript"
                and node_text(self.src, t) == name
            ),
            None,
        )

    def _held_prefix(self, node: Node, first: Occ) -> str:
        """The author's text a word starts with through the variable it
        starts with (``"$url"`` after ``url="$API/v1/$ARG_id"``): that
        variable's one assignment (`_assignment_counts`), a word (no
        array) led by the author's text before its first caller data.
        "" when it is not so."""
        lead = self.src[node.start_byte : first.end].decode("utf-8", "replace").lstrip('"')
        positional = re.fullmatch(r"\$\{?([1-9])\}?", lead)
        if positional is not None and self.literal_positional_count(node, int(positional[1])):
            # get() { curl "$1"; } … get "$API/q/$vh": what every call's word starts with
            return self._calls_prefix(node, int(positional[1]))
        match = VARIABLE.fullmatch(lead)
        if match is None or self.script is None:
            return ""
        value = self.set_once(match.group(1) or match.group(2))
        if value is None or value.type == "array":
            return ""
        printed = self._printf_lead(value)
        if printed:
            return printed  # flux=$(printf 'from(bucket: "%s")…' "$b"): "from(bucket: \""
        inner = self._arithmetic_results(value, self.occs_in(value.start_byte, value.end_byte))
        if not inner:
            return ""
        lead = self.src[value.start_byte : inner[0].start].decode("utf-8", "replace")
        if "$(" in lead or "`" in lead:
            return ""  # a substitution's output leads it, not the author's text
        return dequoted_prefix(self._constant_lead(lead, value.start_byte))

    def _printf_lead(self, value: Node) -> str:
        """What ``$(printf 'FORMAT' …)`` (the whole value `value`) surely
        starts with: its literal format's text before the first ``%`` or
        backslash (printf(1): the format is printed as it is up to there).
        "" when it is not so."""
        if value.type == "string":
            named = [c for c in value.children if c.is_named]
            if (
                len(named) != 1
                or node_text(self.src, value) != f'"{node_text(self.src, named[0])}"'
            ):
                return ""
            value = named[0]
        if value.type != "command_substitution":
            return ""
        named = [c for c in value.children if c.is_named]
        if len(named) != 1 or named[0].type != "command":
            return ""
        name = named[0].child_by_field_name("name")
        arguments = list(named[0].children_by_field_name("argument"))
        if name is None or node_text(self.src, name) != "printf" or not arguments:
            return ""
        fmt = static_text(self.src, arguments[0])
        if fmt is None or fmt.startswith("-"):
            return ""
        return re.split(r"[%\\]", fmt, maxsplit=1)[0]

    def _constant_lead(self, lead: str, at: int) -> str:
        """`lead` (script text before caller data, at byte `at`) with the
        ``$NAME`` it starts with replaced by NAME's one literal value, when
        NAME is a constant (`_constants`) assigned before `at`:
        ``base="$kc/admin/$ARG_realm"`` after ``kc=https://sso.example.com``."""
        match = re.match(r'"?\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))', lead)
        if match is None:
            return lead
        held = self.constants.get(match.group(1) or match.group(2) or "")
        if held is None or held[0] >= at or len(held[1]) != 1:
            return lead
        text = held[1][0]
        if re.search(r"[\"'\\$`]", text):
            return lead
        return (
            lead[: match.start()]
            + ('"' if lead.startswith('"') else "")
            + text
            + lead[match.end() :]
        )

    def _literal_values(self, value: Node) -> list[str] | None:
        if value.type == "array":
            out = []
            for child in value.children:
                if child.type in ("(", ")"):
                    continue
                text = static_text(self.src, child)
                if text is None:
                    return None
                out.append(text)
            return out
        text = static_text(self.src, value)
        return None if text is None else [text]

    # -- words
    def word(self, node: Node) -> Word:
        """The command-line word `node` with the caller data in it, its
        static text, and the script it stands for if a shell runs it."""
        occs = self._arithmetic_results(node, self.occs_in(node.start_byte, node.end_byte))
        if self.glob_starts:
            occs = [
                replace(o, model=any_model()) if o.start in self.glob_starts else o for o in occs
            ]
        static = static_text(self.src, node) if not occs else None
        prefix = ""
        if occs:
            prefix = dequoted_prefix(
                self.src[node.start_byte : occs[0].start].decode("utf-8", "replace")
            )
            if not prefix and occs[0].var:
                # "$url": what its one assignment starts with
                prefix = self._held_prefix(node, occs[0])
        script: tuple[str, Sentinels | None] | None = (static, None) if static is not None else None
        if occs and all(o.kind in ("raw", "sq") and o.model.inert for o in occs):
            text = static_text(self.src, node)
            if text is not None:
                script = (text, self.sentinels)
        if script is None and not any(o.kind in ("raw", "sq") for o in occs):
            script = self._rendered(node)
        splits = any(o.start in self.split_starts for o in occs)
        if self.unproven_is_data and self._globs_writable(node):
            # file names a step may have made: any words, a `-` first too,
            # unless the pattern starts with an absolute folder
            # (each name a word of its own, whole: it starts as the pattern does)
            absolute = _ABSOLUTE_WORD.match(node_text(self.src, node)) is not None
            led = _literal_lead(node_text(self.src, node))
            # data/report-*.csv: each name starts with d, as the pattern does
            model = (
                _ABSOLUTE_PATH
                if absolute
                else replace(any_model(), first=frozenset(led))
                if led
                else any_model()
            )
            glob = Occ(UNPROVEN, "env", model, node.start_byte, node.end_byte, node, "*")
            splits_too = not (absolute or led) or splits  # an unquoted expansion in it still may
            return Word(
                node.start_byte, node.end_byte, None, [glob, *occs], "", None, None, splits_too
            )
        head = self._option_head(node) if static is None and not splits else None
        return Word(
            node.start_byte, node.end_byte, static, occs, prefix, script, None, splits, head
        )

    def _option_head(self, node: Node) -> str | None:
        """``--name=`` when `node` is that literal text followed by quoted
        parts only (``--token="$T"``): one word, whatever the expansions
        hold, so an option and its value."""
        if node.type != "concatenation" or len(node.children) < 2:
            return None
        first, rest = node.children[0], node.children[1:]
        text = node_text(self.src, first)
        if first.type != "word" or not _OPTION_HEAD.fullmatch(text):
            return None
        return text if all(c.type in ("string", "raw_string") for c in rest) else None

    def _globs_writable(self, node: Node) -> bool:
        """`node` is a word with an unquoted glob that lists a folder a step
        may have written (a relative pattern after the script moved into
        one, or a pattern in the run directory or a temporary folder)."""
        if node.type not in ("word", "concatenation"):
            return False
        unquoted = "".join(
            node_text(self.src, part)
            for part in ([node] if node.type == "word" else node.children)
            if part.type == "word"
        )
        if not _GLOB_OR_BRACE.search(unquoted.replace("{", "")):
            return False
        text = node_text(self.src, node)
        if _WRITABLE_PLACE.search(text.strip("\"'")):
            return True
        return not text.lstrip("\"'").startswith("/") and self.works_in_writable()

    def stdin_of(self, node: Node) -> Occ | None:
        """Caller data that reaches this command's standard input."""
        child = node
        for parent in ancestors(node):
            if parent.type == "pipeline":
                for stage in parent.children:
                    if stage.start_byte >= child.start_byte:
                        break
                    occs = [
                        o
                        for o in self.occs_in(stage.start_byte, stage.end_byte)
                        if not o.model.inert_code
                    ]
                    if occs:
                        return occs[0]
                    if self.unproven_is_data and not self._clean_stage(stage):
                        # what a program prints is not the author's (rule 2)
                        return Occ(
                            UNPROVEN, "env", any_model(), stage.start_byte, stage.end_byte, stage,
                            "output",
                        )  # fmt: skip
            if parent.type in ("redirected_statement", "command"):
                for index, red in enumerate(parent.children):
                    if parent.field_name_for_child(index) != "redirect" and red.type not in (
                        "herestring_redirect",
                        "heredoc_redirect",
                    ):
                        continue
                    if red.type == "file_redirect":
                        dest = red.child_by_field_name("destination")
                        written = node_text(self.src, red)
                        if self.unproven_is_data and dest is not None and _STDIN_DUP.match(written):
                            # <&3: whatever the script opened on that descriptor
                            return Occ(
                                UNPROVEN, "env", any_model(), dest.start_byte, dest.end_byte,
                                dest, "file",
                            )  # fmt: skip
                        if (
                            self.unproven_is_data
                            and dest is not None
                            and dest.type != "process_substitution"
                            and written.lstrip("0").startswith("<")
                            and not written.lstrip("0").startswith("<&")
                            and self.step_writable(dest)
                        ):
                            # a file a step may have written holds caller data
                            return Occ(
                                UNPROVEN, "env", any_model(), dest.start_byte, dest.end_byte,
                                dest, "file",
                            )  # fmt: skip
                        if (
                            dest is None
                            or dest.type != "process_substitution"
                            or not node_text(self.src, red).startswith("<")
                        ):
                            continue
                    occs = [o for o in self._stdin_occs(red) if not o.model.inert_code]
                    if occs:
                        return occs[0]
            if parent.type in ("command_substitution", "process_substitution"):
                return None
            child = parent
        return None

    # -- text the shell builds from quoted caller data
    def _rendered(self, node: Node) -> tuple[str, Sentinels | None] | None:
        """The text `node` expands to, when every piece of caller data in it
        arrives shell-quoted by bash itself, as ``${x@Q}`` or printf's ``%q``
        (directly, through ``$(printf …)`` or a variable ``printf -v`` set),
        or is a server value of safe characters (``$HARBOR_RUN_ID``): each
        such value becomes a shellquote sentinel, so a nested analysis
        (``eval``, a sourced file) checks where it lands. None otherwise."""
        table: dict[str, Sentinel] = {}
        text = self._render(node, table)
        if text is None:
            return None
        if self.sentinels is not None:
            table.update(self.sentinels.by_word)
        where = self.sentinels.where if self.sentinels is not None else ()
        return text, Sentinels(table, [], where)

    def _quoted_sentinel(self, source: tuple[str, ValueModel], table: dict[str, Sentinel]) -> str:
        self.rendered_count += 1
        word = f"{QUOTED_SENTINEL}{self.rendered_count}x"
        table[word] = Sentinel(source[0], True, source[1])
        return word

    def _render(self, node: Node, table: dict[str, Sentinel]) -> str | None:
        kind = node.type
        if kind in ("word", "number", "raw_string", "ansi_c_string"):
            return static_text(self.src, node)
        if kind == "string_content":
            raw = node_text(self.src, node)
            return dq_unescape(raw)
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
                return self.render_printf(commands[0], table)
        return None

    def _render_expansion(self, node: Node, table: dict[str, Sentinel]) -> str | None:
        raw = node_text(self.src, node)
        name = expansion_target(self.src, node)
        if name is None:
            return None
        if raw in (f"${name}", f"${{{name}}}"):
            if name in self.rendered_vars:
                text, inner = self.rendered_vars[name]
                table.update(inner)
                return text
            if name in _SERVER_WORDS and name not in self.taint.variables:
                return "hbserver"
            if name in self.temp_paths and self._var_source(name) is None:
                return "hbserver"  # a mktemp path: safe characters, the server's folder
            constant = self.constants.get(name)
            if constant is not None and len(constant[1]) == 1 and self._var_source(name) is None:
                return constant[1][0]  # the author's literal, analysed as written
            return None
        if raw == f"${{{name}@Q}}":
            source = self._var_source(name)
            if source is not None:
                return self._quoted_sentinel(source, table)
        return None

    def render_printf(self, command: Node, table: dict[str, Sentinel]) -> str | None:
        """What ``printf FORMAT ARGS`` prints, when FORMAT is a literal and
        every argument carrying caller data meets a ``%q``."""
        name = command.child_by_field_name("name")
        if name is None or node_text(self.src, name) != "printf":
            return None
        args = list(command.children_by_field_name("argument"))
        if args and static_text(self.src, args[0]) == "-v":
            args = args[2:]
        if args and static_text(self.src, args[0]) == "--":
            args = args[1:]
        if not args:
            return None
        fmt = static_text(self.src, args[0])
        if fmt is None or self.occs_in(args[0].start_byte, args[0].end_byte):
            return None  # a format with caller data in it is not followed
        values = args[1:]
        out: list[str] = []
        index = 0
        pos = 0
        for match in _PRINTF_DIRECTIVE.finditer(fmt):
            out.append(printf_escapes(fmt[pos : match.start()]))
            pos = match.end()
            directive = match.group(0)
            if directive == "%%":
                out.append("%")
                continue
            arg = values[index] if index < len(values) else None
            index += 1
            if arg is None:
                continue
            occs = self.occs_in(arg.start_byte, arg.end_byte)
            # a placeholder's sentinel reads as static text: it is caller data
            static = None if occs else static_text(self.src, arg)
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
        out.append(printf_escapes(fmt[pos:]))
        return "".join(out)

    def _render_variables(self, nodes: Sequence[Node]) -> None:
        """``printf -v NAME FORMAT ARGS`` with every caller value meeting a
        ``%q``, or an assignment whose caller values are all quoted by bash
        (``%q``, ``@Q``): NAME holds that rendering (when nothing else
        assigns it)."""
        counts: dict[str, int] = {}
        found: dict[str, Node] = {}
        assigned: dict[str, Node] = {}
        for node in nodes:
            if node.type == "variable_assignment":
                target = node.child_by_field_name("name")
                if target is not None:
                    key = node_text(self.src, target)
                    counts[key] = counts.get(key, 0) + 1
                    value = node.child_by_field_name("value")
                    if value is not None:
                        assigned[key] = value
            if node.type != "command":
                continue
            name = node.child_by_field_name("name")
            args = node.children_by_field_name("argument")
            for arg in args:
                text = node_text(self.src, arg)
                if IDENT.fullmatch(text):
                    counts[text] = counts.get(text, 0) + 1
            if (
                name is not None
                and node_text(self.src, name) == "printf"
                and len(args) >= 3
                and static_text(self.src, args[0]) == "-v"
            ):
                target_name = static_text(self.src, args[1])
                if target_name is not None:
                    found[target_name] = node
        for target_name, node in found.items():
            if counts.get(target_name, 0) != 1:
                continue
            table: dict[str, Sentinel] = {}
            rendered = self.render_printf(node, table)
            if rendered is not None:
                self.rendered_vars[target_name] = (rendered, table)
        # NAME="… $(printf %q "$ARG_x") …" or NAME="… ${ARG_x@Q} …", once
        for target_name, value in assigned.items():
            if counts.get(target_name, 0) != 1 or target_name in self.rendered_vars:
                continue
            table = {}
            quoted = self._render(value, table)
            if quoted is not None and table:
                if self.sentinels is not None:
                    table.update(self.sentinels.by_word)  # raw placeholders stay caller data
                self.rendered_vars[target_name] = (quoted, table)
