"""Wire the handlers into the SDK's low-level server and serve a transport."""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import os
import signal
import socket
import warnings
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
from mcp.server import CacheHint, NotificationOptions, Server
from mcp.server.auth.settings import AuthSettings
from mcp.server.subscriptions import ListenHandler
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPDeprecationWarning
from starlette.routing import Route

from mcp_harbor import __version__
from mcp_harbor.defaults import DEFAULT_LIST_TTL
from mcp_harbor.errors import ConfigError
from mcp_harbor.server.auth import HarborTokenVerifier
from mcp_harbor.server.handlers import CallerMiddleware, Handlers
from mcp_harbor.server.listing import ListingCache
from mcp_harbor.server.oauth.accepted import CombinedVerifier
from mcp_harbor.server.refusals import RefusalRecorder
from mcp_harbor.server.reload import ListChangedNotifier
from mcp_harbor.server.stdio import DEFAULT_MAX_REQUEST_BYTES, bounded_stdio
from mcp_harbor.store.rejections import RejectionCounter

__all__ = ["build_server", "is_loopback", "serve_http", "serve_stdio"]

log = logging.getLogger("mcp_harbor.server")


def is_loopback(host: str) -> bool:
    """Whether binding `host` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _HarborServer(Server):
    # The HTTP session manager calls create_initialization_options() with no
    # arguments: announce tools.listChanged there too.
    def create_initialization_options(
        self, notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any
    ) -> Any:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True), *args, **kwargs
        )


def build_server(
    handlers: Handlers,
    caller: CallerMiddleware,
    notifier: ListChangedNotifier,
    list_ttl: float = DEFAULT_LIST_TTL,
) -> Server:
    """The low-level SDK server (both protocol eras) over `handlers`, with
    `caller` resolving the identity of every request, `notifier` reaching
    clients when the tool list changes, and ``tools/list`` answered from a
    cache of earlier answers (`ListingCache`).

    Every ``tools/list`` answer tells 2026-07-28 clients they may reuse it
    for `list_ttl` seconds (``ttlMs``, SEP-2549), for this caller only
    (``cacheScope: private``: what a caller sees depends on ``allow:``).
    The list changes only with a reload, which sends
    ``notifications/tools/list_changed``; a client that listens drops its
    copy then, one that does not may list a stale copy for up to
    `list_ttl` seconds. 0: every answer is immediately stale."""
    hint = CacheHint(ttl_ms=round(list_ttl * 1000), scope="private")
    with warnings.catch_warnings():
        # logging/setLevel is deprecated in 2026-07-28 (SEP-2577) but is how
        # handshake-era clients ask for log messages.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        server = _build(handlers, notifier, hint)
    server.middleware.append(caller)
    server.middleware.append(notifier)
    server.middleware.append(ListingCache(handlers))
    return server


def _build(handlers: Handlers, notifier: ListChangedNotifier, hint: CacheHint) -> Server:
    return _HarborServer(
        "mcp-harbor",
        version=__version__,
        instructions=(
            "Each tool runs a fixed pipeline configured by the operator; "
            "arguments are validated and never become shell syntax."
        ),
        get_tool_input_schema=handlers.input_schema,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_set_logging_level=handlers.set_logging_level,
        on_subscriptions_listen=ListenHandler(notifier.bus),
        cache_hints={"tools/list": hint},
    )


StopCalls = Callable[[], Awaitable[None]]


async def _stop_on_signal(stop_calls: StopCalls, then: Callable[[], None]) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async for signum in signals:
            log.warning(
                "%s: stopping; running calls are cancelled and recorded",
                signal.Signals(signum).name,
            )
            await stop_calls()
            then()
            return


Background = Callable[[], Coroutine[Any, Any, None]]


async def serve_stdio(
    server: Server,
    stop_calls: StopCalls,
    background: Background | None = None,
    max_request_bytes: int | None = None,
) -> None:
    """Serve one client over stdin/stdout until it disconnects, or until
    SIGTERM or SIGINT. A line longer than `max_request_bytes` (None: 4 MiB,
    `DEFAULT_MAX_REQUEST_BYTES`) is refused
    (see `bounded_stdio`).

    On a signal, `stop_calls` cancels the running calls (their processes
    stopped, their audit records closed as ``cancelled``, their clients
    answered) before the server stops.

    **Cancellation:** running calls are cancelled the same way.
    """
    async with anyio.create_task_group() as tg:
        tg.start_soon(_stop_on_signal, stop_calls, tg.cancel_scope.cancel)
        if background is not None:
            tg.start_soon(background)
        limit = max_request_bytes or DEFAULT_MAX_REQUEST_BYTES
        async with bounded_stdio(limit) as (read_stream, write_stream):
            await server.run(
                read_stream,
                write_stream,
                server.create_initialization_options(NotificationOptions(tools_changed=True)),
            )
        tg.cancel_scope.cancel()


def serve_http(
    server: Server,
    host: str,
    port: int,
    *,
    verifier: HarborTokenVerifier | CombinedVerifier | None,
    stop_calls: StopCalls,
    allowed_hosts: list[str] | None = None,
    background: Background | None = None,
    max_request_bytes: int | None = None,
    routes: list[Route] | None = None,
    rejections: RejectionCounter | None = None,
) -> None:
    """Serve Streamable HTTP on ``http://HOST:PORT/mcp`` until interrupted,
    and `routes` beside it (the approvals endpoint).

    With a `verifier`, every request needs a valid bearer token (401
    otherwise). A `CombinedVerifier` (``--auth oauth`` or ``tokens,oauth``)
    makes the server an OAuth resource server instead of the SDK's bearer
    middleware: `mcp_harbor.server.oauth.http.protect`, its challenges and
    its Protected Resource Metadata routes. DNS-rebinding protection stays
    on: Host and Origin must be loopback names, the bind address, or among `allowed_hosts`
    (``name:port`` or ``name:*``). A body larger than `max_request_bytes`
    is answered 413.

    With `rejections`, every request refused before any handler ran is
    counted there (`RefusalRecorder`); each minute's records are written
    once it is over, and what is still counted when serving stops is
    written after the last request was answered.

    Raises:
        ConfigError: `host`:`port` cannot be bound (a port in use, say);
            nothing was served.
    """
    import uvicorn

    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    if not is_loopback(host) and host not in ("0.0.0.0", "::"):
        hosts.append(f"{host}:*")
        origins.append(f"http://{host}:*")
    for extra in allowed_hosts or []:
        hosts.append(extra)
        origins.extend([f"http://{extra}", f"https://{extra}"])
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )
    auth = None
    oauth = verifier.config if isinstance(verifier, CombinedVerifier) else None
    if verifier is not None and oauth is None:
        # Static tokens: no OAuth server and no RFC 9728 metadata routes.
        auth = AuthSettings.model_validate(
            {"issuer_url": f"http://{host}:{port}", "resource_server_url": None}
        )
    if oauth is not None:
        from mcp_harbor.server.oauth.http import metadata_routes

        routes = [*(routes or []), *metadata_routes(oauth)]
    app: Any = server.streamable_http_app(
        transport_security=security,
        host=host,
        auth=auth,
        token_verifier=None if oauth is not None else verifier,
        max_request_body_size=max_request_bytes or DEFAULT_MAX_REQUEST_BYTES,
        custom_starlette_routes=routes,
    )
    if oauth is not None:
        from mcp_harbor.server.oauth.http import protect

        assert isinstance(verifier, CombinedVerifier)
        app = protect(app, verifier, oauth)
    served: Any = app if rejections is None else RefusalRecorder(app, rejections)
    # http="auto" (uvicorn's default) parses HTTP with httptools, a
    # dependency: ~0.1 ms of CPU less per request than the pure-Python h11.
    config = uvicorn.Config(
        served,
        host=host,
        port=port,
        log_level="warning",
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=2,
    )

    class _Server(uvicorn.Server):
        # mcp-harbor handles SIGTERM/SIGINT itself: first every running call
        # is cancelled and recorded, then uvicorn is told to exit.
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    web = _Server(config)
    listener = _listen(host, port)  # before "serving on": a port in use is said, not a crash

    async def run() -> None:
        async with anyio.create_task_group() as tg:

            def exit_uvicorn() -> None:
                web.should_exit = True

            tg.start_soon(_stop_on_signal, stop_calls, exit_uvicorn)
            if background is not None:
                tg.start_soon(background)
            if rejections is not None:
                tg.start_soon(rejections.run)
            log.info("serving MCP over HTTP on http://%s:%d/mcp", host, port)
            try:
                await web.serve(sockets=[listener])
            finally:  # every request was answered: write what is still counted
                if rejections is not None:
                    with anyio.CancelScope(shield=True):
                        await rejections.flush()
            tg.cancel_scope.cancel()

    try:
        anyio.run(run)
    finally:
        listener.close()


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port`, bound the way uvicorn binds one
    (``SO_REUSEADDR``; IPv6 when `host` holds a ``:``), and not inherited
    by the steps' processes.

    Raises:
        ConfigError: it cannot be bound (the port is in use, the address is
            not this host's, a port below 1024 without the privilege).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # The protocol is named, not left 0 as socket.create_server leaves it:
    # asyncio turns Nagle's algorithm off (TCP_NODELAY) only on connections
    # whose socket says IPPROTO_TCP, and an accepted socket inherits the
    # listener's. With Nagle on, a response's body waited for the client's
    # delayed ACK of its headers: 40 ms per request on a kept-alive
    # connection (docs/benchmarks.md, issue 25).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((host, port))
        sock.listen(2048)
        return sock
    except OSError as exc:
        sock.close()
        hint = (
            "another process listens there: stop it, or pass another --port"
            if exc.errno == errno.EADDRINUSE
            else "pass a --host of this machine and a --port you may use"
        )
        # os.strerror: without create_server's "(while attempting to bind …)";
        # a name that does not resolve has a negative errno and its own text.
        what = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else exc.strerror or str(exc)
        raise ConfigError(f"cannot serve HTTP on {host}:{port}: {what}; {hint}") from None
