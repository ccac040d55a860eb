"""Issue 7, scale: ``tools/list`` is answered from a cache of earlier answers
(`mcp_harbor.server.listing`), which must never show a caller another
caller's tools nor a stale list.

Over real HTTP with tokens (one server, so every caller shares its cache):
callers with different ``allow:`` views take turns listing, twice each, in
both eras, and each always gets exactly their own tools. Over stdio with
``--watch``: a change that keeps every tool name (only a description) is
listed after the reload by a client told of it, though the answer said it
may be reused for 60 s (``ttlMs``, ``--list-ttl``). And an answer from the
cache is the same, byte for byte, as the first one.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from harbor_helpers import (
    MODES,
    PROTOCOL,
    HttpServer,
    bearer_client,
    http_server,
    raw_handshake,
    serve_argv,
    server_env,
    stdio_client_opts,
    token_add,
    write_export,
)

pytestmark = pytest.mark.anyio


def only(name: str, rule: str) -> str:
    return (
        f'name: {name}\ndescription: Only for {rule}.\nallow: ["{rule}"]\n'
        f"steps:\n  - name: a\n    run: echo {name} ran\n"
    )


EVERYONE = "name: everyone\ndescription: For all.\nsteps:\n  - name: a\n    run: echo hi\n"
VISIBLE = {
    "alice": {"everyone", "alice_only", "acme_only"},
    "bob": {"everyone", "ops_only"},
    "carol": {"everyone"},
    "dave": {"everyone"},  # the same view as carol: they share one cached answer
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, dict[str, str]]]:
    root = tmp_path_factory.mktemp("listcache")
    exports, tokens = root / "exports", root / "tokens.json"
    write_export(exports, "everyone.yaml", EVERYONE)
    write_export(exports, "alice_only.yaml", only("alice_only", "alice"))
    write_export(exports, "ops_only.yaml", only("ops_only", "group:ops"))
    write_export(exports, "acme_only.yaml", only("acme_only", "tenant:acme"))
    tok = {
        "alice": token_add(tokens, "alice", "--tenant", "acme"),
        "bob": token_add(tokens, "bob", "--group", "ops"),
        "carol": token_add(tokens, "carol"),
        "dave": token_add(tokens, "dave", "--tenant", "other", "--group", "dev"),
    }
    with http_server(exports, root / "state", "--tokens", str(tokens)) as srv:
        yield srv, tok


@pytest.mark.parametrize("mode", MODES)
async def test_each_caller_always_lists_exactly_their_tools(
    server: tuple[HttpServer, dict[str, str]], mode: str
) -> None:
    srv, tok = server
    for _round in range(2):
        for who in ("alice", "bob", "carol", "dave", "bob", "alice"):
            async with bearer_client(srv.url, tok[who], mode) as client:
                assert client.protocol_version == PROTOCOL[mode]
                for _again in range(2):
                    listed = {t.name for t in (await client.list_tools()).tools}
                    assert listed == VISIBLE[who], (who, mode)


@pytest.mark.parametrize("mode", MODES)
async def test_a_reload_that_keeps_every_name_is_listed(tmp_path: Path, mode: str) -> None:
    """A client that hears ``notifications/tools/list_changed`` (2026-07-28:
    on its listen stream; handshake era: on its session) lists the new
    version at once, although its copy had 60 s to live (``ttlMs``)."""
    exports = tmp_path / "exports"
    write_export(exports, "one.yaml", EVERYONE.replace("For all.", "Version one."))
    client = stdio_client_opts(exports, tmp_path / "state", mode, "--watch")
    async with client:

        async def description() -> str | None:
            return (await client.list_tools()).tools[0].description

        async with contextlib.AsyncExitStack() as stack:
            sub = None
            if mode == "auto":
                sub = await stack.enter_async_context(client.listen(tools_list_changed=True))
            assert await description() == "Version one."
            assert await description() == "Version one."  # now from a cache
            write_export(exports, "one.yaml", EVERYONE.replace("For all.", "Version two."))
            with anyio.fail_after(15):
                if sub is not None:
                    await sub.__anext__()  # the client drops its copy before this returns
                    assert await description() == "Version two."
                while await description() != "Version two.":
                    await anyio.sleep(0.05)


async def test_a_listing_says_how_long_it_may_be_reused(tmp_path: Path) -> None:
    """``ttlMs`` is ``--list-ttl`` (default 60 s), ``cacheScope`` private:
    what a caller sees depends on ``allow:``."""
    exports = tmp_path / "exports"
    write_export(exports, "everyone.yaml", EVERYONE)
    for extra, ttl_ms in (((), 60_000), (("--list-ttl", "2.5"), 2_500), (("--list-ttl", "0"), 0)):
        async with stdio_client_opts(exports, tmp_path / "state", "auto", *extra) as client:
            listing = await client.list_tools()
            assert (listing.ttl_ms, listing.cache_scope) == (ttl_ms, "private"), extra


async def test_a_client_that_does_not_listen_lists_its_copy_until_the_ttl(
    tmp_path: Path,
) -> None:
    """The cost of ``ttlMs``: a 2026-07-28 client that does not listen keeps
    listing the copy it has for up to ``--list-ttl`` seconds after a reload;
    with ``--list-ttl 0`` it lists the server's every time."""
    for ttl in ("60", "0"):
        exports, log = tmp_path / ttl / "exports", tmp_path / ttl / "server.log"
        write_export(exports, "one.yaml", EVERYONE.replace("For all.", "Version one."))
        with log.open("w") as errlog:
            client = stdio_client_opts(
                exports,
                tmp_path / ttl / "state",
                "auto",
                "--watch",
                "--list-ttl",
                ttl,
                errlog=errlog,
                server_log_level="info",
            )
            async with client:
                assert (await client.list_tools()).tools[0].description == "Version one."
                write_export(exports, "one.yaml", EVERYONE.replace("For all.", "Version two."))
                with anyio.fail_after(15):
                    while "reload: now publishing" not in log.read_text():
                        await anyio.sleep(0.05)
                listed = (await client.list_tools()).tools[0].description
        assert listed == ("Version one." if ttl == "60" else "Version two."), ttl


def test_a_cached_answer_is_the_first_answer_byte_for_byte(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "everyone.yaml", EVERYONE)
    write_export(exports, "ops_only.yaml", only("ops_only", "group:ops"))
    requests: list[dict[str, Any]] = [
        *raw_handshake(),
        *({"jsonrpc": "2.0", "id": n, "method": "tools/list"} for n in (2, 3, 4)),
        {"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"cursor": 7}},
    ]
    proc = subprocess.Popen(
        serve_argv(exports),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=server_env(tmp_path / "state"),
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    answers: dict[int, dict[str, Any]] = {}
    try:
        for request in requests:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            while "id" in request and request["id"] not in answers:
                message = json.loads(proc.stdout.readline())
                if "id" in message:
                    answers[message["id"]] = message
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    assert [t["name"] for t in answers[2]["result"]["tools"]] == ["everyone"]
    assert answers[2]["result"] == answers[3]["result"] == answers[4]["result"]
    first = json.dumps(answers[2]["result"], sort_keys=True)
    assert json.dumps(answers[4]["result"], sort_keys=True) == first
    assert answers[5]["error"]["code"] == -32602  # malformed: the SDK's check, not the cache


async def test_at_most_max_answers_are_kept_per_registry(tmp_path: Path) -> None:
    """40 principals, each with a tool of their own: 40 views. The cache keeps
    the newest `MAX_ANSWERS`; an evicted view is built again, correctly."""
    from types import SimpleNamespace

    from mcp_harbor.config import load_exports
    from mcp_harbor.identity import Caller, use_caller
    from mcp_harbor.server import Registry
    from mcp_harbor.server.listing import MAX_ANSWERS, ListingCache

    folder = tmp_path / "exports"
    for n in range(40):
        write_export(folder, f"t{n}.yaml", only(f"t{n}", f"user{n}"))
    registry = Registry(load_exports([folder]))
    cache = ListingCache(SimpleNamespace(registry=registry))  # type: ignore[arg-type]
    built: list[str] = []

    async def call_next(ctx: Any) -> dict[str, Any]:
        built.append(ctx.who)
        return {"tools": [{"name": t.name} for t in registry.visible_tools(ctx.caller)]}

    async def listing(n: int) -> list[str]:
        caller = Caller(transport="http", principal=f"user{n}")
        ctx = SimpleNamespace(
            method="tools/list",
            params=None,
            protocol_version="2026-07-28",
            session=None,
            who=f"user{n}",
            caller=caller,
        )
        with use_caller(caller):
            answer = await cache(ctx, call_next)  # type: ignore[arg-type]
        return [t["name"] for t in answer["tools"]]

    for n in range(40):
        assert await listing(n) == [f"t{n}"]
    assert len(registry.answers) == MAX_ANSWERS
    built.clear()
    assert await listing(39) == ["t39"] and built == []  # kept
    assert await listing(0) == ["t0"] and built == ["user0"]  # evicted: built again
