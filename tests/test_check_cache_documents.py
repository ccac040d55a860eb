"""Issue 25, start of 1,000 exports: what reading an export file gave is
kept with the checker's verdicts (`mcp_harbor.config.yaml_source.documents`,
written by `mcp_harbor.check.cachefile`), so a later start does not parse
the same bytes again, and never at the cost of what a read means.

Each test is two "starts" in one process, as in tests/test_check_cachefile.py:
load and check with a cache file, forget everything in memory, then again
from the file. `documents.hits` counts the reads a kept document answered:
every file on a start from a good cache, none when the file is ignored.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from harbor_helpers import rewrite_check_cache, write_export

from mcp_harbor.check import cachefile, clear_cache, load_and_check
from mcp_harbor.config import load_export
from mcp_harbor.config.yaml_source import documents, read_yaml
from mcp_harbor.errors import ConfigError

HEAD = "description: d\nargs:\n  x: {type: string}\nsteps:\n  - name: s\n"
GOOD = f'name: good\n{HEAD}    run: |\n      echo start\n      echo "$ARG_x"\n'
BAD = f"name: bad\n{HEAD}    run: echo {{{{ args.x }}}}\n"

pytestmark = pytest.mark.usefixtures("fresh_checker")


def restart() -> None:
    """Forget every in-memory verdict and document, as a new process would."""
    clear_cache()
    cachefile.detach()


def start(folder: Path, cache: Path) -> dict[str, Any]:
    checked = load_and_check([folder], cache_file=cache)
    return {
        e.name: (r.status, e.content_hash, e.input_schema, e.spec.model_dump())
        for e, r in zip(checked.exports, checked.reports, strict=True)
    }


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    exports = tmp_path / "exports"
    write_export(exports, "good.yaml", GOOD)
    write_export(exports, "bad.yaml", BAD)
    return exports


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "state" / "check-cache"


def test_a_cached_start_parses_no_file_and_loads_the_same_exports(
    folder: Path, cache: Path
) -> None:
    first = start(folder, cache)
    assert documents.hits == 0
    restart()
    assert start(folder, cache) == first
    assert documents.hits == 2
    assert first["bad"][0] == "refused" and first["good"][0] == "accepted"


def test_positions_on_a_cached_start_are_the_parsed_ones(folder: Path, cache: Path) -> None:
    parsed = load_and_check([folder], cache_file=cache).exports
    where = [("steps", 0, "run"), ("args", "x"), ("name",), ("steps", 0, "name")]
    expected = [
        [e.source.line_of(w) for w in where] + [e.locate(("steps", 0, "run"), 11)] for e in parsed
    ]
    restart()
    cached = load_and_check([folder], cache_file=cache).exports
    assert documents.hits == 2
    got = [
        [e.source.line_of(w) for w in where] + [e.locate(("steps", 0, "run"), 11)] for e in cached
    ]
    assert got == expected


def test_an_edited_file_is_parsed_again(folder: Path, cache: Path) -> None:
    start(folder, cache)
    write_export(folder, "bad.yaml", BAD.replace("echo {{ args.x }}", 'echo "$ARG_x"'))
    restart()
    after = start(folder, cache)
    assert documents.hits == 1  # good.yaml only
    assert after["bad"][0] == "accepted"
    assert "$ARG_x" in after["bad"][3]["steps"][0]["run"]


@pytest.mark.parametrize(
    ("text", "where", "kept"),
    [
        (f"name: broken\n{HEAD}    run: [unclosed\n", "broken.yaml:8:1: invalid YAML", 2),
        (f"name: broken\nname: again\n{HEAD}    run: echo\n", "broken.yaml:2: duplicate key", 2),
        (f"name: broken\n{HEAD}    run: echo\n    nope: 1\n", "broken.yaml:8: unknown key", 2),
    ],
    ids=["syntax", "duplicate-key", "unknown-key"],
)
def test_a_file_that_fails_to_load_still_names_file_and_line(
    folder: Path, cache: Path, text: str, where: str, kept: int
) -> None:
    write_export(folder, "broken.yaml", text)
    with pytest.raises(ConfigError) as uncached:
        load_and_check([folder])  # no cache file at all: the message as it always was
    assert where in str(uncached.value)
    restart()
    (folder / "broken.yaml").rename(folder / "broken.yaml.off")
    start(folder, cache)
    (folder / "broken.yaml.off").rename(folder / "broken.yaml")
    restart()
    with pytest.raises(ConfigError):
        start(folder, cache)  # the good files come from the cache file; it keeps what it read
    for _ in range(2):
        restart()
        with pytest.raises(ConfigError) as caught:
            start(folder, cache)
        assert str(caught.value) == str(uncached.value)
        assert documents.hits == kept  # a file that failed to load is not kept: parsed each time


def test_an_invalid_export_read_from_a_kept_document_names_file_and_line(
    tmp_path: Path,
) -> None:
    """Valid YAML, an invalid export: the kept document answers the read,
    and the message's line comes from the file's text, as before."""
    path = write_export(tmp_path, "e.yaml", f"name: e\n{HEAD}    run: echo\n    nope: 1\n")
    documents.recording = True
    try:
        messages = []
        for _ in range(2):
            with pytest.raises(ConfigError) as caught:
                load_export(path)
            messages.append(str(caught.value))
    finally:
        documents.recording = False
    assert documents.hits == 1
    assert messages[0] == messages[1]
    assert f"{path}:8: unknown key 'nope'" in messages[1]


def test_a_damaged_file_is_ignored_and_every_file_parsed(folder: Path, cache: Path) -> None:
    first = start(folder, cache)
    raw = cache.read_bytes()
    cache.write_bytes(raw.replace(b"echo start", b"rm -rf /x"))  # not signed again
    restart()
    assert start(folder, cache) == first
    assert documents.hits == 0


def test_documents_of_another_checker_are_not_reused(folder: Path, cache: Path) -> None:
    first = start(folder, cache)

    def other_checker(data: dict[str, Any]) -> None:
        data["checker"] = "0" * 64

    rewrite_check_cache(cache, other_checker)
    restart()
    assert start(folder, cache) == first
    assert documents.hits == 0


def test_a_document_kept_for_other_bytes_is_not_used(folder: Path, cache: Path) -> None:
    """The key is the hash of the bytes read now: a kept document is found
    only for the bytes it was read from."""
    start(folder, cache)

    def swap(data: dict[str, Any]) -> None:
        good = hashlib.sha256((folder / "good.yaml").read_bytes()).hexdigest()
        kept = data["documents"].pop(good)
        data["documents"]["0" * 64] = kept

    rewrite_check_cache(cache, swap)
    restart()
    after = start(folder, cache)
    assert documents.hits == 1  # bad.yaml; good.yaml parsed again
    assert after["good"][0] == "accepted"


@pytest.mark.parametrize(
    "text",
    [
        "name: shared\ndescription: d\nargs:\n  x: &s {type: string}\n  y: *s\n"
        'steps:\n  - name: s\n    run: echo "$ARG_x"\n',
        "name: dated\ndescription: d\nx-when: 2026-12-02\nargs: {}\nsteps:\n"
        "  - name: s\n    run: echo\n",
    ],
    ids=["alias", "date"],
)
def test_data_json_cannot_carry_is_parsed_every_time(tmp_path: Path, text: str) -> None:
    path = write_export(tmp_path, "e.yaml", text)
    before = len(documents)
    documents.recording = True
    try:
        read_yaml(path)
        read_yaml(path)
    finally:
        documents.recording = False
    assert len(documents) == before
    assert documents.hits == 0


def test_a_hit_gives_fresh_data(tmp_path: Path) -> None:
    path = write_export(tmp_path, "e.yaml", GOOD)
    documents.recording = True
    try:
        data, _smap, _raw = read_yaml(path)
        data["steps"].clear()  # type: ignore[attr-defined]
        again, _smap, _raw = read_yaml(path)
    finally:
        documents.recording = False
    assert documents.hits == 1
    assert again["steps"][0]["name"] == "s"
    assert again == read_yaml(path)[0]
