"""Issue 19: a clean environment and secrets, end to end.

A real ``mcp-harbor serve`` over stdio (the MCP SDK client, both eras) runs
real bash steps that print a ``secrets:`` value read from the server's
environment, a multi-line one read from a file, and a ``secret: true`` arg:
raw, ``printf %q``-quoted, through ``set -x``, JSON-encoded, split across
the output tail's boundary (a line longer than the streamed-line limit too),
and written to ``$HARBOR_STEP_OUTPUT`` and ``$HARBOR_OUTPUT``. None of those
forms may appear in the BYTES of anything: the MCP result (text and
structured content), every notification the client received, every file
under the server's state directory (run directory, SQLite file and its
-wal). The forms are made by real bash and by ``json``, not by the
scrubber under test. The printing steps run their script through a program the
checker does not read (``argv: [bash, printer.sh, SCRIPT]``, which evals
it): the checker refuses a script it reads that prints a secret (H010), and
the scrubber is what stands behind programs it does not see into. A variable
of the server's environment reaches a step only when ``--pass-env`` or
``pass_env:`` names it (the secret's own source variable does not). A
missing secret makes the export unavailable, naming the secret and its
source.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import MODES, harbor_cli, stdio_client_env, text_of, without_plan, write_export
from mcp import types

from mcp_harbor.runctx import ENVELOPE_META_KEY

pytestmark = pytest.mark.anyio

#: The server's variable a secret is read from: quotes, $, a backslash,
#: spaces and a non-ASCII letter, so that every transformed form differs
#: from the raw one. It ends in a distinctive part the tail cut keeps.
TOKEN = 'tok\'en "x" $y\\z é-Zq7Kx9Wv3M'
#: A multi-line file secret (the file has one trailing newline, stripped).
DB_LINES = ("db-line-one-Aq1", "db-line-two-Bw2")
PASSWORD = "hunter2-Pz8Lm4"  # the secret: true arg
TAIL = 4096  # output_tail: the secret straddles its boundary by 10 bytes


def export_text(db_file: Path) -> str:
    py = sys.executable
    # A program the checker does not read (it runs its first argument as a
    # script, with the secret arg the first step kept as ARG_pw): what
    # stands behind it is the scrubber, under test here.
    printer = db_file.parent / "printer.sh"
    printer.write_text('ARG_pw=$(cat "$HARBOR_RUN_DIR/pw")\neval "$1"\n', encoding="utf-8")
    return f"""
        name: leak
        description: Prints its secrets in every way a step might.
        args:
          pw: {{type: string, secret: true}}
        required: [pw]
        output_tail: {TAIL}
        output_schema: {{type: object}}
        pass_env: [EXPORT_PASSED]
        # the printing steps' bash and python are named for the secrets: the
        # author's word (here, on purpose, a false one) that they never print them
        secrets:
          DEPLOY_TOKEN: {{env: CI_DEPLOY_TOKEN, programs: [bash, {py}]}}
          DB_PASSWORD: {{file: secrets/{db_file.name}, programs: [bash, {py}]}}
        steps:
          - name: keep
            # the secret arg, for the printing steps below: an argv: step the
            # caller's values reach gets no secret, so they read it from here
            run: printf '%s' "$ARG_pw" > "$HARBOR_RUN_DIR/pw"
          - name: raw
            argv:
              - bash
              - {printer}
              - |
                  echo "token=$DEPLOY_TOKEN"
                  echo "db=$DB_PASSWORD"
                  echo "pw=$ARG_pw"
                  echo "err token=$DEPLOY_TOKEN pw=$ARG_pw" >&2
                  echo "visible=${{SERVER_PASSED-unset}} passed=${{EXPORT_PASSED-unset}}"
                  echo "hidden=${{SERVER_HIDDEN-unset}} source=${{CI_DEPLOY_TOKEN-unset}}"
          - name: quoted
            argv:
              - bash
              - {printer}
              - |
                  printf '%q\\n' "$DEPLOY_TOKEN" "$DB_PASSWORD" "$ARG_pw"
                  set -x
                  : "$DEPLOY_TOKEN" "$DB_PASSWORD" "$ARG_pw"
                  : "prefix=$DEPLOY_TOKEN"
                  set +x
          - name: encoded
            argv:
              - {py}
              - -c
              - |
                import json, os, sys
                # The secret arg, from the file the first step wrote.
                with open(os.path.join(os.environ["HARBOR_RUN_DIR"], "pw")) as pw:
                    values = [os.environ["DEPLOY_TOKEN"], os.environ["DB_PASSWORD"], pw.read()]
                for value in values:
                    print(json.dumps(value))
                    print(json.dumps(value, ensure_ascii=False))
                with open(os.environ["HARBOR_OUTPUT"], "w") as fh:
                    json.dump({{"token": values[0], "pw": values[2],
                               "db": values[1], "ok": True}}, fh)
          - name: cut
            argv:
              - bash
              - {printer}
              - |
                  printf '%s' "$DEPLOY_TOKEN"
                  head -c {TAIL - 10} /dev/zero | tr '\\0' .
          - name: outputs
            argv:
              - bash
              - {printer}
              - |
                  echo "token=$DEPLOY_TOKEN" >> "$HARBOR_STEP_OUTPUT"
                  echo "pw=$ARG_pw" >> "$HARBOR_STEP_OUTPUT"
                  {{ echo "db<<END"; echo "$DB_PASSWORD"; echo END; }} >> "$HARBOR_STEP_OUTPUT"
                  echo "plain=visible" >> "$HARBOR_STEP_OUTPUT"
          - name: reads
            run: echo "got=$STEP_outputs_token/$STEP_outputs_plain"
    """


def bash_forms(value: str) -> set[str]:
    """How real bash prints `value`, in the C and a UTF-8 locale: ``printf
    %q`` and the ``set -x`` trace of it as a word of its own and inside a
    larger word."""
    out: set[str] = set()
    for locale in ("C", "C.UTF-8"):
        env = {"V": value, "PATH": os.environ["PATH"], "LC_ALL": locale}
        quoted = subprocess.run(
            ["bash", "-c", 'printf "%q" "$V"'], env=env, capture_output=True, check=True
        ).stdout.decode()
        traced = subprocess.run(
            ["bash", "-xc", ': "$V"'], env=env, capture_output=True, check=True
        ).stderr.decode()
        word = traced.strip().removeprefix("+ : ")  # as bash wrote the word
        out |= {quoted, word, word.strip("'")}  # the quoting's body: inside a larger word too
    return out


def forbidden() -> set[bytes]:
    """Every form of every secret that must appear nowhere, as bytes."""
    db = "\n".join(DB_LINES)
    forms: set[str] = set()
    for value in (TOKEN, db, *DB_LINES, PASSWORD):
        forms |= {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
        forms |= bash_forms(value)
    forms.add(TOKEN[-10:])  # what a tail cut through the secret would keep
    return {f.encode("utf-8") for f in forms}


def leaks(data: bytes, where: str) -> list[str]:
    return [f"{where}: {form!r}" for form in forbidden() if form in data]


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]


class Recorder:
    def __init__(self) -> None:
        self.notifications: list[bytes] = []

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.notifications.append(json.dumps([progress, total, message]).encode())

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.notifications.append(params.model_dump_json().encode())

    def lines(self) -> list[str]:
        out = []
        for raw in self.notifications:
            data = json.loads(raw)
            if isinstance(data, dict) and isinstance(data.get("data"), dict):
                line = data["data"].get("line")
                if isinstance(line, str):
                    out.append(line)
        return out


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    # beside the export, named relative to it: a secret file in a temporary
    # folder (any step may write there) is refused since round forty-one
    path = tmp_path / "exports" / "secrets" / "db"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(DB_LINES) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("mode", MODES)
async def test_no_secret_survives_anywhere(tmp_path: Path, db_file: Path, mode: str) -> None:
    exports, state = tmp_path / "exports", tmp_path / "state"
    write_export(exports, "leak.yaml", export_text(db_file))
    env = {
        "CI_DEPLOY_TOKEN": TOKEN,
        "SERVER_PASSED": "yes",
        "EXPORT_PASSED": "also",
        "SERVER_HIDDEN": "the server's own",
    }
    rec = Recorder()
    kw: dict[str, Any] = {"logging_callback": rec.on_log}
    if mode == "auto":
        kw["log_level"] = "info"
    errlog_path = tmp_path / "server.stderr"
    with open(errlog_path, "w") as errlog:
        client = stdio_client_env(
            exports, state, mode, "--pass-env", "SERVER_PASSED", env=env, errlog=errlog, **kw
        )
        async with client:
            if mode == "legacy":
                import warnings

                from mcp.shared.exceptions import MCPDeprecationWarning

                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    await client.session.set_logging_level("info")
            result = await client.call_tool(
                "leak", {"pw": PASSWORD}, progress_callback=rec.on_progress
            )
    answer = text_of(result)
    assert result.is_error is False, answer
    # With output_schema: structured content is the payload from $HARBOR_OUTPUT.
    assert result.structured_content == {"token": "***", "pw": "***", "db": "***", "ok": True}
    assert result.meta is not None
    envelope = json.loads(result.meta[ENVELOPE_META_KEY])
    steps = {s["name"]: s for s in envelope["steps"]}

    # The steps ran and printed, and what they printed was scrubbed.
    raw = steps["raw"]["stdout_tail"]
    assert "token=***\n" in raw and "pw=***\n" in raw and "db=***\n" in raw, raw
    assert "err token=*** pw=***" in steps["raw"]["stderr_tail"]
    # The clean environment: --pass-env and pass_env: pass, nothing else does.
    assert "visible=yes passed=also\n" in raw
    assert "hidden=unset source=unset\n" in raw
    assert "***" in steps["quoted"]["stdout_tail"] and "***" in steps["quoted"]["stderr_tail"]
    assert steps["encoded"]["stdout_tail"] == '"***"\n' * 6
    # The log is scrubbed before its tail is cut: the tail holds no piece of
    # the secret (the raw log's last TAIL bytes began 10 bytes before its end).
    assert steps["cut"]["stdout_tail"] == "***" + "." * (TAIL - 10)
    assert steps["outputs"]["outputs"] == {
        "token": "***",
        "pw": "***",
        "db": "***",
        "plain": "visible",
    }
    assert "got=***/visible" in steps["reads"]["stdout_tail"]
    lines = rec.lines()
    assert "token=***" in lines and "visible=yes passed=also" in lines, lines
    assert any(line.startswith("***....") for line in lines), lines

    found: list[str] = []
    found += leaks(result.model_dump_json().encode(), "the MCP result")
    found += leaks(
        json.dumps(result.model_dump(mode="json"), ensure_ascii=False).encode(), "result"
    )
    for n, note in enumerate(rec.notifications):
        found += leaks(note, f"notification {n}")
    run_dir = Path(envelope["run_dir"])
    assert run_dir.is_relative_to(state)
    seen = files_under(state)
    assert any(p.name.endswith(".stdout.log") for p in seen)
    assert any(p.suffix == ".output" for p in seen)
    assert any(p.name.startswith("harbor.db") for p in seen)
    for path in seen:
        found += leaks(path.read_bytes(), str(path))
    assert not found, "\n".join(found)

    # The logs' hashes are of what they hold now (scrubbed).
    import hashlib

    for step in envelope["steps"]:
        for stream in ("stdout", "stderr"):
            log = Path(step[f"{stream}_log"])
            assert hashlib.sha256(log.read_bytes()).hexdigest() == step[f"{stream}_sha256"]
    assert "Traceback" not in errlog_path.read_text()


async def test_a_missing_secret_makes_the_export_unavailable(tmp_path: Path) -> None:
    exports, state = tmp_path / "exports", tmp_path / "state"
    path = write_export(
        exports,
        "needy.yaml",
        """
        name: needy
        description: Needs two secrets that are not there.
        secrets:
          DEPLOY_TOKEN: {env: CI_NOT_SET_ANYWHERE}
          DB_PASSWORD: {file: no-such-secret-file}
        steps:
          - name: a
            argv: [sh, -c, 'test "$DEPLOY_TOKEN" = now-it-is && echo got-the-value']
        """,
    )
    write_export(
        exports,
        "fine.yaml",
        """
        name: fine
        description: Needs nothing.
        steps:
          - name: a
            run: echo fine
        """,
    )
    errlog_path = tmp_path / "server.stderr"
    with open(errlog_path, "w") as errlog:
        async with stdio_client_env(exports, state, "auto", env={}, errlog=errlog) as client:
            listed = {t.name for t in (await client.list_tools()).tools}
            assert listed == {"fine"}
            for _ in range(3):
                assert (await client.call_tool("fine", {})).is_error is False
    log = errlog_path.read_text()
    env_reason = (
        f"secret DEPLOY_TOKEN: environment variable CI_NOT_SET_ANYWHERE is not set or empty "
        f"(needed at {path}:4)"
    )
    file_reason = (
        f"secret DB_PASSWORD: file {exports / 'no-such-secret-file'} is missing, unreadable or "
        f"empty (needed at {path}:5)"
    )
    assert log.count("not offering needy:") == 1, log
    assert env_reason in log and file_reason in log, log

    # mcp-harbor run: every export may be called; the call is refused, naming both.
    proc = harbor_cli("run", "needy", "--exports", str(exports), "--json", state=state, check=False)
    assert proc.returncode == 1, proc.stderr
    envelope = json.loads(proc.stdout)
    assert envelope["status"] == "unavailable" and envelope["steps_run"] == 0
    assert env_reason in envelope["answer"] and file_reason in envelope["answer"]
    assert "ERROR" not in proc.stderr, proc.stderr

    # Set (and the file there): offered, and the step gets the values.
    (exports / "no-such-secret-file").write_text("from-the-file\n")
    proc = harbor_cli(
        "run", "needy", "--exports", str(exports), "--json", state=state, check=False,
        CI_NOT_SET_ANYWHERE="now-it-is",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "got-the-value" in json.loads(proc.stdout)["answer"]


def test_pass_env_refuses_what_may_never_pass(tmp_path: Path) -> None:
    for name, says in (
        ("BASH_ENV", "BASH_ENV and ENV never reach a step"),
        ("HARBOR_X", "the runtime's variables"),
        ("not-a-name", "is not an environment variable name"),
    ):
        proc = harbor_cli(
            "run", "x", "--exports", str(tmp_path), "--pass-env", name, state=tmp_path,
            check=False,
        )  # fmt: skip
        assert proc.returncode == 2, proc.stderr
        assert says in proc.stderr


# --- in-process: the executor itself ---------------------------------------------------


def _request(export: Any, arguments: dict[str, Any], tmp_path: Path) -> Any:
    from mcp_harbor.runner import RunRequest

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    return RunRequest(export, arguments, "run-1", run_dir, tmp_path)


async def test_a_file_secret_loses_one_trailing_newline(tmp_path: Path) -> None:
    from mcp_harbor.config.loader import load_export
    from mcp_harbor.runner import LocalExecutor

    seen = tmp_path / "seen"  # outside the run directory, which is scrubbed
    path = write_export(
        tmp_path / "exports",
        "f.yaml",
        f"""
        name: f
        description: Shows its secret, bracketed, where nothing scrubs it.
        secrets:
          T: {{file: t.secret}}
        steps:
          - name: a
            run: printf '[%s]' "$T" > {seen}
        """,
    )
    (path.parent / "t.secret").write_bytes(b"line one\nline two\n\n")
    result = await LocalExecutor().run(_request(load_export(path), {}, tmp_path))
    assert result.ok, result.to_json()
    assert seen.read_text() == "[line one\nline two\n]"
    # a run: step's secret is a shell variable of its bash, not its environment
    assert "T" not in result.steps[0].env_names
    assert result.steps[0].shell_names.count("T") == 1


async def test_a_secret_gone_at_the_run_start_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_harbor.config.loader import load_export
    from mcp_harbor.errors import NeedsMissing
    from mcp_harbor.runner import LocalExecutor

    path = write_export(
        tmp_path / "exports",
        "g.yaml",
        """
        name: g
        description: Its secret's variable is gone.
        secrets:
          T: {env: CI_GONE_SECRET}
        steps:
          - name: a
            argv: [sh, -c, 'test -n "$T"']
        """,
    )
    monkeypatch.delenv("CI_GONE_SECRET", raising=False)
    request = _request(load_export(path), {}, tmp_path)
    with pytest.raises(NeedsMissing) as caught:
        await LocalExecutor().run(request)
    assert "secret T: environment variable CI_GONE_SECRET is not set or empty" in str(caught.value)
    assert not (request.run_dir / "steps").exists()


async def test_a_secret_in_an_error_text_is_scrubbed(tmp_path: Path) -> None:
    """A step that cannot start: the error names the program, made of a
    ``secret: true`` arg (the loader alone: the checker is not the point)."""
    from mcp_harbor.config.loader import load_export
    from mcp_harbor.runner import LocalExecutor

    path = write_export(
        tmp_path / "exports",
        "e.yaml",
        """
        name: e
        description: Runs a program named by a secret.
        args:
          prog: {type: string, secret: true}
        steps:
          - name: a
            argv: ["./{{ args.prog }}"]
        """,
    )
    request = _request(load_export(path), {"prog": "no-such-Pz8Lm4"}, tmp_path)
    result = await LocalExecutor().run(request)
    step = result.steps[0]
    assert step.status == "failed" and step.error is not None
    assert step.error.startswith("cannot start './***'"), step.error
    assert "Pz8Lm4" not in json.dumps(result.to_json())


async def test_a_confirm_question_shows_a_secret_arg_as_stars(tmp_path: Path) -> None:
    """The confirm: message goes to a human and into the record."""
    from mcp_harbor.config.loader import load_export
    from mcp_harbor.identity import Caller
    from mcp_harbor.runctx import Approval, CallRequest, ExportCatalog
    from mcp_harbor.runctx.service import CallService, RunSettings
    from mcp_harbor.store.audit import AuditTrail
    from mcp_harbor.store.sqlite import SqliteStore

    path = write_export(
        tmp_path / "exports",
        "c.yaml",
        """
        name: c
        description: Asks before using a secret.
        args:
          tok: {type: string, secret: true}
        confirm: "Deploy with {{ args.tok }}?"
        steps:
          - name: a
            run: echo "$ARG_tok"
        """,
    )
    db = tmp_path / "audit.db"
    store = SqliteStore(db)
    try:
        service = CallService(
            RunSettings(runs_root=tmp_path / "runs", workdir=tmp_path),
            AuditTrail(store),
            store,
            catalog=ExportCatalog([load_export(path)]),
        )
        caller = Caller(transport="stdio", principal="local:test", session="stdio:test")
        approval = Approval(question=True, operator=False)
        request = CallRequest("c", {"tok": PASSWORD}, caller, None, approval)
        envelope = await service.call(request)
    finally:
        store.close()
    assert envelope.status == "needs_input", envelope.answer
    assert (
        envelope.question is not None
        and without_plan(envelope.question.message) == 'Deploy with "***"?'
    )
    assert PASSWORD not in envelope.dumps()
    for file in files_under(tmp_path):
        assert PASSWORD.encode() not in file.read_bytes(), file
