"""Issue 6: ``serve --watch`` reloads exports while a client stays connected.

Over stdio in both eras and over HTTP (2026-07-28): adding a file publishes
its tool and the client receives ``tools/list_changed`` (handshake era:
the notification on the session; 2026-07-28: a ``subscriptions/listen``
stream); changing a file changes what the tool does; breaking it (invalid
YAML, then a template the checker refuses) keeps the last good version
serving (and says so in the server log); removing it unpublishes the tool.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    http_server,
    stdio_client_opts,
    text_of,
    write_export,
)
from mcp import Client, types
from mcp.shared.subscriptions import ToolsListChanged

pytestmark = pytest.mark.anyio


def echo_yaml(name: str, word: str) -> str:
    return f"name: {name}\ndescription: Says a word.\nsteps:\n  - name: say\n    run: echo {word}\n"


INVALID_YAML = "name: alpha\ndescription: [unclosed\nsteps:\n  - name: say\n    run: echo v3\n"
REFUSED = """
name: alpha
description: Splices an argument into a script (the checker refuses this).
args:
  x: {type: string}
steps:
  - name: say
    run: echo {{ args.x }}
"""


class Changes:
    """Counts ``tools/list_changed`` notifications the way the era delivers
    them: handshake era, on the session (`on_message`); 2026-07-28, on the
    ``subscriptions/listen`` stream (the SDK also hands those to the message
    handler; they are not counted twice)."""

    def __init__(self) -> None:
        self.count = 0
        self.modern = False

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification) and not self.modern:
            self.count += 1

    async def wait_for(self, count: int, timeout: float = 15) -> None:
        with anyio.fail_after(timeout):
            while self.count < count:
                await anyio.sleep(0.02)


@contextlib.asynccontextmanager
async def listening(client: Client, changes: Changes) -> AsyncIterator[None]:
    """2026-07-28: hold a ``subscriptions/listen`` stream open while the body runs."""
    if client.protocol_version != "2026-07-28":
        yield
        return
    changes.modern = True
    async with anyio.create_task_group() as tg:
        ready = anyio.Event()

        async def listen() -> None:
            async with client.listen(tools_list_changed=True) as sub:
                ready.set()
                async for event in sub:
                    assert isinstance(event, ToolsListChanged)
                    changes.count += 1

        tg.start_soon(listen)
        await ready.wait()
        yield
        tg.cancel_scope.cancel()


async def names(client: Client) -> set[str]:
    return {t.name for t in (await client.list_tools()).tools}


async def wait_log(read_log: Callable[[], str], needle: str, count: int) -> None:
    with anyio.fail_after(15):
        while read_log().count(needle) < count:
            await anyio.sleep(0.05)


async def scenario(
    client: Client, exports: Path, changes: Changes, read_log: Callable[[], str]
) -> None:
    async with listening(client, changes):
        assert await names(client) == {"alpha"}
        assert "v1" in text_of(await client.call_tool("alpha", {}))

        # Add: published, and the client is told.
        write_export(exports, "beta.yaml", echo_yaml("beta", "hello-beta"))
        await changes.wait_for(1)
        assert await names(client) == {"alpha", "beta"}
        assert "hello-beta" in text_of(await client.call_tool("beta", {}))

        # Change: the new behaviour.
        write_export(exports, "alpha.yaml", echo_yaml("alpha", "v2"))
        await changes.wait_for(2)
        assert "v2" in text_of(await client.call_tool("alpha", {}))

        # Break (invalid YAML): the last good version keeps serving.
        (exports / "alpha.yaml").write_text(INVALID_YAML)
        await wait_log(read_log, "alpha.yaml is invalid; keeping its last good version", 1)
        assert await names(client) == {"alpha", "beta"}
        result = await client.call_tool("alpha", {})
        assert result.is_error is False and "v2" in text_of(result)

        # Break (the checker refuses the template): the same.
        write_export(exports, "alpha.yaml", REFUSED)
        await wait_log(read_log, "the checker refused alpha; keeping its last good version", 1)
        result = await client.call_tool("alpha", {})
        assert result.is_error is False and "v2" in text_of(result)
        assert changes.count == 2  # nothing changed for the client

        # Remove: gone.
        (exports / "beta.yaml").unlink()
        await changes.wait_for(3)
        assert await names(client) == {"alpha"}
        with pytest.raises(Exception, match="Unknown tool: beta"):
            await client.call_tool("beta", {})


@pytest.mark.parametrize("mode", MODES)
async def test_reload_over_stdio(tmp_path: Path, mode: str) -> None:
    exports, errlog_path = tmp_path / "exports", tmp_path / "server.stderr"
    write_export(exports, "alpha.yaml", echo_yaml("alpha", "v1"))
    changes = Changes()
    with open(errlog_path, "w") as errlog:
        client = stdio_client_opts(
            exports,
            tmp_path / "state",
            mode,
            "--watch",
            "--db",
            str(tmp_path / "harbor.db"),
            errlog=errlog,
            message_handler=changes.on_message,
        )
        async with client:
            await scenario(client, exports, changes, errlog_path.read_text)


async def test_reload_over_http_modern(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "alpha.yaml", echo_yaml("alpha", "v1"))
    changes = Changes()
    with http_server(exports, tmp_path / "state", "--watch") as srv:
        async with Client(srv.url) as client:
            assert client.protocol_version == "2026-07-28"
            await scenario(client, exports, changes, srv.stderr)
