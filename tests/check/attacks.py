"""Attacks on the checker, by class (the nine classes of issue 17), each with
safe twins: ``ATTACKS17``.

Labels are ground truth from what bash 5.2 and the named programs really do,
decided from the form, never from the checker's output: ``dangerous=True``
only when a caller's value can run a program of its choice, make the author's
text run as code, choose an option or a program, or make a program read a
file of the caller's choice. ``test_attacks.py`` proves every exercisable
dangerous case in a sandbox (``hbpwn`` runs, or the canary file's content
comes out) and that the safe ones never run a payload.

Arg kinds are keys of `tests.check._harness.SCHEMAS`: S free string (no
newline, cannot start with ``-``), DASH free string with ``leading_dash:
true``, P word pattern, I integer, POSINT integer >= 1, NOQUOTE any string
without ``'``, IDENT a shell name, DIGITS digits and dots, GITKEY an enum of
two git config keys.

How a danger is shown (see test_attacks.py):

- ``hbpwn`` runs (the default);
- an option that writes a file of the caller's choice (git's ``--output=``,
  pytest's ``--junitxml=``) writes the marker file itself (``{MARKER}``);
- an *option probe*: the stubs ``mytool``, ``othertool``, ``rm`` and
  ``pytest`` stand for programs with a getopt-style parser, and leave the
  marker when a caller's option (a word of `OPTION_PAYLOADS`, or a negative
  number) arrives before ``--``;
- for `LEAK_PROOF` cases, the content of the canary file ``{CANARY}`` appears
  in the step's output (a file read of the caller's choice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.check._harness import SCHEMAS, Case


@dataclass(frozen=True)
class Steps(Case):
    """A case with several steps, or with a step's literal ``env:``. `steps`
    replaces `run`/`argv`: each item is a step mapping as in an export file."""

    steps: tuple[dict[str, Any], ...] = ()

    def document(self) -> dict[str, Any]:
        return {
            "name": "t",
            "description": self.id,
            "args": {name: SCHEMAS[kind] for name, kind in self.args.items()},
            "steps": [dict(step) for step in self.steps],
        }


@dataclass(frozen=True)
class Payload:
    """Values for one run: `args` (``{MARKER}`` and ``{CANARY}`` in a string
    are replaced with the marker file's and the canary file's path) and the
    caller-chosen environment (``HARBOR_CALLER_*``) in `env`."""

    args: dict[str, object]
    env: dict[str, str] = field(default_factory=dict)


def _c(case_id: str, dangerous: bool, run: str, **args: str) -> Case:
    return Case(case_id, dangerous, run=run, args=args or {"x": "S"})


def _x(*values: object) -> tuple[Payload, ...]:
    return tuple(Payload({"x": v}) for v in values)


#: Options the option probe recognises (exactly, as one word before ``--``).
OPTION_PAYLOADS = (
    "--hbpwn",
    "-phbpwn",
    "-oProxyCommand=hbpwn",
    "--upload-pack=hbpwn",
    "--checkpoint-action=exec=hbpwn",
    "-esystem('hbpwn')",
)

_SQ = "{{ args.x | shellquote }}"
_RAW = "{{ args.x }}"

# ---------------------------------------------------------------- class 1
# tree-sitter-bash and bash disagree on where a here-doc, a comment or a
# quoted string ends; the checker reasons on tree-sitter's view, bash runs
# its own. Every dangerous case here is inert in tree-sitter's parse (a
# shellquoted word, a raw value in a comment or a single-quoted string, an
# env var in a here-doc body) and code in bash's.
_C1: list[Case] = [
    # here-doc delimiter lines bash does not accept as the end (it needs the
    # exact word), tree-sitter does: what follows is still the unquoted body,
    # where the shellquote quotes are literal and $(…) runs
    _c("c1/heredoc-trailing-blank", True, f"cat <<EOF\nstatic text\nEOF \necho {_SQ}\nEOF"),
    _c(
        "c1/heredoc-trailing-tab-file",
        True,
        f"cat > notes.txt <<END\nnotes\nEND\t\nprintf '%s\\n' {_SQ}\nEND\ncat notes.txt",
    ),
    _c("c1/heredoc-dash-space-indent", True, f"cat <<-EOF\n\tstatic\n  EOF\necho {_SQ}\nEOF"),
    _c("c1/heredoc-plain-tab-indent", True, f"cat <<EOF\nstatic\n\tEOF\necho {_SQ}\nEOF"),
    _c("c1/heredoc-crlf-delimiter", True, f"cat <<EOF\nstatic\nEOF\r\necho {_SQ}\nEOF"),
    _c("c1/heredoc-delimiter-semicolon", True, f"cat <<EOF\nstatic\nEOF;\necho {_SQ}\nEOF"),
    _c("c1/heredoc-delimiter-comment", True, f"cat <<EOF\nstatic\nEOF # end\necho {_SQ}\nEOF"),
    _c("c1/heredoc-delimiter-amp", True, f"cat <<EOF\nstatic\nEOF&\necho {_SQ}\nEOF"),
    _c("c1/heredoc-delimiter-formfeed", True, f"cat <<EOF\nstatic\nEOF\f\necho {_SQ}\nEOF"),
    # an unquoted body's backslash-newline joins the next line to it for
    # bash (`line EOF` is no delimiter); tree-sitter ends at `EOF`
    _c(
        "c1/heredoc-backslash-before-delimiter",
        True,
        f"cat <<EOF\nline \\\nEOF\necho {_SQ}\nEOF",
    ),
    # the reverse: bash joins `E\`+newline+`OF` and ends the here-doc there,
    # and ends `<<E"OF"` at `EOF`; tree-sitter keeps the next lines in the
    # (unquoted) body
    _c("c1/heredoc-continued-delimiter-env", True, "cat <<EOF\nE\\\nOF\n$ARG_x\nEOF"),
    _c(
        "c1/heredoc-continued-delimiter-pattern",
        True,
        "cat <<EOF\nE\\\nOF\n{{ args.x }} --version\nEOF",
        x="P",
    ),
    _c("c1/heredoc-partly-quoted-delimiter", True, 'cat <<E"OF"\nbody\nEOF\n$ARG_x\nEOF'),
    # a `#` tree-sitter takes for a comment, bash for a word character
    _c("c1/backslash-tab-hash", True, f"echo a\\\t#{_RAW}"),
    _c("c1/formfeed-hash", True, f"echo done\f# {_RAW}"),
    _c("c1/vtab-hash", True, f"echo done\v# {_RAW}"),
    _c("c1/cr-hash", True, f"echo done\r# {_RAW}"),
    # a comment inside backticks ends at the backtick for bash, at the end of
    # the line for tree-sitter
    _c("c1/backtick-comment", True, f"echo `date +%s # epoch` {_RAW}"),
    # inside "${V:-…}" single quotes and $'…' are literal characters for bash
    # (so $(…) in them runs); tree-sitter parses a raw_string/ansi_c_string
    _c("c1/dq-default-sq-raw", True, "echo \"${NAME:-'{{ args.x }}'}\"", x="NOQUOTE"),
    _c("c1/dq-alt-sq-raw", True, "NAME=set\necho \"${NAME:+'{{ args.x }}'}\"", x="NOQUOTE"),
    _c("c1/dq-minus-sq-raw", True, "echo \"${NAME-'{{ args.x }}'}\"", x="NOQUOTE"),
    _c("c1/dq-assign-default-sq-raw", True, "echo \"${NAME:='{{ args.x }}'}\"", x="NOQUOTE"),
    _c("c1/dq-default-ansi-raw", True, "echo \"${NAME:-$'{{ args.x }}'}\"", x="NOQUOTE"),
    # ---- safe twins
    _c("c1/safe-heredoc-exact-delimiter", False, f"cat <<EOF\nstatic text\nEOF\necho {_SQ}"),
    _c("c1/safe-heredoc-dash-tab-indent", False, f"cat <<-EOF\n\tstatic\n\tEOF\necho {_SQ}"),
    # bash reads `a<TAB>#'…'` as one word: the shellquoted part stays quoted
    _c("c1/safe-backslash-tab-hash-sq", False, f"echo a\\\t#{_SQ}"),
    _c("c1/safe-backtick-no-comment", False, f"echo `date +%s` {_SQ}"),
    # unquoted ${V:-'…'}: the single quotes do quote (splitting is harmless to echo)
    _c("c1/safe-unquoted-default-sq-raw", False, "echo ${NAME:-'{{ args.x }}'}", x="NOQUOTE"),
    _c(
        "c1/safe-dq-default-quoted-literal",
        False,
        "printf '%s\\n' \"${NAME:-'quoted'}\" \"$ARG_x\"",
    ),
]

# ---------------------------------------------------------------- class 2
# Expansions that evaluate the value: ${v@P} expands the value as a prompt
# string (command substitution included); offsets, lengths and subscripts
# are arithmetic.
_C2: list[Case] = [
    _c("c2/at-P-echo", True, 'echo "${ARG_x@P}"'),
    _c("c2/at-P-assign", True, "msg=${ARG_x@P}\nprintf '%s\\n' \"$msg\""),
    _c("c2/at-P-copy", True, 'v="$ARG_x"\necho "${v@P}"'),
    _c("c2/at-P-shellquote-copy", True, f'm={_SQ}\necho "${{m@P}}"'),
    _c("c2/at-P-array", True, 'arr=("$ARG_x")\nprintf \'%s\\n\' "${arr[@]@P}"'),
    _c("c2/at-P-heredoc", True, "cat <<EOF\n${ARG_x@P}\nEOF"),
    _c("c2/at-P-test", True, "[[ -n ${ARG_x@P} ]] && echo set"),
    _c("c2/at-P-indirect", True, 'name=ARG_x\necho "${!name@P}"'),
    _c("c2/at-P-function", True, 'show() { local m="$1"; echo "${m@P}"; }\nshow "$ARG_x"'),
    _c("c2/at-P-ps1", True, 'PS1="$ARG_x"\nprintf \'%s\\n\' "${PS1@P}"'),
    _c("c2/at-P-nested-alternative", True, 'echo "${ARG_x:+${ARG_x@P}}"'),
    _c("c2/substring-length", True, 's=abcdef\necho "${s:0:$ARG_x}"'),
    _c("c2/count-subscript", True, 'a=(x y)\necho "${#a[$ARG_x]}"'),
    # ---- safe twins: the other transformations only quote or re-case
    _c("c2/safe-at-Q", False, 'echo "${ARG_x@Q}"'),
    _c("c2/safe-at-Q-eval", False, "eval \"printf '%s\\n' ${ARG_x@Q}\""),
    _c("c2/safe-at-U", False, 'echo "${ARG_x@U}"'),
    _c("c2/safe-at-E", False, "printf '%s\\n' \"${ARG_x@E}\""),
    _c("c2/safe-at-A", False, 'echo "${ARG_x@A}"'),
    _c("c2/safe-lowercase", False, 'echo "${ARG_x,,}"'),
]

# ---------------------------------------------------------------- class 3
# Wrappers that run their operand, and the -c forms that run a shell string.
_C3: list[Case] = [
    _c("c3/su-user-c", True, 'su deploy -c "ls -l $ARG_x"'),
    _c("c3/su-login-user-c-sq", True, f"su - deploy -c {_SQ}"),
    _c("c3/runuser-user-c", True, 'runuser deploy -c "ls -l $ARG_x"'),
    _c("c3/runuser-u-command", True, f"runuser -u deploy -- {_SQ}"),
    _c("c3/flock-c", True, 'flock app.lock -c "ls -l $ARG_x"'),
    _c("c3/flock-command", True, f"flock -w 5 app.lock {_SQ}"),
    _c("c3/script-c", True, 'script -q /dev/null -c "ls -l $ARG_x"'),
    _c("c3/sg-c", True, 'sg staff -c "ls -l $ARG_x"'),
    _c("c3/sg-command", True, f"sg staff {_SQ}"),
    _c("c3/setarch", True, f"setarch x86_64 -R {_SQ}"),
    _c("c3/setpriv", True, 'setpriv --no-new-privs "$ARG_x" --version'),
    _c("c3/fakeroot", True, 'fakeroot -- "$ARG_x" build'),
    _c("c3/ssh-agent", True, 'ssh-agent "$ARG_x"'),
    _c("c3/npx-c", True, 'npx -c "eslint $ARG_x"'),
    _c("c3/npx-package", True, f"npx {_SQ}"),
    _c("c3/gdb-args", True, f"gdb -batch -ex run --args {_SQ} --help"),
    _c("c3/gdb-ex", True, f"gdb -batch -ex {_SQ} ./app"),
    # GNU xargs -i, -l and -e take an *attached* optional argument: the
    # next word is the command
    _c("c3/xargs-i-optional", True, 'echo a | xargs -i "$ARG_x" {}'),
    _c("c3/xargs-l-optional", True, 'xargs -l "$ARG_x" < /dev/null'),
    _c("c3/xargs-e-optional", True, 'xargs -e "$ARG_x" echo < /dev/null'),
    # the remote shell reads the value as its script
    _c("c3/ssh-pipe-sh", True, "printf '%s\\n' \"$ARG_x\" | ssh backup sh"),
    _c("c3/ssh-pipe-login-shell", True, "printf '%s\\n' \"$ARG_x\" | ssh backup"),
    _c("c3/stdbuf", True, f"stdbuf -oL {_SQ} --version"),
    _c("c3/setsid", True, 'setsid -w "$ARG_x"'),
    # ---- safe twins: the wrapped command is the author's
    _c("c3/safe-runuser-u-fixed", False, 'runuser -u deploy -- ls -l -- "$ARG_x"'),
    _c("c3/safe-flock-fixed", False, 'flock app.lock ls -l -- "$ARG_x"'),
    _c("c3/safe-setpriv-fixed", False, 'setpriv --no-new-privs ls -l -- "$ARG_x"'),
    _c("c3/safe-su-c-constant", False, 'su deploy -c \'printf "%s\\n" "$ARG_x"\''),
    _c("c3/safe-xargs-0-fixed", False, "printf '%s\\0' \"$ARG_x\" | xargs -0 -n1 ls -ld --"),
    _c(
        "c3/safe-ssh-agent-fixed",
        False,
        'ssh-agent sh -c \'printf "%s\\n" "$1"\' _ "$ARG_x"',
    ),
    _c("c3/safe-ssh-pipe-data", False, "printf '%s\\n' \"$ARG_x\" | ssh backup wc -c"),
]

# ---------------------------------------------------------------- class 4
# Options: values that a program reads as an option (or that it evaluates
# although they are operands).
_C4: list[Case] = [
    # make treats an operand with `=` as an assignment, even after `--`
    _c("c4/make-dashdash-assign", True, 'make -- "$ARG_x"'),
    _c("c4/make-target", True, f"make {_SQ}"),
    # -j's argument is optional and attached: the next word is an option
    _c("c4/make-j", True, f"make -j {_SQ} all", x="DASH"),
    # perl -n/-p open ARGV with 2-arg open: `cmd|` runs cmd, `--` or not
    _c("c4/perl-n-open", True, "perl -ne 'print if /error/' -- \"$ARG_x\""),
    _c("c4/perl-p-open", True, "perl -pe 's/a/b/' {{ args.x | shellquote }}"),
    _c("c4/pytest-plugin-option", True, 'pytest -q "$ARG_x"', x="DASH"),
    _c("c4/pytest-junitxml-option", True, f"pytest -q tests/ {_SQ}", x="DASH"),
    _c("c4/git-show-s", True, 'git show -s "$ARG_x"', x="DASH"),
    _c("c4/git-ls-remote-t", True, 'git ls-remote -t "$ARG_x"', x="DASH"),
    Case(
        "c4/git-config-key",
        True,
        run="git config {{ args.k }} {{ args.v | shellquote }}\ngit status --short",
        args={"k": "P", "v": "S"},
    ),
    _c("c4/git-rebase-x", True, 'git rebase -x "$ARG_x" main'),
    _c("c4/git-rebase-upstream", True, f"git rebase {_SQ} main", x="DASH"),
    _c("c4/git-grep-O", True, f"git grep -n {_SQ} HEAD", x="DASH"),
    _c("c4/ssh-attached-o-then-host", True, 'ssh -oBatchMode=yes "$ARG_x" uptime', x="DASH"),
    _c("c4/ssh-o-attached-value", True, 'ssh -o"$ARG_x" backup true'),
    _c("c4/split-filter", True, f"split -l 1000 data.txt {_SQ}", x="DASH"),
    _c("c4/date-f", True, f"date -u {_SQ}", x="DASH"),
    _c("c4/wc-files0-from", True, 'wc -l "$ARG_x"', x="DASH"),
    _c("c4/rm-flag-before-value", True, 'rm -f "$ARG_x"', x="DASH"),
    _c("c4/unknown-program", True, 'mytool "$ARG_x"', x="DASH"),
    _c("c4/unknown-subcommand", True, f"othertool run {_SQ}", x="DASH"),
    _c("c4/tar-member-option", True, 'tar -xf data.tar -C out "$ARG_x"', x="DASH"),
    # ---- safe twins (several are false refusals the issue lists)
    _c("c4/safe-unknown-program-pattern", False, 'mytool "$ARG_x"', x="P"),
    _c("c4/safe-ssh-dashdash-host", False, 'ssh -- "$ARG_x" uptime', x="DASH"),
    # the value is -f's argument (a colon makes it a remote archive, read
    # through rsh: the archive, not a program, is the caller's)
    _c("c4/safe-tar-xzf", False, 'tar -xzf "$ARG_x" -C /srv/app', x="DASH"),
    _c("c4/safe-tar-member-dashdash", False, 'tar -xf data.tar -C out -- "$ARG_x"', x="DASH"),
    _c("c4/safe-printf-dashdash-format", False, 'printf -- "$ARG_x" x', x="DASH"),
    _c(
        "c4/safe-sed-replacement-digits",
        False,
        'sed -i "s/^version=.*/version={{ args.x }}/" app.conf',
        x="DIGITS",
    ),
    _c("c4/safe-eval-printf-q", False, 'eval "$(printf \'echo %q\' "$ARG_x")"'),
    Case(
        "c4/safe-git-config-enum-key",
        False,
        run="git config {{ args.k }} {{ args.v | shellquote }}\ngit status --short",
        args={"k": "GITKEY", "v": "S"},
    ),
    _c("c4/safe-git-grep-e", False, f"git grep -n -e {_SQ} -- .", x="DASH"),
    _c("c4/safe-make-target-pattern", False, "make -- {{ args.x }}", x="P"),
    # (not `pytest -- "$ARG_x"`: pytest imports a test file of the caller's choice)
    _c("c4/safe-pytest-dashdash-test-name", False, 'pytest -q -- "tests/test_$ARG_x.py"', x="P"),
    _c("c4/safe-split-prefix-dashdash", False, f"split -l 1000 -- data.txt {_SQ}", x="DASH"),
    _c("c4/safe-date-d", False, 'date -u -d "$ARG_x"', x="DASH"),
    _c("c4/safe-wc-dashdash", False, 'wc -l -- "$ARG_x"', x="DASH"),
    _c("c4/safe-rm-dashdash", False, 'rm -f -- "$ARG_x"', x="DASH"),
]

# ---------------------------------------------------------------- class 5
# A program read from stdin or from a file the step wrote.
_C5: list[Case] = [
    # second red-team pass (after the held-out set): programs from stdin by
    # a program-file option, stdin sourced, copies and tee'd files run later
    _c("c5/sed-f-dev-stdin", True, "printf '%s\\n' \"$ARG_x\" | sed -f /dev/stdin /etc/hostname"),
    _c("c5/awk-f-dash", True, "printf '%s\\n' \"$ARG_x\" | awk -f - /dev/null"),
    _c("c5/source-dev-stdin", True, '. /dev/stdin <<< "$ARG_x"'),
    _c("c5/tee-then-sh", True, "printf '%s\\n' \"$ARG_x\" | tee x.sh >/dev/null\nsh x.sh"),
    _c("c5/cp-context-then-source", True, 'cp "$HARBOR_CONTEXT" c.sh\n. ./c.sh'),
    _c("c5/jq-context-then-source", True, 'jq -r .arguments.x "$HARBOR_CONTEXT" > c.sh\n. ./c.sh'),
    _c("c5/mapfile-callback-eval", True, 'mapfile -C eval -c 1 arr <<< "$ARG_x"'),
    _c("c5/compgen-C", True, 'compgen -C "$ARG_x" x'),
    _c("c5/crontab-stdin", True, "printf '%s\\n' \"$ARG_x\" | crontab -"),
    _c("c5/append-bashrc", True, "printf '%s\\n' \"$ARG_x\" >> ~/.bashrc"),
    _c("c5/safe-sh-quoted-heredoc", False, "sh <<'EOF'\nprintf '%s\\n' \"$ARG_x\"\nEOF"),
    _c("c5/safe-sed-f-file", False, 'sed -f ./fix.sed -- "$ARG_x"'),
    # found by the template sweep (tests/check/sweep.py): a shellquoted value
    # printed with %s into a file, which is then sourced
    _c(
        "c5/printf-s-sq-into-sourced-file",
        True,
        "printf '%s\\n' {{ args.x | shellquote }} > f.sh\n. ./f.sh",
    ),
    _c("c5/bash-dev-stdin", True, "printf '%s\\n' \"$ARG_x\" | bash /dev/stdin"),
    _c("c5/python-dev-stdin", True, "printf '%s\\n' \"$ARG_x\" | python3 /dev/stdin"),
    _c("c5/exec-stdin-then-sh", True, 'exec <<<"$ARG_x"\nsh'),
    _c("c5/exec-fd-source", True, 'exec 3<<<"$ARG_x"\nsource /dev/fd/3'),
    _c("c5/function-runs-stdin", True, "run() { bash; }\nprintf '%s\\n' \"$ARG_x\" | run"),
    _c(
        "c5/coproc",
        True,
        'coproc SH { bash; }\nprintf \'%s\\n\' "$ARG_x" >&"${SH[1]}"\n'
        'exec {SH[1]}>&-\nwait "$SH_PID"',
    ),
    _c("c5/tee-procsubst", True, "printf '%s\\n' \"$ARG_x\" | tee >(bash) > /dev/null"),
    _c("c5/stdin-procsubst", True, "bash 0< <(printf '%s\\n' \"$ARG_x\")"),
    _c("c5/bash-s-heredoc", True, 'bash -s <<EOF\necho "$ARG_x"\nEOF'),
    _c("c5/source-written-file", True, "printf 'NAME=%s\\n' \"$ARG_x\" > vars.env\n. ./vars.env"),
    _c("c5/bash-written-file", True, "printf 'echo %s\\n' \"$ARG_x\" > h.sh\nbash h.sh"),
    _c("c5/heredoc-file-then-source", True, 'cat > cfg.sh <<EOF\nNAME="$ARG_x"\nEOF\n. ./cfg.sh'),
    _c("c5/dotenv-append-source", True, 'echo "TAG=$ARG_x" >> .env\nset -a\n. ./.env\nset +a'),
    _c("c5/python-heredoc-file", True, 'cat > job.py <<EOF\nprint("$ARG_x")\nEOF\npython3 job.py'),
    _c(
        "c5/awk-written-program",
        True,
        'printf \'BEGIN { print "%s" }\\n\' "$ARG_x" > prog.awk\nawk -f prog.awk',
    ),
    # ---- safe twins: the value is data on stdin, or written quoted
    _c("c5/safe-dev-stdin-data", False, "printf '%s\\n' \"$ARG_x\" | wc -c /dev/stdin"),
    _c(
        "c5/safe-written-file-cat", False, "printf 'NAME=%s\\n' \"$ARG_x\" > vars.env\ncat vars.env"
    ),
    _c(
        "c5/safe-source-printf-q",
        False,
        "printf 'NAME=%q\\n' \"$ARG_x\" > vars.env\n. ./vars.env\nprintf '%s\\n' \"$NAME\"",
    ),
    _c("c5/safe-bash-s-quoted-heredoc", False, "bash -s <<'EOF'\nprintf '%s\\n' \"$ARG_x\"\nEOF"),
    _c("c5/safe-function-data", False, "count() { wc -c; }\nprintf '%s' \"$ARG_x\" | count"),
    _c("c5/safe-tee-procsubst-wc", False, "printf '%s\\n' \"$ARG_x\" | tee >(wc -c) > /dev/null"),
]

# ---------------------------------------------------------------- class 6
# Command words the checker cannot resolve to a program.
_C6: list[Case] = [
    _c("c6/python-var-c", True, f'PYTHON=python3\n"$PYTHON" -c {_SQ}'),
    _c("c6/python-env-var-c", True, 'PY=${PY:-python3}\n"$PY" -c "print(\'$ARG_x\')"'),
    _c("c6/array-command", True, 'cmd=(bash -c)\n"${cmd[@]}" "$ARG_x"'),
    _c("c6/var-eval", True, 'run=eval\n$run "$ARG_x"'),
    _c("c6/alias-eval", True, 'shopt -s expand_aliases\nalias say=eval\nsay "$ARG_x"'),
    _c("c6/alias-bash-c", True, "shopt -s expand_aliases\nalias ll='bash -c'\nll \"$ARG_x\""),
    _c("c6/hash-p", True, 'hash -p /bin/bash ls\nls -c -- "$ARG_x"'),
    _c("c6/function-shadows-grep", True, 'grep() { eval "$1"; }\ngrep "$ARG_x" data.txt'),
    _c("c6/quoted-eval-name", True, '"ev"al "$ARG_x"'),
    _c("c6/escaped-eval-name", True, 'e\\val "$ARG_x"'),
    _c("c6/command-v-var", True, 'sh=$(command -v bash)\n"$sh" -c "$ARG_x"'),
    _c("c6/indexed-command", True, 'tools=(ls cat eval)\n${tools[2]} "$ARG_x"'),
    _c("c6/builtin-eval", True, 'builtin eval "$ARG_x"'),
    _c("c6/command-eval", True, 'command eval "$ARG_x"'),
    # ---- safe twins
    _c(
        "c6/safe-python-var-argv",
        False,
        'PYTHON=python3\n"$PYTHON" -c \'import sys; print(sys.argv[1])\' "$ARG_x"',
    ),
    _c("c6/safe-array-command", False, 'cmd=(ls -l --)\n"${cmd[@]}" "$ARG_x"'),
    _c("c6/safe-alias-ls", False, "shopt -s expand_aliases\nalias ll='ls -l --'\nll \"$ARG_x\""),
    _c("c6/safe-hash-p-ls", False, 'hash -p /bin/ls lister\nlister -l -- "$ARG_x"'),
    _c("c6/safe-var-printf", False, "run=printf\n$run '%s\\n' \"$ARG_x\""),
]

# ---------------------------------------------------------------- class 7
# Taint laundering: the value reaches a sink through a copy the checker may
# not follow.
_C7: list[Case] = [
    _c("c7/printf-v-eval", True, 'printf -v cmd \'echo %s\' "$ARG_x"\neval "$cmd"'),
    _c("c7/nameref-eval", True, 'declare -n r=ARG_x\neval "$r"'),
    _c("c7/indirect-eval", True, 'n=ARG_x\neval "${!n}"'),
    _c("c7/underscore-eval", True, ': "$ARG_x"\neval "$_"'),
    _c("c7/rematch-eval", True, '[[ $ARG_x =~ (.*) ]]\neval "${BASH_REMATCH[1]}"'),
    _c("c7/read-pipe-eval", True, 'printf \'%s\\n\' "$ARG_x" | { read -r v; eval "$v"; }'),
    _c("c7/mapfile-eval", True, 'mapfile -t lines <<<"$ARG_x"\neval "${lines[0]}"'),
    _c("c7/literal-eval-nested", True, "eval 'bash -c \"$ARG_x\"'"),
    _c("c7/file-copy-eval", True, 'printf \'%s\' "$ARG_x" > v.txt\nv=$(cat v.txt)\neval "$v"'),
    _c("c7/context-json-eval", True, 'v=$(jq -r .arguments.x "$HARBOR_CONTEXT")\neval "$v"'),
    _c("c7/context-json-sh-c", True, 'sh -c "$(jq -r .arguments.x "$HARBOR_CONTEXT")"'),
    _c("c7/function-output-eval", True, 'get() { printf \'%s\' "$ARG_x"; }\neval "$(get)"'),
    _c("c7/printenv-eval", False, 'v=$(printenv ARG_x)\neval "$v"'),
    _c("c7/read-array-command", True, 'read -ra words <<<"$ARG_x"\n"${words[@]}"'),
    _c("c7/env-cut-bash-c", False, "v=$(env | grep '^ARG_x=' | cut -d= -f2-)\nbash -c \"$v\""),
    # ---- safe twins
    _c("c7/safe-printf-v-q-eval", False, 'printf -v cmd \'echo %q\' "$ARG_x"\neval "$cmd"'),
    _c("c7/safe-literal-eval", False, 'eval \'printf "%s\\n" "$ARG_x"\''),
    _c(
        "c7/safe-mapfile-print",
        False,
        'mapfile -t lines <<<"$ARG_x"\nprintf \'%s\\n\' "${lines[@]}"',
    ),
    _c("c7/safe-context-jq-print", False, 'jq -r .arguments.x "$HARBOR_CONTEXT"'),
    _c("c7/safe-nameref-print", False, "declare -n r=ARG_x\nprintf '%s\\n' \"$r\""),
    _c(
        "c7/safe-rematch-print",
        False,
        "[[ $ARG_x =~ (.*) ]]\nprintf '%s\\n' \"${BASH_REMATCH[1]}\"",
    ),
]

# ---------------------------------------------------------------- class 8
# Sources the checker did not know were the caller's: clientInfo, the
# JSON-RPC id, the session header and a forwarded address
# (HARBOR_CALLER_CLIENT*, _REQUEST_ID, _SESSION, _REMOTE_ADDR), context.json,
# and step outputs (environment, context.json, the output file).
_OUT = 'printf \'v=%s\\n\' "$ARG_x" >> "$HARBOR_STEP_OUTPUT"'


def _two(case_id: str, dangerous: bool, second: str) -> Steps:
    return Steps(
        case_id,
        dangerous,
        args={"x": "S"},
        steps=({"name": "s1", "run": _OUT}, {"name": "s2", "run": second}),
    )


_C8: list[Case] = [
    # an interpreter program, written by the author, that runs the caller's
    # value it reads from the environment
    _c(
        "c8/python-os-system-env", False, "python3 -c 'import os; os.system(os.environ[\"ARG_x\"])'"
    ),
    _c("c8/awk-system-environ", False, "awk 'BEGIN { system(ENVIRON[\"ARG_x\"]) }'"),
    _c("c8/perl-system-env", False, "perl -e 'system($ENV{ARG_x})'"),
    _c(
        "c8/node-exec-env",
        False,
        "node -e 'require(\"child_process\").execSync(process.env.ARG_x)'",
    ),
    _c("c8/safe-python-print-env", False, "python3 -c 'import os; print(os.environ[\"ARG_x\"])'"),
    _c("c8/safe-awk-print-environ", False, "awk 'BEGIN { print ENVIRON[\"ARG_x\"] }'"),
    _c("c8/client-eval", True, 'eval "echo client: $HARBOR_CALLER_CLIENT"'),
    _c("c8/client-version-sh-c", True, 'sh -c "echo version $HARBOR_CALLER_CLIENT_VERSION"'),
    _c("c8/request-id-eval", True, 'eval "rid=$HARBOR_CALLER_REQUEST_ID"'),
    _c("c8/client-bash-c", True, 'bash -c "tag=$HARBOR_CALLER_CLIENT"'),
    _c("c8/request-id-arith", True, "echo $(( HARBOR_CALLER_REQUEST_ID + 1 ))"),
    _c("c8/client-heredoc-sh", True, "sh <<EOF\necho $HARBOR_CALLER_CLIENT\nEOF"),
    _c("c8/client-ssh-remote", True, 'ssh backup "echo $HARBOR_CALLER_CLIENT >> clients.log"'),
    # an unchecked Mcp-Session-Id header; X-Forwarded-For through a local proxy
    _c("c8/session-eval", True, 'eval "echo session $HARBOR_CALLER_SESSION"'),
    _c("c8/remote-addr-sh-c", True, 'sh -c "echo from $HARBOR_CALLER_REMOTE_ADDR"'),
    _c("c8/request-id-trap", True, 'trap "echo done $HARBOR_CALLER_REQUEST_ID" EXIT'),
    _c(
        "c8/context-client-sh-c",
        True,
        'c=$(jq -r .caller.client_name "$HARBOR_CONTEXT")\nsh -c "echo $c"',
    ),
    _two(
        "c8/step-output-context-eval", True, 'eval "$(jq -r .steps.s1.outputs.v "$HARBOR_CONTEXT")"'
    ),
    _two("c8/step-output-env-eval", True, 'eval "$STEP_s1_v"'),
    _two(
        "c8/step-output-file-bash-c",
        True,
        'v=$(sed -n \'s/^v=//p\' "$HARBOR_RUN_DIR"/steps/1-s1.output)\nbash -c "$v"',
    ),
    # ---- safe twins
    _c("c8/safe-client-print", False, "printf 'client=%s\\n' \"$HARBOR_CALLER_CLIENT\""),
    _c("c8/safe-request-id-log", False, 'echo "request $HARBOR_CALLER_REQUEST_ID" >> run.log'),
    _c("c8/safe-context-client-jq", False, 'jq -r .caller.client_name "$HARBOR_CONTEXT"'),
    _c("c8/safe-run-id-eval", False, 'eval "echo run $HARBOR_RUN_ID"'),
    _two("c8/safe-step-output-print", False, "printf '%s\\n' \"$STEP_s1_v\""),
]

# ---------------------------------------------------------------- class 9
# Arithmetic, and variables that select code.
_C9: list[Case] = [
    _c("c9/declare-i-later", True, 'declare -i n\nn="$ARG_x"\necho "$n"'),
    _c("c9/declare-i-later-sq", True, f'declare -i count=0\ncount={_SQ}\necho "$count"'),
    _c("c9/local-i-function", True, 'f() { local -i n; n=$1; echo "$n"; }\nf "$ARG_x"'),
    _c("c9/declare-ia-array", True, 'declare -ia nums\nnums=("$ARG_x")'),
    _c("c9/declare-i-append", True, 'declare -i total=1\ntotal+="$ARG_x"'),
    _c("c9/printf-v-arith", True, "printf -v n '%s' \"$ARG_x\"\necho $(( n + 1 ))"),
    # a name is evaluated recursively: the caller names a variable that holds
    # its own data (here the client name it claimed)
    _c("c9/arith-name-recursive", True, "echo $(( {{ args.x }} + 1 ))", x="IDENT"),
    _c("c9/var-name-recursive", True, "n={{ args.x }}\necho $(( n * 2 ))", x="IDENT"),
    # an integer without a minimum: -1 is every process, -N a process group
    Case("c9/kill-pid-no-minimum", True, run="kill -s TERM {{ args.pid }}", args={"pid": "I"}),
    Case(
        "c9/kill-pid-dashdash-no-minimum", True, run='kill -s TERM -- "$ARG_pid"', args={"pid": "I"}
    ),
    # a negative integer is an option to a program the checker cannot know
    Case("c9/int-option-position", True, run="mytool {{ args.n }}", args={"n": "I"}),
    # code-selecting variables: TAR_OPTIONS and ZIPOPT are split into options
    # (a leading blank gets past the leading-dash rule)
    _c("c9/tar-options", True, 'TAR_OPTIONS="--no-same-owner $ARG_x" tar -xf data.tar -C out'),
    _c(
        "c9/tar-options-export",
        True,
        f"export TAR_OPTIONS={_SQ}\ntar -xf data.tar -C out",
        x="DASH",
    ),
    _c("c9/zipopt", True, 'ZIPOPT="$ARG_x" zip -q out.zip data.txt'),
    # PS4 is expanded (command substitution included) for every traced line
    _c("c9/ps4-printf-v", True, "printf -v PS4 '%s' \"$ARG_x\"\nset -x\n: trace"),
    _c("c9/ps4-read", True, 'read -r PS4 <<<"$ARG_x"\nset -x\ntrue'),
    # literals that git hands to a shell again, where $ARG_x is expanded
    Steps(
        "c9/git-editor-env-literal",
        False,
        steps=(
            {
                "name": "s",
                "run": "git commit --allow-empty -q",
                "env": {"GIT_EDITOR": 'bash -c "$ARG_x"'},
            },
        ),
    ),
    Steps(
        "c9/git-ssh-command-env-literal",
        False,
        steps=(
            {
                "name": "s",
                "run": "git ls-remote ssh://backup/srv/repo.git",
                "env": {"GIT_SSH_COMMAND": 'ssh -o ProxyCommand="$ARG_x"'},
            },
        ),
    ),
    _c(
        "c9/git-c-literal-editor",
        False,
        "git -c core.editor='sh -c \"$ARG_x\" --' commit --allow-empty -q",
    ),
    # ---- safe twins
    Case(
        "c9/safe-kill-pid-minimum", False, run="kill -s TERM {{ args.pid }}", args={"pid": "POSINT"}
    ),
    Case("c9/safe-int-option-minimum", False, run="mytool {{ args.n }}", args={"n": "POSINT"}),
    Case(
        "c9/safe-declare-i-integer",
        False,
        run='declare -i n\nn={{ args.n }}\necho "$n"',
        args={"n": "I"},
    ),
    # `[`/test and printf %d parse integers, they do not evaluate arithmetic
    _c("c9/safe-test-eq", False, '[ "$ARG_x" -eq 1 ] 2>/dev/null && echo one || echo other'),
    _c("c9/safe-printf-d", False, "printf '%d\\n' \"$ARG_x\" 2>/dev/null || true"),
    _c("c9/safe-ps4-literal", False, "PS4='+ ${LINENO}: '\nset -x\nprintf '%s\\n' \"$ARG_x\""),
    _c(
        "c9/safe-git-editor-literal",
        False,
        'GIT_EDITOR=true git commit --allow-empty -q -m "$ARG_x"',
    ),
    _c(
        "c9/safe-tar-options-literal",
        False,
        'TAR_OPTIONS=--no-same-owner tar -xf data.tar -C out -- "$ARG_x"',
        x="DASH",
    ),
]

#: Every case, class by class.
ATTACKS17: list[Case] = [*_C1, *_C2, *_C3, *_C4, *_C5, *_C6, *_C7, *_C8, *_C9]

#: Values tried first for a case (before the general battery of
#: test_oracle.ATTACKS, which is tried on every arg at once).
PAYLOADS: dict[str, tuple[Payload, ...]] = {
    "c3/gdb-ex": _x("shell hbpwn"),
    "c4/make-dashdash-assign": _x("x:=$(shell hbpwn)"),
    "c4/make-target": _x("x:=$(shell hbpwn)"),
    "c4/make-j": _x("--eval=$(shell hbpwn)"),
    "c4/perl-n-open": _x("hbpwn|"),
    "c4/perl-p-open": _x("hbpwn|"),
    "c4/pytest-plugin-option": _x("-phbpwn"),
    "c4/pytest-junitxml-option": _x("--junitxml={MARKER}"),
    "c4/git-show-s": _x("--output={MARKER}"),
    "c4/git-config-key": (Payload({"k": "core.fsmonitor", "v": "hbpwn"}),),
    "c4/git-rebase-upstream": _x("--exec=hbpwn"),
    "c4/git-grep-O": _x("-Ohbpwn"),
    "c4/ssh-o-attached-value": _x("ProxyCommand=hbpwn"),
    "c4/split-filter": _x("--filter=hbpwn"),
    "c4/date-f": _x("-f{CANARY}"),
    "c4/wc-files0-from": _x("--files0-from={CANARY}"),
    "c4/tar-member-option": _x("--to-command=hbpwn"),
    "c5/python-heredoc-file": _x('");__import__("os").system("hbpwn");("'),
    "c9/arith-name-recursive": (
        Payload({"x": "HARBOR_CALLER_CLIENT"}, {"HARBOR_CALLER_CLIENT": "a[$(hbpwn)]"}),
    ),
    "c9/var-name-recursive": (
        Payload({"x": "HARBOR_CALLER_CLIENT"}, {"HARBOR_CALLER_CLIENT": "a[$(hbpwn)]"}),
    ),
    "c9/int-option-position": (Payload({"n": -1}),),
    "c9/tar-options": _x(" --to-command=hbpwn"),
    "c9/tar-options-export": _x("--to-command=hbpwn"),
    "c9/zipopt": _x(" -T -TT hbpwn"),
    # safe twins get the same kind of values, to show they stay inert
    "c4/safe-tar-xzf": _x("--use-compress-program=hbpwn", "--to-command=hbpwn"),
    "c4/safe-tar-member-dashdash": _x("--to-command=hbpwn"),
    "c4/safe-printf-dashdash-format": _x("-v PS4", "%s$(hbpwn)", "-vPS4"),
    "c4/safe-date-d": _x("-f{CANARY}", 'TZ="{CANARY}" now'),
    "c4/safe-wc-dashdash": _x("--files0-from={CANARY}"),
    "c4/safe-split-prefix-dashdash": _x("--filter=hbpwn"),
    "c4/safe-git-grep-e": _x("-Ohbpwn"),
    "c4/safe-git-config-enum-key": (
        Payload({"k": "user.name", "v": "$(hbpwn)"}),
        Payload({"k": "user.email", "v": "hbpwn"}),
        Payload({"k": "user.name", "v": "a;hbpwn"}),
    ),
    "c4/safe-sed-replacement-digits": _x("1.2.3", "0"),
    "c4/safe-make-target-pattern": _x("all", "clean"),
    "c9/safe-int-option-minimum": (Payload({"n": 1}), Payload({"n": 99999})),
    "c9/safe-declare-i-integer": (Payload({"n": -1}), Payload({"n": 7})),
    "c9/safe-tar-options-literal": _x("--to-command=hbpwn"),
}

#: Cases the sandbox never runs, with the reason.
NOT_EXERCISABLE: dict[str, str] = {
    "c5/cp-context-then-source": "not shown in the sandbox (its context.json, with every "
    "caller field set to the attack value, did not run as a script); "
    "c5/jq-context-then-source shows the same flow running a payload",
    "c5/crontab-stdin": "installs a cron job: it would run later, and only on a machine's cron",
    "c5/append-bashrc": "the payload runs when an interactive bash starts later, not in this run",
    "c9/kill-pid-no-minimum": "kill -s TERM -1 signals every process the sandbox user may signal",
    "c9/kill-pid-dashdash-no-minimum": "kill -s TERM -- -1: as above (`--` does not stop it)",
    "c9/safe-kill-pid-minimum": "kill -s TERM 1 would signal the machine's init; never run kill",
}

#: Safe templates the checker refuses on purpose, with the reason: each is a
#: place where the proof would need more than the checker reasons about, and
#: refusing is the sound answer (they count as false refusals; see
#: docs/security.md).
#: Cases that ran a payload while the runtime exported ``ARG_*`` to every
#: process, and are inert since it does not (issue 34, rule 1: a child's
#: environment holds no caller value): labelled safe since.
INERT_SINCE_NOT_EXPORTED = frozenset(
    {
        "c7/printenv-eval", "c7/env-cut-bash-c", "c8/python-os-system-env",
        "c8/awk-system-environ", "c8/perl-system-env", "c8/node-exec-env",
        "c9/git-editor-env-literal", "c9/git-ssh-command-env-literal", "c9/git-c-literal-editor",
    }
)  # fmt: skip
REFUSED_BY_DESIGN: dict[str, str] = {
    "c4/safe-tar-xzf": "tar -x of an archive the caller names, into a folder no run owns "
    "(/srv/app): the archive may be one the caller filled through another export (a "
    "temporary folder), and every export reads /srv/app as the author's (round fifty-three)",
    "c1/safe-unquoted-default-sq-raw": "echo ${NAME:-'…'} unquoted: NAME is not proven the "
    "author's, and a split word may start with - (echo -e decodes escapes)",
    "c5/safe-source-printf-q": "a file a step wrote is the caller's: sourcing it is refused "
    "(write it under $HARBOR_RUN_DIR and read the values, not source them)",
    "c7/printenv-eval": "eval of a program's output: not proven the author's (printenv finds "
    "no ARG_x since they are not exported)",
    "c7/env-cut-bash-c": "bash -c of a program's output: not proven the author's",
    "c9/git-editor-env-literal": "an env: literal naming a caller variable is refused, though "
    "git's editor no longer finds ARG_x in its environment",
    "c9/git-ssh-command-env-literal": "an env: literal naming a caller variable is refused, "
    "though ssh no longer finds ARG_x in its environment",
    "c1/safe-backslash-tab-hash-sq": "tree-sitter reads a comment where bash reads a word: "
    "any disagreement between the parsers is a refusal (H000)",
    "c6/safe-alias-ls": "aliases change what a command word means; the checker does not "
    "expand them",
    "c6/safe-hash-p-ls": "`hash -p` binds a command name to another program",
    # issue 34: a program without a grammar gets only clean data
    "c4/safe-unknown-program-pattern": "mytool has no grammar (a programs: entry describes it)",
    "c4/safe-git-config-enum-key": "git config has no grammar: a value is data or code "
    "depending on the key, which a grammar of positions cannot say",
    "c4/safe-make-target-pattern": "make has no grammar (recipes expand variables, operands "
    "NAME=VALUE are assignments)",
    "c4/safe-pytest-dashdash-test-name": "pytest has no grammar (a path operand chooses the "
    "test code that runs)",
    "c5/safe-sed-f-file": "sed's program is in a file the checker does not read: whether it "
    "runs its input as commands (e) is not known",
}

#: Dangerous cases shown by a file read (the canary's content in the output),
#: not by a program run.
LEAK_PROOF: frozenset[str] = frozenset({"c4/date-f", "c4/wc-files0-from"})


def class_of(case: Case) -> str:
    """``c1`` … ``c9``."""
    return case.id.split("/", 1)[0]
