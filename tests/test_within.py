"""Issue 19, ``within:``: a path arg resolves (``..``, symlinks, through its
longest existing prefix) to its folder or inside it, or the call is refused
before anything runs. On real folders and symlinks under ``tmp_path``:
`mcp_harbor.within.resolve` against `os.path.realpath`, the edge cases one by
one, the loader's checks of the keyword, the published schema, and the real
`ArgumentValidator` (messages, arrays, secrets, defaults, steps with
``cwd:``)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import write_export

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.check import check_export
from mcp_harbor.config import Export, load_export
from mcp_harbor.config.model import HARBOR_ARG_KEYWORDS
from mcp_harbor.errors import ArgumentError, ConfigError
from mcp_harbor.within import MAX_SYMLINKS, Confinement, is_inside, resolve


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """``work/`` (the working directory) with a folder, a file, symlinks
    pointing in and out, a dangling one and a loop; ``outside/`` beside it."""
    work = tmp_path / "work"
    (work / "sub" / "deeper").mkdir(parents=True)
    (work / "file.txt").write_text("x")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (work / "out").symlink_to(outside)  # absolute target, outside
    (work / "out_rel").symlink_to("../outside")  # relative target, outside
    (work / "in").symlink_to("sub")  # stays inside
    (work / "sub" / "up").symlink_to("../..")  # sub/up -> tmp_path: outside
    (work / "dangling").symlink_to(outside / "not-yet")  # a file that may be created
    (work / "loop_a").symlink_to("loop_b")
    (work / "loop_b").symlink_to("loop_a")
    (work / "self").symlink_to("self")
    return work


# -- resolve ------------------------------------------------------------------

AGREES_WITH_REALPATH = [
    ".",
    "",
    "sub",
    "sub/",
    "sub//deeper/.",
    "./sub/../file.txt",
    "..",
    "../..",
    "../outside/secret.txt",
    "sub/deeper/../../../outside",
    "out",
    "out/",
    "out/secret.txt",
    "out_rel/secret.txt",
    "in/deeper",
    "sub/up",
    "sub/up/work/file.txt",
    "dangling",
    "missing",
    "missing/more/",
    "file.txt/below",  # a file where a folder should be
    "/etc",
    "/",
    "//etc//passwd",
    "/../../etc",
]


@pytest.mark.parametrize("path", AGREES_WITH_REALPATH)
def test_resolve_agrees_with_realpath(tree: Path, path: str) -> None:
    expected = os.path.realpath(os.path.join(tree, path))
    assert resolve(path, tree) == expected


def test_a_missing_component_keeps_the_rest_as_written(tree: Path) -> None:
    # the longest existing prefix is resolved (out -> outside), the rest kept
    assert resolve("out/new/file", tree) == str(tree.parent / "outside" / "new" / "file")
    # ".." after a missing component goes back to where the path was
    assert resolve("missing/../../outside", tree) == str(tree.parent / "outside")


@pytest.mark.parametrize("path", ["loop_a", "self", "loop_a/x", "sub/../self/"])
def test_a_symlink_loop_cannot_be_resolved(tree: Path, path: str) -> None:
    with pytest.raises(OSError) as caught:
        resolve(path, tree)
    assert caught.value.errno == errno.ELOOP


def test_forty_symlinks_resolve_and_forty_one_do_not(tmp_path: Path) -> None:
    (tmp_path / "l0").mkdir()
    for i in range(1, MAX_SYMLINKS + 2):
        (tmp_path / f"l{i}").symlink_to(f"l{i - 1}")
    assert resolve(f"l{MAX_SYMLINKS}", tmp_path) == str(tmp_path / "l0")
    with pytest.raises(OSError):
        resolve(f"l{MAX_SYMLINKS + 1}", tmp_path)


def test_a_base_reached_through_a_symlink_is_resolved(tree: Path) -> None:
    alias = tree.parent / "alias"
    alias.symlink_to(tree)
    assert resolve("sub", alias) == str(tree / "sub")
    assert resolve(".", alias) == str(tree)


def test_a_relative_base_is_taken_from_the_current_directory(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree.parent)
    assert resolve("sub", "work") == str(tree / "sub")


def test_values_that_cannot_be_encoded_are_kept_as_written(tree: Path) -> None:
    assert resolve("\ud800/x", tree) == f"{tree}/\ud800/x"
    assert resolve("a\x00b", tree) == f"{tree}/a\x00b"  # the validator refuses NUL first


def test_is_inside() -> None:
    assert is_inside("/srv/repo", "/srv/repo")
    assert is_inside("/srv/repo/a", "/srv/repo")
    assert not is_inside("/srv/repository", "/srv/repo")  # a prefix is not a parent
    assert not is_inside("/srv", "/srv/repo")
    assert is_inside("/anything", "/")


# -- Confinement --------------------------------------------------------------


def problems(value: Any, work: Path, folder: str = ".", **kw: Any) -> list[str]:
    return Confinement("path", folder, **kw).problems(value, work)


@pytest.mark.parametrize(
    "value",
    [".", "sub", "sub/", "sub/deeper", "file.txt", "in", "in/deeper", "new-file", "missing/x"],
)
def test_paths_inside_pass(tree: Path, value: str) -> None:
    assert problems(value, tree) == []


def test_the_folder_itself_as_an_absolute_path_passes(tree: Path) -> None:
    assert problems(str(tree), tree) == []
    assert problems(f"{tree}/", tree) == []
    assert problems(f"{tree}/sub/..", tree) == []


@pytest.mark.parametrize(
    ("value", "resolved"),
    [
        ("..", ""),
        ("../outside", "/outside"),
        ("sub/../../outside/secret.txt", "/outside/secret.txt"),
        ("out", "/outside"),
        ("out/", "/outside"),
        ("out_rel/secret.txt", "/outside/secret.txt"),
        ("sub/up", ""),
        ("dangling", "/outside/not-yet"),
        ("out/new", "/outside/new"),
    ],
)
def test_paths_that_lead_out_are_refused(tree: Path, value: str, resolved: str) -> None:
    (problem,) = problems(value, tree)
    target = f"{tree.parent}{resolved}"
    assert problem == (
        f"argument 'path': {value!r} resolves to {target}, outside {tree} (the folder this "
        f"argument must stay within); give a path inside it (rule: within)"
    )


def test_an_absolute_path_outside_is_refused(tree: Path) -> None:
    (problem,) = problems("/etc", tree)
    assert problem.startswith(f"argument 'path': '/etc' resolves to /etc, outside {tree} ")


def test_a_symlink_loop_is_refused(tree: Path) -> None:
    (problem,) = problems("loop_a/x", tree)
    assert problem == (
        f"argument 'path': 'loop_a/x' cannot be resolved: more than {MAX_SYMLINKS} symbolic "
        f"links (a symlink loop?); give a path inside {tree} (rule: within)"
    )


def test_a_folder_that_cannot_be_resolved_admits_nothing(tree: Path) -> None:
    (problem,) = problems("sub", tree, folder="loop_a")
    assert problem == (
        f"argument 'path': the folder it must stay within ('loop_a' in {tree}) cannot be "
        f"resolved: more than {MAX_SYMLINKS} symbolic links (a symlink loop?); no path can "
        f"be admitted (rule: within)"
    )


def test_a_sibling_with_the_folder_as_prefix_is_outside(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    (tmp_path / "workshop").mkdir()
    assert problems("../workshop", tmp_path / "work")


def test_a_working_directory_reached_through_a_symlink(tree: Path) -> None:
    alias = tree.parent / "alias"
    alias.symlink_to(tree)
    assert problems("sub", alias) == []
    assert problems(str(alias), alias) == []  # the folder through its alias
    assert problems(str(tree / "sub"), alias) == []  # and by its real path
    (problem,) = problems("../outside", alias)
    assert f"outside {tree} " in problem  # the real folder is named


def test_a_subfolder_and_an_absolute_folder(tree: Path) -> None:
    assert problems("sub/deeper", tree, folder="sub") == []
    assert problems("file.txt", tree, folder="sub")
    assert problems("in/deeper", tree, folder="sub") == []  # in -> sub
    assert problems(str(tree / "sub"), tree, folder=str(tree / "sub")) == []
    assert problems("file.txt", tree, folder=str(tree / "sub"))


def test_array_items_are_each_judged(tree: Path) -> None:
    found = problems(["sub", "../outside", "file.txt", "/etc"], tree, items=True)
    assert [p.split(":")[0] for p in found] == ["argument 'path'[1]", "argument 'path'[3]"]
    assert problems(["sub", 3], tree, items=True) == []  # the schema judges non-strings


def test_a_secret_is_not_shown(tree: Path) -> None:
    (problem,) = problems("../outside/hunter2", tree, secret=True)
    assert "hunter2" not in problem
    assert problem.startswith(
        f"argument 'path': the value (secret, not shown) resolves to a path outside {tree} ("
    )


def test_each_folder_steps_run_in_is_a_base(tree: Path) -> None:
    rule = Confinement("path", ".")
    # "../file.txt" is inside from sub/ but not from the working directory
    assert rule.problems("../file.txt", tree, [tree / "sub"]) == []
    (problem,) = rule.problems("../file.txt", tree, [tree / "sub", tree])
    assert "resolves to" in problem and f"outside {tree}" in problem
    (problem,) = rule.problems("../..", tree, [tree / "sub"])
    assert f"resolves from {tree / 'sub'}, where a step runs, to " in problem


# -- the loader ---------------------------------------------------------------

EXPORT = """
    name: paths
    description: Path args.
    args:
      path: {type: string, within: ".", default: "."}
      paths: {type: array, items: {type: string}, within: "."}
      sub: {type: string, within: sub}
      token: {type: string, within: ".", secret: true}
      other: {type: string}
    steps:
      - name: show
        argv: [printf, "%s", "{{ args.path }}"]
"""


@pytest.fixture
def export(tmp_path: Path) -> Export:
    return load_export(write_export(tmp_path / "exports", "paths.yaml", EXPORT))


def test_within_is_a_harbor_keyword_removed_from_the_published_schema(export: Export) -> None:
    assert "within" in HARBOR_ARG_KEYWORDS
    for name in ("path", "paths", "sub", "token"):
        assert "within" not in export.input_schema["properties"][name], name
        assert "within" in export.arg_schemas[name]  # the checker and validator keep it
    assert export.input_schema["properties"]["path"]["type"] == "string"


@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ("{type: string, within: 1}", "args.p.within must be a folder, as a non-empty string"),
        ('{type: string, within: ""}', "args.p.within must be a folder"),
        ("{type: string, within: [a]}", "args.p.within must be a folder"),
        ("{type: string, within: true}", "args.p.within must be a folder"),
        ("{type: integer, within: .}", "args.p.within applies to paths: give the arg type: str"),
        ("{within: .}", "args.p.within applies to paths"),
        ("{type: [string, 'null'], within: .}", "args.p.within applies to paths"),
        ("{type: array, within: .}", "args.p.within applies to paths"),
        ("{type: array, items: {type: integer}, within: .}", "args.p.within applies to paths"),
        (
            "{type: string, contentEncoding: base64, within: .}",
            "args.p.within: an attachment (contentEncoding: base64) is file content, not a path",
        ),
    ],
)
def test_a_bad_within_is_a_config_error_naming_the_line(
    tmp_path: Path, arg: str, words: str
) -> None:
    text = f"""
        name: bad
        description: A bad within.
        args:
          q: {{type: string}}
          p: {arg}
        steps:
          - name: a
            run: echo hi
    """
    path = write_export(tmp_path, "bad.yaml", text)
    with pytest.raises(ConfigError) as caught:
        load_export(path)
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}:5: "), problem  # the line of `p:`
    assert words in problem, problem


# -- the validator ------------------------------------------------------------


def test_the_validator_refuses_paths_that_lead_out(export: Export, tree: Path) -> None:
    validator = ArgumentValidator(export)
    assert validator.validate({"path": "sub"}, workdir=tree) == {"path": "sub"}
    assert validator.validate({}, workdir=tree) == {"path": "."}
    assert validator.validate({"other": "../../x"}, workdir=tree)["other"] == "../../x"
    with pytest.raises(ArgumentError) as caught:
        validator.validate(
            {"path": "../outside", "paths": ["sub", "/etc"], "sub": "file.txt", "token": "/t"},
            workdir=tree,
        )
    assert str(caught.value) == "\n- ".join(
        [
            "invalid arguments:",
            f"argument 'path': '../outside' resolves to {tree.parent}/outside, outside {tree} "
            f"(the folder this argument must stay within); give a path inside it (rule: within)",
            f"argument 'paths'[1]: '/etc' resolves to /etc, outside {tree} (the folder this "
            f"argument must stay within); give a path inside it (rule: within)",
            f"argument 'sub': 'file.txt' resolves to {tree}/file.txt, outside {tree}/sub (the "
            f"folder this argument must stay within); give a path inside it (rule: within)",
            f"argument 'token': the value (secret, not shown) resolves to a path outside {tree} "
            f"(the folder this argument must stay within); give a path inside it (rule: within)",
        ]
    )


def test_the_value_reaches_the_steps_unchanged(export: Export, tree: Path) -> None:
    sent = {"path": f"{tree}/sub/../in/", "paths": ["./file.txt", "in//deeper"]}
    assert ArgumentValidator(export).validate(sent, workdir=tree) == sent


def test_an_arg_with_another_problem_is_not_judged_as_a_path(export: Export, tree: Path) -> None:
    with pytest.raises(ArgumentError) as caught:
        ArgumentValidator(export).validate({"path": "../\x00", "paths": "x"}, workdir=tree)
    text = str(caught.value)
    assert "rule: no-nul" in text and "rule: type" in text
    assert "rule: within" not in text


def test_a_default_that_leads_out_is_refused_at_call_time(tmp_path: Path, tree: Path) -> None:
    text = EXPORT.replace('default: "."', 'default: "../outside"')
    export = load_export(write_export(tmp_path / "exports", "paths.yaml", text))
    with pytest.raises(ArgumentError, match=r"argument 'path': '\.\./outside' resolves"):
        ArgumentValidator(export).validate({}, workdir=tree)


def test_without_a_workdir_the_current_directory_is_used(
    export: Export, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree)
    validator = ArgumentValidator(export)
    assert validator.validate({"path": "sub"}) == {"path": "sub"}
    with pytest.raises(ArgumentError, match="rule: within"):
        validator.validate({"path": ".."})


def test_a_step_with_cwd_judges_relative_paths_from_there(tmp_path: Path, tree: Path) -> None:
    folder = tree / "sub"  # the export file's folder: its step runs in sub/deeper
    text = """
        name: incwd
        description: A step in a cwd.
        args:
          path: {type: string, within: "."}
        steps:
          - name: here
            cwd: deeper
            argv: [ls, "--", "{{ args.path }}"]
    """
    export = load_export(write_export(folder, "incwd.yaml", text))
    validator = ArgumentValidator(export)
    # from sub/deeper, "../../file.txt" is work/file.txt: inside
    assert validator.validate({"path": "../../file.txt"}, workdir=tree)
    with pytest.raises(ArgumentError) as caught:
        validator.validate({"path": "../../.."}, workdir=tree)
    assert f"resolves from {tree}/sub/deeper, where a step runs, to {tree.parent}," in str(
        caught.value
    )


# -- the checker --------------------------------------------------------------

CHECKED = {
    "quoted": 'run: ls -- "$ARG_path"',
    "argv": 'argv: [ls, "--", "{{ args.path }}"]',
    "unquoted": "run: ls {{ args.path }}",
    "evaluated": 'run: eval "$ARG_path"',
    "option": 'argv: [ls, "{{ args.path }}"]',
}


@pytest.mark.parametrize("step", sorted(CHECKED))
def test_the_checker_judges_an_arg_with_within_as_without(tmp_path: Path, step: str) -> None:
    """``within`` changes no value a step can receive, so no verdict either."""
    reports = []
    for extra in ("", ', within: "."'):
        text = f"""
            name: checked
            description: Checked.
            args:
              path: {{type: string{extra}}}
            steps:
              - name: a
                {CHECKED[step]}
        """
        folder = tmp_path / ("with" if extra else "without")
        report = check_export(load_export(write_export(folder, "checked.yaml", text)))
        reports.append((report.status, [(f.rule, f.line, f.column) for f in report.findings]))
    assert reports[0] == reports[1]
    if step in ("unquoted", "evaluated"):
        assert reports[1][0] == "refused"  # the pair can tell verdicts apart
