"""``mcp-harbor init``: a project's first exports, and how to register them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import click

from mcp_harbor.cli._app import EXIT_USAGE, abort, stderr

__all__ = ["STARTER_EXPORTS", "init"]

#: The example exports `init` writes (from mcp_harbor/cli/starter/).
STARTER_EXPORTS = ("list_files.yaml", "run_tests.yaml")


@click.command()
@click.argument("directory", default=".", type=click.Path(path_type=Path))
def init(directory: Path) -> None:
    """Create DIRECTORY/exports/ (default: ./exports) with two commented
    example exports, and print how to register them with Claude Code and
    Claude Desktop.

    Never overwrites a file: one that exists is kept, and said so. Exit 0
    when the exports are in place, 2 when DIRECTORY or DIRECTORY/exports is
    not a folder or cannot be written.
    """
    from mcp_harbor.cli._registration import Registration, harbor_command

    project = directory.absolute()
    exports = project / "exports"
    for folder in (project, exports):
        if folder.exists() and not folder.is_dir():
            abort(f"{folder}: not a folder; give mcp-harbor init a folder (or a new path)")
    try:
        exports.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        abort(f"{exports}: cannot create it: {exc.strerror or exc}", EXIT_USAGE)
    for name in STARTER_EXPORTS:
        target = exports / name
        if _write_new(target, _starter_text(name)):
            stderr.print(f"created {target}")
        else:
            stderr.print(f"kept {target} (it exists; not overwritten)")
    registration = Registration(exports, project, tuple(harbor_command()))
    click.echo(f"\nCheck them: {registration.command_line('check', str(exports))}\n")
    click.echo(registration.render(), nl=False)


def _starter_text(name: str) -> str:
    return (resources.files("mcp_harbor.cli") / "starter" / name).read_text("utf-8")


def _write_new(path: Path, text: str) -> bool:
    """Write `text` to `path` only if nothing is there (not even a dangling
    symlink): True when written, False when something was kept. Exits 2
    when it cannot be written."""
    try:
        with path.open("x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        return False
    except OSError as exc:
        abort(f"{path}: cannot write it: {exc.strerror or exc}", EXIT_USAGE)
    return True
