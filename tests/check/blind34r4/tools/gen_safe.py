#!/usr/bin/env python3
"""Writes safe/NNN-name.yaml of blind34r4 (exports written from docs/ only)."""

import os, textwrap

OUT = os.path.join(os.path.dirname(__file__), "..", "safe")
S = []


def add(slug, y):
    S.append((slug, textwrap.dedent(y).lstrip()))


PATH_ARG = '{type: string, within: ".", default: ".", description: "A path inside the project (.. or a symlink leading out is refused)."}'
FILE_ARG = '{type: string, within: ".", minLength: 1, description: "A file inside the project (.. or a symlink leading out is refused)."}'
REV = '{type: string, pattern: "^[0-9a-f]{7,40}$", description: A commit id (hex).}'
REF = '{type: string, pattern: "^[A-Za-z0-9_][A-Za-z0-9_./-]{0,199}$", default: HEAD, description: A branch, tag or commit.}'

# ------------------------------------------------------------------ git
add(
    "git-log-path",
    f"""
name: git_log_path
description: The latest commits that touched a path.
args:
  path: {PATH_ARG}
  count: {{type: integer, minimum: 1, maximum: 200, default: 10}}
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: log
    run: git log -n {{{{ args.count }}}} --oneline -- "$ARG_path"
    env: {{GIT_PAGER: cat, GIT_LITERAL_PATHSPECS: "1"}}
""",
)
add(
    "git-show-commit",
    f"""
name: git_show_commit
description: Summary (author, date, message, files changed) of one commit.
args:
  rev: {REV}
required: [rev]
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: show
    run: git show --stat --format='%H%n%an <%ae>%n%ad%n%n%B' "$ARG_rev" --
    env: {{GIT_PAGER: cat}}
""",
)
add(
    "git-blame-range",
    f"""
name: git_blame_range
description: Who last changed lines START..END of a file.
args:
  file: {FILE_ARG}
  start: {{type: integer, minimum: 1, default: 1}}
  end: {{type: integer, minimum: 1, default: 20}}
required: [file]
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: blame
    run: git blame -L {{{{ args.start }}}},{{{{ args.end }}}} --date=short -- "$ARG_file"
""",
)
add(
    "git-diff-refs",
    f"""
name: git_diff_refs
description: Files changed between two refs, with counts.
args:
  base: {REF}
  head: {REF}
required: [base]
timeout: 60
annotations: {{readOnlyHint: true}}
steps:
  - name: diff
    run: git diff --stat "$ARG_base" "$ARG_head" --
    env: {{GIT_PAGER: cat}}
""",
)
add(
    "git-branches",
    """
name: git_branches
description: Local branches with their last commit, newest first.
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: branches
    run: git for-each-ref --sort=-committerdate --format='%(refname:short) %(objectname:short) %(committerdate:relative)' refs/heads/
""",
)
add(
    "git-tags-containing",
    """
name: git_tags_matching
description: Tags whose name contains a text (fixed text, not a pattern).
args:
  text: {type: string, minLength: 1, maxLength: 100, leading_dash: true}
required: [text]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: tags
    run: |
      git tag --list | grep --fixed-strings -e "$ARG_text" || echo "no tag contains that text"
""",
)
add(
    "git-file-at-rev",
    f"""
name: git_file_at_rev
description: The content of a file as it was at a ref.
args:
  rev: {REF}
  path: {{type: string, pattern: "^[A-Za-z0-9_][A-Za-z0-9_./-]{{0,300}}$", description: Path relative to the repository root.}}
required: [path]
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: show
    run: git show "$ARG_rev:$ARG_path"
    env: {{GIT_PAGER: cat}}
""",
)
add(
    "git-grep-fixed",
    f"""
name: git_grep_fixed
description: Tracked files containing a text, with line numbers.
args:
  text: {{type: string, minLength: 1, maxLength: 200, leading_dash: true}}
  path: {PATH_ARG}
required: [text]
timeout: 60
annotations: {{readOnlyHint: true}}
steps:
  - name: grep
    run: git grep -n -I --fixed-strings -e "$ARG_text" -- "$ARG_path" || echo "not found"
    env: {{GIT_LITERAL_PATHSPECS: "1", GIT_PAGER: cat}}
""",
)
add(
    "git-shortlog-since",
    """
name: git_authors_since
description: Commit counts per author since a date.
args:
  since: {type: string, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", default: "2024-01-01"}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: shortlog
    run: git shortlog -sne --since="$ARG_since" HEAD
""",
)
add(
    "git-commit-count",
    f"""
name: git_commit_count
description: How many commits a ref has, and how many since a tag.
args:
  ref: {REF}
  tag: {{type: string, pattern: "^v[0-9]+\\\\.[0-9]+\\\\.[0-9]+$", default: v1.4.2}}
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: count
    run: |
      total=$(git rev-list --count "$ARG_ref" --)
      since=$(git rev-list --count "$ARG_tag..$ARG_ref" --)
      printf '%s: %s commits, %s since %s\\n' "$ARG_ref" "$total" "$since" "$ARG_tag"
""",
)
add(
    "git-ls-files-ext",
    """
name: git_files_by_extension
description: Tracked files with an extension.
args:
  ext: {type: string, pattern: "^[a-z0-9]{1,8}$", default: py}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: ls
    run: git ls-files -- "*.$ARG_ext"
""",
)
add(
    "git-last-change",
    f"""
name: git_last_change
description: The last commit that changed a path (hash, author, relative date, subject).
args:
  path: {PATH_ARG}
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: last
    argv: [git, log, -1, "--format=%h %an %ar %s", --, "{{{{ args.path }}}}"]
    env: {{GIT_LITERAL_PATHSPECS: "1", GIT_PAGER: cat}}
""",
)
add(
    "git-status",
    """
name: git_status
description: Branch and short status of the working tree.
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: status
    argv: [git, status, --short, --branch]
""",
)
add(
    "git-diff-file",
    f"""
name: git_diff_file
description: Uncommitted changes of one file.
args:
  path: {FILE_ARG}
required: [path]
timeout: 30
annotations: {{readOnlyHint: true}}
steps:
  - name: diff
    run: git --no-pager diff --no-color -- "$ARG_path"
    env: {{GIT_LITERAL_PATHSPECS: "1"}}
""",
)
add(
    "git-log-author",
    """
name: git_log_by_author
description: Recent commits of one author (name or e-mail, as a fixed text).
args:
  author: {type: string, pattern: "^[A-Za-z0-9 ._@+-]{1,100}$"}
  count: {type: integer, minimum: 1, maximum: 100, default: 20}
required: [author]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: log
    run: git log -n {{ args.count }} --fixed-strings --author="$ARG_author" --format='%h %ad %s' --date=short
""",
)

# ------------------------------------------------------------------ logs / text
add(
    "tail-log-filtered",
    """
name: tail_log_filtered
description: The last lines of a log under logs/, optionally only those containing a text.
args:
  file: {type: string, within: logs, default: logs/app.log}
  contains: {type: string, minLength: 1, maxLength: 200, leading_dash: true}
  lines: {type: integer, minimum: 1, maximum: 5000, default: 100}
timeout: 30
sandbox: {network: none, readable: [.]}
annotations: {readOnlyHint: true}
steps:
  - name: tail
    run: |
      if [ -z "${ARG_contains-}" ]; then
        tail -n {{ args.lines }} -- "$ARG_file"
      else
        tail -n {{ args.lines }} -- "$ARG_file" | grep --fixed-strings -e "$ARG_contains" || true
      fi
""",
)
add(
    "count-level",
    """
name: count_log_level
description: How many lines of a log have a given level.
args:
  level: {type: string, enum: [DEBUG, INFO, WARN, ERROR]}
  file: {type: string, within: logs, default: logs/app.log}
required: [level]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: count
    run: |
      n=$(grep -c -w -F -e "$ARG_level" -- "$ARG_file" || true)
      printf '%s lines at %s in %s\\n' "$n" "$ARG_level" "$ARG_file"
""",
)
add(
    "log-between",
    """
name: log_between
description: Lines of logs/app.log whose timestamp is between two ISO times.
args:
  from: {type: string, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"}
  to: {type: string, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"}
required: [from, to]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: filter
    run: awk -v from="$ARG_from" -v to="$ARG_to" '$1 >= from && $1 <= to' logs/app.log
""",
)
add(
    "top-paths",
    """
name: top_request_paths
description: The most requested paths of the access log.
args:
  top: {type: integer, minimum: 1, maximum: 100, default: 10}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: top
    run: awk '{print $7}' logs/access.log | sort | uniq -c | sort -rn | head -n {{ args.top }}
""",
)
add(
    "json-log-level",
    """
name: worker_log_level
description: Worker log records (JSON lines) of one level.
args:
  level: {type: string, pattern: "^[a-z]{1,10}$", default: error}
  job: {type: string, maxLength: 100}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: filter
    run: |
      jq -c --arg lvl "$ARG_level" --arg job "${ARG_job-}" \\
        'select(.level == $lvl and ($job == "" or .job == $job))' logs/worker.log
""",
)
add(
    "slow-requests",
    """
name: slow_requests
description: Requests of logs/app.log slower than N milliseconds.
args:
  ms: {type: integer, minimum: 0, maximum: 600000, default: 500}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: slow
    run: |
      awk -v ms={{ args.ms }} '{ for (i = 1; i <= NF; i++) if ($i ~ /^took=/) { t = substr($i, 6) + 0; if (t > ms) print } }' logs/app.log
""",
)
add(
    "search-text",
    f"""
name: search_text
description: Lines containing a text under a folder (grep -r, fixed text).
args:
  text: {{type: string, minLength: 1, maxLength: 200, leading_dash: true}}
  path: {PATH_ARG}
  limit: {{type: integer, minimum: 1, maximum: 1000, default: 50}}
required: [text]
timeout: 60
annotations: {{readOnlyHint: true}}
steps:
  - name: grep
    run: |
      grep -rnI --fixed-strings --exclude-dir=.git -e "$ARG_text" -- "$ARG_path" | head -n {{{{ args.limit }}}} || true
""",
)
add(
    "word-count",
    f"""
name: word_count
description: Lines, words and bytes of a file.
args:
  file: {FILE_ARG}
required: [file]
timeout: 20
annotations: {{readOnlyHint: true}}
steps:
  - name: wc
    argv: [wc, -l, -w, -c, --, "{{{{ args.file }}}}"]
""",
)
add(
    "head-file",
    f"""
name: head_file
description: The first lines of a file.
args:
  file: {FILE_ARG}
  lines: {{type: integer, minimum: 1, maximum: 1000, default: 40}}
required: [file]
timeout: 20
annotations: {{readOnlyHint: true}}
steps:
  - name: head
    run: head -n {{{{ args.lines }}}} -- {{{{ args.file | shellquote }}}}
""",
)
add(
    "line-range",
    f"""
name: line_range
description: Lines START..END of a file, numbered.
args:
  file: {FILE_ARG}
  start: {{type: integer, minimum: 1, default: 1}}
  end: {{type: integer, minimum: 1, default: 50}}
required: [file]
timeout: 20
annotations: {{readOnlyHint: true}}
steps:
  - name: lines
    run: |
      if (( {{{{ args.end }}}} < {{{{ args.start }}}} )); then echo "end is before start" >&2; exit 2; fi
      sed -n "{{{{ args.start }}}},{{{{ args.end }}}}p" -- "$ARG_file" | nl -ba -v {{{{ args.start }}}}
""",
)
add(
    "find-by-name",
    """
name: find_by_name
description: Files under a folder whose name matches a shell glob (e.g. *.yaml).
args:
  dir: {type: string, within: ".", pattern: "^[A-Za-z0-9_.][A-Za-z0-9_./-]*$", default: "."}
  glob: {type: string, pattern: "^[A-Za-z0-9_.*?\\\\[\\\\]-]{1,100}$", default: "*.yaml"}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: find
    run: find "$ARG_dir" -path '*/.git' -prune -o -type f -name "$ARG_glob" -print
""",
)
add(
    "grep-count-per-file",
    f"""
name: grep_count_per_file
description: How many lines contain a text, per file, under a folder.
args:
  text: {{type: string, minLength: 1, maxLength: 200}}
  dir: {PATH_ARG}
required: [text]
timeout: 60
annotations: {{readOnlyHint: true}}
steps:
  - name: count
    run: |
      grep -rcI --fixed-strings --exclude-dir=.git -e "$ARG_text" -- "$ARG_dir" | grep -v ':0$' || echo "no match"
""",
)
add(
    "diff-configs",
    """
name: diff_configs
description: Unified diff of two files under config/ or deploy/.
args:
  a: {type: string, within: ".", pattern: "^(config|deploy)/[A-Za-z0-9_./-]+$"}
  b: {type: string, within: ".", pattern: "^(config|deploy)/[A-Za-z0-9_./-]+$"}
required: [a, b]
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: diff
    run: |
      set +e
      diff -u -- "$ARG_a" "$ARG_b"
      rc=$?
      set -e
      if [ "$rc" -gt 1 ]; then exit "$rc"; fi
""",
)
add(
    "file-type",
    f"""
name: file_type
description: What kind of file a path is (file -b) and its size.
args:
  path: {FILE_ARG}
required: [path]
timeout: 20
annotations: {{readOnlyHint: true}}
steps:
  - name: type
    run: |
      file -b -- "$ARG_path"
      stat --format='%s bytes, modified %y' -- "$ARG_path"
""",
)
add(
    "line-at",
    f"""
name: line_at
description: One line of a file, by number.
args:
  file: {FILE_ARG}
  n: {{type: integer, minimum: 1}}
required: [file, n]
timeout: 20
annotations: {{readOnlyHint: true}}
steps:
  - name: line
    argv: [sed, -n, "{{{{ args.n }}}}p", --, "{{{{ args.file }}}}"]
""",
)

# ------------------------------------------------------------------ data processing
add(
    "csv-column-stats",
    """
name: csv_column_stats
description: Count, mean, min and max of a numeric column of a CSV file under data/.
args:
  file: {type: string, within: data, default: data/report.csv}
  column: {type: string, pattern: "^[A-Za-z_][A-Za-z0-9_ ]{0,60}$", default: requests}
timeout: 30
sandbox: {network: none}
annotations: {readOnlyHint: true}
steps:
  - name: stats
    run: |
      python3 -c '
      import csv, statistics, sys
      with open(sys.argv[1], newline="") as f:
          vals = [float(r[sys.argv[2]]) for r in csv.DictReader(f) if r.get(sys.argv[2], "").strip()]
      if not vals:
          sys.exit("no values in column " + repr(sys.argv[2]))
      print(f"n={len(vals)} mean={statistics.mean(vals):.2f} min={min(vals)} max={max(vals)}")
      ' "$ARG_file" "$ARG_column"
""",
)
add(
    "json-getpath",
    """
name: config_value
description: A value of config/app.json by dotted path (e.g. service.port).
args:
  path: {type: string, pattern: "^[A-Za-z0-9_]+(\\\\.[A-Za-z0-9_]+)*$"}
required: [path]
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: get
    run: jq --arg p "$ARG_path" 'getpath($p | split("."))' config/app.json
""",
)
add(
    "yaml-safe-to-json",
    """
name: yaml_as_json
description: A YAML file of the project as JSON (safe loader).
args:
  file: {type: string, within: ".", pattern: "^[A-Za-z0-9_./-]+\\\\.ya?ml$", default: config/app.yaml}
timeout: 20
sandbox: {network: none}
annotations: {readOnlyHint: true}
steps:
  - name: convert
    run: |
      python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), indent=2, default=str))' "$ARG_file"
""",
)
add(
    "json-validate-upload",
    """
name: validate_json_upload
description: Check that an uploaded file is valid JSON and print its top-level type and size.
args:
  doc: {type: string, contentEncoding: base64, contentMediaType: application/json, max_bytes: 5000000}
required: [doc]
timeout: 20
sandbox: {network: none}
steps:
  - name: check
    run: |
      if jq -e 'type' < "$ARG_doc" > "$HARBOR_RUN_DIR/type.txt" 2> "$HARBOR_RUN_DIR/err.txt"; then
        printf 'valid JSON: %s, %s bytes\\n' "$(cat -- "$HARBOR_RUN_DIR/type.txt")" "$(stat --format=%s -- "$ARG_doc")"
      else
        echo "not valid JSON:"; head -c 500 -- "$HARBOR_RUN_DIR/err.txt"; exit 1
      fi
""",
)
add(
    "csv-filter-service",
    """
name: report_rows_for_service
description: Rows of data/report.csv for one service.
args:
  service: {type: string, pattern: "^[a-z][a-z0-9-]{0,40}$", default: web}
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: rows
    run: awk -F, -v svc="$ARG_service" 'NR == 1 || $2 == svc' data/report.csv
""",
)
add(
    "users-by-role",
    """
name: users_by_role
description: How many users of data/users.json have a role, and their names.
args:
  role: {type: string, maxLength: 50, default: admin}
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: users
    run: |
      jq -r --arg r "$ARG_role" '[.[] | select(.role == $r)] | "\\(length) user(s)", (.[].name // empty)' data/users.json
""",
)
add(
    "sum-column",
    """
name: sum_csv_column
description: The sum of a numeric CSV column given by its 1-based number.
args:
  file: {type: string, within: data, default: data/report.csv}
  column: {type: integer, minimum: 1, maximum: 50, default: 3}
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: sum
    run: awk -F, -v c={{ args.column }} 'NR > 1 { s += $c } END { print s + 0 }' < "$ARG_file"
""",
)
add(
    "orders-by-status",
    """
name: orders_by_status
description: Orders of data/orders.json with a given status, as id and total.
args:
  status: {type: string, enum: [pending, shipped, delivered, cancelled]}
required: [status]
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: orders
    run: |
      python3 -c '
      import json, sys
      data = json.load(open("data/orders.json"))
      rows = [o for o in data.get("orders", []) if o.get("status") == sys.argv[1]]
      for o in rows:
          print(o.get("id"), o.get("total", ""))
      print(len(rows), "order(s)")
      ' "$ARG_status"
""",
)
add(
    "json-keys-upload",
    """
name: json_top_keys
description: The top-level keys of an uploaded JSON object.
args:
  doc: {type: string, contentEncoding: base64, contentMediaType: application/json, max_bytes: 5000000}
required: [doc]
timeout: 20
steps:
  - name: keys
    run: |
      jq -r 'if type == "object" then keys[] else "not an object: \\(type)" end' < "$ARG_doc"
""",
)
add(
    "text-stats-upload",
    """
name: text_stats
description: Line, word and byte counts of an attached text file, as structured data.
args:
  file: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 10000000}
required: [file]
timeout: 20
output_schema:
  type: object
  properties:
    lines: {type: integer}
    words: {type: integer}
    bytes: {type: integer}
  required: [lines, words, bytes]
steps:
  - name: count
    run: |
      read -r l w c < <(wc -l -w -c < "$ARG_file")
      jq -n --argjson l "$l" --argjson w "$w" --argjson c "$c" '{lines: $l, words: $w, bytes: $c}' > "$HARBOR_OUTPUT"
      cat -- "$HARBOR_OUTPUT"
""",
)
add(
    "csv-head-upload",
    """
name: csv_preview
description: The first rows of an uploaded CSV, aligned as a table.
args:
  csv: {type: string, contentEncoding: base64, contentMediaType: text/csv, max_bytes: 10000000}
  rows: {type: integer, minimum: 1, maximum: 200, default: 10}
required: [csv]
timeout: 20
steps:
  - name: preview
    run: head -n {{ args.rows }} -- "$ARG_csv" | column -s, -t
""",
)
add(
    "percentile",
    """
name: latency_percentile
description: The Nth percentile of the took= values of logs/app.log.
args:
  p: {type: integer, minimum: 1, maximum: 100, default: 95}
timeout: 20
steps:
  - name: pct
    run: |
      grep -o 'took=[0-9]*' logs/app.log | cut -d= -f2 | sort -n > "$HARBOR_RUN_DIR/took.txt"
      python3 -c 'import sys, math
      v = [int(x) for x in open(sys.argv[1]) if x.strip()]
      k = max(0, math.ceil(len(v) * int(sys.argv[2]) / 100) - 1)
      print(f"p{sys.argv[2]} = {v[k]} ms over {len(v)} requests" if v else "no data")' "$HARBOR_RUN_DIR/took.txt" {{ args.p }}
""",
)
add(
    "worker-level-counts",
    """
name: worker_level_counts
description: Number of worker log records per level.
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: counts
    run: jq -r '.level' logs/worker.log | sort | uniq -c | sort -rn
""",
)
add(
    "report-date-range",
    """
name: report_between
description: Rows of data/report.csv between two dates (inclusive).
args:
  from: {type: string, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
  to: {type: string, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
required: [from, to]
timeout: 20
steps:
  - name: rows
    run: awk -F, -v from="$ARG_from" -v to="$ARG_to" 'NR == 1 || ($1 >= from && $1 <= to)' data/report.csv
""",
)
add(
    "template-substitute",
    """
name: render_motd
description: Render the release message of releases/notes-1.4.2.txt with a name substituted for $name (string.Template).
args:
  name: {type: string, maxLength: 100, default: team}
timeout: 20
steps:
  - name: render
    run: |
      python3 -c 'import string, sys
      t = string.Template("Hello $name, here are the notes:\\n" + open("releases/notes-1.4.2.txt").read())
      print(t.safe_substitute(name=sys.argv[1]))' "$ARG_name"
""",
)

# ------------------------------------------------------------------ kubectl / docker reads
K = """needs: {env: [KUBECONFIG]}
pass_env: [KUBECONFIG]
annotations: {readOnlyHint: true, openWorldHint: true}"""
NS = "{type: string, enum: [staging, production], default: staging}"
add(
    "pod-logs",
    f"""
name: pod_logs
description: Recent log lines of a pod.
args:
  namespace: {NS}
  pod: {{type: string, pattern: "^[a-z0-9]([-a-z0-9]{{0,251}}[a-z0-9])?$"}}
  lines: {{type: integer, minimum: 1, maximum: 5000, default: 200}}
  since: {{type: string, pattern: "^[0-9]{{1,5}}[smh]$"}}
required: [pod]
timeout: 60
{K}
steps:
  - name: logs
    run: |
      kubectl logs --namespace="$ARG_namespace" --tail={{{{ args.lines }}}} --timestamps \\
        --since="${{ARG_since:-0s}}" -- "$ARG_pod"
""",
)
add(
    "get-pods",
    f"""
name: get_pods
description: Pods of a namespace, wide output, optionally by label app=NAME.
args:
  namespace: {NS}
  app: {{type: string, pattern: "^[a-z0-9]([-a-z0-9]{{0,61}}[a-z0-9])?$"}}
timeout: 60
{K}
steps:
  - name: pods
    run: |
      sel=()
      if [ -n "${{ARG_app-}}" ]; then sel=(--selector "app=$ARG_app"); fi
      kubectl get pods --namespace="$ARG_namespace" -o wide "${{sel[@]}}"
""",
)
add(
    "describe-deployment",
    f"""
name: describe_deployment
description: kubectl describe of one deployment.
args:
  namespace: {NS}
  name: {{type: string, pattern: "^[a-z0-9]([-a-z0-9]{{0,61}}[a-z0-9])?$"}}
required: [name]
timeout: 60
{K}
steps:
  - name: describe
    argv: [kubectl, describe, deployment, "--namespace={{{{ args.namespace }}}}", --, "{{{{ args.name }}}}"]
""",
)
add(
    "rollout-status",
    f"""
name: rollout_status
description: Wait (up to a minute) for a deployment's rollout and report its status.
args:
  namespace: {NS}
  name: {{type: string, pattern: "^[a-z0-9]([-a-z0-9]{{0,61}}[a-z0-9])?$"}}
required: [name]
timeout: 90
{K}
steps:
  - name: status
    run: kubectl rollout status "deployment/$ARG_name" --namespace="$ARG_namespace" --timeout=60s
""",
)
add(
    "docker-ps-filter",
    """
name: docker_ps
description: Running containers whose name contains a text.
args:
  name: {type: string, pattern: "^[A-Za-z0-9_.-]{1,64}$"}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: ps
    run: docker ps --filter "name=$ARG_name" --format '{{.Names}}\\t{{.Status}}\\t{{.Image}}'
""",
)
add(
    "docker-logs",
    """
name: container_logs
description: The last log lines of a container.
args:
  container: {type: string, pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"}
  lines: {type: integer, minimum: 1, maximum: 5000, default: 100}
required: [container]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: logs
    argv: [docker, logs, --tail, "{{ args.lines }}", --, "{{ args.container }}"]
""",
)
add(
    "docker-image-id",
    """
name: image_id
description: The image id of app:TAG, if it exists locally.
args:
  tag: {type: string, pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"}
required: [tag]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: inspect
    run: docker image inspect --format '{{.Id}} {{.Created}}' -- "app:$ARG_tag"
""",
)
add(
    "kubectl-events",
    f"""
name: pod_events
description: Events of a namespace about one object.
args:
  namespace: {NS}
  object: {{type: string, pattern: "^[a-z0-9]([-a-z0-9.]{{0,251}}[a-z0-9])?$"}}
required: [object]
timeout: 60
{K}
steps:
  - name: events
    run: kubectl get events --namespace="$ARG_namespace" --field-selector="involvedObject.name=$ARG_object" --sort-by=.lastTimestamp
""",
)

# ------------------------------------------------------------------ multi-step, outputs, run dir, uploads
add(
    "release-status",
    """
name: release_status
description: The project's version and whether the tag v<version> exists.
timeout: 30
sandbox: {network: none}
steps:
  - name: version
    run: |
      version=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
      printf 'version=%s\\n' "$version" >> "$HARBOR_STEP_OUTPUT"
  - name: tag
    if: steps.version.outputs.version != null
    run: |
      tag="v$STEP_version_version"
      if git tag --list | grep --fixed-strings --line-regexp -e "$tag" > /dev/null; then
        printf '%s is tagged; %s commit(s) since\\n' "$STEP_version_version" "$(git rev-list --count "$tag..HEAD")"
      else
        printf '%s has no tag yet\\n' "$STEP_version_version"
      fi
""",
)
add(
    "changelog-since-tag",
    """
name: changes_since_last_tag
description: The latest tag, then the commit subjects since it.
timeout: 30
steps:
  - name: latest
    run: printf 'tag=%s\\n' "$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
  - name: log
    run: |
      printf 'since %s:\\n' "$STEP_latest_tag"
      git log --format='- %s (%h)' "$STEP_latest_tag..HEAD" --
""",
)
add(
    "upload-checksum",
    """
name: checksum_upload
description: SHA-256 and size of an uploaded file.
args:
  file: {type: string, contentEncoding: base64, contentMediaType: application/octet-stream, max_bytes: 50000000}
required: [file]
timeout: 20
steps:
  - name: sum
    run: |
      sum=$(sha256sum -- "$ARG_file")
      printf 'sha256=%s bytes=%s\\n' "${sum%% *}" "$(stat --format=%s -- "$ARG_file")"
""",
)
add(
    "upload-line-count-schema",
    """
name: count_matching_lines
description: How many lines of an attached log contain a text; structured answer.
args:
  log: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 20000000}
  text: {type: string, minLength: 1, maxLength: 200, leading_dash: true}
required: [log, text]
timeout: 30
output_schema:
  type: object
  properties:
    text: {type: string}
    count: {type: integer, minimum: 0}
  required: [text, count]
steps:
  - name: count
    run: |
      n=$(grep -c --fixed-strings -e "$ARG_text" -- "$ARG_log" || true)
      jq -n --arg t "$ARG_text" --arg n "$n" '{text: $t, count: ($n | tonumber)}' > "$HARBOR_OUTPUT"
      printf '%s line(s)\\n' "$n"
""",
)
add(
    "summary-to-run-dir",
    """
name: service_summary
description: Requests and errors per service of data/report.csv, computed in one step and shown as a table in the next.
timeout: 30
steps:
  - name: compute
    run: |
      awk -F, 'NR > 1 { r[$2] += $3; e[$2] += $4 } END { print "service,requests,errors"; for (s in r) print s "," r[s] "," e[s] }' \\
        data/report.csv > "$HARBOR_RUN_DIR/summary.csv"
  - name: show
    run: column -s, -t < "$HARBOR_RUN_DIR/summary.csv"
""",
)
add(
    "json-merge-overlay",
    """
name: preview_config_overlay
description: Show config/app.json with an uploaded JSON overlay merged in (nothing is written).
args:
  overlay: {type: string, contentEncoding: base64, contentMediaType: application/json, max_bytes: 1000000}
required: [overlay]
timeout: 20
steps:
  - name: merge
    run: jq -s '.[0] * .[1]' config/app.json "$ARG_overlay"
""",
)
add(
    "archive-log",
    """
name: archive_log
description: A gzipped tar of one log file, in the run directory; prints its path and size.
args:
  file: {type: string, within: logs, default: logs/app.log}
timeout: 60
steps:
  - name: tar
    run: |
      tar -czf "$HARBOR_RUN_DIR/log.tar.gz" -- "$ARG_file"
      printf '%s %s bytes\\n' "$HARBOR_RUN_DIR/log.tar.gz" "$(stat --format=%s -- "$HARBOR_RUN_DIR/log.tar.gz")"
""",
)
add(
    "list-upload-archive",
    """
name: list_archive
description: The members of an uploaded .tar.gz (not extracted).
args:
  archive: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 50000000}
required: [archive]
timeout: 30
steps:
  - name: list
    run: tar -tzvf "$ARG_archive"
""",
)
add(
    "deploy-confirm",
    """
name: deploy
description: Record a deploy of a version to an environment, after a release manager approves.
args:
  env: {type: string, enum: [staging, production]}
  version: {type: string, pattern: "^[0-9]+\\\\.[0-9]+\\\\.[0-9]+$"}
required: [env, version]
confirm: "Deploy {{ args.version }} to {{ args.env }}?"
approvers: [group:release]
concurrency: 1
annotations: {destructiveHint: true}
steps:
  - name: deploy
    run: |
      printf '%s deployed %s to %s for %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \\
        "$ARG_version" "$ARG_env" "$HARBOR_CALLER_PRINCIPAL" | tee -a "$HARBOR_RUN_DIR/deploys.log"
""",
)
add(
    "notify-webhook-secret",
    """
name: notify_release
description: Post a release note to the chat webhook with a bearer token.
args:
  version: {type: string, pattern: "^[0-9]+\\\\.[0-9]+\\\\.[0-9]+$"}
  note: {type: string, minLength: 1, maxLength: 2000, multiline: true}
required: [version, note]
timeout: 30
secrets:
  WEBHOOK_TOKEN: {env: RELEASE_WEBHOOK_TOKEN}
steps:
  - name: post
    continue_on_error: true
    run: |
      printf 'Authorization: Bearer %s\\n' "$WEBHOOK_TOKEN" |
        curl --silent --show-error --fail --max-time 5 --header @- \\
          --data-urlencode "version=$ARG_version" --data-urlencode "note=$ARG_note" \\
          -- https://chat.invalid/hooks/release
  - name: done
    run: printf 'announced %s\\n' "$ARG_version"
""",
)
add(
    "tests-on-failure",
    """
name: unit_tests
description: Run the unit tests; when they fail, show the end of logs/app.log for context.
args:
  select: {type: string, pattern: "^[A-Za-z0-9_ .()\\\\[\\\\]-]{1,200}$"}
timeout: 600
sandbox: {network: none, writable: [.]}
steps:
  - name: pytest
    run: |
      opts=(-q -p no:cacheprovider)
      if [ -n "${ARG_select-}" ]; then opts+=(-k "$ARG_select"); fi
      python3 -m pytest "${opts[@]}" -- tests
on_failure:
  - name: context
    run: tail -n 20 -- logs/app.log
""",
)
add(
    "finally-cleanup",
    """
name: build_report
description: Build an HTML-ish report of data/report.csv in a work folder and always clean the work folder up.
args:
  title: {type: string, maxLength: 100, default: Report}
timeout: 60
steps:
  - name: build
    run: |
      work="$HARBOR_RUN_DIR/work"
      mkdir -p -- "$work"
      { printf '<h1>%s</h1>\\n<pre>\\n' "$(printf '%s' "$ARG_title" | sed 's/&/\\&amp;/g; s/</\\&lt;/g; s/>/\\&gt;/g')"
        column -s, -t < data/report.csv
        printf '</pre>\\n'; } > "$work/report.html"
      cp -- "$work/report.html" "$HARBOR_RUN_DIR/report.html"
      wc -c -- "$HARBOR_RUN_DIR/report.html"
finally:
  - name: cleanup
    run: rm -rf -- "$HARBOR_RUN_DIR/work"
""",
)
add(
    "retry-health",
    """
name: health_check
description: Check the health endpoint of an environment, retrying a few times.
args:
  env: {type: string, enum: [staging, production], default: staging}
timeout: 60
annotations: {readOnlyHint: true, openWorldHint: true}
steps:
  - name: health
    retry: {attempts: 2, delay: 1}
    continue_on_error: true
    run: |
      case "$ARG_env" in
        staging) url=https://staging.invalid/healthz ;;
        production) url=https://www.invalid/healthz ;;
      esac
      curl -fsS --max-time 3 -- "$url"
  - name: verdict
    if: steps.health.failed
    run: echo "health check failed for $ARG_env"
""",
)
add(
    "if-verbose",
    f"""
name: repo_overview
description: Short repository overview; with verbose=true also the last 10 commits.
args:
  verbose: {{type: boolean, default: false}}
timeout: 30
steps:
  - name: summary
    run: |
      printf 'branch: %s\\n' "$(git rev-parse --abbrev-ref HEAD)"
      printf 'files: %s\\n' "$(git ls-files | wc -l)"
  - name: commits
    if: args.verbose == true
    run: git log -n 10 --oneline
""",
)
add(
    "loop-enum-envs",
    f"""
name: env_config_summary
description: Replica counts of the chosen environments' deploy files.
args:
  envs:
    type: array
    items: {{type: string, enum: [dev, staging, production]}}
    minItems: 1
    default: [staging]
timeout: 30
steps:
  - name: summary
    run: |
      mapfile -t envs < <(jq -r '.[]' <<<"$ARG_envs")
      for e in "${{envs[@]}}"; do
        case "$e" in
          dev|staging|production)
            printf '%s: ' "$e"
            grep -h -m1 -E '^[[:space:]]*replicas:' -- "deploy/envs/$e.yaml" || echo "no replicas line" ;;
        esac
      done
""",
)
add(
    "function-show",
    f"""
name: show_files
description: The first lines of up to five files, each under a header.
args:
  files:
    type: array
    items: {{type: string, minLength: 1}}
    within: "."
    minItems: 1
    maxItems: 5
required: [files]
timeout: 30
steps:
  - name: show
    run: |
      show() {{
        printf '==> %s <==\\n' "$1"
        head -n 5 -- "$1"
      }}
      mapfile -t files < <(jq -r '.[]' <<<"$ARG_files")
      for f in "${{files[@]}}"; do show "$f"; done
""",
)
add(
    "threshold-count",
    """
name: error_threshold
description: Fail when logs/app.log has more lines containing a text than a threshold.
args:
  text: {type: string, minLength: 1, maxLength: 100, default: ERROR, leading_dash: true}
  threshold: {type: integer, minimum: 0, maximum: 100000, default: 10}
timeout: 30
steps:
  - name: check
    run: |
      n=$(grep -c --fixed-strings -e "$ARG_text" -- logs/app.log || true)
      [[ $n =~ ^[0-9]+$ ]] || n=0
      if [ "$n" -gt {{ args.threshold }} ]; then
        printf '%s matching lines, more than %s\\n' "$n" {{ args.threshold }}; exit 1
      fi
      printf '%s matching lines (threshold %s)\\n' "$n" {{ args.threshold }}
""",
)
add(
    "progress-loop",
    """
name: checksum_logs
description: SHA-256 of every log file under logs/, reporting progress.
timeout: 60
steps:
  - name: sums
    run: |
      files=(logs/*.log)
      total=${#files[@]}
      i=0
      for f in "${files[@]}"; do
        i=$((i + 1))
        printf '%d/%d %s\\n' "$i" "$total" "${f##*/}" >> "$HARBOR_PROGRESS"
        sha256sum -- "$f"
      done
""",
)
add(
    "output-schema-python",
    """
name: config_ports
description: The ports configured in config/app.json and config/app.ini, as structured data.
timeout: 20
output_schema:
  type: object
  properties:
    json_port: {type: [integer, "null"]}
    ini_port: {type: [integer, "null"]}
  required: [json_port, ini_port]
steps:
  - name: ports
    run: |
      python3 -c '
      import configparser, json, os
      j = json.load(open("config/app.json")).get("service", {}).get("port")
      c = configparser.ConfigParser(); c.read("config/app.ini")
      i = c.getint("server", "port", fallback=None)
      json.dump({"json_port": j, "ini_port": i}, open(os.environ["HARBOR_OUTPUT"], "w"))
      print("json:", j, "ini:", i)
      '
""",
)
add(
    "secret-arg-token",
    """
name: registry_tags
description: List the tags of an image in the registry with the caller's own read token.
args:
  image: {type: string, pattern: "^[a-z0-9]+([._/-][a-z0-9]+)*$"}
  token: {type: string, secret: true, minLength: 10, maxLength: 500}
required: [image, token]
timeout: 30
steps:
  - name: tags
    continue_on_error: true
    run: |
      printf 'Authorization: Bearer %s\\n' "$ARG_token" |
        curl -fsS --max-time 5 --header @- -- "https://registry.invalid/v2/$ARG_image/tags/list"
""",
)
add(
    "output-then-if",
    """
name: config_drift
description: Count differences between staging and production deploy files; show them only when there are some.
timeout: 20
steps:
  - name: count
    run: |
      n=$(diff deploy/envs/staging.yaml deploy/envs/production.yaml | grep -c '^[<>]' || true)
      printf 'changes=%d\\n' "$n" >> "$HARBOR_STEP_OUTPUT"
  - name: show
    if: steps.count.outputs.changes != "0"
    run: diff -u deploy/envs/staging.yaml deploy/envs/production.yaml || true
""",
)
add(
    "package-version",
    """
name: package_version
description: The installed version of a Python distribution.
args:
  package: {type: string, pattern: "^[A-Za-z0-9]([A-Za-z0-9._-]{0,98}[A-Za-z0-9])?$"}
required: [package]
timeout: 20
steps:
  - name: version
    run: |
      python3 -c 'import sys, importlib.metadata as m
      try:
          print(sys.argv[1], m.version(sys.argv[1]))
      except m.PackageNotFoundError:
          sys.exit(sys.argv[1] + " is not installed")' "$ARG_package"
""",
)
add(
    "bash-syntax-check",
    """
name: shell_syntax
description: Check an uploaded shell script for syntax errors (bash -n; nothing runs).
args:
  script: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 1000000}
required: [script]
timeout: 20
sandbox: {network: none}
steps:
  - name: check
    run: |
      if bash -n -- "$ARG_script"; then echo "syntax ok"; fi
""",
)
add(
    "py-compile-upload",
    """
name: python_syntax
description: Check an uploaded Python file compiles (no code is run).
args:
  module: {type: string, contentEncoding: base64, contentMediaType: text/x-python, max_bytes: 1000000}
required: [module]
timeout: 20
sandbox: {network: none}
steps:
  - name: compile
    run: |
      python3 -c 'import ast, sys
      src = open(sys.argv[1], encoding="utf-8", errors="replace").read()
      try:
          ast.parse(src, filename="upload.py")
          print("syntax ok")
      except SyntaxError as e:
          sys.exit(f"line {e.lineno}: {e.msg}")' "$ARG_module"
""",
)
add(
    "jsonschema-validate",
    """
name: validate_service_spec
description: Validate an uploaded service spec (JSON) against schemas/service.json.
args:
  spec: {type: string, contentEncoding: base64, contentMediaType: application/json, max_bytes: 1000000}
required: [spec]
timeout: 20
steps:
  - name: validate
    run: |
      python3 -c 'import json, sys, jsonschema
      schema = json.load(open("schemas/service.json"))
      doc = json.load(open(sys.argv[1]))
      errs = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
      for e in errs[:20]:
          print("-", "/".join(map(str, e.path)) or "(root)", e.message)
      print("valid" if not errs else f"{len(errs)} problem(s)")' "$ARG_spec"
""",
)
add(
    "zip-list-upload",
    """
name: list_zip
description: The members of an uploaded zip (not extracted).
args:
  zip: {type: string, contentEncoding: base64, contentMediaType: application/zip, max_bytes: 50000000}
required: [zip]
timeout: 20
steps:
  - name: list
    run: |
      python3 -c 'import sys, zipfile
      with zipfile.ZipFile(sys.argv[1]) as z:
          for i in z.infolist():
              print(i.file_size, i.filename)' "$ARG_zip" || echo "not a zip file"
""",
)
add(
    "disk-usage",
    f"""
name: disk_usage
description: Size of a folder of the project and free space of its filesystem.
args:
  path: {PATH_ARG}
timeout: 60
annotations: {{readOnlyHint: true}}
steps:
  - name: du
    run: du -sh -- "$ARG_path"
  - name: df
    argv: [df, -h, --, "{{{{ args.path }}}}"]
""",
)
add(
    "status-histogram",
    """
name: status_histogram
description: Requests per HTTP status class in an access log under logs/.
args:
  log: {type: string, within: logs, default: logs/access.log}
timeout: 30
steps:
  - name: count
    run: |
      declare -a hist=(0 0 0 0 0 0)
      while read -r _ _ _ _ _ _ _ _ status _; do
        class=${status:0:1}
        [[ $class == [1-5] ]] || continue
        case "$class" in
          1) hist[1]=$(( hist[1] + 1 )) ;; 2) hist[2]=$(( hist[2] + 1 )) ;;
          3) hist[3]=$(( hist[3] + 1 )) ;; 4) hist[4]=$(( hist[4] + 1 )) ;;
          5) hist[5]=$(( hist[5] + 1 )) ;;
        esac
      done < "$ARG_log"
      for c in 2 3 4 5; do printf '%dxx %d\\n' "$c" "${{hist[c]}}"; done
""".replace("${{hist[c]}}", "${hist[c]}"),
)
add(
    "xargs-null-wc",
    f"""
name: line_counts
description: Line counts of the given files.
args:
  files:
    type: array
    items: {{type: string, minLength: 1}}
    within: "."
    minItems: 1
    maxItems: 100
required: [files]
timeout: 30
steps:
  - name: wc
    run: jq -j '.[] | . + "\\u0000"' <<<"$ARG_files" | xargs -0 wc -l --
""",
)
add(
    "tar-array-dashdash",
    f"""
name: pack_selected
description: Pack the given project paths into a .tar.gz in the run directory.
args:
  paths:
    type: array
    items: {{type: string, minLength: 1}}
    within: "."
    minItems: 1
    maxItems: 100
required: [paths]
timeout: 120
steps:
  - name: pack
    run: |
      mapfile -t paths < <(jq -r '.[]' <<<"$ARG_paths")
      tar -czf "$HARBOR_RUN_DIR/selected.tar.gz" -- "${{paths[@]}}"
      tar -tzf "$HARBOR_RUN_DIR/selected.tar.gz" | wc -l
""",
)
add(
    "date-epoch",
    """
name: date_info
description: Weekday, ISO week and epoch seconds of a date.
args:
  date: {type: string, pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
required: [date]
timeout: 10
steps:
  - name: date
    run: date -u -d "$ARG_date" '+%A, ISO week %V, epoch %s'
""",
)
add(
    "checksum-verify",
    """
name: verify_release_notes
description: Verify releases/ files against a SHA-256 given by the caller.
args:
  file: {type: string, within: releases, default: releases/notes-1.4.2.txt}
  sha256: {type: string, pattern: "^[0-9a-f]{64}$"}
required: [sha256]
timeout: 20
steps:
  - name: verify
    run: |
      printf '%s  %s\\n' "$ARG_sha256" "$ARG_file" > "$HARBOR_RUN_DIR/sums.txt"
      sha256sum -c -- "$HARBOR_RUN_DIR/sums.txt" || { echo "checksum mismatch"; exit 1; }
""",
)
add(
    "perl-stdin-crlf",
    """
name: normalize_upload
description: An uploaded text file with CR/LF line endings turned into LF, base64-encoded.
args:
  file: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 10000000}
required: [file]
timeout: 20
steps:
  - name: normalize
    run: perl -pe 's/\\r$//' < "$ARG_file" | base64 -w 0
""",
)
add(
    "awk-kv-config",
    """
name: ini_value
description: The value of a key in a section of config/app.ini.
args:
  section: {type: string, pattern: "^[A-Za-z0-9_.-]{1,50}$"}
  key: {type: string, pattern: "^[A-Za-z0-9_.-]{1,50}$"}
required: [section, key]
timeout: 10
steps:
  - name: get
    run: |
      awk -v s="$ARG_section" -v k="$ARG_key" '
        /^\\[/ { cur = substr($0, 2, length($0) - 2); next }
        cur == s { split($0, kv, "="); gsub(/[ \\t]/, "", kv[1]); if (kv[1] == k) { sub(/^[^=]*=[ \\t]*/, ""); print; found = 1 } }
        END { if (!found) { print "not found" > "/dev/stderr"; exit 1 } }' config/app.ini
""",
)
add(
    "printf-q-log",
    """
name: audit_note
description: Append a note (quoted safely) to the run's audit file and show it.
args:
  note: {type: string, maxLength: 500}
required: [note]
timeout: 10
steps:
  - name: note
    run: |
      printf '%s note=%q\\n' "$(date -u +%FT%TZ)" "$ARG_note" >> "$HARBOR_RUN_DIR/notes.log"
      cat -- "$HARBOR_RUN_DIR/notes.log"
""",
)
add(
    "sort-unique-values",
    """
name: distinct_column_values
description: The distinct values of a CSV column (1-based) with counts.
args:
  column: {type: integer, minimum: 1, maximum: 20, default: 2}
timeout: 10
steps:
  - name: distinct
    run: tail -n +2 data/report.csv | cut -d, -f{{ args.column }} | sort | uniq -c | sort -rn
""",
)
add(
    "node-json-pretty",
    """
name: json_pretty_node
description: Pretty-print a JSON file of the project with node (sorted keys).
args:
  file: {type: string, within: ".", pattern: "^[A-Za-z0-9_./-]+\\\\.json$", default: config/app.json}
timeout: 20
steps:
  - name: pretty
    run: |
      node -e '
      const fs = require("fs");
      const sort = (v) => Array.isArray(v) ? v.map(sort) : (v && typeof v === "object") ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sort(v[k])])) : v;
      console.log(JSON.stringify(sort(JSON.parse(fs.readFileSync(process.argv[1], "utf8"))), null, 2));
      ' -- "$ARG_file"
""",
)
add(
    "case-dispatch",
    """
name: service_action_plan
description: Show what a service action would run (dry run) for a chosen service and action.
args:
  service: {type: string, enum: [web, api, worker]}
  action: {type: string, enum: [status, restart, logs]}
required: [service, action]
timeout: 10
steps:
  - name: plan
    run: |
      case "$ARG_action" in
        status) cmd=(systemctl status) ;;
        restart) cmd=(systemctl restart) ;;
        logs) cmd=(journalctl -n 50 -u) ;;
      esac
      printf 'would run:'; printf ' %q' "${cmd[@]}" "app-$ARG_service.service"; printf '\\n'
""",
)
add(
    "here-string-grep",
    """
name: match_version
description: Say whether a version string is among the released ones (CHANGELOG.md headings).
args:
  version: {type: string, pattern: "^[0-9]+\\\\.[0-9]+\\\\.[0-9]+$"}
required: [version]
timeout: 10
steps:
  - name: match
    run: |
      if grep -q --fixed-strings -e "$ARG_version" -- CHANGELOG.md; then
        printf '%s is in the changelog\\n' "$ARG_version"
      else
        printf '%s is not in the changelog\\n' "$ARG_version"
      fi
""",
)
add(
    "sed-replace-preview",
    """
name: preview_rename
description: Preview config/app.yaml with one word replaced by another (literal words; nothing is written).
args:
  old: {type: string, pattern: "^[A-Za-z0-9_]{1,40}$"}
  new: {type: string, pattern: "^[A-Za-z0-9_]{1,40}$"}
required: [old, new]
timeout: 10
steps:
  - name: preview
    run: |
      python3 -c 'import sys, re
      text = open("config/app.yaml").read()
      print(re.sub(r"\\b" + re.escape(sys.argv[1]) + r"\\b", lambda m: sys.argv[2], text), end="")' "$ARG_old" "$ARG_new"
""",
)
add(
    "git-archive-release",
    """
name: source_archive
description: A source archive (git archive, tar.gz) of a tag, in the run directory.
args:
  tag: {type: string, pattern: "^v[0-9]+\\\\.[0-9]+\\\\.[0-9]+$", default: v1.4.2}
timeout: 60
steps:
  - name: archive
    run: |
      git archive --format=tar.gz --prefix="demo-$ARG_tag/" -o "$HARBOR_RUN_DIR/demo-$ARG_tag.tar.gz" "$ARG_tag"
      ls -l -- "$HARBOR_RUN_DIR/demo-$ARG_tag.tar.gz"
""",
)
add(
    "system-info",
    """
name: system_info
description: Kernel, uptime, memory and filesystems of the host.
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: kernel
    argv: [uname, -srm]
  - name: uptime
    argv: [uptime]
  - name: memory
    run: free -h || cat /proc/meminfo | head -n 5
  - name: disks
    run: df -h -x tmpfs -x devtmpfs 2>/dev/null || df -h
""",
)
add(
    "escape-html-python",
    """
name: log_as_html
description: The last lines of a log under logs/ as escaped HTML (for pasting into a ticket).
args:
  file: {type: string, within: logs, default: logs/app.log}
  lines: {type: integer, minimum: 1, maximum: 500, default: 20}
timeout: 10
steps:
  - name: html
    run: |
      tail -n {{ args.lines }} -- "$ARG_file" | python3 -c 'import html, sys; print("<pre>" + html.escape(sys.stdin.read()) + "</pre>")'
""",
)

for i, (slug, y) in enumerate(S, 1):
    open(os.path.join(OUT, f"{i:03d}-{slug}.yaml"), "w").write(y)
print(len(S), "safe exports written")
