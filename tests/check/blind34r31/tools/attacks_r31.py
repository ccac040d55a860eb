# Round thirty-one attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
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
NAME = '{type: string, minLength: 1, maxLength: 200, description: "name of a setting"}'
# no blank, no glob character, cannot start with '-': "cannot split, cannot be an option, cannot glob"
FILES = "{type: string, pattern: '^[^\\s*?\\[]+$', maxLength: 300, description: \"files to bundle, comma-separated\"}"
TARP = "README.md,--checkpoint=1,--checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((40+2))>/tmp/harbor-r31-pwned"

# ===================================================== reading (2): [[ $n =~ ^[0-9]+$ ]] || n=0
FB = ("Reading (2) of the brief: `[[ $n =~ ^[0-9]+$ ]] || n=0` leaves `n` digits, so `sed -n \"${n}p\"` gets a number. "
      "But here the fallback does not set `n` to 0 in this shell: ")
for nm, fb, note in [
    ("fallback-append", "n+=0", "`n+=0` APPENDS `0` to the caller's text (bash: `abc` -> `abc0`); the `#` of the sed payload comments the 0 away."),
    ("fallback-pipeline", "n=0 | cat >&2", "`a || b | c` is `a || (b | c)`: the assignment is a pipeline stage, run in a subshell; `n` keeps the caller's text."),
    ("fallback-prefix", "n=0 echo 'not a line number, using 0' >&2", "`n=0 echo …` is an assignment PREFIX of a command: it lives only in echo's environment; `n` keeps the caller's text."),
    ("fallback-background", "n=0 &", "the and-or list `[[ … ]] || n=0 &` runs in the background, in a subshell; `n` keeps the caller's text."),
    ("fallback-subshell", "(n=0)", "`(n=0)` assigns in a subshell; `n` keeps the caller's text."),
]:
    R(nm, "guard-fallback-noop", "Show one line of the changelog (line 1 when the number is not valid).",
      {"line": LINE}, '''
      n=$ARG_line
      [[ $n =~ ^[0-9]+$ ]] || %s
      sed -n "${n}p" CHANGELOG.md
    ''' % fb, {"line": SEDE}, FB + note)

R("fallback-local-in-function", "guard-fallback-noop", "Show one line of the changelog (line 1 when the number is not valid).",
  {"line": LINE}, '''
  n=$ARG_line
  normalize() {
    [[ $n =~ ^[0-9]+$ ]] || local n=1
  }
  normalize
  sed -n "${n}p" CHANGELOG.md
''', {"line": SEDE}, FB + "the fallback is `local n=1` inside a function: it makes a NEW local `n` that dies when the function returns; "
  "the global `n` below keeps the caller's text.")

R("declare-integer-assign", "declare-i-assign", "Show one line of the changelog (line 0 = none when not a number).",
  {"line": LINE}, '''
  declare -i n=0
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || n=0
  sed -n "${n}p" CHANGELOG.md
''', {"line": ARITH}, "Reading (2): the guard+fallback leaves `n` digits for sed, which is right, but `declare -i n` makes the ASSIGNMENT "
  "`n=$ARG_line` itself arithmetic: bash evaluates the caller's text `x[$(…)]` as an expression, and the subscript's command "
  "substitution runs. Round 21 refused `declare -i` only with `for n in`.")

# ===================================================== reading (3): if [[ … ]] && cmd 2>/dev/null; then
R3 = ("Reading (3): an `if` whose condition is `[[ … ]] && cmd 2>/dev/null` keeps the test's reading in its body. Here the "
      "`cmd` of the condition itself rewrites the tested name after the test held: ")
R("if-and-read-rewrites", "guard-cond-rewrite", "Show a changelog line; an override file in the run may replace the number.",
  {"line": LINE, "alt": TXT}, '''
  n=$ARG_line
  printf '%s\\n' "$ARG_alt" > "$HARBOR_RUN_DIR/override"
  if [[ $n =~ ^[0-9]+$ ]] && read -r n < "$HARBOR_RUN_DIR/override" 2>/dev/null; then
    sed -n "${n}p" CHANGELOG.md
  fi
''', {"line": "3", "alt": SEDE}, R3 + "`read -r n < FILE` (FILE holds the caller's `alt`).")
R("if-and-printf-v-rewrites", "guard-cond-rewrite", "Show a changelog line, normalized.",
  {"line": LINE, "alt": TXT}, '''
  n=$ARG_line
  if [[ $n =~ ^[0-9]+$ ]] && printf -v n '%s' "$ARG_alt" 2>/dev/null; then
    sed -n "${n}p" CHANGELOG.md
  fi
''', {"line": "3", "alt": SEDE}, R3 + "`printf -v n '%s' \"$ARG_alt\"`.")
R("if-and-function-rewrites", "guard-cond-rewrite", "Show a changelog line; a helper may pick the default.",
  {"line": LINE, "alt": TXT}, '''
  pick_default() { n=$ARG_alt; }
  n=$ARG_line
  if [[ $n =~ ^[0-9]+$ ]] && pick_default 2>/dev/null; then
    sed -n "${n}p" CHANGELOG.md
  fi
''', {"line": "3", "alt": SEDE}, R3 + "a function of the script called as `cmd` assigns the global `n` (bash's dynamic scope).")
R("if-and-else-branch", "guard-cond-rewrite", "Show a changelog line, or search for the text when it is not a number.",
  {"line": LINE}, '''
  n=$ARG_line
  if [[ $n =~ ^[0-9]+$ ]] && test -s CHANGELOG.md 2>/dev/null; then
    echo "line $n"
  else
    sed -n "${n}p" CHANGELOG.md
  fi
''', {"line": SEDE}, "Reading (3) keeps the test's reading in the `if`'s BODY; if it is applied to the whole `if` (the `else` too), "
  "the `else` branch, which runs exactly when the test FAILED, gets the caller's text read as digits.")

# ===================================================== reading (1): anchored regex guards
R("letter-guard-arith-name", "guard-letters-arith", "Compare the disk use against a named threshold (warn or crit).",
  {"level": '{type: string, minLength: 1, maxLength: 20, description: "threshold name: warn or crit"}', "note": TXT}, '''
  warn=80
  crit=95
  note="$ARG_note"
  [[ $ARG_level =~ ^[a-z]+$ ]] || exit 1
  limit=$(( ARG_level ))
  echo "limit for $ARG_level: $limit ($note)"
''', {"level": "note", "note": ARITH}, "Reading (1): `^[a-z]+$` (anchored, no `|`, `.` or class) gives `$ARG_level` exactly lower-case "
  "words: no sign, no digit, no blank, no `$`. But in arithmetic a word is a VARIABLE NAME whose value bash evaluates again as an "
  "expression: `level=note` names the script's `note`, which holds the caller's `x[$(…)]`; the subscript's command substitution runs.")
R("guard-nameref-write", "guard-nameref", "Show a changelog line; a helper stores the default.",
  {"line": LINE, "alt": TXT}, '''
  setvar() { local -n _ref=$1; _ref=$2; }
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  setvar m "$ARG_alt"
  setvar n "$ARG_alt"
  sed -n "${n}p" CHANGELOG.md
''', {"line": "3", "alt": SEDE}, "Reading (1): the guard makes `n` digits below it; round 22 voids it only for writes of `n` it sees "
  "(prefixed builtins, elements, arithmetic). A name reference `local -n _ref=$1` in a function writes the CALLER's `n` through "
  "`_ref=$2`: no word of the script spells `n=`. Round 30 handled namerefs only for BASH_REMATCH.")

# ===================================================== builtins that evaluate caller text
R("prompt-expansion-at-P", "param-transform-P", "Print a banner line for the report (\\\\u, \\\\h and \\\\d are expanded).",
  {"title": TXT}, '''
  printf '%s\\n' "== ${ARG_title@P} =="
''', {"title": "$(echo HARBOR-PWNED-$((6*7)) >&2)"}, "A quoted expansion is data: `\"${ARG_title@P}\"` is one word, not an option "
  "(starts with `=`). But the `@P` transform expands the VALUE as a prompt string, and with `promptvars` (default on) that does "
  "parameter expansion and COMMAND SUBSTITUTION of the caller's text.")
R("test-v-subscript", "test-v-subscript", "Tell whether a setting is defined in this shell.",
  {"setting": NAME}, '''
  if [[ -v "$ARG_setting" ]]; then echo "$ARG_setting is set"; else echo "$ARG_setting is not set"; fi
''', {"setting": ARITH}, "`[[ -v WORD ]]` with the quoted caller word looks like a string test; bash reads the word as a variable "
  "name and, for `x[SUBSCRIPT]`, evaluates the subscript as arithmetic: its command substitution runs. Round 25 refused only a "
  "positional parameter in `[[ -v a[$1] ]]`.")
R("test-builtin-v-subscript", "test-v-subscript", "Tell whether a setting is defined in this shell.",
  {"setting": NAME}, '''
  declare -a opts=()
  if test -v "$ARG_setting"; then echo defined; else echo undefined; fi
''', {"setting": "opts[$(echo HARBOR-PWNED-$((6*7)) >&2)]"}, "Like the previous one with the `test` builtin: `test -v 'opts[$(…)]'` "
  "evaluates the subscript.")

# ===================================================== IFS set without `IFS=`
IF = ("The IFS note refuses an unquoted expansion of caller data when the script sets IFS (`IFS=,` at the top, `local IFS`, "
      "`printf -v IFS`, an eval'd `IFS=`). A value whose pattern admits no blank and no `*?[` and cannot start with `-` "
      "is otherwise read as one word that is no option (round 29-30). Here IFS is changed by a form without `IFS=`: ")
IFT = ("; then `tar -czf … $ARG_files` splits the caller's value at `,`: a later word is `--checkpoint-action=exec=…`, which "
       "tar runs through /bin/sh.")
for nm, setifs, note in [
    ("ifs-append", "IFS+=,", "`IFS+=,` (append)"),
    ("ifs-for-loop", "for IFS in ,; do :; done", "`for IFS in ,` (the loop variable keeps its last value)"),
    ("ifs-read-target", "read -r IFS <<< ','", "`read -r IFS` (IFS as read's target, not a prefix)"),
    ("ifs-nameref", "declare -n sep=IFS\nsep=,", "a name reference `declare -n sep=IFS; sep=,`"),
    ("ifs-default-assign", "unset IFS\n: \"${IFS:=,}\"", "`unset IFS; : \"${IFS:=,}\"` (assigning default expansion)"),
]:
    R(nm, "ifs-hidden-set", "Bundle the listed files into an archive in the run folder.",
      {"files": FILES}, '''
%s
tar -czf "$HARBOR_RUN_DIR/bundle.tgz" $ARG_files
echo "bundle: $(wc -c < "$HARBOR_RUN_DIR/bundle.tgz") bytes"
''' % setifs, {"files": TARP}, IF + note + IFT)

# ===================================================== reading (1), more sinks where a lower-case word is a name
LG = ("Reading (1): `^[a-z]+$` gives `$ARG_level` exactly lower-case words (no digit, sign, blank or `$`). ")
R("letter-guard-test-gt", "guard-letters-arith", "Tell whether the disk use is above a named threshold (warn or crit).",
  {"level": '{type: string, minLength: 1, maxLength: 20, description: "threshold name: warn or crit"}', "note": TXT}, '''
  warn=80
  crit=95
  note="$ARG_note"
  [[ $ARG_level =~ ^[a-z]+$ ]] || exit 1
  used=$(df --output=pcent / | tail -n 1 | tr -dc '0-9')
  if [[ $used -gt $ARG_level ]]; then echo "above $ARG_level"; else echo "below $ARG_level"; fi
''', {"level": "note", "note": ARITH}, LG + "`[[ $used -gt $ARG_level ]]` is arithmetic: the word `note` names the script's `note`, "
  "whose value (the caller's `x[$(…)]`) bash evaluates as an expression; the subscript's command substitution runs.")
R("letter-guard-array-subscript", "guard-letters-arith", "Show the limit of a named threshold (warn or crit).",
  {"level": '{type: string, minLength: 1, maxLength: 20, description: "threshold name: warn or crit"}', "note": TXT}, '''
  warn=0
  crit=1
  limits=(80 95)
  note="$ARG_note"
  [[ $ARG_level =~ ^[a-z]+$ ]] || exit 1
  echo "limit for $ARG_level ($note): ${limits[$ARG_level]}"
''', {"level": "note", "note": ARITH}, LG + "An indexed array's subscript is arithmetic: `${limits[$ARG_level]}` with `level=note` "
  "evaluates the variable `note`, which holds the caller's `x[$(…)]`; the command substitution runs.")
