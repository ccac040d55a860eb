"""Signed checkpoints of the audit chain, kept outside the database.

The chain (`mcp_harbor.store.base.verify_chain`) detects an edited, deleted
or reordered record, but not records cut from its end with ``meta.head``
rewritten to match: what is left is a valid, shorter chain. A *checkpoint*
closes that gap: the process that writes records signs the chain's head
(HMAC-SHA256 with a key kept outside the database, `load_key`) and appends
it to a *witness file* outside the database, one JSON line each:

    {"at": "2026-12-02T04:00:00Z", "hash": "…", "mac": "…", "seq": 1200,
     "store": "/var/lib/mcp-harbor/harbor.db", "v": 1}

The MAC is over `canonical_json` of every field but ``mac``. `Sealer` signs
every `every` records, every `interval` seconds when there are new ones
(a thread of its own, never the event loop) and at `close`; a checkpoint
that cannot be written is logged, never raised to a call.

`check_witness` reads the witness file back for ``mcp-harbor audit verify``:
a line whose MAC does not match was forged (or the key is wrong); a
checkpoint whose record is gone means the records up to it were deleted;
one whose record has another hash means the chain was rewritten. Together
with the chain's own check this detects any truncation or rewrite up to the
latest checkpoint; the records after it are reported as not yet covered.

**Limits** (docs/security.md, *Audit trail*): whoever holds the key can
sign a shorter head; whoever can rewrite both the database and the witness
file (root on the host) can rewrite both consistently unless the witness is
shipped elsewhere as it grows. Records written after the latest checkpoint
can be cut without trace.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, final

from mcp_harbor.errors import ConfigError, StoreError
from mcp_harbor.store.base import Store, canonical_json

__all__ = [
    "DEFAULT_SEAL_EVERY",
    "DEFAULT_SEAL_INTERVAL",
    "KEY_BYTES",
    "Checkpoint",
    "Sealer",
    "WitnessReport",
    "check_witness",
    "load_key",
    "open_witness",
    "read_key_if_any",
    "store_name",
]

log = logging.getLogger("mcp_harbor.store")

#: Records between two checkpoints.
DEFAULT_SEAL_EVERY: Final = 100
#: Seconds between two checkpoints while there are new records.
DEFAULT_SEAL_INTERVAL: Final = 60.0
#: The size of a created key, and the least a key file must hold.
KEY_BYTES: Final = 32
#: The witness line format.
_VERSION: Final = 1


def load_key(path: Path, *, create: bool) -> bytes:
    """The checkpoint key in `path`: its bytes, kept private to its owner.

    With `create`, a missing file is created: `KEY_BYTES` random bytes, mode
    0600 (its folder 0700 when it is created too).

    Raises:
        ConfigError: the file is missing (and not `create`), cannot be read,
            is readable by its group or by others, or holds fewer than
            `KEY_BYTES` bytes.
    """
    try:
        if create and not path.exists():
            _create_key(path)
        with open(path, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            key = f.read()
    except FileNotFoundError:
        raise ConfigError(
            f"audit key {path}: no such file (pass --audit-key FILE, or let mcp-harbor serve "
            "create it)"
        ) from None
    except OSError as exc:
        raise ConfigError(f"audit key {path}: cannot read it: {exc.strerror or exc}") from exc
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"audit key {path}: readable by others (mode {stat.S_IMODE(mode):04o}); "
            f"chmod 600 {path}"
        )
    if len(key) < KEY_BYTES:
        raise ConfigError(
            f"audit key {path}: too short ({len(key)} bytes, at least {KEY_BYTES}); remove it "
            "to have a new one created"
        )
    return key


def _create_key(path: Path) -> None:
    """Write a new key to `path` whole or not at all: into a private file
    beside it, then linked into place, so that a process starting at the
    same moment reads either no file or the whole key (the first link wins;
    the other process uses that key)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileExistsError):  # another process made it first
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)


def open_witness(path: Path) -> None:
    """Make sure the witness file exists (created empty, 0600, its folder
    0700) and can be appended to: at the start, so that a witness that
    cannot be written refuses the start instead of failing each checkpoint,
    and so that it is hidden from steps from the first one on.

    Raises:
        ConfigError: it cannot be created or opened for appending.
    """
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600))
    except OSError as exc:
        raise ConfigError(f"audit witness {path}: cannot append to it: {exc.strerror}") from exc


def store_name(store: Store) -> str:
    """The name a checkpoint gives `store`: its `location`, a SQLite path
    made absolute (so that ``--db ./harbor.db`` and the absolute path agree)."""
    location = store.location
    if "://" in location:
        return location
    return str(Path(location).absolute())


@final
@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One signed head of a store's chain: a witness file line."""

    store: str
    seq: int
    hash: str
    at: str
    mac: str

    @staticmethod
    def signed(key: bytes, store: str, seq: int, digest: str, at: str) -> Checkpoint:
        """The checkpoint of record `seq` (hash `digest`), signed with `key`."""
        return Checkpoint(store, seq, digest, at, _mac(key, store, seq, digest, at))

    def valid(self, key: bytes) -> bool:
        """Whether its MAC is `key`'s over its fields."""
        return hmac.compare_digest(self.mac, _mac(key, self.store, self.seq, self.hash, self.at))

    def line(self) -> str:
        """The witness file line (without the newline)."""
        return canonical_json(
            {
                "v": _VERSION,
                "store": self.store,
                "seq": self.seq,
                "hash": self.hash,
                "at": self.at,
                "mac": self.mac,
            }
        )

    @staticmethod
    def parse(line: str) -> Checkpoint | None:
        """The checkpoint of a witness line; None when it is not one."""
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or data.get("v") != _VERSION:
                return None
            seq = data["seq"]
            fields = (data["store"], data["hash"], data["at"], data["mac"])
        except (ValueError, KeyError):
            return None
        if type(seq) is not int or not all(isinstance(f, str) for f in fields):
            return None
        return Checkpoint(fields[0], seq, fields[1], fields[2], fields[3])


def _mac(key: bytes, store: str, seq: int, digest: str, at: str) -> str:
    text = canonical_json({"v": _VERSION, "store": store, "seq": seq, "hash": digest, "at": at})
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def _utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _append_line(path: Path, line: str) -> None:
    """Append one line with ``O_APPEND`` and fsync it (the file 0600)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


@final
class Sealer:
    """Signs a store's chain head into a witness file (see the module
    docstring): after every `every` records `noted`, every `interval`
    seconds while there are new records, and at `close`. Each checkpoint
    signs the head as it is when it is written (requests made while one is
    being written may be answered by the next one).

    Thread-safe. Signing runs in a thread of its own (started on the first
    `noted`), so a caller on an event loop never waits for the database
    read or the fsync; a checkpoint that fails is logged and tried again at
    the next turn.
    """

    def __init__(
        self,
        store: Store,
        key: bytes,
        witness: Path,
        *,
        every: int = DEFAULT_SEAL_EVERY,
        interval: float = DEFAULT_SEAL_INTERVAL,
    ) -> None:
        self.store = store
        self.witness = witness
        self._key = key
        self._name = store_name(store)
        self._every = max(every, 1)
        self._interval = interval
        self._count = 0
        self._sealed: int | None = None  # the seq of the last checkpoint written
        self._lock = threading.Lock()  # one checkpoint at a time
        self._count_lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        #: Checkpoints written so far.
        self.written = 0

    @property
    def sealed(self) -> int | None:
        """The seq of the latest checkpoint this sealer wrote (None: none yet)."""
        return self._sealed

    def noted(self, records: int = 1) -> None:
        """Count `records` appended; every `every`, ask for a checkpoint.
        Never blocks on I/O."""
        with self._count_lock:
            self._count += records
            due = self._count >= self._every
            if due:
                self._count = 0
            if self._thread is None and not self._stopping:
                self._thread = threading.Thread(
                    target=self._run, name="mcp-harbor-audit-seal", daemon=True
                )
                self._thread.start()
        if due:
            self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait(self._interval)
            self._wake.clear()
            if self._stopping:
                return
            self.seal()

    def seal(self) -> Checkpoint | None:
        """Sign the chain's head now, if it moved since the last checkpoint:
        the checkpoint written, or None (nothing new, or it failed: logged)."""
        with self._lock:
            try:
                head = self.store.head()
                if head is None or head[0] == self._sealed:
                    return None
                checkpoint = Checkpoint.signed(self._key, self._name, head[0], head[1], _utc_now())
                _append_line(self.witness, checkpoint.line())
            except (StoreError, OSError) as exc:
                log.error("audit checkpoint not written to %s: %s", self.witness, exc)
                return None
            self._sealed = head[0]
            self.written += 1
            log.debug("audit checkpoint: record %d signed into %s", head[0], self.witness)
            return checkpoint

    def close(self) -> None:
        """Stop the thread and write the last checkpoint (before the store
        closes). Idempotent."""
        with self._count_lock:
            if self._stopping:
                return
            self._stopping = True
            thread, self._thread = self._thread, None
        self._wake.set()
        if thread is not None:
            thread.join(timeout=30)
        self.seal()


@final
@dataclass(slots=True)
class WitnessReport:
    """What `check_witness` found for one store."""

    #: The witness file read (None: there was none to read).
    witness: Path | None
    #: Whether the signatures were checked (a key was there).
    signed: bool = False
    #: This store's checkpoints, in file order.
    checkpoints: int = 0
    #: The latest checkpoint that holds (its ordinal among this store's, its seq, its time).
    latest: tuple[int, int, str] | None = None
    #: The records after the latest checkpoint that holds (all: none holds).
    records_after: int = 0
    problems: list[str] = field(default_factory=list)


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, start=1):
            if line.strip():
                yield number, line


def check_witness(
    store_as: str,
    hashes_of: Callable[[], Mapping[int, str]],
    witness: Path | None,
    key: bytes | None,
) -> WitnessReport:
    """Check every checkpoint of the store named `store_as` (`store_name`)
    in `witness` against the chain's records (`hashes_of`: seq → hash,
    called after the witness file is read, so that a checkpoint written
    meanwhile names a record that is there): its MAC with `key` (unchecked
    when None), and that the record it names is in the chain with that hash.

    Raises:
        ConfigError: the witness file exists and cannot be read.
    """
    report = WitnessReport(witness=witness, signed=key is not None)
    lines: Sequence[tuple[int, str]] = []
    if witness is not None and witness.exists():
        try:
            lines = list(_lines(witness))
        except OSError as exc:
            raise ConfigError(f"audit witness {witness}: cannot read it: {exc.strerror}") from exc
    hashes = hashes_of()
    report.records_after = len(hashes)
    for number, line in lines:
        checkpoint = Checkpoint.parse(line)
        if checkpoint is None:
            report.problems.append(
                f"witness {witness} line {number}: not a checkpoint (the file was edited)"
            )
            continue
        if checkpoint.store != store_as:
            continue
        report.checkpoints += 1
        where = f"witness {witness} line {number} (checkpoint of record {checkpoint.seq})"
        if key is not None and not checkpoint.valid(key):
            report.problems.append(
                f"{where}: its signature does not match: the line was forged or the key is wrong"
            )
            continue
        held = hashes.get(checkpoint.seq)
        if held is None:
            report.problems.append(
                f"{where}: the chain has no record {checkpoint.seq}: records up to "
                f"{checkpoint.seq} were deleted (truncation)"
            )
            continue
        if not hmac.compare_digest(held, checkpoint.hash):
            report.problems.append(
                f"{where}: record {checkpoint.seq} has another hash than the one signed: "
                "the chain was rewritten"
            )
            continue
        if report.latest is None or checkpoint.seq >= report.latest[1]:
            report.latest = (report.checkpoints, checkpoint.seq, checkpoint.at)
    if report.latest is not None:
        covered = report.latest[1]
        report.records_after = sum(1 for seq in hashes if seq > covered)
    return report


def read_key_if_any(path: Path | None) -> bytes | None:
    """The key for checking (never created): None when `path` is None or
    does not exist.

    Raises:
        ConfigError: it exists and is refused by `load_key`.
    """
    if path is None or not path.exists():
        return None
    return load_key(path, create=False)
