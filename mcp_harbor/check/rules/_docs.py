"""Render ``docs/rules.md`` from the rule classes.

The page is generated, never edited by hand: its text comes from each rule's
class attributes (id, name, severity, confidence, since, summary) and from
the sections of its docstring under `DOC_HEADINGS`. Regenerate it with
``python scripts/gen_rules_doc.py`` after changing a rule;
``tests/check/test_rules_doc.py`` fails while the page is out of date.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mcp_harbor.check.rules._base import DOC_HEADINGS, Rule

__all__ = ["render_markdown"]

_INTRO = """\
# Checker rules

Every export is checked before it is registered (`mcp-harbor serve`, `tools`, `call`) and by
`mcp-harbor check`. A finding with severity **error** refuses the export; a **warning** does
not, unless `--strict` is given. `mcp-harbor check --explain RULE` prints a rule's text.

**What acceptance proves.** The checker does not search for known-bad patterns: accepting an
export is a proof. A caller's value (a placeholder, `$ARG_x`, a variable or step output that
carries caller data) may only reach a place the checker has shown to be inert for every text
the arg's schema allows: one word of data, never syntax, code, a name, an option that acts or
the choice of program. Any other place is refused by the rule that says why. The analysis
reads tree-sitter-bash's parse, and bash itself confirms the structure of every script at
every place that carries caller data (bash's own reading of the script and of each such place);
where bash disagrees, or where the checker has no model of a place, the export is refused
with H000. See [docs/security.md](security.md) for what a caller can influence, and
[docs/design.md](design.md#why-the-checker-parses-the-way-it-does) for how the checker parses.

This page is generated from the rules' classes and docstrings (`mcp_harbor/check/rules/`) by
`python scripts/gen_rules_doc.py`; `tests/check/test_rules_doc.py` fails when it is out of
date. Edit the docstrings, not this page.
"""


def _anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return slug.replace(" ", "-")


def _headings(rule: type[Rule]) -> list[str]:
    return [line[3:].strip() for line in rule.doc().splitlines() if line.startswith("## ")]


def _section(rule: type[Rule]) -> str:
    headings = _headings(rule)
    if headings != list(DOC_HEADINGS):
        raise ValueError(
            f"{rule.id}: the docstring's '## ' headings are {headings}, "
            f"not {list(DOC_HEADINGS)} in that order"
        )
    out = [
        f"## {rule.id} {rule.name}",
        "",
        f"**Severity:** {rule.severity} · **Confidence:** {rule.confidence} · "
        f"**Since:** {rule.since}",
        "",
        f"**Summary:** {rule.summary}",
        "",
    ]
    for heading in DOC_HEADINGS:
        text = rule.section(heading)
        if not text:
            raise ValueError(f"{rule.id}: '## {heading}' is empty")
        out += [f"### {heading}", "", text, ""]
    return "\n".join(out)


def _table(rules: Iterable[type[Rule]]) -> str:
    rows = ["| id | name | severity | summary |", "|---|---|---|---|"]
    for rule in rules:
        anchor = _anchor(f"{rule.id} {rule.name}")
        summary = rule.summary.replace("|", "\\|")
        rows.append(f"| [{rule.id}](#{anchor}) | {rule.name} | {rule.severity} | {summary} |")
    return "\n".join(rows) + "\n"


def render_markdown() -> str:
    """The whole text of ``docs/rules.md``: the introduction, a table of
    every rule, and one section per rule in id order.

    Raises:
        ValueError: a rule's docstring lacks one of `DOC_HEADINGS`, has them
            out of order, has another ``## `` heading or an empty section.
    """
    from mcp_harbor.check.rules import RULES

    rules = list(RULES.values())
    parts = [_INTRO, _table(rules), *(_section(rule) for rule in rules)]
    return "\n".join(parts).rstrip("\n") + "\n"
