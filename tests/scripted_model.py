"""A scripted OpenAI-compatible chat-completions server for tests (no network).

Standard library only (YAML scripts need PyYAML, imported when one is
read). It listens on 127.0.0.1, replays conversation scripts kept as data,
and records every request, so that a test drives harbor's real model client,
agent loop or ``mcp-harbor serve`` subprocess over loopback and asserts what
was sent::

    - expect: {tools: [run_tests], last_role: user, contains: ["branch main"]}
      respond: {tool_calls: [{id: call_1, name: run_tests, arguments: {path: tests/}}]}
    - expect: {last_role: tool, tool_call_id: call_1, contains: ["1 failed"]}
      respond: {content: '{"verdict": "real failure"}'}

A script is a list of turns; each ``POST /v1/chat/completions`` is checked
against the next turn's ``expect`` and answered with its ``respond``:

``expect`` (every key optional)
    ``tools``: the exact list of offered function names, in order;
    ``tool_choice``: the request's ``tool_choice``, exactly;
    ``last_role``: the role of the last message;
    ``tool_call_id``: the last message's ``tool_call_id`` (a list: those of
    the trailing ``tool`` messages, in order);
    ``contains``: substrings that must each appear in the messages' text;
    ``system_contains``: substrings of the ``system`` messages' text;
    ``model``: the request's ``model``.

``respond`` (every key optional)
    ``content``; ``tool_calls``: ``[{id, name, arguments}]``, where a mapping
    ``arguments`` is sent as JSON text and a string is sent as it is (to
    send arguments that are not JSON); ``finish_reason`` (default
    ``tool_calls`` when there are tool calls, else ``stop``); ``usage``
    (``{prompt_tokens, completion_tokens}``); ``model`` (default: the
    request's); ``status``: answer this HTTP error with an OpenAI-style
    error body (``error``: its message); ``delay``: seconds to wait first;
    ``raw``: send this body instead (a string as it is, anything else as
    JSON), to send what is not a chat completion.

A request that does not match its turn gets HTTP 400 whose error message
names the mismatch (``turn 2: tools offered ['a'] != ['b']``) and does not
consume the turn; a request past the end of its script gets HTTP 409. Both
are kept in `ScriptedModel.mismatches`, so that a test can assert there are
none. ``stream: true`` gets server-sent events with the content and the
tool-call arguments in 5-character pieces, as real servers send them.

Several scripts at once, routed by the request's ``model``:
``ScriptedModel(scripts={"coder": [...], "judge": [...]})``; a model with no
script gets 404. ``GET /v1/models`` lists `ScriptedModel.models` (default:
the scripts' model ids, or ``scripted``), or answers
`ScriptedModel.models_status` when it is set, after
`ScriptedModel.models_delay` seconds (all may be changed while the server
runs).

In a test: the ``scripted_model`` fixture (tests/conftest.py) yields a
factory, ``scripted_model(script)`` → a started `ScriptedModel` whose
``base_url`` goes into a models file. For a subprocess (``mcp-harbor
serve`` talks to it), `ScriptedModelProcess`, or by hand::

    python tests/scripted_model.py --script FILE --port-file F [--record R]

which writes the port to F once it listens, appends one JSON line per
request to R, serves until SIGTERM or SIGINT, and exits 1 when a request
did not match its script.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_MODEL",
    "ScriptedModel",
    "ScriptedModelProcess",
    "ScriptedRequest",
    "load_script",
    "serving",
]

#: The model id ``GET /v1/models`` lists for a single script.
DEFAULT_MODEL = "scripted"

_EXPECT_KEYS = frozenset(
    {"tools", "tool_choice", "last_role", "tool_call_id", "contains", "system_contains", "model"}
)
_RESPOND_KEYS = frozenset(
    {"content", "tool_calls", "finish_reason", "usage", "model", "status", "error", "delay", "raw"}
)
_PIECE = 5


@dataclass
class ScriptedRequest:
    """One request the server received: `body` is the parsed JSON (None
    when it was not JSON), `raw` the bytes as received, `headers` with
    lower-case names; `turn` the 1-based
    turn of its model's script it was matched against (None: none);
    `status` the HTTP status it was answered with."""

    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any
    model: str | None = None
    turn: int | None = None
    status: int = 0
    mismatch: str | None = None
    #: True once the answer was written (False: not yet, or abandoned).
    answered: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "model": self.model,
            "turn": self.turn,
            "status": self.status,
            "mismatch": self.mismatch,
            "body": self.body,
        }


@dataclass
class _Script:
    turns: list[dict[str, Any]]
    next: int = 0


@dataclass
class _Reply:
    status: int
    body: bytes = b""
    content_type: str = "application/json"
    delay: float = 0.0
    events: list[bytes] = field(default_factory=list)  # SSE, when streamed


def _check_turns(model: str, turns: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for n, turn in enumerate(turns, 1):
        where = f"script {model!r} turn {n}"
        if not isinstance(turn, Mapping) or set(turn) - {"expect", "respond"}:
            raise ValueError(f"{where}: a turn is {{expect: ..., respond: ...}}, got {turn!r}")
        expect = dict(turn.get("expect") or {})
        respond = dict(turn.get("respond") or {})
        for name, keys, given in (
            ("expect", _EXPECT_KEYS, expect),
            ("respond", _RESPOND_KEYS, respond),
        ):
            unknown = set(given) - keys
            if unknown:
                raise ValueError(
                    f"{where}: unknown {name} keys {sorted(unknown)} (known: {sorted(keys)})"
                )
        for call in respond.get("tool_calls") or ():
            if not isinstance(call, Mapping) or not {"id", "name"} <= set(call):
                raise ValueError(f"{where}: a tool call needs id and name, got {call!r}")
        out.append({"expect": expect, "respond": respond})
    return out


def load_script(source: str | os.PathLike[str] | Any) -> dict[str, Any]:
    """A script file (YAML or JSON) or script data, as keyword arguments of
    `ScriptedModel`: a list of turns is one script for any model; a mapping
    may hold ``script`` (a list), ``scripts`` (``{model: [turns]}``),
    ``models``, ``models_status`` and ``models_delay``."""
    data = source
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    if isinstance(data, list):
        return {"script": data}
    if isinstance(data, Mapping):
        unknown = set(data) - {"script", "scripts", "models", "models_status", "models_delay"}
        if unknown:
            raise ValueError(f"unknown script keys {sorted(unknown)}")
        return dict(data)
    raise ValueError(f"a script is a list of turns or a mapping, got {type(data).__name__}")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return ""


def _mismatch(expect: Mapping[str, Any], body: Any) -> str | None:
    """What of `expect` the request `body` does not satisfy (None: all)."""
    if not isinstance(body, Mapping) or not isinstance(body.get("messages"), list):
        return "the request is not a chat completion (no messages list)"
    messages = [m for m in body["messages"] if isinstance(m, Mapping)]
    if "model" in expect and body.get("model") != expect["model"]:
        return f"model {body.get('model')!r} != {expect['model']!r}"
    if "tools" in expect:
        offered = [
            (t.get("function") or {}).get("name")
            for t in body.get("tools") or ()
            if isinstance(t, Mapping)
        ]
        if offered != list(expect["tools"]):
            return f"tools offered {offered} != {list(expect['tools'])}"
    if "tool_choice" in expect and body.get("tool_choice") != expect["tool_choice"]:
        return f"tool_choice {body.get('tool_choice')!r} != {expect['tool_choice']!r}"
    last = messages[-1] if messages else {}
    if "last_role" in expect and last.get("role") != expect["last_role"]:
        return f"last message role {last.get('role')!r} != {expect['last_role']!r}"
    if "tool_call_id" in expect:
        wanted = expect["tool_call_id"]
        if isinstance(wanted, list):
            trailing: list[Any] = []
            for m in reversed(messages):
                if m.get("role") != "tool":
                    break
                trailing.insert(0, m.get("tool_call_id"))
            if trailing != wanted:
                return f"trailing tool messages answer {trailing} != {wanted}"
        elif last.get("tool_call_id") != wanted:
            return f"last message tool_call_id {last.get('tool_call_id')!r} != {wanted!r}"
    everything = "\n".join(_text(m.get("content")) for m in messages)
    for part in expect.get("contains") or ():
        if part not in everything:
            return f"messages do not contain {part!r}"
    system = "\n".join(_text(m.get("content")) for m in messages if m.get("role") == "system")
    for part in expect.get("system_contains") or ():
        if part not in system:
            return f"system messages do not contain {part!r}"
    return None


def _error(status: int, message: str, code: str) -> _Reply:
    kind = "invalid_request_error" if status < 500 else "server_error"
    body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
    return _Reply(status, json.dumps(body).encode())


def _tool_calls(respond: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for call in respond.get("tool_calls") or ():
        arguments = call.get("arguments", {})
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        out.append(
            {
                "id": call["id"],
                "type": "function",
                "function": {"name": call["name"], "arguments": text},
            }
        )
    return out


def _completion(respond: Mapping[str, Any], model: str, n: int) -> dict[str, Any]:
    calls = _tool_calls(respond)
    message: dict[str, Any] = {"role": "assistant", "content": respond.get("content")}
    if calls:
        message["tool_calls"] = calls
    usage = {"prompt_tokens": 11, "completion_tokens": 7, **(respond.get("usage") or {})}
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    return {
        "id": f"chatcmpl-scripted-{n}",
        "object": "chat.completion",
        "created": 1_800_000_000,
        "model": respond.get("model", model),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": respond.get("finish_reason", "tool_calls" if calls else "stop"),
            }
        ],
        "usage": usage,
    }


def _stream(completion: Mapping[str, Any], include_usage: bool) -> list[bytes]:
    """The completion as SSE chunks: content and arguments in pieces."""
    choice = completion["choices"][0]
    message = choice["message"]
    head = {k: completion[k] for k in ("id", "created", "model")}

    def chunk(delta: Mapping[str, Any], finish: str | None = None) -> bytes:
        body = {**head, "object": "chat.completion.chunk"}
        body["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish}]
        return b"data: " + json.dumps(body).encode() + b"\n\n"

    events = [chunk({"role": "assistant", "content": ""})]
    content = message.get("content") or ""
    events += [chunk({"content": content[i : i + _PIECE]}) for i in range(0, len(content), _PIECE)]
    for index, call in enumerate(message.get("tool_calls") or ()):
        start = {"index": index, "id": call["id"], "type": "function"}
        start["function"] = {"name": call["function"]["name"], "arguments": ""}
        events.append(chunk({"tool_calls": [start]}))
        arguments = call["function"]["arguments"]
        for i in range(0, len(arguments), _PIECE):
            piece = {"index": index, "function": {"arguments": arguments[i : i + _PIECE]}}
            events.append(chunk({"tool_calls": [piece]}))
    events.append(chunk({}, choice["finish_reason"]))
    if include_usage:
        body = {
            **head,
            "object": "chat.completion.chunk",
            "choices": [],
            "usage": completion["usage"],
        }
        events.append(b"data: " + json.dumps(body).encode() + b"\n\n")
    events.append(b"data: [DONE]\n\n")
    return events


class ScriptedModel:
    """The scripted server, on a thread of this process (see the module's
    docstring for the script format). Use it as a context manager, or
    `start` and `close` it. `requests` and `mismatches` grow as requests
    arrive; read them after the exchange you assert on."""

    def __init__(
        self,
        script: Sequence[Mapping[str, Any]] | None = None,
        *,
        scripts: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
        models: Sequence[str] | None = None,
        models_status: int | None = None,
        models_delay: float = 0.0,
        on_request: Callable[[ScriptedRequest], None] | None = None,
    ) -> None:
        if (script is None) == (scripts is None):
            raise ValueError("give either script (one, for any model) or scripts ({model: turns})")
        self._routed = scripts is not None
        given = dict(scripts) if scripts is not None else {DEFAULT_MODEL: script or []}
        self._scripts = {m: _Script(_check_turns(m, t)) for m, t in given.items()}
        self.models: list[str] = list(models) if models is not None else list(given)
        self.models_status: int | None = models_status
        self.models_delay = models_delay
        self.requests: list[ScriptedRequest] = []
        self.mismatches: list[str] = []
        self._on_request = on_request
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._connections: set[socket.socket] = set()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], **kwargs: Any) -> ScriptedModel:
        return cls(**load_script(path), **kwargs)

    # -- life cycle -------------------------------------------------------

    def start(self, host: str = "127.0.0.1", port: int = 0) -> ScriptedModel:
        """Listen (port 0: any free port) and serve on a daemon thread."""
        owner = self

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            block_on_close = False

            def get_request(self) -> tuple[socket.socket, Any]:
                conn, address = super().get_request()
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with owner._lock:
                    owner._connections.add(conn)
                return conn, address

        class Handler(_Handler):
            scripted = owner

        self._httpd = Server((host, port), Handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            args=(0.02,),  # how soon shutdown() is seen (default 0.5 s)
            name="scripted-model",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and drop every connection (a delayed answer is
        abandoned). Idempotent."""
        self._closing.set()
        if self._httpd is None:
            return
        httpd, self._httpd = self._httpd, None
        httpd.shutdown()
        httpd.server_close()
        with self._lock:
            connections, self._connections = set(self._connections), set()
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> ScriptedModel:
        return self.start() if self._httpd is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the scripted model is not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: an endpoint's ``base_url``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- assertions -------------------------------------------------------

    def remaining(self) -> dict[str, int]:
        """Turns not yet answered, per model id (only those with some)."""
        with self._lock:
            return {
                m: len(s.turns) - s.next for m, s in self._scripts.items() if s.next < len(s.turns)
            }

    def chat_requests(self) -> list[dict[str, Any]]:
        """The bodies of the chat-completion requests, in arrival order."""
        with self._lock:
            return [r.body for r in self.requests if r.path == "/v1/chat/completions"]

    def assert_done(self) -> None:
        """Every turn answered and no request mismatched."""
        assert not self.mismatches, self.mismatches
        assert not self.remaining(), f"turns never requested: {self.remaining()}"

    # -- the exchange (handler threads) -----------------------------------

    def _answer(self, request: ScriptedRequest) -> _Reply:
        path = request.path.split("?", 1)[0].rstrip("/")
        if request.method == "GET" and path == "/v1/models":
            if self.models_status is not None:
                status = self.models_status
                reply = _error(status, f"scripted /models status {status}", "scripted")
            else:
                data = [
                    {"id": m, "object": "model", "created": 0, "owned_by": "scripted"}
                    for m in self.models
                ]
                reply = _Reply(200, json.dumps({"object": "list", "data": data}).encode())
            reply.delay = self.models_delay
            return reply
        if request.method != "POST" or path != "/v1/chat/completions":
            return _error(404, f"no route {request.method} {request.path}", "not_found")
        body = request.body
        model = body.get("model") if isinstance(body, Mapping) else None
        request.model = model if isinstance(model, str) else None
        key = request.model if self._routed else DEFAULT_MODEL
        script = self._scripts.get(key) if key is not None else None
        if script is None:
            known = sorted(self._scripts)
            return self._refuse(request, 404, f"no script for model {model!r} (scripts: {known})")
        if script.next >= len(script.turns):
            n = len(script.turns)
            return self._refuse(
                request, 409, f"turn {n + 1}: past the end of the script ({n} turns)"
            )
        turn = script.turns[script.next]
        request.turn = script.next + 1
        wrong = _mismatch(turn["expect"], body)
        if wrong is not None:
            return self._refuse(request, 400, f"turn {request.turn}: {wrong}")
        script.next += 1
        respond = turn["respond"]
        delay = float(respond.get("delay", 0))
        if "status" in respond:
            status = int(respond["status"])
            reply = _error(status, respond.get("error", f"scripted status {status}"), "scripted")
        elif "raw" in respond:
            raw = respond["raw"]
            reply = _Reply(200, raw.encode() if isinstance(raw, str) else json.dumps(raw).encode())
        else:
            completion = _completion(respond, str(model), len(self.requests))
            if body.get("stream"):
                usage = bool((body.get("stream_options") or {}).get("include_usage"))
                reply = _Reply(
                    200, content_type="text/event-stream", events=_stream(completion, usage)
                )
            else:
                reply = _Reply(200, json.dumps(completion).encode())
        reply.delay = delay
        return reply

    def _refuse(self, request: ScriptedRequest, status: int, message: str) -> _Reply:
        request.mismatch = message
        self.mismatches.append(message)
        return _error(status, message, "script_mismatch")


class _Handler(BaseHTTPRequestHandler):
    scripted: ScriptedModel
    protocol_version = "HTTP/1.1"
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def finish(self) -> None:
        with self.scripted._lock:
            self.scripted._connections.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def do_GET(self) -> None:
        self._exchange(b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._exchange(self.rfile.read(length))

    def _exchange(self, raw: bytes) -> None:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = ScriptedRequest(
            self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, raw, body
        )
        owner = self.scripted
        with owner._lock:
            owner.requests.append(request)
            reply = owner._answer(request)
            request.status = reply.status
        if owner._on_request is not None:
            owner._on_request(request)
        if reply.delay and owner._closing.wait(reply.delay):
            self.close_connection = True
            return
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            if reply.events:
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                for event in reply.events:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            request.answered = True
        except OSError:  # the client went away (cancelled, timed out)
            self.close_connection = True


@contextlib.contextmanager
def serving() -> Iterator[Callable[..., ScriptedModel]]:
    """A factory of started `ScriptedModel` s (same arguments), all closed
    on exit: what the ``scripted_model`` fixture yields."""
    started: list[ScriptedModel] = []

    def factory(script: Sequence[Mapping[str, Any]] | None = None, **kwargs: Any) -> ScriptedModel:
        server = ScriptedModel(script, **kwargs).start()
        started.append(server)
        return server

    try:
        yield factory
    finally:
        for server in started:
            server.close()


class ScriptedModelProcess:
    """The scripted server as a subprocess (``python tests/scripted_model.py``),
    for a harbor subprocess to talk to: ``with ScriptedModelProcess(data,
    folder) as model: ... model.base_url ... model.requests()``. `data` is
    what `load_script` takes (written to ``folder/script.json``)."""

    def __init__(self, data: Any, folder: Path) -> None:
        self.folder = folder
        self.script_file = folder / "script.json"
        self.port_file = folder / "scripted-model.port"
        self.record_file = folder / "scripted-model.jsonl"
        self.script_file.write_text(json.dumps(data), encoding="utf-8")
        self._process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def __enter__(self) -> ScriptedModelProcess:
        argv = [sys.executable, __file__, "--script", str(self.script_file)]
        argv += ["--port-file", str(self.port_file), "--record", str(self.record_file)]
        self._process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while not self.port_file.exists():
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError("the scripted model process did not start")
            time.sleep(0.01)
        self.port = int(self.port_file.read_text())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.communicate()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def requests(self) -> list[dict[str, Any]]:
        """The requests so far, as `ScriptedRequest.to_json` records."""
        if not self.record_file.exists():
            return []
        lines = self.record_file.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line]

    def mismatches(self) -> list[str]:
        return [r["mismatch"] for r in self.requests() if r["mismatch"]]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A scripted OpenAI-compatible server for tests.")
    parser.add_argument("--script", required=True, help="a YAML or JSON script file")
    parser.add_argument("--port-file", required=True, help="written with the port once listening")
    parser.add_argument("--record", help="append one JSON line per request to this file")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    record = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115

    def write(request: ScriptedRequest) -> None:
        if record is not None:
            record.write(json.dumps(request.to_json()) + "\n")
            record.flush()

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    server = ScriptedModel.from_file(args.script, on_request=write).start(port=args.port)
    port_file = Path(args.port_file)
    temporary = port_file.with_name(port_file.name + ".tmp")
    temporary.write_text(str(server.port), encoding="utf-8")
    temporary.replace(port_file)
    stop.wait()
    server.close()
    if record is not None:
        record.close()
    for mismatch in server.mismatches:
        print(f"scripted model: {mismatch}", file=sys.stderr)
    return 1 if server.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
