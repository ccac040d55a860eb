"""Write docs/rules.md from the rule classes (mcp_harbor/check/rules/).

    python scripts/gen_rules_doc.py            # rewrite docs/rules.md
    python scripts/gen_rules_doc.py --check    # exit 1 when docs/rules.md is out of date

Run it after changing any rule's attributes or docstring;
tests/check/test_rules_doc.py fails until then.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "docs" / "rules.md"


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the rules page; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 when the file differs"
    )
    parser.add_argument(
        "--path", type=Path, default=DEFAULT, help=f"the page (default {DEFAULT.relative_to(ROOT)})"
    )
    options = parser.parse_args(argv)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from mcp_harbor.check.rules._docs import render_markdown

    text = render_markdown()
    path: Path = options.path
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if options.check:
        if current != text:
            print(f"{path} is out of date: run python scripts/gen_rules_doc.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
