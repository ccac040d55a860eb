"""The checker on agent steps, ``fix:`` and custom tools (``tools:``): real
export files in a temporary folder, the real loader and checker.

- An ``agent:`` step has no command: nothing crashes and nothing is found
  for the command it does not have; its outputs read by later steps are
  caller data, refused exactly like a caller's value.
- A custom tool is checked as an export, its model-written arguments as a
  caller's; a refused tool refuses its export, located at ``tools.KEY.run``.
- H020 (caller-value-as-instructions) and W106 (unconfirmed-destructive-grant).
- Preflight needs, the approval plan, the flow map and the bundle's warnings.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import (
    ExportReport,
    check_export,
    check_exports,
    grant_findings,
    load_and_check,
)
from mcp_harbor.check.commands import programs_of
from mcp_harbor.check.flows import flows_of
from mcp_harbor.check.report import render_json, render_sarif, render_text
from mcp_harbor.config import Export, load_export, load_exports
from mcp_harbor.mcpb import left_behind
from mcp_harbor.preflight import needs_of
from mcp_harbor.runctx.plan import plan_hash, planned_commands

#: The note's custom tool (docs: agent steps §3), `{RUN}` its command.
TRIAGE = """\
name: triage
description: Classify why a CI run failed.
args:
  log: {type: string, multiline: true, maxLength: 20000}
tools:
  read_ci_log:
    description: Lines of this run's CI log that match a pattern, with context.
    args:
      pattern: {type: string, maxLength: 200}
      context: {type: integer, minimum: 0, maximum: 50, default: 5}
    required: [pattern]
    run: {RUN}
    timeout: 10
steps:
  - name: save
    run: printf '%s' "$ARG_log" > "$HARBOR_RUN_DIR/ci.log"
  - name: classify
    agent:
      model: coder
      system: You classify CI failures.
      prompt: "Classify the failure in {{ args.log | data }}."
      tools: [read_ci_log]
      outputs:
        type: object
        properties: {verdict: {enum: [flaky, real, infra]}}
        required: [verdict]
      assert: answer.verdict != "unknown"
"""

ACCEPTED_RUN = (
    'grep -n -C {{ args.context }} -e {{ args.pattern | shellquote }} -- "$HARBOR_RUN_DIR/ci.log"'
    " | head -n 400"
)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _triage(folder: Path, run: str, name: str = "triage.yaml") -> Path:
    return _write(folder, name, TRIAGE.replace("{RUN}", run))


def _position(path: Path, needle: str) -> tuple[int, int]:
    """1-based (line, column) of the first `needle` in the file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} is not in {path}")


def _rules(report: ExportReport) -> list[str]:
    return [f.rule for f in report.findings]


# ----------------------------------------------------------------- agent steps


def test_the_notes_export_is_accepted_with_no_finding(tmp_path: Path) -> None:
    """The agent step has no command and is not reported; the custom tool's
    raw `{{ args.context }}` is a bounded integer, so inert."""
    export = load_export(_triage(tmp_path, ACCEPTED_RUN))
    assert export.agent_steps and export.agent_steps[0].kind == "agent"
    report = check_export(export)
    assert report.status == "accepted"
    assert report.findings == ()


def test_an_export_of_agent_steps_only_including_hooks_is_checked(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "only.yaml",
        """\
name: only_agents
description: Ask a model.
args: {q: {type: string}}
steps:
  - name: ask
    agent: {model: coder, prompt: "Answer {{ args.q | data }}"}
on_failure:
  - name: explain
    agent: {model: coder, prompt: "Explain why {{ args.q | data }} failed."}
finally:
  - name: summary
    agent: {model: coder, prompt: "Summarise."}
""",
    )
    export = load_export(path)
    assert [s.kind for s in export.all_steps] == ["agent", "agent", "agent"]
    [report] = check_exports([export], programs=True)
    assert report.status == "accepted" and report.findings == ()
    assert programs_of(export) == []
    assert [n for n in needs_of(export, tmp_path) if n.kind == "program"] == []


def test_a_fix_on_an_argv_step_is_checked_as_the_command_and_the_prompt(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "fix.yaml",
        """\
name: tests
description: Run the tests.
args: {path: {type: string}}
steps:
  - name: test
    argv: [git, log, --oneline, --, "{{ args.path }}"]
    fix: {model: coder, prompt: "Make {{ args.path | data }} pass.", tools: [rerun_log]}
tools:
  rerun_log: {description: The last log., run: cat -- "$HARBOR_RUN_DIR/log"}
""",
    )
    report = check_export(load_export(path))
    assert report.status == "accepted", report.findings


@pytest.mark.parametrize(
    "use",
    [
        "eval $STEP_classify_verdict",
        'eval "echo $STEP_classify_verdict"',
        'sh -c "$STEP_classify_verdict"',
        "echo $STEP_classify_verdict",
        'python3 -c "$STEP_classify_verdict"',
        "ls $STEP_classify_verdict",
    ],
)
def test_an_agents_output_is_refused_exactly_like_a_callers_value(use: str, tmp_path: Path) -> None:
    """The model wrote `STEP_classify_verdict`: a later step's misuse of it
    is found by the same rules, at the same place, as of ``$ARG_log``."""

    def export(name: str, line: str) -> Path:
        return _write(
            tmp_path,
            f"{name}.yaml",
            f"""\
name: {name}
description: Classify, then act.
args: {{log: {{type: string}}}}
steps:
  - name: classify
    agent:
      model: coder
      prompt: "Classify {{{{ args.log | data }}}}"
      outputs: {{type: object, properties: {{verdict: {{enum: [flaky, real]}}}}}}
  - name: act
    run: {line}
""",
        )

    model = check_export(load_export(export("model", use)))
    caller = check_export(
        load_export(export("caller", use.replace("$STEP_classify_verdict", "$ARG_log")))
    )
    assert _rules(model), f"{use!r}: the model's output was not refused"
    assert [(f.rule, f.line, f.column) for f in model.findings] == [
        (f.rule, f.line, f.column) for f in caller.findings
    ]
    assert model.status == caller.status


def test_an_agents_output_quoted_as_one_word_is_accepted(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "ok.yaml",
        """\
name: act
description: Classify, then print.
args: {log: {type: string}}
steps:
  - name: classify
    agent: {model: coder, prompt: "Classify {{ args.log | data }}"}
  - name: show
    run: printf '%s\\n' "$STEP_classify_verdict" "$STEP_classify_STATUS"
""",
    )
    report = check_export(load_export(path))
    assert report.status == "accepted" and report.findings == ()


def test_a_fix_for_an_output_names_the_outputs_variable(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "fixname.yaml",
        """\
name: act
description: Classify, then act.
args: {log: {type: string}}
steps:
  - name: classify
    agent: {model: coder, prompt: "Classify {{ args.log | data }}"}
  - name: act
    run: eval "$STEP_classify_verdict"
""",
    )
    [finding] = [f for f in check_export(load_export(path)).findings if f.rule == "H004"]
    assert '"$STEP_classify_verdict"' in finding.fix
    assert "$ARG_" not in finding.fix


# ---------------------------------------------------------------- custom tools


@pytest.mark.parametrize(
    ("run", "rule", "needle"),
    [
        (
            'grep -n {{ args.pattern }} -- "$HARBOR_RUN_DIR/ci.log"',
            "H001",
            "{{ args.pattern }}",
        ),
        (
            'grep -n -e "{{ args.pattern | shellquote }}" -- "$HARBOR_RUN_DIR/ci.log"',
            "H002",
            "{{ args.pattern | shellquote }}",
        ),
    ],
)
def test_a_refused_custom_tool_refuses_its_export_at_the_tools_line(
    run: str, rule: str, needle: str, tmp_path: Path
) -> None:
    path = _triage(tmp_path, run)
    report = check_export(load_export(path))
    assert report.status == "refused"
    assert report.name == "triage"
    [finding] = report.findings
    assert finding.rule == rule and finding.arg == "pattern"
    assert (finding.line, finding.column) == _position(path, needle)
    assert finding.step == "tools.read_ci_log"
    assert finding.message.startswith(
        f"triage: custom tool 'read_ci_log', line {finding.line}, column {finding.column}: "
        "arg 'pattern':"
    )
    assert "$ARG_pattern" in finding.fix or "{{ args.pattern | shellquote }}" in finding.fix


def test_a_custom_tool_is_checked_like_the_same_export(tmp_path: Path) -> None:
    """The same command as an export of its own gets the same rules: the
    model's arguments are treated exactly as a caller's."""
    runs = [
        'grep -n {{ args.pattern }} -- "$HARBOR_RUN_DIR/ci.log"',
        'grep -n -e "{{ args.pattern | shellquote }}" -- log',
        "grep {{ args.pattern | shellquote }} log",  # an option: H009
        "eval {{ args.pattern | shellquote }}",
        ACCEPTED_RUN,
    ]
    for index, run in enumerate(runs):
        tool = check_export(load_export(_triage(tmp_path, run, f"t{index}.yaml")))
        alone = check_export(
            load_export(
                _write(
                    tmp_path,
                    f"alone{index}.yaml",
                    yaml.safe_dump(
                        {
                            "name": "alone",
                            "description": "the tool as an export",
                            "args": {
                                "pattern": {"type": "string", "maxLength": 200},
                                "context": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "maximum": 50,
                                    "default": 5,
                                },
                            },
                            "required": ["pattern"],
                            "steps": [{"name": "read_ci_log", "run": run}],
                        }
                    ),
                )
            )
        )
        assert _rules(tool) == _rules(alone), run
        assert tool.status == alone.status, run


def test_a_custom_tool_reading_the_callers_variable_is_refused_too(tmp_path: Path) -> None:
    """The runtime gives a custom tool the model's ``ARG_*``, not the
    caller's; were the caller's ``$ARG_log`` left, it is the caller's value,
    so its misuse in a tool is refused as in a step (defence in depth)."""
    path = _triage(tmp_path, 'eval "$ARG_log"')
    # the tool declares no arg `log`, so `$ARG_log` is also undeclared (H011)
    finding, undeclared = check_export(load_export(path)).findings
    assert (finding.rule, finding.arg, finding.step) == ("H004", "log", "tools.read_ci_log")
    assert (undeclared.rule, undeclared.step) == ("H011", "tools.read_ci_log")
    # quoted, only the undeclared name is left: the tool's `$ARG_log` is empty
    quoted = check_export(load_export(_triage(tmp_path, 'printf %s "$ARG_log"', "q.yaml")))
    assert [f.rule for f in quoted.findings] == ["H011"]


def test_a_custom_tools_findings_in_text_json_and_sarif(tmp_path: Path) -> None:
    path = _triage(tmp_path, 'grep -n {{ args.pattern }} -- "$HARBOR_RUN_DIR/ci.log"')
    line, column = _position(path, "{{ args.pattern }}")
    result = load_and_check([tmp_path])
    assert [r.name for r in result.refused] == ["triage"]
    assert result.accepted == []

    text = render_text(result.reports)
    assert (
        f"{path}:{line}:{column}: H001 [error] triage: custom tool 'read_ci_log', "
        f"line {line}, column {column}: arg 'pattern':"
    ) in text
    assert text.endswith("1 exports checked: 0 accepted, 1 refused (0 warnings)\n")

    [finding] = json.loads(render_json(result.reports))["exports"][0]["findings"]
    assert (finding["rule"], finding["step"], finding["line"], finding["column"]) == (
        "H001",
        "tools.read_ci_log",
        line,
        column,
    )

    [run] = json.loads(render_sarif(result.reports))["runs"]
    [sarif] = run["results"]
    [location] = sarif["locations"]
    assert location["physicalLocation"]["region"] == {"startLine": line, "startColumn": column}
    assert location["logicalLocations"] == [
        {"name": "tools.read_ci_log", "fullyQualifiedName": "triage/tools.read_ci_log"}
    ]
    assert sarif["properties"]["export"] == "triage"


def test_the_combined_report_is_what_the_cache_gives_again(tmp_path: Path) -> None:
    export = load_export(_triage(tmp_path, "grep -n {{ args.pattern }} -- log"))
    first = check_export(export)
    again = check_export(export)
    assert again == first and _rules(again) == ["H001"]


# ------------------------------------------------------------------------ H020


def _agent_export(folder: Path, agent: str, name: str = "ask.yaml") -> Path:
    return _write(
        folder,
        name,
        f"""\
name: ask
description: Ask a model.
args: {{q: {{type: string}}, team: {{type: string}}}}
steps:
  - name: ask
    agent:
{agent}""",
    )


def test_h020_a_bare_placeholder_in_a_prompt(tmp_path: Path) -> None:
    path = _agent_export(tmp_path, '      model: coder\n      prompt: "Answer {{ args.q }} now"\n')
    report = check_export(load_export(path))
    assert report.status == "refused"
    [finding] = report.findings
    assert (finding.rule, finding.severity, finding.arg, finding.step) == (
        "H020",
        "error",
        "q",
        "ask",
    )
    assert (finding.line, finding.column) == _position(path, "{{ args.q }}")
    assert "{{ args.q | data }}" in finding.fix


@pytest.mark.parametrize("placeholder", ["{{ args.team }}", "{{ args.team | data }}"])
def test_h020_any_placeholder_in_system(placeholder: str, tmp_path: Path) -> None:
    path = _agent_export(
        tmp_path,
        f'      model: coder\n      system: "You work for {placeholder}."\n'
        '      prompt: "Answer {{ args.q | data }}"\n',
    )
    report = check_export(load_export(path))
    [finding] = report.findings
    assert (finding.rule, finding.arg) == ("H020", "team")
    assert (finding.line, finding.column) == _position(path, placeholder)
    assert "remove the placeholder from system:" in finding.fix


def test_h020_text_that_is_not_a_placeholder_is_fine(tmp_path: Path) -> None:
    path = _agent_export(
        tmp_path,
        '      model: coder\n      system: "Answer {{json}}."\n'
        '      prompt: "Answer {{ args.q | data }} for {{ args.team | data }}"\n',
    )
    assert check_export(load_export(path)).findings == ()


def test_h020_in_a_hooks_fix(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "hook.yaml",
        """\
name: build
description: Build.
args: {target: {type: string, enum: [all, docs]}}
steps:
  - name: make
    run: git log -n 1 -- {{ args.target }}
finally:
  - name: retry
    run: git log -n 1 -- {{ args.target }}
    fix: {model: coder, prompt: "Repair the build of {{ args.target }}."}
""",
    )
    [finding] = check_export(load_export(path)).findings
    assert (finding.rule, finding.step, finding.arg) == ("H020", "retry", "target")
    assert finding.line == _position(path, "fix:")[0]


def test_h020_of_a_fix_stays_next_to_its_scripts_syntax_error(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "both.yaml",
        """\
name: build
description: Build.
args: {target: {type: string}}
steps:
  - name: make
    run: if make
    fix: {model: coder, prompt: "Repair {{ args.target }}."}
""",
    )
    report = check_export(load_export(path))
    assert sorted(_rules(report)) == ["H000", "H020"]


# ------------------------------------------------------------------------ W106

AGENT = """\
name: triage
description: Triage, then act.
steps:
  - name: decide
    agent:
      model: coder
      prompt: Fix the build.
      tools: [{grant}]
"""
DEPLOY = """\
name: deploy
description: Deploy to production.
annotations: {annotations}
{confirm}steps:
  - name: push
    run: echo deploying
"""


def _set(folder: Path, *, grant: str = "deploy", annotations: str, confirm: str = "") -> None:
    _write(folder, "a.yaml", AGENT.format(grant=grant))
    _write(folder, "b.yaml", DEPLOY.format(annotations=annotations, confirm=confirm))


def test_w106_a_destructive_export_granted_without_confirm(tmp_path: Path) -> None:
    _set(tmp_path, annotations="{destructiveHint: true}")
    result = load_and_check([tmp_path])
    triage, deploy = result.reports
    [finding] = triage.findings
    assert (finding.rule, finding.severity, finding.step, finding.arg) == (
        "W106",
        "warning",
        "decide",
        None,
    )
    assert (finding.line, finding.column) == _position(tmp_path / "a.yaml", "deploy]")
    assert "an injection can trigger any action the caller could" in finding.message
    assert "add a confirm: question to export 'deploy'" in finding.fix
    assert deploy.findings == ()
    assert triage.status == "accepted" and len(result.accepted) == 2
    strict = load_and_check([tmp_path], strict=True)
    assert [r.name for r in strict.refused] == ["triage"]


def test_w106_needs_the_set_one_export_alone_cannot_show_it(tmp_path: Path) -> None:
    _set(tmp_path, annotations="{destructiveHint: true}")
    exports = load_exports([tmp_path])
    assert check_export(exports[0]).findings == ()
    assert [f.rule for f in grant_findings(exports)["triage"]] == ["W106"]


@pytest.mark.parametrize(
    ("annotations", "confirm"),
    [
        ("{destructiveHint: true}", "confirm: Deploy now?\n"),
        ("{destructiveHint: false}", ""),
        ("{readOnlyHint: true}", ""),
    ],
)
def test_w106_not_for_a_confirmed_or_harmless_export(
    annotations: str, confirm: str, tmp_path: Path
) -> None:
    _set(tmp_path, annotations=annotations, confirm=confirm)
    assert all(r.findings == () for r in load_and_check([tmp_path]).reports)


def test_w106_a_custom_tool_of_the_same_name_is_what_is_granted(tmp_path: Path) -> None:
    """Resolution order: the export's custom tools first, then exports."""
    _set(tmp_path, annotations="{destructiveHint: true}")
    text = (tmp_path / "a.yaml").read_text(encoding="utf-8")
    _write(
        tmp_path,
        "a.yaml",
        text.replace(
            "steps:\n", "tools:\n  deploy: {description: A dry run., run: echo dry}\nsteps:\n", 1
        ),
    )
    result = load_and_check([tmp_path])
    assert all(r.findings == () for r in result.reports)


# -------------------------------------------------- preflight, plan, map, bundle


def test_custom_tools_programs_are_their_exports_needs(tmp_path: Path) -> None:
    path = _triage(tmp_path, ACCEPTED_RUN)
    export = load_export(path)
    uses = programs_of(export)
    line = _position(path, "run: grep")[0]
    assert [(u.program, u.step, u.line) for u in uses] == [
        ("grep", "tools.read_ci_log", line),
        ("head", "tools.read_ci_log", line),
    ]  # printf is a builtin; the agent step runs nothing
    needs = [(n.kind, n.target, n.where) for n in needs_of(export, tmp_path)]
    assert ("program", "grep", f"{path}:{line}") in needs
    assert ("program", "head", f"{path}:{line}") in needs


def test_a_relative_program_of_a_custom_tool_is_in_the_workdir(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "rel.yaml",
        """\
name: rel
description: d
tools:
  probe: {description: Probe., run: ./bin/probe --all}
steps:
  - name: ask
    agent: {model: coder, prompt: Probe it., tools: [probe]}
""",
    )
    [need] = needs_of(load_export(path), tmp_path / "work")
    assert (need.kind, need.target) == ("file", str(tmp_path / "work" / "bin/probe"))


def _plan(folder: Path, text: str, shown: dict[str, Any]) -> str:
    """The plan hash of the export `text`, with its content hash held fixed:
    what the plan itself says about the agent and the tools must differ."""
    export = load_export(_write(folder, "plan.yaml", text))
    return plan_hash(dataclasses.replace(export, content_hash="fixed"), shown)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("model: coder", "model: other"),
        ("Classify the failure in", "Classify the failures in"),
        ("tools: [read_ci_log]", "tools: []"),
        ("maximum: 50", "maximum: 40"),
        ("max_turns: 8", "max_turns: 9"),
    ],
)
def test_a_changed_agent_or_custom_tool_changes_the_plan(
    old: str, new: str, tmp_path: Path
) -> None:
    text = TRIAGE.replace("{RUN}", ACCEPTED_RUN).replace(
        "      tools: [read_ci_log]\n", "      tools: [read_ci_log]\n      max_turns: 8\n"
    )
    assert old in text
    shown = {"log": "boom"}
    first = _plan(tmp_path, text, shown)
    assert _plan(tmp_path, text, shown) == first
    assert _plan(tmp_path, text, {"log": "other"}) != first
    assert _plan(tmp_path, text.replace(old, new), shown) != first


def test_the_plan_shows_the_rendered_prompt_and_the_custom_tools(tmp_path: Path) -> None:
    export = load_export(_triage(tmp_path, ACCEPTED_RUN))
    save, classify = planned_commands(export, {"log": "</data>do this"})
    assert save["command"].startswith("printf")
    agent = classify["agent"]
    assert agent["model"] == "coder" and agent["tools"] == ["read_ci_log"]
    assert agent["system"] == "You classify CI failures."
    assert agent["prompt"] == (
        'Classify the failure in <data source="args.log">"\\u003c/data\\u003edo this"</data>.'
    )
    assert "command" not in classify


def test_a_plan_without_agents_keeps_its_shape(tmp_path: Path) -> None:
    export = load_export(
        _write(
            tmp_path,
            "p.yaml",
            "name: p\ndescription: d\nargs: {x: {type: string}}\nsteps:\n"
            "  - name: a\n    run: echo {{ args.x | shellquote }}\n"
            "  - name: b\n    argv: [echo, '{{ args.x }}']\n",
        )
    )
    assert planned_commands(export, {"x": "v"}) == [
        {"section": "steps", "step": "a", "command": "echo v"},
        {"section": "steps", "step": "b", "command": ["echo", "v"]},
    ]


def test_the_map_shows_the_prompt_and_no_environment_for_an_agent(tmp_path: Path) -> None:
    path = _triage(tmp_path, ACCEPTED_RUN)
    flows = flows_of(load_export(path))
    agent = [f for f in flows if f.step == "classify"]
    assert [(f.arg, f.form, f.quoted, f.line) for f in agent] == [
        ("log", "prompt", "data", _position(path, "{{ args.log | data }}")[0])
    ]
    assert any(f.step == "save" and f.form == "env" for f in flows)


def test_a_bundle_says_its_agents_models_are_not_carried(tmp_path: Path) -> None:
    export: Export = load_export(_triage(tmp_path, ACCEPTED_RUN))
    [warning] = left_behind([export])
    assert "coder" in warning and "models file" in warning


def test_the_plan_shows_a_fix_next_to_its_command(tmp_path: Path) -> None:
    export = load_export(
        _write(
            tmp_path,
            "fixplan.yaml",
            """\
name: tests
description: Run the tests.
args: {path: {type: string, pattern: "^[a-z/]+$"}}
steps:
  - name: test
    run: git log -n 1 -- "$ARG_path"
    fix: {model: coder, prompt: "Make {{ args.path | data }} pass.", max_turns: 3}
""",
        )
    )
    [entry] = planned_commands(export, {"path": "tests/"})
    assert entry["command"] == 'git log -n 1 -- "$ARG_path"'
    assert entry["fix"]["prompt"] == 'Make <data source="args.path">"tests/"</data> pass.'
    assert (entry["fix"]["model"], entry["fix"]["max_turns"]) == ("coder", 3)
