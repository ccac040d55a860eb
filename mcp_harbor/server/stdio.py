"""stdio with a bounded line and an answer for every malformed request.

The SDK's ``stdio_server`` reads stdin with an unbounded ``readline`` (a
100 MB line costs the server hundreds of MB) and silently drops any line that
is not a valid JSON-RPC message, so a client that sent ``"params": "x"``
with ``"id": 12`` waits for ever. Here the server reads stdin itself:

- a line longer than `max_line` bytes is discarded as it streams in (memory
  stays at about `max_line`) and answered with ``-32600`` (id null);
- a line that is not JSON (including invalid UTF-8 and nesting deeper than
  the parser's limit) gets ``-32700 Parse error`` (id null), as JSON-RPC 2.0
  prescribes;
- a JSON value that is not a valid message gets ``-32600 Invalid Request``,
  with the request's id when it has a usable one (a request whose id is an
  object, a boolean or null gets id null); a malformed notification or
  response (no id to answer) is dropped, as the spec says;
- blank lines are ignored.

fd 0 is pointed at /dev/null and fd 1 at stderr while serving (as the SDK
does), so a step can neither read the client's messages nor write onto the
wire; the wire is served from private duplicates, restored on exit.

No thread hop per message where the wire is a pipe (how every stdio client
starts a server): the request side waits for the pipe on the event loop
(cancellable, so SIGTERM never waits for the client's next line), and an
answer that fits in the pipe's free space is written by the task that sends
it, since such a write cannot block. A bigger answer (or one sent while
others wait) goes to one writer task, which waits on the loop for room in
the pipe, cancellably. Only a wire that the loop cannot watch is served by
threads: a regular file as stdin is read by a daemon thread, and answers to
anything but a pipe are written from a worker thread. The SDK's
``stdio_server`` does both through worker threads: two hops per answer, one
per request.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import math
import os
import stat
import struct
import termios
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import mcp_types as types
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

__all__ = ["DEFAULT_MAX_REQUEST_BYTES", "bounded_stdio"]

log = logging.getLogger("mcp_harbor.server")

#: The largest request accepted, in bytes: the SDK's Streamable HTTP default
#: body limit (``DEFAULT_MAX_REQUEST_BODY_SIZE``, 4 MiB), on both transports.
DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024

_CHUNK = 1 << 16


def _error(request_id: Any, code: int, message: str) -> SessionMessage:
    return SessionMessage(
        types.JSONRPCError(
            jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
        )
    )


def _rejection(line: bytes) -> SessionMessage | None:
    """The answer to a line that is not a valid JSON-RPC message (None: drop it)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return _error(None, types.PARSE_ERROR, "Parse error")
    if isinstance(value, dict):
        request_id = value.get("id")
        usable = isinstance(request_id, str | int) and not isinstance(request_id, bool)
        if "method" in value and "id" not in value:
            return None  # a (malformed) notification: never answered
        if "method" not in value and ("result" in value or "error" in value):
            return None  # a (malformed) response: never answered
        if usable and "method" in value:
            return _error(request_id, types.INVALID_REQUEST, "Invalid Request")
    return _error(None, types.INVALID_REQUEST, "Invalid Request")


def _pollable(fd: int) -> bool:
    """Whether the event loop can wait for `fd` (a pipe, a socket or a tty)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


async def _chunks(fd: int) -> AsyncIterator[bytes]:
    """What arrives on `fd`: waited for on the event loop where it can watch
    `fd`, else read by a daemon thread (see the module's docstring)."""
    if _pollable(fd):
        while True:
            await anyio.wait_readable(fd)
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:  # another reader of the same pipe took it
                continue
            except OSError:
                log.debug("stdin read failed", exc_info=True)
                return
            if not chunk:
                return
            yield chunk
    send, receive = anyio.create_memory_object_stream[bytes](4)
    token = anyio.lowlevel.current_token()

    def pump() -> None:
        try:
            while chunk := os.read(fd, _CHUNK):
                anyio.from_thread.run(send.send, chunk, token=token)
        except Exception:  # the loop is gone or the pipe broke
            log.debug("stdin reader stopped", exc_info=True)
        finally:
            with contextlib.suppress(Exception):
                anyio.from_thread.run_sync(send.close, token=token)

    threading.Thread(target=pump, name="mcp-harbor stdin", daemon=True).start()
    async with receive:
        async for chunk in receive:
            yield chunk


async def _read_lines(
    fd: int,
    max_line: int,
    messages: Any,
    replies: _Answers,
) -> None:
    buffer = bytearray()
    skipping = 0  # bytes of an over-long line discarded so far

    async def line_done(line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValidationError:
            answer = _rejection(line)
            if answer is not None:
                await replies.send(answer)
            return
        if isinstance(message, types.JSONRPCNotification) and b'"id"' in line:
            # An id that is not a string or a number made the SDK read a
            # request as a notification, which would never be answered.
            with contextlib.suppress(ValueError, RecursionError):
                if "id" in json.loads(line):
                    await replies.send(_error(None, types.INVALID_REQUEST, "Invalid Request"))
                    return
        await messages.send(SessionMessage(message))

    async def too_long(size: int) -> None:
        log.warning("dropped a %d-byte request (limit %d bytes)", size, max_line)
        await replies.send(
            _error(
                None,
                types.INVALID_REQUEST,
                f"Request too large: more than {max_line} bytes (the server's limit)",
            )
        )

    async with messages:
        async for chunk in _chunks(fd):
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                if end < 0:
                    piece = chunk[start:]
                    if skipping:
                        skipping += len(piece)
                    elif len(buffer) + len(piece) > max_line:
                        skipping = len(buffer) + len(piece)
                        buffer.clear()
                    else:
                        buffer += piece
                    break
                piece = chunk[start:end]
                start = end + 1
                if skipping:
                    size, skipping = skipping + len(piece), 0
                    await too_long(size)
                elif len(buffer) + len(piece) > max_line:
                    size = len(buffer) + len(piece)
                    buffer.clear()
                    await too_long(size)
                else:
                    buffer += piece
                    line = bytes(buffer)
                    buffer.clear()
                    await line_done(line)
        if buffer and not skipping:
            await line_done(bytes(buffer))


#: Free bytes kept in reserve when judging whether an answer fits in the
#: pipe: a pipe holds pages, and up to a page may be lost at either end.
_PAGE = 4096
_PIPE_SLACK = 2 * _PAGE


class _Wire:
    """The answer side of the wire.

    `write` puts all of its bytes on the wire before it returns, after any
    write already waiting, and never blocks the event loop. On a pipe (how
    every stdio client starts a server) it writes only what the pipe has room
    for, which cannot block, and waits on the loop for room for the rest, so
    a client that stops reading stalls its own answers, nothing else, and the
    wait is cancellable. Anything else (a file, a socket) is written from a
    worker thread. `write_now` is the no-wait path.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._capacity = 0
        with contextlib.suppress(OSError):
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                self._capacity = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
        self._lock = anyio.Lock()

    def _room(self) -> int:
        """Bytes a write can put in the pipe now without blocking (a
        conservative count: the pipe holds pages, and up to a page may be
        lost at either end)."""
        try:
            raw = fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return 0
        queued: int = struct.unpack("i", raw)[0]
        return self._capacity - queued - _PIPE_SLACK

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def write_now(self, data: bytes) -> int:
        """Write as much of `data` as the pipe has room for without
        blocking (all of it, or nothing: never a part of a message while
        another write may be waiting); return the bytes written."""
        if not self._capacity or self._lock.locked() or self._room() < len(data):
            return 0
        return os.write(self.fd, data)

    async def write(self, data: bytes) -> None:
        """Put all of `data` on the wire, after any write already waiting."""
        async with self._lock:
            if not self._capacity:
                await anyio.to_thread.run_sync(self._write_all, data)
                return
            view = memoryview(data)
            while view:
                room = self._room()
                if room <= 0:
                    # Writable means a free page: up to a page cannot block.
                    await anyio.wait_writable(self.fd)
                    room = _PAGE
                view = view[os.write(self.fd, view[:room]) :]


class _Answers:
    """The stream the server sends its messages into (the SDK's
    ``WriteStream``).

    A message that fits in the pipe's free space, with nothing queued before
    it, is written by the task that sends it: no hand-over to another task.
    Anything else (a big answer, a client that is not reading, a wire that
    is not a pipe) is queued for the writer task (`drain`). Messages reach
    the wire whole and in the order they were sent either way.
    """

    def __init__(self, wire: _Wire) -> None:
        self._wire = wire
        # Unbounded: `send` never waits here (so it is never cancelled half
        # way); a client that does not read holds the writer, and the
        # answers wait in this queue, as they would in their blocked tasks.
        self._send, self._receive = anyio.create_memory_object_stream[bytes](math.inf)
        self._queued = 0

    async def send(self, message: SessionMessage) -> None:
        line = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
        data = line.encode("utf-8")
        if not self._queued:
            written = self._wire.write_now(data)
            if written == len(data):
                return
            data = data[written:]
        self._queued += 1
        self._send.send_nowait(data)

    async def drain(self) -> None:
        """Write the queued messages until `aclose` (then return) or
        cancellation (a client that stopped reading)."""
        async with self._receive:
            async for data in self._receive:
                try:
                    await self._wire.write(data)
                finally:
                    self._queued -= 1

    def close(self) -> None:
        """No more messages: `drain` returns once it has written the queued ones."""
        self._send.close()

    async def aclose(self) -> None:
        self.close()

    async def __aenter__(self) -> _Answers:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.close()


@contextlib.contextmanager
def _claimed(fd: int, diversion: int) -> Iterator[int]:
    """A private duplicate of `fd` (the wire) while `fd` itself points at
    `diversion` (or /dev/null if that cannot be done); `fd` is pointed back at
    the wire on exit."""
    wire = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    try:
        try:
            os.dup2(diversion, fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, fd)
            os.close(null)
        yield wire
    finally:
        with contextlib.suppress(OSError):
            os.dup2(wire, fd)


@contextlib.asynccontextmanager
async def bounded_stdio(
    max_line: int = DEFAULT_MAX_REQUEST_BYTES,
) -> AsyncIterator[tuple[Any, Any]]:
    """Like the SDK's ``stdio_server()``: (read stream, write stream) over
    this process's stdin and stdout, with lines bounded to `max_line` bytes
    and malformed requests answered (see the module's docstring).

    On exit, what was sent is written out before it returns; a client that
    stopped reading holds it there until it is cancelled (SIGTERM)."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        # The request side is never closed: a reader may still block on it at exit.
        with _claimed(0, devnull) as wire, _claimed(1, 2) as answers_fd:
            answers = _Answers(_Wire(answers_fd))
            try:
                send, receive = create_context_streams[SessionMessage | Exception](0)
                async with anyio.create_task_group() as tg:
                    tg.start_soon(answers.drain)
                    reading = anyio.CancelScope()

                    async def pump() -> None:
                        with reading:
                            async with send:
                                await _read_lines(wire, max_line, send, answers)

                    tg.start_soon(pump)
                    try:
                        yield receive, answers
                    finally:
                        reading.cancel()
                        answers.close()
            finally:
                with contextlib.suppress(OSError):
                    os.close(answers_fd)
    finally:
        os.close(devnull)
