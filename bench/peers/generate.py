"""Generated, realistic configurations for the scale benchmark: N mcp-harbor
exports (2–3 steps, several typed args, ``"$ARG_x"`` and ``shellquote``
usage, every one accepted by the checker), and the same N tools as one
shellmcp YAML file."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

# Step shapes that the checker accepts; {repo}/{dir}/{i} are filled per export.
_RUN_STEPS = [
    'git -C /srv/{repo} log --oneline -n "$ARG_count" -- "$ARG_path"',
    'grep -rn -- "$ARG_pattern" /srv/{repo}/{dir} || true',
    'case "$ARG_mode" in\n  fast) make -C /srv/{repo} quick ;;\n'
    "  full) make -C /srv/{repo} all ;;\nesac",
    "tar -czf /tmp/{repo}-{i}.tgz -C /srv/{repo} -- {{{{ args.path | shellquote }}}}",
    'kubectl get pods -n {repo} -l app="$ARG_name"',
    "awk -v n=\"$ARG_count\" 'NR <= n' /srv/{repo}/data.csv",
    "python3 -c 'import sys; print(sys.argv[1].upper())' \"$ARG_name\"",
    "set -eu\ncd /srv/{repo}/{dir}\nfor f in *.log; do\n"
    '  grep -c -- "$ARG_pattern" "$f" || true\ndone',
    "echo $(( {{{{ args.count }}}} * 2 ))",
]
_ARGV_STEPS = [
    [
        "jq",
        "--arg",
        "q",
        "{{{{ args.name }}}}",
        ".items[] | select(.name == $q)",
        "/srv/{repo}/index.json",
    ],
    ["git", "-C", "/srv/{repo}", "status", "--short", "--", "{{{{ args.path }}}}"],
]
_ARGS = {
    "count": {
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
        "default": 10,
        "description": "How many lines",
    },
    "path": {
        "type": "string",
        "pattern": "[A-Za-z0-9_][A-Za-z0-9_./-]*",
        "description": "A path inside the repository",
    },
    "pattern": {"type": "string", "maxLength": 200, "description": "A search pattern"},
    "name": {"type": "string", "maxLength": 100, "description": "An app or item name"},
    "mode": {
        "type": "string",
        "enum": ["fast", "full"],
        "default": "fast",
        "description": "How thorough",
    },
}


def _exports(count: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        repo = f"repo{rng.randrange(10_000)}"
        fill = {"repo": repo, "dir": f"data{rng.randrange(100)}", "i": i}
        steps: list[dict[str, object]] = []
        for n in range(rng.choice((2, 3))):
            if rng.random() < 0.2:
                argv = [part.format(**fill) for part in rng.choice(_ARGV_STEPS)]
                steps.append({"name": f"s{n}", "argv": argv, "timeout": 60})
            else:
                steps.append({"name": f"s{n}", "run": rng.choice(_RUN_STEPS).format(**fill)})
        out.append(
            {
                "name": f"{repo}_task_{i}",
                "title": f"Task {i} on {repo}",
                "description": f"Generated export {i}: inspect {repo} (benchmark).",
                "args": _ARGS,
                "required": ["path", "name"],
                "timeout": 120,
                "annotations": {"readOnlyHint": True},
                "steps": steps,
            }
        )
    return out


def harbor_exports(folder: Path, count: int, seed: int = 7) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for export in _exports(count, seed):
        (folder / f"{export['name']}.yaml").write_text(yaml.safe_dump(export, sort_keys=False))
    return folder


def shellmcp_yaml(count: int, seed: int = 7) -> str:
    """The same tools for shellmcp: its ``cmd`` is one Jinja2 string, so the
    steps are joined with ``&&`` and ``"$ARG_x"`` becomes ``{{ x }}``."""
    tools = {}
    for export in _exports(count, seed):
        cmds = []
        for step in export["steps"]:  # type: ignore[attr-defined]
            text = step["run"] if "run" in step else " ".join(step["argv"])
            for name in _ARGS:
                text = text.replace(f'"$ARG_{name}"', f"{{{{ {name} }}}}")
                text = text.replace(f"{{{{ args.{name} | shellquote }}}}", f"{{{{ {name} }}}}")
                text = text.replace(f"{{{{ args.{name} }}}}", f"{{{{ {name} }}}}")
            cmds.append(text.replace("\n", "; "))
        tools[export["name"]] = {
            "cmd": " && ".join(cmds),
            "desc": export["description"],
            "args": [
                {
                    "name": n,
                    "help": s["description"],
                    "type": "number" if s["type"] == "integer" else "string",
                    **({"default": s["default"]} if "default" in s else {}),
                    **({"choices": s["enum"]} if "enum" in s else {}),
                }
                for n, s in _ARGS.items()
            ],
        }
    config = {
        "server": {"name": "scale", "desc": "scale benchmark", "version": "1.0.0"},
        "tools": tools,
    }
    return yaml.safe_dump(config, sort_keys=False)
