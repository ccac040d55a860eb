"""Where an export's ``secrets:`` values go in one ``run:`` script.

A secret reaches a step as an environment variable (``API_TOKEN``). This
module finds every place its value is expanded, and that of every variable
assigned from it, to a fixpoint, by the taint analysis's own follower
(`mcp_harbor.check._taint.TaintedScript`, seeded with the secrets' names),
and asks of each where the value goes. It is printed, and the script is
refused (H010, `mcp_harbor.check.rules.h010.SecretPrinted`), when it reaches:

- a trace: ``set -x``/``-v`` (``-o xtrace``/``verbose``, ``shopt -o``),
  ``bash -x``, ``SHELLOPTS`` or ``BASH_XTRACEFD`` anywhere in a script of an
  export with secrets (a trace prints every expanded word);
- a dump: ``declare``/``typeset``/``export``/``local``/``readonly`` listing
  every variable, or ``-p`` naming the secret (or a name the checker cannot
  read); ``set`` without arguments; ``env``/``printenv`` listing the
  environment or naming the secret;
- ``echo``/``printf`` arguments whose standard output, through the
  pipeline and every enclosing redirection, ends on the step's stdout or
  stderr, in a step output (``$HARBOR_STEP_OUTPUT``, ``$HARBOR_OUTPUT``) or
  in a file outside the run directory;
- any other program that gets the value (an argument, its stdin, its
  environment for one command, a file the secret was written to), unless it
  takes it there as a credential (`mcp_harbor.check.credentials`), the
  secret's ``programs:`` name it, or nothing it prints is recorded; an
  ``export`` of the secret; a destination whose host or port the caller chooses.

What stays accepted beyond those credential places: the value captured by
``$(…)`` (the variable it is assigned to is followed; the answer of a
program it was a credential of is not the value), and written to
``/dev/null`` or a file of the run directory (which the scrubber cleans).

Guarantees: pure (a function of the script text and the secrets' names);
over-approximates where the value goes (taint only grows: a variable
``read`` assigns in such a script, or a function's ``$1`` when it is called
with the secret, counts as carrying it; but what ``read`` takes from a file
when no file can hold a secret: no step writes one to a file, and no
program that is no credential place of it prints where nothing is
recorded), so it may refuse a script that does not print the secret,
never the other way round for the sinks above.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import partial

from tree_sitter import Node

from mcp_harbor.check._facts import (
    Hazard,
    Located,
    Occ,
    Sentinels,
    Taint,
    any_model,
    is_attachment_path,
)
from mcp_harbor.check._taint import (
    LINK_MAKERS,
    TaintedScript,
    initial_taint,
    makes_links,
    printf_escapes,
)
from mcp_harbor.check._tree import (
    IDENT,
    VARIABLE,
    ancestors,
    node_text,
    parsed,
    static_text,
    without_pairs,
)
from mcp_harbor.check._tree import walk as walk_nodes
from mcp_harbor.check._values import ValueModel
from mcp_harbor.check.credentials import (
    CONTENT_BLIND,
    CREDENTIALS,
    credential_stores,
    follows_redirects,
    reads_credential_file,
    store_places,
    takes_credential,
)
from mcp_harbor.check.grammars import GRAMMARS, Grammar, writes_no_file
from mcp_harbor.check.rules.h010 import SecretPrinted
from mcp_harbor.check.sinks import INTERPRETERS

__all__ = ["secret_hazards"]


_PRINTERS = frozenset({"echo", "printf"})
_SHELLS = frozenset({"bash", "sh", "dash", "ksh", "zsh"})
_DECLARATIONS = frozenset({"declare", "typeset", "export", "local", "readonly"})
_TRACE_VARIABLES = frozenset({"SHELLOPTS", "BASH_XTRACEFD"})
_PRINTED_FILES = frozenset(
    {"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1"}
)
#: How a script writes the home folder at the head of a path.
_HOME_SPELLINGS = ("~", "$HOME", "${HOME}")
#: Files of the run directory the caller gets back (`mcp_harbor.runner.rundir`).
_RETURNED = ("steps", "output.json", "context.json")


def secret_hazards(
    text: str,
    sentinels: Sentinels,
    secrets: Collection[str],
    files: set[str] | None = None,
    allowed: Mapping[str, Collection[str]] | None = None,
    models: Mapping[str, ValueModel] | None = None,
    environment: Collection[str] = (),
    commands: set[int] | None = None,
) -> list[Hazard]:
    """H010's findings in the ``run:`` script `text` (placeholders replaced
    by `sentinels`' words) of an export whose ``secrets:`` are `secrets`:
    each place where a secret's value is printed (see the module). `files`:
    the files any step of the export writes a secret to (their paths as
    written), read and extended here, so that a step reading one back is
    seen whichever step wrote it. `commands`: filled with where each
    command that gets a secret starts (its program word's byte offset in
    `text`), whose caller data the taint analysis then judges by the
    grammar alone (`mcp_harbor.check._positions.admit`, ``beside_secret``)."""
    if not secrets:
        return []
    script = parsed(text)
    if script.error is not None:
        return []  # the analysis proper reports it (H000)
    found, sinks = _follow(text, sentinels, secrets, files, allowed, models, environment, False)
    if sinks.secret_files - (files or set()):
        # the files this script writes a secret to, known now: a capture
        # that prints one holds the secret (x=$(cat "$HARBOR_RUN_DIR/t"))
        known = set(files or ()) | sinks.secret_files
        found, sinks = _follow(text, sentinels, secrets, known, allowed, models, environment, False)
    if found and not _DESCRIPTORS.search(text):
        # no file holds a secret but the ones known (`secret_files`): what
        # `read` takes from another file, or from a command that prints
        # none of those, is not one. Assumed, then shown: the pass that
        # assumes it puts a secret in no other file either (a secret reaches
        # a file first from elsewhere than a file, which both passes follow
        # alike)
        known = set(files or ()) | sinks.secret_files
        retried, again = _follow(
            text, sentinels, secrets, known, allowed, models, environment, True
        )
        if again.secret_files <= known and not again.filed and len(retried) < len(found):
            found, sinks = retried, again
    if files is not None:
        files |= sinks.secret_files
    if commands is not None:
        commands |= sinks.commands
    return found


#: Reads through a descriptor (``exec 7< "$f"`` … ``read < /dev/fd/7``,
#: ``read -u 7``, ``<&7``): which file a read takes from is not followed,
#: so the pass that reads files as clean does not hold.
_DESCRIPTORS = re.compile(
    r"\bexec\b[^\n]*[<>]|/dev/fd/|/proc/(?:self|\$\$|[0-9]+)/fd|/dev/stdin|<&|"
    r"\b(?:read|mapfile|readarray)\b[^\n;|&]*\s-[A-Za-z]*u"
)


def _follow(
    text: str,
    sentinels: Sentinels,
    secrets: Collection[str],
    files: set[str] | None,
    allowed: Mapping[str, Collection[str]] | None,
    models: Mapping[str, ValueModel] | None,
    environment: Collection[str],
    file_reads_clean: bool,
) -> tuple[list[Hazard], _Sinks]:
    """One pass of `secret_hazards` (`file_reads_clean`: what ``read``
    takes from a file carries no secret, which holds when no file does)."""
    script = parsed(text)
    taint = Taint({name: (name, any_model()) for name in secrets})
    follower = TaintedScript(text, None, taint, sentinels.locate, [])
    follower.unproven_is_data = False  # only the secrets are followed here
    follower.file_reads_clean = file_reads_clean
    follower.secret_file_paths = frozenset(files or ())
    follower.secret_programs = allowed or {}
    follower.find_caller_data(script)
    # where caller data is (what is not proven the author's: the taint
    # analysis's own rule, `models` and `environment` as it gets them), for
    # the places a secret must not meet it
    caller = TaintedScript(
        text, sentinels, initial_taint(text, models or {}, environment), sentinels.locate, []
    )
    caller.find_caller_data(script)
    sinks = _Sinks(follower, sentinels.locate, allowed or {})
    sinks.callers = [
        (o.start, o.end)
        for o in caller.occs
        if o.var not in secrets
        and o.arg not in secrets
        # an enum's values are the author's texts: hosts the author wrote
        and o.model.words is None
    ]
    # caller data that may hold a `/` (so `../`): a path it is in may name any file
    sinks.climbing = [(o.start, o.end) for o in climbing_occs(caller.occs, secrets)]
    # caller data each of whose values starts a URL's path, query or fragment
    sinks.path_starts = {
        o.start
        for o in caller.occs
        if o.model.first <= _PATH_STARTS
        and not o.model.can_be_empty  # empty, the next caller data would start the host
        and o.start not in caller.split_starts
    }
    if files is not None:
        sinks.secret_files |= files
    return sinks.run(), sinks


def climbing_occs(occs: Sequence[Occ], secrets: Collection[str]) -> list[Occ]:
    """The caller data among `occs` whose values may climb out of a folder:
    hold a ``/`` (``../x``), or be ``..`` itself (a ``.`` may come first)."""
    return [
        o
        for o in occs
        if o.var not in secrets
        and o.arg not in secrets
        and ("/" in o.model.chars or "." in o.model.first)
        # an attachment's path is the server's file of inputs/
        and not is_attachment_path(o.model)
    ]


class _Sinks:
    def __init__(
        self,
        follower: TaintedScript,
        locate: Callable[[int], Located],
        allowed: Mapping[str, Collection[str]],
    ) -> None:
        #: the programs each secret's ``programs:`` names
        self.allowed = allowed
        #: the byte ranges of caller data (`secret_hazards`)
        self.callers: list[tuple[int, int]] = []
        self.path_starts: set[int] = set()
        #: files a command holding caller data writes (their paths as written)
        self.caller_files: set[str] = set()
        self.f = follower
        self.src = follower.src
        self.locate = locate
        self.carriers = set(follower.taint.variables)
        self.hazards: list[Hazard] = []
        self.seen: set[int] = set()
        #: files a secret was written to (their path as written): reading one
        #: back with a program that prints what it reads prints the secret
        self.secret_files: set[str] = set()
        #: a program that is no credential place of the secret got it, and
        #: what it prints goes where nothing is recorded: maybe a file
        self.filed = False
        #: where each command that gets a secret starts (its program word)
        self.commands: set[int] = set()
        #: where caller data that may hold a ``/`` stands (`_climbs_to_secret`)
        self.climbing: list[tuple[int, int]] = []
        #: the script may put a link in the run directory (`makes_links`)
        self._links: bool | None = None
        #: the commands (their start) a secret reaches on standard input
        self._stdin_secret: set[int] = set()
        #: those whose writer also wrote an option that prints the request
        #: (a curl config's ``verbose``, ``trace``, ``write-out``)
        self.printing_files: set[str] = set()

    def run(self) -> list[Hazard]:
        assert self.f.script is not None
        for node in self.f.script.of_type("file_redirect"):
            holder = node.parent
            dest = node.child_by_field_name("destination")
            if (
                holder is not None
                and dest is not None
                and any(c.type in (">", ">>") for c in node.children)
                and self._node_holds_callers(holder)
            ):
                self.caller_files.add(node_text(self.src, dest).strip('"'))
        for node in self.f.script.nodes:
            if node.type == "command":
                self._trace_command(node)
                self._dump_command(node)
            elif node.type == "declaration_command":
                self._declaration(node)
            elif node.type == "variable_assignment":
                name = node.child_by_field_name("name")
                if name is not None and node_text(self.src, name) in _TRACE_VARIABLES:
                    self._add(node, SecretPrinted.trace(node_text(self.src, name), self._at(node)))
        for occ in self.f.occs:
            if occ.node is not None:
                self._value(occ.node, occ.var or occ.arg, occ.arg)
        self._process_list()

        if self.secret_files:
            for node in self.f.script.nodes:
                if node.type == "command":
                    self._reads_secret_file(node)
        return self.hazards

    def _as_path(self, node: Node) -> str:
        """The path a word names, quotes removed; a loop variable over a
        glob (``for f in "$HARBOR_RUN_DIR"/*.cfg``) stands for that glob."""
        text = node_text(self.src, node).replace('"', "")
        name = text.lstrip("$").strip("{}")
        glob = self._loop_globs().get(name) if text.startswith("$") else None
        return glob if glob is not None else text

    def _loop_globs(self) -> dict[str, str]:
        """Each ``for`` variable over one word with a glob: that word."""
        found: dict[str, str] = {}
        for loop in self.f.script.of_type("for_statement") if self.f.script is not None else ():
            variable = loop.child_by_field_name("variable")
            values = loop.children_by_field_name("value")
            if variable is None:
                continue
            for value in values:
                text = node_text(self.src, value).replace('"', "")
                if _GLOBBED.search(text):
                    found[node_text(self.src, variable)] = text
        return found

    def _process_list(self) -> None:
        """A secret among a command's arguments is in the process list while
        it runs: a command that lists processes with their arguments (``ps``,
        ``pgrep -a``, ``pstree -a``, ``top``) or reads a process's
        ``/proc/PID/cmdline`` or ``environ`` prints it, when the script runs
        both (a background ``&``, a pipeline, a later step cannot: its
        processes are gone)."""
        assert self.f.script is not None
        argv = [
            occ.node for occ in self.f.occs if occ.node is not None and self._in_arguments(occ.node)
        ]
        if not argv:
            return
        for node in self.f.script.of_type("command"):
            name = _name(self.src, node) or ""
            holder = node.parent if node.parent is not None else node
            text = node_text(self.src, holder if holder.type == "redirected_statement" else node)
            if name in _PROCESS_LISTERS or _PROC_OF_OTHERS.search(text):
                self._add(
                    node,
                    SecretPrinted.hazard(
                        None,
                        self._at(node),
                        f"`{name}` lists processes with their arguments (or reads another "
                        "process's command line), and a command of this script holds a secret "
                        "among its arguments while it runs",
                        "give the secret on standard input or in the one command's "
                        "environment (`-H @-`, `VAR=… prog`), never as an argument",
                    ),
                )

    def _in_arguments(self, node: Node) -> bool:
        """The expansion `node` stands among a command's arguments."""
        child = node
        for parent in ancestors(node):
            if parent.type == "command":
                return any(
                    a.start_byte <= child.start_byte < a.end_byte
                    for a in parent.children_by_field_name("argument")
                )
            if parent.type in ("variable_assignment", "command_substitution", "file_redirect"):
                return False
            child = parent
        return False

    def _reads_secret_file(self, node: Node) -> None:
        """A program given a file a secret was written to, as an operand or
        on its standard input, prints it unless it reads that file as a
        credential (`credentials.reads_credential_file`: ``curl -K FILE``,
        ``-H @FILE``, ``ssh -i FILE``; a program that takes a credential on
        stdin, ``docker login --password-stdin < FILE``) or the secrets'
        ``programs:`` name it."""
        name = _name(self.src, node) or ""
        arguments = list(node.children_by_field_name("argument"))
        texts = [self._as_path(a) for a in arguments]
        words = self._words(arguments)
        holder = (
            node.parent
            if node.parent is not None and node.parent.type == "redirected_statement"
            else None
        )
        inputs = [
            self._as_path(r.child_by_field_name("destination") or r)
            for r in (holder.children_by_field_name("redirect") if holder is not None else [])
            if r.type == "file_redirect" and node_text(self.src, r).startswith("<")
        ]

        def secret(path: str) -> str | None:
            if "=" in path and re.match(r"-{0,2}[A-Za-z_][\w-]*=", path):
                path = path.split("=", 1)[1]  # --config=FILE, dd if=FILE
            path = path.lstrip("@<")  # curl -H @FILE, -F name=<FILE
            if "/" in path:
                # reports/../auth.cfg is auth.cfg (a folder's own name kept)
                path = posixpath.normpath(path)
            while path.startswith("./"):
                path = path[2:]
            for f in self.secret_files:
                if f[:1] not in ("/", "$", "~") and path.endswith("/" + f):
                    return f  # a secret's own file, named from another folder
            if (glob := _GLOBBED.search(path)) is not None:
                # "$HARBOR_RUN_DIR"/*.cfg: any file of that folder
                folder = path[: glob.start()].rsplit("/", 1)[0]
                return next((f for f in self.secret_files if f.rsplit("/", 1)[0] == folder), None)
            return next(
                (
                    f
                    for f in self.secret_files
                    if path == f or (path and f.startswith(path.rstrip("/") + "/"))
                ),
                None,
            )

        if name in CONTENT_BLIND or any(
            self._named(node, programs) for programs in self.allowed.values()
        ):
            return
        if name == "find" and any(w in ("-exec", "-execdir", "-ok", "-okdir") for w in words):
            # find DIR … -exec cat {} +: every file below DIR, a secret's too
            folder = next((t for t in texts if t and not t.startswith("-")), "")
            found = next(
                (f for f in self.secret_files if f.startswith(folder.rstrip("/") + "/")), None
            )
            if folder and found is not None:
                self._printed(node, "print", name, f"the files below {folder}")
                return
        for k, text in enumerate(texts):
            found = (
                secret(text)
                or self._climbs_to_secret(arguments[k])
                # (what a program that makes links is given there is where it
                # writes, not a file it prints)
                or (self._linked_to_secret(text) if name not in LINK_MAKERS else None)
            )
            if found is not None and not reads_credential_file(name, words, k):
                self._printed(node, "print", name, f"the file {text}")
                return
            if found is not None and found in self.printing_files:
                # curl -K FILE whose own lines print the request
                self._printed(node, "print", name, f"the file {text} (it turns printing on)")
                return
            if found is not None:
                # a credential file read: it goes where the command connects
                self._sent_where_the_caller_says(node, name)
        redirected = [
            r.child_by_field_name("destination") or r
            for r in (holder.children_by_field_name("redirect") if holder is not None else [])
            if r.type == "file_redirect" and node_text(self.src, r).startswith("<")
        ]
        for path, target in zip(inputs, redirected, strict=True):
            if (
                secret(path) is not None or self._climbs_to_secret(target)
            ) and not takes_credential(name, words, ("stdin", 0)):
                self._printed(node, "print", name, f"the file {path}")
                return

    def _climbs_to_secret(self, path: Node) -> str | None:
        """A file a secret was written to, when the path `path` is a folder
        of the author's followed by caller data that may hold a ``/``
        (``"$HARBOR_RUN_DIR/reports/$ARG_r"`` with ``../curl.cfg``): it may
        name any file, that one too."""
        starts = [a for a, _b in self.climbing if path.start_byte <= a < path.end_byte]
        if not self.secret_files or not starts:
            return None
        lead = self.src[path.start_byte : min(starts)].decode("utf-8", "replace")
        folder = lead.replace('"', "").replace("'", "")
        if not folder and self._names_operands(path) and self._works_in_run_dir(path):
            # tar -C "$HARBOR_RUN_DIR/out" -- "$ARG_r", cd "$HARBOR_RUN_DIR/out"; zip -r - "$r"
            # with `..`: the run directory, where the secret's file is
            return min(self.secret_files)
        if "://" in folder or "=" in folder or not folder.endswith("/"):
            return None  # a URL, an option's value, a name of its own: no folder climbed from
        return min(self.secret_files)

    def _linked_to_secret(self, path: str) -> str | None:
        """A file a secret was written to in the run directory, when `path`
        is another path there and the script may put a link there
        (`makes_links`: a caller's archive extracted, ``ln``, ``cp -s``): a
        member of the archive may be a link to that file."""
        if "HARBOR_RUN_DIR" not in path:
            return None
        in_run_dir = [f for f in self.secret_files if "HARBOR_RUN_DIR" in f]
        if not in_run_dir:
            return None
        if self._links is None:
            self._links = makes_links(self.f.text)
        return min(in_run_dir) if self._links else None

    def _names_operands(self, path: Node) -> bool:
        """The word `path` names files: one word (a value that may start
        with ``.`` is no option), or an array's words after ``--`` (before
        it, ``"${params[@]}"`` may be ``--data-urlencode`` and its value)."""
        text = node_text(self.src, path)
        if "[@]" not in text and "[*]" not in text:
            return True
        before = []
        sibling = path.prev_named_sibling
        while sibling is not None:
            before.append(static_text(self.src, sibling))
            sibling = sibling.prev_named_sibling
        return "--" in before

    def _works_in_run_dir(self, path: Node) -> bool:
        """The command whose word `path` is reads its relative paths from a
        folder of the run directory, where a secret's file is: another of
        its words names the run directory (``tar -C "$HARBOR_RUN_DIR/out"``),
        or the script changes its folder to one there (``cd
        "$HARBOR_RUN_DIR/x"``)."""
        if not any("HARBOR_RUN_DIR" in f or not f.startswith("/") for f in self.secret_files):
            return False
        command = path.parent
        while command is not None and command.type != "command":
            command = command.parent
        if command is None:
            return False
        if any(
            a != path and "HARBOR_RUN_DIR" in node_text(self.src, a)
            for a in command.children_by_field_name("argument")
        ):
            return True
        return (
            re.search(r"(?m)^\s*(?:cd|pushd)\s+[\"']?\$\{?HARBOR_RUN_DIR", self.f.text) is not None
        )

    # -- reporting
    def _at(self, node: Node) -> Located:
        return self.locate(node.start_byte)

    def _add(self, node: Node, hazard: Hazard | None) -> None:
        if hazard is not None and node.start_byte not in self.seen:
            self.seen.add(node.start_byte)
            self.hazards.append(hazard)

    # -- traces
    def _trace_command(self, node: Node) -> None:
        name = _name(self.src, node)
        args = [static_text(self.src, a) for a in node.children_by_field_name("argument")]
        if name == "shopt":
            letters = "".join(a[1:] for a in args if a is not None and a.startswith("-"))
            traced = "o" in letters and ("xtrace" in args or "verbose" in args)
        else:
            traced = (name == "set" or name in _SHELLS) and _trace_options(args)
        if traced:
            shown = " ".join(a if a is not None else "…" for a in args)
            self._add(node, SecretPrinted.trace(f"{name} {shown}", self._at(node)))

    # -- dumps
    def _dump_command(self, node: Node) -> None:
        name = _name(self.src, node)
        args = node.children_by_field_name("argument")
        texts = [static_text(self.src, a) for a in args]
        dump = False
        if name == "set":
            dump = not args
        elif name == "env":
            dump = all(t is not None and (t.startswith("-") or "=" in t) for t in texts)
        elif name == "printenv":
            operands = [t for t in texts if t is None or not t.startswith("-")]
            dump = not operands or any(t is None or t in self.carriers for t in operands)
        if dump:
            self._printed(node, "dump", name or "")

    def _declaration(self, node: Node) -> None:
        keyword = node_text(self.src, node.children[0]) if node.children else ""
        options: list[str] = []
        operands: list[str | None] = []
        for child in node.children:
            if not child.is_named:
                continue
            if child.type == "variable_assignment":
                operands.append("=")  # NAME=value assigns; it lists nothing
                continue
            text = (
                node_text(self.src, child)
                if child.type == "variable_name"
                else static_text(self.src, child)
            )
            if text is not None and child.type == "word" and text[:1] in ("-", "+"):
                options.append(text)
            else:
                operands.append(text)
        letters = "".join(o[1:] for o in options)
        if "f" in letters or "F" in letters:
            return  # functions, not variables
        if (keyword == "export" and "n" not in letters) or (
            "x" in letters and keyword in _DECLARATIONS
        ):
            named = next((o for o in operands if o is not None and o in self.carriers), None)
            if named is not None:  # export S: its value in every later program's environment
                self._add(node, SecretPrinted.exported(named, self._at(node)))
        if not operands:
            dump = True
        elif "p" in letters:
            dump = any(o is None or (o != "=" and o in self.carriers) for o in operands)
        else:
            dump = False
        if dump:
            self._printed(node, "dump", f"{keyword} {' '.join(options)}".strip())

    # -- a secret's value
    def _value(self, node: Node, variable: str, secret: str) -> None:
        if node.type == "expansion" and [c.type for c in node.children][1:2] == ["#"]:
            return  # ${#S}: its length, a number (no secret)
        told = self._told(node, variable, secret)
        if told is not None:
            self._add(
                node,
                SecretPrinted.hazard(
                    None,
                    self._at(node),
                    f"`{variable}` holds a secret, and {told}",
                    "compare the whole secret only, for equality or emptiness "
                    '([ "$S" = "$EXPECTED" ], [ -n "$S" ]), and keep it out of arithmetic and '
                    "file names",
                ),
            )
            return
        child = node
        # a substitution whose output carries the secret: where that output goes
        start = node.parent if node.type == "command_substitution" else node
        for parent in ancestors(start) if start is not None else iter(()):
            kind = parent.type
            if kind == "variable_assignment":
                holder = parent.parent
                target = parent.child_by_field_name("name")
                if holder is not None and holder.type == "command" and target is not None:
                    # NAME="$S" prog: prog's environment
                    self._given(holder, secret, variable, ("env", node_text(self.src, target)))
                elif holder is not None and holder.type == "declaration_command":
                    self._exported_value(holder, variable)
                elif _ALLEXPORT.search(self.src.decode("utf-8", "replace")):
                    # set -a / shopt -so allexport: every assignment is exported
                    self._add(parent, SecretPrinted.exported(variable, self._at(parent)))
                return  # an assignment: the variable is followed
            if kind in ("command_substitution", "process_substitution"):
                return  # a capture: what it is assigned to is followed
            if kind in ("herestring_redirect", "heredoc_redirect"):
                statement = parent.parent
                body = statement
                if statement is not None and statement.type == "redirected_statement":
                    body = statement.child_by_field_name("body")
                if body is not None and body.type == "command":
                    self._given(body, secret, variable, ("stdin", 0))
                return
            if kind == "file_redirect":
                return
            if kind == "command":
                name_node = parent.child_by_field_name("name")
                if (
                    name_node is not None
                    and name_node.start_byte <= child.start_byte < name_node.end_byte
                ):
                    return
                name = _name(self.src, parent)
                if name in _PRINTERS and not _printf_to_variable(self.src, parent):
                    self._printed(parent, "print", name or "", variable)
                    self._remember_file(parent)
                elif name not in _PRINTERS:
                    arguments = list(parent.children_by_field_name("argument"))
                    index = next(
                        (
                            k
                            for k, a in enumerate(arguments)
                            if a.start_byte <= child.start_byte < a.end_byte
                        ),
                        None,
                    )
                    if index is not None:
                        self._given(parent, secret, variable, ("word", index))
                return
            if kind == "declaration_command":
                self._exported_value(parent, variable)
                return
            if kind == "test_command":
                # [[ $S -eq 1 ]], [ "$S" -gt 0 ]: the error prints the value
                text = node_text(self.src, parent)
                if any(re.search(rf"(?<!\S){op}(?!\S)", text) for op in _INTEGER_TESTS):
                    self._given(parent, secret, variable, ("word", 0))
                return
            child = parent

    def _told(self, node: Node, variable: str, secret: str) -> str | None:
        """How the expansion `node` (of `variable`, which holds `secret`)
        tells the secret without printing it, None when it does not: a
        number made from it (arithmetic reads ``64#$S`` as the secret in
        base 64), a condition on a part of it, a pattern or a value made
        from it (what the script does next, its exit code or what it
        prints, tells each answer: one character at a time, the whole
        secret), or a file's name (a listing prints names). Only the whole
        secret compared for equality or emptiness decides nothing more
        than whether it is that text. Its length (``${#S}``) is no secret."""
        kinds = [c.type for c in node.children] if node.type == "expansion" else []
        if kinds[1:2] == ["#"]:
            return None  # ${#S}: a length
        part = bool(kinds) and any(k not in ("${", "}", "variable_name") for k in kinds)
        whole = not part and variable == secret
        child = node
        for parent in ancestors(node):
            kind = parent.type
            if kind in ("arithmetic_expansion", "c_style_for_statement") or (
                kind == "compound_statement" and node_text(self.src, parent).startswith("((")
            ):
                return "arithmetic reads it as a number (`64#…` in base 64) that tells it"
            if kind == "case_statement":
                if parent.child_by_field_name("value") == child:
                    return (
                        "a `case` tests its text against patterns, and each answer tells part of it"
                    )
                return None
            if kind == "test_command":
                text = node_text(self.src, parent)
                if not whole:
                    return "a condition on a part of it (or a value made from it) tells that part"
                if "=~" in text or self._pattern_test(parent):
                    return "a pattern match on it tells a part of it with each answer"
                return None
            if kind == "file_redirect" and parent.child_by_field_name("destination") == child:
                return "it becomes a file's name, which a listing prints"
            if kind == "command":
                name = _name(self.src, parent) or ""
                if name == "let":
                    return "arithmetic reads it as a number (`64#…` in base 64) that tells it"
                if name in ("test", "[") and not whole:
                    return "a condition on a part of it (or a value made from it) tells that part"
                if name in _NAMES_FILES and not takes_credential(name, [], ("word", 0)):
                    return "it becomes a file's name, which a listing prints"
                return None
            if kind in ("command_substitution", "variable_assignment", "declaration_command"):
                return None
            child = parent
        return None

    def _pattern_test(self, test: Node) -> bool:
        """The ``[[ ]]`` `test` matches a pattern: ``==``/``!=``/``=`` with a
        right side that is not quoted whole (a glob or an expansion in it)."""
        for binary in (n for n in walk_nodes(test) if n.type == "binary_expression"):
            operator = binary.child_by_field_name("operator")
            right = binary.child_by_field_name("right")
            if operator is None or right is None:
                continue
            if (
                node_text(self.src, operator) in ("==", "!=", "=")
                and right.type not in ("string", "raw_string")
                and (right.type != "word" or bool(set(node_text(self.src, right)) & _GLOB))
            ):
                return True
        return False

    def _given(
        self, command: Node, secret: str, variable: str, place: tuple[str, int | str]
    ) -> None:
        """`command` gets the secret at `place` (`credentials.takes_credential`):
        a finding unless the program takes a credential there, or the secret's
        ``programs:`` names it, or nothing it prints is recorded."""
        name = _name(self.src, command) or ""
        if self._named(command, self.allowed.get(secret, ())):
            # the program named for it sends it where its destination says:
            # never where the caller says
            self._sent_where_the_caller_says(command, name or "…")
            return
        arguments = list(command.children_by_field_name("argument"))
        words = self._words(arguments)
        kind, at = place
        mixed = (
            kind == "word"
            and isinstance(at, int)
            and at < len(arguments)
            and self._node_holds_callers(arguments[at])
            and not _credential_value(name, words, at)
        )
        # wherever it takes it, a program that sends the secret sends it where
        # its destination says: never to a host the caller chooses
        self._sent_where_the_caller_says(command, name or "…")
        if name and not mixed and takes_credential(name, words, place):
            # (a word that also holds caller data may come out malformed, and
            # curl prints a malformed URL whole: "bad range in URL position …")
            self._stores(command, name, words)
            return
        if name in ("test", "[") and _compares_strings(words):
            return  # test "$S" = x prints nothing, whatever S holds
        where = self._recorded(command)
        if where is None and not writes_no_file(name.rsplit("/", 1)[-1], words):
            # what it prints is discarded, but it may keep the secret in a
            # file (git hash-object -w, a tool's cache) that a later command
            # prints
            where = "a file it may write"
        if where is None:
            self.filed = True  # (a file of the run directory may hold it now)
            return
        said = (
            f"in its environment as {at}"
            if kind == "env"
            else "on its standard input"
            if kind == "stdin"
            else "as an argument"
        )
        self._add(
            command, SecretPrinted.given(variable, name or "…", said, where, self._at(command))
        )

    def _words(self, arguments: Sequence[Node]) -> list[str | None]:
        """The literal `arguments` (None: not literal), an option whose
        attached value is not literal as its name (``--header="…$S"``,
        ``--warc-file="$w"``: ``--warc-file=…``)."""
        words = [static_text(self.src, a) for a in arguments]
        for k, argument in enumerate(arguments):
            written = node_text(self.src, argument).strip("'\"")
            if words[k] is None and written.startswith("-") and "=" in written:
                words[k] = written.split("=", 1)[0] + "=…"
        return words

    def _sent_where_the_caller_says(self, command: Node, name: str) -> None:
        """A finding when `command`, which takes the secret as a credential,
        sends it to a destination whose host or port the caller chooses
        (and the command is remembered, for the grammar's judgement of the
        rest of its caller data: `commands`)."""
        word = command.child_by_field_name("name") if command.type == "command" else None
        if word is not None:
            self.commands.add(word.start_byte)
        destination = self._callers_destination(command)
        if destination is None and self._redirected(command):
            self._add(
                command,
                SecretPrinted.hazard(
                    None,
                    self._at(command),
                    f"`{name}` follows redirects with the secret, and the caller chooses the "
                    "path it asks for: where the server redirects that path (a short link, an "
                    "open redirect) the secret goes too",
                    "keep the caller's data out of the URL, or stop it following: drop "
                    "curl's -L (give -q first when the script writes a .curlrc), give wget "
                    "--max-redirect=0, git -c http.followRedirects=false",
                ),
            )
            return
        if destination is not None:
            self._add(
                command,
                SecretPrinted.hazard(
                    None,
                    self._at(command),
                    f"`{name}` sends a secret to `{destination}`, whose host or port the "
                    "caller chooses",
                    "write the host yourself (an enum arg may choose among the author's "
                    'hosts): "https://api.example.com/v1/$ARG_x"',
                ),
            )

    def _redirected(self, command: Node) -> bool:
        """`command` follows redirects with the credential it takes
        (`credentials.follows_redirects`) and caller data is in one of its
        operands, the URLs it asks for."""
        name = _name(self.src, command) or ""
        arguments = list(command.children_by_field_name("argument"))
        words = self._words(arguments)
        if name == "curl":
            words = self._unknown_configs(arguments, words)
            if words[:1] not in (["-q"], ["--disable"]) and self._curlrc_written():
                # a .curlrc the script wrote may say location-trusted
                words = [*words, "--location-trusted"]
        if not follows_redirects(name, words):
            return False
        if (
            name == "curl"
            and not {"--location-trusted", "-K", "--config"} & set(words)
            and self._kept_home(arguments)
            and (command.start_byte not in self._stdin_secret or self._header_on_stdin(command))
        ):
            return False
        grammar = GRAMMARS.get(name)
        takes = (grammar.value_options | grammar.code_options) if grammar else frozenset()
        previous = ""
        for argument in arguments:
            text = node_text(self.src, argument)
            if (
                not text.startswith("-")
                and previous not in takes
                and self._node_holds_callers(argument)
            ):
                return True
            previous = text
        return False

    def _curlrc_written(self) -> bool:
        """The script may write the config curl reads unasked (curl(1):
        ``$CURL_HOME/.curlrc``, ``$XDG_CONFIG_HOME/.curlrc``,
        ``~/.curlrc``, unless ``-q`` comes first): it writes, copies or
        links into the home folder or a file named ``.curlrc``, or it sets
        ``HOME``, ``CURL_HOME`` or ``XDG_CONFIG_HOME`` (quotes dropped)."""
        text = re.sub(r"[\"'\\]", "", self.f.text)
        return _CURLRC_WRITE.search(text) is not None

    def _unknown_configs(
        self, arguments: Sequence[Node], words: list[str | None]
    ) -> list[str | None]:
        """curl's `words` without each ``-K FILE`` (``--config FILE``) whose
        every line the script writes is known and none of them follows
        (`_known_config`): what the others hold may say ``location``."""
        return without_pairs(
            words,
            lambda k: (
                words[k] in ("-K", "--config")
                and k + 1 < len(arguments)
                and self._known_config(node_text(self.src, arguments[k + 1]).strip('"'))
            ),
        )

    def _known_config(self, path: str) -> bool:
        """Every write of the file `path` (as written) in the script is a
        redirection of one ``printf`` or ``echo`` whose text is the
        author's (the secrets only its arguments), and no line of that
        text is an option that follows redirects (``location``,
        ``location-trusted``, ``-L``, curl(1) -K: long options without
        their dashes). Any other writer (``tee``, ``cp``, a variable's
        text, a program) makes it unknown."""
        if self.f.script is None or not path:
            return False
        writes = 0
        for node in self.f.script.of_type("file_redirect"):
            dest = node.child_by_field_name("destination")
            if dest is None or node_text(self.src, dest).strip('"') != path:
                continue
            operator = node_text(self.src, node).lstrip("0123456789")
            if operator.startswith("<"):
                continue
            holder = node.parent
            body = holder.child_by_field_name("body") if holder is not None else None
            if (
                body is None
                or body.type != "command"
                or _name(self.src, body)
                not in (
                    "printf",
                    "echo",
                )
            ):
                return False
            texts: list[str] = []
            for argument in body.children_by_field_name("argument"):
                text = static_text(self.src, argument)
                if text is None and not self._secret_only(argument):
                    return False  # a value of the caller's (or unknown) may be a line
                texts.append(text if text is not None else "secret")
            lines = _printed_lines(_name(self.src, body) or "", texts)
            if lines is None or any(_CONFIG_FOLLOWING.match(line) for line in lines):
                return False
            writes += 1
        if writes == 0:
            return False
        text = self.src.decode("utf-8", "replace")
        reads = len(re.findall(r"(?:-K|--config)[ =]\"?" + re.escape(path), text))
        if text.count(path) != writes + reads:
            return False  # the path is written or read some other way too
        # no other spelling of the file: its name appears nowhere else (a
        # variable's one assignment gives it once more)
        variable = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", path)
        value = self.f.assigned_once().get(variable.group(1)) if variable else None
        if variable is not None and value is None:
            return False
        name = (node_text(self.src, value) if value is not None else path).strip('"')
        name = name.rsplit("/", 1)[-1]
        if not name or re.search(r"[$*?\[]", name):
            return False
        return text.count(name) == (1 if value is not None else writes + reads)

    def _secret_only(self, argument: Node) -> bool:
        """The word `argument` expands a secret (the author's), and no
        caller data."""
        start, end = argument.start_byte, argument.end_byte
        return any(start <= o.start < end for o in self.f.occs) and not self._holds_callers(
            start, end
        )

    def _header_on_stdin(self, command: Node) -> bool:
        """The secret piped into curl `command` is an ``Authorization:`` or
        ``Cookie:`` header it reads with ``-H @-`` alone (no body, upload or
        form reads its standard input): ``printf 'Authorization: Bearer
        %s\\n' "$T" | curl -L -H @- …``, which curl sends to the first host
        only; a body read from it is sent again after a 307 or 308."""
        arguments = list(command.children_by_field_name("argument"))
        texts = [node_text(self.src, a).strip("'\"") for a in arguments]
        for k, text in enumerate(texts):
            previous = texts[k - 1] if k else ""
            reads = text.endswith(("@-", "<-")) or (
                text == "-" and previous in ("-T", "--upload-file")
            )
            if reads and not (previous in ("-H", "--header") and text == "@-"):
                return False
        stage = command.prev_named_sibling
        if (
            command.parent is None
            or command.parent.type != "pipeline"
            or stage is None
            or stage.type != "command"
            or _name(self.src, stage) != "printf"
        ):
            return False
        first = next(iter(stage.children_by_field_name("argument")), None)
        format_text = static_text(self.src, first) if first is not None else None
        return format_text is not None and bool(
            re.fullmatch(r"(?i)(?:authorization|cookie):[^\n\\]*(?:\\n)?", format_text)
        )

    def _kept_home(self, arguments: Sequence[Node]) -> bool:
        """Every secret among curl's `arguments` is in ``-u``'s value or an
        ``Authorization:`` or ``Cookie:`` header: curl (7.58 and later,
        CVE-2018-1000007) sends those only to the host it was first asked,
        not to one a redirect names."""
        secrets = [o for o in self.f.occs if o.node is not None]
        for argument in arguments:
            text = node_text(self.src, argument).strip("'\"").split("=", 1)[-1]
            read = text.replace('"', "").replace("'", "").lstrip("@<")
            if (
                text in self.secret_files
                or read in self.secret_files
                or text in ("-n", "--netrc", "--netrc-optional")
            ):
                # a netrc's default entry, a config's header, a body read
                # from the file (-d @"$f", -F k=<"$f"): any host
                return False
        for k, argument in enumerate(arguments):
            inside = [o for o in secrets if argument.start_byte <= o.start < argument.end_byte]
            if not inside:
                continue
            previous = node_text(self.src, arguments[k - 1]) if k else ""
            text = node_text(self.src, argument).strip("'\"")
            option, _, attached = text.partition("=")
            value = attached if option in ("--user", "--header") and attached else text
            if previous in ("-u", "--user") or option == "--user":
                continue
            # exactly the name: curl 7.88 (http.c) drops a custom header on
            # another host only when it starts "Authorization:" or "Cookie:"
            header = value.split(":", 1)[0].lower()
            if (previous in ("-H", "--header") or option == "--header") and header in (
                "authorization",
                "cookie",
            ):
                continue
            return False
        return True

    def _holds_callers(self, start: int, end: int) -> bool:
        """Caller data starts between bytes `start` and `end` (a substitution
        that holds the whole place is judged where it is used)."""
        return any(start <= a < end for a, _b in self.callers)

    def _node_holds_callers(self, node: Node) -> bool:
        return self._holds_callers(node.start_byte, node.end_byte)

    def _callers_destination(self, command: Node) -> str | None:
        """The operand of `command` (a URL: written with its scheme, built in
        a variable, or an operand its grammar reads as one) whose host part
        holds caller data (an ``ARG_``, ``STEP_`` or ``HARBOR_CALLER_``
        variable, a placeholder), or a file the caller filled that it reads as code (a
        curl config, a list of URLs): the secret it takes would go where the
        caller says. None when every destination is the author's. The rest
        of the command (options, variables, other operands) is the grammar's
        to judge: caller data beside a secret may stand only where it says
        data (`mcp_harbor.check._positions.admit`, ``beside_secret``)."""
        arguments = list(command.children_by_field_name("argument"))
        grammar = GRAMMARS.get(_name(self.src, command) or "")
        language = INTERPRETERS.get(_name(self.src, command) or "")
        # the options whose value is the next word (not a destination)
        takes_value = (grammar.value_options | grammar.code_options) if grammar else frozenset()
        if language is not None:
            # psql -c SQL, -f FILE, -v NAME=VALUE
            takes_value |= language.code_options | language.module_options | language.value_options
        code = grammar.code_options if grammar else frozenset()
        for line in self._call_lines(command, arguments):
            for k, argument in enumerate(line):
                text = node_text(self.src, argument).strip("'\"")
                previous = node_text(self.src, line[k - 1]) if k else ""
                if previous in code and text in self.caller_files:
                    return f"{previous} {text}"  # a file the caller filled: its url, proxy…
                if text.startswith("-") or previous in takes_value:
                    continue  # an option or its value, not a destination
                passed = self._passed(argument)
                if passed is not None:
                    # get() { curl … "$1"; } … get "$API/x/$ARG_id": each call's word
                    if any(self._names_destination(a, grammar) for a in passed):
                        return text
                    continue
                if self._names_destination(argument, grammar):
                    return text
        return None

    def _call_lines(self, command: Node, arguments: list[Node]) -> list[list[Node]]:
        """The argument lists `command` runs with: its own, or, when one of
        them is ``"$@"`` of a function whose calls are all known and whose
        ``shift``s before `command` are too, one list for each call, the
        words it passes (after those shifted away) in that place."""
        spots = [k for k, a in enumerate(arguments) if node_text(self.src, a) in ('"$@"', '"${@}"')]
        function = self.f.function_at(command.start_byte)
        calls = self.f.function_calls(function) if function is not None else None
        if len(spots) != 1 or calls is None or function is None:
            return [arguments]
        shifts = self.f.shifts_before(function, command)
        if shifts is None:
            return [arguments]
        at = spots[0]
        return [
            [*arguments[:at], *list(call.children_by_field_name("argument"))[shifts:],
             *arguments[at + 1 :]]
            for call in calls
        ]  # fmt: skip

    def _passed(self, argument: Node) -> list[Node] | None:
        """The words every call of the function passes where `argument`
        (``"$1"``, ``"$@"``) stands in its body; None when it is no such
        word, or the function's calls are not all known."""
        match = re.fullmatch(r'"?\$\{?([1-9@])\}?"?', node_text(self.src, argument))
        function = self.f.function_at(argument.start_byte) if match else None
        calls = self.f.function_calls(function) if function is not None else None
        if match is None or calls is None:
            return None
        found: list[Node] = []
        for call in calls:
            words = list(call.children_by_field_name("argument"))
            if match.group(1) == "@":
                found += words
            elif int(match.group(1)) <= len(words):
                found.append(words[int(match.group(1)) - 1])
        return found

    def _names_destination(self, argument: Node, grammar: Grammar | None) -> bool:
        """The word `argument` names a destination the caller chooses: a
        URL with caller data in its host (also through a variable), or an
        operand of a grammar whose operands are URLs with no author's text
        ending its host before the caller's data."""
        raw = self.src[argument.start_byte : argument.end_byte]
        scheme = raw.find(b"://")
        if scheme >= 0:
            if raw[:scheme].lstrip(b"\"'").lower() in (b"s3", b"gs"):
                return False  # a bucket, not a host: the request goes to the cloud's API
            return self._host_holds_callers(argument)
        through = self._url_through_variable(argument)
        if through is not None:
            return through  # url="http://127.0.0.1:$ARG_port/m" … "$url"
        return (
            grammar is not None
            and grammar.url_operands == "all"
            and self._operand_destination(argument)
        )

    def _operand_destination(self, argument: Node, depth: int = 0) -> bool:
        """The operand `argument` (a URL, a connection string) with no
        scheme written holds caller data where the destination is: before
        it stands no text of the author's that ends with a ``/`` (its
        host, whatever the author's variable holds, ends there). An array's
        elements (``"${opts[@]}"``) are several words, judged as written."""
        raw = node_text(self.src, argument)
        if "[@]" in raw or "[*]" in raw:
            return False
        lone = _LEADING_VARIABLE.fullmatch(raw.rstrip('"'))
        value = self.f.assigned_once().get(lone.group(1) or lone.group(2)) if lone else None
        if value is not None and value.type != "array" and depth < 4:
            # url="$API/items/$ARG_id" … curl "$url": judged where it is written
            written = self.src[value.start_byte : value.end_byte]
            if b"://" in written:
                return self._host_holds_callers(value)
            return self._operand_destination(value, depth + 1)
        first = min(
            (a for a, _b in self.callers if argument.start_byte <= a < argument.end_byte),
            default=None,
        )
        if first is None:
            return False
        before = self.src[argument.start_byte : first].decode("utf-8", "replace")
        literal = _EXPANSION.sub("", before).strip("\"'")
        return not (before.strip("\"'") and "/" in literal)

    def _url_through_variable(self, argument: Node) -> bool | None:
        """For an operand that starts with a variable the script assigns
        once to a URL (``base="http://127.0.0.1:$ARG_port"`` … ``"$base/h"``):
        whether the caller's data is in that URL's scheme, userinfo, host
        or port (in the value, or in the operand after the variable while
        the value has no ``/`` after its host). None when it is not such an
        operand."""
        raw = node_text(self.src, argument)
        match = _LEADING_VARIABLE.match(raw)
        if match is None:
            return None
        value = self.f.assigned_once().get(match.group(1) or match.group(2))
        if value is None:
            return None
        written = self.src[value.start_byte : value.end_byte]
        scheme = written.find(b"://")
        if scheme < 0:
            # base="$kc/v2/$ARG_x" after kc=https://sso.example.com: the URL
            # its own leading variable holds, then the text after it
            inner = _LEADING_VARIABLE.match(written.decode("utf-8", "replace").lstrip('"'))
            held = self.f.assigned_once().get(inner.group(1) or inner.group(2)) if inner else None
            if (
                inner is None
                or held is None
                or held.type == "array"
                or held.start_byte >= value.start_byte  # (set after: empty there)
            ):
                return None
            url = self.src[held.start_byte : held.end_byte]
            at = url.find(b"://")
            if at < 0:
                return None
            slash = url.find(b"/", at + 3)
            if slash >= 0:
                return self._holds_callers(held.start_byte + at + 3, held.start_byte + slash)
            after = (
                value.start_byte
                + written.find(inner.group(0).encode())
                + len(inner.group(0).encode())
            )
            rest = self.src[after : value.end_byte]
            end = after + (rest.find(b"/") if b"/" in rest else len(rest))
            return self._holds_callers(held.start_byte, held.end_byte) or self._holds_callers(
                after, end
            )
        host = value.start_byte + scheme + 3
        slash = written.find(b"/", scheme + 3)
        if slash >= 0:
            return self._holds_callers(host, value.start_byte + slash)
        after = argument.start_byte + len(match.group(0).encode())
        rest = self.src[after : argument.end_byte]
        end = after + (rest.find(b"/") if b"/" in rest else len(rest))
        return self._holds_callers(host, value.end_byte) or self._holds_callers(after, end)

    def _host_holds_callers(self, argument: Node) -> bool:
        """The URL `argument` has caller data in its scheme, userinfo, host or
        port: up to the first ``/`` after ``://``, or up to caller data that
        surely starts the path (a non-empty value led by ``/``, ``?``, ``#``).
        A word without ``://`` is the caller's whole when it holds any."""
        raw = self.src[argument.start_byte : argument.end_byte]
        scheme = raw.find(b"://")
        if scheme < 0:
            return self._node_holds_callers(argument)
        path = raw.find(b"/", scheme + 3)  # userinfo@host:port ends there
        end = argument.start_byte + (path if path >= 0 else len(raw))
        host = argument.start_byte + scheme + 3
        first = min((a for a, _b in self.callers if host <= a < end), default=None)
        if first is not None and first in self.path_starts:
            end = first  # "https://api.example.com$ARG_path" with a /… path
        return self._holds_callers(argument.start_byte, end)

    def _recorded(self, command: Node) -> str | None:
        """Where what `command` prints (stdout or stderr) is recorded, or
        None when neither is (``>/dev/null 2>&1``, a run-directory file)."""
        where = _destination(
            self.src,
            command,
            frozenset(self.f.temp_paths) | self._run_files(),
            self._takes_stdin,
            self.f.function_calls,
        )
        if where is not None:
            return where
        holder = command.parent
        if holder is None or holder.type != "redirected_statement":
            return "the step's stderr"
        for red in holder.children_by_field_name("redirect"):
            if red.type != "file_redirect":
                continue
            fds, dest, operator = _fd_redirect(self.src, red)
            if 2 in fds and dest is not None:
                if operator.endswith("&") and static_text(self.src, dest) == "1":
                    return None  # 2>&1: where stdout goes
                return _file(self.src, dest, operator)
        return "the step's stderr"

    def _takes_stdin(self, command: Node) -> bool:
        """`command` (a stage a secret is piped into) takes it on its
        standard input as a credential, or the secrets' ``programs:`` name it."""
        name = _name(self.src, command) or ""
        body = command
        if command.type == "redirected_statement":
            body = command.child_by_field_name("body") or command
        if any(self._named(command, programs) for programs in self.allowed.values()):
            self._stdin_secret.add(body.start_byte)
            self._sent_where_the_caller_says(body, name or "…")
            return True
        words = self._words(list(body.children_by_field_name("argument")))
        if bool(name) and takes_credential(name, words, ("stdin", 0)):
            self._stdin_secret.add(body.start_byte)
            self._sent_where_the_caller_says(body, name)
            self._stores(body, name, words)
            return True
        return False

    def _stores(self, command: Node, name: str, words: Sequence[str | None]) -> None:
        """`command` (`name` with `words`) took a secret as a credential: the
        files it keeps credentials in (``docker login``:
        ``~/.docker/config.json``, in each way a script may spell the home,
        or the one its ``--config`` or ``DOCKER_CONFIG`` names) hold it from
        now on."""
        for stored in credential_stores(name, words):
            self.secret_files |= {f"{home}/{stored}" for home in _HOME_SPELLINGS}
        places, inside, shared = store_places(name, words)
        if not places:
            return
        values: list[Node] = []
        arguments = list(command.children_by_field_name("argument"))
        for k, argument in enumerate(arguments):
            text = node_text(self.src, argument)
            if text in places and k + 1 < len(arguments):
                values.append(arguments[k + 1])  # --config DIR
            elif text.split("=", 1)[0] in places and "=" in text:
                values.append(argument)  # --config=DIR
        for child in command.children:
            target = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            if (
                child.type == "variable_assignment"
                and target is not None
                and value is not None
                and node_text(self.src, target) in places
            ):
                values.append(value)  # DOCKER_CONFIG=DIR docker login
        if shared and not values:
            self._add(
                command,
                SecretPrinted.hazard(
                    None,
                    self._at(command),
                    f"`{name}` keeps the secret in its default store under the home folder, "
                    "plain text its own commands print to any export's call (kubectl config "
                    "view --flatten), unscrubbed",
                    f"keep it in the run directory: {sorted(places)[0]} "
                    '"$HARBOR_RUN_DIR/kubeconfig"',
                ),
            )
        for value in values:
            path = node_text(self.src, value).replace('"', "").replace("'", "")
            path = path.split("=", 1)[1] if path.startswith("-") else path
            paths = {path}
            assigned = self.f.assigned_once().get(path.lstrip("$").strip("{}"))
            if path.startswith("$") and assigned is not None:
                # cfg="$HARBOR_RUN_DIR/docker" … --config "$cfg": the path too
                paths.add(node_text(self.src, assigned).replace('"', ""))
            self.secret_files |= {f"{p.rstrip('/')}/{inside}" if inside else p for p in paths}
            if not self._private(path):
                self._add(
                    command,
                    SecretPrinted.hazard(
                        None,
                        self._at(command),
                        f"`{name}` keeps the secret in `{path}`, which may be outside the run "
                        "directory: no scrubber cleans it, and other calls (of any export "
                        "that reads that folder) may print it",
                        'keep it in the run directory: --config "$HARBOR_RUN_DIR/docker"',
                    ),
                )

    def _private(self, path: str, depth: int = 0) -> bool:
        """`path` (as written) is a file of the run directory the caller
        does not get back, or a temporary one: directly, or through a
        variable the script assigns once to such a path."""
        bare = path.strip('"')
        for prefix in ("$HARBOR_RUN_DIR/", "${HARBOR_RUN_DIR}/"):
            if bare.startswith(prefix):
                first = bare[len(prefix) :].lstrip('"').split("/", 1)[0]
                return first not in _RETURNED and bool(first)
        match = _LEADING_VARIABLE.match(bare)
        if match is None:
            return False
        name = match.group(1) or match.group(2)
        if name in self.f.temp_paths or name in self._run_files():
            return True
        assigned = self.f.assigned_once().get(name)
        return (
            assigned is not None
            and depth < 4
            and self._private(node_text(self.src, assigned), depth + 1)
        )

    def _named(self, command: Node, programs: Collection[str]) -> bool:
        """`command`'s program is one of `programs` (a basename, or the
        command word as written when it holds a ``/``)."""
        if not programs:
            return False
        body = command
        if command.type == "redirected_statement":
            body = command.child_by_field_name("body") or command
        word = body.child_by_field_name("name") if body.type == "command" else None
        written = static_text(self.src, word) if word is not None else None
        return written is not None and (
            written in programs or written.rsplit("/", 1)[-1] in programs
        )

    def _exported_value(self, node: Node, variable: str) -> None:
        """``export S``, ``declare -x V="$S"``: the secret in every later
        program's environment."""
        keyword = node_text(self.src, node.children[0]) if node.children else ""
        flags = "".join(
            node_text(self.src, c)
            for c in node.children
            if c.type == "word" and node_text(self.src, c).startswith("-")
        )
        if keyword == "export" or ("x" in flags and keyword in _DECLARATIONS):
            self._add(node, SecretPrinted.exported(variable, self._at(node)))

    def _remember_file(self, command: Node) -> None:
        """The file the output of `command` is redirected to, if any."""
        holder = command.parent
        if holder is None or holder.type != "redirected_statement":
            return
        for red in holder.children_by_field_name("redirect"):
            text = node_text(self.src, red).lstrip("0123456789")
            if red.type == "file_redirect" and not text.startswith("<"):
                dest = red.child_by_field_name("destination")
                if (
                    text.startswith(">&")
                    and dest is not None
                    and (node_text(self.src, dest).isdigit() or node_text(self.src, dest) == "-")
                ):
                    continue  # >&2, >&-: a descriptor duplicated or closed, no file
                if dest is not None:
                    path = node_text(self.src, dest).strip('"')
                    self.secret_files.add(path)
                    value = self.f.assigned_once().get(path.lstrip("$").strip("{}"))
                    if path.startswith("$") and value is not None:
                        # cfg="$HARBOR_RUN_DIR/req.cfg" … > "$cfg": the path too
                        self.secret_files.add(node_text(self.src, value).replace('"', ""))
                    if _CONFIG_PRINTING.search(node_text(self.src, command)):
                        self.printing_files.add(path)  # printf 'verbose\n' > curl.cfg

    def _run_files(self) -> frozenset[str]:
        """Variables the script assigns exactly once, to a literal file name
        of the run directory that the caller does not get back
        (``netrc="$HARBOR_RUN_DIR/netrc"``): a private file of the run, as a
        ``mktemp`` path is."""
        found = set()
        for variable, value in self.f.assigned_once().items():
            match = _RUN_FILE.fullmatch(node_text(self.src, value).strip('"'))
            if match is not None and match.group(1) not in _RETURNED:
                found.add(variable)
        return frozenset(found)

    def _printed(self, node: Node, what: str, program: str, variable: str = "") -> None:
        """A finding when what `node` prints (a dump, or `variable` given to
        `program`) ends anywhere recorded (`_destination`)."""

        def into_file(path: str) -> None:
            if path != "/dev/null" and path not in self.secret_files:
                # a file of the run directory no one noted (cat "$t" | tr …
                # > "$u"): which file may hold it now is not followed
                self.filed = True

        where = _destination(
            self.src,
            node,
            frozenset(self.f.temp_paths) | self._run_files(),
            self._takes_stdin,
            self.f.function_calls,
            into_file=into_file,
        )
        if where is None:
            return
        if what == "dump":
            self._add(node, SecretPrinted.dump(program, where, self._at(node)))
        else:
            self._add(node, SecretPrinted.printed(variable, program, where, self._at(node)))


def _name(src: bytes, node: Node) -> str | None:
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        return _name(src, body) if body is not None else None
    if node.type != "command":
        return None
    name = node.child_by_field_name("name")
    text = static_text(src, name) if name is not None else None
    return text.rsplit("/", 1)[-1] if text else None


#: ``set -a``, ``set -o allexport``, ``shopt -so allexport`` anywhere in a
#: script: an assignment after it is exported to every later program.
_ALLEXPORT = re.compile(
    r"(?:^|[;&|\s])(?:set\s+(?:-[A-Za-z]*a[A-Za-z]*|-o\s+allexport)\b|shopt\b[^\n;&|]*\ballexport\b)"
)

#: A variable's expansion (``$v``, ``${v}``, ``${v:-x}``) in a word.
_EXPANSION = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\})")
#: A word that starts with a variable's expansion (``"$base/x"``).
_LEADING_VARIABLE = re.compile('"?' + VARIABLE.pattern)
#: Programs that list processes with their command lines (procps 4, psmisc).
_PROCESS_LISTERS = frozenset({"ps", "pgrep", "pstree", "top", "htop", "pidstat", "pkill"})
#: Another process's command line or environment (/proc/PID/cmdline).
_PROC_OF_OTHERS = re.compile(r"/proc/(?!self/)[^/\s\"']+/(?:cmdline|environ)")
#: A glob in a path (it names every file it matches).
_GLOBBED = re.compile(r"[*?\[]")
#: A curl config (or .wgetrc) line that prints the request, credentials
#: included (curl(1), -K: long options without their dashes).
_CONFIG_PRINTING = re.compile(
    r"(?m)(?:^|\\n|['\"])\s*"
    r"(?:-?-?(?:verbose|trace|trace-ascii|write-out|libcurl|debug)|-v)\b"
)
#: A write into the home folder or of a ``.curlrc`` (a redirection, tee,
#: cp, mv, ln, install, dd), or an assignment of where curl looks for one.
_CURLRC_WRITE = re.compile(
    r"(?:>>?|>\||\b(?:tee|cp|mv|ln|install|dd|rsync)\b)[^\n;|&]*"
    r"(?:~|\$\{?HOME\b|\$\{?XDG_CONFIG_HOME\b|\$\{?CURL_HOME\b|curlrc)"
    r"|(?<![A-Za-z0-9_])(?:HOME|CURL_HOME|XDG_CONFIG_HOME)\+?="
)
#: A curl config line that follows redirects (curl(1), -K: one option a
#: line, long ones with or without their dashes; short ones as clusters).
_CONFIG_FOLLOWING = re.compile(
    r"\s*(?:(?:--)?location(?:-trusted)?(?![A-Za-z0-9-])|-[A-Za-z]*L)", re.IGNORECASE
)
#: A printf conversion (bash's printf builtin).
_CONVERSION = re.compile(r"%(?:%|[-+ #0]*[0-9]*(?:\.[0-9]*)?([a-zA-Z]))")


def _printed_lines(program: str, words: Sequence[str]) -> list[str] | None:
    """The lines ``printf`` or ``echo`` with the literal `words` prints
    (printf reuses its format while words are left; only ``%s`` and
    ``%b`` of literal words are followed); None when not shown."""
    if program == "echo":
        if words and words[0].startswith("-"):
            return None  # -e, -n, -E: escapes read or not
        return " ".join(words).split("\n")
    if program != "printf" or not words or words[0].startswith("-"):
        return None
    form, rest = words[0], list(words[1:])
    if any(m.group(1) not in (None, "s", "b") for m in _CONVERSION.finditer(form)):
        return None
    wanted = sum(1 for m in _CONVERSION.finditer(form) if m.group(1))
    out: list[str] = []
    while True:
        taken = iter(rest[:wanted])
        rest = rest[wanted:]
        out.append(_CONVERSION.sub(partial(_converted, values=taken), printf_escapes(form)))
        if not rest or not wanted:
            break
    return "".join(out).split("\n")


def _converted(match: re.Match[str], values: Iterator[str]) -> str:
    """What printf prints for one conversion `match` (``%%``, ``%s`` of the
    next of `values`, ``%b`` of it with its escapes)."""
    if match.group(1) is None:
        return "%"
    value = next(values, "")
    return printf_escapes(value) if match.group(1) == "b" else value


#: The characters that end a URL's authority (RFC 3986, 3.2).
_PATH_STARTS = frozenset("/?#")
#: The characters that make a ``[[ == ]]`` right side a pattern (extglob too).
_GLOB = frozenset("*?[+@!(")
#: Programs that make files (or links, folders) named by their operands
#: (coreutils 9.1): a secret among those operands becomes a name.
_NAMES_FILES = frozenset(
    {"mkdir", "touch", "ln", "cp", "mv", "install", "tee", "truncate", "mkfifo", "mknod"}
)
#: The integer comparisons of test and ``[[ ]]``: a value that is no number
#: is printed in the error (``[: s3cr3t: integer expression expected``).
_INTEGER_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})


def _compares_strings(words: list[str | None]) -> bool:
    """`test`/`[` with these words (None: an expansion) only compares
    strings or tests emptiness, which never print an operand; an integer
    comparison (``-eq``) prints a non-number in its error."""
    operands = [w for w in words if w != "]"]
    return len(operands) <= 4 and not any(w in _INTEGER_TESTS for w in operands)


def _printf_to_variable(src: bytes, node: Node) -> bool:
    args = node.children_by_field_name("argument")
    return bool(args) and static_text(src, args[0]) == "-v"


def _trace_options(args: list[str | None]) -> bool:
    """Whether the options of `set` or of a shell (up to the first operand
    or ``--``) turn tracing on: ``-x``, ``-v`` (also in a cluster) or
    ``-o xtrace``/``verbose``."""
    o_next = False
    for arg in args:
        if arg is None:
            return False
        if o_next:
            if arg in ("xtrace", "verbose"):
                return True
            o_next = False
            continue
        if arg == "--" or not arg.startswith(("-", "+")) or len(arg) < 2:
            return False
        if arg.startswith("-") and ("x" in arg[1:] or "v" in arg[1:]):
            return True
        o_next = arg.endswith("o")
    return False


def _fd_redirect(src: bytes, red: Node) -> tuple[set[int], Node | None, str]:
    """The descriptors a ``file_redirect`` sends to its destination, the
    destination and the operator."""
    descriptor = red.child_by_field_name("descriptor")
    operator = next((node_text(src, c) for c in red.children if not c.is_named), "")
    dest = red.child_by_field_name("destination")
    if operator.startswith("<"):
        return set(), dest, operator
    if operator.startswith("&>"):
        return {1, 2}, dest, operator
    fd = int(node_text(src, descriptor)) if descriptor is not None else 1
    return {fd}, dest, operator


#: A literal file name directly in the run directory.
_RUN_FILE = re.compile(r"\$\{?HARBOR_RUN_DIR\}?/([A-Za-z0-9_][A-Za-z0-9_.-]*)")


def _destination(
    src: bytes,
    node: Node,
    temp_paths: frozenset[str] = frozenset(),
    takes_stdin: Callable[[Node], bool] | None = None,
    calls_of: Callable[[str], list[Node] | None] | None = None,
    depth: int = 0,
    into_file: Callable[[str], None] | None = None,
) -> str | None:
    """Where what `node` (a command) prints on its stdout ends: None when
    nowhere that is recorded or leaves the run (``/dev/null``, a file of
    the run directory, a capture, a program that takes it on its standard
    input as a credential, `takes_stdin`), else a phrase for the finding:
    a program that may print what it reads passes it on. In a function,
    where each of its calls (`calls_of`: all of them, or None) prints."""
    current = node
    for parent in ancestors(node):
        kind = parent.type
        if kind == "function_definition":
            name = parent.child_by_field_name("name")
            calls = (
                calls_of(node_text(src, name))
                if calls_of is not None and name is not None and depth < 4
                else None
            )
            if not calls:
                return "the step's stdout"
            for call in calls:
                found = _destination(
                    src, call, temp_paths, takes_stdin, calls_of, depth + 1, into_file
                )
                if found is not None:
                    return found
            return None
        if kind in ("command_substitution", "process_substitution"):
            # a capture: the follower has what a command prints there, not
            # what a function it calls does
            return None if depth == 0 else "a capture of the function's output"
        if kind == "redirected_statement" and parent.child_by_field_name("body") == current:
            target: Node | None = None
            operator = ""
            for red in parent.children_by_field_name("redirect"):
                if red.type != "file_redirect":
                    continue
                fds, dest, op = _fd_redirect(src, red)
                if 1 in fds:
                    target, operator = dest, op
            if target is not None:
                bare = node_text(src, target).strip('"')
                lead = VARIABLE.match(bare)
                inside = (
                    lead is not None
                    and (lead.group(1) or lead.group(2)) in temp_paths
                    and bare[lead.end() :].startswith("/")
                    and not re.search(r"[$`]|\.\.", bare[lead.end() :])
                )
                if (
                    inside
                    or bare.lstrip("${").rstrip("}") in temp_paths
                    or bare.startswith(("$TMPDIR/", "${TMPDIR}/"))
                ):
                    # a temporary file of the run's own TMPDIR (mktemp), or a
                    # file in such a folder ("$DOCKER_CONFIG/config.json")
                    if into_file is not None:
                        into_file(bare)
                    return None
                found = _file(src, target, operator)
                if found is None and into_file is not None and not operator.startswith(">&"):
                    into_file(bare)  # a file of the run directory's
                return found
        if kind == "pipeline":
            stages = [c for c in parent.children if c.is_named]
            index = next((i for i, s in enumerate(stages) if s == current), None)
            if index is not None and index + 1 < len(stages):
                following = stages[index + 1]
                while following.type in ("list", "pipeline") and following.named_children:
                    # tree-sitter-bash reads `a | b | c || d` as a | (b | c || d);
                    # bash as (a | b | c) || d: a's output goes to b either way
                    following = following.named_children[0]
                if takes_stdin is None or takes_stdin(following):
                    return None  # read as a credential: the program sends it
                body = (
                    following.child_by_field_name("body")
                    if following.type == "redirected_statement"
                    else following
                )
                if body is None:
                    return "the step's stdout"
                found = _destination(src, body, temp_paths, takes_stdin, calls_of, depth, into_file)
                if found is None and body.type == "command" and not _writes_nothing(src, body):
                    # its output discarded, it may keep what it reads in a file
                    # (git hash-object -w --stdin) that a later command prints
                    return "a file the next program may write"
                return found
        current = parent
    return "the step's stdout"


def _file(src: bytes, dest: Node, operator: str) -> str | None:
    raw = node_text(src, dest)
    text = static_text(src, dest)
    if operator.endswith("&") or operator == ">&":
        if text in ("2",):
            return "the step's stderr"
        if text == "-":
            return None
        return "the step's stdout" if text == "1" else f"file descriptor {raw}"
    if text is not None:
        if text == "/dev/null":
            return None
        if text in _PRINTED_FILES or text.startswith("/proc/self/fd/"):
            return f"`{text}`"
        return f"the file `{text}`, outside the run directory"
    bare = raw.strip('"')
    if "HARBOR_STEP_OUTPUT" in bare or "HARBOR_OUTPUT" in bare:
        return "a step output (returned to the caller and given to later steps)"
    for prefix in ("$HARBOR_RUN_DIR/", "${HARBOR_RUN_DIR}/"):
        if bare.startswith(prefix):
            rest = bare[len(prefix) :].lstrip('"')
            first = rest.split("/", 1)[0]
            if first in _RETURNED or not IDENT.fullmatch(first.replace(".", "_").replace("-", "_")):
                return f"`{raw}`, which the caller gets back"
            return None
    return f"the file `{raw}`, which may be outside the run directory"


def _credential_value(program: str, words: Sequence[str | None], at: int) -> bool:
    """The word at `at` of `program`'s `words` is the value of one of its
    credential options (the word after ``-H``, or ``--header=…`` as
    written), which it sends and does not print malformed, as curl prints a
    malformed URL whole."""
    entry = CREDENTIALS.get(program)
    if entry is None:
        return False
    word = words[at]
    if word is not None and word.endswith("=…"):
        return word[: -len("=…")] in entry.options
    before = words[at - 1] if at > 0 else None
    return before is not None and before in entry.options


def _writes_nothing(src: bytes, command: Node) -> bool:
    """The command `command` writes no file, by its grammar's word
    (`grammars.writes_no_file`)."""
    name = _name(src, command)
    if name is None:
        return False
    words = [static_text(src, a) for a in command.children_by_field_name("argument")]
    return writes_no_file(name.rsplit("/", 1)[-1], words)
