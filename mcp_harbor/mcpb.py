"""MCP Bundles (``.mcpb``): checked exports as one file that Claude Desktop
installs in one click.

A bundle is a zip archive with a ``manifest.json`` (MCPB manifest version
0.3, the version `npx @anthropic-ai/mcpb validate` knows as its latest
schema), the export files under ``exports/`` (and the program grammars as
``programs.yaml`` when given), and ``server/main.py``, the entry point. It
carries no Python packages: the manifest starts mcp-harbor through ``uvx``
(which installs it from PyPI on first use) or through a given
``mcp-harbor`` executable, on the bundle's own exports, with the steps
running in the folder the user picks at install time.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_harbor import __version__
from mcp_harbor.errors import ConfigError

if TYPE_CHECKING:
    from mcp_harbor.config import Export

__all__ = [
    "ENTRY_POINT",
    "MANIFEST_VERSION",
    "Launcher",
    "build_bundle",
    "bundle_name",
    "left_behind",
    "manifest",
]

MANIFEST_VERSION = "0.3"
ENTRY_POINT = "server/main.py"
_EXPORTS = "exports"
_PROGRAMS = "programs.yaml"
#: Every entry's time in the archive: the same exports make the same bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)

# The entry point, for a host that runs it with a Python that has
# mcp-harbor installed: `python server/main.py [serve options]`.
_MAIN_PY = '''\
"""Serve this bundle's exports: python server/main.py [mcp-harbor serve options].

Needs mcp-harbor installed in this Python (pip install mcp-harbor).
"""

import sys
from pathlib import Path

from mcp_harbor.cli import main

bundle = Path(__file__).resolve().parent.parent
argv = ["serve", "--exports", str(bundle / "exports")]
if (bundle / "programs.yaml").is_file():
    argv += ["--programs", str(bundle / "programs.yaml")]
main([*argv, *sys.argv[1:]], prog_name="mcp-harbor")
'''


@dataclass(frozen=True)
class Launcher:
    """How the host starts mcp-harbor: `command` and the arguments that
    come before ``serve``."""

    command: str
    leading_args: tuple[str, ...] = ()

    @classmethod
    def uvx(cls, version: str = __version__) -> Launcher:
        """``uvx --from mcp-harbor==VERSION mcp-harbor``: needs uv on the
        user's machine; installs this version of mcp-harbor from PyPI on
        first use."""
        return cls("uvx", ("--from", f"mcp-harbor=={version}", "mcp-harbor"))

    @classmethod
    def executable(cls, path: Path) -> Launcher:
        """An installed ``mcp-harbor`` (absolute), e.g. a team's shared one."""
        return cls(str(path.absolute()))


def bundle_name(output: Path) -> str:
    """The bundle's name, from the file it is written to (``team-tools.mcpb``
    → ``team-tools``): lowercase letters, digits and dashes."""
    name = re.sub(r"[^a-z0-9]+", "-", output.stem.lower()).strip("-")
    return name or "mcp-harbor"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def manifest(
    exports: Sequence[Export], *, name: str, launcher: Launcher, programs: bool = False
) -> dict[str, Any]:
    """The ``manifest.json`` of a bundle of `exports`: its tools listed, its
    server started by `launcher` as ``serve --exports ${__dirname}/exports
    --workdir ${user_config.workdir}`` (and ``--programs`` with the
    bundled grammars when `programs`)."""
    args = [*launcher.leading_args, "serve", "--exports", f"${{__dirname}}/{_EXPORTS}"]
    if programs:
        args += ["--programs", f"${{__dirname}}/{_PROGRAMS}"]
    args += ["--workdir", "${user_config.workdir}"]
    tools = [{"name": e.name, "description": _one_line(e.spec.description)} for e in exports]
    listing = "\n".join(f"- `{t['name']}`: {t['description']}" for t in tools)
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": name,
        "display_name": f"mcp-harbor: {name}",
        "version": __version__,
        "description": f"{len(tools)} pipelines published as tools by mcp-harbor.",
        "long_description": (
            "Fixed pipelines declared in YAML, published by mcp-harbor: a caller only "
            "fills typed arguments, never shell syntax, and every step runs confined, "
            f"in the project folder chosen at install.\n\n{listing}\n"
        ),
        "author": {"name": "mcp-harbor"},
        "server": {
            "type": "python",
            "entry_point": ENTRY_POINT,
            "mcp_config": {"command": launcher.command, "args": args},
        },
        "tools": tools,
        "keywords": ["mcp-harbor", "pipelines"],
        "compatibility": {"platforms": ["darwin", "linux"], "runtimes": {"python": ">=3.11"}},
        "user_config": {
            "workdir": {
                "type": "directory",
                "title": "Project folder",
                "description": "The folder the tools work in: their steps run there, and "
                "path arguments must stay inside it.",
                "required": True,
            }
        },
    }


def left_behind(exports: Sequence[Export]) -> list[str]:
    """What `exports` name relative to their file's folder, which a bundle
    does not carry (a step's ``cwd:``, a ``needs: files:`` entry), and the
    models their ``agent:``/``fix:`` steps use (the models file is the
    operator's, never bundled): one message each, for the builder to fix or
    accept."""
    out = []
    for export in exports:
        if export.models:
            out.append(
                f"{export.path}: its agent steps use the model(s) "
                f"{', '.join(sorted(export.models))}, and a bundle carries no models file "
                "(serve --models): it is left out of the bundle"
            )
        for step in export.all_steps:
            if step.spec.cwd is not None and not Path(step.spec.cwd).is_absolute():
                out.append(
                    f"{export.path}: step {step.name}'s cwd: {step.spec.cwd!r} is relative to "
                    "the export file's folder, which the bundle does not carry"
                )
        for needed in export.spec.needs.files:
            if not Path(needed).is_absolute():
                out.append(
                    f"{export.path}: needs: files: {needed!r} is relative to the export "
                    "file's folder, which the bundle does not carry"
                )
    return out


def build_bundle(
    exports: Sequence[Export],
    *,
    name: str,
    launcher: Launcher,
    programs_file: Path | None = None,
) -> bytes:
    """The ``.mcpb`` archive of `exports` (already checked: the caller
    loads them through the checker): the manifest, the export files as
    they are, the entry point, and `programs_file` as ``programs.yaml``.

    Raises:
        ConfigError: there are no exports, two export files have the same
            name (they would be one file in the bundle), or a file cannot
            be read.
    """
    if not exports:
        raise ConfigError("no exports to bundle: give --exports a folder of export files")
    files: dict[str, bytes] = {}
    for export in exports:
        member = f"{_EXPORTS}/{export.path.name}"
        if member in files:
            raise ConfigError(
                f"{export.path}: another export file is also named {export.path.name}, "
                "and a bundle holds one folder of exports; rename one of them"
            )
        files[member] = _read(export.path)
    if programs_file is not None:
        files[_PROGRAMS] = _read(programs_file)
    files[ENTRY_POINT] = _MAIN_PY.encode()
    document = manifest(exports, name=name, launcher=launcher, programs=programs_file is not None)
    files["manifest.json"] = (json.dumps(document, indent=2) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in sorted(files):
            info = zipfile.ZipInfo(member, date_time=_ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[member])
    return buffer.getvalue()


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it: {exc.strerror or exc}") from exc
