"""``mcp-harbor bundle``: checked exports as an MCP Bundle for Claude Desktop."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from mcp_harbor.cli._app import (
    EXIT_USAGE,
    abort,
    exports_option,
    harbor_errors,
    load_published,
    programs_option,
    stderr,
    use_programs_file,
)

__all__ = ["bundle"]


@click.command()
@exports_option
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The bundle file to write (FILE.mcpb); its name names the bundle.",
)
@click.option(
    "--executable",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="Start this mcp-harbor executable instead of `uvx --from mcp-harbor==VERSION "
    "mcp-harbor` (uv on the user's machine installs it from PyPI).",
)
@programs_option
def bundle(
    exports: tuple[Path, ...], output: Path, executable: Path | None, programs: Path | None
) -> None:
    """Build an MCP Bundle (.mcpb) of the exports: Claude Desktop installs it
    in one click and asks for the project folder the tools work in.

    The exports go through the checker first, as for serve. Exit 0 when the
    bundle is written, 1 when the checker refused an export, 2 when a file
    cannot be loaded or the bundle cannot be written.
    """
    from mcp_harbor.mcpb import Launcher, build_bundle, bundle_name, left_behind

    use_programs_file(programs)
    checked = load_published(exports).exports
    # A bundle carries no models file (the operator's), so its server could
    # never offer an export with agent steps: those are left out.
    published = [e for e in checked if not e.models]
    launcher = Launcher.executable(executable) if executable is not None else Launcher.uvx()
    name = bundle_name(output)
    with harbor_errors():
        data = build_bundle(published, name=name, launcher=launcher, programs_file=programs)
    for warning in left_behind(checked):
        stderr.print(f"warning: {warning}")
    _write_whole(output, data)
    stderr.print(f"wrote {output} ({name}: {len(published)} tools, {len(data)} bytes)")


def _write_whole(path: Path, data: bytes) -> None:
    """Write `data` to `path` in one step (a temporary file beside it,
    renamed over it): a reader never sees half a bundle. Exits 2 when it
    cannot be written."""
    folder = path.absolute().parent
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        abort(f"{path}: cannot write the bundle: {exc.strerror or exc}", EXIT_USAGE)
