#!/usr/bin/env python3
"""Writes safe/NNN-*.yaml: exports a platform team would write, following docs/ advice."""

import os, re, textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "safe")
S = []


def add(name, y):
    S.append((name, textwrap.dedent(y).lstrip()))


add(
    "001-search-logs",
    """
name: search_logs
description: Search the log files for a literal string.
annotations: {readOnlyHint: true}
args:
  text: {type: string, leading_dash: true, description: Literal text to look for}
  limit: {type: integer, minimum: 1, maximum: 500, default: 50}
required: [text]
steps:
  - name: grep
    run: grep -rnF -m {{ args.limit }} -e "$ARG_text" -- logs/ || true
""",
)
add(
    "002-git-log-path",
    """
name: git_log_path
description: Recent commits that touched a path inside the repository.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: ".", default: ".", description: Path inside the repository (must stay inside)}
  count: {type: integer, minimum: 1, maximum: 100, default: 10}
steps:
  - name: log
    env: {GIT_LITERAL_PATHSPECS: "1", GIT_PAGER: cat}
    run: git log -n {{ args.count }} --oneline -- "$ARG_path"
""",
)
add(
    "003-git-show-commit",
    """
name: show_commit
description: Show the summary and changed files of one commit.
annotations: {readOnlyHint: true}
args:
  commit: {type: string, pattern: "[0-9a-f]{7,40}|HEAD(~[0-9]{1,3})?", default: HEAD}
steps:
  - name: show
    run: git show --stat --format='%H%n%an <%ae>%n%s' "$ARG_commit" --
""",
)
add(
    "004-file-lines",
    """
name: count_lines
description: Count the lines of a file inside the project.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: ".", description: File inside the project (must stay inside)}
required: [path]
steps:
  - name: wc
    run: wc -l -- "$ARG_path"
""",
)
add(
    "005-json-key",
    """
name: config_value
description: Read one key of the app's JSON config.
annotations: {readOnlyHint: true}
args:
  section: {type: string, pattern: "[a-z_]{1,40}", default: service}
  key: {type: string, pattern: "[a-z_]{1,40}", default: name}
steps:
  - name: get
    run: jq -r --arg s "$ARG_section" --arg k "$ARG_key" '.[$s][$k] // "unset"' config/app.json
""",
)
add(
    "006-csv-column-sum",
    """
name: csv_total
description: Sum a numeric column of the daily report for one service.
annotations: {readOnlyHint: true}
args:
  service: {type: string, default: web}
  column: {type: string, enum: [requests, errors], default: requests}
steps:
  - name: sum
    run: |
      python3 -c '
      import csv, sys
      total = 0
      with open("data/report.csv", newline="") as f:
          for row in csv.DictReader(f):
              if row["service"] == sys.argv[1]:
                  total += int(row[sys.argv[2]])
      print(total)
      ' "$ARG_service" "$ARG_column"
""",
)
add(
    "007-users-by-team",
    """
name: users_by_team
description: List the active users of a team.
annotations: {readOnlyHint: true}
args:
  team: {type: string, default: team-a}
steps:
  - name: users
    run: jq -r --arg t "$ARG_team" '.[] | select(.team == $t and .active) | "\\(.name) <\\(.email)>"' data/users.json
""",
)
add(
    "008-tail-log",
    """
name: tail_log
description: The last lines of one of the service logs.
annotations: {readOnlyHint: true}
args:
  log: {type: string, enum: [app, access, worker], default: app}
  lines: {type: integer, minimum: 1, maximum: 1000, default: 50}
steps:
  - name: tail
    run: tail -n {{ args.lines }} -- "logs/$ARG_log.log"
""",
)
add(
    "009-status-codes",
    """
name: status_histogram
description: Count the HTTP status codes in the app log, optionally for one path prefix.
annotations: {readOnlyHint: true}
args:
  prefix: {type: string, default: "/api", description: Only requests whose path starts with this}
steps:
  - name: count
    run: awk -v p="$ARG_prefix" '{ for (i = 1; i <= NF; i++) if ($i ~ /^path=/) path = substr($i, 6); else if ($i ~ /^status=/) st = substr($i, 8); if (index(path, p) == 1) n[st]++ } END { for (s in n) print s, n[s] }' logs/app.log | sort
""",
)
add(
    "010-disk-usage",
    """
name: disk_usage
description: Size of a folder inside the project.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: ".", default: ".", description: Folder inside the project (must stay inside)}
steps:
  - name: du
    run: du -sh -- "$ARG_path"
""",
)
add(
    "011-find-by-ext",
    """
name: files_by_extension
description: List project files with an extension.
annotations: {readOnlyHint: true}
args:
  ext: {type: string, pattern: "[A-Za-z0-9]{1,10}", default: md}
  path: {type: string, within: ".", default: "."}
steps:
  - name: find
    run: find "./$ARG_path" -type f -name "*.$ARG_ext" -not -path '*/.git/*' | sort | head -n 200
""",
)
add(
    "012-checksum",
    """
name: checksum
description: SHA-256 of a project file.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: "."}
required: [path]
steps:
  - name: sum
    argv: [sha256sum, "--", "{{ args.path }}"]
""",
)
add(
    "013-blame-lines",
    """
name: blame_lines
description: Who last changed a range of lines of a file.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: "."}
  start: {type: integer, minimum: 1, default: 1}
  end: {type: integer, minimum: 1, default: 20}
required: [path]
steps:
  - name: blame
    run: git blame -L {{ args.start }},{{ args.end }} -- "$ARG_path"
""",
)
add(
    "014-diff-stat-refs",
    """
name: diff_stat
description: Files changed between two refs.
annotations: {readOnlyHint: true}
args:
  base: {type: string, pattern: "[A-Za-z0-9._/]{1,100}", default: v1.4.2}
  head: {type: string, pattern: "[A-Za-z0-9._/]{1,100}", default: HEAD}
steps:
  - name: diff
    run: git diff --stat --end-of-options "$ARG_base" "$ARG_head" --
""",
)
add(
    "015-branches-filter",
    """
name: branches
description: Local branches whose name contains a text.
annotations: {readOnlyHint: true}
args:
  contains: {type: string, default: ""}
steps:
  - name: list
    run: git for-each-ref --format='%(refname:short)' refs/heads | grep -F -e "$ARG_contains" || true
""",
)
add(
    "016-tags",
    """
name: list_tags
description: Release tags, newest first.
annotations: {readOnlyHint: true}
args:
  limit: {type: integer, minimum: 1, maximum: 100, default: 20}
steps:
  - name: tags
    run: git tag --sort=-creatordate | head -n {{ args.limit }}
""",
)
add(
    "017-shortlog",
    """
name: authors_since
description: Commit counts per author since a date.
annotations: {readOnlyHint: true}
args:
  since: {type: string, pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2}", default: "2024-01-01"}
steps:
  - name: shortlog
    run: git shortlog -sn --since="$ARG_since" HEAD
""",
)
add(
    "018-file-at-rev",
    """
name: file_at_revision
description: Print a file as it was at a tag or commit.
annotations: {readOnlyHint: true}
args:
  rev: {type: string, pattern: "[A-Za-z0-9._-]{1,60}", default: HEAD}
  path: {type: string, pattern: "[A-Za-z0-9._/-]{1,200}", default: README.md}
steps:
  - name: show
    run: git cat-file -p "$ARG_rev:$ARG_path"
""",
)
add(
    "019-ls-files-glob",
    """
name: tracked_files
description: Tracked files under a folder.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: ".", default: "."}
steps:
  - name: ls
    env: {GIT_LITERAL_PATHSPECS: "1"}
    run: git ls-files -- "$ARG_path" | head -n 500
""",
)
add(
    "020-release-notes",
    """
name: release_notes
description: Show the notes of a release.
annotations: {readOnlyHint: true}
args:
  version: {type: string, pattern: "[0-9]+\\\\.[0-9]+\\\\.[0-9]+", default: "1.4.2"}
steps:
  - name: notes
    run: |
      f="releases/notes-$ARG_version.txt"
      if [ -f "$f" ]; then cat -- "$f"; else echo "no notes for $ARG_version"; fi
""",
)
add(
    "021-yaml-env-image",
    """
name: env_image
description: The image deployed to an environment, read from its values file.
annotations: {readOnlyHint: true}
args:
  env: {type: string, enum: [dev, staging, production], default: staging}
steps:
  - name: image
    run: python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["image"])' "deploy/envs/$ARG_env.yaml"
""",
)
add(
    "022-attachment-stats",
    """
name: text_stats
description: Lines, words and bytes of an attached text file.
args:
  file: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 1000000}
required: [file]
steps:
  - name: wc
    run: wc -lwc < "$ARG_file"
""",
)
add(
    "023-archive-list",
    """
name: list_archive
description: List the members of an attached .tar.gz without extracting it.
args:
  archive: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 20000000}
required: [archive]
steps:
  - name: list
    run: tar -tzvf "$ARG_archive" | head -n 200
""",
)
add(
    "024-json-validate",
    """
name: validate_json
description: Check that an attached file is valid JSON and show its top-level keys.
args:
  doc: {type: string, contentEncoding: base64, contentMediaType: application/json, max_bytes: 5000000}
required: [doc]
steps:
  - name: keys
    run: jq -r 'if type == "object" then keys[] else type end' "$ARG_doc"
""",
)
add(
    "025-time-in-zone",
    """
name: time_in_zone
description: The current time in a time zone.
annotations: {readOnlyHint: true}
args:
  zone: {type: string, enum: [UTC, Europe/Berlin, America/New_York, Asia/Tokyo], default: UTC}
steps:
  - name: date
    run: TZ="$ARG_zone" date '+%Y-%m-%d %H:%M:%S %Z'
""",
)
add(
    "026-epoch-convert",
    """
name: epoch_to_date
description: Convert a Unix timestamp to an ISO date (UTC).
annotations: {readOnlyHint: true}
args:
  epoch: {type: integer, minimum: 0, maximum: 4102444800}
required: [epoch]
steps:
  - name: convert
    run: date -u -d "@{{ args.epoch }}" '+%Y-%m-%dT%H:%M:%SZ'
""",
)
add(
    "027-grep-count-files",
    """
name: count_matches
description: How many lines match a literal text in each log file.
annotations: {readOnlyHint: true}
args:
  text: {type: string, leading_dash: true}
required: [text]
steps:
  - name: count
    run: grep -cF -e "$ARG_text" -- logs/*.log || true
""",
)
add(
    "028-slow-requests",
    """
name: slow_requests
description: Requests slower than a threshold in the app log.
annotations: {readOnlyHint: true}
args:
  ms: {type: integer, minimum: 0, maximum: 60000, default: 800}
steps:
  - name: slow
    run: awk -v t={{ args.ms }} '{ for (i = 1; i <= NF; i++) if ($i ~ /^took=/) { v = substr($i, 6) + 0; if (v > t) print } }' logs/app.log | head -n 100
""",
)
add(
    "029-errors-by-service",
    """
name: errors_by_service
description: Total errors per service from the daily report, sorted.
annotations: {readOnlyHint: true}
args:
  top: {type: integer, minimum: 1, maximum: 50, default: 5}
steps:
  - name: agg
    run: tail -n +2 data/report.csv | awk -F, '{ e[$2] += $4 } END { for (s in e) print e[s], s }' | sort -rn | head -n {{ args.top }}
""",
)
add(
    "030-schema-list",
    """
name: schema_fields
description: The properties a JSON schema of the project declares.
annotations: {readOnlyHint: true}
args:
  schema: {type: string, enum: [alert, deployment, service], default: service}
steps:
  - name: fields
    run: jq -r '.properties // {} | keys[]' "schemas/$ARG_schema.json"
""",
)
add(
    "031-request-id",
    """
name: trace_request
description: All log lines of one request id.
annotations: {readOnlyHint: true}
args:
  id: {type: string, pattern: "req-[0-9]{1,8}", default: req-1000}
steps:
  - name: grep
    run: grep -hF -e "[$ARG_id]" -- logs/*.log || echo "not found"
""",
)
add(
    "032-word-frequency",
    """
name: word_frequency
description: The most frequent words of an attached text.
args:
  file: {type: string, contentEncoding: base64, contentMediaType: text/plain}
  top: {type: integer, minimum: 1, maximum: 100, default: 10}
required: [file]
steps:
  - name: freq
    run: tr -cs 'A-Za-z' '\\n' < "$ARG_file" | tr 'A-Z' 'a-z' | sort | uniq -c | sort -rn | head -n {{ args.top }}
""",
)
add(
    "033-argv-grep",
    """
name: grep_file
description: Lines of a project file that match a regular expression.
annotations: {readOnlyHint: true}
args:
  regex: {type: string, leading_dash: true}
  path: {type: string, within: "."}
required: [regex, path]
steps:
  - name: grep
    argv: [grep, -n, -E, -e, "{{ args.regex }}", "--", "{{ args.path }}"]
    continue_on_error: true
""",
)
add(
    "034-http-status",
    """
name: http_status
description: HTTP status of an internal service health endpoint.
annotations: {readOnlyHint: true, openWorldHint: true}
args:
  service: {type: string, enum: [api, web, worker], default: api}
  path: {type: string, pattern: "[A-Za-z0-9/_.-]{0,100}", default: health}
timeout: 30
steps:
  - name: curl
    run: curl -s -o /dev/null -m 5 -w '%{http_code}\\n' --url "https://$ARG_service.internal.example/$ARG_path" || echo "unreachable"
""",
)
add(
    "035-kubectl-pods",
    """
name: pods
description: Pods of a namespace.
annotations: {readOnlyHint: true}
args:
  namespace: {type: string, pattern: "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", default: default}
timeout: 30
steps:
  - name: get
    run: kubectl get pods --request-timeout=5s -n "$ARG_namespace" -o wide || echo "cluster unreachable"
""",
)
add(
    "036-confirmed-deploy-dry",
    """
name: deploy_dry_run
description: Show the deploy plan of a version to an environment (dry run).
confirm: "Plan deploy of {{ args.version }} to {{ args.env }}?"
args:
  env: {type: string, enum: [dev, staging, production]}
  version: {type: string, pattern: "[0-9]+\\\\.[0-9]+\\\\.[0-9]+"}
required: [env, version]
steps:
  - name: plan
    run: |
      printf 'environment: %s\\nversion: %s\\n' "$ARG_env" "$ARG_version"
      grep -E '^(replicas|image):' -- "deploy/envs/$ARG_env.yaml"
""",
)
add(
    "037-secret-api-call",
    """
name: api_incidents
description: Open incidents for a service from the incident API.
secrets:
  INCIDENT_TOKEN: {env: CI_INCIDENT_TOKEN}
args:
  service: {type: string, pattern: "[a-z0-9-]{1,40}", default: api}
timeout: 30
steps:
  - name: fetch
    run: |
      printf 'header = "Authorization: Bearer %s"\\n' "$INCIDENT_TOKEN" > "$HARBOR_RUN_DIR/curl.cfg"
      curl -s -m 5 -K "$HARBOR_RUN_DIR/curl.cfg" --get --data-urlencode "service=$ARG_service" https://incidents.internal.example/api/open || echo "unreachable"
""",
)
add(
    "038-step-output-version",
    """
name: version_report
description: The project version and the commits since the matching tag.
annotations: {readOnlyHint: true}
args:
  max: {type: integer, minimum: 1, maximum: 200, default: 20}
steps:
  - name: version
    run: |
      v=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb")).get("project", {}).get("version", "0.0.0"))' 2>/dev/null || echo 0.0.0)
      echo "version=$v" >> "$HARBOR_STEP_OUTPUT"
  - name: since
    run: |
      echo "version: $STEP_version_version"
      git log -n {{ args.max }} --oneline --end-of-options "v$STEP_version_version..HEAD" -- 2>/dev/null || git log -n {{ args.max }} --oneline
""",
)
add(
    "039-memory-info",
    """
name: memory_info
description: Memory and load of the host.
annotations: {readOnlyHint: true}
args:
  unit: {type: string, enum: [-m, -g, -h], default: -h}
steps:
  - name: free
    run: free "$ARG_unit"
  - name: load
    run: cat /proc/loadavg
""",
)
add(
    "040-python-regex-lines",
    """
name: regex_lines
description: Lines of the app log that match a Python regular expression (at most 100).
annotations: {readOnlyHint: true}
args:
  regex: {type: string, leading_dash: true}
required: [regex]
steps:
  - name: match
    run: |
      python3 -c '
      import re, sys
      rx = re.compile(sys.argv[1])
      n = 0
      for line in open("logs/app.log"):
          if rx.search(line):
              print(line, end="")
              n += 1
              if n >= 100:
                  break
      ' "$ARG_regex"
""",
)
add(
    "041-csv-filter-date",
    """
name: report_rows
description: Rows of the daily report between two dates.
annotations: {readOnlyHint: true}
args:
  from: {type: string, pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2}", default: "2024-01-01"}
  to: {type: string, pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2}", default: "2024-01-31"}
steps:
  - name: rows
    run: awk -F, -v a="$ARG_from" -v b="$ARG_to" 'NR == 1 || ($1 >= a && $1 <= b)' data/report.csv
""",
)
add(
    "042-ini-section",
    """
name: ini_section
description: The keys of one section of config/app.ini.
annotations: {readOnlyHint: true}
args:
  section: {type: string, default: server}
steps:
  - name: read
    run: python3 -c 'import configparser, sys; c = configparser.ConfigParser(interpolation=None); c.read("config/app.ini"); print("\\n".join(f"{k} = {v}" for k, v in c.items(sys.argv[1])) if c.has_section(sys.argv[1]) else "no such section")' "$ARG_section"
""",
)
add(
    "043-nginx-directive",
    """
name: nginx_directive
description: Lines of the nginx config that set a directive.
annotations: {readOnlyHint: true}
args:
  directive: {type: string, pattern: "[a-z_]{1,40}", default: listen}
steps:
  - name: grep
    run: grep -nE -e "^[[:space:]]*$ARG_directive[[:space:]]" -- config/nginx.conf || echo "not set"
""",
)
add(
    "044-sorted-unique-emails",
    """
name: email_domains
description: Distinct email domains of users, optionally of one team.
annotations: {readOnlyHint: true}
args:
  team: {type: [string, "null"], default: null}
steps:
  - name: domains
    run: |
      if [ -n "${ARG_team:-}" ]; then
        jq -r --arg t "$ARG_team" '.[] | select(.team == $t) | .email' data/users.json
      else
        jq -r '.[].email' data/users.json
      fi | awk -F@ '{ print $2 }' | sort -u
""",
)
add(
    "045-argv-git-log-author",
    """
name: commits_by_author
description: Commits by an author (name or email substring).
annotations: {readOnlyHint: true}
args:
  author: {type: string}
  count: {type: integer, minimum: 1, maximum: 100, default: 10}
required: [author]
steps:
  - name: log
    argv: [git, log, "--fixed-strings", "--author={{ args.author }}", "-n", "{{ args.count }}", "--oneline"]
""",
)
add(
    "046-grep-message",
    """
name: commits_mentioning
description: Commits whose message contains a literal text (e.g. a ticket id).
annotations: {readOnlyHint: true}
args:
  text: {type: string, leading_dash: true}
steps:
  - name: log
    run: git log --oneline -F --grep="$ARG_text" -n 50
""",
)
add(
    "047-copy-to-rundir",
    """
name: normalize_upload
description: Convert an attached CSV to JSON lines (work happens in the run directory).
args:
  file: {type: string, contentEncoding: base64, contentMediaType: text/csv, max_bytes: 5000000}
required: [file]
steps:
  - name: convert
    run: |
      cp -- "$ARG_file" "$HARBOR_RUN_DIR/in.csv"
      python3 -c 'import csv, json, sys; [print(json.dumps(r)) for r in csv.DictReader(open(sys.argv[1], newline=""))]' "$HARBOR_RUN_DIR/in.csv" | head -n 100
""",
)
add(
    "048-env-diff",
    """
name: env_diff
description: Differences between the values files of two environments.
annotations: {readOnlyHint: true}
args:
  a: {type: string, enum: [dev, staging, production], default: staging}
  b: {type: string, enum: [dev, staging, production], default: production}
steps:
  - name: diff
    run: diff -u -- "deploy/envs/$ARG_a.yaml" "deploy/envs/$ARG_b.yaml" || true
""",
)
add(
    "049-if-condition",
    """
name: test_summary
description: Count test functions, and list them when asked.
annotations: {readOnlyHint: true}
args:
  list: {type: boolean, default: false}
steps:
  - name: count
    run: |
      n=$(grep -c '^def test_' tests/test_util.py || true)
      echo "count=$n" >> "$HARBOR_STEP_OUTPUT"
      echo "$n tests"
  - name: list
    if: args.list == true
    run: grep -n '^def test_' tests/test_util.py
""",
)
add(
    "050-multiline-notes-file",
    """
name: draft_note
description: Save a multi-line note in the run directory and report its size and first line.
args:
  note: {type: string, multiline: true}
required: [note]
steps:
  - name: save
    run: |
      printf '%s\\n' "$ARG_note" > "$HARBOR_RUN_DIR/note.txt"
      wc -c < "$HARBOR_RUN_DIR/note.txt"
      head -n 1 -- "$HARBOR_RUN_DIR/note.txt"
""",
)
add(
    "051-base64-encode",
    """
name: encode_text
description: Base64 or hex encoding of a text.
annotations: {readOnlyHint: true}
args:
  text: {type: string, leading_dash: true}
  encoding: {type: string, enum: [base64, hex], default: base64}
required: [text]
steps:
  - name: encode
    run: |
      case "$ARG_encoding" in
        base64) printf '%s' "$ARG_text" | base64 -w0; echo ;;
        hex) printf '%s' "$ARG_text" | od -An -tx1 | tr -d ' \\n'; echo ;;
      esac
""",
)
add(
    "052-finally-cleanup",
    """
name: bundle_docs
description: Tar the docs folder into the run directory and report its size.
annotations: {readOnlyHint: true}
args:
  level: {type: integer, minimum: 1, maximum: 9, default: 6}
steps:
  - name: tar
    run: tar -cf - docs | gzip -{{ args.level }} > "$HARBOR_RUN_DIR/docs.tgz"
  - name: size
    run: wc -c < "$HARBOR_RUN_DIR/docs.tgz"
finally:
  - name: note
    run: echo "bundle in run directory"
""",
)
add(
    "053-python-json-path",
    """
name: json_path
description: A nested value of the users list by index and field.
annotations: {readOnlyHint: true}
args:
  index: {type: integer, minimum: 0, maximum: 1000, default: 0}
  field: {type: string, enum: [id, name, email, team, active], default: name}
steps:
  - name: get
    run: python3 -c 'import json, sys; d = json.load(open("data/users.json")); i = int(sys.argv[1]); print(d[i][sys.argv[2]] if i < len(d) else "out of range")' {{ args.index }} "$ARG_field"
""",
)
add(
    "054-git-grep",
    """
name: code_search
description: Search tracked files for a literal string.
annotations: {readOnlyHint: true}
args:
  text: {type: string, leading_dash: true}
  path: {type: string, within: ".", default: "."}
required: [text]
steps:
  - name: grep
    env: {GIT_LITERAL_PATHSPECS: "1"}
    run: git grep -n -F -e "$ARG_text" -- "$ARG_path" || true
""",
)
add(
    "055-sed-line-range",
    """
name: file_lines
description: Print a range of lines of a project file.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: "."}
  from: {type: integer, minimum: 1, default: 1}
  to: {type: integer, minimum: 1, default: 40}
required: [path]
steps:
  - name: sed
    run: sed -n '{{ args.from }},{{ args.to }}p' -- "$ARG_path"
""",
)
add(
    "056-stat-file",
    """
name: file_info
description: Size, owner and modification time of a project file.
annotations: {readOnlyHint: true}
args:
  path: {type: string, within: "."}
required: [path]
steps:
  - name: stat
    argv: [stat, -c, "%n %s bytes, %U, modified %y", "--", "{{ args.path }}"]
""",
)
add(
    "057-docker-image-tag",
    """
name: image_for_version
description: The image reference that a version would be deployed as.
annotations: {readOnlyHint: true}
args:
  version: {type: string, pattern: "[0-9]+\\\\.[0-9]+\\\\.[0-9]+"}
  registry: {type: string, enum: [registry.internal, ghcr.io/acme], default: registry.internal}
required: [version]
steps:
  - name: ref
    run: printf '%s/app:%s\\n' "$ARG_registry" "$ARG_version"
""",
)
add(
    "058-workers-errors",
    """
name: worker_errors
description: Error lines of the worker log for a job name.
annotations: {readOnlyHint: true}
args:
  job: {type: string}
required: [job]
steps:
  - name: grep
    run: grep -F -e "ERROR" -- logs/worker.log | grep -F -e "$ARG_job" || echo "none"
""",
)
add(
    "059-array-paths-wc",
    """
name: lines_of_files
description: Line counts of several project files.
annotations: {readOnlyHint: true}
args:
  paths: {type: array, items: {type: string}, within: ".", minItems: 1, maxItems: 20}
required: [paths]
steps:
  - name: wc
    run: |
      mapfile -d '' files < <(jq -j '.[] | . + "\\u0000"' <<< "$ARG_paths")
      wc -l -- "${files[@]}"
""",
)
add(
    "060-uptime",
    """
name: host_uptime
description: Kernel version and uptime.
annotations: {readOnlyHint: true}
steps:
  - name: uname
    argv: [uname, -srm]
  - name: uptime
    run: cut -d' ' -f1 /proc/uptime
""",
)
add(
    "061-on-failure-hint",
    """
name: check_json_config
description: Validate config/app.json and say what is wrong when it is not valid.
annotations: {readOnlyHint: true}
args:
  file: {type: string, enum: [config/app.json, data/users.json, data/orders.json], default: config/app.json}
steps:
  - name: validate
    run: jq empty -- "$ARG_file"
on_failure:
  - name: hint
    run: echo "the file is not valid JSON"
""",
)
add(
    "062-grep-access-ip",
    """
name: requests_from_ip
description: Access log lines from one client IP address.
annotations: {readOnlyHint: true}
args:
  ip: {type: string, pattern: "[0-9]{1,3}(\\\\.[0-9]{1,3}){3}", default: 10.0.0.1}
steps:
  - name: grep
    run: grep -F -e "$ARG_ip " -- logs/access.log | head -n 100 || true
""",
)
add(
    "063-secret-stdin-login",
    """
name: registry_check
description: Log in to the internal registry with the CI password (password on stdin) and list tags of an image.
secrets:
  REGISTRY_PASSWORD: {env: CI_REGISTRY_PASSWORD}
args:
  image: {type: string, pattern: "[a-z0-9][a-z0-9._/-]{0,100}", default: app}
timeout: 30
steps:
  - name: tags
    run: |
      printf 'user = "ci:%s"\\n' "$REGISTRY_PASSWORD" > "$HARBOR_RUN_DIR/auth.cfg"
      curl -s -m 5 -K "$HARBOR_RUN_DIR/auth.cfg" --url "https://registry.internal.example/v2/$ARG_image/tags/list" || echo "registry unreachable"
""",
)


def blockify(y):
    def rep(m):
        ind, val = m.group(1), m.group(2)
        if val.startswith("|") or (": " not in val and " #" not in val):
            return m.group(0)
        return f"{ind}run: |\n{ind}  {val}"

    return re.sub(r"^(\s*)run: (.+)$", rep, y, flags=re.M)


os.makedirs(OUT, exist_ok=True)
for n, y in S:
    open(os.path.join(OUT, n + ".yaml"), "w").write(blockify(y))
print(len(S), "safe exports written")
