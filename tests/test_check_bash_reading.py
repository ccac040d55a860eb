"""Issue 17: bash reads every script (`mcp_harbor.check._reprint`), many per
process. Whatever else is in its batch, each script gets exactly the verdict
its own bash would give (a script's unterminated construct never hides
another's error, nor swallows another script), and a refusal still names its
export, file, line and the command.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from harbor_helpers import write_export

from mcp_harbor.check import _analysis, _reprint, check_exports, clear_cache, load_and_check
from mcp_harbor.check._analysis import _reads_alike
from mcp_harbor.check._gates import BASH
from mcp_harbor.config import load_exports
from tests.check.corpus import corpus
from tests.check.test_reprint_alike import exports_of

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
    assert _reprint.reprint(body).error is None
    assert "`fi'" in (_reprint.reprint(body + "fi\n").error or "")
    assert "here-document" in (_reprint.reprint(body + "cat <<EOF\nx\n").error or "")


#: Scripts that leave something open at their end, between good ones: each
#: would swallow or change what follows it in a batch.
OPEN_ENDED = [
    'echo "unterminated',
    "cat <<EOF\nbody",
    "echo trailing \\",
    "{ echo open",
    "if true; then echo x",
    "case a in a) echo",
    "echo $(echo open",
    "cat <<'Q'\n: a canonical line $(:)\nQ",
]


def test_a_batch_gives_each_script_its_own_verdict() -> None:
    texts = [f"echo {i}" if i % 7 else f"echo {i}\nfi" for i in range(60)]
    for k, text in enumerate(OPEN_ENDED):  # each between good scripts
        texts.insert(k * 7 + 1, text)
    batched = _reprint.reprints(texts)
    alone = [_reprint._alone(t) for t in texts]
    assert batched == alone
    verdicts = dict(zip(texts, alone, strict=True))
    for i in range(60):
        assert (
            (verdicts[f"echo {i}"].error is None)
            if i % 7
            else ("`fi'" in (verdicts[f"echo {i}\nfi"].error or ""))
        )
    accepted = {t for t in OPEN_ENDED if verdicts[t].error is None}
    assert accepted == {"echo trailing \\", "cat <<'Q'\n: a canonical line $(:)\nQ"}


def test_check_exports_is_the_same_with_or_without_cached_readings(tmp_path: Path) -> None:
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


def test_a_bash_that_cannot_start_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_reprint, "BASH", str(tmp_path / "no-such-bash"))
    got = _reprint.reprints(["echo a", "echo b"])
    assert all(r.text is None and "could not run" in (r.error or "") for r in got)


def test_a_bash_that_hangs_is_killed_and_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hang = tmp_path / "hang"
    hang.write_text("#!/bin/sh\nexec sleep 60\n")
    hang.chmod(0o755)
    monkeypatch.setattr(_reprint, "BASH", str(hang))
    monkeypatch.setattr(_reprint, "_TIMEOUT", 0.3)
    got = _reprint.reprints(["echo a", "echo b", "echo c"])
    assert [r.error for r in got] == ["bash --pretty-print did not finish within 0.3 s"] * 3


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


def _said(error: str) -> str:
    """What bash said, without the name it was started under."""
    return re.sub(r"^\S*bash: ", "", error.strip().splitlines()[0])


def test_bash_reads_scripts_as_bash_n_does_under_lc_all_c_utf8() -> None:
    texts = LOCALE_SENSITIVE + [c.run for c in corpus() if c.run is not None]
    readings = _reprint.reprints(texts)
    for text, reading in zip(texts, readings, strict=True):
        old = subprocess.run(
            [BASH, "--noprofile", "--norc", "-n"],
            input=text.encode("utf-8"),
            capture_output=True,
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            check=False,
        )
        output = (old.stdout + old.stderr).decode("utf-8", "replace").strip()
        refused = bool(output) or old.returncode != 0
        assert (reading.error is not None) == refused, text
        if output and reading.error is not None:
            assert _said(reading.error) == _said(output), text


def test_scripts_bash_reads_alike_share_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"echo {i} $(  :  )" for i in range(50)] + ["f() { :; }", "cat <<E\nx\nE"]
    alone = [_reprint._alone(t) for t in texts]
    runs: list[int] = []
    real = _reprint._run

    def counted(data: str) -> tuple[int, str, str]:
        runs.append(len(data))
        return real(data)

    monkeypatch.setattr(_reprint, "_run", counted)
    assert _reprint._batch(texts) == alone
    assert len(runs) == 1
    assert alone[0].text == "echo 0 $(:)\n"


def test_reads_alike_only_for_the_same_text_or_a_final_newline() -> None:
    assert _reads_alike("echo a\n", "echo a\n")
    assert _reads_alike("echo a", "echo a\n")
    assert not _reads_alike("echo  a", "echo a\n")
    assert not _reads_alike("echo a\n\n", "echo a\n")
    # tree-sitter cannot read the script without the newline: not alike
    assert not _reads_alike("echo `date +%s # epoch` x", "echo `date +%s # epoch` x\n")


def test_the_fixtures_get_the_same_reports_without_skipping_reprints_read_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tests/check/test_reprint_alike.py (later stage): the same on the corpus
    exports = exports_of(tmp_path / "exports", with_corpus=False)
    skipped = check_exports(exports)
    clear_cache()
    monkeypatch.setattr(_analysis, "_reads_alike", lambda _text, _reprinted: False)
    assert check_exports(exports) == skipped
    assert sum(r.status == "refused" for r in skipped) > 50
