r"""Precision readings added from the safe sets' refusals (issue 34), each
with fixtures on both sides.

- What git prints of the repository with ``blame``, ``grep``, ``diff``,
  ``cherry`` (and the other read-only comparers) is the author's, as
  ``log``'s is; not with ``--no-index`` (files anywhere) or ``--contents``
  (standard input), nor once a step writes the repository.
- ``jq -c '{…}'`` (one object or array constructor) prints texts that start
  with ``{`` (``[``): never ``file://``, never ``-``.
- A ``find … -print0`` record starts with its starting point, whole: an
  ffprobe input that cannot name a protocol.
- A compressor that lists, tests or prints (``zstd -l``, ``gzip -t``, ``xz
  -c``) writes no file; one that compresses does.
- Grammars: kdig, ausearch, getenforce, sestatus, msgfmt, zstd, ffprobe,
  ldapsearch, git cherry; their code positions stay the author's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check._harness import check_steps

_ARGS = {
    "x": {"type": "string"},
    "name": {"type": "string", "pattern": "^[a-z][a-z0-9.-]*$"},
    "marker": {"type": "string", "enum": ["TODO", "FIXME"]},
    "n": {"type": "integer", "minimum": 1, "maximum": 90},
    "url": {"type": "string", "pattern": "^[a-z][a-z0-9:/.-]*$"},
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ("v=$(git grep -c TODO -- README); echo $((v + 1))", False),
        ("v=$(git blame --porcelain -L 1,1 -- README); echo $((v + 1))", False),
        ("v=$(git diff --stat HEAD~1); echo $((v + 1))", False),
        ("v=$(git cherry -v main); echo $((v + 1))", False),
        # files anywhere, standard input
        ("v=$(git diff --no-index a b); echo $((v + 1))", True),
        ("v=$(git blame --contents - -L 1,1 README); echo $((v + 1))", True),
        # a step writes the repository first
        ('git commit -m "$ARG_x"\nv=$(git grep -c TODO -- README); echo $((v + 1))', True),
        # a caller's word: only log, show and describe are read so (git grep prints
        # the revision as written)
        ('v=$(git grep -c -e "$ARG_x" -- README); echo $((v + 1))', True),
    ],
)
def test_what_git_prints_of_the_repository(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


_JQ = "jq -cn --arg t \"$ARG_x\" '{program}'"


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        ('{Tags: {Key: "team", Values: [$t]}}', False),
        ("[$t, 1]", False),
        ('{a: "}"} | $t', True),
        ("{a: 1}, $t", True),
        ("[$t] | .[0]", True),
        ("$t", True),
    ],
)
def test_a_jq_constructor_prints_an_object(program: str, refused: bool, tmp_path: Path) -> None:
    run = f'aws ce get-cost-and-usage --filter "$({_JQ.format(program=program)})"'
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        (
            "while IFS= read -r -d '' f; do ffprobe -v error -- \"$f\"; done "
            "< <(find media/videos -type f -print0)",
            False,
        ),
        ('ffprobe -v error -- "media/$ARG_name"', False),
        # a protocol, a demuxer, another file written
        # a value that cannot hold `:`, `,` or `+` names no protocol
        ('ffprobe -v error -- "$ARG_name"', False),
        ('ffprobe -v error -- "$ARG_url"', True),
        ('ffprobe -v error -- "$ARG_x"', True),
        ('ffprobe -f "$ARG_name" -- media/a.mp4', True),
        ('ffprobe -o "$ARG_name" -- media/a.mp4', True),
    ],
)
def test_ffprobe_inputs(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # names of the author's files, after a compressor that only lists
        (
            'for f in archives/*.zst; do zstd -l -- "$f"; done\n'
            'for f in tools/*.sh; do bash -n -- "$f"; bash -- "$f"; done',
            False,
        ),
        (
            'for f in archives/*.gz; do gzip -t -- "$f"; done\n'
            'for f in tools/*.sh; do bash -- "$f"; done',
            False,
        ),
        # one that writes beside its operand, in the working folder
        ('zstd -- "$ARG_name"\nfor f in tools/*.sh; do bash -- "$f"; done', True),
        ('gzip -S.tlc -- "$ARG_name"\nfor f in tools/*.sh; do bash -- "$f"; done', True),
        ('zstd -c -o "out-$ARG_name" a\nfor f in tools/*.sh; do bash -- "$f"; done', True),
    ],
)
def test_a_compressor_that_only_reads(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('kdig @10.0.0.53 +short -t A -- "$ARG_name"', False),
        ('kdig -k "$ARG_name" example.com', True),
        ('mode=$(getenforce)\necho "$mode"', False),
        ('ausearch --message AVC -k "$ARG_name" --raw', False),
        ('ausearch --input "$ARG_name" --raw', True),
        ('msgfmt --check --statistics -o /dev/null -- "i18n/$ARG_name.po"', False),
        ('msgfmt --check -o "$ARG_name" -- i18n/a.po', True),
        (
            "ldapsearch -x -LLL -H ldap://ldap.example.com -b ou=people,dc=example,dc=com "
            '"(uid=$ARG_name)" uid mail',
            False,
        ),
        ('ldapsearch -x -H "ldap://$ARG_name" -b dc=example,dc=com "(uid=a)"', True),
        ('ldapsearch -x -f "$ARG_name" -b dc=example,dc=com', True),
        ('git cherry -v -- "$ARG_name" main', False),
    ],
)
def test_grammars_added(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


_JSON_COUNT = 'n=$(jq ".t" <<< "$ARG_x")\necho $(( n * 8 ))'


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # JSON texts: a number, true/false/null, or `"`, `{`, `[` (an error)
        (_JSON_COUNT, False),
        ('n=$(jq ".totalCount // 0" "$HARBOR_RUN_DIR/inv.json")\n(( n == 0 )) && exit 0', False),
        # raw text, colours, error messages joined
        ('n=$(jq -r ".t" <<< "$ARG_x")\necho $(( n * 8 ))', True),
        ('n=$(jq -C ".t" <<< "$ARG_x")\necho $(( n * 8 ))', True),
        ('n=$(jq ".t" <<< "$ARG_x" 2>&1)\necho $(( n * 8 ))', True),
        # transformed: any text
        ('n=$(jq ".t" <<< "$ARG_x")\necho $(( ${n#?} * 8 ))', True),
        # `true` would be a variable holding the caller's text
        (f"true=$ARG_x\n{_JSON_COUNT}", True),
        (f'read -r null <<< "$ARG_x"\n{_JSON_COUNT}', True),
        (f'printf -v false %s "$ARG_x"\n{_JSON_COUNT}', True),
        (f': "${{null:=$ARG_x}}"\n{_JSON_COUNT}', True),
        (f'for true in "$ARG_x"; do :; done\n{_JSON_COUNT}', True),
        (f"exec {{null}}>f\n{_JSON_COUNT}", True),
        (f"x=null; declare -n r=$x; r=$ARG_x\n{_JSON_COUNT}", True),
        (f'[ "$ARG_x" = true ] || exit 0\n{_JSON_COUNT}', False),
    ],
)
def test_json_texts_in_arithmetic(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # the commands tree-sitter puts inside the here-document's node are
        # not its text: the program is literal
        (
            "for h in a b; do\n  python3 - \"$h\" <<'PY' || printf '%s\\n' \"$ARG_x\"\n"
            "import sys\nprint(sys.argv[1])\nPY\ndone | sort",
            False,
        ),
        ("python3 - <<PY || true\nprint('$ARG_x')\nPY", True),
        ("bash <<EOF | sort\necho $ARG_x\nEOF", True),
    ],
)
def test_a_here_document_before_another_command(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        ('restic check --read-data-subset="$ARG_n%"', False),
        ('restic snapshots --tag "$ARG_name" --json', False),
        ('restic -r "$ARG_name" check', True),
        ('restic check -o "$ARG_name"', True),
        ('RESTIC_PASSWORD_COMMAND="$ARG_name" restic check', True),
        ('borg list --last 3 --glob-archives "$ARG_name*"', False),
        ('borg list "$ARG_name"', True),
        ('borg list --rsh "$ARG_name"', True),
    ],
)
def test_backup_tools(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


_PSQL = "psql -X -v t=\"$ARG_x\" <<'SQL'\n{sql}\nSQL"


@pytest.mark.parametrize(
    ("sql", "refused"),
    [
        # a backslash or `:t` inside a quoted literal is the literal's
        ("SELECT regexp_replace(q, '\\s+', ' ') WHERE a = :'t';", False),
        ("SELECT ':t', 'it''s \\! no' WHERE a = :'t';", False),
        # outside one, or where the two readings of a backslash differ
        ("SELECT :t;", True),
        ("SELECT 1 \\gexec\nSELECT :'t';", True),
        ("SELECT 'a\\' \\gexec';\nSELECT :'t';", True),
        ("SELECT :'t' || 'unclosed \\! ls", True),
    ],
)
def test_psql_literals(sql: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([_PSQL.format(sql=sql)], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


_LEVEL = {
    "level": {"type": "string", "enum": ["ERROR", "WARN"]},
    "named": {"type": "string", "enum": ["ARG_x", "WARN"]},
    "x": {"type": "string"},
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # an enum's value is the author's text: what awk makes of it and of
        # a file no step writes is the author's
        (
            "n=$(awk -v l=\"$ARG_level\" '$2 == l { c++ } END { print c }' logs/app.log)\n"
            "echo $((n))",
            False,
        ),
        (
            'while read -r a b; do echo $((b)); done < <(awk -v l="$ARG_level" '
            "'{ print l, $2 }' logs/app.log)",
            False,
        ),
        # a free string is the caller's
        (
            "n=$(awk -v l=\"$ARG_x\" '$2 == l { c++ } END { print c }' logs/app.log)\necho $((n))",
            True,
        ),
        (
            'while read -r a b; do echo $((b)); done < <(awk -v l="$ARG_x" '
            "'{ print l, $2 }' logs/app.log)",
            True,
        ),
        # an enum value that names a variable: in arithmetic it reads that
        ("n=$(awk -v l=\"$ARG_named\" 'BEGIN { print l }')\necho $((n))", True),
        (
            'while read -r a; do echo $((a)); done < <(awk -v l="$ARG_named" '
            "'BEGIN { print l }')",
            True,
        ),
        (
            'read -r w < "$HARBOR_RUN_DIR/x"\nwhile read -r a b; do echo $((b)); done '
            "< <(awk -v l=\"$w\" '{ print l, $2 }' logs/app.log)",
            True,
        ),
    ],
)
def test_enum_values_given_to_a_reader(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_LEVEL)
    assert (status == "refused") == refused, findings


_DNS = {
    "x": {"type": "string"},
    "name": {"type": "string", "pattern": "^[a-z0-9.-]+$"},
    "dash": {"type": "string", "leading_dash": True},
}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a word starting with + is one of dig's options
        ('dig +short -t A "$ARG_name"', False),
        ('dig +short -t A -q "$ARG_x"', False),
        ('dig +short -t A "$ARG_x"', True),
        ('kdig +short "$ARG_x"', True),
        # an array that holds itself (logs=(old "${logs[@]}")) is read, not unrolled forever
        (
            'logs=(a.log)\nif [ -f b.log ]; then logs=(b.log "${logs[@]}"); fi\n'
            'grep -h -e x -- "${logs[@]}"',
            False,
        ),
        ('logs=(a.log)\nlogs=("$ARG_dash" "${logs[@]}")\ngrep -h -e x "${logs[@]}"', True),
    ],
)
def test_plus_options_and_arrays_holding_themselves(
    run: str, refused: bool, tmp_path: Path
) -> None:
    status, findings = check_steps([run], tmp_path, args=_DNS)
    assert (status == "refused") == refused, findings


def test_a_programs_entry_may_list_plus_options(tmp_path: Path) -> None:
    """``programs: dig: {flags: [+short]}`` loads, and then a word of the
    caller's that may start with ``+`` is refused where dig reads options."""
    programs = {
        "dig": {
            "flags": ["+short", "+tcp"],
            "options_with_value": ["-t", "+time"],
            "runs_operands": False,
        }
    }
    status, findings = check_steps(
        ['dig +short +time=2 -t A "$ARG_name"'], tmp_path, args=_DNS, programs=programs
    )
    assert status == "accepted", findings
    status, findings = check_steps(
        ['dig +short -t A "$ARG_x"'], tmp_path, args=_DNS, programs=programs
    )
    assert status == "refused" and any("starts with `+`" in f for f in findings), findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a du size of each of the author's literal folders
        (
            'for d in /var/lib/a /var/lib/b; do\n  kb=$(du -sk "$d" | cut -f1)\n'
            "  echo $((kb))\ndone",
            False,
        ),
        ('for d in -h /var/lib/a; do\n  kb=$(du -s "$d" | cut -f1)\n  echo $((kb))\ndone', True),
        ('for d in /var/lib/*; do\n  kb=$(du -sk "$d" | cut -f1)\n  echo $((kb))\ndone', True),
        # the guarded name read in the value of its own assignment
        (
            'read -r v < "$HARBOR_RUN_DIR/f"\n'
            'if [[ $v =~ ^[0-9]+$ ]]; then v="$(( v / 1024 )) KiB"; fi',
            False,
        ),
        (
            'read -r v < "$HARBOR_RUN_DIR/f"\n'
            'if [[ $v =~ ^[0-9]+$ ]]; then v="$(( v / 1024 ))"; echo $((v)); fi',
            True,
        ),
        # ${v:=…} assigns when v is empty: a guard that admits empty is undone
        (
            'read -r v < "$HARBOR_RUN_DIR/f"\n[[ $v =~ ^[0-9]*$ ]] || exit 1\n'
            ': "${v:=$ARG_x}"\necho $((v))',
            True,
        ),
    ],
)
def test_sizes_and_guarded_assignments(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


_SNMP = {
    "secrets": {"SNMP_COMMUNITY": {"file": "/run/secrets/c", "programs": ["snmpget"]}},
    "programs": {
        "snmpget": {
            "options_with_value": ["-v", "-c"],
            "runs_operands": False,
            "output_options": [],
        }
    },
}


def test_what_a_secrets_program_prints_is_its_answer(tmp_path: Path) -> None:
    """A secret's ``programs:`` is the author's word that the program never
    prints it: what it prints (captured, read) is its answer."""
    run = (
        'mapfile -t vals < <(snmpget -v 2c -c "$SNMP_COMMUNITY" edge1.example.com IF-MIB::x)\n'
        "printf '%s\\n' \"${vals[@]}\""
    )
    status, findings = check_steps([run], tmp_path, args=_ARGS, **_SNMP)
    assert status == "accepted", findings
    # another program given it prints it, as far as the checker knows
    run = 'v=$(printf \'%s\' "$SNMP_COMMUNITY" | base64)\necho "$v"'
    status, findings = check_steps([run], tmp_path, args=_ARGS, **_SNMP)
    assert status == "refused", findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a loop over an array's indexes: a name inside an expansion is no write
        (
            'labels=(a alias b)\nfor k in "${!labels[@]}"; do '
            "printf '%s\\n' \"${labels[k]}\"; done",
            False,
        ),
        (
            'labels=(a b)\nfor k in "${!labels[@]}"; do printf -vk %s "$ARG_x"; echo $((k)); done',
            True,
        ),
        (
            'labels=(a b)\nfor k in "${!labels[@]}"; do '
            'read -r k < "$HARBOR_RUN_DIR/f"; echo $((k)); done',
            True,
        ),
        # an alias or a trap where a command starts runs text between commands
        ('alias x=y\nlabels=(a b)\nfor k in "${!labels[@]}"; do echo $((k)); done', True),
    ],
)
def test_loop_indexes(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # an enum's value inside one double-quoted string, with backslashes
        (
            're="\\\\b$ARG_marker\\\\b"\nwhile IFS=: read -r file line text; do echo $((line)); '
            'done < <(git grep -n -e "$re")',
            False,
        ),
        # a free string there is the caller's
        (
            're="\\\\b$ARG_x\\\\b"\nwhile IFS=: read -r file line text; do echo $((line)); '
            'done < <(git grep -n -e "$re")',
            True,
        ),
    ],
)
def test_enum_words_with_backslashes(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


_DOC = {"doc": {"type": "string", "contentEncoding": "base64"}}


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # GNU sed's w takes the file name with no blank before it (1wout)
        ('sed -n "1wMakefile" "$ARG_doc"\nmake', True),
        ('sed -n "s/x/y/w Makefile" "$ARG_doc"\nmake', True),
        ('sed -n "1p" "$ARG_doc"\nmake', False),
        # a sed program that holds a literal loop's variable: each text it may be
        (
            'for env in a b; do\n  sed "s/^/  $env: /" "$ARG_doc"\n  make\ndone',
            False,
        ),
        ('for env in a "w x"; do\n  sed "1$env" "$ARG_doc"\n  make\ndone', True),
    ],
)
def test_sed_writes(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_DOC)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        # e after any address runs the pattern space: the caller's line
        ("/./e", True),
        ("1~1e", True),
        ("0,/x/e", True),
        ("$!e", True),
        ("s/x/y/e", True),
        ("1rfile", False),  # reads a file of the author's: no code
        # e, w, r as text of s or of an address: none
        ("s/a/e/", False),
        ("/e/p", False),
        ("s/r/w/g", False),
    ],
)
def test_sed_commands_after_any_address(program: str, refused: bool, tmp_path: Path) -> None:
    run = f"printf '%s\\n' \"$ARG_x\" | sed '{program}'"
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        ("{ f = $1; @f($2) }", True),  # gawk: an indirect call, system too
        ('@include "lib.awk"\n{ print $1 }', True),
        ("{ print $1 }", False),
        ('{ print "a@b" }', False),  # inside a string: no @ form
    ],
)
def test_gawk_at_forms(program: str, refused: bool, tmp_path: Path) -> None:
    run = f"printf '%s\\n' \"$ARG_x\" | awk '{program}'"
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("program", "refused"),
    [
        # a global function by a computed name: eval, whatever data names
        ("globalThis[process.argv[1]](process.argv[2])", True),
        ("process[process.argv[1]]()", True),
        ("Reflect.apply(globalThis.eval, null, [process.argv[1]])", True),
        ("console.log(process.argv[1].length)", False),
        (
            "const o = {}; console.log(Object.prototype.hasOwnProperty.call(o, process.argv[1]))",
            False,
        ),
    ],
)
def test_node_computed_names(program: str, refused: bool, tmp_path: Path) -> None:
    run = f"node -e '{program}' \"$ARG_x\""
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, [f for f in findings if "H005" in f]


@pytest.mark.parametrize(
    ("run", "refused"),
    [
        # a group of digit ranges is digits ([1-4], 20[0-9]{2})
        (
            "if [[ $ARG_x =~ ^(20[0-9]{2})-Q([1-4])$ ]]; then q=${BASH_REMATCH[2]}; "
            "for (( m = (q - 1) * 3 + 1; m <= q * 3; m++ )); do echo $m; done; fi",
            False,
        ),
        ("if [[ $ARG_x =~ ^Q([1-4a])$ ]]; then q=${BASH_REMATCH[1]}; echo $(( q * 3 )); fi", True),
        # a loop inside the guarded block assigns only its own variable
        (
            'read -r v < "$HARBOR_RUN_DIR/f"\nif [[ $v =~ ^[0-9]+$ ]]; then '
            "for b in 1 2; do echo $(( v & b )); done; fi",
            False,
        ),
        (
            'read -r v < "$HARBOR_RUN_DIR/f"\nif [[ $v =~ ^[0-9]+$ ]]; then '
            "for b in 1 2; do echo $(( v & b )); v=$ARG_x; done; fi",
            True,
        ),
        # an associative array's literal keys, and a bare key in arithmetic
        ('declare -A f=([2]=A [16]=B)\nfor b in "${!f[@]}"; do echo $(( 3 & b )); done', False),
        ('declare -A f=([2]=A)\nf[$ARG_x]=1\nfor b in "${!f[@]}"; do echo $(( b )); done', True),
        ("declare -A at=()\nat[x]=1\necho $(( at[start] + 1 ))", False),
        ('at=()\nread -r start < "$HARBOR_RUN_DIR/f"\necho $(( at[start] + 1 ))', True),
        # || echo 0: the author's number
        ('t=$(date -u -d "$ARG_x" +%s 2>/dev/null || echo 0)\n(( t > 0 )) && echo later', False),
    ],
)
def test_numbers_round_thirty_five(run: str, refused: bool, tmp_path: Path) -> None:
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ('"$HARBOR_RUN_DIR/cron.log"', False),  # a log named cron: no cron table
        ("/etc/cron.d/report", True),
        ("/var/spool/cron/crontabs/root", True),
    ],
)
def test_cron_places(path: str, refused: bool, tmp_path: Path) -> None:
    run = f"printf '%s\\n' \"$ARG_x\" > {path}"
    status, findings = check_steps([run], tmp_path, args=_ARGS)
    assert (status == "refused") == refused, findings
