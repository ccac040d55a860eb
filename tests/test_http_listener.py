"""The HTTP transport's listening socket: connections accepted from it
have Nagle's algorithm off (issue 25: with it on, every response on a
kept-alive connection waited 40 ms for the client's delayed ACK)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from mcp_harbor.errors import ConfigError
from mcp_harbor.server.app import _listen


def _accepted_nodelay(listener: socket.socket) -> int:
    """TCP_NODELAY of a connection asyncio accepts from `listener`, as
    uvicorn serves it (``loop.create_server(sock=…)``)."""

    async def main() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=listener)
        host, port = listener.getsockname()[:2]
        _, writer = await asyncio.open_connection(host, port)
        try:
            return await asyncio.wait_for(seen, 10)
        finally:
            writer.close()
            server.close()

    return asyncio.run(main())


def test_accepted_connections_have_nagle_off() -> None:
    listener = _listen("127.0.0.1", 0)
    assert _accepted_nodelay(listener) == 1


def test_accepted_ipv6_connections_have_nagle_off() -> None:
    listener = _listen("::1", 0)
    assert listener.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
    assert _accepted_nodelay(listener) == 1


def test_the_listener_is_not_inherited_and_reuses_the_address() -> None:
    listener = _listen("127.0.0.1", 0)
    try:
        assert not listener.get_inheritable()
        assert listener.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR) == 1
    finally:
        listener.close()


def test_a_port_in_use_is_a_config_error() -> None:
    first = _listen("127.0.0.1", 0)
    try:
        port = first.getsockname()[1]
        with pytest.raises(ConfigError, match="another process listens there"):
            _listen("127.0.0.1", port)
    finally:
        first.close()
