"""The analysis of bash's reprint is skipped only where it repeats the first
analysis (`mcp_harbor.check._analysis._reads_alike`): for every corpus and
fixture script, with and without a final newline, that bash reprints as the
script itself (or it and a final newline, read alike by tree-sitter), the
analysis of the reprint gives the same rules, args, details and fixes as the
analysis of the script; and a whole check gives the same reports with the
skip as without it. Later stage (~8 s); the main suite has the same on the
fixtures alone (tests/test_check_bash_reading.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mcp_harbor.check import _analysis, check_exports, clear_cache
from mcp_harbor.check._analysis import _reads_alike, analyse_reprint, analyse_script_deferred
from mcp_harbor.check._facts import Hazard, arg_models, export_scripts
from mcp_harbor.check._reprint import reprints
from mcp_harbor.check._tree import parsed
from mcp_harbor.config import Export, load_exports
from tests.check._harness import Case
from tests.check.corpus import corpus

pytestmark = pytest.mark.usefixtures("fresh_checker")

FIXTURES = Path(__file__).parent / "fixtures"


def cases(with_corpus: bool = True) -> list[Case]:
    """The corpus's cases (`with_corpus`) and the fixtures' ``run:`` cases,
    then each of them again with a final newline."""
    cases = list(corpus()) if with_corpus else []
    for path in sorted(FIXTURES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            if "run" in case:
                cases.append(Case(path.stem, False, run=case["run"], args=case["args"]))
    with_newline = [
        Case(c.id, c.dangerous, run=c.run + "\n", args=c.args)
        for c in cases
        if c.run is not None and not c.run.endswith("\n")
    ]
    return cases + with_newline


def exports_of(folder: Path, with_corpus: bool = True) -> list[Export]:
    """`cases` written to `folder` as export files, loaded."""
    folder.mkdir()
    for n, case in enumerate(cases(with_corpus)):
        document: dict[str, Any] = {**case.document(), "name": f"t{n}"}
        (folder / f"t{n:05d}.yaml").write_text(
            yaml.safe_dump(document, sort_keys=False, width=1000), encoding="utf-8"
        )
    return load_exports([folder])


def _keys(hazards: list[Hazard]) -> set[tuple[str, str | None, str, str]]:
    return {(h.rule, h.arg, h.detail, h.fix) for h in hazards}


def test_a_reprint_read_alike_is_analysed_as_the_script(tmp_path: Path) -> None:
    items = []
    for export in exports_of(tmp_path / "exports"):
        models = arg_models(export)
        items += [(text, sentinels, models) for text, sentinels in export_scripts(export, models)]
    readings = reprints(text for text, _s, _m in items)
    alike = {"same": 0, "newline": 0}
    for (text, sentinels, models), reading in zip(items, readings, strict=True):
        if reading.text is None or not _reads_alike(text, reading.text):
            continue
        if any(node.type == "comment" for node in parsed(reading.text).nodes):
            continue  # the comment check runs either way
        first = analyse_script_deferred(text, sentinels, models).hazards
        again = analyse_reprint(reading.text, text, sentinels, models)
        assert _keys(again) == _keys(first), text
        assert analyse_reprint(reading.text, text, sentinels, models, only_new=True) == []
        alike["same" if reading.text == text else "newline"] += 1
    assert alike["same"] > 300 and alike["newline"] > 300, alike


def test_a_check_gives_the_same_reports_without_the_skip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exports = exports_of(tmp_path / "exports")
    skipped = check_exports(exports)
    clear_cache()
    monkeypatch.setattr(_analysis, "_reads_alike", lambda _text, _reprinted: False)
    assert check_exports(exports) == skipped
