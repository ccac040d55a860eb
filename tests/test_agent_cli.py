"""Agent steps on the command line: ``--models``/``--skills``, ``tools`` and
``check --preflight`` naming a model without a ready source, ``call``
showing each turn and tool call as progress, ``audit show RUN --tree`` and
the grant edges of ``audit map``.

Every command is the real CLI (``python -m mcp_harbor``) in a subprocess;
the model is the scripted OpenAI-compatible server (tests/scripted_model.py)
on loopback, which the ``serve`` subprocess of ``call`` reaches too.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import harbor_cli, write_export
from scripted_model import ScriptedModel

TRIAGE = """\
name: triage_failure
description: Classify why a command failed.
args:
  log: {type: string, multiline: true, maxLength: 20000}
tools:
  read_ci_log:
    description: Lines of the log that match a pattern.
    args:
      pattern: {type: string, maxLength: 200, pattern: "[A-Za-z0-9 _.-]+"}
      context: {type: integer, minimum: 0, maximum: 50, default: 5}
    required: [pattern]
    run: grep -n -C {{ args.context }} -e {{ args.pattern | shellquote }} "$HARBOR_RUN_DIR/ci.log"
    timeout: 10
steps:
  - name: save
    run: printf '%s' "$ARG_log" > "$HARBOR_RUN_DIR/ci.log"
  - name: classify
    agent:
      model: coder
      system: You classify CI failures.
      prompt: "Classify this failure. Log: {{ args.log | data }}"
      tools: [read_ci_log, word_count]
      outputs:
        type: object
        properties: {verdict: {enum: [flaky, real, infra]}}
        required: [verdict]
"""

WORD_COUNT = """\
name: word_count
description: Count the words of a text.
args:
  text: {type: string, maxLength: 200}
steps:
  - name: count
    run: printf '%s' "$ARG_text" | wc -w
"""

#: The model's side: three tool calls in turn 1 (one with arguments the
#: custom tool's schema refuses, one of a tool not granted, one that runs),
#: one granted export in turn 2, then the answer.
SCRIPT: list[dict[str, Any]] = [
    {
        "expect": {"tools": ["read_ci_log", "word_count"], "last_role": "user"},
        "respond": {
            "tool_calls": [
                {"id": "c1", "name": "read_ci_log", "arguments": {"pattern": "; rm -rf ~"}},
                {"id": "c2", "name": "deploy", "arguments": {"env": "prod"}},
                {"id": "c3", "name": "read_ci_log", "arguments": {"pattern": "AssertionError"}},
            ]
        },
    },
    {
        "expect": {"last_role": "tool", "tool_call_id": ["c1", "c2", "c3"]},
        "respond": {
            "tool_calls": [{"id": "c4", "name": "word_count", "arguments": {"text": "a b c"}}]
        },
    },
    {
        "expect": {"last_role": "tool", "tool_call_id": "c4", "contains": ["3"]},
        "respond": {"content": '{"verdict": "real"}'},
    },
]


def _exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    write_export(folder, "triage.yaml", TRIAGE)
    write_export(folder, "word_count.yaml", WORD_COUNT)
    return folder


def _models_file(tmp_path: Path, base_url: str) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(
        f"endpoints:\n  local: {{base_url: '{base_url}'}}\n"
        "models:\n  coder:\n    primary: {endpoint: local, model: m1}\n",
        encoding="utf-8",
    )
    return path


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unreachable(tmp_path: Path) -> Path:
    return _models_file(tmp_path, f"http://127.0.0.1:{_closed_port()}/v1")


UNREACHABLE = "model coder: primary local unreachable (connection refused)"


# --- --models, --skills --------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["tools"],
        ["check"],
        ["serve"],
        ["run", "triage_failure", "log=x"],
        ["call", "triage_failure", "log=x"],
    ],
)
def test_a_bad_models_file_is_one_line_naming_file_and_line(
    tmp_path: Path, command: list[str]
) -> None:
    exports = _exports(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "endpoints: {local: {base_url: 'http://127.0.0.1:9/v1'}}\n"
        "models:\n  coder: {primary: {endpoint: local, model: m1}, tempo: 1}\n",
        encoding="utf-8",
    )
    where = (
        ["check", str(exports)] if command == ["check"] else [*command, "--exports", str(exports)]
    )
    proc = harbor_cli(*where, "--models", str(bad), state=tmp_path / "state", check=False)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{bad}:3: unknown key 'tempo'"), proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_models_file_may_come_from_the_environment(tmp_path: Path) -> None:
    exports = _exports(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("endpoints: {}\nmodels: []\n", encoding="utf-8")
    proc = harbor_cli(
        "tools",
        "--exports",
        str(exports),
        state=tmp_path / "state",
        check=False,
        MCP_HARBOR_MODELS=str(bad),
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"{bad}:2:"), proc.stderr


def test_a_skills_path_that_is_not_a_directory_is_refused(tmp_path: Path) -> None:
    exports = _exports(tmp_path)
    proc = harbor_cli(
        "tools",
        "--exports",
        str(exports),
        "--skills",
        str(tmp_path / "no-such-dir"),
        state=tmp_path / "state",
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "no-such-dir: not a directory" in proc.stderr
    assert "Traceback" not in proc.stderr


# --- tools, check --preflight ----------------------------------------------------


def test_tools_lists_an_export_whose_model_is_unreachable_as_unavailable(tmp_path: Path) -> None:
    exports, models = _exports(tmp_path), _unreachable(tmp_path)
    args = ("tools", "--exports", str(exports), "--models", str(models))
    text = harbor_cli(*args, state=tmp_path / "state", COLUMNS="200").stdout
    assert "1 unavailable" in text
    row = next(line for line in text.splitlines() if "triage_failure" in line)
    assert UNREACHABLE in row
    entries = json.loads(harbor_cli(*args, "--json", state=tmp_path / "state").stdout)["tools"]
    by_name = {e["name"]: e for e in entries}
    assert by_name["word_count"]["available"] is True
    assert by_name["triage_failure"]["available"] is False
    assert by_name["triage_failure"]["reason"] == UNREACHABLE


def test_tools_without_a_models_file_says_so(tmp_path: Path) -> None:
    exports = _exports(tmp_path)
    out = harbor_cli("tools", "--exports", str(exports), "--json", state=tmp_path / "state")
    entry = next(e for e in json.loads(out.stdout)["tools"] if e["name"] == "triage_failure")
    assert entry["available"] is False
    assert entry["reason"] == "model coder: this server has no models file (--models FILE)"


def test_call_of_an_export_not_offered_says_why(tmp_path: Path) -> None:
    """The server answers an export it does not offer as unknown; the
    command line says why it is not offered, not that allow: refused it."""
    exports, models = _exports(tmp_path), _unreachable(tmp_path)
    for extra, why in (
        ((), "this server has no models file"),
        (("--models", str(models)), UNREACHABLE),
    ):
        proc = harbor_cli(
            "call",
            "--exports",
            str(exports),
            *extra,
            "triage_failure",
            "log=boom",
            state=tmp_path / "state",
            check=False,
        )
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "triage_failure: not offered now: model coder: " in proc.stderr
        assert why in proc.stderr and "allow:" not in proc.stderr


def test_check_preflight_names_the_model_without_a_ready_source(tmp_path: Path) -> None:
    exports, models = _exports(tmp_path), _unreachable(tmp_path)
    proc = harbor_cli(
        "check",
        str(exports),
        "--preflight",
        "--models",
        str(models),
        state=tmp_path / "state",
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert f"preflight: triage_failure: {UNREACHABLE}" in proc.stderr.splitlines()
    assert "preflight: 1 of 2 accepted exports ready" in proc.stderr


def test_check_preflight_with_a_ready_model(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> None:
    model = scripted_model(scripts={"m1": SCRIPT})
    exports, models = _exports(tmp_path), _models_file(tmp_path, model.base_url)
    proc = harbor_cli(
        "check", str(exports), "--preflight", "--models", str(models), state=tmp_path / "state"
    )
    assert "preflight: 2 of 2 accepted exports ready" in proc.stderr
    assert model.mismatches == []


# --- call: progress; audit show: the tree ---------------------------------------------


def _called(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> tuple[Any, ScriptedModel, Path]:
    model = scripted_model(scripts={"m1": SCRIPT})
    exports, models = _exports(tmp_path), _models_file(tmp_path, model.base_url)
    proc = harbor_cli(
        "call",
        "--exports",
        str(exports),
        "--models",
        str(models),
        "--json",
        "triage_failure",
        "log=collecting\nE   AssertionError: boom\n1 failed",
        state=tmp_path / "state",
        timeout=120,
    )
    assert model.mismatches == []
    return proc, model, tmp_path / "state"


def test_call_shows_each_turn_and_tool_call_as_it_happens(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> None:
    proc, _model, _state = _called(tmp_path, scripted_model)
    assert json.loads(proc.stdout)["status"] == "ok"
    prefix = "triage_failure: classify (2/2): "
    shown = [line[len(prefix) :] for line in proc.stderr.splitlines() if line.startswith(prefix)]
    assert shown == [
        "turn 1: read_ci_log, deploy, read_ci_log",
        "read_ci_log: invalid",
        "deploy: unknown",
        "read_ci_log: ok",
        "turn 2: word_count",
        "word_count: ok",
        "turn 3: answer",
    ], proc.stderr


def test_audit_show_prints_the_run_as_a_tree(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> None:
    proc, _model, state = _called(tmp_path, scripted_model)
    run_id = json.loads(proc.stdout)["run_id"]
    db = str(state / "mcp-harbor" / "harbor.db")
    text = harbor_cli("audit", "show", run_id, "--tree", "--db", db).stdout.splitlines()
    assert text[0].startswith(f"{run_id} triage_failure: ok")
    assert text[1].startswith("  model coder: primary local m1 (judged ")
    assert text[2].startswith("  step 1 save: ok, exit 0")
    assert text[3].startswith("  step 2 classify: ok") and text[3].endswith(
        ", agent coder (primary local m1)"
    )
    body = "\n".join(text)
    assert '      c1 read_ci_log {"pattern": "; rm -rf ~"}\n' in body
    assert "        -> triage_failure.read_ci_log: invalid [call " in body
    assert '      c2 deploy {"env": "prod"}\n        -> deploy: unknown [call ' in body
    assert ": not granted to this agent step" in body
    assert "    finish: goal, 3 turn(s), 4 tool call(s)" in body
    assert '    answer: {"verdict": "real"}' in text
    turn_lines = [line.strip() for line in text if line.startswith("    turn ")]
    assert [line.split(" (")[0] for line in turn_lines] == ["turn 1", "turn 2", "turn 3"]
    assert turn_lines[2].endswith("answer (stop)")

    data = json.loads(harbor_cli("audit", "show", run_id, "--json", "--db", db).stdout)
    assert data["call_id"] == run_id and data["status"] == "ok"  # the call, as before
    tree = data["tree"]
    agent_step = tree["steps"][1]
    assert agent_step["name"] == "classify" and agent_step["agent"]["finish_reason"] == "goal"
    assert agent_step["answer"] == {"text": '{"verdict": "real"}', "source": "transcript"}
    turns = agent_step["turns"]
    assert [t["turn"] for t in turns] == [1, 2, 3]
    assert all(t["model"] == "m1" and t["prompt_tokens"] is not None for t in turns)
    calls = {
        c["tool_call_id"]: c
        for t in turns
        for tool_call in t["tool_calls"]
        for c in tool_call["calls"]
    }
    assert {k: (c["tool"], c["status"]) for k, c in calls.items()} == {
        "c1": ("triage_failure.read_ci_log", "invalid"),
        "c2": ("deploy", "unknown"),
        "c3": ("triage_failure.read_ci_log", "ok"),
        "c4": ("word_count", "ok"),
    }
    assert all(c["turn"] == (2 if k == "c4" else 1) for k, c in calls.items())
    assert tree["unplaced"] == []
    # The tool calls are calls of their own: audit show reads each one too.
    own = json.loads(harbor_cli("audit", "show", calls["c4"]["call_id"], "--db", db).stdout)
    assert own["tool"] == "word_count" and own["tree"]["steps"][0]["name"] == "count"


def test_audit_show_does_not_show_the_answer_of_a_changed_transcript(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> None:
    proc, _model, state = _called(tmp_path, scripted_model)
    envelope = json.loads(proc.stdout)
    transcript = Path(envelope["steps"][1]["agent"]["transcript_log"])
    transcript.write_text(
        transcript.read_text().replace('\\"real\\"', '\\"flaky\\"'), encoding="utf-8"
    )
    db = str(state / "mcp-harbor" / "harbor.db")
    text = harbor_cli("audit", "show", envelope["run_id"], "--tree", "--db", db).stdout
    assert (
        "    answer: not shown: the transcript changed since the run (its SHA-256 differs)"
        in text.splitlines()
    )
    assert "flaky" not in text


def test_run_shows_the_same_progress(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> None:
    model = scripted_model(scripts={"m1": SCRIPT})
    exports, models = _exports(tmp_path), _models_file(tmp_path, model.base_url)
    proc = harbor_cli(
        "run",
        "--exports",
        str(exports),
        "--models",
        str(models),
        "triage_failure",
        "log=E   AssertionError: boom",
        state=tmp_path / "state",
        timeout=120,
    )
    assert model.mismatches == []
    lines = proc.stderr.splitlines()
    assert "triage_failure: classify (2/2): turn 1: read_ci_log, deploy, read_ci_log" in lines
    assert "triage_failure: classify (2/2): read_ci_log: invalid" in lines
    assert "triage_failure: classify (2/2): word_count: ok" in lines


def test_call_passes_the_skills_directory_on_to_its_server(
    tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> None:
    skill = tmp_path / "skills" / "flaky-tests"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: flaky-tests\ntitle: Telling flaky tests apart\n"
        "trigger: a test failed once\n---\nRun it three times.\n",
        encoding="utf-8",
    )
    script = [
        {
            "expect": {
                "tools": ["read_ci_log", "word_count", "skill_get"],
                "system_contains": ["flaky-tests: Telling flaky tests apart"],
            },
            "respond": {
                "tool_calls": [
                    {"id": "s1", "name": "skill_get", "arguments": {"name": "flaky-tests"}}
                ]
            },
        },
        {
            "expect": {"last_role": "tool", "contains": ["Run it three times."]},
            "respond": {"content": '{"verdict": "flaky"}'},
        },
    ]
    model = scripted_model(scripts={"m1": script})
    exports, models = _exports(tmp_path), _models_file(tmp_path, model.base_url)
    proc = harbor_cli(
        "call",
        "--exports",
        str(exports),
        "--models",
        str(models),
        "--skills",
        str(tmp_path / "skills"),
        "--json",
        "triage_failure",
        "log=x",
        state=tmp_path / "state",
        timeout=120,
    )
    assert model.mismatches == []
    assert json.loads(proc.stdout)["status"] == "ok"
    assert "triage_failure: classify (2/2): skill_get: ok" in proc.stderr.splitlines()
    db = str(tmp_path / "state" / "mcp-harbor" / "harbor.db")
    run_id = json.loads(proc.stdout)["run_id"]
    text = harbor_cli("audit", "show", run_id, "--tree", "--db", db).stdout
    assert "        -> skill_get: ok (meta-tool) [call " in text


def test_audit_show_tree_and_json_are_one_output(tmp_path: Path) -> None:
    proc = harbor_cli(
        "audit", "show", "x", "--tree", "--json", "--db", str(tmp_path / "db"), check=False
    )
    assert proc.returncode == 2
    assert "--tree and --json" in proc.stderr


# --- audit map: grant edges -----------------------------------------------------------


def test_audit_map_shows_the_grant_edges(tmp_path: Path) -> None:
    exports = _exports(tmp_path)
    data = json.loads(harbor_cli("audit", "map", "--exports", str(exports), "--json").stdout)
    entry = next(e for e in data["exports"] if e["export"] == "triage_failure")
    edges = [(g["step"], g["as"], g["model"], g["kind"], g["tool"]) for g in entry["grants"]]
    assert edges == [
        ("classify", "agent", "coder", "custom", "triage_failure.read_ci_log"),
        ("classify", "agent", "coder", "export", "word_count"),
    ]
    custom = entry["grants"][0]["args"]
    assert {(r["command"], r["quoted"]) for r in custom["pattern"]["reaches"]} == {
        ("grep", "shellquote")
    }
    assert entry["grants"][1]["published"] is True
    other = next(e for e in data["exports"] if e["export"] == "word_count")
    assert other["grants"] == []
    text = harbor_cli("audit", "map", "--exports", str(exports)).stdout
    assert (
        "  grant: step classify (steps, agent coder) -> custom tool triage_failure.read_ci_log"
        in text
    )
    assert "    model value pattern: line " in text
    assert "  grant: step classify (steps, agent coder) -> export word_count" in text
