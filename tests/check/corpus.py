"""The labelled corpus: quoting contexts x roles x arg types, plus hand-written
templates (the tricky safe idioms and known attacks).

Labels are ground truth from bash's semantics, decided from the form, the role
and the schema, never from the checker's output. Arg kinds (see
`_harness.SCHEMAS`): S free string, P word pattern (cannot start with `-`),
I integer, E enum of two words, M multi-line string, U a pattern that allows
anything, B boolean, F file name pattern, D free string with
``leading_dash: true`` (S cannot start with ``-``: the validator refuses it).
"""

from __future__ import annotations

from tests.check._harness import Case

# Forms: how the value is written into the script. `inert_needed` means the
# form is only safe when the value has no shell-special character.
_FORMS: dict[str, tuple[str, bool, bool]] = {
    # name: (text, breaks context for free strings, is unquoted-expansion)
    "raw": ("{{ args.x }}", True, False),
    "raw-dq": ('"{{ args.x }}"', True, False),
    "raw-sq": ("'{{ args.x }}'", True, False),
    "sq": ("{{ args.x | shellquote }}", False, False),
    "sq-dq": ('"{{ args.x | shellquote }}"', True, False),
    "sq-sq": ("'{{ args.x | shellquote }}'", True, False),
    "env-dq": ('"$ARG_x"', False, False),
    "env": ("$ARG_x", False, True),
    "env-brace": ('"${ARG_x}"', False, False),
    "sq-subst": ("$(printf %s {{ args.x | shellquote }})", False, False),
    "sq-backtick": ("`printf %s {{ args.x | shellquote }}`", True, False),
}

# Roles: a template with VAL where the value goes, and a function of the arg
# kind saying whether a value that arrives intact (one literal word) is
# dangerous there.
_ROLES: dict[str, tuple[str, str]] = {
    "plain-after-dashdash": ("mytool -- VAL", "dash-unknown"),
    "plain": ("mytool VAL", "dash-unknown"),
    "printf-arg": ("printf '%s\\n' VAL", "never"),
    "echo": ("echo VAL > /dev/null", "never"),
    "for": ('for f in VAL; do echo "$f"; done', "never"),
    "sh-c-positional": ("sh -c 'echo \"$1\"' _ VAL", "never"),
    "python-argv": ("python3 -c 'import sys; print(sys.argv[1])' VAL", "never"),
    "awk-v": ("awk -v v=VAL 'BEGIN{print v}'", "never"),
    "jq-arg": ("jq -n --arg v VAL '$v'", "never"),
    "sudo-user": ("sudo -u VAL id", "never"),
    "find-name": ("find . -name VAL -type f", "never"),
    "command": ("VAL --version", "unless-number-or-enum"),
    "timeout-command": ("timeout 5 VAL", "unless-number-or-enum"),
    "docker-image": ("docker run --rm VAL", "unless-enum"),
    "xargs-command": ("xargs -0 VAL < /dev/null", "unless-number-or-enum"),
    "path-assign": ("PATH=VAL ls", "unless-number-or-enum"),
    "export-git-ssh": ("export GIT_SSH_COMMAND=VAL", "unless-number-or-enum"),
    "git-c": ("git -c VAL status", "unless-enum"),
    "sh-c-script": ("sh -c VAL", "unless-number-or-enum"),
    "eval": ("eval VAL", "unless-number-or-enum"),
    "python-c": ("python3 -c VAL", "unless-number-or-enum"),
    "awk-program": ("awk VAL /dev/null", "unless-number-or-enum"),
    "sed-script": ("sed VAL /dev/null", "unless-number-or-enum"),
    "jq-filter": ("jq VAL /dev/null", "unless-number-or-enum"),
    "sqlite-sql": ("sqlite3 db.sqlite VAL", "unless-number-or-enum"),
    "trap": ("trap VAL EXIT", "unless-number-or-enum"),
    "pipe-sh": ("echo VAL | sh", "unless-number-or-enum"),
    "ssh-remote": ("ssh host ls VAL", "code-string"),
    "arith": ("echo $(( VAL + 1 ))", "unless-number-or-enum"),
    "arith-test": ('n=3; [[ "$n" -eq VAL ]]', "unless-number-or-enum"),
    "declare-i": ("declare -i n=VAL", "unless-number-or-enum"),
    "printf-format": ("printf VAL", "dash-string"),
    "read-name": ("read -r VAL < /dev/null", "unless-number-or-enum"),
    "git-clone": ("git clone VAL", "free-string"),
    "find-path": ("find VAL -type f", "free-string"),
    "perl-argv": ("perl -e 'print @ARGV' VAL", "free-string"),
    "ssh-host": ("ssh VAL uptime", "free-string"),
}

# Roles where an unquoted expansion that splits into several words is dangerous:
# the extra words land where the command reads options, its program, or
# the command to run (found by the dynamic oracle: `sudo -u $ARG_x id` runs
# a command of the caller's choice).
_SPLIT_SENSITIVE = frozenset({"printf-format", "sudo-user", "find-name", "awk-v", "jq-arg"})
_KINDS = ("S", "P", "I", "E", "D")
_KINDS_ALL = ("S", "P", "I", "D")


#: Safe templates that the promise of issue 34 refuses on purpose, with why:
#: a program without a grammar gets only clean data, and a number inert in
#: code is one that cannot start with `-` (an integer arg needs `minimum: 0`).
_NO_GRAMMAR = "mytool has no grammar: a program without one gets only clean data"
_NEGATIVE_CODE = "a number that may start with `-` is not inert in code (rule 4 needs minimum >= 0)"
BY_DESIGN_ROLES: dict[tuple[str, str], str] = {
    **{("plain", k): _NO_GRAMMAR for k in _KINDS_ALL},
    **{("plain-after-dashdash", k): _NO_GRAMMAR for k in _KINDS_ALL},
    **{
        (role, "I"): _NEGATIVE_CODE
        for role in ("awk-program", "jq-filter", "python-c", "sed-script", "sqlite-sql", "pipe-sh")
    },
    ("path-assign", "I"): "ls reads no variable as data: PATH passed to it is refused",
}
BY_DESIGN_CASES: dict[str, str] = {
    **{
        f"{form}/echo/{kind}": "echo $x unquoted: a split word may start with - (echo -e "
        "decodes the caller's escapes): quote it"
        for form in ("env", "sq-subst")
        for kind in ("S", "D")
    },
    "idiom/long-option-equals": _NO_GRAMMAR,
    "idiom/docker-run-cmd": "docker run has no grammar (the words after the image: a command)",
}


def refused_by_design(case_id: str) -> str | None:
    """Why the checker refuses this safe case on purpose (None: it must not)."""
    if case_id in BY_DESIGN_CASES:
        return BY_DESIGN_CASES[case_id]
    parts = case_id.split("/")
    if len(parts) == 3:
        return BY_DESIGN_ROLES.get((parts[1], parts[2]))
    return None


def _role_dangerous(rule: str, kind: str) -> bool:
    if rule == "never":
        return False
    if rule == "unless-enum":
        return kind != "E"
    if rule == "unless-number-or-enum":
        return kind not in ("I", "E")
    if rule == "free-string":
        # a string with `leading_dash: true`, or a negative integer, can be
        # read as an option
        return kind in ("D", "I")
    if rule == "code-string":
        # free text joined into a command line another shell parses (and a
        # negative number there is an option of the remote command)
        return kind in ("S", "D", "I")
    if rule == "dash-string":
        # only an option (`printf -v NAME`) makes it dangerous
        return kind in ("D", "I")
    if rule == "dash-unknown":
        # an option-capable value reaching a program whose option grammar the
        # checker does not know (`--` is only a promise of the program's)
        return kind in ("D", "I")
    raise AssertionError(rule)


def _matrix() -> list[Case]:
    cases: list[Case] = []
    for form, (text, breaks, _unquoted) in _FORMS.items():
        for role, (template, rule) in _ROLES.items():
            for kind in _KINDS:
                if form in ("raw-sq", "sq-sq") and "'" in template:
                    continue  # the form would sit inside the role's own quotes
                dangerous = (breaks and kind in ("S", "D")) or _role_dangerous(rule, kind)
                if (
                    form in ("env", "sq-subst")
                    and kind in ("S", "D")
                    and (role in _SPLIT_SENSITIVE or rule in ("free-string", "dash-unknown"))
                ):
                    # word splitting adds words where options or the program are
                    # read (a split word can start with `-`)
                    # word splitting adds words where options or the program are read
                    dangerous = True
                cases.append(
                    Case(
                        f"{form}/{role}/{kind}",
                        dangerous,
                        run=template.replace("VAL", text),
                        args={"x": kind},
                    )
                )
    return cases


_HAND: list[Case] = [
    # --- safe idioms a naive checker refuses
    Case("idiom/long-option-equals", False, run="mytool --name={{ args.x | shellquote }}"),
    Case(
        "idiom/git-branch-equals",
        False,
        run="git clone --branch={{ args.x | shellquote }} -- https://example.com/r.git",
    ),
    Case("idiom/env-in-constant-script", False, run='grep -rn -- "$ARG_x" .'),
    Case(
        "idiom/sh-c-dollar1",
        False,
        run="sh -c 'grep -- \"$1\" log.txt' _ {{ args.x | shellquote }}",
    ),
    Case(
        "idiom/bash-c-dollar-at",
        False,
        run='bash -c \'for a in "$@"; do echo "$a"; done\' bash {{ args.x | shellquote }}',
    ),
    Case("idiom/heredoc-env", False, run="cat <<EOF\nname: $ARG_x\nEOF"),
    Case(
        "idiom/quoted-heredoc-const",
        False,
        run="python3 - <<'EOF'\nimport os\nprint(os.environ['ARG_x'])\nEOF",
    ),
    Case("idiom/var-copy", False, run='name="$ARG_x"\necho "hello $name"'),
    Case("idiom/var-from-sq", False, run='name={{ args.x | shellquote }}\nprintf "%s\\n" "$name"'),
    Case(
        "idiom/docker-format",
        False,
        run="docker inspect -f '{{.State.Status}}' -- {{ args.x | shellquote }}",
    ),
    Case("idiom/integer-raw", False, run="sleep {{ args.x }}", args={"x": "N"}),
    Case("idiom/integer-arith", False, run="echo $(( {{ args.x }} * 2 ))", args={"x": "I"}),
    Case("idiom/bool-raw", False, run="if {{ args.x }}; then echo yes; fi", args={"x": "B"}),
    Case("idiom/enum-subcommand", False, run="git {{ args.x }} --stat", args={"x": "E"}),
    Case(
        "idiom/enum-case",
        False,
        run='case "$ARG_x" in\n  alpha) ls ;;\n  beta) df -h ;;\nesac',
        args={"x": "E"},
    ),
    Case("idiom/pattern-raw", False, run="git checkout {{ args.x }}", args={"x": "P"}),
    Case("idiom/jq-arg-env", False, run="jq -n --arg q \"$ARG_x\" '{q: $q}'"),
    Case("idiom/awk-environ", False, run="awk 'BEGIN { print ENVIRON[\"ARG_x\"] }'"),
    Case("idiom/psql-var", False, run='psql -v name="$ARG_x" -c "select :\'name\'"'),
    Case("idiom/printf-percent-s", False, run="printf '%s\\n' \"$ARG_x\""),
    Case("idiom/pipe-data-to-grep", False, run='printf "%s\\n" "$ARG_x" | grep -c foo'),
    Case(
        "idiom/find-exec-sh", False, run="find . -name '*.log' -exec sh -c 'wc -l \"$1\"' _ {} \\;"
    ),
    Case("idiom/xargs-0", False, run="printf '%s\\0' \"$ARG_x\" | xargs -0 ls -ld --"),
    Case(
        "idiom/multiline-script",
        False,
        run=(
            'set -eu\ncd /tmp\nif [ -n "$ARG_x" ]; then\n  echo "got: $ARG_x"\nfi\n'
            'for i in 1 2 3; do\n  echo "$i"\ndone'
        ),
    ),
    Case("idiom/function-quoted", False, run='greet() { printf "hi %s\\n" "$1"; }\ngreet "$ARG_x"'),
    Case("idiom/herestring-grep", False, run='grep -c a <<< "$ARG_x"'),
    Case("idiom/sq-comment", False, run="# asked for {{ args.x | shellquote }}\necho ok"),
    Case("idiom/raw-comment", False, run="# asked for {{ args.x }}\necho ok"),
    Case(
        "idiom/curl-data-urlencode",
        False,
        run="curl -fsS --data-urlencode q={{ args.x | shellquote }} https://example.com/s",
    ),
    Case(
        "idiom/two-args",
        False,
        run="cp -- {{ args.x | shellquote }} {{ args.y | shellquote }}",
        args={"x": "S", "y": "S"},
    ),
    Case("idiom/ssh-enum-host", False, run="ssh {{ args.x }} uptime", args={"x": "E"}),
    Case("idiom/git-log-dashdash", False, run="git log --oneline -- {{ args.x | shellquote }}"),
    Case(
        "idiom/nested-sh-c-sh-c",
        False,
        run="sh -c 'sh -c '\\''echo \"$1\"'\\'' _ \"$1\"' _ {{ args.x | shellquote }}",
    ),
    Case(
        "idiom/docker-run-cmd", False, run="docker run --rm alpine:3 echo {{ args.x | shellquote }}"
    ),
    Case("idiom/timeout-arg", False, run="timeout 10 grep -- {{ args.x | shellquote }} file.txt"),
    # the elements of an array are not tracked: the caller's value goes after it
    Case("idiom/array", False, run='args=(--color=never --)\ngrep "${args[@]}" "$ARG_x" file.txt'),
    Case("idiom/dollar-brace-default", False, run='echo "${ARG_x:-none}"'),
    Case(
        "idiom/python-stdin-data",
        False,
        run="printf '%s' \"$ARG_x\" | python3 -c 'import sys; print(sys.stdin.read().upper())'",
    ),
    Case("idiom/argv-plain", False, argv=["grep", "-rn", "--", "{{ args.x }}", "."]),
    Case("idiom/argv-sh-c-positional", False, argv=["sh", "-c", 'echo "$1"', "_", "{{ args.x }}"]),
    Case(
        "idiom/argv-python-argv",
        False,
        argv=["python3", "-c", "import sys; print(sys.argv[1])", "{{ args.x }}"],
    ),
    Case("idiom/argv-sh-c-env", False, argv=["sh", "-c", 'echo "$ARG_x"']),
    Case("idiom/argv-sh-c-shellquote", False, argv=["sh", "-c", "echo {{ args.x | shellquote }}"]),
    Case(
        "idiom/argv-integer-option",
        False,
        argv=["head", "-n", "{{ args.x }}", "file"],
        args={"x": "I"},
    ),
    Case(
        "idiom/multiline-sq", False, run="printf '%s\\n' {{ args.x | shellquote }}", args={"x": "M"}
    ),
    Case(
        "idiom/filename-pattern-dir",
        False,
        run="cat -- ./logs/{{ args.x | shellquote }}",
        args={"x": "P"},
    ),
    # --- attacks and dangerous shapes
    Case("attack/dq-sq", True, run='echo "{{ args.x | shellquote }}"'),
    Case("attack/heredoc-sq", True, run="cat <<EOF\n{{ args.x | shellquote }}\nEOF"),
    Case(
        "attack/heredoc-raw-quoted-multiline",
        True,
        run="cat <<'EOF'\n{{ args.x }}\nEOF\necho done",
        args={"x": "M"},
    ),
    Case("attack/comment-multiline", True, run="# {{ args.x }}\necho ok", args={"x": "M"}),
    Case(
        "attack/comment-sq-multiline",
        True,
        run="# {{ args.x | shellquote }}\necho ok",
        args={"x": "M"},
    ),
    Case("attack/heredoc-into-sh", True, run="sh <<EOF\necho $ARG_x\nEOF"),
    Case("attack/herestring-into-bash", True, run='bash <<< "$ARG_x"'),
    Case("attack/env-into-python-stdin", True, run='printf "%s" "$ARG_x" | python3'),
    Case("attack/sh-c-dq-env", True, run='sh -c "echo $ARG_x"'),
    Case("attack/bash-c-concat", True, run="bash -c 'echo '{{ args.x | shellquote }}"),
    Case("attack/ssh-remote-env", True, run='ssh host "cat $ARG_x"'),
    Case("attack/watch", True, run="watch -n 5 ls {{ args.x | shellquote }}"),
    Case("attack/su-c", True, run='su -c "ls $ARG_x" nobody'),
    Case("attack/sudo-sh-c", True, run='sudo sh -c "ls $ARG_x"'),
    Case("attack/env-wrapper-cmd", True, run="env FOO=1 {{ args.x | shellquote }}"),
    Case("attack/nohup-cmd", True, run='nohup "$ARG_x" &'),
    Case("attack/exec-var", True, run='cmd="$ARG_x"\n"$cmd" --help'),
    Case("attack/eval-var", True, run='q="$ARG_x"\neval "grep $q file"'),
    Case("attack/tainted-var-arith", True, run='n="$ARG_x"\necho $(( n + 1 ))'),
    Case("attack/subscript", True, run='declare -a a\necho "${a[$ARG_x]}"'),
    Case("attack/let", True, run='let "y = $ARG_x"'),
    Case("attack/indirect", True, run='echo "${!ARG_x}"'),
    Case("attack/printf-v", True, run='printf -v "$ARG_x" %s hello'),
    Case("attack/declare-name", True, run="declare {{ args.x | shellquote }}=1"),
    Case("attack/ld-preload", True, run="LD_PRELOAD={{ args.x | shellquote }} ls"),
    Case("attack/env-ld-preload", True, run="env LD_PRELOAD={{ args.x | shellquote }} ls"),
    Case(
        "attack/tar-option", True, run="tar -cf out.tar {{ args.x | shellquote }}", args={"x": "D"}
    ),
    Case("attack/rsync-e", True, run="rsync -e {{ args.x | shellquote }} a b"),
    Case(
        "attack/git-upload-pack-eq",
        True,
        run="git clone --upload-pack={{ args.x | shellquote }} https://h/r",
    ),
    Case("attack/ssh-o", True, run="ssh -o {{ args.x | shellquote }} host true"),
    Case("attack/find-exec-cmd", True, run="find . -exec {{ args.x | shellquote }} {} \\;"),
    Case("attack/xargs-sh-I", True, run="printf '%s\\n' \"$ARG_x\" | xargs -I{} sh -c 'echo {}'"),
    Case("attack/python-c-dq-env", True, run="python3 -c \"print('$ARG_x')\""),
    Case("attack/node-e", True, run="node -e \"console.log('{{ args.x }}')\""),
    Case(
        "attack/perl-e-option",
        True,
        run="perl -e 'print 1' {{ args.x | shellquote }}",
        args={"x": "D"},
    ),
    Case("attack/sed-option", True, run="sed -n p {{ args.x | shellquote }}", args={"x": "D"}),
    Case("attack/awk-dq-program", True, run='awk "BEGIN { print \\"$ARG_x\\" }"'),
    Case("attack/jq-dq-filter", True, run='jq ".[\\"$ARG_x\\"]" file.json'),
    Case("attack/sqlite-dq", True, run="sqlite3 db \"select * from t where n = '$ARG_x'\""),
    Case("attack/psql-c", True, run="psql -c \"select '$ARG_x'\""),
    Case("attack/source", True, run="source {{ args.x | shellquote }}"),
    Case("attack/bash-script-file", True, run="bash {{ args.x | shellquote }}"),
    Case("attack/python-module", True, run="python3 -m {{ args.x | shellquote }}"),
    Case("attack/node-require", True, run="node --require {{ args.x | shellquote }} app.js"),
    Case("attack/unanchored-pattern", True, run="ls {{ args.x }}", args={"x": "U"}),
    Case("attack/dollar-before", True, run="echo ${{ args.x | shellquote }}"),
    Case("attack/ansi-c", True, run="echo $'{{ args.x | shellquote }}'"),
    Case("attack/backslash-before", True, run="echo \\{{ args.x | shellquote }}"),
    Case("attack/param-expansion-sq", True, run='echo "${FOO:-{{ args.x | shellquote }}}"'),
    Case("attack/function-arg-eval", True, run='run() { eval "$1"; }\nrun "$ARG_x"'),
    Case("attack/set-positional-eval", True, run='set -- "$ARG_x"\neval "$1"'),
    Case("attack/for-eval", True, run='for w in "$ARG_x"; do eval "$w"; done'),
    Case("attack/read-eval", True, run='read -r line <<< "$ARG_x"\neval "$line"'),
    Case("attack/cmd-subst-var", True, run='v=$(printf %s "$ARG_x")\nsh -c "$v"'),
    Case(
        "attack/nested-sh-c-inner-dq",
        True,
        run="sh -c 'sh -c \"echo $1\"' _ {{ args.x | shellquote }}",
    ),
    Case(
        "attack/nested-eval-positional",
        True,
        run="bash -c 'eval \"$1\"' _ {{ args.x | shellquote }}",
    ),
    Case("attack/argv-command", True, argv=["{{ args.x }}", "--help"]),
    Case("attack/argv-sh-c", True, argv=["sh", "-c", "echo {{ args.x }}"]),
    Case("attack/argv-python-c", True, argv=["python3", "-c", "print('{{ args.x }}')"]),
    Case("attack/argv-git-clone", True, argv=["git", "clone", "{{ args.x }}"], args={"x": "D"}),
    Case("attack/argv-bash-c-eval", True, argv=["bash", "-c", 'eval "$1"', "_", "{{ args.x }}"]),
    Case("attack/argv-env-wrapper", True, argv=["env", "{{ args.x }}"]),
    Case("attack/argv-awk", True, argv=["awk", "{{ args.x }}", "file"]),
    # held-out miss (see test_heldout.py): words joined from several argv elements
    Case("attack/argv-watch-joined", True, argv=["watch", "-n", "5", "ls", "{{ args.x }}"]),
    Case(
        "idiom/argv-ssh-word-pattern",
        False,
        argv=["ssh", "host", "ls", "{{ args.x }}"],
        args={"x": "P"},
    ),
    Case("attack/git-ssh-command-export", True, run='export GIT_SSH_COMMAND="$ARG_x"\ngit fetch'),
    Case("attack/pager", True, run='PAGER="$ARG_x" man ls'),
    Case("attack/bash-env", True, run="BASH_ENV={{ args.x | shellquote }} bash -c true"),
    Case("attack/process-subst-source", True, run='source <(echo "$ARG_x")'),
    Case("attack/arith-compound", True, run="(( {{ args.x | shellquote }} > 3 )) && echo big"),
    Case("attack/c-for", True, run="for (( i = 0; i < ARG_x; i++ )); do :; done"),
    Case("attack/substring-offset", True, run='s=abcdef\necho "${s:$ARG_x}"'),
    Case("attack/test-v", True, run="[[ -v $ARG_x ]] && echo set"),
    Case("attack/unparseable", True, run="if true; then echo {{ args.x | shellquote }}"),
    Case("attack/stray-fi", True, run="echo {{ args.x | shellquote }}\nfi"),
    Case("attack/trap-dq", True, run='trap "echo $ARG_x" EXIT'),
    Case("attack/busybox-sh", True, run='busybox sh -c "$ARG_x"'),
    Case(
        "attack/docker-entrypoint",
        True,
        run="docker run --entrypoint {{ args.x | shellquote }} alpine",
    ),
    Case("attack/kubectl-exec-sh", True, run='kubectl exec pod -- sh -c "$ARG_x"'),
    Case("attack/raw-dq-pattern-with-dollar", True, run='echo "{{ args.y }}"', args={"y": "U"}),
]


def corpus() -> list[Case]:
    """Every labelled case (matrix first, then the hand-written ones)."""
    return _matrix() + _HAND
