"""Issue 4: ``mcp-harbor audit map`` — the static caller-to-command map.

For every export: who may call it, and for every arg each step, command and
argument position its value reaches (placeholder raw or shellquoted,
``"$ARG_x"``, an ``argv:`` element, hooks included), read off the checker's
parse. Run as the real CLI on export files the test writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harbor_helpers import harbor_cli, write_export

MAPPED = """\
name: mapped
description: Where do the values go?
allow: [alice, "group:ops"]
args:
  target: {type: string, pattern: "^[a-z]+$"}
  count: {type: integer, minimum: 1, maximum: 9, default: 3}
  token: {type: string, secret: true}
steps:
  - name: list
    run: |
      ls -l -- {{ args.target | shellquote }}
      head -n {{ args.count }} "$ARG_target"
      if [ "$ARG_count" -gt 2 ]; then echo many; fi
  - name: show
    argv: [echo, "--", "{{ args.target }}"]
finally:
  - name: tidy
    run: printf '%s\\n' "$ARG_token"
"""


def _reaches(entry: dict[str, Any], arg: str) -> set[tuple[Any, ...]]:
    return {
        (r["step"], r["phase"], r["command"], r["position"], r["quoted"], r["form"])
        for r in entry["args"][arg]["reaches"]
    }


def test_audit_map_names_who_may_call_and_where_each_value_goes(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "mapped.yaml", MAPPED)
    proc = harbor_cli("audit", "map", "--json", "--exports", str(exports))
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["exports"]
    assert entry["export"] == "mapped"
    assert entry["allow"] == ["alice", "group:ops"]
    assert entry["file"].endswith("mapped.yaml") and len(entry["content_hash"]) == 64
    assert _reaches(entry, "target") == {
        ("list", "steps", "ls", 3, "shellquote", "placeholder|shellquote"),
        ("list", "steps", "head", 3, "double-quoted", "$ARG"),
        ("show", "steps", "echo", 2, "argv element", "argv"),
    }
    assert _reaches(entry, "count") == {
        ("list", "steps", "head", 2, "raw", "placeholder"),
        ("list", "steps", "[ test ]", None, "double-quoted", "$ARG"),
    }
    assert _reaches(entry, "token") == {
        ("tidy", "finally", "printf", 2, "double-quoted", "$ARG"),
    }
    assert entry["args"]["token"]["secret"] is True
    assert {a["env"] for a in entry["args"].values()} == {"ARG_target", "ARG_count", "ARG_token"}
    lines = {r["line"] for r in entry["args"]["target"]["reaches"]}
    assert lines == {11, 12, 15}  # file lines of the two script lines and the argv


def test_audit_map_text_form_and_refused_exports(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "mapped.yaml", MAPPED)
    text = harbor_cli("audit", "map", "--exports", str(exports))
    assert text.returncode == 0, text.stderr
    assert "mapped  (allow: alice, group:ops)" in text.stdout
    assert "step show (steps), line 15: echo argument 2, argv element (argv)" in text.stdout
    # The map covers what the gate accepts: a refused export stops it like serve.
    write_export(exports, "bad.yaml", 'name: bad\ndescription: x\nargs: {q: {type: string}}\n'
                 'steps:\n  - name: s\n    run: eval "$ARG_q"\n')  # fmt: skip
    refused = harbor_cli("audit", "map", "--exports", str(exports), check=False)
    assert refused.returncode == 1
    assert "H004" in refused.stderr
