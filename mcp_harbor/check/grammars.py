"""Program grammars: the allowlist of where caller data may go.

A program gets caller data only at a position its grammar classes as inert
data. A program with no grammar here (and no ``programs:`` entry that
states ``runs_operands: false``) gets only clean data: clean words, clean
standard input, clean variables in its environment. Nothing here is a list
of dangers: an entry says what a program *is known* to do with each
position, and whatever an entry does not say is not data.

Each entry is one program or one subcommand (``"git log"``), with a line
saying where its facts come from. Positions of a word:

- an **operand** (`Grammar.operands`): ``data`` (printed, compared, a path
  the program reads or writes as data) or ``code`` (a script, a filter, a
  command: caller data is refused there);
- the **value of an option** the grammar lists in `Grammar.value_options`
  (data) or `Grammar.code_options` (code, a program, a file read as code);
  an option the grammar does not list is not a place for caller data;
- **standard input** (`Grammar.stdin`): ``data`` or ``code``;
- the **environment**: the names in `Grammar.env_data` are read as data;
  every other variable passed to the one command is not.

A leading ``-`` in an operand is an option unless the word comes after
``--`` (`Grammar.end_of_options`) or the grammar says options are inert
(`Grammar.dash_inert`: the program's options only change how it prints).

Interpreters (`Grammar.program_options`, `Grammar.script_operand`): the
program text is the value of ``-c``/``-e`` or a script file operand; the
words after it are the program's own arguments (data), and no caller data
may come before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from mcp_harbor.check import _python

__all__ = [
    "GRAMMARS",
    "INERT_GIT_SETTINGS",
    "SUBCOMMANDS",
    "Grammar",
    "awk_code",
    "grammar_key",
    "is_language",
    "normal_program",
    "output_options",
    "writes_no_file",
    "writes_only_named_files",
    "written_operands",
]

#: ``path-code``: an operand that names a file the program runs (a test
#: module): data only when validation keeps it inside a folder of the
#: server's (``within:``), so that it chooses among the author's files.
Position = Literal["data", "code", "path-code"]


@dataclass(frozen=True, slots=True)
class Grammar:
    """What is known of one program's positions (see the module)."""

    #: where the facts come from (a manual page section, a program's help)
    source: str
    operands: Position = "data"
    stdin: Position = "data"
    value_options: frozenset[str] = frozenset()
    code_options: frozenset[str] = frozenset()
    end_of_options: bool = True
    dash_inert: bool = False
    env_data: frozenset[str] = frozenset()
    #: options whose value is the program (``-c``, ``-e``): words after it are data
    program_options: frozenset[str] = frozenset()
    #: the first operand is the program (a script file or the program text)
    script_operand: bool = False
    #: options that take two values (``jq --arg NAME VALUE``)
    pair_options: frozenset[str] = frozenset()
    #: the operands from this one on are a command the program runs
    #: (``docker exec CONTAINER CMD…``: 1); None: no operand is
    command_from: int | None = None
    #: the words after ``--`` are a command the program runs (``kubectl exec``)
    command_after_dashdash: bool = False
    #: options whose value is a file the program reads when it starts with
    #: ``@`` (``curl -d @FILE``, ``-H @FILE``): data only when the value
    #: cannot start with ``@``
    at_files: frozenset[str] = frozenset()
    #: an operand ``NAME=VALUE`` assigns a variable of the program (awk,
    #: make): data only when the value cannot have that shape
    assigning_operands: bool = False
    #: the language's own ways to run text as code or a command (a program
    #: text that uses one may turn its data into code: caller data given to
    #: it as data is refused); None: the program has no program text
    evaluates: str | None = None
    #: the program operand is a file (``python3 tool.py``): a program of
    #: its own, whose words get only clean data unless ``programs:``
    #: describes it
    script_is_file: bool = False
    #: the program reads code from the folder it works in (python's
    #: ``sys.path[0]``, git's ``.git/config`` hooks and fsmonitor): it may
    #: not work in a folder a step may have written
    reads_cwd_code: bool = False
    #: the options that take no value, when the manual's list is complete:
    #: an option outside them and the value options before the program
    #: makes the position of every later word unknown (it may take the next
    #: word); None: options the grammar does not list are taken for flags
    flags: frozenset[str] | None = None
    #: the program text's ways to open its operands with a "magic" open,
    #: which runs a command for a name ending in ``|`` and writes a file
    #: for one starting with ``>`` (perl's ``<>``, ``readline``, ``eof()``)
    magic_open: str | None = None
    #: options that wrap the program in such a loop (perl ``-n``, ``-p``)
    magic_open_options: frozenset[str] = frozenset()
    #: the language's ways to write, move or create a file (and so to put
    #: caller data in the folder it works in); None: not a language
    writes: str | None = None
    #: which operands are URLs, whose host the program connects to: ``all``
    #: (curl, wget: ``example.com`` is ``http://example.com``, so the
    #: scheme and host must be the author's), ``scheme`` (``gh pr view
    #: URL``: one with a scheme, so beside a secret caller data that may
    #: hold a ``:`` must follow the author's host), or none
    url_operands: Literal["all", "scheme", ""] = ""
    #: the operands from this one on are paths it writes (``uniq IN OUT``:
    #: 1); None: it writes no operand
    written_operand: int | None = None
    #: prefixes that make a value (an option's or an operand) name a file
    #: or URL the program reads in its place (aws's ``file://``): data
    #: only when the value cannot start with one (any letter case)
    file_prefixes: tuple[str, ...] = ()
    #: a word starting with ``+`` is an option too (dig's ``+short``,
    #: ``+tls-ca=FILE``): data only where the value cannot start with ``+``
    plus_options: bool = False
    #: code options whose value is a file the program reads as data (and
    #: sends where the author says) or writes (``curl -T FILE``, ``-c
    #: JAR``): the caller may not choose it, but a place of the author's
    #: that a step may write is fine there (what is in it stays data)
    place_options: frozenset[str] = frozenset()
    #: code options whose value is ``NAME=TEXT`` (curl ``-F``): TEXT is a
    #: file the program reads when it starts with ``@`` or ``<``, and ``;``
    #: starts the part's own settings (``;headers=@FILE``); text otherwise
    form_options: frozenset[str] = frozenset()
    #: the program text's ways to read its environment by a name it
    #: computes (awk ``ENVIRON[k]``, jq ``$ENV[$k]``): its data may name a
    #: credential the server passes
    env_lookup: str | None = None
    #: the program text's ways to run text it reads from elsewhere (psql's
    #: ``\gexec`` of a query's rows, PL/pgSQL's ``EXECUTE``): what a store
    #: holds is not shown to be the author's, caller data or not
    runs_stored: str | None = None
    #: code options whose value only chooses the server, the account or the
    #: database the program talks to (psql ``-h``, ``-U``, ``-d``): the
    #: author's, never the program text nor a file it reads or writes
    connection_options: frozenset[str] = frozenset()
    #: the operands from this one on are the program's text, run in turn
    #: (``sqlite3 FILENAME SQL…``: 1); None: no operand is
    program_from: int | None = None
    #: with no operand, every ``$NAME`` of its input is replaced by that
    #: variable's value (envsubst): its data names the environment it prints
    names_env_in_data: bool = False
    #: the characters that may end or escape a quoted literal of the
    #: program's text (SQL: ``'``, ``"``, a backslash, a newline): caller
    #: data standing inside such a literal, whose value holds none of them,
    #: is data there (``where code = '$ARG_code'``); empty: the language's
    #: literals are not read
    literal_ends: frozenset[str] = frozenset()


#: What may end or escape a quoted literal of SQL's text (a string ``'…'``,
#: a quoted name ``"…"``; MySQL's backslash escapes; a newline, after which
#: a line of its own may be a client's command).
_SQL_LITERAL_ENDS = "'\"\\\n"

#: The values aws reads from a file in their place (AWS CLI 2's paramfile:
#: file:// and fileb://; version 1 also fetched http:// and https://, which
#: version 2 does only with cli_follow_urlparam set: the grammar is v2's).
_AWS_PARAMFILES = ("file://", "fileb://")
#: aws's read-only operations (a service's describe-, list- and get-
#: operations ask and print; none of them changes anything).
_AWS_READ = re.compile(r"(?:describe|list|get)-[a-z0-9]+(?:-[a-z0-9]+)*")
#: get- operations whose last operand is a file they write (s3api and
#: mediastore-data get-object OUTFILE, get-object-torrent, glacier
#: get-job-output, kinesis-video-media get-media, kinesis-video-archived-media
#: get-clip, apigateway get-export and get-sdk; ebs get-snapshot-block prints).
_AWS_WRITES_FILE = re.compile(r"get-(?:object|object-torrent|job-output|media|clip|export|sdk)")
#: aws's global options that take no value (aws help, "Global Options").
_AWS_GLOBAL_FLAGS = frozenset(
    {"--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request", "--no-cli-pager",
     "--cli-auto-prompt", "--no-cli-auto-prompt"}
)  # fmt: skip

#: FFmpeg's input protocols (FFmpeg 5.1, ffmpeg-protocols(1) and
#: ``ffprobe -protocols``), each as a value starting with it selects it:
#: the name, then ``:`` (``concat:a|b``), ``,`` (``subfile,,start,…``) or
#: ``+`` (a nested protocol).
_FFMPEG_PROTOCOL_NAMES = (
    "async bluray cache concat concatf crypto data fd ffrtmpcrypt ffrtmphttp file ftp "
    "gopher gophers hls http httpproxy https icecast ipfs ipns librist librtmp librtmpe "
    "librtmps librtmpt librtmpte libsmbclient libsrt libssh libzmq md5 mmsh mmst pipe "
    "prompeg rist rtmp rtmpe rtmps rtmpt rtmpte rtmpts rtp sctp sftp smb srt srtp "
    "subfile tcp tee tls udp udplite unix zmq"
)
_FFMPEG_PROTOCOLS = tuple(
    f"{name}{mark}" for name in _FFMPEG_PROTOCOL_NAMES.split() for mark in ":,+"
)

#: restic's global options whose value chooses where the password goes, runs
#: a command or names a file it reads as settings (restic 0.16 restic --help).
_RESTIC_CODE = (
    "-r --repo --repository-file -o --option --password-command -p --password-file "
    "--cacert --tls-client-cert --cache-dir"
)

#: A sed address (GNU sed 4.9, "Addresses"): numbers, $, first~step,
#: addr1,+N, /regex/ and \%regex% (flags I, M), negated with !, with blanks.
SED_ADDRESS = (
    r"(?:/(?:[^/\\\n]|\\.)*/[IM]*|\\(?P<q>[^\s\\])(?:(?!(?P=q)).)*(?P=q)[IM]*"
    r"|[0-9,$!~+\s])*"
)

#: sed's s command where a command starts (after a separator, an address's
#: end or a blank; not the s of ``[[:space:]]``), up to its flags.
_SED_S = (
    r"(?:^|[;{}\n0-9$/!\s])s(?P<d>[^\s\\\n])(?:(?!(?P=d))[^\\\n]|\\.)*(?P=d)"
    r"(?:(?!(?P=d))[^\\\n]|\\.)*(?P=d)[a-zA-Z0-9]*"
)

#: Other names of programs with a grammar.
_ALIASES = {
    "python": "python3",
    "nodejs": "node",
    "gawk": "awk",
    "mawk": "awk",
    "nawk": "awk",
    "busybox-awk": "awk",
}


def normal_program(name: str) -> str:
    """The grammar name of a program's basename (``python3.11`` → ``python3``)."""
    if name.startswith("python3."):
        return "python3"
    return _ALIASES.get(name, name)


def _g(
    source: str,
    values: str = "",
    *,
    code: str = "",
    operands: Position = "data",
    stdin: Position = "data",
    end: bool = True,
    inert: bool = False,
    env: str = "",
    program: str = "",
    script: bool = False,
    pairs: str = "",
    command_from: int | None = None,
    command_after_dashdash: bool = False,
    at_files: str = "",
    script_file: bool = False,
    assigns: bool = False,
    evaluates: str | None = None,
    flags: str | None = None,
    magic_open: str | None = None,
    magic_open_options: str = "",
    writes: str | None = None,
    urls: Literal["all", "scheme", ""] = "",
    written: int | None = None,
    file_prefixes: tuple[str, ...] = (),
    places: str = "",
    forms: str = "",
    env_lookup: str | None = None,
    runs_stored: str | None = None,
    connection: str = "",
    program_from: int | None = None,
    literal_ends: str = "",
    names_env_in_data: bool = False,
) -> Grammar:
    return Grammar(
        source,
        operands,
        stdin,
        frozenset(values.split()),
        frozenset(code.split()),
        end,
        inert,
        frozenset(env.split()),
        frozenset(program.split()),
        script,
        frozenset(pairs.split()),
        command_from,
        command_after_dashdash,
        frozenset(at_files.split()),
        assigns,
        evaluates,
        script_file,
        flags=None if flags is None else frozenset(flags.split()),
        magic_open=magic_open,
        magic_open_options=frozenset(magic_open_options.split()),
        writes=writes,
        url_operands=urls,
        written_operand=written,
        file_prefixes=file_prefixes,
        place_options=frozenset(places.split()),
        form_options=frozenset(forms.split()),
        env_lookup=env_lookup,
        runs_stored=runs_stored,
        connection_options=frozenset(connection.split()),
        program_from=program_from,
        literal_ends=frozenset(literal_ends),
        names_env_in_data=names_env_in_data,
    )


_COREUTILS = "GNU coreutils 9.1 manual (info coreutils), the program's section"
_BASH = "bash(1) 5.2, SHELL BUILTIN COMMANDS"
_GIT = "git 2.39 git-{sub}(1): OPTIONS; no option listed here runs a command or reads a config"
#: The container engines' subcommands that only print what the daemon (or
#: a registry) holds; podman's take docker's words (podman(1): "a
#: drop-in replacement"), and ``podman healthcheck run`` runs the check
#: the container was made with, whatever its operand names.
_ENGINE_READERS = (
    "image ls",
    "image inspect",
    "image history",
    "manifest inspect",
    "container ls",
    "container inspect",
    "container logs",
)
_DOCKER_READERS = (
    *(f"docker {sub}" for sub in _ENGINE_READERS),
    "docker compose logs",
    "docker compose ps",
)
_PODMAN_READERS = (*(f"podman {sub}" for sub in _ENGINE_READERS), "podman healthcheck run")
#: OpenSSL 3.0 openssl(1): -engine and -provider load shared objects, and a
#: -config file may load them too.
_OPENSSL_CODE = "-engine -provider -provider-path -config -keygen_engine"
_GIT_ENV = (
    "GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME "
    "GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE"
)
_GIT_LOG = (
    "-n --max-count --skip --since --after --until --before --author --committer --grep "
    "--format --pretty --date --decorate-refs --decorate-refs-exclude -S -G --abbrev "
    "--min-parents --max-parents -L --encoding"
)
_KUBECTL = (
    "-n --namespace -l --selector -o --output -c --container --tail --since --context "
    "--field-selector --sort-by --chunk-size --limit-bytes --since-time -L --label-columns"
)

#: Programs whose output is data and whose operands are data paths or text.
_PLAIN = dict.fromkeys(
    [
        *("cat", "ls", "rm", "rmdir", "cp", "mv", "mkdir", "touch", "chmod", "chown", "chgrp"),
        *("ln", "wc", "uniq", "diff", "cmp", "stat", "du", "df", "readlink", "realpath"),
        *("dirname", "basename", "tee", "md5sum", "sha1sum", "sha224sum", "sha256sum"),
        *("sha384sum", "sha512sum", "b2sum", "cksum", "base32", "base64", "nl", "tac", "rev"),
        *("fold", "paste", "join", "comm", "od", "expand", "unexpand", "fmt", "pr", "shuf"),
        *("truncate", "shred", "sleep", "numfmt", "mktemp", "nproc", "whoami", "id", "tsort"),
        *("sum", "unlink", "link", "mkfifo", "dd", "install", "sync", "tty", "uname"),
        *("hostname", "arch", "pwd", "seq", "yes", "factor", "csplit"),
    ],
    _g(_COREUTILS),
)

GRAMMARS: dict[str, Grammar] = {
    **_PLAIN,
    "du": _g(
        _COREUTILS,
        "-d --max-depth -B --block-size -t --threshold --exclude --time-style",
        code="-X --exclude-from --files0-from",
    ),
    "ls": _g(
        _COREUTILS,
        "--sort --format --color --time-style -I --ignore --hide -w --width --block-size "
        "--quoting-style --indicator-style --time",
    ),
    "df": _g(_COREUTILS, "-t --type -x --exclude-type --output -B --block-size"),
    "stat": _g(_COREUTILS, "-c --format --printf"),
    "nl": _g(_COREUTILS, "-v -b -w -s -n -i -l -d -f -h"),
    "uniq": _g(
        _COREUTILS + ": uniq [INPUT [OUTPUT]] writes OUTPUT",
        "-f --skip-fields -s --skip-chars -w --check-chars",
        written=1,
    ),
    "cp": _g(_COREUTILS, "-t --target-directory -S --suffix --backup --sparse --reflink"),
    "mv": _g(_COREUTILS, "-t --target-directory -S --suffix --backup"),
    "ln": _g(_COREUTILS, "-t --target-directory -S --suffix"),
    "mkdir": _g(_COREUTILS, "-m --mode"),
    "install": _g(_COREUTILS, "-m --mode -o --owner -g --group -t --target-directory"),
    "base64": _g(_COREUTILS, "-w --wrap"),
    "base32": _g(_COREUTILS, "-w --wrap"),
    "od": _g(_COREUTILS, "-A -t -N -j -w --address-radix --format --read-bytes"),
    "fold": _g(_COREUTILS, "-w --width"),
    "fmt": _g(_COREUTILS, "-w --width -p --prefix"),
    "shuf": _g(_COREUTILS, "-n --head-count -i --input-range -o --output", code="--random-source"),
    "seq": _g(
        _COREUTILS + "; every option only changes how the numbers print",
        "-f --format -s --separator",
        inert=True,
    ),
    "truncate": _g(_COREUTILS, "-s --size", code="-r --reference"),
    "mktemp": _g(_COREUTILS, "-p --tmpdir --suffix"),
    "paste": _g(_COREUTILS, "-d --delimiters"),
    "join": _g(_COREUTILS, "-t -1 -2 -j -o -e"),
    "expand": _g(_COREUTILS, "-t --tabs"),
    "unexpand": _g(_COREUTILS, "-t --tabs"),
    "numfmt": _g(
        _COREUTILS + "; every option only changes how the numbers are read or print "
        "(none opens a file or runs a command)",
        "--from --to --format --padding --suffix --field -d --delimiter --from-unit "
        "--to-unit --round --invalid",
        inert=True,
    ),
    "pr": _g(_COREUTILS, "-w -l -h --header"),
    "sha256sum": _g(_COREUTILS),
    "wc": _g(_COREUTILS, code="--files0-from"),
    "tee": _g(_COREUTILS),
    "sleep": _g(_COREUTILS),
    "dd": _g("GNU coreutils dd(1): operands are KEY=VALUE settings, never options", inert=True),
    "head": _g(_COREUTILS, "-n --lines -c --bytes"),
    "tail": _g(_COREUTILS, "-n --lines -c --bytes -s --sleep-interval --pid"),
    "cut": _g(_COREUTILS, "-d --delimiter -f --fields -c --characters -b --bytes"),
    "sort": _g(
        _COREUTILS,
        "-t --field-separator -k --key -S --buffer-size -T --temporary-directory -o --output",
        code="--compress-program --files0-from",
    ),
    "tr": _g(_COREUTILS),
    "date": _g(
        _COREUTILS + "; TZ names a time zone rule file (tzset(3)), read as data",
        "-d --date -I --iso-8601 --rfc-3339 -r --reference",
        code="-f --file",
        env="TZ",
    ),
    "touch": _g(_COREUTILS, "-d --date -t", code="-r --reference"),
    "split": _g(_COREUTILS, "-l --lines -b --bytes -C -n -a --additional-suffix", code="--filter"),
    "file": _g("file(1) 5.44", code="-m --magic-file -f --files-from"),
    "echo": _g(_BASH + ": echo (options -n -e -E change only what is printed)", inert=True),
    "printf": _g(_BASH + ": printf (the format is code: checked by the analysis)"),
    "test": _g(_BASH + ": test (operators are compared, never run)", inert=True),
    "[": _g(_BASH + ": [ (operators are compared, never run)", inert=True),
    "true": _g(_BASH, inert=True),
    "false": _g(_BASH, inert=True),
    ":": _g(_BASH, inert=True),
    "exit": _g(_BASH + ": exit (a number)", inert=True),
    "continue": _g(_BASH + ": continue (a number)", inert=True),
    "break": _g(_BASH + ": break (a number)", inert=True),
    "return": _g(_BASH + ": return (a number)", inert=True),
    "shift": _g(_BASH + ": shift (a number)", inert=True),
    "set": _g(
        _BASH + ": set (after -- every word is a positional parameter; -o names a shell option)",
        code="-o +o",
    ),
    "cd": _g(_BASH + ": cd (-P/-L only; CDPATH is not the caller's)"),
    "pushd": _g(_BASH + ": pushd"),
    "popd": _g(_BASH + ": popd", inert=True),
    "logger": _g("util-linux logger(1)", "-t --tag -p --priority -i --id", code="-f --file"),
    "grep": _g(
        "GNU grep 3.8 grep(1)",
        "-e --regexp -m --max-count -A -B -C --after-context --before-context --context "
        "--label --include --exclude --exclude-dir --color --colour -d --directories "
        "-f --file --exclude-from",  # files of patterns or names: data, never run
    ),
    "egrep": _g("GNU grep 3.8 grep(1)", "-e --regexp -m --max-count -A -B -C -f --file"),
    "fgrep": _g("GNU grep 3.8 grep(1)", "-e --regexp -m --max-count -A -B -C -f --file"),
    "rg": _g(
        "ripgrep 13 rg(1)",
        "-e --regexp -g --glob -m --max-count -A -B -C -t --type -T --type-not",
        code="--pre -f --file --ignore-file",
    ),
    "find": _g(
        "GNU findutils 4.9 find(1): starting points, then tests; -exec/-ok/-fprint* "
        "are followed by the analysis",
        "-name -iname -path -ipath -type -maxdepth -mindepth -size -mtime -mmin -newer "
        "-user -group -perm -regex -iregex -wholename -lname -printf",
        code="-exec -execdir -ok -okdir -fprint -fprint0 -fprintf -fls -files0-from",
    ),
    "tar": _g(
        "GNU tar 1.34 tar(1)",
        "-f --file -C --directory --exclude --strip-components",
        code="--to-command -I --use-compress-program --checkpoint-action --rsh-command "
        "-F --info-script --new-volume-script -T --files-from -X --exclude-from",
    ),
    "gzip": _g("gzip(1) 1.12", "-S --suffix"),
    "gunzip": _g("gzip(1) 1.12", "-S --suffix"),
    "zcat": _g("gzip(1) 1.12"),
    "xz": _g("xz(1) 5.4"),
    "bzip2": _g("bzip2(1)"),
    "zip": _g(
        "Info-ZIP zip 3.0 zip -h2: the archive, then paths (names, or @ list files) taken "
        "anywhere unless after --; -TT/--unzip-command runs a command to test the archive",
        "-b --temp-path -t --from-date -tt --before-date -n --suffixes -Z --compression-method "
        "-O --out --output-file -P --password -s --split-size -ds --dot-size -lf "
        "--logfile-path",
        code="-TT --unzip-command",
    ),
    "yq": _g(
        "yq 3 (Debian python3-yq, kislyuk) yq(1): jq's grammar over YAML read with a safe "
        "loader; the first operand is the jq filter (code) unless -f, later operands are "
        "files; -i edits them in place",
        "--indent --tab -w --width --max-expansion-factor",
        code="-f --from-file -L",
        script=True,
        pairs="--arg --argjson --slurpfile --rawfile",
        flags="-r -j -a -c -n -e -s -S -C -M -R --raw-output --join-output --ascii-output "
        "--compact-output --null-input --exit-status --slurp --sort-keys --raw-input --seq "
        "-y --yaml-output -Y --yaml-roundtrip --indentless-lists --explicit-start "
        "--explicit-end --expand-aliases -i --in-place",
    ),
    "jq": _g(
        "jq 1.6 manual: the first operand is the filter (code) unless -f; --arg/--argjson "
        "bind data to $names; later operands are files, or with --args/--jsonargs strings "
        "(JSON texts) in $ARGS.positional",
        "--indent --tab",
        code="-f --from-file -L",
        script=True,
        pairs="--arg --argjson --slurpfile --rawfile",
        flags="-r -j -a -c -n -e -s -S -C -M -R --raw-output --join-output --ascii-output "
        "--compact-output --null-input --exit-status --slurp --sort-keys --raw-input --seq "
        "--args --jsonargs",
        # $ENV, or the env builtin (not $env, an object's key or a field),
        # but for a literal field ($ENV.HOME)
        env_lookup=r"\$ENV\b(?!\s*\.\s*[A-Za-z_])|(?<![$\w.\"])env\b(?!\s*[:.\"])",
    ),
    "curl": _g(
        "curl 7.88 curl(1): only these options (--form-string's value is text: no @file, "
        "no <file); URLs are checked by the analysis",
        "-H --header -d --data --data-raw --data-urlencode --data-binary -X --request "
        "-m --max-time --connect-timeout -A --user-agent -e --referer -u --user --retry "
        "-w --write-out --json --url-query -o --output -D --dump-header --form-string",
        code="-K --config -T --upload-file -b --cookie -c --cookie-jar "
        "--proto-redir --unix-socket --trace --trace-ascii -F --form --netrc-file",
        at_files="-d --data --data-binary --data-urlencode -H --header -w --write-out "
        "--json --url-query",
        urls="all",
        # what it uploads to the author's URL, the cookies and netrc it reads
        # (only for the hosts they name), the files it writes
        places="-T --upload-file -b --cookie -c --cookie-jar --trace --trace-ascii --netrc-file",
        forms="-F --form",
    ),
    "awk": _g(
        "POSIX awk / gawk 5.2 gawk(1): the program is the first operand unless -f; -v "
        "values are strings; later operands are files or NAME=value strings",
        "-v -F --field-separator --assign",
        code="-f --file -i --include -l --load -E --exec",
        program="-e --source",
        script=True,
        assigns=True,
        # system, pipes, getline, and gawk's @ forms: @load, @include, and an
        # indirect call (f = $1; @f(x): a function, system too, data names)
        evaluates=r"\bsystem\b|(?<!\|)\|(?!\|)|\bgetline\s*[^;}\n]*<|@\s*[A-Za-z_]|\bextension\b",
        # print > FILE, print | CMD (a command may write), close, inplace
        writes=r"\bprintf?\b[^;{}\n]*[>|]|\bfflush\b|\bclose\b|@|\binplace\b",
        # ENVIRON[k] with a key that is not a string literal
        env_lookup=r"\bENVIRON\s*\[\s*(?!\")",
        env="*",
        flags="-b -c -C -d -D -g -h -M -N -O -p -P -r -s -S -t -V --posix --traditional",
    ),
    "sed": _g(
        "GNU sed 4.9 sed(1): the script is the first operand unless -e/-f; later operands "
        "are files",
        code="-e --expression -f --file",
        script=True,
        program="-e --expression",
        # the e command after any address (1e, /re/e, 1~2e, 0,/x/e, $!e),
        # and the e flag of s///, run the pattern space
        evaluates=rf"(?:^|[;{{}}\n])\s*{SED_ADDRESS}e\b"
        rf"|{_SED_S}e",
        # w FILE, W FILE after any address (GNU sed: the file name may follow
        # with no blank, 1wout), and the s command's w flag
        writes=rf"(?:^|[;{{}}\n])\s*{SED_ADDRESS}[wW](?:\s|[^/\s;}}])"
        rf"|{_SED_S}w",
        # (-i and --in-place take their suffix attached or none: never the next word)
        flags="-n --quiet --silent -E -r --regexp-extended -s --separate -u -z --null-data "
        "--posix --debug --sandbox -i --in-place",
    ),
    "python3": _g(
        "python3(1) 3.11: -c CMD or a script file is the program; sys.argv after it is data",
        "-W -X --check-hash-based-pycs",
        code="-m",
        program="-c",
        script=True,
        script_file=True,
        env="*",
        evaluates=r"\b(?:eval|exec|execv\w*|(?<!py_compile\.)compile|__import__|"
        r"importlib(?!\.metadata)|subprocess|system|"
        r"popen|spawn\w*|pickle|marshal|ctypes|getattr|runpy|pty|builtins|breakpoint)\b",
        # open(…) with a second argument (a mode) may write
        writes=r"\bopen\s*\([^(),]*(?:\([^()]*\)[^(),]*)*,|"
        r"\bos\.(?!environ\b|getenv\b|getcwd\b|sep\b|linesep\b|listdir\b|scandir\b|stat\b|"
        r"path\.(?:exists|isfile|isdir|join|basename|dirname|getsize|splitext|abspath|"
        r"realpath|normpath|relpath)\b)|\bfrom\s+os\b|"
        r"\bsqlite3\.connect\s*\((?!\s*[\"'](?::memory:|file:[^\"']*mode=ro))|"
        r"\bfrom\s+sqlite3\b|\bpy_compile\.compile\((?![^)]*cfile\s*=\s*[\"']/dev/null)|"
        r"\b(?:shutil|pathlib|Path|tarfile|zipfile|dbm|shelve|"
        r"logging|tempfile|fileinput|gzip|bz2|lzma|io|codecs|mmap|configparser|"
        r"wave|compileall|venv|ensurepip|pip|setattr|globals|vars)\b",
        flags="-b -B -d -E -h -i -I -O -OO -P -q -s -S -u -v -V -x --help --version",
    ),
    "node": _g(
        "node(1) 18: -e/-p/--eval/--print or a script file is the program; "
        "process.argv after it is data",
        "--title --stack-size --input-type --conditions -C",
        code="-r --require --import --loader",
        program="-e --eval -p --print",
        script=True,
        script_file=True,
        env="*",
        # require of a literal core module that loads no code by name (node 18
        # API docs: fs, path, os, util, url, querystring, crypto, zlib,
        # string_decoder, readline, assert, events) is no way to run data
        # (and the ways to reach any of them by a computed name: the global
        # object, process, this, Reflect, module: globalThis[name](code))
        evaluates=r"\b(?:eval|Function|import|child_process|vm|binding|setTimeout|"
        r"setInterval|execSync|exec|spawn\w*|constructor|globalThis|global|Reflect|module|"
        r"dlopen|mainModule|__proto__)\b|\b(?:process|this|self)\s*\[|"
        # an escape spells any name in an identifier (\u0065val is eval;
        # ECMA-262, "Names and Keywords"): the names above are not read there
        r"\\u[0-9A-Fa-f{]|"
        r"\brequire\b(?!\s*\(\s*([\"'])(?:node:)?(?:fs|path|os|util|url|querystring|crypto|"
        r"zlib|string_decoder|readline|assert|events)\1\s*\))",
        # fs's functions that create, change or remove files (fs.readFileSync
        # only reads)
        writes=r"\b(?:write\w*|append\w*|open\w*|rename\w*|copy\w*|mkdir\w*|"
        r"symlink\w*|link\w*|cp\w*|rm\w*|globalThis|module)\b",
        # process.env read by a name the program computes, or handed on whole
        # (Node.js 18 process.env): not process.env.NAME nor process.env["NAME"]
        env_lookup=r"\bprocess\s*\.\s*env\b(?!\s*\.\s*[A-Za-z_$]|\s*\[\s*(['\"`])[^'\"`$]*\1\s*\])",
        flags="--no-warnings --enable-source-maps -v --version -h --help --trace-warnings "
        "--inspect --experimental-vm-modules --no-deprecation --preserve-symlinks "
        "--throw-deprecation --trace-deprecation --pending-deprecation -c --check",
    ),
    "perl": _g(
        "perlrun(1) 5.36: -e/-E or a script is the program; @ARGV after it is data, but "
        "<> opens it (checked by the analysis)",
        code="-M -m -I -x",
        program="-e -E",
        script=True,
        script_file=True,
        env="*",
        # perlfunc(1): eval, system, exec, qx and readpipe (its function
        # form), open's pipes, do FILE, require, syscall; perlop(1): s///e;
        # perlref(1)/perlobj(1): a sub or a method named by a value
        evaluates=r"\b(?:eval|system|exec|qx|readpipe|open|do|require|use|syscall|can)\b|`|"
        r"&\s*[$\{]|->\s*\$|/[a-z]*e[a-z]*\s*(?:;|$|\})",
        # <>, <ARGV>, readline and eof() open the operands with perl's
        # 2-argument open ("cmd|" runs cmd); -n, -p, -a and -F wrap the
        # program in `while (<>)`
        magic_open=r"(?<!<)<\s*(?:ARGV)?\s*>(?!>)|\breadline\b(?!\s*\(?\s*(?:\$|\*?(?!ARGV\b)\w))"
        r"|\beof\s*\(\s*\)",
        magic_open_options="-n -p -a -F",
        writes=r"\b(?:open|sysopen|rename|link|symlink|mkdir|unlink|utime|chmod|truncate|"
        r"File|IO)\b",
        # perlvar(1) %ENV: $ENV{…} by a name the program computes, or %ENV
        # handed on whole (keys, each, a copy); not $ENV{NAME} nor $ENV{'NAME'}
        env_lookup=r"%ENV\b|\$ENV\s*\{(?!\s*(?:[A-Za-z_]\w*|'[^']*'|\"[^\"$@]*\")\s*\})",
        flags="-w -W -X -n -p -a -l -s -t -T -c -v -i -0 -F -C -g -U -S -u",
    ),
    "git": _g(_GIT.format(sub="") + " (no subcommand: --version, --help)", inert=True),
    **{
        f"git {sub}": _g(_GIT.format(sub=sub), values, env=_GIT_ENV)
        for sub, values in {
            "log": _GIT_LOG,
            "shortlog": _GIT_LOG,
            "show": _GIT_LOG,
            "whatchanged": _GIT_LOG,
            "diff": "-U --unified --stat --diff-filter --relative -M -C --src-prefix --dst-prefix",
            "diff-tree": "-U --unified --stat --diff-filter --relative -M -C --format --pretty",
            "status": "-u --untracked-files --ignore-submodules",
            "blame": "-L -S --since --date",
            "cherry": "",
            "rev-parse": "--short --abbrev-ref --default",
            "rev-list": _GIT_LOG,
            "ls-files": "-x --exclude --exclude-per-directory",
            "ls-tree": "--abbrev --format",
            "ls-remote": "",
            "grep": "-e -m --max-count -A -B -C --max-depth --threads",
            "branch": "--contains --no-contains --merged --no-merged --sort --format --points-at",
            "tag": "--contains --no-contains --merged --no-merged --sort --format "
            "--points-at -m --message",
            "describe": "--abbrev --match --exclude --candidates",
            "cat-file": "",
            "merge-base": "",
            "name-rev": "--refs --exclude",
            "for-each-ref": "--format --sort --count --contains --points-at --merged",
            "show-ref": "",
            "count-objects": "",
            "checkout": "-b -B",
            "switch": "-c -C --create --force-create",
            "add": "",
            "rm": "",
            "mv": "",
            "restore": "-s --source",
            "reset": "",
            "commit": "-m --message --author --date",
            "fetch": "--depth --deepen --shallow-since --shallow-exclude",
            "pull": "--depth",
            "clone": "--depth -b --branch --origin -o --shallow-since",
            "init": "-b --initial-branch",
            "stash": "-m --message",
            "notes": "-m --message",
            "remote": "",
            "version": "",
        }.items()
    },
    **{
        f"kubectl {sub}": _g(
            "kubectl 1.28 kubectl-" + sub + "(1): runs nothing it is given", _KUBECTL
        )
        for sub in ("get", "describe", "logs", "top", "explain", "version")
    },
    **{
        f"docker {sub}": _g(
            "docker 24 docker-" + sub + "(1): runs nothing it is given",
            "-f --filter --format --tail --since --until -n --last",
        )
        for sub in (
            "ps",
            "logs",
            "inspect",
            "images",
            "version",
            "info",
            "stats",
            "port",
            "history",
        )
    },
    **{
        f"kubectl {sub}": _g(
            "kubectl 1.28 kubectl-" + sub + "(1): resource names, counts and images are data",
            _KUBECTL + " --timeout --replicas --current-replicas --overwrite --image -f --filename",
        )
        for sub in ("scale", "set", "label", "annotate", "delete", "wait", "cordon", "uncordon")
    },
    "kubectl rollout": _g(
        "kubectl 1.28 kubectl-rollout(1)", _KUBECTL + " --timeout --revision --to-revision"
    ),
    "kubectl port-forward": _g(
        "kubectl 1.28 kubectl-port-forward(1): the resource and the ports are data",
        _KUBECTL + " --address --pod-running-timeout",
    ),
    **{
        f"{engine} {sub}": _g(
            f"{engine} 24 {engine}-{sub}(1): the user is data; the password comes on stdin or "
            "after -p, and goes to the registry, the operand (the author's)",
            "-u --username -p --password",
            flags="--password-stdin",
            operands="code",
        )
        for engine in ("docker", "podman")
        for sub in ("login", "logout")
    },
    **{
        f"{engine} {sub}": _g(
            f"{engine} 24 {engine}-{sub}(1): names, tags and filters are data; nothing runs",
            "-f --filter --format --tail --since --until -n --last -t --tag --build-arg "
            "--label --platform -a --all-tags",
            code="--file --build-context --secret --ssh",
        )
        for engine in ("docker", "podman")
        for sub in (
            *("ps", "logs", "inspect", "images", "version", "info", "stats", "port", "pull"),
            *("push", "tag", "rmi", "stop", "kill", "rm"),
        )
    },
    **{
        f"systemctl {sub}": _g(
            "systemd 252 systemctl(1): unit names are data", "-n --lines -o --output -p"
        )
        for sub in (
            "status",
            "show",
            "is-active",
            "is-enabled",
            "is-failed",
            "cat",
            "list-units",
            "list-dependencies",
            "list-timers",
            "list-unit-files",
        )
    },
    # starting a unit or a container runs the program it names: a program position
    **{
        key: _g(
            "systemd 252 systemctl(1) / docker 24: the unit or container named is run",
            operands="code",
        )
        for key in (
            *("systemctl start", "systemctl restart", "systemctl reload", "systemctl stop"),
            *("docker start", "docker restart", "podman start", "podman restart"),
        )
    },
    **{
        f"{engine} build": _g(
            f"{engine} 24 {engine}-build(1): the context operand chooses the Dockerfile that "
            "runs (code); tags, labels and build args are data",
            "-t --tag --build-arg --label --platform --target --iidfile --progress",
            code="-f --file --build-context --secret --ssh --network",
            operands="code",
        )
        for engine in ("docker", "podman")
    },
    "git archive": _g(
        _GIT.format(sub="archive"), "--format --prefix -o --output", code="--exec --remote"
    ),
    "git push": _g(
        _GIT.format(sub="push"), "--push-option -o", code="--receive-pack --exec --repo"
    ),
    "wget": _g(
        "GNU wget 1.21 wget(1): only these options; URLs are checked by the analysis",
        "-O --output-document -T --timeout -t --tries --header -U --user-agent -P "
        "--directory-prefix",
        code="-e --execute -i --input-file --config --post-file --load-cookies",
        urls="all",
    ),
    "unzip": _g("Info-ZIP unzip(1)", "-d -x"),
    "dig": replace(
        _g(
            "BIND 9 dig(1): names, types and @server are data; a word starting with + is a "
            "query option",
            "-t -c -p -q -x",
            code="-f -k",
        ),
        plus_options=True,
    ),
    "host": _g("BIND 9 host(1)", "-t -c -W"),
    "kdig": replace(
        _g(
            "Knot DNS 3.2 kdig(1): names, types, classes and @server are data; a word "
            "starting with + is a query option; -k reads a TSIG key file, -E writes a dnstap "
            "file, -G reads one",
            "-b -c -p -q -t -x -y",
            code="-k -E -G",
        ),
        plus_options=True,
    ),
    "ffprobe": _g(
        "FFmpeg 5.1 ffprobe(1) and ffmpeg-protocols(1): the input is data unless it starts "
        "with a protocol's name and `:`, `,` or `+` (libavformat url_find_protocol: "
        "concat:, subfile, http:, pipe:, fd: read other files or the network); -f chooses "
        "a demuxer (lavfi reads a filter graph), -o writes",
        "-v -loglevel -show_entries -of -print_format -output_format -select_streams "
        "-read_intervals -sections -probesize -analyzeduration -show_data_hash -i",
        code="-f -o -protocol_whitelist -protocol_blacklist -report -dump_separator",
        file_prefixes=_FFMPEG_PROTOCOLS,
    ),
    "ausearch": _g(
        "audit 3.0 ausearch(8): every option's value is a criterion (data); -ts/-te take a "
        "date and an optional time word; -if reads another log, --checkpoint writes a file",
        "-a --event --arch -c --comm -e --exit --format -ga --gid-all -ge --gid-effective "
        "-gi --gid -hn --host -k --key -m --message -n --node -o --object -p --pid -pp "
        "--ppid -sc --syscall -se --context --session -su --subject -sv --success -te --end "
        "-ts --start -tm --terminal -ui --uid -ue --uid-effective -ua --uid-all -ul "
        "--loginuid -uu --uuid -vm --vm-name -w --word -x --executable -f --file",
        code="-if --input --checkpoint",
    ),
    "getenforce": _g("libselinux 3.4 getenforce(8): no options or operands", flags=""),
    "sestatus": _g("policycoreutils 3.4 sestatus(8): reads /etc/sestatus.conf", flags="-v -b"),
    "msgfmt": _g(
        "GNU gettext 0.21 msgfmt(1): operands are PO files read as data; -o writes, "
        "--java/--csharp run a compiler on what it writes",
        "-D --directory -l --locale -a --alignment -r --resource --source --template --keyword -k",
        code="-o --output-file -d --java --java2 --csharp --csharp-resources --tcl --qt "
        "--desktop --xml",
    ),
    **{
        name: _g(
            "zstd 1.5 zstd(1): operands are files read as data (or written with -d); -o and "
            "--output-dir-* write, --filelist names the files to read",
            "-T --threads -B --memory -M --format --target-compressed-block-size "
            "--stream-size --size-hint -L --long",
            code="-o --output-dir-flat --output-dir-mirror --filelist -D --patch-from",
            env="ZSTD_CLEVEL ZSTD_NBTHREADS",
        )
        for name in ("zstd", "zstdcat", "unzstd")
    },
    "ldapsearch": _g(
        "OpenLDAP 2.5 ldapsearch(1): the filter and attribute names are data sent to the "
        "server; -H chooses the server the bind credentials go to, -f reads filters and -y "
        "the password from files, -T writes files",
        "-b -s -a -l -z -D -P -e -E -o -O -U -R -X -Y -p -h",
        code="-H -f -y -T -w",
        places="-y -T",  # the password it sends to the author's server, files it writes
    ),
    "ldapwhoami": _g(
        "OpenLDAP 2.5 ldapwhoami(1): it only binds and prints the identity; -H chooses the "
        "server the bind credentials go to, -y reads the password from a file",
        "-D -e -E -o -O -U -R -X -Y -p -h",
        code="-H -y -w",
        places="-y",  # the password it sends to the author's server
        operands="code",  # it takes none
    ),
    "rsync": _g(
        "rsync 3.2 rsync(1): only these options; HOST:PATH operands are data",
        "--exclude --include --chmod --max-size --min-size --bwlimit",
        code="-e --rsh --rsync-path --filter -f --exclude-from --include-from --files-from "
        "--password-file --log-file --write-batch --read-batch --config",
    ),
    "kubectl exec": _g(
        "kubectl 1.28 kubectl-exec(1): the pod is data; the words after -- are the command",
        _KUBECTL,
        command_after_dashdash=True,
    ),
    **{
        f"{engine} exec": _g(
            f"{engine} 24 {engine}-exec(1): the container is data; the words after it are the "
            "command",
            "-u --user -w --workdir -e --env",
            code="--env-file",
            command_from=1,
        )
        for engine in ("docker", "podman")
    },
    **{
        f"helm {sub}": _g(
            f"helm 3.13 helm-{sub}(1): values (--set-string, --set, --values files) are data "
            "the chart's templates render; the chart and release operands, a post-renderer, a "
            "repository and the files --set-file reads are the author's",
            "-n --namespace --set-string --set --values -f --version --kube-version "
            "--api-versions -a --kube-context --name-template",
            code="--post-renderer --post-renderer-args --repo --output-dir --set-file "
            "--set-json --ca-file --cert-file --key-file --kubeconfig --username --password",
            operands="code",
            flags="--strict --with-subcharts --include-crds --skip-tests --validate "
            "--skip-crds --debug --quiet",
        )
        for sub in ("template", "lint")
    },
    **{
        f"helm {sub}": _g(
            f"helm 3.13 helm-{sub}(1): release names and revisions are data",
            "-n --namespace -o --output --revision --max --kube-context",
        )
        for sub in ("status", "history", "list", "version")
    },
    **{
        f"helm get {sub}": _g(
            f"helm 3.13 helm-get-{sub}(1): the release name and revision are data",
            "-n --namespace -o --output --revision --kube-context --template",
            code="--template",
        )
        for sub in ("values", "manifest", "notes", "hooks", "metadata")
    },
    "ping": _g("iputils ping(8): the host and counts are data", "-c -i -W -w -s -t -I -Q -m -l"),
    "openssl s_client": _g(
        "OpenSSL 3.0 openssl-s_client(1): host:port and names are data",
        "-connect -servername -port -host -verify -CAfile -cert -key -proxy",
    ),
    "openssl x509": _g(
        "OpenSSL 3.0 openssl-x509(1)",
        "-in -out -inform -outform -dates -subject -enddate",
        code=_OPENSSL_CODE,
    ),
    "openssl pkey": _g(
        "OpenSSL 3.0 openssl-pkey(1): it reads a key (-in FILE or stdin) and prints it, its "
        "public part or its text; -passin/-passout name a password source (env:, file:, "
        "fd:), which it reads",
        "-in -out -inform -outform -cipher",
        code=_OPENSSL_CODE + " -passin -passout",
    ),
    "openssl verify": _g(
        "OpenSSL 3.0 openssl-verify(1): it verifies the certificates its operands name "
        "against the trust options' files and prints the verdict; no option writes a file",
        "-CAfile -CApath -CAstore -untrusted -trusted -CRLfile -purpose -verify_hostname "
        "-verify_email -verify_ip -attime -verify_depth -auth_level -policy -nameopt "
        "-verify_name",
        code=_OPENSSL_CODE,
    ),
    "openssl dgst": _g(
        "OpenSSL 3.0 openssl-dgst(1): it digests, signs or verifies its files or stdin and "
        "prints the result; keys, signatures and MAC options are data",
        "-sign -verify -prverify -signature -hmac -mac -macopt -sigopt -out -keyform -passin "
        "-propquery -rand -writerand",
        code=_OPENSSL_CODE,
    ),
    "openssl pkeyutl": _g(
        "OpenSSL 3.0 openssl-pkeyutl(1): it signs, verifies, encrypts or derives with keys "
        "from files; every file option is data",
        "-in -out -inkey -sigfile -peerkey -pkeyopt -pkeyopt_passin -passin -keyform "
        "-peerform -digest -kdf -kdflen -propquery -rand -writerand",
        code=_OPENSSL_CODE,
    ),
    "openssl rand": _g(
        "OpenSSL 3.0 openssl-rand(1): the count is data",
        "-out -rand -writerand",
        code=_OPENSSL_CODE,
    ),
    "openssl version": _g("OpenSSL 3.0 openssl-version(1)"),
    "python3 -m json.tool": _g(
        "python3 3.11 json.tool: operands are files (INFILE, then OUTFILE, written), options "
        "only format",
        "--indent",
        written=1,
    ),
    "python3 -m pip wheel": _g(
        "pip 23 pip wheel --help: its operands are projects it builds (their build "
        "backend runs) or requirements it fetches; -r/-c name files of requirements and "
        "options; -w/--wheel-dir is the folder it writes the wheels in",
        "--no-binary --only-binary",
        code="-w --wheel-dir -r --requirement -c --constraint -i --index-url "
        "--extra-index-url -f --find-links --src --cache-dir",
        places="-w --wheel-dir",  # the folder it writes
        operands="path-code",
        flags="--no-deps --no-build-isolation --no-index --pre -q --quiet -v --verbose "
        "--no-cache-dir --disable-pip-version-check --no-clean --prefer-binary "
        "--require-hashes",
    ),
    "python3 -m pytest": _g(
        "pytest 7.4 pytest --help: -k/-m expressions are pytest's own matcher, never Python; "
        "path operands are code (conftest.py, test modules)",
        "-k -m --maxfail --tb --junitxml",
        # -o sets an ini option (addopts: -p loads a plugin), -p loads one
        code="-p -c -o --override-ini --confcutdir --rootdir --pyargs",
        operands="path-code",
    ),
    "psql": _g(
        "PostgreSQL 15 psql(1): the SQL is -c's value or standard input; -v NAME=VALUE sets a "
        "variable that the SQL reads as a quoted literal only as :'NAME' (or :\"NAME\", an "
        "identifier), while a bare :NAME and every backslash command (\\! runs a shell, \\o "
        "|cmd, \\gexec, \\copy … program) runs text: the analysis reads the SQL for them",
        "-v --variable --set -F --field-separator -R --record-separator -T --table-attr",
        # the server, the database (a connection string: host=, sslkey=…),
        # the pager and the files it reads, writes or pipes to: the author's
        code="-f --file -o --output -L --log-file -d --dbname -h --host -p --port -P --pset "
        "-U --username",
        places="-o --output -L --log-file",  # files it writes (a path never starts with |)
        connection="-d --dbname -h --host -p --port -U --username",
        literal_ends=_SQL_LITERAL_ENDS,
        program="-c --command",
        operands="code",  # DBNAME may be a connection string (host=…, service=…)
        stdin="code",
        end=False,
        # a bare :NAME pastes the value into the SQL; a backslash anywhere
        # may be a meta-command (\!, \o |cmd, \gexec, \set, \i …); SQL's
        # own ways to run a text (PostgreSQL 15: COPY … PROGRAM, EXECUTE,
        # DO and $$-quoted bodies, query_to_xml*, ts_stat and ts_rewrite's
        # query text, dblink*) and to read or write a file of the server's
        # by a name in the data (COPY … FROM/TO 'file', the generic file
        # access functions pg_read_file, pg_read_binary_file, pg_stat_file,
        # pg_ls_*, adminpack's pg_file_*, lo_import, lo_export), whatever
        # their case
        evaluates=r"\\|(?<!:):(?![:'\"{])[A-Za-z_]|\$[A-Za-z_]*\$|(?i:\b(?:program|execute|do"
        r"|query_to_xml\w*|ts_stat|ts_rewrite|dblink\w*|pg_read_\w*|pg_stat_file|pg_ls_\w+"
        r"|pg_file_\w+|lo_import|lo_export)\b|\bcopy\b[^;]*?\b(?:from|to)\s+(?:'|:))",
        # every backslash command may write (\o, \w, \g FILE, \copy … to, \s),
        # and COPY … TO / lo_export write on the server's host
        writes=r"\\|(?i:\bcopy\b|\blo_export\b)",
        runs_stored=r"\\gexec\b|(?i:\bexecute\b)",
        flags="-X --no-psqlrc -A --no-align -t --tuples-only -q --quiet -x --expanded -e "
        "--echo-queries -a --echo-all -b --echo-errors -E --echo-hidden -n --no-readline -H "
        "--html -S --single-line -s --single-step -w --no-password -W --password -1 "
        "--single-transaction -z --field-separator-zero -0 --record-separator-zero --csv",
    ),
    "envsubst": _g(
        "GNU gettext envsubst(1): the operand names the variables to substitute; it prints "
        "its standard input with their values (data, never run); with no operand, every "
        "$NAME of its input (any variable of its environment, a passed credential among them)",
        env="*",
        names_env_in_data=True,
    ),
    "getent": _g(
        "glibc getent(1): a database name, then keys; -s names an NSS module (a library)",
        code="-s --service",
    ),
    "git var": _g(_GIT.format(sub="var"), env=_GIT_ENV),
    **{
        key: _g(
            f"docker 24 docker-{key.split(' ', 1)[1].replace(' ', '-')}(1): names and "
            "filters are data; nothing runs",
            "-f --filter --format -n --last",
        )
        for key in _DOCKER_READERS
    },
    **{
        key: _g(
            f"podman 4 podman-{key.split(' ', 1)[1].replace(' ', '-')}(1): names and "
            "filters are data; nothing runs that the words give",
            "-f --filter --format -n --last",
        )
        for key in _PODMAN_READERS
    },
    **{
        f"python3 -m pip {sub}": _g(
            f"pip 23 pip-{sub}: package names are data (nothing is installed or built)",
            "--format",
        )
        for sub in ("show", "list", "freeze", "index")
    },
    "python3 -m tarfile": _g(
        "python3 3.11 tarfile command line: -l/-t list, -e extract (paths are data)",
        "-l --list -e --extract -c --create -t --test",
    ),
    **{
        f"npm {sub}": _g(
            f"npm 9 npm-{sub}(1): package specs are data (nothing is installed or run); "
            "--registry is where it sends the token",
            "--json",
            code="--registry",
        )
        for sub in ("view", "info", "ls", "outdated", "search")
    },
    "pg_dump": _g(
        "PostgreSQL 15 pg_dump(1): names and patterns are data; the server (-h, -p, and -d, "
        "a connection string) is where it sends the password",
        "-t --table -T --exclude-table -n --schema -N --exclude-schema -f --file -F "
        "--format -U --username -Z --compress -j --jobs --lock-wait-timeout",
        code="-d --dbname -h --host -p --port",
        operands="code",  # DBNAME may be a connection string (host=…, sslkey=…)
    ),
    "mysql": _g(
        "MySQL 8.0 mysql(1): the SQL is -e's value or standard input; the server (-h, -P, -S, "
        "the defaults files) is where it sends the password; the operand is the database",
        code="-h --host -P --port -S --socket -u --user -D --database --defaults-file "
        "--defaults-extra-file --init-command --login-path --plugin-dir --pager --tee",
        connection="-h --host -P --port -S --socket -u --user -D --database",
        literal_ends=_SQL_LITERAL_ENDS,
        program="-e --execute",
        operands="code",
        stdin="code",
        end=False,
        # mysql's own commands: system (\!), source (\.), pager, tee, connect;
        # and the server's files by a name in the data (LOAD_FILE(), LOAD
        # DATA INFILE, SELECT … INTO OUTFILE or DUMPFILE), whatever their case
        evaluates=r"\\|\b(?:system|source|pager|tee|connect)\b"
        r"|(?i:\b(?:load_file|infile|outfile|dumpfile)\b)",
        writes=r"\\|\b(?:tee|outfile|dumpfile|system|pager)\b",
        flags="-B --batch -N --skip-column-names -s --silent -t --table -E --vertical -r "
        "--raw -X --xml -H --html --column-names",
    ),
    "sqlite3": _g(
        "SQLite 3.40 sqlite3(1), the CLI's .help and its built-in extensions (fileio, "
        "zipfile, sqlar, shathree): sqlite3 [OPTIONS] FILENAME [SQL...]; the first operand "
        "is the database (a file it opens, whose schema's views and triggers run), the others "
        "are SQL or dot-commands run in turn, else standard input is; -cmd runs a command "
        "first and -init a file of them; dot-commands (.shell, .system, .output, .once, "
        ".import, .read, .load, .open, .backup, .save) run programs, read and write files, "
        "as readfile(), writefile(), edit(), lsdir(), zipfile, sqlar_*, sha3_query(), "
        "load_extension(), ATTACH and VACUUM INTO do; -readonly opens the database read-only",
        "-separator -newline -nullvalue -mmap -pagecache -lookaside -vfs -maxsize -heap",
        code="-cmd -init",
        operands="code",
        stdin="code",
        end=False,
        program_from=1,
        literal_ends=_SQL_LITERAL_ENDS,
        # a line that starts with a dot is a dot-command; the functions and
        # statements that run SQL text, load code, run a program or touch a
        # file, whatever their case (in the view without the literals)
        evaluates=r"(?m)^\s*\.|(?i:\b(?:load_extension|readfile|writefile|edit|lsdir|fsdir"
        r"|zipfile\w*|sqlar_\w+|sha3_query|fts3_tokenizer|shell_\w+|eval|attach|vacuum)\b)",
        writes=r"(?m)^\s*\.|(?i:\b(?:writefile|edit|zipfile\w*|sqlar_\w+|attach|vacuum)\b)",
        flags="-readonly -safe -header -noheader -csv -json -line -list -column -box "
        "-markdown -table -html -quote -tabs -ascii -batch -bail -echo -interactive "
        "-nofollow -stats -memtrace -append -deserialize -zip -version -help",
    ),
    "redis-cli": _g(
        "redis 7 redis-cli --help: -n is the database number; the operands are the command "
        "it sends (code); -h, -p, -s, -u are the server it sends the password to; --scan "
        "lists the keys --pattern matches (a glob the server applies), --count at a time",
        "-n -r -i --pattern --count",
        code="-h -p -s -u -a --pass --user --askpass --tls --cacert --cert --key --sni",
        operands="code",
        stdin="code",
        flags="--no-auth-warning --raw --no-raw --csv --json -e -x -c --scan --bigkeys "
        "--memkeys --hotkeys",
    ),
    **{
        f"gh {sub}": _g(
            f"gh 2.x gh-{sub.replace(' ', '-')}(1): lists and views print what the API holds, "
            "a comment's body (--body, --body-file) is text it posts; "
            "an operand is a number, a branch or a URL (whose host gets the token); --repo "
            "may name a host ([HOST/]OWNER/REPO), --hostname is one",
            "-L --limit -s --state -l --label -A --author -a --assignee -S --search -B --base "
            "-H --head -w --workflow -b --branch -e --event -u --user -c --commit --status "
            "--json --created -j --job --attempt --body --body-file -F",
            # --jq and --template are programs (jq's env, a template's
            # functions): the author's only
            code="-R --repo --hostname -q --jq -t --template",
            flags="-w --web -c --comments --name-only --patch --required --watch --exit-status "
            "--log --log-failed -v --verbose",
            urls="scheme",
        )
        for sub in (
            "pr list",
            "pr view",
            "pr checks",
            "pr diff",
            "pr status",
            "issue list",
            "issue view",
            "issue status",
            "run list",
            "run view",
            "release list",
            "release view",
            "workflow list",
            "workflow view",
            "repo view",
            "label list",
            "pr comment",
            "issue comment",
        )
    },
    "gh api": _g(
        "gh 2.x gh-api(1): it asks the API at ENDPOINT (a path of the GitHub API, graphql, or "
        "a URL whose host gets the token) and prints the answer; -f KEY=VALUE is a string "
        "field, -F KEY=VALUE a typed one whose @FILE reads a file; --input FILE is the "
        "body; -X is the method; --jq and --template are programs",
        "-f --raw-field -H --header --cache -p --preview",
        code="-X --method -F --field --input -q --jq -t --template --hostname -R --repo",
        flags="--paginate --slurp -i --include --silent",
        urls="scheme",
    ),
    **{
        f"glab {sub}": _g(
            f"glab 1.x glab-{sub.replace(' ', '-')}(1): lists and views print what the API "
            "holds; an operand is a number, a branch or a URL (whose host gets the token); "
            "--repo may name a host",
            "-P --per-page -p --page -l --label -a --assignee --author -s --status -b "
            "--branch -t --target-branch --source-branch -F --output",
            code="-R --repo",
            flags="--merged --closed --opened --all -A --draft -c --comments -w --web",
            urls="scheme",
        )
        for sub in ("mr list", "mr view", "issue list", "issue view", "ci list", "ci view")
    },
    **{
        f"ruff {sub}": _g(f"ruff 0.1 ruff {sub} --help: paths are data", "--select --ignore")
        for sub in ("check", "format")
    },
    "mypy": _g(
        "mypy 1.x mypy --help: the operands are files and packages it reads and never runs; "
        "its config in the folder (mypy.ini, setup.cfg, pyproject.toml) may load plugins, "
        "and --python-executable runs a Python",
        "-p --package -m --module --exclude --python-version --platform --cache-dir "
        "--junit-xml --html-report --txt-report --linecount-report --any-exprs-report "
        "--cobertura-xml-report --xml-report --lineprecision-report",
        code="--config-file --python-executable --custom-typeshed-dir --shadow-file",
    ),
    "journalctl": _g(
        "systemd 252 journalctl(1)",
        "-u --unit -g --grep -n --lines -p --priority -t --identifier -S --since -U "
        "--until -o --output -b --boot",
    ),
    "systemctl": _g("systemd 252 systemctl(1): status/show/is-active print", inert=False),
    "xxd": _g("xxd(1): xxd [INFILE [OUTFILE]] writes OUTFILE", "-l -s -c -g", written=1),
    "hexdump": _g("util-linux hexdump(1)", "-n -s"),
    "column": _g("util-linux column(1)", "-t -s --separator -o --output-separator"),
    "iconv": _g("glibc iconv(1)", "-f --from-code -t --to-code"),
    "sha256": _g("BSD sha256(1)"),
    "ps": _g("procps ps(1)", "-p -u -o -C"),
    "kill": _g(
        _BASH + ": kill (a negative pid is a process group, -1 every process, even after --)",
        "-s -n",
        end=False,
    ),
    "wait": _g(_BASH + ": wait (pids; -p NAME is followed by the analysis)"),
    **{
        f"vault {sub}": _g(
            f"vault 1.15 vault {sub} -h: it asks the server -address names (the author's: "
            "VAULT_ADDR) and prints the answer; its flags stop at the first operand (Go's "
            "flag package); an operand KEY=VALUE reads a file (@FILE) or stdin (-)",
            "-format -field -accessor -mount -version -namespace -ns",
            code="-address -agent-address -ca-cert -ca-path -client-cert -client-key "
            "-tls-server-name -wrap-ttl -policy-override",
            flags="-self -detailed -tls-skip-verify -non-interactive -output-curl-string "
            "-output-policy",
            assigns=True,
        )
        for sub in (
            "token lookup",
            "kv get",
            "kv list",
            "read",
            "list",
            "status",
            "secrets list",
            "auth list",
            "policy list",
            "policy read",
        )
    },
    **{
        f"terraform {sub}": _g(
            f"Terraform 1.x terraform {sub} -help: it reads the configuration in its folder "
            "(-chdir), which is code (providers, modules, external data sources); -var and "
            "-var-file are values in HCL, -state/-backend-config/-plugin-dir name files it "
            "reads as code or state; -target and -replace are resource addresses; "
            "operands are addresses, output names or a saved plan",
            values,
            code="-var -var-file -state -state-out -backup -backend-config -plugin-dir "
            "-lock-timeout -parallelism -out",
            flags=flags,
            places="-out -state-out -backup",  # the files it writes
        )
        for sub, values, flags in (
            (
                "plan",
                "-target -replace",
                "-no-color -refresh-only -detailed-exitcode -destroy -compact-warnings",
            ),
            ("show", "", "-json -no-color"),
            ("output", "", "-json -raw -no-color"),
            ("validate", "", "-json -no-color"),
            ("version", "", "-json"),
            ("state list", "-id", ""),
            ("state show", "", "-no-color"),
            ("init", "", "-no-color -upgrade -reconfigure -get=false"),
        )
    },
    "umask": _g(_BASH + ": umask [-p] [-S] [MODE] sets or prints the file mode mask"),
    "ulimit": _g(_BASH + ": ulimit [-HS] [-a | -OPTION [LIMIT]] sets or prints a limit"),
    "times": _g(_BASH + ": times prints the shell's process times"),
    "jobs": _g(_BASH + ": jobs prints the shell's jobs"),
    "disown": _g(_BASH + ": disown [-ar] [-h] [JOBSPEC…] forgets jobs"),
    "sha1": _g("BSD sha1(1)"),
    **{
        f"systemd-analyze {sub}": _g(
            f"systemd 252 systemd-analyze(1), {sub}: it parses and prints; the operands "
            "(unit files to load and check, calendar specs, time spans) are data; --root, "
            "--image and --generators (which runs the generators) are the author's",
            "--iterations --base-time --man",
            code="--root --image --generators --recursive-errors",
        )
        for sub in ("verify", "calendar", "timespan", "timestamp")
    },
    **{
        f"restic {sub}": _g(
            f"restic 0.16 restic {sub} --help: {what}; the global -r/--repo, "
            "--repository-file, -o (a backend's command), --password-command and the files "
            "of --password-file, --cacert, --tls-client-cert, --cache-dir are the author's",
            f"{values} --compression --key-hint --limit-download --limit-upload --pack-size "
            "--retry-lock",
            code=_RESTIC_CODE,
            env="RESTIC_REPOSITORY RESTIC_PASSWORD RESTIC_CACHE_DIR",
            # its cache: what it reads back there is authenticated (restic's
            # design doc, "Repository Format": every blob and file is MACed)
            places="--cache-dir",
        )
        for sub, values, what in (
            ("check", "--read-data-subset", "--read-data-subset is a fraction or a size"),
            ("snapshots", "--host -H --tag --path --group-by --latest", "snapshot IDs are data"),
            ("stats", "--mode --host -H --tag --path", "snapshot IDs are data"),
            ("ls", "--host -H --tag --path", "a snapshot ID and paths inside it are data"),
        )
    },
    **{
        f"borg {sub}": _g(
            f"borg 1.2 borg-{sub}(1): the repository or archive operand is where the "
            "passphrase goes (the author's); --remote-path and --rsh run commands, "
            "--exclude-from and --patterns-from read patterns from files",
            "--format --glob-archives -a --sort-by --first --last -e --exclude --pattern "
            "--lock-wait --umask --upload-ratelimit --upload-buffer --debug-topic",
            code="--remote-path --rsh --exclude-from --patterns-from",
            operands="code",
            env="BORG_REPO BORG_PASSPHRASE",
        )
        for sub in ("list", "info")
    },
    "zpool status": _g(
        "OpenZFS 2.2 zpool-status(8): pools and an interval are data; -c runs scripts on each vdev",
        "-T",
        code="-c",
        flags="-D -e -g -i -L -p -P -s -t -v -x --power",
    ),
    "zpool list": _g(
        "OpenZFS 2.2 zpool-list(8): pools, properties and an interval are data",
        "-o -T",
        flags="-H -g -L -p -P -v",
    ),
    **{
        f"zfs {sub}": _g(
            f"OpenZFS 2.2 zfs-{sub}(8): datasets, properties, types and depths are data",
            values,
            flags=flags,
        )
        for sub, values, flags in (
            ("list", "-d -o -s -S -t", "-r -H -p"),
            ("get", "-d -o -s -t", "-r -H -p"),
        )
    },
    **{
        f"virsh {sub}": _g(
            f"libvirt 10 virsh(1), {sub}: a query that prints what the hypervisor holds; "
            "virsh COMMAND ARG… takes each ARG as one word (only a lone COMMAND_STRING is "
            "parsed as virsh's shell language); the domain, pool or network names are data",
            "--domain --pool --network --interface --type --source --target --state",
            end=False,
        )
        for sub in (
            "list",
            "dominfo",
            "domstate",
            "domblklist",
            "domiflist",
            "domifaddr",
            "domstats",
            "dumpxml",
            "pool-list",
            "pool-info",
            "vol-list",
            "net-list",
            "net-dhcp-leases",
            "snapshot-list",
            "nodeinfo",
            "version",
        )
    },
    **{
        f"aws * {operation}": _g(
            f"AWS CLI 2 aws help, topics/config-vars and paramfile: a {operation} operation "
            "asks the service (the endpoint, region and credentials of the author's "
            "configuration) and prints the answer; every parameter's value is data, but "
            "one starting with file:// or fileb:// is read from that file (v2 follows no "
            "http:// value unless cli_follow_urlparam is set); --cli-input-json/-yaml is the "
            "whole request, --endpoint-url and --profile choose where the credentials go, "
            "--ca-bundle names a file of trusted certificates",
            code="--cli-input-json --cli-input-yaml --endpoint-url --profile --ca-bundle "
            "--generate-cli-skeleton",
            end=False,
            file_prefixes=_AWS_PARAMFILES,
        )
        for operation in ("describe-*", "list-*", "get-*")
    },
    "aws s3 ls": _g(
        "AWS CLI 2 aws s3 ls help: lists the objects under an s3:// URI (data); "
        "--endpoint-url and --profile choose where the credentials go",
        code="--endpoint-url --profile --ca-bundle",
        end=False,
        file_prefixes=_AWS_PARAMFILES,
    ),
}


#: Programs whose first operand (after their global options) names a
#: subcommand with a grammar of its own (``git log``), and the global options
#: that take a value before it.
def _reading_cwd(entries: dict[str, Grammar]) -> dict[str, Grammar]:
    """`entries` with `Grammar.reads_cwd_code` set for the programs that read
    code from their folder: python3 (its folder is first on sys.path), node
    (node_modules), and every git subcommand (the repository's config)."""
    from dataclasses import replace

    return {
        key: replace(g, reads_cwd_code=True)
        if key in ("python3", "node", "mypy")
        or key.startswith(("git ", "python3 -m ", "terraform "))
        else g
        for key, g in entries.items()
    }


GRAMMARS = _reading_cwd(GRAMMARS)

#: ``docker compose``'s own options before its subcommand (docker-compose(1)
#: v2: the compose file and the folder are read as configuration, which
#: runs commands: ``path-code``; the project's name and profiles are data).
_COMPOSE_GLOBALS = {
    "-f": "path-code", "--file": "path-code", "--project-directory": "path-code",
    "--env-file": "path-code", "-p": "data", "--project-name": "data", "--profile": "data",
    "--ansi": "data", "--progress": "data",
}  # fmt: skip
#: Subcommands that take options of their own before a subcommand of
#: theirs (``docker compose -f FILE logs``), named in `SUBCOMMANDS`.
_NESTING = frozenset({"docker compose", "podman compose"})

#: Programs with subcommands, and the global options before the subcommand
#: that take the next word, each with what its value is (the program's
#: manual): ``data``; ``setting`` (git -c KEY=VALUE: data only under a key
#: the author wrote whose value git never runs, `INERT_GIT_SETTINGS`);
#: ``path-code`` (a folder or file whose contents configure or run code:
#: a repository, a kubeconfig with exec credential plugins, docker's config:
#: only a path `within:` the author's folder); ``path-written`` (a folder
#: it writes and reads back only what it authenticates, restic's cache: a
#: caller's path only `within:`, the author's anywhere); ``code`` (an endpoint that
#: chooses what runs or where the credentials go: the author's only).
SUBCOMMANDS: dict[str, dict[str, str]] = {
    "git": {"-C": "path-code", "-c": "setting", "--git-dir": "path-code",
            "--work-tree": "path-code", "--namespace": "data", "--exec-path": "path-code"},
    "kubectl": {"-n": "data", "--namespace": "data", "--context": "data",
                "--kubeconfig": "path-code", "-s": "code", "--server": "code",
                "--cluster": "data", "--user": "data"},
    "docker": {"-H": "code", "--host": "code", "--context": "data", "-c": "data",
               "--config": "path-code", "-l": "data", "--log-level": "data",
               **_COMPOSE_GLOBALS},
    "podman": {"--url": "code", "-c": "data", "--connection": "data", "--log-level": "data",
               **_COMPOSE_GLOBALS},
    "systemctl": {},
    "zpool": {},
    "restic": {"-r": "code", "--repo": "code", "--repository-file": "path-code",
               "-o": "code", "--option": "code", "--password-command": "code",
               "-p": "path-code", "--password-file": "path-code", "--cacert": "path-code",
               "--tls-client-cert": "path-code", "--cache-dir": "path-written",
               "--compression": "data", "--key-hint": "data", "--limit-download": "data",
               "--limit-upload": "data", "--pack-size": "data", "--retry-lock": "data"},
    "borg": {"--remote-path": "code", "--rsh": "code", "--lock-wait": "data", "--umask": "data",
             "--upload-ratelimit": "data", "--upload-buffer": "data", "--debug-topic": "data"},
    "systemd-analyze": {"-H": "code", "--host": "code", "-M": "code", "--machine": "code"},
    "zfs": {},
    "virsh": {"-c": "code", "--connect": "code", "-l": "code", "--log": "code"},
    "helm": {"-n": "data", "--namespace": "data", "--kube-context": "data",
             "--kubeconfig": "path-code"},
    "gh": {"-R": "code", "--repo": "code", "--hostname": "code"},
    "glab": {"-R": "code", "--repo": "code"},
    "openssl": {},
    "vault": {},
    "npm": {},
    "terraform": {"-chdir": "path-code"},
    "ruff": {},
    "aws": {"--region": "data", "--output": "data", "--query": "data", "--color": "data",
            "--cli-read-timeout": "data", "--cli-connect-timeout": "data",
            "--cli-binary-format": "data", "--profile": "code", "--endpoint-url": "code",
            "--ca-bundle": "path-code"},
}  # fmt: skip

#: git settings whose value is only ever data (names, addresses, display).
INERT_GIT_SETTINGS = frozenset(
    {"user.name", "user.email", "author.name", "author.email", "committer.name",
     "committer.email", "color.ui", "core.quotepath", "init.defaultbranch", "log.date"}
)  # fmt: skip


def _aws_key(words: list[str | None]) -> tuple[str, int]:
    """``aws [globals] SERVICE [globals] OPERATION``: the key of the
    operation's grammar (``"aws * list-*"`` for every service's read-only
    ``describe-``, ``list-`` and ``get-`` operations, ``"aws s3 ls"``),
    and the index of the first word after the operation. Global options
    (aws takes them anywhere) before it stay before it, checked as
    `SUBCOMMANDS` says. ``"aws ?"`` (no grammar) for anything else."""
    globals_with_value = SUBCOMMANDS["aws"]
    found: list[str] = []
    k = 0
    while k < len(words) and len(found) < 2:
        word = words[k]
        if word is None:
            return "aws ?", k + 1
        if word.startswith("-"):
            k += 2 if word in globals_with_value else 1
            if word not in globals_with_value and word not in _AWS_GLOBAL_FLAGS:
                return "aws ?", k  # an option of the operation before it
            continue
        found.append(word)
        k += 1
    if len(found) < 2:
        return "aws ?", k
    service, operation = found
    if f"aws {service} {operation}" in GRAMMARS:
        return f"aws {service} {operation}", k
    if service in ("s3", "configure", "history"):
        return "aws ?", k  # high-level s3 commands, the settings, the history: no grammar
    if _AWS_READ.fullmatch(operation) and not _AWS_WRITES_FILE.fullmatch(operation):
        return f"aws * {operation.split('-', 1)[0]}-*", k
    return "aws ?", k


def grammar_key(program: str, words: list[str | None]) -> tuple[str, int]:
    """The grammar key of a command line whose program is `program` (a
    basename) and whose words after it are `words` (None: not literal):
    ``"git log"`` for a subcommand, else `program`; and the index in
    `words` of the first word after the key. A subcommand that is not
    literal gives ``"git ?"``, which no grammar has."""
    if program == "aws":
        return _aws_key(words)
    if program == "python3":
        for k, word in enumerate(words):
            if word == "-m" and k + 1 < len(words):
                module = words[k + 1]
                key = f"python3 -m {module}"
                sub = words[k + 2] if k + 2 < len(words) else None
                if sub is not None and f"{key} {sub}" in GRAMMARS:
                    return f"{key} {sub}", k + 3
                return (key, k + 2) if key in GRAMMARS else (program, 0)
            if word is None or not word.startswith("-"):
                break
        return program, 0
    globals_with_value = SUBCOMMANDS.get(program)
    if globals_with_value is None:
        return program, 0
    k = 0
    while k < len(words):
        word = words[k]
        if word is None:
            return f"{program} ?", k + 1
        if word.startswith("-"):
            k += 2 if word in globals_with_value else 1
            continue
        after = k + 1
        if f"{program} {word}" in _NESTING:
            # docker compose --file F logs: compose's options, then its subcommand
            while after < len(words) and (words[after] or "").startswith("-"):
                after += 2 if words[after] in globals_with_value else 1
        nested = words[after] if after < len(words) else None
        if nested is not None and f"{program} {word} {nested}" in GRAMMARS:
            return f"{program} {word} {nested}", after + 1
        return f"{program} {word}", k + 1
    return program, k


def _words(text: str, sep: str | None = None) -> list[str]:
    return text.split(sep)


#: pytest's options that write a file (or choose where it writes).
_PYTEST_WRITES = frozenset(
    _words("--junitxml --junit-xml --basetemp --result-log --resultlog -o --override-ini --lf --ff")
)
#: The options that make ``git branch`` and ``git tag`` list (their operands
#: are then patterns).
_LISTING: dict[str, frozenset[str]] = {
    # git-branch(1) 2.39: -a is --all there
    "git branch": frozenset(
        _words(
            "-l --list -a --all -r --remotes --contains --no-contains --merged --no-merged "
            "--points-at --show-current -v -vv"
        )
    ),
    # git-tag(1) 2.39: -a annotates a new tag, -n prints their messages
    "git tag": frozenset(
        _words("-l --list --contains --no-contains --merged --no-merged --points-at -n")
    ),
}


#: Programs and builtins that write no file, whatever their words, except
#: through the options named (each one's manual; bash(1) for the builtins):
#: the proof that a command with caller data leaves the working folder as
#: it was. A program that is not here may write any file its words name.
_WRITES_NO_FILE: dict[str, frozenset[str]] = {
    name: frozenset(options.split())
    for name, options in {
        **dict.fromkeys(
            _words(
                "cat grep egrep fgrep wc head tail cut tr echo printf test [ ls stat du df "
                "md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum "
                "base64 base32 nl tac rev fold paste join comm od expand unexpand fmt pr "
                "numfmt dirname basename readlink realpath jq date seq column hexdump getent "
                "true false : sleep id diff cmp envsubst dig host kill wait ps journalctl "
                "read local declare typeset export readonly set shift unset cd pushd popd "
                "return exit break continue mapfile readarray getopts type hash let "
                "source . shopt trap whoami nproc uname hostname pwd arch tty sha256 sha1 "
                "logger uniq zcat bzcat xzcat umask ulimit times jobs disown rm rmdir unlink"
            ),
            "",
        ),
        "sort": "-o --output",
        "curl": "-o --output -O --remote-name -D --dump-header -c --cookie-jar --trace "
        "--trace-ascii --remote-name-all --create-dirs",
        **dict.fromkeys(
            _words(
                "git log|git show|git diff|git blame|git grep|git ls-files|git ls-tree|"
                "git rev-parse|git rev-list|git describe|git shortlog|git status|git cat-file|"
                "git merge-base|git show-ref|git for-each-ref|git var|git count-objects|"
                "git name-rev|git cherry|git whatchanged|git reflog|git diff-tree|systemctl status|"
                "systemctl show|systemctl is-active|systemctl is-enabled|systemctl is-failed|"
                "systemctl list-units|systemctl list-timers|systemctl list-unit-files|"
                "systemctl cat|docker pull|kubectl get|kubectl logs|kubectl describe|"
                "kubectl top|kubectl events|docker ps|docker inspect|docker logs|"
                "helm status|helm history|helm list|helm version|helm get values|"
                "helm get manifest|helm get notes|helm get hooks|helm get metadata|"
                "kubectl port-forward|kubectl rollout|docker tag|docker push|docker login|"
                "docker logout|docker images|docker version|docker info|docker stats|"
                "docker port|docker image prune|docker container prune|docker system df|"
                "docker system prune|docker image rm|docker rmi|docker history|terraform show|"
                "terraform output|"
                "terraform state list|terraform state show|terraform version|helm lint|"
                "vault token lookup|vault kv get|vault kv list|vault read|vault list|"
                "vault status|vault secrets list|vault auth list|vault policy list|"
                "vault policy read|openssl verify",
                "|",
            ),
            "",
        ),
        # queries that print what a service holds (the grammars above:
        # virsh's, gh's lists and views, aws's describe-, list- and get-
        # operations, which write only the file get-object and its kin
        # name, `_AWS_WRITES_FILE`); binutils 2.40 nm, addr2line, size,
        # readelf and objdump, and qemu-img 7 info, which print what they read;
        # Postfix 3.7 postqueue, which lists or flushes the queue
        **dict.fromkeys(
            (
                *(key for key in GRAMMARS if key.startswith("virsh ")),
                *(key for key in GRAMMARS if key.startswith("gh ") and key != "gh api"),
                "aws * describe-*",
                "aws * list-*",
                "aws * get-*",
                "aws s3 ls",
                *_words("nm addr2line size readelf objdump postqueue"),
                "qemu-img info",
            ),
            "",
        ),
        # its --cache keeps answers in gh's cache folder
        "gh api": "--cache",
        # yq 4: writes its operand only in place
        "yq": "-i --inplace",
        "helm template": "--output-dir",
        "find": "-fprint -fprint0 -fprintf -fls -delete -exec -execdir -ok -okdir",
        "python3 -m tarfile": "-e --extract -c --create",
        # git-archive(1) 2.39: the archive goes to stdout, or to --output
        "git archive": "-o --output",
        "python3 -m json.tool": "",
        "python3 -m pip show": "",
        "python3 -m pip list": "",
        "git stash show": "",
        "git stash list": "",
        "git branch": "",
        "git tag": "",
        # these write only in the repository's own store (objects, refs, the
        # index, FETCH_HEAD) and tracked files from its history, never a
        # file the caller names, its config or its hooks
        **dict.fromkeys(
            _words(
                "git commit|git checkout|git switch|git reset|git restore|git stash|git notes|"
                "git merge|git fetch|git pull|git cherry-pick|git revert|git add|git rm",
                "|",
            ),
            "",
        ),
        # an image is built and run in the daemon's store, not in a folder,
        # unless a bind mount or an output file names one
        "docker build": "-o --output --iidfile --metadata-file",
        "docker run": "-v --volume --mount --cidfile",
        "git log": "--output",
        **dict.fromkeys(_DOCKER_READERS, ""),
        "openssl dgst": "-out -writerand",
        "openssl pkeyutl": "-out -writerand",
        "openssl rand": "-out -writerand",
        "openssl x509": "-out",
        "openssl pkey": "-out",
        "git show": "--output",
        "git diff": "--output",
    }.items()
}


def writes_no_file(
    program: str, words: list[str | None], function: bool = False, stdin_text: str | None = None
) -> bool:
    """`program` (a basename) with the literal `words` (None: not literal)
    writes no file: its manual says it writes none but through options, and
    none of those is among the words (``--output=F`` too). ``uniq IN OUT``
    writes OUT, ``git``'s subcommands are not told apart here, and a
    function of the script may do anything: each writes. `stdin_text`:
    the literal here-document on its standard input (``python3 -``'s
    program)."""
    if function:
        return False
    program = normal_program(program)
    if program in _RUNNERS:
        inner = _runs(program, words)
        if inner is None:
            return False
        head = inner[0].rsplit("/", 1)[-1] if inner[0] is not None else None
        return head is not None and writes_no_file(head, inner[1:], False, stdin_text)
    key, first = grammar_key(program, words)
    if key == "python3 -m pytest":
        # the project's tests (the author's code) run; pytest itself writes
        # its cache unless -p no:cacheprovider, and the files its output
        # options name
        return "no:cacheprovider" in words and not any(
            w is not None and w.split("=", 1)[0] in _PYTEST_WRITES for w in words
        )
    if key == "mypy":
        # its cache, unless --cache-dir=/dev/null, and the reports it is asked for
        return _cache_off(words, "--cache-dir") and not any(
            w is not None and w.split("=", 1)[0].endswith(("-report", "-xml")) for w in words
        )
    if key == "ruff check":
        # its cache, unless --no-cache; --fix and --add-noqa edit the files
        return "--no-cache" in words and not any(
            w is not None and w.split("=", 1)[0] in ("--fix", "--add-noqa", "--output-file", "-o")
            for w in words
        )
    if key in _COMPRESSORS:
        return _compressor_reads_only(key, words)
    if key == "sqlite3" and "-readonly" not in words:
        return False  # its database, whatever the SQL (an INSERT, a PRAGMA that sets)
    nested = words[first] if first < len(words) else None
    if key not in _WRITES_NO_FILE and nested is not None and f"{key} {nested}" in _WRITES_NO_FILE:
        key, first = f"{key} {nested}", first + 1  # docker image prune
    options = _WRITES_NO_FILE.get(key)
    if options is None:
        grammar = GRAMMARS.get(key)
        if any(w is not None and w.startswith(("-i", "--in-place")) for w in words):
            return False  # sed -i, perl -i: edit their operands in place
        text = _program_text(grammar, words, stdin_text) if grammar is not None else None
        return text is not None and grammar is not None and not _writes(grammar, text, key)
    if written_operands(program, words, literal=True) is not None:
        return False  # uniq IN OUT writes OUT
    words = words[first:]
    remote = next((w for w in words if w is None or not w.startswith("-")), "")
    if key == "aws * get-*" and any(w is not None and _AWS_WRITES_FILE.fullmatch(w) for w in words):
        return False  # aws s3api get-object BUCKET KEY OUTFILE
    if key in ("git fetch", "git pull") and remote is None:
        return False  # a caller's remote: the caller's objects, then files
    if key in _LISTING and not any(w in _LISTING[key] for w in words):
        return False  # a name operand creates a branch, a tag
    return not any(word is not None and _names_option(word, options) for word in words)


#: Compressors, which write a file beside each operand (and may remove the
#: operand) unless told to list, test or print to standard output, with
#: their options that still write or remove then, the letters of those
#: modes, and the letters of short options that take a value (the rest
#: of the word: ``-S.gz``) (gzip(1) 1.12, xz(1) 5.4, zstd(1) 1.5, bzip2(1)
#: 1.0).
_COMPRESSORS: dict[str, tuple[frozenset[str], frozenset[str], str, str]] = {
    name: (frozenset(modes.split()), frozenset(writing.split()), letters, valued)
    for name, modes, writing, letters, valued in (
        ("gzip", "--list --test --stdout --to-stdout", "-N --name", "ltc", "S"),
        ("xz", "--list --test --stdout --to-stdout", "", "ltc", "CFMT"),
        ("bzip2", "--test --stdout", "", "tc", ""),
        ("zstd", "--list --test --stdout", "-o --output-dir-flat --output-dir-mirror --rm",
         "ltc", "oDTBM"),
    )
}  # fmt: skip


def _compressor_reads_only(key: str, words: list[str | None]) -> bool:
    """``zstd -l -- f.zst``, ``gzip -t f.gz``, ``xz -c f.xz``: a mode that
    only reads its operands (list, test, print), every word literal until
    ``--``, and no option that writes a file or removes the operand."""
    modes, writing, letters, valued = _COMPRESSORS[key]
    reads = False
    for word in words:
        if word == "--":
            break
        if word is None:
            return False
        if word.startswith("--"):
            option = word.split("=", 1)[0]
            if option in writing:
                return False
            reads = reads or option in modes
            continue
        if not word.startswith("-"):
            continue
        for letter in word[1:]:
            if f"-{letter}" in writing:
                return False
            if letter in valued:
                break  # the rest of the word is its value
            reads = reads or letter in letters
    return reads


def written_operand_indexes(program: str, words: list[str | None]) -> list[int]:
    """The indexes among `words` of the operands `program` (a basename)
    writes, by its grammar's `Grammar.written_operand` (``uniq IN OUT``: OUT's)."""
    key, first = grammar_key(normal_program(program), words)
    grammar = GRAMMARS.get(key)
    if grammar is None or grammar.written_operand is None:
        return []
    takes = grammar.value_options | grammar.code_options
    operands: list[int] = []
    k = first
    while k < len(words):
        word = words[k]
        if word is not None and word.startswith("-") and word != "-":
            k += 2 if word in takes else 1
            continue
        operands.append(k)
        k += 1
    return operands[grammar.written_operand :]


def written_operands(
    program: str, words: list[str | None], *, literal: bool = False
) -> list[str | None] | None:
    """The operands `program` (a basename) with `words` writes, by its
    grammar's `Grammar.written_operand` (``uniq IN OUT``: ``[OUT]``), when
    one of them is not literal (None), or with `literal`, when there is
    one at all; else None."""
    written = [words[k] for k in written_operand_indexes(program, words)]
    if written and (literal or any(w is None for w in written)):
        return written
    return None


def output_options(program: str, words: list[str | None]) -> tuple[frozenset[str], frozenset[str]]:
    """The options through which `program` (a basename) with the literal
    `words` writes a file (`writes_no_file`), and those of them that take
    the file as their value (its grammar's value options)."""
    key, _ = grammar_key(normal_program(program), words)
    options = (
        _PYTEST_WRITES if key == "python3 -m pytest" else _WRITES_NO_FILE.get(key, frozenset())
    )
    grammar = GRAMMARS.get(key)
    takes = grammar.value_options | grammar.code_options if grammar is not None else frozenset()
    return options, options & takes


def _cache_off(words: list[str | None], option: str) -> bool:
    """`option` (a cache folder) names /dev/null among `words`."""
    for k, word in enumerate(words):
        if word == f"{option}=/dev/null":
            return True
        if word == option and k + 1 < len(words) and words[k + 1] == "/dev/null":
            return True
    return False


def _names_option(word: str, options: frozenset[str]) -> bool:
    """`word` is one of `options`, ``--opt=VALUE`` of one, or a cluster of
    short options (``-uo``) holding one."""
    if word in options or word.split("=", 1)[0] in options:
        return True
    if word.startswith("-") and not word.startswith("--"):
        return any(len(o) == 2 and o[1] in word[1:] for o in options if not o.startswith("--"))
    return False


def writes_only_named_files(program: str, words: list[str | None]) -> bool:
    """`program` (a basename) with the literal `words` writes, if anything,
    only files its words name: it has a grammar here, is no language, and
    runs no command of another (a wrapper, ``docker exec``). So it cannot
    find a file through its environment (``$HARBOR_STEP_OUTPUT``)."""
    program = normal_program(program)
    if program in _RUNNERS:
        return False
    key, _ = grammar_key(program, words)
    grammar = GRAMMARS.get(key)
    return (
        grammar is not None
        and grammar.writes is None
        and grammar.evaluates is None
        and grammar.command_from is None
        and not grammar.command_after_dashdash
        and not grammar.script_operand
        and not grammar.program_options
        and "code" not in (grammar.operands, grammar.stdin)
    )


def is_language(program: str, words: list[str | None]) -> bool:
    """`program` (a basename) with the literal `words` runs a language's
    program (python3, node, perl, awk, sed…), whose own text may write."""
    key, _ = grammar_key(normal_program(program), words)
    grammar = GRAMMARS.get(key)
    return grammar is not None and grammar.writes is not None and not _own_program(grammar, words)


def _own_program(grammar: Grammar, words: list[str | None]) -> bool:
    """The literal `words` give a language a program of its own to run (a
    module, ``python3 -m mkdocs``, or a script file), not program text: what
    it writes is that program's, as any program's writes are."""
    expect = own = False
    for word in words:
        if word is None:
            return False
        if expect:
            expect = False
            continue
        if word in grammar.program_options or word == "-":
            return False  # program text after all (``perl -MFoo -e …``)
        if word in grammar.code_options:
            expect = own = True
            continue
        if word.startswith("-"):
            expect = word in grammar.value_options
            continue
        return own or grammar.script_is_file
    return own


def _program_text(grammar: Grammar, words: list[str | None], stdin_text: str | None) -> str | None:
    """The literal program text a language's words give it (the value of
    ``-c``/``-e`` or its first operand), None when it has none, it is not
    literal, or it is a file (a program of its own)."""
    if grammar.writes is None:
        return None
    if grammar.program_from is not None:
        return _operand_program(grammar, grammar.program_from, words, stdin_text)
    expect = False
    for k, word in enumerate(words):
        if expect:
            expect = False  # an option's value (awk -v n="$x"): not the program
            continue
        if word is None:
            if grammar.script_operand:
                return None  # it may be the program
            continue  # psql --set=x="$v": an option or an operand, not the program
        if word == "-":
            return stdin_text
        if word in grammar.program_options:
            return words[k + 1] if k + 1 < len(words) else None
        if word in grammar.connection_options:
            expect = True  # psql -h HOST: the server, not the program
            continue
        if word in grammar.code_options or word == "--":
            return None
        if word.startswith("-"):
            expect = word in grammar.value_options
            continue
        if not grammar.script_operand:
            continue  # psql's database: its program is -c's or its standard input
        return None if grammar.script_is_file else word
    # no program among the words: one that reads it from standard input
    # (psql <<'SQL') runs the here-document
    return stdin_text if grammar.stdin == "code" else None


def _operand_program(
    grammar: Grammar, start: int, words: list[str | None], stdin_text: str | None
) -> str | None:
    """The literal program text of a language whose operands from `start`
    on are its program (``sqlite3 FILENAME SQL…``), one per line, else its
    standard input's; None when a word is not literal, or an option gives
    code of its own (``-cmd``, ``-init``) or may take the next word."""
    operands: list[str] = []
    expect = False
    for word in words:
        if word is None:
            return None
        if expect:
            expect = False
            continue
        if word.startswith("-") and word != "-" and not operands:
            if word in grammar.code_options or word in grammar.program_options:
                return None
            if word in grammar.value_options:
                expect = True
            elif grammar.flags is not None and word not in grammar.flags:
                return None
            continue
        operands.append(word)
    if len(operands) > start:
        return "\n".join(operands[start:])
    return stdin_text if grammar.stdin == "code" else None


_AWK_STANDARD_STREAM = re.compile(r'>>?\s*"/dev/std(?:err|out)"')


def sql_code(text: str) -> str:
    """psql's input with its SQL string literals (``'…'``, ``''`` a quote
    inside) and quoted names (``"…"``) blanked: psql's lexer runs no
    backslash command and interpolates no ``:NAME`` inside them (PostgreSQL
    15 psql(1), "SQL Interpolation"). Comments (``-- …``, nested ``/* …
    */``) and dollar-quoted strings (``$$…$$``, ``$tag$…$tag$``) are
    stepped over as they are, kept (a quote inside one starts nothing). A
    literal in which a backslash stands right before a quote is read one
    way with standard_conforming_strings and another without (``'a\\'``):
    there, and from anything unclosed on, the text is kept as it is."""
    out: list[str] = []
    k = 0
    while k < len(text):
        c = text[k]
        skipped = _sql_skipped(text, k)
        if skipped is not None:
            if skipped >= len(text) + 1:
                out.append(text[k:])  # unclosed: kept, and nothing after is read
                break
            out.append(text[k:skipped])
            k = skipped
            continue
        if c not in "'\"":
            out.append(c)
            k += 1
            continue
        end = k + 1
        while end < len(text):
            if text[end] == c:
                if end + 1 < len(text) and text[end + 1] == c:
                    end += 2  # '' (or "") inside: one quote
                    continue
                break
            end += 1
        inside = text[k + 1 : end]
        if end >= len(text) or (c == "'" and "\\'" in text[k : end + 1]):
            out.append(text[k:])  # unclosed, or where the two readings differ
            break
        out.append(c + " " * len(inside) + c)
        k = end + 1
    return "".join(out)


def literal_view(key: str) -> Callable[[str], str] | None:
    """The view of the program `key` runs that blanks its quoted literals
    (`sql_code` for the SQL clients), when its grammar reads them
    (`Grammar.literal_ends`); None otherwise."""
    grammar = GRAMMARS.get(key)
    return sql_code if grammar is not None and grammar.literal_ends else None


_DOLLAR_QUOTE = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$")


def _sql_skipped(text: str, k: int) -> int | None:
    """Where the comment or dollar-quoted string that starts at `k` of the
    SQL `text` ends (past it); ``len(text) + 1`` when it is unclosed; None
    when none starts there."""
    if text.startswith("--", k):
        end = text.find("\n", k)
        return len(text) if end < 0 else end
    if text.startswith("/*", k):
        depth = 0
        at = k
        while at < len(text):
            if text.startswith("/*", at):
                depth += 1
                at += 2
            elif text.startswith("*/", at):
                depth -= 1
                at += 2
                if depth == 0:
                    return at
            else:
                at += 1
        return len(text) + 1
    quote = _DOLLAR_QUOTE.match(text, k) if text[k] == "$" else None
    if quote is not None and not (k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_")):
        close = text.find(quote.group(0), quote.end())
        return len(text) + 1 if close < 0 else close + len(quote.group(0))
    return None


def awk_code(text: str) -> str:
    """An awk program's text with its string and regular-expression
    literals and its comments blanked: what is left is what runs (a ``|``
    inside ``/(a|b)/`` is no pipe). A ``/`` starts a regular expression
    where no operand ends before it (after ``(``, ``,``, ``!``, ``~``,
    ``{``, ``;``, ``&``, ``|``, ``?``, ``:`` or a line's start), as gawk
    reads it (gawk manual, 3.1 "How to Use Regular Expressions")."""
    out: list[str] = []
    k = 0
    last = ""  # the last character that is not a blank, outside literals
    while k < len(text):
        c = text[k]
        if c == '"' or (c == "/" and last in ("", *"(,!~{;&|?:\n")):
            end = k + 1
            while end < len(text) and text[end] != c and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            out.append(" " * (min(end, len(text)) - k + 1))
            k = end + 1
            last = "x"
            continue
        if c == "#":
            end = text.find("\n", k)
            k = len(text) if end < 0 else end
            continue
        out.append(c)
        if not c.isspace() or c == "\n":
            last = c
        k += 1
    return "".join(out)


def sed_code(text: str) -> str:
    """A sed script read command by command (GNU sed 4.9: addresses, ``!``,
    ``{…}``, ``s`` and ``y`` with any delimiter and escapes, the text of
    ``a``/``i``/``c``, file names and labels, comments) and written back
    one command a line in a plain form: ``e``, ``s///FLAGS``, ``w FILE``,
    ``r FILE``, or the command's letter. The patterns sed's grammar has
    read that form whatever the script's own spelling (``/re/Is/a/b/e``,
    ``\\%re%s|a|b|e``). A script this reading cannot follow is given back
    as it is (the patterns then read it as written)."""
    out: list[str] = []
    k, n = 0, len(text)

    def delimited(at: int, mark: str) -> int | None:
        # from after an opening `mark`, past the closing one (escapes skipped)
        while at < n:
            if text[at] == "\\":
                at += 2
                continue
            if text[at] == "\n" and mark != "\n":
                return None
            if text[at] == mark:
                return at + 1
            at += 1
        return None

    def address(at: int) -> int | None:
        if at < n and (text[at].isdigit() or text[at] in "+~"):
            while at < n and (text[at].isdigit() or text[at] in "+~"):
                at += 1
            return at
        if at < n and text[at] == "$":
            return at + 1
        if at < n and text[at] in "/\\":
            if text[at] == "\\":
                if at + 1 >= n:
                    return None
                end = delimited(at + 2, text[at + 1])
            else:
                end = delimited(at + 1, "/")
            if end is None:
                return None
            while end < n and text[end] in "IM":
                end += 1
            return end
        return at

    while k < n:
        if text[k] in " \t\n;}":
            k += 1
            continue
        if text[k] == "#":
            end = text.find("\n", k)
            k = n if end < 0 else end
            continue
        after = address(k)
        if after is None:
            return text
        k = after
        while k < n and text[k] in " \t":
            k += 1
        if k < n and text[k] == ",":
            after = address(k + 1)
            if after is None:
                return text
            k = after
        while k < n and text[k] in " \t!":
            k += 1
        if k >= n:
            break
        command = text[k]
        k += 1
        if command == "{":
            out.append("{")
        elif command in "sy":
            if k >= n:
                return text
            mark = text[k]
            middle = delimited(k + 1, mark)
            closed = delimited(middle, mark) if middle is not None else None
            if closed is None:
                return text
            k = closed
            flags_start = k
            while k < n and text[k] not in ";\n}":
                k += 1
            out.append(f"{command}///{text[flags_start:k].strip()}")
        elif command in "aic":
            end = text.find("\n", k)
            # a line that ends in an odd number of backslashes goes on (\\ is one)
            while end >= 0 and (len(text[:end]) - len(text[:end].rstrip("\\"))) % 2 == 1:
                end = text.find("\n", end + 1)
            k = n if end < 0 else end
            out.append(command)
        elif command in "rRwWe":
            end = text.find("\n", k)
            argument = text[k : n if end < 0 else end].strip()
            k = n if end < 0 else end
            out.append(
                f"{command} {argument}".rstrip()
                if command != "e"
                else "e" + (" x" if argument else "")
            )
        elif command in ":btT":
            while k < n and text[k] not in ";\n}":
                k += 1
            out.append(command)
        elif command.isalpha() or command == "=":
            while k < n and text[k].isdigit():
                k += 1
            out.append(command)
        else:
            return text
    return "\n".join(out)


def _writes(grammar: Grammar, text: str, key: str) -> bool:
    """The program `text` may write a file: it uses one of its language's
    ways to write one, or to run code (which may). A Python program is read
    with Python's parser (`mcp_harbor.check._python`)."""
    if key == "python3":
        return _python.writes_files(text) or _python.runs_data(text) is not None
    if key == "awk":
        # print … > "/dev/stderr": the standard error, no file (gawk(1)
        # "Special File names"; mawk and busybox open the same device)
        text = awk_code(_AWK_STANDARD_STREAM.sub(" ", text))
    if key == "sed":
        text = sed_code(text)
    return any(
        pattern is not None and re.search(pattern, text)
        for pattern in (grammar.writes, grammar.evaluates)
    )


#: Commands that run the command after their own words, and their options
#: that take a value (coreutils timeout, env, nice, nohup, stdbuf; bash's
#: command, builtin, exec, time; findutils xargs, which adds the items it
#: reads to that command's words).
_RUNNERS: dict[str, frozenset[str]] = {
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "time": frozenset(),
    "xargs": frozenset(
        _words(
            "-a --arg-file -d --delimiter -E -I -L -n --max-args -P --max-procs -s "
            "--max-chars --process-slot-var"
        )
    ),
}


def _runs(program: str, words: list[str | None]) -> list[str | None] | None:
    """The command line `program` (one of `_RUNNERS`) runs, None when the
    checker cannot tell (a word that is not literal before it)."""
    k = 0
    takes = _RUNNERS[program]
    while k < len(words):
        word = words[k]
        if word is None:
            return None
        if word in takes:
            k += 2
        elif (word.startswith("-") and word != "-") or (program == "env" and "=" in word):
            k += 1
        else:
            break
    if program == "timeout":
        k += 1  # the duration
    return words[k:] or None
