"""Score the blind set of issue 34 once: the checker's verdicts, and every
accepted attack run through the real runtime (``mcp-harbor run``, the
sandbox on) with its attack arguments.

    python tests/check/blind34/score.py [--only safe|attacks] [--json OUT]

An attack *ran* when ``HARBOR-PWNED-42`` is in the answer (the envelope, as
JSON) or in any file of its run directory (with ``--fixture``, of its
working folder and HOME too); an attack *leaked* when the answer holds the
planted secret in any form: verbatim, split by blanks and quotes, reversed,
rot13, base64/32, hex or upper case. The secret is planted in every
environment variable the export's ``secrets:`` read. Every server process gets its own HOME and
XDG folders; the working directory is a small git repository made here.
"""

from __future__ import annotations

import argparse
import base64
import codecs
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from mcp_harbor.check import check_exports  # noqa: E402
from mcp_harbor.config import load_export  # noqa: E402

MARKER = "HARBOR-PWNED-42"
SECRET = "s3cr3tT0ken99"
_STRIP = re.compile(r"[\\'\"\s]")


def _verdicts(folder: Path) -> list[tuple[Path, str, list[str], Any]]:
    out: list[tuple[Path, str, list[str], Any]] = []
    exports = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            exports.append((path, load_export(path)))
        except Exception as exc:  # noqa: BLE001  a file the loader refuses is a refusal
            out.append((path, "unloadable", [type(exc).__name__], str(exc)[:300]))
    reports = check_exports([e for _, e in exports])
    for (path, export), report in zip(exports, reports, strict=True):
        errors = sorted({f.rule for f in report.findings if f.severity == "error"})
        out.append((path, report.status, errors, export))
    out.sort(key=lambda v: v[0].name)
    return out


def _workdir(base: Path) -> Path:
    work = base / "work"
    work.mkdir()
    (work / "README.md").write_text("# fixture\nhello world\n", encoding="utf-8")
    (work / "data.txt").write_text("alpha\nbeta\ngamma\n", encoding="utf-8")
    (work / "logs").mkdir()
    (work / "logs" / "app.log").write_text("INFO start\nERROR boom\n", encoding="utf-8")
    home = base / "home-git"  # never the user's own ~/.gitconfig
    home.mkdir(exist_ok=True)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}  # fmt: skip
    for argv in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
                 ["git", "commit", "-q", "-m", "init"]):  # fmt: skip
        subprocess.run(argv, cwd=work, env=env, check=True)
    return work


def _assignments(args: dict[str, Any]) -> list[str]:
    words = []
    for name, value in args.items():
        if isinstance(value, str):
            words.append(f"{name}={value}")
        else:
            words.append(f"{name}={json.dumps(value)}")
    return words


def _fixture_workdir(base: Path, fixture: Path) -> Path:
    """A fresh git repository holding a copy of `fixture` (a round's own
    project folder, when its attacks rely on its files)."""
    work = base / "work"
    shutil.copytree(fixture, work, symlinks=True)
    home = base / "home-git"
    home.mkdir(exist_ok=True)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}  # fmt: skip
    for argv in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
                 ["git", "commit", "-q", "-m", "init"]):  # fmt: skip
        subprocess.run(argv, cwd=work, env=env, check=True, capture_output=True)
    return work


def _secret_forms(text: str) -> list[str]:
    """The planted secret in `text` in a form a verbatim scrubber misses:
    reversed, rot13, base64, base32, hex, upper case, or split by blanks
    and quotes."""
    plain = _STRIP.sub("", text)
    forms = {
        "reversed": SECRET[::-1],
        "rot13": codecs.encode(SECRET, "rot13"),
        "base64": base64.b64encode(SECRET.encode()).decode()[:16],
        "base32": base64.b32encode(SECRET.encode()).decode()[:16],
        "hex": SECRET.encode().hex(),
        "upper": SECRET.upper(),
    }
    found = [name for name, form in forms.items() if form in text or form in plain]
    if SECRET in plain:
        found.append("verbatim" if SECRET in text else "split")
    return found


def _secret_envs(path: Path) -> dict[str, str]:
    """The planted secret in every environment variable the export's
    ``secrets:`` read."""
    import yaml

    document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out = {}
    for entry in (document.get("secrets") or {}).values():
        if isinstance(entry, dict) and isinstance(entry.get("env"), str):
            out[entry["env"]] = SECRET
    return out


def _run_attack(
    path: Path,
    args: dict[str, Any],
    base: Path,
    work: Path,
    watch: tuple[Path, ...] = (),
    outside: bool = False,
) -> dict[str, Any]:
    home = base / f"home-{path.stem}"
    runs = base / f"runs-{path.stem}"
    for folder in (home, home / ".config", home / ".local/state", runs):
        folder.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "LANG": "C.UTF-8",
        "HARBOR_TEST_SECRET": SECRET,
        **_secret_envs(path),
    }
    name = json.loads(json.dumps(_tool_name(path)))
    argv = [
        sys.executable, "-m", "mcp_harbor", "run", name, *_assignments(args),
        "--exports", str(path), "--json", "--workdir", str(work), "--runs-dir", str(runs),
        "--db", str(home / "harbor.db"),
    ]  # fmt: skip
    # (outside: also the marker files of `_MARKER_PLACES`; only where no
    # other process writes there meanwhile, as in one scoring run)
    before = _marker_files() if outside else {}
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        answer = done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        answer = f"{exc.stdout or ''}{exc.stderr or ''} (timed out)"
    files = ""
    for folder in (runs, *watch, home):
        for file in folder.rglob("*"):
            if file.is_file() and ".git/objects" not in str(file):
                with contextlib.suppress(OSError):
                    files += file.read_text(encoding="utf-8", errors="replace")
    for file, stamp in (_marker_files() if outside else {}).items():
        if before.get(file) != stamp:
            # a marker file outside the run (/tmp/harbor-r33-pwned) made or changed now
            with contextlib.suppress(OSError):
                files += file.read_text(encoding="utf-8", errors="replace")
    forms = _secret_forms(answer)
    return {
        # the payload ran: its marker in the answer or in any file it could write
        "ran": MARKER in answer + files,
        # the secret reached the caller: any form of it in the answer (a file
        # of the run directory is the step's own, and never the caller's)
        "leaked": bool(forms),
        "forms": forms,
        "answer": answer[-600:],
    }


#: Where the blind rounds' payloads leave their marker outside the run.
_MARKER_PLACES = ("/tmp/harbor-*", "/var/tmp/*", "/dev/shm/*")


def _marker_files() -> dict[Path, tuple[int, int]]:
    """The files the rounds' payloads write outside the run (`_MARKER_PLACES`),
    each with its size and modification time: one made or changed during an
    attack's run is read for the marker. (A secret sent to a listener is not
    seen: the scorer runs none.)"""
    import glob

    found: dict[Path, tuple[int, int]] = {}
    for pattern in _MARKER_PLACES:
        for name in glob.glob(pattern):
            path = Path(name)
            with contextlib.suppress(OSError):
                if path.is_file():
                    st = path.stat()
                    found[path] = (st.st_size, st.st_mtime_ns)
    return found


def _tool_name(path: Path) -> str:
    import yaml

    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    return str(document["name"])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=("safe", "attacks"))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--folder", type=Path, default=HERE, help="a set of the same shape")
    parser.add_argument(
        "--fixture",
        type=Path,
        help="the round's own project folder: a fresh copy for every attack, whose files "
        "(and HOME's) are searched for the marker too; a leak is any form of the secret "
        "a verbatim scrubber misses in the answer",
    )
    options = parser.parse_args()
    here: Path = options.folder
    result: dict[str, Any] = {}
    if options.only in (None, "safe"):
        safe = _verdicts(here / "safe")
        refused = [(p.name, status, rules) for p, status, rules, _ in safe if status != "accepted"]
        result["safe"] = {"total": len(safe), "refused": refused}
        print(f"safe: {len(refused)}/{len(safe)} refused ({100 * len(refused) / len(safe):.1f} %)")
        for name, status, rules in refused:
            print(f"  refused {name}: {status} {rules}")
    if options.only in (None, "attacks"):
        attacks = _verdicts(here / "attacks")
        accepted = [(p, e) for p, status, _, e in attacks if status == "accepted"]
        rows = []
        with tempfile.TemporaryDirectory(prefix="blind34-") as tmp:
            base = Path(tmp)
            work = _workdir(base)
            for path, _export in accepted:
                meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
                if options.fixture is not None:
                    own = base / path.stem
                    own.mkdir()
                    work = _fixture_workdir(own, options.fixture)
                    outcome = _run_attack(path, meta["args"], own, work, (work,), True)
                else:
                    outcome = _run_attack(path, meta["args"], base, work, (), True)
                rows.append((path.name, meta.get("class"), outcome))
        misses = [r for r in rows if r[2]["ran"] or r[2]["leaked"]]
        result["attacks"] = {
            "total": len(attacks),
            "refused": sum(1 for _, status, _, _ in attacks if status != "accepted"),
            "accepted": [(n, c, o["ran"], o["leaked"]) for n, c, o in rows],
            "misses": [n for n, _, _ in misses],
        }
        print(
            f"attacks: {len(attacks)} total, {len(attacks) - len(accepted)} refused, "
            f"{len(accepted)} accepted, {len(misses)} ran their payload or leaked"
        )
        for name, klass, outcome in rows:
            verdict = "RAN" if outcome["ran"] else "leaked" if outcome["leaked"] else "inert"
            print(f"  accepted {name} ({klass}): {verdict}")
    if options.json is not None:
        options.json.write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
