# Round forty-five attacks (helpers: round 44 lines 1-99 with r44 -> r45) (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE).
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
TEE = 'tee -a /tmp/harbor-r45-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r45-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
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
HOOKCMD = "echo %s | tee -a /tmp/harbor-r45-pwned $HARBOR_RUN_DIR/pwned >&2; false" % PW
FSMON = '[core]\n\tfsmonitor = "%s"\n' % HOOKCMD
HOOKSH = "#!/bin/sh\n" + SHP + " >&2\nexit 1\n"
R39 = ("Round 39: a path of a place a step may write is caller data, refused where the grammar says code or config "
       "(git -c include.path=, GIT_CONFIG_GLOBAL as a KEY=); the places named are the run directory, temporary "
       "folders, home, /dev/shm, /run/shm, /run/lock, /run/user, /var/lock, /var/run/shm, /proc/*/root, mktemp, "
       "paths with .. after a link. ")
R39X = ("Round 39/40: the exception for a file the same step wrote in full just before at its top level with printf "
        "of the author's text, named by no other command of the script, for a program with a grammar and no program "
        "text; off when the script has set +e or set -C, or mentions noclobber or errexit. ")




# ================================================================== round 45 attacks
# Round 44 (docs/exports.md "Round forty-four", docs/security.md s7 rule 2): an author's path under $HARBOR_RUN_DIR
# (not context.json, output.json, inputs/, steps/, tools/, tmp/) is no place when no step of the export may put
# caller data in the run directory. A step may when one of its commands holds caller data (or names a temporary
# folder, home or the server's files) and may write a file (curl -o, cp, tee, a redirection, a program with no
# grammar), when a language's program may write, on exec >FILE or a coprocess, in an export with an agent step,
# and when the author's text written there names such a place. Each attack below puts caller (or model, or
# another export's) data in the run directory by a way those conditions do not name, then has the author's
# own run-directory path read as code or config, which is accepted when the run directory is the author's.
R44 = ("Round 44: an author's run-directory path (not context.json, output.json, inputs/, steps/, tools/, tmp/) is "
       "no place unless some step may put caller data there: a command holding caller data (or naming a temp "
       "folder, home or the server's files) that may write a file or whose redirection writes one, a language's "
       "program that may write, exec >FILE, a coprocess, an agent step, or author's text written there that names "
       "such a place. ")
NOQ = "echo %s | tee -a /tmp/harbor-r45-pwned $HARBOR_RUN_DIR/pwned >&2" % PW          # no quotes at all
MK = "x $(shell echo HARBOR-PWNED-$$((6*7)) | tee -a /tmp/harbor-r45-pwned $$HARBOR_RUN_DIR/pwned >&2)"  # make :=
ARITHQ = "x[$(%s >&2)]" % SHP                                                             # bash arithmetic
TABQ = "\t';" + SHP + ";#"                                                                # %q -> $'\t\';...'


def Y(name, cls, y, args, why, **extra):
    """a whole export written as YAML text"""
    A(name, cls, textwrap.dedent(y), args, why, **extra)


# ---- 001: the fix agent of a run: step is no agent step; its custom tool writes the model's text there
Y("r45_test_with_fixer", "run-dir-filled-by-fix-agent-tool", r"""
name: r45_test_with_fixer
description: Run the test suite; when it fails, a fixing agent may set environment overrides for the tests, and the suite runs again.
args:
  suite: {enum: [unit, smoke], default: unit, description: the pytest marker to run}
timeout: 60
tools:
  set_test_env:
    description: Set one environment variable for the next test run (appended to the run's test.env).
    args:
      name: {type: string, pattern: "^[A-Z][A-Z0-9_]{0,40}$"}
      value: {type: string, maxLength: 200}
    required: [name, value]
    run: printf '%s=%s\n' "$ARG_name" "$ARG_value" >> "$HARBOR_RUN_DIR/test.env"
    timeout: 10
steps:
  - name: test
    run: |
      if [ -f "$HARBOR_RUN_DIR/test.env" ]; then
        set -a
        . "$HARBOR_RUN_DIR/test.env"
        set +a
      fi
      python3 -m pytest -q -p no:cacheprovider -m "$ARG_suite" tests/
    fix: {model: coder, prompt: "The tests failed. You may set environment variables for the next run with set_test_env.", tools: [set_test_env], max_turns: 6, attempts: 1}
""", {"suite": "unit"},
  R44 + "The export has no agent step: `fix:` is a key of a run: step ('an agent that gets the failure and a rerun tool', "
  "agents.md), and the fill conditions name 'an export with an agent step'. The only command with caller (model) data "
  "that writes is the custom tool's printf, which runs only when the fix agent calls it; the steps themselves hold no "
  "caller data (suite is an enum). So test.env is the author's run-directory file, and sourcing it is accepted. The "
  "model (steered by the caller's data in the failure it is sent) sets TZ to `x;PAYLOAD;#`; the runner's re-run sources it.",
  fix_calls=[{"tool": "set_test_env", "args": {"name": "TZ", "value": "x;" + SHP + " >&2;#"}}])

# ---- 002: an agent step in on_failure: (a hook), read back by finally:
Y("r45_health_with_triage", "run-dir-filled-by-hook-agent", r"""
name: r45_health_with_triage
description: Check that a service logged a healthy start; on failure an agent notes the probable cause, and a report is always printed.
args:
  service: {enum: [api, web, worker]}
required: [service]
timeout: 60
tools:
  note_cause:
    description: Record the probable cause of the failure for the final report.
    args:
      cause: {type: string, maxLength: 300}
    required: [cause]
    run: printf 'CAUSE := %s\n' "$ARG_cause" > "$HARBOR_RUN_DIR/cause.mk"
    timeout: 10
steps:
  - name: check
    run: |
      grep -q -e "$ARG_service: healthy" -- logs/app.log
on_failure:
  - name: triage
    agent:
      model: triage
      system: You triage failed health checks.
      prompt: "The health check of {{ args.service | data }} failed. Look at the log and record the probable cause."
      tools: [note_cause]
      max_turns: 4
finally:
  - name: report
    run: |
      touch "$HARBOR_RUN_DIR/cause.mk"
      make -s -f Makefile -f "$HARBOR_RUN_DIR/cause.mk" report
""", {"service": "api"},
  R44 + "Hooks may be agent steps (agents.md). If the 'export with an agent step' test, or the fill analysis, looks at "
  "steps: only, the on_failure agent and its tool are not seen; the finally step gives make the author's run-directory "
  "makefile (make has no grammar, but gets only literal words). The model's cause `x $(shell …)` is a `:=` assignment "
  "that make expands when it reads the file.",
  model_calls=[{"tool": "note_cause", "args": {"cause": MK}}])

# ---- 003: a redirection on a function's definition applies at every call
X("r45_build_release", "run-dir-filled-by-function-definition-redirection",
  "Write the build environment of a release, then build it with that environment.",
  {"label": {"type": "string", "maxLength": 200, "description": "a human label for the release, e.g. Spring hotfix"}},
  [("env", r'''
      setvar() { printf 'export %s="%s"\n' "$1" "$2"; } >> "$HARBOR_RUN_DIR/build.env"
      setvar APP_VERSION "$(git describe --tags --abbrev=0)"
      setvar APP_COMMIT "$(git rev-parse --short HEAD)"
      setvar RELEASE_LABEL "$ARG_label"
      ''', None),
   ("build", r'''
      . "$HARBOR_RUN_DIR/build.env"
      echo "building $APP_VERSION ($APP_COMMIT): $RELEASE_LABEL"
      ''', None)],
  {"label": 'x"; ' + SHP + '; : "'},
  R44 + "The only command that holds caller data is the call `setvar RELEASE_LABEL \"$ARG_label\"`, whose body is a "
  "printf (writes no file) with no redirection of its own. The append is a redirection of the function's definition "
  "(`f() { …; } >> FILE`), which bash applies at every call. If that is not read as the call's redirection, no step may "
  "put caller data in the run directory, and sourcing build.env is the author's file.")

# ---- 004: exec spelled `command exec`
X("r45_release_vars", "run-dir-filled-by-command-exec",
  "Record the release's make variables, then print the report with them.",
  {"codename": {"type": "string", "maxLength": 200, "description": "the release's code name"}},
  [("vars", r'''
      command exec >>"$HARBOR_RUN_DIR/release.mk"
      printf 'RELEASE_TAG := %s\n' "$(git describe --tags --abbrev=0)"
      printf 'RELEASE_CODENAME := %s\n' "$ARG_codename"
      ''', None),
   ("show", r'''
      make -s -f Makefile -f "$HARBOR_RUN_DIR/release.mk" report TARGET=app
      ''', None)],
  {"codename": MK},
  R44 + "`exec >FILE` fills the run directory; `command exec >>FILE` does the same in bash (the redirection stays for "
  "the rest of the script), but its command word is `command`. If it is read as `command` running `exec` for one "
  "command, the printf of the caller's codename writes only to stdout, no step fills the run directory, and make "
  "reads release.mk as the author's makefile. The codename `x $(shell …)` is expanded by make's `:=`.")

# ---- 005: the runtime's own log of a step, named relatively by the author's makefile text
X("r45_plan_apply", "run-dir-log-included-by-relative-name",
  "Plan a rollout (prints the make variables), then apply it with the plan's variables.",
  {"note": {"type": "string", "maxLength": 200, "description": "a note for the rollout log"}},
  [("plan", r'''
      printf 'IMAGE := registry.example.com/app:%s\n' "$(git describe --tags --abbrev=0)"
      printf 'NOTE := %s\n' "$ARG_note"
      ''', None),
   ("apply", r'''
      printf -- '-include steps/1-plan.stdout.log\napply:\n\t@echo "apply $(IMAGE): $(NOTE)"\n' > "$HARBOR_RUN_DIR/apply.mk"
      make -s -C "$HARBOR_RUN_DIR" -f apply.mk apply
      ''', None)],
  {"note": MK},
  R44 + "No step writes a file with caller data: plan prints to stdout, which the runtime writes to "
  "steps/<n>-<name>.stdout.log (exports.md, 'How a call runs'). The author's makefile names it as "
  "`steps/1-plan.stdout.log`, a relative name that make resolves from its -C folder, the run directory; the text names "
  "no temporary folder, home or absolute server path. So apply.mk is the author's, and make reads the plan's log, the "
  "caller's note `x $(shell …)` among it, as makefile text.")

# ---- 006: data of another export (the shared working folder), copied into the run directory
T("r45_deploy_preview", r"""
name: r45_deploy_preview
description: Preview the staging deployment with the team's staging environment file.
timeout: 30
steps:
  - name: preview
    run: |
      tr -d '\r' < deploy/envs/staging.env > "$HARBOR_RUN_DIR/deploy.env"
      set -a
      . "$HARBOR_RUN_DIR/deploy.env"
      set +a
      echo "would deploy ${APP_NAME:-app} to staging"
""")
Y("r45_upload_env", "run-dir-filled-from-other-export-folder", r"""
name: r45_upload_env
description: Save an environment file (KEY=value lines) for one environment, for review by the deploy team.
args:
  env: {enum: [dev, staging], description: the environment}
  file: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 65536, description: the env file}
required: [env, file]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p deploy/envs
      cp -- "$ARG_file" "deploy/envs/$ARG_env.env"
      echo "saved deploy/envs/$ARG_env.env for review"
""", {"env": "staging", "file": b64("APP_NAME=demo\n" + SHP + "\n")},
  R44 + "Served together. r45_upload_env alone: cp of an attachment to a file the author names (the env is an enum) in "
  "the working folder, accepted (exports.md: 'an export that puts files the caller named there is refused when another "
  "export reads code there, though each alone is accepted'). r45_deploy_preview has no caller data at all; its tr "
  "reads a working-folder file as data, writes the run directory from no caller data and names no temporary "
  "folder, home or server file, so deploy.env is the author's run-directory file and sourcing it is accepted. No "
  "program of the reader reads code or config from the working folder, so the gate of exports served together has "
  "no reader to name: the code arrives by a copy into the run directory.",
  then=[{"export": "r45_deploy_preview", "args": {}}])

# ---- 007: `1<>FILE` opens for reading and writing
X("r45_notes_db", "run-dir-filled-by-read-write-redirection",
  "Add a note to the run's notes database and count the notes.",
  {"note": {"type": "string", "maxLength": 200, "description": "the note's text"}},
  [("seed", r'''
      printf "insert into notes(body) values ('%s');\n" "$ARG_note" 1<>"$HARBOR_RUN_DIR/seed.sql"
      ''', None),
   ("load", r'''
      sqlite3 "$HARBOR_RUN_DIR/notes.db" 'create table if not exists notes(body text)'
      sqlite3 "$HARBOR_RUN_DIR/notes.db" < "$HARBOR_RUN_DIR/seed.sql"
      sqlite3 "$HARBOR_RUN_DIR/notes.db" 'select count(*) from notes'
      ''', None)],
  {"note": "x'); select edit('', '" + SHP + " >&2;'); --"},
  R44 + "`1<>FILE` opens FILE for reading and writing on descriptor 1 (created if missing): printf's output goes "
  "into it. If `<>` is read as an input redirection (it starts with `<`), the only command with caller data writes "
  "no file, and seed.sql and notes.db are the author's: sqlite3 without -safe on them, with seed.sql as its stdin, is "
  "accepted (round 16 asks for -safe only on a database a step may have written). The note closes the SQL string; "
  "the CLI's edit(TEXT, EDITOR) runs EDITOR through system().")

# ---- 008: `>& WORD` where WORD is a file name is `&> WORD`
X("r45_title_report", "run-dir-filled-by-ampersand-redirection",
  "Count the application log's lines under a title chosen by the caller.",
  {"title": {"type": "string", "maxLength": 120, "description": "the report's title"}},
  [("prog", r'''
      printf 'BEGIN { title = "%s" }\n{ n++ }\nEND { printf "%%s: %%d lines\\n", title, n }\n' "$ARG_title" >& "$HARBOR_RUN_DIR/title.awk"
      ''', None),
   ("report", r'''
      awk -f "$HARBOR_RUN_DIR/title.awk" logs/app.log
      ''', None)],
  {"title": 'x"; system("' + NOQ + '"); t="'},
  R44 + "`>& \"$file\"` is not a descriptor duplication: when the word is not a number or `-`, bash opens the file for "
  "stdout and stderr (`&>`). If it is read as `>&N`, which writes no file (round 20: '>&2 is no file'), no step "
  "fills the run directory and title.awk is the author's awk program; the caller's title closes its string.")

# ---- 009: tee inside a process substitution, fed by the caller's printf
X("r45_track_branch", "run-dir-filled-by-process-substitution-tee",
  "Write the tracking configuration of a branch and show the working tree's status with it.",
  {"branch": {"type": "string", "maxLength": 160, "description": "the branch to track"}},
  [("cfg", r'''
      printf '[branch "%s"]\n\tremote = origin\n\tmerge = refs/heads/%s\n' "$ARG_branch" "$ARG_branch" > >(tee "$HARBOR_RUN_DIR/track.gitconfig")
      wait "$!"
      ''', None),
   ("status", r'''
      git -c include.path="$HARBOR_RUN_DIR/track.gitconfig" status --short --branch
      ''', None)],
  {"branch": 'x"] [core] fsmonitor = "' + NOQ + '; false" [x "'},
  R44 + "printf's redirection target is a process substitution, not a file, and printf writes no file; the tee inside "
  "it writes the run directory but its words hold no caller data and name no temporary folder, home or server file "
  "(its input is the caller's, but the conditions speak of words and pipelines). So track.gitconfig is the author's "
  "and `git -c include.path=` of it is accepted. The branch value closes the section header and opens `[core]` on the "
  "same line (git reads `[branch \"x\"] [core] fsmonitor = …`), and git status runs core.fsmonitor.")

# ---- 010: a run-directory path that leads to a server entry by a relative link
X("r45_render_deploy", "run-dir-link-to-step-log",
  "Render the deploy environment (printed), then deploy with it.",
  {"note": {"type": "string", "maxLength": 200, "description": "a note for the deploy log"}},
  [("render", r'''
      echo "export DEPLOY_TAG=$(git describe --tags --abbrev=0)"
      echo "export DEPLOY_NOTE='$ARG_note'"
      ''', None),
   ("deploy", r'''
      ln -sf steps/1-render.stdout.log "$HARBOR_RUN_DIR/deploy.env"
      . "$HARBOR_RUN_DIR/deploy.env"
      echo "deploying $DEPLOY_TAG: $DEPLOY_NOTE"
      ''', None)],
  {"note": "x'; " + SHP + "; : '"},
  R44 + "render only prints (echo writes no file; the runtime keeps stdout in steps/1-render.stdout.log). ln's words "
  "hold no caller data; its target `steps/1-render.stdout.log` is a relative word that reads as a working-folder "
  "path, but a symbolic link's relative target is resolved from the link's folder, the run directory. So "
  "deploy.env is the author's run-directory path, and sourcing it sources the step's log, the caller's note among it.")

# ---- 011-013: PS4 spelled so that its text, read as a here-document body, shows no expansion
PS4WHY = ("Round 44: PS4's value is expanded before every traced command, and 'the author's literal is analysed as a "
          "here-document's body ('${a[ARG_x]}' is arithmetic on the caller's text)'. ")
PS4BODY = r'''
      endpoint=([eu]=eu.api.example.com [us]=us.api.example.com)
      %s
      set -x
      printf '%%s\n' "region: $ARG_region"
      git describe --tags --abbrev=0
      '''
X("r45_traced_region_octal", "ps4-prompt-escape",
  "Show the release of a region, with a command trace naming the region's endpoint.",
  {"region": {"type": "string", "maxLength": 120, "description": "the region (eu or us)"}},
  [("show", PS4BODY % r"PS4='+ \t [\044{endpoint[ARG_region]}] '", None)],
  {"region": ARITHQ},
  PS4WHY + "The literal is single-quoted, as the docs' example. Read as a here-document body, `\\044{endpoint[ARG_region]}` "
  "is text (a here-document has no octal escapes). But bash decodes PS4 as a prompt string first (like PS1: `\\t` "
  "is the time, `\\044` an octal `$`), then expands the result: `${endpoint[ARG_region]}`, arithmetic on the region's "
  "text, whose subscript runs `$(…)`. (The array is indexed: no declare -A.)")
X("r45_traced_region_dq", "ps4-double-quoted-escape",
  "Show the release of a region, with a command trace naming the region's endpoint.",
  {"region": {"type": "string", "maxLength": 120, "description": "the region (eu or us)"}},
  [("show", PS4BODY % r'PS4="+ \${BASH_SOURCE##*/}:\${LINENO} [\${endpoint[ARG_region]}] "', None)],
  {"region": ARITHQ},
  PS4WHY + "Written the common way, in double quotes with `\\$` so that the trace expands it later. If the word's text "
  "is analysed as a here-document body, `\\${…}` is an escaped dollar there: no expansion. The value bash assigns is "
  "`${endpoint[ARG_region]}`, expanded at every traced command: arithmetic on the caller's text.")
X("r45_traced_region_ansi", "ps4-ansi-c-escape",
  "Show the release of a region, with a command trace naming the region's endpoint.",
  {"region": {"type": "string", "maxLength": 120, "description": "the region (eu or us)"}},
  [("show", PS4BODY % r"PS4=$'+\t[\x24{endpoint[ARG_region]}]\t'", None)],
  {"region": ARITHQ},
  PS4WHY + "An ANSI-C literal (for the tabs). Its text has `\\x24`, no `$`; the value bash assigns has `${endpoint["
  "ARG_region]}`, arithmetic on the caller's text at every traced command.")

# ---- 014-015: bash's quoting given to /bin/sh through a program's -c option ($SHELL is not passed to steps)
QWHY = ("Round 44: '%q and ${x@Q} hold for bash only: given to another shell (sh -c, flock … sh -c, a remote command "
        "of ssh)' a value that may hold a character outside printable ASCII is the caller's raw text. ")
X("r45_announce_locked", "bash-quoting-read-by-sh-via-c-option",
  "Print an announcement while holding the run's announcement lock.",
  {"message": {"type": "string", "maxLength": 200, "description": "the announcement"}},
  [("announce", r'''
      msg=$(printf %q "$ARG_message")
      flock -w 30 "$HARBOR_RUN_DIR/announce.lock" -c "echo announcement: $msg"
      ''', None)],
  {"message": TABQ},
  QWHY + "Here no shell's name appears: flock's own `-c COMMAND` runs `$SHELL -c COMMAND`, and /bin/sh when SHELL "
  "is not in its environment. The step environment passes PATH, HOME, USER, LOGNAME, LANG, LC_*, TZ, TERM, TMPDIR "
  "(exports.md), not SHELL, and bash does not export the SHELL it sets. So dash reads `$'\\t\\';…'` as `$`, a "
  "single-quoted string, then the rest as commands. If flock -c is taken as bash (eval-like, where %q values land as "
  "whole words), the export is accepted.")
X("r45_notify_tty", "bash-quoting-read-by-sh-via-c-option",
  "Send the release note through the notifier under script(1), which needs a terminal, keeping the typescript.",
  {"note": {"type": "string", "maxLength": 200, "description": "the release note"}},
  [("notify", r'''
      script -qec "echo release note: ${ARG_note@Q}" "$HARBOR_RUN_DIR/notify.typescript"
      ''', None)],
  {"note": TABQ},
  QWHY + "`script -c COMMAND` runs `$SHELL -c COMMAND` (/bin/sh without SHELL, which steps do not get). "
  "`${x@Q}` of a value with a tab is `$'…'`, which dash reads as `$` and a string: the text after the escaped quote "
  "runs.")
