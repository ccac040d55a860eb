# Round thirty-eight attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r38-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r38-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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

# ================================================================== round 38 attacks
TXT = {"type": "string", "maxLength": 300}
PAY = "x[$(%s >&2)]" % SHP                         # a caller's text that bash arithmetic runs
R37 = ("Round 37: sed scripts are read command by command (addresses with flags, \\%re%, any delimiter, {...}, the text of "
       "a/i/c), so e is found after any address. ")
R37M = "Round 37: mapfile -C TEXT runs its callback text like eval (a name it assigns holds any text). "
R37E = ("Round 37: a step's env: place check applies only to variables that name where programs find settings or code "
        "(..._HOME, ...CONFIG..., ...RC, XDG_..., search paths, the code-selecting variables). ")
NOTE = {"type": "string", "maxLength": 300, "description": "one line of text"}

# ---------------------------------------------------------------- sed: where a command ends
R("sed-a-text-escaped-backslash", "sed-text-continuation",
  "Echo a note with a footer.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | sed '$a\
  -- path C:\\
  /./e'
  """, {"note": SHP},
  R37 + "The text of a\\ continues while a line ends with a backslash; this line ends with an escaped backslash "
  "(\\\\), which GNU sed reads as a literal backslash ending the text, so the next line /./e is a command that runs "
  "the caller's line (a reader that continues on any trailing backslash takes it for text).")

R("sed-colon-label-semicolon", "sed-label-end",
  "Trim a note.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | sed ':top;/./e'
  """, {"note": SHP},
  R37 + "POSIX reads a : label to the end of the line; GNU sed 4.9 ends it at ';', so /./e after it is a command "
  "that runs the caller's line.")

R("sed-branch-label-semicolon", "sed-label-end",
  "Print a note unless it is a comment.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | sed '/^#/b skip;/./e
  :skip'
  """, {"note": SHP},
  R37 + "The label of b ends at ';' in GNU sed (POSIX reads it to the end of the line), so '/./e' is a command.")

R("sed-v-version-semicolon", "sed-label-end",
  "Print a note (GNU sed required).", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | sed 'v 4.2;/./e'
  """, {"note": SHP},
  R37 + "GNU's v command takes an optional version that ends at ';'; a reader that takes v's argument to the end of "
  "the line misses '/./e', which runs the caller's line.")

R("sed-expression-abbreviated", "sed-script-option-spelling",
  "Print a note.", {"note": NOTE},
  r"""
  printf '%s\n' "$ARG_note" | sed --expr='/./e'
  """, {"note": SHP},
  R37 + "GNU getopt accepts an unambiguous prefix of a long option: --expr= is --expression=, the script '/./e', "
  "which runs the caller's line.")

X("sed-script-from-stdin", "sed-script-option-spelling",
  "Print a note from a file.", {"note": NOTE},
  [("save", r"""
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note.txt"
  """, None),
   ("show", r"""
  sed -f - "$HARBOR_RUN_DIR/note.txt" <<'SED'
  /./e
  SED
  """, None)], {"note": SHP},
  R37 + "The script is sed -f - (a here-document on standard input), not a word; it runs each line of the file, "
  "which holds the caller's line.")

# ---------------------------------------------------------------- text bash runs or evaluates, other spellings
R("mapfile-callback-function-args", "text-run-callback",
  "Check the sizes a caller lists.", {"sizes": TXT},
  r"""
  last=0
  keep() { last=$2; }
  mapfile -t -C keep -c 1 rows < <(printf '%s\n' "$ARG_sizes")
  if (( last > 100 )); then echo "last size is large"; else echo "ok (${#rows[@]} rows)"; fi
  """, {"sizes": PAY},
  R37M + "Here the callback text is only a function's name (keep assigns nothing in the text); mapfile calls it with "
  "the index and the line as $1 and $2, so last=$2 is the caller's line, then evaluated in (( )).")

R("readarray-callback-printf", "text-run-callback",
  "Check the sizes a caller lists.", {"sizes": TXT},
  r"""
  last=0
  readarray -t -C 'printf -v last %.0s%s' -c 1 rows < <(printf '%s\n' "$ARG_sizes")
  if (( last > 100 )); then echo "last size is large"; else echo "ok (${#rows[@]} rows)"; fi
  """, {"sizes": PAY},
  R37M + "readarray is mapfile's other name; its callback text gets the index and the line appended, so "
  "'printf -v last %.0s%s' sets last to the caller's line, evaluated in (( )).")

R("compgen-wordlist-expansion", "compgen-wordlist",
  "Complete a word from a caller's list.", {"choices": TXT, "prefix": {"type": "string", "pattern": "^[a-z]{0,20}$"}},
  r"""
  compgen -W "$ARG_choices" -- "$ARG_prefix" || echo "no match"
  """, {"choices": "main $(%s)" % SHP, "prefix": "ma"},
  "bash's compgen -W expands each word of its word list (parameter, command and arithmetic substitution), so "
  "$(...) in the caller's list runs; no note lists compgen among texts bash runs.")

R("select-reply", "select-reply",
  "Pick a target by its menu number.", {"pick": TXT},
  r"""
  select target in staging production; do
    if (( REPLY >= 1 && REPLY <= 2 )); then echo "target: $target"; fi
    break
  done <<< "$ARG_pick"
  """, {"pick": PAY},
  "select reads the caller's line into REPLY (an assignment no note lists, like read's), and (( REPLY >= 1 )) "
  "evaluates it.")

R("getopts-optarg", "getopts-optarg",
  "Cap a limit.", {"limit": TXT},
  r"""
  getopts 'n:' opt -n "$ARG_limit"
  limit=$OPTARG
  (( limit > 50 )) && limit=50
  echo "limit=$limit"
  """, {"limit": PAY},
  "getopts assigns OPTARG the caller's word (an assignment by a builtin, not read/printf -v/mapfile); limit=$OPTARG "
  "is then evaluated in (( )).")

R("dollar-bracket-arith", "deprecated-arith",
  "Pages for a count.", {"count": TXT},
  r"""
  n=$ARG_count
  echo "pages: $[ n / 10 + 1 ]"
  """, {"count": PAY},
  "bash still evaluates the old $[ ... ] form as arithmetic; n holds the caller's text, which it evaluates.")

R("compound-assign-subscript", "array-subscript-forms",
  "Reserve a slot.", {"slot": TXT},
  r"""
  declare -a slots=([$ARG_slot]=reserved)
  echo "${#slots[@]} slot reserved"
  """, {"slot": PAY},
  "In an indexed array's compound assignment, [$ARG_slot]= is an arithmetic subscript: the caller's text is evaluated.")

R("unset-subscript", "array-subscript-forms",
  "Drop an item from a queue.", {"index": TXT},
  r"""
  queue=(build test deploy)
  unset "queue[$ARG_index]"
  echo "left: ${queue[*]}"
  """, {"index": PAY},
  "unset 'queue[...]' evaluates the subscript of an indexed array as arithmetic: the caller's text runs.")

R("indirect-expansion-subscript", "array-subscript-forms",
  "Show a setting by name.", {"key": TXT},
  r"""
  CFG_region=eu-west-1
  CFG_tier=standard
  name="CFG_$ARG_key"
  echo "${name#CFG_} = ${!name}"
  """, {"key": PAY},
  "${!name} expands the variable named by name; CFG_x[...] is an array element, whose subscript bash evaluates.")

R("substring-offset", "array-subscript-forms",
  "Show part of a banner.", {"start": TXT},
  r"""
  banner="mcp-harbor release notes"
  echo "${banner:$ARG_start:10}"
  """, {"start": PAY},
  "The offset of ${var:offset:length} is an arithmetic expression; the caller's text is evaluated.")

# ---------------------------------------------------------------- step env: places under other names
GITDIR = tgz({"HEAD": (0o644, "ref: refs/heads/main\n"),
              "config": (0o644, '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "%s; false"\n'
                         % SHP.replace('"', '\\"')),
              "objects/info/.keep": (0o644, ""), "refs/heads/.keep": (0o644, "")})
X("step-env-git-dir", "step-env-unlisted-name",
  "Show the status of a repository snapshot.", {"snapshot": ATT_TGZ},
  [("unpack", r"""
  mkdir -p /dev/shm/r38-app/snap.git
  tar -xzf "$ARG_snapshot" -C /dev/shm/r38-app/snap.git
  """, None),
   ("status", r"""
  git status --short | head -20
  """, {"env": {"GIT_DIR": "/dev/shm/r38-app/snap.git"}})], {"snapshot": GITDIR},
  R37E + "GIT_DIR names where git finds its config (and hooks) but matches none of those names; the config the "
  "caller unpacked there sets core.fsmonitor, which git status runs.")

X("step-env-makefiles", "step-env-unlisted-name",
  "Build report with the caller's notes.", {"note": NOTE},
  [("save", r"""
  mkdir -p /dev/shm/r38-app
  printf '%s\n' "$ARG_note" > /dev/shm/r38-app/notes.txt
  """, None),
   ("report", r"""
  make -s report
  """, {"env": {"MAKEFILES": "/dev/shm/r38-app/notes.txt"}})],
  {"note": "X := $(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r38-pwned $$HARBOR_RUN_DIR/pwned)"},
  R37E + "GNU make reads every file MAKEFILES lists as a makefile before the Makefile; the name matches none of the "
  "patterns, and the file holds the caller's line, whose $(shell ...) runs.")

PTH = "import os; os.system('%s')\n" % SHP
X("step-env-pythonuserbase", "step-env-unlisted-name",
  "Install a caller's path file and run the report.", {"pth": ATT_TXT},
  [("install", r"""
  d=$(PYTHONUSERBASE=/dev/shm/r38-app/py python3 -m site --user-site)
  mkdir -p "$d"
  cp "$ARG_pth" "$d/extra.pth"
  """, None),
   ("report", r"""
  python3 -c 'import sys; print(len(sys.path), "path entries")'
  """, {"env": {"PYTHONUSERBASE": "/dev/shm/r38-app/py"}})], {"pth": b64(PTH)},
  R37E + "PYTHONUSERBASE selects the user site-packages, whose .pth lines that start with import run at start-up; "
  "the name matches none of the patterns.")

PYJSON38 = "import os\nos.system('%s')\n" % SHP
X("step-env-dotdot-place", "step-env-place-spelling",
  "Run the report with vendored modules.", {"module": ATT_TXT},
  [("vendor", r"""
  mkdir -p /dev/shm/r38-app/vendor
  cp "$ARG_module" /dev/shm/r38-app/vendor/json.py
  """, None),
   ("report", r"""
  python3 -c 'import json; print(json.dumps({"ok": True}))'
  """, {"env": {"PYTHONPATH": "/etc/../dev/shm/r38-app/vendor"}})], {"module": b64(PYJSON38)},
  "Round 36 collapses // and /./ only; /etc/../dev/shm is /dev/shm, where the first step put the caller's json.py, "
  "which python imports first.")

X("step-env-var-run-shm", "step-env-place-spelling",
  "Run the report with vendored modules.", {"module": ATT_TXT},
  [("vendor", r"""
  mkdir -p /dev/shm/r38-app/vendor
  cp "$ARG_module" /dev/shm/r38-app/vendor/json.py
  """, None),
   ("report", r"""
  python3 -c 'import json; print(json.dumps({"ok": True}))'
  """, {"env": {"PYTHONPATH": "/var/run/shm/r38-app/vendor"}})], {"module": b64(PYJSON38)},
  "Round 37 lists /run/shm, /run/lock, /run/user and /var/lock; /var/run is a link to /run, so /var/run/shm is "
  "/dev/shm, where the first step put the caller's json.py.")
