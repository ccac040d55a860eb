"""``python -m mcp_harbor`` is ``mcp-harbor``."""

from mcp_harbor.cli import main

main()
