"""The sink tables: which commands run other commands, re-parse their
arguments as shell code, or take a program in another language.

These are data, tested in ``tests/check/test_sinks.py``. A command that is not
listed is an ordinary program: a caller value that reaches it as one quoted
word is a plain argument (warned about only when it could be read as an
option). For listed interpreters, an option the table does not know is
assumed to take code: a caller value after it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CODE_VARIABLES",
    "CODE_VARIABLE_PREFIXES",
    "CODE_VARIABLE_SUFFIXES",
    "EVAL_LIKE",
    "GRAMMARS",
    "INERT_COMMANDS",
    "INTERPRETERS",
    "OPTION_CODE_COMMANDS",
    "SHELLS",
    "SHELL_VALUE_OPTIONS",
    "WRAPPERS",
    "Grammar",
    "Interpreter",
    "Wrapper",
    "is_code_variable",
]


@dataclass(frozen=True, slots=True)
class Wrapper:
    """A command that runs another command given as its arguments.

    Attributes:
        value_options: options that consume the next word.
        positionals: words (after options) before the wrapped command.
        runs_with_shell: the wrapped command's words are joined and parsed by
            a shell (``watch``, ``ssh``): every word is code.
        code_options: options whose value is a command or shell code.
    """

    value_options: frozenset[str] = frozenset()
    positionals: int = 0
    runs_with_shell: bool = False
    code_options: frozenset[str] = frozenset()
    #: its options may also follow its positionals (``su USER -c CMD``): a
    #: code option anywhere on the line makes its value code
    options_anywhere: bool = False


def _w(
    opts: str = "",
    positionals: int = 0,
    shell: bool = False,
    code: str = "",
    anywhere: bool = False,
) -> Wrapper:
    return Wrapper(frozenset(opts.split()), positionals, shell, frozenset(code.split()), anywhere)


#: Commands that run the command found in their arguments.
WRAPPERS: dict[str, Wrapper] = {
    "sudo": _w(
        "-u --user -g --group -C -D --chdir -h --host -p --prompt -r -t -T -U",
        code="-s -i --shell --login",
    ),
    "doas": _w("-u -C"),
    "env": _w("-u --unset -C --chdir", code="-S --split-string"),
    "exec": _w("-a"),
    "command": _w(),
    "builtin": _w(),
    "nohup": _w(),
    "time": _w("-f --format -o --output"),
    "timeout": _w("-s --signal -k --kill-after", positionals=1),
    "nice": _w("-n --adjustment"),
    "ionice": _w("-c --class -n --classdata -p -P -u"),
    "chrt": _w("-T -P -D", positionals=1),
    "taskset": _w("-p", positionals=1),
    "stdbuf": _w("-i -o -e --input --output --error"),
    "setsid": _w(),
    "chroot": _w("--userspec --groups", positionals=1),
    "flock": _w(
        "-w --timeout -E --conflict-exit-code",
        positionals=1,
        code="-c --command",
        anywhere=True,
    ),
    # -i, -l and -e take an optional argument attached to them: the next word
    # is never theirs (`xargs -i CMD` runs CMD)
    "xargs": _w(
        "-a --arg-file -d --delimiter -E -I -L --max-lines -n --max-args -P --max-procs "
        "-s --max-chars"
    ),
    "nsenter": _w("-t --target -m -u -i -n -p -U -S -G -r -w"),
    "unshare": _w(),
    "strace": _w("-e -o -p -s -u -E"),
    "ltrace": _w("-e -o -p -s -u"),
    "valgrind": _w(),
    "caffeinate": _w(),
    "firejail": _w(),
    "prlimit": _w(),
    "runuser": _w(
        "-u -g -G -w --whitelist-environment",
        code="-c --command -s --shell --session-command",
        anywhere=True,
    ),
    "su": _w(
        "-g --group -G --supp-group -w --whitelist-environment",
        positionals=1,
        code="-c --command -s --shell --session-command",
        anywhere=True,
    ),
    # `sg GROUP CMD` and `sg GROUP -c CMD` both hand CMD to /bin/sh -c
    "sg": _w(positionals=1, shell=True, code="-c", anywhere=True),
    "setarch": _w(positionals=1),
    "setpriv": _w(
        "--reuid --regid --ruid --rgid --euid --egid --groups --inh-caps --ambient-caps "
        "--bounding-set --securebits --pdeathsig --selinux-label --apparmor-profile "
        "--landlock-access --landlock-rule"
    ),
    "fakeroot": _w("-l --lib --faked -s -i -b"),
    "ssh-agent": _w("-a -E -t -P -O"),
    "npx": _w("-p --package", code="-c --call", anywhere=True),
    "pnpx": _w("-p --package", code="-c --call", anywhere=True),
    "sudoedit": _w(),
    "pkexec": _w("--user"),
    "chpst": _w("-u -U -e -/ -n -l -L -m -d -o -p -f -c"),
    "numactl": _w("-C --cpunodebind -N -m --membind -p --preferred -i --interleave"),
    "cgexec": _w("-g"),
    "proot": _w("-r -b -w"),
    "bwrap": _w(
        "--bind --ro-bind --dev-bind --chdir --setenv --unsetenv --proc --dev --tmpfs "
        "--symlink --uid --gid --hostname --seccomp --file --dir --remount-ro --args"
    ),
    "watch": _w("-n --interval -d --differences -c -e -g -t -x", shell=True),
    "ssh": _w(
        "-B -b -c -D -E -e -I -i -J -L -l -m -O -p -Q -R -S -W -w",
        positionals=1,
        shell=True,
        code="-o -F -P",
    ),
    "parallel": _w("-j --jobs -S --sshlogin --tag -k", shell=True),
    "script": _w("-O -I -T -t -E --echo", code="-c --command", anywhere=True),
    "expect": _w(code="-c -f"),
    "tmux": _w(shell=True),
    "screen": _w(shell=True),
    "dbus-run-session": _w(),
    "systemd-run": _w("-p --property -u --unit -M --machine --uid --gid -E --setenv"),
}

#: Shells: ``-c SCRIPT`` is shell code; a first operand is a script file.
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "rbash"})
#: Options of shells that consume the next word.
SHELL_VALUE_OPTIONS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})

#: Builtins and commands whose listed operands are shell code. The value is
#: the set of operand positions (0-based, after options) that are code; -1
#: means every operand.
EVAL_LIKE: dict[str, int] = {
    "eval": -1,
    "trap": 0,
    "source": 0,
    ".": 0,
    "at": -1,
    "batch": -1,
    "crontab": -1,
}


@dataclass(frozen=True, slots=True)
class Interpreter:
    """A program that runs code in its own language.

    Attributes:
        code_options: options whose value is a program (``-c``, ``-e``).
        module_options: options whose value selects code to load (``-m``,
            ``--require``, ``-f FILE``).
        value_options: options that consume a word that is not code.
        program_operand: the first operand is the program (awk, sed, jq)
            unless a code option was given; else it is a script file.
        operand_program_index: which operand is the program (sqlite3: 1).
        stops_at_program: options are no longer read after the program
            (python); when False a later word starting with ``-`` can add
            a code option (perl, sed with GNU argument permutation).
        reads_stdin_program: with no program, it reads one from stdin.
    """

    code_options: frozenset[str] = frozenset()
    module_options: frozenset[str] = frozenset()
    value_options: frozenset[str] = frozenset()
    program_operand: bool = False
    operand_program_index: int = 0
    stops_at_program: bool = True
    reads_stdin_program: bool = True
    known_flags: frozenset[str] = frozenset()


def _i(
    code: str = "",
    module: str = "",
    value: str = "",
    flags: str = "",
    program_operand: bool = False,
    index: int = 0,
    stops: bool = True,
    stdin: bool = True,
) -> Interpreter:
    return Interpreter(
        frozenset(code.split()),
        frozenset(module.split()),
        frozenset(value.split()),
        program_operand,
        index,
        stops,
        stdin,
        frozenset(flags.split()),
    )


_PYTHON = _i(
    code="-c",
    module="-m",
    value="-W -X --check-hash-based-pycs",
    flags="-b -B -d -E -h -i -I -O -OO -P -q -s -S -u -v -V -x --help --version",
)
_NODE = _i(
    code="-e --eval -p --print",
    module="-r --require --import --loader --experimental-loader",
    value="--title --stack-size --max-old-space-size",
    flags="--no-warnings --enable-source-maps -v --version -h --help",
    stops=False,
)
_PERL = _i(
    code="-e -E", module="-M -m -I", flags="-w -W -X -n -p -a -l -s -t -T -c -v", stops=False
)
_RUBY = _i(code="-e", module="-r -I", flags="-w -W -n -p -a -l -s -v -c", stops=False)
_AWK = _i(
    code="--source",
    module="-f --file -i --include -l --load -E --exec",
    value="-v --assign -F --field-separator",
    flags="-b -c -C -d -D -e -g -h -M -N -O -p -P -r -s -S -t -V --posix --traditional",
    program_operand=True,
    stdin=False,
)
_SED = _i(
    code="-e --expression",
    module="-f --file",
    value="-l --line-length",
    flags="-n --quiet --silent -E -r --regexp-extended -s --separate -u -z --null-data "
    "--posix --debug --sandbox",
    program_operand=True,
    stops=False,
    stdin=False,
)
_JQ = _i(
    module="-f --from-file -L",
    value="--indent --tab",
    flags="-r -j -a -c -n -e -s -S -C -M --raw-output --join-output --ascii-output "
    "--compact-output --null-input --exit-status --slurp --sort-keys --raw-input -R --seq",
    program_operand=True,
    stdin=False,
)
_SQLITE = _i(
    code="-cmd",
    value="-separator -newline -nullvalue -mmap -pagecache -lookaside -vfs",
    flags="-bail -batch -column -csv -header -noheader -html -json -line -list -markdown "
    "-readonly -table -box -echo -safe",
    program_operand=True,
    index=1,
    stops=False,
)
_PSQL = _i(
    code="-c --command",
    module="-f --file",
    value="-d --dbname -h --host -p --port -U --username -o --output -F -R -P -T "
    "-v --set --variable",
    flags="-A -t -q -X -e -E -a -b -n -s -S -x -w -W --no-psqlrc --csv",
    stops=False,
)
_MYSQL = _i(
    code="-e --execute --init-command",
    value="-h --host -P --port -u --user -D --database",
    flags="-B -N -s -t -E --batch --silent --table --raw",
    stops=False,
)

#: Interpreters by command name (``python3.12`` matches ``python3``).
INTERPRETERS: dict[str, Interpreter] = {
    "python": _PYTHON,
    "python2": _PYTHON,
    "python3": _PYTHON,
    "pypy": _PYTHON,
    "pypy3": _PYTHON,
    "uv": _i(code="-c", stops=False),
    "node": _NODE,
    "nodejs": _NODE,
    "deno": _i(code="eval", stops=False),
    "bun": _i(code="-e --eval -p --print", stops=False),
    "perl": _PERL,
    "ruby": _RUBY,
    "php": _i(code="-r -B -R -E -F", module="-f -d -c", stops=False),
    "lua": _i(code="-e", module="-l", stops=False),
    "luajit": _i(code="-e", module="-l", stops=False),
    "tclsh": _i(),
    "wish": _i(),
    "Rscript": _i(code="-e", stops=False),
    "R": _i(code="-e", stops=False),
    "julia": _i(code="-e --eval -E --print", stops=False),
    "osascript": _i(code="-e", stops=False),
    "pwsh": _i(code="-c -Command -EncodedCommand", stops=False),
    "awk": _AWK,
    "gawk": _AWK,
    "mawk": _AWK,
    "nawk": _AWK,
    "busybox-awk": _AWK,
    "sed": _SED,
    "gsed": _SED,
    "jq": _JQ,
    "gojq": _JQ,
    "yq": _i(module="--from-file", program_operand=True, stops=False, stdin=False),
    "sqlite3": _SQLITE,
    "duckdb": _i(code="-c -s -cmd", program_operand=True, index=1, stops=False),
    "psql": _PSQL,
    "mysql": _MYSQL,
    "mariadb": _MYSQL,
    "bc": _i(stops=False),
    "dc": _i(code="-e --expression", module="-f --file", stops=False),
    "m4": _i(stops=False),
    "gdb": _i(code="-ex -iex --eval-command", module="-x --command", stops=False),
    "vim": _i(code="-c --cmd", stops=False),
    "nvim": _i(code="-c --cmd", stops=False),
    "emacs": _i(code="--eval", stops=False),
    # line editors read commands (``!cmd`` runs one) from stdin and from a
    # file operand that starts with ``!``; vi's family runs ``+CMD``
    "ed": _i(stops=False),
    "red": _i(stops=False),
    "ex": _i(code="-c --cmd", stops=False),
    "vi": _i(code="-c --cmd", stops=False),
    "view": _i(code="-c --cmd", stops=False),
    "vimdiff": _i(code="-c --cmd", stops=False),
    "gvim": _i(code="-c --cmd", stops=False),
    "rvim": _i(code="-c --cmd", stops=False),
    # make's operands NAME=VALUE (and NAME:=$(shell …)) are its language,
    # and it imports its environment as variables
    "make": _i(module="-f --file --makefile", stops=False),
    "gmake": _i(module="-f --file --makefile", stops=False),
    # their commands on stdin include ``!cmd`` (and mail's ``~!``)
    "mail": _i(stops=False),
    "mailx": _i(stops=False),
    "ftp": _i(stops=False),
    "sftp": _i(code="-b", stops=False),
}

#: Commands where a word starting with ``-`` can select an option that runs
#: code or a program (CWE-88); option injection there is an error. The value
#: lists options whose value is code or a program.
OPTION_CODE_COMMANDS: dict[str, frozenset[str]] = {
    "git": frozenset(
        {
            "-c",
            "--upload-pack",
            "-u",
            "--receive-pack",
            "--exec",
            "--config-env",
            "-x",  # rebase -x CMD
            "-O",  # grep -O<pager>
            "--open-files-in-pager",
            "--ext-diff",
            "--extcmd",
            "--tool",
        }
    ),
    "pytest": frozenset(
        {
            "-p",
            "-c",
            "-o",
            "--override-ini",
            "--config-file",
            "--rootdir",
            "--confcutdir",
            "--junitxml",
            "--junit-xml",
            "--basetemp",
            "--log-file",
            "--debug",
            "--pyargs",
            "--import-mode",
        }
    ),
    "split": frozenset({"--filter"}),
    "date": frozenset({"-f", "--file"}),
    "wc": frozenset({"--files0-from"}),
    "du": frozenset({"--files0-from"}),
    "ssh": frozenset({"-o", "-F", "-P"}),
    "scp": frozenset({"-o", "-F", "-S"}),
    "sftp": frozenset({"-o", "-F", "-S", "-D"}),
    "tar": frozenset(
        {
            "-I",
            "--use-compress-program",
            "--to-command",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "-F",
            "--rsh-command",
        }
    ),
    "rsync": frozenset({"-e", "--rsh", "--rsync-path"}),
    "find": frozenset({"-exec", "-execdir", "-ok", "-okdir", "-fprintf", "-delete"}),
    "zip": frozenset({"-TT", "--unzip-command"}),
    "sort": frozenset({"--compress-program", "--files0-from"}),
    "wget": frozenset({"-e", "--execute", "--use-askpass"}),
    "curl": frozenset({"-K", "--config"}),
    "less": frozenset(),
    "man": frozenset({"-P", "--pager", "-H", "--html"}),
    "tcpdump": frozenset({"-z"}),
    "docker": frozenset({"--entrypoint"}),
    "podman": frozenset({"--entrypoint"}),
    "kubectl": frozenset(),
    "make": frozenset({"-f", "--file", "--eval"}),
    "hg": frozenset({"--config"}),
    "7z": frozenset(),
    "npm": frozenset(),
    "pip": frozenset(),
}

#: Variables whose value selects code: assigning a caller value to one lets
#: the caller choose what runs.
CODE_VARIABLES = frozenset(
    {
        "PATH",
        "BASH_ENV",
        "ENV",
        "PS4",
        "PS1",
        "PS0",
        "PROMPT_COMMAND",
        "IFS",
        "SHELLOPTS",
        "BASHOPTS",
        "CDPATH",
        "GLOBIGNORE",
        "HOME",
        "SHELL",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "MANPAGER",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "LESSKEY",
        "TERMINFO",
        "GCONV_PATH",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "DOCKER_HOST",
        "KUBECONFIG",
        "MAKEFLAGS",
        "MFLAGS",
        "MAKEFILES",
        "GIT_DIR",
        "GIT_TEMPLATE_DIR",
        "PYTHONUSERBASE",
        "PGSERVICEFILE",
        "PGSYSCONFDIR",
        "CC",
        "CXX",
        "LD",
        "AWKPATH",
        "JQ_LIBRARY_PATH",
        "ZDOTDIR",
        "INPUTRC",
        "TMPDIR",
        "HOSTALIASES",
        "RESOLV_HOST_CONF",
        "OPENSSL_CONF",
        "CURL_HOME",
        "WGETRC",
        "NPM_CONFIG_PREFIX",
        # programs that read options (some of which run commands) from the
        # environment
        "TAR_OPTIONS",
        "ZIPOPT",
        "ZIP",
        "UNZIP",
        "UNZIPOPT",
        "GZIP",
        "BZIP",
        "BZIP2",
        "XZ_OPT",
        "XZ_DEFAULTS",
        "LESS",
        "MORE",
        "SYSTEMD_PAGER",
        "SYSTEMD_LESS",
        "GREP_OPTIONS",
        "RSYNC_RSH",
        "RSYNC_CONNECT_PROG",
        "CVS_RSH",
        "RSH",
        "MANOPT",
        "FCEDIT",
        "POSIXLY_CORRECT",
        "HOSTFILE",
        "KUBE_EDITOR",
        "DOCKER_CONFIG",
        "CURL_CA_BUNDLE",
        "PROMPT_DIRTRIM",
        "PS2",
        "PS3",
        "TERMCAP",
    }
)
#: Prefixes of code-selecting variables (``LD_PRELOAD``, ``GIT_SSH_COMMAND``…).
CODE_VARIABLE_PREFIXES = (
    "LD_",
    "DYLD_",
    "GIT_",
    "PYTHON",
    "PERL",
    "RUBY",
    "NODE_",
    "BASH_",
    "NPM_CONFIG_",
    "PIP_",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "LUA_",
    "R_PROFILE",
    "CARGO_",
    "AWS_",  # AWS_CONFIG_FILE: credential_process runs a command
    "GOFLAGS",  # -toolexec=…
    "GOENV",
    "GOPROXY",
    "GOPATH",
    "GOROOT",
    "GOTOOLCHAIN",
    "GOEXPERIMENT",
    "CGO_",
    "RUST",
    "XDG_",  # XDG_CONFIG_HOME: every program's configuration
    "CLASSPATH",
    "PHP",
    "JULIA_",
    "YARN_",
    "GEM_",
    "BUNDLE_",
    "COMPOSER",
    "SYSTEMD_",
    "DBUS_",
    "GNUPG",
    "SSLKEYLOGFILE",
    "NETRC",
    "HGRC",
    "MAVEN_",
    "GRADLE_",
    "ANT_",
    "SBT_",
    "ELECTRON_",
    "KUBE",
    "DOCKER_",
    "HELM_",
    "TF_",  # terraform: TF_CLI_ARGS
    "ANSIBLE_",
    "VAGRANT_",
    "CONDA",
    "VIRTUAL_ENV",
    "UV_",
    "POETRY_",
    "PIPX_",
    "TOX_",
    "NOX_",
    "PYTEST_",  # PYTEST_ADDOPTS, PYTEST_PLUGINS
)
#: Name endings that, by convention, carry options, commands or where
#: configuration is read from (``MYTOOL_OPTS``, ``DEPLOY_CMD``…).
CODE_VARIABLE_SUFFIXES = (
    "_OPTS",
    "_OPT",
    "_OPTIONS",
    "_FLAGS",
    "_ARGS",
    "_COMMAND",
    "_CMD",
    "_PAGER",
    "_EDITOR",
    "_HOOK",
    "_HOOKS",
    "_PATH",
    "_CONFIG",
    "_CONF",
    "_RC",
    "_PROGRAM",
    "_PROG",
    "_SHELL",
    "_EXEC",
    "_PLUGINS",
    "_PRELOAD",
    "_LIBRARY",
)


def is_code_variable(name: str) -> bool:
    """Whether assigning to `name` can choose code: a known variable, a
    known family, or a name whose convention is options or commands."""
    return (
        name in CODE_VARIABLES
        or name.startswith(CODE_VARIABLE_PREFIXES)
        or (name.isupper() and name.endswith(CODE_VARIABLE_SUFFIXES))
    )


#: Commands that never interpret their operands as options in a harmful way
#: and print or compare them (no option-injection warning).
INERT_COMMANDS = frozenset({"echo", ":", "true", "false", "test", "[", "logger", "basename"})


@dataclass(frozen=True, slots=True)
class Grammar:
    """What the checker knows for certain about a program's command line:
    the only knowledge that lets a value starting with ``-`` reach it.

    Attributes:
        value_options: options that always take the next word as their
            value, whatever it looks like (so a value there is never read as
            an option).
        end_of_options: ``--`` ends the options: every later word is an
            operand, and no operand is ever run or read as an option.
        code_options: options whose value is code or names a program (a
            caller value there is refused).
        runs_operands: the program may run one of its operands.
    """

    value_options: frozenset[str] = frozenset()
    end_of_options: bool = True
    code_options: frozenset[str] = frozenset()
    #: the program may run an operand as a command or code (declared with
    #: ``runs_operands: true``): caller data is refused there
    runs_operands: bool = False
    #: declared with ``runs_operands: false``: the operands are data
    data_operands: bool = False
    #: declared with ``stdin: data``: standard input is read as data
    stdin_data: bool = False
    #: declared with ``output_options``: the program writes no file but
    #: those these options' values name (None: not stated, it may write any)
    output_options: frozenset[str] | None = None
    #: some options start with ``+`` (dig's ``+short``): a word starting with
    #: ``+`` is an option too
    plus_options: bool = False


def _g(value: str = "") -> Grammar:
    return Grammar(frozenset(value.split()))


#: Programs whose option grammar is known (GNU coreutils, grep, git's ``--``).
#: A caller value that may start with ``-`` reaches a program only at an
#: inert position of a grammar listed here (or declared with ``programs:``):
#: after ``--``, or as the value of an option that always takes one. Only
#: what was read in each program's own documentation is listed; ``make`` is
#: absent on purpose (its operands ``NAME=VALUE`` are evaluated even after
#: ``--``), and so is every option whose argument is optional (``make -j``).
GRAMMARS: dict[str, Grammar] = {
    **dict.fromkeys(
        [
            *("cat", "ls", "rm", "rmdir", "cp", "mv", "mkdir", "touch", "chmod", "chown"),
            *("chgrp", "ln", "wc", "uniq", "diff", "cmp", "stat", "file", "du", "df"),
            *("readlink", "realpath", "dirname", "tee", "md5sum", "sha1sum", "sha224sum"),
            *("sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "base32", "base64"),
            *("nl", "tac", "rev", "fold", "paste", "join", "comm", "od", "strings", "shred"),
            *("truncate", "git"),
        ],
        _g(),
    ),
    "grep": _g("-e --regexp -f --file -m --max-count -A -B -C"),
    "egrep": _g("-e --regexp -f --file -m --max-count -A -B -C"),
    "fgrep": _g("-e --regexp -f --file -m --max-count -A -B -C"),
    "rg": _g("-e --regexp -g --glob -m --max-count -A -B -C"),
    "head": _g("-n --lines -c --bytes"),
    "tail": _g("-n --lines -c --bytes"),
    "cut": _g("-d --delimiter -f --fields -c --characters -b --bytes"),
    "sort": _g("-t --field-separator -k --key"),
    "tar": _g("-f --file -C --directory"),
    "split": Grammar(
        frozenset(
            [
                "-l",
                "--lines",
                "-b",
                "--bytes",
                "-C",
                "--line-bytes",
                "-n",
                "--number",
                "-a",
                "--suffix-length",
                "--additional-suffix",
                "-t",
                "--separator",
            ]
        ),
        True,
        frozenset({"--filter"}),
    ),
    "date": Grammar(
        frozenset(["-d", "--date", "-r", "--reference", "-s", "--set"]),
        True,
        frozenset({"-f", "--file"}),
    ),
    "journalctl": _g(
        "-u --unit -g --grep -n --lines -p --priority -t --identifier -S --since -U --until "
        "-o --output -b --boot"
    ),
    # git's subcommands, by "git SUBCOMMAND": only the options read in each
    # one's documentation as always taking the next word
    "git grep": _g("-e -f -m --max-count -A -B -C --max-depth --threads"),
    "git log": _g("-n --max-count --author --committer --grep --since --until --skip"),
    # kubectl subcommands that run nothing they are given (not exec, run,
    # debug, attach or plugin commands, where the words after `--` are one)
    **dict.fromkeys(
        [f"kubectl {sub}" for sub in ("get", "describe", "logs", "delete", "top", "explain")],
        _g("-n --namespace -l --selector -o --output -c --container --tail --since --context"),
    ),
}
