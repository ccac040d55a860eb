"""The checker's verdicts on a blind set's folder of export files."""

from __future__ import annotations

from pathlib import Path

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
