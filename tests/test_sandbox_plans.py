"""A step's confinement plan is reused for the next step of the same export
only while it is the plan that would be made again (issue 25: planning took
~0.3-1 ms a step). The run directory is always the step's own."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from mcp_harbor.config.model import SandboxSpec
from mcp_harbor.runner.sandbox import Sandbox
from mcp_harbor.runner.sandbox.confinement import Confinement
from mcp_harbor.runner.sandbox.support import support

SPECS = {
    "none": None,
    "network": SandboxSpec(network="none"),
    "writable": SandboxSpec(writable=["out"]),
    "readable": SandboxSpec(readable=["data"], writable=["out"]),
}


def _plan(sandbox: Sandbox, spec: SandboxSpec | None, run: Path, cwd: Path) -> Confinement:
    confinement = sandbox.confinement(
        spec,
        run_dir=run,
        cwd=cwd,
        program="bash",
        path=os.environ["PATH"],
        home=os.environ.get("HOME", ""),
        shell=True,
    )
    assert confinement is not None
    return confinement


@pytest.fixture(params=[True, False], ids=["mounts", "landlock-exclusions"])
def layout(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Sandbox, Path, Path]:
    """A sandbox hiding a state folder; with thread mounts (the machine's)
    or, as on a machine without them, with Landlock's sibling rules."""
    probed = support()
    if probed.lacks("landlock") is not None:
        pytest.fail(f"this suite needs Landlock: {probed.lacks('landlock')}")
    probed = dataclasses.replace(probed, thread_mounts=request.param)
    top = tmp_path / "top"
    state = top / "state"
    runs = state / "runs"
    runs.mkdir(parents=True)
    (top / "beside").mkdir()
    cwd = tmp_path / "work"
    (cwd / "data").mkdir(parents=True)
    (cwd / "out").mkdir()
    return Sandbox("auto", [state], probed=probed), runs, cwd


@pytest.mark.parametrize("name", list(SPECS))
def test_a_reused_plan_is_the_plan_made_again(
    layout: tuple[Sandbox, Path, Path], name: str
) -> None:
    sandbox, runs, cwd = layout
    spec = SPECS[name]
    first_run, second_run = runs / "r1", runs / "r2"
    first_run.mkdir()
    second_run.mkdir()
    _plan(sandbox, spec, first_run, cwd)
    reused = _plan(sandbox, spec, second_run, cwd)
    fresh = _plan(Sandbox("auto", [runs.parent], probed=sandbox.support), spec, second_run, cwd)
    assert reused == fresh
    assert reused.rules is not None
    # The run directory is this step's only: the other step's is not granted.
    assert reused.run_dir == str(second_run.resolve())
    assert str(second_run.resolve()) in reused.rules.grants
    assert str(first_run.resolve()) not in reused.rules.grants


def test_a_new_entry_beside_a_hidden_folder_is_granted(
    layout: tuple[Sandbox, Path, Path],
) -> None:
    sandbox, runs, cwd = layout
    run = runs / "r1"
    run.mkdir()
    before = _plan(sandbox, None, run, cwd)
    assert before.rules is not None
    top = runs.parent.parent
    added = top / "added-later"
    added.mkdir()
    after = _plan(sandbox, None, run, cwd)
    assert after.rules is not None
    if sandbox.support is not None and sandbox.support.thread_mounts:
        # Covered by a mount: Landlock grants the whole tree, the new one too.
        assert after.rules.allows(str(added), write=True)
    else:
        # Landlock's sibling rules: the new folder got a rule of its own.
        assert str(added) not in before.rules.grants
        assert str(added) in after.rules.grants
    assert after == _plan(Sandbox("auto", [runs.parent], probed=sandbox.support), None, run, cwd)


def test_a_readable_folder_made_later_is_granted(layout: tuple[Sandbox, Path, Path]) -> None:
    sandbox, runs, cwd = layout
    run = runs / "r1"
    run.mkdir()
    spec = SandboxSpec(readable=["data", "later"])
    before = _plan(sandbox, spec, run, cwd)
    assert before.rules is not None and not before.rules.allows(str(cwd / "later"), write=False)
    (cwd / "later").mkdir()
    after = _plan(sandbox, spec, run, cwd)
    assert after.rules is not None and after.rules.allows(str(cwd / "later"), write=False)


def test_a_new_hidden_path_is_hidden_at_once(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    run = tmp_path / "runs" / "r1"
    run.mkdir(parents=True)
    sandbox = Sandbox("auto", [state / "db-journal"])
    first = _plan(sandbox, None, run, tmp_path)
    (state / "db-journal").write_text("journal")
    second = _plan(sandbox, None, run, tmp_path)
    journal = str((state / "db-journal").resolve())
    assert journal not in (*first.covered, *first.covered_files)
    assert journal in (*second.covered, *second.covered_files) or (
        second.rules is not None and not second.rules.allows(journal, write=False)
    )


def test_the_next_step_reuses_the_plan(layout: tuple[Sandbox, Path, Path]) -> None:
    sandbox, runs, cwd = layout
    for number in range(3):
        (runs / f"r{number}").mkdir()
        _plan(sandbox, None, runs / f"r{number}", cwd)
    (kept,) = sandbox._plans.values()  # one plan for the three steps
    (runs.parent.parent / "changed").mkdir()
    _plan(sandbox, None, runs / "r0", cwd)
    (remade,) = sandbox._plans.values()
    if sandbox.support is not None and sandbox.support.thread_mounts:
        # Only / was listed (the state folder is covered by a mount).
        assert remade[1] is kept[1]
    else:
        assert remade[1] is not kept[1]  # made again: a listed folder changed


def test_the_rules_hold_in_the_kernel(tmp_path: Path) -> None:
    """`Rules.restrict` (landlockpy's ruleset, the rules added by
    `_linux.landlock_add_paths`): what is granted can be written, what is
    not cannot, a gone path is left out, and the rest of the process is
    unchanged."""
    import threading

    from mcp_harbor.runner.sandbox.landlock_rules import EVERYTHING, READ, Rules

    allowed, other = tmp_path / "allowed", tmp_path / "other"
    allowed.mkdir()
    other.mkdir()
    rules = Rules()
    for system in ("/usr", "/lib", "/lib64", "/bin", "/etc"):
        if os.path.exists(system):
            rules.grant(system, READ)
    rules.grant(str(allowed), EVERYTHING)
    rules.grants[str(tmp_path / "gone")] = EVERYTHING  # removed after planning
    seen: dict[str, object] = {}

    def confined() -> None:
        try:
            rules.restrict(deny_tcp=False, scope=False)
            (allowed / "a").write_text("ok")
            seen["allowed"] = True
            try:
                (other / "b").write_text("no")
                seen["other"] = "written"
            except PermissionError:
                seen["other"] = "refused"
        except BaseException as exc:  # noqa: BLE001 (reported below)
            seen["error"] = exc

    thread = threading.Thread(target=confined)
    thread.start()
    thread.join()
    assert "error" not in seen, seen
    assert seen == {"allowed": True, "other": "refused"}
    (other / "c").write_text("the server's own threads are not confined")
