"""The checker's verdicts on a blind set's folder of export files."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pytest

from mcp_harbor.check import check_exports
from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError


def verdicts(folder: Path) -> dict[str, str]:
    """Each file's verdict: the checker's, or ``unloadable`` when the loader
    refuses it (a refusal too: it is never offered)."""
    found: dict[str, str] = {}
    loaded = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            loaded.append((path, load_export(path)))
        except ConfigError:
            found[path.name] = "unloadable"
    reports = check_exports([export for _, export in loaded])
    found.update({path.name: r.status for (path, _), r in zip(loaded, reports, strict=True)})
    return found


def assert_attacks_refused(
    folder: Path, minimum: int, inert: Collection[str], misses: Collection[str]
) -> None:
    """Every attack of `folder` is refused but the `inert` ones (shown not to
    run) and the listed `misses` (gaps still open)."""
    found = verdicts(folder)
    assert len(found) >= minimum
    accepted = {name for name, status in found.items() if status == "accepted"}
    allowed = set(inert) | set(misses)
    assert accepted <= allowed, sorted(accepted - allowed)


def assert_refused_exactly(folder: Path, refused_safe: Collection[str]) -> None:
    """The safe templates of `folder` the checker refuses are exactly
    `refused_safe`: a new false refusal, or a fixed one, fails."""
    found = verdicts(folder)
    refused = {name for name, status in found.items() if status != "accepted"}
    assert refused == set(refused_safe), (
        sorted(refused - set(refused_safe)),
        sorted(set(refused_safe) - refused),
    )


def run_attack(path: Path, tmp_path: Path) -> dict[str, Any]:
    """Run the attack export `path` with the arguments of its ``.json``
    through the real runtime (``mcp-harbor run``, tests/check/blind34/score.py)."""
    scorer = Path(__file__).parent / "blind34"
    if str(scorer) not in sys.path:
        sys.path.insert(0, str(scorer))
    import score  # tests/check/blind34/score.py

    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    outcome: dict[str, Any] = score._run_attack(
        path, meta["args"], tmp_path, score._workdir(tmp_path)
    )
    return outcome


def round_tests(
    here: Path,
    minimum: int,
    inert: Collection[str],
    misses: Collection[str],
    refused_safe: Collection[str],
) -> tuple[Callable[[], None], Callable[[], None], Callable[[str, Path], None]]:
    """The three tests of one blind round in `here` (``attacks/``, ``safe/``):
    attacks refused but `inert` (run here, they must not fire) and `misses`;
    exactly `refused_safe` refused; each `inert` attack run through the real
    runtime. A round's module binds them to ``test_*`` names."""

    def test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses() -> None:
        assert_attacks_refused(here / "attacks", minimum, inert, misses)

    def test_the_safe_templates_refused_are_the_listed_ones() -> None:
        assert_refused_exactly(here / "safe", refused_safe)

    # with no inert attack listed, the one case asserts that the checker
    # accepts none to be shown inert: exactly the listed misses
    @pytest.mark.parametrize("name", sorted(inert) or [""])
    def test_accepted_attacks_do_not_run(name: str, tmp_path: Path) -> None:
        """Through the real runtime (``mcp-harbor run``), with the attack's args."""
        if not name:
            found = verdicts(here / "attacks")
            accepted = {n for n, status in found.items() if status == "accepted"}
            assert accepted == set(misses), sorted(accepted ^ set(misses))
            return
        outcome = run_attack(here / "attacks" / name, tmp_path)
        assert not outcome["ran"] and not outcome["leaked"], outcome["answer"]

    return (
        test_attacks_are_refused_but_the_inert_ones_and_the_listed_misses,
        test_the_safe_templates_refused_are_the_listed_ones,
        test_accepted_attacks_do_not_run,
    )
