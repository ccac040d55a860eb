"""Shell completion (issue 21): Click's scripts for bash, zsh and fish, and
completions answered by the real command, through Click's protocol and
through real bash sourcing the script."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from harbor_helpers import PY, harbor_cli, write_export

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o nosort -F _mcp_harbor_completion mcp-harbor"),
        ("zsh", "compdef _mcp_harbor_completion mcp-harbor"),
        ("fish", "complete --no-files --command mcp-harbor"),
    ],
)
def test_the_completion_script_is_printed(shell: str, marker: str) -> None:
    proc = harbor_cli(_MCP_HARBOR_COMPLETE=f"{shell}_source")
    assert marker in proc.stdout
    assert "_MCP_HARBOR_COMPLETE" in proc.stdout


def _complete(*words: str, cwd: Path | None = None) -> list[str]:
    """What Click's bash protocol answers for the command line `words`
    (the last one being completed)."""
    env = dict(os.environ)
    env.update(
        _MCP_HARBOR_COMPLETE="bash_complete",
        COMP_WORDS=" ".join(["mcp-harbor", *words]),
        COMP_CWORD=str(len(words)),
    )
    proc = subprocess.run(
        [PY, "-m", "mcp_harbor"], env=env, capture_output=True, text=True, timeout=60, cwd=cwd
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout.splitlines()


def test_completing_a_command_offers_the_commands_that_start_so() -> None:
    assert _complete("to") == ["plain,token", "plain,tools"]
    assert "plain,bundle" in _complete("b")


def test_completing_call_offers_the_exports_tool_names(tmp_path: Path) -> None:
    assert _complete("call", "se", cwd=ROOT) == ["plain,search_text"]  # ./exports
    folder = tmp_path / "mine"
    write_export(folder, "a.yaml", "name: sweep\ndescription: x\nsteps: [{name: s, run: 'true'}]\n")
    (folder / "broken.yaml").write_text("name: [\n")  # passed over, never an error
    assert _complete("call", "--exports", str(folder), "s") == ["plain,sweep"]
    assert _complete("run", "--exports", str(folder), "") == ["plain,sweep"]


def test_bash_sourcing_the_script_completes(tmp_path: Path) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "mcp-harbor"  # what the script calls back, as installed
    launcher.write_text(f'#!/bin/sh\nexec "{PY}" -m mcp_harbor "$@"\n')
    launcher.chmod(0o755)
    script = harbor_cli(_MCP_HARBOR_COMPLETE="bash_source").stdout
    (tmp_path / "completion.bash").write_text(script)
    probe = (
        f"source {tmp_path / 'completion.bash'}\n"
        "COMP_WORDS=(mcp-harbor to); COMP_CWORD=1\n"
        "_mcp_harbor_completion mcp-harbor\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    proc = subprocess.run(
        [bash, "--norc", "--noprofile", "-c", probe],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["token", "tools"]
