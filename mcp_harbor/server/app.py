"""Wire the handlers into the SDK's low-level server and serve a transport."""

from __future__ import annotations

import logging

import anyio
from mcp.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings

from mcp_harbor import __version__
from mcp_harbor.server.handlers import Handlers

__all__ = ["build_server", "serve_http", "serve_stdio"]

log = logging.getLogger("mcp_harbor.server")

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def build_server(handlers: Handlers) -> Server:
    """The low-level SDK server (both protocol eras) over `handlers`."""
    return Server(
        "mcp-harbor",
        version=__version__,
        instructions=(
            "Each tool runs a fixed pipeline configured by the operator; "
            "arguments are validated and never become shell syntax."
        ),
        get_tool_input_schema=handlers.input_schema,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
    )


async def serve_stdio(server: Server) -> None:
    """Serve one client over stdin/stdout until it disconnects.

    **Cancellation:** running calls are cancelled (their processes stopped).
    """
    async with stdio_server() as (read_stream, write_stream):
        await server.run(
            read_stream,
            write_stream,
            server.create_initialization_options(NotificationOptions(tools_changed=True)),
        )


def serve_http(
    server: Server, host: str, port: int, allowed_hosts: list[str] | None = None
) -> None:
    """Serve Streamable HTTP on ``http://HOST:PORT/mcp`` until interrupted.

    DNS-rebinding protection stays on: Host and Origin must be loopback
    names, or among `allowed_hosts` (``name:port`` or ``name:*``).
    """
    import uvicorn

    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    if host not in _LOOPBACK:
        hosts.append(f"{host}:*")
    for extra in allowed_hosts or []:
        hosts.append(extra)
        origins.extend([f"http://{extra}", f"https://{extra}"])
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )
    app = server.streamable_http_app(transport_security=security, host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    log.info("serving MCP over HTTP on http://%s:%d/mcp", host, port)
    anyio.run(uvicorn.Server(config).serve)
