"""The checker's verdicts kept across starts, in one file.

A server that restarts over the same files should not check them again.
`attach` reads the file into the checker's in-memory caches (the reports of
`mcp_harbor.check.default_checker` and the programs each export runs, by
export content hash and path, and what reading each export file gave, by
the hash of its bytes: `mcp_harbor.config.yaml_source.documents`) and
`save` writes them back. bash's own
readings of scripts are not kept: they cost a few processes for a thousand
scripts (`mcp_harbor.check._reprint`).

Guarantees (a cache must never turn a refused export into an accepted one):

- A report is reused only for the exact bytes of the export file at the
  same path, and only when the checker is the same: its key includes the
  SHA-256 of the checker's own source files (and the loader's), the
  versions of its parsers (and whether PyYAML uses libyaml), the Python
  version and the identity of the ``bash`` binary. Any difference and the
  export is checked again. A file's read document is reused on the same
  terms, for the exact bytes it was read from; files that failed to read
  are never kept, so their errors (file:line and the fix) come from
  reading them again.
- The file carries an HMAC-SHA256 under a random key kept in a second
  file. A file that was edited, truncated, corrupted, copied from another
  installation or written under another key is ignored as a whole (logged),
  and everything is checked again: the cache fails closed.
- Both files are created 0600 (a missing folder 0700); a file not owned by this
  user, or writable by others, is not trusted. Writes go to a temporary file
  renamed into place, so a reader never sees half a file; when several
  processes write, the last one wins (a cache, not a record).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from mcp_harbor.check import _gates
from mcp_harbor.check._model import ExportReport, Finding
from mcp_harbor.check.commands import ProgramUse
from mcp_harbor.check.commands import _cache as programs
from mcp_harbor.config.yaml_source import Document, documents

__all__ = ["attach", "attached", "checker_fingerprint", "detach", "save"]

log = logging.getLogger("mcp_harbor.check")

_MAGIC = b"mcp-harbor check cache 1\n"
#: Past this many entries, only the ones this process used are kept.
MAX_REPORTS = 50_000

_path: Path | None = None
_saved: tuple[int, int, int] = (0, 0, 0)  # sizes of the caches when last read or written
_fingerprint: str | None = None


def _source_files() -> list[Path]:
    pkg = Path(__file__).resolve().parent.parent  # mcp_harbor/
    files = sorted((pkg / "check").rglob("*.py"))
    files += sorted((pkg / "config").glob("*.py"))
    files += [pkg / "template.py", pkg / "expr.py"]
    return files


def checker_fingerprint() -> str:
    """What a verdict depends on besides the export's bytes: the checker's
    source, its parsers, Python and the ``bash`` binary (SHA-256, hex)."""
    global _fingerprint
    if _fingerprint is not None:
        return _fingerprint
    from importlib import metadata

    digest = hashlib.sha256()
    for file in _source_files():
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    for package in ("tree-sitter", "tree-sitter-bash", "jsonschema", "PyYAML"):
        try:
            digest.update(f"{package}={metadata.version(package)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package}=?\0".encode())
    import yaml

    digest.update(f"libyaml={getattr(yaml, '__with_libyaml__', False)}\0".encode())
    digest.update(sys.version.encode() + b"\0")
    digest.update(_gates.bash_identity().encode())
    _fingerprint = digest.hexdigest()
    return _fingerprint


def _trusted(path: Path, info: os.stat_result) -> bool:
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        log.warning(
            "ignoring %s: not owned by this user or writable by others; checking every export",
            path,
        )
        return False
    return True


def _key(folder: Path) -> bytes | None:
    """The HMAC key (created on first use), or None when it cannot be trusted."""
    path = folder / "check-cache.key"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        key = secrets.token_bytes(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:  # another process made it just now
            return _key(folder)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
        return key
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not _trusted(path, info) or info.st_mode & 0o044:
            return None
        key = file.read(64)
    return key if len(key) == 32 else None


def _mac(key: bytes, payload: bytes) -> bytes:
    return hmac.new(key, payload, hashlib.sha256).hexdigest().encode()


def _report_of(row: list[Any]) -> ExportReport:
    name, file, status, findings = row
    if status not in ("accepted", "refused"):
        raise ValueError(status)
    return ExportReport(name, file, status, tuple(Finding(*f) for f in findings))


def _row_of(report: ExportReport) -> list[Any]:
    findings = [
        [
            f.rule,
            f.name,
            f.severity,
            f.step,
            f.line,
            f.column,
            f.arg,
            f.message,
            f.fix,
            f.confidence,
        ]
        for f in report.findings
    ]
    return [report.name, report.file, report.status, findings]


def _read(path: Path) -> dict[str, Any] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("ignoring %s: %s; checking every export", path, exc)
        return None
    with os.fdopen(fd, "rb") as file:
        if not _trusted(path, os.fstat(file.fileno())):
            return None
        raw = file.read()
    key = _key(path.parent)
    magic, _, rest = raw.partition(b"\n")
    mac, _, payload = rest.partition(b"\n")
    if key is None or magic + b"\n" != _MAGIC or not hmac.compare_digest(mac, _mac(key, payload)):
        log.warning("ignoring %s: damaged or not written here; checking every export", path)
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        log.warning("ignoring %s: not JSON; checking every export", path)
        return None
    return data if isinstance(data, dict) else None


def attach(path: Path) -> None:
    """Read the cache file at `path` (if any, and if it can be trusted) into
    the checker's caches, and have `save` write to it. Never raises for a
    bad or missing file: the checker then checks everything."""
    from mcp_harbor.check import default_checker

    global _path, _saved
    _path = path
    data = _read(path)
    fingerprint = checker_fingerprint()
    loaded_reports: dict[str, ExportReport] = {}
    loaded_programs: dict[str, tuple[ProgramUse, ...]] = {}
    loaded_documents: dict[str, Document] = {}
    if data is not None:
        try:
            if data.get("bash") == _gates.bash_identity() and data.get("checker") == fingerprint:
                for key, row in data["reports"].items():
                    loaded_reports[str(key)] = _report_of(row)
                for key, uses in data["programs"].items():
                    loaded_programs[str(key)] = tuple(
                        ProgramUse(str(p), str(s), int(n)) for p, s, n in uses
                    )
                for key, row in data.get("documents", {}).items():
                    loaded_documents[str(key)] = _document_of(row)
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("ignoring %s: unexpected content; checking every export", path)
            loaded_reports, loaded_programs, loaded_documents = {}, {}, {}
    default_checker.preload(loaded_reports)
    for key, found in loaded_programs.items():
        programs.setdefault(key, found)
    documents.preload(loaded_documents)
    documents.recording = True
    _saved = _sizes()


def _document_of(row: list[Any]) -> Document:
    text, rows = row
    if not isinstance(text, str):
        raise TypeError(text)
    eager = []
    for where, line, column, style, indent in rows:
        if not all(isinstance(w, str | int) for w in where):
            raise TypeError(where)
        if style is not None and not isinstance(style, str):
            raise TypeError(style)
        eager.append([list(where), int(line), int(column), style, int(indent)])
    return (text, eager)


def _sizes() -> tuple[int, int, int]:
    from mcp_harbor.check import default_checker

    return (default_checker.cached_count(), len(programs), len(documents))


def attached() -> Path | None:
    """The cache file `save` writes to, if any."""
    return _path


def detach() -> None:
    """Stop writing to the cache file, and stop remembering read files for
    it (tests)."""
    global _path
    _path = None
    documents.recording = False


def save() -> bool:
    """Write the checker's caches to the attached file when they grew since
    it was read or last written. Returns whether it wrote. Never raises: a
    cache that cannot be written is logged and the server goes on."""
    from mcp_harbor.check import default_checker

    global _saved
    path = _path
    if path is None or _sizes() == _saved:
        return False
    report_items = default_checker.cached_reports()
    program_items = dict(programs)
    document_items = documents.entries()
    if len(report_items) > MAX_REPORTS or len(program_items) > MAX_REPORTS:
        used = default_checker.used_keys()
        if len(report_items) > MAX_REPORTS:
            report_items = {k: v for k, v in report_items.items() if k in used}
        if len(program_items) > MAX_REPORTS:
            program_items = {k: v for k, v in program_items.items() if k in used}
    if len(document_items) > MAX_REPORTS:
        read = documents.used()
        document_items = {k: v for k, v in document_items.items() if k in read}
    payload = json.dumps(
        {
            "checker": checker_fingerprint(),
            "bash": _gates.bash_identity(),
            "reports": {k: _row_of(v) for k, v in report_items.items()},
            "programs": {
                k: [[u.program, u.step, u.line] for u in v] for k, v in program_items.items()
            },
            "documents": {k: [text, rows] for k, (text, rows) in document_items.items()},
        },
        separators=(",", ":"),
    ).encode()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        key = _key(path.parent)
        if key is None:
            return False
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(_MAGIC + _mac(key, payload) + b"\n" + payload)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        log.warning("cannot write the checker's cache %s: %s", path, exc)
        return False
    _saved = _sizes()
    return True
