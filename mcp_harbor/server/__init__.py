"""The MCP server: registry of tools, handlers, transports."""

from mcp_harbor.server.app import build_server, is_loopback, serve_http, serve_stdio
from mcp_harbor.server.handlers import CallerMiddleware, Handlers
from mcp_harbor.server.registry import PublishedTool, Registry
from mcp_harbor.server.results import error_result, tool_result

__all__ = [
    "CallerMiddleware",
    "Handlers",
    "PublishedTool",
    "Registry",
    "build_server",
    "error_result",
    "is_loopback",
    "serve_http",
    "serve_stdio",
    "tool_result",
]
