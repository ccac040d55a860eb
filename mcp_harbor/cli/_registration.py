"""How Claude Code and Claude Desktop start this mcp-harbor on a folder of
exports: the command, and the two registrations written out for copying."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["SERVER_NAME", "Registration", "harbor_command"]

#: The name the registrations give the server in the client (as README.md's).
SERVER_NAME = "harbor"


def harbor_command() -> list[str]:
    """The command that runs the mcp-harbor in use, absolute: the
    ``mcp-harbor`` script this process was started as, or this interpreter
    with ``-m mcp_harbor`` when it was started that way (or the script
    cannot be found again)."""
    started_as = sys.argv[0] if sys.argv else ""
    if started_as and Path(started_as).name != "__main__.py":
        found = started_as if "/" in started_as else shutil.which(started_as)
        if found is not None and Path(found).is_file():
            return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "mcp_harbor"]


@dataclass(frozen=True)
class Registration:
    """``mcp-harbor serve`` on one exports folder, steps running in `workdir`,
    as a client starts it over stdio."""

    exports: Path
    workdir: Path
    command: tuple[str, ...]

    @property
    def argv(self) -> list[str]:
        """The whole command line the client runs."""
        return [
            *self.command,
            "serve",
            "--exports",
            str(self.exports),
            "--workdir",
            str(self.workdir),
        ]

    def command_line(self, *args: str) -> str:
        """This mcp-harbor with `args`, as a shell command line."""
        return shlex.join([*self.command, *args])

    def claude_code(self) -> str:
        """The shell command that registers the server with Claude Code."""
        return shlex.join(["claude", "mcp", "add", SERVER_NAME, "--", *self.argv])

    def claude_desktop(self) -> dict[str, Any]:
        """The ``mcpServers`` entry of Claude Desktop's ``claude_desktop_config.json``."""
        command, *args = self.argv
        return {"mcpServers": {SERVER_NAME: {"command": command, "args": args}}}

    def render(self) -> str:
        """Both registrations, with where each goes."""
        desktop = json.dumps(self.claude_desktop(), indent=2)
        return (
            "Claude Code: run\n\n"
            f"  {self.claude_code()}\n\n"
            'Claude Desktop: add this "mcpServers" entry to claude_desktop_config.json\n'
            "(Settings > Developer > Edit Config), then restart Claude Desktop:\n\n"
            f"{desktop}\n"
        )
