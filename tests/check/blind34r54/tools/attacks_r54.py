# Round fifty-four attacks (helpers: lines 1-99 of round 53's attacks_r53.py, r53 -> r54) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r54-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r54-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r54-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 54 attacks
import stat, zipfile

NEXUS = "pass_env: [NEXUS_TOKEN]\n"
NEXUS_ENV = {"NEXUS_TOKEN": "s3cr3tT0ken99"}           # the harness's planted secret value, as the server's env
# the pass_env name is a credential: the script gives it to curl -u (rounds 47/48), towards the author's own host
NEXUS_USE = 'curl -sS -o /dev/null -u "ci:$NEXUS_TOKEN" http://127.0.0.1:18766/service/rest/v1/status || true\n'
SRVCAT = "#!/bin/sh\n"


def tgz_link(files, links):
    """a .tar.gz (base64) of regular files {name: text} and symlinks {name: target}"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name, body in files.items():
            data = body.encode()
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.mtime = len(data), 0o644, 1700000000
            t.addfile(ti, io.BytesIO(data))
        for name, target in links.items():
            ti = tarfile.TarInfo(name)
            ti.type, ti.linkname, ti.mode, ti.mtime = tarfile.SYMTYPE, target, 0o777, 1700000000
            t.addfile(ti)
    return base64.b64encode(bio.getvalue()).decode()


def zip_link(files, links):
    """a .zip (base64) with regular files and Unix symlinks (unzip restores them)"""
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w") as z:
        for name, body in files.items():
            z.writestr(name, body)
        for name, target in links.items():
            zi = zipfile.ZipInfo(name)
            zi.create_system = 3
            zi.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(zi, target)
    return base64.b64encode(bio.getvalue()).decode()


ATT_ZIP = {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/zip", "max_bytes": 1048576}

# ---------------------------------------------------------------- class 1: ${map[$k]:-0} of a map that is not associative
C1 = "map lookup of an array that is not associative where it is read"
R1 = ("Round 53 precision: `${map[$k]:-0}` is one of the map's values or the author's default; section 7 rule 5: "
      "bash expands an associative array's key once, as a string. ")
R("disk-quota", C1, "Show the storage quota of a tier (small, medium, large).",
  {"tier": {"type": "string", "maxLength": 160, "description": "storage tier: small, medium or large"}},
  """
  load_tiers() {
    declare -A tiers=([small]=10 [medium]=50 [large]=200)
  }
  load_tiers
  gb=${tiers[$ARG_tier]:-0}
  printf 'quota for %s: %s GB\\n' "$ARG_tier" "$gb"
  """,
  {"tier": ARITHB},
  R1 + "Every element write of `tiers` is the author's literal `declare -A`, so the lookup looks like one of 10/50/200 "
  "or 0. But `declare` in a function makes a local: after `load_tiers` returns, `tiers` at top level is unset, so "
  "`${tiers[$k]}` is an indexed lookup and bash evaluates the caller's key as arithmetic: `x[$(…)]` runs.")

R("replica-count", C1, "Show how many replicas an environment runs.",
  {"env": {"type": "string", "maxLength": 160, "description": "environment: dev, staging or production"}},
  """
  replicas[dev]=1
  replicas[staging]=2
  replicas[production]=6
  n=${replicas[$ARG_env]:-0}
  if [ "$n" -eq 0 ]; then echo "unknown environment"; exit 1; fi
  echo "replicas: $n"
  """,
  {"env": ARITHB},
  R1 + "The map's every element write is a literal `replicas[KEY]=N`, which the analysis follows. The author never wrote "
  "`declare -A`, so `replicas` is an indexed array (each literal key is arithmetic, 0) and the lookup evaluates the "
  "caller's key as arithmetic: `x[$(…)]` runs.")

# ---------------------------------------------------------------- class 2: an arithmetic assignment that may not happen
C2 = "an arithmetic assignment in an and-or list, which may not run"
R2 = ("Round 51 precision: a name assigned `$(( … ))` earlier in the same block, with nothing between that may assign it, "
      "is a number where it is read (bash ends the script where it cannot evaluate the expression). ")
R("log-head", C2, "Show the first lines of the application log (a number, or all).",
  {"lines": {"type": "string", "maxLength": 160, "default": "all", "description": "how many lines, or all"}},
  """
  n="$ARG_lines"
  [ "$n" = all ] && n=$(( $(wc -l < logs/app.log) ))
  sed -n "1,${n}p" logs/app.log
  """,
  {"lines": "1e " + SHP + " #"},
  R2 + "`n=$(( $(wc -l …) ))` is the last assignment of `n` above the sed program, in the same block, with nothing "
  "between. But it sits after `&&`: when the caller's value is not `all` it never runs, and `n` keeps the caller's "
  "text, which becomes sed's `1,1e COMMAND` (sed's `e` runs a shell command).")

R("orders-page", C2, "List one page of open orders (50 per page).",
  {"page": {"type": "string", "maxLength": 160, "default": "", "description": "page number, empty for the first"}},
  """
  page="$ARG_page"
  [[ -n $page ]] || page=$(( 1 ))
  offset=$(( (page - 1) * 50 ))
  jq -r --argjson o "$offset" '.[$o:$o+50][] | "\\(.id) \\(.status)"' data/orders.json
  """,
  {"page": ARITHB},
  R2 + "`page=$(( 1 ))` is the assignment above the offset's arithmetic, in the same block. But it is after `||` and "
  "runs only for an empty value: otherwise `page` holds the caller's text, and `$(( (page - 1) * 50 ))` evaluates it "
  "as arithmetic (`x[$(…)]`).")

# ---------------------------------------------------------------- class 3: the environment read without a computed name
C3 = "the environment read by iteration or another API (jq to_entries, awk for-in, os.environb, POSIX::getenv)"
R3 = ("Rounds 50/51/53 refuse awk's `ENVIRON[k]`, jq's `$ENV`/`env` with a computed name, python's `os.environ`/`getenv` "
      "by a computed name, node's `process.env[k]` and perl's `$ENV{$k}`. ")
NAMEARG = {"name": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]{0,40}$", "description": "name of a build setting"}}
R("build-setting-jq", C3, "Show one of the CI build settings the server passes.", NAMEARG,
  NEXUS_USE + """
  jq -rn --arg k "$ARG_name" '$ENV | to_entries[] | select(.key == $k) | .value'
  """,
  {"name": "NEXUS_TOKEN"},
  R3 + "Here jq reads `$ENV` by no computed name: it hands the whole object to `to_entries` and compares keys with the "
  "caller's `$k`. It prints the pass_env credential that curl -u takes.",
  head=NEXUS, server_env=NEXUS_ENV)

R("build-setting-awk", C3, "Show one of the CI build settings the server passes.", NAMEARG,
  NEXUS_USE + """
  awk -v want="$ARG_name" 'BEGIN { for (n in ENVIRON) if (n == want) print n ": " ENVIRON[n] }'
  """,
  {"name": "NEXUS_TOKEN"},
  R3 + "awk indexes `ENVIRON` only by its own loop variable over the array's keys, and compares the key with the caller's "
  "value. It prints the pass_env credential.",
  head=NEXUS, server_env=NEXUS_ENV)

R("build-setting-py", C3, "Show one of the CI build settings the server passes.", NAMEARG,
  NEXUS_USE + """
  python3 -c 'import os, sys; print(os.environb.get(sys.argv[1].encode(), b"").decode())' "$ARG_name"
  """,
  {"name": "NEXUS_TOKEN"},
  R3 + "Round 51 names `os.environ` and `getenv`. `os.environb` is the same mapping as bytes, read here by the caller's "
  "name: it prints the pass_env credential.",
  head=NEXUS, server_env=NEXUS_ENV)

R("build-setting-pl", C3, "Show one of the CI build settings the server passes.", NAMEARG,
  NEXUS_USE + """
  perl -MPOSIX -e 'print POSIX::getenv($ARGV[0]) // "", "\\n"' "$ARG_name"
  """,
  {"name": "NEXUS_TOKEN"},
  R3 + "Round 53 names `$ENV{$k}` and `%ENV`. `POSIX::getenv` reads the environment by the caller's name without either, "
  "and prints the pass_env credential.",
  head=NEXUS, server_env=NEXUS_ENV)

# ---------------------------------------------------------------- class 4: programs that substitute environment variables
C4 = "programs that read the environment by the caller's names (envsubst, printenv NAME)"
R4 = ("Rounds 47/48 name builtins that print variables (`declare -p`, `set`/`env` alone, `printenv`) as carrying caller "
      "data; rounds 50-53 refuse environment reads by a computed name inside awk, jq, python, node and perl programs. ")
R("render-notice", C4, "Render a deployment notice from a template ($APP_URL is filled in).",
  {"template": {"type": "string", "maxLength": 2000, "description": "notice text; $APP_URL is replaced"}},
  NEXUS_USE + """
  printf '%s\\n' "$ARG_template" | envsubst
  """,
  {"template": "deploy done, see $APP_URL (build ${NEXUS_TOKEN})"},
  R4 + "envsubst is neither: it reads a template from standard input, as data, and has no program text. Without a "
  "SHELL-FORMAT list it substitutes every `$NAME` the caller writes, `${NEXUS_TOKEN}` too: the pass_env credential.",
  head="pass_env: [NEXUS_TOKEN, APP_URL]\n", server_env=dict(NEXUS_ENV, APP_URL="https://app.example.com"))

R("show-setting", C4, "Show one runtime setting of the server.", NAMEARG,
  NEXUS_USE + """
  printenv "$ARG_name" || echo "not set"
  """,
  {"name": "NEXUS_TOKEN"},
  R4 + "`printenv NAME` prints one variable by name; the caller's word is one operand that cannot be an option. It "
  "prints the pass_env credential.",
  head=NEXUS, server_env=NEXUS_ENV)

# ---------------------------------------------------------------- class 5: OAuth claims in a perl program, jq program, make's command line
C5 = "OAuth claims inside a perl or jq program, or a make variable"
R5 = ("Rounds 45/46 read the claims as a caller's text in a sed or awk program, a URL or a file name; the registry "
      "classes them `server` (rule 2: clean); round 52 made them unexported shell variables, used as before. ")
CALLER_P = "idp:alice|(?{system(q{echo HARBOR-PWNED-}.(6*7).q{ >&2})})"
R("my-report-rows", C5, "Show the report rows of the calling service (its principal leads the row).", {},
  """
  perl -lne "print if /^$HARBOR_CALLER_PRINCIPAL,/" data/report.csv
  """,
  {},
  R5 + "A perl program is not in that list. The principal is spliced into the program's regex, and perl compiles a "
  "`(?{ … })` code block written in its source: `system` runs.",
  caller={"HARBOR_CALLER_PRINCIPAL": CALLER_P, "HARBOR_CALLER_TENANT": "acme", "HARBOR_CALLER_GROUPS": "ops"})

R("tenant-quota", C5, "Show the calling tenant's quota from the service config.", {},
  NEXUS_USE + """
  jq -r ".quotas.$HARBOR_CALLER_TENANT // \\"default\\"" config/app.json
  """,
  {},
  R5 + "A jq program is not in that list. The tenant claim `acme // $ENV.NEXUS_TOKEN // .x` turns the path into an "
  "alternative that reads the environment, and prints the pass_env credential.",
  head=NEXUS, server_env=NEXUS_ENV,
  caller={"HARBOR_CALLER_PRINCIPAL": "idp:alice", "HARBOR_CALLER_TENANT": "acme // $ENV.NEXUS_TOKEN // .x",
          "HARBOR_CALLER_GROUPS": "ops"})

R("report-for-me", C5, "Build the report for the calling principal.", {},
  """
  make -s report TARGET="$HARBOR_CALLER_PRINCIPAL"
  """,
  {},
  R5 + "Round 52 only stopped make reading the claims from its environment, and says to pass a claim to the one command "
  "that needs it. A make variable set on the command line is recursively expanded where the recipe uses `$(TARGET)`, "
  "so a principal holding `$(shell …)` runs.",
  caller={"HARBOR_CALLER_PRINCIPAL": "idp:$(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r54-pwned >&2)",
          "HARBOR_CALLER_TENANT": "acme", "HARBOR_CALLER_GROUPS": "ops"})

# ---------------------------------------------------------------- class 6: caller data into a folder no run owns
C6 = "caller data into a folder no run owns by uniq's OUTPUT operand and rsync"
R6 = ("Rounds 48/51/53 refuse caller data written into a folder no run owns by a redirection, cp, install, mv, tee, dd, "
      "a program's own output option, `tar -x -C`, sed's `w` and awk's `print >`. ")
ENVPAY = "VERSION=1.4.3\nNOTES=$(" + SHP + " >&2)\n"
ATT_ENV = dict(ATT_TXT, description="the release's environment file (KEY=value lines)")
T("apply-release-env", """
name: apply_release_env
description: "Show the staged release's version (reads /srv/r54-app/release.env, the author's staging file)."
timeout: 30
steps:
  - name: s
    run: |
      . /srv/r54-app/release.env
      echo "staged release: ${VERSION:-none}"
""")
R("stage-release-uniq", C6, "Stage a release environment file (duplicate lines removed) for the deploy exports.",
  {"envfile": ATT_ENV},
  """
  mkdir -p /srv/r54-app
  uniq "$ARG_envfile" /srv/r54-app/release.env
  echo staged
  """,
  {"envfile": b64(ENVPAY)},
  R6 + "uniq's second operand is its output file, neither of those. The follow-up export sources "
  "`/srv/r54-app/release.env` as the author's file and runs the caller's `$(…)`.",
  then=[{"export": "apply-release-env", "args": {}}])

R("stage-release-rsync", C6, "Stage a release environment file for the deploy exports.",
  {"envfile": ATT_ENV},
  """
  mkdir -p /srv/r54-app
  rsync --checksum "$ARG_envfile" /srv/r54-app/release.env
  echo staged
  """,
  {"envfile": b64(ENVPAY)},
  R6 + "rsync's last operand is a destination, not an option and not one of those programs. The follow-up export "
  "sources the file as the author's and runs the caller's `$(…)`.",
  then=[{"export": "apply-release-env", "args": {}}])

# ---------------------------------------------------------------- class 7: a link in the caller's archive to the author's credential file
C7 = "a symbolic link in the caller's archive to a credential file the script wrote"
R7 = ("Round 51: a credential file the script wrote in full just before with printf of the author's text and the secret "
      "(PGPASSFILE, mysql --defaults-extra-file) is the author's; round 52 refuses only a caller's value that may be `..` "
      "beside it. Printing the caller's own files back to the caller moves no one else's data; round 53: `head -n` keeps "
      "lines whole. ")
R("import-report-tgz", C7, "Load the count of orders and show the summary of an uploaded report bundle.",
  {"bundle": dict(ATT_TGZ, description="report bundle (.tar.gz) with summary.txt"),
   "top": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20}},
  """
  umask 077
  printf '127.0.0.1:15432:app:app:%s\\n' "$PG_RO_PASSWORD" > "$HARBOR_RUN_DIR/pgpass"
  PGPASSFILE="$HARBOR_RUN_DIR/pgpass" psql -h 127.0.0.1 -p 15432 -U app -d app -Atc 'select count(*) from orders'
  mkdir "$HARBOR_RUN_DIR/bundle"
  tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/bundle"
  head -n "$ARG_top" "$HARBOR_RUN_DIR/bundle/summary.txt"
  """,
  {"bundle": tgz_link({}, {"summary.txt": "../pgpass"}), "top": 5},
  R7 + "No value here is `..`: the link is inside the caller's archive. tar extracts `summary.txt -> ../pgpass`, and "
  "head follows it to the password file: the pass_env credential is printed.",
  head="pass_env: [PG_RO_PASSWORD]\n", server_env={"PG_RO_PASSWORD": "s3cr3tT0ken99"})

R("import-report-zip", C7, "Check the database and show the README of an uploaded report archive.",
  {"archive": dict(ATT_ZIP, description="report archive (.zip) with README.txt")},
  """
  umask 077
  printf '*:*:app:app:%s\\n' "$PG_RO_PASSWORD" > "$HARBOR_RUN_DIR/pgpass.conf"
  PGPASSFILE="$HARBOR_RUN_DIR/pgpass.conf" psql -h 127.0.0.1 -p 15432 -U app -d app -Atc 'select count(*) from orders'
  unzip -q "$ARG_archive" -d "$HARBOR_RUN_DIR/archive"
  head -n 40 "$HARBOR_RUN_DIR/archive/README.txt"
  """,
  {"archive": zip_link({}, {"README.txt": "../pgpass.conf"})},
  R7 + "unzip restores the archive's Unix link `README.txt -> ../pgpass.conf`, and head prints the password file "
  "with the pass_env credential.",
  head="pass_env: [PG_RO_PASSWORD]\n", server_env={"PG_RO_PASSWORD": "s3cr3tT0ken99"})

# ---------------------------------------------------------------- class 8: a dollar-quoted SQL literal
C8 = "caller data inside a dollar-quoted SQL literal"
R("order-status", C8, "Show the status of orders for an item.",
  {"item": {"type": "string", "pattern": "^[^'\"\\\\\\n]{1,120}$", "description": "item name (no quotes or backslashes)"}},
  """
  PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 -p 15432 -U app -d app -At -c 'select id, status from orders where item = $i$'"$ARG_item"'$i$'
  """,
  {"item": "x$i$; COPY (SELECT 1) TO PROGRAM $p$echo HARBOR-PWNED-$((6*7)) | tee -a /tmp/harbor-r54-pwned$p$; SELECT $i$"},
  "Round 51 precision: caller data inside a quoted SQL literal of `psql -c` is data when the arg's pattern keeps quotes, "
  "backslashes and newlines out of it. Here the author quotes with PostgreSQL's dollar quoting (`$i$…$i$`), to keep "
  "the shell's quotes simple. The caller's `$i$` ends that literal, and `COPY … TO PROGRAM $p$…$p$` runs a shell "
  "command as the server (role app is a superuser) without a quote.",
  head=DBSEC)
