r"""The classes blind round thirty-three's attacks found (tests/check/blind34r33,
SCORE.md), each as a rule with fixtures on both sides.

- bash's settings from a step's ``env:`` (SHELLOPTS, BASHOPTS, CDPATH…) are
  refused where the export loads: tests/test_step_environment.py.
- Where the script may turn on extglob, ``!(x)``, ``@(x)`` and ``+(x)`` are
  globs: an unquoted value that may hold ``(`` is file names then.
- curl reads ``~/.curlrc`` unasked: a script that writes one (or into the
  home folder, or sets HOME/CURL_HOME/XDG_CONFIG_HOME) may make it follow
  redirects, even trusted, unless ``-q`` comes first.
- git follows its first request's redirects with ``http.extraHeader``: a
  secret given to git beside a caller's URL path is refused unless
  ``-c http.followRedirects=false``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_documents, check_steps

_SEL = {"sel": {"type": "string", "pattern": "^[A-Za-z0-9_.!()|@+-]+$"}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ("shopt -s extglob\ntar -cf ../b.tar $ARG_sel", True),
        ('o=extglob\nshopt -s "$o"\ntar -cf ../b.tar $ARG_sel', True),
        ('eval "shopt -s ext""glob"\ntar -cf ../b.tar $ARG_sel', True),
        ("tar -cf ../b.tar $ARG_sel", False),
        ('shopt -s extglob\ntar -cf ../b.tar -- "$ARG_sel"', False),
    ],
)
def test_extglob_makes_parentheses_globs(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_SEL)
    assert (status == "refused") == refused, findings


_PATH = {"path": {"type": "string", "pattern": "^[a-z0-9][a-z0-9/._-]*$"}}
_TOKEN = {"secrets": {"API_TOKEN": {"env": "CI_API_TOKEN"}}}
_CURL = (
    "printf 'X-Api-Key: %s\\n' \"$API_TOKEN\" |\n"
    '  curl {first}-fsS --header @- "https://api.example.com/reports/$ARG_path"'
)


@pytest.mark.parametrize(
    ("before", "first", "refused"),
    [
        ("printf '%s\\n' location > \"$HOME/.curlrc\"", "", True),
        ("printf '%s\\n' location-trusted > ~/.curlrc", "", True),
        ('cp conf/curlrc "$HARBOR_RUN_DIR/.curlrc"', "", True),
        ('CURL_HOME="$HARBOR_RUN_DIR"', "", True),
        ('export HOME="$HARBOR_RUN_DIR/home"', "", True),
        # -q first: no .curlrc is read
        ("printf '%s\\n' location > \"$HOME/.curlrc\"", "-q ", False),
        ("", "", False),
    ],
)
def test_a_curlrc_the_script_writes(before: str, first: str, refused: bool, tmp_path: Path) -> None:
    run = f"{before}\n{_CURL.format(first=first)}"
    status, findings = check_steps([run], tmp_path, args=_PATH, **_TOKEN)
    assert (status == "refused") == refused, findings


_GIT_SECRET = {"secrets": {"GITLAB_TOKEN": {"env": "CI_GITLAB_TOKEN", "programs": ["git"]}}}
_GIT = (
    'git {settings}-c http.extraHeader="PRIVATE-TOKEN: $GITLAB_TOKEN" '
    'ls-remote --heads "https://git.example.com/{repo}"'
)


@pytest.mark.parametrize(
    ("settings", "repo", "refused"),
    [
        ("", "$ARG_path", True),
        ("-c http.followRedirects=false ", "$ARG_path", False),
        ("", "group/app.git", False),
    ],
)
def test_git_follows_a_redirect_with_its_header(
    settings: str, repo: str, refused: bool, tmp_path: Path
) -> None:
    run = _GIT.format(settings=settings, repo=repo)
    status, findings = check_steps([run], tmp_path, args=_PATH, **_GIT_SECRET)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    "writes",
    [
        'mapfile -t null <<< "$ARG_path"',
        'null[0]="$ARG_path"',
        ': "${null=$ARG_path}"',
        'for false in "$ARG_path"; do :; done',
        'f() { local null="$ARG_path"; }\nf',
        'declare -n ref=true\nref="$ARG_path"',
    ],
)
def test_a_variable_named_like_a_json_literal(writes: str, tmp_path: Path) -> None:
    """Round thirty-four: bash arithmetic reads jq's ``false`` (of the
    author's file too) as the variable ``false``: a script that gives one of
    true/false/null a value is refused, however it writes it."""
    run = f"{writes}\nbeta=$(jq '.features.beta' config/app.json)\n(( beta )) && echo on"
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert status == "refused", findings
    status, findings = check_steps(
        ["beta=$(jq '.features.beta' config/app.json)\n(( beta )) && echo on"],
        tmp_path,
        args=_PATH,
    )
    assert status == "accepted", findings


@pytest.mark.parametrize(
    ("header", "refused"),
    [("Authorization : Bearer $API_TOKEN", True), ("Authorization: Bearer $API_TOKEN", False)],
)
def test_curl_keeps_only_an_exact_authorization_header(
    header: str, refused: bool, tmp_path: Path
) -> None:
    """Round thirty-four: curl drops a custom header on a redirect only when
    it starts exactly ``Authorization:`` (no blank before the colon)."""
    run = f'curl -sS -L -H "{header}" "https://api.example.com/$ARG_path"'
    status, findings = check_steps([run], tmp_path, args=_PATH, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("env", "refused"),
    [
        # a step's env: that points a program's config or search path at a
        # place a step may write, or at a relative folder
        ({"CURL_HOME": "/dev/shm/app"}, True),
        ({"XDG_CONFIG_HOME": "/tmp/cfg"}, True),
        ({"HOME": "/dev/shm/app"}, True),
        ({"GIT_CONFIG_GLOBAL": "/dev/shm/app/gitconfig"}, True),
        ({"PYTHONPATH": "/dev/shm/app"}, True),
        ({"PATH": "bin:/usr/bin:/bin"}, True),
        ({"PATH": "/usr/bin::/bin"}, True),
        # the author's absolute folders, a temporary folder to write in
        ({"PATH": "/opt/tool/bin:/usr/bin:/bin"}, False),
        ({"ANSIBLE_LOCAL_TEMP": "/tmp"}, False),
        ({"CDPATH": ""}, False),
    ],
)
def test_a_step_env_naming_a_writable_place(
    env: dict[str, str], refused: bool, tmp_path: Path
) -> None:
    """Round thirty-five: `env:` is the author's literal, but the place it
    names may hold what an earlier step stored there."""
    report = check_documents(
        [
            {
                "name": "t",
                "description": "steps",
                "steps": [
                    {"name": "s", "env": env, "run": "jq -n 1\ncurl -sS https://x.example.com"}
                ],
            }
        ],
        tmp_path,
    )
    assert (report.status == "refused") == refused, report.findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('PATH="node_modules/.bin:$PATH"\ncd "$HARBOR_RUN_DIR/pkg"\njq . package.json', True),
        ('PATH=".venv/bin:$PATH"\ntar -xzf "$ARG_path" -C .\ndu -sk .', True),
        ('PATH="$HOME/.local/bin:$PATH"\njq -n 1', True),
        # relative, but the script works only in the author's folders
        ("export PYTHONPATH=src\npython3 -m pytest -q -p no:cacheprovider", False),
        ('PATH="/opt/tool/bin:$PATH"\njq -n 1', False),
    ],
)
def test_a_search_path_assigned_in_the_script(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


_PSQL = "psql -X -v st=\"$ARG_path\" <<'SQL'\n{sql}\nSQL"


@pytest.mark.parametrize(
    ("sql", "refused"),
    [
        # an apostrophe in a comment or a dollar-quoted string starts no literal
        ("SELECT 1 -- the customer's\nWHERE a = :st AND b = 'x';", True),
        ("SELECT 1 /* it's /* nested */ */ , :st, 'y';", True),
        ("SELECT $$ it's $$, :st;", True),
        ("SELECT 1 -- the customer's\nWHERE a = :'st';", False),
    ],
)
def test_psql_comments_and_dollar_quotes(sql: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([_PSQL.format(sql=sql)], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    "joined", ["2>&1", "2>/dev/fd/1", "2>/proc/self/fd/1", "2>/dev/stdout", "|& cat"]
)
def test_jq_errors_joined_into_its_output(joined: str, tmp_path: Path) -> None:
    """jq's errors (``halt_error`` prints its input raw) joined into what
    ``$(…)`` captures make it no JSON text."""
    run = f"n=$(jq '.t | halt_error' <<< \"$ARG_path\" {joined})\necho $(( n + 1 ))"
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert status == "refused", findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round thirty-six: a place spelled with a doubled slash is that place
        ('XDG_CONFIG_HOME=/dev//shm/app curl -sS "https://x.example.com/$ARG_path"', True),
        # 2> >(tee …) inside $(…): tee writes the capture
        (
            'v=$(jq \'.t | halt_error\' <<< "$ARG_path" 2> >(tee -a "$HARBOR_RUN_DIR/e"))\n'
            "echo $(( v + 1 ))",
            True,
        ),
        # a trap's text assigns a name at a time the analysis does not follow
        ("n=12\ntrap 'n=$ARG_path' DEBUG\necho $(( n + 1 ))", True),
        # a line that starts with a backslash: tree-sitter reads it into the line before
        ("[[ $ARG_path =~ ^[0-9]+$ ]] || exit 1\n\\trap 'n=$ARG_path' DEBUG\necho ok", True),
    ],
)
def test_round_thirty_six(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round thirty-seven: mapfile -C runs its callback text in this shell
        (
            "n=3\nmapfile -C 'n=$ARG_path' -c 1 lines < /etc/hostname\necho $(( n + 1 ))",
            True,
        ),
        # an s command after an address's flag or a custom delimiter, e flag
        ("printf '%s\\n' \"$ARG_path\" | sed '/x/Is/a/b/e'", True),
        ("printf '%s\\n' \"$ARG_path\" | sed '\\%x%s|a|b|e'", True),
        ("printf '%s\\n' \"$ARG_path\" | sed 's/^[[:space:]]+//; s/[[:space:]]+$//'", False),
    ],
)
def test_round_thirty_seven(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("env", "refused"),
    [
        ({"PYTHONPATH": "/run/shm/lib"}, True),  # /run/shm: /dev/shm's other name
        ({"CURL_HOME": ".cache/curl"}, True),  # relative: whichever folder a command is in
        # any variable: a program may read it as a place to find settings or code
        ({"MARK_DIR": "/tmp/marks"}, True),
        ({"LOG_ROOT": "/usr/share:/dev/shm/x"}, True),  # a piece of a list
        ({"ANSIBLE_LOCAL_TEMP": "/tmp"}, False),  # a temporary folder to make files in
        ({"VAULT_ADDR": "https://vault.example.com:8200"}, False),
    ],
)
def test_a_step_env_place_round_thirty_seven(
    env: dict[str, str], refused: bool, tmp_path: Path
) -> None:
    report = check_documents(
        [
            {
                "name": "t",
                "description": "steps",
                "steps": [{"name": "s", "env": env, "run": "jq -n 1"}],
            }
        ],
        tmp_path,
    )
    assert (report.status == "refused") == refused, report.findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round thirty-eight: a\ text whose line ends in \\ ends there (GNU sed)
        ("printf '%s\\n' \"$ARG_path\" | sed 'a\\\\\nnote\\\\\\\\\n/./e'", True),
        # an indexed array literal's [key] is arithmetic
        ("slots=([$ARG_path]=reserved)", True),
        ("declare -a slots=([$ARG_path]=reserved)", True),
    ],
)
def test_round_thirty_eight(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    "env",
    [
        {"MAKEFILES": "/dev/shm/app/x.mk"},
        {"PYTHONPATH": "/etc/../dev/shm/app"},
        {"PYTHONPATH": "/var/run/shm/app"},
    ],
)
def test_a_step_env_place_round_thirty_eight(env: dict[str, str], tmp_path: Path) -> None:
    report = check_documents(
        [
            {
                "name": "t",
                "description": "steps",
                "steps": [{"name": "s", "env": env, "run": "make"}],
            }
        ],
        tmp_path,
    )
    assert report.status == "refused", report.findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a run-directory file the script filled, read by a language as data
        (
            'printf \'%s\\n\' "$ARG_path" > "$HARBOR_RUN_DIR/n.txt"\n'
            "awk '{ system($0) }' \"$HARBOR_RUN_DIR/n.txt\"",
            True,
        ),
        (
            'printf \'%s\\n\' "$ARG_path" > "$HARBOR_RUN_DIR/n.txt"\n'
            "sed '/./e' \"$HARBOR_RUN_DIR/n.txt\"",
            True,
        ),
        # sed -f: the program is the file's (here standard input's)
        (
            'printf \'%s\\n\' "$ARG_path" > "$HARBOR_RUN_DIR/n.txt"\n'
            "sed -f - \"$HARBOR_RUN_DIR/n.txt\" <<'SED'\n/./e\nSED",
            True,
        ),
        # a literal program with no way to run its data
        (
            'printf \'%s\\n\' "$ARG_path" > "$HARBOR_RUN_DIR/n.txt"\n'
            "sed 's/a/b/' \"$HARBOR_RUN_DIR/n.txt\"",
            False,
        ),
        ("awk '/Installed:/ { getline; print $2 }' \"$HARBOR_RUN_DIR/policy.txt\"", False),
    ],
)
def test_a_language_reading_a_step_file(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # `export NAME` exports what NAME holds anywhere in the script
        ('v="$ARG_path"\nexport v\ngit status', True),
        ('declare -x v\nv="$ARG_path"\ngit status', True),
        ('read -r v <<< "$ARG_path"\nexport v\ngit status', True),
        ('v="$ARG_path"\ncommand export v\ngit status', True),
        # a place a step may write, exported to every later program
        ("export HOME=/dev/shm/h\ngit status", True),
        ("HOME=/dev/shm/h\ngit status", True),  # HOME is in the environment already
        # nothing fills the run directory with caller data, then something does
        ('export GIT_DIR="$HARBOR_RUN_DIR/repo"\ngit status', False),
        (
            'export GIT_DIR="$HARBOR_RUN_DIR/repo"\ngit status\n'
            'cp -- "$ARG_path" "$HARBOR_RUN_DIR/x"',
            True,
        ),
        ("v=/var/tmp/q\ndeclare -x v\ngit status", True),
        ("set -a\nv=/dev/shm/x\ngit status", True),
        ("builtin export v=/var/tmp/q\ngit status", True),
        ("BAR_LOAD=/usr:/dev/shm/cfg git status", True),  # a piece of a list, one command
        # the author's words, a temporary folder to make files in
        ("env=prod\nexport env\ngit status", False),
        ("export TMPDIR=/tmp/x\ngit status", False),
        ("export LC_ALL=C.UTF-8\ngit status", False),
    ],
)
def test_what_a_script_exports(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # the author's path of a place a step may write, where the grammar
        # says code (round thirty-nine's 025: git -c include.path=FILE)
        ('git -c include.path="$HARBOR_RUN_DIR/shared.gitconfig" status', True),
        ("git -c core.hooksPath=/tmp/h commit -m x", True),
        ("git --git-dir=/dev/shm/r status", True),
        ('f="$HARBOR_RUN_DIR/x"\ngit -c include.path="$f" status', True),  # through a variable
        ('for f in /tmp/a.cfg /tmp/b.cfg; do curl -K "$f" https://a.example.com/; done', True),
        ("make -f /tmp/x", True),
        ("jq -f /tmp/prog.jq -n", True),
        ("jq -L /tmp/lib -n 1", True),
        ("psql -f /tmp/x.sql", True),
        ("awk -f /tmp/x.awk /dev/null", True),
        ('curl -K "$HARBOR_RUN_DIR/c" https://a.example.com/', True),
        ("tar -czf /tmp/o.tgz --files-from /tmp/list", True),
        ('mytool --out "$HARBOR_RUN_DIR/r"', True),  # no grammar: only clean data
        ("BAR_LOAD=/usr:/dev/shm/cfg git status", True),
        # where the grammar says data, or a file it writes
        ('jq . "$HARBOR_RUN_DIR/x.json"', False),
        ("sort -o /tmp/x /etc/hosts", False),
        ('cp /etc/hosts "$HARBOR_RUN_DIR/b"', False),
        ('curl -T "$HARBOR_RUN_DIR/c" https://a.example.com/', False),
        ('psql -o "$HARBOR_RUN_DIR/out.csv" -c "select 1"', False),
        ('python3 -m pytest -q --junitxml="$HARBOR_RUN_DIR/junit.xml" -- tests', False),
        ('terraform plan -out="$HARBOR_RUN_DIR/plan"', False),
        ('sed -i "s/a/b/" -- "$HARBOR_RUN_DIR/x"', False),
        ("git -c user.name=/tmp status", False),  # a data setting
        ("awk -F/ '{ print $NF }' /tmp/x", False),  # a program's text is no path
        # a file this step wrote in full from the author's text just before
        (
            'printf "user = a:b\\n" > "$HARBOR_RUN_DIR/c.cfg"\n'
            'curl -s -K "$HARBOR_RUN_DIR/c.cfg" https://a.example.com/ || echo unreachable',
            False,
        ),
        (
            'rc="$HARBOR_RUN_DIR/c.cfg"\n(umask 077; printf "user = a:b\\n" > "$rc")\n'
            'curl -s --config="$rc" https://a.example.com/',
            False,
        ),
        ("cat > /tmp/q.jq <<'EOF'\n.a\nEOF\njq -f /tmp/q.jq /etc/hosts", False),
        # ... but not when it may not be: in a condition, after the read,
        # with caller data, beside another writer, under set +e or noclobber
        (
            'if true; then printf "user = a:b\\n" > /tmp/c.cfg; fi\n'
            "curl -s -K /tmp/c.cfg https://a.example.com/",
            True,
        ),
        (
            'curl -s -K /tmp/c.cfg https://a.example.com/\nprintf "user = a:b\\n" > /tmp/c.cfg',
            True,
        ),
        (
            'printf "user = %s\\n" "$ARG_path" > /tmp/c.cfg\n'
            "curl -s -K /tmp/c.cfg https://a.example.com/",
            True,
        ),
        (
            'printf "user = a:b\\n" > /tmp/c.cfg\ncp "$HARBOR_RUN_DIR/o" /tmp/c.cfg\n'
            "curl -s -K /tmp/c.cfg https://a.example.com/",
            True,
        ),
        (
            'set +e\nprintf "user = a:b\\n" > /tmp/c.cfg\n'
            "curl -s -K /tmp/c.cfg https://a.example.com/",
            True,
        ),
        (
            'set -o noclobber\nprintf "user = a:b\\n" > /tmp/c.cfg\n'
            "curl -s -K /tmp/c.cfg https://a.example.com/",
            True,
        ),
    ],
)
def test_a_place_a_step_may_write_named_by_the_author(
    run: str, refused: bool, tmp_path: Path
) -> None:
    # a first step puts caller data in the run directory: its paths are places
    status, findings = check_steps([_FILLS_RUN_DIR, run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


#: A step that puts caller data in the run directory (a file of its own).
_FILLS_RUN_DIR = 'printf "%s\\n" "$ARG_path" > "$HARBOR_RUN_DIR/note.txt"'


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # what the program writes there itself (docker login's config.json)
        (
            'mkdir -p "$HARBOR_RUN_DIR/docker"\nprintf %s "$API_TOKEN" | docker --config '
            '"$HARBOR_RUN_DIR/docker" login -u ci --password-stdin reg.example.com',
            False,
        ),
        (
            'printf \'%s\' "$API_TOKEN" | HELM_REGISTRY_CONFIG="$HARBOR_RUN_DIR/registry.json" '
            "helm registry login charts.example.com --username ci --password-stdin",
            False,
        ),
        # the author's own text written there: a config the grammar cannot
        # read may print the secret (round fifteen's 038 and 040)
        (
            'mkdir -p "$HARBOR_RUN_DIR/cfg"\nprintf \'trace-ascii = "-"\\n\' > '
            '"$HARBOR_RUN_DIR/cfg/.curlrc"\nXDG_CONFIG_HOME="$HARBOR_RUN_DIR/cfg" curl -sS -u '
            '"ci:$API_TOKEN" -o "$HARBOR_RUN_DIR/p.json" https://api.example.com/ping',
            True,
        ),
        (
            "printf 'debug = on\\n' > \"$HARBOR_RUN_DIR/wgetrc\"\n"
            'WGETRC="$HARBOR_RUN_DIR/wgetrc" mytool --header "Authorization: Bearer $API_TOKEN"',
            True,
        ),
        (
            'cp /etc/team/curlrc "$HARBOR_RUN_DIR/c"\nmytool --config "$HARBOR_RUN_DIR/c" '
            '--token "$API_TOKEN"',
            True,
        ),
    ],
)
def test_a_run_directory_path_beside_a_secret(run: str, refused: bool, tmp_path: Path) -> None:
    """Beside a secret, an author's path of the run directory stays a place
    when a step writes text of the author's there, whatever the program."""
    status, findings = check_steps([run], tmp_path, args=_PATH, **_TOKEN)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    "run",
    [
        'git -c include.path="$HARBOR_RUN_DIR/shared.gitconfig" status',
        'f="$HARBOR_RUN_DIR/x"\ngit -c include.path="$f" status',
        'curl -K "$HARBOR_RUN_DIR/c" https://a.example.com/',
        'mytool --out "$HARBOR_RUN_DIR/r"',
        'mkdir -p "$HARBOR_RUN_DIR/docker"\ndocker --config "$HARBOR_RUN_DIR/docker" ps',
        'cfg="$HARBOR_RUN_DIR/azure"\nAZURE_CONFIG_DIR="$cfg" az group list',
        'export DOCKER_CONFIG="$HARBOR_RUN_DIR/docker"\ndocker ps',
        "printf 'path = t.gitconfig\\n' > \"$HARBOR_RUN_DIR/s.gitconfig\"\n"
        'git -c include.path="$HARBOR_RUN_DIR/s.gitconfig" status',
    ],
)
@pytest.mark.parametrize(
    ("filler", "refused"),
    [
        # no step puts caller data in the run directory: what is there is
        # the author's commands' own, read as the program reads it
        ("true", False),
        ('grep -c -- "$ARG_path" /etc/hosts || true', False),  # caller data, no file
        ("jq -n --arg p \"$ARG_path\" '$p'", False),
        # a step that may: whatever file it writes, the run directory is the caller's
        (_FILLS_RUN_DIR, True),
        ('cp -- "$ARG_path" "$HARBOR_RUN_DIR/other"', True),
        ('curl -fsS -o "$HARBOR_RUN_DIR/r.json" "https://a.example.com/$ARG_path"', True),
        ('mytool fetch "$ARG_path"', True),  # no grammar: it may write anywhere
        ('exec 3>"$HARBOR_RUN_DIR/log"\nprintf "%s\\n" "$ARG_path" >&3', True),
        ('printf "%s" "$ARG_path" > >(cat > "$HARBOR_RUN_DIR/o")', True),
        ('{ printf "%s" "$ARG_path"; } > "$HARBOR_RUN_DIR/o"', True),
        # or copies into it what is not the author's (a temporary folder,
        # the server's files of the run, a link to elsewhere)
        ('cp /tmp/shared.json "$HARBOR_RUN_DIR/o"', True),
        ('jq .args "$HARBOR_CONTEXT" > "$HARBOR_RUN_DIR/o"', True),
        ('cp "$HARBOR_RUN_DIR/inputs/a" "$HARBOR_RUN_DIR/o"', True),
        ('ln -s /dev/shm/x "$HARBOR_RUN_DIR/docker"', True),
        # or writes there the author's text that names such a place
        ("printf 'include /tmp/o.mk\\n' > \"$HARBOR_RUN_DIR/r.mk\"", True),
        ("cat > \"$HARBOR_RUN_DIR/c\" <<'EOF'\n[include]\npath = /dev/shm/c\nEOF", True),
        # a language's program may read what no word shows ($HARBOR_CONTEXT)
        (
            "python3 -c 'import os; e = os.environ; "
            'open(e["HARBOR_RUN_DIR"] + "/o", "w").write(open(e["HARBOR_CONTEXT"]).read())\'',
            True,
        ),
        ("python3 -c 'import os; print(os.environ[\"HARBOR_CONTEXT\"])' > /dev/null", False),
    ],
)
def test_the_run_directory_only_the_authors_commands_fill(
    run: str, filler: str, refused: bool, tmp_path: Path
) -> None:
    """A path of the run directory the author wrote is a place only when a
    step of the export may put caller data there: the run directory is the
    run's own, and what its steps wrote is the author's text unless one of
    them may have written the caller's."""
    status, findings = check_steps([filler, run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # the exception holds for a program with a grammar and no program text
        # only: a makefile or an awk program the step wrote may read any file
        (
            "printf 'include /tmp/o.mk\\nall:\\n\\t@true\\n' > \"$HARBOR_RUN_DIR/r.mk\"\n"
            'make -s -f "$HARBOR_RUN_DIR/r.mk" all',
            True,
        ),
        (
            "printf '%s\\n' 'BEGIN { while ((getline r < \"/tmp/x\") > 0) system(r) }'"
            ' > "$HARBOR_RUN_DIR/a.awk"\nawk -f "$HARBOR_RUN_DIR/a.awk"',
            True,
        ),
        # nor for a setting's file (git -c include.path=F): the settings the
        # step wrote may include any other file (round forty's 001), here
        # one of the run directory, which no step fills with caller data
        (
            "printf '[include]\\n\\tpath = t.gitconfig\\n' > \"$HARBOR_RUN_DIR/s.gitconfig\"\n"
            'git -c include.path="$HARBOR_RUN_DIR/s.gitconfig" status',
            False,
        ),
        (
            "printf '[include]\\n\\tpath = t.gitconfig\\n' > \"$HARBOR_RUN_DIR/s.gitconfig\"\n"
            'git -c include.path="$HARBOR_RUN_DIR/s.gitconfig" status\n'
            'printf "%s" "$ARG_path" > "$HARBOR_RUN_DIR/t.gitconfig"',
            True,
        ),
        # a folder of mktemp, which this step may fill
        ('cfg=$(mktemp -d)\ncp /etc/hosts "$cfg/x"\nXDG_CONFIG_HOME="$cfg" git status', True),
        ('cfg=$(mktemp -d)\ngit -c include.path="$cfg/c" status', True),
        # a `..` after a link lands where the link does
        ("GIT_CONFIG_GLOBAL=/dev/fd/../root/dev/shm/c git status", True),
        ("GIT_CONFIG_GLOBAL=/etc/../etc/gitconfig git status", False),
        # fc runs a history line, which history -r fills from any file
        ('HISTFILE="$HARBOR_RUN_DIR/h"\nset -o history\nhistory -r\nfc -s', True),
        ("fc -l", False),
        # node: an escape spells any name
        ("node -e 'console.log(\\u0065val(process.argv[1]))' \"$ARG_path\"", True),
        ("node -e 'console.log(process.argv[1].length)' \"$ARG_path\"", False),
    ],
)
def test_round_forty(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


def test_a_step_working_in_a_place_a_step_may_write(tmp_path: Path) -> None:
    """``cwd: /dev/shm/app``: python3 imports what is there (round forty's 015)."""
    report = check_documents(
        [
            {
                "name": "t",
                "description": "cwd",
                "steps": [{"name": "s", "cwd": "/dev/shm/app", "run": "python3 -c 'import json'"}],
            }
        ],
        tmp_path,
    )
    assert report.status == "refused", report.findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # what a descriptor holds open: a redirection may give it any file
        ('git -c include.path=/dev/stdin status < "$HARBOR_RUN_DIR/x"', True),
        ('GIT_CONFIG_GLOBAL=/dev/fd/3 git status 3< "$HARBOR_RUN_DIR/x"', True),
        ("exec 5< /dev/shm/app\nGIT_CONFIG_GLOBAL=/dev/fd/5/c git status", True),
        # a path whose start a command prints
        ('d=$(date +/dev/shm/app)\nGIT_CONFIG_GLOBAL="$d/c" git status', True),
        ('git -c include.path="$(printf /dev/shm/app)/c" status', True),
        # a computed part after the author's root is the author's folder's
        ('jq . "/etc/app/$(date +%Y).json"', False),
        # date's ISO formats
        ('start=$(date -u -d "-{{ args.n }} hours" +%Y-%m-%dT%H:%M:%SZ)\necho "$start"', False),
    ],
)
def test_round_forty_one(run: str, refused: bool, tmp_path: Path) -> None:
    args = {**_PATH, "n": {"type": "integer", "minimum": 1, "maximum": 9, "default": 1}}
    status, findings = check_steps([run], tmp_path, args=args)
    assert (status == "refused") == refused, findings


def test_a_secret_read_from_a_place_a_step_may_write(tmp_path: Path) -> None:
    report = check_documents(
        [
            {
                "name": "t",
                "description": "secret file",
                "secrets": {"HOOK": {"file": "/dev/shm/app/hook", "programs": ["git"]}},
                "steps": [{"name": "s", "run": 'git -c core.fsmonitor="$HOOK" status'}],
            }
        ],
        tmp_path,
    )
    assert report.status == "refused", report.findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # stdout reopened for reading
        ('GIT_CONFIG_GLOBAL=/dev/stdout git status 1< "$HARBOR_RUN_DIR/x"', True),
        ("jq -n 1 > /dev/stdout", False),
        # a place bash builds: a glob, a case change, an array's element
        ('cfgs=(/dev/s[h]m/app/*.c)\ngit -c include.path="${cfgs[0]}" status', True),
        ('d=/DEV/SHM/APP\ngit -c include.path="${d,,}/c" status', True),
        ("GIT_CONFIG_GLOBAL=/etc/git/*.conf git status", False),
        # --config-env makes a variable a setting
        (
            'GIT_AUTHOR_NAME="$ARG_path" git --config-env=core.fsmonitor=GIT_AUTHOR_NAME status',
            True,
        ),
        ('GIT_AUTHOR_NAME="$ARG_path" git --config-env=user.name=GIT_AUTHOR_NAME status', False),
    ],
)
def test_round_forty_two(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a path that starts with a name read (round forty-three's 004)
        ("IFS=: read -r _ d <<< 'root:/dev/shm/app'\nGIT_CONFIG_GLOBAL=\"$d/c\" git status", True),
        ("IFS=: read -r _ d <<< 'root:/dev/shm/app'\ngit -c include.path=\"$d/c\" status", True),
        # a name read, not a path
        ("read -r n <<< 'main'\ngit log -n 1 \"$n\" --", False),
    ],
)
def test_round_forty_three(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ("python3 - <<'PY'\nimport json\nprint(json.dumps(1))\nPY", True),
        ("python3 -c 'import json; print(json.dumps(1))'", True),
        # -I and -P put no folder of python's own on sys.path (python(1) 3.11)
        ("python3 -I - <<'PY'\nimport json\nprint(json.dumps(1))\nPY", False),
        ("python3 -P -c 'import json; print(json.dumps(1))'", False),
        ("python3 -IB -c 'import json; print(json.dumps(1))'", False),
        ("python3 -c 'import json' -I", True),  # after the program: its argument
        ("python3 -m pytest -I -q", True),  # pytest loads conftest.py from the folder
        # round forty-seven's 012: a module imports from folders of its own
        ("python3 -I -m unittest discover -s tests", True),
    ],
)
def test_python_isolated_from_a_written_working_folder(
    run: str, refused: bool, tmp_path: Path
) -> None:
    """A step puts caller data in the working folder: python imports from
    it unless -I or -P keeps the folder off sys.path."""
    status, findings = check_steps(
        ['printf "%s\\n" "$ARG_path" > notes.txt', run], tmp_path, args=_PATH
    )
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    "fills",
    [
        # round forty-five's 004: exec through `command`, and in eval's text
        'command exec >>"$HARBOR_RUN_DIR/r.mk"\nprintf "X := %s\\n" "$ARG_path"',
        'eval \'exec >>"$HARBOR_RUN_DIR/r.mk"\'\nprintf "X := %s\\n" "$ARG_path"',
        'builtin exec 3>>"$HARBOR_RUN_DIR/r.mk"\nprintf "X := %s\\n" "$ARG_path" >&3',
    ],
)
def test_exec_in_any_spelling_fills_the_run_directory(fills: str, tmp_path: Path) -> None:
    status, findings = check_steps(
        [fills, 'make -s -f "$HARBOR_RUN_DIR/r.mk" all'], tmp_path, args=_PATH
    )
    assert status == "refused", findings


@pytest.mark.parametrize(
    ("ps4", "refused"),
    [
        ("PS4='+ ${LINENO}: '", False),
        ("# é, ü: the trace's prompt\nPS4='+ ${LINENO}: '", False),  # offsets in bytes
        ("PS4='+ \\044{a[ARG_path]} '", True),  # round forty-five's 011: a prompt escape
        ("PS4='+ \\t '", True),
        ("PS4=$'+ \\x24{a[ARG_path]} '", True),
        ('PS4="+ \\${a[ARG_path]} "', True),
    ],
)
def test_ps4_is_read_as_bash_reads_a_prompt(ps4: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps(
        [f'a=(x y)\n{ps4}\nset -x\nprintf "%s\\n" "$ARG_path"'], tmp_path, args=_PATH
    )
    assert (status == "refused") == refused, findings


def test_a_file_of_a_working_folder_another_export_writes(tmp_path: Path) -> None:
    """Round forty-five's 006: copied from a working folder another export
    fills with the caller's file, a file of the run directory is the
    caller's too: the writer is refused beside such a reader (the exports
    share the folder, `Checker.ambient_findings`)."""
    writer = {
        "name": "save",
        "description": "save",
        "args": {"f": {"type": "string", "contentEncoding": "base64"}},
        "steps": [{"name": "s", "run": 'mkdir -p deploy\ncp -- "$ARG_f" deploy/x.cfg'}],
    }
    reader = {
        "name": "use",
        "description": "use",
        "steps": [
            {
                "name": "s",
                "run": 'mkdir -p "$HARBOR_RUN_DIR/c"\n'
                'cp deploy/x.cfg "$HARBOR_RUN_DIR/c/config.json"\n'
                'docker --config "$HARBOR_RUN_DIR/c" ps',
            }
        ],
    }
    assert check_documents([reader], tmp_path, 0).status == "accepted"
    assert check_documents([writer], tmp_path, 1).status == "accepted"
    assert check_documents([writer, reader], tmp_path, 2).status == "refused"


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round forty-six's 011 and 012: under OAuth the principal, the tenant
        # and the groups are an identity provider's claims
        ('sed -e "s|@OWNER@|$HARBOR_CALLER_PRINCIPAL|g" /etc/hosts', True),
        ("awk 'BEGIN { t = \"'\"$HARBOR_CALLER_TENANT\"'\" }'", True),
        ('printf "for %s\\n" "$HARBOR_CALLER_PRINCIPAL"', False),
        ('grep -c -F -e "$HARBOR_CALLER_GROUPS" /etc/group || true', False),
    ],
)
def test_a_claimed_identity_is_a_callers_text(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("sql", "refused"),
    [
        ("select count(*) from orders where status = :'t';", False),
        # round forty-six's 007: SQL's own ways to run a text, in any case
        ("select query_to_xml(format('select count(*) from %s', :'t'), false, true, '');", True),
        ("COPY (select 1) TO PROGRAM :'t';", True),
        ("select * from ts_stat(:'t');", True),
        (
            "select set_config('x.t', :'t', false);\nDO $$ BEGIN EXECUTE current_setting('x.t'); "
            "END $$;",
            True,
        ),
        ("select dblink_exec('dbname=app', :'t');", True),
    ],
)
def test_sql_that_runs_a_text(sql: str, refused: bool, tmp_path: Path) -> None:
    run = f"psql -X -v t=\"$ARG_path\" <<'SQL'\n{sql}\nSQL"
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    "dump",
    [
        # round forty-seven's 007: variables printed by name, not expanded
        'declare -p ARG_path > "$HARBOR_RUN_DIR/vars.env"',
        'typeset -p ARG_path > "$HARBOR_RUN_DIR/vars.env"',
        'set > "$HARBOR_RUN_DIR/vars.env"',
        'printenv > "$HARBOR_RUN_DIR/vars.env"',
    ],
)
def test_variables_printed_by_name_fill_the_run_directory(dump: str, tmp_path: Path) -> None:
    status, findings = check_steps(
        [dump, 'mytool --env "$HARBOR_RUN_DIR/vars.env"'], tmp_path, args=_PATH
    )
    assert status == "refused", findings


@pytest.mark.parametrize(
    ("form", "refused"),
    [
        ('-F "date=$ARG_day"', False),  # digits and -: never @, < or ;
        ('-F "note=$ARG_path"', False),  # the path pattern starts with a letter or digit
        ('-F "note=$ARG_free"', True),  # may start with @ (a file sent) or hold ;headers=@F
        ('-F "$ARG_day"', True),  # the caller's name too
    ],
)
def test_curl_form_text_after_the_authors_name(form: str, refused: bool, tmp_path: Path) -> None:
    args = {
        **_PATH,
        "day": {"type": "string", "pattern": "^20[0-9]{2}-[0-9]{2}-[0-9]{2}$"},
        "free": {"type": "string", "maxLength": 50},
    }
    status, findings = check_steps(
        [f"curl -fsS {form} https://a.example.com/upload"], tmp_path, args=args
    )
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("module", "refused"),
    [("array", False), ("wave", False), ("pickle", True)],
)
def test_python_modules_that_run_nothing_they_read(
    module: str, refused: bool, tmp_path: Path
) -> None:
    run = f"python3 -I - \"$ARG_path\" <<'PY'\nimport sys, {module}\nprint(sys.argv[1])\nPY"
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round forty-eight's 010: a passed credential sent to the caller's host
        ('curl -fsS -u "ci:$NEXUS_TOKEN" "http://$ARG_path/status"', True),
        ('PGPASSWORD="$NEXUS_TOKEN" psql -X -h "$ARG_path" -c "select 1"', True),
        ('printf "%s\\n" "$NEXUS_TOKEN"', False),  # not given where a credential goes
        ('curl -fsS -u "ci:$NEXUS_TOKEN" "https://nexus.example.com/$ARG_path"', False),
    ],
)
def test_a_passed_credential_is_held_as_a_secret(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH, pass_env=["NEXUS_TOKEN"])
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round forty-seven's 011: a folder no run owns, every export reads
        ('printf "%s\\n" "$ARG_path" > /srv/app/drafts/d.mk', True),
        ('cp -- "$ARG_path" /srv/app/drafts/', True),
        ('printf "%s\\n" "$ARG_path" | tee -a /var/lib/app/notes.txt', True),
        # the run directory, a temporary folder, the author's text only
        ('printf "%s\\n" "$ARG_path" > "$HARBOR_RUN_DIR/d.txt"', False),
        ('printf "%s\\n" "$ARG_path" > /tmp/d.txt', False),
        ("printf 'ready\\n' > /srv/app/state", False),
        ('grep -c -- "$ARG_path" /var/log/app.log > /dev/null || true', False),
        # a program's own way to write a file there (its grammar's output options)
        ('curl -fsS -o /srv/app/drafts/d.mk "https://example.com/$ARG_path"', True),
        ('curl -fsS --output=/srv/app/drafts/d.mk "https://example.com/$ARG_path"', True),
        ('printf "%s\\n" "$ARG_path" | sort -o /srv/app/list.txt', True),
        ('curl -fsS -o "$HARBOR_RUN_DIR/d" "https://example.com/$ARG_path"', False),
        ('curl -fsS --cacert /srv/app/ca.pem "https://example.com/$ARG_path"', False),
    ],
)
def test_caller_data_written_to_a_folder_no_run_owns(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("sql", "refused"),
    [
        # round forty-nine's 005: the rows another export filled, run as SQL
        ("select format('REINDEX TABLE %s', tbl) from maint_queue \\gexec", True),
        ("DO $$ BEGIN EXECUTE (select cmd from q limit 1); END $$;", True),
        ("select count(*) from maint_queue where not done;", False),
    ],
)
def test_sql_that_runs_the_rows_of_a_query(sql: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([f"psql -X -q <<'SQL'\n{sql}\nSQL"], tmp_path)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty's 003: git's error message quotes the caller's word
        ('d=$(git describe --tags "$ARG_path" 2>&1) || true\nsed "s|X|$d|" /etc/hosts', True),
        ('d=$(git describe --tags "$ARG_path")\nsed "s|X|$d|" /etc/hosts', False),
        # round fifty's 006 and 007: the environment read by a name the data picks
        ("awk -v n=\"$ARG_path\" 'BEGIN { print ENVIRON[n] }'", True),
        ('awk -v n="$ARG_path" \'BEGIN { print ENVIRON["HOME"], n }\'', False),
        ("jq -n --arg k \"$ARG_path\" '$ENV[$k]'", True),
        ('jq -n --arg k "$ARG_path" \'{path: $k, home: $ENV.HOME, env: "x"}\'', False),
    ],
)
def test_round_fifty(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


_CODE = {"code": {"type": "string", "pattern": "^[A-Z0-9]{4,12}$"}}
_ANY_TEXT = {"code": {"type": "string", "pattern": "^[^\\n]{1,40}$"}}


@pytest.mark.parametrize(
    ("run", "args", "refused"),
    [
        # inside an SQL string that no value can end: data (the safe sets'
        # promo code, a date between two quotes, a checked table name)
        (
            "sqlite3 -readonly db.sqlite \"select * from promo where code = '$ARG_code';\"",
            _CODE,
            False,
        ),
        ('sqlite3 -readonly db.sqlite "select count(*) from \\"$ARG_code\\";"', _CODE, False),
        ("psql -X -c \"select * from promo where code = '$ARG_code'\"", _CODE, False),
        ("mysql -B -e \"select * from promo where code = '$ARG_code'\"", _CODE, False),
        ("sqlite3 -readonly db.sqlite \"select 1 where '{{ args.code }}' > '';\"", _CODE, False),
        ("sqlite3 -readonly db.sqlite \"select 1 where '{{ args.code }}' > '';\"", _ANY_TEXT, True),
        # a value that may hold the quote, outside the quotes, or unquoted
        # in the shell (it may split or glob)
        (
            "sqlite3 -readonly db.sqlite \"select * from promo where code = '$ARG_code';\"",
            _ANY_TEXT,
            True,
        ),
        ('sqlite3 -readonly db.sqlite "select * from promo where code = $ARG_code;"', _CODE, True),
        ("sqlite3 -readonly db.sqlite select\\ \\'$ARG_code\\'", _CODE, True),
        ('psql -X -c "select * from promo where code = $ARG_code"', _CODE, True),
        # the program's text runs or reads files, or is not the author's alone
        ("sqlite3 -readonly db.sqlite \"select readfile('$ARG_code');\"", _CODE, True),
        ("sqlite3 -readonly db.sqlite \".shell echo '$ARG_code'\"", _CODE, True),
        ("sqlite3 -readonly db.sqlite 'select 1;' \".once '$ARG_code'\"", _CODE, True),
        ("sqlite3 -cmd '.shell id' -readonly db.sqlite \"select '$ARG_code';\"", _CODE, True),
        ('s="select \'"\nsqlite3 -readonly db.sqlite "$s$ARG_code\';"', _CODE, True),
        ("psql -X -c \"select E'\\\\\\\\' || '$ARG_code'\"", _CODE, True),
        ("sqlite3 -readonly \"$ARG_code\" 'select 1;'", _CODE, True),
        # a database it may write: caller data in the working folder, where
        # make reads its Makefile
        ("sqlite3 db.sqlite \"insert into t values('$ARG_code');\"\nmake report", _CODE, True),
        ("sqlite3 -readonly db.sqlite \"select '$ARG_code';\"\nmake report", _CODE, False),
    ],
)
def test_caller_data_inside_a_quoted_literal_of_sql(
    run: str, args: dict[str, object], refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([run], tmp_path, args=args)
    assert (status == "refused") == refused, findings


_PG = {"secrets": {"DB_PASSWORD": {"env": "DB_PASSWORD"}}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a password file the script wrote in full, then names to libpq
        (
            "umask 077\n"
            'printf \'db:5432:app:rep:%s\\n\' "$DB_PASSWORD" > "$HARBOR_RUN_DIR/pgpass"\n'
            'PGPASSFILE="$HARBOR_RUN_DIR/pgpass" psql -X -h db -U rep -d app -v c="$ARG_code" '
            "<<'SQL'\nselect * from t where code = :'c';\nSQL",
            False,
        ),
        # ...or with caller data in it, or one the script did not write
        (
            'printf \'db:5432:app:%s:%s\\n\' "$ARG_code" "$DB_PASSWORD" '
            '> "$HARBOR_RUN_DIR/pgpass"\n'
            'PGPASSFILE="$HARBOR_RUN_DIR/pgpass" psql -X -h db -U rep -d app -c "select 1"',
            True,
        ),
        (
            'printf \'db:5432:app:rep:%s\\n\' "$DB_PASSWORD" > "$HARBOR_RUN_DIR/pgpass"\n'
            'printf "%s\\n" "$ARG_code" >> "$HARBOR_RUN_DIR/pgpass"\n'
            'PGPASSFILE="$HARBOR_RUN_DIR/pgpass" psql -X -h db -U rep -d app -c "select 1"',
            True,
        ),
        # mysql's option file, written in full by the script
        (
            'cnf="$HARBOR_RUN_DIR/my.cnf"\n'
            'printf \'[client]\\nuser=rep\\npassword=%s\\nhost=db\\n\' "$DB_PASSWORD" > "$cnf"\n'
            'mysql --defaults-extra-file="$cnf" --batch -e "select 1"',
            False,
        ),
        (
            'cnf="$HARBOR_RUN_DIR/my.cnf"\n'
            'printf \'[client]\\nuser=rep\\npassword=%s\\n\' "$DB_PASSWORD" > "$cnf"\n'
            'mysql --defaults-extra-file="$cnf" --print-defaults',
            True,
        ),
    ],
)
def test_a_credential_file_the_script_wrote(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_CODE, **_PG)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("pass_env", "refused"),
    [
        # smallstep's own STEP_CA_URL, passed from the server, beside no step named CA
        (["STEP_CA_URL"], False),
        # not passed: nothing says whose it is
        ([], True),
    ],
)
def test_a_passed_step_variable_is_the_servers(
    pass_env: list[str], refused: bool, tmp_path: Path
) -> None:
    run = 'step ca health --ca-url "$STEP_CA_URL" --root /etc/step/root_ca.crt'
    status, findings = check_steps([run], tmp_path, pass_env=pass_env)
    assert (status == "refused") == refused, findings


_LINE = {"line": {"type": "string", "maxLength": 200}}


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        # round fifty-one's 003 and 004: the caller's format template walks
        # attributes (r._make.__globals__…) to os.environ
        ("import sys\nprint(sys.argv[1].format(r=sys))", True),
        ("import sys\nt = sys.argv[1]\nprint(t.format_map({'a': 1}))", True),
        ("import sys\nprint('{}: {}'.format('line', sys.argv[1]))", False),
        ("import sys\nT = '{0} of {1}'\nprint(T.format(sys.argv[1], 2))", False),
        # round fifty-one's 009: the environment read by a name the data picks
        ("import os, sys\nprint(os.environ.get(sys.argv[1], ''))", True),
        ("import os, sys\nprint(os.environ[sys.argv[1]])", True),
        ("from os import getenv\nimport sys\nprint(getenv(sys.argv[1]))", True),
        (
            "import os, string, sys\nprint(string.Template(sys.argv[1]).substitute(os.environ))",
            True,
        ),
        (
            "import os, sys\nprint(sys.argv[1], os.environ.get('HOME', ''), os.getenv('USER'))",
            False,
        ),
        ("import os, sys\nprint(sys.argv[1], os.environ['HARBOR_RUN_DIR'])", False),
        # round fifty-one's safe 048: a class's name is a string
        (
            "import sys\ntry:\n    open(sys.argv[1])\nexcept OSError as e:\n"
            "    print(e.__class__.__name__)",
            False,
        ),
        ("import sys\nprint(sys.argv[1], sys.__class__)", True),
    ],
)
def test_python_templates_and_the_environment_by_name(
    program: str, refused: bool, tmp_path: Path
) -> None:
    run = f"python3 -I - \"$ARG_line\" <<'PY'\n{program}\nPY"
    status, findings = check_steps([run], tmp_path, args=_LINE)
    assert (status == "refused") == refused, findings


_WORD = {"n": {"type": "string", "maxLength": 20}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a guard in the then-body does not hold in the else-body (a miss
        # the review of round fifty-one found: it ran `a[$(cmd)]`)
        (
            "if [ -f x ]; then\n  [[ $ARG_n =~ ^[0-9]+$ ]] || exit 1\n"
            "else\n  echo $(( ARG_n + 1 ))\nfi",
            True,
        ),
        # a name bash's arithmetic assigned just before holds a number
        # (round nineteen's safe 077), whatever else assigns it elsewhere
        ('c=$(( ${#ARG_n} * 2 ))\necho $(( c + 1 ))\nread -r c _ <<< "$ARG_n"\necho "$c"', False),
        ('read -r c <<< "$ARG_n"\nif [ -f x ]; then c=$(( 2 )); echo $(( c + 1 )); fi', False),
        # ...but not in the else-body, after a read, in a loop's earlier
        # statement, after a function that may assign it, or its own value
        ('read -r c <<< "$ARG_n"\nif [ -f x ]; then c=$(( 2 )); else echo $(( c + 1 )); fi', True),
        ('c=$(( 2 ))\nread -r c <<< "$ARG_n"\necho $(( c + 1 ))', True),
        ('read -r c <<< "$ARG_n"\nfor i in 1 2; do echo $(( c + 1 )); c=$(( i )); done', True),
        ('read -r c <<< "$ARG_n"\nf() { c="$ARG_n"; }\nc=$(( 3 ))\nf\necho $(( c + 1 ))', True),
        ('read -r c <<< "$ARG_n"\nc=$(( c + 1 ))', True),
    ],
)
def test_arithmetic_results_and_guards_by_block(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_WORD)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("writer", "refused"),
    [
        # queries that print what a service holds write no file in the
        # working folder, so a program run there after them reads the author's
        ('gh api "repos/acme/app/branches/$ARG_path/protection"', False),
        ('virsh domblklist --details "$ARG_path"', False),
        ('aws sqs get-queue-attributes --queue-url "$ARG_path" --output json', False),
        # ...but one that writes where its words say does
        ('aws s3api get-object --bucket b --key k "$ARG_path"', True),
        ('gh api --cache 1h "repos/acme/app/branches/$ARG_path"', True),
    ],
)
def test_queries_that_write_no_file(writer: str, refused: bool, tmp_path: Path) -> None:
    run = f"{writer} > /dev/null || true\nmake report"
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round thirty-nine's safe 118: one line of lines that are numbers
        ('o=$(stat -c %Y -- "$ARG_path"/*.hl7 | sort -n | head -n 1)\necho $(( o + 1 ))', False),
        ('o=$(stat --format=%s -- "$ARG_path" | tail -1)\necho $(( o * 2 ))', False),
        # a name printed too, no `--` (a name may be an option), or every line
        ('o=$(stat -c "%Y %n" -- "$ARG_path"/* | sort -n | head -n 1)\necho $(( o + 1 ))', True),
        ('o=$(stat -c %Y "$ARG_path" | sort -n | head -n 1)\necho $(( o + 1 ))', True),
        ('o=$(stat -c %Y -- "$ARG_path"/* | sort -n)\necho $(( o + 1 ))', True),
        ('o=$(cat "$ARG_path" | sort -n | head -n 1)\necho $(( o + 1 ))', True),
    ],
)
def test_one_line_of_numbers(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


_FILE = {"file": {"type": "string", "pattern": "^[A-Za-z0-9._]{1,64}$"}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-two's 001 and 002: a literal given to the server's file functions
        ("psql -X -At -c \"select pg_read_file('log/$ARG_file')\"", True),
        ("psql -X -At -c \"copy preview from '/var/tmp/$ARG_file'\"", True),
        ('psql -X -At -v f="$ARG_file" -c "select pg_read_binary_file(:\'f\')"', True),
        ("mysql -B -e \"select load_file('/var/tmp/$ARG_file')\"", True),
        ("psql -X -At -c \"select count(*) from uploads where name = '$ARG_file'\"", False),
    ],
)
def test_sql_that_reads_a_file_of_the_servers(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_FILE)
    assert (status == "refused") == refused, findings


_PW = {"secrets": {"DB_PASSWORD": {"env": "DB_PASSWORD"}}}
_PGPASS = (
    'umask 077\nmkdir -p "$HARBOR_RUN_DIR/pg" "$HARBOR_RUN_DIR/out"\n'
    'printf \'db:5432:app:app:%s\\n\' "$DB_PASSWORD" > "$HARBOR_RUN_DIR/pg/pgpass"\n'
)


@pytest.mark.parametrize(
    ("bundle", "refused"),
    [
        # round fifty-two's 003 and 004: `..` alone climbs to the run directory
        ('tar -czf - -C "$HARBOR_RUN_DIR/out" -- "$ARG_file" | base64 -w0', True),
        ('cd "$HARBOR_RUN_DIR/out"\nzip -q -r - -- "$ARG_file" | base64 -w0', True),
        # a name that cannot start with `.`
        ('tar -czf - -C "$HARBOR_RUN_DIR/out" -- "r-$ARG_file" | base64 -w0', False),
    ],
)
def test_a_name_that_may_be_dot_dot_beside_a_secret_file(
    bundle: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([_PGPASS + bundle], tmp_path, args=_FILE, **_PW)
    assert (status == "refused") == refused, findings


_DAY = {
    "day": {"type": "string", "pattern": "^20[0-9]{2}-[0-9]{2}-[0-9]{2}$"},
    "n": {"type": "integer", "minimum": 1, "maximum": 100},
    "m": {"type": "integer", "minimum": -5, "maximum": 100},
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-two's safe 013, 034, 062, 094: the database in a name set
        # once, a number beside the literal
        (
            'db=ski/passes.db\nsqlite3 -readonly "$db" "select * from s where d = \'$ARG_day\';"'
            "\nmake report",
            False,
        ),
        ("sqlite3 -readonly s.db \"select * from s where d = '$ARG_day' limit $ARG_n;\"", False),
        # a number that may be negative stands outside the literal: not inert
        ("sqlite3 -readonly s.db \"select 1-$ARG_m where '$ARG_day' > '';\"", True),
        # a database name set twice is not known
        (
            'db=a.db\n[ -f b.db ] && db=b.db\nsqlite3 -readonly "$db" "select \'$ARG_day\';"'
            "\nmake report",
            True,
        ),
    ],
)
def test_sql_literals_beside_numbers_and_names_set_once(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([run], tmp_path, args=_DAY)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-two's safe 006: bash reprints the stage after a
        # here-document's body; tree-sitter reads it back where it was
        ("psql -X -v d=\"$ARG_day\" <<'SQL' | column -t -s ','\nselect :'d';\nSQL", False),
        ("psql -X -v d=\"$ARG_day\" <<'SQL' | sed \"s/x/$ARG_day/e\"\nselect :'d';\nSQL", True),
    ],
)
def test_a_pipeline_after_a_here_document(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_DAY)
    assert (status == "refused") == refused, findings


_VAR = {"var": {"type": "string", "pattern": "^[A-Z_][A-Z0-9_]{0,40}$"}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-three's 004-006: the environment by a name the data picks
        (
            "python3 -I -c 'import os, sys; print(os.path.expandvars(sys.argv[1]))' \"$ARG_var\"",
            True,
        ),
        ("node -e 'const k = process.argv[1]; console.log(process.env[k])' \"$ARG_var\"", True),
        ("node -e 'console.log(Object.keys(process.env), process.argv[1])' \"$ARG_var\"", True),
        ("perl -e 'my $k = shift; print $ENV{$k}' -- \"$ARG_var\"", True),
        ("perl -e 'print join q(,), keys %ENV, @ARGV' -- \"$ARG_var\"", True),
        # a literal name is the author's
        (
            "python3 -I -c 'import os, sys; print(os.path.expandvars(\"$HOME\"), sys.argv[1])' "
            '"$ARG_var"',
            False,
        ),
        ("node -e 'console.log(process.env.HOME, process.argv[1])' \"$ARG_var\"", False),
        ("perl -e 'print $ENV{HOME}, shift' -- \"$ARG_var\"", False),
    ],
)
def test_the_environment_by_a_computed_name_in_node_perl_and_python(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([run], tmp_path, args=_VAR)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-three's 014-016: a program's own way to write there
        ('tar -xzf "$ARG_path" -C /srv/app/templates', True),
        ('tar -xzf "$ARG_path" --directory=/srv/app/templates', True),
        ("sed -n -e '/^[A-Z]/w /srv/app/env/staging.env' \"$ARG_path\"", True),
        ('awk \'{ print > "/srv/app/inventory/hosts.sh" }\' "$ARG_path"', True),
        # into the run directory, or reading from the folder
        ('tar -xzf "$ARG_path" -C "$HARBOR_RUN_DIR/x"', False),
        ('tar -czf "$HARBOR_RUN_DIR/x.tgz" -C /srv/app/templates -- "$ARG_path"', False),
        ("sed -n -e '/^[A-Z]/p' \"$ARG_path\"", False),
        ('awk \'{ print > "/dev/stderr" }\' "$ARG_path"', False),
    ],
)
def test_writers_into_a_folder_no_run_owns_by_their_own_means(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("archive", "refused"),
    [
        # one of the author's archives, which the caller only chooses among
        ('"/srv/releases/$ARG_code.tgz"', False),
        # the caller's archive, or a name that may climb out of the folder
        ('"$HARBOR_RUN_DIR/inputs/$ARG_code.tgz"', True),
        ('"/srv/releases/$ARG_path.tgz"', True),
    ],
)
def test_an_authors_archive_extracted_into_a_folder_no_run_owns(
    archive: str, refused: bool, tmp_path: Path
) -> None:
    run = f"mkdir -p /srv/stage\ntar -xzf {archive} -C /srv/stage"
    status, findings = check_steps([run], tmp_path, args={**_CODE, **_PATH})
    assert (status == "refused") == refused, findings


_TOP = {
    "top": {"type": "integer", "minimum": 1, "maximum": 50},
    "w": {"type": "string", "pattern": "^[a-z]{1,20}$"},
}
_STOCK = (
    "declare -A stock=()\n"
    "while IFS=, read -r sku kg; do stock[$sku]=$kg; done < <(sed 1d inv.csv)\n"
    'read -r sku <<< "$ARG_w"\n'
)


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-three's safe 013 and 074: uniq -c's counts through
        # head -n of a caller's number; a map's value or the author's default
        (
            "while read -r n pair; do echo $(( n + 1 )); done < "
            '<(grep -F -- "$ARG_w" x | sort | uniq -c | sort -rn | head -n {{ args.top }})',
            False,
        ),
        (
            "while read -r n pair; do echo $(( n + 1 )); done < "
            '<(grep -F -- "$ARG_w" x | uniq -c | head -n "$ARG_top")',
            False,
        ),
        (_STOCK + "have=${stock[$sku]:-0}\necho $(( have + 1 ))", False),
        # a default of the caller's; lines that do not start with a count
        (_STOCK + "have=${stock[$sku]:-$sku}\necho $(( have + 1 ))", True),
        (
            "while read -r n pair; do echo $(( n + 1 )); done < "
            '<(grep -F -- "$ARG_w" x | head -n "$ARG_top")',
            True,
        ),
    ],
)
def test_counts_through_head_and_a_maps_default(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_TOP)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-four's 009: envsubst with no operand, on the caller's text
        ("printf '%s\\n' \"$ARG_path\" | envsubst", True),
        ("printf '%s\\n' \"$ARG_path\" | envsubst '$GREETING $SITE'", False),
        # 014 and 015: an operand that is written, rsync's destination
        ('uniq "$ARG_path" /srv/app/release.env', True),
        ('rsync --checksum "$ARG_path" /srv/app/release.env', True),
        ('uniq "$ARG_path" "$HARBOR_RUN_DIR/release.env"', False),
    ],
)
def test_round_fifty_four(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_PATH)
    assert (status == "refused") == refused, findings


_RO = {"pass_env": ["PG_RO_PASSWORD"]}
_PGPASS_RO = (
    "umask 077\nprintf '127.0.0.1:5432:app:app:%s\\n' \"$PG_RO_PASSWORD\" "
    '> "$HARBOR_RUN_DIR/pgpass"\n'
    'PGPASSFILE="$HARBOR_RUN_DIR/pgpass" psql -h 127.0.0.1 -U app -d app -Atc "select 1"\n'
)


@pytest.mark.parametrize(
    ("after", "refused"),
    [
        # round fifty-four's 016 and 017: the caller's archive may hold a link
        # to the credential file the script wrote beside it
        (
            'mkdir "$HARBOR_RUN_DIR/b"\ntar -xzf "$ARG_path" -C "$HARBOR_RUN_DIR/b"\n'
            'head -n 5 "$HARBOR_RUN_DIR/b/summary.txt"',
            True,
        ),
        # no link may be there: no archive, no ln
        (
            'printf "ok\\n" > "$HARBOR_RUN_DIR/summary.txt"\n'
            'head -n 5 "$HARBOR_RUN_DIR/summary.txt"',
            False,
        ),
    ],
)
def test_a_link_in_the_callers_archive_to_a_credential_file(
    after: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([_PGPASS_RO + after], tmp_path, args=_PATH, **_RO)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # round fifty-four's safe 008 and 068: a for loop's literal word
        # inside an SQL literal beside the caller's value
        (
            "for t in T-07 T-12; do\n  sqlite3 -readonly p.db \"select * from a where tech = '$t' "
            "and day like '$ARG_code-%'\"\ndone",
            False,
        ),
        # a word of the loop that would end the literal, a name set twice
        (
            'for t in T-07 "x\' or \'1"; do\n  sqlite3 -readonly p.db "select * from a where '
            "tech = '$t' and day like '$ARG_code-%'\"\ndone",
            True,
        ),
        (
            "t=a\n[ -f x ] && t=b\nsqlite3 -readonly p.db \"select * from a where tech = '$t' "
            "and day like '$ARG_code-%'\"",
            True,
        ),
        # rm writes no file: a program after it reads the author's folder
        ('rm -f -- "$HARBOR_RUN_DIR/$ARG_code.csv"\nmake report', False),
    ],
)
def test_the_authors_words_inside_a_literal_and_rm(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_CODE)
    assert (status == "refused") == refused, findings
