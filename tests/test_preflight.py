"""Issue 9: ``needs:`` and preflight.

An export is offered only when what it needs is there: the programs its
steps run, declared env variables, files (relative to where the steps run:
tests/test_needs_paths.py), programs and TCP endpoints. `Preflight` probes
each distinct target once; ``serve`` hides an export whose needs are missing
(``--strict`` refuses to start), ``serve --watch --preflight-interval``
offers it once the need appears (with ``tools/list_changed``), a call whose
need vanished is refused and audited ``unavailable``, and ``check
--preflight`` reports it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    audit_json,
    harbor_cli,
    stdio_client_env,
    text_of,
    write_export,
)
from test_long_calls_reload import Changes, listening

from mcp_harbor.config import load_export
from mcp_harbor.preflight import Preflight

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A real listening TCP socket on 127.0.0.1 (a free port)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock


def endpoint(sock: socket.socket) -> str:
    host, port = sock.getsockname()
    return f"{host}:{port}"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def export_text(name: str, run: str = "echo hi", needs: str = "") -> str:
    text = f"name: {name}\ndescription: d\nsteps:\n  - name: s\n    run: {run}\n"
    return text + (f"needs:\n{needs}" if needs else "")


# --- Preflight itself ------------------------------------------------------------


def test_each_distinct_target_is_probed_once(
    tmp_path: Path, listener: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HARBOR_PREFLIGHT_TEST_VAR", "1")
    exports = []
    for i in range(6):
        needs = (
            f"  env: [HARBOR_PREFLIGHT_TEST_VAR]\n  tcp: ['{endpoint(listener)}']\n"
            f"  programs: [bash]\n  files: [shared.txt]\n"
        )
        path = write_export(tmp_path, f"e{i}.yaml", export_text(f"e{i}", "ls -l", needs))
        exports.append(load_export(path))
    (tmp_path / "shared.txt").write_text("x")
    preflight = Preflight(workdir=tmp_path)  # where the steps (no cwd:) run
    verdicts = preflight.verdicts(exports)
    assert all(v.ready for v in verdicts), [v.describe() for v in verdicts]
    # ls (from the step), bash, the env var, the file and the endpoint: five targets.
    assert preflight.probes == 5
    preflight.verdicts(exports)
    assert preflight.probes == 5  # cached
    preflight.verdicts(exports, force=True)
    assert preflight.probes == 10
    expired = Preflight(ttl=0.0)
    expired.verdicts(exports[:1])
    assert expired.probes >= 5


def test_cached_verdict_never_probes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a call asks on the event loop: the cached verdict, or None when a
    # need must be probed (then the call probes in a worker thread).
    monkeypatch.setenv("HARBOR_PREFLIGHT_TEST_VAR", "1")
    monkeypatch.delenv("HARBOR_PREFLIGHT_ABSENT", raising=False)
    needs = "  env: [HARBOR_PREFLIGHT_TEST_VAR, HARBOR_PREFLIGHT_ABSENT]\n"
    export = load_export(write_export(tmp_path, "e.yaml", export_text("e", "echo hi", needs)))
    bare = load_export(write_export(tmp_path, "b.yaml", export_text("b", "echo hi")))
    preflight = Preflight()
    assert preflight.cached_verdict(export) is None
    assert preflight.probes == 0
    assert preflight.cached_verdict(bare) == preflight.verdict(bare)  # no needs: always known
    probed = preflight.verdict(export)
    assert [n.target for n in probed.missing] == ["HARBOR_PREFLIGHT_ABSENT"]
    probes = preflight.probes
    assert probes >= 2
    assert preflight.cached_verdict(export) == probed
    assert preflight.probes == probes
    stale = Preflight(ttl=0.0)
    stale.verdict(export)
    assert stale.cached_verdict(export) is None  # expired: the caller probes again


def test_each_kind_of_need(
    tmp_path: Path, listener: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HARBOR_PREFLIGHT_ABSENT", raising=False)
    missing_port = closed_port()
    text = export_text(
        "all",
        "harbor-no-such-program-xyz --flag",
        "  env: [HARBOR_PREFLIGHT_ABSENT]\n"
        "  files: [data/input.txt]\n"
        "  programs: [harbor-declared-xyz]\n"
        f"  tcp: ['{endpoint(listener)}', '127.0.0.1:{missing_port}']\n",
    )
    path = write_export(tmp_path / "exports", "all.yaml", text)
    workdir = tmp_path / "exports"  # where the step (no cwd:) runs
    verdict = Preflight(workdir=workdir).verdict(load_export(path))
    assert not verdict.ready
    described = verdict.describe()
    assert [(n.kind, n.target) for n in verdict.missing] == [
        ("program", "harbor-no-such-program-xyz"),
        ("env", "HARBOR_PREFLIGHT_ABSENT"),
        ("program", "harbor-declared-xyz"),
        ("file", str(tmp_path / "exports" / "data" / "input.txt")),
        ("tcp", f"127.0.0.1:{missing_port}"),
    ]
    assert f"program 'harbor-no-such-program-xyz' is not on PATH (needed at {path}:5)" in described
    assert f"environment variable HARBOR_PREFLIGHT_ABSENT is not set (needed at {path}:6)" in (
        described
    )
    assert f"nothing accepts connections on 127.0.0.1:{missing_port}" in described
    # Each appears: the export is ready (a file relative to where the step runs).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for prog in ("harbor-no-such-program-xyz", "harbor-declared-xyz"):
        (bin_dir / prog).write_text("#!/bin/sh\n")
        (bin_dir / prog).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HARBOR_PREFLIGHT_ABSENT", "")
    (tmp_path / "exports" / "data").mkdir()
    (tmp_path / "exports" / "data" / "input.txt").write_text("x")
    text = text.replace(f"'127.0.0.1:{missing_port}'", f"'{endpoint(listener)}'")
    path.write_text(text)
    assert Preflight(workdir=workdir).verdict(load_export(path)).ready


# --- the CLI -----------------------------------------------------------------------


def test_check_preflight_and_serve_strict(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "ok.yaml", export_text("ok"))
    path = write_export(exports, "lacks.yaml", export_text("lacks", "harbor-missing-xyz run"))
    proc = harbor_cli("check", str(exports), check=False)
    assert proc.returncode == 0, proc.stderr  # without --preflight: accepted
    proc = harbor_cli("check", str(exports), "--preflight", check=False)
    assert proc.returncode == 1
    assert (
        f"preflight: lacks: program 'harbor-missing-xyz' is not on PATH (needed at {path}:5)"
        in proc.stderr
    ), proc.stderr
    assert "preflight: 1 of 2 accepted exports ready" in proc.stderr
    proc = harbor_cli(
        "serve", "--exports", str(exports), "--strict", "--db", str(tmp_path / "h.db"), check=False
    )
    assert proc.returncode == 1
    assert "refusing to start (--strict): lacks cannot run" in proc.stderr, proc.stderr
    assert "harbor-missing-xyz" in proc.stderr


def test_shipped_exports_pass_strict_preflight(tmp_path: Path, scripted_model: Any) -> None:
    # triage_failure's agent needs a model `triage`: a models file whose
    # endpoint lists it (the scripted OpenAI-compatible server) makes it ready.
    model = scripted_model([], models=["tiny"])
    models = tmp_path / "models.yaml"
    models.write_text(
        f"endpoints: {{local: {{base_url: '{model.base_url}'}}}}\n"
        "models: {triage: {primary: {endpoint: local, model: tiny}}}\n",
        encoding="utf-8",
    )
    exports = str(REPO / "exports")
    proc = harbor_cli(
        "check", "--strict", "--preflight", "--models", str(models), exports, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 refused" in proc.stdout
    count = len(list((REPO / "exports").glob("*.yaml")))
    assert f"preflight: {count} of {count} accepted exports ready" in proc.stderr
    # Without it, the agent export is the one not ready, and says why.
    proc = harbor_cli("check", "--strict", "--preflight", exports, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "triage_failure: model triage: this server has no models file" in proc.stderr


# --- over MCP ------------------------------------------------------------------------


async def names(client: object) -> set[str]:
    return {t.name for t in (await client.list_tools()).tools}  # type: ignore[attr-defined]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_program_appearing_offers_the_export(
    tmp_path: Path, listener: socket.socket, mode: str
) -> None:
    exports, bin_dir = tmp_path / "exports", tmp_path / "bin"
    bin_dir.mkdir()
    write_export(exports, "uses_tool.yaml", export_text("uses_tool", "harbor-late-tool hello"))
    write_export(
        exports,
        "needs_tcp.yaml",
        export_text("needs_tcp", needs=f"  tcp: ['{endpoint(listener)}']\n"),
    )
    write_export(
        exports, "needs_env.yaml", export_text("needs_env", needs="  env: [HARBOR_TEST_TOKEN]\n")
    )
    write_export(
        exports,
        "needs_gone_env.yaml",
        export_text("needs_gone_env", needs="  env: [HARBOR_NOPE]\n"),
    )
    write_export(
        exports, "needs_file.yaml", export_text("needs_file", needs="  files: [conf.ini]\n")
    )
    (exports / "conf.ini").write_text("x")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "HARBOR_TEST_TOKEN": "t"}
    extra = ("--watch", "--preflight-interval", "1", "--db", str(tmp_path / "h.db"))
    extra += ("--workdir", str(exports))  # where conf.ini is, and the steps run
    changes = Changes()
    with open(tmp_path / "server.stderr", "w") as errlog:
        client = stdio_client_env(
            exports,
            tmp_path / "state",
            mode,
            *extra,
            env=env,
            errlog=errlog,
            message_handler=changes.on_message,
        )
        async with client, listening(client, changes):
            assert await names(client) == {"needs_tcp", "needs_env", "needs_file"}
            tool = bin_dir / "harbor-late-tool"
            tool.write_text('#!/bin/sh\necho "late tool says $1"\n')
            tool.chmod(0o755)
            await changes.wait_for(1)
            assert await names(client) == {"uses_tool", "needs_tcp", "needs_env", "needs_file"}
            result = await client.call_tool("uses_tool", {})
            assert result.is_error is False and "late tool says hello" in text_of(result)
            # It vanishes: hidden again, and the client is told.
            tool.unlink()
            await changes.wait_for(2)
            assert await names(client) == {"needs_tcp", "needs_env", "needs_file"}
    log = (tmp_path / "server.stderr").read_text()
    assert "not offering uses_tool: preflight failed: program 'harbor-late-tool' is not on" in log
    assert (
        "not offering needs_gone_env: preflight failed: environment variable HARBOR_NOPE is not"
        in log
    )


@pytest.mark.anyio
async def test_a_need_that_vanished_refuses_the_call(tmp_path: Path) -> None:
    exports, db = tmp_path / "exports", tmp_path / "h.db"
    write_export(exports, "flagged.yaml", export_text("flagged", needs="  files: [flag]\n"))
    (exports / "flag").write_text("x")
    extra = ("--preflight-interval", "0.3", "--db", str(db), "--workdir", str(exports))
    async with stdio_client_env(exports, tmp_path / "state", "auto", *extra, env={}) as client:
        assert await names(client) == {"flagged"}
        assert (await client.call_tool("flagged", {})).is_error is False
        (exports / "flag").unlink()
        await anyio.sleep(0.5)  # older than --preflight-interval: probed again at the run's start
        result = await client.call_tool("flagged", {})
        assert result.is_error is True
        message = text_of(result)
        assert "flagged: flagged cannot run now:" in message, message
        assert f"{exports / 'flag'} does not exist" in message and "Nothing was run" in message
    calls = audit_json(db)
    assert [c["status"] for c in calls] == ["unavailable", "ok"]
