"""Checker throughput: templates per second, and the time to check 1,000
generated realistic exports, with and without the content-hash caches.

    python bench/bench_check.py [--exports 1000] [--seed 7]

"cold" clears every cache (reports and bash's readings) first; "warm bash
readings" keeps bash's readings of the scripts but re-analyses every export
(a server restart within one process, or edited files with unchanged scripts); "warm"
re-checks exports whose content hash is already known. Loading the YAML files
is timed separately.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import yaml

from mcp_harbor.check import check_exports, clear_cache
from mcp_harbor.config import load_exports

_STEPS = [
    "git -C {repo} log --oneline -n {{{{ args.count }}}} -- {{{{ args.path | shellquote }}}}",
    'grep -rn -- "$ARG_pattern" {dir}',
    "sh -c 'wc -l -- \"$1\"' _ {{{{ args.path | shellquote }}}}",
    "python3 -c 'import sys; print(sys.argv[1].upper())' {{{{ args.name | shellquote }}}}",
    "docker inspect -f '{{{{.State.Status}}}}' -- {{{{ args.name | shellquote }}}}",
    'set -eu\ncd {dir}\nfor f in *.log; do\n  grep -c -- "$ARG_pattern" "$f" || true\ndone',
    "jq --arg q \"$ARG_name\" '.items[] | select(.name == $q)' {dir}/index.json",
    "curl -fsS --max-time 10 --data-urlencode q={{{{ args.name | shellquote }}}} https://{host}/search",
    'case "$ARG_mode" in\n  fast) make -C {dir} quick ;;\n  full) make -C {dir} all ;;\nesac',
    "echo $(( {{{{ args.count }}}} * 2 ))",
    "cat <<EOF > {dir}/request.txt\nname: $ARG_name\nEOF",
    "tar -czf /tmp/{repo}.tgz -C {dir} -- {{{{ args.path | shellquote }}}}",
    'echo "{{{{ args.name | shellquote }}}}"',
    "kubectl get pods -n {repo} -l app={{{{ args.name | shellquote }}}}",
    "awk -v n={{{{ args.count }}}} 'NR <= n' {dir}/data.csv",
]
_ARGS = {
    "count": {"type": "integer", "minimum": 1, "maximum": 1000},
    "path": {"type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9_./-]*$"},
    "pattern": {"type": "string", "maxLength": 200},
    "name": {"type": "string"},
    "mode": {"type": "string", "enum": ["fast", "full"]},
}


def generate(folder: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for index in range(count):
        repo = f"repo{rng.randrange(10_000)}"
        values = {
            "repo": repo,
            "dir": f"/srv/{repo}/data{rng.randrange(100)}",
            "host": f"h{index}.example.com",
        }
        steps = [
            {"name": f"s{k}", "run": rng.choice(_STEPS).format(**values)}
            for k in range(rng.randint(1, 3))
        ]
        doc = {
            "name": f"tool_{index}",
            "description": f"generated export {index}",
            "args": _ARGS,
            "steps": steps,
        }
        (folder / f"e{index:04d}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--exports", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        generate(folder, options.exports, options.seed)
        started = time.perf_counter()
        exports = load_exports([folder])
        load_s = time.perf_counter() - started
        steps = sum(len(e.steps) for e in exports)
        rows = []
        clear_cache()
        started = time.perf_counter()
        reports = check_exports(exports)
        rows.append(("cold (no cache)", time.perf_counter() - started))
        from mcp_harbor.check import default_checker

        default_checker.forget_reports()
        started = time.perf_counter()
        check_exports(exports)
        rows.append(("warm bash readings", time.perf_counter() - started))
        started = time.perf_counter()
        check_exports(exports)
        rows.append(("warm (content hash)", time.perf_counter() - started))
    refused = sum(r.status == "refused" for r in reports)
    print(
        f"{len(exports)} exports, {steps} steps (templates), "
        f"{refused} refused; YAML load {load_s:.2f} s"
    )
    print(f"| {'run':<22} | {'time for all (s)':>16} | {'templates/s':>11} | {'exports/s':>9} |")
    print(f"|{'-' * 24}|{'-' * 18}|{'-' * 13}|{'-' * 11}|")
    for label, seconds in rows:
        print(
            f"| {label:<22} | {seconds:>16.3f} | {steps / seconds:>11,.0f} | "
            f"{len(exports) / seconds:>9,.0f} |"
        )


if __name__ == "__main__":
    main()
