"""What a step receives of the server's environment, in-process through the
real call path (`CallService`, real bash, a real SQLite file): only the
minimal set (``PATH``, ``HOME``, ``LANG``, ``LC_*``, …), the names the
server's ``--pass-env`` (`RunSettings.pass_env`) and the export's
``pass_env:`` list, as they are at each call (the inherited part is cached
between calls, so a change must still be seen); never ``BASH_ENV``/``ENV``
or any ``ARG_*``/``HARBOR_*``, even when listed."""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.config.loader import load_export
from mcp_harbor.errors import ConfigError
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import CallRequest, ExportCatalog
from mcp_harbor.runctx.service import CallService, RunSettings
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

EXPORT = """
    name: show_env
    description: Prints a few variables of its environment.
    pass_env: [EXPORT_PROBE]
    steps:
      - name: show
        run: |
          echo "probe=${SERVER_ENV_PROBE-unset}"
          echo "export_probe=${EXPORT_PROBE-unset}"
          echo "hidden=${SERVER_HIDDEN-unset}"
          echo "bash_env=${BASH_ENV-unset}"
          echo "env=${ENV-unset}"
          echo "arg=${ARG_smuggled-unset}"
          echo "harbor=${HARBOR_SMUGGLED-unset}"
          echo "tz=${TZ-unset} lc=${LC_ALL-unset} home=${HOME-unset}"
          echo "names=$(compgen -e | sort | tr '\\n' ' ')"
"""

#: What bash itself sets in every script's environment.
_BASH_OWN = {"PWD", "SHLVL", "OLDPWD", "_"}


async def test_steps_receive_only_what_is_passed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_export(tmp_path / "exports", "show_env.yaml", EXPORT)
    export = load_export(path)
    store = SqliteStore(tmp_path / "audit.db")
    try:
        service = CallService(
            RunSettings(
                runs_root=tmp_path / "runs",
                workdir=tmp_path,
                # The server's --pass-env; the names that never pass are dropped.
                pass_env=("SERVER_ENV_PROBE", "BASH_ENV", "ENV", "HARBOR_SMUGGLED"),
            ),
            AuditTrail(store),
            store,
            catalog=ExportCatalog([export]),
        )
        caller = Caller(transport="stdio", principal="local:test", session="stdio:test")

        async def output() -> str:
            envelope = await service.call(CallRequest(export.name, {}, caller))
            assert envelope.ok, envelope.answer
            return str(envelope.steps[0]["stdout_tail"])

        monkeypatch.setenv("SERVER_ENV_PROBE", "one")
        monkeypatch.setenv("EXPORT_PROBE", "from pass_env")
        monkeypatch.setenv("SERVER_HIDDEN", "the server's own")
        monkeypatch.setenv("BASH_ENV", str(tmp_path / "never-read"))
        monkeypatch.setenv("ENV", str(tmp_path / "never-read"))
        monkeypatch.setenv("ARG_smuggled", "from the server")
        monkeypatch.setenv("HARBOR_SMUGGLED", "from the server")
        monkeypatch.setenv("TZ", "UTC")
        monkeypatch.setenv("LC_ALL", "C")
        first = await output()
        assert "probe=one\nexport_probe=from pass_env\nhidden=unset\n" in first
        assert "bash_env=unset\nenv=unset\narg=unset\nharbor=unset\n" in first
        assert "tz=UTC lc=C home=" in first and "home=unset" not in first
        names = set(first.split("names=", 1)[1].split())
        runtime = {n for n in names if n.startswith(("HARBOR_", "ARG_", "STEP_"))}
        rest = names - runtime - _BASH_OWN
        allowed = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TERM", "TMPDIR"}
        allowed |= {"SERVER_ENV_PROBE", "EXPORT_PROBE"}
        assert {n for n in rest if not n.startswith("LC_")} <= allowed, rest
        assert (
            not runtime
            - {
                "HARBOR_RUN_ID",
                "HARBOR_RUN_DIR",
                "HARBOR_TOOL",
                "HARBOR_STEP",
                "HARBOR_STEP_OUTPUT",
                "HARBOR_PROGRESS",
                "HARBOR_CONTEXT",
                "HARBOR_OUTPUT",
            }
            - {n for n in runtime if n.startswith("HARBOR_CALLER_")}
        )

        monkeypatch.setenv("SERVER_ENV_PROBE", "two")
        assert "probe=two\n" in await output()

        monkeypatch.delenv("SERVER_ENV_PROBE")
        monkeypatch.delenv("EXPORT_PROBE")
        assert "probe=unset\nexport_probe=unset\n" in await output()
    finally:
        store.close()


@pytest.mark.parametrize(
    ("listed", "says"),
    [
        ("BASH_ENV", "BASH_ENV and ENV never reach a step"),
        ("ENV", "BASH_ENV and ENV never reach a step"),
        ("HARBOR_TOKEN", "the runtime's variables"),
        ("1X", "is not an environment variable name"),
        ("SHELLOPTS", "bash reads SHELLOPTS from its environment as a setting"),
        ("BASHOPTS", "bash reads BASHOPTS from its environment as a setting"),
        ("CDPATH", "bash reads CDPATH from its environment as a setting"),
    ],
)
def test_pass_env_refuses_what_may_never_pass(tmp_path: Path, listed: str, says: str) -> None:
    text = EXPORT.replace(
        "pass_env: [EXPORT_PROBE]", f'pass_env:\n      - EXPORT_PROBE\n      - "{listed}"'
    )
    path = write_export(tmp_path / "exports", "show_env.yaml", text)
    with pytest.raises(ConfigError) as caught:
        load_export(path)
    assert str(caught.value).startswith(f"{path}:5: pass_env entry ")
    assert says in str(caught.value)


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ('{SHELLOPTS: "allexport"}', "bash reads SHELLOPTS from its environment"),
        ('{BASHOPTS: "extglob:lastpipe"}', "bash reads BASHOPTS from its environment"),
        ('{CDPATH: "/dev/shm/app"}', "bash reads CDPATH from its environment"),
        ('{POSIXLY_CORRECT: ""}', "bash reads POSIXLY_CORRECT from its environment"),
        ('{BASH_ENV: "/tmp/x"}', "BASH_ENV and ENV never reach a step"),
        # clearing one is bash's default (the shipped list_tree's CDPATH: "")
        ('{CDPATH: ""}', None),
        ('{GLOBIGNORE: ""}', None),
    ],
)
def test_a_step_env_never_sets_bash_itself(tmp_path: Path, env: str, says: str | None) -> None:
    """A step's ``env:`` cannot hand bash settings it reads at start
    (``SHELLOPTS=allexport`` exports every assignment, ``BASHOPTS=extglob``
    makes ``!(x)`` a glob, ``CDPATH`` moves ``cd``): the script must run as
    its text reads."""
    text = EXPORT.replace("        run: |", f"        env: {env}\n        run: |", 1)
    path = write_export(tmp_path / "exports", "show_env.yaml", text)
    if says is None:
        load_export(path)
        return
    with pytest.raises(ConfigError) as caught:
        load_export(path)
    assert str(caught.value).startswith(f"{path}:6: steps[0].env key ")
    assert says in str(caught.value)


def test_pass_env_may_name_a_step_prefixed_variable_no_step_makes(tmp_path: Path) -> None:
    """``STEP_CA_URL`` (smallstep's own variable) passes when no step of the
    export is named so that the runtime could make that name
    (``STEP_<step>_…``); ``STEP_show_X`` does not, beside a step ``show``."""
    text = EXPORT.replace("pass_env: [EXPORT_PROBE]", "pass_env: [EXPORT_PROBE, STEP_CA_URL]")
    path = write_export(tmp_path / "exports", "show_env.yaml", text)
    load_export(path)
    text = EXPORT.replace("pass_env: [EXPORT_PROBE]", "pass_env: [EXPORT_PROBE, STEP_show_X]")
    path = write_export(tmp_path / "other", "show_env.yaml", text)
    with pytest.raises(ConfigError) as caught:
        load_export(path)
    assert "the runtime's variables" in str(caught.value)
