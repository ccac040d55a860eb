"""The wire protocol of remote runs: what a replica and a worker say to each other.

Two directions, each with one encoder and one decoder:

- **the run message** (`RunMessage`), replica → worker: the one argument of
  the Celery task `TASK_NAME`, a JSON object carrying ``"v"`` (the protocol
  version, `PROTOCOL_VERSION`) and everything the worker needs to rebuild the
  call's `RunRequest`. It is made from the request on the replica
  (`RunMessage.from_request`) and turned back into one on the worker
  (`RunMessage.to_request`); nothing else copies its fields;
- **stream entries** (`Entry`), worker (and the replicas' sweeper) → replica:
  one JSON object per Redis Stream entry, under the entry field ``"e"``. Its
  ``"t"`` names the event (`Started`, `StepStarted`, `OutputLine`,
  `StepFinished`, `Result`, `Cancelled`, `Refused`, `Lost`, `Redispatched`),
  its other keys are the event's fields plus the stamps ``"host"`` (the
  worker that wrote it), ``"attempt"`` (the lease attempt, once claimed) and
  ``"at"`` (Unix seconds, when written), each present only when known.

The decoders refuse what they cannot read with a `RunError` that says what is
wrong: a message of another version, a missing key, a value of the wrong
type. The names Redis and Celery see are here too: the queue of a label
(`queue_name`), a run's stream (`stream_key`), its cancel key and channel
(`cancel_key`) and its kept message (`task_key`).

Times cross the wire as Unix times (``started_at``, ``deadline_at``): the two
sides' monotonic clocks are unrelated, their wall clocks are assumed to agree.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final, final

from mcp_harbor.errors import RunError
from mcp_harbor.runner.pipeline import RunRequest
from mcp_harbor.runner.result import RunResult, StepResult

if TYPE_CHECKING:
    from mcp_harbor.config import Export

__all__ = [
    "LINE_LIMIT",
    "OUTPUT_LIMIT",
    "PROTOCOL_VERSION",
    "STREAM_MAXLEN",
    "STREAM_TTL",
    "TASK_NAME",
    "TERMINAL",
    "Cancelled",
    "Entry",
    "Event",
    "Lost",
    "OutputLine",
    "Redispatched",
    "Refused",
    "Result",
    "RunMessage",
    "Started",
    "StepFinished",
    "StepProgressed",
    "StepStarted",
    "cancel_key",
    "cancelled_run",
    "decode_entry",
    "encode_entry",
    "from_stream",
    "queue_name",
    "read_output",
    "stream_key",
    "task_key",
    "to_stream",
]

#: The name of the one Celery task: run a pipeline.
TASK_NAME: Final = "mcp_harbor.run"
#: The run message's format; a worker refuses any other. Version 2 added
#: ``deadline_at`` and ``shown_arguments``; version 3 the ``step_progress``
#: stream entries (which a version-2 replica could not read).
PROTOCOL_VERSION: Final = 3
#: Entries kept per run stream (approximate trim), and how long (seconds) a
#: stream stays after its run's last entry.
STREAM_MAXLEN: Final = 10_000
STREAM_TTL: Final = 3600
#: The longest output line put into the stream (the step's log has it all).
LINE_LIMIT: Final = 8192
#: The largest ``$HARBOR_OUTPUT`` file a worker sends back with the result.
OUTPUT_LIMIT: Final = 16 * 1024 * 1024
#: The stream entry's one field, holding the entry as JSON.
_FIELD: Final = "e"
_FIELD_BYTES: Final = _FIELD.encode()


def queue_name(label: str) -> str:
    """The Celery queue of the ``runs_on:`` label `label`."""
    return f"runs_on.{label}"


def stream_key(run_id: str) -> str:
    """The Redis Stream the run's entries are appended to."""
    return f"harbor:run:{run_id}:ev"


def cancel_key(run_id: str) -> str:
    """Both the cancel flag's key and the channel the cancel message goes to."""
    return f"harbor:run:{run_id}:cancel"


def cancelled_run(channel: str) -> str:
    """The run id of a cancel channel (the inverse of `cancel_key`)."""
    return channel.removeprefix("harbor:run:").removesuffix(":cancel")


def task_key(run_id: str) -> str:
    """Where a re-dispatchable run's message is kept for the sweeper."""
    return f"harbor:run:{run_id}:task"


# --- reading JSON values, with errors that say what is wrong -----------------


def _object(data: object, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise RunError(f"{what}: not a JSON object but {type(data).__name__}")
    return data


def _missing(key: str, what: str) -> RunError:
    return RunError(f"{what}: {key!r} is missing")


def _wrong(key: str, value: object, wanted: str, what: str) -> RunError:
    return RunError(f"{what}: {key!r} must be {wanted}, not {type(value).__name__}")


def _str(data: Mapping[str, Any], key: str, what: str) -> str:
    if key not in data:
        raise _missing(key, what)
    value = data[key]
    if not isinstance(value, str):
        raise _wrong(key, value, "a string", what)
    return value


def _opt_str(data: Mapping[str, Any], key: str, what: str) -> str | None:
    return None if data.get(key) is None else _str(data, key, what)


def _int(data: Mapping[str, Any], key: str, what: str) -> int:
    if key not in data:
        raise _missing(key, what)
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong(key, value, "an integer", what)
    return value


def _opt_int(data: Mapping[str, Any], key: str, what: str) -> int | None:
    return None if data.get(key) is None else _int(data, key, what)


def _float(data: Mapping[str, Any], key: str, what: str) -> float:
    if key not in data:
        raise _missing(key, what)
    value = data[key]
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _wrong(key, value, "a number", what)
    return float(value)


def _opt_float(data: Mapping[str, Any], key: str, what: str) -> float | None:
    return None if data.get(key) is None else _float(data, key, what)


def _bool(data: Mapping[str, Any], key: str, what: str) -> bool:
    if key not in data:
        raise _missing(key, what)
    value = data[key]
    if not isinstance(value, bool):
        raise _wrong(key, value, "true or false", what)
    return value


def _dict(data: Mapping[str, Any], key: str, what: str) -> dict[str, Any]:
    if key not in data:
        raise _missing(key, what)
    value = data[key]
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise _wrong(key, value, "an object", what)
    return dict(value)


def _opt_dict(data: Mapping[str, Any], key: str, what: str) -> dict[str, Any] | None:
    return None if data.get(key) is None else _dict(data, key, what)


def _strings(data: Mapping[str, Any], key: str, what: str) -> dict[str, str]:
    value = _dict(data, key, what)
    if not all(isinstance(v, str) for v in value.values()):
        raise RunError(f"{what}: every value of {key!r} must be a string")
    return value


# --- the run message ----------------------------------------------------------

_MESSAGE: Final = "run message"


@final
@dataclass(frozen=True, slots=True)
class RunMessage:
    """The task's one argument: a `RunRequest` as it travels to a worker.

    The export travels as its name and content hash: the worker runs its own
    export of that name, and only when its content hash is the same.
    `started_at` and `deadline_at` are the run boundary (`RunRequest.boundary`)
    as Unix times; `context_json` is the exact text of the context.json the
    composer wrote (None: no context file), for a worker on another machine.
    """

    run_id: str
    tool: str
    content_hash: str
    arguments: Mapping[str, Any]
    #: `RunRequest.shown_arguments` (None: derived from `arguments`).
    shown_arguments: Mapping[str, Any] | None
    run_dir: Path
    workdir: Path
    extra_env: Mapping[str, str]
    output_tail: int
    grace: float
    started_at: float
    deadline_at: float
    context_path: Path | None
    context_json: str | None
    #: The replica's observer wants output lines (`RunObserver.wants_output`).
    wants_output: bool

    @classmethod
    def from_request(cls, request: RunRequest, *, wants_output: bool) -> RunMessage:
        """The message of `request` (the replica's side). The boundary is
        taken from `request.boundary()`, so the worker judges the deadline
        the call path computed.

        Raises:
            RunError: the run's context.json cannot be read; nothing was sent.
        """
        started, deadline = request.boundary()
        offset = time.time() - time.monotonic()
        context_json = None
        if request.context_path is not None:
            try:
                context_json = request.context_path.read_text(encoding="utf-8")
            except OSError as exc:
                raise RunError(f"cannot read the run context: {exc.strerror}") from exc
        return cls(
            run_id=request.run_id,
            tool=request.export.name,
            content_hash=request.export.content_hash,
            arguments=dict(request.arguments),
            shown_arguments=(
                None if request.shown_arguments is None else dict(request.shown_arguments)
            ),
            run_dir=request.run_dir,
            workdir=request.workdir,
            extra_env=dict(request.extra_env),
            output_tail=request.output_tail,
            grace=request.grace,
            started_at=started + offset,
            deadline_at=deadline + offset,
            context_path=request.context_path,
            context_json=context_json,
            wants_output=wants_output,
        )

    def to_request(self, export: Export) -> RunRequest:
        """The `RunRequest` the worker runs (the worker's side): `export` is
        the worker's own export of `tool`, whose content hash the caller
        compared; the boundary is brought back onto this machine's
        monotonic clock."""
        offset = time.time() - time.monotonic()
        return RunRequest(
            export=export,
            arguments=dict(self.arguments),
            run_id=self.run_id,
            run_dir=self.run_dir,
            workdir=self.workdir,
            extra_env=dict(self.extra_env),
            output_tail=self.output_tail,
            grace=self.grace,
            started=self.started_at - offset,
            context_path=self.context_path,
            deadline=self.deadline_at - offset,
            shown_arguments=None if self.shown_arguments is None else dict(self.shown_arguments),
        )

    @property
    def timeout(self) -> float:
        """Seconds from the run's start to its deadline."""
        return self.deadline_at - self.started_at

    def encode(self) -> dict[str, Any]:
        """The JSON object Celery carries (and the sweeper keeps)."""
        return {
            "v": PROTOCOL_VERSION,
            "run_id": self.run_id,
            "tool": self.tool,
            "content_hash": self.content_hash,
            "arguments": dict(self.arguments),
            "shown_arguments": (
                None if self.shown_arguments is None else dict(self.shown_arguments)
            ),
            "run_dir": str(self.run_dir),
            "workdir": str(self.workdir),
            "extra_env": dict(self.extra_env),
            "output_tail": self.output_tail,
            "grace": self.grace,
            "started_at": self.started_at,
            "deadline_at": self.deadline_at,
            "context_path": None if self.context_path is None else str(self.context_path),
            "context_json": self.context_json,
            "wants_output": self.wants_output,
        }

    @classmethod
    def decode(cls, data: object) -> RunMessage:
        """The message `encode` made.

        Raises:
            RunError: `data` is not a message of `PROTOCOL_VERSION` (checked
                first: another version may have other keys), a key is
                missing, or a value has the wrong type. The message says which.
        """
        d = _object(data, _MESSAGE)
        version = d.get("v")
        if version != PROTOCOL_VERSION:
            raise RunError(
                f"message version {version!r} unknown (this worker reads version "
                f"{PROTOCOL_VERSION})"
            )
        context_path = _opt_str(d, "context_path", _MESSAGE)
        return cls(
            run_id=_str(d, "run_id", _MESSAGE),
            tool=_str(d, "tool", _MESSAGE),
            content_hash=_str(d, "content_hash", _MESSAGE),
            arguments=_dict(d, "arguments", _MESSAGE),
            shown_arguments=_opt_dict(d, "shown_arguments", _MESSAGE),
            run_dir=Path(_str(d, "run_dir", _MESSAGE)),
            workdir=Path(_str(d, "workdir", _MESSAGE)),
            extra_env=_strings(d, "extra_env", _MESSAGE),
            output_tail=_int(d, "output_tail", _MESSAGE),
            grace=_float(d, "grace", _MESSAGE),
            started_at=_float(d, "started_at", _MESSAGE),
            deadline_at=_float(d, "deadline_at", _MESSAGE),
            context_path=None if context_path is None else Path(context_path),
            context_json=_opt_str(d, "context_json", _MESSAGE),
            wants_output=_bool(d, "wants_output", _MESSAGE),
        )


# --- stream events --------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class Started:
    """The worker claimed the run's lease and starts it. `received`: when the
    task body began (Unix seconds; the broker hop of bench/bench_remote.py)."""

    kind: ClassVar[str] = "started"
    received: float


@final
@dataclass(frozen=True, slots=True)
class StepStarted:
    """Step `n` of `total` (the export's step at `section`, `index`) starts."""

    kind: ClassVar[str] = "step_started"
    section: str
    index: int
    n: int
    total: int


@final
@dataclass(frozen=True, slots=True)
class OutputLine:
    """A line the step at `section`, `index` printed on `stream` (``stdout``
    or ``stderr``), cut to `LINE_LIMIT` characters; sent only when the
    message asked for output."""

    kind: ClassVar[str] = "output"
    section: str
    index: int
    stream: str
    line: str


@final
@dataclass(frozen=True, slots=True)
class StepProgressed:
    """Step `n` of `total` (the export's step at `section`, `index`) wrote
    a progress line: `fraction` (0 to 1), `text` and `message` as the
    worker's runner made them (escaped, scrubbed, cut; the replica cuts them
    to `LINE_LIMIT` again). At most 10 a second per step."""

    kind: ClassVar[str] = "step_progress"
    section: str
    index: int
    n: int
    total: int
    fraction: float
    text: str
    message: str | None


@final
@dataclass(frozen=True, slots=True)
class StepFinished:
    """Step `n` of `total` ended with `result`."""

    kind: ClassVar[str] = "step_finished"
    n: int
    total: int
    result: StepResult


@final
@dataclass(frozen=True, slots=True)
class Result:
    """The run ended (terminal). `output`: the ``$HARBOR_OUTPUT`` file's bytes
    for an export with an ``output_schema`` (base64 on the wire; None when
    there is none, it could not be read, or it is over `OUTPUT_LIMIT`)."""

    kind: ClassVar[str] = "result"
    result: RunResult
    output: bytes | None = None


@final
@dataclass(frozen=True, slots=True)
class Cancelled:
    """The run was cancelled and its processes are gone (terminal)."""

    kind: ClassVar[str] = "cancelled"


@final
@dataclass(frozen=True, slots=True)
class Refused:
    """The worker did not run the run, or failed running it (terminal): its
    export differs, the message cannot be read, the store failed."""

    kind: ClassVar[str] = "refused"
    error: str


@final
@dataclass(frozen=True, slots=True)
class Lost:
    """Written by a replica's sweeper: `worker` stopped renewing the lease of
    the entry's attempt (terminal)."""

    kind: ClassVar[str] = "lost"
    worker: str


@final
@dataclass(frozen=True, slots=True)
class Redispatched:
    """Written by a replica's sweeper before it sends the kept message again:
    the entry's attempt is the new one, whose steps start from zero."""

    kind: ClassVar[str] = "redispatched"


Event = (
    Started
    | StepStarted
    | OutputLine
    | StepProgressed
    | StepFinished
    | Result
    | Cancelled
    | Refused
    | Lost
    | Redispatched
)

#: The events after which the run is over.
TERMINAL: Final = (Result, Cancelled, Refused, Lost)


@final
@dataclass(frozen=True, slots=True)
class Entry:
    """One stream entry: an event and its stamps. `host`: the worker that
    wrote it (None: a replica's sweeper did); `attempt`: the lease attempt
    (None: written before any claim); `at`: when it was written (Unix
    seconds; None: not stamped)."""

    event: Event
    host: str | None = None
    attempt: int | None = None
    at: float | None = None


_ENTRY: Final = "stream entry"


def encode_entry(entry: Entry) -> dict[str, Any]:
    """The entry as the JSON object stored in the stream: ``"t"``, the
    event's fields, then the stamps that are known."""
    event = entry.event
    data: dict[str, Any] = {"t": event.kind}
    match event:
        case Started():
            data["received"] = event.received
        case StepStarted():
            data.update(section=event.section, index=event.index, n=event.n, total=event.total)
        case OutputLine():
            data.update(
                section=event.section, index=event.index, stream=event.stream, line=event.line
            )
        case StepProgressed():
            data.update(
                section=event.section,
                index=event.index,
                n=event.n,
                total=event.total,
                fraction=event.fraction,
                text=event.text,
                message=event.message,
            )
        case StepFinished():
            data.update(n=event.n, total=event.total, result=event.result.to_json())
        case Result():
            output = None if event.output is None else base64.b64encode(event.output).decode()
            data.update(result=event.result.to_json(), output=output)
        case Refused():
            data["error"] = event.error
        case Lost():
            data["worker"] = event.worker
        case Cancelled() | Redispatched():
            pass
    if entry.host is not None:
        data["host"] = entry.host
    if entry.attempt is not None:
        data["attempt"] = entry.attempt
    if entry.at is not None:
        data["at"] = entry.at
    return data


def _event(d: Mapping[str, Any]) -> Event:
    kind = _str(d, "t", _ENTRY)
    what = f"{_ENTRY} {kind!r}"
    if kind == "started":
        return Started(_float(d, "received", what))
    if kind == "step_started":
        return StepStarted(
            _str(d, "section", what),
            _int(d, "index", what),
            _int(d, "n", what),
            _int(d, "total", what),
        )
    if kind == "output":
        return OutputLine(
            _str(d, "section", what),
            _int(d, "index", what),
            _str(d, "stream", what),
            _str(d, "line", what),
        )
    if kind == "step_progress":
        fraction = _float(d, "fraction", what)
        if not 0.0 <= fraction <= 1.0:
            raise RunError(f"{what}: 'fraction' is not between 0 and 1")
        message = _opt_str(d, "message", what)
        return StepProgressed(
            _str(d, "section", what),
            _int(d, "index", what),
            _int(d, "n", what),
            _int(d, "total", what),
            fraction,
            _str(d, "text", what)[:LINE_LIMIT],
            None if message is None else message[:LINE_LIMIT],
        )
    if kind == "step_finished":
        step = _dict(d, "result", what)
        try:
            result = StepResult.from_json(step)
        except (KeyError, TypeError) as exc:
            raise RunError(f"{what}: 'result' is not a step result ({exc})") from exc
        return StepFinished(_int(d, "n", what), _int(d, "total", what), result)
    if kind == "result":
        run = _dict(d, "result", what)
        try:
            run_result = RunResult.from_json(run)
        except (KeyError, TypeError) as exc:
            raise RunError(f"{what}: 'result' is not a run result ({exc})") from exc
        text = _opt_str(d, "output", what)
        try:
            output = None if text is None else base64.b64decode(text, validate=True)
        except binascii.Error as exc:
            raise RunError(f"{what}: 'output' is not base64 ({exc})") from exc
        return Result(run_result, output)
    if kind == "cancelled":
        return Cancelled()
    if kind == "refused":
        return Refused(_str(d, "error", what))
    if kind == "lost":
        return Lost(_str(d, "worker", what))
    if kind == "redispatched":
        return Redispatched()
    raise RunError(f"{_ENTRY}: unknown event {kind!r}")


def decode_entry(data: object) -> Entry:
    """The entry `encode_entry` made.

    Raises:
        RunError: `data` is not an entry: an unknown ``"t"``, a missing key,
            a value of the wrong type (the message says which).
    """
    d = _object(data, _ENTRY)
    return Entry(
        _event(d),
        host=_opt_str(d, "host", _ENTRY),
        attempt=_opt_int(d, "attempt", _ENTRY),
        at=_opt_float(d, "at", _ENTRY),
    )


def to_stream(entry: Entry) -> dict[str, str]:
    """The fields of the stream entry (``XADD``) holding `entry`."""
    return {_FIELD: json.dumps(encode_entry(entry))}


def from_stream(fields: Mapping[bytes, bytes]) -> Entry:
    """The entry held by a stream entry's `fields` (as ``XREAD`` returns them).

    Raises:
        RunError: the fields hold no entry, or one `decode_entry` refuses.
    """
    raw = fields.get(_FIELD_BYTES)
    if raw is None:
        raise RunError(f"{_ENTRY}: no field {_FIELD!r}")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise RunError(f"{_ENTRY}: not JSON ({exc})") from exc
    return decode_entry(data)


def read_output(path: Path) -> bytes | None:
    """The ``$HARBOR_OUTPUT`` file at `path` as it is shipped with the result:
    its bytes, or None when it is larger than `OUTPUT_LIMIT` (the replica
    then reports the output as missing).

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as fh:
        data = fh.read(OUTPUT_LIMIT + 1)
    return data if len(data) <= OUTPUT_LIMIT else None
