"""Recall by similarity, its parts: the local hashing embedder, the endpoint
embedder (against a real HTTP server speaking the OpenAI ``/embeddings``
API, on loopback), the texts that are embedded, and `select` (scores,
scoping, dedupe, caps). Agent runs through the call path on both backends
are in tests/store/test_store_recall.py.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_harbor.config.model import RecallSpec
from mcp_harbor.config.models_file import Models, load_models_file
from mcp_harbor.errors import ConfigError, ModelError
from mcp_harbor.harbor import Harbor, HarborSettings
from mcp_harbor.identity import Caller
from mcp_harbor.runctx.recall import (
    TEXT_LIMIT,
    EndpointEmbedder,
    HashingEmbedder,
    answer_sha256,
    entry_text,
    open_embedder,
    query_text,
    recalled_answer,
    select,
    unit,
)
from mcp_harbor.runctx.request import CallRequest
from mcp_harbor.store.base import MemoryEntry, canonical_json

EMBEDDER = HashingEmbedder()


def _cos(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# --- the hashing embedder --------------------------------------------------------


def test_vectors_are_unit_length_256_dims_and_deterministic() -> None:
    v = EMBEDDER.vector("ERROR: disk quota exceeded while pulling image")
    assert len(v) == 256 and EMBEDDER.name == "hashing-v1-256"
    assert math.isclose(math.fsum(x * x for x in v), 1.0, rel_tol=1e-9)
    assert EMBEDDER.vector("ERROR: disk quota exceeded while pulling image") == v
    assert EMBEDDER.vector("error:   DISK quota exceeded while pulling image") == v  # case, spaces


def test_vectors_do_not_depend_on_the_process() -> None:
    """No ``hash()``: another interpreter, with another hash seed, agrees."""
    code = (
        "import json; from mcp_harbor.runctx.recall import HashingEmbedder;"
        "print(json.dumps(HashingEmbedder().vector('timeout in test_fetch')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    ).stdout
    assert tuple(json.loads(out)) == EMBEDDER.vector("timeout in test_fetch")


def test_similar_texts_score_higher_than_unrelated_ones() -> None:
    base = EMBEDDER.vector("ERROR: disk quota exceeded on /var/lib/docker while pulling image")
    near = EMBEDDER.vector("ERROR: disk quota exceeded on /var/lib/docker while pushing image")
    far = EMBEDDER.vector("AssertionError in test_parse_dates: expected 2026-01-01")
    assert _cos(base, near) > 0.7
    assert _cos(base, far) < 0.3
    plural = EMBEDDER.vector("timeouts")  # no word in common, trigrams in common:
    assert _cos(plural, EMBEDDER.vector("timeout")) > 0.2
    assert _cos(plural, EMBEDDER.vector("deadline")) < 0.05


def test_a_repeated_feature_does_not_drown_the_others() -> None:
    words = "disk quota exceeded on the build agent"
    padded = EMBEDDER.vector(words + " " + "x" * 500)
    assert _cos(padded, EMBEDDER.vector(words)) > 0.5


def test_empty_text_is_similar_to_nothing_and_long_text_is_cut() -> None:
    empty = EMBEDDER.vector("")
    assert set(empty) == {0.0}
    assert _cos(empty, EMBEDDER.vector("anything")) == 0.0
    long = "alpha " * (TEXT_LIMIT // 6) + "omega"
    assert EMBEDDER.vector(long) == EMBEDDER.vector(long[:TEXT_LIMIT] + " beyond the limit")


def test_unit_and_dims_bounds() -> None:
    assert unit([3.0, 4.0]) == (0.6, 0.8)
    assert unit([0.0, 0.0]) == (0.0, 0.0)
    with pytest.raises(ValueError, match="between 16 and 4096"):
        HashingEmbedder(8)
    assert HashingEmbedder(64).name == "hashing-v1-64"
    assert len(HashingEmbedder(64).vector("x")) == 64


@pytest.mark.anyio
async def test_embed_answers_one_vector_per_text_in_order() -> None:
    texts = ["one", "two", "three"]
    assert await EMBEDDER.embed(texts) == [EMBEDDER.vector(t) for t in texts]
    assert await EMBEDDER.embed([]) == []


# --- the endpoint embedder, against a real /embeddings server ----------------------


class _Embeddings:
    """A loopback server of ``POST /v1/embeddings``: each text's vector is
    its length and its count of ``a`` (or the canned `reply`)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.reply: tuple[int, Any] | None = None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.requests.append({"path": self.path, "body": body})
                if owner.reply is not None:
                    status, data = owner.reply
                else:
                    status = 200
                    data = {
                        "object": "list",
                        "model": body["model"],
                        "data": [
                            {"object": "embedding", "index": i, "embedding": [len(t), t.count("a")]}
                            for i, t in reversed(list(enumerate(body["input"])))
                        ],
                        "usage": {"prompt_tokens": 1, "total_tokens": 1},
                    }
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def embeddings() -> Iterator[_Embeddings]:
    server = _Embeddings()
    yield server
    server.close()


@pytest.mark.anyio
async def test_the_endpoint_embedder_asks_once_and_normalises_in_order(
    embeddings: _Embeddings,
) -> None:
    embedder = EndpointEmbedder(embeddings.base_url, "nomic-embed", endpoint="gpu-box")
    try:
        vectors = await embedder.embed(["aaaa", "abc", "x" * (TEXT_LIMIT + 10)])
    finally:
        await embedder.close()
    assert embedder.name == "endpoint:nomic-embed"
    assert vectors[0] == unit([4, 4]) and vectors[1] == unit([3, 1])
    assert vectors[2] == (1.0, 0.0)
    (request,) = embeddings.requests
    assert request["path"] == "/v1/embeddings" and request["body"]["model"] == "nomic-embed"
    assert [len(t) for t in request["body"]["input"]] == [4, 3, TEXT_LIMIT]


@pytest.mark.anyio
async def test_the_endpoint_embedders_failures_are_model_errors(
    embeddings: _Embeddings,
) -> None:
    embedder = EndpointEmbedder(embeddings.base_url, "missing", endpoint="gpu-box")
    try:
        embeddings.reply = (404, {"error": {"message": "model 'missing' not found"}})
        with pytest.raises(ModelError, match=r"embeddings endpoint gpu-box \(http://127") as err:
            await embedder.embed(["x"])
        assert err.value.kind == "status" and "HTTP 404" in str(err.value)
        embeddings.reply = (200, {"object": "list", "data": [], "model": "missing"})
        with pytest.raises(ModelError, match=r"answered 0 vector\(s\)") as err:
            await embedder.embed(["x"])
        assert err.value.kind == "invalid"
    finally:
        await embedder.close()
    gone = EndpointEmbedder("http://127.0.0.1:9/v1", "m", endpoint="nowhere", timeout=2)
    try:
        with pytest.raises(ModelError, match="embeddings endpoint nowhere") as err:
            await gone.embed(["x"])
        assert err.value.kind in ("connection", "timeout")
    finally:
        await gone.close()


# --- what is embedded ----------------------------------------------------------------


def _entry(
    n: int,
    answer: str,
    *,
    text: str | None = None,
    tenant: str = "t1",
    principal: str = "alice",
    payload: Any = None,
    embedder: str = EMBEDDER.name,
) -> MemoryEntry:
    entry = MemoryEntry(
        tenant, principal, "s1", "triage", f"r{n}", f"2026-12-02T00:00:{n:02d}Z",
        {"log": text or answer}, answer, payload,
    )  # fmt: skip
    vector = EMBEDDER.vector(entry_text(entry))
    return MemoryEntry(
        entry.tenant, entry.principal, entry.session, entry.tool, entry.run_id, entry.at,
        entry.arguments, entry.answer, entry.answer_payload, embedder, vector,
    )  # fmt: skip


def test_the_texts_hold_the_tool_the_shown_arguments_and_the_answer() -> None:
    entry = MemoryEntry("t", "p", "s", "deploy", "r1", "at", {"token": "***", "env": "prod"}, "ok")
    assert entry_text(entry) == 'deploy\n{"env":"prod","token":"***"}\nok'
    with_payload = MemoryEntry("t", "p", "s", "deploy", "r1", "at", {}, "deploy: ok, 12 ms", [1])
    assert recalled_answer(with_payload) == "[1]" and entry_text(with_payload).endswith("\n[1]")
    assert (
        query_text("deploy", {"env": "prod"}, "Deploy it.") == 'deploy\n{"env":"prod"}\nDeploy it.'
    )
    same = MemoryEntry("t", "p", "s", "x", "r2", "at2", {}, "other text", [1])
    assert answer_sha256(same) == answer_sha256(with_payload)  # by the answer, not the run


# --- select ---------------------------------------------------------------------------


def _select(query: str, candidates: list[MemoryEntry], **spec: Any) -> list[Any]:
    return select(
        EMBEDDER.vector(query_text("triage", {"log": query}, query)),
        candidates,
        RecallSpec(**spec),
        tenant="t1",
        principal="alice",
        embedder=EMBEDDER.name,
    )


DISK = "disk quota exceeded on /var/lib/docker while pulling image"
PARSE = "AssertionError in test_parse_dates expected 2026 got 2025"


def test_the_most_similar_come_first_above_min_score() -> None:
    candidates = [_entry(2, "parse bug", text=PARSE), _entry(1, "disk full", text=DISK)]
    got = _select(DISK, candidates, k=3, min_score=0.2)
    assert [r.answer for r in got] == ["disk full"]
    assert 0.2 <= got[0].score <= 1.0
    assert _select(DISK, candidates, k=3, min_score=-1.0)[-1].answer == "parse bug"
    assert _select(DISK, candidates, k=3, min_score=1.0) == []


def test_only_the_principal_tenant_and_embedder_of_the_query_count() -> None:
    candidates = [
        _entry(1, "bob's", text=DISK, principal="bob"),
        _entry(2, "tenant two's", text=DISK, tenant="t2"),
        _entry(3, "other embedder", text=DISK, embedder="endpoint:m"),
        _entry(4, "mine", text=DISK),
    ]
    assert [r.answer for r in _select(DISK, candidates, k=5, min_score=0.0)] == ["mine"]


def test_a_repeated_answer_is_kept_once_and_the_session_tier_is_not_repeated() -> None:
    same = [_entry(3, "disk full", text=DISK), _entry(2, "disk full", text=DISK + " again")]
    got = _select(DISK, [*same, _entry(1, "disk cleaned", text=DISK)], k=5, min_score=0.0)
    assert [r.answer for r in got] == ["disk full", "disk cleaned"]
    shown = [MemoryEntry("t1", "alice", "s1", "triage", "r0", "at", {}, "disk full")]
    got = select(
        EMBEDDER.vector(DISK),
        same,
        RecallSpec(k=5, min_score=0.0),
        tenant="t1",
        principal="alice",
        embedder=EMBEDDER.name,
        shown=shown,
    )
    assert got == []


def test_ties_go_to_the_newer_entry() -> None:
    newer, older = _entry(2, "newer", text=DISK), _entry(1, "older", text=DISK)
    newer = MemoryEntry(**{**_fields(newer), "embedding": older.embedding})
    assert [r.answer for r in _select(DISK, [newer, older], k=1, min_score=0.0)] == ["newer"]


def _fields(entry: MemoryEntry) -> dict[str, Any]:
    return {name: getattr(entry, name) for name in MemoryEntry.__dataclass_fields__}


def test_k_and_max_chars_cap_the_block_and_the_last_entry_is_cut_to_fit() -> None:
    candidates = [_entry(n, f"disk full #{n} " + "detail " * 40, text=DISK) for n in range(6)]
    assert len(_select(DISK, candidates, k=4, min_score=0.0, max_chars=64 * 1024)) == 4
    got = _select(DISK, candidates, k=6, min_score=0.0, max_chars=700)
    sizes = [len(canonical_json(r.to_json())) for r in got]
    assert sum(sizes) <= 700 and len(got) == 2
    assert not got[0].answer.endswith("…") and got[-1].answer.endswith("…")
    tiny = _select(DISK, candidates, k=6, min_score=0.0, max_chars=64)
    assert tiny == []  # not even a stub of an answer fits beside the arguments


# --- the models file's embeddings: and a run that uses them --------------------------


def test_the_models_file_names_an_embeddings_endpoint(tmp_path: Path) -> None:
    good = tmp_path / "models.yaml"
    good.write_text(
        "endpoints: {box: {base_url: 'http://127.0.0.1:1/v1/', api_key_env: BOX_KEY}}\n"
        "models: {coder: {primary: {endpoint: box, model: m1}}}\n"
        "embeddings: {endpoint: box, model: nomic-embed, timeout: 3}\n"
    )
    models = load_models_file(good)
    source = models.embeddings()
    assert source is not None and models.spec.embeddings is not None
    assert (source.base_url, source.model, source.api_key_env) == (
        "http://127.0.0.1:1/v1",
        "nomic-embed",
        "BOX_KEY",
    )
    assert models.spec.embeddings.timeout == 3
    with pytest.raises(ModelError, match="the API key variable BOX_KEY is not set") as err:
        open_embedder(source, 3, environ={})
    assert err.value.kind == "config"
    assert Models.of({"endpoints": {}, "models": {}}).embeddings() is None

    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(
        "endpoints: {box: {base_url: 'http://127.0.0.1:1/v1'}}\nmodels: {}\n"
        "embeddings: {endpoint: elsewhere, model: m}\n"
    )
    with pytest.raises(ConfigError, match="embeddings: endpoint 'elsewhere' is not under"):
        load_models_file(unknown)
    typo = tmp_path / "typo.yaml"
    typo.write_text(
        "endpoints: {box: {base_url: 'http://127.0.0.1:1/v1'}}\nmodels: {}\n"
        "embeddings: {endpoint: box, model: m, dims: 3}\n"
    )
    with pytest.raises(ConfigError, match=r"typo\.yaml:3"):
        load_models_file(typo)


_TRIAGE = """\
name: triage
description: Classify why a build failed.
args:
  log: {type: string, maxLength: 2000}
memory: {recall: {k: 3, min_score: 0.5}}
steps:
  - name: classify
    agent:
      model: coder
      prompt: "Classify this failure. Log: {{ args.log | data }}"
"""


def _triage_harbor(tmp_path: Path, chat_url: str, embeddings_url: str) -> Harbor:
    (tmp_path / "exports").mkdir()
    (tmp_path / "exports" / "triage.yaml").write_text(_TRIAGE)
    (tmp_path / "models.yaml").write_text(
        f"endpoints: {{chat: {{base_url: '{chat_url}'}}, emb: {{base_url: '{embeddings_url}'}}}}\n"
        "models: {coder: {primary: {endpoint: chat, model: m1}}}\n"
        "embeddings: {endpoint: emb, model: nomic-embed}\n"
    )
    return Harbor.open(
        HarborSettings(
            exports=[tmp_path / "exports"],
            models=tmp_path / "models.yaml",
            db=str(tmp_path / "harbor.db"),
            runs_dir=tmp_path / "runs",
        ),
        purpose="run",
    )


def _triage(harbor: Harbor, log: str) -> Any:
    caller = Caller(transport="stdio", principal="alice", tenant="t1", session="s1")
    request = CallRequest(tool="triage", arguments={"log": log}, caller=caller)

    async def go() -> Any:
        return await harbor.service.call(request)

    return anyio.run(go)


def _answers(*verdicts: str) -> list[dict[str, Any]]:
    return [
        {"expect": {"last_role": "user"}, "respond": {"content": json.dumps({"verdict": v})}}
        for v in verdicts
    ]


def test_a_run_embeds_through_the_models_files_endpoint(
    tmp_path: Path, embeddings: _Embeddings, scripted_model: Any
) -> None:
    """With ``embeddings:`` in the models file, the remembered call and the
    next call's query are embedded by the endpoint (its name is stored with
    the vector), and the similar turn is recalled."""
    model = scripted_model(scripts={"m1": _answers("infra", "again")})
    harbor = _triage_harbor(tmp_path, model.base_url, embeddings.base_url)
    try:
        assert _triage(harbor, "aaa disk full").ok
        assert _triage(harbor, "aaa disk full!").ok
        (row, *_) = harbor.store.recall("t1", "alice", "s1", 10)
        assert row.embedder == "endpoint:nomic-embed" and row.embedding is not None
        assert row.answer_payload == {"verdict": "infra"}
        # each call: its step's query, then its memory
        assert [len(r["body"]["input"]) for r in embeddings.requests] == [1, 1, 1, 1]
        query = embeddings.requests[2]["body"]["input"][0]
        assert query.startswith('triage\n{"log":"aaa disk full!"}\nClassify this failure.')
        remembered = embeddings.requests[1]["body"]["input"][0]
        assert remembered == 'triage\n{"log":"aaa disk full"}\n{"verdict":"infra"}'
        user = next(m for m in model.chat_requests()[1]["messages"] if m["role"] == "user")
        (block,) = re.findall(r'<data source="memory\.recall"[^>]*>(.*?)</data>', user["content"])
        assert [r["answer"] for r in json.loads(block)] == ['{"verdict":"infra"}']
        assert harbor.store.verify().ok
    finally:
        harbor.close()


def test_a_failing_embeddings_endpoint_costs_recall_only(
    tmp_path: Path, embeddings: _Embeddings, scripted_model: Any
) -> None:
    """The endpoint answers 500 from the second call on: that call still
    succeeds and is remembered (without a vector: the session tier keeps
    it), and its step is sent no recall block although a similar turn is
    stored."""
    model = scripted_model(scripts={"m1": _answers("infra", "again")})
    harbor = _triage_harbor(tmp_path, model.base_url, embeddings.base_url)
    try:
        assert _triage(harbor, "aaa disk full").ok
        embeddings.reply = (500, {"error": {"message": "out of memory"}})
        assert _triage(harbor, "aaa disk full").ok
        rows = harbor.store.recall("t1", "alice", "s1", 10)
        assert [r.embedder for r in rows] == ["endpoint:nomic-embed", None]
        assert len(embeddings.requests) == 4
        sent = [m["content"] for body in model.chat_requests() for m in body["messages"]]
        assert len(sent) == 4 and 'source="arguments"' in sent[3]
        assert not any('source="memory.recall"' in text for text in sent)
        assert harbor.store.verify().ok
    finally:
        harbor.close()
