"""The working folder is the caller's once a step may put caller data in it
(docs/security.md §7): multi-step exports, ``run:`` and ``argv:`` steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_harbor.check import check_export
from mcp_harbor.check.grammars import is_language
from mcp_harbor.config import load_export

WRITE = """\
name: t
description: t
args:
  path: {type: string, within: "."}
  content: {type: string}
required: [path, content]
steps:
  - name: save
    run: printf '%s\\n' "$ARG_content" > "$ARG_path"
"""
KEEP = WRITE.replace('> "$ARG_path"', '> "$HARBOR_RUN_DIR/saved.txt"')


def _rules(tmp_path: Path, text: str) -> set[str]:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    report = check_export(load_export(path))
    return {f.rule for f in report.findings if f.severity == "error"}


@pytest.mark.parametrize(
    ("step", "rule"),
    [
        ("  - name: show\n    argv: [python3, -c, 'import json; print(1)']\n", "H012"),
        ("  - name: show\n    argv: [sh, scripts/report.sh]\n", "H004"),
        ("  - name: show\n    argv: [./bin/report]\n", "H004"),
        ("  - name: show\n    run: git status --short\n", "H012"),
        ("  - name: show\n    run: make -s html\n", "H012"),
        ("  - name: show\n    run: . ./.env\n", "H004"),
    ],
)
def test_a_later_step_that_reads_code_there_is_refused(
    step: str, rule: str, tmp_path: Path
) -> None:
    assert rule in _rules(tmp_path, WRITE + step)
    assert rule not in _rules(tmp_path, KEEP + step)  # kept in the run directory


def test_a_secret_file_a_caller_path_can_name_is_refused(tmp_path: Path) -> None:
    secret = "secrets:\n  TOKEN: {file: .secrets/token}\n"
    assert "H010" in _rules(tmp_path, WRITE + secret)
    absolute = "secrets:\n  TOKEN: {file: /run/secrets/token}\n"
    assert "H010" not in _rules(tmp_path, WRITE + absolute)


def test_uniqs_second_operand_is_its_output(tmp_path: Path) -> None:
    """``uniq - FILE`` writes FILE (the ``-`` is its input, an operand)."""
    uniq = WRITE.replace(
        'printf \'%s\\n\' "$ARG_content" > "$ARG_path"',
        'printf \'%s\\n\' "$ARG_content" | uniq - "$ARG_path"',
    )
    assert "H012" in _rules(tmp_path, uniq + "  - name: show\n    run: git status --short\n")


def test_a_programs_entry_cannot_make_makes_operands_data(tmp_path: Path) -> None:
    """make's operands NAME:=$(shell …) are its language: a `programs:`
    entry that says otherwise is not taken."""
    make = (
        "name: t\ndescription: t\nprograms:\n  make: {runs_operands: false}\n"
        "args:\n  target: {type: string}\nrequired: [target]\n"
        'steps:\n  - name: dry\n    run: make -n -s "$ARG_target"\n'
    )
    assert "H012" in _rules(tmp_path, make)


def test_a_module_of_its_own_is_not_judged_by_its_own_writes(tmp_path: Path) -> None:
    """``python3 -m mkdocs build --site-dir site/VERSION`` writes after it has
    started, as any program does: not against itself. A language's program
    text that writes (``python3 -c 'open(…, "w")…'``) is: a later run of the
    same command would load what it wrote."""
    assert not is_language("python3", ["-m", "mkdocs", "build"])
    assert not is_language("python3", ["scripts/build.py"])
    assert is_language("python3", ["-c", "print(1)"])
    assert is_language("perl", ["-MFoo", "-e", "print 1"])
    module = """\
name: t
description: t
args:
  version: {type: string, pattern: "^[0-9]+\\\\.[0-9]+$"}
required: [version]
steps:
  - name: build
    run: python3 -m mkdocs build --site-dir "site/$ARG_version"
"""
    assert _rules(tmp_path, module) == set()
    text = module.replace(
        'python3 -m mkdocs build --site-dir "site/$ARG_version"',
        'python3 -c \'import sys; open(sys.argv[1], "w").write("x"); import json\' "$ARG_version"',
    ).replace("^[0-9]+", "^[a-z]+")
    assert "H012" in _rules(tmp_path, text)  # json.py, say


def test_helms_read_only_subcommands_write_no_file(tmp_path: Path) -> None:
    """helm status/history/get values with the caller's release write no
    file, so a later git step works in a folder no step wrote; helm's
    ``--template`` is a Go template, code."""
    helm = """\
name: t
description: t
args:
  release: {type: string, pattern: "^[a-z0-9-]{1,53}$"}
required: [release]
steps:
  - name: status
    run: helm status "$ARG_release" --namespace apps
  - name: values
    argv: [helm, get, values, "{{ args.release }}", --namespace, apps, --output, yaml]
  - name: show
    run: git status --short
"""
    assert _rules(tmp_path, helm) == set()
    template = helm.replace("--output, yaml]", '--template, "{{ args.release }}"]')
    assert "H009" in _rules(tmp_path, template)  # the value of an option that is code


@pytest.mark.parametrize(
    ("pattern", "written"),
    [
        ("^[0-9]+\\\\.[0-9]+\\\\.[0-9]+(-rc\\\\.[0-9]+)?$", False),  # a version: no file of its own
        ("^[0-9]{8}$", False),  # a date
        ("^[a-z0-9._-]+$", True),  # may be json.py, conftest.py, Makefile
        ("^[0-9][a-z0-9/._-]*$", True),  # may reach another folder: 1/../json.py
        ("^[0-9][a-z0-9_.]*$", True),  # 1_test.py, which pytest collects; 1.go, 1.mk
    ],
)
def test_a_value_that_can_name_no_file_leaves_the_folder_unwritten(
    pattern: str, written: bool, tmp_path: Path
) -> None:
    """An in-house program (described, not known) given the caller's value
    may write anything; the folder is the caller's only when the value can
    name or fill a file of its own."""
    text = f"""
name: t
description: t
args:
  version: {{type: string, pattern: "{pattern}"}}
required: [version]
programs:
  ./scripts/deploy.sh: {{options_with_value: [--version], runs_operands: false}}
steps:
  - name: deploy
    run: ./scripts/deploy.sh --version "$ARG_version"
  - name: show
    run: git status --short
"""
    assert ("H012" in _rules(tmp_path, text)) == written


def test_docker_and_kubectl_subcommands_that_write_no_file(tmp_path: Path) -> None:
    """docker tag/push and kubectl port-forward with the caller's names write
    no file in the folder: a later git step is accepted."""
    text = """\
name: t
description: t
args:
  tag: {type: string, pattern: "^[a-z0-9][a-z0-9._-]{0,40}$"}
required: [tag]
steps:
  - name: push
    run: |
      docker tag "app:$ARG_tag" "registry.example.com/app:$ARG_tag"
      docker push "registry.example.com/app:$ARG_tag"
      kubectl port-forward -n apps "svc/app-$ARG_tag" 19090:9090 > "$HARBOR_RUN_DIR/pf.log" 2>&1 &
      kill %1
  - name: show
    run: git status --short
"""
    assert _rules(tmp_path, text) == set()


def test_a_custom_tool_and_the_steps_share_the_folder(tmp_path: Path) -> None:
    """An agent step runs its custom tools in the export's folder: a tool
    that may put the model's data there makes it the caller's for the
    export's steps (and a step that may, for the tools)."""
    text = """\
name: t
description: t
args:
  issue: {type: string}
required: [issue]
tools:
  write_file:
    description: Write a file of the project.
    args:
      path: {type: string, within: "."}
      content: {type: string}
    required: [path, content]
    run: printf '%s\\\\n' "$ARG_content" > "$ARG_path"
steps:
  - name: fix
    agent:
      model: coder
      prompt: "Fix: {{ args.issue | data }}"
      tools: [write_file]
  - name: validate
    run: python3 -c 'import json; print(1)'
"""
    assert "H012" in _rules(tmp_path, text)
    kept = text.replace('> "$ARG_path"', '> "$HARBOR_RUN_DIR/out.txt"')
    assert "H012" not in _rules(tmp_path, kept)
