"""What every command shares: the console, exits, and loading the exports."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console

from mcp_harbor.config import Export

__all__ = [
    "DEFAULT_EXPORTS",
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "abort",
    "exports_option",
    "load_published",
    "setup_logging",
    "stderr",
]

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2
DEFAULT_EXPORTS = Path("exports")

# Tool output and config text are untrusted: never interpret them as markup.
stderr = Console(stderr=True, markup=False, highlight=False, soft_wrap=True)


def abort(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print `message` to stderr and exit with `code` (the only exit path)."""
    stderr.print(message)
    sys.exit(code)


def setup_logging(level: str) -> None:
    """Log to stderr only (stdout may be the MCP stdio wire)."""
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, level.upper()),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


F = TypeVar("F", bound=Callable[..., Any])


def exports_option(fn: F) -> F:
    option = click.option(
        "--exports",
        "exports",
        multiple=True,
        type=click.Path(path_type=Path),
        help="A folder (or file) of export files; repeatable. Default: ./exports",
    )
    return option(fn)


def load_published(paths: Sequence[Path]) -> list[Export]:
    """Load the exports that may be published. Every command that publishes or
    calls tools goes through here, so none registers an unchecked export.

    Exits with code 2 when a file cannot be loaded.
    """
    from mcp_harbor.config import load_exports
    from mcp_harbor.errors import ConfigError

    try:
        return load_exports(list(paths) or [DEFAULT_EXPORTS])
    except ConfigError as exc:
        abort("invalid exports:\n" + "\n".join(f"  {p}" for p in exc.problems), EXIT_USAGE)
