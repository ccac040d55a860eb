"""Shared fixtures of the mcp-harbor suite (tests/check/ has its own)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Run every ``@pytest.mark.anyio`` test on asyncio (anyio's pytest plugin)."""
    return "asyncio"
