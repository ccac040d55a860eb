import sys, os, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mk import *
S = []
def add(slug, why, y): S.append((slug, why, y))
W = "within: \".\"\n"
P = "{type: string, minLength: 1, maxLength: 4096, within: \".\", description: \"Path inside the working directory.\"}"
ATT = "{type: string, contentEncoding: base64, max_bytes: 1048576}"
SEC = "secrets:\n  API_TOKEN: {env: HARBOR_TEST_SECRET}\n"

add("grep-fixed-within", "grep -F with -e and -- ; path confined by within", f"""
description: Find lines containing a fixed text under a folder.
args:
  text: {{type: string, minLength: 1, maxLength: 200, leading_dash: true}}
  path: {P}
  limit: {{type: integer, minimum: 1, maximum: 500, default: 50}}
required: [text, path]
steps:
  - name: grep
    run: |
      set +e
      grep -rnF --exclude-dir=.git -e "$ARG_text" -- "$ARG_path" | head -n {{{{ args.limit }}}}
      set -e
""")
add("jq-arg-key", "jq gets the key through --arg, the filter is literal", """
description: Read one top-level key of package.json.
args:
  key: {type: string, minLength: 1, maxLength: 100}
required: [key]
steps:
  - name: get
    run: jq --arg k "$ARG_key" '.[$k] // empty' package.json
""")
add("awk-v-user", "awk -v passes the value as a variable; program literal", """
description: Show the login shell of a local user.
args:
  user: {type: string, pattern: "^[a-z_][a-z0-9_-]{0,31}$"}
required: [user]
steps:
  - name: shell
    run: awk -F: -v u="$ARG_user" '$1 == u { print $7 }' /etc/passwd
""")
add("python-argv-len", "python program literal, value as sys.argv", """
description: Report the length and word count of a text.
args:
  text: {type: string, maxLength: 10000, multiline: true}
required: [text]
steps:
  - name: stats
    run: python3 -c 'import sys, json; t = sys.argv[1]; print(json.dumps({"chars": len(t), "words": len(t.split())}))' "$ARG_text"
""")
add("sha256-attachment", "attachment path is a server path; sha256sum reads it as data", f"""
description: SHA-256 of an uploaded file.
args:
  file: {ATT}
required: [file]
steps:
  - name: sum
    run: sha256sum -- "$ARG_file" | cut -d' ' -f1
""")
add("tz-enum-date", "enum value in an environment position", """
description: Current time in one of a few time zones.
args:
  tz: {enum: [UTC, Europe/Berlin, America/New_York, Asia/Tokyo], default: UTC}
steps:
  - name: now
    run: TZ="$ARG_tz" date '+%Y-%m-%d %H:%M:%S %Z'
""")
add("sed-quote-stdin", "caller text is sed's input, the program is a literal without e/w", """
description: Quote a message e-mail style.
args:
  message: {type: string, multiline: true, maxLength: 20000}
required: [message]
steps:
  - name: quote
    run: printf '%s\\n' "$ARG_message" | sed 's/^/> /'
""")
add("tr-upper-herestring", "here-string into tr as data", """
description: Upper-case a text.
args:
  text: {type: string, maxLength: 5000}
required: [text]
steps:
  - name: upper
    run: tr '[:lower:]' '[:upper:]' <<< "$ARG_text"
""")
add("sort-unique-lines", "multiline value on sort's stdin", """
description: Sort lines and drop duplicates.
args:
  lines: {type: string, multiline: true, maxLength: 100000}
required: [lines]
steps:
  - name: sort
    run: printf '%s\\n' "$ARG_lines" | LC_ALL=C sort -u
""")
add("head-within", "integer without sign in a number position, path after --", f"""
description: First lines of a file.
args:
  path: {P}
  n: {{type: integer, minimum: 1, maximum: 1000, default: 20}}
required: [path]
steps:
  - name: head
    run: head -n {{{{ args.n }}}} -- "$ARG_path"
""")
add("find-name-cd", "cd -- with CDPATH cleared, find -name takes the glob as data", f"""
description: Find files by name pattern under a folder.
args:
  dir: {P}
  glob: {{type: string, minLength: 1, maxLength: 100, default: "*"}}
  depth: {{type: integer, minimum: 1, maximum: 8, default: 3}}
required: [dir]
steps:
  - name: find
    run: |
      cd -- "$ARG_dir"
      find . -maxdepth {{{{ args.depth }}}} -type f -name "$ARG_glob" -print | LC_ALL=C sort | head -n 500
    env: {{CDPATH: ""}}
""")
add("git-log-author", "attached value of a data option (--author=)", """
description: Recent commits by an author.
args:
  author: {type: string, minLength: 1, maxLength: 200}
  n: {type: integer, minimum: 1, maximum: 100, default: 10}
required: [author]
steps:
  - name: log
    run: git log -n {{ args.n }} --author="$ARG_author" --format='%h %ad %s' --date=short
    env: {GIT_PAGER: cat, GIT_TERMINAL_PROMPT: "0"}
""")
add("git-log-end-of-options", "--end-of-options before a caller revision, -- before no paths", """
description: Commits reachable from a revision.
args:
  rev: {type: string, minLength: 1, maxLength: 200, default: HEAD}
steps:
  - name: log
    run: git log --oneline -n 20 --end-of-options "$ARG_rev" --
    env: {GIT_PAGER: cat}
""")
add("curl-search-secret-header", "secret as a header argument, caller value url-encoded as data", SEC + """
description: Search the internal API.
args:
  q: {type: string, minLength: 1, maxLength: 300}
required: [q]
sandbox: {network: host}
steps:
  - name: search
    run: |
      curl -fsS --get --data-urlencode "q=$ARG_q" \\
        -H "Authorization: Bearer $API_TOKEN" https://api.example.com/v1/search \\
        | jq '.results[:10]'
""")
add("curl-header-stdin-secret", "secret on curl's stdin (-H @-), never on the command line", SEC + """
description: Fetch the status of one deployment.
args:
  id: {type: string, pattern: "^[a-z0-9-]{1,64}$"}
required: [id]
steps:
  - name: status
    run: |
      printf 'Authorization: Bearer %s\\n' "$API_TOKEN" \\
        | curl -fsS -H @- "https://deploy.example.com/api/deployments/$ARG_id" | jq -r '.status'
""")
add("jq-build-output", "jq -n with --arg/--argjson builds the structured answer", """
description: Make a greeting record.
args:
  name: {type: string, minLength: 1, maxLength: 100}
  count: {type: integer, minimum: 0, maximum: 10, default: 1}
required: [name]
output_schema:
  type: object
  properties: {name: {type: string}, count: {type: integer}}
steps:
  - name: build
    run: jq -n --arg name "$ARG_name" --argjson n {{ args.count }} '{name: $name, count: $n}' > "$HARBOR_OUTPUT"
""")
add("argv-wc", "argv step: value is one argv element after --", f"""
description: Count lines of a file.
args:
  path: {P}
required: [path]
steps:
  - name: wc
    argv: [wc, -l, --, "{{{{ args.path }}}}"]
""")
add("argv-du", "argv du with -- and within", f"""
description: Size of a folder.
args:
  path: {P}
required: [path]
steps:
  - name: du
    argv: [du, -sh, --, "{{{{ args.path }}}}"]
""")
add("argv-stat", "argv stat with a literal format", f"""
description: Size and modification time of a file.
args:
  path: {P}
required: [path]
steps:
  - name: stat
    argv: [stat, "--format=%s bytes, modified %y", --, "{{{{ args.path }}}}"]
""")
add("argv-git-log-path", "argv git log with literal pathspecs", f"""
description: Last commits touching a path.
args:
  path: {P}
  n: {{type: integer, minimum: 1, maximum: 50, default: 5}}
required: [path]
steps:
  - name: log
    argv: [git, log, -n, "{{{{ args.n }}}}", --oneline, --, "{{{{ args.path }}}}"]
    env: {{GIT_PAGER: cat, GIT_LITERAL_PATHSPECS: "1"}}
""")
add("programs-column", "a correct programs: entry; column prints its stdin", """
description: Align comma-separated values as a table.
programs:
  column:
    options_with_value: [-s, -o]
    flags: [-t]
    runs_operands: false
    stdin: data
args:
  csv: {type: string, multiline: true, maxLength: 50000}
required: [csv]
steps:
  - name: table
    run: printf '%s\\n' "$ARG_csv" | column -t -s,
""")
add("numfmt-int", "non-negative integer in an operand", """
description: Human-readable size of a byte count.
args:
  bytes: {type: integer, minimum: 0}
required: [bytes]
steps:
  - name: fmt
    run: numfmt --to=iec {{ args.bytes }}
""")
add("case-dispatch", "the caller picks among literal commands through case", """
description: Show one kind of system information.
args:
  what: {type: string, enum: [disk, memory, kernel]}
required: [what]
steps:
  - name: info
    run: |
      case "$ARG_what" in
        disk) df -h . ;;
        memory) free -h ;;
        kernel) uname -sr ;;
      esac
""")
add("assoc-lookup", "declare -A at top level: the subscript is a string key", """
description: Default port of a well-known service.
args:
  service: {type: string, minLength: 1, maxLength: 40}
required: [service]
steps:
  - name: port
    run: |
      declare -A port=([http]=80 [https]=443 [ssh]=22)
      echo "port: ${port[$ARG_service]:-unknown}"
""")
add("int-arith", "arithmetic on an integer arg", """
description: Plan retries with exponential backoff.
args:
  retries: {type: integer, minimum: 0, maximum: 10, default: 3}
steps:
  - name: plan
    run: |
      for (( i = 1; i <= ARG_retries; i++ )); do
        echo "attempt $i after $(( 2 ** i )) s"
      done
""")
add("mapfile-wc-dashdash", "lines become argv elements after --", """
description: Count lines of the listed files (one per line).
args:
  paths: {type: string, multiline: true, maxLength: 4000}
required: [paths]
steps:
  - name: wc
    run: |
      mapfile -t files <<< "$ARG_paths"
      wc -l -- "${files[@]}"
""")
add("xargs0-ls-dashdash", "xargs -0 with -- so items are operands", """
description: Long listing of the given files (one per line).
args:
  paths: {type: string, multiline: true, maxLength: 4000}
required: [paths]
steps:
  - name: ls
    run: |
      mapfile -t files <<< "$ARG_paths"
      printf '%s\\0' "${files[@]}" | xargs -0 -r ls -ld --
""")
add("ifs-read-printf", "split items only printed", """
description: Echo back comma-separated tags, one per line.
args:
  tags: {type: string, maxLength: 1000}
required: [tags]
steps:
  - name: tags
    run: |
      IFS=, read -ra list <<< "$ARG_tags"
      for t in "${list[@]}"; do printf 'tag: %s\\n' "$t"; done
""")
add("tar-C-within", "tar -C takes the folder as a value, operand is literal", f"""
description: Archive a folder into the run directory.
args:
  dir: {P}
required: [dir]
steps:
  - name: tar
    run: |
      tar -czf "$HARBOR_RUN_DIR/folder.tgz" -C "$ARG_dir" .
      ls -l "$HARBOR_RUN_DIR/folder.tgz"
""")
add("tar-list-attachment", "list an uploaded archive", f"""
description: List the members of an uploaded .tar.gz.
args:
  bundle: {ATT}
required: [bundle]
steps:
  - name: list
    run: tar -tzvf "$ARG_bundle" | head -n 200
""")
add("unzip-list-attachment", "unzip -l of an uploaded zip", f"""
description: List the members of an uploaded zip.
args:
  archive: {ATT}
required: [archive]
steps:
  - name: list
    run: unzip -l "$ARG_archive"
""")
add("cmp-attachments", "compare two uploads", f"""
description: Tell whether two uploaded files are identical.
args:
  a: {ATT}
  b: {ATT}
required: [a, b]
steps:
  - name: cmp
    run: |
      if cmp -s -- "$ARG_a" "$ARG_b"; then echo identical; else echo different; fi
""")
add("diff-attachments", "unified diff of two uploads", f"""
description: Unified diff of two uploaded text files.
args:
  old: {ATT}
  new: {ATT}
required: [old, new]
steps:
  - name: diff
    run: diff -u -- "$ARG_old" "$ARG_new" || true
""")
add("envsubst-named", "envsubst limited to one named variable passed for one command", """
description: Render a greeting from a fixed template.
args:
  name: {type: string, minLength: 1, maxLength: 100}
required: [name]
steps:
  - name: render
    run: |
      NAME="$ARG_name" envsubst '$NAME' <<'EOF'
      Hello, $NAME! Welcome aboard.
      EOF
""")
add("python-quoted-heredoc", "python program from a quoted here-document, value in argv", """
description: Title-case a phrase.
args:
  phrase: {type: string, maxLength: 500}
required: [phrase]
steps:
  - name: title
    run: |
      python3 - "$ARG_phrase" <<'EOF'
      import sys
      print(sys.argv[1].title())
      EOF
""")
add("perl-argv-length", "perl program without <>, value in @ARGV", """
description: Length of a string in characters.
args:
  text: {type: string, maxLength: 1000}
required: [text]
steps:
  - name: len
    run: perl -CA -e 'print length($ARGV[0]), "\\n"' -- "$ARG_text"
""")
add("awk-int-in-code", "a non-negative integer inside awk code", """
description: First N entries of the passwd file.
args:
  n: {type: integer, minimum: 1, maximum: 100, default: 5}
steps:
  - name: first
    run: awk -F: 'NR <= {{ args.n }} { print $1 }' /etc/passwd
""")
add("sed-range-ints", "integers in a sed address", f"""
description: Print a range of lines of a file.
args:
  path: {P}
  start: {{type: integer, minimum: 1, default: 1}}
  end: {{type: integer, minimum: 1, default: 40}}
required: [path]
steps:
  - name: range
    run: sed -n '{{{{ args.start }}}},{{{{ args.end }}}}p' -- "$ARG_path"
""")
add("write-runfile-wc", "value written to a run-directory file and counted", """
description: Count the bytes of a message as UTF-8.
args:
  message: {type: string, multiline: true, maxLength: 100000}
required: [message]
steps:
  - name: count
    run: |
      printf '%s' "$ARG_message" > "$HARBOR_RUN_DIR/message.txt"
      wc -c < "$HARBOR_RUN_DIR/message.txt"
""")
add("step-output-quoted", "a caller-derived step output only quoted and printed", """
description: Make a URL slug from a title.
args:
  title: {type: string, minLength: 1, maxLength: 200}
required: [title]
steps:
  - name: slug
    run: |
      slug=$(printf '%s' "$ARG_title" | tr -cs 'A-Za-z0-9' '-' | tr 'A-Z' 'a-z')
      printf 'slug=%s\\n' "${slug#-}" >> "$HARBOR_STEP_OUTPUT"
  - name: show
    run: printf 'Slug: %s\\n' "$STEP_slug_slug"
""")
add("if-condition-enum", "if: conditions over typed args, literal commands", """
description: Show the disk usage, optionally in detail.
args:
  detail: {type: boolean, default: false}
steps:
  - name: summary
    run: df -h .
  - name: detail
    if: args.detail == true
    run: du -h --max-depth=1 . 2>/dev/null | sort -h | tail -n 20
""")
add("trap-mktemp", "trap text literal, temp folder from mktemp", """
description: Save a note in a scratch folder and report its size.
args:
  note: {type: string, multiline: true, maxLength: 10000}
required: [note]
steps:
  - name: note
    run: |
      tmp=$(mktemp -d)
      trap 'rm -rf -- "$tmp"' EXIT
      printf '%s\\n' "$ARG_note" > "$tmp/note.txt"
      wc -c < "$tmp/note.txt"
""")
add("grep-count-attachment", "grep -c with -e and -- on an upload", f"""
description: Count the lines of an uploaded file that contain a word.
args:
  file: {ATT}
  word: {{type: string, minLength: 1, maxLength: 100, leading_dash: true}}
required: [file, word]
steps:
  - name: count
    run: grep -c -F -e "$ARG_word" -- "$ARG_file" || true
""")
add("base64-decode-count", "caller base64 text decoded as data", """
description: Decoded size of a base64 string.
args:
  data: {type: string, maxLength: 100000, pattern: "^[A-Za-z0-9+/=]*$"}
required: [data]
steps:
  - name: size
    run: printf '%s' "$ARG_data" | base64 -d | wc -c
""")
add("jq-test-regex", "jq regex from --arg (data for jq's test)", """
description: Names in a JSON list that match a regular expression.
args:
  items: {type: array, items: {type: object}, maxItems: 1000}
  regex: {type: string, minLength: 1, maxLength: 200}
required: [items, regex]
steps:
  - name: match
    run: jq -r --arg re "$ARG_regex" '.[] | select((.name // "") | test($re)) | .name' <<< "$ARG_items"
""")
add("grep-E-services", "grep -E -e with leading_dash pattern", """
description: Look up services by regular expression in /etc/services.
args:
  re: {type: string, minLength: 1, maxLength: 200, leading_dash: true}
steps:
  - name: grep
    run: grep -E -e "$ARG_re" -- /etc/services | head -n 50 || true
""")
add("printf-q", "printf %q shows the shell-quoted form", """
description: Show how a string would be quoted for the shell.
args:
  text: {type: string, maxLength: 1000}
required: [text]
steps:
  - name: quote
    run: printf '%q\\n' "$ARG_text"
""")
add("echo-greeting", "simplest double-quoted expansion", """
description: Say hello.
args:
  name: {type: string, minLength: 1, maxLength: 100}
required: [name]
steps:
  - name: hello
    run: echo "Hello, ${ARG_name}!"
""")
add("git-rev-parse-verify", "rev-parse --end-of-options, output printed", """
description: Resolve a revision to a commit id.
args:
  ref: {type: string, minLength: 1, maxLength: 200}
required: [ref]
steps:
  - name: resolve
    run: git rev-parse --verify --quiet --end-of-options "$ARG_ref^{commit}" || echo "unknown revision"
""")
add("curl-urlencoded-path", "caller text percent-encoded by jq @uri into a fixed https URL", """
description: Download one page of the internal docs.
args:
  page: {type: string, minLength: 1, maxLength: 200}
required: [page]
steps:
  - name: fetch
    run: |
      p=$(jq -rn --arg p "$ARG_page" '$p | @uri')
      curl -fsS -o "$HARBOR_RUN_DIR/page.html" -- "https://docs.example.com/pages/$p"
      wc -c < "$HARBOR_RUN_DIR/page.html"
""")
add("python-sqlite-param", "SQL with a bound parameter inside a literal python program", """
description: Upper-case a name through SQLite (parameterised).
args:
  name: {type: string, maxLength: 200}
required: [name]
steps:
  - name: sql
    run: python3 -c 'import sqlite3, sys; c = sqlite3.connect(":memory:"); print(c.execute("select upper(?)", (sys.argv[1],)).fetchone()[0])' "$ARG_name"
""")
add("nl-attachment", "nl of an upload", f"""
description: Number the lines of an uploaded file.
args:
  file: {ATT}
required: [file]
steps:
  - name: nl
    run: nl -ba -- "$ARG_file" | head -n 500
""")
add("cut-column-int", "integer field number, operand after --", f"""
description: One column of a CSV file.
args:
  path: {P}
  col: {{type: integer, minimum: 1, maximum: 100, default: 1}}
required: [path]
steps:
  - name: cut
    run: cut -d, -f{{{{ args.col }}}} -- "$ARG_path" | head -n 200
""")
add("awk-sum-stdin", "caller numbers on awk's stdin, program literal", """
description: Sum a list of numbers (one per line).
args:
  numbers: {type: string, multiline: true, maxLength: 100000}
required: [numbers]
steps:
  - name: sum
    run: printf '%s\\n' "$ARG_numbers" | awk '{ s += $1 } END { print s + 0 }'
""")
add("timeout-tail", "timeout with an integer duration, tail with --", f"""
description: Last lines of a log file.
args:
  log: {P}
  n: {{type: integer, minimum: 1, maximum: 2000, default: 100}}
required: [log]
steps:
  - name: tail
    run: timeout 10 tail -n {{{{ args.n }}}} -- "$ARG_log"
""")
add("md5-attachment", "md5sum of an upload, first field", f"""
description: MD5 of an uploaded file.
args:
  file: {ATT}
required: [file]
steps:
  - name: md5
    run: md5sum -- "$ARG_file" | cut -d' ' -f1
""")
add("realpath-relative", "realpath with data option and --", f"""
description: Canonical path of a file relative to the working directory.
args:
  path: {P}
required: [path]
steps:
  - name: real
    run: realpath --relative-to=. -- "$ARG_path"
""")
add("date-epoch-int", "integer epoch inside date's -d value", """
description: Convert a Unix timestamp to ISO 8601 (UTC).
args:
  epoch: {type: integer, minimum: 0}
required: [epoch]
steps:
  - name: date
    run: date -u -d "@{{ args.epoch }}" +%FT%TZ
""")
add("date-parse-string", "a free-form date string as date -d's value", """
description: Convert a date description ("next friday", "2024-03-01 10:00") to a Unix timestamp.
args:
  when: {type: string, minLength: 1, maxLength: 100}
required: [when]
steps:
  - name: parse
    run: date -u -d "$ARG_when" +%s
""")
add("secret-fingerprint", "only a hash prefix of the secret is shown", SEC + """
description: Show a short fingerprint of the configured API token, to compare with the vault.
steps:
  - name: fp
    run: |
      fp=$(printf '%s' "$API_TOKEN" | sha256sum | cut -c1-12)
      echo "token fingerprint: $fp"
""")
add("argv-jq-null-input", "argv jq with --arg", """
description: Wrap a query string in a JSON object.
args:
  q: {type: string, maxLength: 1000}
required: [q]
steps:
  - name: wrap
    argv: [jq, -n, -c, --arg, q, "{{ args.q }}", "{query: $q}"]
""")
add("argv-grep-count", "argv grep -e value and -- before a literal file", """
description: How many service names in /etc/services contain a word.
args:
  word: {type: string, minLength: 1, maxLength: 50, leading_dash: true}
required: [word]
steps:
  - name: count
    argv: [grep, -c, -F, -e, "{{ args.word }}", --, /etc/services]
""")
add("function-quoted-args", "a function that only prints its quoted arguments", """
description: Show a two-column summary of the given name and team.
args:
  name: {type: string, maxLength: 100}
  team: {type: string, maxLength: 100, default: none}
required: [name]
steps:
  - name: show
    run: |
      row() { printf '%-8s %s\\n' "$1:" "$2"; }
      row name "$ARG_name"
      row team "$ARG_team"
""")
add("shellquote-word", "shellquote placeholder as an unquoted word", """
description: Print a value back, shell-quoted by the template.
args:
  value: {type: string, maxLength: 500}
required: [value]
steps:
  - name: echo
    run: printf '[%s]\\n' {{ args.value | shellquote }}
""")
add("iconv-enum", "enum encodings, file after --", f"""
description: Convert an uploaded text file to UTF-8.
args:
  file: {ATT}
  from: {{enum: [LATIN1, UTF-16, CP1252, SHIFT_JIS], default: LATIN1}}
required: [file]
steps:
  - name: conv
    run: iconv -f "$ARG_from" -t UTF-8 -- "$ARG_file" | head -c 100000
""")
add("bash-n-syntax", "bash -n parses an uploaded script without running it", f"""
description: Check the syntax of an uploaded shell script.
args:
  script: {ATT}
required: [script]
steps:
  - name: check
    run: |
      if bash -n -- "$ARG_script"; then echo "syntax OK"; fi
""")
add("python-py-compile", "py_compile compiles (does not run) an uploaded file", f"""
description: Check that an uploaded Python file compiles.
args:
  module: {ATT}
required: [module]
steps:
  - name: compile
    run: python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile="/dev/null", doraise=True); print("compiles")' "$ARG_module"
""")
add("json-validate-attachment", "json.load of an upload (no cd into caller folders)", f"""
description: Validate an uploaded JSON document and show its top-level keys.
args:
  doc: {ATT}
required: [doc]
steps:
  - name: keys
    run: jq -r 'if type == "object" then keys[] else type end' -- "$ARG_doc"
""")

for i, (slug, why, y) in enumerate(S, 1):
    y = textwrap.dedent(y).lstrip()
    y = f"name: r2s_{i:03d}\n" + y
    y = re.sub(r"^(\s*)run: (?![|>])(.+)$", lambda m: f"{m.group(1)}run: |\n{m.group(1)}  {m.group(2)}", y, flags=re.M)
    open(f"{OUT}/safe/{i:03d}-{slug}.yaml", "w").write(y)
    open(f"{OUT}/safe/.why-{i:03d}", "w").write(why)
print(len(S))
