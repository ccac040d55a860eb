"""Build export files from corpus cases and check them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mcp_harbor.check import ExportReport, check_export
from mcp_harbor.config import Export, load_export

#: Schemas the corpus uses.
SCHEMAS: dict[str, dict[str, Any]] = {
    "S": {"type": "string"},
    "D": {"type": "string", "leading_dash": True},
    "P": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.]*$"},
    "I": {"type": "integer"},
    "N": {"type": "integer", "minimum": 0},
    "E": {"type": "string", "enum": ["alpha", "beta"]},
    "M": {"type": "string", "multiline": True},
    "U": {"type": "string", "pattern": "^[a-z]+|.*$"},
    "B": {"type": "boolean"},
    "F": {"type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"},
    "W": {"type": "string", "enum": ["--oneline", "--stat --oneline"]},
    # used by tests/check/attacks.py (ATTACKS17)
    "DASH": {"type": "string", "leading_dash": True},
    "NOQUOTE": {"type": "string", "pattern": "^[^']*$"},
    "IDENT": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
    "POSINT": {"type": "integer", "minimum": 1},
    "DIGITS": {"type": "string", "pattern": "^[0-9.]+$"},
    "GITKEY": {"type": "string", "enum": ["user.name", "user.email"]},
    # a pattern that admits `,` and `-` (but not first): a brace list can split it
    "C": {"type": "string", "pattern": "^[a-z][a-z,=/-]*$"},
    # an enum of options that take a value, attached (the caller sends the value)
    "OPTENUM": {"type": "string", "enum": ["--upload-pack=", "--depth="]},
}


@dataclass(frozen=True)
class Case:
    """One labelled template: `dangerous` is the ground truth."""

    id: str
    dangerous: bool
    run: str | None = None
    argv: list[str] | None = None
    args: dict[str, str] = field(default_factory=lambda: {"x": "S"})
    #: the export's ``programs:`` (in-house programs the case describes)
    programs: dict[str, Any] | None = None

    def document(self) -> dict[str, Any]:
        step: dict[str, Any] = {"name": "s"}
        if self.run is not None:
            step["run"] = self.run
        else:
            step["argv"] = self.argv
        document: dict[str, Any] = {
            "name": "t",
            "description": self.id,
            "args": {name: SCHEMAS[kind] for name, kind in self.args.items()},
            "steps": [step],
        }
        if self.programs is not None:
            document["programs"] = self.programs
        return document


def write(case: Case, folder: Path, index: int = 0) -> Path:
    path = folder / f"case{index}.yaml"
    path.write_text(yaml.safe_dump(case.document(), sort_keys=False), encoding="utf-8")
    return path


def load(case: Case, folder: Path, index: int = 0) -> Export:
    return load_export(write(case, folder, index))


def check(case: Case, folder: Path, index: int = 0) -> ExportReport:
    return check_export(load(case, folder, index))


def check_documents(documents: list[dict[str, Any]], folder: Path, index: int = 0) -> ExportReport:
    """Write `documents` (whole export files) to a folder of their own and
    check them as a set, as the server does (`load_and_check`, which also
    sees what only the whole set shows): the report of the first."""
    from mcp_harbor.check import load_and_check

    place = folder / f"set{index}"
    place.mkdir()
    for n, document in enumerate(documents):
        text = yaml.safe_dump(document, sort_keys=False)
        (place / f"export{n}.yaml").write_text(text, encoding="utf-8")
    result = load_and_check([place])
    return next(r for r in result.reports if r.name == documents[0]["name"])


def check_steps(
    steps: list[str], folder: Path, *, args: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, list[str]]:
    """Check an export of one ``run:`` step per script of `steps` (named
    ``s0``, ``s1``…) with `args` and any other top-level keys in `extra`:
    its status and its error findings as ``RULE: message``."""
    document: dict[str, Any] = {
        "name": "t",
        "description": "steps",
        "args": args or {},
        "steps": [{"name": f"s{k}", "run": run} for k, run in enumerate(steps)],
        **extra,
    }
    path = folder / "t.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    report = check_export(load_export(path))
    return report.status, [
        f"{f.rule}: {f.message}" for f in report.findings if f.severity == "error"
    ]
