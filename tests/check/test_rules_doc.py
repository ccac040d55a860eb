"""docs/rules.md is generated from the rule classes and kept current."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

from mcp_harbor.check.rules import DOC_HEADINGS, RULES
from mcp_harbor.check.rules._docs import render_markdown

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules.md"


def _script_main() -> Callable[[Sequence[str]], int]:
    spec = importlib.util.spec_from_file_location(
        "gen_rules_doc", ROOT / "scripts" / "gen_rules_doc.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return cast(Callable[[Sequence[str]], int], module.main)


def test_docs_rules_md_is_current() -> None:
    assert DOCS.read_text(encoding="utf-8") == render_markdown(), (
        "docs/rules.md is out of date: run python scripts/gen_rules_doc.py"
    )


def test_page_has_every_rule_its_metadata_and_sections() -> None:
    page = render_markdown()
    assert page.startswith("# Checker rules\n")
    assert "[docs/security.md](security.md)" in page
    for rule in RULES.values():
        anchor = f"{rule.id.lower()}-{rule.name}"
        assert f"| [{rule.id}](#{anchor}) | {rule.name} | {rule.severity} |" in page
        section = page.split(f"\n## {rule.id} {rule.name}\n", 1)[1].split("\n## ", 1)[0]
        assert (
            f"**Severity:** {rule.severity} · **Confidence:** {rule.confidence} · "
            f"**Since:** {rule.since}"
        ) in section
        assert f"**Summary:** {rule.summary}" in section
        for heading in DOC_HEADINGS:
            assert f"\n### {heading}\n\n{rule.section(heading)}\n" in section


def test_script_check_and_write(tmp_path: Path) -> None:
    main = _script_main()
    page = tmp_path / "rules.md"
    assert main(["--check", "--path", str(page)]) == 1  # missing
    page.write_text("stale\n", encoding="utf-8")
    assert main(["--check", "--path", str(page)]) == 1
    assert main(["--path", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == render_markdown()
    assert main(["--check", "--path", str(page)]) == 0
