"""Issue 34, part 1: caller data is not ambient.

Proves, with real bash, real processes and the default sandbox, through the
real call path in-process (`CallService`) and the real ``mcp-harbor run``
and ``call`` commands: no program a step starts finds a caller value
(``ARG_*``, a ``STEP_*`` output, a claimed ``HARBOR_CALLER_*`` field) in its
environment, its parent's environment, an inherited descriptor or the
script file; the script's bash has each of them as a shell variable with
the exact value (all characters an arg admits, 1 MB); a script passes one to
a program only explicitly; bash's line numbers stay the script's; an
``argv:`` step gets no caller variable at all. And the prologue itself
(`mcp_harbor.runner.prologue`): only ``\\xHH`` inside its quotes, every byte
value read back exactly by bash.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import harbor_cli, write_export

from mcp_harbor import step_env
from mcp_harbor.config.loader import load_export
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import CallRequest, ExportCatalog
from mcp_harbor.runctx.service import CallService, RunSettings
from mcp_harbor.runner.prologue import assignment, prologue, split
from mcp_harbor.runner.scrub import Scrubber
from mcp_harbor.step_env import UnregisteredStepVariable, classify
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

BASH = shutil.which("bash") or "/bin/bash"

#: The caller's claimed fields: each a marker no environment may show.
CALLER = Caller(
    transport="http",
    principal="alice",
    tenant="acme",
    groups=("ops",),
    client_name="MARKclient",
    client_version="MARKversion",
    session="http:MARKsession",
    request_id="MARKrequest",
    remote_addr="MARKaddr",
    protocol_version="2025-11-25",
)
ARG_VALUE = "MARKarg 'q' \"d\" $'x' \\ $(id)"
OUTPUT_VALUE = "MARKoutput"
#: Every marker of a caller value.
MARKERS = ("MARKclient", "MARKversion", "MARKsession", "MARKrequest", "MARKaddr", "MARKarg")
#: The claimed fields, all of class caller.
CLAIMED = (
    "HARBOR_CALLER_CLIENT",
    "HARBOR_CALLER_CLIENT_VERSION",
    "HARBOR_CALLER_SESSION",
    "HARBOR_CALLER_REQUEST_ID",
    "HARBOR_CALLER_REMOTE_ADDR",
)

#: Each probe writes what a child of the step's bash can see into
#: $HARBOR_RUN_DIR/<step>-<probe> (``$$``: the step's bash; in ``sh -c``,
#: ``$PPID``: the step's bash too).
PROBES = r"""
          d="$HARBOR_RUN_DIR/$HARBOR_STEP"
          printenv > "$d-printenv"
          env > "$d-env"
          cat /proc/self/environ > "$d-self-environ"
          cat /proc/$$/environ > "$d-parent-environ"
          sh -c 'cat /proc/$PPID/environ' > "$d-bash-environ"
          python3 -c 'import os; print(dict(os.environ))' > "$d-python"
          ls -l /proc/self/fd > "$d-fds"
          sh -c 'cat /proc/$PPID/fd/255' > "$d-script"
          for f in /proc/self/fd/*; do cat "$f" 2>/dev/null; done > "$d-fd-contents" || true
          printf '%s' "$ARG_x" > "$d-arg"
"""
PROBE_FILES = (
    "printenv",
    "env",
    "self-environ",
    "parent-environ",
    "bash-environ",
    "python",
    "fds",
    "script",
    "fd-contents",
)

EXPORT = f"""
    name: ambient
    description: Looks for the caller's values where a child process could find them.
    args:
      x: {{type: string, multiline: true}}
    steps:
      - name: produce
        run: |
          echo "k={OUTPUT_VALUE}" >> "$HARBOR_STEP_OUTPUT"
{PROBES}
      - name: consume
        run: |
{PROBES}
          printf '%s' "$STEP_produce_k" > "$d-output"
          printf '%s|%s' "$STEP_produce_EXIT" "$STEP_produce_STATUS" > "$d-outcome"
          printf '%s' "$HARBOR_CALLER_CLIENT" > "$d-client"
      - name: again
        retry: {{attempts: 2}}
        run: |
{PROBES}
          n="$HARBOR_RUN_DIR/again-count"; echo . >> "$n"
          [ "$(wc -l < "$n")" -ge 2 ]
      - name: raw
        argv: [env, "-0"]
    finally:
      - name: last
        run: |
{PROBES}
"""


async def call(tmp_path: Path, text: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One call of the export `text` through `CallService` (default sandbox),
    as the caller `CALLER`: its envelope, as JSON."""
    export = load_export(write_export(tmp_path / "exports", "e.yaml", text))
    store = SqliteStore(tmp_path / "audit.db")
    try:
        service = CallService(
            RunSettings(runs_root=tmp_path / "runs", workdir=tmp_path),
            AuditTrail(store),
            store,
            catalog=ExportCatalog([export]),
        )
        envelope = await service.call(CallRequest(export.name, arguments, CALLER))
    finally:
        store.close()
    data: dict[str, Any] = json.loads(json.dumps(envelope.to_json()))
    return data


def assert_not_ambient(run_dir: Path, step: str) -> None:
    """What every probe of `step` saw holds no caller value, and no
    environment it saw names a caller variable."""
    for probe in PROBE_FILES:
        text = (run_dir / f"{step}-{probe}").read_bytes().decode("utf-8", "replace")
        for marker in (*MARKERS, OUTPUT_VALUE):
            assert marker not in text, (step, probe, marker)
        names = set(re.findall(r"(?:^|[\s\0'{,])([A-Za-z_][A-Za-z0-9_]*)(?==|': )", text))
        ambient = sorted(n for n in names if classify(n) == "caller")
        assert ambient == [], (step, probe, ambient)
    # The script's memfd: not inherited, and its first line (the prologue) blanked.
    assert "harbor-step" not in (run_dir / f"{step}-fds").read_text()
    script = (run_dir / f"{step}-script").read_text()
    assert "$HARBOR_STEP" in script and "\\x" not in script


async def test_no_child_finds_a_caller_value(tmp_path: Path) -> None:
    envelope = await call(tmp_path, EXPORT, {"x": ARG_VALUE})
    assert envelope["finish_reason"] == "goal", envelope["answer"]
    run_dir = Path(envelope["run_dir"])
    for step in ("produce", "consume", "again", "last"):
        assert_not_ambient(run_dir, step)
        # The script's own bash has the exact value.
        assert (run_dir / f"{step}-arg").read_text() == ARG_VALUE
    assert len((run_dir / "again-count").read_text().splitlines()) == 2  # retried
    # A step output reaches a later step as a shell variable; the runtime's
    # own outcomes are still exported.
    assert (run_dir / "consume-output").read_text() == OUTPUT_VALUE
    assert (run_dir / "consume-outcome").read_text() == "0|ok"
    assert (run_dir / "consume-client").read_text() == "MARKclient"
    assert "STEP_produce_EXIT=0" in (run_dir / "consume-env").read_text()
    # The argv: step's environment: no caller variable, no caller value.
    steps = {s["name"]: s for s in envelope["steps"]}
    raw = steps["raw"]["stdout_tail"]
    assert not any(marker in raw for marker in (*MARKERS, OUTPUT_VALUE)), raw
    raw_names = {e.split("=", 1)[0] for e in raw.split("\0") if e}
    assert not {n for n in raw_names if classify(n) == "caller"}, raw_names
    assert {"HARBOR_RUN_ID", "STEP_produce_STATUS"} <= raw_names
    # env_names and shell_names say which is which.
    consume = steps["consume"]
    assert "ARG_x" in consume["shell_names"] and "ARG_x" not in consume["env_names"]
    assert "STEP_produce_k" in consume["shell_names"]
    assert set(CLAIMED) <= set(consume["shell_names"])
    # the identity an identity provider's claims may fill is not ambient either
    assert set(step_env.CLAIMED) <= set(consume["shell_names"])
    assert not set(step_env.CLAIMED) & set(consume["env_names"])
    assert "HARBOR_CALLER_TRANSPORT" in consume["env_names"]
    assert not {n for n in consume["env_names"] if classify(n) == "caller"}
    assert steps["raw"]["shell_names"] == []


PASSING = """
    name: passing
    description: Passes a caller value to one program, explicitly.
    args:
      x: {type: string}
    steps:
      - name: pass
        run: |
          ARG_x="$ARG_x" python3 -c 'import os; print(os.environ["ARG_x"])'
          env V="$ARG_x" printenv V
          printenv ARG_x || echo "not exported"
          export ARG_x
          printenv ARG_x
          ARG_x=${ARG_x:-default} && echo "reassigned: $ARG_x"
          unset ARG_y; echo "y=${ARG_y-unset}"
"""


async def test_a_script_passes_a_value_explicitly(tmp_path: Path) -> None:
    envelope = await call(tmp_path, PASSING, {"x": "MARK one"})
    assert envelope["finish_reason"] == "goal", envelope["answer"]
    assert envelope["steps"][0]["stdout_tail"] == (
        "MARK one\nMARK one\nnot exported\nMARK one\nreassigned: MARK one\ny=unset\n"
    )


#: Every character an arg admits (no NUL), each escaping form bash knows,
#: and non-ASCII letters of every UTF-8 length.
EVERY = "".join(map(chr, range(1, 256))) + "$'\\x41'\\'\"`$(id)${x}\n\r\t😀€ß\U0010fffd" + "-"


@pytest.mark.parametrize("value", [EVERY, "", "x" * (1 << 20), ("€" * 1000 + "\n") * 350])
async def test_values_arrive_exactly(tmp_path: Path, value: str) -> None:
    text = """
        name: exact
        description: Writes its arg back, byte for byte.
        args:
          x: {type: string, multiline: true, leading_dash: true}
        steps:
          - name: write
            run: printf '%s' "$ARG_x" > "$HARBOR_RUN_DIR/x"
    """
    envelope = await call(tmp_path, text, {"x": value})
    assert envelope["finish_reason"] == "goal", envelope["answer"]
    assert (Path(envelope["run_dir"]) / "x").read_bytes() == value.encode("utf-8")


LINES = """
    name: lines
    description: Fails on line 3 of its script.
    args:
      x: {type: string}
    sandbox:
      limits: {open_files: 512}
    steps:
      - name: fail
        run: |
          echo "first $LINENO"
          echo "second $LINENO"
          no_such_command_anywhere "$ARG_x"
"""


async def test_line_numbers_are_the_scripts(tmp_path: Path) -> None:
    envelope = await call(tmp_path, LINES, {"x": "MARKarg"})
    step = envelope["steps"][0]
    assert step["status"] == "failed" and step["exit_code"] == 127
    assert step["stdout_tail"] == "first 1\nsecond 2\n"
    assert re.search(r"line 3: no_such_command_anywhere: command not found", step["stderr_tail"])
    assert "MARKarg" not in step["stderr_tail"]


def test_the_cli_runs_steps_without_ambient_caller_data(tmp_path: Path) -> None:
    """``mcp-harbor run`` and ``call``, each a real process with its own state."""
    exports = tmp_path / "exports"
    write_export(
        exports,
        "cli.yaml",
        """
        name: cli_probe
        description: Prints whether its children see the arg.
        args:
          x: {type: string}
        steps:
          - name: probe
            run: |
              printf '%s|' "$ARG_x"
              printenv ARG_x || echo absent
          - name: raw
            argv: [env]
        """,
    )
    for command in ("run", "call"):
        proc = harbor_cli(
            command,
            "--exports",
            str(exports),
            "--json",
            "cli_probe",
            "x=MARKcli",
            state=tmp_path / command,
        )
        envelope = json.loads(proc.stdout)
        probe, raw = envelope["steps"]
        assert probe["stdout_tail"] == "MARKcli|absent\n", command
        assert "MARKcli" not in raw["stdout_tail"] and "ARG_" not in raw["stdout_tail"]


# --- the prologue itself --------------------------------------------------------------

_INERT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*=\$'(?:\\x[0-9a-f]{2})*'")


def run_bash(script: bytes, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    path = tmp_path / "s.sh"
    path.write_bytes(script)
    return subprocess.run(
        [BASH, "--noprofile", "--norc", "-eo", "pipefail", str(path)],
        capture_output=True,
        env={"PATH": os.environ["PATH"], "LC_ALL": "C"},
        check=False,
    )


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_every_byte_value_round_trips_through_real_bash(tmp_path: Path, locale: str) -> None:
    """Each byte 1–255 alone and all together (byte 0: bash cannot hold it);
    0x80–0xFF alone are not UTF-8, so they come as surrogate escapes, as
    `os.fsdecode` makes them."""
    values = {f"ARG_b{i}": os.fsdecode(bytes([i])) for i in range(1, 256)}
    values["ARG_all"] = os.fsdecode(bytes(range(1, 256)))
    values["ARG_big"] = os.fsdecode(bytes(range(1, 256)) * 4200)  # ~1 MB
    head = prologue(values)
    for part in head.split(b"; "):
        assert part == b"" or _INERT.fullmatch(part), part[:80]
    out = tmp_path / "out"
    out.mkdir()
    dump = b"for n in ${!ARG_*}; do printf '%s' \"${!n}\" > " + str(out).encode() + b"/$n; done\n"
    dump = b"export LC_ALL=" + locale.encode() + b"; " + dump
    proc = run_bash(head + dump, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for name, value in values.items():
        assert (out / name).read_bytes() == os.fsencode(value), name
    assert not (out / "ARG_b0").exists()


def test_the_prologue_is_one_line_of_inert_assignments() -> None:
    assert assignment("ARG_x", "hi") == b"ARG_x=$'\\x68\\x69'"
    assert assignment("ARG_x", "") == b"ARG_x=$''"
    assert assignment("ARG_x", "é") == b"ARG_x=$'\\xc3\\xa9'"
    assert prologue({}) == b""
    head = prologue({"ARG_a": "x\ny", "STEP_s_k": "'$'"})
    assert head == b"ARG_a=$'\\x78\\x0a\\x79'; STEP_s_k=$'\\x27\\x24\\x27'; "
    assert b"\n" not in head
    with pytest.raises(ValueError, match="NUL"):
        assignment("ARG_x", "a\0b")
    for bad in ("1x", "a-b", "a b", "", "x;y"):
        with pytest.raises(ValueError, match="not a shell variable name"):
            assignment(bad, "v")
    with pytest.raises(UnregisteredStepVariable):
        prologue({"HARBOR_NEW": "v"})


def test_split_follows_the_registry_classes() -> None:
    variables = {
        "HARBOR_RUN_ID": "r",
        "HARBOR_RUN_DIR": "/d",
        "HARBOR_CONTEXT": "/d/context.json",
        "HARBOR_CALLER_PRINCIPAL": "alice",
        "STEP_a_EXIT": "0",
        "STEP_a_STATUS": "ok",
        "ARG_x": "v",
        "STEP_a_out": "o",
        **dict.fromkeys(CLAIMED, "c"),
    }
    exported, shell = split(variables)
    assert set(shell) == {"ARG_x", "STEP_a_out", *CLAIMED, "HARBOR_CALLER_PRINCIPAL"}
    assert all(classify(n) == "caller" or n in step_env.CLAIMED for n in shell)
    assert all(classify(n) in ("server", "caller_file") for n in exported)
    assert {**exported, **shell} == variables
    # A literal env: of the same name wins; the prologue then leaves it alone.
    exported, shell = split(variables, environment={"ARG_x"})
    assert "ARG_x" not in shell and "ARG_x" not in exported
    with pytest.raises(UnregisteredStepVariable):
        split({"HARBOR_NEW": "v"})


def test_the_scrubber_knows_the_prologue_form() -> None:
    """bash prints a syntax error's whole line, so the first line (the
    prologue) of a broken script can reach stderr: a secret arg in its
    ``\\xHH`` form is scrubbed too."""
    secret = "s3cret-Välue"
    scrubber = Scrubber([secret])
    form = assignment("ARG_pw", secret).decode()
    assert scrubber.scrub(f"line 1: `{form}; fi'") == "line 1: `ARG_pw=$'***'; fi'"


async def test_a_syntax_error_on_line_one_shows_no_secret_arg(tmp_path: Path) -> None:
    """bash may print the whole line of a syntax error (it does for a script
    read from a named file; as the runtime starts it, it says only the
    token), prologue included: a ``secret: true`` arg's ``\\xHH`` form never
    reaches what returns (`test_the_scrubber_knows_the_prologue_form`)."""
    text = """
        name: broken
        description: Has a syntax error on its first line.
        args:
          pw: {type: string, secret: true}
        steps:
          - name: broken
            run: echo "$ARG_pw" )
    """
    secret = "hunter2-MARK"
    envelope = await call(tmp_path, text, {"pw": secret})
    step = envelope["steps"][0]
    assert step["status"] == "failed" and step["exit_code"] == 2
    assert "syntax error" in step["stderr_tail"]
    hexed = assignment("ARG_pw", secret).decode().split("'")[1]
    assert hexed not in json.dumps(envelope) and secret not in json.dumps(envelope)


@pytest.mark.anyio
async def test_a_run_steps_secret_is_not_ambient_and_an_argv_steps_is(tmp_path: Path) -> None:
    """Issue 34, rule 5: a run: step's secret is a shell variable of its
    bash; a program gets it only when the script passes it. An argv: step's
    program is the one it is for, and gets it in its environment."""
    from mcp_harbor.config.loader import load_export
    from mcp_harbor.runner import LocalExecutor

    out = tmp_path / "seen"
    out.mkdir()
    path = tmp_path / "exports" / "s.yaml"
    path.parent.mkdir()
    (path.parent / "t.secret").write_text("s3cret-value-Qz9\n", encoding="utf-8")
    path.write_text(
        f"""
name: s
description: Where a secret is seen.
secrets:
  T: {{file: t.secret}}
steps:
  - name: child
    run: |
      printenv T > {out}/child || true
      python3 -c 'import os; print(os.environ.get("T", "<none>"))' > {out}/python
      T="$T" printenv T > {out}/passed
      [ "$T" = s3cret-value-Qz9 ] && echo shell-has-it > {out}/shell
  - name: program
    argv: [sh, -c, 'printenv T > {out}/argv']
""",
        encoding="utf-8",
    )
    from mcp_harbor.runner import RunRequest

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    request = RunRequest(load_export(path), {}, "run-1", run_dir, tmp_path)
    result = await LocalExecutor().run(request)
    assert result.ok, result.to_json()
    assert (out / "child").read_text() == ""
    assert (out / "python").read_text().strip() == "<none>"
    assert (out / "passed").read_text().strip() == "s3cret-value-Qz9"
    assert (out / "shell").read_text().strip() == "shell-has-it"
    assert (out / "argv").read_text().strip() == "s3cret-value-Qz9"
