"""Shared fixtures of the mcp-harbor suite (tests/check/ has its own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


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
