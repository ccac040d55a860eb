"""``python -m mcp_harbor`` is ``mcp-harbor``."""

from mcp_harbor.cli import main

# The name completion and usage lines go by (_MCP_HARBOR_COMPLETE), not
# "python -m mcp_harbor".
main(prog_name="mcp-harbor")
