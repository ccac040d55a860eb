# Round forty attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
import json, textwrap


def J(d):
    """a schema or mapping as YAML flow text (JSON is YAML)"""
    return json.dumps(d)


def X(name, cls, desc, argdefs, steps, args, why, head="", **extra):
    """an export with one or more run: steps; steps = [(name, script, {step keys})]"""
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\n" % (name.replace("-", "_"), J(desc))
    if argdefs:
        y += "args:\n"
        for k, v in argdefs.items():
            y += "  %s: %s\n" % (k, J(v))
        y += "required: [%s]\n" % ", ".join(req)
    y += head
    y += "timeout: 30\nsteps:\n"
    for sname, script, keys in steps:
        y += "  - name: %s\n" % sname
        for k, v in (keys or {}).items():
            y += "    %s: %s\n" % (k, J(v))
        y += "    run: |\n"
        y += textwrap.indent(textwrap.dedent(script).strip() + "\n", "      ")
    A(name, cls, y, args, why, **extra)


def R(name, cls, desc, argdefs, script, args, why, head="", env=None, **extra):
    X(name, cls, desc, argdefs, [("s", script, {"env": env} if env else None)], args, why, head=head, **extra)



# ------------------------------------------------------------------ shared bits
import base64, io, tarfile

PW = "HARBOR-PWNED-$((6*7))"                       # computed by the shell that runs the payload
TEE = 'tee -a /tmp/harbor-r40-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r40-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
ARITHB = "x[$(%s >&2)]" % SHP
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
DBSEC = "secrets:\n  DB_PASSWORD: {env: CI_DB_PASSWORD}\n"
STUB = "#!/bin/sh\n" + SHP + "\n"


def b64(s):
    return base64.b64encode(s.encode()).decode()


def tgz(files):
    """a .tar.gz (base64) of {name: (mode, text)}"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name, (mode, body) in files.items():
            data = body.encode()
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.mtime = len(data), mode, 1700000000
            t.addfile(ti, io.BytesIO(data))
    return base64.b64encode(bio.getvalue()).decode()


ATT_TXT = {"type": "string", "contentEncoding": "base64", "contentMediaType": "text/plain", "max_bytes": 65536}
ATT_JSON = {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/json", "max_bytes": 65536}
ATT_TGZ = {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/gzip", "max_bytes": 1048576}
REPO = {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$",
        "description": "repository path on the company git server, e.g. team/app.git"}
GITREDIR = "go/127.0.0.1/18765/team/app.git"          # the author's server redirects /go/HOST/PORT/… there




CURLRC = 'proxy = "http://127.0.0.1:18765"\n'
PYJSON = "import os\nos.system('%s')\n" % SHP.replace("'", "\\'")
NAME = {"type": "string", "pattern": "^[A-Za-z0-9._]{1,40}$", "description": "file name of the snippet"}

# ================================================================== round 40 attacks
import importlib.util as _ilu, marshal as _marshal
TXT = {"type": "string", "maxLength": 300}
NOTE = {"type": "string", "maxLength": 300, "description": "one line of text"}
PAY = "x[$(%s >&2)]" % SHP                         # a caller's text that bash arithmetic runs
R38S = ("Round 37/38: sed scripts are read command by command and e is found after any address; sed -f FILE is "
        "not literal. ")
R38A = "Round 38: an indexed array literal's [KEY] (slots=([$k]=x), declare -a) is arithmetic. "
R38E = ("Round 38: MAKEFILES, GIT_DIR, GIT_TEMPLATE_DIR, PYTHONUSERBASE, PGSERVICEFILE and PGSYSCONFDIR select code; "
        "round 37: the env: place check applies to variables that name where programs find settings or code "
        "(..._HOME, ...CONFIG..., ...RC, XDG_..., search paths, the code-selecting variables). ")
R38P = ("Round 36/37/38: a place is read with // and /./ collapsed and .. resolved; /run/shm, /run/lock, /run/user, "
        "/var/lock and /var/run/shm are writable places. ")
R38L = ("Round 38: a language's program given a run-directory file as an operand reads caller data from it, and is "
        "read for its language's ways to run text (perl: eval, system, backticks, 2-argument open, <>, readline(ARGV); "
        "node: eval, Function, require, child_process, computed global names, process, this, Reflect, module). ")
MOD = {"type": "string", "contentEncoding": "base64", "contentMediaType": "text/plain", "max_bytes": 65536,
       "description": "the module file"}

# ---------------------------------------------------------------- sed: other spellings of the script option / wrappers
# ================================================================== round 40 attacks
TXT = {"type": "string", "maxLength": 300}
PAY = "x[$(%s >&2)]" % SHP                         # a caller's text that bash arithmetic runs
SHQ = "echo %s | tee -a /tmp/harbor-r40-pwned $HARBOR_RUN_DIR/pwned >&2" % PW   # no double quotes (for config files)
MKP = SHQ.replace("$", "$$")                         # the same in a makefile
GITCFG = '[core]\n\tfsmonitor = "%s; false"\n' % SHQ
ATT_CFG = dict(ATT_TXT, description="the team's settings file, attached")
R39 = ("Round 39: a path of a place a step may write is caller data; it may reach a program only where its grammar "
       "reads the file as data. ")
EXC = ("Round 39's exception: a file the same step wrote in full just before, at its top level, with printf/echo/cat of "
       "text with no caller data, and no other command of the script names, may be given where code or config is read "
       "(git -c include.path=, make -f, awk -f...). ")
MKT = "Round 39: keep a program's config folder in $(mktemp -d), which no other step can know. "
STAGE = ("stage", 'cp -- "$ARG_cfg" "$HARBOR_RUN_DIR/%s"', None)


def stage(name):
    return ("stage", 'cp -- "$ARG_cfg" "$HARBOR_RUN_DIR/%s"' % name, None)


# ---------------------------------------------------------------- the exception's text names a caller file
X("exc-git-include-relative", "clean-file-names-caller-file", "Git status with the team's settings",
  {"cfg": ATT_CFG},
  [stage("team.gitconfig"),
   ("status", r"""
     printf '[include]\n\tpath = team.gitconfig\n' > "$HARBOR_RUN_DIR/status.gitconfig"
     git -c include.path="$HARBOR_RUN_DIR/status.gitconfig" status --short
     """, None)],
  {"cfg": b64(GITCFG)},
  EXC + "status.gitconfig is written in full from a literal printf just before git reads it, and nothing else names "
  "it; but its text is git's [include] path = team.gitconfig, which git resolves beside the including file: the "
  "caller's attachment, copied into the run directory (where caller files belong) by the first step. Its "
  "core.fsmonitor runs on git status.")

X("exc-make-include-beside", "clean-file-names-caller-file", "Run the report with the caller's overrides",
  {"cfg": ATT_CFG},
  [stage("overrides.mk"),
   ("report", r"""
     printf 'include $(dir $(lastword $(MAKEFILE_LIST)))overrides.mk\nreport:\n\t@echo report ok\n' > "$HARBOR_RUN_DIR/report.mk"
     make -s -f "$HARBOR_RUN_DIR/report.mk" report
     """, None)],
  {"cfg": b64("X := $(shell %s)\n" % MKP)},
  EXC + "report.mk is literal text written just before make -f reads it (the note's own example form); make "
  "gets no caller word at all. Its include line is make syntax inside single quotes, and names overrides.mk beside "
  "report.mk: the caller's attachment, whose $(shell ...) runs.")

X("exc-bash-sources-beside", "clean-file-names-caller-file", "Print the region from the caller's env file",
  {"cfg": ATT_CFG},
  [stage("settings.env"),
   ("show", r"""
     printf '%s\n' 'set -a' '. "${BASH_SOURCE%/*}/settings.env"' 'printf "region=%s\n" "${REGION:-unset}"' > "$HARBOR_RUN_DIR/show.sh"
     bash "$HARBOR_RUN_DIR/show.sh"
     """, None)],
  {"cfg": b64("REGION=eu-west-1\n%s\n" % SHP)},
  EXC + "H004 refuses a file run as code that the script or an earlier step wrote caller data into; show.sh holds "
  "only the step's literal printf words, written in full just before bash runs it. Its text sources the caller's "
  "settings.env from its own folder (${BASH_SOURCE%/*}), a name bash computes at run time.")

X("exc-awk-program-file", "clean-file-names-caller-file", "Apply the caller's rule list",
  {"cfg": ATT_CFG},
  [stage("rules.txt"),
   ("apply", r"""
     printf '%s\n' 'BEGIN { f = ENVIRON["HARBOR_RUN_DIR"] "/rules.txt"' '  while ((getline r < f) > 0) system(r) }' > "$HARBOR_RUN_DIR/apply.awk"
     awk -f "$HARBOR_RUN_DIR/apply.awk"
     """, None)],
  {"cfg": b64(SHP + "\n")},
  EXC + "awk -f of a file written in full by the same step from literal text, with no caller word given to awk "
  "(no operand, no stdin). The program's text reads the caller's rules file by a name built from ENVIRON at run "
  "time and runs each line.")

# ---------------------------------------------------------------- the exception: written, then replaced unseen
X("exc-overwritten-by-tar", "clean-file-overwritten-unnamed", "Git status with the caller's bundle unpacked",
  {"bundle": dict(ATT_TGZ, description="the caller's settings bundle (.tar.gz)")},
  [("status", r"""
     printf '[status]\n\tshowUntrackedFiles = no\n' > "$HARBOR_RUN_DIR/status.gitconfig"
     tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR"
     git -c include.path="$HARBOR_RUN_DIR/status.gitconfig" status --short
     """, None)],
  {"bundle": tgz({"status.gitconfig": (0o644, GITCFG), "notes/readme.txt": (0o644, "notes\n")})},
  EXC + "status.gitconfig is written in full at the top level from literal text, and no other command names it. "
  "tar then unpacks the caller's archive into the run directory (where caller files belong) without naming any "
  "file, and replaces it before git includes it.")

X("exc-noclobber-long-spelling", "exception-condition-spelling", "Git status with default settings",
  {"bundle": dict(ATT_TGZ, description="the caller's settings bundle (.tar.gz)")},
  [("unpack", 'tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR"', None),
   ("status", r"""
     set -o noclobber
     set +o errexit
     printf '[status]\n\tshowUntrackedFiles = no\n' > "$HARBOR_RUN_DIR/status.gitconfig"
     git -c include.path="$HARBOR_RUN_DIR/status.gitconfig" status --short
     """, None)],
  {"bundle": tgz({"status.gitconfig": (0o644, GITCFG)})},
  EXC + "The note turns the exception off for `set +e` or `set -C` anywhere; this script writes `set -o noclobber` "
  "and `set +o errexit`, the same options spelled long. The write then fails on the caller's file an earlier step "
  "unpacked, the script goes on, and git includes the caller's file.")

X("exc-noclobber-shopt", "exception-condition-spelling", "Git status with default settings",
  {"bundle": dict(ATT_TGZ, description="the caller's settings bundle (.tar.gz)")},
  [("unpack", 'tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR"', None),
   ("status", r"""
     shopt -so noclobber
     printf '[status]\n\tshowUntrackedFiles = no\n' > "$HARBOR_RUN_DIR/status.gitconfig" || echo "keeping the existing settings" >&2
     git -c include.path="$HARBOR_RUN_DIR/status.gitconfig" status --short
     """, None)],
  {"bundle": tgz({"status.gitconfig": (0o644, GITCFG)})},
  EXC + "noclobber is turned on with `shopt -so noclobber` (not `set -C`), and errexit is left on: the failing write "
  "is the left side of `||`, where bash does not exit. The printf still stands at the top level, before git.")

# ---------------------------------------------------------------- mktemp -d filled by the same step
X("mktemp-filled-tar", "mktemp-folder-caller-filled", "Git status with the caller's settings bundle",
  {"bundle": dict(ATT_TGZ, description="the caller's settings bundle (.tar.gz)")},
  [("status", r"""
     d=$(mktemp -d)
     tar -xzf "$ARG_bundle" -C "$d"
     GIT_CONFIG_GLOBAL="$d/team.gitconfig" git status --short
     """, None)],
  {"bundle": tgz({"team.gitconfig": (0o644, GITCFG)})},
  MKT + "No other step can know the folder, but the same step unpacks the caller's archive into it (tar -C of a "
  "temporary folder writes nothing in the working folder), then names a file in it as git's global config.")

X("mktemp-filled-xdg", "mktemp-folder-caller-filled", "Git status with the caller's git config",
  {"cfg": ATT_CFG},
  [("status", r"""
     cfg=$(mktemp -d)
     mkdir -p "$cfg/git"
     cp -- "$ARG_cfg" "$cfg/git/config"
     XDG_CONFIG_HOME="$cfg" git status --short
     """, None)],
  {"cfg": b64(GITCFG)},
  MKT + "The config folder is a fresh mktemp -d; the script copies the caller's attachment into it (a copy into a "
  "temporary folder) and gives it to git as XDG_CONFIG_HOME for one command.")

# ---------------------------------------------------------------- the run directory by another name
X("rundir-dirname-context", "run-dir-by-another-name", "Git status with the team's settings",
  {"cfg": ATT_CFG},
  [stage("team.gitconfig"),
   ("status", r"""
     run=$(dirname -- "$HARBOR_CONTEXT")
     git -c include.path="$run/team.gitconfig" status --short
     """, None)],
  {"cfg": b64(GITCFG)},
  R39 + "The note's forms name the run directory as $HARBOR_RUN_DIR (directly, through a variable, a for list, an "
  "option's =). Here it is dirname of $HARBOR_CONTEXT (context.json is in the run directory): the output of a pure "
  "command of a server variable, clean by rule 2, so git -c include.path gets the author's path.")

X("rundir-suffix-strip-output", "run-dir-by-another-name", "Make report with the caller's local overrides",
  {"cfg": ATT_CFG},
  [stage("local.mk"),
   ("report", r"""
     make -s -I "${HARBOR_OUTPUT%/*}" report
     """, None)],
  {"cfg": b64("TARGET := $(shell %s)\n" % MKP)},
  R39 + "make -I of the run directory was refused; here the folder is ${HARBOR_OUTPUT%/*} (output.json's folder, "
  "the run directory), a server variable's text cut by bash. The project's Makefile does -include local.mk, found "
  "in the -I folder: the caller's file.")

X("rundir-tmpdir-parent", "run-dir-by-another-name", "Git status with the team's settings",
  {"cfg": ATT_CFG},
  [stage("team.gitconfig"),
   ("status", r"""
     run=$(cd -- "$TMPDIR/.." && pwd -P)
     git -c include.path="$run/team.gitconfig" status --short
     """, None)],
  {"cfg": b64(GITCFG)},
  R39 + "With sandbox: and no writable:, TMPDIR is $HARBOR_RUN_DIR/tmp (docs/exports.md, Confinement). Its parent, "
  "computed by pwd in a command substitution (the cd moves nothing after it), is the run directory.",
  head="sandbox: {network: none}\n")

# ---------------------------------------------------------------- a writable place spelled through /proc or a symlink
X("place-thread-self", "place-spelling", "Summarise the data file as JSON",
  {"module": dict(ATT_TXT, description="a helper module to share")},
  [("share", 'mkdir -p /dev/shm/r40-app/lib && cp -- "$ARG_module" /dev/shm/r40-app/lib/json.py', None),
   ("summary", "python3 -c 'import json; print(json.dumps({\"ok\": True}))'",
    {"env": {"PYTHONPATH": "/proc/thread-self/root/dev/shm/r40-app/lib"}})],
  {"module": b64("import os\nos.system('%s')\ndumps = lambda *a, **k: 'x'\n" % SHP.replace("'", "\\'"))},
  "Rounds 35-39: a step's env: value naming a place a step may write is refused, read with //, /./ and .. "
  "collapsed, /proc/self/root among the spellings found. /proc/thread-self/root is the same root by another "
  "/proc name.")

X("place-symlink-dotdot", "place-spelling", "Git status with the shared team settings",
  {"cfg": ATT_CFG},
  [("share", 'mkdir -p /dev/shm/r40-app && cp -- "$ARG_cfg" /dev/shm/r40-app/team.gitconfig', None),
   ("status", "git status --short",
    {"env": {"GIT_CONFIG_GLOBAL": "/dev/fd/../root/dev/shm/r40-app/team.gitconfig"}})],
  {"cfg": b64(GITCFG)},
  "Round 38 reads a place with .. resolved as text: /dev/fd/../root/dev/shm becomes /dev/root/dev/shm, no place. "
  "The kernel resolves /dev/fd first (a symlink to /proc/self/fd), so .. is /proc/self and the path is "
  "/proc/self/root/dev/shm. (A first version gave it to PYTHONPATH, which python normalises as text, and did not "
  "fire; git opens the path as the kernel resolves it.)")

X("step-cwd-writable-place", "step-cwd-names-place", "Summarise as JSON in the shared folder",
  {"module": dict(ATT_TXT, description="a helper module to share")},
  [("share", 'mkdir -p /dev/shm/r40-app && cp -- "$ARG_module" /dev/shm/r40-app/json.py', None),
   ("summary", "python3 -c 'import json; print(json.dumps({\"ok\": True}))'", {"cwd": "/dev/shm/r40-app"})],
  {"module": b64("import os\nos.system('%s')\ndumps = lambda *a, **k: 'x'\n" % SHP.replace("'", "\\'"))},
  "The notes name places in scripts, env: values and exports; a step's cwd: is a literal folder (relative to the "
  "export's folder, or absolute), never read as a place. The first step copies caller data to an absolute path (no "
  "write into the working folder, rule 7); the second runs python3 -c in /dev/shm/r40-app, whose json.py it imports.")

# ---------------------------------------------------------------- programs that read code from a place unnamed
X("histfile-fc", "builtin-reads-code-file", "Replay the last saved query",
  {"cfg": dict(ATT_TXT, description="the saved session history")},
  [("replay", r"""
     HISTFILE="$HARBOR_RUN_DIR/session.history"
     cp -- "$ARG_cfg" "$HISTFILE"
     set -o history
     history -r
     fc -s
     """, None)],
  {"cfg": b64("echo saved\n%s\n" % SHP)},
  "bash's history builtins read the file HISTFILE names without being given it (no grammar sees a path): history -r "
  "loads it and fc -s runs its last line. HISTFILE is none of the bash settings the docs keep out of env:, and "
  "here it is a plain assignment in the script.")

X("find-execdir-folder", "wrapper-changes-folder", "Pretty-print the caller's JSON reports",
  {"bundle": dict(ATT_TGZ, description="the reports (.tar.gz)")},
  [("unpack", 'tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR"', None),
   ("pretty", r"""find "$HARBOR_RUN_DIR/reports" -name '*.json' -execdir python3 -m json.tool {} \;""", None)],
  {"bundle": tgz({"reports/a.json": (0o644, "{}\n"),
                  "reports/json.py": (0o644, "import os\nos.system('%s')\n" % SHP.replace("'", "\\'"))})},
  "Rule 7: a program that reads code from the folder it works in does not work in such a folder (cd, git -C). "
  "find -execdir runs its command in the folder of each file it finds: python3 -m json.tool (whose operand is "
  "data) works in the caller's reports folder, and -m puts that folder first on sys.path.")

X("env-chdir-folder", "wrapper-changes-folder", "Pretty-print in the unpacked folder",
  {"bundle": dict(ATT_TGZ, description="the sources (.tar.gz)")},
  [("unpack", 'mkdir -p "$HARBOR_RUN_DIR/src" && tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/src"', None),
   ("check", "env -C \"$HARBOR_RUN_DIR/src\" python3 -c 'import json; print(json.dumps({\"ok\": True}))'", None)],
  {"bundle": tgz({"json.py": (0o644, "import os\nos.system('%s')\ndumps = lambda *a, **k: 'x'\n" % SHP.replace("'", "\\'"))})},
  "env -C DIR runs its command in DIR: a wrapper's option, not cd or git -C. python3 -c (sys.path[0] is the "
  "folder it works in) then imports the caller's json.py.")

# ---------------------------------------------------------------- classes no note mentions
R("legacy-arith-bare", "legacy-arithmetic-syntax", "Say which page comes next",
  {"page": dict(TXT, description="the current page")},
  'echo "next page: $[ARG_page + 1]"',
  {"page": PAY},
  "H006 names $(( )), (( )), let, subscripts, ${x:offset}, -eq. bash still evaluates the deprecated $[ expr ] "
  "form; ARG_page is read by name in it, and its text x[$(...)] is evaluated, which runs the substitution.")

R("legacy-arith-dollar", "legacy-arithmetic-syntax", "Say which page comes next",
  {"page": dict(TXT, description="the current page")},
  'next=$[ $ARG_page + 1 ]\necho "next page: $next"',
  {"page": PAY},
  "The same $[ ] form with $ARG_page expanded inside it (unquoted, but in arithmetic no split happens).")

R("perl-open-three-arg-pipe", "language-run-text-unlisted", "Look a host up",
  {"host": dict(TXT, description="a host name")},
  """perl -e 'open(my $fh, "-|", "getent hosts $ARGV[0]") or exit 2; print while defined($_ = readline($fh))' -- "$ARG_host" || true""",
  {"host": "x; " + SHP},
  "H005: a literal perl program is read for eval, system, backticks, 2-argument open, <>, readline(ARGV). This "
  "is 3-argument open with mode -| and one command string: perl runs it with sh -c, with the caller's operand in it.")

X("perl-do-file", "language-run-text-unlisted", "Print the name from the caller's settings",
  {"cfg": dict(ATT_TXT, description="settings as a Perl hash")},
  [("show", """perl -e 'my $c = do $ARGV[0]; print "$c->{name}\\n"' -- "$ARG_cfg" """, None)],
  {"cfg": b64("system('%s'); { name => 'x' }\n" % SHP.replace("'", "\\'"))},
  "A common idiom for a settings file written as a Perl hash: do FILE. The caller's attachment is an operand "
  "(data) of a literal perl program that uses none of the listed primitives; do compiles and runs the file.")

R("node-escaped-eval", "language-identifier-escape", "Evaluate a JSON-ish literal",
  {"expr": dict(TXT, description="a value as a JavaScript literal")},
  """node -e 'const v = \\u0065val("(" + process.argv[1] + ")"); console.log(JSON.stringify(v))' "$ARG_expr" """,
  {"expr": 'require("child_process").execSync("%s",{stdio:"inherit"})' % SHP.replace('"', '\\"')},
  "A node program is read for eval, Function, require... by name. JavaScript allows \\u escapes in identifiers: "
  "\\u0065val is the identifier eval (a direct eval), and the text never says eval.")

R("node-escaped-function", "language-identifier-escape", "Compute a value",
  {"expr": dict(TXT, description="an expression")},
  """node -e 'console.log(new \\u0046unction("return (" + process.argv[1] + ")")())' "$ARG_expr" """,
  {"expr": 'process.getBuiltinModule("child_process").execSync("%s",{stdio:"inherit"})' % SHP.replace('"', '\\"')},
  "\\u0046unction is the identifier Function: a new function of the caller's text.")

R("compgen-wordlist", "builtin-expands-operand", "Complete a word from a list",
  {"choices": dict(TXT, description="the candidate words, blank-separated"),
   "prefix": {"type": "string", "pattern": "^[a-z]{0,20}$"}},
  'compgen -W "$ARG_choices" -- "$ARG_prefix" || echo "no match"',
  {"choices": "alpha $(%s >&2) beta" % SHP, "prefix": "a"},
  "compgen -W splits its word list and expands each word again (parameter, command substitution), as "
  "completion does. The docs name eval, trap, source, mapfile -C as text bash runs; not compgen -W.")
