"""Issue 10: two server replicas on one PostgreSQL keep one audit chain.

Two real ``mcp-harbor serve --transport http --db postgresql://…`` processes
share one database; many MCP clients call both at the same time. Then the
real ``mcp-harbor audit verify`` passes on that database, every call is
recorded once (one start and one end record, no call lost or doubled), and
both replicas wrote into the same chain.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import psycopg
import pytest
from harbor_helpers import bearer_client, harbor_cli, http_server, text_of, write_export

pytestmark = pytest.mark.anyio

PING = """
    name: ping
    description: Answers pong with the caller's word.
    args:
      word: {type: string, pattern: '^[a-z0-9-]+$'}
    required: [word]
    steps:
      - name: answer
        run: echo pong {{ args.word }}
"""

CLIENTS_PER_REPLICA = 12
CALLS_PER_CLIENT = 4


async def test_two_replicas_write_one_chain(tmp_path: Path, pg_dsn: str) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "ping.yaml", PING)
    # The postgres:// spelling is accepted as well as postgresql://.
    alias = "postgres://" + pg_dsn.removeprefix("postgresql://")
    answers: dict[str, str] = {}

    with (
        http_server(exports, tmp_path / "s1", "--db", pg_dsn) as one,
        http_server(exports, tmp_path / "s2", "--db", alias) as two,
    ):

        async def client(url: str, name: str) -> None:
            async with bearer_client(url, None, "auto") as c:
                for i in range(CALLS_PER_CLIENT):
                    word = f"{name}-{i}"
                    result = await c.call_tool("ping", {"word": word})
                    assert not result.is_error, text_of(result)
                    answers[word] = text_of(result)

        with anyio.fail_after(120):
            async with anyio.create_task_group() as tg:
                for n in range(CLIENTS_PER_REPLICA):
                    tg.start_soon(client, one.url, f"a{n}")
                    tg.start_soon(client, two.url, f"b{n}")
        pids = {one.pid, two.pid}

    total = 2 * CLIENTS_PER_REPLICA * CALLS_PER_CLIENT
    assert len(answers) == total
    assert all(f"pong {w}" in text for w, text in answers.items())

    verified = harbor_cli("audit", "verify", "--db", pg_dsn, check=False)
    assert verified.returncode == 0, verified.stderr
    assert f"audit trail OK: {2 * total} records, chain intact" in verified.stdout
    assert "postgresql://" in verified.stdout

    listed = harbor_cli("audit", "--db", alias, "--json", "--limit", "100000").stdout.splitlines()
    calls = [json.loads(line) for line in listed]
    assert len(calls) == total
    assert len({c["call_id"] for c in calls}) == total
    assert {c["status"] for c in calls} == {"ok"}
    assert sorted(c["arguments"]["word"] for c in calls) == sorted(answers)

    with psycopg.connect(pg_dsn) as con:
        per_call = con.execute(
            "SELECT call_id, count(*) FILTER (WHERE kind = 'start'),"
            " count(*) FILTER (WHERE kind = 'end') FROM audit GROUP BY call_id"
        ).fetchall()
        writers = con.execute(
            "SELECT DISTINCT (body::json -> 'server' ->> 'pid')::int FROM audit"
            " WHERE kind = 'start'"
        ).fetchall()
        seqs = [r[0] for r in con.execute("SELECT seq FROM audit ORDER BY seq").fetchall()]
    assert len(per_call) == total
    assert all((starts, ends) == (1, 1) for _, starts, ends in per_call)
    assert {w[0] for w in writers} == pids
    assert seqs == list(range(1, 2 * total + 1))


def test_cli_tampering_on_postgres_fails_verify(pg_dsn: str) -> None:
    """``audit verify`` exits 1 and names the record on PostgreSQL too."""
    from mcp_harbor.store.postgres import PostgresStore

    store = PostgresStore(pg_dsn)
    try:
        for i in range(4):
            store.append(f"c{i}", "call", "alice", "t", "denied", {"i": i})
    finally:
        store.close()
    with psycopg.connect(pg_dsn) as con:
        con.execute("UPDATE audit SET status = 'ok' WHERE seq = 2")
    proc = harbor_cli("audit", "verify", "--db", pg_dsn, check=False)
    assert proc.returncode == 1
    assert "TAMPERED: record 2 (call c1, call): its content was changed" in proc.stderr
