"""`mcp_harbor.runner.scrub.Scrubber` against what real bash prints.

Each secret holds a marker that appears nowhere else, so any piece of it
that survives scrubbing is found; the transformed forms are made by real
bash (``printf %q``, ``set -x``) and by ``json``, never by the scrubber.
Streams and files are scrubbed in pieces: a secret split across a chunk
boundary, or across the 4 KiB cut of a streamed line, must not survive.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from mcp_harbor.runner.follow import _LINE_MAX, _Tail
from mcp_harbor.runner.scrub import REDACTED, Scrubber

VALUES = [
    "plain-MK0X-value",
    'it\'s MK1X a "quoted" $value',
    "back\\slash MK2X and `tick` (paren) [br] {cu} | & ; < > ? * ! ^",
    "#hash-start MK3X",
    "~tilde-start MK4X",
    "tab\tMK5X\x01ctl\x1besc\x7fdel",
    "non-ascii é ü — MK6X",
    "two\nlines MK7X\nthree",
]
MARKERS = [f"MK{n}X" for n in range(len(VALUES))]


def bash_prints(value: str, locale: str = "C") -> str:
    """What real bash prints for `value` in `locale`: raw, ``%q``, ``set -x``
    of it as a word and inside a larger word (stdout and stderr together)."""
    script = 'printf "%s\\n" "$V"; printf "%q\\n" "$V"; set -x; : "$V" "k=$V"; set +x'
    proc = subprocess.run(
        ["bash", "-c", script],
        env={"V": value, "PATH": os.environ["PATH"], "LC_ALL": locale},
        capture_output=True,
        check=True,
    )
    return (proc.stdout + proc.stderr).decode("utf-8")


def json_prints(value: str) -> str:
    return json.dumps({"v": value}) + "\n" + json.dumps([value], ensure_ascii=False) + "\n"


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
@pytest.mark.parametrize("value", VALUES)
def test_no_marker_survives_what_bash_and_json_print(value: str, locale: str) -> None:
    marker = MARKERS[VALUES.index(value)]
    text = bash_prints(value, locale) + json_prints(value)
    assert marker in text
    scrubbed = Scrubber(VALUES).scrub(text)
    assert marker not in scrubbed, scrubbed
    assert REDACTED in scrubbed
    # bytes, as files and streams are scrubbed
    assert marker.encode() not in Scrubber(VALUES).scrub_bytes(text.encode())


def test_short_values_are_not_scrubbed() -> None:
    scrubber = Scrubber(["ab", "", "x"])
    assert not scrubber
    assert scrubber.scrub("ab x") == "ab x"
    assert Scrubber(["abc"]).scrub("xabcx") == "x***x"


def test_the_longest_form_goes_first() -> None:
    # A line of a multi-line secret is a form too; the whole value wins.
    scrubber = Scrubber(["line-one\nline-two"])
    assert scrubber.scrub("line-one\nline-two") == REDACTED
    assert scrubber.scrub("only line-two here") == "only *** here"


def test_scrub_value_reaches_into_json() -> None:
    scrubber = Scrubber(["s3cr3t"])
    assert scrubber.scrub_value({"a": ["x s3cr3t", 1, None], "s3cr3t": True}) == {
        "a": ["x ***", 1, None],
        "***": True,
    }


def test_a_stream_scrubbed_in_any_pieces_equals_the_whole() -> None:
    scrubber = Scrubber(VALUES)
    text = "".join(f"noise {i} " + bash_prints(v) for i, v in enumerate(VALUES)).encode()
    whole = scrubber.scrub_bytes(text)
    rng = random.Random(19)
    for _ in range(200):
        out, rest, at = [], b"", 0
        while at < len(text):
            step = rng.randint(1, 40)
            done, rest = scrubber.scrub_stream(rest + text[at : at + step])
            out.append(done)
            at += step
        out.append(scrubber.scrub_bytes(rest))
        assert b"".join(out) == whole


def test_a_big_file_is_scrubbed_in_place_streaming(tmp_path: Path) -> None:
    secret = "Zq7-secret-Kx9"
    scrubber = Scrubber([secret])
    path = tmp_path / "big.log"
    chunk = 1 << 20
    with open(path, "wb") as fh:
        for _ in range(3):  # each secret across a 1 MiB read boundary
            fh.write(b"." * (chunk - 5 - (fh.tell() % chunk)))
            fh.write(secret.encode())
        fh.write(b"end\n")
    done = scrubber.scrub_file(path)
    data = path.read_bytes()
    assert done.changed and secret.encode() not in data and data.count(b"***") == 3
    assert b"Kx9" not in data and b"Zq7" not in data
    assert done.size == len(data) and done.sha256 == hashlib.sha256(data).hexdigest()
    assert path.stat().st_mode & 0o777 == 0o600
    inode = path.stat().st_ino
    again = scrubber.scrub_file(path)  # nothing left: read once, not rewritten
    assert not again.changed and path.stat().st_ino == inode
    assert again.sha256 == done.sha256


def test_a_streamed_line_cut_at_4_kib_keeps_no_piece_of_a_secret(tmp_path: Path) -> None:
    secret = "Zq7-secret-in-a-long-line-Kx9"
    path = tmp_path / "out.log"
    path.write_bytes(b"")
    tail = _Tail(path, "stdout", Scrubber([secret]))
    lines: list[str] = []
    # The secret straddles the 4 KiB line cut, and arrives in two writes.
    first = b"." * (_LINE_MAX - 10) + secret[:15].encode()
    with open(path, "ab") as fh:
        fh.write(first)
    lines += tail.read(final=False)
    with open(path, "ab") as fh:
        fh.write(secret[15:].encode() + b"..." + b"\n" + secret.encode() + b"\n")
    lines += tail.read(final=False)
    lines += tail.read(final=True)
    joined = "\n".join(lines)
    assert "Zq7" not in joined and "Kx9" not in joined and "secret" not in joined, lines
    assert joined.count("***") == 2


#: Every way bash itself prints a variable's value, quoted or not: each
#: construct is run by real bash, and its output (stdout and stderr) is what
#: the scrubber must clean. ``R`` and ``L`` hold the secret too (readonly,
#: local), so that ``readonly -p`` and ``local -p`` print it.
BASH_CONSTRUCTS = {
    "raw": 'printf "%s\\n" "$V"',
    "printf %q": 'printf "%q\\n" "$V"',
    "@Q": 'printf "%s\\n" "${V@Q}"',
    "declare -p": "declare -p V",
    "typeset -p": "typeset -p V",
    "export -p": "export -p",
    "readonly -p": 'readonly R="$V"; readonly -p',
    "local -p": 'f() { local L="$V"; local -p; }; f',
    "declare -p array": 'A=("$V" x); declare -p A',
    "set": "set",
    "env": "env",
    "printenv": "printenv V",
    "xtrace word": 'set -x; : "$V" "k=$V"',
    "xtrace pattern": 'set -x; [[ x == "$V" ]]; [[ x != *"$V"* ]]',
    "xtrace regex": 'set -x; [[ x =~ "$V" ]]; [[ x =~ ^"$V"$ ]]',
    "xtrace test": 'set -x; [[ "$V" == x ]]; [[ -n "$V" ]]; test "$V" = x',
    "xtrace @Q": 'set -x; x=${V@Q}; : "$x"',
    "xtrace declare": 'set -x; y=$(declare -p V); : "$y"',
    "xtrace %q": 'set -x; printf -v q "%q" "$V"; : "$q"',
    "xtrace local": "set -x; f() { local L=$V; }; f",
    "verbose eval": 'set -v; eval "x=$(printf %q "$V")"',
}

#: Secrets of every kind of character, each holding a marker found nowhere
#: else: letters and digits, spaces, quotes, backslashes, `$`, a newline,
#: control characters and non-ASCII letters.
SAMPLES = [
    "letters123MKaX",
    "with spaces MKbX and more",
    "quotes ' and \" MKcX",
    "back\\slash\\\\ MKdX \\",
    "dollar $HOME ${x} MKeX `cmd` $(cmd)",
    "line one\nMKfX line two",
    "ctl\x01\x02\tMKgX\x1b\x7f",
    "non-ascii é ü — ✓ MKhX",
    "all 'of\" them\\ $x\né\t MKiX *?[]{}()|&;<>^!#~%=+,",
    "-starts-with-dash MKjX",
    "#starts with hash MKkX",
    "~starts with tilde MKlX",
]


def run_bash(script: str, value: str, locale: str) -> str:
    proc = subprocess.run(
        ["bash", "-c", script],
        env={"V": value, "PATH": os.environ["PATH"], "LC_ALL": locale},
        capture_output=True,
        check=False,
    )
    return (proc.stdout + proc.stderr).decode("utf-8", "surrogateescape")


def recoverable(marker: str, text: str) -> bool:
    """Whether `marker` (letters and digits) can be read back from `text`:
    as it is, or with the backslashes bash's quoting puts before any
    character taken away."""
    return marker in text or marker in text.replace("\\", "")


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
@pytest.mark.parametrize("construct", sorted(BASH_CONSTRUCTS))
def test_no_form_bash_prints_survives(construct: str, locale: str) -> None:
    script = BASH_CONSTRUCTS[construct]
    scrubber = Scrubber(SAMPLES)
    for value in SAMPLES:
        marker = value[value.index("MK") : value.index("MK") + 4]
        printed = run_bash(script, value, locale)
        assert recoverable(marker, printed), (construct, value, printed)  # not vacuous
        for scrubbed in (
            scrubber.scrub(printed),
            scrubber.scrub_bytes(printed.encode("utf-8", "surrogateescape")).decode(
                "utf-8", "surrogateescape"
            ),
        ):
            assert not recoverable(marker, scrubbed), (construct, value, scrubbed)


def test_random_secrets_in_every_form() -> None:
    # Values drawn from every class of character bash quotes differently.
    alphabet = "abcXYZ019 \t\n'\"\\$`!#%&()*+,-./:;<=>?@[]^_{|}~\x01\x02\x1b\x7féü—✓"
    rng = random.Random(34)
    script = "; ".join(BASH_CONSTRUCTS.values())
    for n in range(40):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(3, 12)))
        marker = f"MR{n:02d}Q"
        value = body[: len(body) // 2] + marker + body[len(body) // 2 :]
        scrubber = Scrubber([value])
        for locale in ("C", "C.UTF-8"):
            printed = run_bash(script, value, locale)
            assert recoverable(marker, printed)
            assert not recoverable(marker, scrubber.scrub(printed)), (value, locale)


def test_scrubbing_stays_fast() -> None:
    # Every log passes through the scrubber: 8 MiB of text without a
    # secret, with three secrets' forms to look for, in well under a second.
    scrubber = Scrubber(SAMPLES[:3])
    text = ("an ordinary log line with 'quotes', \\backslashes\\ and $vars\n" * 140_000).encode()
    import time

    start = time.perf_counter()
    assert scrubber.scrub_bytes(text) == text
    assert time.perf_counter() - start < 2.0
