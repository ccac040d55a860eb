"""The run-context composer, `compose()`, on real exports loaded from YAML.

Proves: the full matrix (session memory present or absent; caller memory
absent, empty, valid, null, invalid, oversized; attachments inline and by
reference; identity complete or missing each part) gives the right context,
context.json and refusals, with nothing written when refused; composition
never mutates its inputs and the context is read-only; context.json holds
the caller and identity and redacts ``secret: true`` args; the attachment
rules (precedence of disposition and max_bytes, inline fallback, extension,
strict base64); the 32 KiB caller memory limit to the byte; the run
boundary: the deadline is judged from ``RunContext.started_monotonic``.
"""

from __future__ import annotations

import base64
import copy
import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import write_export

from mcp_harbor.config import Export, load_export
from mcp_harbor.errors import ContextError, IdentityError
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import (
    ABSENT,
    CALLER_MEMORY_KEY,
    CALLER_MEMORY_LIMIT,
    CallService,
    RunSettings,
    compose,
    parse_caller_memory,
    read_caller_memory,
)
from mcp_harbor.runctx.request import CallRequest
from mcp_harbor.store import SqliteStore
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.base import MemoryEntry

TEXT = "first line\nzweite Zeile: ä\n"
TEXT_B64 = base64.b64encode(TEXT.encode()).decode()


def ctx_export(disposition: str) -> str:
    return f"""
    name: ctx_{disposition}
    description: The export of the composer matrix ({disposition} attachments).
    args:
      doc: {{type: string, contentEncoding: base64, contentMediaType: text/plain}}
      note: {{type: string}}
      token: {{type: string, secret: true}}
      tags: {{type: array, items: {{type: string}}}}
      level: {{type: integer, default: 3}}
    attachments: {{disposition: {disposition}}}
    memory: {{recent: 2}}
    output_schema:
      type: object
      properties: {{n: {{type: integer}}}}
      required: [n]
    steps:
      - name: a
        run: printf '%s\\n' "$ARG_note"
    """


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Export]:
    folder = tmp_path_factory.mktemp("compose-exports")
    return {
        d: load_export(write_export(folder, f"ctx_{d}.yaml", ctx_export(d)))
        for d in ("inline", "ref")
    }


def make_caller(**over: Any) -> Caller:
    base: dict[str, Any] = {
        "transport": "http",
        "principal": "alice",
        "tenant": "acme",
        "groups": ("ops",),
        "client_name": "matrix-client",
        "client_version": "1.2",
        "session": "http:s-1",
        "request_id": "7",
        "remote_addr": "127.0.0.1",
        "protocol_version": "2025-11-25",
    }
    base.update(over)
    return Caller(**base)


def entry(n: int) -> MemoryEntry:
    return MemoryEntry(
        tenant="acme",
        principal="alice",
        session="http:s-1",
        tool="ctx_ref",
        run_id=f"run-{n}",
        at=f"2026-11-29T00:00:0{n}Z",
        arguments={"note": f"earlier {n}", "tags": ["x", {"deep": [n]}]},
        answer=f"answer {n}",
        answer_payload={"n": n},
    )


def arguments() -> dict[str, Any]:
    return {
        "doc": TEXT_B64,
        "note": "hello",
        "token": "s3cr3t-value",
        "tags": ["a", "b"],
        "level": 3,
    }


# --- the matrix --------------------------------------------------------------------

CONVERSATIONS = {"none": (), "two": (1, 2)}
BIG = "x" * (CALLER_MEMORY_LIMIT - 2 + 1)  # canonical JSON: the quotes add 2 bytes
CALLER_MEMORIES: dict[str, Any] = {
    "absent": ABSENT,  # the key is not in _meta at all
    "empty": {},
    "valid": {"ticket": "OPS-42", "nested": {"list": [1, 2, {"k": None}]}},
    "null": None,
    "invalid": {"not json": {1, 2}},  # a set: no JSON for it
    "nan": float("nan"),  # Python's json writes NaN, which is not JSON
    "oversized": BIG,
}
IDENTITIES: dict[str, dict[str, Any]] = {
    "complete": {},
    "no-tenant": {"tenant": ""},
    "no-principal": {"principal": ""},
    "no-session": {"session": None},
    "no-run-id": {"run_id": ""},
}
REFUSED_MEMORY = {"null": "is null", "invalid": "not valid JSON", "nan": "not valid JSON"}
REFUSED_MEMORY["oversized"] = f"the limit is {CALLER_MEMORY_LIMIT} bytes"


@pytest.mark.parametrize(
    ("conv", "mem", "disposition", "ident"),
    list(itertools.product(CONVERSATIONS, CALLER_MEMORIES, ("inline", "ref"), IDENTITIES)),
)
def test_compose_matrix(
    exports: dict[str, Export],
    tmp_path: Path,
    conv: str,
    mem: str,
    disposition: str,
    ident: str,
) -> None:
    export = exports[disposition]
    over = dict(IDENTITIES[ident])
    run_id = over.pop("run_id", "20261129T000000Z-abcdef0123")
    caller = make_caller(**over)
    conversation = [entry(n) for n in CONVERSATIONS[conv]]
    meta = {} if mem == "absent" else {CALLER_MEMORY_KEY: CALLER_MEMORIES[mem]}
    run_dir = tmp_path / "run"
    run_dir.mkdir()

    def go() -> Any:
        # The order of the call path: caller memory is read, then composed.
        caller_memory = read_caller_memory(meta)
        return compose(
            export=export,
            caller=caller,
            run_id=run_id,
            run_dir=run_dir,
            arguments=arguments(),
            caller_memory=caller_memory,
            conversation=conversation,
            timeout=30,
        )

    if mem in REFUSED_MEMORY:
        with pytest.raises(ContextError, match=REFUSED_MEMORY[mem]):
            go()
        assert list(run_dir.iterdir()) == []  # nothing composed, nothing written
        return
    if ident != "complete":
        missing = ident.removeprefix("no-").replace("-", "_")
        with pytest.raises(IdentityError, match=f"missing: {missing}$"):
            go()
        assert list(run_dir.iterdir()) == []  # no half-scoped context, no inputs/
        return

    context = go()
    data = json.loads((run_dir / "context.json").read_text(encoding="utf-8"))
    assert data["identity"] == {
        "tenant": "acme",
        "principal": "alice",
        "session": "http:s-1",
        "run_id": run_id,
    }
    assert data["caller"] == caller.to_json()
    assert data["caller"]["client_claimed"] is True
    assert data["tool"] == {"name": export.name, "content_hash": export.content_hash}
    assert data["timeout_s"] == 30
    # Conversation: exactly what was recalled, oldest first.
    assert data["memory"]["conversation"] == [
        {
            "tool": "ctx_ref",
            "run_id": f"run-{n}",
            "at": f"2026-11-29T00:00:0{n}Z",
            "arguments": {"note": f"earlier {n}", "tags": ["x", {"deep": [n]}]},
            "answer": f"answer {n}",
            "answer_payload": {"n": n},
        }
        for n in CONVERSATIONS[conv]
    ]
    # Caller memory: under the fixed key, only when sent.
    if mem == "absent":
        assert data["memory"]["external"] == {}
        assert context.caller_memory_size is None
    else:
        sent = CALLER_MEMORIES[mem]
        assert data["memory"]["external"] == {"caller_supplied": sent}
        assert context.caller_memory_size == len(
            json.dumps(sent, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        )
    # Attachment: decoded to inputs/doc.txt; the step sees the path.
    doc = run_dir / "inputs" / "doc.txt"
    assert doc.read_bytes() == TEXT.encode()
    assert data["arguments"]["doc"] == str(doc)
    assert context.arguments["doc"] == str(doc)
    (att,) = data["attachments"]
    expected_att = {
        "arg": "doc",
        "path": str(doc),
        "media_type": "text/plain",
        "size": len(TEXT.encode()),
        "disposition": disposition,
    }
    if disposition == "inline":
        expected_att["text"] = TEXT
    assert att == expected_att
    # Secrets redacted in the file, kept for the steps.
    assert data["arguments"]["token"] == "***"
    assert "s3cr3t-value" not in (run_dir / "context.json").read_text(encoding="utf-8")
    assert context.arguments["token"] == "s3cr3t-value"
    assert data["arguments"]["level"] == 3 and data["arguments"]["tags"] == ["a", "b"]
    assert data["output"] == {
        "path": str(run_dir / "output.json"),
        "schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    }
    env = context.environment()
    assert env["HARBOR_CONTEXT"] == str(run_dir / "context.json")
    assert env["HARBOR_OUTPUT"] == str(run_dir / "output.json")
    assert env["HARBOR_CALLER_PRINCIPAL"] == "alice"


# --- immutability ------------------------------------------------------------------


def test_compose_never_mutates_inputs_and_the_context_is_read_only(
    exports: dict[str, Export], tmp_path: Path
) -> None:
    export = exports["inline"]
    caller = make_caller()
    args = arguments()
    memory = {"ticket": "OPS-42", "nested": {"list": [1, 2, {"k": None}]}}
    conversation = [entry(1), entry(2)]
    spec_before = export.spec.model_dump()
    schemas_before = copy.deepcopy(dict(export.arg_schemas))
    before = copy.deepcopy((args, memory, conversation, caller))

    context = compose(
        export=export,
        caller=caller,
        run_id="r-1",
        run_dir=tmp_path,
        arguments=args,
        caller_memory=read_caller_memory({CALLER_MEMORY_KEY: memory}),
        conversation=conversation,
        timeout=5,
    )

    # The inputs are unchanged: the base64 arg was not replaced by its path.
    assert (args, memory, conversation, caller) == before
    assert args["doc"] == TEXT_B64
    assert export.spec.model_dump() == spec_before
    assert dict(export.arg_schemas) == schemas_before

    # Changing the inputs afterwards does not reach the context.
    args["note"] = "changed"
    args["tags"].append("c")
    memory["nested"]["list"].append(99)  # type: ignore[index]
    conversation[0].arguments["tags"][1]["deep"].append(99)  # type: ignore[index]
    assert context.arguments["note"] == "hello"
    assert list(context.arguments["tags"]) == ["a", "b"]
    assert list(context.external["caller_supplied"]["nested"]["list"]) == [1, 2, {"k": None}]
    assert list(context.conversation[0].arguments["tags"][1]["deep"]) == [1]

    # The context's mappings are read-only, nested ones too.
    with pytest.raises(TypeError):
        context.arguments["note"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        context.shown_arguments["token"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        context.external["caller_supplied"]["ticket"] = "x"
    with pytest.raises(TypeError):
        context.conversation[1].arguments["note"] = "x"  # type: ignore[index]
    assert context.output_schema is not None
    with pytest.raises(TypeError):
        context.output_schema["type"] = "array"  # type: ignore[index]
    # plain_arguments hands out a copy, not the context's own values.
    thawed = context.plain_arguments()
    thawed["tags"].append("z")
    assert list(context.arguments["tags"]) == ["a", "b"]
    assert context.plain_arguments(shown=True)["token"] == "***"


# --- attachments -------------------------------------------------------------------

ATTACH = """
    name: attach
    description: Attachment rules.
    args:
      plain: {type: string, contentEncoding: base64, contentMediaType: text/plain}
      own_ref: {type: string, contentEncoding: base64, contentMediaType: text/plain,
                disposition: ref}
      blob: {type: string, contentEncoding: base64}
      csv: {type: string, contentEncoding: base64, contentMediaType: text/csv}
      small: {type: string, contentEncoding: base64, max_bytes: 10}
    attachments: {disposition: inline, max_bytes: 100000}
    steps:
      - name: a
        run: "true"
"""
DEFAULTS = """
    name: defaults
    description: Attachment defaults.
    args:
      plain: {type: string, contentEncoding: base64, contentMediaType: text/plain}
      own_inline: {type: string, contentEncoding: base64, contentMediaType: text/plain,
                   disposition: inline}
    steps:
      - name: a
        run: "true"
"""


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def compose_args(export: Export, run_dir: Path, args: dict[str, Any]) -> Any:
    run_dir.mkdir(exist_ok=True)
    return compose(
        export=export,
        caller=make_caller(),
        run_id="r-att",
        run_dir=run_dir,
        arguments=args,
        timeout=5,
    )


def test_attachment_disposition_precedence_and_fallback(tmp_path: Path) -> None:
    export = load_export(write_export(tmp_path / "ex", "attach.yaml", ATTACH))
    binary = bytes(range(256))
    big_text = b"y" * (64 * 1024 + 1)
    context = compose_args(
        export,
        tmp_path / "run",
        {
            "plain": b64(b"inline me\n"),
            "own_ref": b64(b"ref me\n"),
            "blob": b64(binary),
            "csv": b64(big_text),
        },
    )
    by_arg = {a.arg: a for a in context.attachments}
    # The export says inline; an arg's own disposition beats it.
    assert by_arg["plain"].disposition == "inline" and by_arg["plain"].text == "inline me\n"
    assert by_arg["own_ref"].disposition == "ref" and by_arg["own_ref"].text is None
    # Not UTF-8 text, or more than 64 KiB: handed over by path only.
    assert by_arg["blob"].disposition == "ref" and by_arg["blob"].text is None
    assert by_arg["csv"].disposition == "ref" and by_arg["csv"].size == len(big_text)
    # The extension comes from the media type, else .bin; the bytes are exact.
    inputs = tmp_path / "run" / "inputs"
    assert sorted(p.name for p in inputs.iterdir()) == [
        "blob.bin",
        "csv.csv",
        "own_ref.txt",
        "plain.txt",
    ]
    assert (inputs / "blob.bin").read_bytes() == binary
    data = json.loads((tmp_path / "run" / "context.json").read_text())
    assert [a["arg"] for a in data["attachments"]] == ["blob", "csv", "own_ref", "plain"]
    assert {a["arg"]: "text" in a for a in data["attachments"]} == {
        "blob": False,
        "csv": False,
        "own_ref": False,
        "plain": True,
    }

    # Without an export policy the default is ref; an arg's own inline beats it.
    defaults = load_export(write_export(tmp_path / "ex", "defaults.yaml", DEFAULTS))
    context = compose_args(
        defaults, tmp_path / "run2", {"plain": b64(b"p"), "own_inline": b64(b"o")}
    )
    assert {a.arg: a.disposition for a in context.attachments} == {
        "own_inline": "inline",
        "plain": "ref",
    }


@pytest.mark.parametrize(
    ("arg", "payload", "message"),
    [
        ("small", b64(b"0123456789A"), "'small' is 11 bytes; the limit is 10 bytes"),
        ("small", b64(b"z" * 200), "'small' is larger than its limit of 10 bytes"),
        ("plain", b64(b"q" * 100001), "'plain' is 100001 bytes; the limit is 100000 bytes"),
        ("plain", "aGVsbG8=\n", "not valid base64"),  # strict: no newline
        ("plain", "aGVsbG8", "not valid base64"),  # missing padding
        ("plain", "aGVs bG8=", "not valid base64"),
        ("plain", "aGVsbG8*", "not valid base64"),
    ],
)
def test_attachment_refused_nothing_written(
    tmp_path: Path, arg: str, payload: str, message: str
) -> None:
    export = load_export(write_export(tmp_path / "ex", "attach.yaml", ATTACH))
    run_dir = tmp_path / "run"
    with pytest.raises(ContextError, match=message):
        compose_args(export, run_dir, {arg: payload})
    assert not (run_dir / "context.json").exists()
    # The limit to the byte: an arg's max_bytes beats the export's.
    ok = compose_args(export, tmp_path / "ok", {"small": b64(b"0123456789")})
    assert ok.attachments[0].size == 10


# --- caller memory: the limit to the byte ------------------------------------------


def test_caller_memory_limit_is_32_kib_of_canonical_json() -> None:
    exact = "m" * (CALLER_MEMORY_LIMIT - 2)
    assert read_caller_memory({CALLER_MEMORY_KEY: exact}) == exact
    assert parse_caller_memory(json.dumps(exact)) == exact
    with pytest.raises(ContextError, match=f"is {CALLER_MEMORY_LIMIT + 1} bytes"):
        read_caller_memory({CALLER_MEMORY_KEY: exact + "m"})
    with pytest.raises(ContextError, match=f"is {CALLER_MEMORY_LIMIT + 1} bytes"):
        parse_caller_memory(json.dumps(exact + "m"))
    # Bytes, not characters: "é" is two bytes of UTF-8.
    half = "é" * ((CALLER_MEMORY_LIMIT - 2) // 2)
    assert read_caller_memory({CALLER_MEMORY_KEY: half}) == half
    with pytest.raises(ContextError, match="limit"):
        read_caller_memory({CALLER_MEMORY_KEY: half + "é"})
    # Not sent is not null; null and non-JSON text are refused.
    assert read_caller_memory(None) is ABSENT
    assert read_caller_memory({"other": 1}) is ABSENT
    with pytest.raises(ContextError, match="is null"):
        parse_caller_memory("null")
    for text in ("{oops", "NaN", "[Infinity]", ""):
        with pytest.raises(ContextError, match="not valid JSON"):
            parse_caller_memory(text)


# --- the run boundary --------------------------------------------------------------

SLOW = """
    name: slow
    description: One second of work, with a two-second deadline.
    timeout: 2
    steps:
      - name: nap
        run: sleep 1
"""


@pytest.mark.anyio
async def test_deadline_is_judged_from_the_compose_boundary(tmp_path: Path) -> None:
    export = load_export(write_export(tmp_path / "ex", "slow.yaml", SLOW))
    store = SqliteStore(tmp_path / "harbor.db")
    service = CallService(
        RunSettings(workdir=tmp_path, runs_root=tmp_path / "runs"), AuditTrail(store), store
    )

    def composed(name: str) -> Any:
        run_dir = tmp_path / name
        run_dir.mkdir()
        return compose(
            export=export,
            caller=make_caller(),
            run_id=name,
            run_dir=run_dir,
            arguments={},
            timeout=2,
        )

    try:
        # Control: run right after compose, 1 s of a 2 s budget: the goal.
        request = CallRequest(tool=export.name, arguments={}, caller=make_caller())
        prompt = await service._run(export, composed("prompt"), request, 0.0)
        assert prompt.finish_reason == "goal", prompt.answer
        # 1.5 s pass between compose and the run: 0.5 s remain, the step is
        # stopped then, although the runner itself ran well under 2 s.
        context = composed("late")
        time.sleep(1.5)
        began = time.monotonic()
        late = await service._run(export, context, request, 0.0)
        runner_s = time.monotonic() - began
    finally:
        store.close()
    assert late.finish_reason == "timeout" and late.exit_code is None, late.answer
    assert "the pipeline's timeout of 2 s expired" in late.answer
    assert runner_s < 0.95, runner_s  # the step was cut at the boundary's deadline
    assert late.duration_ms >= 1900  # measured from the boundary, not the runner's start
    assert late.started_at == context.started_at
