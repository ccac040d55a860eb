"""Held-out templates, written after the checker was frozen (commit 56227a0)
and never used to tune it. Labels are ground truth from bash semantics.

The score at freeze time is recorded in `test_heldout.py`; misses found here
are kept (not fixed silently) so the number stays honest.
"""

from __future__ import annotations

from tests.check._harness import Case

HELDOUT: list[Case] = [
    # ---- safe
    Case("h/rg-dashdash", False, run='rg --no-heading -n -- "$ARG_x" src/'),
    Case("h/ls-long-dashdash", False, run="ls -la -- {{ args.x | shellquote }}"),
    Case("h/wc-env", False, run='wc -l -- "$ARG_x"'),
    Case("h/head-int", False, run="head -n {{ args.x }} /var/log/syslog", args={"x": "I"}),
    Case("h/tail-int-quoted", False, run='tail -n "{{ args.x }}" app.log', args={"x": "I"}),
    Case(
        "h/seq-int", False, run="for i in $(seq 1 {{ args.x }}); do echo $i; done", args={"x": "I"}
    ),
    Case(
        "h/curl-query-sq",
        False,
        run="curl -fsS -G --data-urlencode q={{ args.x | shellquote }} https://api.example.com/find",
    ),
    Case("h/git-show-p", False, run="git show --stat {{ args.x }}", args={"x": "P"}),
    Case("h/git-branch-dashdash", False, run="git branch --list -- {{ args.x | shellquote }}"),
    Case("h/docker-logs-enum", False, run="docker logs --tail 100 {{ args.x }}", args={"x": "E"}),
    Case(
        "h/systemctl-enum", False, run="systemctl status {{ args.x }} --no-pager", args={"x": "E"}
    ),
    Case(
        "h/sh-c-two-positional",
        False,
        run='sh -c \'cp -- "$1" "$2"\' sh {{ args.x | shellquote }} {{ args.y | shellquote }}',
        args={"x": "S", "y": "S"},
    ),
    Case(
        "h/python-env-read",
        False,
        run="python3 -c 'import os, json; print(json.dumps(os.environ[\"ARG_x\"]))'",
    ),
    Case("h/node-argv", False, run="node -e 'console.log(process.argv[1])' -- \"$ARG_x\""),
    Case(
        "h/jq-arg-file",
        False,
        run="jq --arg name \"$ARG_x\" '.[] | select(.name == $name)' data.json",
    ),
    Case("h/printf-quoted-var", False, run='msg="Deploying $ARG_x"\nprintf "%s\\n" "$msg"'),
    Case("h/if-test-eq", False, run='if [ "$ARG_x" = "yes" ]; then echo confirmed; fi'),
    Case(
        "h/case-glob",
        False,
        run='case "$ARG_x" in\n  *.tar.gz) echo tarball ;;\n  *) echo other ;;\nesac',
    ),
    Case(
        "h/heredoc-json",
        False,
        run='cat > payload.json <<EOF\n{"name": "$ARG_x"}\nEOF\ncurl -fsS -d @payload.json https://example.com/api',
    ),
    Case("h/arith-int-var", False, run="n={{ args.x }}\necho $(( n * 2 ))", args={"x": "I"}),
    Case(
        "h/while-read-file",
        False,
        run='while IFS= read -r line; do\n  printf "%s\\n" "$line"\ndone < input.txt',
    ),
    Case(
        "h/mkdir-p-filename",
        False,
        run="mkdir -p -- ./out/{{ args.x | shellquote }}",
        args={"x": "P"},
    ),
    Case("h/tr-stdin", False, run="printf '%s' \"$ARG_x\" | tr a-z A-Z"),
    Case("h/sed-fixed-program-data", False, run="printf '%s\\n' \"$ARG_x\" | sed 's/foo/bar/g'"),
    Case("h/awk-fixed-stdin", False, run="printf '%s\\n' \"$ARG_x\" | awk '{ print length($0) }'"),
    Case("h/base64", False, run="printf '%s' \"$ARG_x\" | base64"),
    Case("h/sqlite-param", False, run='sqlite3 app.db "select count(*) from users"'),
    Case("h/env-var-prefix-plain", False, run='TZ=UTC LC_ALL=C date -d "$ARG_x" +%s'),
    Case(
        "h/timeout-sh-c-pos",
        False,
        run="timeout 30 sh -c 'ping -c 1 -- \"$1\"' _ {{ args.x | shellquote }}",
    ),
    Case(
        "h/argv-curl",
        False,
        argv=["curl", "-fsS", "--", "https://example.com/{{ args.x }}"],
        args={"x": "P"},
    ),
    Case("h/argv-wc", False, argv=["wc", "-c", "--", "{{ args.x }}"]),
    Case(
        "h/argv-bash-c-pos",
        False,
        argv=["bash", "-c", 'printf "%s\\n" "$1"', "bash", "{{ args.x }}"],
    ),
    Case("h/argv-jq-arg", False, argv=["jq", "-n", "--arg", "v", "{{ args.x }}", "$v"]),
    Case(
        "h/bool-flag", False, run='if [ "{{ args.x }}" = true ]; then echo on; fi', args={"x": "B"}
    ),
    Case(
        "h/int-sleep-timeout", False, run="timeout {{ args.x }} sleep 100 || true", args={"x": "I"}
    ),
    Case("h/echo-sq-affix", False, run="echo prefix-{{ args.x | shellquote }}-suffix"),
    Case("h/array-append", False, run='files=()\nfiles+=("$ARG_x")\nls -l -- "${files[@]}"'),
    Case(
        "h/local-in-function",
        False,
        run='show() {\n  local value="$1"\n  printf "%s\\n" "$value"\n}\nshow "$ARG_x"',
    ),
    Case("h/stat-format", False, run="stat -c '%s %n' -- {{ args.x | shellquote }}"),
    Case("h/diff-two", False, run='diff -u -- "$ARG_x" "$ARG_y"', args={"x": "S", "y": "S"}),
    # ---- dangerous
    Case("h/d-echo-dq-sq", True, run='echo "Searching for {{ args.x | shellquote }}..."'),
    Case("h/d-grep-raw", True, run="grep -rn {{ args.x }} ."),
    Case("h/d-curl-raw-dq", True, run='curl -fsS "https://example.com/?q={{ args.x }}"'),
    Case("h/d-ssh-cmd", True, run="ssh deploy@host systemctl restart {{ args.x | shellquote }}"),
    Case("h/d-bash-c-dq", True, run='bash -lc "cd /srv && git checkout $ARG_x"'),
    Case("h/d-eval-sq", True, run="eval echo {{ args.x | shellquote }}"),
    Case(
        "h/d-python-fstring",
        True,
        run="python3 -c \"import json; print(json.dumps('{{ args.x | shellquote }}'))\"",
    ),
    Case("h/d-node-dq", True, run='node -e "console.log(\\"$ARG_x\\")"'),
    Case("h/d-perl-pie", True, run="perl -pi -e 's/foo/{{ args.x | shellquote }}/' file.txt"),
    Case("h/d-awk-program-concat", True, run="awk '/'{{ args.x | shellquote }}'/ { print }' file"),
    Case("h/d-sed-concat", True, run="sed -i 's/old/'\"$ARG_x\"'/g' config.ini"),
    Case("h/d-jq-concat", True, run="jq '.items[] | select(.id == \"'\"$ARG_x\"'\")' data.json"),
    Case(
        "h/d-sqlite-concat", True, run="sqlite3 app.db \"delete from users where name = '$ARG_x'\""
    ),
    Case("h/d-mysql-e", True, run='mysql -e "select * from t where id = $ARG_x"'),
    Case("h/d-command-var", True, run='tool="$ARG_x"\n$tool --version'),
    Case("h/d-exec", True, run="exec {{ args.x | shellquote }}"),
    Case("h/d-xargs-cmd", True, run="printf '%s\\0' a b | xargs -0 {{ args.x | shellquote }}"),
    Case(
        "h/d-find-exec-sh-dq",
        True,
        run='find . -name "*.txt" -exec sh -c "cat {} | grep $ARG_x" \\;',
    ),
    Case("h/d-git-clone-env", True, run='git clone "$ARG_x" repo', args={"x": "D"}),
    Case("h/d-rsync-src", True, run='rsync -a "$ARG_x" /backup/', args={"x": "D"}),
    Case("h/d-scp", True, run="scp {{ args.x | shellquote }} backup:/srv/", args={"x": "D"}),
    Case("h/d-arith-env", True, run="echo $(( ARG_x * 2 ))"),
    Case("h/d-let-sq", True, run="let total={{ args.x | shellquote }}+1"),
    Case("h/d-array-index", True, run='arr=(a b c)\necho "${arr[$ARG_x]}"'),
    Case("h/d-export-ld", True, run='export LD_LIBRARY_PATH="$ARG_x"\n./app'),
    Case("h/d-pythonpath", True, run='PYTHONPATH="$ARG_x" python3 app.py'),
    Case("h/d-editor", True, run='EDITOR="$ARG_x" git commit'),
    Case("h/d-source-env", True, run='. "$ARG_x"'),
    Case("h/d-pipe-bash", True, run="curl -fsS {{ args.x | shellquote }} | bash"),
    Case("h/d-heredoc-python-unquoted", True, run="python3 <<EOF\nprint('$ARG_x')\nEOF"),
    Case("h/d-heredoc-sq-body", True, run="cat > notes.txt <<EOF\n{{ args.x | shellquote }}\nEOF"),
    Case("h/d-backtick-sq", True, run="echo `basename {{ args.x | shellquote }}`"),
    Case("h/d-printf-fmt-env", True, run='printf "$ARG_x\\n"', args={"x": "D"}),
    Case("h/d-declare-nameref", True, run='declare -n ref="$ARG_x"\necho "$ref"'),
    Case("h/d-unset", True, run='unset "$ARG_x"'),
    Case("h/d-trap-sq", True, run="trap 'echo done' EXIT\ntrap {{ args.x | shellquote }} INT"),
    Case("h/d-nested-dq", True, run="bash -c 'sh -c \"echo $1\"' _ {{ args.x | shellquote }}"),
    Case("h/d-argv-node-e", True, argv=["node", "-e", "{{ args.x }}"]),
    Case("h/d-argv-ssh", True, argv=["ssh", "host", "ls", "{{ args.x }}"]),
    Case("h/d-argv-sh-c-concat", True, argv=["sh", "-c", "ls {{ args.x }}"]),
    Case("h/d-argv-perl-e", True, argv=["perl", "-e", "print '{{ args.x }}'"]),
    # Relabelled safe (session of issue 17): `-f` takes the next word whatever
    # it is; `tar -xf --to-command=… a.tar` opens an archive of that name
    # (checked with GNU tar 1.34), so the value is never an option here.
    Case("h/argv-tar-f-value", False, argv=["tar", "-xf", "{{ args.x }}"], args={"x": "D"}),
    Case("h/d-enum-with-semicolon-raw", True, run="{{ args.x }} status", args={"x": "S"}),
    Case("h/d-watch-env", True, run='watch -n 1 "ls $ARG_x"'),
    Case("h/d-sudo-env-cmd", True, run='sudo -u app "$ARG_x" --migrate'),
]
