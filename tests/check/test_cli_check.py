"""`mcp-harbor check`: exit codes, the three formats, --strict, --explain."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcp_harbor.check import load_and_check
from mcp_harbor.check.rules import RULES
from mcp_harbor.cli import main
from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError

GOOD = """\
name: good
description: grep a pattern
args:
  q: {type: string}
steps:
  - name: search
    run: grep -rn -- "$ARG_q" .
"""
WARN = """\
name: warned
description: echo a value
args:
  f: {type: string, leading_dash: true}
steps:
  - name: show
    run: echo {{ args.f | shellquote }}
"""
BAD = """\
name: bad
description: greet
args:
  who: {type: string}
steps:
  - name: hello
    run: |
      echo "Hello {{ args.who | shellquote }}"
"""
BROKEN = "name: broken\ndescription: x\nsteps: [{name: s, run: }]\n"
UNPARSEABLE = """\
name: unparseable
description: x
args:
  x: {type: string}
steps:
  - name: s
    run: if true; then echo {{ args.x | shellquote }}
"""


def _folder(tmp_path: Path, **files: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def _run(*args: str) -> tuple[int, str]:
    runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80"})
    result = runner.invoke(main, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_accepted_exits_0(tmp_path: Path) -> None:
    code, out = _run(str(_folder(tmp_path, good=GOOD, warned=WARN)))
    assert code == 0
    assert "2 exports checked: 2 accepted, 0 refused (1 warnings)" in out
    assert "W101" in out


def test_strict_refuses_warnings(tmp_path: Path) -> None:
    code, out = _run("--strict", str(_folder(tmp_path, warned=WARN, good=GOOD)))
    assert code == 1
    assert "2 exports checked: 1 accepted, 1 refused (1 warnings, --strict)" in out


def test_strict_json_reports_the_strict_status(tmp_path: Path) -> None:
    folder = _folder(tmp_path, warned=WARN, good=GOOD, bad=BAD)
    code, out = _run("--format", "json", str(folder))
    assert code == 1
    lenient = {e["name"]: e["status"] for e in json.loads(out)["exports"]}
    assert lenient == {"bad": "refused", "good": "accepted", "warned": "accepted"}
    code, out = _run("--strict", "--format", "json", str(folder))
    assert code == 1
    strict = {e["name"]: e for e in json.loads(out)["exports"]}
    assert {n: e["status"] for n, e in strict.items()} == {
        "bad": "refused",
        "good": "accepted",
        "warned": "refused",
    }
    [finding] = strict["warned"]["findings"]
    assert (finding["rule"], finding["severity"]) == ("W101", "warning")


def test_strict_json_exit_0_when_no_warnings(tmp_path: Path) -> None:
    code, out = _run("--strict", "--format", "json", str(_folder(tmp_path, good=GOOD)))
    assert code == 0
    [export] = json.loads(out)["exports"]
    assert export["status"] == "accepted"


def test_refused_exits_1_and_json_shape(tmp_path: Path) -> None:
    folder = _folder(tmp_path, bad=BAD, good=GOOD)
    code, out = _run("--format", "json", str(folder))
    assert code == 1
    data = json.loads(out)
    by_name = {e["name"]: e for e in data["exports"]}
    assert by_name["good"]["status"] == "accepted"
    assert by_name["bad"]["status"] == "refused"
    [finding] = by_name["bad"]["findings"]
    assert finding == {
        "rule": "H002",
        "severity": "error",
        "confidence": RULES["H002"].confidence,
        "step": "hello",
        "line": 8,
        "column": 19,
        "arg": "who",
        "message": finding["message"],
        "fix": finding["fix"],
    }
    assert set(by_name["bad"]) == {"name", "file", "status", "findings"}


def test_unparseable_template_is_a_refused_export_not_a_load_error(tmp_path: Path) -> None:
    code, out = _run("--format", "json", str(_folder(tmp_path, u=UNPARSEABLE)))
    assert code == 1
    [export] = json.loads(out)["exports"]
    assert export["status"] == "refused"
    assert export["findings"][0]["rule"] == "H000"


def test_load_error_exits_2(tmp_path: Path) -> None:
    code, _ = _run(str(_folder(tmp_path, broken=BROKEN)))
    assert code == 2
    code, _ = _run(str(tmp_path / "missing"))
    assert code == 2


def test_sarif(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _folder(tmp_path, bad=BAD)
    monkeypatch.chdir(tmp_path)
    code, out = _run("--format", "sarif", "bad.yaml")
    assert code == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(RULES)
    [result] = run["results"]
    assert result["ruleId"] == "H002"
    assert result["level"] == "error"
    assert result["properties"]["confidence"] == RULES["H002"].confidence
    rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["properties"]["confidence"] == RULES["H002"].confidence
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "bad.yaml"
    assert location["region"] == {"startLine": 8, "startColumn": 19}


def test_default_path_is_exports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "exports").mkdir()
    _folder(tmp_path / "exports", good=GOOD)
    monkeypatch.chdir(tmp_path)
    code, out = _run()
    assert code == 0
    assert "1 exports checked" in out


def test_explain(tmp_path: Path) -> None:
    code, out = _run("--explain", "H002")
    assert code == 0
    assert out.startswith("H002 shellquote-in-quoted-context (error)")
    assert "## Use instead" in out
    code, _ = _run("--explain", "X999")
    assert code == 2


def test_gate_returns_only_accepted(tmp_path: Path) -> None:
    folder = _folder(tmp_path, bad=BAD, good=GOOD, warned=WARN)
    result = load_and_check([folder])
    assert sorted(e.name for e in result.accepted) == ["good", "warned"]
    assert [r.name for r in result.refused] == ["bad"]
    assert [r.name for r in result.reports] == ["bad", "good", "warned"]
    strict = load_and_check([folder], strict=True)
    assert [e.name for e in strict.accepted] == ["good"]
    broken = tmp_path / "broken"
    broken.mkdir()
    with pytest.raises(ConfigError):
        load_and_check([_folder(broken, broken=BROKEN)])


def test_shipped_exports_pass_strict() -> None:
    exports = Path(__file__).resolve().parents[2] / "exports"
    result = load_and_check([exports], strict=True)
    assert result.refused == []
    assert result.accepted


WRITER = """\
name: save_note
description: save a note in the working folder
args:
  name: {type: string, pattern: "^[A-Za-z0-9_.-]+$", within: "."}
  content: {type: string}
required: [name, content]
steps:
  - name: save
    run: printf '%s\\n' "$ARG_content" > "$ARG_name"
"""
READER = """\
name: json_one
description: print JSON with python
steps:
  - name: show
    run: python3 -c 'import json; print(json.dumps(1))'
"""
IN_RUN_DIR = WRITER.replace('> "$ARG_name"', '> "$HARBOR_RUN_DIR/note.txt"')


def test_an_export_writing_the_shared_folder_is_refused_when_another_reads_code_there(
    tmp_path: Path,
) -> None:
    """Each export alone is accepted; together, the writer's caller files
    would be python modules in the reader's calls (the folder is shared)."""
    alone = load_and_check([_folder(tmp_path / "w", save_note=WRITER)])
    assert [r.status for r in alone.reports] == ["accepted"]
    both = load_and_check([_folder(tmp_path / "both", save_note=WRITER, json_one=READER)])
    status = {r.name: r.status for r in both.reports}
    assert status == {"save_note": "refused", "json_one": "accepted"}
    finding = next(f for r in both.reports for f in r.findings if f.rule == "H012")
    assert "'json_one'" in finding.message and "$HARBOR_RUN_DIR" in finding.fix
    apart = load_and_check([_folder(tmp_path / "ok", save_note=IN_RUN_DIR, json_one=READER)])
    assert {r.status for r in apart.reports} == {"accepted"}


def test_an_error_of_the_checkers_own_refuses_that_export_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fail closed: a fault inside the analysis (injected here) refuses the
    export it hit, with a finding that says so, and the others are checked
    as usual; no exception leaves the checker."""
    import mcp_harbor.check as check

    good = tmp_path / "good.yaml"
    good.write_text("name: good\ndescription: d\nsteps:\n  - name: s\n    run: echo hi\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ndescription: d\nsteps:\n  - name: s\n    run: echo ho\n")
    real = check._draft

    def faulty(export: Any, *args: Any, **kwargs: Any) -> Any:
        if export.name == "bad":
            raise RuntimeError("injected")
        return real(export, *args, **kwargs)

    monkeypatch.setattr(check, "_draft", faulty)
    reports = check.Checker().check_exports([load_export(bad), load_export(good)])
    assert [r.status for r in reports] == ["refused", "accepted"]
    (finding,) = reports[0].findings
    assert "the checker failed while analysing this export (RuntimeError: injected)" in (
        finding.message
    )
