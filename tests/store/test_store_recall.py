"""Recall by similarity (``memory: {recall: …}``) through the real call path,
on SQLite and PostgreSQL.

Agent runs go through `CallService` (an application opened as ``mcp-harbor
run`` opens it) with the scripted OpenAI-compatible model; each test reads
the ``memory.recall`` data block the model was actually sent. Asserted: a
call recalls its own principal's similar turns of earlier sessions, never
another principal's nor another tenant's, however similar; repeated answers
appear once, and an answer the session tier already shows not at all; ``k``,
``max_chars`` and ``min_score`` cap what is shown; and ``mcp-harbor audit
verify`` passes on the store the runs wrote, memory rows with embeddings
included, and names an embedding changed behind the store's back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import harbor_cli
from scripted_model import ScriptedModel

from mcp_harbor.harbor import Harbor, HarborSettings
from mcp_harbor.identity import Caller
from mcp_harbor.runctx.recall import HashingEmbedder
from mcp_harbor.runctx.request import CallRequest

Tamper = Callable[..., None]

_EXPORT = """\
name: triage
description: Classify why a build failed.
args:
  log: {{type: string, multiline: true, maxLength: 20000}}
memory: {memory}
steps:
  - name: classify
    agent:
      model: coder
      system: You classify build failures.
      prompt: "Classify this failure. Log: {{{{ args.log | data }}}}"
      outputs:
        type: object
        properties: {{verdict: {{type: string}}}}
        required: [verdict]
"""

DISK = "ERROR: disk quota exceeded on /var/lib/docker while pulling image node:22"
DISK_AGAIN = "ERROR: disk quota exceeded on /var/lib/docker while pushing image node:22"
PARSE = "AssertionError in test_parse_dates: expected 2026-01-01, got 2025-12-31"
_RECALL = re.compile(r'<data source="memory\.recall" label="[^"]*">(.*?)</data>')
_SESSION = re.compile(r'<data source="memory\.session" label="[^"]*">(.*?)</data>')


class _Harbor:
    """An application on the test's database whose ``triage`` export has
    `memory`, answered by a scripted model that replies with `verdicts`,
    one per call, in order."""

    def __init__(
        self, tmp: Path, db: str, model: ScriptedModel, memory: str, name: str = "a"
    ) -> None:
        folder = tmp / name
        (folder / "exports").mkdir(parents=True)
        (folder / "exports" / "triage.yaml").write_text(_EXPORT.format(memory=memory))
        (folder / "models.yaml").write_text(
            f"endpoints: {{local: {{base_url: '{model.base_url}'}}}}\n"
            "models: {coder: {primary: {endpoint: local, model: m1}}}\n"
        )
        self.model = model
        self.closed = False
        self.harbor = Harbor.open(
            HarborSettings(
                exports=[folder / "exports"],
                models=folder / "models.yaml",
                db=db,
                runs_dir=folder / "runs",
            ),
            purpose="run",
        )

    def call(self, log: str, principal: str = "alice", tenant: str = "t1", session: str = "s1"):  # type: ignore[no-untyped-def]
        caller = Caller(transport="stdio", principal=principal, tenant=tenant, session=session)
        request = CallRequest(tool="triage", arguments={"log": log}, caller=caller)

        async def go() -> Any:
            return await self.harbor.service.call(request)

        envelope = anyio.run(go)
        assert envelope.ok, envelope.dumps()
        return envelope

    def sent(self, n: int = -1) -> str:
        """The user message of the `n`th chat request."""
        body = self.model.chat_requests()[n]
        (user,) = [m for m in body["messages"] if m["role"] == "user"]
        return str(user["content"])

    def recalled(self, n: int = -1) -> list[dict[str, Any]]:
        """The ``memory.recall`` block of the `n`th chat request ([]: none)."""
        found = _RECALL.findall(self.sent(n))
        assert len(found) <= 1
        return json.loads(found[0]) if found else []

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.harbor.close()


def _answers(verdicts: list[str]) -> list[dict[str, Any]]:
    return [
        {"expect": {"last_role": "user"}, "respond": {"content": json.dumps({"verdict": v})}}
        for v in verdicts
    ]


@pytest.fixture
def opened(
    db: str, tmp_path: Path, scripted_model: Callable[..., ScriptedModel]
) -> Iterator[Callable[..., _Harbor]]:
    made: list[_Harbor] = []

    def make(verdicts: list[str], memory: str, name: str = "a") -> _Harbor:
        model = scripted_model(scripts={"m1": _answers(verdicts)})
        h = _Harbor(tmp_path, db, model, memory, name)
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()


def test_a_call_recalls_its_own_principals_similar_turn_and_nothing_of_anyone_else(
    opened: Callable[..., _Harbor],
) -> None:
    h = opened(
        ["infra: disk full", "real: date bug", "bob's verdict", "tenant two's verdict", "infra"],
        "{recall: {k: 3, min_score: 0.3, max_chars: 4000}}",
    )
    h.call(DISK, session="s1")
    assert h.recalled() == []  # nothing remembered yet: no block at all
    h.call(PARSE, session="s1")
    h.call(DISK, principal="bob")  # the same log, another principal
    assert h.recalled() == []  # bob has no past turns of his own
    h.call(DISK, tenant="t2")  # the same principal name in another tenant
    assert h.recalled() == []
    h.call(DISK_AGAIN, session="s2")  # alice again, in a new session
    block = h.recalled()
    assert [r["answer"] for r in block] == ['{"verdict":"infra: disk full"}']
    (first,) = block
    assert first["tool"] == "triage" and first["arguments"] == {"log": DISK}
    assert 0.3 <= first["score"] <= 1.0
    text = h.sent()
    assert "bob's verdict" not in text and "tenant two's verdict" not in text
    assert h.model.mismatches == []


def test_repeated_answers_appear_once_and_the_session_tier_is_not_repeated(
    opened: Callable[..., _Harbor],
) -> None:
    h = opened(
        ["infra: disk full", "infra: disk full", "real: date bug", "done"],
        "{recent: 1, recall: {k: 5, min_score: 0.1, max_chars: 4000}}",
    )
    h.call(DISK, session="s1")
    h.call(DISK_AGAIN, session="s1")  # the same answer again
    h.call(PARSE, session="s2")
    h.call(DISK, session="s2")  # the session tier shows PARSE's answer
    (session,) = _SESSION.findall(h.sent())
    (shown,) = [m["answer"] for m in json.loads(session)]
    assert shown.endswith('{"verdict": "real: date bug"}')  # its run's text
    assert [r["answer"] for r in h.recalled()] == ['{"verdict":"infra: disk full"}']


def test_k_max_chars_and_min_score_cap_what_is_shown(opened: Callable[..., _Harbor]) -> None:
    logs = [f"{DISK} attempt {n}" for n in range(4)]
    verdicts = [f"infra: disk full, attempt {n}, " + "x" * 200 for n in range(4)]
    h = opened([*verdicts, "a", "b"], "{recall: {k: 2, min_score: 0.3, max_chars: 4000}}")
    for log in logs:
        h.call(log)
    h.call(DISK)
    block = h.recalled()
    assert len(block) == 2  # k
    assert all(r["answer"] in [f'{{"verdict":"{v}"}}' for v in verdicts] for r in block)
    assert block[0]["score"] >= block[1]["score"]
    h.call(PARSE)  # below min_score: nothing of the disk turns comes back
    assert h.recalled() == []

    tight = opened(
        [*verdicts, "c"], "{recall: {k: 5, min_score: 0.3, max_chars: 300}}", name="tight"
    )
    for log in logs:
        tight.call(log, principal="carol")
    tight.call(DISK, principal="carol")
    block = tight.recalled()
    shown = sum(
        len(json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":"))) for r in block
    )
    assert 1 <= len(block) < 4 and shown <= 300
    assert block[-1]["answer"].endswith("…")  # the last one was cut to fit

    strict = opened(["d", "e"], "{recall: {k: 5, min_score: 1.0}}", name="strict")
    strict.call(PARSE, principal="dave")
    strict.call(DISK, principal="dave")  # not identical: below a min_score of 1
    assert strict.recalled() == []


def test_audit_verify_passes_with_embedded_memory_rows_and_names_a_changed_vector(
    opened: Callable[..., _Harbor], db: str, tamper: Tamper
) -> None:
    h = opened(["infra: disk full", "real: date bug", "x"], "{recall: {k: 3}}")
    h.call(DISK)
    h.call(PARSE, principal="bob")
    h.call(DISK_AGAIN)
    store = h.harbor.store
    name = HashingEmbedder().name
    rows = store.recall_candidates("t1", "alice", name, 10)
    assert [e.embedder for e in rows] == [name, name]
    assert all(e.embedding is not None and len(e.embedding) == 256 for e in rows)
    h.close()
    ok = harbor_cli("audit", "verify", "--db", db, check=False)
    assert ok.returncode == 0, ok.stderr
    assert "audit trail OK" in ok.stdout and "chain intact" in ok.stdout
    tamper("UPDATE memory SET embedding = NULL WHERE id = 1")
    bad = harbor_cli("audit", "verify", "--db", db, check=False)
    assert bad.returncode == 1
    assert "TAMPERED: memory row 1: its content differs" in bad.stderr
