"""Issue 18: the wire protocol of remote runs (mcp_harbor/remote/wire.py).

Every wire class goes through its one encoder and back unchanged; a
`RunRequest` survives the trip to a worker (`RunMessage.from_request`, then
`to_request`) field for field; what a decoder cannot read is refused with a
`RunError` that says what is wrong; and the stream entries keep the exact
JSON shapes of before the move (bench/bench_remote.py and older readers rely
on them)."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import write_export

from mcp_harbor.check import load_and_check
from mcp_harbor.config import Export
from mcp_harbor.errors import RunError
from mcp_harbor.remote import wire
from mcp_harbor.remote.wire import (
    OUTPUT_LIMIT,
    PROTOCOL_VERSION,
    Cancelled,
    Entry,
    Lost,
    OutputLine,
    Redispatched,
    Refused,
    Result,
    RunMessage,
    Started,
    StepFinished,
    StepProgressed,
    StepStarted,
    decode_entry,
    encode_entry,
    from_stream,
    to_stream,
)
from mcp_harbor.runner import RunRequest, RunResult, StepResult
from mcp_harbor.runner.pipeline import DEFAULT_TIMEOUT


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Export:
    folder = tmp_path_factory.mktemp("exports")
    write_export(
        folder,
        "remote.yaml",
        "name: remote\ndescription: Runs on a worker.\nruns_on: lab\ntimeout: 30\n"
        "args:\n  who: {type: string}\n  token: {type: string, secret: true}\n"
        'steps:\n  - name: greet\n    run: echo "$ARG_who"\n',
    )
    return {e.name: e for e in load_and_check([folder]).accepted}["remote"]


def _request(export: Export, tmp_path: Path, **over: Any) -> RunRequest:
    context = tmp_path / "context.json"
    context.write_text('{"run": {"id": "r1"}, "steps": {}}\n', encoding="utf-8")
    started = time.monotonic() - 2.0
    fields: dict[str, Any] = {
        "export": export,
        "arguments": {"who": "world", "token": "s3cret"},
        "run_id": "r1",
        "run_dir": tmp_path / "runs" / "r1",
        "workdir": tmp_path,
        "extra_env": {"HARBOR_OUTPUT": str(tmp_path / "out.json")},
        "output_tail": 1234,
        "grace": 0.25,
        "started": started,
        "context_path": context,
        "deadline": started + 12.5,
        "shown_arguments": {"who": "world", "token": "***"},
    }
    fields.update(over)
    return RunRequest(**fields)


def _step() -> StepResult:
    return StepResult(
        name="greet",
        status="ok",
        exit_code=0,
        duration_ms=1.5,
        command='echo "$ARG_who"',
        stdout_tail="world\n",
        stdout_bytes=6,
        env_names=["ARG_who", "HARBOR_RUN_ID"],
        outputs={"k": "v"},
        attempts=[{"attempt": 1, "status": "ok", "exit_code": 0, "duration_ms": 1.5}],
    )


def _run() -> RunResult:
    return RunResult("r1", "remote", "ok", 0, 3.25, "/runs/r1", steps=[_step()])


def _message(tmp_path: Path, export: Export) -> RunMessage:
    return RunMessage.from_request(_request(export, tmp_path), wants_output=True)


# --- the run message ----------------------------------------------------------


def test_a_message_survives_its_encoder_and_decoder(export: Export, tmp_path: Path) -> None:
    message = _message(tmp_path, export)
    encoded = message.encode()
    assert json.loads(json.dumps(encoded)) == encoded  # JSON-able, as Celery carries it
    assert RunMessage.decode(json.loads(json.dumps(encoded))) == message


def test_the_message_keys_are_those_of_the_wire(export: Export, tmp_path: Path) -> None:
    encoded = _message(tmp_path, export).encode()
    assert set(encoded) == {
        "v", "run_id", "tool", "content_hash", "arguments", "shown_arguments", "run_dir",
        "workdir", "extra_env", "output_tail", "grace", "started_at", "deadline_at",
        "context_path", "context_json", "wants_output",
    }  # fmt: skip
    assert encoded["v"] == PROTOCOL_VERSION == 3
    assert encoded["tool"] == "remote" and encoded["content_hash"] == export.content_hash
    assert encoded["context_json"] == '{"run": {"id": "r1"}, "steps": {}}\n'
    assert encoded["deadline_at"] - encoded["started_at"] == pytest.approx(12.5)
    # The boundary as Unix times: started two seconds ago.
    assert encoded["started_at"] == pytest.approx(time.time() - 2.0, abs=0.5)


def test_a_request_survives_the_trip_to_a_worker(export: Export, tmp_path: Path) -> None:
    request = _request(export, tmp_path)
    back = _message(tmp_path, export).to_request(export)
    for field in dataclasses.fields(RunRequest):
        name = field.name
        if name in ("started", "deadline"):
            # Through Unix time and back: the same instant on this machine.
            assert getattr(back, name) == pytest.approx(getattr(request, name), abs=0.05), name
        else:
            assert getattr(back, name) == getattr(request, name), name
    assert back.boundary() == pytest.approx(request.boundary(), abs=0.05)
    assert back.redacted_arguments() == {"who": "world", "token": "***"}


def test_a_request_without_a_boundary_gets_the_exports_timeout(
    export: Export, tmp_path: Path
) -> None:
    request = _request(
        export, tmp_path, started=None, deadline=None, shown_arguments=None, context_path=None
    )
    message = RunMessage.from_request(request, wants_output=False)
    assert message.timeout == pytest.approx(30.0)  # the export's, not DEFAULT_TIMEOUT
    assert export.spec.timeout != DEFAULT_TIMEOUT
    assert message.context_json is None and message.context_path is None
    back = message.to_request(export)
    assert back.shown_arguments is None
    assert back.redacted_arguments() == {"who": "world", "token": "***"}
    assert back.deadline is not None and back.started is not None
    assert back.deadline - back.started == pytest.approx(30.0)


def test_an_unreadable_context_is_refused_before_anything_is_sent(
    export: Export, tmp_path: Path
) -> None:
    request = _request(export, tmp_path, context_path=tmp_path / "missing.json")
    with pytest.raises(RunError, match="cannot read the run context"):
        RunMessage.from_request(request, wants_output=False)


@pytest.mark.parametrize("version", [1, 2, 4, None, "3"])
def test_a_message_of_another_version_is_refused(
    export: Export, tmp_path: Path, version: object
) -> None:
    encoded = _message(tmp_path, export).encode()
    encoded["v"] = version
    with pytest.raises(RunError) as caught:
        RunMessage.decode(encoded)
    assert str(caught.value) == (
        f"message version {version!r} unknown (this worker reads version {PROTOCOL_VERSION})"
    )


def test_a_version_1_message_is_refused_for_its_version(export: Export, tmp_path: Path) -> None:
    old = _message(tmp_path, export).encode()
    old["v"] = 1
    del old["deadline_at"], old["shown_arguments"]  # what version 1 did not have
    with pytest.raises(RunError, match="message version 1 unknown"):
        RunMessage.decode(old)


@pytest.mark.parametrize(
    "key", ["run_id", "tool", "content_hash", "arguments", "run_dir", "workdir", "extra_env",
            "output_tail", "grace", "started_at", "deadline_at", "wants_output"],
)  # fmt: skip
def test_a_message_missing_a_key_is_refused(export: Export, tmp_path: Path, key: str) -> None:
    encoded = _message(tmp_path, export).encode()
    del encoded[key]
    with pytest.raises(RunError) as caught:
        RunMessage.decode(encoded)
    assert str(caught.value) == f"run message: {key!r} is missing"


@pytest.mark.parametrize(
    ("key", "value", "wanted"),
    [
        ("run_id", 7, "a string"),
        ("arguments", ["who"], "an object"),
        ("output_tail", "8192", "an integer"),
        ("output_tail", True, "an integer"),
        ("grace", "0.5", "a number"),
        ("started_at", None, "a number"),
        ("wants_output", 1, "true or false"),
        ("context_path", 3, "a string"),
    ],
)
def test_a_message_with_a_wrong_type_is_refused(
    export: Export, tmp_path: Path, key: str, value: object, wanted: str
) -> None:
    encoded = _message(tmp_path, export).encode()
    encoded[key] = value
    with pytest.raises(RunError) as caught:
        RunMessage.decode(encoded)
    assert str(caught.value) == (
        f"run message: {key!r} must be {wanted}, not {type(value).__name__}"
    )


def test_extra_env_values_must_be_strings(export: Export, tmp_path: Path) -> None:
    encoded = _message(tmp_path, export).encode()
    encoded["extra_env"] = {"HARBOR_OUTPUT": 1}
    with pytest.raises(RunError, match="every value of 'extra_env' must be a string"):
        RunMessage.decode(encoded)


def test_a_message_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RunError, match="run message: not a JSON object but list"):
        RunMessage.decode(["r1"])


# --- stream entries ---------------------------------------------------------------

ENTRIES = [
    Entry(Started(1700000000.5), "w1", 1, 1700000000.75),
    Entry(StepStarted("steps", 0, 1, 2), "w1", 1, 1.0),
    Entry(OutputLine("on_failure", 1, "stderr", "a line"), "w1", 1, 1.0),
    Entry(StepProgressed("steps", 0, 1, 2, 0.25, "1/4 building", "building"), "w1", 1, 1.0),
    Entry(StepProgressed("steps", 0, 1, 2, 1.0, "100%", None), "w1", 1, 1.0),
    Entry(StepFinished(1, 2, _step()), "w1", 1, 1.0),
    Entry(Result(_run(), b'{"ok": true}\x00\xff'), "w1", 1, 1.0),
    Entry(Result(_run(), None), "w1", 2, 1.0),
    Entry(Cancelled(), "w1", 1, 1.0),
    Entry(Refused("the worker w1 refused run r1: nothing was run"), "w1", None, 1.0),
    Entry(Lost("w1"), attempt=1),
    Entry(Redispatched(), attempt=2),
]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.event.kind)
def test_every_entry_survives_its_encoder_and_decoder(entry: Entry) -> None:
    assert decode_entry(json.loads(json.dumps(encode_entry(entry)))) == entry
    fields = {k.encode(): v.encode() for k, v in to_stream(entry).items()}
    assert from_stream(fields) == entry


def test_the_entries_keep_their_json_shapes() -> None:
    step, run = _step().to_json(), _run().to_json()
    stamps = {"host": "w1", "attempt": 1, "at": 1.0}
    shapes = [encode_entry(e) for e in ENTRIES]
    assert shapes == [
        {"t": "started", "received": 1700000000.5, "host": "w1", "attempt": 1,
         "at": 1700000000.75},
        {"t": "step_started", "section": "steps", "index": 0, "n": 1, "total": 2, **stamps},
        {"t": "output", "section": "on_failure", "index": 1, "stream": "stderr",
         "line": "a line", **stamps},
        {"t": "step_progress", "section": "steps", "index": 0, "n": 1, "total": 2,
         "fraction": 0.25, "text": "1/4 building", "message": "building", **stamps},
        {"t": "step_progress", "section": "steps", "index": 0, "n": 1, "total": 2,
         "fraction": 1.0, "text": "100%", "message": None, **stamps},
        {"t": "step_finished", "n": 1, "total": 2, "result": step, **stamps},
        {"t": "result", "result": run, "output": "eyJvayI6IHRydWV9AP8=", **stamps},
        {"t": "result", "result": run, "output": None, "host": "w1", "attempt": 2, "at": 1.0},
        {"t": "cancelled", **stamps},
        {"t": "refused", "error": "the worker w1 refused run r1: nothing was run",
         "host": "w1", "at": 1.0},
        {"t": "lost", "worker": "w1", "attempt": 1},
        {"t": "redispatched", "attempt": 2},
    ]  # fmt: skip
    assert to_stream(ENTRIES[-1]) == {"e": '{"t": "redispatched", "attempt": 2}'}


def test_the_names_redis_and_celery_see() -> None:
    assert wire.TASK_NAME == "mcp_harbor.run"
    assert wire.queue_name("gpu") == "runs_on.gpu"
    assert wire.stream_key("r1") == "harbor:run:r1:ev"
    assert wire.cancel_key("r1") == "harbor:run:r1:cancel"
    assert wire.cancelled_run(wire.cancel_key("r-1:x")) == "r-1:x"
    assert wire.task_key("r1") == "harbor:run:r1:task"


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ([], "stream entry: not a JSON object but list"),
        ({"host": "w1"}, "stream entry: 't' is missing"),
        ({"t": "duplicate"}, "stream entry: unknown event 'duplicate'"),
        ({"t": "started"}, "stream entry 'started': 'received' is missing"),
        ({"t": "step_started", "section": "steps", "index": "0", "n": 1, "total": 1},
         "stream entry 'step_started': 'index' must be an integer, not str"),
        ({"t": "step_progress", "section": "steps", "index": 0, "n": 1, "total": 1,
          "fraction": 1.5, "text": "150%", "message": None},
         "stream entry 'step_progress': 'fraction' is not between 0 and 1"),
        ({"t": "lost", "worker": None},
         "stream entry 'lost': 'worker' must be a string, not NoneType"),
        ({"t": "cancelled", "attempt": 1.5},
         "stream entry: 'attempt' must be an integer, not float"),
        ({"t": "cancelled", "host": 3}, "stream entry: 'host' must be a string, not int"),
        ({"t": "step_finished", "n": 1, "total": 1, "result": {"name": "x"}},
         "stream entry 'step_finished': 'result' is not a step result"),
        ({"t": "result", "result": {"run_id": "r1"}},
         "stream entry 'result': 'result' is not a run result"),
        ({"t": "result", "result": _run().to_json(), "output": "not base64!"},
         "stream entry 'result': 'output' is not base64"),
    ],
)  # fmt: skip
def test_an_entry_that_cannot_be_read_is_refused(data: object, error: str) -> None:
    with pytest.raises(RunError) as caught:
        decode_entry(data)
    assert str(caught.value).startswith(error), str(caught.value)


def test_stream_fields_that_hold_no_entry_are_refused() -> None:
    with pytest.raises(RunError, match="stream entry: no field 'e'"):
        from_stream({b"x": b"{}"})
    with pytest.raises(RunError, match="stream entry: not JSON"):
        from_stream({b"e": b"{"})


def test_output_is_shipped_up_to_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    path.write_bytes(b"x" * OUTPUT_LIMIT)
    assert wire.read_output(path) == b"x" * OUTPUT_LIMIT
    path.write_bytes(b"x" * (OUTPUT_LIMIT + 1))
    assert wire.read_output(path) is None
    with pytest.raises(OSError):
        wire.read_output(tmp_path / "missing")
