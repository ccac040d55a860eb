"""The run context: everything a run knows before its first command.

`compose` is the one production home of a run's context, whatever brought
the call in (MCP over stdio or HTTP, ``mcp-harbor run``, a remote worker).
It never mutates its inputs and never produces a half-scoped context.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import mimetypes
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Literal

from jsonschema.validators import Draft202012Validator

from mcp_harbor.config import Export
from mcp_harbor.errors import ContextError, IdentityError
from mcp_harbor.identity import Caller
from mcp_harbor.runner.pipeline import redact
from mcp_harbor.runner.rundir import write_private
from mcp_harbor.store.base import MemoryEntry, canonical_json

__all__ = [
    "ABSENT",
    "CALLER_MEMORY_KEY",
    "CALLER_MEMORY_LIMIT",
    "INLINE_LIMIT",
    "Attachment",
    "Identity",
    "RunContext",
    "compose",
    "parse_caller_memory",
    "read_caller_memory",
]

#: The request ``_meta`` key under which a caller may send memory.
CALLER_MEMORY_KEY: Final = "mcp-harbor/memory"
#: The most caller memory accepted, in bytes of canonical JSON.
CALLER_MEMORY_LIMIT: Final = 32 * 1024
#: The largest attachment put inline into context.json (UTF-8 text only).
INLINE_LIMIT: Final = 64 * 1024


class _Absent:
    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


#: "Not sent", as distinct from an explicit ``null``.
ABSENT: Final = _Absent()


def _check_memory(value: Any) -> Any:
    if value is None:
        raise ContextError(
            f"caller memory (_meta {CALLER_MEMORY_KEY!r}) is null; send a JSON value, "
            f"or leave the key out to send none"
        )
    try:
        # allow_nan=False: NaN and Infinity are Python's, not JSON's.
        size = len(
            json.dumps(
                value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
            ).encode("utf-8")
        )
    except (TypeError, ValueError) as exc:
        raise ContextError(f"caller memory is not valid JSON: {exc}") from None
    if size > CALLER_MEMORY_LIMIT:
        raise ContextError(
            f"caller memory is {size} bytes; the limit is {CALLER_MEMORY_LIMIT} bytes "
            f"(32 KiB) of JSON: send less"
        )
    return copy.deepcopy(value)


def read_caller_memory(meta: Mapping[str, Any] | None) -> Any:
    """The caller memory in a request's ``_meta``, or `ABSENT`.

    Raises:
        ContextError: the key is present with ``null``, a value that is not
            JSON, or more than 32 KiB.
    """
    if meta is None or CALLER_MEMORY_KEY not in meta:
        return ABSENT
    return _check_memory(meta[CALLER_MEMORY_KEY])


def parse_caller_memory(text: str) -> Any:
    """Caller memory given as JSON text (``mcp-harbor run --memory``).

    Raises:
        ContextError: the text is not JSON, is ``null`` or is too large.
    """
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, ValueError) as exc:
        raise ContextError(f"caller memory is not valid JSON: {exc}") from None
    return _check_memory(value)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@dataclass(frozen=True, slots=True)
class Identity:
    """The identity quadruple every run is scoped by."""

    tenant: str
    principal: str
    session: str
    run_id: str

    def __post_init__(self) -> None:
        missing = [k for k in ("tenant", "principal", "session", "run_id") if not getattr(self, k)]
        if missing:
            raise IdentityError(f"a run needs a complete identity; missing: {', '.join(missing)}")

    def to_json(self) -> dict[str, str]:
        return {
            "tenant": self.tenant,
            "principal": self.principal,
            "session": self.session,
            "run_id": self.run_id,
        }


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file a caller sent as a base64 arg, decoded into the run directory."""

    arg: str
    path: str
    media_type: str | None
    size: int
    disposition: Literal["inline", "ref"]
    text: str | None = None  # inline text only

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "arg": self.arg,
            "path": self.path,
            "media_type": self.media_type,
            "size": self.size,
            "disposition": self.disposition,
        }
        if self.disposition == "inline":
            data["text"] = self.text
        return data


@dataclass(frozen=True, slots=True)
class RunContext:
    """An immutable run context. `started_monotonic` is the run boundary:
    every time-based decision of the run (the deadline) is judged against it."""

    identity: Identity
    caller: Caller
    started_at: str
    started_monotonic: float
    deadline_monotonic: float
    tool: str
    export_hash: str
    arguments: Mapping[str, Any]
    shown_arguments: Mapping[str, Any]  # secrets as ***
    conversation: tuple[MemoryEntry, ...]
    external: Mapping[str, Any]
    attachments: tuple[Attachment, ...]
    output_schema: Mapping[str, Any] | None
    output_validator: Draft202012Validator | None = field(repr=False, compare=False)
    run_dir: Path
    context_path: Path
    output_path: Path
    #: Bytes of canonical JSON of the caller's memory (None: none sent).
    caller_memory_size: int | None = None
    #: The model source pinned for each model its agent steps use (empty:
    #: no agent steps), as the start record has it.
    models: Mapping[str, Any] = field(default_factory=dict)

    def plain_arguments(self, *, shown: bool = False) -> dict[str, Any]:
        """A mutable deep copy of the arguments (``***`` for secrets if `shown`)."""
        source = self.shown_arguments if shown else self.arguments
        thawed: dict[str, Any] = json.loads(json.dumps(source, default=_thaw))
        return thawed

    def environment(self) -> dict[str, str]:
        """``HARBOR_CONTEXT``, ``HARBOR_OUTPUT`` and the caller's variables (each
        classified in `mcp_harbor.step_env`)."""
        env = self.caller.environment()
        env["HARBOR_CONTEXT"] = str(self.context_path)
        env["HARBOR_OUTPUT"] = str(self.output_path)
        return env

    def to_json(self) -> dict[str, Any]:
        """The content of context.json (secrets redacted)."""
        return {
            "version": 1,
            "identity": self.identity.to_json(),
            "caller": self.caller.to_json(),
            "started_at": self.started_at,
            "timeout_s": round(self.deadline_monotonic - self.started_monotonic, 3),
            "tool": {"name": self.tool, "content_hash": self.export_hash},
            "arguments": dict(self.shown_arguments),
            "memory": {
                "conversation": [m.to_json() for m in self.conversation],
                "external": {k: v for k, v in self.external.items()},
            },
            "attachments": [a.to_json() for a in self.attachments],
            "output": {"path": str(self.output_path), "schema": self.output_schema},
            **({"models": {k: dict(v) for k, v in self.models.items()}} if self.models else {}),
        }


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _decode_attachments(
    export: Export, arguments: dict[str, Any], inputs: Path
) -> tuple[Attachment, ...]:
    policy = export.spec.attachments
    out: list[Attachment] = []
    for name in sorted(export.attachment_args):
        if name not in arguments or arguments[name] is None:
            continue
        schema = export.arg_schemas[name]
        limit = int(schema.get("max_bytes", policy.max_bytes))
        encoded = arguments[name]
        if len(encoded) > (limit + 2) // 3 * 4 + 4:
            raise ContextError(
                f"attachment {name!r} is larger than its limit of {limit} bytes; "
                f"send a smaller file"
            )
        try:
            data = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise ContextError(
                f"attachment {name!r} is not valid base64 (contentEncoding: base64)"
            ) from None
        if len(data) > limit:
            raise ContextError(
                f"attachment {name!r} is {len(data)} bytes; the limit is {limit} bytes"
            )
        media_type = schema.get("contentMediaType")
        suffix = (mimetypes.guess_extension(media_type) if media_type else None) or ".bin"
        inputs.mkdir(mode=0o700, exist_ok=True)
        path = inputs / f"{name}{suffix}"
        write_private(path, data)
        disposition = schema.get("disposition", policy.disposition)
        text: str | None = None
        if disposition == "inline":
            try:
                text = data.decode("utf-8") if len(data) <= INLINE_LIMIT else None
            except UnicodeDecodeError:
                text = None
            if text is None:
                disposition = "ref"  # not small text: handed over by path only
        out.append(Attachment(name, str(path), media_type, len(data), disposition, text))
        arguments[name] = str(path)
    return tuple(out)


def compose(
    *,
    export: Export,
    caller: Caller,
    run_id: str,
    run_dir: Path,
    arguments: Mapping[str, Any],
    caller_memory: Any = ABSENT,
    conversation: Sequence[MemoryEntry] = (),
    timeout: float,
    models: Mapping[str, Any] | None = None,
) -> RunContext:
    """Compose the context of one run and write ``context.json`` into `run_dir`.

    `arguments` are validated, with defaults applied; attachments among them
    are decoded into ``run_dir/inputs/`` and replaced by their paths.
    `caller_memory` is `ABSENT` or a value from `read_caller_memory`.
    `models` are the pins of the run's agent steps (`mcp_harbor.llm.pin.Pin.to_json`).

    Raises:
        IdentityError: the caller's identity or the run id is incomplete.
        ContextError: an attachment cannot be decoded or is too large.
    """
    identity = Identity(caller.tenant, caller.principal, caller.session or "", run_id)
    started_monotonic = time.monotonic()
    started_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    values = copy.deepcopy(dict(arguments))
    attachments = _decode_attachments(export, values, run_dir / "inputs")
    shown = redact(values, export.secret_args)
    external: dict[str, Any] = {}
    if caller_memory is not ABSENT:
        external["caller_supplied"] = copy.deepcopy(caller_memory)
    schema = export.spec.output_schema
    context = RunContext(
        identity=identity,
        caller=caller,
        started_at=started_at,
        started_monotonic=started_monotonic,
        deadline_monotonic=started_monotonic + timeout,
        tool=export.name,
        export_hash=export.content_hash,
        arguments=_freeze(values),
        shown_arguments=_freeze(shown),
        conversation=tuple(
            replace(
                m,
                arguments=_freeze(copy.deepcopy(dict(m.arguments))),
                answer_payload=_freeze(copy.deepcopy(m.answer_payload)),
            )
            for m in conversation
        ),
        external=_freeze(external),
        attachments=attachments,
        output_schema=_freeze(copy.deepcopy(schema)) if schema is not None else None,
        output_validator=Draft202012Validator(schema) if schema is not None else None,
        run_dir=run_dir,
        context_path=run_dir / "context.json",
        output_path=run_dir / "output.json",
        caller_memory_size=(
            None if caller_memory is ABSENT else len(canonical_json(caller_memory).encode("utf-8"))
        ),
        models=_freeze(copy.deepcopy(dict(models or {}))),
    )
    write_private(
        context.context_path,
        # Compact: json's C encoder (an indented dump runs its pure-Python one).
        (json.dumps(context.to_json(), ensure_ascii=False, default=_thaw) + "\n").encode("utf-8"),
    )
    return context


def _thaw(value: Any) -> Any:
    if isinstance(value, MappingProxyType):
        return dict(value)
    raise TypeError(f"not JSON: {type(value).__name__}")
