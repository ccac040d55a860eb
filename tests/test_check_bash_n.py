"""Issue 7, scale: ``bash -n`` runs in the background, one process per
script, while the checker analyses. Whatever the order in which verdicts
arrive, each script is judged by its own ``bash -n`` (no batching: one
script's unterminated construct can never hide another's error), and a
refusal still names its export, file, line and the command.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.check import check_exports, clear_cache, load_and_check
from mcp_harbor.check._bash_n import Pool
from mcp_harbor.check._gates import _BASH, bash_syntax_error, prime
from mcp_harbor.config import load_exports
from tests.check.corpus import corpus

HEAD = "description: d\nargs:\n  x: {type: string}\nsteps:\n"


pytestmark = pytest.mark.usefixtures("fresh_checker")


def export(name: str, *scripts: str) -> str:
    steps = "".join(
        f"  - name: s{i}\n    run: |\n" + "".join(f"      {line}\n" for line in s.splitlines())
        for i, s in enumerate(scripts)
    )
    return f"name: {name}\n{HEAD}{steps}"


def test_each_bash_refusal_names_its_own_export_line_and_command(tmp_path: Path) -> None:
    # A stray `fi` or `done` (tree-sitter accepts them, only bash refuses)
    # among many accepted scripts whose verdicts arrive in any order.
    folder = tmp_path / "exports"
    for i in range(40):
        write_export(folder, f"e{i:02d}.yaml", export(f"ok{i:02d}", f'echo "$ARG_x" {i}'))
    write_export(folder, "e20a.yaml", export("stray_fi", 'echo "$ARG_x"', "echo b\nfi"))
    write_export(folder, "e20b.yaml", export("stray_done", "done"))
    write_export(folder, "e20c.yaml", export("opens", "true && {\n  echo c\n}"))
    checked = load_and_check([folder])
    by_name = {r.name: r for r in checked.reports}
    assert {r.name for r in checked.refused} == {"stray_fi", "stray_done"}
    assert all(by_name[f"ok{i:02d}"].status == "accepted" for i in range(40))
    assert by_name["opens"].status == "accepted"
    (fi,) = by_name["stray_fi"].findings
    assert fi.rule == "H000" and fi.step == "s1"
    assert "bash cannot read the script" in fi.message and "`fi'" in fi.message
    # line of the second step's script in e20a.yaml (its `run: |` block)
    lines = (folder / "e20a.yaml").read_text().splitlines()
    assert lines[fi.line - 1].strip() == "echo b"
    assert by_name["stray_fi"].file.endswith("e20a.yaml")
    (done,) = by_name["stray_done"].findings
    assert done.rule == "H000" and "`done'" in done.message


def test_a_script_larger_than_a_pipe_is_fed_whole(tmp_path: Path) -> None:
    body = "echo line\n" * 20_000  # 200 KB: more than a pipe holds
    assert bash_syntax_error(body) is None
    assert "`fi'" in (bash_syntax_error(body + "fi\n") or "")
    assert "here-document" in (bash_syntax_error(body + "cat <<EOF\nx\n") or "")


def test_verdicts_primed_in_the_background_match_one_at_a_time() -> None:
    texts = [f"echo {i}" if i % 7 else f"echo {i}\nfi" for i in range(60)]
    prime(texts)
    background = [bash_syntax_error(t) for t in texts]
    clear_cache()
    alone = []
    for text in texts:
        alone.append(bash_syntax_error(text))
    assert background == alone
    assert [v is None for v in alone] == [bool(i % 7) for i in range(60)]


def test_check_exports_is_the_same_with_or_without_primed_verdicts(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    write_export(folder, "a.yaml", export("a", "echo {{ args.x }}"))
    write_export(folder, "b.yaml", export("b", "echo b\nfi"))
    write_export(folder, "c.yaml", export("c", 'echo "$ARG_x"'))
    exports = load_exports([folder])
    first = check_exports(exports)
    clear_cache()
    one_by_one = [check_exports([e])[0] for e in exports]
    assert first == one_by_one
    assert [r.status for r in first] == ["refused", "refused", "accepted"]


def run_pool(pool_bash: str, texts: list[str], timeout: float = 5.0) -> dict[str, str | None]:
    got: dict[str, str | None] = {}
    done = threading.Event()

    def record(key: str, verdict: str | None) -> None:
        got[key] = verdict
        if len(got) == len(texts):
            done.set()

    Pool(pool_bash, record, workers=2, timeout=timeout).add(
        [(str(i), t) for i, t in enumerate(texts)]
    )
    assert done.wait(30)
    return got


def test_a_bash_that_cannot_start_refuses(tmp_path: Path) -> None:
    got = run_pool(str(tmp_path / "no-such-bash"), ["echo a", "echo b"])
    assert all(v is not None and v.startswith("bash -n could not run") for v in got.values())


def test_a_bash_that_hangs_is_killed_and_refuses(tmp_path: Path) -> None:
    hang = tmp_path / "hang"
    hang.write_text("#!/bin/sh\nexec sleep 60\n")
    hang.chmod(0o755)
    got = run_pool(str(hang), ["echo a", "echo b", "echo c"], timeout=0.3)
    assert got == {str(i): "bash -n did not finish within 0.3 s" for i in range(3)}


def test_the_pool_uses_the_real_bash_verdicts() -> None:
    got = run_pool(_BASH, ["echo ok", "done", "cat <<EOF\nx"])
    assert got["0"] is None
    assert "`done'" in (got["1"] or "")
    assert "here-document" in (got["2"] or "")


# Scripts whose parse leans on the locale (multibyte text, $'\u…', names)
# and the usual syntax errors, plus every run: template of the labelled corpus.
LOCALE_SENSITIVE = [
    "echo é",
    "é=1",
    'x=é; echo "$x"',
    "echo $'\\u00e9\\xff'",
    "[[ é == é ]]",
    "case é in é) echo y ;; esac",
    "echo 'é",
    "f() { echo é; }; f",
    "é() { :; }",
    "echo \xff\xfe Latin-1 letters",
    "cat <<ÉOF\nx\nÉOF",
    "cat <<EOF\nx",
    "echo a\nfi",
    "done",
    "for x in a b; do echo",
    "echo $((1 +))",
    "echo ${x:-é}",
    "arr=(é ü) ; echo ${arr[é]}",
    'echo "unterminated',
    "select x in a; do :; done",
]


def test_the_locale_bash_n_runs_with_gives_the_verdicts_of_lc_all_c_utf8() -> None:
    texts = LOCALE_SENSITIVE + [c.run for c in corpus() if c.run is not None]
    prime(texts)
    for text in texts:
        old = subprocess.run(
            [_BASH, "--noprofile", "--norc", "-n"],
            input=text.encode("utf-8"),
            capture_output=True,
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            check=False,
        )
        output = (old.stdout + old.stderr).decode("utf-8", "replace").strip()
        expected = output or (
            f"bash -n exited with status {old.returncode}" if old.returncode else None
        )
        assert bash_syntax_error(text) == expected, text


def test_a_worker_that_dies_refuses_what_it_had_pending(tmp_path: Path) -> None:
    hang = tmp_path / "hang"
    hang.write_text("#!/bin/sh\nexec sleep 60\n")
    hang.chmod(0o755)
    got: dict[str, str | None] = {}
    arrived = threading.Semaphore(0)

    def record(key: str, verdict: str | None) -> None:
        got[key] = verdict
        arrived.release()

    pool = Pool(str(hang), record, workers=1, timeout=2.0)
    pool.add([("a", "echo a"), ("b", "echo b"), ("c", "echo c")])
    assert pool._proc is not None
    pool._proc.kill()
    for _ in range(3):
        assert arrived.acquire(timeout=30)
    assert set(got) == {"a", "b", "c"}
    assert all((v or "").startswith("bash -n worker ended early") for v in got.values())
    # the pool starts a new worker for what comes next
    pool.add([("d", "echo d")])
    assert arrived.acquire(timeout=30)
    assert got["d"] == "bash -n did not finish within 2 s"
