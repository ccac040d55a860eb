"""Shared fixtures of the mcp-harbor suite (tests/check/ has its own)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from scripted_model import ScriptedModel

#: The later stage (marker ``later``): deselected from the main suite by
#: pyproject's ``-m 'not later'``, run after it by .ci/run with
#: ``pytest -m later``. Whole folders (workers on Redis, reliability, foreign
#: clients) and single files: the checker's adversarial runs (attacks,
#: oracle, properties; the template sweep follows them in .ci/run), the
#: every-entry-point envelope comparison, which starts a CLI and a server
#: process per outcome, and the stress of the audit (killed servers, a
#: locked store, 200 concurrent calls) and of the concurrency limits; the
#: agent steps' scripted-model scenarios against real servers (agents/) and
#: the floods of refused requests; durable tasks against real servers
#: (restarts, replicas, TTL) and their PostgreSQL replicas; OAuth against a
#: real OpenID Provider on Node (oauth/).
LATER_STAGE = frozenset({"scale", "reliability", "interop", "agents", "oauth"})
LATER_FILES = frozenset(
    {
        "check/test_attacks.py",
        "check/test_oracle.py",
        "check/test_property.py",
        "check/test_constructs.py",
        "check/test_reprint_alike.py",
        "test_envelope_entrypoints.py",
        "test_audit_durability.py",
        "test_long_calls_limits.py",
        "test_rejected_requests.py",
        "test_tasks_http.py",
        "store/test_store_pg_tasks.py",
        "test_tokens.py",
        "test_oauth_cli.py",
        # Long calls through real servers, and the agent CLI: ~2 min of the
        # main suite, moved here to keep it under 10 minutes (issue 25).
        "test_long_calls_confirm.py",
        "test_long_calls_rate_limit.py",
        "test_call_url.py",
        "test_tools_listing_all.py",
        "test_agent_cli.py",
    }
)
#: The real-model stage (marker ``realmodel``): deselected from the main suite
#: by pyproject's ``addopts`` too, run last by .ci/run with
#: ``bash .ci/realmodel && pytest -m realmodel`` (a small model on the
#: llama.cpp server, which .ci/realmodel installs; tests/realmodel/conftest.py).
REALMODEL_STAGE = frozenset({"realmodel"})
_TESTS = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of the later stage ``later``, of the real-model stage
    ``realmodel``."""
    for item in items:
        try:
            where = item.path.relative_to(_TESTS)
        except ValueError:
            continue
        if where.parts[0] in LATER_STAGE or where.as_posix() in LATER_FILES:
            item.add_marker(pytest.mark.later)
        if where.parts[0] in REALMODEL_STAGE:
            item.add_marker(pytest.mark.realmodel)


#: Where `mcp-harbor serve` and `run` keep the audit checkpoints' key and
#: witness file (default: the config folder of whoever runs them).
_AUDIT_SEAL_FILES = {
    "MCP_HARBOR_AUDIT_KEY": "audit.key",
    "MCP_HARBOR_AUDIT_WITNESS": "audit.witness",
}


@pytest.fixture(scope="session", autouse=True)
def audit_seal_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every mcp-harbor the suite starts signs its audit checkpoints with a
    key, into a witness file, of the session's temporary folder, never in
    the home of whoever runs the tests (`harbor_helpers.server_env` puts a
    server's own next to its state; a test that wants the defaults sets
    these variables to the empty string, which click reads as unset)."""
    folder = tmp_path_factory.mktemp("audit-seal")
    saved = {name: os.environ.get(name) for name in _AUDIT_SEAL_FILES}
    for name, file in _AUDIT_SEAL_FILES.items():
        os.environ.setdefault(name, str(folder / file))
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Run every ``@pytest.mark.anyio`` test on asyncio (anyio's pytest plugin)."""
    return "asyncio"


@pytest.fixture
def fresh_checker() -> Iterator[None]:
    """The checker with no verdict in memory and no cache file attached, as
    in a new process; the same again afterwards."""
    from mcp_harbor.check import cachefile, clear_cache

    clear_cache()
    cachefile.detach()
    yield
    clear_cache()
    cachefile.detach()


@pytest.fixture
def scripted_model() -> Iterator[Callable[..., ScriptedModel]]:
    """A factory of started scripted OpenAI-compatible servers
    (tests/scripted_model.py): ``scripted_model(turns)`` or
    ``scripted_model(scripts={model: turns}, models=[...])``; each has a
    ``base_url`` and is closed after the test."""
    from scripted_model import serving

    with serving() as factory:
        yield factory
