#!/usr/bin/env python3
"""Writes attacks/INDEX.md from the attacks' .json files."""

import json, glob, os, collections

HERE = os.path.dirname(os.path.abspath(__file__))
A = os.path.join(HERE, "..", "attacks")
rows = []
cnt = collections.Counter()
for j in sorted(glob.glob(os.path.join(A, "*.json"))):
    d = json.load(open(j))
    cnt[d["class"]] += 1
    rows.append((os.path.basename(j)[:-5], d["class"], d["why"]))
desc = {
    "perl-argv-magic-open": "perl -n/-p/-a loops (`while (<>)`) open each operand with 2-argument open: an operand ending in `|` (admitted by `within:`) is run by /bin/sh. run: and argv: forms, after `--`.",
    "argv-step-in-written-workdir": "a run: step writes caller content to a caller path inside the working folder (W103 warning only); a later argv: step (docs: argv steps are not yet judged as working in a written folder) runs git (core.fsmonitor from .git/config), pytest (conftest.py), python3 -c (sys.path[0] shadowing), make (Makefile) or the author's script there.",
    "argv-write-then-run": "an argv: step (tar, unzip, cp, git apply) writes caller bytes into the working folder (docs: argv steps' writes are not counted); a later run: step runs git/python/pytest there.",
    "unquoted-split-option": "a list value split into words (unquoted `$ARG_x`, `${x//,/ }`, `read -a`, `set --`, `mapfile`/`while read` of a multiline value, `xargs -a`): the whole value cannot start with `-`, but a field can (tar --checkpoint-action, find -exec, sed -e/e command, zip -TT).",
    "object-arg-contents": "strings inside an `object` arg are not looked into for a leading dash; jq extracts them into find/sed/tar --files-from option positions.",
    "python-loader-runs-code": "a literal python program (no eval/exec/subprocess/pickle) with caller data as argv/stdin, but a library that runs data: yaml.Loader, Jinja2 templates, logging.config dictConfig `()` and fileConfig, tarfile/shutil extraction through a symlink to /proc/self/cwd (then git), getattr(os, name).",
    "secret-source-file-in-tree": 'the export\'s own `secrets: {file: .secrets/...}` (relative to the export folder, inside the working directory) is reachable by a `within: "."` path arg; od/xxd/base64/iconv print it in forms the verbatim scrubber misses.',
    "home-config-write": "a caller path below a literal folder of $HOME (W103 only; the write target is absolute, not the working folder) reaches ~/.gitconfig, ~/.config/git/config or ~/.jq; the next git/jq command runs the caller's config (and so does every later call of every export).",
    "glob-of-caller-names": "member names of an uploaded archive, extracted in the run directory and listed by a glob `*`, become tar/zip options.",
    "arithmetic-on-read-data": "fields `read` from an uploaded file reach bash arithmetic by name (`(( total += err ))`, `declare -i x; x+=$v`): the text is evaluated and `a[$(cmd)]` runs.",
    "secret-run-dir-file-by-path": "the secret is written to a file of the run directory (accepted by H010), and a caller path below a literal run-dir folder (`reports/../curl.cfg`) makes a dump step print it (base64, od -c).",
    "check-mode-runs-file": "programs used to *inspect* an uploaded file run it: `python3 -m pydoc FILE` imports it, `perl -c` runs BEGIN blocks.",
    "step-output-relay": "the caller's value relayed through `$HARBOR_STEP_OUTPUT` to a later step (unquoted split into tar options; perl -n magic open).",
}
with open(os.path.join(A, "INDEX.md"), "w") as f:
    f.write(
        "# blind34r4 attacks\n\n%d exports, each with its arguments in the .json of the same name. Every one was run with\n"
        "`tools/harness.py attack` (real bash and programs, rendered by hand from docs/exports.md) and fired\n"
        "(HARBOR-PWNED-42 printed or written, computed at run time) or leaked the planted secret in a form\n"
        "the verbatim scrubber misses (class names with `secret` are leaks). See `tools/run-attacks.txt`.\n\n"
        "## Classes\n\n| class | count | what |\n|---|---|---|\n" % len(rows)
    )
    for c, n in cnt.most_common():
        f.write(f"| {c} | {n} | {desc[c]} |\n")
    f.write("\n## Attacks\n\n| file | class | why |\n|---|---|---|\n")
    for n, c, w in rows:
        w = w.replace("|", "\\|")
        f.write(f"| {n} | {c} | {w} |\n")
print(dict(cnt), len(rows))
