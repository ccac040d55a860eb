"""Issue 23: ``serve --auth`` and the OAuth options refuse what cannot work
before anything is opened, with what, where and how to fix it (exit 2, no
traceback), through the real command."""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import harbor_cli, write_export


@pytest.fixture
def exports(tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    write_export(
        folder, "a.yaml", "name: a\ndescription: a\nsteps:\n  - name: a\n    run: echo a\n"
    )
    return folder


def serve(tmp_path: Path, exports: Path, *args: str) -> str:
    proc = harbor_cli(
        "serve", "--exports", str(exports), "--db", str(tmp_path / "a.db"), *args,
        state=tmp_path / "state", check=False, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "a.db").exists()  # refused before the store was opened
    return proc.stderr


HTTP = ("--transport", "http", "--port", "0")


def test_options_that_cannot_work(tmp_path: Path, exports: Path) -> None:
    said = serve(tmp_path, exports, *HTTP, "--auth", "oauth,bogus")
    assert "expected tokens, oauth or tokens,oauth" in said
    said = serve(tmp_path, exports, *HTTP, "--auth", "oauth")
    assert "needs --issuer URL and --audience URL" in said
    said = serve(tmp_path, exports, *HTTP, "--auth", "oauth", "--issuer", "https://idp.example")
    assert "needs --audience URL" in said
    said = serve(tmp_path, exports, *HTTP, "--issuer", "https://idp.example")
    assert "--issuer configure OAuth, which --auth tokens does not use" in said
    said = serve(
        tmp_path, exports, *HTTP, "--auth", "oauth", "--issuer", "http://idp.example",
        "--audience", "https://harbor.example/mcp", "--required-scope", "two words",
    )  # fmt: skip
    assert "plain http off loopback" in said and "--required-scope 'two words'" in said
    said = serve(tmp_path, exports, "--auth", "oauth", "--issuer", "https://idp.example")
    assert "apply to --transport http" in said


def test_the_auth_config_file_names_its_lines(tmp_path: Path, exports: Path) -> None:
    config = tmp_path / "auth.yaml"
    config.write_text(
        "audience: https://harbor.example/mcp\n"
        "issuers:\n"
        "  - issuer: https://a.example\n"
        "  - issuer: https://b.example\n"
        "    name: b\n"
        "    algorithms: [HS256]\n"
    )
    said = serve(tmp_path, exports, *HTTP, "--auth", "oauth", "--auth-config", str(config))
    assert f"{config}:4:" in said and "never none nor HS" in said
    config.write_text(
        "audience: https://harbor.example/mcp\n"
        "issuers:\n"
        "  - issuer: https://a.example\n"
        "  - issuer: https://b.example\n"
    )
    said = serve(tmp_path, exports, *HTTP, "--auth", "oauth", "--auth-config", str(config))
    assert "each needs a name" in said
    said = serve(
        tmp_path, exports, *HTTP, "--auth", "oauth", "--auth-config", str(config),
        "--issuer", "https://a.example",
    )  # fmt: skip
    assert "--auth-config holds the OAuth settings: drop --issuer" in said
