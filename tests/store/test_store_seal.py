"""Issue 20: signed checkpoints of the chain, on SQLite and PostgreSQL.

A `Sealer` over a real store signs the chain's head into a real witness
file; ``mcp-harbor audit verify`` (click's runner, over the same store)
then checks every checkpoint: the attack the chain alone misses (records
cut from the tail, ``meta.head`` rewritten to the last row left) is caught
once a checkpoint covered them; so are a forged witness line (bad MAC) and a
covered record rewritten. Records after the latest checkpoint are reported
as not yet covered; without a witness file the chain is still checked.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_harbor.cli import main
from mcp_harbor.store.base import Store
from mcp_harbor.store.seal import Checkpoint, Sealer, check_witness, load_key, store_name

Tamper = Callable[..., None]


@pytest.fixture
def key(tmp_path: Path) -> Path:
    path = tmp_path / "cfg" / "audit.key"
    load_key(path, create=True)
    return path


def _verify(db: str, key: Path, witness: Path) -> tuple[int, str, str]:
    runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80"})
    result = runner.invoke(
        main,
        ["audit", "verify", "--db", db, "--audit-key", str(key), "--audit-witness", str(witness)],
        catch_exceptions=False,
    )
    return result.exit_code, result.stdout, result.stderr


def _calls(store: Store, n: int, sealer: Sealer | None = None, start: int = 0) -> None:
    for i in range(start, start + n):
        store.append(f"c{i}", "call", "alice", "build", "ok", {"i": i})
        if sealer is not None:
            sealer.noted()


def _sealed(store: Store, key: Path, witness: Path, n: int) -> Sealer:
    """`n` records, then one checkpoint of the head."""
    sealer = Sealer(store, load_key(key, create=False), witness, every=10_000, interval=3600)
    _calls(store, n)
    assert sealer.seal() is not None
    return sealer


def test_every_checkpoint_holds_and_the_records_after_it_are_not_yet_covered(
    store: Store, db: str, key: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "cfg" / "audit.witness"
    _sealed(store, key, witness, 4)
    _calls(store, 2, start=4)
    code, out, err = _verify(db, key, witness)
    (line,) = witness.read_text().splitlines()
    at = json.loads(line)["at"]
    assert (code, err) == (0, "")
    assert out == (
        f"audit trail OK: 6 records, chain intact, 4 covered by checkpoint 1 signed {at}; "
        f"2 after it not yet covered ({store.location})\n"
    )
    assert os.stat(witness).st_mode & 0o777 == 0o600


def test_the_head_covered_whole_says_so(store: Store, db: str, key: Path, tmp_path: Path) -> None:
    witness = tmp_path / "w"
    _sealed(store, key, witness, 3)
    code, out, _ = _verify(db, key, witness)
    at = json.loads(witness.read_text())["at"]
    assert code == 0
    assert out.startswith(
        f"audit trail OK: 3 records, chain intact, all covered by checkpoint 1 signed {at}"
    )


def test_a_truncated_tail_with_its_head_rewritten_is_detected(
    store: Store, db: str, key: Path, tmp_path: Path, tamper: Tamper
) -> None:
    witness = tmp_path / "w"
    _sealed(store, key, witness, 6)
    last_kept = store.records()[3]
    # The attack the chain alone misses: cut the tail, point the head at
    # the last row left. The chain is a valid chain of 4.
    tamper(
        "DELETE FROM audit WHERE seq > 4",
        f"UPDATE meta SET value = '4:{last_kept.hash}' WHERE key = 'head'",
    )
    assert store.verify().ok
    code, out, err = _verify(db, key, witness)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"TAMPERED: witness {witness} line 1 (checkpoint of record 6): the chain has no "
        "record 6: records up to 6 were deleted (truncation)",
        f"audit trail FAILED verification: 1 problem(s) in {store.location}",
    ]


def test_a_forged_witness_line_is_detected(
    store: Store, db: str, key: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "w"
    _sealed(store, key, witness, 3)
    head = store.head()
    assert head is not None
    forged = Checkpoint.signed(b"k" * 32, store_name(store), *head, "2026-12-02T04:00:00Z")
    with witness.open("a") as f:
        f.write(forged.line() + "\n")
    code, _, err = _verify(db, key, witness)
    assert code == 1
    assert err.splitlines()[0] == (
        f"TAMPERED: witness {witness} line 2 (checkpoint of record 3): its signature does not "
        "match: the line was forged or the key is wrong"
    )


def test_a_covered_record_rewritten_is_detected(
    store: Store, db: str, key: Path, tmp_path: Path, tamper: Tamper
) -> None:
    """Rewrite the tail consistently (new hashes, new head): the chain holds,
    the checkpoint does not."""
    witness = tmp_path / "w"
    _sealed(store, key, witness, 3)
    records = store.records()
    # Delete the last record and append a different one through the store:
    # a valid chain of 3 whose record 3 is not the one signed.
    tamper(
        "DELETE FROM audit WHERE seq = 3",
        f"UPDATE meta SET value = '2:{records[1].hash}' WHERE key = 'head'",
    )
    store.append("c2", "call", "alice", "build", "failed", {"i": 2})
    assert store.verify().ok
    code, _, err = _verify(db, key, witness)
    assert code == 1
    assert err.splitlines()[0] == (
        f"TAMPERED: witness {witness} line 1 (checkpoint of record 3): record 3 has another "
        "hash than the one signed: the chain was rewritten"
    )


def test_without_a_witness_the_chain_is_still_checked(
    store: Store, db: str, key: Path, tmp_path: Path, tamper: Tamper
) -> None:
    _calls(store, 3)
    missing = tmp_path / "none.witness"
    code, out, _ = _verify(db, key, missing)
    assert code == 0
    assert out == (
        "audit trail OK: 3 records, chain intact; not covered by any checkpoint: no witness "
        f"file at {missing} ({store.location})\n"
    )
    tamper("UPDATE meta SET value = 'x:y' WHERE key = 'head'")
    code, out, err = _verify(db, key, missing)
    assert (code, out) == (1, "")
    assert "TAMPERED: the chain's head in the meta table is malformed ('x:y'" in err


def test_sealer_signs_every_n_records_and_at_close_in_its_thread(
    store: Store, key: Path, tmp_path: Path
) -> None:
    witness = tmp_path / "w"
    sealer = Sealer(store, load_key(key, create=False), witness, every=5, interval=3600)
    _calls(store, 4, sealer)
    time.sleep(0.2)
    assert not witness.exists()  # not before the 5th record
    _calls(store, 8, sealer, start=4)  # the 5th and the 10th ask for one
    deadline = time.monotonic() + 10
    while (sealer.sealed or 0) < 10 and time.monotonic() < deadline:
        time.sleep(0.01)  # the thread writes it
    assert 10 <= (sealer.sealed or 0) <= 12
    written = sealer.written
    sealer.close()
    seqs = [json.loads(line)["seq"] for line in witness.read_text().splitlines()]
    assert seqs[-1] == 12 and len(seqs) in (written, written + 1)
    sealer.close()  # idempotent: nothing new, nothing written
    report = check_witness(
        store_name(store),
        lambda: {r.seq: r.hash for r in store.records()},
        witness,
        load_key(key, create=False),
    )
    assert (report.problems, report.checkpoints, report.records_after) == ([], len(seqs), 0)


def test_sealer_signs_new_records_every_interval(store: Store, key: Path, tmp_path: Path) -> None:
    witness = tmp_path / "w"
    sealer = Sealer(store, load_key(key, create=False), witness, every=10_000, interval=0.1)
    try:
        _calls(store, 1, sealer)
        deadline = time.monotonic() + 10
        while sealer.sealed != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sealer.sealed == 1
        time.sleep(0.3)
        assert sealer.written == 1  # nothing new: nothing signed again
    finally:
        sealer.close()
