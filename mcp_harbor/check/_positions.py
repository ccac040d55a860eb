"""The allowlist gate: caller data only where a grammar says data.

`admit` looks at one command line whose program is a literal word and
decides, from the program's grammar (`mcp_harbor.check.grammars`, or an
export's ``programs:`` entry), whether every place caller data reaches is
inert data: each word, the standard input, and each variable assigned for
that one command (``V="$ARG_x" tool``). Where a position is not known to be
data, it refuses (H012) and says which ``programs:`` entry would accept it.

Guarantees: the gate never accepts caller data at a position its grammar
does not name; a program without a grammar accepts none at all. It runs
beside the role analysis (`mcp_harbor.check._roles`), which keeps its
deeper checks of the positions a grammar admits (printf formats, ``<>`` in
perl, ``find -exec`` commands).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from mcp_harbor.check import _literals, _python, grammars, sinks
from mcp_harbor.check._facts import Hazard, Located, Occ, Word, is_attachment_path
from mcp_harbor.check._taint import MADE_TEMP, PATH_HEAD, UNPROVEN, names_place
from mcp_harbor.check._values import SAFE_CHARS, ValueModel
from mcp_harbor.check.credentials import reads_credential_file
from mcp_harbor.check.rules import (
    CodeSelectingVariable,
    InterpreterProgram,
    NoGrammarPosition,
    OptionInjection,
    OptionRunsCode,
    Rule,
)

__all__ = ["EnvPrefix", "admit", "normal_program"]

_DIGITS = frozenset(string.digits + ".")
#: A literal start that no NAME=VALUE operand can have (a path: ./x, /x).
_NOT_A_NAME = re.compile(r"[^A-Za-z_]|[A-Za-z_][A-Za-z0-9_]*[^A-Za-z0-9_=]")
#: A path whose start (after an option's head or a KEY=) a command prints.
_COMPUTED_START = re.compile(rf"^((?:{PATH_HEAD})?)(?:\$\([^()]*\)|`[^`]*`)")
#: What makes a word split from a value an option or several (a glob).
_SPLIT_UNSAFE = frozenset("-+*?[")
#: Operands that name standard input.
_STDIN = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
#: Builtins and the shell's own words: they read no folder.
_SHELL_OWN = frozenset(
    {"cd", "pushd", "popd", "echo", "printf", "test", "[", "true", "false", ":", "exit",
     "return", "shift", "set", "unset", "local", "declare", "export", "read", "wait",
     "trap", "kill", "sleep"}
)  # fmt: skip
#: Variables the C library and the dynamic loader read as code or as where
#: code is (ld.so(8), glibc's environment variables), and the shell's own.
_LOADER_VARIABLES = re.compile(
    r"LD_\w*|GCONV_PATH|LOCPATH|NLSPATH|MALLOC_\w*|GLIBC_TUNABLES|HOSTALIASES|RES_OPTIONS|"
    r"LOCALDOMAIN|TZDIR|PATH|HOME|TMPDIR|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS4|"
    r"XDG_\w*|LANG|LANGUAGE|LC_\w*"
)
#: Each interpreter's own variables (its manual's ENVIRONMENT section).
_OWN_CODE_VARIABLES: dict[str, tuple[str, ...]] = {
    "python3": ("PYTHON",),
    "node": ("NODE_", "NPM_"),
    "perl": ("PERL",),
    "awk": ("AWK", "POSIXLY_CORRECT"),
}
#: The schemes a URL an operand of curl or wget holds caller data in must
#: start with: the author's (never ``file:``).
_AUTHOR_SCHEMES = ("http://", "https://")
#: The author's start of a word that no long option has: two dashes then
#: a character no option's name starts with (``--- values: ``, ``-- x``).
#: getopt_long reads the whole word as one long option's name, which
#: matches none: the caller's text after it cannot make it an option (a
#: single dash would be a cluster of letters, read one by one).
_NO_OPTION_NAME = re.compile(r"--[^A-Za-z0-9=]")
#: A character no URL scheme holds (RFC 3986 section 3.1).
_NOT_SCHEME = re.compile(r"[^A-Za-z0-9+.-]")
#: The author's scheme and host, closed by the ``/`` that starts the path.
_AUTHORS_HOST = re.compile(r"https?://[^/\0]+/")
#: Options whose value is a program file: the program given, later words
#: are the program's operands.
_PROGRAM_FILES = frozenset({"-f", "--file", "--from-file"})
#: The characters a variable's name may start with (awk, make, POSIX).
_NAME_START = frozenset(string.ascii_letters + "_")


@dataclass(frozen=True, slots=True)
class EnvPrefix:
    """A variable assigned for one command only (``V="$ARG_x" tool``) whose
    value carries caller data."""

    name: str
    occ: Occ


def normal_program(name: str) -> str:
    """The grammar name of a program's basename (``python3.11`` → ``python3``)."""
    return grammars.normal_program(name)


def _declared(declared: sinks.Grammar) -> grammars.Grammar:
    """A ``programs:`` entry as a grammar: only one that states
    ``runs_operands: false`` classes operands as data."""
    return replace(
        grammars.Grammar(
            "the export's programs: entry",
            "data" if declared.data_operands else "code",
            "data" if declared.stdin_data else "code",
            declared.value_options - declared.code_options,
            declared.code_options,
            declared.end_of_options,
        ),
        plus_options=declared.plus_options,
    )


def _narrowed(known: grammars.Grammar, declared: grammars.Grammar) -> grammars.Grammar:
    """A ``programs:`` entry for a program the checker has a grammar for can
    only narrow it: a position is data when both say so, and the options
    either says run code run code."""
    return replace(
        known,
        source=f"{known.source}, narrowed by the export's programs: entry",
        operands=known.operands if declared.operands == "data" else "code",
        stdin=known.stdin if declared.stdin == "data" else "code",
        code_options=known.code_options | declared.code_options,
        plus_options=known.plus_options or declared.plus_options,
    )


def _reads_as_data(grammar: grammars.Grammar, program: str, variable: str) -> bool:
    """The program reads `variable` as data: its grammar names it, or says
    it reads its environment as data (``*``: awk's ``ENVIRON``, python's
    ``os.environ``) and the name is none of those it, or the C library and
    the dynamic loader before it, read as code or as the place of code."""
    if variable in grammar.env_data:
        return True
    if "*" not in grammar.env_data:
        return False
    own = _OWN_CODE_VARIABLES.get(program, ())
    return not (variable.startswith(own) or _LOADER_VARIABLES.fullmatch(variable))


def _elsewhere_writable(words: Sequence[Word], writable: Callable[[Word], bool]) -> bool:
    """``git -C DIR`` (``--git-dir``, ``--work-tree``) with DIR a folder a step
    may have written (`writable`)."""
    for k, word in enumerate(words[:-1]):
        if word.static in ("-C", "--git-dir", "--work-tree") and writable(words[k + 1]):
            return True
    return False


def _works_elsewhere(words: Sequence[Word], writable: Callable[[Word], bool]) -> bool:
    """``-C DIR`` (git, make, and git's ``--git-dir``/``--work-tree``) with
    DIR a literal absolute folder no step writes: the program reads its
    code and config there, not in the working folder."""
    for k, word in enumerate(words[:-1]):
        if word.static in ("-C", "--git-dir", "--work-tree", "--directory"):
            value = words[k + 1]
            return value.static is not None and value.static.startswith("/") and not writable(value)
        if word.static is None or not word.static.startswith("-"):
            return False  # past the options before the subcommand or the targets
    return False


def _form_text(word: Word) -> bool:
    """The value of a form option (`Grammar.form_options`: ``curl -F
    "name=$VALUE"``) is the part's text: the author's name and ``=`` before
    caller data that cannot start with ``@`` or ``<`` (a file to send or
    read) nor hold ``;`` (``;headers=@FILE`` reads a file too)."""
    head = re.match(r"[A-Za-z0-9_.-]+=", word.prefix)
    if head is None or not word.occs:
        return False
    rest = word.prefix[head.end() :]
    return (
        ";" not in word.prefix
        and all(";" not in o.model.chars for o in word.occs)
        and (rest[:1] not in ("@", "<") if rest else not ({"@", "<"} & word.occs[0].model.first))
    )


def _runs_code(evaluates: str, program_text: str) -> str | None:
    """Why a program text may run its data (`Grammar.evaluates` found in it:
    what it found), or None when it shows none of its language's ways."""
    found = re.search(evaluates, program_text, re.M)
    if found is None:
        return None
    return f"it uses `{found.group(0).strip()[:40]}`, one of its language's ways to run code"


def _python_isolated(words: Sequence[Word]) -> bool:
    """``python3 -I`` or ``-P`` (also among combined flags, ``-IB``) before
    its program: neither the working folder nor the script's folder is put
    on ``sys.path`` (python(1) 3.11: -P "don't prepend a potentially unsafe
    path", -I isolates and implies it), so it reads no module from the
    folder it works in."""
    isolated = False
    for word in words:
        text = word.static
        if text is None or not text.startswith("-") or text in ("-", "--"):
            return isolated
        if text.startswith(("-W", "-X", "--")):
            continue  # a value option (-W/-X take one, glued or the next word)
        for letter in text[1:]:
            if letter == "m":
                # a module runs, and may import from folders of its own
                # (unittest discover -s, pytest's rootdir)
                return False
            if letter == "c":
                return isolated  # the program text comes next
            isolated = isolated or letter in "IP"
    return isolated


def _inert(occ: Occ, beside_secret: bool = False) -> bool:
    """The occurrence is the author's text (an ``enum``/``const`` value) or a
    number that cannot start with ``-``: inert at any position (rule 4 of
    the promise: precision from the value's language). `beside_secret`:
    the command gets a secret, where a number is no less the caller's (a
    port says where the secret goes): only the author's text is inert."""
    model = occ.model
    if model.words is not None:
        return True
    if beside_secret:
        return False
    digits = model.numeric or model.chars <= _DIGITS
    return digits and not model.may_start_with_dash


def _numbers_after_no_option(word: Word) -> bool:
    """The word starts with the author's text that no option has as its
    name, ``-`` and a character no option name holds (``--- total: ``),
    and the caller's data in it is numbers: whatever their signs, the word
    is no option a program knows, and they make it none."""
    option = word.prefix.split("\0", 1)[0].lstrip("-")
    return (
        word.prefix.startswith("-")
        and "\0" not in word.prefix
        and any(c in option for c in " \t:,/")
        and all(o.model.numeric and o.model.chars <= _DIGITS | {"-"} for o in word.occs)
    )


def _callers(word: Word, beside_secret: bool = False) -> Word:
    """`word` with only the caller data that is not inert (`_inert`)."""
    if not word.occs or not any(_inert(o, beside_secret) for o in word.occs):
        return word
    kept = [o for o in word.occs if not _inert(o, beside_secret)]
    if not kept or kept[0] is word.occs[0]:
        return replace(word, occs=kept)
    # the caller data no longer starts the word: the author's value before it
    # does, and an enum word such as --opt= makes the rest that option's value
    # (each one, NUL-separated: the option check reads every alternative)
    dropped = word.occs[0].model.words or frozenset()
    options = sorted(word.prefix + w for w in dropped if (word.prefix + w).startswith("-"))
    if dropped and all((word.prefix + w).startswith(_AUTHOR_SCHEMES) for w in dropped):
        # "${ARG_site}$ARG_path" with an enum of the author's URLs: the
        # scheme and host are the author's, whichever was chosen
        return replace(word, occs=kept, prefix=word.prefix + min(dropped))
    return replace(word, occs=kept, prefix="\0".join(options) if options else word.prefix + "x")


def _place_as_callers(
    word: Word, source: Callable[[Word], str | None], own_run: Callable[[str], bool]
) -> Word:
    """`word`, when it is the author's text naming a place a step may write
    (``"$HARBOR_RUN_DIR/x"``, ``include.path=/tmp/c``), as caller data: a
    path, whose file the program reads as its grammar says, and what a step
    wrote is the caller's (rule 2). Where the grammar says data (``jq .
    "$HARBOR_RUN_DIR/x.json"``, ``sort -o FILE``) it stays data; where it
    says code, or where no grammar says anything, it is refused. `own_run`:
    the entry is a file of the run directory only the author's text fills
    (no step of the export may put caller data in the run directory), which
    is no place."""
    if word.tainted:
        return word
    text = source(word) or word.static
    if text is None:
        return word
    text = text.replace('"', "").replace("'", "")
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text) and not text.startswith("file:"):
        return word  # a URL: where it connects is the URL checks' (file:// is a path)
    text = MADE_TEMP.sub("/tmp/mktemp", text)  # where mktemp makes it
    # a start a command prints ($(date +/dev/shm/x)/c) is not shown to be
    # the author's folder: a place, as far as the gate knows
    text = _COMPUTED_START.sub(r"\1/tmp/computed", text)
    if _NOT_ONE_PATH.search(re.sub(r"\$\{[^{}]*\}", "x", text)):
        return word  # a program's text, a sentence: not a path it opens
    option = _OPTION_HEAD.match(text)
    head = option.group(0) if option is not None else ""
    # the entries of a list (a:b), a ${…} whole in one
    entries = re.findall(r"(?:\$\{[^{}]*\}|[^:;,])+[:;,]?|[:;,]", text[len(head) :])
    for k, entry in enumerate(entries):
        if names_place(entry.rstrip(":;,")) and not own_run(entry.rstrip(":;,")):
            head += "".join(entries[:k])
            break
    else:
        return word
    occ = Occ(UNPROVEN, "env", _PLACE_MODEL, word.start, word.end, None)
    return replace(word, occs=[occ], prefix=head)


#: What no single path has: blanks, and the characters of code.
_NOT_ONE_PATH = re.compile(r"[\s;(){}<>|&`]")
#: What may come before a path in one word: an option (``--file=``, ``-I``)
#: or a ``KEY=`` setting (the entries of a list before it are split off).
_OPTION_HEAD = re.compile(rf"{PATH_HEAD}|-[A-Za-z0-9]")


def _worded(detail: str, subject: Word | Occ) -> str:
    """`detail` said of `subject`: when its only "caller data" is the
    author's path of a place a step may write, said so."""
    if not isinstance(subject, Word) or not subject.occs or not _places_only(subject):
        return detail
    place = "a path of a place a step may write (what a step wrote there is the caller's)"
    if "caller data" in detail:
        return detail.replace("caller data", place, 1)
    return f"{detail}; the value is {place}"


def _places_only(word: Word) -> bool:
    """The only "caller data" in `word` is the author's path of a place a
    step may write (`_place_as_callers`)."""
    return all(o.model is _PLACE_MODEL for o in word.occs)


#: A path as the author wrote it, of a place a step may write: it starts
#: with ``/`` (or is relative to such a place) and never with ``-``.
_PLACE_MODEL = ValueModel(
    chars=SAFE_CHARS - {"-"} | {"-"}, first=frozenset("/~."), can_be_empty=False
)


def _advice(program: str, where: str) -> str:
    return (
        f"if `{program}` only reads {where} as data, describe it in the export "
        f"(programs: {{{program}: {{runs_operands: false, stdin: data, "
        "options_with_value: [...]}}); otherwise pass only the author's values "
        "(an enum arg) there"
    )


def _within_subfolder(within: str | None) -> bool:
    """`within:` names a subfolder of the working folder (``data``, not
    ``.``): a value it admits resolves there, so one without a ``/`` (a
    NAME=VALUE shape) would have to be a link in the working folder."""
    if within is None:
        return False
    parts = [p for p in within.split("/") if p not in ("", ".")]
    return bool(parts) and not within.startswith(("/", "~")) and ".." not in parts


def _code_inert(word: Word, beside_secret: bool = False) -> bool:
    """Caller data that is the author's text (enum/const) or a number that
    cannot start with ``-`` where it stands: inert even in code (beside a
    secret, only the author's text is: `_inert`)."""
    if beside_secret:
        return all(o.model.words is not None for o in word.occs)
    return all(o.model.inert_code for o in word.occs) and not (
        not word.prefix and any(o.model.may_start_with_dash for o in word.occs)
    )


def admit(
    program: str,
    words: Sequence[Word],
    stdin: Occ | None,
    env: Sequence[EnvPrefix],
    declared: Mapping[str, sinks.Grammar],
    locate: Callable[[int], Located],
    hazards: list[Hazard],
    *,
    writable_cwd: bool = False,
    source: Callable[[Word], str | None] = lambda word: word.static,
    stdin_text: str | None = None,
    writable: Callable[[Word], bool] = lambda word: word.tainted,
    beside_secret: bool = False,
    written_clean: Callable[[Word], bool] = lambda word: False,
    place_text: Callable[[Word], str | None] | None = None,
    own_run: Callable[[str], bool] = lambda text: False,
    author_texts: Callable[[str, int], Sequence[str] | None] = lambda name, at: None,
) -> bool:
    """Check the caller data given to `program` (a literal basename) with the
    words after it `words`, its standard input `stdin` and the variables
    `env` assigned for it; append the findings to `hazards`. Returns whether
    nothing was refused. `locate` turns a byte offset into a place.
    `writable_cwd`: the script works in a folder a step may have written,
    whose files a program without a grammar would read unseen. `source`:
    a word's script text (a program text with an `enum` or a number in it
    is still read for the language's ways to run code); `stdin_text`: the
    literal here-document on the command's standard input, if any.
    `beside_secret`: the command gets a secret (`mcp_harbor.check._secrets`),
    so caller data may stand only where the grammar says data, numbers
    included: a position that is code (``psql -p``, its connection string,
    a variable it reads) may say where the secret goes. `written_clean`: the
    file a word names surely holds the author's text (the script wrote it
    just before), though it is in a place steps may write; `place_text`: a
    word's text with the variables it holds resolved where they can be;
    `own_run`: a path (as `place_text` gives it) names a file of the run
    directory that only the author's text fills (`own_run_path`, when no
    step may put caller data there)."""
    if stdin is not None and _inert(stdin, beside_secret):
        stdin = None
    env = [e for e in env if not _inert(e.occ, beside_secret)]

    def code_inert(word: Word) -> bool:
        return _code_inert(word, beside_secret)

    def literal_view(word: Word) -> str | None:
        """The program text `word` gives, when every caller value in it
        stands inside a quoted literal of the language that no value can
        end (`mcp_harbor.check._literals`); else None."""
        raw = source(word) if word.end > word.start and not beside_secret else None
        if raw is None:
            return None
        # the author's values too (an enum's word): each is read where it stands
        occs = {(o.start, o.end): o for o in (*word.occs, *given) if word.start <= o.start}
        inside = [o for (_, end), o in sorted(occs.items()) if end <= word.end]
        return _literals.quoted_program(key, raw.encode("utf-8"), word.start, inside, author_texts)

    def numbers(word: Word) -> bool:
        """Beside a secret, caller data that is inert but where it says
        where to connect (a number): inert in a program's text, which no
        number makes connect elsewhere, and no data given (it splits into
        nothing, turns no data into code)."""
        return beside_secret and all(_inert(o) for o in word.occs)

    def where(subject: Word | Occ) -> Located:
        if isinstance(subject, Word):
            if subject.where is not None:
                return subject.where
            return locate(subject.occs[0].start if subject.occs else subject.start)
        return locate(subject.start)

    name = normal_program(program)
    key, first = grammars.grammar_key(
        name, [w.static if w.static is not None else w.option_head for w in words]
    )
    mine = declared.get(program) or declared.get(name)
    grammar = grammars.GRAMMARS.get(key)
    language = grammar is None and (name in sinks.INTERPRETERS or name in sinks.SHELLS)
    if mine is not None and not language:
        grammar = _declared(mine) if grammar is None else _narrowed(grammar, _declared(mine))
    # a file the step wrote just before holds the author's text, but a
    # language's program there may read any other file (make's include,
    # awk's getline): only a program with a grammar and no program text
    trusted = grammar is not None and grammar.evaluates is None and not language

    literal = [w.static if w.static is not None else w.option_head for w in words]

    def _unless_written(k: int, word: Word, converted: Word) -> Word:
        # asked only of a place: whether the step wrote it just before; a
        # file read as a credential (mysql --defaults-extra-file) is no
        # program's code, whatever the program's language
        credential = reads_credential_file(name, literal, k)
        return (
            word
            if converted is not word and (trusted or credential) and written_clean(word)
            else converted
        )

    # sqlite3 -safe: its database is data (the functions that run commands
    # are off; sqlite3 3.40 CLI, "--safe"); the analysis reads it otherwise
    safe_sqlite = normal_program(program) == "sqlite3" and any(w.static == "-safe" for w in words)
    if program not in _SHELL_OWN and not safe_sqlite:
        words = [
            _unless_written(k, w, _place_as_callers(w, place_text or source, own_run))
            for k, w in enumerate(words)
        ]
    given = [o for w in words for o in w.occs]  # before the inert ones are dropped
    words = [_callers(w, beside_secret) for w in words]
    if writable_cwd and _works_elsewhere(words, writable):
        writable_cwd = False  # git -C /srv/repo, make -C /srv/app: not the working folder
    if grammar is None and writable_cwd and program not in _SHELL_OWN:
        hazards.append(
            NoGrammarPosition.hazard(
                None,
                where(words[0]) if words else locate(0),
                f"`{program}` runs in a folder a step may have written (a step puts caller "
                "data in the working folder, or the script changes into a folder it cannot "
                "show to be out of every step's reach), so the files it reads there (a "
                "Makefile, a config) may be the caller's, and no grammar says what it does "
                "with them",
                "run it from a folder no step writes, keep caller files in $HARBOR_RUN_DIR, "
                "or describe the program under programs:",
            )
        )
        return False
    if (
        grammar is not None
        and grammar.reads_cwd_code
        and (writable_cwd or _elsewhere_writable(words, writable))
        and not (key == "python3" and _python_isolated(words))
    ):
        hazards.append(
            NoGrammarPosition.hazard(
                None,
                where(words[0]) if words else locate(0),
                f"`{key}` reads code from the folder it works in (its config, hooks or "
                "modules), and that folder may have been written by a step",
                "run it from a folder no step writes (the export's own), on copies of what "
                "it needs; keep the files made from caller data in $HARBOR_RUN_DIR"
                + (
                    "; or run python3 -I, which puts no folder of its own on sys.path"
                    if key == "python3"
                    else ""
                ),
            )
        )
        # and what it does with its caller data, each finding of its own
        admit(
            program,
            words,
            stdin,
            env,
            declared,
            locate,
            hazards,
            source=source,
            stdin_text=stdin_text,
            writable=lambda word: False,
            beside_secret=beside_secret,
            own_run=own_run,
        )
        return False
    if (
        not any(w.tainted for w in words)
        and stdin is None
        and not env
        and not (
            grammar is not None
            and grammar.evaluates is not None
            and any(_step_file(w, source) for w in words[1:])
        )
    ):
        return True
    if not _globals_admitted(name, words[:first], hazards, where, beside_secret):
        return False
    if grammar is None:
        return _refuse_all(
            program if key == name else key, words, stdin, env, hazards, where, language
        )
    ok = True

    def refuse(
        word: Word | Occ, detail: str, fix: str, rule: type[Rule] = NoGrammarPosition
    ) -> None:
        nonlocal ok
        ok = False
        hazards.append(rule.about(word, where(word), _worded(detail, word), fix))

    # git --config-env=KEY=VAR: VAR's value is the setting KEY (git(1))
    settings = {
        m.group(2): m.group(1)
        for w in words
        if name == "git" and w.static is not None
        for m in [re.match(r"--config-env=([^=]+)=(\w+)$", w.static)]
        if m is not None
    }
    for passed in env:
        if passed.name in settings and not _inert_setting(f"{settings[passed.name]}="):
            refuse(
                passed.occ,
                f"`--config-env` makes the variable {passed.name} the setting "
                f"`{settings[passed.name]}` of `{key}`, and many settings are commands it runs "
                "later (core.fsmonitor, core.sshCommand, alias.*)",
                "pass only the author's values to that setting, or drop --config-env",
                CodeSelectingVariable,
            )
            continue
        if not _reads_as_data(grammar, name, passed.name):
            refuse(
                passed.occ,
                f"caller data is passed to `{key}` in the variable {passed.name}, which its "
                f"grammar ({grammar.source}) does not list as read as data",
                f"pass the value as an operand of `{key}`, or name a variable it reads as data",
            )
    seen_program = not (grammar.script_operand or grammar.program_options)
    ended = False
    stdin_code = False  # an option or the program operand reads stdin as code
    script_file: str | None = None  # the program file an interpreter runs
    program_text: str | None = None  # the program text an interpreter runs
    #: operands that may be NAME=VALUE, assigning a variable of the program
    assigning: list[Word] = []
    # caller data reached it as data
    given_data = any(not _inert(e.occ) for e in env) or (stdin is not None and not _inert(stdin))
    operand = -1  # the index of the current operand among the operands
    expect: str | None = None
    pair = 0
    unknown: str | None = None  # an option before the program the grammar does not know
    # an option makes the program open its operands with a magic open; a perl
    # script (``*.pl``) may loop over ``<>`` whatever a programs: entry says
    # of its operands (perlop(1), I/O Operators: the 2-argument open)
    opening = program.rsplit("/", 1)[-1].endswith((".pl", ".pm", ".t"))
    opened: list[Word] = []  # the operands with caller data
    from_file = False  # an option gave the program as a file (sed -f)
    step_data = False  # an operand names a file a step may have filled
    inline = False  # an option gave the program (-c, -e)
    #: the program's text from its operands (`Grammar.program_from`), one
    #: per operand (None: not literal)
    parts: list[str | None] = []
    for word in words[first:]:
        text = word.static
        if (
            word.tainted
            and word.splits
            and not numbers(word)
            and (expect is not None or pair or grammar.command_from is not None)
            and not (
                # ausearch --start $when (a date and a time): the words after
                # the first are operands, data, and none can be an option
                seen_program
                and not pair
                and grammar.command_from is None
                and grammar.operands == "data"
                and all(not o.model.chars & _SPLIT_UNSAFE for o in word.occs)
            )
        ):
            # the words after the first land where the grammar reads the next
            # option, the program or the command, not where this word is
            refuse(
                word,
                "an unquoted expansion can split into several words here, and the words "
                f"after the first land where `{key}` reads its options, program or command",
                'quote the expansion: "$ARG"',
                OptionRunsCode,
            )
            expect = None
            pair = 0
            continue
        if (
            word.tainted
            and word.splits
            and not ended
            and not grammar.dash_inert
            and not numbers(word)
            and any("-" in o.model.chars for o in word.occs)
        ):
            # --exclude=$v, $v as an operand: a word after the first may
            # start with - wherever this one stands (an option of its own)
            refuse(
                word,
                "an unquoted expansion can split into several words here, and a word after "
                f"the first may start with `-`: an option of `{key}`",
                "put the expansion in double quotes, or after `--`",
                OptionRunsCode,
            )
            continue
        if (
            word.tainted
            and grammar.plus_options
            and expect is None
            and not pair
            and _may_name_file(word, ("+",))
        ):
            refuse(
                word,
                f"a word that starts with `+` is an option of `{key}` (`+short`), and this "
                "value may start so",
                "give the arg a pattern or enum whose values cannot start with `+`, or write "
                "the author's text before it",
                OptionRunsCode,
            )
            continue
        if word.tainted and grammar.file_prefixes and _may_name_file(word, grammar.file_prefixes):
            refuse(
                word,
                f"`{key}` reads a value that starts with {_prefixes_named(grammar)} from "
                f"the file or URL it names ({grammar.source}), and this value may start so",
                "write the author's literal text first in the word (`name=$VALUE`, "
                "`s3://bucket/$VALUE`), or give the arg a pattern or enum whose values "
                "cannot start so",
            )
            if expect is not None or pair:
                expect = None
                pair = max(pair - 1, 0)
            continue
        if expect is not None:
            if text in _STDIN and (
                expect in grammar.code_options or expect in grammar.program_options
            ):
                stdin_code = True  # -f -, -K -: commands from standard input
            if (
                word.tainted
                and expect in grammar.at_files
                and (
                    (not word.prefix and any("@" in o.model.first for o in word.occs))
                    # "@$ARG_x": the author's @, the caller's file name
                    or (
                        word.prefix.startswith("@")
                        and not all(
                            o.model.within is not None or is_attachment_path(o.model)
                            for o in word.occs
                        )
                        and not _places_only(word)
                    )
                )
            ):
                refuse(
                    word,
                    f"the value of `{expect}` may start with `@`, which makes `{key}` read the "
                    "file it names, and the caller chooses that file",
                    f'write a literal prefix before the value (`{expect} "name=$VALUE"`), '
                    "refuse a leading `@` in the arg's pattern, or keep a file name inside the "
                    "author's folder with `within:`",
                )
            elif (
                word.tainted
                and expect in _NAMED_VALUES.get(name, ())
                and not _NAME_ASSIGNED.match(word.prefix)
            ):
                refuse(
                    word,
                    f"the caller's data is in the name of the variable `{expect}` sets, not "
                    "only in its value",
                    f'write the name yourself: `{expect} name="$ARG_x"`',
                    OptionRunsCode,
                )
            elif (
                word.tainted
                and expect in grammar.program_options
                and not _code_inert(word)
                and literal_view(word) is None
            ):
                refuse(
                    word,
                    f"the value of `{expect}` is the program `{key}` runs",
                    "keep the program literal and pass the value as an argument after it",
                    InterpreterProgram,
                )
            elif (
                word.tainted
                and expect in grammar.code_options
                and not code_inert(word)
                and not (expect in grammar.place_options and _places_only(word))
                and not (expect in grammar.form_options and _form_text(word))
            ):
                refuse(
                    word,
                    f"the value of `{expect}` is code, a command or a file `{key}` reads as "
                    f"code ({grammar.source})",
                    "do not pass caller data to this option",
                    OptionRunsCode,
                )
            if expect in grammar.program_options:
                inline = True
                quoted = literal_view(word) if word.tainted else None
                program_text = text if text is not None else quoted or source(word)
                given_data = given_data or quoted is not None
            elif word.tainted and not numbers(word):
                given_data = True
            if expect in grammar.program_options or expect in _PROGRAM_FILES:
                seen_program = True
                if name == "python3":
                    ended = True  # python3 -c CMD: every later word is sys.argv
            expect = None
            continue
        if pair:
            pair -= 1
            given_data = given_data or (word.tainted and not numbers(word))
            continue
        if not word.tainted:
            if text is None and grammar.program_from is not None and seen_program:
                operand += 1
                if operand >= grammar.program_from:
                    parts.append(None)  # sqlite3 db "$sql": a text the analysis does not know
                continue
            if text is None:
                if not seen_program and grammar.evaluates is not None:
                    program_text = source(word)
                elif seen_program and _step_file(word, source):
                    # awk '…' "$HARBOR_RUN_DIR/n.txt": a file a step may have
                    # filled with caller data, read as the program's data
                    step_data = True
                seen_program = True
                continue
            if (
                not ended
                and grammar.end_of_options
                and (text == "--" or (text == "--end-of-options" and key.startswith("git ")))
            ):
                ended = True
                if grammar.command_after_dashdash:
                    operand = -1_000  # every later word is the command
                continue
            if not ended and text.startswith("-") and text != "-":
                option = text.split("=", 1)[0]
                if grammar.program_from is not None and option in grammar.code_options:
                    from_file = True  # sqlite3 -cmd, -init: commands of their own first
                if option in _PROGRAM_FILE_OPTIONS.get(key, ()):
                    # sed -f FILE, awk -f FILE: the program is that file's,
                    # not the first operand's
                    seen_program = True
                    from_file = True
                if "=" in text:
                    continue
                if unknown is None and not seen_program and not _known_option(grammar, option):
                    unknown = option
                if not seen_program and not option.startswith("--"):
                    opening = opening or any(
                        f"-{letter}" in grammar.magic_open_options for letter in option[1:]
                    )
                if option in grammar.pair_options:
                    pair = 2
                elif (
                    option in grammar.value_options
                    or option in grammar.code_options
                    or option in grammar.program_options
                ):
                    expect = option
                elif not option.startswith("--") and len(option) > 2:
                    # a cluster (-xf, -pe): a letter whose value is code
                    # makes the next word code, whatever getopt would do (node
                    # reads -pe as -p -e); else the first letter that takes a
                    # value takes the rest of the word, or the next word
                    letters = [f"-{letter}" for letter in option[1:]]
                    code = [
                        short
                        for short in letters
                        if short in grammar.program_options or short in grammar.code_options
                    ]
                    if code:
                        expect = code[0]
                    else:
                        for at, short in enumerate(letters, start=2):
                            if short in grammar.value_options:
                                if at == len(option):
                                    expect = short
                                break
                continue
            if not seen_program:
                seen_program = True
                if text in _STDIN:
                    stdin_code = True  # python3 -: the program is standard input
                    program_text = stdin_text
                elif grammar.script_is_file:
                    script_file = text
                else:
                    program_text = text
                if name == "python3":
                    ended = True
            else:
                operand += 1
                step_data = step_data or _step_file(word, source)
                if grammar.program_from is not None and operand >= grammar.program_from:
                    parts.append(text)
            continue
        # a word with caller data in it
        prefix = word.prefix
        if unknown is not None:
            refuse(
                word,
                f"`{key}`'s grammar ({grammar.source}) does not know the option `{unknown}`, "
                "which may take the next word as its value: where this word lands (an "
                "option's value, the program, an argument) is unknown",
                f"drop `{unknown}`, or describe `{key}` under programs:",
            )
            continue
        if not ended and prefix.startswith("-"):
            if grammar.dash_inert and not beside_secret:
                continue  # echo "--time $t is over": its options only change the print
            if not beside_secret and _numbers_after_no_option(word):
                continue  # echo "--- $((a - b)) removed"
            if _NO_OPTION_NAME.match(prefix) and "\0" not in prefix:
                continue  # echo "--- values: $r": no option's name starts so
            for alternative in prefix.split("\0"):  # an enum of options: every one
                option = alternative.split("=", 1)[0]
                if "=" in alternative and option in grammar.place_options and _places_only(word):
                    continue  # -out="$HARBOR_RUN_DIR/plan": the author's place, written
                if "=" in alternative and option in grammar.value_options:
                    if option in _NAMED_VALUES.get(name, ()) and not _NAME_ASSIGNED.match(
                        alternative.split("=", 1)[1]
                    ):
                        refuse(
                            word,
                            f"the caller's data is in the name of the variable `{option}` "
                            "sets, not only in its value",
                            f'write the name yourself: `{option}=name="$ARG_x"`',
                            OptionRunsCode,
                        )
                        break
                    continue
                if option[:2] in grammar.value_options and not option.startswith("--"):
                    continue  # -n5: attached to a one-letter option
                refuse(
                    word,
                    f"caller data is part of the option `{option}`, which `{key}`'s grammar "
                    f"({grammar.source}) does not list as taking data",
                    f"pass the value to an option `{key}` reads as data, or as an operand "
                    "after `--`",
                )
                break
            continue
        if script_file is not None:
            own = declared.get(script_file) or declared.get(script_file.rsplit("/", 1)[-1])
            if own is None or not own.data_operands:
                refuse(
                    word,
                    f"caller data reaches `{script_file}`, a program of its own run by "
                    f"`{key}`, and no grammar says what it does with it",
                    _advice(script_file.rsplit("/", 1)[-1], "its operands"),
                )
                continue
        if not seen_program:
            if not _code_inert(word):
                refuse(
                    word,
                    f"the value is the program (script, filter or expression) that `{key}` runs",
                    "keep the program literal and pass the value as data (an argument "
                    "after it, `jq --arg`, `awk -v`)",
                    InterpreterProgram,
                )
            elif grammar.evaluates is not None:
                program_text = source(word)  # sed -n "{{ args.n }}p": read with its number
            seen_program = True
            continue
        operand += 1
        if grammar.program_from is not None and operand >= grammar.program_from:
            # sqlite3 db "select … where code = '$ARG_code'": its program
            quoted = literal_view(word)
            if quoted is None and not code_inert(word):
                refuse(
                    word,
                    f"the value is part of the program `{key}` runs, outside its quoted "
                    "literals (or in one its characters may end)",
                    "put the value inside a quoted literal of the program ('…') and give the "
                    "arg a pattern without quotes, backslashes or newlines, or pass only the "
                    "author's values (an enum arg)",
                    InterpreterProgram,
                )
                continue
            given_data = given_data or not numbers(word)
            parts.append(quoted if quoted is not None else source(word))
            continue
        if (
            operand < 0 or (grammar.command_from is not None and operand >= grammar.command_from)
        ) and not code_inert(word):
            refuse(
                word,
                f"the value is part of the command `{key}` runs",
                "keep the command literal; pass the value as one of its data arguments",
            )
            continue
        if grammar.operands == "path-code" and not all(
            o.model.within is not None and not word.prefix for o in word.occs
        ):
            refuse(
                word,
                f"`{key}` runs the files its operands name ({grammar.source}), and the caller "
                "chooses this one",
                "keep the path inside the author's folder with `within:` on the arg, or pass "
                "only the author's values (an enum arg)",
            )
            continue
        if grammar.operands == "code" and not code_inert(word):
            refuse(
                word,
                f"`{key}`'s operands may be code or commands ({grammar.source})",
                _advice(program, "its operands"),
            )
            continue
        if (
            beside_secret
            and grammar.url_operands == "scheme"
            and any(":" in o.model.chars for o in word.occs)
            and not _AUTHORS_HOST.match(prefix)
            # orgs/acme/teams/$t: a scheme is letters, digits, + - . before
            # the first `:` (RFC 3986, Go's url.Parse): after a `/` none starts
            and not _NOT_SCHEME.search(prefix.split(":", 1)[0])
        ):
            refuse(
                word,
                f"an operand of `{key}` with a scheme is a URL, whose host gets the secret "
                f"({grammar.source}), and the caller's value may be one",
                "refuse `:` in the arg's pattern (a number or a name is no URL), or write "
                'the scheme and host yourself: "https://host/…/$ARG_x"',
            )
            continue
        if (
            grammar.assigning_operands
            and not _NOT_A_NAME.match(prefix)
            # a name starts with a letter or _: a value that cannot is none
            and (bool(prefix) or bool(word.occs[0].model.first & _NAME_START))
            # a path within: a subfolder resolves there only with a / in it
            and not (not prefix and all(_within_subfolder(o.model.within) for o in word.occs))
            and any("=" in o.model.chars for o in word.occs)
        ):
            # judged once the program is known: it may run the variable
            assigning.append(word)
            continue
        given_data = given_data or not numbers(word)
        opened.append(word)
        first_words = word.occs[0].model.words if word.occs else None
        # a pattern's literal start (^https://(www|docs)\.example\.com/…)
        heads = word.occs[0].model.heads if word.occs else None
        if (
            grammar.url_operands == "all"
            and not numbers(word)  # no scheme; beside a secret, the host is judged there
            and not prefix.startswith(_AUTHOR_SCHEMES)
            and "/" not in prefix
            and not (
                not prefix
                and first_words is not None
                and all(w.startswith(_AUTHOR_SCHEMES) for w in first_words)
            )
            and not (
                not prefix
                and heads is not None
                and all(h.startswith(_AUTHOR_SCHEMES) for h in heads)
            )
        ):
            # the scheme is what stands before the first `/`: the author's
            # text, an enum of the author's URLs, or the value of a variable
            # the author set (the operator's "$API_URL/v1/$ARG_x"), never
            # the caller's
            refuse(
                word,
                f"the caller chooses the whole URL `{key}` fetches, scheme included "
                "(file:// reads local files)",
                'write the scheme and host yourself: "https://host/path/$ARG_x"',
            )
            continue
        if not ended and word.may_be_option:
            if name == "echo" and word.splits:
                # a split puts "-" at the front of a word whatever the
                # validator kept off the value's: echo -e then decodes the
                # caller's escapes (NUL too)
                refuse(
                    word,
                    "an unquoted expansion splits into words, and a word after a blank may "
                    "start with `-`: echo reads it as its option (`-e` decodes escapes the "
                    "caller wrote, a NUL among them)",
                    'quote the expansion: "$ARG"',
                    OptionRunsCode,
                )
                continue
            if name == "echo":
                echoed = OptionInjection.detect(name, word, where(word))
                if echoed is not None:
                    hazards.append(echoed)  # a warning: echo only prints
                continue
            if grammar.dash_inert or any(
                h.rule == OptionRunsCode.id and h.where == where(word) for h in hazards
            ):
                continue
            known = sinks.Grammar(grammar.value_options, grammar.end_of_options)
            found = OptionRunsCode.detect(key, None, word, known, where(word))
            if found is not None:
                hazards.append(found)
                ok = False
    if grammar.program_from is not None and parts:
        program_text = None if None in parts else "\n".join(p for p in parts if p is not None)
    if step_data and (program_text is not None or from_file):
        # (a program text given here, or sed -f's: python3 -m's module is
        # judged by the module's own grammar)
        given_data = True
    if from_file:
        program_text = None  # a file's program: not the author's literal here
    if program_text is None and grammar.stdin == "code" and stdin is None and not inline:
        program_text = stdin_text  # psql <<'SQL': the program is the literal here-document
    evaluates = grammar.evaluates
    reader = _PROGRAM_READERS.get(key)
    why = (
        None
        if not (ok and given_data and evaluates is not None)
        else "it is not literal"
        if program_text is None
        else reader(program_text)
        if reader is not None
        else _runs_code(evaluates, program_text)
    )
    lookup = grammar.env_lookup
    if why is None and ok and given_data and program_text is not None and key == "python3":
        computed = _python.environment_lookup(program_text)
        if computed is not None:
            why = (
                f"it reads its environment by a name it computes ({computed}), which its data "
                "may choose: a credential the server passes is among them"
            )
    if why is None and ok and given_data and program_text is not None and lookup is not None:
        named = re.search(lookup, program_text)
        if named is not None:
            # awk -v k="$ARG" 'BEGIN { print ENVIRON[k] }': any variable of
            # the step's environment, a passed credential or a secret
            why = (
                f"it reads its environment by a name it computes (`{named.group(0).strip()}`), "
                "which its data may choose: a credential the server passes is among them"
            )
    program_code = (
        grammars.awk_code(program_text)
        if key == "awk" and program_text is not None
        else grammars.sql_code(program_text)
        if key == "psql" and program_text is not None
        else program_text
    )
    runs_variables = (
        program_code is None
        or evaluates is None
        or re.search(evaluates, program_code, re.M) is not None
        # print > out: a variable may name the file it writes
        or (grammar.writes is not None and re.search(grammar.writes, program_code, re.M))
    )
    for word in assigning if runs_variables else ():
        refuse(
            word,
            f"an operand of `{key}` of the shape NAME=VALUE assigns one of its program's "
            "variables (the program may run it), and the value may have that shape",
            'put a path prefix before the value (`./"$VALUE"`), or refuse `=` in its pattern',
        )
    if why is not None:
        subject: Word | Occ = (
            next((w for w in words if w.tainted), None)
            or stdin
            or (env[0].occ if env else None)
            or next((w for w in words[1:] if writable(w)), words[0])
        )
        refuse(
            subject,
            f"`{key}`'s program may turn its data into code ({why}), and caller data reaches "
            "it as data",
            "keep the program from running its data (no eval, system, pipes to commands, "
            "loaders that build objects or templates), or pass only the author's values "
            "(an enum arg)",
            InterpreterProgram,
        )
    magic = grammar.magic_open
    if ok and (opening or (magic and program_text and re.search(magic, program_text, re.M))):
        for word in opened:
            if any(set("|<>") & o.model.chars for o in word.occs):
                refuse(
                    word,
                    f"`{key}` opens its operands with a 2-argument open (its `<>` loop), "
                    "which runs a command for a name ending in `|` and writes a file for "
                    "one starting with `>`, and the value may hold them",
                    "refuse `|`, `<` and `>` in the arg's pattern, or open the file "
                    "yourself with a 3-argument open (`<<>>` in perl 5.22+)",
                    InterpreterProgram,
                )
                break
    named_by_data = stdin or next((w for w in words if w.tainted), None)
    if grammar.names_env_in_data and operand < 0 and named_by_data is not None:
        refuse(
            named_by_data,
            f"`{key}` with no operand replaces every `$NAME` of its input by that "
            "variable's value, and the caller writes the input: a credential the server "
            "passes is among the variables",
            f"name the variables `{key}` may replace in a literal operand "
            "(`envsubst '$GREETING $SITE'`)",
            InterpreterProgram,
        )
    if stdin is not None and (grammar.stdin == "code" or not seen_program or stdin_code):
        refuse(
            stdin,
            f"caller data reaches the standard input of `{key}`, which reads it as code "
            "or commands",
            _advice(program, "its standard input"),
            InterpreterProgram
            if grammar.script_operand or grammar.program_options
            else NoGrammarPosition,
        )
    return ok


#: What of a language's program text runs, for its grammar's patterns:
#: awk's without its string and regex literals, psql's without its quoted
#: literals, sed's read command by command.
_CODE_VIEWS: dict[str, Callable[[str], str]] = {
    "awk": grammars.awk_code,
    "psql": grammars.sql_code,
    "mysql": grammars.sql_code,
    "sqlite3": grammars.sql_code,
    "sed": grammars.sed_code,
}


def _runs_in_view(key: str) -> Callable[[str], str | None]:
    """`_PROGRAM_READERS`' reader for the language `key`: its grammar's ways
    to run code, searched in the view of its program that runs
    (`_CODE_VIEWS`)."""
    view = _CODE_VIEWS[key]

    def runs(text: str) -> str | None:
        evaluates = grammars.GRAMMARS[key].evaluates
        assert evaluates is not None
        return _runs_code(evaluates, view(text))

    return runs


#: The languages whose programs are read other than by their grammar's
#: patterns on the text as written: Python with its own parser against an
#: allowlist (`mcp_harbor.check._python`), the others in their code view.
_PROGRAM_READERS: dict[str, Callable[[str], str | None]] = {
    "python3": _python.runs_data,
    **{key: _runs_in_view(key) for key in _CODE_VIEWS},
}
#: Options whose value is ``NAME=VALUE``: the name must be the author's.
_NAMED_VALUES: dict[str, frozenset[str]] = {
    "psql": frozenset({"-v", "--variable", "--set"}),
}
_NAME_ASSIGNED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _known_option(grammar: grammars.Grammar, option: str) -> bool:
    """Whether `grammar` knows what `option` (or, in a cluster such as
    ``-lane``, each of its letters up to one that takes a value) does with
    the next word. A grammar without a complete list of flags knows them all."""
    if grammar.flags is None:
        return True
    known = (
        grammar.flags
        | grammar.value_options
        | grammar.code_options
        | grammar.program_options
        | grammar.pair_options
    )
    if option in known or option.startswith("--"):
        return option in known
    for letter in option[1:]:
        if not letter.isalpha():
            return True  # the letter before takes the rest (perl -i.bak, -0777)
        short = f"-{letter}"
        if short not in known:
            return False
        if short not in grammar.flags:
            return True  # it takes the rest of the word (or the next word)
    return True


def _step_file(word: Word, source: Callable[[Word], str | None]) -> bool:
    """The operand `word` names, as written, a file in the run directory or
    a temporary folder (``"$HARBOR_RUN_DIR/n.txt"``, ``/tmp/x``), which a
    step may have filled with caller data: what a program reads from it is
    the caller's. (A path of the working folder is judged by the folder's
    own rule.)"""
    if word.tainted:
        return False
    text = word.static if word.static is not None else source(word)
    return text is not None and _STEP_FILE.match(text) is not None


#: A path, as written, in the run directory or a temporary folder.
_STEP_FILE = re.compile(r"""["']?(?:\$\{?(?:HARBOR_RUN_DIR|TMPDIR)\b|/tmp/|/var/tmp/|/dev/shm/)""")
#: The options that give a language its program as a file (GNU sed 4.9,
#: gawk 5).
_PROGRAM_FILE_OPTIONS: dict[str, frozenset[str]] = {
    "sed": frozenset({"-f", "--file"}),
    "awk": frozenset({"-f", "--file"}),
}


def _prefixes_named(grammar: grammars.Grammar) -> str:
    """The prefixes of `grammar` (`Grammar.file_prefixes`) for a message:
    all of a short list, else the first few and how many more."""
    named = [f"`{p}`" for p in grammar.file_prefixes]
    if len(named) <= 4:
        return ", ".join(named)
    return f"{', '.join(named[:4])} or one of {len(named) - 4} more"


def _may_name_file(word: Word, prefixes: Sequence[str]) -> bool:
    """The value `word` (an operand, or an option's value, ``--opt=`` put
    aside) may start with one of `prefixes`, in any letter case: from the
    author's text before the caller's, then what the caller's part may
    start with (the literal starts of its pattern, else its first
    characters; anything when it may be empty)."""
    head = word.prefix
    if head.startswith("-") and "=" in head:
        head = head.split("=", 1)[1]
    head = head.lower()
    # an expansion inside a substitution of the word reaches it only
    # through what that prints (the substitution's own model)
    outer = [
        o
        for o in word.occs
        if not any(p is not o and p.start <= o.start and o.end <= p.end for p in word.occs)
    ]
    model = outer[0].model
    if model.can_be_empty and (model.heads is None or len(outer) > 1):
        starts: Collection[str] | None = None  # what comes after it may spell one
    elif model.heads is not None:
        starts = {h.lower() for h in model.heads}
    else:
        starts = {c.lower() for c in model.first}
    for prefix in prefixes:
        if head.startswith(prefix):
            return True
        if not prefix.startswith(head):
            continue
        rest = prefix[len(head) :]
        if not set(rest) <= {c.lower() for c in model.chars}:
            continue  # the caller's part cannot spell it (no `:` in its pattern)
        if starts is None or any(rest.startswith(s) or s.startswith(rest) for s in starts if s):
            return True
    return False


def _globals_admitted(
    program: str,
    words: Sequence[Word],
    hazards: list[Hazard],
    where: Callable[[Word | Occ], Located],
    beside_secret: bool = False,
) -> bool:
    """The caller data among `words`, the global options of `program`
    before its subcommand, is only where `grammars.SUBCOMMANDS` says data
    (appending a finding for each place it is not)."""
    kinds = grammars.SUBCOMMANDS.get(program, {})
    ok = True
    for k, word in enumerate(words):
        if not word.tainted:
            continue
        before = (words[k - 1].static or "") if k else ""
        if before in kinds and "=" not in before:
            option, setting = before, word.prefix  # -c "user.name=$VALUE"
        elif not word.prefix.startswith("--") and word.prefix[:2] in kinds:
            option, setting = word.prefix[:2], word.prefix[2:]  # -cuser.name=$VALUE
        else:
            option, _, setting = word.prefix.partition("=")  # --config-env=…
        kind = kinds.get(option, "none")
        if kind == "data" and not word.splits:
            continue
        if kind == "setting" and _inert_setting(setting):
            continue
        if (
            kind in ("path-code", "path-written")
            and all(o.model.within is not None for o in word.occs)
            and not word.prefix[len(option) :].strip("=")
        ):
            continue
        if kind == "path-written" and _places_only(word):
            continue  # restic --cache-dir "$HARBOR_RUN_DIR/cache": it verifies what it reads
        if _code_inert(word, beside_secret):
            continue
        ok = False
        rule: type[Rule] = CodeSelectingVariable if kind == "setting" else NoGrammarPosition
        what = {
            "setting": "a setting, and many settings are commands it runs later "
            "(core.fsmonitor, core.sshCommand, alias.*)",
            "path-code": "a folder or file whose contents configure what it runs (hooks, "
            "config, credential plugins)",
            "path-written": "a folder it writes, chosen by the caller",
            "code": "where it connects, which chooses what runs or where the credentials go",
            "data": "data, but the unquoted value may split into several words",
        }.get(kind, "a global option the grammar does not know")
        hazards.append(
            rule.about(
                word,
                where(word),
                _worded(f"the value of `{program} {option or '…'}` is {what}", word),
                "set that option in the script with the author's value (an enum arg, or "
                '`-c user.name="$VALUE"` for a data setting)'
                if kind == "setting"
                else "pass only the author's values there (an enum arg)",
            )
        )
    return ok


def _inert_setting(prefix: str) -> bool:
    """`prefix` (the word before the caller data) is ``-cKEY=`` or ``KEY=``
    for a git setting whose value is data."""
    key, eq, rest = prefix.removeprefix("-c").partition("=")
    return bool(eq) and not rest and key.lower() in grammars.INERT_GIT_SETTINGS


def _refuse_all(
    program: str,
    words: Sequence[Word],
    stdin: Occ | None,
    env: Sequence[EnvPrefix],
    hazards: list[Hazard],
    where: Callable[[Word | Occ], Located],
    language: bool = False,
) -> bool:
    """Refuse the first caller data given to `program`, which has no
    grammar; a `language` (an interpreter or a shell) has none that a
    ``programs:`` entry could give it: what it reads may be a program."""
    tainted = [w for w in words if w.tainted]
    subject: Word | Occ
    if tainted:
        subject, what = tainted[0], "an argument"
    elif stdin is not None:
        subject, what = stdin, "its standard input"
    else:
        subject, what = env[0].occ, f"the variable {env[0].name}"
    hazards.append(
        NoGrammarPosition.about(
            subject,
            where(subject),
            _worded(
                f"caller data reaches `{program}` as {what}; `{program}` is a language, "
                "whose arguments and input may be programs, and a programs: entry cannot "
                "make them data"
                if language
                else f"caller data reaches `{program}` as {what}, and no grammar says what "
                f"`{program}` does with it (a program without one gets only clean data)",
                subject,
            ),
            _advice((program.split() or [program])[0], what),
        )
    )
    return False
