"""The answer envelope through its three entry points: MCP over stdio, MCP over
HTTP and ``mcp-harbor run`` (plus ``mcp-harbor call``), with real servers.

Proves: the key order; the same export run over stdio, HTTP and ``run``
gives envelopes equal except for the run id and times (and the caller's
optional HARBOR_CALLER_* variables, see below); ``call --json`` prints the
``_meta`` envelope verbatim (the one serialization) and ``run --json`` the
same shape; exit codes 0/1/2 of ``run``; output schemas: a valid payload
becomes ``structuredContent``, an invalid one ``output_invalid``, a failed run
is never validated.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from harbor_helpers import (
    audit_records,
    harbor_cli,
    http_server,
    output_schema_of,
    stdio_client_of,
    text_of,
    write_export,
)
from mcp import Client

from mcp_harbor.runctx import ENVELOPE_META_KEY, ENVELOPE_SCHEMA

pytestmark = pytest.mark.anyio

KEYS = [
    "run_id",
    "tool",
    "finish_reason",
    "status",
    "exit_code",
    "answer",
    "steps_run",
    "started_at",
    "duration_ms",
    "queued_ms",
    "run_dir",
    "steps",
]
TEXT = b"one two three\nfour five\nsix\n"
FILE = base64.b64encode(TEXT).decode()
TEXT_STATS = Path(__file__).resolve().parent.parent / "exports" / "text_stats.yaml"

STATS_SCHEMA = """
    output_schema:
      type: object
      properties:
        lines: {type: integer}
      required: [lines]
"""
BAD_STATS = (
    """
    name: bad_stats
    description: Writes a payload that does not match its output schema.
"""
    + STATS_SCHEMA
    + """
    steps:
      - name: write
        run: |
          printf '{"lines": "x"}' > "$HARBOR_OUTPUT"
"""
)
NO_OUTPUT = (
    """
    name: no_output
    description: Reaches its goal but writes no payload.
"""
    + STATS_SCHEMA
    + """
    steps:
      - name: quiet
        run: echo nothing written
"""
)
FAILS = (
    """
    name: fails_with_schema
    description: Writes a valid payload, then fails.
"""
    + STATS_SCHEMA
    + """
    steps:
      - name: write
        run: |
          printf '{"lines": 1}' > "$HARBOR_OUTPUT"
          echo failing on purpose >&2
          exit 3
"""
)
SLOW = """
    name: slow
    description: Outlives its timeout.
    timeout: 1
    steps:
      - name: nap
        run: sleep 5
"""
THEIRS = """
    name: theirs
    description: Only for someone else.
    allow: [principal:someone-else]
    steps:
      - name: a
        run: echo never
"""
ASK = """
    name: ask
    description: Needs an operator's yes, which never comes.
    confirm: "Run it?"
    approval_timeout: 1
    steps:
      - name: a
        run: echo never
"""
PLAIN = """
    name: plain
    description: No output schema.
    steps:
      - name: a
        run: echo plain ran
"""


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("env-exports")
    (folder / "text_stats.yaml").write_text(TEXT_STATS.read_text())
    for name, text in [
        ("bad_stats", BAD_STATS),
        ("no_output", NO_OUTPUT),
        ("fails_with_schema", FAILS),
        ("plain", PLAIN),
        ("slow", SLOW),
        ("theirs", THEIRS),
        ("ask", ASK),
    ]:
        write_export(folder, f"{name}.yaml", text)
    proc = harbor_cli("check", str(folder))
    assert "8 accepted, 0 refused" in proc.stdout, proc.stdout
    return folder


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One XDG state dir (runs root, audit DB) for every entry point."""
    return tmp_path_factory.mktemp("env-state")


def meta_text(result: Any) -> str:
    text = result.meta[ENVELOPE_META_KEY]
    assert isinstance(text, str)
    return text


def one_serialization(text: str) -> dict[str, Any]:
    """Parse `text`, asserting it is exactly ``Envelope.dumps()``'s form."""
    data = json.loads(text)
    assert json.dumps(data, ensure_ascii=False, separators=(",", ":")) == text
    return dict(data)


#: Step variables that exist only for some callers (clientInfo, request id,
#: network peer): the envelope records them, so they differ by transport.
OPTIONAL_CALLER_VARS = {
    "HARBOR_CALLER_CLIENT",
    "HARBOR_CALLER_CLIENT_VERSION",
    "HARBOR_CALLER_REQUEST_ID",
    "HARBOR_CALLER_REMOTE_ADDR",
}


def normalized(envelope: dict[str, Any]) -> dict[str, Any]:
    """The envelope without its run id and times."""
    text = json.dumps(envelope).replace(envelope["run_id"], "RUN")
    data = json.loads(text)
    data["started_at"] = data["duration_ms"] = data["queued_ms"] = "T"
    data["answer"] = re.sub(r"\d+(\.\d+)? (ms|s)\b", "T", data["answer"])
    for step in data["steps"]:
        step["duration_ms"] = "T"
        for attempt in step.get("attempts", []):
            attempt["duration_ms"] = "T"
        step["shell_names"] = [n for n in step["shell_names"] if n not in OPTIONAL_CALLER_VARS]
    return dict(data)


async def stats_over(client: Client) -> Any:
    return await client.call_tool("text_stats", {"file": FILE})


# --- one envelope, three entry points ----------------------------------------------


async def test_same_envelope_over_stdio_http_and_run(exports: Path, state: Path) -> None:
    async with stdio_client_of(exports, state, "auto") as client:
        over_stdio = await stats_over(client)
    with http_server(exports, state) as server:
        async with Client(server.url) as client:
            over_http = await stats_over(client)
    run = harbor_cli(
        "run", "--exports", str(exports), "--json", "text_stats", f"file={FILE}", state=state
    )
    call = harbor_cli(
        "call", "--exports", str(exports), "--json", "text_stats", f"file={FILE}", state=state
    )
    envelopes = {
        "stdio": one_serialization(meta_text(over_stdio)),
        "http": one_serialization(meta_text(over_http)),
        "run": one_serialization(run.stdout.rstrip("\n")),
        "call": one_serialization(call.stdout.rstrip("\n")),
    }
    assert run.stdout.count("\n") == 1 and call.stdout.count("\n") == 1
    for name, env in envelopes.items():
        assert list(env) == [*KEYS, "answer_payload"], name
        assert env["finish_reason"] == "goal", (name, env["answer"])
        assert env["answer_payload"] == {
            "lines": 3,
            "words": 6,
            "bytes": len(TEXT),
            "sha256": hashlib.sha256(TEXT).hexdigest(),
        }
        assert env["run_dir"] == str(state / "mcp-harbor" / "runs" / env["run_id"])
    assert len({e["run_id"] for e in envelopes.values()}) == 4
    reference = normalized(envelopes["run"])
    for name in ("stdio", "http", "call"):
        assert normalized(envelopes[name]) == reference, name
    # The only other difference: the optional caller variables.
    names = {n: set(e["steps"][0]["shell_names"]) for n, e in envelopes.items()}
    assert names["stdio"] - names["run"] <= OPTIONAL_CALLER_VARS
    assert names["http"] - names["run"] <= OPTIONAL_CALLER_VARS
    # The MCP result is built from the envelope: text = answer, structured = payload.
    for result, env in [(over_stdio, envelopes["stdio"]), (over_http, envelopes["http"])]:
        assert text_of(result) == env["answer"]
        assert result.structured_content == env["answer_payload"]
        assert result.is_error is False


# --- output schemas over MCP ---------------------------------------------------------


async def test_output_schema_valid_invalid_missing_and_failed(exports: Path, state: Path) -> None:
    async with stdio_client_of(exports, state, "legacy") as client:
        schema = await output_schema_of(client, "text_stats")
        plain_schema = await output_schema_of(client, "plain")
        valid = await stats_over(client)
        invalid = await client.call_tool("bad_stats", {})
        missing = await client.call_tool("no_output", {})
        failed = await client.call_tool("fails_with_schema", {})
        plain = await client.call_tool("plain", {})
    # The export's output_schema is the tool's outputSchema; without one, none.
    assert schema is not None and schema["required"] == ["lines", "words", "bytes", "sha256"]
    assert plain_schema is None

    env = one_serialization(meta_text(valid))
    assert valid.structured_content == env["answer_payload"]
    assert env["answer_payload"]["bytes"] == len(TEXT)

    env = one_serialization(meta_text(invalid))
    assert invalid.is_error is True and invalid.structured_content is None
    assert list(env) == KEYS  # no answer_payload
    # One vocabulary: the status is the audit's (it was "failed" here before).
    assert (env["finish_reason"], env["status"], env["exit_code"]) == (
        "output_invalid",
        "output_invalid",
        0,
    )
    assert text_of(invalid).startswith(
        "bad_stats: output_invalid: the output does not match output_schema at lines: "
        "'x' is not of type 'integer'\nbad_stats: ok, exit 0"
    )
    assert env["answer"] == text_of(invalid)

    env = one_serialization(meta_text(missing))
    assert missing.is_error is True and missing.structured_content is None
    assert env["finish_reason"] == "output_invalid" and list(env) == KEYS
    assert text_of(missing).startswith(
        "no_output: output_invalid: the steps wrote no output to $HARBOR_OUTPUT"
    )

    # A failed run is never validated, even though its payload would be valid.
    env = one_serialization(meta_text(failed))
    assert failed.is_error is True and failed.structured_content is None
    assert (env["finish_reason"], env["status"], env["exit_code"]) == ("failed", "failed", 3)
    assert list(env) == KEYS
    assert "output_invalid" not in env["answer"] and "failing on purpose" in env["answer"]

    # Without an output schema, structuredContent is the envelope itself.
    env = one_serialization(meta_text(plain))
    assert plain.structured_content == env and list(env) == KEYS
    jsonschema.validate(env, ENVELOPE_SCHEMA, cls=jsonschema.Draft202012Validator)
    assert env["steps_run"] == 1 and env["steps"][0]["stdout_tail"] == "plain ran\n"


# --- mcp-harbor run: --json shape and exit codes -------------------------------------


def test_run_exit_codes_and_json_shape(exports: Path, state: Path) -> None:
    def run(*args: str) -> Any:
        return harbor_cli("run", "--exports", str(exports), *args, state=state, check=False)

    ok = run("plain")  # without --json: the answer
    assert ok.returncode == 0
    assert re.fullmatch(
        r"plain: ok, exit 0, \d+ ms \(run \S+\)\n--- step 1 a: ok, exit 0, "
        r"\d+ ms\nplain ran\n",
        ok.stdout,
    ), ok.stdout
    ok_json = run("--json", "plain")
    assert ok_json.returncode == 0
    assert list(one_serialization(ok_json.stdout.rstrip("\n"))) == KEYS
    failed = run("--json", "fails_with_schema")
    assert failed.returncode == 1
    env = one_serialization(failed.stdout.rstrip("\n"))
    assert list(env) == KEYS and env["finish_reason"] == "failed"
    invalid = run("--json", "bad_stats")
    assert invalid.returncode == 1
    assert one_serialization(invalid.stdout.rstrip("\n"))["finish_reason"] == "output_invalid"
    # Refused before anything ran: exit 1, and --json prints its envelope too.
    refused = run("--json", "text_stats", "file=@@@")
    assert refused.returncode == 1
    env = one_serialization(refused.stdout.rstrip("\n"))
    assert list(env) == KEYS
    assert (env["finish_reason"], env["status"], env["steps_run"]) == ("refused", "invalid", 0)
    assert env["answer"] == (
        "text_stats: attachment 'file' is not valid base64 (contentEncoding: base64)"
        "\nNothing was run."
    )
    # An unknown argument is a tool error (invalid arguments): exit 1.
    unknown = run("plain", "bogus=1")
    assert unknown.returncode == 1 and "unknown argument 'bogus'" in unknown.stdout
    # Usage and configuration errors: exit 2 (an unknown tool too).
    for args, words in [
        (("no_such_tool",), "unknown tool 'no_such_tool'; the exports publish: ask, bad_stats,"),
        (("plain", "--memory", "null"), "is null"),
        (("plain", "--memory", "{not json"), "not valid JSON"),
        (("plain", "--memory", json.dumps("m" * 32767)), "the limit is 32768 bytes"),
    ]:
        proc = run(*args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert words in proc.stderr, (args, proc.stderr)
    # 32 KiB of caller memory exactly is accepted from the command line too.
    exact = run("plain", "--memory", json.dumps("m" * 32766))
    assert exact.returncode == 0, exact.stderr


# --- run --json and call --json: the same JSON for every outcome ---------------------

OUTCOMES = [
    # (tool, arguments, status, finish reason, exit code)
    ("plain", (), "ok", "goal", 0),
    ("fails_with_schema", (), "failed", "failed", 1),
    ("slow", (), "timeout", "timeout", 1),
    ("bad_stats", (), "output_invalid", "output_invalid", 1),
    ("text_stats", ("file=@@@",), "invalid", "refused", 1),
    ("plain", ("bogus=1",), "invalid", "refused", 1),
    ("ask", (), "declined", "declined", 1),
    ("no_such_tool", (), "unknown", "refused", 2),
    ("theirs", (), "unknown", "refused", 2),  # denied: shown exactly as unknown
]


@pytest.mark.parametrize(("tool", "arguments", "status", "reason", "code"), OUTCOMES)
def test_run_and_call_print_the_same_envelope(
    exports: Path,
    state: Path,
    tool: str,
    arguments: tuple[str, ...],
    status: str,
    reason: str,
    code: int,
) -> None:
    printed = {}
    for command in ("run", "call"):
        proc = harbor_cli(
            command, "--exports", str(exports), "--json", tool, *arguments, state=state, check=False
        )
        assert proc.returncode == code, (command, proc.stdout, proc.stderr)
        assert proc.stdout.count("\n") == 1, (command, proc.stdout)
        printed[command] = one_serialization(proc.stdout.rstrip("\n"))
    run, call = printed["run"], printed["call"]
    assert (run["status"], run["finish_reason"]) == (status, reason), run["answer"]
    assert run["run_id"] != call["run_id"]
    assert normalized(call) == normalized(run)
    # Each is the audit's record of its call (one vocabulary; denied stays denied there).
    for env in (run, call):
        records = audit_records(state / "mcp-harbor" / "harbor.db", env["run_id"])
        assert records, env
        recorded = "denied" if tool == "theirs" else status
        assert records[-1]["status"] == recorded, records[-1]
    # Without --json: the answer (or, for an unknown tool, the reason on stderr).
    text = harbor_cli(
        command, "--exports", str(exports), tool, *arguments, state=state, check=False
    )
    assert text.returncode == code
    if status == "unknown":
        expected = "may not call" if tool == "theirs" else "unknown tool"
        assert expected in text.stderr and text.stdout == "", text.stderr
    else:
        assert text.stdout.startswith(f"{tool}: "), text.stdout
