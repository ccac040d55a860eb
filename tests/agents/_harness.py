"""What the agent tests share: a scripted model (tests/scripted_model.py) on
a thread of the test process, a models file pointing at it, a real
``mcp-harbor serve`` subprocess with ``--models``, and readers of what they
leave behind (the SQLite audit, the run directory, the recorded requests).

Nothing here imitates harbor: the server is the real command, the model
is a real HTTP server that answers from a script, and every assertion
reads what the real parts wrote.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from harbor_helpers import HttpServer, http_server, write_export
from scripted_model import ScriptedModel

__all__ = [
    "Bed",
    "bed",
    "closed_port_url",
    "done",
    "envelope",
    "requests_of",
    "rows",
    "run_records",
    "sent_text",
    "turn_before_calls",
    "write_models",
]

#: A model's sources: a model id on the scripted server, or the mapping of
#: the models file's entry itself (``primary:``/``fallback:`` with
#: endpoints ``scripted`` or ``closed``).
ModelEntry = str | Mapping[str, Any]


def closed_port_url() -> str:
    """The base URL of a loopback port nothing listens on (bound, then
    closed: connecting is refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    return f"http://127.0.0.1:{port}/v1"


def write_models(
    path: Path, model: ScriptedModel, models: Mapping[str, ModelEntry], **extra: Any
) -> Path:
    """Write a models file: endpoint ``scripted`` is `model`, ``closed`` a
    refused port; each entry of `models` is a model id on ``scripted`` or
    the entry's own mapping. `extra` goes into every entry (turn_timeout,
    …) unless the entry says otherwise."""
    entries: dict[str, Any] = {}
    for name, entry in models.items():
        if isinstance(entry, str):
            entries[name] = {"primary": {"endpoint": "scripted", "model": entry}, **extra}
        else:
            entries[name] = {**extra, **entry}
    data = {
        "endpoints": {
            "scripted": {"base_url": model.base_url},
            "closed": {"base_url": closed_port_url()},
        },
        "models": entries,
    }
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@dataclass
class Bed:
    """One module's test bed: the folders, the scripted model and the
    serve subprocess over Streamable HTTP (`server`; None when the module
    starts its own stdio servers with `serve_args`)."""

    root: Path
    exports: Path
    state: Path
    db: Path
    models: Path
    model: ScriptedModel
    server: HttpServer | None
    serve_args: tuple[str, ...]

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url


@contextlib.contextmanager
def bed(
    root: Path,
    exports: Mapping[str, str],
    scripts: Mapping[str, Sequence[Mapping[str, Any]]],
    models: Mapping[str, ModelEntry],
    *extra: str,
    model_ids: Sequence[str] | None = None,
    http: bool = True,
    **model_options: Any,
) -> Iterator[Bed]:
    """Start the scripted model with `scripts` (by model id), write the
    `exports` (name → YAML) and the models file, and (with `http`) serve
    them over HTTP with ``--models``, ``--db`` and `extra`; stop all after."""
    folder = root / "exports"
    for name, text in exports.items():
        write_export(folder, f"{name}.yaml", text)
    with ScriptedModel(scripts=scripts, models=model_ids) as model:
        models_file = write_models(root / "models.yaml", model, models, **model_options)
        db = root / "audit.db"
        args = ("--models", str(models_file), "--db", str(db), *extra)
        state = root / "state"
        if not http:
            yield Bed(root, folder, state, db, models_file, model, None, args)
            return
        with http_server(folder, state, *args) as server:
            yield Bed(root, folder, state, db, models_file, model, server, args)


def rows(db: Path) -> list[dict[str, Any]]:
    """Every record of the audit file (read-only), oldest first, its body
    decoded: ``seq``, ``call_id``, ``kind``, ``tool``, ``status``, ``body``."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        con.row_factory = sqlite3.Row
        found = con.execute(
            "SELECT seq, call_id, kind, principal, tool, status, body FROM audit ORDER BY seq"
        ).fetchall()
    finally:
        con.close()
    return [{**dict(r), "body": json.loads(r["body"])} for r in found]


def run_records(db: Path, run_id: str) -> dict[str, list[dict[str, Any]]]:
    """The records of one agent run: ``run`` (its own start/end),
    ``turns`` (its turn records) and ``tools`` (the records of calls made
    by its model: the calls whose record has ``via.run_id`` the run, with
    their end records)."""
    everything = rows(db)
    made = {
        r["call_id"] for r in everything if (r["body"].get("via") or {}).get("run_id") == run_id
    }
    return {
        "run": [r for r in everything if r["call_id"] == run_id and r["kind"] != "turn"],
        "turns": [r for r in everything if r["call_id"] == run_id and r["kind"] == "turn"],
        "tools": [r for r in everything if r["call_id"] in made and r["kind"] != "approval"],
    }


def turn_before_calls(records: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each tool call record comes after the record of its turn (by seq),
    and each turn record before any record of its tool calls."""
    turns = {(t["body"]["attempt"], t["body"]["turn"]): t for t in records["turns"]}
    for record in records["tools"]:
        if record["kind"] == "end":
            continue  # under its start's call id
        via = record["body"]["via"]
        turn = turns.get((via["attempt"], via["turn"]))
        assert turn is not None, f"no turn record for {via}"
        assert turn["seq"] < record["seq"], (turn["seq"], record)
        ids = [c["id"] for c in turn["body"]["tool_calls"]]
        assert via["tool_call_id"] in ids, (via, ids)


def requests_of(model: ScriptedModel, model_id: str) -> list[dict[str, Any]]:
    """The chat-completion request bodies for `model_id`, in order."""
    return [
        r.body
        for r in list(model.requests)
        if r.path.endswith("/chat/completions") and r.model == model_id
    ]


def sent_text(body: Mapping[str, Any]) -> str:
    """All message text of one request body."""
    return "\n".join(str(m.get("content") or "") for m in body["messages"])


def done(model: ScriptedModel, model_id: str) -> None:
    """`model_id`'s script was followed to its end, with no mismatch (the
    module's other scripts are judged by their own tests)."""
    wrong = [
        r.mismatch for r in list(model.requests) if r.model == model_id and r.mismatch is not None
    ]
    assert not wrong, wrong
    left = model.remaining().get(model_id)
    assert not left, f"{model_id}: {left} turns never requested"


def envelope(result: Any) -> dict[str, Any]:
    """The envelope of a call result (its structured content)."""
    data = result.structured_content
    assert isinstance(data, dict), result
    return data
