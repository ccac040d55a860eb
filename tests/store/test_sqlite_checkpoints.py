"""SQLite checkpoints run in the store's own thread, never inside a write."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import mcp_harbor.store.sqlite as sqlite_store
from mcp_harbor.store.sqlite import SqliteStore


def rows_in_database_file(path: Path) -> int:
    """Audit rows in the database file itself, the WAL ignored
    (``immutable=1`` reads the main file only, without locks); -1 when the
    read met a checkpoint half way through writing the file."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM audit").fetchone()[0])
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):  # not even the schema checkpointed yet
            return 0
        return -1
    except sqlite3.DatabaseError:  # a page read while the checkpoint wrote it
        return -1
    finally:
        db.close()


def wait_for(predicate: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def append(store: SqliteStore, count: int, start: int = 0) -> None:
    for i in range(start, start + count):
        store.append(f"call-{i}", "start", "alice", "tool", "running", {"i": i})


def test_records_reach_the_database_file_through_background_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 20)
    path = tmp_path / "audit.db"
    store = SqliteStore(path)
    try:
        append(store, 19)
        # No checkpoint before the 20th write: a write never checkpoints
        # (SQLite's own automatic one is raised far above 19 records).
        assert rows_in_database_file(path) == 0
        append(store, 41, start=19)
        assert wait_for(lambda: rows_in_database_file(path) >= 40), rows_in_database_file(path)
        assert store._checkpointer.runs >= 1
        assert store.verify().problems == []
    finally:
        store.close()
    # Closing leaves one intact chain of every record, in the file.
    reopened = SqliteStore(path)
    try:
        report = reopened.verify()
        assert (report.records, report.problems) == (60, [])
    finally:
        reopened.close()
    assert rows_in_database_file(path) == 60


def test_writes_go_on_while_a_reader_holds_an_old_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PASSIVE checkpoint never waits for a reader: with another
    connection holding a read transaction open, appends still succeed and
    the checkpoint copies what it may."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 10)
    path = tmp_path / "audit.db"
    store = SqliteStore(path)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        append(store, 10)
        assert wait_for(lambda: rows_in_database_file(path) >= 10)
        reader.execute("BEGIN")
        seen = reader.execute("SELECT count(*) FROM audit").fetchone()[0]
        append(store, 30, start=10)
        assert reader.execute("SELECT count(*) FROM audit").fetchone()[0] == seen
        reader.execute("COMMIT")
        append(store, 10, start=40)
        assert wait_for(lambda: rows_in_database_file(path) == 50)
        assert store.verify().records == 50
    finally:
        reader.close()
        store.close()
