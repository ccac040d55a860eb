"""The ``mcp-harbor`` command: thin commands over the library.

Each command parses its options, calls one library function and renders the
result. Exit codes: 0 success, 1 a tool error or a refused export, 2 usage or
configuration errors.
"""

from __future__ import annotations

import click

from mcp_harbor import __version__
from mcp_harbor.cli._app import setup_logging
from mcp_harbor.cli.approve import approvals, approve, deny
from mcp_harbor.cli.audit import audit
from mcp_harbor.cli.bundle import bundle
from mcp_harbor.cli.call import call
from mcp_harbor.cli.check import check
from mcp_harbor.cli.init import init
from mcp_harbor.cli.run import run
from mcp_harbor.cli.serve import serve
from mcp_harbor.cli.token import token
from mcp_harbor.cli.tools import tools
from mcp_harbor.cli.worker import worker

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mcp-harbor")
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
    envvar="MCP_HARBOR_LOG_LEVEL",
    help="Log level (logs go to stderr).",
)
def main(log_level: str) -> None:
    """mcp-harbor: publish configured pipelines as MCP tools."""
    setup_logging(log_level)


main.add_command(serve)
main.add_command(tools)
main.add_command(call)
main.add_command(run)
main.add_command(token)
main.add_command(audit)
main.add_command(approve)
main.add_command(deny)
main.add_command(approvals)
main.add_command(check)
main.add_command(worker)
main.add_command(init)
main.add_command(bundle)
