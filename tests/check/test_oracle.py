"""The dynamic oracle: every template the checker accepts is rendered exactly
as the runner renders it, with a battery of attack values, and run under real
bash with stub programs on PATH. No payload may ever execute."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.check import check_exports
from mcp_harbor.config import Export, load_export
from mcp_harbor.errors import ArgumentError
from tests.check import _sandbox
from tests.check._harness import write
from tests.check.corpus import corpus

#: Attack values. Each tries to run `hbpwn` in a different way.
ATTACKS = [
    "$(hbpwn)",
    "`hbpwn`",
    "'; hbpwn; '",
    '"; hbpwn; "',
    "a;hbpwn",
    "a|hbpwn",
    "a && hbpwn",
    "a[$(hbpwn)]",
    "x[$(hbpwn)]+1",
    "$(hbpwn)'\"`hbpwn`",
    "\\'$(hbpwn)\\",
    "${IFS}hbpwn",
    "'\"$(hbpwn)\"'",
    "-oProxyCommand=hbpwn",
    "--upload-pack=hbpwn",
    "--checkpoint-action=exec=hbpwn",
    "-e hbpwn",
    "-esystem('hbpwn')",
    "--expression=1e hbpwn",
    "');import os;os.system('hbpwn');('",
    "__import__('os').system('hbpwn')",
    'BEGIN{system("hbpwn")}',
    '"}BEGIN{system("hbpwn")}{"',
    "1e hbpwn",
    "hbpwn",
    ".shell hbpwn",
    "x\nhbpwn",
    "x\nEOF\nhbpwn\nEOF",
    "ARG_y",
]


def _accepted(folder: Path) -> list[Export]:
    cases = corpus()
    exports = [load_export(write(case, folder, i)) for i, case in enumerate(cases)]
    reports = check_exports(exports)
    return [e for e, r in zip(exports, reports, strict=True) if r.status == "accepted"]


def _runs(export: Export) -> list[dict[str, object]]:
    validator = ArgumentValidator(export)
    names = list(export.arg_schemas)
    out: list[dict[str, object]] = []
    for attack in ATTACKS:
        values = dict.fromkeys(names, attack)
        try:
            out.append(validator.validate(values))
        except ArgumentError:
            continue
    return out


def test_no_attack_value_ever_executes(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    exports = _accepted(folder)
    jobs = [(e, v) for e in exports for v in _runs(e)]
    assert len(jobs) > 1000  # the battery really ran against many templates
    sandboxes = [_sandbox.build(tmp_path / f"w{k}") for k in range(8)]

    def attempt(index: int) -> str | None:
        export, values = jobs[index]
        root = tmp_path / f"w{index % 8}"
        workdir = root / f"run{index}"
        workdir.mkdir()
        (workdir / "db.sqlite").touch()
        markers = root / "markers" / f"m{index}"
        markers.mkdir()
        base = {**sandboxes[index % 8], "HB_MARKER": str(markers)}
        for step in export.steps:
            _sandbox.run_step(step, values, base, workdir, {"ARG_y": "a[$(hbpwn)]"})
        hit = _sandbox.marker_set(base)
        shutil.rmtree(workdir, ignore_errors=True)
        return f"{export.spec.description}: {values!r}" if hit else None

    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f for f in pool.map(attempt, range(len(jobs))) if f]
    assert failures == [], "\n".join(failures)


def test_the_oracle_detects_injection(tmp_path: Path) -> None:
    """The oracle is not blind: refused templates do run payloads."""
    base = _sandbox.build(tmp_path / "w")
    cases = {c.id: c for c in corpus()}
    hits = 0
    for i, case_id in enumerate(
        ["sq-dq/plain/S", "raw/plain/S", "env-dq/eval/S", "sq/sh-c-script/S", "sq/python-c/S"]
    ):
        export = load_export(write(cases[case_id], tmp_path, i))
        for values in _runs(export):
            marker = tmp_path / "w" / "markers" / "pwned"
            marker.unlink(missing_ok=True)
            workdir = tmp_path / f"r{i}"
            workdir.mkdir(exist_ok=True)
            for step in export.steps:
                _sandbox.run_step(step, values, base, workdir)
            if marker.exists():
                hits += 1
                break
    assert hits == 5
