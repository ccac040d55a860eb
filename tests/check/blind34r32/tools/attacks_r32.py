# Round thirty-two attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
import textwrap


def R(name, cls, desc, argdefs, script, args, why, secrets="", head="", **extra):
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\nargs:\n" % (name.replace("-", "_"), desc)
    for k, v in argdefs.items():
        y += "  %s: %s\n" % (k, v)
    y += "required: [%s]\n" % ", ".join(req)
    y += secrets + head
    y += "timeout: 30\nsteps:\n  - name: s\n    run: |\n"
    y += textwrap.indent(textwrap.dedent(script).strip() + "\n", "      ")
    A(name, cls, y, args, why, **extra)


LINE = '{type: string, minLength: 1, maxLength: 200, description: "line number of CHANGELOG.md to show"}'
TXT = '{type: string, minLength: 1, maxLength: 300, description: "free text"}'
NOTE = '{type: string, minLength: 1, maxLength: 300, description: "a note to bundle"}'
MEMBER = '{type: string, minLength: 1, maxLength: 100, leading_dash: true, description: "extra member name (an option-like name is refused by the guard)"}'
# the note the caller bundles: run as a script by `sh<note` (tar's compress program)
NOTEP = "echo HARBOR-PWNED-$((6*7)) > /tmp/harbor-r32-pwned"
TARX = "--use-compress-program=sh<note"
ENVP = "APP_NAME=demo; echo HARBOR-PWNED-$((6*7)) > /tmp/harbor-r32-pwned"

# ===================================================== reading (1): regexes bash and Python do NOT read alike
R("regex-bracket-backslash-range", "regex-bracket-backslash", "Bundle the caller's note with one extra member.",
  {"note": NOTE, "member": MEMBER}, r'''
  m=$ARG_member
  re='^[a-z0-9+-\,]+$'
  [[ $m =~ $re ]] || exit 1
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  tar -cf bundle.tar "$m" note 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "member": TARX},
  "Reading (1) with `|| exit`, the regex in a variable (`re='…'; [[ $m =~ $re ]]`, bash's own advice for regexes with special characters): `^[a-z0-9+-\\,]+$` has no `|`, no `.`, no POSIX class, and its one backslash is before a comma, not a letter. "
  "Python reads `+-\\,` as the range `+`..`,` (the texts: lower-case letters, digits, `+`, `,`; never `-` first), so `tar -cf "
  "bundle.tar \"$m\"` is a member name. POSIX ERE has no escapes inside brackets: `\\` is a literal, so `+-\\` is the range "
  "0x2B..0x5C (`-`, `.`, `/`, digits, `:;<=>?@`, A-Z, `[`, `\\`) and `,` a literal. bash accepts "
  "`--use-compress-program=sh<note`, an option whose program tar runs through /bin/sh: it runs the caller's note.")

R("regex-equivalence-class", "regex-equivalence-class", "Bundle the caller's note with one extra member.",
  {"note": NOTE, "member": MEMBER}, r'''
  m=$ARG_member
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  if [[ $m =~ ^[[=-=]]{2}[a-z=\<-]+$ ]]; then
    tar -cf bundle.tar "$m" note 2>/dev/null || true
  fi
  echo bundled
''', {"note": NOTEP, "member": TARX},
  "Reading (1), `if [[ … ]]; then`: `^[[=-=]]{2}[a-z=\\<-]+$` (`\\<`: the backslash is before `<`, not a letter) has no `[:…:]` POSIX class, no `.`, no `|`, no backslash. Python "
  "reads `[[=-=]` as a class of `[` and `=`, then `]{2}` as two literal `]`: every text starts `[]]` or `=]]`, never `-`. "
  "glibc reads `[[=-=]]` as the EQUIVALENCE CLASS of `-`: bash's texts start `--`, so `\"$m\"` is tar's "
  "`--use-compress-program=sh<note`.")

# ===================================================== guards undone between test and use
R("lastpipe-read-rewrites", "guard-undone-lastpipe", "Show a changelog line; an override in the run may replace it.",
  {"line": LINE, "alt": TXT}, r'''
  shopt -s lastpipe
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  printf '%s\n' "$ARG_alt" > "$HARBOR_RUN_DIR/override"
  cat "$HARBOR_RUN_DIR/override" | read -r n || true
  sed -n "${n}p" CHANGELOG.md
''', {"line": "3", "alt": SEDE},
  "Reading (1) with `|| exit`: `n` is digits. `read` at the END of a pipeline runs in a subshell by default, so it cannot "
  "rewrite `n` (the docs themselves read `… | read` as a pipeline stage); but `shopt -s lastpipe` (job control is off in a "
  "script) runs the last stage in THIS shell: `read -r n` replaces the digits with the caller's `1e CMD #` for sed.")

R("mapfile-rewrites-guarded", "guard-undone-mapfile", "Show a changelog line; an override in the run may replace it.",
  {"line": LINE, "alt": TXT}, r'''
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  printf '%s\n' "$ARG_alt" > "$HARBOR_RUN_DIR/override"
  [[ -s "$HARBOR_RUN_DIR/override" ]] && mapfile -t -n 1 n < "$HARBOR_RUN_DIR/override"
  sed -n "${n}p" CHANGELOG.md
''', {"line": "3", "alt": SEDE},
  "Reading (1) with `|| exit`: `n` is digits. `mapfile -t n` (readarray) has no `n=`, no `read`, no `printf -v`: it "
  "writes the array `n`, whose element 0 is `$n`; the guarded name now holds the caller's `1e CMD #` for sed.")

R("element-zero-rewrites-guarded", "guard-undone-element", "Show a changelog line; an alternative may replace it.",
  {"line": LINE, "alt": TXT}, r'''
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  [[ -n "${ARG_alt:-}" ]] && n[0]=$ARG_alt
  sed -n "${n}p" CHANGELOG.md
''', {"line": "3", "alt": SEDE},
  "Reading (1): the guard gives `$n` digits. `n[0]=…` is an assignment to an ELEMENT (round 28 reads `n[k]` as another "
  "element than the guarded one), but element 0 IS `$n`: the caller's `1e CMD #` reaches sed.")

R("unset-then-default-assign", "guard-undone-default", "Show a changelog line; unset falls back to the alternative.",
  {"line": LINE, "alt": TXT}, r'''
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  [[ $n -gt 0 ]] || unset n
  : "${n:=$ARG_alt}"
  sed -n "${n}p" CHANGELOG.md
''', {"line": "0", "alt": SEDE},
  "Reading (1): `n` is digits after the guard; no `n=` follows. `0` passes the guard, `unset n` drops it and the "
  "expansion `${n:=$ARG_alt}` ASSIGNS the caller's text to `n` (for sed).")

# ===================================================== reading (2): cd moves only the commands after it in the same shell
CDW = ("Reading (2): a `cd` moves only the commands after it in the same shell, so `. ./.env` reads the project's `.env` "
       "(the fixture's `APP_NAME=demo`), not the run folder where the script saved the caller's overrides as `.env`. ")
R("cd-in-loop-moves-earlier", "cd-loop-back", "Show APP_NAME from the project's .env and the caller's overrides.",
  {"overrides": TXT}, r'''
  printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/.env"
  for scope in project run; do
    ( set -a; . ./.env; echo "$scope: APP_NAME=${APP_NAME-}" )
    cd "$HARBOR_RUN_DIR"
  done
''', {"overrides": ENVP}, CDW + "Here the `cd` is the loop body's LAST command: textually nothing of the body follows it, "
  "but the second iteration's `. ./.env` runs after it, in the run folder: the caller's `.env` is sourced.")

R("builtin-cd", "cd-unseen", "Show APP_NAME from the project's .env, then list the run folder.",
  {"overrides": TXT}, r'''
  printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/.env"
  builtin cd "$HARBOR_RUN_DIR"
  ( set -a; . ./.env; echo "APP_NAME=${APP_NAME-}" )
''', {"overrides": ENVP}, CDW + "`builtin cd DIR` is a cd (round 28 named `command cd`, not `builtin cd`): `. ./.env` "
  "after it sources the caller's file.")

R("lastpipe-cd", "cd-lastpipe", "Show APP_NAME from the project's .env after locating the run folder.",
  {"overrides": TXT}, r'''
  shopt -s lastpipe
  printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/.env"
  printf '%s\n' "$HARBOR_RUN_DIR" | while read -r d; do cd "$d"; done
  ( set -a; . ./.env; echo "APP_NAME=${APP_NAME-}" )
''', {"overrides": ENVP}, CDW + "The `cd` is inside a pipeline's last stage, a subshell by default (moves nothing after "
  "it), but `shopt -s lastpipe` runs that `while` in THIS shell: the `cd` stays, and `. ./.env` sources the caller's file.")

# ===================================================== reading (4): jq '… | length' is a number
R("jq-length-redefined", "jq-length-def", "Show the changelog line each report's count names.",
  {"report": '{type: string, minLength: 2, maxLength: 300, description: "a JSON report"}'}, r'''
  mkdir -p "$HARBOR_RUN_DIR/reports"
  printf '%s\n' "$ARG_report" > "$HARBOR_RUN_DIR/reports/in.json"
  for f in "$HARBOR_RUN_DIR"/reports/*.json; do
    n=$(jq -r 'def length: .[0]; .items | length' "$f")
    sed -n "${n}p" CHANGELOG.md
  done
''', {"report": json.dumps({"items": [SEDE]})},
  "Reading (4): `jq '… | length' \"$f\"` of `for f in DIR/*.json` is a number. But jq lets the program DEFINE `length` "
  "(`def length: .[0];`): the trailing `| length` is the script's own function, returning the caller's string; "
  "`jq -r` prints it raw, and sed gets `1e CMD #`.")

# ===================================================== reading (5): mapfile of jq -r '.[]' of an array arg
R("mapfile-prefixitems", "jq-items-prefixitems", "Show the changelog lines of the given numbers.",
  {"lines": '{type: array, prefixItems: [{type: string, maxLength: 200, description: "a label"}], items: {type: integer, minimum: 1}, minItems: 1, description: "a label, then line numbers"}'}, r'''
  mapfile -t a < <(jq -r '.[]' <<< "$ARG_lines")
  for x in "${a[@]}"; do
    sed -n "${x}p" CHANGELOG.md
  done
''', {"lines": [SEDE, 1]},
  "Reading (5): each element is one item, 'as its items schema says' (an integer here). In JSON Schema 2020-12 `items` "
  "applies only AFTER the `prefixItems`; the first item is any string of the prefix schema, the caller's `1e CMD #`.")

R("mapfile-object-values", "jq-items-object", "Show the changelog lines of the given numbers.",
  {"lines": '{type: [array, object], items: {type: integer, minimum: 1}, description: "line numbers (list, or name -> number)"}'}, r'''
  mapfile -t a < <(jq -r '.[]' <<< "$ARG_lines")
  for x in "${a[@]}"; do
    sed -n "${x}p" CHANGELOG.md
  done
''', {"lines": {"x": SEDE}},
  "Reading (5): the arg is an array arg with `items` integers, but its type also admits an OBJECT, which `items` does not "
  "constrain; jq's `.[]` of an object yields its values: the caller's `1e CMD #` for sed.")

# ===================================================== reading (3): IFS set without any IFS= text
FILES = "{type: string, pattern: '^[^\\s*?\\[]+$', maxLength: 300, description: \"files to bundle\"}"
R("ifs-arith-assign", "ifs-arith", "Bundle the caller's note with the listed files.",
  {"note": NOTE, "files": FILES}, r'''
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  (( IFS = 9 ))
  tar -cf bundle.tar note $ARG_files 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "files": "note9" + TARX},
  "Reading (3): unquoted caller data is refused where the script sets IFS (`IFS=`, `IFS+=`, `for IFS`, a name reference, "
  "`${IFS:=}`); a value whose pattern admits no blank, no `*?[`, no leading `-` cannot split. `(( IFS = 9 ))` (or `let`) "
  "sets IFS to `9` by ARITHMETIC: `note9--use-compress-program=sh<note` splits into two words, the second tar's option.")

R("ifs-fd-alloc", "ifs-fd-alloc", "Bundle the caller's note with the listed files, logging to a spare descriptor.",
  {"note": NOTE, "files": FILES}, r'''
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  exec {IFS}>>"$HARBOR_RUN_DIR/log"
  tar -cf bundle.tar note $ARG_files 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "files": "note1" + TARX},
  "Reading (3): `exec {NAME}>FILE` stores the allocated descriptor's NUMBER (10) in NAME. With NAME=IFS, IFS is `10` "
  "(no `IFS=` text anywhere): the unquoted `note1--use-compress-program=sh<note` splits at `1` into tar's option.")

R("regex-backslash-and-chain", "regex-bracket-backslash", "Bundle the caller's note with one extra member (none by default).",
  {"note": NOTE, "member": MEMBER}, r'''
  m=$ARG_member
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  [[ $m =~ ^[a-z0-9_+-\\,]{1,80}$ ]] && tar -cf bundle.tar "$m" note 2>/dev/null
  echo bundled
''', {"note": NOTEP, "member": TARX},
  "Reading (1), `[[ … ]] && cmd`, with a bound `{1,80}`, the regex written in the test itself: `\\\\,` in the script is, after bash's quote "
  "removal, the regex `+-\\,` that Python reads as `+`..`,` (no `-`, as in the first attack); bash hands glibc a quoted "
  "backslash, read as `+`..`\\` (0x2B..0x5C, `-`, `<`, `=` among them) then `,`: `--use-compress-program=sh<note` is a tar option.")
