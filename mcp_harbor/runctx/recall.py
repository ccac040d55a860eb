"""Recall by similarity (``memory: {recall: {k, min_score, max_chars}}``):
the past turns of the same principal in the same tenant most like this call,
for an agent step's ``memory.recall`` data block.

Three parts, each usable alone:

* an `Embedder` turns texts into vectors. `HashingEmbedder` is the local
  one: feature hashing of words, word pairs and character trigrams into
  256 dimensions, L2-normalised; deterministic across processes and
  machines, no dependency, no network. `EndpointEmbedder` asks an
  OpenAI-compatible ``/embeddings`` endpoint (the ``openai`` SDK, imported
  when one is made), the models file's ``embeddings: {endpoint, model}``
  (`open_embedder`); the service uses it when the file has that key, else
  the local one. Every vector an embedder gives is L2-normalised here
  (`unit`), so a cosine is a dot product;
* `entry_text` and `query_text` say what is embedded: for a remembered call
  its tool, its shown arguments (secrets ``***``) and its answer
  (`recalled_answer`: the payload or agent's goal answer if any); for the
  query, the calling export, its shown arguments and the step's rendered
  prompt;
* `select` scores the candidates (`Store.recall_candidates`: the newest
  `CANDIDATE_LIMIT` rows of that principal and tenant with a vector of that
  embedder) in plain Python, keeps those at or above ``min_score``, drops
  repeated answers (by SHA-256) and answers the session tier already shows,
  and caps the result at ``k`` entries and ``max_chars`` characters.

Recall never reaches another principal's or another tenant's rows: the store
query is keyed by both, and `select` checks them again.
"""

from __future__ import annotations

import hashlib
import math
import operator
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, final

import anyio.to_thread

from mcp_harbor.config.model import RecallSpec
from mcp_harbor.errors import ModelError
from mcp_harbor.llm.openai_chat import api_key_of
from mcp_harbor.llm.turn import ModelSource
from mcp_harbor.runctx.agent.messages import Recalled
from mcp_harbor.store.base import MemoryEntry, canonical_json

__all__ = [
    "CANDIDATE_LIMIT",
    "TEXT_LIMIT",
    "Embedder",
    "EndpointEmbedder",
    "HashingEmbedder",
    "answer_sha256",
    "entry_text",
    "open_embedder",
    "query_text",
    "recalled_answer",
    "select",
    "unit",
]

#: The newest rows scored per recall: a bound on the work. Measured on 2
#: busy cores with 1,000 rows of 256 dimensions and ~600-character answers:
#: reading them takes about 23 ms (SQLite) to 27 ms (PostgreSQL), scoring
#: and selecting about 6 ms, in a worker thread.
CANDIDATE_LIMIT: Final = 1000
#: The most characters of one text that are embedded (the rest is ignored):
#: a bound on the hashing embedder's work and on an endpoint's input.
TEXT_LIMIT: Final = 16 * 1024
#: The shortest answer left in an entry cut to fit ``max_chars``; an entry
#: that cannot keep that much is left out.
_MIN_ANSWER: Final = 16


class Embedder(Protocol):
    """Turns texts into vectors for recall.

    `name` identifies the vectors (model and dimensions): it is stored with
    each one, and only vectors of the same name are compared, so changing
    the embedder makes older rows invisible to recall, never wrongly
    similar.
    """

    @property
    def name(self) -> str:
        """Which embedder made a vector, e.g. ``hashing-v1-256``."""
        ...

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """One L2-normalised vector per text, in order, all of one length.

        Raises:
            ModelError: the embedder could not answer (an endpoint's
                connection, status or answer).

        **Cancellation:** the request in flight (if any) is abandoned and
        nothing is returned.
        """
        ...


def unit(vector: Sequence[float]) -> tuple[float, ...]:
    """`vector` scaled to length 1 (a zero vector stays zero: it is
    similar to nothing)."""
    norm = math.sqrt(math.fsum(x * x for x in vector))
    if norm == 0.0 or not math.isfinite(norm):
        return tuple(0.0 for _ in vector)
    return tuple(x / norm for x in vector)


_WORD: Final = re.compile(r"\w+")
#: The weight of a feature by its kind: a word, a word pair, a trigram.
_WEIGHTS: Final = {"w": 1.0, "b": 0.5, "c": 0.25}


@final
class HashingEmbedder:
    """The local embedder: feature hashing (the "hashing trick") of a text's
    lowercased words (weight 1), adjacent word pairs (0.5) and the
    character trigrams of each word padded with ``<`` and ``>`` (0.25, so
    that ``timeout`` and ``timeouts`` are close), each into one of `dims`
    signed buckets by BLAKE2b of the feature, a feature seen n times
    counting 1 + ln n times; then L2-normalised.

    Deterministic: the same text gives the same vector in every process
    (no ``hash()`` randomisation) on every machine. It measures shared
    vocabulary, not meaning: ``disk full`` and ``no space left`` are not
    similar to it. Costs 0.4-0.9 ms per KiB of text (measured); `embed`
    runs in a worker thread.
    """

    def __init__(self, dims: int = 256) -> None:
        if not 16 <= dims <= 4096:
            raise ValueError(f"dims {dims}: between 16 and 4096")
        self._dims = dims

    @property
    def name(self) -> str:
        """See `Embedder.name`: ``hashing-v1-DIMS``."""
        return f"hashing-v1-{self._dims}"

    def vector(self, text: str) -> tuple[float, ...]:
        """The vector of one text (the first `TEXT_LIMIT` characters), at once."""
        text = unicodedata.normalize("NFKC", text[:TEXT_LIMIT]).casefold()
        counts: dict[str, int] = {}
        previous: str | None = None
        for word in _WORD.findall(text):
            features = ["w:" + word]
            if previous is not None:
                features.append("b:" + previous + " " + word)
            previous = word
            padded = "<" + word + ">"
            features.extend("c:" + padded[i : i + 3] for i in range(len(padded) - 2))
            for feature in features:
                counts[feature] = counts.get(feature, 0) + 1
        buckets = [0.0] * self._dims
        for feature, count in counts.items():
            h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
            # Sublinear counts: a feature repeated many times (a long run of
            # one character, a repeated line) does not drown the others.
            weight = _WEIGHTS[feature[0]] * (1.0 + math.log(count))
            buckets[h % self._dims] += weight if h >> 63 else -weight
        return unit(buckets)

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """See `Embedder.embed`; never raises. **Cancellation:** waits for
        the worker thread (milliseconds), then raises."""
        items = list(texts)
        return await anyio.to_thread.run_sync(lambda: [self.vector(t) for t in items])


@final
class EndpointEmbedder:
    """Vectors from an OpenAI-compatible ``/embeddings`` endpoint (vLLM,
    llama.cpp's server, Ollama, OpenAI), through the ``openai`` SDK: one
    request per `embed`, no retries, `timeout` seconds. Texts are cut at
    `TEXT_LIMIT` characters; vectors are L2-normalised. Make and use it on
    one event loop; `close` it when done.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 10.0,
        endpoint: str = "embeddings",
    ) -> None:
        import openai

        self._openai = openai
        self._model = model
        self._where = f"embeddings endpoint {endpoint} ({base_url})"
        self._client = openai.AsyncOpenAI(
            base_url=base_url, api_key=api_key or "unused", max_retries=0, timeout=timeout
        )

    @property
    def name(self) -> str:
        """See `Embedder.name`: ``endpoint:MODEL``."""
        return f"endpoint:{self._model}"

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """See `Embedder.embed`.

        Raises:
            ModelError: the endpoint failed (the message names it and the
                reason, never the key), or answered a different number of
                vectors, or vectors of different lengths.

        **Cancellation:** the request in flight is abandoned.
        """
        items = [t[:TEXT_LIMIT] for t in texts]
        if not items:
            return []
        try:
            # floats, not the SDK's default base64: every server speaks them
            answer = await self._client.embeddings.create(
                model=self._model, input=items, encoding_format="float"
            )
        except self._openai.APIStatusError as exc:
            raise ModelError(
                f"{self._where}: HTTP {exc.status_code}: {exc.message}; check the model "
                f"name {self._model!r} and that the server serves embeddings",
                kind="status",
            ) from exc
        except self._openai.APITimeoutError as exc:
            raise ModelError(f"{self._where}: no answer in time", kind="timeout") from exc
        except self._openai.APIError as exc:
            raise ModelError(f"{self._where}: {exc}", kind="connection") from exc
        try:
            data = sorted(answer.data or (), key=operator.attrgetter("index"))
            vectors = [unit([float(x) for x in d.embedding]) for d in data]
        except (TypeError, ValueError, AttributeError) as exc:
            raise ModelError(
                f"{self._where}: the answer is not a list of embeddings: {exc}", kind="invalid"
            ) from exc
        if len(vectors) != len(items) or len({len(v) for v in vectors}) > 1:
            raise ModelError(
                f"{self._where}: answered {len(vectors)} vector(s) of lengths "
                f"{sorted({len(v) for v in vectors})} for {len(items)} text(s)",
                kind="invalid",
            )
        return vectors

    async def close(self) -> None:
        """Close the HTTP client."""
        await self._client.close()


def open_embedder(
    source: ModelSource, timeout: float, environ: Mapping[str, str] = os.environ
) -> EndpointEmbedder:
    """The `EndpointEmbedder` of the models file's ``embeddings:`` source,
    with its API key read from ``source.api_key_env`` of `environ`.

    Raises:
        ModelError: (kind ``config``) the key's variable is unset or empty;
            the message names the variable, never a value.
    """
    key = api_key_of(source, environ, "embeddings endpoint")
    return EndpointEmbedder(
        source.base_url, source.model, api_key=key, timeout=timeout, endpoint=source.endpoint
    )


def entry_text(entry: MemoryEntry) -> str:
    """What is embedded for a remembered call: its tool, its shown
    arguments (secrets ``***``) as canonical JSON, and its answer
    (`recalled_answer`)."""
    arguments = canonical_json(_plain(entry.arguments))
    return f"{entry.tool}\n{arguments}\n{recalled_answer(entry)}"


def query_text(tool: str, arguments: Mapping[str, Any], prompt: str) -> str:
    """What is embedded to recall for an agent step: the calling export,
    its shown arguments (secrets ``***``) and the step's rendered prompt."""
    return f"{tool}\n{canonical_json(_plain(arguments))}\n{prompt}"


def recalled_answer(entry: MemoryEntry) -> str:
    """The answer of a remembered call as recall embeds and shows it: its
    payload (the ``output_schema`` payload, or an agent's goal answer) as
    canonical JSON when it has one, else its answer text (which also
    holds the run's id and timings)."""
    if entry.answer_payload is not None:
        return canonical_json(_plain(entry.answer_payload))
    return entry.answer


def _plain(value: Any) -> Any:
    """`value` with read-only mappings and tuples (a run context's frozen
    memory) as dicts and lists, as JSON writes them."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def answer_sha256(entry: MemoryEntry) -> str:
    """The digest by which repeated answers are recognised: of
    `recalled_answer`."""
    return hashlib.sha256(recalled_answer(entry).encode("utf-8")).hexdigest()


def _size(recalled: Recalled) -> int:
    return len(canonical_json(recalled.to_json()))


def _fitted(recalled: Recalled, room: int) -> Recalled | None:
    """`recalled` with its answer cut (ending in ``…``) so that it takes at
    most `room` characters; None when not even `_MIN_ANSWER` characters of
    the answer would fit."""
    answer = recalled.answer
    cut = len(answer)
    while cut >= _MIN_ANSWER:
        candidate = Recalled(
            recalled.tool, recalled.at, recalled.score, recalled.arguments, answer[:cut] + "…"
        )
        excess = _size(candidate) - room
        if excess <= 0:
            return candidate
        cut -= excess
    return None


def select(
    query: Sequence[float],
    candidates: Iterable[MemoryEntry],
    spec: RecallSpec,
    *,
    tenant: str,
    principal: str,
    embedder: str,
    shown: Iterable[MemoryEntry] = (),
) -> list[Recalled]:
    """The recalled turns for one query, most similar first (ties: the newer
    first, as `candidates` come newest first).

    A candidate counts only when it is of `tenant` and `principal`, its
    vector is `embedder`'s and as long as `query`, and its cosine
    similarity (a dot product: both are unit vectors) is at least
    ``spec.min_score``. Of several with the same answer (SHA-256) only the
    most similar is kept, and an answer one of the `shown` entries (the
    session tier of the same messages) already has is left out (both by
    `answer_sha256`). Each shows its `recalled_answer`. At most
    ``spec.k`` are returned, taking at most ``spec.max_chars`` characters
    in all, counted as the canonical JSON of each entry (before the data
    block escapes ``<``, ``>`` and ``&``): the first that does not fit has
    its answer cut to fit (ending in ``…``), and nothing follows it.
    """
    seen = {answer_sha256(m) for m in shown}
    dims = len(query)
    scored: list[tuple[float, int, MemoryEntry]] = []
    for order, entry in enumerate(candidates):
        vector = entry.embedding
        if (
            vector is None
            or len(vector) != dims
            or entry.embedder != embedder
            or entry.tenant != tenant
            or entry.principal != principal
        ):
            continue
        score = sum(map(operator.mul, query, vector))
        if score >= spec.min_score:
            scored.append((score, order, entry))
    scored.sort(key=lambda item: (-item[0], item[1]))
    out: list[Recalled] = []
    room = spec.max_chars
    for score, _, entry in scored:
        if len(out) >= spec.k:
            break
        digest = answer_sha256(entry)
        if digest in seen:
            continue
        seen.add(digest)
        score = max(-1.0, min(1.0, score))
        recalled = Recalled(entry.tool, entry.at, score, entry.arguments, recalled_answer(entry))
        size = _size(recalled)
        if size <= room:
            out.append(recalled)
            room -= size
            continue
        fitted = _fitted(recalled, room)
        if fitted is not None:
            out.append(fitted)
        break
    return out
